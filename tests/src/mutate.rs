//! Seeded random edits of generated games ([`crate::gen`]), for the
//! differential test against the reference verifier
//! (`tests/tests/verifier_diff.rs`).
//!
//! Each edit changes one game and stays inside it: it never opens a
//! string, a comment or a section that could swallow the next game, so the
//! two checkers' verdicts can be compared game by game. The edit's
//! [`Mutation`] names the group the game is reported under.

use crate::gen::Rng;

/// The kinds of edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mutation {
    /// Two cards of the play section trade places.
    SwapPlayCards,
    /// Two cards of different hands of the Deal trade places (the play
    /// then often revokes or plays a card the player does not hold).
    SwapDealCards,
    /// One call of the auction is removed: the later calls shift.
    DropCall,
    /// A random call is inserted into the auction.
    InsertCall,
    /// A tag value is replaced by a damaged one.
    DamageTag,
    /// A tag pair is removed.
    DropTag,
    /// A row of a table (`OptimumResultTable`) is damaged.
    DamageTable,
}

impl Mutation {
    pub const ALL: [Mutation; 7] = [
        Mutation::SwapPlayCards,
        Mutation::SwapDealCards,
        Mutation::DropCall,
        Mutation::InsertCall,
        Mutation::DamageTag,
        Mutation::DropTag,
        Mutation::DamageTable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mutation::SwapPlayCards => "swap-play-cards",
            Mutation::SwapDealCards => "swap-deal-cards",
            Mutation::DropCall => "drop-call",
            Mutation::InsertCall => "insert-call",
            Mutation::DamageTag => "damage-tag",
            Mutation::DropTag => "drop-tag",
            Mutation::DamageTable => "damage-table",
        }
    }
}

/// Which section a line of a generated game is in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    Tags,
    Auction,
    Play,
    Table,
}

fn sections(lines: &[String]) -> Vec<Section> {
    let mut cur = Section::Tags;
    lines
        .iter()
        .map(|l| {
            if l.starts_with('[') {
                cur = if l.starts_with("[Auction ") {
                    Section::Auction
                } else if l.starts_with("[Play ") {
                    Section::Play
                } else if l.contains("Table ") {
                    Section::Table
                } else if l.starts_with("[Note ") {
                    // Notes of a section are part of it.
                    return cur;
                } else {
                    Section::Tags
                };
                Section::Tags
            } else {
                cur
            }
        })
        .collect()
}

