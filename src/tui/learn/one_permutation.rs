//! The one-permutation step: the selected pair's shingles, each hashed once into one of K
//! bins; the K rows side by side, with the probes densification followed for each empty bin;
//! and the rows' agreement beside the exact Jaccard and the K hash functions' agreement.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use lshscope_core::learn::{OnePermutationRows, jaccard};
use lshscope_core::util::numfmt::for_count;

use super::LearnApp;
use super::figures::{clip, pair_style, shown, wrap_spans};

/// The step's figure as lines; the first (the pair's agreement) stays put while the rest
/// scrolls.
pub(super) fn one_permutation_figure(app: &LearnApp, width: usize) -> Vec<Line<'static>> {
    let w = &app.walk;
    let (a, b) = app.pair;
    let k = app.num_perm;
    let j = jaccard(&w.shingles[a], &w.shingles[b]).2;
    let agreement = w.one_permutation_agreement(a, b);
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("pair {}–{}: ", w.docs[a].id, w.docs[b].id),
            app.theme.title(),
        ),
        Span::raw(format!(
            "{} of {k} rows agree = {agreement:.3}  Jaccard {j:.3}  K hash functions {:.3}",
            (agreement * k as f64).round() as usize,
            w.hash_agreement(a, b)
        )),
    ])];
    // The document of the pair with the fewest shingles; one without shingles copies
    // nothing (all its rows stay empty, as its strip says).
    let fewest = [a, b]
        .into_iter()
        .filter(|&d| !w.shingles[d].is_empty())
        .min_by_key(|&d| w.shingles[d].len());
    if let Some(fewest) = fewest
        && k > w.shingles[fewest].len()
    {
        let n = w.shingles[fewest].len();
        // First under the pinned line, so it shows without scrolling at 80×24.
        let warning = format!(
            "K = {k} is more than the {n} {} of {}: at least {} bins must copy others, so rows \
             repeat each other and the estimate spreads more than K independent rows would \
             (measured at 10–20 shingles: 1.1–1.3× as wide, docs/families.md)",
            for_count(n as u64, "shingle", "shingles"),
            w.docs[fewest].id,
            k - n
        );
        // Word by word, so it wraps at the screen's width.
        let words = warning
            .split(' ')
            .map(|word| Span::styled(format!("{word} "), app.theme.warning()))
            .collect();
        lines.extend(wrap_spans(words, width, 0));
    }
    // Each shingle's one hash and its bin, in hash order (so in bin order).
    let wide = width >= 120;
    for d in [a, b] {
        let oph = &w.one_permutation[d];
        let mut order: Vec<usize> = (0..oph.hashes.len()).collect();
        order.sort_by_key(|&i| oph.hashes[i]);
        let mut spans = vec![Span::styled(
            format!("{:>3} ", clip(&w.docs[d].id, 3)),
            pair_style(app, d),
        )];
        if order.is_empty() {
            spans.push(Span::raw("no shingles: every row stays empty"));
        }
        for i in order {
            let shingle = shown(app, &w.shingles[d][i]);
            let text = if wide {
                format!("[{shingle} {:08x}→{}]", oph.hashes[i], oph.bins[i] + 1)
            } else {
                format!("[{shingle}→{}]", oph.bins[i] + 1)
            };
            spans.push(Span::raw(text));
            spans.push(Span::raw(" "));
        }
        lines.extend(wrap_spans(spans, width, 4));
    }
    lines.extend(rows_table(app, width));
    for d in [a, b] {
        let oph = &w.one_permutation[d];
        let n = w.shingles[d].len();
        let empty = oph.empty_bins();
        lines.push(Line::styled(
            format!(
                "{:>3}: {n} {} reached {} of {k} bins; {empty} empty {} copied",
                clip(&w.docs[d].id, 3),
                for_count(n as u64, "shingle", "shingles"),
                k - empty,
                for_count(empty as u64, "bin", "bins"),
            ),
            app.theme.dim(),
        ));
    }
    lines.push(Line::styled(
        "hex values; ← j (p,…): an empty bin, copied from bin j after probing bins p,…",
        app.theme.dim(),
    ));
    lines
}

/// The K rows of the pair side by side: an occupied bin's smallest hash and its shingle, an
/// empty bin's copy and the probes that found it, `=` where the pair agrees.
fn rows_table(app: &LearnApp, width: usize) -> Vec<Line<'static>> {
    let w = &app.walk;
    let (a, b) = app.pair;
    // "bin" + two cells + the agreement mark.
    let cell = (width.saturating_sub(4 + 3) / 2).clamp(12, 36);
    let mut head = String::from("bin ");
    for d in [a, b] {
        let id = format!("doc {}", w.docs[d].id);
        head.push_str(&format!("{:<cell$}", clip(&id, cell - 1)));
    }
    head.push_str("  =");
    let mut lines = vec![Line::styled(head, app.theme.title())];
    let (oa, ob) = (&w.one_permutation[a], &w.one_permutation[b]);
    for bin in 0..app.num_perm {
        let agree = oa.rows[bin] == ob.rows[bin] && !w.shingles[a].is_empty();
        let mut spans = vec![Span::raw(format!("{:>3} ", bin + 1))];
        for (d, oph) in [(a, oa), (b, ob)] {
            let text = format!("{:<cell$}", clip(&cell_text(app, d, oph, bin), cell - 1));
            let style = if agree {
                app.theme.shared()
            } else if oph.donor(bin).is_some() {
                app.theme.dim()
            } else {
                Style::default()
            };
            spans.push(Span::styled(text, style));
        }
        spans.push(Span::raw(if agree { "  =" } else { "  ≠" }));
        lines.push(Line::from(spans));
    }
    lines
}

/// One document's row of one bin: the value, then the shingle it came from or the copy.
fn cell_text(app: &LearnApp, d: usize, oph: &OnePermutationRows, bin: usize) -> String {
    let value = oph.rows[bin];
    if app.walk.shingles[d].is_empty() {
        return "empty (no shingles)".to_string();
    }
    match oph.donor(bin) {
        Some(donor) => {
            let probes: Vec<String> = oph.probes[bin]
                .iter()
                .map(|p| (p + 1).to_string())
                .collect();
            format!("{value:08x} ← {} ({})", donor + 1, probes.join(","))
        }
        None => {
            let shingle = (0..oph.hashes.len())
                .find(|&i| oph.bins[i] == bin && oph.hashes[i] == value)
                .map(|i| shown(app, &app.walk.shingles[d][i]))
                .unwrap_or_default();
            format!("{value:08x} {shingle}")
        }
    }
}
