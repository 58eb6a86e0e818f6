//! `lshscope scan`: corpus → signatures → bands → verified pairs.

use std::path::PathBuf;

use clap::Args;

use super::{CorpusArgs, IndexArgs, ProgressBar, show_progress};
use crate::analysis::recall::{TruthComparison, compare_truth, read_truth};
use crate::corpus::{Corpus, ReadReport};
use crate::minhash::{Banding, BandingOptions, BucketInfo};
use crate::pairfile::{OutputFormat, OutputTarget, write_pairs};
use crate::pipeline::{Loaded, PhaseTiming, Pipeline};
use crate::{Error, Result};

#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    /// Number of LSH bands b.
    #[arg(long, short = 'b', default_value_t = 20)]
    pub bands: usize,
    /// Rows per band r (b·r must not exceed --num-perm).
    #[arg(long, short = 'r', default_value_t = 5)]
    pub rows: usize,
    /// In a bucket with more than N documents, only the first N (in input order) form pairs.
    #[arg(long, value_name = "N")]
    pub max_bucket: Option<usize>,
    /// Keep pairs whose exact Jaccard is at least T (0 keeps every candidate).
    #[arg(long, short = 't', default_value_t = 0.0, value_name = "T")]
    pub threshold: f64,
    /// Write pairs to FILE (atomically) instead of stdout; `-` is stdout. The name picks
    /// the format (`.csv`, `.jsonl`/`.ndjson`) and compression (`.gz`, `.zst`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Row format; overrides the output name's extension [default: from the name, else csv].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,
    /// No summary and no progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also write the summary as JSON to FILE (`-` is stdout; `.gz`/`.zst` compress).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Compare the candidates with a truth file (`id_a,id_b,jaccard`, from `lshscope truth`
    /// or `lshscope gen`): recall per similarity bin against the S-curve, recall and precision
    /// at --threshold (or, when it is 0, at the smallest Jaccard in the file).
    #[arg(long, value_name = "FILE")]
    pub truth: Option<PathBuf>,
}

/// What a scan did, printed to stderr and optionally written as JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ScanSummary {
    pub input: String,
    pub read: ReadReport,
    pub documents_without_shingles: usize,
    pub shingles: usize,
    pub num_perm: usize,
    pub bands: usize,
    pub rows: usize,
    pub candidates: usize,
    pub pairs_kept: usize,
    pub threshold: f64,
    pub largest_buckets: Vec<BucketInfo>,
    pub capped_buckets: usize,
    pub pairs_dropped_by_cap: u64,
    pub phases: Vec<PhaseTiming>,
    /// The comparison with `--truth`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truth: Option<TruthComparison>,
}

pub fn run(args: ScanArgs) -> Result<i32> {
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(Error::usage(format!(
            "--threshold must be in [0, 1], got {}",
            args.threshold
        )));
    }
    let banding = Banding::new(args.bands, args.rows, args.index.num_perm)?;
    // Check the output names before the long phases, so a bad one fails fast.
    let target = OutputTarget::new(args.output.as_deref());
    let format = target.format(args.output_format, PAIR_FORMATS)?;
    let summary_target = args
        .summary_json
        .as_deref()
        .map(|p| OutputTarget::new(Some(p)));
    if target.path.is_none() && summary_target.as_ref().is_some_and(|t| t.path.is_none()) {
        return Err(Error::usage(
            "pairs and --summary-json cannot both go to stdout: give one of them a file name",
        ));
    }
    if args.truth.as_deref() == Some(std::path::Path::new("-"))
        && args.corpus.input == std::path::Path::new("-")
    {
        return Err(Error::usage(
            "the corpus and --truth cannot both be read from stdin: give one of them a file",
        ));
    }
    let progress = super::new_progress();
    let _bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    let Loaded {
        corpus,
        read,
        index,
    } = super::load_corpus(&mut run, &args.corpus, &args.index, args.quiet)?;
    // Before banding, which is what a too-similar corpus makes explode.
    if !args.quiet
        && let Some(warning) =
            crate::analysis::shingle_advice::candidate_share_warning(&index, banding)
    {
        super::warn(args.quiet, &warning);
    }
    // Read the truth before the long phases, so a bad file fails fast.
    let truth = match &args.truth {
        Some(path) => Some((path, read_truth(path, &corpus)?)),
        None => None,
    };

    let options = BandingOptions {
        banding,
        max_bucket: args.max_bucket,
    };
    let (candidates, pairs) = run.band_and_verify(&index, &options, args.threshold)?;

    super::write_output(&target, &mut run, pairs.len(), |w| {
        write_pairs(w, &corpus, pairs.iter(), format, Some(&progress), None)
    })?;
    progress.finish();
    drop(_bar);

    let truth = truth.map(|(path, truth)| {
        compare_truth(
            path,
            &truth,
            &index,
            &candidates.pairs,
            &pairs,
            banding,
            args.threshold,
            TRUTH_BINS,
        )
    });

    let summary = ScanSummary {
        input: args.corpus.input.display().to_string(),
        documents_without_shingles: index.shingleless_docs(),
        shingles: index.sets.total(),
        num_perm: args.index.num_perm,
        bands: banding.bands,
        rows: banding.rows,
        candidates: candidates.pairs.len(),
        pairs_kept: pairs.len(),
        threshold: args.threshold,
        largest_buckets: candidates.largest_buckets.iter().take(5).copied().collect(),
        capped_buckets: candidates.capped_bucket_count,
        pairs_dropped_by_cap: candidates.pairs_dropped_by_cap,
        phases: run.into_phases(),
        read,
        truth,
    };
    if !args.quiet {
        eprint!("{}", render_summary(&summary, &corpus));
    }
    if let Some(target) = &summary_target {
        target.write(None, |w| {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            writeln!(w)
        })?;
    }
    Ok(0)
}

