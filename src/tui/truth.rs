//! Ground truth in the explorer: the true similar pairs of the corpus (read from a file, or
//! computed here with the exact similarity join on a small corpus), measured against the
//! candidates of the current banding: recall and precision at t, the empirical candidate rate
//! per similarity bin with its 95 % interval (measured over redraws of the hash family, drawn
//! over the S-curve), and the list of
//! missed pairs (true pairs ≥ t that are not candidates), which open in the pair viewer.
//!
//! The truth does not depend on b and r. After each re-banding, one merge pass over the truth
//! and the (sorted) candidates marks which true pairs are candidates; a change of t only
//! recounts those marks. Neither slows re-banding down.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use lshscope_core::Error;

use crate::cli::errors::render_error;
use lshscope_core::analysis::recall::{
    RecallReport, bin_means, candidate_hits, measure_recall_with, read_truth, signature_hits,
    truth_floor,
};
use lshscope_core::analysis::redraws::{RedrawAgreement, counts_from_hits};
use lshscope_core::analysis::stratified::{StrataDesign, StratifiedSample, stratified_pair_sample};
use lshscope_core::analysis::truth::{TruthPair, plan_join};
use lshscope_core::jobs::{Latest, Phase, Progress, Ticket};
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::minhash::tune::{
    CorpusEstimate, SampledIntervals, SimilarityDistribution, corpus_estimate,
};
use lshscope_core::minhash::{Banding, IndexOptions, Signatures};

use super::list::{ListView, PairList, ordered};
use lshscope_core::pipeline::Loaded;
use lshscope_core::util::numfmt::{for_count, thousands};

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

/// Pairs the explorer's tuning sample holds, as `lshscope truth --estimate-pairs 100000`.
pub const TUNING_SAMPLE_PAIRS: usize = 100_000;

/// How far above its strata threshold T a tuning sample serves t: from T up, its permissive
/// banding misses almost no pair at t (so the count's top is near the candidates' own), but
/// the draws of its candidates thin out at t (on 63k Debian descriptions, 345 of 50,000 draws
/// reach 0.5 and 26 reach 0.8: recall n/a). Below T, or past T + this, t gets a sample of its
/// own; within it, stepping t keeps the numbers on screen instead of redrawing at each step.
pub const SAMPLE_REACH: f64 = 0.1;

/// Draw the stratified tuning sample of the loaded corpus at `threshold` (the strata
/// threshold) with `pairs` pairs and the index's seed: the sample `lshscope truth
/// --estimate-pairs PAIRS -t THRESHOLD --seed SEED` writes. Answered with a [`SampleDone`].
#[derive(Debug, Clone)]
pub struct SampleRequest {
    pub data: Arc<Loaded>,
    pub threshold: f64,
    pub pairs: usize,
}

/// A tuning-sample job as the event loop runs it.
pub type SampleJob = Ticket<SampleRequest>;

/// The answer of a tuning-sample job.
#[derive(Debug)]
pub struct SampleDone {
    pub request: u64,
    pub outcome: Result<TuningSample, String>,
}

/// A stratified pair sample of the loaded corpus
/// ([`lshscope_core::analysis::stratified`]): where no truth is loaded, the explorer's
/// recall and precision at t for any banding are estimated from it, with 95 % intervals.
#[derive(Debug, Clone)]
pub struct TuningSample {
    pub sample: Arc<StratifiedSample>,
    /// Its weighted rows, as `tune --similarities` reads the file: the point estimates.
    pub distribution: Arc<SimilarityDistribution>,
    pub seconds: f64,
}

impl TuningSample {
    /// Every stratum was taken whole (a corpus of at most the sample's pairs): the
    /// estimates are exact.
    pub fn is_census(&self) -> bool {
        self.sample.strata.iter().all(|s| s.is_census())
    }
}

/// Runs a tuning-sample job; `None` when it was cancelled.
pub fn run_sample_job(job: &SampleJob) -> Option<SampleDone> {
    let start = Instant::now();
    let data = &*job.request.data;
    let options = &data.index.options;
    let outcome = match stratified_pair_sample(
        &data.index.sets,
        &data.index.signatures,
        options.num_perm,
        options.family,
        job.request.pairs,
        StrataDesign::with_default_lower(job.request.threshold),
        options.seed,
        &job.progress,
    ) {
        Ok(sample) => Ok(TuningSample {
            distribution: Arc::new(SimilarityDistribution::from_weighted(
                sample.weighted_rows(),
            )),
            sample: Arc::new(sample),
            seconds: start.elapsed().as_secs_f64(),
        }),
        Err(Error::Cancelled) => return None,
        Err(e) => Err(render_error(&e)),
    };
    job.progress.finish();
    Some(SampleDone {
        request: job.id,
        outcome,
    })
}

