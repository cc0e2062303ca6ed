//! Round trips over the corpus: PBN → RBN → PBN and PBN → LIN → PBN give
//! the same `pbn dump` ([`pbn_core::model::dump`]) for every game, except
//! for exactly the parts ([`Part`]) the writer reported as lost for that
//! game: the projection the format holds. A [`Part`] projects away a tag
//! (its value and section), a tag's section, a tag's `#`/`##` marks only,
//! the auction or the play (whole), the annotations (NAGs, irregularity
//! marks, notes) of the calls or cards, where the auction or play ends
//! (`end`) only, the `syntax_error` flag, or the whole game. Each format's
//! table below lists the kinds of losses it may report (what it cannot
//! hold): a new kind fails the test, and so does any difference no loss
//! names.
//!
//! Every file goes twice: as written, and with every call and card
//! re-spelled the way other programs write them ([`respell`]: `P`, `1N`,
//! `Dbl`, `Rdbl`, `ap`, `sa`, `S10`), which dumps the same. No writer may
//! report a call or card the PBN reader understands as lost. Forum notation
//! is written only: [`forum_keeps_every_call_and_card`] checks that every
//! call and card of the input appears in its output, in order.

use pbn_core::convert::{lin, rbn, Converted, Loss, Part};
use pbn_core::model::{dump::dump, values};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// What RBN 2.2 cannot hold, as its writer reports it ([`kind`]).
const RBN_CANNOT_HOLD: &[&str] = &[
    "a HomeTeam or VisitTeam name ending like an RBN carryover (+n or -n)",
    "a player name with `:` or `+`",
    "a second suffix or NAG on one call or card",
    "an escape line (`%`) inside a game",
    "an unfinished play without `*` (RBN's reader ends it with `*`)",
    "Board (RBN holds letters, digits and - / . only)",
    "calls after the end of the auction",
    "Date (not yyyy.mm.dd)",
    "irregularity marks (^I ^S ^R ^L)",
    "irregularity marks (^R ^L) of the play",
    "NAG (RBN holds ! ? !! ?? !? ?! only)",
    "Note (RBN notes are numbered 1-9, one line)",
    "note references beyond 9 (RBN notes are 1-9)",
    "Room",
    "ScorePercentage (RBN holds one effective score)",
    "Section (RBN holds letters only)",
    "Table (RBN holds a room or a table, not both)",
    "Table (RBN holds table numbers only)",
    "tag … (no RBN label)",
    "the `#`/`##` inheritance of tag … (RBN repeats labels instead)",
    "the `^` of Result",
    "the auction (its first call is not the dealer's)",
    "the auction (no Dealer)",
    "the Contract (unreadable)",
    "the Deal (unreadable)",
    "the Declarer (unreadable)",
    "the effective score (its side is unknown)",
    "the empty value of tag … (an RBN null label is an absent value)",
    "the letter case of Section",
    "the play after a trick with an unknown card",
    "the play after an unknown card (`-`)",
    "the play from an unreadable card on",
    "the Result (not readable as declarer's tricks)",
    "the Result (unreadable)",
    "the Score (its side is unknown)",
    "the section data of tag …",
    "the unreadable call",
    "Time (not hh:mm:ss)",
    "Vulnerable without a Dealer (RBN's A label starts with the dealer)",
    "`-` in the auction",
    "`*` after a complete play",
    "`x` spot cards of the Deal",
    "Hidden of a hand with no cards (RBN's `;` hides cards)",
    "Hidden without a Deal (RBN marks hidden hands in the H label)",
    "`^S` (a skipped player) in the auction",
    "a Deal of no hands (an RBN H label of no hands is no deal)",
    "a Result of a passed-out game (RBN's R label says P)",
    "a play of no cards (RBN's P label starts with the lead)",
    "an unfinished auction without `*` (RBN's reader ends it with `*`)",
    "an unreadable NAG",
    "the Dealer (unreadable)",
    "the Declarer without a Contract (RBN's C label holds both)",
    "the Score (unreadable)",
    "the ScoreIMP (unreadable)",
    "the ScorePercentage (unreadable)",
    "the Vulnerable (unreadable)",
    "the `^` of Declarer (declarer and dummy swapped)",
    "the forbidden `#` of tag … (§4.8; RBN repeats the value)",
    "the syntax errors (the game is written as far as it could be read)",
    "the OptimumResultTable (no Declarer, Denomination or Result column)",
    "the OptimumResultTable's layout or unreadable rows (RBN's M holds the tricks of each declarer and strain; they read back as `pbn dd` writes them)",
];

