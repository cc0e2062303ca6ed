//! Re-checking a document after an edit, for the language server: the same
//! diagnostics as [`crate::checker::check_text`], computed game by game and
//! reused for every game whose text and inherited values did not change.
//!
//! A game's diagnostics depend only on its own text (its span: the whole
//! lines from its first to its last node), on the `#`/`##` values it
//! inherits from earlier games (§4.8) and on whether export rules apply to
//! it. [`check`] hashes each span; a game whose key is in the previous
//! [`State`] gets its diagnostics back (stored relative to the span's start)
//! without being lowered. Only the games an edit touched, and games whose
//! inherited values changed, are lowered and checked, on every core.
//! What belongs to the file rather than to a game (decoding notes, export
//! line ends and separators, comments between games) is recomputed each time
//! by linear scans, and the per-file caps are applied last.
//!
//! On a forest, the pieces are lined up with the previous check's by id
//! (those before and after the edited ones keep theirs): a piece whose
//! context did not change is taken whole, so that an edit costs one cheap
//! step per piece and the games of the pieces it touched, whatever the
//! number of games (`Stats::examined`, `tests/tests/lsp_edit_cost.rs`).
//!
//! Inheritance needs each game's tags, so when the text uses `#` values at
//! all, a position-free [`TagSummary`] of each game is kept too, per piece;
//! an edit resolves inherited values again only from its first piece until
//! the state between two pieces is what it was ([`super::inherit`]).

use crate::checker::{CheckOptions, CheckResult};
use crate::diagnostic::Diagnostic;
use crate::model::inherit::{Env, Resolution, TagSummary};
use crate::model::lower::lower_game;
use crate::model::score_table::ScoreMark;
use crate::rules;
use crate::rules::deal_id::DealIdMark;
use crate::syntax::{self, Forest, GameChunk};
use crate::text::SourceText;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::deal_ids::{deal_id_conflicts, Lining, PieceMarks};
use super::game::{check_one, game_key, GameCheck};
use super::inherit::{PieceInherit, Resolutions};
use super::layout::{layout_of_chunks, layout_of_pieces, tail_separator, Layout, Lined, Slot};
use super::merge::{game_by_position, merge_with_file, with_games};
use super::piece::{mix, PieceInfo};
use super::resolve::resolve_pieces;
use super::state::{Checked, Entry, GameRanges, Games, PieceCheck, Segment, State, Stats};

