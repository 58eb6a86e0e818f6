//! `lshscope bench --families`: the signature phase of each sketch family on one core, beside
//! what one core can hash at all.
//!
//! Every line runs on one thread and is timed by that thread's own CPU time (the kernel's
//! per-thread run time), fastest of `--rounds` rounds of at least 0.4 s each, so other jobs on
//! the machine slow the wall clock but hardly the figures. The lines:
//!
//! - a bare rolling hash over the same bytes: the ceiling, what any signature phase that reads
//!   every byte once could reach;
//! - normalizing and hashing the shingles, with nothing kept (what every family starts from);
//! - the shingle sets of every document, sorted, de-duplicated and stored (what verification
//!   reads, and what [`build_index`] builds beside the signatures);
//! - for each family, the phase as [`build_index`] runs it (sets, then the sketch of each set)
//!   and the signatures alone from the shingle stream ([`signatures_of_texts`]), which the
//!   run checks to be bit-identical.

use std::path::Path;

use lshscope_core::corpus::{Corpus, ReadOptions, read_corpus};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{IndexOptions, SketchFamily, build_index, signatures_of_texts};
use lshscope_core::synthetic::words::{GenOptions, generate};
use lshscope_core::text::{SetBuilder, ShingleOptions, Shingler};
use lshscope_core::util::numfmt::thousands;
use lshscope_core::{Error, Result};

/// Bytes per window of the bare rolling hash: the default shingle's width on ASCII text.
const WINDOW: usize = 5;

/// The shortest round: the work is repeated until it has run this long, so the lag of
/// [`thread_cpu_ns`] at either end stays within a few per cent.
const MIN_ROUND_NS: u64 = 400_000_000;

/// Independent hash chains rolled side by side: one chain is bound by its multiply's latency
/// (about a byte per 4 cycles), four keep the core's multiplier busy (eight were no faster).
const LANES: usize = 4;

/// The ceiling: a Rabin–Karp rolling hash (Karp & Rabin 1987) of every `WINDOW`-byte window
/// of `bytes`, each window's hash folded into the result so none can be optimized away. One
/// multiply-add and one multiply-subtract per byte, no normalization, no table; the windows are
/// cut into `LANES` runs rolled at once. No signature phase that reads every byte and hashes
/// each window can be faster on the same core.
fn bare_rolling_hash(bytes: &[u8]) -> u64 {
    const BASE: u64 = 0x100_0000_01b3; // the FNV-1a 64-bit prime, as a multiplier
    let drop = BASE.wrapping_pow(WINDOW as u32);
    let window_hash = |w: &[u8]| {
        w.iter()
            .fold(0u64, |h, &b| h.wrapping_mul(BASE).wrapping_add(b as u64))
    };
    let windows = (bytes.len() + 1).saturating_sub(WINDOW);
    let per_lane = windows / LANES;
    let mut folded = 0u64;
    if per_lane > 0 {
        // Lane l hashes the windows starting at l·per_lane, …, (l + 1)·per_lane − 1.
        let starts: [usize; LANES] = std::array::from_fn(|l| l * per_lane);
        let mut h: [u64; LANES] =
            std::array::from_fn(|l| window_hash(&bytes[starts[l]..starts[l] + WINDOW]));
        let mut f = h;
        for i in 1..per_lane {
            for l in 0..LANES {
                let end = starts[l] + i + WINDOW - 1;
                h[l] = h[l]
                    .wrapping_mul(BASE)
                    .wrapping_add(bytes[end] as u64)
                    .wrapping_sub(drop.wrapping_mul(bytes[end - WINDOW] as u64));
                f[l] ^= h[l];
            }
        }
        folded = f.iter().fold(0, |a, &x| a ^ x);
    }
    for start in LANES * per_lane..windows {
        folded ^= window_hash(&bytes[start..start + WINDOW]);
    }
    folded
}

/// CPU nanoseconds this thread has run (`/proc/thread-self/schedstat`, first field): blind to
/// other threads and processes. The kernel brings the figure of a running thread up to date
/// only at a scheduler tick or switch, so it can lag by a tick (1–10 ms): a measurement repeats
/// its work for at least [`MIN_ROUND_NS`].
fn thread_cpu_ns() -> Result<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .map_err(|e| Error::internal(format!("cannot read this thread's CPU time: {e}")))?;
    stat.split_whitespace()
        .next()
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| Error::internal(format!("unexpected /proc/thread-self/schedstat: {stat}")))
}

/// The corpus: `path` read as `scan` reads it, else `docs` generated documents of ~`length`
/// characters (as the main bench generates them).
fn corpus(path: Option<&Path>, docs: usize, length: usize, seed: u64) -> Result<Corpus> {
    match path {
        Some(path) => read_corpus(path, &ReadOptions::default(), &Progress::new())
            .map(|(corpus, _)| corpus)
            .map_err(|e| super::super::about_file(Some("--corpus"), path, e)),
        None => Ok(generate(&GenOptions {
            documents: docs,
            length,
            levels: vec![0.5, 0.7, 0.8, 0.9],
            pairs_per_level: (docs / 200).max(1),
            seed,
            shingle: ShingleOptions::default(),
        })
        .0),
    }
}

/// What the run measures, besides the corpus.
pub struct FamilyBench<'a> {
    pub path: Option<&'a Path>,
    pub docs: usize,
    pub length: usize,
    pub num_perm: usize,
    pub seed: u64,
    pub rounds: usize,
}

