//! Numeric tests of the S-curve math and the tuner against closed forms and against values
//! computed once, independently, with the real datasketch.

use lshscope_core::minhash::scurve::*;
use lshscope_core::minhash::tune::*;

/// Reference values from datasketch 2.0.0 (`pip install datasketch`), computed once on
/// 2026-11-22 by calling `datasketch.lsh._optimal_param(t, K, fp_w, fn_w)` for each threshold
/// below and pasting the printed tuples here. Thresholds 0.50, 0.55, …, 0.95.
const THRESHOLDS: [f64; 10] = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const DATASKETCH_128_EVEN: [(usize, usize); 10] = [
    (25, 5),
    (21, 6),
    (18, 7),
    (16, 8),
    (14, 9),
    (11, 11),
    (9, 13),
    (8, 16),
    (5, 25),
    (3, 42),
];
const DATASKETCH_128_FN_HEAVY: [(usize, usize); 10] = [
    (32, 4),
    (28, 4),
    (25, 5),
    (21, 6),
    (20, 6),
    (16, 8),
    (14, 9),
    (11, 11),
    (8, 16),
    (5, 25),
];
const DATASKETCH_256_EVEN: [(usize, usize); 10] = [
    (42, 6),
    (36, 7),
    (32, 8),
    (28, 9),
    (25, 10),
    (21, 12),
    (17, 15),
    (13, 19),
    (9, 28),
    (5, 51),
];
const DATASKETCH_256_FN_HEAVY: [(usize, usize); 10] = [
    (42, 4),
    (51, 5),
    (42, 6),
    (36, 7),
    (32, 8),
    (28, 9),
    (23, 11),
    (18, 14),
    (13, 19),
    (8, 32),
];

#[test]
fn datasketch_picks_match_datasketch() {
    type Picks = [(usize, usize); 10];
    let cases: [(usize, (f64, f64), &Picks); 4] = [
        (128, (0.5, 0.5), &DATASKETCH_128_EVEN),
        (128, (0.1, 0.9), &DATASKETCH_128_FN_HEAVY),
        (256, (0.5, 0.5), &DATASKETCH_256_EVEN),
        (256, (0.1, 0.9), &DATASKETCH_256_FN_HEAVY),
    ];
    for (k, (fp, fn_), expected) in cases {
        for (t, want) in THRESHOLDS.iter().zip(expected.iter()) {
            let got = datasketch_optimal_params(*t, k, fp, fn_);
            assert_eq!(got, *want, "K = {k}, weights ({fp}, {fn_}), t = {t}");
        }
    }
}

/// (t, b, r, ∫₀ᵗ P, ∫ₜ¹ (1 − P)) printed by datasketch 2.0.0's `_false_positive_probability`
/// and `_false_negative_probability` (scipy `quad`), computed once and pasted here.
const DATASKETCH_AREAS: [(f64, usize, usize, f64, f64); 6] = [
    (0.8, 20, 5, 0.2986553708126047, 5.205148129171737e-06),
    (0.5, 42, 3, 0.24454108442939965, 9.094282416165014e-05),
    (0.9, 5, 25, 0.011558312354277636, 0.025318546609254904),
    (0.3, 1, 1, 0.045000000000000005, 0.24499999999999997),
    (0.95, 128, 1, 0.9422480620155038, 0.0),
    (0.7, 1, 128, 0.0, 0.2922480620155039),
];

#[test]
fn areas_match_datasketch_to_1e_9() {
    for (t, b, r, fp, fn_) in DATASKETCH_AREAS {
        assert!(
            (false_positive_area(t, b, r) - fp).abs() < 1e-9,
            "fp {t} {b}×{r}"
        );
        assert!(
            (false_negative_area(t, b, r) - fn_).abs() < 1e-9,
            "fn {t} {b}×{r}"
        );
    }
}

