//! `lshscope truth`: the exact similarity join (ground truth), or a sample of pair similarities
//! when the join is out of reach.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::outputs::check_outputs;
use super::summary::{render_phases, render_read_line};
use super::{CorpusArgs, IndexArgs, ProgressBar, show_progress};
use lshscope_core::analysis::blocked::{BlockedJoin, blocked_join, read_blocks};
use lshscope_core::analysis::histogram::bin_of;
use lshscope_core::analysis::stratified::{
    self, DEFAULT_STRATA_THRESHOLD, StrataDesign, StratifiedSample, strata_signatures,
    stratified_pair_sample,
};
use lshscope_core::analysis::truth::{
    DEFAULT_BUDGET_SECONDS, JoinStats, JoinWork, TruthPair, plan_join, sample_pair_similarities,
};
use lshscope_core::corpus::{Corpus, ReadReport};
use lshscope_core::jobs::{Phase, Progress};
use lshscope_core::pairs::{Field, OutputFormat, OutputTarget, RowWriter};
use lshscope_core::pipeline::{Loaded, Pipeline};
use lshscope_core::util::numfmt::{estimated_count, for_count, thousands};
use lshscope_core::util::stats::{Z_95, wilson_interval};
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct TruthArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    /// Find every pair whose exact Jaccard is at least T (0 < T ≤ 1).
    #[arg(
        long,
        short = 't',
        value_name = "T",
        required_unless_present = "estimate_pairs",
        allow_negative_numbers = true
    )]
    pub threshold: Option<f64>,
    /// Write `id_a,id_b,jaccard` to FILE (atomically) instead of stdout; `-` is stdout. The
    /// name picks the format (`.csv`, `.jsonl`/`.ndjson`) and compression (`.gz`, `.zst`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Row format; overrides the output name's extension [default: from the name, else csv].
    #[arg(long, value_name = "FORMAT", value_parser = super::output_format_parser(FORMATS))]
    pub output_format: Option<OutputFormat>,
    /// Run the join even when its estimated time exceeds --max-seconds.
    #[arg(long)]
    pub force: bool,
    /// Time budget: refuse (without --force) when the join's estimated time is longer.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_BUDGET_SECONDS)]
    pub max_seconds: f64,
    /// Instead of the join, sample M pairs (reproducible with --seed) for `tune
    /// --similarities`: half from the candidates of a permissive banding (which hold the
    /// pairs at and above -t, default 0.5), half from the other pairs (with a lower level,
    /// 1/8 from the lower candidates and 3/8 from the others), each row with its stratum and
    /// weight; print their Jaccard distribution.
    #[arg(long, value_name = "M", value_parser = parse_pair_budget)]
    pub estimate_pairs: Option<usize>,
    /// With --estimate-pairs: M distinct pairs uniformly at random instead (`jaccard,weight`
    /// rows, the format before strata).
    #[arg(long, requires = "estimate_pairs")]
    pub uniform: bool,
    /// With --estimate-pairs: a lower strata threshold T2 (below -t), whose permissive
    /// banding's further candidates are sampled as a stratum of their own, which keeps the
    /// expected candidates of sharp bandings narrow; `off` for two strata [default: -t minus
    /// 0.2 when -t is 0.7 or more, else off].
    #[arg(
        long,
        value_name = "T2",
        requires = "estimate_pairs",
        conflicts_with = "uniform",
        value_parser = parse_lower_threshold
    )]
    pub lower_threshold: Option<LowerLevel>,
    /// Count exactly by blocks instead of listing pairs: FILE (CSV, `id,family` as `gen
    /// --families` writes, or `id,block`/`id,cluster`) partitions the documents (one not
    /// named is a block of its own). Every pair inside a block is compared, identical sets
    /// once with their multiplicity, and the join runs across blocks only, so big families of
    /// near-copies cost their pairs' merges and not the join's quadratic posting lists. Writes
    /// `jaccard,pairs`: each distinct Jaccard ≥ T with its exact number of pairs.
    #[arg(
        long,
        value_name = "FILE",
        requires = "threshold",
        conflicts_with = "estimate_pairs"
    )]
    pub blocks: Option<PathBuf>,
    /// No summary and no progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The formats `truth -o` can write.
