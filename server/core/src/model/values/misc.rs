//! Board (§3.4.4), Scoring (§3.4.12), Competition (§4.1.1), FrenchMP
//! (§4.1.4), Hidden (§4.1.6), Room (§4.1.7), Termination (§4.1.8),
//! WestType… (§4.3.4), Round (§4.4.4), Table (§4.4.7), Mode (§4.7.4).

use super::{char_range, is_unknown, issue, parse_uint, trim_padded, Parsed, ValueIssue};
use crate::codes::values as codes;
use contract_bridge::{Seat, SeatFlags};
use std::ops::Range;

// ---- Board, Table, Round ------------------------------------------------------

/// Parses a Board tag value: a positive integer (§3.4.4). Errors:
/// [`codes::BOARD_FORMAT`]. `""`, `?`: no value.
pub fn parse_board(raw: &str) -> Parsed<u32> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Board", "§3.4.4", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    match parse_uint(s)
        .and_then(|v| u32::try_from(v).ok())
        .filter(|&v| v > 0)
    {
        Some(v) => Parsed::new(Some(v), issues),
        None => {
            issues.push(issue(
                &codes::BOARD_FORMAT,
                off..off + s.len(),
                format!("the Board tag value is a positive integer, the board number, not \"{s}\" (§3.4.4)"),
            ));
            Parsed::new(None, issues)
        }
    }
}

/// The Table tag value (§4.4.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableId {
    /// The normal case: a positive integer.
    Number(u32),
    /// Any other identification (with a [`codes::TABLE_NUMBER`] warning).
    Name(String),
}

/// Parses a Table tag value: normally a positive integer (§4.4.7); other
/// values give [`codes::TABLE_NUMBER`] (warning) and [`TableId::Name`].
pub fn parse_table(raw: &str) -> Parsed<TableId> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Table", "§4.4.7", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    match parse_uint(s)
        .and_then(|v| u32::try_from(v).ok())
        .filter(|&v| v > 0)
    {
        Some(v) => Parsed::new(Some(TableId::Number(v)), issues),
        None => {
            issues.push(issue(
                &codes::TABLE_NUMBER,
                off..off + s.len(),
                format!("the Table tag value is normally a positive integer, not \"{s}\" (§4.4.7)"),
            ));
            Parsed::new(Some(TableId::Name(s.to_string())), issues)
        }
    }
}

/// The Round tag value (§4.4.4): round indicators, most significant first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub parts: Vec<String>,
}

/// Parses a Round tag value (§4.4.4): indicators of letters, digits and
/// `_`, separated by periods for a multipart round ("1.A.2"). Errors:
/// [`codes::ROUND_FORMAT`] (one per run of bad characters, or per empty
/// part). `""`, `?`: no value.
pub fn parse_round(raw: &str) -> Parsed<Round> {
    const RULE: &str = "a round indicator consists of letters, digits and `_`; a multipart round \
                        separates indicators with periods, e.g. \"1.A.2\" (§4.4.4)";
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Round", "§4.4.4", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let ok_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut errors = false;
    let mut parts = Vec::new();
    let mut start = 0;
    for piece in s.split('.') {
        let mut bad: Option<Range<usize>> = None;
        let flush = |bad: &mut Option<Range<usize>>, issues: &mut Vec<ValueIssue>| {
            if let Some(r) = bad.take() {
                let text = &s[r.clone()];
                issues.push(issue(
                    &codes::ROUND_FORMAT,
                    off + r.start..off + r.end,
                    format!("`{text}` is not allowed: {RULE}"),
                ));
            }
        };
        for (i, c) in piece.char_indices() {
            if ok_char(c) {
                flush(&mut bad, &mut issues);
            } else {
                errors = true;
                let r = char_range(s, start + i);
                bad = Some(match bad {
                    Some(b) => b.start..r.end,
                    None => r,
                });
            }
        }
        flush(&mut bad, &mut issues);
        if piece.is_empty() {
            errors = true;
            let at = if start < s.len() { start } else { start - 1 };
            issues.push(issue(
                &codes::ROUND_FORMAT,
                off + at.min(s.len() - 1)..off + at.min(s.len() - 1) + 1,
                format!("empty round indicator: {RULE}"),
            ));
        }
        parts.push(piece.to_string());
        start += piece.len() + 1;
    }
    Parsed::new((!errors).then_some(Round { parts }), issues)
}

// ---- closed keyword lists -------------------------------------------------------

