//! PBN05xx auction, PBN06xx play, PBN09xx consistency: the model's sections
//! and tags fed to `crate::bridge`, its issues mapped back to ranges.

use super::GameCtx;
use crate::bridge::{
    self, analyze_auction, analyze_play, compare_contract, compare_result, ContractTag,
    DeclarerTag, Issues, ResultForm, ResultTag, Seat, Strain,
};
use crate::codes::bridge as c;
use crate::diagnostic::Diagnostic;
use crate::model::typed::TokenReading;
use crate::model::values::{self, ContractValue, SideScores};
use crate::model::Game;
use std::ops::Range;

/// The typed tags the bridge rules need, each parsed once per game.
struct Tags {
    board: Option<u32>,
    dealer: Option<Seat>,
    vulnerable: Option<bridge::Vulnerability>,
    declarer: Option<DeclarerTag>,
    contract: Option<ContractTag>,
    strain: Option<Strain>,
    result: Option<values::ResultTag>,
}

fn tags(g: &Game) -> Tags {
    let board = g.value("Board").and_then(|v| values::parse_board(v).value);
    let dealer = g
        .value("Dealer")
        .and_then(|v| values::parse_dealer(v).value)
        .map(|s| s.seat);
    let vulnerable = g
        .value("Vulnerable")
        .and_then(|v| values::parse_vulnerable(v).value)
        .map(|v| v.vulnerability);
    let result = g
        .value("Result")
        .and_then(|v| values::parse_result(v).value);
    let declarer = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value)
        .map(values::Declarer::tag);
    let parsed = g
        .value("Contract")
        .and_then(|v| values::parse_contract(v).value);
    let (contract, strain) = match parsed.map(|c| c.value) {
        Some(ContractValue::Pass) => (Some(ContractTag::Pass), None),
        Some(ContractValue::Empty) => (Some(ContractTag::Empty), None),
        Some(ContractValue::Contract(k)) => (Some(ContractTag::Contract(k)), Some(k.bid.strain)),
        Some(ContractValue::EndPosition(s)) => (None, Some(s)),
        None => (None, None),
    };
    Tags {
        board,
        dealer,
        vulnerable,
        declarer,
        contract,
        strain,
        result,
    }
}

fn tag_range(g: &Game, name: &str) -> Option<Range<usize>> {
    g.tag(name).map(|t| {
        t.value
            .as_ref()
            .map(|v| v.range.clone())
            .unwrap_or(t.range.clone())
    })
}

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    let t = tags(g);
    auction(ctx, g, &t, out);
    play(ctx, g, &t, out);
    board(ctx, g, &t, out);
    score(ctx, g, &t, out);
    result_without_contract(ctx, g, &t, out);
    denomination_only_contract(ctx, g, &t, out);
    rubber_history(ctx, g, &t, out);
}

/// §4.2.6: "the number of games won defines the vulnerability. This must be
/// consistent with the Vulnerable tag (if present)." A side that won a
/// finished game of the current rubber (below-the-line points of 100 or
/// more in a game before the current one) is vulnerable.
fn rubber_history(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    let Some(vul) = t.vulnerable else { return };
    let Some(h) = g
        .value("ScoreRubberHistory")
        .and_then(|v| values::parse_score_rubber_history(v).value)
    else {
        return;
    };
    if h.ns.below.len() != h.ew.below.len() {
        return; // which game is being played is unclear
    }
    let finished = h.ns.below.len() - 1;
    let mut won = bridge::Vulnerability::NONE;
    for k in 0..finished {
        match (h.ns.below[k] >= 100, h.ew.below[k] >= 100) {
            (true, false) => won |= bridge::Vulnerability::NS,
            (false, true) => won |= bridge::Vulnerability::EW,
            _ => return, // no single winner: the history is not readable
        }
    }
    if won == vul {
        return;
    }
    let Some(r) = tag_range(g, "Vulnerable") else {
        return;
    };
    let mut d = Diagnostic::new(
        &c::RUBBER_VULNERABILITY,
        r,
        format!(
            "ScoreRubberHistory shows {} finished game(s) won so that the vulnerability is {}, \
             not {} (§4.2.6)",
            finished,
            bridge::vulnerability_name(won),
            bridge::vulnerability_name(vul)
        ),
    );
    if let Some(h) = tag_range(g, "ScoreRubberHistory") {
        d = d.with_related(h, "the rubber history");
    }
    ctx.push(out, d);
}

