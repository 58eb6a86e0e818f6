//! S-curve math for b bands of r rows (Mining of Massive Datasets, Leskovec, Rajaraman &
//! Ullman, ch. 3.4). Closed forms only; no data needed.

/// Probability that a pair with Jaccard `s` becomes a candidate: P(s) = 1 − (1 − s^r)^b.
pub fn candidate_probability(s: f64, bands: usize, rows: usize) -> f64 {
    1.0 - (1.0 - s.powi(rows as i32)).powi(bands as i32)
}

/// The similarity at which P(s) = p: s = (1 − (1 − p)^(1/b))^(1/r) (inverse of the above).
pub fn similarity_at_probability(p: f64, bands: usize, rows: usize) -> f64 {
    (1.0 - (1.0 - p).powf(1.0 / bands as f64)).powf(1.0 / rows as f64)
}

/// The steepest point of the S-curve, where P''(s) = 0: s = ((r − 1)/(b·r − 1))^(1/r).
pub fn steepest_point(bands: usize, rows: usize) -> f64 {
    let (b, r) = (bands as f64, rows as f64);
    if bands * rows <= 1 {
        return 0.0;
    }
    ((r - 1.0) / (b * r - 1.0)).powf(1.0 / r)
}

/// The usual approximation of the threshold, (1/b)^(1/r).
pub fn approximate_threshold(bands: usize, rows: usize) -> f64 {
    (1.0 / bands as f64).powf(1.0 / rows as f64)
}

/// Probability that a pair with Jaccard `s` is *not* a candidate: (1 − s^r)^b. Computed
/// directly rather than as 1 − P(s), which would lose every digit where P(s) is close to 1.
pub fn miss_probability(s: f64, bands: usize, rows: usize) -> f64 {
    (1.0 - s.powi(rows as i32)).powi(bands as i32)
}

/// The slope of the S-curve: P'(s) = b·r·s^(r−1)·(1 − s^r)^(b−1).
pub fn candidate_probability_slope(s: f64, bands: usize, rows: usize) -> f64 {
    let (b, r) = (bands as f64, rows as f64);
    b * r * s.powi(rows as i32 - 1) * (1.0 - s.powi(rows as i32)).powi(bands as i32 - 1)
}

/// The slope at the steepest point: how sharply this (b, r) separates pairs around it.
pub fn steepest_slope(bands: usize, rows: usize) -> f64 {
    candidate_probability_slope(steepest_point(bands, rows), bands, rows)
}

/// An n-point Gauss–Legendre rule on [−1, 1]. It integrates every polynomial of degree
/// ≤ 2n − 1 exactly (Abramowitz & Stegun 25.4.29), and all its weights are positive, so the
/// only error left is rounding, with no cancellation between terms.
#[derive(Debug, Clone)]
pub struct GaussLegendre {
    nodes: Vec<f64>,
    weights: Vec<f64>,
}

impl GaussLegendre {
    /// The rule with n points: nodes are the roots of the Legendre polynomial P_n, found by
    /// Newton's method from the Tricomi initial guess cos(π(i − 1/4)/(n + 1/2)).
    pub fn new(points: usize) -> Self {
        let n = points.max(1);
        let mut nodes = vec![0.0; n];
        let mut weights = vec![0.0; n];
        for i in 0..n.div_ceil(2) {
            let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
            let mut derivative = 1.0;
            for _ in 0..100 {
                let (p, dp) = legendre_with_derivative(n, x);
                derivative = dp;
                let step = p / dp;
                x -= step;
                if step.abs() < 1e-16 {
                    let (_, dp) = legendre_with_derivative(n, x);
                    derivative = dp;
                    break;
                }
            }
            let w = 2.0 / ((1.0 - x * x) * derivative * derivative);
            nodes[i] = -x;
            nodes[n - 1 - i] = x;
            weights[i] = w;
            weights[n - 1 - i] = w;
        }
        GaussLegendre { nodes, weights }
    }

    /// The smallest rule that integrates polynomials of `degree` exactly.
    pub fn exact_for_degree(degree: usize) -> Self {
        Self::new(degree / 2 + 1)
    }

    /// Number of points.
    pub fn points(&self) -> usize {
        self.nodes.len()
    }

    /// ∫ₐᵇ f(x) dx.
    pub fn integrate(&self, a: f64, b: f64, f: impl Fn(f64) -> f64) -> f64 {
        let half = 0.5 * (b - a);
        let mid = 0.5 * (a + b);
        let sum: f64 = self
            .nodes
            .iter()
            .zip(&self.weights)
            .map(|(x, w)| w * f(mid + half * x))
            .sum();
        sum * half
    }
}

