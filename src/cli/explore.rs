//! `lshscope explore`: the interactive explorer (and, with no subcommand, the same on the
//! embedded sample corpus).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::lsh_args::BandsRowsArgs;
use super::{CorpusArgs, IndexArgs};
use crate::tui::imported::{ImportKind, ImportSpec};
use crate::tui::list::PreviewColumn;
use crate::tui::session::{Config, Source};
use lshscope_core::analysis::import::{ImportOptions, UnknownIds};
use lshscope_core::analysis::labels::LabelStore;
use lshscope_core::corpus::{InputFormat, detect_format, read_corpus};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, IndexOptions};
use lshscope_core::terms::Setting;
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    /// Ground truth to measure the candidates against (`id_a,id_b,jaccard` as `lshscope
    /// truth` writes it, CSV, JSON Lines or Parquet, possibly .gz/.zst, `-` for stdin; further columns,
    /// such as the `level` of `lshscope gen`, are ignored):
    /// recall and precision at t, the measured candidate rate over the S-curve, missed pairs.
    #[arg(long, value_name = "FILE")]
    pub truth: Option<PathBuf>,
    /// Audit another tool's pairs instead of lshscope's candidates: a CSV file with a header,
    /// JSON Lines, Parquet, or a directory of part files (as Spark, Dask or datatrove write
    /// them), possibly compressed. Each pair gets its exact Jaccard; the clusters view (C)
    /// audits the connected components of all the pairs, which is what a tool that does not
    /// verify its candidates removes. b and r then move only the reference S-curve.
    #[arg(long, value_name = "FILE", conflicts_with = "clusters")]
    pub pairs: Option<PathBuf>,
    /// The two id columns of --pairs, nested ones with dots (`datasetA.id`) [default: the
    /// first present of id_a,id_b; id1,id2; id_1,id_2; id_x,id_y (NeMo Curator);
    /// datasetA.id,datasetB.id (Spark); doc_a,doc_b; src,dst; source,target].
    #[arg(long, value_name = "A,B", requires = "pairs", value_parser = parse_column_pair)]
    pub pair_columns: Option<[String; 2]>,
    /// Audit another tool's clusters (document id → cluster id) instead of lshscope's: same
    /// formats as --pairs. Each cluster gets a maximum spanning tree over its members' exact
    /// Jaccards and the chaining audit; the member whose id is the cluster id is the one
    /// kept (else the first); a cluster of `-1` (datatrove) or empty means none.
    #[arg(long, value_name = "FILE")]
    pub clusters: Option<PathBuf>,
    /// The document id column and the cluster column of --clusters, nested ones with dots
    /// (`metadata.minhash_cluster_id`) [default: id, doc_id or document_id, with cluster,
    /// cluster_id, group (NeMo Curator), minhash_cluster_id or metadata.minhash_cluster_id
    /// (datatrove), __CLUSTER__ (text-dedup), representative or component].
    #[arg(long, value_name = "ID,CLUSTER", requires = "clusters", value_parser = parse_column_pair)]
    pub cluster_columns: Option<[String; 2]>,
    /// Build the index even when the cache holds one for this input and these options, and
    /// do not store it. The cache lives in $LSHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/lshscope,
    /// else ~/.cache/lshscope, and keeps at most 4 GB ($LSHSCOPE_CACHE_LIMIT_MB), dropping
    /// the least recently opened corpora first.
    #[arg(long)]
    pub no_cache: bool,
    /// Show this field of each document in the pair list's text column instead of the text
    /// (a CSV/TSV/Parquet column by name or 1-based index, or a JSON Lines field), A's and B's
    /// side by side, e.g. `--preview-column title`. `v` in the pair list switches between it,
    /// text A from where it differs from B, and text A from its start.
    #[arg(long, value_name = "NAME")]
    pub preview_column: Option<String>,
}

