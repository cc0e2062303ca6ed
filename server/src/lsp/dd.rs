//! Double-dummy solving for the language server, off the main loop.
//!
//! One worker thread solves deals one at a time (DDS keeps one context per
//! thread; one thread keeps the editor's other requests fast on a small
//! machine) and caches each result under its [`Position`]: the deal, the
//! dealer and the vulnerability. Everything that wants a result goes through
//! [`service`]:
//!
//! - [`DdService::lookup`] (the hover) returns at once: the result, or
//!   [`Lookup::Solving`] after queueing the deal.
//! - [`DdService::solve`] (the code action, the `[check] dd` diagnostics)
//!   waits for the worker, on the calling (blocking) thread.
//!
//! Each queued job carries the version of the document that asked for it:
//! when an edit makes that version stale before the worker reaches the job,
//! the job is dropped (a waiting caller gets `None`), so typing never queues
//! up work for deals that no longer exist.

use pbn_core::dd::verify::{Position, Solved};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

/// Results kept at most; the cache is emptied when it is full (a result
/// costs well under a kilobyte, solving it again tens of milliseconds).
const CACHE_LIMIT: usize = 20_000;

/// Which document version asked for a solve.
#[derive(Clone)]
pub struct Staleness {
    pub latest: Arc<AtomicI32>,
    pub version: i32,
}

impl Staleness {
    /// A request that never becomes stale (tests, one-off solves).
    pub fn never() -> Staleness {
        Staleness {
            latest: Arc::new(AtomicI32::new(0)),
            version: 0,
        }
    }

    pub fn is_stale(&self) -> bool {
        self.latest.load(Ordering::Relaxed) != self.version
    }
}

/// What [`DdService::lookup`] found.
#[derive(Clone, Debug)]
pub enum Lookup {
    Ready(Arc<Solved>),
    /// Queued or being solved.
    Solving,
}

struct Job {
    position: Position,
    asked: Vec<Staleness>,
}

#[derive(Default)]
struct Inner {
    cache: HashMap<Position, Arc<Solved>>,
    queue: VecDeque<Job>,
    /// The position the worker is solving.
    running: Option<Position>,
    worker: bool,
}

impl Inner {
    fn queued(&mut self, p: &Position) -> Option<&mut Job> {
        self.queue.iter_mut().find(|j| &j.position == p)
    }
}

#[derive(Default)]
pub struct DdService {
    inner: Mutex<Inner>,
    /// Signalled when a job is queued.
    work: Condvar,
    /// Signalled when a job is done or dropped.
    done: Condvar,
}

/// The server's solver (one per process: results do not depend on the
/// document).
pub fn service() -> &'static DdService {
    static SERVICE: OnceLock<DdService> = OnceLock::new();
    SERVICE.get_or_init(DdService::default)
}

impl DdService {
    /// The cached result of `p`, else queues it and says so. Never waits.
    pub fn lookup(&'static self, p: &Position, asked: &Staleness) -> Lookup {
        let mut inner = self.lock();
        if let Some(r) = inner.cache.get(p) {
            return Lookup::Ready(r.clone());
        }
        self.enqueue(&mut inner, p, asked, false);
        Lookup::Solving
    }

    /// The cached result of `p`, without queueing it.
    pub fn cached(&self, p: &Position) -> Option<Arc<Solved>> {
        self.lock().cache.get(p).cloned()
    }

