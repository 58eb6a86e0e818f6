//! `lshscope dedup`: the dedup result — clusters of near-duplicates, the document each keeps,
//! the ids to drop, and how each cluster holds together.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::lsh_args::BandingArgs;
use super::outputs::{Written, check_outputs};
use super::summary::{id_for_message, render_cap, render_phases, render_read_line};
use super::{CorpusArgs, IndexArgs, ProgressBar, show_progress};
use lshscope_core::analysis::clusters::{AuditLimits, ChainAudit, Clusters, KeepRule, score_keys};
use lshscope_core::analysis::dedup::{Clustering, Dedup, DedupOptions, Joining};
use lshscope_core::corpus::{ColumnSpec, Corpus, ReadReport};
use lshscope_core::jobs::Phase;
use lshscope_core::minhash::{BandingOptions, IndexOptions};
use lshscope_core::pairs::parquet::{IdColumn, IdsParquetWriter, MembersParquetWriter};
use lshscope_core::pairs::{Field, OutputFormat, OutputTarget, RowWriter};
use lshscope_core::pipeline::{PhaseTiming, Pipeline};
use lshscope_core::util::numfmt::{bands_by_rows, for_count, thousands};
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct DedupArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub banding: BandingArgs,
    /// Documents are duplicates when their exact Jaccard is at least T.
    #[arg(long, short = 't', value_name = "T", allow_negative_numbers = true)]
    pub threshold: f64,
    /// How documents are removed: `center` removes a document only when a document already
    /// kept (in --keep order) is a verified pair at ≥ T with it, and assigns it to the most
    /// similar one; `components` keeps one document per connected component of the verified
    /// pairs, as text-dedup, datatrove and NeMo Curator do, and so also removes documents
    /// that a chain of pairs joins to the kept one below T [default: center; components with
    /// --unverified].
    #[arg(long, value_enum, value_name = "METHOD")]
    pub clustering: Option<ClusteringArg>,
    /// Join every candidate pair without checking its Jaccard, as datatrove and NeMo Curator
    /// do (components only); the summary then counts the removals owed to pairs below
    /// --threshold.
    #[arg(long)]
    pub unverified: bool,
    /// Which document is kept first: the first in input order, or the longest text (the
    /// first of equal lengths). Center clustering takes documents in this order.
    #[arg(long, value_enum, default_value_t = KeepArg::First)]
    pub keep: KeepArg,
    /// Keep first the document with the highest value in COLUMN of a CSV/TSV input (a
    /// header name or a 1-based index; e.g. a quality score), ties in input order. Every
    /// row needs a number there.
    #[arg(long, value_name = "COLUMN", conflicts_with = "keep")]
    pub keep_by: Option<ColumnSpec>,
    /// Write the clusters (`id,cluster,size,keep,jaccard`: the kept document of each
    /// document's cluster and its Jaccard with it) to FILE (atomically) instead of stdout;
    /// `-` is stdout. The name picks the format (`.csv`, `.jsonl`, `.parquet`) and
    /// compression (`.gz`, `.zst`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Row format; overrides the output name's extension [default: from the name, else csv].
    #[arg(long, value_name = "FORMAT", value_parser = super::output_format_parser(CLUSTER_FORMATS))]
    pub output_format: Option<OutputFormat>,
    /// Also write the ids of the documents to remove to FILE (atomically); `-` is stdout.
    /// The name picks the format: one id per line (`.txt` or any other name), `.csv` (column
    /// `id`), `.jsonl` (`{"id": …}`) or `.parquet` (one string column `id`), and compression
    /// (`.gz`, `.zst`).
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
pub enum ClusteringArg {
    /// Greedy in keep order: every removed document is a verified pair with its kept one.
    Center,
    /// Connected components of the verified pairs, one document kept per component.
    Components,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    /// The first document in input order.
    First,
    /// The longest text (the first of equal lengths).
    Longest,
}

/// The columns of a clusters file, in order.
pub const CLUSTER_COLUMNS: &[&str] = &["id", "cluster", "size", "keep", "jaccard"];

/// Clusters listed in the summary, largest or most chained first.
const LISTED: usize = 5;

