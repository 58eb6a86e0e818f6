//! `lshscope index`: build an index file, add documents to it, query it, describe it.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::lsh_args::{BandsRowsArgs, KeepThresholdArgs};
use super::{CorpusArgs, FormatArg, IndexArgs, ProgressBar, ReadArgs, show_progress};
use lshscope_core::corpus::{Corpus, InputFormat, ReadReport};
use lshscope_core::online::LshIndex;
use lshscope_core::pairs::{Field, OutputFormat, OutputTarget, RowWriter};
use lshscope_core::pipeline::Pipeline;
use lshscope_core::text::Profile;
use lshscope_core::util::numfmt::{for_count, thousands};
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct IndexCommandArgs {
    #[command(subcommand)]
    pub command: IndexCommand,
}

#[derive(Debug, Subcommand)]
pub enum IndexCommand {
    /// Build an index file from a corpus: its documents, shingle sets, signatures and the
    /// band tables of one banding.
    Build(BuildArgs),
    /// Add the documents of another input to an index file, hashed with the index's own
    /// shingling and permutations. An input with ids the index already holds is refused
    /// (--skip-existing adds only the new ones).
    Add(AddArgs),
    /// The indexed documents that share a bucket with a text (or with each document of a
    /// file), with the MinHash estimate and the exact Jaccard.
    Query(QueryArgs),
    /// What an index file holds: documents, options, banding.
    Info(InfoArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub banding: BandsRowsArgs,
    /// The index file to write (atomically), e.g. corpus.lshidx.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,
    /// No summary and no progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The index file to add to (rewritten atomically).
    pub index_file: PathBuf,
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Seed for --sample [default: the index's seed]. The documents are hashed with the
    /// index's own seed whatever this is.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Skip the documents whose id is already in the index and add the others. Without it,
    /// an input holding any such id is refused and the index left as it was: adding a batch
    /// twice would otherwise index every document twice.
    #[arg(long)]
    pub skip_existing: bool,
    /// No summary and no progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
// A query's candidates are the indexed documents it matches, not pairs of the corpus.
#[command(mut_arg("threshold", |a| a.help("Keep matches whose exact Jaccard is at least T")))]
pub struct QueryArgs {
    /// The index file to query.
    pub index_file: PathBuf,
    /// A text to look up, or a file or directory whose documents are each looked up (read
    /// like any corpus; `-` is stdin). An argument that looks like a file name but names no
    /// file is looked up as a text, with a warning.
    #[arg(value_name = "TEXT_OR_FILE")]
    pub query: String,
    /// Look TEXT_OR_FILE up as a text, even when a file of that name exists (and without the
    /// warning for a text that looks like a file name).
    #[arg(long)]
    pub text: bool,
    #[command(flatten)]
    pub threshold: KeepThresholdArgs,
    /// At most N matches per query, most similar first.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// Write the matches to FILE instead of stdout (`-` is stdout); the name picks CSV or
    /// JSON Lines and compression.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The format of a query file; `auto` decides from the extension.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub query_format: FormatArg,
    /// Seed for --sample of a query file [default: the index's seed].
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    #[command(flatten, next_help_heading = "Reading a query file")]
    pub read: ReadArgs,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The index file to describe.
    pub index_file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The columns `index query` writes, in order.
pub const MATCH_COLUMNS: &[&str] = &["query", "id", "jaccard", "estimate", "bands_hit"];

pub fn run(args: IndexCommandArgs) -> Result<i32> {
    match args.command {
        IndexCommand::Build(args) => build(args),
        IndexCommand::Add(args) => add(args),
        IndexCommand::Query(args) => query(args),
        IndexCommand::Info(args) => info(args),
    }
}

fn build(args: BuildArgs) -> Result<i32> {
    if args.index.num_perm == 0 {
        return Err(Error::usage("--num-perm must be at least 1"));
    }
    let banding = args.banding.banding(args.index.num_perm)?;
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    let loaded = super::load_corpus(&mut run, &args.corpus, &args.index, args.quiet, true)?;
    let index = LshIndex::from_index(loaded.corpus, loaded.index, banding)?;
    index.save(&args.output)?;
    drop(bar);
    if !args.quiet {
        eprintln!("{}", describe(&index, &args.output));
    }
    Ok(0)
}

fn add(args: AddArgs) -> Result<i32> {
    let mut index = load(&args.index_file)?;
    let progress = super::new_progress();
    let bar = ProgressBar::start(&progress, show_progress(args.quiet));
    let mut run = Pipeline::new(&progress);
    let mut options = args
        .corpus
        .read_options(args.seed.unwrap_or(index.options().seed));
    // The refusal of ids already indexed points at their lines.
    options.keep_lines = true;
    let (corpus, mut read) = run.read(&args.corpus.input, &options)?;
    // Ids repeated within the input are treated as `index build` treats them: a warning, both
    // kept (--strict stops on them).
    super::warn_about_read(args.quiet, &args.corpus, &mut read, true)?;
    let before = index.len();
    let indexed = index.held_among(&corpus);
    if !indexed.is_empty() && !args.skip_existing {
        return Err(Error::usage(already_indexed_message(
            &args, &corpus, &read, &indexed,
        )));
    }
    let added = if indexed.is_empty() {
        corpus
    } else {
        corpus.without(&indexed)
    };
    // Nothing new: the file is not rewritten.
    if !added.is_empty() {
        index.extend(&added, &progress)?;
        index.save(&args.index_file)?;
    }
    drop(bar);
    if !args.quiet {
        let skipped = if indexed.is_empty() {
            String::new()
        } else {
            format!(
                "; skipped {} whose id is already in it",
                thousands(indexed.len() as u64)
            )
        };
        eprintln!(
            "added {} {} to {} ({} before){skipped}",
            thousands(added.len() as u64),
            for_count(added.len() as u64, "document", "documents"),
            args.index_file.display(),
            thousands(before as u64)
        );
        eprintln!("{}", describe(&index, &args.index_file));
    }
    Ok(0)
}

/// The refusal of an input with ids already in the index: how many, the first two with
/// where they are in the input, and the way to add the rest.
fn already_indexed_message(
    args: &AddArgs,
    corpus: &Corpus,
    read: &ReadReport,
    indexed: &[usize],
) -> String {
    use lshscope_core::io::excerpt::{first_of, id_for_message};
    let unit = if read.format == InputFormat::Parquet {
        "row"
    } else {
        "line"
    };
    let shown: Vec<String> = indexed
        .iter()
        .take(2)
        .map(|&i| {
            let id = id_for_message(corpus.id(i));
            match read.document_lines.get(i) {
                Some(&line) if line > 0 => format!("{id} on {unit} {line}"),
                _ => id.into_owned(),
            }
        })
        .collect();
    let n = indexed.len() as u64;
    let input = if args.corpus.input == Path::new("-") {
        "stdin".to_string()
    } else {
        args.corpus.input.display().to_string()
    };
    format!(
        "{input}: {} {} an id already in {} (first: {}); nothing was added, the index is \
         unchanged: pass --skip-existing to add only the new ids, or give these documents \
         other ids",
        thousands(n),
        for_count(n, "document has", "documents have"),
        args.index_file.display(),
        first_of(&shown, indexed.len())
    )
}

fn query(args: QueryArgs) -> Result<i32> {
    let threshold = args.threshold.checked()?;
    let target = OutputTarget::new(args.output.as_deref());
    let format = target.format(None, &[OutputFormat::Csv, OutputFormat::Jsonl])?;
    let index = load(&args.index_file)?;
    let path = Path::new(&args.query);
    let queries = if !args.text && (args.query == "-" || path.exists()) {
        let corpus_args = CorpusArgs {
            input: path.to_path_buf(),
            format: args.query_format,
            read: args.read.clone(),
        };
        let progress = super::new_progress();
        let (corpus, mut read) = Pipeline::new(&progress).read(
            &corpus_args.input,
            &corpus_args.read_options(args.seed.unwrap_or(index.options().seed)),
        )?;
        // The matches name each query by its id.
        super::warn_about_read(false, &corpus_args, &mut read, true)?;
        corpus
    } else {
        if args.read != ReadArgs::default()
            || args.query_format != FormatArg::Auto
            || args.seed.is_some()
        {
            let why = if args.text {
                "--text looks it up as a text".to_string()
            } else {
                format!(
                    "`{}` is not a file or directory, so it is looked up as a text",
                    args.query
                )
            };
            return Err(Error::usage(format!(
                "{why}; the options for reading a query file (--query-format, --sample, \
                 --seed, …) do not apply"
            )));
        }
        if !args.text && looks_like_a_path(&args.query) {
            super::warn(
                false,
                &format!(
                    "no file `{}`: looking it up as a text (pass --text if that is meant, \
                     which also silences this warning)",
                    args.query
                ),
            );
        }
        Corpus::from_pairs([("query", args.query.as_str())])
    };
    target.write(None, |w| {
        let mut out = RowWriter::new(w, format, MATCH_COLUMNS, None)?;
        for q in 0..queries.len() {
            let matches = index.query(queries.text(q));
            let kept = matches
                .iter()
                .filter(|m| m.jaccard >= threshold)
                .take(args.top.unwrap_or(usize::MAX));
            for m in kept {
                out.write_row(&[
                    Field::Str(queries.id(q)),
                    Field::Str(index.id(m.doc)),
                    Field::F64(m.jaccard),
                    Field::F64(m.estimate),
                    Field::U64(m.bands_hit as u64),
                ])?;
            }
        }
        out.finish()
    })?;
    Ok(0)
}

/// Extensions of the inputs a query file may be, compressed ones included.
const INPUT_EXTENSIONS: &[&str] = &[
    "csv", "tsv", "txt", "jsonl", "ndjson", "json", "parquet", "gz", "zst", "bz2", "xz",
];

/// Whether a query argument that names no file looks like a file name all the same (a typo,
/// or a file in another directory): it ends in an input's extension, or it is one word with a
/// path separator. A text with a slash (`and/or this`) has spaces; a file name rarely does.
fn looks_like_a_path(query: &str) -> bool {
    if query.contains('\n') {
        return false;
    }
    let extension = Path::new(query)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let input_extension = extension.is_some_and(|e| INPUT_EXTENSIONS.contains(&e.as_str()));
    let one_word = !query.chars().any(char::is_whitespace);
    input_extension || (one_word && query.contains(['/', '\\']))
}

fn info(args: InfoArgs) -> Result<i32> {
    let index = load(&args.index_file)?;
    if args.json {
        let value = serde_json::json!({
            "path": args.index_file.display().to_string(),
            "format": lshscope_core::online::file::FORMAT,
            "documents": index.len(),
            "options": index.options(),
            "bands": index.banding().bands,
            "rows": index.banding().rows,
            "shingles": index.index().sets.total(),
        });
        println!("{value:#}");
    } else {
        println!("{}", describe(&index, &args.index_file));
    }
    Ok(0)
}

/// One paragraph about an index: documents, options, banding.
fn describe(index: &LshIndex, path: &Path) -> String {
    let o = index.options();
    let s = &o.shingle;
    let b = index.banding();
    let documents = index.len() as u64;
    let shingles = index.index().sets.total() as u64;
    // A profile fixes the normalization (the three flags do nothing then): name it instead.
    let shingling = if s.profile == Profile::Lshscope {
        format!(
            "{}{}{}{}",
            s.kind,
            if s.lowercase { ", lowercased" } else { "" },
            if s.nfkc { ", NFKC" } else { "" },
            if s.strip_punct {
                ", punctuation removed"
            } else {
                ""
            }
        )
    } else {
        format!(
            "{} as {} makes them (--profile {})",
            s.kind, s.profile, s.profile
        )
    };
    format!(
        "{}: {} {}, {} {}; shingles {shingling}, K = {}, seed {}, {} sketches; {}",
        path.display(),
        thousands(documents),
        for_count(documents, "document", "documents"),
        thousands(shingles),
        for_count(shingles, "shingle", "shingles"),
        o.num_perm,
        o.seed,
        o.family,
        lshscope_core::util::numfmt::bands_by_rows(b.bands, b.rows)
    )
}

/// The index file at `path`; one that cannot be opened says what to do, as an input would.
fn load(path: &Path) -> Result<LshIndex> {
    LshIndex::load(path).map_err(|e| super::about_file(None, path, e))
}
