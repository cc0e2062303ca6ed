//! The `#`/`##` fold over a forest's pieces after an edit (§4.8): the
//! types it keeps per piece are in [`super::inherit`].

use super::inherit::{PieceInherit, Renumber};
use super::layout::Slot;
use super::state::{Entry, State};
use crate::model::inherit::{Env, Resolution, TagSummary};
use crate::model::lower::lower_game;
use crate::syntax::{self, Forest};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

/// The outcome of [`resolve_pieces`].
pub(super) struct Resolved {
    /// Per piece: its inheritance.
    pub(super) pieces: Vec<Arc<PieceInherit>>,
    /// Per piece: its resolutions are those of the previous check (the
    /// fold did not run on it).
    pub(super) kept: Vec<bool>,
    /// The games the fold ran on.
    pub(super) stepped: usize,
}

/// The inheritance of every piece of `slots` (lined up with the previous
/// check's entries as `olds`): kept where the state before a piece is the
/// previous check's, folded again from the first changed piece until it is.
pub(super) fn resolve_pieces(
    forest: &Forest,
    text: &str,
    slots: &[Slot],
    olds: &[Option<&Arc<Entry>>],
    prev: &State,
) -> Resolved {
    let old_entries = &prev.entries;
    let same_place = |p: usize, i: usize| {
        olds[p].is_some_and(|e| old_entries.get(i).is_some_and(|o| Arc::ptr_eq(e, o)))
    };
    // The pieces before the first changed one, whose games keep their
    // indices.
    let prefix = (0..slots.len())
        .take_while(|&p| same_place(p, p) && olds[p].is_some_and(|e| e.inherit.is_some()))
        .count();
    let n = slots.last().map_or(0, |s| s.games.end);
    let from = slots.get(prefix).map_or(n, |s| s.games.start);
    let by = n as isize - prev.count as isize;
    let back = old_entries.len() as isize - slots.len() as isize;

    let mut summaries = tag_summaries(forest, text, slots, olds, old_entries);

    // The fold.
    let mut out: Vec<Arc<PieceInherit>> = Vec::with_capacity(slots.len());
    let mut kept = vec![false; slots.len()];
    let mut stepped = 0;
    let mut settled = false;
    let mut env = Arc::new(Env::default());
    // The piece kept last, whose state after it is `env` once renumbered.
    let mut env_of: Option<Arc<PieceInherit>> = None;
    for (p, s) in slots.iter().enumerate() {
        let old = olds[p].and_then(|e| e.inherit.as_ref());
        if let Some(old) = old.filter(|_| p < prefix) {
            kept[p] = true;
            env_of = Some(old.clone());
            out.push(old.clone());
            continue;
        }
        if !settled {
            if let Some(x) = env_of.take() {
                env = x.after_now();
            }
        }
        if !settled && p >= prefix && old.is_some() {
            // An unchanged piece after the changed ones: the state
            // before it then, numbered as now.
            let i = p as isize + back;
            settled = i >= 0
                && same_place(p, i as usize)
                && match (i as usize).checked_sub(1) {
                    None => env.same_as(&Env::default(), |g| g),
                    Some(j) => old_entries[j].inherit.as_ref().is_some_and(|b| {
                        let old_env = &b.after;
                        env.same_as(old_env, |g| {
                            let g = b.renumber.apply(g);
                            if g >= from {
                                (g as isize + by) as usize
                            } else {
                                g
                            }
                        })
                    }),
                };
        }
        if settled {
            if let Some(old) = old {
                kept[p] = true;
                let moved = Arc::new(old.moved(from, by));
                env_of = Some(moved.clone());
                out.push(moved);
                continue;
            }
            settled = false;
        }
        // Resolved again.
        let sums: Arc<Vec<Arc<TagSummary>>> = match (old, summaries[p].take()) {
            (Some(old), _) => old.summaries.clone(),
            (None, Some(list)) => Arc::new(
                list.into_iter()
                    .map(|s| s.expect("every game has a summary"))
                    .collect(),
            ),
            (None, None) => unreachable!("a piece without summaries"),
        };
        let mut next = Env::clone(&env);
        let mut resolutions: Vec<Arc<Resolution>> = Vec::with_capacity(sums.len());
        for (k, sum) in sums.iter().enumerate() {
            Resolution::push_shared(&mut resolutions, next.step(s.games.start + k, sum));
        }
        stepped += resolutions.len();
        env = Arc::new(next);
        out.push(Arc::new(PieceInherit {
            summaries: sums,
            resolutions: Arc::new(resolutions),
            after: env.clone(),
            renumber: Renumber::default(),
        }));
    }
    Resolved {
        pieces: out,
        kept,
        stepped,
    }
}

