//! `lshscope gen`: write a synthetic corpus with planted near-duplicates and its truth file.

use std::path::PathBuf;

use clap::Args;

use crate::synth::{GenOptions, generate};
use crate::text::{ShingleKind, ShingleOptions};
use crate::{Error, Result};

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Number of documents.
    #[arg(long, short = 'n', default_value_t = 20_000)]
    pub docs: usize,
    /// Mean document length in characters (lengths vary ±50 %).
    #[arg(long, default_value_t = 300)]
    pub length: usize,
    /// Jaccard levels of the planted pairs, comma separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.3,0.5,0.6,0.7,0.8,0.9,0.95"
    )]
    pub levels: Vec<f64>,
    /// Planted pairs per level.
    #[arg(long, default_value_t = 200)]
    pub pairs_per_level: usize,
    /// Shingles the planted Jaccard levels are measured with (use the same for scan).
    #[arg(long, default_value = "char:5")]
    pub shingle: ShingleKind,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Corpus file to write: `.csv` (id,text) or `.jsonl` ({"id","text"}).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Truth file to write: id_a,id_b,jaccard,level for every planted pair.
    #[arg(long)]
    pub truth: Option<PathBuf>,
}

pub fn run(args: GenArgs) -> Result<i32> {
    if let Some(l) = args.levels.iter().find(|l| !(0.0..=1.0).contains(*l)) {
        return Err(Error::usage(format!("--levels must be in [0, 1], got {l}")));
    }
    let jsonl = match args.output.extension().and_then(|e| e.to_str()) {
        Some("csv") => false,
        Some("jsonl") => true,
        _ => {
            return Err(Error::usage(format!(
                "{}: use a .csv or .jsonl extension for the generated corpus",
                args.output.display()
            )));
        }
    };
    let opts = GenOptions {
        documents: args.docs,
        length: args.length,
        levels: args.levels.clone(),
        pairs_per_level: args.pairs_per_level,
        seed: args.seed,
        shingle: ShingleOptions {
            kind: args.shingle,
            ..Default::default()
        },
    };
    let (corpus, pairs) = generate(&opts);
    crate::atomic::write_atomically(&args.output, |w| {
        if jsonl {
            for i in 0..corpus.len() {
                serde_json::to_writer(
                    &mut *w,
                    &serde_json::json!({"id": corpus.id(i), "text": corpus.text(i)}),
                )?;
                w.write_all(b"\n")?;
            }
            Ok(())
        } else {
            let mut out = csv::Writer::from_writer(w);
            out.write_record(["id", "text"])?;
            for i in 0..corpus.len() {
                out.write_record([corpus.id(i), corpus.text(i)])?;
            }
            out.flush()
        }
    })?;
    if let Some(path) = &args.truth {
        crate::atomic::write_atomically(path, |w| {
            let mut out = csv::Writer::from_writer(w);
            out.write_record(["id_a", "id_b", "jaccard", "level"])?;
            for p in &pairs {
                out.write_record([
                    corpus.id(p.a as usize),
                    corpus.id(p.b as usize),
                    &p.jaccard.to_string(),
                    &p.level.to_string(),
                ])?;
            }
            out.flush()
        })?;
    }
    eprintln!(
        "wrote {} documents to {} with {} planted pairs{}",
        corpus.len(),
        args.output.display(),
        pairs.len(),
        args.truth
            .as_ref()
            .map(|p| format!(" (truth: {})", p.display()))
            .unwrap_or_default()
    );
    Ok(0)
}
