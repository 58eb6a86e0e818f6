//! The permutation family.
//!
//! Each of the K "permutations" is a hash h(x) = ((a·x + b) mod 2^64) >> 32 applied to a 32-bit
//! fold x of the shingle's 64-bit hash, with a, b drawn uniformly from [0, 2^64). This is the
//! multiply-add-shift scheme of Dietzfelbinger (STACS 1996), shown strongly universal for
//! w-bit keys and l-bit values when the arithmetic is done mod 2^w̄ with w̄ ≥ w + l − 1
//! (Thorup, "High Speed Hashing for Integers and Strings", 2015, §3.3); here w = l = 32 and
//! w̄ = 64, so it is exactly u64 wrapping arithmetic. Folding to 32 bits first keeps the multiply
//! 32×64 bits, which vectorizes (two `vpmuludq` per lane on AVX2, `vpmullq` on AVX-512DQ);
//! the u128 `mod (2^61 − 1)` family does not, and is 3–15× slower.
//!
//! The statistical tests in `crates/lshscope-core/tests/engine/statistics.rs` check that the estimate this family gives is
//! unbiased and that candidate rates follow the S-curve.

use crate::util::rng::SplitMix64;

/// K hash functions of the family, drawn from a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashFamily {
    a: Vec<u64>,
    b: Vec<u64>,
}

/// The 32-bit input of the permutations for a 64-bit shingle hash.
#[inline]
pub fn fold32(h: u64) -> u32 {
    (h ^ (h >> 32)) as u32
}

impl HashFamily {
    /// `k` hash functions drawn from `seed`: the same seed gives the same functions on every
    /// platform.
    pub fn new(k: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed ^ 0x6c73_6873_636f_7065); // "lshscope"
        let a = (0..k).map(|_| rng.next_u64()).collect();
        let b = (0..k).map(|_| rng.next_u64()).collect();
        HashFamily { a, b }
    }

    /// K, the number of hash functions.
    pub fn len(&self) -> usize {
        self.a.len()
    }

    /// The first `k` functions of this family: the rows they give are the first `k` rows of
    /// this family's (the seed draws every a before every b, so `new(k, seed)` differs).
    pub fn first(&self, k: usize) -> HashFamily {
        let k = k.min(self.len());
        HashFamily {
            a: self.a[..k].to_vec(),
            b: self.b[..k].to_vec(),
        }
    }

    /// True for a family of no functions.
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// The value of permutation `k` for input `x` (scalar reference for tests and teaching).
    #[inline]
    pub fn value(&self, k: usize, x: u32) -> u32 {
        (self.a[k].wrapping_mul(x as u64).wrapping_add(self.b[k]) >> 32) as u32
    }

    /// Lowers `sig[k]` to `min(sig[k], h_k(x))` for every x in `xs`. `sig.len()` must equal K.
    /// Uses AVX-512 or AVX2 when the CPU has them (runtime detection), else portable code.
    pub fn update(&self, sig: &mut [u32], xs: &[u32]) {
        assert_eq!(sig.len(), self.len());
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq")
            {
                // SAFETY: the CPU supports the features this function was compiled for.
                return unsafe { update_avx512(&self.a, &self.b, sig, xs) };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: as above.
                return unsafe { update_avx2(&self.a, &self.b, sig, xs) };
            }
        }
        update_portable(&self.a, &self.b, sig, xs)
    }

    /// Lowers `sig[k]` to `min(sig[k], h_k(fold32(h)))` for every 64-bit shingle hash h in
    /// `hashes`: [`HashFamily::update`] on the folded values, without a pass that writes them
    /// out where the AVX-512 kernel can fold each hash as it reads it. `scratch` holds the
    /// folded values on the other paths.
    pub fn update_hashes(&self, sig: &mut [u32], hashes: &[u64], scratch: &mut Vec<u32>) {
        assert_eq!(sig.len(), self.len());
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq")
            {
                // SAFETY: the CPU supports the features this function was compiled for.
                return unsafe { update_avx512(&self.a, &self.b, sig, Folded(hashes)) };
            }
        }
        scratch.clear();
        scratch.extend(hashes.iter().map(|&h| fold32(h)));
        self.update(sig, scratch);
    }

    /// Scalar, obviously-correct version of [`HashFamily::update`].
    pub fn update_scalar(&self, sig: &mut [u32], xs: &[u32]) {
        for &x in xs {
            for (k, s) in sig.iter_mut().enumerate() {
                *s = (*s).min(self.value(k, x));
            }
        }
    }
}

/// The inputs of the AVX-512 kernel: 32-bit values as they are, or 64-bit shingle hashes
/// folded with [`fold32`] as they are read.
trait KernelInput: Copy {
    fn len(self) -> usize;
    /// Input `i` as the u32 the permutations take; `i < self.len()`.
    fn get(self, i: usize) -> u32;
}

