//! `lshscope tune`: pick bands b and rows r for K permutations by several criteria, optionally
//! weighted by a corpus's own pair similarities, and print them in another tool's terms.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::str::FromStr;

use clap::{Args, ValueEnum};

use lshscope_core::minhash::Banding;
use lshscope_core::minhash::tune::{Constraints, ProbabilityBound, SampledIntervals};
use lshscope_core::util::numfmt::{compact, estimated_count, for_count, percent_fine, thousands};

use super::lsh_args::BandingArg;
use super::{CorpusArgs, FormatArg, IndexArgs, ProgressBar, ReadArgs, show_progress};
use lshscope_core::jobs::Progress;
use lshscope_core::pipeline::Pipeline;
use lshscope_core::tune::{
    PairSimilarities, SeedCorpus, SeedSpread, TuneOptions, TuneReport, build_report,
    build_report_with,
};
use lshscope_core::{Error, Result};

mod csv_table;
use csv_table::render_csv;

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Jaccard similarity t that pairs must reach to count as duplicates. Without it, only
    /// the constraints (--reject/--accept) and --banding rows are computed.
    #[arg(long, short = 't', value_name = "T", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// datasketch's weight on the false-positive area ∫₀ᵗ P(s) ds.
    #[arg(
        long,
        default_value_t = 0.5,
        value_name = "W",
        allow_negative_numbers = true
    )]
    pub fp_weight: f64,
    /// datasketch's weight on the false-negative area ∫ₜ¹ (1 − P(s)) ds.
    #[arg(
        long,
        default_value_t = 0.5,
        value_name = "W",
        allow_negative_numbers = true
    )]
    pub fn_weight: f64,
    /// The probability P(t) the "recall" criterion must reach at the threshold.
    #[arg(
        long,
        default_value_t = 0.99,
        value_name = "P",
        allow_negative_numbers = true
    )]
    pub min_recall: f64,
    /// Constraint: pairs at similarity S become candidates with probability at most P
    /// (P as a fraction or a percentage: `0.05:0.006` or `0.05:0.6%`). Repeatable.
    #[arg(long, value_name = "S:P")]
    pub reject: Vec<BoundArg>,
    /// Constraint: pairs at similarity S become candidates with probability at least P.
    /// Repeatable.
    #[arg(long, value_name = "S:P")]
    pub accept: Vec<BoundArg>,
    /// Also evaluate this banding (e.g. `20x5`, the one you use today). Repeatable.
    #[arg(long, value_name = "BxR")]
    pub banding: Vec<BandingArg>,
    /// Pairs written by `lshscope scan` (CSV, JSON Lines or Parquet, possibly .gz/.zst; `-`
    /// is stdin): adds expected candidates, recall and precision at t on these similarities.
    #[arg(long, value_name = "FILE", conflicts_with = "similarities")]
    pub pairs: Option<PathBuf>,
    /// The banding the --pairs scan ran with (e.g. `20x5`). Each pair then counts 1/P₀(s)
    /// times (Horvitz–Thompson), correcting for the pairs that scan's banding missed, so the
    /// corpus columns estimate all pairs rather than only the scan's candidates.
    #[arg(long, value_name = "BxR", requires = "pairs")]
    pub scan_banding: Option<BandingArg>,
    /// Pair similarities: one number per line, or a pair file with a `jaccard` column (CSV,
    /// JSON Lines or Parquet, possibly .gz/.zst; `-` is stdin), for example a sample of random
    /// pairs.
    #[arg(long, value_name = "FILE")]
    pub similarities: Option<PathBuf>,
    /// A truth file (`lshscope truth`: every pair at or above its join threshold; `gen
    /// --truth`: the planted pairs): adds the expected recall at t of each banding over its
    /// pairs at or above t. From a `truth` join, for t at or above its threshold, this is the
    /// recall the banding is expected to reach on that corpus.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["pairs", "similarities"])]
    pub truth: Option<PathBuf>,
    /// Pick the banding with the highest expected recall at t whose number of candidate
    /// pairs stays within N: expected from --pairs or --similarities, or with --corpus the
    /// real count for the worst of the --seeds. Within 0.01 percentage point of that recall,
    /// the fewest candidates win.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub budget: Option<f64>,
    /// A corpus to count real candidate pairs on: every row gets its candidate count per
    /// seed (median, min–max), and --budget holds for the worst seed. Counted on a uniform
    /// sample of --sample documents (default 20,000) and scaled to the corpus, with a 95 %
    /// interval per seed; --budget then holds for the top of the worst seed's interval.
    #[arg(long, value_name = "INPUT")]
    pub corpus: Option<PathBuf>,
    /// With --corpus: build signatures for S seeds (--seed, --seed + 1, …): candidate counts
    /// swing with the seed when pairs share boilerplate.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "corpus")]
    pub seeds: usize,
    /// The format of --corpus; `auto` decides from the extension.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto, requires = "corpus")]
    pub corpus_format: FormatArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TuneFormat::Table)]
    pub format: TuneFormat,
    /// Print the chosen banding (the first row) in this tool's own parameters, and what the
    /// tool cannot express. For a tool that removes every candidate (datatrove, nemo), or with
    /// --max-false-removal, the first row is `removal` (or `budget` when that keeps the
    /// removal bound too), and a note says why; otherwise budget, else constraints, else
    /// recall.
    #[arg(long = "for", value_enum, value_name = "TOOL")]
    pub for_tool: Option<Tool>,
    /// For a tool that removes every candidate (datatrove, NeMo Curator): pairs at similarity
    /// S may be removed with probability at most P (`0.5:5%`). The `removal` row then picks the
    /// highest P(t) within it, and is the one exported. [default with --for datatrove|nemo
    /// and no --reject/--accept: 5 % at t − 0.3]
    #[arg(long, value_name = "S:P")]
    pub max_false_removal: Option<BoundArg>,
    /// Also print, for every row, the similarity s at which P(s) reaches each of these
    /// probabilities (e.g. `0.001,0.01,0.1,0.5,0.9,0.99`).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "P,P,...",
        allow_hyphen_values = true
    )]
    pub quantiles: Vec<f64>,
    /// Shingling and MinHash: K bounds every banding (b·r ≤ K); the shingles set the n-gram
    /// parameters printed by --for and how --corpus is hashed.
    #[command(flatten, next_help_heading = "Shingling and MinHash")]
    pub index: IndexArgs,
    #[command(flatten, next_help_heading = "Reading the --corpus")]
    pub read: ReadArgs,
}

