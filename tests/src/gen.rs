//! A deterministic generator of realistic PBN 2.1 export-format files.
//!
//! Every game is legal bridge (PBN 2.1, `../shared/seeds/001_faf97842eac7ec0d.txt`):
//!
//! - the 15 mandatory tags in export order (§3.4), the board rotation for
//!   Dealer and Vulnerable, a shuffled 52-card Deal starting with the dealer,
//!   ranks in descending order (§3.4.11);
//! - supplemental tags in the identification section, sorted by name
//!   (§3.4, §4): `Competition`, `DoubleDummyTricks`, `Room` (teams),
//!   `Score` (the duplicate score of the result), `Table` (pairs);
//! - an auction section (§3.5) from the dealer: a legal random auction, 4 calls
//!   a line, with note references `=n=` and the matching `[Note]` tags after
//!   the calls, NAGs `$1`..`$6` (optional), `{}` and `;` comments (optional);
//!   about 1 deal in 25 is passed out (`Contract "Pass"`, empty Declarer and
//!   Result, no play section);
//! - a play section (§3.6) from the opening leader: all 13 tricks played
//!   legally (follow suit, the trick winner leads next, trumps from the
//!   contract), one trick a line in the fixed seat columns of the Play tag,
//!   with note references, NAGs `$7`..`$12` (optional) and comments
//!   (optional); `Result` is the number of tricks declarer really took;
//! - supplemental sections (§5), sorted by name: an `OptimumResultTable` of
//!   20 rows (consistent with `DoubleDummyTricks`) and sometimes a
//!   `ScoreTable` whose rows have correct duplicate scores.
//!
//! Games are grouped into events: teams matches (IMP, each board played in
//! the Open and the Closed room with the same deal) and pair events (MP).
//!
//! The output depends only on `(games, seed, options)`: the generator uses its
//! own splitmix64 generator and no hash maps, so it is stable across runs,
//! platforms and Rust versions.
//!
//! endplay's PBN reader splits auction and play lines on white space, so it
//! can read neither NAGs nor comments inside those sections: for it, generate
//! with `nags: false, comments: false`.

use std::fmt::Write as _;

/// Line ending of the generated file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LineEnding {
    /// `\n`
    #[default]
    Lf,
    /// `\r\n` (the export-format line ending of PBN 2.1 §2.3)
    CrLf,
}

/// What the generator emits besides the bare games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// NAGs after calls (`$1`..`$6`) and cards (`$7`..`$12`).
    pub nags: bool,
    /// `{...}` and `;` comments (game commentary, after calls and cards).
    pub comments: bool,
    pub line_ending: LineEnding,
    /// The application-specific `DoubleDummyTricks` tag (§4.9: `pbn check`
    /// gives it a hint, one per game).
    pub double_dummy_tag: bool,
    /// Solved double-dummy data (the core's solver): `DoubleDummyTricks`
    /// and the `OptimumResultTable` rows from the solver instead of an
    /// estimate, and `OptimumScore` and `ParContract` (§4.2.7) added, all
    /// of which `pbn check --dd` accepts. The games are otherwise the same
    /// (auctions still follow the estimate). Costs a solve per deal.
    pub solved_dd: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            nags: true,
            comments: true,
            line_ending: LineEnding::Lf,
            double_dummy_tag: true,
            solved_dd: false,
        }
    }
}

impl GenOptions {
    /// A variant endplay's reader can load: no NAGs, no comments.
    pub fn endplay_compatible() -> Self {
        GenOptions {
            nags: false,
            comments: false,
            ..GenOptions::default()
        }
    }

    /// A file on which `pbn check --export` reports nothing at all: CRLF
    /// line ends (§2.3) and no application-specific tag. The same games
    /// and deals as the default.
    pub fn clean() -> Self {
        GenOptions {
            line_ending: LineEnding::CrLf,
            double_dummy_tag: false,
            ..GenOptions::default()
        }
    }
}

/// Generates a PBN 2.1 export-format file of `games` games.
pub fn generate(games: usize, seed: u64, opts: &GenOptions) -> String {
    let mut g = Generator::new(seed, opts.clone());
    let mut out = String::with_capacity(games * 1700 + 32);
    out.push_str("% PBN 2.1\n% EXPORT\n");
    for i in 0..games {
        if i > 0 {
            out.push('\n');
        }
        g.game(&mut out);
    }
    match opts.line_ending {
        LineEnding::Lf => out,
        LineEnding::CrLf => out.replace('\n', "\r\n"),
    }
}

/// The solved double-dummy tricks `[seat][denom]` of a Deal value, with
/// its OptimumScore and ParContract values at `vul` with `dealer` first.
fn solve(deal: &str, vul: &str, dealer: usize) -> ([[u8; 5]; 4], String, String) {
    use pbn_core::bridge::{Seat, Strain};
    use pbn_core::model::values::{parse_deal, parse_vulnerable};
    let parsed = parse_deal(deal)
        .value
        .expect("the generator writes valid deals");
    let table = pbn_core::dd::solve_table(&parsed).expect("a full deal solves");
    let vul = parse_vulnerable(vul)
        .value
        .expect("the generator writes valid vulnerabilities")
        .vulnerability;
    let par = pbn_core::dd::par(&table, vul, Seat::ALL[dealer]);
    let strains = [
        Strain::Clubs,
        Strain::Diamonds,
        Strain::Hearts,
        Strain::Spades,
        Strain::Notrump,
    ];
    let dd = std::array::from_fn(|seat| {
        std::array::from_fn(|denom| table.get(strains[denom], Seat::ALL[seat]))
    });
    (dd, par.optimum_score(), par.par_contracts().join(", "))
}

// ---------------------------------------------------------------------------
// Random numbers

/// splitmix64: tiny, fast, good enough, and fully deterministic.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------
// Bridge basics

/// Seats in clockwise order; the index is used everywhere.
pub const SEATS: [char; 4] = ['N', 'E', 'S', 'W'];
/// Suits in Deal order (§3.4.11); card suit index.
pub const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
/// Ranks in descending order; card rank index (0 = ace).
pub const RANKS: [char; 13] = [
    'A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2',
];
/// Denominations in bidding order: C, D, H, S, NT.
pub const DENOMS: [&str; 5] = ["C", "D", "H", "S", "NT"];

/// Vulnerability of boards 1..16 (index `(board - 1) % 16`).
pub const VULNERABILITY: [&str; 16] = [
    "None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None",
    "NS", "EW",
];

/// Dealer seat index of a board: N, E, S, W for boards 1, 2, 3, 4, ...
pub fn board_dealer(board: u32) -> usize {
    ((board - 1) % 4) as usize
}

/// Vulnerability tag value of a board.
pub fn board_vulnerability(board: u32) -> &'static str {
    VULNERABILITY[((board - 1) % 16) as usize]
}

/// Is `seat`'s side vulnerable under `vul`?
pub fn seat_vulnerable(vul: &str, seat: usize) -> bool {
    match vul {
        "All" => true,
        "NS" => seat.is_multiple_of(2),
        "EW" => !seat.is_multiple_of(2),
        _ => false,
    }
}

/// A card: `suit * 13 + rank` (see [`SUITS`], [`RANKS`]).
pub type Card = u8;