/// What a dedup run did, printed to stderr and optionally written as JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DedupSummary {
    pub input: String,
    pub read: ReadReport,
    pub documents: usize,
    /// Documents with no shingle at all (never in a pair), as `scan` and `truth` count them.
    pub documents_without_shingles: usize,
    /// Shingling, K (`num_perm`) and the seed: what a rerun needs to hash alike.
    #[serde(flatten)]
    pub index: IndexOptions,
    pub bands: usize,
    pub rows: usize,
    /// `--max-bucket`, when given.
    pub max_bucket: Option<usize>,
    pub threshold: f64,
    pub joining: Joining,
    /// Which method's clusters the clusters file and the drop list hold.
    pub clustering: Clustering,
    pub keep: KeepRule,
    /// `--keep-by`: the column whose highest value is kept first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_by: Option<String>,
    /// Documents whose shingle set repeats an earlier document's (collapsed before banding).
    pub identical_copies: usize,
    /// Candidate pairs the buckets stand for among the representatives, with multiplicity
    /// over bands (an upper bound on the distinct candidates; never enumerated).
    pub bucket_pairs: u64,
    /// Buckets larger than `--max-bucket`, whose members past the cap form no pairs.
    pub capped_buckets: usize,
    /// Bucket pairs the cap leaves out (with multiplicity over bands).
    pub pairs_dropped_by_cap: u64,
    /// Exact Jaccards computed (joining components, weakest links, audits, the center pass,
    /// removed documents against their components' kept ones).
    pub jaccards_computed: u64,
    /// Of those, the ones that joined the components (a bucket's member stops at the first
    /// member of another component that reaches the threshold) ...
    pub joining_jaccards: u64,
    /// ... and the center pass's: one per document and kept candidate of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub center_jaccards: Option<u64>,
    /// Clusters of the chosen method, the documents they hold and remove.
    pub clusters: usize,
    pub documents_in_clusters: usize,
    pub documents_removed: usize,
    pub removed_share: f64,
    /// Both methods side by side: what center clustering removes (none of them below the
    /// threshold against its kept document; absent with --unverified) ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub center_removed: Option<usize>,
    /// ... and what the components remove, with how many of those are below the threshold
    /// against the document their component keeps: removals no pair justifies.
    pub components_removed: usize,
    pub components_removed_below_threshold: usize,
    /// `[lo, hi, clusters]`: clusters whose size is in lo..=hi.
    pub cluster_sizes: Vec<(usize, usize, usize)>,
    pub largest_clusters: Vec<ClusterSummary>,
    /// The components' chaining audit: components some of whose members are below the
    /// threshold of each other.
    pub components: usize,
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
    /// A component's weakest link (the bottleneck of its maximum spanning tree), or for a
    /// center cluster the lowest Jaccard of a member with the kept document.
    pub weakest_link: f64,
    pub weakest_link_ids: (String, String),
    /// The lowest Jaccard found between two members (components only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub farthest_pair: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub farthest_pair_ids: Option<(String, String)>,
    /// True when every pair of distinct members was compared: the farthest pair and the
    /// weakest link are exact. False above 400 distinct members: the farthest pair is the
    /// lowest of a sample, and the weakest link a lower bound (the cluster holds together at
    /// that Jaccard at least).
    pub exact: bool,
}

