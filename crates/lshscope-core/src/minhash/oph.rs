//! One-permutation hashing with optimal densification.
//!
//! One-permutation hashing (Li, Owen & Zhang, "One Permutation Hashing", NIPS 2012) hashes
//! each shingle once, splits the hash range into K equal bins and keeps, per bin, the smallest
//! hash that fell into it: O(n + K) per document instead of O(n·K). For two sets, a bin that
//! holds a shingle of either set agrees exactly when the smallest hash of the union in that
//! bin belongs to both, which happens with probability J.
//!
//! Bins that no shingle reaches are filled by optimal densification (Shrivastava, "Optimal
//! Densification for Fast and Accurate Minwise Hashing", ICML 2017, Algorithm 2): an empty bin
//! i probes bins j = h(i, 1), h(i, 2), … with a hash that depends only on (i, attempt) and the
//! seed, and copies the value of the first bin that a shingle reached. Every document probes in
//! the same order, so for two sets both copy from the first bin that either reached; they
//! agree when both reached it with the same minimum, again with probability J. Copies come
//! from occupied bins only (never from another filled bin), as in the paper.
//!
//! The hash is SplitMix64's output mix of the 64-bit shingle hash xor a seeded key (the mix is
//! a bijection of u64), top 32 bits. Its minimum is the row value, so a row's value also names
//! its bin: values copied from different bins never agree by accident.
//!
//! What densification costs in accuracy: when K is larger than the number of shingles, most
//! rows are copies of a few bins and the rows stop being independent. Each row still agrees
//! with probability J, but the band collision rate moves off 1 − (1 − s^r)^b; how far is
//! measured in `crates/lshscope-core/tests/engine/families.rs` and `docs/families.md`.

use super::mix::mixed_hashes;
use crate::util::rng::SplitMix64;

/// Probes stored per bin; later probes (rare: a document reaching few bins) are computed.
const STORED_PROBES: usize = 16;

/// Probes stored as bytes per bin for the byte-permute densification (K ≤ 128): an attempt
/// there costs two permutes for all bins, so more are kept than [`STORED_PROBES`]. With 16, a
/// document reaching 30 of 128 bins still left about 2 bins a document to the computed
/// probes on short texts (the Debian descriptions: 2.2 by the binomial estimate); 64 leave
/// 0.02, for 8 KiB.
const BYTE_PROBES: usize = 64;

/// Vectors of 16 bins the AVX-512 densification works on side by side: 128 bins, the usual K.
#[cfg(target_arch = "x86_64")]
const DENSIFY_GROUP: usize = 8;

/// One-permutation hashing for K bins, drawn from a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnePermutation {
    k: usize,
    /// Xored into each shingle hash before the mix: the seed's permutation.
    key: u64,
    /// Key of the densification probes h(i, attempt).
    probe_key: u64,
    /// The first [`STORED_PROBES`] probes of each bin, attempt-major: `probes[t * k + bin]` is
    /// h(bin, t + 1), so 16 consecutive bins' probes at one attempt are one vector load.
    probes: Vec<u32>,
    /// For K ≤ 128, the first [`BYTE_PROBES`] probes of each bin as bytes, 128 per attempt
    /// (bins past K probe bin 0), for the byte-permute densification; empty otherwise.
    probe_bytes: Vec<u8>,
}

/// Marks a bin no shingle reached. Shingle values are capped one below it.
const EMPTY: u32 = u32::MAX;

impl OnePermutation {
    pub fn new(k: usize, seed: u64) -> OnePermutation {
        assert!((1..=1 << 16).contains(&k), "K between 1 and 65536");
        let mut rng = SplitMix64::new(seed ^ 0x6f6e_652d_7065_726d); // "one-perm"
        let key = rng.next_u64();
        let probe_key = rng.next_u64();
        let mut oph = OnePermutation {
            k,
            key,
            probe_key,
            probes: Vec::with_capacity(k * STORED_PROBES),
            probe_bytes: Vec::new(),
        };
        for attempt in 1..=STORED_PROBES {
            for bin in 0..k {
                let j = oph.probe(bin, attempt);
                oph.probes.push(j as u32);
            }
        }
        if k <= 128 {
            oph.probe_bytes = (1..=BYTE_PROBES)
                .flat_map(|attempt| (0..128).map(move |bin| (attempt, bin)))
                .map(|(attempt, bin)| {
                    if bin < k {
                        oph.probe(bin, attempt) as u8
                    } else {
                        0
                    }
                })
                .collect();
        }
        oph
    }

