//! Double-dummy solving for the language server, off the main loop.
//!
//! One worker thread solves deals one at a time (each on the solver's
//! pool of threads; one at a time keeps the editor's other requests fast
//! on a small machine) and caches each result under its [`Position`]: the deal, the
//! dealer and the vulnerability. Everything that wants a result goes through
//! [`service`]:
//!
//! - [`DdService::lookup`] (the hover) returns at once: the result, or
//!   [`Lookup::Solving`] after queueing the deal.
//! - [`DdService::lookup_play`] and [`DdService::lookup_leads`]: the same
//!   for a game's play analysis card by card (the hover on a card and the
//!   inlay hints) and its opening leads (the Deal hover). A hover's job
//!   goes to the front of the queue, the inlay hints' to the back, so the
//!   hovered game's play analysis goes first.
//! - [`DdService::solve`] (the code action, the `[check] dd` diagnostics)
//!   waits for the worker, on the calling (blocking) thread.
//!
//! - `server::prefetch_dd_later` (after a document's diagnostics): solves the deals
//!   of its first [`Settings::dd_background`] games on a second,
//!   low-priority worker, one thread, so that a later hover answers at
//!   once. A hover or a waiting caller never queues behind that work.
//!
//! - [`refresh_hints_when_played`] (a client with
//!   `workspace.inlayHint.refreshSupport`): once the play analyses queued
//!   are done, the server sends `workspace/inlayHint/refresh`, so that the
//!   `−1` hints show without an edit.
//!
//! Each queued job carries the version of the document that asked for it:
//! when an edit makes that version stale before the worker reaches the job,
//! the job is dropped (a waiting caller gets `None`), so typing never queues
//! up work for deals that no longer exist.

use pbn_core::dd::leads::Leads;
use pbn_core::dd::play::{PlayReport, PlayTrace, Setup};
use pbn_core::dd::verify::{Position, Solved};
use pbn_core::dd::DdError;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// While play analyses remain queued, the longest wait between two calls of
/// the hook of [`DdService::on_play_solved`].
const PLAY_SOLVED_EVERY: Duration = Duration::from_secs(1);

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

/// What [`DdService::lookup`] (and `lookup_play`, `lookup_leads`) found.
#[derive(Clone, Debug)]
pub enum Lookup<T = Solved> {
    Ready(Arc<T>),
    /// Queued or being solved.
    Solving,
}

/// A game's play analysis card by card.
pub type PlaySolved = Result<PlayReport, DdError>;
/// A game's opening leads.
pub type LeadsSolved = Result<Leads, DdError>;

/// What a job solves: a deal's table and par, a play, or opening leads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Table(Position),
    Play(PlayTrace),
    Leads(Setup),
}

/// A solved [`Key`].
#[derive(Clone)]
enum Answer {
    Table(Arc<Solved>),
    Play(Arc<PlaySolved>),
    Leads(Arc<LeadsSolved>),
}

impl Key {
    fn solve(&self, one_thread: bool) -> Answer {
        match self {
            Key::Table(p) if one_thread => Answer::Table(Arc::new(p.solve_one_thread())),
            Key::Table(p) => Answer::Table(Arc::new(p.solve())),
            Key::Play(t) => Answer::Play(Arc::new(pbn_core::dd::play::analyse_play(t))),
            Key::Leads(s) => Answer::Leads(Arc::new(pbn_core::dd::leads::opening_leads(s))),
        }
    }

    /// The answer for a solver failure of ours.
    fn failed(&self) -> Answer {
        let e = DdError::Solver("internal error while solving".into());
        match self {
            Key::Table(_) => Answer::Table(Arc::new(Err(e))),
            Key::Play(_) => Answer::Play(Arc::new(Err(e))),
            Key::Leads(_) => Answer::Leads(Arc::new(Err(e))),
        }
    }
}

struct Job {
    position: Key,
    asked: Vec<Staleness>,
}

#[derive(Default)]
struct Inner {
    cache: HashMap<Key, Answer>,
    queue: VecDeque<Job>,
    /// The job the worker is solving.
    running: Option<Key>,
    worker: bool,
    /// The background worker's jobs ([`DdService::prefetch`]).
    background: VecDeque<Job>,
    /// The position the background worker is solving.
    background_running: Option<Key>,
    background_worker: bool,
    /// When the hook of [`DdService::on_play_solved`] was last called.
    play_told: Option<Instant>,
}

