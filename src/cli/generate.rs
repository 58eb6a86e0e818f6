//! `lshscope gen`: write a synthetic corpus (pseudo-words, job ads or template families) with
//! planted near-duplicates and its truth file.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use lshscope_core::corpus::{Corpus, InputFormat};
use lshscope_core::pairs::{Field, OutputFormat, OutputTarget, RowWriter};
use lshscope_core::synthetic::jobads::{JobAdOptions, JobAds, JobMix, Origin, generate_job_ads};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use lshscope_core::synthetic::words::{GenOptions, PlantedPair, generate};
use lshscope_core::text::{ShingleKind, ShingleOptions};
use lshscope_core::util::numfmt::{for_count, thousands};
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct GenArgs {
    /// What to generate.
    #[arg(long, value_enum, default_value_t = GenKind::Words)]
    pub kind: GenKind,
    /// Number of documents.
    #[arg(long, short = 'n', default_value_t = 20_000)]
    pub docs: usize,
    /// With --kind words: mean document length in characters (lengths vary ±50 %) [default:
    /// 300].
    #[arg(long)]
    pub length: Option<usize>,
    /// Jaccard levels of the planted pairs, comma separated (--kind words and jobs) [default:
    /// 0.3,0.5,0.6,0.7,0.8,0.9,0.95].
    #[arg(long, value_delimiter = ',')]
    pub levels: Option<Vec<f64>>,
    /// Planted pairs per level (--kind words and jobs) [default: 200].
    #[arg(long)]
    pub pairs_per_level: Option<usize>,
    /// Shingles the planted Jaccard levels are measured with; use the same for scan (--kind
    /// words and jobs) [default: char:5].
    #[arg(long)]
    pub shingle: Option<ShingleKind>,
    /// Seed of the random draws: the same seed and options write the same corpus (and truth)
    /// byte for byte; another seed draws another corpus of the same shape.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Corpus file to write (atomically) instead of stdout; `-` is stdout. The name picks
    /// the format as `scan` reads it back (`.csv` id,text, `.tsv` id<TAB>text unquoted,
    /// `.jsonl`/`.json` {"id","text"}, any other name one text per line without ids) and
    /// compression (`.gz`, `.zst`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Format of the corpus; overrides the output name's extension [default: from the name,
    /// else csv].
    #[arg(long, value_name = "FORMAT", value_parser = super::output_format_parser(FORMATS))]
    pub output_format: Option<OutputFormat>,
    /// Truth file to write: id_a,id_b,jaccard,level for every planted pair (format and
    /// compression from its name, as for --output; --kind words and jobs).
    #[arg(long, value_name = "FILE")]
    pub truth: Option<PathBuf>,
    /// No message on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// The same as --kind templates (kept for scripts written before --kind).
    #[arg(long, hide = true, conflicts_with = "kind")]
    pub templates: bool,
    /// With --kind jobs or templates: the largest template family [default: 150 for jobs,
    /// 15000 for templates].
    #[arg(long, value_name = "N")]
    pub max_family: Option<usize>,
    /// With --kind templates: the share of a family's members that copy its first one
    /// verbatim [default: 0.3].
    #[arg(long, value_name = "SHARE")]
    pub copy_share: Option<f64>,
    /// With --kind templates: also plant a group of N verbatim copies of one text.
    #[arg(long, value_name = "N")]
    pub identical_group: Option<usize>,
    /// With --kind templates: also plant a family of N edited copies of one template.
    #[arg(long, value_name = "N")]
    pub template_family: Option<usize>,
    /// With --kind templates: write the ground-truth families to FILE, `id,family,member`
    /// for every document: its family's number and how it was made (`unique`, `first`,
    /// `copy`, `edited`, `identical-group`, `template-family`). Format and compression from
    /// its name, as for --output; the corpus is the same with or without it.
    #[arg(long, value_name = "FILE")]
    pub families: Option<PathBuf>,
}

/// The corpora `gen` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GenKind {
    /// Invented pseudo-words with planted pairs; other documents share almost nothing, so
    /// the truth file holds every similar pair. Ids doc-000001, …
    Words,
    /// Job ads in English a person can judge: planted pairs (an ad and a rewrite of it),
    /// reposts (verbatim or with a new date and reference), edited reposts, agency templates
    /// filled with other titles and cities (families of dozens to hundreds) and the
    /// boilerplate each company repeats. The truth file holds the planted pairs only. Ids
    /// job-000001, …
    Jobs,
    /// Pseudo-word template families shaped like real dumps: power-law family sizes (some in
    /// the thousands), verbatim copies, short and long texts, quotes and non-ASCII
    /// characters; no truth file. Ids t0000001, …
    Templates,
}

