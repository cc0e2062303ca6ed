fn main() {
    let a: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&a[1]).unwrap();
    let src = pbn_core::text::decode_owned(bytes);
    let r = pbn_core::checker::check_text(&src, &Default::default());
    eprintln!("{}", r.diagnostics.len());
}
