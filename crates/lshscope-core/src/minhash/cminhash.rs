//! C-MinHash: K rows from two permutations instead of K.
//!
//! Li & Li, "C-MinHash: Rigorously Reducing K Permutations to Two" (2021, arXiv:2109.03337):
//! a first permutation σ scatters the shingles, and row k takes the minimum of a second
//! permutation π circulantly shifted by k, h_k(x) = π(σ(x) + k). The paper shows the estimate
//! unbiased and, for uniformly random σ and π, of lower variance than K independent
//! permutations.
//!
//! Here σ(x) is the top 32 bits of SplitMix64's output mix of the shingle hash xor a seeded key,
//! and π(y) = c·y + d mod 2^32 with c odd (a bijection), as rensa does in 64 bits
//! (`src/cminhash/core.rs` of beowolx/rensa). Then h_k(x) = c·σ(x) + d + c·k: one shared
//! product per shingle and one addition per row, so the kernel is an add and a min on 32-bit
//! lanes (16 to an AVX-512 register, twice the classic family's 8 multiply-adds).
//!
//! With an affine π, row k is the element whose c·σ(x) + d follows the point −c·k on the
//! 32-bit circle. Each row agrees with probability J for any fixed π (σ makes the points of the
//! union uniform), but how well the K points −c·k spread decides how independent the rows are:
//! a c near a fraction p/q with small q puts them in q clumps, and rows in one clump copy each
//! other. rensa draws c at random; we redraw c from the seed until no two of the K points lie
//! closer than 2^32 / (4K), which keeps a quarter of the even spacing and accepts at least half
//! of all c (union bound over the K − 1 differences). The estimate's measured spread is in
//! `crates/lshscope-core/tests/engine/families.rs`.

use super::mix::mixed_hashes;
use crate::util::rng::SplitMix64;

/// C-MinHash for K rows, drawn from a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CMinHash {
    /// Xored into each shingle hash before the mix: σ.
    sigma_key: u64,
    /// π's multiplier (odd).
    c: u32,
    /// c·k + d for each row k: π's shift, added to c·σ(x).
    shifts: Vec<u32>,
}

/// Draws of c tried before keeping the best spread seen (never reached in practice: each draw
/// is accepted with probability at least 1/2).
const MAX_DRAWS: usize = 64;

impl CMinHash {
    pub fn new(k: usize, seed: u64) -> CMinHash {
        assert!(k > 0, "K is positive");
        let mut rng = SplitMix64::new(seed ^ 0x632d_6d69_6e68_6173); // "c-minhas"
        let sigma_key = rng.next_u64();
        let d = rng.next_u64() as u32;
        let wanted = (1u64 << 32) / (4 * k as u64);
        let mut best = (0u64, 1u32);
        for _ in 0..MAX_DRAWS {
            let c = rng.next_u64() as u32 | 1;
            let gap = min_gap(c, k);
            if gap > best.0 {
                best = (gap, c);
            }
            if gap >= wanted {
                break;
            }
        }
        let c = best.1;
        let shifts = (0..k as u32)
            .map(|i| c.wrapping_mul(i).wrapping_add(d))
            .collect();
        CMinHash {
            sigma_key,
            c,
            shifts,
        }
    }

    pub fn num_perm(&self) -> usize {
        self.shifts.len()
    }

    /// The first `k` rows of this family (c was drawn for the full K, so `new(k, seed)`
    /// may differ).
    pub fn first(&self, k: usize) -> CMinHash {
        CMinHash {
            sigma_key: self.sigma_key,
            c: self.c,
            shifts: self.shifts[..k.min(self.shifts.len())].to_vec(),
        }
    }

    /// c·σ(x): the part of h_k(x) shared by all rows (scalar reference for tests).
    #[cfg(test)]
    fn spread(&self, shingle: u64) -> u32 {
        let sigma = (SplitMix64::mix(shingle ^ self.sigma_key) >> 32) as u32;
        self.c.wrapping_mul(sigma)
    }

    /// Row k's value for one shingle (scalar reference for tests).
    #[cfg(test)]
    fn value(&self, k: usize, shingle: u64) -> u32 {
        self.spread(shingle).wrapping_add(self.shifts[k])
    }

