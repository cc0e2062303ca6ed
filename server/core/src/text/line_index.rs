/// How columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionEncoding {
    /// Unicode scalar values (what humans and `pbn check` count).
    Chars,
    /// UTF-16 code units (the LSP default, VS Code).
    Utf16,
    /// UTF-8 bytes (LSP when negotiated).
    Utf8,
}

/// A 0-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Line starts of a text, for converting byte offsets to line/column and
/// back. A line ends at LF, CRLF or a lone CR (§2: "the representation of a
/// text line differs among platforms").
///
/// The starts are kept in blocks of up to [`BLOCK`] lines, each a `u32`
/// offset from its block's first line start: 4 bytes a line (a `usize`
/// each took 40 MB on 100,000 games), and an edit rewrites the blocks it
/// touches and moves the later blocks' bases, never every later line. A
/// block is cut early where an offset would not fit in a `u32`, so any
/// size of text works.
#[derive(Clone, Debug)]
pub struct LineIndex {
    blocks: Vec<Block>,
    len: usize,
}

/// Lines per block of a [`LineIndex`] (a few in unit tests, so that they
/// cross blocks).
const BLOCK: usize = if cfg!(test) { 4 } else { 4096 };

#[derive(Clone, Debug)]
struct Block {
    /// The byte offset where its first line starts.
    base: usize,
    /// The number of its first line.
    first: usize,
    /// Its lines' starts minus `base` (the first is 0).
    rel: Vec<u32>,
}

impl Block {
    fn start(&self, k: usize) -> usize {
        self.base + self.rel[k] as usize
    }
}

/// Builds blocks from increasing line starts.
struct Blocks {
    blocks: Vec<Block>,
    lines: usize,
}

impl Blocks {
    fn new(first: usize) -> Blocks {
        Blocks {
            blocks: Vec::new(),
            lines: first,
        }
    }

    fn push(&mut self, start: usize) {
        match self.blocks.last_mut() {
            Some(b) if b.rel.len() < BLOCK && start - b.base <= u32::MAX as usize => {
                b.rel.push((start - b.base) as u32);
            }
            _ => {
                let mut rel = Vec::with_capacity(BLOCK);
                rel.push(0);
                self.blocks.push(Block {
                    base: start,
                    first: self.lines,
                    rel,
                });
            }
        }
        self.lines += 1;
    }
}

impl PartialEq for LineIndex {
    /// The same line starts, however they are cut into blocks.
    fn eq(&self, other: &LineIndex) -> bool {
        self.len == other.len && self.starts().eq(other.starts())
    }
}

impl Eq for LineIndex {}