pub fn run(args: DedupArgs) -> Result<i32> {
    lshscope_core::error::check_unit("--threshold", args.threshold)?;
    let clustering = clustering_of(&args)?;
    let banding = args.banding.banding(args.index.num_perm)?;
    let index_options = args.index.index_options()?;
    let outputs = DedupOutputs::plan(&args)?;
    let (target, format) = (&outputs.clusters, outputs.clusters_format);
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    // Read, check the ids, then hash: ids that cannot name the outputs stop the run before
    // the signatures, its longest phase.
    let (corpus, mut read) = run.read(
        &args.corpus.input,
        &args.corpus.read_options(args.index.seed),
    )?;
    // Repeated ids are an error here (`check_unique_ids`), so not also a warning.
    super::warn_about_read(args.quiet, &args.corpus, &mut read, false)?;
    check_unique_ids(&read, outputs.drop_list.is_some())?;
    if let Some((drop, DropListFormat::Lines)) = &outputs.drop_list {
        check_ids_fit_lines(&corpus, drop)?;
    }
    let read_options = args.corpus.read_options(args.index.seed);
    let keep_keys = match &args.keep_by {
        None => None,
        Some(column) => Some(run.timed(Phase::Reading, "docs", |progress| {
            let values = super::keep_by::column_values(
                &args.corpus.input,
                &read_options,
                &read,
                &corpus,
                column,
                progress,
            )?;
            Ok((score_keys(&values), corpus.len() as u64))
        })?),
    };
    let index = run.index(&corpus, &index_options)?;
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
        clustering,
        keep: match (&keep_keys, args.keep) {
            (Some(_), _) => KeepRule::Highest,
            (None, KeepArg::First) => KeepRule::First,
            (None, KeepArg::Longest) => KeepRule::Longest,
        },
        collapse_identical: true,
        audit: AuditLimits::default(),
    };
    let result = match &keep_keys {
        Some(keys) => run.dedup(&index, &options, |d| keys[d as usize])?,
        None => run.dedup(&index, &options, |d| {
            corpus.text(d as usize).chars().count()
        })?,
    };
    let clusters = result.chosen();
    let to_kept = result.chosen_to_kept();
    let rows = clusters.clustered_documents() as u64;
    run.timed(Phase::Writing, "rows", |progress| {
        progress.begin(Phase::Writing, rows);
        target.write(Some(progress), |w| {
            write_clusters(w, &corpus, clusters, to_kept, format)
        })?;
        Ok(((), rows))
    })?;
    let mut written = Written::default();
    written.record(target);
    if let Some((drop, drop_format)) = &outputs.drop_list {
        written.write(drop, None, |w| {
            write_drop_list(w, &corpus, clusters, *drop_format)
        })?;
    }
    progress.finish();
    drop(bar);

    let summary = summarize(
        &args,
        &corpus,
        read,
        (&index.options, index.shingleless_docs()),
        &result,
        &options,
        run.into_phases(),
    );
    if !args.quiet {
        eprint!(
            "{}",
            render_summary(&summary, &args.corpus.input.display().to_string())
        );
    }
    if let Some(t) = &outputs.summary {
        written.write_summary_json(t, &summary)?;
    }
    Ok(0)
}

/// The clustering `args` ask for: center unless --unverified (which has components only).
fn clustering_of(args: &DedupArgs) -> Result<Clustering> {
    match (args.clustering, args.unverified) {
        (Some(ClusteringArg::Center), true) => Err(Error::usage(
            "--clustering center removes a document only for a verified pair at the threshold, \
             and --unverified joins every candidate unchecked, which has components only: drop \
             --unverified, or use --clustering components",
        )),
        (Some(ClusteringArg::Components), _) | (None, true) => Ok(Clustering::Components),
        (Some(ClusteringArg::Center), false) | (None, false) => Ok(Clustering::Center),
    }
}

/// Where a dedup's outputs go, in which formats: planned and checked by
/// [`DedupOutputs::plan`] before any work.
struct DedupOutputs {
    clusters: OutputTarget,
    clusters_format: OutputFormat,
    drop_list: Option<(OutputTarget, DropListFormat)>,
    summary: Option<OutputTarget>,
}

impl DedupOutputs {
    /// The outputs `args` ask for: at most one of them on stdout, every file writable.
    fn plan(args: &DedupArgs) -> Result<Self> {
        let clusters = OutputTarget::new(args.output.as_deref());
        let clusters_format = clusters.format(args.output_format, CLUSTER_FORMATS)?;
        let drop_list = match args.drop_list.as_deref() {
            Some(path) => {
                let target = OutputTarget::new(Some(path));
                let format = DropListFormat::of(&target)?;
                Some((target, format))
            }
            None => None,
        };
        let summary = args
            .summary_json
            .as_deref()
            .map(|p| OutputTarget::new(Some(p)));
        let drop_target = drop_list.as_ref().map(|(target, _)| target);
        let to_stdout = [Some(&clusters), drop_target, summary.as_ref()]
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
        check_outputs(&[
            ("--output", Some(&clusters)),
            ("--drop-list", drop_target),
            ("--summary-json", summary.as_ref()),
        ])?;
        Ok(DedupOutputs {
            clusters,
            clusters_format,
            drop_list,
            summary,
        })
    }
}

/// Refuses a corpus whose ids repeat: the clusters file and the drop list name documents by
/// id only (no row number), so a repeated id stands for several documents, and removing the
/// listed ids would remove the kept copy of each with the others. The read report knows
/// this as soon as the corpus is read. `drop_list`: whether one was asked for, to name it.
fn check_unique_ids(read: &ReadReport, drop_list: bool) -> Result<()> {
    if read.duplicate_ids == 0 {
        return Ok(());
    }
    Err(Error::usage(format!(
        "{}: the clusters{} name documents by id, so an id that repeats stands for several \
         documents, and dropping it drops the kept one too; make the ids unique, choose an \
         id column with unique values (--id-column, or --id-field for JSON Lines), or name \
         documents by row number with --row-ids",
        read.repeated_ids(),
        if drop_list { " and the drop list" } else { "" }
    )))
}

