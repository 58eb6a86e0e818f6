//! Ground truth: the exact similarity join (every pair of documents whose shingle sets have
//! Jaccard ≥ T) without comparing all pairs, and uniform samples of pair similarities.
//!
//! The join is the prefix-filtering family of algorithms:
//! - AllPairs (Bayardo, Ma & Srikant, "Scaling up all pairs similarity search", WWW 2007):
//!   order tokens globally by ascending document frequency; two sets with Jaccard ≥ T must share
//!   a token among the first |x| − ⌈T·|x|⌉ + 1 tokens of each (the *prefix*), so only prefixes
//!   are indexed and probed, and rare tokens make posting lists short. Documents are processed
//!   by size, and the length filter |y| ≥ T·|x| cuts each posting list to a contiguous range.
//! - PPJoin (Xiao, Wang, Lin & Yu, "Efficient similarity joins for near duplicate detection",
//!   WWW 2008): the indexed side only needs the shorter prefix |y| − ⌈2T/(1+T)·|y|⌉ + 1 when
//!   |y| ≤ |x|, and the *positional filter*: a shared token at positions i in x and j in y
//!   bounds the overlap by A + 1 + min(|x| − i − 1, |y| − j − 1), where A counts the shared
//!   tokens before it; a pair whose bound falls below the required overlap
//!   α = ⌈T/(1+T)·(|x| + |y|)⌉ is dropped for good.
//!
//! Survivors are verified with [`crate::minhash::similarity::jaccard`] on the original 64-bit shingle
//! sets, the very function `scan` uses, so the two agree on every Jaccard to the last bit.

use rayon::prelude::*;

use crate::jobs::{Phase, Progress};
use crate::minhash::ShingleSets;
use crate::minhash::similarity::jaccard;
use crate::terms::Setting::{EstimatePairs, Force, MaxSeconds, Sample, Threshold, Truth};
use crate::util::rng::SplitMix64;
use crate::{Error, Result};

/// A pair of documents (input positions, `a < b`) with its exact Jaccard.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TruthPair {
    /// Input position of the first document, 0-based.
    pub a: u32,
    /// Input position of the second document, always greater than `a`.
    pub b: u32,
    /// Exact Jaccard of their shingle sets, in [0, 1].
    pub jaccard: f64,
}

/// Documents probed per unit of parallel work: small, because later documents (larger sets,
/// longer posting lists before them) cost more and work stealing needs pieces to move.
const PROBE_CHUNK: usize = 256;

/// Posting entries the probe loop scans per second per thread, measured with a release build
/// on the project's 2-core machine (100k generated documents of ~400 characters, T = 0.5:
/// 2.8 G entries in 34 s of CPU, planning included, i.e. ~12 ns per entry, mostly cache
/// misses), rounded down. Only used to turn the work estimate into seconds for the refusal.
const POSTINGS_PER_SECOND_PER_THREAD: f64 = 6.0e7;

/// Above this many estimated seconds the CLI refuses to run the join without `--force`.
pub const DEFAULT_BUDGET_SECONDS: f64 = 600.0;

/// The integer bounds below (prefix lengths, minimum size, minimum overlap) are derived from a
/// threshold slightly *below* T. Verification accepts a pair when the f64 quotient
/// inter/union ≥ T, which only guarantees the exact ratio is ≥ T·(1 − 2⁻⁵³); lowering T by a
/// relative 1e-12 (far more than the few roundings in each bound) makes every filter a strict
/// necessary condition of acceptance, so no accepted pair is ever filtered away. The cost is
/// at most one extra token in a prefix when T·n is within 1e-12 of an integer.
fn filter_threshold(t: f64) -> f64 {
    t * (1.0 - 1e-12)
}

/// ⌈v⌉ for the small, non-negative reals of the bounds, as a size.
fn ceil_size(v: f64) -> usize {
    if v <= 0.0 { 0 } else { v.ceil() as usize }
}

/// Tokens of an n-set that must be probed: n − ⌈T·n⌉ + 1 (AllPairs), within [1, n].
fn probe_prefix_len(n: usize, tf: f64) -> usize {
    if n == 0 {
        return 0;
    }
    (n + 1).saturating_sub(ceil_size(tf * n as f64)).clamp(1, n)
}

/// Tokens of an n-set that must be indexed when it is only probed by sets at least as large:
/// n − ⌈2T/(1+T)·n⌉ + 1 (PPJoin), within [1, n].
fn index_prefix_len(n: usize, tf: f64) -> usize {
    if n == 0 {
        return 0;
    }
    (n + 1)
        .saturating_sub(ceil_size(2.0 * tf / (1.0 + tf) * n as f64))
        .clamp(1, n)
}