/// P_n(x) and P_n'(x) by the three-term recurrence (k+1)P_{k+1} = (2k+1)xP_k − kP_{k−1}.
fn legendre_with_derivative(n: usize, x: f64) -> (f64, f64) {
    let (mut p0, mut p1) = (1.0, x);
    for k in 1..n {
        let k = k as f64;
        let p2 = ((2.0 * k + 1.0) * x * p1 - k * p0) / (k + 1.0);
        p0 = p1;
        p1 = p2;
    }
    if n == 0 {
        return (1.0, 0.0);
    }
    // P_n'(x) = n (x P_n − P_{n−1}) / (x² − 1); nodes are never ±1.
    let dp = n as f64 * (x * p1 - p0) / (x * x - 1.0);
    (p1, dp)
}

/// datasketch's "false positive probability" for threshold t: ∫₀ᵗ P(s) ds, the unnormalised
/// area under the S-curve left of t (datasketch `lsh._false_positive_probability`).
///
/// P is a polynomial of degree b·r in s, so a Gauss–Legendre rule with b·r/2 + 1 points gives
/// the integral exactly up to rounding (the expansion by the binomial theorem is also exact
/// but sums terms of alternating sign as large as C(b, b/2), which cancel catastrophically).
pub fn false_positive_area(threshold: f64, bands: usize, rows: usize) -> f64 {
    AreaIntegrator::new(bands * rows).false_positive_area(threshold, bands, rows)
}

/// datasketch's "false negative probability" for threshold t: ∫ₜ¹ (1 − P(s)) ds
/// (datasketch `lsh._false_negative_probability`).
pub fn false_negative_area(threshold: f64, bands: usize, rows: usize) -> f64 {
    AreaIntegrator::new(bands * rows).false_negative_area(threshold, bands, rows)
}

/// Computes the areas for every (b, r) with b·r ≤ K from one quadrature rule, built once.
#[derive(Debug, Clone)]
pub struct AreaIntegrator {
    rule: GaussLegendre,
    max_degree: usize,
}

impl AreaIntegrator {
    /// A rule exact for every banding with b·r ≤ `max_hashes`.
    pub fn new(max_hashes: usize) -> Self {
        AreaIntegrator {
            rule: GaussLegendre::exact_for_degree(max_hashes.max(1)),
            max_degree: max_hashes.max(1),
        }
    }

    fn check(&self, bands: usize, rows: usize) {
        debug_assert!(
            bands * rows <= self.max_degree,
            "rule is not exact for b·r > {}",
            self.max_degree
        );
    }

    /// ∫₀ᵗ P(s) ds.
    pub fn false_positive_area(&self, threshold: f64, bands: usize, rows: usize) -> f64 {
        self.check(bands, rows);
        let t = threshold.clamp(0.0, 1.0);
        self.rule
            .integrate(0.0, t, |s| candidate_probability(s, bands, rows))
    }

    /// ∫ₜ¹ (1 − P(s)) ds.
    pub fn false_negative_area(&self, threshold: f64, bands: usize, rows: usize) -> f64 {
        self.check(bands, rows);
        let t = threshold.clamp(0.0, 1.0);
        self.rule
            .integrate(t, 1.0, |s| miss_probability(s, bands, rows))
    }
}

/// Every banding datasketch considers for K permutations, in its loop order: b = 1..=K, and
/// for each b, r = 1..=⌊K/b⌋.
pub fn bandings(num_perm: usize) -> impl Iterator<Item = (usize, usize)> {
    (1..=num_perm).flat_map(move |b| (1..=num_perm / b).map(move |r| (b, r)))
}

/// What datasketch's `MinHashLSH(threshold=t, num_perm=K, weights=(fp, fn))` picks: the (b, r)
/// minimising fp·∫₀ᵗP + fn·∫ₜ¹(1 − P) over [`bandings`], keeping the first of equal errors
/// (its comparison is a strict `<`), as in datasketch `lsh._optimal_param` (datasketch 2.0).
pub fn datasketch_optimal_params(
    threshold: f64,
    num_perm: usize,
    false_positive_weight: f64,
    false_negative_weight: f64,
) -> (usize, usize) {
    let areas = AreaIntegrator::new(num_perm);
    let mut min_error = f64::INFINITY;
    let mut best = (0, 0);
    for (b, r) in bandings(num_perm) {
        let fp = areas.false_positive_area(threshold, b, r);
        let fn_ = areas.false_negative_area(threshold, b, r);
        let error = fp * false_positive_weight + fn_ * false_negative_weight;
        if error < min_error {
            min_error = error;
            best = (b, r);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms() {
        // 20 × 5 at s = 0.8: 1 − (1 − 0.32768)^20.
        assert!((candidate_probability(0.8, 20, 5) - 0.999_643_5).abs() < 1e-6);
        let s = similarity_at_probability(0.5, 20, 5);
        assert!((candidate_probability(s, 20, 5) - 0.5).abs() < 1e-12);
        assert!((steepest_point(20, 5) - (4.0f64 / 99.0).powf(0.2)).abs() < 1e-12);
        assert!((approximate_threshold(20, 5) - 0.05f64.powf(0.2)).abs() < 1e-12);
    }
}
