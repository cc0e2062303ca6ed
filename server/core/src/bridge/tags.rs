//! Consistency of the Declarer, Contract and Result tags with the auction
//! and the play (PBN0901-PBN0904).
//!
//! - [`compare_contract`]: when the auction is complete, the Contract tag
//!   must be its last bid with its risk (or "Pass" when passed out), and the
//!   Declarer tag its declarer (empty when passed out). `^X` names the
//!   irregular declarer after declarer and dummy were swapped (§3.4.13), so
//!   X must be the partner of the auction's declarer. An empty Contract tag
//!   (a value that is not given, §3.4) is not compared; an empty Declarer tag
//!   says "all passed" (§3.4.13) but is only reported next to a real Contract
//!   tag (teaching files leave both empty). When the Contract tag says "Pass" for an
//!   auction with a contract only that is reported (the Declarer tag then
//!   agrees with the wrong Contract tag, not with nothing).
//! - [`compare_result`]: the Result tag against the tricks of the play. A
//!   finished play (13 tricks, or `*`) gives bounds: the tricks already won
//!   plus the side's sure tricks, up to everything except the opponents'
//!   tricks and sure tricks (sure tricks are top trumps, which always win;
//!   see [`PlayAnalysis::sure_tricks`]). With all cards known the bounds are
//!   the exact count. A Result outside the bounds is PBN0903 unless marked
//!   `^` ("differs from the actual number", §3.4.15); a `^` Result equal to a
//!   known exact count is PBN0904. A play that has not ended may carry a
//!   partial result (the completed tricks, §3.4.15) or, in practice, the
//!   final one; either is accepted. (Whether "NS n EW m" adds up to 13 is a
//!   property of the value alone: RESULT_SUM_* in `codes/values.rs`.) End
//!   positions are not compared: whether
//!   their Result counts the whole deal or the end position is not defined.

use super::auction::{AuctionAnalysis, FinalContract};
use super::play::PlayAnalysis;
use super::{contract_text, seat_name, strain_text};
use crate::codes::bridge as codes;
use crate::codes::CodeInfo;
use contract_bridge::{Contract, Penalty, Seat};

/// The Declarer tag's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarerTag {
    /// `""`: all four players passed.
    Empty,
    /// `"S"`.
    Seat(Seat),
    /// `"^S"`: declarer and dummy swapped; South is the irregular declarer
    /// who plays the hand (the auction's declarer is North).
    Swapped(Seat),
}

impl DeclarerTag {
    /// The seat that plays the hand (what [`super::analyze_play`] wants).
    pub fn playing_seat(self) -> Option<Seat> {
        match self {
            DeclarerTag::Empty => None,
            DeclarerTag::Seat(s) | DeclarerTag::Swapped(s) => Some(s),
        }
    }

    /// The declarer according to the auction.
    pub fn auction_declarer(self) -> Option<Seat> {
        match self {
            DeclarerTag::Empty => None,
            DeclarerTag::Seat(s) => Some(s),
            DeclarerTag::Swapped(s) => Some(s.partner()),
        }
    }
}

/// The Contract tag's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContractTag {
    /// `""`: not given.
    Empty,
    /// `"Pass"`: all four players passed.
    Pass,
    Contract(Contract),
}

/// The numbers of the Result tag (§3.4.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultForm {
    /// `"<result>"`: tricks won by declarer.
    Declarer(u8),
    /// `"NS <result>"`.
    Ns(u8),
    /// `"EW <result>"`.
    Ew(u8),
    /// `"NS <result> EW <result>"` or `"EW <result> NS <result>"`.
    NsEw { ns: u8, ew: u8 },
}

/// The Result tag's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultTag {
    /// A leading `^`: the result differs from the actual number of tricks.
    pub differs: bool,
    pub form: ResultForm,
}

/// A tag that disagrees with the auction or the play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagMismatch {
    pub code: &'static CodeInfo,
    /// "Declarer", "Contract" or "Result": the tag to flag.
    pub tag: &'static str,
    /// Names the rule and its section.
    pub message: String,
}

fn mismatch(code: &'static CodeInfo, tag: &'static str, message: String) -> TagMismatch {
    TagMismatch { code, tag, message }
}

fn risk_text(p: Penalty) -> &'static str {
    match p {
        Penalty::Undoubled => "undoubled",
        Penalty::Doubled => "doubled (X)",
        Penalty::Redoubled => "redoubled (XX)",
    }
}

