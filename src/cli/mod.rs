//! Command-line interface: clap definitions and the glue from arguments to engine calls.
//! Each subcommand lives in its own file with its `Args` struct and its `run` function.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use lshscope_core::corpus::{ColumnSpec, InputFormat, Quote, ReadOptions, ReadReport};
use lshscope_core::jobs::{Phase, Progress};
use lshscope_core::minhash::{IndexOptions, SketchFamily};
use lshscope_core::pairs::OutputTarget;
use lshscope_core::pipeline::{Loaded, Pipeline};
use lshscope_core::text::{Profile, ShingleKind, ShingleOptions};
use lshscope_core::{Error, Result};

mod bench;
mod dedup;
mod diff;
pub mod errors;
mod explore;
mod generate;
mod index;
mod keep_by;
mod learn;
mod lsh_args;
mod outputs;
pub mod plot;
mod progress;
mod scan;
mod shingles;
mod summary;
mod truth;
pub mod tune;

pub use progress::ProgressBar;

#[derive(Debug, Parser)]
#[command(
    name = "lshscope",
    version,
    about = "Workbench for MinHash + LSH near-duplicate detection",
    long_about = "Workbench for MinHash + LSH near-duplicate detection: find candidate pairs, \
                  tune bands and rows, and explore why pairs collide.\n\nWith no subcommand, \
                  opens the explorer on the embedded sample corpus; `lshscope FILE [OPTIONS]` \
                  opens it on FILE, as `lshscope explore FILE [OPTIONS]` does."
,
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Explore interactively: live S-curve, similarity histogram, side-by-side pair viewer.
    Explore(explore::ExploreArgs),
    /// Find near-duplicate pairs: shingle, MinHash, band, verify, write the pairs.
    Scan(scan::ScanArgs),
    /// Deduplicate: clusters of near-duplicates, the document each keeps, the ids to drop,
    /// and which clusters are chains.
    Dedup(dedup::DedupArgs),
    /// An index file to add documents to and query: LSH as an online structure.
    Index(index::IndexCommandArgs),
    /// Choose bands and rows: datasketch's pick, recall targets, constraints, corpus-weighted.
    Tune(tune::TuneArgs),
    /// Show what differs between two documents: aligned word by word, with their Jaccard and
    /// a summary, as text or an HTML page.
    Diff(diff::DiffArgs),
    /// Exact similarity join (every pair with Jaccard ≥ T), or a sample of pair similarities.
    Truth(truth::TruthArgs),
    /// Export S-curves and similarity histograms as SVG or PNG.
    Plot(plot::PlotArgs),
    /// Generate a test corpus (pseudo-words, job ads or template families) with planted
    /// near-duplicates at chosen Jaccard levels, plus its truth.
    Gen(generate::GenArgs),
    /// Measure the pipeline's throughput and peak memory on a generated corpus.
    Bench(bench::BenchArgs),
    /// Recommend a shingle size: per char and word size, how common shingles are and how
    /// similar random pairs look.
    Shingles(shingles::ShinglesArgs),
    /// Teaching walkthrough: shingles, matrices, signatures, one-permutation hashing, bands and
    /// the S-curve, step by step.
    Learn(learn::LearnArgs),
    /// Print a shell completion script to stdout (e.g. `lshscope completions bash`).
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout: `lshscope man > lshscope.1`.
    Man,
}

/// The exit codes, shown after `--help` and documented in the README.
const EXIT_CODES: &str = "\
Exit codes:
  0    success; also when the reader of stdout stops early (`lshscope scan … | head`)
  1    a failure that is not the input's fault: reading or writing failed part-way (disk
       full, device error), or a budget of memory or time refused the job (--max-seconds)
  2    bad usage or bad input: the message names the option, the path that cannot be
       opened, or the file and line
  130  interrupted (Ctrl-C): the running job stopped, no half-written output is left; the
       explorer quits on Ctrl-C with 130 too (q quits with 0), labels already saved";

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The command line with `explore` put before a first argument that names a file rather
/// than a subcommand: `lshscope corpus.csv` opens the explorer on it, as `lshscope explore
/// corpus.csv` does. A first argument counts as a file when it exists or has a dot or a path
/// separator in it (so a missing file gets the explorer's "not found" with its path); any
/// other word is left to clap, which refuses a misspelt subcommand with a suggestion.
pub fn explore_a_file_given_first(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = args.get(1) else {
        return args;
    };
    let text = first.to_string_lossy();
    let file = Path::new(first).exists() || text.contains(['.', '/', std::path::MAIN_SEPARATOR]);
    if text.starts_with('-') || !file {
        return args;
    }
    // Only a word that could be a file costs building the command to ask it (a file named
    // like a subcommand stays the subcommand).
    let subcommand = text == "help"
        || Cli::command()
            .get_subcommands()
            .any(|c| c.get_name() == text || c.get_all_aliases().any(|alias| alias == text));
    if !subcommand {
        args.insert(1, "explore".into());
    }
    args
}