/// What the join will cost, known before the probing starts.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct JoinWork {
    /// Documents in the corpus, empty ones included.
    pub documents: usize,
    /// Documents with at least one shingle (the others never pair).
    pub nonempty_documents: usize,
    /// Distinct shingles over the corpus.
    pub distinct_tokens: usize,
    /// Tokens in all probe prefixes.
    pub probe_tokens: u64,
    /// Entries in the inverted index (all index prefixes).
    pub posting_entries: u64,
    /// Estimated posting entries scanned: Σ over tokens of (probes × postings) / 2, since each
    /// document only meets the documents before it (the length filter lowers the real number;
    /// correlation between a token's frequency and document size can raise it a little).
    /// In a join across blocks: the entries of other blocks on the probe prefixes' lists, all
    /// of which are read.
    pub estimated_scans: f64,
}

impl JoinWork {
    /// Rough wall-clock seconds for the probe loop on `threads` threads.
    pub fn estimated_seconds(&self, threads: usize) -> f64 {
        self.estimated_scans / (POSTINGS_PER_SECOND_PER_THREAD * threads.max(1) as f64)
    }

    /// The largest sample of documents whose join fits in `budget_seconds`: the work grows
    /// with the square of the number of documents (each meets a fixed fraction of the rest).
    pub fn sample_that_fits(&self, threads: usize, budget_seconds: f64) -> usize {
        let secs = self.estimated_seconds(threads);
        if secs <= budget_seconds {
            return self.documents;
        }
        ((self.documents as f64) * (budget_seconds / secs).sqrt()) as usize
    }
}

/// What the probe loop did.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct JoinStats {
    /// Posting entries scanned (after the length filter).
    pub scans: u64,
    /// Pairs that survived the positional filter and were verified.
    pub verified: u64,
}

/// Everything the probe loop needs, built by [`plan_join`]: token order, prefixes and the
/// inverted index. Holding the plan lets a caller look at [`JoinPlan::work`] before paying for
/// the join itself.
pub struct JoinPlan<'a> {
    sets: &'a ShingleSets,
    threshold: f64,
    /// Input positions of documents in processing order (by set size, then position).
    order: Vec<u32>,
    /// Set sizes, by processing order.
    sizes: Vec<u32>,
    /// Every set as token ranks, ascending, by processing order, CSR. A document's probe
    /// prefix is the start of its array; the rest serves the early-exit verification.
    token_offsets: Vec<usize>,
    tokens: Vec<u32>,
    /// Inverted index of index prefixes: for token w, entries
    /// `posting_offsets[w]..posting_offsets[w + 1]` of `postings`, sorted by processing order.
    posting_offsets: Vec<usize>,
    postings: Vec<Posting>,
    /// Index prefix length and its last token, by processing order (for the verification's
    /// first bound, without reading the document's tokens).
    index_prefix_lens: Vec<u32>,
    index_prefix_last: Vec<u32>,
    /// With a partition of the documents into blocks ([`plan_join_across_blocks`]): only
    /// pairs of different blocks are joined.
    blocks: Option<BlockPostings>,
    /// What the join will cost, for a caller to look at before running it.
    pub work: JoinWork,
}

/// The block side of a join across blocks. Each posting list is sorted by (block, processing
/// order) instead of processing order alone, so the entries of the probing document's own
/// block are one run, found by two binary searches and skipped whole: inside a big template
/// family every member shares the family's rare tokens, and walking those entries is what
/// makes the plain join quadratic in the family's size.
struct BlockPostings {
    /// Block of every document, by processing order.
    by_order: Vec<u32>,
    /// Block of every posting entry, parallel to `JoinPlan::postings`.
    of_posting: Vec<u32>,
}

/// One entry of the inverted index: everything the probe loop needs about the indexed
/// document, in one place, so a scan touches one sequential stream and the overlap counter.
#[derive(Debug, Clone, Copy, Default)]
struct Posting {
    /// Processing order of the indexed document.
    doc: u32,
    /// Its set size |y|.
    size: u32,
    /// Tokens of y after this one: |y| − j − 1 for position j.
    rest: u32,
}

