//! An immutable view of a document at one version. Requests run on
//! snapshots (off the main loop); the expensive parts (model, diagnostics)
//! are computed once, on first use.

use super::convert::Converter;
use super::settings::Settings;
use pbn_core::checker::{check_segments, Checked, GameRanges, State as CheckState};
use pbn_core::checker::{CheckOptions, CheckResult, Stats as CheckStats};
use pbn_core::format::{FormatOptions, PieceOut};
use pbn_core::model::{self, Comment, Game};
use pbn_core::syntax::{Forest, PieceTrees, EDIT_PIECE};
use pbn_core::text::{LineIndex, PositionEncoding, SourceText};
use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::OnceLock;
use tower_lsp_server::ls_types::Uri;

pub struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    /// The text (and its line endings; the editor's text is UTF-8). Checks
    /// read it in place: no copy of a large document per edit.
    pub source: SourceText,
    /// The document's pieces (see `document.rs`): their trees are parsed
    /// when needed and only a few are kept ([`Snapshot::piece_trees`]).
    pub forest: Forest,
    pub index: LineIndex,
    pub settings: Settings,
    /// Games lowered one at a time (see [`Snapshot::game`]).
    lowered: OnceLock<Vec<OnceLock<Box<Game>>>>,
    check: Arc<OnceLock<(Checked, CheckState)>>,
    /// What the check of this version did (for tests and benchmarks).
    check_stats: OnceLock<CheckStats>,
    /// The diagnostics of `check` in one list, for requests that look
    /// through them (code actions); publishing does not need it.
    flat: OnceLock<CheckResult>,
    /// The latest computed check of an earlier version: its per-game
    /// diagnostics are reused for the games an edit did not touch. (Only the
    /// result cell is kept, never the earlier snapshot itself.)
    previous_check: Option<Arc<OnceLock<(Checked, CheckState)>>>,
    /// The document's latest version, shared by its snapshots: a walk over
    /// the whole document stops when it is no longer this snapshot's
    /// ([`Snapshot::is_stale`]).
    latest: Arc<AtomicI32>,
    /// The double-dummy diagnostics (PBN11xx) when `settings.dd`, once
    /// every game's deal is solved ([`Snapshot::dd_diagnostics`]).
    dd: OnceLock<Vec<pbn_core::diagnostic::Diagnostic>>,
    /// Formatted pieces, shared by the document's versions (see
    /// [`Snapshot::format_edits`]).
    format_cache: Arc<FormatShared>,
}

/// Why formatting piece by piece stopped.
enum Stop {
    /// A newer version of the document exists.
    Stale,
    /// A piece's games are not those the check found there.
    Mismatch,
}

/// The formatting kept for a document, shared by its versions.
#[derive(Default)]
struct FormatShared {
    cache: Mutex<FormatCache>,
    /// Held while pieces are formatted: one walk at a time.
    busy: Mutex<()>,
    /// [`Snapshot::fill_format`] completed once.
    filled: AtomicBool,
}

/// What formatting keeps between versions of a document: each piece's
/// formatted blocks, by a key of everything they depend on (the piece's
/// id, its games' inherited values and missing-tag marks, the options),
/// and each piece's games' missing-tag marks by piece id (needed only when
/// the text uses `#` values). Only the current version's are kept.
#[derive(Default)]
struct FormatCache {
    pieces: HashMap<u64, Arc<PieceOut>>,
    marks: HashMap<u64, Arc<Vec<(u16, u16)>>>,
}

impl Snapshot {
    /// A snapshot of `text`, cut into pieces afresh.
    pub fn new(uri: Uri, version: i32, text: String, settings: Settings) -> Snapshot {
        let index = LineIndex::new(&text);
        let forest = Forest::cut(&text, EDIT_PIECE);
        Snapshot::with_index(
            uri,
            version,
            SourceText::from_text(text),
            forest,
            index,
            settings,
        )
    }

    /// A snapshot with the pieces and line index already made (the
    /// document updates the previous ones after an edit).
    pub fn with_index(
        uri: Uri,
        version: i32,
        source: SourceText,
        forest: Forest,
        index: LineIndex,
        settings: Settings,
    ) -> Snapshot {
        Snapshot {
            uri,
            version,
            source,
            forest,
            index,
            settings,
            lowered: OnceLock::new(),
            check: Arc::new(OnceLock::new()),
            check_stats: OnceLock::new(),
            flat: OnceLock::new(),
            previous_check: None,
            latest: Arc::new(AtomicI32::new(version)),
            format_cache: Arc::default(),
            dd: OnceLock::new(),
        }
    }

