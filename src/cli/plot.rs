//! `lshscope plot`: S-curves and similarity histograms as SVG or PNG files.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::lsh_args::BandingArg;
use crate::plot::{
    CurveSpec, HistogramPlot, ScurvePlot, histogram_bins, image_format, write_histogram_with_floor,
    write_scurve,
};
use lshscope_core::io::atomic::check_writable;
use lshscope_core::pairs::read_similarities;
use lshscope_core::{Error, Result};

#[derive(Debug, Args)]
pub struct PlotArgs {
    #[command(subcommand)]
    pub kind: PlotKind,
}

#[derive(Debug, Subcommand)]
pub enum PlotKind {
    /// S-curves P(s) = 1 − (1 − s^r)^b with steepest points, P = 10 %/90 % marks and threshold.
    Scurve(ScurveArgs),
    /// Histogram of candidate-pair Jaccard similarities, with the S-curve on a second axis.
    Histogram(HistogramArgs),
}

/// Image file and size, shared by every plot.
#[derive(Debug, Args)]
pub struct ImageArgs {
    /// Image to write; the extension picks the format: `.svg` or `.png`.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,
    /// Width in pixels.
    #[arg(long, default_value_t = 1200)]
    pub width: u32,
    /// Height in pixels.
    #[arg(long, default_value_t = 800)]
    pub height: u32,
}

#[derive(Debug, Args)]
pub struct ScurveArgs {
    /// Bands b of the main curve.
    #[arg(long, short = 'b')]
    pub bands: usize,
    /// Rows r of the main curve.
    #[arg(long, short = 'r')]
    pub rows: usize,
    /// More curves to compare, e.g. `16x8,5x25`.
    #[arg(long, value_delimiter = ',', value_name = "BxR,...")]
    pub compare: Vec<BandingArg>,
    /// Draw the threshold t and give P(t) for each curve.
    #[arg(long, short = 't', value_name = "T", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Permutations K: every curve must have b·r ≤ K (shown in the title).
    #[arg(long, short = 'k', value_name = "K")]
    pub num_perm: Option<usize>,
    #[command(flatten)]
    pub image: ImageArgs,
}

#[derive(Debug, Args)]
pub struct HistogramArgs {
    /// Pairs written by `lshscope scan` (CSV, JSON Lines or Parquet with a `jaccard` column,
    /// possibly .gz/.zst); `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub pairs: PathBuf,
    /// Bands b of the S-curve to overlay (with --rows).
    #[arg(long, short = 'b', requires = "rows")]
    pub bands: Option<usize>,
    /// Rows r of the S-curve to overlay (with --bands).
    #[arg(long, short = 'r', requires = "bands")]
    pub rows: Option<usize>,
    /// Draw the threshold t.
    #[arg(long, short = 't', value_name = "T", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Logarithmic count axis.
    #[arg(long)]
    pub log: bool,
    /// Number of equal-width bins over [0, 1].
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub bins: usize,
    #[command(flatten)]
    pub image: ImageArgs,
}

pub fn run(args: PlotArgs) -> Result<i32> {
    match args.kind {
        PlotKind::Scurve(a) => run_scurve(a),
        PlotKind::Histogram(a) => run_histogram(a),
    }
}

fn check_threshold(t: Option<f64>) -> Result<()> {
    match t {
        Some(t) => lshscope_core::error::check_unit("--threshold", t),
        None => Ok(()),
    }
}

fn check_curve(c: CurveSpec, num_perm: Option<usize>) -> Result<()> {
    // Only --bands and --rows can be 0 here: a `BxR` of --compare is refused when parsed.
    for (option, value) in [("--bands (-b)", c.bands), ("--rows (-r)", c.rows)] {
        if value == 0 {
            return Err(Error::usage(format!("{option} must be at least 1, got 0")));
        }
    }
    if let Some(k) = num_perm
        && c.bands * c.rows > k
    {
        return Err(Error::usage(format!(
            "{} needs {} permutations but --num-perm is {k}",
            lshscope_core::util::numfmt::bands_by_rows(c.bands, c.rows),
            c.bands * c.rows
        )));
    }
    Ok(())
}

fn run_scurve(args: ScurveArgs) -> Result<i32> {
    // Fail on the file name before any work.
    image_format(&args.image.output)?;
    check_writable(&args.image.output, "--output")?;
    check_threshold(args.threshold)?;
    let mut curves = vec![CurveSpec {
        bands: args.bands,
        rows: args.rows,
    }];
    curves.extend(args.compare.iter().map(|c| CurveSpec {
        bands: c.bands,
        rows: c.rows,
    }));
    if args.num_perm == Some(0) {
        return Err(Error::usage("--num-perm must be at least 1"));
    }
    for &c in &curves {
        check_curve(c, args.num_perm)?;
    }
    write_scurve(
        &args.image.output,
        &ScurvePlot {
            curves,
            threshold: args.threshold,
            num_perm: args.num_perm,
            width: args.image.width,
            height: args.image.height,
        },
    )?;
    Ok(0)
}

fn run_histogram(args: HistogramArgs) -> Result<i32> {
    image_format(&args.image.output)?;
    check_writable(&args.image.output, "--output")?;
    check_threshold(args.threshold)?;
    if !(1..=1000).contains(&args.bins) {
        return Err(Error::usage(format!(
            "--bins must be between 1 and 1000, got {}",
            args.bins
        )));
    }
    let curve = match (args.bands, args.rows) {
        (Some(bands), Some(rows)) => {
            let c = CurveSpec { bands, rows };
            check_curve(c, None)?;
            Some(c)
        }
        _ => None,
    };
    let values = read_similarities(&args.pairs, false)
        .map_err(|e| super::about_file(Some("--pairs"), &args.pairs, e))?;
    let similarity_floor = lshscope_core::tune::thresholded_floor(&values);
    if let Some(lowest) = similarity_floor {
        super::warn(false, &thresholded_hint(&args.pairs, lowest));
    }
    write_histogram_with_floor(
        &args.image.output,
        &HistogramPlot {
            bins: histogram_bins(&values, args.bins),
            curve,
            threshold: args.threshold,
            log_counts: args.log,
            estimated: None,
            precision: Vec::new(),
            measured: Vec::new(),
            width: args.image.width,
            height: args.image.height,
        },
        similarity_floor,
    )?;
    Ok(0)
}

/// What `plot histogram` says of a pairs file that starts at `lowest`
/// ([`lshscope_core::tune::thresholded_floor`]): that the figure is not
/// the whole candidate distribution, and how to get that.
fn thresholded_hint(pairs: &std::path::Path, lowest: f64) -> String {
    // A scan's threshold is at most the lowest similarity it kept; two decimals name the
    // threshold a user would have typed (0.8 for a lowest of 0.8013). The epsilon keeps
    // 0.57 × 100 = 56.99999999999999 from flooring to 0.56.
    let about = ((lowest * 100.0 + 1e-9).floor() / 100.0).min(lowest);
    let lowest_text = lshscope_core::util::numfmt::decimal(lowest);
    let about_text = lshscope_core::util::numfmt::decimal(about);
    let lowest_note = if about_text == lowest_text {
        String::new()
    } else {
        format!(" (its lowest Jaccard is {lowest_text})")
    };
    format!(
        "{} looks thresholded at about {about_text}{lowest_note}: a scan with --threshold drops \
         the pairs below it, so the histogram shows only the pairs at or above it, not every \
         candidate; for all candidates, plot the pairs of `lshscope scan -t 0`",
        pairs.display()
    )
}