    pub fn num_perm(&self) -> usize {
        self.k
    }

    /// The hash of a shingle: a value below [`EMPTY`] whose bin is `bin_of(value)` (scalar
    /// reference for tests; [`OnePermutation::sketch_into`] computes it vectorized).
    #[cfg(test)]
    fn value(&self, shingle: u64) -> u32 {
        // u32::MAX is the empty mark; merging it into its neighbour is one more 2^-32 tie.
        ((SplitMix64::mix(shingle ^ self.key) >> 32) as u32).min(EMPTY - 1)
    }

    /// The bin of a value: bins split the 32-bit range into K equal parts, so the smallest
    /// value of a bin is the smallest hash that fell into it.
    #[inline(always)]
    fn bin_of(&self, value: u32) -> usize {
        ((value as u64 * self.k as u64) >> 32) as usize
    }

    /// The bin empty bin `bin` probes at `attempt` (1, 2, …): the 2-universal h(i, attempt)
    /// of Shrivastava 2017, here a seeded mix of the pair.
    #[inline]
    fn probe(&self, bin: usize, attempt: usize) -> usize {
        let m = SplitMix64::mix(self.probe_key ^ ((bin as u64) << 32 | attempt as u64));
        (((m >> 32) * self.k as u64) >> 32) as usize
    }