pub fn card_suit(c: Card) -> usize {
    (c / 13) as usize
}

pub fn card_rank(c: Card) -> usize {
    (c % 13) as usize
}

pub fn card_str(c: Card) -> String {
    let mut s = String::with_capacity(2);
    s.push(SUITS[card_suit(c)]);
    s.push(RANKS[card_rank(c)]);
    s
}

/// The card suit index of a denomination (0..4 = C, D, H, S; 4 = NT).
pub fn denom_trump(denom: usize) -> Option<usize> {
    match denom {
        0 => Some(3),
        1 => Some(2),
        2 => Some(1),
        3 => Some(0),
        _ => None,
    }
}

/// The seat winning a trick. `cards[i]` is played by `(leader + i) % 4`.
pub fn trick_winner(leader: usize, cards: &[Card; 4], trump: Option<usize>) -> usize {
    let mut best = 0;
    for i in 1..4 {
        let (b, c) = (cards[best], cards[i]);
        let beats = if card_suit(c) == card_suit(b) {
            card_rank(c) < card_rank(b)
        } else {
            Some(card_suit(c)) == trump && card_suit(b) != card_suit(c)
        };
        if beats {
            best = i;
        }
    }
    (leader + best) % 4
}

/// A call of the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    Pass,
    Double,
    Redouble,
    /// level 1..=7, denomination index into [`DENOMS`]
    Bid(u8, u8),
}

impl Call {
    pub fn text(self) -> String {
        match self {
            Call::Pass => "Pass".into(),
            Call::Double => "X".into(),
            Call::Redouble => "XX".into(),
            Call::Bid(l, d) => format!("{l}{}", DENOMS[d as usize]),
        }
    }
}

/// A final contract (not passed out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    pub level: u8,
    pub denom: u8,
    /// 0 undoubled, 1 doubled, 2 redoubled
    pub risk: u8,
    pub declarer: usize,
}

impl Contract {
    pub fn text(&self) -> String {
        format!(
            "{}{}{}",
            self.level,
            DENOMS[self.denom as usize],
            ["", "X", "XX"][self.risk as usize]
        )
    }
}

/// The outcome of a complete auction: `None` when passed out.
/// Panics on an illegal or incomplete auction.
pub fn auction_contract(dealer: usize, calls: &[Call]) -> Option<Contract> {
    let mut last: Option<(u8, u8, usize)> = None; // level, denom, bidder
    let mut risk = 0u8;
    for (i, &c) in calls.iter().enumerate() {
        let seat = (dealer + i) % 4;
        match c {
            Call::Pass => {}
            Call::Double => {
                let (_, _, b) = last.expect("double without a bid");
                assert!(b % 2 != seat % 2 && risk == 0, "illegal double");
                risk = 1;
            }
            Call::Redouble => {
                let (_, _, b) = last.expect("redouble without a bid");
                assert!(b % 2 == seat % 2 && risk == 1, "illegal redouble");
                risk = 2;
            }
            Call::Bid(l, d) => {
                assert!((1..=7).contains(&l) && d < 5, "bad bid");
                if let Some((pl, pd, _)) = last {
                    assert!((l, d) > (pl, pd), "insufficient bid");
                }
                last = Some((l, d, seat));
                risk = 0;
            }
        }
    }
    let (level, denom, bidder) = last?;
    // Declarer: the first player of the declaring side to name the denomination.
    let declarer = calls
        .iter()
        .enumerate()
        .find_map(|(i, &c)| {
            let seat = (dealer + i) % 4;
            matches!(c, Call::Bid(_, d) if d == denom && seat % 2 == bidder % 2).then_some(seat)
        })
        .unwrap();
    Some(Contract {
        level,
        denom,
        risk,
        declarer,
    })
}

/// The duplicate score of the declaring side (negative when defeated).
pub fn duplicate_score(c: &Contract, vulnerable: bool, tricks: u8) -> i32 {
    let level = c.level as i32;
    let need = level + 6;
    let tricks = tricks as i32;
    let mult = [1, 2, 4][c.risk as usize];
    let per = if c.denom <= 1 { 20 } else { 30 };
    if tricks >= need {
        let contract_pts = (per * level + if c.denom == 4 { 10 } else { 0 }) * mult;
        let mut score = contract_pts;
        score += if contract_pts >= 100 {
            if vulnerable {
                500
            } else {
                300
            }
        } else {
            50
        };
        score += match level {
            6 => {
                if vulnerable {
                    750
                } else {
                    500
                }
            }
            7 => {
                if vulnerable {
                    1500
                } else {
                    1000
                }
            }
            _ => 0,
        };
        score += [0, 50, 100][c.risk as usize];
        let over = tricks - need;
        score += over
            * match c.risk {
                0 => per,
                1 => {
                    if vulnerable {
                        200
                    } else {
                        100
                    }
                }
                _ => {
                    if vulnerable {
                        400
                    } else {
                        200
                    }
                }
            };
        score
    } else {
        let down = need - tricks;
        let pen = match (c.risk, vulnerable) {
            (0, v) => down * if v { 100 } else { 50 },
            (_, true) => 200 + (down - 1) * 300,
            (_, false) => 100 + 200 * (down - 1).min(2) + 300 * (down - 3).max(0),
        };
        -(pen * if c.risk == 2 { 2 } else { 1 })
    }
}

// ---------------------------------------------------------------------------
// Text pools

