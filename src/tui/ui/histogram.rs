//! The histogram panel: exact Jaccard of the current candidate pairs in equal bins, linear or
//! log counts, the S-curve overlaid (scaled to the panel height), the threshold line, the
//! counts below and at/above t, and the labelled precision of each bin.
//!
//! When the candidates were sampled (too many bucket pairs to enumerate), the bars are the
//! estimated counts of distinct candidate pairs, each bin with its 95 % interval drawn as a
//! whisker, the title says how many bucket pairs the estimate was drawn from, and every count
//! is written `≈ value ± half-width`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Line as CanvasLine, Points};
use ratatui::widgets::{Block, Paragraph};

use super::fit::{Field, fit_fields, fit_line, title_room};
use crate::tui::app::{App, Focus};
use crate::tui::keys::{Command, hint};
use crate::tui::layout::{HistogramGeometry, Y_LABEL_WIDTH, histogram_geometry};
use lshscope_core::analysis::sampled::Estimate;
use lshscope_core::minhash::scurve::candidate_probability;
use lshscope_core::util::numfmt::{compact, for_count, thousands};

/// Bar height of `count` on the chosen scale (log: log10(1 + count)).
fn scaled(count: u64, log: bool) -> f64 {
    if log {
        (1.0 + count as f64).log10()
    } else {
        count as f64
    }
}

/// [`scaled`] of an estimated (fractional) count.
fn scaled_f(count: f64, log: bool) -> f64 {
    if log { (1.0 + count).log10() } else { count }
}

/// Eighth blocks for the precision strip: ▁ is 0 %, █ is 100 %.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The panel, drawn in steps: the bordered block and its title, then (when the panel has room
/// for the bins) the plot, the y labels, the x axis, the precision strip and the info lines.
pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let border = if app.focus() == Focus::Histogram {
        theme.focused_border()
    } else {
        theme.border()
    };
    let block = Block::bordered()
        .border_style(border)
        .title(fit_line(title(app), title_room(area)));
    frame.render_widget(block, area);
    let bins = app.hist().bins();
    let g = histogram_geometry(area, bins);
    if g.plot.height < 2 || g.plot.width < bins as u16 {
        return;
    }
    let scale = Scale::of(app);
    let highlighted = highlighted_bin(app);
    draw_plot(frame, app, &g, &scale, highlighted);
    draw_y_labels(frame, app, &g, &scale);
    draw_x_axis(frame, app, &g);
    draw_precision_strip(frame, app, &g, highlighted);
    draw_info(frame, app, &g, &scale, highlighted);
}

/// The title: what the bars are (exact, imported, or estimated from how many draws), which
/// banding they answer, the scale, and the S-curve's legend.
fn title(app: &App) -> Vec<Span<'static>> {
    let theme = app.theme();
    let estimated = app.candidates().estimated();
    let mut title = match estimated {
        None => {
            let heading = match app.imported().pairs_heading() {
                Some(heading) => format!(" Exact Jaccard, {heading} "),
                None => " Exact Jaccard of candidates ".to_string(),
            };
            vec![Span::styled(heading, theme.title())]
        }
        Some(e) => vec![
            Span::styled(" ≈ Jaccard, ", theme.title()),
            Span::styled(
                format!(
                    "estimated from {} sampled pairs{}{} ",
                    thousands(e.estimate.draws as u64),
                    // A first answer drawn before every band was built says from how many.
                    if e.estimate.bands_sampled() {
                        format!(
                            " of {} of {} bands",
                            thousands(e.estimate.bands.0 as u64),
                            thousands(e.estimate.bands.1 as u64)
                        )
                    } else {
                        String::new()
                    },
                    if e.refining && !app.result_is_stale() {
                        ", refining…"
                    } else {
                        ""
                    }
                ),
                theme.warning(),
            ),
            // The sample draws from whole buckets: say that the cap does not shape it.
            Span::styled(
                if e.cap_ignored {
                    "(--max-bucket not applied) "
                } else {
                    ""
                },
                theme.warning(),
            ),
        ],
    };
    match (app.candidates().result(), app.candidates().job()) {
        (None, _) => title.push(Span::styled("(computing…) ", theme.warning())),
        // Bars of another banding than the one chosen: said right after the heading, before
        // the estimate's details, so that a narrow panel cuts the details and not this.
        (Some(r), _) if r.banding != app.curve().banding => title.insert(
            1,
            Span::styled(
                format!(
                    "showing {} · computing {}… ",
                    r.banding,
                    app.curve().banding
                ),
                theme.warning(),
            ),
        ),
        (Some(r), _) => title.push(Span::styled(format!("{} ", r.banding), theme.key())),
    }
    title.push(Span::styled(
        if app.log_scale() {
            "· log "
        } else {
            "· linear "
        },
        theme.dim(),
    ));
    title.push(Span::styled(
        "· ⠉⠉ ",
        Style::default().fg(theme.overlay_curve()),
    ));
    title.push(Span::styled("S-curve to scale ", theme.dim()));
    title
}

