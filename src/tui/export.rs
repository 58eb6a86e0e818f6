//! Exports from the explorer (`e`): the filtered pairs as CSV, and the plots.

use std::path::PathBuf;

use super::app::{ExportJob, ExportReport, Loaded, PlotSpec};

/// Writes the S-curve (with pins) and the histogram as SVG/PNG through the plot module,
/// returning the files written.
///
/// NOT WIRED YET: the plot module (`src/plot.rs`, another issue) has not landed in this
/// branch. Until it does this returns `Ok(None)`, writes nothing, and the explorer says that
/// plots are not in this build. To wire it, draw `spec` (banding, pins, threshold, histogram,
/// log scale) into `spec.dir` with names starting with `spec.stem`.
pub fn export_plots(_spec: &PlotSpec) -> crate::Result<Option<Vec<PathBuf>>> {
    Ok(None)
}

/// Runs an export (on a worker thread in the explorer): the CSV through
/// [`crate::atomic::write_atomically`], then the plots.
pub fn run_export(data: &Loaded, job: &ExportJob) -> ExportReport {
    let csv = crate::atomic::write_atomically(&job.path, |w| {
        let mut out = csv::Writer::from_writer(w);
        out.write_record(["id_a", "id_b", "jaccard", "estimate", "bands_hit", "label"])?;
        for &i in &job.rows {
            let p = &job.pairs[i as usize];
            let label = job
                .labels
                .get(&(p.a, p.b))
                .map(|l| l.as_str())
                .unwrap_or("");
            out.write_record([
                data.corpus.id(p.a as usize),
                data.corpus.id(p.b as usize),
                &p.jaccard.to_string(),
                &p.estimate.to_string(),
                &p.bands_hit.to_string(),
                label,
            ])?;
        }
        out.flush()
    })
    .map_err(|e| e.to_string());
    let plots = match &csv {
        Ok(()) => export_plots(&job.plots).map_err(|e| e.to_string()),
        Err(_) => Ok(None),
    };
    ExportReport {
        path: job.path.clone(),
        rows: job.rows.len(),
        csv,
        plots,
    }
}