impl KernelInput for &[u32] {
    #[inline(always)]
    fn len(self) -> usize {
        <[u32]>::len(self)
    }
    #[inline(always)]
    fn get(self, i: usize) -> u32 {
        self[i]
    }
}

/// Shingle hashes, folded to the permutations' input on the fly.
#[derive(Clone, Copy)]
struct Folded<'a>(&'a [u64]);

impl KernelInput for Folded<'_> {
    #[inline(always)]
    fn len(self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn get(self, i: usize) -> u32 {
        fold32(self.0[i])
    }
}

/// Lanes handled together: the signature block stays in registers across all shingles, and
/// the shingle list (a few KB) is re-read from L1 for each block.
const BLOCK: usize = 16;

#[inline(always)]
fn update_blocks(a: &[u64], b: &[u64], sig: &mut [u32], xs: &[u32]) {
    let mut sig_blocks = sig.chunks_exact_mut(BLOCK);
    let mut a_blocks = a.chunks_exact(BLOCK);
    let mut b_blocks = b.chunks_exact(BLOCK);
    for ((s, a), b) in (&mut sig_blocks).zip(&mut a_blocks).zip(&mut b_blocks) {
        let a: &[u64; BLOCK] = a.try_into().unwrap();
        let b: &[u64; BLOCK] = b.try_into().unwrap();
        let mut acc: [u32; BLOCK] = s.try_into().unwrap();
        for &x in xs {
            let x = x as u64;
            for j in 0..BLOCK {
                let v = (a[j].wrapping_mul(x).wrapping_add(b[j]) >> 32) as u32;
                acc[j] = acc[j].min(v);
            }
        }
        s.copy_from_slice(&acc);
    }
    // K not a multiple of BLOCK: the tail, plainly.
    let (s, a, b) = (
        sig_blocks.into_remainder(),
        a_blocks.remainder(),
        b_blocks.remainder(),
    );
    for &x in xs {
        for j in 0..s.len() {
            s[j] = s[j].min((a[j].wrapping_mul(x as u64).wrapping_add(b[j]) >> 32) as u32);
        }
    }
}

