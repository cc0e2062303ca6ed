//! Play analysis and opening leads against endplay's `analyse_play` and
//! `solve_board` (DDS 2.9 through endplay) on 40 random games with random
//! legal play: `tests/fixtures/dd/play_endplay.json`, written by
//! `tests/bench/endplay_play.py --seed 57 --count 40` (the test needs no
//! Python). For every game: the tricks after each card (those DDS gives:
//! it skips the last trick), which cards cost tricks and the cards that
//! would have kept them, and the tricks after each opening lead.
//!
//! Then the same on 576 fully played generated games and the first 200
//! plays of each corpus file (1,059 plays), against the compact fixture
//! `tests/fixtures/dd/play_endplay.tsv` (see [`write_traces`]).

use pbn_core::bridge::{card_of, card_word, Card, Seat, Strain};
use pbn_core::dd::leads::opening_leads;
use pbn_core::dd::play::{analyse_play, PlayTrace, Setup};
use pbn_core::model::values::parse_deal;
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use pbn_tests::gen::{generate, GenOptions};
use serde_json::Value;
use std::collections::BTreeMap;

fn card(text: &str) -> Card {
    let (suit, rank) = pbn_core::spec::cards::read(text).expect("a card");
    card_of(suit, rank).expect("a card")
}

fn games() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/dd/play_endplay.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    json["games"].as_array().unwrap().clone()
}

fn trace(g: &Value) -> PlayTrace {
    let deal = parse_deal(g["deal"].as_str().unwrap()).value.unwrap();
    let strain = match g["trump"].as_str().unwrap() {
        "S" => Strain::Spades,
        "H" => Strain::Hearts,
        "D" => Strain::Diamonds,
        "C" => Strain::Clubs,
        _ => Strain::Notrump,
    };
    let leader = match g["leader"].as_str().unwrap() {
        "N" => Seat::North,
        "E" => Seat::East,
        "S" => Seat::South,
        _ => Seat::West,
    };
    PlayTrace {
        setup: Setup {
            hands: deal.hands.map(|h| h.unwrap()),
            strain,
            leader,
        },
        cards: g["play"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| card(c.as_str().unwrap()))
            .collect(),
    }
}

#[test]
fn play_analysis_agrees_with_endplay() {
    let games = games();
    assert_eq!(games.len(), 40);
    let mut costly = 0;
    for (n, g) in games.iter().enumerate() {
        let t = trace(g);
        let r = analyse_play(&t).unwrap_or_else(|e| panic!("game {n}: {e}"));
        assert_eq!(r.tricks.len(), t.cards.len() + 1, "game {n}");
        let theirs: Vec<u8> = g["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect();
        assert!(!theirs.is_empty() && theirs.len() <= r.tricks.len());
        assert_eq!(
            r.tricks[..theirs.len()],
            theirs[..],
            "game {n}: {}",
            g["deal"]
        );
        let mut ours: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (i, c) in r.costly().filter(|(i, _)| i + 1 < theirs.len()) {
            let mut b: Vec<String> = c.better.iter().map(|&c| card_word(c).to_owned()).collect();
            b.sort();
            ours.insert(i, b);
        }
        let theirs: BTreeMap<usize, Vec<String>> = g["better"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let cards = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_owned());
                (k.parse().unwrap(), cards.collect())
            })
            .collect();
        assert_eq!(ours, theirs, "game {n}: {}", g["deal"]);
        costly += ours.len();
    }
    // Random play gives tricks away often: the comparison covers many.
    assert!(costly > 100, "{costly}");
}

