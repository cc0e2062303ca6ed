//! RBN ↔ PBN. (Interface only on this base branch; the helper owning
//! this file implements it.)

use super::Converted;

/// Reads RBN and writes PBN (import format).
pub fn to_pbn(input: &str) -> Converted {
    let _ = input;
    unimplemented!("rbn reader")
}

/// Reads PBN and writes RBN.
pub fn from_pbn(pbn: &str) -> Converted {
    let _ = pbn;
    unimplemented!("rbn writer")
}