/// §3.10: a Contract of only a denomination is the trump of an end position,
/// a game whose hands have fewer than 13 cards.
fn denomination_only_contract(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    if t.contract.is_some() || t.strain.is_none() {
        return; // not a denomination-only Contract
    }
    let Some(deal) = g.value("Deal").and_then(|v| values::parse_deal(v).value) else {
        return;
    };
    let Some(full) = deal.card_counts.iter().position(|&n| n >= 13) else {
        return;
    };
    let Some(r) = tag_range(g, "Contract") else {
        return;
    };
    let seat = bridge::seat_name(Seat::ALL[full]);
    ctx.push(
        out,
        Diagnostic::new(
            &c::DENOMINATION_ONLY_CONTRACT,
            r,
            format!(
                "Contract \"{}\" gives only a denomination, which is for end positions; {seat} holds 13 cards in the Deal, so the Contract is <k><denomination><risk> or Pass (§3.10, §3.4.14)",
                g.value("Contract").unwrap_or("")
            ),
        ),
    );
}

/// §3.4.13, §3.4.15: all pass → Declarer and Result are empty.
fn result_without_contract(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    let passed = matches!(t.contract, Some(ContractTag::Pass))
        || matches!(t.declarer, Some(DeclarerTag::Empty));
    if !passed {
        return;
    }
    let Some(result) = &t.result else { return };
    if result.tricks.is_some() {
        let why = if matches!(t.contract, Some(ContractTag::Pass)) {
            "the Contract is Pass"
        } else {
            "the Declarer is empty"
        };
        if let Some(r) = tag_range(g, "Result") {
            ctx.push(out, Diagnostic::new(
                &c::RESULT_WITHOUT_CONTRACT,
                r,
                format!("Result given although {why}: when all players pass the Result is \"\" (§3.4.15)"),
            ));
        }
    }
}

/// Diagnostics for call or card tokens that are not standard PBN: read as
/// what they stand for, or not readable at all.
fn reading_diagnostics(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    ranges: &[Range<usize>],
    readings: Vec<(usize, TokenReading)>,
    (nonstandard, invalid): (
        &'static crate::codes::CodeInfo,
        &'static crate::codes::CodeInfo,
    ),
    (what, section, tokens): (&str, &str, &str),
) {
    for (k, reading) in readings {
        let range = ranges[k].clone();
        let text = &ctx.text[range.clone()];
        ctx.push(
            out,
            match reading {
                TokenReading::Nonstandard { as_text } => Diagnostic::new(
                    nonstandard,
                    range,
                    format!("`{text}` is not a PBN {what}; read as `{as_text}` ({section})"),
                ),
                TokenReading::Invalid => Diagnostic::new(
                    invalid,
                    range,
                    format!("`{text}` is not a {what}: {tokens} ({section})"),
                ),
            },
        );
    }
}

/// At most this many diagnostics of one code per section: a broken Deal or
/// a misread column layout otherwise floods the file with consequences of
/// one mistake.
const PER_SECTION_CAP: usize = 3;

/// `issues`: the analysis's, for the count of those it did not keep.
fn push_capped(
    ctx: &GameCtx<'_>,
    out: &mut Vec<Diagnostic>,
    mut diags: Vec<Diagnostic>,
    issues: &Issues,
) {
    super::keep_first_per_code(
        &mut diags,
        PER_SECTION_CAP,
        |code| issues.more(code),
        |more| format!("({more} more like this in this section)"),
    );
    for d in diags {
        ctx.push(out, d);
    }
}

