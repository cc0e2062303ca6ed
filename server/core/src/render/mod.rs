//! Hand records: the layout of a game as bridge players look at it, and
//! three ways to draw it.
//!
//! [`record`] builds a [`Record`] from a lowered [`Game`]: board, dealer,
//! vulnerability, the four hands with their HCP (§3.4.11), the auction as a
//! grid of four columns from West with its note references and notes
//! (§3.5), contract and result (§3.4.14, §3.4.15), the play trick by trick
//! with each trick's leader and winner (§3.6, from
//! [`crate::bridge::analyze_play`]), the double-dummy table and par when the
//! file has them (`DoubleDummyTricks`, `OptimumResultTable` §5.7,
//! `ParContract`, `OptimumScore` §4.2.7) and the commentary (§3.8). What
//! cannot be read is left out, never guessed; the caller adds the game's
//! diagnostics to [`Record::errors`].
//!
//! The outputs: [`text`] (terminal, colour or plain: `pbn show`), [`html`]
//! (one self-contained page: `pbn html`), [`markdown`] (the compact deal
//! diagram of the editor hover).

pub mod html;
pub mod markdown;
pub mod score;
pub mod text;

use crate::bridge::{self, hcp, seat_name, suit_symbol, Seat, Strain, Suit};
use crate::model::typed::{interpret_call, interpret_card, typed, TypedGame};
use crate::model::values::{self, ContractValue};
use crate::model::{AnnotationKind, CallToken, CardToken, CommentKind, Entry, Game};
use crate::spec::calls;
use crate::spec::sections::SUFFIXES;
use contract_bridge::{Contract, Hand, Penalty, Rank};

/// A piece of displayed text: plain text, or a suit symbol that outputs
/// colour and give a text alternative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Suit(Suit),
    /// The tricks a played card gave away, double dummy (`--dd`).
    Cost(u8),
}

/// A run of pieces (a call, a card, a contract).
pub type Pieces = Vec<Piece>;

/// The seats in the order of the auction and play grids: West first.
pub const GRID_SEATS: [Seat; 4] = [Seat::West, Seat::North, Seat::East, Seat::South];

/// The suits of a hand, spades first.
pub const SUITS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

/// One hand of the diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandView {
    /// High card points (4-3-2-1) of the known cards.
    pub hcp: u32,
    /// The ranks of each suit, spades first, highest first, the ten as `10`;
    /// `x` for each spot card of unknown rank is not here (see `spots`).
    pub suits: [String; 4],
    /// Spot cards of unknown rank (`x`, §3.4.11).
    pub spots: usize,
}

/// A cell of the auction grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallCell {
    pub call: Pieces,
    /// Note references (`=n=`, §3.5.4).
    pub notes: Vec<u32>,
}

/// The auction grid: rows of West, North, East, South.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuctionGrid {
    pub rows: Vec<[Option<CallCell>; 4]>,
    /// The notes of the section (§3.5.5): number and text.
    pub notes: Vec<(u32, String)>,
}

/// One trick of the play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickView {
    pub leader: Option<Seat>,
    /// The card of each seat in [`GRID_SEATS`] order.
    pub cards: [Option<Pieces>; 4],
    pub winner: Option<Seat>,
}

/// The play section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayView {
    pub tricks: Vec<TrickView>,
    pub notes: Vec<(u32, String)>,
}

/// The double-dummy tricks: `[declarer][strain]`, declarers N, S, E, W and
/// strains NT, ♠, ♥, ♦, ♣ (the order of `DoubleDummyTricks`).
pub type DdTable = [[Option<u8>; 5]; 4];

/// The declarers of a [`DdTable`], in order.
pub const DD_SEATS: [Seat; 4] = [Seat::North, Seat::South, Seat::East, Seat::West];
/// The strains of a [`DdTable`], in order.
pub const DD_STRAINS: [Strain; 5] = [
    Strain::Notrump,
    Strain::Spades,
    Strain::Hearts,
    Strain::Diamonds,
    Strain::Clubs,
];

