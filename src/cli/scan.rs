//! `lshscope scan`: corpus → signatures → bands → verified pairs.

use std::path::PathBuf;

use clap::Args;

use super::{BandingArgs, CorpusArgs, IndexArgs, ProgressBar, show_progress};
use crate::analysis::recall::{TruthComparison, compare_truth, read_truth};
use crate::atomic::{check_writable, note_written};
use crate::corpus::{Corpus, ReadReport};
use crate::jobs::Phase;
use crate::minhash::{BandingOptions, BucketInfo, IdenticalGroups, Index, IndexOptions};
use crate::numfmt::{bands_by_rows, for_count, thousands};
use crate::pairfile::{Field, OutputFormat, OutputTarget, PairWriter, RowWriter, write_pairs};
use crate::pairs_parquet::{IdColumn, MembersParquetWriter};
use crate::pipeline::{Loaded, PhaseTiming, Pipeline, SORTED_PAIRS_UP_TO};
use crate::{Error, Result};

#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub banding: BandingArgs,
    /// Keep pairs whose exact Jaccard is at least T (0 keeps every candidate).
    #[arg(
        long,
        short = 't',
        default_value_t = 0.0,
        value_name = "T",
        allow_negative_numbers = true
    )]
    pub threshold: f64,
    /// Write pairs to FILE (atomically) instead of stdout; `-` is stdout. The name picks
    /// the format (`.csv`, `.jsonl`/`.ndjson`) and compression (`.gz`, `.zst`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Row format; overrides the output name's extension [default: from the name, else csv].
    #[arg(long, value_name = "FORMAT", value_parser = super::output_format_parser(PAIR_FORMATS))]
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
    #[arg(long, value_name = "FILE", conflicts_with = "collapse_identical")]
    pub truth: Option<PathBuf>,
    /// With --truth: redraw the hash family N times to measure how far each bin's rate moves
    /// between draws; the intervals hold when pairs share documents and move together. 0 gives
    /// binomial intervals, which assume independent pairs and flag healthy bins on real corpora.
    #[arg(long, value_name = "N", default_value_t = crate::analysis::redraws::DEFAULT_REDRAWS, requires = "truth")]
    pub truth_redraws: usize,
    /// Write each group of documents with identical shingle sets once: pairs only between
    /// the groups' representatives (their first members), and the groups to --groups. Every
    /// pair of two representatives stands for all pairs between their groups, and members of
    /// one group pair with each other at Jaccard 1.
    #[arg(long)]
    pub collapse_identical: bool,
    /// With --collapse-identical: write the groups (`id,representative,size`, one row per
    /// document in a group of two or more, in input order) to FILE, atomically; the name picks
    /// the format and compression [default: the pairs file's name with `.groups` before its
    /// extension, e.g. pairs.csv → pairs.groups.csv; required when pairs go to stdout].
    #[arg(long, value_name = "FILE", requires = "collapse_identical")]
    pub groups: Option<PathBuf>,
    /// Write the pairs sorted by document when there are at most N; above N they are written
    /// as they are found (band by band, each pair once), so memory follows the documents and
    /// bands, never the pairs. The summary says which (`pairs_sorted`).
    #[arg(long, value_name = "N", default_value_t = SORTED_PAIRS_UP_TO)]
    pub sort_limit: usize,
}

/// The columns of a groups file, in order.
pub const GROUP_COLUMNS: &[&str] = &["id", "representative", "size"];

/// Where the groups go by default: the pairs file's name with `.groups` inserted before its
/// format and compression extensions (`pairs.jsonl.zst` → `pairs.groups.jsonl.zst`).
pub fn default_groups_path(pairs: &std::path::Path) -> PathBuf {
    let name = pairs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let known = [
        "csv", "jsonl", "ndjson", "json", "parquet", "gz", "zst", "tsv", "txt",
    ];
    let mut stem = name.as_str();
    let mut suffix = String::new();
    while let Some((head, ext)) = stem.rsplit_once('.') {
        if head.is_empty() || !known.contains(&ext.to_ascii_lowercase().as_str()) {
            break;
        }
        suffix = format!(".{ext}{suffix}");
        stem = head;
    }
    if suffix.is_empty() {
        suffix = ".csv".to_string();
    }
    pairs.with_file_name(format!("{stem}.groups{suffix}"))
}

