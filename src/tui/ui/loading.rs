//! The loading screen: each phase with a gauge, counts and throughput.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Gauge, Paragraph};

use super::fit::fit_line;
use crate::tui::app::App;
use crate::tui::keys::{self, Command};
use crate::tui::layout::centered;
use lshscope_core::jobs::Phase;
use lshscope_core::minhash::SketchFamily;
use lshscope_core::util::numfmt::{amount, compact, rate as human_rate, thousands};

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let box_area = centered(area, 76.min(area.width), 14);
    let block = Block::bordered()
        .title(Span::styled(" lshscope · loading ", theme.title()))
        .border_style(theme.border());
    let inner = block.inner(box_area);
    frame.render_widget(block, box_area);
    let [source, done, current, gauge, _, hint] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(3),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(inner);

    let opts = &app.config().index_options;
    // A long path or a wide phase line is cut with `…` at the box's edge.
    frame.render_widget(
        Paragraph::new(vec![
            fit_line(
                vec![
                    Span::raw("corpus  "),
                    Span::styled(app.config().source_name.clone(), theme.title()),
                ],
                source.width,
            ),
            fit_line(
                Span::styled(
                    format!(
                        "shingles {} · K = {} permutations · seed {}{}",
                        opts.shingle.kind,
                        thousands(opts.num_perm as u64),
                        opts.seed,
                        family_note(opts.family)
                    ),
                    theme.dim(),
                ),
                source.width,
            ),
        ]),
        source,
    );

    let mut lines = Vec::new();
    for step in &app.load().steps {
        let rate = if step.seconds > 0.0 {
            step.items as f64 / step.seconds
        } else {
            0.0
        };
        lines.push(fit_line(
            vec![
                Span::styled("✓ ", theme.good()),
                Span::raw(format!("{:<32}", step.phase.label())),
                Span::raw(format!(
                    "{:>14} {:>7.2} s  {:>14}",
                    amount(step.items, step.unit),
                    step.seconds,
                    human_rate(rate, step.unit)
                )),
            ],
            done.width,
        ));
    }
    frame.render_widget(Paragraph::new(lines), done);

    let snap = app.load().progress.snapshot();
    if snap.phase != Phase::Idle {
        let total = if snap.total > 0 {
            format!(" of {}", amount(snap.total, snap.phase.unit()))
        } else {
            String::new()
        };
        frame.render_widget(
            Paragraph::new(fit_line(
                vec![
                    Span::styled("▸ ", theme.key()),
                    Span::raw(format!("{:<32}", snap.phase.label())),
                    Span::raw(format!(
                        "{}{total} · {} · {:.1} s",
                        compact(snap.done),
                        human_rate(snap.rate(), snap.phase.unit()),
                        snap.elapsed.as_secs_f64()
                    )),
                ],
                current.width,
            )),
            current,
        );
        let ratio = snap.fraction().unwrap_or(0.0);
        frame.render_widget(
            Gauge::default()
                .ratio(ratio)
                .label(format!("{:.0} %", ratio * 100.0))
                .gauge_style(theme.key())
                .use_unicode(true),
            gauge,
        );
    } else {
        frame.render_widget(Paragraph::new("starting…"), current);
    }
    frame.render_widget(
        Paragraph::new(fit_line(
            vec![
                Span::styled(keys::hint(Command::Quit), theme.key()),
                Span::raw(" quit   "),
                Span::styled(keys::hint(Command::Help), theme.key()),
                Span::raw(" help   the work runs in the background"),
            ],
            hint.width,
        )),
        hint,
    );
}

/// ` · FAMILY sketches` after K, empty for the default family (whose screens read as before).
pub(super) fn family_note(family: SketchFamily) -> String {
    match family {
        SketchFamily::Classic => String::new(),
        other => format!(" · {other} sketches"),
    }
}