impl GenKind {
    fn name(self) -> &'static str {
        match self {
            GenKind::Words => "words",
            GenKind::Jobs => "jobs",
            GenKind::Templates => "templates",
        }
    }
}

/// Refuses the options `kind` does not use, so that none is silently ignored.
fn check_options(args: &GenArgs, kind: GenKind) -> Result<()> {
    let given = |set: bool, flag: &str, kinds: &[GenKind]| -> Result<()> {
        if !set || kinds.contains(&kind) {
            return Ok(());
        }
        let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
        Err(Error::usage(format!(
            "{flag} applies to --kind {}, not to --kind {}",
            names.join(" or "),
            kind.name()
        )))
    };
    use GenKind::*;
    given(args.length.is_some(), "--length", &[Words])?;
    given(args.levels.is_some(), "--levels", &[Words, Jobs])?;
    given(
        args.pairs_per_level.is_some(),
        "--pairs-per-level",
        &[Words, Jobs],
    )?;
    given(args.shingle.is_some(), "--shingle", &[Words, Jobs])?;
    given(args.truth.is_some(), "--truth", &[Words, Jobs])?;
    given(args.families.is_some(), "--families", &[Templates])?;
    given(
        args.max_family.is_some(),
        "--max-family",
        &[Jobs, Templates],
    )?;
    given(args.copy_share.is_some(), "--copy-share", &[Templates])?;
    given(
        args.identical_group.is_some(),
        "--identical-group",
        &[Templates],
    )?;
    given(
        args.template_family.is_some(),
        "--template-family",
        &[Templates],
    )?;
    Ok(())
}

/// The planted levels, pairs per level and shingle options of `args` (with the defaults).
fn planting(args: &GenArgs) -> (Vec<f64>, usize, ShingleOptions) {
    (
        args.levels
            .clone()
            .unwrap_or_else(|| vec![0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]),
        args.pairs_per_level.unwrap_or(200),
        ShingleOptions {
            kind: args.shingle.unwrap_or(ShingleKind::Char(5)),
            ..Default::default()
        },
    )
}

const FORMATS: &[OutputFormat] = &[OutputFormat::Csv, OutputFormat::Jsonl];

pub fn run(args: GenArgs) -> Result<i32> {
    let kind = if args.templates {
        GenKind::Templates
    } else {
        args.kind
    };
    check_options(&args, kind)?;
    for &level in args.levels.iter().flatten() {
        lshscope_core::error::check_unit("--levels", level)?;
    }
    let target = OutputTarget::new(args.output.as_deref());
    let format = CorpusFormat::of(&target, args.output_format)?;
    let truth = side_file("--truth", args.truth.as_ref(), &target, format)?;
    let families = side_file("--families", args.families.as_ref(), &target, format)?;
    super::outputs::check_outputs(&[
        ("--output", Some(&target)),
        ("--truth", truth.as_ref().map(|(t, _)| t)),
        ("--families", families.as_ref().map(|(t, _)| t)),
    ])?;
    let (levels, pairs_per_level, shingle) = planting(&args);
    let (corpus, pairs, what) = match kind {
        GenKind::Templates => return write_templated(&args, &target, format, families),
        GenKind::Words => {
            let (corpus, pairs) = generate(&GenOptions {
                documents: args.docs,
                length: args.length.unwrap_or(300),
                levels,
                pairs_per_level,
                seed: args.seed,
                shingle,
            });
            (corpus, pairs, String::new())
        }
        GenKind::Jobs => {
            if args.max_family == Some(0) {
                return Err(Error::usage("--max-family must be at least 1"));
            }
            let mut mix = JobMix::default();
            if let Some(max) = args.max_family {
                mix.max_family = max;
            }
            let ads = generate_job_ads(&JobAdOptions {
                documents: args.docs,
                levels,
                pairs_per_level,
                seed: args.seed,
                shingle,
                mix,
            });
            let what = job_mix_summary(&ads);
            (ads.corpus, ads.planted, what)
        }
    };
    write_corpus(&target, format, &corpus)?;
    if let Some((t, f)) = &truth {
        write_truth(t, *f, &corpus, &pairs)?;
    }
    if args.quiet {
        return Ok(0);
    }
    eprintln!(
        "wrote {} {} to {} with {} planted {}{what}{}",
        thousands(corpus.len() as u64),
        match kind {
            GenKind::Jobs => for_count(corpus.len() as u64, "job ad", "job ads"),
            _ => for_count(corpus.len() as u64, "document", "documents"),
        },
        target.display(),
        thousands(pairs.len() as u64),
        for_count(pairs.len() as u64, "pair", "pairs"),
        args.truth
            .as_ref()
            .map(|p| format!(" (truth: {})", p.display()))
            .unwrap_or_default()
    );
    Ok(0)
}

