//! `lshscope bench`: whole-pipeline throughput and peak memory on a generated corpus, the
//! numbers the README reports, and with `--explorer` the explorer's step latency across the
//! (b, r) grid ([`explorer`]). (Micro-benchmarks of single kernels: `cargo bench`.)

mod explorer;
mod families;

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use super::lsh_args::{DEFAULT_BANDS, DEFAULT_ROWS};
use lshscope_core::minhash::{
    Banding, BandingOptions, CandidatePair, Index, IndexOptions, VerifiedPair, band_keys,
};
use lshscope_core::pipeline::Pipeline;
use lshscope_core::synthetic::words::{GenOptions, PlantedPair, generate};
use lshscope_core::text::ShingleOptions;
use lshscope_core::util::numfmt::thousands;
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Documents to generate.
    #[arg(long, short = 'n', default_value_t = 100_000)]
    pub docs: usize,
    /// Mean document length in characters.
    #[arg(long, default_value_t = 400)]
    pub length: usize,
    /// Bands b for the candidate and verification phases.
    #[arg(long, default_value_t = DEFAULT_BANDS)]
    pub bands: usize,
    /// Rows r per band for the candidate and verification phases.
    #[arg(long, default_value_t = DEFAULT_ROWS)]
    pub rows: usize,
    /// Bands for the grouping measurement (rows = K / bands).
    #[arg(long, default_value_t = 32)]
    pub group_bands: usize,
    /// Number of MinHash permutations K.
    #[arg(long, default_value_t = 128)]
    pub num_perm: usize,
    /// Seed of the generated corpus and of the MinHash permutations: the same seed measures
    /// the same work.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Measure the explorer instead: its re-banding job stepped across the (b, r) grid
    /// (every r of 1–8, 10, 12, 16, 24, 32, 64, 128 with b of 1, 2, 4, 8, 16, 20, 32, 64, 128
    /// and K / r), on a template-heavy corpus of --docs documents (as `gen --templates` makes
    /// them) or on --corpus: each step's first and final histogram latency, exact or
    /// sampled, the buckets' memory and the process's RSS.
    #[arg(long)]
    pub explorer: bool,
    /// Measure the sketch families instead, on one thread: each family's signature phase as
    /// the index builds it (sets, then signatures) and from the shingle stream alone (no
    /// sets), beside a bare rolling hash over the same bytes (the ceiling), normalizing and
    /// hashing alone, and the sets alone; on --docs generated documents or on --corpus.
    #[arg(long, conflicts_with = "explorer")]
    pub families: bool,
    /// With --families: rounds of each measurement (the fastest is reported).
    #[arg(long, default_value_t = 5, requires = "families")]
    pub rounds: usize,
    /// With --explorer or --families: this corpus file instead of a generated one (read as
    /// `explore` and `scan` read it, with the default options).
    #[arg(long, value_name = "FILE")]
    pub corpus: Option<PathBuf>,
}

/// The resident memory of this process now (VmRSS).
fn current_rss_bytes() -> Option<u64> {
    status_kb("VmRSS:").map(|kb| kb * 1024)
}

/// The peak resident memory of this process (VmHWM).
fn peak_rss_bytes() -> Option<u64> {
    status_kb("VmHWM:").map(|kb| kb * 1024)
}

/// A kB field of /proc/self/status.
fn status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Resets the kernel's peak-RSS mark so the pipeline's peak is measured without the generator's.
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// What this process has used so far, from /proc/self/stat (CPU times at 10 ms resolution).
/// Per-core rates are computed from CPU time, so they stay meaningful when other processes
/// compete for the cores; the kernel's share and the page faults show how much of a phase
/// is the first touch of fresh memory, which costs far more on some machines (virtual ones
/// whose host backs guest memory lazily) than on others.
#[derive(Clone, Copy)]
struct ProcessTimes {
    /// Clock ticks (1/100 s) in user and in kernel mode.
    user_ticks: u64,
    kernel_ticks: u64,
    minor_faults: u64,
}

impl ProcessTimes {
    fn now() -> Self {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // Fields after the parenthesised command name: minflt, utime and stime are fields 10,
        // 14 and 15 of proc(5), so 7, 11 and 12 here.
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let field = |i: usize| fields.get(i).and_then(|f| f.parse().ok()).unwrap_or(0);
        ProcessTimes {
            user_ticks: field(11),
            kernel_ticks: field(12),
            minor_faults: field(7),
        }
    }
}

/// Wall and CPU time of one measured phase.
struct Clock {
    wall: Instant,
    start: ProcessTimes,
}