    /// The K rows of one set into `row`; `spread` is scratch for c·σ(x) of each shingle.
    pub fn sketch_into(&self, set: &[u64], row: &mut [u32], spread: &mut Vec<u32>) {
        assert_eq!(row.len(), self.shifts.len());
        row.fill(u32::MAX);
        mixed_hashes(set, self.sigma_key, spread);
        for s in spread.iter_mut() {
            *s = self.c.wrapping_mul(*s);
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU supports the feature this function was compiled for.
                return unsafe { min_shifted_avx512(&self.shifts, row, spread) };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: as above.
                return unsafe { min_shifted_avx2(&self.shifts, row, spread) };
            }
        }
        min_shifted(&self.shifts, row, spread)
    }
}

/// The smallest circular distance between two of the points c·k mod 2^32, k < K: the
/// difference of points k1 and k2 is the point k2 − k1, so it is the smallest distance of
/// c·k from 0 for 0 < k < K (2^32 when K = 1).
fn min_gap(c: u32, k: usize) -> u64 {
    (1..k as u32)
        .map(|i| {
            let p = c.wrapping_mul(i);
            p.min(p.wrapping_neg()) as u64
        })
        .min()
        .unwrap_or(1 << 32)
}

/// Lanes handled together: 64 running minima stay in registers (four AVX-512 registers,
/// eight AVX2) while the shingles stream past.
const BLOCK: usize = 64;

/// `row[k] = min(row[k], min over s in spread of s + shifts[k])`, blocked over rows so the
/// compiler vectorizes across lanes.
#[inline(always)]
fn min_shifted(shifts: &[u32], row: &mut [u32], spread: &[u32]) {
    let mut row_blocks = row.chunks_exact_mut(BLOCK);
    let mut shift_blocks = shifts.chunks_exact(BLOCK);
    for (r, s) in (&mut row_blocks).zip(&mut shift_blocks) {
        let s: &[u32; BLOCK] = s.try_into().unwrap();
        let mut acc: [u32; BLOCK] = r.try_into().unwrap();
        for &x in spread {
            for j in 0..BLOCK {
                acc[j] = acc[j].min(x.wrapping_add(s[j]));
            }
        }
        r.copy_from_slice(&acc);
    }
    let (r, s) = (row_blocks.into_remainder(), shift_blocks.remainder());
    for &x in spread {
        for j in 0..r.len() {
            r[j] = r[j].min(x.wrapping_add(s[j]));
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn min_shifted_avx512(shifts: &[u32], row: &mut [u32], spread: &[u32]) {
    min_shifted(shifts, row, spread)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn min_shifted_avx2(shifts: &[u32], row: &mut [u32], spread: &[u32]) {
    min_shifted(shifts, row, spread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_matches_the_scalar_definition_on_every_path() {
        let mut rng = SplitMix64::new(8);
        for k in [1, 7, 64, 100, 128, 130, 257] {
            let cm = CMinHash::new(k, 5);
            for n in [0, 1, 3, 400] {
                let set: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
                let expected: Vec<u32> = (0..k)
                    .map(|i| {
                        set.iter()
                            .map(|&h| cm.value(i, h))
                            .min()
                            .unwrap_or(u32::MAX)
                    })
                    .collect();
                let mut row = vec![0; k];
                let mut spread = Vec::new();
                cm.sketch_into(&set, &mut row, &mut spread);
                assert_eq!(row, expected, "k = {k}, n = {n}");
                let mut portable = vec![u32::MAX; k];
                min_shifted(&cm.shifts, &mut portable, &spread);
                assert_eq!(portable, expected);
            }
        }
    }

    #[test]
    fn drawn_multipliers_spread_the_rows() {
        for k in [2, 16, 128, 1024, 4096] {
            for seed in 0..50 {
                let cm = CMinHash::new(k, seed);
                assert_eq!(cm.c % 2, 1);
                assert!(
                    min_gap(cm.c, k) >= (1u64 << 32) / (4 * k as u64),
                    "k = {k}, seed {seed}"
                );
            }
        }
        // The gap is what it says: c = 2^31 + 1 puts point 2 at distance 2.
        assert_eq!(min_gap((1 << 31) + 1, 3), 2);
        assert_eq!(min_gap(12345, 1), 1 << 32);
    }
}
