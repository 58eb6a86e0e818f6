//! Verified pairs handed on sorted by document, however many there are. Up to a run's worth
//! are held in memory, 20 bytes a pair, already partitioned as they come: each pair goes to
//! the bucket of its first document's high bits (4,096 buckets, each a list of chunks), so
//! sorting a run is a least-significant-digit radix sort of each bucket in cache, buckets
//! side by side on the threads, handed on in bucket order: no pass over the whole run and no
//! second buffer as large as it. Beyond a run each full run is sorted and written to a
//! temporary file, and at the end the runs on disk and the last run, still in memory, are
//! merged (an external merge sort); the disk holds 20 bytes a pair while the merge lasts.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::minhash::{PackedPair, VerifiedPair};
use crate::terms::Setting::{SortLimit, Unsorted};
use crate::{Error, Result};

/// Pairs handed on at a time: 4,096 unpacked pairs are 128 KB, so the writer reads them from
/// the cache they were just written to (65,536, 2 MB, cost the writer 0.6 CPU s more on
/// 125.6 M pairs: its reads missed).
const BATCH: usize = 1 << 12;

/// Runs merged into one at a time: as soon as this many runs of one level are on disk they
/// become one run of the next level (a tiered merge), so a small `run_pairs` neither exhausts
/// the process's file descriptors (at most `FAN_IN - 1` files per level) nor rewrites the
/// pairs more than once per level.
const FAN_IN: usize = 16;

/// Records read from a run file at a time while merging (1.3 MB).
const READ_RECORDS: usize = 1 << 16;

/// One held pair: the words of [`PackedPair::to_words`]. Run files hold the same words,
/// little-endian.
type Record = [u32; 5];