/// `tune --corpus` counts on this many documents unless --sample says otherwise: pairs fall
/// with the square of the sample, so counting stays within seconds on any corpus while the
/// template families that drive the seed spread still have members in it.
const DEFAULT_CORPUS_SAMPLE: usize = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TuneFormat {
    Table,
    Json,
    Csv,
}

/// `--for`: the tools [`lshscope_core::tune::export`] knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Tool {
    Datatrove,
    TextDedup,
    Datasketch,
    Spark,
    Nemo,
}

impl From<Tool> for lshscope_core::tune::Tool {
    fn from(tool: Tool) -> Self {
        match tool {
            Tool::Datatrove => lshscope_core::tune::Tool::Datatrove,
            Tool::TextDedup => lshscope_core::tune::Tool::TextDedup,
            Tool::Datasketch => lshscope_core::tune::Tool::Datasketch,
            Tool::Spark => lshscope_core::tune::Tool::Spark,
            Tool::Nemo => lshscope_core::tune::Tool::Nemo,
        }
    }
}

/// `S:P` on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundArg(pub ProbabilityBound);

impl FromStr for BoundArg {
    type Err = String;
    fn from_str(text: &str) -> std::result::Result<Self, String> {
        let (s, p) = text
            .split_once(':')
            .ok_or_else(|| format!("expected S:P such as 0.05:0.006 or 0.05:0.6%, got `{text}`"))?;
        let similarity: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("similarity `{s}` in `{text}` is not a number"))?;
        if !(0.0..=1.0).contains(&similarity) {
            return Err(format!(
                "similarity {similarity} in `{text}` is outside [0, 1]"
            ));
        }
        let p = p.trim();
        let probability = match p.strip_suffix('%') {
            Some(percent) => percent
                .trim()
                .parse::<f64>()
                .map(|v| v / 100.0)
                .map_err(|_| format!("probability `{p}` in `{text}` is not a number"))?,
            None => p
                .parse::<f64>()
                .map_err(|_| format!("probability `{p}` in `{text}` is not a number"))?,
        };
        if !(0.0..=1.0).contains(&probability) {
            return Err(format!(
                "probability {p} in `{text}` is outside [0, 1] (or [0 %, 100 %])"
            ));
        }
        Ok(BoundArg(ProbabilityBound {
            similarity,
            probability,
        }))
    }
}