/// The target and row format of a file written next to the corpus that names documents by id
/// (`--truth`, `--families`), refused when it cannot be told apart from the corpus or the
/// corpus has no ids.
fn side_file(
    flag: &str,
    path: Option<&PathBuf>,
    target: &OutputTarget,
    format: CorpusFormat,
) -> Result<Option<(OutputTarget, OutputFormat)>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let t = OutputTarget::new(Some(path));
    if t.path.is_none() && target.path.is_none() {
        return Err(Error::usage(format!(
            "the corpus and {flag} cannot both go to stdout: give --output a file name"
        )));
    }
    if format == CorpusFormat::Text {
        return Err(Error::usage(format!(
            "{}: a text corpus (one document per line) holds no ids, and {flag} names \
             documents by id; write the corpus as .csv, .tsv or .jsonl",
            target.display()
        )));
    }
    let f = t.format(None, FORMATS)?;
    Ok(Some((t, f)))
}

/// ", 1,234 reposts, 987 edited reposts, 2,345 ads in 60 template families": what else the
/// job ads hold, for the message on stderr.
fn job_mix_summary(ads: &JobAds) -> String {
    let (mut reposts, mut edited, mut in_families) = (0u64, 0u64, 0u64);
    let mut families = std::collections::HashSet::new();
    for origin in &ads.origin {
        match origin {
            Origin::Repost { .. } => reposts += 1,
            Origin::Edited { .. } => edited += 1,
            Origin::Family(f) => {
                in_families += 1;
                families.insert(*f);
            }
            Origin::Original | Origin::Planted => {}
        }
    }
    format!(
        ", {} {}, {} edited {}, {} {} in {} template {}",
        thousands(reposts),
        for_count(reposts, "repost", "reposts"),
        thousands(edited),
        for_count(edited, "repost", "reposts"),
        thousands(in_families),
        for_count(in_families, "ad", "ads"),
        thousands(families.len() as u64),
        for_count(families.len() as u64, "family", "families"),
    )
}

/// The truth file: id_a,id_b,jaccard,level for every planted pair.
fn write_truth(
    target: &OutputTarget,
    format: OutputFormat,
    corpus: &Corpus,
    pairs: &[PlantedPair],
) -> Result<()> {
    target.write(None, |w| {
        let mut out = RowWriter::new(w, format, &["id_a", "id_b", "jaccard", "level"], None)?;
        for p in pairs {
            out.write_row(&[
                Field::Str(corpus.id(p.a as usize)),
                Field::Str(corpus.id(p.b as usize)),
                Field::F64(p.jaccard),
                Field::F64(p.level),
            ])?;
        }
        out.finish()
    })
}

/// How the corpus is written: as the readers will read it back by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CorpusFormat {
    Rows(OutputFormat),
    /// `id<TAB>text` lines under an `id<TAB>text` header, unquoted: TSV as the reader reads a
    /// `.tsv` / `.tab` name (IANA text/tab-separated-values, no quoting).
    Tsv,
    /// One text per line, no header and no ids: what the reader makes of a `.txt` name (or
    /// any name it does not know), numbering the documents by line.
    Text,
}

impl CorpusFormat {
    /// `--output-format` when given (it wins over the name, as documented), else the format
    /// the reader takes the name for, so that `scan` reads back what `gen` wrote (CSV in a
    /// `.tsv` made `scan` read each line as one field, CSV in a `.txt` made its header a
    /// document): TSV, JSON Lines (also `.json`, which the reader sniffs), text lines for a
    /// name it reads as text, else the name's format. Standard output is CSV.
    fn of(target: &OutputTarget, flag: Option<OutputFormat>) -> Result<CorpusFormat> {
        if let (None, Some(path)) = (flag, target.path.as_deref()) {
            let json = lshscope_core::corpus::has_json_extension(path);
            match lshscope_core::corpus::detect_format(path) {
                InputFormat::Tsv => return Ok(CorpusFormat::Tsv),
                InputFormat::Text if json => return Ok(CorpusFormat::Rows(OutputFormat::Jsonl)),
                InputFormat::Text => return Ok(CorpusFormat::Text),
                _ => {}
            }
        }
        Ok(CorpusFormat::Rows(target.format(flag, FORMATS)?))
    }
}

