//! The byte scan: where a piece may start (after a game break outside any
//! `{}` comment, agreeing with tree-sitter's lexer on where comments and
//! strings end), and where unterminated comments begin.

/// Byte offsets where a piece may start: the start of the first non-blank
/// line after a run of semi-empty lines outside any `{}` comment, at least
/// `piece` bytes after the previous cut; and, in a game longer than
/// [`GAME_WINDOW`](super::GAME_WINDOW), where it is cut into parts. Never 0
/// or `text.len()`.
pub fn cut_points(text: &str, piece: usize) -> Vec<usize> {
    scan(text, piece, false).cuts
}

/// What [`scan`] found in a stretch of text.
pub(super) struct Scan {
    /// Where pieces may start (offsets in the stretch).
    pub(super) cuts: Vec<usize>,
    /// The scan ends outside any `{}` comment (so that the end of the
    /// stretch is a valid place for the next piece to start, if it follows
    /// a semi-empty line).
    pub(super) outside: bool,
    /// The first `{` with no `}` after it in the whole text (offset in the
    /// stretch), where there is one: an unterminated comment.
    pub(super) open: Option<usize>,
}

/// [`cut_points`] of a stretch of the text; `close_after`: the text has a
/// `}` after the end of the stretch.
///
/// A `{` with its `}` further on is a comment to that `}`, blank lines and
/// all (§3.8). A `{` with no `}` anywhere after it is an unterminated
/// comment, which the grammar ends before the next semi-empty line; every
/// `{` after it is one too, so the scan goes on cutting after it: were a
/// file with many unterminated comments one piece, tree-sitter's lexer,
/// which looks for a `}` to the end of its input at every `{`, would take
/// time quadratic in its length. A `{` whose `}` may lie after the stretch
/// (`close_after`) ends the scan inside a comment.
pub(super) fn scan(text: &str, piece: usize, close_after: bool) -> Scan {
    let b = text.as_bytes();
    let n = b.len();
    let mut cuts = Vec::new();
    let mut open = None;
    let mut no_close = false;
    let mut last = 0;
    let mut i = 0;
    let mut line_start = true;
    let mut close = Next::new(b'}');
    let mut part = Part::default();
    while i < n {
        let c = b[i];
        if line_start && c == b'%' {
            // Escape line (§2.4): to the end of the line.
            i = line_end(b, i);
            line_start = false;
            continue;
        }
        line_start = false;
        match c {
            // Once no `}` follows, none follows any later `{` either: not
            // looked for again (that would be quadratic).
            b'{' => match if no_close { None } else { close.from(b, i + 1) } {
                Some(p) => i = p + 1,
                // The comment may run on to a `}` after the stretch.
                None if close_after => {
                    return Scan {
                        cuts,
                        outside: false,
                        open,
                    }
                }
                None => {
                    no_close = true;
                    open.get_or_insert(i);
                    i = unterminated_comment_end(text, i);
                    if i == n {
                        return Scan {
                            cuts,
                            outside: false,
                            open,
                        };
                    }
                }
            },
            b';' => i = line_end(b, i),
            b'"' => {
                i += 1;
                while i < n && b[i] != b'"' && b[i] != b'\n' && b[i] != b'\r' {
                    i += if b[i] == b'\\' && i + 1 < n && !matches!(b[i + 1], b'\n' | b'\r') {
                        2
                    } else {
                        1
                    };
                    while i < n && !STRING_STOP[b[i] as usize] {
                        i += 1;
                    }
                }
                if i < n && b[i] == b'"' {
                    i += 1;
                }
            }
            b'\n' | b'\r' => {
                i = after_newline(b, i);
                line_start = true;
                // A run of semi-empty lines right after this line end?
                let j = semi_empty_run_end(b, i);
                if j != i {
                    i = j;
                    part = Part::at(j);
                    if j < n && j - last >= piece {
                        cuts.push(j);
                        last = j;
                    }
                } else if i < n {
                    part.point(i, true, &mut cuts, &mut last);
                }
            }
            b'[' => {
                part.point(i, false, &mut cuts, &mut last);
                i += 1;
            }
            _ => {
                i += 1;
                while i < n && !SPECIAL[b[i] as usize] {
                    i += 1;
                }
            }
        }
    }
    Scan {
        cuts,
        outside: true,
        open,
    }
}

/// The part of a game the scan is in, for cutting a game longer than
/// [`GAME_WINDOW`](super::GAME_WINDOW) into parts: where the part starts
/// (the game's start, or the previous cut in it) and the last line start
/// and the last `[` after that start (offsets in the stretch; the start
/// itself when there is none), at most a window after it.
#[derive(Default)]
struct Part {
    start: usize,
    line: usize,
    bracket: usize,
}

