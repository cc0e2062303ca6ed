//! `pbn check --dd` on the real files that state double-dummy data
//! (DoubleDummyTricks, OptimumResultTable, ParContract, OptimumScore): what
//! each file says against what the solver says, per file and code, with the
//! first message of each code (snapshot `dd_corpus__verdicts.snap`).
//!
//! Solving is slow (about a quarter of a CPU second a deal), so the files
//! known to disagree with the solver are checked whole and every other file
//! by its first few games with such data; `PBN_DD_CORPUS_ALL=1` checks every
//! game of every file (its verdicts are the issue notes' list).

use pbn_core::dd::verify::{check_game, states_dd};
use pbn_core::model::lower;
use pbn_core::syntax::parse;
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Files whose stated values the solver contradicts: checked whole.
const WRONG: &[&str] = &[
    "richardschneider-pbn/Hand_Trophy_Pairs.pbn",
    "richardschneider-pbn/Hazlemere_Trophy.pbn",
    "richardschneider-pbn/Wed_Individual.pbn",
];

/// Games with double-dummy data checked in every other file.
const SAMPLE: usize = 4;

#[test]
fn corpus_double_dummy_data_against_the_solver() {
    let Some(dir) = corpus_dir() else { return };
    let all = std::env::var_os("PBN_DD_CORPUS_ALL").is_some();
    let mut out = String::new();
    let mut files = 0;
    for (name, source) in corpus_sources(&dir) {
        let text = &source.text;
        let doc = lower(&parse(text), text);
        let games: Vec<_> = doc.games.iter().filter(|g| states_dd(g)).collect();
        if games.is_empty() {
            continue;
        }
        files += 1;
        let whole = all || WRONG.contains(&name.as_str());
        let take = if whole {
            games.len()
        } else {
            SAMPLE.min(games.len())
        };
        let diags: Vec<_> = pbn_core::par::map(&games[..take], |g| check_game(g))
            .into_iter()
            .flatten()
            .collect();
        let mut by_code: BTreeMap<&str, (usize, String)> = BTreeMap::new();
        for d in &diags {
            let e = by_code
                .entry(d.code.code)
                .or_insert_with(|| (0, d.message.to_string()));
            e.0 += 1;
        }
        let wrong_games = {
            let mut g: Vec<_> = diags.iter().filter_map(|d| d.game).collect();
            g.dedup();
            g.len()
        };
        let _ = write!(
            out,
            "{name}: {take} of {} games with dd data checked{}",
            games.len(),
            if take < games.len() {
                " (a sample)"
            } else {
                ""
            }
        );
        if by_code.is_empty() {
            out += ": agrees with the solver\n";
            continue;
        }
        let _ = writeln!(out, ", {wrong_games} disagree");
        for (code, (n, first)) in by_code {
            let _ = writeln!(out, "  {code} ×{n}, first: {first}");
        }
        assert!(
            whole,
            "{name}: a file outside WRONG disagrees with the solver:\n{out}"
        );
    }
    assert!(files >= 10, "only {files} corpus files state dd data");
    if !all {
        insta::assert_snapshot!("verdicts", out);
    } else {
        println!("{out}");
    }
}
