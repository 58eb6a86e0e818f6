//! The one sequence every face runs: read → index → band → verify, timing each phase.
//!
//! `scan`, `truth`, `bench` and the explorer's load all go through a [`Pipeline`], so they
//! read, index, band and verify the same way and report the same [`PhaseTiming`]s.
//! Cancellation travels through the [`Progress`] handle the pipeline is given: each phase
//! checks it between chunks and returns [`crate::Error::Cancelled`].
//!
//! The explorer's incremental re-banding (new b or r, similarities reused from the previous
//! banding) is [`rebanding`]; whether a banding's candidates are enumerated or sampled is
//! [`band_policy`]; opening a corpus through the index cache is [`open`].

pub mod band_policy;
pub mod bucketed;
pub mod cache;
mod dedup;
pub mod open;
pub mod rebanding;
pub(crate) mod sorted_pairs;

use std::path::Path;
use std::time::Instant;

use crate::Result;
use crate::corpus::{Corpus, ReadOptions, ReadReport, read_corpus};
use crate::jobs::{Phase, Progress};
use crate::minhash::{
    BandingOptions, BucketLists, CandidatePair, Candidates, IdenticalGroups, Index, IndexOptions,
    StreamCounts, VerifiedPair, bucket_lists, build_index, find_candidates, stream_verified,
    verify,
};

/// A streamed scan sorts up to this many pairs at a time in memory (20 bytes a pair held,
/// partitioned as they come: 2.7 GB at most); more go through sorted runs on disk
/// ([`PairOrder::Sorted`]). Sized so a scan that writes 130 M pairs sorts them without a run
/// on disk and stays under 4 GiB with its index (docs/performance.md, "Sorted output").
pub const SORTED_PAIRS_UP_TO: usize = 1 << 27;

/// The order in which [`Pipeline::stream_verified`] hands pairs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairOrder {
    /// Sorted by (a, b), as the listing gives them: up to `run_pairs` at a time in memory, and
    /// runs of that many sorted on disk, in `dir` (the system's temporary directory when
    /// `None`), and merged.
    Sorted {
        /// Pairs held and sorted in memory at a time; each full batch becomes one run on disk.
        run_pairs: usize,
        /// Where the runs are written; the system's temporary directory when `None`.
        dir: Option<std::path::PathBuf>,
    },
    /// As found, band by band: no sorting, no disk.
    AsFound,
}

pub use rebanding::{MAX_BUCKET_PAIRS, MAX_KNOWN_PAIRS, estimated_bucket_pairs, reband, remember};

/// Time and throughput of one finished phase (serialised as is in `scan --summary-json`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhaseTiming {
    /// The phase that finished.
    pub phase: Phase,
    /// Wall-clock seconds it took.
    pub seconds: f64,
    /// What the phase processed, in `unit`s (bytes read, pairs verified, …).
    pub items: u64,
    /// The unit of `items`, as a summary prints it (`bytes`, `pairs`, …).
    pub unit: &'static str,
}

impl PhaseTiming {
    /// The timing of `phase`, started at `start` and finished now.
    pub fn new(phase: Phase, start: Instant, items: u64, unit: &'static str) -> Self {
        PhaseTiming {
            phase,
            seconds: start.elapsed().as_secs_f64(),
            items,
            unit,
        }
    }

