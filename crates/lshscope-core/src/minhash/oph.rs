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
const STORED_PROBES: usize = 8;

/// One-permutation hashing for K bins, drawn from a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnePermutation {
    k: usize,
    /// Xored into each shingle hash before the mix: the seed's permutation.
    key: u64,
    /// Key of the densification probes h(i, attempt).
    probe_key: u64,
    /// The first [`STORED_PROBES`] probes of each bin, bin-major.
    probes: Vec<u16>,
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
        };
        for bin in 0..k {
            for attempt in 1..=STORED_PROBES {
                let j = oph.probe(bin, attempt);
                oph.probes.push(j as u16);
            }
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

    /// The K rows of one set into `row`; `hashed` and `occupied` are scratch.
    pub fn sketch_into(
        &self,
        set: &[u64],
        row: &mut [u32],
        hashed: &mut Vec<u32>,
        occupied: &mut Vec<u64>,
    ) {
        self.sketch_with(set, row, hashed, occupied, |_, _| {});
    }

    /// The K rows of one set with how each was made, for the learn mode's one-permutation
    /// step: the same code as [`OnePermutation::sketch_into`], told to record each empty
    /// bin's probes.
    pub(crate) fn trace(&self, set: &[u64]) -> Trace {
        let mut rows = vec![0; self.k];
        let mut hashed = Vec::new();
        let mut probes = vec![Vec::new(); self.k];
        self.sketch_with(
            set,
            &mut rows,
            &mut hashed,
            &mut Vec::new(),
            |bin, attempts| {
                probes[bin] = (1..=attempts).map(|t| self.probe(bin, t)).collect();
            },
        );
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

    /// [`OnePermutation::sketch_into`], calling `filled(bin, attempts)` for each empty bin
    /// densification fills at probe `attempts` (the learn mode's trace; a no-op otherwise).
    #[inline(always)]
    fn sketch_with(
        &self,
        set: &[u64],
        row: &mut [u32],
        hashed: &mut Vec<u32>,
        occupied: &mut Vec<u64>,
        filled: impl FnMut(usize, usize),
    ) {
        assert_eq!(row.len(), self.k);
        row.fill(EMPTY);
        if set.is_empty() {
            hashed.clear();
            return;
        }
        // The hashes in one vectorized pass, then one scalar pass into the bins.
        mixed_hashes(set, self.key, hashed);
        for &v in hashed.iter() {
            let v = v.min(EMPTY - 1);
            let bin = self.bin_of(v);
            row[bin] = row[bin].min(v);
        }
        self.densify(row, occupied, filled);
    }

    /// Fills every empty bin from the first occupied bin of its probe sequence, calling
    /// `filled(bin, attempts)` with the probe that found it. `row` has at least one occupied
    /// bin.
    #[inline(always)]
    fn densify(
        &self,
        row: &mut [u32],
        occupied: &mut Vec<u64>,
        mut filled: impl FnMut(usize, usize),
    ) {
        // Which bins shingles reached, before any is filled: copies come only from those.
        occupied.clear();
        occupied.resize(self.k.div_ceil(64), 0);
        let mut empty_bins = 0;
        for (i, &v) in row.iter().enumerate() {
            occupied[i / 64] |= ((v != EMPTY) as u64) << (i % 64);
            empty_bins += (v == EMPTY) as usize;
        }
        if empty_bins == 0 {
            return;
        }
        let is_occupied = |j: usize| occupied[j / 64] >> (j % 64) & 1 == 1;
        for i in 0..self.k {
            if is_occupied(i) {
                continue;
            }
            let stored = &self.probes[i * STORED_PROBES..(i + 1) * STORED_PROBES];
            let (donor, attempts) = match stored.iter().position(|&j| is_occupied(j as usize)) {
                Some(p) => (stored[p] as usize, p + 1),
                None => (STORED_PROBES + 1..)
                    .map(|attempt| (self.probe(i, attempt), attempt))
                    .find(|&(j, _)| is_occupied(j))
                    .expect("some bin is occupied, and the probes reach every bin"),
            };
            row[i] = row[donor];
            filled(i, attempts);
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
