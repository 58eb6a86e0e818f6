//! The S-curve panel: P(s) = 1 − (1 − s^r)^b for the current (b, r), pinned curves, the
//! steepest point, (1/b)^(1/r), the similarities where P = 10 % and 90 %, and the threshold.

use lshscope_core::util::numfmt::thousands;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph};

use super::fit::{Field, fit_fields_with, fit_line, title_room};
use crate::tui::app::{App, Focus};
use crate::tui::keys::{Command, hint};
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::scurve::{
    approximate_threshold, candidate_probability, similarity_at_probability, steepest_point,
};

/// Points along the curve; two per Braille dot column of a wide panel is plenty.
const CURVE_POINTS: usize = 241;

/// (s, P(s)) samples of the S-curve of `banding` on [0, 1].
pub fn curve_points(banding: Banding) -> Vec<(f64, f64)> {
    (0..CURVE_POINTS)
        .map(|i| {
            let s = i as f64 / (CURVE_POINTS - 1) as f64;
            (s, candidate_probability(s, banding.bands, banding.rows))
        })
        .collect()
}

/// The y axis's labels; their width places the plot area.
const Y_LABELS: [&str; 3] = ["0", ".5", "1"];

/// Writes `labels` (similarity, text) on the label row of a ratatui [`Chart`] drawn in
/// `chart_area` with the y labels `y_labels` and x labels only at its ends, each centred under
/// the cell where the chart draws that similarity (`dots_per_cell` across: 2 for Braille, 1
/// for dots and blocks). ratatui spaces inner x labels at i / n of the width, not at their
/// values (0.2, 0.4, 0.6 for five labels), so they are drawn here instead.
pub(crate) fn value_labels(
    frame: &mut Frame,
    chart_area: Rect,
    y_labels: &[&str],
    dots_per_cell: u16,
    labels: &[(f64, &str)],
    style: Style,
) {
    // The plot area as ratatui's Chart lays it out: the y labels' width (at most a third of
    // the area), the y axis line, then the plot; the x labels on the bottom row.
    let label_width = y_labels.iter().map(|l| l.len() as u16).max().unwrap_or(0);
    let plot_x = chart_area.x + label_width.min(chart_area.width / 3) + 1;
    let plot_width = chart_area.right().saturating_sub(plot_x);
    if chart_area.height < 3 || plot_width < 16 {
        return;
    }
    let row = chart_area.bottom() - 1;
    for &(s, text) in labels {
        let col = plot_x + column_of(s, plot_width, dots_per_cell);
        let start = col.saturating_sub(text.len() as u16 / 2);
        frame.buffer_mut().set_string(start, row, text, style);
    }
}

/// The cell column (from the plot's left edge) where a chart `width` cells wide draws x = `s`
/// on [0, 1]: x scaled onto dots 0 … dots_per_cell · width − 1 and rounded, as ratatui's
/// canvas `get_point` does.
fn column_of(s: f64, width: u16, dots_per_cell: u16) -> u16 {
    let dots = f64::from(dots_per_cell) * f64::from(width) - 1.0;
    ((s * dots).round() as u16 / dots_per_cell).min(width.saturating_sub(1))
}

/// The S-curve panel: the curve of the banding asked for with its marks, the pinned curves,
/// the measured overlays, and below them the facts about the banding and the legend.
pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let b = app.curve().banding;
    let border = if app.focus() == Focus::Curve {
        theme.focused_border()
    } else {
        theme.border()
    };
    let title = vec![
        Span::styled(" S-curve ", theme.title()),
        Span::styled(format!("b = {} × r = {} ", b.bands, b.rows), theme.key()),
    ];
    let block = Block::bordered()
        .border_style(border)
        .title(fit_line(title, title_room(area)));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [chart_area, info_area] =
        Layout::vertical([Constraint::Min(5), Constraint::Length(4)]).areas(inner);

    let pinned: Vec<(Banding, Vec<(f64, f64)>)> = app
        .curve()
        .pins
        .iter()
        .map(|&p| (p, curve_points(p)))
        .collect();
    let measured = super::missed::MeasuredOverlay::new(app);
    draw_chart(frame, app, chart_area, &pinned, measured.as_ref());
    let legend = legend(app, &pinned, measured.as_ref());
    frame.render_widget(
        Paragraph::new(info_lines(app, legend, info_area.width)),
        info_area,
    );
}

