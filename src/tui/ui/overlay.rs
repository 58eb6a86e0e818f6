//! Overlays: the `?` help (generated from the key table) and the one-line prompt.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::fit::{fit_line, title_room};
use crate::tui::app::{App, Overlay};
use crate::tui::keys::{self, BINDINGS, Context};
use crate::tui::layout::centered;

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

fn context_title(ctx: Context) -> &'static str {
    match ctx {
        Context::Loading => "loading",
        Context::Curve => "S-curve panel",
        Context::Histogram => "histogram panel",
        Context::Pairs => "pair list",
        Context::Viewer => "pair viewer",
        Context::Clusters => "cluster list",
        Context::Cluster => "open cluster",
        Context::Cost => "cost view",
    }
}

fn render_help(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let current = app.context();
    let width = 104.min(area.width);
    let column = (width.saturating_sub(4) / 2) as usize;
    // The current view's keys in two columns, then the other views' keys in compact lines.
    let entries: Vec<(String, &str)> = BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&current))
        .map(|b| (keys::keys_label(b), b.help))
        .collect();
    let mut lines = vec![Line::from(Span::styled(
        format!("Keys in the {} (the current view)", context_title(current)),
        theme.title(),
    ))];
    let half = entries.len().div_ceil(2);
    let text_width = column.saturating_sub(13);
    let cell = |(k, h): &(String, &str)| -> Vec<Span<'static>> {
        // Cut with `…` and padded by display width, so the right column stays aligned.
        let text = fit_line(h.to_string(), text_width as u16);
        let padding = " ".repeat(text_width - text.width());
        let mut spans = vec![Span::styled(format!(" {k:<11} "), theme.key())];
        spans.extend(text.spans);
        spans.push(Span::raw(padding));
        spans
    };
    for i in 0..half {
        let mut spans = cell(&entries[i]);
        if let Some(right) = entries.get(half + i) {
            spans.extend(cell(right));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    for ctx in [
        Context::Curve,
        Context::Histogram,
        Context::Pairs,
        Context::Viewer,
        Context::Clusters,
        Context::Cluster,
        Context::Cost,
        Context::Loading,
    ] {
        if ctx == current {
            continue;
        }
        // Only what differs from the current view.
        let own: Vec<Span> = BINDINGS
            .iter()
            .filter(|b| b.contexts.contains(&ctx) && !b.contexts.contains(&current))
            .flat_map(|b| {
                [
                    Span::styled(keys::keys_label(b), theme.key()),
                    Span::raw(format!(" {}  ", b.help)),
                ]
            })
            .collect();
        if own.is_empty() {
            continue;
        }
        let mut spans = vec![Span::styled(
            format!("In the {}: ", context_title(ctx)),
            theme.title(),
        )];
        spans.extend(own);
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        "Mouse: click a histogram bin to filter to it, click a pair to select it, the wheel scrolls. \
         Any key closes this help.",
        theme.dim(),
    )));
    // Word wrapping can take a little more than the character count suggests: allow slack.
    let inner = width.saturating_sub(2).max(1) as usize;
    let wrapped: usize = lines
        .iter()
        .map(|l| l.width().div_ceil(inner).max(1) + usize::from(l.width() > inner))
        .sum();
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false }).block(
        Block::bordered()
            .border_style(theme.focused_border())
            .title(Span::styled(" lshscope explore · help ", theme.title())),
    );
    let height = (wrapped as u16 + 2).min(area.height);
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    frame.render_widget(paragraph, rect);
}
