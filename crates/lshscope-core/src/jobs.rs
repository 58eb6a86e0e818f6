//! Progress reporting and cancellation for long-running engine work.
//!
//! The engine never prints. Instead every long phase takes a [`Progress`] handle: it records the
//! current phase and a done/total counter in atomics, which a CLI progress bar or the TUI polls
//! on its own clock, and it carries a cancellation flag the engine checks between chunks.
//!
//! Background work that a user re-asks for (re-banding on every key press, a truth join, a
//! label snapshot) runs through one latest-wins scheme: [`Latest`] numbers the requests and
//! cancels the one a newer request supersedes; a [`Runner`] thread runs the newest pending
//! [`Ticket`] and drops older pending ones; answers carry the ticket id, and
//! [`Latest::accept`] takes only the newest, so a stale answer is never shown as current.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The phases of the pipeline, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Phase {
    /// Nothing is running; also the phase after [`Progress::finish`].
    Idle = 0,
    /// Reading and parsing the input's documents.
    Reading,
    /// Shingling each document and computing its MinHash signature.
    Signatures,
    /// Grouping documents whose shingle sets are identical, before banding.
    Collapsing,
    /// Hashing bands into buckets and collecting the candidate pairs.
    Banding,
    /// Computing the exact Jaccard of candidate pairs against the threshold.
    Verifying,
    /// Joining pairs into clusters and auditing each cluster for chains.
    Clustering,
    /// Center clustering's greedy pass in keep order (`analysis::center`).
    Centering,
    /// The exact similarity join's probing, which finds every pair above a threshold.
    Join,
    /// Comparing a truth file's pairs with a banding's candidates.
    TruthComparison,
    /// Writing an output file.
    Writing,
    /// The join's inverted index of shingle prefixes, before it probes (`analysis::truth`).
    JoinIndex,
    /// Redraws of the hash family over the truth's documents (`analysis::redraws`).
    Redrawing,
    /// The cost grid's first pass: one band of each shape, to size the work of each.
    Sizing,
}

impl Phase {
    const ALL: [Phase; 14] = [
        Phase::Idle,
        Phase::Reading,
        Phase::Signatures,
        Phase::Collapsing,
        Phase::Banding,
        Phase::Verifying,
        Phase::Clustering,
        Phase::Centering,
        Phase::Join,
        Phase::TruthComparison,
        Phase::Writing,
        Phase::JoinIndex,
        Phase::Redrawing,
        Phase::Sizing,
    ];

    /// The phase as a progress line names it, in lower case (`"verifying candidates"`).
    pub fn label(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Reading => "reading documents",
            Phase::Signatures => "shingling + MinHash signatures",
            Phase::Collapsing => "grouping identical documents",
            Phase::Banding => "banding",
            Phase::Verifying => "verifying candidates",
            Phase::Clustering => "clusters and chaining audit",
            Phase::Centering => "center clustering in keep order",
            Phase::Join => "exact similarity join",
            Phase::TruthComparison => "recall against the truth",
            Phase::Writing => "writing output",
            Phase::JoinIndex => "indexing shingles for the join",
            Phase::Redrawing => "redrawing the hash family",
            Phase::Sizing => "sizing the bands",
        }
    }

    /// What `done` and `total` count in this phase.
    pub fn unit(self) -> &'static str {
        match self {
            Phase::Reading => "bytes",
            Phase::Signatures
            | Phase::Collapsing
            | Phase::Clustering
            | Phase::JoinIndex
            | Phase::TruthComparison
            | Phase::Redrawing => "docs",
            Phase::Join => "postings",
            Phase::Sizing => "shapes",
            Phase::Banding => "bands",
            Phase::Verifying | Phase::Writing => "pairs",
            Phase::Centering => "Jaccards",
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
    /// The job's steps in order, each a phase and the work it is expected to take (any unit,
    /// the same for all): see [`Progress::plan`]. Empty for a job without a plan.
    steps: Mutex<Vec<(Phase, f64)>>,
    /// The step running, an index into `steps`.
    step: AtomicUsize,
    /// The largest overall fraction reported so far, as `f64` bits (non-negative floats
    /// order as their bits do), so the overall fraction never goes back.
    reported: AtomicU64,
}

