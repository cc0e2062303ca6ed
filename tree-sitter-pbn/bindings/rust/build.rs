fn main() {
    let src_dir = std::path::Path::new("src");

    let mut c_config = cc::Build::new();
    c_config.std("c11").include(src_dir);

    // On wasm32-unknown-unknown there is no libc: tree-sitter-language
    // exports the minimal headers (stdio.h, stdlib.h, string.h…) the
    // generated parser and scanner include, as tree-sitter CLI's own
    // binding template does.
    if std::env::var("TARGET").is_ok_and(|t| t == "wasm32-unknown-unknown") {
        let headers = std::env::var("DEP_TREE_SITTER_LANGUAGE_WASM_HEADERS")
            .expect("tree-sitter-language exports its wasm headers");
        c_config.include(headers);
    }
    c_config.flag_if_supported("-Wno-unused-parameter");
    c_config.flag_if_supported("-Wno-unused-but-set-variable");
    c_config.flag_if_supported("-Wno-trigraphs");

    let parser_path = src_dir.join("parser.c");
    c_config.file(&parser_path);
    println!("cargo:rerun-if-changed={}", parser_path.to_str().unwrap());

    let scanner_path = src_dir.join("scanner.c");
    c_config.file(&scanner_path);
    println!("cargo:rerun-if-changed={}", scanner_path.to_str().unwrap());

    c_config.opt_level(3);
    c_config.compile("tree-sitter-pbn");
}
