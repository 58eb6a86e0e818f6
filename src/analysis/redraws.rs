//! How far a banding's measured candidate rate moves when the hash family is drawn again.
//!
//! The S-curve P(s) = 1 − (1 − s^r)^b is a probability over the choice of hash functions,
//! and every pair of one corpus shares that one choice. Pairs that share documents (a family
//! of near-copies, a chain of edits) or frequent shingles succeed or fail together, so the
//! number of true pairs a banding finds in a similarity bin spreads many times wider than a
//! binomial count over independent pairs would: on real corpora a binomial (Wilson) interval
//! flags a third of the bins of a healthy hash family.
//!
//! The question a user asks of the measurement is exactly "what does this banding do for a
//! random draw of the family", so we measure the spread the same way: redraw the family
//! `draws` times (seeds derived from the scan's seed), compute the signatures of the documents
//! the truth names, and keep, per truth pair and draw, the K-bit mask of signature rows where
//! the two documents agree. Whether a pair is a candidate of any banding (b, r) is then a bit
//! test (some band's r bits all set), so the explorer can redo the per-bin spread on every
//! re-banding without hashing again.
//!
//! From the per-draw rates of a bin we estimate its variance around the S-curve's mean, and
//! from that the bin's design effect (variance over the binomial variance at the same rate,
//! Kish 1965) and effective sample size; the interval is the Wilson interval at that effective
//! size with Student's t quantile for the number of draws (the variance is itself estimated).
//! It assumes only that the draws are independent draws of the family, which they are.

use rayon::prelude::*;

use super::histogram::bin_of;
use super::truth::TruthPair;
use crate::jobs::Progress;
use crate::minhash::{Banding, HashFamily, ShingleSets, signature_into};
use crate::rng::SplitMix64;
use crate::stats::{Z_95, student_t_975, wilson_interval_at};

/// Redraws used unless the caller says otherwise: enough that the variance estimate is within
/// about ±35 % (χ² with 16 degrees of freedom, 95 %) and the t quantile 2.12 is close to 1.96.
pub const DEFAULT_REDRAWS: usize = 16;

/// The seed of redraw `i` for a scan with `seed`: a SplitMix64 stream that never yields `seed`
/// itself in practice, so the measured draw is not among the redraws.
fn redraw_seed(seed: u64, i: usize) -> u64 {
    let mut rng = SplitMix64::new(seed ^ 0x5eed_4ed4_a3f0_0000);
    let mut s = 0;
    for _ in 0..=i {
        s = rng.next_u64();
    }
    s
}

/// Per truth pair and redraw, the rows where the two signatures agree.
#[derive(Debug, Clone)]
pub struct RedrawAgreement {
    num_perm: usize,
    draws: usize,
    /// u64 words per mask: ⌈K / 64⌉.
    words: usize,
    /// pair-major: pair i's mask for draw d starts at (i · draws + d) · words.
    masks: Vec<u64>,
    /// The pair has a document without shingles: never a candidate.
    never: Vec<bool>,
}

impl RedrawAgreement {
    /// Hashes the documents `truth` names `draws` times with K = `num_perm` functions drawn
    /// from seeds derived from `seed`, and records each pair's agreement masks. `sets` are the
    /// index's shingle sets (the signatures' input). Progress counts documents hashed; a
    /// cancelled `progress` stops it with [`crate::Error::Cancelled`].
    pub fn compute(
        sets: &ShingleSets,
        truth: &[TruthPair],
        num_perm: usize,
        seed: u64,
        draws: usize,
        progress: &Progress,
    ) -> crate::Result<Self> {
        let words = num_perm.div_ceil(64);
        // The documents the truth names, and a dense slot for each.
        let mut slot = vec![u32::MAX; sets.len()];
        let mut docs: Vec<u32> = Vec::new();
        for p in truth {
            for d in [p.a, p.b] {
                if slot[d as usize] == u32::MAX {
                    slot[d as usize] = docs.len() as u32;
                    docs.push(d);
                }
            }
        }
        let never: Vec<bool> = truth
            .iter()
            .map(|p| sets.get(p.a as usize).is_empty() || sets.get(p.b as usize).is_empty())
            .collect();
        progress.begin(crate::jobs::Phase::Redraws, (docs.len() * draws) as u64);
        let mut masks = vec![0u64; truth.len() * draws * words];
        let mut sigs = vec![0u32; docs.len() * num_perm];
        for draw in 0..draws {
            progress.check()?;
            let family = HashFamily::new(num_perm, redraw_seed(seed, draw));
            sigs.par_chunks_mut(num_perm)
                .zip(docs.par_iter())
                .for_each_init(Vec::new, |folded, (row, &d)| {
                    signature_into(&family, sets.get(d as usize), row, folded);
                });
            progress.advance(docs.len() as u64);
            masks
                .par_chunks_mut(draws * words)
                .zip(truth.par_iter())
                .for_each(|(pair_masks, p)| {
                    let a = slot[p.a as usize] as usize * num_perm;
                    let b = slot[p.b as usize] as usize * num_perm;
                    let mask = &mut pair_masks[draw * words..(draw + 1) * words];
                    for (row, (x, y)) in sigs[a..a + num_perm]
                        .iter()
                        .zip(&sigs[b..b + num_perm])
                        .enumerate()
                    {
                        mask[row / 64] |= ((x == y) as u64) << (row % 64);
                    }
                });
        }
        Ok(RedrawAgreement {
            num_perm,
            draws,
            words,
            masks,
            never,
        })
    }

    pub fn draws(&self) -> usize {
        self.draws
    }

    pub fn num_perm(&self) -> usize {
        self.num_perm
    }

