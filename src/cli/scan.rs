//! `lshscope scan`: corpus → signatures → bands → verified pairs.

use std::path::{Path, PathBuf};

use clap::Args;

mod groups;

use super::lsh_args::{BandingArgs, KeepThresholdArgs};
use super::outputs::{Written, check_outputs};
use super::summary::{id_for_message, render_cap, render_phases, render_read_line};
use super::{CorpusArgs, IndexArgs, ProgressBar, show_progress};
use groups::{CollapseSummary, default_groups_path, write_groups};
use lshscope_core::analysis::recall::{
    BandingAnswers, TruthComparison, compare_truth, comparison_threshold, read_truth,
};
use lshscope_core::analysis::truth::TruthPair;
use lshscope_core::corpus::{Corpus, ReadReport};
use lshscope_core::io::atomic::WriteError;
use lshscope_core::jobs::Phase;
use lshscope_core::minhash::{
    BandingOptions, BucketInfo, BucketLists, IdenticalGroups, Index, IndexOptions, VerifiedPair,
};
use lshscope_core::pairs::{OutputFormat, OutputTarget, PairWriter};
use lshscope_core::pipeline::{Loaded, PairOrder, PhaseTiming, Pipeline, SORTED_PAIRS_UP_TO};
use lshscope_core::util::numfmt::{bands_by_rows, decimal_cut, for_count, thousands};
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub banding: BandingArgs,
    #[command(flatten)]
    pub threshold: KeepThresholdArgs,
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
    #[arg(long, value_name = "N", default_value_t = lshscope_core::analysis::redraws::DEFAULT_REDRAWS, requires = "truth")]
    pub truth_redraws: usize,
    /// With --truth: also measure this sketch family on the truth pairs, over as many redraws,
    /// and show each family's rate per bin (the mean over the draws) beside the formula.
    #[arg(long, value_name = "FAMILY", requires = "truth", value_parser = super::family_parser())]
    pub compare_family: Option<lshscope_core::minhash::SketchFamily>,
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
    /// Sort at most N pairs at a time in memory (20 bytes a pair); more are
    /// sorted in runs of N, written to temporary files beside the output (in TMPDIR for stdout,
    /// 20 bytes a pair, gone when the scan ends) and merged with the last run, so the output is
    /// sorted by document at any size.
    #[arg(long, value_name = "N", default_value_t = SORTED_PAIRS_UP_TO, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub sort_limit: usize,
    /// Write the pairs as they are found (band by band, each pair once) instead of sorted by
    /// document: no sorting and no temporary files, memory follows the documents and bands.
    #[arg(long)]
    pub unsorted: bool,
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
    /// True when the pairs file is sorted by document (a, b); false with `--unsorted`, when
    /// they were written band by band as found.
    pub pairs_sorted: bool,
    /// Sorted runs that went through temporary files (0: the pairs were sorted in memory).
    pub sort_runs_on_disk: usize,
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

/// Where a scan's outputs go, in which formats: planned and checked by [`ScanOutputs::plan`]
/// before any work, so that a bad name fails in a moment, not after the long phases.
struct ScanOutputs {
    pairs: OutputTarget,
    pairs_format: OutputFormat,
    summary: Option<OutputTarget>,
    /// With `--collapse-identical`: the groups file and its format.
    groups: Option<(OutputTarget, OutputFormat)>,
}

impl ScanOutputs {
    /// The outputs `args` ask for: at most one of them on stdout, the groups next to the
    /// pairs unless `--groups` names them, every file writable.
    fn plan(args: &ScanArgs) -> Result<Self> {
        let pairs = OutputTarget::new(args.output.as_deref());
        let pairs_format = pairs.format(args.output_format, PAIR_FORMATS)?;
        let summary = args
            .summary_json
            .as_deref()
            .map(|p| OutputTarget::new(Some(p)));
        let summary_on_stdout = summary.as_ref().is_some_and(|t| t.path.is_none());
        if pairs.path.is_none() && summary_on_stdout {
            return Err(Error::usage(
                "pairs and --summary-json cannot both go to stdout: give one of them a file name",
            ));
        }
        let groups = match args.collapse_identical {
            true => {
                let groups = Self::groups_target(args.groups.as_deref(), &pairs)?;
                if groups.path.is_none() && (pairs.path.is_none() || summary_on_stdout) {
                    return Err(Error::usage(
                        "the groups and the pairs (or --summary-json) cannot both go to stdout: \
                         give one of them a file name",
                    ));
                }
                let format = groups.format(None, PAIR_FORMATS)?;
                Some((groups, format))
            }
            false => None,
        };
        check_outputs(&[
            ("--output", Some(&pairs)),
            ("--summary-json", summary.as_ref()),
            ("--groups", groups.as_ref().map(|(target, _)| target)),
        ])?;
        Ok(ScanOutputs {
            pairs,
            pairs_format,
            summary,
            groups,
        })
    }

