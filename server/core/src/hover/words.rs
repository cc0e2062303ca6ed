//! Words the hovers share: strain names, scores by side (suit symbols are
//! the hand records', [`crate::bridge::suit_symbol`]).

use crate::bridge::Strain;

/// "spades", …, "notrump".
pub(super) fn strain_word(s: Strain) -> &'static str {
    s.suit().map_or("notrump", crate::bridge::suit_name)
}

/// "NS +420" / "EW +200" (the side that scores).
pub(super) fn side_score(ns: i32) -> String {
    if ns >= 0 {
        format!("NS +{ns}")
    } else {
        format!("EW +{}", -ns)
    }
}