/// A cheap, cloneable handle shared between a worker and whoever watches it.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    inner: Arc<Inner>,
}

/// A consistent-enough reading of a [`Progress`] handle, for drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProgressSnapshot {
    /// The phase running when the snapshot was taken.
    pub phase: Phase,
    /// Units of the phase done so far (documents, bands, pairs: whatever the phase counts).
    pub done: u64,
    /// 0 when the total is unknown (for example reading from stdin).
    pub total: u64,
    /// Time since the phase began.
    pub elapsed: Duration,
    /// For a planned job ([`Progress::plan`]): the step running, counted from 1, and how
    /// many there are.
    pub step: Option<(usize, usize)>,
    /// For a planned job: the fraction of the whole job's expected work done, in [0, 1],
    /// never less than an earlier snapshot's.
    pub overall: Option<f64>,
}

impl ProgressSnapshot {
    /// The fraction to show: the whole job's for a planned job, else the phase's.
    pub fn percent_done(&self) -> Option<f64> {
        self.overall.or_else(|| self.fraction())
    }

    /// What is running: "phase 2/3: exact similarity join" for a planned job, else the
    /// phase's label.
    pub fn step_label(&self) -> String {
        match self.step {
            Some((i, n)) if n > 1 => format!("phase {i}/{n}: {}", self.phase.label()),
            _ => self.phase.label().to_string(),
        }
    }

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
    /// A fresh handle: idle, nothing done, not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares the job's steps in order, each a phase and its expected work in one unit
    /// for all (seconds measured on a typical corpus, or a count of operations), so that one
    /// fraction covers the whole job: the work of the steps done plus the running step's
    /// share of its own. [`Progress::begin`] moves to the step of its phase;
    /// [`Progress::reweigh`] corrects a step's work once it is measured or estimated.
    pub fn plan(&self, steps: &[(Phase, f64)]) {
        *self.inner.steps.lock().unwrap_or_else(|e| e.into_inner()) = steps.to_vec();
        self.inner.step.store(0, Ordering::Relaxed);
        self.inner.reported.store(0, Ordering::Relaxed);
    }

    /// Sets the expected work of `phase`'s step (the first at or after the running one).
    /// The overall fraction never goes back: a step found longer than planned holds it
    /// still rather than pulling it down.
    pub fn reweigh(&self, phase: Phase, work: f64) {
        let mut steps = self.inner.steps.lock().unwrap_or_else(|e| e.into_inner());
        let from = self.inner.step.load(Ordering::Relaxed);
        if let Some(step) = steps.iter_mut().skip(from).find(|(p, _)| *p == phase) {
            step.1 = work.max(0.0);
        }
    }

