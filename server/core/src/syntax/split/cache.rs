//! The [`TreeCache`]: recently used piece trees within a budget of piece
//! text, shared by the versions of one document.

use tree_sitter::Tree;

/// The trees of one piece: one tree, or one per game where the piece's
/// tree has a syntax error (the canonical parse, see the module
/// documentation). Their top-level nodes, in order, are the piece's.
pub type PieceTrees = std::sync::Arc<Vec<Tree>>;

/// Recently used piece trees, by piece id and position, up to a budget of
/// piece text (the trees take about 15 times their text). Shared by the
/// versions of one document: a hover after an edit finds the edited
/// piece's trees that the re-check parsed.
pub struct TreeCache {
    budget: usize,
    inner: std::sync::Mutex<CacheInner>,
}

/// A piece's id, start byte, and start row and column.
pub(super) type CacheKey = (u64, usize, usize, usize);

#[derive(Default)]
struct CacheInner {
    /// (id, start byte, start row and column) → (trees, text length, last use)
    map: crate::hash::Map<CacheKey, (PieceTrees, usize, u64)>,
    used: usize,
    tick: u64,
}

/// The text of the pieces whose trees a document keeps (the trees of
/// 1 MB of text take about 15 MB).
pub const CACHE_BUDGET: usize = 1024 * 1024;

impl TreeCache {
    pub fn new(budget: usize) -> TreeCache {
        TreeCache {
            budget,
            inner: std::sync::Mutex::new(CacheInner::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn get(&self, key: CacheKey) -> Option<PieceTrees> {
        let mut c = self.lock();
        c.tick += 1;
        let tick = c.tick;
        let e = c.map.get_mut(&key)?;
        e.2 = tick;
        Some(e.0.clone())
    }

    /// Keeps `trees` (of a piece of `len` bytes), dropping the least
    /// recently used pieces' beyond the budget. The newest always stays,
    /// even alone over the budget: a piece of one huge game (a megabyte
    /// comment) would otherwise be parsed again for every hover in it.
    pub(super) fn put(&self, key: CacheKey, trees: PieceTrees, len: usize) {
        let mut c = self.lock();
        c.tick += 1;
        let tick = c.tick;
        if let Some(old) = c.map.insert(key, (trees, len, tick)) {
            c.used -= old.1;
        }
        c.used += len;
        while c.used > self.budget && c.map.len() > 1 {
            let Some((&k, _)) = c.map.iter().min_by_key(|(_, e)| e.2) else {
                break;
            };
            let e = c.map.remove(&k).expect("the key was just found");
            c.used -= e.1;
        }
    }

    /// The number of pieces whose trees are kept (for tests).
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
