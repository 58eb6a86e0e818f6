//! The pair list: ids, exact Jaccard, MinHash estimate, bands hit, label; and the pair table
//! every pair list draws with.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table, Wrap};
use unicode_width::UnicodeWidthStr;

use super::fit::{fit_line, table_column_widths, title_room};
use crate::tui::app::{App, Focus};
use crate::tui::keys::{Command, hint};
use crate::tui::list::{PairList, PreviewMode};
use lshscope_core::analysis::sampled::Estimate;
use lshscope_core::corpus::Corpus;
use lshscope_core::diff::DifferenceExcerpt;
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
        .result()
        .map(|r| r.pairs.len())
        .unwrap_or(0);
    let heading = match app.imported().pairs_heading() {
        Some(heading) => format!(" Pairs: {heading} "),
        None => " Candidate pairs ".to_string(),
    };
    // Sampled candidates say so: the list is a uniform sample of the estimated total.
    let sampled = match app.candidates().estimated() {
        Some(info) => format!(
            " sampled of {}",
            sampled_total(&info.estimate.total, info.refining, total)
        ),
        None => String::new(),
    };
    let mut title = vec![
        Span::styled(heading, theme.title()),
        Span::raw(format!(
            "{} of {}{sampled} · sort {} ",
            thousands(app.candidates().list().len() as u64),
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
                    .result()
                    .map(|r| r.banding.to_string())
                    .unwrap_or_default()
            ),
            theme.warning(),
        ));
    }
    let block = Block::bordered()
        .border_style(border)
        .title(fit_line(title, title_room(area)));

    let (Some(result), Some(_)) = (app.candidates().result(), &app.data()) else {
        let text = if app.data().is_some() {
            "banding…"
        } else {
            "loading…"
        };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    };
    if app.candidates().list().is_empty() {
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
        app.candidates().list(),
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

/// The estimated total a sampled list is drawn from, as its title says it: "estimating…"
/// while a first estimate is too wide to act on (as the status line says), else the estimate
/// with its interval raised to the `found` distinct pairs the sample holds, a count the total
/// cannot be below (an interval from the first bands can reach below zero otherwise).
fn sampled_total(total: &Estimate, refining: bool, found: usize) -> String {
    if super::estimate_pending(total, refining) {
        "estimating…".to_string()
    } else {
        total.at_least(found as f64).to_string()
    }
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
    // Ids give way to the text column: at least `MIN_TEXT_COLUMN` characters of text stay (at
    // 80 columns two ids of 24 left none, and `v`, which changes that column, seemed to do
    // nothing). What the other columns take, plus one space between each two columns.
    let others: u16 = widths
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 1 && i != 2)
        .map(|(_, c)| match c {
            Constraint::Length(w) => *w,
            _ => 0,
        })
        .sum();
    let spaces = widths.len() as u16 - 1;
    let room = block
        .inner(area)
        .width
        .saturating_sub(others + spaces + MIN_TEXT_COLUMN)
        / 2;
    let id_width = id_width.min(room.max(ID_FLOOR));
    widths[1] = Constraint::Length(id_width);
    widths[2] = Constraint::Length(id_width);
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
            cells.push(Cell::from(preview_line(app, &data.corpus, r.a, r.b)));
            let mut row = Row::new(cells);
            if n == list.selected() {
                row = row.style(theme.selected());
            }
            row
        })
        .collect();
    let mut header = vec!["#", "id A", "id B", "Jaccard", "estimate"];
    header.extend(extra.iter().map(|(name, _)| *name));
    let preview_header = app
        .preview_mode()
        .header(app.preview_column().map(|c| c.name.as_str()));
    header.push("label");
    header.push(&preview_header);
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

/// The narrowest text column the pair table keeps, taking it from ids longer than
/// [`ID_FLOOR`].
const MIN_TEXT_COLUMN: u16 = 10;

/// Ids keep this many characters however narrow the text column gets (the sample's
/// `job-000053` whole; a list with wide extra columns has no room for text at 80 columns).
const ID_FLOOR: u16 = 10;

/// Width of an id column: the widest id among the rows shown, between 4 and 24 columns.
fn id_column_width(corpus: &Corpus, docs: impl Iterator<Item = u32>) -> u16 {
    docs.map(|d| corpus.id(d as usize).width())
        .max()
        .unwrap_or(4)
        .clamp(4, 24) as u16
}

/// Characters of text a preview takes (more than the widest column shows).
const PREVIEW_CHARS: usize = 200;

/// The text column of the pair (a, b), as [`App::preview_mode`] says: text A from a few words
/// before its first difference from B (the shared part dimmed, "…" where the start is left
/// out; "= " before a text identical to B's, "A ends · B: " before what B adds when A stops
/// where B goes on), text A from its start, or the `--preview-column` field of A and B.
fn preview_line(app: &App, corpus: &Corpus, a: u32, b: u32) -> Line<'static> {
    let theme = app.theme();
    let (text_a, text_b) = (corpus.text(a as usize), corpus.text(b as usize));
    match app.preview_mode() {
        PreviewMode::Start => Line::from(Span::styled(one_line(text_a), theme.dim())),
        PreviewMode::Column => match app.preview_column() {
            Some(column) => {
                let field = |d| column.value(corpus, d).map_or("?".to_string(), one_line);
                Line::from(vec![
                    Span::raw(field(a)),
                    Span::styled(" │ ", theme.dim()),
                    Span::raw(field(b)),
                ])
            }
            None => Line::from(Span::styled(one_line(text_a), theme.dim())),
        },
        PreviewMode::FromDifference => {
            let excerpt = DifferenceExcerpt::of(text_a, text_b);
            let Some(at) = excerpt.difference else {
                return Line::from(vec![
                    Span::styled("= ", theme.title()),
                    Span::styled(one_line(text_a), theme.dim()),
                ]);
            };
            let mut spans = Vec::with_capacity(4);
            if excerpt.is_cut() {
                spans.push(Span::styled("…", theme.dim()));
            }
            spans.push(Span::styled(
                one_line(&text_a[excerpt.start..at]),
                theme.dim(),
            ));
            if at < text_a.len() {
                spans.push(Span::raw(one_line(&text_a[at..])));
            } else {
                spans.push(Span::styled(" A ends · B: ", theme.title()));
                spans.push(Span::raw(one_line(&text_b[at..])));
            }
            Line::from(spans)
        }
    }
}

/// The start of `text` on one line: its first [`PREVIEW_CHARS`] characters, control
/// characters (line breaks, tabs) as spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .take(PREVIEW_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sampled_total_never_shows_an_interval_below_the_pairs_found() {
        // Two of twenty bands built: the first estimate of the issue.
        let first = Estimate {
            value: 40.6e6,
            low: -1.4e6,
            high: 82.6e6,
        };
        assert_eq!(sampled_total(&first, true, 2_292), "estimating…");
        // The same interval as a final answer: bounded below by the sample's pairs.
        assert_eq!(
            sampled_total(&first, false, 2_292),
            "≈40.6 M (2.3 k–82.6 M)"
        );
        // An interval above the pairs found is shown as it is.
        let narrow = Estimate {
            value: 515.4e6,
            low: 498.9e6,
            high: 531.9e6,
        };
        assert_eq!(sampled_total(&narrow, true, 2_292), "≈515.4 M ± 16.5 M");
        assert_eq!(sampled_total(&narrow, false, 57_803), "≈515.4 M ± 16.5 M");
    }
}
