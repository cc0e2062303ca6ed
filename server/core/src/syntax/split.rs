//! Parsing a large file in pieces, on every core.
//!
//! A game break (§3: a semi-empty line) is a point where the parser is back
//! at the start of the document rule: the document is a flat sequence of
//! games, game breaks, comments and escape lines. A file can therefore be
//! cut right after a game break and each piece parsed on its own, with
//! tree-sitter's included ranges so that every node keeps its byte offset in
//! the whole file. The pieces' top-level nodes, one after the other, are
//! the top-level nodes of the whole file's tree.
//!
//! The cut points are found by a byte scan that knows the only tokens that
//! can span lines or hide a semi-empty line: `{…}` comments (§3.8). Strings,
//! `;` comments and `%` escape lines end at the line end. A NUL byte ends a
//! string, a `;` comment or a `{` comment there, as it does in
//! tree-sitter's lexer (which takes it for the end of its input inside a
//! token); the scan must agree with the lexer on where comments end, or a
//! piece would not start where the grammar sees a game break.
//!
//! **The canonical parse.** Where a document has no syntax error, any cutting
//! gives the tree of the whole file. Where it has one, tree-sitter's error
//! recovery may reach across a game break, so the cutting would matter. The
//! syntax of a PBN document is therefore defined game by game, as §3 defines
//! the document ("each game … starts with a semi-empty line"): a piece whose
//! tree has an ERROR or MISSING node is parsed again one game at a time (and
//! a piece holding a `{` with no `}` after it, an unterminated comment, is
//! parsed one game at a time from the start: tree-sitter's lexer looks for
//! the `}` to the end of its input at each such `{`). A
//! broken game then never swallows the next, and the result does not depend
//! on where the pieces were cut: `pbn check` (large pieces, every core) and
//! the language server (small pieces, parsed when needed: [`Forest`]) see
//! the same trees.

use tree_sitter::{InputEdit, Point, Range, Tree};

/// Files smaller than this are parsed in one piece (unless it has an error).
pub const MIN_SPLIT: usize = 512 * 1024;

/// The pieces the language server keeps: an edit reparses one or a few.
pub const EDIT_PIECE: usize = 32 * 1024;

/// The most bytes given to tree-sitter at once. A game longer than this
/// (no PBN game is: a tag value holds at most 255 characters, §2.3) is
/// parsed in windows of at most this many bytes, cut at line starts where
/// the window has a line end, each its own tree (its syntax errors are
/// reported as usual; the end of a window ends a game like the end of a
/// piece). Tree-sitter adds up the error cost of a parse in 32 bits (about
/// 100 per skipped token, 1 per skipped byte, 30 per skipped line): about
/// 43 MB of `[` overflowed it and tripped an assertion that aborted every
/// command. A window of 16 MB stays below half of that limit.
pub const MAX_WINDOW: usize = 16 << 20;

/// Byte offsets where a piece may start: the start of the first non-blank
/// line after a run of semi-empty lines outside any `{}` comment, at least
/// `piece` bytes after the previous cut. Never 0 or `text.len()`.
pub fn cut_points(text: &str, piece: usize) -> Vec<usize> {
    scan(text, piece, false).cuts
}

/// What [`scan`] found in a stretch of text.
struct Scan {
    /// Where pieces may start (offsets in the stretch).
    cuts: Vec<usize>,
    /// The scan ends outside any `{}` comment (so that the end of the
    /// stretch is a valid place for the next piece to start, if it follows
    /// a semi-empty line).
    outside: bool,
    /// The first `{` with no `}` after it in the whole text (offset in the
    /// stretch), where there is one: an unterminated comment.
    open: Option<usize>,
    /// The first `{` whose comment a NUL ends before the `}` that follows
    /// it (offset in the stretch): an unterminated comment that a `}` typed
    /// before the NUL, or the NUL deleted, makes a comment to that `}`.
    nul_open: Option<usize>,
}

