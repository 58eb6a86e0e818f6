//! Ground truth on screen: the missed-pairs list (true pairs with Jaccard ≥ t that the
//! current banding did not make candidates), the recall/precision spans of the status line,
//! and the measured candidate rate per bin drawn over the S-curve.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::Span;
use ratatui::widgets::{Block, Cell, Dataset, GraphType, Paragraph, Wrap};

use super::fit::{fit_line, title_room};
use super::pairs::TableRow;
use crate::tui::app::{App, Focus};
use crate::tui::keys::{Command, hint};
use lshscope_core::minhash::scurve::candidate_probability;
use lshscope_core::minhash::tune::{
    CorpusEstimate, RealisedRates, SampledIntervals, realised_rates,
};
use lshscope_core::util::numfmt::thousands;

/// The pair list panel while it shows missed pairs.
pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let state = app.truth();
    let border = if app.focus() == Focus::Pairs {
        theme.focused_border()
    } else {
        theme.border()
    };
    let total = state.measure().map(|m| m.missed).unwrap_or(0);
    let mut title = vec![
        Span::styled(" Missed pairs ", theme.title()),
        Span::raw(format!(
            "{} of {} ",
            thousands(state.missed().len() as u64),
            thousands(total as u64),
        )),
    ];
    if let Some(m) = state.measure() {
        title.push(Span::raw(format!(
            "· {} of {} true pairs ≥ {:.2} are candidates at {}",
            thousands(m.report.found_at_threshold as u64),
            thousands(m.report.true_at_threshold as u64),
            app.curve().threshold,
            m.banding
        )));
    }
    title.push(Span::raw(format!(
        " · sort {} ",
        app.list_view().sort.label()
    )));
    if let Some(f) = &app.list_view().filter {
        title.push(Span::styled(
            format!("· {} ", f.describe()),
            theme.warning(),
        ));
    }
    title.push(Span::styled(
        format!("· {}: candidates ", hint(Command::ToggleMissed)),
        theme.dim(),
    ));
    let block = Block::bordered()
        .border_style(border)
        .title(fit_line(title, title_room(area)));

    let (Some(truth), Some(measure), Some(data)) = (state.truth(), state.measure(), app.data())
    else {
        let text = if state.truth().is_none() {
            format!(
                "No truth yet: {} computes it (exact join at t), or start with --truth FILE.",
                hint(Command::ComputeTruth)
            )
        } else {
            "banding…".to_string()
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    };
    if state.missed().is_empty() {
        let text = if total == 0 {
            format!(
                "No missed pairs: every true pair with Jaccard ≥ {:.2} is a candidate at {}.",
                app.curve().threshold,
                measure.banding
            )
        } else {
            format!(
                "No missed pair passes the filter ({} or {} clears it).",
                hint(Command::ClearFilter),
                hint(Command::Back)
            )
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    }

    let b = measure.banding;
    let pairs = &truth.pairs;
    super::pairs::render_table(
        frame,
        app,
        area,
        block,
        state.missed(),
        &[("P(s)", 10), ("closest", 7)],
        |i| {
            let p = &pairs[i as usize];
            let closest = b.closest_band(&data.index.signatures, p.a as usize, p.b as usize);
            TableRow {
                a: p.a,
                b: p.b,
                jaccard: p.jaccard,
                estimate: data.index.signatures.estimate(p.a as usize, p.b as usize),
                extra: vec![
                    Cell::from(format!(
                        "{:>10}",
                        lshscope_core::util::numfmt::percent_adaptive(candidate_probability(
                            p.jaccard, b.bands, b.rows
                        ))
                    )),
                    Cell::from(format!("{closest:>3}/{}", b.rows)),
                ],
            }
        },
    );
}

/// A proportion as a percentage, with more decimals below 1 % so that a precision of 1,099
/// in 3.5 M candidates reads 0.031 %, not 0.0 %.
fn percent(x: Option<f64>) -> String {
    x.map_or_else(
        || "–".to_string(),
        lshscope_core::util::numfmt::percent_adaptive,
    )
}

/// `recall … · precision …` for the status line, when there is truth.
pub fn status_spans(app: &App) -> Vec<Span<'static>> {
    let theme = app.theme();
    let Some(m) = app.truth().measure() else {
        return sampled_status_spans(app);
    };
    let r = &m.report;
    // Short: the status line is shared, and the counts are in the missed list's title.
    let mut spans = Vec::new();
    match app.truth().truth() {
        // Below what the truth covers, the pairs between t and its floor are unknown: recall
        // over the rest would overstate it. A tuning sample drawn for t answers instead, once
        // it is in.
        Some(t) if app.truth_below_floor() => {
            let sampled = sampled_status_spans(app);
            if !sampled.is_empty() {
                return sampled;
            }
            spans.push(Span::styled("· recall ", theme.key()));
            spans.push(Span::styled(
                format!(
                    "? (truth ≥ {}; {}) ",
                    floor_text(t.floor),
                    hint(Command::ComputeTruth)
                ),
                theme.warning(),
            ));
        }
        _ => spans.push(Span::styled(
            format!("· recall {} ", percent(r.recall)),
            theme.key(),
        )),
    }
    // Sampled candidates: precision is the ratio of two estimates (the counts before it on
    // the status line, each with its interval), so it is marked as one.
    let precision = if m.sampled {
        format!("≈{}", percent(r.precision))
    } else {
        percent(r.precision)
    };
    spans.push(Span::styled(
        format!("· precision {precision} "),
        theme.key(),
    ));
    spans
}

