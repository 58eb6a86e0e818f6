//! What both figures share: scaling with the image size, markers, the legend band and the
//! axes' tick labels and label areas.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::GREY;
use super::render::DrawResult;

/// Font sizes and spacing scale with the image (tuned for 1200×800); the tighter dimension
/// decides, so text fits a narrow image too.
pub(super) fn font_scale(width: u32, height: u32) -> f64 {
    (width as f64 / 1200.0).min(height as f64 / 800.0)
}

/// Outline of marker shape `index` (circle, triangle, square, diamond, …) around (0, 0), in
/// pixels; the first point is repeated at the end so a path closes.
pub(super) fn marker_outline(index: usize, size: i32) -> Vec<(i32, i32)> {
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
pub(super) enum Swatch {
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
pub(super) fn point_marker(marker: usize, color: RGBColor, filled: bool, k: f64) -> [Marker; 2] {
    let size = ((8.0 * k).round() as i32).max(4);
    let inner = if filled { color } else { WHITE };
    [
        Polygon::new(marker_outline(marker, size), color.filled()),
        Polygon::new(marker_outline(marker, (size * 11) / 20), inner.filled()),
    ]
}

/// Draws legend entries one per line, left-aligned, into `area` (a band under the chart, so
/// the legend never hides a curve or a bar).
pub(super) fn draw_legend<DB: DrawingBackend>(
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
pub(super) const HISTOGRAM_Y_TICKS: usize = 11;

/// A count axis's tick label: compact, so that 9-digit counts stay narrow (`250.0 M`). Ticks
/// between whole counts (a linear axis up to a few pairs puts them at 0.5) get none: no bin
/// holds half a pair.
pub(super) fn count_tick_label(v: &f64) -> String {
    let whole = v.round();
    // Tick values are computed in floating point (300000.00000000006 is a whole count).
    if whole >= 0.0 && (v - whole).abs() <= 1e-9 * whole.max(1.0) {
        lshscope_core::util::numfmt::compact(whole as u64)
    } else {
        String::new()
    }
}

/// A probability axis's tick label (`40 %`).
pub(super) fn percent_tick_label(v: &f64) -> String {
    format!("{:.0} %", v * 100.0)
}

/// Width of a vertical axis's label area that holds its widest tick label and its title side
/// by side. Plotters draws the title, turned upright, against the area's outer edge and the
/// labels two tick lengths from the axis; in an area too narrow they overlap (9-digit counts
/// did at a fixed width), so the width comes from the labels actually drawn.
pub(super) fn label_area_width<DB: DrawingBackend>(
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
pub(super) fn legend_height(lines: usize, k: f64) -> u32 {
    ((30.0 + 30.0 * lines as f64) * k).round() as u32
}

/// "= 47.01 %" for a label: two decimals, but never rounded to a flat 0 % or 100 %.
pub(super) fn label_percent(p: f64) -> String {
    let text = lshscope_core::util::numfmt::percent_two_decimals(p);
    if text.starts_with(['<', '>']) {
        text
    } else {
        format!("= {text}")
    }
}

/// The threshold both plots mark: a vertical dashed line at `t` from 0 to just above 1 on
/// their probability axis, its dashes and width scaled by `k`.
pub(super) fn threshold_line(
    t: f64,
    k: f64,
) -> DashedLineSeries<std::vec::IntoIter<(f64, f64)>, u32> {
    let px = |v: f64| (v * k).round() as i32;
    DashedLineSeries::new(
        vec![(t, 0.0), (t, 1.02)],
        px(12.0).max(2) as u32,
        px(6.0).max(2) as u32,
        BLACK.stroke_width(px(2.0).max(1) as u32),
    )
}
