//! Measured against the S-curve: given the true similar pairs of a corpus and the candidate
//! pairs of one banding (b, r), how many true pairs the banding finds per similarity bin, what
//! the S-curve predicted for exactly those pairs, and whether the two disagree beyond chance.
//!
//! The truth does not depend on b and r, so everything here is a pass over the truth pairs and
//! a binary search in the (sorted) candidates: cheap enough to redo on every re-banding.

use std::collections::HashMap;
use std::path::Path;

use super::family_curve::FamilyCurve;
use super::histogram::{bin_bounds, bin_of};
use super::truth::TruthPair;
use crate::corpus::Corpus;
use crate::minhash::scurve::candidate_probability;
use crate::minhash::{Banding, CandidatePair, Signatures, VerifiedPair};
use crate::terms::Setting::{Limit, Sample};
use crate::util::stats::{Z_95, is_outside, wilson_interval};
use crate::{Error, Result};

/// One similarity bin of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RecallBin {
    /// The bin is [lo, hi) (the last bin includes 1), as [`super::histogram::bin_bounds`]
    /// gives them; [`super::histogram::bin_of`] of `lo` is the bin's index.
    pub lo: f64,
    /// Upper end of the bin.
    pub hi: f64,
    /// True pairs whose Jaccard falls in the bin.
    pub true_pairs: usize,
    /// Of those, pairs the banding made candidates.
    pub found: usize,
    /// found / true_pairs: the measured candidate rate (the recall of the bin).
    pub measured: f64,
    /// 95 % interval of the measured rate: Wilson's for independent pairs, widened by the
    /// design effect measured over redraws of the hash family once
    /// [`RecallReport::apply_redraws`] has run.
    pub interval_lo: f64,
    /// Upper end of that interval.
    pub interval_hi: f64,
    /// The bin's variance over redraws of the hash family divided by the binomial variance
    /// (1 when not measured, or when the pairs spread no wider than independent ones).
    pub design_effect: f64,
    /// The S-curve's prediction: the mean of P(sᵢ) = 1 − (1 − sᵢ^r)^b over the bin's pairs.
    pub predicted: f64,
    /// The prediction lies outside the interval: the measurement disagrees with the S-curve
    /// beyond 95 % chance. Honest only with redraws applied: P(s) is a probability over the
    /// choice of hash functions and all pairs of one corpus share one choice, so pairs that
    /// share documents or frequent shingles succeed or fail together and a binomial interval
    /// flags healthy bins (a third of them on chained corpora; see [`super::redraws`]).
    pub outside: bool,
}

/// Recall, precision and the per-bin comparison for one banding.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RecallReport {
    /// b, the banding's number of bands.
    pub bands: usize,
    /// r, the rows per band.
    pub rows: usize,
    /// The similarity threshold t that recall and precision refer to.
    pub threshold: f64,
    /// Non-empty bins, ascending.
    pub bins: Vec<RecallBin>,
    /// True pairs with Jaccard ≥ t, and how many of them are candidates.
    pub true_at_threshold: usize,
    /// Of [`RecallReport::true_at_threshold`], the pairs the banding made candidates.
    pub found_at_threshold: usize,
    /// found / true at t; `None` without true pairs at t.
    pub recall: Option<f64>,
    /// The S-curve's expected recall for the same pairs (mean of P(sᵢ)).
    pub predicted_recall: Option<f64>,
    /// Candidate pairs of the banding, whatever their Jaccard.
    pub candidates: usize,
    /// Candidates whose exact Jaccard is ≥ t.
    pub candidates_at_threshold: usize,
    /// candidates_at_threshold / candidates; `None` without candidates.
    pub precision: Option<f64>,
    /// Bins where the measurement falls outside the interval.
    pub flagged_bins: usize,
    /// Redraws of the hash family the intervals were measured over; 0 when they assume
    /// independent pairs (binomial).
    pub redraws: usize,
    /// 95 % interval of `recall`, on the same footing as the bins' intervals.
    pub recall_interval: Option<(f64, f64)>,
}