/// What `--collapse-identical` collapsed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CollapseSummary {
    /// Documents whose shingle set repeats an earlier document's.
    pub identical_copies: usize,
    /// Groups of two or more identical documents.
    pub groups: usize,
    /// The largest group: its size and the id of its representative.
    pub largest_group: Option<(usize, String)>,
    /// Where the groups were written.
    pub groups_file: String,
}

/// A large bucket as the summary reports it, in the terms the text summary uses.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LargestBucket {
    /// The band the bucket is in, numbered from 1 as everywhere a person reads bands (the
    /// text summary, the explorer's band strip).
    pub band: usize,
    /// Documents in the bucket.
    pub size: usize,
    /// The id of its first document in input order.
    pub first_id: String,
}

impl LargestBucket {
    /// `bucket` (whose band is an index from 0 and whose first document is an input
    /// position) with its band numbered from 1 and its first document named by id.
    pub fn new(bucket: &BucketInfo, corpus: &Corpus) -> Self {
        LargestBucket {
            band: bucket.band + 1,
            size: bucket.size,
            first_id: corpus.id(bucket.first_doc as usize).to_string(),
        }
    }
}

/// What a scan did, printed to stderr and optionally written as JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ScanSummary {
    pub input: String,
    pub read: ReadReport,
    pub documents_without_shingles: usize,
    pub shingles: usize,
    /// Shingling, K (`num_perm`) and the seed: what a rerun needs to hash alike.
    #[serde(flatten)]
    pub index: IndexOptions,
    pub bands: usize,
    pub rows: usize,
    /// `--max-bucket`, when given.
    pub max_bucket: Option<usize>,
    pub candidates: usize,
    pub pairs_kept: usize,
    pub threshold: f64,
    /// True when the pairs file is sorted by document (a, b); false when there were more than
    /// [`SORTED_PAIRS_UP_TO`] pairs and they were written band by band as found.
    pub pairs_sorted: bool,
    /// The largest buckets over all bands, largest first (at most 5).
    pub largest_buckets: Vec<LargestBucket>,
    pub capped_buckets: usize,
    pub pairs_dropped_by_cap: u64,
    pub phases: Vec<PhaseTiming>,
    /// The comparison with `--truth`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truth: Option<TruthComparison>,
    /// With `--collapse-identical`: what was collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collapsed: Option<CollapseSummary>,
}