/// The current banding's own recall and precision at t where its candidates are listed and
/// the tuning sample's `estimate` and `intervals` (as `sampled_estimates` gave them, for any
/// banding: the count at t is the corpus's) estimate the corpus's pairs at t
/// ([`realised_rates`]): precision exact, recall over the sample's count, with its interval.
pub fn listed_rates(
    app: &App,
    estimate: &CorpusEstimate,
    intervals: &SampledIntervals,
) -> Option<RealisedRates> {
    let listed = app.listed_candidates(app.curve().banding)?;
    Some(realised_rates(
        listed.pairs.len() as u64,
        app.pairs_at_or_above_t() as u64,
        estimate.pairs_at_or_above,
        intervals.pairs_at_or_above,
    ))
}

/// Without a truth: recall and precision of the current banding at t with the stratified
/// tuning sample (the cost view `H` draws it), marked as sampled unless it took every pair.
/// Where the banding's candidates are listed, they are this seed's, as with a truth:
/// precision is exact and recall divides the listed pairs at t by the sample's count of the
/// corpus's ([`realised_rates`]). Otherwise they are the sample's averages over hash seeds.
fn sampled_status_spans(app: &App) -> Vec<Span<'static>> {
    let theme = app.theme();
    let truth = app.truth();
    let Some((estimate, intervals)) =
        truth.sampled_estimates(app.curve().banding, app.curve().threshold)
    else {
        return Vec::new();
    };
    let exact = truth.sample().is_some_and(|s| s.is_census());
    if let Some(rates) = listed_rates(app, &estimate, &intervals) {
        // As `tune` prints it: n/a with too few sampled pairs at t to say anything.
        let recall = match rates.recall {
            Some((r, _)) if exact => format!("· recall {} ", percent(Some(r))),
            Some((r, _)) if intervals.threshold_is_measurable() => {
                format!("· recall ≈{} (sampled) ", percent(Some(r)))
            }
            _ => "· recall n/a ".to_string(),
        };
        return vec![
            Span::styled(recall, theme.key()),
            Span::styled(
                format!("· precision {} ", percent(rates.precision)),
                theme.key(),
            ),
        ];
    }
    // As `tune` prints them: n/a with too few sampled pairs at t to say anything.
    let measurable =
        |v: Option<f64>, bounds: Option<(f64, f64)>| v.filter(|_| exact || bounds.is_some());
    let mark = if exact { "" } else { "≈" };
    let text = |name: &str, v: Option<f64>| match v {
        Some(v) => format!("· {name} {mark}{} ", percent(Some(v))),
        None => format!("· {name} n/a "),
    };
    let mut spans = vec![
        Span::styled(
            text(
                "recall",
                measurable(estimate.expected_recall, intervals.expected_recall),
            ),
            theme.key(),
        ),
        Span::styled(
            text(
                "precision",
                measurable(estimate.expected_precision, intervals.expected_precision),
            ),
            theme.key(),
        ),
    ];
    if !exact {
        spans.push(Span::styled("(sampled) ", theme.dim()));
    }
    spans
}

/// The running truth job, for the status line.
pub fn job_span(app: &App) -> Option<Span<'static>> {
    let job = app.truth().job().running()?;
    let s = job.progress.snapshot();
    let fraction = s
        .percent_done()
        .map(|f| format!(" {:.0} %", f * 100.0))
        .unwrap_or_default();
    Some(Span::styled(
        format!(
            " ⟳ {}, {}:{fraction} ",
            job.request.describe(),
            s.step_label()
        ),
        app.theme().warning(),
    ))
}

/// Points and interval bars of the measured candidate rate, for the S-curve chart.
pub struct MeasuredOverlay {
    /// One vertical segment (the 95 % interval: measured over redraws of the hash family when
    /// the truth has them, else Wilson's) per non-empty bin.
    bars: Vec<[(f64, f64); 2]>,
    /// Measured rates inside their interval's agreement with the curve, and outside it.
    inside: Vec<(f64, f64)>,
    outside: Vec<(f64, f64)>,
}