/// The chart: the pinned curves, t, the current curve with its 10 %/90 % points, the
/// (1/b)^(1/r) approximation and the steepest point, then the measured and family overlays.
fn draw_chart(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    pinned: &[(Banding, Vec<(f64, f64)>)],
    measured: Option<&super::missed::MeasuredOverlay>,
) {
    let theme = app.theme();
    let b = app.curve().banding;
    let t = app.curve().threshold;
    let current = curve_points(b);
    let steep = steepest_point(b.bands, b.rows);
    let approx = approximate_threshold(b.bands, b.rows);
    let steep_pt = [(steep, candidate_probability(steep, b.bands, b.rows))];
    let approx_pt = [(approx, candidate_probability(approx, b.bands, b.rows))];
    let t_line = [(t, 0.0), (t, 1.0)];
    let p10 = similarity_at_probability(0.1, b.bands, b.rows);
    let p90 = similarity_at_probability(0.9, b.bands, b.rows);
    let p10_p90 = [(p10, 0.1), (p90, 0.9)];
    let family = FamilyOverlay::new(app);

    let mut datasets = Vec::new();
    for (i, (_, pts)) in pinned.iter().enumerate() {
        datasets.push(
            Dataset::default()
                .marker(theme.pin_marker())
                .graph_type(GraphType::Line)
                .style(Style::default().fg(theme.pin(i)))
                .data(pts),
        );
    }
    datasets.push(
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(theme.threshold()))
            .data(&t_line),
    );
    datasets.push(
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(theme.curve()))
            .data(&current),
    );
    datasets.push(
        Dataset::default()
            .marker(Marker::Custom('○'))
            .graph_type(GraphType::Scatter)
            .style(Style::default().fg(theme.curve()))
            .data(&p10_p90),
    );
    datasets.push(
        Dataset::default()
            .marker(Marker::Custom('◆'))
            .graph_type(GraphType::Scatter)
            .style(theme.warning())
            .data(&approx_pt),
    );
    datasets.push(
        Dataset::default()
            .marker(Marker::Custom('●'))
            .graph_type(GraphType::Scatter)
            .style(theme.warning())
            .data(&steep_pt),
    );
    if let Some(m) = measured {
        m.push_datasets(app, &mut datasets);
    }
    if let Some(f) = &family {
        f.push_datasets(app, &mut datasets);
    }
    let chart = Chart::new(datasets)
        .x_axis(
            Axis::default()
                .bounds([0.0, 1.0])
                .style(theme.dim())
                // The end labels only; the inner ones are drawn by `value_labels`.
                .labels(["0", "1"]),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, 1.0])
                .style(theme.dim())
                .labels(Y_LABELS),
        );
    frame.render_widget(chart, area);
    let inner = [(0.25, "0.25"), (0.5, "0.5"), (0.75, "0.75")];
    value_labels(frame, area, &Y_LABELS, 2, &inner, theme.dim());
}

/// The legend: the current banding, the pins, the family and the measured overlay (or how to
/// pin when there is nothing else to name).
fn legend(
    app: &App,
    pinned: &[(Banding, Vec<(f64, f64)>)],
    measured: Option<&super::missed::MeasuredOverlay>,
) -> Vec<Span<'static>> {
    let theme = app.theme();
    let b = app.curve().banding;
    let mut legend = vec![
        Span::styled("━ ", Style::default().fg(theme.curve())),
        Span::raw(format!("{b}  ")),
    ];
    for (i, (p, _)) in pinned.iter().enumerate() {
        let glyph = if theme.mono { "·· " } else { "━ " };
        legend.push(Span::styled(glyph, Style::default().fg(theme.pin(i))));
        legend.push(Span::raw(format!("{p}  ")));
    }
    if let Some(spans) = family_legend(app) {
        legend.extend(spans);
    }
    if let Some(m) = measured {
        legend.extend(m.legend(app));
    } else if pinned.is_empty() && app.family().pinned().is_none() {
        legend.push(Span::styled(
            format!("({} pins this curve)", hint(Command::Pin)),
            theme.dim(),
        ));
    }
    legend
}

