//! Directions: Dealer (§3.4.9), Declarer (§3.4.13), the Auction (§3.5) and
//! Play (§3.6) tag values; Vulnerable (§3.4.10).

use super::{is_unknown, issue, trim_padded, Parsed, ValueIssue};
use crate::codes::values as codes;
use crate::spec;
use contract_bridge::{AbsoluteVulnerability, Seat};

/// A direction tag value (Dealer, Auction, Play).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatTag {
    pub seat: Seat,
    /// Written in lowercase (legal in import format, §3.11; not in export).
    pub was_lowercase: bool,
}

/// `W`, `N`, `E`, `S` in either case (§3.11); returns the seat and whether it
/// was lowercase.
pub fn seat_letter(c: char) -> Option<(Seat, bool)> {
    let seat = crate::bridge::seat_of(spec::seats::from_letter(c)?)?;
    Some((seat, c.is_ascii_lowercase()))
}

/// A direction written as a word ("North", "west", …).
fn seat_word(s: &str) -> Option<Seat> {
    crate::bridge::seat_of(spec::seats::from_name(s)?)
}

/// A single direction at `off` in the value; `None` (with an issue) if it is
/// not one.
fn direction(
    s: &str,
    off: usize,
    tag: &str,
    section: &str,
    issues: &mut Vec<ValueIssue>,
) -> Option<SeatTag> {
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if let Some((seat, was_lowercase)) = seat_letter(c) {
            return Some(SeatTag {
                seat,
                was_lowercase,
            });
        }
    }
    if let Some(seat) = seat_word(s) {
        issues.push(issue(
            &codes::NONSTANDARD_SEAT,
            off..off + s.len(),
            format!(
                "{tag}: a direction is written with one letter, `{}` ({section}, §3.11)",
                seat.letter()
            ),
        ));
        return Some(SeatTag {
            seat,
            was_lowercase: false,
        });
    }
    issues.push(issue(
        &codes::SEAT_FORMAT,
        off..off + s.len(),
        format!("{tag} must be a direction: W, N, E or S ({section})"),
    ));
    None
}

fn parse_seat_tag(raw: &str, tag: &str, section: &str, empty_allowed: bool) -> Parsed<SeatTag> {
    let mut issues = Vec::new();
    if raw.is_empty() || is_unknown(raw) {
        if empty_allowed {
            return Parsed::none();
        }
        issues.push(issue(
            &codes::SEAT_FORMAT,
            0..raw.len(),
            format!(
                "the {tag} tag value must be the direction of the first player: W, N, E or S ({section})"
            ),
        ));
        return Parsed::new(None, issues);
    }
    let (off, s) = trim_padded(raw, tag, section, &mut issues);
    if s.is_empty() && empty_allowed {
        return Parsed::new(None, issues);
    }
    let value = direction(s, off, tag, section, &mut issues);
    Parsed::new(value, issues)
}

/// Parses a Dealer tag value: W, N, E or S, lowercase allowed (§3.4.9,
/// §3.11). `""` and `?` give no value and no issue (§3.4).
pub fn parse_dealer(raw: &str) -> Parsed<SeatTag> {
    parse_seat_tag(raw, "Dealer", "§3.4.9", true)
}

/// Parses the Auction tag value: the direction of the first call (§3.5).
/// It is required, so `""` and `?` are errors.
pub fn parse_auction_seat(raw: &str) -> Parsed<SeatTag> {
    parse_seat_tag(raw, "Auction", "§3.5", false)
}

/// Parses the Play tag value: the direction of the first card (§3.6). It
/// is required, so `""` and `?` are errors.
pub fn parse_play_seat(raw: &str) -> Parsed<SeatTag> {
    parse_seat_tag(raw, "Play", "§3.6", false)
}

/// The Declarer tag value (§3.4.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declarer {
    /// `None` for `""`: all four players passed.
    pub seat: Option<Seat>,
    /// `^` prefix: declarer and dummy were swapped; `seat` is the irregular
    /// declarer (§3.4.13, §3.9 (E)).
    pub swapped: bool,
    /// Written in lowercase (legal in import format, §3.11).
    pub was_lowercase: bool,
}

impl Declarer {
    /// The value as the bridge logic reads a Declarer tag.
    pub fn tag(self) -> crate::bridge::DeclarerTag {
        use crate::bridge::DeclarerTag;
        match (self.seat, self.swapped) {
            (None, _) => DeclarerTag::Empty,
            (Some(s), true) => DeclarerTag::Swapped(s),
            (Some(s), false) => DeclarerTag::Seat(s),
        }
    }
}

