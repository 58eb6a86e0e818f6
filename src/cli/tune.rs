//! `lshscope tune`: pick bands b and rows r for K permutations by several criteria, optionally
//! weighted by a corpus's own pair similarities, and print them in another tool's terms.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::minhash::scurve::{candidate_probability, datasketch_optimal_params};
use crate::minhash::tune::{
    Constraints, CorpusEstimate, CurveSummary, ProbabilityBound, SimilarityDistribution,
    best_recall_within_budget, constraint_search, corpus_estimate, sharpest_with_probability_at,
    summarize,
};
use crate::text::ShingleKind;
use crate::{Error, Result};

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Number of MinHash permutations K; every banding considered has b·r ≤ K.
    #[arg(long, short = 'k', default_value_t = 128, value_name = "K")]
    pub num_perm: usize,
    /// Jaccard similarity t that pairs must reach to count as duplicates.
    #[arg(long, short = 't', value_name = "T")]
    pub threshold: f64,
    /// datasketch's weight on the false-positive area ∫₀ᵗ P(s) ds.
    #[arg(long, default_value_t = 0.5, value_name = "W")]
    pub fp_weight: f64,
    /// datasketch's weight on the false-negative area ∫ₜ¹ (1 − P(s)) ds.
    #[arg(long, default_value_t = 0.5, value_name = "W")]
    pub fn_weight: f64,
    /// The probability P(t) the "recall" criterion must reach at the threshold.
    #[arg(long, default_value_t = 0.99, value_name = "P")]
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
    /// Pairs written by `lshscope scan` (CSV or JSON Lines, possibly .gz/.zst; `-` is
    /// stdin): adds expected
    /// candidates, recall and precision at t on these similarities.
    #[arg(long, value_name = "FILE", conflicts_with = "similarities")]
    pub pairs: Option<PathBuf>,
    /// The banding the --pairs scan ran with (e.g. `20x5`). Each pair then counts 1/P₀(s)
    /// times (Horvitz–Thompson), correcting for the pairs that scan's banding missed, so the
    /// corpus columns estimate all pairs rather than only the scan's candidates.
    #[arg(long, value_name = "BxR", requires = "pairs")]
    pub scan_banding: Option<BandingArg>,
    /// Pair similarities: one number per line, or a pair file with a `jaccard` column (CSV
    /// or JSON Lines, possibly .gz/.zst; `-` is stdin), for example a sample of random pairs.
    #[arg(long, value_name = "FILE")]
    pub similarities: Option<PathBuf>,
    /// A truth file from `lshscope truth` (every pair at or above its join threshold): adds
    /// the expected recall at t of each banding over those true pairs. For t at or above the
    /// join's threshold this is the recall the banding is expected to reach on that corpus.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["pairs", "similarities"])]
    pub truth: Option<PathBuf>,
    /// Pick the banding with the highest expected recall at t whose expected number of
    /// candidate pairs stays within N (needs --pairs or --similarities).
    #[arg(long, value_name = "N")]
    pub budget: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TuneFormat::Table)]
    pub format: TuneFormat,
    /// Print the chosen banding in this tool's own parameters, and what the tool cannot
    /// express. The chosen banding is the first row: budget, else constraints, else recall.
    #[arg(long = "for", value_enum, value_name = "TOOL")]
    pub for_tool: Option<Tool>,
    /// Shingles you hash (for the n-gram settings printed by --for).
    #[arg(long, default_value = "char:5", value_name = "char:K|word:N")]
    pub shingle: ShingleKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TuneFormat {
    Table,
    Json,
    Csv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    Datatrove,
    TextDedup,
    Datasketch,
    Spark,
    Nemo,
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

/// `BxR` (bands × rows) on the command line, e.g. `16x8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BandingArg {
    pub bands: usize,
    pub rows: usize,
}