#[test]
fn opening_leads_agree_with_endplay() {
    for (n, g) in games().iter().enumerate() {
        let leads = opening_leads(&trace(g).setup).unwrap();
        let ours: BTreeMap<String, u64> = leads
            .groups
            .iter()
            .flat_map(|(t, cards)| {
                cards
                    .iter()
                    .map(move |&c| (card_word(c).to_owned(), *t as u64))
            })
            .collect();
        let theirs: BTreeMap<String, u64> = g["leads"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        assert_eq!(ours, theirs, "game {n}: {}", g["deal"]);
    }
}

// ---- Generated games and the corpus: tests/fixtures/dd/play_endplay.tsv --

/// Generated games (`pbn_tests::gen`, what endplay's reader loads): the
/// fully played ones among them, at least 500, are compared.
const GEN_GAMES: usize = 600;
const GEN_SEED: u64 = 57;
/// The plays compared from each corpus file, its first ones (all but
/// `endplay/example3.pbn`'s 3,757 and `example2.pbn`'s 278).
const CORPUS_PLAYS: usize = 200;

/// Each play of `text` that the analysis reads (`line_of`: one card at
/// least; with `full`, all 52), keyed `<prefix>:<game number>`.
fn plays_of(prefix: &str, text: &str, full: bool) -> Vec<(String, PlayTrace)> {
    let trees = pbn_core::syntax::parse_split(text, usize::MAX);
    let doc = pbn_core::model::lower(&trees, text);
    doc.games
        .iter()
        .filter_map(|g| {
            let t = pbn_core::model::typed::typed(text, g);
            let line = pbn_core::dd::play::line_of(text, g, &t).ok()?;
            let n = line.trace.cards.len();
            (n == 52 || (!full && n > 0)).then(|| (format!("{prefix}:{}", g.index + 1), line.trace))
        })
        .collect()
}

/// The fully played generated games, then the first [`CORPUS_PLAYS`]
/// plays of each corpus file (none without the corpus).
fn plays() -> Vec<(String, PlayTrace)> {
    let text = generate(GEN_GAMES, GEN_SEED, &GenOptions::endplay_compatible());
    let mut out = plays_of("gen", &text, true);
    if let Some(dir) = corpus_dir() {
        for (name, source) in corpus_sources(&dir) {
            out.extend(
                plays_of(&name, &source.text, false)
                    .into_iter()
                    .take(CORPUS_PLAYS),
            );
        }
    }
    out
}

fn seat_letter(s: Seat) -> char {
    match s {
        Seat::North => 'N',
        Seat::East => 'E',
        Seat::South => 'S',
        Seat::West => 'W',
    }
}

/// The deal of `t` as `N:` and its hands (what endplay reads).
fn deal_text(t: &PlayTrace) -> String {
    let suits = |s: Seat| -> String {
        let cards = hand_cards(t, s);
        ["S", "H", "D", "C"]
            .iter()
            .map(|suit| {
                cards
                    .iter()
                    .filter(|c| c.starts_with(suit))
                    .map(|c| &c[1..])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(".")
    };
    let seats = [Seat::North, Seat::East, Seat::South, Seat::West];
    format!("N:{}", seats.map(suits).join(" "))
}

/// The cards of `seat`'s hand at the start, spades to clubs, high to low.
fn hand_cards(t: &PlayTrace, seat: Seat) -> Vec<String> {
    let mut cards: Vec<Card> = t.setup.hands[seat as usize].into_iter().collect();
    cards.sort_by(|a, b| b.suit.cmp(&a.suit).then(b.rank.cmp(&a.rank)));
    cards.iter().map(|&c| card_word(c).to_owned()).collect()
}

/// Writes the plays for `endplay_play.py --traces` to the file named by
/// `PBN_DD_PLAY_TRACES`:
/// `PBN_DD_PLAY_TRACES=/tmp/traces.tsv cargo test --release -p pbn-tests
/// --test dd_play -- --ignored write_traces`, then
/// `tests/bench/endplay_play.py --traces /tmp/traces.tsv >
/// tests/fixtures/dd/play_endplay.tsv`.
#[test]
#[ignore]
fn write_traces() {
    let path = std::env::var("PBN_DD_PLAY_TRACES").expect("PBN_DD_PLAY_TRACES");
    let mut out = String::new();
    for (key, t) in plays() {
        let trump = match t.setup.strain {
            Strain::Spades => 'S',
            Strain::Hearts => 'H',
            Strain::Diamonds => 'D',
            Strain::Clubs => 'C',
            Strain::Notrump => 'N',
        };
        let cards: Vec<&str> = t.cards.iter().map(|&c| card_word(c)).collect();
        out += &format!(
            "{key}\t{}\t{trump}\t{}\t{}\n",
            deal_text(&t),
            seat_letter(t.setup.leader),
            cards.join(" ")
        );
    }
    std::fs::write(path, out).unwrap();
}

/// endplay's analysis of one play (a line of the fixture).
struct Theirs {
    t0: u8,
    /// How many values endplay gave (it skips the last trick).
    n: usize,
    costs: BTreeMap<usize, (u8, Vec<String>)>,
    /// `gen:` plays: the tricks after each lead, in the order of
    /// [`hand_cards`].
    leads: Option<Vec<u8>>,
}

fn fixture() -> BTreeMap<String, Theirs> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/dd/play_endplay.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let costs = f[3]
                .split_whitespace()
                .map(|c| {
                    let mut p = c.split(':');
                    let i = p.next().unwrap().parse().unwrap();
                    let lost = p.next().unwrap().parse().unwrap();
                    let better = p.next().unwrap().split(',').map(str::to_owned).collect();
                    (i, (lost, better))
                })
                .collect();
            let leads = (f[4] != "-").then(|| {
                f[4].chars()
                    .map(|c| c.to_digit(16).unwrap() as u8)
                    .collect()
            });
            let theirs = Theirs {
                t0: f[1].parse().unwrap(),
                n: f[2].parse().unwrap(),
                costs,
                leads,
            };
            (f[0].to_owned(), theirs)
        })
        .collect()
}

