//! Estimated counts of distinct candidate pairs from a sample of bucket-pair occurrences.
//!
//! A banding's buckets are an exact description of its candidates, and the number of bucket
//! pairs ("occurrences": a pair of documents sharing one bucket of one band) is exact from the
//! bucket sizes alone. A pair that collides in h bands occurs h times. Draw n occurrences
//! uniformly with replacement out of the T there are, and give draw i the weight
//! z_i = 1[its pair is in the set asked about] / h_i: then T · mean(z) is an unbiased
//! (Horvitz–Thompson) estimate of the number of *distinct* pairs in that set, since each
//! distinct pair is drawn h times as often as a pair occurring once, and counts 1/h each time.
//!
//! The interval is the normal approximation with the sample variance of the z_i:
//! T · mean(z) ± 1.96 · T · s(z) / √n, 95 % when the set holds enough draws (in practice a
//! few dozen; bins with only a handful of draws are covered less often). A set no draw fell
//! in gets the one-sided rule of three instead, [0, 3T/n]: with no hit in n draws, the share
//! of occurrences in it is below 3/n at 95 %, and each occurrence weighs at most 1.

use super::histogram::{SimilarityHistogram, bin_of};

/// z for a two-sided 95 % normal interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// An estimated count with its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// Half the interval's width (what "±" shows).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// True when `x` lies in the interval.
    pub fn covers(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// An estimated count as every face shows it: `≈12.3 k ± 1.1 k` (value ± half the 95 %
/// interval, rounded to whole pairs).
impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::numfmt::compact;
        write!(
            f,
            "≈{} ± {}",
            compact(self.value.round().max(0.0) as u64),
            compact(self.half_width().round().max(0.0) as u64)
        )
    }
}

/// One drawn occurrence: the exact Jaccard of its pair and in how many bands the pair
/// collides (at least 1, since it was drawn from a bucket).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Draw {
    pub jaccard: f64,
    pub bands_hit: u32,
}

/// The distinct candidate pairs of a banding, estimated per similarity bin from a uniform
/// sample of its bucket-pair occurrences.
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateEstimate {
    /// T: bucket-pair occurrences over all bands (exact, from bucket sizes).
    pub occurrences: u64,
    /// n: occurrences drawn.
    pub draws: usize,
    /// Per bin of `bins` equal bins of [0, 1] (as [`bin_of`] bins), the estimated distinct
    /// candidate pairs.
    pub bins: Vec<Estimate>,
    /// Draws that fell in each bin.
    pub hits: Vec<u64>,
    /// Estimated distinct candidate pairs in all.
    pub total: Estimate,
    /// Every draw's (Jaccard, 1 / bands hit), sorted by Jaccard: counts on either side of any
    /// threshold come from these.
    weighted: Vec<(f64, f64)>,
}

impl CandidateEstimate {
    /// The estimate from `draws`, drawn uniformly out of `occurrences`, in `bins` bins.
    pub fn from_draws(draws: &[Draw], occurrences: u64, bins: usize) -> Self {
        let bins = bins.max(1);
        let mut weighted: Vec<(f64, f64)> = draws
            .iter()
            .map(|d| (d.jaccard, 1.0 / d.bands_hit.max(1) as f64))
            .collect();
        weighted.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let n = draws.len();
        let t = occurrences as f64;
        let mut sums = vec![(0.0f64, 0.0f64); bins];
        let mut hits = vec![0u64; bins];
        for &(j, w) in &weighted {
            let b = bin_of(j, bins);
            sums[b].0 += w;
            sums[b].1 += w * w;
            hits[b] += 1;
        }
        let per_bin = sums
            .iter()
            .zip(&hits)
            .map(|(&(s, s2), &h)| interval(s, s2, h, n, t))
            .collect();
        let (s, s2) = weighted
            .iter()
            .fold((0.0, 0.0), |(s, s2), &(_, w)| (s + w, s2 + w * w));
        CandidateEstimate {
            occurrences,
            draws: n,
            bins: per_bin,
            hits,
            total: interval(s, s2, n as u64, n, t),
            weighted,
        }
    }