impl FromStr for BandingArg {
    type Err = String;
    fn from_str(text: &str) -> std::result::Result<Self, String> {
        let (b, r) = text
            .split_once(['x', 'X', '×'])
            .ok_or_else(|| format!("expected BANDSxROWS such as 16x8, got `{text}`"))?;
        let parse = |v: &str, what: &str| {
            v.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{what} `{v}` in `{text}` is not a positive integer"))
        };
        Ok(BandingArg {
            bands: parse(b, "bands")?,
            rows: parse(r, "rows")?,
        })
    }
}

/// One row of the table: a banding and why it was picked.
#[derive(Debug, Clone, Serialize)]
pub struct TuneRow {
    /// Short key: `datasketch`, `recall`, `constraints`, `budget` or `given`.
    pub criterion: &'static str,
    /// What the criterion means, in words.
    pub description: String,
    #[serde(flatten)]
    pub curve: CurveSummary,
    pub unused_permutations: usize,
    /// Expected behaviour on the given similarities (with --pairs / --similarities).
    pub corpus: Option<CorpusEstimate>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CorpusInfo {
    pub source: String,
    pub pairs: f64,
    pub pairs_at_or_above_threshold: f64,
}

/// A banding in another tool's terms.
#[derive(Debug, Clone, Serialize)]
pub struct ToolExport {
    pub tool: Tool,
    pub criterion: &'static str,
    /// The tool's parameter names and values, in the order the tool documents them.
    pub parameters: Vec<(String, serde_json::Value)>,
    /// Code or a command line to paste.
    pub snippet: String,
    /// What the tool cannot express, or does differently.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TuneReport {
    pub num_perm: usize,
    pub threshold: f64,
    pub fp_weight: f64,
    pub fn_weight: f64,
    pub min_recall: f64,
    pub constraints: Constraints,
    pub corpus: Option<CorpusInfo>,
    pub rows: Vec<TuneRow>,
    /// Criteria that found no banding, with the reason.
    pub not_found: Vec<String>,
    /// The criterion of the row `--for` uses.
    pub chosen: &'static str,
    pub export: Option<ToolExport>,
    pub notes: Vec<String>,
}

pub fn run(args: TuneArgs) -> Result<i32> {
    let report = build_report(&args)?;
    let text = match args.format {
        TuneFormat::Table => render_table(&report),
        TuneFormat::Json => {
            serde_json::to_string_pretty(&report).map_err(|e| Error::usage(e.to_string()))? + "\n"
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

fn check_unit(name: &str, value: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&value) {
        return Err(Error::usage(format!(
            "{name} must be in [0, 1], got {value}"
        )));
    }
    Ok(())
}

/// Validates the arguments and computes every row.
pub fn build_report(args: &TuneArgs) -> Result<TuneReport> {
    let k = args.num_perm;
    if k == 0 {
        return Err(Error::usage("--num-perm must be at least 1"));
    }
    check_unit("--threshold", args.threshold)?;
    check_unit("--min-recall", args.min_recall)?;
    for (name, w) in [
        ("--fp-weight", args.fp_weight),
        ("--fn-weight", args.fn_weight),
    ] {
        if !(w >= 0.0 && w.is_finite()) {
            return Err(Error::usage(format!(
                "{name} must be a non-negative number, got {w}"
            )));
        }
    }
    if args.fp_weight + args.fn_weight == 0.0 {
        return Err(Error::usage(
            "--fp-weight and --fn-weight cannot both be 0: nothing would be minimised",
        ));
    }
    for b in &args.banding {
        if b.bands * b.rows > k {
            return Err(Error::usage(format!(
                "--banding {}x{} needs {} permutations but --num-perm is {k}: \
                 lower bands or rows, or raise --num-perm",
                b.bands,
                b.rows,
                b.bands * b.rows
            )));
        }
    }
    if args.for_tool.is_some() && args.format == TuneFormat::Csv {
        return Err(Error::usage(
            "--for prints code, which does not fit in CSV: use --format table or json",
        ));
    }
    let t = args.threshold;
    let constraints = Constraints {
        reject: args.reject.iter().map(|b| b.0).collect(),
        accept: args.accept.iter().map(|b| b.0).collect(),
    };

    let mut notes = Vec::new();
    let (corpus, distribution) = match (&args.pairs, &args.similarities) {
        (None, None) if args.truth.is_some() => {
            let path = args.truth.as_ref().expect("checked");
            let values = read_similarities(path, false)?;
            let lowest = crate::analysis::recall::truth_floor(values.iter().copied())
                .unwrap_or(f64::INFINITY);
            if lowest > t {
                notes.push(format!(
                    "the truth file's lowest Jaccard is {lowest:.3}, above t = {t}: pairs \
                     between t and {lowest:.3} are missing, so recall@t counts only the pairs \
                     at or above {lowest:.3}"
                ));
            }
            notes.push(
                "truth pairs hold only pairs at or above the join threshold: recall@t is the \
                 expected recall on them; expected candidates and precision count only those \
                 pairs, not the many dissimilar pairs a banding also lets through"
                    .to_string(),
            );
            (Some(path.display().to_string()), Some(values))
        }
        (Some(path), _) => {
            let values = read_similarities(path, false)?;
            (Some(path.display().to_string()), Some(values))
        }
        (None, Some(path)) => {
            let values = read_similarities(path, true)?;
            (Some(path.display().to_string()), Some(values))
        }
        (None, None) => (None, None),
    };
    let distribution = match (distribution, args.scan_banding) {
        (Some(values), Some(scan)) => {
            // A pair with similarity s was found with probability P₀(s); weighting it by
            // 1/P₀(s) makes every sum over the found pairs an unbiased estimate of the same
            // sum over all pairs (Horvitz & Thompson, JASA 1952).
            let mut impossible = 0usize;
            let weighted: Vec<(f64, f64)> = values
                .iter()
                .filter_map(|&s| {
                    let p0 = candidate_probability(s, scan.bands, scan.rows);
                    if p0 > 0.0 {
                        Some((s, 1.0 / p0))
                    } else {
                        impossible += 1;
                        None
                    }
                })
                .collect();
            notes.push(format!(
                "each pair weighted by 1/P₀(s) for the scan's {} × {} banding: the corpus \
                 columns estimate all pairs of the corpus; rare low-similarity pairs carry \
                 large weights, so those estimates are noisy",
                scan.bands, scan.rows
            ));
            if impossible > 0 {
                notes.push(format!(
                    "{impossible} pairs with P₀(s) = 0 (similarity 0) were left out"
                ));
            }
            Some(SimilarityDistribution::from_weighted(weighted))
        }
        (values, _) => values.map(|v| SimilarityDistribution::from_similarities(&v)),
    };
    if args.budget.is_some() && distribution.is_none() {
        return Err(Error::usage(
            "--budget needs pair similarities: give --pairs FILE or --similarities FILE",
        ));
    }
    if let Some(b) = args.budget
        && !(b >= 0.0 && b.is_finite())
    {
        return Err(Error::usage(format!(
            "--budget must be a non-negative number of pairs, got {b}"
        )));
    }

    let mut rows = Vec::new();
    let mut not_found = Vec::new();
    let make_row = |criterion: &'static str, description: String, b: usize, r: usize| {
        let curve = summarize(b, r, t);
        let corpus = distribution.as_ref().map(|d| corpus_estimate(d, b, r, t));
        let mut warnings = Vec::new();
        if b * r < k {
            warnings.push(format!(
                "uses {} of {k} permutations: {} computed but never banded",
                b * r,
                k - b * r
            ));
        }
        if curve.probability_at_threshold < 0.5 {
            warnings.push(format!(
                "P(t = {t}) = {:.1} %: most pairs at the threshold are missed",
                100.0 * curve.probability_at_threshold
            ));
        }
        TuneRow {
            criterion,
            description,
            curve,
            unused_permutations: k - b * r,
            corpus,
            warnings,
        }
    };

    if let (Some(d), Some(budget)) = (&distribution, args.budget) {
        match best_recall_within_budget(d, k, t, budget) {
            Some((b, r, _)) => rows.push(make_row(
                "budget",
                format!("highest expected recall at t with at most {budget} expected candidates"),
                b,
                r,
            )),
            None if d.at_or_above(t) == 0.0 => not_found.push(format!(
                "budget: no pair in the similarities reaches t = {t}, so recall is undefined"
            )),
            None => not_found.push(format!(
                "budget: every banding with b·r ≤ {k} expects more than {budget} candidates"
            )),
        }
    }
    if !constraints.is_empty() {
        let description = describe_constraints(&constraints);
        match constraint_search(k, &constraints).first() {
            Some(&(b, r)) => rows.push(make_row("constraints", description, b, r)),
            None => not_found.push(format!(
                "constraints: no banding with b·r ≤ {k} meets {description}; \
                 loosen a bound or raise --num-perm"
            )),
        }
    }
    match sharpest_with_probability_at(k, t, args.min_recall) {
        Some((b, r)) => rows.push(make_row(
            "recall",
            format!(
                "P(t) ≥ {}, then the least false-positive area",
                args.min_recall
            ),
            b,
            r,
        )),
        None => not_found.push(format!(
            "recall: no banding with b·r ≤ {k} reaches P({t}) ≥ {}",
            args.min_recall
        )),
    }
    let (b, r) = datasketch_optimal_params(t, k, args.fp_weight, args.fn_weight);
    rows.push(make_row(
        "datasketch",
        format!(
            "datasketch's pick: min {}·∫₀ᵗP + {}·∫ₜ¹(1−P) (uniform similarities)",
            args.fp_weight, args.fn_weight
        ),
        b,
        r,
    ));
    for g in &args.banding {
        rows.push(make_row(
            "given",
            "the banding given with --banding".to_string(),
            g.bands,
            g.rows,
        ));
    }

    let chosen_row = &rows[0];
    let chosen = chosen_row.criterion;
    let export = args
        .for_tool
        .map(|tool| export_for(tool, chosen_row, k, t, args.shingle));

    if args.pairs.is_some() && args.scan_banding.is_none() {
        notes.push(
            "pairs from a scan hold only the pairs that scan's banding found (and kept at its \
             --threshold): expected candidates and recall count those pairs, not pairs it missed; \
             give --scan-banding BxR to correct for the missed ones"
                .to_string(),
        );
    }
    let corpus = match (corpus, &distribution) {
        (Some(source), Some(d)) => Some(CorpusInfo {
            source,
            pairs: d.total(),
            pairs_at_or_above_threshold: d.at_or_above(t),
        }),
        _ => None,
    };
    Ok(TuneReport {
        num_perm: k,
        threshold: t,
        fp_weight: args.fp_weight,
        fn_weight: args.fn_weight,
        min_recall: args.min_recall,
        constraints,
        corpus,
        rows,
        not_found,
        chosen,
        export,
        notes,
    })
}

fn describe_constraints(c: &Constraints) -> String {
    let mut parts = Vec::new();
    for b in &c.reject {
        parts.push(format!("P({}) ≤ {}", b.similarity, percent(b.probability)));
    }
    for b in &c.accept {
        parts.push(format!("P({}) ≥ {}", b.similarity, percent(b.probability)));
    }
    parts.join(", ") + ", fewest hashes, then steepest"
}

/// A probability as a percentage with enough digits to tell 99.6 % from 99.63 %.
fn percent(p: f64) -> String {
    let v = 100.0 * p;
    if (0.999995..1.0).contains(&p) {
        return "> 99.999 %".to_string();
    }
    if p > 0.0 && p < 0.000005 {
        return "< 0.001 %".to_string();
    }
    if v != 0.0 && !(0.1..=99.9).contains(&v) && v != 100.0 {
        format!("{v:.3} %")
    } else {
        format!("{v:.2} %")
    }
}

/// A pair count: whole numbers as such, weighted (estimated) counts rounded to one decimal.
fn count(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v}")
    } else {
        format!("≈{v:.1}")
    }
}