/// What LIN cannot hold, as its writer reports it ([`kind`]).
const LIN_CANNOT_HOLD: &[&str] = &[
    "auction: LIN auctions start with the dealer",
    "auction: its seats follow from md's dealer, and there is none",
    "auction: the annotation has no LIN form",
    "auction: the call has no LIN form",
    "auction: the unreadable call has no LIN form",
    "auction: an auction of no calls has no LIN form (mb holds calls)",
    "play: a play of no cards has no LIN form (pc holds cards)",
    "game: has syntax errors; written as far as it could be read",
    "auction: the note has no Note in the auction section (LIN's `!` reads back as a note without text)",
    "game: LIN cannot keep it apart from the board before (no pair of it starts a board)",
    "play: LIN's pc starts with the lead from the left of the declarer its auction names, and this play does not",
    "play: an unfinished play without `*` (LIN's reader ends it with `*`)",
    "play: from an unknown or unreadable card on (LIN's pc holds cards)",
    "play: notes on cards have no LIN form",
    "play: the annotation has no LIN form",
    "tag …: LIN derives it from the auction, and there is none",
    "tag …: LIN derives it from the auction, which names another",
    "tag …: LIN gives it in md, and there is no md for this deal",
    "tag …: LIN has no `#`/`##` inheritance",
    "tag …: LIN has no pair for it",
    "tag …: LIN's ah holds board numbers, not",
    "tag …: LIN's mc needs an auction with a declarer",
    "tag …: a deal of no cards is no LIN md",
    "tag …: a hand not given has no LIN form (md writes it empty)",
    "tag …: a note outside the auction and play has no LIN form",
    "tag …: an empty value (LIN writes no field for it)",
    "tag …: not readable",
    "tag …: spot cards `x` have no LIN form",
    "the section data of tag …: LIN has no tables",
];

