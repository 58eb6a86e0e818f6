//! The pair list: ids, exact Jaccard, MinHash estimate, bands hit, label; and the pair table
//! every pair list draws with.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table, Wrap};
use unicode_width::UnicodeWidthStr;

use super::fit::{fit_line, table_column_widths, title_room};
use crate::tui::app::{App, Focus};
use crate::tui::keys::{Command, hint};
use crate::tui::list::PairList;
use lshscope_core::util::numfmt::thousands;

pub fn render(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let border = if app.focus() == Focus::Pairs {
        theme.focused_border()
    } else {
        theme.border()
    };
    let total = app
        .candidates()
        .result
        .as_ref()
        .map(|r| r.pairs.len())
        .unwrap_or(0);
    let heading = match app.imported().pairs_heading() {
        Some(heading) => format!(" Pairs: {heading} "),
        None => " Candidate pairs ".to_string(),
    };
    // Sampled candidates say so: the list is a uniform sample of the estimated total.
    let sampled = match app.candidates().estimated_total() {
        Some(total) => format!(" sampled of {total}"),
        None => String::new(),
    };
    let mut title = vec![
        Span::styled(heading, theme.title()),
        Span::raw(format!(
            "{} of {}{sampled} · sort {} ",
            thousands(app.candidates().list.len() as u64),
            thousands(total as u64),
            app.list_view().sort.label()
        )),
    ];
    if let Some(f) = &app.list_view().filter {
        title.push(Span::styled(
            format!("· {} ", f.describe()),
            theme.warning(),
        ));
    }
    if app.result_is_stale() {
        title.push(Span::styled(
            format!(
                "· from {} ",
                app.candidates()
                    .result
                    .as_ref()
                    .map(|r| r.banding.to_string())
                    .unwrap_or_default()
            ),
            theme.warning(),
        ));
    }
    let block = Block::bordered()
        .border_style(border)
        .title(fit_line(title, title_room(area)));

    let (Some(result), Some(_)) = (&app.candidates().result, &app.data()) else {
        let text = if app.data().is_some() {
            "banding…"
        } else {
            "loading…"
        };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    };
    if app.candidates().list.is_empty() {
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
        // The panel has rows to spare: the advice wraps rather than being cut.
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    }

    let bands = result.banding.bands;
    let pairs = &result.pairs;
    render_table(
        frame,
        app,
        area,
        block,
        &app.candidates().list,
        &[("bands", 7)],
        |i| {
            let pair = &pairs[i as usize];
            TableRow {
                a: pair.a,
                b: pair.b,
                jaccard: pair.jaccard,
                estimate: pair.estimate,
                extra: vec![Cell::from(format!("{:>3}/{bands}", pair.bands_hit))],
            }
        },
    );
}

/// One row of a pair table: the pair, and the cells of the columns only its list has.
pub(super) struct TableRow {
    pub a: u32,
    pub b: u32,
    pub jaccard: f64,
    pub estimate: f64,
    pub extra: Vec<Cell<'static>>,
}

/// Draws the rows of `list` on screen as a table: #, the two ids, Jaccard, estimate, the
/// list's own `extra` columns (header, width), label and the start of text A. `row` gives a
/// row for a pair index of the list. The candidate and the missed-pairs lists both draw here.
pub(super) fn render_table(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    block: Block,
    list: &PairList,
    extra: &[(&'static str, u16)],
    row: impl Fn(u32) -> TableRow,
) {
    let Some(data) = &app.data() else { return };
    let theme = app.theme();
    let rows_shown = area.height.saturating_sub(3) as usize;
    let shown: Vec<(usize, TableRow)> = list
        .rows()
        .iter()
        .enumerate()
        .skip(list.offset())
        .take(rows_shown)
        .map(|(n, &i)| (n, row(i)))
        .collect();
    let id_width = id_column_width(&data.corpus, shown.iter().flat_map(|(_, r)| [r.a, r.b]));
    let mut widths = vec![
        Constraint::Length(6),
        Constraint::Length(id_width),
        Constraint::Length(id_width),
        Constraint::Length(7),
        Constraint::Length(8),
    ];
    widths.extend(extra.iter().map(|&(_, w)| Constraint::Length(w)));
    widths.extend([Constraint::Length(13), Constraint::Fill(1)]);
    // On a narrow screen the table squeezes the columns: ids are cut with `…` to the width
    // they get.
    let columns = table_column_widths(&widths, block.inner(area).width);
    let (id_a_width, id_b_width) = (columns[1], columns[2]);
    let rows: Vec<Row> = shown
        .into_iter()
        .map(|(n, r)| {
            let mut cells = vec![
                Cell::from(format!("{}", n + 1)),
                Cell::from(fit_line(
                    data.corpus.id(r.a as usize).to_string(),
                    id_a_width,
                )),
                Cell::from(fit_line(
                    data.corpus.id(r.b as usize).to_string(),
                    id_b_width,
                )),
                Cell::from(format!("{:.3}", r.jaccard)),
                Cell::from(format!("{:.3}", r.estimate)),
            ];
            cells.extend(r.extra);
            let label_width = columns[columns.len() - 2];
            cells.push(match app.label_of(r.a, r.b) {
                Some(l) => Cell::from(fit_line(
                    Span::styled(l.as_str(), theme.label(l)),
                    label_width,
                )),
                None => Cell::from(""),
            });
            cells.push(Cell::from(Span::styled(
                text_preview(&data.corpus, r.a),
                theme.dim(),
            )));
            let mut row = Row::new(cells);
            if n == list.selected() {
                row = row.style(theme.selected());
            }
            row
        })
        .collect();
    let mut header = vec!["#", "id A", "id B", "Jaccard", "estimate"];
    header.extend(extra.iter().map(|(name, _)| *name));
    header.extend(["label", "text A"]);
    // Headings squeezed by a narrow screen lose whole words, not letters (ui::fit).
    let header: Vec<Cell> = header
        .into_iter()
        .zip(&columns)
        .map(|(h, &w)| Cell::from(fit_line(h, w)))
        .collect();
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme.title()))
        .block(block);
    frame.render_widget(table, area);
}

/// Width of an id column: the widest id among the rows shown, between 4 and 24 columns.
fn id_column_width(corpus: &lshscope_core::corpus::Corpus, docs: impl Iterator<Item = u32>) -> u16 {
    docs.map(|d| corpus.id(d as usize).width())
        .max()
        .unwrap_or(4)
        .clamp(4, 24) as u16
}

/// The start of a document's text on one line (control characters blanked).
fn text_preview(corpus: &lshscope_core::corpus::Corpus, doc: u32) -> String {
    corpus
        .text(doc as usize)
        .chars()
        .take(200)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
