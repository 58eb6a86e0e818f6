//! Near-duplicate pairs of a text file with the engine alone (no command line, no terminal):
//! read → index → candidates → verify, through [`lshscope_core::pipeline::Pipeline`].
//!
//! ```text
//! cargo run --example dedup_pairs --no-default-features [FILE] [THRESHOLD]
//! ```
//!
//! FILE defaults to `sample_data/questions.txt` (one document per line); THRESHOLD (exact
//! Jaccard of character 5-shingles) to 0.5.

use std::path::PathBuf;

use lshscope_core::corpus::{InputFormat, ReadOptions};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::scurve::candidate_probability;
use lshscope_core::minhash::{Banding, BandingOptions, IndexOptions};
use lshscope_core::pipeline::{Loaded, Pipeline};

fn main() -> Result<(), lshscope_core::Error> {
    let mut args = std::env::args().skip(1);
    let input = args.next().map(PathBuf::from).unwrap_or_else(|| {
        [
            env!("CARGO_MANIFEST_DIR"),
            "..",
            "..",
            "sample_data",
            "questions.txt",
        ]
        .iter()
        .collect()
    });
    let threshold: f64 = match args.next() {
        Some(t) => t.parse().map_err(|_| {
            lshscope_core::Error::usage(format!("THRESHOLD must be a number, got {t}"))
        })?,
        None => 0.5,
    };

    // One handle for progress and cancellation; a face would poll it to draw a bar.
    let progress = Progress::new();
    let mut run = Pipeline::new(&progress);
    let read = ReadOptions {
        format: InputFormat::Auto,
        ..Default::default()
    };
    let Loaded { corpus, index, .. } = run.load(&input, &read, &IndexOptions::default())?;

    // 32 bands × 4 rows of the 128 permutations: a pair at the threshold becomes a candidate
    // with probability P(s) = 1 − (1 − s⁴)³².
    let banding = Banding::new(32, 4, index.signatures.num_perm())?;
    let options = BandingOptions {
        banding,
        max_bucket: None,
    };
    let (candidates, pairs) = run.band_and_verify(&index, &options, threshold)?;

    println!(
        "{} documents, {} candidate pairs under {banding} (P(candidate) at J = {threshold}: {:.3}), \
         {} with exact Jaccard ≥ {threshold}:",
        corpus.len(),
        candidates.pairs.len(),
        candidate_probability(threshold, banding.bands, banding.rows),
        pairs.len()
    );
    for p in &pairs {
        println!(
            "  J = {:.3} (estimate {:.3})  {}  |  {}",
            p.jaccard,
            p.estimate,
            corpus.text(p.a as usize),
            corpus.text(p.b as usize)
        );
    }
    for phase in run.phases() {
        println!("{:<32} {:.3} s", phase.phase.label(), phase.seconds);
    }
    Ok(())
}