/// Runs the parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> lshscope_core::Result<i32> {
    // The explorer reads Ctrl-C as a key (the terminal is in raw mode); everything else
    // cancels its running job on SIGINT.
    if !matches!(cli.command, None | Some(Command::Explore(_))) {
        install_interrupt_handler();
    }
    match cli.command {
        Some(Command::Completions(args)) => print_completions(args.shell),
        Some(Command::Man) => print_man(),
        Some(Command::Scan(args)) => scan::run(args),
        Some(Command::Dedup(args)) => dedup::run(args),
        Some(Command::Gen(args)) => generate::run(args),
        Some(Command::Explore(args)) => explore::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Index(args)) => index::run(args),
        Some(Command::Plot(args)) => plot::run(args),
        Some(Command::Truth(args)) => truth::run(args),
        Some(Command::Diff(args)) => diff::run(args),
        Some(Command::Shingles(args)) => shingles::run(args),
        Some(Command::Learn(args)) => learn::run(args),
        None => explore::run_sample(),
    }
}

/// The job Ctrl-C cancels: the [`Progress`] of the command's running work.
static INTERRUPTIBLE: Mutex<Option<Progress>> = Mutex::new(None);

/// A progress handle for a command's job, registered so that Ctrl-C cancels it: the engine
/// stops at its next check, atomic outputs drop their temporary files, and the command exits
/// with 130. A second Ctrl-C (or one while no job is registered) exits at once.
pub(crate) fn new_progress() -> Progress {
    let progress = Progress::new();
    *INTERRUPTIBLE.lock().unwrap_or_else(|e| e.into_inner()) = Some(progress.clone());
    progress
}

fn install_interrupt_handler() {
    // Fails only if a handler is already set (a second `run` in one process): keep that one.
    let _ = ctrlc::set_handler(|| {
        let current = INTERRUPTIBLE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match current {
            Some(p) if !p.is_cancelled() => p.cancel(),
            _ => std::process::exit(130),
        }
    });
}

fn print_completions(shell: clap_complete::Shell) -> Result<i32> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "lshscope", &mut out);
    write_stdout(&out)
}

fn print_man() -> Result<i32> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| Error::io("<man page>", e))?;
    write_stdout(&out)
}

fn write_stdout(bytes: &[u8]) -> Result<i32> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|_| stdout.flush())
        .map_err(|e| Error::io("<stdout>", e))?;
    Ok(0)
}

