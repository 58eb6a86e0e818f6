//! Ground truth in the explorer: the true similar pairs of the corpus (read from a file, or
//! computed here with the exact similarity join on a small corpus), measured against the
//! candidates of the current banding: recall and precision at t, the empirical candidate rate
//! per similarity bin with its Wilson interval (drawn over the S-curve), and the list of
//! missed pairs (true pairs ≥ t that are not candidates), which open in the pair viewer.
//!
//! The truth does not depend on b and r. After each re-banding, one merge pass over the truth
//! and the (sorted) candidates marks which true pairs are candidates; a change of t only
//! recounts those marks. Neither slows re-banding down.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::Error;
use crate::analysis::recall::{RecallReport, measure_recall_with, read_truth, truth_floor};
use crate::analysis::truth::{TruthPair, plan_join};
use crate::jobs::{Phase, Progress};
use crate::minhash::VerifiedPair;
use crate::minhash::{Banding, Index};

use super::app::{App, Effect, ExportJob, Loaded, PlotSpec, Screen, pair_view, sort_key};
use super::keys::Command;
use super::ui::layout;

/// The explorer runs the exact join itself only when its estimated time is below this; beyond
/// it, `lshscope truth --sample` is the way (the join's work grows with the square of N).
pub const JOIN_BUDGET_SECONDS: f64 = 20.0;

/// Where the truth came from.
#[derive(Debug, Clone, PartialEq)]
pub enum TruthOrigin {
    /// `--truth FILE`.
    File(PathBuf),
    /// The exact join at this threshold, run from the explorer (`T`).
    Computed { threshold: f64 },
}

/// The true similar pairs of the loaded corpus.
#[derive(Debug, Clone)]
pub struct Truth {
    /// Sorted by (a, b), a < b (input positions), as candidates are.
    pub pairs: Arc<Vec<TruthPair>>,
    pub origin: TruthOrigin,
    /// The truth is complete for Jaccard ≥ `floor`: the join's threshold; for a file, its
    /// lowest Jaccard rounded down to 0.01 (a file written at T = 0.5 has no pair below 0.5,
    /// and its lowest pair may be 0.503). Below it, recall counts only the pairs it has.
    pub floor: f64,
    pub seconds: f64,
}

/// What a truth job does.
#[derive(Debug, Clone, PartialEq)]
pub enum TruthTask {
    Read(PathBuf),
    Join { threshold: f64 },
}

/// A truth job for the event loop; answer with [`super::app::Action::TruthDone`].
#[derive(Debug, Clone)]
pub struct TruthJob {
    pub request: u64,
    pub task: TruthTask,
    pub progress: Progress,
    /// The join is refused when its estimated time is longer.
    pub budget_seconds: f64,
}

/// Why a truth job brought no truth.
#[derive(Debug)]
pub enum TruthFailure {
    /// The truth file given on the command line is unusable: the session ends with the error
    /// (every number measured against a wrong truth would be wrong).
    BadFile(Error),
    /// The join would take too long here; the message says what to do instead.
    Refused(String),
    Failed(String),
}

/// The answer of a truth job.
#[derive(Debug)]
pub struct TruthDone {
    pub request: u64,
    pub outcome: Result<Truth, TruthFailure>,
}

/// A truth job in flight.
#[derive(Debug, Clone)]
pub struct RunningTruthJob {
    pub request: u64,
    pub task: TruthTask,
    pub progress: Progress,
}

impl RunningTruthJob {
    /// What the status line says while it runs.
    pub fn describe(&self) -> String {
        match &self.task {
            TruthTask::Read(path) => format!("reading truth {}", path.display()),
            TruthTask::Join { threshold } => format!("exact join at J ≥ {threshold}"),
        }
    }
}

/// The truth measured against the candidates of one banding.
#[derive(Debug, Clone)]
pub struct Measure {
    pub banding: Banding,
    /// `hits[i]`: truth pair i is a candidate of `banding`.
    pub hits: Vec<bool>,
    pub report: RecallReport,
    /// True pairs ≥ t that are not candidates (before any Jaccard filter).
    pub missed: usize,
}

