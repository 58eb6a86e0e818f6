//! Choosing bands b and rows r for K permutations: summaries of one S-curve, the constraint
//! search, the search for a target probability at a threshold, and the corpus-weighted view
//! (expected candidates, recall and precision over the pair similarities of a real corpus).
//!
//! Pure math on numbers: no I/O. The CLI (`lshscope tune`) and the explorer draw from here.

use rayon::prelude::*;
use serde::Serialize;

use super::scurve::{
    AreaIntegrator, approximate_threshold, bandings, candidate_probability,
    similarity_at_probability, steepest_point, steepest_slope,
};

/// Everything the tuner reports about one (b, r) at a threshold t.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CurveSummary {
    /// b, the number of bands.
    pub bands: usize,
    /// r, the rows per band.
    pub rows: usize,
    /// b·r: permutations the banding reads.
    pub hashes: usize,
    /// ((r − 1)/(b·r − 1))^(1/r).
    pub steepest_point: f64,
    /// P'(s) at the steepest point.
    pub steepest_slope: f64,
    /// (1/b)^(1/r).
    pub approximate_threshold: f64,
    /// The threshold t the row was computed for (none in a constraint search without one).
    pub threshold: Option<f64>,
    /// P(t).
    pub probability_at_threshold: Option<f64>,
    /// P at (1/b)^(1/r): how far from 50 % the usual threshold approximation is.
    pub probability_at_approximate_threshold: f64,
    /// The similarities where P = 10 %, 50 % and 90 %.
    pub similarity_at_10: f64,
    /// The similarity where P = 50 %.
    pub similarity_at_50: f64,
    /// The similarity where P = 90 %.
    pub similarity_at_90: f64,
    /// s@90 − s@10: the width of the curve's transition (narrower is sharper).
    pub width_10_90: f64,
    /// datasketch's ∫₀ᵗ P ds and ∫ₜ¹ (1 − P) ds.
    pub false_positive_area: Option<f64>,
    /// datasketch's false-negative area ∫ₜ¹ (1 − P) ds; `None` without a threshold.
    pub false_negative_area: Option<f64>,
}

/// Summarises (b, r) at threshold t.
pub fn summarize(bands: usize, rows: usize, threshold: Option<f64>) -> CurveSummary {
    let areas = AreaIntegrator::new(bands * rows);
    summarize_with(&areas, bands, rows, threshold)
}

fn summarize_with(
    areas: &AreaIntegrator,
    bands: usize,
    rows: usize,
    threshold: Option<f64>,
) -> CurveSummary {
    CurveSummary {
        bands,
        rows,
        hashes: bands * rows,
        steepest_point: steepest_point(bands, rows),
        steepest_slope: steepest_slope(bands, rows),
        approximate_threshold: approximate_threshold(bands, rows),
        threshold,
        probability_at_threshold: threshold.map(|t| candidate_probability(t, bands, rows)),
        probability_at_approximate_threshold: candidate_probability(
            approximate_threshold(bands, rows),
            bands,
            rows,
        ),
        similarity_at_10: similarity_at_probability(0.1, bands, rows),
        similarity_at_50: similarity_at_probability(0.5, bands, rows),
        similarity_at_90: similarity_at_probability(0.9, bands, rows),
        width_10_90: similarity_at_probability(0.9, bands, rows)
            - similarity_at_probability(0.1, bands, rows),
        false_positive_area: threshold.map(|t| areas.false_positive_area(t, bands, rows)),
        false_negative_area: threshold.map(|t| areas.false_negative_area(t, bands, rows)),
    }
}

/// A bound on P at one similarity: "pairs at `similarity` become candidates with probability
/// at most (reject) / at least (accept) `probability`".
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ProbabilityBound {
    /// Jaccard similarity s in [0, 1] the bound is at.
    pub similarity: f64,
    /// The probability p in [0, 1] that P(s) must stay at or below (reject) or reach (accept).
    pub probability: f64,
}

/// The constraints of a search: every `reject` bound needs P(s) ≤ p, every `accept` bound
/// needs P(s) ≥ p.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Constraints {
    /// Bounds of pairs to keep out: P(s) ≤ p at each.
    pub reject: Vec<ProbabilityBound>,
    /// Bounds of pairs to find: P(s) ≥ p at each.
    pub accept: Vec<ProbabilityBound>,
}

