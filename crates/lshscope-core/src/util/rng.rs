//! The one pseudo-random generator of lshscope: SplitMix64 (and a hasher built on its mix).
//!
//! SplitMix64 is the generator of Steele, Lea & Flood, "Fast splittable pseudorandom number
//! generators" (OOPSLA 2014), with the output mix of Vigna's public-domain `splitmix64.c`
//! (<https://prng.di.unimi.it/splitmix64.c>): a Weyl sequence (the state advances by the odd
//! constant ⌊2⁶⁴/φ⌋) passed through two xor-shift-multiply rounds. Every 64-bit state gives a
//! distinct output, the period is 2⁶⁴, and it passes BigCrush; it is not cryptographic.
//!
//! Everything seeded goes through it: the MinHash permutation family, document sampling, the
//! synthetic corpora of `lshscope gen`, random pairs, the explorer's shuffle, and the tests.
//! The same seed gives the same stream on every platform, so outputs are reproducible.

use std::hash::Hasher;

/// The SplitMix64 generator. [`SplitMix64::new`] takes the state as is: callers that share one
/// user seed between several uses offset it with their own constant, so the streams differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

/// ⌊2⁶⁴/φ⌋, odd: the Weyl increment.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

impl SplitMix64 {
    /// A generator whose first output is the mix of `seed + GOLDEN_GAMMA`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 uniformly distributed bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform float in [0, 1): the top 53 bits of the next output over 2⁵³, so every value
    /// is a multiple of 2⁻⁵³ and 1 is never returned.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform integer in [0, `bound`) without modulo bias: Lemire's multiply-and-reject
    /// ("Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019). It draws a
    /// second value only with probability below `bound`/2⁶⁴, so for the bounds used here its
    /// stream equals that of the plain multiply-shift `(x·bound) >> 64`. `bound` must be
    /// positive.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0, "below(0) has no value to return");
        let mut m = u128::from(self.next_u64()) * u128::from(bound);
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (m >> 64) as u64
    }

    /// A pseudo-random 64-bit key for `input`: the first output of a generator seeded with
    /// it. Equal inputs give equal keys; used where an order must be random but stable (the
    /// explorer's shuffle keys each pair by its ids).
    #[inline]
    pub fn mix(input: u64) -> u64 {
        SplitMix64::new(input).next_u64()
    }
}

/// A hasher for keys that are packed pairs of document numbers (`a << 32 | b`): one
/// SplitMix64 mix spreads them, where SipHash would cost several times more per lookup.
#[derive(Debug, Default)]
pub struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = SplitMix64::mix(self.0 ^ b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = SplitMix64::mix(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_outputs() {
        // The first five outputs of splitmix64.c seeded with 1234567, as listed by Rosetta
        // Code ("Pseudo-random numbers/Splitmix64") and checked here against a Python port.
        let mut g = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..5).map(|_| g.next_u64()).collect();
        assert_eq!(
            got,
            vec![
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
        assert_eq!(SplitMix64::mix(1_234_567), got[0]);
    }

    #[test]
    fn unit_is_in_range_and_below_covers_its_range_evenly() {
        let mut g = SplitMix64::new(3);
        for _ in 0..10_000 {
            let u = g.unit();
            assert!((0.0..1.0).contains(&u));
        }
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            let v = g.below(7);
            assert!(v < 7);
            counts[v as usize] += 1;
        }
        // Each count is Binomial(70 000, 1/7): mean 10 000, σ ≈ 92.6; 5σ bounds.
        for c in counts {
            assert!((9_537..=10_463).contains(&c), "{counts:?}");
        }
        assert_eq!(g.below(1), 0);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(3);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7);
            assert!(v < 7);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn below_rejects_the_biased_low_values() {
        // With bound = 2⁶³ + 1, 2⁶⁴ mod bound = 2⁶³ − 1: low products below that are redrawn.
        // The result must still be in range, whatever the stream.
        let bound = (1u64 << 63) + 1;
        let mut g = SplitMix64::new(11);
        for _ in 0..1000 {
            assert!(g.below(bound) < bound);
        }
    }
}