/// Calls `push` with the start of the line after each line end (LF, CRLF,
/// lone CR) found in `b[from..to]`, found with SIMD (most of a PBN file is
/// short lines); a CRLF whose CR is before `to` counts whole. Returns where
/// the scan ended: `to`, or one past it after such a CRLF.
fn line_starts(b: &[u8], from: usize, to: usize, mut push: impl FnMut(usize)) -> usize {
    let mut end = to;
    let mut skip_lf = None;
    for p in memchr::memchr2_iter(b'\n', b'\r', &b[from..to]) {
        let i = from + p;
        if skip_lf == Some(i) {
            continue; // the LF of a CRLF
        }
        if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
            skip_lf = Some(i + 1);
            push(i + 2);
            end = end.max(i + 2);
        } else {
            push(i + 1);
        }
    }
    end
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        // A large text in a part per core (the CLI's JSON and human
        // reports and the language server's open wait for the index).
        let parts = if text.len() < 1 << 20 {
            1
        } else {
            crate::par::threads()
        };
        LineIndex::new_in_parts(text, parts)
    }

    /// [`LineIndex::new`], the text scanned in about `parts` parts on every
    /// core. Parts end right after an LF, so that no line end straddles two.
    fn new_in_parts(text: &str, parts: usize) -> Self {
        let b = text.as_bytes();
        let mut bounds = vec![0];
        for k in 1..parts.max(1) {
            let from = (b.len() / parts * k).max(*bounds.last().expect("bounds start with 0"));
            match memchr::memchr(b'\n', &b[from..]) {
                Some(p) => bounds.push(from + p + 1),
                None => break,
            }
        }
        bounds.push(b.len());
        bounds.dedup();
        let ranges: Vec<(usize, usize)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
        // Each part's blocks (its first line start is the end of the
        // previous part's last line), numbered from 0 and renumbered after.
        let found = crate::par::map(&ranges, |&(from, to)| {
            let mut blocks = Blocks::new(0);
            if from == 0 {
                blocks.push(0);
            }
            line_starts(b, from, to, |s| blocks.push(s));
            blocks
        });
        let mut all = Vec::with_capacity(found.iter().map(|f| f.blocks.len()).sum());
        let mut lines = 0;
        for part in found {
            all.extend(part.blocks.into_iter().map(|mut block| {
                block.first += lines;
                block
            }));
            lines += part.lines;
        }
        if all.is_empty() {
            all.push(Block {
                base: 0,
                first: 0,
                rel: vec![0],
            });
        }
        LineIndex {
            blocks: all,
            len: text.len(),
        }
    }

    /// Every line start, in order.
    fn starts(&self) -> impl Iterator<Item = usize> + '_ {
        self.blocks
            .iter()
            .flat_map(|b| b.rel.iter().map(move |&r| b.base + r as usize))
    }

    /// The block holding `line` (< `line_count`).
    fn block_of_line(&self, line: usize) -> usize {
        self.blocks.partition_point(|b| b.first <= line) - 1
    }

    /// [`LineIndex::replace`] on a copy.
    pub fn edited(&self, text: &str, start: usize, old_end: usize, new_end: usize) -> LineIndex {
        let mut index = self.clone();
        index.replace(text, start, old_end, new_end);
        index
    }

    /// Updates the index to `text`, the previous text (this index's) with
    /// its bytes `start..old_end` replaced by `start..new_end` of `text`:
    /// lines before the edit are kept, only the lines around it scanned
    /// again, the blocks holding them rebuilt and the later blocks moved.
    /// The language server updates its index this way on every keystroke.
    pub fn replace(&mut self, text: &str, start: usize, old_end: usize, new_end: usize) {
        let b = text.as_bytes();
        // From the start of the line holding the byte before the edit: a
        // CR there may now be followed by an LF.
        let l0 = self.line_of(start.saturating_sub(1).min(self.len));
        let s0 = self.line_start(l0);
        let mut mid = Vec::new();
        let i = line_starts(b, s0, (new_end + 2).min(b.len()), |s| mid.push(s));
        // After the edit the text is the old one, shifted: the old line
        // starts after `old_end` that lie beyond what was scanned stay.
        let seen = mid.last().copied().unwrap_or(s0).max(i);
        let from = self.line_of(old_end.min(self.len)) + 1;
        let count = self.line_count();
        let shifted = |q: usize| q - old_end + new_end;
        let mut kept = from;
        while kept < count && shifted(self.line_start(kept)) <= seen {
            kept += 1;
        }
        // Old lines l0 + 1 .. kept become `mid`; the blocks holding lines
        // l0 ..= kept - 1 are rebuilt.
        let (ba, bb) = (
            self.block_of_line(l0),
            self.block_of_line(kept.max(l0 + 1) - 1),
        );
        let end_line = self.blocks[bb].first + self.blocks[bb].rel.len();
        let mut rebuilt = Blocks::new(self.blocks[ba].first);
        for line in self.blocks[ba].first..=l0 {
            rebuilt.push(self.line_start(line));
        }
        for &s in &mid {
            rebuilt.push(s);
        }
        for line in kept..end_line {
            rebuilt.push(shifted(self.line_start(line)));
        }
        let (lines, next) = (rebuilt.lines, ba + rebuilt.blocks.len());
        self.blocks.splice(ba..=bb, rebuilt.blocks);
        for b in &mut self.blocks[next..] {
            b.base = shifted(b.base);
            b.first = b.first + lines - end_line;
        }
        self.len = text.len();
    }

    pub fn line_count(&self) -> usize {
        let last = self.blocks.last().expect("an index has a block");
        last.first + last.rel.len()
    }

    /// The byte offset where 0-based `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        if line >= self.line_count() {
            return self.len;
        }
        let b = &self.blocks[self.block_of_line(line)];
        b.start(line - b.first)
    }

    /// The byte range of 0-based `line` without its line ending.
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self.line_start(line);
        let mut end = self.line_start(line + 1);
        let b = text.as_bytes();
        while end > start && (b[end - 1] == b'\n' || b[end - 1] == b'\r') {
            end -= 1;
        }
        start..end
    }

    /// The 0-based line containing byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let k = self.blocks.partition_point(|b| b.base <= offset).max(1) - 1;
        let b = &self.blocks[k];
        let rel = offset.saturating_sub(b.base).min(u32::MAX as usize) as u32;
        b.first + b.rel.partition_point(|&r| r <= rel).max(1) - 1
    }

    /// Converts a byte offset (clamped to a char boundary) to line/column.
    pub fn line_col(&self, text: &str, offset: usize, enc: PositionEncoding) -> LineCol {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        self.col_in(text, self.line_of(offset), offset, enc)
    }

    /// [`LineIndex::line_col`] for offsets mostly in increasing order:
    /// `near` is where the previous call ended (updated). An offset on that
    /// line or the next is found without a search, and one on the same line
    /// has its column counted from the previous offset when that is nearer
    /// than the line's start: many positions on one long line cost about the
    /// line once, not once each.
    pub fn line_col_near(
        &self,
        text: &str,
        offset: usize,
        enc: PositionEncoding,
        near: &mut Near,
    ) -> LineCol {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let h = near.line;
        let on = |l: usize| {
            l < self.line_count()
                && self.line_start(l) <= offset
                && (l + 1 == self.line_count() || offset < self.line_start(l + 1))
        };
        let line = if on(h) {
            h
        } else if on(h + 1) {
            h + 1
        } else {
            self.line_of(offset)
        };
        let start = self.line_start(line);
        let lc = match near.col {
            Some((e, at, col)) if line == h && e == enc && at.abs_diff(offset) < offset - start => {
                let col = if at <= offset {
                    col + units(&text[at..offset], enc)
                } else {
                    col - units(&text[offset..at], enc)
                };
                LineCol {
                    line: line as u32,
                    col: col as u32,
                }
            }
            _ => self.col_in(text, line, offset, enc),
        };
        *near = Near {
            line,
            col: Some((enc, offset, lc.col as usize)),
        };
        lc
    }

    fn col_in(&self, text: &str, line: usize, offset: usize, enc: PositionEncoding) -> LineCol {
        LineCol {
            line: line as u32,
            col: units(&text[self.line_start(line)..offset], enc) as u32,
        }
    }

    /// Converts line/column back to a byte offset; columns past the end of
    /// the line clamp to its end (as LSP requires).
    pub fn offset(&self, text: &str, pos: LineCol, enc: PositionEncoding) -> usize {
        let line = pos.line as usize;
        if line >= self.line_count() {
            return self.len;
        }
        let range = self.line_range(text, line);
        let seg = &text[range.clone()];
        let mut units = 0usize;
        for (i, c) in seg.char_indices() {
            if units >= pos.col as usize {
                return range.start + i;
            }
            units += match enc {
                PositionEncoding::Utf8 => c.len_utf8(),
                PositionEncoding::Chars => 1,
                PositionEncoding::Utf16 => c.len_utf16(),
            };
        }
        range.end
    }
}