pub fn run(args: ScanArgs) -> Result<i32> {
    crate::error::check_unit("--threshold", args.threshold)?;
    let banding = args.banding.banding(args.index.num_perm)?;
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
    let groups_target = if args.collapse_identical {
        let target = match (&args.groups, &target.path) {
            (Some(path), _) => OutputTarget::new(Some(path)),
            (None, Some(pairs)) => OutputTarget::new(Some(&default_groups_path(pairs))),
            (None, None) => {
                return Err(Error::usage(
                    "--collapse-identical writes the groups to a file next to the pairs file, \
                     but pairs go to stdout: give --groups FILE (or -o FILE)",
                ));
            }
        };
        if target.path.is_none() {
            let others_on_stdout = args
                .output
                .as_deref()
                .is_none_or(|p| p == std::path::Path::new("-"))
                || summary_target.as_ref().is_some_and(|t| t.path.is_none());
            if others_on_stdout {
                return Err(Error::usage(
                    "the groups and the pairs (or --summary-json) cannot both go to stdout: \
                     give one of them a file name",
                ));
            }
        }
        target.format(None, PAIR_FORMATS)?;
        Some(target)
    } else {
        None
    };
    if args.truth.as_deref() == Some(std::path::Path::new("-"))
        && args.corpus.input == std::path::Path::new("-")
    {
        return Err(Error::usage(
            "the corpus and --truth cannot both be read from stdin: give one of them a file",
        ));
    }
    check_outputs(&[
        ("--output", Some(&target)),
        ("--summary-json", summary_target.as_ref()),
        ("--groups", groups_target.as_ref()),
    ])?;
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
        max_bucket: args.banding.max_bucket,
    };
    let identical = match &groups_target {
        Some(_) => Some(run.identical_groups(&index)?),
        None => None,
    };
    let outcome = match &truth {
        // The truth comparison needs every candidate, kept or not: the listing holds them.
        Some((path, truth)) => {
            let (candidates, pairs) = match &identical {
                Some(groups) => {
                    run.band_and_verify_representatives(&index, groups, &options, args.threshold)?
                }
                None => run.band_and_verify(&index, &options, args.threshold)?,
            };
            super::write_output(&target, &mut run, pairs.len(), |w| {
                write_pairs(w, &corpus, pairs.iter(), format, Some(&progress), None)
            })?;
            let comparison = run.timed(Phase::TruthComparison, "pairs", |progress| {
                let comparison = compare_truth(
                    path,
                    truth,
                    &index,
                    &candidates.pairs,
                    &pairs,
                    banding,
                    args.threshold,
                    TRUTH_BINS,
                    args.truth_redraws,
                    progress,
                )?;
                Ok((comparison, truth.len() as u64))
            })?;
            BandingOutcome {
                candidates: candidates.pairs.len() as u64,
                kept: pairs.len() as u64,
                largest_buckets: candidates.largest_buckets,
                capped_buckets: candidates.capped_bucket_count,
                pairs_dropped_by_cap: candidates.pairs_dropped_by_cap,
                sorted: true,
                truth: Some(comparison),
            }
        }
        None => stream_pairs(
            &mut run,
            &index,
            &corpus,
            &options,
            identical.as_ref(),
            (args.threshold, args.sort_limit),
            &target,
            format,
        )?,
    };
    let mut written = Vec::new();
    record_written(&mut written, &target);
    let collapsed = match (&identical, &groups_target) {
        (Some(groups), Some(groups_target)) => {
            let groups_format = groups_target.format(None, PAIR_FORMATS)?;
            groups_target
                .write(None, |w| write_groups(w, &corpus, groups, groups_format))
                .map_err(|e| note_written(e, &written))?;
            record_written(&mut written, groups_target);
            let largest = groups
                .groups()
                .max_by_key(|g| (g.len(), std::cmp::Reverse(g[0])))
                .map(|g| (g.len(), corpus.id(g[0] as usize).to_string()));
            Some(CollapseSummary {
                identical_copies: groups.copies(),
                groups: groups.groups().len(),
                largest_group: largest,
                groups_file: groups_target.display(),
            })
        }
        _ => None,
    };
    progress.finish();
    drop(_bar);

    let summary = ScanSummary {
        input: args.corpus.input.display().to_string(),
        documents_without_shingles: index.shingleless_docs(),
        shingles: index.sets.total(),
        index: index.options.clone(),
        bands: banding.bands,
        rows: banding.rows,
        max_bucket: args.banding.max_bucket,
        candidates: outcome.candidates as usize,
        pairs_kept: outcome.kept as usize,
        threshold: args.threshold,
        pairs_sorted: outcome.sorted,
        largest_buckets: outcome
            .largest_buckets
            .iter()
            .take(5)
            .map(|b| LargestBucket::new(b, &corpus))
            .collect(),
        capped_buckets: outcome.capped_buckets,
        pairs_dropped_by_cap: outcome.pairs_dropped_by_cap,
        phases: run.into_phases(),
        read,
        truth: outcome.truth,
        collapsed,
    };
    if !args.quiet {
        eprint!("{}", render_summary(&summary));
    }
    if let Some(target) = &summary_target {
        write_summary_json(target, &summary).map_err(|e| note_written(e, &written))?;
    }
    Ok(0)
}

