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
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::ranged1d::BoldPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use lshscope_core::minhash::scurve::{
    candidate_probability, similarity_at_probability, steepest_point,
};
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

fn register_fonts() {
    static FONTS: Once = Once::new();
    FONTS.call_once(|| {
        // The embedded DejaVu files are valid TrueType; failing here is a build defect.
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| ())
            .expect("embedded DejaVu Sans parses");
        plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold())
            .map_err(|_| ())
            .expect("embedded DejaVu Sans Bold parses");
    });
}

fn check_size(width: u32, height: u32) -> Result<()> {
    if !(200..=10_000).contains(&width) || !(150..=10_000).contains(&height) {
        return Err(Error::usage(format!(
            "image size {width}×{height} is out of range: width 200–10000, height 150–10000"
        )));
    }
    Ok(())
}

/// Something that can draw itself on any plotters backend.
trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn write_figure(path: &Path, width: u32, height: u32, figure: &impl Figure) -> Result<()> {
    check_size(width, height)?;
    let format = image_format(path)?;
    register_fonts();
    let failed = |e: String| Error::internal(format!("{}: drawing failed: {e}", path.display()));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        figure.draw(&root).map_err(|e| failed(e.to_string()))?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    match format {
        ImageFormat::Svg => {
            lshscope_core::io::atomic::write_atomically(path, |w| w.write_all(svg.as_bytes()))
        }
        ImageFormat::Png => {
            let rgb = rasterize(&svg, width, height).map_err(failed)?;
            lshscope_core::io::atomic::write_atomically(path, |w| {
                encode_png(w, width, height, &rgb)
            })
        }
    }
}

/// The fonts the SVG's text is drawn with when rasterized: the embedded DejaVu Sans (regular
/// and bold) as `sans-serif`, the family plotters names, so the PNG's text has the metrics
/// plotters laid it out with. Parsed once.
fn raster_fonts() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static FONTS: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_font_data(dejavu::sans::regular().to_vec());
            db.load_font_data(dejavu::sans::bold().to_vec());
            db.set_sans_serif_family("DejaVu Sans");
            std::sync::Arc::new(db)
        })
        .clone()
}