/// Truth, its measurement and the missed-pairs list.
#[derive(Debug)]
pub struct TruthState {
    /// `--truth FILE`: read once the corpus is loaded.
    pub file: Option<PathBuf>,
    pub truth: Option<Truth>,
    /// Mean Jaccard of the truth pairs in each histogram bin: where a bin's measured rate is
    /// drawn over the S-curve (the bin's prediction is the mean of P(sᵢ) over those pairs).
    pub bin_means: Vec<Option<f64>>,
    pub job: Option<RunningTruthJob>,
    next_request: u64,
    pub measure: Option<Measure>,
    /// The pair list shows missed pairs instead of candidates.
    pub show_missed: bool,
    /// Indices into `truth.pairs` of the missed pairs the list shows, filtered and sorted.
    pub visible: Vec<u32>,
    pub selected: usize,
    pub offset: usize,
    /// The open viewer came from the missed list (← / → move in it).
    pub viewing: bool,
    /// Joins estimated to take longer are refused ([`JOIN_BUDGET_SECONDS`]).
    pub join_budget_seconds: f64,
}

impl Default for TruthState {
    fn default() -> Self {
        TruthState {
            file: None,
            truth: None,
            bin_means: Vec::new(),
            job: None,
            next_request: 0,
            measure: None,
            show_missed: false,
            visible: Vec::new(),
            selected: 0,
            offset: 0,
            viewing: false,
            join_budget_seconds: JOIN_BUDGET_SECONDS,
        }
    }
}

/// Runs a truth job; `None` when it was cancelled (the worker then sends nothing).
pub fn run_truth_job(data: &Loaded, job: &TruthJob) -> Option<TruthDone> {
    let start = Instant::now();
    let progress = &job.progress;
    let outcome = match &job.task {
        TruthTask::Read(path) => {
            progress.begin(Phase::Reading, 0);
            read_truth(path, &data.corpus)
                .map(|pairs| {
                    let floor = truth_floor(pairs.iter().map(|p| p.jaccard)).unwrap_or(0.0);
                    Truth {
                        pairs: Arc::new(pairs),
                        origin: TruthOrigin::File(path.clone()),
                        floor,
                        seconds: start.elapsed().as_secs_f64(),
                    }
                })
                .map_err(TruthFailure::BadFile)
        }
        TruthTask::Join { threshold } => match join(data, *threshold, job.budget_seconds, progress)
        {
            Ok(pairs) => Ok(Truth {
                pairs: Arc::new(pairs),
                origin: TruthOrigin::Computed {
                    threshold: *threshold,
                },
                floor: *threshold,
                seconds: start.elapsed().as_secs_f64(),
            }),
            Err(Error::Cancelled) => return None,
            // A refusal travels from `join` as Error::Refused.
            Err(Error::Refused(msg)) => Err(TruthFailure::Refused(msg)),
            Err(e) => Err(TruthFailure::Failed(e.to_string())),
        },
    };
    progress.finish();
    Some(TruthDone {
        request: job.request,
        outcome,
    })
}

/// The exact join at `threshold`, refused ([`crate::analysis::truth::JoinPlan::check_budget`]) when its estimated
/// time is beyond `budget` seconds.
fn join(
    data: &Loaded,
    threshold: f64,
    budget: f64,
    progress: &Progress,
) -> crate::Result<Vec<TruthPair>> {
    let plan = plan_join(&data.index.sets, threshold, progress)?;
    plan.check_budget(budget)?;
    Ok(plan.run(progress)?.0)
}

/// For each truth pair (sorted by (a, b)), whether it is among `candidates` (sorted by
/// (a, b)): one merge pass.
pub fn candidate_hits(truth: &[TruthPair], candidates: &[VerifiedPair]) -> Vec<bool> {
    let mut j = 0;
    truth
        .iter()
        .map(|t| {
            while j < candidates.len() && (candidates[j].a, candidates[j].b) < (t.a, t.b) {
                j += 1;
            }
            candidates.get(j).is_some_and(|c| (c.a, c.b) == (t.a, t.b))
        })
        .collect()
}

/// The most rows any one band of `banding` agrees on for documents `a` and `b`: r means the
/// pair collided in that band; for a missed pair, how close it came.
pub fn closest_band(index: &Index, a: u32, b: u32, banding: Banding) -> usize {
    let (ra, rb) = (
        index.signatures.row(a as usize),
        index.signatures.row(b as usize),
    );
    (0..banding.bands)
        .map(|i| {
            let rows = i * banding.rows..(i + 1) * banding.rows;
            crate::similarity::agreeing_rows(&ra[rows.clone()], &rb[rows])
        })
        .max()
        .unwrap_or(0)
}

