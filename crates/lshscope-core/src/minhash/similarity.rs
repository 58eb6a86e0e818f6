//! Exact set similarity and string metrics for one pair.

/// |A ∩ B| for two sorted, de-duplicated slices.
///
/// Block merge: compare a block of 8 values of A with a block of 8 of B all-against-all
/// (64 compares that vectorize), then advance the block(s) with the smaller last value. A
/// plain merge is bound by its loop-carried chain load → compare → advance, one element per
/// trip; blocks move up to 16 elements per trip. Every match is counted once: a block is only
/// left behind once no later block of the other set can hold its values (the scheme of
/// Schlegel, Willhalm & Lehner 2011 and Lemire, Boytsov & Kurz 2016, in portable code that
/// the compiler vectorizes; AVX-512 or AVX2 are used when the CPU has them).
#[inline]
pub fn intersection_size(a: &[u64], b: &[u64]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU supports the features this function was compiled for.
            return unsafe { intersection_size_avx512(a, b) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { intersection_size_avx2(a, b) };
        }
    }
    intersection_size_blocks(a, b)
}

const ISECT_BLOCK: usize = 8;

#[inline(always)]
fn intersection_size_blocks(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut count) = (0usize, 0usize, 0usize);
    while i + ISECT_BLOCK <= a.len() && j + ISECT_BLOCK <= b.len() {
        let ab: &[u64; ISECT_BLOCK] = a[i..i + ISECT_BLOCK].try_into().unwrap();
        let bb: &[u64; ISECT_BLOCK] = b[j..j + ISECT_BLOCK].try_into().unwrap();
        let mut matches = 0u32;
        for x in ab {
            for y in bb {
                matches += (x == y) as u32;
            }
        }
        count += matches as usize;
        let (amax, bmax) = (ab[ISECT_BLOCK - 1], bb[ISECT_BLOCK - 1]);
        i += ((amax <= bmax) as usize) * ISECT_BLOCK;
        j += ((bmax <= amax) as usize) * ISECT_BLOCK;
    }
    count + intersection_size_merge(&a[i..], &b[j..])
}

/// AVX-512 block merge: one 8-lane load per block, and B's block compared with each of A's 8
/// values broadcast; the OR of the 8 match masks has one bit per matched B value (values in a
/// set are distinct, so each B value matches at most one A value).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
unsafe fn intersection_size_avx512(a: &[u64], b: &[u64]) -> usize {
    use std::arch::x86_64::*;
    let (mut i, mut j, mut count) = (0usize, 0usize, 0usize);
    while i + ISECT_BLOCK <= a.len() && j + ISECT_BLOCK <= b.len() {
        // SAFETY: i + 8 <= a.len() and j + 8 <= b.len() were checked above.
        let (vb, ap) = unsafe {
            (
                _mm512_loadu_si512(b.as_ptr().add(j).cast()),
                a.as_ptr().add(i),
            )
        };
        let mut mask: __mmask8 = 0;
        for x in 0..ISECT_BLOCK {
            // SAFETY: x < 8 and i + 8 <= a.len().
            let va = _mm512_set1_epi64(unsafe { *ap.add(x) } as i64);
            mask |= _mm512_cmpeq_epi64_mask(va, vb);
        }
        count += mask.count_ones() as usize;
        let (amax, bmax) = (a[i + ISECT_BLOCK - 1], b[j + ISECT_BLOCK - 1]);
        i += ((amax <= bmax) as usize) * ISECT_BLOCK;
        j += ((bmax <= amax) as usize) * ISECT_BLOCK;
    }
    count + intersection_size_merge(&a[i..], &b[j..])
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn intersection_size_avx2(a: &[u64], b: &[u64]) -> usize {
    intersection_size_blocks(a, b)
}

/// Branchless element-by-element merge (reference, and the tail of the block merge).
#[inline]
pub fn intersection_size_merge(a: &[u64], b: &[u64]) -> usize {
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
    if a == b {
        // Identical sets (copies of one text are the bulk of the candidates on template-heavy
        // corpora): one memcmp instead of a merge; sets of different sizes fail at once.
        return if a.is_empty() { 0.0 } else { 1.0 };
    }
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

/// Hints the CPU to load the cache line at `p`. A prefetch never faults, whatever the address.
#[inline(always)]
pub fn prefetch_line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch does not access memory architecturally.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Hints the CPU to start loading the first cache lines of `set`: verification jumps between
/// sets at random, and the hardware prefetcher only takes over once a stream has started.
#[inline(always)]
pub fn prefetch_set(set: &[u64]) {
    // Verification is bound by memory latency unless the next sets are already on their way,
    // but only their first 16 lines (128 values): the hardware prefetcher follows the stream
    // from there, and asking for a whole 400-shingle set (50 lines) two pairs ahead filled the
    // core's miss queue and stalled it (5.1 M random candidates of 500 k documents, idle,
    // alternating runs: one thread 0.65–0.76 → 0.75–0.80 M pairs/s, two 1.20–1.40 →
    // 1.43–1.56; 8 or 24 lines were no better than 16).
    for l in 0..set.len().div_ceil(8).min(16) {
        prefetch_line(set.as_ptr().wrapping_add(l * 8));
    }
}

/// Like [`prefetch_set`], for a signature row (K = 128 is 8 cache lines).
#[inline(always)]
pub fn prefetch_signature(row: &[u32]) {
    for l in 0..row.len().div_ceil(16).min(16) {
        prefetch_line(row.as_ptr().wrapping_add(l * 16));
    }
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
    /// 1 − (Levenshtein distance / length of the longer text), in [0, 1], on characters.
    pub normalized_levenshtein: f64,
    /// Jaro–Winkler similarity in [0, 1], which favours a shared beginning.
    pub jaro_winkler: f64,
    /// Sørensen–Dice coefficient of the two texts' character bigrams (whitespace left out),
    /// in [0, 1].
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
    fn block_intersection_matches_merge() {
        let mut rng = crate::util::rng::SplitMix64::new(5);
        let mut next = || rng.next_u64() % 3000;
        for (na, nb) in [
            (0, 0),
            (3, 100),
            (8, 8),
            (9, 17),
            (200, 180),
            (400, 400),
            (1000, 20),
        ] {
            let mut a: Vec<u64> = (0..na).map(|_| next()).collect();
            let mut b: Vec<u64> = (0..nb).map(|_| next()).collect();
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            b.dedup();
            let expected = intersection(&a, &b).len();
            assert_eq!(intersection_size(&a, &b), expected);
            assert_eq!(intersection_size_blocks(&a, &b), expected);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: feature checked.
                assert_eq!(unsafe { intersection_size_avx512(&a, &b) }, expected);
            }
            assert_eq!(intersection_size_merge(&a, &b), expected);
        }
    }

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