/// Reads pair similarities from a pair file (CSV or JSON Lines with a `jaccard` column or
/// field, possibly .gz/.zst, `-` for stdin); with `plain_list`, also one number per line.
/// Every value must be a number in [0, 1].
pub fn read_similarities(path: &Path, plain_list: bool) -> Result<Vec<f64>> {
    crate::pairfile::read_similarities(path, plain_list)
}

fn render_table(report: &TuneReport) -> String {
    let mut out = String::new();
    let t = report.threshold;
    let _ = writeln!(
        out,
        "K = {} permutations, threshold t = {t}{}",
        report.num_perm,
        report
            .corpus
            .as_ref()
            .map(|c| format!(
                ", {} pairs from {} ({} at or above t)",
                count(c.pairs),
                c.source,
                count(c.pairs_at_or_above_threshold)
            ))
            .unwrap_or_default()
    );
    let corpus = report.corpus.is_some();
    let mut header = format!(
        "{:<12} {:>4} {:>4} {:>6} {:>9} {:>9} {:>7} {:>7} {:>7}",
        "criterion", "b", "r", "hashes", "steepest", "P(t)", "s@10%", "s@50%", "s@90%"
    );
    if corpus {
        let _ = write!(
            header,
            " {:>12} {:>9} {:>10}",
            "exp. cands", "recall@t", "precision"
        );
    }
    let _ = writeln!(out, "{header}");
    for row in &report.rows {
        let c = &row.curve;
        let mut line = format!(
            "{:<12} {:>4} {:>4} {:>6} {:>9.4} {:>9} {:>7.4} {:>7.4} {:>7.4}",
            row.criterion,
            c.bands,
            c.rows,
            c.hashes,
            c.steepest_point,
            percent(c.probability_at_threshold),
            c.similarity_at_10,
            c.similarity_at_50,
            c.similarity_at_90
        );
        if let Some(e) = &row.corpus {
            let opt = |v: Option<f64>| v.map(percent).unwrap_or_else(|| "n/a".to_string());
            let _ = write!(
                line,
                " {:>12.1} {:>9} {:>10}",
                e.expected_candidates,
                opt(e.expected_recall),
                opt(e.expected_precision)
            );
        }
        let _ = writeln!(out, "{line}");
        let _ = writeln!(out, "    {}", row.description);
        for w in &row.warnings {
            let _ = writeln!(out, "    warning: {w}");
        }
    }
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
            tool_name(export.tool),
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
    out
}