/// Refuses a one-id-per-line drop list when an id holds a line break: read back, it would
/// be two ids, neither of them right.
fn check_ids_fit_lines(corpus: &Corpus, drop: &OutputTarget) -> Result<()> {
    let broken = (0..corpus.len())
        .map(|d| corpus.id(d))
        .find(|id| id.contains(['\n', '\r']));
    match broken {
        None => Ok(()),
        Some(id) => Err(Error::usage(format!(
            "--drop-list {}: the id {} holds a line break, which a list of one id per line \
             cannot; name the drop list .csv, .jsonl or .parquet to write it as a table",
            drop.display(),
            id_for_message(id)
        ))),
    }
}

/// How a drop list is written, chosen by its name as `-o` chooses the clusters' format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DropListFormat {
    /// One id per line: `.txt`, any name without a table extension, and stdout.
    Lines,
    /// A table of one column, `id`: CSV (quoted as needed) or JSON Lines.
    Table(OutputFormat),
}

impl DropListFormat {
    fn of(target: &OutputTarget) -> Result<Self> {
        match target.path.as_deref().and_then(OutputFormat::from_name) {
            None => Ok(DropListFormat::Lines),
            Some(_) => target
                .format(None, DROP_LIST_FORMATS)
                .map(DropListFormat::Table),
        }
    }
}

/// The table formats a drop list can take.
const DROP_LIST_FORMATS: &[OutputFormat] = &[
    OutputFormat::Csv,
    OutputFormat::Jsonl,
    OutputFormat::Parquet,
];

/// The column of a drop list written as a table.
const DROP_LIST_COLUMNS: &[&str] = &["id"];

/// The formats `dedup -o` can write.
const CLUSTER_FORMATS: &[OutputFormat] = &[
    OutputFormat::Csv,
    OutputFormat::Jsonl,
    OutputFormat::Parquet,
];

/// One row per document in a cluster, in input order: its id, the id of its cluster's kept
/// document, the cluster's size, whether this is the kept document, and its Jaccard with the
/// kept document (`to_kept`, per document; 1 for the kept one).
pub fn write_clusters(
    w: &mut dyn Write,
    corpus: &Corpus,
    clusters: &Clusters,
    to_kept: &[f64],
    format: OutputFormat,
) -> std::io::Result<()> {
    if format == OutputFormat::Parquet {
        let ids = IdColumn::new((0..corpus.len()).map(|i| corpus.id(i)));
        let mut out = MembersParquetWriter::clusters(w)?;
        for d in 0..corpus.len() as u32 {
            if let Some(c) = clusters.cluster_of(d) {
                let (kept, size) = (clusters.kept(c), clusters.members(c).len());
                out.write_cluster_member(&ids, d, kept, size, to_kept[d as usize])?;
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
                Field::F64(to_kept[d as usize]),
            ])?;
        }
    }
    out.finish()
}

/// The ids of the documents to remove, in input order, one per line or as a table.
fn write_drop_list(
    w: &mut dyn Write,
    corpus: &Corpus,
    clusters: &Clusters,
    format: DropListFormat,
) -> std::io::Result<()> {
    let removed = (0..corpus.len())
        .filter(|&d| clusters.is_removed(d as u32))
        .map(|d| corpus.id(d));
    match format {
        DropListFormat::Lines => {
            for id in removed {
                w.write_all(id.as_bytes())?;
                w.write_all(b"\n")?;
            }
            Ok(())
        }
        DropListFormat::Table(OutputFormat::Parquet) => {
            let mut out = IdsParquetWriter::new(w)?;
            for id in removed {
                out.write_id(id)?;
            }
            out.finish().map(|_| ())
        }
        DropListFormat::Table(format) => {
            let mut out = RowWriter::new(w, format, DROP_LIST_COLUMNS, None)?;
            for id in removed {
                out.write_row(&[Field::Str(id)])?;
            }
            out.finish()
        }
    }
}

