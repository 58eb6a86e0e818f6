//! Exports from the explorer (`e`): the filtered pairs as CSV, and the S-curve and histogram
//! plots as SVG and PNG through [`crate::plot`].

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::plot::{
    BinPrecision, CurveSpec, HistogramBin, HistogramPlot, MeasuredPoint, ScurvePlot,
};
use crate::tui::truth::TruthState;
use lshscope_core::analysis::histogram::SimilarityHistogram;
use lshscope_core::analysis::labels::Label;
use lshscope_core::analysis::sampled::Estimate;
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::pipeline::Loaded;

/// Size of the exported images in pixels (the plot module's default, tuned for 1200×800).
pub const PLOT_WIDTH: u32 = 1200;
pub const PLOT_HEIGHT: u32 = 800;

/// The image formats written for each plot, in order.
pub const PLOT_EXTENSIONS: [&str; 2] = ["svg", "png"];

/// Short names for files written together: those in `dir` by file name alone, and the
/// formats of one figure folded into braces, shell style (`x.scurve.20x5.{svg,png}`).
pub fn brace_names(paths: &[PathBuf], dir: Option<&std::path::Path>) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for p in paths {
        let shown = match p.file_name() {
            Some(n) if p.parent() == dir => n.to_string_lossy().into_owned(),
            _ => p.display().to_string(),
        };
        let (base, ext) = match shown.rsplit_once('.') {
            Some((base, ext)) if !base.is_empty() => (base.to_string(), ext.to_string()),
            _ => (shown.clone(), String::new()),
        };
        match groups.iter_mut().find(|(b, _)| *b == base) {
            Some((_, exts)) => exts.push(ext),
            None => groups.push((base, vec![ext])),
        }
    }
    groups
        .into_iter()
        .map(|(base, exts)| match exts.as_slice() {
            [e] if e.is_empty() => base,
            [e] => format!("{base}.{e}"),
            _ => format!("{base}.{{{}}}", exts.join(",")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the S-curve and histogram plots show, owned so a worker thread can draw them.
#[derive(Debug, Clone)]
pub struct PlotSpec {
    pub dir: PathBuf,
    pub stem: String,
    pub banding: Banding,
    pub pins: Vec<Banding>,
    pub threshold: f64,
    /// K, for the S-curve's title.
    pub num_perm: usize,
    pub histogram: SimilarityHistogram,
    /// The banding whose candidates `histogram` counts (it lags `banding` while a
    /// re-banding job runs).
    pub histogram_banding: Banding,
    pub log_scale: bool,
    /// When the histogram's counts are estimates: the total and how it was estimated, which
    /// the figure's legend says instead of an exact count.
    pub estimated: Option<String>,
    /// The truth's measured candidate rates of `histogram_banding` ([`measured_points`]).
    pub measured: Vec<MeasuredPoint>,
}

/// The candidate rates measured against the truth for `banding`, one point per bin with true
/// pairs, as the explorer's S-curve panel draws them; empty without a measurement of `banding`.
pub fn measured_points(truth: &TruthState, banding: Banding, bins: usize) -> Vec<MeasuredPoint> {
    let Some(m) = truth.measure().filter(|m| m.banding == banding) else {
        return Vec::new();
    };
    m.report
        .bins
        .iter()
        .map(|bin| {
            let k = lshscope_core::analysis::histogram::bin_of(bin.lo, bins);
            // At the mean similarity of the bin's true pairs, where the bin's prediction (mean
            // of P(sᵢ)) is about the curve's height.
            let x =
                (truth.bin_means().get(k).copied().flatten()).unwrap_or((bin.lo + bin.hi) / 2.0);
            MeasuredPoint {
                x,
                rate: bin.measured,
                low: bin.interval_lo,
                high: bin.interval_hi,
                outside: bin.outside,
            }
        })
        .collect()
}

/// An export for the worker: the filtered rows of `pairs`, in list order, with labels.
#[derive(Debug, Clone)]
pub struct ExportJob {
    /// The corpus the rows' ids come from.
    pub data: Arc<Loaded>,
    pub path: PathBuf,
    pub pairs: Arc<Vec<VerifiedPair>>,
    pub rows: Vec<u32>,
    pub labels: HashMap<(u32, u32), Label>,
    pub plots: PlotSpec,
    /// When `pairs` is a uniform sample of the candidates: their estimated number.
    pub sampled_from: Option<Estimate>,
}

/// How an export went.
#[derive(Debug)]
pub struct ExportReport {
    pub path: PathBuf,
    pub rows: usize,
    /// The job's [`ExportJob::sampled_from`].
    pub sampled_from: Option<Estimate>,
    pub csv: Result<(), String>,
    pub plots: Result<Vec<PathBuf>, String>,
}

fn curve(b: Banding) -> CurveSpec {
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
/// S-curve of the banding those candidates come from, the threshold, the labelled precision
/// of each bin (the panel's precision strip) and the truth's measured rates (the S-curve
/// panel's points).
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
        estimated: spec.estimated.clone(),
        precision: (0..hist.bins())
            .filter(|&i| hist.duplicate[i] + hist.not_duplicate[i] > 0)
            .map(|i| {
                let (lo, hi) = hist.bin_range(i);
                BinPrecision {
                    lo,
                    hi,
                    duplicates: hist.duplicate[i],
                    decided: hist.duplicate[i] + hist.not_duplicate[i],
                }
            })
            .collect(),
        measured: spec.measured.clone(),
        width: PLOT_WIDTH,
        height: PLOT_HEIGHT,
    }
}

/// The files [`export_plots`] writes for `spec`: `<stem>.scurve.<b>x<r>.{svg,png}` for the
/// current banding and `<stem>.histogram.<b>x<r>.{svg,png}` for the histogram's banding.
pub fn plot_paths(spec: &PlotSpec) -> Vec<PathBuf> {
    let name = |kind: &str, b: lshscope_core::minhash::Banding, ext: &str| {
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
pub fn export_plots(spec: &PlotSpec) -> lshscope_core::Result<Vec<PathBuf>> {
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
/// [`lshscope_core::io::atomic::write_atomically`], then the plots.
pub fn run_export(data: &Loaded, job: &ExportJob) -> ExportReport {
    let label = |p: &VerifiedPair| job.labels.get(&(p.a, p.b)).map_or("", |l| l.as_str());
    let csv = lshscope_core::io::atomic::write_atomically(&job.path, |w| {
        lshscope_core::pairs::write_pairs(
            w,
            &data.corpus,
            job.rows.iter().map(|&i| &job.pairs[i as usize]),
            lshscope_core::pairs::OutputFormat::Csv,
            None,
            Some(&label),
        )
    })
    .map_err(|e| e.to_string());
    let plots = match &csv {
        Ok(()) => export_plots(&job.plots).map_err(|e| e.to_string()),
        Err(_) => Ok(Vec::new()),
    };
    ExportReport {
        path: job.path.clone(),
        rows: job.rows.len(),
        sampled_from: job.sampled_from,
        csv,
        plots,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names_fold_formats() {
        let dir = std::path::Path::new("/out");
        let paths: Vec<PathBuf> = [
            "/out/c.scurve.20x5.svg",
            "/out/c.scurve.20x5.png",
            "/out/c.histogram.18x5.svg",
            "/out/c.histogram.18x5.png",
            "/elsewhere/d.svg",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(
            brace_names(&paths, Some(dir)),
            "c.scurve.20x5.{svg,png}, c.histogram.18x5.{svg,png}, /elsewhere/d.svg"
        );
    }
}
