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
