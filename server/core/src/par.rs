//! Small data-parallel helpers on scoped std threads (no thread pool: the
//! work items here are few and large: pieces of a file, runs of games).
//!
//! In fuzz builds (`--cfg fuzzing`, set by cargo-fuzz) there is one worker
//! and values are dropped where they are let go: an execution's coverage
//! must depend on its input alone, and a background thread still freeing
//! the previous input's trees while libFuzzer counts the next one's edges
//! would make it depend on timing (ROBUSTNESS.md, "Stable coverage"). On wasm
//! (`target_family = "wasm"`: no threads, spawning panics) likewise. The
//! results are the same either way: [`map`] keeps the order of its items.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of worker threads to use: `RAYON_NUM_THREADS` when set to a
/// positive number (the solver's own pool reads it too), else one per
/// core; one in fuzz builds and on wasm. Computed once per process:
/// `available_parallelism` reads the cgroup CPU files, which the language
/// server must not do on every keystroke.
pub fn threads() -> usize {
    if cfg!(any(fuzzing, target_family = "wasm")) {
        return 1;
    }
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .or_else(|| std::thread::available_parallelism().map(|n| n.get()).ok())
            .unwrap_or(1)
    })
}

/// `items.iter().map(f).collect()`, on every core, each worker taking the
/// next item when it is done with one (dynamic scheduling: items may differ
/// in cost). The result keeps the order of `items`. A panic in `f` is
/// propagated to the caller.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_on_stacks(items, None, f)
}

/// [`map`] whose workers have stacks of `stack` bytes when given (the
/// double-dummy solver needs more than a thread's default): then even one
/// worker is a thread of its own, never the caller's. Not on wasm, which
/// has no threads.
pub fn map_on_stacks<T: Sync, R: Send>(
    items: &[T],
    stack: Option<usize>,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = threads().min(items.len());
    if items.is_empty() || (workers < 2 && stack.is_none()) {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let builder = match stack {
                    Some(bytes) => std::thread::Builder::new().stack_size(bytes),
                    None => std::thread::Builder::new(),
                };
                builder
                    .spawn_scoped(s, || loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= items.len() {
                            break;
                        }
                        let r = f(&items[i]);
                        slots.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    })
                    .expect("spawn a worker thread")
            })
            .collect();
        for h in handles {
            if let Err(payload) = h.join() {
                std::panic::resume_unwind(payload);
            }
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was mapped"))
        .collect()
}

/// Drops `value` on a background thread. Freeing a large tree-sitter tree
/// or model takes a tenth of the time it took to build; the CLI hands such
/// values here so that the freeing overlaps with printing (and is simply cut
/// short when the process exits). In fuzz builds and on wasm the value is
/// dropped here.
pub fn drop_later<T: Send + 'static>(value: T) {
    if cfg!(any(fuzzing, target_family = "wasm")) {
        drop(value);
        return;
    }
    use std::sync::mpsc::{channel, Sender};
    use std::sync::OnceLock;
    type Job = Box<dyn Send>;
    static DROPPER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    let tx = DROPPER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("pbn-drop".into())
            .spawn(move || {
                for job in rx {
                    drop(job);
                }
            });
        if spawned.is_err() {
            // No thread: the receiver is gone and `send` below fails, so the
            // value is dropped here, synchronously.
        }
        Mutex::new(tx)
    });
    let job: Job = Box::new(value);
    if let Err(e) = tx.lock().unwrap_or_else(|e| e.into_inner()).send(job) {
        drop(e.0);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn map_keeps_order() {
        let v: Vec<usize> = (0..1000).collect();
        assert_eq!(
            super::map(&v, |x| x * 2),
            v.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
        assert_eq!(super::map(&[] as &[usize], |x| *x), Vec::<usize>::new());
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn map_propagates_panics() {
        let v: Vec<usize> = (0..10).collect();
        super::map(&v, |&x| if x == 7 { panic!("boom") } else { x });
    }
}
