//! Exact set similarity and string metrics for one pair.

/// |A ∩ B| for two sorted, de-duplicated slices.
///
/// Branchless merge: each step advances one or both cursors by comparison results instead of
/// a branch the predictor cannot learn (roughly half the steps go each way on similar sets).
#[inline]
pub fn intersection_size(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut count) = (0usize, 0usize, 0usize);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        count += (x == y) as usize;
        i += (x <= y) as usize;
        j += (y <= x) as usize;
    }
    count
}

/// Exact Jaccard |A ∩ B| / |A ∪ B| of two sorted sets; 0 when both are empty (documents
/// without shingles are never similar to anything).
#[inline]
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let inter = intersection_size(a, b);
    let union = a.len() + b.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

/// The hashes two sorted sets share, in order.
pub fn intersection(a: &[u64], b: &[u64]) -> Vec<u64> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// Rows at which two signatures agree (vectorizes: a compare and a sum).
#[inline]
pub fn agreeing_rows(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).map(|(x, y)| (x == y) as usize).sum()
}

/// One standard deviation of the MinHash estimate around the true Jaccard J with K
/// permutations: the estimate is a mean of K Bernoulli(J) draws, so σ = √(J(1 − J)/K).
pub fn estimate_sigma(jaccard: f64, num_perm: usize) -> f64 {
    (jaccard * (1.0 - jaccard) / num_perm as f64).sqrt()
}

/// Edit-based similarities of two texts, to show how they differ from shingle Jaccard.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TextMetrics {
    pub normalized_levenshtein: f64,
    pub jaro_winkler: f64,
    pub sorensen_dice: f64,
}

/// strsim metrics of two (already normalized) texts. Levenshtein is quadratic, so texts are
/// cut to their first `limit` characters first; the pair viewer shows this limit.
pub fn text_metrics(a: &str, b: &str, limit: usize) -> TextMetrics {
    let cut = |s: &str| -> String { s.chars().take(limit).collect() };
    let (a, b) = (cut(a), cut(b));
    TextMetrics {
        normalized_levenshtein: strsim::normalized_levenshtein(&a, &b),
        jaro_winkler: strsim::jaro_winkler(&a, &b),
        sorensen_dice: strsim::sorensen_dice(&a, &b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaccard_basics() {
        assert_eq!(jaccard(&[1, 2, 3], &[2, 3, 4]), 0.5);
        assert_eq!(jaccard(&[], &[]), 0.0);
        assert_eq!(jaccard(&[1], &[]), 0.0);
        assert_eq!(jaccard(&[5, 9], &[5, 9]), 1.0);
        assert_eq!(intersection(&[1, 3, 5, 7], &[3, 4, 5]), vec![3, 5]);
        assert_eq!(agreeing_rows(&[1, 2, 3], &[1, 0, 3]), 2);
        assert!((estimate_sigma(0.5, 100) - 0.05).abs() < 1e-12);
        let m = text_metrics("kitten", "sitting", 1000);
        assert!((m.normalized_levenshtein - (1.0 - 3.0 / 7.0)).abs() < 1e-9);
    }
}
