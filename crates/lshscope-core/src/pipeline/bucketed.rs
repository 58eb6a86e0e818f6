//! A banding's candidates as buckets, not pairs, and a uniform sampler over them.
//!
//! Identical shingle sets are collapsed first ([`CollapsedDocs`]: one representative with a
//! multiplicity), then each band keeps its buckets of representatives ([`WeightedBand`]) with
//! the cumulative multiplicities of their members. A bucket holding representatives of
//! multiplicities m₁ … m_k stands for M(M−1)/2 document pairs, M = Σ mᵢ (pairs of copies of
//! one set included), so the number of bucket-pair occurrences of a banding is exact from the
//! buckets, and an occurrence can be drawn uniformly: a bucket with probability ∝ its pairs,
//! then two distinct documents of it uniformly. Memory follows documents × bands (see
//! [`CandidateBuckets::heap_bytes`]), however many pairs the buckets stand for.
//!
//! Bands are cached by (rows, band) in a [`BandCache`]: band k of b × r uses rows
//! k·r … (k+1)·r whatever b is, so a b step builds one band, not b.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use rayon::prelude::*;

use crate::Result;
use crate::jobs::{Phase, Progress};
use crate::minhash::{Banding, IdenticalGroups, Index, band_keys};
use crate::util::rng::{PairHasher, SplitMix64};

/// Identical documents as representatives with multiplicities, and each group's members.
#[derive(Debug, Clone, Default)]
pub struct CollapsedDocs {
    /// For each document: its group's number when it represents a group of two or more,
    /// `u32::MAX` for every other document.
    slot: Vec<u32>,
    /// Members of group g (input order, representative first): `members[offsets[g]..offsets[g+1]]`.
    offsets: Vec<u32>,
    members: Vec<u32>,
    /// For each document, the first document with its shingle set (itself when unique).
    representative: Vec<u32>,
    copies: usize,
}

impl CollapsedDocs {
    /// The collapsed form of `groups`: each group's first document stands for all its members.
    pub fn new(groups: &IdenticalGroups) -> Self {
        let n = groups.len();
        let mut slot = vec![u32::MAX; n];
        let mut offsets = vec![0u32];
        let mut members = Vec::new();
        for (g, group) in groups.groups().enumerate() {
            slot[group[0] as usize] = g as u32;
            members.extend_from_slice(group);
            offsets.push(members.len() as u32);
        }
        CollapsedDocs {
            slot,
            offsets,
            members,
            representative: (0..n as u32).map(|d| groups.representative(d)).collect(),
            copies: groups.copies(),
        }
    }

    /// Number of documents with the same set as representative `rep` (1 when unique).
    pub fn multiplicity(&self, rep: u32) -> u32 {
        match self.slot[rep as usize] {
            u32::MAX => 1,
            g => self.offsets[g as usize + 1] - self.offsets[g as usize],
        }
    }

    /// The `k`-th document (input order) with the set of representative `rep`.
    pub fn member(&self, rep: u32, k: u32) -> u32 {
        match self.slot[rep as usize] {
            u32::MAX => rep,
            g => self.members[(self.offsets[g as usize] + k) as usize],
        }
    }

    /// True when `doc` is the first document with its shingle set (every unique document is).
    pub fn is_representative(&self, doc: u32) -> bool {
        self.representative[doc as usize] == doc
    }

    /// The first document with the same shingle set as `doc` (`doc` itself when unique).
    pub fn representative(&self, doc: u32) -> u32 {
        self.representative[doc as usize]
    }

    /// True when another document has `doc`'s shingle set.
    pub fn has_copies(&self, doc: u32) -> bool {
        self.multiplicity(self.representative(doc)) > 1
    }

    /// Documents that repeat an earlier document's set.
    pub fn copies(&self) -> usize {
        self.copies
    }

    /// Bytes held on the heap (capacity), for the explorer's memory budget.
    pub fn heap_bytes(&self) -> usize {
        (self.slot.capacity()
            + self.offsets.capacity()
            + self.members.capacity()
            + self.representative.capacity())
            * 4
    }
}

/// The buckets of one band that stand for at least one document pair, over representatives.
#[derive(Debug, Clone, Default)]
pub struct WeightedBand {
    /// Members of bucket k: `members[starts[k]..starts[k + 1]]` (representatives, input order).
    starts: Vec<u32>,
    members: Vec<u32>,
    /// For each member, the multiplicities of its bucket's members up to and including it.
    cumulative: Vec<u32>,
    /// For bucket k, the document pairs of buckets 0..=k (M(M−1)/2 each).
    pairs_through: Vec<u64>,
    /// The largest bucket, in documents.
    largest: u64,
}

