//! Overlays: the `?` help (its page is laid out by [`crate::tui::help`]), the recent
//! messages in full (`M`) and the one-line prompt.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::fit::{fit_line, title_room};
use crate::tui::app::{App, Overlay};
use crate::tui::help::HelpPage;
use crate::tui::keys::{Command, hint};
use crate::tui::layout::{centered, wrap_ranges};
use lshscope_core::util::numfmt::thousands;

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    match &app.overlay() {
        Overlay::None => {}
        Overlay::Help => render_help(frame, app, area),
        Overlay::Messages => render_messages(frame, app, area),
        Overlay::Prompt(prompt) => {
            let theme = app.theme();
            let rect = centered(area, 64, 3);
            frame.render_widget(Clear, rect);
            let block = Block::bordered()
                .border_style(theme.focused_border())
                .title(fit_line(
                    Span::styled(format!(" {} ", prompt.kind.question()), theme.title()),
                    title_room(rect),
                ))
                .title_bottom(Span::styled(" Enter accepts · Esc cancels ", theme.dim()));
            frame.render_widget(
                Paragraph::new(Line::from(vec![
                    Span::raw(prompt.input.clone()),
                    Span::styled("▏", theme.key()),
                ]))
                .block(block),
                rect,
            );
        }
    }
}

/// The help page, scrolled to [`App::help_scroll`], its footer fixed under it; the bottom
/// border says which rows show and whether more is above or below.
fn render_help(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let page = HelpPage::new(app, area);
    let rows = page.body_rows();
    let top = app.help_scroll().min(page.max_scroll());
    let shown = page.body.len().min(top + rows);
    let mut position = Vec::new();
    if top > 0 {
        position.push("↑ more".to_string());
    }
    if shown < page.body.len() {
        position.push("↓ more".to_string());
    }
    if top > 0 || shown < page.body.len() {
        position.push(format!(
            "rows {}–{} of {}",
            thousands(top as u64 + 1),
            thousands(shown as u64),
            thousands(page.body.len() as u64)
        ));
    }
    let mut block = Block::bordered()
        .border_style(theme.focused_border())
        .title(fit_line(
            Span::styled(" lshscope explore · help ", theme.title()),
            title_room(page.rect),
        ));
    if !position.is_empty() {
        block = block.title_bottom(
            fit_line(
                Span::styled(format!(" {} ", position.join(" · ")), theme.key()),
                title_room(page.rect),
            )
            .right_aligned(),
        );
    }
    let mut lines: Vec<Line> = page.body[top..shown].to_vec();
    lines.resize(rows, Line::raw(""));
    lines.extend(page.footer.iter().cloned());
    frame.render_widget(Clear, page.rect);
    frame.render_widget(Paragraph::new(lines).block(block), page.rect);
}

/// The recent messages, newest first, each wrapped whole to the box's width (the message line
/// shortens a long one to its own width); as many as fit, the oldest going first.
fn render_messages(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let rect = centered(
        area,
        area.width.saturating_sub(4).min(MESSAGES_WIDTH),
        area.height.saturating_sub(4),
    );
    let inner_width = usize::from(rect.width.saturating_sub(2));
    let rows = usize::from(rect.height.saturating_sub(2));
    let mut lines: Vec<Line> = Vec::new();
    for message in app.messages().iter().rev() {
        let style = if message.error {
            theme.error()
        } else {
            theme.good()
        };
        let wrapped: Vec<Line> = wrap_ranges(&message.text, inner_width)
            .into_iter()
            .map(|r| Line::styled(message.text[r].trim_end().to_string(), style))
            .collect();
        // A blank line sets messages apart; the first message is shown even if cut.
        let needed = wrapped.len() + usize::from(!lines.is_empty());
        if !lines.is_empty() && lines.len() + needed > rows {
            break;
        }
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.extend(wrapped);
    }
    if lines.is_empty() {
        lines.push(Line::styled("no messages yet", theme.dim()));
    }
    let block = Block::bordered()
        .border_style(theme.focused_border())
        .title(fit_line(
            Span::styled(" messages, newest first ", theme.title()),
            title_room(rect),
        ))
        .title_bottom(fit_line(
            Span::styled(
                format!(
                    " any key closes ({} opens this again) ",
                    hint(Command::ShowMessages)
                ),
                theme.dim(),
            ),
            title_room(rect),
        ));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The messages box's widest: wider lines are harder to read.
const MESSAGES_WIDTH: u16 = 100;