/// Writes a command's summary as pretty JSON, one object and a newline.
pub(super) fn write_summary_json(
    target: &OutputTarget,
    summary: &impl serde::Serialize,
) -> Result<()> {
    target.write(None, |w| {
        serde_json::to_writer_pretty(&mut *w, summary)?;
        writeln!(w)
    })
}

/// Checks, before any work, that every output given as a file (by the option named beside
/// it) can be written there ([`check_writable`]); stdout needs no check.
pub(super) fn check_outputs(outputs: &[(&str, Option<&OutputTarget>)]) -> Result<()> {
    for (option, output) in outputs {
        if let Some(path) = output.and_then(|t| t.path.as_deref()) {
            check_writable(path, option)?;
        }
    }
    Ok(())
}

/// The name to list in [`note_written`] once `target` is written: files only, since what
/// went to stdout is already with its reader either way.
pub(super) fn record_written(written: &mut Vec<String>, target: &OutputTarget) {
    if target.path.is_some() {
        written.push(target.display());
    }
}

/// What the banding and verification of a scan found.
struct BandingOutcome {
    candidates: u64,
    kept: u64,
    largest_buckets: Vec<BucketInfo>,
    capped_buckets: usize,
    pairs_dropped_by_cap: u64,
    sorted: bool,
    truth: Option<TruthComparison>,
}

/// Bands (among the representatives of `identical`, when collapsing), verifies and writes the
/// pairs at or above `threshold` to `target` as they are found: memory follows documents and
/// bands, not pairs ([`Pipeline::stream_verified`]).
#[allow(clippy::too_many_arguments)]
fn stream_pairs(
    run: &mut Pipeline,
    index: &Index,
    corpus: &Corpus,
    options: &BandingOptions,
    identical: Option<&IdenticalGroups>,
    (threshold, sort_limit): (f64, usize),
    target: &OutputTarget,
    format: OutputFormat,
) -> Result<BandingOutcome> {
    let included: Option<Vec<bool>> = identical.map(|groups| {
        (0..index.len() as u32)
            .map(|d| groups.is_representative(d))
            .collect()
    });
    let lists = run.bucket_lists(index, options, included.as_deref())?;
    // Pairs of copies are verified for free once their groups are known (representatives
    // alone have no copies among them).
    let copies = match identical {
        Some(_) => None,
        None => Some(run.identical_groups(index)?),
    };
    let progress = run.progress();
    let mut streamed = None;
    target.write(Some(progress), |w| {
        let mut writer = PairWriter::new(w, corpus, format, None)?;
        let result = run.stream_verified(
            index,
            &lists,
            copies.as_ref(),
            threshold,
            sort_limit,
            |batch| {
                writer
                    .write_batch(batch)
                    .map_err(|e| Error::io(target.display(), e))
            },
        );
        let counts = match result {
            Ok(counts) => counts,
            Err(Error::Io { source, .. }) => return Err(source),
            Err(other) => return Err(std::io::Error::other(other)),
        };
        writer.finish()?;
        streamed = Some(counts);
        Ok(())
    })?;
    let (counts, sorted) = streamed.expect("the pairs were written");
    Ok(BandingOutcome {
        candidates: counts.candidates,
        kept: counts.kept,
        largest_buckets: lists.largest_buckets.clone(),
        capped_buckets: lists.capped_bucket_count,
        pairs_dropped_by_cap: lists.pairs_dropped_by_cap,
        sorted,
        truth: None,
    })
}

/// One row per document in a group of two or more identical documents, in input order: its
/// id, the id of its group's representative (first member) and the group's size.
pub fn write_groups(
    w: &mut dyn std::io::Write,
    corpus: &Corpus,
    groups: &IdenticalGroups,
    format: OutputFormat,
) -> std::io::Result<()> {
    let rows = (0..corpus.len() as u32).filter_map(|d| {
        let size = groups.multiplicity(d);
        (size >= 2).then(|| (d, groups.representative(d), size))
    });
    if format == OutputFormat::Parquet {
        let ids = IdColumn::new((0..corpus.len()).map(|i| corpus.id(i)));
        let mut out = MembersParquetWriter::groups(w)?;
        for (d, rep, size) in rows {
            out.write_member(&ids, d, rep, size)?;
        }
        return out.finish().map(|_| ());
    }
    let mut out = RowWriter::new(w, format, GROUP_COLUMNS, None)?;
    for (d, rep, size) in rows {
        out.write_row(&[
            Field::Str(corpus.id(d as usize)),
            Field::Str(corpus.id(rep as usize)),
            Field::U64(size as u64),
        ])?;
    }
    out.finish()
}

