//! Documents with identical shingle sets, grouped before banding.
//!
//! Identical sets have identical signatures, so they share a bucket in every band: a template
//! copied m times costs m(m−1)/2 candidate pairs, all at Jaccard 1, that say nothing new.
//! Grouping them first (one representative with a multiplicity) makes such a family cost O(m).
//! Every candidate pair between members of two groups is a candidate between their
//! representatives in the same bands with the same Jaccard, so clusters built from the
//! representatives' pairs plus the groups equal clusters built from every pair.

use rayon::prelude::*;

use super::{ShingleSets, Signatures};

/// Which documents share a shingle set with an earlier document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdenticalGroups {
    /// For each document, the first document in input order with the same shingle set (itself
    /// when it is the first or unique). Documents without shingles stand alone: an empty set
    /// is no evidence that two documents are the same.
    representative: Vec<u32>,
    /// For each representative of a group of two or more, its group's number; `u32::MAX`
    /// for every other document.
    group: Vec<u32>,
    /// Group members in input order, grouped by representative (CSR: `offsets[g]..offsets[g+1]`
    /// indexes `members`); only groups of two or more documents.
    offsets: Vec<u32>,
    members: Vec<u32>,
}

impl IdenticalGroups {
    /// Groups the documents of `sets` by identical set: hash every set, sort by hash, and
    /// compare the sets of equal hashes, so a hash collision never merges different sets.
    pub fn find(sets: &ShingleSets) -> Self {
        Self::find_with(sets, set_hash)
    }

    fn find_with(sets: &ShingleSets, hash: impl Fn(&[u64]) -> u64 + Sync) -> Self {
        Self::from_representatives(representatives_with(sets, hash))
    }

    fn from_representatives(representative: Vec<u32>) -> Self {
        let n = representative.len();
        let mut size = vec![0u32; n];
        for &r in &representative {
            size[r as usize] += 1;
        }
        // Group g belongs to the g-th representative (in input order) with two or more members.
        let mut group = vec![u32::MAX; n];
        let mut offsets = vec![0u32];
        for d in 0..n {
            if representative[d] == d as u32 && size[d] >= 2 {
                group[d] = offsets.len() as u32 - 1;
                offsets.push(offsets.last().unwrap() + size[d]);
            }
        }
        let mut fill: Vec<u32> = offsets[..offsets.len() - 1].to_vec();
        let mut members = vec![0u32; *offsets.last().unwrap() as usize];
        for (d, &r) in representative.iter().enumerate() {
            let g = group[r as usize];
            if g != u32::MAX {
                members[fill[g as usize] as usize] = d as u32;
                fill[g as usize] += 1;
            }
        }
        IdenticalGroups {
            representative,
            group,
            offsets,
            members,
        }
    }

    /// The first document with the same shingle set as `doc` (`doc` itself when unique).
    pub fn representative(&self, doc: u32) -> u32 {
        self.representative[doc as usize]
    }

    /// True when `doc` is the first of its set (what banding keeps).
    pub fn is_representative(&self, doc: u32) -> bool {
        self.representative[doc as usize] == doc
    }

    /// Number of documents grouped.
    pub fn len(&self) -> usize {
        self.representative.len()
    }

    /// True when no document was grouped.
    pub fn is_empty(&self) -> bool {
        self.representative.is_empty()
    }

    /// Groups of two or more identical documents, each in input order (its first member is its
    /// representative), ordered by representative.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.offsets
            .windows(2)
            .map(|w| &self.members[w[0] as usize..w[1] as usize])
    }

    /// Number of documents in `doc`'s group (1 when its set is unique).
    pub fn multiplicity(&self, doc: u32) -> usize {
        match self.group[self.representative(doc) as usize] {
            u32::MAX => 1,
            g => (self.offsets[g as usize + 1] - self.offsets[g as usize]) as usize,
        }
    }

    /// The documents with the same shingle set as `doc`, in input order (`[doc]` when its set
    /// is unique).
    pub fn members_of(&self, doc: u32) -> &[u32] {
        let rep = self.representative(doc);
        match self.group[rep as usize] {
            u32::MAX => std::slice::from_ref(&self.representative[doc as usize]),
            g => {
                &self.members
                    [self.offsets[g as usize] as usize..self.offsets[g as usize + 1] as usize]
            }
        }
    }

    /// Documents that repeat an earlier document's set: what the collapse saves.
    pub fn copies(&self) -> usize {
        self.members.len() - self.groups().len()
    }

    /// Representatives in input order: the documents banding needs to see.
    pub fn representatives(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.representative.len() as u32).filter(|&d| self.is_representative(d))
    }
}

/// A 64-bit hash of a sorted set of shingle hashes (xxh3 over its bytes).
fn set_hash(set: &[u64]) -> u64 {
    xxh3_of_words(set)
}

/// Integers made of bytes only: no padding, and every byte of an initialized value is
/// initialized, so a slice of them can be read as its bytes.
///
/// # Safety
///
/// Implement it only for types without padding bytes or interior mutability (the primitive
/// unsigned integers).
unsafe trait PlainWords: Copy {}

// SAFETY: primitive integers have no padding and no interior mutability.
unsafe impl PlainWords for u32 {}
// SAFETY: as for u32.
unsafe impl PlainWords for u64 {}

