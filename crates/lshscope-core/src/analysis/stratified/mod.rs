//! Pair samples stratified by a permissive banding, so the sample holds the near-duplicates.
//!
//! The design is LSH-SS (Lee, Ng & Shim, "Similarity join size estimation using locality
//! sensitive hashing", PVLDB 4(6), 2011): the pairs of a corpus split into
//! - the *candidates* of a permissive banding (few rows, so nearly every pair at or above the
//!   lowest threshold of interest collides), a small set holding almost all the similar pairs;
//! - optionally the *lower candidates*: the candidates of the permissive banding for a lower
//!   threshold that the first banding did not make candidates, the pairs a little below the
//!   strata threshold (see [`StrataDesign`]);
//! - the *others*: every remaining pair, almost all of them dissimilar.
//!
//! Each stratum is sampled on its own (taken whole when small), and each sampled pair weighs
//! its stratum's size over the stratum's sample size, so weighted sums estimate sums over all
//! pairs. The estimator and its intervals are [`StratifiedSample::intervals`].
//!
//! All strata are sampled by independent uniform draws *of pairs* (with replacement): a
//! candidate is drawn as a uniform (band, bucket pair) and kept only in the first band where
//! the two documents collide, which makes every distinct candidate equally likely (a lower
//! candidate likewise, among the lower banding's bands, kept only when the first banding's
//! bands come before it with no collision); an other is a uniform pair of the corpus kept only
//! when it collides in no band of either banding. Given the corpus and the
//! hash seed, the draws are therefore independent and identically distributed within each
//! stratum, however strongly the pairs of a template family depend on one another: that
//! dependence makes the *population* lumpy, not the draws, so the usual with-replacement
//! variance σ²/n holds. (Drawing buckets or documents as units would not have that property.)

use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;

use crate::analysis::truth::pair_at;
use crate::jobs::{Phase, Progress};
use crate::minhash::scurve::candidate_probability;
use crate::minhash::similarity::jaccard;
use crate::minhash::tune::{
    MIN_SAMPLED_AT_THRESHOLD, SampledIntervals, sharpest_with_probability_at,
};
use crate::minhash::{
    Banding, IndexOptions, ShingleSets, Signatures, leading_signatures_of_sets, pairs_among,
};
use crate::minhash::{
    BandingOptions, BucketLists, SketchFamily, SketchScratch, Sketcher,
    bucket_lists_of_representatives, first_of_each_row,
};
use crate::pairs::{Field, OutputFormat, RowWriter};
use crate::terms::Setting::{EstimatePairs, LowerThreshold, NumPerm, Threshold, Uniform};
use crate::util::rng::SplitMix64;
use crate::util::stats::{Z_95, wilson_interval_at};
use crate::{Error, Result};

mod file;

pub use file::read_stratified;

/// The largest chance that a pair at the strata threshold falls outside the permissive
/// banding's candidates: the banding is the sharpest whose S-curve gives P(T) ≥ 1 − this.
pub const PERMISSIVE_MISS: f64 = 1e-3;

/// The strata threshold when none is given: the lowest threshold people deduplicate with.
pub const DEFAULT_STRATA_THRESHOLD: f64 = 0.5;

/// Names of the strata, as the file writes them.
pub const CANDIDATES: &str = "candidates";
/// The stratum of the lower banding's candidates that are not [`CANDIDATES`].
pub const LOWER_CANDIDATES: &str = "lower_candidates";
/// The other stratum's name: the pairs the banding did not make candidates.
pub const OTHERS: &str = "others";

/// The columns of a stratified sample file, in order.
pub const COLUMNS: &[&str] = &[
    "jaccard",
    "weight",
    "stratum",
    "stratum_pairs",
    "strata_banding",
    "strata_threshold",
    "strata_family",
];

/// One stratum: its exact size and the similarities drawn from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stratum {
    /// [`CANDIDATES`] or [`OTHERS`].
    pub name: &'static str,
    /// Pairs in the stratum (exact).
    pub pairs: u64,
    /// Similarities of the sampled pairs: all of them when `is_census`, else independent
    /// uniform draws with replacement.
    pub similarities: Vec<f64>,
}

impl Stratum {
    /// True when the stratum was taken whole: its sums are exact.
    pub fn is_census(&self) -> bool {
        self.similarities.len() as u64 == self.pairs
    }

    /// The stratum's sum of a per-pair `value` in [0, 1] as (estimate, low, high): exact when
    /// taken whole, else N times the mean with its Wilson interval at `z`; a stratum without
    /// draws may hold anything from 0 to N.
    fn total(&self, value: &dyn Fn(f64) -> f64, z: f64) -> (f64, f64, f64) {
        let n = self.similarities.len();
        let size = self.pairs as f64;
        if n == 0 {
            return (0.0, 0.0, size);
        }
        let mean = self.similarities.iter().map(|&s| value(s)).sum::<f64>() / n as f64;
        if self.is_census() {
            (size * mean, size * mean, size * mean)
        } else {
            let (low, high) = wilson_interval_at(mean, n as f64, z);
            (size * mean, size * low, size * high)
        }
    }

    /// Pairs of the corpus each sampled pair stands for.
    pub fn weight(&self) -> f64 {
        if self.similarities.is_empty() {
            0.0
        } else {
            self.pairs as f64 / self.similarities.len() as f64
        }
    }
}

/// A permissive banding and the threshold it was chosen for: P(T) ≥ 1 − [`PERMISSIVE_MISS`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrataLevel {
    /// The banding whose candidates make the stratum.
    pub banding: Banding,
    /// The threshold the banding was chosen for.
    pub threshold: f64,
}

impl StrataLevel {
    /// The permissive banding of K = `num_perm` for `threshold`.
    pub fn permissive(num_perm: usize, threshold: f64) -> Result<Self> {
        Ok(StrataLevel {
            banding: permissive_banding(num_perm, threshold)?,
            threshold,
        })
    }

    /// 1 − P(s) of the banding: the chance it misses a pair at s.
    fn miss(&self, s: f64) -> f64 {
        1.0 - candidate_probability(s, self.banding.bands, self.banding.rows)
    }
}

/// A pair sample stratified by a permissive banding.
#[derive(Debug, Clone, PartialEq)]
pub struct StratifiedSample {
    /// The permissive banding that defines the candidates stratum.
    pub banding: Banding,
    /// The threshold it was chosen for: P(T) ≥ 1 − [`PERMISSIVE_MISS`].
    pub threshold: f64,
    /// The lower level, when the sample has a [`LOWER_CANDIDATES`] stratum: its pairs are
    /// the candidates of this banding that [`StratifiedSample::banding`] did not make.
    pub lower: Option<StrataLevel>,
    /// The sketch family whose signatures made the strata; `None` for a file written before
    /// the file said it. Only the classic family's bands are known to miss pairs as the
    /// S-curve says (the top of [`StratifiedSample::intervals`]' count relies on it).
    pub family: Option<SketchFamily>,
    /// Candidates first, then the lower candidates (with a lower level), then the others.
    pub strata: Vec<Stratum>,
}

impl StratifiedSample {
    /// Writes the sample as [`COLUMNS`]: per row its Jaccard, weight and stratum, the
    /// stratum's exact size and the permissive banding with its threshold (repeated on every
    /// row, so any row says what it is and a cut file is caught on reading; a lower
    /// candidate's row gives the lower level's, the others' rows the first level's). The one
    /// writer of the file, for the command line and the Spark job alike.
    pub fn write(
        &self,
        w: &mut dyn std::io::Write,
        format: OutputFormat,
        progress: Option<&Progress>,
    ) -> std::io::Result<()> {
        let mut out = RowWriter::new(w, format, COLUMNS, progress)?;
        let family = self.family.map_or("", SketchFamily::name);
        for stratum in &self.strata {
            let weight = stratum.weight();
            let level = self.level_of(stratum);
            let banding = format!("{}x{}", level.banding.bands, level.banding.rows);
            for &j in &stratum.similarities {
                out.write_row(&[
                    Field::F64(j),
                    Field::F64(weight),
                    Field::Str(stratum.name),
                    Field::U64(stratum.pairs),
                    Field::Str(&banding),
                    Field::F64(level.threshold),
                    Field::Str(family),
                ])?;
            }
        }
        out.finish()
    }

