//! Exports from the explorer (`e`): the filtered pairs as CSV, and the S-curve and histogram
//! plots as SVG and PNG through [`crate::plot`].

use std::path::PathBuf;

use super::app::{ExportJob, ExportReport, Loaded, PlotSpec};
use crate::plot::{CurveSpec, HistogramBin, HistogramPlot, ScurvePlot};

/// Size of the exported images in pixels (the plot module's default, tuned for 1200×800).
pub const PLOT_WIDTH: u32 = 1200;
pub const PLOT_HEIGHT: u32 = 800;

/// The image formats written for each plot, in order.
pub const PLOT_EXTENSIONS: [&str; 2] = ["svg", "png"];

fn curve(b: crate::minhash::Banding) -> CurveSpec {
    CurveSpec {
        bands: b.bands,
        rows: b.rows,
    }
}

/// What the S-curve figure draws: the current banding first (the first palette colour), then
/// the pinned ones, each once.
pub fn scurve_plot(spec: &PlotSpec) -> ScurvePlot {
    let mut curves = vec![curve(spec.banding)];
    for &pin in &spec.pins {
        let c = curve(pin);
        if !curves.contains(&c) {
            curves.push(c);
        }
    }
    ScurvePlot {
        curves,
        threshold: Some(spec.threshold),
        num_perm: Some(spec.num_perm),
        width: PLOT_WIDTH,
        height: PLOT_HEIGHT,
    }
}

/// What the histogram figure draws: exactly the panel's bins and counts, its scale, the
/// S-curve of the banding those candidates come from, and the threshold.
pub fn histogram_plot(spec: &PlotSpec) -> HistogramPlot {
    let hist = &spec.histogram;
    let bins = (0..hist.bins())
        .map(|i| {
            let (lo, hi) = hist.bin_range(i);
            HistogramBin {
                lo,
                hi,
                count: hist.counts[i],
            }
        })
        .collect();
    HistogramPlot {
        bins,
        curve: Some(curve(spec.histogram_banding)),
        threshold: Some(spec.threshold),
        log_counts: spec.log_scale,
        width: PLOT_WIDTH,
        height: PLOT_HEIGHT,
    }
}

/// The files [`export_plots`] writes for `spec`: `<stem>.scurve.<b>x<r>.{svg,png}` for the
/// current banding and `<stem>.histogram.<b>x<r>.{svg,png}` for the histogram's banding.
pub fn plot_paths(spec: &PlotSpec) -> Vec<PathBuf> {
    let name = |kind: &str, b: crate::minhash::Banding, ext: &str| {
        spec.dir
            .join(format!("{}.{kind}.{}x{}.{ext}", spec.stem, b.bands, b.rows))
    };
    let mut out = Vec::new();
    for ext in PLOT_EXTENSIONS {
        out.push(name("scurve", spec.banding, ext));
    }
    for ext in PLOT_EXTENSIONS {
        out.push(name("histogram", spec.histogram_banding, ext));
    }
    out
}

/// Writes the S-curve (with pins and threshold) and the histogram (the panel's bins, scale,
/// S-curve overlay and threshold) as SVG and PNG into `spec.dir`, each file atomically;
/// returns the files written, S-curve first.
pub fn export_plots(spec: &PlotSpec) -> crate::Result<Vec<PathBuf>> {
    let paths = plot_paths(spec);
    let (scurves, histograms) = paths.split_at(PLOT_EXTENSIONS.len());
    let scurve = scurve_plot(spec);
    for path in scurves {
        crate::plot::write_scurve(path, &scurve)?;
    }
    let histogram = histogram_plot(spec);
    for path in histograms {
        crate::plot::write_histogram(path, &histogram)?;
    }
    Ok(paths)
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
        Err(_) => Ok(Vec::new()),
    };
    ExportReport {
        path: job.path.clone(),
        rows: job.rows.len(),
        csv,
        plots,
    }
}
