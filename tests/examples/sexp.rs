fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = pbn_core::syntax::parse(&a[1]);
    println!("{}", t.root_node().to_sexp());
}