/// Similarity bins of the `--truth` table: 0.05 wide.
const TRUTH_BINS: usize = 20;

/// The formats `scan -o` can write. (Parquet joins once its writer is wired in: see the
/// PARQUET HOOK in `crate::pairfile`.)
const PAIR_FORMATS: &[OutputFormat] = &[
    OutputFormat::Csv,
    OutputFormat::Jsonl,
    OutputFormat::Parquet,
];

fn render_summary(s: &ScanSummary, corpus: &Corpus) -> String {
    use std::fmt::Write as _;
    let mut out = render_read_line(&s.read, &s.input, s.documents_without_shingles);
    let _ = writeln!(
        out,
        "{} shingles, K = {}, {} bands × {} rows ({} of {} hashes used)",
        s.shingles,
        s.num_perm,
        s.bands,
        s.rows,
        s.bands * s.rows,
        s.num_perm
    );
    let _ = writeln!(
        out,
        "{} candidate pairs, {} kept at Jaccard ≥ {}",
        s.candidates, s.pairs_kept, s.threshold
    );
    if let Some(b) = s.largest_buckets.first() {
        let _ = writeln!(
            out,
            "largest bucket: {} documents in band {} (first: {})",
            b.size,
            b.band,
            corpus.id(b.first_doc as usize)
        );
    }
    if s.capped_buckets > 0 {
        let _ = writeln!(
            out,
            "--max-bucket capped {} buckets; {} bucket pairs not emitted",
            s.capped_buckets, s.pairs_dropped_by_cap
        );
    }
    out.push_str(&render_phases(&s.phases));
    if let Some(t) = &s.truth {
        out.push_str(&render_truth(t));
    }
    out
}

/// The first summary line: what was read (shared by the corpus commands).
pub(super) fn render_read_line(r: &ReadReport, input: &str, without_shingles: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let sampled = if r.rows_read > r.documents {
        format!(" (sampled from {})", r.rows_read)
    } else {
        String::new()
    };
    let compression = r.compression.map(|c| format!(", {c}")).unwrap_or_default();
    let _ = writeln!(
        out,
        "read {} documents{sampled} from {input}{compression} ({} skipped, {} empty, {} without shingles, {} with invalid UTF-8)",
        r.documents, r.skipped, r.empty, without_shingles, r.lossy_utf8
    );
    let l = &r.lines;
    if l.physical > 0 {
        // Why lines and documents differ, so no document goes missing without a word.
        let mut reasons = Vec::new();
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if l.header > 0 {
            reasons.push(plural(l.header, "header line", "header lines"));
        }
        if l.blank > 0 {
            reasons.push(plural(l.blank, "blank line", "blank lines") + " skipped");
        }
        if l.continuation > 0 {
            reasons
                .push(plural(l.continuation, "line", "lines") + " inside multi-line quoted fields");
        }
        if r.skipped > 0 {
            reasons.push(plural(r.skipped as u64, "bad row", "bad rows") + " skipped");
        }
        let _ = writeln!(
            out,
            "  {} → {}{}{}",
            plural(l.physical, "line", "lines"),
            plural(r.rows_read as u64, "row", "rows"),
            if reasons.is_empty() { "" } else { ": " },
            reasons.join(", ")
        );
    }
    if r.duplicate_ids > 0 {
        let _ = writeln!(out, "  {}", duplicate_ids_message(r));
    }
    if r.skipped > 0 {
        let lines: Vec<String> = r.skipped_lines.iter().map(|l| l.to_string()).collect();
        let _ = writeln!(
            out,
            "  skipped rows at lines {}{}",
            lines.join(", "),
            if r.skipped > lines.len() { ", …" } else { "" }
        );
    }
    if !r.skipped_files.is_empty() {
        let _ = writeln!(
            out,
            "  unreadable files skipped: {}",
            r.skipped_files.join(", ")
        );
    }
    out
}