impl RecallReport {
    /// Replaces the binomial intervals with intervals that hold when pairs move together:
    /// each bin's spread over the redraws in `counts` (from
    /// [`super::redraws::RedrawAgreement::found_per_draw`] for this report's banding, bins and
    /// threshold) around the S-curve's mean, as [`super::redraws::redraw_interval`] turns it
    /// into an interval; the flags and the recall's interval follow.
    pub fn apply_redraws(&mut self, counts: &super::redraws::RedrawCounts) {
        let bins = counts.per_bin.len();
        let draws = counts.at_threshold.len();
        if draws == 0 {
            return;
        }
        let rates = |found: &[u32], n: usize| -> Vec<f64> {
            found.iter().map(|&f| f as f64 / n as f64).collect()
        };
        for b in &mut self.bins {
            let k = bin_of(b.lo, bins);
            let iv = super::redraws::redraw_interval(
                b.found,
                b.true_pairs,
                b.predicted,
                &rates(&counts.per_bin[k], b.true_pairs),
            );
            b.interval_lo = iv.lo;
            b.interval_hi = iv.hi;
            b.design_effect = iv.design_effect;
            b.outside = is_outside(b.predicted, iv.lo, iv.hi);
        }
        self.flagged_bins = self.bins.iter().filter(|b| b.outside).count();
        self.redraws = draws;
        if let Some(predicted) = self.predicted_recall {
            let iv = super::redraws::redraw_interval(
                self.found_at_threshold,
                self.true_at_threshold,
                predicted,
                &rates(&counts.at_threshold, self.true_at_threshold),
            );
            self.recall_interval = Some((iv.lo, iv.hi));
        }
    }
}

/// True when the pair (a, b) (a < b) is among `candidates` (sorted by (a, b)).
fn is_candidate(candidates: &[CandidatePair], a: u32, b: u32) -> bool {
    candidates
        .binary_search_by(|c| (c.a, c.b).cmp(&(a, b)))
        .is_ok()
}

/// Compares the candidates of `banding` with the truth, in `bins` equal-width similarity bins
/// over [0, 1]. `candidates` must be sorted by (a, b) (as [`crate::minhash::find_candidates`]
/// returns them); `candidates_at_threshold` is how many of them have exact Jaccard ≥
/// `threshold` (as counted by [`crate::minhash::verify`]), for precision.
pub fn measure_recall(
    truth: &[TruthPair],
    candidates: &[CandidatePair],
    candidates_at_threshold: usize,
    banding: Banding,
    threshold: f64,
    bins: usize,
) -> RecallReport {
    measure_recall_with(
        truth,
        |i| is_candidate(candidates, truth[i].a, truth[i].b),
        candidates.len(),
        candidates_at_threshold,
        banding,
        threshold,
        bins,
    )
}

/// [`measure_recall`] for a caller that already knows which truth pairs are candidates:
/// `is_candidate(i)` answers for `truth[i]`, and `candidates` is how many candidates the
/// banding produced (for precision). The explorer uses it to redo the report on every change
/// of t without searching the candidates again.
pub fn measure_recall_with(
    truth: &[TruthPair],
    is_candidate: impl Fn(usize) -> bool,
    candidates: usize,
    candidates_at_threshold: usize,
    banding: Banding,
    threshold: f64,
    bins: usize,
) -> RecallReport {
    let bins = bins.max(1);
    let (b, r) = (banding.bands, banding.rows);
    // Per bin: true pairs, found, Σ P(sᵢ).
    let mut acc = vec![(0usize, 0usize, 0.0f64); bins];
    let (mut true_t, mut found_t, mut predicted_t) = (0usize, 0usize, 0.0f64);
    for (i, p) in truth.iter().enumerate() {
        let k = bin_of(p.jaccard, bins);
        let hit = is_candidate(i);
        let prob = candidate_probability(p.jaccard, b, r);
        let e = &mut acc[k];
        e.0 += 1;
        e.1 += hit as usize;
        e.2 += prob;
        if p.jaccard >= threshold {
            true_t += 1;
            found_t += hit as usize;
            predicted_t += prob;
        }
    }
    let bins_out: Vec<RecallBin> = acc
        .iter()
        .enumerate()
        .filter(|(_, e)| e.0 > 0)
        .map(|(k, &(n, found, sum_p))| {
            let (lo, hi) = wilson_interval(found, n, Z_95);
            let predicted = sum_p / n as f64;
            let outside = is_outside(predicted, lo, hi);
            let (bin_lo, bin_hi, _) = bin_bounds(k, bins);
            RecallBin {
                lo: bin_lo,
                hi: bin_hi,
                true_pairs: n,
                found,
                measured: found as f64 / n as f64,
                interval_lo: lo,
                interval_hi: hi,
                design_effect: 1.0,
                predicted,
                outside,
            }
        })
        .collect();
    RecallReport {
        bands: b,
        rows: r,
        threshold,
        flagged_bins: bins_out.iter().filter(|b| b.outside).count(),
        bins: bins_out,
        true_at_threshold: true_t,
        found_at_threshold: found_t,
        recall: (true_t > 0).then(|| found_t as f64 / true_t as f64),
        predicted_recall: (true_t > 0).then(|| predicted_t / true_t as f64),
        candidates,
        candidates_at_threshold,
        precision: (candidates > 0).then(|| candidates_at_threshold as f64 / candidates as f64),
        redraws: 0,
        recall_interval: (true_t > 0).then(|| wilson_interval(found_t, true_t, Z_95)),
    }
}

