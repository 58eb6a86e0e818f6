//! The walkthrough's diff of the selected pair: its two documents side by side, aligned and
//! marked as the explorer's pair viewer marks them (the same layout, styles and summary
//! line), compared as the walkthrough's shingles see them (lowercase, no punctuation).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Paragraph};

use crate::tui::aligned::{AlignedLayout, align};
use crate::tui::ui::diff::{pane_lines, summary_line};
use crate::tui::ui::fit::{fit_line, title_room};
use lshscope_core::diff::{DiffOptions, Folding, Side, TextDiff, diff_texts};
use lshscope_core::learn::learn_options;

use super::{LEARN_KEYS, LearnApp, LearnCommand};

/// The selected pair's diff, its layout for the last known screen width, and the
/// difference last jumped to.
#[derive(Debug, Clone)]
pub struct PairDiff {
    pub diff: TextDiff,
    pub layout: AlignedLayout,
    pub difference: Option<usize>,
}

impl PairDiff {
    /// The diff of `app`'s selected pair, laid out for a screen `screen_width` columns wide.
    pub fn new(app: &LearnApp, screen_width: u16) -> PairDiff {
        let (a, b) = texts(app);
        let options = DiffOptions {
            folding: Folding::of(&learn_options(app.kind)),
            ..DiffOptions::default()
        };
        let diff = diff_texts(a, b, &options);
        let layout = align(&diff, a, b, pane_width(screen_width));
        PairDiff {
            diff,
            layout,
            difference: None,
        }
    }
}

/// The selected pair's two texts, as written.
fn texts(app: &LearnApp) -> (&str, &str) {
    let (a, b) = app.pair;
    (&app.docs[a].text, &app.docs[b].text)
}

/// Text columns inside each pane's border, for a screen `screen_width` wide.
pub fn pane_width(screen_width: u16) -> usize {
    (screen_width / 2).saturating_sub(2).max(1) as usize
}

/// What the step's explanation says while the diff shows.
pub fn explanation(app: &LearnApp) -> String {
    format!(
        "The selected pair side by side, compared word by word as its shingles see it \
         (lowercase, punctuation removed): unchanged words are dimmed, what differs is marked. \
         Its Jaccard is {:.3}; every word changed touches the shingles that contain it.",
        app.pair_jaccard()
    )
}

/// The label of the first key bound to `command` in the walkthrough's table.
fn key_of(command: LearnCommand) -> String {
    LEARN_KEYS
        .iter()
        .find(|b| b.command == command)
        .map(|b| b.keys[0].label())
        .unwrap_or_default()
}

/// The summary line and the two panes in `area`.
pub fn render(frame: &mut Frame, app: &LearnApp, pair: &PairDiff, area: Rect) {
    let theme = &app.theme;
    let [summary, panes] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).areas(area);
    let keys = format!(
        "({}/{} jump, {} back to the step)",
        key_of(LearnCommand::PrevDifference),
        key_of(LearnCommand::NextDifference),
        key_of(LearnCommand::ToggleDiff)
    );
    frame.render_widget(
        Paragraph::new(summary_line(theme, &pair.diff, keys, summary.width)),
        summary,
    );
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(panes);
    let (text_a, text_b) = texts(app);
    let width = left.width.saturating_sub(2).max(1) as usize;
    // Laid out when the pair was chosen, for the screen the walkthrough last knew; a frame
    // of another width lays it out for itself.
    let relaid;
    let layout = if pair.layout.width == width {
        &pair.layout
    } else {
        relaid = align(&pair.diff, text_a, text_b, width);
        &relaid
    };
    let rows = left.height.saturating_sub(2) as usize;
    let scroll = app.scroll.min(layout.len().saturating_sub(rows));
    for (rect, text, doc, side) in [
        (left, text_a, app.pair.0, Side::Left),
        (right, text_b, app.pair.1, Side::Right),
    ] {
        let lines = pane_lines(
            theme,
            text,
            &pair.diff,
            layout,
            side,
            pair.difference,
            scroll..scroll + rows,
        );
        let total = layout.len();
        let block = Block::bordered()
            .border_style(theme.border())
            .title(fit_line(
                Span::styled(format!(" {} ", app.docs[doc].id), theme.title()),
                title_room(rect),
            ))
            .title_bottom(fit_line(
                Span::styled(
                    format!(
                        " lines {}–{} of {total} ",
                        (scroll + 1).min(total),
                        (scroll + rows).min(total)
                    ),
                    theme.dim(),
                ),
                title_room(rect),
            ));
        frame.render_widget(Paragraph::new(lines).block(block), rect);
    }
}
