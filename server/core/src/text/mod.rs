//! Reading PBN bytes into text, and positions in that text.
//!
//! PBN 2.1 §2.2 prescribes ISO 8859-1 (Latin-1); real files are also UTF-8
//! (with or without a byte order mark) and Windows-1252. [`decode`] detects
//! the encoding, never fails, and remembers what it saw so that writers can
//! write the file back the way it came ([`encode`]), or in ISO 8859-1 when
//! it was UTF-8 and every character fits ([`reencoded`]). Everything after this
//! module works on the decoded UTF-8 `String` and byte offsets into it;
//! [`LineIndex`] converts byte offsets to lines and columns in characters,
//! UTF-16 code units or UTF-8 bytes.

mod decode;
mod line_index;

pub use decode::{
    declared_charset_range, decode, decode_owned, encode, is_export_line, reencoded, DecodeNote,
    Encoding, LineEnding, SourceText,
};
pub use line_index::{LineCol, LineIndex, Near, PositionEncoding};

/// The lengths of the longest common start and end of `a` and `b` that do
/// not overlap, at char boundaries of both.
pub fn common_ends(a: &str, b: &str) -> (usize, usize) {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let mut pre = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    while !(a.is_char_boundary(pre) && b.is_char_boundary(pre)) {
        pre -= 1;
    }
    let max = a.len().min(b.len()) - pre;
    let mut suf = x
        .iter()
        .rev()
        .zip(y.iter().rev())
        .take(max)
        .take_while(|(p, q)| p == q)
        .count();
    while !(a.is_char_boundary(a.len() - suf) && b.is_char_boundary(b.len() - suf)) {
        suf -= 1;
    }
    (pre, suf)
}
