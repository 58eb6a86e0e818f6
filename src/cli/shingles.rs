//! `lshscope shingles INPUT`: the shingle-size advisor. Measures char k = 2…9 and word
//! n = 1…5 on the corpus and recommends one, with the numbers behind the choice.

use std::fmt::Write as _;
use std::io::Write;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::{CorpusArgs, ProgressBar, show_progress};
use lshscope_core::analysis::shingle_advice::{
    AdviceOptions, BACKGROUND_P99_LIMIT, CHAR_SIZES, COMMON_DOCUMENT_SHARE, DEFAULT_PAIRS,
    RELATED_JACCARD, ShingleAdvice, advise_shingles,
};
use lshscope_core::corpus::{ReadReport, read_corpus};
use lshscope_core::text::{ShingleKind, ShingleOptions};
use lshscope_core::util::numfmt::{for_count, thousands};
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct ShinglesArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Keep case (by default text is lowercased).
    #[arg(long)]
    pub no_lowercase: bool,
    /// Apply Unicode NFKC normalization first.
    #[arg(long)]
    pub nfkc: bool,
    /// Remove punctuation (every character neither alphanumeric nor whitespace).
    #[arg(long)]
    pub strip_punct: bool,
    /// Random document pairs whose Jaccard is measured at every size (the same pairs for
    /// every size).
    #[arg(long, default_value_t = DEFAULT_PAIRS, value_name = "M")]
    pub pairs: usize,
    /// Measure at most N documents: a larger input is sampled uniformly (reproducible with
    /// --seed; --sample overrides). 0 measures every document.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub max_docs: usize,
    /// Seed for the document sample and the random pairs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How to print the figures.
    #[arg(long, value_enum, default_value_t = AdviceFormat::Table)]
    pub output_format: AdviceFormat,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AdviceFormat {
    Table,
    Json,
    Csv,
}

/// The JSON document: where the figures come from, and the advice.
#[derive(Serialize)]
struct Report<'a> {
    input: String,
    read: &'a ReadReport,
    seed: u64,
    #[serde(flatten)]
    advice: &'a ShingleAdvice,
}

pub fn run(args: ShinglesArgs) -> Result<i32> {
    if args.pairs == 0 {
        return Err(Error::usage(
            "--pairs must be at least 1: the advisor compares sizes on random pairs",
        ));
    }
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut read_options = args.corpus.read_options(args.seed);
    if read_options.sample.is_none() && args.max_docs > 0 {
        read_options.sample = Some(args.max_docs);
    }
    let (corpus, mut read) = read_corpus(&args.corpus.input, &read_options, &progress)?;
    // The advice is about texts only: ids, repeated or not, play no part in it.
    super::warn_about_read(args.quiet, &args.corpus, &mut read, false)?;
    let options = AdviceOptions {
        normalization: ShingleOptions {
            kind: ShingleKind::Char(5),
            lowercase: !args.no_lowercase,
            nfkc: args.nfkc,
            strip_punct: args.strip_punct,
            ..ShingleOptions::default()
        },
        pairs: args.pairs,
        seed: args.seed,
    };
    let advice = advise_shingles(&corpus, &options, &progress).map_err(|e| match e {
        Error::Usage(msg) => Error::usage(format!("{}: {msg}", args.corpus.input.display())),
        other => other,
    })?;
    progress.finish();
    drop(bar);
    let input = args.corpus.input.display().to_string();
    let text = match args.output_format {
        AdviceFormat::Table => render_table(&advice, &read, &input, args.seed),
        AdviceFormat::Json => {
            let report = Report {
                input,
                read: &read,
                seed: args.seed,
                advice: &advice,
            };
            serde_json::to_string_pretty(&report).map_err(|e| Error::internal(e.to_string()))?
                + "\n"
        }
        AdviceFormat::Csv => render_csv(&advice),
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(Error::io("<stdout>", e)),
    }
}

/// The table as printed: where the figures come from, one row per size, the recommendation.
pub fn render_table(advice: &ShingleAdvice, read: &ReadReport, input: &str, seed: u64) -> String {
    let mut out = String::new();
    let sampled = if read.rows_read > read.documents {
        format!(
            " (a uniform sample of {} read)",
            thousands(read.rows_read as u64)
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{input}: {} {} with text{sampled}, {} random {} (seed {seed})",
        thousands(advice.documents as u64),
        for_count(advice.documents as u64, "document", "documents"),
        thousands(advice.pairs as u64),
        for_count(advice.pairs as u64, "pair", "pairs"),
    );
    if advice.related_pairs > 0 {
        let _ = writeln!(
            out,
            "  {} of them related (Jaccard {} or more at {}: near copies, or one template's \
             members) and left out of the figures below",
            thousands(advice.related_pairs as u64),
            RELATED_JACCARD,
            ShingleKind::Char(*CHAR_SIZES.end()),
        );
    }
    if advice.documents_without_text > 0 {
        let _ = writeln!(
            out,
            "  {} {} no text after normalization and {} left out",
            thousands(advice.documents_without_text as u64),
            for_count(
                advice.documents_without_text as u64,
                "document has",
                "documents have"
            ),
            for_count(advice.documents_without_text as u64, "is", "are")
        );
    }
    let _ = writeln!(out);
    let common = format!("in >{}% of docs", COMMON_DOCUMENT_SHARE * 100.0);
    let _ = writeln!(
        out,
        "{:<9} {:>11} {:>9} {:>16} {:>8} {:>8}",
        "shingles", "distinct", "per doc", common, "mean J", "p99 J"
    );
    for s in &advice.sizes {
        let mark = if s.shingle == advice.recommended {
            "  ◀ recommended"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:<9} {:>11} {:>9.1} {:>15.1}% {:>8.3} {:>8.3}{mark}",
            s.shingle.to_string(),
            thousands(s.distinct as u64),
            s.mean_per_doc,
            100.0 * s.common_share,
            s.mean_jaccard,
            s.p99_jaccard,
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "recommended: --shingle {}", advice.recommended);
    for line in wrap(&advice.reason, 96) {
        let _ = writeln!(out, "  {line}");
    }
    let legend = format!(
        "per doc: distinct shingles of a mean document. {common}: share of the distinct \
         shingles found in more than {}% of the documents. mean J, p99 J: mean and 99th \
         percentile Jaccard of random pairs (unrelated pairs should stay at or below {}).",
        COMMON_DOCUMENT_SHARE * 100.0,
        BACKGROUND_P99_LIMIT
    );
    let _ = writeln!(out);
    for line in wrap(&legend, 98) {
        let _ = writeln!(out, "{line}");
    }
    out
}

fn render_csv(advice: &ShingleAdvice) -> String {
    let mut out = String::from(
        "shingle,distinct,mean_per_doc,common_share,mean_jaccard,p99_jaccard,recommended\n",
    );
    for s in &advice.sizes {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{}",
            s.shingle,
            s.distinct,
            s.mean_per_doc,
            s.common_share,
            s.mean_jaccard,
            s.p99_jaccard,
            s.shingle == advice.recommended
        );
    }
    out
}

/// Greedy word wrap at `width` columns.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
