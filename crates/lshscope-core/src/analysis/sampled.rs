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
//!
//! A first answer may come before every band is built: then the occurrences are drawn from
//! the first k of the banding's b bands, whose hash functions are independent and exchangeable,
//! so those k bands are a simple random sample of the b. That is two-stage sampling (bands,
//! then occurrences within them; Cochran, *Sampling Techniques*, 3rd ed., §11.3): with
//! Ŷⱼ = (T_k / n) · Σ z over the draws from band j (T_k: occurrences in the k bands),
//! the estimate is (b / k) · Σ Ŷⱼ and its variance
//! b² (1 − k/b) s²(Ŷⱼ) / k + (b / k) · T_k² s²(z) / n (between bands, then within). With
//! k = b the first term vanishes and it is the one-stage interval above. The spread between
//! bands rests on k values only, so such an interval uses Student's t with k − 1 degrees of
//! freedom instead of the normal 1.96 (wider, and conservative when the within term
//! dominates).

use super::histogram::{SimilarityHistogram, bin_of};
use crate::util::stats::{Z_95, log_interval, student_t_975};

/// An estimated count with its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
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

    /// The interval spans less than the value on either side (within a factor of 2 of it):
    /// a number to act on. A first estimate from the first few bands or draws is often not,
    /// and faces say "estimating" instead of showing it.
    pub fn is_informative(&self) -> bool {
        self.value > 0.0 && self.high <= 2.0 * self.value && self.low >= 0.5 * self.value
    }

    /// The estimate of a count known to be at least `floor` (the distinct pairs a sample
    /// has already found): the value and both ends raised to it. A normal-approximation
    /// interval from a few bands can reach below zero ("≈40.6 M ± 42.0 M"); what is already
    /// found is a lower bound that holds for certain, so the interval need not go below it.
    pub fn at_least(&self, floor: f64) -> Estimate {
        Estimate {
            value: self.value.max(floor),
            low: self.low.max(floor),
            high: self.high.max(floor),
        }
    }

    /// The interval is close to symmetric (each side within 20 % of the other), so
    /// "value ± half width" describes it.
    fn is_symmetric(&self) -> bool {
        let (below, above) = (self.value - self.low, self.high - self.value);
        (below - above).abs() <= 0.2 * below.max(above)
    }
}

/// An estimated count as every face shows it: `≈12.3 k ± 1.1 k` (value ± half the 95 %
/// interval, rounded to whole pairs) when the interval is symmetric enough for that, else
/// `≈40.6 M (12.1 M–136.2 M)`: a count cannot run below zero, and a skewed interval is shown
/// as it is.
impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::util::numfmt::compact;
        let count = |x: f64| compact(x.round().max(0.0) as u64);
        // "±" only where it cannot read as a count below zero: "≈40.6 M ± 42.0 M" did.
        if self.is_symmetric() && self.value >= self.half_width() {
            write!(f, "≈{} ± {}", count(self.value), count(self.half_width()))
        } else {
            write!(
                f,
                "≈{} ({}–{})",
                count(self.value),
                count(self.low),
                count(self.high)
            )
        }
    }
}

/// One drawn occurrence: the exact Jaccard of its pair and in how many bands the pair
/// collides (at least 1, since it was drawn from a bucket).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Draw {
    /// Exact Jaccard of the drawn pair, in [0, 1].
    pub jaccard: f64,
    /// Bands in which the pair shares a bucket, at least 1.
    pub bands_hit: u32,
    /// The band the occurrence was drawn from (0 when bands are not sampled).
    pub band: u32,
}

/// The distinct candidate pairs of a banding, estimated per similarity bin from a uniform
/// sample of its bucket-pair occurrences (in all its bands, or in the first k of them).
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateEstimate {
    /// Bucket-pair occurrences over the bands drawn from (exact, from bucket sizes): T, or T_k
    /// when bands are sampled.
    pub occurrences: u64,
    /// n: occurrences drawn.
    pub draws: usize,
    /// (k, b): the draws come from the first k of the banding's b bands (k = b: all).
    pub bands: (usize, usize),
    /// Per bin of `bins` equal bins of [0, 1] (as [`bin_of`] bins), the estimated distinct
    /// candidate pairs.
    pub bins: Vec<Estimate>,
    /// Draws that fell in each bin.
    pub hits: Vec<u64>,
    /// Estimated distinct candidate pairs in all.
    pub total: Estimate,
    /// Every draw's (Jaccard, 1 / bands hit, band), sorted by Jaccard: counts on either side
    /// of any threshold come from these.
    weighted: Vec<(f64, f64, u32)>,
}