fn render_csv(report: &TuneReport) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let corpus = report.corpus.is_some();
    let mut header = vec![
        "criterion",
        "bands",
        "rows",
        "hashes",
        "unused_permutations",
        "steepest_point",
        "steepest_slope",
        "approximate_threshold",
        "threshold",
        "probability_at_threshold",
        "similarity_at_10",
        "similarity_at_50",
        "similarity_at_90",
        "false_positive_area",
        "false_negative_area",
    ];
    if corpus {
        header.extend([
            "expected_candidates",
            "expected_recall",
            "expected_precision",
        ]);
    }
    header.push("warnings");
    let io = |e: csv::Error| Error::usage(e.to_string());
    w.write_record(&header).map_err(io)?;
    for row in &report.rows {
        let c = &row.curve;
        let mut rec = vec![
            row.criterion.to_string(),
            c.bands.to_string(),
            c.rows.to_string(),
            c.hashes.to_string(),
            row.unused_permutations.to_string(),
            c.steepest_point.to_string(),
            c.steepest_slope.to_string(),
            c.approximate_threshold.to_string(),
            c.threshold.to_string(),
            c.probability_at_threshold.to_string(),
            c.similarity_at_10.to_string(),
            c.similarity_at_50.to_string(),
            c.similarity_at_90.to_string(),
            c.false_positive_area.to_string(),
            c.false_negative_area.to_string(),
        ];
        if let Some(e) = &row.corpus {
            let opt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
            rec.extend([
                e.expected_candidates.to_string(),
                opt(e.expected_recall),
                opt(e.expected_precision),
            ]);
        }
        rec.push(row.warnings.join("; "));
        w.write_record(&rec).map_err(io)?;
    }
    let bytes = w.into_inner().map_err(|e| Error::usage(e.to_string()))?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}

