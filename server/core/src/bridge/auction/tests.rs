//! Unit tests of the auction analysis, and the helpers the other bridge
//! tests share (auction items, codes).

use super::*;
use crate::bridge::ISSUE_CAP;
use crate::codes::bridge as c;
use Seat::*;

/// Parses a test auction: calls, `^I`, `^S`, `-`, `AP`, `+`, `*`.
pub(crate) fn items(text: &str) -> Vec<AuctionItem> {
    let mut out = Vec::new();
    let mut marked = false;
    for tok in text.split_whitespace() {
        let token = match tok.to_ascii_uppercase().as_str() {
            "^I" => {
                marked = true;
                continue;
            }
            "^S" => CallToken::Skip,
            "-" => CallToken::Dash,
            "PASS" => CallToken::Pass,
            "X" => CallToken::Double,
            "XX" => CallToken::Redouble,
            "AP" => CallToken::AllPass,
            "+" => CallToken::Continuation,
            "*" => CallToken::Terminator,
            "?" => CallToken::Invalid,
            bid => CallToken::Bid(bid.parse().unwrap_or_else(|_| panic!("bad bid {bid}"))),
        };
        out.push(AuctionItem {
            token,
            insufficient_marked: marked,
        });
        marked = false;
    }
    out
}

pub(crate) fn run(dealer: Seat, first: Seat, text: &str) -> AuctionAnalysis {
    analyze_auction(Some(dealer), first, &items(text))
}

pub(crate) fn codes_of(a: &AuctionAnalysis) -> Vec<&'static str> {
    a.issues.iter().map(|i| i.code.code).collect()
}

fn contract(a: &AuctionAnalysis) -> Option<(String, Seat)> {
    match a.contract? {
        FinalContract::PassedOut => Some(("Pass".into(), North)),
        FinalContract::Contract { contract, declarer } => {
            Some((super::super::contract_text(contract), declarer))
        }
    }
}

#[track_caller]
fn only(a: &AuctionAnalysis, code: &str) -> usize {
    assert_eq!(codes_of(a), vec![code], "{:#?}", a.issues);
    a.issues[0].index
}

#[track_caller]
fn clean(a: &AuctionAnalysis) {
    assert!(a.issues.is_empty(), "{:#?}", a.issues);
}

#[test]
fn spec_example_1_2() {
    let a = run(
        North,
        North,
        "1D 1S 3H 4S 4NT X Pass Pass 5C X 5H X Pass Pass Pass",
    );
    clean(&a);
    assert!(a.complete);
    assert_eq!(contract(&a), Some(("5HX".into(), South)));
    assert_eq!(a.seats[2], Some(South));
    assert_eq!(a.next_seat, None);
    assert!(a.legal_next_calls.is_empty());
}

#[test]
fn dealer_padding() {
    // PBN0501: a call in the column of a player before the dealer.
    let a = run(North, West, "1D Pass Pass Pass");
    assert_eq!(only(&a, c::CALL_BEFORE_DEALER.code), 0);
    assert!(a.issues[0].message.contains("North is the dealer"));
    let a = run(North, West, "- 1D Pass Pass Pass");
    clean(&a);
    assert_eq!(a.seats[1], Some(North));
    assert_eq!(contract(&a), Some(("1D".into(), North)));
    // Three dashes before South... here West deals, Auction N: N E S before W.
    clean(&run(West, North, "- - - 1C AP"));
    let a = run(West, North, "- - 1C AP");
    assert_eq!(only(&a, c::CALL_BEFORE_DEALER.code), 2);
    // ^S in a seat before the dealer is a call there too.
    let a = run(North, West, "^S 1D AP");
    assert_eq!(only(&a, c::CALL_BEFORE_DEALER.code), 0);
}

#[test]
fn misplaced_dash() {
    let a = run(North, West, "- - 1D Pass Pass Pass");
    assert_eq!(only(&a, c::MISPLACED_AUCTION_DASH.code), 1);
    let a = run(North, North, "1D - Pass Pass Pass");
    assert_eq!(only(&a, c::MISPLACED_AUCTION_DASH.code), 1);
    clean(&run(North, North, "1D Pass Pass Pass"));
    // Unknown dealer: leading dashes define it.
    let a = analyze_auction(None, West, &items("- - 1D AP"));
    clean(&a);
    assert_eq!(a.dealer, Some(East));
    let a = analyze_auction(None, West, &items("1D - AP"));
    assert_eq!(only(&a, c::MISPLACED_AUCTION_DASH.code), 1);
}

