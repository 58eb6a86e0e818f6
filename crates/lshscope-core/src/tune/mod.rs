//! The tuner's report: for K permutations and a threshold t, the banding (b, r) each criterion
//! picks (datasketch's, a recall target, constraints, a candidate budget, bandings given by
//! the user), each with its S-curve summary and, when pair similarities of a corpus are given,
//! the expected candidates, recall and precision on them; plus the chosen banding in another
//! tool's terms ([`export`]).
//!
//! The curve math and the searches live in [`crate::minhash::tune`]; this module decides what
//! a report holds. `lshscope tune` parses its flags into [`TuneOptions`], calls
//! [`build_report`] and renders the [`TuneReport`] as a table, CSV or JSON. Messages and notes
//! name the options by their `lshscope tune` flags, which is how users meet them.

pub mod export;
pub mod seeds;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::analysis::stratified::StratifiedSample;
use crate::jobs::Progress;
use crate::minhash::scurve::{candidate_probability, datasketch_optimal_params};
use crate::minhash::tune::{
    BoundCheck, Constraints, CorpusEstimate, CurveSummary, MIN_SAMPLED_AT_THRESHOLD,
    ProbabilityBound, SampleIntervals, SampledIntervals, SimilarityDistribution,
    best_recall_with_removal_bound_among, best_recall_within_budget_among,
    closest_to_constraints_among, constraint_search_among, corpus_estimate, quantiles,
    sampled_intervals, sharpest_with_probability_at_among, smallest_num_perm_for_among, summarize,
};
use crate::minhash::{Banding, SketchFamily};
use crate::terms::Setting::{
    self, Accept, Banding as GivenBanding, Budget, Corpus, EstimatePairs, Export, FnWeight,
    FpWeight, MaxFalseRemoval, MinRecall, NumPerm, Pairs, Quantiles, Reject, Sample, ScanBanding,
    Similarities, Threshold, Truth,
};

/// The default removal bound for tools that remove every candidate: pairs this far below the
/// threshold ([`TuneOptions::removal_bound`] says why) ...
const DEFAULT_REMOVAL_GAP: f64 = 0.3;
/// ... are removed with at most this probability.
const DEFAULT_MAX_FALSE_REMOVAL: f64 = 0.05;

/// A pairs file whose lowest Jaccard is at least this probably comes from a scan with
/// --threshold: a scan at threshold 0 nearly always has candidates far below it.
pub const THRESHOLDED_PAIRS_HINT: f64 = 0.1;

/// The largest K searched for when the constraints need more permutations than given.
const MAX_NUM_PERM_SEARCHED: usize = 2048;
use crate::error::check_unit;
use crate::text::ShingleKind;
use crate::util::numfmt::{for_count, percent_fine};
use crate::{Error, Result};

pub use export::{Tool, ToolExport, export_for};
pub use seeds::{SeedCorpus, SeedSpread};

/// Where the pair similarities that weight the corpus columns come from.
#[derive(Debug, Clone, PartialEq)]
pub enum PairSimilarities {
    /// The candidate pairs of a scan (`--pairs`): a pair file with a `jaccard` column. With
    /// the banding the scan ran with (`--scan-banding`), each pair counts 1/P₀(s) times
    /// ([`horvitz_thompson`]), so the columns estimate all pairs, not only those found.
    ScanPairs {
        path: PathBuf,
        scan_banding: Option<Banding>,
    },
    /// Pair similarities (`--similarities`), for example of random pairs: a pair file with a
    /// `jaccard` column, or one number per line.
    Similarities(PathBuf),
    /// A truth file (`--truth`): every pair at or above the join's threshold.
    Truth(PathBuf),
}

impl PairSimilarities {
    pub fn path(&self) -> &Path {
        match self {
            PairSimilarities::ScanPairs { path, .. } => path,
            PairSimilarities::Similarities(path) | PairSimilarities::Truth(path) => path,
        }
    }
}

/// What to tune for. [`TuneOptions::new`] gives the defaults of `lshscope tune`.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    /// K: every banding considered has b·r ≤ K.
    pub num_perm: usize,
    /// The sketch family of the signatures (recorded in the report; the corpus columns
    /// count candidates of signatures in this family).
    pub family: SketchFamily,
    /// The Jaccard similarity t at which pairs count as duplicates. Without it only the
    /// constraint search and the given bandings run (they need no threshold).
    pub threshold: Option<f64>,
    /// datasketch's weights on the false-positive area ∫₀ᵗ P and the false-negative area
    /// ∫ₜ¹ (1 − P).
    pub fp_weight: f64,
    pub fn_weight: f64,
    /// The P(t) the `recall` criterion must reach.
    pub min_recall: f64,
    /// Bounds on P at chosen similarities, for the `constraints` criterion.
    pub constraints: Constraints,
    /// Bandings to evaluate as they are (`given` rows).
    pub given: Vec<Banding>,
    /// Pair similarities that add the corpus columns.
    pub similarities: Option<PairSimilarities>,
    /// The `budget` criterion: the highest expected recall at t with at most this many
    /// expected candidates (needs `similarities`).
    pub budget: Option<f64>,
    /// Translate the chosen banding (the first row: `removal` when [`Self::removal_bound`]
    /// gives one, unless the `budget` row keeps that bound too; else `budget`, else
    /// `constraints`, else `recall`) into this tool's parameters.
    pub export: Option<Tool>,
    /// The shingles hashed, for the n-gram settings of the export.
    pub shingle: ShingleKind,
    /// Probabilities at which every row also reports the similarity s with P(s) = p.
    pub quantiles: Vec<f64>,
    /// For a tool that removes every candidate: the most a pair at this similarity may be
    /// removed ([`TuneOptions::removal_bound`] supplies the default).
    pub max_false_removal: Option<ProbabilityBound>,
}

impl TuneOptions {
    /// The defaults of `lshscope tune` at threshold t: K = 128, equal datasketch weights,
    /// P(t) ≥ 0.99 for the recall criterion, char:5 shingles, nothing else.
    pub fn new(threshold: f64) -> Self {
        TuneOptions {
            num_perm: 128,
            family: SketchFamily::Classic,
            threshold: Some(threshold),
            fp_weight: 0.5,
            fn_weight: 0.5,
            min_recall: 0.99,
            constraints: Constraints::default(),
            given: Vec::new(),
            similarities: None,
            budget: None,
            export: None,
            shingle: ShingleKind::Char(5),
            quantiles: Vec::new(),
            max_false_removal: None,
        }
    }

