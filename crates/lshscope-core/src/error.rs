//! The engine's typed error. Every variant carries enough context (file, line, column, what to
//! do) for the CLI to print a message a user can act on without reading the code.
//!
//! The kinds: [`Error::Usage`] (the command line), [`Error::Input`] (the input file, at a
//! line and column), [`Error::Io`] (a file or stream), [`Error::Refused`] (a budget of memory or
//! time, with what to do), [`Error::Internal`] (producing the output failed otherwise) and
//! [`Error::Cancelled`]; [`Error::exit_code`] is the one mapping to exit codes.

use std::path::{Path, PathBuf};

/// Result alias used throughout the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The input is malformed at a known place: `file:line:column: message`. `line` is
    /// 1-based, 0 means "not line based"; `column` (1-based, in characters) where the reader
    /// knows it.
    #[error("{}{}{}: {message}", path.display(), if *line > 0 { format!(":{line}") } else { String::new() }, match column { Some(c) if *line > 0 => format!(":{c}"), _ => String::new() })]
    Input {
        path: PathBuf,
        line: u64,
        column: Option<u64>,
        message: String,
    },
    /// Options that contradict each other or are out of range.
    #[error("{0}")]
    Usage(String),
    /// A job refused up front because it would exceed a budget of memory or time; the message
    /// says what the budget is and how to fit within it (or override it).
    #[error("{0}")]
    Refused(String),
    /// Producing a result failed for a reason that is neither the command line's nor the
    /// input's, and not a file's I/O: serialising a report, drawing a plot, starting threads.
    #[error("{0}")]
    Internal(String),
    /// The caller cancelled the job through its [`crate::jobs::Progress`] handle.
    #[error("cancelled")]
    Cancelled,
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
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

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

    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    pub fn refused(message: impl Into<String>) -> Self {
        Error::Refused(message.into())
    }

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