/// True pairs with Jaccard ≥ `threshold` that are not candidates (the false negatives), in
/// the order of `truth`.
pub fn missed_pairs(
    truth: &[TruthPair],
    candidates: &[CandidatePair],
    threshold: f64,
) -> Vec<TruthPair> {
    truth
        .iter()
        .filter(|p| p.jaccard >= threshold && !is_candidate(candidates, p.a, p.b))
        .copied()
        .collect()
}

/// The similarity from which a truth file is complete: its lowest Jaccard, exactly.
///
/// A file made by `lshscope truth --threshold T` holds every pair at or above T, and T is at
/// most its lowest value; any rounding of that value would claim pairs the file may not hold.
/// `scan --truth`, `tune --truth` and the explorer all use this one rule, so one truth file
/// gives recall at the same thresholds everywhere. `None` for an empty file.
pub fn truth_floor(similarities: impl IntoIterator<Item = f64>) -> Option<f64> {
    similarities.into_iter().reduce(f64::min)
}

/// Reads a truth file (`id_a,id_b,jaccard` as CSV with a header or as JSON Lines, possibly
/// .gz/.zst, `-` for stdin; further columns such as the `level` of `lshscope gen` ignored) and
/// maps its ids to positions in `corpus`. Pairs come back with a < b, sorted by (a, b).
pub fn read_truth(path: &Path, corpus: &Corpus) -> Result<Vec<TruthPair>> {
    let reader = crate::io::input::open_input(path)?;
    read_truth_from(reader, path, corpus)
}

/// [`read_truth`] from any (decompressed) reader; `name` is used in messages.
pub fn read_truth_from(
    reader: impl std::io::BufRead,
    name: &Path,
    corpus: &Corpus,
) -> Result<Vec<TruthPair>> {
    // First position of every id (ids of a well-formed corpus are unique).
    let mut positions: HashMap<&str, u32> = HashMap::with_capacity(corpus.len());
    for i in 0..corpus.len() {
        positions.entry(corpus.id(i)).or_insert(i as u32);
    }
    let mut pairs: Vec<(TruthPair, u64)> = Vec::new();
    let columns = crate::pairs::PairColumns {
        ids: true,
        plain_list: false,
    };
    crate::pairs::for_each_pair_in(reader, name, columns, |row| {
        let position = |id: &str, label: &str| -> Result<u32> {
            positions.get(id).copied().ok_or_else(|| {
                Error::input(
                    name,
                    row.line,
                    format!(
                        "{label} `{}` is not an id of the corpus ({} documents): was the truth \
                         computed on the same input, with the same {Limit}/{Sample} and id \
                         column?",
                        crate::io::excerpt::excerpt(id),
                        corpus.len()
                    ),
                )
            })
        };
        let (a, b) = (position(&row.id_a, "id_a")?, position(&row.id_b, "id_b")?);
        if a == b {
            return Err(Error::input(
                name,
                row.line,
                format!(
                    "a document paired with itself (`{}`)",
                    crate::io::excerpt::excerpt(corpus.id(a as usize))
                ),
            ));
        }
        pairs.push((
            TruthPair {
                a: a.min(b),
                b: a.max(b),
                jaccard: row.jaccard,
            },
            row.line,
        ));
        Ok(())
    })?;
    pairs.sort_by_key(|(p, line)| (p.a, p.b, *line));
    if let Some(w) = pairs
        .windows(2)
        .find(|w| (w[0].0.a, w[0].0.b) == (w[1].0.a, w[1].0.b))
    {
        return Err(Error::input(
            name,
            w[1].1,
            format!(
                "the pair {},{} is listed twice (first at line {})",
                corpus.id(w[0].0.a as usize),
                corpus.id(w[0].0.b as usize),
                w[0].1
            ),
        ));
    }
    Ok(pairs.into_iter().map(|(p, _)| p).collect())
}

