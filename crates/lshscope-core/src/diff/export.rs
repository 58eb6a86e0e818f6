//! A pair's diff as a file a person can attach to a ticket: plain text in the word-diff style
//! of `git diff --word-diff=plain` (`[-deleted-]`, `{+inserted+}`, hunks with a little
//! context), or a standalone HTML page (inline CSS, the two texts side by side, aligned row by
//! row). [`render`] returns the text; [`write_diff`] writes it atomically.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use super::{Kind, MovedBlock, Row, Side, TextDiff, Unit};
use crate::Result;
use crate::util::numfmt::thousands;

/// Words of unchanged context shown on each side of a difference in the text export.
pub const CONTEXT_WORDS: usize = 10;
/// Characters of context for texts diffed character by character.
pub const CONTEXT_CHARS: usize = 24;

/// The format of an exported diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Plain text in the style of `git diff --word-diff=plain`: `[-deleted-]`, `{+inserted+}`,
    /// hunks with [`CONTEXT_WORDS`] words of context.
    Text,
    /// A standalone HTML page with inline CSS: the two texts side by side, aligned row by row.
    Html,
}

impl ExportFormat {
    /// HTML for a name ending in `.html` or `.htm` (any case), text otherwise.
    pub fn from_path(path: &Path) -> ExportFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm") => {
                ExportFormat::Html
            }
            _ => ExportFormat::Text,
        }
    }
}

/// What the export says about the pair besides the diff.
#[derive(Debug, Clone, Copy)]
pub struct PairInfo<'a> {
    /// Id of the left document, as the corpus names it.
    pub left_id: &'a str,
    /// Id of the right document.
    pub right_id: &'a str,
    /// Exact Jaccard of the two shingle sets, and the shingling it was measured with
    /// (`char:5`).
    pub jaccard: Option<(f64, &'a str)>,
    /// Where the documents come from (the input file), if known.
    pub source: Option<&'a str>,
}

/// The diff of `left` and `right` (the texts `diff` was computed on) in `format`.
pub fn render(
    format: ExportFormat,
    diff: &TextDiff,
    left: &str,
    right: &str,
    info: &PairInfo,
) -> String {
    debug_assert_eq!((left.len(), right.len()), (diff.left_len, diff.right_len));
    match format {
        ExportFormat::Text => to_text(diff, left, right, info),
        ExportFormat::Html => to_html(diff, left, right, info),
    }
}

/// Writes [`render`]'s output to `path`: complete or not at all.
pub fn write_diff(
    path: &Path,
    format: ExportFormat,
    diff: &TextDiff,
    left: &str,
    right: &str,
    info: &PairInfo,
) -> Result<()> {
    let out = render(format, diff, left, right, info);
    crate::io::atomic::write_atomically(path, |w| w.write_all(out.as_bytes()))
}