/// Similarity bins of the `--truth` table: 0.05 wide.
const TRUTH_BINS: usize = 20;

/// The formats `scan -o` can write.
const PAIR_FORMATS: &[OutputFormat] = &[
    OutputFormat::Csv,
    OutputFormat::Jsonl,
    OutputFormat::Parquet,
];

fn render_summary(s: &ScanSummary) -> String {
    use std::fmt::Write as _;
    let mut out = render_read_line(&s.read, &s.input, s.documents_without_shingles);
    let _ = writeln!(
        out,
        "{} {}, K = {}{}, {} ({} of {} hashes used)",
        thousands(s.shingles as u64),
        for_count(s.shingles as u64, "shingle", "shingles"),
        s.index.num_perm,
        super::family_note(s.index.family),
        bands_by_rows(s.bands, s.rows),
        s.bands * s.rows,
        s.index.num_perm
    );
    let _ = writeln!(
        out,
        "{} candidate {}, {} kept at Jaccard ≥ {}",
        thousands(s.candidates as u64),
        for_count(s.candidates as u64, "pair", "pairs"),
        thousands(s.pairs_kept as u64),
        s.threshold
    );
    if !s.pairs_sorted {
        let _ = writeln!(
            out,
            "pairs written as found, band by band (more than --sort-limit to sort in memory)"
        );
    }
    if let Some(b) = s.largest_buckets.first() {
        let _ = writeln!(
            out,
            "largest bucket: {} documents in band {} (first: {})",
            thousands(b.size as u64),
            b.band,
            id_for_message(&b.first_id)
        );
    }
    if let Some(c) = &s.collapsed {
        let _ = writeln!(
            out,
            "collapsed {} identical {} into {} {}{}; pairs are between representatives, \
             groups written to {}",
            thousands(c.identical_copies as u64),
            for_count(c.identical_copies as u64, "copy", "copies"),
            thousands(c.groups as u64),
            for_count(c.groups as u64, "group", "groups"),
            c.largest_group
                .as_ref()
                .map(|(size, id)| format!(
                    " (largest: {} documents, first {})",
                    thousands(*size as u64),
                    id_for_message(id)
                ))
                .unwrap_or_default(),
            c.groups_file
        );
    }
    out.push_str(&render_cap(s.capped_buckets, s.pairs_dropped_by_cap));
    out.push_str(&render_phases(&s.phases));
    if let Some(t) = &s.truth {
        out.push_str(&render_truth(t));
    }
    out
}

/// What `--max-bucket` left out, one line (shared by `scan` and `dedup`); nothing when no
/// bucket was capped.
pub(super) fn render_cap(capped_buckets: usize, pairs_dropped: u64) -> String {
    if capped_buckets == 0 {
        return String::new();
    }
    format!(
        "--max-bucket capped {} {}; {} bucket {} not emitted\n",
        thousands(capped_buckets as u64),
        for_count(capped_buckets as u64, "bucket", "buckets"),
        thousands(pairs_dropped),
        for_count(pairs_dropped, "pair", "pairs")
    )
}