    /// Every sampled pair as (similarity, weight).
    pub fn weighted_rows(&self) -> Vec<(f64, f64)> {
        self.strata
            .iter()
            .flat_map(|s| {
                let w = s.weight();
                s.similarities.iter().map(move |&j| (j, w))
            })
            .collect()
    }

    /// All pairs of the corpus.
    pub fn population(&self) -> u64 {
        self.strata.iter().map(|s| s.pairs).sum()
    }

    /// Sampled pairs over both strata.
    pub fn sampled(&self) -> usize {
        self.strata.iter().map(|s| s.similarities.len()).sum()
    }

    /// The candidates stratum.
    pub fn candidates(&self) -> &Stratum {
        &self.strata[0]
    }

    /// The others stratum: the pairs no banding of the sample made candidates.
    pub fn others(&self) -> Option<&Stratum> {
        self.stratum(OTHERS)
    }

    /// The stratum of that name ([`CANDIDATES`], [`LOWER_CANDIDATES`], [`OTHERS`]), if the
    /// sample has it.
    fn stratum(&self, name: &str) -> Option<&Stratum> {
        self.strata.iter().find(|s| s.name == name)
    }

    /// The strata of candidates (first level, then lower), which hold the similar pairs.
    fn banded(&self) -> impl Iterator<Item = &Stratum> {
        self.strata.iter().filter(|s| s.name != OTHERS)
    }

    /// The first level: [`StratifiedSample::banding`] and its threshold.
    pub fn first_level(&self) -> StrataLevel {
        StrataLevel {
            banding: self.banding,
            threshold: self.threshold,
        }
    }

    /// The level whose banding made `stratum` (the first level for the others, whose rows
    /// name it).
    fn level_of(&self, stratum: &Stratum) -> StrataLevel {
        match self.lower {
            Some(lower) if stratum.name == LOWER_CANDIDATES => lower,
            _ => self.first_level(),
        }
    }

    /// The lowest threshold a banding of the sample was chosen for.
    pub fn lowest_threshold(&self) -> f64 {
        self.lower.map_or(self.threshold, |l| l.threshold)
    }

    /// An upper bound on the chance that a pair at s is among the others: both bandings
    /// must miss it, which is at most as likely as either one missing it (they read the same
    /// signature rows, so the two misses are not independent and their product would not do).
    pub fn miss_probability(&self, s: f64) -> f64 {
        let first = self.first_level().miss(s);
        self.lower.map_or(first, |l| first.min(l.miss(s)))
    }
}

/// z of a two-sided 95 % interval split over k drawn strata by Bonferroni's inequality: each
/// stratum's interval at 1 − 0.05/k, so all hold together with probability ≥ 95 %
/// (z = Φ⁻¹(1 − 0.025/k) for k = 1, 2, 3).
const Z_95_OVER_DRAWN: [f64; 3] = [Z_95, 2.241_402_727_604_947, 2.393_979_799_818_51];

/// z of the Wilson bound on the others stratum when Markov's bound takes
/// [`HIDDEN_TAIL_SHARE`] of its upper tail: Φ⁻¹(1 − 0.2 · 0.025/k) for k = 1, 2, 3 drawn
/// strata.
const Z_OTHERS_OVER_DRAWN: [f64; 3] = [
    2.575_829_303_548_901,
    2.807_033_768_343_811,
    2.935_199_468_866_698,
];

/// The share of the others stratum's upper tail (0.025/k with k drawn strata) given to
/// Markov's bound on the pairs hidden there ([`StratifiedSample::top_with_hidden_pairs`],
/// [`StratifiedSample::mass_top_with_hidden_pairs`]); the rest goes to the Wilson bound of its
/// draws.
const HIDDEN_TAIL_SHARE: f64 = 0.8;

impl StratifiedSample {
    /// Estimates of (b, r) at `t` with 95 % intervals, in the uniform sample's terms.
    ///
    /// Totals (count at or above t, expected candidates Σ P(s)) are the stratified estimator
    /// Σ_h N_h·ȳ_h (Cochran, "Sampling Techniques", 3rd ed., 1977, §5.2). Each quantity is a
    /// mean of values in [0, 1], so each sampled stratum gets a Wilson interval of its mean
    /// (scaled by N_h, never outside [0, N_h], and honest when a stratum shows no pair at t),
    /// a stratum taken whole contributes its exact sum, and the ends add up; with k sampled
    /// strata each interval is at 1 − 0.05/k (Bonferroni), so the sum holds at 95 %.
    ///
    /// Recall and precision are ratios of two such totals, R = Σ xP / Σ x (x = 1[s ≥ t]) and
    /// Σ xP / Σ P. Their variance is the linearised (Taylor) variance of a combined ratio
    /// estimator, Σ_h N_h² s²_{z,h} / n_h ÷ X̂², z = numerator − R̂·denominator per pair
    /// (Cochran §6.11); s² / n is the variance of a mean of independent draws, which the
    /// sampler makes them (see the module notes). A stratum taken whole adds nothing.
    ///
    /// The others stratum may hide pairs at or above t that no draw reaches. The permissive
    /// bandings miss a pair at s with probability at most m(s) (see
    /// [`StratifiedSample::miss_probability`]), so the candidates at or above t bound how many
    /// were missed: Σ w·m(s)/(1 − m(s)) over them (Horvitz–Thompson over the hash's
    /// randomness, with the chance of being a candidate at least 1 − m(s)). Those pairs could
    /// move recall and precision by at most their share of the denominator, and both
    /// intervals are widened by that share. The tops of the count at or above t and of the
    /// expected candidates bound the others' part too, by Markov's inequality over the hash,
    /// where that is tighter than the others' draws (`top_with_hidden_pairs`,
    /// `mass_top_with_hidden_pairs`).
    pub fn intervals(&self, bands: usize, rows: usize, t: f64) -> Option<SampledIntervals> {
        let sampled = self.sampled();
        if sampled == 0 {
            return None;
        }
        let p = |s: f64| candidate_probability(s, bands, rows);
        let z_total = self.z_total();
        // Σ_h of (estimate, low, high) for a per-pair value in [0, 1], over `strata`.
        let total_over = |strata: &mut dyn Iterator<Item = &Stratum>,
                          value: &dyn Fn(f64) -> f64| {
            strata.fold((0.0, 0.0, 0.0), |(est, lo, hi), stratum| {
                let (e, l, h) = stratum.total(value, z_total);
                (est + e, lo + l, hi + h)
            })
        };
        let total = |value: &dyn Fn(f64) -> f64| total_over(&mut self.strata.iter(), value);
        let indicator = |s: f64| if s >= t { 1.0 } else { 0.0 };
        let (above, above_lo, above_hi) = total(&indicator);
        let above_hi = self.top_with_hidden_pairs(t).unwrap_or(above_hi);
        let (mass, mass_lo, mass_hi) = total(&p);
        let banded_mass_top = total_over(&mut self.banded(), &p).2;
        let mass_hi = self
            .mass_top_with_hidden_pairs(&p, banded_mass_top)
            .unwrap_or(mass_hi);
        let (found, _, _) = total(&|s: f64| indicator(s) * p(s));
        // Linearised variance of the ratio Σ num / Σ den, and its 95 % interval widened by
        // `allowance`, within [0, 1].
        let ratio = |num: &dyn Fn(f64) -> f64, den: &dyn Fn(f64) -> f64, d: f64, allowance: f64| {
            let r = found / d;
            let mut variance = 0.0;
            for stratum in self.strata.iter().filter(|s| !s.is_census()) {
                let n = stratum.similarities.len();
                if n < 2 {
                    continue;
                }
                let z: Vec<f64> = stratum
                    .similarities
                    .iter()
                    .map(|&s| num(s) - r * den(s))
                    .collect();
                let mean = z.iter().sum::<f64>() / n as f64;
                let s2 = z.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
                let size = stratum.pairs as f64;
                variance += size * size * s2 / n as f64;
            }
            let half = Z_95 * variance.sqrt() / d + allowance;
            ((r - half).max(0.0), (r + half).min(1.0))
        };
        let at_or_above = self
            .strata
            .iter()
            .map(|s| s.similarities.iter().filter(|&&j| j >= t).count())
            .sum::<usize>();
        let missed: f64 = self
            .banded()
            .map(|stratum| {
                stratum
                    .similarities
                    .iter()
                    .filter(|&&s| s >= t)
                    .map(|&s| {
                        let miss = self.miss_probability(s);
                        miss / (1.0 - miss)
                    })
                    .sum::<f64>()
                    * stratum.weight()
            })
            .sum();
        let measurable = at_or_above >= MIN_SAMPLED_AT_THRESHOLD;
        Some(SampledIntervals {
            sampled_pairs: sampled,
            sampled_at_or_above: at_or_above,
            expected_candidates: (mass_lo.min(mass), mass_hi.max(mass)),
            // A draw among the others at or above t, which the hidden-pairs bound makes
            // rare, can put the estimate above that top: the top is then the estimate.
            pairs_at_or_above: (above_lo.min(above), above_hi.max(above)),
            expected_recall: (measurable && above > 0.0)
                .then(|| ratio(&|s| indicator(s) * p(s), &indicator, above, missed / above)),
            expected_precision: (measurable && mass > 0.0)
                .then(|| ratio(&|s| indicator(s) * p(s), &p, mass, missed / mass)),
        })
    }
}

