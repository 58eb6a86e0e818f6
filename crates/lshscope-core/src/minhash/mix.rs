//! The one hash per shingle that the one-permutation and C-MinHash families start from
//! (`oph.rs`, `cminhash.rs`), vectorized through runtime dispatch.

/// `out[i]` = the top 32 bits of SplitMix64's output mix of `set[i] ^ key`: the one hash per
/// shingle of the one-permutation and C-MinHash families. The mix is a bijection of u64 with
/// full avalanche, so the values are as uniform as the shingle hashes themselves, and a new
/// key gives an unrelated permutation. This pass is most of those families' time, so it runs
/// 8 shingles to an AVX-512 register when the CPU has AVX-512DQ (64-bit multiplies).
pub(super) fn mixed_hashes(set: &[u64], key: u64, out: &mut Vec<u32>) {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq") {
            // SAFETY: the CPU supports the features this function was compiled for.
            return unsafe { mixed_hashes_avx512(set, key, out) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { mixed_hashes_avx2(set, key, out) };
        }
    }
    mixed_hashes_portable(set, key, out)
}

/// Appends the hashes to `out` (written once, not zeroed first).
#[inline(always)]
fn mixed_hashes_portable(set: &[u64], key: u64, out: &mut Vec<u32>) {
    out.extend(
        set.iter()
            .map(|&h| (crate::util::rng::SplitMix64::mix(h ^ key) >> 32) as u32),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn mixed_hashes_avx512(set: &[u64], key: u64, out: &mut Vec<u32>) {
    mixed_hashes_portable(set, key, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mixed_hashes_avx2(set: &[u64], key: u64, out: &mut Vec<u32>) {
    mixed_hashes_portable(set, key, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;

    #[test]
    fn mixed_hashes_match_the_scalar_mix_on_every_path() {
        let mut rng = SplitMix64::new(12);
        for n in [0, 1, 7, 8, 9, 400] {
            let set: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
            let expected: Vec<u32> = set
                .iter()
                .map(|&h| (SplitMix64::mix(h ^ 77) >> 32) as u32)
                .collect();
            let mut out = vec![5; 3];
            mixed_hashes(&set, 77, &mut out);
            assert_eq!(out, expected, "n = {n}");
            let mut portable = Vec::new();
            mixed_hashes_portable(&set, 77, &mut portable);
            assert_eq!(portable, expected);
        }
    }
}
