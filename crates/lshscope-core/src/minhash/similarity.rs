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

/// Values of a block merge's step.
pub(crate) const ISECT_BLOCK: usize = 8;

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

/// AVX-512 block merge: [`block_matches`] per step, then [`tail_matches`] for the ends.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
unsafe fn intersection_size_avx512(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut count) = (0usize, 0usize, 0usize);
    while i + ISECT_BLOCK <= a.len() && j + ISECT_BLOCK <= b.len() {
        // SAFETY: i + 8 <= a.len() and j + 8 <= b.len() were checked above.
        count += unsafe { block_matches(a, b, i, j) };
        let (amax, bmax) = (a[i + ISECT_BLOCK - 1], b[j + ISECT_BLOCK - 1]);
        i += ((amax <= bmax) as usize) * ISECT_BLOCK;
        j += ((bmax <= amax) as usize) * ISECT_BLOCK;
    }
    // SAFETY: the CPU has the features (this function's own).
    count + unsafe { tail_matches(&a[i..], &b[j..]) }
}

/// Matches between `a[i..i + 8]` and `b[j..j + 8]`: B's block compared with each of A's 8
/// values broadcast; the OR of the 8 match masks has one bit per matched B value (values in a
/// set are distinct, so each B value matches at most one A value).
///
/// # Safety
/// `i + 8 <= a.len()`, `j + 8 <= b.len()`, and the CPU has AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
#[inline]
pub(crate) unsafe fn block_matches(a: &[u64], b: &[u64], i: usize, j: usize) -> usize {
    use std::arch::x86_64::*;
    debug_assert!(i + ISECT_BLOCK <= a.len() && j + ISECT_BLOCK <= b.len());
    // SAFETY: the caller keeps both blocks in bounds.
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
    mask.count_ones() as usize
}

/// |A ∩ B| for the ends a block merge leaves, where one side has fewer than 8 values: that
/// side's values are held in one register (each broadcast once), and the other side's values
/// up to the short side's largest are compared 8 at a time, the last block masked. The
/// element-by-element merge it replaces is a chain of dependent steps, about as long as both
/// ends together, which on short texts (sets of ~50 values, ~6 blocks) was a large part of
/// each pair; here the steps are independent. Either side may be empty; if both have 8 values
/// or more (not the case after a block merge) the plain merge counts them.
///
/// # Safety
/// The CPU has AVX-512 F, DQ, BW and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
#[inline]
pub(crate) unsafe fn tail_matches(a: &[u64], b: &[u64]) -> usize {
    use std::arch::x86_64::*;
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let Some(&last) = short.last() else {
        return 0;
    };
    if short.len() >= ISECT_BLOCK {
        return intersection_size_merge(a, b);
    }
    // Lanes past the short side's end hold its last value again: a value of the long side
    // matching it sets its one bit either way, so the count is unchanged.
    // SAFETY: the masked load reads short's values only (fewer than 8, in bounds).
    let held = unsafe {
        _mm512_mask_loadu_epi64(
            _mm512_set1_epi64(last as i64),
            (1u8 << short.len()) - 1,
            short.as_ptr().cast(),
        )
    };
    let broadcast: [__m512i; ISECT_BLOCK] =
        std::array::from_fn(|x| _mm512_permutexvar_epi64(_mm512_set1_epi64(x as i64), held));
    let mut count = 0;
    let mut p = 0;
    // Values of the long side above the short side's last cannot match.
    while p < long.len() && long[p] <= last {
        let left = (long.len() - p).min(ISECT_BLOCK);
        let valid = (u16::MAX >> (16 - left)) as __mmask8;
        // SAFETY: the masked load reads long[p..p + left], in bounds.
        let block = unsafe { _mm512_maskz_loadu_epi64(valid, long.as_ptr().add(p).cast()) };
        let mut mask: __mmask8 = 0;
        for value in &broadcast {
            mask |= _mm512_mask_cmpeq_epi64_mask(valid, *value, block);
        }
        count += mask.count_ones() as usize;
        p += ISECT_BLOCK;
    }
    count
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
    fn tail_matches_counts_the_ends_exactly() {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
        {
            // Values from a small range, so the ends overlap often; 0 and u64::MAX are drawn
            // too (the masked lanes hold 0 or the short side's last value).
            let mut rng = crate::util::rng::SplitMix64::new(9);
            let mut draw = |n: usize, range: u64| -> Vec<u64> {
                let mut v: Vec<u64> = (0..n)
                    .map(|_| match rng.next_u64() % 10 {
                        0 => 0,
                        1 => u64::MAX,
                        _ => rng.next_u64() % range,
                    })
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            for short_len in 0..=8 {
                for long_len in [0, 1, 5, 7, 8, 9, 15, 16, 17, 40, 100] {
                    for range in [12, 60, 1000] {
                        let (a, b) = (draw(short_len, range), draw(long_len, range));
                        let expected = intersection_size_merge(&a, &b);
                        // SAFETY: features checked above.
                        assert_eq!(unsafe { tail_matches(&a, &b) }, expected, "{a:?} {b:?}");
                        assert_eq!(unsafe { tail_matches(&b, &a) }, expected, "{b:?} {a:?}");
                    }
                }
            }
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
