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
use crate::minhash::{Banding, IndexOptions, ShingleSets, SketchScratch, Sketcher};
use crate::util::rng::SplitMix64;
use crate::util::stats::{Z_95, student_t_975, wilson_interval_at};

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

/// The documents `truth` names, each with a dense slot, hashed once per redraw.
struct TruthDocs {
    /// `slot[doc]`: the document's row in the redraw's signatures (`u32::MAX`: not named).
    slot: Vec<u32>,
    docs: Vec<u32>,
}

impl TruthDocs {
    fn of(sets: &ShingleSets, truth: &[TruthPair]) -> Self {
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
        TruthDocs { slot, docs }
    }

    /// For each of `draws` redraws of the sketch family of `options` (its K, seeds derived
    /// from its seed): the signatures of the named documents (K rows each, in slot order),
    /// handed to `each(draw, signatures)`. Progress counts documents hashed.
    fn for_each_draw(
        &self,
        sets: &ShingleSets,
        options: &IndexOptions,
        draws: usize,
        progress: &Progress,
        mut each: impl FnMut(usize, &[u32]),
    ) -> crate::Result<()> {
        let num_perm = options.num_perm;
        progress.begin(
            crate::jobs::Phase::Redrawing,
            (self.docs.len() * draws) as u64,
        );
        let mut sigs = vec![0u32; self.docs.len() * num_perm];
        let started = std::time::Instant::now();
        for draw in 0..draws {
            progress.check()?;
            if draw == 1 {
                // A job that planned its steps in seconds learns this one's from its first
                // draw (`Progress::reweigh`; no effect without a plan).
                let per_draw = started.elapsed().as_secs_f64();
                progress.reweigh(crate::jobs::Phase::Redrawing, per_draw * draws as f64);
            }
            let sketcher = Sketcher::new(options.family, num_perm, redraw_seed(options.seed, draw));
            sigs.par_chunks_mut(num_perm)
                .zip(self.docs.par_iter())
                .for_each_init(SketchScratch::default, |scratch, (row, &d)| {
                    sketcher.sketch_into(sets.get(d as usize), row, scratch);
                });
            progress.advance(self.docs.len() as u64);
            each(draw, &sigs);
        }
        progress.check()
    }

    /// The two signature rows of `pair` in one redraw's signatures.
    fn rows<'s>(&self, sigs: &'s [u32], k: usize, pair: &TruthPair) -> (&'s [u32], &'s [u32]) {
        let a = self.slot[pair.a as usize] as usize * k;
        let b = self.slot[pair.b as usize] as usize * k;
        (&sigs[a..a + k], &sigs[b..b + k])
    }
}

/// A document without shingles never collides.
fn never_collides(sets: &ShingleSets, p: &TruthPair) -> bool {
    sets.get(p.a as usize).is_empty() || sets.get(p.b as usize).is_empty()
}

/// For one fixed `banding`: the truth pairs it makes candidates under each of `draws` redraws
/// of the sketch family of `options` (the index's: its family, K and seed), per bin and at
/// `threshold`. Keeps no per-pair state beyond one redraw's
/// signatures (what `scan --truth` needs; the explorer, which re-bands, keeps the masks of
/// [`RedrawAgreement`]).
#[allow(clippy::too_many_arguments)]
pub fn redraw_counts(
    sets: &ShingleSets,
    truth: &[TruthPair],
    options: &IndexOptions,
    draws: usize,
    banding: Banding,
    bins: usize,
    threshold: f64,
    progress: &Progress,
) -> crate::Result<RedrawCounts> {
    let num_perm = options.num_perm;
    assert!(banding.bands * banding.rows <= num_perm);
    let docs = TruthDocs::of(sets, truth);
    let mut counts = RedrawCounts::zero(bins, draws);
    docs.for_each_draw(sets, options, draws, progress, |draw, sigs| {
        let found = truth
            .par_iter()
            .fold(
                || RedrawCounts::zero(bins, 1),
                |mut acc, p| {
                    let (a, b) = docs.rows(sigs, num_perm, p);
                    // The test `Banding::collide` makes, on this redraw's rows.
                    let hit = !never_collides(sets, p)
                        && banding
                            .band_agreement(a, b)
                            .any(|rows| rows == banding.rows);
                    if hit {
                        acc.per_bin[bin_of(p.jaccard, bins)][0] += 1;
                        acc.at_threshold[0] += (p.jaccard >= threshold) as u32;
                    }
                    acc
                },
            )
            .reduce(|| RedrawCounts::zero(bins, 1), RedrawCounts::add);
        for (k, bin) in found.per_bin.iter().enumerate() {
            counts.per_bin[k][draw] = bin[0];
        }
        counts.at_threshold[draw] = found.at_threshold[0];
    })?;
    Ok(counts)
}