    /// The K rows of one set into `row`; `hashed` and `reached` are scratch.
    pub fn sketch_into(
        &self,
        set: &[u64],
        row: &mut [u32],
        hashed: &mut Vec<u32>,
        reached: &mut Vec<u32>,
    ) {
        if set.is_empty() {
            row.fill(EMPTY);
            hashed.clear();
            return;
        }
        self.fill_bins(set, row, hashed);
        #[cfg(target_arch = "x86_64")]
        {
            if self.k <= 128
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi")
            {
                // SAFETY: the CPU supports the features this function was compiled for.
                return unsafe { self.densify_avx512_vbmi(row) };
            }
        }
        reached.clear();
        reached.extend_from_slice(row);
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: as above.
                return unsafe { self.densify_avx512(row, reached) };
            }
        }
        self.densify(row, reached, |_, _| {});
    }

    /// The K rows of one set with how each was made, for the learn mode's one-permutation
    /// step: the bins and the scalar densification of [`OnePermutation::sketch_into`], told
    /// to record each empty bin's probes (the tests hold the vector densification to it).
    pub(crate) fn trace(&self, set: &[u64]) -> Trace {
        let mut rows = vec![0; self.k];
        let mut hashed = Vec::new();
        let mut probes = vec![Vec::new(); self.k];
        if !set.is_empty() {
            self.fill_bins(set, &mut rows, &mut hashed);
            let reached = rows.clone();
            self.densify(&mut rows, &reached, |bin, attempts| {
                probes[bin] = (1..=attempts).map(|t| self.probe(bin, t)).collect();
            });
        } else {
            rows.fill(EMPTY);
        }
        // `hashed` holds the mix of each shingle; the rows use it capped below EMPTY.
        let values: Vec<u32> = hashed.iter().map(|&v| v.min(EMPTY - 1)).collect();
        let bins = values.iter().map(|&v| self.bin_of(v)).collect();
        Trace {
            values,
            bins,
            rows,
            probes,
        }
    }

    /// Each bin's smallest value among the set's shingles, [`EMPTY`] where none fell; `set` is
    /// not empty.
    #[inline(always)]
    fn fill_bins(&self, set: &[u64], row: &mut [u32], hashed: &mut Vec<u32>) {
        assert_eq!(row.len(), self.k);
        row.fill(EMPTY);
        // The hashes in one vectorized pass, then one scalar pass into the bins.
        mixed_hashes(set, self.key, hashed);
        if self.k.is_power_of_two() {
            // (v · 2^p) >> 32 is v >> (32 − p): a shift where the general bin takes a multiply,
            // and a mask the compiler can see keeps the index in the row.
            let (shift, last) = (32 - self.k.trailing_zeros(), self.k - 1);
            for &v in hashed.iter() {
                let v = v.min(EMPTY - 1);
                let bin = (v.checked_shr(shift).unwrap_or(0) as usize) & last;
                row[bin] = row[bin].min(v);
            }
            return;
        }
        for &v in hashed.iter() {
            let v = v.min(EMPTY - 1);
            let bin = self.bin_of(v);
            row[bin] = row[bin].min(v);
        }
    }

    /// Fills every empty bin from the first bin of its probe sequence that a shingle reached,
    /// calling `filled(bin, attempts)` with the probe that found it. `reached` is `row` as the
    /// shingles left it (copies come only from those bins, never from a filled one); at least
    /// one bin is reached.
    #[inline(always)]
    fn densify(&self, row: &mut [u32], reached: &[u32], mut filled: impl FnMut(usize, usize)) {
        for i in 0..self.k {
            if reached[i] != EMPTY {
                continue;
            }
            let (donor, attempts) = (1..=STORED_PROBES)
                .map(|attempt| (self.probes[(attempt - 1) * self.k + i] as usize, attempt))
                .find(|&(j, _)| reached[j] != EMPTY)
                .unwrap_or_else(|| self.computed_probe(i, reached, STORED_PROBES + 1));
            row[i] = reached[donor];
            filled(i, attempts);
        }
    }

    /// The donor of empty bin `i` and its attempt when none of the stored probes was reached:
    /// the probes from attempt `first` on, computed.
    #[cold]
    fn computed_probe(&self, i: usize, reached: &[u32], first: usize) -> (usize, usize) {
        (first..)
            .map(|attempt| (self.probe(i, attempt), attempt))
            .find(|&(j, _)| reached[j] != EMPTY)
            .expect("some bin is reached, and the probes reach every bin")
    }

    /// [`OnePermutation::densify`] 16 bins to a vector: the stored probes of 16 bins at one
    /// attempt are one load, their donors one gather from `reached`, and a mask keeps the bins
    /// still looking. Scalar probing spent most of a short document's sketch on mispredicted
    /// branches (a 46-shingle text leaves ~70 % of 128 bins empty). Up to [`DENSIFY_GROUP`]
    /// vectors go attempt by attempt side by side, so their gathers overlap instead of
    /// forming one chain per vector. Bins none of whose stored probes was reached finish in
    /// the scalar code.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn densify_avx512(&self, row: &mut [u32], reached: &[u32]) {
        use std::arch::x86_64::*;
        let k = self.k;
        debug_assert!(
            row.len() == k && reached.len() == k && self.probes.len() == k * STORED_PROBES
        );
        let empty = _mm512_set1_epi32(EMPTY as i32);
        let mut values = [_mm512_setzero_si512(); DENSIFY_GROUP];
        let mut looking = [0 as __mmask16; DENSIFY_GROUP];
        let mut in_range = [0 as __mmask16; DENSIFY_GROUP];
        // Every loop over the group's vectors runs DENSIFY_GROUP times (vectors past K have
        // no lane in range), so it unrolls and the vectors stay in registers.
        for group in (0..k).step_by(16 * DENSIFY_GROUP) {
            let mut any_looking = 0;
            // SAFETY (every load, gather and store below): lanes outside `in_range` are
            // masked off (pointers past the end are formed with `wrapping_add` and never
            // read); lane l of vector v reads row and probes at group + 16 v + l < k, and a
            // gather reads `reached` at a stored probe, which is below k.
            unsafe {
                for v in 0..DENSIFY_GROUP {
                    let start = group + 16 * v;
                    let lanes = k.saturating_sub(start).min(16);
                    in_range[v] = ((1u32 << lanes) - 1) as __mmask16;
                    values[v] = _mm512_maskz_loadu_epi32(
                        in_range[v],
                        row.as_ptr().wrapping_add(start).cast(),
                    );
                    looking[v] = _mm512_mask_cmpeq_epi32_mask(in_range[v], values[v], empty);
                    any_looking |= looking[v];
                }
                if any_looking == 0 {
                    continue;
                }
                for attempt in 0..STORED_PROBES {
                    any_looking = 0;
                    for v in 0..DENSIFY_GROUP {
                        let start = group + 16 * v;
                        let probes = _mm512_maskz_loadu_epi32(
                            looking[v],
                            self.probes
                                .as_ptr()
                                .wrapping_add(attempt * k + start)
                                .cast(),
                        );
                        let donors = _mm512_mask_i32gather_epi32::<4>(
                            values[v],
                            looking[v],
                            probes,
                            reached.as_ptr().cast(),
                        );
                        let found = _mm512_mask_cmpneq_epi32_mask(looking[v], donors, empty);
                        values[v] = _mm512_mask_mov_epi32(values[v], found, donors);
                        looking[v] &= !found;
                        any_looking |= looking[v];
                    }
                    if any_looking == 0 {
                        break;
                    }
                }
                for v in 0..DENSIFY_GROUP {
                    let start = group + 16 * v;
                    _mm512_mask_storeu_epi32(
                        row.as_mut_ptr().wrapping_add(start).cast(),
                        in_range[v],
                        values[v],
                    );
                    self.finish_in_scalar(row, reached, start, looking[v], STORED_PROBES + 1);
                }
            }
        }
    }

    /// [`OnePermutation::densify`] for K ≤ 128 with byte permutes: which bins a shingle
    /// reached is 128 bytes in two registers, and one `vpermi2b` looks up 64 bins' probes at
    /// one attempt, so an attempt over all bins is two permutes and a few mask operations.
    /// Each empty bin keeps the byte index of its first reached probe; one pass at the end
    /// turns those into values (four 32-value permutes and three blends per 16 bins). The
    /// 16-lane version above runs every vector until its last lane is found (about 12
    /// attempts at 30 % of bins reached), with a gather per vector and attempt.
    ///
    /// `row` holds the bins as the shingles left them; they are read into registers once
    /// and the filled bins written over them, so no copy of the row is made (copying it and
    /// padding the copy to 128 were a sixth of a short text's sketch).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn densify_avx512_vbmi(&self, row: &mut [u32]) {
        use std::arch::x86_64::*;
        let k = self.k;
        debug_assert!(k <= 128 && row.len() == k);
        debug_assert_eq!(self.probe_bytes.len(), 128 * BYTE_PROBES);
        let empty = _mm512_set1_epi32(EMPTY as i32);
        let in_range = |half: usize| match k.saturating_sub(64 * half) {
            n if n >= 64 => u64::MAX,
            n => (1u64 << n) - 1,
        };
        // The bins as the shingles left them (donors come only from those), [`EMPTY`] past K,
        // held in registers until the row is written.
        let mut values = [_mm512_setzero_si512(); 8];
        // Bit i of `was_reached` (bins 0–63, then 64–127): a shingle reached bin i.
        let mut was_reached = [0u64; 2];
        for (v, value) in values.iter_mut().enumerate() {
            let lanes = (in_range(v / 4) >> (16 * (v % 4))) as __mmask16;
            // SAFETY: only the lanes below k are read.
            *value = unsafe {
                _mm512_mask_loadu_epi32(empty, lanes, row.as_ptr().wrapping_add(16 * v).cast())
            };
            let hit = _mm512_cmpneq_epi32_mask(*value, empty) as u64;
            was_reached[v / 4] |= hit << (16 * (v % 4));
        }
        let mut looking = [!was_reached[0] & in_range(0), !was_reached[1] & in_range(1)];
        if looking[0] | looking[1] == 0 {
            return;
        }
        let reached_bytes = [
            _mm512_movm_epi8(was_reached[0]),
            _mm512_movm_epi8(was_reached[1]),
        ];
        let mut donors = [_mm512_setzero_si512(); 2];
        for attempt in 0..BYTE_PROBES {
            for half in 0..2 {
                // SAFETY: attempt's 128 probe bytes start at 128 × attempt, 64 per half.
                let probes = unsafe {
                    _mm512_loadu_si512(
                        self.probe_bytes
                            .as_ptr()
                            .add(128 * attempt + 64 * half)
                            .cast(),
                    )
                };
                let hits = _mm512_permutex2var_epi8(reached_bytes[0], probes, reached_bytes[1]);
                let found = looking[half] & _mm512_movepi8_mask(hits);
                donors[half] = _mm512_mask_mov_epi8(donors[half], found, probes);
                looking[half] &= !found;
            }
            // One OR: comparing the two words as an array moved both into a vector register.
            if looking[0] | looking[1] == 0 {
                break;
            }
        }
        let filled = [
            !was_reached[0] & !looking[0] & in_range(0),
            !was_reached[1] & !looking[1] & in_range(1),
        ];
        let bit5 = _mm512_set1_epi32(32);
        let bit6 = _mm512_set1_epi32(64);
        for v in 0..k.div_ceil(16) {
            let (half, quarter) = (v / 4, v % 4);
            let mask = (filled[half] >> (16 * quarter)) as __mmask16;
            if mask == 0 {
                continue;
            }
            let index = _mm512_cvtepu8_epi32(match quarter {
                0 => _mm512_extracti32x4_epi32::<0>(donors[half]),
                1 => _mm512_extracti32x4_epi32::<1>(donors[half]),
                2 => _mm512_extracti32x4_epi32::<2>(donors[half]),
                _ => _mm512_extracti32x4_epi32::<3>(donors[half]),
            });
            // Bits 0–4 of a donor pick one of 32 values from a pair of vectors, bits 5 and 6
            // the pair.
            let r = &values;
            let p01 = _mm512_permutex2var_epi32(r[0], index, r[1]);
            let p23 = _mm512_permutex2var_epi32(r[2], index, r[3]);
            let p45 = _mm512_permutex2var_epi32(r[4], index, r[5]);
            let p67 = _mm512_permutex2var_epi32(r[6], index, r[7]);
            let b5 = _mm512_test_epi32_mask(index, bit5);
            let b6 = _mm512_test_epi32_mask(index, bit6);
            let low = _mm512_mask_blend_epi32(b5, p01, p23);
            let high = _mm512_mask_blend_epi32(b5, p45, p67);
            let donor_values = _mm512_mask_blend_epi32(b6, low, high);
            // SAFETY: the lanes in `mask` are bins below k.
            unsafe {
                _mm512_mask_storeu_epi32(row.as_mut_ptr().add(16 * v).cast(), mask, donor_values)
            };
        }
        if looking[0] | looking[1] != 0 {
            // Rare: bins that none of their stored probes filled.
            let mut reached = [EMPTY; 128];
            for (v, value) in values.iter().enumerate() {
                // SAFETY: `reached` holds 128 values, 16 per vector.
                unsafe { _mm512_storeu_si512(reached.as_mut_ptr().add(16 * v).cast(), *value) };
            }
            for (half, still) in looking.into_iter().enumerate() {
                for quarter in 0..4 {
                    let left = (still >> (16 * quarter)) as u16;
                    let start = 64 * half + 16 * quarter;
                    self.finish_in_scalar(row, &reached[..k], start, left, BYTE_PROBES + 1);
                }
            }
        }
    }

    /// The bins of `left` (bit l: bin `start` + l) that no stored probe filled: their probes
    /// from attempt `first` on, computed.
    #[inline]
    fn finish_in_scalar(
        &self,
        row: &mut [u32],
        reached: &[u32],
        start: usize,
        mut left: u16,
        first: usize,
    ) {
        while left != 0 {
            let lane = left.trailing_zeros() as usize;
            left &= left - 1;
            let (donor, _) = self.computed_probe(start + lane, reached, first);
            row[start + lane] = reached[donor];
        }
    }
}