/// The bar heights' scale: log or linear, and the top of the y axis.
struct Scale<'a> {
    log: bool,
    /// The largest count shown (at least 1), an interval's top included.
    max_count: u64,
    /// `max_count` on the scale: the top of the plot.
    max: f64,
    /// Each bin's 95 % interval, when the candidates were sampled.
    intervals: Option<&'a [Estimate]>,
}

impl<'a> Scale<'a> {
    fn of(app: &'a App) -> Self {
        let hist = app.hist();
        let log = app.log_scale();
        // Intervals (sampled candidates only) stay on the panel: the scale takes their tops.
        let intervals: Option<&[Estimate]> = app
            .candidates()
            .estimated()
            .map(|e| e.estimate.bins.as_slice())
            .filter(|b| b.len() == hist.bins());
        let highest = intervals
            .map(|b| b.iter().map(|e| e.high.ceil() as u64).max().unwrap_or(0))
            .unwrap_or(0);
        let max_count = hist.max_count().max(highest).max(1);
        Scale {
            log,
            max_count,
            max: scaled(max_count, log),
            intervals,
        }
    }
}

/// The bin the filter holds, else the cursor's while the panel has the focus.
fn highlighted_bin(app: &App) -> Option<usize> {
    app.list_view()
        .filter
        .and_then(|f| f.bin)
        .or(if app.focus() == Focus::Histogram {
            Some(app.bin_cursor())
        } else {
            None
        })
}

/// Bars, one column at a time in plot coordinates (x ∈ [0, cols − 1] is the column index):
/// `(x, height, highlighted)`.
fn bars(
    app: &App,
    g: &HistogramGeometry,
    scale: &Scale,
    highlighted: Option<usize>,
) -> Vec<(f64, f64, bool)> {
    let hist = app.hist();
    let (log, max) = (scale.log, scale.max);
    let cols = g.plot.width;
    let mut bars: Vec<(f64, f64, bool)> = Vec::with_capacity(usize::from(cols));
    // With room for it in every bin, a one-column gap keeps neighbouring bins apart; bins
    // differ in width by a column, and gaps in some only would make two narrow neighbours
    // read as one wide bar.
    let gaps = usize::from(cols) / hist.counts.len().max(1) >= 3;
    for c in 0..cols {
        let bin = g.bin_of_column(c);
        let columns = g.bin_columns(bin);
        if gaps && c + 1 == columns.end {
            continue;
        }
        let h = scaled(hist.counts[bin], log);
        // An empty bin stays empty; any non-empty one shows at least a sliver.
        let h = if hist.counts[bin] > 0 {
            h.max(max * 0.02)
        } else {
            0.0
        };
        bars.push((f64::from(c), h, Some(bin) == highlighted));
    }
    bars
}