/// `N documents repeat an earlier id (first: a, b)`, for the warning and the summary.
pub(super) fn duplicate_ids_message(r: &ReadReport) -> String {
    format!(
        "{} document{} repeat{} an earlier id (first: {}{}); pairs name documents by id, \
         so make ids unique or choose another --id-column/--id-field",
        r.duplicate_ids,
        if r.duplicate_ids == 1 { "" } else { "s" },
        if r.duplicate_ids == 1 { "s" } else { "" },
        r.duplicate_id_examples.join(", "),
        if r.duplicate_ids > r.duplicate_id_examples.len() {
            ", …"
        } else {
            ""
        }
    )
}

/// One line per phase: time and throughput (shared by the corpus commands).
pub(super) fn render_phases(phases: &[PhaseTiming]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for p in phases {
        let _ = writeln!(
            out,
            "  {:<32} {:>8.3} s  {:>14}/s",
            p.phase.label(),
            p.seconds,
            super::progress::human_rate(p.rate(), p.unit)
        );
    }
    out
}

/// The `--truth` table: per bin the measured candidate rate with its Wilson 95 % interval
/// next to the S-curve's prediction, then recall and precision at the threshold.
fn render_truth(t: &TruthComparison) -> String {
    use std::fmt::Write as _;
    let r = &t.report;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "truth: {} ({} pairs), {} bands × {} rows",
        t.file, t.pairs, r.bands, r.rows
    );
    let _ = writeln!(
        out,
        "  {:<14} {:>8} {:>8} {:>9} {:>17} {:>9}",
        "Jaccard", "true", "found", "measured", "95 % interval", "S-curve"
    );
    for b in &r.bins {
        let last = b.hi >= 1.0;
        let _ = writeln!(
            out,
            "  [{:.2}, {:.2}{}   {:>8} {:>8} {:>9.3}   [{:.3}, {:.3}] {:>9.3}{}",
            b.lo,
            b.hi,
            if last { "]" } else { ")" },
            b.true_pairs,
            b.found,
            b.measured,
            b.interval_lo,
            b.interval_hi,
            b.predicted,
            if b.outside { "  ← outside" } else { "" }
        );
    }
    match (r.recall, r.predicted_recall) {
        (Some(recall), Some(predicted)) => {
            let _ = writeln!(
                out,
                "recall at Jaccard ≥ {}: {:.4} ({} of {} true pairs are candidates; the S-curve predicts {:.4})",
                r.threshold, recall, r.found_at_threshold, r.true_at_threshold, predicted
            );
        }
        _ => {
            let _ = writeln!(out, "recall at Jaccard ≥ {}: no true pairs", r.threshold);
        }
    }
    match r.precision {
        Some(p) => {
            let _ = writeln!(
                out,
                "precision at Jaccard ≥ {}: {:.4} ({} of {} candidates)",
                r.threshold, p, r.candidates_at_threshold, r.candidates
            );
        }
        None => {
            let _ = writeln!(out, "precision: no candidates");
        }
    }
    let _ = writeln!(
        out,
        "{} of {} bins outside the 95 % interval (about 1 in 20 by chance alone; more when \
         many pairs share frequent shingles, whose outcomes then move together)",
        r.flagged_bins,
        r.bins.len()
    );
    if t.jaccard_mismatches > 0 {
        let _ = writeln!(
            out,
            "warning: {} truth pairs have a different Jaccard under this scan's shingle options (was the truth made with other --shingle/--no-lowercase/--nfkc/--strip-punct?)",
            t.jaccard_mismatches
        );
    }
    out
}