/// The plain-text export: a header (ids, Jaccard, summary, what was not compared) and one
/// hunk per group of nearby differences.
pub fn to_text(diff: &TextDiff, left: &str, right: &str, info: &PairInfo) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "--- a: {}", info.left_id);
    let _ = writeln!(out, "+++ b: {}", info.right_id);
    let (facts, notes) = header_lines(diff, info);
    for line in facts.iter().chain(&notes) {
        let _ = writeln!(out, "{line}");
    }
    if diff.differences.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "markers: [-only in a-] {{+only in b+}}, a change is [-a's-]{{+b's+}}; \
         @@ a:LINE:COLUMN b:LINE:COLUMN @@ starts a hunk"
    );
    if diff.moves.iter().any(|m| m.is_edited()) {
        let _ = writeln!(
            out,
            "a block moved with edits inside is [-as it was-](moved to @@ N, edited inside) \
             where it left and {{+as it is, a's and b's words marked inside+}}(moved from @@ N, \
             edited inside) where it arrived"
        );
    }
    let context = match diff.unit {
        Unit::Words => CONTEXT_WORDS,
        Unit::Chars => CONTEXT_CHARS,
    };
    let hunks = hunks(diff, context);
    // The hunk each row is in, for "moved, see @@ N".
    let hunk_of_row = |row: usize| hunks.iter().position(|h| h.contains(&row)).map(|h| h + 1);
    for (h, rows) in hunks.iter().enumerate() {
        let first = &diff.rows[rows.start];
        let body_start = |side: Side| {
            let row = if first.kind.is_equal() {
                &diff.rows[rows.start + 1]
            } else {
                first
            };
            row.range(side).start
        };
        let _ = writeln!(
            out,
            "\n@@ {}: a:{} b:{} @@",
            h + 1,
            line_column(left, body_start(Side::Left)),
            line_column(right, body_start(Side::Right)),
        );
        let mut body = String::new();
        let mut r = rows.start;
        while r < rows.end {
            let row = &diff.rows[r];
            if r > rows.start {
                body.push_str(gap_between(&diff.rows[r - 1], row, left, right));
            }
            // A moved block is written whole at each of its places: as it was where it left,
            // as it is (its edits marked inside) where it arrived.
            if let Some(block) = row.moved.map(|b| &diff.moves[b]) {
                let edited = if block.is_edited() {
                    ", edited inside"
                } else {
                    ""
                };
                if r == block.out_rows.start {
                    let _ = write!(
                        body,
                        "[-{}-](moved to @@ {}{edited})",
                        &left[block.left.clone()],
                        hunk_of_row(block.in_rows.start).unwrap_or(0)
                    );
                    r = block.out_rows.end;
                    continue;
                }
                if r == block.in_rows.start {
                    body.push_str("{+");
                    for (k, inner) in block.rows.iter().enumerate() {
                        if k > 0 {
                            body.push_str(gap_between(&block.rows[k - 1], inner, left, right));
                        }
                        write_row(&mut body, inner, left, right, Side::Right);
                    }
                    let _ = write!(
                        body,
                        "+}}(moved from @@ {}{edited})",
                        hunk_of_row(block.out_rows.start).unwrap_or(0)
                    );
                    r = block.in_rows.end;
                    continue;
                }
            }
            let l = &left[row.left.clone()];
            let rt = &right[row.right.clone()];
            match row.kind {
                Kind::Equal if r == rows.start => {
                    let from = tail_start(l, diff.unit, context);
                    if from > 0 {
                        body.push('…');
                    }
                    body.push_str(&l[from..]);
                }
                Kind::Equal if r + 1 == rows.end => {
                    let to = head_end(l, diff.unit, context);
                    body.push_str(&l[..to]);
                    if to < l.len() {
                        body.push('…');
                    }
                }
                Kind::Equal | Kind::Deleted | Kind::Inserted | Kind::Changed => {
                    write_row(&mut body, row, left, right, Side::Left)
                }
                Kind::MovedOut { to } => {
                    let _ = write!(
                        body,
                        "[-{l}-](moved to @@ {})",
                        hunk_of_row(to).unwrap_or(0)
                    );
                }
                Kind::MovedIn { from } => {
                    let _ = write!(
                        body,
                        "{{+{rt}+}}(moved from @@ {})",
                        hunk_of_row(from).unwrap_or(0)
                    );
                }
            }
            r += 1;
        }
        let _ = writeln!(out, "{body}");
    }
    out
}

/// A row in word-diff markers: an equal row's words as the text `equal` has them,
/// `[-a's-]`, `{+b's+}`, or both for a change.
fn write_row(body: &mut String, row: &Row, left: &str, right: &str, equal: Side) {
    let (l, r) = (&left[row.left.clone()], &right[row.right.clone()]);
    let _ = match row.kind {
        Kind::Equal if equal == Side::Left => write!(body, "{l}"),
        Kind::Equal => write!(body, "{r}"),
        Kind::Deleted => write!(body, "[-{l}-]"),
        Kind::Inserted => write!(body, "{{+{r}+}}"),
        Kind::Changed => write!(body, "[-{l}-]{{+{r}+}}"),
        Kind::MovedOut { .. } => write!(body, "[-{l}-]"),
        Kind::MovedIn { .. } => write!(body, "{{+{r}+}}"),
    };
}

