//! A progress counter on standard error for long runs (`pbn dd`, `pbn check
//! --dd`): `solving double dummy: 120/396 games`, redrawn in place a few
//! times a second while the work goes on, and cleared at the end. Only on
//! a terminal: piped or redirected, standard error gets nothing from here.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The counts the work adds to, and the thread that draws them.
pub struct Progress {
    counts: Arc<Counts>,
    drawer: Option<std::thread::JoinHandle<()>>,
}

#[derive(Default)]
pub struct Counts {
    /// Games done.
    pub done: AtomicUsize,
    /// Games known so far (files add theirs as they are read).
    pub total: AtomicUsize,
    stop: AtomicBool,
    /// Held while the line is drawn or cleared for other output.
    line: std::sync::Mutex<()>,
}

impl Progress {
    /// Starts drawing `label: done/total games` when standard error is a
    /// terminal; otherwise only counts.
    pub fn start(label: &'static str) -> Progress {
        let counts = Arc::new(Counts::default());
        let drawer = std::io::stderr().is_terminal().then(|| {
            let c = Arc::clone(&counts);
            std::thread::spawn(move || {
                // Nothing for runs that end within the first half second.
                let mut waited = Duration::ZERO;
                let tick = Duration::from_millis(100);
                let mut drawn = false;
                while !c.stop.load(Ordering::Relaxed) {
                    std::thread::sleep(tick);
                    waited += tick;
                    if waited.as_millis().is_multiple_of(300)
                        && waited >= Duration::from_millis(500)
                    {
                        let line = format!(
                            "\r{label}: {}/{} games",
                            c.done.load(Ordering::Relaxed),
                            c.total.load(Ordering::Relaxed)
                        );
                        let _held = c.line.lock();
                        let _ = std::io::stderr().lock().write_all(line.as_bytes());
                        drawn = true;
                    }
                }
                if drawn {
                    // Clear the line for what is printed next.
                    let _ = std::io::stderr().lock().write_all(b"\r\x1b[2K");
                }
            })
        });
        Progress { counts, drawer }
    }

    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Runs `print` (which writes whole lines) on a cleared line, so that
    /// what it writes does not mix with the counter.
    pub fn say(&self, print: impl FnOnce()) {
        let _held = self.counts.line.lock();
        if self.drawer.is_some() {
            let _ = std::io::stderr().lock().write_all(b"\r\x1b[2K");
        }
        print();
    }

    /// Stops drawing and clears the line.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.counts.stop.store(true, Ordering::Relaxed);
        if let Some(d) = self.drawer.take() {
            let _ = d.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}