/// Fastest CPU time of one run of `work` over `rounds` rounds on the one-thread pool `one`,
/// each round repeating it for at least MIN_ROUND_NS.
fn fastest(
    one: &rayon::ThreadPool,
    rounds: usize,
    work: &mut (dyn FnMut() -> Result<()> + Send),
) -> Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let per_run = one.install(|| -> Result<f64> {
            let start = thread_cpu_ns()?;
            let mut runs = 0u32;
            loop {
                work()?;
                runs += 1;
                let spent = thread_cpu_ns()?.saturating_sub(start);
                if spent >= MIN_ROUND_NS {
                    return Ok(spent as f64 / runs as f64);
                }
            }
        })?;
        best = best.min(per_run);
    }
    Ok(best / 1e9)
}

pub fn run(bench: FamilyBench<'_>) -> Result<i32> {
    if bench.path.is_none() && bench.docs < 2 {
        return Err(Error::usage("--docs must be at least 2"));
    }
    if bench.rounds == 0 {
        return Err(Error::usage("--rounds must be at least 1"));
    }
    match bench.path {
        Some(p) => eprintln!("reading {}…", p.display()),
        None => eprintln!(
            "generating {} documents of ~{} characters…",
            thousands(bench.docs as u64),
            thousands(bench.length as u64)
        ),
    }
    let corpus = corpus(bench.path, bench.docs, bench.length, bench.seed)?;
    let bytes = corpus.text_bytes() as f64;
    let docs = corpus.len().max(1) as f64;
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::internal(format!("cannot start a one-thread pool: {e}")))?;
    println!(
        "lshscope bench --families: {} documents, {:.1} MB of text, K = {}, one thread, \
         fastest of {} rounds of ≥ 0.4 s (the thread's CPU time)",
        thousands(corpus.len() as u64),
        bytes / 1e6,
        bench.num_perm,
        bench.rounds
    );
    println!(
        "{:<52} {:>10} {:>16} {:>10}",
        "", "µs / doc", "MB/s per core", "× ceiling"
    );

    let mut ceiling = 0.0;
    let mut line = |what: &str, seconds: f64| {
        let rate = bytes / seconds / 1e6;
        if ceiling == 0.0 {
            ceiling = rate;
        }
        println!(
            "{what:<52} {:>10.3} {:>16.1} {:>10.3}",
            seconds / docs * 1e6,
            rate,
            rate / ceiling
        );
    };

    let texts: Vec<&str> = (0..corpus.len()).map(|i| corpus.text(i)).collect();
    // The same bytes end to end (a few windows across documents' ends are the only extra).
    let all_bytes: Vec<u8> = texts.iter().flat_map(|t| t.bytes()).collect();
    let mut sink = 0u64;
    let seconds = fastest(&one, bench.rounds, &mut || {
        sink ^= bare_rolling_hash(&all_bytes);
        Ok(())
    })?;
    line(
        &format!("bare rolling hash, {WINDOW}-byte windows (the ceiling)"),
        seconds,
    );
    std::hint::black_box(sink);

    let shingle = ShingleOptions::default();
    let seconds = fastest(&one, bench.rounds, &mut || {
        let mut shingler = Shingler::new(shingle.clone());
        let mut hashes = Vec::new();
        let mut shingles = 0;
        for t in &texts {
            hashes.clear();
            shingler.hashes(t, &mut hashes);
            shingles += hashes.len();
        }
        std::hint::black_box(shingles);
        Ok(())
    })?;
    line("normalize and hash shingles, nothing kept", seconds);

    let seconds = fastest(&one, bench.rounds, &mut || {
        let mut builder = SetBuilder::new(shingle.clone());
        // Fresh memory each round, as an index's sets are: its page faults are part of it.
        let mut sets: Vec<u64> = Vec::with_capacity(corpus.text_bytes());
        for t in &texts {
            builder.set_onto(t, &mut sets);
        }
        std::hint::black_box(sets.len());
        Ok(())
    })?;
    line("shingle sets of every document, stored", seconds);

    for family in SketchFamily::ALL {
        let options = IndexOptions {
            shingle: shingle.clone(),
            num_perm: bench.num_perm,
            seed: bench.seed,
            family,
        };
        let progress = Progress::new();
        let mut index = None;
        let seconds = fastest(&one, bench.rounds, &mut || {
            index = Some(build_index(&corpus, &options, &progress)?);
            Ok(())
        })?;
        line(
            &format!("{family}: sets + signatures (build_index)"),
            seconds,
        );
        let mut streamed = None;
        let seconds = fastest(&one, bench.rounds, &mut || {
            streamed = Some(signatures_of_texts(&corpus, &options, &progress)?);
            Ok(())
        })?;
        line(
            &format!("{family}: signatures from the shingle stream"),
            seconds,
        );
        let (index, streamed) = (
            index.expect("one round ran"),
            streamed.expect("one round ran"),
        );
        if streamed.rows() != index.signatures.rows()
            || (0..corpus.len())
                .any(|d| streamed.is_empty_doc(d) != index.signatures.is_empty_doc(d))
        {
            return Err(Error::internal(format!(
                "{family}: the signatures from the shingle stream differ from the index's"
            )));
        }
    }
    println!("signatures from the stream are bit-identical to the index's in every family");
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rolling_hash_folds_every_window_once() {
        // Each window hashed on its own, folded: what the lanes must give, for every length
        // around the lane boundaries.
        let bytes: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        for n in 0..bytes.len() {
            let b = &bytes[..n];
            let expected = b.windows(WINDOW).fold(0u64, |acc, w| {
                acc ^ w.iter().fold(0u64, |h, &x| {
                    h.wrapping_mul(0x100_0000_01b3).wrapping_add(x as u64)
                })
            });
            assert_eq!(bare_rolling_hash(b), expected, "n = {n}");
        }
    }
}
