//! Positions at the protocol edge: the core works in byte offsets into the
//! UTF-8 text; the client speaks lines and columns in the encoding
//! negotiated at `initialize` (UTF-8 when offered, else UTF-16).

use pbn_core::text::{LineCol, LineIndex, Near, PositionEncoding};
use std::ops::Range as ByteRange;
use tower_lsp_server::ls_types::{Position, Range};

/// Converts between byte offsets and LSP positions for one text.
pub struct Converter<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub encoding: PositionEncoding,
}

impl Converter<'_> {
    pub fn position(&self, offset: usize) -> Position {
        let lc = self.index.line_col(self.text, offset, self.encoding);
        Position {
            line: lc.line,
            character: lc.col,
        }
    }

    pub fn range(&self, r: ByteRange<usize>) -> Range {
        Range {
            start: self.position(r.start),
            end: self.position(r.end),
        }
    }

    /// [`Converter::range`] for ranges mostly in increasing order; `hint`
    /// carries where the previous one started (see `LineIndex::line_col_near`).
    pub fn range_near(&self, r: ByteRange<usize>, hint: &mut Near) -> Range {
        let s = self
            .index
            .line_col_near(self.text, r.start, self.encoding, hint);
        let mut end_hint = *hint;
        let e = self
            .index
            .line_col_near(self.text, r.end, self.encoding, &mut end_hint);
        Range {
            start: Position {
                line: s.line,
                character: s.col,
            },
            end: Position {
                line: e.line,
                character: e.col,
            },
        }
    }

    pub fn offset(&self, p: Position) -> usize {
        self.index.offset(
            self.text,
            LineCol {
                line: p.line,
                col: p.character,
            },
            self.encoding,
        )
    }

    pub fn byte_range(&self, r: Range) -> ByteRange<usize> {
        let s = self.offset(r.start);
        let e = self.offset(r.end);
        s.min(e)..e.max(s)
    }
}