const TEAM_EVENTS: &[&str] = &[
    "Spring Foursomes",
    "National Teams Championship",
    "European Open Teams",
    "Inter-City League",
    "Gold Cup",
    "Winter Swiss Teams",
    "Junior Trials",
    "Open Trials",
];
const PAIR_EVENTS: &[&str] = &[
    "Club Pairs Championship",
    "Autumn Congress Pairs",
    "Summer Nationals Open Pairs",
    "Masters Pairs",
    "Tuesday Evening Pairs",
    "Mixed Pairs",
];
const SITES: &[&str] = &[
    "Amsterdam, The Netherlands NLD",
    "London ENG",
    "Stockholm SWE",
    "Paris FRA",
    "Wroclaw POL",
    "Chicago, IL USA",
    "Oslo NOR",
    "Warsaw POL",
    "Brighton ENG",
    "Copenhagen DEN",
    "Bologna ITA",
    "Melbourne AUS",
    "RealBridge",
    "BBO",
];
const FAMILY: &[&str] = &[
    "Westra",
    "Leufkens",
    "Podgor",
    "Kalish",
    "Brink",
    "Drijver",
    "Helness",
    "Helgemo",
    "Hamman",
    "Zia",
    "Meckstroth",
    "Rodwell",
    "Fantoni",
    "Nunes",
    "Balicki",
    "Zmudzinski",
    "Lauria",
    "Versace",
    "Bocchi",
    "Duboin",
    "Chagas",
    "Branco",
    "Lindkvist",
    "Fallenius",
    "Nystrom",
    "Bertheau",
    "Gromov",
    "Dubinin",
    "Martens",
    "Multon",
    "Levin",
    "Weinstein",
    "Cheek",
    "Grue",
    "Bakkeren",
    "Bessis",
    "Volcker",
    "Sementa",
    "Madala",
    "Gitelman",
    "Moss",
    "Kowalski",
];
const GIVEN: &[&str] = &[
    "Berry",
    "Piet",
    "Geir",
    "Tor",
    "Bob",
    "Jeff",
    "Eric",
    "Fulvio",
    "Claudio",
    "Cezary",
    "Adam",
    "Lorenzo",
    "Alfredo",
    "Norberto",
    "Giorgio",
    "Gabriel",
    "Marcelo",
    "Peter",
    "Johan",
    "Fredrik",
    "Andrey",
    "Alexander",
    "Krzysztof",
    "Franck",
    "Steve",
    "Justin",
    "Joe",
    "Ton",
    "Thomas",
    "Anna",
    "Sabine",
    "Marion",
    "Benedicte",
    "Nicola",
    "Sylvie",
];
const TEAMS: &[&str] = &[
    "NETHERLANDS",
    "NORWAY",
    "ITALY",
    "POLAND",
    "FRANCE",
    "SWEDEN",
    "ENGLAND",
    "USA",
    "MONACO",
    "BRAZIL",
    "DENMARK",
    "ISRAEL",
    "GERMANY",
    "CHINA",
];
const AUCTION_NOTES: &[&str] = &[
    "transfer to hearts",
    "transfer to spades",
    "Stayman",
    "15-17",
    "weak two",
    "natural, forcing one round",
    "non-forcing 6-9 points, 6-card",
    "two colours: clubs and diamonds",
    "Michaels, both majors",
    "negative double",
    "splinter",
    "Roman Key Card, 0 or 3",
    "fourth suit forcing",
    "limit raise or better",
    "multi: weak two in a major",
    "Precision, 16+ HCP",
    "support double",
    "lebensohl",
    "asking for a stopper",
    "cue bid",
];
const PLAY_NOTES: &[&str] = &[
    "highest of series",
    "fourth best",
    "attitude: encouraging",
    "count: even number",
    "suit preference",
    "MUD",
    "top of nothing",
    "Smith echo",
    "second from touching honours",
    "discouraging",
];
const CALL_COMMENTS: &[&str] = &[
    "natural",
    "15-17 HCP",
    "forcing",
    "weak",
    "\\S and \\H",
    "preemptive",
    "slam try",
    "to play",
    "alerted",
    "hesitation",
    "a shade light",
    "game forcing",
];
const CARD_COMMENTS: &[&str] = &[
    "count signal",
    "declarer ducks",
    "suit preference for \\H",
    "the killing lead",
    "a neat unblock",
    "crossruff begins",
    "safety play",
    "squeeze",
    "smooth duck",
    "throw-in",
    "\\D were 4-1",
    "endplayed",
];
const LINE_COMMENTS: &[&str] = &[
    "competitive auction",
    "quiet start",
    "after a long think",
    "the crucial moment",
    "declarer wins",
    "defence takes over",
    "no way back",
    "East-West sacrifice?",
    "standard",
];
const GAME_COMMENTS: &[&str] = &[
    "A flat board in the match.",
    "The opening lead was the key decision.",
    "Both tables reached the same contract.",
    "A swing board: the play decided it.",
    "The \\S suit broke 4-1.",
    "Only a \\D lead beats the contract.",
    "A textbook squeeze position.",
    "North's choice of opening bid mattered here.",
];

// ---------------------------------------------------------------------------
// The generator

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scoring {
    Imp,
    Mp,
}

struct Event {
    name: String,
    site: String,
    date: String,
    scoring: Scoring,
    boards: u32,
    next_board: u32,
    /// Teams: home (Open NS, Closed EW) and visitors; pairs: a pool of players.
    players: Vec<String>,
    home: &'static str,
    visitors: &'static str,
    table: u32,
}

/// One board: the same deal is played in both rooms of a teams match.
#[derive(Clone)]
struct BoardDeal {
    board: u32,
    /// `hands[seat]`, sorted ascending by card value (= Deal order).
    hands: [Vec<Card>; 4],
    /// Double-dummy tricks `[seat][denom]` (denom 0..4 = C, D, H, S, NT).
    dd: [[u8; 5]; 4],
}

struct Generator {
    rng: Rng,
    opts: GenOptions,
    event: Option<Event>,
    /// The Closed-room replay of the last teams board.
    replay: Option<BoardDeal>,
}

impl Generator {
    fn new(seed: u64, opts: GenOptions) -> Self {
        Generator {
            rng: Rng::new(seed),
            opts,
            event: None,
            replay: None,
        }
    }

    fn player_name(&mut self) -> String {
        let f = *self.rng.pick(FAMILY);
        let g = *self.rng.pick(GIVEN);
        format!("{f}, {g}")
    }

    fn new_event(&mut self) -> Event {
        let scoring = if self.rng.chance(0.6) {
            Scoring::Imp
        } else {
            Scoring::Mp
        };
        let year = self.rng.range(1995, 2024);
        let month = self.rng.range(1, 12);
        let day = self.rng.range(1, 28);
        let events = if scoring == Scoring::Imp {
            TEAM_EVENTS
        } else {
            PAIR_EVENTS
        };
        let name = format!("{} {}", self.rng.pick(events), year);
        let site = self.rng.pick(SITES).to_string();
        let boards = *self.rng.pick(&[16u32, 24, 28, 32]);
        let nplayers = if scoring == Scoring::Imp { 8 } else { 24 };
        let players = (0..nplayers).map(|_| self.player_name()).collect();
        let home = *self.rng.pick(TEAMS);
        let mut visitors = *self.rng.pick(TEAMS);
        while visitors == home {
            visitors = *self.rng.pick(TEAMS);
        }
        Event {
            name,
            site,
            date: format!("{year:04}.{month:02}.{day:02}"),
            scoring,
            boards,
            next_board: 1,
            players,
            home,
            visitors,
            table: self.rng.range(1, 12) as u32,
        }
    }

    fn deal(&mut self, board: u32) -> BoardDeal {
        let mut cards: Vec<Card> = (0..52).collect();
        for i in (1..52).rev() {
            let j = self.rng.below(i + 1);
            cards.swap(i, j);
        }
        let mut hands: [Vec<Card>; 4] = Default::default();
        for (seat, hand) in hands.iter_mut().enumerate() {
            *hand = cards[seat * 13..seat * 13 + 13].to_vec();
            hand.sort_unstable();
        }
        let dd = self.double_dummy_estimate(&hands);
        BoardDeal { board, hands, dd }
    }

