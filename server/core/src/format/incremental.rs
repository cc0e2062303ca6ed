//! Formatting as edits, piece by piece: what the language server answers a
//! formatting request with. A piece's formatted blocks ([`PieceOut`]) depend
//! only on the piece's text, its games' inherited values and missing-tag
//! marks and the options, so the server keeps them by piece; [`edits`] puts
//! the pieces together into the edits that turn the document into what
//! [`super::format`] gives (without the export header, which the server
//! never adds): one edit per run of changed text, none for an already
//! formatted document.
//!
//! The formatted document is the [`super::Assembler`]'s concatenation, cut
//! at block boundaries: before the first block, the text before it as
//! written if that block is kept as written (without a leading U+FEFF),
//! else nothing; between two blocks, the text between them as written if
//! either is kept as written, else a blank line; each block, as written or
//! printed; after the last block, the rest of the text as written if it is
//! kept as written, else a line end. Each of these stands for a stretch of
//! the source, which is replaced where the two differ.

use super::{Kept, Part};
use std::borrow::Cow;
use std::ops::Range;

/// The formatted blocks of one piece of a document, their positions
/// relative to the piece's start.
#[derive(Debug, Default)]
pub struct PieceOut {
    blocks: Vec<BlockOut>,
}

#[derive(Debug)]
struct BlockOut {
    range: Range<usize>,
    verbatim: bool,
    /// The block's text, where it differs from the source's (`None`: as
    /// written): printed, with its line ends made; or kept as written after
    /// the piece's safe fixes.
    text: Option<Box<str>>,
}

impl PieceOut {
    /// The number of blocks whose printed text differs from the source.
    pub fn changed(&self) -> usize {
        self.blocks.iter().filter(|b| b.text.is_some()).count()
    }
}

impl Part<'_> {
    /// This part (the blocks of a piece starting at byte `start` of `text`)
    /// as [`PieceOut`], its printed blocks' line ends made `eol`
    /// ([`super::eol_of`]).
    pub fn into_piece_out(self, text: &str, start: usize, eol: &str) -> PieceOut {
        let blocks = self
            .blocks
            .into_iter()
            .zip(self.ranges)
            .zip(self.kept)
            .map(|((b, r), kept)| {
                let verbatim = !matches!(kept, Kept::Printed);
                // A block kept as written is the piece's text after its
                // safe fixes ([`super::format_piece_fixed`]): as it is.
                let out = if verbatim {
                    (*b != text[r.clone()]).then(|| b.into_owned())
                } else {
                    let mut s = String::new();
                    super::push_normalized(&mut s, b.trim_end_matches(['\n', '\r']), eol);
                    (s != text[r.clone()]).then_some(s)
                };
                BlockOut {
                    text: out.map(String::into_boxed_str),
                    range: r.start - start..r.end - start,
                    verbatim,
                }
            })
            .collect();
        PieceOut { blocks }
    }
}

/// The edits (source range, new text; in order, apart; each trimmed to
/// where the text differs) that format `text`,
/// from its pieces' outputs in order, each with its start, and the line end
/// written (`eol`). Nothing for a document already formatted.
pub fn edits<'p>(
    text: &str,
    pieces: impl IntoIterator<Item = (usize, &'p PieceOut)>,
    eol: &str,
) -> Vec<(Range<usize>, String)> {
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    let mut put = |r: Range<usize>, new: Cow<'_, str>| {
        let old = &text[r.clone()];
        if old == new {
            return;
        }
        // Only what differs: the common start and end stay.
        let (pre, suf) = crate::text::common_ends(old, &new);
        let r = r.start + pre..r.end - suf;
        let new = &new[pre..new.len() - suf];
        match out.last_mut() {
            Some((last, s)) if last.end == r.start => {
                last.end = r.end;
                s.push_str(new);
            }
            _ => out.push((r, new.to_owned())),
        }
    };
    let blank = eol.repeat(2);
    let mut prev: Option<(usize, bool)> = None;
    for (start, piece) in pieces {
        for b in &piece.blocks {
            let r = b.range.start + start..b.range.end + start;
            match prev {
                None => {
                    let lead = if !b.verbatim {
                        ""
                    } else if text.starts_with('\u{feff}') {
                        &text['\u{feff}'.len_utf8().min(r.start)..r.start]
                    } else {
                        &text[..r.start]
                    };
                    put(0..r.start, lead.into());
                }
                Some((end, prev_verbatim)) => {
                    if !(b.verbatim || prev_verbatim) {
                        put(end..r.start, blank.as_str().into());
                    }
                }
            }
            if let Some(s) = &b.text {
                put(r.clone(), (**s).into());
            }
            prev = Some((r.end, b.verbatim));
        }
    }
    match prev {
        None => put(0..text.len(), "".into()),
        Some((end, false)) => put(end..text.len(), eol.into()),
        Some((_, true)) => {}
    }
    out
}
