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
use super::source::{self, Compression, detect_format, has_json_extension};
use crate::io::excerpt::{excerpt, excerpt_bytes};
use crate::jobs::{Phase, Progress};
use crate::terms::Message;
use crate::terms::Setting::{
    self, Format, Hidden, IdColumn, IdField, Limit, NoHeaders, NoIgnore, Quote, RowIds, Sample,
    TextColumn, TextField,
};
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
            .map_err(|e| crate::io::input::cannot_open(path, e))?
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
            return Err(Error::usage(format!(
                "{Format} dir needs a directory path, not `-` (stdin)"
            )));
        }
        InputFormat::Dir if !is_dir => {
            return Err(Error::input(
                path,
                0,
                format!(
                    "not a directory, but {Format} dir was given; pass a directory or another \
                     {Format}"
                ),
            ));
        }
        f if is_dir => {
            return Err(Error::input(
                path,
                0,
                format!(
                    "is a directory, but {Format} {} was given; use {Format} dir (or auto) to read \
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
            .map_err(|e| crate::io::input::cannot_open(Path::new("<stdin>"), e))?;
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
        text_by_name: opts.format == InputFormat::Auto && !is_stdin && format == InputFormat::Text,
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
            return Err(Error::usage(format!(
                "{Format} dir reads a directory path, not a stream"
            )));
        }
        f => f,
    };
    if format == InputFormat::Parquet {
        check_format_options(opts, format, false)?;
        let mut reader = reader;
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .map_err(|e| crate::io::input::cannot_open(name, e))?;
        return super::parquet::read_parquet_bytes(bytes, name, opts, progress);
    }
    let source = source::wrap(reader, name, Compression::None, None)?;
    let how = How {
        format,
        sniff_json: opts.format == InputFormat::Auto && has_json_extension(name),
        stdin_default: false,
        text_by_name: opts.format == InputFormat::Auto && format == InputFormat::Text,
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

fn check_options(opts: &ReadOptions) -> Result<()> {
    if opts.limit == Some(0) {
        return Err(Error::usage(format!("{Limit} must be at least 1")));
    }
    if opts.sample == Some(0) {
        return Err(Error::usage(format!("{Sample} must be at least 1")));
    }
    Ok(())
}

/// The format to read with, and how it was chosen.
struct How {
    format: InputFormat,
    /// A `.json` name under `Auto`: JSON Lines if the content is, else refused.
    sniff_json: bool,
    /// Stdin under `Auto`, read as text: options for other formats get a hint.
    stdin_default: bool,
    /// A file under `Auto` read as text because its name names no format (`export.data`,
    /// `dump.gz`): a table's header in it gets a warning, as on stdin.
    text_by_name: bool,
}

/// Options that only another format uses are a usage error: ignoring them would read the
/// input differently from what the command line asks for.
fn check_format_options(
    opts: &ReadOptions,
    format: InputFormat,
    stdin_default: bool,
) -> Result<()> {
    if format != InputFormat::Dir && (opts.hidden || opts.no_ignore) {
        return Err(Error::usage(format!(
            "{Hidden} and {NoIgnore} apply only to directory input (one document per file); \
             remove them or pass a directory"
        )));
    }
    use InputFormat::{Csv, Jsonl, Parquet, Tsv};
    // Each option with the formats that use it and how they are named in the message.
    if opts.row_ids && (opts.id_column.is_some() || opts.id_field.is_some()) {
        let named = if opts.id_column.is_some() {
            IdColumn
        } else {
            IdField
        };
        return Err(Error::usage(format!(
            "{RowIds} names documents by row number and {named} by a column or field: give \
             one of them"
        )));
    }
    let given: [(bool, Setting, &[InputFormat], &str); 7] = [
        (
            opts.text_column.is_some(),
            TextColumn,
            &[Csv, Tsv, Parquet],
            COLUMNS,
        ),
        (
            opts.id_column.is_some(),
            IdColumn,
            &[Csv, Tsv, Parquet],
            COLUMNS,
        ),
        (!opts.has_headers, NoHeaders, &[Csv, Tsv], "CSV/TSV"),
        (opts.quote.is_some(), Quote, &[Csv, Tsv], "CSV/TSV"),
        (opts.text_field.is_some(), TextField, &[Jsonl], FIELDS),
        (opts.id_field.is_some(), IdField, &[Jsonl], FIELDS),
        (opts.row_ids, RowIds, &[Csv, Tsv, Jsonl, Parquet], ROWS),
    ];
    // The misfits grouped by the formats they belong to, in the order above.
    let mut groups: Vec<(&str, Vec<Setting>)> = Vec::new();
    for (_, option, _, fits) in given
        .iter()
        .filter(|(set, _, formats, _)| *set && !formats.contains(&format))
    {
        match groups.iter_mut().find(|(f, _)| f == fits) {
            Some((_, options)) => options.push(*option),
            None => groups.push((fits, vec![*option])),
        }
    }
    if groups.is_empty() {
        return Ok(());
    }
    // Where the input has columns or fields, the options it does use.
    let instead = |fits: &str| match (fits, format) {
        (COLUMNS, Jsonl) => format!(" (use {TextField}/{IdField} here)"),
        (FIELDS, Csv | Tsv | Parquet) => format!(" (use {TextColumn}/{IdColumn} here)"),
        _ => String::new(),
    };
    let clauses: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, (fits, options))| {
            format!(
                "{}{} only to {fits}{}",
                options
                    .iter()
                    .map(Setting::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
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
        format!(
            "; stdin is read as text lines unless {Format} says otherwise: add {Format} csv, \
             tsv, jsonl or parquet"
        )
    } else if misfits == 1 {
        format!("; remove it or choose the right {Format}")
    } else {
        format!("; remove them or choose the right {Format}")
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
/// The formats whose ids may come from the input or from the row number.
const ROWS: &str = "CSV/TSV, JSON Lines or Parquet (other input is named by line or path)";

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
                 {Format} text, else {convert}"
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
        InputFormat::Text if how.stdin_default || how.text_by_name => {
            let file = how.text_by_name.then_some((name, source.compression));
            source
                .reader
                .fill_buf()
                .ok()
                .and_then(|head| header_as_text_warning(head, file))
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
        warnings: warning.into_iter().map(Message::from).collect(),
        ..Default::default()
    };
    let corpus = sink.finish(&mut report)?;
    Ok((corpus, report))
}

/// For stdin (`file` None), or a file whose name names no format (and its compression), read
/// as text lines by
/// default: a warning when its first line looks like a CSV or TSV header naming a `text` column
/// (`id,text` is what `lshscope gen` writes), since each row then becomes a document with its
/// id and delimiters in the text (and the header one more document). Only the first line of
/// `head` is examined.
fn header_as_text_warning(head: &[u8], file: Option<(&Path, Compression)>) -> Option<String> {
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
        ("TSV", format!("pass {Format} tsv to read its columns"))
    } else if names_text(',') {
        (
            "CSV",
            format!("pass {Format} csv (or tsv) to read its columns"),
        )
    } else {
        return None;
    };
    let line = excerpt(line);
    Some(match file {
        None => format!(
            "stdin looks like {kind} with a header (`{line}`); it is read as plain text, one \
             document per line: {advice}"
        ),
        Some((file, compression)) => format!(
            "{} looks like {kind} with a header (`{line}`), but its name says no format, so it \
             is read as plain text, one document per line: {advice}, or name the file .{}{}",
            file.display(),
            kind.to_lowercase(),
            match compression {
                Compression::None => String::new(),
                c => format!(".{}", c.extension()),
            }
        ),
    })
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
         pass {Format} {format} to read it as such",
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
        sink.push(number, number_id(&mut id, number), &text, lossy);
    }
    sink.lines.physical = lines.count();
    Ok(lines.bytes)
}

#[cfg(test)]
mod tests;
