//! What one check leaves for the next ([`State`]) and what it returns
//! ([`Checked`]: the diagnostics in one segment per forest piece).

use super::deal_ids::Handover;
use super::game::GameCheck;
use super::inherit::{PieceInherit, Resolutions};
use super::piece::PieceInfo;
use crate::checker::CheckResult;
use crate::diagnostic::Diagnostic;
use crate::model::inherit::TagSummary;
use crate::model::score_table::ScoreMark;
use crate::rules;
use crate::rules::deal_id::DealIdMark;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::Arc;

/// What one check leaves for the next one.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// Per-game diagnostics by game key, ranges relative to the span start,
    /// from a document walked whole (a check on pieces finds the games of
    /// the pieces it replaces in their [`Entry`]).
    pub(super) games: Games,
    /// Tag summaries by span hash, from a document walked whole when the
    /// text uses `#` (a check on pieces keeps them in its [`Entry`]s).
    pub(super) summaries: HashMap<u64, Arc<TagSummary>>,
    /// Per piece of the forest checked, in order: its id, layout and
    /// diagnostics. The next check lines its pieces up with these by id
    /// (the pieces before and after the edited ones keep theirs): a piece
    /// whose tree and context did not change is taken whole, without
    /// looking at its games, and no map of every piece is built again.
    pub(super) entries: Arc<Vec<Arc<Entry>>>,
    /// The number of games of the check that left this state.
    pub(super) count: usize,
    /// The DealId index of `entries` (§4.1.2), for the next check.
    pub(super) deal_ids: Handover,
}

/// Per-game diagnostics by game key.
pub(super) type Games = Arc<HashMap<u64, Arc<GameCheck>>>;

impl State {
    /// The number of games whose diagnostics can be reused.
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// What a check keeps of one piece of a forest.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) id: u64,
    pub(super) info: Arc<PieceInfo>,
    /// What the piece's diagnostics depend on besides its text, when no
    /// game inherits `#` values: whether export rules apply to each of its
    /// games and to its separators, and whether its last break is wrong
    /// ([`crate::checker::engine`]'s `piece_context`).
    pub(super) context: u64,
    /// [`piece_key`](crate::checker::engine) of `check`.
    pub(super) key: u64,
    pub(super) check: Arc<PieceCheck>,
    /// The export rule on the piece's last break (relative to the piece's
    /// start) and the id of the piece after it then: the rule looks at
    /// that piece's first line too.
    pub(super) tail: Option<Diagnostic>,
    pub(super) next_id: Option<u64>,
    /// Its games' `#`/`##` inheritance, when the text uses `#` values.
    pub(super) inherit: Option<Arc<PieceInherit>>,
}