impl StratifiedSample {
    /// The top of the 95 % interval of the count at or above `t`, with the others stratum's
    /// part bounded by what the permissive bandings can have missed, where that is tighter
    /// than its draws can say; `None` when it cannot be (no others drawn, or `t` so far below
    /// the strata thresholds that the bandings miss too much, or a family whose bands are not
    /// known to follow the S-curve).
    ///
    /// The draws of the others stratum cannot rule out similar pairs hidden among its
    /// billions: with none found in n draws, Wilson's top is still about z²/n of the stratum.
    /// But a pair at s ≥ t lands there only when the permissive bandings miss it, which the
    /// hash does with probability at most m(s) ≤ δ = m(t) (the S-curves rise). So the pairs
    /// hidden there, H, have E[H] ≤ δ·N_t, N_t = C + H the corpus's count at or above t and C
    /// the candidate strata's part, and by Markov's inequality H < δ·N_t/α except with
    /// probability α (over the hash), whatever the pairs share: H < q/(1 − q)·C for
    /// q = δ/α < 1. With C below the candidate strata's top, that bounds the others' part
    /// without any draw. The others' upper tail (β) is split: α = 0.8β for Markov's bound and
    /// 0.2β for Wilson's (at a larger z), and the smaller of the two is the top; by the union
    /// bound the interval still holds at 95 % (over the hash and the draws together, where the
    /// draws' own intervals hold for any hash). Where the draws win, the top is a little above
    /// what they gave with the whole tail: the price of the split, fixed before the data (δ
    /// depends on t and the bandings only); past q ≥ 1/2 Wilson keeps the whole tail.
    ///
    /// At a strata threshold δ ≤ 10⁻³, so the hidden pairs are bounded by 11 % (one drawn
    /// stratum: 5 %) of the candidates' count; above it δ falls fast (10⁻¹¹ at 0.8 for the
    /// 25 × 2 banding of t = 0.5), and the top is the candidates' own.
    ///
    /// A drawn lower candidates stratum has the others' problem at t near the first
    /// threshold: its pairs at or above t are the ones the first banding missed, too few for
    /// its draws to see, and its Wilson top alone can be several times the count. Those
    /// pairs, with the others', are all the first banding missed, so the same argument with
    /// δ₁ = 1 − P₁(t) bounds both parts together by q₁/(1 − q₁) of the candidates' top;
    /// the lower stratum's upper tail is split as the others' is, and the smaller bound is
    /// taken. Where q₁ ≥ 1/2 (t well below the first threshold) its draws keep the whole tail.
    fn top_with_hidden_pairs(&self, t: f64) -> Option<f64> {
        if self.hidden_pairs_unbounded(t).is_some() {
            return None;
        }
        let others = self.others().filter(|o| !o.is_census())?;
        let indicator = |s: f64| if s >= t { 1.0 } else { 0.0 };
        let (z_total, z_others) = (self.z_total(), self.z_others());
        let top = |stratum: &Stratum, z: f64| stratum.total(&indicator, z).2;
        let first_top = top(self.candidates(), z_total);
        // q₁: what the first banding misses at t, over the lower stratum's share for Markov.
        let q_first = self.first_level().miss(t) / self.markov_tail();
        let lower = self.stratum(LOWER_CANDIDATES);
        let split_lower = lower.is_some_and(|s| !s.is_census()) && q_first < 0.5;
        let lower_top = lower.map_or(0.0, |s| {
            top(s, if split_lower { z_others } else { z_total })
        });
        let q = self.hidden_share_factor(t);
        let by_draws = top(others, z_others);
        let by_banding = q / (1.0 - q) * (first_top + lower_top);
        let beyond_first = lower_top + by_draws.min(by_banding);
        Some(if split_lower {
            first_top + beyond_first.min(q_first / (1.0 - q_first) * first_top)
        } else {
            first_top + beyond_first
        })
    }

    /// The top of the 95 % interval of expected candidates Σ P(s) (P of the banding asked
    /// about), with the others' part split at the lowest strata threshold s₁; `None` where
    /// the split is not used (then each stratum's Wilson top adds up).
    ///
    /// With no draw among the others near the banding's rise, their Wilson top is about
    /// z²/n of the stratum at P = 1, whatever the banding: 180,000 pairs for 50,000 draws
    /// among 1.8 × 10⁹ others, five times the estimate of a sharp banding on 63,000 short
    /// texts. Each other's P(s) splits into min(P(s), P(s₁)) and the excess above P(s₁):
    /// - Σ min(P, P(s₁)) = P(s₁)·Σ min(P, P(s₁))/P(s₁), a mean of values in [0, 1] bounded
    ///   by Wilson's top at the others' share 0.2β of the tail; for a sharp banding P(s₁) is
    ///   small, and so is this part whatever the draws saw.
    /// - The excess is above 0 only at s > s₁, where a pair is among the others with
    ///   probability at most δ = m(s₁) ≤ 10⁻³. So its sum X over the others has E[X] ≤
    ///   δ·(X + Y), Y the excess in the candidate strata (at most their Σ P), and by Markov's
    ///   inequality at α = 0.8β, X < q/(1 − q)·Y, q = δ/α, as for the count's top.
    ///
    /// Both parts' events replace the others' plain Wilson event, so the interval still holds
    /// at 95 %. The split is used when P(s₁)·z_others² < z², where its Wilson part alone
    /// is below the plain one: a rule of the banding and the design, fixed before the data.
    fn mass_top_with_hidden_pairs(
        &self,
        p: &dyn Fn(f64) -> f64,
        banded_mass_top: f64,
    ) -> Option<f64> {
        let s1 = self.lowest_threshold();
        if self.hidden_pairs_unbounded(s1).is_some() {
            return None;
        }
        let others = self.others().filter(|o| !o.is_census())?;
        let (z_total, z_others) = (self.z_total(), self.z_others());
        let p1 = p(s1);
        if p1 * z_others * z_others >= z_total * z_total {
            return None;
        }
        let below = if p1 > 0.0 {
            p1 * others.total(&|s| p(s).min(p1) / p1, z_others).2
        } else {
            // Σ min(P, 0) is 0, exactly.
            0.0
        };
        let q = self.hidden_share_factor(s1);
        Some(banded_mass_top + below + q / (1.0 - q) * banded_mass_top)
    }
}