/// Everything a hand record shows of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// 0-based index of the game in the document.
    pub game: usize,
    /// The Board tag as written (`"?"` and empty left out).
    pub board: Option<String>,
    pub event: Option<String>,
    pub dealer: Option<Seat>,
    /// `None`, `NS`, `EW`, `All`.
    pub vulnerable: Option<&'static str>,
    /// Player names, by `Seat as usize`.
    pub players: [Option<String>; 4],
    /// By `Seat as usize`; `None` for a hand not given.
    pub hands: [Option<HandView>; 4],
    /// Cards per hand below 13 (§3.10).
    pub end_position: Option<usize>,
    pub auction: Option<AuctionGrid>,
    /// "4♠X by South, 10 tricks (=), NS +590".
    pub contract: Option<Pieces>,
    pub play: Option<PlayView>,
    pub dd: Option<DdTable>,
    /// `ParContract` and `OptimumScore` as written.
    pub par: Option<String>,
    pub optimum_score: Option<String>,
    /// Commentary texts (§3.8), without their delimiters, the suit escapes
    /// `\S` `\H` `\D` `\C` as suits.
    pub commentary: Vec<Pieces>,
    /// Problems with the game (filled by the caller: diagnostics with their
    /// file:line:column).
    pub errors: Vec<String>,
    /// The opening leads, double dummy ([`leads_text`]; [`add_dd`]).
    pub leads: Option<String>,
    /// The double-dummy play analysis in a line: how many cards cost
    /// tricks, or why the play was not analysed ([`add_dd`]).
    pub dd_play: Option<String>,
}

impl Record {
    /// "Board 1", or "Game 3" when the game has no board number.
    pub fn title(&self) -> String {
        match &self.board {
            Some(b) => format!("Board {b}"),
            None => format!("Game {}", self.game + 1),
        }
    }

    /// "Dealer North · Vul None" (the parts that are known).
    pub fn subtitle(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.dealer {
            parts.push(format!("Dealer {}", seat_name(d)));
        }
        if let Some(v) = self.vulnerable {
            parts.push(format!("Vul {v}"));
        }
        parts.join(" · ")
    }

    /// Whether any hand is known.
    pub fn has_deal(&self) -> bool {
        self.hands.iter().any(Option::is_some)
    }
}

/// The ranks of a suit, highest first, the ten as `10`.
pub fn ranks_text(hand: Hand, suit: Suit) -> String {
    hand[suit]
        .iter()
        .map(rank_text)
        .collect::<Vec<_>>()
        .concat()
}

/// A rank as hand records print it: `A K Q J 10 9 … 2`.
pub fn rank_text(r: Rank) -> &'static str {
    const R: [&str; 15] = [
        "", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
    ];
    R.get(r.get() as usize).copied().unwrap_or("?")
}

/// Hearts and diamonds are drawn red.
pub fn is_red(s: Suit) -> bool {
    matches!(s, Suit::Hearts | Suit::Diamonds)
}

/// The pieces as plain text (suit symbols kept).
pub fn plain(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.clone(),
            Piece::Suit(s) => suit_symbol(*s).to_string(),
            Piece::Cost(n) => cost_text(*n),
        })
        .collect()
}

fn text(s: impl Into<String>) -> Piece {
    Piece::Text(s.into())
}

fn strain_pieces(s: Strain) -> Pieces {
    match s.suit() {
        Some(suit) => vec![Piece::Suit(suit)],
        None => vec![text("NT")],
    }
}

fn contract_pieces(c: Contract) -> Pieces {
    let mut p = vec![text(c.bid.level.get().to_string())];
    p.extend(strain_pieces(c.bid.strain));
    match c.penalty {
        Penalty::Undoubled => {}
        Penalty::Doubled => p.push(text("X")),
        Penalty::Redoubled => p.push(text("XX")),
    }
    p
}

/// The notes of a section: `[Note "n:text"]` tags (§3.5.5, §3.6.5).
fn notes(g: &Game, tags: &[usize]) -> Vec<(u32, String)> {
    tags.iter()
        .filter_map(|&i| g.note(i))
        .map(|n| (n.index as u32, n.text))
        .collect()
}

/// Commentary text with its suit escapes (`\S`, `\H`, `\D`, `\C`, §3.8)
/// as suit pieces; any other backslash stays as written.
pub fn commentary_pieces(s: &str) -> Pieces {
    let mut out = Vec::new();
    let mut run = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let suit = chars
            .peek()
            .filter(|n| n.is_ascii_uppercase())
            .and_then(|&n| crate::spec::cards::suit(n));
        match suit {
            Some(i) if c == '\\' => {
                chars.next();
                if !run.is_empty() {
                    out.push(text(std::mem::take(&mut run)));
                }
                out.push(Piece::Suit(SUITS[i]));
            }
            _ => run.push(c),
        }
    }
    if !run.is_empty() {
        out.push(text(run));
    }
    out
}

