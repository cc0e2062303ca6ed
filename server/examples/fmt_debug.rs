//! Developer aid: format a file and report what `pbn check --export` still
//! finds in the output. `cargo run --example fmt_debug -- FILE`
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let bytes = std::fs::read(&path).unwrap();
    let source = pbn::text::decode(&bytes);
    let opts = pbn::format::FormatOptions {
        eol: pbn::format::EolOption::Crlf,
        ..Default::default()
    };
    let f = pbn::format::format(&source, &opts);
    let before = pbn::check::check_text(&source, &pbn::check::CheckOptions { export: false });
    let after = pbn::check::check_text(
        &pbn::text::decode(f.text.as_bytes()),
        &pbn::check::CheckOptions { export: true },
    );
    let errors_before = before
        .diagnostics
        .iter()
        .filter(|d| d.severity == pbn::diagnostic::Severity::Error)
        .count();
    let index = pbn::text::LineIndex::new(&f.text);
    println!(
        "{path}: {} errors before; verbatim games {:?}",
        errors_before, f.verbatim_games
    );
    for d in after
        .diagnostics
        .iter()
        .filter(|d| d.code.category == pbn::codes::Category::Export)
    {
        let p = index.line_col(&f.text, d.range.start, pbn::text::PositionEncoding::Chars);
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
