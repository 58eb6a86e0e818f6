//! Histograms of pair similarities on [0, 1], with the human labels that fall in each bin.
//!
//! Bin `i` of `n` holds similarities in [i/n, (i+1)/n); the last bin also holds 1.0. The
//! labelled precision of a bin is duplicates / (duplicates + not duplicates) among the
//! labelled pairs in it ("unsure" labels are counted but excluded from precision).

use super::labels::Label;

/// The bin of `value` among `bins` equal bins of [0, 1].
///
/// Jaccard values are ratios of small integers, and `0.15 * 20` is `2.9999999999999996` in
/// floating point; a tolerance of 1e-9 (far below 1/|A ∪ B| for any real set) puts such values
/// in the bin their exact value belongs to.
pub fn bin_of(value: f64, bins: usize) -> usize {
    let x = (value.clamp(0.0, 1.0) * bins as f64 + 1e-9).floor() as usize;
    x.min(bins - 1)
}

/// Counts per bin and labels per bin.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimilarityHistogram {
    pub counts: Vec<u64>,
    pub duplicate: Vec<u64>,
    pub not_duplicate: Vec<u64>,
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

    pub fn bins(&self) -> usize {
        self.counts.len()
    }

    /// [low, high) of bin `i` (the last bin also includes 1.0).
    pub fn bin_range(&self, i: usize) -> (f64, f64) {
        let n = self.bins() as f64;
        (i as f64 / n, (i + 1) as f64 / n)
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

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
}
