//! The language server's game-by-game re-check (`pbn_core::checker::engine`) gives
//! exactly the diagnostics of a whole-document check (`check_whole`, what
//! `pbn check` gives piece by piece through the same re-check): on a fresh
//! document, and after edits that reuse the previous state. Checked on
//! every corpus file, every fixture, every code example, and generated
//! files under random edits (including edits to `#`/`##` values, whose
//! change reaches later games).

use pbn_core::checker::CheckOptions;
use pbn_core::checker::{check, State};
use pbn_core::reference::check_whole;
use pbn_core::text::SourceText;
use pbn_tests::corpus::{corpus_dir, corpus_sources, own_sources};
use pbn_tests::gen::{generate, GenOptions, Rng};

type Key = (
    &'static str,
    pbn_core::diagnostic::Severity,
    std::ops::Range<usize>,
    std::sync::Arc<str>,
    Option<usize>,
    Vec<(std::ops::Range<usize>, std::sync::Arc<str>)>,
);

fn key(v: &[pbn_core::diagnostic::Diagnostic]) -> Vec<Key> {
    v.iter()
        .map(|d| {
            (
                d.code.code,
                d.severity,
                d.range.clone(),
                d.message.clone(),
                d.game,
                d.related
                    .iter()
                    .map(|r| (r.range.clone(), r.message.clone()))
                    .collect(),
            )
        })
        .collect()
}