/// Document frequency of every distinct token: returns (distinct hashes ascending, their
/// document frequencies).
///
/// Hashes are split into groups by their top bits; since each document's set is sorted, a
/// group is one contiguous run of it. Groups are handled in a few batches: one parallel pass
/// over the documents copies a batch's runs (a binary search per document, then a linear
/// walk), then each group is sorted and counted in parallel. Only one batch of entries is
/// copied at a time, and every set is read sequentially.
fn document_frequencies(sets: &ShingleSets, progress: &Progress) -> Result<(Vec<u64>, Vec<u32>)> {
    /// Documents per task of the copy pass.
    const COPY_CHUNK: usize = 4096;
    let n = sets.len();
    let total = sets.total();
    // About a million entries per group, and a few groups per thread.
    let groups = (total >> 20)
        .max(4 * rayon::current_num_threads())
        .next_power_of_two()
        .clamp(4, 4096);
    let shift = 64 - groups.trailing_zeros();
    // At most about 16 M entries (128 MB) copied per batch.
    let batches = (total >> 24).max(1).next_power_of_two().min(groups);
    let per_batch = groups / batches;
    let docs: Vec<usize> = (0..n).collect();
    let mut hashes = Vec::new();
    let mut counts = Vec::new();
    for batch in 0..batches {
        let (g_lo, g_hi) = ((batch * per_batch) as u64, ((batch + 1) * per_batch) as u64);
        // For each chunk of documents, its entries of each group of the batch.
        let copied: Vec<Vec<Vec<u64>>> = docs
            .par_chunks(COPY_CHUNK)
            .map(|chunk| {
                progress.check()?;
                let mut parts = vec![Vec::new(); per_batch];
                for &d in chunk {
                    let set = sets.get(d);
                    let start = set.partition_point(|&h| (h >> shift) < g_lo);
                    for &h in &set[start..] {
                        let g = h >> shift;
                        if g >= g_hi {
                            break;
                        }
                        parts[(g - g_lo) as usize].push(h);
                    }
                }
                Ok(parts)
            })
            .collect::<Result<_>>()?;
        let counted: Vec<(Vec<u64>, Vec<u32>)> = (0..per_batch)
            .into_par_iter()
            .map(|g| {
                let mut values: Vec<u64> =
                    Vec::with_capacity(copied.iter().map(|parts| parts[g].len()).sum());
                for parts in &copied {
                    values.extend_from_slice(&parts[g]);
                }
                values.sort_unstable();
                let mut hashes = Vec::new();
                let mut counts: Vec<u32> = Vec::new();
                for &h in &values {
                    if hashes.last() == Some(&h) {
                        *counts.last_mut().expect("counts follows hashes") += 1;
                    } else {
                        hashes.push(h);
                        counts.push(1);
                    }
                }
                (hashes, counts)
            })
            .collect();
        drop(copied);
        for (h, c) in counted {
            hashes.extend_from_slice(&h);
            counts.extend_from_slice(&c);
        }
    }
    Ok((hashes, counts))
}

/// Maps a 64-bit shingle hash to its rank in the global token order.
struct TokenRanks {
    hashes: Vec<u64>,
    ranks: Vec<u32>,
    /// `buckets[k]..buckets[k + 1]` is where hashes with top bits `k` lie in `hashes`: shingle
    /// hashes are uniform, so a bucket holds a handful and a lookup costs two cache misses
    /// instead of a full binary search.
    buckets: Vec<u32>,
    shift: u32,
}

impl TokenRanks {
    /// Ranks tokens by ascending document frequency, ties by hash (a total order that does not
    /// depend on the input order). Counting sort: frequencies are at most the document count.
    fn new(hashes: Vec<u64>, counts: Vec<u32>) -> Self {
        let max_df = counts.iter().copied().max().unwrap_or(0) as usize;
        let mut next = vec![0u32; max_df + 2];
        for &c in &counts {
            next[c as usize + 1] += 1;
        }
        for i in 1..next.len() {
            next[i] += next[i - 1];
        }
        let ranks: Vec<u32> = counts
            .iter()
            .map(|&c| {
                let r = next[c as usize];
                next[c as usize] += 1;
                r
            })
            .collect();
        drop(counts);
        let bits = (usize::BITS - hashes.len().leading_zeros()).clamp(1, 26);
        let shift = 64 - bits;
        let mut buckets = vec![0u32; (1usize << bits) + 1];
        for &h in &hashes {
            buckets[(h >> shift) as usize + 1] += 1;
        }
        for i in 1..buckets.len() {
            buckets[i] += buckets[i - 1];
        }
        TokenRanks {
            hashes,
            ranks,
            buckets,
            shift,
        }
    }

    #[inline]
    fn rank(&self, h: u64) -> u32 {
        let k = (h >> self.shift) as usize;
        let (lo, hi) = (self.buckets[k] as usize, self.buckets[k + 1] as usize);
        let i = lo
            + self.hashes[lo..hi]
                .binary_search(&h)
                .expect("every shingle was counted");
        self.ranks[i]
    }

    fn len(&self) -> usize {
        self.hashes.len()
    }
}

/// Builds token order, prefixes and the inverted index for a join at `threshold` ∈ (0, 1].
pub fn plan_join<'a>(
    sets: &'a ShingleSets,
    threshold: f64,
    progress: &Progress,
) -> Result<JoinPlan<'a>> {
    plan(sets, threshold, None, progress)
}

/// [`plan_join`] for the pairs of documents in different blocks only: `blocks[d]` is the block
/// of document `d`, and a pair inside one block is never counted, scanned or verified.
///
/// Prefix filtering needs nothing of the pairs it skips: every pair of different blocks with
/// Jaccard ≥ T shares a token of their prefixes, meets there, and is verified as in the plain
/// join, so the pairs found are exactly the plain join's pairs whose blocks differ.
pub fn plan_join_across_blocks<'a>(
    sets: &'a ShingleSets,
    threshold: f64,
    blocks: &[u32],
    progress: &Progress,
) -> Result<JoinPlan<'a>> {
    if blocks.len() != sets.len() {
        return Err(Error::usage(format!(
            "{} blocks given for {} documents",
            blocks.len(),
            sets.len()
        )));
    }
    plan(sets, threshold, Some(blocks), progress)
}

