//! Plot export (SVG or PNG, chosen by the file extension) of S-curves and of histograms of
//! pair similarities, with plotters. Plain data in, one file out, written atomically.
//!
//! Every figure is drawn once, as SVG; a PNG is that SVG rasterized by resvg, antialiased.
//! There are no system fonts here: DejaVu Sans (the `dejavu` crate) is embedded, registered
//! with plotters' `ab_glyph` font backend to measure text while laying it out, and given to
//! resvg to draw the SVG's `<text>` elements, so both formats set text with the same metrics.
//!
//! Colours are the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008), which
//! stays distinguishable under the common forms of colour blindness; curves also differ in
//! marker shape so they never depend on colour alone.

use std::path::Path;

use plotters::prelude::*;

use lshscope_core::{Error, Result};

/// Okabe–Ito colours in the order curves use them (blue, vermillion, bluish green, reddish
/// purple, orange, sky blue, black); yellow is left out, it vanishes on white.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
];
const GREY: RGBColor = RGBColor(0x70, 0x70, 0x70);
const BAR: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
/// Labelled precision points (bluish green) and truth points (reddish purple), both Okabe–Ito.
const PRECISION: RGBColor = PALETTE[2];
const MEASURED: RGBColor = PALETTE[3];

/// The image formats the extension can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Svg,
    Png,
}

/// The format `path`'s extension asks for (`.svg` or `.png`, any case).
pub fn image_format(path: &Path) -> Result<ImageFormat> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => Ok(ImageFormat::Svg),
        Some("png") => Ok(ImageFormat::Png),
        other => Err(Error::usage(format!(
            "{}: cannot tell the image format from {}: name the file .svg or .png",
            path.display(),
            match other {
                Some(e) => format!("the extension `.{e}`"),
                None => "a name without extension".to_string(),
            }
        ))),
    }
}

/// One S-curve to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurveSpec {
    pub bands: usize,
    pub rows: usize,
}

/// An S-curve figure: P(s) = 1 − (1 − s^r)^b for each curve, its steepest point and its
/// P = 10 % / 90 % similarities, and the threshold line with P(t) in the legend.
#[derive(Debug, Clone, PartialEq)]
pub struct ScurvePlot {
    pub curves: Vec<CurveSpec>,
    pub threshold: Option<f64>,
    /// Shown in the title when known.
    pub num_perm: Option<usize>,
    pub width: u32,
    pub height: u32,
}

/// One histogram bar: pairs with similarity in [lo, hi) (the last bin includes 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HistogramBin {
    pub lo: f64,
    pub hi: f64,
    pub count: u64,
}

/// A histogram of pair similarities, optionally with an S-curve on a second y axis.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramPlot {
    pub bins: Vec<HistogramBin>,
    pub curve: Option<CurveSpec>,
    pub threshold: Option<f64>,
    /// Logarithmic count axis (empty bins are then not drawn).
    pub log_counts: bool,
    /// Set when the counts are estimates: what the legend says of the total (with its
    /// interval and the sample), instead of the sum of the rounded counts. Keep it short
    /// (about 50 characters): the legend entry is one line of the figure's width.
    pub estimated: Option<String>,
    /// The labelled precision of each bin with labels, as the explorer's precision strip
    /// shows it (right axis); empty without labels.
    pub precision: Vec<BinPrecision>,
    /// The candidate rate measured against the truth per bin, as the explorer's S-curve
    /// panel shows it (right axis); empty without a truth file.
    pub measured: Vec<MeasuredPoint>,
    pub width: u32,
    pub height: u32,
}

/// The labels of one bin's pairs: `duplicates` of `decided` (duplicate or not) labels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BinPrecision {
    pub lo: f64,
    pub hi: f64,
    pub duplicates: u64,
    pub decided: u64,
}

impl BinPrecision {
    /// duplicates / decided and its 95 % Wilson interval (`None` without a decided label).
    pub fn estimate(&self) -> Option<(f64, f64, f64)> {
        (self.decided > 0).then(|| {
            let (lo, hi) = lshscope_core::util::stats::wilson_interval(
                self.duplicates as usize,
                self.decided as usize,
                1.96,
            );
            (self.duplicates as f64 / self.decided as f64, lo, hi)
        })
    }
}

/// One bin's candidate rate measured against the truth: at similarity `x` (the mean of the
/// bin's true pairs), `rate` with its 95 % interval; `outside` when the interval misses the
/// S-curve's prediction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasuredPoint {
    pub x: f64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
    pub outside: bool,
}

/// Counts `values` (each in [0, 1]) into `bins` equal bins over [0, 1].
pub fn histogram_bins(values: &[f64], bins: usize) -> Vec<HistogramBin> {
    let n = bins.max(1);
    let mut counts = vec![0u64; n];
    for &v in values {
        // The explorer's binning rule, so an exported figure and `plot histogram` put a pair
        // on a bin edge into the same bar.
        counts[lshscope_core::analysis::histogram::bin_of(v, n)] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, count)| {
            let (lo, hi, _) = lshscope_core::analysis::histogram::bin_bounds(i, n);
            HistogramBin { lo, hi, count }
        })
        .collect()
}

mod histogram;
mod layout;
mod render;
mod scurve;
#[cfg(test)]
mod tests;

use histogram::HistogramFigure;
use render::write_figure;

/// Writes the S-curve figure to `path` (`.svg` or `.png`).
pub fn write_scurve(path: &Path, plot: &ScurvePlot) -> Result<()> {
    if plot.curves.is_empty() {
        return Err(Error::usage("an S-curve plot needs at least one curve"));
    }
    write_figure(path, plot.width, plot.height, plot)
}

/// Writes the histogram figure to `path` (`.svg` or `.png`).
pub fn write_histogram(path: &Path, plot: &HistogramPlot) -> Result<()> {
    write_histogram_with_floor(path, plot, None)
}

/// [`write_histogram`] for pairs that hold none below `similarity_floor` when it is given (a
/// pairs file written by `scan --threshold`): the title says so, the range below it is shaded
/// and a note says how to get every candidate, so the figure is not read as the whole
/// candidate distribution.
pub fn write_histogram_with_floor(
    path: &Path,
    plot: &HistogramPlot,
    similarity_floor: Option<f64>,
) -> Result<()> {
    write_figure(
        path,
        plot.width,
        plot.height,
        &HistogramFigure {
            plot,
            similarity_floor,
        },
    )
}