/// A random edit of `text`: replace `at..end` (up to 8 bytes, on character
/// boundaries) by one of `pieces`, or delete it.
fn random_edit<'p>(rng: &mut Rng, text: &str, pieces: &[&'p str]) -> (usize, usize, &'p str) {
    let len = text.len();
    let mut at = rng.below(len + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = (at + rng.below(8)).min(len);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let insert = if rng.chance(0.3) {
        ""
    } else {
        *rng.pick(pieces)
    };
    (at, end, insert)
}

/// Checks `text` both ways; returns the re-check state.
fn assert_same(
    name: &str,
    text: &str,
    prev: &State,
    export: bool,
) -> (State, pbn_core::checker::Stats) {
    let tree = pbn_core::syntax::Forest::cut(text, pbn_core::syntax::EDIT_PIECE);
    assert_same_forest(name, text, &tree, prev, export)
}

/// [`assert_same`] with the forest given (e.g. edited incrementally, so that
/// the re-check reuses what it knew of unchanged pieces).
fn assert_same_forest(
    name: &str,
    text: &str,
    tree: &pbn_core::syntax::Forest,
    prev: &State,
    export: bool,
) -> (State, pbn_core::checker::Stats) {
    let source = SourceText::from_text(text.to_owned());
    let opts = CheckOptions {
        export,
        ..Default::default()
    };
    let want = check_whole(&source, &opts);
    let (got, state, stats) = check(&source, tree, &opts, prev);
    let (w, g) = (key(&want.diagnostics), key(&got.diagnostics));
    if w != g {
        let only_w: Vec<_> = w.iter().filter(|x| !g.contains(x)).collect();
        let only_g: Vec<_> = g.iter().filter(|x| !w.contains(x)).collect();
        panic!("{name} (export {export}): re-check differs from check\nonly in check: {only_w:#?}\nonly in re-check: {only_g:#?}");
    }
    assert_eq!(want.games, got.games, "{name}");
    (state, stats)
}

#[test]
fn corpus_files_checks_like_check_whole() {
    let Some(dir) = corpus_dir() else { return };
    for (name, source) in corpus_sources(&dir) {
        for export in [false, true] {
            let (state, _) = assert_same(&name, &source.text, &State::default(), export);
            // Everything reused the second time.
            let (_, stats) = assert_same(&name, &source.text, &state, export);
            assert_eq!(stats.checked, 0, "{name}");
        }
    }
}

#[test]
fn code_examples_and_fixtures_checks_like_check_whole() {
    for c in pbn_core::codes::all() {
        for ex in [c.bad, c.good] {
            let export = c.category == pbn_core::codes::Category::Export;
            assert_same(c.code, ex, &State::default(), export);
            assert_same(c.code, &format!("{ex}\n\n{ex}"), &State::default(), export);
        }
    }
    for (name, source) in own_sources() {
        assert_same(&name, &source.text, &State::default(), false);
    }
}

/// Random edits; after each, the re-check from the previous state equals a
/// full check, and only a few games are checked again.
#[test]
fn random_edits_checks_like_check_whole() {
    let mut text = generate(60, 7, &GenOptions::default());
    // Inheritance in play: `##` and `#` values.
    text = text
        .replacen("[Event \"", "[Event \"##", 1)
        .replacen("[Site \"", "[Site \"##", 1);
    let mut rng = Rng::new(11);
    let (mut state, _) = assert_same("start", &text, &State::default(), false);
    let pieces = [
        "#",
        "\"#\"",
        "x",
        "\n",
        "\n\n",
        "é",
        "1S",
        " =1= ",
        "$3",
        "{",
        "}",
        "[Note \"1:a\"]",
        "\t",
        "%",
        "\"",
        "[Site \"#\"]\n",
    ];
    for round in 0..300 {
        let (at, end, insert) = random_edit(&mut rng, &text, &pieces);
        text.replace_range(at..end, insert);
        let export = round % 7 == 0;
        let empty = State::default();
        let (next, stats) = assert_same(
            &format!("round {round}"),
            &text,
            if export { &empty } else { &state },
            export,
        );
        if !export {
            state = next;
            assert!(stats.checked <= stats.games, "round {round}");
        }
    }
}

/// A file with file-wide patterns (grouped: `checker::group`) under random
/// edits that make and break them: the re-check groups as the whole check
/// does.
#[test]
fn random_edits_of_a_pattern_file_group_like_check_whole() {
    let mut text =
        pbn_tests::patterns::foreign_forms(&generate(40, 5, &GenOptions::default()), false);
    let mut forest = pbn_core::syntax::Forest::cut(&text, 2048);
    let mut rng = Rng::new(61);
    let (mut state, _) = assert_same_forest("start", &text, &forest, &State::default(), false);
    let pieces = [
        "P",
        "1N",
        "2023-07-28",
        "Pass",
        "1NT",
        "\n\n",
        "x",
        "[Board \"1\"]\n",
    ];
    for round in 0..150 {
        let (at, end, insert) = random_edit(&mut rng, &text, &pieces);
        text = edit_forest(&mut forest, &text, at, end, insert);
        let (next, _) =
            assert_same_forest(&format!("round {round}"), &text, &forest, &state, false);
        state = next;
    }
}

/// The same with the forest edited piece by piece, as the language server
/// does: pieces the edits did not touch keep their trees, and the re-check
/// reuses their layout (games, hashes, diagnostics between games).
#[test]
fn forest_edits_checks_like_check_whole() {
    forest_edits(false);
}

/// With export rules, whose game separator rule looks past a piece's end
/// (at the first character of the next game).
#[test]
fn forest_edits_checks_like_check_whole_with_export_rules() {
    forest_edits(true);
}

/// The point (row, byte column) of byte `at` of `t`, as tree-sitter counts.
fn point(t: &str, at: usize) -> tree_sitter::Point {
    let row = t.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
    tree_sitter::Point {
        row,
        column: at - t[..at].rfind('\n').map(|p| p + 1).unwrap_or(0),
    }
}

/// `text` with `at..end` replaced by `insert`, `forest` edited and cut
/// again to match, as the language server does on a change.
fn edit_forest(
    forest: &mut pbn_core::syntax::Forest,
    text: &str,
    at: usize,
    end: usize,
    insert: &str,
) -> String {
    let mut next = text.to_owned();
    next.replace_range(at..end, insert);
    let new_end = at + insert.len();
    forest.edit(&tree_sitter::InputEdit {
        start_byte: at,
        old_end_byte: end,
        new_end_byte: new_end,
        start_position: point(text, at),
        old_end_position: point(text, end),
        new_end_position: point(&next, new_end),
    });
    forest.recut(&next);
    next
}

fn forest_edits(export: bool) {
    let mut text = generate(80, 5, &GenOptions::default());
    text = text.replacen("[Event \"", "[Event \"##", 1);
    let mut forest = pbn_core::syntax::Forest::cut(&text, 2048);
    let (mut state, _) = assert_same_forest("start", &text, &forest, &State::default(), export);
    let mut rng = Rng::new(23 + export as u64);
    let pieces = [
        "#",
        "\"#\"",
        "x",
        "\n",
        "\n\n",
        "é",
        "1S",
        " =1= ",
        "$3",
        "{",
        "}",
        "[Note \"1:a\"]",
        "%",
        "\"",
        "[Site \"#\"]\n",
        "\n\n[Board \"9\"]\n",
        "  ",
        "\t",
        "\r\n",
        "\n\n  [Event \"x\"]\n",
    ];
    let mut reused = 0;
    for round in 0..250 {
        let (at, end, insert) = random_edit(&mut rng, &text, &pieces);
        text = edit_forest(&mut forest, &text, at, end, insert);
        let (s, stats) =
            assert_same_forest(&format!("round {round}"), &text, &forest, &state, export);
        if stats.checked < stats.games && stats.walked < forest.ranges().len() / 2 {
            reused += 1;
        }
        state = s;
    }
    assert!(
        reused > 100,
        "only {reused} rounds reused games and the layout of most pieces"
    );
}

/// An edit in one game of many re-checks only that game.
#[test]
fn an_edit_checks_one_game_again() {
    let text = generate(200, 3, &GenOptions::default());
    let (state, stats) = assert_same("start", &text, &State::default(), false);
    assert_eq!(stats.checked, 200);
    let at = text.match_indices("[Board \"").nth(100).unwrap().0 + 8;
    let edited = format!("{}7{}", &text[..at], &text[at..]);
    let (_, stats) = assert_same("edited", &edited, &state, false);
    assert_eq!(stats.checked, 1);
}

/// The per-file caps (at most 50 diagnostics of a code, Windows-1252
/// characters counted in one) across the pieces of a large document: the
/// re-check gives the capped list too, before and after an edit.
#[test]
fn per_file_caps_across_pieces() {
    let text = generate(300, 9, &GenOptions::default());
    assert!(
        text.len() > 3 * pbn_core::syntax::EDIT_PIECE,
        "several pieces"
    );
    // A control character in 80 games' Event values (over the cap), a
    // C1 character in two.
    let mut capped = String::new();
    for (k, part) in text.split("[Event \"").enumerate() {
        if k > 0 {
            capped.push_str("[Event \"");
            if k % 3 == 0 && k <= 240 {
                capped.push('\u{1}');
            }
            if k == 7 || k == 250 {
                capped.push('\u{85}');
            }
        }
        capped.push_str(part);
    }
    for export in [false, true] {
        let (state, _) = assert_same("capped", &capped, &State::default(), export);
        let at = capped.match_indices("[Board \"").nth(150).unwrap().0 + 8;
        let edited = format!("{}\u{2}{}", &capped[..at], &capped[at..]);
        let (_, stats) = assert_same("capped, edited", &edited, &state, export);
        assert_eq!(stats.checked, 1);
    }
}

/// The DealId rule across games (§4.1.2, PBN0212) under edits: a DealId
/// edited to another game's, on a different deal, is reported on it and
/// names that game; only the edited game is checked again, and the
/// re-check equals a whole check each time.
#[test]
fn an_edited_deal_id_is_checked_across_games() {
    let text = generate(200, 3, &GenOptions::default());
    assert!(
        text.len() > 3 * pbn_core::syntax::EDIT_PIECE,
        "several pieces"
    );
    // Every game gets its own DealId, before its Deal.
    let mut ids = String::new();
    for (k, part) in text.split("[Deal \"").enumerate() {
        if k > 0 {
            ids.push_str(&format!("[DealId \"d{k}\"]\n[Deal \""));
        }
        ids.push_str(part);
    }
    let reused = deal_id_reused;
    assert_eq!(reused(&ids), vec![]);
    let (state, stats) = assert_same("ids", &ids, &State::default(), false);
    assert_eq!(stats.checked, 200);

    // Game 150 (DealId d151) takes game 3's DealId.
    let edited = ids.replacen("[DealId \"d151\"]", "[DealId \"d3\"]", 1);
    let first_line = ids[..ids.find("[DealId \"d3\"]").unwrap()]
        .matches('\n')
        .count()
        + 1;
    let got = reused(&edited);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 150);
    assert!(
        got[0].1.contains(&format!("the game at line {first_line}")),
        "{got:?}"
    );
    let (state, stats) = assert_same("edited", &edited, &state, false);
    assert_eq!(stats.checked, 1);

    // Lines added above both games: the message names the new line.
    let shifted = format!("{{a\nb}}\n{edited}");
    let (state, _) = assert_same("shifted", &shifted, &state, false);

    // Back to its own DealId: no diagnostic left.
    let at = shifted.match_indices("[DealId \"d3\"]").nth(1).unwrap().0;
    let back = format!("{}[DealId \"d151\"]{}", &shifted[..at], &shifted[at + 13..]);
    assert_eq!(reused(&back), vec![]);
    let (_, stats) = assert_same("back", &back, &state, false);
    assert!(stats.checked <= 1, "{stats:?}");
}

