//! A pair's diff as a file a person can attach to a ticket: plain text in the word-diff style
//! of `git diff --word-diff=plain` (`[-deleted-]`, `{+inserted+}`, hunks with a little
//! context), or a standalone HTML page (inline CSS, the two texts side by side, aligned row by
//! row). [`render`] returns the text; [`write_diff`] writes it atomically.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use super::{Kind, Side, TextDiff, Unit};
use crate::Result;
use crate::util::numfmt::thousands;

/// Words of unchanged context shown on each side of a difference in the text export.
pub const CONTEXT_WORDS: usize = 10;
/// Characters of context for texts diffed character by character.
pub const CONTEXT_CHARS: usize = 24;

/// The format of an exported diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Text,
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
    pub left_id: &'a str,
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
        for r in rows.clone() {
            let row = &diff.rows[r];
            if r > rows.start {
                body.push_str(gap_between(diff, left, right, r));
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
                Kind::Equal => body.push_str(l),
                Kind::Deleted => {
                    let _ = write!(body, "[-{l}-]");
                }
                Kind::Inserted => {
                    let _ = write!(body, "{{+{rt}+}}");
                }
                Kind::Changed => {
                    let _ = write!(body, "[-{l}-]{{+{rt}+}}");
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
        }
        let _ = writeln!(out, "{body}");
    }
    out
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

/// The whitespace to print between row `row - 1` and row `row` in one stream: the longer of
/// the two texts' gaps (one side is empty next to a deletion or an insertion).
fn gap_between<'t>(diff: &TextDiff, left: &'t str, right: &'t str, row: usize) -> &'t str {
    let (prev, next) = (&diff.rows[row - 1], &diff.rows[row]);
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
            for row_index in block.rows.clone() {
                let row = &diff.rows[row_index];
                let range = row.range(side);
                out.push_str(&escape_html(&text[at..range.start.max(at)]));
                at = range.end.max(at);
                let words = escape_html(&text[range.clone()]);
                if range.is_empty() {
                    continue;
                }
                let moved = |n: usize| {
                    diff.differences
                        .iter()
                        .position(|d| d.contains(&n))
                        .map_or(0, |d| d + 1)
                };
                let _ = match (row.kind, side) {
                    (Kind::Equal, _) => write!(out, "{words}"),
                    (Kind::Deleted, _) => write!(out, "<del>{words}</del>"),
                    (Kind::Inserted, _) => write!(out, "<ins>{words}</ins>"),
                    (Kind::Changed, Side::Left) => write!(out, "<del class=\"chg\">{words}</del>"),
                    (Kind::Changed, Side::Right) => {
                        write!(out, "<ins class=\"chg\">{words}</ins>")
                    }
                    (Kind::MovedOut { to }, _) => write!(
                        out,
                        "<del class=\"moved\" title=\"moved to {0}\"><a href=\"#d{0}\">→{0}</a> \
                         {words}</del>",
                        moved(to)
                    ),
                    (Kind::MovedIn { from }, _) => write!(
                        out,
                        "<ins class=\"moved\" title=\"moved from {0}\"><a href=\"#d{0}\">←{0}</a> \
                         {words}</ins>",
                        moved(from)
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
         runs link to where they went. Unchanged text is grey.</p>\n\
         <p class=\"legend\">Made by lshscope.</p>\n</body>\n</html>\n"
    );
    out
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
