//! Step 8 of the walkthrough: the S-curve with every intermediate number for the selected
//! pair, the user's threshold beside the curve's steep point, and the chart.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Wrap};

use lshscope_core::learn::scurve_steps;
use lshscope_core::minhash::scurve::{approximate_threshold, candidate_probability};

use super::LearnApp;

/// Step 8: the intermediate numbers for the selected pair, the user's threshold t with P(t)
/// beside the curve's steep point (1/b)^(1/r) (two different numbers, named apart), the false
/// positives and negatives at t among these documents, a legend, and the curve.
pub(super) fn render_scurve_step(frame: &mut Frame, app: &LearnApp, area: Rect) {
    let mut lines = number_lines(app);
    if area.height < 16 {
        // A short screen keeps the pair's numbers and the two thresholds.
        lines.truncate(5);
    }
    lines.push(Line::raw(""));
    lines.extend(legend_lines(app, area.width));
    let text_height = (lines.len() as u16).min(area.height.saturating_sub(4));
    let [text, chart] =
        Layout::vertical([Constraint::Length(text_height), Constraint::Min(4)]).areas(area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), text);
    draw_chart(frame, app, chart);
}

/// The selected pair's numbers from s to P(s), the threshold t beside the steep point, and
/// the false positives and negatives at t.
fn number_lines(app: &LearnApp) -> Vec<Line<'static>> {
    let (bands, rows) = (app.bands, app.rows);
    let w = &app.walk;
    let (a, b) = app.pair;
    let s = app.pair_jaccard();
    let st = scurve_steps(s, bands, rows);
    let t = app.threshold;
    let p_t = candidate_probability(t, bands, rows);
    let steep = approximate_threshold(bands, rows);
    let candidates = w.candidates(bands, rows);
    let verification = w.verify(bands, rows, t);
    let list = |v: &[lshscope_core::learn::ExactPair]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|p| format!("{}–{} ({:.2})", w.docs[p.a].id, w.docs[p.b].id, p.jaccard))
                .collect::<Vec<_>>()
                .join("  ")
        }
    };
    vec![
        Line::from(vec![
            Span::styled(
                format!("pair {}–{}: ", w.docs[a].id, w.docs[b].id),
                app.theme.title(),
            ),
            Span::raw(format!("s = {s:.4}   r = {rows}   b = {bands}")),
        ]),
        Line::raw(format!(
            "s^r = {:.6}   1 − s^r = {:.6}   (1 − s^r)^b = {:.6}",
            st.s_pow_r, st.band_miss, st.all_bands_miss
        )),
        Line::from(vec![
            Span::raw("P(s) = 1 − (1 − s^r)^b = "),
            Span::styled(format!("{:.6}", st.candidate), app.theme.shared()),
            Span::raw(format!(
                "   ({})",
                if candidates.contains(&(a, b)) {
                    "a candidate here"
                } else {
                    "not a candidate here"
                }
            )),
        ]),
        Line::raw(format!(
            "your threshold t = {t:.2} (< >): pairs at or above it are wanted; P(t) = {p_t:.3}"
        )),
        Line::raw(format!(
            "the curve's steep point ≈ (1/b)^(1/r) = {steep:.3}: set by b and r, not by you"
        )),
        Line::raw(format!(
            "false positives (candidates below t): {}",
            list(&verification.dropped)
        )),
        Line::raw(format!(
            "false negatives (at or above t, not candidates): {}",
            list(&verification.missed)
        )),
    ]
}

/// The legend, `width` columns wide: what each mark of the chart is, each entry kept whole on
/// one line.
fn legend_lines(app: &LearnApp, width: u16) -> Vec<Line<'static>> {
    let (bands, rows) = (app.bands, app.rows);
    let w = &app.walk;
    let (a, b) = app.pair;
    let st = scurve_steps(app.pair_jaccard(), bands, rows);
    let t = app.threshold;
    let steep = approximate_threshold(bands, rows);
    let threshold_style = Style::default().fg(app.theme.threshold());
    let (pair_a, pair_b) = (&w.docs[a].id, &w.docs[b].id);
    let legend = [
        (
            "⣀⠔⠊ ",
            Style::default().fg(app.theme.curve()),
            format!("P(s), b={bands} r={rows}"),
        ),
        ("│ ", threshold_style, format!("your threshold t = {t:.2}")),
        (
            "◆ ",
            app.theme.warning(),
            format!("steep point (1/b)^(1/r) = {steep:.2}"),
        ),
        (
            "█ ",
            app.theme.shared(),
            format!("pair {pair_a}–{pair_b}: P = {:.3}", st.candidate),
        ),
    ];
    let mut legend_lines: Vec<Line> = Vec::new();
    let mut current: Vec<Span> = Vec::new();
    let mut used = 0;
    for (mark, style, label) in legend {
        let len = mark.chars().count() + label.chars().count() + 3;
        if used > 0 && used + len > width as usize {
            legend_lines.push(Line::from(std::mem::take(&mut current)));
            used = 0;
        }
        used += len;
        current.push(Span::styled(mark, style));
        current.push(Span::raw(format!("{label}   ")));
    }
    legend_lines.push(Line::from(current));
    legend_lines
}

/// The chart: t, the curve, the steep point, and the selected pair on the curve.
fn draw_chart(frame: &mut Frame, app: &LearnApp, chart: Rect) {
    let (bands, rows) = (app.bands, app.rows);
    let s = app.pair_jaccard();
    let st = scurve_steps(s, bands, rows);
    let t = app.threshold;
    let steep = approximate_threshold(bands, rows);
    let p_steep = candidate_probability(steep, bands, rows);
    let threshold_style = Style::default().fg(app.theme.threshold());
    let curve: Vec<(f64, f64)> = (0..=100)
        .map(|i| {
            let x = i as f64 / 100.0;
            (x, candidate_probability(x, bands, rows))
        })
        .collect();
    let point = [(s, st.candidate)];
    let steep_point = [(steep, p_steep)];
    let threshold_line = [(t, 0.0), (t, 1.0)];
    // Drawn in this order so the pair's block and the steep point stay on top of the lines.
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(threshold_style)
            .data(&threshold_line),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(app.theme.curve()))
            .data(&curve),
        Dataset::default()
            .marker(Marker::Custom('◆'))
            .graph_type(GraphType::Scatter)
            .style(app.theme.warning())
            .data(&steep_point),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(app.theme.shared())
            .data(&point),
    ];
    let axis_style = app.theme.dim();
    frame.render_widget(
        Chart::new(datasets)
            .legend_position(None)
            .x_axis(
                Axis::default()
                    .title("Jaccard s")
                    .style(axis_style)
                    .bounds([0.0, 1.0])
                    .labels(["0", "1"]),
            )
            .y_axis(
                Axis::default()
                    .title("P")
                    .style(axis_style)
                    .bounds([0.0, 1.0])
                    .labels(Y_LABELS),
            ),
        chart,
    );
    // 0.5 under the column where a line at s = 0.5 would draw.
    crate::tui::ui::scurve::value_labels(frame, chart, &Y_LABELS, 1, &[(0.5, "0.5")], axis_style);
}

/// The walkthrough chart's y labels.
const Y_LABELS: [&str; 3] = ["0", "0.5", "1"];