fn plan<'a>(
    sets: &'a ShingleSets,
    threshold: f64,
    blocks: Option<&[u32]>,
    progress: &Progress,
) -> Result<JoinPlan<'a>> {
    if !(threshold > 0.0 && threshold <= 1.0) {
        return Err(Error::usage(format!(
            "the join threshold must be in (0, 1], got {threshold}: at 0 every pair qualifies, \
             use {EstimatePairs} to look at the whole distribution"
        )));
    }
    let n = sets.len();
    if n > u32::MAX as usize {
        return Err(Error::refused(
            "the exact join handles at most 2^32 − 1 documents",
        ));
    }
    progress.begin(Phase::JoinIndex, 0);
    let tf = filter_threshold(threshold);

    let (hashes, counts) = document_frequencies(sets, progress)?;
    if hashes.len() > u32::MAX as usize {
        return Err(Error::refused(format!(
            "more than 2^32 − 1 distinct shingles: use {Sample}"
        )));
    }
    let ranks = TokenRanks::new(hashes, counts);
    progress.check()?;

    // Processing order: by size, then input position (a stable, input-independent tie rule).
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.par_sort_unstable_by_key(|&d| (sets.get(d as usize).len(), d));
    let sizes: Vec<u32> = order
        .iter()
        .map(|&d| sets.get(d as usize).len() as u32)
        .collect();

    // Every set as ascending token ranks (its first tokens are its probe prefix).
    let ranked: Vec<Vec<u32>> = order
        .par_chunks(PROBE_CHUNK * 4)
        .map(|docs| {
            progress.check()?;
            let mut tokens = Vec::new();
            for &d in docs {
                let start = tokens.len();
                tokens.extend(sets.get(d as usize).iter().map(|&h| ranks.rank(h)));
                tokens[start..].sort_unstable();
            }
            Ok(tokens)
        })
        .collect::<Result<_>>()?;
    let distinct_tokens = ranks.len();
    drop(ranks);
    let mut token_offsets = Vec::with_capacity(n + 1);
    token_offsets.push(0usize);
    for &size in &sizes {
        token_offsets.push(token_offsets.last().expect("starts at 0") + size as usize);
    }
    let mut tokens = Vec::with_capacity(token_offsets[n]);
    for chunk in ranked {
        tokens.extend_from_slice(&chunk);
    }
    progress.check()?;

    // Inverted index of the (shorter) index prefixes, filled in processing order so each
    // posting list is sorted by it; probe counts per token for the work estimate.
    let mut posting_offsets = vec![0usize; distinct_tokens + 1];
    let mut probes = vec![0u32; distinct_tokens];
    let mut probe_tokens = 0u64;
    for o in 0..n {
        let set = &tokens[token_offsets[o]..token_offsets[o + 1]];
        for &w in &set[..index_prefix_len(set.len(), tf)] {
            posting_offsets[w as usize + 1] += 1;
        }
        let probed = probe_prefix_len(set.len(), tf);
        probe_tokens += probed as u64;
        for &w in &set[..probed] {
            probes[w as usize] += 1;
        }
    }
    let mut estimated_scans = 0.0f64;
    if blocks.is_none() {
        for w in 0..distinct_tokens {
            estimated_scans += probes[w] as f64 * posting_offsets[w + 1] as f64 / 2.0;
        }
    }
    drop(probes);
    for w in 1..posting_offsets.len() {
        posting_offsets[w] += posting_offsets[w - 1];
    }
    let posting_entries = posting_offsets[distinct_tokens];
    let mut fill = posting_offsets.clone();
    let mut postings = vec![Posting::default(); posting_entries];
    for o in 0..n {
        let set = &tokens[token_offsets[o]..token_offsets[o + 1]];
        for (j, &w) in set[..index_prefix_len(set.len(), tf)].iter().enumerate() {
            let slot = &mut fill[w as usize];
            postings[*slot] = Posting {
                doc: o as u32,
                size: set.len() as u32,
                rest: (set.len() - j - 1) as u32,
            };
            *slot += 1;
        }
    }
    drop(fill);
    let blocks = blocks.map(|blocks| {
        let by_order: Vec<u32> = order.iter().map(|&d| blocks[d as usize]).collect();
        // Each list by (block, order): split the postings at the list boundaries and sort
        // the lists in parallel.
        let mut lists: Vec<&mut [Posting]> = Vec::with_capacity(distinct_tokens);
        let mut rest = postings.as_mut_slice();
        for w in 0..distinct_tokens {
            let (list, tail) = rest.split_at_mut(posting_offsets[w + 1] - posting_offsets[w]);
            lists.push(list);
            rest = tail;
        }
        lists
            .into_par_iter()
            .for_each(|list| list.sort_unstable_by_key(|p| (by_order[p.doc as usize], p.doc)));
        let of_posting: Vec<u32> = postings
            .par_iter()
            .map(|p| by_order[p.doc as usize])
            .collect();
        BlockPostings {
            by_order,
            of_posting,
        }
    });
    if let Some(b) = &blocks {
        // Every entry of another block on a probe prefix's lists is read (the lists are not
        // in processing order, so the bounds are tested entry by entry).
        estimated_scans = (0..n)
            .into_par_iter()
            .map(|o| {
                let set = &tokens[token_offsets[o]..token_offsets[o + 1]];
                set[..probe_prefix_len(set.len(), tf)]
                    .iter()
                    .map(|&w| {
                        let range = posting_offsets[w as usize]..posting_offsets[w as usize + 1];
                        let len = range.len();
                        let (lo, hi) = own_run(&b.of_posting[range], b.by_order[o]);
                        (len - (hi - lo)) as f64
                    })
                    .sum::<f64>()
            })
            .sum();
    }
    let index_prefix_lens: Vec<u32> = sizes
        .iter()
        .map(|&s| index_prefix_len(s as usize, tf) as u32)
        .collect();
    let index_prefix_last: Vec<u32> = (0..n)
        .map(|o| match index_prefix_lens[o] {
            0 => 0,
            p => tokens[token_offsets[o] + p as usize - 1],
        })
        .collect();

    let work = JoinWork {
        documents: n,
        nonempty_documents: sizes.iter().filter(|&&s| s > 0).count(),
        distinct_tokens,
        probe_tokens,
        posting_entries: posting_entries as u64,
        estimated_scans,
    };
    Ok(JoinPlan {
        sets,
        threshold,
        order,
        sizes,
        token_offsets,
        tokens,
        posting_offsets,
        postings,
        index_prefix_lens,
        index_prefix_last,
        blocks,
        work,
    })
}

