//! Unit tests of the play analysis, and the helpers the other bridge
//! tests share (deals, play items).

use super::*;
use crate::bridge::rotate;
use crate::codes::bridge as c;
use Seat::*;

/// The §1.2 deal (also errors_10 games 49-61): West KQT2.AT.J6542.85,
/// North .63.AKQ987.A9732, East A8654.KQ5.T.QJT6, South J973.J98742.3.K4.
pub(crate) const SCHIPHOL: &str =
    "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
/// Every hand one suit (errors_10 games 45-48).
pub(crate) const FLUSHES: &str =
    "W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
/// errors_10 game 44: South holds S2.
pub(crate) const REVOKE_DEAL: &str =
    "W:AKQJT9876543.2.. .AKQJT9876543.2. ..AKQJT9876543.2 2...AKQJT9876543";
/// The §1.2 play (correct_10 game 1).
pub(crate) const SCHIPHOL_PLAY: &str = "SK H3 S4 S3 C5 C2 C6 CK S2 H6 S5 S7 C8 CA CT C4 \
                                        D2 DA DT D3 D4 DK H5 H7 - - - H2 *";

/// Parses a Deal tag value; `-` is an unknown hand.
pub(crate) fn hands(deal: &str) -> [Option<Hand>; 4] {
    let (first, rest) = deal.split_once(':').expect("deal with a seat");
    let first: Seat = first.parse().expect("seat");
    let mut out = [None; 4];
    for (k, h) in rest.split_whitespace().enumerate() {
        if h != "-" {
            out[rotate(first, k) as usize] = Some(h.parse().expect("hand"));
        }
    }
    out
}

/// Parses a test play: cards, `-`, `+`, `*`, `?` (unreadable), with
/// `^R`/`^L` before.
pub(crate) fn items(text: &str) -> Vec<PlayItem> {
    let mut out = Vec::new();
    let (mut r, mut l) = (false, false);
    for tok in text.split_whitespace() {
        let token = match tok {
            "^R" => {
                r = true;
                continue;
            }
            "^L" => {
                l = true;
                continue;
            }
            "-" => CardToken::Dash,
            "+" => CardToken::Continuation,
            "*" => CardToken::Terminator,
            "?" => CardToken::Invalid,
            card => CardToken::Card(card.parse().unwrap_or_else(|_| panic!("bad card {card}"))),
        };
        out.push(PlayItem {
            token,
            revoke_marked: r,
            lead_out_of_turn_marked: l,
        });
        (r, l) = (false, false);
    }
    out
}

pub(crate) fn run(
    deal: &str,
    trump: Option<Suit>,
    declarer: Seat,
    first: Seat,
    text: &str,
) -> PlayAnalysis {
    analyze_play(&hands(deal), trump, Some(declarer), first, &items(text))
}

/// (index, code) of every issue.
pub(crate) fn found(a: &PlayAnalysis) -> Vec<(usize, &'static str)> {
    a.issues.iter().map(|i| (i.index, i.code.code)).collect()
}