/// The true similar pairs of the loaded corpus.
#[derive(Debug, Clone)]
pub struct Truth {
    /// Sorted by (a, b), a < b (input positions), as candidates are.
    pub pairs: Arc<Vec<TruthPair>>,
    pub origin: TruthOrigin,
    /// The truth is complete for Jaccard ≥ `floor`: the join's threshold; for a file, its
    /// lowest Jaccard, exactly ([`truth_floor`]). Below it, recall counts only the pairs it
    /// has.
    pub floor: f64,
    pub seconds: f64,
    /// Each truth pair's signature agreement under redraws of the hash family, from which
    /// every banding's per-bin intervals are measured instead of assumed binomial
    /// ([`lshscope_core::analysis::redraws`]); `None` when the truth is too large to keep them
    /// ([`REDRAW_BYTES`]), and then the bars are binomial and say so.
    pub redraws: Option<Arc<RedrawAgreement>>,
    /// The pairs' Jaccards, for the expected recall of any banding (the cost view's cursor).
    pub similarities: Arc<SimilarityDistribution>,
}

impl Truth {
    fn new(
        pairs: Vec<TruthPair>,
        origin: TruthOrigin,
        floor: f64,
        seconds: f64,
        redraws: Option<Arc<RedrawAgreement>>,
    ) -> Truth {
        let jaccards: Vec<f64> = pairs.iter().map(|p| p.jaccard).collect();
        Truth {
            similarities: Arc::new(SimilarityDistribution::from_similarities(&jaccards)),
            pairs: Arc::new(pairs),
            origin,
            floor,
            seconds,
            redraws,
        }
    }
}

/// Memory the explorer gives the redraw masks of a truth: 256 MiB, 16 redraws of a million
/// truth pairs at K = 128 (8 redraws of two million; beyond that the bars are binomial).
pub const REDRAW_BYTES: usize = 256 << 20;

/// What a truth job does.
#[derive(Debug, Clone, PartialEq)]
pub enum TruthTask {
    Read(PathBuf),
    Join { threshold: f64 },
}

/// A truth job's request: what to do on which corpus; answered with a [`TruthDone`].
#[derive(Debug, Clone)]
pub struct TruthRequest {
    pub data: Arc<Loaded>,
    pub task: TruthTask,
    /// The join is refused when its estimated time is longer.
    pub budget_seconds: f64,
}

impl TruthRequest {
    /// What the status line says while it runs.
    pub fn describe(&self) -> String {
        match &self.task {
            TruthTask::Read(path) => format!("reading truth {}", path.display()),
            TruthTask::Join { threshold } => format!("exact join at J ≥ {threshold}"),
        }
    }
}

/// A truth job as the event loop runs it.
pub type TruthJob = Ticket<TruthRequest>;

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

/// The truth measured against the candidates of one banding.
#[derive(Debug, Clone)]
pub struct Measure {
    pub banding: Banding,
    /// The candidates were sampled: hits come from the signatures, and the candidate counts
    /// behind precision are estimates.
    pub sampled: bool,
    /// `hits[i]`: truth pair i is a candidate of `banding`.
    pub hits: Vec<bool>,
    /// Per truth pair, the redraws under which it is a candidate of `banding`
    /// ([`RedrawAgreement::hits_per_draw`]), when the truth has redraws.
    pub redraw_hits: Option<Vec<u32>>,
    pub report: RecallReport,
    /// True pairs ≥ t that are not candidates (before any Jaccard filter).
    pub missed: usize,
}

/// The candidates a truth is measured against.
#[derive(Debug, Clone, Copy)]
pub enum MeasuredCandidates<'a> {
    /// Every candidate of `banding`, and how many have Jaccard ≥ t.
    Listed {
        banding: Banding,
        pairs: &'a [VerifiedPair],
        at_or_above: usize,
    },
    /// A sample of them: a truth pair is a candidate when its signatures collide in a band
    /// (exact, the bucket cap aside), and the counts behind precision are the estimates.
    Sampled {
        banding: Banding,
        signatures: &'a Signatures,
        total: usize,
        at_or_above: usize,
    },
}

