//! The outputs of the batch commands: checked before any work, and written so that a later
//! failure names the files already complete.
//!
//! Each command plans its outputs from its arguments (`scan`'s `ScanOutputs`, `dedup`'s
//! `DedupOutputs`): targets, formats, which may go to stdout, then [`check_outputs`], so a
//! bad name fails in a moment rather than after the long phases. While writing, [`Written`]
//! keeps the list [`note_written`] adds to the error of a later output.

use lshscope_core::Result;
use lshscope_core::io::atomic::{check_writable, note_written};
use lshscope_core::jobs::Progress;
use lshscope_core::pairs::OutputTarget;

/// Checks, before any work, that every output given as a file (by the option named beside
/// it) can be written there ([`check_writable`]); stdout needs no check.
pub(super) fn check_outputs(outputs: &[(&str, Option<&OutputTarget>)]) -> Result<()> {
    for (option, output) in outputs {
        if let Some(path) = output.and_then(|t| t.path.as_deref()) {
            check_writable(path, option)?;
        }
    }
    Ok(())
}

/// The outputs of a command written in full so far, in order: files only, since what went
/// to stdout is already with its reader either way.
#[derive(Debug, Default)]
pub(super) struct Written {
    files: Vec<String>,
}

impl Written {
    /// Notes that `target` was written in full (by a phase of its own, such as the pairs).
    pub(super) fn record(&mut self, target: &OutputTarget) {
        if target.path.is_some() {
            self.files.push(target.display());
        }
    }

    /// Writes `target` through `write` and records it; a failure names the outputs already
    /// written ([`note_written`]).
    pub(super) fn write(
        &mut self,
        target: &OutputTarget,
        progress: Option<&Progress>,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<()> {
        target
            .write(progress, write)
            .map_err(|e| note_written(e, &self.files))?;
        self.record(target);
        Ok(())
    }

    /// Writes a command's summary as pretty JSON to `target` (one object and a newline).
    pub(super) fn write_summary_json(
        &mut self,
        target: &OutputTarget,
        summary: &impl serde::Serialize,
    ) -> Result<()> {
        self.write(target, None, |w| {
            serde_json::to_writer_pretty(&mut *w, summary)?;
            writeln!(w)
        })
    }
}
