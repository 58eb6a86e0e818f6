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

/// `.json` after removing a compression extension.
fn has_json_extension(path: &Path) -> bool {
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
    let mut delimited_only = Vec::new();
    if opts.text_column.is_some() {
        delimited_only.push("--text-column");
    }
    if opts.id_column.is_some() {
        delimited_only.push("--id-column");
    }
    if !opts.has_headers {
        delimited_only.push("--no-headers");
    }
    if opts.quote.is_some() {
        delimited_only.push("--quote");
    }
    let mut jsonl_only = Vec::new();
    if opts.text_field.is_some() {
        jsonl_only.push("--text-field");
    }
    if opts.id_field.is_some() {
        jsonl_only.push("--id-field");
    }
    let (misfits, fits) = match format {
        InputFormat::Text | InputFormat::Auto | InputFormat::Dir => {
            let mut all = delimited_only;
            all.extend(jsonl_only);
            (
                all,
                "CSV/TSV (columns, headers, quoting) or JSON Lines (fields)",
            )
        }
        InputFormat::Jsonl => (delimited_only, "CSV/TSV (use --text-field/--id-field here)"),
        InputFormat::Csv | InputFormat::Tsv => (
            jsonl_only,
            "JSON Lines (use --text-column/--id-column here)",
        ),
        InputFormat::Parquet => {
            // Parquet has named columns but no header row or quoting.
            let mut misfits: Vec<&str> = delimited_only
                .into_iter()
                .filter(|o| matches!(*o, "--no-headers" | "--quote"))
                .collect();
            misfits.extend(jsonl_only);
            (
                misfits,
                "CSV/TSV or JSON Lines (use --text-column/--id-column here)",
            )
        }
    };
    if format != InputFormat::Dir && (opts.hidden || opts.no_ignore) {
        return Err(Error::usage(
            "--hidden and --no-ignore apply only to directory input (one document per file); \
             remove them or pass a directory",
        ));
    }
    if misfits.is_empty() {
        return Ok(());
    }
    let hint = if stdin_default {
        "; stdin is read as text lines unless --format says otherwise: add --format csv, tsv \
         or jsonl"
    } else {
        "; remove them or choose the right --format"
    };
    Err(Error::usage(format!(
        "{} appl{} only to {fits}, but the input is read as {}{hint}",
        misfits.join(", "),
        crate::numfmt::for_count(misfits.len() as u64, "ies", "y"),
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
    let warning = if how.stdin_default && format == InputFormat::Text {
        source.reader.fill_buf().ok().and_then(stdin_header_warning)
    } else {
        None
    };
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
        InputFormat::Csv => {
            super::delimited::read(&mut reader, b',', name, opts, &mut sink, progress)?
        }
        InputFormat::Tsv => {
            super::delimited::read(&mut reader, b'\t', name, opts, &mut sink, progress)?
        }
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
    /// Longest header quoted in the warning.
    const SHOWN_CHARS: usize = 60;
    let head = strip_bom(head);
    let line = match memchr::memchr(b'\n', head) {
        Some(end) => &head[..end],
        None => head,
    };
    let line = line.strip_suffix(b"\r").unwrap_or(line);
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
    let mut shown: String = line.chars().take(SHOWN_CHARS).collect();
    if shown.len() < line.len() {
        shown.push('…');
    }
    let shown = shown.replace('\t', "\\t");
    Some(format!(
        "stdin looks like {kind} with a header (`{shown}`); it is read as plain text, one \
         document per line: {advice}"
    ))
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
    fn csv_without_named_columns_uses_last_column_and_row_number() {
        let (c, _) = read_bytes(
            b"x,y\n1,first\n2,second\n",
            "x.csv",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
        let opts = ReadOptions {
            has_headers: false,
            id_column: Some(ColumnSpec::Index(1)),
            text_column: Some(ColumnSpec::Index(2)),
            ..Default::default()
        };
        let (c, _) = read_bytes(b"k1,first\nk2,second\n", "x.csv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("k1", "first"), ("k2", "second")]));
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
            "{\"text\": \"esc\\u00e9 \\\"q\\\"\"}\n",
            "{\"id\": \"s-1\", \"text\": null}\r\n",
        );
        let (c, r) = read_bytes(input.as_bytes(), "x.jsonl", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("17", "plain"), ("3", "esc\u{e9} \"q\""), ("s-1", "")])
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
}
