//! `lshscope dedup`: the dedup result — clusters of near-duplicates, the document each keeps,
//! the ids to drop, and how each cluster holds together.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::scan::{render_phases, render_read_line};
use super::{BandingArgs, CorpusArgs, IndexArgs, ProgressBar, show_progress};
use crate::analysis::clusters::{AuditLimits, ChainAudit, Clusters, KeepRule};
use crate::analysis::dedup::{Dedup, DedupOptions, Joining};
use crate::corpus::{Corpus, ReadReport};
use crate::jobs::Phase;
use crate::minhash::BandingOptions;
use crate::numfmt::{bands_by_rows, for_count};
use crate::pairfile::{Field, OutputFormat, OutputTarget, RowWriter};
use crate::pairs_parquet::{IdColumn, MembersParquetWriter};
use crate::pipeline::{Loaded, PhaseTiming, Pipeline};
use crate::{Error, Result};

#[derive(Debug, Args)]
pub struct DedupArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub banding: BandingArgs,
    /// Documents are duplicates when their exact Jaccard is at least T.
    #[arg(long, short = 't', value_name = "T")]
    pub threshold: f64,
    /// Join every candidate pair without checking its Jaccard, as datatrove and NeMo Curator
    /// do; the summary then counts the removals owed to pairs below --threshold.
    #[arg(long)]
    pub unverified: bool,
    /// Which document of a cluster is kept.
    #[arg(long, value_enum, default_value_t = KeepArg::First)]
    pub keep: KeepArg,
    /// Write the clusters (`id,cluster,size,keep`) to FILE (atomically) instead of stdout;
    /// `-` is stdout. The name picks the format (`.csv`, `.jsonl`, `.parquet`) and
    /// compression (`.gz`, `.zst`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Row format; overrides the output name's extension [default: from the name, else csv].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,
    /// Also write the ids of the documents to remove, one per line, to FILE.
    #[arg(long, value_name = "FILE")]
    pub drop_list: Option<PathBuf>,
    /// No summary and no progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also write the summary as JSON to FILE (`-` is stdout).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    /// The first document in input order.
    First,
    /// The longest text (the first of equal lengths).
    Longest,
}

/// The columns of a clusters file, in order.
pub const CLUSTER_COLUMNS: &[&str] = &["id", "cluster", "size", "keep"];

/// Clusters listed in the summary, largest or most chained first.
const LISTED: usize = 5;

/// What a dedup run did, printed to stderr and optionally written as JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DedupSummary {
    pub input: String,
    pub read: ReadReport,
    pub documents: usize,
    pub bands: usize,
    pub rows: usize,
    pub threshold: f64,
    pub joining: Joining,
    pub keep: KeepRule,
    /// Documents whose shingle set repeats an earlier document's (collapsed before banding).
    pub identical_copies: usize,
    /// Candidate pairs the buckets stand for among the representatives, with multiplicity
    /// over bands (an upper bound on the distinct candidates; never enumerated).
    pub bucket_pairs: u64,
    /// Exact Jaccards computed (joining clusters, weakest links, audits).
    pub jaccards_computed: u64,
    pub clusters: usize,
    pub documents_in_clusters: usize,
    pub documents_removed: usize,
    pub removed_share: f64,
    /// `[lo, hi, clusters]`: clusters whose size is in lo..=hi.
    pub cluster_sizes: Vec<(usize, usize, usize)>,
    pub largest_clusters: Vec<ClusterSummary>,
    /// Clusters some of whose members are below the threshold of each other.
    pub chained_clusters: usize,
    pub most_chained: Vec<ClusterSummary>,
    /// With `--unverified`: documents removed only through pairs below the threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_below_threshold: Option<usize>,
    pub phases: Vec<PhaseTiming>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct ClusterSummary {
    pub kept: String,
    pub size: usize,
    pub weakest_link: f64,
    pub weakest_link_ids: (String, String),
    pub farthest_pair: f64,
    pub farthest_pair_ids: (String, String),
    /// True when every pair of distinct members was compared: the farthest pair and the
    /// weakest link are exact. False above 400 distinct members: the farthest pair is the
    /// lowest of a sample, and the weakest link a lower bound (the cluster holds together at
    /// that Jaccard at least).
    pub exact: bool,
}