/// The run of `block` in a posting list's blocks (sorted): its start and end.
fn own_run(list_blocks: &[u32], block: u32) -> (usize, usize) {
    let lo = list_blocks.partition_point(|&k| k < block);
    let hi = lo + list_blocks[lo..].partition_point(|&k| k == block);
    (lo, hi)
}

/// Per-thread scratch of the probe loop: overlap counters by processing order, and the
/// documents touched by the current probe (to reset only those).
struct Scratch {
    overlap: Vec<i32>,
    touched: Vec<u32>,
    /// Overlap needed with a document of size `min_size + k`, for the current probe.
    needed: Vec<u32>,
}

/// Marks a document whose positional bound failed: it can no longer reach the overlap needed.
const PRUNED: i32 = -1;

impl JoinPlan<'_> {
    /// The Jaccard threshold the plan was built for, in (0, 1].
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Runs the join: every pair with exact Jaccard ≥ T, sorted by (a, b), each pair once.
    pub fn run(&self, progress: &Progress) -> Result<(Vec<TruthPair>, JoinStats)> {
        let n = self.order.len();
        let tf = filter_threshold(self.threshold);
        // Progress counts the posting entries each probe is expected to meet: its probe
        // prefix's lists, of which the entries before it in processing order (about the
        // share o/n of each, as in the plan's estimate). Documents come in size order, so the
        // last ones probe the most, and a count of documents would reach 95 % long before
        // the end.
        let probe_work = |o: usize| -> u64 {
            let xs = self.tokens_of(o);
            let entries: usize = xs[..probe_prefix_len(xs.len(), tf)]
                .iter()
                .map(|&w| {
                    let range =
                        self.posting_offsets[w as usize]..self.posting_offsets[w as usize + 1];
                    // Across blocks the own block's run is skipped, every other entry read.
                    let own = self.blocks.as_ref().map_or(0, |b| {
                        let (lo, hi) = own_run(&b.of_posting[range.clone()], b.by_order[o]);
                        hi - lo
                    });
                    range.len() - own
                })
                .sum();
            if self.blocks.is_some() {
                return 1 + entries as u64;
            }
            1 + (entries as f64 * (o + 1) as f64 / n as f64) as u64
        };
        let total: u64 = (0..n).into_par_iter().map(probe_work).sum();
        progress.begin(Phase::Join, total);
        let overlap_factor = tf / (1.0 + tf);
        let order_indices: Vec<u32> = (0..n as u32).collect();
        let chunks: Vec<(Vec<TruthPair>, JoinStats)> = order_indices
            .par_chunks(PROBE_CHUNK)
            .map_init(
                || Scratch {
                    overlap: vec![0; n],
                    touched: vec![0; n],
                    needed: Vec::new(),
                },
                |scratch, chunk| {
                    progress.check()?;
                    let mut found = Vec::new();
                    let mut stats = JoinStats::default();
                    let mut work = 0;
                    for &ox in chunk {
                        self.probe(ox, overlap_factor, tf, scratch, &mut found, &mut stats);
                        work += probe_work(ox as usize);
                    }
                    progress.advance(work);
                    Ok((found, stats))
                },
            )
            .collect::<Result<_>>()?;
        let mut stats = JoinStats::default();
        let mut pairs = Vec::with_capacity(chunks.iter().map(|(p, _)| p.len()).sum());
        for (found, s) in chunks {
            pairs.extend_from_slice(&found);
            stats.scans += s.scans;
            stats.verified += s.verified;
        }
        pairs.par_sort_unstable_by_key(|p| (p.a, p.b));
        Ok((pairs, stats))
    }

    /// Finds the partners of document `ox` (processing order) among the documents before it.
    fn probe(
        &self,
        ox: u32,
        overlap_factor: f64,
        tf: f64,
        scratch: &mut Scratch,
        found: &mut Vec<TruthPair>,
        stats: &mut JoinStats,
    ) {
        let o = ox as usize;
        let nx = self.sizes[o] as usize;
        if nx == 0 {
            return;
        }
        // Length filter: J ≥ T and |y| ≤ |x| imply |y| ≥ T·|x|. Documents are ordered by
        // size, so the filter is an order bound and each posting list a contiguous range.
        let min_size = ceil_size(tf * nx as f64).max(1).min(nx);
        let first = self.sizes[..o].partition_point(|&s| (s as usize) < min_size) as u32;
        // α = ⌈T/(1+T)·(|x| + |y|)⌉ for every admissible |y|, once per probe.
        scratch.needed.clear();
        scratch.needed.extend(
            (min_size..=nx).map(|ny| ceil_size(overlap_factor * (nx + ny) as f64).max(1) as u32),
        );
        let xs = self.tokens_of(o);
        let px = probe_prefix_len(nx, tf);
        // `touched[..touched]` lists the documents met so far; it has room for all of them.
        let mut touched = 0usize;
        for (i, &w) in xs[..px].iter().enumerate() {
            let range = self.posting_offsets[w as usize]..self.posting_offsets[w as usize + 1];
            let list = &self.postings[range.clone()];
            let rest_x = (nx - i - 1) as u32;
            let mut scanned = 0u64;
            if let Some(blocks) = &self.blocks {
                // By block: every entry outside the own block's run, bounds tested one by one.
                let (lo, hi) = own_run(&blocks.of_posting[range], blocks.by_order[o]);
                for p in list[..lo].iter().chain(&list[hi..]) {
                    if p.doc < first || p.doc >= ox {
                        continue;
                    }
                    scanned += 1;
                    meet(scratch, &mut touched, p, min_size, rest_x);
                }
                stats.scans += scanned;
                continue;
            }
            // Entries from `first` on (one binary search, skipped when the list starts there),
            // up to the first document not before x (a compare per entry, no second search).
            let lo = if list.first().is_some_and(|p| p.doc < first) {
                list.partition_point(|p| p.doc < first)
            } else {
                0
            };
            for p in &list[lo..] {
                if p.doc >= ox {
                    break;
                }
                scanned += 1;
                meet(scratch, &mut touched, p, min_size, rest_x);
            }
            stats.scans += scanned;
        }
        let dx = self.order[o];
        for &oy in &scratch.touched[..touched] {
            let oy = oy as usize;
            let shared = scratch.overlap[oy];
            scratch.overlap[oy] = 0;
            if shared <= 0 {
                continue;
            }
            let ny = self.sizes[oy] as usize;
            let needed = scratch.needed[ny - min_size] as usize;
            if !self.may_reach(xs, px, oy, shared as usize, needed) {
                continue;
            }
            stats.verified += 1;
            let dy = self.order[oy];
            let (a, b) = (dx.min(dy), dx.max(dy));
            let j = jaccard(self.sets.get(a as usize), self.sets.get(b as usize));
            if j >= self.threshold {
                found.push(TruthPair { a, b, jaccard: j });
            }
        }
    }
}

