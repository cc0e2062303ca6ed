//! Re-checking a document after an edit, for the language server: the same
//! diagnostics as [`crate::checker::check_text`], computed game by game and
//! reused for every game whose text and inherited values did not change.
//!
//! A game's diagnostics depend only on its own text (its span: the whole
//! lines from its first to its last node), on the `#`/`##` values it
//! inherits from earlier games (§4.8) and on whether export rules apply to
//! it. [`recheck`] hashes each span; a game whose key is in the previous
//! [`State`] gets its diagnostics back (stored relative to the span's start)
//! without being lowered. Only the games an edit touched, and games whose
//! inherited values changed, are lowered and checked, on every core.
//! What belongs to the file rather than to a game (decoding notes, export
//! line ends and separators, comments between games) is recomputed each time
//! by linear scans, and the per-file caps are applied last.
//!
//! Inheritance needs each game's tags, so when the text uses `#` values at
//! all, a position-free [`TagSummary`] of each game is kept too, keyed by
//! the span's hash.

use crate::checker::{CheckOptions, CheckResult};
use crate::diagnostic::Diagnostic;
use crate::model::inherit::{Env, Resolution, TagSummary};
use crate::model::lower::lower_game;
use crate::model::Game;
use crate::rules;
use crate::syntax::{self, Forest, GameChunk};
use crate::text::SourceText;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::Arc;

/// What one check leaves for the next one.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// Per-game diagnostics by game key, ranges relative to the span start.
    games: Games,
    /// Tag summaries by span hash (only kept when the text uses `#`).
    summaries: HashMap<u64, Arc<TagSummary>>,
    /// The layout of each piece of a [`syntax::Forest`] by piece id: a piece
    /// whose tree did not change is not walked or hashed again.
    pieces: HashMap<u64, Arc<PieceInfo>>,
    /// The diagnostics of each piece by [`piece_key`]: a piece whose tree
    /// and games' keys did not change is taken as a whole, without looking
    /// at its games one by one.
    checks: HashMap<u64, Arc<PieceCheck>>,
    /// The number of games of the check that left this state.
    count: usize,
}

/// Per-game diagnostics by game key: a shared base and the games checked
/// since it was built. An edit adds a game or two; copying a map of every
/// game of a large document per edit would cost more than the check.
#[derive(Clone, Debug, Default)]
struct Games {
    base: Arc<HashMap<u64, Arc<Vec<Diagnostic>>>>,
    recent: HashMap<u64, Arc<Vec<Diagnostic>>>,
}

impl Games {
    fn get(&self, key: &u64) -> Option<&Arc<Vec<Diagnostic>>> {
        self.recent.get(key).or_else(|| self.base.get(key))
    }
}

/// The diagnostics of one piece of a forest.
#[derive(Debug)]
struct PieceCheck {
    /// Per game of the piece: its key and its diagnostics (relative to the
    /// game's span).
    games: Vec<(u64, Arc<Vec<Diagnostic>>)>,
    /// Every diagnostic of the piece (its games', the text between them, the
    /// export rule on its separators): ranges relative to the piece's
    /// start, game indices relative to its first game, sorted as
    /// [`CheckResult`] is.
    diags: Arc<Vec<Diagnostic>>,
    /// [`rules::text::cap_counts`] of `diags`.
    caps: [usize; rules::text::CAP_KINDS],
}

/// The diagnostics of a check in document order, in segments: one per
/// piece of a forest (shared with the checks before it while the piece
/// does not change), and loose ones. [`Checked::flatten`] gives the
/// [`CheckResult`] that [`crate::checker::check_text`] would.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    pub games: usize,
    pub segments: Vec<Segment>,
    /// Each game's range (its chunk: first to last top-level node), in
    /// order: what requests look games up by, without a tree.
    pub game_ranges: Arc<Vec<Range<usize>>>,
    /// Each game's inherited values (§4.8), when the text uses `#` values.
    pub resolutions: Option<Arc<Vec<Resolution>>>,
}

/// Diagnostics whose ranges are relative to `shift` and game indices to
/// `first_game`.
#[derive(Clone, Debug)]
pub struct Segment {
    pub shift: usize,
    pub first_game: usize,
    pub diags: Arc<Vec<Diagnostic>>,
    /// The length of the text the segment covers (a piece's; 0 for loose
    /// diagnostics).
    pub len: usize,
    /// `diags` are a piece's, kept by later checks while the piece does not
    /// change: what is derived from them (their JSON) may be cached by the
    /// identity of the `Arc`.
    pub lasting: bool,
}

impl Segment {
    /// Diagnostic `d` of this segment, in document offsets and game indices.
    pub fn absolute(&self, d: &Diagnostic) -> Diagnostic {
        let mut d = shift(d.clone(), self.shift as isize);
        d.game = d.game.map(|g| g + self.first_game);
        d
    }

