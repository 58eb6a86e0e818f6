//! Verified pairs handed on sorted by document, however many there are: up to a run's worth
//! are sorted in memory; beyond that each full run is sorted and written to a temporary file,
//! and the runs are merged at the end (an external merge sort). Memory stays at one run plus a
//! read buffer per run; the disk holds 20 bytes a pair while the merge lasts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::minhash::{PackedPair, VerifiedPair};
use crate::terms::Setting::{SortLimit, Unsorted};
use crate::{Error, Result};

/// Pairs handed on at a time.
const BATCH: usize = 1 << 16;

/// Runs merged into one at a time: as soon as this many runs of one level are on disk they
/// become one run of the next level (a tiered merge), so a small `run_pairs` neither exhausts
/// the process's file descriptors (at most `FAN_IN - 1` files per level) nor rewrites the
/// pairs more than once per level.
const FAN_IN: usize = 16;

/// Collects verified pairs and hands them on sorted by (a, b).
pub struct PairSorter {
    num_perm: usize,
    run_pairs: usize,
    /// Where run files go: the output's directory (it must take the output anyway), else the
    /// system's temporary directory.
    dir: Option<PathBuf>,
    held: Vec<PackedPair>,
    /// Sorted runs on disk with their levels (a run of level L merged 16^L runs), each an
    /// unlinked file (nothing stays behind, even when the process is killed).
    runs: Vec<(u32, File)>,
    /// Runs sorted in memory and written so far.
    runs_written: usize,
}

impl PairSorter {
    /// A sorter for pairs whose estimates count `num_perm` rows, sorting at most `run_pairs`
    /// pairs in memory at a time, with run files in `dir` (the system's temporary directory
    /// when `None`).
    pub fn new(num_perm: usize, run_pairs: usize, dir: Option<&Path>) -> Self {
        PairSorter {
            num_perm,
            run_pairs: run_pairs.max(1),
            dir: dir.map(Path::to_path_buf),
            held: Vec::new(),
            runs: Vec::new(),
            runs_written: 0,
        }
    }

