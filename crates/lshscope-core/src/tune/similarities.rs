//! The pair similarities that weight the corpus columns: samples of pairs and their
//! intervals, the inclusion weights of a scan's pairs, and what a pairs or truth file covers.

use std::path::Path;

use super::{PairSimilarities, SampleInfo};
use crate::Result;
use crate::analysis::stratified::StratifiedSample;
use crate::minhash::Banding;
use crate::minhash::scurve::candidate_probability;
use crate::minhash::tune::{
    MIN_SAMPLED_AT_THRESHOLD, SampledIntervals, SimilarityDistribution, sampled_intervals,
};
use crate::terms::Setting::{
    Budget, Corpus, EstimatePairs, Pairs, ScanBanding, Seeds, Threshold, Truth,
};
use crate::util::numfmt::{for_count, percent_fine, thousands};

/// A pairs file whose lowest Jaccard is at least this probably comes from a scan with
/// --threshold: a scan at threshold 0 nearly always has candidates far below it.
pub const THRESHOLDED_PAIRS_HINT: f64 = 0.1;

/// The pair similarities of a report, read: what the corpus columns are computed on, and
/// what the notes say they cover.
#[derive(Debug, Clone)]
pub(super) struct Evidence {
    /// The file they came from, as the report names it.
    pub(super) source: String,
    /// Every pair's similarity with its weight.
    pub(super) distribution: SimilarityDistribution,
    /// The lowest Jaccard of a scan's pairs file that the scan's --threshold cut off
    /// ([`thresholded_floor`]).
    pub(super) floor: Option<f64>,
    /// A weighted sample of pairs (`truth --estimate-pairs`): its rows, for intervals.
    pub(super) sample: Option<PairSample>,
    /// What the similarities cover, in the order the report says it.
    pub(super) notes: Vec<String>,
}

impl Evidence {
    /// Reads `source`'s file; `t` is the threshold the notes measure it against. Errors name
    /// the file, line and column.
    pub(super) fn read(source: &PairSimilarities, t: f64) -> Result<Evidence> {
        match source {
            PairSimilarities::Truth(path) => Evidence::of_truth(path, t),
            PairSimilarities::ScanPairs { path, scan_banding } => {
                Evidence::of_scan_pairs(path, *scan_banding, t)
            }
            PairSimilarities::Similarities(path) => Evidence::of_similarities(path, t),
        }
    }

    /// A truth file: each pair once (a `truth` join: every pair from its threshold up; `gen
    /// --truth`: the planted pairs).
    fn of_truth(path: &Path, t: f64) -> Result<Evidence> {
        let values = similarities_of(&crate::pairs::read_weighted_similarities(path, false)?);
        Ok(Evidence {
            distribution: SimilarityDistribution::from_similarities(&values),
            notes: truth_notes(&values, t),
            ..Evidence::empty(path)
        })
    }

    /// A scan's pairs, each weighted by 1/P₀(s) when the scan's banding is given.
    fn of_scan_pairs(path: &Path, scan_banding: Option<Banding>, t: f64) -> Result<Evidence> {
        let values = similarities_of(&crate::pairs::read_weighted_similarities(path, false)?);
        // Said whatever else is given: --scan-banding corrects for the pairs the scan's
        // banding missed, not for those its --threshold dropped.
        let floor = thresholded_floor(&values);
        let mut notes: Vec<String> = floor
            .map(|lowest| thresholded_note(lowest, t))
            .into_iter()
            .collect();
        let distribution = match scan_banding {
            Some(scan) => {
                let weighted = horvitz_thompson(&values, scan);
                notes.push(inclusion_weights_note(scan, floor));
                if weighted.impossible > 0 {
                    let impossible = weighted.impossible as u64;
                    notes.push(format!(
                        "{} {} with P₀(s) = 0 (similarity 0) {} left out",
                        thousands(impossible),
                        for_count(impossible, "pair", "pairs"),
                        for_count(impossible, "was", "were")
                    ));
                }
                weighted.distribution
            }
            None => SimilarityDistribution::from_similarities(&values),
        };
        Ok(Evidence {
            distribution,
            floor,
            notes,
            ..Evidence::empty(path)
        })
    }