impl Constraints {
    /// True when there is no bound of either kind.
    pub fn is_empty(&self) -> bool {
        self.reject.is_empty() && self.accept.is_empty()
    }

    /// True when (b, r) meets every bound.
    pub fn satisfied_by(&self, bands: usize, rows: usize) -> bool {
        self.reject
            .iter()
            .all(|c| candidate_probability(c.similarity, bands, rows) <= c.probability)
            && self
                .accept
                .iter()
                .all(|c| candidate_probability(c.similarity, bands, rows) >= c.probability)
    }
}

/// One bound of a [`Constraints`] evaluated at one banding.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BoundCheck {
    /// `reject` (P(s) ≤ bound) or `accept` (P(s) ≥ bound).
    pub kind: &'static str,
    /// The similarity s the bound is at.
    pub similarity: f64,
    /// The bound p on P(s).
    pub bound: f64,
    /// P(s) of the banding.
    pub probability: f64,
    /// True when the banding's P(s) is on the right side of the bound.
    pub met: bool,
    /// How far the bound is missed, as a factor on the odds it limits: for a reject bound
    /// P(s)/p, for an accept bound (1 − P(s))/(1 − p); 1 when met.
    pub miss_factor: f64,
}

impl Constraints {
    /// Every bound at (b, r): rejects first, then accepts, each in the order given.
    pub fn check(&self, bands: usize, rows: usize) -> Vec<BoundCheck> {
        let reject = self.reject.iter().map(|c| {
            let p = candidate_probability(c.similarity, bands, rows);
            BoundCheck {
                kind: "reject",
                similarity: c.similarity,
                bound: c.probability,
                probability: p,
                met: p <= c.probability,
                miss_factor: if p <= c.probability {
                    1.0
                } else {
                    p / c.probability
                },
            }
        });
        let accept = self.accept.iter().map(|c| {
            let p = candidate_probability(c.similarity, bands, rows);
            BoundCheck {
                kind: "accept",
                similarity: c.similarity,
                bound: c.probability,
                probability: p,
                met: p >= c.probability,
                miss_factor: if p >= c.probability {
                    1.0
                } else {
                    (1.0 - p) / (1.0 - c.probability)
                },
            }
        });
        reject.chain(accept).collect()
    }

    /// The total violation of (b, r): the sum of ln(miss factor) over the bounds, 0 when every
    /// bound is met. Factors rather than differences, so a reject bound of 0.6 % missed by
    /// 0.6 points (2×) weighs as much as an accept bound of 99 % missed by 1 point (2× the
    /// misses).
    pub fn violation(&self, bands: usize, rows: usize) -> f64 {
        self.check(bands, rows)
            .iter()
            .map(|c| c.miss_factor.ln())
            .sum()
    }
}

/// When no banding with b·r ≤ K meets the constraints: the one that misses them least
/// ([`Constraints::violation`]; ties to fewer hashes), with its violation.
pub fn closest_to_constraints(
    num_perm: usize,
    constraints: &Constraints,
) -> Option<(usize, usize, f64)> {
    closest_to_constraints_among(num_perm, constraints, &any_banding)
}

/// A filter on bandings (b, r) for the searches' `_among` forms: the bandings a target tool
/// can express (datasketch refuses b < 2). [`any_banding`] keeps them all.
pub type BandingFilter<'a> = dyn Fn(usize, usize) -> bool + Sync + 'a;

/// The filter that keeps every banding.
pub fn any_banding(_bands: usize, _rows: usize) -> bool {
    true
}

/// [`closest_to_constraints`] among the bandings `allowed` keeps.
pub fn closest_to_constraints_among(
    num_perm: usize,
    constraints: &Constraints,
    allowed: &BandingFilter<'_>,
) -> Option<(usize, usize, f64)> {
    bandings(num_perm)
        .filter(|&(b, r)| allowed(b, r))
        .map(|(b, r)| (b, r, constraints.violation(b, r)))
        .min_by(|x, y| x.2.total_cmp(&y.2).then((x.0 * x.1).cmp(&(y.0 * y.1))))
}

