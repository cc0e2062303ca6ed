//! The Rust heap a check holds at its peak, counted by this test binary's
//! own global allocator (tree-sitter's C allocations are not counted: they
//! are the parse's, bounded per piece). Unlike the resident memory that
//! `tests/tests/hostile.rs` bounds, this count does not depend on the
//! allocator's caching, so it can tell a check that holds something for
//! every game of a file at once from one that holds it per piece.
//!
//! One test in this binary: the count is process-wide.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// [`System`], counting the bytes allocated now and the most at once.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; the counters are
// only read by the test.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            NOW.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `chained_hash` of `tests/src/hostile.rs` at its tests' size: `n` games
/// whose Event is `#`, each inheriting through all the previous ones.
fn chained_hash(n: usize) -> Vec<u8> {
    let mut s = String::from("[Event \"Club night\"]\n[Site \"##Amsterdam\"]\n\n");
    s += &"[Event \"#\"]\n\n".repeat(n);
    s.into_bytes()
}

/// The most heap `f` held at once beyond what was held before it.
fn peak_of<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let r = f();
    (PEAK.load(Ordering::Relaxed) - before, r)
}

/// `pbn check` on 200,000 games inheriting `#` values (§4.8) does not hold
/// a record of every game at once: each piece's checked games are gathered
/// into the piece's diagnostics as soon as they are checked. It held 176
/// bytes a game until the last piece was checked: 21.5 times the input,
/// 6.8 times without. Each worker holds the games of the piece it checks
/// (about 2,500 of them): 1 MB a worker is allowed for machines with many
/// cores.
#[test]
fn a_check_holds_its_games_per_piece() {
    let n = 200_000;
    let bytes = chained_hash(n);
    let len = bytes.len();
    let source = pbn_core::text::decode_owned(bytes);
    let (peak, result) = peak_of(|| {
        pbn_core::checker::check_text(&source, &pbn_core::checker::CheckOptions::default())
    });
    assert_eq!(result.games, n + 1);
    assert!(result.diagnostics.is_empty(), "{:?}", result.diagnostics);
    let limit = 8 * len + (pbn_core::par::threads() << 20);
    let times = |b: usize| b as f64 / len as f64;
    eprintln!(
        "chained_hash: {len} bytes, Rust heap peak {peak} bytes ({:.1}×, limit {:.1}×)",
        times(peak),
        times(limit)
    );
    assert!(
        peak <= limit,
        "check_text held {peak} bytes at once on {len} bytes ({:.1}× the input, limit {:.1}×)",
        times(peak),
        times(limit)
    );
}