#[test]
fn areas_match_closed_forms() {
    // b = 1: P(s) = s^r, so ∫₀ᵗ P = t^(r+1)/(r+1).
    for r in [1usize, 2, 7, 40, 128] {
        let t: f64 = 0.83;
        let exact = t.powi(r as i32 + 1) / (r as f64 + 1.0);
        assert!(
            (false_positive_area(t, 1, r) - exact).abs() < 1e-14,
            "r = {r}"
        );
    }
    // r = 1: 1 − P(s) = (1 − s)^b, so ∫ₜ¹ (1 − P) = (1 − t)^(b+1)/(b+1).
    for b in [1usize, 3, 50, 256] {
        let t: f64 = 0.12;
        let exact = (1.0 - t).powi(b as i32 + 1) / (b as f64 + 1.0);
        assert!(
            (false_negative_area(t, b, 1) - exact).abs() < 1e-14,
            "b = {b}"
        );
    }
    // Over [0, 1] the two areas add up to ∫₀¹ P = 1 − ∫₀¹ (1 − s^r)^b ds
    //   = 1 − B(1/r, b + 1)/r, and for r = 2, b = 2: ∫₀¹ (1 − s²)² = 8/15.
    let total = false_positive_area(1.0, 2, 2);
    assert!((total - 7.0 / 15.0).abs() < 1e-15);
    // A large banding, checked against composite Simpson on 200 000 panels.
    let (b, r, t) = (32usize, 8usize, 0.62);
    let n = 200_000;
    let h = t / n as f64;
    let mut simpson = candidate_probability(0.0, b, r) + candidate_probability(t, b, r);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        simpson += w * candidate_probability(i as f64 * h, b, r);
    }
    simpson *= h / 3.0;
    assert!((false_positive_area(t, b, r) - simpson).abs() < 1e-10);
}

#[test]
fn gauss_legendre_is_exact_for_its_degree() {
    let rule = GaussLegendre::exact_for_degree(300);
    // ∫₀¹ s^300 ds = 1/301 and ∫₋₁¹ x^2 = 2/3.
    assert!((rule.integrate(0.0, 1.0, |s| s.powi(300)) - 1.0 / 301.0).abs() < 1e-15);
    assert!((rule.integrate(-1.0, 1.0, |x| x * x) - 2.0 / 3.0).abs() < 1e-15);
    assert_eq!(GaussLegendre::new(1).integrate(0.0, 2.0, |x| 3.0 * x), 6.0);
}

#[test]
fn probability_inverse_and_steepest_point() {
    // P(0.5) for 42 × 3 = 1 − (7/8)^42.
    assert!((candidate_probability(0.5, 42, 3) - (1.0 - 0.875f64.powi(42))).abs() < 1e-15);
    for (b, r) in [(20, 5), (42, 3), (5, 25), (1, 1), (128, 1), (1, 128)] {
        for p in [0.01, 0.1, 0.5, 0.9, 0.99] {
            let s = similarity_at_probability(p, b, r);
            assert!((0.0..=1.0).contains(&s));
            assert!(
                (candidate_probability(s, b, r) - p).abs() < 1e-9,
                "{b}×{r} p={p}"
            );
        }
        if b > 1 && r > 1 {
            // (With b = 1 the curve s^r is steepest at the boundary s = 1.)
            // The steepest point is where the slope peaks: check against its neighbours.
            let s = steepest_point(b, r);
            let slope = candidate_probability_slope(s, b, r);
            assert!(slope >= candidate_probability_slope(s - 1e-4, b, r));
            assert!(slope >= candidate_probability_slope(s + 1e-4, b, r));
        }
    }
    // Slope against a central difference.
    let (s, h) = (0.6, 1e-6);
    let numeric =
        (candidate_probability(s + h, 16, 8) - candidate_probability(s - h, 16, 8)) / (2.0 * h);
    assert!((candidate_probability_slope(s, 16, 8) - numeric).abs() < 1e-6);
    assert!((miss_probability(0.9, 5, 25) - (1.0 - 0.9f64.powi(25)).powi(5)).abs() < 1e-15);
}