/// `f` on each game of `games` (indices, ascending) and its chunk, on every
/// core: from `whole` (every game's chunk) or piece by piece from
/// `forest`, each piece's trees taken once.
pub(super) fn for_games<R: Send>(
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
        let (chunks, _) = syntax::games(&trees[..], text);
        list.iter()
            .map(|&i| (i, f(i, &chunks[place[i].1])))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Checks `source` (cut into the pieces of `forest`), reusing what `prev`
/// knows: the diagnostics in one list, as [`crate::checker::check_text`]
/// gives them.
pub fn check(
    source: &SourceText,
    forest: &Forest,
    opts: &CheckOptions,
    prev: &State,
) -> (CheckResult, State, Stats) {
    let (checked, state, stats) = check_segments(source, forest, opts, prev);
    (checked.flatten(), state, stats)
}

/// Checks `source` (cut into the pieces of `forest`), reusing what `prev`
/// knows: the diagnostics in segments, the pieces' shared with `prev` where
/// they did not change (the language server's path: neither the check nor
/// the serialisation of an edit then touches every diagnostic). The
/// pieces' trees come from the forest's cache or are parsed piece by piece
/// as the work needs them.
pub fn check_segments(
    source: &SourceText,
    forest: &Forest,
    opts: &CheckOptions,
    prev: &State,
) -> (Checked, State, Stats) {
    check_with(source, forest, opts, prev, true)
}

/// [`check`] from an empty state that no later check starts from (`pbn
/// check`): each game's and each piece's diagnostics keep only what the
/// per-file caps can show ([`rules::text::thin`]), and the games'
/// diagnostics are not kept beside their piece's: a piece's are gathered
/// as soon as its games are checked, so that the checks of every game of
/// the file are never held at once (200,000 games took 176 bytes each).
pub(super) fn check_once(source: &SourceText, forest: &Forest, opts: &CheckOptions) -> CheckResult {
    let (checked, state, _) = check_with(source, forest, opts, &State::default(), false);
    crate::par::drop_later(state);
    checked.flatten()
}

/// [`check_segments`]; `kept`: whether the state is kept for a next check.
fn check_with(
    source: &SourceText,
    forest: &Forest,
    opts: &CheckOptions,
    prev: &State,
    kept: bool,
) -> (Checked, State, Stats) {
    let export_from = rules::export_from(source, opts);
    let inherits = source.uses_hash_values();
    let mut walked = forest.len();
    let cx = Run {
        source,
        forest,
        opts,
        prev,
        export_from,
        inherits,
        kept,
    };
    let (checked, state, stats) = match layout_of_pieces(
        source,
        forest,
        prev,
        &mut walked,
        export_from,
        inherits,
        opts,
        kept,
    ) {
        Some((pieces, replaced, lining)) => check_pieces(&cx, pieces, &replaced, walked, &lining),
        // A game across pieces (error recovery took a piece's last game
        // break): every tree at once, walked as one document.
        None => check_whole_tree(&cx),
    };
    let checked = if opts.ungrouped {
        checked
    } else {
        super::group::group_checked(checked)
    };
    (checked, state, stats)
}

/// Per piece built again: its games' checks, as they are found.
type Found = Vec<Mutex<Vec<Option<Arc<GameCheck>>>>>;

/// A piece whose diagnostics are built again: its index, its games' keys,
/// its context, its key and the export rule on its last break.
type Build = (usize, Vec<u64>, u64, u64, Option<Diagnostic>);

/// What every step of one check reads.
struct Run<'a> {
    source: &'a SourceText,
    forest: &'a Forest,
    opts: &'a CheckOptions,
    prev: &'a State,
    export_from: Option<usize>,
    inherits: bool,
    /// The state is kept for a next check (the language server).
    kept: bool,
}

impl Run<'_> {
    /// Whether the file-level export rules (game separators, line ends)
    /// apply: export format from the start of the file.
    fn separators(&self) -> bool {
        self.export_from == Some(0)
    }
}

/// What a piece's diagnostics depend on besides its text when no game
/// inherits values: whether export rules apply to each of its games (all,
/// none, or from an offset inside it: [`game_key`]), to its separators,
/// and whether its last break is wrong.
fn piece_context(s: &Slot, r: &Run<'_>, separators: bool, tail: bool) -> u64 {
    let export = match r.export_from {
        None => 0u64,
        Some(p) if p <= s.start => 1,
        Some(p) if p >= s.start + s.len => 2,
        Some(p) => 3 + (p - s.start) as u64,
    };
    let flags = 1 + separators as u64 + 2 * tail as u64 + 4 * r.inherits as u64;
    mix(mix(s.id, flags), export)
}