    /// The removal bound of the `removal` criterion: the one given, else, when the export tool
    /// removes every candidate, at most 5 % removal at t − 0.3 (at t = 0.8, pairs at J = 0.5,
    /// which differ in a third of their shingles, are then rarely removed, and K = 128 still
    /// reaches P(t) ≈ 0.9). `None` when nothing asks for it, and when constraints are given:
    /// they are the user's own bounds.
    pub fn removal_bound(&self) -> Option<ProbabilityBound> {
        if self.max_false_removal.is_some() {
            return self.max_false_removal;
        }
        if !self.constraints.is_empty() {
            return None;
        }
        let t = self.threshold?;
        let removes_all = self.export.is_some_and(|tool| !tool.verifies());
        removes_all.then(|| ProbabilityBound {
            similarity: (t - DEFAULT_REMOVAL_GAP).max(0.0),
            probability: DEFAULT_MAX_FALSE_REMOVAL,
        })
    }

    /// Checks what can be checked without reading anything.
    pub fn validate(&self) -> Result<()> {
        let k = self.num_perm;
        if k == 0 {
            return Err(Error::usage(format!("{NumPerm} must be at least 1")));
        }
        match self.threshold {
            Some(t) => check_unit(&Threshold.to_string(), t)?,
            None => {
                if self.constraints.is_empty() && self.given.is_empty() {
                    return Err(Error::usage(format!(
                        "give {Threshold} T, or constraints ({Reject}/{Accept}) or {GivenBanding} \
                         to evaluate without one",
                    )));
                }
                for (given, needs) in [
                    (
                        self.similarities.is_some(),
                        format!("{Pairs}, {Similarities} and {Truth} need"),
                    ),
                    (self.budget.is_some(), format!("{Budget} needs")),
                    (self.export.is_some(), format!("{Export} needs")),
                    (
                        self.max_false_removal.is_some(),
                        format!("{MaxFalseRemoval} needs"),
                    ),
                ] {
                    if given {
                        return Err(Error::usage(format!("{needs} {Threshold} T")));
                    }
                }
            }
        }
        check_unit(&MinRecall.to_string(), self.min_recall)?;
        if let Some(p) = self.quantiles.iter().find(|p| !(**p > 0.0 && **p < 1.0)) {
            return Err(Error::usage(format!(
                "{Quantiles} are probabilities strictly between 0 and 1, got {p}"
            )));
        }
        for (name, w) in [(FpWeight, self.fp_weight), (FnWeight, self.fn_weight)] {
            if !(w >= 0.0 && w.is_finite()) {
                return Err(Error::usage(format!(
                    "{name} must be a non-negative number, got {w}"
                )));
            }
        }
        if self.fp_weight + self.fn_weight == 0.0 {
            return Err(Error::usage(format!(
                "{FpWeight} and {FnWeight} cannot both be 0: nothing would be minimised",
            )));
        }
        for b in &self.given {
            if b.bands * b.rows > k {
                return Err(Error::usage(format!(
                    "{GivenBanding} {}x{} needs {} permutations but {NumPerm} is {k}: \
                     lower bands or rows, or raise {NumPerm}",
                    b.bands,
                    b.rows,
                    b.bands * b.rows
                )));
            }
        }
        Ok(())
    }
}

/// One row of the report: a banding and why it was picked.
#[derive(Debug, Clone, Serialize)]
pub struct TuneRow {
    /// Short key: `datasketch`, `recall`, `constraints`, `budget` or `given`.
    pub criterion: &'static str,
    /// What the criterion means, in words.
    pub description: String,
    #[serde(flatten)]
    pub curve: CurveSummary,
    /// Permutations computed but never banded: K − b·r, or 0 for a `--for` tool that computes
    /// only the hashes it bands ([`Tool::sizes_signature_from_banding`]).
    pub unused_permutations: usize,
    /// P at every constraint similarity, and whether each bound holds (with constraints).
    pub bounds: Vec<BoundCheck>,
    /// (p, s) with P(s) = p for each requested probability (`--quantiles`).
    pub quantiles: Vec<(f64, f64)>,
    /// Expected behaviour on the given similarities (with --pairs / --similarities).
    pub corpus: Option<CorpusEstimate>,
    /// 95 % intervals of `corpus` when the similarities are a weighted sample of pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampled: Option<SampledIntervals>,
    /// The real candidate count on the corpus under each seed (with --corpus).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_spread: Option<SeedSpread>,
    pub warnings: Vec<String>,
}

/// The corpus whose candidates were counted per seed (with --corpus).
#[derive(Debug, Clone, Serialize)]
pub struct SeedCorpusInfo {
    pub source: String,
    /// Documents in the corpus, and how many were counted (a uniform sample when fewer).
    pub population: usize,
    pub documents: usize,
    pub seeds: Vec<u64>,
    /// Corpus pairs per sample pair: N(N−1) / (n(n−1)), 1 without sampling.
    pub pair_scale: f64,
}

/// The pair similarities the corpus columns are computed on.
#[derive(Debug, Clone, Serialize)]
pub struct CorpusInfo {
    /// The file they came from.
    pub source: String,
    /// Their number (a weighted sum with [`horvitz_thompson`] weights).
    pub pairs: f64,
    pub pairs_at_or_above_threshold: f64,
    /// For a weighted sample: the rows sampled, how many reach t, and the 95 % interval of
    /// `pairs_at_or_above_threshold`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleInfo>,
    /// The lowest Jaccard of a pairs file that a scan's --threshold cut off there: the file
    /// holds no pair below it, so every count and corpus column, corpus-wide estimates
    /// included, covers only pairs at or above it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity_floor: Option<f64>,
}

/// What a weighted sample of pairs holds at the threshold.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SampleInfo {
    pub sampled_pairs: usize,
    pub sampled_at_or_above: usize,
    pub pairs_at_or_above_interval: (f64, f64),
}