    /// Items per second (0 for a phase too quick to time).
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.items as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// A corpus read and indexed: what every face works on.
#[derive(Debug)]
pub struct Loaded {
    /// The documents, in input order.
    pub corpus: Corpus,
    /// How the corpus was read (rows, skipped, duplicates, …).
    pub read: ReadReport,
    /// Their shingle sets and signatures.
    pub index: Index,
}

/// Told of each phase as it finishes ([`Pipeline::on_phase`]).
pub type PhaseObserver<'a> = Box<dyn FnMut(&PhaseTiming) + 'a>;

/// Runs the phases of one job on one [`Progress`] handle and records their timings.
///
/// ```
/// use lshscope_core::jobs::Progress;
/// use lshscope_core::minhash::{Banding, BandingOptions, IndexOptions};
/// use lshscope_core::pipeline::Pipeline;
///
/// let progress = Progress::new();
/// let mut run = Pipeline::new(&progress);
/// let (corpus, read) = run.read_with(|_| {
///     let corpus = lshscope_core::corpus::Corpus::from_texts([
///         "the quick brown fox jumps over the lazy dog",
///         "the quick brown fox jumps over the lazy dog!",
///         "something else entirely, with other words",
///     ]);
///     Ok((corpus, Default::default()))
/// })?;
/// let index = run.index(&corpus, &IndexOptions::default())?;
/// let banding = BandingOptions { banding: Banding::new(32, 4, 128)?, max_bucket: None };
/// let (_, pairs) = run.band_and_verify(&index, &banding, 0.8)?;
/// assert_eq!((pairs[0].a, pairs[0].b), (0, 1));
/// assert_eq!(run.phases().len(), 4); // reading, signatures, banding, verifying
/// # Ok::<(), lshscope_core::Error>(())
/// ```
pub struct Pipeline<'a> {
    progress: &'a Progress,
    phases: Vec<PhaseTiming>,
    on_phase: Option<PhaseObserver<'a>>,
}

impl<'a> Pipeline<'a> {
    /// A pipeline with no phase run yet, reporting to `progress`.
    pub fn new(progress: &'a Progress) -> Self {
        Pipeline {
            progress,
            phases: Vec::new(),
            on_phase: None,
        }
    }

    /// Calls `observer` with each phase as it finishes (the explorer's loading screen lists
    /// them while the next one runs).
    pub fn on_phase(mut self, observer: impl FnMut(&PhaseTiming) + 'a) -> Self {
        self.on_phase = Some(Box::new(observer));
        self
    }

