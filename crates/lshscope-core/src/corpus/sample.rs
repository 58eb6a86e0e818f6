//! Uniform reservoir sampling of documents, reproducible from a seed.
//!
//! Algorithm R (Vitter, "Random Sampling with a Reservoir", ACM TOMS 11(1), 1985, §2, where it
//! is credited to Waterman): the first `n` items fill the reservoir; item `i` (0-based, `i ≥ n`)
//! replaces slot `j` when a uniform draw `j ∈ [0, i]` lands below `n`. After `N` items every
//! item is in the reservoir with probability `n / N`, and every `n`-subset is equally likely.
//! One random draw per item is negligible next to parsing the item, so the skip-ahead variants
//! (Algorithm L) would buy nothing here.

use crate::util::rng::SplitMix64;

/// Offsets the user's seed so the sample stream differs from other uses of the same seed (the
/// MinHash permutations are also derived from `--seed`).
const SAMPLE_STREAM: u64 = 0x5A3D_1E0F_C0DE_5A3D;

/// One kept document. Its buffers are reused when the slot is overwritten, so after the
/// reservoir fills, sampling allocates only when a new document is longer than the slot's.
#[derive(Debug, Default)]
pub(super) struct Slot {
    /// Position in the input (0-based among offered documents): restores input order.
    pub order: u64,
    /// The line (Parquet: row) the document was read from, as [`super::Sink::push`] got it.
    pub line: u64,
    pub id: String,
    pub text: String,
    pub lossy: bool,
}

#[derive(Debug)]
pub(super) struct Reservoir {
    capacity: usize,
    seen: u64,
    rng: SplitMix64,
    slots: Vec<Slot>,
}

impl Reservoir {
    pub(super) fn new(capacity: usize, seed: u64) -> Self {
        Reservoir {
            capacity,
            seen: 0,
            rng: SplitMix64::new(seed ^ SAMPLE_STREAM),
            // Cap the up-front allocation: `--sample 10000000` on a small file must not reserve
            // ten million slots.
            slots: Vec::with_capacity(capacity.min(1 << 16)),
        }
    }

    /// Offers the next document; returns the slot to fill, or `None` when it is not kept.
    pub(super) fn offer(&mut self) -> Option<&mut Slot> {
        let i = self.seen;
        self.seen += 1;
        if self.slots.len() < self.capacity {
            self.slots.push(Slot::default());
            let slot = self.slots.last_mut().expect("just pushed");
            slot.order = i;
            return Some(slot);
        }
        let j = self.rng.below(i + 1);
        if j < self.capacity as u64 {
            let slot = &mut self.slots[j as usize];
            slot.order = i;
            Some(slot)
        } else {
            None
        }
    }

    /// The kept documents in input order.
    pub(super) fn into_input_order(mut self) -> Vec<Slot> {
        self.slots.sort_unstable_by_key(|s| s.order);
        self.slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_orders(n: usize, total: u64, seed: u64) -> Vec<u64> {
        let mut r = Reservoir::new(n, seed);
        for _ in 0..total {
            if let Some(slot) = r.offer() {
                slot.text.clear();
            }
        }
        r.into_input_order().iter().map(|s| s.order).collect()
    }

    #[test]
    fn keeps_everything_when_input_is_small() {
        assert_eq!(sample_orders(10, 4, 7), vec![0, 1, 2, 3]);
    }

    #[test]
    fn reproducible_sorted_and_distinct() {
        let a = sample_orders(50, 1000, 42);
        assert_eq!(a, sample_orders(50, 1000, 42));
        assert_ne!(a, sample_orders(50, 1000, 43));
        assert_eq!(a.len(), 50);
        assert!(a.windows(2).all(|w| w[0] < w[1]), "input order, no repeats");
        assert!(a.iter().all(|&o| o < 1000));
    }

    /// Each item's inclusion frequency over many seeds is n/N. With 4000 seeds, n = 5, N = 20
    /// the count per item is Binomial(4000, 0.25): mean 1000, σ ≈ 27.4; every one of the 20
    /// counts must lie within 4σ (the chance that any of 20 falls outside is about 1e-3 for a
    /// correct sampler; the seeds are fixed, so the test is deterministic).
    #[test]
    fn inclusion_is_uniform() {
        let (n, total, seeds) = (5usize, 20u64, 4000u64);
        let mut counts = vec![0u32; total as usize];
        for seed in 0..seeds {
            for o in sample_orders(n, total, seed) {
                counts[o as usize] += 1;
            }
        }
        let p = n as f64 / total as f64;
        let mean = seeds as f64 * p;
        let sigma = (seeds as f64 * p * (1.0 - p)).sqrt();
        for (item, &c) in counts.iter().enumerate() {
            assert!(
                (c as f64 - mean).abs() < 4.0 * sigma,
                "item {item} kept {c} times, expected {mean} ± {sigma}"
            );
        }
    }
}