impl Inner {
    fn running_slot(&mut self, background: bool) -> &mut Option<Key> {
        if background {
            &mut self.background_running
        } else {
            &mut self.running
        }
    }

    fn queued(&mut self, p: &Key) -> Option<&mut Job> {
        self.queue.iter_mut().find(|j| &j.position == p)
    }

    fn table(&self, p: &Position) -> Option<Arc<Solved>> {
        match self.cache.get(&Key::Table(p.clone()))? {
            Answer::Table(r) => Some(r.clone()),
            _ => None,
        }
    }
}

#[derive(Default)]
pub struct DdService {
    inner: Mutex<Inner>,
    /// Signalled when a job is queued.
    work: Condvar,
    /// Signalled when a background job is queued.
    background_work: Condvar,
    /// Signalled when a job is done or dropped.
    done: Condvar,
    /// Called when play analyses are done ([`DdService::on_play_solved`]).
    play_solved: Mutex<Option<Arc<dyn Fn() + Send + Sync>>>,
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
        if let Some(r) = inner.table(p) {
            return Lookup::Ready(r);
        }
        // Someone waits for it: ahead of the code actions' and
        // diagnostics' deals queued before.
        self.enqueue(&mut inner, &Key::Table(p.clone()), asked, true);
        Lookup::Solving
    }

    /// The cached play analysis of `t`, else queues it (`front`: a hover,
    /// ahead of everything queued; else behind it) and says so.
    pub fn lookup_play(
        &'static self,
        t: &PlayTrace,
        asked: &Staleness,
        front: bool,
    ) -> Lookup<PlaySolved> {
        let key = Key::Play(t.clone());
        let mut inner = self.lock();
        if let Some(Answer::Play(r)) = inner.cache.get(&key) {
            return Lookup::Ready(r.clone());
        }
        self.enqueue(&mut inner, &key, asked, front);
        Lookup::Solving
    }

    /// The cached opening leads of `s`, else queues them (at the front: a
    /// hover) and says so.
    pub fn lookup_leads(&'static self, s: &Setup, asked: &Staleness) -> Lookup<LeadsSolved> {
        let key = Key::Leads(s.clone());
        let mut inner = self.lock();
        if let Some(Answer::Leads(r)) = inner.cache.get(&key) {
            return Lookup::Ready(r.clone());
        }
        self.enqueue(&mut inner, &key, asked, true);
        Lookup::Solving
    }

    /// Calls `hook` (on the worker's thread) when a play analysis is done
    /// and no other one that a current version asked for is queued, or a
    /// second after it was last called while more remain; replaces the
    /// hook set before.
    pub fn on_play_solved(&self, hook: impl Fn() + Send + Sync + 'static) {
        *self.play_solved.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(hook));
    }

    /// The cached result of `p`, without queueing it.
    pub fn cached(&self, p: &Position) -> Option<Arc<Solved>> {
        self.lock().table(p)
    }

    /// The result of `p`, waiting for the worker to solve it first; `None`
    /// when `asked` became stale before it was solved.
    pub fn solve(&'static self, p: &Position, asked: &Staleness) -> Option<Arc<Solved>> {
        let key = Key::Table(p.clone());
        let mut inner = self.lock();
        loop {
            if let Some(r) = inner.table(p) {
                return Some(r);
            }
            if asked.is_stale() {
                return None;
            }
            if inner.running.as_ref() != Some(&key) {
                // Waited for: ahead of the hovers' prefetches.
                self.enqueue(&mut inner, &key, asked, true);
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

    fn enqueue(&'static self, inner: &mut Inner, p: &Key, asked: &Staleness, front: bool) {
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
            inner.worker = self.spawn(false);
        }
        self.work.notify_one();
    }

    /// Solves `positions` on the background worker (one thread, lowest
    /// CPU priority), in order, skipping those already solved, until done
    /// or until `asked` becomes stale. Waits on the calling (blocking)
    /// thread; returns how many of them are solved when it stops.
    pub fn prefetch(&'static self, positions: &[Position], asked: &Staleness) -> usize {
        let mut inner = self.lock();
        let positions: Vec<Key> = positions.iter().cloned().map(Key::Table).collect();
        for p in &positions {
            if inner.cache.contains_key(p) {
                continue;
            }
            inner.background.push_back(Job {
                position: p.clone(),
                asked: vec![asked.clone()],
            });
        }
        if !inner.background_worker && !inner.background.is_empty() {
            inner.background_worker = self.spawn(true);
            if !inner.background_worker {
                inner.background.clear();
            }
        }
        self.background_work.notify_one();
        loop {
            let solved = positions
                .iter()
                .filter(|p| inner.cache.contains_key(p))
                .count();
            let waiting = inner.background.iter().any(|j| {
                j.asked
                    .iter()
                    .any(|a| Arc::ptr_eq(&a.latest, &asked.latest) && a.version == asked.version)
            }) || inner
                .background_running
                .as_ref()
                .is_some_and(|r| positions.contains(r));
            if solved == positions.len() || asked.is_stale() || !waiting {
                return solved;
            }
            inner = self
                .done
                .wait_timeout(inner, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn store(&self, inner: &mut Inner, position: Key, solved: Answer) {
        if inner.cache.len() >= CACHE_LIMIT {
            inner.cache.clear();
        }
        inner.cache.entry(position).or_insert(solved);
        self.done.notify_all();
    }

    /// Starts a worker ([`DdService::run`]); `false` if the thread could
    /// not be started.
    fn spawn(&'static self, background: bool) -> bool {
        let name = if background {
            "pbn-dd-background"
        } else {
            "pbn-dd"
        };
        std::thread::Builder::new()
            .name(name.into())
            // The background worker searches on its own stack; a deeper
            // search than the stack holds would abort the process.
            .stack_size(pbn_core::dd::SOLVER_STACK_SIZE)
            .spawn(move || self.run(background))
            .is_ok()
    }

    /// The worker's loop: the hovers' and waiting callers' queue, or with
    /// `background` the prefetches' (one thread, low priority).
    fn run(&'static self, background: bool) {
        if background {
            lower_this_threads_priority();
        }
        loop {
            let position = {
                let mut inner = self.lock();
                loop {
                    let job = if background {
                        inner.background.pop_front()
                    } else {
                        inner.queue.pop_front()
                    };
                    match job {
                        // Every document that asked has changed since.
                        Some(job) if job.asked.iter().all(Staleness::is_stale) => {
                            self.done.notify_all();
                        }
                        Some(job) if inner.cache.contains_key(&job.position) => {}
                        Some(job) => {
                            // Under the same lock: a waiting `prefetch`
                            // always sees the job queued or running.
                            *inner.running_slot(background) = Some(job.position.clone());
                            break job.position;
                        }
                        None => {
                            let signal = if background {
                                &self.background_work
                            } else {
                                &self.work
                            };
                            inner = signal.wait(inner).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                }
            };
            // `solve` catches the solver's panics; a panic here would be a
            // bug of ours, and must not leave `running` set.
            let solved = std::panic::catch_unwind(|| position.solve(background))
                .unwrap_or_else(|_| position.failed());
            let played = matches!(position, Key::Play(_));
            let mut inner = self.lock();
            *inner.running_slot(background) = None;
            self.store(&mut inner, position, solved);
            if played && self.tell_played(&mut inner) {
                drop(inner);
                let hook = self
                    .play_solved
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                if let Some(hook) = hook {
                    // A panic of the hook must not end the worker.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hook()));
                }
            }
        }
    }

    /// Whether a play analysis just done calls the hook of
    /// [`DdService::on_play_solved`] (and notes it as called).
    fn tell_played(&self, inner: &mut Inner) -> bool {
        let more = inner
            .queue
            .iter()
            .any(|j| matches!(j.position, Key::Play(_)) && j.asked.iter().any(|a| !a.is_stale()));
        let due = !more
            || inner
                .play_told
                .is_none_or(|t| t.elapsed() >= PLAY_SOLVED_EVERY);
        if due {
            inner.play_told = Some(Instant::now());
        }
        due
    }
}

/// Asks the client to refresh its inlay hints (`workspace/inlayHint/refresh`)
/// when play analyses are done ([`DdService::on_play_solved`]), so that the
/// `−1` hints show without an edit. Only for a client that announced
/// `workspace.inlayHint.refreshSupport`; called in `initialize`.
pub fn refresh_hints_when_played(client: tower_lsp_server::Client) {
    let runtime = tokio::runtime::Handle::current();
    service().on_play_solved(move || {
        let client = client.clone();
        // After the runtime has shut down (the server exits), the task is
        // dropped unrun.
        runtime.spawn(async move {
            let _ = client.inlay_hint_refresh().await;
        });
    });
}

/// Gives the calling thread the lowest CPU priority (Linux: threads have
/// their own nice value), so that background solving takes only the
/// time nothing else wants.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority with this thread's id only changes its nice
    // value; failure leaves it as it was.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
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