fn auction(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    let Some(a) = &g.auction else { return };
    if a.tag == usize::MAX {
        return;
    }
    let tag = &g.tags[a.tag];
    let Some(first) = tag
        .effective()
        .and_then(|v| values::parse_auction_seat(v).value)
        .map(|s| s.seat)
    else {
        return;
    };
    let (items, readings) = crate::model::typed::auction_items(ctx.text, a);
    let ranges: Vec<Range<usize>> = a.entries.iter().map(|e| e.range.clone()).collect();
    reading_diagnostics(
        ctx,
        out,
        &ranges,
        readings,
        (&c::NONSTANDARD_CALL, &c::INVALID_CALL),
        ("call", "§3.5.1", "calls are Pass, X, XX, 1C…7NT, AP and -"),
    );
    star_after_call(ctx, a, out);
    let analysis = analyze_auction(t.dealer, first, &items);
    let at = |i: usize| {
        a.entries
            .get(i)
            .map(|e| e.range.clone())
            .unwrap_or(tag.range.clone())
    };
    let mut diags = Vec::new();
    for issue in analysis.issues.iter() {
        let mut d = Diagnostic::new(issue.code, at(issue.index), issue.message.clone());
        if let Some(r) = issue.related {
            d = d.with_related(at(r), "the call this refers to");
        }
        diags.push(d);
    }
    push_capped(ctx, out, diags, &analysis.issues);
    // An auction written from the opening bid is one mistake (PBN0512),
    // not a wrong Declarer (and Contract) tag.
    if let Some(k) = left_out(ctx.text, g, t, &analysis, first, &items) {
        ctx.push(
            out,
            Diagnostic::new(
                &c::LEFT_OUT_PASSES,
                tag.range.clone(),
                format!(
                    "the Declarer and Contract tags fit this auction only with the passes before its first bid written (here {k}): it starts at the opening bid, and PBN lists every call from the dealer's (§3.5)"
                ),
            )
            .with_related(at(0), "the first call"),
        );
        return;
    }
    for m in compare_contract(&analysis, t.declarer, t.contract) {
        let r = tag_range(g, m.tag).unwrap_or(tag.range.clone());
        ctx.push(
            out,
            Diagnostic::new(m.code, r, m.message).with_related(tag.range.clone(), "the auction"),
        );
    }
}

/// PBN0511: a `*` written right after a call (or its annotations) with
/// calls after it, BEN's alert mark (`4C*`); its fix is in `fixes/annotations.rs`.
fn star_after_call(ctx: &GameCtx<'_>, a: &crate::model::Auction, out: &mut Vec<Diagnostic>) {
    use crate::model::CallToken;
    let e = &a.entries;
    let is_call = |t: CallToken| {
        !matches!(
            t,
            CallToken::Terminator | CallToken::Continuation | CallToken::Dash
        )
    };
    let Some(last) = e.iter().rposition(|x| is_call(x.token)) else {
        return;
    };
    for k in 1..last {
        let call = &e[k - 1];
        let end = call.post().last().map_or(call.range.end, |n| n.range.end);
        if e[k].token == CallToken::Terminator && is_call(call.token) && end == e[k].range.start {
            let written = &ctx.text[call.range.clone()];
            ctx.push(
                out,
                Diagnostic::new(
                    &c::STAR_AFTER_CALL,
                    e[k].range.clone(),
                    format!(
                        "`*` right after `{written}`, with calls after it: the auction ends \
                         here (§3.5); if the program that wrote it meant an alert (as BEN \
                         does), PBN writes that as a note (§3.5.4)"
                    ),
                )
                .with_related(call.range.clone(), "the call"),
            );
        }
    }
}

/// What the play analysis of `g` reads: the Play tag, its seat and the
/// Deal's hands.
type PlayInput<'g> = (
    &'g crate::model::Play,
    &'g crate::model::Tag,
    Seat,
    [Option<bridge::Hand>; 4],
);

fn play_input(g: &Game) -> Option<PlayInput<'_>> {
    let p = g.play.as_ref()?;
    let tag = g.tags.get(p.tag)?;
    let first = tag
        .effective()
        .and_then(|v| values::parse_play_seat(v).value)?
        .seat;
    let hands = g
        .value("Deal")
        .and_then(|v| values::parse_deal(v).value)
        .map(|d| d.hands)
        .unwrap_or([None; 4]);
    Some((p, tag, first, hands))
}

