//! The `?` help overlay: its page (the key table of [`BINDINGS`] laid out for the terminal's
//! width) and its own keys ([`HELP_KEYS`]), which scroll the page when it is taller than the
//! screen. The update reads the page's height to clamp the scroll; the renderer draws it.
//!
//! The current view's keys come first in two columns when every description fits a column,
//! else in one column with descriptions wrapped under themselves; the other views' keys follow
//! as wrapped paragraphs. Nothing is cut: lines break between words.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::app::App;
use super::keys::{self, BINDINGS, Binding, Context, HELP_KEYS, HelpCommand};
use super::layout::centered;

/// The widest the overlay gets: two columns of keys with room for their descriptions.
const MAX_WIDTH: u16 = 104;

/// The help laid out for a screen: where it goes, its scrolling body and its fixed footer.
pub struct HelpPage {
    /// The overlay's rectangle, border included.
    pub rect: Rect,
    /// Every row of the page; [`HelpPage::body_rows`] of them show at a time.
    pub body: Vec<Line<'static>>,
    /// The help's own keys, always shown under the body.
    pub footer: Vec<Line<'static>>,
}

impl HelpPage {
    /// The page of `app`'s current view for a screen of `area`.
    pub fn new(app: &App, area: Rect) -> Self {
        let width = MAX_WIDTH.min(area.width);
        let inner = usize::from(width.saturating_sub(2)).max(1);
        let body = body(app, inner);
        let footer = footer(app, inner);
        let height = (body.len() + footer.len() + 2).min(usize::from(area.height)) as u16;
        HelpPage {
            rect: centered(area, width, height),
            body,
            footer,
        }
    }

    /// How many body rows fit above the footer.
    pub fn body_rows(&self) -> usize {
        usize::from(self.rect.height.saturating_sub(2)).saturating_sub(self.footer.len())
    }

    /// The largest first row: the one that shows the end of the page at the bottom.
    pub fn max_scroll(&self) -> usize {
        self.body.len().saturating_sub(self.body_rows())
    }
}

/// A piece of text that moves to the next row whole, and how many spaces separate it from
/// the piece before it on the same row.
struct Chunk {
    spans: Vec<Span<'static>>,
    gap: usize,
}

impl Chunk {
    fn width(&self) -> usize {
        self.spans.iter().map(Span::width).sum()
    }
}

/// The words of `text` in `style`, one chunk each.
fn words(text: &str, style: Style, first_gap: usize) -> Vec<Chunk> {
    text.split(' ')
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, w)| Chunk {
            spans: vec![Span::styled(w.to_string(), style)],
            gap: if i == 0 { first_gap } else { 1 },
        })
        .collect()
}

/// A key and its description as chunks: the key stays on a row with the first word after it.
fn key_chunks(key: String, help: &str, key_style: Style, gap: usize) -> Vec<Chunk> {
    let mut chunks = words(help, Style::default(), 0);
    let mut first = vec![Span::styled(key, key_style)];
    if let Some(word) = chunks.first_mut() {
        first.push(Span::raw(" "));
        first.append(&mut word.spans);
        word.spans = first;
        word.gap = gap;
    } else {
        chunks.push(Chunk { spans: first, gap });
    }
    chunks
}

/// Rows of at most `width` columns from `chunks`, greedily: the first row starts with
/// `prefix`, the others with `indent` spaces. Only a chunk wider than a whole row is split
/// between characters.
fn wrap(
    chunks: Vec<Chunk>,
    width: usize,
    prefix: Vec<Span<'static>>,
    indent: usize,
) -> Vec<Line<'static>> {
    let width = width.max(1);
    let indent = indent.min(width / 2);
    let mut rows = Vec::new();
    let mut row: Vec<Span<'static>> = prefix;
    let mut used: usize = row.iter().map(Span::width).sum();
    let mut empty = true;
    let new_row = |rows: &mut Vec<Line<'static>>, row: &mut Vec<Span<'static>>| {
        rows.push(Line::from(std::mem::take(row)));
        if indent > 0 {
            row.push(Span::raw(" ".repeat(indent)));
        }
        indent
    };
    for chunk in chunks {
        let w = chunk.width();
        if !empty && used + chunk.gap + w > width {
            used = new_row(&mut rows, &mut row);
            empty = true;
        }
        if !empty && chunk.gap > 0 {
            row.push(Span::raw(" ".repeat(chunk.gap)));
            used += chunk.gap;
        }
        if used + w <= width {
            row.extend(chunk.spans);
            used += w;
        } else {
            // Wider than a row: the only case where a word is split.
            for span in chunk.spans {
                for c in span.content.chars() {
                    let cw = c.to_string().width();
                    if used + cw > width && used > indent {
                        used = new_row(&mut rows, &mut row);
                    }
                    row.push(Span::styled(c.to_string(), span.style));
                    used += cw;
                }
            }
        }
        empty = false;
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}

/// What the help calls a view.
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