impl RedrawAgreement {
    /// Hashes the documents `truth` names `draws` times with the sketch family of `options`
    /// (the index's family and K, seeds derived from its seed), and records each pair's
    /// agreement masks. `sets` are the
    /// index's shingle sets (the signatures' input). Progress counts documents hashed; a
    /// cancelled `progress` stops it with [`crate::Error::Cancelled`]. Memory: ⌈K / 64⌉ · 8
    /// bytes per pair and redraw (256 bytes per pair at K = 128 and 16 redraws).
    pub fn compute(
        sets: &ShingleSets,
        truth: &[TruthPair],
        options: &IndexOptions,
        draws: usize,
        progress: &Progress,
    ) -> crate::Result<Self> {
        assert!(draws <= MAX_REDRAWS, "at most {MAX_REDRAWS} redraws");
        let num_perm = options.num_perm;
        let words = num_perm.div_ceil(64);
        let docs = TruthDocs::of(sets, truth);
        let never: Vec<bool> = truth.iter().map(|p| never_collides(sets, p)).collect();
        let mut masks = vec![0u64; truth.len() * draws * words];
        docs.for_each_draw(sets, options, draws, progress, |draw, sigs| {
            masks
                .par_chunks_mut(draws * words)
                .zip(truth.par_iter())
                .for_each(|(pair_masks, p)| {
                    let (a, b) = docs.rows(sigs, num_perm, p);
                    let mask = &mut pair_masks[draw * words..(draw + 1) * words];
                    // 64 rows to a word, in a form the compiler turns into vector compares.
                    for ((word, x), y) in mask.iter_mut().zip(a.chunks(64)).zip(b.chunks(64)) {
                        *word = x
                            .iter()
                            .zip(y)
                            .enumerate()
                            .fold(0u64, |bits, (i, (u, v))| bits | (((u == v) as u64) << i));
                    }
                });
        })?;
        Ok(RedrawAgreement {
            num_perm,
            draws,
            words,
            masks,
            never,
        })
    }

    /// The redraws [`RedrawAgreement::compute`] can keep for `pairs` truth pairs at K =
    /// `num_perm` within `bytes` of masks: at most [`DEFAULT_REDRAWS`], 0 when fewer than 8
    /// would fit (too few to estimate a spread).
    pub fn draws_within(pairs: usize, num_perm: usize, bytes: usize) -> usize {
        let per_draw = pairs.max(1) * num_perm.div_ceil(64) * 8;
        let fit = (bytes / per_draw).min(DEFAULT_REDRAWS);
        if fit >= 8 { fit } else { 0 }
    }

    /// Redraws kept per pair.
    pub fn draws(&self) -> usize {
        self.draws
    }

    /// K, the signature length of every redraw.
    pub fn num_perm(&self) -> usize {
        self.num_perm
    }

    /// Truth pairs the masks are kept for.
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

    /// For `banding`, per truth pair the redraws that make it a candidate: bit d set when it
    /// collides under redraw d (at most [`MAX_REDRAWS`]). Independent of the threshold, so a
    /// face keeps it while only t changes ([`counts_from_hits`]).
    pub fn hits_per_draw(&self, banding: Banding) -> Vec<u32> {
        assert!(banding.bands * banding.rows <= self.num_perm);
        (0..self.pairs())
            .into_par_iter()
            .map(|i| {
                (0..self.draws).fold(0u32, |bits, d| {
                    bits | ((self.collides(i, d, banding) as u32) << d)
                })
            })
            .collect()
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
        counts_from_hits(
            truth,
            &self.hits_per_draw(banding),
            self.draws,
            bins,
            threshold,
        )
    }
}

/// The most redraws a [`RedrawAgreement`] keeps (one bit each in
/// [`RedrawAgreement::hits_per_draw`]).
pub const MAX_REDRAWS: usize = 32;

