//! The cost view: the (b, r) heatmap, the cursor cell's numbers, status and footer.
//!
//! r grows upwards and b to the right, as the S-curve panel's keys turn them. Each cell is two
//! characters: `██` coloured by the metric, `▚▚` where the explorer would sample the
//! candidates, `◆◆` on the current banding; the cursor is drawn reversed. Without colour the
//! level shows as a shade (`░▒▓█`). Rows and columns scroll to keep the cursor in view.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::cost::CostMetric;
use crate::tui::keys::{Command, hint};
use lshscope_core::analysis::cost::{CostCell, CostGrid, PairCount};
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::scurve::similarity_at_probability;
use lshscope_core::util::numfmt::{compact, thousands};

use super::fit::{fit_line, title_room};
use super::status;

/// Colours from cheap to costly (or from unlikely to likely, for P(t)).
const SCALE: [Color; 8] = [
    Color::Blue,
    Color::Cyan,
    Color::Green,
    Color::LightGreen,
    Color::Yellow,
    Color::LightRed,
    Color::Red,
    Color::Magenta,
];
/// Monochrome stand-ins for the levels, two levels per shade.
const SHADES: [char; 4] = ['░', '▒', '▓', '█'];

/// Characters per cell.
const CELL: u16 = 2;
/// Width of the r labels left of the grid.
const AXIS: u16 = 6;
const DETAILS: u16 = 40;

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let [body, status_line, message, footer] = Layout::vertical([
        Constraint::Min(5),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    // The grid gets the room on narrow terminals; the details need about 31 columns (an
    // estimate with its ± beside its label).
    let side = if area.width >= 110 { DETAILS } else { 33 };
    let [map, details] =
        Layout::horizontal([Constraint::Min(20), Constraint::Length(side)]).areas(body);
    let theme = app.theme();
    let cursor = app.cost().cursor_or(app.curve().banding);
    let title = format!(
        " cost of every banding b×r ≤ {} · {} ",
        app.num_perm(),
        app.cost().metric().label()
    );
    let block = Block::bordered()
        .border_style(theme.focused_border())
        .title(fit_line(
            Span::styled(title, theme.title()),
            title_room(map),
        ));
    let inner = block.inner(map);
    frame.render_widget(block, map);
    match app.cost().grid() {
        Some(grid) => {
            render_grid(frame, app, grid, cursor, inner);
            render_details(frame, app, grid, cursor, details);
        }
        None => {
            let text = match app.cost().running() {
                Some(job) => {
                    let s = job.progress.snapshot();
                    let done = s
                        .percent_done()
                        .map(|f| format!(" {:.0} %", f * 100.0))
                        .unwrap_or_default();
                    let done = format!(" ({}{done})", s.step_label());
                    let documents = job.request.data.index.len();
                    let counted = job.request.options.sample.min(documents);
                    format!(
                        "counting the candidates of every banding on {} of {} documents…{done}",
                        thousands(counted as u64),
                        thousands(documents as u64)
                    )
                }
                None => "no grid yet".to_string(),
            };
            frame.render_widget(
                Paragraph::new(Span::styled(text, theme.warning())).wrap(Wrap { trim: true }),
                inner,
            );
            render_details_empty(frame, app, details);
        }
    }
    status::render_status(frame, app, status_line);
    status::render_message(frame, app, message);
    status::render_footer(frame, app, footer);
}

/// A cell's value under `metric`, or `None` where there is nothing to show (no pair).
fn metric_value(cell: &CostCell, metric: CostMetric) -> f64 {
    match metric {
        CostMetric::Pairs => cell.pairs.value(),
        CostMetric::Memory => cell.memory_bytes as f64,
        CostMetric::Probability => cell.p_at_t,
    }
}

/// The colour scale of a metric over the grid: levels are equal steps of log10 for counts
/// and bytes (they span many orders of magnitude), of the value for P(t).
struct Levels {
    log: bool,
    low: f64,
    high: f64,
}

impl Levels {
    fn of(grid: &CostGrid, metric: CostMetric) -> Self {
        if metric == CostMetric::Probability {
            return Levels {
                log: false,
                low: 0.0,
                high: 1.0,
            };
        }
        let (mut low, mut high) = (f64::INFINITY, 0.0f64);
        for c in grid.cells() {
            let v = metric_value(c, metric);
            if v >= 1.0 {
                low = low.min(v.log10());
                high = high.max(v.log10());
            }
        }
        if !low.is_finite() {
            (low, high) = (0.0, 1.0);
        }
        Levels {
            log: true,
            low,
            high: high.max(low + 1e-9),
        }
    }

    /// The level 0..SCALE.len() of `v`; `None` for a count of zero.
    fn level(&self, v: f64) -> Option<usize> {
        let x = if self.log {
            if v < 1.0 {
                return None;
            }
            v.log10()
        } else {
            v
        };
        let f = ((x - self.low) / (self.high - self.low)).clamp(0.0, 1.0);
        Some(((f * SCALE.len() as f64) as usize).min(SCALE.len() - 1))
    }

    /// The highest value of the scale.
    fn end(&self) -> f64 {
        if self.log {
            10f64.powf(self.high)
        } else {
            self.high
        }
    }

    /// The value where level `i` starts.
    fn start(&self, i: usize) -> f64 {
        let x = self.low + (self.high - self.low) * i as f64 / SCALE.len() as f64;
        if self.log { 10f64.powf(x) } else { x }
    }
}

/// A window of `visible` positions out of 1..=`last` that holds `at`, centred where it can be.
fn window(at: usize, last: usize, visible: usize) -> (usize, usize) {
    if last <= visible {
        return (1, last);
    }
    let first = at.saturating_sub(visible / 2).clamp(1, last + 1 - visible);
    (first, first + visible - 1)
}

fn render_grid(frame: &mut Frame, app: &App, grid: &CostGrid, cursor: Banding, area: Rect) {
    let theme = app.theme();
    let metric = app.cost().metric();
    let levels = Levels::of(grid, metric);
    // Two lines at the bottom: the b axis and the legend.
    let rows_shown = area.height.saturating_sub(2) as usize;
    let cols_shown = (area.width.saturating_sub(AXIS) / CELL) as usize;
    if rows_shown == 0 || cols_shown == 0 {
        return;
    }
    let (r_low, r_high) = window(cursor.rows, grid.num_perm, rows_shown);
    let (b_low, b_high) = window(cursor.bands, grid.max_bands(r_low), cols_shown);
    let current = app.curve().banding;
    let mut lines = Vec::with_capacity(area.height as usize);
    for r in (r_low..=r_high).rev() {
        let mut spans = vec![Span::styled(format!("r {r:>3} "), theme.dim())];
        for b in b_low..=b_high {
            let Some(cell) = grid.cell(b, r) else {
                break;
            };
            let level = levels.level(metric_value(cell, metric));
            let (text, mut style) = cell_look(theme.mono, level, cell.needs_sampled);
            let text = if cell.banding == current {
                "◆◆".to_string()
            } else {
                text
            };
            if cell.banding == cursor {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    // The b axis: a tick label every 5 bands, and at the first shown when the next multiple
    // of 5 is far enough that the two do not run together (`14` then `15` read as `1415`).
    let mut axis = String::from(" b    ");
    let mut b = b_low;
    let first_labelled = b_low.next_multiple_of(5) - b_low >= 3;
    while b <= b_high {
        if b % 5 == 0 || (b == b_low && first_labelled) {
            let label = format!("{b:<w$}", w = CELL as usize);
            axis.push_str(&label);
            b += label.chars().count().div_ceil(CELL as usize);
        } else {
            axis.push_str("  ");
            b += 1;
        }
    }
    lines.push(Line::from(Span::styled(axis, theme.dim())));
    lines.push(fit_line(legend(app, &levels, metric), area.width));
    frame.render_widget(Paragraph::new(lines), area);
}

/// The text and style of a cell at `level` (`None`: zero pairs).
fn cell_look(mono: bool, level: Option<usize>, sampled: bool) -> (String, Style) {
    let Some(level) = level else {
        return ("··".to_string(), Style::default().fg(Color::DarkGray));
    };
    if mono {
        let shade = SHADES[level * SHADES.len() / SCALE.len()];
        let text = if sampled {
            format!("{shade}s")
        } else {
            format!("{shade}{shade}")
        };
        return (text, Style::default());
    }
    let glyph = if sampled { "▚▚" } else { "██" };
    (glyph.to_string(), Style::default().fg(SCALE[level]))
}

fn legend(app: &App, levels: &Levels, metric: CostMetric) -> Line<'static> {
    let theme = app.theme();
    let mut spans = vec![Span::raw(" ")];
    for i in 0..SCALE.len() {
        let (glyph, style) = cell_look(theme.mono, Some(i), false);
        spans.push(Span::styled(
            glyph.chars().take(1).collect::<String>(),
            style,
        ));
    }
    spans.push(Span::styled(
        format!(
            " {} → {}  ",
            show(metric, levels.start(0)),
            show(metric, levels.end())
        ),
        theme.dim(),
    ));
    let (sampled, style) = cell_look(theme.mono, Some(3), true);
    spans.push(Span::styled(sampled, style));
    spans.push(Span::styled(" sampled  ◆◆ current", theme.dim()));
    Line::from(spans)
}

/// A metric value for the legend and details.
fn show(metric: CostMetric, v: f64) -> String {
    match metric {
        CostMetric::Pairs => compact(v.round() as u64),
        CostMetric::Memory => bytes(v),
        CostMetric::Probability => format!("{v:.2}"),
    }
}

fn bytes(v: f64) -> String {
    if v >= 1e9 {
        format!("{:.1} GB", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.1} MB", v / 1e6)
    } else {
        format!("{:.0} kB", (v / 1e3).ceil())
    }
}

fn pairs_text(count: &PairCount) -> Vec<String> {
    match *count {
        PairCount::Exact(n) => vec![thousands(n)],
        PairCount::Estimated(e) => vec![
            e.to_string(),
            format!(
                "  95 %: {} – {}",
                compact(e.low.round() as u64),
                compact(e.high.round() as u64)
            ),
        ],
        PairCount::AtMost(n) => vec![
            format!("≤ {}", compact(n.round() as u64)),
            "  (past the work bound)".to_string(),
        ],
    }
}

fn render_details(frame: &mut Frame, app: &App, grid: &CostGrid, cursor: Banding, area: Rect) {
    let theme = app.theme();
    let block = Block::bordered()
        .border_style(theme.border())
        .title(Span::styled(format!(" {cursor} "), theme.title()));
    let Some(cell) = grid.cell(cursor.bands, cursor.rows) else {
        frame.render_widget(block, area);
        return;
    };
    let row = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<LABEL_WIDTH$}"), theme.dim()),
            Span::raw(value),
        ])
    };
    let mut lines = Vec::new();
    // The current banding's candidates are listed, exactly: its count comes first, the grid's
    // estimate (from its sample of documents) after it, so the two never seem to disagree.
    let listed = app.listed_candidates(cursor);
    match (listed, &cell.pairs) {
        (Some(r), PairCount::Estimated(e)) => {
            lines.push(row(
                "candidates",
                format!("{} (listed)", thousands(r.pairs.len() as u64)),
            ));
            // In the label column, so that at 80 columns the estimate keeps its line.
            lines.push(row("  grid est.", e.to_string()));
        }
        _ => {
            let pairs = pairs_text(&cell.pairs);
            lines.push(row("candidates", pairs[0].clone()));
            for more in &pairs[1..] {
                lines.push(row("", more.clone()));
            }
        }
    }
    lines.push(row(
        "bucket pairs",
        format!(
            "{}{}",
            if grid.sampled() { "≈" } else { "" },
            compact(cell.bucket_pairs.round() as u64)
        ),
    ));
    lines.push(row("memory", bytes(cell.memory_bytes as f64)));
    lines.push(row(
        &format!("P(t={:.2})", grid.threshold),
        // As the status line shows P(t): a near-certain 0.9996 is not a flat 1.000.
        lshscope_core::util::numfmt::percent_adaptive(cell.p_at_t),
    ));
    lines.push(row(
        "P = 0.5 at",
        format!(
            "s = {:.2}",
            similarity_at_probability(0.5, cursor.bands, cursor.rows)
        ),
    ));
    let (mode, style) = if cell.needs_sampled {
        ("sampled (too many to list)", theme.warning())
    } else {
        ("exact", theme.good())
    };
    lines.push(Line::from(vec![
        Span::styled(format!("{:<LABEL_WIDTH$}", "mode"), theme.dim()),
        Span::styled(mode, style),
    ]));
    lines.extend(tuning_lines(app, cursor));
    if cursor == app.curve().banding {
        lines.push(Line::styled("the current banding", theme.key()));
    } else {
        lines.push(Line::from(vec![
            Span::styled("Enter", theme.key()),
            Span::raw(format!(" moves here from {}", app.curve().banding)),
        ]));
    }
    lines.push(Line::raw(""));
    let counted = if grid.sampled() {
        format!(
            "counted on {} of {} documents, pairs scaled ×{}",
            thousands(grid.documents as u64),
            thousands(grid.population as u64),
            pair_scale(grid.population, grid.documents)
        )
    } else {
        format!(
            "counted on all {} documents",
            thousands(grid.documents as u64)
        )
    };
    lines.push(Line::styled(counted, theme.dim()));
    lines.push(Line::styled(
        "memory: what the explorer holds for the candidates, beyond the index",
        theme.dim(),
    ));
    if let Some(took) = app.cost().elapsed() {
        lines.push(Line::styled(
            format!("grid computed in {:.2} s", took.as_secs_f64()),
            theme.dim(),
        ));
    }
    // An interval's row (no label) too wide for a narrow panel gives up the label column's
    // indent rather than wrap in the middle of its range.
    let inner_width = usize::from(block.inner(area).width);
    for line in &mut lines {
        let unlabelled = line
            .spans
            .first()
            .is_some_and(|s| s.content.len() == LABEL_WIDTH && s.content.trim().is_empty());
        if unlabelled && line.width() > inner_width {
            line.spans.remove(0);
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        area,
    );
}