    /// Plausible (not solved) double-dummy tricks: NS tricks follow the NS
    /// high-card points and trump fit; EW get the rest; partners differ by
    /// at most one trick.
    #[allow(clippy::needless_range_loop)]
    fn double_dummy_estimate(&mut self, hands: &[Vec<Card>; 4]) -> [[u8; 5]; 4] {
        let hcp = |h: &Vec<Card>| -> i32 {
            h.iter()
                .map(|&c| [4, 3, 2, 1].get(card_rank(c)).copied().unwrap_or(0))
                .sum()
        };
        let len = |h: &Vec<Card>, s: usize| h.iter().filter(|&&c| card_suit(c) == s).count() as i32;
        let ns_hcp = hcp(&hands[0]) + hcp(&hands[2]);
        let mut dd = [[0u8; 5]; 4];
        for denom in 0..5 {
            let fit = match denom_trump(denom) {
                Some(s) => {
                    let ns = len(&hands[0], s) + len(&hands[2], s);
                    (ns - 8) as f64 * 0.9
                }
                None => 0.0,
            };
            let noise = self.rng.below(3) as f64 - 1.0;
            let ns = (6.5 + (ns_hcp - 20) as f64 * 0.4 + fit + noise)
                .round()
                .clamp(0.0, 13.0) as i32;
            let jitter = |rng: &mut Rng, t: i32| -> u8 {
                let d = if rng.chance(0.25) {
                    rng.below(3) as i32 - 1
                } else {
                    0
                };
                (t + d).clamp(0, 13) as u8
            };
            dd[0][denom] = jitter(&mut self.rng, ns);
            dd[2][denom] = jitter(&mut self.rng, ns);
            dd[1][denom] = jitter(&mut self.rng, 13 - ns);
            dd[3][denom] = jitter(&mut self.rng, 13 - ns);
        }
        dd
    }

    /// The denomination a player would name: mostly their longest suit,
    /// sometimes notrump with a balanced hand, sometimes anything.
    fn pick_denom(&mut self, hand: &[Card]) -> u8 {
        if self.rng.chance(0.2) {
            return self.rng.below(5) as u8;
        }
        let mut len = [0usize; 4];
        for &c in hand {
            len[card_suit(c)] += 1;
        }
        let longest = (0..4).max_by_key(|&s| (len[s], 3 - s)).unwrap();
        if len[longest] <= 4 && self.rng.chance(0.6) {
            return 4;
        }
        (3 - longest) as u8 // S, H, D, C -> denominations 3, 2, 1, 0
    }

    /// A legal random auction starting with `dealer`. Players tend to bid
    /// their long suits and to stop near the double-dummy limit of their
    /// side, and to double contracts that go down.
    fn auction(&mut self, dealer: usize, deal: &BoardDeal) -> Vec<Call> {
        let mut calls = Vec::new();
        let mut last: Option<(u8, u8, usize)> = None; // level, denom, bidder
        let mut risk = 0u8;
        let mut passes = 0;
        let mut seat = dealer;
        loop {
            let call = match last {
                // Passed out about once in 25 deals: 0.45^4 = 4%.
                None if !self.rng.chance(0.55) => Call::Pass,
                None => {
                    let level = if self.rng.chance(0.8) {
                        1
                    } else if self.rng.chance(0.75) {
                        2
                    } else {
                        3
                    };
                    Call::Bid(level, self.pick_denom(&deal.hands[seat]))
                }
                Some((level, denom, bidder)) => {
                    let opponent_bid = bidder % 2 != seat % 2;
                    let goes_down = deal.dd[bidder][denom as usize] < level + 6;
                    let p_double = if goes_down {
                        0.06 + 0.04 * level as f64
                    } else {
                        0.015
                    };
                    let p_pass = (0.40 + 0.07 * level as f64).min(0.9);
                    if opponent_bid && risk == 0 && self.rng.chance(p_double) {
                        Call::Double
                    } else if !opponent_bid && risk == 1 && !goes_down && self.rng.chance(0.3) {
                        Call::Redouble
                    } else if (level, denom) == (7, 4) || self.rng.chance(p_pass) {
                        Call::Pass
                    } else {
                        let d = self.pick_denom(&deal.hands[seat]);
                        let mut l = if d > denom { level } else { level + 1 };
                        if self.rng.chance(0.15) {
                            l += 1; // a jump
                        }
                        let limit = deal.dd[seat][d as usize] as i32 - 6;
                        if l > 7 || (l as i32 > limit + 1 && self.rng.chance(0.75)) {
                            Call::Pass
                        } else {
                            Call::Bid(l, d)
                        }
                    }
                }
            };
            match call {
                Call::Pass => passes += 1,
                Call::Double => {
                    passes = 0;
                    risk = 1
                }
                Call::Redouble => {
                    passes = 0;
                    risk = 2
                }
                Call::Bid(l, d) => {
                    passes = 0;
                    risk = 0;
                    last = Some((l, d, seat));
                }
            }
            calls.push(call);
            if (last.is_some() && passes == 3) || (last.is_none() && passes == 4) {
                return calls;
            }
            seat = (seat + 1) % 4;
        }
    }

    /// Plays 13 tricks with a simple but legal card-play policy.
    /// Returns `plays[trick][seat]` and declarer's tricks.
    fn play(&mut self, hands: &[Vec<Card>; 4], c: &Contract) -> (Vec<[Card; 4]>, u8) {
        let trump = denom_trump(c.denom as usize);
        let mut hands = hands.clone();
        let mut leader = (c.declarer + 1) % 4;
        let mut plays = Vec::with_capacity(13);
        let mut won = 0u8;
        for _ in 0..13 {
            let mut trick = [0 as Card; 4]; // in play order
            for i in 0..4 {
                let seat = (leader + i) % 4;
                let card = self.choose_card(&hands[seat], &trick[..i], leader, seat, trump);
                hands[seat].retain(|&x| x != card);
                trick[i] = card;
            }
            let winner = trick_winner(leader, &trick, trump);
            let mut by_seat = [0 as Card; 4];
            for (i, &card) in trick.iter().enumerate() {
                by_seat[(leader + i) % 4] = card;
            }
            plays.push(by_seat);
            if winner % 2 == c.declarer % 2 {
                won += 1;
            }
            leader = winner;
        }
        (plays, won)
    }

    fn choose_card(
        &mut self,
        hand: &[Card],
        played: &[Card],
        leader: usize,
        seat: usize,
        trump: Option<usize>,
    ) -> Card {
        if played.is_empty() {
            return *self.rng.pick(hand);
        }
        let led = card_suit(played[0]);
        // Current winner of the trick so far.
        let partial_winner = {
            let mut best = 0;
            for i in 1..played.len() {
                let (b, c) = (played[best], played[i]);
                let beats = if card_suit(c) == card_suit(b) {
                    card_rank(c) < card_rank(b)
                } else {
                    Some(card_suit(c)) == trump
                };
                if beats {
                    best = i;
                }
            }
            best
        };
        let winning_card = played[partial_winner];
        let partner_winning = (leader + partial_winner) % 4 % 2 == seat % 2;
        let beats = |c: Card| -> bool {
            if card_suit(c) == card_suit(winning_card) {
                card_rank(c) < card_rank(winning_card)
            } else {
                Some(card_suit(c)) == trump
            }
        };
        // Cards sorted ascending by value: highest rank first within a suit,
        // so the lowest card of a suit is the last one.
        let follow: Vec<Card> = hand
            .iter()
            .copied()
            .filter(|&c| card_suit(c) == led)
            .collect();
        let legal: Vec<Card> = if follow.is_empty() {
            hand.to_vec()
        } else {
            follow
        };
        let lowest =
            |cs: &[Card]| -> Card { *cs.iter().max_by_key(|&&c| (card_rank(c), c)).unwrap() };
        if !partner_winning && self.rng.chance(0.75) {
            let winners: Vec<Card> = legal.iter().copied().filter(|&c| beats(c)).collect();
            if !winners.is_empty() {
                // The cheapest winner: lowest rank, trumps only if needed.
                return *winners
                    .iter()
                    .max_by_key(|&&c| (Some(card_suit(c)) != trump, card_rank(c)))
                    .unwrap();
            }
        }
        if self.rng.chance(0.85) {
            // Low card from a random legal suit (a discard when void).
            let s = card_suit(*self.rng.pick(&legal));
            let in_suit: Vec<Card> = legal
                .iter()
                .copied()
                .filter(|&c| card_suit(c) == s)
                .collect();
            lowest(&in_suit)
        } else {
            *self.rng.pick(&legal)
        }
    }

