//! The two sections whose entries carry annotations, and the annotations
//! themselves: suffixes ↔ NAGs (§3.5.3, §3.6.3), where a NAG may stand and
//! what it means (§3.7).

/// A section of calls or of cards (§3.5, §3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    Auction,
    Play,
}

/// The suffix annotations (§3.5.3, §3.6.3), in NAG order: the suffix at
/// index `i` is NAG `$i+1` after a call and `$i+7` after a card.
pub const SUFFIXES: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

/// The position of `suffix` in [`SUFFIXES`], plus one (1..=6).
pub fn suffix_number(suffix: &str) -> Option<u8> {
    SUFFIXES
        .iter()
        .position(|s| *s == suffix)
        .map(|i| i as u8 + 1)
}

/// The meaning of a NAG (§3.7); 15..=255 are free for commenting.
pub fn nag_meaning(n: u32) -> &'static str {
    match n {
        0 => "no annotation",
        1 => "good call (same as !)",
        2 => "poor call (same as ?)",
        3 => "very good call (same as !!)",
        4 => "very poor call (same as ??)",
        5 => "speculative call (same as !?)",
        6 => "questionable call (same as ?!)",
        7 => "good card (same as !)",
        8 => "poor card (same as ?)",
        9 => "very good card (same as !!)",
        10 => "very poor card (same as ??)",
        11 => "speculative card (same as !?)",
        12 => "questionable card (same as ?!)",
        13 => "call has been corrected manually",
        14 => "card has been corrected manually",
        15..=255 => "used for commenting calls and played cards (meaning defined by pbn_eng.nag)",
        _ => "out of range: NAGs are $0..$255",
    }
}

impl Section {
    /// `"auction"` or `"play"`.
    pub fn name(self) -> &'static str {
        match self {
            Section::Auction => "auction",
            Section::Play => "play",
        }
    }

    /// What an entry of the section is: `"call"` or `"card"`.
    pub fn thing(self) -> &'static str {
        match self {
            Section::Auction => "call",
            Section::Play => "card",
        }
    }

    /// The § of the section's suffix annotations.
    pub fn suffix_section(self) -> &'static str {
        match self {
            Section::Auction => "§3.5.3",
            Section::Play => "§3.6.3",
        }
    }

    /// The NAG of suffix number `s` (1..=6, see [`suffix_number`]).
    pub fn suffix_nag(self, s: u8) -> u32 {
        match self {
            Section::Auction => s as u32,
            Section::Play => s as u32 + 6,
        }
    }

    /// The NAG a suffix text stands for (`!?` after a card is `$11`).
    pub fn nag_of_suffix(self, suffix: &str) -> Option<u32> {
        suffix_number(suffix).map(|s| self.suffix_nag(s))
    }

    /// The suffix text of a NAG, when one exists in this section.
    pub fn suffix_of_nag(self, nag: u32) -> Option<&'static str> {
        let base = match self {
            Section::Auction => 1,
            Section::Play => 7,
        };
        SUFFIXES
            .get(usize::try_from(nag.checked_sub(base)?).ok()?)
            .copied()
    }

    /// A NAG that evaluates an entry of this section ($1-$6, $7-$12).
    pub fn is_evaluation(self, nag: u32) -> bool {
        match self {
            Section::Auction => (1..=6).contains(&nag),
            Section::Play => (7..=12).contains(&nag),
        }
    }

    /// Whether NAG `nag` may stand in this section (§3.7).
    pub fn nag_allowed(self, nag: u32) -> bool {
        self.nag_misplaced(nag).is_none()
    }

    /// Why NAG `nag` may not stand in this section (§3.7); `None` when it
    /// may.
    pub fn nag_misplaced(self, nag: u32) -> Option<&'static str> {
        match (nag, self) {
            (1..=6 | 13, Section::Play) => {
                Some("$1-$6 and $13 may only be used for calls in the auction section (§3.7)")
            }
            (7..=12 | 14, Section::Auction) => {
                Some("$7-$12 and $14 may only be used for played cards in the play section (§3.7)")
            }
            _ => None,
        }
    }
}

/// The meaning of an irregularity mark `^I` `^S` `^R` `^L` (§3.9), any case.
pub fn irregularity_meaning(letter: char) -> Option<&'static str> {
    match letter.to_ascii_uppercase() {
        'I' => Some("(A) the bid that follows is insufficient, accepted by the opponents"),
        'S' => Some("(B) a player could not call because another called out of rotation; `^S` replaces the skipped player's call"),
        'R' => Some("(C) the card that follows is a revoke, not noticed in time"),
        'L' => Some("(D) the card that follows is a lead out of turn, accepted by the opponents"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_nag_round_trip() {
        for sec in [Section::Auction, Section::Play] {
            for s in SUFFIXES {
                let n = sec.nag_of_suffix(s).unwrap();
                assert!(sec.is_evaluation(n) && sec.nag_allowed(n));
                assert_eq!(sec.suffix_of_nag(n), Some(s));
            }
        }
        assert_eq!(Section::Auction.nag_of_suffix("!?"), Some(5));
        assert_eq!(Section::Play.nag_of_suffix("?"), Some(8));
        assert_eq!(Section::Auction.nag_of_suffix("!!!"), None);
        assert_eq!(Section::Auction.suffix_of_nag(7), None);
        assert_eq!(Section::Play.suffix_of_nag(6), None);
        assert_eq!(Section::Play.suffix_of_nag(0), None);
    }

    #[test]
    fn nag_places() {
        assert!(Section::Auction.nag_allowed(13) && !Section::Play.nag_allowed(13));
        assert!(Section::Play.nag_allowed(14) && !Section::Auction.nag_allowed(14));
        assert!(!Section::Auction.nag_allowed(7) && !Section::Play.nag_allowed(1));
        assert!(Section::Auction.nag_allowed(0) && Section::Play.nag_allowed(200));
        assert!(nag_meaning(300).starts_with("out of range"));
        assert_eq!(irregularity_meaning('x'), None);
        assert!(irregularity_meaning('s').is_some());
    }
}