/// Mean Jaccard of the pairs in each of `bins` equal bins over [0, 1] (binned as
/// [`crate::analysis::recall::measure_recall`] bins them).
fn bin_means(pairs: &[TruthPair], bins: usize) -> Vec<Option<f64>> {
    let mut acc = vec![(0usize, 0.0f64); bins];
    for p in pairs {
        let k = crate::analysis::histogram::bin_of(p.jaccard, bins);
        acc[k].0 += 1;
        acc[k].1 += p.jaccard;
    }
    acc.into_iter()
        .map(|(n, sum)| (n > 0).then(|| sum / n as f64))
        .collect()
}

impl App {
    /// The truth pair the missed list has selected.
    pub fn selected_missed(&self) -> Option<&TruthPair> {
        let truth = self.truth.truth.as_ref()?;
        let &i = self.truth.visible.get(self.truth.selected)?;
        truth.pairs.get(i as usize)
    }

    /// The truth is incomplete at the current t (t is below what it covers).
    pub fn truth_below_floor(&self) -> bool {
        self.truth
            .truth
            .as_ref()
            .is_some_and(|t| self.threshold < t.floor)
    }

    /// After loading: read `--truth FILE` in the background.
    pub(super) fn truth_on_loaded(&mut self) {
        if let Some(path) = self.truth.file.clone() {
            self.start_truth_job(TruthTask::Read(path));
        }
    }

    fn start_truth_job(&mut self, task: TruthTask) {
        if let Some(job) = self.truth.job.take() {
            job.progress.cancel();
        }
        self.truth.next_request += 1;
        let job = RunningTruthJob {
            request: self.truth.next_request,
            task: task.clone(),
            progress: Progress::new(),
        };
        self.queue(Effect::Truth(TruthJob {
            request: job.request,
            task,
            progress: job.progress.clone(),
            budget_seconds: self.truth.join_budget_seconds,
        }));
        self.truth.job = Some(job);
    }

    /// Handles the commands the truth owns, and the list and viewer commands while the missed
    /// list is in use. `true` when `cmd` was handled here.
    pub(super) fn truth_command(&mut self, cmd: Command) -> bool {
        let on_missed_list = self.screen == Screen::Main && self.truth.show_missed;
        let in_missed_viewer = self.screen == Screen::Viewer && self.truth.viewing;
        match cmd {
            Command::Quit => {
                if let Some(job) = &self.truth.job {
                    job.progress.cancel();
                }
                false
            }
            Command::ComputeTruth => {
                let t = self.threshold;
                if t <= 0.0 {
                    self.complain("the exact join needs t > 0 (at 0 every pair is similar)");
                } else if self.data.is_some() {
                    self.start_truth_job(TruthTask::Join { threshold: t });
                    self.say(format!("computing the exact truth at J ≥ {t}…"));
                }
                true
            }
            Command::ToggleMissed => {
                if self.truth.truth.is_none() {
                    self.complain(
                        "no truth yet: T computes it (exact join at t), or start with --truth FILE",
                    );
                } else {
                    self.truth.show_missed = !self.truth.show_missed;
                    self.say(if self.truth.show_missed {
                        "pair list: missed pairs (true J ≥ t, not candidates); m: candidates"
                    } else {
                        "pair list: candidate pairs"
                    });
                }
                true
            }
            Command::Top | Command::Bottom if on_missed_list => {
                self.truth.selected = if cmd == Command::Top {
                    0
                } else {
                    self.truth.visible.len().saturating_sub(1)
                };
                self.scroll_missed_into_view();
                true
            }
            Command::Open if on_missed_list => {
                self.open_missed();
                true
            }
            Command::Export if on_missed_list => {
                self.export_missed();
                true
            }
            Command::JumpPrompt if on_missed_list => {
                self.complain("/ searches the candidate list (m shows it)");
                true
            }
            Command::PrevPair | Command::NextPair if in_missed_viewer => {
                let before = self.truth.selected;
                self.move_missed(if cmd == Command::NextPair { 1 } else { -1 });
                if self.truth.selected == before {
                    self.say("no more pairs in the missed list");
                } else {
                    self.open_missed();
                }
                true
            }
            Command::Back if in_missed_viewer => {
                self.truth.viewing = false;
                false
            }
            _ => false,
        }
    }