/// The same DealId on the same deal is what §4.1.2 asks for (two tables of
/// a team match, a `#` DealId): no PBN0212, however the deal is written.
#[test]
fn one_deal_id_on_one_deal_is_right() {
    let d = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432";
    let same = "e:t987.jt9.jt9.jt9 6543.876.876.876 2.5432.5432.5432 akqj.akq.akq.akq";
    let text = format!(
        "[DealId \"x\"]\n[Deal \"{d}\"]\n\n[DealId \"x\"]\n[Deal \"{same}\"]\n\n[DealId \"#\"]\n[Deal \"{d}\"]\n"
    );
    let source = SourceText::from_text(text.clone());
    let res = check_whole(&source, &CheckOptions::default());
    assert!(
        res.diagnostics.iter().all(|d| d.code.code != "PBN0212"),
        "{:?}",
        res.diagnostics
    );
    assert_same("same deal", &text, &State::default(), false);
}

/// The PBN0212 diagnostics of a whole check of `t`: (game, message).
fn deal_id_reused(t: &str) -> Vec<(usize, String)> {
    let source = SourceText::from_text(t.to_owned());
    check_whole(&source, &CheckOptions::default())
        .diagnostics
        .iter()
        .filter(|d| d.code.code == "PBN0212")
        .map(|d| (d.game.unwrap(), d.message.to_string()))
        .collect()
}

