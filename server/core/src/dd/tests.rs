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

/// [`solve_hands_one_thread`] on a new thread with the stack it documents.
fn one_thread(d: &Deal) -> Result<DdTable, DdError> {
    let d = d.clone();
    std::thread::Builder::new()
        .stack_size(SOLVER_STACK_SIZE)
        .spawn(move || solve_hands_one_thread(&d.hands, &d.spot_cards))
        .unwrap()
        .join()
        .unwrap()
}

/// The one-thread solve (the server's background work) gives the same
/// table as the default one, and rejects the same deals.
#[test]
fn one_thread_solve_matches() {
    let d = deal("N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7");
    assert_eq!(
        one_thread(&d).unwrap().double_dummy_tricks(),
        "63b3c63b3c492a0492a0"
    );
    for end in ["N:AK... QJ... T9... 87...", "N:A.K.. K.A.. Q.Q.. J.J.."] {
        let d = deal(end);
        assert_eq!(one_thread(&d), solve_table(&d), "{end}");
    }
    assert_eq!(
        one_thread(&deal("N:AKQ... - - -")),
        Err(DdError::MissingHand(Seat::East))
    );
}

/// The conversion the play analyses share: a full deal narrows back to
/// `FullDeal`, an end position does not, and a bad deal is an error.
#[test]
fn solver_deal_validates_and_converts() {
    let full = deal("N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7");
    let d = solver_deal(&full).unwrap();
    assert_eq!(d.len(), 52);
    assert!(FullDeal::try_from(d).is_ok());
    let end = solver_deal(&deal("N:AK... QJ... T9... 87...")).unwrap();
    assert_eq!(end.len(), 8);
    assert!(FullDeal::try_from(end).is_err());
    assert_eq!(
        solver_deal(&deal("N:AK... Q... T9... 87...")),
        Err(DdError::UnequalHands)
    );
}

/// Many deals at once give the tables of one at a time, and a deal that is
/// not full is `None`.
#[test]
fn batch_matches_single_solves() {
    let deals = [
        deal("N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7"),
        deal("N:AK... QJ... T9... 87..."),
        deal("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"),
    ];
    let batch = solve_tables(&deals);
    assert_eq!(batch[0], solve_table(&deals[0]).ok());
    assert_eq!(batch[1], None);
    assert_eq!(batch[2], solve_table(&deals[2]).ok());
    assert_eq!(batch[2].unwrap().get(Strain::Notrump, Seat::North), 13);
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