    /// This snapshot shares `latest`, the document's latest version.
    pub fn with_latest(mut self, latest: &Arc<AtomicI32>) -> Snapshot {
        self.latest = latest.clone();
        self
    }

    /// A newer version of the document exists: long work on this snapshot
    /// may stop (the client asks again for the new version; tower-lsp's
    /// cancellation cannot stop work already running on a thread).
    pub fn is_stale(&self) -> bool {
        self.latest.load(Ordering::Relaxed) != self.version
    }

    /// This snapshot's version and the document's latest, for work queued
    /// on its behalf (the double-dummy solver drops stale jobs).
    pub fn staleness(&self) -> super::dd::Staleness {
        super::dd::Staleness {
            latest: self.latest.clone(),
            version: self.version,
        }
    }

    /// The double-dummy diagnostics (PBN11xx, what `pbn check --dd` adds);
    /// empty unless `settings.dd`. Deals are solved by the server's solver
    /// ([`super::dd::service`]), cached per deal. With `wait`, this thread
    /// waits for every solve; without, deals not yet solved are queued and
    /// `None` says the diagnostics are not complete. `None` too when the
    /// snapshot became stale.
    pub fn dd_diagnostics(&self, wait: bool) -> Option<&[pbn_core::diagnostic::Diagnostic]> {
        if !self.settings.dd {
            return Some(&[]);
        }
        if let Some(d) = self.dd.get() {
            return Some(d);
        }
        let solver = super::dd::service();
        let asked = self.staleness();
        let mut out = Vec::new();
        let mut complete = true;
        let walked = self.for_each_piece(|games, _| {
            for g in games {
                if !complete || !pbn_core::dd::verify::states_dd(g) {
                    continue;
                }
                let Some(p) = pbn_core::dd::verify::Position::of(g) else {
                    continue;
                };
                let solved = if wait {
                    solver.solve(&p, &asked)
                } else {
                    match solver.lookup(&p, &asked) {
                        super::dd::Lookup::Ready(r) => Some(r),
                        super::dd::Lookup::Solving => None,
                    }
                };
                match solved {
                    Some(r) => out.extend(pbn_core::dd::verify::check_game_with(g, |_| {
                        Some(r.as_ref().clone())
                    })),
                    None => complete = false,
                }
            }
        });
        if !walked || !complete {
            return None;
        }
        Some(self.dd.get_or_init(|| out))
    }

    /// The double-dummy diagnostics if already computed.
    pub fn dd_ready(&self) -> Option<&[pbn_core::diagnostic::Diagnostic]> {
        self.dd.get().map(Vec::as_slice)
    }

    /// A snapshot that may reuse the per-game diagnostics of `previous` (or
    /// of the last version before it that was checked).
    pub fn with_previous(mut self, previous: &Snapshot) -> Snapshot {
        // Keyed by everything a piece's formatting depends on.
        self.format_cache = previous.format_cache.clone();
        if previous.settings == self.settings {
            self.previous_check = if previous.check.get().is_some() {
                Some(previous.check.clone())
            } else {
                previous.previous_check.clone()
            };
        }
        self
    }

    /// The number of games whose diagnostics the previous check can lend
    /// (for tests and benchmarks).
    pub fn reusable_games(&self) -> usize {
        self.previous_check
            .as_ref()
            .and_then(|c| c.get())
            .map(|(_, c)| c.len())
            .unwrap_or(0)
    }