impl WeightedBand {
    /// The buckets of band `band` of `banding` over the representatives of `docs`.
    pub fn build(index: &Index, docs: &CollapsedDocs, banding: Banding, band: usize) -> Self {
        let keys = band_keys(&index.signatures, banding, band);
        let mut out = WeightedBand {
            starts: vec![0],
            ..Default::default()
        };
        let mut total = 0u64;
        for run in keys.chunk_by(|x, y| x.0 == y.0) {
            // A bucket of one document with no copies stands for no pair.
            if run.len() == 1 && docs.multiplicity(run[0].1) == 1 {
                continue;
            }
            let mark = out.members.len();
            let mut size = 0u32;
            for &(_, d) in run {
                if docs.is_representative(d) {
                    size += docs.multiplicity(d);
                    out.members.push(d);
                    out.cumulative.push(size);
                }
            }
            if size < 2 {
                out.members.truncate(mark);
                out.cumulative.truncate(mark);
                continue;
            }
            let m = size as u64;
            total += crate::minhash::pairs_among(m);
            out.largest = out.largest.max(m);
            out.starts.push(out.members.len() as u32);
            out.pairs_through.push(total);
        }
        out.members.shrink_to_fit();
        out.cumulative.shrink_to_fit();
        out.starts.shrink_to_fit();
        out.pairs_through.shrink_to_fit();
        out
    }

    /// Document pairs over all buckets of this band.
    pub fn pairs(&self) -> u64 {
        self.pairs_through.last().copied().unwrap_or(0)
    }

    /// Buckets listed (those standing for at least one pair).
    pub fn buckets(&self) -> usize {
        self.pairs_through.len()
    }

    /// Bytes held on the heap (capacity), for the explorer's memory budget.
    pub fn heap_bytes(&self) -> usize {
        (self.starts.capacity() + self.members.capacity() + self.cumulative.capacity()) * 4
            + self.pairs_through.capacity() * 8
    }

    /// The documents of occurrence number `occurrence` (< [`Self::pairs`]): its bucket,
    /// then two distinct documents of it drawn with `rng`. Returns each document as
    /// (representative, which copy).
    fn draw(&self, occurrence: u64, rng: &mut SplitMix64) -> ((u32, u32), (u32, u32)) {
        let k = self.pairs_through.partition_point(|&p| p <= occurrence);
        let (lo, hi) = (self.starts[k] as usize, self.starts[k + 1] as usize);
        let cumulative = &self.cumulative[lo..hi];
        let size = *cumulative.last().expect("a listed bucket has members") as u64;
        let first = rng.below(size);
        let mut second = rng.below(size - 1);
        if second >= first {
            second += 1;
        }
        let locate = |i: u64| {
            let m = cumulative.partition_point(|&c| c as u64 <= i);
            let before = if m == 0 { 0 } else { cumulative[m - 1] };
            (self.members[lo + m], i as u32 - before)
        };
        (locate(first), locate(second))
    }
}

/// Bands built so far, by (rows, band): a b step reuses every band but the new one.
#[derive(Debug, Default)]
pub struct BandCache {
    /// The identical groups and their collapsed form, found on first use.
    docs: Mutex<Option<(Arc<IdenticalGroups>, Arc<CollapsedDocs>)>>,
    bands: Mutex<HashMap<(usize, usize), Arc<WeightedBand>>>,
}

impl BandCache {
    /// An empty cache; bands are built and kept on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// The identical groups of `index`, found on first use.
    pub fn docs(&self, index: &Index) -> Arc<CollapsedDocs> {
        let mut docs = self.docs.lock().unwrap_or_else(|e| e.into_inner());
        let (_, collapsed) = docs.get_or_insert_with(|| {
            let groups = IdenticalGroups::find(&index.sets);
            let collapsed = Arc::new(CollapsedDocs::new(&groups));
            (Arc::new(groups), collapsed)
        });
        Arc::clone(collapsed)
    }

    /// The identical groups, when some job has found them already (never finds them: cheap
    /// enough for the UI thread), for other jobs over the same corpus.
    pub fn found_groups(&self) -> Option<Arc<IdenticalGroups>> {
        let docs = self.docs.lock().unwrap_or_else(|e| e.into_inner());
        docs.as_ref().map(|(groups, _)| Arc::clone(groups))
    }

    /// The buckets of `banding` over `index`, building the bands not cached yet (in
    /// parallel). Only bands with `banding.rows` rows stay cached afterwards, so the cache
    /// holds at most one banding's worth of memory (for the widest b asked at this r).
    pub fn buckets(
        &self,
        index: &Index,
        banding: Banding,
        progress: &Progress,
    ) -> Result<CandidateBuckets> {
        self.buckets_by(index, banding, None, progress)
    }

