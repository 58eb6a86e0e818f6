//! Overlays: the `?` help (generated from the key table) and the one-line prompt.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::layout::centered;
use crate::tui::app::{App, Overlay};
use crate::tui::keys::{self, BINDINGS, Context};

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => render_help(frame, app, area),
        Overlay::Prompt(prompt) => {
            let theme = &app.theme;
            let rect = centered(area, 64, 3);
            frame.render_widget(Clear, rect);
            let block = Block::bordered()
                .border_style(theme.focused_border())
                .title(Span::styled(
                    format!(" {} ", prompt.kind.question()),
                    theme.title(),
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

fn context_title(ctx: Context) -> &'static str {
    match ctx {
        Context::Loading => "loading",
        Context::Curve => "S-curve panel",
        Context::Histogram => "histogram panel",
        Context::Pairs => "pair list",
        Context::Viewer => "pair viewer",
    }
}

fn render_help(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let current = app.context();
    // One line per binding: keys, what it does, where it works (the current view first).
    let mut lines = vec![Line::from(Span::styled(
        format!("Keys in the {} (current view)", context_title(current)),
        theme.title(),
    ))];
    let mut others = vec![
        Line::raw(""),
        Line::from(Span::styled("Other views", theme.title())),
    ];
    for b in BINDINGS {
        let line = |extra: String| {
            Line::from(vec![
                Span::styled(format!("  {:<14}", keys::keys_label(b)), theme.key()),
                Span::raw(b.help.to_string()),
                Span::styled(extra, theme.dim()),
            ])
        };
        if b.contexts.contains(&current) {
            lines.push(line(String::new()));
        } else {
            let places: Vec<&str> = b.contexts.iter().map(|&c| context_title(c)).collect();
            others.push(line(format!("  ({})", places.join(", "))));
        }
    }
    lines.extend(others);
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        "Mouse: click a histogram bin to filter, click a pair to select it, wheel scrolls.",
        theme.dim(),
    )));
    lines.push(Line::from(Span::styled(
        "Any key closes this help.",
        theme.dim(),
    )));
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = centered(area, 92, height);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .border_style(theme.focused_border())
                .title(Span::styled(" lshscope explore · help ", theme.title())),
        ),
        rect,
    );
}
