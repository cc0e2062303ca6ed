//! PBN → forum notation. (Interface only on this base branch; the helper
//! owning this file implements it.)

use super::Converted;

/// Reads PBN and writes forum notation.
pub fn from_pbn(pbn: &str) -> Converted {
    let _ = pbn;
    unimplemented!("forum writer")
}
