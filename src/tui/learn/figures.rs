//! The figures of the walkthrough's table steps (documents, shingles, the characteristic
//! matrix, signatures, bands and buckets, verification; one-permutation hashing is drawn by
//! [`super::one_permutation`]) as lines the caller scrolls.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use lshscope_core::learn::jaccard;
use lshscope_core::text::ShingleKind;
use lshscope_core::util::numfmt::for_count;

use super::LearnApp;

/// Column label of document `d`: its id, clipped to `width`.
fn doc_label(app: &LearnApp, d: usize, width: usize) -> String {
    let id: String = app.docs[d].id.chars().take(width).collect();
    format!("{id:>width$}")
}

pub(super) fn clip(s: &str, n: usize) -> String {
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
pub(super) fn shown(app: &LearnApp, shingle: &str) -> String {
    match app.kind {
        ShingleKind::Char(_) => shingle.replace(' ', "␣"),
        ShingleKind::Word(_) => shingle.to_string(),
    }
}

pub(super) fn pair_style(app: &LearnApp, d: usize) -> Style {
    if d == app.pair.0 || d == app.pair.1 {
        app.theme.title()
    } else {
        Style::default()
    }
}

/// The figure of the table steps as lines (scrolled by the caller), one function a step.
pub(super) fn figure(app: &LearnApp, width: u16) -> Vec<Line<'static>> {
    let width = width as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    match app.step {
        0 => documents_figure(app, width, &mut lines),
        1 => shingles_figure(app, width, &mut lines),
        2 => matrix_figure(app, &mut lines),
        3 => permutations_figure(app, &mut lines),
        4 => hashes_figure(app, &mut lines),
        // Step 5 (one-permutation hashing) is drawn by `super::one_permutation`.
        5 => unreachable!("draw.rs draws the one-permutation step itself"),
        6 => bands_figure(app, width, &mut lines),
        _ => verification_figure(app, &mut lines),
    }
    lines
}

/// Step 0: each document, and below it its normalized text; the pair marked.
fn documents_figure(app: &LearnApp, width: usize, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let (a, b) = app.pair;
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

/// Step 1: the pair's Jaccard, then each document's shingles, the pair's shared ones marked.
fn shingles_figure(app: &LearnApp, width: usize, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let (a, b) = app.pair;
    let (inter, union, j) = jaccard(&w.shingles[a], &w.shingles[b]);
    let pair_name = format!("{}–{}", w.docs[a].id, w.docs[b].id);
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

/// Step 2: the characteristic matrix, a row per shingle and a column per document.
fn matrix_figure(app: &LearnApp, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let (a, b) = app.pair;
    let n = w.docs.len();
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

/// Step 3: the signatures from permutations, how often the pair agrees, and the first
/// permutation's rows with each column's first 1.
fn permutations_figure(app: &LearnApp, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let (a, b) = app.pair;
    let n = w.docs.len();
    let j = jaccard(&w.shingles[a], &w.shingles[b]).2;
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

/// Step 4: the signatures from hash functions, beside what the permutations gave.
fn hashes_figure(app: &LearnApp, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let (a, b) = app.pair;
    let n = w.docs.len();
    let j = jaccard(&w.shingles[a], &w.shingles[b]).2;
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

/// Step 6: the signature rows grouped in bands, each band's buckets, the rows left unused,
/// and the candidates.
fn bands_figure(app: &LearnApp, width: usize, lines: &mut Vec<Line<'static>>) {
    let w = &app.walk;
    let n = w.docs.len();
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
    let row = |p: &lshscope_core::learn::ExactPair, verdict: &str| {
        let fraction = format!("{}/{}", p.intersection, p.union);
        format!(
            "{:<pair_width$}  {fraction:>11}  {:>7.3}   {verdict}",
            name(p.a, p.b),
            p.jaccard
        )
    };
    let selected = |p: &lshscope_core::learn::ExactPair, style: Style| {
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
        // Two lines: the figure is clipped at the screen's edge, and one line is 106 columns.
        for part in [
            "no candidate fell below t here: fewer rows per band (r) let more pairs through,",
            "false positives among them",
        ] {
            lines.push(Line::styled(part, app.theme.dim()));
        }
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
pub(super) fn wrap_spans(
    spans: Vec<Span<'static>>,
    width: usize,
    indent: usize,
) -> Vec<Line<'static>> {
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