/// The byte ranges of the white-space separated tokens of `line` that
/// `keep` accepts.
fn tokens(line: &str, keep: impl Fn(&str) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                if keep(&line[s..i]) {
                    out.push((s, i));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn is_card(t: &str) -> bool {
    t.len() == 2 && "SHDC".contains(&t[..1]) && "AKQJT98765432".contains(&t[1..])
}

fn is_call(t: &str) -> bool {
    matches!(t, "Pass" | "X" | "XX" | "AP")
        || (t.len() >= 2 && t.as_bytes()[0].is_ascii_digit() && t.as_bytes()[0] != b'0')
}

/// (line, start, end) of every token in `section` lines that `keep` accepts.
fn section_tokens(
    lines: &[String],
    section: Section,
    keep: impl Fn(&str) -> bool + Copy,
) -> Vec<(usize, usize, usize)> {
    let secs = sections(lines);
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if secs[i] == section && !l.starts_with('[') {
            out.extend(tokens(l, keep).into_iter().map(|(s, e)| (i, s, e)));
        }
    }
    out
}

/// Applies `m` to the game `lines` (no line ends, no blank line). Returns
/// false when the game has nothing the edit applies to (then it is unchanged).
pub fn mutate(lines: &mut Vec<String>, m: Mutation, rng: &mut Rng) -> bool {
    match m {
        Mutation::SwapPlayCards => {
            let cards = section_tokens(lines, Section::Play, is_card);
            if cards.len() < 2 {
                return false;
            }
            let a = rng.below(cards.len());
            let mut b = rng.below(cards.len() - 1);
            if b >= a {
                b += 1;
            }
            swap_tokens(lines, cards[a], cards[b]);
            true
        }
        Mutation::SwapDealCards => {
            let Some(i) = lines.iter().position(|l| l.starts_with("[Deal \"")) else {
                return false;
            };
            let (open, close) = match (lines[i].find('"'), lines[i].rfind('"')) {
                (Some(o), Some(c)) if c > o + 3 => (o + 3, c),
                _ => return false,
            };
            let value = lines[i][open..close].to_string();
            let hands: Vec<&str> = value.split(' ').collect();
            if hands.len() != 4 {
                return false;
            }
            let a = rng.below(4);
            let b = (a + 1 + rng.below(3)) % 4;
            let pick = |h: &str, rng: &mut Rng| -> Option<(usize, char)> {
                let ranks: Vec<(usize, char)> = h
                    .split('.')
                    .enumerate()
                    .flat_map(|(s, r)| r.chars().map(move |c| (s, c)))
                    .collect();
                (!ranks.is_empty()).then(|| ranks[rng.below(ranks.len())])
            };
            let (Some(ca), Some(cb)) = (pick(hands[a], rng), pick(hands[b], rng)) else {
                return false;
            };
            let with = |h: &str, out: (usize, char), inn: (usize, char)| -> String {
                let mut suits: Vec<String> = h.split('.').map(str::to_string).collect();
                suits[out.0] = suits[out.0].replacen(out.1, "", 1);
                // In rank order (§3.4.11), so that only the cards differ.
                let mut ranks: Vec<char> = suits[inn.0].chars().chain([inn.1]).collect();
                ranks.sort_by_key(|r| crate::gen::RANKS.iter().position(|x| x == r));
                suits[inn.0] = ranks.into_iter().collect();
                suits.join(".")
            };
            let mut new: Vec<String> = hands.iter().map(|h| h.to_string()).collect();
            new[a] = with(hands[a], ca, cb);
            new[b] = with(hands[b], cb, ca);
            lines[i].replace_range(open..close, &new.join(" "));
            true
        }
        Mutation::DropCall => {
            let calls = section_tokens(lines, Section::Auction, is_call);
            if calls.is_empty() {
                return false;
            }
            let (l, s, e) = calls[rng.below(calls.len())];
            lines[l].replace_range(s..e, "");
            if lines[l].trim().is_empty() {
                lines.remove(l);
            }
            true
        }
        Mutation::InsertCall => {
            let calls = section_tokens(lines, Section::Auction, is_call);
            if calls.is_empty() {
                return false;
            }
            let (l, s, _) = calls[rng.below(calls.len())];
            let call = *rng.pick(&[
                "Pass", "X", "XX", "1C", "1NT", "2D", "3H", "4S", "5NT", "7C", "AP",
            ]);
            lines[l].insert_str(s, &format!("{call} "));
            true
        }
        Mutation::DamageTag => {
            const DAMAGE: &[(&str, &[&str])] = &[
                ("Dealer", &["X", "n", "", "NE"]),
                ("Vulnerable", &["Both", "NSEW", "-", "ns"]),
                ("Declarer", &["Q", "NS", "^N"]),
                ("Contract", &["8S", "4Z", "0NT", "3NTXXX", "NT", "4"]),
                ("Result", &["14", "-1", "x", "EW 3"]),
                (
                    "Date",
                    &["1995.13.01", "95.06.10", "1995/06/10", "1995.06.32"],
                ),
                ("Board", &["0", "-3", "B1"]),
                ("Scoring", &["IMP;Foo", "", "imp"]),
                ("Score", &["NS 10x", "N 100", "100 NS"]),
                ("Room", &["Kitchen", ""]),
                ("Competition", &["Chess", ""]),
                ("Event", &["a\tb"]),
            ];
            let found: Vec<(usize, &[&str])> = lines
                .iter()
                .enumerate()
                .filter_map(|(i, l)| {
                    DAMAGE
                        .iter()
                        .find(|(t, _)| l.starts_with(&format!("[{t} \"")) && l.ends_with("\"]"))
                        .map(|(_, v)| (i, *v))
                })
                .collect();
            if found.is_empty() {
                return false;
            }
            let (i, values) = found[rng.below(found.len())];
            let name = lines[i][1..].split(' ').next().unwrap_or("").to_string();
            lines[i] = format!("[{name} \"{}\"]", rng.pick(values));
            true
        }
        Mutation::DropTag => {
            let tags: Vec<usize> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| {
                    l.starts_with('[')
                        && !l.starts_with("[Auction ")
                        && !l.starts_with("[Play ")
                        && !l.starts_with("[Note ")
                        && !l.contains("Table ")
                })
                .map(|(i, _)| i)
                .collect();
            if tags.is_empty() {
                return false;
            }
            lines.remove(tags[rng.below(tags.len())]);
            true
        }
        Mutation::DamageTable => {
            let secs = sections(lines);
            let rows: Vec<usize> = (0..lines.len())
                .filter(|&i| secs[i] == Section::Table && !lines[i].starts_with('['))
                .collect();
            if rows.is_empty() {
                return false;
            }
            let r = rows[rng.below(rows.len())];
            let toks = tokens(&lines[r], |_| true);
            match rng.below(4) {
                // A missing field.
                0 => {
                    let (s, e) = toks[rng.below(toks.len())];
                    lines[r].replace_range(s..e, "");
                    if lines[r].trim().is_empty() {
                        lines.remove(r);
                    }
                }
                // A bad value (never the value already there).
                1 => {
                    let (s, e) = toks[rng.below(toks.len())];
                    let old = lines[r][s..e].to_string();
                    let v = ["x", "14", "Q", "-"]
                        .into_iter()
                        .cycle()
                        .skip(rng.below(4))
                        .find(|v| *v != old)
                        .unwrap_or("x");
                    lines[r].replace_range(s..e, v);
                }
                // A row twice.
                2 => {
                    let row = lines[r].clone();
                    lines.insert(r, row);
                }
                // Two different rows swapped (out of the declared order, if
                // any); a row twice where there is no other row to swap with.
                _ => {
                    let others: Vec<usize> = rows
                        .iter()
                        .copied()
                        .filter(|&o| lines[o] != lines[r])
                        .collect();
                    if others.is_empty() {
                        let row = lines[r].clone();
                        lines.insert(r, row);
                    } else {
                        lines.swap(r, others[rng.below(others.len())]);
                    }
                }
            }
            true
        }
    }
}

