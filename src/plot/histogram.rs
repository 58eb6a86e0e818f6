//! The histogram figure: candidate similarities as bars, with the S-curve to scale,
//! labelled precision and measured rates.

use plotters::coord::Shift;
use plotters::coord::ranged1d::BoldPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use lshscope_core::minhash::scurve::{candidate_probability, steepest_point};

use super::layout::{
    HISTOGRAM_Y_TICKS, Swatch, count_tick_label, draw_legend, font_scale, label_area_width,
    label_percent, legend_height, marker_outline, percent_tick_label, point_marker, threshold_line,
};
use super::render::{DrawResult, Figure};
use super::scurve::curve_points;
use super::{BAR, GREY, HistogramPlot, MEASURED, PALETTE, PRECISION};

/// The histogram as drawn: the plot and, for pairs that hold none below it, that similarity
/// ([`super::write_histogram_with_floor`]).
pub(super) struct HistogramFigure<'a> {
    pub(super) plot: &'a HistogramPlot,
    pub(super) similarity_floor: Option<f64>,
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
                    chart.draw_secondary_series(threshold_line(t, k))?;
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