    fn game(&mut self, out: &mut String) {
        if self
            .event
            .as_ref()
            .is_none_or(|e| e.next_board > e.boards && self.replay.is_none())
        {
            self.event = Some(self.new_event());
        }
        let (deal, room) = if let Some(d) = self.replay.take() {
            (d, Some("Closed"))
        } else {
            let ev = self.event.as_mut().unwrap();
            let b = ev.next_board;
            ev.next_board += 1;
            let scoring = ev.scoring;
            let d = self.deal(b);
            if scoring == Scoring::Imp {
                self.replay = Some(d.clone());
                (d, Some("Open"))
            } else {
                (d, None)
            }
        };
        let board = deal.board;
        let dealer = board_dealer(board);
        let vul = board_vulnerability(board);
        let ev = self.event.as_ref().unwrap();
        let scoring = ev.scoring;
        let names: [String; 4] = match room {
            // players[0..4] home team, [4..8] visitors; seats N, E, S, W
            Some("Open") => [0, 4, 1, 5].map(|i| ev.players[i].clone()),
            Some(_) => [6, 2, 7, 3].map(|i| ev.players[i].clone()),
            None => {
                let n = ev.players.len();
                let base = self.rng.below(n / 4) * 4;
                [0, 1, 2, 3].map(|i| ev.players[(base + i) % n].clone())
            }
        };
        let (event, site, date) = (ev.name.clone(), ev.site.clone(), ev.date.clone());
        let (home, visitors) = (ev.home, ev.visitors);
        let table = ev.table;

        let calls = self.auction(dealer, &deal);
        let contract = auction_contract(dealer, &calls);
        let played = contract.map(|c| self.play(&deal.hands, &c));

        // --- identification section
        let tag = |out: &mut String, name: &str, value: &str| {
            let _ = writeln!(out, "[{name} \"{value}\"]");
        };
        tag(out, "Event", &event);
        tag(out, "Site", &site);
        tag(out, "Date", &date);
        tag(out, "Board", &board.to_string());
        tag(out, "West", &names[3]);
        tag(out, "North", &names[0]);
        tag(out, "East", &names[1]);
        tag(out, "South", &names[2]);
        tag(out, "Dealer", &SEATS[dealer].to_string());
        tag(out, "Vulnerable", vul);
        let mut deal_str = format!("{}:", SEATS[dealer]);
        for k in 0..4 {
            if k > 0 {
                deal_str.push(' ');
            }
            let hand = &deal.hands[(dealer + k) % 4];
            for s in 0..4 {
                if s > 0 {
                    deal_str.push('.');
                }
                for &c in hand.iter().filter(|&&c| card_suit(c) == s) {
                    deal_str.push(RANKS[card_rank(c)]);
                }
            }
        }
        tag(out, "Deal", &deal_str);
        let solved = self.opts.solved_dd.then(|| solve(&deal_str, vul, dealer));
        let dd = solved.as_ref().map_or(deal.dd, |s| s.0);
        tag(
            out,
            "Scoring",
            if scoring == Scoring::Imp { "IMP" } else { "MP" },
        );
        match (&contract, &played) {
            (Some(c), Some((_, won))) => {
                tag(out, "Declarer", &SEATS[c.declarer].to_string());
                tag(out, "Contract", &c.text());
                tag(out, "Result", &won.to_string());
            }
            _ => {
                tag(out, "Declarer", "");
                tag(out, "Contract", "Pass");
                tag(out, "Result", "");
            }
        }
        // Supplemental tags, sorted by name.
        tag(
            out,
            "Competition",
            if scoring == Scoring::Imp {
                "Teams"
            } else {
                "Pairs"
            },
        );
        let mut ddt = String::with_capacity(20);
        for seat in [0, 2, 1, 3] {
            for denom in [4, 3, 2, 1, 0] {
                ddt.push(char::from_digit(dd[seat][denom] as u32, 16).unwrap());
            }
        }
        if self.opts.double_dummy_tag {
            tag(out, "DoubleDummyTricks", &ddt);
        }
        if scoring == Scoring::Imp {
            tag(out, "HomeTeam", home);
        }
        if let Some((_, score, contracts)) = &solved {
            tag(out, "OptimumScore", score);
            tag(out, "ParContract", contracts);
        }
        if let Some(r) = room {
            tag(out, "Room", r);
        }
        let ns_score = match (&contract, &played) {
            (Some(c), Some((_, won))) => {
                let s = duplicate_score(c, seat_vulnerable(vul, c.declarer), *won);
                if c.declarer % 2 == 0 {
                    s
                } else {
                    -s
                }
            }
            _ => 0,
        };
        tag(out, "Score", &format!("NS {ns_score}"));
        if scoring == Scoring::Mp {
            tag(out, "Table", &table.to_string());
        } else {
            tag(out, "VisitTeam", visitors);
        }
        if self.opts.comments && self.rng.chance(0.08) {
            let text = *self.rng.pick(GAME_COMMENTS);
            if self.rng.chance(0.5) {
                let _ = writeln!(out, "{{{text}}}");
            } else {
                let more = *self.rng.pick(GAME_COMMENTS);
                let _ = writeln!(out, "{{\n{text}\n{more}\n}}");
            }
        }

        // --- auction section
        let _ = writeln!(out, "[Auction \"{}\"]", SEATS[dealer]);
        let mut notes: Vec<&str> = Vec::new();
        for (row_i, row) in calls.chunks(4).enumerate() {
            let mut line = String::new();
            for (j, &call) in row.iter().enumerate() {
                if j > 0 {
                    line.push(' ');
                }
                line.push_str(&call.text());
                let p_note = match call {
                    Call::Bid(..) => 0.12,
                    Call::Double | Call::Redouble => 0.15,
                    Call::Pass => 0.01,
                };
                if notes.len() < 32 && self.rng.chance(p_note) {
                    notes.push(*self.rng.pick(AUCTION_NOTES));
                    let _ = write!(line, " ={}=", notes.len());
                }
                if self.opts.nags && self.rng.chance(0.04) {
                    let _ = write!(line, " ${}", self.rng.range(1, 6));
                }
                if self.opts.comments && self.rng.chance(0.04) {
                    let _ = write!(line, " {{{}}}", self.rng.pick(CALL_COMMENTS));
                }
            }
            let last_row = row_i == calls.len().div_ceil(4) - 1;
            if self.opts.comments && self.rng.chance(if last_row { 0.1 } else { 0.03 }) {
                let _ = write!(line, " ; {}", self.rng.pick(LINE_COMMENTS));
            }
            out.push_str(&line);
            out.push('\n');
        }
        for (i, n) in notes.iter().enumerate() {
            let _ = writeln!(out, "[Note \"{}:{}\"]", i + 1, n);
        }

        // --- play section
        if let (Some(c), Some((plays, _))) = (&contract, &played) {
            let lead = (c.declarer + 1) % 4;
            let _ = writeln!(out, "[Play \"{}\"]", SEATS[lead]);
            let mut notes: Vec<&str> = Vec::new();
            for (t, trick) in plays.iter().enumerate() {
                let mut line = String::new();
                for j in 0..4 {
                    if j > 0 {
                        line.push(' ');
                    }
                    line.push_str(&card_str(trick[(lead + j) % 4]));
                    let p_note = if t == 0 && j == 0 { 0.25 } else { 0.015 };
                    if notes.len() < 32 && self.rng.chance(p_note) {
                        notes.push(*self.rng.pick(PLAY_NOTES));
                        let _ = write!(line, " ={}=", notes.len());
                    }
                    if self.opts.nags && self.rng.chance(0.02) {
                        let _ = write!(line, " ${}", self.rng.range(7, 12));
                    }
                    if self.opts.comments && self.rng.chance(0.015) {
                        let _ = write!(line, " {{{}}}", self.rng.pick(CARD_COMMENTS));
                    }
                }
                if self.opts.comments && self.rng.chance(0.02) {
                    let _ = write!(line, " ; {}", self.rng.pick(LINE_COMMENTS));
                }
                out.push_str(&line);
                out.push('\n');
            }
            for (i, n) in notes.iter().enumerate() {
                let _ = writeln!(out, "[Note \"{}:{}\"]", i + 1, n);
            }
        }

        // --- supplemental sections, sorted by name
        out.push_str("[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\n");
        for seat in [0, 2, 1, 3] {
            for denom in [4, 3, 2, 1, 0] {
                let _ = writeln!(
                    out,
                    "{} {:>2} {:>2}",
                    SEATS[seat], DENOMS[denom], dd[seat][denom]
                );
            }
        }
        let p_table = if scoring == Scoring::Mp { 0.5 } else { 0.15 };
        if self.rng.chance(p_table) {
            self.score_table(
                out,
                vul,
                contract.as_ref().zip(played.as_ref().map(|p| p.1)),
            );
        }
    }