impl StratifiedSample {
    /// Why the pairs at or above `t` hidden among the others are bounded by their draws alone
    /// (so the count's top can be several times its estimate), or `None` when the permissive
    /// bandings' misses bound them.
    ///
    /// The bound takes a banding to miss a pair at s with probability 1 − P(s), the
    /// S-curve's, as every S-curve here does for the classic family (whose K multiply-add-
    /// shift hashes are taken as independent min-wise hashes; a per-row agreement off J by
    /// 1 % would move the misses at 18 × 5 by about 1.7×, and the bound's failure chance
    /// with them, from 1 % to at most 1.7 %).
    /// C-MinHash was measured missing up to four times the formula's pairs where P is near 1
    /// (docs/families.md), and one-permutation hashing is not measured at misses of 10⁻³.
    pub fn hidden_pairs_unbounded(&self, t: f64) -> Option<String> {
        match self.family {
            None => {
                return Some(
                    "the file does not say which sketch family made it (written before the \
                     strata_family column)"
                        .to_string(),
                );
            }
            Some(SketchFamily::Classic) => {}
            Some(family) => {
                return Some(format!(
                    "the {} family's bands are not known to miss pairs as the S-curve says",
                    family.name()
                ));
            }
        }
        (self.hidden_share_factor(t) >= 0.5).then(|| {
            format!(
                "t = {t} is so far below the strata threshold {} that its banding misses too \
                 many pairs at t",
                self.lowest_threshold()
            )
        })
    }

    /// Strata drawn, not taken whole: k of them put each at 1 − 0.05/k (Bonferroni).
    fn drawn_strata(&self) -> usize {
        self.strata
            .iter()
            .filter(|s| !s.is_census() && s.pairs > 0)
            .count()
    }

    /// z of each stratum's interval: [`Z_95_OVER_DRAWN`] for the strata drawn.
    fn z_total(&self) -> f64 {
        Z_95_OVER_DRAWN[self.drawn_strata().clamp(1, 3) - 1]
    }

    /// z of the others' Wilson bound beside Markov's: [`Z_OTHERS_OVER_DRAWN`].
    fn z_others(&self) -> f64 {
        Z_OTHERS_OVER_DRAWN[self.drawn_strata().clamp(1, 3) - 1]
    }

    /// q = δ/α of [`Self::top_with_hidden_pairs`]: the bandings' miss rate at `t` over the
    /// share of the others' upper tail Markov's bound gets.
    fn hidden_share_factor(&self, t: f64) -> f64 {
        self.miss_probability(t) / self.markov_tail()
    }

    /// α: the share of a drawn stratum's upper tail (0.025/k with k drawn strata) that
    /// Markov's bound gets.
    fn markov_tail(&self) -> f64 {
        HIDDEN_TAIL_SHARE * 0.025 / self.drawn_strata().clamp(1, 3) as f64
    }
}

/// The strata thresholds of a sample: the first, whose permissive banding's candidates are
/// the candidates stratum, and an optional lower one, whose permissive banding's further
/// candidates are the lower candidates stratum.
///
/// Why a lower level: the expected candidates of a sharp banding (9 × 13 at t = 0.8) rest on
/// pairs a little below t, which the first banding (18 × 5) misses by the tens of percent.
/// Without a lower level they lie among billions of others, where the draws see none and the
/// interval's top is 4–5 times the estimate; with one they are a stratum of their own, and
/// the pairs left among the others are missed by both bandings, rarely enough for the bound
/// of [`StratifiedSample::intervals`] to hold the top near the estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrataDesign {
    /// The strata threshold T: the first level's.
    pub threshold: f64,
    /// The lower level's threshold, below T; `None` for two strata.
    pub lower_threshold: Option<f64>,
}

/// How far below a strata threshold the default lower level sits.
pub const LOWER_LEVEL_GAP: f64 = 0.2;

/// The lowest strata threshold given a lower level by default: below it the lower banding's
/// candidates grow too many to be worth their draws (25 × 2 at 0.5 already makes 81.5 M
/// candidates of 63,000 short texts), and sharp bandings matter less.
pub const LOWEST_THRESHOLD_WITH_LOWER: f64 = 0.7;

impl StrataDesign {
    /// The design for `threshold` with the default lower level: T − [`LOWER_LEVEL_GAP`]
    /// when T ≥ [`LOWEST_THRESHOLD_WITH_LOWER`], none below.
    pub fn with_default_lower(threshold: f64) -> Self {
        let lower = (threshold >= LOWEST_THRESHOLD_WITH_LOWER)
            // Rounded to hundredths, so 0.8 gives 0.6 and not 0.6000000000000001.
            .then(|| ((threshold - LOWER_LEVEL_GAP) * 100.0).round() / 100.0);
        StrataDesign {
            threshold,
            lower_threshold: lower,
        }
    }

    /// Two strata: the candidates of `threshold`'s permissive banding and the others.
    pub fn two_strata(threshold: f64) -> Self {
        StrataDesign {
            threshold,
            lower_threshold: None,
        }
    }

    /// The first level and the lower one of K = `num_perm`; an error when the lower
    /// threshold is not below the first.
    pub fn levels(&self, num_perm: usize) -> Result<(StrataLevel, Option<StrataLevel>)> {
        let first = StrataLevel::permissive(num_perm, self.threshold)?;
        let lower = match self.lower_threshold {
            None => None,
            Some(t2) if t2 > 0.0 && t2 < self.threshold => {
                Some(StrataLevel::permissive(num_perm, t2)?)
            }
            Some(t2) => {
                return Err(Error::usage(format!(
                    "{LowerThreshold} must be above 0 and below the strata threshold {}, got \
                     {t2}",
                    self.threshold
                )));
            }
        };
        Ok((first, lower))
    }

    /// The leading signature rows the levels' bandings read: the longer of the two.
    pub fn rows_used(&self, num_perm: usize) -> Result<usize> {
        let (first, lower) = self.levels(num_perm)?;
        Ok(first
            .banding
            .hashes_used()
            .max(lower.map_or(0, |l| l.banding.hashes_used())))
    }
}

/// The permissive banding for threshold `t` with K = `num_perm`: the sharpest banding whose
/// S-curve reaches P(t) ≥ 1 − [`PERMISSIVE_MISS`] (fewest false candidates for that recall).
pub fn permissive_banding(num_perm: usize, t: f64) -> Result<Banding> {
    if !(t > 0.0 && t <= 1.0) {
        return Err(Error::usage(format!(
            "the strata threshold must be in (0, 1], got {t}"
        )));
    }
    let (b, r) =
        sharpest_with_probability_at(num_perm, t, 1.0 - PERMISSIVE_MISS).ok_or_else(|| {
            Error::usage(format!(
                "no banding of {num_perm} permutations finds pairs at Jaccard {t} with probability \
             {}: raise {NumPerm} (128 is enough for any threshold from 0.3), or pass \
             {Uniform}",
                1.0 - PERMISSIVE_MISS
            ))
        })?;
    Banding::new(b, r, num_perm)
}

/// The candidates of a banding as (band, bucket) pairs, counted: enough to count the distinct
/// candidates exactly and to draw them uniformly.
struct CandidateIndex {
    lists: BucketLists,
    /// For band k, the running total of bucket pairs over its buckets (starting at 0).
    cumulative: Vec<Vec<u64>>,
    /// Running total of bucket pairs over bands (starting at 0).
    band_starts: Vec<u64>,
}

impl CandidateIndex {
    fn new(lists: BucketLists) -> Self {
        let cumulative: Vec<Vec<u64>> = lists
            .bands
            .iter()
            .map(|band| {
                let mut c = Vec::with_capacity(band.len() + 1);
                c.push(0u64);
                for bucket in band.iter() {
                    c.push(c.last().expect("starts at 0") + pairs_among(bucket.len() as u64));
                }
                c
            })
            .collect();
        let mut band_starts = vec![0u64];
        for c in &cumulative {
            band_starts.push(band_starts.last().expect("starts at 0") + c.last().expect("≥ 1"));
        }
        CandidateIndex {
            lists,
            cumulative,
            band_starts,
        }
    }

    /// Bucket pairs with multiplicity over `bands`, and the number of the first of them in
    /// the order [`CandidateIndex::bucket_pair`] counts them.
    fn bucket_pairs_in(&self, bands: &Range<usize>) -> (u64, u64) {
        let first = self.band_starts[bands.start];
        (self.band_starts[bands.end] - first, first)
    }