impl Part {
    fn at(start: usize) -> Part {
        Part {
            start,
            line: start,
            bracket: start,
        }
    }

    /// A point where a part may start (outside strings and comments): a
    /// line start (`line`) or a `[`. Once a point lies more than a window
    /// after the part's start, the part ends at its last line start, or its
    /// last `[` on a line longer than a window, or at this point when it
    /// has neither; such a cut is pushed whatever the pieces' size.
    fn point(&mut self, p: usize, line: bool, cuts: &mut Vec<usize>, last: &mut usize) {
        while p > self.start + super::GAME_WINDOW {
            let cut = if self.line > self.start {
                self.line
            } else if self.bracket > self.start {
                self.bracket
            } else {
                p
            };
            cuts.push(cut);
            *last = cut;
            self.start = cut;
            self.line = self.line.max(cut);
            self.bracket = self.bracket.max(cut);
        }
        if line {
            self.line = p;
        } else {
            self.bracket = p;
        }
    }
}

/// The end of the unterminated comment starting with the `{` at `from`
/// (no `}` follows it): the grammar's
/// `unterminated_comment` runs over line ends as long as the next line,
/// after spaces, tabs, vertical tabs and form feeds, goes on with a
/// character that is not white space (Unicode white space, as
/// tree-sitter's `\s`) or `}`; it ends before the line end of a semi-empty
/// line, or at the end of the text. Looks at each byte once.
pub(super) fn unterminated_comment_end(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    let mut i = from + 1;
    loop {
        let e = memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(b.len(), |p| i + p);
        if e == b.len() {
            return e;
        }
        let mut k = after_newline(b, e);
        while k < b.len() && matches!(b[k], b' ' | b'\t' | 0x0b | 0x0c) {
            k += 1;
        }
        match text[k..].chars().next() {
            Some(c) if c != '}' && !c.is_whitespace() => i = k + c.len_utf8(),
            _ => return e,
        }
    }
}

/// The next position of one byte at or after the scan's position, found
/// once and reused until the scan passes it: the scan only moves forward,
/// so looking ahead stays linear however many `{` look for the same `}`.
struct Next {
    byte: u8,
    /// The last answer (`Some(None)`: none after some earlier position,
    /// so none after any later one).
    at: Option<Option<usize>>,
}

impl Next {
    fn new(byte: u8) -> Next {
        Next { byte, at: None }
    }

    fn from(&mut self, b: &[u8], i: usize) -> Option<usize> {
        match self.at {
            Some(None) => None,
            Some(Some(p)) if p >= i => Some(p),
            _ => {
                let r = memchr::memchr(self.byte, &b[i..]).map(|p| i + p);
                self.at = Some(r);
                r
            }
        }
    }
}

/// A table of the bytes in `set`.
const fn byte_set(set: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    while k < set.len() {
        t[set[k] as usize] = true;
        k += 1;
    }
    t
}

/// The bytes [`scan`] looks at outside strings and comments (the `%` of an
/// escape line matters only at a line start, right after a line end; a `[`
/// is where a game longer than a window may be cut).
static SPECIAL: [bool; 256] = byte_set(b"{;\"\n\r[");
/// The bytes that end or escape within a string.
static STRING_STOP: [bool; 256] = byte_set(b"\"\\\n\r");

/// Where the line at `from` ends: its `\n` or `\r`, or the end of `b`.
pub(crate) fn line_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
        i += 1;
    }
    i
}

/// The start of the line after the line end at `i` (`\r\n` is one).
pub(crate) fn after_newline(b: &[u8], i: usize) -> usize {
    if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
        i + 2
    } else {
        i + 1
    }
}

/// Whether a line is semi-empty: only white space the grammar skips
/// (space, tab, vertical tab, form feed), a game break (§3.1).
pub(crate) fn is_semi_empty(line: &[u8]) -> bool {
    line.iter().all(|c| matches!(c, b' ' | b'\t' | 0x0b | 0x0c))
}

/// The end of the run of semi-empty lines, each with its line end, that
/// starts at line start `i` (`i` when there is none).
pub(crate) fn semi_empty_run_end(b: &[u8], i: usize) -> usize {
    let mut j = i;
    loop {
        let e = line_end(b, j);
        if e < b.len() && is_semi_empty(&b[j..e]) {
            j = after_newline(b, e);
        } else {
            return j;
        }
    }
}

/// The offset of the last `}` of the text: a `{` after it has no `}`.
pub(super) fn last_close(text: &str) -> Option<usize> {
    memchr::memrchr(b'}', text.as_bytes())
}
