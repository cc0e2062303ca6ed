use super::text::{render, Style};
use super::*;

const GAME: &str = r#"[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ2.K32.Q32.K32 JT98.AQJ.KJ4.J54 7654.T98.A98.AT9 3.7654.T765.Q876"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Auction "N"]
1S =1= 2H 2S 3H
4S AP
[Note "1:five+ spades"]
[Play "E"]
DK DA D5 D2
S8 S4 S3 SA
[DoubleDummyTricks "2333223332aaaabaaaab"]
[ParContract "EW 3N+1"]
[OptimumScore "EW 430"]
"#;

fn first(text: &str) -> Record {
    let tree = crate::syntax::parse_pieces(text);
    let doc = crate::model::lower(&tree, text);
    record(text, &doc.games[0])
}

#[test]
fn the_ten_is_10_and_hcp_are_counted() {
    let r = first(GAME);
    let east = r.hands[Seat::East as usize].as_ref().unwrap();
    assert_eq!(east.suits[0], "J1098");
    assert_eq!(east.hcp, 13);
    assert_eq!(r.hands[Seat::North as usize].as_ref().unwrap().hcp, 17);
}

#[test]
fn auction_starts_at_west_with_note_refs() {
    let r = first(GAME);
    let a = r.auction.unwrap();
    // North deals: West's column is empty in the first row.
    assert!(a.rows[0][0].is_none());
    assert_eq!(plain(&a.rows[0][1].as_ref().unwrap().call), "1♠");
    assert_eq!(a.rows[0][1].as_ref().unwrap().notes, vec![1]);
    assert_eq!(plain(&a.rows[1][2].as_ref().unwrap().call), "All pass");
    assert_eq!(a.notes, vec![(1, "five+ spades".to_owned())]);
}

#[test]
fn tricks_have_leaders_and_winners_from_the_play_analysis() {
    let r = first(GAME);
    let p = r.play.unwrap();
    assert_eq!(p.tricks.len(), 2);
    assert_eq!(p.tricks[0].leader, Some(Seat::East));
    assert_eq!(p.tricks[0].winner, Some(Seat::South));
    assert_eq!(p.tricks[1].winner, Some(Seat::North));
}

#[test]
fn contract_result_score_dd_and_par() {
    let r = first(GAME);
    assert_eq!(
        plain(&r.contract.unwrap()),
        "4♠ by North, 10 tricks (=), NS +420"
    );
    let dd = r.dd.unwrap();
    assert_eq!(dd[0], [Some(2), Some(3), Some(3), Some(3), Some(2)]);
    assert_eq!(dd[3][4], Some(11));
    assert_eq!(r.par.as_deref(), Some("EW 3N+1"));
}

#[test]
fn broken_games_are_drawn_as_far_as_they_go() {
    let text = "[Board \"x\"]\n[Deal \"N:AKQ.x.-\"]\n[Auction \"Q\"]\n1N $ =a= ^Q\n[Play \"Q\"]\nS10 -- + *\n[Contract \"\"]\n[DoubleDummyTricks \"zz\"]\n";
    let r = first(text);
    assert!(r.dd.is_none());
    let out = render(&r, Style { color: false });
    assert!(out.starts_with("Board x"), "{out}");
    let out = render(&r, Style { color: true });
    assert!(out.contains("\x1b[1m"));
}

/// A game whose Result is empty and whose play holds only `*`, with calls
/// in other programs' spellings and suit escapes in its commentary.
const UNPLAYED: &str = "[Event \"Club\"]\n[Board \"2\"]\n[Dealer \"N\"]\n[Vulnerable \"All\"]\n[Deal \"N:AKQ2.K32.Q32.K32 JT98.AQJ.KJ4.J54 7654.T98.A98.AT9 3.7654.T765.Q876\"]\n[Declarer \"N\"]\n[Contract \"4NT\"]\n[Result \"\"]\n[Auction \"N\"]\n1N P 4n Dbl\nRdbl p AP\n[Play \"E\"]\n*\n{ We made 2\\C, then 3\\S and \\H\\D; a\\b stays. }\n";

#[test]
fn a_play_without_cards_gives_no_tricks_and_no_score() {
    let r = first(UNPLAYED);
    assert_eq!(plain(&r.contract.unwrap()), "4NT by North");
    let empty = UNPLAYED.replace("[Play \"E\"]\n*\n", "[Play \"\"]\n");
    assert_eq!(plain(&first(&empty).contract.unwrap()), "4NT by North");
}

#[test]
fn calls_in_other_spellings_are_drawn_as_pbn_spells_them() {
    let a = first(UNPLAYED).auction.unwrap();
    let calls: Vec<String> = a
        .rows
        .iter()
        .flatten()
        .flatten()
        .map(|c| plain(&c.call))
        .collect();
    assert_eq!(
        calls,
        ["1NT", "Pass", "4NT", "X", "XX", "Pass", "All pass"],
        "{a:?}"
    );
}

#[test]
fn suit_escapes_in_commentary_are_suits() {
    let r = first(UNPLAYED);
    assert_eq!(
        plain(&r.commentary[0]),
        " We made 2♣, then 3♠ and ♥♦; a\\b stays."
    );
    let out = render(&r, Style { color: false });
    assert!(out.contains("2♣, then 3♠"), "{out}");
    let mut page = String::new();
    html::record(&r, &mut page);
    assert!(page.contains("2<span class=\"suit c\""), "{page}");
}

#[test]
fn the_problems_are_folded_last_and_not_printed() {
    let mut r = first(UNPLAYED);
    r.errors.push("a.pbn:1:1: error[PBN0902]: …".into());
    let mut page = String::new();
    html::record(&r, &mut page);
    let problems = page.find("<details class=\"problems\">").expect(&page);
    assert!(page.find("class=\"commentary\"").unwrap() < problems);
    let full = html::page("t", &[r]);
    assert!(full.contains(".problems{display:none}"), "{full}");
}

#[test]
fn the_page_title_is_the_shared_event() {
    let r = first(UNPLAYED);
    let mut other = r.clone();
    assert_eq!(html::title(&[r.clone(), r.clone()], "a.pbn"), "Club");
    other.event = Some("Teams".into());
    assert_eq!(html::title(&[r, other], "a.pbn"), "Hand records: a.pbn");
    assert_eq!(html::title(&[], "a.pbn"), "Hand records: a.pbn");
}