/// The check on a forest's pieces (`pieces`: lined up with the previous
/// check's, with the diagnostics of the games checked while walking them).
/// A piece whose context did not change is taken whole; the others' games
/// are keyed and, where the key is new, checked. Without `#` values, what
/// is done per edit is one step per piece and the games of the pieces the
/// edit touched.
fn check_pieces(
    r: &Run<'_>,
    pieces: Vec<Lined<'_>>,
    replaced: &Games,
    walked: usize,
    lining: &Lining,
) -> (Checked, State, Stats) {
    let (source, prev, export_from) = (r.source, r.prev, r.export_from);
    let text = source.text.as_str();
    let mut next = State::default();
    let mut slots = Vec::with_capacity(pieces.len());
    let mut olds = Vec::with_capacity(pieces.len());
    let mut dones = Vec::with_capacity(pieces.len());
    for (s, o, d) in pieces {
        slots.push(s);
        olds.push(o);
        dones.push(d);
    }
    let n = slots.last().map_or(0, |s| s.games.end);
    next.count = n;

    // Inheritance, piece by piece from the first changed one.
    let inherit = r
        .inherits
        .then(|| resolve_pieces(r.forest, text, &slots, &olds, prev));

    let separators = r.separators();
    let (mut entries, build, examined) = reuse_pieces(r, &slots, &olds, inherit.as_ref());
    let (found, built, checked) =
        check_unseen(r, &slots, &build, &mut dones, replaced, inherit.as_ref());
    // The pieces built now, and the games' cache for the next check.
    let rebuilt: Vec<usize> = build
        .iter()
        .map(|b| b.0)
        .filter(|&p| olds[p].is_some())
        .collect();
    for (((p, keys, context, key, tail), got), check) in build.into_iter().zip(found).zip(built) {
        let s = &slots[p];
        let check = check.unwrap_or_else(|| {
            let got = got.into_inner().unwrap_or_else(|e| e.into_inner());
            piece_check(s, &keys, every_game(got), separators, tail.clone(), r.kept)
        });
        entries[p] = Some(Arc::new(Entry {
            id: s.id,
            info: s.info.clone(),
            context,
            key,
            check: Arc::new(check),
            tail,
            next_id: slots.get(p + 1).map(|n| n.id),
            inherit: inherit.as_ref().map(|x| x.pieces[p].clone()),
        }));
    }
    let entries: Vec<Arc<Entry>> = entries
        .into_iter()
        .map(|e| e.expect("every piece"))
        .collect();

    // One segment per piece.
    let mut segments = Vec::with_capacity(slots.len() + 1);
    let mut caps = [0usize; rules::text::CAP_KINDS];
    let mut parts = Vec::with_capacity(slots.len());
    let mut inherited = Vec::new();
    for (s, e) in slots.iter().zip(&entries) {
        if let Some(x) = &e.inherit {
            inherited.push((s.games.start, x.clone()));
        }
        rules::text::add_counts(&mut caps, &e.check.caps);
        segments.push(Segment {
            shift: s.start,
            first_game: s.games.start,
            diags: e.check.diags.clone(),
            len: s.len,
            lasting: true,
        });
        parts.push((
            s.games.start,
            s.start as isize - s.info.start as isize,
            s.info.clone(),
        ));
    }
    next.entries = Arc::new(entries);
    let ranges = GameRanges::new(parts);
    let mut deal_ids = 0;
    let (conflicts, handover) = deal_id_conflicts(
        text,
        (&prev.deal_ids, &prev.entries),
        &next.entries,
        |p| (slots[p].start, slots[p].games.start),
        lining,
        &rebuilt,
        &mut deal_ids,
    );
    next.deal_ids = handover;
    let stats = Stats {
        games: n,
        checked,
        walked,
        examined,
        resolved: inherit.as_ref().map_or(0, |x| x.stepped),
        deal_ids,
    };
    let mut loose = rules::text::file_level(source);
    loose.extend(conflicts);
    loose.extend(score_totals(&slots, &next.entries));
    let checked = merge_with_file(source, export_from, &ranges, n, segments, caps, loose);
    let resolutions = r.inherits.then(|| Resolutions::new(inherited));
    (with_games(checked, ranges, resolutions), next, stats)
}

