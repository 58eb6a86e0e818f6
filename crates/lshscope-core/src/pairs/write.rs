//! Writing verified pairs: CSV, JSON Lines or Parquet, in parallel chunks for CSV.

use super::*;

/// The columns of a pair file, in order (CSV header and JSON Lines keys).
pub const PAIR_COLUMNS: &[&str] = &["id_a", "id_b", "jaccard", "estimate", "bands_hit"];

/// [`PAIR_COLUMNS`] and a human label (the explorer's exports).
pub const LABELLED_PAIR_COLUMNS: &[&str] =
    &["id_a", "id_b", "jaccard", "estimate", "bands_hit", "label"];

/// Writes pairs as CSV (`id_a,id_b,jaccard,estimate,bands_hit`), JSON Lines with the same keys
/// in the same order, or Parquet; with `label`, a last `label` column (CSV and JSON Lines).
/// Floats use the shortest representation that round-trips, so every tool reading them sees
/// the same value. `progress` advances per row written.
pub fn write_pairs<'p>(
    w: &mut dyn Write,
    corpus: &Corpus,
    pairs: impl ExactSizeIterator<Item = &'p VerifiedPair>,
    format: OutputFormat,
    progress: Option<&Progress>,
    label: Option<&dyn Fn(&VerifiedPair) -> &'static str>,
) -> std::io::Result<()> {
    let Some(label) = label else {
        let mut out = PairWriter::new(w, corpus, format, progress)?;
        // In batches, so CSV is formatted on all threads.
        let mut batch = Vec::with_capacity(
            pairs
                .len()
                .min(4 * CSV_CHUNK_ROWS * rayon::current_num_threads()),
        );
        for p in pairs {
            batch.push(*p);
            if batch.len() == batch.capacity() {
                out.write_batch(&batch)?;
                batch.clear();
            }
        }
        out.write_batch(&batch)?;
        return out.finish();
    };
    if format == OutputFormat::Parquet {
        return Err(std::io::Error::other(
            "labelled pairs are written as CSV or JSON Lines, not Parquet",
        ));
    }
    let mut out = RowWriter::new(w, format, LABELLED_PAIR_COLUMNS, progress)?;
    let mut row = Vec::with_capacity(LABELLED_PAIR_COLUMNS.len());
    for p in pairs {
        row.clear();
        row.extend(pair_fields(corpus, p));
        row.push(Field::Str(label(p)));
        out.write_row(&row)?;
    }
    out.finish()
}

/// The fields of a pair in [`PAIR_COLUMNS`] order.
pub(super) fn pair_fields<'c>(corpus: &'c Corpus, p: &VerifiedPair) -> [Field<'c>; 5] {
    [
        Field::Str(corpus.id(p.a as usize)),
        Field::Str(corpus.id(p.b as usize)),
        Field::F64(p.jaccard),
        Field::F64(p.estimate),
        Field::U64(p.bands_hit as u64),
    ]
}

/// Writes pairs one at a time or in batches, as CSV, JSON Lines or Parquet ([`PAIR_COLUMNS`]):
/// what a scan that streams its pairs writes through.
///
/// CSV, the common case, has its own formatter (`PairCsv`): large batches are formatted in
/// parallel, in chunks whose bytes are then written in order, so the file is byte for byte
/// what one thread writing row by row gives.
pub struct PairWriter<'w, 'p, 'c> {
    corpus: &'c Corpus,
    kind: PairWriterKind<'w, 'p>,
}

enum PairWriterKind<'w, 'p> {
    Csv {
        out: &'w mut dyn Write,
        buf: Vec<u8>,
        format: PairCsv,
        /// One set of float caches per worker thread (the last for the calling thread), so
        /// the values a thread has formatted stay cached from one batch to the next.
        caches: Vec<std::sync::Mutex<PairCsvCaches>>,
        /// The formatted bytes of the chunks of one parallel group, reused from group to
        /// group (fresh megabyte buffers would each be mapped and faulted in anew).
        chunks: Vec<Vec<u8>>,
        progress: Option<&'p Progress>,
        since_update: u64,
    },
    Rows(RowWriter<'w, 'p>),
    Parquet {
        out: Box<crate::pairs::parquet::PairsParquetWriter<&'w mut dyn Write>>,
        ids: crate::pairs::parquet::IdColumn,
        progress: Option<&'p Progress>,
        since_update: u64,
    },
}