    /// The result of `p`, waiting for the worker to solve it first; `None`
    /// when `asked` became stale before it was solved.
    pub fn solve(&'static self, p: &Position, asked: &Staleness) -> Option<Arc<Solved>> {
        let mut inner = self.lock();
        loop {
            if let Some(r) = inner.cache.get(p) {
                return Some(r.clone());
            }
            if asked.is_stale() {
                return None;
            }
            if inner.running.as_ref() != Some(p) {
                // Waited for: ahead of the hovers' prefetches.
                self.enqueue(&mut inner, p, asked, true);
            }
            inner = self
                .done
                .wait_timeout(inner, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn enqueue(&'static self, inner: &mut Inner, p: &Position, asked: &Staleness, front: bool) {
        if inner.running.as_ref() == Some(p) {
            return;
        }
        if let Some(job) = inner.queued(p) {
            let known = job
                .asked
                .iter()
                .any(|a| Arc::ptr_eq(&a.latest, &asked.latest) && a.version == asked.version);
            if !known {
                job.asked.push(asked.clone());
            }
            if front {
                if let Some(i) = inner.queue.iter().position(|j| &j.position == p) {
                    if let Some(job) = inner.queue.remove(i) {
                        inner.queue.push_front(job);
                    }
                }
            }
            return;
        }
        let job = Job {
            position: p.clone(),
            asked: vec![asked.clone()],
        };
        if front {
            inner.queue.push_front(job);
        } else {
            inner.queue.push_back(job);
        }
        if !inner.worker {
            inner.worker = true;
            let spawned = std::thread::Builder::new()
                .name("pbn-dd".into())
                .spawn(move || self.run());
            if spawned.is_err() {
                inner.worker = false;
            }
        }
        self.work.notify_one();
    }

    fn run(&'static self) {
        loop {
            let position = {
                let mut inner = self.lock();
                loop {
                    match inner.queue.pop_front() {
                        // Every document that asked has changed since.
                        Some(job) if job.asked.iter().all(Staleness::is_stale) => {
                            self.done.notify_all();
                        }
                        Some(job) if inner.cache.contains_key(&job.position) => {}
                        Some(job) => break job.position,
                        None => {
                            inner = self.work.wait(inner).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                }
            };
            self.lock().running = Some(position.clone());
            // `solve` catches the solver's panics; a panic here would be a
            // bug of ours, and must not leave `running` set.
            let solved = std::panic::catch_unwind(|| position.solve()).unwrap_or_else(|_| {
                Err(pbn_core::dd::DdError::Solver(
                    "internal error while solving".into(),
                ))
            });
            let mut inner = self.lock();
            if inner.cache.len() >= CACHE_LIMIT {
                inner.cache.clear();
            }
            inner.cache.insert(position, Arc::new(solved));
            inner.running = None;
            self.done.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(deal: &str) -> Position {
        let text = format!("[Deal \"{deal}\"]\n");
        let trees = pbn_core::syntax::parse_split(&text, usize::MAX);
        let doc = pbn_core::model::lower(&trees, &text);
        Position::of(&doc.games[0]).unwrap()
    }

    #[test]
    fn lookup_queues_then_returns_the_result() {
        let p = position("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432");
        let asked = Staleness::never();
        let first = service().lookup(&p, &asked);
        let solved = service().solve(&p, &asked).unwrap();
        let (table, _) = solved.as_ref().as_ref().unwrap();
        assert_eq!(
            table.get(
                pbn_core::bridge::Strain::Notrump,
                pbn_core::bridge::Seat::North
            ),
            13
        );
        assert!(
            matches!(service().lookup(&p, &asked), Lookup::Ready(_)),
            "{first:?}"
        );
    }

    #[test]
    fn a_stale_request_is_dropped() {
        let p = position("N:T987.AKQJ.AKQ.AKQ AKQJ.T98.JT9.JT9 6543.7654.876.87 2.32.5432.65432");
        let latest = Arc::new(AtomicI32::new(2));
        let asked = Staleness {
            latest: latest.clone(),
            version: 1,
        };
        assert!(service().solve(&p, &asked).is_none());
        assert!(service().cached(&p).is_none());
        assert!(service()
            .solve(&p, &Staleness { latest, version: 2 })
            .is_some());
    }

    #[test]
    fn unsolvable_deals_are_cached_as_errors() {
        let p = position("N:AKQJ.AKQ.AKQ.AKQ - - -");
        let r = service().solve(&p, &Staleness::never()).unwrap();
        assert!(r.is_err());
    }
}