/// Which pieces' diagnostics can be taken whole (an entry each, kept from
/// the previous check), and for the others their games' keys and context
/// ([`Build`], entry `None`); how many games were examined.
fn reuse_pieces(
    r: &Run<'_>,
    slots: &[Slot],
    olds: &[Option<&Arc<Entry>>],
    inherit: Option<&super::resolve::Resolved>,
) -> (Vec<Option<Arc<Entry>>>, Vec<Build>, usize) {
    let (text, export_from) = (r.source.text.as_str(), r.export_from);
    let resolution_hash = |p: usize, k: usize| {
        inherit
            .and_then(|x| x.pieces[p].resolutions.get(k))
            .map_or(0, |x| x.value_hash())
    };
    let separators = r.separators();
    let mut examined = 0;
    let mut entries: Vec<Option<Arc<Entry>>> = Vec::with_capacity(slots.len());
    let mut build: Vec<Build> = Vec::new();
    for (p, s) in slots.iter().enumerate() {
        let next_id = slots.get(p + 1).map(|n| n.id);
        let old = olds[p];
        // The text from the piece's last node to the next one's first is
        // the same while both pieces are.
        let kept = old.filter(|e| {
            e.next_id.is_some() && e.next_id == next_id && slots[p + 1].info.first_node.is_some()
        });
        let tail = match kept {
            _ if !separators => None,
            Some(e) => e.tail.clone(),
            None => tail_separator(text, s, &slots[p + 1..]),
        };
        let context = piece_context(s, r, separators, tail.is_some());
        let old = old.filter(|e| e.tail == tail);
        let inherit_kept = inherit.as_ref().is_none_or(|x| x.kept[p]);
        if let Some(e) = old.filter(|e| inherit_kept && e.context == context) {
            let inherit = inherit.as_ref().map(|x| x.pieces[p].clone());
            let same_inherit = match (&inherit, &e.inherit) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            };
            entries.push(Some(if e.next_id == next_id && same_inherit {
                (*e).clone()
            } else {
                Arc::new(Entry {
                    next_id,
                    inherit,
                    ..Entry::clone(e)
                })
            }));
            continue;
        }
        examined += s.info.games.len();
        let keys: Vec<u64> = s
            .info
            .games
            .iter()
            .enumerate()
            .map(|(k, (span, _, h))| {
                game_key(*h, resolution_hash(p, k), export_from, &moved(s, span))
            })
            .collect();
        let key = piece_key(s.id, separators, tail.is_some(), &keys);
        match old.filter(|e| e.key == key) {
            Some(e) => entries.push(Some(Arc::new(Entry {
                context,
                next_id,
                inherit: inherit.as_ref().map(|x| x.pieces[p].clone()),
                ..Entry::clone(e)
            }))),
            None => {
                entries.push(None);
                build.push((p, keys, context, key, tail));
            }
        }
    }

    (entries, build, examined)
}

/// The games of the pieces of `build` that no check has seen, checked on
/// every core (the others taken from the walk, the replaced games or the
/// previous check): per piece its games' checks, its check when built as
/// soon as its games were (unless the state is kept), and how many games
/// were checked.
fn check_unseen(
    r: &Run<'_>,
    slots: &[Slot],
    build: &[Build],
    dones: &mut [Vec<(usize, Arc<GameCheck>)>],
    replaced: &Games,
    inherit: Option<&super::resolve::Resolved>,
) -> (Found, Vec<Option<PieceCheck>>, usize) {
    let (source, prev, export_from) = (r.source, r.prev, r.export_from);
    let text = source.text.as_str();
    let separators = r.separators();
    // Unless the state is kept, a piece's check is built as soon as its
    // games are, so that the games of every piece are never held at once
    // (`check_once`).
    let mut found: Found = Vec::with_capacity(build.len());
    let mut todo: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    let mut checked = 0;
    for (b, (p, keys, ..)) in build.iter().enumerate() {
        let mut got: Vec<Option<Arc<GameCheck>>> = vec![None; keys.len()];
        let done = std::mem::take(&mut dones[*p]);
        let checked_now = done.len();
        checked += checked_now;
        for (k, d) in done {
            got[k] = Some(d);
        }
        let mut missing = Vec::with_capacity(keys.len().saturating_sub(checked_now));
        for (k, key) in keys.iter().enumerate() {
            if got[k].is_none() {
                got[k] = replaced.get(key).or_else(|| prev.games.get(key)).cloned();
                if got[k].is_none() {
                    missing.push(k);
                }
            }
        }
        if !missing.is_empty() {
            todo.push((b, *p, missing));
        }
        found.push(Mutex::new(got));
    }
    let fresh = crate::par::map(&todo, |(b, p, list)| {
        let s = &slots[*p];
        let trees = r.forest.piece_trees(*p, text);
        let (chunks, _) = syntax::games(&trees[..], text);
        let mut seen = rules::text::CapCounts::default();
        let diags = list.iter().map(|&k| {
            let i = s.games.start + k;
            let span = moved(s, &s.info.games[k].0);
            let resolution = inherit.as_ref().and_then(|x| x.pieces[*p].resolution(k));
            let mut d = check_one(
                source,
                &chunks[k],
                span,
                i,
                resolution.as_ref(),
                r.opts,
                export_from,
            );
            if !r.kept {
                d.thin(&mut seen);
            }
            (k, Arc::new(d))
        });
        if r.kept {
            return (diags.collect(), None);
        }
        let mut got = std::mem::take(&mut *lock(&found[*b]));
        for (k, d) in diags {
            got[k] = Some(d);
        }
        let check = piece_check(
            s,
            &build[*b].1,
            every_game(got),
            separators,
            build[*b].4.clone(),
            false,
        );
        (Vec::new(), Some(check))
    });
    let mut built: Vec<Option<PieceCheck>> = (0..build.len()).map(|_| None).collect();
    for ((b, _, list), (diags, check)) in todo.iter().zip(fresh) {
        checked += list.len();
        let mut got = lock(&found[*b]);
        for (k, d) in diags {
            got[k] = Some(d);
        }
        built[*b] = check;
    }

    (found, built, checked)
}

