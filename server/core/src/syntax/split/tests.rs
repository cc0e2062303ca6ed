//! Tests of the scan, the cache and the forest's cutting again.

use super::forest::BATCH_BYTES;
use super::pieces::{advance, parse_windows_of, windows};
use super::scan::unterminated_comment_end;
use super::*;
use tree_sitter::{InputEdit, Point};

/// `new` inserted into `text` at byte `at`, told to `forest` as an edit
/// (points as tree-sitter counts them); the edited text.
fn insert(forest: &mut Forest, text: &str, at: usize, new: &str) -> String {
    let origin = Point { row: 0, column: 0 };
    let p = advance(text, 0, at, origin);
    let edited = format!("{}{new}{}", &text[..at], &text[at..]);
    forest.edit(&InputEdit {
        start_byte: at,
        old_end_byte: at,
        new_end_byte: at + new.len(),
        start_position: p,
        old_end_position: p,
        new_end_position: advance(&edited, at, at + new.len(), p),
    });
    edited
}

fn trees() -> PieceTrees {
    std::sync::Arc::new(vec![crate::syntax::parse("[Event \"e\"]\n")])
}

/// A game longer than a window is parsed in windows that cut at line
/// starts (after a CR LF, not between), or inside a line without line
/// end at a character boundary; the trees cover the game in order.
#[test]
fn a_game_longer_than_a_window_is_parsed_in_windows() {
    let at = Point { row: 0, column: 0 };
    let spans = |text: &str, window: usize| -> Vec<(usize, usize)> {
        windows(text, 0, text.len(), window)
            .into_iter()
            .map(|r| (r.start, r.end))
            .collect()
    };
    let text = "[Event \"x\"]\r\n[Site \"y\"]\r\n[[[[[[\r\n";
    let s = spans(text, 19);
    assert_eq!(s, [(0, 13), (13, 25), (25, 33)]);
    // One window: one tree, the whole text.
    assert_eq!(spans(text, text.len()), [(0, text.len())]);
    // No line end: cut at the window, moved back to a character boundary.
    let text = "[[[éé[[[";
    assert_eq!(spans(text, 4), [(0, 3), (3, 7), (7, 10)]);
    // Every window reports its syntax errors.
    let trees = parse_windows_of(&"[".repeat(100), 0, 100, at, 10);
    assert_eq!(trees.len(), 10);
    assert!(trees.iter().all(|t| t.root_node().has_error()));
    // The second window's points continue the first's.
    let text = "ab\ncd\nef";
    let trees = parse_windows_of(text, 0, text.len(), at, 4);
    assert_eq!(
        trees[1].root_node().start_position(),
        Point { row: 1, column: 0 }
    );
}

/// The parser reads a NUL as any other control character
/// (`crate::syntax::parse_with_nul`): it ends no string or comment, and
/// the scan cuts where the whole-file tree has its game breaks.
#[test]
fn a_nul_ends_no_comment_or_string() {
    let g = "[Event \"a\"]\n";
    for text in [
        "{\0\n\n%\r\r%\n\n}\r\r\r\r\r\r".to_string(),
        format!("{g}{{x\0y\n\n{g}}}\n\n{g}"),
        format!("{g};x\0y {{\n\n{g}}}\n\n{g}"),
        format!("{g}{{a\n\0\n}}\n\n{g}"),
        format!("{g}{{a\n\n\0}}\n\n{g}"),
    ] {
        let tree = crate::syntax::parse(&text);
        let mut breaks: Vec<usize> = crate::syntax::top_nodes(std::slice::from_ref(&tree))
            .iter()
            .filter(|n| n.kind() == "game_break")
            .map(|n| n.end_byte())
            .filter(|&e| e < text.len())
            .collect();
        breaks.dedup();
        assert_eq!(cut_points(&text, 1), breaks, "{text:?}");
    }
    assert_eq!(unterminated_comment_end("{a\0b\n\nc", 0), 4);
    assert_eq!(unterminated_comment_end("{a\n\0\n", 0), 4);
    assert_eq!(unterminated_comment_end("{a\n}", 0), 2);
}