/// The smallest K above `num_perm` (up to `limit`) for which some banding meets the
/// constraints, with that banding (the first of [`constraint_search`] at that K).
pub fn smallest_num_perm_for(
    constraints: &Constraints,
    num_perm: usize,
    limit: usize,
) -> Option<(usize, usize, usize)> {
    smallest_num_perm_for_among(constraints, num_perm, limit, &any_banding)
}

/// [`smallest_num_perm_for`] among the bandings `allowed` keeps.
pub fn smallest_num_perm_for_among(
    constraints: &Constraints,
    num_perm: usize,
    limit: usize,
    allowed: &BandingFilter<'_>,
) -> Option<(usize, usize, usize)> {
    // A banding first fits at K = b·r, so checking each (b, r) once in order of b·r finds it.
    let mut all: Vec<(usize, usize)> = bandings(limit)
        .filter(|&(b, r)| b * r > num_perm && allowed(b, r))
        .collect();
    all.sort_by_key(|&(b, r)| b * r);
    let k = all
        .iter()
        .find(|&&(b, r)| constraints.satisfied_by(b, r))
        .map(|&(b, r)| b * r)?;
    let &(b, r) = constraint_search_among(k, constraints, allowed).first()?;
    Some((k, b, r))
}

/// The similarity at each probability in `probabilities`: s = P⁻¹(p) for (b, r).
pub fn quantiles(bands: usize, rows: usize, probabilities: &[f64]) -> Vec<(f64, f64)> {
    probabilities
        .iter()
        .map(|&p| (p, similarity_at_probability(p, bands, rows)))
        .collect()
}

/// Every (b, r) with b·r ≤ K meeting the constraints, ranked by fewest hashes, then by the
/// steepest slope (the sharpest separation), then by fewer bands.
pub fn constraint_search(num_perm: usize, constraints: &Constraints) -> Vec<(usize, usize)> {
    constraint_search_among(num_perm, constraints, &any_banding)
}

/// [`constraint_search`] among the bandings `allowed` keeps.
pub fn constraint_search_among(
    num_perm: usize,
    constraints: &Constraints,
    allowed: &BandingFilter<'_>,
) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize, f64)> = bandings(num_perm)
        .filter(|&(b, r)| allowed(b, r) && constraints.satisfied_by(b, r))
        .map(|(b, r)| (b, r, steepest_slope(b, r)))
        .collect();
    found.sort_by(|x, y| {
        (x.0 * x.1)
            .cmp(&(y.0 * y.1))
            .then(y.2.total_cmp(&x.2))
            .then(x.0.cmp(&y.0))
    });
    found.into_iter().map(|(b, r, _)| (b, r)).collect()
}

/// The banding that reaches P(t) ≥ `min_probability` with the least false-positive area
/// ∫₀ᵗ P ds (the sharpest curve that still finds that share of pairs at t); among equal areas,
/// the fewest hashes. `None` when no b·r ≤ K reaches it.
///
/// "Fewest hashes" alone is not a useful first criterion here: with r = 1, three bands already
/// give P(0.8) ≥ 0.99, and also P(0.3) = 0.66.
pub fn sharpest_with_probability_at(
    num_perm: usize,
    threshold: f64,
    min_probability: f64,
) -> Option<(usize, usize)> {
    sharpest_with_probability_at_among(num_perm, threshold, min_probability, &any_banding)
}

/// [`sharpest_with_probability_at`] among the bandings `allowed` keeps.
pub fn sharpest_with_probability_at_among(
    num_perm: usize,
    threshold: f64,
    min_probability: f64,
    allowed: &BandingFilter<'_>,
) -> Option<(usize, usize)> {
    let areas = AreaIntegrator::new(num_perm);
    bandings(num_perm)
        .filter(|&(b, r)| {
            allowed(b, r) && candidate_probability(threshold, b, r) >= min_probability
        })
        .map(|(b, r)| (b, r, areas.false_positive_area(threshold, b, r)))
        .min_by(|x, y| x.2.total_cmp(&y.2).then((x.0 * x.1).cmp(&(y.0 * y.1))))
        .map(|(b, r, _)| (b, r))
}