/// Everything `lshscope tune` reports.
#[derive(Debug, Clone, Serialize)]
pub struct TuneReport {
    pub num_perm: usize,
    pub family: SketchFamily,
    pub threshold: Option<f64>,
    pub fp_weight: f64,
    pub fn_weight: f64,
    pub min_recall: f64,
    pub constraints: Constraints,
    pub corpus: Option<CorpusInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_corpus: Option<SeedCorpusInfo>,
    /// In order: removal, budget, constraints, recall, datasketch, closest, then the given
    /// bandings, except that a budget row that keeps the removal bound too goes before
    /// removal; a criterion that finds nothing has no row.
    pub rows: Vec<TuneRow>,
    /// Criteria that found no banding, with the reason.
    pub not_found: Vec<String>,
    /// The criterion of the row the export uses (the first row: see `rows` for the order).
    pub chosen: &'static str,
    pub export: Option<ToolExport>,
    pub notes: Vec<String>,
}

impl TuneReport {
    /// The report with `name`'s names for the settings its text names: the rows'
    /// descriptions and warnings, the criteria not found, the notes, and the export's snippet
    /// (whose comments may advise a setting) and notes.
    /// The engine writes them with [`Setting`] tokens; a face calls this before it shows or
    /// serialises the report ([`crate::terms::render_neutral`] gives the engine's own names).
    pub fn name_settings<N: AsRef<str>>(&mut self, name: impl Fn(Setting) -> N) {
        let rename = |text: &mut String| *text = crate::terms::render(text, &name);
        for row in &mut self.rows {
            rename(&mut row.description);
            row.warnings.iter_mut().for_each(rename);
        }
        self.not_found.iter_mut().for_each(rename);
        self.notes.iter_mut().for_each(rename);
        if let Some(export) = &mut self.export {
            rename(&mut export.snippet);
            export.notes.iter_mut().for_each(rename);
        }
    }
}

/// A sample of pairs whose rows stand for all pairs of a corpus (`truth --estimate-pairs`).
#[derive(Debug, Clone)]
enum PairSample {
    /// Uniform draws, each row with its `weight` (`--uniform`, or a file of before
    /// stratification).
    Uniform(Vec<(f64, f64)>),
    /// Drawn by strata of a permissive banding.
    Stratified(StratifiedSample),
}

impl PairSample {
    /// The 95 % intervals of banding (b, r) at t that this design gives.
    fn intervals(&self, bands: usize, rows: usize, t: f64) -> Option<SampledIntervals> {
        match self {
            PairSample::Uniform(weighted) => sampled_intervals(weighted, bands, rows, t),
            PairSample::Stratified(sample) => sample.intervals(bands, rows, t),
        }
    }
}

/// What a stratified sample is, for the notes; and a warning when t is below the threshold
/// its permissive banding was chosen for (pairs between them may fall outside the
/// candidates, so the estimates at t lean on the others stratum and widen).
fn stratified_notes(sample: &StratifiedSample, t: f64) -> Vec<String> {
    use crate::util::numfmt::{decimal, thousands};
    let describe = |s: &crate::analysis::stratified::Stratum| {
        if s.is_census() {
            format!("all {} {}", thousands(s.pairs), s.name)
        } else {
            format!(
                "{} of {} {}",
                thousands(s.similarities.len() as u64),
                thousands(s.pairs),
                s.name
            )
        }
    };
    let mut notes = vec![format!(
        "stratified sample: the candidates of the permissive {} × {} banding (P ≥ {} at \
         Jaccard {}) and the other pairs, sampled apart ({}; {}); each pair counts its \
         stratum's size ÷ its sample size, so the corpus columns estimate all {} pairs and \
         {Budget} counts candidates of the whole corpus",
        sample.banding.bands,
        sample.banding.rows,
        percent_fine(1.0 - crate::analysis::stratified::PERMISSIVE_MISS),
        decimal(sample.threshold),
        describe(&sample.strata[0]),
        describe(&sample.strata[1]),
        thousands(sample.population()),
    )];
    if t < sample.threshold {
        notes.push(format!(
            "t = {t} is below the threshold {} the strata were made for: pairs between them \
             may lie outside the candidates, so recall and precision rest more on the other \
             pairs and their intervals widen; sample again with `truth {} N {} {t}`",
            decimal(sample.threshold),
            EstimatePairs.in_code(),
            Threshold.in_code()
        ));
    } else if t >= sample.threshold + 0.15 {
        // Still unbiased, but most candidates of a banding made for a much lower threshold
        // lie below t, so few draws land where recall and precision at t are decided.
        notes.push(format!(
            "the strata were made for Jaccard {}, well below t = {t}: most drawn candidates lie \
             below t; `truth {} N {} {t}` spends the sample near t and narrows \
             recall and precision",
            decimal(sample.threshold),
            EstimatePairs.in_code(),
            Threshold.in_code()
        ));
    }
    notes
}

/// Pairs found by a banding, reweighted to stand for all pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct InclusionWeighted {
    /// Each found pair at similarity s with weight 1/P₀(s).
    pub distribution: SimilarityDistribution,
    /// Found pairs with P₀(s) = 0 (similarity 0), which no weight can account for: left out.
    pub impossible: usize,
}

/// The Horvitz–Thompson estimator (Horvitz & Thompson, "A generalization of sampling without
/// replacement from a finite universe", JASA 47, 1952) for pairs found by `scan`: a pair with
/// similarity s was found with probability P₀(s) = 1 − (1 − s^r)^b, so weighting it by
/// 1/P₀(s) makes every sum over the found pairs an unbiased estimate of the same sum over all
/// pairs of the corpus. Unbiasedness needs only each pair's own inclusion probability, so it
/// holds although pairs sharing documents are found together; that dependence widens the
/// spread, and rare low-similarity pairs carry large weights.
pub fn horvitz_thompson(found: &[f64], scan: Banding) -> InclusionWeighted {
    let mut impossible = 0usize;
    let weighted: Vec<(f64, f64)> = found
        .iter()
        .filter_map(|&s| {
            let p0 = candidate_probability(s, scan.bands, scan.rows);
            if p0 > 0.0 {
                Some((s, 1.0 / p0))
            } else {
                impossible += 1;
                None
            }
        })
        .collect();
    InclusionWeighted {
        distribution: SimilarityDistribution::from_weighted(weighted),
        impossible,
    }
}

/// Reads the similarities (if any), then computes every row. Errors name the option or the
/// file, line and column.
pub fn build_report(options: &TuneOptions) -> Result<TuneReport> {
    build_report_with(options, None, None, &Progress::new())
}