/// Truth, its measurement, the missed-pairs list and the tuning sample. Changed only through
/// its methods.
#[derive(Debug)]
pub struct TruthState {
    /// `--truth FILE`: read once the corpus is loaded.
    file: Option<PathBuf>,
    truth: Option<Truth>,
    /// Mean Jaccard of the truth pairs in each histogram bin: where a bin's measured rate is
    /// drawn over the S-curve (the bin's prediction is the mean of P(sᵢ) over those pairs).
    bin_means: Vec<Option<f64>>,
    /// The truth job asked last, until it answers.
    job: Latest<TruthRequest>,
    measure: Option<Measure>,
    /// The pair list shows missed pairs instead of candidates.
    show_missed: bool,
    /// The missed pairs the list shows (indices into `truth.pairs`, filtered and sorted).
    missed: PairList,
    /// Joins estimated to take longer are refused ([`JOIN_BUDGET_SECONDS`]).
    join_budget_seconds: f64,
    /// The stratified tuning sample, for recall and precision without a truth.
    sample: Option<TuningSample>,
    /// The tuning-sample job asked last, until it answers.
    sample_job: Latest<SampleRequest>,
    /// Why the last tuning sample failed (shown where its numbers would be).
    sample_error: Option<String>,
    /// Pairs a tuning sample draws ([`TUNING_SAMPLE_PAIRS`]; tests take fewer).
    sample_pairs: usize,
}

impl Default for TruthState {
    fn default() -> Self {
        TruthState::new(None, JOIN_BUDGET_SECONDS, TUNING_SAMPLE_PAIRS)
    }
}

/// The view the missed list is rebuilt for: the candidate list's filter and sort, t, and the
/// rows the list panel shows.
#[derive(Debug, Clone, Copy)]
pub struct MissedView {
    pub list: ListView,
    pub threshold: f64,
    pub height: usize,
}

impl TruthState {
    /// No truth yet: `file` is read once the corpus is loaded, joins estimated to take longer
    /// than `join_budget_seconds` are refused, and a tuning sample draws `sample_pairs`.
    pub fn new(file: Option<PathBuf>, join_budget_seconds: f64, sample_pairs: usize) -> Self {
        TruthState {
            file,
            truth: None,
            bin_means: Vec::new(),
            job: Latest::default(),
            measure: None,
            show_missed: false,
            missed: PairList::default(),
            join_budget_seconds,
            sample: None,
            sample_job: Latest::default(),
            sample_error: None,
            sample_pairs,
        }
    }

    /// `--truth FILE`, read once the corpus is loaded.
    pub fn file(&self) -> Option<&PathBuf> {
        self.file.as_ref()
    }

    /// The truth, once read or computed.
    pub fn truth(&self) -> Option<&Truth> {
        self.truth.as_ref()
    }

    /// Mean Jaccard of the truth pairs in each histogram bin.
    pub fn bin_means(&self) -> &[Option<f64>] {
        &self.bin_means
    }

    /// The truth job asked last, until it answers.
    pub fn job(&self) -> &Latest<TruthRequest> {
        &self.job
    }

    /// The truth measured against the shown candidates at t.
    pub fn measure(&self) -> Option<&Measure> {
        self.measure.as_ref()
    }

    /// The missed pairs the list shows, with its selection.
    pub fn missed(&self) -> &PairList {
        &self.missed
    }

    /// Whether the pair list shows the missed pairs instead of the candidates.
    pub fn show_missed(&self) -> bool {
        self.show_missed
    }

    /// The stratified tuning sample, once drawn.
    pub fn sample(&self) -> Option<&TuningSample> {
        self.sample.as_ref()
    }

    /// The tuning-sample job asked last, until it answers.
    pub fn sample_job(&self) -> &Latest<SampleRequest> {
        &self.sample_job
    }

    /// Why the last tuning sample failed.
    pub fn sample_error(&self) -> Option<&str> {
        self.sample_error.as_deref()
    }

    /// Cancels the truth job (on quit).
    pub fn cancel(&self) {
        self.job.cancel_running();
    }

    /// Shows the missed pairs in the pair list instead of the candidates, or the candidates
    /// again; returns whether the missed pairs are shown.
    pub fn toggle_missed(&mut self) -> bool {
        self.show_missed = !self.show_missed;
        self.show_missed
    }

    /// Moves the missed list's selection by `delta` rows in a list `height` rows high;
    /// `false` when it did not move.
    pub fn move_missed(&mut self, delta: isize, height: usize) -> bool {
        let before = self.missed.selected();
        self.missed.move_by(delta, height);
        self.missed.selected() != before
    }

