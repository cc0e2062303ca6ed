//! Developer aid: format a file and report what `pbn check --export` still
//! finds in the output. `cargo run -p pbn-core --example fmt_debug -- FILE`
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let bytes = std::fs::read(&path).unwrap();
    let source = pbn_core::text::decode(&bytes);
    let opts = pbn_core::format::FormatOptions {
        eol: pbn_core::format::EolOption::Crlf,
        ..Default::default()
    };
    let f = pbn_core::format::format(&source, &opts);
    let before = pbn_core::checker::check_text(
        &source,
        &pbn_core::checker::CheckOptions {
            export: false,
            ..Default::default()
        },
    );
    let after = pbn_core::checker::check_text(
        &pbn_core::text::decode(f.text.as_bytes()),
        &pbn_core::checker::CheckOptions {
            export: true,
            ..Default::default()
        },
    );
    let errors_before = before
        .diagnostics
        .iter()
        .filter(|d| d.severity == pbn_core::diagnostic::Severity::Error)
        .count();
    let index = pbn_core::text::LineIndex::new(&f.text);
    println!(
        "{path}: {} errors before; verbatim games {:?}",
        errors_before, f.verbatim_games
    );
    for d in after
        .diagnostics
        .iter()
        .filter(|d| d.code.category == pbn_core::codes::Category::Export)
    {
        let p = index.line_col(
            &f.text,
            d.range.start,
            pbn_core::text::PositionEncoding::Chars,
        );
        println!(
            "  {}:{} {} {}",
            p.line + 1,
            p.col + 1,
            d.code.code,
            d.message
        );
    }
    if std::env::var_os("SHOW").is_some() {
        print!("{}", f.text);
    }
}