/// [`build_report`], with every row's real candidate count per seed on `seeds`, and the
/// budget held for the worst seed. `tool_seeds`: the same documents and seeds in the family
/// of the `--for` tool when it is not the tuning's ([`SeedCorpus::in_family`]); the export
/// then says what that family counts at its banding. `progress` cancels the counting.
pub fn build_report_with(
    options: &TuneOptions,
    seeds: Option<&SeedCorpus>,
    tool_seeds: Option<&SeedCorpus>,
    progress: &Progress,
) -> Result<TuneReport> {
    options.validate()?;
    let k = options.num_perm;
    let threshold = options.threshold;
    // Everything that needs t (similarities, budget, export) was refused without one.
    let t = threshold.unwrap_or(f64::NAN);
    let constraints = options.constraints.clone();

    let mut notes = Vec::new();
    let mut similarity_floor = None;
    // A weighted sample of pairs (`truth --estimate-pairs`): its rows, for intervals.
    let mut sample_rows: Option<PairSample> = None;
    let (corpus, distribution) = match &options.similarities {
        None => (None, None),
        Some(source) => {
            let path = source.path();
            let plain_list = matches!(source, PairSimilarities::Similarities(_));
            let stratified = match source {
                PairSimilarities::Similarities(_) => {
                    crate::analysis::stratified::read_stratified(path)?
                }
                _ => None,
            };
            let weighted = match &stratified {
                Some(sample) => sample.weighted_rows(),
                None => crate::pairs::read_weighted_similarities(path, plain_list)?,
            };
            let values: Vec<f64> = weighted.iter().map(|&(s, _)| s).collect();
            let distribution = match source {
                PairSimilarities::Truth(_) => {
                    notes.extend(truth_notes(&values, t));
                    SimilarityDistribution::from_similarities(&values)
                }
                PairSimilarities::ScanPairs { scan_banding, .. } => {
                    // Said whatever else is given: --scan-banding corrects for the pairs the
                    // scan's banding missed, not for those its --threshold dropped.
                    similarity_floor = thresholded_floor(&values);
                    notes.extend(similarity_floor.map(|lowest| thresholded_note(lowest, t)));
                    match scan_banding {
                        Some(scan) => {
                            let weighted = horvitz_thompson(&values, *scan);
                            let covered = match similarity_floor {
                                Some(lowest) => format!(
                                    "all pairs of the corpus with Jaccard ≥ {} (the lowest in the \
                                     pairs file; the scan dropped those below it), so expected \
                                     candidates and precision describe that range only",
                                    crate::util::numfmt::decimal(lowest)
                                ),
                                None => "all pairs of the corpus".to_string(),
                            };
                            notes.push(format!(
                                "each pair weighted by 1/P₀(s) for the scan's {} × {} banding: \
                                 the corpus columns estimate {covered}; rare low-similarity \
                                 pairs carry large weights, so those estimates are noisy",
                                scan.bands, scan.rows
                            ));
                            if weighted.impossible > 0 {
                                notes.push(format!(
                                    "{} {} with P₀(s) = 0 (similarity 0) {} left out",
                                    crate::util::numfmt::thousands(weighted.impossible as u64),
                                    for_count(weighted.impossible as u64, "pair", "pairs"),
                                    for_count(weighted.impossible as u64, "was", "were")
                                ));
                            }
                            weighted.distribution
                        }
                        None => SimilarityDistribution::from_similarities(&values),
                    }
                }
                PairSimilarities::Similarities(_) if stratified.is_some() => {
                    let sample = stratified.expect("matched");
                    notes.extend(stratified_notes(&sample, t));
                    sample_rows = Some(PairSample::Stratified(sample));
                    SimilarityDistribution::from_weighted(weighted)
                }
                PairSimilarities::Similarities(_) if weighted.iter().any(|&(_, w)| w != 1.0) => {
                    sample_rows = Some(PairSample::Uniform(weighted.clone()));
                    let distribution = SimilarityDistribution::from_weighted(weighted);
                    notes.push(format!(
                        "each sampled pair counts its `weight` times: the corpus columns \
                         estimate all {} pairs it was sampled from, so {Budget} counts \
                         candidates of the whole corpus",
                        crate::util::numfmt::estimated_count(distribution.total())
                    ));
                    distribution
                }
                PairSimilarities::Similarities(_) => {
                    SimilarityDistribution::from_similarities(&values)
                }
            };
            (Some(path.display().to_string()), Some(distribution))
        }
    };
    if options.budget.is_some() && distribution.is_none() && seeds.is_none() {
        return Err(Error::usage(format!(
            "{Budget} needs pair similarities or a corpus: give {Pairs} FILE, \
             {Similarities} FILE or {Corpus} FILE",
        )));
    }
    if let Some(b) = options.budget
        && !(b >= 0.0 && b.is_finite())
    {
        return Err(Error::usage(format!(
            "{Budget} must be a non-negative number of pairs, got {b}"
        )));
    }

    let mut rows = Vec::new();
    let mut not_found = Vec::new();
    // The picks for an export are searched among the bandings its tool takes.
    let takes = |b: usize, r: usize| options.export.is_none_or(|tool| tool.takes(b, r));
    notes.extend(options.export.and_then(Tool::search_note));
    let make_row = |criterion: &'static str, description: String, b: usize, r: usize| {
        let curve = summarize(b, r, threshold);
        let sampled = sample_rows.as_ref().and_then(|s| s.intervals(b, r, t));
        let corpus = distribution.as_ref().map(|d| {
            let mut estimate = corpus_estimate(d, b, r, t);
            // With no pair at or above t, the share of candidates at or above t is 0 by
            // definition but says nothing about the banding: undefined, like recall.
            if estimate.pairs_at_or_above <= 0.0 {
                estimate.expected_precision = None;
            }
            // From a handful of sampled pairs at or above t, recall and precision at t are
            // not results: left out, and the notes say why.
            if sampled.is_some_and(|s| !s.threshold_is_measurable()) {
                estimate.expected_recall = None;
                estimate.expected_precision = None;
            }
            estimate
        });
        let mut warnings = Vec::new();
        // K bounds the search either way, but a tool that sizes its signature from the
        // banding never computes the rest.
        let unused_permutations = if options
            .export
            .is_some_and(Tool::sizes_signature_from_banding)
        {
            0
        } else {
            k - b * r
        };
        if unused_permutations > 0 {
            warnings.push(format!(
                "uses {} of {k} permutations: {unused_permutations} computed but never banded",
                b * r
            ));
        }
        if let Some(p) = curve.probability_at_threshold
            && p < 0.5
        {
            warnings.push(format!(
                "P(t = {t}) = {:.1} %: most pairs at the threshold are missed",
                100.0 * p
            ));
        }
        TuneRow {
            criterion,
            description,
            curve,
            unused_permutations,
            bounds: constraints.check(b, r),
            quantiles: quantiles(b, r, &options.quantiles),
            corpus,
            sampled,
            seed_spread: None,
            warnings,
        }
    };

    if let Some(bound) = options.removal_bound() {
        match best_recall_with_removal_bound_among(k, t, bound, &takes) {
            Some((b, r)) => {
                let mut row = make_row(
                    "removal",
                    format!(
                        "for a tool that removes every candidate: the highest P(t) that removes \
                         pairs at {} with P ≤ {}",
                        crate::util::numfmt::decimal(bound.similarity),
                        percent_fine(bound.probability)
                    ),
                    b,
                    r,
                );
                if let Some(e) = &row.corpus
                    && let Some(precision) = e.expected_precision
                {
                    row.warnings.push(format!(
                        "{} of the candidate pairs (all removed) are expected below t",
                        percent_fine(1.0 - precision)
                    ));
                }
                rows.push(row);
            }
            None => not_found.push(format!(
                "removal: no banding with b·r ≤ {k} removes pairs at {} with P ≤ {}",
                crate::util::numfmt::decimal(bound.similarity),
                percent_fine(bound.probability)
            )),
        }
    }
    match (seeds, &distribution, options.budget) {
        (Some(seeds), _, Some(budget)) => {
            // Rank by expected recall when similarities are given, else by P(t).
            let rank = |b: usize, r: usize| match &distribution {
                // Refused bandings rank last, and a refused pick counts as none (the pick
                // has the most bands within the budget for its r, so b < 2 only if r's do).
                _ if !takes(b, r) => f64::NEG_INFINITY,
                Some(d) => corpus_estimate(d, b, r, t).expected_recall.unwrap_or(0.0),
                None => candidate_probability(t, b, r),
            };
            let pick = seeds.best_within_budget(k, budget, rank, progress)?;
            match pick.filter(|p| takes(p.banding.bands, p.banding.rows)) {
                Some(pick) => {
                    let mut row = make_row(
                        "budget",
                        format!(
                            "highest {} with at most {} candidate pairs on the corpus for {}",
                            if distribution.is_some() {
                                "expected recall at t"
                            } else {
                                "P(t)"
                            },
                            crate::util::numfmt::thousands(budget as u64),
                            match seeds.seeds.len() {
                                1 => "its seed".to_string(),
                                n => format!("every one of {n} seeds"),
                            },
                        ) + match seeds.sampled() {
                            true => " (the top of its 95 % interval, estimated from a sample)",
                            false => "",
                        },
                        pick.banding.bands,
                        pick.banding.rows,
                    );
                    row.seed_spread = Some(pick.spread);
                    rows.push(row);
                }
                None => not_found.push(format!(
                    "budget: every banding with b·r ≤ {k} gives more than {} candidates on the \
                     corpus for some seed{}",
                    crate::util::numfmt::thousands(budget as u64),
                    match seeds.sampled() {
                        true => format!(
                            ", at the top of its 95 % interval (a larger {Sample} narrows the \
                             interval)"
                        ),
                        false => format!(" (or more than lshscope counts: use {Sample})"),
                    }
                )),
            }
        }
        (None, Some(d), Some(budget)) => {
            let intervals = sample_rows
                .as_ref()
                .map(|s| move |b: usize, r: usize| s.intervals(b, r, t));
            let intervals: Option<&SampleIntervals<'_>> = intervals.as_ref().map(|f| f as _);
            match best_recall_within_budget_among(d, k, t, budget, intervals, &takes) {
                Some((b, r, _)) => rows.push(make_row(
                    "budget",
                    if sample_rows.is_some() {
                        format!(
                            "highest expected recall at t with the top of the 95 % interval of \
                             expected candidates within {}",
                            crate::util::numfmt::thousands(budget as u64)
                        )
                    } else {
                        format!(
                            "highest expected recall at t with at most {} expected candidates",
                            crate::util::numfmt::thousands(budget as u64)
                        )
                    },
                    b,
                    r,
                )),
                None if d.at_or_above(t) == 0.0 => not_found.push(format!(
                    "budget: no pair in the similarities reaches t = {t}, so recall is undefined"
                )),
                None => not_found.push(format!(
                    "budget: every banding with b·r ≤ {k} expects more than {} candidates",
                    crate::util::numfmt::thousands(budget as u64)
                )),
            }
        }
        _ => {}
    }
    let mut closest = None;
    if !constraints.is_empty() {
        let description = describe_constraints(&constraints);
        match constraint_search_among(k, &constraints, &takes).first() {
            Some(&(b, r)) => rows.push(make_row("constraints", description, b, r)),
            None => {
                let more = match smallest_num_perm_for_among(
                    &constraints,
                    k,
                    MAX_NUM_PERM_SEARCHED,
                    &takes,
                ) {
                    Some((needed, b, r)) => {
                        format!("raise {NumPerm} to {needed} ({b} × {r} meets them)")
                    }
                    None => format!(
                        "no K up to {MAX_NUM_PERM_SEARCHED} meets them either: loosen a bound"
                    ),
                };
                not_found.push(format!(
                    "constraints: no banding with b·r ≤ {k} meets {description}; {more}"
                ));
                if let Some((b, r, _)) = closest_to_constraints_among(k, &constraints, &takes) {
                    let mut row = make_row(
                        "closest",
                        "the banding that misses the constraints least (the sum of the \
                         log-factors by which it misses each bound)"
                            .to_string(),
                        b,
                        r,
                    );
                    for c in row.bounds.iter().filter(|c| !c.met) {
                        row.warnings.push(format!(
                            "{} bound missed: P({}) = {} against {} {}",
                            c.kind,
                            c.similarity,
                            percent_fine(c.probability),
                            if c.kind == "reject" { "≤" } else { "≥" },
                            percent_fine(c.bound)
                        ));
                    }
                    // Listed after the other criteria: a banding that breaks a bound the
                    // user set is shown, never chosen for an export.
                    closest = Some(row);
                }
            }
        }
    }
    if threshold.is_some() {
        match sharpest_with_probability_at_among(k, t, options.min_recall, &takes) {
            Some((b, r)) => rows.push(make_row(
                "recall",
                format!(
                    "P(t) ≥ {}, then the least false-positive area",
                    options.min_recall
                ),
                b,
                r,
            )),
            None => not_found.push(format!(
                "recall: no banding with b·r ≤ {k} reaches P({t}) ≥ {}",
                options.min_recall
            )),
        }
        let (b, r) = datasketch_optimal_params(t, k, options.fp_weight, options.fn_weight);
        let mut row = make_row(
            "datasketch",
            format!(
                "datasketch's pick: min {}·∫₀ᵗP + {}·∫ₜ¹(1−P) (uniform similarities)",
                options.fp_weight, options.fn_weight
            ),
            b,
            r,
        );
        // datasketch/lsh.py (MinHashLSH.__init__) refuses weights outside [0, 1] or whose
        // float sum is not exactly 1.0, and any b < 2, including its own pick.
        let (fp, fn_) = (options.fp_weight, options.fn_weight);
        if fp + fn_ != 1.0 || fp > 1.0 || fn_ > 1.0 {
            row.warnings.push(format!(
                "datasketch raises ValueError for weights ({fp}, {fn_}): they must lie in [0, 1] \
                 and sum to 1.0; this is its pick for the weights scaled to sum to 1 \
                 ({}, {}), which give the same banding",
                crate::util::numfmt::decimal(fp / (fp + fn_)),
                crate::util::numfmt::decimal(fn_ / (fp + fn_))
            ));
        }
        if b < 2 {
            row.warnings.push(
                "datasketch raises ValueError for its own pick here (b < 2: \"The number of \
                 bands are too small\")"
                    .to_string(),
            );
        }
        rows.push(row);
    } else {
        notes.push(format!(
            "no {Threshold}: only the constraint search and the given bandings (the recall \
             and datasketch criteria need t)"
        ));
    }
    rows.extend(closest);
    for g in &options.given {
        rows.push(make_row(
            "given",
            format!("the banding given with {GivenBanding}"),
            g.bands,
            g.rows,
        ));
    }

    // For a tool that removes every candidate, a budget row that also keeps the removal bound
    // goes first: both limits hold, and it has the highest expected recall within the budget.
    let removal_bound = options.removal_bound();
    if let Some(bound) = removal_bound
        && rows.first().is_some_and(|row| row.criterion == "removal")
        && let Some(i) = rows
            .iter()
            .position(|row| row.criterion == "budget" && keeps_removal_bound(row, bound))
    {
        let budget_row = rows.remove(i);
        rows.insert(0, budget_row);
    }
    let Some(chosen_row) = rows.first() else {
        // Only without a threshold: the constraints were infeasible and nothing was given.
        return Err(Error::usage(format!(
            "no banding to show: {}",
            not_found.join("; ")
        )));
    };
    let chosen = chosen_row.criterion;
    let mut export = options.export.map(|tool| {
        export_for(
            tool,
            chosen,
            &chosen_row.curve,
            k,
            t,
            options.shingle,
            options.family,
        )
    });
    if let Some(d) = &distribution
        && d.at_or_above(t) <= 0.0
    {
        notes.push(format!(
            "no pair in {} reaches t = {t}: recall and precision at t are undefined (n/a); \
             lower t, or give more pairs (a larger {EstimatePairs} sample, a scan with {Threshold} 0)",
            options
                .similarities
                .as_ref()
                .map_or("the similarities".to_string(), |s| s
                    .path()
                    .display()
                    .to_string())
        ));
    }

    if let Some(PairSimilarities::ScanPairs {
        scan_banding: None, ..
    }) = options.similarities
    {
        notes.push(format!(
            "pairs from a scan hold only the pairs that scan's banding found (and kept at its \
             {Threshold}): expected candidates and recall count those pairs, not pairs it \
             missed; give {ScanBanding} BxR to correct for the missed ones"
        ));
    }
    let mut seed_corpus = None;
    if let Some(seeds) = seeds {
        for row in rows.iter_mut().filter(|row| row.seed_spread.is_none()) {
            let banding = Banding {
                bands: row.curve.bands,
                rows: row.curve.rows,
            };
            row.seed_spread = Some(seeds.spread(banding, progress)?);
        }
        for row in &mut rows {
            row.warnings
                .extend(seed_spread_warning(row.seed_spread.as_ref()));
        }
        if seeds.sampled() {
            notes.push(format!(
                "candidate counts per seed were counted on a uniform sample of {} of {} \
                 documents and multiplied by N(N−1)/(n(n−1)) = {:.2}: estimates of the \
                 corpus's counts; every seed shares the sample's error, so each count carries \
                 its 95 % sampling interval{}",
                crate::util::numfmt::thousands(seeds.documents as u64),
                crate::util::numfmt::thousands(seeds.population as u64),
                seeds.pair_scale(),
                match options.budget {
                    Some(_) =>
                        format!(" and {Budget} holds for the top of the worst seed's interval"),
                    None => String::new(),
                }
            ));
        }
        seed_corpus = Some(SeedCorpusInfo {
            source: seeds.source.clone(),
            population: seeds.population,
            documents: seeds.documents,
            seeds: seeds.seeds.clone(),
            pair_scale: seeds.pair_scale(),
        });
    }
    if let (Some(export), Some(tool_seeds), Some(tuned)) = (
        &mut export,
        tool_seeds,
        rows.first().and_then(|row| row.seed_spread.as_ref()),
    ) && tool_seeds.family != options.family
    {
        let banding = Banding {
            bands: rows[0].curve.bands,
            rows: rows[0].curve.rows,
        };
        let tools = tool_seeds.spread(banding, progress)?;
        export.notes.push(export::family_measured_note(
            export.tool,
            banding,
            (options.family, tuned),
            &tools,
        ));
    }
    if let (Some(tool), Some(bound)) = (options.export, removal_bound)
        && rows.iter().any(|row| row.criterion == "removal")
    {
        notes.push(removal_export_note(tool, bound, &rows, options.budget));
    }
    // Any banding gives the same counts at t; (1, 1) is one that always exists.
    let sample_info = sample_rows
        .as_ref()
        .and_then(|s| s.intervals(1, 1, t))
        .map(|s| SampleInfo {
            sampled_pairs: s.sampled_pairs,
            sampled_at_or_above: s.sampled_at_or_above,
            pairs_at_or_above_interval: s.pairs_at_or_above,
        });
    // (With none at all, the note on a t that no pair reaches says it.)
    if let Some(s) = &sample_info
        && (1..MIN_SAMPLED_AT_THRESHOLD).contains(&s.sampled_at_or_above)
    {
        notes.push(format!(
            "only {} of the {} sampled pairs {} Jaccard ≥ {t}: too few to estimate \
             recall and precision at t (left out; they need {MIN_SAMPLED_AT_THRESHOLD}), and \
             the count at or above t is uncertain (see its interval). Sample more pairs \
             (`truth {}`), or run `truth` for the exact pairs above t",
            s.sampled_at_or_above,
            crate::util::numfmt::thousands(s.sampled_pairs as u64),
            for_count(s.sampled_at_or_above as u64, "has", "have"),
            EstimatePairs.in_code(),
        ));
    }
    let corpus = match (corpus, &distribution) {
        // `+ 0.0` turns the -0.0 of an empty float sum into 0.
        (Some(source), Some(d)) => Some(CorpusInfo {
            source,
            pairs: d.total() + 0.0,
            pairs_at_or_above_threshold: d.at_or_above(t) + 0.0,
            sample: sample_info,
            similarity_floor,
        }),
        _ => None,
    };
    Ok(TuneReport {
        num_perm: k,
        family: options.family,
        threshold,
        fp_weight: options.fp_weight,
        fn_weight: options.fn_weight,
        min_recall: options.min_recall,
        constraints,
        corpus,
        seed_corpus,
        rows,
        not_found,
        chosen,
        export,
        notes,
    })
}