#[test]
fn play_analysis_agrees_with_endplay_on_generated_games_and_the_corpus() {
    let fixture = fixture();
    let plays = plays();
    let generated = plays.iter().filter(|(k, _)| k.starts_with("gen:")).count();
    assert!(generated >= 500, "{generated} fully played generated games");
    let mut compared = 0;
    let mut costly = 0;
    for (key, t) in &plays {
        let Some(theirs) = fixture.get(key) else {
            assert!(
                !key.starts_with("gen:"),
                "{key}: not in the fixture (the generator changed? see write_traces)"
            );
            continue;
        };
        let r = analyse_play(t).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(r.tricks[0], theirs.t0, "{key}");
        assert!(theirs.n <= r.tricks.len(), "{key}");
        let ours: BTreeMap<usize, (u8, Vec<String>)> = r
            .costly()
            .filter(|(i, _)| i + 1 < theirs.n)
            .map(|(i, c)| {
                let mut b: Vec<String> =
                    c.better.iter().map(|&c| card_word(c).to_owned()).collect();
                b.sort();
                (i, (c.cost, b))
            })
            .collect();
        // No card gains a trick: the first value and the costs are every
        // value endplay gave.
        assert_eq!(ours, theirs.costs, "{key}");
        if let Some(leads) = &theirs.leads {
            let by_card: BTreeMap<String, u8> = opening_leads(&t.setup)
                .unwrap()
                .groups
                .iter()
                .flat_map(|(n, cards)| cards.iter().map(move |&c| (card_word(c).to_owned(), *n)))
                .collect();
            let ours: Vec<u8> = hand_cards(t, t.setup.leader)
                .iter()
                .map(|c| by_card[c])
                .collect();
            assert_eq!(&ours, leads, "{key}: opening leads");
        }
        compared += 1;
        costly += ours.len();
    }
    // The corpus's plays are in the fixture too when it is present.
    assert!(compared >= generated && costly > 500, "{compared} {costly}");
}

// ---- `pbn dd --play` and `pbn dd --leads` --------------------------------

/// Spades trumps, North to lead: the ♠2 costs a trick (West overtrumps), the
/// ♥A would have kept it.
const END: &str = "[Event \"x\"]\n[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3 ; to trick one\nHA HK DA C2\n";

fn pbn(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(pbn_tests::binary::pbn_binary())
        .args(args)
        .output()
        .expect("spawn pbn");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn dd_play_writes_a_comment_after_the_costly_card_only_once() {
    let dir = std::env::temp_dir().join(format!("pbn-dd-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("end.pbn");
    std::fs::write(&file, END).unwrap();
    let path = file.to_str().unwrap();
    // Formatted first: the comment keeps the file as `pbn fmt` writes it.
    assert_eq!(pbn(&["fmt", path]).0, 0);
    let formatted = std::fs::read_to_string(&file).unwrap();
    let (code, out, _) = pbn(&["dd", "--play", "--check", path]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with("game 1: 1 costly card(s), comments out of date\n"),
        "{out}"
    );
    let (code, _, err) = pbn(&["dd", "--play", path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote 1 file(s), 0 unchanged"), "{err}");
    let written = std::fs::read_to_string(&file).unwrap();
    // One insertion, nothing else touched (the `;` comment stays).
    assert_eq!(
        written,
        formatted.replace("S2 HQ", "S2 {DD -1: better \\HA} HQ")
    );
    // A second run changes nothing; the check is clean.
    let (code, _, err) = pbn(&["dd", "--play", path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote 0 file(s), 1 unchanged"), "{err}");
    assert_eq!(pbn(&["dd", "--play", "--check", path]).0, 0);
    // Still formatted.
    let (code, _, err) = pbn(&["fmt", "--check", path]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dd_leads_prints_each_games_leads() {
    let dir = std::env::temp_dir().join(format!("pbn-dd-leads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("end.pbn");
    std::fs::write(&file, END).unwrap();
    let (code, out, err) = pbn(&["dd", "--leads", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with(
            "end.pbn:1:1: game 1: North leads, ♠ trumps; tricks for North-South: ♥A: 1, ♠2: 0\n"
        ),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        END,
        "nothing written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