/// A call written in another spelling (`1N`, `P`, `Dbl`), as the pieces of
/// what the checker reads it as ([`interpret_call`]); `None` when it is no
/// call. The second value: it is `AP`.
fn read_call(written: &str) -> Option<(Pieces, bool)> {
    Some(match interpret_call(written)?.0 {
        CallToken::Pass => (vec![text(calls::PASS)], false),
        CallToken::Double => (vec![text(calls::DOUBLE)], false),
        CallToken::Redouble => (vec![text(calls::REDOUBLE)], false),
        CallToken::AllPass => (vec![text("All pass")], true),
        CallToken::Bid(b) => (bid_pieces(b), false),
        _ => return None,
    })
}

fn bid_pieces(b: contract_bridge::Bid) -> Pieces {
    let mut p = vec![text(b.level.get().to_string())];
    p.extend(strain_pieces(b.strain));
    p
}

fn note_refs<T>(e: &Entry<T>) -> Vec<u32> {
    e.post()
        .iter()
        .filter_map(|a| match a.kind {
            AnnotationKind::NoteRef(n) => n,
            _ => None,
        })
        .collect()
}

fn suffix<T>(e: &Entry<T>) -> &'static str {
    e.post()
        .iter()
        .find_map(|a| match a.kind {
            AnnotationKind::Suffix(k) => SUFFIXES.get(k as usize - 1).copied(),
            _ => None,
        })
        .unwrap_or("")
}

fn auction_grid(src: &str, g: &Game, t: &TypedGame) -> Option<AuctionGrid> {
    let a = g.auction.as_ref()?;
    let seats = t
        .auction
        .as_ref()
        .map(|x| x.seats.as_slice())
        .unwrap_or(&[]);
    let first = seats.iter().flatten().next().copied().or_else(|| {
        g.tags
            .get(a.tag)?
            .effective()
            .and_then(|v| values::parse_auction_seat(v).value)
            .map(|s| s.seat)
    });
    let mut cells: Vec<Option<CallCell>> = Vec::new();
    if let Some(s) = first {
        let col = GRID_SEATS.iter().position(|&x| x == s).unwrap_or(0);
        cells.extend((0..col).map(|_| None));
    }
    for e in &a.entries {
        let mut ends = e.token == CallToken::AllPass;
        let call = match e.token {
            CallToken::Bid(b) => bid_pieces(b),
            CallToken::Pass => vec![text(calls::PASS)],
            CallToken::Double => vec![text(calls::DOUBLE)],
            CallToken::Redouble => vec![text(calls::REDOUBLE)],
            CallToken::AllPass => vec![text("All pass")],
            CallToken::Dash | CallToken::Skip => vec![text("–")],
            CallToken::Continuation | CallToken::Terminator => continue,
            CallToken::Invalid => {
                let written = src.get(e.range.clone()).unwrap_or("?");
                match read_call(written) {
                    Some((call, all_pass)) => {
                        ends |= all_pass;
                        call
                    }
                    None => vec![text(written)],
                }
            }
        };
        let mut call = call;
        let suffix = suffix(e);
        if !suffix.is_empty() {
            call.push(text(suffix));
        }
        cells.push(Some(CallCell {
            call,
            notes: note_refs(e),
        }));
        if ends {
            break;
        }
    }
    let rows = cells
        .chunks(4)
        .map(|c| std::array::from_fn(|i| c.get(i).cloned().flatten()))
        .collect();
    Some(AuctionGrid {
        rows,
        notes: notes(g, &a.notes),
    })
}