/// Counts one posting entry met by a probe whose token has `rest_x` tokens after it: one more
/// shared token for the indexed document, or the document pruned for good when the positional
/// bound says it cannot reach the overlap needed.
#[inline(always)]
fn meet(scratch: &mut Scratch, touched: &mut usize, p: &Posting, min_size: usize, rest_x: u32) {
    // Branch-free: whether a document is new, alive or pruned is unpredictable.
    let oy = p.doc as usize;
    let seen = scratch.overlap[oy];
    scratch.touched[*touched] = p.doc;
    *touched += (seen == 0) as usize;
    let needed = scratch.needed[p.size as usize - min_size];
    let bound = (seen + 1) as u32 + rest_x.min(p.rest);
    let alive = seen != PRUNED && bound >= needed;
    scratch.overlap[oy] = if alive { seen + 1 } else { PRUNED };
}

impl JoinPlan<'_> {
    #[inline]
    fn tokens_of(&self, o: usize) -> &[u32] {
        &self.tokens[self.token_offsets[o]..self.token_offsets[o + 1]]
    }

    /// Whether x (probe prefix `px`) and y (processing order `oy`), which share `shared`
    /// tokens between their prefixes, can share `needed` tokens in all: PPJoin's verification.
    ///
    /// Tokens are in one global order, so the shared tokens not yet counted all lie after the
    /// prefix whose last token is smaller: if x's prefix ends first (w_x < w_y), they are in
    /// x's suffix, matched against y's tokens after w_x; otherwise in y's suffix, matched
    /// against x's tokens after w_y. The suffix length alone rejects most candidates without
    /// reading y's tokens; the merge stops as soon as the tokens left cannot make up the
    /// difference.
    fn may_reach(&self, xs: &[u32], px: usize, oy: usize, shared: usize, needed: usize) -> bool {
        let wx = xs[px - 1];
        let wy = self.index_prefix_last[oy];
        let ny = self.sizes[oy] as usize;
        let py = self.index_prefix_lens[oy] as usize;
        let x_first = wx < wy;
        let suffix = if x_first { xs.len() - px } else { ny - py };
        if shared + suffix < needed {
            return false;
        }
        let ys = self.tokens_of(oy);
        let (rest_a, rest_b) = if x_first {
            (&xs[px..], &ys[ys.partition_point(|&t| t <= wx)..])
        } else {
            (&ys[py..], &xs[xs.partition_point(|&t| t <= wy)..])
        };
        let mut have = shared;
        let (mut i, mut j) = (0, 0);
        while have < needed {
            if have + (rest_a.len() - i).min(rest_b.len() - j) < needed {
                return false;
            }
            let (u, v) = (rest_a[i], rest_b[j]);
            have += (u == v) as usize;
            i += (u <= v) as usize;
            j += (v <= u) as usize;
        }
        true
    }
}