/// The record of 20 little-endian bytes (a pair in a run file).
fn record_from_bytes(bytes: &[u8]) -> Record {
    std::array::from_fn(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4")))
}

/// The 20 little-endian bytes of a record.
fn record_bytes(r: &Record) -> [u8; PackedPair::BYTES] {
    let mut bytes = [0u8; PackedPair::BYTES];
    for (chunk, word) in bytes.chunks_exact_mut(4).zip(r) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// The record of `pair`, whose estimate counts `num_perm` rows (done for every pair a scan
/// keeps).
#[inline]
fn record(pair: &VerifiedPair, num_perm: usize) -> Record {
    PackedPair::pack(pair, num_perm).to_words()
}

/// The pair of a record.
#[inline]
fn unrecord(r: &Record, num_perm: usize) -> VerifiedPair {
    PackedPair::from_words(r).unpack(num_perm)
}

/// The order pairs are handed on in: by first document, then second.
fn doc_key(r: &Record) -> u64 {
    (u64::from(r[0]) << 32) | u64::from(r[1])
}

/// Bits of the first document that pick a pair's bucket: 4,096 buckets leave a few ten
/// thousand pairs to each for a run of tens of millions, a sort that stays in cache.
const TOP_BITS: u32 = 12;

/// Records in a bucket's first chunk; each next chunk doubles, up to [`CHUNK_RECORDS`], so a
/// small run wastes little on buckets it barely fills.
const FIRST_CHUNK: usize = 1 << 6;

/// Records in a bucket's largest chunk (80 KB): what a bucket holds beyond its records is at
/// most one such chunk not yet full.
const CHUNK_RECORDS: usize = 1 << 12;

/// Records sorted side by side at most before they are handed on (40 MB, and as much again
/// for the sort's second buffers).
const WINDOW_RECORDS: usize = 1 << 21;

/// The number of bits a value needs (0 for 0).
fn bits_of(value: u64) -> u32 {
    u64::BITS - value.leading_zeros()
}

/// The pairs of one bucket of a [`Partition`], in the order they came: the chunks filled,
/// then the one being filled. The chunk being filled is at hand in the bucket itself, so
/// placing a pair reads the bucket and writes the chunk's tail (a list of chunks whose last
/// is the open one took one more read, of the list, for every pair).
#[derive(Default)]
struct Bucket {
    open: Vec<Record>,
    full: Vec<Vec<Record>>,
}

impl Bucket {
    /// Files the open chunk, full, and opens one twice its size (up to [`CHUNK_RECORDS`]).
    #[cold]
    fn open_next(&mut self) {
        let size = match self.open.capacity() {
            0 => FIRST_CHUNK,
            filled => (2 * filled).min(CHUNK_RECORDS),
        };
        let filled = std::mem::replace(&mut self.open, Vec::with_capacity(size));
        if !filled.is_empty() {
            self.full.push(filled);
        }
    }
}

/// A run of pairs, partitioned by the high bits of their first document as they come.
///
/// A pair (a, b) of documents below `documents` goes to bucket `a >> shift`; in its bucket it
/// is ordered by the key `(a's low shift bits) << bits_b | b`, so bucket by bucket, each sorted
/// on its key, is the run in (a, b) order. A bucket's chunks keep the pairs in the order they
/// came, and the radix sort is stable, so equal pairs keep that order.
struct Partition {
    shift: u32,
    bits_b: u32,
    buckets: Vec<Bucket>,
    len: usize,
    /// The first bucket not yet handed on by [`Partition::next_window`].
    next_bucket: usize,
    /// Pairs a window holds ([`WINDOW_RECORDS`]; fewer in tests, to cross windows).
    window: usize,
}

impl Partition {
    fn new(documents: u64) -> Self {
        let bits = bits_of(documents.saturating_sub(1));
        let top = bits.min(TOP_BITS);
        Partition {
            shift: bits - top,
            bits_b: bits,
            buckets: (0..1usize << top).map(|_| Bucket::default()).collect(),
            len: 0,
            next_bucket: 0,
            window: WINDOW_RECORDS,
        }
    }

    #[inline]
    fn push(&mut self, r: Record) {
        debug_assert!(
            u64::from(r[0]).max(u64::from(r[1])) >> self.bits_b == 0,
            "pair ({}, {}) beyond the documents",
            r[0],
            r[1]
        );
        let bucket = &mut self.buckets[(r[0] >> self.shift) as usize];
        if bucket.open.len() == bucket.open.capacity() {
            bucket.open_next();
        }
        bucket.open.push(r);
        self.len += 1;
    }

    /// Sorts the next buckets not yet handed on into `buffers.sorted`, in order, each record
    /// as `out` turns it, and returns how many records they hold: as many buckets as make up
    /// about [`WINDOW_RECORDS`] pairs (at least one bucket holding pairs), sorted side by side
    /// on the threads. Their chunks are freed as they are sorted. `None` once every pair is
    /// handed on.
    fn next_window<T: Copy + Send + Sync>(
        &mut self,
        out: impl Fn(&Record) -> T + Sync,
        buffers: &mut WindowBuffers<T>,
    ) -> Option<usize> {
        let mut taken = Vec::new();
        let mut records = 0;
        while self.next_bucket < self.buckets.len() && records < self.window {
            let Bucket {
                open,
                full: mut chunks,
            } = std::mem::take(&mut self.buckets[self.next_bucket]);
            self.next_bucket += 1;
            if !open.is_empty() {
                chunks.push(open);
            }
            let held: usize = chunks.iter().map(Vec::len).sum();
            if held > 0 {
                records += held;
                taken.push((chunks, held));
            }
        }
        if taken.is_empty() {
            return None;
        }
        self.len -= records;
        let (shift, bits_b) = (self.shift, self.bits_b);
        let low = (1u64 << shift) - 1;
        let key = move |r: &Record| ((u64::from(r[0]) & low) << bits_b) | u64::from(r[1]);
        // Each bucket sorts into its own stretch of the window's buffers.
        let filler = out(&[0; 5]);
        let (mut keys, mut scratch, mut sorted) = (
            room(&mut buffers.keys, records, 0),
            room(&mut buffers.scratch, records, 0),
            room(&mut buffers.sorted, records, filler),
        );
        let mut jobs = Vec::with_capacity(taken.len());
        for (chunks, held) in taken {
            let (k, rest_keys) = std::mem::take(&mut keys).split_at_mut(held);
            let (s, rest_scratch) = std::mem::take(&mut scratch).split_at_mut(held);
            let (o, rest_sorted) = std::mem::take(&mut sorted).split_at_mut(held);
            (keys, scratch, sorted) = (rest_keys, rest_scratch, rest_sorted);
            jobs.push((chunks, k, s, o));
        }
        jobs.into_par_iter()
            .for_each(|(chunks, keys, scratch, sorted)| {
                sort_bucket(&chunks, shift + bits_b, &key, &out, keys, scratch, sorted);
            });
        Some(records)
    }
}

/// The buffers a window of sorted buckets goes through, reused from window to window (so a
/// run of a hundred million pairs does not map and fault in fresh memory for each window):
/// the sort keys, the radix sort's second buffer, and the sorted records.
struct WindowBuffers<T> {
    keys: Vec<u64>,
    scratch: Vec<u64>,
    sorted: Vec<T>,
}

impl<T> WindowBuffers<T> {
    fn new() -> Self {
        WindowBuffers {
            keys: Vec::new(),
            scratch: Vec::new(),
            sorted: Vec::new(),
        }
    }
}

/// The first `len` items of `buffer`, grown with `filler` if it is shorter (never shrunk: it
/// is filled once, then written over window after window).
fn room<T: Clone>(buffer: &mut Vec<T>, len: usize, filler: T) -> &mut [T] {
    if buffer.len() < len {
        buffer.resize(len, filler);
    }
    &mut buffer[..len]
}

/// Bits of a record's place in its bucket (`chunk << OFFSET_BITS | offset`) that give its
/// offset in its chunk: every chunk holds at most [`CHUNK_RECORDS`].
const OFFSET_BITS: u32 = CHUNK_RECORDS.trailing_zeros();

/// Writes the records of a bucket's `chunks` into `sorted` (as long as they hold), sorted on
/// the low `bits` bits of `key`, stably, each as `out` turns it. What is sorted is 8 bytes a
/// record, the key above the record's place (which grows with arrival, so equal keys keep
/// their order), and the 20-byte records are then gathered once, in order, while the bucket
/// is still in cache (and unpacked then, when `out` unpacks them): moving the records
/// themselves through every pass of the sort cost more. `keys` and `scratch` (as long as
/// `sorted`) are the sort's buffers.
fn sort_bucket<T>(
    chunks: &[Vec<Record>],
    bits: u32,
    key: &impl Fn(&Record) -> u64,
    out: &impl Fn(&Record) -> T,
    keys: &mut [u64],
    scratch: &mut [u64],
    sorted: &mut [T],
) {
    let place_bits = OFFSET_BITS + bits_of(chunks.len().saturating_sub(1) as u64);
    let at =
        |place: u64| &chunks[(place >> OFFSET_BITS) as usize][place as usize & (CHUNK_RECORDS - 1)];
    let places = chunks.iter().enumerate().flat_map(|(c, chunk)| {
        let first = (c as u64) << OFFSET_BITS;
        (0..chunk.len() as u64).map(move |offset| first | offset)
    });
    if bits + place_bits > u64::BITS {
        // Keys too wide to share 64 bits with a place (a corpus of tens of millions of
        // documents and a bucket of millions of pairs): the places sorted by comparison.
        for (k, place) in keys.iter_mut().zip(places) {
            *k = place;
        }
        keys.sort_by_key(|&place| key(at(place)));
        for (s, &place) in sorted.iter_mut().zip(keys.iter()) {
            *s = out(at(place));
        }
        return;
    }
    let mut used = 0;
    let mut next = keys.iter_mut();
    for (c, chunk) in chunks.iter().enumerate() {
        let first = (c as u64) << OFFSET_BITS;
        for ((offset, r), k) in chunk.iter().enumerate().zip(&mut next) {
            let key = key(r);
            used |= key;
            *k = (key << place_bits) | first | offset as u64;
        }
    }
    // Only the bits the bucket's keys use: a bucket of few documents needs fewer passes.
    let order = radix_sort(keys, scratch, place_bits, bits_of(used));
    let mask = (1u64 << place_bits) - 1;
    for (s, &k) in sorted.iter_mut().zip(order.iter()) {
        *s = out(at(k & mask));
    }
}

/// Sorts the distinct values of `values` on their bits `from..from + bits` by a
/// least-significant-digit radix sort (Knuth, TAOCP vol. 3, §5.2.5), which is stable, with
/// `scratch` (as long) as its second buffer; returns the sorted values (in one buffer or the
/// other).
fn radix_sort<'a>(
    values: &'a mut [u64],
    scratch: &'a mut [u64],
    from: u32,
    bits: u32,
) -> &'a [u64] {
    if values.len() <= 64 {
        // A handful: the values are distinct, so any sort is the stable one.
        values.sort_unstable();
        return values;
    }
    // 12-bit digits: 4,096 counters (32 KB) stay in L1, and a 24-bit key (a corpus of up to
    // 262 k documents) takes two passes instead of three.
    const DIGIT: u32 = 12;
    let passes = bits.div_ceil(DIGIT);
    if passes == 0 {
        return values;
    }
    let width = bits.div_ceil(passes);
    let mask = (1u64 << width) - 1;
    let mut counts = vec![0usize; 1 << width];
    let (mut src, mut dst) = (values, scratch);
    for pass in 0..passes {
        let shift = from + pass * width;
        counts.iter_mut().for_each(|c| *c = 0);
        for v in src.iter() {
            counts[((v >> shift) & mask) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for &v in src.iter() {
            let digit = ((v >> shift) & mask) as usize;
            dst[counts[digit]] = v;
            counts[digit] += 1;
        }
        std::mem::swap(&mut src, &mut dst);
    }
    src
}

/// Collects verified pairs and hands them on sorted by (a, b).
pub struct PairSorter {
    num_perm: usize,
    run_pairs: usize,
    documents: u64,
    /// Where run files go: the output's directory (it must take the output anyway), else the
    /// system's temporary directory.
    dir: Option<PathBuf>,
    held: Partition,
    /// Sorted runs on disk with their levels (a run of level L merged 16^L runs), each an
    /// unlinked file (nothing stays behind, even when the process is killed).
    runs: Vec<(u32, File)>,
    /// Runs sorted in memory and written so far.
    runs_written: usize,
}

/// Where a merge reads one sorted run from: a run file, a block at a time, or the last run,
/// still in memory, a window of sorted buckets at a time.
enum RunSource {
    File {
        file: File,
        block: Vec<Record>,
        bytes: Vec<u8>,
        at: usize,
    },
    Memory {
        run: Partition,
        /// The window being read: `buffers.sorted[..len]`.
        buffers: Box<WindowBuffers<Record>>,
        len: usize,
        at: usize,
    },
}

impl RunSource {
    fn file(file: File) -> std::io::Result<Self> {
        // A block of at most the whole run: small runs (a small `run_pairs`) get small buffers.
        let records = file.metadata()?.len() as usize / PackedPair::BYTES;
        let block = records.clamp(1, READ_RECORDS);
        Ok(RunSource::File {
            file,
            block: Vec::with_capacity(block),
            bytes: vec![0; block * PackedPair::BYTES],
            at: 0,
        })
    }

    fn memory(run: Partition) -> Self {
        RunSource::Memory {
            run,
            buffers: Box::new(WindowBuffers::new()),
            len: 0,
            at: 0,
        }
    }

    /// The run's next pair, or `None` at its end.
    fn next(&mut self) -> std::io::Result<Option<Record>> {
        match self {
            RunSource::Memory {
                run,
                buffers,
                len,
                at,
            } => {
                if *at == *len {
                    match run.next_window(|r| *r, buffers) {
                        Some(next) => (*len, *at) = (next, 0),
                        None => return Ok(None),
                    }
                }
                *at += 1;
                Ok(Some(buffers.sorted[*at - 1]))
            }
            RunSource::File {
                file,
                block,
                bytes,
                at,
            } => {
                if *at == block.len() {
                    let filled = read_full(file, bytes)?;
                    if filled % PackedPair::BYTES != 0 {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            "a run file ends inside a pair",
                        ));
                    }
                    block.clear();
                    block.extend(
                        bytes[..filled]
                            .chunks_exact(PackedPair::BYTES)
                            .map(record_from_bytes),
                    );
                    *at = 0;
                }
                let r = block.get(*at).copied();
                *at += 1;
                Ok(r)
            }
        }
    }
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_full(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

impl PairSorter {
    /// A sorter for pairs of positions below `documents` whose estimates count `num_perm`
    /// rows, sorting at most `run_pairs` pairs in memory at a time, with run files in `dir`
    /// (the system's temporary directory when `None`).
    pub fn new(num_perm: usize, run_pairs: usize, documents: u64, dir: Option<&Path>) -> Self {
        PairSorter {
            num_perm,
            run_pairs: run_pairs.max(1),
            documents,
            dir: dir.map(Path::to_path_buf),
            held: Partition::new(documents),
            runs: Vec::new(),
            runs_written: 0,
        }
    }

    /// A fresh run, its windows as large as the held run's.
    fn new_run(&self) -> Partition {
        Partition {
            window: self.held.window,
            ..Partition::new(self.documents)
        }
    }

    /// Takes a batch of pairs in any order; when the pairs held reach the run size, they are
    /// sorted and written to disk as one run (an error names the directory that failed).
    pub fn push(&mut self, batch: &[VerifiedPair]) -> Result<()> {
        for pair in batch {
            // A full run goes to disk only when another pair comes: the last run, full or
            // not, is merged from memory.
            if self.held.len == self.run_pairs {
                self.write_run()?;
            }
            self.held.push(record(pair, self.num_perm));
        }
        Ok(())
    }

    fn disk_error(&self, e: std::io::Error) -> Error {
        let dir = match &self.dir {
            Some(d) => d.display().to_string(),
            None => std::env::temp_dir().display().to_string(),
        };
        Error::io(
            format!(
                "{dir} (sorting pairs on disk, 20 bytes a pair; free space there, raise \
                 {SortLimit}, or give {Unsorted})"
            ),
            e,
        )
    }

    /// A new run file, written by `fill` and rewound for reading.
    fn run_file(
        &self,
        fill: impl FnOnce(&mut dyn FnMut(&Record) -> Result<()>) -> Result<()>,
    ) -> Result<File> {
        let file = match &self.dir {
            Some(d) => tempfile::tempfile_in(d),
            None => tempfile::tempfile(),
        }
        .map_err(|e| self.disk_error(e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        fill(&mut |r| {
            out.write_all(&record_bytes(r))
                .map_err(|e| self.disk_error(e))
        })?;
        let mut file = out
            .into_inner()
            .map_err(|e| self.disk_error(e.into_error()))?;
        file.rewind().map_err(|e| self.disk_error(e))?;
        Ok(file)
    }

    fn write_run(&mut self) -> Result<()> {
        let fresh = self.new_run();
        let mut run = std::mem::replace(&mut self.held, fresh);
        let file = self.run_file(|emit| {
            let mut buffers = WindowBuffers::new();
            while let Some(len) = run.next_window(|r| *r, &mut buffers) {
                buffers.sorted[..len].iter().try_for_each(&mut *emit)?;
            }
            Ok(())
        })?;
        self.runs.push((0, file));
        self.runs_written += 1;
        loop {
            let level = self.runs.last().map_or(0, |r| r.0);
            let start = self.runs.len().saturating_sub(FAN_IN);
            if self.runs.len() < FAN_IN || self.runs[start..].iter().any(|r| r.0 != level) {
                return Ok(());
            }
            let runs = self
                .runs
                .drain(start..)
                .map(|r| RunSource::file(r.1))
                .collect::<std::io::Result<_>>()
                .map_err(|e| self.disk_error(e))?;
            let merged = self.run_file(|emit| self.merge(runs, |r| emit(&r)))?;
            self.runs.push((level + 1, merged));
        }
    }

    /// Merges sorted `runs` into one sequence sorted by (a, b), handing each pair to `emit`;
    /// of equal pairs, the earlier run's goes first.
    fn merge(
        &self,
        mut runs: Vec<RunSource>,
        mut emit: impl FnMut(Record) -> Result<()>,
    ) -> Result<()> {
        // The head of each run; runs are sorted, so the least head is the least pair left.
        // A handful of runs (FAN_IN at most) is searched linearly: quicker than a heap's
        // pointer chasing at that size.
        let mut heads: Vec<(u64, Record, usize)> = Vec::with_capacity(runs.len());
        for (i, run) in runs.iter_mut().enumerate() {
            if let Some(r) = run.next().map_err(|e| self.disk_error(e))? {
                heads.push((doc_key(&r), r, i));
            }
        }
        while !heads.is_empty() {
            let mut least = 0;
            for (h, head) in heads.iter().enumerate().skip(1) {
                if (head.0, head.2) < (heads[least].0, heads[least].2) {
                    least = h;
                }
            }
            let (_, r, run) = heads[least];
            emit(r)?;
            match runs[run].next().map_err(|e| self.disk_error(e))? {
                Some(next) => heads[least] = (doc_key(&next), next, run),
                None => {
                    heads.swap_remove(least);
                }
            }
        }
        Ok(())
    }

    /// Hands every pair on to `sink` in (a, b) order, in batches; returns the runs that went
    /// to disk (0 when all fit in one run, in memory).
    pub fn finish(mut self, mut sink: impl FnMut(&[VerifiedPair]) -> Result<()>) -> Result<usize> {
        let k = self.num_perm;
        if self.runs.is_empty() {
            // Unpacked as they are gathered, on the threads; handed on as they lie, while the
            // next window is sorted (handing on, the writer's formatting, is one thread's
            // work: the other would wait).
            let unpack = move |r: &Record| unrecord(r, k);
            let (mut ready, mut next) = (WindowBuffers::new(), WindowBuffers::new());
            let mut ready_len = self.held.next_window(unpack, &mut ready);
            while let Some(len) = ready_len {
                let (held, next_buffers) = (&mut self.held, &mut next);
                let mut next_len = None;
                let handed_on = rayon::in_place_scope(|scope| {
                    scope.spawn(|_| next_len = held.next_window(unpack, next_buffers));
                    ready.sorted[..len].chunks(BATCH).try_for_each(&mut sink)
                });
                handed_on?;
                std::mem::swap(&mut ready, &mut next);
                ready_len = next_len;
            }
            return Ok(0);
        }
        let mut batch = Vec::with_capacity(BATCH);
        // The last run stays in memory and is merged with those on disk, after them (it
        // holds the latest pairs).
        let mut runs: Vec<RunSource> = std::mem::take(&mut self.runs)
            .into_iter()
            .map(|r| RunSource::file(r.1))
            .collect::<std::io::Result<_>>()
            .map_err(|e| self.disk_error(e))?;
        let fresh = self.new_run();
        let last = std::mem::replace(&mut self.held, fresh);
        if last.len > 0 {
            runs.push(RunSource::memory(last));
        }
        self.merge(runs, |r| {
            batch.push(unrecord(&r, k));
            if batch.len() == BATCH {
                sink(&batch)?;
                batch.clear();
            }
            Ok(())
        })?;
        if !batch.is_empty() {
            sink(&batch)?;
        }
        Ok(self.runs_written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: u32, b: u32, agreeing: u32) -> VerifiedPair {
        VerifiedPair {
            a,
            b,
            bands_hit: agreeing % 7,
            jaccard: f64::from(agreeing) / 100.0,
            estimate: f64::from(agreeing) / 64.0,
        }
    }

    /// Pairs in a scrambled order, distinct (a, b) as a scan makes them.
    fn scrambled(n: u32) -> Vec<VerifiedPair> {
        (0..n)
            .map(|i| {
                let x = i.wrapping_mul(2_654_435_761) % 997;
                let y = x + 1 + i % 13 + 13 * (i / 997);
                pair(x, y, i % 64)
            })
            .collect()
    }

    /// `pairs` through a sorter of runs of `run_pairs`, with windows of at most `window` pairs.
    fn sorted_windows(
        pairs: &[VerifiedPair],
        run_pairs: usize,
        window: usize,
    ) -> (Vec<VerifiedPair>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let documents = pairs.iter().map(|p| u64::from(p.b.max(p.a)) + 1).max();
        let mut sorter = PairSorter::new(64, run_pairs, documents.unwrap_or(0), Some(dir.path()));
        sorter.held.window = window;
        for chunk in pairs.chunks(37) {
            sorter.push(chunk).unwrap();
        }
        let mut out = Vec::new();
        let runs = sorter
            .finish(|batch| {
                out.extend_from_slice(batch);
                Ok(())
            })
            .unwrap();
        // The run files were unlinked when made: nothing is left in the directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        (out, runs)
    }

    /// `pairs` through a sorter of runs of `run_pairs`, in windows of every size: one window
    /// for all, one bucket a window, and windows of a few buckets.
    fn sorted_through(pairs: &[VerifiedPair], run_pairs: usize) -> (Vec<VerifiedPair>, usize) {
        let whole = sorted_windows(pairs, run_pairs, WINDOW_RECORDS);
        for window in [1, 100] {
            assert!(
                sorted_windows(pairs, run_pairs, window) == whole,
                "runs of {run_pairs}, windows of {window}"
            );
        }
        whole
    }

    #[test]
    fn runs_on_disk_merge_into_the_in_memory_order() {
        let pairs = scrambled(20_000);
        let mut expected = pairs.clone();
        expected.sort_by_key(|p| (p.a, p.b));
        let (in_memory, runs) = sorted_through(&pairs, usize::MAX);
        assert_eq!(runs, 0);
        assert_eq!(in_memory, expected);
        for run_pairs in [1, 999, 5_000, 19_999, 20_000] {
            let (merged, runs) = sorted_through(&pairs, run_pairs);
            // Every run but the last goes to disk.
            assert_eq!(runs, 20_000usize.div_ceil(run_pairs) - 1, "{run_pairs}");
            assert_eq!(merged, expected, "{run_pairs} pairs a run");
        }
    }

    /// A generator of reproducible pseudo-random numbers (SplitMix64).
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE5_E4B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The radix sort and the merge against a stable comparison sort, on key shapes that
    /// take each of its paths: one first document for all (one bucket of every pair), the
    /// widest positions (a 64-bit key), one bucket of those (keys too wide to share 64 bits
    /// with a place, sorted by comparison), few distinct keys (ties, whose pairs differ and must
    /// keep their input order), and sizes around the in-cache cut-off.
    #[test]
    fn the_radix_sort_and_merge_order_as_a_stable_sort_does() {
        let mut state = 7;
        type Positions = fn(u64) -> (u32, u32);
        let shapes: [(&str, Positions); 6] = [
            ("corpus-like", |x| {
                ((x % 50_000) as u32, (x >> 20) as u32 % 60_000)
            }),
            ("one first document", |x| (3, (x % 1_000_000) as u32)),
            ("widest", |x| ((x >> 32) as u32, x as u32)),
            // One bucket of keys too wide to pack with a place: the comparison sort.
            ("one bucket, widest", |x| ((x >> 44) as u32, x as u32)),
            ("ties", |x| ((x % 5) as u32, (x >> 8) as u32 % 3)),
            ("one key", |_| (9, 10)),
        ];
        for (shape, make) in shapes {
            for n in [0usize, 1, 2, 31, 33, 300, 70_000] {
                let pairs: Vec<VerifiedPair> = (0..n)
                    .map(|i| {
                        let (a, b) = make(splitmix(&mut state));
                        pair(a, b, i as u32 % 64)
                    })
                    .collect();
                let mut expected = pairs.clone();
                expected.sort_by_key(|p| (p.a, p.b));
                for run_pairs in [usize::MAX, 1_000, 7] {
                    if run_pairs == 7 && n > 300 {
                        continue;
                    }
                    let (got, _) = sorted_through(&pairs, run_pairs);
                    assert!(got == expected, "{shape}, {n} pairs, runs of {run_pairs}");
                }
            }
        }
    }

    #[test]
    fn a_packed_pair_reads_back_from_its_bytes() {
        for p in scrambled(500) {
            let packed = PackedPair::pack(&p, 64);
            let words = packed.to_words();
            assert_eq!(record_from_bytes(&record_bytes(&words)), words);
            assert_eq!(PackedPair::from_words(&words), packed);
            assert_eq!(unrecord(&record(&p, 64), 64), p);
        }
    }

    #[test]
    fn a_directory_that_cannot_take_runs_is_named() {
        let mut sorter =
            PairSorter::new(64, 2, 2_000, Some(Path::new("/nonexistent/lshscope-runs")));
        let err = sorter.push(&scrambled(3)).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/lshscope-runs"), "{err}");
        assert!(err.contains("give `unsorted`"), "{err}");
    }
}