impl Declarer {
    /// `""`: all players passed.
    pub fn is_all_pass(&self) -> bool {
        self.seat.is_none()
    }
}

/// Parses a Declarer tag value: W, N, E, S, `^W`… (declarer and dummy
/// swapped) or `""` when all pass (§3.4.13); lowercase allowed (§3.11).
/// `?` gives no value and no issue.
pub fn parse_declarer(raw: &str) -> Parsed<Declarer> {
    const SECTION: &str = "§3.4.13";
    if raw.is_empty() {
        return Parsed::ok(Declarer {
            seat: None,
            swapped: false,
            was_lowercase: false,
        });
    }
    if is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (mut off, mut s) = trim_padded(raw, "Declarer", SECTION, &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let swapped = s.starts_with('^');
    if swapped {
        off += 1;
        s = &s[1..];
        if s.is_empty() {
            issues.push(issue(
                &codes::SEAT_FORMAT,
                off - 1..off,
                format!("`^` must be followed by the direction of the irregular declarer, e.g. \"^S\" ({SECTION})"),
            ));
            return Parsed::new(None, issues);
        }
    }
    let value = direction(s, off, "Declarer", SECTION, &mut issues).map(|t| Declarer {
        seat: Some(t.seat),
        swapped,
        was_lowercase: t.was_lowercase,
    });
    Parsed::new(value, issues)
}

/// The Vulnerable tag value (§3.4.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vulnerable {
    pub vulnerability: AbsoluteVulnerability,
    /// Written in lowercase (`none`, `both`, …; legal in import format, §3.11).
    pub was_lowercase: bool,
    /// Written exactly as export format requires (`None`, `NS`, `EW`, `All`).
    pub is_export_form: bool,
}

impl Vulnerable {
    /// The export-format spelling: "None", "NS", "EW" or "All" (§3.4.10).
    pub fn canonical_export(&self) -> &'static str {
        crate::bridge::vulnerability_name(self.vulnerability)
    }
}

/// The export form (§3.4.10) of a Vulnerable value that reads without an
/// error (`Both`, `n-s`, `None ` padded…): `None`, `NS`, `EW` or `All`.
pub fn vulnerable_export_form(raw: &str) -> Option<&'static str> {
    let p = parse_vulnerable(raw);
    let clean = !p
        .issues
        .iter()
        .any(|i| i.severity() == crate::diagnostic::Severity::Error);
    p.value.filter(|_| clean).map(|v| v.canonical_export())
}

