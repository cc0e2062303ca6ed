fn main() {
    // The double-dummy solver recurses deep with large frames: natively its
    // threads get `pbn_core::dd::SOLVER_STACK_SIZE` (16 MiB) of stack; on
    // wasm the module's one stack is set at link time (default 1 MiB).
    if std::env::var("TARGET").is_ok_and(|t| t.starts_with("wasm32")) {
        println!("cargo:rustc-link-arg=-zstack-size=16777216");
    }
}