#[test]
fn constraint_search_reproduces_42_by_3() {
    let constraints = Constraints {
        reject: vec![ProbabilityBound {
            similarity: 0.05,
            probability: 0.006,
        }],
        accept: vec![ProbabilityBound {
            similarity: 0.5,
            probability: 0.996,
        }],
    };
    let found = constraint_search(128, &constraints);
    assert_eq!(found.first(), Some(&(42, 3)));
    let s = summarize(42, 3, Some(0.5));
    assert!((s.probability_at_threshold.unwrap() - 0.9963).abs() < 5e-5);
    assert!((candidate_probability(0.05, 42, 3) - 0.0052).abs() < 5e-5);
    // Every result satisfies the constraints and hashes never decrease down the ranking.
    for w in found.windows(2) {
        assert!(w[0].0 * w[0].1 <= w[1].0 * w[1].1);
    }
    assert!(
        found
            .iter()
            .all(|&(b, r)| constraints.satisfied_by(b, r) && b * r <= 128)
    );
    // Impossible constraints give nothing.
    let impossible = Constraints {
        reject: vec![ProbabilityBound {
            similarity: 0.79,
            probability: 0.01,
        }],
        accept: vec![ProbabilityBound {
            similarity: 0.8,
            probability: 0.99,
        }],
    };
    assert!(constraint_search(128, &impossible).is_empty());
}

#[test]
fn sharpest_curve_reaching_target() {
    let (b, r) = sharpest_with_probability_at(128, 0.8, 0.99).unwrap();
    assert!(b * r <= 128);
    assert!(candidate_probability(0.8, b, r) >= 0.99);
    // No other banding reaching P(0.8) ≥ 0.99 has a smaller false-positive area.
    let best = false_positive_area(0.8, b, r);
    for (b2, r2) in bandings(128) {
        if candidate_probability(0.8, b2, r2) >= 0.99 {
            assert!(false_positive_area(0.8, b2, r2) >= best - 1e-15);
        }
    }
    assert_eq!(sharpest_with_probability_at(4, 0.1, 0.99), None);
}

#[test]
fn budget_tuner_takes_the_fewest_candidates_near_the_best_recall_within_budget() {
    // 10 000 unrelated pairs near 0.2, 100 near-duplicates at 0.85.
    let mut values: Vec<f64> = (0..10_000)
        .map(|i| 0.1 + 0.2 * (i as f64 / 10_000.0))
        .collect();
    values.extend(std::iter::repeat_n(0.85, 100));
    let d = SimilarityDistribution::from_similarities(&values);
    let budget = 150.0;
    let (b, r, e) = best_recall_within_budget(&d, 128, 0.8, budget, None).unwrap();
    assert!(e.expected_candidates <= budget);
    let recall = e.expected_recall.unwrap();
    let tie = BUDGET_RECALL_TIE_POINTS / 100.0;
    let best = bandings(128)
        .map(|(b2, r2)| corpus_estimate(&d, b2, r2, 0.8))
        .filter(|other| other.expected_candidates <= budget)
        .map(|other| other.expected_recall.unwrap())
        .fold(0.0, f64::max);
    assert!(recall >= best - tie, "{b}×{r}: {recall} far below {best}");
    for (b2, r2) in bandings(128) {
        let other = corpus_estimate(&d, b2, r2, 0.8);
        if other.expected_candidates <= budget && other.expected_recall.unwrap() >= best - tie {
            assert!(
                other.expected_candidates >= e.expected_candidates,
                "{b2}×{r2} is as good with fewer candidates than {b}×{r}"
            );
        }
    }
    assert!(recall > 0.99);
    // A budget below every banding's expectation has no answer.
    assert!(best_recall_within_budget(&d, 128, 0.8, 1e-9, None).is_none());
    // Recall and precision by definition.
    let e = corpus_estimate(&d, 20, 5, 0.8);
    let p85 = candidate_probability(0.85, 20, 5);
    assert!((e.expected_recall.unwrap() - p85).abs() < 1e-12);
    assert!((e.expected_precision.unwrap() - 100.0 * p85 / e.expected_candidates).abs() < 1e-12);
    assert_eq!(e.pairs_at_or_above, 100.0);
}
