//! Reading a corpus: the format from the options, the name or the content, then the one reader
//! for it (text lines here; CSV/TSV, JSON Lines, Parquet and directories in sibling modules),
//! each optionally compressed, with `--limit`, `--sample` and `--skip-bad` applied while
//! reading.
//!
//! Every reader parses into reusable buffers and appends straight into the [`Corpus`] arenas,
//! so the main path makes no heap allocation per document. The layers import downwards only:
//! `options` (what to read) ← `source` (opening, decompressing) ← `sink` (lines, decoding,
//! the rules) ← the format readers ← this dispatch.

use std::io::BufRead;
use std::path::Path;

use super::Corpus;
use super::options::{InputFormat, ReadOptions, ReadReport};
use super::sink::{Lines, Sink, decode, number_id, strip_bom};
use super::source::read_error;
use super::source::{self, Compression};
use crate::io::excerpt::{excerpt, excerpt_bytes};
use crate::jobs::{Phase, Progress};
use crate::{Error, Result};

/// Reads a corpus from `path`: a file, a directory, or `-` for stdin.
///
/// The format comes from `opts.format`, or for `Auto` from the path: the extension after any
/// compression extension (`.csv`, `.tsv`/`.tab`, `.jsonl`/`.ndjson`, `.json` when its content
/// is JSON Lines, else text), a directory is `Dir` and stdin is `Text`.
/// Errors name the file and line and say what to do; all are [`Error::Input`] (exit code 2)
/// except cancellation.
pub fn read_corpus(
    path: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    progress.begin(Phase::Reading, 0);
    check_options(opts)?;
    let is_stdin = path == Path::new("-");
    let is_dir = if is_stdin {
        false
    } else {
        std::fs::metadata(path)
            .map_err(|e| source::cannot_open(path, e))?
            .is_dir()
    };
    let format = match opts.format {
        InputFormat::Auto if is_dir => InputFormat::Dir,
        InputFormat::Auto if is_stdin => InputFormat::Text,
        // A Parquet file announces itself in its first bytes whatever its name (exports named
        // `train-00000-of-00001`); anything else goes by the extension.
        InputFormat::Auto if source::starts_with_parquet_magic(path) => InputFormat::Parquet,
        InputFormat::Auto => detect_format(path),
        InputFormat::Dir if is_stdin => {
            return Err(Error::usage(
                "--format dir needs a directory path, not `-` (stdin)",
            ));
        }
        InputFormat::Dir if !is_dir => {
            return Err(Error::input(
                path,
                0,
                "not a directory, but --format dir was given; pass a directory or another --format",
            ));
        }
        f if is_dir => {
            return Err(Error::input(
                path,
                0,
                format!(
                    "is a directory, but --format {} was given; use --format dir (or auto) to read \
                     every file in it as one document",
                    f.name()
                ),
            ));
        }
        f => f,
    };
    if format == InputFormat::Dir {
        check_format_options(opts, format, false)?;
        return super::dir::read_dir_corpus(path, opts, progress);
    }
    if format == InputFormat::Parquet {
        check_format_options(opts, format, false)?;
        // Parquet's footer sits at the end of the file: it needs random access, so a file is
        // read from its path and stdin is read into memory first.
        if !is_stdin {
            return super::parquet::read_file(path, opts, progress);
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|e| source::cannot_open(Path::new("<stdin>"), e))?;
        return super::parquet::read_parquet_bytes(bytes, Path::new("<stdin>"), opts, progress);
    }
    let source = source::open(path, progress)?;
    let name = if is_stdin { Path::new("<stdin>") } else { path };
    if let Some(total) = source.disk_bytes {
        progress.set_total(total);
    }
    let how = How {
        format,
        sniff_json: opts.format == InputFormat::Auto && !is_stdin && has_json_extension(path),
        stdin_default: opts.format == InputFormat::Auto && is_stdin,
    };
    read_stream(source, name, how, opts, progress)
}

/// Reads documents from any buffered reader (gzip / zstd recognised by their magic bytes);
/// `name` is used in messages and, for `Auto`, to pick the format (text when it says nothing).
pub fn read_corpus_from(
    reader: impl BufRead,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    check_options(opts)?;
    let format = match opts.format {
        InputFormat::Auto => detect_format(name),
        InputFormat::Dir => {
            return Err(Error::usage(
                "--format dir reads a directory path, not a stream",
            ));
        }
        f => f,
    };
    if format == InputFormat::Parquet {
        check_format_options(opts, format, false)?;
        let mut reader = reader;
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .map_err(|e| source::cannot_open(name, e))?;
        return super::parquet::read_parquet_bytes(bytes, name, opts, progress);
    }
    let source = source::wrap(reader, name, Compression::None, None)?;
    let how = How {
        format,
        sniff_json: opts.format == InputFormat::Auto && has_json_extension(name),
        stdin_default: false,
    };
    read_stream(source, name, how, opts, progress)
}

/// Reads documents from `bytes` in memory (gzip / zstd recognised by their magic bytes) as
/// [`read_corpus_from`] does, counting the bytes consumed on `progress` as a file read does.
pub fn read_bytes(
    bytes: &[u8],
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    progress.begin(Phase::Reading, bytes.len() as u64);
    let counted = source::Counted {
        inner: bytes,
        progress: progress.clone(),
    };
    read_corpus_from(
        std::io::BufReader::with_capacity(source::BUFFER_BYTES, counted),
        name,
        opts,
        progress,
    )
}

/// The format a file name implies: the extension after removing `.gz` / `.zst`; `.csv` → CSV,
/// `.tsv` / `.tab` → TSV, `.jsonl` / `.ndjson` → JSON Lines, anything else → text lines.
pub fn detect_format(path: &Path) -> InputFormat {
    let mut path = path;
    let stripped;
    if Compression::from_name(path) != Compression::None {
        stripped = path.with_extension("");
        path = &stripped;
    }
    match source::lower_extension(path).as_deref() {
        Some("csv") => InputFormat::Csv,
        Some("tsv" | "tab") => InputFormat::Tsv,
        Some("jsonl" | "ndjson") => InputFormat::Jsonl,
        Some("parquet" | "pq") => InputFormat::Parquet,
        _ => InputFormat::Text,
    }
}

fn check_options(opts: &ReadOptions) -> Result<()> {
    if opts.limit == Some(0) {
        return Err(Error::usage("--limit must be at least 1"));
    }
    if opts.sample == Some(0) {
        return Err(Error::usage("--sample must be at least 1"));
    }
    Ok(())
}

/// `.json` after removing a compression extension: a name the reader sniffs for JSON Lines.
pub fn has_json_extension(path: &Path) -> bool {
    let stripped;
    let mut path = path;
    if Compression::from_name(path) != Compression::None {
        stripped = path.with_extension("");
        path = &stripped;
    }
    source::lower_extension(path).as_deref() == Some("json")
}