    /// [`Self::buckets`], but when `deadline` passes before every band is built, the buckets
    /// of the bands built so far (the first k, at least two when b ≥ 2): a sample of the
    /// banding's bands for a first estimate ([`CandidateBuckets::bands_built`]). Bands are
    /// built in order, a batch of one per thread at a time, and stay cached for the next call.
    pub fn buckets_by(
        &self,
        index: &Index,
        banding: Banding,
        deadline: Option<Instant>,
        progress: &Progress,
    ) -> Result<CandidateBuckets> {
        let docs = self.docs(index);
        progress.begin(Phase::Banding, banding.bands as u64);
        let mut built: Vec<Option<Arc<WeightedBand>>> = {
            let mut bands = self.bands.lock().unwrap_or_else(|e| e.into_inner());
            bands.retain(|&(rows, _), _| rows == banding.rows);
            (0..banding.bands)
                .map(|k| bands.get(&(banding.rows, k)).cloned())
                .collect()
        };
        progress.advance(built.iter().filter(|b| b.is_some()).count() as u64);
        let batch = match deadline {
            Some(_) => rayon::current_num_threads().max(2),
            None => banding.bands,
        };
        let mut ready = 0;
        while ready < banding.bands {
            let past = deadline.is_some_and(|d| Instant::now() >= d);
            if past && ready >= 2 {
                break;
            }
            let end = (ready + batch).min(banding.bands);
            let fresh: Vec<Arc<WeightedBand>> = built[ready..end]
                .par_iter()
                .enumerate()
                .map(|(i, band)| {
                    progress.check()?;
                    Ok(match band {
                        Some(band) => Arc::clone(band),
                        None => {
                            let band = WeightedBand::build(index, &docs, banding, ready + i);
                            progress.advance(1);
                            Arc::new(band)
                        }
                    })
                })
                .collect::<Result<_>>()?;
            {
                let mut bands = self.bands.lock().unwrap_or_else(|e| e.into_inner());
                for (i, band) in fresh.iter().enumerate() {
                    bands
                        .entry((banding.rows, ready + i))
                        .or_insert_with(|| Arc::clone(band));
                }
            }
            for (i, band) in fresh.into_iter().enumerate() {
                built[ready + i] = Some(band);
            }
            ready = end;
            // Bands already cached further on cost nothing: take them now.
            while ready < banding.bands && built[ready].is_some() {
                ready += 1;
            }
        }
        let bands = built
            .into_iter()
            .take(ready)
            .map(|b| b.expect("built"))
            .collect();
        Ok(CandidateBuckets::new(banding, docs, bands))
    }
}

/// Every bucket of a banding, over representatives with multiplicities (or of its first k
/// bands, see [`BandCache::buckets_by`]).
#[derive(Debug, Clone)]
pub struct CandidateBuckets {
    /// The b × r the buckets are for.
    pub banding: Banding,
    docs: Arc<CollapsedDocs>,
    /// Bands 0..k of `banding` (k = b unless built against a deadline).
    bands: Vec<Arc<WeightedBand>>,
    /// Document pairs in bands 0..=k.
    pairs_through: Vec<u64>,
}

impl CandidateBuckets {
    /// The buckets of `banding` from its first `bands.len()` bands (all b of them unless built
    /// against a deadline), over the representatives of `docs`.
    pub fn new(banding: Banding, docs: Arc<CollapsedDocs>, bands: Vec<Arc<WeightedBand>>) -> Self {
        let pairs_through = bands
            .iter()
            .scan(0u64, |total, band| {
                *total += band.pairs();
                Some(*total)
            })
            .collect();
        CandidateBuckets {
            banding,
            docs,
            bands,
            pairs_through,
        }
    }

    /// The buckets of `banding`, built without a cache (tests, one-off callers).
    pub fn build(index: &Index, banding: Banding, progress: &Progress) -> Result<Self> {
        BandCache::new().buckets(index, banding, progress)
    }

    /// Bands built, k of the banding's b: occurrences and draws cover only these.
    pub fn bands_built(&self) -> usize {
        self.bands.len()
    }

    /// Bucket-pair occurrences over the bands built: document pairs sharing a bucket, counted
    /// once per band they share one in (exactly what enumerating the buckets would emit).
    pub fn occurrences(&self) -> u64 {
        self.pairs_through.last().copied().unwrap_or(0)
    }

    /// Buckets listed over all bands.
    pub fn buckets(&self) -> usize {
        self.bands.iter().map(|b| b.buckets()).sum()
    }

    /// The largest bucket of any band, in documents.
    pub fn largest_bucket(&self) -> u64 {
        self.bands.iter().map(|b| b.largest).max().unwrap_or(0)
    }