fn play_view(src: &str, g: &Game, t: &TypedGame) -> Option<PlayView> {
    let p = g.play.as_ref()?;
    let an = t.play.as_ref()?;
    let card = |k: usize| -> Option<Pieces> {
        let e = p.entries.get(k)?;
        let mut pieces = match e.token {
            CardToken::Card(c) => vec![Piece::Suit(c.suit), text(rank_text(c.rank))],
            CardToken::Dash => vec![text("–")],
            CardToken::Continuation | CardToken::Terminator => return None,
            CardToken::Invalid => {
                let written = src.get(e.range.clone()).unwrap_or("?");
                match interpret_card(written) {
                    Some((CardToken::Card(c), _)) => {
                        vec![Piece::Suit(c.suit), text(rank_text(c.rank))]
                    }
                    Some((CardToken::Dash, _)) => vec![text("–")],
                    _ => vec![text(written)],
                }
            }
        };
        let s = suffix(e);
        if !s.is_empty() {
            pieces.push(text(s));
        }
        let refs = note_refs(e);
        if !refs.is_empty() {
            pieces.push(text(superscript(&refs)));
        }
        Some(pieces)
    };
    let tricks = an
        .tricks
        .iter()
        .map(|tr| TrickView {
            leader: tr.leader,
            cards: GRID_SEATS.map(|s| tr.cards[s as usize].and_then(card)),
            winner: tr.winner,
        })
        .filter(|tr| tr.cards.iter().any(Option::is_some))
        .collect();
    Some(PlayView {
        tricks,
        notes: notes(g, &p.notes),
    })
}