/// Pair similarities with weights: a list (weight 1 each) or a histogram (bin centre, count).
/// Equal similarities are merged, which keeps sums over large lists cheap.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimilarityDistribution {
    /// (similarity, weight), sorted by similarity, similarities distinct.
    points: Vec<(f64, f64)>,
}

impl SimilarityDistribution {
    /// From a list of pair similarities. Values must lie in [0, 1] (callers validate).
    pub fn from_similarities(values: &[f64]) -> Self {
        Self::from_weighted(values.iter().map(|&s| (s, 1.0)))
    }

    /// From a histogram: (similarity, count) per bin, e.g. bin centres.
    pub fn from_weighted(points: impl IntoIterator<Item = (f64, f64)>) -> Self {
        let mut raw: Vec<(f64, f64)> = points.into_iter().filter(|p| p.1 > 0.0).collect();
        raw.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f64, f64)> = Vec::with_capacity(raw.len());
        for (s, w) in raw {
            match merged.last_mut() {
                Some(last) if last.0 == s => last.1 += w,
                _ => merged.push((s, w)),
            }
        }
        SimilarityDistribution { points: merged }
    }

    /// Total weight (number of pairs).
    pub fn total(&self) -> f64 {
        self.points.iter().map(|p| p.1).sum()
    }

    /// Weight of pairs with similarity ≥ t.
    pub fn at_or_above(&self, threshold: f64) -> f64 {
        self.points
            .iter()
            .filter(|p| p.0 >= threshold)
            .map(|p| p.1)
            .sum()
    }

    /// True when the distribution holds no pair.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The merged (similarity, weight) points, sorted by similarity.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }
}

/// What a banding is expected to do on a similarity distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CorpusEstimate {
    /// Σ wᵢ P(sᵢ): expected number of candidate pairs.
    pub expected_candidates: f64,
    /// Σ_{sᵢ ≥ t} wᵢ: the pairs a perfect filter would keep.
    pub pairs_at_or_above: f64,
    /// Σ_{sᵢ ≥ t} wᵢ P(sᵢ) / Σ_{sᵢ ≥ t} wᵢ; `None` when no pair reaches t.
    pub expected_recall: Option<f64>,
    /// Σ_{sᵢ ≥ t} wᵢ P(sᵢ) / Σ wᵢ P(sᵢ): share of candidates at or above t; `None` when no
    /// candidate is expected at all.
    pub expected_precision: Option<f64>,
}

/// Expected candidates, recall and precision of (b, r) at threshold t on `distribution`.
pub fn corpus_estimate(
    distribution: &SimilarityDistribution,
    bands: usize,
    rows: usize,
    threshold: f64,
) -> CorpusEstimate {
    let (mut candidates, mut found_above, mut above) = (0.0, 0.0, 0.0);
    for &(s, w) in &distribution.points {
        let p = w * candidate_probability(s, bands, rows);
        candidates += p;
        if s >= threshold {
            found_above += p;
            above += w;
        }
    }
    CorpusEstimate {
        expected_candidates: candidates,
        pairs_at_or_above: above,
        expected_recall: (above > 0.0).then(|| found_above / above),
        expected_precision: (candidates > 0.0).then(|| found_above / candidates),
    }
}

/// Sampled pairs at or above t below which recall and precision at t are not estimated from a
/// sample: with fewer, the mean of P over them rests on a handful of pairs (the interval of a
/// proportion over 30 draws is still ±18 points at 50 %).
pub const MIN_SAMPLED_AT_THRESHOLD: usize = 30;

/// 95 % intervals of a [`CorpusEstimate`] computed from a weighted sample of pairs (each row
/// standing for `weight` pairs of the corpus, as `truth --estimate-pairs` writes them).
///
/// Each quantity is a weighted mean of values in [0, 1] (an indicator or P(s)) scaled by a
/// known total, so its interval is the Wilson interval at the sample's Kish effective size,
/// scaled: never below zero, never above the population, and right for uniform samples of
/// pairs, whose rows are independent draws. A sample of pairs drawn from candidates (pairs
/// that share documents) would need more; these rows are uniform.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SampledIntervals {
    /// Rows of the sample, and how many reach t.
    pub sampled_pairs: usize,
    /// Rows of the sample with similarity at or above t.
    pub sampled_at_or_above: usize,
    /// 95 % interval of the number of the corpus's pairs that become candidates.
    pub expected_candidates: (f64, f64),
    /// 95 % interval of the number of the corpus's pairs at or above t.
    pub pairs_at_or_above: (f64, f64),
    /// `None` below [`MIN_SAMPLED_AT_THRESHOLD`] sampled pairs at or above t.
    pub expected_recall: Option<(f64, f64)>,
    /// 95 % interval of the expected precision at t; `None` for an empty sample of candidates.
    pub expected_precision: Option<(f64, f64)>,
}

