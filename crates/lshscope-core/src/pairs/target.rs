//! Where an output goes: a file written atomically or stdout, compressed as its name says,
//! in the row format its name or flag asks for.

use super::*;

/// The row format of an output file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// JSON Lines: one object per row, keys in the CSV column order.
    Jsonl,
    /// Apache Parquet: the CSV columns, typed (ids string, Jaccard and estimate double,
    /// counts integer).
    Parquet,
}

impl OutputFormat {
    /// Every format, in the order help lists them.
    pub const ALL: [OutputFormat; 3] = [
        OutputFormat::Csv,
        OutputFormat::Jsonl,
        OutputFormat::Parquet,
    ];

    /// The format's name, as `--output-format` and the Python API take it.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Parquet => "parquet",
        }
    }

    /// What the format is, in one line for help texts.
    pub fn description(self) -> &'static str {
        match self {
            OutputFormat::Csv => "Comma-separated values with a header row",
            OutputFormat::Jsonl => "JSON Lines: one object per row, keys in the CSV column order",
            OutputFormat::Parquet => {
                "Apache Parquet: the CSV columns, typed (ids string, Jaccard and estimate double, \
                 counts integer)"
            }
        }
    }

    /// The format a name (any case) names, if any.
    pub fn from_format_name(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The format an output name asks for by its extension (after any compression's), if any.
    pub fn from_name(path: &Path) -> Option<OutputFormat> {
        let stripped = Compression::strip(path).0;
        match lower_extension(&stripped).as_deref() {
            Some("csv") => Some(OutputFormat::Csv),
            Some("jsonl" | "ndjson") => Some(OutputFormat::Jsonl),
            Some("parquet") => Some(OutputFormat::Parquet),
            _ => None,
        }
    }
}

/// How errors and summaries name stdout.
const STDOUT: &str = "<stdout>";

/// Where one output goes: a file (replaced atomically) or stdout, and its compression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputTarget {
    /// `None` is stdout (no `-o`, or `-o -`).
    pub path: Option<PathBuf>,
    /// How the output is compressed, from the file name's extension.
    pub compression: Compression,
}

impl OutputTarget {
    /// The target for an `-o` argument: absent or `-` is stdout (uncompressed); a name ending
    /// in `.gz`, `.zst`, `.bz2` or `.xz` is compressed.
    pub fn new(path: Option<&Path>) -> OutputTarget {
        match path {
            None => OutputTarget::stdout(),
            Some(p) if p == Path::new("-") => OutputTarget::stdout(),
            Some(p) => OutputTarget {
                path: Some(p.to_path_buf()),
                compression: Compression::strip(p).1,
            },
        }
    }

    /// Standard output, uncompressed.
    pub fn stdout() -> OutputTarget {
        OutputTarget {
            path: None,
            compression: Compression::None,
        }
    }

    /// The name used in messages: the path, or `<stdout>`.
    pub fn display(&self) -> String {
        match &self.path {
            Some(p) => p.display().to_string(),
            None => STDOUT.to_string(),
        }
    }

    /// The row format: `flag` when given (an explicit `--output-format` wins over the
    /// extension, as documented), else the extension's, else CSV. `allowed` lists the formats
    /// this output can take; others are a usage error before any work starts.
    pub fn format(
        &self,
        flag: Option<OutputFormat>,
        allowed: &[OutputFormat],
    ) -> Result<OutputFormat> {
        let by_name = self.path.as_deref().and_then(OutputFormat::from_name);
        let format = flag.or(by_name).unwrap_or(OutputFormat::Csv);
        if !allowed.contains(&format) {
            let names: Vec<&str> = allowed.iter().map(|f| format_name(*f)).collect();
            return Err(Error::usage(format!(
                "{}: this output cannot be written as {}; use {}",
                self.display(),
                format_name(format),
                names.join(" or ")
            )));
        }
        if format == OutputFormat::Parquet && self.compression != Compression::None {
            return Err(Error::usage(format!(
                "{}: Parquet compresses internally; drop the .{} extension",
                self.display(),
                self.compression.extension()
            )));
        }
        Ok(format)
    }

    /// Writes through `write`, compressed as the name says, to the file (atomically: a failed
    /// or cancelled write leaves the old file, and no temporary file) or to stdout.
    ///
    /// `write` fails with an I/O error, reported against this output, or with an engine
    /// error, passed on as it is ([`WriteError`]). A cancelled `progress` turns the failure
    /// into [`Error::Cancelled`].
    pub fn write<F, E>(&self, progress: Option<&Progress>, write: F) -> Result<()>
    where
        F: FnOnce(&mut dyn Write) -> std::result::Result<(), E>,
        E: Into<WriteError>,
    {
        let compression = self.compression;
        let compressed = move |w: &mut dyn Write| -> std::result::Result<(), WriteError> {
            compression.encode(w, |w| write(w).map_err(Into::into))
        };
        let result = match &self.path {
            Some(path) => crate::io::atomic::write_atomically(path, compressed),
            None => {
                let stdout = std::io::stdout();
                let mut w = std::io::BufWriter::with_capacity(BUFFER, stdout.lock());
                compressed(&mut w)
                    .and_then(|_| Ok(w.flush()?))
                    .map_err(|e| e.at(STDOUT))
            }
        };
        match result {
            Err(_) if progress.is_some_and(|p| p.is_cancelled()) => Err(Error::Cancelled),
            other => other,
        }
    }
}

fn format_name(f: OutputFormat) -> &'static str {
    match f {
        OutputFormat::Csv => "CSV",
        OutputFormat::Jsonl => "JSON Lines",
        OutputFormat::Parquet => "Parquet",
    }
}
