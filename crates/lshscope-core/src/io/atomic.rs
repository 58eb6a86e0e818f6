//! Writing files so that a crash or an error never leaves a half-written file behind: write
//! to a temporary file in the same directory, flush, then rename over the target.
//!
//! Errors name the file the user asked for, never the temporary one, and
//! [`check_writable`] lets a command find out before its work that a target cannot be
//! written.

use std::borrow::Cow;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::{Error, Result};

/// Why a writer given to [`write_atomically`] (or [`crate::pairs::OutputTarget::write`])
/// failed: the stream it wrote to, which the error names by the output's path, or the work
/// producing the bytes, whose own error ([`Error::Cancelled`], or an [`Error::Io`] that
/// already names its file) is passed on as it is.
#[derive(Debug)]
pub enum WriteError {
    /// Writing to the output (or renaming it into place) failed.
    Io(std::io::Error),
    /// The work producing the bytes failed, or was cancelled; passed on unchanged.
    Engine(Error),
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> Self {
        WriteError::Io(e)
    }
}

impl From<Error> for WriteError {
    fn from(e: Error) -> Self {
        WriteError::Engine(e)
    }
}

impl WriteError {
    /// The error to report for a failed write to `path` (`<stdout>` for stdout).
    pub fn at(self, path: impl AsRef<Path>) -> Error {
        match self {
            WriteError::Io(e) => Error::io(path, e),
            WriteError::Engine(e) => e,
        }
    }
}

/// Writes `path` through `write`; the file appears complete or not at all. `write` fails
/// with an I/O error (reported against `path`) or an engine error ([`WriteError`]).
///
/// Only regular files are replaced by rename. A target that exists and is something else
/// (`/dev/null`, `/dev/stdout`, a named pipe) is written in place: renaming over a device
/// would replace it with a plain file. A symlink is followed, so the link stays a link.
pub fn write_atomically<F, E>(path: &Path, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::result::Result<(), E>,
    E: Into<WriteError>,
{
    let resolved = resolve_link(path).map_err(|e| Error::io(path, e))?;
    let target = resolved.as_ref();
    if let Ok(meta) = std::fs::metadata(target)
        && !meta.is_file()
    {
        if meta.is_dir() {
            return Err(Error::input(
                path,
                0,
                "is a directory; give a file name to write to",
            ));
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(target)
            .map_err(|e| Error::io(path, e))?;
        let mut w = BufWriter::new(file);
        write(&mut w).map_err(|e| e.into().at(path))?;
        return w.flush().map_err(|e| Error::io(path, e));
    }
    let dir = directory_of(target);
    let tmp = temporary_file_in(dir).map_err(|e| Error::io(path, e))?;
    // Temp files are created 0600; give the result the target's mode, or a plain 0644.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(target)
            .map(|m| m.permissions().mode())
            .unwrap_or(0o644);
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode));
    }
    {
        let mut w = BufWriter::new(tmp.as_file());
        write(&mut w).map_err(|e| e.into().at(path))?;
        w.flush().map_err(|e| Error::io(path, e))?;
    }
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(target).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Checks, before any work, that [`write_atomically`] can write `path`, which the command
/// line gave as `option` (`--output`, `--drop-list`, …): the directory it goes in exists, is
/// a directory and takes new files, and `path` itself is not a directory. A usage error
/// naming the option and the path otherwise, so a run never spends its work only to fail at
/// the end (`/nonexist/x.csv`, a read-only directory, a typo in a folder name).
///
/// Creates and removes one empty temporary file in that directory: only trying tells a
/// read-only file system or a missing permission from a writable directory. A device or a
/// pipe that exists is written in place and is left alone (opening a pipe would block).
pub fn check_writable(path: &Path, option: &str) -> Result<()> {
    let fail = |what: String| Err(Error::usage(format!("{option} {}: {what}", path.display())));
    let resolved = match resolve_link(path) {
        Ok(resolved) => resolved,
        Err(e) => return fail(format!("cannot follow the link: {e}")),
    };
    let target = resolved.as_ref();
    match std::fs::metadata(target) {
        Ok(meta) if meta.is_dir() => return fail("is a directory; give a file name".into()),
        Ok(meta) if !meta.is_file() => return Ok(()),
        _ => {}
    }
    let dir = directory_of(target);
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fail(format!("the directory {} does not exist", dir.display()))
        }
        Err(e) => fail(format!("cannot use the directory {}: {e}", dir.display())),
        Ok(meta) if !meta.is_dir() => fail(format!("{} is not a directory", dir.display())),
        Ok(_) => match temporary_file_in(dir) {
            Ok(_probe) => Ok(()),
            Err(e) => fail(e.to_string()),
        },
    }
}

/// `path`, or the file it links to: outputs are written where a symlink points, so the link
/// stays a link.
fn resolve_link(path: &Path) -> std::io::Result<Cow<'_, Path>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Ok(Cow::Owned(std::fs::canonicalize(path)?)),
        _ => Ok(Cow::Borrowed(path)),
    }
}