/// A loss's kind: its text without quoted values, and `…` for the tag a
/// `tag <Name>` names.
fn kind(what: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in what.chars() {
        if c == '"' {
            quoted = !quoted;
            continue;
        }
        if !quoted {
            out.push(c);
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    let mut kept: Vec<String> = Vec::new();
    let mut after_tag = false;
    for w in words {
        if after_tag {
            // Keep what follows the name (`Deal:` → `…:`).
            let rest = w.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
            kept.push(format!("…{rest}"));
        } else {
            kept.push(w.to_string());
        }
        after_tag = w == "tag";
    }
    kept.join(" ")
}

/// The NS value of a score tag (Score, ScoreIMP, ScorePercentage): RBN
/// holds the NS score, which means the same as a declarer's one.
fn ns_score(value: &str, declarer_ns: Option<bool>) -> Option<String> {
    let s = values::parse_score_imp(value).value?;
    let v = match s {
        values::SideScores::Declarer(v) => declarer_ns.map(|ns| if ns { v } else { -v })?,
        values::SideScores::Sides { ns: Some(v), .. } => v,
        values::SideScores::Sides { ew: Some(v), .. } => -v,
        _ => return None,
    };
    Some(format!("{:.2}", v + 0.0).replace("-0.00", "0.00"))
}

/// Removes from a game's dump exactly the part a loss names.
fn remove(game: &mut Value, part: &Part) {
    let g = game.as_object_mut().expect("a game is an object");
    let strip = |section: Option<&mut Value>| {
        let Some(section) = section else { return };
        if let Some(m) = section.as_object_mut() {
            m.remove("notes");
        }
        let mut bare = |item: &mut Value| {
            if let Some(m) = item.as_object_mut() {
                for k in ["nags", "irregular", "note"] {
                    m.remove(k);
                }
                if m.len() == 1 {
                    if let Some(c) = m.get("card").cloned() {
                        *item = c;
                    }
                }
            }
        };
        if let Some(calls) = section.get_mut("calls").and_then(Value::as_array_mut) {
            calls.iter_mut().for_each(&mut bare);
        }
        if let Some(tricks) = section.get_mut("tricks").and_then(Value::as_array_mut) {
            for t in tricks.iter_mut().filter_map(Value::as_object_mut) {
                t.values_mut().for_each(&mut bare);
            }
        }
    };
    match part {
        Part::Tag(name) => {
            if let Some(t) = g.get_mut("tags").and_then(Value::as_object_mut) {
                t.remove(name);
            }
            if let Some(s) = g.get_mut("sections").and_then(Value::as_object_mut) {
                s.remove(name);
            }
        }
        Part::Section(name) => {
            if let Some(s) = g.get_mut("sections").and_then(Value::as_object_mut) {
                s.remove(name);
            }
        }
        Part::Inheritance(name) => {
            if let Some(t) = g.get_mut("tags").and_then(Value::as_object_mut) {
                match t
                    .get(name)
                    .and_then(|v| v.get("inherit").map(|_| v.get("value")))
                {
                    Some(Some(v)) => {
                        let v = v.clone();
                        t.insert(name.clone(), v);
                    }
                    Some(None) => {
                        t.remove(name);
                    }
                    None => {}
                }
            }
        }
        Part::Auction => {
            g.remove("auction");
        }
        Part::Play => {
            g.remove("play");
        }
        Part::AuctionEnd | Part::PlayEnd => {
            let key = if *part == Part::AuctionEnd {
                "auction"
            } else {
                "play"
            };
            if let Some(m) = g.get_mut(key).and_then(Value::as_object_mut) {
                m.remove("end");
            }
        }
        Part::AuctionAnnotations => strip(g.get_mut("auction")),
        Part::PlayAnnotations => strip(g.get_mut("play")),
        Part::SyntaxErrors => {
            g.remove("syntax_error");
        }
        Part::Game => {
            g.clear();
        }
    }
    if g.get("sections")
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty)
    {
        g.remove("sections");
    }
}

/// Writes of the same meaning made equal: note references as the notes'
/// texts (the formats renumber notes), scores as NS scores, Hidden seats
/// sorted.
fn normalize(game: &mut Value) {
    let g = game.as_object_mut().expect("a game is an object");
    g.remove("game");
    for part in ["auction", "play"] {
        let Some(section) = g.get_mut(part) else {
            continue;
        };
        let notes = section["notes"].take();
        let text_of = |n: &Value| notes.get(n.to_string()).cloned().unwrap_or(Value::Null);
        let mut fix = |item: &mut Value| {
            if let Some(m) = item.as_object_mut() {
                if let Some(n) = m.get("note").cloned() {
                    m.insert("note".into(), text_of(&n));
                }
            }
        };
        if let Some(calls) = section.get_mut("calls").and_then(Value::as_array_mut) {
            calls.iter_mut().for_each(&mut fix);
        }
        if let Some(tricks) = section.get_mut("tricks").and_then(Value::as_array_mut) {
            for t in tricks.iter_mut().filter_map(Value::as_object_mut) {
                t.values_mut().for_each(&mut fix);
            }
        }
        section.as_object_mut().map(|m| m.remove("notes"));
    }
    let Some(tags) = g.get_mut("tags").and_then(Value::as_object_mut) else {
        return;
    };
    let declarer_ns = tags
        .get("Declarer")
        .and_then(Value::as_str)
        .map(|d| d == "N" || d == "S");
    for name in ["Score", "ScoreIMP", "ScorePercentage"] {
        if let Some(Value::String(s)) = tags.get(name).cloned() {
            if let Some(n) = ns_score(&s, declarer_ns) {
                tags.insert(name.into(), Value::String(n));
            }
        }
    }
    if let Some(Value::String(h)) = tags.get("Hidden").cloned() {
        let mut c: Vec<char> = h.to_ascii_uppercase().chars().collect();
        c.sort_unstable();
        tags.insert("Hidden".into(), Value::String(c.into_iter().collect()));
    }
}

/// The keys in which two game dumps differ: `tags.Name`, `sections.Name`,
/// `auction`, `play`, other top-level keys.
fn differences(a: &Value, b: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let empty = Map::new();
    let obj = |v: &Value, k: &str| v.get(k).and_then(Value::as_object).cloned();
    for group in ["tags", "sections"] {
        let (ga, gb) = (obj(a, group), obj(b, group));
        let (ga, gb) = (ga.as_ref().unwrap_or(&empty), gb.as_ref().unwrap_or(&empty));
        let names: BTreeSet<&String> = ga.keys().chain(gb.keys()).collect();
        for n in names {
            if ga.get(n) != gb.get(n) {
                out.push(format!("{group}.{n}"));
            }
        }
    }
    let (ma, mb) = (a.as_object().unwrap(), b.as_object().unwrap());
    let keys: BTreeSet<&String> = ma.keys().chain(mb.keys()).collect();
    for k in keys {
        if !matches!(k.as_str(), "tags" | "sections") && ma.get(k) != mb.get(k) {
            out.push(k.clone());
        }
    }
    out
}

fn pick(v: &Value, key: &str) -> String {
    let v = match key.split_once('.') {
        Some((group, n)) => &v[group][n],
        None => &v[key],
    };
    v.to_string().chars().take(300).collect()
}

struct Target {
    name: &'static str,
    write: fn(&str) -> Converted,
    read: fn(&str) -> Converted,
    cannot_hold: &'static [&'static str],
    /// A format-specific normalization of both dumps (what the format says
    /// differently but means the same).
    normalize: fn(&mut Value, &mut Value),
}