fn swap_tokens(lines: &mut [String], a: (usize, usize, usize), b: (usize, usize, usize)) {
    let ta = lines[a.0][a.1..a.2].to_string();
    let tb = lines[b.0][b.1..b.2].to_string();
    // Replace the later one first so that the earlier range stays valid.
    let (first, second, t_first, t_second) = if (a.0, a.1) < (b.0, b.1) {
        (a, b, tb, ta)
    } else {
        (b, a, ta, tb)
    };
    lines[second.0].replace_range(second.1..second.2, &t_second);
    lines[first.0].replace_range(first.1..first.2, &t_first);
}

/// A file of `games` games, generated from `seed` ([`crate::gen::generate`])
/// and each edited by one mutation of `kinds` in turn, with the mutation of
/// each game (in file order). Games the edit does not apply to are left out.
pub fn mutated_file(games: usize, seed: u64, kinds: &[Mutation]) -> (String, Vec<Mutation>) {
    let text = crate::gen::generate(games, seed, &crate::gen::GenOptions::default());
    let mut rng = Rng::new(seed ^ 0x005E_ED0F_ED17);
    let mut out = String::from("% PBN 2.1\n% EXPORT\n");
    let mut applied = Vec::new();
    let body = text.strip_prefix("% PBN 2.1\n% EXPORT\n").unwrap_or(&text);
    for (i, game) in body.split("\n\n").enumerate() {
        let m = kinds[i % kinds.len()];
        let mut lines: Vec<String> = game.lines().map(str::to_string).collect();
        if !mutate(&mut lines, m, &mut rng) {
            continue;
        }
        if !applied.is_empty() {
            out.push('\n');
        }
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        applied.push(m);
    }
    (out, applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Vec<String> {
        [
            "[Deal \"N:AK.Q.J.T 2.3.4.5 Q.K.A.J T.J.K.A\"]",
            "[Contract \"1S\"]",
            "[Auction \"N\"]",
            "1S Pass Pass Pass",
            "[Play \"E\"]",
            "S2 SQ ST SA",
            "[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]",
            "N NT  9",
            "S  S 10",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    #[test]
    fn every_mutation_changes_the_game_and_keeps_its_shape() {
        for m in Mutation::ALL {
            for seed in 0..20 {
                let mut g = game();
                let mut rng = Rng::new(seed);
                assert!(mutate(&mut g, m, &mut rng), "{m:?} applies");
                assert_ne!(g, game(), "{m:?} seed {seed} changed nothing");
                assert!(
                    g.iter().all(|l| !l.trim().is_empty()),
                    "{m:?}: no blank line"
                );
            }
        }
    }

    #[test]
    fn a_one_row_table_is_still_changed() {
        for seed in 0..20 {
            let mut g = game();
            g.pop();
            let before = g.clone();
            assert!(mutate(&mut g, Mutation::DamageTable, &mut Rng::new(seed)));
            assert_ne!(g, before, "seed {seed} changed nothing");
            assert!(g.iter().all(|l| !l.trim().is_empty()), "seed {seed}");
        }
    }

    #[test]
    fn swapped_deal_cards_keep_52_cards() {
        let mut g = game();
        mutate(&mut g, Mutation::SwapDealCards, &mut Rng::new(3));
        let count = |l: &str| l.chars().filter(|c| "AKQJT98765432".contains(*c)).count();
        assert_eq!(count(&g[0]), count(&game()[0]));
    }

    #[test]
    fn a_game_without_an_auction_is_left_alone() {
        let mut g = vec!["[Event \"x\"]".to_string()];
        assert!(!mutate(&mut g, Mutation::DropCall, &mut Rng::new(1)));
        assert_eq!(g, ["[Event \"x\"]"]);
    }

    #[test]
    fn mutated_file_is_deterministic() {
        let a = mutated_file(20, 9, &Mutation::ALL);
        let b = mutated_file(20, 9, &Mutation::ALL);
        assert_eq!(a, b);
        assert!(a.1.len() >= 15, "most edits apply: {:?}", a.1);
    }
}
