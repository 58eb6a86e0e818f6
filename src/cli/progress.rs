//! A small stderr progress bar that polls a [`Progress`] handle from its own thread, so the
//! engine never prints. Drawn only when stderr is a terminal.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::jobs::{Phase, Progress};

pub struct ProgressBar {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ProgressBar {
    /// Starts drawing `progress` on stderr if `enabled`; otherwise does nothing.
    pub fn start(progress: &Progress, enabled: bool) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = enabled.then(|| {
            let (progress, stop) = (progress.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut drawn = false;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let s = progress.snapshot();
                    if s.phase == Phase::Idle || s.elapsed < Duration::from_millis(300) {
                        continue;
                    }
                    let line = match s.fraction() {
                        Some(f) => {
                            let width = 30;
                            let filled = (f * width as f64) as usize;
                            format!(
                                "{:<32} [{}{}] {:>5.1}%  {}/s",
                                s.phase.label(),
                                "#".repeat(filled),
                                "-".repeat(width - filled),
                                f * 100.0,
                                human_rate(s.rate(), s.phase.unit())
                            )
                        }
                        None => format!("{:<32} {} {}", s.phase.label(), s.done, s.phase.unit()),
                    };
                    eprint!("\r\x1b[2K{line}");
                    let _ = std::io::stderr().flush();
                    drawn = true;
                }
                if drawn {
                    eprint!("\r\x1b[2K");
                    let _ = std::io::stderr().flush();
                }
            })
        });
        ProgressBar { stop, thread }
    }
}

impl Drop for ProgressBar {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// "12.3 M docs" style rates.
pub fn human_rate(rate: f64, unit: &str) -> String {
    if unit == "bytes" {
        return format!("{:.1} MB", rate / 1e6);
    }
    let (v, suffix) = if rate >= 1e9 {
        (rate / 1e9, " G")
    } else if rate >= 1e6 {
        (rate / 1e6, " M")
    } else if rate >= 1e3 {
        (rate / 1e3, " k")
    } else {
        (rate, " ")
    };
    format!("{v:.1}{suffix}{unit}")
}