fn write_corpus(target: &OutputTarget, format: CorpusFormat, corpus: &Corpus) -> Result<()> {
    let format = match format {
        CorpusFormat::Rows(format) => format,
        CorpusFormat::Tsv => {
            check_tsv_fields(target, corpus)?;
            return target.write(None, |w| write_tsv(w, corpus));
        }
        CorpusFormat::Text => {
            check_text_lines(target, corpus)?;
            return target.write(None, |w| write_text_lines(w, corpus));
        }
    };
    target.write(None, |w| {
        let mut out = RowWriter::new(w, format, &["id", "text"], None)?;
        for i in 0..corpus.len() {
            out.write_row(&[Field::Str(corpus.id(i)), Field::Str(corpus.text(i))])?;
        }
        out.finish()
    })
}

/// Unquoted TSV cannot hold a tab or a line break inside a field, and replacing them would
/// change the texts (and the Jaccard levels the truth file states), so such a corpus is
/// refused before anything is written. The generators write neither today.
fn check_tsv_fields(target: &OutputTarget, corpus: &Corpus) -> Result<()> {
    let breaks = |s: &str| s.bytes().any(|b| matches!(b, b'\t' | b'\n' | b'\r'));
    let found = (0..corpus.len()).find(|&i| breaks(corpus.id(i)) || breaks(corpus.text(i)));
    refuse_unwritable(
        target,
        corpus,
        found,
        "a tab or a line break, which TSV (unquoted, as lshscope reads it)",
    )
}

/// A text with a line break would read back as two documents; refused as for TSV.
fn check_text_lines(target: &OutputTarget, corpus: &Corpus) -> Result<()> {
    let breaks = |s: &str| s.bytes().any(|b| matches!(b, b'\n' | b'\r'));
    let found = (0..corpus.len()).find(|&i| breaks(corpus.text(i)));
    refuse_unwritable(
        target,
        corpus,
        found,
        "a line break, which a text file of one document per line",
    )
}

/// The error for document `found`, which holds `what` cannot hold.
fn refuse_unwritable(
    target: &OutputTarget,
    corpus: &Corpus,
    found: Option<usize>,
    what: &str,
) -> Result<()> {
    match found {
        None => Ok(()),
        Some(i) => Err(Error::usage(format!(
            "{}: document {} holds {what} cannot hold; write .csv or .jsonl instead",
            target.display(),
            corpus.id(i)
        ))),
    }
}

