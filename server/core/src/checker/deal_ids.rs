//! The DealId rule across games (§4.1.2, [`rules::deal_id`]) kept up to
//! date edit by edit: an index from each DealId to the games that have it.
//!
//! The pieces' checks keep their games' DealId marks
//! ([`super::state::PieceCheck::deal_ids`]); the index maps each DealId to
//! its marks as (piece, mark) places in document order, and remembers which
//! DealIds are on two different deals. An edit changes only the groups of
//! the DealIds of the marks it removed or added (a piece whose marks keep
//! their DealIds and deals changes none), and the diagnostics are made
//! from the groups with a conflict: nothing is done per piece or per
//! DealId mark of the document.
//!
//! Pieces before an edit keep their index and those after it move by the
//! number of pieces it added or removed: such moves are kept in a log and
//! applied to a group when it is next read, so that an edit does not touch
//! the places of every group.
//!
//! The index is handed from one check to the next: the next check takes it
//! out of the previous [`super::State`] (a state checked from twice builds
//! it again, from its pieces).

use crate::diagnostic::Diagnostic;
use crate::rules::deal_id::{self, DealIdMark};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Mutex;

/// A mark's place: its piece's index and the mark's index in that piece's
/// [`super::state::PieceCheck::deal_ids`].
type Place = (usize, usize);

/// More moves than this in the log and every group is renumbered.
const LOG_MAX: usize = 32;

/// The games of one DealId.
#[derive(Debug, Default)]
struct Group {
    /// Its marks' places, in document order.
    places: Vec<Place>,
    /// The length of the log when `places` were last renumbered.
    at: usize,
}

/// The index: DealId → its marks' places.
#[derive(Debug, Default)]
pub(super) struct DealIds {
    groups: HashMap<Box<str>, Group>,
    /// Moves of piece indices not applied to every group yet: each
    /// `(from, by)` adds `by` to every piece index at or after `from`.
    log: Vec<(usize, isize)>,
    /// The DealIds found on two different deals.
    conflicted: HashSet<Box<str>>,
    /// The [`PieceMarks::token`] of the pieces the index describes.
    token: usize,
}

/// The index a [`super::State`] hands to the next check.
#[derive(Debug, Default)]
pub(super) struct Handover(Mutex<Option<DealIds>>);

impl Clone for Handover {
    /// A copy of a state builds its index again when checked from.
    fn clone(&self) -> Self {
        Handover::default()
    }
}

impl Handover {
    pub(super) fn new(ids: DealIds) -> Handover {
        Handover(Mutex::new(Some(ids)))
    }

    /// The index, if no check took it yet and it describes `pieces`.
    fn take<M: PieceMarks + ?Sized>(&self, pieces: &M) -> Option<DealIds> {
        let mut slot = self.0.lock().ok()?;
        slot.take().filter(|x| x.token == pieces.token())
    }
}

/// How the pieces of a check line up with the previous check's: the first
/// `prefix` and the last `suffix` are the same pieces (the previous check
/// had `old_len`), the others are new.
pub(super) struct Lining {
    pub(super) prefix: usize,
    pub(super) suffix: usize,
    pub(super) old_len: usize,
}

/// The pieces of a check, as the index reads them: their count, each
/// one's DealId marks (game index in the piece, mark relative to the
/// piece's start), and which check they are (an identity: the index of
/// one check is only taken by a check from that one).
pub(super) trait PieceMarks {
    fn count(&self) -> usize;
    fn marks(&self, p: usize) -> &[(usize, DealIdMark)];
    fn token(&self) -> usize;
}

/// The DealId marks of piece `i` of `list` (none without a piece).
fn marks_of<M: PieceMarks + ?Sized>(list: &M, i: Option<usize>) -> &[(usize, DealIdMark)] {
    i.map_or(&[][..], |i| list.marks(i))
}