/// How one set's K rows were made ([`OnePermutation::trace`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Trace {
    /// The one hash of each shingle, in the set's order (capped below the empty mark, as the
    /// rows take it).
    pub values: Vec<u32>,
    /// The bin of each value.
    pub bins: Vec<usize>,
    /// The K rows, as [`OnePermutation::sketch_into`] gives them.
    pub rows: Vec<u32>,
    /// Per bin: for a bin no shingle reached, the bins densification probed in order, the
    /// last the occupied bin it copied; empty for an occupied bin (and for every bin of an
    /// empty set, which stays all empty).
    pub probes: Vec<Vec<usize>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, written plainly: bins from the values, then the probe sequence.
    fn reference(oph: &OnePermutation, set: &[u64]) -> Vec<u32> {
        let mut bins = vec![EMPTY; oph.k];
        for &h in set {
            let v = oph.value(h);
            let b = ((v as u64 * oph.k as u64) >> 32) as usize;
            bins[b] = bins[b].min(v);
        }
        if set.is_empty() {
            return bins;
        }
        (0..oph.k)
            .map(|i| {
                if bins[i] != EMPTY {
                    return bins[i];
                }
                (1..)
                    .map(|t| bins[oph.probe(i, t)])
                    .find(|&v| v != EMPTY)
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn matches_the_plain_definition() {
        let mut rng = SplitMix64::new(1);
        for k in [1, 2, 64, 100, 128, 1024] {
            let oph = OnePermutation::new(k, 7);
            for n in [0, 1, 2, 5, 60, 400, 3000] {
                let set: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
                let mut row = vec![0; k];
                oph.sketch_into(&set, &mut row, &mut Vec::new(), &mut Vec::new());
                assert_eq!(row, reference(&oph, &set), "k = {k}, n = {n}");
                if n > 0 {
                    assert!(row.iter().all(|&v| v != EMPTY), "every bin filled");
                }
            }
        }
    }

    #[test]
    fn every_densification_path_gives_the_scalar_rows() {
        // The vector paths this CPU has, on the sizes around their vector and register
        // boundaries, and on sets small enough that stored probes run out (the scalar tail).
        let mut rng = SplitMix64::new(4);
        for k in [1, 2, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 300] {
            let oph = OnePermutation::new(k, 11);
            for n in [1, 2, 3, 5, 20, 60, 400] {
                let set: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
                let mut bins = vec![0; k];
                oph.fill_bins(&set, &mut bins, &mut Vec::new());
                let reached = bins.clone();
                let mut scalar = bins.clone();
                oph.densify(&mut scalar, &reached, |_, _| {});
                #[cfg(target_arch = "x86_64")]
                {
                    if std::is_x86_feature_detected!("avx512f") {
                        let mut row = bins.clone();
                        // SAFETY: the CPU has the feature.
                        unsafe { oph.densify_avx512(&mut row, &reached) };
                        assert_eq!(row, scalar, "avx512f, k = {k}, n = {n}");
                    }
                    if k <= 128
                        && std::is_x86_feature_detected!("avx512f")
                        && std::is_x86_feature_detected!("avx512bw")
                        && std::is_x86_feature_detected!("avx512vbmi")
                    {
                        let mut row = bins.clone();
                        // SAFETY: the CPU has the features.
                        unsafe { oph.densify_avx512_vbmi(&mut row) };
                        assert_eq!(row, scalar, "avx512vbmi, k = {k}, n = {n}");
                    }
                }
                assert!(scalar.iter().all(|&v| v != EMPTY), "k = {k}, n = {n}");
            }
        }
    }

    #[test]
    fn a_row_value_lies_in_the_bin_it_was_taken_from() {
        // Values of distinct bins never agree: check that occupied bins hold their own range.
        let oph = OnePermutation::new(128, 3);
        let mut rng = SplitMix64::new(2);
        let set: Vec<u64> = (0..2000).map(|_| rng.next_u64()).collect();
        let mut row = vec![0; 128];
        oph.sketch_into(&set, &mut row, &mut Vec::new(), &mut Vec::new());
        for (i, &v) in row.iter().enumerate() {
            assert_eq!(oph.bin_of(v), i, "2000 shingles reach all 128 bins");
        }
    }

    #[test]
    fn the_trace_gives_the_sketch_rows_and_names_occupied_donors() {
        let mut rng = SplitMix64::new(9);
        for k in [1, 6, 24, 128, 700] {
            let oph = OnePermutation::new(k, 5);
            for n in [0, 1, 3, 20, 400] {
                let set: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
                let mut row = vec![0; k];
                oph.sketch_into(&set, &mut row, &mut Vec::new(), &mut Vec::new());
                let trace = oph.trace(&set);
                assert_eq!(trace.rows, row, "k = {k}, n = {n}");
                assert_eq!(trace.values.len(), n);
                let mut reached = vec![false; k];
                for (&v, &bin) in trace.values.iter().zip(&trace.bins) {
                    assert_eq!(bin, oph.bin_of(v));
                    assert!(trace.rows[bin] <= v, "a bin keeps its smallest value");
                    reached[bin] = true;
                }
                let empty = reached.iter().filter(|&&r| !r).count();
                if n > 0 {
                    // n shingles reach at most n bins.
                    assert!(empty >= k.saturating_sub(n), "k = {k}, n = {n}");
                }
                for bin in 0..k {
                    let probes = &trace.probes[bin];
                    if reached[bin] || n == 0 {
                        assert!(
                            probes.is_empty(),
                            "only empty bins of a non-empty set probe"
                        );
                        continue;
                    }
                    let (&donor, before) = probes.split_last().expect("an empty bin probes");
                    assert!(reached[donor], "the donor is a bin a shingle reached");
                    assert!(
                        before.iter().all(|&j| !reached[j]),
                        "earlier probes were empty"
                    );
                    assert_eq!(trace.rows[bin], trace.rows[donor]);
                    let expected: Vec<usize> =
                        (1..=probes.len()).map(|t| oph.probe(bin, t)).collect();
                    assert_eq!(probes, &expected, "the probe sequence h(i, 1), h(i, 2), …");
                }
            }
        }
    }
}