/// Note numbers as superscript digits, comma separated: `¹`, `¹²,³`.
pub fn superscript(refs: &[u32]) -> String {
    const D: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    refs.iter()
        .map(|n| {
            n.to_string()
                .bytes()
                .map(|b| D[(b - b'0') as usize])
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("˒")
}

fn contract_line(t: &TypedGame) -> Option<Pieces> {
    let c = t.contract.as_ref()?;
    let declarer = t.declarer_seat();
    let contract = match c.value {
        ContractValue::Pass => return Some(vec![text("Passed out")]),
        ContractValue::Empty => return None,
        ContractValue::EndPosition(s) => {
            let mut p = vec![text("End position, trumps ")];
            p.extend(strain_pieces(s));
            return Some(p);
        }
        ContractValue::Contract(c) => c,
    };
    let mut p = contract_pieces(contract);
    let Some(declarer) = declarer else {
        return Some(p);
    };
    p.push(text(format!(" by {}", seat_name(declarer))));
    let Some((n, _)) = t.declarer_tricks() else {
        return Some(p);
    };
    let needed = contract.bid.level.get() as i32 + 6;
    let how = match n as i32 - needed {
        0 => "=".to_owned(),
        d if d > 0 => format!("+{d}"),
        d => format!("−{}", -d),
    };
    p.push(text(format!(", {n} tricks ({how})")));
    if let Some(vul) = t.vulnerability() {
        let score = bridge::duplicate_score(contract, declarer, n, vul);
        p.push(text(format!(", {}", bridge::side_score(score))));
    }
    Some(p)
}

/// `DoubleDummyTricks`: 20 hex digits, declarers N S E W, strains NT S H D C.
fn dd_from_tag(v: &str) -> Option<DdTable> {
    let v = v.trim();
    if v.chars().count() != 20 {
        return None;
    }
    let mut t: DdTable = [[None; 5]; 4];
    for (i, c) in v.chars().enumerate() {
        let n = c.to_digit(16)?;
        if n > 13 {
            return None;
        }
        t[i / 5][i % 5] = Some(n as u8);
    }
    Some(t)
}

/// `OptimumResultTable` (§5.7): columns Declarer, Denomination, Result.
fn dd_from_table(g: &Game, t: &TypedGame) -> Option<DdTable> {
    let table = t.tables.iter().find(|tb| {
        g.sections
            .get(tb.section)
            .and_then(|s| g.tags.get(s.tag))
            .is_some_and(|tag| tag.name == "OptimumResultTable")
    })?;
    let col = |name: &str| table.columns.iter().position(|c| c.name == name);
    let (dc, sc, rc) = (col("Declarer")?, col("Denomination")?, col("Result")?);
    let elements = &g.sections.get(table.section)?.elements;
    let mut dd: DdTable = [[None; 5]; 4];
    let mut any = false;
    for row in &table.rows {
        let cell = |c: usize| {
            row.get(c)
                .and_then(|&i| elements.get(i))
                .map(|e| e.text.as_str())
        };
        let seat = cell(dc)
            .and_then(|s| values::parse_dealer(s).value)
            .map(|s| s.seat);
        let strain = cell(sc).and_then(|s| values::parse_denomination(s).value);
        let tricks = cell(rc)
            .and_then(|s| s.trim().parse::<u8>().ok())
            .filter(|n| *n <= 13);
        if let (Some(seat), Some(strain), Some(n)) = (seat, strain, tricks) {
            let si = DD_SEATS.iter().position(|&x| x == seat)?;
            let ti = DD_STRAINS.iter().position(|&x| x == strain)?;
            dd[si][ti] = Some(n);
            any = true;
        }
    }
    any.then_some(dd)
}

fn non_empty(v: Option<&str>) -> Option<String> {
    v.map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?" && *v != "#")
        .map(str::to_owned)
}

/// The hands of a deal, by `Seat as usize`.
pub fn hand_views(deal: &values::Deal) -> [Option<HandView>; 4] {
    Seat::ALL.map(|s| {
        let h = deal.hand(s)?;
        Some(HandView {
            hcp: hcp(h),
            suits: SUITS.map(|suit| ranks_text(h, suit)),
            spots: deal.spot_cards[s as usize],
        })
    })
}

/// Whether a diagnostic changes what a hand record draws (cards, auction,
/// result), so that the record lists it: an error that is neither about
/// export layout or encoding nor a spelling read with certainty (a safe
/// fix: `1N` is drawn as 1NT).
pub fn changes_the_drawing(d: &crate::diagnostic::Diagnostic) -> bool {
    use crate::codes::Category;
    use crate::diagnostic::{Applicability, Severity};
    d.severity == Severity::Error
        && !matches!(d.code.category, Category::Export | Category::Encoding)
        && d.fix
            .as_ref()
            .is_none_or(|f| f.applicability != Applicability::Safe)
}

/// The records of every game of `source` (`pbn show`, `pbn html`, the web
/// page), each with the errors that change what it draws
/// ([`changes_the_drawing`]) as `name:line:column: error[CODE]: message`;
/// the records for which `dd` is true with what the solver adds
/// ([`add_dd`]).
pub fn records(
    source: &crate::text::SourceText,
    name: &str,
    dd: impl Fn(&Record) -> bool,
) -> Vec<Record> {
    use crate::checker::{check_text, CheckOptions};
    use crate::text::{LineIndex, PositionEncoding};
    let text = source.text.as_str();
    let tree = crate::syntax::parse_pieces(text);
    let doc = crate::model::lower(&tree, text);
    let mut records: Vec<Record> = doc
        .games
        .iter()
        .map(|g| {
            let mut r = record(text, g);
            if dd(&r) {
                add_dd(&mut r, text, g);
            }
            r
        })
        .collect();
    let checked = check_text(
        source,
        &CheckOptions {
            fixes: true,
            ..CheckOptions::default()
        },
    );
    let index = LineIndex::new(text);
    for d in checked.diagnostics {
        if !changes_the_drawing(&d) {
            continue;
        }
        let at = d.range.start;
        let k = doc.games.partition_point(|g| g.range.start <= at);
        let Some(k) = k.checked_sub(1).filter(|&k| at <= doc.games[k].range.end) else {
            continue;
        };
        let lc = index.line_col(text, at, PositionEncoding::Chars);
        records[k].errors.push(format!(
            "{name}:{}:{}: error[{}]: {}",
            lc.line + 1,
            lc.col + 1,
            d.code.code,
            d.message
        ));
    }
    records
}

/// The hand record of `g` (`src` is the document text the game's ranges
/// point into).
pub fn record(src: &str, g: &Game) -> Record {
    let t = typed(src, g);
    let deal = t.deal.as_ref();
    let hands = deal.map(hand_views).unwrap_or_default();
    let end_position = deal
        .filter(|d| d.is_end_position)
        .and_then(|d| d.card_counts.iter().copied().max());
    let commentary = g
        .commentary()
        .filter(|c| c.kind != CommentKind::Escape)
        .filter_map(|c| {
            let inner = c.body(src);
            // Leading blank lines and trailing space go; the indentation of
            // the first line stays (commentary often holds a diagram).
            let inner = inner.trim_end();
            let start = inner.len() - inner.trim_start().len();
            let start = inner[..start].rfind('\n').map_or(0, |i| i + 1);
            let inner = &inner[start..];
            (!inner.trim().is_empty()).then(|| commentary_pieces(inner))
        })
        .collect();
    Record {
        game: g.index,
        board: non_empty(g.value("Board")),
        event: non_empty(g.value("Event")),
        dealer: t.dealer,
        vulnerable: t
            .vulnerable
            .map(|v| v.vulnerability)
            .map(bridge::vulnerability_name),
        players: Seat::ALL.map(|s| non_empty(g.value(seat_name(s)))),
        hands,
        end_position,
        auction: auction_grid(src, g, &t),
        contract: contract_line(&t),
        play: play_view(src, g, &t),
        dd: g
            .value("DoubleDummyTricks")
            .and_then(dd_from_tag)
            .or_else(|| dd_from_table(g, &t)),
        par: non_empty(g.value("ParContract")),
        optimum_score: non_empty(g.value("OptimumScore")),
        commentary,
        errors: Vec::new(),
        leads: None,
        dd_play: None,
    }
}

#[cfg(test)]
mod tests;

// ---- Double-dummy play analysis and opening leads (asked for: `--dd`) ----

/// A card as hand records print it: `♠K`, `♥10`.
pub fn card_text(c: contract_bridge::Card) -> String {
    format!("{}{}", suit_symbol(c.suit), rank_text(c.rank))
}

/// A card's cost as the trick table marks it: `−1`.
pub fn cost_text(n: u8) -> String {
    format!("−{n}")
}

/// "West leads, ♠ trumps; tricks for East-West: ♠K: 5, ♥7 ♥2: 4": the
/// tricks of the leader's side after each opening lead.
pub fn leads_text(l: &crate::dd::leads::Leads) -> String {
    let trumps = match l.strain.suit() {
        Some(s) => format!("{} trumps", suit_symbol(s)),
        None => "notrump".to_owned(),
    };
    format!(
        "{} leads, {trumps}; tricks for {}: {}",
        seat_name(l.leader),
        bridge::side_name(l.leader),
        l.text(card_text)
    )
}

/// What `--dd` adds to a record: the double-dummy table and par from the
/// solver when the file has none, the opening leads, and each played card's
/// cost marked in the trick table ([`Piece::Cost`]).
pub fn add_dd(r: &mut Record, src: &str, g: &Game) {
    use crate::dd::play::{analyse_game, PlayEnd};
    let t = typed(src, g);
    if r.dd.is_none() {
        if let Some(Ok((table, par))) = crate::dd::verify::solve_game(g) {
            r.dd = Some(DD_SEATS.map(|s| DD_STRAINS.map(|x| Some(table.get(x, s)))));
            if r.par.is_none() && r.optimum_score.is_none() && r.end_position.is_none() {
                r.par = Some(par.par_contracts().join(", "));
                r.optimum_score = Some(par.optimum_score());
            }
        }
    }
    if let Ok(setup) = crate::dd::leads::setup_of(&t) {
        r.leads = crate::dd::leads::opening_leads(&setup)
            .ok()
            .map(|l| leads_text(&l));
    }
    let (Some(p), Some(an), Some(view)) = (g.play.as_ref(), t.play.as_ref(), r.play.as_mut())
    else {
        return;
    };
    let (line, report) = match analyse_game(src, g, &t) {
        Ok((line, Ok(report))) => (line, report),
        Ok((_, Err(e))) => {
            r.dd_play = Some(format!("Double-dummy play: not analysed ({e})"));
            return;
        }
        Err(e) => {
            r.dd_play = Some(format!("Double-dummy play: not analysed ({e})"));
            return;
        }
    };
    let mut cost = vec![0u8; p.entries.len()];
    for (i, c) in report.costly() {
        if let Some(k) = line.items.get(i).and_then(|&k| cost.get_mut(k)) {
            *k = c.cost;
        }
    }
    // The tricks of the view are the analysis's with a card (see `play_view`).
    let shown = an.tricks.iter().filter(|tr| {
        tr.cards.iter().flatten().any(|&k| {
            p.entries.get(k).is_some_and(|e| {
                !matches!(e.token, CardToken::Continuation | CardToken::Terminator)
            })
        })
    });
    for (tr, v) in shown.zip(view.tricks.iter_mut()) {
        for (i, s) in GRID_SEATS.iter().enumerate() {
            let n = tr.cards[*s as usize].and_then(|k| cost.get(k).copied());
            if let (Some(n @ 1..), Some(c)) = (n, v.cards[i].as_mut()) {
                c.push(Piece::Cost(n));
            }
        }
    }
    let n = report.costly().count();
    let mut line_text = match n {
        0 => "Double-dummy play: no card cost a trick".to_owned(),
        1 => "Double-dummy play: 1 card cost tricks (marked −n)".to_owned(),
        n => format!("Double-dummy play: {n} cards cost tricks (marked −n)"),
    };
    if let PlayEnd::Stopped { why, .. } = line.end {
        line_text.push_str(&format!("; analysed up to {why}"));
    }
    r.dd_play = Some(line_text);
}