/// xxh3 over the bytes of `words` as they lie in memory (native byte order, so the hash is
/// only comparable within one machine, which is all its callers need: keys compared within
/// one call). One call over the whole slice: xxh3's streaming form, fed one word at a time,
/// is slower.
fn xxh3_of_words<T: PlainWords>(words: &[T]) -> u64 {
    // SAFETY: `words` is a live, initialized slice of `size_of_val(words)` bytes, and
    // `PlainWords` promises those bytes hold no padding, so all are initialized; `u8` needs
    // alignment 1; the byte slice borrows `words` and lives no longer; nothing can write
    // through a shared slice of a type without interior mutability while it lives.
    let bytes =
        unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), size_of_val(words)) };
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// For each document, the first document (in input order) with the same shingle set: itself
/// when its set is new. Documents without shingles stay their own.
pub(crate) fn first_of_each_set(sets: &ShingleSets) -> Vec<u32> {
    representatives_with(sets, set_hash)
}

/// [`first_of_each_set`] with the hash given: sets are keyed by `hash`, sorted, and only sets
/// of equal keys are compared, so a hash collision never makes two different sets one.
fn representatives_with(sets: &ShingleSets, hash: impl Fn(&[u64]) -> u64 + Sync) -> Vec<u32> {
    first_of_equal(
        sets.len(),
        |d| !sets.get(d).is_empty(),
        |d| hash(sets.get(d)),
        |a, b| sets.get(a) == sets.get(b),
    )
}

/// For each document, the first document (in input order) whose first `values` signature
/// values equal its own: itself when they are new. Documents without shingles stay their own.
/// Documents with equal leading values share a bucket in every band of a banding that reads
/// only those values, so banding can key one document of each and count the rest.
pub(crate) fn first_of_each_row(sigs: &Signatures, values: usize) -> Vec<u32> {
    let leading = |d: usize| &sigs.row(d)[..values];
    first_of_equal(
        sigs.len(),
        |d| !sigs.is_empty_doc(d),
        |d| xxh3_of_words(leading(d)),
        |a, b| leading(a) == leading(b),
    )
}

/// For each of `n` documents, the first document in input order that `equal` says is the
/// same: documents that `include` keeps are keyed by `key`, sorted, and only those of equal
/// keys are compared, so a key collision never makes two different documents one. Documents
/// left out stay their own.
fn first_of_equal(
    n: usize,
    include: impl Fn(usize) -> bool + Sync,
    key: impl Fn(usize) -> u64 + Sync,
    equal: impl Fn(usize, usize) -> bool,
) -> Vec<u32> {
    let mut keyed: Vec<(u64, u32)> = (0..n as u32)
        .into_par_iter()
        .filter(|&d| include(d as usize))
        .map(|d| (key(d as usize), d))
        .collect();
    keyed.par_sort_unstable();
    let mut representative: Vec<u32> = (0..n as u32).collect();
    for run in keyed.chunk_by(|x, y| x.0 == y.0) {
        // Within one key the documents come in input order; each takes the first earlier
        // document that is equal (nearly always the run's first).
        for (k, &(_, d)) in run.iter().enumerate().skip(1) {
            if let Some(&(_, first)) = run[..k]
                .iter()
                .find(|&&(_, e)| representative[e as usize] == e && equal(e as usize, d as usize))
            {
                representative[d as usize] = first;
            }
        }
    }
    representative
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(v: &[&[u64]]) -> ShingleSets {
        ShingleSets::from_sets(&v.iter().map(|s| s.to_vec()).collect::<Vec<_>>())
    }

    #[test]
    fn identical_sets_share_the_first_as_representative() {
        let s = sets(&[&[1, 2], &[3], &[1, 2], &[], &[], &[3], &[1, 2], &[1, 2, 3]]);
        let g = IdenticalGroups::find(&s);
        let reps: Vec<u32> = (0..8).map(|d| g.representative(d)).collect();
        assert_eq!(reps, [0, 1, 0, 3, 4, 1, 0, 7], "empty sets stay apart");
        let groups: Vec<&[u32]> = g.groups().collect();
        assert_eq!(groups, [&[0u32, 2, 6][..], &[1, 5]]);
        assert_eq!(g.copies(), 3);
        assert_eq!(
            (g.multiplicity(6), g.multiplicity(5), g.multiplicity(7)),
            (3, 2, 1)
        );
        assert_eq!(g.representatives().collect::<Vec<_>>(), [0, 1, 3, 4, 7]);
        assert_eq!(
            (g.members_of(6), g.members_of(5)),
            (&[0u32, 2, 6][..], &[1u32, 5][..])
        );
        assert_eq!(
            (g.members_of(7), g.members_of(3)),
            (&[7u32][..], &[3u32][..])
        );
    }

    #[test]
    fn word_hashes_are_xxh3_of_the_native_bytes() {
        // The byte view must give exactly the bytes of the values, in order and no more:
        // compare it with the bytes copied out one value at a time.
        let set = [1u64, 0x0102_0304_0506_0708, u64::MAX];
        let copied: Vec<u8> = set.iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(set_hash(&set), xxhash_rust::xxh3::xxh3_64(&copied));
        let row = [7u32, 0xdead_beef, 0];
        let copied: Vec<u8> = row.iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(xxh3_of_words(&row), xxhash_rust::xxh3::xxh3_64(&copied));
        assert_eq!(set_hash(&[]), xxhash_rust::xxh3::xxh3_64(&[]));
    }

    #[test]
    fn equal_hashes_of_different_sets_are_not_merged() {
        // Every set hashes alike: only the comparison of the sets tells them apart.
        let s = sets(&[&[5], &[6], &[5], &[6], &[7], &[6]]);
        let g = IdenticalGroups::find_with(&s, |_| 42);
        let reps: Vec<u32> = (0..6).map(|d| g.representative(d)).collect();
        assert_eq!(reps, [0, 1, 0, 1, 4, 1]);
        assert_eq!(g.groups().collect::<Vec<_>>(), [&[0u32, 2][..], &[1, 3, 5]]);
    }
}