/// `text` with a `[DealId "d<k>"]` before each game's Deal (k from 1).
fn with_deal_ids(text: &str) -> String {
    let mut ids = String::new();
    for (k, part) in text.split("[Deal \"").enumerate() {
        if k > 0 {
            ids.push_str(&format!("[DealId \"d{k}\"]\n[Deal \""));
        }
        ids.push_str(part);
    }
    ids
}

/// The DealId rule keeps an index from DealId to games: an edit that
/// touches no DealId and no Deal looks at no more DealId marks than the
/// games of the pieces it re-checks, one that does looks at those and the
/// games of its DealIds, never at every game's (`Stats::deal_ids`).
#[test]
fn a_deal_id_edit_looks_only_at_its_deal_ids() {
    let ids = with_deal_ids(&generate(200, 3, &GenOptions::default()));
    let mut forest = pbn_core::syntax::Forest::cut(&ids, 2048);
    assert!(forest.ranges().len() > 10, "many pieces");
    let (state, stats) = assert_same_forest("ids", &ids, &forest, &State::default(), false);
    assert!(stats.deal_ids >= 200, "built whole: {stats:?}");
    let cheap = |name: &str, stats: &pbn_core::checker::Stats, more: usize| {
        assert!(
            stats.examined < 60 && stats.deal_ids <= stats.examined + more,
            "{name}: {stats:?}"
        );
    };

    // Game 100's Board: no DealId or Deal touched.
    let at = ids.match_indices("[Board \"").nth(100).unwrap().0 + 8;
    let text = edit_forest(&mut forest, &ids, at, at, "7");
    let (state, stats) = assert_same_forest("board", &text, &forest, &state, false);
    cheap("board", &stats, 0);

    // Game 150 takes game 2's DealId: two groups touched.
    let at = text.find("[DealId \"d151\"]").unwrap() + 9;
    let text = edit_forest(&mut forest, &text, at, at + 4, "d3");
    let (state, stats) = assert_same_forest("d151 to d3", &text, &forest, &state, false);
    assert_eq!(deal_id_reused(&text).len(), 1);
    cheap("d151 to d3", &stats, 16);

    // Lines added above both games while the conflict stands: only its
    // group is read again, and the message names the new line.
    let at = text.match_indices("[Board \"").nth(1).unwrap().0;
    let text = edit_forest(&mut forest, &text, at, at, "{a\nb}\n");
    let (state, stats) = assert_same_forest("top", &text, &forest, &state, false);
    assert_eq!(deal_id_reused(&text).len(), 1);
    cheap("top", &stats, 16);

    // The DealId edited away: the conflict goes.
    let at = text.match_indices("[DealId \"d3\"]").nth(1).unwrap().0;
    let text = edit_forest(&mut forest, &text, at, at + 14, "");
    let (_, stats) = assert_same_forest("away", &text, &forest, &state, false);
    assert_eq!(deal_id_reused(&text), vec![]);
    cheap("away", &stats, 16);
}