/// Where documents come from and how to read them (shared by every corpus command).
#[derive(Debug, Clone, Args)]
pub struct CorpusArgs {
    /// Input file or directory; `-` reads stdin. gzip, zstd, bzip2 and xz are decompressed.
    pub input: PathBuf,
    /// Input format; `auto` decides from the extension.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// How to read a corpus besides its format: columns, quoting, sampling (also `tune --corpus`,
/// whose own `--format` is its output's).
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct ReadArgs {
    /// CSV/TSV: the first row is data, not a header.
    #[arg(long)]
    pub no_headers: bool,
    /// CSV/TSV/Parquet column with the text: a header name or a 1-based index [default:
    /// `text`, else the only column that is not an id (several: an error naming them); the
    /// last column without a header].
    #[arg(long, value_name = "NAME|INDEX")]
    pub text_column: Option<ColumnSpec>,
    /// CSV/TSV/Parquet column with the id: a header name or a 1-based index
    /// [default: `id`, else the row number].
    #[arg(long, value_name = "NAME|INDEX")]
    pub id_column: Option<ColumnSpec>,
    /// CSV/TSV quoting: `double` (RFC 4180: `"..."` may hold delimiters, `""` and line
    /// breaks) or `none` (a field is everything between delimiters, quotes kept)
    /// [default: double for CSV, none for TSV].
    #[arg(long, value_enum, value_name = "double|none")]
    pub quote: Option<QuoteArg>,
    /// JSON Lines field with the text [default: text].
    #[arg(long, value_name = "FIELD")]
    pub text_field: Option<String>,
    /// JSON Lines field with the id [default: id, else the line number].
    #[arg(long, value_name = "FIELD")]
    pub id_field: Option<String>,
    /// Name documents by row number (1, 2, …; JSON Lines: line number) even where the input
    /// has an id column or field: for inputs whose ids repeat, which dedup refuses.
    #[arg(long, conflicts_with_all = ["id_column", "id_field"])]
    pub row_ids: bool,
    /// Read only the first N documents.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Keep a uniform random sample of N documents (reproducible with --seed).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Skip malformed rows (and report them) instead of stopping at the first one.
    #[arg(long)]
    pub skip_bad: bool,
    /// Stop with an error wherever reading the input would warn (for pipelines): no
    /// documents, bytes that are not UTF-8, a guessed text column or row-number ids, a first
    /// row read as data, a file that looks like another format, tables inside a directory,
    /// and repeated ids where the output names documents by id.
    #[arg(long)]
    pub strict: bool,
    /// Directory input: include hidden files and directories (names starting with `.`).
    #[arg(long)]
    pub hidden: bool,
    /// Directory input: read files that .gitignore, .ignore or .git/info/exclude exclude.
    #[arg(long)]
    pub no_ignore: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    #[default]
    Auto,
    Text,
    Csv,
    Tsv,
    Jsonl,
    Dir,
    Parquet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QuoteArg {
    Double,
    None,
}

impl CorpusArgs {
    pub fn read_options(&self, seed: u64) -> ReadOptions {
        self.read.read_options(self.format, seed)
    }
}

impl ReadArgs {
    pub fn read_options(&self, format: FormatArg, seed: u64) -> ReadOptions {
        ReadOptions {
            format: match format {
                FormatArg::Auto => InputFormat::Auto,
                FormatArg::Text => InputFormat::Text,
                FormatArg::Csv => InputFormat::Csv,
                FormatArg::Tsv => InputFormat::Tsv,
                FormatArg::Jsonl => InputFormat::Jsonl,
                FormatArg::Dir => InputFormat::Dir,
                FormatArg::Parquet => InputFormat::Parquet,
            },
            has_headers: !self.no_headers,
            text_column: self.text_column.clone(),
            id_column: self.id_column.clone(),
            quote: self.quote.map(|q| match q {
                QuoteArg::Double => Quote::Double,
                QuoteArg::None => Quote::None,
            }),
            text_field: self.text_field.clone(),
            id_field: self.id_field.clone(),
            row_ids: self.row_ids,
            limit: self.limit,
            sample: self.sample,
            seed,
            skip_bad: self.skip_bad,
            strict: self.strict,
            hidden: self.hidden,
            no_ignore: self.no_ignore,
            keep_lines: false,
        }
    }
}

/// Normalization, shingling and MinHash settings (shared by every command that hashes).
#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// Shingles: `char:K` (K Unicode characters) or `word:N` (N words)
    /// [default: char:5, or the --profile tool's own].
    #[arg(long, value_name = "char:K|word:N")]
    pub shingle: Option<ShingleKind>,
    /// Keep case (by default text is lowercased).
    #[arg(long)]
    pub no_lowercase: bool,
    /// Apply Unicode NFKC normalization first.
    #[arg(long)]
    pub nfkc: bool,
    /// Remove punctuation (every character neither alphanumeric nor whitespace).
    #[arg(long)]
    pub strip_punct: bool,
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Number of MinHash permutations K.
    #[arg(long, short = 'k', default_value_t = 128, value_name = "K")]
    pub num_perm: usize,
    /// Seed for the MinHash permutations and for --sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the K signature rows are computed [default: classic]. Against classic, the cheap
    /// families' sketch alone is 2–5× faster, and scan's whole signature phase, which builds
    /// the same shingle sets for every family, 1.5–2× on short texts and about 2× on long ones
    /// (each family's two figures below). n is a text's shingle count. docs/families.md has
    /// the measured curves. An index file of another family is refused; a cache entry of
    /// another family is not used.
    #[arg(long, value_name = "FAMILY", value_parser = family_parser())]
    pub family: Option<SketchFamily>,
}

/// `--family`: the sketch families, each with what it costs and where its S-curve deviates.
pub(crate) fn family_parser() -> impl clap::builder::TypedValueParser<Value = SketchFamily> {
    use clap::builder::{PossibleValue, TypedValueParser};
    let values = SketchFamily::ALL.map(|family| {
        let help = match family {
            SketchFamily::Classic => {
                "K hashes per shingle (n·K multiply-adds): the S-curve's assumption"
            }
            SketchFamily::OnePermutation => {
                "one hash into K bins, on the S-curve; sketch 2–5×, signatures 1.5–2.2×"
            }
            SketchFamily::CMinHash => {
                "one hash, K shifts; sketch 3×, signatures 2×; n < K loses high-J pairs"
            }
        };
        PossibleValue::new(family.name()).help(help)
    });
    clap::builder::PossibleValuesParser::new(values)
        .map(|name| name.parse::<SketchFamily>().expect("a listed family name"))
}

/// `, FAMILY sketches` for a summary line, empty for the default family (so the default's
/// summaries read as they always did).
pub(crate) fn family_note(family: SketchFamily) -> String {
    match family {
        SketchFamily::Classic => String::new(),
        other => format!(", {other} sketches"),
    }
}

/// `--profile`: another tool's normalization and shingling.
#[derive(Debug, Clone, Args)]
pub struct ProfileArg {
    /// Normalize and shingle as this tool does, so that Jaccard here is the tool's:
    /// `datatrove` (simplify_text, spaCy English words, word:5), `text-dedup` (lowercase,
    /// split at non-word characters, word:1, no shingle under 5 tokens), `nemo` (raw text,
    /// char:24), `datasketch` (its README's str.split() words, case kept, word:1), `spark`
    /// (Tokenizer + NGram, word:2). --shingle sets the n-gram size. All reproduce the tool's
    /// shingles exactly on the test fixtures; datatrove's tokenizer is spaCy's English one
    /// only. See docs/tuning.md#profiles.
    #[arg(long, value_name = "TOOL", default_value = "lshscope", value_parser = profile_parser())]
    pub profile: Profile,
}

/// `--output-format` limited to the formats one command writes, so its `--help` and the
/// error for another value list only those (Parquet is for pairs, clusters and drop lists).
pub fn output_format_parser(
    allowed: &'static [lshscope_core::pairs::OutputFormat],
) -> impl clap::builder::TypedValueParser<Value = lshscope_core::pairs::OutputFormat> {
    use clap::builder::{PossibleValue, TypedValueParser};
    let values = allowed
        .iter()
        .map(|f| PossibleValue::new(f.name()).help(f.description()));
    clap::builder::PossibleValuesParser::new(values).map(|name| {
        lshscope_core::pairs::OutputFormat::from_format_name(&name).expect("a listed format name")
    })
}

fn profile_parser() -> impl clap::builder::TypedValueParser<Value = Profile> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Profile::ALL.map(Profile::name))
        .map(|name| name.parse::<Profile>().expect("a listed profile name"))
}