/// The format to read with, and how it was chosen.
struct How {
    format: InputFormat,
    /// A `.json` name under `Auto`: JSON Lines if the content is, else refused.
    sniff_json: bool,
    /// Stdin under `Auto`, read as text: options for other formats get a hint.
    stdin_default: bool,
}

/// Options that only another format uses are a usage error: ignoring them would read the
/// input differently from what the command line asks for.
fn check_format_options(
    opts: &ReadOptions,
    format: InputFormat,
    stdin_default: bool,
) -> Result<()> {
    if format != InputFormat::Dir && (opts.hidden || opts.no_ignore) {
        return Err(Error::usage(
            "--hidden and --no-ignore apply only to directory input (one document per file); \
             remove them or pass a directory",
        ));
    }
    use InputFormat::{Csv, Jsonl, Parquet, Tsv};
    // Each option with the formats that use it and how they are named in the message.
    let given: [(bool, &str, &[InputFormat], &str); 6] = [
        (
            opts.text_column.is_some(),
            "--text-column",
            &[Csv, Tsv, Parquet],
            COLUMNS,
        ),
        (
            opts.id_column.is_some(),
            "--id-column",
            &[Csv, Tsv, Parquet],
            COLUMNS,
        ),
        (!opts.has_headers, "--no-headers", &[Csv, Tsv], "CSV/TSV"),
        (opts.quote.is_some(), "--quote", &[Csv, Tsv], "CSV/TSV"),
        (opts.text_field.is_some(), "--text-field", &[Jsonl], FIELDS),
        (opts.id_field.is_some(), "--id-field", &[Jsonl], FIELDS),
    ];
    // The misfits grouped by the formats they belong to, in the order above.
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (_, option, _, fits) in given
        .iter()
        .filter(|(set, _, formats, _)| *set && !formats.contains(&format))
    {
        match groups.iter_mut().find(|(f, _)| f == fits) {
            Some((_, options)) => options.push(option),
            None => groups.push((fits, vec![option])),
        }
    }
    if groups.is_empty() {
        return Ok(());
    }
    // Where the input has columns or fields, the options it does use.
    let instead = |fits: &str| match (fits, format) {
        (COLUMNS, Jsonl) => " (use --text-field/--id-field here)",
        (FIELDS, Csv | Tsv | Parquet) => " (use --text-column/--id-column here)",
        _ => "",
    };
    let clauses: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, (fits, options))| {
            format!(
                "{}{} only to {fits}{}",
                options.join(", "),
                if i == 0 {
                    format!(
                        " appl{}",
                        crate::util::numfmt::for_count(options.len() as u64, "ies", "y")
                    )
                } else {
                    String::new()
                },
                instead(fits)
            )
        })
        .collect();
    let misfits: usize = groups.iter().map(|(_, options)| options.len()).sum();
    let hint = if stdin_default {
        "; stdin is read as text lines unless --format says otherwise: add --format csv, tsv, \
         jsonl or parquet"
    } else if misfits == 1 {
        "; remove it or choose the right --format"
    } else {
        "; remove them or choose the right --format"
    };
    Err(Error::usage(format!(
        "{}, but the input is read as {}{hint}",
        clauses.join("; "),
        match format {
            InputFormat::Auto | InputFormat::Text => "text lines (one document per line)",
            InputFormat::Csv => "CSV",
            InputFormat::Tsv => "TSV",
            InputFormat::Jsonl => "JSON Lines",
            InputFormat::Dir => "a directory (one document per file)",
            InputFormat::Parquet => "Parquet",
        }
    )))
}

/// The formats `--text-column` and `--id-column` apply to, as messages name them.
const COLUMNS: &str = "CSV/TSV or Parquet";
/// The format `--text-field` and `--id-field` apply to.
const FIELDS: &str = "JSON Lines";

