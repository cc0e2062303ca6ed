//! `#`/`##` inheritance (§4.8) resolved piece by piece, incrementally.
//!
//! Inheritance is a left-to-right fold over the games: the state between
//! two games is an [`Env`]. Each piece of a forest keeps its games' tag
//! summaries, their resolutions and the state after its last game
//! ([`PieceInherit`]). After an edit, the pieces before the first changed
//! one keep theirs; from there the fold runs again, piece by piece, until
//! it reaches an unchanged piece whose state before it is the one the
//! previous check had there: every later piece then resolves as before and
//! keeps its resolutions. An edit that adds or removes games shifts the
//! game indices of later sources; such pieces are not resolved again but
//! renumbered lazily ([`Renumber`]). The fold itself is
//! `resolve::resolve_pieces`.

use crate::model::inherit::{Env, Resolution, TagSummary};
use std::sync::Arc;

/// Game index changes still to apply to the sources a piece keeps: each
/// `(from, by)` adds `by` to every index at or after `from`, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct Renumber(Vec<(usize, isize)>);

/// More changes than this and a piece's resolutions are renumbered at once.
const RENUMBER_MAX: usize = 8;

impl Renumber {
    pub(super) fn apply(&self, g: usize) -> usize {
        self.0.iter().fold(g, |g, &(from, by)| {
            if g >= from {
                (g as isize + by) as usize
            } else {
                g
            }
        })
    }

    fn then(&self, from: usize, by: isize) -> Renumber {
        let mut v = self.0.clone();
        if by != 0 {
            v.push((from, by));
        }
        Renumber(v)
    }
}

/// What one piece keeps of inheritance.
#[derive(Debug)]
pub(super) struct PieceInherit {
    /// Per game of the piece: its tag summary.
    pub(super) summaries: Arc<Vec<Arc<TagSummary>>>,
    /// Per game of the piece: its resolution (sources to renumber), shared
    /// by consecutive games that resolve alike
    /// ([`Resolution::push_shared`]).
    pub(super) resolutions: Arc<Vec<Arc<Resolution>>>,
    /// The state after the piece's last game (sources to renumber).
    pub(super) after: Arc<Env>,
    pub(super) renumber: Renumber,
}

impl PieceInherit {
    /// Game `k` of the piece's resolution, its sources numbered as now.
    pub(super) fn resolution(&self, k: usize) -> Option<Resolution> {
        let r = self.resolutions.get(k)?;
        Some(if self.renumber.0.is_empty() {
            Resolution::clone(r)
        } else {
            r.renumbered(|g| self.renumber.apply(g))
        })
    }

    /// The state after the piece, its sources numbered as now.
    pub(super) fn after_now(&self) -> Arc<Env> {
        if self.renumber.0.is_empty() {
            self.after.clone()
        } else {
            Arc::new(self.after.renumbered(|g| self.renumber.apply(g)))
        }
    }

    /// The same piece after games from `from` on moved by `by`.
    pub(super) fn moved(&self, from: usize, by: isize) -> PieceInherit {
        let renumber = self.renumber.then(from, by);
        if renumber.0.len() <= RENUMBER_MAX {
            return PieceInherit {
                summaries: self.summaries.clone(),
                resolutions: self.resolutions.clone(),
                after: self.after.clone(),
                renumber,
            };
        }
        let f = |g| renumber.apply(g);
        PieceInherit {
            summaries: self.summaries.clone(),
            resolutions: Arc::new(renumbered_all(&self.resolutions, f)),
            after: Arc::new(self.after.renumbered(f)),
            renumber: Renumber::default(),
        }
    }
}

/// `list` with every source's game index passed through `f`, consecutive
/// equal resolutions still shared.
fn renumbered_all(list: &[Arc<Resolution>], f: impl Fn(usize) -> usize) -> Vec<Arc<Resolution>> {
    let mut out: Vec<Arc<Resolution>> = Vec::with_capacity(list.len());
    for (i, r) in list.iter().enumerate() {
        match out.last() {
            Some(last) if i > 0 && Arc::ptr_eq(&list[i - 1], r) => {
                let last = last.clone();
                out.push(last);
            }
            _ => out.push(Arc::new(r.renumbered(&f))),
        }
    }
    out
}

/// Every game's inherited values, kept per piece: what requests look a
/// game's resolution up in.
#[derive(Clone, Debug, Default)]
pub struct Resolutions {
    /// Per piece with games: its first game's index and its inheritance.
    parts: Arc<Vec<(usize, Arc<PieceInherit>)>>,
}

impl Resolutions {
    pub(super) fn new(parts: Vec<(usize, Arc<PieceInherit>)>) -> Resolutions {
        Resolutions {
            parts: Arc::new(
                parts
                    .into_iter()
                    .filter(|(_, p)| !p.resolutions.is_empty())
                    .collect(),
            ),
        }
    }

    /// Game `i`'s resolution.
    pub fn get(&self, i: usize) -> Option<Resolution> {
        let (part, k) = self.find(i)?;
        part.resolution(k)
    }

    /// [`Resolution::value_hash`] of game `i`'s resolution.
    pub fn value_hash(&self, i: usize) -> Option<u64> {
        let (part, k) = self.find(i)?;
        part.resolutions.get(k).map(|r| r.value_hash())
    }

    /// The inheritance state just before game `i`, as the check walked
    /// it: what resolves games lowered again from a piece's text after
    /// its fixes, whose tags need not match the resolutions by index.
    pub fn env_before(&self, i: usize) -> Env {
        let p = self.parts.partition_point(|p| p.0 <= i);
        let Some(last) = p.checked_sub(1) else {
            return Env::default();
        };
        let (first, part) = &self.parts[last];
        if i - first >= part.summaries.len() {
            return Env::clone(&part.after_now());
        }
        let mut env = match last.checked_sub(1) {
            Some(q) => Env::clone(&self.parts[q].1.after_now()),
            None => Env::default(),
        };
        for (k, s) in part.summaries.iter().enumerate().take(i - first) {
            env.step(first + k, s);
        }
        env
    }

    fn find(&self, i: usize) -> Option<(&PieceInherit, usize)> {
        let p = self.parts.partition_point(|p| p.0 <= i).checked_sub(1)?;
        let (first, part) = &self.parts[p];
        Some((part, i - first))
    }
}