/// [`cut_points`] of a stretch of the text; `close_after`: the text has a
/// `}` after the end of the stretch.
///
/// A `{` with its `}` further on is a comment to that `}`, blank lines and
/// all (§3.8). A `{` with no `}` anywhere after it is an unterminated
/// comment, which the grammar ends before the next semi-empty line; every
/// `{` after it is one too, so the scan goes on cutting after it. (Until
/// 2026-11-23 it stopped there: a file with many unterminated comments was
/// then one piece, and tree-sitter's lexer, which looks for a `}` to the
/// end of its input at every `{`, took time quadratic in its length: found
/// by `pbn-bench scaling` on fuzz inputs.) A `{` whose `}` may lie after the
/// stretch (`close_after`) ends the scan inside a comment.
fn scan(text: &str, piece: usize, close_after: bool) -> Scan {
    let b = text.as_bytes();
    let n = b.len();
    let mut cuts = Vec::new();
    let mut open = None;
    let mut nul_open = None;
    let mut no_close = false;
    let mut last = 0;
    let mut i = 0;
    let mut line_start = true;
    let (mut close, mut nul) = (Next::new(b'}'), Next::new(0));
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
            // A NUL before the `}` ends the comment there, as an
            // unterminated one (tree-sitter's lexer takes a NUL for the end
            // of its input inside a token; found by fuzzing `pbn fmt`).
            b'{' => match if no_close { None } else { close.from(b, i + 1) } {
                Some(p) if nul.from(b, i + 1).is_some_and(|z| z < p) => {
                    nul_open.get_or_insert(i);
                    i = unterminated_comment_end(text, i);
                }
                Some(p) => i = p + 1,
                // The comment may run on to a `}` after the stretch (unless
                // a NUL ends it before).
                None if close_after && nul.from(b, i + 1).is_none() => {
                    return Scan {
                        cuts,
                        outside: false,
                        open,
                        nul_open,
                    }
                }
                None if close_after => {
                    nul_open.get_or_insert(i);
                    i = unterminated_comment_end(text, i);
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
                            nul_open,
                        };
                    }
                }
            },
            b';' => {
                let e = line_end(b, i);
                i = memchr::memchr(0, &b[i..e]).map_or(e, |z| i + z);
            }
            b'"' => {
                i += 1;
                while i < n && b[i] != b'"' && b[i] != b'\n' && b[i] != b'\r' && b[i] != 0 {
                    i += if b[i] == b'\\' && i + 1 < n && !matches!(b[i + 1], b'\n' | b'\r' | 0) {
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
                let mut j = i;
                let mut blank = false;
                loop {
                    let mut k = j;
                    while k < n && matches!(b[k], b' ' | b'\t' | 0x0b | 0x0c) {
                        k += 1;
                    }
                    if k < n && (b[k] == b'\n' || b[k] == b'\r') {
                        j = after_newline(b, k);
                        blank = true;
                    } else {
                        break;
                    }
                }
                if blank {
                    i = j;
                    if j < n && j - last >= piece {
                        cuts.push(j);
                        last = j;
                    }
                }
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
        nul_open,
    }
}

/// The end of the unterminated comment starting with the `{` at `from`
/// (no `}` follows it, or a NUL comes first): the grammar's
/// `unterminated_comment` runs over line ends as long as the next line,
/// after spaces, tabs, vertical tabs and form feeds, goes on with a
/// character that is not white space (Unicode white space, as
/// tree-sitter's `\s`) or `}`; it ends before the line end of a semi-empty
/// line, at a NUL (which tree-sitter's lexer takes for the end of its input
/// inside a token), or at the end of the text. Looks at each byte once.
fn unterminated_comment_end(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    let mut i = from + 1;
    loop {
        let e = memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(b.len(), |p| i + p);
        if let Some(z) = memchr::memchr(0, &b[i..e]) {
            return i + z;
        }
        if e == b.len() {
            return e;
        }
        let mut k = after_newline(b, e);
        while k < b.len() && matches!(b[k], b' ' | b'\t' | 0x0b | 0x0c) {
            k += 1;
        }
        match text[k..].chars().next() {
            Some(c) if c != '}' && c != '\0' && !c.is_whitespace() => i = k + c.len_utf8(),
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
/// escape line matters only at a line start, right after a line end).
static SPECIAL: [bool; 256] = byte_set(b"{;\"\n\r");
/// The bytes that end or escape within a string.
static STRING_STOP: [bool; 256] = byte_set(b"\"\\\n\r\0");

fn line_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
        i += 1;
    }
    i
}

fn after_newline(b: &[u8], i: usize) -> usize {
    if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
        i + 2
    } else {
        i + 1
    }
}

/// The canonical parse of `text` (see the module documentation), in pieces
/// on every core when it is large. The trees are in document order.
pub fn parse_pieces(text: &str) -> Vec<Tree> {
    let threads = crate::par::threads();
    let piece = if text.len() < MIN_SPLIT || threads < 2 {
        usize::MAX
    } else {
        (text.len() / (threads * 4)).max(MIN_SPLIT / 2)
    };
    parse_split(text, piece)
}

/// The canonical parse with pieces of at least `piece` bytes, whatever the
/// size of the file (for tests: `piece` 1 cuts at every game break).
pub fn parse_split(text: &str, piece: usize) -> Vec<Tree> {
    parse_region(text, 0..text.len(), Point { row: 0, column: 0 }, piece)
}

/// The language server's view of a document's parse: the document cut at
/// game breaks into pieces of about [`EDIT_PIECE`] bytes, each with an id
/// that changes whenever its text does. It holds no trees: a piece's trees
/// (its canonical parse, [`Forest::piece_trees`]) are parsed when some
/// work needs them and kept in a small cache shared by the versions of the
/// document ([`TreeCache`]), so that the server's memory does not hold a
/// syntax tree of the whole document (about 15 times the text) while an
/// edit still reparses only the piece it touched.
#[derive(Clone)]
pub struct Forest {
    ranges: Vec<std::ops::Range<usize>>,
    /// The point (tree-sitter row and byte column) of each piece's start.
    starts: Vec<Point>,
    /// One id per piece, new whenever its text changes.
    ids: Vec<u64>,
    /// Pieces an edit touched, to cut again ([`Forest::recut`]).
    dirty: Vec<bool>,
    piece: usize,
    cache: std::sync::Arc<TreeCache>,
    /// The text's last `}` ([`last_close`]), as of the last cut.
    last_close: Option<usize>,
    /// The first `{` with no `}` after it, as of the last cut, moved by the
    /// edits since (or the start of an edit that touched it): the pieces
    /// after it were cut as if no `}` could follow, which a `}` typed after
    /// it makes wrong ([`Forest::recut`] then cuts the rest again).
    open: Option<usize>,
    /// At or before the first `{` whose comment a NUL ends before a `}`
    /// (moved by the edits like `open`): an edit anywhere after it may
    /// insert a `}` before that NUL or delete the NUL, and so turn the
    /// comment into one running over the cuts after it, so
    /// [`Forest::recut`] starts its window at the piece holding it. Such
    /// `{`s only occur in files with NUL bytes (found by fuzzing
    /// `incremental_reparse`, 2026-11-27: a `}` typed into a later piece
    /// left a cut inside the comment it closed).
    nul_open: Option<usize>,
}

/// The next piece id. Process-wide, not per [`TreeCache`]: the language
/// server's re-check state ([`crate::checker::engine`]) is keyed by piece ids and
/// outlives a forest (a new forest after a whole-text change), so an id must
/// never be handed out twice in a process.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// `n` ids never handed out before (in this process).
fn fresh_ids(n: usize) -> impl Iterator<Item = u64> {
    let first = NEXT_ID.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    first..first + n as u64
}

/// Fuzz builds only: hands out ids from 1 again. The fuzz properties call
/// it first thing in every execution, when no forest or re-check state of
/// an earlier input is alive. Otherwise an input's ids, the keys of the tree
/// cache's and the re-check's hash maps, would depend on how many forests
/// the inputs before it made, and with them the maps' probe paths, which
/// are instrumented generic code: a campaign, which runs its inputs in a
/// random order, would count those paths as new coverage by chance
/// (ROBUSTNESS.md, "Stable coverage").
#[cfg(fuzzing)]
pub fn restart_ids_for_fuzzing() {
    NEXT_ID.store(1, std::sync::atomic::Ordering::Relaxed);
}

impl std::fmt::Debug for Forest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forest")
            .field("ranges", &self.ranges)
            .finish()
    }
}