/// Whiskers: each bin's interval at the bin's centre column, `(x, low, high)` on the scale.
fn whiskers(g: &HistogramGeometry, scale: &Scale) -> Vec<(f64, f64, f64)> {
    let log = scale.log;
    scale
        .intervals
        .map(|b| {
            b.iter()
                .enumerate()
                .filter(|(_, e)| e.high > 0.0)
                .map(|(bin, e)| {
                    let columns = g.bin_columns(bin);
                    let centre = f64::from(columns.start)
                        + f64::from(columns.end - columns.start) / 2.0
                        - 0.5;
                    let low = if e.low > 0.0 {
                        scaled_f(e.low, log)
                    } else {
                        0.0
                    };
                    (centre, low, scaled_f(e.high, log))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The plot: bars, whiskers, the S-curve scaled to the panel and the threshold line.
fn draw_plot(
    frame: &mut Frame,
    app: &App,
    g: &HistogramGeometry,
    scale: &Scale,
    highlighted: Option<usize>,
) {
    let theme = app.theme();
    let max = scale.max;
    let cols = g.plot.width as usize;
    let bar_color = theme.bars();
    let selected_color = theme.bars_selected();
    let bars = bars(app, g, scale, highlighted);
    // The S-curve over the bars: s maps to the column whose centre is s.
    let xs = |s: f64| s * cols as f64 - 0.5;
    let b = app.curve().banding;
    let curve: Vec<(f64, f64)> = (0..=cols * 4)
        .map(|i| {
            let s = i as f64 / (cols * 4) as f64;
            (xs(s), candidate_probability(s, b.bands, b.rows) * max)
        })
        .collect();
    let whiskers = whiskers(g, scale);
    let whisker_color = theme.color(Color::Magenta);
    let t = app.curve().threshold;
    let canvas = Canvas::default()
        .x_bounds([0.0, (cols - 1).max(1) as f64])
        .y_bounds([0.0, max])
        .marker(Marker::HalfBlock)
        .paint(|ctx| {
            for &(x, h, sel) in &bars {
                if h > 0.0 {
                    ctx.draw(&CanvasLine {
                        x1: x,
                        y1: 0.0,
                        x2: x,
                        y2: h,
                        color: if sel { selected_color } else { bar_color },
                    });
                }
            }
            ctx.marker(Marker::Braille);
            for &(x, low, high) in &whiskers {
                ctx.draw(&CanvasLine {
                    x1: x,
                    y1: low,
                    x2: x,
                    y2: high,
                    color: whisker_color,
                });
                for y in [low, high] {
                    ctx.draw(&CanvasLine {
                        x1: x - 0.4,
                        y1: y,
                        x2: x + 0.4,
                        y2: y,
                        color: whisker_color,
                    });
                }
            }
            ctx.draw(&Points {
                coords: &curve,
                color: theme.overlay_curve(),
            });
            ctx.draw(&CanvasLine {
                x1: xs(t),
                y1: 0.0,
                x2: xs(t),
                y2: max,
                color: theme.threshold(),
            });
        });
    frame.render_widget(canvas, g.plot);
}

/// Y labels: top, middle, zero.
fn draw_y_labels(frame: &mut Frame, app: &App, g: &HistogramGeometry, scale: &Scale) {
    let (log, max, max_count) = (scale.log, scale.max, scale.max_count);
    // The inverse of `scaled`, to label heights with counts.
    let label = |v: f64| -> String {
        if log {
            compact((10f64.powf(v) - 1.0).round().max(0.0) as u64)
        } else {
            compact(v.round() as u64)
        }
    };
    let mut y_lines = vec![Line::raw(""); g.y_labels.height as usize];
    if let Some(first) = y_lines.first_mut() {
        *first = Line::raw(format!(
            "{:>w$}",
            label(max),
            w = (Y_LABEL_WIDTH - 1) as usize
        ));
    }
    let mid = g.y_labels.height as usize / 2;
    if g.y_labels.height >= 5 && max_count >= 4 {
        y_lines[mid] = Line::raw(format!(
            "{:>w$}",
            label(max / 2.0),
            w = (Y_LABEL_WIDTH - 1) as usize
        ));
    }
    if let Some(last) = y_lines.last_mut() {
        *last = Line::raw(format!("{:>w$}", "0", w = (Y_LABEL_WIDTH - 1) as usize));
    }
    frame.render_widget(Paragraph::new(y_lines).style(app.theme().dim()), g.y_labels);
}

/// X axis: tick labels at 0, 0.25, 0.5, 0.75, 1 under their columns.
fn draw_x_axis(frame: &mut Frame, app: &App, g: &HistogramGeometry) {
    let cols = g.plot.width as usize;
    let offset = Y_LABEL_WIDTH as usize;
    let mut axis: Vec<char> = vec![' '; g.x_axis.width as usize];
    for (s, text) in [
        (0.0, "0"),
        (0.25, ".25"),
        (0.5, ".5"),
        (0.75, ".75"),
        (1.0, "1"),
    ] {
        let col = offset + ((s * cols as f64).round() as usize).min(cols.saturating_sub(1));
        let start = if s >= 1.0 {
            (offset + cols).saturating_sub(text.len())
        } else {
            col.saturating_sub(text.len() / 2)
        };
        for (i, ch) in text.chars().enumerate() {
            if let Some(slot) = axis.get_mut(start + i) {
                *slot = ch;
            }
        }
    }
    if let Some(slot) = axis.get_mut(0..4) {
        for (s, ch) in slot.iter_mut().zip("J →".chars()) {
            *s = ch;
        }
    }
    frame.render_widget(
        Paragraph::new(axis.into_iter().collect::<String>()).style(app.theme().dim()),
        g.x_axis,
    );
}

/// Precision strip: per bin, duplicates / decided labels as an eighth-block level.
fn draw_precision_strip(
    frame: &mut Frame,
    app: &App,
    g: &HistogramGeometry,
    highlighted: Option<usize>,
) {
    let theme = app.theme();
    let hist = app.hist();
    let bins = hist.bins();
    let offset = Y_LABEL_WIDTH as usize;
    let mut strip = vec![Span::styled(
        format!("{:<w$}", "prec", w = offset),
        theme.dim(),
    )];
    for bin in 0..bins {
        let cell = match hist.precision(bin) {
            Some(p) => LEVELS[((p * 7.0).round() as usize).min(7)].to_string(),
            None if hist.labelled(bin) > 0 => "?".to_string(),
            None => "·".to_string(),
        };
        let style = if Some(bin) == highlighted {
            theme.key().add_modifier(Modifier::UNDERLINED)
        } else if hist.precision(bin).is_some() {
            theme.good()
        } else {
            theme.dim()
        };
        strip.push(Span::styled(cell.repeat(g.bin_columns(bin).len()), style));
    }
    frame.render_widget(Paragraph::new(Line::from(strip)), g.precision);
}

/// The info lines: the counts around t, then the highlighted bin (or how to pick one).
fn draw_info(
    frame: &mut Frame,
    app: &App,
    g: &HistogramGeometry,
    scale: &Scale,
    highlighted: Option<usize>,
) {
    let theme = app.theme();
    let mut info = vec![fit_fields(counts_around_t(app), g.info.width)];
    if let Some(bin) = highlighted {
        info.push(bin_line(app, bin, scale));
    } else {
        info.push(Line::from(Span::styled(
            format!(
                "{}, then {}/{} and {} (or a click) filter pairs to a bin",
                hint(Command::FocusNext),
                hint(Command::BinLeft),
                hint(Command::BinRight),
                hint(Command::FilterToBin)
            ),
            theme.dim(),
        )));
    }
    let info: Vec<Line> = info
        .into_iter()
        .map(|l| fit_line(l, g.info.width))
        .collect();
    frame.render_widget(Paragraph::new(info), g.info);
}

/// The counts below and at/above t (estimated, with their intervals, for sampled candidates).
fn counts_around_t(app: &App) -> Vec<Field<'static>> {
    let theme = app.theme();
    let estimated = app.candidates().estimated();
    let t = app.curve().threshold;
    let total = app
        .candidates()
        .result()
        .map(|r| r.pairs.len())
        .unwrap_or(0);
    let above = app.pairs_at_or_above_t();
    // The counts line keeps below and at/above t whole; the total and the sample size go
    // first when the panel is narrow.
    let marker = || Span::styled("│ ", Style::default().fg(theme.threshold()));
    match (
        app.candidates().estimated_total(),
        app.candidates().estimated_below(t),
        app.candidates().estimated_at_or_above(t),
    ) {
        (Some(all), Some(below), Some(at_or_above)) => {
            let refining = estimated.is_some_and(|e| e.refining);
            let draws = estimated.map_or(0, |e| e.estimate.draws);
            if super::estimate_pending(&all, refining) {
                // A first estimate too wide to act on: a number now would be replaced by a
                // very different one in a moment.
                vec![Field::new(
                    0,
                    Line::from(vec![
                        marker(),
                        Span::raw(format!("t = {t:.2}: counts {}", super::estimating(draws))),
                    ]),
                )]
            } else {
                vec![
                    Field::new(
                        0,
                        Line::from(vec![
                            marker(),
                            Span::raw(format!(
                                "t = {t:.2}: {} below, {} at/above",
                                super::estimate_text(&below, refining),
                                super::estimate_text(&at_or_above, refining),
                            )),
                        ]),
                    ),
                    Field::new(1, format!("{all} in all (95 %)")),
                    Field::new(2, format!("{} listed", thousands(total as u64))),
                ]
            }
        }
        _ => vec![
            Field::new(
                0,
                Line::from(vec![
                    marker(),
                    Span::raw(format!(
                        "t = {t:.2}: {} below, {} at/above",
                        thousands((total - above) as u64),
                        thousands(above as u64),
                    )),
                ]),
            )
            .or_short(Line::from(vec![
                marker(),
                Span::raw(format!(
                    "t = {t:.2}: {} below, {} at/above",
                    compact((total - above) as u64),
                    compact(above as u64),
                )),
            ])),
            Field::new(1, format!("{} in all", thousands(total as u64))),
        ],
    }
}

/// The highlighted bin: its range, its pairs (or estimate), its labels and their precision.
fn bin_line(app: &App, bin: usize, scale: &Scale) -> Line<'static> {
    let theme = app.theme();
    let hist = app.hist();
    let bins = hist.bins();
    let estimated = app.candidates().estimated();
    let intervals = scale.intervals;
    let (lo, hi) = hist.bin_range(bin);
    let precision = match hist.precision(bin) {
        Some(p) => format!("precision {:.0} %", p * 100.0),
        None => "no y/n labels".to_string(),
    };
    Line::from(vec![
        Span::styled(
            format!(
                "bin [{lo:.2}, {hi:.2}{}",
                if bin + 1 == bins { "]" } else { ")" }
            ),
            theme.key(),
        ),
        Span::raw(format!(
            ": {} · labels {} {} / {} {} / {} {} · {precision}",
            match intervals {
                // An estimate is never exactly one pair: its unit stays plural.
                Some(b) => {
                    let draws = estimated.map_or(0, |e| e.estimate.hits[bin]);
                    format!(
                        "{} ({} {}) pairs",
                        b[bin],
                        thousands(draws),
                        for_count(draws, "draw", "draws")
                    )
                }
                None => format!(
                    "{} {}",
                    thousands(hist.counts[bin]),
                    for_count(hist.counts[bin], "pair", "pairs")
                ),
            },
            thousands(hist.duplicate[bin]),
            hint(Command::LabelDuplicate),
            thousands(hist.not_duplicate[bin]),
            hint(Command::LabelNotDuplicate),
            thousands(hist.unsure[bin]),
            hint(Command::LabelUnsure)
        )),
    ])
}
