//! The status line (corpus, parameters, counts, running job, messages) and the footer (the
//! main keys of the current view, from the key table).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

use super::fit::{
    ELLIPSIS, FIELD_SEPARATOR, Field, fit_fields, fit_fields_with, fit_folders, fit_message,
};
use crate::tui::app::App;
use crate::tui::keys;
use lshscope_core::minhash::scurve::candidate_probability;
use lshscope_core::util::numfmt::{compact, for_count, thousands};

/// The status line: fields joined by ` · `, each kept whole. What each width keeps (see
/// [`fit_fields`]): P(t) at the threshold, recall and precision (rank 0) always; then the
/// candidate counts and any running job (1); b×r (2); the document count (3); the time the
/// banding took (4); shingles and K (5). Fields with a short form take it before any field
/// is dropped.
pub fn render_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let mut fields = Vec::new();
    if let Some(data) = &app.data() {
        let b = app.curve().banding;
        let docs = data.corpus.len() as u64;
        let docs_word = for_count(docs, "doc", "docs");
        fields.push(
            Field::new(3, format!("{} {docs_word}", thousands(docs)))
                .or_short(format!("{} {docs_word}", compact(docs))),
        );
        let shingles = data.index.sets.total() as u64;
        fields.push(Field::new(
            5,
            format!(
                "{} {} · K {}{}",
                compact(shingles),
                for_count(shingles, "shingle", "shingles"),
                thousands(app.num_perm() as u64),
                super::loading::family_note(app.config().index_options.family)
            ),
        ));
        fields.push(Field::new(2, format!("{}×{}", b.bands, b.rows)));
        if let Some(r) = app.candidates().result() {
            let estimated = app.candidates().estimated_total().zip(
                app.candidates()
                    .estimated_at_or_above(app.curve().threshold),
            );
            let refining = app.candidates().estimated().is_some_and(|e| e.refining);
            let (full, short) = if let Some((all, above)) = estimated {
                // Sampled candidates: estimates, never the sample's own size; a first
                // estimate too wide to act on says so instead of showing its number.
                let draws = app.candidates().estimated().map_or(0, |e| e.estimate.draws);
                if super::estimate_pending(&all, refining) {
                    let text = super::estimating(draws);
                    (format!("candidates {text}"), None)
                } else {
                    let above = super::estimate_text(&above, refining);
                    (
                        format!("{all} candidates · {above} ≥ t (sampled)"),
                        Some(format!("{all} cand. · {above} ≥ t")),
                    )
                }
            } else {
                (
                    format!(
                        "{} {} · {} ≥ t",
                        thousands(r.pairs.len() as u64),
                        for_count(r.pairs.len() as u64, "candidate", "candidates"),
                        thousands(app.pairs_at_or_above_t() as u64),
                    ),
                    Some(format!(
                        "{} cand. · {} ≥ t",
                        compact(r.pairs.len() as u64),
                        compact(app.pairs_at_or_above_t() as u64),
                    )),
                )
            };
            let took = app.candidates().last_latency().unwrap_or(r.elapsed);
            if let Some(source) = app.imported().source() {
                // The pairs are the file's whatever b and r: say so where the timing would be.
                fields.push(Field::new(1, full));
                fields.push(Field::new(
                    1,
                    Span::styled(
                        format!("{source}, fixed: b/r move the reference curve only"),
                        theme.warning(),
                    ),
                ));
            } else if r.banding == b {
                let mut counts = Field::new(1, full);
                if let Some(short) = short {
                    counts = counts.or_short(short);
                }
                fields.push(counts);
                let time = match app.candidates().first_latency() {
                    Some(first) if first + std::time::Duration::from_millis(50) < took => {
                        format!(
                            "first histogram in {}, re-banded in {}",
                            duration(first),
                            duration(took)
                        )
                    }
                    _ => format!("re-banded in {}", duration(took)),
                };
                fields.push(Field::new(4, time));
            } else {
                // The counts answer the previous banding until the job for `b` reports.
                let mut counts = Field::new(
                    1,
                    Span::styled(format!("{full} (of {})", r.banding), theme.warning()),
                );
                if let Some(short) = short {
                    counts = counts.or_short(Span::styled(
                        format!("{short} (of {})", r.banding),
                        theme.warning(),
                    ));
                }
                fields.push(counts);
            }
        }
        let t = app.curve().threshold;
        fields.push(Field::new(
            0,
            Span::styled(
                format!(
                    "t {t:.2}: P(t) {}",
                    lshscope_core::util::numfmt::percent_adaptive(candidate_probability(
                        t, b.bands, b.rows
                    ))
                ),
                theme.key(),
            ),
        ));
        fields.extend(truth_fields(app));
    }
    if let Some(job) = app.candidates().job().running() {
        let s = job.progress.snapshot();
        let fraction = s
            .percent_done()
            .map(|f| format!(" {:.0} %", f * 100.0))
            .unwrap_or_default();
        let what = match app.imported().source() {
            Some(source) if app.imported().result().is_none() => format!("importing {source}"),
            _ => format!("re-banding {}", job.request.banding),
        };
        fields.push(Field::new(
            1,
            Span::styled(
                format!("⟳ {what}: {}{fraction}", s.step_label()),
                theme.warning(),
            ),
        ));
    }
    if let Some(span) = super::missed::job_span(app) {
        // What the user waits for stays (rank 0); narrow, it keeps the phase and the share.
        let content = span.content.trim().to_string();
        let short = content
            .split_once(", phase ")
            .map(|(_, rest)| format!("⟳ phase {rest}"))
            .unwrap_or_else(|| content.clone());
        fields.push(
            Field::new(0, Span::styled(content, span.style))
                .or_short(Span::styled(short, span.style)),
        );
    }
    frame.render_widget(Paragraph::new(fit_fields(fields, area.width)), area);
}

