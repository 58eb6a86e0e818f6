//! Shingle sets and signatures for a whole corpus, built in one parallel pass.

use rayon::prelude::*;

use super::sketch::{SketchFamily, SketchScratch, Sketcher};
use crate::corpus::Corpus;
use crate::jobs::{Phase, Progress};
use crate::terms::Message;
use crate::terms::Setting::{Family, NumPerm};
use crate::text::{SetBuilder, ShingleOptions, Shingler};
use crate::{Error, Result};

/// Documents per chunk of work: big enough to amortize scheduling, small enough for smooth
/// progress and for cancellation to be felt quickly.
const CHUNK_DOCS: usize = 2048;

/// Every document's sorted, de-duplicated set of 64-bit shingle hashes, in CSR layout.
///
/// The layout is chunked CSR: one offsets array and one flat value array per chunk of
/// `CHUNK_DOCS` documents. Building one global flat array would need a second full copy of all
/// sets at the moment of concatenation (the largest structure we hold), which would break the
/// peak-memory budget; chunks are written once by the worker that computed them.
#[derive(Debug, Clone, Default)]
pub struct ShingleSets {
    chunks: Vec<SetChunk>,
    len: usize,
}

#[derive(Debug, Clone, Default)]
struct SetChunk {
    /// `offsets[i]..offsets[i + 1]` indexes `values` for document i of the chunk.
    offsets: Vec<u32>,
    values: Vec<u64>,
}

impl ShingleSets {
    /// Number of documents, those without shingles included.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no documents.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sorted shingle-hash set of document `i`.
    #[inline]
    pub fn get(&self, i: usize) -> &[u64] {
        let chunk = &self.chunks[i / CHUNK_DOCS];
        let j = i % CHUNK_DOCS;
        &chunk.values[chunk.offsets[j] as usize..chunk.offsets[j + 1] as usize]
    }

    /// Total number of (document, distinct shingle) entries.
    pub fn total(&self) -> usize {
        self.chunks.iter().map(|c| c.values.len()).sum()
    }

    /// Bytes the sets hold on the heap (capacity, not length), for memory reports.
    pub fn heap_bytes(&self) -> usize {
        self.chunks
            .iter()
            .map(|c| c.values.capacity() * 8 + c.offsets.capacity() * 4)
            .sum()
    }

    /// Appends one document's set (sorted and de-duplicated, as every set here is).
    pub fn push(&mut self, set: &[u64]) {
        debug_assert!(
            set.windows(2).all(|w| w[0] < w[1]),
            "a sorted, distinct set"
        );
        if self.len.is_multiple_of(CHUNK_DOCS) {
            self.chunks.push(SetChunk {
                offsets: vec![0],
                values: Vec::new(),
            });
        }
        let chunk = self.chunks.last_mut().expect("a chunk was just ensured");
        chunk.values.extend_from_slice(set);
        chunk.offsets.push(chunk.values.len() as u32);
        self.len += 1;
    }

    /// Sets for explicit documents (tests and small tools).
    pub fn from_sets(sets: &[Vec<u64>]) -> Self {
        let mut out = ShingleSets::default();
        for group in sets.chunks(CHUNK_DOCS) {
            let mut chunk = SetChunk {
                offsets: vec![0],
                values: Vec::new(),
            };
            for set in group {
                let mut s = set.clone();
                s.sort_unstable();
                s.dedup();
                chunk.values.extend_from_slice(&s);
                chunk.offsets.push(chunk.values.len() as u32);
            }
            out.chunks.push(chunk);
        }
        out.len = sets.len();
        out
    }
}

/// The N × K MinHash matrix, row-major, one contiguous allocation.
///
/// Elements are `u32`: the permutations produce 32-bit values, so two distinct minima tie
/// with probability about 2^-32 per row (no measurable bias), at half the memory and twice the
/// SIMD width of `u64`. A million documents at K = 128 take 512 MB.
#[derive(Debug, Clone, Default)]
pub struct Signatures {
    k: usize,
    data: Vec<u32>,
    /// Documents with no shingle at all: their rows are all `u32::MAX` and they never collide.
    empty: Vec<bool>,
}

impl Signatures {
    /// K, the length of every signature.
    pub fn num_perm(&self) -> usize {
        self.k
    }

    /// N, the number of documents (rows).
    pub fn len(&self) -> usize {
        self.empty.len()
    }

    /// True when there are no documents.
    pub fn is_empty(&self) -> bool {
        self.empty.is_empty()
    }