/// Counts per bin and draw, and at `threshold`, from the per-pair bits of
/// [`RedrawAgreement::hits_per_draw`].
pub fn counts_from_hits(
    truth: &[TruthPair],
    hits: &[u32],
    draws: usize,
    bins: usize,
    threshold: f64,
) -> RedrawCounts {
    truth
        .par_iter()
        .zip(hits)
        .fold(
            || RedrawCounts::zero(bins, draws),
            |mut acc, (p, &bits)| {
                let k = bin_of(p.jaccard, bins);
                let above = p.jaccard >= threshold;
                let mut rest = bits;
                while rest != 0 {
                    let d = rest.trailing_zeros() as usize;
                    acc.per_bin[k][d] += 1;
                    acc.at_threshold[d] += above as u32;
                    rest &= rest - 1;
                }
                acc
            },
        )
        .reduce(|| RedrawCounts::zero(bins, draws), RedrawCounts::add)
}

/// Candidates found under each redraw, per bin and at the threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct RedrawCounts {
    /// `per_bin[bin][draw]`.
    pub per_bin: Vec<Vec<u32>>,
    /// `at_threshold[draw]`.
    pub at_threshold: Vec<u32>,
}

impl RedrawCounts {
    fn zero(bins: usize, draws: usize) -> Self {
        RedrawCounts {
            per_bin: vec![vec![0; draws]; bins],
            at_threshold: vec![0; draws],
        }
    }

    fn add(mut self, other: Self) -> Self {
        for (a, b) in self.per_bin.iter_mut().zip(&other.per_bin) {
            a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        }
        self.at_threshold
            .iter_mut()
            .zip(&other.at_threshold)
            .for_each(|(a, b)| *a += b);
        self
    }
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
    /// Lower end of the 95 % interval of the rate.
    pub lo: f64,
    /// Upper end of the interval.
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
    fn the_fixed_banding_path_counts_what_the_masks_say() {
        // 40 sets: pairs of overlapping ranges, so pairs span the similarity range.
        let sets: Vec<Vec<u64>> = (0..40u64)
            .map(|i| {
                ((i * 7)..(i * 7 + 60))
                    .map(|x| x.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                    .collect()
            })
            .map(|mut v: Vec<u64>| {
                v.sort_unstable();
                v
            })
            .chain([Vec::new()])
            .collect();
        let sets = ShingleSets::from_sets(&sets);
        let mut truth = Vec::new();
        for a in 0..41u32 {
            for b in a + 1..41 {
                let j =
                    crate::minhash::similarity::jaccard(sets.get(a as usize), sets.get(b as usize));
                // The empty set pairs with one document, at Jaccard 0.
                if j > 0.1 || b == 40 && a == 0 {
                    truth.push(TruthPair { a, b, jaccard: j });
                }
            }
        }
        let banding = Banding { bands: 8, rows: 3 };
        let progress = Progress::new();
        for family in crate::minhash::SketchFamily::ALL {
            let options = IndexOptions {
                num_perm: 70,
                seed: 5,
                family,
                ..IndexOptions::default()
            };
            let masks = RedrawAgreement::compute(&sets, &truth, &options, 6, &progress).unwrap();
            let direct =
                redraw_counts(&sets, &truth, &options, 6, banding, 10, 0.5, &progress).unwrap();
            assert_eq!(masks.found_per_draw(&truth, banding, 10, 0.5), direct);
            assert!(direct.at_threshold.iter().any(|&n| n > 0));
            let with_empty = truth.iter().position(|p| p.b == 40).unwrap();
            assert!(
                !masks.collides(with_empty, 0, banding),
                "the empty set never collides"
            );
            // Each redraw is the chosen family drawn with the redraw's seed.
            for (i, p) in truth.iter().enumerate().step_by(37) {
                if p.b == 40 {
                    continue;
                }
                for draw in [0, 5] {
                    let sketcher = Sketcher::new(family, 70, redraw_seed(5, draw));
                    let (a, b) = (
                        sketcher.sketch(sets.get(p.a as usize)),
                        sketcher.sketch(sets.get(p.b as usize)),
                    );
                    let expected = banding.band_agreement(&a, &b).any(|rows| rows == 3);
                    assert_eq!(masks.collides(i, draw, banding), expected, "{family}");
                }
            }
        }
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
        let (lo, hi) = crate::util::stats::wilson_interval(500, 1000, student_t_975(8));
        assert!((narrow.lo - lo).abs() < 1e-12 && (narrow.hi - hi).abs() < 1e-12);
    }
}