fn summarize(
    args: &DedupArgs,
    corpus: &Corpus,
    read: ReadReport,
    (index, without_shingles): (&IndexOptions, usize),
    result: &Dedup,
    options: &DedupOptions,
    phases: Vec<PhaseTiming>,
) -> DedupSummary {
    let components = &result.clusters;
    let clusters = result.chosen();
    let id = |d: u32| corpus.id(d as usize).to_string();
    let describe = |c: usize, a: &ChainAudit| ClusterSummary {
        kept: id(components.kept(c)),
        size: a.size,
        weakest_link: a.weakest_link.jaccard,
        weakest_link_ids: (id(a.weakest_link.a), id(a.weakest_link.b)),
        farthest_pair: Some(a.farthest_pair.jaccard),
        farthest_pair_ids: Some((id(a.farthest_pair.a), id(a.farthest_pair.b))),
        exact: a.exact,
    };
    // A center cluster is a star: its spanning edges are its members' pairs with the kept
    // document, all computed, so its weakest is exact.
    let describe_star = |c: usize| {
        let weakest = clusters.weakest_link(c);
        ClusterSummary {
            kept: id(clusters.kept(c)),
            size: clusters.members(c).len(),
            weakest_link: weakest.jaccard,
            weakest_link_ids: (id(weakest.a), id(weakest.b)),
            farthest_pair: None,
            farthest_pair_ids: None,
            exact: true,
        }
    };
    let mut by_size: Vec<usize> = (0..clusters.len()).collect();
    by_size.sort_by_key(|&c| std::cmp::Reverse(clusters.members(c).len()));
    let largest_clusters = by_size
        .iter()
        .take(LISTED)
        .map(|&c| match result.clustering {
            Clustering::Center if result.center.is_some() => describe_star(c),
            _ => describe(c, &result.audits[c]),
        })
        .collect();
    let mut chained: Vec<usize> = (0..components.len())
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
        documents_without_shingles: without_shingles,
        index: index.clone(),
        bands: options.banding.banding.bands,
        rows: options.banding.banding.rows,
        max_bucket: options.banding.max_bucket,
        threshold: options.threshold,
        joining: options.joining,
        clustering: options.clustering,
        keep: options.keep,
        keep_by: args.keep_by.as_ref().map(|c| match c {
            ColumnSpec::Name(n) => n.clone(),
            ColumnSpec::Index(i) => i.to_string(),
        }),
        identical_copies: result.identical.as_ref().map_or(0, |g| g.copies()),
        bucket_pairs: result.bucket_pairs,
        capped_buckets: result.capped_buckets,
        pairs_dropped_by_cap: result.pairs_dropped_by_cap,
        jaccards_computed: result.jaccards_computed,
        joining_jaccards: result.joining_jaccards,
        center_jaccards: result.center.as_ref().map(|c| c.jaccards),
        clusters: clusters.len(),
        documents_in_clusters: clusters.clustered_documents(),
        documents_removed: clusters.removed_documents(),
        removed_share: if documents > 0 {
            clusters.removed_documents() as f64 / documents as f64
        } else {
            0.0
        },
        center_removed: result
            .center
            .as_ref()
            .map(|c| c.clusters.removed_documents()),
        components_removed: components.removed_documents(),
        components_removed_below_threshold: result.components_removed_below_threshold,
        cluster_sizes: clusters.size_distribution(),
        largest_clusters,
        components: components.len(),
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

/// Both methods' removals: what center clustering removes and what the components remove,
/// with the components' removals below the threshold against their kept document.
fn render_side_by_side(s: &DedupSummary) -> String {
    let below = s.components_removed_below_threshold as u64;
    let share = if s.components_removed > 0 {
        format!(
            " ({:.1} %)",
            100.0 * below as f64 / s.components_removed as f64
        )
    } else {
        String::new()
    };
    let removed = thousands(s.components_removed as u64);
    let t = s.threshold;
    match (s.clustering, s.center_removed) {
        (Clustering::Center, Some(_)) => format!(
            "connected components (--clustering components) would remove {removed}; {} of them{share} {} below Jaccard {t} against the document kept for {}\n",
            thousands(below),
            for_count(below, "is", "are"),
            for_count(below, "it", "them"),
        ),
        (_, center) => {
            let center = match center {
                Some(center) => format!(
                    "center clustering (--clustering center) would remove {}, each a verified \
                     pair at ≥ {t} with the document kept for it",
                    thousands(center as u64)
                ),
                None => "center clustering needs verified pairs (--unverified joins \
                         components only)"
                    .to_string(),
            };
            format!(
                "{} of the {removed} removed documents{share} {} below Jaccard {t} against the \
                 document kept for {}; {center}\n",
                thousands(below),
                for_count(below, "is", "are"),
                for_count(below, "it", "them"),
            )
        }
    }
}

fn render_summary(s: &DedupSummary, input: &str) -> String {
    let mut out = render_read_line(&s.read, input, s.documents_without_shingles);
    render_banding(&mut out, s);
    out.push_str(&render_cap(s.capped_buckets, s.pairs_dropped_by_cap));
    render_clusters(&mut out, s);
    render_cluster_sizes(&mut out, s);
    render_largest_clusters(&mut out, s);
    out.push_str(&render_side_by_side(s));
    render_chained(&mut out, s);
    out.push_str(&render_phases(&s.phases));
    out
}

/// The banding, the identical copies collapsed before it, and the Jaccards the run computed.
fn render_banding(out: &mut String, s: &DedupSummary) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "{}{}; {} {} an earlier document's shingles (collapsed before banding)",
        bands_by_rows(s.bands, s.rows),
        super::family_note(s.index.family),
        thousands(s.identical_copies as u64),
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
    // Not scan's candidate count: identical copies were collapsed first, and a pair of
    // documents is counted in every band whose bucket it shares.
    let _ = writeln!(
        out,
        "buckets stand for {} {} of distinct shingle sets (counted in every band they share, \
         identical copies collapsed: not scan's count of distinct candidates); {} exact {} \
         computed{}; {joined}",
        thousands(s.bucket_pairs),
        for_count(s.bucket_pairs, "bucket pair", "bucket pairs"),
        thousands(s.jaccards_computed),
        for_count(s.jaccards_computed, "Jaccard", "Jaccards"),
        match s.center_jaccards {
            Some(center) => format!(
                " ({} joining components, {} in the center pass)",
                thousands(s.joining_jaccards),
                thousands(center)
            ),
            None => String::new(),
        }
    );
}