    /// The K values of document `i`'s signature (all `u32::MAX` for a document without
    /// shingles). Panics when `i` is not below [`Signatures::len`].
    #[inline]
    pub fn row(&self, i: usize) -> &[u32] {
        &self.data[i * self.k..(i + 1) * self.k]
    }

    /// True when document `i` has no shingles (it is never a candidate).
    #[inline]
    pub fn is_empty_doc(&self, i: usize) -> bool {
        self.empty[i]
    }

    /// Bytes the matrix and flags hold on the heap (capacity, not length), for memory reports.
    pub fn heap_bytes(&self) -> usize {
        self.data.capacity() * 4 + self.empty.capacity()
    }

    /// Appends the signatures of `other` (same K) after these.
    pub fn append(&mut self, other: &Signatures) {
        assert_eq!(self.k, other.k, "signatures of one K");
        self.data.extend_from_slice(&other.data);
        self.empty.extend_from_slice(&other.empty);
    }

    /// Signatures from their rows (N × K, row-major) and the shingleless flags, as stored in a
    /// file; `None` when the lengths disagree.
    pub fn from_rows(k: usize, data: Vec<u32>, empty: Vec<bool>) -> Option<Signatures> {
        (k > 0 && data.len() == empty.len() * k).then_some(Signatures { k, data, empty })
    }

    /// The rows, row-major (N × K), for storing.
    pub fn rows(&self) -> &[u32] {
        &self.data
    }

    /// The MinHash estimate of Jaccard(i, j): the fraction of the K rows that agree.
    pub fn estimate(&self, i: usize, j: usize) -> f64 {
        if self.empty[i] || self.empty[j] {
            return 0.0;
        }
        crate::minhash::similarity::agreeing_rows(self.row(i), self.row(j)) as f64 / self.k as f64
    }
}

/// Settings that determine sets and signatures. Changing any of them means rebuilding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IndexOptions {
    /// How each document is normalized and cut into shingles.
    pub shingle: ShingleOptions,
    /// K, the number of permutations.
    pub num_perm: usize,
    /// Seed of the hash family: the same seed, K and family give the same signatures.
    pub seed: u64,
    /// Which sketch family computes the K rows. Files and cache keys written before families
    /// existed have no such field: they were classic, and read as classic.
    #[serde(default)]
    pub family: SketchFamily,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            shingle: ShingleOptions::default(),
            num_perm: 128,
            seed: 1,
            family: SketchFamily::Classic,
        }
    }
}

/// Shingle sets and signatures of a corpus.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// The settings the sets and signatures were built with.
    pub options: IndexOptions,
    /// Each document's sorted set of 64-bit shingle hashes.
    pub sets: ShingleSets,
    /// Each document's MinHash signature, in the same order.
    pub signatures: Signatures,
}

impl Index {
    /// Number of documents.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// True when the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// Documents without a single shingle.
    pub fn shingleless_docs(&self) -> usize {
        self.signatures.empty.iter().filter(|&&e| e).count()
    }

    /// A warning when the index's sketch family is C-MinHash and most documents have fewer
    /// shingles than K: there a document's rows come in groups of copies, so one draw can
    /// lose whole template families at high Jaccard and its candidate count swings from seed
    /// to seed (docs/families.md: recall interval at t [0.865, 1.000] on 20,000 short
    /// template texts, where the other families stay above 0.999; on the 63,441 Debian
    /// descriptions at 32 × 4, seeds 1–7 gave 0.86 M to 15.2 M candidates against classic's
    /// 1.0 M to 4.0 M). `None` for the other families and for longer texts.
    pub fn short_texts_warning(&self) -> Option<Message> {
        let k = self.options.num_perm;
        if self.options.family != SketchFamily::CMinHash {
            return None;
        }
        let mut lengths: Vec<usize> = (0..self.len())
            .map(|i| self.sets.get(i).len())
            .filter(|&n| n > 0)
            .collect();
        if lengths.is_empty() {
            return None;
        }
        let middle = lengths.len() / 2;
        let median = *lengths.select_nth_unstable(middle).1;
        (median < k).then(|| {
            format!(
                "half the documents have fewer shingles than {NumPerm} = {k} (median {median}): \
                 with {Family} c-minhash a short text's rows repeat, so a draw can miss whole \
                 groups of similar pairs and the candidate count swings from seed to seed \
                 (docs/families.md); {Family} one-permutation follows the S-curve on such \
                 texts"
            )
            .into()
        })
    }
}