/// One text per line ([`check_text_lines`]).
fn write_text_lines(w: &mut dyn Write, corpus: &Corpus) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::with_capacity(1 << 20, w);
    for i in 0..corpus.len() {
        w.write_all(corpus.text(i).as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.flush()
}

/// `id<TAB>text` rows under a header; fields must hold no tab or line break
/// ([`check_tsv_fields`]).
fn write_tsv(w: &mut dyn Write, corpus: &Corpus) -> std::io::Result<()> {
    // Four small writes a row: one large buffer in front of the file or the compressor.
    let mut w = std::io::BufWriter::with_capacity(1 << 20, w);
    w.write_all(b"id\ttext\n")?;
    for i in 0..corpus.len() {
        w.write_all(corpus.id(i).as_bytes())?;
        w.write_all(b"\t")?;
        w.write_all(corpus.text(i).as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.flush()
}

fn write_templated(
    args: &GenArgs,
    target: &OutputTarget,
    format: CorpusFormat,
    families: Option<(OutputTarget, OutputFormat)>,
) -> Result<i32> {
    let defaults = TemplateOptions::default();
    let copy_share = args.copy_share.unwrap_or(defaults.copy_share);
    lshscope_core::error::check_unit("--copy-share", copy_share)?;
    let max_family = args.max_family.unwrap_or(defaults.max_family);
    if max_family == 0 {
        return Err(Error::usage("--max-family must be at least 1"));
    }
    let out = generate_templated(&TemplateOptions {
        docs: args.docs,
        seed: args.seed,
        max_family,
        copy_share,
        identical_group: args.identical_group.unwrap_or(0),
        template_family: args.template_family.unwrap_or(0),
        ..defaults
    });
    write_corpus(target, format, &out.corpus)?;
    if let Some((t, f)) = &families {
        t.write(None, |w| {
            let mut rows = RowWriter::new(w, *f, &["id", "family", "member"], None)?;
            for d in 0..out.corpus.len() {
                rows.write_row(&[
                    Field::Str(out.corpus.id(d)),
                    Field::U64(out.family[d] as u64),
                    Field::Str(out.member[d].name()),
                ])?;
            }
            rows.finish()
        })?;
    }
    if !args.quiet {
        let count = out.family.iter().max().map_or(0, |&f| f as usize + 1);
        eprintln!(
            "wrote {} {} in {} template {} to {}{}",
            thousands(out.corpus.len() as u64),
            for_count(out.corpus.len() as u64, "document", "documents"),
            thousands(count as u64),
            for_count(count as u64, "family", "families"),
            target.display(),
            families
                .map(|(t, _)| format!(" (families: {})", t.display()))
                .unwrap_or_default()
        );
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_name_read_as_text_writes_text_lines_and_json_writes_json_lines() {
        let of =
            |name: &str, flag| CorpusFormat::of(&OutputTarget::new(Some(Path::new(name))), flag);
        assert_eq!(of("g.txt", None).unwrap(), CorpusFormat::Text);
        assert_eq!(of("g", None).unwrap(), CorpusFormat::Text);
        assert_eq!(of("g.txt.zst", None).unwrap(), CorpusFormat::Text);
        assert_eq!(
            of("g.json.gz", None).unwrap(),
            CorpusFormat::Rows(OutputFormat::Jsonl)
        );
        assert_eq!(
            of("g.txt", Some(OutputFormat::Csv)).unwrap(),
            CorpusFormat::Rows(OutputFormat::Csv)
        );
        assert_eq!(
            CorpusFormat::of(&OutputTarget::new(None), None).unwrap(),
            CorpusFormat::Rows(OutputFormat::Csv)
        );
        let corpus = Corpus::from_texts(["one line", "two\nlines"]);
        let target = OutputTarget::new(Some(Path::new("g.txt")));
        assert!(check_text_lines(&target, &corpus).is_err());
        let mut out = Vec::new();
        write_text_lines(&mut out, &Corpus::from_texts(["a b", "c\td"])).unwrap();
        assert_eq!(out, b"a b\nc\td\n");
    }

    #[test]
    fn a_tsv_name_writes_tsv_unless_the_format_is_given() {
        let of =
            |name: &str, flag| CorpusFormat::of(&OutputTarget::new(Some(Path::new(name))), flag);
        assert_eq!(of("g.tsv", None).unwrap(), CorpusFormat::Tsv);
        assert_eq!(of("g.TAB.gz", None).unwrap(), CorpusFormat::Tsv);
        assert_eq!(
            of("g.tsv", Some(OutputFormat::Jsonl)).unwrap(),
            CorpusFormat::Rows(OutputFormat::Jsonl)
        );
        assert_eq!(
            of("g.csv.zst", None).unwrap(),
            CorpusFormat::Rows(OutputFormat::Csv)
        );
        assert_eq!(
            of("-", None).unwrap(),
            CorpusFormat::Rows(OutputFormat::Csv)
        );
    }

    #[test]
    fn tsv_rows_are_unquoted_and_fields_with_tabs_or_line_breaks_are_refused() {
        let corpus = Corpus::from_pairs([("a", "say \"hi\", then go"), ("b", "x")]);
        let mut out = Vec::new();
        write_tsv(&mut out, &corpus).unwrap();
        assert_eq!(out, b"id\ttext\na\tsay \"hi\", then go\nb\tx\n");
        let target = OutputTarget::new(Some(Path::new("g.tsv")));
        assert!(check_tsv_fields(&target, &corpus).is_ok());
        for bad in ["tab\there", "two\nlines", "cr\r"] {
            let corpus = Corpus::from_pairs([("a", "fine"), ("b", bad)]);
            match check_tsv_fields(&target, &corpus) {
                Err(Error::Usage(message)) => assert_eq!(
                    message,
                    "g.tsv: document b holds a tab or a line break, which TSV (unquoted, as \
                     lshscope reads it) cannot hold; write .csv or .jsonl instead"
                ),
                other => panic!("{bad:?}: expected a usage error, got {other:?}"),
            }
        }
    }
}
