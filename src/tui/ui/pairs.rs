//! The pair list: ids, exact Jaccard, MinHash estimate, bands hit, label.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table};

use super::thousands;
use crate::tui::app::{App, Focus};
use crate::tui::keys::{Command, hint};

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let border = if app.focus == Focus::Pairs {
        theme.focused_border()
    } else {
        theme.border()
    };
    let total = app.result.as_ref().map(|r| r.pairs.len()).unwrap_or(0);
    let mut title = vec![
        Span::styled(" Candidate pairs ", theme.title()),
        Span::raw(format!(
            "{} of {} · sort {} ",
            thousands(app.candidates.len() as u64),
            thousands(total as u64),
            app.sort.label()
        )),
    ];
    if let Some(f) = &app.filter {
        title.push(Span::styled(
            format!("· {} ", f.describe()),
            theme.warning(),
        ));
    }
    if app.result_is_stale() {
        title.push(Span::styled(
            format!(
                "· from {} ",
                app.result
                    .as_ref()
                    .map(|r| r.banding.to_string())
                    .unwrap_or_default()
            ),
            theme.warning(),
        ));
    }
    let block = Block::bordered()
        .border_style(border)
        .title(Line::from(title));

    let (Some(result), Some(data)) = (&app.result, &app.data) else {
        let text = if app.data.is_some() {
            "banding…"
        } else {
            "loading…"
        };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    };
    if app.candidates.is_empty() {
        let text = if total == 0 {
            format!(
                "No candidate pairs at {}: lower r or raise b (the S-curve moves left).",
                result.banding
            )
        } else {
            format!(
                "No pair passes the filter ({} or {} clears it).",
                hint(Command::ClearFilter),
                hint(Command::Back)
            )
        };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    }

    let rows_shown = area.height.saturating_sub(3) as usize;
    let bands = result.banding.bands;
    let shown = app
        .candidates
        .rows()
        .iter()
        .skip(app.candidates.offset())
        .take(rows_shown);
    let id_width = id_column_width(
        &data.corpus,
        shown.flat_map(|&p| {
            let pair = &result.pairs[p as usize];
            [pair.a, pair.b]
        }),
    );
    let preview = |d: u32| text_preview(&data.corpus, d);
    let rows: Vec<Row> = app
        .candidates
        .rows()
        .iter()
        .enumerate()
        .skip(app.candidates.offset())
        .take(rows_shown)
        .map(|(i, &p)| {
            let pair = &result.pairs[p as usize];
            let label = app.label_of(pair.a, pair.b);
            let mut row = Row::new(vec![
                Cell::from(format!("{}", i + 1)),
                Cell::from(data.corpus.id(pair.a as usize).to_string()),
                Cell::from(data.corpus.id(pair.b as usize).to_string()),
                Cell::from(format!("{:.3}", pair.jaccard)),
                Cell::from(format!("{:.3}", pair.estimate)),
                Cell::from(format!("{:>3}/{bands}", pair.bands_hit)),
                match label {
                    Some(l) => Cell::from(Span::styled(l.as_str(), theme.label(l))),
                    None => Cell::from(""),
                },
                Cell::from(Span::styled(preview(pair.a), theme.dim())),
            ]);
            if i == app.candidates.selected() {
                row = row.style(theme.selected());
            }
            row
        })
        .collect();
    let header = Row::new([
        "#", "id A", "id B", "Jaccard", "estimate", "bands", "label", "text A",
    ])
    .style(theme.title());
    let table = Table::new(
        rows,
        [
            Constraint::Length(6),
            Constraint::Length(id_width),
            Constraint::Length(id_width),
            Constraint::Length(7),
            Constraint::Length(8),
            Constraint::Length(7),
            Constraint::Length(13),
            Constraint::Fill(1),
        ],
    )
    .header(header)
    .block(block);
    frame.render_widget(table, area);
}

/// Width of an id column: the longest id among the rows shown, between 4 and 24 characters.
pub(super) fn id_column_width(
    corpus: &crate::corpus::Corpus,
    docs: impl Iterator<Item = u32>,
) -> u16 {
    docs.map(|d| corpus.id(d as usize).chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 24) as u16
}

/// The start of a document's text on one line (control characters blanked).
pub(super) fn text_preview(corpus: &crate::corpus::Corpus, doc: u32) -> String {
    corpus
        .text(doc as usize)
        .chars()
        .take(200)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