#[test]
fn the_tree_cache_keeps_the_most_recent_pieces_within_its_budget() {
    let cache = TreeCache::new(100);
    for id in 0..10u64 {
        cache.put((id, 0, 0, 0), trees(), 30);
    }
    assert_eq!(cache.len(), 3, "3 × 30 bytes fit in 100");
    assert!(cache.get((9, 0, 0, 0)).is_some() && cache.get((7, 0, 0, 0)).is_some());
    assert!(
        cache.get((6, 0, 0, 0)).is_none(),
        "the least recently used went first"
    );
    // A use makes a piece recent again.
    assert!(cache.get((7, 0, 0, 0)).is_some());
    cache.put((10, 0, 0, 0), trees(), 30);
    assert!(cache.get((7, 0, 0, 0)).is_some() && cache.get((8, 0, 0, 0)).is_none());
    // A piece larger than the whole budget is still kept, alone.
    cache.put((11, 0, 0, 0), trees(), 1000);
    assert_eq!(cache.len(), 1);
    assert!(cache.get((11, 0, 0, 0)).is_some());
}

#[test]
fn unterminated_comments_are_cut_and_parsed_game_by_game() {
    // No `}` after the first `{`: every game break after it is a cut
    // point, and the whole text parses one game at a time.
    let text = "[Event \"a\"]\n\n{ x\n\n{ y\nz\n\n[Event \"b\"]\n";
    let cuts = cut_points(text, 1);
    assert_eq!(
        cuts.iter().map(|&c| &text[c..c + 3]).collect::<Vec<_>>(),
        ["{ x", "{ y", "[Ev"]
    );
    assert_eq!(parse_split(text, usize::MAX).len(), 4);
    // A `}` further on makes the first `{` a comment to it: no cut inside.
    let closed = format!("{text}}}\n");
    assert_eq!(cut_points(&closed, 1), [cuts[0]]);
    assert_eq!(parse_split(&closed, usize::MAX).len(), 1);
    // The unterminated comment runs on over lines that go on with text.
    assert_eq!(unterminated_comment_end("{ a\n b\n\n", 0), 6);
    assert_eq!(unterminated_comment_end("{ a\r\n \t\r\nb", 0), 3);
    assert_eq!(unterminated_comment_end("{ a", 0), 3);
}

#[test]
fn a_closing_brace_typed_after_an_unterminated_comment_cuts_again() {
    let text = format!("{{ x\n\n{}", "[Event \"e\"]\n\n".repeat(20));
    let mut forest = Forest::cut(&text, 1);
    assert!(forest.len() > 10);
    // Type `}` at the end: the comment now runs to it, one piece.
    let typed = insert(&mut forest, &text, text.len(), "}");
    forest.recut(&typed);
    let fresh = Forest::cut(&typed, 1);
    assert_eq!(forest.ranges(), fresh.ranges());
    assert_eq!(forest.len(), 1);
}

/// A game longer than [`GAME_WINDOW`] is cut into parts at the last line
/// start within each window (on a line longer than a window, before its
/// last `[`), never inside a comment; a game break starts counting again;
/// the cuts are the same however the text is cut into pieces, and scanning
/// from a cut finds the cuts after it.
#[test]
fn a_game_longer_than_the_game_window_is_cut_into_parts() {
    let w = GAME_WINDOW;
    let line = "[Event \"x\"]\n";
    let game = line.repeat(w / line.len() + 100);
    let cuts = cut_points(&game, usize::MAX);
    assert_eq!(cuts.len(), 1);
    let c = cuts[0];
    assert!(
        c <= w && c > w - line.len() && c.is_multiple_of(line.len()),
        "{c}"
    );
    assert!(continues_game(&game, c));
    assert_eq!(cut_points(&game, 1), cuts);
    assert_eq!(cut_points(&game, EDIT_PIECE), cuts);

    // Just under a window: not cut.
    let short = line.repeat(w / line.len());
    assert!(cut_points(&short, usize::MAX).is_empty());

    // After a game break the window counts from the next game.
    let two = format!("{}\n{game}", line.repeat(1000));
    let g = 1000 * line.len() + 1;
    assert_eq!(cut_points(&two, usize::MAX), [g + c]);
    assert!(!continues_game(&two, g));
    assert_eq!(cut_points(&two, 1), [g, g + c]);

    // Three windows: scanning from the first cut finds the second.
    let long = line.repeat(3 * (w / line.len()));
    let cuts = cut_points(&long, 1);
    assert_eq!(cuts.len(), 2);
    assert_eq!(
        cut_points(&long[cuts[0]..], 1),
        [cuts[1] - cuts[0]],
        "not canonical"
    );

    // One line: cut before a `[`.
    let one = "[Event \"x\"]".repeat(w / 11 + 100);
    let cuts = cut_points(&one, usize::MAX);
    assert_eq!(cuts.len(), 1);
    assert!(cuts[0] <= w && one[cuts[0]..].starts_with("[Event"));
    assert!(continues_game(&one, cuts[0]));

    // A comment is never cut: a part ends before it and after it.
    let comment = format!(
        "[Event \"x\"]\n{{{}}}\n{}",
        "a\n".repeat(w),
        line.repeat(10)
    );
    let cuts = cut_points(&comment, usize::MAX);
    assert_eq!(cuts, [line.len(), comment.find("}\n").unwrap() + 2]);
}