impl SampledIntervals {
    /// Enough sampled pairs reach t to estimate recall and precision at t.
    pub fn threshold_is_measurable(&self) -> bool {
        self.sampled_at_or_above >= MIN_SAMPLED_AT_THRESHOLD
    }
}

/// Recall and precision of one seed's candidates, listed, where no truth is at hand: what a
/// scan with this seed finds, where the sample's figures are averages over hash seeds (on
/// short texts one seed's count of candidates can be several times their average).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RealisedRates {
    /// The listed candidates at or above t over all listed candidates: exact.
    pub precision: Option<f64>,
    /// The listed candidates at or above t over the corpus's pairs at or above t, whose count
    /// is estimated: the estimate and its 95 % interval (from the count's).
    pub recall: Option<(f64, (f64, f64))>,
}

/// [`RealisedRates`] of `candidates` listed, `at_or_above` of them at or above t, against an
/// estimate of the corpus's pairs at or above t with its 95 % interval. A listed pair at or
/// above t is one of the corpus's, so the count is never taken below `at_or_above`, and
/// recall is never above 1.
pub fn realised_rates(
    candidates: u64,
    at_or_above: u64,
    corpus_at_or_above: f64,
    interval: (f64, f64),
) -> RealisedRates {
    let found = at_or_above as f64;
    let share = |corpus: f64| {
        let corpus = corpus.max(found);
        if corpus > 0.0 { found / corpus } else { 1.0 }
    };
    RealisedRates {
        precision: (candidates > 0).then(|| found / candidates as f64),
        recall: (corpus_at_or_above > 0.0 || at_or_above > 0).then(|| {
            (
                share(corpus_at_or_above),
                (share(interval.1), share(interval.0)),
            )
        }),
    }
}

/// [`SampledIntervals`] of (b, r) at `threshold` over the sample `rows` of (similarity,
/// weight); `None` for an empty sample.
pub fn sampled_intervals(
    rows: &[(f64, f64)],
    bands: usize,
    r: usize,
    threshold: f64,
) -> Option<SampledIntervals> {
    use crate::util::stats::{Z_95, kish_effective_size, wilson_interval_at};
    let total: f64 = rows.iter().map(|x| x.1).sum();
    if rows.is_empty() || total <= 0.0 {
        return None;
    }
    let n_all = kish_effective_size(rows.iter().map(|x| x.1));
    let scaled = |mean: f64, n: f64| {
        let (lo, hi) = wilson_interval_at(mean, n, Z_95);
        (lo * total, hi * total)
    };
    let p = |s: f64| candidate_probability(s, bands, r);
    let above: Vec<(f64, f64)> = rows.iter().copied().filter(|x| x.0 >= threshold).collect();
    let weight_above: f64 = above.iter().map(|x| x.1).sum();
    let mass: f64 = rows.iter().map(|&(s, w)| w * p(s)).sum();
    let mass_above: f64 = above.iter().map(|&(s, w)| w * p(s)).sum();
    let measurable = above.len() >= MIN_SAMPLED_AT_THRESHOLD;
    Some(SampledIntervals {
        sampled_pairs: rows.len(),
        sampled_at_or_above: above.len(),
        expected_candidates: scaled(mass / total, n_all),
        pairs_at_or_above: scaled(weight_above / total, n_all),
        expected_recall: (measurable && weight_above > 0.0).then(|| {
            wilson_interval_at(
                mass_above / weight_above,
                kish_effective_size(above.iter().map(|x| x.1)),
                Z_95,
            )
        }),
        expected_precision: (measurable && mass > 0.0).then(|| {
            wilson_interval_at(
                mass_above / mass,
                kish_effective_size(rows.iter().map(|&(s, w)| w * p(s))),
                Z_95,
            )
        }),
    })
}