/// The first summary line: what was read (shared by the corpus commands).
pub(super) fn render_read_line(r: &ReadReport, input: &str, without_shingles: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let sampled = if r.rows_read > r.documents {
        format!(" (sampled from {})", thousands(r.rows_read as u64))
    } else {
        String::new()
    };
    let compression = r.compression.map(|c| format!(", {c}")).unwrap_or_default();
    let _ = writeln!(
        out,
        "read {} {}{sampled} from {input}{compression} ({} skipped, {} empty, {} without shingles, {} with invalid UTF-8)",
        thousands(r.documents as u64),
        for_count(r.documents as u64, "document", "documents"),
        thousands(r.skipped as u64),
        thousands(r.empty as u64),
        thousands(without_shingles as u64),
        thousands(r.lossy_utf8 as u64)
    );
    let l = &r.lines;
    if l.physical > 0 {
        // Why lines and documents differ, so no document goes missing without a word.
        let mut reasons = Vec::new();
        let plural =
            |n: u64, one: &str, many: &str| format!("{} {}", thousands(n), for_count(n, one, many));
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
    // Rows skipped have line numbers; files skipped in a directory are listed below instead.
    if !r.skipped_lines.is_empty() {
        let _ = writeln!(
            out,
            "  skipped rows at lines {}",
            first_of(&r.skipped_lines, r.skipped)
        );
    }
    if !r.skipped_files.is_empty() {
        // Only a directory skips files, and then every skip is a file: more than are listed
        // means the list was cut.
        let _ = writeln!(
            out,
            "  unreadable files skipped: {}",
            first_of(&r.skipped_files, r.skipped)
        );
    }
    out
}

/// The first few of `total` things, comma-separated, and `, …` when the list was cut.
fn first_of<T: std::fmt::Display>(listed: &[T], total: usize) -> String {
    let mut text = listed
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if total > listed.len() {
        text.push_str(", …");
    }
    text
}

/// `N documents repeat an earlier id (first: a, b); pairs name documents by id, …`, for
/// the warning and the summary.
pub(super) fn duplicate_ids_message(r: &ReadReport) -> String {
    format!(
        "{}; pairs name documents by id, so make ids unique or choose another \
         --id-column/--id-field",
        repeated_ids(r)
    )
}

/// `N documents repeat an earlier id (first: a, "")`: how many, and the first few ids.
pub(super) fn repeated_ids(r: &ReadReport) -> String {
    let examples: Vec<_> = r
        .duplicate_id_examples
        .iter()
        .map(|id| id_for_message(id))
        .collect();
    format!(
        "{} {} an earlier id (first: {})",
        thousands(r.duplicate_ids as u64),
        for_count(
            r.duplicate_ids as u64,
            "document repeats",
            "documents repeat"
        ),
        first_of(&examples, r.duplicate_ids)
    )
}

/// An id as a message shows it: as it is when that reads unambiguously, else quoted with
/// escapes, so that an empty id reads `""` and a list of ids with commas, quotes, spaces at
/// their ends or line breaks can still be told apart.
pub(super) fn id_for_message(id: &str) -> std::borrow::Cow<'_, str> {
    let plain = !id.is_empty()
        && id.trim() == id
        && !id.contains([',', '"'])
        && !id.chars().any(char::is_control);
    if plain {
        id.into()
    } else {
        format!("{id:?}").into()
    }
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

/// The `--truth` table: per bin the measured candidate rate with its 95 % interval (over
/// redraws of the hash family, or binomial with `--truth-redraws 0`) next to the S-curve's
/// prediction, then recall and precision at the threshold.
fn render_truth(t: &TruthComparison) -> String {
    use std::fmt::Write as _;
    let r = &t.report;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "truth: {} ({} {}), {}",
        t.file,
        t.pairs,
        for_count(t.pairs as u64, "pair", "pairs"),
        bands_by_rows(r.bands, r.rows)
    );
    let _ = writeln!(
        out,
        "  {:<14} {:>8} {:>8} {:>9} {:>17} {:>9} {:>8}",
        "Jaccard", "true", "found", "measured", "95 % interval", "S-curve", "moves as"
    );
    for b in &r.bins {
        let last = b.hi >= 1.0;
        let _ = writeln!(
            out,
            "  [{:.2}, {:.2}{}   {:>8} {:>8} {:>9.3}   [{:.3}, {:.3}] {:>9.3} {:>8}{}",
            b.lo,
            b.hi,
            if last { "]" } else { ")" },
            b.true_pairs,
            b.found,
            b.measured,
            b.interval_lo,
            b.interval_hi,
            b.predicted,
            moves_as(b.design_effect),
            if b.outside { "  ← outside" } else { "" }
        );
    }
    match (r.recall, r.predicted_recall) {
        (Some(recall), Some(predicted)) => {
            let _ = writeln!(
                out,
                "recall at Jaccard ≥ {}: {:.4}{} ({} of {} true {} {}; the S-curve predicts {:.4})",
                r.threshold,
                recall,
                r.recall_interval
                    .map(|(lo, hi)| format!(", 95 % interval [{lo:.4}, {hi:.4}]"))
                    .unwrap_or_default(),
                r.found_at_threshold,
                r.true_at_threshold,
                for_count(r.true_at_threshold as u64, "pair", "pairs"),
                for_count(
                    r.found_at_threshold as u64,
                    "is a candidate",
                    "are candidates"
                ),
                predicted
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
                "precision at Jaccard ≥ {}: {:.4} ({} of {} {})",
                r.threshold,
                p,
                r.candidates_at_threshold,
                r.candidates,
                for_count(r.candidates as u64, "candidate", "candidates")
            );
        }
        None => {
            let _ = writeln!(out, "precision: no candidates");
        }
    }
    let _ = writeln!(
        out,
        "{} of {} bins outside the 95 % interval ({})",
        r.flagged_bins,
        r.bins.len(),
        interval_basis(r.redraws)
    );
    if t.jaccard_mismatches > 0 {
        let _ = writeln!(
            out,
            "warning: {} {} a different Jaccard under this scan's shingle options (was the truth made with other --shingle/--no-lowercase/--nfkc/--strip-punct/--profile?)",
            t.jaccard_mismatches,
            for_count(
                t.jaccard_mismatches as u64,
                "truth pair has",
                "truth pairs have"
            )
        );
    }
    out
}