    /// Selects the missed list's first pair (`bottom`: its last).
    pub fn missed_to_end(&mut self, bottom: bool, height: usize) {
        if bottom {
            self.missed.bottom(height);
        } else {
            self.missed.top(height);
        }
    }

    /// Selects the missed pair shown on `line` of the list, if any.
    pub fn select_missed_on_line(&mut self, line: usize, height: usize) {
        if let Some(i) = self.missed.row_on_line(line) {
            self.missed.select(i, height);
        }
    }

    /// Keeps the missed list's selection in view in a list `height` rows high.
    pub fn scroll_missed_into_view(&mut self, height: usize) {
        self.missed.scroll_into_view(height);
    }

    /// The truth pair the missed list has selected.
    pub fn selected_missed(&self) -> Option<&TruthPair> {
        let truth = self.truth.as_ref()?;
        truth.pairs.get(self.missed.selected_index()? as usize)
    }

    /// A tuning sample is wanted at `threshold`: no truth covers it (a truth makes recall
    /// exact, but one joined at a higher t knows nothing of the pairs below it), and no sample
    /// that serves this threshold ([`SAMPLE_REACH`]) is at hand or on its way.
    pub fn needs_sample(&self, threshold: f64) -> bool {
        // (A hair of slack: T + 0.1 in binary may fall a rounding short of t = T + 0.1.)
        let serves = |strata: f64| (strata..=strata + SAMPLE_REACH + 1e-9).contains(&threshold);
        (self.truth.is_none() || self.below_floor(threshold))
            && threshold > 0.0
            && !self
                .sample
                .as_ref()
                .is_some_and(|s| serves(s.sample.threshold))
            && !self
                .sample_job
                .running()
                .is_some_and(|job| serves(job.request.threshold))
    }

    /// A tuning sample exists or is being drawn: the user asked for sampled estimates, so a
    /// new t that the sample does not serve gets a new one.
    pub fn has_sample(&self) -> bool {
        self.sample.is_some() || self.sample_job.running().is_some()
    }

    /// A tuning-sample job at `threshold`, superseding any running one.
    pub fn submit_sample(&mut self, data: Arc<Loaded>, threshold: f64) -> SampleJob {
        self.sample_error = None;
        self.sample_job.submit(SampleRequest {
            data,
            threshold,
            pairs: self.sample_pairs,
        })
    }

    /// Takes the answer of the newest tuning-sample job; `None` for a stale one, else the
    /// status text.
    pub fn accept_sample(&mut self, done: SampleDone) -> Option<Result<String, String>> {
        self.sample_job.accept(done.request)?;
        Some(match done.outcome {
            Ok(sample) => {
                let s = &sample.sample;
                let text = format!(
                    "tuning sample: {} pairs stratified by the {} banding for t ≥ {} ({:.1} s){}",
                    thousands(s.sampled() as u64),
                    s.banding,
                    s.threshold,
                    sample.seconds,
                    if sample.is_census() {
                        ", every pair: exact"
                    } else {
                        ""
                    }
                );
                self.sample = Some(sample);
                Ok(text)
            }
            Err(message) => {
                self.sample_error = Some(message.clone());
                Err(message)
            }
        })
    }

    /// Estimates of `banding` at `threshold` from the tuning sample with their 95 %
    /// intervals, as `tune --similarities` prints them for the same sample; `None` without a
    /// sample, or with a truth that covers `threshold` (recall is then measured exactly
    /// instead).
    pub fn sampled_estimates(
        &self,
        banding: Banding,
        threshold: f64,
    ) -> Option<(CorpusEstimate, SampledIntervals)> {
        if self.truth.is_some() && !self.below_floor(threshold) {
            return None;
        }
        let sample = self.sample.as_ref()?;
        let (b, r) = (banding.bands, banding.rows);
        Some((
            corpus_estimate(&sample.distribution, b, r, threshold),
            sample.sample.intervals(b, r, threshold)?,
        ))
    }

    /// The truth is incomplete at `threshold` (below what it covers).
    pub fn below_floor(&self, threshold: f64) -> bool {
        self.truth.as_ref().is_some_and(|t| threshold < t.floor)
    }

    /// A job for `task`, superseding (and cancelling) any running one.
    pub fn submit(&mut self, data: Arc<Loaded>, task: TruthTask) -> TruthJob {
        self.job.submit(TruthRequest {
            data,
            task,
            budget_seconds: self.join_budget_seconds,
        })
    }