/// The passes a program left out before the auction's first call (it
/// starts the auction at the opening bid): `k`, 1 to 3, when the auction
/// as written names another declarer than the Declarer tag, its first call
/// is a bid by the dealer's seat, and with `k` passes before that bid, for
/// one `k` only, declarer and contract are the tags'. `as_given`: the
/// auction's analysis as written.
pub fn left_out_passes(
    as_given: &AuctionAnalysis,
    dealer: Option<Seat>,
    first: Seat,
    items: &[super::auction::AuctionItem],
    declarer: Option<DeclarerTag>,
    contract: Option<ContractTag>,
) -> Option<usize> {
    use super::auction::{analyze_auction, AuctionItem, CallToken};
    let as_given_issues = as_given.issues.total();
    if dealer.is_some_and(|d| d != first)
        || !matches!(items.first()?.token, CallToken::Bid(_))
        || declarer?.auction_declarer().is_none()
    {
        return None;
    }
    if !compare_contract(as_given, declarer, contract)
        .iter()
        .any(|m| std::ptr::eq(m.code, &codes::DECLARER_MISMATCH))
    {
        return None;
    }
    let mut fits = (1..4).filter(|&k| {
        let mut with = vec![AuctionItem::new(CallToken::Pass); k];
        with.extend_from_slice(items);
        let a = analyze_auction(dealer, first, &with);
        a.issues.total() <= as_given_issues && compare_contract(&a, declarer, contract).is_empty()
    });
    let k = fits.next()?;
    fits.next().is_none().then_some(k)
}

/// Compares the Declarer and Contract tags (`None` = tag absent or unknown
/// `"?"`) with a complete auction. Returns nothing when the auction is not
/// complete (ended by `*`, to be continued, or broken off).
pub fn compare_contract(
    auction: &AuctionAnalysis,
    declarer: Option<DeclarerTag>,
    contract: Option<ContractTag>,
) -> Vec<TagMismatch> {
    let mut out = Vec::new();
    let Some(outcome) = auction.contract else {
        return out;
    };
    match outcome {
        FinalContract::PassedOut => {
            if let Some(ContractTag::Contract(c)) = contract {
                out.push(mismatch(
                    &codes::CONTRACT_MISMATCH,
                    "Contract",
                    format!(
                        "the Contract tag says {}, but all four players passed: the value is \
                         \"Pass\" (§3.4.14)",
                        contract_text(c)
                    ),
                ));
            }
            if let Some(tag @ (DeclarerTag::Seat(_) | DeclarerTag::Swapped(_))) = declarer {
                let s = tag.playing_seat().expect("a seat");
                out.push(mismatch(
                    &codes::DECLARER_MISMATCH,
                    "Declarer",
                    format!(
                        "the Declarer tag names {}, but all four players passed: the value is \
                         empty (§3.4.13)",
                        seat_name(s)
                    ),
                ));
            }
        }
        FinalContract::Contract {
            contract: real,
            declarer: d,
        } => {
            let real_text = contract_text(real);
            let mut contract_says_pass = false;
            match contract {
                Some(ContractTag::Pass) => {
                    contract_says_pass = true;
                    out.push(mismatch(
                        &codes::CONTRACT_MISMATCH,
                        "Contract",
                        format!(
                            "the Contract tag says Pass, but the auction ends in {real_text} by {} \
                             (§3.4.14)",
                            seat_name(d)
                        ),
                    ));
                }
                Some(ContractTag::Contract(c)) if c != real => {
                    let mut parts = Vec::new();
                    if c.bid.level != real.bid.level {
                        parts.push(format!(
                            "level {} instead of {}",
                            c.bid.level.get(),
                            real.bid.level.get()
                        ));
                    }
                    if c.bid.strain != real.bid.strain {
                        parts.push(format!(
                            "denomination {} instead of {}",
                            strain_text(c.bid.strain),
                            strain_text(real.bid.strain)
                        ));
                    }
                    if c.penalty != real.penalty {
                        parts.push(format!(
                            "{} instead of {}",
                            risk_text(c.penalty),
                            risk_text(real.penalty)
                        ));
                    }
                    out.push(mismatch(
                        &codes::CONTRACT_MISMATCH,
                        "Contract",
                        format!(
                            "the Contract tag says {}, but the auction ends in {real_text}: {} \
                             (§3.4.14)",
                            contract_text(c),
                            parts.join(", ")
                        ),
                    ));
                }
                _ => {}
            }
            if !contract_says_pass {
                let why = format!(
                    "the first of {} to bid {} in the auction",
                    super::side_name(d),
                    strain_text(real.bid.strain)
                );
                match declarer {
                    Some(DeclarerTag::Seat(s)) if s != d => out.push(mismatch(
                        &codes::DECLARER_MISMATCH,
                        "Declarer",
                        format!(
                            "the Declarer tag names {}, but the declarer of {real_text} is {}, {why} \
                             (§3.4.13)",
                            seat_name(s),
                            seat_name(d)
                        ),
                    )),
                    Some(DeclarerTag::Swapped(s)) if s != d.partner() => out.push(mismatch(
                        &codes::DECLARER_MISMATCH,
                        "Declarer",
                        format!(
                            "`^{}` names the irregular declarer after declarer and dummy were \
                             swapped, who is the partner of the declarer; the declarer of \
                             {real_text} is {} ({why}), so the value is \"^{}\" (§3.4.13)",
                            s.letter(),
                            seat_name(d),
                            d.partner().letter()
                        ),
                    )),
                    // Empty means "all passed" (§3.4.13) but also "not
                    // appropriate here" (§3.4, e.g. teaching files that give
                    // only the auction): only a real Contract tag makes it
                    // contradict the auction.
                    Some(DeclarerTag::Empty) if matches!(contract, Some(ContractTag::Contract(_))) => out.push(mismatch(
                        &codes::DECLARER_MISMATCH,
                        "Declarer",
                        format!(
                            "the Declarer tag is empty, which means all four players passed, but \
                             the auction ends in {real_text} by {} (§3.4.13)",
                            seat_name(d)
                        ),
                    )),
                    _ => {}
                }
            }
        }
    }
    out
}