/// Parses a Vulnerable tag value (§3.4.10): "None", "Love", "-", "NS",
/// "EW", "All", "Both" and their all-lowercase forms (§3.11) are clean.
/// Other letter cases give [`codes::VALUE_CASE`], readable variants such as
/// "N-S" or "E/W" give [`codes::NONSTANDARD_VULNERABLE`] (warnings, value
/// interpreted); anything else is [`codes::VULNERABLE_FORMAT`]. `""` and `?`
/// give no value and no issue.
pub fn parse_vulnerable(raw: &str) -> Parsed<Vulnerable> {
    const SECTION: &str = "§3.4.10";
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Vulnerable", SECTION, &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let range = off..off + s.len();
    for (name, v) in spec::seats::VULNERABLE_SPELLINGS {
        let lower = name.to_ascii_lowercase();
        if s == name || s == lower {
            let was_lowercase = s == lower && s != name;
            let is_export_form = s == crate::bridge::vulnerability_name(v);
            return Parsed::new(
                Some(Vulnerable {
                    vulnerability: v,
                    was_lowercase,
                    is_export_form,
                }),
                issues,
            );
        }
        if s.eq_ignore_ascii_case(name) {
            issues.push(issue(
                &codes::VALUE_CASE,
                range,
                format!("Vulnerable is written \"{name}\" or \"{lower}\" (§3.11), not \"{s}\""),
            ));
            return Parsed::new(
                Some(Vulnerable {
                    vulnerability: v,
                    was_lowercase: false,
                    is_export_form: false,
                }),
                issues,
            );
        }
    }
    let variant = spec::seats::read_vulnerable_variant(s);
    if let Some(v) = variant {
        issues.push(issue(
            &codes::NONSTANDARD_VULNERABLE,
            range,
            format!(
                "read \"{s}\" as \"{}\"; Vulnerable is None, Love, -, NS, EW, All or Both ({SECTION})",
                crate::bridge::vulnerability_name(v)
            ),
        ));
        return Parsed::new(
            Some(Vulnerable {
                vulnerability: v,
                was_lowercase: false,
                is_export_form: false,
            }),
            issues,
        );
    }
    issues.push(issue(
        &codes::VULNERABLE_FORMAT,
        range,
        format!("Vulnerable must be None, Love, -, NS, EW, All or Both ({SECTION})"),
    ));
    Parsed::new(None, issues)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn dealer() {
        let p = parse_dealer("N");
        assert_clean(&p.issues, "N");
        assert_eq!(
            p.value,
            Some(SeatTag {
                seat: Seat::North,
                was_lowercase: false
            })
        );
        let p = parse_dealer("w");
        assert_clean(&p.issues, "w");
        assert_eq!(
            p.value,
            Some(SeatTag {
                seat: Seat::West,
                was_lowercase: true
            })
        );
        assert_clean(&parse_dealer("").issues, "empty");
        assert_clean(&parse_dealer("?").issues, "unknown");
        let p = parse_dealer("Black");
        assert_eq!(expect(&p.issues, &codes::SEAT_FORMAT).range, 0..5);
        assert!(p.value.is_none());
        let p = parse_dealer("North");
        expect(&p.issues, &codes::NONSTANDARD_SEAT);
        assert_eq!(p.value.unwrap().seat, Seat::North);
        let p = parse_dealer(" S");
        assert_eq!(codes_of(&p.issues), vec!["PBN0331"]);
        assert_eq!(p.value.unwrap().seat, Seat::South);
    }

    #[test]
    fn auction_and_play() {
        assert_clean(&parse_auction_seat("W").issues, "W");
        assert_clean(&parse_play_seat("s").issues, "s");
        expect(&parse_auction_seat("").issues, &codes::SEAT_FORMAT);
        expect(&parse_play_seat("?").issues, &codes::SEAT_FORMAT);
        expect(&parse_play_seat("X").issues, &codes::SEAT_FORMAT);
    }

    #[test]
    fn declarer() {
        let p = parse_declarer("^S");
        assert_clean(&p.issues, "^S");
        assert_eq!(
            p.value,
            Some(Declarer {
                seat: Some(Seat::South),
                swapped: true,
                was_lowercase: false
            })
        );
        let p = parse_declarer("");
        assert!(p.value.unwrap().is_all_pass());
        let p = parse_declarer("e");
        assert_clean(&p.issues, "e");
        assert!(p.value.unwrap().was_lowercase);
        let p = parse_declarer("White");
        expect(&p.issues, &codes::SEAT_FORMAT);
        assert!(p.value.is_none());
        assert_eq!(
            expect(&parse_declarer("^").issues, &codes::SEAT_FORMAT).range,
            0..1
        );
        assert_eq!(
            expect(&parse_declarer("^Q").issues, &codes::SEAT_FORMAT).range,
            1..2
        );
    }

    #[test]
    fn vulnerable() {
        for (raw, v, export) in [
            ("None", V::NONE, true),
            ("Love", V::NONE, false),
            ("-", V::NONE, false),
            ("NS", V::NS, true),
            ("EW", V::EW, true),
            ("All", V::ALL, true),
            ("Both", V::ALL, false),
            ("both", V::ALL, false),
            ("ns", V::NS, false),
        ] {
            let p = parse_vulnerable(raw);
            assert_clean(&p.issues, raw);
            let value = p.value.unwrap();
            assert_eq!(value.vulnerability, v, "{raw}");
            assert_eq!(value.is_export_form, export, "{raw}");
        }
        assert!(parse_vulnerable("both").value.unwrap().was_lowercase);
        assert_eq!(
            parse_vulnerable("Both").value.unwrap().canonical_export(),
            "All"
        );
        assert_eq!(
            parse_vulnerable("-").value.unwrap().canonical_export(),
            "None"
        );
        let p = parse_vulnerable("E");
        expect(&p.issues, &codes::VULNERABLE_FORMAT);
        assert!(p.value.is_none());
        let p = parse_vulnerable("NONE");
        expect(&p.issues, &codes::VALUE_CASE);
        assert_eq!(p.value.unwrap().vulnerability, V::NONE);
        let p = parse_vulnerable("N-S ");
        assert_eq!(codes_of(&p.issues), vec!["PBN0331", "PBN0313"]);
        assert_eq!(p.value.unwrap().vulnerability, V::NS);
        assert_clean(&parse_vulnerable("").issues, "empty");
    }

    use AbsoluteVulnerability as V;
}
