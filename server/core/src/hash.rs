//! Hash maps and sets keyed by what a file holds (tag names, note numbers,
//! comment anchors, cache keys): std's, seeded at random in normal builds,
//! so that a crafted file cannot make their keys collide.
//!
//! In fuzz builds (`--cfg fuzzing`, set by cargo-fuzz for every crate) the
//! seed is fixed instead, so that an execution's coverage depends on its
//! input alone. std's map code is generic, so it is compiled into this
//! crate and instrumented with it; with a new random seed for every map,
//! its rare branches (a probe that goes past a full group, a growth in the
//! middle of a collision chain) would run for random inputs, and libFuzzer
//! would count them as new coverage (ROBUSTNESS.md, "Stable coverage"). The
//! rules' small per-game sets use FxHash ([`crate::rules`]'s `FastMap`),
//! which has no seed.

/// The maps' hasher: random keys, or fixed ones in fuzz builds.
#[cfg(not(fuzzing))]
pub type Seed = std::collections::hash_map::RandomState;
/// The maps' hasher: random keys, or fixed ones in fuzz builds.
#[cfg(fuzzing)]
pub type Seed = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

/// `std::collections::HashMap` with the [`Seed`] of this build.
pub type Map<K, V> = std::collections::HashMap<K, V, Seed>;
/// `std::collections::HashSet` with the [`Seed`] of this build.
pub type Set<K> = std::collections::HashSet<K, Seed>;

#[cfg(test)]
mod tests {
    #[test]
    fn maps_and_sets_work_with_either_seed() {
        let mut m: super::Map<&str, u32> = super::Map::default();
        m.insert("Deal", 1);
        *m.entry("Deal").or_default() += 1;
        assert_eq!(m.get("Deal"), Some(&2));
        let s: super::Set<u32> = [3, 1, 3].into_iter().collect();
        assert_eq!(s.len(), 2);
    }
}