/// LIN's reader derives Declarer, Contract and Result from `mb`, `pc` and
/// `mc`, and Dealer from `md`: where the PBN game left them out, they may
/// appear (the same meaning, said explicitly).
fn lin_derived(before: &mut Value, after: &mut Value) {
    let had: BTreeSet<String> = before["tags"]
        .as_object()
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(t) = after.get_mut("tags").and_then(Value::as_object_mut) {
        t.retain(|name, _| {
            had.contains(name) || !["Declarer", "Contract", "Result", "Dealer"].contains(&&**name)
        });
    }
}

const TARGETS: [Target; 2] = [
    Target {
        name: "RBN",
        write: rbn::from_pbn,
        read: rbn::to_pbn,
        cannot_hold: RBN_CANNOT_HOLD,
        normalize: |_, _| {},
    },
    Target {
        name: "LIN",
        write: lin::from_pbn,
        read: lin::to_pbn,
        cannot_hold: LIN_CANNOT_HOLD,
        normalize: lin_derived,
    },
];

/// One target's round trip over the corpus: the differences no loss
/// explains, and the loss kinds met that the table does not list.
fn round_trip(target: &Target) -> (usize, Vec<String>, Vec<String>) {
    let Some(dir) = pbn_tests::corpus::corpus_dir() else {
        return (0, Vec::new(), Vec::new());
    };
    let mut kinds = BTreeSet::new();
    let mut failures = Vec::new();
    let mut games = 0;
    let dump_of = |t: &str| dump(&pbn_core::convert::read_pbn(t), t);
    for (name, text) in sources(&dir) {
        let text = &text;
        let written = (target.write)(text);
        let back = (target.read)(&written.text);
        let (d1, d2) = (dump_of(text), dump_of(&back.text));
        let (g1, g2) = (
            d1["games"].as_array().unwrap(),
            d2["games"].as_array().unwrap(),
        );
        for l in &written.losses {
            kinds.insert(kind(&l.what));
        }
        if g1.len() != g2.len() {
            // Only a game the format cannot tell apart may go.
            if !written.losses.iter().any(|l| l.parts.contains(&Part::Game)) {
                failures.push(format!(
                    "{name}: {} games became {} and no loss says why",
                    g1.len(),
                    g2.len()
                ));
            }
            continue;
        }
        for (i, (a, b)) in g1.iter().zip(g2).enumerate() {
            games += 1;
            let (mut a, mut b) = (a.clone(), b.clone());
            let losses: Vec<&Loss> = written.losses.iter().filter(|l| l.game == i).collect();
            for part in losses.iter().flat_map(|l| &l.parts) {
                remove(&mut a, part);
                remove(&mut b, part);
            }
            normalize(&mut a);
            normalize(&mut b);
            (target.normalize)(&mut a, &mut b);
            for d in differences(&a, &b) {
                failures.push(format!(
                    "{name} game {}: {d} differs and no loss names it\n  before: {}\n  after:  {}",
                    i + 1,
                    pick(&a, &d),
                    pick(&b, &d)
                ));
            }
        }
    }
    let unknown = kinds
        .into_iter()
        .filter(|k| !target.cannot_hold.contains(&k.as_str()))
        .collect();
    (games, failures, unknown)
}

/// The corpus files, each as written and [`respell`]ed (named `… (respelled)`).
fn sources(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, source) in pbn_tests::corpus::corpus_sources(dir) {
        let other = respell(&source.text);
        out.push((name.clone(), source.text));
        if let Some(other) = other {
            out.push((format!("{name} (respelled)"), other));
        }
    }
    out
}