impl Clock {
    fn start() -> Self {
        Clock {
            wall: Instant::now(),
            start: ProcessTimes::now(),
        }
    }
    /// (wall seconds, CPU seconds) since start.
    fn stop(&self) -> (f64, f64) {
        let now = ProcessTimes::now();
        let ticks = (now.user_ticks + now.kernel_ticks)
            .saturating_sub(self.start.user_ticks + self.start.kernel_ticks);
        (self.wall.elapsed().as_secs_f64(), ticks as f64 / 100.0)
    }
    /// The kernel's CPU seconds and the minor page faults since start, as a note for a phase
    /// that fills fresh memory.
    fn kernel_note(&self) -> String {
        let now = ProcessTimes::now();
        format!(
            "; kernel {:.2} s CPU, {} page faults",
            now.kernel_ticks.saturating_sub(self.start.kernel_ticks) as f64 / 100.0,
            lshscope_core::util::numfmt::compact(
                now.minor_faults.saturating_sub(self.start.minor_faults)
            )
        )
    }
}

fn mb(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

pub fn run(args: BenchArgs) -> Result<i32> {
    if args.explorer {
        return explorer::run(args.corpus.as_deref(), args.docs, args.num_perm, args.seed);
    }
    if args.families {
        return families::run(families::FamilyBench {
            path: args.corpus.as_deref(),
            docs: args.docs,
            length: args.length,
            num_perm: args.num_perm,
            seed: args.seed,
            rounds: args.rounds,
        });
    }
    if args.corpus.is_some() {
        return Err(Error::usage(
            "--corpus needs --explorer or --families (the main bench generates its corpus)",
        ));
    }
    let banding = Banding::new(args.bands, args.rows, args.num_perm)?;
    let group_rows = args.num_perm / args.group_bands.max(1);
    let grouping = Banding::new(args.group_bands, group_rows, args.num_perm)?;
    if args.docs < 2 {
        return Err(Error::usage("--docs must be at least 2"));
    }
    let threads = rayon::current_num_threads();
    eprintln!(
        "generating {} documents of ~{} characters…",
        thousands(args.docs as u64),
        thousands(args.length as u64)
    );
    let (corpus, planted) = generate(&GenOptions {
        documents: args.docs,
        length: args.length,
        levels: vec![0.5, 0.7, 0.8, 0.9],
        pairs_per_level: (args.docs / 200).max(1),
        seed: args.seed,
        shingle: ShingleOptions::default(),
    });
    let reset = reset_peak_rss();
    let text_mb = corpus.text_bytes() as f64;
    println!(
        "lshscope bench: {} documents, {} of text, {threads} threads",
        thousands(corpus.len() as u64),
        mb(text_mb)
    );
    let options = IndexOptions {
        num_perm: args.num_perm,
        seed: args.seed,
        ..Default::default()
    };
    let progress = super::new_progress();
    // The pipeline's phases, timed here in wall and CPU seconds (its own timings go unused).
    let mut run = Pipeline::new(&progress);

    // Signatures on one thread over a prefix (per-core rate without scheduling effects).
    let sample = corpus.len().min(50_000);
    let head = lshscope_core::corpus::Corpus::from_pairs(
        (0..sample).map(|i| (corpus.id(i), corpus.text(i))),
    );
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::internal(format!("cannot start a one-thread pool: {e}")))?;
    let clock = Clock::start();
    one.install(|| Pipeline::new(&progress).index(&head, &options))?;
    report_phase(
        "signatures (1 thread)",
        clock.stop(),
        head.text_bytes() as f64 / 1e6,
        "MB",
        format!("   first {sample} docs{}", clock.kernel_note()),
    );
    drop(head);

    let clock = Clock::start();
    let index = run.index(&corpus, &options)?;
    report_phase(
        "signatures (all threads)",
        clock.stop(),
        text_mb / 1e6,
        "MB",
        format!("   {} shingles{}", index.sets.total(), clock.kernel_note()),
    );

    // Grouping alone: bucket keys for every band, sorted into buckets.
    let clock = Clock::start();
    let grouped: usize = (0..grouping.bands)
        .into_par_iter()
        .map(|band| band_keys(&index.signatures, grouping, band).len())
        .sum();
    report_phase(
        &format!("grouping {}×{}", grouping.bands, grouping.rows),
        clock.stop(),
        grouped as f64 / 1e6,
        "M keys",
        String::new(),
    );

    let clock = Clock::start();
    let candidates = run.candidates(
        &index,
        &BandingOptions {
            banding,
            max_bucket: None,
        },
    )?;
    report_phase(
        &format!("candidates {}×{}", banding.bands, banding.rows),
        clock.stop(),
        candidates.bucket_pairs as f64 / 1e6,
        "M pairs",
        format!(
            "   {} bucket pairs → {} candidates; grouping {:.3} s, pair union {:.3} s = {:.1} M pairs/s",
            candidates.bucket_pairs,
            candidates.pairs.len(),
            candidates.grouping_seconds,
            candidates.union_seconds,
            candidates.bucket_pairs as f64 / candidates.union_seconds / 1e6
        ),
    );

    let clock = Clock::start();
    let pairs = run.verify(&index, &candidates.pairs, 0.0)?;
    report_phase(
        "verification",
        clock.stop(),
        pairs.len() as f64 / 1e6,
        "M pairs",
        String::new(),
    );

    bench_csv(&one, &corpus, &pairs)?;

    report_planted(&planted, &candidates.pairs);

    report_memory(reset, &corpus, &index);
    Ok(0)
}

