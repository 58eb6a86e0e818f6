//! The engine's typed error. Every variant carries enough context (file, line, column, what to
//! do) for the CLI to print a message a user can act on without reading the code.
//!
//! The kinds: [`Error::Usage`] (the command line), [`Error::Input`] (the input file, at a
//! line and column), [`Error::Io`] (a file or stream), [`Error::Refused`] (a budget of memory or
//! time, with what to do), [`Error::Internal`] (producing the output failed otherwise) and
//! [`Error::Cancelled`]; [`Error::exit_code`] is the one mapping to exit codes.

use std::path::{Path, PathBuf};

use crate::terms::{self, Message, Setting};

/// Result alias used throughout the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The engine's error. Messages name settings as [`crate::terms::Setting`] tokens: `Display`
/// shows the engine's names for them, [`Error::render`] a face's.
#[derive(Debug)]
pub enum Error {
    /// A file or directory could not be opened, read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The input is malformed at a known place: `file:line:column: message`. `line` is
    /// 1-based, 0 means "not line based"; `column` (1-based, in characters) where the reader
    /// knows it.
    Input {
        /// The input file (`<stdin>` for a stream).
        path: PathBuf,
        /// 1-based line, 0 when the place is not a line (a Parquet row, the whole file).
        line: u64,
        /// 1-based column in characters, where the reader knows it.
        column: Option<u64>,
        /// What is wrong and what to do, settings as [`crate::terms`] tokens.
        message: String,
    },
    /// Options that contradict each other or are out of range.
    Usage(String),
    /// A job refused up front because it would exceed a budget of memory or time; the message
    /// says what the budget is and how to fit within it (or override it).
    Refused(String),
    /// Producing a result failed for a reason that is neither the command line's nor the
    /// input's, and not a file's I/O: serialising a report, drawing a plot, starting threads.
    Internal(String),
    /// The caller cancelled the job through its [`crate::jobs::Progress`] handle.
    Cancelled,
}

impl Error {
    /// The error's text with its settings' tokens in place (see [`crate::terms`]).
    fn text_with_tokens(&self) -> String {
        match self {
            Error::Io { path, source } => format!("{}: {source}", path.display()),
            Error::Input {
                path,
                line,
                column,
                message,
            } => {
                let mut at = path.display().to_string();
                if *line > 0 {
                    at.push_str(&format!(":{line}"));
                    if let Some(c) = column {
                        at.push_str(&format!(":{c}"));
                    }
                }
                format!("{at}: {message}")
            }
            Error::Usage(m) | Error::Refused(m) | Error::Internal(m) => m.clone(),
            Error::Cancelled => "cancelled".to_string(),
        }
    }

    /// The error as a face shows it: `name` gives the face's name for each setting the text
    /// names (the command line's flag, Python's keyword).
    pub fn render<'a, N: AsRef<str> + 'a>(&self, name: impl Fn(Setting) -> N) -> String {
        terms::render(&self.text_with_tokens(), name)
    }

    /// The error as a [`Message`], to wrap into a longer message that keeps its settings.
    pub fn to_message(&self) -> Message {
        Message::from(self.text_with_tokens())
    }
}

/// The engine's own names for settings ([`terms::neutral`]).
impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&terms::render_neutral(&self.text_with_tokens()))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Checks that the option `name` is in [0, 1] (a similarity, a probability or a share): a
/// usage error naming it otherwise.
pub fn check_unit(name: &str, value: f64) -> Result<()> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "{name} must be in [0, 1], got {value}"
        )))
    }
}

impl Error {
    /// [`Error::Io`] on `path`.
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// [`Error::Input`] at `line` of `path` (0: not line based).
    pub fn input(path: impl AsRef<Path>, line: u64, message: impl Into<String>) -> Self {
        Error::Input {
            path: path.as_ref().to_path_buf(),
            line,
            column: None,
            message: message.into(),
        }
    }

    /// [`Error::input`] at a known 1-based `column` (in characters) of `line`.
    pub fn input_at(
        path: impl AsRef<Path>,
        line: u64,
        column: u64,
        message: impl Into<String>,
    ) -> Self {
        Error::Input {
            path: path.as_ref().to_path_buf(),
            line,
            column: Some(column),
            message: message.into(),
        }
    }