/// Shingles, hashes and sketches every document of `corpus`, in parallel over documents: the
/// rows come from `options.family` ([`Sketcher`]), the classic family by default.
pub fn build_index(corpus: &Corpus, options: &IndexOptions, progress: &Progress) -> Result<Index> {
    let k = checked_num_perm(options.num_perm)?;
    let n = corpus.len();
    progress.begin(Phase::Signatures, n as u64);
    let sketcher = Sketcher::new(options.family, k, options.seed);
    // Zeroed memory comes from the kernel as untouched pages, so this costs nothing here; each
    // worker fills its rows (and takes their page faults) in parallel below.
    let mut data = vec![0u32; n * k];
    let mut empty = vec![false; n];

    let chunks: Vec<SetChunk> = data
        .par_chunks_mut(CHUNK_DOCS * k)
        .zip(empty.par_chunks_mut(CHUNK_DOCS))
        .enumerate()
        .map_init(
            || {
                (
                    SetBuilder::new(options.shingle.clone()),
                    SketchScratch::default(),
                )
            },
            |(set_builder, sketch_scratch), (c, (sig_chunk, empty_chunk))| {
                progress.check()?;
                let first = c * CHUNK_DOCS;
                let docs = empty_chunk.len();
                let mut offsets = Vec::with_capacity(docs + 1);
                offsets.push(0);
                // Sets are written once, straight into the chunk's own allocation, sized for
                // the common case (char shingles of ASCII text: at most one shingle per byte)
                // and trimmed at the end. Pages never written are never faulted in, and the
                // trim of a large block gives its tail back in place, without a copy.
                let bound: usize = (first..first + docs).map(|i| corpus.text(i).len()).sum();
                let mut values: Vec<u64> = Vec::with_capacity(bound);
                for d in 0..docs {
                    // A cancel (Ctrl-C in Python, Esc in the explorer) is seen within 64
                    // documents, not at the next chunk: a chunk of long texts is seconds of
                    // work in a debug build.
                    if d % 64 == 63 {
                        progress.check()?;
                    }
                    // Sorted and de-duplicated straight into the chunk (no copy afterwards);
                    // de-duplicating first also spares the MinHash kernel repeated shingles.
                    let start = values.len();
                    set_builder.set_onto(corpus.text(first + d), &mut values);
                    let set = &values[start..];
                    let row = &mut sig_chunk[d * k..(d + 1) * k];
                    sketcher.sketch_into(set, row, sketch_scratch);
                    empty_chunk[d] = set.is_empty();
                    offsets.push(values.len() as u32);
                }
                values.shrink_to_fit();
                progress.advance(docs as u64);
                Ok(SetChunk { offsets, values })
            },
        )
        .collect::<Result<_>>()?;

    Ok(Index {
        options: options.clone(),
        sets: ShingleSets { chunks, len: n },
        signatures: Signatures { k, data, empty },
    })
}

/// The signatures of `sets` under `family` with K = `num_perm` rows drawn from `seed`: the
/// shingle sets do not depend on the family, so another family (or seed) costs only this
/// pass. Equal to the signatures [`build_index`] computes with that family and seed.
pub fn signatures_of_sets(
    sets: &ShingleSets,
    family: SketchFamily,
    num_perm: usize,
    seed: u64,
    progress: &Progress,
) -> Result<Signatures> {
    let k = checked_num_perm(num_perm)?;
    sketch_sets(sets, &Sketcher::new(family, k, seed), progress)
}

/// The first `rows` of the K = `num_perm` rows [`signatures_of_sets`] computes, and only
/// those where the family allows (classic and C-MinHash; one-permutation hashing gives all
/// K, whose first `rows` are the same): what a banding of b × r ≤ `rows` needs, at `rows`/K
/// of the sketching cost, with the band values it would have on the full signatures.
pub fn leading_signatures_of_sets(
    sets: &ShingleSets,
    family: SketchFamily,
    num_perm: usize,
    seed: u64,
    rows: usize,
    progress: &Progress,
) -> Result<Signatures> {
    if num_perm == 0 || num_perm > 4096 || rows == 0 || rows > num_perm {
        return Err(Error::usage(format!(
            "{NumPerm} must be between 1 and 4096 and cover the {rows} rows wanted, got \
             {num_perm}"
        )));
    }
    let full = Sketcher::new(family, num_perm, seed);
    let sketcher = full.first_rows(rows).unwrap_or(full);
    sketch_sets(sets, &sketcher, progress)
}

