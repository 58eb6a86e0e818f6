//! Sketch families: the ways a document's K signature rows can be computed from its shingle set.
//!
//! Every family here gives K `u32` rows per document with the one property banding needs:
//! for two sets A and B, each row agrees with probability J(A, B) (over the draw of the
//! family), and an empty set gives all `u32::MAX`. What differs is the cost and how the rows
//! depend on each other, which moves the real S-curve away from 1 − (1 − s^r)^b (measured in
//! `crates/lshscope-core/tests/engine/families.rs`, written up in `docs/families.md`):
//!
//! - [`SketchFamily::Classic`]: K independent hash functions, the minimum of each over the set
//!   (`family.rs`). O(n·K) per document; rows independent given the set.
//! - [`SketchFamily::OnePermutation`]: one hash per shingle, K bins, each row the minimum of its
//!   bin, empty bins filled by optimal densification (`oph.rs`). O(n + K).
//! - [`SketchFamily::CMinHash`]: one hash σ per shingle, then K circulant shifts of a second
//!   permutation π (`cminhash.rs`). O(n·K) additions instead of multiplications.

use std::fmt;
use std::str::FromStr;

use super::cminhash::CMinHash;
use super::family::{HashFamily, signature_into};
use super::oph::OnePermutation;
use crate::{Error, Result};

/// Which sketch family computes the signature rows.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum SketchFamily {
    /// K independent multiply-add-shift hashes (the default; unchanged since the first index).
    #[default]
    Classic,
    /// One-permutation hashing with optimal densification.
    OnePermutation,
    /// C-MinHash: one permutation σ and K circulant shifts of a second permutation π.
    #[serde(rename = "c-minhash")]
    CMinHash,
}

impl SketchFamily {
    /// Every family, the default first.
    pub const ALL: [SketchFamily; 3] = [
        SketchFamily::Classic,
        SketchFamily::OnePermutation,
        SketchFamily::CMinHash,
    ];

    /// The name options, files and summaries use.
    pub fn name(self) -> &'static str {
        match self {
            SketchFamily::Classic => "classic",
            SketchFamily::OnePermutation => "one-permutation",
            SketchFamily::CMinHash => "c-minhash",
        }
    }

    /// One line for help texts and summaries.
    pub fn description(self) -> &'static str {
        match self {
            SketchFamily::Classic => "K independent hashes per shingle, O(n·K)",
            SketchFamily::OnePermutation => {
                "one hash per shingle into K bins, empty bins densified, O(n + K)"
            }
            SketchFamily::CMinHash => "one hash per shingle and K circulant shifts, O(n·K) adds",
        }
    }
}

impl fmt::Display for SketchFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SketchFamily {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        SketchFamily::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = SketchFamily::ALL.iter().map(|f| f.name()).collect();
                Error::usage(format!(
                    "unknown sketch family {s:?}: use one of {}",
                    names.join(", ")
                ))
            })
    }
}

/// A drawn sketch family: the functions of one [`SketchFamily`] for one K and seed. The seed
/// means the same as in [`super::IndexOptions`]: equal (family, K, seed) give equal rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sketcher {
    drawn: Drawn,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Drawn {
    Classic(HashFamily),
    OnePermutation(OnePermutation),
    CMinHash(CMinHash),
}

/// Buffers a [`Sketcher`] reuses from one document to the next (one per thread).
#[derive(Debug, Default)]
pub struct SketchScratch {
    /// Folded shingle hashes for the classic family's non-AVX-512 paths.
    folded: Vec<u32>,
    /// The bins as the shingles left them, before densification (one-permutation hashing).
    reached: Vec<u32>,
    /// Each shingle's one hash (one-permutation hashing, C-MinHash).
    hashed: Vec<u32>,
}

impl Sketcher {
    /// Draws `family`'s functions for K = `num_perm` rows from `seed`. `num_perm` must be
    /// positive (the callers check it against the index's limits).
    pub fn new(family: SketchFamily, num_perm: usize, seed: u64) -> Sketcher {
        assert!(num_perm > 0, "a sketch has at least one row");
        let drawn = match family {
            // Exactly the family `build_index` draws, so classic rows stay bit for bit.
            SketchFamily::Classic => Drawn::Classic(HashFamily::new(num_perm, seed)),
            SketchFamily::OnePermutation => {
                Drawn::OnePermutation(OnePermutation::new(num_perm, seed))
            }
            SketchFamily::CMinHash => Drawn::CMinHash(CMinHash::new(num_perm, seed)),
        };
        Sketcher { drawn }
    }