/// The trees of one piece: one tree, or one per game where the piece's
/// tree has a syntax error (the canonical parse, see the module
/// documentation). Their top-level nodes, in order, are the piece's.
pub type PieceTrees = std::sync::Arc<Vec<Tree>>;

/// Recently used piece trees, by piece id and position, up to a budget of
/// piece text (the trees take about 15 times their text). Shared by the
/// versions of one document: a hover after an edit finds the edited
/// piece's trees that the re-check parsed.
pub struct TreeCache {
    budget: usize,
    inner: std::sync::Mutex<CacheInner>,
}

/// A piece's id, start byte, and start row and column.
type CacheKey = (u64, usize, usize, usize);

#[derive(Default)]
struct CacheInner {
    /// (id, start byte, start row and column) → (trees, text length, last use)
    map: crate::hash::Map<CacheKey, (PieceTrees, usize, u64)>,
    used: usize,
    tick: u64,
}

/// The text of the pieces whose trees a document keeps (the trees of
/// 1 MB of text take about 15 MB).
pub const CACHE_BUDGET: usize = 1024 * 1024;

impl TreeCache {
    pub fn new(budget: usize) -> TreeCache {
        TreeCache {
            budget,
            inner: std::sync::Mutex::new(CacheInner::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: CacheKey) -> Option<PieceTrees> {
        let mut c = self.lock();
        c.tick += 1;
        let tick = c.tick;
        let e = c.map.get_mut(&key)?;
        e.2 = tick;
        Some(e.0.clone())
    }

    /// Keeps `trees` (of a piece of `len` bytes), dropping the least
    /// recently used pieces' beyond the budget. The newest always stays,
    /// even alone over the budget: a piece of one huge game (a megabyte
    /// comment) would otherwise be parsed again for every hover in it.
    fn put(&self, key: CacheKey, trees: PieceTrees, len: usize) {
        let mut c = self.lock();
        c.tick += 1;
        let tick = c.tick;
        if let Some(old) = c.map.insert(key, (trees, len, tick)) {
            c.used -= old.1;
        }
        c.used += len;
        while c.used > self.budget && c.map.len() > 1 {
            let Some((&k, _)) = c.map.iter().min_by_key(|(_, e)| e.2) else {
                break;
            };
            let e = c.map.remove(&k).expect("the key was just found");
            c.used -= e.1;
        }
    }

    /// The number of pieces whose trees are kept (for tests).
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Forest {
    /// `text` cut into pieces of at least `piece` bytes (nothing is parsed).
    pub fn cut(text: &str, piece: usize) -> Forest {
        Forest::cut_with_cache(text, piece, CACHE_BUDGET)
    }

    /// [`Forest::cut`] with a tree cache of `budget` bytes of piece text.
    pub fn cut_with_cache(text: &str, piece: usize, budget: usize) -> Forest {
        let close = last_close(text);
        let (ranges, starts, open, nul_open) = cut_region(
            text,
            0..text.len(),
            Point { row: 0, column: 0 },
            piece,
            close,
        );
        let dirty = vec![false; ranges.len()];
        let ids = fresh_ids(ranges.len()).collect();
        Forest {
            ranges,
            starts,
            ids,
            dirty,
            piece,
            cache: std::sync::Arc::new(TreeCache::new(budget)),
            last_close: close,
            open,
            nul_open,
        }
    }

    /// The byte ranges of the pieces.
    pub fn ranges(&self) -> &[std::ops::Range<usize>] {
        &self.ranges
    }

    /// The pieces' ids (an id stays while the piece's text does).
    pub fn ids(&self) -> &[u64] {
        &self.ids
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The cache of this document's piece trees.
    pub fn cache(&self) -> &TreeCache {
        &self.cache
    }

    /// The index of the piece containing byte `offset` (the last piece for
    /// the end of the text).
    pub fn piece_at(&self, offset: usize) -> usize {
        self.ranges
            .partition_point(|r| r.end <= offset)
            .min(self.ranges.len() - 1)
    }

    /// The trees of piece `i` of `text` (the text this forest was cut from
    /// or kept in step with): from the cache, or parsed now and cached.
    pub fn piece_trees(&self, i: usize, text: &str) -> PieceTrees {
        let (key, cached) = self.cached(i, text);
        cached.unwrap_or_else(|| {
            let trees = self.parse_piece(i, key, text);
            self.cache.put(key, trees.clone(), self.ranges[i].len());
            trees
        })
    }

    /// The trees of piece `i`, from the cache or parsed now without being
    /// cached (for walks over every piece, which would only push the
    /// recently used pieces out).
    pub fn piece_trees_uncached(&self, i: usize, text: &str) -> PieceTrees {
        let (key, cached) = self.cached(i, text);
        cached.unwrap_or_else(|| self.parse_piece(i, key, text))
    }

    /// Piece `i`'s cache key (its id, start byte and start point) and its
    /// trees when the cache has them.
    fn cached(&self, i: usize, text: &str) -> (CacheKey, Option<PieceTrees>) {
        let at = self.start_point(i, text);
        let key = (self.ids[i], self.ranges[i].start, at.row, at.column);
        (key, self.cache.get(key))
    }

    /// Parses piece `i`, whose cache key (and so start point) is `key`.
    fn parse_piece(&self, i: usize, key: CacheKey, text: &str) -> PieceTrees {
        let at = Point {
            row: key.2,
            column: key.3,
        };
        std::sync::Arc::new(parse_one(
            text,
            self.ranges[i].start,
            self.ranges[i].end,
            at,
            usize::MAX,
            self.last_close,
        ))
    }

    /// The point of piece `i`'s start. Its column (bytes since the last LF,
    /// which the external scanner asks for: a `%` line starts in column 0)
    /// is taken from the text: the positions of edits from an editor count
    /// lone CRs as line ends, tree-sitter does not, so a moved piece's
    /// column could be off after a lone CR (its row, which only positions
    /// depend on, is kept).
    fn start_point(&self, i: usize, text: &str) -> Point {
        let start = self.ranges[i].start;
        let b = text.as_bytes();
        let column = if start == 0 || b[start - 1] == b'\n' {
            0
        } else {
            start
                - b[..start]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1)
        };
        Point {
            row: self.starts[i].row,
            column,
        }
    }

    /// Every piece's trees, in order (the canonical parse of the whole
    /// text; for tests and for rare whole-document walks).
    pub fn trees(&self, text: &str) -> Vec<Tree> {
        let all: Vec<usize> = (0..self.ranges.len()).collect();
        crate::par::map(&all, |&i| (*self.piece_trees_uncached(i, text)).clone())
            .into_iter()
            .flatten()
            .collect()
    }

    /// Records one edit of the text (already described as an `InputEdit`
    /// with the rows and columns of the text before it): pieces after it
    /// move, the pieces it touches are marked for [`Forest::recut`].
    pub fn edit(&mut self, edit: &InputEdit) {
        let (start, old_end, new_end) = (edit.start_byte, edit.old_end_byte, edit.new_end_byte);
        let last = self.ranges.len() - 1;
        for i in 0..self.ranges.len() {
            let r = self.ranges[i].clone();
            if r.end < start || (r.end == start && i < last) {
                continue; // wholly before the edit
            }
            if r.start > old_end || (r.start == old_end && r.start > start) {
                // wholly after the edit: moved
                self.ranges[i] = r.start - old_end + new_end..r.end - old_end + new_end;
                self.starts[i] = edit_point(self.starts[i], edit);
            } else {
                let s = r.start.min(start);
                let e = if r.end >= old_end {
                    r.end - old_end + new_end
                } else {
                    new_end
                };
                self.ranges[i] = s..e.max(s);
                self.dirty[i] = true;
            }
        }
        let moved = |p: usize| {
            if p >= old_end {
                p - old_end + new_end
            } else if p >= start {
                start
            } else {
                p
            }
        };
        self.open = self.open.map(moved);
        self.nul_open = self.nul_open.map(moved);
    }

    /// Cuts the pieces [`Forest::edit`] marked again, with their
    /// neighbours, so that the pieces are valid for `text` (the text after
    /// the edits). When the game breaks around them did not move, the marked
    /// pieces only get new ids; the neighbours keep theirs.
    pub fn recut(&mut self, text: &str) {
        let close = last_close(text);
        self.last_close = close;
        let close_after = |end: usize| close.is_some_and(|c| c >= end);
        // A `}` after the first unterminated `{` (typed after it, or the
        // `{` moved before one): the pieces after it were cut as if no `}`
        // could follow, so they are all cut again.
        if let (Some(p), Some(c)) = (self.open, close) {
            if c > p {
                let from = self.piece_at(p);
                self.dirty[from..].iter_mut().for_each(|d| *d = true);
                self.open = None;
            }
        }
        while let Some(d) = self.dirty.iter().position(|&d| d) {
            // The window: the dirty run and one clean piece on each side,
            // whose outer ends are still valid cut points.
            let mut last = d;
            while last + 1 < self.dirty.len() && self.dirty[last + 1] {
                last += 1;
            }
            let mut first = d.saturating_sub(1);
            // A comment a NUL ended before it may now run on (see the field).
            if let Some(p) = self.nul_open.filter(|&p| p < self.ranges[first].start) {
                first = self.piece_at(p);
            }
            let mut last = (last + 1).min(self.ranges.len() - 1);
            let ws = self.ranges[first].start;
            let mut we = self.ranges[last].end;
            let outside = scan(&text[ws..we], usize::MAX, close_after(we)).outside;
            if !outside && we < text.len() {
                // A `{` without its `}` in the window: the comment may run
                // on, so the rest of the document is cut again.
                last = self.ranges.len() - 1;
                we = text.len();
            }
            // The window's first piece starts before the edit (or at 0).
            let at = if first == 0 {
                Point { row: 0, column: 0 }
            } else {
                self.starts[first]
            };
            let scanned = scan(&text[ws..we], 1, close_after(we));
            let cuts = scanned.cuts;
            // The first unterminated `{` and the first `{` a NUL ends (see
            // the fields; the window starts at or before the latter).
            let wlen = text.len();
            self.open = rescanned_mark(self.open, scanned.open.map(|o| o + ws), ws..we, wlen);
            self.nul_open = rescanned_mark(
                self.nul_open,
                scanned.nul_open.map(|o| o + ws),
                ws..we,
                wlen,
            );
            let old_inner: Vec<usize> = self.ranges[first + 1..=last]
                .iter()
                .map(|r| r.start)
                .collect();
            let same_cuts = old_inner
                .iter()
                .all(|c| cuts.binary_search(&(c - ws)).is_ok())
                && self.ranges[first..=last].iter().all(|r| r.start < r.end)
                && self.ranges[first..=last]
                    .windows(2)
                    .all(|w| w[0].end == w[1].start);
            let (ranges, starts, ids) = if same_cuts {
                let mut ranges = Vec::new();
                let mut starts = Vec::new();
                let mut ids = Vec::new();
                let mut at = at;
                for i in first..=last {
                    let r = self.ranges[i].clone();
                    ranges.push(r.clone());
                    starts.push(at);
                    ids.push(if self.dirty[i] {
                        fresh_ids(1).next().expect("one id")
                    } else {
                        self.ids[i]
                    });
                    at = advance(text, r.start, r.end, at);
                }
                (ranges, starts, ids)
            } else {
                let (ranges, starts, _, _) = cut_region(text, ws..we, at, self.piece, close);
                let ids = fresh_ids(ranges.len()).collect();
                (ranges, starts, ids)
            };
            let n = ranges.len();
            self.ranges.splice(first..=last, ranges);
            self.starts.splice(first..=last, starts);
            self.ids.splice(first..=last, ids);
            self.dirty
                .splice(first..=last, std::iter::repeat_n(false, n));
        }
    }
}

/// A mark of the first `{` of some kind (`Forest::open`, `Forest::nul_open`)
/// after the window `w` of a text of `len` bytes was scanned again and
/// found `found` there: kept before the window, the window's after it, and
/// where it was in the window, the window's or, where it is not known any
/// more, the window's end (an edit after it then cuts from there again).
fn rescanned_mark(
    old: Option<usize>,
    found: Option<usize>,
    w: std::ops::Range<usize>,
    len: usize,
) -> Option<usize> {
    match old {
        Some(p) if p < w.start => Some(p),
        Some(p) if p >= w.end => found.or(Some(p)),
        Some(_) => found.or((w.end < len).then_some(w.end)),
        None => found,
    }
}

/// A point moved by an edit (as tree-sitter moves the positions of the
/// nodes after it).
fn edit_point(p: Point, e: &InputEdit) -> Point {
    if p >= e.old_end_position {
        let (row, column) = if p.row > e.old_end_position.row {
            (p.row - e.old_end_position.row, p.column)
        } else {
            (0, p.column - e.old_end_position.column)
        };
        if row > 0 {
            Point {
                row: e.new_end_position.row + row,
                column,
            }
        } else {
            Point {
                row: e.new_end_position.row,
                column: e.new_end_position.column + column,
            }
        }
    } else if p > e.start_position {
        e.new_end_position
    } else {
        p
    }
}

/// `text[region]` (which starts at a valid cut point, at point `at`, and
/// ends at one or at the end of the text) cut into pieces of at least
/// `piece` bytes: their ranges and start points. An empty region is one
/// empty piece.
fn cut_region(
    text: &str,
    region: std::ops::Range<usize>,
    at: Point,
    piece: usize,
    last_close: Option<usize>,
) -> (
    Vec<std::ops::Range<usize>>,
    Vec<Point>,
    Option<usize>,
    Option<usize>,
) {
    let scanned = scan(
        &text[region.clone()],
        piece,
        last_close.is_some_and(|c| c >= region.end),
    );
    let cuts = scanned.cuts;
    let mut ranges = Vec::with_capacity(cuts.len() + 1);
    let mut starts = Vec::with_capacity(cuts.len() + 1);
    let mut start = region.start;
    let mut at = at;
    for c in cuts
        .iter()
        .map(|c| c + region.start)
        .chain(std::iter::once(region.end))
    {
        ranges.push(start..c);
        starts.push(at);
        at = advance(text, start, c, at);
        start = c;
    }
    (
        ranges,
        starts,
        scanned.open.map(|o| o + region.start),
        scanned.nul_open.map(|o| o + region.start),
    )
}

/// The offset of the last `}` of the text: a `{` after it has no `}`.
fn last_close(text: &str) -> Option<usize> {
    memchr::memrchr(b'}', text.as_bytes())
}

/// The canonical parse of `text[region]` (which starts at a valid cut point,
/// at point `at`, and ends at one or at the end of the text), in pieces of
/// at least `piece` bytes, in parallel; pieces with a syntax error are
/// parsed again one game at a time.
fn parse_region(text: &str, region: std::ops::Range<usize>, at: Point, piece: usize) -> Vec<Tree> {
    let close = last_close(text);
    let (ranges, starts, _, _) = cut_region(text, region, at, piece, close);
    let bounds: Vec<(usize, usize, Point)> = ranges
        .iter()
        .zip(starts)
        .map(|(r, at)| (r.start, r.end, at))
        .collect();
    crate::par::map(&bounds, |&(start, end, at)| {
        parse_one(text, start, end, at, piece, close)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The canonical parse of one piece `text[start..end]` (starting at point
/// `at`): one tree, or one per game when it has an error. `last_close`:
/// the offset of the text's last `}` ([`last_close`]).
fn parse_one(
    text: &str,
    start: usize,
    end: usize,
    at: Point,
    piece: usize,
    last_close: Option<usize>,
) -> Vec<Tree> {
    // A `{` with no `}` after it: tree-sitter's lexer looks for the `}` to
    // the end of its input at every such `{`, so a piece holding many of
    // them would take time quadratic in its length; one game at a time it
    // stays linear (the games' nodes are the same either way).
    let after_close = last_close.map_or(start, |c| (c + 1).clamp(start, end));
    // Larger than a window: game by game, so that only a game longer than
    // a window is cut ([`MAX_WINDOW`]).
    if end - start > MAX_WINDOW {
        if let Some(trees) = parse_games(text, start, end, at) {
            return trees;
        }
        return parse_windows(text, start, end, at);
    }
    if piece > 1 && memchr::memchr(b'{', &text.as_bytes()[after_close..end]).is_some() {
        if let Some(trees) = parse_games(text, start, end, at) {
            return trees;
        }
    }
    let tree = parse_range(text, start, end, at);
    if !tree.root_node().has_error() || piece <= 1 {
        return vec![tree];
    }
    parse_games(text, start, end, at).unwrap_or_else(|| vec![tree])
}

/// `text[start..end]` parsed one game at a time; `None` when it is one
/// game.
///
/// The piece is scanned as if no `}` followed it. The piece was cut where
/// the scan of the whole text found a game break, so every `{` in it ends
/// inside it: a `{` whose `}` is not in the piece is one the whole scan
/// took for an unterminated comment (a NUL before its `}`, found by fuzzing
/// `pbn fmt`: scanned with the `}` after the piece in mind, the piece was
/// not cut at its games, and the canonical parse depended on where the
/// pieces ended).
fn parse_games(text: &str, start: usize, end: usize, at: Point) -> Option<Vec<Tree>> {
    let cuts = scan(&text[start..end], 1, false).cuts;
    if cuts.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut s = start;
    let mut at = at;
    for c in cuts.iter().map(|c| c + start).chain(std::iter::once(end)) {
        out.extend(parse_windows(text, s, c, at));
        at = advance(text, s, c, at);
        s = c;
    }
    Some(out)
}

/// The point (row and byte column, rows counted at LF only as tree-sitter
/// counts them) of byte `to`, from the point `at` of byte `from`; it looks
/// only at the bytes in between, so that walking the pieces of a file stays
/// linear even without any LF (lone CR line ends).
fn advance(text: &str, from: usize, to: usize, at: Point) -> Point {
    let b = &text.as_bytes()[from..to];
    match memchr::memrchr(b'\n', b) {
        Some(last) => Point {
            row: at.row + memchr::memchr_iter(b'\n', b).count(),
            column: b.len() - last - 1,
        },
        None => Point {
            row: at.row,
            column: at.column + b.len(),
        },
    }
}

/// `text[start..end]` parsed in windows of at most [`MAX_WINDOW`] bytes
/// (one window, one tree, when it is not longer): each window ends after
/// its last line end, or at a character boundary when it has none.
fn parse_windows(text: &str, start: usize, end: usize, at: Point) -> Vec<Tree> {
    parse_windows_of(text, start, end, at, MAX_WINDOW)
}

fn parse_windows_of(text: &str, start: usize, end: usize, at: Point, window: usize) -> Vec<Tree> {
    let mut at = at;
    windows(text, start, end, window)
        .into_iter()
        .map(|r| {
            let tree = parse_range(text, r.start, r.end, at);
            at = advance(text, r.start, r.end, at);
            tree
        })
        .collect()
}

/// The windows of [`parse_windows`] of at most `window` bytes.
fn windows(text: &str, start: usize, end: usize, window: usize) -> Vec<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut s = start;
    while end - s > window {
        let limit = s + window;
        // After the last line end that ends in the window (a CR followed by
        // an LF ends with the LF).
        let mut c = limit;
        let mut upto = limit;
        while let Some(p) = memchr::memrchr2(b'\n', b'\r', &b[s..upto]) {
            let p = s + p;
            if b[p] == b'\r' && b.get(p + 1) == Some(&b'\n') {
                upto = p;
                continue;
            }
            if p > s {
                c = p + 1;
            }
            break;
        }
        while !text.is_char_boundary(c) {
            c -= 1;
        }
        out.push(s..c);
        s = c;
    }
    out.push(s..end);
    out
}

/// Parses `text[start..end]` with byte offsets of the whole text; `at` is
/// the point of `start`. After a lone CR line end a piece does not start in
/// column 0 (found by fuzzing: the shifted trees of an edited forest
/// disagreed with a fresh one).
fn parse_range(text: &str, start: usize, end: usize, at: Point) -> Tree {
    let range = Range {
        start_byte: start,
        end_byte: end,
        start_point: at,
        end_point: advance(text, start, end, at),
    };
    if start == end {
        // An empty document (an empty included range is not allowed).
        return super::parse(&text[..0]);
    }
    super::with_parser(|p| {
        p.set_included_ranges(&[range])
            .expect("one range inside the text is a valid set of included ranges");
        let tree = p.parse(text, None);
        p.set_included_ranges(&[])
            .expect("the empty set of ranges means the whole text");
        tree.expect("parsing without a timeout or cancellation flag always yields a tree")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trees() -> PieceTrees {
        std::sync::Arc::new(vec![super::super::parse("[Event \"e\"]\n")])
    }

    /// A game longer than a window is parsed in windows that cut at line
    /// starts (after a CR LF, not between), or inside a line without line
    /// end at a character boundary; the trees cover the game in order.
    #[test]
    fn a_game_longer_than_a_window_is_parsed_in_windows() {
        let at = Point { row: 0, column: 0 };
        let spans = |text: &str, window: usize| -> Vec<(usize, usize)> {
            windows(text, 0, text.len(), window)
                .into_iter()
                .map(|r| (r.start, r.end))
                .collect()
        };
        let text = "[Event \"x\"]\r\n[Site \"y\"]\r\n[[[[[[\r\n";
        let s = spans(text, 19);
        assert_eq!(s, [(0, 13), (13, 25), (25, 33)]);
        // One window: one tree, the whole text.
        assert_eq!(spans(text, text.len()), [(0, text.len())]);
        // No line end: cut at the window, moved back to a character boundary.
        let text = "[[[éé[[[";
        assert_eq!(spans(text, 4), [(0, 3), (3, 7), (7, 10)]);
        // Every window reports its syntax errors.
        let trees = parse_windows_of(&"[".repeat(100), 0, 100, at, 10);
        assert_eq!(trees.len(), 10);
        assert!(trees.iter().all(|t| t.root_node().has_error()));
        // The second window's points continue the first's.
        let text = "ab\ncd\nef";
        let trees = parse_windows_of(text, 0, text.len(), at, 4);
        assert_eq!(
            trees[1].root_node().start_position(),
            Point { row: 1, column: 0 }
        );
    }

    /// A NUL ends a string, a `;` comment or a `{` comment where it stands
    /// in tree-sitter's lexer; the scan cuts where the whole-file tree has
    /// its game breaks (found by fuzzing `pbn fmt`: a `{` with a NUL before
    /// its `}` was taken for a comment over the blank lines after it, the
    /// piece was not cut there, and an escape line after a blank line of
    /// lone CRs was then not in column 0 for tree-sitter).
    #[test]
    fn a_nul_ends_comments_and_strings_as_in_the_lexer() {
        let g = "[Event \"a\"]\n";
        for text in [
            "{\0\n\n%\r\r%\n\n}\r\r\r\r\r\r".to_string(),
            format!("{g}{{x\0y\n\n{g}}}\n\n{g}"),
            format!("{g};x\0y {{\n\n{g}}}\n\n{g}"),
            format!("{g}{{a\n\0\n}}\n\n{g}"),
            format!("{g}{{a\n\n\0}}\n\n{g}"),
        ] {
            let tree = super::super::parse(&text);
            let mut breaks: Vec<usize> = super::super::top_nodes(std::slice::from_ref(&tree))
                .iter()
                .filter(|n| n.kind() == "game_break")
                .map(|n| n.end_byte())
                .filter(|&e| e < text.len())
                .collect();
            breaks.dedup();
            assert_eq!(cut_points(&text, 1), breaks, "{text:?}");
        }
        assert_eq!(unterminated_comment_end("{a\0b\n\nc", 0), 2);
        assert_eq!(unterminated_comment_end("{a\n\0\n", 0), 2);
        assert_eq!(unterminated_comment_end("{a\n}", 0), 2);
    }

    #[test]
    fn the_tree_cache_keeps_the_most_recent_pieces_within_its_budget() {
        let cache = TreeCache::new(100);
        for id in 0..10u64 {
            cache.put((id, 0, 0, 0), trees(), 30);
        }
        assert_eq!(cache.len(), 3, "3 × 30 bytes fit in 100");
        assert!(cache.get((9, 0, 0, 0)).is_some() && cache.get((7, 0, 0, 0)).is_some());
        assert!(
            cache.get((6, 0, 0, 0)).is_none(),
            "the least recently used went first"
        );
        // A use makes a piece recent again.
        assert!(cache.get((7, 0, 0, 0)).is_some());
        cache.put((10, 0, 0, 0), trees(), 30);
        assert!(cache.get((7, 0, 0, 0)).is_some() && cache.get((8, 0, 0, 0)).is_none());
        // A piece larger than the whole budget is still kept, alone.
        cache.put((11, 0, 0, 0), trees(), 1000);
        assert_eq!(cache.len(), 1);
        assert!(cache.get((11, 0, 0, 0)).is_some());
    }

    #[test]
    fn unterminated_comments_are_cut_and_parsed_game_by_game() {
        // No `}` after the first `{`: every game break after it is a cut
        // point, and the whole text parses one game at a time.
        let text = "[Event \"a\"]\n\n{ x\n\n{ y\nz\n\n[Event \"b\"]\n";
        let cuts = cut_points(text, 1);
        assert_eq!(
            cuts.iter().map(|&c| &text[c..c + 3]).collect::<Vec<_>>(),
            ["{ x", "{ y", "[Ev"]
        );
        assert_eq!(parse_split(text, usize::MAX).len(), 4);
        // A `}` further on makes the first `{` a comment to it: no cut inside.
        let closed = format!("{text}}}\n");
        assert_eq!(cut_points(&closed, 1), [cuts[0]]);
        assert_eq!(parse_split(&closed, usize::MAX).len(), 1);
        // The unterminated comment runs on over lines that go on with text.
        assert_eq!(unterminated_comment_end("{ a\n b\n\n", 0), 6);
        assert_eq!(unterminated_comment_end("{ a\r\n \t\r\nb", 0), 3);
        assert_eq!(unterminated_comment_end("{ a", 0), 3);
    }

    #[test]
    fn a_closing_brace_typed_after_an_unterminated_comment_cuts_again() {
        let text = format!("{{ x\n\n{}", "[Event \"e\"]\n\n".repeat(20));
        let mut forest = Forest::cut(&text, 1);
        assert!(forest.len() > 10);
        // Type `}` at the end: the comment now runs to it, one piece.
        let end = text.len();
        let row = text.matches('\n').count();
        let p = Point { row, column: 0 };
        forest.edit(&InputEdit {
            start_byte: end,
            old_end_byte: end,
            new_end_byte: end + 1,
            start_position: p,
            old_end_position: p,
            new_end_position: Point { row, column: 1 },
        });
        let typed = format!("{text}}}");
        forest.recut(&typed);
        let fresh = Forest::cut(&typed, 1);
        assert_eq!(forest.ranges(), fresh.ranges());
        assert_eq!(forest.len(), 1);
    }

    /// A `{` whose comment a NUL ends before its `}` is cut after; a `}`
    /// typed before the NUL, pieces later, closes the comment there, so
    /// the cuts in between are cut again (found by fuzzing
    /// `incremental_reparse`, fixture
    /// `incremental_reparse/comment-cut-by-a-kept-piece-boundary`).
    #[test]
    fn a_closing_brace_typed_before_the_nul_that_ended_a_comment_cuts_again() {
        let games = "[Event \"e\"]\n\n".repeat(20);
        let text = format!("{{ x\n\n{games}a\0b}}\n\n[Event \"z\"]\n");
        let mut forest = Forest::cut(&text, 1);
        assert!(forest.len() > 10);
        // Type `}` before the 19th game's line end, in a piece of its own.
        let at = 5 + 18 * 13 + 11;
        let p = Point {
            row: 2 + 18 * 2,
            column: 11,
        };
        forest.edit(&InputEdit {
            start_byte: at,
            old_end_byte: at,
            new_end_byte: at + 1,
            start_position: p,
            old_end_position: p,
            new_end_position: Point {
                row: p.row,
                column: 12,
            },
        });
        let typed = format!("{}}}{}", &text[..at], &text[at..]);
        assert_eq!(&typed[at - 11..at + 2], "[Event \"e\"]}\n");
        forest.recut(&typed);
        let fresh = Forest::cut(&typed, 1);
        assert_eq!(forest.ranges(), fresh.ranges());
        assert_eq!(forest.len(), 4);
        // Deleting the NUL instead closes the comment at the last `}`.
        let mut forest = Forest::cut(&text, 1);
        let nul = text.find('\0').unwrap();
        let p = Point {
            row: 2 + 20 * 2,
            column: 1,
        };
        let q = Point {
            row: p.row,
            column: 2,
        };
        forest.edit(&InputEdit {
            start_byte: nul,
            old_end_byte: nul + 1,
            new_end_byte: nul,
            start_position: p,
            old_end_position: q,
            new_end_position: p,
        });
        let deleted = text.replacen('\0', "", 1);
        forest.recut(&deleted);
        assert_eq!(forest.ranges(), Forest::cut(&deleted, 1).ranges());
        assert_eq!(forest.len(), 2);
    }
}
