fn hwm() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find(|l| l.starts_with("VmHWM"))
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap()
}
fn main() {
    pbn::alloc::init();
    let a: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&a[1]).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let base = hwm();
    let stage = a[2].as_str();
    let tree = pbn_core::syntax::parse(&text);
    let mut n = 0usize;
    pbn_core::syntax::for_each_node(tree.root_node(), |_| n += 1);
    eprintln!("parse hwm {} kB (+{}) nodes {n}", hwm(), hwm() - base);
    if stage == "parse" {
        return;
    }
    let trees = vec![tree];
    let doc = pbn_core::model::lower(&trees[..], &text);
    eprintln!("lower hwm {} kB games {}", hwm(), doc.games.len());
    drop(trees);
    if stage == "lower" {
        return;
    }
    let t = pbn_core::model::typed::typed(&text, &doc.games[0]);
    eprintln!("typed hwm {} kB {}", hwm(), t.auction.is_some());
}
