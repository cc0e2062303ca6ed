//! Documents are parsed in pieces cut at game breaks (`pbn_core::syntax::Forest`:
//! large pieces on every core for `pbn check`, small ones that an edit
//! reparses in the language server). The parse is canonical: whatever the
//! pieces, the same top-level nodes with the same subtrees and byte ranges,
//! the same model, diagnostics and formatted output; where the document has
//! no syntax error (and no `{` without a `}` after it), exactly the
//! whole-file tree; where it has one, the broken games are parsed one at a
//! time. Checked with pieces of one game,
//! of a few hundred bytes and as large as possible, on every corpus file,
//! every fixture, every code example, generated files with tricky comments
//! and line endings, and randomly damaged files.

use pbn_core::syntax::{parse, parse_split, top_nodes};
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use pbn_tests::gen::{generate, GenOptions, LineEnding};
use std::path::Path;

fn node_list<T: pbn_core::syntax::Trees + ?Sized>(
    trees: &T,
) -> Vec<(String, std::ops::Range<usize>)> {
    top_nodes(trees)
        .iter()
        .map(|n| (n.to_sexp(), n.byte_range()))
        .collect()
}

/// Returns how many pieces the text was cut into.
fn assert_same(name: &str, text: &str) -> usize {
    let pieces = parse_split(text, 1);
    let whole = parse_split(text, usize::MAX);
    let small = parse_split(text, 300);
    assert_eq!(
        node_list(&small),
        node_list(&pieces),
        "{name}: top-level nodes differ (small pieces)"
    );
    assert_eq!(
        node_list(&whole),
        node_list(&pieces),
        "{name}: top-level nodes differ (one piece)"
    );
    let one = parse(text);
    // A `{` with no `}` after it (an unterminated comment) makes the parse
    // go one game at a time (`split::parse_one`), as a syntax error does.
    let unterminated = text[text.rfind('}').map_or(0, |c| c + 1)..].contains('{');
    if !one.root_node().has_error() && !unterminated {
        assert_eq!(whole.len(), 1, "{name}");
        assert_eq!(
            node_list(&one),
            node_list(&pieces),
            "{name}: not the whole-file tree"
        );
    }
    let source = pbn_core::text::SourceText::from_text(text.to_owned());
    let opts = pbn_core::checker::CheckOptions::default();
    let a = pbn_core::reference::check_parsed(&source, &whole, &opts).diagnostics;
    let b = pbn_core::reference::check_parsed(&source, &pieces, &opts).diagnostics;
    let key = |v: &[pbn_core::diagnostic::Diagnostic]| {
        v.iter()
            .map(|d| (d.code.code, d.range.clone(), d.message.clone(), d.game))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&a), key(&b), "{name}: diagnostics differ");
    let export = pbn_core::checker::CheckOptions {
        export: true,
        ..Default::default()
    };
    let a = pbn_core::reference::check_parsed(&source, &whole, &export).diagnostics;
    let b = pbn_core::reference::check_parsed(&source, &pieces, &export).diagnostics;
    assert_eq!(key(&a), key(&b), "{name}: export diagnostics differ");
    let da = pbn_core::model::lower(&whole, text);
    let db = pbn_core::model::lower(&pieces, text);
    assert_eq!(
        pbn_core::model::dump::dump(&da, text),
        pbn_core::model::dump::dump(&db, text),
        "{name}: models differ"
    );
    let fo = pbn_core::format::FormatOptions::default();
    let fa = pbn_core::reference::format_whole(&source, &whole, &da, &fo);
    let fb = pbn_core::reference::format_whole(&source, &pieces, &db, &fo);
    assert_eq!(fa.text, fb.text, "{name}: formatted output differs");
    pieces.len()
}

