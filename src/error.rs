//! The engine's typed error. Every variant carries enough context (file, line, column, what to
//! do) for the CLI to print a message a user can act on without reading the code.

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
    /// The input is malformed at a known place. `line` is 1-based; 0 means "not line based".
    #[error("{}{}: {message}", path.display(), if *line > 0 { format!(":{line}") } else { String::new() })]
    Input {
        path: PathBuf,
        line: u64,
        message: String,
    },
    /// Options that contradict each other or are out of range.
    #[error("{0}")]
    Usage(String),
    /// The caller cancelled the job through its [`crate::jobs::Progress`] handle.
    #[error("cancelled")]
    Cancelled,
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
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// The process exit code the CLI uses for this error: 2 for anything the user can fix
    /// (bad input, bad options, unreadable paths), 130 for a cancellation.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Cancelled => 130,
            _ => 2,
        }
    }
}