/// A truth file compared with one scan's candidates (`scan --truth`, in its summary JSON).
#[derive(Debug, Clone, serde::Serialize)]
pub struct TruthComparison {
    /// The truth file as the caller named it.
    pub file: String,
    /// True pairs read from it.
    pub pairs: usize,
    /// Truth pairs whose Jaccard differs from this index's own (different shingle options?).
    pub jaccard_mismatches: usize,
    /// Recall and the per-bin comparison of the scan's banding against those pairs.
    pub report: RecallReport,
    /// With redraws, each family's rate per bin as the mean over the draws beside the
    /// formula: the scan's own family first, then the one `--compare-family` asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<crate::analysis::family_curve::FamilyCurve>,
}

/// The threshold a comparison with `truth` measures recall and precision at: `threshold`,
/// or, when it is 0, the truth's floor ([`truth_floor`]: below it the file says nothing).
pub fn comparison_threshold(threshold: f64, truth: &[TruthPair]) -> f64 {
    if threshold > 0.0 {
        threshold
    } else {
        truth_floor(truth.iter().map(|p| p.jaccard)).unwrap_or(0.0)
    }
}

/// What a banding gave that a comparison with a truth file needs: which pairs are candidates
/// (`is_candidate(a, b)` for input positions `a < b`), how many candidates there are, and how
/// many verified candidates reach the [`comparison_threshold`]. A streamed scan answers the
/// first from its bucket lists, so no list of candidates is ever built.
pub struct BandingAnswers<'a> {
    /// Whether the pair of input positions `(a, b)`, `a < b`, is a candidate.
    pub is_candidate: &'a (dyn Fn(u32, u32) -> bool + Sync),
    /// Distinct candidate pairs, for precision.
    pub candidates: usize,
    /// Verified candidates with Jaccard at or above the comparison threshold.
    pub at_threshold: usize,
}

/// Compares `truth` (read from `file`) with what `banding` over `index` gave (`answers`), in
/// `bins` similarity bins, at the [`comparison_threshold`] of `threshold`. With `redraws` > 0
/// the intervals are measured over that many redraws of the hash family
/// ([`super::redraws`]), hashing the documents the truth names once per redraw (progress
/// counts them); with 0 they are binomial. `compare_family`: a second sketch family measured
/// over as many redraws of its own, for [`TruthComparison::families`].
#[allow(clippy::too_many_arguments)]
pub fn compare_truth(
    file: &Path,
    truth: &[TruthPair],
    index: &crate::minhash::Index,
    answers: &BandingAnswers<'_>,
    banding: Banding,
    threshold: f64,
    bins: usize,
    redraws: usize,
    compare_family: Option<crate::minhash::SketchFamily>,
    progress: &crate::jobs::Progress,
) -> Result<TruthComparison> {
    let threshold = comparison_threshold(threshold, truth);
    let decimals = printed_decimals(truth.iter().map(|p| p.jaccard));
    let jaccard_mismatches = truth
        .iter()
        .filter(|p| {
            let exact = crate::minhash::similarity::jaccard(
                index.sets.get(p.a as usize),
                index.sets.get(p.b as usize),
            );
            !agrees_to_decimals(exact, p.jaccard, decimals)
        })
        .count();
    let mut report = measure_recall_with(
        truth,
        |i| (answers.is_candidate)(truth[i].a, truth[i].b),
        answers.candidates,
        answers.at_threshold,
        banding,
        threshold,
        bins,
    );
    let mut families = Vec::new();
    if redraws > 0 && !truth.is_empty() {
        let counts_in = |options: &crate::minhash::IndexOptions| {
            super::redraws::redraw_counts(
                &index.sets,
                truth,
                options,
                redraws,
                banding,
                bins,
                threshold,
                progress,
            )
        };
        let counts = counts_in(&index.options)?;
        report.apply_redraws(&counts);
        families.push(FamilyCurve::from_counts(
            index.options.family,
            banding,
            &counts,
            truth,
            bins,
        ));
        if let Some(family) = compare_family.filter(|&f| f != index.options.family) {
            let counts = counts_in(&crate::minhash::IndexOptions {
                family,
                ..index.options.clone()
            })?;
            families.push(FamilyCurve::from_counts(
                family, banding, &counts, truth, bins,
            ));
        }
    }
    Ok(TruthComparison {
        file: file.display().to_string(),
        pairs: truth.len(),
        jaccard_mismatches,
        report,
        families,
    })
}