/// The "moves as" column: how many pairs of the bin succeed or fail as one (the design
/// effect), blank below 2, where 16 redraws cannot tell it from independent pairs (the
/// variance estimate's own 95 % range reaches about 1.6 × the truth).
fn moves_as(design_effect: f64) -> String {
    if design_effect < 2.0 {
        String::new()
    } else {
        format!("{design_effect:.1}")
    }
}

/// What the intervals assume, in the words the table's footer uses.
fn interval_basis(redraws: usize) -> String {
    if redraws == 0 {
        "binomial intervals: they assume independent pairs, and pairs that share documents \
         move together, so expect more flagged bins than 1 in 20 (drop --truth-redraws 0)"
            .to_string()
    } else {
        format!(
            "intervals from the spread over {redraws} redraws of the hash family, which holds \
             when pairs share documents; about 1 in 20 by chance; \"moves as\": pairs that \
             succeed or fail together"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_messages_read_unambiguously() {
        assert_eq!(id_for_message("doc-7"), "doc-7");
        assert_eq!(id_for_message(""), "\"\"");
        assert_eq!(id_for_message("a, b"), "\"a, b\"");
        assert_eq!(id_for_message(" x"), "\" x\"");
        assert_eq!(id_for_message("two\nlines"), "\"two\\nlines\"");
        let read = ReadReport {
            duplicate_ids: 1_234,
            duplicate_id_examples: vec!["a".into(), String::new()],
            ..ReadReport::default()
        };
        assert_eq!(
            repeated_ids(&read),
            "1,234 documents repeat an earlier id (first: a, \"\", …)"
        );
    }

    #[test]
    fn the_cap_line_appears_only_when_a_bucket_was_capped() {
        assert_eq!(render_cap(0, 0), "");
        assert_eq!(
            render_cap(518, 175_074_714),
            "--max-bucket capped 518 buckets; 175,074,714 bucket pairs not emitted\n"
        );
        assert_eq!(
            render_cap(1, 1),
            "--max-bucket capped 1 bucket; 1 bucket pair not emitted\n"
        );
    }
}