/// Whether two pieces' marks are the same to the index: the same games,
/// DealIds and deals (their ranges are read from the piece when a
/// diagnostic is made).
fn same_marks(a: &[(usize, DealIdMark)], b: &[(usize, DealIdMark)]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((ka, ma), (kb, mb))| {
            ka == kb && ma.id == mb.id && ma.deal == mb.deal && ma.inherited == mb.inherited
        })
}

impl DealIds {
    /// Piece index `p` of a place last renumbered at log length `at`, now.
    fn renumber(log: &[(usize, isize)], at: usize, p: usize) -> usize {
        log[at..].iter().fold(p, |p, &(from, by)| {
            if p >= from {
                (p as isize + by) as usize
            } else {
                p
            }
        })
    }

    fn bring_up(log: &[(usize, isize)], g: &mut Group, steps: &mut usize) {
        if g.at < log.len() {
            *steps += g.places.len();
            for place in &mut g.places {
                place.0 = DealIds::renumber(log, g.at, place.0);
            }
        }
        g.at = log.len();
    }

    /// The index of every mark of `pieces`, built whole.
    fn build<M: PieceMarks + ?Sized>(pieces: &M, steps: &mut usize) -> DealIds {
        let mut x = DealIds::default();
        let mut touched = HashSet::default();
        for p in 0..pieces.count() {
            for (j, (_, m)) in pieces.marks(p).iter().enumerate() {
                *steps += 1;
                x.groups
                    .entry(m.id.clone())
                    .or_default()
                    .places
                    .push((p, j));
                touched.insert(m.id.clone());
            }
        }
        x.settle(pieces, touched, steps);
        x
    }

    /// Whether each group of `touched` has two different deals, its places
    /// read in `entries`: updates [`DealIds::conflicted`].
    fn settle<M: PieceMarks + ?Sized>(
        &mut self,
        pieces: &M,
        touched: HashSet<Box<str>>,
        steps: &mut usize,
    ) {
        for id in touched {
            let Some(g) = self.groups.get(&id) else {
                self.conflicted.remove(&id);
                continue;
            };
            let mut first: Option<&str> = None;
            let mut two = false;
            for &(p, j) in &g.places {
                *steps += 1;
                let Some(deal) = pieces.marks(p)[j].1.deal.as_deref() else {
                    continue;
                };
                match first {
                    None => first = Some(deal),
                    Some(f) if f != deal => {
                        two = true;
                        break;
                    }
                    Some(_) => {}
                }
            }
            if two {
                self.conflicted.insert(id);
            } else {
                self.conflicted.remove(&id);
            }
        }
        self.token = pieces.token();
    }