/// PBN0512: the passes left out before the first call of the auction
/// ([`left_out`]).
pub fn left_out_passes(text: &str, g: &Game) -> Option<usize> {
    let a = g.auction.as_ref()?;
    let first = g
        .tags
        .get(a.tag)?
        .effective()
        .and_then(|v| values::parse_auction_seat(v).value)?
        .seat;
    let (items, _) = crate::model::typed::auction_items(text, a);
    let t = tags(g);
    let as_given = analyze_auction(t.dealer, first, &items);
    left_out(text, g, &t, &as_given, first, &items)
}

/// [`bridge::left_out_passes`], where the play says the Declarer tag is
/// right: the Play tag names declarer's left-hand opponent and the Deal,
/// when it gives his hand, gives him the opening lead. Without that, an
/// auction whose declarer is not the tag's may as well have a wrong tag
/// (PBN0901). The play is read only for an auction that fits.
fn left_out(
    text: &str,
    g: &Game,
    t: &Tags,
    as_given: &bridge::AuctionAnalysis,
    first: Seat,
    items: &[bridge::AuctionItem],
) -> Option<usize> {
    let k = bridge::left_out_passes(as_given, t.dealer, first, items, t.declarer, t.contract)?;
    let declarer = t.declarer?.playing_seat()?;
    let (p, _, leader, hands) = play_input(g)?;
    let (cards, _) = crate::model::typed::play_items(text, p);
    let bridge::CardToken::Card(lead) = cards.first()?.token else {
        return None;
    };
    // A hand not given (a second table's game without its Deal) cannot
    // say otherwise.
    let held = hands[leader as usize].is_none_or(|h| h.contains(lead));
    (leader == bridge::rotate(declarer, 1) && held).then_some(k)
}

/// PBN0612: the seats by which the play shows the Deal's hands rotated
/// ([`bridge::rotation`]).
pub fn deal_rotation(text: &str, g: &Game) -> Option<usize> {
    let (p, _, first, hands) = play_input(g)?;
    let t = tags(g);
    let (items, _) = crate::model::typed::play_items(text, p);
    let playing = t.declarer.and_then(DeclarerTag::playing_seat);
    let trump = t.strain.and_then(Strain::suit);
    let as_given = analyze_play(&hands, trump, playing, first, &items);
    bridge::rotation(&as_given, &hands, trump, playing, first, &items).map(|(k, _)| k)
}

fn play(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    let Some((p, tag, first, hands)) = play_input(g) else {
        return;
    };
    let (items, readings) = crate::model::typed::play_items(ctx.text, p);
    let ranges: Vec<Range<usize>> = p.entries.iter().map(|e| e.range.clone()).collect();
    reading_diagnostics(
        ctx,
        out,
        &ranges,
        readings,
        (&c::NONSTANDARD_CARD, &c::INVALID_CARD),
        (
            "card",
            "§3.6.1",
            "a suit S, H, D, C and a rank A K Q J T 9…2, or -",
        ),
    );
    let trump = t.strain.and_then(Strain::suit);
    let playing = t.declarer.and_then(DeclarerTag::playing_seat);
    let analysis = analyze_play(&hands, trump, playing, first, &items);
    // A Deal whose hands the play shows rotated is one mistake (PBN0612):
    // the play is then read with the hands it fits.
    let analysis = match bridge::rotation(&analysis, &hands, trump, playing, first, &items) {
        None => analysis,
        Some((k, rotated)) => {
            if let Some(deal) = tag_range(g, "Deal") {
                let seats = if k == 1 { "seat" } else { "seats" };
                ctx.push(
                    out,
                    Diagnostic::new(
                        &c::ROTATED_DEAL,
                        deal,
                        format!(
                            "the play fits this Deal only with its hands rotated by {k} {seats}: each player held the hand given to the player {k} {seats} clockwise from him (§3.4.11, §3.6)"
                        ),
                    )
                    .with_related(tag.range.clone(), "the play"),
                );
            }
            rotated
        }
    };
    let at = |i: usize| {
        p.entries
            .get(i)
            .map(|e| e.range.clone())
            .unwrap_or(tag.range.clone())
    };
    let mut diags = Vec::new();
    for issue in analysis.issues.iter() {
        let range = if std::ptr::eq(issue.code, &c::WRONG_OPENING_LEADER) {
            tag.range.clone()
        } else {
            at(issue.index)
        };
        let mut d = Diagnostic::new(issue.code, range, issue.message.clone());
        if let Some(r) = issue.related {
            d = d.with_related(at(r), "related card");
        }
        diags.push(d);
    }
    push_capped(ctx, out, diags, &analysis.issues);
    let Some(declarer) = playing else { return };
    let Some(result) = &t.result else { return };
    let Some(tricks) = result.tricks else { return };
    let form = match tricks {
        SideScores::Declarer(n) => ResultForm::Declarer(n),
        SideScores::Sides {
            ns: Some(ns),
            ew: Some(ew),
            ..
        } => ResultForm::NsEw { ns, ew },
        SideScores::Sides {
            ns: Some(n),
            ew: None,
            ..
        } => ResultForm::Ns(n),
        SideScores::Sides {
            ns: None,
            ew: Some(n),
            ..
        } => ResultForm::Ew(n),
        SideScores::Sides { .. } => return,
    };
    let rt = ResultTag {
        differs: result.differs_from_actual,
        form,
    };
    for m in compare_result(&analysis, &rt, declarer) {
        let r = tag_range(g, m.tag).unwrap_or(tag.range.clone());
        ctx.push(
            out,
            Diagnostic::new(m.code, r, m.message).with_related(tag.range.clone(), "the play"),
        );
    }
}