/// The SVG that plotters drew, rasterized by resvg (antialiased lines, markers and text) on
/// white: RGB pixels, row by row. Rasterizing the SVG, rather than drawing again with
/// plotters' bitmap backend (which does not antialias lines), makes the PNG the same picture
/// as the SVG, smooth, and far smaller once compressed (its edges are few and regular).
fn rasterize(svg: &str, width: u32, height: u32) -> std::result::Result<Vec<u8>, String> {
    use resvg::tiny_skia::{Color, Pixmap, Transform};
    let options = resvg::usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: raster_fonts(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let mut pixmap =
        Pixmap::new(width, height).ok_or_else(|| format!("no {width}×{height} pixmap"))?;
    pixmap.fill(Color::WHITE);
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    // Opaque everywhere (white underneath), so premultiplied RGBA is plain RGBA: drop alpha.
    Ok(pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect())
}

/// Encodes RGB pixels as PNG at the `Default` deflate level. The encoder's own default is its
/// fastest level, which left the three-curve S-curve (1200×800) at 535 kB; `Default` makes it
/// 85 kB in 40 ms (test profile), and adaptive filters at the `Best` level only 6 % smaller
/// (80 kB) for four times the time.
fn encode_png(
    w: &mut dyn std::io::Write,
    width: u32,
    height: u32,
    rgb: &[u8],
) -> std::io::Result<()> {
    let mut encoder = png::Encoder::new(w, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Default);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(rgb)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}

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

/// Font sizes and spacing scale with the image (tuned for 1200×800); the tighter dimension
/// decides, so text fits a narrow image too.
fn font_scale(width: u32, height: u32) -> f64 {
    (width as f64 / 1200.0).min(height as f64 / 800.0)
}

fn curve_points(c: CurveSpec, steps: usize) -> Vec<(f64, f64)> {
    (0..=steps)
        .map(|i| {
            let s = i as f64 / steps as f64;
            (s, candidate_probability(s, c.bands, c.rows))
        })
        .collect()
}

/// Outline of marker shape `index` (circle, triangle, square, diamond, …) around (0, 0), in
/// pixels; the first point is repeated at the end so a path closes.
fn marker_outline(index: usize, size: i32) -> Vec<(i32, i32)> {
    let r = size as f64;
    let polygon = |corners: usize, start: f64, radius: f64| -> Vec<(i32, i32)> {
        (0..=corners)
            .map(|i| {
                let a = start + std::f64::consts::TAU * i as f64 / corners as f64;
                (
                    (radius * a.cos()).round() as i32,
                    (radius * a.sin()).round() as i32,
                )
            })
            .collect()
    };
    use std::f64::consts::FRAC_PI_2;
    match index % 4 {
        0 => polygon(20, 0.0, r),
        1 => polygon(3, -FRAC_PI_2, r * 1.35),
        2 => polygon(4, std::f64::consts::FRAC_PI_4, r * 1.3),
        _ => polygon(4, 0.0, r * 1.4),
    }
}

/// What a legend entry shows next to its text.
enum Swatch {
    /// A curve: line in a palette colour with marker shape `marker`.
    Curve { color: RGBColor, marker: usize },
    /// A filled bar.
    Bar(RGBColor),
    /// A dashed black line (the threshold).
    Dashed,
    /// A point with a vertical interval: marker shape `marker`, filled or hollow.
    Point {
        color: RGBColor,
        marker: usize,
        filled: bool,
    },
}

/// One polygon of a point's marker, in pixels from the point.
type Marker = Polygon<(i32, i32)>;

/// A point's marker of shape `marker` (as the curves'): an outer shape in `color` and an inner
/// one, white when the point is hollow (plotters fills polygons; a white core leaves a rim).
fn point_marker(marker: usize, color: RGBColor, filled: bool, k: f64) -> [Marker; 2] {
    let size = ((8.0 * k).round() as i32).max(4);
    let inner = if filled { color } else { WHITE };
    [
        Polygon::new(marker_outline(marker, size), color.filled()),
        Polygon::new(marker_outline(marker, (size * 11) / 20), inner.filled()),
    ]
}

/// Draws legend entries one per line, left-aligned, into `area` (a band under the chart, so
/// the legend never hides a curve or a bar).
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Swatch, String)],
    note: Option<&str>,
    k: f64,
) -> DrawResult<DB> {
    let px = |v: f64| (v * k).round() as i32;
    let line_h = px(30.0);
    let x0 = px(90.0);
    let font = ("sans-serif", 20.0 * k).into_font();
    for (i, (swatch, text)) in entries.iter().enumerate() {
        let y = px(12.0) + line_h * i as i32 + line_h / 2;
        match swatch {
            Swatch::Curve { color, marker } => {
                area.draw(&PathElement::new(
                    vec![(x0, y), (x0 + px(50.0), y)],
                    color.stroke_width(px(3.0).max(1) as u32),
                ))?;
                area.draw(
                    &(EmptyElement::at((x0 + px(25.0), y))
                        + Polygon::new(marker_outline(*marker, px(7.0).max(3)), color.filled())),
                )?;
            }
            Swatch::Bar(color) => {
                area.draw(&Rectangle::new(
                    [(x0 + px(5.0), y - px(9.0)), (x0 + px(45.0), y + px(9.0))],
                    color.mix(0.85).filled(),
                ))?;
            }
            Swatch::Point {
                color,
                marker,
                filled,
            } => {
                let x = x0 + px(25.0);
                area.draw(&PathElement::new(
                    vec![(x, y - px(12.0)), (x, y + px(12.0))],
                    color.stroke_width(px(2.0).max(1) as u32),
                ))?;
                let [outer, inner] = point_marker(*marker, *color, *filled, k);
                area.draw(&(EmptyElement::at((x, y)) + outer + inner))?;
            }
            Swatch::Dashed => {
                for seg in 0..3 {
                    let a = x0 + px(20.0) * seg;
                    area.draw(&PathElement::new(
                        vec![(a, y), (a + px(12.0), y)],
                        BLACK.stroke_width(px(2.0).max(1) as u32),
                    ))?;
                }
            }
        }
        area.draw_text(
            text,
            &TextStyle::from(font.clone()).pos(Pos::new(HPos::Left, VPos::Center)),
            (x0 + px(65.0), y),
        )?;
    }
    if let Some(note) = note {
        let y = px(12.0) + line_h * entries.len() as i32 + line_h / 2;
        area.draw_text(
            note,
            &TextStyle::from(("sans-serif", 18.0 * k).into_font())
                .color(&GREY)
                .pos(Pos::new(HPos::Left, VPos::Center)),
            (x0, y),
        )?;
    }
    Ok(())
}