impl TuneArgs {
    /// `error` with the option named when it is about one of the files these flags give
    /// ([`super::about_file`]).
    fn about_its_files(&self, error: Error) -> Error {
        [
            ("--pairs", &self.pairs),
            ("--similarities", &self.similarities),
            ("--truth", &self.truth),
            ("--corpus", &self.corpus),
        ]
        .into_iter()
        .fold(error, |error, (option, path)| match path {
            Some(path) => super::about_file(Some(option), path, error),
            None => error,
        })
    }

    /// The engine's options for these flags.
    pub fn options(&self) -> TuneOptions {
        let similarities = match (&self.truth, &self.pairs, &self.similarities) {
            (Some(path), _, _) => Some(PairSimilarities::Truth(path.clone())),
            (None, Some(path), _) => Some(PairSimilarities::ScanPairs {
                path: path.clone(),
                scan_banding: self.scan_banding.map(Banding::from),
            }),
            (None, None, Some(path)) => Some(PairSimilarities::Similarities(path.clone())),
            (None, None, None) => None,
        };
        TuneOptions {
            num_perm: self.index.num_perm,
            family: self.index.family.unwrap_or_default(),
            threshold: self.threshold,
            fp_weight: self.fp_weight,
            fn_weight: self.fn_weight,
            min_recall: self.min_recall,
            constraints: Constraints {
                reject: self.reject.iter().map(|b| b.0).collect(),
                accept: self.accept.iter().map(|b| b.0).collect(),
            },
            given: self.banding.iter().copied().map(Banding::from).collect(),
            similarities,
            budget: self.budget,
            export: self.for_tool.map(lshscope_core::tune::Tool::from),
            shingle: self
                .index
                .shingle
                .unwrap_or_else(|| self.index.profile.profile.default_shingle()),
            quantiles: self.quantiles.clone(),
            max_false_removal: self.max_false_removal.map(|b| b.0),
        }
    }
}

pub fn run(args: TuneArgs) -> Result<i32> {
    args.index.profile.shingle(args.index.shingle)?;
    let options = args.options();
    options.validate()?;
    if args.for_tool.is_some() && args.format == TuneFormat::Csv {
        return Err(Error::usage(
            "--for prints code, which does not fit in CSV: use --format table or json",
        ));
    }
    let mut report = report(&args, &options).map_err(|e| args.about_its_files(e))?;
    report.name_settings(super::errors::flag);
    let text = match args.format {
        TuneFormat::Table => render_table(&report),
        TuneFormat::Json => {
            serde_json::to_string_pretty(&report)
                .map_err(|e| Error::internal(format!("cannot serialise the report: {e}")))?
                + "\n"
        }
        TuneFormat::Csv => render_csv(&report)?,
    };
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(Error::io("<stdout>", e)),
    }
}

