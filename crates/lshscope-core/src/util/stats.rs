//! Interval arithmetic shared by every estimate the project shows: proportions (Wilson),
//! effective sample sizes of weighted samples (Kish), Student's t for estimated variances, and
//! intervals for positive totals that never run below zero.

/// z for a two-sided 95 % interval: Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// `predicted` lies outside [lo, hi], with a hair of slack so that a prediction of 1 − 1e-17
/// against an interval ending at 1 is not flagged by rounding: the one test of "the S-curve's
/// prediction departs from the measurement" (truth bins, families' bins).
pub fn is_outside(predicted: f64, lo: f64, hi: f64) -> bool {
    predicted < lo - 1e-12 || predicted > hi + 1e-12
}

/// The Wilson score interval for a binomial proportion with `successes` out of `n` trials
/// (E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
/// JASA 22:209–212, 1927; recommended over the Wald interval by Brown, Cai & DasGupta,
/// Statistical Science 16(2), 2001). `(0, 1)` when n = 0.
///
/// It is exactly the set of p that a two-sided score test at level z does not reject, so
/// "the S-curve's prediction lies outside the interval of the measurement" is the same
/// statement as "the measurement lies outside the binomial acceptance region of the
/// prediction".
pub fn wilson_interval(successes: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let p = successes as f64 / n as f64;
    let (lo, hi) = wilson_interval_at(p, n as f64, z);
    // The exact endpoints at p = 0 and p = 1 are 0 and 1; rounding must not move them.
    (
        if successes == 0 { 0.0 } else { lo },
        if successes == n { 1.0 } else { hi },
    )
}

/// The Wilson score interval for a proportion `p` observed over `n` trials, where n may be an
/// effective size (fractional: [`kish_effective_size`], or n over a design effect); `(0, 1)`
/// when n is 0. A mean of values in [0, 1] has variance at most p(1 − p)/n, so the interval
/// also serves, conservatively, for such means.
pub fn wilson_interval_at(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let lo = if p <= 0.0 { 0.0 } else { center - half };
    let hi = if p >= 1.0 { 1.0 } else { center + half };
    (lo.max(0.0), hi.min(1.0))
}

/// Kish's effective sample size of a weighted sample, (Σw)² / Σw² (L. Kish, Survey Sampling,
/// 1965): the number of equally weighted draws that estimate a mean as precisely. Equal
/// weights give the sample size itself.
pub fn kish_effective_size(weights: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, sum_sq) = weights
        .into_iter()
        .fold((0.0, 0.0), |(s, q), w| (s + w, q + w * w));
    if sum_sq > 0.0 {
        sum * sum / sum_sq
    } else {
        0.0
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (df ≥ 1; 0 is read as 1):
/// tabulated to 30, then the Cornish–Fisher expansion around the normal quantile (Abramowitz
/// & Stegun 26.7.5, four terms), within 0.0002 of the exact values there.
pub fn student_t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if df <= 30 {
        return TABLE[df.max(1) - 1];
    }
    let (z, nu) = (Z_95, df as f64);
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * nu)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * nu * nu)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * nu.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * nu.powi(4))
}

/// A 95 % interval for a positive quantity estimated as `estimate` with standard error `se`,
/// taken on the log scale (the delta method: log of the estimate ± z · se / estimate): it is
/// never below zero, and wide relative errors widen it upwards, where a skewed estimate of a
/// count errs. `z` is the quantile (1.96, or Student's t for an estimated variance).
pub fn log_interval(estimate: f64, se: f64, z: f64) -> (f64, f64) {
    if estimate.is_nan() || estimate <= 0.0 {
        return (0.0, 0.0);
    }
    if !se.is_finite() {
        return (0.0, f64::INFINITY);
    }
    let spread = (z * se / estimate).exp();
    (estimate / spread, estimate * spread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computation() {
        // 8 of 10, z = 1.96: center (0.8 + 0.19208) / 1.38416, half-width per the formula.
        let (lo, hi) = wilson_interval(8, 10, 1.96);
        assert!((lo - 0.4902).abs() < 1e-4, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-4, "{hi}");
        assert_eq!(wilson_interval(0, 5, Z_95).0, 0.0);
        assert_eq!(wilson_interval(5, 5, Z_95).1, 1.0);
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
        let (a, b) = wilson_interval_at(0.8, 10.0, 1.96);
        assert!((a - lo).abs() < 1e-12 && (b - hi).abs() < 1e-12);
    }

    #[test]
    fn t_quantiles_match_the_table() {
        // t₀.₉₇₅ from the tables: ν = 1: 12.706, 16: 2.120, 40: 2.021, 60: 2.000, 120: 1.980.
        for (df, t) in [
            (1, 12.706),
            (16, 2.120),
            (40, 2.021),
            (60, 2.000),
            (120, 1.980),
        ] {
            assert!((student_t_975(df) - t).abs() < 1e-3, "df = {df}");
        }
        assert_eq!(student_t_975(0), student_t_975(1));
    }

    #[test]
    fn effective_sizes() {
        assert_eq!(kish_effective_size([3.0; 10]), 10.0);
        // One heavy weight dominates: about one draw's worth.
        assert!(kish_effective_size([100.0, 1.0, 1.0]) < 1.1);
        assert_eq!(kish_effective_size([]), 0.0);
    }

    #[test]
    fn log_intervals_stay_positive() {
        // 40.6 M ± 216.8 M (a standard error five times the estimate): the normal interval
        // runs far below zero, the log one does not.
        let (lo, hi) = log_interval(40.6e6, 216.8e6 / 1.96, Z_95);
        assert!(lo > 0.0 && lo < 40.6e6 && hi > 40.6e6, "{lo} {hi}");
        let (lo, hi) = log_interval(100.0, 10.0, Z_95);
        assert!(
            (lo * hi - 100.0f64.powi(2)).abs() < 1e-6,
            "symmetric on the log scale"
        );
        assert_eq!(log_interval(0.0, 1.0, Z_95), (0.0, 0.0));
    }
}