fn board(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    let Some(board) = t.board.filter(|&b| b != 0) else {
        return;
    };
    if let Some(d) = t.dealer {
        let expected = bridge::board_dealer(board);
        if d != expected {
            if let Some(r) = tag_range(g, "Dealer") {
                ctx.push(
                    out,
                    Diagnostic::new(
                        &c::DEALER_DIFFERS_FROM_BOARD,
                        r,
                        format!(
                            "board {board} is usually dealt by {}, not {}",
                            bridge::seat_name(expected),
                            bridge::seat_name(d)
                        ),
                    ),
                );
            }
        }
    }
    if let Some(v) = t.vulnerable {
        let expected = bridge::board_vulnerability(board);
        if v != expected {
            if let Some(r) = tag_range(g, "Vulnerable") {
                ctx.push(
                    out,
                    Diagnostic::new(
                        &c::VULNERABILITY_DIFFERS_FROM_BOARD,
                        r,
                        format!(
                            "board {board} usually has vulnerability {}",
                            crate::bridge::vulnerability_name(expected)
                        ),
                    ),
                );
            }
        }
    }
}

fn score(ctx: &GameCtx<'_>, g: &Game, t: &Tags, out: &mut Vec<Diagnostic>) {
    let Some(ContractTag::Contract(contract)) = t.contract else {
        return;
    };
    let Some(declarer) = t.declarer.and_then(DeclarerTag::auction_declarer) else {
        return;
    };
    let Some(score) = g.value("Score").and_then(|v| values::parse_score(v).value) else {
        return;
    };
    let Some(result) = &t.result else { return };
    if result.differs_from_actual {
        return;
    }
    let ns_side = bridge::is_north_south(declarer);
    let Some(tricks) = result.tricks.and_then(|r| r.for_declarer(ns_side)) else {
        return;
    };
    let vul = t.vulnerable.unwrap_or(bridge::Vulnerability::NONE);
    let old_mp = crate::model::score_table::method_of(g).1.old_mp;
    let ns = i64::from(bridge::scoring::board_score(
        contract, declarer, tricks, vul, old_mp,
    ));
    let Some(claimed) = score.ns_value(Some(ns_side)) else {
        return;
    };
    if claimed != ns {
        if let Some(r) = tag_range(g, "Score") {
            ctx.push(out, Diagnostic::new(
                &c::SCORE_MISMATCH,
                r,
                format!(
                    "{} by {} taking {tricks} tricks at this vulnerability scores NS {ns}, not NS {claimed} (§4.2.1)",
                    g.value("Contract").unwrap_or(""),
                    bridge::seat_name(declarer)
                ),
            ));
        }
    }
}