    /// Pair similarities: a stratified sample, a uniform sample with weights, or plain
    /// similarities that count once each.
    fn of_similarities(path: &Path, t: f64) -> Result<Evidence> {
        if let Some(sample) = crate::analysis::stratified::read_stratified(path)? {
            return Ok(Evidence {
                distribution: SimilarityDistribution::from_weighted(sample.weighted_rows()),
                notes: stratified_notes(&sample, t),
                sample: Some(PairSample::Stratified(sample)),
                ..Evidence::empty(path)
            });
        }
        let weighted = crate::pairs::read_weighted_similarities(path, true)?;
        if weighted.iter().all(|&(_, w)| w == 1.0) {
            let values = similarities_of(&weighted);
            // Pairs that all reach a high Jaccard are no sample of a corpus's pairs (those are
            // mostly dissimilar) but a truth file or thresholded candidates, passed here as
            // a new user did: the table would look plausible and mean little.
            let notes = thresholded_floor(&values)
                .map(|lowest| {
                    format!(
                        "every pair in {} has Jaccard ≥ {}: not a sample of all pairs but pairs \
                         from a threshold up (a truth file, or a scan's), so expected \
                         candidates and precision count only them; give a truth file as \
                         {Truth}, a scan's pairs as {Pairs}, or sample all pairs with \
                         `truth {} N`",
                        path.display(),
                        crate::util::numfmt::decimal(lowest),
                        EstimatePairs.in_code()
                    )
                })
                .into_iter()
                .collect();
            return Ok(Evidence {
                distribution: SimilarityDistribution::from_similarities(&values),
                notes,
                ..Evidence::empty(path)
            });
        }
        let distribution = SimilarityDistribution::from_weighted(weighted.clone());
        let note = format!(
            "each sampled pair counts its `weight` times: the corpus columns estimate all {} \
             pairs it was sampled from, so {Budget} counts candidates of the whole corpus",
            crate::util::numfmt::estimated_count(distribution.total())
        );
        Ok(Evidence {
            distribution,
            sample: Some(PairSample::Uniform(weighted)),
            notes: vec![note],
            ..Evidence::empty(path)
        })
    }

    /// What a weighted sample holds at t; none for similarities that are not a sample.
    pub(super) fn sample_info(&self, t: f64) -> Option<SampleInfo> {
        // Any banding gives the same counts at t; (1, 1) is one that always exists.
        let at_threshold = self.sample.as_ref()?.intervals(1, 1, t)?;
        Some(SampleInfo {
            sampled_pairs: at_threshold.sampled_pairs,
            sampled_at_or_above: at_threshold.sampled_at_or_above,
            pairs_at_or_above_interval: at_threshold.pairs_at_or_above,
        })
    }

    /// When no pair reaches t: recall and precision at t are undefined, and how to get pairs
    /// that do.
    pub(super) fn unreached_threshold_note(&self, t: f64) -> Option<String> {
        (self.distribution.at_or_above(t) <= 0.0).then(|| {
            format!(
                "no pair in {} reaches t = {t}: recall and precision at t are undefined (n/a); \
                 lower t, or give more pairs (a larger {EstimatePairs} sample, a scan with \
                 {Threshold} 0)",
                self.source
            )
        })
    }

    /// No pairs yet, from `path`.
    fn empty(path: &Path) -> Evidence {
        Evidence {
            source: path.display().to_string(),
            distribution: SimilarityDistribution::default(),
            floor: None,
            sample: None,
            notes: Vec::new(),
        }
    }
}

/// When a sample holds a few pairs at or above t but too few to estimate recall and
/// precision there. (With none at all, [`Evidence::unreached_threshold_note`] says it.)
pub(super) fn too_few_sampled_note(sample: &SampleInfo, t: f64) -> Option<String> {
    (1..MIN_SAMPLED_AT_THRESHOLD)
        .contains(&sample.sampled_at_or_above)
        .then(|| {
            format!(
                "only {} of the {} sampled pairs {} Jaccard ≥ {t}: too few to estimate recall \
                 and precision at t (left out; they need {MIN_SAMPLED_AT_THRESHOLD}), and the \
                 count at or above t is uncertain (see its interval). Sample more pairs \
                 (`truth {}`), or run `truth` for the exact pairs above t",
                sample.sampled_at_or_above,
                thousands(sample.sampled_pairs as u64),
                for_count(sample.sampled_at_or_above as u64, "has", "have"),
                EstimatePairs.in_code(),
            )
        })
}