impl CandidateEstimate {
    /// The estimate from `draws`, drawn uniformly out of `occurrences` over every band, in
    /// `bins` bins.
    pub fn from_draws(draws: &[Draw], occurrences: u64, bins: usize) -> Self {
        Self::from_band_sample(draws, occurrences, (1, 1), bins)
    }

    /// The estimate from `draws`, drawn uniformly out of the `occurrences` of the first k of
    /// b bands, `bands` = (k, b); each draw's `band` is below k.
    pub fn from_band_sample(
        draws: &[Draw],
        occurrences: u64,
        bands: (usize, usize),
        bins: usize,
    ) -> Self {
        let bins = bins.max(1);
        let bands = (bands.0.max(1), bands.1.max(bands.0).max(1));
        let mut weighted: Vec<(f64, f64, u32)> = draws
            .iter()
            .map(|d| {
                (
                    d.jaccard,
                    1.0 / d.bands_hit.max(1) as f64,
                    d.band.min(bands.0 as u32 - 1),
                )
            })
            .collect();
        weighted.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let mut per_bin: Vec<Vec<(f64, f64, u32)>> = vec![Vec::new(); bins];
        for &w in &weighted {
            per_bin[bin_of(w.0, bins)].push(w);
        }
        let sample = Sample {
            n: draws.len(),
            occurrences: occurrences as f64,
            bands,
        };
        CandidateEstimate {
            occurrences,
            draws: draws.len(),
            bands,
            bins: per_bin.iter().map(|b| sample.estimate(b)).collect(),
            hits: per_bin.iter().map(|b| b.len() as u64).collect(),
            total: sample.estimate(&weighted),
            weighted,
        }
    }

    /// Estimated distinct pairs with Jaccard ≥ `threshold`.
    pub fn at_or_above(&self, threshold: f64) -> Estimate {
        let start = self.weighted.partition_point(|&(j, _, _)| j < threshold);
        self.sample().estimate(&self.weighted[start..])
    }

    /// Estimated distinct pairs with Jaccard < `threshold`, with an interval of its own (the
    /// total minus [`CandidateEstimate::at_or_above`] would have none: the two are correlated).
    pub fn below(&self, threshold: f64) -> Estimate {
        let end = self.weighted.partition_point(|&(j, _, _)| j < threshold);
        self.sample().estimate(&self.weighted[..end])
    }

    fn sample(&self) -> Sample {
        Sample {
            n: self.draws,
            occurrences: self.occurrences as f64,
            bands: self.bands,
        }
    }

