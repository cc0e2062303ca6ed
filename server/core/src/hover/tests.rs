//! The hover's Markdown on small documents, through [`Parsed`] (the whole
//! document's input); `pbn`'s adapter test (`lsp/requests/hover.rs`) covers
//! positions in UTF-16 and the server's solver, `tests/tests/hover_core.rs`
//! the corpus and the server's answers.

use super::*;
use crate::text::{LineCol, PositionEncoding};

/// Two games: every kind of token a hover answers (shared with the
/// server's adapter test).
const DOC: &str = include_str!("test_doc.pbn");

/// A document and its parse.
struct Doc {
    text: String,
    parsed: Parsed,
}

fn snap(text: &str) -> Doc {
    Doc {
        text: text.to_owned(),
        parsed: Parsed::new(text),
    }
}

/// Double dummy always "solving…": what the server answers first.
struct Pending;

impl DdAnswers for Pending {
    fn table(&self, _: &crate::dd::verify::Position) -> DdLookup<crate::dd::verify::Solved> {
        DdLookup::Solving
    }

    fn play(&self, _: &crate::dd::play::PlayTrace) -> DdLookup<PlaySolved> {
        DdLookup::Solving
    }

    fn leads(&self, _: &crate::dd::play::Setup) -> DdLookup<LeadsSolved> {
        DdLookup::Solving
    }
}

/// The byte offset of a line and UTF-16 column (as an LSP client sends).
fn offset(s: &Doc, line: u32, col: u32) -> usize {
    s.parsed
        .lines
        .offset(&s.text, LineCol { line, col }, PositionEncoding::Utf16)
}

/// Hovers the first occurrence of `needle` on line `line` (byte column,
/// ASCII lines only), at its `k`-th character.
fn at(s: &Doc, line: u32, needle: &str, k: u32) -> String {
    at_with(s, &Pending, line, needle, k)
}

fn at_with(s: &Doc, dd: &dyn DdAnswers, line: u32, needle: &str, k: u32) -> String {
    let l = s.text.lines().nth(line as usize).unwrap();
    let col = l
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not on line {line}")) as u32;
    let input = s.parsed.input(&s.text, dd);
    render(s, hover(&input, offset(s, line, col + k)))
}

/// `[line:col-line:col] `token`` (UTF-16 columns, as the server's tests
/// show them), then the Markdown.
fn render(s: &Doc, h: Option<HoverAnswer>) -> String {
    let Some(h) = h else { return "(none)".into() };
    let pos = |o| s.parsed.lines.line_col(&s.text, o, PositionEncoding::Utf16);
    let (a, b) = (pos(h.range.start), pos(h.range.end));
    format!(
        "[{}:{}-{}:{}] `{}`\n{}",
        a.line, a.col, b.line, b.col, &s.text[h.range], h.markdown
    )
}

#[test]
fn annotations() {
    let s = snap(DOC);
    insta::assert_snapshot!("nag_auction", at(&s, 11, "$2", 0));
    insta::assert_snapshot!("nag_play_misplaced", at(&s, 15, "$2", 1));
    insta::assert_snapshot!("suffix_auction", at(&s, 11, "!", 0));
    insta::assert_snapshot!("note_ref_auction", at(&s, 11, "=1=", 1));
    insta::assert_snapshot!("note_ref_play", at(&s, 15, "=2=", 0));
}

#[test]
fn note_tag_lists_its_referrers() {
    let s = snap(DOC);
    insta::assert_snapshot!("note_tag_auction", at(&s, 13, "five", 0));
    insta::assert_snapshot!("note_tag_play", at(&s, 17, "2:from", 0));
    // A note nothing refers to, and one referred to twice.
    let s = snap("[Auction \"N\"]\n1C =1= 1D =1=\n2C =3= AP\n[Note \"1:both minors\"]\n[Note \"2:unused\"]\n");
    let used = at(&s, 3, "both", 0);
    assert!(
        used.contains("both minors") && used.contains("`1C` (line 2), `1D` (line 2)"),
        "{used}"
    );
    let unused = at(&s, 4, "unused", 0);
    assert!(
        unused.contains("No call refers to it: no `=2=`"),
        "{unused}"
    );
    // A Note tag that is not in an auction or play section: no hover.
    let s = snap("[Event \"x\"]\n[Note \"1:loose\"]\n");
    assert_eq!(at(&s, 1, "loose", 0), "(none)");
}

