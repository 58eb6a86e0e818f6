//! Drawing: a pure function of [`App`]. One module per panel; each has
//! `render(frame, &App, area)`.

pub mod clusters;
pub mod cost;
pub mod diff;
pub mod fit;
pub mod histogram;
pub mod loading;
pub mod missed;
pub mod overlay;
pub mod pairs;
pub mod scurve;
pub mod status;
pub mod viewer;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::app::{App, View};
use super::layout;

/// Draws the whole screen for `app`.
pub fn render(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let size = (area.width, area.height);
    if layout::too_small(size) {
        render_too_small(frame, area);
        return;
    }
    match app.view() {
        View::Loading => loading::render(frame, app, area),
        View::Main => {
            let l = layout::main_layout(size);
            scurve::render(frame, app, l.curve);
            histogram::render(frame, app, l.histogram);
            if app.truth().show_missed() {
                missed::render(frame, app, l.pairs);
            } else {
                pairs::render(frame, app, l.pairs);
            }
            status::render_status(frame, app, l.status);
            status::render_message(frame, app, l.message);
            status::render_footer(frame, app, l.footer);
        }
        View::Clusters => {
            let l = crate::tui::clusters::clusters_layout(size);
            if app.clusters().open().is_some() {
                clusters::render_members(frame, app, l.top);
                clusters::render_edges(frame, app, l.body);
            } else {
                clusters::render_summary(frame, app, l.top);
                clusters::render_list(frame, app, l.body);
            }
            status::render_status(frame, app, l.status);
            status::render_message(frame, app, l.message);
            status::render_footer(frame, app, l.footer);
        }
        View::Cost => cost::render(frame, app, area),
        View::Viewer { .. } => {
            let l =
                layout::viewer_layout(size, app.viewer().show_values(), app.curve().banding.bands);
            viewer::render(frame, app, &l);
            status::render_status(frame, app, l.status);
            status::render_message(frame, app, l.message);
            status::render_footer(frame, app, l.footer);
        }
    }
    overlay::render(frame, app, area);
}

/// True while a sampled estimate is a first one too wide to act on (its interval spans more
/// than a factor of 2 of its value) and a refined one is still coming: faces say
/// "estimating…" then, not a number that will be replaced by a very different one. A final
/// estimate is shown whatever its width, with its interval.
pub(crate) fn estimate_pending(
    e: &lshscope_core::analysis::sampled::Estimate,
    refining: bool,
) -> bool {
    refining && !e.is_informative()
}

/// `estimating… (20,000 sampled pairs so far)`.
pub(crate) fn estimating(draws: usize) -> String {
    if draws == 0 {
        "estimating…".to_string()
    } else {
        format!(
            "estimating… ({} sampled pairs so far)",
            lshscope_core::util::numfmt::thousands(draws as u64)
        )
    }
}

/// An estimate as shown (`≈12.3 k ± 1.1 k`), or "estimating…" while [`estimate_pending`].
pub(crate) fn estimate_text(
    e: &lshscope_core::analysis::sampled::Estimate,
    refining: bool,
) -> String {
    if estimate_pending(e, refining) {
        "estimating…".to_string()
    } else {
        e.to_string()
    }
}

fn render_too_small(frame: &mut Frame, area: Rect) {
    let text = vec![
        Line::from("lshscope explore needs a larger terminal:"),
        Line::from(format!(
            "at least {}×{}, this one is {}×{}.",
            layout::MIN_WIDTH,
            layout::MIN_HEIGHT,
            area.width,
            area.height
        )),
        Line::from(format!(
            "Enlarge the window ({} quits).",
            super::keys::hint(super::keys::Command::Quit)
        )),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}