/// Tick marks per axis of the histogram (the count axis and the S-curve's): plotters' default,
/// set explicitly because the label areas are sized ([`label_area_width`]) from the labels of
/// these same ticks.
const HISTOGRAM_Y_TICKS: usize = 11;

/// A count axis's tick label: compact, so that 9-digit counts stay narrow (`250.0 M`). Ticks
/// between whole counts (a linear axis up to a few pairs puts them at 0.5) get none: no bin
/// holds half a pair.
fn count_tick_label(v: &f64) -> String {
    let whole = v.round();
    // Tick values are computed in floating point (300000.00000000006 is a whole count).
    if whole >= 0.0 && (v - whole).abs() <= 1e-9 * whole.max(1.0) {
        lshscope_core::util::numfmt::compact(whole as u64)
    } else {
        String::new()
    }
}

/// A probability axis's tick label (`40 %`).
fn percent_tick_label(v: &f64) -> String {
    format!("{:.0} %", v * 100.0)
}

/// Width of a vertical axis's label area that holds its widest tick label and its title side
/// by side. Plotters draws the title, turned upright, against the area's outer edge and the
/// labels two tick lengths from the axis; in an area too narrow they overlap (9-digit counts
/// did at a fixed width), so the width comes from the labels actually drawn.
fn label_area_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: &[String],
    label_style: &TextStyle,
    title: &str,
    title_style: &TextStyle,
    tick: i32,
    gap: i32,
) -> std::result::Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut widest = 0;
    for label in labels {
        widest = widest.max(area.estimate_text_size(label, label_style)?.0);
    }
    // Turned upright, the title's height is its width on the page.
    let (_, title_thickness) = area.estimate_text_size(title, title_style)?;
    Ok(2 * tick + widest as i32 + gap + title_thickness as i32)
}

/// Height of a legend band with `lines` lines.
fn legend_height(lines: usize, k: f64) -> u32 {
    ((30.0 + 30.0 * lines as f64) * k).round() as u32
}

/// "= 47.01 %" for a label: two decimals, but never rounded to a flat 0 % or 100 %.
fn label_percent(p: f64) -> String {
    let text = lshscope_core::util::numfmt::percent_two_decimals(p);
    if text.starts_with(['<', '>']) {
        text
    } else {
        format!("= {text}")
    }
}

