//! A progress bar on stderr for long runs.
//!
//! It appears only when the work has gone on for a second and stderr is a terminal,
//! whatever the output and wherever it goes (a batch writing CSV into a file shows its
//! progress too); never when stderr goes to a log or a pipe. It is cleared before the
//! results print.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long work runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Whether a bar may be drawn at all.
pub fn wanted(stderr_terminal: bool) -> bool {
    stderr_terminal
}

/// A bar (counting `len` steps) or a spinner, hidden until [`DELAY`] has passed.
pub struct Progress {
    bar: Option<ProgressBar>,
    stop: Option<mpsc::Sender<()>>,
    timer: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts timing.
    pub fn start(len: Option<u64>, message: String) -> Progress {
        if !wanted(std::io::stderr().is_terminal()) {
            return Progress {
                bar: None,
                stop: None,
                timer: None,
            };
        }
        let (bar, template) = match len {
            Some(n) => (
                ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden()),
                "{spinner} {msg} {wide_bar} {pos}/{len} [{elapsed}, about {eta} left]",
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
                "{spinner} {msg} [{elapsed}]",
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(message);
        let (stop, wait) = mpsc::channel::<()>();
        let shown = bar.clone();
        let timer = std::thread::spawn(move || {
            if wait.recv_timeout(DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        Progress {
            bar: Some(bar),
            stop: Some(stop),
            timer: Some(timer),
        }
    }

    /// One step done.
    pub fn inc(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.timer.take() {
            let _ = t.join();
        }
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_when_stderr_is_a_terminal() {
        assert!(wanted(true));
        assert!(!wanted(false)); // stderr to a log or a pipe
    }

    #[test]
    fn a_quick_run_never_draws() {
        // Not a terminal here: a no-op whatever happens.
        let p = Progress::start(Some(3), "x".into());
        p.inc();
        drop(p);
    }
}