    /// The family this sketcher was drawn from.
    pub fn family(&self) -> SketchFamily {
        match self.drawn {
            Drawn::Classic(_) => SketchFamily::Classic,
            Drawn::OnePermutation(_) => SketchFamily::OnePermutation,
            Drawn::CMinHash(_) => SketchFamily::CMinHash,
        }
    }

    /// A sketcher for the first `rows` rows of this one, exactly: what a banding that uses
    /// only those rows needs, at `rows`/K of the cost. `None` for one-permutation hashing,
    /// whose K bins all depend on K (its cost hardly depends on K anyway).
    pub fn first_rows(&self, rows: usize) -> Option<Sketcher> {
        assert!(rows > 0, "a sketch has at least one row");
        let drawn = match &self.drawn {
            Drawn::Classic(f) => Drawn::Classic(f.first(rows)),
            Drawn::OnePermutation(_) => return None,
            Drawn::CMinHash(f) => Drawn::CMinHash(f.first(rows)),
        };
        Some(Sketcher { drawn })
    }

    /// K, the number of rows.
    pub fn num_perm(&self) -> usize {
        match &self.drawn {
            Drawn::Classic(f) => f.len(),
            Drawn::OnePermutation(f) => f.num_perm(),
            Drawn::CMinHash(f) => f.num_perm(),
        }
    }

    /// The K rows of one document from its shingle hashes, into `row`. An empty input gives
    /// all `u32::MAX`. For the classic family this is exactly [`signature_into`].
    ///
    /// The hashes may come in any order and with repeats: the sorted, distinct set that
    /// [`super::ShingleSets`] holds, or the raw stream a [`crate::text::Shingler`] yields. Every
    /// family's row is a minimum over the shingles of a value that depends only on the
    /// shingle's 64-bit hash (classic: a permutation of its 32-bit fold; one-permutation: the
    /// smallest mixed hash in the row's bin, then densification, which looks only at which
    /// bins were reached; C-MinHash: a shifted mixed hash), and a minimum does not depend on
    /// order or repeats, so both give the same rows bit for bit
    /// ([`super::signatures_of_texts`] relies on it).
    pub fn sketch_into(&self, set: &[u64], row: &mut [u32], scratch: &mut SketchScratch) {
        assert_eq!(row.len(), self.num_perm(), "a row of K values");
        match &self.drawn {
            Drawn::Classic(f) => signature_into(f, set, row, &mut scratch.folded),
            Drawn::OnePermutation(f) => {
                f.sketch_into(set, row, &mut scratch.hashed, &mut scratch.reached)
            }
            Drawn::CMinHash(f) => f.sketch_into(set, row, &mut scratch.hashed),
        }
    }

    /// Makes `row`, the sketch of a set A, the sketch of A ∪ `more` (values in any order,
    /// repeats allowed) without reading A, where the family allows it: a classic or C-MinHash
    /// row holds one minimum per row over the set's values, so the union's is the smaller of
    /// the two. Returns `false`, with `row` untouched, for one-permutation hashing, whose
    /// densified empty bins depend on the whole set: sketch the union again. The sketch of
    /// an empty A is not such a row either: sketch the union.
    pub fn update_into(&self, more: &[u64], row: &mut [u32], scratch: &mut SketchScratch) -> bool {
        assert_eq!(row.len(), self.num_perm(), "a row of K values");
        match &self.drawn {
            Drawn::Classic(f) => f.update_hashes(row, more, &mut scratch.folded),
            Drawn::CMinHash(f) => {
                let mut added = vec![0; row.len()];
                f.sketch_into(more, &mut added, &mut scratch.hashed);
                for (value, new) in row.iter_mut().zip(added) {
                    *value = (*value).min(new);
                }
            }
            Drawn::OnePermutation(_) => return false,
        }
        true
    }