    /// True when the draws come from only some of the banding's bands (a first answer).
    pub fn bands_sampled(&self) -> bool {
        self.bands.0 < self.bands.1
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

/// How the draws were taken: n of them, out of `occurrences` in the first k of b bands.
struct Sample {
    n: usize,
    occurrences: f64,
    bands: (usize, usize),
}

impl Sample {
    /// The estimate of a set and its interval, from the draws that fell in it (Jaccard,
    /// weight 1/h, band); every other draw has z = 0.
    fn estimate(&self, hits: &[(f64, f64, u32)]) -> Estimate {
        let (n, t) = (self.n, self.occurrences);
        let (k, b) = (self.bands.0 as f64, self.bands.1 as f64);
        let scale = b / k;
        if n == 0 {
            return Estimate {
                value: 0.0,
                low: 0.0,
                high: t * scale,
            };
        }
        let nf = n as f64;
        if hits.is_empty() {
            return Estimate {
                value: 0.0,
                low: 0.0,
                high: (3.0 * t / nf).min(t) * scale,
            };
        }
        let (sum, sum_sq) = hits
            .iter()
            .fold((0.0, 0.0), |(s, s2), &(_, w, _)| (s + w, s2 + w * w));
        let mean = sum / nf;
        let variance = if n > 1 {
            ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0)
        } else {
            0.0
        };
        let within = t * t * variance / nf;
        let between = if self.bands.0 < self.bands.1 {
            // Ŷⱼ = (T_k / n) · Σ z over band j's draws; their spread over the k bands.
            let mut per_band = vec![0.0f64; self.bands.0];
            for &(_, w, band) in hits {
                per_band[band as usize] += w * t / nf;
            }
            let mean_band = per_band.iter().sum::<f64>() / k;
            let s1 = per_band
                .iter()
                .map(|y| (y - mean_band).powi(2))
                .sum::<f64>()
                / (k - 1.0).max(1.0);
            b * b * (1.0 - k / b) * s1 / k
        } else {
            0.0
        };
        let value = scale * t * mean;
        let z = if self.bands.0 < self.bands.1 {
            student_t_975(self.bands.0 - 1)
        } else {
            Z_95
        };
        // A count is positive and its estimate skewed right when few draws carry it: the
        // interval is taken on the log scale, so it never runs below zero and widens upwards.
        let (low, high) = log_interval(value, (between + scale * within).sqrt(), z);
        // Every occurrence weighs at most 1: no count exceeds the occurrences it rests on.
        Estimate {
            value,
            low,
            high: high.min(t * scale),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_known_to_be_at_least_a_floor_is_shown_above_it() {
        // The first estimate of the issue: two of twenty bands, an interval below zero.
        let wide = Estimate {
            value: 40.6e6,
            low: 40.6e6 - 42.0e6,
            high: 40.6e6 + 42.0e6,
        };
        assert_eq!(wide.to_string(), "≈40.6 M (0–82.6 M)", "never ± past zero");
        let bounded = wide.at_least(57_803.0);
        assert_eq!(bounded.low, 57_803.0);
        assert_eq!((bounded.value, bounded.high), (wide.value, wide.high));
        assert_eq!(bounded.to_string(), "≈40.6 M (57.8 k–82.6 M)");
        // A floor above the whole interval (the sample found more than was estimated).
        let low = Estimate {
            value: 10.0,
            low: 5.0,
            high: 15.0,
        };
        assert_eq!(
            low.at_least(20.0),
            Estimate {
                value: 20.0,
                low: 20.0,
                high: 20.0
            }
        );
        // A floor inside the interval's lower side leaves an interval above it unchanged.
        assert_eq!(low.at_least(2.0), low);
    }

    #[test]
    fn every_occurrence_drawn_once_gives_the_distinct_count() {
        // Three pairs: one colliding in 2 bands, two in 1 band: T = 4 occurrences.
        let draws = [
            Draw {
                jaccard: 0.9,
                bands_hit: 2,
                band: 0,
            },
            Draw {
                jaccard: 0.9,
                bands_hit: 2,
                band: 0,
            },
            Draw {
                jaccard: 0.3,
                bands_hit: 1,
                band: 0,
            },
            Draw {
                jaccard: 0.35,
                bands_hit: 1,
                band: 0,
            },
        ];
        let e = CandidateEstimate::from_draws(&draws, 4, 10);
        assert!((e.total.value - 3.0).abs() < 1e-12);
        assert!((e.bins[9].value - 1.0).abs() < 1e-12);
        assert!((e.bins[3].value - 2.0).abs() < 1e-12);
        assert_eq!(e.hits[3], 2);
        assert!((e.at_or_above(0.35).value - 2.0).abs() < 1e-12);
        assert!((e.below(0.35).value - 1.0).abs() < 1e-12);
        // An empty bin gets the rule-of-three bound, not a zero-width interval.
        assert_eq!(e.bins[0].value, 0.0);
        assert!((e.bins[0].high - 3.0).abs() < 1e-12);
        assert_eq!(e.histogram().counts[3], 2);
    }

    /// 1000 occurrences, of pairs colliding in 1..=4 bands, Jaccard by pair.
    fn population() -> Vec<Draw> {
        (0..1000)
            .map(|i| Draw {
                jaccard: (i % 10) as f64 / 10.0 + 0.05,
                bands_hit: 1 + (i % 4) as u32,
                band: 0,
            })
            .collect()
    }

    #[test]
    fn intervals_cover_a_known_mean_about_95_percent_of_the_time() {
        let mut rng = crate::util::rng::SplitMix64::new(5);
        let population = population();
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

    #[test]
    fn below_and_at_or_above_split_the_total_each_with_an_interval_that_covers() {
        // The counts on either side of t = 0.5.
        let mut rng = crate::util::rng::SplitMix64::new(9);
        let population = population();
        let truth_below: f64 = population
            .iter()
            .filter(|d| d.jaccard < 0.5)
            .map(|d| 1.0 / d.bands_hit as f64)
            .sum();
        let mut covered = 0;
        for _ in 0..400 {
            let sample: Vec<Draw> = (0..400)
                .map(|_| population[rng.below(1000) as usize])
                .collect();
            let e = CandidateEstimate::from_draws(&sample, 1000, 10);
            let (below, above) = (e.below(0.5), e.at_or_above(0.5));
            assert!((below.value + above.value - e.total.value).abs() < 1e-9);
            assert!(below.half_width() > 0.0);
            covered += usize::from(below.covers(truth_below));
        }
        let rate = covered as f64 / 400.0;
        assert!((0.92..=0.98).contains(&rate), "coverage {rate}");
    }
}