/// The four lines under the chart, `width` columns wide: hashes used and P(t), the steepest
/// point and the approximation, where P is 10 % and 90 %, and the legend.
fn info_lines(app: &App, legend: Vec<Span<'static>>, width: u16) -> Vec<Line<'static>> {
    let theme = app.theme();
    let b = app.curve().banding;
    let k = app.num_perm();
    let t = app.curve().threshold;
    let p_t = candidate_probability(t, b.bands, b.rows);
    let steep = steepest_point(b.bands, b.rows);
    let approx = approximate_threshold(b.bands, b.rows);
    let p10 = similarity_at_probability(0.1, b.bands, b.rows);
    let p90 = similarity_at_probability(0.9, b.bands, b.rows);
    let used = b.bands * b.rows;
    // Each line is a row of facts that fit whole or go whole (rank 0 stays, shortened if it
    // must): the status line shows t and P(t) at every width, so here they go first.
    let unused_style = if k > used {
        theme.warning()
    } else {
        theme.dim()
    };
    let hashes = Field::new(
        0,
        vec![
            Span::raw(format!(
                "{}/{} hashes used (",
                thousands(used as u64),
                thousands(k as u64)
            )),
            Span::styled(
                format!("{} unused", thousands((k - used) as u64)),
                unused_style,
            ),
            Span::raw(")"),
        ],
    )
    .or_short(vec![Span::raw(format!(
        "{}/{} hashes used",
        thousands(used as u64),
        thousands(k as u64)
    ))]);
    let at_t = Field::new(
        1,
        vec![
            Span::styled("│ ", Style::default().fg(theme.threshold())),
            Span::raw(format!(
                "t {t:.2}: P(t) {}",
                lshscope_core::util::numfmt::percent_adaptive(p_t)
            )),
        ],
    );
    let steepest = Field::new(
        0,
        vec![
            Span::styled("● ", theme.warning()),
            Span::raw(format!("steepest {steep:.3}")),
        ],
    );
    let approximation = Field::new(
        1,
        vec![
            Span::styled("◆ ", theme.warning()),
            Span::raw(format!("(1/b)^(1/r) {approx:.3}")),
        ],
    )
    // At 80 columns the formula leaves no room, and a ◆ on the curve with no legend is a
    // riddle: the value alone beside its mark.
    .or_short(vec![
        Span::styled("◆ ", theme.warning()),
        Span::raw(format!("{approx:.3}")),
    ]);
    // Compact enough for the narrowest panel (31 columns) as it is.
    let band_10_90 = Field::new(
        0,
        vec![
            Span::styled("○ ", Style::default().fg(theme.curve())),
            Span::raw(format!("P=10 %/90 % at s={p10:.3}/{p90:.3}")),
        ],
    );
    vec![
        fit_fields_with(vec![hashes, at_t], "  ", width),
        fit_fields_with(vec![steepest, approximation], "   ", width),
        fit_fields_with(vec![band_10_90], "  ", width),
        fit_line(legend, width),
    ]
}

/// The pinned family's measured curve: per bin its mean rate over draws (◇) and the 95 %
/// interval of that mean, at the bin's mean similarity.
struct FamilyOverlay {
    bars: Vec<[(f64, f64); 2]>,
    points: Vec<(f64, f64)>,
}

impl FamilyOverlay {
    /// `None` unless a family is pinned and measured for the curve's banding.
    fn new(app: &App) -> Option<Self> {
        let curve = app.family().pinned()?.curve()?;
        if curve.banding != app.curve().banding {
            return None;
        }
        Some(FamilyOverlay {
            bars: curve
                .bins
                .iter()
                .map(|b| {
                    [
                        (b.mean_jaccard, b.interval_lo),
                        (b.mean_jaccard, b.interval_hi),
                    ]
                })
                .collect(),
            points: curve
                .bins
                .iter()
                .map(|b| (b.mean_jaccard, b.rate))
                .collect(),
        })
    }

    fn push_datasets<'a>(&'a self, app: &App, datasets: &mut Vec<Dataset<'a>>) {
        let style = app.theme().family();
        for bar in &self.bars {
            datasets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(style)
                    .data(bar),
            );
        }
        datasets.push(
            Dataset::default()
                .marker(Marker::Custom('◇'))
                .graph_type(GraphType::Scatter)
                .style(style)
                .data(&self.points),
        );
    }
}

