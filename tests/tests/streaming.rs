//! `pbn fmt` and `pbn dump` stream piece by piece (`format::format`,
//! `model::dump::write_streamed`): their output must be byte for byte that
//! of the whole-document path (`reference::format_whole`,
//! `model::dump::dump` printed by serde_json), on the
//! corpus, the fixtures and examples, and generated files of several pieces
//! with the cases that cross pieces (`#`/`##` values, §4.8; games kept as
//! written; a byte order mark; CR and CRLF line ends; the export header).
//! With the safe fixes applied first (`format::format_streamed`, what
//! `pbn fmt` writes), the output is that of the safe fixes applied to the
//! whole text, then formatted (`whole_fixed`, from `reference::fix_whole`).

use pbn_core::format::{format, format_streamed, EolOption, FormatOptions, Formatted};
use pbn_core::reference::fix_whole;
use pbn_core::text::{decode, SourceText};
use pbn_tests::gen::{generate, GenOptions};

fn options() -> Vec<FormatOptions> {
    let mut all = Vec::new();
    for add_missing_tags in [true, false] {
        for eol in [EolOption::Keep, EolOption::Crlf, EolOption::Lf] {
            for export_header in [false, true] {
                all.push(FormatOptions {
                    add_missing_tags,
                    eol,
                    export_header,
                });
            }
        }
    }
    all
}

fn streamed(source: &SourceText, opts: &FormatOptions) -> String {
    let r = format(source, opts);
    let whole = format_whole(source, opts);
    assert_eq!(r.verbatim_games, whole.verbatim_games);
    assert_eq!(r.unprintable_games, whole.unprintable_games);
    assert_eq!(r.dropped_duplicates, whole.dropped_duplicates);
    r.text
}

/// The formatter on the whole document, parsed and lowered at once: the
/// reference for the streamed path.
fn format_whole(source: &SourceText, opts: &FormatOptions) -> Formatted {
    let trees = pbn_core::syntax::parse_pieces(&source.text);
    let doc = pbn_core::model::lower(&trees, &source.text);
    pbn_core::reference::format_whole(source, &trees, &doc, opts)
}

fn dump_whole(text: &str, pretty: bool) -> String {
    let trees = pbn_core::syntax::parse_pieces(text);
    let doc = pbn_core::model::lower(&trees, text);
    let mut v = pbn_core::model::dump::dump(&doc, text);
    v["encoding"] = serde_json::json!("x");
    if pretty {
        serde_json::to_string_pretty(&v).unwrap()
    } else {
        serde_json::to_string(&v).unwrap()
    }
}

fn dump_streamed(text: &str, pretty: bool) -> String {
    let mut out = String::new();
    let extra = [("encoding", serde_json::json!("x"))];
    pbn_core::model::dump::write_streamed(text, &extra, pretty, |s| out.push_str(s));
    out
}

/// The first line where `a` and `b` differ, for the failure message.
fn first_difference(a: &str, b: &str) -> String {
    let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
    format!("first difference at line {:?}", line.map(|l| l + 1))
}

/// The reference for `pbn fmt`'s text: every safe fix applied to the
/// whole text at once, then formatted whole, the file's own line end kept.
fn whole_fixed(source: &SourceText, opts: &FormatOptions) -> Formatted {
    let (mut fixed, fixes) = fix_whole(source);
    if let Some(f) = &mut fixed {
        f.dominant_line_ending = source.dominant_line_ending;
    }
    let mut out = format_whole(fixed.as_ref().unwrap_or(source), opts);
    out.fixes = fixes;
    out
}

fn check_same(name: &str, source: &SourceText, failures: &mut Vec<String>) {
    for opts in options() {
        let whole = format_whole(source, &opts).text;
        let text = streamed(source, &opts);
        if text != whole {
            failures.push(format!(
                "{name} {opts:?}: fmt {}",
                first_difference(&text, &whole)
            ));
        }
    }
    let opts = FormatOptions::default();
    let mut fixed_text = String::new();
    let fixed = format_streamed(source, &opts, |s| fixed_text.push_str(s));
    let whole = whole_fixed(source, &opts);
    if fixed_text != whole.text || fixed.fixes != whole.fixes {
        failures.push(format!(
            "{name}: fmt with fixes {} ({} and {} fixes)",
            first_difference(&fixed_text, &whole.text),
            fixed.fixes,
            whole.fixes
        ));
    }
    for pretty in [true, false] {
        let (a, b) = (
            dump_streamed(&source.text, pretty),
            dump_whole(&source.text, pretty),
        );
        if a != b {
            failures.push(format!("{name}: dump {}", first_difference(&a, &b)));
        }
    }
}