/// Per piece, its games' tag summaries (`None` inside: not found yet).
type Summaries = Vec<Option<Vec<Option<Arc<TagSummary>>>>>;

/// Per piece not kept with its inheritance, its games' tag summaries: kept
/// by the pieces, found by hash among those of the pieces replaced, the
/// others lowered now (`None` for a piece whose inheritance is kept).
fn tag_summaries(
    forest: &Forest,
    text: &str,
    slots: &[Slot],
    olds: &[Option<&Arc<Entry>>],
    old_entries: &[Arc<Entry>],
) -> Summaries {
    let lined: HashSet<*const Entry> = olds.iter().flatten().map(|e| Arc::as_ptr(e)).collect();
    let mut known: HashMap<u64, Arc<TagSummary>> = HashMap::default();
    for e in old_entries
        .iter()
        .filter(|e| !lined.contains(&Arc::as_ptr(e)))
    {
        if let Some(inh) = &e.inherit {
            for (g, s) in e.info.games.iter().zip(inh.summaries.iter()) {
                known.insert(g.2, s.clone());
            }
        }
    }
    let mut summaries: Summaries = Vec::new();
    let mut missing: Vec<(usize, Vec<usize>)> = Vec::new();
    // Games of the same text share a summary: the first one missing is
    // lowered, the others (`twins`: piece, game, hash) take its summary.
    let mut first: HashSet<u64> = HashSet::default();
    let mut twins: Vec<(usize, usize, u64)> = Vec::new();
    for (p, s) in slots.iter().enumerate() {
        if let Some(inh) = olds[p].and_then(|e| e.inherit.as_ref()) {
            summaries.push(None);
            debug_assert_eq!(inh.summaries.len(), s.info.games.len());
            continue;
        }
        let got: Vec<Option<Arc<TagSummary>>> = s
            .info
            .games
            .iter()
            .map(|g| known.get(&g.2).cloned())
            .collect();
        let mut list = Vec::new();
        for (k, g) in s.info.games.iter().enumerate() {
            if got[k].is_none() {
                if first.insert(g.2) {
                    list.push(k);
                } else {
                    twins.push((p, k, g.2));
                }
            }
        }
        if !list.is_empty() {
            missing.push((p, list));
        }
        summaries.push(Some(got));
    }
    drop(first);
    let fresh = crate::par::map(&missing, |(p, list)| {
        let trees = forest.piece_trees(*p, text);
        let (chunks, _) = syntax::games(&trees[..], text);
        let first = slots[*p].games.start;
        list.iter()
            .map(|&k| {
                let g = lower_game(first + k, &chunks[k], text);
                (k, Arc::new(TagSummary::of(&g)))
            })
            .collect::<Vec<_>>()
    });
    for ((p, _), got) in missing.iter().zip(fresh) {
        let list = summaries[*p].as_mut().expect("a piece without summaries");
        for (k, s) in got {
            known.insert(slots[*p].info.games[k].2, s.clone());
            list[k] = Some(s);
        }
    }
    for (p, k, h) in twins {
        let list = summaries[p].as_mut().expect("a piece without summaries");
        list[k] = known.get(&h).cloned();
    }
    summaries
}