    /// The k-th (band, bucket pair) as (band, a, b), a < b in input order.
    fn bucket_pair(&self, k: u64) -> (usize, u32, u32) {
        let band = self.band_starts.partition_point(|&s| s <= k) - 1;
        let k = k - self.band_starts[band];
        let c = &self.cumulative[band];
        let bucket = c.partition_point(|&s| s <= k) - 1;
        let members = self.lists.bands[band].bucket(bucket);
        let (i, j) = pair_at(k - c[bucket]);
        (band, members[i as usize], members[j as usize])
    }

    /// True when band `band` is the first where `a` and `b` collide: each distinct candidate
    /// has exactly one such (band, bucket pair), which deduplicates as `scan` does.
    fn is_first(&self, band: usize, a: u32, b: u32) -> bool {
        !self.lists.collide_before(a, b, band)
    }

    /// Every distinct pair whose first band is in `bands`, listed (for a stratum small
    /// enough to take whole: the work is the bucket pairs of those bands times the bands).
    fn list_distinct(&self, bands: Range<usize>, progress: &Progress) -> Result<Vec<(u32, u32)>> {
        let per_bucket: Vec<Vec<(u32, u32)>> = self.lists.bands[bands.clone()]
            .par_iter()
            .zip(bands)
            .flat_map_iter(|(buckets, band)| buckets.iter().map(move |m| (band, m)))
            .map(|(band, members)| {
                progress.check()?;
                let mut kept = Vec::new();
                for (i, &a) in members.iter().enumerate() {
                    for &b in &members[i + 1..] {
                        if self.is_first(band, a, b) {
                            kept.push((a, b));
                        }
                    }
                }
                Ok(kept)
            })
            .collect::<Result<_>>()?;
        let mut all: Vec<(u32, u32)> = per_bucket.concat();
        all.sort_unstable();
        Ok(all)
    }