fn update_portable(a: &[u64], b: &[u64], sig: &mut [u32], xs: &[u32]) {
    update_blocks(a, b, sig, xs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(a: &[u64], b: &[u64], sig: &mut [u32], xs: &[u32]) {
    update_blocks(a, b, sig, xs)
}

/// AVX-512 kernel, written with intrinsics: left to itself the compiler vectorized
/// `update_blocks` across shingles instead of lanes and spilled most of its registers.
///
/// Two facts make it three instructions per 8 lanes and shingle (`vpmullq`, `vpaddq`,
/// `vpminuq`): the minimum of the full 64-bit values `a·x + b` has the minimum upper half, so
/// the `>> 32` is done once per lane at the end instead of once per shingle; and a block of 64
/// lanes keeps its `a`, `b` and running minima in 24 of the 32 vector registers, so the
/// shingle list is read once per block and nothing else touches memory.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn update_avx512(a: &[u64], b: &[u64], sig: &mut [u32], xs: impl KernelInput) {
    let k = sig.len();
    assert!(a.len() == k && b.len() == k);
    let mut lane = 0;
    while lane + 64 <= k {
        // SAFETY: lanes lane..lane + 64 are in bounds of a, b and sig (checked above).
        unsafe { update_avx512_block::<8>(a, b, sig, lane, xs) };
        lane += 64;
    }
    while lane + 8 <= k {
        // SAFETY: as above, for 8 lanes.
        unsafe { update_avx512_block::<1>(a, b, sig, lane, xs) };
        lane += 8;
    }
    // Fewer than 8 lanes left: plain code.
    for i in 0..xs.len() {
        let x = xs.get(i);
        for j in lane..k {
            sig[j] = sig[j].min((a[j].wrapping_mul(x as u64).wrapping_add(b[j]) >> 32) as u32);
        }
    }
}

/// Lanes `lane..lane + 8 * R` of [`update_avx512`]; the caller checks they are in bounds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
#[inline]
unsafe fn update_avx512_block<const R: usize>(
    a: &[u64],
    b: &[u64],
    sig: &mut [u32],
    lane: usize,
    xs: impl KernelInput,
) {
    use std::arch::x86_64::*;
    debug_assert!(lane + 8 * R <= sig.len() && lane + 8 * R <= a.len() && lane + 8 * R <= b.len());
    let mut va = [_mm512_setzero_si512(); R];
    let mut vb = [_mm512_setzero_si512(); R];
    let mut acc = [_mm512_setzero_si512(); R];
    let low_ones = _mm512_set1_epi64(0xffff_ffff);
    for r in 0..R {
        let at = lane + 8 * r;
        // SAFETY: at..at + 8 is in bounds (the caller's contract); unaligned loads.
        unsafe {
            va[r] = _mm512_loadu_si512(a.as_ptr().add(at).cast());
            vb[r] = _mm512_loadu_si512(b.as_ptr().add(at).cast());
            // The running minimum as a 64-bit value whose upper half is the signature entry
            // and whose lower half is all ones, so min() keeps the entry when it is smaller.
            let s = _mm512_cvtepu32_epi64(_mm256_loadu_si256(sig.as_ptr().add(at).cast()));
            acc[r] = _mm512_or_si512(_mm512_slli_epi64::<32>(s), low_ones);
        }
    }
    for i in 0..xs.len() {
        let vx = _mm512_set1_epi64(xs.get(i) as i64);
        for r in 0..R {
            let v = _mm512_add_epi64(_mm512_mullo_epi64(va[r], vx), vb[r]);
            acc[r] = _mm512_min_epu64(acc[r], v);
        }
    }
    for (r, acc) in acc.iter().enumerate() {
        let at = lane + 8 * r;
        let top = _mm512_cvtepi64_epi32(_mm512_srli_epi64::<32>(*acc));
        // SAFETY: at..at + 8 is in bounds of sig.
        unsafe { _mm256_storeu_si256(sig.as_mut_ptr().add(at).cast(), top) };
    }
}

/// The MinHash signature of one shingle-hash set (sorted and distinct) under `family`, into
/// `row` (K values); `folded` is scratch space reused between calls. An empty set gives all
/// `u32::MAX`. The one definition of a classic signature: the classic [`super::Sketcher`]
/// (which every index, the online index and the Python bindings use) computes it here.
pub fn signature_into(family: &HashFamily, set: &[u64], row: &mut [u32], folded: &mut Vec<u32>) {
    row.fill(u32::MAX);
    family.update_hashes(row, set, folded);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_paths_match_scalar() {
        for k in [1, 16, 100, 128, 130] {
            let fam = HashFamily::new(k, 7);
            let mut rng = SplitMix64::new(3);
            let xs: Vec<u32> = (0..257).map(|_| rng.next_u64() as u32).collect();
            let mut fast = vec![u32::MAX; k];
            let mut slow = vec![u32::MAX; k];
            fam.update(&mut fast, &xs);
            fam.update_scalar(&mut slow, &xs);
            assert_eq!(fast, slow, "k = {k}");
            let mut portable = vec![u32::MAX; k];
            update_portable(&fam.a, &fam.b, &mut portable, &xs);
            assert_eq!(portable, slow);
        }
    }

    #[test]
    fn vector_paths_match_scalar_from_any_start() {
        // Signatures that already hold values (a document hashed in two calls) and every
        // block shape: 64-lane blocks, 8-lane blocks and a scalar tail; empty and repeated
        // inputs, and the extreme inputs 0 and u32::MAX.
        let mut rng = SplitMix64::new(5);
        for k in [7, 8, 63, 64, 65, 72, 127, 200, 257] {
            let fam = HashFamily::new(k, k as u64);
            for len in [0, 1, 2, 9, 100] {
                let mut xs: Vec<u32> = (0..len).map(|_| rng.next_u64() as u32).collect();
                if len > 2 {
                    xs[0] = 0;
                    xs[1] = u32::MAX;
                    xs[2] = xs[1];
                }
                let start: Vec<u32> = (0..k)
                    .map(|i| match i % 3 {
                        0 => u32::MAX,
                        1 => 0,
                        _ => rng.next_u64() as u32,
                    })
                    .collect();
                let mut fast = start.clone();
                let mut slow = start.clone();
                fam.update(&mut fast, &xs);
                fam.update_scalar(&mut slow, &xs);
                assert_eq!(fast, slow, "k = {k}, {len} inputs");
            }
        }
    }

    #[test]
    fn hashes_folded_in_the_kernel_match_folded_first() {
        let mut rng = SplitMix64::new(9);
        for k in [5, 64, 128, 130] {
            let fam = HashFamily::new(k, 3);
            for len in [0, 1, 7, 300] {
                let hashes: Vec<u64> = (0..len).map(|_| rng.next_u64()).collect();
                let folded: Vec<u32> = hashes.iter().map(|&h| fold32(h)).collect();
                let mut expected = vec![u32::MAX; k];
                fam.update_scalar(&mut expected, &folded);
                let mut got = vec![u32::MAX; k];
                fam.update_hashes(&mut got, &hashes, &mut Vec::new());
                assert_eq!(got, expected, "k = {k}, {len} hashes");
            }
        }
    }

    #[test]
    fn seeds_give_different_families() {
        assert_eq!(HashFamily::new(8, 1), HashFamily::new(8, 1));
        assert_ne!(HashFamily::new(8, 1), HashFamily::new(8, 2));
    }
}