/// Matches `s` against `allowed` exactly; a case-insensitive match gives a
/// [`codes::VALUE_CASE`] warning; no match a [`codes::VALUE_NOT_ALLOWED`]
/// error.
fn keyword(raw: &str, tag: &str, section: &str, allowed: &[&'static str]) -> Parsed<&'static str> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, tag, section, &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let range = off..off + s.len();
    let list = allowed
        .iter()
        .map(|a| format!("\"{a}\""))
        .collect::<Vec<_>>()
        .join(" or ");
    if let Some(&k) = allowed.iter().find(|&&a| a == s) {
        return Parsed::new(Some(k), issues);
    }
    if let Some(&k) = allowed.iter().find(|a| a.eq_ignore_ascii_case(s)) {
        issues.push(issue(
            &codes::VALUE_CASE,
            range,
            format!("{tag} is written {list} ({section}), not \"{s}\""),
        ));
        return Parsed::new(Some(k), issues);
    }
    issues.push(issue(
        &codes::VALUE_NOT_ALLOWED,
        range,
        format!("{tag} must be {list} ({section})"),
    ));
    Parsed::new(None, issues)
}

/// Parses a FrenchMP tag value: "Yes" or "No" (§4.1.4); returns whether
/// French scoring is used. Errors: [`codes::VALUE_NOT_ALLOWED`]; other
/// letter cases: [`codes::VALUE_CASE`].
pub fn parse_french_mp(raw: &str) -> Parsed<bool> {
    keyword(raw, "FrenchMP", "§4.1.4", &["Yes", "No"]).map(|k| k == "Yes")
}

/// The Room tag value (§4.1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// "Open"
    Open,
    /// "Closed"
    Closed,
}

/// Parses a Room tag value: "Open" or "Closed" (§4.1.7). Errors:
/// [`codes::VALUE_NOT_ALLOWED`]; other letter cases: [`codes::VALUE_CASE`].
pub fn parse_room(raw: &str) -> Parsed<Room> {
    keyword(raw, "Room", "§4.1.7", &["Open", "Closed"]).map(|k| {
        if k == "Open" {
            Room::Open
        } else {
            Room::Closed
        }
    })
}

/// The Hidden tag value (§4.1.6): the directions whose hands are hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hidden {
    pub seats: SeatFlags,
}

impl Hidden {
    /// Whether the hand of `seat` is hidden.
    pub fn contains(&self, seat: Seat) -> bool {
        self.seats.contains(SeatFlags::from(seat))
    }
}

/// Parses a Hidden tag value (§4.1.6): a sequence of W, N, E, S; `""` hides
/// nothing, `?` gives no value. Errors: [`codes::HIDDEN_FORMAT`] per bad
/// character; warnings: [`codes::HIDDEN_DUPLICATE`], lowercase
/// [`codes::VALUE_CASE`] (§3.11 does not list Hidden).
pub fn parse_hidden(raw: &str) -> Parsed<Hidden> {
    if raw.is_empty() {
        return Parsed::ok(Hidden {
            seats: SeatFlags::EMPTY,
        });
    }
    if is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Hidden", "§4.1.6", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let mut seats = SeatFlags::EMPTY;
    let mut ok = true;
    let mut lowercase = false;
    for (i, c) in s.char_indices() {
        let r = char_range(raw, off + i);
        match super::seat::seat_letter(c) {
            Some((seat, lower)) => {
                lowercase |= lower;
                let flag = SeatFlags::from(seat);
                if seats.contains(flag) {
                    issues.push(issue(
                        &codes::HIDDEN_DUPLICATE,
                        r,
                        format!(
                            "{} is listed twice; Hidden is a set of directions (§4.1.6)",
                            seat.letter()
                        ),
                    ));
                }
                seats |= flag;
            }
            None => {
                ok = false;
                issues.push(issue(
                    &codes::HIDDEN_FORMAT,
                    r,
                    format!(
                        "`{c}` is not a direction; Hidden is a sequence of W, N, E and S (§4.1.6)"
                    ),
                ));
            }
        }
    }
    if lowercase && ok {
        issues.push(issue(
            &codes::VALUE_CASE,
            off..off + s.len(),
            "Hidden directions are uppercase W, N, E, S (§4.1.6, §3.11)",
        ));
    }
    Parsed::new(ok.then_some(Hidden { seats }), issues)
}

// ---- open lists -----------------------------------------------------------------

/// Tags whose values are open lists with examples in the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenListTag {
    /// §4.1.1
    Competition,
    /// §4.1.8
    Termination,
    /// WestType, NorthType, EastType, SouthType (§4.3.4)
    PlayerType(Seat),
    /// §4.7.4
    Mode,
}