/// How many clusters, how many documents removed, and by which method and keep rule.
fn render_clusters(out: &mut String, s: &DedupSummary) {
    use std::fmt::Write as _;
    let (keep, order) = match (s.keep, &s.keep_by) {
        (KeepRule::First, _) => ("the first".to_string(), "input order".to_string()),
        (KeepRule::Longest, _) => ("the longest".to_string(), "longest first".to_string()),
        (KeepRule::Highest, column) => {
            let column = column.as_deref().unwrap_or("score");
            (
                format!("the highest {column}"),
                format!("highest {column} first"),
            )
        }
    };
    let method = match s.clustering {
        Clustering::Center => format!(
            "center clustering in keep order ({order}): each removed document is a verified \
             pair at Jaccard ≥ {} with the document kept for it",
            s.threshold
        ),
        Clustering::Components => {
            format!("connected components, one document kept per component ({keep})")
        }
    };
    let _ = writeln!(
        out,
        "{} {} {} documents; {} removed ({:.2} % of {}); {method}",
        thousands(s.clusters as u64),
        for_count(s.clusters as u64, "cluster holds", "clusters hold"),
        thousands(s.documents_in_clusters as u64),
        thousands(s.documents_removed as u64),
        100.0 * s.removed_share,
        thousands(s.documents as u64),
    );
}

/// Cluster sizes in powers of two.
fn render_cluster_sizes(out: &mut String, s: &DedupSummary) {
    use std::fmt::Write as _;
    if !s.cluster_sizes.is_empty() {
        let bins: Vec<String> = s
            .cluster_sizes
            .iter()
            .filter(|b| b.2 > 0)
            .map(|&(lo, hi, n)| {
                let (lo, hi, n) = (
                    thousands(lo as u64),
                    thousands(hi as u64),
                    thousands(n as u64),
                );
                if lo == hi {
                    format!("{lo}: {n}")
                } else {
                    format!("{lo}–{hi}: {n}")
                }
            })
            .collect();
        let _ = writeln!(out, "  cluster sizes  {}", bins.join(" · "));
    }
}

