//! Drawing the walkthrough: a pure function of [`LearnApp`], one figure per step.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Wrap};

use crate::learn::{jaccard, scurve_steps};
use crate::minhash::scurve::{approximate_threshold, candidate_probability};
use crate::numfmt::for_count;
use crate::text::ShingleKind;

use super::{LEARN_KEYS, LearnApp, STEPS, footer_entries};
use crate::tui::keys::keys_label;

pub const TITLES: [&str; STEPS] = [
    "Documents",
    "Shingles and Jaccard",
    "The characteristic matrix",
    "Permutations → signatures",
    "Hash functions",
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
        5 => format!(
            "Cut each signature into b = {b} {bands} of r = {r} {rows}. Documents whose r values \
             agree in a band land in the same bucket; any shared bucket makes the pair a \
             candidate. Only candidates are ever compared exactly."
        ),
        6 => format!(
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
    let explanation = explanation(app);
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
    if app.step == SCURVE_STEP {
        render_scurve_step(frame, app, body);
    } else {
        let mut lines = figure(app, body.width);
        // On the long figures (shingle lists, the matrix) the first line, the pair's figures
        // or the column heads, stays put while the rest scrolls.
        let body = if matches!(app.step, 1 | 2) && body.height > 2 && !lines.is_empty() {
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
const SCURVE_STEP: usize = 6;

/// The key help over the step: every row of [`LEARN_KEYS`], its keys and what they do, in
/// two columns when one does not fit the screen's height.
fn render_help(frame: &mut Frame, app: &LearnApp, area: Rect) {
    let entries: Vec<(String, &str)> = LEARN_KEYS.iter().map(|b| (keys_label(b), b.help)).collect();
    let key_width = entries
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let rows_fit = area.height.saturating_sub(2) as usize;
    let columns = if entries.len() <= rows_fit { 1 } else { 2 };
    let per_column = entries.len().div_ceil(columns);
    let column_width = entries
        .iter()
        .map(|(_, h)| key_width + 2 + h.chars().count())
        .max()
        .unwrap_or(0);
    let width = ((column_width + 2) * columns + 2).min(area.width as usize) as u16;
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
    let areas =
        Layout::horizontal(vec![Constraint::Ratio(1, columns as u32); columns]).split(inner);
    for (column, chunk) in entries.chunks(per_column).enumerate() {
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
                // At 80 columns scrolling gives way to the help, which lists it.
                if narrow && what == "scroll" {
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

/// Column label of document `d`: its id, clipped to `width`.
fn doc_label(app: &LearnApp, d: usize, width: usize) -> String {
    let id: String = app.docs[d].id.chars().take(width).collect();
    format!("{id:>width$}")
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(n.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// A shingle as shown: spaces inside character shingles become `␣`, so "a b" and "ab " can
/// be told apart.
fn shown(app: &LearnApp, shingle: &str) -> String {
    match app.kind {
        ShingleKind::Char(_) => shingle.replace(' ', "␣"),
        ShingleKind::Word(_) => shingle.to_string(),
    }
}

fn pair_style(app: &LearnApp, d: usize) -> Style {
    if d == app.pair.0 || d == app.pair.1 {
        app.theme.title()
    } else {
        Style::default()
    }
}

/// The figure of steps 1–6 as lines (scrolled by the caller).
fn figure(app: &LearnApp, width: u16) -> Vec<Line<'static>> {
    let w = &app.walk;
    let (a, b) = app.pair;
    let n = w.docs.len();
    let width = width as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    let (inter, union, j) = jaccard(&w.shingles[a], &w.shingles[b]);
    let pair_name = format!("{}–{}", w.docs[a].id, w.docs[b].id);
    match app.step {
        0 => {
            for (d, doc) in w.docs.iter().enumerate() {
                let mark = if d == a || d == b { "▸" } else { " " };
                lines.push(Line::styled(
                    format!(
                        "{mark}{:>3}  {}",
                        doc.id,
                        clip(&doc.text, width.saturating_sub(6))
                    ),
                    pair_style(app, d),
                ));
                lines.push(Line::styled(
                    format!("      → {}", clip(&doc.normalized, width.saturating_sub(8))),
                    app.theme.dim(),
                ));
            }
        }
        1 => {
            lines.push(Line::from(vec![
                Span::styled(format!("pair {pair_name}: "), app.theme.title()),
                Span::raw(format!(
                    "|A∩B| = {inter}   |A∪B| = {union}   Jaccard = {inter}/{union} = {j:.3}"
                )),
            ]));
            for (d, set) in w.shingles.iter().enumerate() {
                let mark = if d == a || d == b { "▸" } else { " " };
                let mut spans = vec![Span::styled(
                    format!("{mark}{:>3} ", w.docs[d].id),
                    pair_style(app, d),
                )];
                for s in set {
                    let shared = (d == a || d == b)
                        && w.shingles[a].binary_search(s).is_ok()
                        && w.shingles[b].binary_search(s).is_ok();
                    let style = if shared {
                        app.theme.shared()
                    } else {
                        Style::default()
                    };
                    spans.push(Span::styled(format!("[{}]", shown(app, s)), style));
                    spans.push(Span::raw(" "));
                }
                // Wrap by hand so the shingles of one document stay together.
                lines.extend(wrap_spans(spans, width, 5));
            }
        }
        2 => {
            let label = 16;
            let mut head = format!("{:<label$}", format!("{} shingles", w.universe.len()));
            for d in 0..n {
                head.push_str(&doc_label(app, d, 4));
            }
            lines.push(Line::styled(head, app.theme.title()));
            for (row, s) in w.universe.iter().enumerate() {
                let mut spans = vec![Span::raw(format!(
                    "{:<label$}",
                    clip(&shown(app, s), label - 1)
                ))];
                for d in 0..n {
                    let one = w.matrix[row][d];
                    let style = if one && (d == a || d == b) {
                        app.theme.shared()
                    } else if one {
                        Style::default()
                    } else {
                        app.theme.dim()
                    };
                    spans.push(Span::raw("   "));
                    spans.push(Span::styled(if one { "1" } else { "0" }, style));
                }
                lines.push(Line::from(spans));
            }
        }
        3 => {
            lines.push(signature_head(app, "perm"));
            for k in 0..w.permutations.len() {
                let cells: Vec<String> = (0..n)
                    .map(|d| format!("{:>4}", w.perm_signatures[k][d] + 1))
                    .collect();
                lines.push(signature_row(app, format!("{:<4}", k + 1), &cells, k));
            }
            lines.push(agreement_line(app, w.perm_agreement(a, b), j));
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                "permutation 1: the rows shuffled, each column's first 1 in [ ]",
                app.theme.title(),
            ));
            let order = w.permuted_rows(0);
            let mut seen = vec![false; n];
            for (pos, &row) in order.iter().enumerate() {
                let mut text = format!(
                    "{:>3} {:<12}",
                    pos + 1,
                    clip(&shown(app, &w.universe[row]), 11)
                );
                for (d, first) in seen.iter_mut().enumerate() {
                    let one = w.matrix[row][d];
                    if one && !*first {
                        *first = true;
                        text.push_str(" [1]");
                    } else {
                        text.push_str(if one { "  1 " } else { "  0 " });
                    }
                }
                lines.push(Line::raw(text));
            }
        }
        4 => {
            lines.push(signature_head(app, "hash"));
            for k in 0..w.hash_signatures.len() {
                let cells: Vec<String> = (0..n)
                    .map(|d| format!(" {:08x}", w.hash_signatures[k][d]))
                    .collect();
                lines.push(signature_row(app, format!("h{:<3}", k + 1), &cells, k));
            }
            lines.push(agreement_line(app, w.hash_agreement(a, b), j));
            lines.push(Line::styled(
                format!(
                    "permutations gave {:.3}: both estimate J = {j:.3}, closer as K grows (P)",
                    w.perm_agreement(a, b)
                ),
                app.theme.dim(),
            ));
            lines.push(Line::styled(
                "values in hexadecimal; rows where the pair agrees are marked =",
                app.theme.dim(),
            ));
        }
        5 => {
            lines.push(signature_head(app, "band"));
            let buckets = w.buckets(app.bands, app.rows);
            for (band, groups) in buckets.iter().enumerate() {
                for r in 0..app.rows {
                    let k = band * app.rows + r;
                    let cells: Vec<String> = (0..n)
                        .map(|d| format!(" {:08x}", w.hash_signatures[k][d]))
                        .collect();
                    let label = if r == 0 {
                        format!("{:<4}", band + 1)
                    } else {
                        "    ".to_string()
                    };
                    lines.push(signature_row(app, label, &cells, k));
                }
                let shared: Vec<String> = groups
                    .values()
                    .filter(|docs| docs.len() > 1)
                    .map(|docs| {
                        let ids: Vec<&str> = docs.iter().map(|&d| w.docs[d].id.as_str()).collect();
                        format!("{{{}}}", ids.join(","))
                    })
                    .collect();
                lines.push(Line::styled(
                    format!(
                        "    → {} {}; shared: {}",
                        groups.len(),
                        for_count(groups.len() as u64, "bucket", "buckets"),
                        if shared.is_empty() {
                            "none".to_string()
                        } else {
                            shared.join(" ")
                        }
                    ),
                    app.theme.dim(),
                ));
            }
            let unused = app.num_perm - app.bands * app.rows;
            if unused > 0 {
                lines.push(Line::styled(
                    format!(
                        "({unused} of the K = {} rows {} not used by this banding)",
                        app.num_perm,
                        for_count(unused as u64, "is", "are")
                    ),
                    app.theme.dim(),
                ));
            }
            let candidates = w.candidates(app.bands, app.rows);
            let mut spans = vec![Span::styled("candidates: ", app.theme.title())];
            if candidates.is_empty() {
                spans.push(Span::raw("none"));
            }
            for &(x, y) in &candidates {
                let s = jaccard(&w.shingles[x], &w.shingles[y]).2;
                let style = if (x, y) == app.pair {
                    app.theme.shared()
                } else {
                    Style::default()
                };
                spans.push(Span::styled(
                    format!("{}–{} (J {s:.2})", w.docs[x].id, w.docs[y].id),
                    style,
                ));
                spans.push(Span::raw("  "));
            }
            lines.extend(wrap_spans(spans, width, 12));
        }
        _ => verification_figure(app, &mut lines),
    }
    lines
}

/// The last step: each candidate with its exact Jaccard and verdict at t, then the false
/// negatives, then what verification cost against comparing every pair.
fn verification_figure(app: &LearnApp, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let t = app.threshold;
    let v = w.verify(app.bands, app.rows, t);
    let name = |a: usize, b: usize| format!("{}–{}", w.docs[a].id, w.docs[b].id);
    let names: Vec<String> = v
        .kept
        .iter()
        .chain(&v.dropped)
        .chain(&v.missed)
        .map(|p| name(p.a, p.b))
        .collect();
    let pair_width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    lines.push(Line::styled(
        format!(
            "{:<pair_width$}  |A∩B|/|A∪B|  Jaccard   verdict at t = {t:.2}",
            "pair"
        ),
        app.theme.title(),
    ));
    let row = |p: &crate::learn::ExactPair, verdict: &str| {
        let fraction = format!("{}/{}", p.intersection, p.union);
        format!(
            "{:<pair_width$}  {fraction:>11}  {:>7.3}   {verdict}",
            name(p.a, p.b),
            p.jaccard
        )
    };
    let selected = |p: &crate::learn::ExactPair, style: Style| {
        if (p.a, p.b) == app.pair {
            style.patch(app.theme.shared())
        } else {
            style
        }
    };
    if v.comparisons() == 0 {
        lines.push(Line::raw(
            "no candidates under this banding: nothing to verify",
        ));
    }
    for p in &v.kept {
        lines.push(Line::styled(
            row(p, "kept: a near-duplicate"),
            selected(p, Style::default()),
        ));
    }
    for p in &v.dropped {
        lines.push(Line::styled(
            row(p, "dropped: a false positive (below t)"),
            selected(p, app.theme.dim()),
        ));
    }
    if v.dropped.is_empty() && v.comparisons() > 0 {
        lines.push(Line::styled(
            "no candidate fell below t here: fewer rows per band (r) let more pairs through, \
             false positives among them",
            app.theme.dim(),
        ));
    }
    lines.push(Line::raw(""));
    let missed: Vec<String> = v
        .missed
        .iter()
        .map(|p| format!("{} ({:.3})", name(p.a, p.b), p.jaccard))
        .collect();
    lines.push(Line::raw(format!(
        "false negatives, at or above t but never candidates: {}",
        if missed.is_empty() {
            "none".to_string()
        } else {
            missed.join("  ")
        }
    )));
    lines.push(Line::from(vec![
        Span::styled("result: ", app.theme.title()),
        Span::raw(format!(
            "{} kept of {} {}, {} exact {} instead of all {} {}",
            v.kept.len(),
            v.comparisons(),
            for_count(v.comparisons() as u64, "candidate", "candidates"),
            v.comparisons(),
            for_count(v.comparisons() as u64, "comparison", "comparisons"),
            v.all_pairs,
            for_count(v.all_pairs as u64, "pair", "pairs"),
        )),
    ]));
}

fn signature_head(app: &LearnApp, first: &str) -> Line<'static> {
    let cell = if app.step == 3 { 4 } else { 9 };
    let mut head = format!("{first:<4}");
    for d in 0..app.docs.len() {
        head.push_str(&doc_label(app, d, cell));
    }
    // The column of `=`/`≠` marks: does the selected pair agree on this row?
    head.push_str("  =");
    Line::styled(head, app.theme.title())
}

/// One row of a signature matrix, with `=` at the end where the selected pair agrees.
fn signature_row(app: &LearnApp, label: String, cells: &[String], k: usize) -> Line<'static> {
    let (a, b) = app.pair;
    let sig = |d: usize| {
        if app.step == 3 {
            app.walk.perm_signatures[k][d] as u64
        } else {
            app.walk.hash_signatures[k][d] as u64
        }
    };
    let agree = sig(a) == sig(b);
    let mut spans = vec![Span::raw(label)];
    for (d, c) in cells.iter().enumerate() {
        let style = if (d == a || d == b) && agree {
            app.theme.shared()
        } else {
            pair_style(app, d)
        };
        spans.push(Span::styled(c.clone(), style));
    }
    spans.push(Span::raw(if agree { "  =" } else { "  ≠" }));
    Line::from(spans)
}

fn agreement_line(app: &LearnApp, agreement: f64, j: f64) -> Line<'static> {
    let (a, b) = app.pair;
    let k = app.num_perm;
    Line::from(vec![
        Span::styled(
            format!("pair {}–{}: ", app.docs[a].id, app.docs[b].id),
            app.theme.title(),
        ),
        Span::raw(format!(
            "{} of {k} rows agree = {agreement:.3}; true Jaccard {j:.3}",
            (agreement * k as f64).round() as usize
        )),
    ])
}

/// Breaks `spans` into lines of at most `width` columns, continuation lines indented.
fn wrap_spans(spans: Vec<Span<'static>>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in spans {
        let len = span.content.chars().count();
        if used + len > width && used > indent {
            lines.push(Line::from(std::mem::take(&mut current)));
            current.push(Span::raw(" ".repeat(indent)));
            used = indent;
            if span.content.trim().is_empty() {
                continue;
            }
        }
        used += len;
        current.push(span);
    }
    if !current.is_empty() {
        lines.push(Line::from(current));
    }
    lines
}

/// Step 7: the intermediate numbers for the selected pair, the user's threshold t with P(t)
/// beside the curve's steep point (1/b)^(1/r) (two different numbers, named apart), the false
/// positives and negatives at t among these documents, a legend, and the curve.
fn render_scurve_step(frame: &mut Frame, app: &LearnApp, area: Rect) {
    let (bands, rows) = (app.bands, app.rows);
    let w = &app.walk;
    let (a, b) = app.pair;
    let s = app.pair_jaccard();
    let st = scurve_steps(s, bands, rows);
    let t = app.threshold;
    let p_t = candidate_probability(t, bands, rows);
    let steep = approximate_threshold(bands, rows);
    let p_steep = candidate_probability(steep, bands, rows);
    let candidates = w.candidates(bands, rows);
    let verification = w.verify(bands, rows, t);
    let list = |v: &[crate::learn::ExactPair]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|p| format!("{}–{} ({:.2})", w.docs[p.a].id, w.docs[p.b].id, p.jaccard))
                .collect::<Vec<_>>()
                .join("  ")
        }
    };
    let threshold_style = Style::default().fg(app.theme.threshold());
    let mut lines = vec![
        Line::from(vec![
            Span::styled(
                format!("pair {}–{}: ", w.docs[a].id, w.docs[b].id),
                app.theme.title(),
            ),
            Span::raw(format!("s = {s:.4}   r = {rows}   b = {bands}")),
        ]),
        Line::raw(format!(
            "s^r = {:.6}   1 − s^r = {:.6}   (1 − s^r)^b = {:.6}",
            st.s_pow_r, st.band_miss, st.all_bands_miss
        )),
        Line::from(vec![
            Span::raw("P(s) = 1 − (1 − s^r)^b = "),
            Span::styled(format!("{:.6}", st.candidate), app.theme.shared()),
            Span::raw(format!(
                "   ({})",
                if candidates.contains(&(a, b)) {
                    "a candidate here"
                } else {
                    "not a candidate here"
                }
            )),
        ]),
        Line::raw(format!(
            "your threshold t = {t:.2} (< >): pairs at or above it are wanted; P(t) = {p_t:.3}"
        )),
        Line::raw(format!(
            "the curve's steep point ≈ (1/b)^(1/r) = {steep:.3}: set by b and r, not by you"
        )),
        Line::raw(format!(
            "false positives (candidates below t): {}",
            list(&verification.dropped)
        )),
        Line::raw(format!(
            "false negatives (at or above t, not candidates): {}",
            list(&verification.missed)
        )),
    ];
    if area.height < 16 {
        // A short screen keeps the pair's numbers and the two thresholds.
        lines.truncate(5);
    }
    // The legend: what each mark of the chart is, each entry kept whole on one line.
    let (pair_a, pair_b) = (&w.docs[a].id, &w.docs[b].id);
    let legend = [
        (
            "⣀⠔⠊ ",
            Style::default().fg(app.theme.curve()),
            format!("P(s), b={bands} r={rows}"),
        ),
        ("│ ", threshold_style, format!("your threshold t = {t:.2}")),
        (
            "◆ ",
            app.theme.warning(),
            format!("steep point (1/b)^(1/r) = {steep:.2}"),
        ),
        (
            "█ ",
            app.theme.shared(),
            format!("pair {pair_a}–{pair_b}: P = {:.3}", st.candidate),
        ),
    ];
    let mut legend_lines: Vec<Line> = Vec::new();
    let mut current: Vec<Span> = Vec::new();
    let mut used = 0;
    for (mark, style, label) in legend {
        let len = mark.chars().count() + label.chars().count() + 3;
        if used > 0 && used + len > area.width as usize {
            legend_lines.push(Line::from(std::mem::take(&mut current)));
            used = 0;
        }
        used += len;
        current.push(Span::styled(mark, style));
        current.push(Span::raw(format!("{label}   ")));
    }
    legend_lines.push(Line::from(current));
    lines.push(Line::raw(""));
    lines.append(&mut legend_lines);
    let text_height = (lines.len() as u16).min(area.height.saturating_sub(4));
    let [text, chart] =
        Layout::vertical([Constraint::Length(text_height), Constraint::Min(4)]).areas(area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), text);

    let curve: Vec<(f64, f64)> = (0..=100)
        .map(|i| {
            let x = i as f64 / 100.0;
            (x, candidate_probability(x, bands, rows))
        })
        .collect();
    let point = [(s, st.candidate)];
    let steep_point = [(steep, p_steep)];
    let threshold_line = [(t, 0.0), (t, 1.0)];
    // Drawn in this order so the pair's block and the steep point stay on top of the lines.
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(threshold_style)
            .data(&threshold_line),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(app.theme.curve()))
            .data(&curve),
        Dataset::default()
            .marker(Marker::Custom('◆'))
            .graph_type(GraphType::Scatter)
            .style(app.theme.warning())
            .data(&steep_point),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(app.theme.shared())
            .data(&point),
    ];
    let axis_style = app.theme.dim();
    frame.render_widget(
        Chart::new(datasets)
            .legend_position(None)
            .x_axis(
                Axis::default()
                    .title("Jaccard s")
                    .style(axis_style)
                    .bounds([0.0, 1.0])
                    .labels(["0", "1"]),
            )
            .y_axis(
                Axis::default()
                    .title("P")
                    .style(axis_style)
                    .bounds([0.0, 1.0])
                    .labels(Y_LABELS),
            ),
        chart,
    );
    // 0.5 under the column where a line at s = 0.5 would draw.
    crate::tui::ui::scurve::value_labels(frame, chart, &Y_LABELS, 1, &[(0.5, "0.5")], axis_style);
}

/// The walkthrough chart's y labels.
const Y_LABELS: [&str; 3] = ["0", "0.5", "1"];