/// The scrolling part of the page, `width` columns wide.
fn body(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme();
    let current = app.context();
    let mut lines = wrap(
        words(
            &format!("Keys in the {} (the current view)", context_title(current)),
            theme.title(),
            0,
        ),
        width,
        Vec::new(),
        0,
    );
    lines.extend(key_table(app, current, width));
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
        let own: Vec<&Binding> = BINDINGS
            .iter()
            .filter(|b| b.contexts.contains(&ctx) && !b.contexts.contains(&current))
            .collect();
        if own.is_empty() {
            continue;
        }
        let mut chunks = words(&format!("In the {}:", context_title(ctx)), theme.title(), 0);
        for b in own {
            chunks.extend(key_chunks(keys::keys_label(b), b.help, theme.key(), 2));
        }
        lines.extend(wrap(chunks, width, Vec::new(), 2));
    }
    lines.push(Line::raw(""));
    lines.extend(wrap(
        words(
            "Mouse: click a histogram bin to filter to it, click a pair to select it, the \
             wheel scrolls.",
            theme.dim(),
            0,
        ),
        width,
        Vec::new(),
        0,
    ));
    lines
}

/// The current view's keys: two columns when every description fits in one, else one column
/// with each description wrapped under itself.
fn key_table(app: &App, current: Context, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme();
    let entries: Vec<(String, &str)> = BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&current))
        .map(|b| (keys::keys_label(b), b.help))
        .collect();
    // ` key ` padded to the widest key of the whole table, so every view aligns alike.
    let key_width = BINDINGS
        .iter()
        .map(|b| keys::keys_label(b).width())
        .max()
        .unwrap_or(0)
        + 2;
    let column = width.saturating_sub(1) / 2;
    let text_width = column.saturating_sub(key_width);
    let key_cell = |k: &str| Span::styled(format!(" {k:<0$} ", key_width - 2), theme.key());
    let two_columns = entries.iter().all(|(_, h)| h.width() <= text_width);
    if !two_columns {
        return entries
            .iter()
            .flat_map(|(k, h)| {
                wrap(
                    words(h, Style::default(), 0),
                    width,
                    vec![key_cell(k)],
                    key_width,
                )
            })
            .collect();
    }
    let cell = |(k, h): &(String, &str)| -> Vec<Span<'static>> {
        vec![
            key_cell(k),
            Span::raw(format!("{h:<0$}", text_width)),
            Span::raw(" ".repeat(column - key_width - text_width)),
        ]
    };
    let half = entries.len().div_ceil(2);
    (0..half)
        .map(|i| {
            let mut spans = cell(&entries[i]);
            if let Some(right) = entries.get(half + i) {
                spans.push(Span::raw(" "));
                spans.extend(cell(right));
            }
            Line::from(spans)
        })
        .collect()
}

/// The help's own keys, from [`HELP_KEYS`], and what every other key does:
/// `↑/↓/PgUp/PgDn/Home/End scroll · Esc/q/? or any other key closes · C-c quits`.
fn footer(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme();
    let (close, scroll): (Vec<&Binding<HelpCommand, ()>>, Vec<_>) = HELP_KEYS
        .iter()
        .partition(|b| b.command == HelpCommand::Close);
    let scroll_keys: Vec<String> = scroll.iter().map(|b| b.keys[0].label()).collect();
    let mut chunks = key_chunks(
        scroll_keys.join("/"),
        scroll.iter().find_map(|b| b.footer).unwrap_or("scroll"),
        theme.key(),
        0,
    );
    chunks.extend(words("·", theme.dim(), 1));
    for b in close {
        chunks.extend(key_chunks(
            keys::keys_label(b),
            "or any other key closes",
            theme.key(),
            1,
        ));
    }
    chunks.extend(words("·", theme.dim(), 1));
    chunks.extend(key_chunks(keys::ctrl('c').label(), "quits", theme.key(), 1));
    wrap(chunks, width, Vec::new(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn wrapping_breaks_between_words_and_keeps_a_key_with_its_first_word() {
        let mut chunks = words("In the list:", Style::default(), 0);
        chunks.extend(key_chunks("Enter".into(), "open it", Style::default(), 2));
        chunks.extend(key_chunks(
            "Esc".into(),
            "go back home",
            Style::default(),
            2,
        ));
        let rows = wrap(chunks, 20, Vec::new(), 2);
        assert_eq!(
            text(&rows),
            ["In the list:", "  Enter open it", "  Esc go back home"]
        );
        // A word wider than a row is the one thing split, and only then.
        let rows = wrap(
            words("abcdefghijkl ab", Style::default(), 0),
            5,
            Vec::new(),
            0,
        );
        assert_eq!(text(&rows), ["abcde", "fghij", "kl ab"]);
        // A prefix (a key cell) starts the first row; descriptions wrap under themselves.
        let rows = wrap(
            words("one two three", Style::default(), 0),
            12,
            vec![Span::raw(" k    ")],
            6,
        );
        assert_eq!(text(&rows), [" k    one", "      two", "      three"]);
    }
}
