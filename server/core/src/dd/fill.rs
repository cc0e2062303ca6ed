//! `pbn dd`: writes the double-dummy tags a game lacks (DoubleDummyTricks,
//! OptimumScore, ParContract, and the OptimumResultTable of §5.7 in export
//! format), and with `overwrite` replaces those the solver contradicts.
//!
//! The text is edited, never reprinted: missing tags are inserted where
//! export order puts them (§3.1, §3.4: before the auction, the table among
//! the sections; after the game's last line when nothing comes after
//! them), a wrong value is replaced where it stands, and every other byte
//! stays as it was. The language server's code action "Add
//! double-dummy analysis" uses [`game_edits`] too.

use super::verify::{check_game_with, solve_game, Solved};
use super::{DdError, DdTable, Par, DECLARERS, STRAINS};
use crate::codes::dd as c;
use crate::model::values::{parse_optimum_score, SideScores};
use crate::model::{Document, Game, Inherit};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One replacement in the text: `range` becomes `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// `text` with `edits` applied, in the order of their ranges. The edits of
/// different games never overlap; an edit that starts inside one applied
/// before it is skipped, so that a bug cannot duplicate text.
pub fn apply_edits<'a>(text: &str, edits: impl IntoIterator<Item = &'a Edit>) -> String {
    let mut edits: Vec<&Edit> = edits.into_iter().collect();
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let grown: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(text.len() + grown);
    let mut at = 0;
    for e in edits {
        if e.range.start < at {
            continue;
        }
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.text);
        at = e.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// What [`game_edits`] found in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// 0-based game index.
    pub game: usize,
    /// Byte offset of the game's first node (for file:line:column).
    pub offset: usize,
    /// Tags the game lacks (added unless checking).
    pub missing: Vec<&'static str>,
    /// Tags whose value the solver contradicts (replaced with `overwrite`).
    pub wrong: Vec<&'static str>,
    /// Wrong tags left as they are even with `overwrite`: `##` values,
    /// shared with the games after this one (§4.8).
    pub kept: Vec<&'static str>,
    /// Why the game was left alone: its Deal cannot be solved, or it has a
    /// syntax error.
    pub skipped: Option<String>,
    /// The edits that add the missing tags and, with `overwrite`, replace the
    /// wrong ones.
    pub edits: Vec<Edit>,
}

impl GameReport {
    /// Nothing to add or replace.
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.wrong.is_empty()
    }
}

/// The whole file after [`fill`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filled {
    pub text: String,
    /// Games with something missing, wrong or skipped, in order.
    pub games: Vec<GameReport>,
}

/// The order new tags are written in: the table last, its rows ending the
/// game.
pub const WRITE_ORDER: [&str; 4] = [
    "DoubleDummyTricks",
    "OptimumScore",
    "ParContract",
    "OptimumResultTable",
];

