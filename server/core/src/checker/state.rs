//! What one check leaves for the next ([`State`]) and what it returns
//! ([`Checked`]: the diagnostics in one segment per forest piece).

use super::piece::PieceInfo;
use crate::checker::CheckResult;
use crate::diagnostic::Diagnostic;
use crate::model::inherit::{Resolution, TagSummary};
use crate::rules;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::Arc;

/// What one check leaves for the next one.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// Per-game diagnostics by game key, ranges relative to the span start.
    pub(super) games: Games,
    /// Tag summaries by span hash (only kept when the text uses `#`).
    pub(super) summaries: HashMap<u64, Arc<TagSummary>>,
    /// The layout of each piece of a [`syntax::Forest`] by piece id: a piece
    /// whose tree did not change is not walked or hashed again.
    pub(super) pieces: HashMap<u64, Arc<PieceInfo>>,
    /// The diagnostics of each piece by [`piece_key`]: a piece whose tree
    /// and games' keys did not change is taken as a whole, without looking
    /// at its games one by one.
    pub(super) checks: HashMap<u64, Arc<PieceCheck>>,
    /// The number of games of the check that left this state.
    pub(super) count: usize,
}

/// Per-game diagnostics by game key: a shared base and the games checked
/// since it was built. An edit adds a game or two; copying a map of every
/// game of a large document per edit would cost more than the check.
#[derive(Clone, Debug, Default)]
pub(super) struct Games {
    pub(super) base: Arc<HashMap<u64, Arc<Vec<Diagnostic>>>>,
    pub(super) recent: HashMap<u64, Arc<Vec<Diagnostic>>>,
}

impl Games {
    pub(super) fn get(&self, key: &u64) -> Option<&Arc<Vec<Diagnostic>>> {
        self.recent.get(key).or_else(|| self.base.get(key))
    }
}

impl State {
    /// Rebuilds the games' cache from the current pieces' games now and
    /// then, so that games edited away do not pile up.
    pub(super) fn rebuild_games_if_grown(&mut self, games: usize) {
        if self.games.recent.len() > 256.max(games / 8) {
            let mut base = HashMap::with_capacity_and_hasher(games, Default::default());
            for pc in self.checks.values() {
                base.extend(pc.games.iter().cloned());
            }
            self.games = Games {
                base: Arc::new(base),
                recent: HashMap::default(),
            };
        }
    }

    /// The number of games whose diagnostics can be reused.
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// The diagnostics of one piece of a forest.
#[derive(Debug)]
pub(super) struct PieceCheck {
    /// Per game of the piece: its key and its diagnostics (relative to the
    /// game's span).
    pub(super) games: Vec<(u64, Arc<Vec<Diagnostic>>)>,
    /// Every diagnostic of the piece (its games', the text between them, the
    /// export rule on its separators): ranges relative to the piece's
    /// start, game indices relative to its first game, sorted as
    /// [`CheckResult`] is.
    pub(super) diags: Arc<Vec<Diagnostic>>,
    /// [`rules::text::cap_counts`] of `diags`.
    pub(super) caps: [usize; rules::text::CAP_KINDS],
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
}

pub(super) fn shift(mut d: Diagnostic, by: isize) -> Diagnostic {
    let f = |r: &mut Range<usize>| {
        *r = (r.start as isize + by) as usize..(r.end as isize + by) as usize
    };
    f(&mut d.range);
    for r in &mut d.related {
        f(&mut r.range);
    }
    d
}
