use super::*;
use crate::model::values::parse_deal;

fn deal(s: &str) -> Deal {
    parse_deal(s).value.unwrap_or_else(|| panic!("{s}"))
}

/// BridgeComposer 5.50's DoubleDummyTricks for this deal (bridge-pbn's
/// three_test_records.pbn, board 1).
#[test]
fn full_deal_matches_bridgecomposer() {
    let d = deal("N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7");
    let t = solve_table(&d).unwrap();
    assert_eq!(t.double_dummy_tricks(), "63b3c63b3c492a0492a0");
    let p = par(&t, AbsoluteVulnerability::NONE, Seat::North);
    assert_eq!(p.optimum_score(), "NS 300", "{p:?}");
    assert_eq!(p.par_contracts(), vec!["EW 6DX-2"]);
}

/// The one-thread solve (the server's background work) gives the same
/// table as the default one, and rejects the same deals.
#[test]
fn one_thread_solve_matches() {
    let d = deal("N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7");
    let t = solve_hands_one_thread(&d.hands, &d.spot_cards).unwrap();
    assert_eq!(t.double_dummy_tricks(), "63b3c63b3c492a0492a0");
    let d = deal("N:AK... QJ... T9... 87...");
    let one = solve_hands_one_thread(&d.hands, &d.spot_cards);
    assert_eq!(one, solve_table(&d));
    let d = deal("N:AKQ... - - -");
    assert_eq!(
        solve_hands_one_thread(&d.hands, &d.spot_cards),
        Err(DdError::MissingHand(Seat::East))
    );
}

#[test]
fn seven_notrump_for_all_aces_and_kings() {
    // North holds every spade: 13 tricks in spades for N/S, 0 for E/W.
    let d = deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432");
    let t = solve_table(&d).unwrap();
    assert_eq!(t.get(Strain::Spades, Seat::North), 13);
    assert_eq!(t.get(Strain::Spades, Seat::East), 0);
}

#[test]
fn end_position_is_solved_from_the_cards_given() {
    // Two cards each: North has the two top spades.
    let d = deal("N:AK... QJ... T9... 87...");
    let t = solve_table(&d).unwrap();
    assert_eq!(t.get(Strain::Notrump, Seat::North), 2);
    assert_eq!(t.get(Strain::Notrump, Seat::East), 0);
    let d = deal("N:A.K.. K.A.. Q.Q.. J.J..");
    let t = solve_table(&d).unwrap();
    // East declares NT: South leads; each side takes one trick.
    assert_eq!(t.get(Strain::Notrump, Seat::East), 1);
}

#[test]
fn unsolvable_deals_are_errors_not_panics() {
    assert_eq!(
        solve_table(&deal("N:AKQ... - - -")),
        Err(DdError::MissingHand(Seat::East))
    );
    assert_eq!(
        solve_table(&deal("N:AK... Q... T9... 87...")),
        Err(DdError::UnequalHands)
    );
    assert!(matches!(
        solve_table(&deal("N:Kx... Q2... T9... 87...")),
        Err(DdError::SpotCards(Seat::North))
    ));
}

#[test]
fn par_follows_vulnerability_and_dealer() {
    // North-South make 4S (10 tricks) and nothing else is close.
    let mut tricks = [[0u8; 4]; 5];
    tricks[Strain::Spades as usize] = [10, 3, 10, 3];
    tricks[Strain::Notrump as usize] = [7, 6, 7, 6];
    tricks[Strain::Hearts as usize] = [6, 7, 6, 7];
    tricks[Strain::Diamonds as usize] = [6, 7, 6, 7];
    tricks[Strain::Clubs as usize] = [6, 7, 6, 7];
    let t = DdTable { tricks };
    let p = par(&t, AbsoluteVulnerability::NONE, Seat::North);
    assert_eq!(p.score_ns, 420);
    assert_eq!(p.par_contracts(), vec!["NS 4S="]);
    assert_eq!(p.optimum_score(), "NS 420");
    let p = par(&t, AbsoluteVulnerability::NS, Seat::North);
    assert_eq!(p.score_ns, 620, "{p:?}");
    // EW vulnerable, NS not: 5HX-4 by EW would cost 1100, so 4S= stands.
    assert_eq!(par(&t, AbsoluteVulnerability::EW, Seat::East).score_ns, 420);
}

/// Both sides can make 1NT (7 tricks each way): the side that bids first,
/// i.e. the dealer's, gets it.
#[test]
fn par_goes_to_the_dealer_side_when_both_sides_make() {
    let mut tricks = [[0u8; 4]; 5];
    tricks[Strain::Notrump as usize] = [7, 7, 7, 7];
    for s in [
        Strain::Spades,
        Strain::Hearts,
        Strain::Diamonds,
        Strain::Clubs,
    ] {
        tricks[s as usize] = [6, 6, 6, 6];
    }
    let t = DdTable { tricks };
    assert_eq!(
        par(&t, AbsoluteVulnerability::NONE, Seat::North).score_ns,
        90
    );
    assert_eq!(
        par(&t, AbsoluteVulnerability::NONE, Seat::East).score_ns,
        -90
    );
    assert_eq!(
        par(&t, AbsoluteVulnerability::NONE, Seat::West).par_contracts(),
        vec!["EW 1N="]
    );
}