impl MeasuredOverlay {
    /// `None` without truth, or while the measurement answers another banding than the curve.
    pub fn new(app: &App) -> Option<Self> {
        let m = app.truth().measure()?;
        if m.banding != app.curve().banding {
            return None;
        }
        let bins = app.hist().bins();
        let mut overlay = MeasuredOverlay {
            bars: Vec::new(),
            inside: Vec::new(),
            outside: Vec::new(),
        };
        for point in crate::tui::export::measured_points(app.truth(), m.banding, bins) {
            overlay
                .bars
                .push([(point.x, point.low), (point.x, point.high)]);
            let xy = (point.x, point.rate);
            if point.outside {
                overlay.outside.push(xy);
            } else {
                overlay.inside.push(xy);
            }
        }
        Some(overlay)
    }

    /// Adds the overlay's datasets (borrowing from `self`) to a chart's.
    pub fn push_datasets<'a>(&'a self, app: &App, datasets: &mut Vec<Dataset<'a>>) {
        let theme = app.theme();
        for bar in &self.bars {
            datasets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(theme.good())
                    .data(bar),
            );
        }
        datasets.push(
            Dataset::default()
                .marker(Marker::Custom('▪'))
                .graph_type(GraphType::Scatter)
                .style(theme.good())
                .data(&self.inside),
        );
        datasets.push(
            Dataset::default()
                .marker(Marker::Custom('✖'))
                .graph_type(GraphType::Scatter)
                .style(theme.error())
                .data(&self.outside),
        );
    }

    /// Legend spans for the S-curve panel: with a histogram bin highlighted, that bin's
    /// numbers (found / true, the interval, the curve's prediction); else the key.
    pub fn legend(&self, app: &App) -> Vec<Span<'static>> {
        let theme = app.theme();
        let highlighted = app
            .list_view()
            .filter
            .and_then(|f| f.bin)
            .or((app.focus() == Focus::Histogram).then_some(app.bin_cursor()));
        let bins = app.hist().bins();
        let bin = highlighted.and_then(|k| {
            let m = app.truth().measure()?;
            m.report
                .bins
                .iter()
                .find(|b| lshscope_core::analysis::histogram::bin_of(b.lo, bins) == k)
        });
        if let Some(b) = bin {
            let style = if b.outside {
                theme.error()
            } else {
                theme.good()
            };
            return vec![
                Span::styled(if b.outside { "✖ " } else { "▪ " }, style),
                Span::raw(format!(
                    "found {}/{} = {:.0} % [{:.0}, {:.0}], curve {:.0} %",
                    thousands(b.found as u64),
                    thousands(b.true_pairs as u64),
                    b.measured * 100.0,
                    b.interval_lo * 100.0,
                    b.interval_hi * 100.0,
                    b.predicted * 100.0
                )),
            ];
        }
        // The key of the points, and recall at t beside what the curve predicts for the
        // same true pairs (the mean of P(sᵢ)).
        let mut spans = vec![Span::styled("▪┆ ", theme.good())];
        let recall = app.truth().measure().map(|m| &m.report);
        match (app.truth().truth(), recall) {
            (Some(t), Some(_)) if app.truth_below_floor() => {
                spans.push(Span::raw("measured recall "));
                spans.push(Span::styled(
                    format!("? (truth ≥ {}) ", floor_text(t.floor)),
                    theme.warning(),
                ));
            }
            (_, Some(r)) if r.recall.is_some() => spans.push(Span::raw(format!(
                "measured recall {} (curve {}) ",
                percent(r.recall),
                percent(r.predicted_recall)
            ))),
            (_, Some(r)) if r.redraws > 0 => spans.push(Span::raw(format!(
                "measured ±95 % ({} redraws) ",
                thousands(r.redraws as u64)
            ))),
            _ => spans.push(Span::raw("measured ±95 % ")),
        }
        if !self.outside.is_empty() {
            spans.push(Span::styled(
                format!("✖ {} off ", thousands(self.outside.len() as u64)),
                theme.error(),
            ));
        }
        spans
    }
}

/// The truth's floor for display, rounded *up* to 3 decimals: "truth ≥ x" then never claims
/// pairs below what the file covers.
pub(super) fn floor_text(floor: f64) -> String {
    let text = format!("{:.3}", (floor * 1000.0).ceil() / 1000.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn small_percentages_keep_their_digits() {
        assert_eq!(percent(Some(0.919)), "91.9 %");
        assert_eq!(percent(Some(1.0)), "100.0 %");
        // Near 1, never a flat 100 %: 73 missed of 22,824,587.
        assert_eq!(percent(Some(1.0 - 73.0 / 22_824_587.0)), "> 99.999 %");
        assert_eq!(percent(Some(0.99962)), "99.96 %");
        assert_eq!(percent(Some(0.999962)), "99.996 %");
        assert_eq!(percent(Some(0.9994)), "99.9 %");
        assert_eq!(percent(Some(0.0)), "0.0 %");
        assert_eq!(percent(Some(0.0042)), "0.42 %");
        assert_eq!(percent(Some(1099.0 / 3_502_214.0)), "0.031 %");
        assert_eq!(percent(None), "–");
    }
}
