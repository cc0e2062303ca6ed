//! Cards (§3.6.1): every spelling a reasonable reader accepts and the one
//! PBN writes (suit letter, then rank letter, upper case).

/// The suit letters, spades first (the order of a Deal's hands, §3.4.11).
pub const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];

/// The rank letters, ace first (§3.4.11).
pub const RANKS: [char; 13] = [
    'A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2',
];

/// The 52 cards in canonical form, suit-major in [`SUITS`] and [`RANKS`]
/// order.
pub const CARDS: [&str; 52] = [
    "SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2", "HA", "HK", "HQ",
    "HJ", "HT", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2", "DA", "DK", "DQ", "DJ", "DT", "D9",
    "D8", "D7", "D6", "D5", "D4", "D3", "D2", "CA", "CK", "CQ", "CJ", "CT", "C9", "C8", "C7", "C6",
    "C5", "C4", "C3", "C2",
];

/// The rank number (index in [`RANKS`]) of a rank character, any case.
pub fn rank(c: char) -> Option<usize> {
    RANKS.iter().position(|r| *r == c.to_ascii_uppercase())
}

/// The suit number (index in [`SUITS`]) of a suit character, any case.
pub fn suit(c: char) -> Option<usize> {
    SUITS.iter().position(|s| *s == c.to_ascii_uppercase())
}

/// The canonical text of the card of suit number `suit` and rank number
/// `rank`.
pub fn card(suit: usize, rank: usize) -> Option<&'static str> {
    (suit < 4 && rank < 13).then(|| CARDS[suit * 13 + rank])
}

/// Reads a card in any spelling: suit then rank in any case (`sa`, `Hq`)
/// and `10` for the ten (`S10`). Returns (suit, rank) numbers.
pub fn read(text: &str) -> Option<(usize, usize)> {
    let mut ch = text.chars();
    let s = suit(ch.next()?)?;
    let rest = ch.as_str();
    let r = if rest == "10" {
        4
    } else {
        let mut r = rest.chars();
        let c = r.next()?;
        if r.next().is_some() {
            return None;
        }
        rank(c)?
    };
    Some((s, r))
}

/// A card as the standard spells it (§3.6.1), in either case (§3.11): a
/// suit letter and a rank letter (not `S10`). Returns (suit, rank) numbers.
pub fn read_standard(text: &str) -> Option<(usize, usize)> {
    read(text).filter(|_| text.len() == 2)
}

/// Whether `text` is a run of two or more dashes (`--`): read as `-`, a
/// card not known or not played (§3.6.1).
pub fn is_dash_run(text: &str) -> bool {
    text.len() > 1 && text.bytes().all(|b| b == b'-')
}

/// The canonical form of a card written in any spelling (`s10` → `ST`,
/// `ha` → `HA`); `None` when `text` is no card.
pub fn canonical(text: &str) -> Option<&'static str> {
    read(text).and_then(|(s, r)| card(s, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_to_canonical() {
        for (text, want) in [
            ("SA", "SA"),
            ("sa", "SA"),
            ("hQ", "HQ"),
            ("S10", "ST"),
            ("d10", "DT"),
            ("Ct", "CT"),
            ("C2", "C2"),
        ] {
            assert_eq!(canonical(text), Some(want), "{text}");
        }
        for bad in ["", "S", "S1", "S11", "SAK", "AS", "X5", "10S", "Sñ", "ñ"] {
            assert_eq!(canonical(bad), None, "{bad}");
        }
    }

    #[test]
    fn canonical_round_trips() {
        for (i, c) in CARDS.iter().enumerate() {
            assert_eq!(canonical(c), Some(*c));
            assert_eq!(canonical(&c.to_ascii_lowercase()), Some(*c));
            assert_eq!(read(c), Some((i / 13, i % 13)));
        }
        assert_eq!(card(4, 0), None);
        assert_eq!(card(0, 13), None);
    }
}