/// The four hands of a deal, put in the order of permutation `k` of 24:
/// 24 different deals.
fn nth_deal(k: usize) -> String {
    let mut hands = vec![
        "AKQJ.AKQ.AKQ.AKQ",
        "T987.JT9.JT9.JT9",
        "6543.876.876.876",
        "2.5432.5432.5432",
    ];
    let mut out = Vec::new();
    let mut k = k % 24;
    for n in (1..=4).rev() {
        out.push(hands.remove(k % n));
        k /= n;
    }
    format!("N:{}", out.join(" "))
}

/// DealIds inherited through `##` (§4.8) under edits, in a forest edited
/// piece by piece: a Deal changed under an inherited DealId, a DealId that
/// overrides the `##` value, a game deleted, a `##` DealId edited away,
/// then random edits. After each, the re-check equals a whole check.
#[test]
fn inherited_deal_id_edits_check_like_check_whole() {
    // Six sets of 20 games: the first game of set s gives `##g<s>`, the
    // others inherit it; a set is one deal.
    let mut text = String::new();
    for g in 0..120 {
        let id = if g % 20 == 0 {
            format!("[DealId \"##g{}\"]\n", g / 20)
        } else {
            String::new()
        };
        text.push_str(&format!(
            "[Board \"{}\"]\n{id}[Deal \"{}\"]\n\n",
            g + 1,
            nth_deal(g / 20)
        ));
    }
    assert_eq!(deal_id_reused(&text), vec![]);
    let mut forest = pbn_core::syntax::Forest::cut(&text, 2048);
    assert!(forest.ranges().len() > 3, "several pieces");
    let (mut state, _) = assert_same_forest("start", &text, &forest, &State::default(), false);
    let board = |t: &str, b: usize| t.find(&format!("[Board \"{b}\"]")).unwrap();

    // Board 31 (set 1, DealId g1 inherited) gets set 5's deal.
    let at = board(&text, 31);
    let deal = text[at..].find("[Deal \"").unwrap() + at + 7;
    let end = deal + nth_deal(1).len();
    assert_eq!(text[deal..end], nth_deal(1));
    let text1 = edit_forest(&mut forest, &text, deal, end, &nth_deal(5));
    let (s, _) = assert_same_forest("deal", &text1, &forest, &state, false);
    state = s;
    let got = deal_id_reused(&text1);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 30);
    assert!(got[0].1.contains("inherited"), "{got:?}");

    // Board 36 gives its own DealId "h": boards 37..40 inherit it (§4.8).
    let at = board(&text1, 36);
    let at = text1[at..].find('\n').unwrap() + at + 1;
    let text2 = edit_forest(&mut forest, &text1, at, at, "[DealId \"h\"]\n");
    let (s, _) = assert_same_forest("override", &text2, &forest, &state, false);
    state = s;
    assert_eq!(deal_id_reused(&text2).len(), 1);

    // Board 31 deleted: no conflict left.
    let (from, to) = (board(&text2, 31), board(&text2, 32));
    let text3 = edit_forest(&mut forest, &text2, from, to, "");
    let (s, _) = assert_same_forest("deleted", &text3, &forest, &state, false);
    state = s;
    assert_eq!(deal_id_reused(&text3), vec![]);

    // Board 41's `##g2` edited away: boards 41..60 inherit "h" (board
    // 36's value replaced g1 as the default) on set 2's deal, which is
    // not h's.
    let at = text3.find("[DealId \"##g2\"]\n").unwrap();
    let text4 = edit_forest(&mut forest, &text3, at, at + 15, "");
    let (s, _) = assert_same_forest("away", &text4, &forest, &state, false);
    state = s;
    assert_eq!(deal_id_reused(&text4).len(), 20);

    // Random edits from there.
    let d = nth_deal(7);
    let new_game = format!("\n\n[DealId \"h\"]\n[Deal \"{d}\"]\n");
    let pieces = [
        "[DealId \"##g1\"]\n",
        "[DealId \"h\"]\n",
        "[DealId \"#\"]\n",
        "##",
        "#",
        "x",
        "\n",
        "\n\n",
        "\"",
        new_game.as_str(),
    ];
    let mut rng = Rng::new(41);
    let mut text = text4;
    for round in 0..150 {
        let (at, end, insert) = random_edit(&mut rng, &text, &pieces);
        text = edit_forest(&mut forest, &text, at, end, insert);
        let (s, _) = assert_same_forest(&format!("round {round}"), &text, &forest, &state, false);
        state = s;
    }
}
