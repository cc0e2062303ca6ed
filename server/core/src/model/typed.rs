//! The typed view of a game: its tag values parsed (§3.4), its auction and
//! play analysed (§3.5, §3.6: who called, tricks in column order from the
//! leader, winners, the final contract), its tables split into rows (§5.2).
//! Computed on demand from a [`Game`] (the checker, `pbn dump` and the
//! language server's hovers use it).

use super::values::{self, Column, ContractTag, Deal, Parsed, ResultTag, SideScores, Vulnerable};
use super::{AnnotationKind, Auction, Entry, Game, Inherit, Play};
use crate::bridge::{
    self, AuctionAnalysis, AuctionItem, CallToken, CardToken, PlayAnalysis, PlayItem, Seat, Strain,
};

/// A call or card token that is not standard PBN, as the analysis read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenReading {
    /// Read as `as_text` (`1N` → `1NT`, `--` → `-`).
    Nonstandard { as_text: String },
    /// Not a call/card at all.
    Invalid,
}

/// A table (§5.2): its columns and the element indices of each row.
#[derive(Clone, Debug)]
pub struct Table {
    /// Index of the section in [`Game::sections`].
    pub section: usize,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<usize>>,
}

/// The typed values and analyses of one game.
#[derive(Clone, Debug, Default)]
pub struct TypedGame {
    pub board: Option<u32>,
    pub dealer: Option<Seat>,
    pub vulnerable: Option<Vulnerable>,
    pub deal: Option<Deal>,
    pub declarer: Option<values::Declarer>,
    pub contract: Option<ContractTag>,
    pub result: Option<ResultTag>,
    pub score: Option<SideScores<i64>>,
    pub auction: Option<AuctionAnalysis>,
    /// Readings of non-standard call tokens, by auction entry index.
    pub call_readings: Vec<(usize, TokenReading)>,
    pub play: Option<PlayAnalysis>,
    /// Readings of non-standard card tokens, by play entry index.
    pub card_readings: Vec<(usize, TokenReading)>,
    pub tables: Vec<Table>,
}

impl TypedGame {
    /// Declarer: the Declarer tag's seat, else the auction's.
    pub fn declarer_seat(&self) -> Option<Seat> {
        self.declarer
            .and_then(|d| d.seat)
            .or_else(|| match self.auction.as_ref()?.contract? {
                bridge::FinalContract::Contract { declarer, .. } => Some(declarer),
                bridge::FinalContract::PassedOut => None,
            })
    }

    /// The vulnerability: the Vulnerable tag's (§3.4.10), else the Board
    /// number's in the duplicate cycle ([`bridge::board_vulnerability`]).
    pub fn vulnerability(&self) -> Option<bridge::Vulnerability> {
        self.vulnerable
            .map(|v| v.vulnerability)
            .or_else(|| self.board.map(bridge::board_vulnerability))
    }

    /// The tricks declarer's side took: the Result tag's, else the play's
    /// when every trick was played (`true`: from the play). A play that
    /// stops (`*`, or no cards at all) says nothing of the tricks not
    /// played.
    pub fn declarer_tricks(&self) -> Option<(u8, bool)> {
        let ns = bridge::is_north_south(self.declarer_seat()?);
        if let Some(n) = self.result.and_then(|r| r.tricks?.for_declarer(ns)) {
            return Some((n, false));
        }
        let p = self.play.as_ref()?;
        let played = p.ns_tricks + p.ew_tricks;
        let n = (played > 0 && played == p.total_tricks).then_some(p.declarer_tricks)??;
        Some((n, true))
    }
}

fn value<T>(g: &Game, name: &str, parse: fn(&str) -> Parsed<T>) -> Option<T> {
    g.value(name).and_then(|v| parse(v).value)
}

/// Reads a call token that is not a PBN call: `Some` when its meaning is
/// clear (`1N`, `P`, `Dbl`, …; the spellings of [`crate::spec::calls`]).
pub fn interpret_call(text: &str) -> Option<(CallToken, String)> {
    use crate::spec::calls::{self, Call};
    let call = calls::read(text)?;
    let token = match call {
        Call::Pass => CallToken::Pass,
        Call::Double => CallToken::Double,
        Call::Redouble => CallToken::Redouble,
        Call::AllPass => CallToken::AllPass,
        Call::Bid { level, strain } => CallToken::Bid(bridge::bid_of(level, strain)?),
    };
    Some((token, call.canonical().to_owned()))
}

/// Reads a card token that is not a PBN card (`--`, `S10`; the spellings of
/// [`crate::spec::cards`]).
pub fn interpret_card(text: &str) -> Option<(CardToken, String)> {
    if crate::spec::cards::is_dash_run(text) {
        return Some((CardToken::Dash, "-".into()));
    }
    let (suit, rank) = crate::spec::cards::read(text)?;
    let card = bridge::card_of(suit, rank)?;
    Some((CardToken::Card(card), bridge::card_word(card).to_owned()))
}

fn has_mark<T>(e: &Entry<T>, mark: char) -> bool {
    e.pre()
        .iter()
        .any(|a| a.kind == AnnotationKind::Irregularity(mark))
}