/// Whether `row` removes pairs at the bound's similarity with at most its probability.
fn keeps_removal_bound(row: &TuneRow, bound: ProbabilityBound) -> bool {
    candidate_probability(bound.similarity, row.curve.bands, row.curve.rows) <= bound.probability
}

/// Which row `--for` exports when a removal bound applies, and why: the `removal` row, ahead
/// of the `budget` or `constraints` row the user asked for (and whether it breaks the
/// budget), or the `budget` row when that keeps the bound too. `rows[0]` is the exported row.
fn removal_export_note(
    tool: Tool,
    bound: ProbabilityBound,
    rows: &[TuneRow],
    budget: Option<f64>,
) -> String {
    let s = crate::util::numfmt::decimal(bound.similarity);
    let banding = |row: &TuneRow| format!("{} × {}", row.curve.bands, row.curve.rows);
    let removal_at_bound = |row: &TuneRow| {
        percent_fine(candidate_probability(
            bound.similarity,
            row.curve.bands,
            row.curve.rows,
        ))
    };
    let chosen = &rows[0];
    if chosen.criterion == "budget" {
        let whose = if tool.verifies() {
            format!("the {MaxFalseRemoval} bound")
        } else {
            format!(
                "the bound {} needs (it removes every candidate without a Jaccard check)",
                tool.name()
            )
        };
        return format!(
            "{Export} exports the `budget` row ({}), not `removal`: it keeps the budget and removes \
             pairs at {s} with P = {}, within {} of {whose}",
            banding(chosen),
            removal_at_bound(chosen),
            percent_fine(bound.probability)
        );
    }
    let why = if tool.verifies() {
        format!(
            "{MaxFalseRemoval} bounds false removals to P({s}) ≤ {}",
            percent_fine(bound.probability)
        )
    } else {
        format!(
            "{} removes every candidate without a Jaccard check, so false removals must stay \
             within P({s}) ≤ {} ({MaxFalseRemoval})",
            tool.name(),
            percent_fine(bound.probability)
        )
    };
    let mut note = format!(
        "{Export} exports the `removal` row ({}): {why}",
        banding(chosen)
    );
    for row in rows[1..]
        .iter()
        .filter(|row| matches!(row.criterion, "budget" | "constraints"))
    {
        note.push_str(&format!(
            "; the `{}` row ({}) is not exported: it removes pairs at {s} with P = {}",
            row.criterion,
            banding(row),
            removal_at_bound(row)
        ));
    }
    // The budget holds for the worst seed with --corpus, else for the expectation.
    let candidates = match (&chosen.seed_spread, &chosen.corpus) {
        (Some(spread), _) if spread.estimated() => spread.high.map(|n| {
            (
                n,
                "candidate pairs at the top of the worst seed's 95 % interval",
            )
        }),
        (Some(spread), _) => spread
            .max
            .map(|n| (n, "candidate pairs for the worst seed")),
        (None, Some(c)) => Some((c.expected_candidates, "expected candidate pairs")),
        (None, None) => None,
    };
    if let (Some(budget), Some((candidates, what))) = (budget, candidates)
        && candidates > budget
    {
        note.push_str(&format!(
            "; its {} {what} exceed {Budget} {}: raise the budget or loosen \
             {MaxFalseRemoval}",
            crate::util::numfmt::thousands(candidates.round() as u64),
            crate::util::numfmt::thousands(budget as u64)
        ));
    }
    note
}