    /// This index (of `old`, the previous check's pieces) made the index of
    /// `entries` (this check's, lined up as `lining`), given the pieces
    /// lined up but checked again (`rebuilt`, indices now).
    fn update<M: PieceMarks + ?Sized, N: PieceMarks + ?Sized>(
        mut self,
        old: &M,
        entries: &N,
        lining: &Lining,
        rebuilt: &[usize],
        steps: &mut usize,
    ) -> DealIds {
        let new_len = entries.count();
        let by = new_len as isize - lining.old_len as isize;
        let old_of = |p: usize| {
            if p < lining.prefix {
                p
            } else {
                (p as isize - by) as usize
            }
        };
        // (old piece, new piece) whose marks may differ.
        let mut pairs: Vec<(Option<usize>, Option<usize>)> = rebuilt
            .iter()
            .map(|&p| (Some(old_of(p)), Some(p)))
            .collect();
        let old_mid = lining.prefix..lining.old_len - lining.suffix;
        let new_mid = lining.prefix..new_len - lining.suffix;
        if old_mid.len() == new_mid.len() {
            pairs.extend(old_mid.map(Some).zip(new_mid.map(Some)));
        } else {
            pairs.extend(old_mid.map(|i| (Some(i), None)));
            pairs.extend(new_mid.map(|p| (None, Some(p))));
        }
        let mut removed: Vec<(usize, &DealIdMark)> = Vec::new();
        let mut added: Vec<(usize, usize, &DealIdMark)> = Vec::new();
        for &(i, p) in &pairs {
            let (a, b) = (marks_of(old, i), marks_of(entries, p));
            *steps += a.len().max(b.len());
            if same_marks(a, b) {
                continue;
            }
            if let Some(i) = i {
                removed.extend(a.iter().map(|(_, m)| (i, m)));
            }
            if let Some(p) = p {
                added.extend(b.iter().enumerate().map(|(j, (_, m))| (p, j, m)));
            }
        }
        let mut touched: HashSet<Box<str>> = HashSet::default();
        // Out with the old marks, in the old numbering.
        for (i, m) in removed {
            if let Some(g) = self.groups.get_mut(&m.id) {
                DealIds::bring_up(&self.log, g, steps);
                *steps += g.places.len();
                g.places.retain(|&(p, _)| p != i);
            }
            touched.insert(m.id.clone());
        }
        if by != 0 {
            self.log.push((lining.old_len - lining.suffix, by));
        }
        // In with the new, in this check's numbering.
        for (p, j, m) in added {
            let g = self.groups.entry(m.id.clone()).or_default();
            DealIds::bring_up(&self.log, g, steps);
            let at = g.places.partition_point(|&q| q < (p, j));
            *steps += 1;
            g.places.insert(at, (p, j));
            touched.insert(m.id.clone());
        }
        for id in &touched {
            if let Some(g) = self.groups.get_mut(id) {
                DealIds::bring_up(&self.log, g, steps);
                if g.places.is_empty() {
                    self.groups.remove(id);
                }
            }
        }
        self.settle(entries, touched, steps);
        if self.log.len() > LOG_MAX {
            for g in self.groups.values_mut() {
                DealIds::bring_up(&self.log, g, steps);
                g.at = 0;
            }
            self.log.clear();
        }
        self
    }

    /// The rule's diagnostics: those of the groups with a conflict, in
    /// document offsets.
    fn diagnostics<N: PieceMarks + ?Sized>(
        &mut self,
        text: &str,
        pieces: &N,
        place: impl Fn(usize) -> (usize, usize),
        steps: &mut usize,
    ) -> Vec<Diagnostic> {
        let mut marks: Vec<(usize, DealIdMark)> = Vec::new();
        for id in &self.conflicted {
            let Some(g) = self.groups.get_mut(id) else {
                continue;
            };
            DealIds::bring_up(&self.log, g, steps);
            for &(p, j) in &g.places {
                *steps += 1;
                let (k, m) = &pieces.marks(p)[j];
                let (start, first_game) = place(p);
                marks.push((first_game + k, m.shifted(start as isize)));
            }
        }
        marks.sort_by_key(|(g, _)| *g);
        deal_id::conflicts(text, marks.iter().map(|(g, m)| (*g, m)))
    }
}

/// The rule across games on this check's pieces (`now`; `place` gives a
/// piece's start and first game), with the previous check's index when it
/// left one (`handover`, of the pieces `old`, lined up with these as
/// `lining`; `rebuilt`: the pieces lined up but checked again); the index
/// for the next check. `steps` counts the marks and places looked at.
pub(super) fn deal_id_conflicts<M: PieceMarks + ?Sized, N: PieceMarks + ?Sized>(
    text: &str,
    (handover, old): (&Handover, &M),
    now: &N,
    place: impl Fn(usize) -> (usize, usize),
    lining: &Lining,
    rebuilt: &[usize],
    steps: &mut usize,
) -> (Vec<Diagnostic>, Handover) {
    let mut index = match handover.take(old) {
        Some(x) => x.update(old, now, lining, rebuilt, steps),
        None => DealIds::build(now, steps),
    };
    let diags = index.diagnostics(text, now, place, steps);
    (diags, Handover::new(index))
}