pub fn run(args: DedupArgs) -> Result<i32> {
    crate::error::check_unit("--threshold", args.threshold)?;
    let banding = args.banding.banding(args.index.num_perm)?;
    let target = OutputTarget::new(args.output.as_deref());
    let format = target.format(args.output_format, CLUSTER_FORMATS)?;
    let drop_target = args
        .drop_list
        .as_deref()
        .map(|p| OutputTarget::new(Some(p)));
    let summary_target = args
        .summary_json
        .as_deref()
        .map(|p| OutputTarget::new(Some(p)));
    let to_stdout = [Some(&target), drop_target.as_ref(), summary_target.as_ref()]
        .into_iter()
        .flatten()
        .filter(|t| t.path.is_none())
        .count();
    if to_stdout > 1 {
        return Err(Error::usage(
            "only one of the clusters, --drop-list and --summary-json can go to stdout: give \
             the others file names",
        ));
    }
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    let Loaded {
        corpus,
        read,
        index,
    } = super::load_corpus(&mut run, &args.corpus, &args.index, args.quiet)?;
    let options = DedupOptions {
        banding: BandingOptions {
            banding,
            max_bucket: args.banding.max_bucket,
        },
        threshold: args.threshold,
        joining: if args.unverified {
            Joining::Unverified
        } else {
            Joining::Verified
        },
        keep: match args.keep {
            KeepArg::First => KeepRule::First,
            KeepArg::Longest => KeepRule::Longest,
        },
        collapse_identical: true,
        audit: AuditLimits::default(),
    };
    let result = run.dedup(&index, &options, |d| {
        corpus.text(d as usize).chars().count()
    })?;
    let clusters = &result.clusters;
    let rows = clusters.clustered_documents() as u64;
    run.timed(Phase::Writing, "rows", |progress| {
        progress.begin(Phase::Writing, rows);
        target.write(Some(progress), |w| {
            write_clusters(w, &corpus, clusters, format)
        })?;
        Ok(((), rows))
    })?;
    if let Some(drop) = &drop_target {
        drop.write(None, |w| write_drop_list(w, &corpus, clusters))?;
    }
    progress.finish();
    drop(bar);

    let summary = summarize(&args, &corpus, read, &result, &options, run.into_phases());
    if !args.quiet {
        eprint!(
            "{}",
            render_summary(&summary, &args.corpus.input.display().to_string())
        );
    }
    if let Some(t) = &summary_target {
        t.write(None, |w| {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            writeln!(w)
        })?;
    }
    Ok(0)
}

/// The formats `dedup -o` can write.
const CLUSTER_FORMATS: &[OutputFormat] = &[
    OutputFormat::Csv,
    OutputFormat::Jsonl,
    OutputFormat::Parquet,
];

/// One row per document in a cluster, in input order: its id, the id of its cluster's kept
/// document, the cluster's size, and whether this is the kept document.
pub fn write_clusters(
    w: &mut dyn Write,
    corpus: &Corpus,
    clusters: &Clusters,
    format: OutputFormat,
) -> std::io::Result<()> {
    if format == OutputFormat::Parquet {
        let ids = IdColumn::new((0..corpus.len()).map(|i| corpus.id(i)));
        let mut out = MembersParquetWriter::clusters(w)?;
        for d in 0..corpus.len() as u32 {
            if let Some(c) = clusters.cluster_of(d) {
                out.write_member(&ids, d, clusters.kept(c), clusters.members(c).len())?;
            }
        }
        return out.finish().map(|_| ());
    }
    let mut out = RowWriter::new(w, format, CLUSTER_COLUMNS, None)?;
    for d in 0..corpus.len() as u32 {
        if let Some(c) = clusters.cluster_of(d) {
            let kept = clusters.kept(c);
            out.write_row(&[
                Field::Str(corpus.id(d as usize)),
                Field::Str(corpus.id(kept as usize)),
                Field::U64(clusters.members(c).len() as u64),
                Field::Bool(kept == d),
            ])?;
        }
    }
    out.finish()
}

/// The ids of the documents to remove, one per line, in input order.
fn write_drop_list(w: &mut dyn Write, corpus: &Corpus, clusters: &Clusters) -> std::io::Result<()> {
    for d in 0..corpus.len() as u32 {
        if clusters.is_removed(d) {
            w.write_all(corpus.id(d as usize).as_bytes())?;
            w.write_all(b"\n")?;
        }
    }
    Ok(())
}