#[test]
fn insufficient_bids() {
    let a = run(North, North, "1D 1C Pass Pass Pass");
    assert_eq!(only(&a, c::UNMARKED_INSUFFICIENT_BID.code), 1);
    assert_eq!(a.issues[0].related, Some(0));
    // The same bid again is insufficient too.
    let a = run(North, North, "1D 1D AP");
    assert_eq!(only(&a, c::UNMARKED_INSUFFICIENT_BID.code), 1);
    let a = run(North, North, "1D ^I 1C Pass Pass Pass");
    clean(&a);
    // The accepted 1C is the last bid: declarer East in clubs.
    assert_eq!(contract(&a), Some(("1C".into(), East)));
    // After an accepted insufficient bid, the next bid is measured against it.
    clean(&run(North, North, "1D ^I 1C 1D AP"));
    let a = run(North, North, "1D ^I 1C ^I 1D AP");
    assert_eq!(only(&a, c::SUFFICIENT_BID_MARKED.code), 2);
}

#[test]
fn sufficient_bid_marked() {
    let a = run(North, North, "1D ^I 1S Pass Pass Pass");
    assert_eq!(only(&a, c::SUFFICIENT_BID_MARKED.code), 1);
    assert_eq!(a.issues[0].related, Some(0));
    let a = run(North, North, "^I 1C AP");
    assert_eq!(only(&a, c::SUFFICIENT_BID_MARKED.code), 0);
    assert!(a.issues[0].message.contains("first bid"));
    clean(&run(North, North, "1D 1S AP"));
}

#[test]
fn insufficient_mark_on_a_non_bid_is_the_callers() {
    // `^I` before Pass/X/XX/AP is PBN0712 (rules/notes.rs); the state
    // machine ignores the mark there.
    clean(&run(North, North, "1D ^I Pass Pass Pass"));
    clean(&run(North, North, "1D ^I X AP"));
}

#[test]
fn doubles() {
    // Partner's bid.
    let a = run(North, North, "1D Pass X Pass *");
    assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 2);
    assert!(a.issues[0].message.contains("partner"));
    // Own bid, already doubled, nothing bid.
    let a = run(North, North, "Pass X *");
    assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 1);
    let a = run(North, North, "1D X Pass X *");
    assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 3);
    let a = run(North, North, "1D X XX X *");
    assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 3);
    // Admissible: an opponent's bid, also after passes.
    clean(&run(North, North, "1D Pass Pass X *"));
    let a = run(North, North, "1D X AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("1DX".into(), North)));
}

#[test]
fn redoubles() {
    let a = run(North, West, "- 1D X Pass XX *");
    assert_eq!(only(&a, c::INADMISSIBLE_REDOUBLE.code), 4);
    assert_eq!(a.issues[0].related, Some(2));
    let a = run(North, North, "1D XX *");
    assert_eq!(only(&a, c::INADMISSIBLE_REDOUBLE.code), 1);
    let a = run(North, North, "1D X XX XX *");
    assert_eq!(only(&a, c::INADMISSIBLE_REDOUBLE.code), 3);
    let a = run(North, West, "- 1D X Pass Pass XX AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("1DXX".into(), North)));
    clean(&run(North, West, "- 1D X XX *"));
}

#[test]
fn end_of_auction() {
    let a = run(North, North, "1C Pass Pass Pass Pass");
    assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 4);
    assert_eq!(a.issues[0].related, Some(3));
    let a = run(North, North, "Pass Pass Pass Pass 1C");
    assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 4);
    let a = run(North, North, "1C AP Pass");
    assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 2);
    let a = run(North, North, "1C AP +");
    assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 2);
    // Passed out.
    let a = run(South, South, "AP");
    clean(&a);
    assert_eq!(a.contract, Some(FinalContract::PassedOut));
    let a = run(South, South, "Pass Pass Pass Pass");
    assert_eq!(a.contract, Some(FinalContract::PassedOut));
    // Three passes after the opening pass do not end it.
    let a = run(South, South, "Pass Pass Pass 1C AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("1C".into(), East)));
    // A redundant `*` after the end is accepted.
    clean(&run(North, North, "1C AP *"));
}

#[test]
fn markers() {
    let a = run(North, North, "1C * Pass");
    assert_eq!(only(&a, c::CALL_AFTER_AUCTION_MARKER.code), 2);
    assert_eq!(a.issues[0].related, Some(1));
    let a = run(North, North, "1C + Pass");
    assert_eq!(only(&a, c::CALL_AFTER_AUCTION_MARKER.code), 2);
    let a = run(North, North, "1C Pass + *");
    assert_eq!(only(&a, c::AUCTION_PLUS_AND_STAR.code), 3);
    let a = run(North, North, "1C Pass * +");
    assert_eq!(only(&a, c::AUCTION_PLUS_AND_STAR.code), 3);
    let a = run(North, North, "1C Pass +");
    clean(&a);
    assert!(a.continued && !a.complete && a.contract.is_none());
    assert_eq!(a.next_seat, Some(South));
    assert_eq!(a.seats[2], Some(South));
    let a = run(North, North, "1C Pass *");
    clean(&a);
    assert!(a.ended_by_terminator && !a.complete && a.next_seat.is_none());
}