/// Where [`LineIndex::line_col_near`] ended: the line, and the last
/// offset's column in the encoding it was counted in. `Near::default()`
/// starts at line 0 with nothing counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Near {
    line: usize,
    col: Option<(PositionEncoding, usize, usize)>,
}

/// The length of `seg` in the units of `enc`.
fn units(seg: &str, enc: PositionEncoding) -> usize {
    match enc {
        PositionEncoding::Utf8 => seg.len(),
        _ if seg.is_ascii() => seg.len(),
        PositionEncoding::Chars => seg.chars().count(),
        PositionEncoding::Utf16 => seg.chars().map(char::len_utf16).sum(),
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_near_equals_line_col() {
        let text = "ab\ncé\r\n\r😀x\n\n\nlast";
        let idx = LineIndex::new(text);
        for enc in [
            PositionEncoding::Utf8,
            PositionEncoding::Utf16,
            PositionEncoding::Chars,
        ] {
            for start_hint in [0, 2, 5, 100] {
                let mut hint = Near {
                    line: start_hint,
                    col: None,
                };
                // Increasing offsets, then a jump back.
                for off in (0..=text.len() + 2).chain([1, 7, 3]) {
                    assert_eq!(
                        idx.line_col_near(text, off, enc, &mut hint),
                        idx.line_col(text, off, enc),
                        "{off} {enc:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn line_col_near_counts_on_from_the_last_offset() {
        // One long line of mixed widths: offsets forward, backward, and
        // back and forth between the starts and ends of ranges.
        let line: String = (0..300)
            .map(|i| match i % 7 {
                0 => 'é',
                3 => '😀',
                _ => 'a',
            })
            .collect();
        let text = format!("x\n{line}\n{line}");
        let idx = LineIndex::new(&text);
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let mut order: Vec<usize> = bounds.clone();
        order.extend(bounds.iter().rev());
        order.extend(bounds.iter().step_by(3).flat_map(|&i| [i, i + 40, i + 3]));
        for enc in [
            PositionEncoding::Utf8,
            PositionEncoding::Utf16,
            PositionEncoding::Chars,
        ] {
            let mut near = Near::default();
            for &off in &order {
                assert_eq!(
                    idx.line_col_near(&text, off, enc, &mut near),
                    idx.line_col(&text, off, enc),
                    "{off} {enc:?}"
                );
            }
        }
        // A memo in another encoding is not used.
        let mut near = Near::default();
        let off = text.len() - 5;
        idx.line_col_near(&text, off, PositionEncoding::Utf8, &mut near);
        assert_eq!(
            idx.line_col_near(&text, off + 1, PositionEncoding::Chars, &mut near),
            idx.line_col(&text, off + 1, PositionEncoding::Chars)
        );
    }

    #[test]
    fn columns_in_all_encodings() {
        let text = "ab\r\n{é𝄞}x\rlast";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 3);
        let x = text.find('x').unwrap();
        assert_eq!(
            idx.line_col(text, x, PositionEncoding::Chars),
            LineCol { line: 1, col: 4 }
        );
        assert_eq!(
            idx.line_col(text, x, PositionEncoding::Utf16),
            LineCol { line: 1, col: 5 }
        );
        assert_eq!(
            idx.line_col(text, x, PositionEncoding::Utf8),
            LineCol { line: 1, col: 8 }
        );
        for enc in [
            PositionEncoding::Chars,
            PositionEncoding::Utf16,
            PositionEncoding::Utf8,
        ] {
            let lc = idx.line_col(text, x, enc);
            assert_eq!(idx.offset(text, lc, enc), x);
        }
        assert_eq!(
            idx.line_col(text, text.len(), PositionEncoding::Chars),
            LineCol { line: 2, col: 4 }
        );
    }
}

#[cfg(test)]
mod edited_tests {
    use super::LineIndex;

    /// `LineIndex::new` (memchr) against a byte-by-byte reading of the
    /// line ends: LF, CRLF and a lone CR, in every combination.
    #[test]
    fn line_starts_match_a_byte_by_byte_scan() {
        let reference = |b: &[u8]| {
            let mut starts = vec![0];
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b'\n' => starts.push(i + 1),
                    b'\r' => {
                        if b.get(i + 1) == Some(&b'\n') {
                            i += 1;
                        }
                        starts.push(i + 1);
                    }
                    _ => {}
                }
                i += 1;
            }
            starts
        };
        let alphabet = ["\n", "\r", "x", "é"];
        for n in 0..=6u32 {
            for code in 0..4usize.pow(n) {
                let text: String = (0..n).map(|k| alphabet[code / 4usize.pow(k) % 4]).collect();
                assert_eq!(
                    LineIndex::new(&text).starts().collect::<Vec<_>>(),
                    reference(text.as_bytes()),
                    "{text:?}"
                );
                // Scanned in parts (as a large text is, on every core).
                for parts in [2, 3, 7] {
                    assert_eq!(
                        LineIndex::new_in_parts(&text, parts),
                        LineIndex::new(&text),
                        "{text:?} in {parts} parts"
                    );
                }
            }
        }
    }

    /// Random edits: the updated index equals one built afresh.
    #[test]
    fn edited_index_equals_a_fresh_one() {
        let pieces = ["", "\n", "\r", "\r\n", "x", "ab\ncd", "\n\n", "é", "\r\r\n"];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let mut text = String::from("a\nb\r\nc\rd\n\ne");
        let mut index = LineIndex::new(&text);
        for round in 0..3000 {
            let mut start = next(text.len() + 1);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + next(4)).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let insert = pieces[next(pieces.len())];
            text.replace_range(start..end, insert);
            index = index.edited(&text, start, end, start + insert.len());
            let fresh = LineIndex::new(&text);
            assert_eq!(
                (index.starts().collect::<Vec<_>>(), index.len),
                (fresh.starts().collect::<Vec<_>>(), fresh.len),
                "round {round}: {text:?}"
            );
            // Its blocks are numbered right: every lookup agrees.
            assert_eq!(index.line_count(), fresh.line_count());
            for line in 0..=index.line_count() {
                assert_eq!(index.line_start(line), fresh.line_start(line), "{text:?}");
            }
            for off in 0..=text.len() {
                assert_eq!(index.line_of(off), fresh.line_of(off), "{text:?} {off}");
            }
            if text.len() > 200 {
                let mut k = 20;
                while !text.is_char_boundary(k) {
                    k -= 1;
                }
                text.truncate(k);
                index = LineIndex::new(&text);
            }
        }
    }
}