/// A range of the piece's text when last checked, where the piece is now.
fn moved(s: &Slot, r: &Range<usize>) -> Range<usize> {
    let by = s.start as isize - s.info.start as isize;
    (r.start as isize + by) as usize..(r.end as isize + by) as usize
}

/// The check of a document whose trees are walked as one (a game reaches
/// across pieces): every game keyed, those no check has seen checked.
fn check_whole_tree(r: &Run<'_>) -> (Checked, State, Stats) {
    let (source, forest, prev, export_from) = (r.source, r.forest, r.prev, r.export_from);
    let text = source.text.as_str();
    let mut next = State::default();
    let all: Vec<tree_sitter::Tree> = forest.trees(text);
    let top = syntax::top_nodes(&all);
    let (chunks, loose) = syntax::games(&all, text);
    let Layout {
        spans,
        ranges: chunk_ranges,
        hashes,
        between,
        place,
    } = layout_of_chunks(source, &all, &chunks, &loose);
    let n = spans.len();
    next.count = n;

    let inherit = r.inherits.then(|| {
        Arc::new(resolve_inheritance(
            forest, text, &chunks, &place, &hashes, prev, &mut next,
        ))
    });
    let resolution = |i: usize| inherit.as_ref().and_then(|x| x.resolutions.get(i));
    let keys: Vec<u64> = (0..n)
        .map(|i| {
            game_key(
                hashes[i],
                resolution(i).map_or(0, |r| r.value_hash()),
                export_from,
                &spans[i],
            )
        })
        .collect();
    let todo: Vec<usize> = (0..n)
        .filter(|&i| prev.games.get(&keys[i]).is_none())
        .collect();
    let fresh = for_games(forest, text, Some(&chunks), &place, &todo, |i, c| {
        check_one(
            source,
            c,
            spans[i].clone(),
            i,
            resolution(i).map(|r| &**r),
            r.opts,
            export_from,
        )
    });
    let checked: HashMap<usize, Arc<GameCheck>> =
        fresh.into_iter().map(|(i, d)| (i, Arc::new(d))).collect();
    let game_diags = |i: usize| -> Arc<GameCheck> {
        checked
            .get(&i)
            .or_else(|| prev.games.get(&keys[i]))
            .expect("every game was checked or reused")
            .clone()
    };
    let stats = Stats {
        games: n,
        checked: checked.len(),
        walked: forest.len(),
        examined: n,
        resolved: inherit.as_ref().map_or(0, |_| n),
        deal_ids: n,
    };
    let mut out = rules::text::file_level(source);
    let mut dropped = rules::text::CapCounts::default();
    next.games = whole_games(&keys, &spans, &game_diags, &mut out, &mut dropped);
    let marks: Vec<(usize, DealIdMark)> = (0..n)
        .filter_map(|i| {
            let m = game_diags(i).deal_id()?.shifted(spans[i].start as isize);
            Some((i, m))
        })
        .collect();
    out.extend(rules::deal_id::conflicts(
        text,
        marks.iter().map(|(i, m)| (*i, m)),
    ));
    let scores: Vec<(usize, ScoreMark)> = (0..n)
        .filter_map(|i| {
            let m = game_diags(i).score()?.clone();
            Some((i, m.shifted(spans[i].start as isize)))
        })
        .collect();
    out.extend(rules::tables::score_totals(
        scores.iter().map(|(i, m)| (*i, m)),
    ));
    // Between the games: the text of the gaps, and comments outside games.
    out.extend(between);
    if r.separators() {
        out.extend(rules::file_export_in(source, &top, &chunks));
    }
    rules::text::cap(&mut out, &dropped);
    for d in out.iter_mut().filter(|d| d.game.is_none()) {
        d.game = game_by_position(&chunk_ranges, d.range.start);
    }
    crate::diagnostic::sort(&mut out);
    let info = PieceInfo::whole(spans, chunk_ranges, hashes);
    let ranges = GameRanges::new(vec![(0, 0, Arc::new(info))]);
    let resolutions = inherit.map(|x| Resolutions::new(vec![(0, x)]));
    (
        with_games(Checked::loose(n, out), ranges, resolutions),
        next,
        stats,
    )
}