impl OpenListTag {
    /// The open-list tag called `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "Competition" => OpenListTag::Competition,
            "Termination" => OpenListTag::Termination,
            "WestType" => OpenListTag::PlayerType(Seat::West),
            "NorthType" => OpenListTag::PlayerType(Seat::North),
            "EastType" => OpenListTag::PlayerType(Seat::East),
            "SouthType" => OpenListTag::PlayerType(Seat::South),
            "Mode" => OpenListTag::Mode,
            _ => return None,
        })
    }

    /// The example values of the spec.
    pub fn examples(self) -> &'static [&'static str] {
        match self {
            OpenListTag::Competition => &[
                "Cavendish",
                "Chicago",
                "Individuals",
                "Pairs",
                "Rubber",
                "Teams",
            ],
            OpenListTag::Termination => &[
                "abandoned",
                "adjudication",
                "death",
                "emergency",
                "normal",
                "rules infraction",
                "time forfeit",
                "unterminated",
            ],
            OpenListTag::PlayerType(_) => &["human", "program"],
            OpenListTag::Mode => &["EM", "IBS", "OKB", "TABLE", "TC"],
        }
    }

    fn name_and_section(self) -> (&'static str, &'static str) {
        match self {
            OpenListTag::Competition => ("Competition", "§4.1.1"),
            OpenListTag::Termination => ("Termination", "§4.1.8"),
            OpenListTag::PlayerType(Seat::West) => ("WestType", "§4.3.4"),
            OpenListTag::PlayerType(Seat::North) => ("NorthType", "§4.3.4"),
            OpenListTag::PlayerType(Seat::East) => ("EastType", "§4.3.4"),
            OpenListTag::PlayerType(Seat::South) => ("SouthType", "§4.3.4"),
            OpenListTag::Mode => ("Mode", "§4.7.4"),
        }
    }
}

/// A value of an open-list tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenValue {
    pub text: String,
    /// One of the spec's examples (compared without regard to case), in
    /// the spec's spelling.
    pub known: Option<&'static str>,
}

/// Parses a Competition, Termination, *Type or Mode tag value. Values are
/// free (§4: no restriction unless stated; these sections only give
/// examples), so a value that is not an example gives only
/// [`codes::UNLISTED_VALUE`] (info). Letter case is not checked.
pub fn parse_open_list(tag: OpenListTag, raw: &str) -> Parsed<OpenValue> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let s = raw.trim_matches(super::is_ws);
    let start = raw.len() - raw.trim_start_matches(super::is_ws).len();
    let known = tag
        .examples()
        .iter()
        .copied()
        .find(|e| e.eq_ignore_ascii_case(s));
    let mut issues = Vec::new();
    if known.is_none() {
        let (name, section) = tag.name_and_section();
        let list = tag
            .examples()
            .iter()
            .map(|e| format!("\"{e}\""))
            .collect::<Vec<_>>()
            .join(", ");
        issues.push(issue(
            &codes::UNLISTED_VALUE,
            start..start + s.len(),
            format!("\"{s}\" is not one of the example {name} values {list} ({section}); programs may not recognize it"),
        ));
    }
    Parsed::new(
        Some(OpenValue {
            text: s.to_string(),
            known,
        }),
        issues,
    )
}

// ---- Scoring --------------------------------------------------------------------

/// What a Scoring field is (§3.4.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoringFieldKind {
    /// A basic scoring system (MP, IMP, …).
    Basic,
    /// A modifier (Butler, Cross, MP1, …).
    Modifier,
    /// Not in the spec's lists.
    Unknown,
}

/// One `;`-separated field of the Scoring tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringField {
    /// The field as written, without surrounding white space.
    pub text: String,
    /// Its range in the raw value.
    pub range: Range<usize>,
    pub kind: ScoringFieldKind,
    /// The spec's spelling when known.
    pub known: Option<&'static str>,
}

/// The Scoring tag value (§3.4.12).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub fields: Vec<ScoringField>,
}

impl Scoring {
    /// Whether a field is `name` (the spec's spelling).
    pub fn has(&self, name: &str) -> bool {
        self.fields.iter().any(|f| f.known == Some(name))
    }

    /// The basic scoring systems given.
    pub fn basics(&self) -> impl Iterator<Item = &str> {
        self.fields
            .iter()
            .filter(|f| f.kind == ScoringFieldKind::Basic)
            .filter_map(|f| f.known)
    }
}

/// Basic scoring systems listed in §3.4.12.
pub const SCORING_BASICS: &[&str] = &[
    "MP",
    "MatchPoints",
    "IMP",
    "Cavendish",
    "Chicago",
    "Rubber",
    "BAM",
    "Instant",
];

