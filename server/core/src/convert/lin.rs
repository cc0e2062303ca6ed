//! LIN ↔ PBN. (Interface only on this base branch; the helper owning
//! this file implements it.)

use super::Converted;

/// Reads LIN and writes PBN (import format).
pub fn to_pbn(input: &str) -> Converted {
    let _ = input;
    unimplemented!("lin reader")
}

/// Reads PBN and writes LIN.
pub fn from_pbn(pbn: &str) -> Converted {
    let _ = pbn;
    unimplemented!("lin writer")
}