/// The signatures of `sets` under `sketcher`, in parallel over chunks of documents.
fn sketch_sets(sets: &ShingleSets, sketcher: &Sketcher, progress: &Progress) -> Result<Signatures> {
    let k = sketcher.num_perm();
    let n = sets.len();
    progress.begin(Phase::Signatures, n as u64);
    let mut data = vec![0u32; n * k];
    let mut empty = vec![false; n];
    data.par_chunks_mut(CHUNK_DOCS * k)
        .zip(empty.par_chunks_mut(CHUNK_DOCS))
        .enumerate()
        .try_for_each_init(
            SketchScratch::default,
            |scratch, (c, (sig_chunk, empty_chunk))| {
                progress.check()?;
                let first = c * CHUNK_DOCS;
                for (d, is_empty) in empty_chunk.iter_mut().enumerate() {
                    let set = sets.get(first + d);
                    sketcher.sketch_into(set, &mut sig_chunk[d * k..(d + 1) * k], scratch);
                    *is_empty = set.is_empty();
                }
                progress.advance(empty_chunk.len() as u64);
                Ok::<(), Error>(())
            },
        )?;
    Ok(Signatures { k, data, empty })
}

/// The signatures [`build_index`] computes for `corpus` with `options`, bit for bit, with no
/// shingle set built: each text's shingle hashes go to the sketch as the text yields them,
/// repeats and all, since a repeat cannot change a minimum (every family's row is a minimum
/// of some hash of each shingle, see [`Sketcher::sketch_into`]). This spares the sort and
/// de-duplication of each set and the memory the sets would fill: the signature phase alone,
/// for work that needs no exact Jaccard. The classic family's kernel costs O(n·K), so the
/// repeats it sees cost it more than they cost the one-hash families (one pass over them).
pub fn signatures_of_texts(
    corpus: &Corpus,
    options: &IndexOptions,
    progress: &Progress,
) -> Result<Signatures> {
    let k = checked_num_perm(options.num_perm)?;
    let n = corpus.len();
    progress.begin(Phase::Signatures, n as u64);
    let sketcher = Sketcher::new(options.family, k, options.seed);
    let mut data = vec![0u32; n * k];
    let mut empty = vec![false; n];
    data.par_chunks_mut(CHUNK_DOCS * k)
        .zip(empty.par_chunks_mut(CHUNK_DOCS))
        .enumerate()
        .try_for_each_init(
            || {
                (
                    Shingler::new(options.shingle.clone()),
                    Vec::new(),
                    SketchScratch::default(),
                )
            },
            |(shingler, hashes, scratch), (c, (sig_chunk, empty_chunk))| {
                progress.check()?;
                let first = c * CHUNK_DOCS;
                for (d, is_empty) in empty_chunk.iter_mut().enumerate() {
                    hashes.clear();
                    shingler.hashes(corpus.text(first + d), hashes);
                    let row = &mut sig_chunk[d * k..(d + 1) * k];
                    sketcher.sketch_into(hashes, row, scratch);
                    *is_empty = hashes.is_empty();
                }
                progress.advance(empty_chunk.len() as u64);
                Ok::<(), Error>(())
            },
        )?;
    Ok(Signatures { k, data, empty })
}

/// K, when it is one the index can hold.
fn checked_num_perm(k: usize) -> Result<usize> {
    if k == 0 || k > 4096 {
        return Err(Error::usage(format!(
            "{NumPerm} must be between 1 and 4096, got {k}"
        )));
    }
    Ok(k)
}