    /// [`Error::Usage`].
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// [`Error::Refused`].
    pub fn refused(message: impl Into<String>) -> Self {
        Error::Refused(message.into())
    }

    /// [`Error::Internal`].
    pub fn internal(message: impl Into<String>) -> Self {
        Error::Internal(message.into())
    }

    /// True when this is a write to a pipe whose reader has gone (`lshscope scan | head -1`):
    /// the reader's choice to stop, not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if is_broken_pipe(source))
    }

    /// The process exit code for this error, the one mapping the CLI uses:
    ///
    /// | code | meaning |
    /// | --- | --- |
    /// | 0 | the reader of stdout closed the pipe early (nothing went wrong) |
    /// | 1 | a failure that is not the input's fault: reading or writing failed part-way (disk full, device error), a budget of memory or time refused the job, or producing the output failed ([`Error::Internal`]) |
    /// | 2 | bad usage or bad input: fix the command line, a path that does not exist or may not be opened, or the file |
    /// | 130 | interrupted (Ctrl-C), after cleaning up |
    pub fn exit_code(&self) -> i32 {
        use std::io::ErrorKind::{IsADirectory, NotADirectory, NotFound, PermissionDenied};
        match self {
            _ if self.is_broken_pipe() => 0,
            Error::Io { source, .. }
                if matches!(
                    source.kind(),
                    NotFound | PermissionDenied | IsADirectory | NotADirectory
                ) =>
            {
                2
            }
            Error::Io { .. } | Error::Refused(_) | Error::Internal(_) => 1,
            Error::Input { .. } | Error::Usage(_) => 2,
            Error::Cancelled => 130,
        }
    }
}

/// True for `EPIPE`, also when it arrives wrapped (the csv crate wraps its writer's errors).
pub fn is_broken_pipe(e: &std::io::Error) -> bool {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return true;
    }
    match e.get_ref() {
        Some(inner) => {
            if let Some(io) = inner.downcast_ref::<std::io::Error>() {
                return is_broken_pipe(io);
            }
            if let Some(csv) = inner.downcast_ref::<csv::Error>()
                && let csv::ErrorKind::Io(io) = csv.kind()
            {
                return is_broken_pipe(io);
            }
            false
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_read_file_line_column() {
        let at = Error::input_at("a.csv", 3, 7, "bad");
        assert_eq!(at.to_string(), "a.csv:3:7: bad");
        assert_eq!(Error::input("a.csv", 3, "bad").to_string(), "a.csv:3: bad");
        // Without a line, a column means nothing and is not shown.
        assert_eq!(
            Error::input_at("a.csv", 0, 7, "bad").to_string(),
            "a.csv: bad"
        );
        assert_eq!(at.exit_code(), 2);
    }

    #[test]
    fn settings_read_in_the_engine_s_names_or_a_face_s() {
        let e = Error::input_at(
            "a.csv",
            3,
            7,
            format!("pass {} to skip it", Setting::SkipBad),
        );
        assert_eq!(e.to_string(), "a.csv:3:7: pass `skip_bad` to skip it");
        assert_eq!(
            e.render(|s| format!("--{}", s.key())),
            "a.csv:3:7: pass --skip_bad to skip it"
        );
        // Wrapped into a longer message, the setting is still one.
        let outer = Error::usage(format!("--truth t.csv: {}", e.to_message().tokens()));
        assert_eq!(
            outer.render(|_| "X"),
            "--truth t.csv: a.csv:3:7: pass X to skip it"
        );
    }

    #[test]
    fn each_kind_has_its_exit_code() {
        assert_eq!(Error::usage("u").exit_code(), 2);
        assert_eq!(Error::refused("r").exit_code(), 1);
        assert_eq!(Error::internal("i").exit_code(), 1);
        assert_eq!(Error::Cancelled.exit_code(), 130);
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(Error::io("x", missing).exit_code(), 2);
        let pipe = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(Error::io("x", pipe).exit_code(), 0);
    }
}