/// Rows per chunk formatted by one thread: large enough to amortise the hand-off, small
/// enough that a few chunks per thread keep both cores busy and the formatted bytes small.
const CSV_CHUNK_ROWS: usize = 16 * 1024;

impl<'w, 'p, 'c> PairWriter<'w, 'p, 'c> {
    /// A writer of pairs in `format` to `w`, naming documents by their ids in `corpus`;
    /// `progress`, when given, counts the rows written.
    pub fn new(
        w: &'w mut dyn Write,
        corpus: &'c Corpus,
        format: OutputFormat,
        progress: Option<&'p Progress>,
    ) -> std::io::Result<Self> {
        let kind = match format {
            OutputFormat::Parquet => PairWriterKind::Parquet {
                out: Box::new(crate::pairs::parquet::PairsParquetWriter::new(w)?),
                ids: crate::pairs::parquet::IdColumn::new((0..corpus.len()).map(|i| corpus.id(i))),
                progress,
                since_update: 0,
            },
            OutputFormat::Csv => {
                let mut buf = Vec::with_capacity(BUFFER + 4096);
                for (i, c) in PAIR_COLUMNS.iter().enumerate() {
                    if i > 0 {
                        buf.push(b',');
                    }
                    push_csv_str(&mut buf, c);
                }
                buf.push(b'\n');
                let threads = rayon::current_num_threads();
                PairWriterKind::Csv {
                    out: w,
                    buf,
                    format: PairCsv::new(corpus),
                    caches: (0..=threads)
                        .map(|_| std::sync::Mutex::new(PairCsvCaches::new()))
                        .collect(),
                    chunks: Vec::new(),
                    progress,
                    since_update: 0,
                }
            }
            OutputFormat::Jsonl => {
                PairWriterKind::Rows(RowWriter::new(w, format, PAIR_COLUMNS, progress)?)
            }
        };
        Ok(PairWriter { corpus, kind })
    }

