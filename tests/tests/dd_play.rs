//! Play analysis and opening leads against endplay's `analyse_play` and
//! `solve_board` (DDS 2.9 through endplay) on 40 random games with random
//! legal play: `tests/fixtures/dd/play_endplay.json`, written by
//! `tests/bench/endplay_play.py --seed 57 --count 40` (the test needs no
//! Python). For every game: the tricks after each card (those DDS gives:
//! it skips the last trick), which cards cost tricks and the cards that
//! would have kept them, and the tricks after each opening lead.

use pbn_core::bridge::{card_of, card_word, Card, Seat, Strain};
use pbn_core::dd::leads::opening_leads;
use pbn_core::dd::play::{analyse_play, PlayTrace, Setup};
use pbn_core::model::values::parse_deal;
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