/// The analysis input of an auction section, and the readings of
/// non-standard tokens.
pub fn auction_items(text: &str, a: &Auction) -> (Vec<AuctionItem>, Vec<(usize, TokenReading)>) {
    let mut readings = Vec::new();
    let items = a
        .entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let token = match e.token {
                CallToken::Invalid => match interpret_call(&text[e.range.clone()]) {
                    Some((tok, as_text)) => {
                        readings.push((k, TokenReading::Nonstandard { as_text }));
                        tok
                    }
                    None => {
                        readings.push((k, TokenReading::Invalid));
                        CallToken::Invalid
                    }
                },
                token => token,
            };
            AuctionItem {
                token,
                insufficient_marked: has_mark(e, 'I'),
            }
        })
        .collect();
    (items, readings)
}

/// The analysis input of a play section, and the readings of non-standard
/// tokens.
pub fn play_items(text: &str, p: &Play) -> (Vec<PlayItem>, Vec<(usize, TokenReading)>) {
    let mut readings = Vec::new();
    let items = p
        .entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let token = match e.token {
                CardToken::Invalid => match interpret_card(&text[e.range.clone()]) {
                    Some((tok, as_text)) => {
                        readings.push((k, TokenReading::Nonstandard { as_text }));
                        tok
                    }
                    None => {
                        readings.push((k, TokenReading::Invalid));
                        CardToken::Invalid
                    }
                },
                token => token,
            };
            PlayItem {
                token,
                revoke_marked: has_mark(e, 'R'),
                lead_out_of_turn_marked: has_mark(e, 'L'),
            }
        })
        .collect();
    (items, readings)
}

/// The typed view of `g`.
pub fn typed(text: &str, g: &Game) -> TypedGame {
    let mut t = TypedGame {
        board: value(g, "Board", values::parse_board),
        dealer: value(g, "Dealer", values::parse_dealer).map(|s| s.seat),
        vulnerable: value(g, "Vulnerable", values::parse_vulnerable),
        deal: value(g, "Deal", values::parse_deal),
        declarer: value(g, "Declarer", values::parse_declarer),
        contract: value(g, "Contract", values::parse_contract),
        result: value(g, "Result", values::parse_result),
        score: value(g, "Score", values::parse_score),
        ..Default::default()
    };
    if let Some(a) = &g.auction {
        let tag = g.tags.get(a.tag).filter(|t| t.inherit == Inherit::None);
        if let Some(first) = tag
            .and_then(|t| t.effective())
            .and_then(|v| values::parse_auction_seat(v).value)
        {
            let (items, readings) = auction_items(text, a);
            t.auction = Some(bridge::analyze_auction(t.dealer, first.seat, &items));
            t.call_readings = readings;
        }
    }
    if let Some(p) = &g.play {
        let tag = g.tags.get(p.tag).filter(|t| t.inherit == Inherit::None);
        if let Some(first) = tag
            .and_then(|t| t.effective())
            .and_then(|v| values::parse_play_seat(v).value)
        {
            let (items, readings) = play_items(text, p);
            let hands = t.deal.as_ref().map(|d| d.hands).unwrap_or([None; 4]);
            let strain = t.contract.as_ref().and_then(|c| match c.value {
                values::ContractValue::Contract(k) => Some(k.bid.strain),
                values::ContractValue::EndPosition(s) => Some(s),
                _ => None,
            });
            let declarer = t.declarer.as_ref().and_then(|d| d.seat);
            t.play = Some(bridge::analyze_play(
                &hands,
                strain.and_then(Strain::suit),
                declarer,
                first.seat,
                &items,
            ));
            t.card_readings = readings;
        }
    }
    for (si, s) in g.sections.iter().enumerate() {
        let Some(tag) = g.tags.get(s.tag) else {
            continue;
        };
        if !values::is_table_tag(&tag.name) {
            continue;
        }
        let Some(columns) = tag
            .value
            .as_ref()
            .and_then(|v| values::parse_columns(&v.raw).value)
        else {
            continue;
        };
        if columns.is_empty() {
            continue;
        }
        let n = columns.len();
        let rows = (0..s.elements.len())
            .collect::<Vec<_>>()
            .chunks(n)
            .map(<[usize]>::to_vec)
            .collect();
        t.tables.push(Table {
            section: si,
            columns,
            rows,
        });
    }
    t
}

/// The auction of `g` ends with four passes (or `AP` at its start): the
/// Contract is then `Pass`, Declarer and Result `""` (§3.4.13-15).
pub fn passed_out(text: &str, g: &Game) -> bool {
    matches!(
        auction_outcome(text, g),
        Some(bridge::FinalContract::PassedOut)
    )
}

/// The final contract the auction of `g` gives, whatever the spelling of
/// its calls (`P` is a pass); `None` while it is incomplete.
pub fn auction_outcome(text: &str, g: &Game) -> Option<bridge::FinalContract> {
    let a = g.auction.as_ref()?;
    let tag = g.tags.get(a.tag).filter(|t| t.inherit == Inherit::None)?;
    let first = tag
        .effective()
        .and_then(|v| values::parse_auction_seat(v).value)?
        .seat;
    let dealer = g
        .value("Dealer")
        .and_then(|v| values::parse_dealer(v).value)
        .map(|s| s.seat);
    let (items, _) = auction_items(text, a);
    bridge::analyze_auction(dealer, first, &items).contract
}
