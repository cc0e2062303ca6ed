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
//! Inheritance needs each game's tags, so when the text uses `#` values at
//! all, a position-free [`TagSummary`] of each game is kept too, keyed by
//! the span's hash.

use crate::checker::{CheckOptions, CheckResult};
use crate::diagnostic::Diagnostic;
use crate::model::inherit::{Env, Resolution, TagSummary};
use crate::model::lower::lower_game;
use crate::rules;
use crate::syntax::{self, Forest, GameChunk};
use crate::text::SourceText;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::game::{check_one, game_key};
use super::layout::{layout_of_chunks, layout_of_pieces, tail_separator, Layout, Slot};
use super::merge::{game_by_position, merge_with_file, with_games};
use super::piece::mix;
use super::state::{shift, Checked, Games, PieceCheck, Segment, State, Stats};

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
        let (chunks, _) = syntax::games(&trees[..]);
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
    let resolutions = if inherits {
        resolve_inheritance(forest, text, whole_chunks, &place, &hashes, prev, &mut next)
    } else {
        (0..n).map(|_| None).collect()
    };

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
    let loose = rules::text::file_level(source);

    let Some((top, chunks)) = &whole else {
        // A forest's pieces.
        next.games = prev.games.clone();
        for (&i, diags) in &checked {
            next.games.recent.insert(keys[i], diags.clone());
        }
        let cx = PieceContext {
            keys: &keys,
            spans: &spans,
            chunk_ranges: &chunk_ranges,
            separators,
            game_diags: &game_diags,
        };
        let (segments, caps) = piece_segments(&pieces, &piece_keys, reused, tails, &cx, &mut next);
        next.rebuild_games_if_grown(n);
        let checked = merge_with_file(source, export_from, &chunk_ranges, n, segments, caps, loose);
        return (with_games(checked, chunk_ranges, resolutions), next, stats);
    };

    // The whole tree.
    let mut out = loose;
    next.games = whole_games(&keys, &spans, &game_diags, &mut out);
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

/// The key of a piece's diagnostics: its tree (so its text and layout),
/// whether export separators are checked and the last one is wrong, and
/// its games' keys (their inherited values and export rules).
pub(super) fn piece_key(id: u64, separators: bool, tail: bool, keys: &[u64]) -> u64 {
    keys.iter()
        .fold(mix(id, 1 + separators as u64 + 2 * tail as u64), |h, &k| {
            mix(h, k)
        })
}

/// The diagnostics of piece `p`, from its games' and its [`PieceInfo`].
#[allow(clippy::too_many_arguments)]
pub(super) fn piece_check(p: &Slot, cx: &PieceContext<'_>, tail: Option<Diagnostic>) -> PieceCheck {
    let PieceContext {
        keys,
        spans,
        chunk_ranges,
        separators,
        game_diags,
    } = *cx;
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

/// The `#`/`##` resolution of every game (§4.8), from the games' tag
/// summaries: those of unchanged spans are taken from `prev`, the others
/// are lowered now; all of them are kept in `next`.
fn resolve_inheritance(
    forest: &Forest,
    text: &str,
    whole_chunks: Option<&[GameChunk<'_>]>,
    place: &[(usize, usize)],
    hashes: &[u64],
    prev: &State,
    next: &mut State,
) -> Vec<Option<Resolution>> {
    let n = hashes.len();
    let mut resolutions: Vec<Option<Resolution>> = (0..n).map(|_| None).collect();
    let missing: Vec<usize> = (0..n)
        .filter(|&i| !prev.summaries.contains_key(&hashes[i]))
        .collect();
    let fresh = for_games(forest, text, whole_chunks, place, &missing, |i, c| {
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
    resolutions
}

/// The diagnostics of every game of a document walked whole, shifted to
/// their places and appended to `out`; the games' cache for the next check.
fn whole_games(
    keys: &[u64],
    spans: &[Range<usize>],
    game_diags: &impl Fn(usize) -> Arc<Vec<Diagnostic>>,
    out: &mut Vec<Diagnostic>,
) -> Games {
    let mut base = HashMap::with_capacity_and_hasher(keys.len(), Default::default());
    for (i, key) in keys.iter().enumerate() {
        let diags = game_diags(i);
        out.extend(diags.iter().cloned().map(|d| {
            let mut d = shift(d, spans[i].start as isize);
            // Rule diagnostics carry their game; syntax and text ones get
            // theirs from their position later, as in `check_text`.
            if d.game.is_some() {
                d.game = Some(i);
            }
            d
        }));
        base.insert(*key, diags);
    }
    Games {
        base: Arc::new(base),
        recent: HashMap::default(),
    }
}

/// What turning the games' diagnostics into a piece's needs to know of the
/// document.
pub(super) struct PieceContext<'a> {
    pub(super) keys: &'a [u64],
    pub(super) spans: &'a [Range<usize>],
    pub(super) chunk_ranges: &'a [Range<usize>],
    /// Export rules apply from the first game on (the separator rule).
    pub(super) separators: bool,
    pub(super) game_diags: &'a dyn Fn(usize) -> Arc<Vec<Diagnostic>>,
}

/// One segment per piece: the previous check's where the piece and its
/// games' keys did not change (`reused`), else built from the games'
/// diagnostics; kept in `next`. Also the per-file cap counts of them all.
fn piece_segments(
    pieces: &[Slot],
    piece_keys: &[u64],
    reused: Vec<Option<Arc<PieceCheck>>>,
    tails: Vec<Option<Diagnostic>>,
    cx: &PieceContext<'_>,
    next: &mut State,
) -> (Vec<Segment>, [usize; rules::text::CAP_KINDS]) {
    let mut segments = Vec::with_capacity(pieces.len() + 1);
    let mut caps = [0usize; rules::text::CAP_KINDS];
    for (((p, key), reused), tail) in pieces.iter().zip(piece_keys).zip(reused).zip(tails) {
        let pc = reused.unwrap_or_else(|| Arc::new(piece_check(p, cx, tail)));
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
    (segments, caps)
}