/// `A,B`: two non-empty column names.
fn parse_column_pair(text: &str) -> std::result::Result<[String; 2], String> {
    match text
        .split(',')
        .map(str::trim)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [a, b] if !a.is_empty() && !b.is_empty() => Ok([a.to_string(), b.to_string()]),
        _ => Err(format!(
            "expected two column names separated by a comma (e.g. id_a,id_b), got `{text}`"
        )),
    }
}

/// Settings of the explorer itself (shared with the no-subcommand sample mode).
#[derive(Debug, Clone, Args)]
// The explorer starts from these bands and rows and moves them live.
#[command(
    mut_arg("bands", |a| a.help("Number of LSH bands b to start with")),
    mut_arg("rows", |a| a.help("Rows per band r to start with (b·r must not exceed --num-perm)"))
)]
pub struct ViewArgs {
    #[command(flatten)]
    pub banding: BandsRowsArgs,
    /// Similarity threshold t to start with.
    #[arg(
        long,
        short = 't',
        default_value_t = START_THRESHOLD,
        value_name = "T",
        allow_negative_numbers = true
    )]
    pub threshold: f64,
    /// In a bucket with more than N documents, only the first N form pairs. At least 2.
    #[arg(long, value_name = "N", value_parser = super::lsh_args::parse_max_bucket)]
    pub max_bucket: Option<usize>,
    /// Labels file (CSV `id_a,id_b,label,jaccard,labelled_at,copy_of_a,copy_of_b`), read at
    /// start and rewritten after every label. Like the exports, it goes to the current directory by default, not next to the input
    /// (whose folder may be shared or read-only) [default: NAME.labels.csv, NAME the input's
    /// file name].
    #[arg(long, value_name = "FILE")]
    pub labels: Option<PathBuf>,
    /// After a label (y, n, u), move to the next pair; `a` turns it on and off while exploring.
    #[arg(long)]
    pub advance: bool,
    /// Colours: `auto` honours NO_COLOR; `never` uses a monochrome theme.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The threshold the explorer starts at without `-t`.
const START_THRESHOLD: f64 = 0.5;

