//! Every input kept in `tests/fixtures/fuzz/<target>/` (crashes the fuzz
//! targets of `fuzz/` found, minimized, and a few small interesting corpus
//! inputs) runs through the same property as its target, so they stay fixed
//! in plain `cargo test` without cargo-fuzz. See ROBUSTNESS.md.

use pbn_core::format::{format, FormatOptions};
use pbn_core::text::decode;
use pbn_tests::fuzz::{decode_incremental, encode_incremental, Edit, PointMode, TARGETS};
use std::path::Path;

/// How many games the reader finds in `text` (`pbn dump`'s `games`).
fn games(text: &str) -> usize {
    pbn_tests::fuzz::meaning(text)
        .0
        .as_array()
        .expect("dump has a games array")
        .len()
}

/// The text of a caught panic.
fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn every_fuzz_fixture_passes_its_targets_property() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let mut failures = Vec::new();
    for (target, property) in TARGETS {
        let dir = root.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no fixtures", dir.display());
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            if let Err(e) = std::panic::catch_unwind(|| property(&bytes)) {
                let msg = panic_message(e);
                failures.push(format!(
                    "{target}/{}: {msg}",
                    path.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The formatter's own fixtures are fuzz seeds too: each must pass the
/// `fmt` property in plain `cargo test`, not first in a fuzz run.
#[test]
fn every_fmt_fixture_passes_the_fmt_property() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fmt");
    let mut failures = Vec::new();
    let files = pbn_tests::corpus::pbn_files(&dir);
    assert!(!files.is_empty(), "{}: no fixtures", dir.display());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        if let Err(e) = std::panic::catch_unwind(|| pbn_tests::fuzz::fmt(&bytes)) {
            failures.push(format!("{}: {}", path.display(), panic_message(e)));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn incremental_inputs_decode_as_encoded() {
    let edits = vec![
        Edit {
            start: 3,
            delete: 2,
            insert: "{".into(),
            reparse: true,
        },
        Edit {
            start: 900,
            delete: 0,
            insert: "\r\n".into(),
            reparse: false,
        },
    ];
    let bytes = encode_incremental(PointMode::Rope, "[Event \"é\"]\n", &edits);
    let (mode, text, back) = decode_incremental(&bytes);
    assert_eq!(mode, PointMode::Rope);
    assert_eq!(text, "[Event \"é\"]\n");
    assert_eq!(back.len(), 2);
    assert_eq!(
        (
            back[1].start,
            back[1].delete,
            back[1].insert.as_str(),
            back[1].reparse
        ),
        (900, 0, "\r\n", false)
    );
    // Any bytes decode (the fuzzer feeds arbitrary ones).
    for bytes in [
        &b""[..],
        b"\x01",
        b"\x00\xff\xff",
        b"\x01\x02\x00ab\x05\x00\x01\x7f",
    ] {
        let _ = decode_incremental(bytes);
        (TARGETS[2].1)(bytes);
    }
}

/// `fmt` target: a file starting with another version line (`% PBN 1.0`)
/// gets `% EXPORT` once and no second `% PBN 2.1` on the next run, also
/// with CR line ends (`% PB-N` + CR), where the header check must not split
/// at LF only (server/src/format/mod.rs, `with_export_header`).
#[test]
fn export_header_is_idempotent() {
    let opts = FormatOptions {
        export_header: true,
        ..Default::default()
    };
    for (input, head) in [
        (&b"% PBN 1.0\n[Event \"\"]\n"[..], "% PBN 1.0\n% EXPORT\n"),
        (b"[Event \"\"]\r", "% PBN 2.1\r% EXPORT\r"),
    ] {
        let once = format(&decode(input), &opts).text;
        assert!(once.starts_with(head), "{once:?}");
        let twice = format(&decode(once.as_bytes()), &opts).text;
        assert_eq!(once, twice);
    }
}

/// `fmt` target: with `add_missing_tags`, a `"?"` added to a game without
/// `Site` would become what a later `"#"` inherits (§4.8) and change that
/// game's Site from "Foo" to unknown, so the formatter leaves such a tag
/// absent (format/game.rs, `keep_from_marks`).
#[test]
fn added_question_mark_is_not_inherited_by_a_later_hash() {
    let text = "[Site \"Foo\"]\n[Board \"1\"]\n\n[Board \"2\"]\n\n[Site \"#\"]\n[Board \"3\"]\n";
    let out = format(&decode(text.as_bytes()), &FormatOptions::default()).text;
    assert_eq!(
        pbn_tests::fuzz::meaning(text).0,
        pbn_tests::fuzz::meaning(&out).0,
        "{out}"
    );
    // The game in between still gets the other missing tags, and a game with
    // no later `#` still gets `Site "?"`.
    let games: Vec<&str> = out.split("\n\n").collect();
    assert!(
        games[1].contains("[Event \"?\"]") && !games[1].contains("[Site "),
        "{out}"
    );
    let no_hash = text.replace("\"#\"", "\"Bar\"");
    let out = format(&decode(no_hash.as_bytes()), &FormatOptions::default()).text;
    assert!(
        out.split("\n\n").nth(1).unwrap().contains("[Site \"?\"]"),
        "{out}"
    );
}

/// `incremental_reparse` target: after replacing `Contract "5Hearts"]\n\n`
/// by `*`, a reused `%` token leaves column 0 and must be read again.
/// Tree-sitter re-lexes tokens whose scanner asked for the column
/// (`get_column`) when an edit shifts their column; this holds because the
/// grammar is LR(1) (no fragile nodes).
#[test]
fn escape_line_column_is_rechecked_by_incremental_reparse() {
    let text = "\n\n[Contract \"5Hearts\"]\n\n%\n[C\n\n";
    let next = "\n\n[*%\n[C\n\n";
    let mut parser = pbn_core::syntax::new_parser();
    let mut tree = parser.parse(text, None).unwrap();
    let p = |row, column| tree_sitter::Point { row, column };
    tree.edit(&tree_sitter::InputEdit {
        start_byte: 3,
        old_end_byte: 24,
        new_end_byte: 4,
        start_position: p(2, 1),
        old_end_position: p(4, 0),
        new_end_position: p(2, 2),
    });
    let incremental = parser.parse(next, Some(&tree)).unwrap();
    let fresh = parser.parse(next, None).unwrap();
    assert_eq!(
        incremental.root_node().to_sexp(),
        fresh.root_node().to_sexp()
    );
}

/// `fmt` target (`b\x0c\n\nl`): the piecewise parse cuts the document after
/// the blank line, so the grammar's scanner must see that line as blank
/// too, or `reference::format_whole`, which splits games at `game_break` nodes, drops
/// the second game. Form feed and vertical tab count as blank in the
/// scanner and in syntax/split/scan.rs alike.
#[test]
fn formatting_keeps_a_broken_game_after_a_form_feed() {
    let out = format(&decode(b"b\x0c\n\nl"), &FormatOptions::default());
    assert!(
        out.text.contains('l'),
        "the second game is gone: {:?}",
        out.text
    );
    assert_eq!(out.verbatim_games, vec![0, 1]);
}

/// `fmt/note-section-moved-after-the-auction`: a `[Note]` followed by data
/// before the auction is a supplemental section named Note (§5.1). Printed
/// among the sections, after the auction, the parser would bind it to the
/// auction (§3.5.5) and read the data as calls, changing `pbn dump`. Such a
/// game is kept as written, and `pbn check` reports the misplaced note
/// (PBN0206) and its data (PBN0209).
#[test]
fn a_note_with_data_before_the_auction_is_kept_as_written() {
    use pbn_core::checker::{check_text, CheckOptions};
    let text = "[Dealer \"S\"]\n[Note \"2:two colours\"]\nC8 CA CT C4\n[Auction \"S\"]\nAP\n";
    let out = format(&decode(text.as_bytes()), &FormatOptions::default());
    assert_eq!(out.verbatim_games, vec![0]);
    assert_eq!(out.unprintable_games, vec![0]);
    assert!(out.syntax_error_games().is_empty());
    assert_eq!(out.text, text);
    assert_eq!(
        pbn_tests::fuzz::meaning(text).0,
        pbn_tests::fuzz::meaning(&out.text).0
    );
    let codes: Vec<&str> = check_text(
        &decode(text.as_bytes()),
        &CheckOptions {
            export: false,
            ..Default::default()
        },
    )
    .diagnostics
    .iter()
    .map(|d| d.code.code)
    .collect();
    assert_eq!(codes, ["PBN0206", "PBN0209"]);
}

/// `fmt` and `parse_check` inputs: games kept verbatim (syntax errors) keep
/// the text between them, their line ends and the white space before the
/// first one as written; otherwise the reader splits the output into other
/// games: `[` and a line end followed by one blank line is not a game break
/// where two are; `{\r\r` ends a game where `{\n\n` does not; tabs before
/// a `%` keep it from being an escape line.
#[test]
fn games_kept_verbatim_are_read_back_as_the_same_games() {
    for input in [
        &b"{\0\n[\n\n\n-}"[..],
        b"[T\x9b{\r\r\"\n[A Q\n*\n\n\0}",
        b"\t\t\t%S\xad;H\n",
    ] {
        let source = decode(input);
        let out = format(&source, &FormatOptions::default());
        assert_eq!(
            games(&decode(out.text.as_bytes()).text),
            games(&decode(input).text),
            "{input:?} -> {:?}",
            out.text
        );
    }
    // Lone CRs inside a verbatim game stay; the printed game gets the
    // file's line end.
    let out = format(
        &decode(b"[T\x9b{\r\r\"\n[A Q\n*\n\n[Event \"x\"]\n"),
        &FormatOptions::default(),
    );
    assert!(out.text.contains("{\r\r\""), "{:?}", out.text);
    assert!(
        out.text.contains("[Event \"x\"]\n[Site \"?\"]\n"),
        "{:?}",
        out.text
    );
}

/// `fmt/stray-tokens-outside-any-game`: where error recovery leaves a
/// broken document's tokens at the top of the tree, outside any game, they
/// are kept as written (printed one a line as comments, `[`, `o`, `.` …,
/// the reader would take them for a game).
#[test]
fn stray_tokens_outside_any_game_are_kept_as_written() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fuzz/fmt/stray-tokens-outside-any-game");
    let input = std::fs::read(path).unwrap();
    let out = format(&decode(&input), &FormatOptions::default());
    assert!(out.text.starts_with("[o. f,2\n"), "{:?}", out.text);
    assert_eq!(games(&out.text), games(&decode(&input).text));
}

/// `fmt/export-header-inside-a-line-end-kept-as-written`: with
/// `--export-header`, `% EXPORT` goes after the file's version line; when
/// that line's end is kept as written with the broken game after it, the
/// range kept as written is cut around the added line, not inside a
/// character (`pbn fmt --export-header` on `%PBN`, LF, CR, `òòòòò`).
#[test]
fn export_header_inside_a_range_kept_as_written() {
    let input = b"%PBN\n\r\xf2\xf2\xf2\xf2\xf2";
    let opts = FormatOptions {
        export_header: true,
        ..FormatOptions::default()
    };
    let out = format(&decode(input), &opts);
    assert_eq!(out.text, "%PBN\n% EXPORT\r\r\u{f2}\u{f2}\u{f2}\u{f2}\u{f2}");
    assert_eq!(games(&out.text), games(&decode(input).text));
}

/// `fmt/nul-in-comment-hid-game-breaks`: `{`, NUL, blank lines, `%` lines
/// and a `}`. The parser reads a NUL as any other control character
/// (`syntax::parse_with_nul`), so the comment runs to its `}` over the
/// blank lines, for the splitter as for the grammar, and is kept whole
/// (its line ends the file's: CR).
#[test]
fn a_nul_in_a_comment_does_not_end_it() {
    let input = b"{\0\n\n%\n\n%\n\n}\r\r\r\r\r\r";
    let out = format(&decode(input), &FormatOptions::default());
    assert_eq!(out.text, "{\0\r\r%\r\r%\r\r}\r");
    assert_eq!(games(&out.text), games(&decode(input).text));
}

/// `fmt/nul-section-moved-after-a-comment`: `]{`, a line end, a CR, then a
/// game whose tag `[E ""]` has the data `\x03\0` (a section) and a `{}`
/// comment after it. The first game's `{` is a comment to the `}` of `{}`
/// (a NUL ends no comment); the second game, printed, means what it meant.
#[test]
fn a_game_with_a_nul_is_printed() {
    let input = b"]{\n\r[v\"\"][a\"\"][d\"\"][E\"\"]\x03\x00[t\"\"]{}[C\"\"][n\"\"]";
    let out = format(&decode(input), &FormatOptions::default());
    assert!(
        out.unprintable_games.is_empty(),
        "{:?}",
        out.unprintable_games
    );
    assert_eq!(games(&out.text), games(&decode(input).text));
}

/// `fmt/unicode-space-section-row-became-a-blank-line`: a Latin-1 file
/// whose two sections (`Teble`, `Table`) have rows of bytes 0x85 only
/// (U+0085, NEXT LINE: Unicode white space, an error outside strings,
/// §2.2). The printer trims only spaces and tabs at a row's end: trimming
/// all white space would drop the row, leave an empty line inside the game
/// and make one game two (§3.1).
#[test]
fn a_section_row_of_unicode_white_space_is_kept() {
    let input = b"[Teble \"1\"]\n\x85\x85\x85\x85\x85\x85[Table \"1\"]\n\x85\x85\x85\x85\x85";
    let doc = decode(input);
    let out = format(&doc, &FormatOptions::default());
    assert_eq!(games(&out.text), 1, "{:?}", out.text);
    assert!(!out.text.contains("\n\n"), "{:?}", out.text);
    for row in [
        "[Table \"1\"]\n\u{85}\u{85}\u{85}\u{85}\u{85}\n",
        "[Teble \"1\"]\n\u{85}\u{85}\u{85}\u{85}\u{85}\u{85}\n",
    ] {
        assert!(out.text.contains(row), "{row:?} not in {:?}", out.text);
    }
}

/// `parse_check/quoted-table-cell-with-an-escape`: a quoted table element
/// `"\"¤"` in a Card column (§5.3). The cell is checked unescaped (`"¤`,
/// 3 bytes) and its issue's range is mapped back through the escapes
/// (`model::raw_offset`): 19..23, not 19..22 inside the `¤`.
#[test]
fn a_quoted_table_cell_with_an_escape_gets_its_range_as_written() {
    let input = b"[ActionTable\"Card\"\"\\\"\xa4\"";
    let source = decode(input);
    let result = pbn_core::checker::check_text(
        &source,
        &pbn_core::checker::CheckOptions {
            export: false,
            ..Default::default()
        },
    );
    let d = result
        .diagnostics
        .iter()
        .find(|d| d.code.code == "PBN0333")
        .expect("PBN0333");
    assert_eq!(&source.text[d.range.clone()], "\\\"\u{a4}");
}

/// `parse_check/utf16-bom-in-a-declared-windows-1252-file`: a file that
/// declares `charset=windows-1252` on a `%` line and begins with the bytes
/// `FE FF` (here alone on the first line). encoding_rs sniffs a byte-order
/// mark in `Encoding::decode` and would read it as UTF-16 big-endian; a file
/// whose `%` line reads as ASCII is not UTF-16, so it is read byte for byte
/// as it declares (§2.2 and `text/decode.rs`).
#[test]
fn a_utf16_bom_does_not_override_a_windows_1252_declaration() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fuzz/parse_check/utf16-bom-in-a-declared-windows-1252-file");
    let bytes = std::fs::read(path).unwrap();
    let source = decode(&bytes);
    assert_eq!(source.encoding, pbn_core::text::Encoding::Windows1252);
    assert!(
        source.text.starts_with(
            "\u{fe}\u{ff}\r\n% charset=windows-1252\r\n[Event \"Café \u{201c}A\u{201d}\"]"
        ),
        "{:?}",
        source.text
    );
    assert_eq!(
        pbn_core::text::encode(&source.text, source.encoding),
        (bytes, 0)
    );
}

/// `parse_check/message-quoting-its-own-delimiters` (a corpus input, no
/// property failed): a message that quotes a value holding its own quote
/// marks (an unquoted tag value full of `` ` ``, a repeated tag's value
/// with `\"`, a score made of `` `x ``) cannot have its quotes paired and
/// shortened. A message longer than `MESSAGE_MAX` keeps its start and its
/// end (the rule and its § section) around a `…` (diagnostic.rs, `tidy`),
/// and the fuzz property asserts the limit.
#[test]
fn a_message_quoting_its_own_delimiters_stays_short() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fuzz/parse_check/message-quoting-its-own-delimiters");
    let source = decode(&std::fs::read(path).unwrap());
    let result = pbn_core::checker::check_text(
        &source,
        &pbn_core::checker::CheckOptions {
            export: false,
            ..Default::default()
        },
    );
    for (code, end) in [
        ("PBN0006", "is not a quoted string (§3.3)"),
        ("PBN0202", "counts (§3.4)"),
        ("PBN0320", " (§4.2.2)"),
    ] {
        let d = result
            .diagnostics
            .iter()
            .find(|d| d.code.code == code)
            .unwrap_or_else(|| panic!("{code}"));
        assert_eq!(
            d.message.chars().count(),
            pbn_core::diagnostic::MESSAGE_MAX,
            "{code}: {}",
            d.message
        );
        assert!(d.message.ends_with(end), "{code}: {}", d.message);
    }
    for d in &result.diagnostics {
        assert!(
            d.message.chars().count() <= pbn_core::diagnostic::MESSAGE_MAX,
            "{}: {}",
            d.code.code,
            d.message
        );
    }
}

/// `fmt/second-bom-moved-behind-the-export-header`: a UTF-8 file that
/// starts with two byte order marks keeps the second as U+FEFF at the
/// start of its text, where the reader skips it. Before a broken first game
/// (kept as written, with the text before it), `--export-header` must not
/// put the header lines in front of that U+FEFF, which on a line of its own
/// after a blank line would read as a game: a game kept as written leaves a
/// leading U+FEFF out, as a printed game does (format/mod.rs,
/// `Assembler::push`).
#[test]
fn a_leading_feff_is_not_moved_behind_the_export_header() {
    let input = b"\xef\xbb\xbf\xef\xbb\xbf\n\n[Event \"x\n";
    let opts = FormatOptions {
        export_header: true,
        ..FormatOptions::default()
    };
    let out = format(&decode(input), &opts);
    assert_eq!(out.text, "% PBN 2.1\n% EXPORT\n\n\n\n[Event \"x\n");
    assert_eq!(games(&out.text), 1);
    assert_eq!(games(&out.text), games(&decode(input).text));
    // Written back with its byte order mark and formatted again: the same.
    assert_eq!(
        format(
            &decode(&[&b"\xef\xbb\xbf"[..], out.text.as_bytes()].concat()),
            &opts
        )
        .text,
        out.text
    );
    // Without the header, the game is kept as written, without the U+FEFF.
    let plain = format(&decode(input), &FormatOptions::default()).text;
    assert_eq!(plain, "\n\n[Event \"x\n");
}
