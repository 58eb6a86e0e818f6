//! Measured against the S-curve: given the true similar pairs of a corpus and the candidate
//! pairs of one banding (b, r), how many true pairs the banding finds per similarity bin, what
//! the S-curve predicted for exactly those pairs, and whether the two disagree beyond chance.
//!
//! The truth does not depend on b and r, so everything here is a pass over the truth pairs and
//! a binary search in the (sorted) candidates: cheap enough to redo on every re-banding.

use std::collections::HashMap;
use std::path::Path;

use super::histogram::{bin_bounds, bin_of};
use super::truth::TruthPair;
use crate::corpus::Corpus;
use crate::minhash::scurve::candidate_probability;
use crate::minhash::{Banding, CandidatePair, Signatures, VerifiedPair};
use crate::{Error, Result};

/// z for a two-sided 95 % interval: Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for a binomial proportion with `successes` out of `n` trials
/// (E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
/// JASA 22:209–212, 1927; recommended over the Wald interval by Brown, Cai & DasGupta,
/// Statistical Science 16(2), 2001). `(0, 1)` when n = 0.
///
/// It is exactly the set of p that a two-sided score test at level z does not reject, so
/// "the S-curve's prediction lies outside the interval of the measurement" is the same
/// statement as "the measurement lies outside the binomial acceptance region of the
/// prediction".
pub fn wilson_interval(successes: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let nf = n as f64;
    let p = successes as f64 / nf;
    let z2 = z * z;
    let center = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = z / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    // The exact endpoints at p = 0 and p = 1 are 0 and 1; rounding must not move them.
    let lo = if successes == 0 { 0.0 } else { center - half };
    let hi = if successes == n { 1.0 } else { center + half };
    (lo.max(0.0), hi.min(1.0))
}

/// One similarity bin of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RecallBin {
    /// The bin is [lo, hi) (the last bin includes 1), as [`super::histogram::bin_bounds`]
    /// gives them; [`super::histogram::bin_of`] of `lo` is the bin's index.
    pub lo: f64,
    pub hi: f64,
    /// True pairs whose Jaccard falls in the bin.
    pub true_pairs: usize,
    /// Of those, pairs the banding made candidates.
    pub found: usize,
    /// found / true_pairs: the measured candidate rate (the recall of the bin).
    pub measured: f64,
    /// Wilson 95 % interval of the measured rate.
    pub interval_lo: f64,
    pub interval_hi: f64,
    /// The S-curve's prediction: the mean of P(sᵢ) = 1 − (1 − sᵢ^r)^b over the bin's pairs.
    pub predicted: f64,
    /// The prediction lies outside the interval: the measurement disagrees with the S-curve
    /// beyond 95 % chance. (The number found is a sum of Bernoulli(P(sᵢ)) with unequal
    /// P(sᵢ), whose variance is at most the binomial one at their mean, so the test errs on
    /// the side of flagging less. But P(s) is a probability over the choice of hash functions,
    /// and all pairs of one corpus share one choice: pairs with frequent shingles in common
    /// succeed or fail together, which widens the spread beyond the binomial one. On generated
    /// corpora with 120 pairs per bin, about 9 % of bins fall outside instead of 5 %.)
    pub outside: bool,
}

/// Recall, precision and the per-bin comparison for one banding.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RecallReport {
    pub bands: usize,
    pub rows: usize,
    /// The similarity threshold t that recall and precision refer to.
    pub threshold: f64,
    /// Non-empty bins, ascending.
    pub bins: Vec<RecallBin>,
    /// True pairs with Jaccard ≥ t, and how many of them are candidates.
    pub true_at_threshold: usize,
    pub found_at_threshold: usize,
    /// found / true at t; `None` without true pairs at t.
    pub recall: Option<f64>,
    /// The S-curve's expected recall for the same pairs (mean of P(sᵢ)).
    pub predicted_recall: Option<f64>,
    pub candidates: usize,
    /// Candidates whose exact Jaccard is ≥ t.
    pub candidates_at_threshold: usize,
    /// candidates_at_threshold / candidates; `None` without candidates.
    pub precision: Option<f64>,
    /// Bins where the measurement falls outside the interval.
    pub flagged_bins: usize,
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
            // A hair of slack so a prediction of 1 − 1e-17 against an interval ending at 1 is
            // not flagged by rounding.
            let outside = predicted < lo - 1e-12 || predicted > hi + 1e-12;
            let (bin_lo, bin_hi, _) = bin_bounds(k, bins);
            RecallBin {
                lo: bin_lo,
                hi: bin_hi,
                true_pairs: n,
                found,
                measured: found as f64 / n as f64,
                interval_lo: lo,
                interval_hi: hi,
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
    let reader = crate::pairfile::open_input(path)?;
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
    let columns = crate::pairfile::PairColumns {
        ids: true,
        plain_list: false,
    };
    crate::pairfile::for_each_pair_in(reader, name, columns, |row| {
        let position = |id: &str, label: &str| -> Result<u32> {
            positions.get(id).copied().ok_or_else(|| {
                Error::input(
                    name,
                    row.line,
                    format!(
                        "{label} `{}` is not an id of the corpus ({} documents): was the truth \
                         computed on the same input, with the same --limit/--sample and id \
                         column?",
                        crate::excerpt::excerpt(id),
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
                    crate::excerpt::excerpt(corpus.id(a as usize))
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
    pub file: String,
    pub pairs: usize,
    /// Truth pairs whose Jaccard differs from this index's own (different shingle options?).
    pub jaccard_mismatches: usize,
    pub report: RecallReport,
}

/// Compares `truth` (read from `file`) with the `candidates` of `banding` over `index`, in
/// `bins` similarity bins. `kept` are the verified candidates with Jaccard ≥ `threshold`;
/// recall and precision are measured at `threshold`, or, when it is 0, at the truth's floor
/// ([`truth_floor`]: below it the file says nothing).
#[allow(clippy::too_many_arguments)]
pub fn compare_truth(
    file: &Path,
    truth: &[TruthPair],
    index: &crate::minhash::Index,
    candidates: &[CandidatePair],
    kept: &[crate::minhash::VerifiedPair],
    banding: Banding,
    threshold: f64,
    bins: usize,
) -> TruthComparison {
    let threshold = if threshold > 0.0 {
        threshold
    } else {
        truth_floor(truth.iter().map(|p| p.jaccard)).unwrap_or(0.0)
    };
    // `kept` holds every candidate with Jaccard ≥ the scan's threshold ≤ `threshold`.
    let at_threshold = kept.iter().filter(|p| p.jaccard >= threshold).count();
    let jaccard_mismatches = truth
        .iter()
        .filter(|p| {
            crate::similarity::jaccard(index.sets.get(p.a as usize), index.sets.get(p.b as usize))
                != p.jaccard
        })
        .count();
    TruthComparison {
        file: file.display().to_string(),
        pairs: truth.len(),
        jaccard_mismatches,
        report: measure_recall(truth, candidates, at_threshold, banding, threshold, bins),
    }
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
    fn wilson_matches_hand_computation() {
        // 8 of 10, z = 1.96: center (0.8 + 0.19208) / 1.38416, half-width per the formula.
        let (lo, hi) = wilson_interval(8, 10, 1.96);
        assert!((lo - 0.4902).abs() < 1e-4, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-4, "{hi}");
        assert_eq!(wilson_interval(0, 5, Z_95).0, 0.0);
        assert_eq!(wilson_interval(5, 5, Z_95).1, 1.0);
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
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