/// The line ending the file uses (its first one); LF when it has none.
pub fn eol_of(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The OptimumResultTable in export format (§5.7, columns padded as
/// `pbn fmt` pads them): declarers N, S, E, W, each in NT, S, H, D, C.
pub fn optimum_result_table(table: &DdTable, eol: &str) -> String {
    let mut s = String::from("[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]");
    for seat in DECLARERS {
        for strain in STRAINS {
            let d = crate::bridge::strain_text(strain);
            s.push_str(eol);
            s.push_str(&format!(
                "{} {d:>2} {:>2}",
                seat.letter(),
                table.get(strain, seat)
            ));
        }
    }
    s
}

/// The value of each scalar tag (DoubleDummyTricks, OptimumScore,
/// ParContract) for a solved deal.
fn scalar_value(name: &str, table: &DdTable, par: &Par) -> String {
    match name {
        "DoubleDummyTricks" => table.double_dummy_tricks(),
        "OptimumScore" => par.optimum_score(),
        _ => par.par_contracts().join(", "),
    }
}

/// Whether a stated scalar value cannot be read at all (so `overwrite`
/// replaces it: the checker's value rules report it, and it holds no
/// double-dummy information worth keeping).
fn unreadable(name: &str, v: &str) -> bool {
    match name {
        "DoubleDummyTricks" => v.len() != 20 || !v.chars().all(|ch| ch.is_ascii_hexdigit()),
        "OptimumScore" => !matches!(parse_optimum_score(v).value, Some(SideScores::Sides { .. })),
        _ => v.trim().is_empty(),
    }
}

/// The end of a tag's section data (the tag's own end when it has none).
fn section_end(g: &Game, ti: usize) -> usize {
    let end = g.tags[ti].range.end;
    g.sections
        .iter()
        .find(|s| s.tag == ti)
        .and_then(|s| s.elements.last())
        .map_or(end, |e| e.range.end.max(end))
}

/// The edits that complete one game. `text` is the document's text.
pub fn game_edits(g: &Game, text: &str, overwrite: bool) -> GameReport {
    game_edits_with(g, text, overwrite, &mut solve_game)
}

/// [`game_edits`] with the game solved by `solve` (the language server
/// passes its cache).
pub fn game_edits_with(
    g: &Game,
    text: &str,
    overwrite: bool,
    solve: &mut impl FnMut(&Game) -> Option<Solved>,
) -> GameReport {
    let mut r = GameReport {
        game: g.index,
        offset: g.range.start,
        ..GameReport::default()
    };
    let (table, par) = match solve(g) {
        None => return r,
        Some(Err(e)) => {
            r.skipped = Some(skip_reason(&e));
            return r;
        }
        Some(Ok(x)) => x,
    };
    if g.syntax_error {
        r.skipped = Some("the game has a syntax error (run `pbn check`)".into());
        return r;
    }
    let eol = eol_of(text);
    let diags = check_game_with(g, |_| Some(Ok((table, par.clone()))));
    let flagged = |code: &crate::codes::CodeInfo| diags.iter().any(|d| d.code.code == code.code);
    // (where, the tag's export rank, its text) of each tag to write.
    let mut insert: Vec<(Place, &'static str)> = Vec::new();
    for name in WRITE_ORDER {
        let own = g.tags.iter().position(|t| t.name == name);
        let wrong = match (name, g.value(name)) {
            (_, None) => {
                r.missing.push(name);
                insert.push((place(g, text, name), name));
                continue;
            }
            ("DoubleDummyTricks", Some(v)) => flagged(&c::DD_TRICKS_WRONG) || unreadable(name, v),
            ("OptimumScore", Some(v)) => flagged(&c::OPTIMUM_SCORE_WRONG) || unreadable(name, v),
            ("ParContract", Some(v)) => flagged(&c::PAR_CONTRACT_WRONG) || unreadable(name, v),
            (_, Some(_)) => flagged(&c::OPTIMUM_RESULT_WRONG),
        };
        if !wrong {
            continue;
        }
        r.wrong.push(name);
        if !overwrite {
            continue;
        }
        let new = if name == "OptimumResultTable" {
            optimum_result_table(&table, eol)
        } else {
            format!("[{name} \"{}\"]", scalar_value(name, &table, &par))
        };
        match own {
            // The tag is written in this game: replace it (and its rows).
            Some(ti) => {
                let t = &g.tags[ti];
                match &t.value {
                    // A `##` value is shared with the games after this one
                    // (§4.8): replacing it would change them too. It stays,
                    // reported as wrong.
                    _ if t.inherit == Inherit::Header => r.kept.push(name),
                    Some(v) if name != "OptimumResultTable" && v.quoted && v.terminated => {
                        r.edits.push(Edit {
                            range: v.range.clone(),
                            text: scalar_value(name, &table, &par),
                        })
                    }
                    _ => r.edits.push(Edit {
                        range: t.range.start..section_end(g, ti),
                        text: new,
                    }),
                }
            }
            // Inherited from an earlier game (§4.8): state it here.
            None => insert.push((place(g, text, name), name)),
        }
    }
    // One edit per place, its tags in write order (the order `insert` has).
    let mut places: Vec<Place> = insert.iter().map(|(p, _)| *p).collect();
    places.sort_by_key(|p| match p {
        Place::Before(at) | Place::End(at) => *at,
    });
    places.dedup();
    for at in places {
        let mut s = String::new();
        for (_, name) in insert.iter().filter(|(p, _)| *p == at) {
            let tag = if *name == "OptimumResultTable" {
                optimum_result_table(&table, eol)
            } else {
                format!("[{name} \"{}\"]", scalar_value(name, &table, &par))
            };
            match at {
                Place::Before(_) => {
                    s.push_str(&tag);
                    s.push_str(eol);
                }
                Place::End(_) => {
                    s.push_str(eol);
                    s.push_str(&tag);
                }
            }
        }
        let (Place::Before(at) | Place::End(at)) = at;
        r.edits.push(Edit {
            range: at..at,
            text: s,
        });
    }
    r
}

/// Where a new tag is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// At this offset, the start of the line of the first tag that comes
    /// after it in export order (or of that tag, when it shares its line).
    Before(usize),
    /// After the game's last line (and the blanks ending it, which stay on
    /// that line).
    End(usize),
}

/// Where the tag `name` goes in game `g`: before the first tag that comes
/// after it in export order (§3.1, §3.4; the OptimumResultTable is a
/// section, §5.7), else at the game's end.
fn place(g: &Game, text: &str, name: &str) -> Place {
    use crate::model::TagRole;
    let rank = crate::spec::tags::export_rank(name, name == "OptimumResultTable");
    let after = g.tags.iter().find(|t| match t.role {
        TagRole::AuctionNote | TagRole::PlayNote => false,
        role => crate::spec::tags::export_rank(&t.name, role == TagRole::Section) > rank,
    });
    match after {
        Some(t) => {
            let line = text[..t.range.start]
                .rfind(['\n', '\r'])
                .map_or(0, |i| i + 1);
            let blank = text[line..t.range.start]
                .bytes()
                .all(|b| b == b' ' || b == b'\t');
            Place::Before(if blank { line } else { t.range.start })
        }
        None => {
            let rest = &text[g.range.end..];
            Place::End(g.range.end + (rest.len() - rest.trim_start_matches([' ', '\t']).len()))
        }
    }
}

fn skip_reason(e: &DdError) -> String {
    format!("the deal cannot be solved: {e}")
}

/// What `pbn dd --check` finds in each game that states a double-dummy
/// value: the values the solver contradicts, and deals that cannot be
/// solved. Tags a game lacks are not its business (`pbn dd` adds them),
/// and a game that states none is not solved. Adds 1 to `done` per game.
pub fn check_stated(doc: &Document, text: &str, done: &AtomicUsize) -> Vec<GameReport> {
    crate::par::map(&doc.games, |g| {
        let r = super::verify::states_dd(g).then(|| GameReport {
            missing: Vec::new(),
            ..game_edits(g, text, false)
        });
        done.fetch_add(1, Ordering::Relaxed);
        r
    })
    .into_iter()
    .flatten()
    .filter(|r| !r.is_complete() || r.skipped.is_some())
    .collect()
}

/// Completes every game of a document (solving on every core): the new
/// text and what was found in each game.
pub fn fill(doc: &Document, text: &str, overwrite: bool) -> Filled {
    fill_counted(doc, text, overwrite, &AtomicUsize::new(0))
}

/// [`fill`], adding 1 to `done` as each game is solved (what a progress
/// counter shows).
pub fn fill_counted(doc: &Document, text: &str, overwrite: bool, done: &AtomicUsize) -> Filled {
    let reports = crate::par::map(&doc.games, |g| {
        let r = game_edits(g, text, overwrite);
        done.fetch_add(1, Ordering::Relaxed);
        r
    });
    Filled {
        text: apply_edits(text, reports.iter().flat_map(|r| &r.edits)),
        games: reports
            .into_iter()
            .filter(|r| !r.is_complete() || r.skipped.is_some())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEAL: &str = "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n";

    fn run(text: &str, overwrite: bool) -> Filled {
        let trees = crate::syntax::parse_split(text, usize::MAX);
        let doc = crate::model::lower(&trees, text);
        fill(&doc, text, overwrite)
    }

    fn dd_clean(text: &str) -> bool {
        let trees = crate::syntax::parse_split(text, usize::MAX);
        let doc = crate::model::lower(&trees, text);
        super::super::verify::check_document(&doc).is_empty()
    }

    #[test]
    fn adds_the_four_tags_after_the_game() {
        // Blanks ending the game's last line stay on that line.
        let text = format!("{} \t\n\n[Event \"next\"]\n", DEAL.trim_end());
        let f = run(&text, false);
        let want = format!(
            "{} \t\n[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\n[OptimumScore \"NS 300\"]\n[ParContract \"EW 6DX-2\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  6\nN  S  3\n",
            DEAL.trim_end()
        );
        assert!(f.text.starts_with(&want), "{}", f.text);
        assert!(
            f.text.ends_with("W  C  0\n\n[Event \"next\"]\n"),
            "{}",
            f.text
        );
        assert_eq!(f.games.len(), 1);
        assert_eq!(f.games[0].missing, WRITE_ORDER.to_vec());
        assert!(dd_clean(&f.text));
        // A second run has nothing to do.
        let again = run(&f.text, true);
        assert_eq!(again.text, f.text);
        assert!(again.games.is_empty(), "{:?}", again.games);
    }

    #[test]
    fn inserts_in_export_order_and_completes_a_partial_set() {
        let auction = "[Auction \"N\"]\n1S Pass 2S AP\n[Play \"E\"]\nH2 - - -\n";
        let text = format!("{DEAL}{auction}[ScoreTable \"Rank\\2R\"]\n 1\n");
        let f = run(&text, false);
        let want = format!(
            "{DEAL}[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\n[OptimumScore \"NS 300\"]\n[ParContract \"EW 6DX-2\"]\n{auction}[OptimumResultTable"
        );
        assert!(f.text.starts_with(&want), "{}", f.text);
        assert!(
            f.text.ends_with("W  C  0\n[ScoreTable \"Rank\\2R\"]\n 1\n"),
            "{}",
            f.text
        );
        assert!(dd_clean(&f.text));
        // A game with the table and the tricks gets its par, before the
        // auction, and nothing after the table's data.
        let partial = f.text.replace(
            "[OptimumScore \"NS 300\"]\n[ParContract \"EW 6DX-2\"]\n",
            "",
        );
        let f = run(&partial, false);
        assert_eq!(f.games[0].missing, ["OptimumScore", "ParContract"]);
        assert!(f.text.starts_with(&want), "{}", f.text);
        assert!(dd_clean(&f.text));
    }

    #[test]
    fn keeps_crlf_and_right_values() {
        let text = format!("{DEAL}[OptimumScore \"EW -300\"]\n").replace('\n', "\r\n");
        let f = run(&text, true);
        // The tricks go before the score (export order), the rest after.
        let deal = DEAL.replace('\n', "\r\n");
        assert!(f.text.starts_with(&format!("{deal}[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\r\n[OptimumScore \"EW -300\"]\r\n[ParContract")), "{}", f.text);
        assert!(!f.text.replace("\r\n", "").contains('\n'), "{:?}", f.text);
        assert_eq!(f.games[0].missing.len(), 3);
        assert!(f.games[0].wrong.is_empty());
        assert!(dd_clean(&f.text));
    }

    #[test]
    fn wrong_values_are_replaced_only_with_overwrite() {
        let text = format!(
            "{DEAL}[OptimumScore \"NS 420\"]  ; kept comment\n[ParContract \"NS 4S=\"]\n[DoubleDummyTricks \"zz\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT 7\nN S 3\n[Event \"after\"]\n"
        );
        let f = run(&text, false);
        assert_eq!(f.text, text);
        assert_eq!(
            f.games[0].wrong,
            vec![
                "DoubleDummyTricks",
                "OptimumScore",
                "ParContract",
                "OptimumResultTable"
            ]
        );
        assert!(!dd_clean(&f.text));
        let f = run(&text, true);
        assert!(
            f.text
                .contains("[OptimumScore \"NS 300\"]  ; kept comment\n"),
            "{}",
            f.text
        );
        assert!(
            f.text.contains("[ParContract \"EW 6DX-2\"]\n"),
            "{}",
            f.text
        );
        assert!(
            f.text.contains("W  C  0\n[Event \"after\"]\n"),
            "{}",
            f.text
        );
        assert!(!f.text.contains("N NT 7"), "{}", f.text);
        assert!(dd_clean(&f.text));
    }

    #[test]
    fn unsolvable_and_dealless_games_are_left_alone() {
        let text = "[Deal \"N:AKQ... - - -\"]\n\n[Event \"no deal\"]\n";
        let f = run(text, true);
        assert_eq!(f.text, text);
        assert_eq!(f.games.len(), 1);
        assert!(
            f.games[0]
                .skipped
                .as_deref()
                .unwrap()
                .contains("East is not given"),
            "{:?}",
            f.games
        );
    }
}