/// The legend of the pinned family: its name and how many bins depart from the formula, or
/// that it is being measured.
fn family_legend(app: &App) -> Option<Vec<Span<'static>>> {
    let pinned = app.family().pinned()?;
    let text = match pinned.curve() {
        None if pinned.agreement().is_none() => format!("{}: measuring…  ", pinned.family()),
        None => format!("{}: b·r > K  ", pinned.family()),
        Some(c) => format!(
            "{} {}/{} off  ",
            pinned.family(),
            thousands(c.departing_bins() as u64),
            thousands(c.bins.len() as u64)
        ),
    };
    Some(vec![
        Span::styled("◇ ", app.theme().family()),
        Span::raw(text),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// Each inner label sits over the column where the chart draws its similarity: a vertical
    /// line at that similarity, drawn by the same Chart setup (the S-curve's, Braille, and the
    /// walkthrough's, dots with axis titles), at many widths.
    #[test]
    fn inner_labels_sit_under_the_similarities_they_name() {
        let setups: [(Marker, u16, &[&str], Option<&str>); 2] = [
            (Marker::Braille, 2, &Y_LABELS, None),
            (Marker::Dot, 1, &["0", "0.5", "1"], Some("Jaccard s")),
        ];
        for (marker, dots, y_labels, title) in setups {
            for width in (24..=160).step_by(7) {
                for (s, text) in [(0.25, "0.25"), (0.5, "0.5"), (0.75, "0.75")] {
                    let mut terminal = Terminal::new(TestBackend::new(width, 12)).unwrap();
                    let line: Vec<(f64, f64)> = (0..=40).map(|i| (s, i as f64 / 40.0)).collect();
                    terminal
                        .draw(|frame| {
                            let mut x_axis = Axis::default().bounds([0.0, 1.0]).labels(["0", "1"]);
                            if let Some(title) = title {
                                x_axis = x_axis.title(title);
                            }
                            let chart = Chart::new(vec![
                                Dataset::default()
                                    .marker(marker)
                                    .graph_type(GraphType::Scatter)
                                    .data(&line),
                            ])
                            .x_axis(x_axis)
                            .y_axis(
                                Axis::default()
                                    .bounds([0.0, 1.0])
                                    .labels(y_labels.iter().copied()),
                            );
                            frame.render_widget(chart, frame.area());
                            value_labels(
                                frame,
                                frame.area(),
                                y_labels,
                                dots,
                                &[(s, text)],
                                Style::default(),
                            );
                        })
                        .unwrap();
                    let buffer = terminal.backend().buffer();
                    let mark = |c: char| c == '•' || ('\u{2801}'..='\u{28ff}').contains(&c);
                    let drawn = (0..width)
                        .find(|&x| buffer[(x, 4)].symbol().chars().any(mark))
                        .unwrap();
                    let labels: String = (0..width).map(|x| buffer[(x, 11)].symbol()).collect();
                    let start = labels.find(text).unwrap() as u16;
                    let end = start + text.len() as u16 - 1;
                    assert!(
                        (start..=end).contains(&drawn) && drawn.abs_diff((start + end) / 2) <= 1,
                        "{marker:?}, width {width}: {text} at {start}..={end}, drawn at {drawn}\n{labels}"
                    );
                }
            }
        }
    }
}