const FORMATS: &[OutputFormat] = &[OutputFormat::Csv, OutputFormat::Jsonl];

pub fn run(args: TruthArgs) -> Result<i32> {
    if let Some(t) = args.threshold
        && !(t > 0.0 && t <= 1.0)
    {
        return Err(Error::usage(format!(
            "--threshold must be in (0, 1] for the exact join, got {t}"
        )));
    }
    let target = OutputTarget::new(args.output.as_deref());
    let format = target.format(args.output_format, FORMATS)?;
    check_outputs(&[("--output", Some(&target))])?;
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    // The join needs shingle sets only; one permutation keeps the signature pass negligible
    // (the seed still drives --sample, so the sample matches a scan with the same seed).
    // The strata need the permissive banding's b × r rows of the K signatures, computed
    // after loading from the sets, and only those.
    let stratified = args.estimate_pairs.is_some() && !args.uniform;
    let options = args.index.index_options()?;
    let index_args = IndexArgs {
        num_perm: 1,
        ..args.index.clone()
    };
    let Loaded {
        corpus,
        read,
        index,
    } = super::load_corpus(&mut run, &args.corpus, &index_args, args.quiet, true)?;
    let input = args.corpus.input.display().to_string();
    let ending = Ending {
        target: &target,
        progress: &progress,
        bar,
        read: &read,
        input: &input,
        index: &index,
        quiet: args.quiet,
    };

    if let Some(m) = args.estimate_pairs
        && stratified
    {
        let threshold = args.threshold.unwrap_or(DEFAULT_STRATA_THRESHOLD);
        let design = match args.lower_threshold {
            None => StrataDesign::with_default_lower(threshold),
            Some(LowerLevel::Off) => StrataDesign::two_strata(threshold),
            Some(LowerLevel::At(lower)) => StrataDesign {
                threshold,
                lower_threshold: Some(lower),
            },
        };
        // Timed as banding: these rows are the permissive banding's band values (the
        // index's own signature phase above computed one row for the sets).
        let signatures = run.timed(Phase::Banding, "docs", |progress| {
            let signatures = strata_signatures(&index.sets, &options, design, progress)?;
            Ok((signatures, index.len() as u64))
        })?;
        let sample = run.timed(Phase::Verifying, "pairs", |progress| {
            let sample = stratified_pair_sample(
                &index.sets,
                &signatures,
                options.num_perm,
                options.family,
                m,
                design,
                options.seed,
                progress,
            )?;
            let n = sample.sampled() as u64;
            Ok((sample, n))
        })?;
        return ending.finish(
            &mut run,
            sample.sampled(),
            |w| sample.write(w, format, Some(&progress)),
            || render_stratified(&sample, args.threshold),
        );
    }
    if let Some(m) = args.estimate_pairs {
        let sample = run.timed(Phase::Verifying, "pairs", |progress| {
            let sample = sample_pair_similarities(&index.sets, m, args.index.seed, progress)?;
            let n = sample.len() as u64;
            Ok((sample, n))
        })?;
        // Each sampled pair stands for population ÷ sample pairs (Floyd's sample is uniform
        // without replacement), so `tune` can scale expected candidates to the whole corpus.
        let documents = corpus.len() as u64;
        let population = lshscope_core::minhash::pairs_among(documents);
        let weight = if sample.is_empty() {
            1.0
        } else {
            population as f64 / sample.len() as f64
        };
        let rows = sample
            .iter()
            .map(|p| [Field::F64(p.jaccard), Field::F64(weight)]);
        return ending.finish(
            &mut run,
            sample.len(),
            |w| write_two_columns(w, format, &["jaccard", "weight"], rows, Some(&progress)),
            || render_sample(&sample, corpus.len(), args.threshold),
        );
    }

    let threshold = args
        .threshold
        .ok_or_else(|| Error::usage("--threshold is required for the exact join"))?;
    let documents = corpus.len() as u64;
    if let Some(path) = &args.blocks {
        let blocks = read_blocks(path, &corpus)?;
        let budget = (!args.force).then_some(args.max_seconds);
        let counted = run.timed(Phase::Join, "docs", |progress| {
            let counted = blocked_join(&index.sets, &blocks, threshold, budget, progress)?;
            Ok((counted, documents))
        })?;
        let rows = counted
            .distribution
            .iter()
            .map(|&(j, n)| [Field::F64(j), Field::U64(n)]);
        return ending.finish(
            &mut run,
            counted.distribution.len(),
            |w| write_two_columns(w, format, &["jaccard", "pairs"], rows, Some(&progress)),
            || render_blocked(&counted, &path.display().to_string()),
        );
    }
    let (pairs, work, stats) = run.timed(Phase::Join, "docs", |progress| {
        let plan = plan_join(&index.sets, threshold, progress)?;
        if !args.force {
            plan.check_budget(args.max_seconds)?;
        }
        let (pairs, stats) = plan.run(progress)?;
        Ok(((pairs, plan.work, stats), documents))
    })?;
    ending.finish(
        &mut run,
        pairs.len(),
        |w| write_truth(w, &corpus, &pairs, format, Some(&progress)),
        || render_join(&index, threshold, &pairs, &work, &stats),
    )
}