impl Default for ViewArgs {
    /// What `explore` starts with when no option is given.
    fn default() -> Self {
        ViewArgs {
            banding: BandsRowsArgs::default(),
            threshold: START_THRESHOLD,
            max_bucket: None,
            labels: None,
            advance: false,
            color: ColorChoice::Auto,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Monochrome for `never`, and for `auto` when NO_COLOR is set to anything non-empty
    /// (https://no-color.org).
    pub fn monochrome(self) -> bool {
        match self {
            ColorChoice::Always => false,
            ColorChoice::Never => true,
            ColorChoice::Auto => std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }
}

/// Labels of the embedded sample go to the current directory under this name.
pub const SAMPLE_LABELS: &str = "lshscope-sample.labels.csv";

fn check(view: &ViewArgs, num_perm: usize) -> Result<Banding> {
    lshscope_core::error::check_unit("--threshold", view.threshold)?;
    if num_perm == 0 {
        return Err(Error::usage("--num-perm must be at least 1"));
    }
    view.banding.banding(num_perm)
}

/// `NAME.labels.csv` in `dir` (the current directory), NAME the input's file name
/// (`stdin.labels.csv` for `-`): never next to the input, whose folder may be shared or
/// read-only.
pub fn default_labels_path(input: &Path, dir: &Path) -> PathBuf {
    if input == Path::new("-") {
        return dir.join("stdin.labels.csv");
    }
    let mut name = input
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "corpus".into());
    name.push(".labels.csv");
    dir.join(name)
}

/// The current directory spelled out in full, so the status line says exactly where files go
/// (`.` if it cannot be read).
fn current_dir() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

pub fn run(args: ExploreArgs) -> Result<i32> {
    // A mistyped truth path is reported before the terminal is taken over; its content is
    // checked against the corpus once that is loaded.
    if args.truth.as_deref() == Some(Path::new("-")) && args.corpus.input == Path::new("-") {
        return Err(Error::usage(
            "the corpus and --truth cannot both be read from stdin: give one of them a file",
        ));
    }
    if let Some(path) = &args.truth
        && path != Path::new("-")
    {
        std::fs::File::open(path)
            .map_err(|e| super::about_file(Some("--truth"), path, Error::io(path, e)))?;
    }
    let import = import_spec(&args)?;
    let preview_column = match &args.preview_column {
        Some(name) => Some(read_preview_column(&args, name)?),
        None => None,
    };
    let input = args.corpus.input.clone();
    let here = current_dir();
    let labels_path = args
        .view
        .labels
        .clone()
        .unwrap_or_else(|| default_labels_path(&input, &here));
    let export_stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "corpus".into());
    // Pair exports and plots go where the user is, like the labels.
    let export_dir = here;
    // An index file brings its own shingling, K, seed and sketch family; its signatures are
    // not rebuilt, and a --family other than its own is refused.
    let index_file = match input.is_file() {
        true => lshscope_core::online::file::read_header(&input)?,
        false => None,
    };
    let (source, index_options) = match index_file {
        Some(header) => {
            if let Some(asked) = args.index.family {
                header.check_family(asked, &input)?;
            }
            // An index holds its documents as they were read when it was built: options of
            // the reading would be ignored, which a user asking for --row-ids must hear.
            if args.corpus.read != super::ReadArgs::default()
                || args.corpus.format != super::FormatArg::Auto
            {
                return Err(Error::usage(format!(
                    "{} is an index file: its documents and ids are as `index build` read \
                     them, so reading options (--row-ids, --strict, --text-column, --format, …) \
                     do not apply; pass them to `lshscope index build` and open the new index, \
                     or open the corpus file itself",
                    input.display()
                )));
            }
            (
                Source::Index {
                    path: input.clone(),
                },
                header.options,
            )
        }
        None => {
            let read = args.corpus.read_options(args.index.seed);
            let path = input.clone();
            // Only a regular file has bytes to key the cache by (not stdin or a directory).
            let cache = match args.no_cache || !input.is_file() {
                true => None,
                false => lshscope_core::pipeline::cache::IndexCache::from_env(),
            };
            let source = match cache {
                Some(cache) => Source::CachedFile { path, read, cache },
                None => Source::File { path, read },
            };
            (source, args.index.index_options()?)
        }
    };
    let banding = check(&args.view, index_options.num_perm)?;
    let config = Config {
        source,
        source_name: input.display().to_string(),
        index_options,
        banding,
        threshold: args.view.threshold,
        max_bucket: args.view.max_bucket,
        export_dir,
        export_stem,
        monochrome: args.view.color.monochrome(),
        bins: 20,
        shuffle_seed: args.index.seed,
        advance: args.view.advance,
    };
    let labels = LabelStore::load(labels_path)?;
    crate::tui::run_session(config, labels, args.truth, import, preview_column)
}

/// `--preview-column NAME`: the field `name` of every document, read from the corpus file
/// with the corpus's own read options (the same rows, in the same order) and `name` as the
/// text column. Read before the terminal is taken over, so a name the file does not have is
/// an error listing the columns it has.
fn read_preview_column(args: &ExploreArgs, name: &str) -> Result<PreviewColumn> {
    let path = &args.corpus.input;
    let refuse = |why: &str| {
        Err(Error::usage(format!(
            "--preview-column {name}: {why}; it reads a field of CSV, TSV, JSON Lines or \
             Parquet input"
        )))
    };
    if path == Path::new("-") {
        return refuse("the corpus comes from stdin, which cannot be read a second time");
    }
    if path.is_file() && lshscope_core::online::file::read_header(path)?.is_some() {
        return refuse("the input is an index file, which keeps the text only");
    }
    let mut read = args.corpus.read_options(args.index.seed);
    let format = match read.format {
        InputFormat::Auto if path.is_dir() => InputFormat::Dir,
        InputFormat::Auto => detect_format(path),
        format => format,
    };
    match format {
        InputFormat::Csv | InputFormat::Tsv | InputFormat::Parquet => {
            read.text_column =
                Some(name.parse().map_err(|e: String| {
                    Error::usage(format!("--preview-column `{name}`: {e}"))
                })?);
        }
        InputFormat::Jsonl => read.text_field = Some(name.to_string()),
        InputFormat::Text | InputFormat::Dir | InputFormat::Auto => {
            return refuse(&format!("{} input has no fields", format.name()));
        }
    }
    eprintln!(
        "reading the field {name} of {} for the pair list…",
        path.display()
    );
    let (values, _) = read_corpus(path, &read, &Progress::new()).map_err(|e| match e {
        // The reader names the setting it was given, the text column: here that is
        // --preview-column.
        Error::Input { .. } | Error::Usage(_) => Error::usage(e.render(|setting| match setting {
            Setting::TextColumn | Setting::TextField => "--preview-column",
            other => super::errors::flag(other),
        })),
        other => other,
    })?;
    Ok(PreviewColumn {
        name: name.to_string(),
        values: std::sync::Arc::new(values),
    })
}

/// The file of `--pairs` or `--clusters`, checked to exist before the terminal is taken over
/// (its ids are checked against the corpus once that is loaded).
fn import_spec(args: &ExploreArgs) -> Result<Option<ImportSpec>> {
    let (kind, option, path, columns) = match (&args.pairs, &args.clusters) {
        (Some(p), _) => (ImportKind::Pairs, "--pairs", p, args.pair_columns.clone()),
        (None, Some(c)) => (
            ImportKind::Clusters,
            "--clusters",
            c,
            args.cluster_columns.clone(),
        ),
        (None, None) => return Ok(None),
    };
    std::fs::metadata(path)
        .map_err(|e| super::about_file(Some(option), path, Error::io(path, e)))?;
    // A corpus cut by --limit or --sample lacks some of the documents the tool saw: their
    // rows are skipped and counted. On the whole corpus an unknown id is an error.
    let unknown = if args.corpus.read.limit.is_some() || args.corpus.read.sample.is_some() {
        UnknownIds::Skip
    } else {
        UnknownIds::Error
    };
    Ok(Some(ImportSpec {
        kind,
        path: path.clone(),
        options: ImportOptions { columns, unknown },
    }))
}

/// `lshscope` with no subcommand: the explorer on the embedded sample, default settings.
pub fn run_sample() -> Result<i32> {
    let view = ViewArgs::default();
    let index = IndexOptions::default();
    let banding = check(&view, index.num_perm)?;
    let export_dir = current_dir();
    let labels_path = export_dir.join(SAMPLE_LABELS);
    let config = Config {
        source: Source::EmbeddedSample,
        source_name: crate::tui::sample::SAMPLE_NAME.to_string(),
        shuffle_seed: index.seed,
        advance: view.advance,
        index_options: index,
        banding,
        threshold: view.threshold,
        max_bucket: None,
        export_dir,
        export_stem: "lshscope-sample".to_string(),
        monochrome: view.color.monochrome(),
        bins: 20,
    };
    let labels = LabelStore::load(labels_path)?;
    crate::tui::run(config, labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_pairs_parse() {
        assert_eq!(
            parse_column_pair("id_a, id_b").unwrap(),
            ["id_a".to_string(), "id_b".to_string()]
        );
        assert!(parse_column_pair("id_a").is_err());
        assert!(parse_column_pair("a,b,c").is_err());
        assert!(parse_column_pair(",b").is_err());
    }

    #[test]
    fn labels_default_to_the_current_directory_not_the_inputs() {
        let here = Path::new("/home/me/work");
        assert_eq!(
            default_labels_path(Path::new("../data/x.csv"), here),
            PathBuf::from("/home/me/work/x.csv.labels.csv")
        );
        assert_eq!(
            default_labels_path(Path::new("/srv/shared/corpus.jsonl.gz"), here),
            PathBuf::from("/home/me/work/corpus.jsonl.gz.labels.csv")
        );
        assert_eq!(
            default_labels_path(Path::new("-"), here),
            PathBuf::from("/home/me/work/stdin.labels.csv")
        );
    }
}
