//! Words the hovers share: strain names (suit symbols and scores by side
//! are the hand records' too, [`crate::bridge::suit_symbol`],
//! [`crate::bridge::side_score`]).

use crate::bridge::Strain;

/// "spades", …, "notrump".
pub(super) fn strain_word(s: Strain) -> &'static str {
    s.suit().map_or("notrump", crate::bridge::suit_name)
}
