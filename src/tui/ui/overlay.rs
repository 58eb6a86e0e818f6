//! Overlays: the `?` help (its page is laid out by [`crate::tui::help`]) and the one-line
//! prompt.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::fit::{fit_line, title_room};
use crate::tui::app::{App, Overlay};
use crate::tui::help::HelpPage;
use crate::tui::layout::centered;
use lshscope_core::util::numfmt::thousands;

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    match &app.overlay() {
        Overlay::None => {}
        Overlay::Help => render_help(frame, app, area),
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
