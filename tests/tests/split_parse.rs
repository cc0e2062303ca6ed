//! Large files are parsed in pieces cut at game breaks, on every core
//! (`pbn::syntax::parse_split`). The pieces must give exactly what one
//! whole-file parse gives: the same top-level nodes with the same subtrees
//! and byte ranges, the same model, the same diagnostics and the same
//! formatted output. Checked with a cut at every game break (piece size 1)
//! on every corpus file, every fixture and generated files with tricky
//! comments and line endings.

use pbn::syntax::{parse, parse_split, top_nodes};
use pbn_tests::corpus::{corpus_dir, corpus_files};
use pbn_tests::gen::{generate, GenOptions, LineEnding};
use std::path::Path;

fn node_list<T: pbn::syntax::Trees + ?Sized>(trees: &T) -> Vec<(String, std::ops::Range<usize>)> {
    top_nodes(trees).iter().map(|n| (n.to_sexp(), n.byte_range())).collect()
}

/// Returns how many pieces the text was cut into.
fn assert_same(name: &str, text: &str) -> usize {
    let whole = parse(text);
    let pieces = parse_split(text, 1);
    let source = pbn::text::SourceText::from_text(text.to_owned());
    if pieces.len() > 1 {
        assert_eq!(node_list(&pieces), node_list(&whole), "{name}: top-level nodes differ");
    }
    let opts = pbn::check::CheckOptions::default();
    let a = pbn::check::check_parsed(&source, &whole, &opts).diagnostics;
    let b = pbn::check::check_parsed(&source, &pieces, &opts).diagnostics;
    let key = |v: &[pbn::diagnostic::Diagnostic]| v.iter().map(|d| (d.code.code, d.range.clone(), d.message.clone(), d.game)).collect::<Vec<_>>();
    assert_eq!(key(&a), key(&b), "{name}: diagnostics differ");
    let export = pbn::check::CheckOptions { export: true };
    let a = pbn::check::check_parsed(&source, &whole, &export).diagnostics;
    let b = pbn::check::check_parsed(&source, &pieces, &export).diagnostics;
    assert_eq!(key(&a), key(&b), "{name}: export diagnostics differ");
    let da = pbn::model::lower(&whole, text);
    let db = pbn::model::lower(&pieces, text);
    assert_eq!(pbn::model::dump::dump(&da, text), pbn::model::dump::dump(&db, text), "{name}: models differ");
    let fo = pbn::format::FormatOptions::default();
    let fa = pbn::format::format_parsed(&source, &whole, &da, &fo);
    let fb = pbn::format::format_parsed(&source, &pieces, &db, &fo);
    assert_eq!(fa.text, fb.text, "{name}: formatted output differs");
    pieces.len()
}

#[test]
fn corpus_files_parse_the_same_in_pieces() {
    let Some(dir) = corpus_dir() else { return };
    let mut split = 0;
    for rel in corpus_files(&dir) {
        let source = pbn::text::decode(&std::fs::read(dir.join(&rel)).unwrap());
        if assert_same(&rel.display().to_string(), &source.text) > 1 {
            split += 1;
        }
    }
    assert!(split >= 30, "only {split} corpus files were cut into pieces");
}

#[test]
fn fixtures_parse_the_same_in_pieces() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "pbn") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), &mut files);
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples"), &mut files);
    assert!(files.len() >= 5);
    for f in files {
        let source = pbn::text::decode(&std::fs::read(&f).unwrap());
        assert_same(&f.display().to_string(), &source.text);
    }
    // Every diagnostic code's examples, each followed by a copy of itself
    // after a game break, so that there is something to cut.
    for c in pbn::codes::all() {
        for (which, ex) in [("bad", c.bad), ("good", c.good)] {
            let text = format!("{ex}\n\n{ex}");
            assert_same(&format!("{} {which} example", c.code), &text);
        }
    }
}

#[test]
fn generated_files_parse_the_same_in_pieces() {
    for (seed, line_ending) in [(1, LineEnding::Lf), (2, LineEnding::CrLf)] {
        let text = generate(200, seed, &GenOptions { line_ending, ..GenOptions::default() });
        assert!(assert_same("generated", &text) >= 150);
    }
    let text = generate(50, 3, &GenOptions::default()).replace('\n', "\r");
    assert!(assert_same("generated, CR line ends", &text) >= 40);
}

/// Comments, strings and escape lines that contain what looks like a game
/// break or a comment: the cut must not fall inside them.
#[test]
fn tricky_texts_parse_the_same_in_pieces() {
    let game = "[Event \"a\"]\n[Board \"1\"]\n";
    let cases = [
        format!("{game}\n{{ a comment\n\nwith an empty line }}\n{game}\n{game}"),
        format!("{game}\n[Event \"{{ not a comment\"]\n\n{game}\n{{\n\n}}\n\n{game}"),
        format!("{game}; {{ not a comment\n\n{game}\n% {{ escape\n\n{game}"),
        format!("{game}  \t\n \n\t\n{game}\n\n\n\n{game}"),
        format!("{game}\n{{ unterminated\n\n{game}\n\n{game}"),
        format!("{game}\n[Event \"\\\" {{ escaped quote\"]\n\n{game}}}\n\n{game}"),
        format!("\u{feff}% PBN 2.1\n{game}\n%\n\n{game}"),
    ];
    for (i, text) in cases.iter().enumerate() {
        assert_same(&format!("case {i}"), text);
    }
}

/// The cut points are real game breaks: every cut is the end of a
/// `game_break` node of the whole-file tree.
#[test]
fn cut_points_are_game_break_ends() {
    let text = generate(100, 5, &GenOptions::default());
    let tree = parse(&text);
    let ends: std::collections::HashSet<usize> =
        top_nodes(&tree).iter().filter(|n| n.kind() == "game_break").map(|n| n.end_byte()).collect();
    let cuts = pbn::syntax::cut_points(&text, 1);
    assert_eq!(cuts.len(), 99);
    for c in cuts {
        assert!(ends.contains(&c), "cut at {c} is not the end of a game break");
    }
}