    /// The number of distinct candidates, exactly: half the sum over documents of their
    /// distinct partners, the union of their buckets over bands.
    ///
    /// Documents in the same bucket in every band (verbatim copies, most of a template family)
    /// have the same union, so they form one *class*, counted once with its size. Numbering
    /// the documents in the order of their buckets (band by band) puts each class, and most of
    /// a family's bucket, on consecutive numbers; each bucket becomes a sparse bitset over
    /// these numbers (the 64-bit words it touches), and a class's union is the popcount of the
    /// OR of its buckets' bitsets. A bucket of one class is dropped (the class's own bits stand
    /// for it). The work is Σ over classes of the words of their buckets, where walking each
    /// bucket's members cost Σ of their sizes: a family's bucket of thousands of documents on
    /// consecutive numbers costs its size ÷ 64.
    ///
    /// `first_of` groups documents whose rows are equal (as [`first_of_each_row`] gives it):
    /// only the first of each group is sorted by its buckets, and the others follow it.
    fn count_distinct(&self, first_of: &[u32], progress: &Progress) -> Result<u64> {
        let lists = &self.lists;
        let row = |d: u32| lists.buckets_of(d);
        let documents = first_of.len();
        let mut firsts: Vec<u32> = (0..documents as u32)
            .into_par_iter()
            .filter(|&d| first_of[d as usize] == d && row(d).iter().any(|&x| x != u32::MAX))
            .collect();
        firsts.par_sort_unstable_by(|&a, &b| row(a).cmp(row(b)));
        progress.check()?;
        // Each group on consecutive positions, in the order of its first document's buckets.
        let mut group_start = vec![u32::MAX; documents];
        let mut size = vec![0u32; documents];
        for &f in first_of {
            size[f as usize] += 1;
        }
        let mut next = 0u32;
        for &f in &firsts {
            group_start[f as usize] = next;
            next += size[f as usize];
        }
        let mut docs = vec![0u32; next as usize];
        for (d, &f) in first_of.iter().enumerate() {
            let at = &mut group_start[f as usize];
            if *at != u32::MAX {
                docs[*at as usize] = d as u32;
                *at += 1;
            }
        }
        drop((firsts, group_start, size));
        // The rows in position order: the passes below read them in order (each band's at a
        // fixed stride) instead of one document's row at random per read.
        // (A banding has at least one band.)
        let bands = lists.bands.len();
        let positions_len = docs.len();
        let mut by_position = vec![0u32; positions_len * bands];
        by_position
            .par_chunks_mut(bands)
            .zip(docs.par_iter())
            .for_each(|(into, &d)| into.copy_from_slice(row(d)));
        drop(docs);
        let row_at = |p: usize| &by_position[p * bands..(p + 1) * bands];
        // Position of each class's first document, and the end.
        let mut starts: Vec<u32> = (0..positions_len)
            .filter(|&p| p == 0 || row_at(p - 1) != row_at(p))
            .map(|p| p as u32)
            .collect();
        let classes = starts.len();
        starts.push(positions_len as u32);
        // Per band, each bucket of two or more classes as (word, bits) over positions, and
        // for each bucket number its list's number in the band (u32::MAX: one class).
        struct BandBits {
            list_of: Vec<u32>,
            offsets: Vec<usize>,
            words: Vec<u32>,
            bits: Vec<u64>,
        }
        let per_band: Vec<BandBits> = (0..lists.bands.len())
            .into_par_iter()
            .map(|k| {
                progress.check()?;
                let band = &lists.bands[k];
                // Members' positions bucket by bucket, filled in position order (so sorted).
                let mut begin = Vec::with_capacity(band.len() + 1);
                begin.push(0usize);
                for members in band.iter() {
                    begin.push(begin[begin.len() - 1] + members.len());
                }
                let mut cursor = begin.clone();
                let mut positions = vec![0u32; begin[band.len()]];
                for p in 0..positions_len {
                    let bucket = by_position[p * bands + k];
                    if bucket != u32::MAX {
                        positions[cursor[bucket as usize]] = p as u32;
                        cursor[bucket as usize] += 1;
                    }
                }
                let mut out = BandBits {
                    list_of: Vec::with_capacity(band.len()),
                    offsets: vec![0],
                    words: Vec::new(),
                    bits: Vec::new(),
                };
                for bucket in 0..band.len() {
                    let at = &positions[begin[bucket]..begin[bucket + 1]];
                    // Classes lie on consecutive positions and buckets hold whole classes, so
                    // a bucket is one class when its first and last member are in the same.
                    let (first, last) = (at[0], at[at.len() - 1]);
                    let class = starts.partition_point(|&s| s <= first) - 1;
                    if starts[class + 1] > last {
                        out.list_of.push(u32::MAX);
                        continue;
                    }
                    out.list_of.push(out.offsets.len() as u32 - 1);
                    let list_start = out.words.len();
                    for &p in at {
                        let (word, bit) = (p / 64, 1u64 << (p % 64));
                        if out.words.len() > list_start && out.words[out.words.len() - 1] == word {
                            *out.bits.last_mut().expect("a word per entry") |= bit;
                        } else {
                            out.words.push(word);
                            out.bits.push(bit);
                        }
                    }
                    out.offsets.push(out.words.len());
                }
                Ok(out)
            })
            .collect::<Result<_>>()?;
        const CHUNK: usize = 64;
        let twice: u64 = (0..classes.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(
                || (vec![0u64; positions_len.div_ceil(64)], Vec::<u32>::new()),
                |(union_bits, touched), chunk| {
                    progress.check()?;
                    let mut sum = 0u64;
                    for class in chunk * CHUNK..((chunk + 1) * CHUNK).min(classes) {
                        let (lo, hi) = (starts[class], starts[class + 1]);
                        let mut or_word = |word: u32, bits: u64| {
                            let old = union_bits[word as usize];
                            if old == 0 {
                                touched.push(word);
                            }
                            union_bits[word as usize] = old | bits;
                        };
                        // The class itself is in its union whatever its buckets hold.
                        let mut p = lo;
                        while p < hi {
                            let end = ((p / 64 + 1) * 64).min(hi);
                            let n = end - p;
                            let ones = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                            or_word(p / 64, ones << (p % 64));
                            p = end;
                        }
                        for (k, &bucket) in row_at(lo as usize).iter().enumerate() {
                            if bucket == u32::MAX {
                                continue;
                            }
                            let band = &per_band[k];
                            let list = band.list_of[bucket as usize];
                            if list == u32::MAX {
                                continue;
                            }
                            let range =
                                band.offsets[list as usize]..band.offsets[list as usize + 1];
                            for (&word, &bits) in
                                band.words[range.clone()].iter().zip(&band.bits[range])
                            {
                                or_word(word, bits);
                            }
                        }
                        let mut union = 0u64;
                        for &word in touched.iter() {
                            union += union_bits[word as usize].count_ones() as u64;
                            union_bits[word as usize] = 0;
                        }
                        touched.clear();
                        // Each document of the class has the union but itself as partners.
                        sum += (hi - lo) as u64 * (union - 1);
                    }
                    Ok(sum)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        progress.check()?;
        Ok(twice / 2)
    }
}

/// Draws that may be rejected per pair kept before the sampler gives up (an others stratum
/// so small a share of all pairs is then taken whole instead).
const MAX_REJECTIONS_PER_DRAW: u64 = 1000;

/// The most pairs of a corpus walked to list the others stratum whole (a few seconds).
const MAX_PAIRS_WALKED: u64 = 500_000_000;

/// The signatures the permissive bandings of `design` need, from the shingle sets: the
/// sketch of `options` (family, K, seed) for the bandings' b × r rows only (the longer of
/// the two), as [`leading_signatures_of_sets`] computes them. They are the first b × r rows
/// of the index's signatures, so [`stratified_pair_sample`] on them equals the sample on a
/// full index of `options` (what the explorer holds), at b·r/K of the sketching cost.
///
/// Documents with the same shingle set have the same rows, so only the first document of each
/// set is sketched and its copies take its row: template corpora repeat texts verbatim (297 k
/// of 664 k documents in the benchmark corpus), and the sketch is the one step here whose cost
/// grows with the set sizes.
pub fn strata_signatures(
    sets: &ShingleSets,
    options: &IndexOptions,
    design: StrataDesign,
    progress: &Progress,
) -> Result<Signatures> {
    let rows = design.rows_used(options.num_perm)?;
    let full = Sketcher::new(options.family, options.num_perm, options.seed);
    let Some(sketcher) = full.first_rows(rows) else {
        // One-permutation hashing sketches all K bins at once (its cost hardly depends on K).
        return leading_signatures_of_sets(
            sets,
            options.family,
            options.num_perm,
            options.seed,
            rows,
            progress,
        );
    };
    let first = crate::minhash::first_of_each_set(sets);
    let n = sets.len();
    progress.begin(Phase::Signatures, n as u64);
    let mut data = vec![0u32; n * rows];
    let mut empty = vec![false; n];
    data.par_chunks_mut(SKETCH_CHUNK * rows)
        .zip(empty.par_chunks_mut(SKETCH_CHUNK))
        .enumerate()
        .try_for_each_init(
            SketchScratch::default,
            |scratch, (c, (sig_chunk, empty_chunk))| {
                progress.check()?;
                let start = c * SKETCH_CHUNK;
                for (d, is_empty) in empty_chunk.iter_mut().enumerate() {
                    let doc = start + d;
                    let set = sets.get(doc);
                    *is_empty = set.is_empty();
                    if first[doc] == doc as u32 {
                        sketcher.sketch_into(
                            set,
                            &mut sig_chunk[d * rows..(d + 1) * rows],
                            scratch,
                        );
                    }
                }
                progress.advance(empty_chunk.len() as u64);
                Ok::<(), Error>(())
            },
        )?;
    // A copy's first document comes before it, so its row is final by now.
    for (doc, &of) in first.iter().enumerate() {
        let of = of as usize;
        if of != doc {
            data.copy_within(of * rows..(of + 1) * rows, doc * rows);
        }
    }
    Ok(Signatures::from_rows(rows, data, empty).expect("one row of b × r values per document"))
}

/// Documents per parallel task of [`strata_signatures`].
const SKETCH_CHUNK: usize = 2048;

/// A sample of `m` pairs stratified by the permissive bandings of `design` among the bandings
/// of K = `num_perm`, from the shingle sets and signatures (of `family`) of one index (at
/// least the bandings' b × r leading rows of them), reproducible with `seed`.
///
/// The candidates are taken whole when they number at most m/2, otherwise m/2 are drawn; with
/// a lower level the lower candidates get a quarter of what is left (m/8), likewise; the
/// others get the rest. A corpus with at most m pairs is taken whole.
#[allow(clippy::too_many_arguments)] // the index's parts, the design and the draw, each its own
pub fn stratified_pair_sample(
    sets: &ShingleSets,
    sigs: &Signatures,
    num_perm: usize,
    family: SketchFamily,
    m: usize,
    design: StrataDesign,
    seed: u64,
    progress: &Progress,
) -> Result<StratifiedSample> {
    let (first, lower) = design.levels(num_perm)?;
    let banding = first.banding;
    // Documents with equal banded rows (verbatim copies, most of a template family) are
    // keyed, sorted and counted once per group; equal rows for the longer banding are equal
    // for the shorter one too.
    let first_of = first_of_each_row(sigs, design.rows_used(num_perm)?);
    let lists_of = |banding: Banding| {
        bucket_lists_of_representatives(
            sigs,
            &BandingOptions {
                banding,
                max_bucket: None,
            },
            &first_of,
            progress,
        )
    };
    let first_index = CandidateIndex::new(lists_of(banding)?);
    let candidate_count = first_index.count_distinct(&first_of, progress)?;
    // One index of the first banding's bands followed by the lower one's: a pair's first
    // band in it says its stratum, and a pair in no band of it is an other.
    let (index, lower_count) = match lower {
        None => (first_index, 0),
        Some(level) => {
            let lists = first_index.lists.followed_by(lists_of(level.banding)?);
            let index = CandidateIndex::new(lists);
            let union = index.count_distinct(&first_of, progress)?;
            (index, union - candidate_count)
        }
    };
    drop(first_of);
    let first_bands = 0..banding.bands;
    let lower_bands = banding.bands..index.lists.bands.len();
    let n = sets.len();
    let population = pairs_among(n as u64);
    let others = population - candidate_count - lower_count;
    let mut rng = SplitMix64::new(seed ^ 0x7374_7261_7461);

    // Candidates: whole, or m/2 uniform draws (bucket pair, kept in its first band), with
    // or without a lower level: they decide the count, recall and precision at t, and the
    // candidates stratum is the same draw either way.
    let whole_corpus = population <= m as u64;
    let candidate_budget = if whole_corpus { m } else { m / 2 };
    let candidate_pairs = index
        .sample(
            first_bands,
            candidate_count,
            candidate_budget,
            &mut rng,
            progress,
        )?
        .expect("each candidate has one first band of its own");
    // Lower candidates: a quarter of what is left (m/8 when the candidates are drawn), the
    // same way among the lower banding's bands; the others keep the rest (3m/8), as for the
    // wider bandings their draws decide the top of expected candidates (on 63,000 Debian
    // descriptions at 0.8, m/4 of them put 16 × 6's top at 1.35 times that of m/2).
    let lower_pairs = match lower {
        None => Vec::new(),
        Some(level) => {
            let left = m.saturating_sub(candidate_pairs.len());
            let budget = if whole_corpus { left } else { left / 4 };
            index
                .sample(lower_bands, lower_count, budget, &mut rng, progress)?
                .ok_or_else(|| {
                    Error::refused(format!(
                        "the {} pairs that the permissive {} banding of the lower threshold {} \
                         adds to the {banding} banding's are too rare among its bucket pairs to \
                         draw, and too many to list: raise {LowerThreshold}, or pass \
                         {LowerThreshold} off",
                        crate::util::numfmt::thousands(lower_count),
                        level.banding,
                        level.threshold
                    ))
                })?
        }
    };

    // Others: uniform pairs of the corpus that collide in no band; all of them when the
    // budget covers them or they are too rare among all pairs to find by rejection.
    let other_budget = m.saturating_sub(candidate_pairs.len() + lower_pairs.len());
    let rare = (others as f64) * (MAX_REJECTIONS_PER_DRAW as f64) < population as f64;
    let other_pairs: Vec<(u32, u32)> = if others <= other_budget as u64 || rare {
        // Listing them walks every pair of the corpus.
        if others > 50_000_000 || population > MAX_PAIRS_WALKED {
            return Err(Error::refused(format!(
                "only {} of the {} pairs lie outside the candidates of the permissive \
                 {banding} banding{}: too few to find by drawing pairs, and listing them would \
                 walk every pair of the corpus. Raise {Threshold} (a sharper banding has fewer \
                 candidates), or sample uniformly with {Uniform}",
                crate::util::numfmt::thousands(others),
                crate::util::numfmt::thousands(population),
                lower.map_or(String::new(), |l| format!(" and the lower {}", l.banding))
            )));
        }
        let mut all = Vec::with_capacity(others as usize);
        for b in 1..n as u32 {
            for a in 0..b {
                if index.lists.bands_hit(a, b) == 0 {
                    all.push((a, b));
                }
            }
        }
        all
    } else {
        let mut drawn = Vec::with_capacity(other_budget);
        while drawn.len() < other_budget {
            let (a, b) = pair_at(rng.below(population));
            if index.lists.bands_hit(a, b) == 0 {
                drawn.push((a, b));
            }
        }
        drawn
    };

    progress.begin(
        Phase::Verifying,
        (candidate_pairs.len() + lower_pairs.len() + other_pairs.len()) as u64,
    );
    let similarities = |pairs: &[(u32, u32)]| -> Result<Vec<f64>> {
        let chunks: Vec<Vec<f64>> = pairs
            .par_chunks(16 * 1024)
            .map(|chunk| {
                progress.check()?;
                let out = chunk
                    .iter()
                    .map(|&(a, b)| jaccard(sets.get(a as usize), sets.get(b as usize)))
                    .collect();
                progress.advance(chunk.len() as u64);
                Ok(out)
            })
            .collect::<Result<_>>()?;
        Ok(chunks.concat())
    };
    let mut strata = vec![Stratum {
        name: CANDIDATES,
        pairs: candidate_count,
        similarities: similarities(&candidate_pairs)?,
    }];
    if lower.is_some() {
        strata.push(Stratum {
            name: LOWER_CANDIDATES,
            pairs: lower_count,
            similarities: similarities(&lower_pairs)?,
        });
    }
    strata.push(Stratum {
        name: OTHERS,
        pairs: others,
        similarities: similarities(&other_pairs)?,
    });
    Ok(StratifiedSample {
        banding,
        threshold: first.threshold,
        lower,
        family: Some(family),
        strata,
    })
}

impl CandidateIndex {
    /// The pairs whose first band is in `bands` (`count` of them): all of them when they
    /// number at most `budget`, else `budget` uniform draws, each a uniform (band, bucket
    /// pair) of those bands kept when the band is the pair's first. `None` when neither can
    /// be done in reasonable time: drawing would reject more than [`MAX_REJECTIONS_PER_DRAW`]
    /// bucket pairs per pair kept (the bands' buckets mostly repeat pairs of earlier bands)
    /// and listing would walk more than [`MAX_PAIRS_WALKED`] of them.
    fn sample(
        &self,
        bands: Range<usize>,
        count: u64,
        budget: usize,
        rng: &mut SplitMix64,
        progress: &Progress,
    ) -> Result<Option<Vec<(u32, u32)>>> {
        let (bucket_pairs, first) = self.bucket_pairs_in(&bands);
        // The first banding's bucket pairs are at most its bands times its candidates, few
        // enough to walk whenever its candidates fit the budget.
        let walkable = bands.start == 0 || bucket_pairs <= MAX_PAIRS_WALKED;
        if count == 0 || (count <= budget as u64 && walkable) {
            return self.list_distinct(bands, progress).map(Some);
        }
        // The first banding's bands come first, so each of its candidates has its own first
        // band among them: at least one bucket pair in `bands` of every bucket pair is kept.
        if bands.start > 0 && bucket_pairs / count > MAX_REJECTIONS_PER_DRAW {
            return Ok(if walkable {
                self.list_distinct(bands, progress)
                    .map(|all| Some(draw_from(&all, budget, rng)))?
            } else {
                None
            });
        }
        let mut drawn = Vec::with_capacity(budget);
        while drawn.len() < budget {
            let (band, a, b) = self.bucket_pair(first + rng.below(bucket_pairs));
            if self.is_first(band, a, b) {
                drawn.push((a, b));
            }
        }
        Ok(Some(drawn))
    }
}

/// `budget` uniform draws with replacement from `all`.
fn draw_from(all: &[(u32, u32)], budget: usize, rng: &mut SplitMix64) -> Vec<(u32, u32)> {
    (0..budget)
        .map(|_| all[rng.below(all.len() as u64) as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandings_parse_both_ways() {
        assert_eq!(
            file::parse_banding("20x5"),
            Some(Banding { bands: 20, rows: 5 })
        );
        assert_eq!(
            file::parse_banding("20×5"),
            Some(Banding { bands: 20, rows: 5 })
        );
        assert_eq!(file::parse_banding("0x5"), None);
        assert_eq!(file::parse_banding("twenty"), None);
    }

    /// A sample shaped like the Debian one at 0.8: 100,000 of 495,031 candidates drawn, 9,507
    /// of them at or above t, and no hit in 100,000 draws among 2 × 10⁹ others.
    fn debian_like(family: Option<SketchFamily>) -> StratifiedSample {
        let mut candidates = vec![0.3; 100_000];
        candidates[..9_507].fill(0.9);
        StratifiedSample {
            banding: permissive_banding(128, 0.8).unwrap(),
            threshold: 0.8,
            lower: None,
            family,
            strata: vec![
                Stratum {
                    name: CANDIDATES,
                    pairs: 495_031,
                    similarities: candidates,
                },
                Stratum {
                    name: OTHERS,
                    pairs: 2_011_853_489,
                    similarities: vec![0.05; 100_000],
                },
            ],
        }
    }

    /// With the classic family the count's top is the candidates' own plus at most 11 % for
    /// pairs the permissive banding missed (P₀(0.8) ≥ 0.999); where the family's bands are
    /// not known to follow the S-curve (C-MinHash, one-permutation, a file that does not say),
    /// the others' draws alone bound it, three times higher.
    #[test]
    fn the_count_top_bounds_hidden_pairs_only_where_the_s_curve_holds() {
        let top = |family| {
            debian_like(family)
                .intervals(18, 5, 0.8)
                .unwrap()
                .pairs_at_or_above
                .1
        };
        let classic = top(Some(SketchFamily::Classic));
        let estimate = 495_031.0 * 0.09507;
        assert!(
            classic > estimate && classic < 1.2 * estimate,
            "{classic} vs {estimate}"
        );
        for family in [
            Some(SketchFamily::OnePermutation),
            Some(SketchFamily::CMinHash),
            None,
        ] {
            let wide = top(family);
            assert!(wide > 3.0 * estimate, "{family:?}: {wide}");
        }
        // The bound grows as t falls below the strata threshold, and stops at q ≥ 1/2.
        let sample = debian_like(Some(SketchFamily::Classic));
        let at = |t: f64| sample.intervals(18, 5, t).unwrap().pairs_at_or_above.1;
        assert!(sample.top_with_hidden_pairs(0.8).is_some());
        assert!(sample.top_with_hidden_pairs(0.6).is_none());
        assert!(
            sample
                .hidden_pairs_unbounded(0.6)
                .unwrap()
                .contains("far below")
        );
        assert!(
            debian_like(None)
                .hidden_pairs_unbounded(0.8)
                .unwrap()
                .contains("does not say")
        );
        assert!(at(0.6) > 3.0 * estimate);
    }

    /// The family is written on every row and read back; a file from before the column is
    /// read with no family, and one whose rows name two families is refused.
    #[test]
    fn the_family_goes_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut sample = debian_like(Some(SketchFamily::CMinHash));
        sample.strata[0].similarities.truncate(3);
        sample.strata[1].similarities.truncate(2);
        sample.strata[0].pairs = 30;
        sample.strata[1].pairs = 20;
        let path = dir.path().join("s.csv");
        let mut bytes = Vec::new();
        sample.write(&mut bytes, OutputFormat::Csv, None).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            text.lines().nth(1).unwrap().ends_with(",c-minhash"),
            "{text}"
        );
        assert_eq!(read_stratified(&path).unwrap().unwrap(), sample);
        let older: String = text
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
            .collect();
        std::fs::write(&path, older).unwrap();
        assert_eq!(read_stratified(&path).unwrap().unwrap().family, None);
        // JSON Lines without the key reads the same way.
        let jsonl = dir.path().join("s.jsonl");
        let mut bytes = Vec::new();
        sample.write(&mut bytes, OutputFormat::Jsonl, None).unwrap();
        let lines = String::from_utf8(bytes).unwrap();
        assert!(lines.contains("\"strata_family\":\"c-minhash\""), "{lines}");
        std::fs::write(
            &jsonl,
            lines.replace(",\"strata_family\":\"c-minhash\"", ""),
        )
        .unwrap();
        let read = read_stratified(&jsonl).unwrap().unwrap();
        assert_eq!((read.family, read.strata), (None, sample.strata.clone()));
        let mixed = text.replacen(",c-minhash\n", ",classic\n", 1);
        std::fs::write(&path, mixed).unwrap();
        let error = read_stratified(&path).unwrap_err().to_string();
        assert!(error.contains("do not concatenate samples"), "{error}");
    }

    /// The Debian sample at 0.8 with a lower level at 0.6, shaped like the one drawn from
    /// 63,000 descriptions: 50,000 of 459,688 candidates (a tenth at 0.9, the rest at 0.65),
    /// 12,500 of 7.9 M lower candidates at 0.45, and 37,500 of 1.79 × 10⁹ others at 0.05; and
    /// the same candidates and others without the lower level (50,000 draws each).
    fn debian_like_with_lower(lower: bool) -> StratifiedSample {
        let mut candidates = vec![0.65; 50_000];
        candidates[..5_000].fill(0.9);
        let mut strata = vec![Stratum {
            name: CANDIDATES,
            pairs: 459_688,
            similarities: candidates,
        }];
        if lower {
            strata.push(Stratum {
                name: LOWER_CANDIDATES,
                pairs: 7_920_821,
                similarities: vec![0.45; 12_500],
            });
        }
        strata.push(Stratum {
            name: OTHERS,
            pairs: 1_791_589_491,
            similarities: vec![0.05; if lower { 37_500 } else { 50_000 }],
        });
        StratifiedSample {
            banding: permissive_banding(128, 0.8).unwrap(),
            threshold: 0.8,
            lower: lower.then(|| StrataLevel::permissive(128, 0.6).unwrap()),
            family: Some(SketchFamily::Classic),
            strata,
        }
    }

    /// Where the user decides by a budget: the top of a sharp banding's expected candidates.
    /// Without a lower level it is about 3.5 times the estimate (the others' draws stand for
    /// 36,000 pairs each); with one, the pairs the first banding misses between 0.6 and 0.8
    /// have a stratum of their own and the top comes within 40 % of the estimate. The
    /// count's top stays within 12 % of the estimate without it and 16 % with it (three drawn
    /// strata split the tail three ways).
    #[test]
    fn a_lower_level_bounds_the_expected_candidates_of_sharp_bandings() {
        let (bands, rows, t) = (9, 13, 0.8);
        let p = |s: f64| candidate_probability(s, bands, rows);
        // (top of expected candidates over its estimate, top of the count at or above t)
        let tops = |lower: bool| {
            let sample = debian_like_with_lower(lower);
            let iv = sample.intervals(bands, rows, t).unwrap();
            let estimate: f64 = sample
                .strata
                .iter()
                .map(|s| s.weight() * s.similarities.iter().map(|&j| p(j)).sum::<f64>())
                .sum();
            (iv.expected_candidates.1 / estimate, iv.pairs_at_or_above.1)
        };
        let (without, count_without) = tops(false);
        let (with, count_with) = tops(true);
        assert!(without > 3.0, "{without}");
        assert!(with < 1.4, "{with}");
        let count = 459_688.0 * 0.1;
        assert!(count_without < 1.12 * count, "{count_without}");
        assert!(count_with < 1.16 * count, "{count_with}");
    }

    /// A sample with a lower level goes through the file and back: the lower rows name the
    /// lower banding and threshold, the others' rows the first; a lower threshold not below
    /// the first is refused with its line.
    #[test]
    fn the_lower_level_goes_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut sample = debian_like_with_lower(true);
        for (stratum, (rows, pairs)) in sample.strata.iter_mut().zip([(3, 30), (2, 20), (4, 40)]) {
            stratum.similarities.truncate(rows);
            stratum.pairs = pairs;
        }
        let path = dir.path().join("s.csv");
        let mut bytes = Vec::new();
        sample.write(&mut bytes, OutputFormat::Csv, None).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            text.contains(",lower_candidates,20,29x3,0.6,classic\n"),
            "{text}"
        );
        assert!(text.contains(",others,40,18x5,0.8,classic\n"), "{text}");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(read_stratified(&path).unwrap().unwrap(), sample);
        std::fs::write(&path, text.replace(",29x3,0.6,", ",29x3,0.9,")).unwrap();
        let error = read_stratified(&path).unwrap_err().to_string();
        assert!(
            error.contains("is not below the first level's 0.8"),
            "{error}"
        );
        assert!(error.contains(":5:") || error.contains("line 5"), "{error}");
    }

    #[test]
    fn permissive_banding_reaches_the_threshold() {
        for t in [0.3, 0.5, 0.8, 0.9] {
            let b = permissive_banding(128, t).unwrap();
            assert!(candidate_probability(t, b.bands, b.rows) >= 1.0 - PERMISSIVE_MISS);
        }
        assert!(permissive_banding(128, 0.0).is_err());
    }

    /// The class-wise count equals the distinct pairs `find_candidates` lists (as `scan`
    /// counts them), on template families with verbatim copies, a planted group of copies
    /// and a planted family of edited copies, for bandings from loose to sharp.
    #[test]
    fn distinct_count_equals_the_listed_candidates() {
        use crate::minhash::{build_index, find_candidates};
        use crate::synthetic::templated::{TemplateOptions, generate_templated};
        use crate::text::{ShingleKind, ShingleOptions};
        let corpus = generate_templated(&TemplateOptions {
            docs: 1500,
            seed: 9,
            max_family: 200,
            copy_share: 0.4,
            identical_group: 40,
            template_family: 60,
            ..TemplateOptions::default()
        })
        .corpus;
        let options = IndexOptions {
            shingle: ShingleOptions {
                kind: ShingleKind::Word(1),
                ..ShingleOptions::default()
            },
            num_perm: 128,
            seed: 3,
            ..IndexOptions::default()
        };
        let p = Progress::new();
        let index = build_index(&corpus, &options, &p).unwrap();
        for (bands, rows) in [(40, 1), (25, 2), (26, 4), (16, 6), (8, 16)] {
            let banding = BandingOptions {
                banding: Banding::new(bands, rows, 128).unwrap(),
                max_bucket: None,
            };
            let listed = find_candidates(&index.signatures, &banding, &p).unwrap();
            let lists =
                crate::minhash::bucket_lists(&index.signatures, &banding, None, &p).unwrap();
            let first_of = first_of_each_row(&index.signatures, banding.banding.hashes_used());
            let by_group =
                bucket_lists_of_representatives(&index.signatures, &banding, &first_of, &p)
                    .unwrap();
            assert_eq!(by_group, lists, "{bands} x {rows}");
            // And under a bucket cap, which cuts each bucket at the same documents.
            let capped = BandingOptions {
                max_bucket: Some(crate::minhash::MIN_MAX_BUCKET.max(7)),
                ..banding
            };
            let expected =
                crate::minhash::bucket_lists(&index.signatures, &capped, None, &p).unwrap();
            assert!(expected.capped_bucket_count > 0, "{bands} x {rows}");
            assert_eq!(
                bucket_lists_of_representatives(&index.signatures, &capped, &first_of, &p).unwrap(),
                expected,
                "{bands} x {rows}, capped"
            );
            let count = CandidateIndex::new(lists)
                .count_distinct(&first_of, &p)
                .unwrap();
            assert_eq!(count, listed.pairs.len() as u64, "{bands} x {rows}");
            assert!(count > 0, "{bands} x {rows}");
        }
    }
}