    pub(super) fn on_truth_done(&mut self, done: TruthDone) {
        if self
            .truth
            .job
            .as_ref()
            .is_none_or(|j| j.request != done.request)
        {
            return;
        }
        self.truth.job = None;
        match done.outcome {
            Ok(truth) => {
                let what = match &truth.origin {
                    TruthOrigin::File(path) => format!("read from {}", path.display()),
                    TruthOrigin::Computed { threshold } => {
                        format!("exact join at J ≥ {threshold}")
                    }
                };
                self.say(format!(
                    "truth: {} pairs ({what}, {:.1} s); m lists the missed ones",
                    super::ui::thousands(truth.pairs.len() as u64),
                    truth.seconds
                ));
                self.truth.bin_means = bin_means(&truth.pairs, self.hist.bins());
                self.truth.truth = Some(truth);
                self.truth.measure = None;
                self.truth_remeasure();
            }
            Err(TruthFailure::BadFile(e)) => {
                self.fatal = Some(e);
                self.should_quit = true;
            }
            Err(TruthFailure::Refused(msg)) => self.complain(msg),
            Err(TruthFailure::Failed(msg)) => self.complain(format!("exact join failed: {msg}")),
        }
    }

    /// Measures the truth against the shown candidates at the current t: marks the truth
    /// pairs that are candidates when the banding changed, then recounts.
    pub(super) fn truth_remeasure(&mut self) {
        let (Some(truth), Some(result)) = (&self.truth.truth, &self.result) else {
            self.truth.measure = None;
            self.rebuild_missed();
            return;
        };
        let hits = match self.truth.measure.take() {
            Some(m) if m.banding == result.banding && m.hits.len() == truth.pairs.len() => m.hits,
            _ => candidate_hits(&truth.pairs, &result.pairs),
        };
        let t = self.threshold;
        let report = measure_recall_with(
            &truth.pairs,
            |i| hits[i],
            result.pairs.len(),
            self.pairs_at_or_above_t,
            result.banding,
            t,
            self.hist.bins(),
        );
        let missed = report.true_at_threshold - report.found_at_threshold;
        self.truth.measure = Some(Measure {
            banding: result.banding,
            hits,
            report,
            missed,
        });
        self.rebuild_missed();
    }

    /// Recomputes the missed list (filter and sort of the candidate list apply to it too),
    /// keeping the selected pair if it is still missed.
    pub(super) fn rebuild_missed(&mut self) {
        let keep = self.selected_missed().map(|p| (p.a, p.b));
        let (Some(truth), Some(measure)) = (&self.truth.truth, &self.truth.measure) else {
            self.truth.visible.clear();
            self.truth.selected = 0;
            self.truth.offset = 0;
            return;
        };
        let t = self.threshold;
        let filter = self.filter;
        let seed = self.config.shuffle_seed;
        let mut keyed: Vec<(u64, u32)> = truth
            .pairs
            .iter()
            .zip(&measure.hits)
            .enumerate()
            .filter(|(_, (p, hit))| {
                !**hit && p.jaccard >= t && filter.is_none_or(|f| f.contains(p.jaccard))
            })
            .map(|(i, (p, _))| (sort_key(self.sort, seed, p.jaccard, p.a, p.b), i as u32))
            .collect();
        keyed.sort_unstable();
        self.truth.visible = keyed.into_iter().map(|(_, i)| i).collect();
        let pairs = &truth.pairs;
        self.truth.selected = keep
            .and_then(|(a, b)| {
                self.truth
                    .visible
                    .iter()
                    .position(|&i| (pairs[i as usize].a, pairs[i as usize].b) == (a, b))
            })
            .unwrap_or(0);
        self.scroll_missed_into_view();
    }

    pub(super) fn move_missed(&mut self, delta: isize) {
        if self.truth.visible.is_empty() {
            return;
        }
        let last = self.truth.visible.len() as isize - 1;
        self.truth.selected = (self.truth.selected as isize + delta).clamp(0, last) as usize;
        self.scroll_missed_into_view();
    }