/// Every pair with exact Jaccard ≥ `threshold` ∈ (0, 1], sorted by (a, b).
pub fn similarity_join(
    sets: &ShingleSets,
    threshold: f64,
    progress: &Progress,
) -> Result<Vec<TruthPair>> {
    Ok(plan_join(sets, threshold, progress)?.run(progress)?.0)
}

/// The same pairs as [`similarity_join`] by comparing all N(N − 1)/2 pairs: the reference the
/// join is tested against, and fine for a few thousand documents.
pub fn brute_force_join(sets: &ShingleSets, threshold: f64) -> Vec<TruthPair> {
    let n = sets.len();
    (0..n)
        .into_par_iter()
        .flat_map_iter(|a| {
            (a + 1..n).filter_map(move |b| {
                let j = jaccard(sets.get(a), sets.get(b));
                (threshold > 0.0 && j >= threshold).then_some(TruthPair {
                    a: a as u32,
                    b: b as u32,
                    jaccard: j,
                })
            })
        })
        .collect()
}

/// The k-th unordered pair (a < b) in the order (0,1), (0,2), (1,2), (0,3), …: pairs whose
/// larger member is b occupy k ∈ [b(b − 1)/2, b(b + 1)/2).
pub(crate) fn pair_at(k: u64) -> (u32, u32) {
    let mut b = ((1.0 + (1.0 + 8.0 * k as f64).sqrt()) / 2.0) as u64;
    // Correct the floating-point guess to the exact triangular bracket.
    while b * (b - 1) / 2 > k {
        b -= 1;
    }
    while (b + 1) * b / 2 <= k {
        b += 1;
    }
    ((k - b * (b - 1) / 2) as u32, b as u32)
}

/// `m` distinct unordered pairs of `n` documents, uniformly at random (Floyd's algorithm, as in
/// Bentley & Floyd, "Programming pearls: a sample of brilliance", CACM 30(9), 1987), sorted by
/// (a, b). All pairs when `m` is at least N(N − 1)/2.
pub fn sample_pairs(n: usize, m: usize, seed: u64) -> Vec<(u32, u32)> {
    let total = crate::minhash::pairs_among(n as u64);
    let mut chosen: Vec<u64> = if m as u64 >= total {
        (0..total).collect()
    } else {
        let mut rng = SplitMix64::new(seed ^ 0x7061_6972_7321);
        let mut set = std::collections::HashSet::with_capacity(m);
        for j in total - m as u64..total {
            let t = rng.below(j + 1);
            if !set.insert(t) {
                set.insert(j);
            }
        }
        set.into_iter().collect()
    };
    chosen.sort_unstable();
    let mut pairs: Vec<(u32, u32)> = chosen.into_iter().map(pair_at).collect();
    pairs.sort_unstable();
    pairs
}