#[test]
fn incomplete() {
    let a = run(North, North, "1C Pass Pass");
    assert_eq!(only(&a, c::INCOMPLETE_AUCTION.code), 2);
    assert_eq!(
        a.issues[0].code.severity,
        crate::diagnostic::Severity::Warning
    );
    let a = run(North, North, "");
    assert_eq!(only(&a, c::INCOMPLETE_AUCTION.code), 0);
    let a = run(North, West, "-");
    assert_eq!(only(&a, c::INCOMPLETE_AUCTION.code), 0);
    clean(&run(North, North, "1C AP"));
}

#[test]
fn skips_follow_section_3_9_b() {
    // West is dealer in all §3.9 (B) examples.
    let a = run(West, West, "^S 1D AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("1D".into(), North)));
    let a = run(West, West, "1D ^S 2D AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("2D".into(), West)));
    let a = run(West, West, "1D ^S ^I 1C AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("1C".into(), East)));
    let a = run(West, West, "1D ^S ^S 2D AP");
    clean(&a);
    // West opened 1D, but South's side bid diamonds first for NS.
    assert_eq!(contract(&a), Some(("2D".into(), South)));
    assert_eq!(a.seats[3], Some(South));
    let a = run(West, West, "1D ^S ^S ^I 1C AP");
    clean(&a);
    assert_eq!(contract(&a), Some(("1C".into(), South)));
    // ^S does not count as a pass.
    let a = run(West, West, "1D Pass ^S Pass");
    assert!(!a.complete);
    let a = run(West, West, "1D Pass ^S Pass Pass");
    clean(&a);
    assert!(a.complete);
}

#[test]
fn unknown_calls() {
    let mut it = items("1C ^I Pass 1S X Pass");
    it[1].token = CallToken::Invalid;
    let a = analyze_auction(Some(North), North, &it);
    clean(&a);
    assert!(!a.complete && a.contract.is_none());
    assert_eq!(a.seats[4], Some(North));
    assert_eq!(a.next_seat, Some(East));
    assert!(a.legal_next_calls.is_empty());
    // Markers are still checked, and the calls before it.
    let mut it = items("1C 1C Pass * Pass");
    it[2].token = CallToken::Invalid;
    let a = analyze_auction(Some(North), North, &it);
    assert_eq!(
        codes_of(&a),
        [
            c::UNMARKED_INSUFFICIENT_BID.code,
            c::CALL_AFTER_AUCTION_MARKER.code
        ]
    );
}

#[test]
fn legal_next_calls() {
    let a = run(North, North, "1NT Pass");
    assert_eq!(a.next_seat, Some(South));
    let calls = &a.legal_next_calls;
    assert_eq!(calls[0], Call::Pass);
    assert!(!calls.contains(&Call::Double), "partner's bid");
    assert_eq!(calls[1], Call::Bid("2C".parse().unwrap()));
    assert_eq!(calls.len(), 1 + 6 * 5);
    let a = run(North, North, "1NT");
    assert_eq!(a.legal_next_calls[1], Call::Double);
    let a = run(North, North, "1NT X");
    assert_eq!(a.legal_next_calls[1], Call::Redouble);
    let a = run(North, North, "7NT X XX");
    assert_eq!(a.legal_next_calls, vec![Call::Pass]);
    let a = run(North, North, "");
    assert_eq!(a.next_seat, Some(North));
    assert_eq!(a.legal_next_calls.len(), 1 + 35);
    // The next item must be a `-`.
    let a = run(North, West, "");
    assert_eq!(a.next_seat, Some(West));
    assert!(a.legal_next_calls.is_empty());
}

#[test]
fn issues_of_one_code_beyond_the_cap_are_counted_not_kept() {
    let text = format!("Pass Pass Pass Pass {}", "Pass ".repeat(ISSUE_CAP + 7));
    let a = run(North, North, &text);
    assert_eq!(a.issues.len(), ISSUE_CAP, "kept");
    assert_eq!(a.issues.more(c::CALL_AFTER_AUCTION_END.code), 7);
    assert_eq!(a.issues.total(), ISSUE_CAP + 7);
    assert_eq!(a.issues[0].index, 4, "the first ones are kept");
}