/// The lines under the ids: the facts (source, Jaccard, the summary) and the notes about
/// what the bounds left out.
fn header_lines(diff: &TextDiff, info: &PairInfo) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    if let Some(source) = info.source {
        lines.push(format!("documents of {source}"));
    }
    if let Some((jaccard, shingling)) = info.jaccard {
        lines.push(format!("Jaccard {jaccard:.3} ({shingling} shingles)"));
    }
    let mut summary = diff.summary.describe(diff.unit);
    let unit = match diff.unit {
        Unit::Words => "word by word",
        Unit::Chars => "character by character",
    };
    // What is no difference here, so a reader does not look for it.
    summary += &match diff.folding.ignored() {
        Some(ignored) => format!(" (compared {unit}, ignoring {ignored})"),
        None => format!(" (compared {unit})"),
    };
    lines.push(summary);
    let mut notes = Vec::new();
    if let Some(cut) = diff.cut {
        notes.push(format!(
            "the comparison stopped at the cap of {} {} per text: a from byte {} of {} and b \
             from byte {} of {} on were not compared",
            thousands(cut.max_tokens as u64),
            diff.unit.noun(cut.max_tokens as u64),
            thousands(cut.left as u64),
            thousands(diff.left_len as u64),
            thousands(cut.right as u64),
            thousands(diff.right_len as u64),
        ));
    }
    if diff.approximate {
        notes.push(
            "the alignment ran out of time: past that point it shows more deleted and \
             inserted than the best alignment would"
                .to_string(),
        );
    }
    (lines, notes)
}

/// Groups differences whose unchanged run in between is at most `2 · context` words into
/// hunks; each hunk is a range of rows, with the equal rows of context at its ends.
fn hunks(diff: &TextDiff, context: usize) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for d in &diff.differences {
        let start = if d.start > 0 { d.start - 1 } else { d.start };
        let end = (d.end + 1).min(diff.rows.len());
        match out.last_mut() {
            Some(last)
                if last.end >= d.start && diff.rows[d.start - 1].left_tokens <= 2 * context =>
            {
                last.end = end
            }
            _ => out.push(start..end),
        }
    }
    out
}

/// The whitespace to print between two consecutive rows in one stream: the longer of the
/// two texts' gaps (one side is empty next to a deletion or an insertion).
fn gap_between<'t>(prev: &Row, next: &Row, left: &'t str, right: &'t str) -> &'t str {
    let l = &left[prev.left.end..next.left.start.max(prev.left.end)];
    let r = &right[prev.right.end..next.right.start.max(prev.right.end)];
    if l.len() >= r.len() { l } else { r }
}

/// Byte offset in `text` where its last `n` words (characters) begin.
fn tail_start(text: &str, unit: Unit, n: usize) -> usize {
    match unit {
        Unit::Chars => text
            .char_indices()
            .rev()
            .nth(n.saturating_sub(1))
            .map_or(0, |(i, _)| i),
        Unit::Words => {
            let mut seen = 0;
            let mut in_word = false;
            for (i, c) in text.char_indices().rev() {
                if c.is_whitespace() {
                    if in_word {
                        seen += 1;
                        if seen == n {
                            return i + c.len_utf8();
                        }
                    }
                    in_word = false;
                } else {
                    in_word = true;
                }
            }
            0
        }
    }
}

/// Byte offset in `text` where its first `n` words (characters) end.
fn head_end(text: &str, unit: Unit, n: usize) -> usize {
    match unit {
        Unit::Chars => text.char_indices().nth(n).map_or(text.len(), |(i, _)| i),
        Unit::Words => {
            let mut seen = 0;
            let mut in_word = false;
            for (i, c) in text.char_indices() {
                if c.is_whitespace() {
                    if in_word {
                        seen += 1;
                        if seen == n {
                            return i;
                        }
                    }
                    in_word = false;
                } else {
                    in_word = true;
                }
            }
            text.len()
        }
    }
}