#[test]
fn tags() {
    let s = snap(DOC);
    insta::assert_snapshot!("tag_name_event", at(&s, 0, "Event", 2));
    insta::assert_snapshot!("tag_name_unknown", at(&s, 9, "Foo", 0));
    insta::assert_snapshot!("tag_name_note", at(&s, 13, "Note", 0));
    insta::assert_snapshot!("tag_name_inherited", at(&s, 19, "Event", 0));
    insta::assert_snapshot!("tag_value_header", at(&s, 1, "##", 0));
    // The double-dummy part depends on whether the server's solver
    // has finished (`tests/tests/lsp_dd.rs` tests it): the diagram only.
    let deal = at(&s, 5, "AKQ2", 0);
    let deal = deal.split("\n\n*Double dummy").next().unwrap_or("");
    let deal = deal.split("\n\n**Double dummy**").next().unwrap_or("");
    insta::assert_snapshot!("deal", deal);
    insta::assert_snapshot!("deal_partial", at(&s, 24, "AKQ2", 0));
    insta::assert_snapshot!("contract", at(&s, 7, "4S", 0));
    insta::assert_snapshot!("result", at(&s, 8, "10", 0));
    insta::assert_snapshot!("result_doubled_down", at(&s, 27, "NS 5", 0));
    insta::assert_snapshot!("plain_value", at(&s, 2, "1", 0));
}

#[test]
fn calls_and_cards() {
    let s = snap(DOC);
    insta::assert_snapshot!("call_bid", at(&s, 11, "1S", 0));
    insta::assert_snapshot!("call_bid_end_of_token", at(&s, 11, "2H", 2));
    insta::assert_snapshot!("call_last_bid", at(&s, 12, "4S", 1));
    insta::assert_snapshot!("call_all_pass", at(&s, 12, "AP", 0));
    // The double-dummy line depends on whether the server's solver has
    // finished (`a_card_says_what_it_cost_double_dummy…` tests it).
    let card = |line, needle, k| {
        let h = at(&s, line, needle, k);
        let h = h.split("\n\n*Double dummy").next().unwrap_or("").to_owned();
        h.split("\n\n**Double dummy:**")
            .next()
            .unwrap_or("")
            .to_owned()
    };
    insta::assert_snapshot!("card_lead", card(15, "DK", 0));
    insta::assert_snapshot!("card_winner", card(15, "DA", 0));
    insta::assert_snapshot!("card_second_trick", card(16, "S3", 1));
    insta::assert_snapshot!("not_a_token", at(&s, 3, "[", 0));
}

#[test]
fn tokens_of_a_run_of_cards() {
    // One `cards` node holds the tokens of a line (§3.6.1): the hover is
    // the token under the cursor, or the one ending at it, never the run.
    let s = snap("[Declarer \"S\"]\n[Contract \"1NT\"]\n[Play \"W\"]\nSA  s2 - SKX\n");
    insta::assert_snapshot!("run_second_card_lower_case", at(&s, 3, "s2", 1));
    insta::assert_snapshot!("run_dash", at(&s, 3, "-", 0));
    insta::assert_snapshot!("run_invalid_end_of_line", at(&s, 3, "SKX", 3));
    // Between two tokens, after the space that follows one: nothing.
    insta::assert_snapshot!("run_between_tokens", at(&s, 3, "SA", 3));
}

#[test]
fn every_offset_of_broken_text() {
    let broken = "[Deal \"N:AKQ.x.-\"]\n[Auction \"N\"]\n1N $ $x =a= =40= ^Q ^S [Note \"x\"]\n[Play \"Q\"]\nS10 -- + *\n[Contract \"\"]\n[Result \"^\"]\n[Event \"#\"\n";
    for text in [DOC, broken, ""] {
        let s = snap(text);
        let input = s.parsed.input(&s.text, &NoDd);
        for o in 0..=text.len() + 1 {
            if let Some(h) = hover(&input, o) {
                assert!(h.range.start <= o && o <= h.range.end, "{o}: {h:?}");
            }
        }
    }
}

