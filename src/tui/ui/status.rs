//! The status line (corpus, parameters, counts, running job, messages) and the footer (the
//! main keys of the current view, from the key table).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

use super::fit::fit_line;
use crate::numfmt::{compact, for_count, thousands};
use crate::tui::app::App;
use crate::tui::keys;

pub fn render_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    // On narrow terminals the corpus facts shrink so that the counts, and recall and precision
    // when a truth is loaded, stay on the line.
    let narrow = area.width < 130;
    if let Some(data) = &app.data {
        let b = app.curve.banding;
        let docs = data.corpus.len() as u64;
        let docs_word = for_count(docs, "doc", "docs");
        spans.push(Span::raw(if narrow {
            format!("{} {docs_word} · {}×{} ", compact(docs), b.bands, b.rows)
        } else {
            let shingles = data.index.sets.total() as u64;
            format!(
                "{} {docs_word} · {} {} · K {} · {}×{} ",
                thousands(docs),
                compact(shingles),
                for_count(shingles, "shingle", "shingles"),
                app.num_perm(),
                b.bands,
                b.rows
            )
        }));
        if let Some(r) = &app.candidates.result {
            let estimated = app
                .candidates
                .estimated_total()
                .zip(app.candidates.estimated_at_or_above(app.curve.threshold));
            let counts = if let Some((all, above)) = estimated {
                // Sampled candidates: estimates, never the sample's own size.
                format!("· {} candidates · {} ≥ t (sampled) ", all, above)
            } else if narrow {
                format!(
                    "· {} cand. · {} ≥ t ",
                    compact(r.pairs.len() as u64),
                    compact(app.pairs_at_or_above_t as u64),
                )
            } else {
                format!(
                    "· {} {} · {} ≥ t ",
                    thousands(r.pairs.len() as u64),
                    for_count(r.pairs.len() as u64, "candidate", "candidates"),
                    thousands(app.pairs_at_or_above_t as u64),
                )
            };
            let took = app.candidates.last_latency.unwrap_or(r.elapsed);
            if let Some(source) = app.imported.source() {
                // The pairs are the file's whatever b and r: say so where the timing would be.
                spans.push(Span::raw(counts));
                spans.push(Span::styled(
                    format!("· {source}, fixed: b/r move the reference curve only "),
                    theme.warning(),
                ));
            } else if r.banding == b {
                // Narrow and with a truth loaded, recall and precision need the room.
                let time = match (narrow, app.truth.measure.is_some()) {
                    (false, _) => match app.candidates.first_latency {
                        Some(first) if first + std::time::Duration::from_millis(50) < took => {
                            format!(
                                "· first histogram in {}, re-banded in {} ",
                                duration(first),
                                duration(took)
                            )
                        }
                        _ => format!("· re-banded in {} ", duration(took)),
                    },
                    (true, false) => format!("· {} ", duration(took)),
                    (true, true) => String::new(),
                };
                spans.push(Span::raw(format!("{counts}{time}")));
            } else {
                // The counts answer the previous banding until the job for `b` reports.
                spans.push(Span::styled(
                    format!("{counts}(of {}) ", r.banding),
                    theme.warning(),
                ));
            }
            spans.extend(super::missed::status_spans(app));
        }
    }
    if let Some(job) = app.candidates.job.running() {
        let s = job.progress.snapshot();
        let fraction = s
            .fraction()
            .map(|f| format!(" {:.0} %", f * 100.0))
            .unwrap_or_default();
        let what = match app.imported.source() {
            Some(source) if app.imported.result.is_none() => format!("importing {source}"),
            _ => format!("re-banding {}", job.request.banding),
        };
        spans.push(Span::styled(
            format!("⟳ {what}: {}{fraction}", s.phase.label()),
            theme.warning(),
        ));
    }
    spans.extend(super::missed::job_span(app));
    frame.render_widget(Paragraph::new(fit_line(spans, area.width)), area);
}

/// `812 ms`, or `3.79 s` from a second on.
fn duration(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

/// The last message (what a key did, where a file went, what went wrong).
pub fn render_message(frame: &mut Frame, app: &App, area: Rect) {
    if let Some(msg) = &app.message {
        let theme = &app.theme;
        let style = if msg.error {
            theme.error()
        } else {
            theme.good()
        };
        let line = fit_line(Span::styled(msg.text.as_str(), style), area.width);
        frame.render_widget(Paragraph::new(line), area);
    }
}

pub fn render_footer(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    for (k, text) in keys::footer(app.context()) {
        spans.push(Span::styled(k, theme.key()));
        spans.push(Span::raw(format!(" {text}  ")));
    }
    frame.render_widget(
        Paragraph::new(fit_line(spans, area.width)).style(theme.dim()),
        area,
    );
}
