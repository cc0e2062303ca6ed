//! Developer aid: `pbn check` in process without mimalloc, so that heap
//! profilers see every allocation (the `pbn` binary's mimalloc hides them).
//! `cargo build --profile profiling -p pbn-core --example memprof`, then
//! `heaptrack target/profiling/examples/memprof FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let bytes = std::fs::read(&path).expect("a readable file");
    let source = pbn_core::text::decode_owned(bytes);
    let r = pbn_core::checker::check_text(&source, &Default::default());
    println!("{} diagnostics", r.diagnostics.len());
}
