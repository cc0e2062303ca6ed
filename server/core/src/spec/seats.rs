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

/// A Vulnerable value (§3.4.10): which sides are vulnerable. The one type
/// of the code base, `contract-bridge`'s (`NONE`, `NS`, `EW`, `ALL`), so
/// that scores are computed from the value as read.
pub type Vulnerability = contract_bridge::AbsoluteVulnerability;

/// Every spelling §3.4.10 lists, with its meaning; each may also be written
/// in lower case (§3.11).
pub const VULNERABLE_SPELLINGS: [(&str, Vulnerability); 7] = [
    ("None", Vulnerability::NONE),
    ("Love", Vulnerability::NONE),
    ("-", Vulnerability::NONE),
    ("NS", Vulnerability::NS),
    ("EW", Vulnerability::EW),
    ("All", Vulnerability::ALL),
    ("Both", Vulnerability::ALL),
];

/// One of four things by vulnerability: `[none, ns, ew, all]` (how each
/// notation writes it).
pub fn by_vulnerability<T>(v: Vulnerability, [none, ns, ew, all]: [T; 4]) -> T {
    if v == Vulnerability::ALL {
        all
    } else if v == Vulnerability::NS {
        ns
    } else if v == Vulnerability::EW {
        ew
    } else {
        none
    }
}

/// The export form (§3.4.10): `None`, `NS`, `EW`, `All`.
pub fn vulnerability_name(v: Vulnerability) -> &'static str {
    by_vulnerability(v, ["None", "NS", "EW", "All"])
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
        "N-S" | "N/S" | "N+S" => Some(Vulnerability::NS),
        "E-W" | "E/W" | "E+W" => Some(Vulnerability::EW),
        "NONE-VUL" | "NOBODY" | "NEITHER" => Some(Vulnerability::NONE),
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
            assert_eq!(read_vulnerable(text).map(vulnerability_name), Some(want));
        }
        for (text, want) in [("N-S", "NS"), ("e/w", "EW"), ("Nobody", "None")] {
            assert_eq!(read_vulnerable(text), None);
            let v = read_vulnerable_variant(text).unwrap();
            assert_eq!(vulnerability_name(v), want);
        }
        for (_, v) in VULNERABLE_SPELLINGS {
            assert_eq!(read_vulnerable(vulnerability_name(v)), Some(v));
        }
        assert_eq!(read_vulnerable("Al"), None);
        assert_eq!(read_vulnerable_variant("NS?"), None);
    }
}