/// The diagnostics of one piece of a forest.
#[derive(Debug)]
pub(super) struct PieceCheck {
    /// Per game of the piece: its key and its diagnostics (relative to the
    /// game's span).
    pub(super) games: Vec<(u64, Arc<GameCheck>)>,
    /// Every diagnostic of the piece (its games', the text between them, the
    /// export rule on its separators): ranges relative to the piece's
    /// start, game indices relative to its first game, sorted as
    /// [`CheckResult`] is.
    pub(super) diags: Arc<Vec<Diagnostic>>,
    /// [`rules::text::cap_counts`] of `diags` and of what its games and
    /// it left out of them ([`rules::text::thin`]): the counts of the
    /// piece's text.
    pub(super) caps: [usize; rules::text::CAP_KINDS],
    /// Its games' DealId marks (§4.1.2): game index relative to its first
    /// game, ranges relative to the piece's start. The rule across games
    /// reads these, not the games.
    pub(super) deal_ids: Vec<(usize, DealIdMark)>,
    /// Its games' [`ScoreMark`]s (§5.10), placed as `deal_ids`.
    pub(super) scores: Vec<(usize, ScoreMark)>,
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
    pub game_ranges: GameRanges,
    /// Each game's inherited values (§4.8), when the text uses `#` values.
    pub resolutions: Option<Resolutions>,
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
        let mut d = d.clone().shifted(self.shift as isize);
        d.game = d.game.map(|g| g + self.first_game);
        d
    }

    pub(super) fn key(&self, d: &Diagnostic) -> (usize, usize, &'static str) {
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

    pub(super) fn loose(games: usize, diags: Vec<Diagnostic>) -> Checked {
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

/// Statistics of one re-check (for tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: usize,
    /// Games lowered and checked again.
    pub checked: usize,
    /// Pieces of a forest whose top-level nodes were walked (the others'
    /// layout was reused); all of them without a forest.
    pub walked: usize,
    /// Games looked at one by one (their keys computed, their diagnostics
    /// gathered): those of the pieces whose diagnostics could not be taken
    /// whole; every game when the text uses `#` values or without a
    /// forest. What an edit costs beyond its pieces' parse.
    pub examined: usize,
    /// Games whose `#`/`##` inheritance (§4.8) was resolved again: from
    /// the first game an edit touched until the state between two pieces is
    /// what it was; none without `#` values.
    pub resolved: usize,
    /// DealId marks and their places that the rule across games (§4.1.2)
    /// looked at: those of the pieces checked again and of the DealIds
    /// they have, and of the DealIds on two deals; every game without a
    /// forest.
    pub deal_ids: usize,
}

/// Every game's range (its chunk), kept per piece: made in one step per
/// piece, whatever the number of games.
#[derive(Clone, Debug, Default)]
pub struct GameRanges {
    /// The pieces with games: their first game's index, what to add to
    /// their layout's offsets, and their layout.
    parts: Arc<Vec<(usize, isize, Arc<PieceInfo>)>>,
    len: usize,
}

impl GameRanges {
    /// From pieces in order: (first game, shift, layout); empty ones are
    /// left out.
    pub(super) fn new(parts: Vec<(usize, isize, Arc<PieceInfo>)>) -> GameRanges {
        let parts: Vec<_> = parts
            .into_iter()
            .filter(|p| !p.2.games.is_empty())
            .collect();
        let len = parts.last().map_or(0, |(f, _, i)| f + i.games.len());
        GameRanges {
            parts: Arc::new(parts),
            len,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn at(part: &(usize, isize, Arc<PieceInfo>), k: usize) -> Range<usize> {
        let r = &part.2.games[k].1;
        (r.start as isize + part.1) as usize..(r.end as isize + part.1) as usize
    }

    /// Game `i`'s range.
    pub fn get(&self, i: usize) -> Option<Range<usize>> {
        let p = self.parts.partition_point(|p| p.0 <= i).checked_sub(1)?;
        let part = &self.parts[p];
        (i - part.0 < part.2.games.len()).then(|| GameRanges::at(part, i - part.0))
    }

    /// As `slice::partition_point` on the ranges in order (`pred` true on
    /// a prefix of them).
    pub fn partition_point(&self, pred: impl Fn(&Range<usize>) -> bool) -> usize {
        let parts = &self.parts;
        let p = parts.partition_point(|part| pred(&GameRanges::at(part, part.2.games.len() - 1)));
        let Some(part) = parts.get(p) else {
            return self.len;
        };
        let games = &part.2.games;
        let (mut lo, mut hi) = (0, games.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if pred(&GameRanges::at(part, mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        part.0 + lo
    }

    /// Every range, in order.
    pub fn iter(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.parts
            .iter()
            .flat_map(|part| (0..part.2.games.len()).map(move |k| GameRanges::at(part, k)))
    }

    /// The game whose range holds `at`, as `check_text` assigns syntax and
    /// text diagnostics.
    pub fn game_at(&self, at: usize) -> Option<usize> {
        let i = self.partition_point(|r| r.end <= at);
        self.get(i).filter(|r| r.start <= at).map(|_| i)
    }
}