    /// Takes the answer of the newest job: the new truth, or why there is none. `None` for a
    /// stale answer. On success, the status text to show.
    pub fn accept(&mut self, done: TruthDone, bins: usize) -> Option<Result<String, TruthFailure>> {
        self.job.accept(done.request)?;
        Some(done.outcome.map(|truth| {
            let what = match &truth.origin {
                TruthOrigin::File(path) => format!("read from {}", path.display()),
                TruthOrigin::Computed { threshold } => format!("exact join at J ≥ {threshold}"),
            };
            let pairs = truth.pairs.len() as u64;
            let text = format!(
                "truth: {} {} ({what}, {:.1} s); {} lists the missed ones",
                thousands(pairs),
                for_count(pairs, "pair", "pairs"),
                truth.seconds,
                super::keys::hint(super::keys::Command::ToggleMissed)
            );
            self.bin_means = bin_means(&truth.pairs, bins);
            self.truth = Some(truth);
            self.measure = None;
            text
        }))
    }

    /// Measures the truth against `candidates` (the shown banding and its pairs) at t: marks
    /// the truth pairs that are candidates when the banding changed, then recounts.
    pub fn remeasure(
        &mut self,
        candidates: Option<MeasuredCandidates>,
        bins: usize,
        view: MissedView,
    ) {
        let (Some(truth), Some(candidates)) = (&self.truth, candidates) else {
            self.measure = None;
            self.rebuild_missed(view);
            return;
        };
        let (banding, sampled) = match &candidates {
            MeasuredCandidates::Listed { banding, .. } => (*banding, false),
            MeasuredCandidates::Sampled { banding, .. } => (*banding, true),
        };
        let (hits, redraw_hits) = match self.measure.take() {
            Some(m)
                if m.banding == banding
                    && m.sampled == sampled
                    && m.hits.len() == truth.pairs.len() =>
            {
                (m.hits, m.redraw_hits)
            }
            _ => (
                match &candidates {
                    MeasuredCandidates::Listed { pairs, .. } => candidate_hits(&truth.pairs, pairs),
                    MeasuredCandidates::Sampled { signatures, .. } => {
                        signature_hits(&truth.pairs, signatures, banding)
                    }
                },
                truth
                    .redraws
                    .as_ref()
                    .filter(|r| banding.bands * banding.rows <= r.num_perm())
                    .map(|r| r.hits_per_draw(banding)),
            ),
        };
        let (all, at_t) = match candidates {
            MeasuredCandidates::Listed {
                pairs, at_or_above, ..
            } => (pairs.len(), at_or_above),
            MeasuredCandidates::Sampled {
                total, at_or_above, ..
            } => (total, at_or_above),
        };
        let mut report = measure_recall_with(
            &truth.pairs,
            |i| hits[i],
            all,
            at_t,
            banding,
            view.threshold,
            bins,
        );
        if let (Some(agreement), Some(bits)) = (&truth.redraws, &redraw_hits) {
            report.apply_redraws(&counts_from_hits(
                &truth.pairs,
                bits,
                agreement.draws(),
                bins,
                view.threshold,
            ));
        }
        let missed = report.true_at_threshold - report.found_at_threshold;
        self.measure = Some(Measure {
            banding,
            sampled,
            hits,
            redraw_hits,
            report,
            missed,
        });
        self.rebuild_missed(view);
    }

    /// Recomputes the missed list (filter and sort of the candidate list apply to it too),
    /// keeping the selected pair if it is still missed.
    pub fn rebuild_missed(&mut self, view: MissedView) {
        let keep = self.selected_missed().map(|p| (p.a, p.b));
        let (Some(truth), Some(measure)) = (&self.truth, &self.measure) else {
            self.missed.clear();
            return;
        };
        let t = view.threshold;
        let pairs = &truth.pairs;
        let hits = &measure.hits;
        let order = ordered(
            pairs.len(),
            |i| {
                let p = &pairs[i];
                (!hits[i] && p.jaccard >= t).then_some((p.jaccard, p.a, p.b))
            },
            view.list,
        );
        let pairs = Arc::clone(pairs);
        self.missed.show(
            order,
            |i| keep == Some((pairs[i as usize].a, pairs[i as usize].b)),
            view.height,
        );
    }

    /// Truth pair `i` as a pair the viewer and the export take (not a candidate: no band hit).
    pub fn as_verified(&self, data: &Loaded, p: &TruthPair) -> VerifiedPair {
        VerifiedPair {
            a: p.a,
            b: p.b,
            bands_hit: 0,
            jaccard: p.jaccard,
            estimate: data.index.signatures.estimate(p.a as usize, p.b as usize),
        }
    }