    /// A ScoreTable: this game's result plus a few other tables' results.
    fn score_table(&mut self, out: &mut String, vul: &str, this: Option<(&Contract, u8)>) {
        out.push_str(
            "[ScoreTable \"PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\5R;Score_EW\\5R\"]\n",
        );
        let rows = self.rng.range(3, 8);
        let mut pairs: Vec<usize> = (1..=2 * rows).collect();
        for i in (1..pairs.len()).rev() {
            let j = self.rng.below(i + 1);
            pairs.swap(i, j);
        }
        for r in 0..rows {
            let result = if r == 0 {
                this.map(|(c, t)| (*c, t))
            } else if self.rng.chance(0.03) {
                None
            } else {
                let level = *self.rng.pick(&[1u8, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 6, 7]);
                let denom = self.rng.below(5) as u8;
                let risk = if self.rng.chance(0.1) {
                    1
                } else if self.rng.chance(0.02) {
                    2
                } else {
                    0
                };
                let declarer = self.rng.below(4);
                let delta = *self.rng.pick(&[-3i32, -2, -1, -1, 0, 0, 0, 0, 1, 1, 2]);
                let tricks = (level as i32 + 6 + delta).clamp(0, 13) as u8;
                Some((
                    Contract {
                        level,
                        denom,
                        risk,
                        declarer,
                    },
                    tricks,
                ))
            };
            let (ns, ew) = (pairs[2 * r], pairs[2 * r + 1]);
            let _ = match result {
                Some((c, tricks)) => {
                    let s = duplicate_score(&c, seat_vulnerable(vul, c.declarer), tricks);
                    let ns_score = if c.declarer % 2 == 0 { s } else { -s };
                    let (sns, sew) = if ns_score >= 0 {
                        (ns_score.to_string(), "-".to_string())
                    } else {
                        ("-".to_string(), (-ns_score).to_string())
                    };
                    writeln!(
                        out,
                        "{ns:>2} {ew:>2} {:<4} {} {tricks:>2} {sns:>5} {sew:>5}",
                        c.text(),
                        SEATS[c.declarer]
                    )
                }
                None => writeln!(
                    out,
                    "{ns:>2} {ew:>2} Pass - {:>2} {:>5} {:>5}",
                    "-", "0", "-"
                ),
            };
        }
    }
}

// ---------------------------------------------------------------------------
// Tests

#[cfg(test)]
mod tests {
    use super::*;

    // An independent, minimal reader of the generated text: tags and the
    // words between them, with comments removed. It checks the output rather
    // than the generator's internal state.

    #[derive(Debug, Clone, PartialEq)]
    enum Tok {
        Tag(String, String),
        Word(String),
    }

    fn tokenize(game: &str) -> Vec<Tok> {
        let b = game.as_bytes();
        let mut i = 0;
        let mut toks = Vec::new();
        while i < b.len() {
            match b[i] {
                b'{' => {
                    let end = game[i..].find('}').expect("unterminated comment");
                    i += end + 1;
                }
                b';' => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'[' => {
                    let end = game[i..].find("\"]").expect("tag end") + i;
                    let inner = &game[i + 1..end];
                    let (name, value) = inner.split_once(" \"").expect("tag value");
                    assert!(!value.contains('"'), "quote in value: {inner}");
                    toks.push(Tok::Tag(name.to_string(), value.to_string()));
                    i = end + 2;
                    assert!(i >= b.len() || b[i] == b'\n', "tag not alone on its line");
                }
                c if c.is_ascii_whitespace() => i += 1,
                _ => {
                    let start = i;
                    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'{' && b[i] != b';'
                    {
                        i += 1;
                    }
                    toks.push(Tok::Word(game[start..i].to_string()));
                }
            }
        }
        toks
    }

    fn seat_of(s: &str) -> usize {
        SEATS
            .iter()
            .position(|&c| c.to_string() == s)
            .unwrap_or_else(|| panic!("seat {s}"))
    }

    fn parse_call(w: &str) -> Call {
        match w {
            "Pass" => Call::Pass,
            "X" => Call::Double,
            "XX" => Call::Redouble,
            _ => {
                let level = w[..1].parse::<u8>().unwrap();
                let d = DENOMS
                    .iter()
                    .position(|&d| d == &w[1..])
                    .unwrap_or_else(|| panic!("call {w}"));
                Call::Bid(level, d as u8)
            }
        }
    }

    fn parse_card(w: &str) -> Card {
        let b = w.as_bytes();
        assert_eq!(b.len(), 2, "card {w}");
        let s = SUITS.iter().position(|&c| c as u8 == b[0]).unwrap();
        let r = RANKS.iter().position(|&c| c as u8 == b[1]).unwrap();
        (s * 13 + r) as Card
    }

