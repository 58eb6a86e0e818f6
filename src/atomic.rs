//! Writing files so that a crash or an error never leaves a half-written file behind: write
//! to a temporary file in the same directory, flush, then rename over the target.

use std::io::{BufWriter, Write};
use std::path::Path;

use crate::{Error, Result};

/// Writes `path` through `write`; the file appears complete or not at all.
///
/// Only regular files are replaced by rename. A target that exists and is something else
/// (`/dev/null`, `/dev/stdout`, a named pipe) is written in place: renaming over a device
/// would replace it with a plain file. A symlink is followed, so the link stays a link.
pub fn write_atomically<F>(path: &Path, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let resolved;
    let path = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            resolved = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
            resolved.as_path()
        }
        _ => path,
    };
    if let Ok(meta) = std::fs::metadata(path)
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
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        let mut w = BufWriter::new(file);
        write(&mut w).map_err(|e| Error::io(path, e))?;
        return w.flush().map_err(|e| Error::io(path, e));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".lshscope-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    // Temp files are created 0600; give the result the target's mode, or a plain 0644.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map(|m| m.permissions().mode())
            .unwrap_or(0o644);
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode));
    }
    {
        let mut w = BufWriter::new(tmp.as_file());
        write(&mut w).map_err(|e| Error::io(path, e))?;
        w.flush().map_err(|e| Error::io(path, e))?;
    }
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
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
}