    fn key(&self, d: &Diagnostic) -> (usize, usize, &'static str) {
        (
            d.range.start + self.shift,
            d.range.end + self.shift,
            d.code.code,
        )
    }
}

impl Checked {
    /// The number of diagnostics.
    pub fn len(&self) -> usize {
        self.segments.iter().map(|s| s.diags.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every diagnostic in document offsets, in order.
    pub fn flatten(&self) -> CheckResult {
        let mut diagnostics = Vec::with_capacity(self.len());
        for s in &self.segments {
            diagnostics.extend(s.diags.iter().map(|d| s.absolute(d)));
        }
        CheckResult {
            games: self.games,
            diagnostics,
        }
    }

    fn loose(games: usize, diags: Vec<Diagnostic>) -> Checked {
        Checked {
            games,
            segments: vec![Segment {
                shift: 0,
                first_game: 0,
                diags: Arc::new(diags),
                len: 0,
                lasting: false,
            }],
            ..Checked::default()
        }
    }
}

/// A game's span (whole lines), its chunk's range and the span's hash.
type GameSpan = (Range<usize>, Range<usize>, u64);

/// One piece of a forest: its games and what lies between them, with byte
/// offsets as they were when `start` was the piece's start.
#[derive(Debug)]
struct PieceInfo {
    start: usize,
    games: Vec<GameSpan>,
    /// Diagnostics of the text between the games and of comments outside
    /// games (the file-level part of the piece).
    between: Vec<Diagnostic>,
    /// The export rule on the game separators inside the piece (used when
    /// export rules apply to the whole file).
    separators: Vec<Diagnostic>,
    /// The piece's last node when it is a game break: where the node before
    /// it ends, and the break. Its separator rule looks at the next piece's
    /// first character too, so it is checked on every re-check
    /// ([`tail_separator`]), not kept.
    tail_break: Option<(usize, Range<usize>)>,
    /// Where the piece's first top-level node starts (the end of the game
    /// separator before it).
    first_node: Option<usize>,
    /// The piece's last top-level node is a game break (every piece but
    /// the last is cut right after one, so games never straddle pieces).
    ends_with_break: bool,
}

impl PieceInfo {
    /// The layout of a piece from its trees (one, or one per game where
    /// the piece has a syntax error: [`syntax::PieceTrees`]).
    fn of(source: &SourceText, trees: &[tree_sitter::Tree], range: Range<usize>) -> PieceInfo {
        let text = source.text.as_str();
        let top = syntax::top_nodes(trees);
        // As `rules::export::check_file` on the whole document.
        let mut separators = Vec::new();
        let mut tail_break = None;
        for (k, n) in top.iter().enumerate() {
            if n.kind() != "game_break" || k == 0 {
                continue;
            }
            match top.get(k + 1) {
                Some(next) => separators.extend(rules::export::separator(
                    text,
                    top[k - 1].end_byte(),
                    n.byte_range(),
                    next.start_byte(),
                )),
                None => tail_break = Some((top[k - 1].end_byte(), n.byte_range())),
            }
        }
        let ends_with_break = top.last().is_some_and(|n| n.kind() == "game_break");
        // A tree's end ends a game (`syntax::games`).
        let (chunks, loose) = syntax::games(trees);
        let (games, between) = games_and_gaps(source, trees, &chunks, &loose, range.clone());
        PieceInfo {
            start: range.start,
            games,
            between,
            separators,
            tail_break,
            first_node: top.first().map(|n| n.start_byte()),
            ends_with_break,
        }
    }
}

/// The export separator rule on the game break that ends piece `p`, which
/// `rest` (the pieces after it) may end: the next top-level node is the
/// first node of a later piece (none: the break ends the document, and the
/// rule does not apply). Relative to the piece's start.
fn tail_separator(text: &str, p: &Slot, rest: &[Slot]) -> Option<Diagnostic> {
    let (before, brk) = p.info.tail_break.clone()?;
    let moved =
        |s: &Slot, o: usize| (o as isize + s.start as isize - s.info.start as isize) as usize;
    let after = rest
        .iter()
        .find_map(|s| s.info.first_node.map(|f| moved(s, f)))?;
    rules::export::separator(
        text,
        moved(p, before),
        moved(p, brk.start)..moved(p, brk.end),
        after,
    )
    .map(|d| shift(d, -(p.start as isize)))
}

/// Per game of `region` (parsed as `trees`, whose games and other
/// top-level nodes are `chunks` and `loose`): its span (whole lines), its
/// chunk's range and the span's hash; and the diagnostics of the region
/// outside the games (the text between them, comments outside games, a
/// tree whose root is an ERROR node).
fn games_and_gaps(
    source: &SourceText,
    trees: &[tree_sitter::Tree],
    chunks: &[GameChunk<'_>],
    loose: &[tree_sitter::Node<'_>],
    region: Range<usize>,
) -> (Vec<GameSpan>, Vec<Diagnostic>) {
    let text = source.text.as_str();
    let error_roots: Vec<Range<usize>> = trees
        .iter()
        .map(|t| t.root_node())
        .filter(|r| r.is_error())
        .map(|r| r.byte_range())
        .collect();
    let games: Vec<GameSpan> = chunks
        .iter()
        .map(|c| {
            let span = line_start(text, c.range.start)..span_end(text, c.range.clone());
            let mut h = fast_hash(text[span.clone()].as_bytes());
            // A game's text decides its parse, except where tree-sitter had
            // to recover from an error: the recovery depends on what came
            // before (found by fuzzing). Such a game is keyed by its tree too.
            let under_error = error_roots
                .iter()
                .any(|r| r.start <= c.range.start && c.range.end <= r.end);
            if under_error || c.nodes.iter().any(|n| n.has_error()) {
                h = mix(h, tree_hash(&c.nodes, span.start, under_error));
            }
            (span, c.range.clone(), h)
        })
        .collect();
    // Nodes under an ERROR root: the root is reported instead (`PieceInfo::of`).
    let reported: Vec<tree_sitter::Node<'_>> = loose
        .iter()
        .copied()
        .filter(|n| {
            !error_roots
                .iter()
                .any(|r| r.start <= n.start_byte() && n.end_byte() <= r.end)
        })
        .collect();
    let mut between = syntax::nodes_diagnostics(&reported, text);
    let mut gap_start = region.start;
    for span in games
        .iter()
        .map(|g| &g.0)
        .chain(std::iter::once(&(region.end..region.end)))
    {
        if span.start > gap_start {
            // The token rules look at the nodes outside games there too
            // (`loose` is in document order).
            let nodes = &loose[loose.partition_point(|n| n.start_byte() < gap_start)
                ..loose.partition_point(|n| n.start_byte() < span.start)];
            between.extend(rules::text::span(
                source.encoding,
                text,
                gap_start..span.start,
                nodes,
            ));
        }
        gap_start = span.end;
    }
    between.extend(trees.iter().filter_map(|t| syntax::root_error(t, text)));
    (games, between)
}

/// The games of the document: spans, chunk ranges and hashes, and the
/// diagnostics between games; from the pieces of a forest (reusing what
/// `prev` knows of unchanged pieces) or from the whole tree.
struct Layout {
    spans: Vec<Range<usize>>,
    ranges: Vec<Range<usize>>,
    hashes: Vec<u64>,
    /// Between the games (whole tree only: a forest's are in its pieces).
    between: Vec<Diagnostic>,
    /// Per game: its piece (index into the trees) and index in the piece.
    place: Vec<(usize, usize)>,
    /// A forest's pieces.
    pieces: Vec<Slot>,
}

/// A game's index and its diagnostics (relative to its span).
type GameDiags = (usize, Arc<Vec<Diagnostic>>);

/// A piece of a forest in a [`Layout`].
struct Slot {
    id: u64,
    /// The piece's start and length now (its [`PieceInfo`] may be older).
    start: usize,
    len: usize,
    info: Arc<PieceInfo>,
    /// Its games (indices into the document's).
    games: Range<usize>,
}

/// The games of `forest`'s pieces (what `prev` knows of unchanged pieces
/// is reused) and, for the pieces walked now in a document without `#`
/// values, the diagnostics of their games that `prev` does not have:
/// computed while the piece's trees are at hand, so that opening a
/// document parses each piece once and never holds the trees of all of
/// them. `None` when a game reaches across pieces.
#[allow(clippy::too_many_arguments)]
fn layout_of_pieces(
    source: &SourceText,
    forest: &Forest,
    prev: &State,
    next: &mut State,
    walked: &mut usize,
    export_from: Option<usize>,
    inherits: bool,
    opts: &CheckOptions,
) -> Option<(Layout, Vec<GameDiags>)> {
    let text = source.text.as_str();
    let (ranges, ids) = (forest.ranges(), forest.ids());
    let missing: Vec<usize> = (0..ids.len())
        .filter(|&i| !prev.pieces.contains_key(&ids[i]))
        .collect();
    *walked = missing.len();
    let last = ids.len().saturating_sub(1);
    let fresh = crate::par::map(&missing, |&i| {
        let trees = forest.piece_trees(i, text);
        let info = PieceInfo::of(source, &trees, ranges[i].clone());
        let mut done = Vec::new();
        if !inherits {
            let (chunks, _) = syntax::games(&trees[..]);
            for (k, (span, _, h)) in info.games.iter().enumerate() {
                if prev
                    .games
                    .get(&game_key(*h, 0, export_from, span))
                    .is_none()
                {
                    done.push((
                        k,
                        Arc::new(check_one(
                            source,
                            &chunks[k],
                            span.clone(),
                            k,
                            None,
                            opts,
                            export_from,
                        )),
                    ));
                }
            }
        }
        (info, done)
    });
    let mut infos: Vec<Option<Arc<PieceInfo>>> =
        ids.iter().map(|id| prev.pieces.get(id).cloned()).collect();
    let mut done_by_piece: Vec<Vec<GameDiags>> = vec![Vec::new(); ids.len()];
    for (&i, (info, done)) in missing.iter().zip(fresh) {
        infos[i] = Some(Arc::new(info));
        done_by_piece[i] = done;
    }
    if infos
        .iter()
        .enumerate()
        .any(|(i, info)| i < last && !info.as_ref().expect("every piece").ends_with_break)
    {
        return None; // a game across pieces: use the whole-document walk
    }
    let games: usize = infos
        .iter()
        .map(|i| i.as_ref().expect("every piece").games.len())
        .sum();
    let mut l = Layout {
        spans: Vec::with_capacity(games),
        ranges: Vec::with_capacity(games),
        hashes: Vec::with_capacity(games),
        between: Vec::new(),
        place: Vec::with_capacity(games),
        pieces: Vec::with_capacity(ids.len()),
    };
    let mut done = Vec::new();
    for (p, info) in infos.into_iter().enumerate() {
        let info = info.expect("every piece");
        let by = ranges[p].start as isize - info.start as isize;
        let at =
            |r: &Range<usize>| (r.start as isize + by) as usize..(r.end as isize + by) as usize;
        let first = l.spans.len();
        for (k, (span, range, h)) in info.games.iter().enumerate() {
            l.spans.push(at(span));
            l.ranges.push(at(range));
            l.hashes.push(*h);
            l.place.push((p, k));
        }
        done.extend(
            std::mem::take(&mut done_by_piece[p])
                .into_iter()
                .map(|(k, d)| (first + k, d)),
        );
        next.pieces.insert(ids[p], info.clone());
        l.pieces.push(Slot {
            id: ids[p],
            start: ranges[p].start,
            len: ranges[p].len(),
            info,
            games: first..l.spans.len(),
        });
    }
    Some((l, done))
}

/// The key of a game's diagnostics: its span's hash, the hash of the values
/// it inherits, and whether export rules apply to it (from `export_from`
/// on; a game's first tag is in its span, so comparing with the span is
/// enough unless the `% EXPORT` line is inside this very span).
fn game_key(hash: u64, env: u64, export_from: Option<usize>, span: &Range<usize>) -> u64 {
    let export = match export_from {
        None => 0u64,
        Some(p) if p <= span.start => 1,
        Some(p) if p >= span.end => 2,
        Some(p) => 3 + (p - span.start) as u64,
    };
    mix(mix(hash, env), export)
}

/// Game `i` (`chunk`, whose span is `span`) lowered, given its inherited
/// values, and checked: its diagnostics relative to the span's start.
fn check_one(
    source: &SourceText,
    chunk: &GameChunk<'_>,
    span: Range<usize>,
    i: usize,
    resolution: Option<&Resolution>,
    opts: &CheckOptions,
    export_from: Option<usize>,
) -> Vec<Diagnostic> {
    let mut game = lower_game(i, chunk, &source.text);
    if let Some(r) = resolution {
        r.clone().apply_to(&mut game);
    }
    let start = span.start as isize;
    game_diagnostics(
        source,
        chunk,
        span,
        &game,
        opts,
        rules::game_export(export_from, &game),
    )
    .into_iter()
    .map(|d| shift(d, -start))
    .collect()
}

/// `f` on each game of `games` (indices, ascending) and its chunk, on every
/// core: from `whole` (every game's chunk) or piece by piece from
/// `forest`, each piece's trees taken once.
fn for_games<R: Send>(
    forest: &Forest,
    text: &str,
    whole: Option<&[GameChunk<'_>]>,
    place: &[(usize, usize)],
    games: &[usize],
    f: impl Fn(usize, &GameChunk<'_>) -> R + Sync,
) -> Vec<(usize, R)> {
    if let Some(chunks) = whole {
        return crate::par::map(games, |&i| (i, f(i, &chunks[i])));
    }
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for &i in games {
        match groups.last_mut() {
            Some((p, list)) if *p == place[i].0 => list.push(i),
            _ => groups.push((place[i].0, vec![i])),
        }
    }
    crate::par::map(&groups, |(p, list)| {
        let trees = forest.piece_trees(*p, text);
        let (chunks, _) = syntax::games(&trees[..]);
        list.iter()
            .map(|&i| (i, f(i, &chunks[place[i].1])))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

impl State {
    /// The number of games whose diagnostics can be reused.
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Statistics of one re-check (for tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: usize,
    /// Games lowered and checked again.
    pub checked: usize,
    /// Pieces of a forest whose top-level nodes were walked (the others'
    /// layout was reused); all of them without a forest.
    pub walked: usize,
}

/// Checks `source` (cut into the pieces of `forest`), reusing what `prev`
/// knows: the diagnostics in one list, as [`crate::checker::check_text`]
/// gives them.
pub fn recheck(
    source: &SourceText,
    forest: &Forest,
    opts: &CheckOptions,
    prev: &State,
) -> (CheckResult, State, Stats) {
    let (checked, state, stats) = recheck_segments(source, forest, opts, prev);
    (checked.flatten(), state, stats)
}

/// Checks `source` (cut into the pieces of `forest`), reusing what `prev`
/// knows: the diagnostics in segments, the pieces' shared with `prev` where
/// they did not change (the language server's path: neither the check nor
/// the serialisation of an edit then touches every diagnostic). The
/// pieces' trees come from the forest's cache or are parsed piece by piece
/// as the work needs them.
pub fn recheck_segments(
    source: &SourceText,
    forest: &Forest,
    opts: &CheckOptions,
    prev: &State,
) -> (Checked, State, Stats) {
    let text = source.text.as_str();
    let export_from = rules::export_from(source, opts);
    let inherits = source.uses_hash_values();
    let mut next = State::default();
    let mut walked = forest.len();
    let pre = layout_of_pieces(
        source,
        forest,
        prev,
        &mut next,
        &mut walked,
        export_from,
        inherits,
        opts,
    );
    // A game across pieces (error recovery took a piece's last game break):
    // every tree at once, walked as one document.
    let all: Vec<tree_sitter::Tree> = if pre.is_none() {
        forest.trees(text)
    } else {
        Vec::new()
    };
    let (layout, whole, done) = match pre {
        Some((l, done)) => (l, None, done),
        None => {
            next.pieces.clear();
            walked = forest.len();
            let top = syntax::top_nodes(&all);
            let (chunks, loose) = syntax::games(&all);
            let l = layout_of_chunks(source, &all, &chunks, &loose);
            (l, Some((top, chunks)), Vec::new())
        }
    };
    let Layout {
        spans,
        ranges: chunk_ranges,
        hashes,
        between,
        place,
        pieces,
    } = layout;
    let n = spans.len();
    next.count = n;
    let whole_chunks = whole.as_ref().map(|(_, c)| c.as_slice());

    // Inheritance: resolutions of every game, from tag summaries.
    let mut resolutions: Vec<Option<Resolution>> = (0..n).map(|_| None).collect();
    if inherits {
        let missing: Vec<usize> = (0..n)
            .filter(|&i| !prev.summaries.contains_key(&hashes[i]))
            .collect();
        let fresh = for_games(forest, text, whole_chunks, &place, &missing, |i, c| {
            TagSummary::of(&lower_game(i, c, text))
        });
        let mut summaries: Vec<Option<Arc<TagSummary>>> = hashes
            .iter()
            .map(|h| prev.summaries.get(h).cloned())
            .collect();
        for (i, s) in fresh {
            summaries[i] = Some(Arc::new(s));
        }
        let mut env = Env::default();
        for (i, s) in summaries.iter().enumerate() {
            let s = s.as_ref().expect("every game has a summary");
            next.summaries.insert(hashes[i], s.clone());
            resolutions[i] = Some(env.step(i, s));
        }
    }

    // Game keys.
    let keys: Vec<u64> = (0..n)
        .map(|i| {
            game_key(
                hashes[i],
                resolutions[i].as_ref().map(|r| r.value_hash()).unwrap_or(0),
                export_from,
                &spans[i],
            )
        })
        .collect();

    // The pieces whose diagnostics can be taken whole; the games of the
    // others need theirs (every game without pieces).
    let separators = export_from == Some(0);
    let tails: Vec<Option<Diagnostic>> = pieces
        .iter()
        .enumerate()
        .map(|(k, p)| {
            if separators {
                tail_separator(text, p, &pieces[k + 1..])
            } else {
                None
            }
        })
        .collect();
    let piece_keys: Vec<u64> = pieces
        .iter()
        .zip(&tails)
        .map(|(p, t)| piece_key(p.id, separators, t.is_some(), &keys[p.games.clone()]))
        .collect();
    let reused: Vec<Option<Arc<PieceCheck>>> = piece_keys
        .iter()
        .map(|k| prev.checks.get(k).cloned())
        .collect();
    let needed: Vec<usize> = if whole.is_some() {
        (0..n).collect()
    } else {
        pieces
            .iter()
            .zip(&reused)
            .filter(|(_, r)| r.is_none())
            .flat_map(|(p, _)| p.games.clone())
            .collect()
    };
    let mut checked: HashMap<usize, Arc<Vec<Diagnostic>>> = done.into_iter().collect();
    let todo: Vec<usize> = needed
        .iter()
        .copied()
        .filter(|&i| !checked.contains_key(&i) && prev.games.get(&keys[i]).is_none())
        .collect();
    let fresh = for_games(forest, text, whole_chunks, &place, &todo, |i, c| {
        check_one(
            source,
            c,
            spans[i].clone(),
            i,
            resolutions[i].as_ref(),
            opts,
            export_from,
        )
    });
    for (i, diags) in fresh {
        checked.insert(i, Arc::new(diags));
    }
    let game_diags = |i: usize| -> Arc<Vec<Diagnostic>> {
        checked
            .get(&i)
            .or_else(|| prev.games.get(&keys[i]))
            .expect("every game was checked or reused")
            .clone()
    };
    let stats = Stats {
        games: n,
        checked: checked.len(),
        walked,
    };

    // What belongs to the file.
    let mut loose = rules::text::file_level(source);

    let Some((top, chunks)) = &whole else {
        // A forest's pieces.
        next.games = prev.games.clone();
        for (&i, diags) in &checked {
            next.games.recent.insert(keys[i], diags.clone());
        }
        let mut segments = Vec::with_capacity(pieces.len() + 1);
        let mut caps = [0usize; rules::text::CAP_KINDS];
        for (((p, key), reused), tail) in pieces.iter().zip(&piece_keys).zip(reused).zip(tails) {
            let pc = reused.unwrap_or_else(|| {
                Arc::new(piece_check(
                    p,
                    &keys,
                    &spans,
                    &chunk_ranges,
                    separators,
                    tail,
                    &game_diags,
                ))
            });
            for (c, k) in caps.iter_mut().zip(pc.caps) {
                *c += k;
            }
            segments.push(Segment {
                shift: p.start,
                first_game: p.games.start,
                diags: pc.diags.clone(),
                len: p.len,
                lasting: true,
            });
            next.checks.insert(*key, pc);
        }
        // Rebuilt now and then from the current games only, so that
        // games edited away do not pile up.
        if next.games.recent.len() > 256.max(n / 8) {
            let mut base = HashMap::with_capacity_and_hasher(n, Default::default());
            for pc in next.checks.values() {
                base.extend(pc.games.iter().cloned());
            }
            next.games = Games {
                base: Arc::new(base),
                recent: HashMap::default(),
            };
        }
        if export_from == Some(0) {
            rules::export::check_file_text(source, &mut loose);
        }
        for d in &mut loose {
            d.game = game_by_position(&chunk_ranges, d.range.start);
        }
        let loose_caps = rules::text::cap_counts(&loose);
        for (c, k) in caps.iter_mut().zip(loose_caps) {
            *c += k;
        }
        let checked = if !rules::text::cap_changes(&caps) && in_order(&segments) {
            merge(n, segments, loose)
        } else {
            // The per-file limits apply, or the pieces' diagnostics are
            // not in order: as one list.
            let mut all = Checked {
                games: n,
                segments,
                ..Checked::default()
            }
            .flatten()
            .diagnostics;
            all.extend(loose);
            rules::text::cap(&mut all);
            crate::diagnostic::sort(&mut all);
            Checked::loose(n, all)
        };
        return (with_games(checked, chunk_ranges, resolutions), next, stats);
    };

    // The whole tree.
    let mut out = loose;
    let mut base = HashMap::with_capacity_and_hasher(n, Default::default());
    for (i, key) in keys.iter().enumerate() {
        let diags = game_diags(i);
        out.extend(diags.iter().cloned().map(|d| {
            let mut d = shift(d, spans[i].start as isize);
            // Rule diagnostics carry their game; syntax and text ones get
            // theirs from their position below, as in `check_text`.
            if d.game.is_some() {
                d.game = Some(i);
            }
            d
        }));
        base.insert(*key, diags);
    }
    next.games = Games {
        base: Arc::new(base),
        recent: HashMap::default(),
    };
    // Between the games: the text of the gaps, and comments outside games.
    out.extend(between);
    if export_from == Some(0) {
        out.extend(rules::file_export_in(source, top, chunks));
    }
    rules::text::cap(&mut out);
    for d in out.iter_mut().filter(|d| d.game.is_none()) {
        d.game = game_by_position(&chunk_ranges, d.range.start);
    }
    crate::diagnostic::sort(&mut out);
    (
        with_games(Checked::loose(n, out), chunk_ranges, resolutions),
        next,
        stats,
    )
}

fn with_games(
    mut c: Checked,
    ranges: Vec<Range<usize>>,
    resolutions: Vec<Option<Resolution>>,
) -> Checked {
    c.game_ranges = Arc::new(ranges);
    if resolutions.iter().any(|r| r.is_some()) {
        c.resolutions = Some(Arc::new(
            resolutions
                .into_iter()
                .map(Option::unwrap_or_default)
                .collect(),
        ));
    }
    c
}

/// The key of a piece's diagnostics: its tree (so its text and layout),
/// whether export separators are checked and the last one is wrong, and
/// its games' keys (their inherited values and export rules).
fn piece_key(id: u64, separators: bool, tail: bool, keys: &[u64]) -> u64 {
    keys.iter()
        .fold(mix(id, 1 + separators as u64 + 2 * tail as u64), |h, &k| {
            mix(h, k)
        })
}

/// The game whose chunk holds `at`, as `check_text` assigns syntax and
/// text diagnostics.
fn game_by_position(chunk_ranges: &[Range<usize>], at: usize) -> Option<usize> {
    let i = chunk_ranges.partition_point(|r| r.end <= at);
    (i < chunk_ranges.len() && chunk_ranges[i].start <= at).then_some(i)
}

/// The diagnostics of piece `p`, from its games' and its [`PieceInfo`].
#[allow(clippy::too_many_arguments)]
fn piece_check(
    p: &Slot,
    keys: &[u64],
    spans: &[Range<usize>],
    chunk_ranges: &[Range<usize>],
    separators: bool,
    tail: Option<Diagnostic>,
    game_diags: &dyn Fn(usize) -> Arc<Vec<Diagnostic>>,
) -> PieceCheck {
    let start = p.start;
    let mut games = Vec::with_capacity(p.games.len());
    let mut diags = Vec::new();
    for (local, i) in p.games.clone().enumerate() {
        let d = game_diags(i);
        let by = (spans[i].start - start) as isize;
        diags.extend(d.iter().map(|x| {
            let mut x = shift(x.clone(), by);
            if x.game.is_some() {
                x.game = Some(local);
            }
            x
        }));
        games.push((keys[i], d));
    }
    // The info's offsets are as they were when the piece started at
    // `info.start`.
    let back = -(p.info.start as isize);
    diags.extend(p.info.between.iter().map(|d| shift(d.clone(), back)));
    if separators {
        diags.extend(p.info.separators.iter().map(|d| shift(d.clone(), back)));
        diags.extend(tail);
    }
    let local: Vec<Range<usize>> = chunk_ranges[p.games.clone()]
        .iter()
        .map(|r| r.start - start..r.end - start)
        .collect();
    for d in diags.iter_mut().filter(|d| d.game.is_none()) {
        d.game = game_by_position(&local, d.range.start);
    }
    crate::diagnostic::sort(&mut diags);
    let caps = rules::text::cap_counts(&diags);
    PieceCheck {
        games,
        diags: Arc::new(diags),
        caps,
    }
}

/// Whether the segments' diagnostics, one segment after the other, are in
/// the order of [`crate::diagnostic::sort`] (each is sorted within; one that
/// reaches past its piece may not be).
fn in_order(segments: &[Segment]) -> bool {
    let mut last: Option<(usize, usize, &'static str)> = None;
    for seg in segments {
        let (Some(first), Some(end)) = (seg.diags.first(), seg.diags.last()) else {
            continue;
        };
        if last.is_some_and(|l| l > seg.key(first)) {
            return false;
        }
        last = Some(seg.key(end));
    }
    true
}

/// The pieces' segments (in order: [`in_order`]) with the loose diagnostics
/// (in document offsets) put in order between them; a piece that a loose
/// diagnostic falls inside becomes a loose segment of its own.
fn merge(games: usize, segments: Vec<Segment>, mut loose: Vec<Diagnostic>) -> Checked {
    let key = |d: &Diagnostic| (d.range.start, d.range.end, d.code.code);
    crate::diagnostic::sort(&mut loose);
    let mut loose = loose.into_iter().peekable();
    let mut out = Vec::with_capacity(segments.len() + 2);
    let push_loose = |out: &mut Vec<Segment>, v: Vec<Diagnostic>| {
        if !v.is_empty() {
            out.push(Segment {
                shift: 0,
                first_game: 0,
                diags: Arc::new(v),
                len: 0,
                lasting: false,
            });
        }
    };
    for seg in segments {
        let (Some(first), Some(end)) = (seg.diags.first(), seg.diags.last()) else {
            continue;
        };
        let (first, end) = (seg.key(first), seg.key(end));
        let mut before = Vec::new();
        while let Some(d) = loose.next_if(|d| key(d) < first) {
            before.push(d);
        }
        push_loose(&mut out, before);
        if loose.peek().is_some_and(|d| key(d) <= end) {
            let mut v: Vec<Diagnostic> = seg.diags.iter().map(|d| seg.absolute(d)).collect();
            while let Some(d) = loose.next_if(|d| key(d) <= end) {
                v.push(d);
            }
            crate::diagnostic::sort(&mut v);
            push_loose(&mut out, v);
        } else {
            out.push(seg);
        }
    }
    push_loose(&mut out, loose.collect());
    Checked {
        games,
        segments: out,
        ..Checked::default()
    }
}

/// [`Layout`] from the document's trees and chunks (one walk of every
/// top-level node).
fn layout_of_chunks(
    source: &SourceText,
    trees: &[tree_sitter::Tree],
    chunks: &[GameChunk<'_>],
    loose: &[tree_sitter::Node<'_>],
) -> Layout {
    let (games, between) = games_and_gaps(source, trees, chunks, loose, 0..source.text.len());
    let mut l = Layout {
        spans: Vec::new(),
        ranges: Vec::new(),
        hashes: Vec::new(),
        between,
        place: Vec::new(),
        pieces: Vec::new(),
    };
    for (k, (span, range, h)) in games.into_iter().enumerate() {
        l.spans.push(span);
        l.ranges.push(range);
        l.hashes.push(h);
        l.place.push((0, k));
    }
    l
}

/// Everything one game contributes: syntax, text and per-game rules.
fn game_diagnostics(
    source: &SourceText,
    chunk: &GameChunk<'_>,
    span: Range<usize>,
    game: &Game,
    opts: &CheckOptions,
    export: bool,
) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let mut out = Vec::new();
    // Under an ERROR root the root is reported instead (`PieceInfo::of`).
    let under_error_root = || {
        chunk
            .nodes
            .first()
            .and_then(|n| n.parent())
            .is_some_and(|p| p.is_error() && p.parent().is_none())
    };
    if (game.syntax_error || chunk.nodes.iter().any(|n| n.has_error())) && !under_error_root() {
        out.extend(syntax::nodes_diagnostics(&chunk.nodes, text));
    }
    out.extend(rules::text::span(source.encoding, text, span, &chunk.nodes));
    out.extend(rules::check_game(text, opts, export, game));
    out
}

fn shift(mut d: Diagnostic, by: isize) -> Diagnostic {
    let f = |r: &mut Range<usize>| {
        *r = (r.start as isize + by) as usize..(r.end as isize + by) as usize
    };
    f(&mut d.range);
    for r in &mut d.related {
        f(&mut r.range);
    }
    d
}

fn line_start(text: &str, at: usize) -> usize {
    text.as_bytes()[..at]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map(|p| p + 1)
        .unwrap_or(0)
}

/// The end of the line holding the last byte of `range` (before its line
/// break). A range whose last byte is a line break (an ERROR node that
/// took the break with it) ends its line there: the next line belongs to the
/// next game (found by fuzzing: both games' spans held that line, so its
/// text rules counted twice).
fn span_end(text: &str, range: Range<usize>) -> usize {
    let b = text.as_bytes();
    let mut end = range.end;
    if end > range.start && matches!(b[end - 1], b'\n' | b'\r') {
        end -= 1;
        if end > range.start && b[end] == b'\n' && b[end - 1] == b'\r' {
            end -= 1;
        }
        return end;
    }
    line_end(text, end)
}

fn line_end(text: &str, at: usize) -> usize {
    text.as_bytes()[at..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|p| at + p)
        .unwrap_or(text.len())
}

/// A hash of the shape of `nodes` and everything under them (kinds, ranges
/// relative to `base`, error and missing marks) and of whether their parent
/// is an ERROR node (`under_error`).
fn tree_hash(nodes: &[tree_sitter::Node<'_>], base: usize, under_error: bool) -> u64 {
    let mut h = under_error as u64;
    for n in nodes {
        syntax::for_each_node(*n, |node| {
            let flags = node.is_error() as u64 | (node.is_missing() as u64) << 1;
            h = mix(
                h,
                ((node.kind_id() as u64) << 2 | flags)
                    ^ ((node.start_byte() - base) as u64) << 20
                    ^ ((node.end_byte() - base) as u64) << 42,
            );
        });
    }
    h
}

fn mix(a: u64, b: u64) -> u64 {
    (a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .rotate_left(29)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// A fast 64-bit hash of bytes (8 bytes a step, two multiplies); enough to
/// tell edited game texts apart, it is not meant to resist crafted input.
fn fast_hash(b: &[u8]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ (b.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(31);
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}