/// `LINE:COLUMN` (both 1-based, the column in characters) of byte `at` of `text`.
fn line_column(text: &str, at: usize) -> String {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    format!("{line}:{column}")
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, safe inside HTML elements and quoted
/// attributes.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const HTML_STYLE: &str = "\
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.3em; }
.facts { margin: 0 0 1em 0; }
.facts p { margin: 0.2em 0; }
.note { color: #8a5300; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.5em; vertical-align: top; text-align: left; }
td { white-space: pre-wrap; overflow-wrap: anywhere; }
th.n, td.n { width: 3em; color: #888; font-weight: normal; }
tr.eq td { color: #888; }
del { background: #ffd7d5; text-decoration: line-through; }
ins { background: #ccf5d2; text-decoration: underline; }
.chg { background: #fff1b8; }
del.moved, ins.moved { background: #dde4ff; }
del.moved.chg, ins.moved.chg { background: #fff1b8; }
.was { color: #555; border-left: 3px solid #dde4ff; padding-left: 0.5em; margin: 0.3em 0; }
tr.cut td { font-style: italic; color: #888; }
.legend { margin-top: 1em; color: #555; }
";

/// The HTML export: a standalone page with the facts of the pair and the two texts side by
/// side, one table row per unchanged run or difference, so the two columns stay aligned.
pub fn to_html(diff: &TextDiff, left: &str, right: &str, info: &PairInfo) -> String {
    let (a, b) = (escape_html(info.left_id), escape_html(info.right_id));
    let mut out = String::with_capacity(left.len() + right.len() + 4096);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>lshscope diff: {a} and {b}</title>\n<style>\n{HTML_STYLE}</style>\n</head>\n\
         <body>\n<h1>What differs between <code>{a}</code> and <code>{b}</code></h1>\n\
         <div class=\"facts\">\n"
    );
    let (facts, notes) = header_lines(diff, info);
    for line in &facts {
        let _ = writeln!(out, "<p>{}</p>", escape_html(line));
    }
    for line in &notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape_html(line));
    }
    let _ = write!(
        out,
        "</div>\n<table>\n<thead><tr><th class=\"n\">#</th><th>a: {a}</th><th>b: {b}</th></tr>\
         </thead>\n<tbody>\n"
    );
    let blocks = diff.blocks();
    for (i, block) in blocks.iter().enumerate() {
        let (class, label) = match block.difference {
            Some(n) => (
                String::new(),
                format!("<td class=\"n\" id=\"d{0}\">{0}</td>", n + 1),
            ),
            None => (
                " class=\"eq\"".to_string(),
                "<td class=\"n\"></td>".to_string(),
            ),
        };
        let _ = write!(out, "<tr{class}>{label}");
        for (side, text) in [(Side::Left, left), (Side::Right, right)] {
            out.push_str("<td>");
            let Range { start, end } = diff.block_range(&blocks, i, side);
            let mut at = start;
            let difference_of = |n: usize| {
                diff.differences
                    .iter()
                    .position(|d| d.contains(&n))
                    .map_or(0, |d| d + 1)
            };
            for row_index in block.rows.clone() {
                let row = &diff.rows[row_index];
                let range = row.range(side);
                out.push_str(&escape_html(&text[at..range.start.max(at)]));
                at = range.end.max(at);
                let moved = row.moved.map(|b| &diff.moves[b]);
                // Where an edited block arrived, the left column shows it as it was, beside
                // the right column's block as it is: the two read side by side.
                if let Some(m) = moved
                    && side == Side::Left
                    && m.is_edited()
                    && row_index == m.in_rows.start
                {
                    write_block_as_it_was(&mut out, m, left, difference_of(m.out_rows.start));
                }
                if range.is_empty() {
                    continue;
                }
                let words = escape_html(&text[range.clone()]);
                // The first row of a block at each place links to the other place.
                let link = |to: usize, arrow: &str, what: &str| match moved {
                    Some(m) if row_index == m.out_rows.start || row_index == m.in_rows.start => {
                        let n = difference_of(to);
                        format!(" title=\"{what} {n}\"><a href=\"#d{n}\">{arrow}{n}</a> ")
                    }
                    _ => ">".to_string(),
                };
                let _ = match (row.kind, side, moved) {
                    (Kind::Equal, _, _) => write!(out, "{words}"),
                    // Edits inside a moved block.
                    (Kind::Deleted, _, Some(m)) => write!(
                        out,
                        "<del class=\"moved chg\"{}{words}</del>",
                        link(m.in_rows.start, "→", "moved to")
                    ),
                    (Kind::Inserted, _, Some(m)) => write!(
                        out,
                        "<ins class=\"moved chg\"{}{words}</ins>",
                        link(m.out_rows.start, "←", "moved from")
                    ),
                    (Kind::Deleted, _, None) => write!(out, "<del>{words}</del>"),
                    (Kind::Inserted, _, None) => write!(out, "<ins>{words}</ins>"),
                    (Kind::Changed, Side::Left, _) => {
                        write!(out, "<del class=\"chg\">{words}</del>")
                    }
                    (Kind::Changed, Side::Right, _) => {
                        write!(out, "<ins class=\"chg\">{words}</ins>")
                    }
                    (Kind::MovedOut { to }, _, _) => write!(
                        out,
                        "<del class=\"moved\"{}{words}</del>",
                        link(to, "→", "moved to")
                    ),
                    (Kind::MovedIn { from }, _, _) => write!(
                        out,
                        "<ins class=\"moved\"{}{words}</ins>",
                        link(from, "←", "moved from")
                    ),
                };
            }
            out.push_str(&escape_html(&text[at..end.max(at)]));
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    if let Some(cut) = diff.cut {
        let _ = writeln!(
            out,
            "<tr class=\"cut\"><td class=\"n\"></td><td>… {} more bytes not compared</td>\
             <td>… {} more bytes not compared</td></tr>",
            thousands((diff.left_len - cut.left) as u64),
            thousands((diff.right_len - cut.right) as u64)
        );
    }
    let _ = write!(
        out,
        "</tbody>\n</table>\n<p class=\"legend\"><del>struck out</del>: only in a; \
         <ins>underlined</ins>: only in b; <del class=\"chg\">a's</del> \
         <ins class=\"chg\">b's</ins> words of a change; <del class=\"moved\">moved</del> \
         runs link to where they went, the words a move changed inside them \
         <ins class=\"moved chg\">in yellow</ins>, and where a block with edits arrived \
         its old wording stands beside it. Unchanged text is grey.</p>\n\
         <p class=\"legend\">Made by lshscope.</p>\n</body>\n</html>\n"
    );
    out
}

/// Moved block `block` as it was, for the left column where it arrived: its words as the
/// left text has them, those the move changed in a change's colour, after a link to the
/// difference `from` it left.
fn write_block_as_it_was(out: &mut String, block: &MovedBlock, left: &str, from: usize) {
    let _ = write!(
        out,
        "<div class=\"was\"><a href=\"#d{from}\">←{from}</a> as it was there: "
    );
    let mut at = block.left.start;
    for row in block.rows.iter().filter(|r| !r.left.is_empty()) {
        out.push_str(&escape_html(&left[at..row.left.start]));
        let words = escape_html(&left[row.left.clone()]);
        if row.kind.is_equal() {
            out.push_str(&words);
        } else {
            let _ = write!(out, "<del class=\"chg\">{words}</del>");
        }
        at = row.left.end;
    }
    out.push_str("</div>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_offsets() {
        let t = "one two  three\nfour";
        assert_eq!(&t[tail_start(t, Unit::Words, 2)..], "three\nfour");
        assert_eq!(&t[..head_end(t, Unit::Words, 2)], "one two");
        assert_eq!(tail_start(t, Unit::Words, 9), 0);
        assert_eq!(head_end(t, Unit::Words, 9), t.len());
        assert_eq!(
            &"日本語です"[tail_start("日本語です", Unit::Chars, 2)..],
            "です"
        );
        assert_eq!(
            &"日本語です"[..head_end("日本語です", Unit::Chars, 2)],
            "日本"
        );
        assert_eq!(line_column("ab\ncdé f", 8), "2:5");
    }

    #[test]
    fn format_from_path() {
        assert_eq!(
            ExportFormat::from_path(Path::new("x.HTML")),
            ExportFormat::Html
        );
        assert_eq!(
            ExportFormat::from_path(Path::new("x.htm")),
            ExportFormat::Html
        );
        assert_eq!(
            ExportFormat::from_path(Path::new("x.txt")),
            ExportFormat::Text
        );
        assert_eq!(ExportFormat::from_path(Path::new("x")), ExportFormat::Text);
    }
}