/// Insertion sort, for the last step of the bucket sorts here: after a counting pass on the top
/// bits of uniform hashes, values are at most a few places from where they belong, so this
/// runs in near-linear time. Equal values never move past each other (stable).
pub(crate) fn insertion_sort<T: PartialOrd + Copy>(v: &mut [T]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::{HashFamily, fold32};

    #[test]
    fn builds_sets_and_signatures() {
        let corpus = Corpus::from_texts(["hello world", "", "hello world!", "ab"]);
        let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        assert_eq!(idx.len(), 4);
        assert_eq!(idx.sets.get(0).len(), 7);
        assert!(idx.sets.get(0).windows(2).all(|w| w[0] < w[1]));
        assert!(idx.sets.get(1).is_empty());
        assert!(idx.signatures.is_empty_doc(1));
        assert_eq!(idx.sets.get(3).len(), 1);
        assert_eq!(idx.shingleless_docs(), 1);
        // Scalar reference for one signature.
        let fam = HashFamily::new(128, 1);
        let mut sig = vec![u32::MAX; 128];
        let xs: Vec<u32> = idx.sets.get(2).iter().map(|&h| fold32(h)).collect();
        fam.update_scalar(&mut sig, &xs);
        assert_eq!(idx.signatures.row(2), &sig[..]);
        assert!(idx.signatures.estimate(0, 2) > 0.5);
        assert_eq!(idx.signatures.estimate(0, 1), 0.0);
    }

    #[test]
    fn c_minhash_on_texts_shorter_than_k_is_warned_about() {
        let short: Vec<String> = (0..40)
            .map(|i| format!("note {i} on a short line"))
            .collect();
        // About 400 distinct shingles each.
        let long: Vec<String> = (0..40)
            .map(|i| (0..60).map(|w| format!("w{i}x{w} ")).collect::<String>())
            .collect();
        let warned = |texts: &[String], family: SketchFamily, num_perm: usize| {
            let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
            let options = IndexOptions {
                family,
                num_perm,
                ..IndexOptions::default()
            };
            let index = build_index(&corpus, &options, &Progress::new()).unwrap();
            index.short_texts_warning().map(|m| m.tokens().to_string())
        };
        let message = warned(&short, SketchFamily::CMinHash, 128).expect("short texts, K = 128");
        assert!(message.contains("(median 19)"), "{message}");
        assert_eq!(
            warned(&short, SketchFamily::CMinHash, 16),
            None,
            "K below the median"
        );
        assert_eq!(
            warned(&long, SketchFamily::CMinHash, 128),
            None,
            "long texts"
        );
        for family in [SketchFamily::Classic, SketchFamily::OnePermutation] {
            assert_eq!(warned(&short, family, 128), None, "{family:?}");
        }
    }

    #[test]
    fn signatures_of_sets_equal_a_rebuild_with_that_family_and_seed() {
        let texts: Vec<String> = (0..5000)
            .map(|i| format!("document {} about {}", i % 97, i % 13))
            .chain(["".to_string()])
            .collect();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let base = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        for family in SketchFamily::ALL {
            for seed in [2, 99] {
                let options = IndexOptions {
                    seed,
                    num_perm: 64,
                    family,
                    ..IndexOptions::default()
                };
                let rebuilt = build_index(&corpus, &options, &Progress::new()).unwrap();
                let reused =
                    signatures_of_sets(&base.sets, family, 64, seed, &Progress::new()).unwrap();
                assert_eq!(
                    reused.data, rebuilt.signatures.data,
                    "{family}, seed {seed}"
                );
                assert_eq!(reused.empty, rebuilt.signatures.empty);
            }
        }
    }

    #[test]
    fn options_without_a_family_read_as_classic() {
        // What files and cache keys held before families existed.
        let mut old = serde_json::to_value(IndexOptions {
            family: SketchFamily::CMinHash,
            ..IndexOptions::default()
        })
        .unwrap();
        assert_eq!(old["family"], "c-minhash");
        old.as_object_mut().unwrap().remove("family");
        let options: IndexOptions = serde_json::from_value(old).unwrap();
        assert_eq!(options.family, SketchFamily::Classic);
        let json = serde_json::to_string(&IndexOptions::default()).unwrap();
        assert!(json.contains(r#""family":"classic""#), "{json}");
    }

    #[test]
    fn signatures_of_sets_match_row_by_row_sketches() {
        let mut rng = crate::util::rng::SplitMix64::new(6);
        let sets: Vec<Vec<u64>> = (0..5000)
            .map(|i| {
                let mut set: Vec<u64> = (0..i % 37).map(|_| rng.next_u64()).collect();
                set.sort_unstable();
                set.dedup();
                set
            })
            .collect();
        let shingle_sets = ShingleSets::from_sets(&sets);
        for family in SketchFamily::ALL {
            let sigs = signatures_of_sets(&shingle_sets, family, 64, 11, &Progress::new()).unwrap();
            let sketcher = Sketcher::new(family, 64, 11);
            for (i, set) in sets.iter().enumerate().step_by(97) {
                assert_eq!(sigs.row(i), &sketcher.sketch(set)[..], "{family}, doc {i}");
                assert_eq!(sigs.is_empty_doc(i), set.is_empty());
            }
        }
        assert!(
            signatures_of_sets(
                &shingle_sets,
                SketchFamily::CMinHash,
                0,
                1,
                &Progress::new()
            )
            .is_err()
        );
    }
}
