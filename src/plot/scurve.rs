//! The S-curve figure: one curve per banding, its steepest point and 10 %/90 % markers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use lshscope_core::minhash::scurve::{
    candidate_probability, similarity_at_probability, steepest_point,
};

use super::layout::{
    Swatch, draw_legend, font_scale, label_percent, legend_height, marker_outline, threshold_line,
};
use super::render::{DrawResult, Figure};
use super::{CurveSpec, GREY, PALETTE, ScurvePlot};

pub(super) fn curve_points(c: CurveSpec, steps: usize) -> Vec<(f64, f64)> {
    (0..=steps)
        .map(|i| {
            let s = i as f64 / steps as f64;
            (s, candidate_probability(s, c.bands, c.rows))
        })
        .collect()
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
            chart.draw_series(threshold_line(t, k))?;
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