    pub fn converter(&self) -> Converter<'_> {
        Converter {
            text: &self.source.text,
            index: &self.index,
            encoding: self.settings.encoding,
        }
    }

    /// Every diagnostic, from the same code path as `pbn check`.
    pub fn check(&self) -> &CheckResult {
        self.flat.get_or_init(|| self.checked().flatten())
    }

    /// Every diagnostic, in segments that later versions share while the
    /// parts of the document they cover do not change (what
    /// `publishDiagnostics` is built from).
    pub fn checked(&self) -> &Checked {
        &self
            .check
            .get_or_init(|| {
                let source = &self.source;
                // Fixes built: the quick fixes, `source.fixAll.pbn` and
                // the formatting request read them from this check.
                let opts = CheckOptions {
                    export: self.settings.export,
                    fixes: true,
                    ungrouped: !self.settings.group,
                };
                let empty = CheckState::default();
                let prev = self
                    .previous_check
                    .as_ref()
                    .and_then(|p| p.get())
                    .map(|(_, c)| c)
                    .unwrap_or(&empty);
                let (result, state, stats) = check_segments(source, &self.forest, &opts, prev);
                let _ = self.check_stats.set(stats);
                (with_policy(result, self.settings.policy), state)
            })
            .0
    }

    /// What this version's check did: how many games it looked at one by
    /// one, checked, and pieces it walked (for tests and benchmarks: an
    /// edit must not look at every game). `None` before the check.
    pub fn check_stats(&self) -> Option<CheckStats> {
        self.check_stats.get().copied()
    }

    /// The byte range of every game (from the check, which every version
    /// gets for its diagnostics anyway).
    pub fn game_spans(&self) -> &GameRanges {
        &self.checked().game_ranges
    }

    /// The trees of the piece holding byte `offset` (cached: a hover, a
    /// completion and the next one in the same piece parse it once).
    pub fn piece_trees_at(&self, offset: usize) -> PieceTrees {
        self.forest
            .piece_trees(self.forest.piece_at(offset), &self.source.text)
    }

    /// Game `i`, lowered on its own the first time it is asked for (with
    /// its inherited `#`/`##` values, §4.8): a hover or completion costs one
    /// game and one piece's parse, never the whole file.
    pub fn game(&self, i: usize) -> Option<&Game> {
        let span = self.game_spans().get(i)?;
        let cells = self.lowered.get_or_init(|| {
            (0..self.game_spans().len())
                .map(|_| OnceLock::new())
                .collect()
        });
        if let Some(g) = cells[i].get() {
            return Some(g);
        }
        let trees = self.piece_trees_at(span.start);
        let (chunks, _) = pbn_core::syntax::games(&trees[..], &self.source.text);
        // The check found the game in this piece's trees (a tree's end
        // ends a game), so the chunk is there.
        let chunk = chunks.iter().find(|c| c.range == span)?;
        let mut game = model::lower::lower_game(i, chunk, &self.source.text);
        if let Some(r) = self.checked().resolutions.as_ref().and_then(|r| r.get(i)) {
            r.apply_to(&mut game);
        }
        Some(cells[i].get_or_init(|| Box::new(game)))
    }

    /// Every game in order, with the comments outside games, piece by
    /// piece: `f` gets each piece's trees, games (numbered in the document,
    /// inherited values resolved) and loose comments, on every core, and
    /// `sink` its results in document order. A few pieces are parsed and
    /// lowered at a time and dropped after `f`: a walk over a large
    /// document never holds its whole tree or model. Returns `false`, having
    /// stopped early, when the snapshot became stale.
    #[must_use]
    pub fn map_pieces<R: Send>(
        &self,
        f: impl Fn(std::ops::Range<usize>, &[tree_sitter::Tree], Vec<Game>, Vec<Comment>) -> R + Sync,
        mut sink: impl FnMut(R),
    ) -> bool {
        let text = self.source.text.as_str();
        let spans = self.game_spans();
        let resolve = self.resolver();
        let all: Vec<usize> = (0..self.forest.len()).collect();
        for batch in self.forest.batches(&all) {
            let batch = &batch[..];
            if self.is_stale() {
                return false;
            }
            let parts = pbn_core::par::map(batch, |&p| {
                let trees = self.forest.piece_trees_uncached(p, text);
                let first = spans.partition_point(|r| r.start < self.forest.ranges()[p].start);
                let (mut games, loose) = model::lower::lower_piece(&trees, text, first);
                resolve(&mut games);
                f(self.forest.ranges()[p].clone(), &trees, games, loose)
            });
            parts.into_iter().for_each(&mut sink);
        }
        true
    }

    /// [`Snapshot::map_pieces`] with `f` run in order on this thread.
    #[must_use]
    pub fn for_each_piece(&self, mut f: impl FnMut(&[Game], &[Comment])) -> bool {
        self.map_pieces(
            |_, _, games, loose| (games, loose),
            |(games, loose)| f(&games, &loose),
        )
    }

    /// What gives games lowered from the document's text the `#`/`##`
    /// values the check resolved for them.
    fn resolver(&self) -> impl Fn(&mut [Game]) + Sync + '_ {
        let resolutions = self.checked().resolutions.clone();
        move |games: &mut [Game]| {
            if let Some(r) = &resolutions {
                for g in games {
                    if let Some(r) = r.get(g.index) {
                        r.apply_to(g);
                    }
                }
            }
        }
    }

    /// What gives games lowered again from a piece's fixed text their
    /// `#`/`##` values: walked from the state before the piece, as
    /// `pbn fmt` does, since a fix may remove or add a tag and the check's
    /// resolutions, by tag index, do not fit a fixed game.
    fn fixed_resolver(&self) -> impl Fn(&mut [Game]) + Sync + '_ {
        let resolutions = self.checked().resolutions.clone();
        move |games: &mut [Game]| {
            if let (Some(r), Some(first)) = (&resolutions, games.first()) {
                r.env_before(first.index).apply_all(games);
            }
        }
    }

    /// The whole document as `pbn fmt` writes it
    /// ([`pbn_core::format::format_fixed`]: each piece's safe fixes applied,
    /// then laid out), piece by piece ([`Snapshot::map_pieces`]); `None`
    /// when the snapshot became stale.
    pub fn format(
        &self,
        opts: &pbn_core::format::FormatOptions,
    ) -> Option<pbn_core::format::Formatted> {
        let text = self.source.text.as_str();
        // Only `#` values make a game's missing tags depend on later games.
        let keep: Vec<u16> = if opts.add_missing_tags && self.source.uses_hash_values() {
            let mut marks = Vec::new();
            let marked = self.for_each_piece(|games, _| {
                marks.extend(games.iter().map(pbn_core::format::mandatory_marks))
            });
            if !marked {
                return None;
            }
            pbn_core::format::keep_from_marks(&marks)
        } else {
            vec![0; self.game_spans().len()]
        };
        let mut out = pbn_core::format::Assembler::new(&self.source);
        let resolve = self.fixed_resolver();
        let done = self.map_pieces(
            |range, trees, games, loose| {
                let first = games.first().map_or(0, |g| g.index);
                let keep = &keep[first..first + games.len()];
                let piece = model::lower::PieceAt {
                    range,
                    env: None,
                    trees,
                    games: &games,
                    loose: &loose,
                };
                pbn_core::format::format_piece_fixed(text, &piece, keep, opts, &resolve).0
            },
            |p| out.push(p),
        );
        done.then(|| out.finish(opts))
    }

    /// The edits that format the document ([`pbn_core::format::edits`]):
    /// none when it is formatted already, else one per run of changed
    /// text (a game, or the blank lines around it). The pieces formatted for
    /// an earlier version are reused while their text, their games'
    /// inherited values and missing-tag marks and the options are the same:
    /// after an edit, only the pieces it touched are parsed and formatted
    /// (and none once [`Snapshot::fill_format`] ran in the background).
    /// `None` when the snapshot became stale. The text the edits give is
    /// [`pbn_core::format::format_fixed`]'s, what `pbn fmt` writes: each
    /// piece is formatted after its safe fixes
    /// ([`pbn_core::format::format_piece_fixed`]; `tests/tests/lsp_format.rs`).
    pub fn format_edits(
        &self,
        opts: &FormatOptions,
    ) -> Option<Vec<(std::ops::Range<usize>, String)>> {
        if opts.export_header {
            return self.format_whole_edit(opts);
        }
        let pieces = {
            // One formatting at a time: a request waits for the background
            // fill and then finds every piece kept.
            let _busy = self
                .format_cache
                .busy
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            self.formatted_pieces(opts)
        };
        let pieces = match pieces {
            Ok((pieces, _)) => pieces,
            Err(Stop::Stale) => return None,
            Err(Stop::Mismatch) => return self.format_whole_edit(opts),
        };
        let eol = pbn_core::format::eol_of(opts, &self.source);
        Some(pbn_core::format::edits(
            &self.source.text,
            self.forest
                .ranges()
                .iter()
                .zip(&pieces)
                .map(|(r, p)| (r.start, &**p)),
            eol,
        ))
    }

    /// Formats and keeps every piece whose formatting is not kept yet (what
    /// the server does in the background after an open, so that the first
    /// formatting request answers from kept pieces). Returns the number of
    /// pieces formatted, or `None` when the snapshot became stale (what was
    /// formatted until then is kept) or a piece's games are not those the
    /// check found there (a request then formats the whole document).
    pub fn fill_format(&self, opts: &FormatOptions) -> Option<usize> {
        if opts.export_header {
            return Some(0);
        }
        let _busy = self
            .format_cache
            .busy
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let (_, fresh) = self.formatted_pieces(opts).ok()?;
        self.format_cache.filled.store(true, Ordering::Relaxed);
        Some(fresh)
    }

    /// [`Snapshot::fill_format`] completed for this document (for any of
    /// its versions since it was opened with these settings).
    pub fn format_filled(&self) -> bool {
        self.format_cache.filled.load(Ordering::Relaxed)
    }

    /// Every piece's formatted blocks, from the cache where kept, and the
    /// number formatted afresh. Fresh pieces join the cache batch by batch:
    /// a walk stopped by a newer version keeps what it formatted. At the
    /// end, the cache keeps this version's pieces only.
    fn formatted_pieces(&self, opts: &FormatOptions) -> Result<(Vec<Arc<PieceOut>>, usize), Stop> {
        let text = self.source.text.as_str();
        let spans = self.game_spans();
        let resolutions = self.checked().resolutions.clone();
        let eol = pbn_core::format::eol_of(opts, &self.source);
        let ranges = self.forest.ranges();
        let ids = self.forest.ids();
        let n = ranges.len();
        // Each piece's games, as the check numbered them.
        let firsts: Vec<usize> = ranges
            .iter()
            .map(|r| spans.partition_point(|g| g.start < r.start))
            .chain([spans.len()])
            .collect();
        let cache = || {
            self.format_cache
                .cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
        };
        // Only `#` values make a game's missing tags depend on later games.
        let keep: Vec<u16> = if opts.add_missing_tags && self.source.uses_hash_values() {
            let missing: Vec<usize> = {
                let c = cache();
                (0..n).filter(|&p| !c.marks.contains_key(&ids[p])).collect()
            };
            self.lower_pieces(
                &missing,
                &firsts,
                |_, _, games| {
                    games
                        .iter()
                        .map(pbn_core::format::mandatory_marks)
                        .collect::<Vec<_>>()
                },
                |fresh| {
                    let mut c = cache();
                    for (p, m) in fresh {
                        c.marks.insert(ids[p], Arc::new(m));
                    }
                },
            )?;
            let mut c = cache();
            let kept: Vec<_> = ids.iter().map(|id| (*id, c.marks[id].clone())).collect();
            let marks: Vec<(u16, u16)> = kept.iter().flat_map(|(_, m)| m.iter().copied()).collect();
            c.marks = kept.into_iter().collect();
            pbn_core::format::keep_from_marks(&marks)
        } else {
            vec![0; spans.len()]
        };
        let keys: Vec<u64> = (0..n)
            .map(|p| {
                use std::hash::{Hash, Hasher};
                let mut h = rustc_hash::FxHasher::default();
                (ids[p], opts.add_missing_tags, eol).hash(&mut h);
                keep[firsts[p]..firsts[p + 1]].hash(&mut h);
                if let Some(r) = &resolutions {
                    for g in firsts[p]..firsts[p + 1] {
                        r.value_hash(g).hash(&mut h);
                    }
                }
                h.finish()
            })
            .collect();
        let missing: Vec<usize> = {
            let c = cache();
            (0..n)
                .filter(|&p| !c.pieces.contains_key(&keys[p]))
                .collect()
        };
        let resolve = self.resolver();
        let resolve_fixed = self.fixed_resolver();
        self.lower_pieces(
            &missing,
            &firsts,
            |p, trees, mut games| {
                resolve(&mut games);
                let keep = &keep[firsts[p]..firsts[p + 1]];
                let piece = model::lower::PieceAt {
                    range: ranges[p].clone(),
                    env: None,
                    trees,
                    games: &games,
                    loose: &[],
                };
                pbn_core::format::format_piece_fixed(text, &piece, keep, opts, &resolve_fixed)
                    .0
                    .into_piece_out(text, ranges[p].start, eol)
            },
            |fresh| {
                let mut c = cache();
                for (p, out) in fresh {
                    c.pieces.insert(keys[p], Arc::new(out));
                }
            },
        )?;
        let mut c = cache();
        let pieces: Vec<Arc<PieceOut>> = keys.iter().map(|k| c.pieces[k].clone()).collect();
        c.pieces = keys.into_iter().zip(pieces.iter().cloned()).collect();
        Ok((pieces, missing.len()))
    }

    /// `f` on the trees and games (numbered in the document) of each piece
    /// of `list`, on every core, a few pieces at a time, each batch's
    /// results to `sink`. Stops when the snapshot became stale, or when a
    /// piece's games are not those the check found there (error recovery
    /// across a piece's end).
    fn lower_pieces<R: Send>(
        &self,
        list: &[usize],
        firsts: &[usize],
        f: impl Fn(usize, &[tree_sitter::Tree], Vec<Game>) -> R + Sync,
        mut sink: impl FnMut(Vec<(usize, R)>),
    ) -> Result<(), Stop> {
        let text = self.source.text.as_str();
        for batch in self.forest.batches(list) {
            let batch = &batch[..];
            if self.is_stale() {
                return Err(Stop::Stale);
            }
            let parts = pbn_core::par::map(batch, |&p| {
                // A newer version stops the walk at the next piece: the
                // edit's check need not wait for a whole batch.
                if self.is_stale() {
                    return Err(Stop::Stale);
                }
                // A few pieces (an edit's): through the cache the check filled.
                let trees = if list.len() <= 4 {
                    self.forest.piece_trees(p, text)
                } else {
                    self.forest.piece_trees_uncached(p, text)
                };
                let (games, _) = model::lower::lower_piece(&trees, text, firsts[p]);
                if games.len() != firsts[p + 1] - firsts[p] {
                    return Err(Stop::Mismatch);
                }
                Ok((p, f(p, &trees, games)))
            });
            // What was formatted before a newer version came is kept.
            let (done, stops): (Vec<_>, Vec<_>) = parts.into_iter().partition(Result::is_ok);
            sink(done.into_iter().filter_map(Result::ok).collect());
            if stops.iter().any(|r| matches!(r, Err(Stop::Stale))) {
                return Err(Stop::Stale);
            }
            if !stops.is_empty() {
                return Err(Stop::Mismatch);
            }
        }
        Ok(())
    }

    /// The whole document formatted ([`Snapshot::format`]) as one edit, or
    /// none when it is formatted already.
    fn format_whole_edit(
        &self,
        opts: &FormatOptions,
    ) -> Option<Vec<(std::ops::Range<usize>, String)>> {
        let out = self.format(opts)?;
        Some(if out.text == self.source.text {
            Vec::new()
        } else {
            vec![(0..self.source.text.len(), out.text)]
        })
    }

    /// The index of the game containing byte `offset`.
    pub fn game_index_at(&self, offset: usize) -> Option<usize> {
        let spans = self.game_spans();
        let i = spans.partition_point(|r| r.end < offset);
        spans.get(i).filter(|r| r.start <= offset).map(|_| i)
    }

    /// The game containing byte `offset`.
    pub fn game_at(&self, offset: usize) -> Option<&model::Game> {
        self.game(self.game_index_at(offset)?)
    }

    /// The last game starting at or before `offset`.
    pub fn game_before(&self, offset: usize) -> Option<&model::Game> {
        let i = self.game_spans().partition_point(|r| r.start <= offset);
        self.game(i.checked_sub(1)?)
    }

    /// The games overlapping `range` (ends included).
    pub fn games_overlapping(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = &model::Game> {
        let spans = self.game_spans();
        let first = spans.partition_point(|r| r.end < range.start);
        let last = spans.partition_point(|r| r.start <= range.end);
        (first..last).filter_map(move |i| self.game(i))
    }

    pub fn encoding(&self) -> PositionEncoding {
        self.settings.encoding
    }
}

/// `[check] ignore` and `[check.severity]` applied to a check's segments.
/// The check's state, which later versions re-check from, keeps every
/// diagnostic; a filtered segment is a copy (`lasting` off: its JSON is not
/// cached by the identity of its list).
fn with_policy(mut checked: Checked, policy: &pbn_core::config::Policy) -> Checked {
    if policy.is_empty() {
        return checked;
    }
    for seg in &mut checked.segments {
        let mut diags = seg.diags.as_ref().clone();
        policy.apply(&mut diags);
        seg.diags = std::sync::Arc::new(diags);
        seg.lasting = false;
    }
    checked
}