/// A `.json` file holding NDJSON (its first non-blank line a complete JSON object) is JSON
/// Lines; a single JSON array or document cannot be streamed and is refused with advice.
fn sniff_json(reader: &mut dyn BufRead, name: &Path) -> Result<InputFormat> {
    let head = reader.fill_buf().map_err(|e| read_error(name, 1, e))?;
    let head = strip_bom(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let line_no = 1 + head[..start].iter().filter(|&&b| b == b'\n').count() as u64;
    let rest = &head[start..];
    let convert = "convert it to JSON Lines (one object per line), e.g. `jq -c '.[]' IN.json > \
                   OUT.jsonl`, or `jq -c . IN.json > OUT.jsonl` for one document";
    match rest.first() {
        None => Ok(InputFormat::Jsonl),
        Some(b'{') => {
            let line = match memchr::memchr(b'\n', rest) {
                Some(end) => &rest[..end],
                // A first line longer than the buffer: let the JSON Lines reader judge it.
                None if rest.len() >= super::source::BUFFER_BYTES => {
                    return Ok(InputFormat::Jsonl);
                }
                None => rest,
            };
            let is_object = serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok();
            if is_object {
                Ok(InputFormat::Jsonl)
            } else {
                Err(Error::input(
                    name,
                    line_no,
                    format!(
                        "this .json file holds one JSON document spread over several lines, \
                         not one object per line; {convert}"
                    ),
                ))
            }
        }
        Some(b'[') => Err(Error::input(
            name,
            line_no,
            format!("this .json file holds a JSON array, which is not read as a stream; {convert}"),
        )),
        Some(_) => Err(Error::input(
            name,
            line_no,
            format!(
                "this .json file does not start with a JSON object; if it is plain text, pass \
                 --format text, else {convert}"
            ),
        )),
    }
}

fn read_stream(
    source: source::Source<'_>,
    name: &Path,
    how: How,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let mut source = source;
    let format = if how.sniff_json {
        sniff_json(&mut source.reader, name)?
    } else {
        how.format
    };
    check_format_options(opts, format, how.stdin_default)?;
    // Looks at bytes already buffered (decompressed) without consuming them: what is read
    // does not change.
    let warning = match format {
        InputFormat::Text if how.stdin_default => {
            source.reader.fill_buf().ok().and_then(stdin_header_warning)
        }
        InputFormat::Csv | InputFormat::Tsv => {
            let delimiter = if format == InputFormat::Tsv {
                b'\t'
            } else {
                b','
            };
            source
                .reader
                .fill_buf()
                .ok()
                .and_then(|head| other_delimiter_warning(head, name, delimiter))
        }
        _ => None,
    };
    // That warning explains the one-column table: the column warnings would only repeat it.
    let warn_about_columns = warning.is_none();
    let mut sink = Sink::new(name, opts);
    // Without compression, sampling or a limit the file size bounds the text bytes: reserving
    // it up front avoids the repeated growth copies of a 400 MB arena (the excess is released
    // at the end).
    if let (Compression::None, None, None, Some(bytes)) = (
        source.compression,
        opts.sample,
        opts.limit,
        source.disk_bytes,
    ) {
        sink.corpus.texts.reserve(bytes as usize);
    }
    let mut reader = source.reader;
    let bytes = match format {
        InputFormat::Text | InputFormat::Auto => read_lines(&mut reader, &mut sink, progress)?,
        InputFormat::Csv => super::delimited::read(
            &mut reader,
            b',',
            name,
            opts,
            warn_about_columns,
            &mut sink,
            progress,
        )?,
        InputFormat::Tsv => super::delimited::read(
            &mut reader,
            b'\t',
            name,
            opts,
            warn_about_columns,
            &mut sink,
            progress,
        )?,
        InputFormat::Jsonl => super::jsonl::read(&mut reader, name, opts, &mut sink, progress)?,
        InputFormat::Dir => unreachable!("directories are read by dir::read_dir_corpus"),
        InputFormat::Parquet => unreachable!("Parquet is read by parquet::read_file"),
    };
    let mut report = ReadReport {
        format,
        bytes,
        compression: source.compression.name(),
        warnings: warning.into_iter().collect(),
        ..Default::default()
    };
    let corpus = sink.finish(&mut report);
    Ok((corpus, report))
}

/// For stdin read as text lines by default: a warning when its first line looks like a CSV or
/// TSV header naming a `text` column (`id,text` is what `lshscope gen` writes), since each row
/// then becomes a document with its id and delimiters in the text. Only the first line of
/// `head` is examined.
fn stdin_header_warning(head: &[u8]) -> Option<String> {
    let line = first_lines(head).next()?;
    let line = std::str::from_utf8(line).ok()?;
    // A field exactly `text` (quoted or not): prose such as `a text, or two` does not match.
    let names_text = |delimiter: char| {
        line.contains(delimiter)
            && line
                .split(delimiter)
                .any(|f| f.trim_matches('"').eq_ignore_ascii_case("text"))
    };
    let (kind, advice) = if names_text('\t') {
        ("TSV", "pass --format tsv to read its columns")
    } else if names_text(',') {
        ("CSV", "pass --format csv (or tsv) to read its columns")
    } else {
        return None;
    };
    Some(format!(
        "stdin looks like {kind} with a header (`{}`); it is read as plain text, one \
         document per line: {advice}",
        excerpt(line)
    ))
}

/// For a file read as TSV (`delimiter` a tab) or CSV (a comma): a warning when its first lines
/// hold no `delimiter` at all while the first holds the other one, as a CSV named `.tsv` does.
/// Every line would be read as one field: ids would be row numbers and the text the whole
/// line. Looks at `head`, bytes already buffered, so what is read does not change.
fn other_delimiter_warning(head: &[u8], name: &Path, delimiter: u8) -> Option<String> {
    /// Lines examined: enough that one stray line does not decide, few enough to stay in the
    /// first buffer.
    const LINES: usize = 5;
    let (kind, delimiter_name, other, other_name) = if delimiter == b'\t' {
        ("TSV", "tab", b',', "commas")
    } else {
        ("CSV", "comma", b'\t', "tabs")
    };
    let mut lines = first_lines(head).filter(|l| !l.is_empty()).take(LINES);
    let first = lines.next()?;
    if memchr::memchr(delimiter, first).is_some()
        || memchr::memchr(other, first).is_none()
        || lines.any(|l| memchr::memchr(delimiter, l).is_some())
    {
        return None;
    }
    // JSON Lines hold commas too (`gen --output-format jsonl -o x.tsv`).
    let (looks_like, format) = if first.starts_with(b"{") {
        ("JSON Lines", "jsonl")
    } else if delimiter == b'\t' {
        ("CSV", "csv")
    } else {
        ("TSV", "tsv")
    };
    Some(format!(
        "{} is read as {kind}, but its first lines hold no {delimiter_name} and do hold \
         {other_name} (`{}`): it looks like {looks_like}, and each line is read as one field; \
         pass --format {format} to read it as such",
        name.display(),
        excerpt_bytes(first),
    ))
}

/// The lines of `head` for sniffing, without a BOM or line endings; a last line cut off by the
/// end of the buffer is left out, unless it is the only one.
fn first_lines(head: &[u8]) -> impl Iterator<Item = &[u8]> {
    let head = strip_bom(head);
    let complete = match memchr::memrchr(b'\n', head) {
        Some(end) => &head[..end],
        None => head,
    };
    complete
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
}

fn read_lines(reader: &mut dyn BufRead, sink: &mut Sink, progress: &Progress) -> Result<u64> {
    let name = sink.name().to_path_buf();
    let mut lines = Lines::new(reader, &name);
    let mut id = String::new();
    while !sink.is_full() {
        let Some((number, content)) = lines.next_line(progress)? else {
            break;
        };
        let (text, lossy) = decode(content);
        sink.push(number_id(&mut id, number), &text, lossy);
    }
    sink.lines.physical = lines.count();
    Ok(lines.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{ColumnSpec, LineCounts, Quote};

    fn read_bytes(bytes: &[u8], name: &str, opts: &ReadOptions) -> Result<(Corpus, ReadReport)> {
        read_corpus_from(bytes, Path::new(name), opts, &Progress::new())
    }

    fn docs(c: &Corpus) -> Vec<(String, String)> {
        (0..c.len())
            .map(|i| (c.id(i).to_string(), c.text(i).to_string()))
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn input_error(r: Result<(Corpus, ReadReport)>) -> (u64, String) {
        match r {
            Err(Error::Input { line, message, .. }) => (line, message),
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn stdin_header_warning_needs_a_delimited_first_line_naming_text() {
        let csv = stdin_header_warning(b"id,text\n1,first\n").unwrap();
        assert_eq!(
            csv,
            "stdin looks like CSV with a header (`id,text`); it is read as plain text, one \
             document per line: pass --format csv (or tsv) to read its columns"
        );
        let tsv = stdin_header_warning(b"\xEF\xBB\xBFdoc_id\tTEXT\r\n1\ta\n").unwrap();
        assert!(
            tsv.contains("TSV with a header (`doc_id\\tTEXT`)") && tsv.contains("--format tsv"),
            "{tsv}"
        );
        assert!(stdin_header_warning(b"\"id\",\"Text\"").is_some());
        for plain in [
            &b"text\nmore\n"[..],
            b"a text, or two\nid,text\n",
            b"id,body\n",
            b"",
        ] {
            assert_eq!(stdin_header_warning(plain), None, "{plain:?}");
        }
    }

    #[test]
    fn format_from_extension() {
        let f = |p: &str| detect_format(Path::new(p));
        assert_eq!(f("a.csv"), InputFormat::Csv);
        assert_eq!(f("a.CSV.gz"), InputFormat::Csv);
        assert_eq!(f("dir.v2/a.tsv.zst"), InputFormat::Tsv);
        assert_eq!(f("a.tab"), InputFormat::Tsv);
        assert_eq!(f("a.jsonl"), InputFormat::Jsonl);
        assert_eq!(f("a.ndjson.gz"), InputFormat::Jsonl);
        assert_eq!(f("hf/train-00000-of-00002.parquet"), InputFormat::Parquet);
        assert_eq!(f("a.txt"), InputFormat::Text);
        assert_eq!(f("a.json"), InputFormat::Text);
        assert_eq!(f("notes"), InputFormat::Text);
        assert_eq!(f("a.gz"), InputFormat::Text);
        assert_eq!(f("<stdin>"), InputFormat::Text);
    }

    #[test]
    fn text_lines_strip_crlf_and_bom_and_keep_empty_lines() {
        let (c, r) = read_bytes(
            b"\xEF\xBB\xBFfirst\r\n\r\n  \nlast",
            "x.txt",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("1", "first"), ("2", ""), ("3", "  "), ("4", "last")])
        );
        assert_eq!((r.documents, r.empty, r.format), (4, 2, InputFormat::Text));
        assert_eq!(r.bytes, 19);
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_and_counted() {
        let (c, r) = read_bytes(b"ok\nbad \xFF byte\n", "x.txt", &ReadOptions::default()).unwrap();
        assert_eq!(c.text(1), "bad \u{FFFD} byte");
        assert_eq!(r.lossy_utf8, 1);
    }

    #[test]
    fn csv_defaults_to_text_and_id_columns_by_name() {
        let input = b"title,Text,id\nt1,\"one, with comma\",a\nt2,\"two\nlines\",b\n";
        let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", "one, with comma"), ("b", "two\nlines")])
        );
        assert_eq!(r.format, InputFormat::Csv);
    }

    #[test]
    fn csv_without_a_text_column_takes_the_only_candidate_or_refuses_to_guess() {
        let defaults = ReadOptions::default();
        // `id,body,url`: body or url? The last column (url) was taken silently before.
        let (line, message) = input_error(read_bytes(
            b"id,body,url\n1,first,http://a\n",
            "x.csv",
            &defaults,
        ));
        assert_eq!(line, 1);
        assert!(
            message.starts_with(
                "no column named `text`, and 2 columns could hold the text: body, url (the id is \
                 column `id`); choose one with --text-column NAME"
            ),
            "{message}"
        );
        let (line, _) = input_error(read_bytes(b"x,y\n1,first\n", "x.csv", &defaults));
        assert_eq!(line, 1);

        // `doc_id,body`: body is the only column that does not look like an id.
        let (c, r) = read_bytes(b"doc_id,body\nd1,first\nd2,second\n", "x.csv", &defaults).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
        assert_eq!(
            r.warnings,
            [
                "x.csv has no column named `text`, so the text is read from column `body` (other \
                 columns: doc_id); name the text column with --text-column NAME to choose \
                 another or to confirm this one",
                "x.csv has no column named `id`, so documents are numbered by row (1, 2, …) and \
                 pairs and clusters name them so; column `doc_id` looks like an id: pass \
                 --id-column doc_id to use it",
            ]
        );
        // Naming the columns silences both.
        let named = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            id_column: Some(ColumnSpec::Name("doc_id".into())),
            ..Default::default()
        };
        let (c, r) = read_bytes(b"doc_id,body\nd1,first\n", "x.csv", &named).unwrap();
        assert_eq!(docs(&c), pairs(&[("d1", "first")]));
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        // `body,id`: the id column is never the text, wherever it stands.
        let (c, r) = read_bytes(b"body,id\nfirst,a\n", "x.csv", &defaults).unwrap();
        assert_eq!(docs(&c), pairs(&[("a", "first")]));
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        // A `text` column and no id-like column: nothing to warn about.
        let (_, r) = read_bytes(b"title,text\nt,first\n", "x.csv", &defaults).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    #[test]
    fn csv_without_a_header_reads_two_columns_as_id_and_text_quietly() {
        let opts = ReadOptions {
            has_headers: false,
            ..Default::default()
        };
        // Two columns: `id,text` without the header (the ids used to become row numbers).
        let (c, r) = read_bytes(b"k1,first\nk2,second\n", "x.csv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("k1", "first"), ("k2", "second")]));
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(r.lines.header, 0);
        // Other counts: the last column, row numbers.
        let (c, r) = read_bytes(b"k1,t,first\nk2,u,second\n", "x.csv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let (c, _) = read_bytes(b"first\nsecond\n", "x.csv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
        // Given columns win; the text in column 1 leaves no column for the id.
        let (c, _) = read_bytes(
            b"k1,first\nk2,second\n",
            "x.csv",
            &ReadOptions {
                text_column: Some(ColumnSpec::Index(1)),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "k1"), ("2", "k2")]));
        let (c, _) = read_bytes(
            b"first,k1\nsecond,k2\n",
            "x.csv",
            &ReadOptions {
                id_column: Some(ColumnSpec::Index(2)),
                text_column: Some(ColumnSpec::Index(1)),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(docs(&c), pairs(&[("k1", "first"), ("k2", "second")]));
    }

    /// `id<TAB>text` dumps whose first document would be taken for column names.
    #[test]
    fn a_first_row_that_cannot_be_a_header_is_read_as_data_with_a_note() {
        let long = "Senior data engineer wanted for a growing logistics team; ".repeat(5);
        let tsv = format!("101\t{long}\n102\tsecond ad\n");
        let (c, r) = read_bytes(tsv.as_bytes(), "ads.tsv", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("101", long.as_str()), ("102", "second ad")])
        );
        assert_eq!(r.lines.header, 0);
        assert_eq!(
            r.warnings,
            [format!(
                "ads.tsv: the first row does not look like a header (field 2 is {} characters \
                 long), so it is read as data and the file as having no header row: column 2 \
                 of 2 is the text, column 1 is the id; pass --no-headers to say so, or, if that \
                 row is a header, name the text column with --text-column NAME",
                long.trim().chars().count()
            )]
        );
        // --no-headers reads it the same, with nothing to note.
        let no_headers = ReadOptions {
            has_headers: false,
            ..Default::default()
        };
        let (c2, r2) = read_bytes(tsv.as_bytes(), "ads.tsv", &no_headers).unwrap();
        assert_eq!(docs(&c2), docs(&c));
        assert!(r2.warnings.is_empty(), "{:?}", r2.warnings);
        // The same in CSV, with quoting; a short number-led first row is data too.
        let csv = b"7,\"Refund not received, order 55\"\n8,Where is my parcel\n";
        let (c, r) = read_bytes(csv, "q.csv", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[
                ("7", "Refund not received, order 55"),
                ("8", "Where is my parcel")
            ])
        );
        assert!(
            r.warnings[0].contains("(field 1 is a number and field 2 has several words)"),
            "{:?}",
            r.warnings
        );
        // One column of prose: numbered by row.
        let (c, r) = read_bytes(
            format!("{long}\nshort\n").as_bytes(),
            "p.tsv",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c.id(0), "1");
        assert!(
            r.warnings[0].contains("its one column is the text, documents are numbered by row"),
            "{:?}",
            r.warnings
        );
        // A column named on the command line says there is a header: no sniffing.
        let named = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            ..Default::default()
        };
        let (line, message) = input_error(read_bytes(tsv.as_bytes(), "ads.tsv", &named));
        assert_eq!(line, 1);
        assert!(message.contains("no column named `body`"), "{message}");
        assert!(message.ends_with("pass --no-headers"), "{message}");
    }

    /// A short first document looks like a header: it is taken for one, as before, and the
    /// error says how to read the file without.
    #[test]
    fn a_short_first_document_is_a_header_and_the_error_names_no_headers() {
        let input = b"a1\tHello there\na2\tGood morning\n";
        let (line, message) = input_error(read_bytes(input, "x.tsv", &ReadOptions::default()));
        assert_eq!(line, 1);
        assert!(
            message.starts_with(
                "no column named `text`, and 2 columns could hold the text: a1, \
                 Hello there"
            ) && message.ends_with(
                "if the file has no header row (its first row is a document), pass \
                     --no-headers"
            ),
            "{message}"
        );
        let opts = ReadOptions {
            has_headers: false,
            ..Default::default()
        };
        let (c, _) = read_bytes(input, "x.tsv", &opts).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a1", "Hello there"), ("a2", "Good morning")])
        );
        // Real headers are untouched.
        for (input, name) in [
            (&b"id,text\n1,a b c\n"[..], "x.csv"),
            (b"doc_id\tcontent\nd1\tfirst words here\n", "x.tsv"),
            (b"text\nfirst words here\n", "x.tsv"),
        ] {
            let (_, r) = read_bytes(input, name, &ReadOptions::default()).unwrap();
            assert_eq!(r.lines.header, 1, "{name}");
            assert!(
                r.warnings.iter().all(|w| !w.contains("look like a header")),
                "{:?}",
                r.warnings
            );
        }
    }

    /// A document of megabytes taken for a header must not be quoted whole.
    #[test]
    fn messages_quote_at_most_a_hundred_characters_of_the_input() {
        let huge = "z".repeat(3_000_000);
        // Under a column name the sniff is off: the error lists the columns, shortened.
        let opts = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            ..Default::default()
        };
        let (_, message) = input_error(read_bytes(
            format!("{huge},{huge}\n1,2\n").as_bytes(),
            "x.csv",
            &opts,
        ));
        assert!(message.len() < 1_000, "{} bytes", message.len());
        assert!(
            message.contains(&format!("{}…", "z".repeat(100))),
            "{message}"
        );
        // Text after a closing quote.
        let (_, message) = input_error(read_bytes(
            format!("id,text\n1,\"a\"{huge}\n").as_bytes(),
            "x.csv",
            &ReadOptions::default(),
        ));
        assert!(message.len() < 1_000, "{} bytes", message.len());
        // Repeated ids kept as examples.
        let (_, r) = read_bytes(
            format!("id\ttext\n{huge}\ta\n{huge}\tb\n").as_bytes(),
            "x.tsv",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(r.duplicate_id_examples, [format!("{}…", "z".repeat(100))]);
    }

    #[test]
    fn csv_ragged_row_reports_the_physical_line() {
        // The first data row spans lines 2-3, so the ragged row is on line 5, not row 4.
        let input = b"id,text\na,\"two\nlines\"\nb,ok\nc,too,many\nd,fine\n";
        let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
        assert_eq!(line, 5);
        assert!(
            message.contains("3 fields but the header has 2"),
            "{message}"
        );
        assert!(message.contains("--skip-bad"), "{message}");

        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", "two\nlines"), ("b", "ok"), ("d", "fine")])
        );
        assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![5]));
    }

    #[test]
    fn csv_missing_column_lists_the_columns() {
        let opts = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            ..Default::default()
        };
        let (line, message) = input_error(read_bytes(b"id,title,text\n1,a,b\n", "x.csv", &opts));
        assert_eq!(line, 1);
        assert!(
            message.contains("no column named `body`; columns are: id, title, text"),
            "{message}"
        );
        assert!(message.contains("--text-column"), "{message}");
    }

    #[test]
    fn tsv_uses_tabs() {
        let (c, _) =
            read_bytes(b"id\ttext\n7\ta, b, c\n", "x.tsv", &ReadOptions::default()).unwrap();
        assert_eq!(docs(&c), pairs(&[("7", "a, b, c")]));
    }

    #[test]
    fn jsonl_fields_ids_blank_lines_and_escapes() {
        let input = concat!(
            "{\"id\": 17, \"text\": \"plain\", \"other\": [1, {\"x\": null}]}\n",
            "\n",
            "{\"text\": \"esc\\u00e9 \\\"q\\\"\", \"id\": 2.5}\n",
            "{\"id\": \"s-1\", \"text\": null}\r\n",
        );
        let (c, r) = read_bytes(input.as_bytes(), "x.jsonl", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("17", "plain"), ("2.5", "esc\u{e9} \"q\""), ("s-1", "")])
        );
        assert_eq!((r.documents, r.empty), (3, 1));
    }

    #[test]
    fn jsonl_errors_name_the_line() {
        let opts = ReadOptions::default();
        let (line, message) = input_error(read_bytes(
            b"{\"text\": \"a\"}\n{\"text\": 5}\n",
            "x.jsonl",
            &opts,
        ));
        assert_eq!(line, 2);
        assert!(
            message.contains("expected a string in field `text`"),
            "{message}"
        );

        let (line, message) =
            input_error(read_bytes(b"{\"text\": \"a\"}\n[1, 2]\n", "x.jsonl", &opts));
        assert_eq!(line, 2);
        assert!(message.contains("a JSON object"), "{message}");

        let (line, message) = input_error(read_bytes(
            b"{\"body\": \"a\", \"n\": 1}\n",
            "x.jsonl",
            &opts,
        ));
        assert_eq!(line, 1);
        assert!(
            message.contains("no field `text`") && message.contains("body, n"),
            "{message}"
        );

        let explicit = ReadOptions {
            id_field: Some("key".into()),
            ..Default::default()
        };
        let (line, message) = input_error(read_bytes(
            b"{\"key\": 1, \"text\": \"a\"}\n{\"text\": \"b\"}\n",
            "x.jsonl",
            &explicit,
        ));
        assert_eq!(line, 2);
        assert!(message.contains("no field `key`"), "{message}");
    }

    #[test]
    fn limit_applies_before_sample() {
        let input: String = (1..=100).map(|i| format!("doc {i}\n")).collect();
        let limited = ReadOptions {
            limit: Some(10),
            ..Default::default()
        };
        let (c, r) = read_bytes(input.as_bytes(), "x.txt", &limited).unwrap();
        assert_eq!((c.len(), c.id(9), r.rows_read), (10, "10", 10));

        let both = ReadOptions {
            limit: Some(10),
            sample: Some(4),
            seed: 9,
            ..Default::default()
        };
        let (c, r) = read_bytes(input.as_bytes(), "x.txt", &both).unwrap();
        assert_eq!((c.len(), r.rows_read, r.documents), (4, 10, 4));
        let ids: Vec<u32> = (0..c.len()).map(|i| c.id(i).parse().unwrap()).collect();
        assert!(ids.iter().all(|&i| i <= 10), "{ids:?}");
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "input order: {ids:?}");
        for i in 0..c.len() {
            assert_eq!(c.text(i), format!("doc {}", c.id(i)));
        }
    }

    #[test]
    fn compressed_streams_are_recognised_by_magic() {
        use std::io::Write;
        let plain = b"id,text\n1,hello there\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(plain).unwrap();
        let gz = gz.finish().unwrap();
        let zst = zstd::encode_all(&plain[..], 1).unwrap();
        for (bytes, kind) in [(gz, "gzip"), (zst, "zstd")] {
            let (c, r) = read_bytes(&bytes, "x.csv", &ReadOptions::default()).unwrap();
            assert_eq!(docs(&c), pairs(&[("1", "hello there")]), "{kind}");
            assert_eq!(r.compression, Some(kind));
            assert_eq!(r.bytes, plain.len() as u64);
        }
    }

    #[test]
    fn zero_limit_or_sample_is_a_usage_error() {
        for opts in [
            ReadOptions {
                limit: Some(0),
                ..Default::default()
            },
            ReadOptions {
                sample: Some(0),
                ..Default::default()
            },
        ] {
            assert!(matches!(
                read_bytes(b"a\n", "x.txt", &opts),
                Err(Error::Usage(_))
            ));
        }
    }

    #[test]
    fn tsv_quotes_are_ordinary_characters_by_default() {
        // Texts that start (and some that end) with a quote, as in unquoted dumps.
        let mut input = String::from("id\ttext\n");
        let n = 500;
        for i in 0..n {
            match i % 3 {
                0 => input.push_str(&format!("{i}\t\"quoted start of text {i}\n")),
                1 => input.push_str(&format!("{i}\t\"fully quoted {i}\"\n")),
                _ => input.push_str(&format!("{i}\tplain \"inner\" {i}\n")),
            }
        }
        let (c, r) = read_bytes(input.as_bytes(), "x.tsv", &ReadOptions::default()).unwrap();
        assert_eq!(c.len(), n);
        assert_eq!(c.text(0), "\"quoted start of text 0");
        assert_eq!(c.text(1), "\"fully quoted 1\"");
        assert_eq!(c.text(2), "plain \"inner\" 2");
        assert_eq!(
            r.lines,
            LineCounts {
                physical: n as u64 + 1,
                header: 1,
                blank: 0,
                continuation: 0
            }
        );
    }

    #[test]
    fn tsv_with_double_quotes_unescapes() {
        let opts = ReadOptions {
            quote: Some(Quote::Double),
            ..Default::default()
        };
        let (c, r) = read_bytes(b"id\ttext\n1\t\"a\tb\"\"c\nd\"\n", "x.tsv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "a\tb\"c\nd")]));
        assert_eq!((r.lines.physical, r.lines.continuation), (3, 1));
    }

    #[test]
    fn csv_quoting_keeps_crlf_and_counts_lines() {
        let input = b"id,text\r\n\r\na,\"x\r\ny\"\r\nb,\"\"\"q\"\" end\"\r\nc,plain\r\n";
        let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", "x\r\ny"), ("b", "\"q\" end"), ("c", "plain")])
        );
        assert_eq!(
            r.lines,
            LineCounts {
                physical: 6,
                header: 1,
                blank: 1,
                continuation: 1
            }
        );
        let l = r.lines;
        assert_eq!(
            l.physical,
            l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
        );
    }

    #[test]
    fn csv_quote_open_at_end_names_its_line() {
        let input = b"id,text\na,fine\nb,\"never closed\nc,swallowed\nd,too\n";
        let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
        assert_eq!(line, 3);
        assert!(message.contains("still open at the end"), "{message}");
        assert!(message.contains("--quote none"), "{message}");

        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", "fine"), ("c", "swallowed"), ("d", "too")])
        );
        assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![3]));
        assert_eq!(r.lines.physical, 5);

        let none = ReadOptions {
            quote: Some(Quote::None),
            ..Default::default()
        };
        let (c, _) = read_bytes(input, "x.csv", &none).unwrap();
        assert_eq!(c.text(1), "\"never closed");
        assert_eq!(c.len(), 4);
    }

    #[test]
    fn text_after_a_closing_quote_is_a_bad_row_naming_line_and_column() {
        let opts = ReadOptions::default();
        for (input, line, column, stray) in [
            (&b"id,text\n1,\"abc\"def\n"[..], 2, 8, "`def`"),
            (
                b"id,text\n1,ok\n2,\"say \"\"hi\"\" now\" later\n",
                3,
                19,
                "` later`",
            ),
            // Columns count characters; the text shown stops at the next delimiter.
            (
                b"id,text,x\n\"\xC3\xA9\"\xC3\xA9t\xC3\xA9,b,c\n",
                2,
                4,
                "`\u{e9}t\u{e9}`",
            ),
            // A bad header row has its own message: see `delimited::tests`.
        ] {
            let Err(Error::Input {
                line: l,
                column: c,
                message,
                ..
            }) = read_bytes(input, "x.csv", &opts)
            else {
                panic!("{input:?} should be an input error");
            };
            assert_eq!((l, c), (line, Some(column)), "{message}");
            assert!(
                message.starts_with("text follows the closing quote of a quoted field: ")
                    && message.contains(stray),
                "{message}"
            );
            assert!(
                message.contains("--quote none") && message.contains("--skip-bad"),
                "{message}"
            );
        }
        // TSV with --quote double follows the same rule.
        let tsv = ReadOptions {
            quote: Some(Quote::Double),
            ..Default::default()
        };
        let (line, message) = input_error(read_bytes(b"id\ttext\n1\t\"a\"b\n", "x.tsv", &tsv));
        assert_eq!(line, 2);
        assert!(message.contains("`b`"), "{message}");
    }

    #[test]
    fn a_closing_quote_may_be_followed_only_by_a_delimiter_a_quote_or_the_line_end() {
        let input = b"id,text,n\r\n\"a\",\"\",x\r\n\"b\",\"q \"\"x\"\"\",\"\"\r\nc,in \"the\" middle,\"\"\"\"\n";
        let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", ""), ("b", "q \"x\""), ("c", "in \"the\" middle")])
        );
        assert_eq!(r.skipped, 0);
        // Quotes inside an unquoted field stay ordinary characters.
        let (c, _) =
            read_bytes(b"id,text\n1,ab\"c\"d\n", "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(c.text(0), "ab\"c\"d");
    }

    #[test]
    fn text_after_a_quote_is_skipped_and_counted_under_skip_bad() {
        let input =
            b"id,text\n1,\"abc\"def\n2,fine\n3,\"say \"\"hi\"\" now\" later\n4,\"also fine\"\n";
        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("2", "fine"), ("4", "also fine")]));
        assert_eq!((r.skipped, r.skipped_lines.clone()), (2, vec![2, 4]));
        let l = r.lines;
        assert_eq!(
            l.physical,
            l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
        );
        // Read without quoting, every row is kept as written.
        let none = ReadOptions {
            quote: Some(Quote::None),
            ..Default::default()
        };
        let (c, _) = read_bytes(input, "x.csv", &none).unwrap();
        assert_eq!(c.text(0), "\"abc\"def");
        assert_eq!(c.text(2), "\"say \"\"hi\"\" now\" later");
    }

    #[test]
    fn a_stray_quote_closed_on_a_later_line_is_reported_and_its_lines_read_again() {
        let input = b"id,text\na,\"one\nb,\"two\nc,three\nd,\"four\"\"\n";
        // The quote of line 3 closes the field opened on line 2, and `two` follows it.
        let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
        assert_eq!(line, 3);
        assert!(
            message.contains("quoted field opened on line 2: `two`"),
            "{message}"
        );

        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
        // Line 2 is skipped and line 3 read again: its quote closes on line 5 before `four`,
        // so it is skipped too and lines 4 and 5 read again; line 5, `d,"four""`, never
        // closes.
        assert_eq!(docs(&c), pairs(&[("c", "three")]));
        assert_eq!(r.skipped_lines, vec![2, 3, 5]);
        assert_eq!(r.lines.physical, 5);
        let l = r.lines;
        assert_eq!(
            l.physical,
            l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
        );
    }

    #[test]
    fn csv_quote_spanning_too_many_lines_is_bounded() {
        let mut input = String::from("id,text\n1,\"runaway\n");
        let n = super::super::MAX_QUOTED_LINES as usize + 50;
        for i in 0..n {
            input.push_str(&format!("{},line {i}\n", i + 2));
        }
        input.push_str("last,\"closes here\"\n");
        let (line, message) = input_error(read_bytes(
            input.as_bytes(),
            "x.csv",
            &ReadOptions::default(),
        ));
        assert_eq!(line, 2);
        assert!(message.contains("spans more than 10000 lines"), "{message}");
        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input.as_bytes(), "x.csv", &opts).unwrap();
        assert_eq!(c.len(), n + 1);
        assert_eq!(c.text(c.len() - 1), "closes here");
        assert_eq!(r.skipped_lines, vec![2]);
        assert_eq!(r.lines.physical, n as u64 + 3);
    }

    #[test]
    fn repeated_ids_are_counted() {
        let input = b"id,text\na,1\nb,2\na,3\nc,4\na,5\nb,6\n";
        let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(c.len(), 6);
        assert_eq!(r.duplicate_ids, 3);
        assert_eq!(
            r.duplicate_id_examples,
            vec!["a".to_string(), "b".to_string()]
        );
        let (_, r) = read_bytes(b"x\ny\n", "x.txt", &ReadOptions::default()).unwrap();
        assert_eq!(r.duplicate_ids, 0);
    }

    #[test]
    fn jsonl_blank_lines_are_counted() {
        let (_, r) = read_bytes(
            b"{\"text\": \"a\"}\n\n  \n{\"text\": \"b\"}\n",
            "x.jsonl",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!((r.lines.physical, r.lines.blank, r.documents), (4, 2, 2));
    }

    /// Lines 1, 2 and 4 have ids: line 3 must too, or its line number could collide with one
    /// (here `"id": 3` on line 4).
    const ONE_LINE_WITHOUT_ID: &[u8] =
        b"{\"id\": 1, \"text\": \"a\"}\n{\"id\": 2, \"text\": \"b\"}\n\
        {\"text\": \"c\", \"n\": 0}\n{\"id\": 3, \"text\": \"d\"}\n";

    #[test]
    fn jsonl_line_without_the_id_among_lines_with_ids_is_a_bad_row() {
        let (line, message) = input_error(read_bytes(
            ONE_LINE_WITHOUT_ID,
            "x.jsonl",
            &ReadOptions::default(),
        ));
        assert_eq!(line, 3);
        assert_eq!(
            message,
            "no field `id` on this line (its fields are: n, text), but line 1 has one: with its \
             line number as id it could collide with the id of another line; add the id to every \
             line, or pass --skip-bad to skip lines without one"
        );
        let skip = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(ONE_LINE_WITHOUT_ID, "x.jsonl", &skip).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "a"), ("2", "b"), ("3", "d")]));
        assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![3]));
        assert_eq!(r.duplicate_ids, 0);
        // A null id is no id.
        let null = b"{\"id\": 1, \"text\": \"a\"}\n{\"id\": null, \"text\": \"b\"}\n";
        let (line, _) = input_error(read_bytes(null, "x.jsonl", &ReadOptions::default()));
        assert_eq!(line, 2);
    }

    #[test]
    fn jsonl_lines_numbered_before_the_first_id_are_bad_rows_too() {
        let input = b"{\"text\": \"a\"}\n\n{\"text\": \"b\"}\n{\"id\": 1, \"text\": \"c\"}\n\
            {\"text\": \"d\"}\n{\"id\": 2, \"text\": \"e\"}\n";
        // The first line without an id is the one reported.
        let (line, message) = input_error(read_bytes(input, "x.jsonl", &ReadOptions::default()));
        assert_eq!(line, 1);
        assert!(
            message.starts_with(
                "no field `id` on this line (its fields are: text), but line 4 \
                 has one"
            ),
            "{message}"
        );
        let skip = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input, "x.jsonl", &skip).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "c"), ("2", "e")]));
        assert_eq!((r.skipped, r.skipped_lines.clone()), (3, vec![1, 3, 5]));
        assert_eq!((r.rows_read, r.lines.blank, r.lines.physical), (2, 1, 6));
        // The documents taken back free their places under --limit.
        let limited = ReadOptions {
            limit: Some(3),
            ..skip.clone()
        };
        let (c, _) = read_bytes(input, "x.jsonl", &limited).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "c"), ("2", "e")]));
        // A limit reached before any line had an id: the lines read have none, and are
        // numbered by line as in a file without ids.
        let (c, r) = read_bytes(
            input,
            "x.jsonl",
            &ReadOptions {
                limit: Some(2),
                ..skip.clone()
            },
        )
        .unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "a"), ("3", "b")]));
        assert_eq!(r.skipped, 0);
        // A sample draws among the documents kept, as if the others had never been read.
        let sampled = |input: &[u8]| {
            let opts = ReadOptions {
                sample: Some(3),
                seed: 5,
                ..skip.clone()
            };
            docs(&read_bytes(input, "x.jsonl", &opts).unwrap().0)
        };
        let with_ids: String = (1..=40)
            .map(|i| format!("{{\"id\": {i}, \"text\": \"t{i}\"}}\n"))
            .collect();
        let preceded = format!("{{\"text\": \"x\"}}\n{{\"text\": \"y\"}}\n{with_ids}");
        assert_eq!(sampled(preceded.as_bytes()), sampled(with_ids.as_bytes()));
    }

    #[test]
    fn jsonl_without_any_id_is_numbered_by_line_and_says_so_when_a_field_looks_like_one() {
        let plain = b"{\"text\": \"a\"}\n{\"text\": \"b\"}\n";
        let (c, r) = read_bytes(plain, "x.jsonl", &ReadOptions::default()).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "a"), ("2", "b")]));
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);

        let doc_ids =
            b"{\"doc_id\": \"k1\", \"text\": \"a\"}\n{\"doc_id\": \"k2\", \"text\": \"b\"}\n";
        let (c, r) = read_bytes(doc_ids, "x.jsonl", &ReadOptions::default()).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "a"), ("2", "b")]));
        assert_eq!(
            r.warnings,
            [
                "x.jsonl has no field named `id`, so documents are numbered by line (1, 2, …) and \
              pairs and clusters name them so; field `doc_id` looks like an id: pass --id-field \
              doc_id to use it"
            ]
        );
        let named = ReadOptions {
            id_field: Some("doc_id".into()),
            ..Default::default()
        };
        let (c, r) = read_bytes(doc_ids, "x.jsonl", &named).unwrap();
        assert_eq!(docs(&c), pairs(&[("k1", "a"), ("k2", "b")]));
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    #[test]
    fn a_file_read_as_tsv_that_holds_csv_is_warned_about() {
        let csv = b"id,text\ndoc-1,first, with a comma\ndoc-2,second\n";
        let (c, r) = read_bytes(csv, "g.tsv", &ReadOptions::default()).unwrap();
        assert_eq!(c.text(0), "doc-1,first, with a comma");
        // One warning: the column warnings would only repeat it.
        assert_eq!(
            r.warnings,
            [
                "g.tsv is read as TSV, but its first lines hold no tab and do hold commas \
              (`id,text`): it looks like CSV, and each line is read as one field; pass --format \
              csv to read it as such"
            ]
        );
        // The same through --format tsv, and the mirror case.
        let tsv = ReadOptions {
            format: InputFormat::Tsv,
            ..Default::default()
        };
        let (_, r) = read_bytes(csv, "corpus.txt", &tsv).unwrap();
        assert!(
            r.warnings[0].starts_with("corpus.txt is read as TSV"),
            "{:?}",
            r.warnings
        );
        let (_, r) = read_bytes(b"id\ttext\n1\ta\n", "x.csv", &ReadOptions::default()).unwrap();
        assert!(
            r.warnings[0].contains(
                "hold no comma and do hold tabs (`id\\ttext`): it looks like \
                 TSV"
            ) && r.warnings[0].ends_with("pass --format tsv to read it as such"),
            "{:?}",
            r.warnings
        );
        // JSON Lines under a TSV name.
        let (_, r) = read_bytes(
            b"{\"id\":1,\"text\":\"a\"}\n",
            "x.tsv",
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(
            r.warnings[0].contains("pass --format jsonl"),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn other_delimiter_warning_needs_no_delimiter_in_the_first_lines() {
        let name = Path::new("x.tsv");
        // A one-column TSV of prose: its header holds no comma.
        assert_eq!(other_delimiter_warning(b"text\na, b\n", name, b'\t'), None);
        // A tab on a later line among the first: a real TSV with an odd header.
        assert_eq!(other_delimiter_warning(b"a,b\n1\t2\n", name, b'\t'), None);
        assert_eq!(other_delimiter_warning(b"", name, b'\t'), None);
        assert!(other_delimiter_warning(b"\xEF\xBB\xBF\n\na,b\r\n1,2\r\n", name, b'\t').is_some());
    }

    #[test]
    fn an_input_without_documents_is_warned_about() {
        let defaults = ReadOptions::default();
        for (input, name, why) in [
            (&b""[..], "x.txt", "it is empty"),
            (b"", "x.csv", "it is empty"),
            (b"id,text\n", "x.csv", "it holds only a header row"),
            (b"id,text\n\n\n", "x.csv", "it holds only a header row"),
            (b"\n  \n", "x.jsonl", "it holds only blank lines"),
        ] {
            let (c, r) = read_bytes(input, name, &defaults).unwrap();
            assert!(c.is_empty());
            assert_eq!(r.warnings, [format!("no documents in {name}: {why}")]);
        }
        let skip = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (_, r) = read_bytes(b"id,text\n1,a,b\n2,c,d\n", "x.csv", &skip).unwrap();
        assert_eq!(
            r.warnings,
            ["no documents in x.csv: all 2 rows were malformed and skipped (--skip-bad)"]
        );
        // A text file of one blank line has one (empty) document.
        let (_, r) = read_bytes(b"\n", "x.txt", &defaults).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    #[test]
    fn options_for_another_format_name_the_formats_they_apply_to() {
        let usage = |opts: ReadOptions, format: InputFormat| match check_format_options(
            &opts, format, false,
        ) {
            Err(Error::Usage(message)) => message,
            other => panic!("expected a usage error, got {other:?}"),
        };
        let id_field = ReadOptions {
            id_field: Some("k".into()),
            ..Default::default()
        };
        assert_eq!(
            usage(id_field.clone(), InputFormat::Text),
            "--id-field applies only to JSON Lines, but the input is read as text lines (one \
             document per line); remove it or choose the right --format"
        );
        assert_eq!(
            usage(id_field, InputFormat::Parquet),
            "--id-field applies only to JSON Lines (use --text-column/--id-column here), but the \
             input is read as Parquet; remove it or choose the right --format"
        );
        let mixed = ReadOptions {
            id_column: Some(ColumnSpec::Index(1)),
            quote: Some(Quote::None),
            text_field: Some("body".into()),
            ..Default::default()
        };
        assert_eq!(
            usage(mixed.clone(), InputFormat::Text),
            "--id-column applies only to CSV/TSV or Parquet; --quote only to CSV/TSV; \
             --text-field only to JSON Lines, but the input is read as text lines (one document \
             per line); remove them or choose the right --format"
        );
        assert_eq!(
            usage(mixed, InputFormat::Jsonl),
            "--id-column applies only to CSV/TSV or Parquet (use --text-field/--id-field here); \
             --quote only to CSV/TSV, but the input is read as JSON Lines; remove them or choose \
             the right --format"
        );
    }
}