/// Recall and precision as two rank-0 fields, from the truth's status spans (which carry
/// their own `· ` separators: they are taken apart at each one).
fn truth_fields(app: &App) -> Vec<Field<'static>> {
    let mut fields: Vec<Vec<Span<'static>>> = Vec::new();
    for span in super::missed::status_spans(app) {
        let starts_field = span.content.starts_with("· ");
        let content = span.content.trim_start_matches("· ").trim_end().to_string();
        let span = Span::styled(content, span.style);
        match fields.last_mut() {
            Some(field) if !starts_field => {
                field.push(Span::raw(" "));
                field.push(span);
            }
            _ => fields.push(vec![span]),
        }
    }
    fields
        .into_iter()
        .map(|spans| Field::new(0, ratatui::text::Line::from(spans)))
        .collect()
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

/// The last message (what a key did, where a file went, what went wrong). One too long for
/// the line loses the folders of its paths first; if that is not enough, its shorter forms
/// ([`Message::shorter`](crate::tui::app::Message::shorter)) are tried the same way, so that
/// no file name loses its middle; the last form (or the message, without any) is shortened
/// further ([`fit_message`]); when that drops words, the key that shows the recent messages
/// whole follows it.
pub fn render_message(frame: &mut Frame, app: &App, area: Rect) {
    if let Some(msg) = &app.message() {
        let theme = app.theme();
        let style = if msg.error {
            theme.error()
        } else {
            theme.good()
        };
        let whole = std::iter::once(&msg.text)
            .chain(&msg.shorter)
            .find_map(|text| fit_folders(text, area.width));
        if let Some(text) = whole {
            frame.render_widget(Paragraph::new(Span::styled(text, style)), area);
            return;
        }
        let text = msg.shorter.last().unwrap_or(&msg.text);
        let fitted = fit_message(text, area.width);
        // The middles of long names may go quietly (the rest still says what happened);
        // when whole parts or words go, the key that shows the message whole follows it, as
        // long as the line keeps most of its width for the message.
        let lost_words = fitted.ends_with(ELLIPSIS)
            || fitted.matches(FIELD_SEPARATOR).count() < text.matches(FIELD_SEPARATOR).count();
        let more = format!("  {}", more_hint());
        let more_width = Span::raw(more.as_str()).width() as u16;
        let line = if lost_words && area.width >= 2 * more_width {
            ratatui::text::Line::from(vec![
                Span::styled(fit_message(text, area.width - more_width), style),
                Span::styled(more, theme.dim()),
            ])
        } else {
            ratatui::text::Line::from(Span::styled(fitted, style))
        };
        frame.render_widget(Paragraph::new(line), area);
    }
}

/// What follows a message shortened by more than folders and names: the key that shows the
/// recent messages whole (`M full text`).
pub fn more_hint() -> String {
    format!("{} full text", keys::hint(keys::Command::ShowMessages))
}

/// The footer: the view's main keys in the key table's order. When they do not all fit,
/// whole entries go from the right, except `? help` (where every key is listed), which
/// stays.
pub fn render_footer(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let entries = keys::footer(app.context());
    let fields = entries
        .into_iter()
        .enumerate()
        .map(|(i, (k, text))| {
            // Later entries go first (a higher rank goes sooner); rank 0 is never dropped.
            let rank = if text == "help" {
                0
            } else {
                u8::try_from(i + 1).unwrap_or(u8::MAX)
            };
            let line = vec![Span::styled(k, theme.key()), Span::raw(format!(" {text}"))];
            Field::new(rank, line)
        })
        .collect();
    frame.render_widget(
        Paragraph::new(fit_fields_with(fields, "  ", area.width)).style(theme.dim()),
        area,
    );
}