    /// Splits off annotations; checks note refs point at notes and NAG ranges.
    fn items(words: &[String], nag_range: (u32, u32), notes: usize) -> Vec<String> {
        let mut out = Vec::new();
        for w in words {
            if let Some(n) = w.strip_prefix('=') {
                let n: usize = n.strip_suffix('=').unwrap().parse().unwrap();
                assert!(
                    (1..=notes).contains(&n),
                    "note ref {w} without note ({notes})"
                );
                assert!(!out.is_empty());
            } else if let Some(n) = w.strip_prefix('$') {
                let n: u32 = n.parse().unwrap();
                assert!(
                    (nag_range.0..=nag_range.1).contains(&n),
                    "NAG {w} out of range"
                );
            } else {
                out.push(w.clone());
            }
        }
        out
    }

    use pbn_core::spec::tags::MANDATORY;

    #[derive(Default, Debug)]
    struct Stats {
        games: usize,
        passed_out: usize,
        notes: usize,
    }

    /// Checks one game; panics with a message on any violation.
    #[allow(clippy::needless_range_loop)]
    fn check_game(game: &str, stats: &mut Stats) {
        let toks = tokenize(game);
        let tags: Vec<(String, String)> = toks
            .iter()
            .filter_map(|t| match t {
                Tok::Tag(n, v) => Some((n.clone(), v.clone())),
                _ => None,
            })
            .collect();
        let names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(&names[..15], &MANDATORY, "mandatory tags in order");
        let get = |n: &str| {
            tags.iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
                .unwrap()
        };

        // Date
        let date = get("Date").as_bytes();
        assert!(date.len() == 10 && date[4] == b'.' && date[7] == b'.');
        // Board rotation
        let board: u32 = get("Board").parse().unwrap();
        assert!(board >= 1);
        let dealer = seat_of(get("Dealer"));
        assert_eq!(dealer, board_dealer(board));
        assert_eq!(get("Vulnerable"), board_vulnerability(board));
        let vul = get("Vulnerable");

        // Deal: dealer first, 52 distinct cards, descending ranks.
        let deal = get("Deal");
        let (first, rest) = deal.split_once(':').unwrap();
        assert_eq!(seat_of(first), dealer, "Deal starts with the dealer");
        let mut hands: [Vec<Card>; 4] = Default::default();
        let mut seen = [false; 52];
        let hand_strs: Vec<&str> = rest.split(' ').collect();
        assert_eq!(hand_strs.len(), 4);
        for (k, h) in hand_strs.iter().enumerate() {
            let seat = (dealer + k) % 4;
            let suits: Vec<&str> = h.split('.').collect();
            assert_eq!(suits.len(), 4);
            for (s, ranks) in suits.iter().enumerate() {
                let mut prev = None;
                for ch in ranks.chars() {
                    let r = RANKS.iter().position(|&x| x == ch).unwrap();
                    assert!(prev.is_none_or(|p| r > p), "ranks descending in {h}");
                    prev = Some(r);
                    let c = (s * 13 + r) as Card;
                    assert!(!seen[c as usize], "duplicate card");
                    seen[c as usize] = true;
                    hands[seat].push(c);
                }
            }
            assert_eq!(hands[seat].len(), 13);
        }
        assert!(seen.iter().all(|&x| x), "52 distinct cards");
        assert!(["IMP", "MP"].contains(&get("Scoring")));

        // Supplemental tags sorted, before the auction.
        let auction_pos = names.iter().position(|&n| n == "Auction").expect("auction");
        let supp = &names[15..auction_pos];
        assert!(
            supp.windows(2).all(|w| w[0] < w[1]),
            "supplemental tags sorted: {supp:?}"
        );

        // Sections: words after each section tag.
        let mut section_words: Vec<(String, Vec<String>)> = Vec::new();
        for t in &toks {
            match t {
                Tok::Tag(n, _) => section_words.push((n.clone(), Vec::new())),
                Tok::Word(w) => section_words
                    .last_mut()
                    .expect("word before tag")
                    .1
                    .push(w.clone()),
            }
        }
        let words_of = |n: &str| {
            section_words
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, w)| w.clone())
        };
        // Notes following a section tag until the next non-Note tag.
        let notes_after = |sec: &str| -> usize {
            let p = names.iter().position(|&n| n == sec).unwrap();
            let mut k = 0;
            while p + 1 + k < names.len() && names[p + 1 + k] == "Note" {
                let v = &tags[p + 1 + k].1;
                let (idx, _) = v.split_once(':').unwrap();
                assert_eq!(idx.parse::<usize>().unwrap(), k + 1, "notes numbered 1..");
                k += 1;
            }
            k
        };

        // Auction
        assert_eq!(
            seat_of(get("Auction")),
            dealer,
            "auction starts with the dealer"
        );
        let n_auction_notes = notes_after("Auction");
        stats.notes += n_auction_notes;
        let calls: Vec<Call> = items(&words_of("Auction").unwrap(), (1, 6), n_auction_notes)
            .iter()
            .map(|w| parse_call(w))
            .collect();
        // Ends: 4 passes, or a bid and 3 passes.
        let n = calls.len();
        assert!(n >= 4 && calls[n - 3..].iter().all(|&c| c == Call::Pass));
        let contract = auction_contract(dealer, &calls); // panics if illegal
        if contract.is_none() {
            assert_eq!(calls, vec![Call::Pass; 4]);
        } else {
            assert!(calls[..n - 3].iter().any(|&c| c != Call::Pass));
            assert!(
                !calls[n - 4..].iter().all(|&c| c == Call::Pass),
                "no extra pass"
            );
        }
        // The auction lines hold 4 calls each.
        stats.games += 1;
        let score: i32 = get("Score").strip_prefix("NS ").unwrap().parse().unwrap();
        let Some(c) = contract else {
            stats.passed_out += 1;
            assert_eq!(get("Contract"), "Pass");
            assert_eq!(get("Declarer"), "");
            assert_eq!(get("Result"), "");
            assert!(!names.contains(&"Play"));
            assert_eq!(score, 0);
            return;
        };
        assert_eq!(get("Contract"), c.text());
        assert_eq!(seat_of(get("Declarer")), c.declarer);

        // Play: opening leader, 13 tricks in seat columns, follow suit.
        let lead = seat_of(get("Play"));
        assert_eq!(
            lead,
            (c.declarer + 1) % 4,
            "opening leader is declarer's LHO"
        );
        let n_play_notes = notes_after("Play");
        stats.notes += n_play_notes;
        let cards: Vec<Card> = items(&words_of("Play").unwrap(), (7, 12), n_play_notes)
            .iter()
            .map(|w| parse_card(w))
            .collect();
        assert_eq!(cards.len(), 52, "13 tricks");
        let trump = denom_trump(c.denom as usize);
        let mut leader = lead;
        let mut won = 0;
        for t in 0..13 {
            // Column j of a play line is the card of seat (lead + j) % 4.
            let by_seat = &cards[t * 4..t * 4 + 4];
            let card_of = |seat: usize| by_seat[(seat + 4 - lead) % 4];
            let order: [Card; 4] = [0, 1, 2, 3].map(|i| card_of((leader + i) % 4));
            let led = card_suit(order[0]);
            for i in 0..4 {
                let seat = (leader + i) % 4;
                let card = order[i];
                let pos = hands[seat]
                    .iter()
                    .position(|&x| x == card)
                    .expect("card from own hand");
                if card_suit(card) != led {
                    assert!(
                        hands[seat].iter().all(|&x| card_suit(x) != led),
                        "revoke at trick {}",
                        t + 1
                    );
                }
                hands[seat].remove(pos);
            }
            leader = trick_winner(leader, &order, trump);
            if leader % 2 == c.declarer % 2 {
                won += 1;
            }
        }
        let result: u8 = get("Result").parse().unwrap();
        assert!(result <= 13);
        assert_eq!(result, won, "Result = tricks won by declarer");
        let s = duplicate_score(&c, seat_vulnerable(vul, c.declarer), result);
        assert_eq!(score, if c.declarer % 2 == 0 { s } else { -s }, "Score tag");

        // OptimumResultTable: 20 rows of 3 elements.
        let ort = words_of("OptimumResultTable").expect("OptimumResultTable");
        assert_eq!(ort.len(), 60);
        for row in ort.chunks(3) {
            assert!(row[2].parse::<u8>().unwrap() <= 13);
        }
        if let Some(st) = words_of("ScoreTable") {
            assert_eq!(st.len() % 7, 0);
        }
    }

    fn games_of(text: &str) -> Vec<&str> {
        let body = text.strip_prefix("% PBN 2.1\n% EXPORT\n").expect("header");
        let games: Vec<&str> = body.split("\n\n").collect();
        for g in &games {
            assert!(g.starts_with("[Event "), "game starts with Event: {g:.40}");
        }
        games
    }

    #[test]
    fn deterministic() {
        let o = GenOptions::default();
        let a = generate(300, 42, &o);
        assert_eq!(a, generate(300, 42, &o));
        assert_ne!(a, generate(300, 43, &o));
        // A prefix of a longer run is the same games.
        let b = generate(301, 42, &o);
        assert!(b.starts_with(&a));
    }

    #[test]
    fn games_are_legal_bridge() {
        for seed in [1u64, 2, 3, 0xDEAD_BEEF] {
            let text = generate(500, seed, &GenOptions::default());
            let games = games_of(&text);
            assert_eq!(games.len(), 500);
            let mut stats = Stats::default();
            for g in &games {
                check_game(g, &mut stats);
            }
            assert!(stats.passed_out > 0 && stats.passed_out < 60, "{stats:?}");
            assert!(stats.notes > 0);
        }
    }

    #[test]
    fn features_present_and_switchable() {
        let with = generate(300, 7, &GenOptions::default());
        assert!(with.contains(" $") && with.contains('{') && with.contains(" ; "));
        assert!(
            with.contains("[Note \"")
                && with.contains("[ScoreTable ")
                && with.contains("[Room \"Closed\"]")
        );
        assert!(with.contains("[Contract \"Pass\"]"));

        let no_nags = generate(
            300,
            7,
            &GenOptions {
                nags: false,
                ..GenOptions::default()
            },
        );
        assert!(!no_nags.contains('$'));
        assert!(no_nags.contains('{'));

        let plain = generate(300, 7, &GenOptions::endplay_compatible());
        assert!(!plain.contains('$') && !plain.contains('{') && !plain.contains(" ; "));
        for g in games_of(&plain) {
            check_game(g, &mut Stats::default());
        }

        let crlf = generate(
            300,
            7,
            &GenOptions {
                line_ending: LineEnding::CrLf,
                ..GenOptions::default()
            },
        );
        assert_eq!(crlf.replace("\r\n", "\n"), with);
        assert!(!crlf.replace("\r\n", "").contains('\n'));
    }

    #[test]
    fn lines_are_reasonable() {
        let text = generate(500, 11, &GenOptions::default());
        for line in text.lines() {
            assert!(line.len() < 255, "line too long: {line}");
            assert!(!line.contains('\t'));
        }
    }

    #[test]
    fn scores() {
        let c = |level, denom, risk| Contract {
            level,
            denom,
            risk,
            declarer: 0,
        };
        assert_eq!(duplicate_score(&c(4, 3, 0), false, 10), 420);
        assert_eq!(duplicate_score(&c(4, 3, 0), false, 11), 450);
        assert_eq!(duplicate_score(&c(3, 4, 0), true, 9), 600);
        assert_eq!(duplicate_score(&c(1, 4, 0), false, 7), 90);
        assert_eq!(duplicate_score(&c(2, 0, 0), false, 9), 110);
        assert_eq!(duplicate_score(&c(4, 3, 1), true, 7), -800);
        assert_eq!(duplicate_score(&c(2, 2, 1), false, 8), 470);
        assert_eq!(duplicate_score(&c(1, 4, 2), false, 7), 560);
        assert_eq!(duplicate_score(&c(7, 4, 0), true, 13), 2220);
        assert_eq!(duplicate_score(&c(3, 4, 1), false, 5), -800);
        assert_eq!(duplicate_score(&c(3, 4, 2), false, 5), -1600);
        assert_eq!(duplicate_score(&c(5, 1, 1), true, 12), 750 + 200);
        assert_eq!(duplicate_score(&c(6, 2, 0), false, 12), 980);
        assert_eq!(duplicate_score(&c(6, 2, 0), true, 13), 1460);
        assert_eq!(duplicate_score(&c(3, 2, 0), true, 7), -200);
        assert_eq!(duplicate_score(&c(1, 0, 1), false, 9), 140 + 200);
    }

    #[test]
    fn board_rotation() {
        let dealers: String = (1..=8).map(|b| SEATS[board_dealer(b)]).collect();
        assert_eq!(dealers, "NESWNESW");
        assert_eq!(board_vulnerability(1), "None");
        assert_eq!(board_vulnerability(4), "All");
        assert_eq!(board_vulnerability(16), "EW");
        assert_eq!(board_vulnerability(17), "None");
    }

    fn ts_parse(text: &str) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_pbn::LANGUAGE.into())
            .unwrap();
        parser.parse(text, None).unwrap()
    }

    #[test]
    fn tree_sitter_parses_without_errors() {
        for opts in [
            GenOptions::default(),
            GenOptions::endplay_compatible(),
            GenOptions {
                line_ending: LineEnding::CrLf,
                ..GenOptions::default()
            },
        ] {
            let text = generate(200, 2024, &opts);
            let tree = ts_parse(&text);
            let root = tree.root_node();
            assert!(!root.has_error(), "{opts:?}: {}", first_error(root, &text));
            let games = (0..root.named_child_count())
                .filter(|&i| root.named_child(i as _).unwrap().kind() == "game")
                .count();
            assert_eq!(games, 200, "{opts:?}");
        }
    }

    fn first_error(node: tree_sitter::Node, text: &str) -> String {
        let mut cursor = node.walk();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if n.is_error() || n.is_missing() {
                let s = n.start_byte().saturating_sub(80);
                return format!(
                    "{} at {:?}: ...{}",
                    n.kind(),
                    n.start_position(),
                    &text[s..n.end_byte().min(text.len())]
                );
            }
            stack.extend(
                n.children(&mut cursor)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            );
        }
        String::from("(no error node)")
    }
}
