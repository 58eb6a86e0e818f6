//! Plot export from the explorer (`e`).

use std::path::{Path, PathBuf};

use super::app::App;

/// Writes the current S-curve (with pins) and histogram as SVG/PNG into `dir` through the
/// plot module, returning the files written.
///
/// NOT WIRED YET: the plot module (`src/plot.rs`, another issue) has not landed in this
/// branch. Until it does this returns `Ok(None)` and the explorer says that plots are not in
/// this build; it writes nothing. To wire it, call the plot module here with
/// `app.banding`, `app.pins`, `app.threshold`, `app.hist` and `app.log_scale`.
pub fn export_plots(_app: &App, _dir: &Path) -> crate::Result<Option<Vec<PathBuf>>> {
    Ok(None)
}
