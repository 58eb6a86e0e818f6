//! Progress reporting and cancellation for long-running engine work.
//!
//! The engine never prints. Instead every long phase takes a [`Progress`] handle: it records the
//! current phase and a done/total counter in atomics, which a CLI progress bar or the TUI polls
//! on its own clock, and it carries a cancellation flag the engine checks between chunks.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The phases of the pipeline, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Phase {
    Idle = 0,
    Reading,
    Signatures,
    Collapsing,
    Banding,
    Verifying,
    Clustering,
    Join,
    Writing,
}

impl Phase {
    const ALL: [Phase; 9] = [
        Phase::Idle,
        Phase::Reading,
        Phase::Signatures,
        Phase::Collapsing,
        Phase::Banding,
        Phase::Verifying,
        Phase::Clustering,
        Phase::Join,
        Phase::Writing,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Reading => "reading documents",
            Phase::Signatures => "shingling + MinHash signatures",
            Phase::Collapsing => "grouping identical documents",
            Phase::Banding => "banding",
            Phase::Verifying => "verifying candidates",
            Phase::Clustering => "clusters and chaining audit",
            Phase::Join => "exact similarity join",
            Phase::Writing => "writing output",
        }
    }

    /// What `done` and `total` count in this phase.
    pub fn unit(self) -> &'static str {
        match self {
            Phase::Reading => "bytes",
            Phase::Signatures | Phase::Collapsing | Phase::Clustering | Phase::Join => "docs",
            Phase::Banding => "bands",
            Phase::Verifying | Phase::Writing => "pairs",
            Phase::Idle => "",
        }
    }
}

#[derive(Debug, Default)]
struct Inner {
    phase: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
    cancelled: AtomicBool,
    started: Mutex<Option<Instant>>,
}

/// A cheap, cloneable handle shared between a worker and whoever watches it.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    inner: Arc<Inner>,
}

/// A consistent-enough reading of a [`Progress`] handle, for drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProgressSnapshot {
    pub phase: Phase,
    pub done: u64,
    /// 0 when the total is unknown (for example reading from stdin).
    pub total: u64,
    pub elapsed: Duration,
}

impl ProgressSnapshot {
    /// Fraction done in [0, 1], or `None` when the total is unknown.
    pub fn fraction(&self) -> Option<f64> {
        (self.total > 0).then(|| (self.done as f64 / self.total as f64).min(1.0))
    }

    /// Units per second so far.
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.done as f64 / secs
        } else {
            0.0
        }
    }
}

impl Progress {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a phase with a known total (0 if unknown) and resets the counter.
    pub fn begin(&self, phase: Phase, total: u64) {
        self.inner.done.store(0, Ordering::Relaxed);
        self.inner.total.store(total, Ordering::Relaxed);
        self.inner.phase.store(phase as u8, Ordering::Relaxed);
        *self.inner.started.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    pub fn set_total(&self, total: u64) {
        self.inner.total.store(total, Ordering::Relaxed);
    }

    pub fn advance(&self, n: u64) {
        self.inner.done.fetch_add(n, Ordering::Relaxed);
    }

    pub fn set_done(&self, n: u64) {
        self.inner.done.store(n, Ordering::Relaxed);
    }

    /// Marks the end of all work.
    pub fn finish(&self) {
        self.inner.phase.store(Phase::Idle as u8, Ordering::Relaxed);
    }

    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once [`Progress::cancel`] was called: use with `?` between chunks.
    pub fn check(&self) -> crate::Result<()> {
        if self.is_cancelled() {
            Err(crate::Error::Cancelled)
        } else {
            Ok(())
        }
    }

    pub fn snapshot(&self) -> ProgressSnapshot {
        let phase =
            Phase::ALL[self.inner.phase.load(Ordering::Relaxed) as usize % Phase::ALL.len()];
        let started = *self.inner.started.lock().unwrap_or_else(|e| e.into_inner());
        ProgressSnapshot {
            phase,
            done: self.inner.done.load(Ordering::Relaxed),
            total: self.inner.total.load(Ordering::Relaxed),
            elapsed: started.map(|s| s.elapsed()).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_cancels() {
        let p = Progress::new();
        p.begin(Phase::Signatures, 10);
        p.advance(3);
        p.advance(2);
        let s = p.snapshot();
        assert_eq!(s.phase, Phase::Signatures);
        assert_eq!((s.done, s.total), (5, 10));
        assert_eq!(s.fraction(), Some(0.5));
        assert!(p.check().is_ok());
        p.clone().cancel();
        assert!(matches!(p.check(), Err(crate::Error::Cancelled)));
    }
}
