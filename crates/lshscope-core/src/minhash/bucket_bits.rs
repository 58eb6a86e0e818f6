//! One bucket's shingle sets as bitmaps over what its members share.
//!
//! A value in the intersection of two members' sets is, by definition, in at least two
//! members' sets. So within one bucket every |A ∩ B| can be counted over the values two or
//! more members hold, numbered 0..S: each member's set becomes an S-bit map and |A ∩ B| is the
//! population count of the two maps' AND, exactly.
//!
//! Where a bucket gathers documents that share one boilerplate, one common phrase or one
//! template, S is small next to the members' sets (job ads: buckets of 100 ads of about 1,100
//! shingles each share about 9,000 values, 144 words a map), the maps of the whole bucket sit
//! in L2, and a pair costs a few vector instructions instead of a merge of two sets read from
//! memory. Numbering the values passes every member's set through a hash table once, so the
//! stream maps a bucket only once its merges there have cost about as much
//! (`stream::BUILD_PER_ENTRY`).

use super::index::Index;

/// The bitmaps of one bucket's members, by position in the bucket.
#[derive(Debug, Default)]
pub(crate) struct BucketBits {
    /// Words per member's map (a multiple of 8, so the vector loop has no tail), and the maps,
    /// member after member.
    words_per_map: usize,
    maps: Vec<u64>,
    /// Each member's set size (for the Jaccard's union).
    sizes: Vec<u32>,
    /// The build's scratch: a hash table of the keys met, and (shared id, position) per key
    /// two or more members hold.
    table: Vec<Slot>,
    shared: Vec<(u32, u32)>,
}

/// A key of [`BucketBits`]'s table: the first position holding it and, once a second one
/// does, its shared id.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u64,
    first: u32,
    id: u32,
}

/// An empty slot (no position is `u32::MAX`: a bucket has fewer members).
const EMPTY: Slot = Slot {
    key: 0,
    first: u32::MAX,
    id: u32::MAX,
};

/// Buckets whose members hold more values than this are not mapped: the table takes 16 bytes
/// twice over or more for each (64 MB here).
const MOST_ENTRIES: usize = 1 << 21;

/// Bitmaps above this many bytes for one bucket are not built (the merge path takes it).
const MOST_BYTES: usize = 64 << 20;

impl BucketBits {
    /// The values [`BucketBits::build`] numbers for `members`.
    pub(crate) fn entries(index: &Index, members: &[u32]) -> u64 {
        members
            .iter()
            .map(|&d| index.sets.get(d as usize).len() as u64)
            .sum()
    }

    /// Frees the build's scratch (for maps kept while other work goes on).
    pub(crate) fn drop_scratch(&mut self) {
        self.table = Vec::new();
        self.shared = Vec::new();
    }

    /// Bytes the maps hold.
    pub(crate) fn bytes(&self) -> usize {
        self.maps.capacity() * 8
            + self.sizes.capacity() * 4
            + self.table.capacity() * std::mem::size_of::<Slot>()
            + self.shared.capacity() * 8
    }

    /// Maps the sets of `members` (a bucket, in document order) of `index`, reusing this
    /// value's memory. False when the maps would be too large (then nothing is mapped).
    pub(crate) fn build(&mut self, index: &Index, members: &[u32]) -> bool {
        let n = members.len();
        debug_assert!(
            members.is_sorted(),
            "a bucket's members are in document order"
        );
        self.sizes.clear();
        self.sizes.extend(
            members
                .iter()
                .map(|&d| index.sets.get(d as usize).len() as u32),
        );
        let values = self.sizes.iter().map(|&s| s as usize).sum();
        let Some(words) = self.number_shared(index, members, values) else {
            return false;
        };
        self.words_per_map = words;
        fill(&self.shared, words, n, &mut self.maps);
        true
    }

