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
    let text = String::from_utf8(std::fs::read(&a[1]).unwrap()).unwrap();
    let w: usize = a[2].parse().unwrap();
    let base = hwm();
    let mut trees = Vec::new();
    let mut s = 0;
    while s < text.len() {
        let e = (s + w).min(text.len());
        trees.push(pbn_core::syntax::parse(&text[s..e]));
        s = e;
    }
    eprintln!(
        "windows {} hwm +{} kB = {:.1} B/B",
        trees.len(),
        hwm() - base,
        (hwm() - base) as f64 * 1024.0 / text.len() as f64
    );
}