    /// Starts a phase with a known total (0 if unknown) and resets the counter. In a
    /// planned job, the steps before the phase's count as done.
    pub fn begin(&self, phase: Phase, total: u64) {
        {
            let steps = self.inner.steps.lock().unwrap_or_else(|e| e.into_inner());
            let from = self.inner.step.load(Ordering::Relaxed);
            if let Some(at) = steps.iter().skip(from).position(|(p, _)| *p == phase) {
                self.inner.step.store(from + at, Ordering::Relaxed);
            }
        }
        self.inner.done.store(0, Ordering::Relaxed);
        self.inner.total.store(total, Ordering::Relaxed);
        self.inner.phase.store(phase as u8, Ordering::Relaxed);
        *self.inner.started.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// Sets the running phase's total once it is known (0: unknown).
    pub fn set_total(&self, total: u64) {
        self.inner.total.store(total, Ordering::Relaxed);
    }

    /// Adds `n` units to the running phase's done count; cheap enough to call from parallel workers.
    pub fn advance(&self, n: u64) {
        self.inner.done.fetch_add(n, Ordering::Relaxed);
    }

    /// Sets the running phase's done count to `n`.
    pub fn set_done(&self, n: u64) {
        self.inner.done.store(n, Ordering::Relaxed);
    }

    /// Marks the end of all work.
    pub fn finish(&self) {
        self.inner.phase.store(Phase::Idle as u8, Ordering::Relaxed);
        // A planned job's last snapshot reads 100 %.
        self.inner
            .reported
            .store(1.0f64.to_bits(), Ordering::Relaxed);
    }

    /// Asks the work to stop; it returns [`crate::Error::Cancelled`] at its next
    /// [`Progress::check`]. Every clone of the handle sees it.
    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::Relaxed);
    }

    /// True once [`Progress::cancel`] was called on this handle or a clone of it.
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

    /// The current phase, counters and times, read without blocking the worker.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let phase =
            Phase::ALL[self.inner.phase.load(Ordering::Relaxed) as usize % Phase::ALL.len()];
        let started = *self.inner.started.lock().unwrap_or_else(|e| e.into_inner());
        let done = self.inner.done.load(Ordering::Relaxed);
        let total = self.inner.total.load(Ordering::Relaxed);
        let (step, overall) = self.overall(phase, done, total);
        ProgressSnapshot {
            phase,
            done,
            total,
            elapsed: started.map(|s| s.elapsed()).unwrap_or_default(),
            step,
            overall,
        }
    }

    /// The running step (from 1) and the whole job's fraction done, for a planned job.
    fn overall(
        &self,
        phase: Phase,
        done: u64,
        total: u64,
    ) -> (Option<(usize, usize)>, Option<f64>) {
        let steps = self.inner.steps.lock().unwrap_or_else(|e| e.into_inner());
        if steps.is_empty() {
            return (None, None);
        }
        let at = self.inner.step.load(Ordering::Relaxed).min(steps.len() - 1);
        let all: f64 = steps.iter().map(|(_, w)| w).sum();
        let fraction = if all > 0.0 {
            let before: f64 = steps[..at].iter().map(|(_, w)| w).sum();
            let within = if total > 0 && steps[at].0 == phase {
                (done as f64 / total as f64).min(1.0)
            } else {
                0.0
            };
            ((before + steps[at].1 * within) / all).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let previous = self
            .inner
            .reported
            .fetch_max(fraction.to_bits(), Ordering::Relaxed);
        let shown = fraction.max(f64::from_bits(previous));
        (Some((at + 1, steps.len())), Some(shown))
    }
}

/// One request for background work: its number, what is asked, and the handle through which
/// the work reports progress and learns it was cancelled.
#[derive(Debug, Clone)]
pub struct Ticket<R> {
    /// The request's number: increasing in submission order within one [`Latest`].
    pub id: u64,
    /// What is asked.
    pub request: R,
    /// The handle the work reports through and checks for cancellation.
    pub progress: Progress,
    /// When the request was made, for timing the answer.
    pub submitted: Instant,
}

impl<R> Ticket<R> {
    /// A ticket outside any [`Latest`] (an independent request such as one export).
    pub fn new(id: u64, request: R) -> Self {
        Ticket {
            id,
            request,
            progress: Progress::new(),
            submitted: Instant::now(),
        }
    }
}

/// The asking side of a latest-wins job: numbers requests, cancels the one a newer request
/// supersedes, and tells the newest answer from stale ones. Plain state without threads, so
/// the explorer's App owns it and stays free of I/O.
#[derive(Debug)]
pub struct Latest<R> {
    next_id: u64,
    running: Option<Ticket<R>>,
}

impl<R> Default for Latest<R> {
    fn default() -> Self {
        Latest {
            next_id: 0,
            running: None,
        }
    }
}

impl<R: Clone> Latest<R> {
    /// A ticket for `request`, cancelling the one it supersedes. Hand the returned copy to a
    /// [`Runner`] (or [`run_inline`]).
    pub fn submit(&mut self, request: R) -> Ticket<R> {
        self.cancel();
        self.next_id += 1;
        let ticket = Ticket {
            id: self.next_id,
            request,
            progress: Progress::new(),
            submitted: Instant::now(),
        };
        self.running = Some(ticket.clone());
        ticket
    }
}

impl<R> Latest<R> {
    /// The newest request while it has not been answered.
    pub fn running(&self) -> Option<&Ticket<R>> {
        self.running.as_ref()
    }

