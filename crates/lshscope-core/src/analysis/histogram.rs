//! Histograms of pair similarities on [0, 1], with the human labels that fall in each bin.
//!
//! Bin `i` of `n` holds similarities in [i/n, (i+1)/n); the last bin also holds 1.0. Every
//! part of lshscope that bins a similarity ([`bin_of`]) or turns a bin back into its edges
//! ([`bin_bounds`]) goes through these two functions, so a pair on an edge lands in the same
//! bin in the explorer's histogram, its filter, the recall table and the exported figures. The
//! labelled precision of a bin is duplicates / (duplicates + not duplicates) among the
//! labelled pairs in it ("unsure" labels are counted but excluded from precision).

use super::labels::Label;

/// The bin of `value` among `bins` (at least 1) equal bins of [0, 1]: the `i` with
/// `lo ≤ value < hi` for `(lo, hi, _) = bin_bounds(i, bins)`, the last bin also taking 1.
/// Values outside [0, 1] go to the first or last bin.
///
/// `value · bins` alone is not enough: a Jaccard value is a ratio k/m of integers, and
/// `29.0 / 50.0 * 50.0` is `28.999999999999996`, which floors to bin 28 of 50 although 29/50 is
/// the lower edge of bin 29. So the product only guesses, and the guess is corrected against
/// the edges `i / bins` themselves. Both k/m and i/bins are correctly rounded quotients and
/// rounding is monotone, so when k/m ≥ i/bins exactly, the floats compare the same way; and
/// when k/m < i/bins, the two differ by at least 1/(m · bins), more than the rounding (at most
/// 2⁻⁵⁴ each) as long as m · bins < 2⁵³. With up to 1000 bins the comparison is exact for the
/// Jaccard of any sets under 2⁴³ shingles, and [`bin_bounds`] is its exact inverse.
pub fn bin_of(value: f64, bins: usize) -> usize {
    debug_assert!(bins > 0, "a histogram needs at least one bin");
    let bins = bins.max(1);
    let n = bins as f64;
    let value = value.clamp(0.0, 1.0);
    // The product is within a few ulps of the exact one, so the guess is off by at most one.
    let guess = ((value * n) as usize).min(bins - 1);
    if value < guess as f64 / n {
        guess - 1
    } else if guess + 1 < bins && value >= (guess + 1) as f64 / n {
        guess + 1
    } else {
        guess
    }
}

/// The edges of bin `i` of `bins` equal bins of [0, 1]: `(lo, hi, hi_inclusive)`, the bin
/// holding `lo ≤ s < hi`, or `lo ≤ s ≤ hi` when `hi_inclusive` (the last bin, which holds 1).
/// [`bin_of`] puts exactly these values in bin `i`.
pub fn bin_bounds(i: usize, bins: usize) -> (f64, f64, bool) {
    let n = bins as f64;
    (i as f64 / n, (i + 1) as f64 / n, i + 1 == bins)
}

/// Counts per bin and labels per bin.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimilarityHistogram {
    /// Pairs per bin, labelled or not; `counts.len()` is the number of bins.
    pub counts: Vec<u64>,
    /// Pairs per bin labelled [`Label::Duplicate`].
    pub duplicate: Vec<u64>,
    /// Pairs per bin labelled [`Label::NotDuplicate`].
    pub not_duplicate: Vec<u64>,
    /// Pairs per bin labelled [`Label::Unsure`].
    pub unsure: Vec<u64>,
}

impl SimilarityHistogram {
    /// An empty histogram of `bins` bins (at least 1).
    pub fn new(bins: usize) -> Self {
        let bins = bins.max(1);
        SimilarityHistogram {
            counts: vec![0; bins],
            duplicate: vec![0; bins],
            not_duplicate: vec![0; bins],
            unsure: vec![0; bins],
        }
    }

    /// A histogram of `(similarity, label)` values.
    pub fn from_values(
        values: impl IntoIterator<Item = (f64, Option<Label>)>,
        bins: usize,
    ) -> Self {
        let mut h = SimilarityHistogram::new(bins);
        for (v, l) in values {
            h.add(v, l);
        }
        h
    }

    /// Counts one pair of similarity `value` (in [0, 1]) in its bin, and in that bin's
    /// label count when it has a label.
    pub fn add(&mut self, value: f64, label: Option<Label>) {
        let i = bin_of(value, self.bins());
        self.counts[i] += 1;
        if let Some(l) = label {
            self.add_label(value, l);
        }
    }

    /// Records a label for a pair already counted with [`SimilarityHistogram::add`].
    pub fn add_label(&mut self, value: f64, label: Label) {
        let i = bin_of(value, self.bins());
        match label {
            Label::Duplicate => self.duplicate[i] += 1,
            Label::NotDuplicate => self.not_duplicate[i] += 1,
            Label::Unsure => self.unsure[i] += 1,
        }
    }