/// A warning when a row's candidate count swings with the seed beyond chance (budget for the
/// worst seed), or when some seed's count is unknown.
fn seed_spread_warning(spread: Option<&SeedSpread>) -> Option<String> {
    let spread = spread?;
    if spread.incomplete() {
        return Some(format!(
            "for some seeds the candidate count passed what lshscope counts ({} bucket pairs): \
             count on a {Sample}",
            crate::util::numfmt::compact(crate::minhash::collisions::DEFAULT_MAX_BUCKET_PAIRS)
        ));
    }
    spread.beyond_chance().then(|| {
        format!(
            "candidate count swings from {} to {} across {} seeds, far beyond chance (pairs that \
             share boilerplate collide together): budget for the worst seed",
            spread.show(spread.min.unwrap_or(0.0)),
            spread.show(spread.max.unwrap_or(0.0)),
            spread.seeds.len()
        )
    })
}

/// The lowest Jaccard of a scan's pairs file when it is high enough that the scan ran with
/// --threshold ([`THRESHOLDED_PAIRS_HINT`]): the file holds no pair below it. `tune --pairs`
/// and `plot histogram` point such a file out.
pub fn thresholded_floor(values: &[f64]) -> Option<f64> {
    crate::analysis::recall::truth_floor(values.iter().copied())
        .filter(|&lowest| lowest >= THRESHOLDED_PAIRS_HINT)
}