impl Figure for ScurvePlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let k = font_scale(self.width, self.height);
        let px = |v: f64| (v * k).round() as i32;
        root.fill(&WHITE)?;
        let legend_lines = self.curves.len() + usize::from(self.threshold.is_some()) + 1;
        let legend_h = legend_height(legend_lines, k);
        let (upper, lower) = root.split_vertically(self.height.saturating_sub(legend_h));
        let title = match self.num_perm {
            Some(n) => format!("LSH S-curves: P(candidate) = 1 − (1 − s^r)^b, K = {n}"),
            None => "LSH S-curves: P(candidate) = 1 − (1 − s^r)^b".to_string(),
        };
        let mut chart = ChartBuilder::on(&upper)
            .caption(
                title,
                ("sans-serif", 30.0 * k).into_font().style(FontStyle::Bold),
            )
            .margin(px(20.0))
            .x_label_area_size(px(70.0))
            .y_label_area_size(px(90.0))
            .build_cartesian_2d(0f64..1f64, 0f64..1.02f64)?;
        chart
            .configure_mesh()
            .x_desc("Jaccard similarity s of a pair")
            .y_desc("P(pair becomes a candidate)")
            .axis_desc_style(("sans-serif", 24.0 * k))
            .label_style(("sans-serif", 20.0 * k))
            .x_labels(11)
            .y_labels(11)
            .x_label_formatter(&|v| format!("{v:.1}"))
            .y_label_formatter(&|v| format!("{:.0} %", v * 100.0))
            .light_line_style(RGBColor(0xF0, 0xF0, 0xF0))
            .bold_line_style(RGBColor(0xDC, 0xDC, 0xDC))
            .draw()?;

        // P = 10 % and 90 % guides, labelled at the right end above the line.
        let guide = GREY.mix(0.8).stroke_width(px(1.5).max(1) as u32);
        for p in [0.1, 0.9] {
            chart.draw_series(DashedLineSeries::new(
                vec![(0.0, p), (1.0, p)],
                px(8.0).max(2) as u32,
                px(6.0).max(2) as u32,
                guide,
            ))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("P = {:.0} %", p * 100.0),
                (0.004, p + 0.008),
                TextStyle::from(("sans-serif", 18.0 * k).into_font())
                    .color(&GREY)
                    .pos(Pos::new(HPos::Left, VPos::Bottom)),
            )))?;
        }
        if let Some(t) = self.threshold {
            chart.draw_series(DashedLineSeries::new(
                vec![(t, 0.0), (t, 1.02)],
                px(12.0).max(2) as u32,
                px(6.0).max(2) as u32,
                BLACK.stroke_width(px(2.0).max(1) as u32),
            ))?;
        }

        for (i, &c) in self.curves.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let size = px(7.0).max(3);
            chart.draw_series(LineSeries::new(
                curve_points(c, 800),
                color.stroke_width(px(3.0).max(1) as u32),
            ))?;
            // Steepest point: filled marker; P = 10 % / 90 %: hollow markers of the same shape.
            let s_star = steepest_point(c.bands, c.rows);
            let steepest = (s_star, candidate_probability(s_star, c.bands, c.rows));
            chart.draw_series(std::iter::once(
                EmptyElement::at(steepest) + Polygon::new(marker_outline(i, size), color.filled()),
            ))?;
            for p in [0.1, 0.9] {
                let s = similarity_at_probability(p, c.bands, c.rows);
                chart.draw_series(std::iter::once(
                    EmptyElement::at((s, p))
                        + Polygon::new(marker_outline(i, size), WHITE.filled())
                        + PathElement::new(
                            marker_outline(i, size),
                            color.stroke_width(px(2.5).max(1) as u32),
                        ),
                ))?;
            }
        }

        let mut entries: Vec<(Swatch, String)> = self
            .curves
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let mut text = format!(
                    "{} × {} ({} hashes): steepest at {:.3}; P = 10 % / 90 % at {:.3} / {:.3}",
                    c.bands,
                    c.rows,
                    c.bands * c.rows,
                    steepest_point(c.bands, c.rows),
                    similarity_at_probability(0.1, c.bands, c.rows),
                    similarity_at_probability(0.9, c.bands, c.rows),
                );
                if let Some(t) = self.threshold {
                    text += &format!(
                        ", P({t}) {}",
                        label_percent(candidate_probability(t, c.bands, c.rows))
                    );
                }
                (
                    Swatch::Curve {
                        color: PALETTE[i % PALETTE.len()],
                        marker: i,
                    },
                    text,
                )
            })
            .collect();
        if let Some(t) = self.threshold {
            entries.push((Swatch::Dashed, format!("threshold t = {t}")));
        }
        draw_legend(
            &lower,
            &entries,
            Some("filled marker: steepest point;  hollow markers: P = 10 % and P = 90 %"),
            k,
        )
    }
}

/// The histogram as drawn: the plot and, for pairs that hold none below it, that similarity
/// ([`write_histogram_with_floor`]).
struct HistogramFigure<'a> {
    plot: &'a HistogramPlot,
    similarity_floor: Option<f64>,
}