    /// True while the newest request has not been answered (or cancelled).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// True when `id` answers the newest request, which is still waiting.
    pub fn is_current(&self, id: u64) -> bool {
        self.running.as_ref().is_some_and(|t| t.id == id)
    }

    /// Takes the running ticket when `id` answers it; `None` for a stale answer (drop it).
    pub fn accept(&mut self, id: u64) -> Option<Ticket<R>> {
        if self.is_current(id) {
            self.running.take()
        } else {
            None
        }
    }

    /// Cancels the running request (its work stops at its next check; its answer, if any,
    /// is stale).
    pub fn cancel(&mut self) {
        if let Some(t) = self.running.take() {
            t.progress.cancel();
        }
    }

    /// Asks the running request to stop without forgetting it (quitting).
    pub fn cancel_running(&self) {
        if let Some(t) = &self.running {
            t.progress.cancel();
        }
    }
}

/// What a [`Runner`] does with a ticket submitted while others wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// The new ticket replaces any waiting one: only the newest request matters.
    LatestWins,
    /// Tickets wait their turn (each is its own request, e.g. an export to a file).
    Queue,
}

#[derive(Debug)]
struct Slot<R> {
    waiting: VecDeque<Ticket<R>>,
    closed: bool,
}

/// A worker thread that runs submitted tickets one at a time with `work`. A ticket cancelled
/// before it starts is skipped.
#[derive(Debug)]
pub struct Runner<R> {
    shared: Arc<(Mutex<Slot<R>>, Condvar)>,
    pending: Pending,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl<R: Send + 'static> Runner<R> {
    /// Starts the thread `name`; `work` runs each ticket (and delivers its answer itself).
    pub fn spawn(
        name: &str,
        pending: Pending,
        mut work: impl FnMut(Ticket<R>) + Send + 'static,
    ) -> std::io::Result<Self> {
        let shared = Arc::new((
            Mutex::new(Slot {
                waiting: VecDeque::new(),
                closed: false,
            }),
            Condvar::new(),
        ));
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                let (slot, wake) = &*theirs;
                loop {
                    let ticket = {
                        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
                        while slot.waiting.is_empty() && !slot.closed {
                            slot = wake.wait(slot).unwrap_or_else(|e| e.into_inner());
                        }
                        match slot.waiting.pop_front() {
                            Some(ticket) => ticket,
                            None => return,
                        }
                    };
                    run_inline(ticket, &mut work);
                }
            })?;
        Ok(Runner {
            shared,
            pending,
            thread: Some(thread),
        })
    }

    /// Hands `ticket` to the thread (replacing a waiting one under [`Pending::LatestWins`]).
    pub fn submit(&self, ticket: Ticket<R>) {
        let (slot, wake) = &*self.shared;
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if self.pending == Pending::LatestWins {
            slot.waiting.clear();
        }
        slot.waiting.push_back(ticket);
        wake.notify_one();
    }

    /// Runs what is still waiting, then stops the thread and waits for it.
    pub fn finish(mut self) {
        self.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    fn close(&self) {
        let (slot, wake) = &*self.shared;
        slot.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        wake.notify_one();
    }
}

impl<R> Drop for Runner<R> {
    /// Without [`Runner::finish`], the thread ends after what is waiting, unwaited for.
    fn drop(&mut self) {
        let (slot, wake) = &*self.shared;
        slot.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        wake.notify_one();
    }
}