/// `text` with every call and card in another spelling the PBN reader
/// understands (`Pass` → `P`, `3NT` → `3N`, `X` → `Dbl`, `XX` → `Rdbl`,
/// `AP` → `ap`, `SA` → `sa`, `ST` → `S10`); `None` when nothing changes.
/// Its dump is the original's (asserted).
fn respell(text: &str) -> Option<String> {
    use pbn_core::model::{CallToken, CardToken};
    let doc = pbn_core::convert::read_pbn(text);
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for g in &doc.games {
        if let Some(a) = &g.auction {
            for e in &a.entries {
                let new = match e.token {
                    CallToken::Pass => "P".to_string(),
                    CallToken::Double => "Dbl".into(),
                    CallToken::Redouble => "Rdbl".into(),
                    CallToken::AllPass => "ap".into(),
                    CallToken::Bid(b) => pbn_core::bridge::bid_word(b).replace("NT", "N"),
                    _ => continue,
                };
                edits.push((e.range.clone(), new));
            }
        }
        if let Some(p) = &g.play {
            for e in &p.entries {
                if let CardToken::Card(c) = e.token {
                    let w = pbn_core::bridge::card_word(c);
                    let new = match w.strip_suffix('T') {
                        Some(suit) => format!("{suit}10"),
                        None => w.to_ascii_lowercase(),
                    };
                    edits.push((e.range.clone(), new));
                }
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (r, new) in edits {
        out.push_str(&text[at..r.start]);
        out.push_str(&new);
        at = r.end;
    }
    out.push_str(&text[at..]);
    let dump_of = |t: &str| dump(&pbn_core::convert::read_pbn(t), t);
    assert_eq!(
        dump_of(text),
        dump_of(&out),
        "a respelled file dumps as the original"
    );
    Some(out)
}

fn check(target: &Target) {
    let (games, failures, unknown) = round_trip(target);
    if games == 0 && failures.is_empty() {
        return; // no corpus: skipped loudly by corpus_dir
    }
    let mut by_key: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for f in &failures {
        let key = f
            .split(" differs")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .unwrap_or("")
            .to_string();
        by_key.entry(key).or_default().push(f);
    }
    let firsts: Vec<String> = by_key
        .values()
        .map(|v| format!("({} like this) {}", v.len(), v[0]))
        .collect();
    assert!(
        failures.is_empty(),
        "{}: {} differences no loss names; the first of each kind:\n{}\n\
         loss kinds its table does not list: {unknown:#?}",
        target.name,
        failures.len(),
        firsts.join("\n")
    );
    assert!(
        unknown.is_empty(),
        "{}: loss kinds its table does not list: {unknown:#?}",
        target.name
    );
    assert!(
        games > 1000,
        "the corpus has thousands of games; saw {games}"
    );
}

#[test]
fn pbn_rbn_pbn_round_trip_over_the_corpus() {
    check(&TARGETS[0]);
}

#[test]
fn pbn_lin_pbn_round_trip_over_the_corpus() {
    check(&TARGETS[1]);
}

#[test]
fn kinds_strip_values_and_tag_names() {
    assert_eq!(kind("tag Generator (no RBN label)"), "tag … (no RBN label)");
    assert_eq!(
        kind("tag Deal: spot cards `x` have no LIN form"),
        "tag …: spot cards `x` have no LIN form"
    );
    assert_eq!(
        kind("Date \"1999\" (not yyyy.mm.dd)"),
        "Date (not yyyy.mm.dd)"
    );
}

/// The removal takes exactly the named part: a difference elsewhere in the
/// game still shows.
#[test]
fn a_loss_removes_only_its_part() {
    let game = |date: &str, event: &str| {
        serde_json::json!({
            "game": 1,
            "tags": { "Date": date, "Event": event },
            "auction": { "calls": [{ "call": "1S", "nags": [1], "note": 1 }], "notes": { "1": "strong" }, "end": null }
        })
    };
    let (mut a, mut b) = (game("1999", "E"), game("2000", "E"));
    remove(&mut a, &Part::tag("Date"));
    remove(&mut b, &Part::tag("Date"));
    assert!(differences(&a, &b).is_empty());
    let (mut a, mut b) = (game("1999", "E"), game("2000", "F"));
    remove(&mut a, &Part::tag("Date"));
    remove(&mut b, &Part::tag("Date"));
    assert_eq!(differences(&a, &b), vec!["tags.Event"]);
    let mut c = game("1999", "E");
    remove(&mut c, &Part::AuctionAnnotations);
    assert_eq!(
        c["auction"]["calls"][0],
        serde_json::json!({ "call": "1S" })
    );
    // Notes renumbered mean the same.
    let mut d = game("1999", "E");
    let mut e = game("1999", "E");
    e["auction"]["calls"][0]["note"] = 2.into();
    e["auction"]["notes"] = serde_json::json!({ "2": "strong" });
    normalize(&mut d);
    normalize(&mut e);
    assert!(differences(&d, &e).is_empty());
}

/// The calls of a forum `[Bidding …]` line as PBN writes them: the `-`
/// before the dealer and the `=n=` note marks left out.
fn forum_calls(line: &str) -> Vec<String> {
    let inner = line
        .trim()
        .trim_start_matches("[Bidding")
        .trim_end_matches(']');
    inner
        .split_whitespace()
        .filter(|t| *t != "-")
        .map(|t| {
            let call = t.split('=').next().unwrap_or("");
            match call {
                "P" => "Pass".to_string(),
                c => pbn_core::spec::calls::canonical(c)
                    .map_or_else(|| format!("?{c}"), str::to_string),
            }
        })
        .collect()
}

/// The cards of a forum play line (`Play (…): [S]T [H]A … | …`), `[S]T` as
/// `ST`.
fn forum_cards(line: &str) -> Vec<String> {
    let Some((_, cards)) = line.split_once("): ") else {
        return Vec::new();
    };
    cards
        .split_whitespace()
        .filter(|t| *t != "|")
        .map(|t| t.replace(['[', ']'], ""))
        .collect()
}

/// Forum notation is written only: every call and card the PBN reader
/// understands appears in the output, in order, in its forum spelling;
/// where one cannot (an unreadable token, an auction or play without a
/// readable first seat), a loss says so.
#[test]
fn forum_keeps_every_call_and_card() {
    use pbn_core::convert::{forum, read_calls, read_cards, read_pbn};
    use pbn_core::model::{all_pass_count, CallToken, CardToken};
    let Some(dir) = pbn_tests::corpus::corpus_dir() else {
        return;
    };
    let mut checked = 0;
    for (name, text) in sources(&dir) {
        let written = forum::from_pbn(&text);
        let lost = |game: usize, what: &str| {
            written
                .losses
                .iter()
                .any(|l| l.game == game && l.what.contains(what))
        };
        let mut biddings = written.text.lines().filter(|l| l.starts_with("[Bidding "));
        let mut plays = written.text.lines().filter(|l| l.starts_with("Play ("));
        for g in &read_pbn(&text).games {
            if let Some(a) = g
                .auction
                .as_ref()
                .filter(|_| !lost(g.index, "no readable Auction seat"))
            {
                let entries = read_calls(&text, &a.entries);
                let mut want = Vec::new();
                for (k, e) in entries.iter().enumerate() {
                    match e.token {
                        CallToken::AllPass => want.extend(std::iter::repeat_n(
                            "Pass".to_string(),
                            all_pass_count(&entries[..k]),
                        )),
                        t => {
                            if let Some(c) = t.canonical(&text[e.range.clone()]) {
                                want.push(c.to_string());
                            } else if matches!(t, CallToken::Invalid | CallToken::Skip) {
                                assert!(
                                    written.losses.iter().any(|l| l.game == g.index),
                                    "{name} game {}: a call left out silently",
                                    g.index + 1
                                );
                            }
                        }
                    }
                }
                let line = biddings.next().unwrap_or_default();
                assert_eq!(
                    forum_calls(line),
                    want,
                    "{name} game {}: the forum auction is not the input's",
                    g.index + 1
                );
                checked += want.len();
            }
            if let Some(p) = g.play.as_ref().filter(|p| {
                p.entries.iter().any(|e| e.token != CardToken::Terminator)
                    && !lost(g.index, "no readable Play seat")
            }) {
                let want: Vec<String> = read_cards(&text, &p.entries)
                    .iter()
                    .filter_map(|e| match e.token {
                        CardToken::Card(c) => Some(pbn_core::bridge::card_word(c).to_string()),
                        CardToken::Dash => Some("-".into()),
                        CardToken::Continuation => Some("+".into()),
                        CardToken::Invalid => Some("?".into()),
                        CardToken::Terminator => None,
                    })
                    .collect();
                if want.contains(&"?".to_string()) {
                    assert!(lost(g.index, "the unreadable card"), "{name}");
                }
                let line = plays.next().unwrap_or_default();
                assert_eq!(
                    forum_cards(line),
                    want,
                    "{name} game {}: the forum play is not the input's",
                    g.index + 1
                );
                checked += want.len();
            }
        }
    }
    if checked > 0 {
        assert!(
            checked > 10_000,
            "the corpus has many calls and cards; saw {checked}"
        );
    }
}
