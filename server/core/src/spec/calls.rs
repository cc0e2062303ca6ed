//! Calls (§3.5.1): every spelling a reasonable reader accepts and the one
//! PBN writes. Plain types only; `bridge` maps them to its own.

/// The canonical pass.
pub const PASS: &str = "Pass";
/// The canonical double.
pub const DOUBLE: &str = "X";
/// The canonical redouble.
pub const REDOUBLE: &str = "XX";
/// The canonical "all remaining players pass".
pub const ALL_PASS: &str = "AP";

/// The strains as a bid or contract writes them (§3.4.14), clubs first.
pub const STRAINS: [&str; 5] = ["C", "D", "H", "S", "NT"];

/// The 35 bids in canonical form, `1C` … `7NT` (level-major, [`STRAINS`]
/// order).
pub const BIDS: [&str; 35] = [
    "1C", "1D", "1H", "1S", "1NT", "2C", "2D", "2H", "2S", "2NT", "3C", "3D", "3H", "3S", "3NT",
    "4C", "4D", "4H", "4S", "4NT", "5C", "5D", "5H", "5S", "5NT", "6C", "6D", "6H", "6S", "6NT",
    "7C", "7D", "7H", "7S", "7NT",
];

/// A call, as plain values: `strain` indexes [`STRAINS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    Pass,
    Double,
    Redouble,
    AllPass,
    Bid { level: u8, strain: u8 },
}

impl Call {
    /// The text PBN writes for the call (`Pass`, `X`, `XX`, `AP`, `3NT`).
    pub fn canonical(self) -> &'static str {
        match self {
            Call::Pass => PASS,
            Call::Double => DOUBLE,
            Call::Redouble => REDOUBLE,
            Call::AllPass => ALL_PASS,
            Call::Bid { level, strain } => bid(level, strain).unwrap_or("?"),
        }
    }
}

/// The canonical text of the bid `level` (1..=7) in strain number `strain`
/// ([`STRAINS`] order).
pub fn bid(level: u8, strain: u8) -> Option<&'static str> {
    if !(1..=7).contains(&level) || strain > 4 {
        return None;
    }
    BIDS.get((level as usize - 1) * 5 + strain as usize)
        .copied()
}

/// The strain number of a strain text, any case: `C` `D` `H` `S` `NT`, and
/// `N` for notrump.
pub fn strain(text: &str) -> Option<u8> {
    if text.eq_ignore_ascii_case("N") {
        return Some(4);
    }
    STRAINS
        .iter()
        .position(|s| s.eq_ignore_ascii_case(text))
        .map(|i| i as u8)
}

/// The words of the calls other than bids, in every spelling [`read`]
/// takes (any case).
const WORDS: [(&str, Call); 14] = [
    ("Pass", Call::Pass),
    ("P", Call::Pass),
    ("PA", Call::Pass),
    ("PS", Call::Pass),
    ("X", Call::Double),
    ("D", Call::Double),
    ("DBL", Call::Double),
    ("DB", Call::Double),
    ("XX", Call::Redouble),
    ("R", Call::Redouble),
    ("RDBL", Call::Redouble),
    ("RD", Call::Redouble),
    ("REDBL", Call::Redouble),
    ("AP", Call::AllPass),
];

/// Reads a call in any spelling: the standard ones in any case (`pass`,
/// `x`, `1nt`) and the ones other programs write (`P`, `Dbl`, `D`, `R`,
/// `Rdbl`, `1N`).
pub fn read(text: &str) -> Option<Call> {
    if let Some((_, c)) = WORDS.iter().find(|(w, _)| w.eq_ignore_ascii_case(text)) {
        return Some(*c);
    }
    let level = text
        .as_bytes()
        .first()
        .filter(|c| (b'1'..=b'7').contains(c))?
        - b'0';
    Some(Call::Bid {
        level,
        strain: strain(&text[1..])?,
    })
}

/// A call as the standard spells it, in any letter case (§3.5.1, §3.11):
/// `Pass`, `X`, `XX`, `AP` or a bid with `NT`; `None` for any other text.
pub fn read_standard(text: &str) -> Option<Call> {
    read(text).filter(|c| c.canonical().eq_ignore_ascii_case(text))
}

/// The canonical form of a call written in any spelling (`p` → `Pass`,
/// `3n` → `3NT`); `None` when `text` is no call.
pub fn canonical(text: &str) -> Option<&'static str> {
    read(text).map(Call::canonical)
}

/// Whether `text` is a call as the standard spells it, in any letter case
/// (§3.5.1, §3.11): `Pass`, `X`, `XX`, `AP` or a bid with `NT`.
pub fn is_standard(text: &str) -> bool {
    read_standard(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_to_canonical() {
        let cases = [
            ("Pass", "Pass"),
            ("pass", "Pass"),
            ("PASS", "Pass"),
            ("P", "Pass"),
            ("p", "Pass"),
            ("PA", "Pass"),
            ("Ps", "Pass"),
            ("X", "X"),
            ("x", "X"),
            ("D", "X"),
            ("Dbl", "X"),
            ("DB", "X"),
            ("XX", "XX"),
            ("xx", "XX"),
            ("R", "XX"),
            ("Rdbl", "XX"),
            ("RD", "XX"),
            ("Redbl", "XX"),
            ("AP", "AP"),
            ("ap", "AP"),
            ("1c", "1C"),
            ("3N", "3NT"),
            ("3n", "3NT"),
            ("7nt", "7NT"),
            ("4S", "4S"),
        ];
        for (text, want) in cases {
            assert_eq!(canonical(text), Some(want), "{text}");
        }
        for bad in ["", "8C", "0NT", "1", "1X", "1NTT", "Pas", "XXX", "ñ", "1ñ"] {
            assert_eq!(canonical(bad), None, "{bad}");
        }
    }

    #[test]
    fn canonical_round_trips() {
        let all = BIDS.iter().chain(&[PASS, DOUBLE, REDOUBLE, ALL_PASS]);
        for c in all {
            assert_eq!(canonical(c), Some(*c));
            assert!(is_standard(c) && is_standard(&c.to_ascii_lowercase()));
            assert_eq!(read(c).unwrap().canonical(), *c);
        }
        assert!(!is_standard("P") && !is_standard("3N") && !is_standard("Dbl"));
        assert_eq!(bid(3, 4), Some("3NT"));
        assert_eq!(bid(0, 0), None);
        assert_eq!(bid(1, 5), None);
        assert_eq!(strain("nt"), Some(4));
        assert_eq!(strain("n"), Some(4));
        assert_eq!(strain("Z"), None);
    }
}