fn summarize(
    args: &DedupArgs,
    corpus: &Corpus,
    read: ReadReport,
    result: &Dedup,
    options: &DedupOptions,
    phases: Vec<PhaseTiming>,
) -> DedupSummary {
    let clusters = &result.clusters;
    let id = |d: u32| corpus.id(d as usize).to_string();
    let describe = |c: usize, a: &ChainAudit| ClusterSummary {
        kept: id(clusters.kept(c)),
        size: a.size,
        weakest_link: a.weakest_link.jaccard,
        weakest_link_ids: (id(a.weakest_link.a), id(a.weakest_link.b)),
        farthest_pair: a.farthest_pair.jaccard,
        farthest_pair_ids: (id(a.farthest_pair.a), id(a.farthest_pair.b)),
        exact: a.exact,
    };
    let mut by_size: Vec<usize> = (0..clusters.len()).collect();
    by_size.sort_by_key(|&c| std::cmp::Reverse(clusters.members(c).len()));
    let mut chained: Vec<usize> = (0..clusters.len())
        .filter(|&c| result.audits[c].chained)
        .collect();
    chained.sort_by(|&x, &y| {
        result.audits[x]
            .farthest_pair
            .jaccard
            .total_cmp(&result.audits[y].farthest_pair.jaccard)
    });
    let documents = corpus.len();
    DedupSummary {
        input: args.corpus.input.display().to_string(),
        read,
        documents,
        bands: options.banding.banding.bands,
        rows: options.banding.banding.rows,
        threshold: options.threshold,
        joining: options.joining,
        keep: options.keep,
        identical_copies: result.identical.as_ref().map_or(0, |g| g.copies()),
        bucket_pairs: result.bucket_pairs,
        jaccards_computed: result.jaccards_computed,
        clusters: clusters.len(),
        documents_in_clusters: clusters.clustered_documents(),
        documents_removed: clusters.removed_documents(),
        removed_share: if documents > 0 {
            clusters.removed_documents() as f64 / documents as f64
        } else {
            0.0
        },
        cluster_sizes: clusters.size_distribution(),
        largest_clusters: by_size
            .iter()
            .take(LISTED)
            .map(|&c| describe(c, &result.audits[c]))
            .collect(),
        chained_clusters: chained.len(),
        most_chained: chained
            .iter()
            .take(LISTED)
            .map(|&c| describe(c, &result.audits[c]))
            .collect(),
        removed_below_threshold: result.removed_below_threshold,
        phases,
    }
}

fn render_summary(s: &DedupSummary, input: &str) -> String {
    use std::fmt::Write as _;
    let mut out = render_read_line(&s.read, input, 0);
    let _ = writeln!(
        out,
        "{}; {} {} an earlier document's shingles (collapsed before banding)",
        bands_by_rows(s.bands, s.rows),
        s.identical_copies,
        for_count(
            s.identical_copies as u64,
            "document repeats",
            "documents repeat"
        )
    );
    let joined = match s.joining {
        Joining::Verified => format!("pairs at Jaccard ≥ {} join clusters", s.threshold),
        Joining::Unverified => "every candidate joins clusters (--unverified)".to_string(),
    };
    let _ = writeln!(
        out,
        "buckets stand for {} candidate {} (with repeats over bands); {} exact {} computed; \
         {joined}",
        s.bucket_pairs,
        for_count(s.bucket_pairs, "pair", "pairs"),
        s.jaccards_computed,
        for_count(s.jaccards_computed, "Jaccard", "Jaccards")
    );
    let _ = writeln!(
        out,
        "{} {} {} documents; {} removed ({:.2} % of {}), one kept per cluster ({})",
        s.clusters,
        for_count(s.clusters as u64, "cluster holds", "clusters hold"),
        s.documents_in_clusters,
        s.documents_removed,
        100.0 * s.removed_share,
        s.documents,
        match s.keep {
            KeepRule::First => "the first",
            KeepRule::Longest => "the longest",
        }
    );
    if !s.cluster_sizes.is_empty() {
        let bins: Vec<String> = s
            .cluster_sizes
            .iter()
            .filter(|b| b.2 > 0)
            .map(|&(lo, hi, n)| {
                if lo == hi {
                    format!("{lo}: {n}")
                } else {
                    format!("{lo}–{hi}: {n}")
                }
            })
            .collect();
        let _ = writeln!(out, "  cluster sizes  {}", bins.join(" · "));
    }
    for c in &s.largest_clusters {
        let _ = writeln!(
            out,
            "  {:>7} documents, kept {}; weakest link {}{:.3}, farthest pair {:.3}{}",
            c.size,
            c.kept,
            if c.exact { "" } else { "≥ " },
            c.weakest_link,
            c.farthest_pair,
            if c.exact { "" } else { " (sampled)" }
        );
    }
    let _ = writeln!(
        out,
        "{} of {} {} chained: some members are below Jaccard {} of each other",
        s.chained_clusters,
        s.clusters,
        for_count(s.clusters as u64, "cluster is", "clusters are"),
        s.threshold
    );
    for c in &s.most_chained {
        let _ = writeln!(
            out,
            "  kept {} ({} documents): {} and {} at {:.3}{}, joined through links ≥ {:.3}",
            c.kept,
            c.size,
            c.farthest_pair_ids.0,
            c.farthest_pair_ids.1,
            c.farthest_pair,
            if c.exact { "" } else { " (lowest of a sample)" },
            c.weakest_link
        );
    }
    if let Some(below) = s.removed_below_threshold {
        let _ = writeln!(
            out,
            "{below} {} removed only through pairs below Jaccard {} (verifying candidates \
             would keep {})",
            for_count(below as u64, "document is", "documents are"),
            s.threshold,
            for_count(below as u64, "it", "them")
        );
    }
    out.push_str(&render_phases(&s.phases));
    out
}