/// The note for a pairs file whose pairs start at `lowest` ([`thresholded_floor`]).
fn thresholded_note(lowest: f64, t: f64) -> String {
    let counted = if lowest >= t {
        format!(
            "expected candidates count only pairs at or above it, and with all of them at or \
             above t = {t} precision is 100 % by construction"
        )
    } else {
        "expected candidates and precision count only pairs at or above it".to_string()
    };
    format!(
        "the lowest Jaccard in the pairs file is {}: a scan with {Threshold} drops the pairs \
         below it, so {counted}; tune on a scan run with {Threshold} 0",
        crate::util::numfmt::decimal(lowest)
    )
}

/// What a truth file's similarities mean for the corpus columns: only pairs at or above its
/// floor ([`crate::analysis::recall::truth_floor`]) are in it.
fn truth_notes(values: &[f64], t: f64) -> Vec<String> {
    let mut notes = Vec::new();
    let lowest =
        crate::analysis::recall::truth_floor(values.iter().copied()).unwrap_or(f64::INFINITY);
    if lowest > t {
        notes.push(format!(
            "the truth file's lowest Jaccard is {lowest:.3}, above t = {t}: pairs \
             between t and {lowest:.3} are missing, so recall@t counts only the pairs \
             at or above {lowest:.3}"
        ));
    }
    notes.push(
        "truth pairs hold only pairs at or above the join threshold: recall@t is the \
         expected recall on them; expected candidates and precision count only those \
         pairs, not the many dissimilar pairs a banding also lets through"
            .to_string(),
    );
    notes
}