/// The intervals a sample of pairs gives banding (b, r) at a fixed threshold: how the budget
/// search reads a uniform ([`sampled_intervals`]) or a stratified sample alike.
pub type SampleIntervals<'a> = dyn Fn(usize, usize) -> Option<SampledIntervals> + Sync + 'a;

/// For tools that remove every candidate: the banding with the highest P(t) whose removal
/// probability at `bound.similarity` is at most `bound.probability`; ties go to fewer hashes.
/// `None` when no b·r ≤ K keeps the bound.
pub fn best_recall_with_removal_bound(
    num_perm: usize,
    threshold: f64,
    bound: ProbabilityBound,
) -> Option<(usize, usize)> {
    best_recall_with_removal_bound_among(num_perm, threshold, bound, &any_banding)
}

/// [`best_recall_with_removal_bound`] among the bandings `allowed` keeps.
pub fn best_recall_with_removal_bound_among(
    num_perm: usize,
    threshold: f64,
    bound: ProbabilityBound,
    allowed: &BandingFilter<'_>,
) -> Option<(usize, usize)> {
    bandings(num_perm)
        .filter(|&(b, r)| {
            allowed(b, r) && candidate_probability(bound.similarity, b, r) <= bound.probability
        })
        .map(|(b, r)| (b, r, candidate_probability(threshold, b, r)))
        .max_by(|x, y| x.2.total_cmp(&y.2).then((y.0 * y.1).cmp(&(x.0 * x.1))))
        .map(|(b, r, _)| (b, r))
}

/// How close to the best expected recall (or P(t)) a banding within a budget must come to
/// count as the best, in percentage points. Among those, the budget criterion takes the
/// fewest candidates. Maximizing recall alone took 25 × 5 at t = 0.9 on a new user's corpus,
/// 465,747 expected candidates for 99.9993 %, where 11 × 10 reached 99.993 % with 67,457: seven
/// times the work for two pairs in 27,683. A hundredth of a point is about what one seed's own
/// recall varies by there (binomially 0.006 points at 99.99 % of 27,683 pairs, more where
/// pairs share documents), so nothing a user could tell apart is given up.
pub const BUDGET_RECALL_TIE_POINTS: f64 = 0.01;

/// The budget criterion's pick among `(rank, candidates, b, r)` of the bandings within the
/// budget: the fewest candidates among those ranked within [`BUDGET_RECALL_TIE_POINTS`] of the
/// best, then the higher rank, then fewer hashes.
pub(crate) fn fewest_near_the_best<T>(
    within_budget: impl IntoIterator<Item = (f64, f64, usize, usize, T)>,
) -> Option<(usize, usize, T)> {
    let all: Vec<_> = within_budget.into_iter().collect();
    let best = all.iter().map(|x| x.0).max_by(f64::total_cmp)?;
    all.into_iter()
        .filter(|x| x.0 >= best - BUDGET_RECALL_TIE_POINTS / 100.0)
        .min_by(|x, y| {
            x.1.total_cmp(&y.1)
                .then(y.0.total_cmp(&x.0))
                .then((x.2 * x.3).cmp(&(y.2 * y.3)))
        })
        .map(|(_, _, b, r, t)| (b, r, t))
}

/// The banding with the fewest expected candidates among those whose expected recall at t is
/// within [`BUDGET_RECALL_TIE_POINTS`] of the highest any banding reaches with its expected
/// candidates within `budget`; ties go to the higher recall, then fewer hashes. `None` when no
/// pair reaches t or no banding fits the budget.
///
/// With `sample` (the intervals of each banding (b, r) at t from the sample of pairs the
/// distribution was made from, e.g. [`sampled_intervals`]), the budget holds for the top of
/// each banding's 95 % interval of expected candidates, not only for the estimate.
pub fn best_recall_within_budget(
    distribution: &SimilarityDistribution,
    num_perm: usize,
    threshold: f64,
    budget: f64,
    sample: Option<&SampleIntervals<'_>>,
) -> Option<(usize, usize, CorpusEstimate)> {
    best_recall_within_budget_among(
        distribution,
        num_perm,
        threshold,
        budget,
        sample,
        &any_banding,
    )
}