#[track_caller]
fn clean(a: &PlayAnalysis) {
    assert!(a.issues.is_empty(), "{:#?}", a.issues);
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

#[test]
fn columns_not_playing_order() {
    let a = run(SCHIPHOL, Some(Suit::Hearts), South, West, SCHIPHOL_PLAY);
    clean(&a);
    let leaders: Vec<_> = a.tricks.iter().map(|t| t.leader).collect();
    let winners: Vec<_> = a.tricks.iter().map(|t| t.winner).collect();
    assert_eq!(
        leaders,
        [West, North, South, North, North, North, South]
            .map(Some)
            .to_vec()
    );
    assert_eq!(
        winners[..6],
        [North, South, North, North, North, South].map(Some)
    );
    assert_eq!(winners[6], None);
    assert!(a.terminated && a.complete && !a.continued);
    assert_eq!((a.ns_tricks, a.ew_tricks, a.unknown_tricks), (6, 0, 0));
    assert_eq!((a.declarer_tricks, a.defender_tricks), (Some(6), Some(0)));
    assert_eq!(a.seats[1], Some(North));
    assert_eq!(a.seats[28], None);
    assert_eq!(a.next_seat, None);
    // West's HA beats all of South's trumps, East's HK and HQ are second
    // and third: EW surely win 2 more (in East's hand).
    assert_eq!(a.sure_tricks, [0, 2]);
    assert_eq!(a.final_bounds(South), (6, 11));
    assert_eq!(a.final_bounds(East), (2, 7));
    // The same play without trumps: the first trick goes to West's SK.
    let a = run(SCHIPHOL, None, South, West, "SK H3 S4 S3 *");
    assert_eq!(a.tricks[0].winner, Some(West));
    assert_eq!(a.sure_tricks, [0, 0]);
}

#[test]
fn wrong_opening_leader() {
    // South declares: West leads. The columns may start elsewhere only
    // with a lead out of turn.
    let a = run(SCHIPHOL, Some(Suit::Hearts), South, North, "H3 S4 S3 SK *");
    assert_eq!(found(&a), vec![(0, c::WRONG_OPENING_LEADER.code)]);
    // West led (the reading without spurious revokes).
    assert_eq!(a.tricks[0].leader, Some(West));
    clean(&run(
        SCHIPHOL,
        Some(Suit::Hearts),
        South,
        West,
        "SK H3 S4 S3 *",
    ));
    // An unmarked lead out of turn by North is read the Play tag's way.
    let a = run(SCHIPHOL, Some(Suit::Hearts), South, North, "D7 DT D3 D2 *");
    assert_eq!(found(&a), vec![(0, c::WRONG_OPENING_LEADER.code)]);
    assert_eq!(a.tricks[0].leader, Some(North));
    // The Play tag may name a player who led out of turn.
    let a = run(
        SCHIPHOL,
        Some(Suit::Hearts),
        South,
        North,
        "^L D7 DT D3 D2 *",
    );
    clean(&a);
    assert_eq!(a.tricks[0].leader, Some(North));
    // …but not a third player.
    let a = run(
        SCHIPHOL,
        Some(Suit::Hearts),
        South,
        North,
        "D7 ^L DT D3 D2 *",
    );
    assert_eq!(found(&a), vec![(0, c::WRONG_OPENING_LEADER.code)]);
    assert_eq!(a.tricks[0].leader, Some(East));
    // Declarer and dummy swapped (^S with the auction's declarer North):
    // the caller passes South, West leads.
    clean(&run(
        SCHIPHOL,
        Some(Suit::Hearts),
        South,
        West,
        "SK H3 S4 S3 *",
    ));
    // End positions: the Play tag names the leader.
    let end = "N:.63.. .KQ.. ..A.T ..KQ.";
    let a = run(end, Some(Suit::Spades), South, North, "H6 HK DA DK *");
    clean(&a);
    assert!(a.end_position);
    assert_eq!(a.total_tricks, 2);
    assert_eq!(a.tricks[0].winner, Some(East));
    // Sure tricks: North's HQ is not sure, West's HK is already in the
    // current trick and North must follow to it.
    let end = "W:.K.2. .Q..2 32... ..3.3";
    let a = run(end, Some(Suit::Hearts), South, West, "HK - - -");
    clean(&a);
    assert_eq!(a.sure_tricks, [0, 0]);
    assert_eq!(a.next_seat, Some(North));
    assert_eq!(a.legal_next_cards, vec![card("HQ")]);
    // Declarer unknown: the Play tag names the leader.
    let a = analyze_play(
        &hands(SCHIPHOL),
        Some(Suit::Hearts),
        None,
        North,
        &items("D7 DT D3 D2 *"),
    );
    clean(&a);
    assert_eq!(a.opening_leader, Some(North));
}

#[test]
fn card_not_in_hand() {
    let a = run(FLUSHES, None, South, West, "SA S2 D2 C2 *");
    assert_eq!(found(&a), vec![(1, c::CARD_NOT_IN_HAND.code)]);
    assert!(
        a.issues[0].message.contains("gives it to West"),
        "{}",
        a.issues[0].message
    );
    clean(&run(FLUSHES, None, South, West, "SA H2 D2 C2 *"));
    // North's hand unknown, but the card is known to be West's.
    let mut h = hands(FLUSHES);
    h[North as usize] = None;
    let a = analyze_play(&h, None, Some(South), West, &items("SA S2 D2 C2 *"));
    assert_eq!(found(&a), vec![(1, c::CARD_NOT_IN_HAND.code)]);
    let a = analyze_play(&h, None, Some(South), West, &items("SA H2 D2 C2 *"));
    clean(&a);
}

#[test]
fn card_played_twice() {
    let a = run(FLUSHES, None, South, West, "SA H2 D2 C2 SA H3 D3 C3 *");
    assert_eq!(found(&a), vec![(4, c::CARD_PLAYED_TWICE.code)]);
    assert_eq!(a.issues[0].related, Some(0));
    clean(&run(
        FLUSHES,
        None,
        South,
        West,
        "SA H2 D2 C2 SK H3 D3 C3 *",
    ));
}

#[test]
fn unmarked_revoke() {
    let a = run(REVOKE_DEAL, None, South, West, "SA HA DA CA *");
    assert_eq!(found(&a), vec![(3, c::UNMARKED_REVOKE.code)]);
    assert_eq!(a.issues[0].related, Some(0));
    clean(&run(REVOKE_DEAL, None, South, West, "SA HA DA ^R CA *"));
    // The revoker's unknown earlier card might have been the S2.
    // (The `-` hides the winner of trick 1, so trick 2 needs its leader
    // from a `^L`, accepted when nobody is known to be on lead.)
    let a = run(
        REVOKE_DEAL,
        None,
        South,
        West,
        "SA HA DA - ^L SK HK DK CA *",
    );
    assert!(a.issues.is_empty(), "{:#?}", a.issues);
    assert_eq!(a.tricks[1].leader, Some(West));
    let a = run(
        REVOKE_DEAL,
        None,
        South,
        West,
        "SA - DA CA ^L SK HK DK CQ *",
    );
    assert_eq!(
        found(&a),
        vec![(3, c::UNMARKED_REVOKE.code), (7, c::UNMARKED_REVOKE.code)]
    );
}

#[test]
fn revoke_mark_without_revoke() {
    let t = Some(Suit::Hearts);
    // Follows suit (game 53), void (game 52), the lead (game 51).
    for (text, at) in [
        ("SK H3 ^R S4 S3 *", 2),
        ("SK ^R H3 S4 S3 *", 1),
        ("^R SK H3 S4 S3 *", 0),
        ("^R ^L SK H3 S4 S3 *", 0),
    ] {
        let a = run(SCHIPHOL, t, South, West, text);
        let want = if text.contains("^L") {
            vec![
                (0, c::LEAD_MARK_ON_LEADER.code),
                (0, c::REVOKE_MARK_WITHOUT_REVOKE.code),
            ]
        } else {
            vec![(at, c::REVOKE_MARK_WITHOUT_REVOKE.code)]
        };
        assert_eq!(found(&a), want, "{text}");
    }
    clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 *"));
    // A real revoke by East (holding spades) is fine when marked.
    clean(&run(SCHIPHOL, t, South, West, "SK H3 ^R DT S3 *"));
}

#[test]
fn leads_out_of_turn() {
    let t = Some(Suit::Hearts);
    // Game 50: ^L on the opening leader.
    let a = run(SCHIPHOL, t, South, West, "^L SK H3 S4 S3 *");
    assert_eq!(found(&a), vec![(0, c::LEAD_MARK_ON_LEADER.code)]);
    // §3.9 (D): East leads instead of West; the others follow clockwise.
    let a = run(SCHIPHOL, t, South, West, "C5 C2 ^L C6 CK *");
    clean(&a);
    assert_eq!(a.tricks[0].leader, Some(East));
    assert_eq!(a.tricks[0].winner, Some(South));
    // Two leads out of turn in one trick.
    let a = run(SCHIPHOL, t, South, West, "C5 ^L C2 ^L C6 CK *");
    assert_eq!(found(&a), vec![(2, c::MULTIPLE_LEADS_OUT_OF_TURN.code)]);
    assert_eq!(a.issues[0].related, Some(1));
    assert_eq!(a.tricks[0].leader, Some(North));
    // ^L on the winner of the previous trick.
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 C5 ^L C2 C6 CK *");
    assert_eq!(found(&a), vec![(5, c::LEAD_MARK_ON_LEADER.code)]);
}

#[test]
fn after_the_end() {
    // West leads 13 spades and wins every trick at notrump.
    let spades = [
        "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2",
    ];
    let ranks = spades;
    let mut text = String::new();
    for (k, s) in spades.iter().enumerate() {
        let r = ranks[k];
        text.push_str(&format!("S{s} H{r} D{r} C{r} "));
    }
    let a = run(FLUSHES, None, South, West, &text);
    clean(&a);
    assert!(a.complete && !a.terminated);
    assert_eq!(a.declarer_tricks, Some(0));
    assert_eq!(a.defender_tricks, Some(13));
    assert_eq!(a.final_bounds(South), (0, 0));
    // A redundant `*` after 13 tricks is accepted.
    clean(&run(FLUSHES, None, South, West, &format!("{text} *")));
    let a = run(FLUSHES, None, South, West, &format!("{text} -"));
    assert_eq!(found(&a), vec![(52, c::CARD_AFTER_END_OF_PLAY.code)]);
    // End position of one card each.
    let end = "N:A... .A.. ..A. ...A";
    let a = run(end, None, West, North, "SA HA DA CA SK");
    assert_eq!(found(&a), vec![(4, c::CARD_AFTER_END_OF_PLAY.code)]);
    assert!(a.issues[0].message.contains("end position"));
    let a = run(end, None, West, North, "SA HA DA CA");
    clean(&a);
    assert!(a.complete);
}

#[test]
fn markers() {
    let t = Some(Suit::Hearts);
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 * C5");
    assert_eq!(found(&a), vec![(5, c::CARD_AFTER_PLAY_MARKER.code)]);
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 * *");
    assert_eq!(found(&a), vec![(5, c::CARD_AFTER_PLAY_MARKER.code)]);
    // North (who won the ruff) leads C2, East is to play: CK after `+`.
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - C2 + CK");
    assert_eq!(found(&a), vec![(7, c::CARD_AFTER_PLAY_MARKER.code)]);
    assert_eq!(a.issues[0].related, Some(6));
    // West's card comes after East's in playing order: fine as `-`…
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - C2 + -");
    clean(&a);
    assert!(a.continued && !a.complete);
    assert_eq!(a.next_seat, Some(East));
    assert_eq!(
        a.legal_next_cards,
        ["CQ", "CJ", "CT", "C6"].map(card).to_vec()
    );
    // …and a second `+` is wrong.
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - C2 + +");
    assert_eq!(found(&a), vec![(7, c::CARD_AFTER_PLAY_MARKER.code)]);
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - + - - *");
    assert_eq!(found(&a), vec![(8, c::PLAY_PLUS_AND_STAR.code)]);
    assert_eq!(
        a.issues[0].code.severity,
        crate::diagnostic::Severity::Warning
    );
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 * +");
    assert_eq!(found(&a), vec![(5, c::PLAY_PLUS_AND_STAR.code)]);
    // Marks before `*`/`+` are the caller's (PBN0712) and ignored here.
    clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 ^L *"));
    clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 ^R +"));
}

#[test]
fn spec_plus_example() {
    // §3.6: South has played the last card, West must continue.
    let a = analyze_play(
        &[None; 4],
        None,
        Some(South),
        West,
        &items("H2 H3 H4 HA + - - CQ"),
    );
    clean(&a);
    assert_eq!(a.tricks[1].leader, Some(South));
    assert_eq!(a.next_seat, Some(West));
    // An unknown hand may play any unseen card.
    assert_eq!(a.legal_next_cards.len(), 52 - 5);
}

#[test]
fn extra_plus_signs_over_a_whole_trick() {
    // Found by fuzzing (tests/fixtures/fuzz/parse_check/play-second-plus):
    // every `+` after the first is reported and skipped but takes its
    // column, so trick 2 (columns 4–7) has no recorded card at all.
    let a = analyze_play(
        &[None; 4],
        None,
        Some(South),
        West,
        &items("? + + + + + + + ?"),
    );
    let extra: Vec<_> = (2..=7)
        .map(|i| (i, c::CARD_AFTER_PLAY_MARKER.code))
        .collect();
    assert_eq!(
        found(&a)
            .into_iter()
            .filter(|&(i, _)| (2..=7).contains(&i))
            .collect::<Vec<_>>(),
        extra
    );
    assert_eq!(a.tricks.len(), 3);
    assert!(a.tricks[1].cards.iter().all(Option::is_none));
    assert_eq!(a.tricks[2].cards.iter().flatten().collect::<Vec<_>>(), [&8]);
}

#[test]
fn incomplete() {
    let t = Some(Suit::Hearts);
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3");
    assert_eq!(found(&a), vec![(3, c::INCOMPLETE_PLAY.code)]);
    assert_eq!(
        a.issues[0].code.severity,
        crate::diagnostic::Severity::Warning
    );
    assert_eq!(a.next_seat, Some(North));
    assert_eq!(a.legal_next_cards.len(), 12);
    let a = run(SCHIPHOL, t, South, West, "");
    assert_eq!(found(&a), vec![(0, c::INCOMPLETE_PLAY.code)]);
    assert_eq!(a.next_seat, Some(West));
    clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 -"));
    clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 +"));
    clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 *"));
    // Next card in playing order: North led C2 (column 2), East follows.
    let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 C5 C2");
    assert_eq!(a.next_seat, Some(East));
    assert_eq!(
        a.legal_next_cards,
        ["CQ", "CJ", "CT", "C6"].map(card).to_vec()
    );
}

#[test]
fn unknown_cards() {
    let t = Some(Suit::Hearts);
    // An unknown card in the first trick: its winner and the next leader
    // are unknown, so later tricks are not judged on following suit.
    let a = run(SCHIPHOL, t, South, West, "SK - S4 S3 C5 C2 C6 CK *");
    clean(&a);
    assert_eq!(a.tricks[0].winner, None);
    assert_eq!(a.tricks[1].leader, None);
    assert_eq!((a.ns_tricks, a.ew_tricks, a.unknown_tricks), (0, 0, 2));
    assert_eq!(a.declarer_tricks, None);
    // An unreadable card was played: unlike `-` the trick counts.
    let a = run(SCHIPHOL, t, South, West, "SK ? S4 S3");
    assert_eq!(found(&a), vec![(3, c::INCOMPLETE_PLAY.code)]);
    assert_eq!(a.unknown_tricks, 1);
    assert_eq!(a.next_seat, None);
    // Cards are still checked against the hands.
    let a = run(SCHIPHOL, t, South, West, "SK - S4 S3 C5 C2 C7 CK *");
    assert_eq!(found(&a), vec![(6, c::CARD_NOT_IN_HAND.code)]);
}

/// A play that fits the §1.2 deal fits nothing else; the same play against
/// the deal written one, two or three seats off is found rotated by that
/// many seats, and a play of one trick is too short to tell.
#[test]
fn rotation_finds_the_seats_the_deal_is_off() {
    let rotation = |hands: &[Option<Hand>; 4], trump, declarer, first, items: &[PlayItem]| {
        let as_given = analyze_play(hands, trump, declarer, first, items);
        super::rotation(&as_given, hands, trump, declarer, first, items).map(|(k, _)| k)
    };
    let play = items(SCHIPHOL_PLAY);
    let right = hands(SCHIPHOL);
    let trump = Some(Suit::Hearts);
    assert_eq!(rotation(&right, trump, Some(South), West, &play), None);
    for k in 1..4 {
        // The hand of seat s written at seat s + k.
        let off: [Option<Hand>; 4] = std::array::from_fn(|s| right[(s + 4 - k) % 4]);
        assert_eq!(
            rotation(&off, trump, Some(South), West, &play),
            Some(k),
            "written {k} seats off"
        );
    }
    let off: [Option<Hand>; 4] = std::array::from_fn(|s| right[(s + 3) % 4]);
    let one_trick = items("SK H3 S4 S3 *");
    assert_eq!(rotation(&off, trump, Some(South), West, &one_trick), None);
    let mut unknown = off;
    unknown[0] = None;
    assert_eq!(rotation(&unknown, trump, Some(South), West, &play), None);
}
