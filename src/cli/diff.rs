//! `lshscope diff INPUT ID_A ID_B`: what differs between two documents of a corpus, aligned
//! word by word, with their Jaccard and a summary; printed as text or written as a text or
//! HTML file to attach to a ticket.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::{CorpusArgs, IndexArgs, ProfileArg, ProgressBar, show_progress};
use lshscope_core::corpus::read_corpus;
use lshscope_core::diff::export::{ExportFormat, PairInfo, render, write_diff};
use lshscope_core::diff::{
    DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT, DiffOptions, Folding, Granularity, diff_texts,
};
use lshscope_core::text::{ShingleKind, ShingleOptions, Shingler};
use lshscope_core::util::numfmt::thousands;
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Id of the first document (a).
    pub id_a: String,
    /// Id of the second document (b).
    pub id_b: String,
    /// Write the diff to FILE instead of printing it: an HTML page if FILE ends in .html or
    /// .htm, text otherwise (--output-format overrides).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// text: `[-deleted-]{+inserted+}` hunks with context; html: a standalone page with the
    /// two texts side by side [default: from the --output name, else text].
    #[arg(long, value_enum, value_name = "text|html")]
    pub output_format: Option<DiffFormat>,
    /// Compare word by word, character by character, or `auto`: characters when a text is
    /// written without spaces (Chinese, Japanese, Thai, …), else words.
    #[arg(long, value_enum, default_value_t = GranularityArg::Auto, value_name = "auto|words|chars")]
    pub by: GranularityArg,
    /// Compare at most N words (characters) of each text; the rest is reported as not
    /// compared.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TOKENS)]
    pub max_words: usize,
    /// Time budget of the alignment in milliseconds, and as much again for the search for
    /// moved blocks with edits; past it the result is coarser (and says so). 0: no budget.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_TIMEOUT.as_millis() as u64)]
    pub timeout_ms: u64,
    /// Shingles for the Jaccard shown with the diff: `char:K` or `word:N`
    /// [default: char:5, or the --profile tool's own].
    #[arg(long, value_name = "char:K|word:N")]
    pub shingle: Option<ShingleKind>,
    /// Keep case when shingling and comparing (by default both lowercase, so a difference
    /// of case alone is none).
    #[arg(long)]
    pub no_lowercase: bool,
    /// Apply Unicode NFKC normalization before shingling and comparing.
    #[arg(long)]
    pub nfkc: bool,
    /// Remove punctuation before shingling and comparing.
    #[arg(long)]
    pub strip_punct: bool,
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Seed for --sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress or warnings on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GranularityArg {
    Auto,
    Words,
    Chars,
}

pub fn run(args: DiffArgs) -> Result<i32> {
    if args.max_words == 0 {
        return Err(Error::usage(
            "--max-words must be at least 1: it is how many words of each text are compared",
        ));
    }
    let shingle = IndexArgs {
        shingle: args.shingle,
        no_lowercase: args.no_lowercase,
        nfkc: args.nfkc,
        strip_punct: args.strip_punct,
        profile: args.profile.clone(),
        num_perm: 1,
        seed: args.seed,
        family: None,
    }
    .shingle_options()?;
    if let Some(path) = &args.output {
        lshscope_core::io::atomic::check_writable(path, "--output")?;
    }
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let input = &args.corpus.input;
    let (corpus, mut read) = read_corpus(input, &args.corpus.read_options(args.seed), &progress)?;
    progress.finish();
    drop(bar);
    super::warn_about_read(args.quiet, &args.corpus, &mut read, true)?;
    let position = |id: &str| {
        corpus.position_of(id).ok_or_else(|| {
            Error::input(
                input,
                0,
                format!(
                    "no document has the id `{id}` ({} {} read; ids come from the id \
                     column or field, else they are row numbers: see --id-column, --id-field)",
                    thousands(corpus.len() as u64),
                    lshscope_core::util::numfmt::for_count(
                        corpus.len() as u64,
                        "document",
                        "documents"
                    ),
                ),
            )
        })
    };
    let (a, b) = (position(&args.id_a)?, position(&args.id_b)?);
    let (left, right) = (corpus.text(a), corpus.text(b));
    let options = DiffOptions {
        granularity: match args.by {
            GranularityArg::Auto => Granularity::Auto,
            GranularityArg::Words => Granularity::Words,
            GranularityArg::Chars => Granularity::Chars,
        },
        max_tokens: args.max_words,
        timeout: (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms)),
        // The diff sees the texts as the shingles do: what shingling folds away is no
        // difference for Jaccard, so it is none here.
        folding: Folding::of(&shingle),
    };
    let diff = diff_texts(left, right, &options);
    let shingling = shingle.kind.to_string();
    let source = input.display().to_string();
    let info = PairInfo {
        left_id: &args.id_a,
        right_id: &args.id_b,
        jaccard: Some((jaccard(left, right, &shingle), &shingling)),
        source: Some(&source),
    };
    let format = match (args.output_format, &args.output) {
        (Some(DiffFormat::Text), _) => ExportFormat::Text,
        (Some(DiffFormat::Html), _) => ExportFormat::Html,
        (None, Some(path)) => ExportFormat::from_path(path),
        (None, None) => ExportFormat::Text,
    };
    match &args.output {
        Some(path) => {
            write_diff(path, format, &diff, left, right, &info)?;
            if !args.quiet {
                eprintln!("{}: {}", path.display(), diff.describe());
            }
            Ok(0)
        }
        None => {
            let text = render(format, &diff, left, right, &info);
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                Ok(()) => Ok(0),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
                Err(e) => Err(Error::io("<stdout>", e)),
            }
        }
    }
}

/// Exact Jaccard of the two texts' shingle sets, shingled as the index would.
fn jaccard(left: &str, right: &str, options: &ShingleOptions) -> f64 {
    let mut shingler = Shingler::new(options.clone());
    let mut set = |text: &str| {
        let mut hashes = Vec::new();
        shingler.hashes(text, &mut hashes);
        hashes.sort_unstable();
        hashes.dedup();
        hashes
    };
    let (a, b) = (set(left), set(right));
    lshscope_core::minhash::similarity::jaccard(&a, &b)
}