/// The report for these flags: from the closed form and the similarity files alone, or with
/// candidates counted on `--corpus`.
fn report(args: &TuneArgs, options: &TuneOptions) -> Result<TuneReport> {
    match &args.corpus {
        None => {
            if args.read != ReadArgs::default() {
                return Err(Error::usage(
                    "the corpus reading options (--text-column, --sample, …) need --corpus \
                     INPUT",
                ));
            }
            build_report(options)
        }
        Some(input) => {
            let progress = super::new_progress();
            let (seeds, tool_seeds) = seed_corpus(args, input, &progress)?;
            build_report_with(options, Some(&seeds), tool_seeds.as_ref(), &progress)
        }
    }
}

/// Reads `input` (a sample of it), builds its shingle sets once and signatures for every seed;
/// when the `--for` tool draws its rows in another family than `--family`, the same seeds in
/// the tool's family too.
fn seed_corpus(
    args: &TuneArgs,
    input: &std::path::Path,
    progress: &Progress,
) -> Result<(SeedCorpus, Option<SeedCorpus>)> {
    if args.seeds == 0 {
        return Err(Error::usage("--seeds must be at least 1"));
    }
    let corpus_args = CorpusArgs {
        input: input.to_path_buf(),
        format: args.corpus_format,
        read: ReadArgs {
            sample: args.read.sample.or(Some(DEFAULT_CORPUS_SAMPLE)),
            ..args.read.clone()
        },
    };
    let quiet = false;
    let bar = ProgressBar::start(progress, show_progress(quiet));
    let mut run = Pipeline::new(progress);
    // Tuning prints counts, never ids: repeated ids do not matter to it.
    let loaded = super::load_corpus(&mut run, &corpus_args, &args.index, quiet, false)?;
    let seeds: Vec<u64> = (0..args.seeds as u64)
        .map(|i| args.index.seed.wrapping_add(i))
        .collect();
    let seed_corpus = SeedCorpus::new(
        input.display().to_string(),
        loaded.read.rows_read,
        &loaded.index,
        &seeds,
        progress,
    )?;
    let tool_family = args
        .for_tool
        .map(|tool| lshscope_core::tune::Tool::from(tool).family())
        .filter(|&family| family != loaded.index.options.family);
    let tool_seeds = tool_family
        .map(|family| {
            SeedCorpus::in_family(
                input.display().to_string(),
                loaded.read.rows_read,
                &loaded.index,
                &seeds,
                family,
                progress,
            )
        })
        .transpose()?;
    drop(bar);
    Ok((seed_corpus, tool_seeds))
}

/// The table `tune` prints: what was measured, a line per criterion with its details, and
/// what was not found, the notes and the export.
fn render_table(report: &TuneReport) -> String {
    let mut out = String::new();
    write_heading(&mut out, report);
    if let Some(c) = &report.seed_corpus {
        write_seed_corpus(&mut out, c);
    }
    let _ = writeln!(out, "{}", table_header(report.corpus.is_some()));
    for row in &report.rows {
        write_row(&mut out, row);
    }
    write_footer(&mut out, report);
    out
}

/// The first line: K, the family, t, and the pairs file's counts when one was given.
fn write_heading(out: &mut String, report: &TuneReport) {
    let _ = writeln!(
        out,
        "K = {} {}{}, {}{}",
        report.num_perm,
        for_count(report.num_perm as u64, "permutation", "permutations"),
        super::family_note(report.family),
        report
            .threshold
            .map_or("no threshold".to_string(), |t| format!("threshold t = {t}")),
        report
            .corpus
            .as_ref()
            .map(|c| format!(
                ", {} {}{} from {} ({})",
                estimated_count(c.pairs),
                // The word agrees with the count as shown, rounded to whole pairs.
                for_count(c.pairs.round() as u64, "pair", "pairs"),
                // A thresholded pairs file: the counts, estimates too, stop at its floor.
                c.similarity_floor
                    .map(|floor| format!(
                        " with Jaccard ≥ {}",
                        lshscope_core::util::numfmt::decimal(floor)
                    ))
                    .unwrap_or_default(),
                c.source,
                match &c.sample {
                    // Scaled up from a sample, so an estimate even when it comes out whole.
                    Some(sample) => format!(
                        "≈{} {} at or above t, 95 % interval {}–{}; in the sample: {} of {}",
                        thousands(c.pairs_at_or_above_threshold.round() as u64),
                        for_count(
                            c.pairs_at_or_above_threshold.round() as u64,
                            "pair",
                            "pairs"
                        ),
                        thousands(sample.pairs_at_or_above_interval.0.floor() as u64),
                        thousands(sample.pairs_at_or_above_interval.1.ceil() as u64),
                        thousands(sample.sampled_at_or_above as u64),
                        thousands(sample.sampled_pairs as u64)
                    ),
                    None => format!(
                        "{} {} at or above t",
                        estimated_count(c.pairs_at_or_above_threshold),
                        for_count(
                            c.pairs_at_or_above_threshold.round() as u64,
                            "pair",
                            "pairs"
                        )
                    ),
                }
            ))
            .unwrap_or_default()
    );
}

