//! `lshscope bench`: whole-pipeline throughput and peak memory on a generated corpus, the
//! numbers the README reports. (Micro-benchmarks of single kernels: `cargo bench`.)

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use crate::jobs::Progress;
use crate::minhash::{
    Banding, BandingOptions, IndexOptions, band_keys, build_index, find_candidates,
};
use crate::scan::verify;
use crate::synth::{GenOptions, generate};
use crate::text::ShingleOptions;
use crate::{Error, Result};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Documents to generate.
    #[arg(long, short = 'n', default_value_t = 100_000)]
    pub docs: usize,
    /// Mean document length in characters.
    #[arg(long, default_value_t = 400)]
    pub length: usize,
    /// Bands and rows for the candidate and verification phases.
    #[arg(long, default_value_t = 20)]
    pub bands: usize,
    #[arg(long, default_value_t = 5)]
    pub rows: usize,
    /// Bands for the grouping measurement (rows = K / bands).
    #[arg(long, default_value_t = 32)]
    pub group_bands: usize,
    #[arg(long, default_value_t = 128)]
    pub num_perm: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Resets the kernel's peak-RSS mark so the pipeline's peak is measured without the generator's.
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn mb(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

pub fn run(args: BenchArgs) -> Result<i32> {
    let banding = Banding::new(args.bands, args.rows, args.num_perm)?;
    let group_rows = args.num_perm / args.group_bands.max(1);
    let grouping = Banding::new(args.group_bands, group_rows, args.num_perm)?;
    if args.docs < 2 {
        return Err(Error::usage("--docs must be at least 2"));
    }
    let threads = rayon::current_num_threads();
    eprintln!(
        "generating {} documents of ~{} characters…",
        args.docs, args.length
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
        corpus.len(),
        mb(text_mb)
    );
    let options = IndexOptions {
        num_perm: args.num_perm,
        seed: args.seed,
        ..Default::default()
    };
    let progress = Progress::new();

    // Signatures on one thread (per-core rate), then on all threads (kept).
    let sample = corpus.len().min(50_000);
    let head =
        crate::corpus::Corpus::from_pairs((0..sample).map(|i| (corpus.id(i), corpus.text(i))));
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::usage(e.to_string()))?;
    let start = Instant::now();
    one.install(|| build_index(&head, &options, &progress))?;
    let single = start.elapsed().as_secs_f64();
    drop(head);
    println!(
        "signatures, 1 thread   {:>9.3} s  {:>8.1} MB/s per core  (first {sample} docs)",
        single,
        text_mb * sample as f64 / corpus.len() as f64 / 1e6 / single
    );
    let start = Instant::now();
    let index = build_index(&corpus, &options, &progress)?;
    let all = start.elapsed().as_secs_f64();
    println!(
        "signatures, {threads} threads {:>9.3} s  {:>8.1} MB/s  ({} shingles)",
        all,
        text_mb / 1e6 / all,
        index.sets.total()
    );

    // Grouping alone: bucket keys for every band, sorted into buckets.
    let start = Instant::now();
    let grouped: usize = (0..grouping.bands)
        .into_par_iter()
        .map(|band| band_keys(&index.signatures, grouping, band).len())
        .sum();
    let group = start.elapsed().as_secs_f64();
    println!(
        "grouping {}×{}         {:>9.3} s  ({grouped} bucket entries)",
        grouping.bands, grouping.rows, group
    );

    let start = Instant::now();
    let candidates = find_candidates(
        &index.signatures,
        &BandingOptions {
            banding,
            max_bucket: None,
        },
        &progress,
    )?;
    let banded = start.elapsed().as_secs_f64();
    println!(
        "candidates {}×{}       {:>9.3} s  {} bucket pairs → {} candidates ({:.1} M bucket pairs/s)",
        banding.bands,
        banding.rows,
        banded,
        candidates.bucket_pairs,
        candidates.pairs.len(),
        candidates.bucket_pairs as f64 / banded / 1e6
    );

    let start = Instant::now();
    let pairs = verify(&index, &candidates.pairs, 0.0, &progress)?;
    let verified = start.elapsed().as_secs_f64();
    println!(
        "verification           {:>9.3} s  {:.2} M pairs/s",
        verified,
        pairs.len() as f64 / verified / 1e6
    );

    let found = planted
        .iter()
        .filter(|p| p.jaccard >= 0.8)
        .filter(|p| {
            candidates
                .pairs
                .binary_search_by_key(&(p.a, p.b), |c| (c.a, c.b))
                .is_ok()
        })
        .count();
    let above = planted.iter().filter(|p| p.jaccard >= 0.8).count();
    println!("planted pairs with J ≥ 0.8 found: {found} of {above}");

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
    Ok(0)
}