    pub(super) fn scroll_missed_into_view(&mut self) {
        let height = layout::pair_list_rows(self.size).max(1);
        let s = &mut self.truth;
        if s.selected < s.offset {
            s.offset = s.selected;
        } else if s.selected >= s.offset + height {
            s.offset = s.selected + 1 - height;
        }
        s.offset = s.offset.min(s.visible.len().saturating_sub(height));
    }

    /// `e` on the missed list: the listed missed pairs (filtered, in list order) as CSV, in
    /// the candidates' export format (bands_hit 0), next to the candidate exports.
    fn export_missed(&mut self) {
        let (Some(truth), Some(data), Some(m)) =
            (&self.truth.truth, &self.data, &self.truth.measure)
        else {
            self.complain("nothing to export yet");
            return;
        };
        let pairs: Vec<VerifiedPair> = self
            .truth
            .visible
            .iter()
            .map(|&i| {
                let p = truth.pairs[i as usize];
                VerifiedPair {
                    a: p.a,
                    b: p.b,
                    bands_hit: 0,
                    jaccard: p.jaccard,
                    estimate: data.index.signatures.estimate(p.a as usize, p.b as usize),
                }
            })
            .collect();
        let labels = pairs
            .iter()
            .filter_map(|p| self.label_of(p.a, p.b).map(|l| ((p.a, p.b), l)))
            .collect();
        let path = self.config.export_dir.join(format!(
            "{}.missed.{}x{}.csv",
            self.config.export_stem, m.banding.bands, m.banding.rows
        ));
        let job = ExportJob {
            path: path.clone(),
            rows: (0..pairs.len() as u32).collect(),
            pairs: Arc::new(pairs),
            labels,
            plots: PlotSpec {
                dir: self.config.export_dir.clone(),
                stem: self.config.export_stem.clone(),
                banding: self.banding,
                pins: self.pins.clone(),
                threshold: self.threshold,
                num_perm: self.num_perm(),
                histogram: self.hist.clone(),
                histogram_banding: m.banding,
                log_scale: self.log_scale,
            },
        };
        self.say(format!(
            "exporting {} missed pairs to {}…",
            job.rows.len(),
            path.display()
        ));
        self.queue(Effect::Export(Box::new(job)));
    }

    /// Opens the selected missed pair in the pair viewer.
    fn open_missed(&mut self) {
        let (Some(p), Some(data)) = (self.selected_missed().copied(), self.data.clone()) else {
            self.complain("no missed pair selected");
            return;
        };
        let pair = VerifiedPair {
            a: p.a,
            b: p.b,
            bands_hit: 0,
            jaccard: p.jaccard,
            estimate: data.index.signatures.estimate(p.a as usize, p.b as usize),
        };
        self.viewer = Some(pair_view(&data, &pair, self.banding));
        self.screen = Screen::Viewer;
        self.truth.viewing = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(a: u32, b: u32, jaccard: f64) -> TruthPair {
        TruthPair { a, b, jaccard }
    }

    fn vp(a: u32, b: u32) -> VerifiedPair {
        VerifiedPair {
            a,
            b,
            bands_hit: 1,
            jaccard: 0.5,
            estimate: 0.5,
        }
    }

    #[test]
    fn hits_merge_sorted_lists() {
        let truth = [tp(0, 1, 0.9), tp(0, 5, 0.6), tp(2, 3, 0.7), tp(4, 9, 0.8)];
        let cands = [vp(0, 1), vp(0, 2), vp(2, 3), vp(3, 4), vp(5, 6)];
        assert_eq!(
            candidate_hits(&truth, &cands),
            vec![true, false, true, false]
        );
        assert_eq!(candidate_hits(&truth, &[]), vec![false; 4]);
        assert!(candidate_hits(&[], &cands).is_empty());
    }

    #[test]
    fn bin_means_bin_like_recall() {
        let pairs = [tp(0, 1, 0.5), tp(0, 2, 0.54), tp(1, 2, 1.0)];
        let m = bin_means(&pairs, 20);
        assert!((m[10].unwrap() - 0.52).abs() < 1e-12);
        assert_eq!(m[19], Some(1.0));
        assert_eq!(m[0], None);
    }
}