/// The end every truth run shares, whatever its rows: they are written to the output (timed
/// as the writing phase), then, unless --quiet and once the progress bar is gone, stderr gets
/// the read line, the run's own summary and the phase timings.
struct Ending<'a> {
    target: &'a OutputTarget,
    progress: &'a Progress,
    bar: ProgressBar,
    read: &'a ReadReport,
    input: &'a str,
    index: &'a lshscope_core::minhash::Index,
    quiet: bool,
}

impl Ending<'_> {
    /// Writes the `rows` rows with `write`, then (unless --quiet) the read line, the text of
    /// `summary` and the phase timings, and returns the exit code.
    fn finish(
        self,
        run: &mut Pipeline<'_>,
        rows: usize,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
        summary: impl FnOnce() -> String,
    ) -> Result<i32> {
        super::write_output(self.target, run, rows, write)?;
        self.progress.finish();
        drop(self.bar);
        if !self.quiet {
            let mut text = render_read_line(self.read, self.input, self.index.shingleless_docs());
            text.push_str(&summary());
            text.push_str(&render_phases(run.phases()));
            eprint!("{text}");
        }
        Ok(0)
    }
}

/// Writes a table of two columns: `header`, then one row per item of `rows`.
fn write_two_columns<'r>(
    w: &mut dyn Write,
    format: OutputFormat,
    header: &'static [&'static str; 2],
    rows: impl Iterator<Item = [Field<'r>; 2]>,
    progress: Option<&Progress>,
) -> std::io::Result<()> {
    let mut out = RowWriter::new(w, format, header, progress)?;
    for row in rows {
        out.write_row(&row)?;
    }
    out.finish()
}

/// Writes `id_a,id_b,jaccard` rows in scan's conventions: id_a is the earlier input position,
/// rows ordered by (a, b), floats in the shortest round-trip form; CSV or JSON Lines.
pub fn write_truth(
    w: &mut dyn Write,
    corpus: &Corpus,
    pairs: &[TruthPair],
    format: OutputFormat,
    progress: Option<&Progress>,
) -> std::io::Result<()> {
    let mut out = RowWriter::new(w, format, &["id_a", "id_b", "jaccard"], progress)?;
    for p in pairs {
        out.write_row(&[
            Field::Str(corpus.id(p.a as usize)),
            Field::Str(corpus.id(p.b as usize)),
            Field::F64(p.jaccard),
        ])?;
    }
    out.finish()
}