fn describe_constraints(c: &Constraints) -> String {
    let mut parts = Vec::new();
    for b in &c.reject {
        parts.push(format!(
            "P({}) ≤ {}",
            b.similarity,
            percent_fine(b.probability)
        ));
    }
    for b in &c.accept {
        parts.push(format!(
            "P({}) ≥ {}",
            b.similarity,
            percent_fine(b.probability)
        ));
    }
    parts.join(", ") + ", fewest hashes, then steepest"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::tune::ProbabilityBound;
    use crate::util::rng::SplitMix64;

    #[test]
    fn horvitz_thompson_by_hand() {
        // With 1 band of 1 row, P₀(s) = s: a pair at 0.5 stands for 2 pairs, one at 0.25 for
        // 4, and a pair at similarity 0 cannot be weighted.
        let w = horvitz_thompson(&[0.5, 0.25, 0.0, 0.5], Banding { bands: 1, rows: 1 });
        assert_eq!(w.impossible, 1);
        assert_eq!(w.distribution.points(), &[(0.25, 4.0), (0.5, 4.0)]);
        assert_eq!(w.distribution.total(), 8.0);
    }

    /// The corrected sums are unbiased: over many simulated scans of one population, where
    /// each pair is found independently with probability P₀(s), the mean estimate of the
    /// population's totals lies within 4 standard errors of the truth.
    #[test]
    fn horvitz_thompson_is_unbiased_on_simulated_scans() {
        let scan = Banding { bands: 8, rows: 4 };
        let other = Banding { bands: 16, rows: 4 };
        let t = 0.7;
        let mut rng = SplitMix64::new(2024);
        // 3000 pairs, similarities spread over [0.1, 1]: P₀ runs from 0.0008 to 1.
        let population: Vec<f64> = (0..3000).map(|_| 0.1 + 0.9 * rng.unit()).collect();
        let p0 = |s: f64| candidate_probability(s, scan.bands, scan.rows);
        // Three totals and the variance of their HT estimates under independent inclusion:
        // Var = Σ y² (1 − p) / p for a sum of y over the population.
        let sums = |y: &dyn Fn(f64) -> f64| {
            let total: f64 = population.iter().map(|&s| y(s)).sum();
            let var: f64 = population
                .iter()
                .map(|&s| y(s) * y(s) * (1.0 - p0(s)) / p0(s))
                .sum();
            (total, var)
        };
        let all = sums(&|_| 1.0);
        let above = sums(&|s| if s >= t { 1.0 } else { 0.0 });
        let candidates = sums(&|s| candidate_probability(s, other.bands, other.rows));

        const TRIALS: usize = 400;
        let (mut est_all, mut est_above, mut est_candidates) = (0.0, 0.0, 0.0);
        let mut found_pairs = 0usize;
        for _ in 0..TRIALS {
            let found: Vec<f64> = population
                .iter()
                .copied()
                .filter(|&s| rng.unit() < p0(s))
                .collect();
            found_pairs += found.len();
            let w = horvitz_thompson(&found, scan);
            assert_eq!(w.impossible, 0);
            est_all += w.distribution.total();
            est_above += w.distribution.at_or_above(t);
            est_candidates +=
                corpus_estimate(&w.distribution, other.bands, other.rows, t).expected_candidates;
        }
        for (name, estimate, (truth, var)) in [
            ("pairs", est_all, all),
            ("pairs at or above t", est_above, above),
            ("expected candidates", est_candidates, candidates),
        ] {
            let mean = estimate / TRIALS as f64;
            let standard_error = (var / TRIALS as f64).sqrt();
            assert!(
                (mean - truth).abs() < 4.0 * standard_error,
                "{name}: mean estimate {mean} vs {truth} (standard error {standard_error})"
            );
        }
        // Without the weights the found pairs stand for about half the population.
        let found_share = found_pairs as f64 / TRIALS as f64 / all.0;
        assert!((0.45..0.6).contains(&found_share), "{found_share}");
    }

    #[test]
    fn report_rows_follow_the_criteria_in_order() {
        let mut options = TuneOptions::new(0.8);
        options.constraints.reject.push(ProbabilityBound {
            similarity: 0.3,
            probability: 0.01,
        });
        options.given.push(Banding { bands: 20, rows: 5 });
        options.export = Some(Tool::Datatrove);
        let report = build_report(&options).unwrap();
        let criteria: Vec<&str> = report.rows.iter().map(|r| r.criterion).collect();
        assert_eq!(criteria, ["constraints", "recall", "datasketch", "given"]);
        assert_eq!(report.chosen, "constraints");
        let export = report.export.unwrap();
        assert_eq!(export.criterion, "constraints");
        let c = &report.rows[0].curve;
        assert_eq!(
            export.parameters[1],
            ("num_buckets".to_string(), serde_json::json!(c.bands))
        );
        assert!(report.corpus.is_none() && report.notes.is_empty());

        options.budget = Some(10.0);
        let e = build_report(&options).unwrap_err().to_string();
        assert!(e.contains("`budget` needs pair similarities"), "{e}");
        options.num_perm = 0;
        assert!(options.validate().is_err());
    }
}