/// [`best_recall_within_budget`] among the bandings `allowed` keeps.
pub fn best_recall_within_budget_among(
    distribution: &SimilarityDistribution,
    num_perm: usize,
    threshold: f64,
    budget: f64,
    sample: Option<&SampleIntervals<'_>>,
    allowed: &BandingFilter<'_>,
) -> Option<(usize, usize, CorpusEstimate)> {
    let all: Vec<(usize, usize)> = bandings(num_perm).filter(|&(b, r)| allowed(b, r)).collect();
    let scored: Vec<(usize, usize, CorpusEstimate, f64)> = all
        .par_iter()
        .map(|&(b, r)| {
            let estimate = corpus_estimate(distribution, b, r, threshold);
            let top = sample
                .and_then(|intervals| intervals(b, r))
                .map_or(estimate.expected_candidates, |s| s.expected_candidates.1);
            (b, r, estimate, top)
        })
        .collect();
    fewest_near_the_best(
        scored
            .into_iter()
            .filter(|(_, _, _, top)| *top <= budget)
            .filter_map(|(b, r, e, _)| {
                let recall = e.expected_recall?;
                Some((recall, e.expected_candidates, b, r, e))
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Debian case of a new user's trial: 480,050 candidates listed at 20 × 5, 45,751 of
    /// them at or above 0.8, against ≈47,063 (46,043–52,215) pairs in the corpus: precision
    /// 9.53 % exactly (the sample's average over seeds said ≈10.9 %), recall ≈97.2 %; a count
    /// estimated below what is listed is taken as the listed count.
    #[test]
    fn realised_rates_divide_the_listed_pairs() {
        let r = realised_rates(480_050, 45_751, 47_063.0, (46_043.0, 52_215.0));
        assert_eq!(r.precision, Some(45_751.0 / 480_050.0));
        let (recall, (low, high)) = r.recall.unwrap();
        assert_eq!(recall, 45_751.0 / 47_063.0);
        assert_eq!((low, high), (45_751.0 / 52_215.0, 45_751.0 / 46_043.0));
        let below = realised_rates(100, 60, 50.0, (40.0, 70.0));
        assert_eq!(below.recall, Some((1.0, (60.0 / 70.0, 1.0))));
        let none = realised_rates(0, 0, 0.0, (0.0, 0.0));
        assert_eq!((none.precision, none.recall), (None, None));
    }

    /// The trial's case at t = 0.9: the best recall within the budget, 25 × 5, buys 0.006
    /// points over 11 × 10 with seven times its candidates; 9 × 14, 0.09 points down, is
    /// farther from the best than the tie allows.
    #[test]
    fn the_budget_takes_the_fewest_candidates_near_the_best() {
        let rows = [
            (0.999_993, 465_747.0, 25, 5, 'a'),
            (0.999_93, 67_457.0, 10, 12, 'b'),
            (0.999_93, 67_457.0, 11, 10, 'c'),
            (0.999_06, 41_914.0, 9, 14, 'd'),
        ];
        // Equal candidates and recall: fewer hashes.
        assert_eq!(fewest_near_the_best(rows), Some((11, 10, 'c')));
        // Far from the best, fewer candidates do not count.
        let apart = [(0.9, 100.0, 20, 5, ()), (0.8, 10.0, 9, 13, ())];
        assert_eq!(fewest_near_the_best(apart), Some((20, 5, ())));
        let none: [(f64, f64, usize, usize, ()); 0] = [];
        assert_eq!(fewest_near_the_best(none), None);
    }

    #[test]
    fn corpus_estimate_by_hand() {
        // Two pairs at 0.9, one at 0.2; 1 band × 1 row makes P(s) = s.
        let d = SimilarityDistribution::from_similarities(&[0.9, 0.2, 0.9]);
        let e = corpus_estimate(&d, 1, 1, 0.5);
        assert!((e.expected_candidates - 2.0).abs() < 1e-12);
        assert!((e.expected_recall.unwrap() - 0.9).abs() < 1e-12);
        assert!((e.expected_precision.unwrap() - 0.9).abs() < 1e-12);
        assert_eq!(d.points().len(), 2);
    }
}