    /// [`Sketcher::sketch_into`] into a new row.
    pub fn sketch(&self, set: &[u64]) -> Vec<u32> {
        let mut row = vec![0; self.num_perm()];
        self.sketch_into(set, &mut row, &mut SketchScratch::default());
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;

    /// Updating a sketch with more values gives the sketch of the union, bit for bit, in the
    /// families that allow it (values repeated and out of order too); one-permutation
    /// hashing says it cannot and leaves the row alone.
    #[test]
    fn updates_give_the_sketch_of_the_union() {
        let mut rng = SplitMix64::new(11);
        for family in SketchFamily::ALL {
            let sketcher = Sketcher::new(family, 128, 5);
            let a = random_set(&mut rng, 300);
            let mut more: Vec<u64> = random_set(&mut rng, 200);
            more.extend_from_slice(&a[..50]);
            more.reverse();
            let mut union = a.clone();
            union.extend_from_slice(&more);
            union.sort_unstable();
            union.dedup();
            let mut row = sketcher.sketch(&a);
            let before = row.clone();
            let updated = sketcher.update_into(&more, &mut row, &mut SketchScratch::default());
            if family == SketchFamily::OnePermutation {
                assert!(!updated);
                assert_eq!(row, before);
            } else {
                assert!(updated, "{family}");
                assert_eq!(row, sketcher.sketch(&union), "{family}");
            }
        }
    }

    fn random_set(rng: &mut SplitMix64, n: usize) -> Vec<u64> {
        let mut v: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for f in SketchFamily::ALL {
            assert_eq!(f.name().parse::<SketchFamily>().unwrap(), f);
            assert_eq!(f.to_string(), f.name());
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.name()));
        }
        let err = "oph".parse::<SketchFamily>().unwrap_err().to_string();
        assert!(err.contains("classic, one-permutation, c-minhash"), "{err}");
        assert_eq!(SketchFamily::default(), SketchFamily::Classic);
    }

    #[test]
    fn classic_sketch_is_the_signature_of_the_index() {
        let mut rng = SplitMix64::new(4);
        for k in [1, 64, 128, 130] {
            let sketcher = Sketcher::new(SketchFamily::Classic, k, 9);
            let family = HashFamily::new(k, 9);
            for n in [0, 1, 50, 400] {
                let set = random_set(&mut rng, n);
                let mut expected = vec![0; k];
                signature_into(&family, &set, &mut expected, &mut Vec::new());
                assert_eq!(sketcher.sketch(&set), expected, "k = {k}, n = {n}");
            }
        }
    }

    #[test]
    fn first_rows_are_the_first_rows_of_the_full_sketch() {
        let mut rng = SplitMix64::new(6);
        for family in SketchFamily::ALL {
            let full = Sketcher::new(family, 128, 11);
            let Some(prefix) = full.first_rows(52) else {
                assert_eq!(family, SketchFamily::OnePermutation);
                continue;
            };
            assert_eq!(prefix.num_perm(), 52);
            for n in [0, 1, 40, 700] {
                let set = random_set(&mut rng, n);
                assert_eq!(
                    prefix.sketch(&set),
                    full.sketch(&set)[..52],
                    "{family}, n = {n}"
                );
            }
        }
    }

    #[test]
    fn every_family_gives_k_rows_empty_sets_all_max_and_seeds_matter() {
        let mut rng = SplitMix64::new(5);
        for family in SketchFamily::ALL {
            for k in [1, 7, 128, 256] {
                let sketcher = Sketcher::new(family, k, 3);
                assert_eq!(sketcher.family(), family);
                assert_eq!(sketcher.num_perm(), k);
                assert_eq!(sketcher.sketch(&[]), vec![u32::MAX; k], "{family}");
                let set = random_set(&mut rng, 300);
                let row = sketcher.sketch(&set);
                assert_eq!(row, sketcher.sketch(&set), "{family}: deterministic");
                if k >= 7 {
                    let other = Sketcher::new(family, k, 4).sketch(&set);
                    assert_ne!(row, other, "{family}, k = {k}: another seed, other rows");
                }
                // A set equals itself in every row; a disjoint set in (almost) none.
                let disjoint = random_set(&mut rng, 300);
                let agree =
                    crate::minhash::similarity::agreeing_rows(&row, &sketcher.sketch(&disjoint));
                assert!(agree <= k / 16, "{family}, k = {k}: {agree} rows agree");
            }
        }
    }
}