/// The line naming the corpus the candidate pairs were counted on, and its seeds.
fn write_seed_corpus(out: &mut String, c: &lshscope_core::tune::SeedCorpusInfo) {
    let seeds = match c.seeds.as_slice() {
        [one] => format!("seed {one}"),
        [first, .., last] => format!("seeds {first}–{last}"),
        [] => "no seed".to_string(),
    };
    let docs = if c.documents < c.population {
        format!(
            "a uniform sample of {} of its {} documents",
            lshscope_core::util::numfmt::thousands(c.documents as u64),
            lshscope_core::util::numfmt::thousands(c.population as u64)
        )
    } else if c.documents == 1 {
        "its only document".to_string()
    } else {
        format!(
            "all {} documents",
            lshscope_core::util::numfmt::thousands(c.documents as u64)
        )
    };
    let _ = writeln!(
        out,
        "candidate pairs counted on {} ({docs}), {seeds}",
        c.source
    );
}

/// The column heads, with the corpus columns when a pairs file was given.
fn table_header(corpus: bool) -> String {
    let mut header = format!(
        "{:<12} {:>4} {:>4} {:>6} {:>9} {:>9} {:>7} {:>7} {:>7} {:>6}",
        "criterion", "b", "r", "hashes", "steepest", "P(t)", "s@10%", "s@50%", "s@90%", "width"
    );
    if corpus {
        let _ = write!(
            header,
            " {:>14} {:>9} {:>10}",
            "exp. cands", "recall@t", "precision"
        );
    }
    header
}

/// A criterion's line and the lines under it: its description, sampled intervals, bounds,
/// quantiles, seed spread and warnings.
fn write_row(out: &mut String, row: &lshscope_core::tune::TuneRow) {
    let c = &row.curve;
    let mut line = format!(
        "{:<12} {:>4} {:>4} {:>6} {:>9.4} {:>9} {:>7.4} {:>7.4} {:>7.4} {:>6.4}",
        row.criterion,
        c.bands,
        c.rows,
        c.hashes,
        c.steepest_point,
        c.probability_at_threshold
            .map_or("—".to_string(), percent_fine),
        c.similarity_at_10,
        c.similarity_at_50,
        c.similarity_at_90,
        c.width_10_90
    );
    if let Some(e) = &row.corpus {
        let opt = |v: Option<f64>| v.map(percent_fine).unwrap_or_else(|| "n/a".to_string());
        // An expectation, rounded to whole pairs like every count of pairs.
        let _ = write!(
            line,
            " {:>14} {:>9} {:>10}",
            thousands(e.expected_candidates.round() as u64),
            opt(e.expected_recall),
            opt(e.expected_precision)
        );
    }
    let _ = writeln!(out, "{line}");
    let _ = writeln!(out, "    {}", row.description);
    if let Some(iv) = &row.sampled {
        let _ = writeln!(out, "    {}", render_sampled(iv));
    }
    if !row.bounds.is_empty() {
        let bounds: Vec<String> = row
            .bounds
            .iter()
            .map(|b| {
                format!(
                    "P({}) = {} {} {}{}",
                    b.similarity,
                    percent_fine(b.probability),
                    if b.kind == "reject" { "≤" } else { "≥" },
                    percent_fine(b.bound),
                    if b.met { "" } else { " ✗" }
                )
            })
            .collect();
        let _ = writeln!(out, "    {}", bounds.join(" · "));
    }
    if !row.quantiles.is_empty() {
        let q: Vec<String> = row
            .quantiles
            .iter()
            .map(|(p, s)| format!("P = {} at s = {s:.4}", percent_fine(*p)))
            .collect();
        let _ = writeln!(out, "    {}", q.join(" · "));
    }
    if let Some(spread) = &row.seed_spread {
        let _ = writeln!(out, "    {}", render_spread(spread));
    }
    for w in &row.warnings {
        let _ = writeln!(out, "    warning: {w}");
    }
}