    /// Writes one pair (positions are looked up in the corpus for its ids).
    pub fn write(&mut self, p: &VerifiedPair) -> std::io::Result<()> {
        match &mut self.kind {
            PairWriterKind::Csv { .. } => self.write_batch(std::slice::from_ref(p)),
            PairWriterKind::Rows(out) => out.write_row(&pair_fields(self.corpus, p)),
            PairWriterKind::Parquet {
                out,
                ids,
                progress,
                since_update,
            } => {
                out.write_indexed_pair(ids, p.a, p.b, p.jaccard, p.estimate, p.bands_hit)?;
                *since_update += 1;
                if *since_update == PROGRESS_EVERY {
                    *since_update = 0;
                    if let Some(progress) = progress {
                        progress.advance(PROGRESS_EVERY);
                        if progress.is_cancelled() {
                            return Err(std::io::Error::other("cancelled"));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Writes `pairs` in order; the same bytes as [`PairWriter::write`] on each, faster: CSV
    /// batches of more than one chunk are formatted on all threads.
    pub fn write_batch(&mut self, pairs: &[VerifiedPair]) -> std::io::Result<()> {
        let PairWriterKind::Csv {
            out,
            buf,
            format,
            caches,
            chunks,
            progress,
            since_update,
        } = &mut self.kind
        else {
            return pairs.iter().try_for_each(|p| self.write(p));
        };
        let caller = caches.len() - 1;
        // Whole groups of chunks in parallel (a group at a time, so the formatted bytes held
        // stay a few megabytes), the rest on this thread.
        let group = CSV_CHUNK_ROWS * (caches.len() - 1).max(1);
        let mut rest = pairs;
        while rest.len() >= 2 * CSV_CHUNK_ROWS && caches.len() > 2 {
            let (now, later) = rest.split_at(rest.len().min(group));
            let format = &*format;
            let caches = &*caches;
            let count = now.len().div_ceil(CSV_CHUNK_ROWS);
            if chunks.len() < count {
                chunks.resize_with(count, Vec::new);
            }
            now.par_chunks(CSV_CHUNK_ROWS)
                .zip(chunks[..count].par_iter_mut())
                .for_each(|(chunk, bytes)| {
                    let thread = rayon::current_thread_index().unwrap_or(caller).min(caller);
                    let mut caches = caches[thread].lock().unwrap_or_else(|e| e.into_inner());
                    bytes.clear();
                    format.push_rows(&mut caches, bytes, chunk);
                });
            if !buf.is_empty() {
                out.write_all(buf)?;
                buf.clear();
            }
            for bytes in &chunks[..count] {
                out.write_all(bytes)?;
            }
            count_rows(*progress, since_update, now.len() as u64)?;
            rest = later;
        }
        let mut caches = caches[caller].lock().unwrap_or_else(|e| e.into_inner());
        for chunk in rest.chunks(CSV_CHUNK_ROWS) {
            format.push_rows(&mut caches, buf, chunk);
            if buf.len() >= BUFFER {
                out.write_all(buf)?;
                buf.clear();
            }
            count_rows(*progress, since_update, chunk.len() as u64)?;
        }
        Ok(())
    }

    /// Writes what is still buffered (a Parquet file's last row group and footer) and flushes.
    pub fn finish(self) -> std::io::Result<()> {
        match self.kind {
            PairWriterKind::Csv {
                out,
                buf,
                progress,
                since_update,
                ..
            } => {
                if let Some(progress) = progress {
                    progress.advance(since_update);
                }
                out.write_all(&buf)?;
                out.flush()
            }
            PairWriterKind::Rows(out) => out.finish(),
            PairWriterKind::Parquet {
                out,
                progress,
                since_update,
                ..
            } => {
                if let Some(progress) = progress {
                    progress.advance(since_update);
                }
                out.finish().map(|_| ())
            }
        }
    }
}

/// Counts `rows` more rows written, advancing `progress` every [`PROGRESS_EVERY`] rows and
/// stopping with an error once it is cancelled.
fn count_rows(
    progress: Option<&Progress>,
    since_update: &mut u64,
    rows: u64,
) -> std::io::Result<()> {
    *since_update += rows;
    if *since_update >= PROGRESS_EVERY {
        if let Some(p) = progress {
            p.advance(*since_update);
            if p.is_cancelled() {
                return Err(std::io::Error::other("cancelled"));
            }
        }
        *since_update = 0;
    }
    Ok(())
}

/// Spare bytes after the last id of [`PairCsv::ids`], so any id is copied in whole 16-byte
/// moves without reading past the allocation.
const ID_PAD: usize = 16;

/// Bytes a row may take besides its two ids, counting what the fixed-size copies write past
/// the end of each field: two floats of 24 bytes (the uncached ones are at most 24 long),
/// 16 past each id, a u32 of at most 10 digits, four commas and the line break.
const ROW_SLACK: usize = 2 * 24 + 2 * 16 + 16 + 8;

/// The CSV form of pair rows, formatted straight into bytes: ids copied from one arena of
/// their CSV fields (quoted once, here, where they must be), floats from [`FloatCache`]s (so
/// the text is `ryu`'s shortest round-trip form, `.0` dropped, exactly as [`RowWriter`] writes
/// it), and every field copied with fixed-size moves into room reserved once per row.
struct PairCsv {
    ids: Vec<u8>,
    /// `ids[id_start[d]..id_start[d + 1]]` is the CSV field of document d's id.
    id_start: Vec<usize>,
}

/// The float caches of one thread formatting [`PairCsv`] rows: one per column, so the K + 1
/// estimate values are never pushed out by the many Jaccard values.
struct PairCsvCaches {
    jaccard: FloatCache,
    estimate: FloatCache,
}

impl PairCsvCaches {
    fn new() -> Self {
        PairCsvCaches {
            jaccard: FloatCache::with_slots_log2(12),
            estimate: FloatCache::with_slots_log2(10),
        }
    }
}

impl PairCsv {
    fn new(corpus: &Corpus) -> Self {
        let mut ids = Vec::new();
        let mut id_start = Vec::with_capacity(corpus.len() + 1);
        id_start.push(0);
        for d in 0..corpus.len() {
            push_csv_str(&mut ids, corpus.id(d));
            id_start.push(ids.len());
        }
        ids.extend_from_slice(&[0; ID_PAD]);
        PairCsv { ids, id_start }
    }

    /// Appends the rows of `pairs` to `out`.
    fn push_rows(&self, caches: &mut PairCsvCaches, out: &mut Vec<u8>, pairs: &[VerifiedPair]) {
        for (k, p) in pairs.iter().enumerate() {
            // Pairs come sorted by a, or by bucket: b's id is a random place in an arena of
            // every id (tens of MB on a million documents), so its offset is fetched 16 rows
            // ahead and its bytes 8 rows ahead (the offset is cached by then).
            if let Some(ahead) = pairs.get(k + 16) {
                prefetch_line(self.id_start.as_ptr().wrapping_add(ahead.b as usize));
            }
            if let Some(ahead) = pairs.get(k + 8) {
                prefetch_line(
                    self.ids
                        .as_ptr()
                        .wrapping_add(self.id_start[ahead.b as usize]),
                );
            }
            let (a, b) = (p.a as usize, p.b as usize);
            let (a_start, a_end) = (self.id_start[a], self.id_start[a + 1]);
            let (b_start, b_end) = (self.id_start[b], self.id_start[b + 1]);
            out.reserve((a_end - a_start) + (b_end - b_start) + ROW_SLACK);
            let jaccard = caches.jaccard.text(p.jaccard);
            let estimate = caches.estimate.text(p.estimate);
            // SAFETY: `out` has room for the row and every byte the block copies write past a
            // field (ROW_SLACK counts them); the id copies read at most ID_PAD − 1 bytes past
            // an id, inside `ids` (which ends with ID_PAD spare bytes); a float's text is
            // followed by at least 24 − len readable bytes of its slot (text and length) or of
            // the 32-byte uncached buffer; `set_len` covers exactly the bytes written as fields.
            unsafe {
                let start = out.as_mut_ptr().add(out.len());
                let mut w = start;
                w = copy_blocks(w, self.ids.as_ptr().add(a_start), a_end - a_start);
                *w = b',';
                w = copy_blocks(w.add(1), self.ids.as_ptr().add(b_start), b_end - b_start);
                *w = b',';
                w = w.add(1);
                std::ptr::copy_nonoverlapping(jaccard.0, w, 24);
                w = w.add(jaccard.1);
                *w = b',';
                w = w.add(1);
                std::ptr::copy_nonoverlapping(estimate.0, w, 24);
                w = w.add(estimate.1);
                *w = b',';
                w = write_u32(w.add(1), p.bands_hit);
                *w = b'\n';
                w = w.add(1);
                out.set_len(out.len() + w.offset_from(start) as usize);
            }
        }
    }
}

/// Copies `len` bytes from `src` to `dst` in 16-byte moves (so up to 15 bytes more are read
/// and written) and returns the end of the `len` bytes at `dst`.
///
/// # Safety
/// `src..src + len` rounded up to 16 must be readable and `dst..` as much writable.
#[inline(always)]
unsafe fn copy_blocks(dst: *mut u8, src: *const u8, len: usize) -> *mut u8 {
    let mut done = 0;
    while done < len {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(src.add(done), dst.add(done), 16) };
        done += 16;
    }
    // SAFETY: within the bytes just written.
    unsafe { dst.add(len) }
}

/// Writes `n` in decimal at `w` (at most 10 bytes) and returns the end.
///
/// # Safety
/// `w..w + 10` must be writable.
#[inline(always)]
unsafe fn write_u32(w: *mut u8, n: u32) -> *mut u8 {
    // SAFETY (all three arms): at most 10 bytes are written, the caller's contract.
    unsafe {
        if n < 10 {
            *w = b'0' + n as u8;
            w.add(1)
        } else if n < 100 {
            *w = b'0' + (n / 10) as u8;
            *w.add(1) = b'0' + (n % 10) as u8;
            w.add(2)
        } else {
            let mut digits = itoa::Buffer::new();
            let text = digits.format(n).as_bytes();
            std::ptr::copy_nonoverlapping(text.as_ptr(), w, text.len());
            w.add(text.len())
        }
    }
}