/// Runs `ticket` with `work` on the calling thread exactly as a [`Runner`] thread does
/// (skipped when cancelled before it starts): tests and benchmarks run the same job code.
pub fn run_inline<R, T>(ticket: Ticket<R>, work: impl FnOnce(Ticket<R>) -> T) -> Option<T> {
    if ticket.progress.is_cancelled() {
        return None;
    }
    Some(work(ticket))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planned job's fraction covers all its steps by their work, moves forward only
    /// (a step re-weighed larger holds it rather than pulling it back), and says which
    /// step runs.
    #[test]
    fn a_plan_weighs_its_steps_and_never_goes_back() {
        let p = Progress::new();
        p.plan(&[
            (Phase::JoinIndex, 1.0),
            (Phase::Join, 3.0),
            (Phase::Redrawing, 1.0),
        ]);
        assert_eq!(p.snapshot().overall, Some(0.0));
        p.begin(Phase::JoinIndex, 0);
        assert_eq!(
            p.snapshot().step_label(),
            "phase 1/3: indexing shingles for the join"
        );
        p.begin(Phase::Join, 100);
        p.advance(50);
        let s = p.snapshot();
        assert_eq!(s.step, Some((2, 3)));
        assert_eq!(s.step_label(), "phase 2/3: exact similarity join");
        assert!((s.overall.unwrap() - 0.5).abs() < 1e-9, "{s:?}"); // (1 + 3·0.5) / 5
        // The join turns out twice as long: the fraction holds instead of dropping.
        p.reweigh(Phase::Join, 6.0);
        assert!((p.snapshot().overall.unwrap() - 0.5).abs() < 1e-9);
        p.advance(50);
        let s = p.snapshot();
        assert!((s.overall.unwrap() - 7.0 / 8.0).abs() < 1e-9, "{s:?}");
        // The next phase starts where the last one ended, not at 0 %.
        p.begin(Phase::Redrawing, 10);
        let s = p.snapshot();
        assert_eq!(s.step_label(), "phase 3/3: redrawing the hash family");
        assert!(
            (s.percent_done().unwrap() - 7.0 / 8.0).abs() < 1e-9,
            "{s:?}"
        );
        p.advance(10);
        assert!((p.snapshot().overall.unwrap() - 1.0).abs() < 1e-9);
        p.finish();
        assert_eq!(p.snapshot().percent_done(), Some(1.0));
        // Without a plan: the phase's own fraction and label, as before.
        let q = Progress::new();
        q.begin(Phase::Verifying, 4);
        q.advance(1);
        assert_eq!(q.snapshot().percent_done(), Some(0.25));
        assert_eq!(q.snapshot().step_label(), "verifying candidates");
    }

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

    #[test]
    fn latest_wins_drops_stale_answers_and_cancels() {
        let mut latest = Latest::default();
        let first = latest.submit("a");
        let second = latest.submit("b");
        assert!(
            first.progress.is_cancelled(),
            "a newer request cancels the older"
        );
        assert!(!second.progress.is_cancelled());
        assert!(
            latest.accept(first.id).is_none(),
            "a stale answer is dropped"
        );
        assert!(latest.is_running());
        assert_eq!(latest.accept(second.id).map(|t| t.request), Some("b"));
        assert!(!latest.is_running());
        assert!(
            run_inline(first, |t| t.request).is_none(),
            "cancelled work does not run"
        );
    }

    #[test]
    fn runner_runs_the_newest_waiting_ticket() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (started_tx, started_rx) = std::sync::mpsc::channel::<()>();
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let runner = Runner::spawn("test-runner", Pending::LatestWins, move |t: Ticket<u32>| {
            if t.request == 0 {
                // Hold the thread until the other tickets wait.
                started_tx.send(()).unwrap();
                let _ = gate_rx.recv();
            }
            tx.send(t.request).unwrap();
        })
        .unwrap();
        runner.submit(Ticket::new(0, 0));
        started_rx.recv().unwrap();
        // Ticket 0 runs on; of 1, 2 and 3 waiting behind it, only 3 remains.
        let mut latest = Latest::default();
        for r in 1..=3 {
            runner.submit(latest.submit(r));
        }
        gate_tx.send(()).unwrap();
        runner.finish();
        assert_eq!(rx.iter().collect::<Vec<_>>(), vec![0, 3]);
    }

    #[test]
    fn queue_runs_every_ticket_in_order() {
        let (tx, rx) = std::sync::mpsc::channel();
        let runner = Runner::spawn("test-queue", Pending::Queue, move |t: Ticket<u32>| {
            tx.send(t.request).unwrap();
        })
        .unwrap();
        for r in 1..=3 {
            runner.submit(Ticket::new(r.into(), r));
        }
        runner.finish();
        assert_eq!(rx.iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    }
}