impl ProfileArg {
    /// The shingles to use: `shingle` if given (checked against the profile), else the
    /// profile's own.
    pub fn shingle(&self, shingle: Option<ShingleKind>) -> Result<ShingleKind> {
        let profile = self.profile;
        let kind = shingle.unwrap_or_else(|| profile.default_shingle());
        profile.check_shingle(kind).map_err(|e| {
            Error::usage(format!(
                "--profile {profile} --shingle {kind}: {}",
                e.tokens()
            ))
        })?;
        Ok(kind)
    }
}

impl IndexArgs {
    pub fn shingle_options(&self) -> Result<ShingleOptions> {
        let profile = self.profile.profile;
        if profile != Profile::Lshscope {
            let flags = [
                (self.no_lowercase, "--no-lowercase"),
                (self.nfkc, "--nfkc"),
                (self.strip_punct, "--strip-punct"),
            ];
            if let Some((_, flag)) = flags.iter().find(|(set, _)| *set) {
                return Err(Error::usage(format!(
                    "{flag} cannot be combined with --profile {profile}, which fixes the \
                     normalization to the tool's own; drop one of them"
                )));
            }
        }
        Ok(ShingleOptions {
            kind: self.profile.shingle(self.shingle)?,
            lowercase: !self.no_lowercase,
            nfkc: self.nfkc,
            strip_punct: self.strip_punct,
            profile,
        })
    }