    /// Number of equal-width bins over [0, 1].
    pub fn bins(&self) -> usize {
        self.counts.len()
    }

    /// [low, high) of bin `i` (the last bin also includes 1.0), as [`bin_bounds`] gives them.
    pub fn bin_range(&self, i: usize) -> (f64, f64) {
        let (lo, hi, _) = bin_bounds(i, self.bins());
        (lo, hi)
    }

    /// Pairs counted in all bins.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The largest bin's count (0 when nothing was counted): what a y axis is scaled to.
    pub fn max_count(&self) -> u64 {
        self.counts.iter().copied().max().unwrap_or(0)
    }

    /// Pairs with any label in bin `i`.
    pub fn labelled(&self, i: usize) -> u64 {
        self.duplicate[i] + self.not_duplicate[i] + self.unsure[i]
    }

    /// duplicates / (duplicates + not duplicates) in bin `i`; `None` without such labels.
    pub fn precision(&self, i: usize) -> Option<f64> {
        let decided = self.duplicate[i] + self.not_duplicate[i];
        (decided > 0).then(|| self.duplicate[i] as f64 / decided as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_edges_and_precision() {
        assert_eq!(bin_of(0.0, 20), 0);
        assert_eq!(bin_of(0.15, 20), 3);
        assert_eq!(bin_of(3.0 / 20.0, 20), 3);
        assert_eq!(bin_of(0.1499, 20), 2);
        assert_eq!(bin_of(1.0, 20), 19);
        assert_eq!(bin_of(0.999, 20), 19);
        let h = SimilarityHistogram::from_values(
            [
                (0.91, Some(Label::Duplicate)),
                (0.93, Some(Label::Duplicate)),
                (0.94, Some(Label::NotDuplicate)),
                (0.96, Some(Label::Unsure)),
                (0.2, None),
            ],
            20,
        );
        assert_eq!(h.total(), 5);
        assert_eq!(h.counts[18], 3);
        assert_eq!(h.counts[19], 1);
        assert_eq!(h.max_count(), 3);
        assert_eq!(h.precision(18), Some(2.0 / 3.0));
        assert_eq!(h.precision(19), None);
        assert_eq!(h.labelled(19), 1);
        assert_eq!(h.precision(4), None);
        assert_eq!(h.bin_range(18), (0.9, 0.95));
    }

    /// The exact bin of k/m in `bins` bins, in integers.
    fn exact_bin(k: u64, m: u64, bins: u64) -> usize {
        ((k * bins / m) as usize).min(bins as usize - 1)
    }

    #[test]
    fn the_product_alone_misplaces_29_of_50() {
        // Why bin_of does not simply floor value · bins.
        let v = 29.0 / 50.0;
        assert_eq!(v * 50.0, 28.999999999999996);
        assert_eq!(bin_of(v, 50), 29);
        assert_eq!(exact_bin(29, 50, 50), 29);
        assert_eq!(bin_of(0.15, 20), 3);
    }

    #[test]
    fn bin_of_agrees_with_integer_arithmetic_for_every_ratio() {
        for bins in 10..=100u64 {
            for m in 1..=1000u64 {
                for k in 0..=m {
                    let value = k as f64 / m as f64;
                    assert_eq!(
                        bin_of(value, bins as usize),
                        exact_bin(k, m, bins),
                        "{k}/{m} in {bins} bins"
                    );
                }
            }
        }
    }

    #[test]
    fn bin_bounds_is_the_inverse_of_bin_of() {
        for bins in 1..=1000usize {
            for i in 0..bins {
                let (lo, hi, hi_inclusive) = bin_bounds(i, bins);
                assert_eq!(bin_of(lo, bins), i, "low edge of bin {i} of {bins}");
                // The largest float below the upper edge is still in the bin.
                let below_hi = f64::from_bits(hi.to_bits() - 1);
                assert_eq!(
                    bin_of(below_hi, bins),
                    i,
                    "just below the top of {i} of {bins}"
                );
                assert_eq!(hi_inclusive, i + 1 == bins);
                if hi_inclusive {
                    assert_eq!((hi, bin_of(hi, bins)), (1.0, i));
                } else {
                    assert_eq!(bin_of(hi, bins), i + 1, "top edge of bin {i} of {bins}");
                }
                if i > 0 {
                    let below_lo = f64::from_bits(lo.to_bits() - 1);
                    assert_eq!(
                        bin_of(below_lo, bins),
                        i - 1,
                        "just below bin {i} of {bins}"
                    );
                }
            }
        }
        assert_eq!(bin_of(-0.5, 10), 0);
        assert_eq!(bin_of(1.5, 10), 9);
        assert_eq!(bin_of(0.7, 1), 0);
    }
}