/// The exact join: how many shingles and pairs, and the work it took against its estimate.
fn render_join(
    index: &lshscope_core::minhash::Index,
    threshold: f64,
    pairs: &[TruthPair],
    work: &JoinWork,
    stats: &JoinStats,
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} shingles ({} distinct); exact join: {} {} with Jaccard ≥ {}",
        thousands(index.sets.total() as u64),
        thousands(work.distinct_tokens as u64),
        thousands(pairs.len() as u64),
        for_count(pairs.len() as u64, "pair", "pairs"),
        threshold
    );
    let _ = writeln!(
        out,
        "join work: {} posting entries scanned (estimated {}), {} {} verified",
        thousands(stats.scans),
        thousands(work.estimated_scans.round() as u64),
        thousands(stats.verified),
        for_count(stats.verified, "pair", "pairs")
    );
    out
}

/// The count by blocks: how many pairs, where they were found and what it took.
fn render_blocked(counted: &BlockedJoin, file: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let total = counted.within + counted.across.len() as u64;
    let _ = writeln!(
        out,
        "exact count by the {} {} of {file}: {} {} with Jaccard ≥ {}, {} distinct values",
        thousands(counted.blocks as u64),
        for_count(counted.blocks as u64, "block", "blocks"),
        thousands(total),
        for_count(total, "pair", "pairs"),
        counted.threshold,
        thousands(counted.distribution.len() as u64)
    );
    let _ = writeln!(
        out,
        "  within blocks {:>15} ({} of identical sets; {} pairs of distinct sets merged)",
        thousands(counted.within),
        thousands(counted.within_identical),
        thousands(counted.within_merged)
    );
    let _ = writeln!(
        out,
        "  across blocks {:>15} (join: {} posting entries scanned, estimated {}; {} {} \
         verified)",
        thousands(counted.across.len() as u64),
        thousands(counted.stats.scans),
        thousands(counted.work.estimated_scans.round() as u64),
        thousands(counted.stats.verified),
        for_count(counted.stats.verified, "pair", "pairs")
    );
    out
}

/// The stratified sample: the strata, the weighted Jaccard distribution (estimated pairs of
/// the corpus per 0.05 bin), and with -t the estimated count at or above it with its interval.
fn render_stratified(sample: &StratifiedSample, threshold: Option<f64>) -> String {
    use std::fmt::Write as _;
    const BINS: usize = 20;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "strata of the permissive {} × {} banding (P ≥ {} at Jaccard {}):",
        sample.banding.bands,
        sample.banding.rows,
        1.0 - stratified::PERMISSIVE_MISS,
        sample.threshold
    );
    if let Some(lower) = sample.lower {
        let _ = writeln!(
            out,
            "  and of the lower {} × {} banding (P ≥ {} at Jaccard {}) beyond them:",
            lower.banding.bands,
            lower.banding.rows,
            1.0 - stratified::PERMISSIVE_MISS,
            lower.threshold
        );
    }
    for s in &sample.strata {
        let _ = writeln!(
            out,
            "  {:<16} {:>15} pairs, {}",
            s.name,
            thousands(s.pairs),
            if s.is_census() {
                "all taken".to_string()
            } else {
                format!(
                    "{} drawn (each stands for {})",
                    thousands(s.similarities.len() as u64),
                    estimated_count(s.weight())
                )
            }
        );
    }
    let _ = writeln!(out, "estimated Jaccard distribution over all pairs:");
    let mut weights = [0.0f64; BINS];
    let total: f64 = sample.population() as f64;
    for s in &sample.strata {
        for &j in &s.similarities {
            weights[bin_of(j, BINS)] += s.weight();
        }
    }
    for (k, &w) in weights.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let _ = writeln!(
            out,
            "  {} {:>14}  {:>9} %",
            super::summary::bin_label(k as f64 / BINS as f64, (k + 1) as f64 / BINS as f64),
            estimated_count(w),
            format_share(w / total.max(1.0))
        );
    }
    if let Some(t) = threshold
        && let Some(iv) = sample.intervals(1, 1, t)
    {
        let above: f64 = sample
            .strata
            .iter()
            .map(|s| s.weight() * s.similarities.iter().filter(|&&j| j >= t).count() as f64)
            .sum();
        let _ = writeln!(
            out,
            "{} sampled {} Jaccard ≥ {t}: about {} pairs in the corpus (95 % interval {}–{})",
            thousands(iv.sampled_at_or_above as u64),
            for_count(iv.sampled_at_or_above as u64, "pair has", "pairs have"),
            thousands(above.round() as u64),
            thousands(iv.pairs_at_or_above.0.floor() as u64),
            thousands(iv.pairs_at_or_above.1.ceil() as u64)
        );
        // Where the banding's misses cannot bound the pairs hidden among the others, the
        // top rests on their draws, where a few stand for millions of pairs: said here,
        // since it looks like a bug otherwise.
        if let Some(why) = sample.hidden_pairs_unbounded(t)
            && let Some(others) = sample.others().filter(|s| !s.is_census())
        {
            let _ = writeln!(
                out,
                "  the top rests on {} draws among the {} other pairs, which cannot rule out \
                 similar pairs hidden there: {why}",
                thousands(others.similarities.len() as u64),
                thousands(others.pairs),
            );
        }
    }
    out
}