/// The details' label column.
const LABEL_WIDTH: usize = 13;

/// Recall and precision at t of the cursor's banding, and the pairs at or above t: from the
/// stratified tuning sample (each with its 95 % interval, or exact when the sample took every
/// pair), or where they are (the truth's, on the status line), or what is still running.
fn tuning_lines(app: &App, cursor: Banding) -> Vec<Line<'static>> {
    let theme = app.theme();
    let t = app.curve().threshold;
    let truth = app.truth();
    let row = |name: &str, value: Span<'static>| {
        Line::from(vec![
            Span::styled(format!("{name:<LABEL_WIDTH$}"), theme.dim()),
            value,
        ])
    };
    // A truth joined at a higher t leaves the pairs between t and its floor unknown: a tuning
    // sample drawn for t answers there, as where no truth is loaded (below).
    let truth_answers = !(app.truth_below_floor() && truth.has_sample());
    if let Some(known) = truth.truth()
        && truth_answers
    {
        // No sample yet: the status line asks for a new join, and this says it in its words.
        if app.truth_below_floor() {
            return vec![row(
                "recall@t",
                Span::styled(
                    format!(
                        "? (truth ≥ {}; {})",
                        super::missed::floor_text(known.floor),
                        hint(Command::ComputeTruth)
                    ),
                    theme.warning(),
                ),
            )];
        }
        if cursor == app.curve().banding {
            return vec![row(
                "recall@t",
                Span::styled("exact (truth), on the status line", theme.good()),
            )];
        }
        // Another banding: its expected recall over the truth's pairs at t, exactly (the mean
        // of its P(s) over them, as `tune --truth` prints it), so bandings compare.
        let recall = lshscope_core::minhash::tune::corpus_estimate(
            &known.similarities,
            cursor.bands,
            cursor.rows,
            t,
        )
        .expected_recall;
        return vec![row(
            "E[recall@t]",
            match recall {
                Some(r) => Span::raw(format!(
                    "{} (truth)",
                    lshscope_core::util::numfmt::percent_adaptive(r)
                )),
                None => Span::styled("n/a: no truth pair ≥ t", theme.warning()),
            },
        )];
    }
    if let Some(job) = truth.sample_job().running() {
        let done = job
            .progress
            .snapshot()
            .fraction()
            .map(|f| format!(" {:.0} %", f * 100.0))
            .unwrap_or_default();
        return vec![row(
            "recall@t",
            Span::styled(
                format!(
                    "sampling {} pairs…{done}",
                    thousands(job.request.pairs as u64)
                ),
                theme.warning(),
            ),
        )];
    }
    if let Some(error) = truth.sample_error() {
        return vec![row(
            "recall@t",
            Span::styled(format!("n/a: {error}"), theme.warning()),
        )];
    }
    let (Some(sample), Some((estimate, intervals))) =
        (truth.sample(), truth.sampled_estimates(cursor, t))
    else {
        return Vec::new();
    };
    let exact = sample.is_census();
    let mark = if exact { "" } else { "≈" };
    // The row under an estimate with its 95 % interval, ends as shown; none when exact.
    let interval = |(low, high): (String, String)| {
        (!exact).then(|| row("", Span::raw(format!("  95 %: {low} – {high}"))))
    };
    let count = |v: f64| compact(v.round() as u64);
    let percent = |v: f64| lshscope_core::util::numfmt::percent_adaptive(v);
    // Ends that round to one figure say more decimals (99.88 % – 99.91 %).
    let percents =
        |(low, high): (f64, f64)| lshscope_core::util::numfmt::percent_interval(low, high);
    let mut lines = vec![row(
        "pairs ≥ t",
        Span::raw(format!("{mark}{}", count(estimate.pairs_at_or_above))),
    )];
    let (low, high) = intervals.pairs_at_or_above;
    lines.extend(interval((count(low), count(high))));
    // The current banding's candidates, listed, are this seed's: its own precision is exact
    // and its recall divides them by the count above, as the status line shows them.
    if cursor == app.curve().banding
        && let Some(rates) = super::missed::listed_rates(app, &estimate, &intervals)
    {
        if let Some((recall, bounds)) = rates.recall
            && (exact || intervals.threshold_is_measurable())
        {
            lines.push(row(
                "recall@t",
                Span::raw(format!("{mark}{} (seed)", percent(recall))),
            ));
            lines.extend(interval(percents(bounds)));
        }
        if let Some(precision) = rates.precision {
            lines.push(row(
                "precision",
                Span::raw(format!("{} (seed)", percent(precision))),
            ));
        }
    }
    for (name, value, bounds) in [
        // Averages over hash seeds, as `tune` prints them: one seed's candidates can be far
        // from them on short texts; the status line has the current banding's own.
        (
            "E[recall@t]",
            estimate.expected_recall,
            intervals.expected_recall,
        ),
        (
            "E[precision]",
            estimate.expected_precision,
            intervals.expected_precision,
        ),
    ] {
        match (value, bounds.or(exact.then_some((0.0, 0.0)))) {
            (Some(v), Some(b)) => {
                lines.push(row(name, Span::raw(format!("{mark}{}", percent(v)))));
                lines.extend(interval(percents(b)));
            }
            _ => lines.push(row(
                name,
                Span::styled("n/a: too few sampled pairs ≥ t", theme.warning()),
            )),
        }
    }
    let s = &sample.sample;
    lines.push(Line::styled(
        if exact {
            format!("every pair of the corpus measured (t ≥ {})", s.threshold)
        } else {
            format!(
                "sampled: {} pairs stratified by {} for t ≥ {}; E[…]: average over hash seeds",
                thousands(s.sampled() as u64),
                s.banding,
                s.threshold
            )
        },
        theme.dim(),
    ));
    if let Some(known) = truth.truth() {
        // Sampled because t fell below the truth: the way back to exact figures.
        lines.push(Line::styled(
            format!(
                "the truth covers t ≥ {}; {} joins at t",
                super::missed::floor_text(known.floor),
                hint(Command::ComputeTruth)
            ),
            theme.dim(),
        ));
    }
    lines
}

fn render_details_empty(frame: &mut Frame, app: &App, area: Rect) {
    let block = Block::bordered().border_style(app.theme().border());
    frame.render_widget(block, area);
}

/// The factor that scales pairs counted among `documents` to `population` (pairs grow with
/// the square of the documents), with the two decimals `tune` prints below 100 (`6.25`, not
/// `6`) and compact above.
fn pair_scale(population: usize, documents: usize) -> String {
    let factor = population as f64 * (population as f64 - 1.0)
        / (documents as f64 * (documents as f64 - 1.0));
    if factor < 100.0 {
        let text = format!("{factor:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        compact(factor.round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::pair_scale;

    #[test]
    fn the_pair_scale_keeps_the_decimals_tune_prints() {
        assert_eq!(pair_scale(50_000, 20_000), "6.25");
        assert_eq!(pair_scale(20_000, 20_000), "1");
        assert_eq!(pair_scale(30_000, 20_000), "2.25");
    }
}
