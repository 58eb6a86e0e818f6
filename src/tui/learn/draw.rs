//! Drawing the walkthrough: a pure function of [`LearnApp`]. This module lays out the
//! screen (header, the step's explanation, its figure, the footer, the key help); the
//! figures are drawn by [`super::figures`] (the table steps) and [`super::scurve`] (step 7).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use lshscope_core::text::ShingleKind;
use lshscope_core::util::numfmt::for_count;

use super::figures::figure;
use super::one_permutation::one_permutation_figure;
use super::scurve::render_scurve_step;
use super::{LEARN_KEYS, LearnApp, STEPS, footer_entries};
use crate::tui::keys::keys_label;

pub const TITLES: [&str; STEPS] = [
    "Documents",
    "Shingles and Jaccard",
    "The characteristic matrix",
    "Permutations → signatures",
    "Hash functions",
    "One permutation, K bins",
    "Bands and buckets",
    "The S-curve",
    "Verification",
];

/// What each step says, in the project's own words (2–4 sentences).
fn explanation(app: &LearnApp) -> String {
    let (b, r) = (app.bands, app.rows);
    let bands = for_count(b as u64, "band", "bands");
    let rows = for_count(r as u64, "row", "rows");
    match app.step {
        0 => "These are the documents. Before anything is compared, each is normalized as scan \
              does by default, lowercase with runs of spaces made one, and here also without \
              punctuation (scan does that only with --strip-punct), so that \"list?\" and \
              \"list\" are one word. Every later step sees only the normalized text."
            .into(),
        1 => format!(
            "A document becomes the set of its shingles: every run of {}. Highlighted shingles \
             are shared by the selected pair; their Jaccard similarity is the size of the \
             intersection over the size of the union. k/K change the size, w switches between \
             characters and words.",
            match app.kind {
                ShingleKind::Char(k) =>
                    format!("{k} {}", for_count(k as u64, "character", "characters")),
                ShingleKind::Word(n) => format!("{n} {}", for_count(n as u64, "word", "words")),
            }
        ),
        2 => "One row per distinct shingle of all documents, one column per document: 1 where \
              the document has the shingle. This matrix is what MinHash summarizes; on a real \
              corpus it has millions of rows and is almost all zeros."
            .into(),
        3 => "Shuffle the rows at random and, in each column, look for the first 1: its position \
              is that document's MinHash value. Two documents get the same value exactly when \
              the first shingle of their union is in both, which happens with probability equal \
              to their Jaccard. K shuffles give K rows of the signature matrix."
            .into(),
        4 => "Shuffling millions of rows K times is too slow. Instead each shingle is hashed \
              with K functions h(x) = (a·x + b) >> 32 and each document keeps the smallest value \
              per function: a random hash orders shingles like a random shuffle. These are the \
              engine's own functions, as scan computes them."
            .into(),
        5 => "K hash functions cost K multiplications per shingle. One-permutation hashing \
              (scan --family one-permutation) hashes each shingle once and cuts the hash range \
              into K equal bins: row i is the smallest hash in bin i. Densification fills a bin no \
              shingle reached: it probes bins in an order fixed by the seed, the same for every \
              document, and copies the first occupied one."
            .into(),
        6 => format!(
            "Cut each signature into b = {b} {bands} of r = {r} {rows}. Documents whose r values \
             agree in a band land in the same bucket; any shared bucket makes the pair a \
             candidate. Only candidates are ever compared exactly."
        ),
        7 => format!(
            "A pair with Jaccard s agrees on one row with probability s, on a whole band of \
             r = {r} {rows} with s^r, so it misses a band with 1 − s^r and all b = {b} {bands} \
             with (1 − s^r)^b. It becomes a candidate with P(s) = 1 − (1 − s^r)^b, the S-curve."
        ),
        _ => format!(
            "Candidates are suspects, not answers. For each one, scan and dedup compute the \
             exact Jaccard from the shingles and keep the pair only at or above the threshold \
             t = {:.2} (--threshold); candidates below t are false positives, dropped for the \
             price of one comparison each. A similar pair that never shared a bucket is a false \
             negative: verification never sees it.",
            app.threshold
        ),
    }
}