/// `--lower-threshold`: a threshold, or no lower level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LowerLevel {
    /// Two strata only.
    Off,
    /// A lower level at this threshold.
    At(f64),
}

/// `--lower-threshold T2|off`: whether it is below -t is checked with -t.
fn parse_lower_threshold(text: &str) -> std::result::Result<LowerLevel, String> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(LowerLevel::Off);
    }
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t < 1.0 => Ok(LowerLevel::At(t)),
        _ => Err(format!(
            "expected a Jaccard threshold between 0 and 1 (below -t), or `off`, got `{text}`"
        )),
    }
}

/// `--estimate-pairs M`: a number of pairs, at least one (a sample of none would be written,
/// and refused only by `tune` reading it).
fn parse_pair_budget(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("a sample needs at least one pair: try 100000".to_string()),
        Ok(m) => Ok(m),
        Err(_) => Err(format!("expected a whole number of pairs, got `{text}`")),
    }
}

/// A share as a percentage with enough digits for the tiny shares of high similarities.
fn format_share(share: f64) -> String {
    let percent = 100.0 * share;
    if percent >= 0.01 || percent == 0.0 {
        format!("{percent:.4}")
    } else {
        format!("{percent:.2e}")
    }
}

/// The sampled similarity distribution: counts per 0.05 bin, and the share at ≥ T with its
/// Wilson interval extrapolated to all N(N − 1)/2 pairs.
fn render_sample(sample: &[TruthPair], documents: usize, threshold: Option<f64>) -> String {
    use std::fmt::Write as _;
    const BINS: usize = 20;
    let mut out = String::new();
    let all_pairs = documents as f64 * (documents as f64 - 1.0).max(0.0) / 2.0;
    let _ = writeln!(
        out,
        "sampled {} of {} pairs uniformly at random; Jaccard distribution:",
        thousands(sample.len() as u64),
        thousands(all_pairs as u64)
    );
    let mut counts = [0usize; BINS];
    for p in sample {
        counts[bin_of(p.jaccard, BINS)] += 1;
    }
    for (k, &c) in counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "  {} {:>10}  {:>8.4} %",
            super::summary::bin_label(k as f64 / BINS as f64, (k + 1) as f64 / BINS as f64),
            thousands(c as u64),
            100.0 * c as f64 / sample.len().max(1) as f64
        );
    }
    if let Some(t) = threshold
        && !sample.is_empty()
    {
        let above = sample.iter().filter(|p| p.jaccard >= t).count();
        let (lo, hi) = wilson_interval(above, sample.len(), Z_95);
        let _ = writeln!(
            out,
            "{} sampled {} Jaccard ≥ {t}: about {} pairs in the corpus (95 % interval {}–{})",
            thousands(above as u64),
            for_count(above as u64, "pair has", "pairs have"),
            thousands((above as f64 / sample.len() as f64 * all_pairs).round() as u64),
            thousands((lo * all_pairs).floor() as u64),
            thousands((hi * all_pairs).ceil() as u64)
        );
    }
    out
}