/// The pieces of a check as the DealId index reads them.
impl PieceMarks for Arc<Vec<Arc<Entry>>> {
    fn count(&self) -> usize {
        self.len()
    }
    fn marks(&self, p: usize) -> &[(usize, DealIdMark)] {
        &self[p].check.deal_ids
    }
    fn token(&self) -> usize {
        Arc::as_ptr(self) as usize
    }
}

/// The list locked by `m` (a panic while it was held is propagated by
/// [`crate::par::map`], so its contents are still whole).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every game of a piece, each checked or reused.
fn every_game(got: Vec<Option<Arc<GameCheck>>>) -> Vec<Arc<GameCheck>> {
    got.into_iter()
        .map(|d| d.expect("every game was checked or reused"))
        .collect()
}

/// The key of a piece's diagnostics: its tree (so its text and layout),
/// whether export separators are checked and the last one is wrong, and
/// its games' keys (their inherited values and export rules).
pub(super) fn piece_key(id: u64, separators: bool, tail: bool, keys: &[u64]) -> u64 {
    keys.iter()
        .fold(mix(id, 1 + separators as u64 + 2 * tail as u64), |h, &k| {
            mix(h, k)
        })
}

/// The diagnostics of piece `s`, from its games' (`keys` and `diags`, in
/// order) and its [`PieceInfo`]: relative to the piece's start, with only
/// what the per-file caps can show ([`rules::text::thin`]). Unless they
/// are `kept` for a next check, the games' own lists are not kept beside.
fn piece_check(
    s: &Slot,
    keys: &[u64],
    got: Vec<Arc<GameCheck>>,
    separators: bool,
    tail: Option<Diagnostic>,
    kept: bool,
) -> PieceCheck {
    // The info's offsets are as they were when the piece started at
    // `info.start`; the tail's are relative to the piece's start.
    let info = &s.info;
    let back = -(info.start as isize);
    let mut games = Vec::with_capacity(if kept { got.len() } else { 0 });
    let mut diags = Vec::with_capacity(got.iter().map(|d| d.diags.len()).sum());
    let mut deal_ids = Vec::new();
    let mut scores = Vec::new();
    let mut dropped = rules::text::CapCounts::default();
    for (local, (d, (span, _, _))) in got.into_iter().zip(&info.games).enumerate() {
        let by = (span.start - info.start) as isize;
        deal_ids.extend(d.deal_id().map(|m| (local, m.shifted(by))));
        scores.extend(d.score().map(|m| (local, m.clone().shifted(by))));
        rules::text::add_counts(&mut dropped, &d.dropped());
        let place = |x: Diagnostic| {
            let mut x = x.shifted(by);
            if x.game.is_some() {
                x.game = Some(local);
            }
            x
        };
        if kept {
            diags.extend(d.diags.iter().cloned().map(place));
            games.push((keys[local], d));
        } else {
            match Arc::try_unwrap(d) {
                Ok(d) => diags.extend(d.diags.into_iter().map(place)),
                Err(d) => diags.extend(d.diags.iter().cloned().map(place)),
            }
        }
    }
    diags.extend(info.between.iter().map(|d| d.clone().shifted(back)));
    if separators {
        diags.extend(info.separators.iter().map(|d| d.clone().shifted(back)));
        diags.extend(tail);
    }
    let local: Vec<Range<usize>> = info
        .games
        .iter()
        .map(|g| g.1.start - info.start..g.1.end - info.start)
        .collect();
    for d in diags.iter_mut().filter(|d| d.game.is_none()) {
        d.game = game_by_position(&local, d.range.start);
    }
    crate::diagnostic::sort(&mut diags);
    rules::text::thin(&mut diags, &mut Default::default(), &mut dropped);
    diags.shrink_to_fit();
    let mut caps = rules::text::cap_counts(&diags);
    rules::text::add_counts(&mut caps, &dropped);
    PieceCheck {
        games,
        diags: Arc::new(diags),
        caps,
        deal_ids,
        scores,
    }
}