    /// Where `--collapse-identical` writes the groups: `--groups`, else next to the pairs
    /// file ([`default_groups_path`]).
    fn groups_target(groups: Option<&Path>, pairs: &OutputTarget) -> Result<OutputTarget> {
        match (groups, &pairs.path) {
            (Some(path), _) => Ok(OutputTarget::new(Some(path))),
            // A device or a pipe (`-o /dev/null`) has no directory to put a file beside it:
            // `/dev/null.groups.csv` would be a real file in /dev.
            (None, Some(pairs)) if is_special_file(pairs) => Err(Error::usage(format!(
                "--collapse-identical writes the groups to a file next to the pairs file, but \
                 {} is not a regular file: give --groups FILE",
                pairs.display()
            ))),
            (None, Some(pairs)) => Ok(OutputTarget::new(Some(&default_groups_path(pairs)))),
            (None, None) => Err(Error::usage(
                "--collapse-identical writes the groups to a file next to the pairs file, \
                 but pairs go to stdout: give --groups FILE (or -o FILE)",
            )),
        }
    }
}

/// An existing path that is not a regular file or a directory (a device, a pipe, a socket).
fn is_special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// True when `target` is the null device (`-o /dev/null`, under any name that leads to it):
/// whatever is written there is thrown away.
fn is_null_device(target: &OutputTarget) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let Some(path) = target.path.as_deref() else {
            return false;
        };
        match (std::fs::metadata(path), std::fs::metadata("/dev/null")) {
            (Ok(m), Ok(null)) => m.file_type().is_char_device() && m.rdev() == null.rdev(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = target;
        false
    }
}

pub fn run(args: ScanArgs) -> Result<i32> {
    let threshold = args.threshold.checked()?;
    let banding = args.banding.banding(args.index.num_perm)?;
    if args.truth.as_deref() == Some(Path::new("-")) && args.corpus.input == Path::new("-") {
        return Err(Error::usage(
            "the corpus and --truth cannot both be read from stdin: give one of them a file",
        ));
    }
    let outputs = ScanOutputs::plan(&args)?;
    let (target, format) = (&outputs.pairs, outputs.pairs_format);
    let progress = super::new_progress();
    let _bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    let Loaded {
        corpus,
        read,
        index,
    } = super::load_corpus(&mut run, &args.corpus, &args.index, args.quiet, true)?;
    // Before banding, which is what a too-similar corpus makes explode.
    if !args.quiet
        && let Some(warning) =
            lshscope_core::analysis::shingle_advice::candidate_share_warning(&index, banding)
    {
        super::warn(args.quiet, &warning);
    }
    // Read the truth before the long phases, so a bad file fails fast.
    let truth = match &args.truth {
        Some(path) => Some((
            path,
            read_truth(path, &corpus).map_err(|e| super::about_file(Some("--truth"), path, e))?,
        )),
        None => None,
    };

    let identical = match &outputs.groups {
        Some(_) => Some(run.identical_groups(&index)?),
        None => None,
    };
    let job = PairsJob {
        index: &index,
        corpus: &corpus,
        options: BandingOptions {
            banding,
            max_bucket: args.banding.max_bucket,
        },
        identical: identical.as_ref(),
        threshold,
        target,
        format,
    };
    // Pairs thrown away (`-o /dev/null`, as with only `--summary-json` wanted) have no order
    // to keep: sorting them would only cost time and disk.
    let order = if args.unsorted || is_null_device(target) {
        PairOrder::AsFound
    } else {
        PairOrder::Sorted {
            run_pairs: args.sort_limit,
            dir: runs_dir(target),
        }
    };
    let streamed = match &truth {
        Some((path, truth)) => job.against_truth(
            &mut run,
            (path, truth),
            &order,
            (args.truth_redraws, args.compare_family),
        )?,
        None => job.stream(&mut run, &order)?,
    };
    // The summary says what a pairs file would hold (the null device holds nothing), so it
    // reads the same whether the pairs were kept or thrown away.
    let outcome = BandingOutcome {
        sorted: !args.unsorted,
        ..streamed
    };
    let mut written = Written::default();
    written.record(target);
    let collapsed = match (&identical, &outputs.groups) {
        (Some(groups), Some((groups_target, groups_format))) => {
            written.write(groups_target, None, |w| {
                write_groups(w, &corpus, groups, *groups_format)
            })?;
            Some(CollapseSummary::new(groups, &corpus, groups_target))
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
        threshold,
        pairs_sorted: outcome.sorted,
        sort_runs_on_disk: outcome.runs_on_disk,
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
    if let Some(target) = &outputs.summary {
        written.write_summary_json(target, &summary)?;
    }
    Ok(0)
}

/// Where sorted runs of pairs go: beside an output file (whose disk must take the pairs
/// anyway), else (stdout, `/dev/null`, a pipe) the system's temporary directory.
fn runs_dir(target: &OutputTarget) -> Option<PathBuf> {
    let path = target.path.as_deref()?;
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return None;
    }
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => Some(d.to_path_buf()),
        _ => Some(PathBuf::from(".")),
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
    runs_on_disk: usize,
    truth: Option<TruthComparison>,
}

/// What banding, verifying and writing a scan's pairs work on.
struct PairsJob<'a> {
    index: &'a Index,
    corpus: &'a Corpus,
    options: BandingOptions,
    /// With `--collapse-identical`: the groups whose representatives alone are banded.
    identical: Option<&'a IdenticalGroups>,
    /// Pairs below this exact Jaccard are verified but not written.
    threshold: f64,
    target: &'a OutputTarget,
    format: OutputFormat,
}