    pub fn pairs(&self) -> usize {
        self.never.len()
    }

    /// Whether truth pair `pair` is a candidate of `banding` under redraw `draw`.
    pub fn collides(&self, pair: usize, draw: usize, banding: Banding) -> bool {
        if self.never[pair] {
            return false;
        }
        let start = (pair * self.draws + draw) * self.words;
        let mask = &self.masks[start..start + self.words];
        (0..banding.bands).any(|band| all_set(mask, band * banding.rows, banding.rows))
    }

    /// For `banding`, the candidates found per redraw in each of `bins` similarity bins
    /// (`counts[bin][draw]`), and the same for the pairs at or above `threshold`.
    pub fn found_per_draw(
        &self,
        truth: &[TruthPair],
        banding: Banding,
        bins: usize,
        threshold: f64,
    ) -> RedrawCounts {
        assert_eq!(
            truth.len(),
            self.pairs(),
            "the truth the masks were made from"
        );
        assert!(banding.bands * banding.rows <= self.num_perm);
        let zero = || RedrawCounts {
            per_bin: vec![vec![0u32; self.draws]; bins],
            at_threshold: vec![0u32; self.draws],
        };
        truth
            .par_iter()
            .enumerate()
            .fold(zero, |mut acc, (i, p)| {
                let k = bin_of(p.jaccard, bins);
                for d in 0..self.draws {
                    if self.collides(i, d, banding) {
                        acc.per_bin[k][d] += 1;
                        if p.jaccard >= threshold {
                            acc.at_threshold[d] += 1;
                        }
                    }
                }
                acc
            })
            .reduce(zero, |mut x, y| {
                for (a, b) in x.per_bin.iter_mut().zip(&y.per_bin) {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                }
                x.at_threshold
                    .iter_mut()
                    .zip(&y.at_threshold)
                    .for_each(|(a, b)| *a += b);
                x
            })
    }
}

/// Candidates found under each redraw, per bin and at the threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct RedrawCounts {
    pub per_bin: Vec<Vec<u32>>,
    pub at_threshold: Vec<u32>,
}

/// Bits [start, start + len) of `mask` are all set.
fn all_set(mask: &[u64], start: usize, len: usize) -> bool {
    let mut bit = start;
    let end = start + len;
    while bit < end {
        let word = mask[bit / 64];
        let lo = bit % 64;
        let n = (end - bit).min(64 - lo);
        let want = if n == 64 {
            u64::MAX
        } else {
            ((1u64 << n) - 1) << lo
        };
        if word & want != want {
            return false;
        }
        bit += n;
    }
    true
}

/// The interval of a measured rate `found / n` whose spread over draws of the hash family was
/// measured: `rates` are the rates of the redraws and `expected` their mean under the S-curve.
///
/// The variance around the known mean, Σ (rateᵢ − expected)² / D, over the binomial variance
/// at `expected` is the design effect; the Wilson interval is taken at n / max(1, design
/// effect) trials, with Student's t quantile for D degrees of freedom (the variance is an
/// estimate from D draws). With no redraws it is the plain Wilson interval.
pub fn redraw_interval(found: usize, n: usize, expected: f64, rates: &[f64]) -> DrawInterval {
    let d = rates.len();
    let binomial = expected * (1.0 - expected) / n.max(1) as f64;
    let (design_effect, z) = if d == 0 || n == 0 {
        (1.0, Z_95)
    } else {
        let variance = rates.iter().map(|r| (r - expected).powi(2)).sum::<f64>() / d as f64;
        let effect = if binomial > 0.0 {
            (variance / binomial).max(1.0)
        } else {
            1.0
        };
        (effect, student_t_975(d))
    };
    let n_eff = n as f64 / design_effect;
    let p = if n == 0 { 0.0 } else { found as f64 / n as f64 };
    let (lo, hi) = wilson_interval_at(p, n_eff, z);
    DrawInterval {
        lo,
        hi,
        design_effect,
        effective_pairs: n_eff,
    }
}

/// A rate's interval with what widened it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct DrawInterval {
    pub lo: f64,
    pub hi: f64,
    /// Measured variance over the binomial one (≥ 1): how many pairs move as one.
    pub design_effect: f64,
    /// n / design effect: the independent pairs the bin is worth.
    pub effective_pairs: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_ranges_across_words() {
        let mask = [u64::MAX << 60, 0b111];
        assert!(all_set(&mask, 60, 7));
        assert!(!all_set(&mask, 59, 5));
        assert!(!all_set(&mask, 62, 6));
        assert!(all_set(&[u64::MAX, u64::MAX], 0, 128));
        assert!(all_set(&[0], 3, 0));
    }

    #[test]
    fn a_spread_wider_than_binomial_widens_the_interval() {
        // 1,000 pairs at rate 0.5: binomial sd 0.016; redraws spread ±0.1.
        let rates = [0.4, 0.6, 0.45, 0.55, 0.5, 0.38, 0.62, 0.5];
        let wide = redraw_interval(500, 1000, 0.5, &rates);
        assert!(wide.design_effect > 20.0, "{wide:?}");
        assert!(wide.hi - wide.lo > 0.25, "{wide:?}");
        // A spread narrower than binomial never narrows it below the Wilson interval.
        let narrow = redraw_interval(500, 1000, 0.5, &[0.5; 8]);
        assert_eq!(narrow.design_effect, 1.0);
        let (lo, hi) = crate::stats::wilson_interval(500, 1000, student_t_975(8));
        assert!((narrow.lo - lo).abs() < 1e-12 && (narrow.hi - hi).abs() < 1e-12);
    }
}