/// One phase's line: wall time, CPU time, and rates per wall second and per CPU second (= per
/// core). CPU time is counted in 10 ms ticks: a phase shorter than a few ticks has no per-core
/// rate.
fn report_phase(name: &str, (wall, cpu): (f64, f64), amount: f64, unit: &str, extra: String) {
    let per_core = if cpu >= 0.05 {
        format!("{:>9.1} {unit}/s per core", amount / cpu)
    } else {
        format!("{:>9} {unit}/s per core (< 0.05 s CPU)", "–")
    };
    println!(
        "{name:<24} {wall:>8.3} s wall {cpu:>8.2} s CPU   {:>9.1} {unit}/s   {per_core}{extra}",
        amount / wall,
    );
}

// Writing the verified pairs as CSV (formatting and buffering; the bytes go nowhere),
// repeated to at least 2 M rows so the phase is long enough to time: one thread (per-core
// rate), then all threads (chunks formatted in parallel, written in order).
fn bench_csv(
    one: &rayon::ThreadPool,
    corpus: &lshscope_core::corpus::Corpus,
    pairs: &[VerifiedPair],
) -> Result<()> {
    if pairs.is_empty() {
        return Ok(());
    }
    let rounds = (2_000_000 / pairs.len()).max(1);
    let rows = (rounds * pairs.len()) as f64;
    let write_rows = || -> std::io::Result<()> {
        let mut sink = std::io::sink();
        let mut writer = lshscope_core::pairs::PairWriter::new(
            &mut sink,
            corpus,
            lshscope_core::pairs::OutputFormat::Csv,
            None,
        )?;
        for _ in 0..rounds {
            writer.write_batch(pairs)?;
        }
        writer.finish()
    };
    let io = |e: std::io::Error| Error::internal(format!("writing pairs: {e}"));
    let clock = Clock::start();
    one.install(write_rows).map_err(io)?;
    report_phase(
        "pairs as CSV (1 thread)",
        clock.stop(),
        rows / 1e6,
        "M rows",
        String::new(),
    );
    let clock = Clock::start();
    write_rows().map_err(io)?;
    report_phase(
        "pairs as CSV (all thr.)",
        clock.stop(),
        rows / 1e6,
        "M rows",
        String::new(),
    );
    Ok(())
}

/// How many of the planted pairs with J ≥ 0.8 the banding found.
fn report_planted(planted: &[PlantedPair], candidates: &[CandidatePair]) {
    let found = planted
        .iter()
        .filter(|p| p.jaccard >= 0.8)
        .filter(|p| {
            candidates
                .binary_search_by_key(&(p.a, p.b), |c| (c.a, c.b))
                .is_ok()
        })
        .count();
    let above = planted.iter().filter(|p| p.jaccard >= 0.8).count();
    println!(
        "planted pairs with J ≥ 0.8 found: {} of {}",
        thousands(found as u64),
        thousands(above as u64)
    );
}

/// The process's peak memory against what the corpus, the sets and the signatures hold.
fn report_memory(reset: bool, corpus: &lshscope_core::corpus::Corpus, index: &Index) {
    let data = corpus.heap_bytes() + index.sets.heap_bytes() + index.signatures.heap_bytes();
    match (reset, peak_rss_bytes()) {
        (true, Some(peak)) => println!(
            "peak memory            {} = {:.2} × data ({} text+ids, {} sets, {} signatures)",
            mb(peak as f64),
            peak as f64 / data as f64,
            mb(corpus.heap_bytes() as f64),
            mb(index.sets.heap_bytes() as f64),
            mb(index.signatures.heap_bytes() as f64)
        ),
        _ => println!("peak memory            not measurable on this system"),
    }
}