    /// The listed missed pairs (filtered, in list order), as pairs the export writes.
    pub fn listed_missed(&self, data: &Loaded) -> Vec<VerifiedPair> {
        let Some(truth) = &self.truth else {
            return Vec::new();
        };
        self.missed
            .rows()
            .iter()
            .map(|&i| self.as_verified(data, &truth.pairs[i as usize]))
            .collect()
    }
}

/// Runs a truth job; `None` when it was cancelled (the worker then sends nothing).
pub fn run_truth_job(job: &TruthJob) -> Option<TruthDone> {
    let start = Instant::now();
    let progress = &job.progress;
    let data = &*job.request.data;
    let outcome = match &job.request.task {
        TruthTask::Read(path) => {
            progress.begin(Phase::Reading, 0);
            match read_truth(path, &data.corpus) {
                Ok(pairs) => {
                    let floor = truth_floor(pairs.iter().map(|p| p.jaccard)).unwrap_or(0.0);
                    let redraws = redraw(data, &pairs, &data.index.options, progress)?;
                    Ok(Truth::new(
                        pairs,
                        TruthOrigin::File(path.clone()),
                        floor,
                        start.elapsed().as_secs_f64(),
                        redraws,
                    ))
                }
                Err(e) => Err(TruthFailure::BadFile(e)),
            }
        }
        TruthTask::Join { threshold } => {
            // One fraction over the three phases, each weighted by its time: the first two
            // are re-weighed once the join is planned, the third after its first redraw.
            progress.plan(&[
                (Phase::JoinIndex, 1.0),
                (Phase::Join, 1.0),
                (Phase::Redrawing, 1.0),
            ]);
            match join(data, *threshold, job.request.budget_seconds, progress) {
                Ok(pairs) => {
                    let redraws = redraw(data, &pairs, &data.index.options, progress)?;
                    Ok(Truth::new(
                        pairs,
                        TruthOrigin::Computed {
                            threshold: *threshold,
                        },
                        *threshold,
                        start.elapsed().as_secs_f64(),
                        redraws,
                    ))
                }
                Err(Error::Cancelled) => return None,
                // A refusal travels from `join` as Error::Refused.
                Err(e @ Error::Refused(_)) => Err(TruthFailure::Refused(render_error(&e))),
                Err(e) => Err(TruthFailure::Failed(render_error(&e))),
            }
        }
    };
    progress.finish();
    Some(TruthDone {
        request: job.id,
        outcome,
    })
}

/// The redraw masks of `pairs` in the family, K and seed of `options`, as many redraws as
/// [`REDRAW_BYTES`] allows (none for an empty truth or one too large); `None` when the job
/// was cancelled meanwhile.
pub(super) fn redraw(
    data: &Loaded,
    pairs: &[TruthPair],
    options: &IndexOptions,
    progress: &Progress,
) -> Option<Option<Arc<RedrawAgreement>>> {
    let draws = RedrawAgreement::draws_within(pairs.len(), options.num_perm, REDRAW_BYTES);
    if draws == 0 || pairs.is_empty() {
        return Some(None);
    }
    match RedrawAgreement::compute(&data.index.sets, pairs, options, draws, progress) {
        Ok(agreement) => Some(Some(Arc::new(agreement))),
        Err(_) => None,
    }
}

/// The exact join at `threshold`, refused ([`lshscope_core::analysis::truth::JoinPlan::check_budget`]) when its estimated
/// time is beyond `budget` seconds.
fn join(
    data: &Loaded,
    threshold: f64,
    budget: f64,
    progress: &Progress,
) -> lshscope_core::Result<Vec<TruthPair>> {
    let started = Instant::now();
    let plan = plan_join(&data.index.sets, threshold, progress)?;
    plan.check_budget(budget)?;
    let indexing = started.elapsed().as_secs_f64();
    let joining = plan.work.estimated_seconds(rayon::current_num_threads());
    progress.reweigh(Phase::JoinIndex, indexing);
    progress.reweigh(Phase::Join, joining);
    // Until its first redraw is timed, the redraws are guessed to take as long as the index
    // pass (measured on 30,000 templated documents at t = 0.5: indexing 2.0 s, the 16
    // redraws under 1.5 s, the join 24 s).
    progress.reweigh(Phase::Redrawing, indexing);
    Ok(plan.run(progress)?.0)
}