/// Pairs of a scan without its banding count only the pairs it found.
pub(super) fn unweighted_scan_pairs_note() -> String {
    format!(
        "pairs from a scan hold only the pairs that scan's banding found (and kept at its \
         {Threshold}): expected candidates and recall count those pairs, not pairs it missed; \
         give {ScanBanding} BxR to correct for the missed ones"
    )
}

/// The similarities of weighted rows, without their weights.
fn similarities_of(weighted: &[(f64, f64)]) -> Vec<f64> {
    weighted.iter().map(|&(s, _)| s).collect()
}

/// What a scan's pairs weighted by 1/P₀(s) estimate: all pairs of the corpus, or those at or
/// above the pairs file's `floor`.
fn inclusion_weights_note(scan: Banding, floor: Option<f64>) -> String {
    let covered = match floor {
        Some(lowest) => format!(
            "all pairs of the corpus with Jaccard ≥ {} (the lowest in the pairs file; the scan \
             dropped those below it), so expected candidates and precision describe that range \
             only",
            crate::util::numfmt::decimal(lowest)
        ),
        None => "all pairs of the corpus".to_string(),
    };
    format!(
        "each pair weighted by 1/P₀(s) for the scan's {} × {} banding: the corpus columns \
         estimate {covered}; rare low-similarity pairs carry large weights, so those estimates \
         are noisy",
        scan.bands, scan.rows
    )
}

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
    use crate::util::numfmt::decimal;
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
    let lower = sample.lower.map_or(String::new(), |l| {
        format!(
            ", the further candidates of the lower {} × {} banding (for Jaccard {})",
            l.banding.bands,
            l.banding.rows,
            decimal(l.threshold)
        )
    });
    let strata: Vec<String> = sample.strata.iter().map(describe).collect();
    let mut notes = vec![format!(
        "stratified sample: the candidates of the permissive {} × {} banding (P ≥ {} at \
         Jaccard {}){lower} and the other pairs, sampled apart ({}); each pair counts its \
         stratum's size ÷ its sample size, so the corpus columns estimate all {} pairs and \
         {Budget} counts candidates of the whole corpus",
        sample.banding.bands,
        sample.banding.rows,
        percent_fine(1.0 - crate::analysis::stratified::PERMISSIVE_MISS),
        decimal(sample.threshold),
        strata.join("; "),
        thousands(sample.population()),
    )];
    // A new user sized a job by the budget row's top of expected candidates (1.46 M on
    // 60,000 Debian descriptions at 17 × 4) and the default seed made 3.19 M: on short texts
    // a few common shingles decide whole bands, and one seed's count is far from the average.
    notes.push(format!(
        "expected candidates, recall and precision are averages over hash seeds, and their \
         intervals are about those averages: one seed's candidates can be several times the \
         average on short texts; `tune {} FILE {} 5` measures the spread and budgets for the \
         worst seed",
        Corpus.in_code(),
        Seeds.in_code()
    ));
    if let Some(why) = sample.hidden_pairs_unbounded(t) {
        notes.push(format!(
            "the top of the count at or above t rests on the draws among the other pairs, \
             which cannot rule out similar pairs hidden there: {why}"
        ));
    }
    if t < sample.lowest_threshold() {
        notes.push(format!(
            "t = {t} is below the threshold {} the strata were made for: pairs between them \
             may lie outside the candidates, so recall and precision rest more on the other \
             pairs and their intervals widen; sample again with `truth {} N {} {t}`",
            decimal(sample.lowest_threshold()),
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

/// What a truth file's similarities mean for the corpus columns: recall is over its pairs,
/// complete only from its floor ([`crate::analysis::recall::truth_floor`]) up when a `truth`
/// join made it, and the counts hold only its pairs.
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
    // Said of the file, not of how it was made: a `truth` join holds every pair from its
    // threshold up, `gen --truth` only the planted pairs, at every level.
    notes.push(
        "recall@t is the expected recall over the truth file's pairs at or above t; expected \
         candidates and precision count only the file's pairs, not the many dissimilar pairs \
         of the corpus a banding also lets through"
            .to_string(),
    );
    notes
}