/// The decimals a file's similarities were printed with: the most any value needs in its
/// shortest round-trip form. A file written at 6 decimals (as Python tools write it) gives 6
/// (a value such as 0.5 needs fewer, but some value needs all six); one written in full
/// precision, as lshscope writes, gives up to 17.
pub fn printed_decimals(values: impl IntoIterator<Item = f64>) -> usize {
    values
        .into_iter()
        .map(|v| {
            // Display never uses an exponent for f64, and gives the shortest round-trip digits.
            let text = v.to_string();
            text.find('.').map_or(0, |dot| text.len() - dot - 1)
        })
        .max()
        .unwrap_or(0)
}

/// `exact` printed at `decimals` decimals reads back as `printed`: the two agree to every
/// decimal the file carries.
pub fn agrees_to_decimals(exact: f64, printed: f64, decimals: usize) -> bool {
    exact == printed || format!("{exact:.decimals$}").parse::<f64>() == Ok(printed)
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

/// For each truth pair, whether it is a candidate of `banding`, decided from the two
/// signatures alone (some band agrees on all its rows, and neither document is empty): the
/// same answer as [`candidate_hits`] over the enumerated candidates of an uncapped banding,
/// without enumerating them (the explorer's sampled mode, where they are too many).
pub fn signature_hits(truth: &[TruthPair], sigs: &Signatures, banding: Banding) -> Vec<bool> {
    use rayon::prelude::*;
    truth
        .par_iter()
        .map(|t| banding.collide(sigs, t.a as usize, t.b as usize))
        .collect()
}

/// Mean Jaccard of the pairs in each of `bins` equal bins over [0, 1] (binned as
/// [`crate::analysis::recall::measure_recall`] bins them).
pub fn bin_means(pairs: &[TruthPair], bins: usize) -> Vec<Option<f64>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similarities_compare_at_the_precision_the_file_carries() {
        let six = [0.5, 0.333333, 0.123457, 1.0];
        assert_eq!(printed_decimals(six), 6);
        assert!(agrees_to_decimals(1.0 / 3.0, 0.333333, 6));
        assert!(agrees_to_decimals(0.1234566, 0.123457, 6));
        assert!(agrees_to_decimals(0.5, 0.5, 6));
        // A value that differs within the printed decimals is a real difference, even when
        // it would round to the same value at fewer decimals.
        assert!(!agrees_to_decimals(0.53, 0.5, 6));
        assert!(!agrees_to_decimals(0.333334, 0.333333, 6));
        // Full precision: only equal values agree.
        let full = [1.0 / 3.0, 0.1 + 0.2];
        let d = printed_decimals(full);
        assert!(d >= 16, "{d}");
        assert!(agrees_to_decimals(0.1 + 0.2, 0.1 + 0.2, d));
        assert!(!agrees_to_decimals(0.3, 0.1 + 0.2, d));
    }

    fn pair(a: u32, b: u32, jaccard: f64) -> TruthPair {
        TruthPair { a, b, jaccard }
    }

    #[test]
    fn counts_recall_precision_and_misses() {
        let truth = vec![
            pair(0, 1, 0.9),
            pair(0, 2, 0.55),
            pair(1, 3, 0.52),
            pair(2, 3, 0.3),
        ];
        let cand = |a, b| CandidatePair { a, b, bands_hit: 1 };
        let candidates = vec![cand(0, 1), cand(0, 3), cand(1, 3), cand(2, 3)];
        let banding = Banding::new(20, 5, 128).unwrap();
        let rep = measure_recall(&truth, &candidates, 2, banding, 0.5, 20);
        assert_eq!(rep.true_at_threshold, 3);
        assert_eq!(rep.found_at_threshold, 2);
        assert_eq!(rep.recall, Some(2.0 / 3.0));
        assert_eq!(rep.precision, Some(0.5));
        // Bins [0.3, 0.35), [0.5, 0.55), [0.55, 0.6), [0.9, 0.95).
        let lows: Vec<f64> = rep.bins.iter().map(|b| b.lo).collect();
        assert_eq!(lows, vec![0.3, 0.5, 0.55, 0.9]);
        assert_eq!((rep.bins[1].true_pairs, rep.bins[1].found), (1, 1));
        assert_eq!((rep.bins[2].true_pairs, rep.bins[2].found), (1, 0));
        let p = candidate_probability(0.55, 20, 5);
        assert!((rep.bins[2].predicted - p).abs() < 1e-15);
        let missed = missed_pairs(&truth, &candidates, 0.5);
        assert_eq!(missed, vec![pair(0, 2, 0.55)]);
    }

    #[test]
    fn reads_truth_with_extra_columns_and_names_bad_lines() {
        let corpus = Corpus::from_pairs([("x", "a"), ("y", "b"), ("z", "c")]);
        let ok = "id_a,id_b,jaccard,level\nz,x,0.5,0.5\nx,y,1,0.95\n";
        let got = read_truth_from(ok.as_bytes(), Path::new("t.csv"), &corpus).unwrap();
        assert_eq!(got, vec![pair(0, 1, 1.0), pair(0, 2, 0.5)]);

        let err = |text: &str| {
            read_truth_from(text.as_bytes(), Path::new("t.csv"), &corpus)
                .unwrap_err()
                .to_string()
        };
        let e = err("id_a,id_b,jaccard\nx,y,0.5\nx,nope,0.5\n");
        assert!(e.starts_with("t.csv:3:") && e.contains("`nope`"), "{e}");
        let e = err("id_a,id_b,jaccard\nx,y,half\n");
        assert!(e.starts_with("t.csv:2:") && e.contains("column 3"), "{e}");
        let e = err("a,b,jaccard\nx,y,0.5\n");
        assert!(e.starts_with("t.csv:1:") && e.contains("id_a"), "{e}");
        let e = err("id_a,id_b,jaccard\nx,y,0.5\ny,x,0.5\n");
        assert!(e.starts_with("t.csv:3:") && e.contains("line 2"), "{e}");
        let e = err("id_a,id_b,jaccard\nx,x,0.5\n");
        assert!(e.contains("itself"), "{e}");
    }

    fn truth_pair(a: u32, b: u32, jaccard: f64) -> TruthPair {
        TruthPair { a, b, jaccard }
    }

    fn verified(a: u32, b: u32) -> VerifiedPair {
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
        let truth = [
            truth_pair(0, 1, 0.9),
            truth_pair(0, 5, 0.6),
            truth_pair(2, 3, 0.7),
            truth_pair(4, 9, 0.8),
        ];
        let cands = [
            verified(0, 1),
            verified(0, 2),
            verified(2, 3),
            verified(3, 4),
            verified(5, 6),
        ];
        assert_eq!(
            candidate_hits(&truth, &cands),
            vec![true, false, true, false]
        );
        assert_eq!(candidate_hits(&truth, &[]), vec![false; 4]);
        assert!(candidate_hits(&[], &cands).is_empty());
    }

    #[test]
    fn bin_means_bin_like_recall() {
        let pairs = [
            truth_pair(0, 1, 0.5),
            truth_pair(0, 2, 0.54),
            truth_pair(1, 2, 1.0),
        ];
        let m = bin_means(&pairs, 20);
        assert!((m[10].unwrap() - 0.52).abs() < 1e-12);
        assert_eq!(m[19], Some(1.0));
        assert_eq!(m[0], None);
    }
}