impl HistogramFigure<'_> {
    /// The legend's entries: the bars, the S-curve, t, the labelled precision and the
    /// measured rates, each when the plot has it.
    fn legend_entries(&self) -> Vec<(Swatch, String)> {
        let plot = self.plot;
        let total: u64 = plot.bins.iter().map(|b| b.count).sum();
        let scale = if plot.log_counts { ", log scale" } else { "" };
        let mut entries = vec![(
            Swatch::Bar(BAR),
            match &plot.estimated {
                None => format!(
                    "candidate pairs per bin (left axis{scale}), {} pairs in all",
                    lshscope_core::util::numfmt::thousands(total)
                ),
                Some(estimate) => {
                    format!("estimated candidate pairs per bin (left axis{scale}), {estimate}")
                }
            },
        )];
        if let Some(c) = plot.curve {
            let mut text = format!(
                "S-curve (right axis): {}, steepest at {:.3}",
                lshscope_core::util::numfmt::bands_by_rows(c.bands, c.rows),
                steepest_point(c.bands, c.rows)
            );
            if let Some(t) = plot.threshold {
                text += &format!(
                    ", P({t}) {}",
                    label_percent(candidate_probability(t, c.bands, c.rows))
                );
            }
            entries.push((
                Swatch::Curve {
                    color: PALETTE[1],
                    marker: 0,
                },
                text,
            ));
        }
        if let Some(t) = plot.threshold {
            entries.push((Swatch::Dashed, format!("threshold t = {t}")));
        }
        let decided: u64 = plot.precision.iter().map(|b| b.decided).sum();
        if decided > 0 {
            let duplicates: u64 = plot.precision.iter().map(|b| b.duplicates).sum();
            entries.push((
                Swatch::Point {
                    color: PRECISION,
                    marker: 1,
                    filled: true,
                },
                format!(
                    "labelled precision per bin (right axis, 95 % Wilson interval): {} of {} \
                 decided labels are duplicates",
                    lshscope_core::util::numfmt::thousands(duplicates),
                    lshscope_core::util::numfmt::thousands(decided)
                ),
            ));
        }
        if !plot.measured.is_empty() {
            entries.push((
                Swatch::Point {
                    color: MEASURED,
                    marker: 0,
                    filled: true,
                },
                "candidate rate measured on the truth (right axis, 95 % interval; hollow: \
             the interval misses the S-curve)"
                    .to_string(),
            ));
        }
        entries
    }

    /// Points with intervals on the right axis, as (x, y, low, high, colour, marker, filled):
    /// the labelled precision of each bin at its centre, the truth's measured rates at their
    /// bins' mean similarity.
    fn interval_points(&self) -> Vec<IntervalPoint> {
        let plot = self.plot;
        let precision = plot.precision.iter().filter_map(|b| {
            b.estimate()
                .map(|(p, lo, hi)| ((b.lo + b.hi) / 2.0, p, lo, hi, PRECISION, 1, true))
        });
        let measured = plot
            .measured
            .iter()
            .map(|m| (m.x, m.rate, m.low, m.high, MEASURED, 0, !m.outside));
        precision.chain(measured).collect()
    }

    /// The title, the axes' descriptions and the note on a pairs file's floor.
    fn texts(&self) -> HistogramTexts {
        let plot = self.plot;
        let floor_text = self
            .similarity_floor
            .map(lshscope_core::util::numfmt::decimal);
        let floor_note = floor_text.as_ref().map(|floor| {
            format!(
                "shaded: no pair below {floor} in the pairs file (a scan with --threshold); \
                 `lshscope scan -t 0` writes every candidate"
            )
        });
        let title = match &floor_text {
            None => "Frequency of candidate pairs by Jaccard similarity".to_string(),
            Some(floor) => {
                format!("Frequency of candidate pairs by Jaccard similarity, only pairs ≥ {floor}")
            }
        };
        let y_desc = if plot.log_counts {
            "pairs per bin (log scale)"
        } else {
            "pairs per bin"
        };
        // The right axis also carries the labelled precision and the measured rates.
        let curve_desc = if plot.precision.is_empty() && plot.measured.is_empty() {
            "P(pair becomes a candidate)"
        } else {
            "P(candidate), precision, measured rate"
        };
        HistogramTexts {
            title,
            y_desc,
            curve_desc,
            floor_note,
        }
    }
}

/// A point with its interval: x, y, low, high, colour, marker, filled.
type IntervalPoint = (f64, f64, f64, f64, RGBColor, usize, bool);

/// The words of a histogram figure beside its legend.
struct HistogramTexts {
    title: String,
    y_desc: &'static str,
    curve_desc: &'static str,
    floor_note: Option<String>,
}