    /// Numbers the values two or more of `members` hold (`entries` values in all), into
    /// `self.shared` as (id, position) per member holding one; returns the words per member's
    /// map (a multiple of 8), or None when the table or the maps would be too large.
    fn number_shared(&mut self, index: &Index, members: &[u32], entries: usize) -> Option<usize> {
        if entries > MOST_ENTRIES {
            return None;
        }
        // A table at most half full, so probes stay short.
        let log = (2 * entries).next_power_of_two().trailing_zeros().max(4);
        let mask = (1usize << log) - 1;
        self.table.clear();
        self.table.resize(1 << log, EMPTY);
        self.shared.clear();
        let mut next_id = 0u32;
        let keys = members.iter().enumerate().flat_map(|(p, &d)| {
            let set = index.sets.get(d as usize);
            set.iter().map(move |&key| (key, p as u32))
        });
        for (key, p) in keys {
            // Fibonacci hashing, so that no key's bits are trusted to be random.
            let mut s = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - log)) as usize;
            loop {
                let slot = &mut self.table[s];
                if slot.first == u32::MAX {
                    *slot = Slot {
                        key,
                        first: p,
                        id: u32::MAX,
                    };
                    break;
                }
                if slot.key == key {
                    if slot.id == u32::MAX {
                        slot.id = next_id;
                        next_id += 1;
                        self.shared.push((slot.id, slot.first));
                    }
                    self.shared.push((slot.id, p));
                    break;
                }
                s = (s + 1) & mask;
            }
        }
        let words = (next_id as usize).div_ceil(64).div_ceil(8).max(1) * 8;
        (words.saturating_mul(members.len()).saturating_mul(8) <= MOST_BYTES).then_some(words)
    }

    /// |A ∩ B| of the members at positions `p` and `q`.
    #[inline]
    pub(crate) fn intersection(&self, p: usize, q: usize) -> usize {
        let w = self.words_per_map;
        and_count(
            &self.maps[p * w..(p + 1) * w],
            &self.maps[q * w..(q + 1) * w],
        )
    }

    /// |A| + |B| of the members at positions `p` and `q`.
    #[inline]
    pub(crate) fn size_sum(&self, p: usize, q: usize) -> usize {
        self.sizes[p] as usize + self.sizes[q] as usize
    }
}

/// The maps of `n` members, `words` each, from (shared id, position) entries.
fn fill(shared: &[(u32, u32)], words: usize, n: usize, bits: &mut Vec<u64>) {
    bits.clear();
    bits.resize(words * n, 0);
    for &(id, p) in shared {
        let id = id as usize;
        bits[p as usize * words + id / 64] |= 1 << (id % 64);
    }
}

/// Population count of `x & y` (equal lengths, a multiple of 8 words).
#[inline]
fn and_count(x: &[u64], y: &[u64]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
        {
            // SAFETY: the CPU supports the features the function was compiled for.
            return unsafe { and_count_avx512(x, y) };
        }
    }
    x.iter()
        .zip(y)
        .map(|(a, b)| (a & b).count_ones() as usize)
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
unsafe fn and_count_avx512(x: &[u64], y: &[u64]) -> usize {
    use std::arch::x86_64::*;
    assert!(x.len() == y.len() && x.len().is_multiple_of(8));
    let mut total = _mm512_setzero_si512();
    for i in (0..x.len()).step_by(8) {
        // SAFETY: i + 8 <= len of both (checked above).
        let (a, b) = unsafe {
            (
                _mm512_loadu_si512(x.as_ptr().add(i).cast()),
                _mm512_loadu_si512(y.as_ptr().add(i).cast()),
            )
        };
        total = _mm512_add_epi64(total, _mm512_popcnt_epi64(_mm512_and_si512(a, b)));
    }
    _mm512_reduce_add_epi64(total) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::jobs::Progress;
    use crate::minhash::similarity::intersection_size;
    use crate::minhash::{IndexOptions, build_index};

    /// Every pair's intersection from the maps equals the merge's, on a bucket of copies, near
    /// copies and unrelated texts, and on a part of it.
    #[test]
    fn maps_count_what_the_sets_hold() {
        let texts: Vec<String> = (0..300)
            .map(|i| match i % 5 {
                0 => "the same notice on every page of the site".to_string(),
                1 | 2 => format!(
                    "an ad for role {} in town {} with pay {}",
                    i % 7,
                    i % 11,
                    i % 3
                ),
                3 => format!("nothing like the others {i} {}", i * 31 % 977),
                _ => String::new(),
            })
            .collect();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let members: Vec<u32> = (0..index.len() as u32).step_by(2).collect();
        let mut bits = BucketBits::default();
        assert!(bits.build(&index, &members));
        for p in 0..members.len() {
            for q in p + 1..members.len() {
                let (a, b) = (members[p] as usize, members[q] as usize);
                let (x, y) = (index.sets.get(a), index.sets.get(b));
                assert_eq!(bits.intersection(p, q), intersection_size(x, y), "{a} {b}");
                assert_eq!(bits.size_sum(p, q), x.len() + y.len());
            }
        }
        // The same value mapped again, for a smaller bucket.
        let part = &members[10..50];
        assert!(bits.build(&index, part));
        for p in 0..part.len() {
            for q in p + 1..part.len() {
                let (x, y) = (
                    index.sets.get(part[p] as usize),
                    index.sets.get(part[q] as usize),
                );
                assert_eq!(bits.intersection(p, q), intersection_size(x, y));
            }
        }
    }
}
