//! The stderr progress bar: a thread polls a [`Progress`] handle (so the engine never prints)
//! and draws one indicatif bar per phase, with rate and ETA, fitted to the terminal width.
//! Drawn only when asked (stderr a terminal, no `--quiet`); otherwise nothing is started.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressDrawTarget, ProgressStyle};

use lshscope_core::jobs::{Phase, Progress, ProgressSnapshot};
// Progress lines show done items compactly (`1.5 k`) and rates as `12.3 Mdocs` + `/s`.
use lshscope_core::util::numfmt::compact as human_count;
pub use lshscope_core::util::numfmt::prefixed as human_rate;

/// How often the bar reads the handle.
const POLL: Duration = Duration::from_millis(100);
/// Phases shorter than this never show a bar, so quick commands stay quiet.
const SHOW_AFTER: Duration = Duration::from_millis(300);

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
            std::thread::spawn(move || draw_until(&progress, &stop))
        });
        ProgressBar { stop, thread }
    }
}

fn draw_until(progress: &Progress, stop: &AtomicBool) {
    let mut bar: Option<(Phase, bool, indicatif::ProgressBar)> = None;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
        let s = progress.snapshot();
        let known = s.total > 0;
        if bar
            .as_ref()
            .is_some_and(|(phase, k, _)| *phase != s.phase || *k != known)
            && let Some((_, _, old)) = bar.take()
        {
            old.finish_and_clear();
        }
        if s.phase == Phase::Idle || s.elapsed < SHOW_AFTER {
            continue;
        }
        let (_, _, b) = bar.get_or_insert_with(|| (s.phase, known, new_bar(&s)));
        update(b, &s);
    }
    if let Some((_, _, b)) = bar {
        b.finish_and_clear();
    }
}

fn new_bar(s: &ProgressSnapshot) -> indicatif::ProgressBar {
    // The label column is as wide as the longest phase label, so bars line up from phase to
    // phase; `wide_bar` takes what the terminal has left, so the line never wraps.
    let template = if s.total > 0 {
        "{prefix:30} {wide_bar} {percent:>3}% {msg}"
    } else {
        "{prefix:30} {spinner} {msg}"
    };
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("█▉▊▋▌▍▎▏ ");
    let b = indicatif::ProgressBar::with_draw_target(
        (s.total > 0).then_some(s.total),
        ProgressDrawTarget::stderr_with_hz(10),
    );
    b.set_style(style);
    b.set_prefix(s.phase.label());
    b
}

fn update(b: &indicatif::ProgressBar, s: &ProgressSnapshot) {
    if s.total > 0 {
        b.set_length(s.total);
    }
    b.set_position(s.done.min(s.total.max(s.done)));
    let rate = human_rate(s.rate(), s.phase.unit());
    if s.total > 0 {
        // The ETA from this phase's own average rate: the bar is updated in jumps every
        // poll, which indicatif's per-step estimator reads poorly.
        let eta = match s.rate() {
            r if r > 0.0 => format_eta(s.total.saturating_sub(s.done) as f64 / r),
            _ => "?".to_string(),
        };
        b.set_message(format!("{rate}/s ETA {eta}"));
    } else {
        b.set_message(format!(
            "{} {}, {rate}/s",
            human_count(s.done),
            s.phase.unit()
        ));
        b.tick();
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

/// "45s", "3m05s", "2h07m": short enough for a progress line.
fn format_eta(seconds: f64) -> String {
    let s = seconds.ceil() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_counts_are_compact() {
        assert_eq!(human_rate(12_345_678.0, "pairs"), "12.3 Mpairs");
        assert_eq!(human_rate(2.5e6, "bytes"), "2.5 MB");
        assert_eq!(human_count(1500), "1.5 k");
        assert_eq!(human_count(512), "512");
        assert_eq!(format_eta(0.2), "1s");
        assert_eq!(format_eta(185.0), "3m05s");
        assert_eq!(format_eta(7620.0), "2h07m");
    }
}