#[test]
fn corpus_files_parse_the_same_in_pieces() {
    let Some(dir) = corpus_dir() else { return };
    let mut split = 0;
    for (name, source) in corpus_sources(&dir) {
        if assert_same(&name, &source.text) > 1 {
            split += 1;
        }
    }
    assert!(
        split >= 30,
        "only {split} corpus files were cut into pieces"
    );
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
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut files,
    );
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples"),
        &mut files,
    );
    assert!(files.len() >= 5);
    for f in files {
        let source = pbn_core::text::decode(&std::fs::read(&f).unwrap());
        assert_same(&f.display().to_string(), &source.text);
    }
    // Every diagnostic code's examples, each followed by a copy of itself
    // after a game break, so that there is something to cut.
    for c in pbn_core::codes::all() {
        for (which, ex) in [("bad", c.bad), ("good", c.good)] {
            let text = format!("{ex}\n\n{ex}");
            assert_same(&format!("{} {which} example", c.code), &text);
        }
    }
}

#[test]
fn generated_files_parse_the_same_in_pieces() {
    for (seed, line_ending) in [(1, LineEnding::Lf), (2, LineEnding::CrLf)] {
        let text = generate(
            200,
            seed,
            &GenOptions {
                line_ending,
                ..GenOptions::default()
            },
        );
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
        // Lone CR line ends: an escape line right after a blank line
        // (tree-sitter counts columns from the last LF only; found by
        // fuzzing `pbn fmt`).
        "[Event \"a\"]\r\r% note\r[Event \"b\"]\r\r \r\r%\r\r[Event \"c\"]\r".to_string(),
        "% PBN 2.1\n[Event \"a\"]\r\r% note\r\n[Event \"b\"]\n\r%\r[Event \"c\"]\r".to_string(),
        // A NUL ends a comment or a string where it stands (tree-sitter's
        // lexer takes it for the end of its input inside a token): the
        // blank lines after it are game breaks.
        "{\0\n\n%\r\r%\n\n}\r\r\r\r\r\r".to_string(),
        format!("{game}{{x\0y\n\n{game}}}\n\n{game}"),
        format!("{game};x\0y {{\n\n{game}}}\n\n{game}"),
        format!("{game}[Event \"a\0b {{\"]\n\n{game}}}\n\n{game}"),
        format!("{game}{{\0}}\n\n{game}{{a\n\0\n}}\n\n{game}"),
    ];
    for (i, text) in cases.iter().enumerate() {
        assert_same(&format!("case {i}"), text);
    }
}

/// A `{` whose `}` lies after the piece, with a NUL before it (so the
/// scan of the whole text took it for an unterminated comment and cut after
/// it): a piece with an error is parsed one game at a time at the same game
/// breaks, whatever comes after the piece (found by the `fmt` target,
/// `nul-comment-across-a-piece-end`, where formatting in pieces of 2,048
/// bytes differed).
#[test]
fn a_nul_after_a_piece_does_not_change_its_games() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fuzz/fmt/nul-comment-across-a-piece-end");
    let text = pbn_core::text::decode(&std::fs::read(path).unwrap()).text;
    for piece in [256, 512, 1024, 2048] {
        let a = parse_split(&text, piece);
        let b = parse_split(&text, 1);
        assert_eq!(node_list(&a), node_list(&b), "pieces of {piece} bytes");
    }
    assert_same("nul-comment-across-a-piece-end", &text);
}

/// The cut points are real game breaks: every cut is the end of a
/// `game_break` node of the whole-file tree.
#[test]
fn cut_points_are_game_break_ends() {
    let text = generate(100, 5, &GenOptions::default());
    let tree = parse(&text);
    let ends: std::collections::HashSet<usize> = top_nodes(&tree)
        .iter()
        .filter(|n| n.kind() == "game_break")
        .map(|n| n.end_byte())
        .collect();
    let cuts = pbn_core::syntax::cut_points(&text, 1);
    assert_eq!(cuts.len(), 99);
    for c in cuts {
        assert!(
            ends.contains(&c),
            "cut at {c} is not the end of a game break"
        );
    }
}