/// The directory a file named `path` goes in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A new hidden temporary file in `dir`, removed when dropped. Its error says which
/// directory refused and why, without the temporary file's random name: that name means
/// nothing to the user and no longer exists.
fn temporary_file_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(".lshscope-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| {
            // tempfile appends ` at path "<the temporary name>"` to the system's message.
            let message = e.to_string();
            let reason = message.split(" at path ").next().unwrap_or(&message);
            // The directory may be gone (a write without the check first), or refuse new
            // files with a system message that misleads: /proc says "No such file or
            // directory" of itself.
            let what = if dir.is_dir() {
                format!(
                    "cannot create a file in {}: {reason}; write it to a directory you can \
                     write to",
                    dir.display()
                )
            } else {
                format!("the directory {} does not exist", dir.display())
            };
            std::io::Error::new(e.kind(), what)
        })
}

/// `e` with a note naming the outputs already written in full (`written`, in order), for a
/// command whose later output failed: each file is atomic, the set of them is not, so the
/// user learns which files are complete and which is missing. The kind of error, and so the
/// exit code, is unchanged.
pub fn note_written(e: Error, written: &[String]) -> Error {
    if written.is_empty() {
        return e;
    }
    let note = format!("; already written in full: {}", written.join(", "));
    match e {
        Error::Io { path, source } => Error::io(
            path,
            std::io::Error::new(source.kind(), format!("{source}{note}")),
        ),
        Error::Input {
            path,
            line,
            column,
            message,
        } => Error::Input {
            path,
            line,
            column,
            message: message + &note,
        },
        Error::Usage(m) => Error::Usage(m + &note),
        Error::Refused(m) => Error::Refused(m + &note),
        Error::Internal(m) => Error::Internal(m + &note),
        // An interruption is reported as such; what it stopped is not an error of the files.
        Error::Cancelled => Error::Cancelled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn devices_and_symlinks_are_written_in_place() {
        write_atomically(Path::new("/dev/null"), |w| w.write_all(b"discarded")).unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null must stay a device");
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.csv");
        let link = dir.path().join("link.csv");
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert!(write_atomically(dir.path(), |w| w.write_all(b"x")).is_err());
    }

    #[test]
    fn replaces_only_on_success() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        write_atomically(&path, |w| w.write_all(b"first\n")).unwrap();
        let failed = write_atomically(&path, |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::other("boom"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first\n");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temp file left behind"
        );
    }

    #[test]
    fn a_writers_engine_error_passes_on_unchanged_and_an_io_error_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let refused = write_atomically(&path, |w| -> std::result::Result<(), WriteError> {
            w.write_all(b"partial")?;
            Err(Error::refused("over the budget").into())
        })
        .unwrap_err();
        assert!(
            matches!(&refused, Error::Refused(m) if m == "over the budget"),
            "{refused:?}"
        );
        let io = write_atomically(&path, |_| -> std::result::Result<(), WriteError> {
            Err(std::io::Error::other("disk full").into())
        })
        .unwrap_err();
        assert_eq!(io.to_string(), format!("{}: disk full", path.display()));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn errors_name_the_target_never_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing").join("x.csv");
        let message = write_atomically(&target, |w| w.write_all(b"x"))
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with(&target.display().to_string()),
            "{message}"
        );
        assert!(
            message.contains(&format!(
                "the directory {} does not exist",
                dir.path().join("missing").display()
            )),
            "{message}"
        );
        assert!(!message.contains(".lshscope-"), "{message}");
    }

    #[test]
    fn check_writable_names_the_option_and_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let check = |path: &Path| {
            check_writable(path, "--drop-list").map_err(|e| (e.exit_code(), e.to_string()))
        };
        assert!(check(&dir.path().join("new.txt")).is_ok());
        let missing = dir.path().join("nope").join("d.txt");
        let (code, message) = check(&missing).unwrap_err();
        assert_eq!(code, 2);
        assert_eq!(
            message,
            format!(
                "--drop-list {}: the directory {} does not exist",
                missing.display(),
                dir.path().join("nope").display()
            )
        );
        let file = dir.path().join("file.txt");
        std::fs::write(&file, "x").unwrap();
        let (_, message) = check(&file.join("d.txt")).unwrap_err();
        assert!(
            message.ends_with("file.txt is not a directory"),
            "{message}"
        );
        let (_, message) = check(dir.path()).unwrap_err();
        assert!(
            message.ends_with("is a directory; give a file name"),
            "{message}"
        );
        // The probe leaves nothing behind; an existing file is fine (it is replaced).
        assert!(check(&file).is_ok());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn check_writable_leaves_devices_alone() {
        assert!(check_writable(Path::new("/dev/null"), "-o").is_ok());
    }

    #[test]
    fn note_written_keeps_the_kind_and_names_the_files() {
        let full = Error::io(
            "s.json",
            std::io::Error::from(std::io::ErrorKind::StorageFull),
        );
        let noted = note_written(full, &["p.csv".to_string(), "g.csv".to_string()]);
        assert_eq!(noted.exit_code(), 1);
        assert!(
            noted
                .to_string()
                .ends_with("; already written in full: p.csv, g.csv"),
            "{noted}"
        );
        let missing = Error::io("d.txt", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(note_written(missing, &["c.csv".to_string()]).exit_code(), 2);
        assert_eq!(note_written(Error::usage("u"), &[]).to_string(), "u");
    }
}