/// The largest clusters: what each keeps and how weak its weakest link is.
fn render_largest_clusters(out: &mut String, s: &DedupSummary) {
    use std::fmt::Write as _;
    for c in &s.largest_clusters {
        match c.farthest_pair {
            None => {
                let _ = writeln!(
                    out,
                    "  {:>7} documents, kept {}; lowest Jaccard with it {:.3}",
                    thousands(c.size as u64),
                    id_for_message(&c.kept),
                    c.weakest_link
                );
            }
            Some(farthest) => {
                let _ = writeln!(
                    out,
                    "  {:>7} documents, kept {}; weakest link {}{:.3}, farthest pair {}{:.3}{}",
                    thousands(c.size as u64),
                    id_for_message(&c.kept),
                    if c.exact { "" } else { "≥ " },
                    c.weakest_link,
                    // The lowest Jaccard of a sample of pairs bounds the cluster's lowest
                    // from above.
                    if c.exact { "" } else { "≤ " },
                    farthest,
                    if c.exact {
                        ""
                    } else {
                        " (bounds from a sample)"
                    }
                );
            }
        }
    }
}

/// Chained components (members below t of each other), and documents removed only through
/// pairs below t (`--unverified`).
fn render_chained(out: &mut String, s: &DedupSummary) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "{} of {} {} chained: some members are below Jaccard {} of each other",
        thousands(s.chained_clusters as u64),
        thousands(s.components as u64),
        for_count(s.components as u64, "component is", "components are"),
        s.threshold
    );
    for c in &s.most_chained {
        let ids = c.farthest_pair_ids.clone().unwrap_or_default();
        let _ = writeln!(
            out,
            "  kept {} ({} documents): {} and {} at {:.3}{}, joined through links ≥ {:.3}",
            id_for_message(&c.kept),
            thousands(c.size as u64),
            id_for_message(&ids.0),
            id_for_message(&ids.1),
            c.farthest_pair.unwrap_or(f64::NAN),
            if c.exact { "" } else { " (lowest of a sample)" },
            c.weakest_link
        );
    }
    if let Some(below) = s.removed_below_threshold {
        let _ = writeln!(
            out,
            "{} {} removed only through pairs below Jaccard {} (verifying candidates would \
             keep {})",
            thousands(below as u64),
            for_count(below as u64, "document is", "documents are"),
            s.threshold,
            for_count(below as u64, "it", "them")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format_of(name: &str) -> Result<DropListFormat> {
        DropListFormat::of(&OutputTarget::new(Some(std::path::Path::new(name))))
    }

    #[test]
    fn the_drop_list_format_follows_the_name_as_outputs_do() {
        use DropListFormat::{Lines, Table};
        assert_eq!(format_of("-").unwrap(), Lines);
        for name in ["d.txt", "d", "d.ids", "d.txt.gz", "d.zst"] {
            assert_eq!(format_of(name).unwrap(), Lines, "{name}");
        }
        assert_eq!(format_of("d.csv").unwrap(), Table(OutputFormat::Csv));
        assert_eq!(format_of("d.CSV.gz").unwrap(), Table(OutputFormat::Csv));
        assert_eq!(format_of("d.ndjson").unwrap(), Table(OutputFormat::Jsonl));
        assert_eq!(
            format_of("d.parquet").unwrap(),
            Table(OutputFormat::Parquet)
        );
    }

    #[test]
    fn a_table_drop_list_quotes_its_ids() {
        let mut corpus = Corpus::new();
        for (id, text) in [("k", "t"), ("a,b", "t"), ("line\nbreak", "t")] {
            corpus.push(id, text);
        }
        let clusters = Clusters::build(
            3,
            &[
                lshscope_core::analysis::clusters::Edge {
                    a: 0,
                    b: 1,
                    jaccard: 1.0,
                },
                lshscope_core::analysis::clusters::Edge {
                    a: 0,
                    b: 2,
                    jaccard: 1.0,
                },
            ],
            None,
            KeepRule::First,
            |_| 0,
        );
        let written = |format| {
            let mut out = Vec::new();
            write_drop_list(&mut out, &corpus, &clusters, format).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            written(DropListFormat::Table(OutputFormat::Csv)),
            "id\n\"a,b\"\n\"line\nbreak\"\n"
        );
        assert_eq!(
            written(DropListFormat::Table(OutputFormat::Jsonl)),
            "{\"id\":\"a,b\"}\n{\"id\":\"line\\nbreak\"}\n"
        );
        let refused = check_ids_fit_lines(&corpus, &OutputTarget::new(Some("d.txt".as_ref())))
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("the id \"line\\nbreak\" holds a line break"),
            "{refused}"
        );
    }
}