impl Figure for HistogramFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let plot = self.plot;
        let k = font_scale(plot.width, plot.height);
        let px = |v: f64| (v * k).round() as i32;
        root.fill(&WHITE)?;
        let max = plot.bins.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
        let entries = self.legend_entries();
        let HistogramTexts {
            title,
            y_desc,
            curve_desc,
            floor_note,
        } = self.texts();
        let legend_h = legend_height(entries.len() + usize::from(floor_note.is_some()), k);
        let (upper, lower) = root.split_vertically(plot.height.saturating_sub(legend_h));
        let tick = px(5.0).max(1);
        let label_style = TextStyle::from(("sans-serif", 20.0 * k).into_font());
        let desc_style = TextStyle::from(("sans-serif", 24.0 * k).into_font());
        let curve_axis = RangedCoordf64::from(0f64..1.02f64);
        let right_area = match plot.curve {
            None => 0,
            Some(_) => {
                let labels: Vec<String> = curve_axis
                    .key_points(BoldPoints(HISTOGRAM_Y_TICKS))
                    .iter()
                    .map(percent_tick_label)
                    .collect();
                label_area_width(
                    &upper,
                    &labels,
                    &label_style,
                    curve_desc,
                    &desc_style,
                    tick,
                    px(10.0),
                )?
            }
        };

        macro_rules! draw_with_y {
            ($y_axis:expr, $base:expr) => {{
                let y_axis = $y_axis;
                let count_labels: Vec<String> = y_axis
                    .key_points(BoldPoints(HISTOGRAM_Y_TICKS))
                    .iter()
                    .map(count_tick_label)
                    .collect();
                let left_area = label_area_width(
                    &upper,
                    &count_labels,
                    &label_style,
                    y_desc,
                    &desc_style,
                    tick,
                    px(10.0),
                )?;
                let mut chart = ChartBuilder::on(&upper)
                    .caption(
                        &title,
                        ("sans-serif", 30.0 * k).into_font().style(FontStyle::Bold),
                    )
                    .margin(px(20.0))
                    .x_label_area_size(px(70.0))
                    .y_label_area_size(left_area)
                    .right_y_label_area_size(right_area)
                    .build_cartesian_2d(0f64..1f64, y_axis)?
                    .set_secondary_coord(0f64..1f64, curve_axis.clone());
                chart
                    .configure_mesh()
                    .x_desc("Jaccard similarity of the pair")
                    .y_desc(y_desc)
                    .axis_desc_style(desc_style.clone())
                    .label_style(label_style.clone())
                    .set_all_tick_mark_size(tick)
                    .x_labels(11)
                    .y_labels(HISTOGRAM_Y_TICKS)
                    .x_label_formatter(&|v| format!("{v:.1}"))
                    .y_label_formatter(&count_tick_label)
                    .light_line_style(RGBColor(0xF0, 0xF0, 0xF0))
                    .bold_line_style(RGBColor(0xDC, 0xDC, 0xDC))
                    .draw()?;
                if let Some(floor) = self.similarity_floor {
                    // Translucent, so the grid still shows through where the file says nothing.
                    chart.draw_secondary_series(std::iter::once(Rectangle::new(
                        [(0.0, 0.0), (floor, 1.02)],
                        GREY.mix(0.15).filled(),
                    )))?;
                }
                let base = $base;
                chart.draw_series(plot.bins.iter().filter(|b| b.count > 0).map(|b| {
                    Rectangle::new(
                        [(b.lo, base), (b.hi, b.count as f64)],
                        BAR.mix(0.85).filled(),
                    )
                }))?;
                if let Some(c) = plot.curve {
                    chart
                        .configure_secondary_axes()
                        .y_desc(curve_desc)
                        .axis_desc_style(desc_style.clone())
                        .label_style(label_style.clone())
                        .set_all_tick_mark_size(tick)
                        .y_labels(HISTOGRAM_Y_TICKS)
                        .y_label_formatter(&percent_tick_label)
                        .draw()?;
                    let color = PALETTE[1];
                    chart.draw_secondary_series(LineSeries::new(
                        curve_points(c, 800),
                        color.stroke_width(px(3.0).max(1) as u32),
                    ))?;
                    let s_star = steepest_point(c.bands, c.rows);
                    chart.draw_secondary_series(std::iter::once(
                        EmptyElement::at((s_star, candidate_probability(s_star, c.bands, c.rows)))
                            + Polygon::new(marker_outline(0, px(7.0).max(3)), color.filled()),
                    ))?;
                }
                for (x, y, lo, hi, color, marker, filled) in self.interval_points() {
                    chart.draw_secondary_series(std::iter::once(PathElement::new(
                        vec![(x, lo), (x, hi)],
                        color.stroke_width(px(2.0).max(1) as u32),
                    )))?;
                    let [outer, inner] = point_marker(marker, color, filled, k);
                    chart.draw_secondary_series(std::iter::once(
                        EmptyElement::at((x, y)) + outer + inner,
                    ))?;
                }
                if let Some(t) = plot.threshold {
                    chart.draw_secondary_series(DashedLineSeries::new(
                        vec![(t, 0.0), (t, 1.02)],
                        px(12.0).max(2) as u32,
                        px(6.0).max(2) as u32,
                        BLACK.stroke_width(px(2.0).max(1) as u32),
                    ))?;
                }
            }};
        }

        if plot.log_counts {
            // Bars start at 0.5 so a bin with one pair is still visible on the log axis.
            let y_axis: LogCoord<f64> = (0.5f64..max * 2.0).log_scale().into();
            draw_with_y!(y_axis, 0.5f64);
        } else {
            draw_with_y!(RangedCoordf64::from(0f64..max * 1.08), 0f64);
        }
        draw_legend(&lower, &entries, floor_note.as_deref(), k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_zero_to_one() {
        let bins = histogram_bins(&[0.0, 0.05, 0.1, 0.999, 1.0], 10);
        assert_eq!(bins.len(), 10);
        assert_eq!(bins[0].count, 2);
        assert_eq!(bins[1].count, 1);
        assert_eq!(bins[9].count, 2);
        assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 5);
        // 3/20 is 2.9999999999999996 twentieths in floating point; it still belongs to bin 3,
        // as in the explorer.
        let edge = histogram_bins(&[3.0 / 20.0], 20);
        assert_eq!(edge[3].count, 1);
    }

    #[test]
    fn count_ticks_are_compact_and_whole() {
        assert_eq!(count_tick_label(&0.0), "0");
        assert_eq!(count_tick_label(&20.0), "20");
        assert_eq!(count_tick_label(&250e6), "250.0 M");
        assert_eq!(count_tick_label(&3e9), "3.0 G");
        // Floating-point noise in a tick value is still a whole count.
        assert_eq!(count_tick_label(&300_000.000_000_06), "300.0 k");
        assert_eq!(count_tick_label(&0.5), "");
        assert_eq!(count_tick_label(&2.5), "");
    }

    /// A `<text>` element of plotters' SVG: position, anchor, rotation and content.
    struct SvgText {
        x: i32,
        y: i32,
        anchor: String,
        rotated: bool,
        text: String,
    }

    fn svg_texts(svg: &str) -> Vec<SvgText> {
        let attr = |tag: &str, name: &str| -> Option<String> {
            let key = format!(" {name}=\"");
            let at = tag.find(&key)? + key.len();
            Some(tag[at..at + tag[at..].find('"')?].to_string())
        };
        svg.split("<text")
            .skip(1)
            .map(|element| {
                let tag_end = element.find('>').unwrap();
                let tag = &element[..tag_end];
                let body = &element[tag_end + 1..element.find("</text>").unwrap()];
                SvgText {
                    x: attr(tag, "x").unwrap().parse().unwrap(),
                    y: attr(tag, "y").unwrap().parse().unwrap(),
                    anchor: attr(tag, "text-anchor").unwrap(),
                    rotated: attr(tag, "transform").is_some(),
                    text: body.trim().to_string(),
                }
            })
            .collect()
    }

    /// Draws `figure` as SVG of `plot`'s size and rasterizes it as the PNG export does;
    /// returns the SVG text and the RGB pixels.
    fn render(figure: &HistogramFigure) -> (String, Vec<u8>) {
        register_fonts();
        let (w, h) = (figure.plot.width, figure.plot.height);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
            figure.draw(&root).unwrap();
            root.present().unwrap();
        }
        let rgb = rasterize(&svg, w, h).unwrap();
        (svg, rgb)
    }

    #[test]
    fn big_counts_get_compact_ticks_clear_of_the_axis_title() {
        // A 1 M-document corpus: one bin holds 9 digits of pairs.
        let mut bins = histogram_bins(&[], 50);
        for (i, bin) in bins.iter_mut().enumerate() {
            bin.count = 123_456_789 / (i as u64 + 1);
        }
        for log_counts in [false, true] {
            let plot = HistogramPlot {
                bins: bins.clone(),
                curve: Some(CurveSpec { bands: 20, rows: 5 }),
                threshold: Some(0.8),
                log_counts,
                estimated: None,
                precision: Vec::new(),
                measured: Vec::new(),
                width: 1200,
                height: 800,
            };
            let figure = HistogramFigure {
                plot: &plot,
                similarity_floor: None,
            };
            let (svg, rgb) = render(&figure);
            let texts = svg_texts(&svg);
            let title = texts
                .iter()
                .find(|t| t.rotated && t.text.starts_with("pairs per bin"))
                .expect("count axis title");
            // The count axis's tick labels: right-aligned, left of the plotting area.
            let ticks: Vec<&SvgText> = texts
                .iter()
                .filter(|t| !t.rotated && t.anchor == "end" && t.x < 300)
                .collect();
            let tick_texts: Vec<&str> = ticks.iter().map(|t| t.text.as_str()).collect();
            assert!(tick_texts.contains(&"100.0 M"), "{tick_texts:?}");
            // The legend's total is grouped like every count the tool prints.
            let total: u64 = bins.iter().map(|b| b.count).sum();
            let grouped = format!(
                "{} pairs in all",
                lshscope_core::util::numfmt::thousands(total)
            );
            assert!(grouped.contains(','), "{grouped}");
            assert!(
                texts.iter().any(|t| t.text.ends_with(&grouped)),
                "no legend with {grouped:?}"
            );
            assert!(
                tick_texts.iter().all(|t| t.len() <= 7),
                "long tick labels: {tick_texts:?}"
            );

            // Measured with the font both backends lay text out with.
            let mut measure = String::new();
            let area = SVGBackend::with_string(&mut measure, (100, 100)).into_drawing_area();
            let label_style = TextStyle::from(("sans-serif", 20.0).into_font());
            let title_style = TextStyle::from(("sans-serif", 24.0).into_font());
            let labels_left = ticks
                .iter()
                .map(|t| t.x - area.estimate_text_size(&t.text, &label_style).unwrap().0 as i32)
                .min()
                .unwrap();
            // Turned upright with its top at x, the title spans x to x + its height.
            let title_right = title.x
                + area
                    .estimate_text_size(&title.text, &title_style)
                    .unwrap()
                    .1 as i32;
            assert!(
                title_right < labels_left,
                "log {log_counts}: the axis title (to x = {title_right}) runs into the tick \
                 labels (from x = {labels_left})"
            );

            // In the PNG too: between them, over the height of the labels, not one pixel is
            // drawn.
            let top = ticks.iter().map(|t| t.y).min().unwrap() - 15;
            let bottom = ticks.iter().map(|t| t.y).max().unwrap() + 15;
            for y in top..=bottom {
                for x in title_right..labels_left {
                    let at = (y as usize * 1200 + x as usize) * 3;
                    assert_eq!(
                        &rgb[at..at + 3],
                        &[255, 255, 255],
                        "log {log_counts}: ink at ({x}, {y}) between the axis title and the \
                         tick labels"
                    );
                }
            }
        }
    }

    #[test]
    fn extension_decides_format() {
        assert_eq!(image_format(Path::new("a.SVG")).unwrap(), ImageFormat::Svg);
        assert_eq!(image_format(Path::new("a.png")).unwrap(), ImageFormat::Png);
        assert!(image_format(Path::new("a.jpg")).is_err());
        assert!(image_format(Path::new("a")).is_err());
    }
}