/// Compares the Result tag with the play. `declarer` is the declarer's
/// seat (either of the Declarer tag's seats: only its side matters).
pub fn compare_result(play: &PlayAnalysis, result: &ResultTag, declarer: Seat) -> Vec<TagMismatch> {
    let mut out = Vec::new();
    if play.end_position {
        return out;
    }
    let claims: Vec<(Seat, u8, &str)> = match result.form {
        ResultForm::Declarer(n) => vec![(declarer, n, "declarer's side")],
        ResultForm::Ns(n) => vec![(Seat::North, n, "North-South")],
        ResultForm::Ew(n) => vec![(Seat::East, n, "East-West")],
        ResultForm::NsEw { ns, ew } => {
            vec![
                (Seat::North, ns, "North-South"),
                (Seat::East, ew, "East-West"),
            ]
        }
    };
    let caret = if result.differs { "^" } else { "" };
    for (seat, n, who) in claims {
        let (lo, hi) = play.final_bounds(seat);
        let won = play.side_tricks(seat);
        let fits_final = lo <= n && n <= hi;
        if play.complete {
            if !result.differs && !fits_final {
                let why = if lo == hi {
                    format!("the play gives {who} {lo} tricks")
                } else {
                    let opp = 1 - (seat as usize % 2);
                    let sure = play.sure_tricks[opp];
                    let mut why = format!(
                        "{who} can end with {lo} to {hi} tricks: {won} won in the {} tricks played",
                        play.played_tricks()
                    );
                    if sure > 0 {
                        why.push_str(&format!(", and the opponents' top trumps win {sure} more"));
                    }
                    why
                };
                out.push(mismatch(
                    &codes::RESULT_MISMATCH,
                    "Result",
                    format!(
                        "the Result gives {who} {n} tricks, but {why}; the Result must match the \
                         tricks won, or be marked `^` when the players agreed on a wrong number \
                         (§3.4.15)"
                    ),
                ));
            } else if result.differs && lo == hi && n == lo {
                out.push(mismatch(
                    &codes::RESULT_CARET_BUT_EQUAL,
                    "Result",
                    format!(
                        "`{caret}{n}` says the Result differs from the tricks won, but {who} won \
                         exactly {n} (§3.4.15)"
                    ),
                ));
            }
        } else {
            let fits_partial = won <= n && n <= won + play.unknown_tricks;
            if !result.differs && !fits_partial && !fits_final {
                out.push(mismatch(
                    &codes::RESULT_MISMATCH,
                    "Result",
                    format!(
                        "the Result gives {who} {n} tricks, but {who} won {won} of the {} tricks \
                         played so far and can end with {lo} to {hi} (§3.4.15)",
                        play.played_tricks()
                    ),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::auction::tests::run as auction;
    use crate::bridge::play::tests::{run as play, SCHIPHOL};
    use crate::codes::bridge as c;
    use contract_bridge::Suit;
    use Seat::*;

    fn ct(s: &str) -> Option<ContractTag> {
        Some(match s {
            "" => ContractTag::Empty,
            "Pass" => ContractTag::Pass,
            c => ContractTag::Contract(c.parse().unwrap()),
        })
    }

    fn dt(s: &str) -> Option<DeclarerTag> {
        Some(match s.strip_prefix('^') {
            _ if s.is_empty() => DeclarerTag::Empty,
            Some(seat) => DeclarerTag::Swapped(seat.parse().unwrap()),
            None => DeclarerTag::Seat(s.parse().unwrap()),
        })
    }

    fn codes(m: &[TagMismatch]) -> Vec<(&'static str, &'static str)> {
        m.iter().map(|m| (m.tag, m.code.code)).collect()
    }

    #[test]
    fn declarer() {
        let a = auction(South, South, "1C AP");
        assert!(compare_contract(&a, dt("S"), ct("1C")).is_empty());
        // correct_10 game 18: declarer and dummy swapped.
        assert!(compare_contract(&a, dt("^N"), ct("1C")).is_empty());
        for bad in ["N", "W", "^S", "^E", ""] {
            let m = compare_contract(&a, dt(bad), ct("1C"));
            assert_eq!(
                codes(&m),
                vec![("Declarer", c::DECLARER_MISMATCH.code)],
                "{bad}"
            );
        }
        let m = compare_contract(&a, dt("^S"), ct("1C"));
        assert!(m[0].message.contains("\"^N\""), "{}", m[0].message);
        // Absent tags are not compared, nor both empty (not given, §3.4).
        assert!(compare_contract(&a, None, None).is_empty());
        assert!(compare_contract(&a, dt(""), ct("")).is_empty());
        assert!(compare_contract(&a, dt(""), None).is_empty());
        // The first of the side to bid the strain declares.
        let a = auction(North, North, "1H Pass 2H Pass 4H AP");
        assert!(compare_contract(&a, dt("N"), ct("4H")).is_empty());
        assert_eq!(codes(&compare_contract(&a, dt("S"), ct("4H"))).len(), 1);
    }

    #[test]
    fn contract() {
        let a = auction(South, South, "1C AP");
        for bad in ["1D", "2C", "1CX", "Pass"] {
            let m = compare_contract(&a, dt("S"), ct(bad));
            assert_eq!(
                codes(&m),
                vec![("Contract", c::CONTRACT_MISMATCH.code)],
                "{bad}"
            );
        }
        let m = compare_contract(&a, dt("S"), ct("1D"));
        assert!(
            m[0].message.contains("denomination D instead of C"),
            "{}",
            m[0].message
        );
        // Pass with an empty Declarer: only the contract is reported.
        let m = compare_contract(&a, dt(""), ct("Pass"));
        assert_eq!(codes(&m), vec![("Contract", c::CONTRACT_MISMATCH.code)]);
        // Empty Contract is not compared.
        assert!(compare_contract(&a, dt("S"), ct("")).is_empty());
        let a = auction(South, South, "1C X AP");
        let m = compare_contract(&a, dt("S"), ct("1C"));
        assert_eq!(codes(&m), vec![("Contract", c::CONTRACT_MISMATCH.code)]);
        assert!(
            m[0].message.contains("undoubled instead of doubled"),
            "{}",
            m[0].message
        );
        assert!(compare_contract(&a, dt("S"), ct("1CX")).is_empty());
    }

    #[test]
    fn passed_out_and_incomplete() {
        let a = auction(South, South, "AP");
        assert!(compare_contract(&a, dt(""), ct("Pass")).is_empty());
        assert!(compare_contract(&a, None, ct("Pass")).is_empty());
        assert_eq!(
            codes(&compare_contract(&a, dt("S"), ct("1C"))),
            vec![
                ("Contract", c::CONTRACT_MISMATCH.code),
                ("Declarer", c::DECLARER_MISMATCH.code)
            ]
        );
        // `*`: the tags give the outcome; nothing to compare.
        let a = auction(South, South, "1C Pass *");
        assert!(compare_contract(&a, dt("N"), ct("7NT")).is_empty());
    }

    fn r(differs: bool, form: ResultForm) -> ResultTag {
        ResultTag { differs, form }
    }

    const SIX_TRICKS: &str = "SK H3 S4 S3 C5 C2 C6 CK S2 H6 S5 S7 C8 CA CT C4 \
                              D2 DA DT D3 D4 DK H5 H7 - - - H2 *";

    #[test]
    fn result_after_a_claim() {
        let p = play(SCHIPHOL, Some(Suit::Hearts), South, West, SIX_TRICKS);
        use ResultForm::*;
        // NS won 6 tricks; EW hold HA and HK-HQ: 6..=11 for NS.
        for ok in [6, 9, 11] {
            assert!(
                compare_result(&p, &r(false, Declarer(ok)), South).is_empty(),
                "{ok}"
            );
        }
        for bad in [4, 5, 12, 13] {
            let m = compare_result(&p, &r(false, Declarer(bad)), South);
            assert_eq!(
                codes(&m),
                vec![("Result", c::RESULT_MISMATCH.code)],
                "{bad}"
            );
        }
        // ^ accepts any value that is not surely the actual one.
        assert!(compare_result(&p, &r(true, Declarer(5)), South).is_empty());
        assert!(compare_result(&p, &r(true, Declarer(9)), South).is_empty());
        // Sides.
        assert!(compare_result(&p, &r(false, NsEw { ns: 9, ew: 4 }), South).is_empty());
        assert!(compare_result(&p, &r(false, Ew(4)), South).is_empty());
        let m = compare_result(&p, &r(false, NsEw { ns: 9, ew: 0 }), South);
        assert_eq!(codes(&m), vec![("Result", c::RESULT_MISMATCH.code)]);
        // errors_10 game 59 ("NS 9 EW 2"): each side within its bounds; the
        // sum is the value parser's RESULT_SUM_UNDER_13.
        assert!(compare_result(&p, &r(false, NsEw { ns: 9, ew: 2 }), South).is_empty());
        let m = compare_result(&p, &r(false, Ns(5)), East);
        assert_eq!(codes(&m), vec![("Result", c::RESULT_MISMATCH.code)]);
        // Declarer on the other side.
        assert!(compare_result(&p, &r(false, Declarer(2)), East).is_empty());
    }

    #[test]
    fn result_exact() {
        use ResultForm::*;
        // West holds every trump: declarer North (7S!) takes no trick.
        let flushes = crate::bridge::play::tests::FLUSHES;
        let p = play(flushes, Some(Suit::Spades), North, East, "*");
        assert_eq!(p.final_bounds(North), (0, 0));
        assert!(compare_result(&p, &r(false, Declarer(0)), North).is_empty());
        assert_eq!(
            codes(&compare_result(&p, &r(false, Declarer(1)), North)),
            vec![("Result", c::RESULT_MISMATCH.code)]
        );
        assert!(compare_result(&p, &r(true, Declarer(1)), North).is_empty());
        assert_eq!(
            codes(&compare_result(&p, &r(true, Declarer(0)), North)),
            vec![("Result", c::RESULT_CARET_BUT_EQUAL.code)]
        );
        assert_eq!(
            codes(&compare_result(&p, &r(true, Ew(13)), North)),
            vec![("Result", c::RESULT_CARET_BUT_EQUAL.code)]
        );
    }

    #[test]
    fn result_of_an_unfinished_play() {
        use ResultForm::*;
        let p = play(
            SCHIPHOL,
            Some(Suit::Hearts),
            South,
            West,
            "SK H3 S4 S3 C5 C2 C6 CK +",
        );
        // Partial (2 tricks) or final (2..=11) readings are both accepted.
        assert!(compare_result(&p, &r(false, Declarer(2)), South).is_empty());
        assert!(compare_result(&p, &r(false, Declarer(10)), South).is_empty());
        assert_eq!(
            codes(&compare_result(&p, &r(false, Declarer(1)), South)),
            vec![("Result", c::RESULT_MISMATCH.code)]
        );
        // No caret warning without a finished play.
        assert!(compare_result(&p, &r(true, Declarer(2)), South).is_empty());
        // End positions are not compared.
        let end = "N:.63.. .KQ.. ..A.T ..KQ.";
        let p = play(end, Some(Suit::Spades), South, North, "H6 HK DA DK *");
        assert!(compare_result(&p, &r(false, Declarer(9)), South).is_empty());
    }
}