fn tool_name(tool: Tool) -> &'static str {
    match tool {
        Tool::Datatrove => "datatrove",
        Tool::TextDedup => "text-dedup",
        Tool::Datasketch => "datasketch",
        Tool::Spark => "Spark MLlib",
        Tool::Nemo => "NeMo Curator",
    }
}

/// The chosen banding in `tool`'s own parameters, with what it cannot express.
pub fn export_for(
    tool: Tool,
    row: &TuneRow,
    num_perm: usize,
    threshold: f64,
    shingle: ShingleKind,
) -> ToolExport {
    use serde_json::json;
    let (b, r) = (row.curve.bands, row.curve.rows);
    let mut notes = Vec::new();
    let word_ngram_note = |tool: &str, n: usize| match shingle {
        ShingleKind::Word(_) => None,
        ShingleKind::Char(k) => Some(format!(
            "{tool} shingles words, not characters: it cannot express char:{k} shingles. \
             Jaccard values (and so the right threshold) differ between the two; re-run \
             `lshscope scan --shingle word:{n}` on your data before trusting this banding"
        )),
    };
    let (parameters, snippet) = match tool {
        Tool::Datatrove => {
            let n = word_size(shingle);
            notes.extend(word_ngram_note("datatrove", n));
            notes.push(format!(
                "datatrove computes exactly num_buckets × hashes_per_bucket = {} hashes; \
                 there is no separate num_perm",
                b * r
            ));
            (
                vec![
                    ("n_grams".to_string(), json!(n)),
                    ("num_buckets".to_string(), json!(b)),
                    ("hashes_per_bucket".to_string(), json!(r)),
                ],
                format!(
                    "from datatrove.pipeline.dedup.minhash import MinhashConfig\n\
                     config = MinhashConfig(n_grams={n}, num_buckets={b}, hashes_per_bucket={r})"
                ),
            )
        }
        Tool::TextDedup => {
            let n = word_size(shingle);
            notes.extend(word_ngram_note("text-dedup", n));
            notes.push(
                "with --b and --r given, text-dedup skips its own datasketch-style optimisation \
                 (which would pick from --threshold alone)"
                    .to_string(),
            );
            (
                vec![
                    ("num_perm".to_string(), json!(num_perm)),
                    ("b".to_string(), json!(b)),
                    ("r".to_string(), json!(r)),
                    ("ngram".to_string(), json!(n)),
                    ("threshold".to_string(), json!(threshold)),
                ],
                format!(
                    "python -m text_dedup.minhash --num_perm {num_perm} --b {b} --r {r} \
                     --ngram {n} --threshold {threshold} ..."
                ),
            )
        }
        Tool::Datasketch => {
            notes.push(
                "with params=(b, r) datasketch ignores `threshold` and `weights`; it requires \
                 b·r ≤ num_perm"
                    .to_string(),
            );
            notes.push(format!(
                "datasketch hashes whatever tokens you pass to MinHash.update: build the {} \
                 shingles yourself",
                shingle
            ));
            (
                vec![
                    ("num_perm".to_string(), json!(num_perm)),
                    ("params".to_string(), json!([b, r])),
                ],
                format!(
                    "from datasketch import MinHash, MinHashLSH\n\
                     lsh = MinHashLSH(num_perm={num_perm}, params=({b}, {r}))\n\
                     # each document: m = MinHash(num_perm={num_perm}); m.update(shingle.encode()) ..."
                ),
            )
        }
        Tool::Spark => {
            let distance = 1.0 - threshold;
            if r > 1 {
                // The closest Spark can do: r = 1 with enough tables to reach the same P(t).
                let target = row.curve.probability_at_threshold.min(1.0 - 1e-12);
                let tables = ((1.0 - target).ln() / (1.0 - threshold).ln())
                    .ceil()
                    .max(1.0);
                let tables = tables as usize;
                notes.push(format!(
                    "Spark's MinHashLSH cannot express {b} × {r}: each of its numHashTables is a \
                     single MinHash (r = 1, OR only), with no AND of rows inside a band"
                ));
                let low = threshold / 2.0;
                notes.push(format!(
                    "the nearest Spark curve reaching the same P(t) = {} is numHashTables={tables} \
                     (r = 1), which also makes pairs at similarity {low} candidates with P = {} \
                     (vs {} for {b} × {r}); the similarity join then verifies them all",
                    percent(row.curve.probability_at_threshold),
                    percent(candidate_probability(low, tables, 1)),
                    percent(candidate_probability(low, b, r))
                ));
                notes.push(
                    "to get AND inside bands, concatenate r MinHash values per band yourself and \
                     join on the band keys"
                        .to_string(),
                );
            }
            notes.push(format!(
                "approxSimilarityJoin takes a Jaccard *distance* threshold: 1 − t = {distance}"
            ));
            notes.push(format!(
                "Spark hashes sparse feature vectors: build {} shingles (e.g. NGram + \
                 HashingTF) before MinHashLSH",
                shingle
            ));
            let tables = if r == 1 {
                b
            } else {
                let target = row.curve.probability_at_threshold.min(1.0 - 1e-12);
                ((1.0 - target).ln() / (1.0 - threshold).ln())
                    .ceil()
                    .max(1.0) as usize
            };
            (
                vec![("numHashTables".to_string(), json!(tables))],
                format!(
                    "from pyspark.ml.feature import MinHashLSH\n\
                     mh = MinHashLSH(inputCol=\"features\", outputCol=\"hashes\", numHashTables={tables})\n\
                     model = mh.fit(df)\n\
                     pairs = model.approxSimilarityJoin(df, df, {distance}, distCol=\"JaccardDistance\")"
                ),
            )
        }
        Tool::Nemo => {
            let k = match shingle {
                ShingleKind::Char(k) => k,
                ShingleKind::Word(n) => {
                    notes.push(format!(
                        "NeMo Curator shingles characters (char_ngrams): it cannot express \
                         word:{n} shingles; re-measure with `lshscope scan --shingle char:K`"
                    ));
                    24
                }
            };
            notes.push(format!(
                "NeMo computes num_bands × minhashes_per_band = {} minhashes; older releases \
                 (FuzzyDuplicatesConfig) call these num_buckets and hashes_per_bucket",
                b * r
            ));
            (
                vec![
                    ("char_ngrams".to_string(), json!(k)),
                    ("num_bands".to_string(), json!(b)),
                    ("minhashes_per_band".to_string(), json!(r)),
                ],
                format!(
                    "from nemo_curator.stages.deduplication.fuzzy.workflow import FuzzyDeduplicationWorkflow\n\
                     workflow = FuzzyDeduplicationWorkflow(..., char_ngrams={k}, num_bands={b}, minhashes_per_band={r})\n\
                     # older API: FuzzyDuplicatesConfig(..., char_ngrams={k}, num_buckets={b}, hashes_per_bucket={r}, jaccard_threshold={threshold})"
                ),
            )
        }
    };
    ToolExport {
        tool,
        criterion: row.criterion,
        parameters,
        snippet,
        notes,
    }
}

/// The word n-gram size to print for tools that only shingle words.
fn word_size(shingle: ShingleKind) -> usize {
    match shingle {
        ShingleKind::Word(n) => n,
        // No character-to-word equivalence exists; 5 words is datatrove's default.
        ShingleKind::Char(_) => 5,
    }
}
