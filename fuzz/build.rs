//! Compiles c_coverage.c (the `__sanitizer_cov_trace_pc` hook that turns
//! gcc's coverage calls in tree-sitter's C code into libFuzzer counters; see
//! that file and ROBUSTNESS.md) and symbolize.c (the sanitizer runtime's
//! `__sanitizer_symbolize_pc`, which libFuzzer's `-print_coverage=1` needs;
//! fuzz/stability.py uses it). Linked whole so that the hook is found
//! whichever archive needs it first; `--wrap` sends the C code's calls to it
//! rather than to libFuzzer's own `__sanitizer_cov_trace_pc` (which exits).
fn main() {
    println!("cargo:rerun-if-changed=c_coverage.c");
    println!("cargo:rerun-if-changed=symbolize.c");
    cc::Build::new()
        .file("c_coverage.c")
        .file("symbolize.c")
        .opt_level(2)
        .flag("-fno-sanitize-coverage=trace-pc,trace-cmp")
        .cargo_metadata(false)
        .compile("pbn_fuzz_c_coverage");
    let out = std::env::var("OUT_DIR").unwrap();
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static:+whole-archive=pbn_fuzz_c_coverage");
    println!("cargo:rustc-link-arg=-Wl,--wrap=__sanitizer_cov_trace_pc");
}
