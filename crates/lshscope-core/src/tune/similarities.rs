//! The pair similarities that weight the corpus columns: samples of pairs and their
//! intervals, the inclusion weights of a scan's pairs, and what a pairs or truth file covers.

use crate::analysis::stratified::StratifiedSample;
use crate::minhash::Banding;
use crate::minhash::scurve::candidate_probability;
use crate::minhash::tune::{SampledIntervals, SimilarityDistribution, sampled_intervals};
use crate::terms::Setting::{Budget, EstimatePairs, Threshold};
use crate::util::numfmt::percent_fine;

/// A pairs file whose lowest Jaccard is at least this probably comes from a scan with
/// --threshold: a scan at threshold 0 nearly always has candidates far below it.
pub const THRESHOLDED_PAIRS_HINT: f64 = 0.1;

/// A sample of pairs whose rows stand for all pairs of a corpus (`truth --estimate-pairs`).
#[derive(Debug, Clone)]
pub(super) enum PairSample {
    /// Uniform draws, each row with its `weight` (`--uniform`, or a file of before
    /// stratification).
    Uniform(Vec<(f64, f64)>),
    /// Drawn by strata of a permissive banding.
    Stratified(StratifiedSample),
}

impl PairSample {
    /// The 95 % intervals of banding (b, r) at t that this design gives.
    pub(super) fn intervals(&self, bands: usize, rows: usize, t: f64) -> Option<SampledIntervals> {
        match self {
            PairSample::Uniform(weighted) => sampled_intervals(weighted, bands, rows, t),
            PairSample::Stratified(sample) => sample.intervals(bands, rows, t),
        }
    }
}

/// What a stratified sample is, for the notes; and a warning when t is below the threshold
/// its permissive banding was chosen for (pairs between them may fall outside the
/// candidates, so the estimates at t lean on the others stratum and widen).
pub(super) fn stratified_notes(sample: &StratifiedSample, t: f64) -> Vec<String> {
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

/// The lowest Jaccard of a scan's pairs file when it is high enough that the scan ran with
/// --threshold ([`THRESHOLDED_PAIRS_HINT`]): the file holds no pair below it. `tune --pairs`
/// and `plot histogram` point such a file out.
pub fn thresholded_floor(values: &[f64]) -> Option<f64> {
    crate::analysis::recall::truth_floor(values.iter().copied())
        .filter(|&lowest| lowest >= THRESHOLDED_PAIRS_HINT)
}

/// The note for a pairs file whose pairs start at `lowest` ([`thresholded_floor`]).
pub(super) fn thresholded_note(lowest: f64, t: f64) -> String {
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
pub(super) fn truth_notes(values: &[f64], t: f64) -> Vec<String> {
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