/// The `#`/`##` resolution of every game (§4.8) of a document walked
/// whole, from the games' tag summaries: those of unchanged spans are taken
/// from `prev`, the others are lowered now; all of them are kept in `next`.
fn resolve_inheritance(
    forest: &Forest,
    text: &str,
    chunks: &[GameChunk<'_>],
    place: &[(usize, usize)],
    hashes: &[u64],
    prev: &State,
    next: &mut State,
) -> PieceInherit {
    let mut known = prev.summaries.clone();
    for e in prev.entries.iter() {
        if let Some(inh) = &e.inherit {
            for (g, s) in e.info.games.iter().zip(inh.summaries.iter()) {
                known.insert(g.2, s.clone());
            }
        }
    }
    let n = hashes.len();
    // Games of the same text share a summary: one of them is lowered.
    let mut first: HashMap<u64, ()> = HashMap::default();
    let missing: Vec<usize> = (0..n)
        .filter(|&i| !known.contains_key(&hashes[i]) && first.insert(hashes[i], ()).is_none())
        .collect();
    drop(first);
    let fresh = for_games(forest, text, Some(chunks), place, &missing, |i, c| {
        TagSummary::of(&lower_game(i, c, text))
    });
    for (i, s) in fresh {
        known.insert(hashes[i], Arc::new(s));
    }
    let summaries: Vec<Arc<TagSummary>> = hashes
        .iter()
        .map(|h| known.get(h).expect("every game has a summary").clone())
        .collect();
    let mut env = Env::default();
    let mut resolutions = Vec::with_capacity(n);
    for (i, s) in summaries.iter().enumerate() {
        next.summaries.insert(hashes[i], s.clone());
        Resolution::push_shared(&mut resolutions, env.step(i, s));
    }
    PieceInherit {
        summaries: Arc::new(summaries),
        resolutions: Arc::new(resolutions),
        after: Arc::new(env),
        renumber: Default::default(),
    }
}

/// The diagnostics of every game of a document walked whole, shifted to
/// their places and appended to `out` (what the games left out added to
/// `dropped`); the games' cache for the next check.
fn whole_games(
    keys: &[u64],
    spans: &[Range<usize>],
    game_diags: &impl Fn(usize) -> Arc<GameCheck>,
    out: &mut Vec<Diagnostic>,
    dropped: &mut rules::text::CapCounts,
) -> Games {
    let mut base = HashMap::with_capacity_and_hasher(keys.len(), Default::default());
    for (i, key) in keys.iter().enumerate() {
        let diags = game_diags(i);
        rules::text::add_counts(dropped, &diags.dropped());
        out.extend(diags.diags.iter().cloned().map(|d| {
            let mut d = d.shifted(spans[i].start as isize);
            // Rule diagnostics carry their game; syntax and text ones get
            // theirs from their position later, as in `check_text`.
            if d.game.is_some() {
                d.game = Some(i);
            }
            d
        }));
        base.insert(*key, diags);
    }
    Arc::new(base)
}

/// The TotalScoreTable rule across games (§5.10,
/// [`rules::tables::score_totals`]) on the pieces' marks: nothing to do
/// unless a piece holds a TotalScoreTable.
fn score_totals(slots: &[Slot], entries: &[Arc<Entry>]) -> Vec<Diagnostic> {
    let has_totals = |e: &Arc<Entry>| e.check.scores.iter().any(|(_, m)| !m.totals.is_empty());
    if !entries.iter().any(has_totals) {
        return Vec::new();
    }
    let marks: Vec<(usize, ScoreMark)> = slots
        .iter()
        .zip(entries)
        .flat_map(|(s, e)| {
            e.check
                .scores
                .iter()
                .map(move |(k, m)| (s.games.start + k, m.clone().shifted(s.start as isize)))
        })
        .collect();
    rules::tables::score_totals(marks.iter().map(|(g, m)| (*g, m)))
}