/// Modifiers listed in §3.4.12.
pub const SCORING_MODIFIERS: &[&str] = &[
    "Butler",
    "Butler-2",
    "Experts",
    "Cross",
    "Cross1",
    "Cross2",
    "Mean",
    "Median",
    "MP1",
    "MP2",
    "OldMP",
    "Mitchell2",
    "Mitchell3",
    "Mitchell4",
    "Ascherman",
    "Bastille",
    "EMP",
    "IMP_1948",
    "IMP_1961",
];

/// Parses a Scoring tag value (§3.4.12): fields separated by `;`, each a
/// basic system or a modifier. The list is open-ended but the scoring
/// decides how scores are computed, so an unknown (or empty) field gives
/// [`codes::UNKNOWN_SCORING`] (warning), and so does a known field in
/// another letter case: PBN is case sensitive and §3.11 does not list
/// Scoring among the tags where lowercase is allowed, but the list of
/// §3.4.12 is open-ended ("only example values are given"), so an unlisted
/// spelling is not an error. Such a field is still read as the listed one.
/// White space around fields is ignored.
/// `""`, `?`: no value.
pub fn parse_scoring(raw: &str) -> Parsed<Scoring> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let mut fields = Vec::new();
    let mut start = 0;
    for piece in raw.split(';') {
        let lead = piece.len() - piece.trim_start_matches(super::is_ws).len();
        let text = piece.trim_matches(super::is_ws);
        let range = start + lead..start + lead + text.len();
        start += piece.len() + 1;
        if text.is_empty() {
            issues.push(issue(
                &codes::UNKNOWN_SCORING,
                (range.start.saturating_sub(1))..(range.start + 1).min(raw.len()),
                "empty Scoring field; fields are separated by a single `;` (§3.4.12, §3.3)",
            ));
            continue;
        }
        let find = |list: &[&'static str], exact: bool| {
            list.iter().copied().find(|k| {
                if exact {
                    *k == text
                } else {
                    k.eq_ignore_ascii_case(text)
                }
            })
        };
        let (kind, known) = if let Some(k) = find(SCORING_BASICS, true) {
            (ScoringFieldKind::Basic, Some(k))
        } else if let Some(k) = find(SCORING_MODIFIERS, true) {
            (ScoringFieldKind::Modifier, Some(k))
        } else if let Some(k) = find(SCORING_BASICS, false) {
            (ScoringFieldKind::Basic, Some(k))
        } else if let Some(k) = find(SCORING_MODIFIERS, false) {
            (ScoringFieldKind::Modifier, Some(k))
        } else {
            (ScoringFieldKind::Unknown, None)
        };
        match known {
            Some(k) if k != text => issues.push(issue(
                &codes::UNKNOWN_SCORING,
                range.clone(),
                format!(
                    "\"{text}\" is not a scoring field listed in §3.4.12; read as \"{k}\" \
                     (PBN is case sensitive, §3.11)"
                ),
            )),
            Some(_) => {}
            None => {
                let hint = if super::parse_int(text).is_some() {
                    "; a number here looks like a score, which belongs in the Score tag (§4.2.1)"
                } else {
                    ""
                };
                issues.push(issue(
                    &codes::UNKNOWN_SCORING,
                    range.clone(),
                    format!(
                        "\"{text}\" is not a scoring system or modifier listed in §3.4.12 (e.g. MP, IMP, Rubber, Butler){hint}"
                    ),
                ));
            }
        }
        fields.push(ScoringField {
            text: text.to_string(),
            range,
            kind,
            known,
        });
    }
    Parsed::new(Some(Scoring { fields }), issues)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn board() {
        assert_eq!(parse_board("13").value, Some(13));
        assert_clean(&parse_board("13").issues, "13");
        for raw in ["0", "-1", "Example 1", "3-1", "1.5"] {
            expect(&parse_board(raw).issues, &codes::BOARD_FORMAT);
        }
        assert_clean(&parse_board("?").issues, "?");
    }

    #[test]
    fn table() {
        assert_eq!(parse_table("1").value, Some(TableId::Number(1)));
        let p = parse_table("T1");
        assert_eq!(codes_of(&p.issues), vec!["PBN0308"]);
        assert_eq!(p.value, Some(TableId::Name("T1".into())));
    }

    #[test]
    fn round() {
        let p = parse_round("1.A.2");
        assert_clean(&p.issues, "1.A.2");
        assert_eq!(p.value.unwrap().parts, vec!["1", "A", "2"]);
        assert_clean(&parse_round("Final_2").issues, "underscore");
        let p = parse_round("&");
        assert_eq!(expect(&p.issues, &codes::ROUND_FORMAT).range, 0..1);
        let p = parse_round("-1");
        assert_eq!(codes_of(&p.issues), vec!["PBN0309"]);
        assert_eq!(p.issues[0].range, 0..1);
        let p = parse_round("1..2");
        assert_eq!(p.issues[0].range, 2..3);
        let p = parse_round("1.");
        assert_eq!(p.issues[0].range, 1..2);
        let p = parse_round("semi final");
        assert_eq!(p.issues[0].range, 4..5);
        assert!(p.value.is_none());
    }

    #[test]
    fn keywords() {
        assert_eq!(parse_french_mp("Yes").value, Some(true));
        assert_eq!(parse_french_mp("No").value, Some(false));
        let p = parse_french_mp("yes");
        assert_eq!(codes_of(&p.issues), vec!["PBN0325"]);
        assert_eq!(p.value, Some(true));
        expect(&parse_french_mp("Oui").issues, &codes::VALUE_NOT_ALLOWED);
        assert_eq!(parse_room("Closed").value, Some(Room::Closed));
        assert_clean(&parse_room("Open").issues, "Open");
        expect(&parse_room("Blue").issues, &codes::VALUE_NOT_ALLOWED);
    }

    #[test]
    fn hidden() {
        let p = parse_hidden("EWNS");
        assert_clean(&p.issues, "EWNS");
        assert_eq!(p.value.unwrap().seats, SeatFlags::ALL);
        let p = parse_hidden("WE");
        assert!(p.value.unwrap().contains(Seat::East));
        assert_eq!(parse_hidden("").value.unwrap().seats, SeatFlags::EMPTY);
        let p = parse_hidden("E,W");
        assert_eq!(codes_of(&p.issues), vec!["PBN0326"]);
        assert_eq!(p.issues[0].range, 1..2);
        let p = parse_hidden("WEW");
        assert_eq!(codes_of(&p.issues), vec!["PBN0327"]);
        assert_eq!(p.issues[0].range, 2..3);
        let p = parse_hidden("we");
        assert_eq!(codes_of(&p.issues), vec!["PBN0325"]);
    }

    #[test]
    fn open_lists() {
        for (tag, v) in [
            ("Mode", "TABLE"),
            ("Mode", "tc"),
            ("Competition", "Teams"),
            ("Termination", "rules infraction"),
            ("WestType", "human"),
            ("SouthType", "program"),
        ] {
            let p = parse_open_list(OpenListTag::from_name(tag).unwrap(), v);
            assert_clean(&p.issues, v);
            assert!(p.value.unwrap().known.is_some());
        }
        for tag in ["WestType", "Competition", "Mode", "Termination"] {
            let p = parse_open_list(OpenListTag::from_name(tag).unwrap(), "Unknown tag");
            assert_eq!(codes_of(&p.issues), vec!["PBN0328"]);
            assert_eq!(p.issues[0].severity(), crate::diagnostic::Severity::Info);
        }
        assert!(OpenListTag::from_name("Event").is_none());
    }

    #[test]
    fn scoring() {
        let p = parse_scoring("IMP;Butler-2;Mean");
        assert_clean(&p.issues, "IMP;Butler-2;Mean");
        let s = p.value.unwrap();
        assert_eq!(s.fields.len(), 3);
        assert_eq!(s.fields[1].range, 4..12);
        assert!(s.has("Butler-2"));
        assert_eq!(s.basics().collect::<Vec<_>>(), vec!["IMP"]);
        for raw in [
            "MP",
            "MatchPoints",
            "Rubber",
            "Chicago",
            "BAM",
            "EMP",
            "OldMP",
            "IMP_1948",
            "IMP; Cross",
        ] {
            assert_clean(&parse_scoring(raw).issues, raw);
        }
        let p = parse_scoring("Unknown tag");
        assert_eq!(codes_of(&p.issues), vec!["PBN0314"]);
        let p = parse_scoring("620");
        assert!(p.issues[0].message.contains("Score tag"));
        let p = parse_scoring("IMP;;Mean");
        assert_eq!(codes_of(&p.issues), vec!["PBN0314"]);
        // §3.4.12 is open-ended: another letter case is a warning, not an
        // error (§3.11 does not list Scoring).
        let p = parse_scoring("imp");
        assert_eq!(codes_of(&p.issues), vec!["PBN0314"]);
        assert!(p.issues[0].message.contains("read as \"IMP\""));
        assert_eq!(p.value.unwrap().fields[0].known, Some("IMP"));
    }
}
