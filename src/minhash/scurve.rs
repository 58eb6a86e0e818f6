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