impl PairsJob<'_> {
    /// Bands, verifies and writes the pairs at or above the threshold as they are found:
    /// memory follows documents and bands, not pairs ([`Pipeline::stream_verified`]); sorted
    /// in the `order` asked for.
    fn stream(&self, run: &mut Pipeline, order: &PairOrder) -> Result<BandingOutcome> {
        Ok(self.stream_observed(run, order, |_| {})?.0)
    }

    /// [`PairsJob::stream`], showing each batch of verified pairs to `observe` as well, and
    /// returning the bucket lists the candidates came from.
    fn stream_observed(
        &self,
        run: &mut Pipeline,
        order: &PairOrder,
        mut observe: impl FnMut(&[VerifiedPair]),
    ) -> Result<(BandingOutcome, BucketLists)> {
        let index = self.index;
        let included: Option<Vec<bool>> = self.identical.map(|groups| {
            (0..index.len() as u32)
                .map(|d| groups.is_representative(d))
                .collect()
        });
        let lists = run.bucket_lists(index, &self.options, included.as_deref())?;
        // Pairs of copies are verified for free once their groups are known (representatives
        // alone have no copies among them).
        let copies = match self.identical {
            Some(_) => None,
            None => Some(run.identical_groups(index)?),
        };
        let progress = run.progress();
        let mut streamed = None;
        let target = self.target;
        // Pairs thrown away (`-o /dev/null`) are verified and counted but not formatted: the
        // CSV of 100 M pairs is seconds of work for nothing.
        let discard = is_null_device(target);
        target.write(Some(progress), |w| -> std::result::Result<(), WriteError> {
            let mut writer = if discard {
                None
            } else {
                Some(PairWriter::new(w, self.corpus, self.format, None)?)
            };
            let counts = run.stream_verified(
                index,
                &lists,
                copies.as_ref(),
                self.threshold,
                order,
                |batch| {
                    observe(batch);
                    match writer.as_mut() {
                        Some(writer) => writer
                            .write_batch(batch)
                            .map_err(|e| Error::io(target.display(), e)),
                        None => Ok(()),
                    }
                },
            )?;
            if let Some(writer) = writer {
                writer.finish()?;
            }
            streamed = Some(counts);
            Ok(())
        })?;
        let (counts, runs_on_disk) = streamed.expect("the pairs were written");
        let outcome = BandingOutcome {
            candidates: counts.candidates,
            kept: counts.kept,
            largest_buckets: lists.largest_buckets.clone(),
            capped_buckets: lists.capped_bucket_count,
            pairs_dropped_by_cap: lists.pairs_dropped_by_cap,
            sorted: *order != PairOrder::AsFound,
            runs_on_disk,
            truth: None,
        };
        Ok((outcome, lists))
    }

    /// Bands, verifies and writes the pairs at or above the threshold as [`PairsJob::stream`]
    /// does, then compares the candidates with the truth read from `path`, redrawing the hash
    /// family `redraws` times. Which truth pairs are candidates the bucket lists answer (two
    /// documents sharing a listed bucket), and the pairs at the comparison's threshold are
    /// counted as they stream past, so no list of candidates is built: with a truth file the
    /// scan costs what it costs without one, plus the comparison.
    fn against_truth(
        &self,
        run: &mut Pipeline,
        (path, truth): (&Path, &[TruthPair]),
        order: &PairOrder,
        (redraws, compare_family): (usize, Option<lshscope_core::minhash::SketchFamily>),
    ) -> Result<BandingOutcome> {
        let at = comparison_threshold(self.threshold, truth);
        let mut at_threshold = 0usize;
        let (mut outcome, lists) = self.stream_observed(run, order, |batch| {
            at_threshold += batch.iter().filter(|p| p.jaccard >= at).count();
        })?;
        let is_candidate = |a: u32, b: u32| lists.bands_hit(a, b) > 0;
        let answers = BandingAnswers {
            is_candidate: &is_candidate,
            candidates: outcome.candidates as usize,
            at_threshold,
        };
        let comparison = run.timed(Phase::TruthComparison, "pairs", |progress| {
            let comparison = compare_truth(
                path,
                truth,
                self.index,
                &answers,
                self.options.banding,
                self.threshold,
                TRUTH_BINS,
                redraws,
                compare_family,
                progress,
            )?;
            Ok((comparison, truth.len() as u64))
        })?;
        outcome.truth = Some(comparison);
        Ok(outcome)
    }
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
        let _ = writeln!(out, "pairs written as found, band by band (--unsorted)");
    } else if s.sort_runs_on_disk > 0 {
        let _ = writeln!(
            out,
            "pairs sorted in {} runs on disk (more than --sort-limit to sort in memory at once)",
            thousands(s.sort_runs_on_disk as u64)
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
        thousands(t.pairs as u64),
        for_count(t.pairs as u64, "pair", "pairs"),
        bands_by_rows(r.bands, r.rows)
    );
    let _ = writeln!(
        out,
        "  {:<14} {:>10} {:>10} {:>9} {:>17} {:>9} {:>8}",
        "Jaccard", "true", "found", "measured", "95 % interval", "S-curve", "moves as"
    );
    for b in &r.bins {
        let _ = writeln!(
            out,
            "  {}   {:>10} {:>10} {:>9.3}   [{:.3}, {:.3}] {:>9.3} {:>8}{}",
            super::summary::bin_label(b.lo, b.hi),
            thousands(b.true_pairs as u64),
            thousands(b.found as u64),
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
                decimal_cut(r.threshold, 4),
                recall,
                r.recall_interval
                    .map(|(lo, hi)| format!(", 95 % interval [{lo:.4}, {hi:.4}]"))
                    .unwrap_or_default(),
                thousands(r.found_at_threshold as u64),
                thousands(r.true_at_threshold as u64),
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
            let _ = writeln!(
                out,
                "recall at Jaccard ≥ {}: no true pairs",
                decimal_cut(r.threshold, 4)
            );
        }
    }
    match r.precision {
        Some(p) => {
            let _ = writeln!(
                out,
                "precision at Jaccard ≥ {}: {:.4} ({} of {} {})",
                r.threshold,
                p,
                thousands(r.candidates_at_threshold as u64),
                thousands(r.candidates as u64),
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
    if t.families.len() > 1 {
        out.push_str(&super::summary::render_families(&t.families));
    }
    if t.jaccard_mismatches > 0 {
        let _ = writeln!(
            out,
            "warning: {} {} a different Jaccard under this scan's shingle options (was the truth made with other --shingle/--no-lowercase/--nfkc/--strip-punct/--profile?)",
            thousands(t.jaccard_mismatches as u64),
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