    /// Memory held: the bands and the identical groups (bounded by about 8 bytes per
    /// document and band plus 12 per bucket, and 12 per document).
    pub fn heap_bytes(&self) -> usize {
        self.bands.iter().map(|b| b.heap_bytes()).sum::<usize>()
            + self.docs.heap_bytes()
            + self.pairs_through.capacity() * 8
    }

    /// The identical groups the buckets' representatives stand for.
    pub fn docs(&self) -> &CollapsedDocs {
        &self.docs
    }

    /// Draws one occurrence uniformly: its two documents (input positions, a < b) and their
    /// representatives. `None` when there is no occurrence at all.
    pub fn draw(&self, rng: &mut SplitMix64) -> Option<DrawnPair> {
        let total = self.occurrences();
        if total == 0 {
            return None;
        }
        let occurrence = rng.below(total);
        let band = self.pairs_through.partition_point(|&p| p <= occurrence);
        let before = if band == 0 {
            0
        } else {
            self.pairs_through[band - 1]
        };
        let ((rep_x, copy_x), (rep_y, copy_y)) = self.bands[band].draw(occurrence - before, rng);
        let (x, y) = (
            self.docs.member(rep_x, copy_x),
            self.docs.member(rep_y, copy_y),
        );
        let (reps, docs) = if x < y {
            ((rep_x, rep_y), (x, y))
        } else {
            ((rep_y, rep_x), (y, x))
        };
        Some(DrawnPair {
            docs,
            reps,
            band: band as u32,
        })
    }
}

/// One drawn bucket-pair occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnPair {
    /// The two documents, a < b.
    pub docs: (u32, u32),
    /// Their representatives (equal when the two are copies of one set).
    pub reps: (u32, u32),
    /// The band of the occurrence.
    pub band: u32,
}

/// Exact Jaccard of representative pairs seen so far, so moving between bandings verifies a
/// pair once. Bounded: past [`JaccardCache::CAPACITY`] entries it starts over.
#[derive(Debug, Default)]
pub struct JaccardCache {
    map: RwLock<HashMap<u64, f64, BuildHasherDefault<PairHasher>>>,
}

impl JaccardCache {
    /// About 64 MB of entries.
    pub const CAPACITY: usize = 2_000_000;

    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn key(a: u32, b: u32) -> u64 {
        ((a.min(b) as u64) << 32) | a.max(b) as u64
    }

    /// The cached Jaccard of the pair `a`, `b` (in either order), or `None` when not computed yet.
    pub fn get(&self, a: u32, b: u32) -> Option<f64> {
        let map = self.map.read().unwrap_or_else(|e| e.into_inner());
        map.get(&Self::key(a, b)).copied()
    }

    /// Caches each (a, b, Jaccard); when the cache reaches [`JaccardCache::CAPACITY`] entries it is
    /// emptied and starts again, so memory stays bounded.
    pub fn insert_all(&self, entries: impl IntoIterator<Item = (u32, u32, f64)>) {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        for (a, b, j) in entries {
            if map.len() >= Self::CAPACITY {
                map.clear();
            }
            map.insert(Self::key(a, b), j);
        }
    }

    /// Pairs cached.
    pub fn len(&self) -> usize {
        self.map.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// True when no pair is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{BandingOptions, IndexOptions, build_index, find_candidates};

    fn index_of(texts: &[String]) -> Index {
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap()
    }

    #[test]
    fn occurrences_equal_the_enumerated_bucket_pairs() {
        let mut texts: Vec<String> = (0..80)
            .map(|i| format!("a notice about item {} in colour {}", i % 9, i % 4))
            .collect();
        texts.extend(std::iter::repeat_n("one line copied often".to_string(), 7));
        texts.push(String::new());
        let index = index_of(&texts);
        let cache = BandCache::new();
        for banding in [
            Banding::new(16, 2, 128).unwrap(),
            Banding::new(9, 2, 128).unwrap(),
        ] {
            let buckets = cache.buckets(&index, banding, &Progress::new()).unwrap();
            let enumerated = find_candidates(
                &index.signatures,
                &BandingOptions {
                    banding,
                    max_bucket: None,
                },
                &Progress::new(),
            )
            .unwrap();
            assert_eq!(buckets.occurrences(), enumerated.bucket_pairs, "{banding}");
            let mut rng = SplitMix64::new(3);
            for _ in 0..500 {
                let d = buckets.draw(&mut rng).unwrap();
                assert!(d.docs.0 < d.docs.1);
                assert!(
                    enumerated
                        .pairs
                        .binary_search_by(|p| (p.a, p.b).cmp(&d.docs))
                        .is_ok(),
                    "a drawn pair is a candidate"
                );
            }
        }
        // The 9-band banding reused the 16-band one's bands 0..9 (same r).
        assert_eq!(cache.bands.lock().unwrap().len(), 16);
    }
}
