//! Bridge logic the checker needs: the PBN auction (with its irregularities),
//! the play (tricks, following suit, trick winners), board rotation and
//! scoring. Card, seat, contract and scoring types come from the
//! `contract-bridge` crate; this module adds what PBN needs on top.