    /// Estimated distinct pairs with Jaccard ≥ `threshold`.
    pub fn at_or_above(&self, threshold: f64) -> Estimate {
        let start = self.weighted.partition_point(|&(j, _)| j < threshold);
        let above = &self.weighted[start..];
        let (s, s2) = above
            .iter()
            .fold((0.0, 0.0), |(s, s2), &(_, w)| (s + w, s2 + w * w));
        interval(
            s,
            s2,
            above.len() as u64,
            self.draws,
            self.occurrences as f64,
        )
    }

    /// A histogram whose counts are the rounded estimates (no labels): what bars are drawn
    /// from.
    pub fn histogram(&self) -> SimilarityHistogram {
        let mut h = SimilarityHistogram::new(self.bins.len());
        for (count, e) in h.counts.iter_mut().zip(&self.bins) {
            *count = e.value.round().max(0.0) as u64;
        }
        h
    }
}

/// The estimate T · mean(z) and its interval, from the sum and sum of squares of the z_i
/// over `hits` non-zero draws among `n`.
fn interval(sum: f64, sum_sq: f64, hits: u64, n: usize, occurrences: f64) -> Estimate {
    if n == 0 {
        return Estimate {
            value: 0.0,
            low: 0.0,
            high: occurrences,
        };
    }
    let nf = n as f64;
    if hits == 0 {
        return Estimate {
            value: 0.0,
            low: 0.0,
            high: (3.0 * occurrences / nf).min(occurrences),
        };
    }
    let mean = sum / nf;
    let variance = if n > 1 {
        ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    let value = occurrences * mean;
    let half = Z95 * occurrences * (variance / nf).sqrt();
    Estimate {
        value,
        low: (value - half).max(0.0),
        high: value + half,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_occurrence_drawn_once_gives_the_distinct_count() {
        // Three pairs: one colliding in 2 bands, two in 1 band: T = 4 occurrences.
        let draws = [
            Draw {
                jaccard: 0.9,
                bands_hit: 2,
            },
            Draw {
                jaccard: 0.9,
                bands_hit: 2,
            },
            Draw {
                jaccard: 0.3,
                bands_hit: 1,
            },
            Draw {
                jaccard: 0.35,
                bands_hit: 1,
            },
        ];
        let e = CandidateEstimate::from_draws(&draws, 4, 10);
        assert!((e.total.value - 3.0).abs() < 1e-12);
        assert!((e.bins[9].value - 1.0).abs() < 1e-12);
        assert!((e.bins[3].value - 2.0).abs() < 1e-12);
        assert_eq!(e.hits[3], 2);
        assert!((e.at_or_above(0.35).value - 2.0).abs() < 1e-12);
        // An empty bin gets the rule-of-three bound, not a zero-width interval.
        assert_eq!(e.bins[0].value, 0.0);
        assert!((e.bins[0].high - 3.0).abs() < 1e-12);
        assert_eq!(e.histogram().counts[3], 2);
    }

    #[test]
    fn intervals_cover_a_known_mean_about_95_percent_of_the_time() {
        // Population: 1000 occurrences, pairs colliding in 1..=4 bands, Jaccard by pair.
        let mut rng = crate::rng::SplitMix64::new(5);
        let population: Vec<Draw> = (0..1000)
            .map(|i| Draw {
                jaccard: (i % 10) as f64 / 10.0 + 0.05,
                bands_hit: 1 + (i % 4) as u32,
            })
            .collect();
        let truth: Vec<f64> = (0..10)
            .map(|b| {
                population
                    .iter()
                    .filter(|d| bin_of(d.jaccard, 10) == b)
                    .map(|d| 1.0 / d.bands_hit as f64)
                    .sum()
            })
            .collect();
        let (mut covered, mut asked) = (0, 0);
        for _ in 0..200 {
            let sample: Vec<Draw> = (0..400)
                .map(|_| population[rng.below(1000) as usize])
                .collect();
            let e = CandidateEstimate::from_draws(&sample, 1000, 10);
            for (b, t) in truth.iter().enumerate() {
                asked += 1;
                covered += usize::from(e.bins[b].covers(*t));
            }
        }
        let rate = covered as f64 / asked as f64;
        assert!((0.92..=0.98).contains(&rate), "coverage {rate}");
    }
}