/// What marks a cut as one inside a game: the text before it does not end
/// with a semi-empty line and its line end (§3).
#[test]
fn continues_game_tells_a_part_from_a_game_break() {
    for (text, at, cont) in [
        ("a\n\nb", 3, false),
        ("a\r\n\r\nb", 5, false),
        ("a\r\rb", 3, false),
        ("a\n \t\nb", 5, false),
        ("a\nb", 2, true),
        ("a[b", 1, true),
        (" \nb", 2, true),
        ("a\n\nb", 0, false),
        ("a\n\nb", 4, false),
    ] {
        assert_eq!(continues_game(text, at), cont, "{text:?} at {at}");
    }
}

/// An edit in a game cut into parts cuts the whole game again from its
/// start: the forest's pieces are those of a fresh cut.
#[test]
fn an_edit_in_a_game_cut_into_parts_cuts_it_again() {
    let line = "[Event \"x\"]\n";
    let n = 3 * (GAME_WINDOW / line.len()) / 2;
    let text = format!(
        "{}\n{}\n{}",
        line.repeat(10),
        line.repeat(n),
        line.repeat(10)
    );
    let mut forest = Forest::cut(&text, EDIT_PIECE);
    let before = forest.ranges().to_vec();
    assert!(before.iter().any(|r| continues_game(&text, r.start)));
    // Insert a line near the start of the long game: every part moves.
    let at = 10 * line.len() + 1 + 3 * line.len();
    let edited = insert(&mut forest, &text, at, "[X \"\"]\n");
    forest.recut(&edited);
    let fresh = Forest::cut(&edited, EDIT_PIECE);
    assert_eq!(forest.ranges(), fresh.ranges());
}

/// Text added after a long line makes the game longer than a window: the
/// forest cuts it as a fresh cut does (an edit that only gives the pieces
/// new ids would leave the game whole).
#[test]
fn an_edit_that_makes_a_game_too_long_cuts_it() {
    let text = format!("[Event \"x\"]\n{{{}}}\n", "c".repeat(GAME_WINDOW + 10));
    let mut forest = Forest::cut(&text, EDIT_PIECE);
    assert_eq!(forest.len(), 1);
    let edited = insert(&mut forest, &text, text.len(), "x");
    forest.recut(&edited);
    let fresh = Forest::cut(&edited, EDIT_PIECE);
    assert_eq!(fresh.len(), 3);
    assert_eq!(forest.ranges(), fresh.ranges());
}

/// A walk's batches keep the pieces in order and hold at most
/// [`BATCH_BYTES`] of text (a piece longer than that alone), so the parts of
/// a huge game are not all parsed at once.
#[test]
fn batches_are_bounded_by_bytes_and_count() {
    let line = "[Event \"x\"]\n";
    let small = format!("{line}\n").repeat(3000);
    let text = format!(
        "{small}{}\n{small}",
        line.repeat(4 * GAME_WINDOW / line.len())
    );
    let forest = Forest::cut(&text, EDIT_PIECE);
    let all: Vec<usize> = (0..forest.len()).collect();
    let batches = forest.batches(&all);
    assert_eq!(batches.concat(), all);
    let count = 4 * crate::par::threads().max(1);
    const { assert!(BATCH_BYTES <= 2 * GAME_WINDOW) };
    for b in &batches {
        let bytes: usize = b.iter().map(|&p| forest.ranges()[p].len()).sum();
        assert!(b.len() <= count);
        assert!(b.len() == 1 || bytes <= BATCH_BYTES, "{bytes}");
    }
    // The parts of the long game are not in one batch.
    let parts: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&p| continues_game(&text, forest.ranges()[p].start))
        .collect();
    assert!(parts.len() >= 3);
    assert!(batches
        .iter()
        .all(|b| b.iter().filter(|p| parts.contains(p)).count() < 3));
}