/// Exact Jaccard of `m` uniformly random distinct pairs (see [`sample_pairs`]), sorted by
/// (a, b): the corpus's similarity distribution when the full join is out of reach.
pub fn sample_pair_similarities(
    sets: &ShingleSets,
    m: usize,
    seed: u64,
    progress: &Progress,
) -> Result<Vec<TruthPair>> {
    let pairs = sample_pairs(sets.len(), m, seed);
    progress.begin(Phase::Verifying, pairs.len() as u64);
    let chunks: Vec<Vec<TruthPair>> = pairs
        .par_chunks(16 * 1024)
        .map(|chunk| {
            progress.check()?;
            let out = chunk
                .iter()
                .map(|&(a, b)| TruthPair {
                    a,
                    b,
                    jaccard: jaccard(sets.get(a as usize), sets.get(b as usize)),
                })
                .collect();
            progress.advance(chunk.len() as u64);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(chunks.concat())
}

impl JoinPlan<'_> {
    /// Refuses the join with [`Error::Refused`] when its estimated time on this machine's
    /// threads is beyond `budget_seconds`: the one wording of the join's budget, naming the
    /// ways out (a sample, a higher threshold, the distribution, --force).
    pub fn check_budget(&self, budget_seconds: f64) -> Result<()> {
        let threads = rayon::current_num_threads();
        let seconds = self.work.estimated_seconds(threads);
        if seconds <= budget_seconds {
            return Ok(());
        }
        let threshold = self.threshold;
        // The way out comes early: the explorer shows this on one line of the screen.
        Err(Error::refused(format!(
            "exact join at Jaccard ≥ {threshold} over {} documents: ~{seconds:.1} s on \
             {threads} threads, over the budget of {budget_seconds} s. Join a sample: \
             `lshscope truth INPUT {} {threshold} {} {} -o truth.csv`, then scan or \
             explore with the same {Sample} and {Truth} truth.csv; or raise the threshold, see \
             the similarity distribution with {EstimatePairs} M, or run `lshscope truth` with \
             {Force} or a larger {MaxSeconds} (about {:.2e} posting entries to scan)",
            crate::util::numfmt::thousands(self.work.documents as u64),
            Threshold.in_code(),
            Sample.in_code(),
            self.work.sample_that_fits(threads, budget_seconds),
            self.work.estimated_scans,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_lengths_follow_the_formulas() {
        let tf = filter_threshold(0.5);
        // n − ⌈0.5 n⌉ + 1
        assert_eq!(probe_prefix_len(10, tf), 6);
        assert_eq!(probe_prefix_len(9, tf), 5);
        assert_eq!(probe_prefix_len(1, tf), 1);
        // n − ⌈2/3 n⌉ + 1
        assert_eq!(index_prefix_len(9, tf), 4);
        assert_eq!(index_prefix_len(1, tf), 1);
        assert_eq!(probe_prefix_len(0, tf), 0);
        let one = filter_threshold(1.0);
        assert_eq!(probe_prefix_len(7, one), 1);
        assert_eq!(index_prefix_len(7, one), 1);
    }

    #[test]
    fn pair_indexing_round_trips() {
        let mut k = 0u64;
        for b in 1..200u32 {
            for a in 0..b {
                assert_eq!(pair_at(k), (a, b));
                k += 1;
            }
        }
        // Far out, where the f64 square root is inexact.
        let b = 3_000_000_000u64;
        let k = b * (b - 1) / 2 + 17;
        assert_eq!(pair_at(k), (17, b as u32));
        assert_eq!(pair_at(k - 18), (b as u32 - 2, b as u32 - 1));
    }

    #[test]
    fn samples_are_distinct_and_complete_when_asked_for_all() {
        let s = sample_pairs(50, 300, 9);
        assert_eq!(s.len(), 300);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert!(s.iter().all(|&(a, b)| a < b && b < 50));
        assert_eq!(sample_pairs(50, 300, 9), s);
        assert_ne!(sample_pairs(50, 300, 10), s);
        assert_eq!(sample_pairs(5, 100, 1).len(), 10);
        assert!(sample_pairs(1, 10, 1).is_empty());
    }

    #[test]
    fn join_finds_small_cases() {
        let sets = ShingleSets::from_sets(&[
            vec![1, 2, 3, 4],
            vec![],
            vec![1, 2, 3, 5],
            vec![1, 2, 3, 4],
            vec![9],
            vec![9],
            vec![],
        ]);
        let p = Progress::new();
        let got = similarity_join(&sets, 0.6, &p).unwrap();
        let want = brute_force_join(&sets, 0.6);
        assert_eq!(got, want);
        let pairs: Vec<(u32, u32)> = got.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairs, vec![(0, 2), (0, 3), (2, 3), (4, 5)]);
        assert_eq!(got[1].jaccard, 1.0);
        assert!(similarity_join(&sets, 0.0, &p).is_err());
    }

    #[test]
    fn join_handles_degenerate_inputs() {
        let p = Progress::new();
        let none = ShingleSets::from_sets(&[]);
        assert!(similarity_join(&none, 0.5, &p).unwrap().is_empty());
        let empty = ShingleSets::from_sets(&[vec![], vec![], vec![]]);
        let plan = plan_join(&empty, 0.5, &p).unwrap();
        assert_eq!(plan.work.nonempty_documents, 0);
        assert!(plan.run(&p).unwrap().0.is_empty());
        let same = ShingleSets::from_sets(&[vec![7, 8], vec![7, 8], vec![7, 8]]);
        let got = similarity_join(&same, 1.0, &p).unwrap();
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|q| q.jaccard == 1.0));
    }
}
