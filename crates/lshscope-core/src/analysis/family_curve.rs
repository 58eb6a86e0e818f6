//! A sketch family's S-curve as measured on the corpus's true pairs, beside the formula.
//!
//! 1 − (1 − s^r)^b is what K independent rows give. A family whose rows depend on each other
//! (one-permutation hashing's densified bins, C-MinHash's circulant shifts) can sit above or
//! below it, by an amount that depends on the corpus (how many shingles its documents have,
//! how its pairs share them). [`FamilyCurve::measure`] answers "what does this family do to
//! my pairs at this banding": from [`RedrawAgreement`] masks of D independent draws of the
//! family, each bin's candidate rate is the mean over the draws, with a 95 % interval for
//! that mean, and the formula's prediction for the same pairs.
//!
//! The interval: every pair of one draw shares the draw, so the D per-draw rates are the
//! independent observations, not the n pairs. The interval is Student's t interval of their
//! mean (mean ± t₀.₉₇₅,D−1 · s/√D), widened where needed to the Wilson interval of n·D
//! independent pair-draws: the narrowest any measurement of n pairs over D draws can honestly
//! be, and the one that stays open when all draws agree (a bin where every draw finds every
//! pair still has a lower bound below 1).

use super::histogram::bin_of;
use super::redraws::{RedrawAgreement, RedrawCounts};
use super::truth::TruthPair;
use crate::minhash::scurve::candidate_probability;
use crate::minhash::{Banding, SketchFamily};
use crate::util::stats::{Z_95, student_t_975, wilson_interval_at};

/// One similarity bin of a [`FamilyCurve`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FamilyCurveBin {
    /// The bin covers exact Jaccard in [lo, hi).
    pub lo: f64,
    /// Upper end of the bin (exclusive, except 1.0 for the last bin).
    pub hi: f64,
    /// True pairs in the bin.
    pub pairs: usize,
    /// Mean Jaccard of those pairs: where the bin sits on the curve.
    pub mean_jaccard: f64,
    /// The candidate rate, averaged over the draws.
    pub rate: f64,
    /// 95 % interval of that mean over draws of the family.
    pub interval_lo: f64,
    /// Upper end of that interval.
    pub interval_hi: f64,
    /// The formula's prediction for these pairs: the mean of 1 − (1 − sᵢ^r)^b.
    pub predicted: f64,
}

impl FamilyCurveBin {
    /// The formula's prediction lies outside the interval: the family's rows measurably
    /// depart from independent ones on these pairs.
    pub fn departs(&self) -> bool {
        crate::util::stats::is_outside(self.predicted, self.interval_lo, self.interval_hi)
    }
}

/// A family's measured S-curve for one banding (see the module documentation).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FamilyCurve {
    /// The sketch family whose draws were measured.
    pub family: SketchFamily,
    /// The banding the candidate rates are for.
    pub banding: Banding,
    /// Draws of the family the rates average over.
    pub draws: usize,
    /// Non-empty bins only, in order of similarity.
    pub bins: Vec<FamilyCurveBin>,
}

impl FamilyCurve {
    /// Measures `banding` on `agreement` (D draws of `family` over the pairs of `truth`, in
    /// the same order) in `bins` equal-width similarity bins.
    pub fn measure(
        family: SketchFamily,
        agreement: &RedrawAgreement,
        truth: &[TruthPair],
        banding: Banding,
        bins: usize,
    ) -> FamilyCurve {
        // The threshold only splits off a count this curve does not use.
        let counts = agreement.found_per_draw(truth, banding, bins, 1.0);
        FamilyCurve::from_counts(family, banding, &counts, truth, bins)
    }

    /// The curve from per-bin, per-draw counts of `truth` pairs that `banding` makes
    /// candidates ([`crate::analysis::redraws::redraw_counts`] for a fixed banding, which
    /// keeps no masks), in `bins` bins.
    pub fn from_counts(
        family: SketchFamily,
        banding: Banding,
        counts: &RedrawCounts,
        truth: &[TruthPair],
        bins: usize,
    ) -> FamilyCurve {
        let draws = counts.at_threshold.len();
        let mut members = vec![(0usize, 0.0f64, 0.0f64); bins];
        for p in truth {
            let m = &mut members[bin_of(p.jaccard, bins)];
            m.0 += 1;
            m.1 += p.jaccard;
            m.2 += candidate_probability(p.jaccard, banding.bands, banding.rows);
        }
        let bins_out = members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.0 > 0)
            .map(|(k, &(n, jaccard_sum, predicted_sum))| {
                let rates: Vec<f64> = counts.per_bin[k]
                    .iter()
                    .map(|&found| found as f64 / n as f64)
                    .collect();
                let (rate, interval_lo, interval_hi) = mean_interval(&rates, n);
                FamilyCurveBin {
                    lo: k as f64 / bins as f64,
                    hi: (k + 1) as f64 / bins as f64,
                    pairs: n,
                    mean_jaccard: jaccard_sum / n as f64,
                    rate,
                    interval_lo,
                    interval_hi,
                    predicted: predicted_sum / n as f64,
                }
            })
            .collect();
        FamilyCurve {
            family,
            banding,
            draws,
            bins: bins_out,
        }
    }

    /// Bins whose interval excludes the formula's prediction.
    pub fn departing_bins(&self) -> usize {
        self.bins.iter().filter(|b| b.departs()).count()
    }
}

/// The mean of `rates` (one per draw, each over `n` pairs) and its 95 % interval, as the
/// module documentation derives it.
fn mean_interval(rates: &[f64], n: usize) -> (f64, f64, f64) {
    let d = rates.len();
    if d == 0 || n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let mean = rates.iter().sum::<f64>() / d as f64;
    // The floor: as if all n·D pair-draws were independent.
    let (mut lo, mut hi) = wilson_interval_at(mean, (n * d) as f64, Z_95);
    if d >= 2 {
        let variance = rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (d - 1) as f64;
        let half = student_t_975(d - 1) * (variance / d as f64).sqrt();
        lo = lo.min((mean - half).max(0.0));
        hi = hi.max((mean + half).min(1.0));
    }
    (mean, lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_draws_keep_a_binomial_width() {
        let (mean, lo, hi) = mean_interval(&[1.0; 16], 50);
        assert_eq!(mean, 1.0);
        assert!(lo < 1.0 && lo > 0.98, "{lo}");
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn spread_between_draws_widens_the_interval_to_the_t_interval_of_the_mean() {
        // Rates that swing far more than 1,000 independent pairs would: the interval must be
        // the t interval of 8 draws' mean, not the binomial one of 8,000 pair-draws.
        let rates = [0.2, 0.8, 0.3, 0.7, 0.25, 0.75, 0.4, 0.6];
        let (mean, lo, hi) = mean_interval(&rates, 1000);
        assert!((mean - 0.5).abs() < 1e-12);
        let sd = (rates.iter().map(|r| (r - 0.5f64).powi(2)).sum::<f64>() / 7.0).sqrt();
        let t_half = student_t_975(7) * sd / 8f64.sqrt();
        assert!(
            ((hi - lo) / 2.0 - t_half).abs() < 0.01,
            "{lo}..{hi} vs ±{t_half}"
        );
    }
}
