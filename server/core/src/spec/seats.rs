//! Seats, sides and vulnerability (§3.4.5–§3.4.10): their text forms. Seat
//! numbers follow `contract_bridge::Seat::ALL` (North, East, South, West);
//! `bridge` maps them to its types.

/// The seat letters PBN writes (§3.4.9), North first.
pub const LETTERS: [&str; 4] = ["N", "E", "S", "W"];

/// The seat names (the player tags of §3.4.5–§3.4.8), North first.
pub const NAMES: [&str; 4] = ["North", "East", "South", "West"];

/// The seat number of a seat letter in either case (§3.11).
pub fn from_letter(c: char) -> Option<usize> {
    LETTERS
        .iter()
        .position(|l| l.starts_with(c.to_ascii_uppercase()))
}

/// The seat number of a seat name in any case (`North`, `west`).
pub fn from_name(s: &str) -> Option<usize> {
    NAMES.iter().position(|n| n.eq_ignore_ascii_case(s))
}

/// The name of a side, given any of its seats: `North-South`, `East-West`.
pub fn side_name(seat: usize) -> &'static str {
    if seat.is_multiple_of(2) {
        "North-South"
    } else {
        "East-West"
    }
}

/// A Vulnerable value as plain data (§3.4.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vulnerability {
    None,
    NorthSouth,
    EastWest,
    All,
}

/// Every spelling §3.4.10 lists, with its meaning; each may also be written
/// in lower case (§3.11).
pub const VULNERABLE_SPELLINGS: [(&str, Vulnerability); 7] = [
    ("None", Vulnerability::None),
    ("Love", Vulnerability::None),
    ("-", Vulnerability::None),
    ("NS", Vulnerability::NorthSouth),
    ("EW", Vulnerability::EastWest),
    ("All", Vulnerability::All),
    ("Both", Vulnerability::All),
];

impl Vulnerability {
    /// The export form (§3.4.10): `None`, `NS`, `EW`, `All`.
    pub fn export_form(self) -> &'static str {
        match self {
            Vulnerability::None => "None",
            Vulnerability::NorthSouth => "NS",
            Vulnerability::EastWest => "EW",
            Vulnerability::All => "All",
        }
    }
}

/// Reads a Vulnerable value written as the standard lists it, in any case.
pub fn read_vulnerable(s: &str) -> Option<Vulnerability> {
    VULNERABLE_SPELLINGS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s))
        .map(|(_, v)| *v)
}

/// Reads a Vulnerable value other programs write (`N-S`, `E/W`, `Nobody`).
pub fn read_vulnerable_variant(s: &str) -> Option<Vulnerability> {
    match s.to_ascii_uppercase().as_str() {
        "N-S" | "N/S" | "N+S" => Some(Vulnerability::NorthSouth),
        "E-W" | "E/W" | "E+W" => Some(Vulnerability::EastWest),
        "NONE-VUL" | "NOBODY" | "NEITHER" => Some(Vulnerability::None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats() {
        for (i, (l, n)) in LETTERS.iter().zip(NAMES).enumerate() {
            let c = l.chars().next().unwrap();
            assert_eq!(from_letter(c), Some(i));
            assert_eq!(from_letter(c.to_ascii_lowercase()), Some(i));
            assert_eq!(from_name(n), Some(i));
            assert_eq!(from_name(&n.to_ascii_uppercase()), Some(i));
        }
        assert_eq!(from_letter('X'), None);
        assert_eq!(from_name("Nort"), None);
        assert_eq!(side_name(2), "North-South");
        assert_eq!(side_name(3), "East-West");
    }

    #[test]
    fn vulnerability_spellings() {
        for (text, want) in [
            ("None", "None"),
            ("love", "None"),
            ("-", "None"),
            ("ns", "NS"),
            ("EW", "EW"),
            ("ALL", "All"),
            ("Both", "All"),
        ] {
            assert_eq!(read_vulnerable(text).map(|v| v.export_form()), Some(want));
        }
        for (text, want) in [("N-S", "NS"), ("e/w", "EW"), ("Nobody", "None")] {
            assert_eq!(read_vulnerable(text), None);
            let v = read_vulnerable_variant(text).unwrap();
            assert_eq!(v.export_form(), want);
        }
        for (_, v) in VULNERABLE_SPELLINGS {
            assert_eq!(read_vulnerable(v.export_form()), Some(v));
        }
        assert_eq!(read_vulnerable("Al"), None);
        assert_eq!(read_vulnerable_variant("NS?"), None);
    }
}