    pub fn push(&mut self, batch: &[VerifiedPair]) -> Result<()> {
        for pair in batch {
            self.held.push(PackedPair::pack(pair, self.num_perm));
            if self.held.len() >= self.run_pairs {
                self.write_run()?;
            }
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
        fill: impl FnOnce(&mut dyn FnMut(&PackedPair) -> Result<()>) -> Result<()>,
    ) -> Result<File> {
        let file = match &self.dir {
            Some(d) => tempfile::tempfile_in(d),
            None => tempfile::tempfile(),
        }
        .map_err(|e| self.disk_error(e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        fill(&mut |pair| {
            out.write_all(&pair.to_bytes())
                .map_err(|e| self.disk_error(e))
        })?;
        let mut file = out
            .into_inner()
            .map_err(|e| self.disk_error(e.into_error()))?;
        file.rewind().map_err(|e| self.disk_error(e))?;
        Ok(file)
    }

    fn write_run(&mut self) -> Result<()> {
        self.held.sort_unstable_by_key(|p| (p.a, p.b));
        let held = std::mem::take(&mut self.held);
        let file = self.run_file(|emit| held.iter().try_for_each(emit))?;
        self.held = held;
        self.held.clear();
        self.runs.push((0, file));
        self.runs_written += 1;
        loop {
            let level = self.runs.last().map_or(0, |r| r.0);
            let start = self.runs.len().saturating_sub(FAN_IN);
            if self.runs.len() < FAN_IN || self.runs[start..].iter().any(|r| r.0 != level) {
                return Ok(());
            }
            let runs: Vec<File> = self.runs.drain(start..).map(|r| r.1).collect();
            let merged = self.run_file(|emit| self.merge(runs, |p| emit(&p)))?;
            self.runs.push((level + 1, merged));
        }
    }

    /// Merges sorted `runs` into one sequence sorted by (a, b), handing each pair to `emit`.
    fn merge(&self, runs: Vec<File>, mut emit: impl FnMut(PackedPair) -> Result<()>) -> Result<()> {
        let mut readers: Vec<BufReader<File>> = runs
            .into_iter()
            .map(|f| BufReader::with_capacity(1 << 16, f))
            .collect();
        let count = readers.len();
        let mut next = |run: usize| -> Result<Option<PackedPair>> {
            let mut bytes = [0u8; PackedPair::BYTES];
            match readers[run].read_exact(&mut bytes) {
                Ok(()) => Ok(Some(PackedPair::from_bytes(&bytes))),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
                Err(e) => Err(self.disk_error(e)),
            }
        };
        // The head of each run; runs are sorted, so the least head is the least pair left.
        let mut heads = BinaryHeap::with_capacity(count);
        let mut pending: Vec<Option<PackedPair>> = Vec::with_capacity(count);
        for run in 0..count {
            let head = next(run)?;
            if let Some(p) = head {
                heads.push(Reverse((p.a, p.b, run)));
            }
            pending.push(head);
        }
        while let Some(Reverse((_, _, run))) = heads.pop() {
            emit(pending[run].take().expect("a head has its pair"))?;
            if let Some(p) = next(run)? {
                heads.push(Reverse((p.a, p.b, run)));
                pending[run] = Some(p);
            }
        }
        Ok(())
    }

    /// Hands every pair on to `sink` in (a, b) order, in batches; returns the runs that went
    /// to disk (0 when all fit in memory).
    pub fn finish(mut self, mut sink: impl FnMut(&[VerifiedPair]) -> Result<()>) -> Result<usize> {
        let k = self.num_perm;
        let mut batch = Vec::with_capacity(BATCH);
        if self.runs.is_empty() {
            self.held.sort_unstable_by_key(|p| (p.a, p.b));
            for chunk in self.held.chunks(BATCH) {
                batch.clear();
                batch.extend(chunk.iter().map(|p| p.unpack(k)));
                sink(&batch)?;
            }
            return Ok(0);
        }
        if !self.held.is_empty() {
            self.write_run()?;
        }
        let runs = std::mem::take(&mut self.runs)
            .into_iter()
            .map(|r| r.1)
            .collect();
        self.merge(runs, |pair| {
            batch.push(pair.unpack(k));
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

    fn sorted_through(pairs: &[VerifiedPair], run_pairs: usize) -> (Vec<VerifiedPair>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let mut sorter = PairSorter::new(64, run_pairs, Some(dir.path()));
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

    #[test]
    fn runs_on_disk_merge_into_the_in_memory_order() {
        let pairs = scrambled(20_000);
        let mut expected = pairs.clone();
        expected.sort_by_key(|p| (p.a, p.b));
        let (in_memory, runs) = sorted_through(&pairs, usize::MAX);
        assert_eq!(runs, 0);
        assert_eq!(in_memory, expected);
        for run_pairs in [1, 999, 5_000, 19_999] {
            let (merged, runs) = sorted_through(&pairs, run_pairs);
            assert_eq!(runs, 20_000usize.div_ceil(run_pairs), "{run_pairs}");
            assert_eq!(merged, expected, "{run_pairs} pairs a run");
        }
    }

    #[test]
    fn a_packed_pair_reads_back_from_its_bytes() {
        for p in scrambled(500) {
            let packed = PackedPair::pack(&p, 64);
            assert_eq!(PackedPair::from_bytes(&packed.to_bytes()), packed);
        }
    }

    #[test]
    fn a_directory_that_cannot_take_runs_is_named() {
        let mut sorter = PairSorter::new(64, 2, Some(Path::new("/nonexistent/lshscope-runs")));
        let err = sorter.push(&scrambled(3)).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/lshscope-runs"), "{err}");
        assert!(err.contains("give `unsorted`"), "{err}");
    }
}