    pub fn index_options(&self) -> Result<IndexOptions> {
        Ok(IndexOptions {
            shingle: self.shingle_options()?,
            num_perm: self.num_perm,
            seed: self.seed,
            family: self.family.unwrap_or_default(),
        })
    }
}

/// Reads and indexes the corpus of a corpus command, and warns about what the read found
/// (repeated ids too when `ids_name_output`, see [`warn_about_read`]).
pub(crate) fn load_corpus(
    run: &mut Pipeline,
    corpus: &CorpusArgs,
    index: &IndexArgs,
    quiet: bool,
    ids_name_output: bool,
) -> Result<Loaded> {
    let mut loaded = run.load(
        &corpus.input,
        &corpus.read_options(index.seed),
        &index.index_options()?,
    )?;
    warn_about_read(quiet, corpus, &mut loaded.read, ids_name_output)?;
    if let Some(warning) = loaded.index.short_texts_warning() {
        warn(quiet, &errors::render_message(&warning));
    }
    Ok(loaded)
}

/// Prints what a corpus read found that did not stop it but the user should know: the
/// reader's own warnings ([`ReadReport::warnings`]: a text column or row-number ids taken by
/// default, a file that looks like another format, no documents) and, when the command's
/// output names documents by id (`ids_name_output`), repeated ids. Every command that reads a
/// corpus calls this once after reading, so each warns alike (and its `--quiet` silences all).
///
/// Under `--strict` the reader has already stopped on its own warnings; repeated ids are
/// this face's to judge (only where the output names documents by id), so they stop the run
/// here.
///
/// The warnings are then put in this command line's words (flags for the engine's settings),
/// so that a JSON report that carries the read report repeats them as they were printed.
pub(crate) fn warn_about_read(
    quiet: bool,
    corpus: &CorpusArgs,
    read: &mut ReadReport,
    ids_name_output: bool,
) -> Result<()> {
    for warning in &mut read.warnings {
        let said = errors::render_message(warning);
        warn(quiet, &said);
        *warning = said.into();
    }
    if ids_name_output && read.duplicate_ids > 0 {
        if corpus.read.strict {
            return Err(Error::usage(format!(
                "{}: {}; --strict stops here",
                corpus.input.display(),
                summary::duplicate_ids_message(read)
            )));
        }
        warn(quiet, &summary::duplicate_ids_message(read));
    }
    Ok(())
}

/// A warning on stderr (none with `--quiet`), drawn over the progress bar's line, which would
/// otherwise stay behind half-drawn.
pub(crate) fn warn(quiet: bool, message: &str) {
    if quiet {
        return;
    }
    let clear_line = if show_progress(quiet) {
        "\r\x1b[2K"
    } else {
        ""
    };
    eprintln!("{clear_line}warning: {message}");
}

/// An error about the file given to `option` (`None` for a positional argument), as the user
/// should read it: the option and the path first, then what went wrong and what to do
/// (`--truth missing.csv: cannot read: No such file or directory (os error 2); check the
/// path`). Errors about a place inside the file (a line, a column) already name it, and
/// errors about other files are not this option's: both pass unchanged.
pub(crate) fn about_file(option: Option<&str>, path: &Path, error: Error) -> Error {
    // A path that is wrong (missing, a directory, not permitted) is the user's to fix (exit
    // code 2); the corpus readers say so in these words.
    let wrong_path = error.exit_code() == 2;
    let error = match error {
        Error::Io { path: p, source } if p == path && wrong_path => {
            lshscope_core::io::input::cannot_open(&p, source)
        }
        other => other,
    };
    match (option, error) {
        (
            Some(option),
            Error::Input {
                path: p,
                line: 0,
                message,
                ..
            },
        ) if p == path => Error::usage(format!("{option} {}: {message}", p.display())),
        (_, other) => other,
    }
}

/// True when progress bars should be drawn: stderr is a terminal and not `--quiet`.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// Writes through `write` to `target` (a file, atomically, or stdout; compressed as its name
/// says) as the pipeline's writing phase of `rows` rows.
pub(crate) fn write_output(
    target: &OutputTarget,
    run: &mut Pipeline,
    rows: usize,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    run.timed(Phase::Writing, "pairs", |progress| {
        progress.begin(Phase::Writing, rows as u64);
        target.write(Some(progress), write)?;
        Ok(((), rows as u64))
    })
}