    /// The handle every phase reports to and checks for cancellation.
    pub fn progress(&self) -> &'a Progress {
        self.progress
    }

    /// The finished phases, in the order they ran.
    pub fn phases(&self) -> &[PhaseTiming] {
        &self.phases
    }

    /// The finished phases' timings, giving up the pipeline.
    pub fn into_phases(self) -> Vec<PhaseTiming> {
        self.phases
    }

    /// Runs `work` as `phase` and records its timing; `work` returns its value and how many
    /// `unit`s it processed. For phases beyond the four below (the join, writing output).
    pub fn timed<T>(
        &mut self,
        phase: Phase,
        unit: &'static str,
        work: impl FnOnce(&Progress) -> Result<(T, u64)>,
    ) -> Result<T> {
        self.progress.check()?;
        let start = Instant::now();
        let (value, items) = work(self.progress)?;
        let timing = PhaseTiming::new(phase, start, items, unit);
        if let Some(observer) = &mut self.on_phase {
            observer(&timing);
        }
        self.phases.push(timing);
        Ok(value)
    }

    /// Reads a corpus file or directory (`-` is stdin).
    pub fn read(&mut self, input: &Path, options: &ReadOptions) -> Result<(Corpus, ReadReport)> {
        self.read_with(|progress| read_corpus(input, options, progress))
    }

    /// The reading phase for documents that come from elsewhere (a generator, an embedded
    /// sample, memory): `read` returns them with the report of how they were read.
    pub fn read_with(
        &mut self,
        read: impl FnOnce(&Progress) -> Result<(Corpus, ReadReport)>,
    ) -> Result<(Corpus, ReadReport)> {
        self.timed(Phase::Reading, "bytes", |progress| {
            let (corpus, report) = read(progress)?;
            let bytes = report.bytes;
            Ok(((corpus, report), bytes))
        })
    }

    /// Shingles every document and computes its MinHash signature.
    pub fn index(&mut self, corpus: &Corpus, options: &IndexOptions) -> Result<Index> {
        self.timed(Phase::Signatures, "bytes", |progress| {
            let index = build_index(corpus, options, progress)?;
            Ok((index, corpus.text_bytes() as u64))
        })
    }

    /// [`Pipeline::read`] then [`Pipeline::index`].
    pub fn load(
        &mut self,
        input: &Path,
        read: &ReadOptions,
        index: &IndexOptions,
    ) -> Result<Loaded> {
        let (corpus, read) = self.read(input, read)?;
        let index = self.index(&corpus, index)?;
        Ok(Loaded {
            corpus,
            read,
            index,
        })
    }

    /// The candidate pairs of a banding (documents sharing a bucket in at least one band).
    pub fn candidates(&mut self, index: &Index, options: &BandingOptions) -> Result<Candidates> {
        self.timed(Phase::Banding, "bucket pairs", |progress| {
            let candidates = find_candidates(&index.signatures, options, progress)?;
            let bucket_pairs = candidates.bucket_pairs;
            Ok((candidates, bucket_pairs))
        })
    }

    /// Exact Jaccard and estimate of each candidate; keeps those with Jaccard ≥ `threshold`.
    pub fn verify(
        &mut self,
        index: &Index,
        candidates: &[CandidatePair],
        threshold: f64,
    ) -> Result<Vec<VerifiedPair>> {
        self.timed(Phase::Verifying, "pairs", |progress| {
            let pairs = verify(index, candidates, threshold, progress)?;
            Ok((pairs, candidates.len() as u64))
        })
    }

    /// Groups documents with identical shingle sets (the collapsing phase).
    pub fn identical_groups(&mut self, index: &Index) -> Result<IdenticalGroups> {
        self.timed(Phase::Collapsing, "docs", |_| {
            Ok((IdenticalGroups::find(&index.sets), index.len() as u64))
        })
    }

    /// The buckets of every band among the documents `included` marks (all when `None`):
    /// the banding phase of a streamed scan.
    pub fn bucket_lists(
        &mut self,
        index: &Index,
        options: &BandingOptions,
        included: Option<&[bool]>,
    ) -> Result<BucketLists> {
        self.timed(Phase::Banding, "bucket pairs", |progress| {
            let lists = bucket_lists(&index.signatures, options, included, progress)?;
            let bucket_pairs = lists.bucket_pairs;
            Ok((lists, bucket_pairs))
        })
    }

    /// Bands, verifies and hands on the pairs at or above `threshold` as they are found
    /// ([`stream_verified`]): memory follows the documents and bands, not the pairs. With
    /// [`PairOrder::Sorted`] they are handed on sorted by (a, b), sorted in memory up to a run
    /// and beyond that through runs on disk (a sorter of this crate, `sorted_pairs`); with
    /// [`PairOrder::AsFound`], band by band. `copies` (the identical groups) lets pairs of
    /// copies skip their verification. Returns the counts and the runs that went to disk.
    pub fn stream_verified(
        &mut self,
        index: &Index,
        lists: &BucketLists,
        copies: Option<&IdenticalGroups>,
        threshold: f64,
        order: &PairOrder,
        mut sink: impl FnMut(&[VerifiedPair]) -> Result<()>,
    ) -> Result<(StreamCounts, usize)> {
        let k = index.signatures.num_perm();
        self.timed(Phase::Verifying, "pairs", |progress| match order {
            PairOrder::AsFound => {
                let counts = stream_verified(index, lists, copies, threshold, progress, sink)?;
                Ok(((counts, 0), counts.candidates))
            }
            PairOrder::Sorted { run_pairs, dir } => {
                let mut sorter = sorted_pairs::PairSorter::new(
                    k,
                    *run_pairs,
                    index.len() as u64,
                    dir.as_deref(),
                );
                let counts = stream_verified(index, lists, copies, threshold, progress, |batch| {
                    sorter.push(batch)
                })?;
                let runs = sorter.finish(&mut sink)?;
                Ok(((counts, runs), counts.candidates))
            }
        })
    }

    /// [`Pipeline::candidates`] then [`Pipeline::verify`].
    pub fn band_and_verify(
        &mut self,
        index: &Index,
        options: &BandingOptions,
        threshold: f64,
    ) -> Result<(Candidates, Vec<VerifiedPair>)> {
        let candidates = self.candidates(index, options)?;
        let pairs = self.verify(index, &candidates.pairs, threshold)?;
        Ok((candidates, pairs))
    }
}

/// Reads and indexes a corpus in one call, with the timings of both phases.
pub fn load(
    input: &Path,
    read: &ReadOptions,
    index: &IndexOptions,
    progress: &Progress,
) -> Result<(Loaded, Vec<PhaseTiming>)> {
    let mut run = Pipeline::new(progress);
    let loaded = run.load(input, read, index)?;
    Ok((loaded, run.into_phases()))
}