/// Generated games, with every tenth game given `#`/`##` values, a broken
/// game and comment-only stretches between games; several pieces long.
fn tricky(games: usize, crlf: bool) -> String {
    let text = generate(games, 7, &GenOptions::default());
    let mut out = String::new();
    for (i, g) in text.split("\n\n").enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        match i % 10 {
            3 => out.push_str(&g.replacen("[Event \"", "[Event \"##", 1)),
            4 => out.push_str(&g.replacen("[Site \"", "[Site \"#\"]\n[X \"", 1)),
            5 => out.push_str(&g.replacen("[Dealer \"", "[Dealer \"#", 1)),
            6 => out.push_str(&g.replacen("[Auction", "{ loose }\n\n[Board \"x\"] [Auction", 1)),
            7 => out.push_str(&g.replacen("]\n", "\n", 1)),
            8 => out.push_str(&g.replacen("[Deal ", "[Contract \"#\"]\n[Deal ", 1)),
            _ => out.push_str(g),
        }
    }
    if crlf {
        out = out.replace('\n', "\r\n");
    }
    out
}

#[test]
fn streamed_fmt_and_dump_equal_the_whole_document_path_on_generated_files() {
    let mut failures = Vec::new();
    for crlf in [false, true] {
        let text = tricky(300, crlf);
        assert!(
            text.len() > 8 * pbn_core::syntax::EDIT_PIECE,
            "several pieces"
        );
        let source = decode(text.as_bytes());
        check_same(&format!("tricky crlf={crlf}"), &source, &mut failures);
        // It is streamed: more than one part reaches the sink.
        let mut parts = 0;
        format_streamed(&source, &FormatOptions::default(), |_| parts += 1);
        assert!(parts > 4, "{parts} parts");
    }
    let plain = generate(200, 3, &GenOptions::default());
    check_same("generated", &decode(plain.as_bytes()), &mut failures);
    let bom = format!("\u{feff}{plain}");
    check_same("bom", &decode(bom.as_bytes()), &mut failures);
    let cr = plain.replace('\n', "\r");
    check_same("cr", &decode(cr.as_bytes()), &mut failures);
    for small in [
        "",
        "\n\n",
        "% PBN 2.1\n",
        "{ only }\n",
        "[Event \"a\"\n",
        "]\n\n[Event \"#\"]\n",
    ] {
        check_same(
            &format!("{small:?}"),
            &decode(small.as_bytes()),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn streamed_fmt_and_dump_equal_the_whole_document_path_on_corpus_and_fixtures() {
    let mut sources = pbn_tests::corpus::own_sources();
    if let Some(dir) = pbn_tests::corpus::corpus_dir() {
        sources.extend(pbn_tests::corpus::corpus_sources(&dir));
    }
    assert!(sources.len() > 10);
    let mut failures = Vec::new();
    for (name, source) in &sources {
        check_same(name, source, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_difference_is_reported() {
    // The comparison itself can fail: a one-byte change is found.
    let a = generate(3, 1, &GenOptions::default());
    let b = a.replacen("[Event", "[event", 1);
    assert_ne!(a, b);
    assert!(first_difference(&a, &b).contains("Some("));
}

/// A game longer than `syntax::GAME_WINDOW` is read in parts, each a game
/// with a syntax error (PBN0007 where each part after the first starts):
/// `pbn fmt` keeps every part as written, byte for byte, and formats the
/// games around it (no fix is made from a part: it would "repair" tags the
/// whole game has), streamed or whole; the check piece by piece is the
/// whole-document check.
#[test]
fn a_game_cut_into_parts_is_kept_as_written() {
    let window = pbn_core::syntax::GAME_WINDOW;
    let small = "[Event \"x\"]\n[Dealer \"n\"]\n[Vulnerable \"ns\"]\n";
    let line = "[Event \"x\"]\n[Dealer \"n\"]\n";
    let long = line.repeat(5 * window / line.len() / 2);
    let text = format!("{small}\n{long}\n{small}");
    let source = decode(text.as_bytes());
    let mut failures = Vec::new();
    check_same("cut game", &source, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    let opts = FormatOptions::default();
    let mut out = String::new();
    let r = format_streamed(&source, &opts, |s| out.push_str(s));
    assert!(out.contains(&long), "a part was changed");
    assert_eq!(r.syntax_error_games(), [1, 2, 3]);
    // The small games around it are formatted (values in export form).
    assert!(out.starts_with("[Event \"x\"]"));
    assert_eq!(out.matches("[Vulnerable \"NS\"]").count(), 2);

    let opts = pbn_core::checker::CheckOptions::default();
    let piecewise = pbn_core::checker::check_text(&source, &opts);
    let whole = pbn_core::reference::check_whole(&source, &opts);
    assert_eq!(piecewise.diagnostics, whole.diagnostics);
    assert_eq!(piecewise.games, 5);
    let parts: Vec<usize> = piecewise
        .diagnostics
        .iter()
        .filter(|d| d.code.code == "PBN0007")
        .map(|d| d.range.start)
        .collect();
    assert_eq!(parts.len(), 2);
    assert!(parts
        .iter()
        .all(|&p| pbn_core::syntax::continues_game(&text, p)));
}