/// What was not found, the notes, and the export's parameters.
fn write_footer(out: &mut String, report: &TuneReport) {
    for n in &report.not_found {
        let _ = writeln!(out, "not found: {n}");
    }
    for n in &report.notes {
        let _ = writeln!(out, "note: {n}");
    }
    if let Some(export) = &report.export {
        let _ = writeln!(
            out,
            "\n{} parameters for the `{}` row ({} × {}):",
            export.tool.name(),
            export.criterion,
            report.rows[0].curve.bands,
            report.rows[0].curve.rows
        );
        for line in export.snippet.lines() {
            let _ = writeln!(out, "    {line}");
        }
        for n in &export.notes {
            let _ = writeln!(out, "  - {n}");
        }
    }
}

/// One row's candidate counts per seed, in words: the median and range, then each seed's
/// count in compact form (JSON and CSV carry the exact values).
fn render_spread(spread: &SeedSpread) -> String {
    let what = if spread.estimated() {
        "candidates on the corpus (estimated from the sample)"
    } else {
        "candidates on the corpus"
    };
    let approx = if spread.estimated() { "≈" } else { "" };
    let per_seed: Vec<String> = spread
        .seeds
        .iter()
        .zip(&spread.candidates)
        .map(|(seed, c)| match c {
            Some(c) => format!("{seed}: {approx}{}", compact(c.round() as u64)),
            None => format!("{seed}: too many to count"),
        })
        .collect();
    // The sample's own error, which every seed shares: the seeds' range does not show it.
    let interval = match (spread.estimated(), spread.low, spread.high) {
        (true, Some(low), Some(high)) => format!(
            "; 95 % interval {}–{}{}",
            spread.show(low),
            spread.show(high),
            if spread.seeds.len() > 1 {
                " over all seeds"
            } else {
                ""
            }
        ),
        _ => String::new(),
    };
    match (spread.seeds.len(), spread.median, spread.min, spread.max) {
        (n, Some(median), Some(min), Some(max)) if n > 1 => format!(
            "{what}: median {}, {}–{} over {n} seeds{interval} (by seed {})",
            spread.show(median),
            spread.show(min),
            spread.show(max),
            per_seed.join(", ")
        ),
        (_, Some(median), _, _) if !spread.incomplete() => {
            format!(
                "{what}: {}{interval} (seed {})",
                spread.show(median),
                spread.seeds[0]
            )
        }
        _ => format!("{what}: by seed {}", per_seed.join(", ")),
    }
}

/// A row's estimates from a weighted sample of pairs, with their 95 % intervals.
fn render_sampled(iv: &SampledIntervals) -> String {
    let count = |(lo, hi): (f64, f64)| {
        format!(
            "{}–{}",
            thousands(lo.floor() as u64),
            thousands(hi.ceil() as u64)
        )
    };
    let share = |v: Option<(f64, f64)>| match v {
        Some((lo, hi)) => format!("{}–{}", percent_fine(lo), percent_fine(hi)),
        None => "n/a (too few sampled pairs at t)".to_string(),
    };
    format!(
        "95 % intervals from the sample: exp. cands {}, recall@t {}, precision {}",
        count(iv.expected_candidates),
        share(iv.expected_recall),
        share(iv.expected_precision)
    )
}