/// Draws the current step.
pub fn render(frame: &mut Frame, app: &LearnApp) {
    let area = frame.area();
    let explanation = match &app.diff {
        Some(_) => super::diff::explanation(app),
        None => explanation(app),
    };
    // Rows the explanation needs when wrapped to the screen (a little generous: words wrap).
    let text_rows = (explanation.chars().count() as u16 * 11 / 10) / area.width.max(1) + 1;
    // A message longer than the screen is wide (what a new K does) takes more rows (a little
    // generous, as above: words wrap).
    let message_rows = app.message.as_ref().map_or(1, |m| {
        (m.chars().count() as u16 * 11 / 10 + 1)
            .div_ceil(area.width.max(1))
            .clamp(1, 3)
    });
    let [head, text, body, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(text_rows.min(6) + 1),
        Constraint::Min(3),
        Constraint::Length(message_rows),
    ])
    .areas(area);
    render_header(frame, app, head);
    frame.render_widget(
        Paragraph::new(explanation).wrap(Wrap { trim: true }).block(
            Block::default()
                .borders(Borders::BOTTOM)
                .border_style(app.theme.border()),
        ),
        text,
    );
    if let Some(pair) = &app.diff {
        super::diff::render(frame, app, pair, body);
    } else if app.step == SCURVE_STEP {
        render_scurve_step(frame, app, body);
    } else {
        let mut lines = if app.step == ONE_PERMUTATION_STEP {
            one_permutation_figure(app, body.width as usize)
        } else {
            figure(app, body.width)
        };
        // On the long figures (shingle lists, the matrix, the bins) the first line, the pair's
        // figures or the column heads, stays put while the rest scrolls.
        let body = if matches!(app.step, 1 | 2 | 5) && body.height > 2 && !lines.is_empty() {
            let [fixed, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
            frame.render_widget(Paragraph::new(lines.remove(0)), fixed);
            rest
        } else {
            body
        };
        let scroll = app.scroll.min(lines.len().saturating_sub(1));
        frame.render_widget(Paragraph::new(lines).scroll((scroll as u16, 0)), body);
    }
    render_footer(frame, app, foot);
    if app.help {
        render_help(frame, app, area);
    }
}

/// The 0-based step that draws the S-curve.
const SCURVE_STEP: usize = 7;

/// The step drawn by [`one_permutation_figure`] (the table steps by [`figure`]).
const ONE_PERMUTATION_STEP: usize = 5;

/// The key help over the step: every row of [`LEARN_KEYS`], its keys and what they do, in
/// two columns when one does not fit the screen's height.
fn render_help(frame: &mut Frame, app: &LearnApp, area: Rect) {
    let entries: Vec<(String, &str)> = LEARN_KEYS.iter().map(|b| (keys_label(b), b.help)).collect();
    let rows_fit = area.height.saturating_sub(2) as usize;
    let columns = if entries.len() <= rows_fit { 1 } else { 2 };
    let per_column = entries.len().div_ceil(columns);
    let chunks: Vec<&[(String, &str)]> = entries.chunks(per_column).collect();
    // Each column as wide as its own keys and texts need, so two fit 80 columns.
    let widest = |chunk: &[(String, &str)], part: fn(&(String, &str)) -> usize| {
        chunk.iter().map(part).max().unwrap_or(0)
    };
    let key_widths: Vec<usize> = chunks
        .iter()
        .map(|c| widest(c, |(k, _)| k.chars().count()))
        .collect();
    let column_widths: Vec<usize> = chunks
        .iter()
        .zip(&key_widths)
        .map(|(c, key_width)| 1 + key_width + 2 + widest(c, |(_, h)| h.chars().count()) + 1)
        .collect();
    let width = (column_widths.iter().sum::<usize>() + 2).min(area.width as usize) as u16;
    let height = (per_column + 2).min(area.height as usize) as u16;
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    frame.render_widget(ratatui::widgets::Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.border())
        .title(" keys (any key closes) ");
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let areas = Layout::horizontal(column_widths.iter().map(|&w| Constraint::Length(w as u16)))
        .split(inner);
    for (column, chunk) in chunks.iter().enumerate() {
        let key_width = key_widths[column];
        let lines: Vec<Line> = chunk
            .iter()
            .map(|(keys, help)| {
                Line::from(vec![
                    Span::styled(format!(" {keys:<key_width$}  "), app.theme.key()),
                    Span::raw(*help),
                ])
            })
            .collect();
        frame.render_widget(Paragraph::new(lines), areas[column]);
    }
}

fn render_header(frame: &mut Frame, app: &LearnApp, area: Rect) {
    let (a, b) = app.pair;
    let line = Line::from(vec![
        Span::styled(
            format!(" Step {}/{STEPS}: {} ", app.step + 1, TITLES[app.step]),
            app.theme.selected(),
        ),
        Span::raw(format!(
            " {}  K={}  b={} r={}  t={:.2}  pair {}–{}",
            app.kind,
            app.num_perm,
            app.bands,
            app.rows,
            app.threshold,
            app.docs[a].id,
            app.docs[b].id
        )),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

fn render_footer(frame: &mut Frame, app: &LearnApp, area: Rect) {
    let line = match &app.message {
        Some(m) => Line::from(Span::styled(format!(" {m}"), app.theme.warning())),
        None => {
            // At 80 columns the labels shorten and the gaps narrow, so every key still shows.
            let narrow = area.width < 110;
            let mut spans = vec![Span::raw(" ")];
            for (key, what) in footer_entries() {
                // At 80 columns scrolling and the diff give way to the help, which lists
                // them.
                if narrow && matches!(what, "scroll" | "diff") {
                    continue;
                }
                let what = match (what, narrow) {
                    ("char/word", true) => "unit",
                    ("bands", true) => "b",
                    ("rows", true) => "r",
                    (w, _) => w,
                };
                spans.push(Span::styled(key, app.theme.key()));
                spans.push(Span::raw(format!(
                    " {what}{}",
                    if narrow { " " } else { "  " }
                )));
            }
            Line::from(spans)
        }
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
}