/// Random damage (deleted, inserted and replaced bytes, including brackets,
/// quotes and braces): the parse is still the same in any pieces.
#[test]
fn damaged_texts_parse_the_same_in_pieces() {
    let base = generate(40, 9, &GenOptions::default());
    let mut rng = pbn_tests::gen::Rng::new(5);
    let junk: [&str; 18] = [
        "[",
        "]",
        "\"",
        "{",
        "}",
        ";",
        "%",
        "\n",
        "\n\n",
        "[Note \"1:x\"]",
        "=1=",
        "$",
        "^",
        "x",
        "é",
        " ",
        "\r",
        "\0",
    ];
    for round in 0..150 {
        let mut text = base.clone();
        for _ in 0..1 + rng.below(6) {
            let mut at = rng.below(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + rng.below(4)).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let with: &&str = rng.pick(&junk);
            text.replace_range(at..end, with);
        }
        assert_same(&format!("round {round}"), &text);
    }
}

/// The language server's way: random edits recorded with `Forest::edit`,
/// the pieces cut again (`Forest::recut`) and parsed piece by piece give the parse of the final
/// text, with small pieces so that edits cross piece boundaries, merge and
/// split pieces, and open `{` comments that run into later pieces.
#[test]
fn edited_forests_equal_a_fresh_parse() {
    fn point(text: &str, at: usize) -> tree_sitter::Point {
        let row = text[..at].matches('\n').count();
        let col = at - text[..at].rfind('\n').map(|p| p + 1).unwrap_or(0);
        tree_sitter::Point { row, column: col }
    }
    let mut rng = pbn_tests::gen::Rng::new(17);
    let junk: [&str; 16] = [
        "",
        "\n",
        "\n\n",
        "{",
        "}",
        "[",
        "]",
        "\"",
        "x",
        "[Note \"1:x\"]",
        "%",
        " ",
        "\r\n",
        "[Event \"e\"]\n\n",
        "é",
        ";",
    ];
    for round in 0..60 {
        let mut text = generate(12, round, &GenOptions::default());
        let mut forest = pbn_core::syntax::Forest::cut(&text, 400);
        for step in 0..12 {
            for _ in 0..1 + rng.below(3) {
                let mut at = rng.below(text.len() + 1);
                if rng.chance(0.3) {
                    // At a piece boundary, or just before one (in the blank
                    // line that ends the previous piece).
                    let r = forest.ranges();
                    at = r[rng.below(r.len())].start.saturating_sub(rng.below(2));
                }
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let span = if rng.chance(0.1) { 3000 } else { 6 };
                let mut end = (at + rng.below(span)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let insert = *rng.pick(&junk);
                let (sp, op) = (point(&text, at), point(&text, end));
                text.replace_range(at..end, insert);
                let np = point(&text, at + insert.len());
                forest.edit(&tree_sitter::InputEdit {
                    start_byte: at,
                    old_end_byte: end,
                    new_end_byte: at + insert.len(),
                    start_position: sp,
                    old_end_position: op,
                    new_end_position: np,
                });
            }
            forest.recut(&text);
            let fresh = parse_split(&text, 1);
            let (a, b) = (node_list(&forest.trees(&text)), node_list(&fresh));
            if a != b {
                let i = a
                    .iter()
                    .zip(&b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.len().min(b.len()));
                let show = |v: &[(String, std::ops::Range<usize>)]| {
                    v.iter()
                        .skip(i.saturating_sub(1))
                        .take(3)
                        .map(|(s, r)| format!("{r:?} {}", &s[..s.len().min(60)]))
                        .collect::<Vec<_>>()
                };
                let lo = a
                    .get(i)
                    .or(b.get(i))
                    .map(|x| x.1.start)
                    .unwrap_or(0)
                    .saturating_sub(80);
                panic!("round {round} step {step}: node {i} differs\nedited: {:?}\nfresh: {:?}\npieces: {:?}\ntext: {:?}", show(&a), show(&b), forest.ranges(), &text[lo..(lo + 300).min(text.len())]);
            }
            let ranges = forest.ranges();
            assert_eq!(ranges.first().map(|r| r.start), Some(0));
            assert_eq!(ranges.last().map(|r| r.end), Some(text.len()));
            assert!(
                ranges.windows(2).all(|w| w[0].end == w[1].start),
                "round {round} step {step}: pieces not contiguous"
            );
        }
    }
}