#[test]
fn a_card_says_what_it_cost_double_dummy_and_the_deal_its_leads() {
    // Spades trumps, North to lead: the ♠2 lets West overtrump, the ♥A
    // keeps a trick (`crate::dd::play`'s tests); solved on the spot.
    let s = snap("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3\nHA HK DA C2\n");
    insta::assert_snapshot!("card_dd_costly", at_with(&s, &SolveNow, 4, "S2", 0));
    insta::assert_snapshot!("card_dd_best", at_with(&s, &SolveNow, 5, "HA", 0));
    let deal = at_with(&s, &SolveNow, 0, "2.A", 0);
    let leads = deal.split("\n\n").last().unwrap_or("");
    assert_eq!(
        leads,
        "**Opening leads:** North leads, ♠ trumps; tricks for North-South: ♥A: 1, ♠2: 0"
    );
    // Solving: said so; no double dummy: left out.
    let card = at(&s, 4, "S2", 0);
    assert!(card.ends_with("\n\n*Double dummy: solving…*"), "{card}");
    let deal = at(&s, 0, "2.A", 0);
    assert!(
        deal.ends_with("\n\n*Double dummy: solving…*\n\n*Opening leads: solving…*"),
        "{deal}"
    );
    let card = at_with(&s, &NoDd, 4, "S2", 0);
    assert!(card.ends_with("won by **West**"), "{card}");
    let deal = at_with(&s, &NoDd, 0, "2.A", 0);
    assert!(
        !deal.contains("Double dummy") && !deal.contains("leads"),
        "{deal}"
    );
}

#[test]
fn a_full_deal_shows_its_table_and_par() {
    let s = snap(DOC);
    let deal = at_with(&s, &SolveNow, 5, "AKQ2", 0);
    let table = deal.split("\n\n**Double dummy**").nth(1).unwrap_or("");
    assert!(
        table.contains("| N |") && table.contains("**Par:**") && !table.contains("solving"),
        "{deal}"
    );
}

/// The values a player reads: scores, double-dummy values, the Auction
/// value, a call's note, table cells. (A deal with hands not given: no
/// solver verdict, which would depend on what other tests solved.)
#[test]
fn values_a_player_reads() {
    let text = r#"[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ2.K32.Q32.K32 - - -"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Score "NS 450"]
[OptimumScore "NS 420"]
[DoubleDummyTricks "a9a9a9a9a9a9a9a9a9a9"]
[BCFlags "1f"]
[Auction "N"]
1S =1= Pass 4S AP
[Note "1:five+ spades"]
[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
N  S  9
E NT  4
[ScoreTable "Contract;Declarer;Result\2R;Score_NS\4R"]
4S N 10  420
"#;
    let s = snap(text);
    let all = [
        at(&s, 7, "NS", 0),
        at(&s, 8, "NS", 0),
        at(&s, 9, "a9", 0),
        at(&s, 10, "BCFlags", 0),
        at(&s, 11, "\"N\"", 1),
        at(&s, 12, "1S", 0),
        at(&s, 15, "9", 0),
        at(&s, 16, "4", 0),
        at(&s, 16, "NT", 0),
        at(&s, 18, "420", 0),
        at(&s, 18, "4S", 0),
    ];
    insta::assert_snapshot!("values_a_player_reads", all.join("\n\n----\n\n"));
}

/// A ScoreTable row: how its matchpoints (MP1, the scores it beat and
/// tied) and its Butler IMPs (the datum, the difference) were computed.
#[test]
fn a_score_table_row_says_how_it_was_scored() {
    let text = r#"[Event "Pairs"]
[Scoring "MP;MP1"]
[ScoreTable "Score_NS\4R;MP_NS\1R"]
 420 4
 170 1
 170 1

[Event "Butler"]
[Scoring "IMP;Butler"]
[ScoreTable "Score_NS\4R;IMP_NS\3R;ButlerDatum\4R"]
 420  6 190
 -50 -6 190
"#;
    let s = snap(text);
    let all = [at(&s, 3, "4", 2), at(&s, 4, "170", 0), at(&s, 11, "6", 0)];
    insta::assert_snapshot!("score_table_rows", all.join("\n\n----\n\n"));
}

/// A Contract without a Result counts the tricks of the play only when
/// every trick was played: a play that stops with `*` says nothing of the
/// tricks not played, and the hand record says the same.
#[test]
fn a_contract_takes_its_tricks_from_a_play_only_when_every_trick_was_played() {
    let head = "[Board \"1\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ 5432.5432.432.32 T987.T987.T9.T98 6.J6.J8765.J7654\"]\n[Declarer \"S\"]\n[Contract \"1NT\"]\n[Play \"W\"]\n";
    let stopped = snap(&format!("{head}S5 S6 SA ST\n*\n"));
    let hover = at(&stopped, 3, "1NT", 0);
    assert!(hover.contains("tricks unknown"), "{hover}");
    assert!(!hover.contains("from the play"), "{hover}");
    let text = format!("{head}S5 S6 SA ST\n*\n[Result \"\"]\n");
    let doc = crate::model::lower(&crate::syntax::parse_pieces(&text), &text);
    let record = crate::render::record(&text, &doc.games[0]);
    let line = crate::render::plain(&record.contract.unwrap_or_default());
    assert_eq!(line, "1NT by South");
}
