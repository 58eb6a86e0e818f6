//! One-line texts cut to the width they are drawn in. ratatui clips a line at its area's edge
//! without a sign, so a cut count or title reads as if it were complete. The explorer's
//! one-line texts (panel titles, the status, message and footer lines, count lines, legends,
//! key help, the viewer's header, table ids) go through [`fit_line`], which ends a cut line
//! with `…`. Text previews in tables stay clipped at the edge: they are starts of documents.

use std::borrow::Cow;

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// What a cut line ends with.
pub const ELLIPSIS: &str = "…";

/// `line` as it fits in `width` display columns: unchanged when it fits (trailing spaces past
/// the edge are no loss), else shortened, never by cutting a word when a whole one can go:
/// whole items (parts set apart by two spaces or ` · `: a legend's entries, a footer's keys, a
/// title's facts) go from the right; failing that, whole words; and ` …` says that something
/// went. Only a line whose first word alone is too wide loses part of a word: a name (an id, a
/// path, a file: a word with a digit or one of `-_./\`) keeps its start and end around `…`
/// (`job-0…0909`), other words keep their start (`estim…`). Each span keeps its style; the
/// `…` takes the style of the first char that went. Width 0 gives an empty line.
pub fn fit_line<'a>(line: impl Into<Line<'a>>, width: u16) -> Line<'a> {
    let mut line = line.into();
    let width = usize::from(width);
    if visible_width(&line) <= width {
        return line;
    }
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let spans = std::mem::take(&mut line.spans);
    if width == 0 {
        return line;
    }
    let boundary = |room: usize| -> Option<usize> {
        let end = prefix_end(&text, room);
        let fits = |i: usize| i > 0 && i <= end && !text[..i].trim_end().is_empty();
        // Item boundaries first: the last one whose left side fits, if it keeps at least
        // half the room (else a long last item would go whole where words of it fit).
        let item = text
            .match_indices("  ")
            .chain(text.match_indices(FIELD_SEPARATOR))
            .map(|(i, _)| i)
            .filter(|&i| fits(i) && 2 * text[..i].width() >= room)
            .max();
        item.or_else(|| {
            // A word boundary: a space inside the room, or the room ending where a word does.
            let at_end = text[end..].starts_with(char::is_whitespace).then_some(end);
            at_end
                .into_iter()
                .chain(text[..end].rmatch_indices(' ').map(|(i, _)| i))
                .find(|&i| fits(i))
        })
    };
    let ellipsis_width = ELLIPSIS.width();
    if let Some(cut) = boundary(width.saturating_sub(ellipsis_width + 1)) {
        let keep = text[..cut].trim_end().len();
        line.spans = cut_spans(spans, keep, " …");
        return line;
    }
    // The first word alone does not fit.
    let word_end = text.find(char::is_whitespace).unwrap_or(text.len());
    let word = &text[..word_end];
    let room = width.saturating_sub(ellipsis_width);
    if is_name(word) && room >= 4 {
        let shortened = shorten_middle(word, width);
        let style = spans.first().map(|s| s.style).unwrap_or_default();
        line.spans = vec![Span::styled(shortened, style)];
        return line;
    }
    // One or two Latin letters of a word say nothing of it (`t…` for a heading): `…` alone.
    // A wide character (`日…`) says more, and stays.
    let keep = match prefix_end(&text, room) {
        keep if text[..keep].width() >= 3 || !text[..keep].is_ascii() => keep,
        _ => 0,
    };
    line.spans = cut_spans(spans, keep, ELLIPSIS);
    line
}

/// `spans` cut after their first `keep` bytes (a char boundary) and ended with `mark` in the
/// style of the first byte cut off (or of the last span kept).
fn cut_spans<'a>(spans: Vec<Span<'a>>, keep: usize, mark: &'static str) -> Vec<Span<'a>> {
    let mut kept = Vec::with_capacity(spans.len() + 1);
    let mut mark_style = spans.last().map(|s| s.style).unwrap_or_default();
    let mut used = 0;
    for span in spans {
        let len = span.content.len();
        if used + len <= keep {
            used += len;
            kept.push(span);
            continue;
        }
        mark_style = span.style;
        let end = keep - used;
        if end > 0 {
            let content = match span.content {
                Cow::Borrowed(s) => Cow::Borrowed(&s[..end]),
                Cow::Owned(mut s) => {
                    s.truncate(end);
                    Cow::Owned(s)
                }
            };
            kept.push(Span::styled(content, span.style));
        }
        break;
    }
    kept.push(Span::styled(mark, mark_style));
    kept
}

/// A word that names something (an id, a path, a file name, a number with its unit glued):
/// it has a digit or one of `-_./\`, so its end tells it apart as much as its start.
fn is_name(word: &str) -> bool {
    word.chars()
        .any(|c| c.is_ascii_digit() || "-_./\\".contains(c))
}

/// `word` in at most `width` columns with its middle replaced by `…`: the start keeps one
/// column more than the end (`job-000909` in 8: `job-…909`).
fn shorten_middle(word: &str, width: usize) -> String {
    if word.width() <= width {
        return word.to_string();
    }
    let room = width.saturating_sub(ELLIPSIS.width());
    let head_room = room.div_ceil(2);
    let head = &word[..prefix_end(word, head_room)];
    let tail_room = room - head.width();
    // The longest suffix at most `tail_room` wide.
    let mut tail_start = word.len();
    for (i, _) in word.char_indices().rev() {
        if word[i..].width() > tail_room {
            break;
        }
        tail_start = i;
    }
    format!("{head}{ELLIPSIS}{}", &word[tail_start..])
}

/// The width of `line` up to its last char that is not white space.
fn visible_width(line: &Line) -> usize {
    let mut trailing = 0;
    for span in line.spans.iter().rev() {
        let trimmed = span.content.trim_end();
        trailing += span.content[trimmed.len()..].width();
        if !trimmed.is_empty() {
            break;
        }
    }
    line.width() - trailing
}

/// The columns a bordered block's title has: its width without the two corners.
pub fn title_room(area: Rect) -> u16 {
    area.width.saturating_sub(2)
}

/// The widths ratatui's `Table` gives columns with `constraints` in `width` columns, as it
/// lays them out with its defaults (from the left, one column of spacing, no selection
/// column), so that cells can be cut to them with [`fit_line`].
pub fn table_column_widths(constraints: &[Constraint], width: u16) -> Vec<u16> {
    Layout::horizontal(constraints.iter().copied())
        .flex(Flex::Start)
        .spacing(1)
        .split(Rect::new(0, 0, width, 1))
        .iter()
        .map(|r| r.width)
        .collect()
}

/// One field of a line built from fields (the status line): what it says in full, a shorter
/// form for narrower terminals, and its rank (0 is kept longest).
#[derive(Debug, Clone)]
pub struct Field<'a> {
    pub rank: u8,
    pub full: Vec<Span<'a>>,
    pub short: Option<Vec<Span<'a>>>,
}

impl<'a> Field<'a> {
    pub fn new(rank: u8, full: impl Into<Line<'a>>) -> Self {
        Field {
            rank,
            full: full.into().spans,
            short: None,
        }
    }

    /// With a shorter form, used before any field is dropped.
    pub fn or_short(mut self, short: impl Into<Line<'a>>) -> Self {
        self.short = Some(short.into().spans);
        self
    }
}

/// What separates fields on a line.
pub const FIELD_SEPARATOR: &str = " · ";

/// `fields` joined by ` · ` in `width` columns, never cutting one in the middle while a
/// field can be spared: rank by rank from the highest, the rank's fields take their short
/// forms, then go (rightmost first), until the line fits. Rank 0 only takes its short forms
/// and is never dropped; if even that does not fit, the line is cut with `…`.
pub fn fit_fields<'a>(fields: Vec<Field<'a>>, width: u16) -> Line<'a> {
    fit_fields_with(fields, FIELD_SEPARATOR, width)
}

/// [`fit_fields`] with fields set apart by `separator` (the footer's two spaces).
pub fn fit_fields_with<'a>(
    fields: Vec<Field<'a>>,
    separator: &'static str,
    width: u16,
) -> Line<'a> {
    let width = usize::from(width);
    let span_width = |spans: &[Span]| spans.iter().map(Span::width).sum::<usize>();
    // (field, uses short form, kept)
    let mut state: Vec<(Field<'a>, bool, bool)> =
        fields.into_iter().map(|f| (f, false, true)).collect();
    let total = |state: &[(Field, bool, bool)]| {
        let kept: Vec<usize> = state
            .iter()
            .filter(|(_, _, kept)| *kept)
            .map(|(f, short, _)| match (&f.short, short) {
                (Some(s), true) => span_width(s),
                _ => span_width(&f.full),
            })
            .collect();
        kept.iter().sum::<usize>() + separator.width() * kept.len().saturating_sub(1)
    };
    let max_rank = state.iter().map(|(f, _, _)| f.rank).max().unwrap_or(0);
    'fit: for rank in (0..=max_rank).rev() {
        if total(&state) <= width {
            break;
        }
        for (f, short, _) in state.iter_mut() {
            if f.rank == rank && f.short.is_some() {
                *short = true;
            }
        }
        if rank == 0 {
            break;
        }
        for i in (0..state.len()).rev() {
            if total(&state) <= width {
                break 'fit;
            }
            if state[i].0.rank == rank {
                state[i].2 = false;
            }
        }
    }
    let mut spans = Vec::new();
    for (f, short, _) in state.into_iter().filter(|(_, _, kept)| *kept) {
        if !spans.is_empty() {
            spans.push(Span::raw(separator));
        }
        match (f.short, short) {
            (Some(s), true) => spans.extend(s),
            _ => spans.extend(f.full),
        }
    }
    fit_line(spans, width as u16)
}

/// A message (free text whose parts are joined by ` · `) as it fits in `width` columns, by
/// the status line's rule rather than a cut in mid-word: the paths in it lose leading folders
/// (`…/name.csv`; the last part's first, only as far as needed), then long names (ids, file
/// names) lose their middle (`libxfix…doctools`), and when that is not enough whole parts go
/// from the right (the first stays). A first part that does not fit even so loses whole
/// words from its end, marked ` …` ([`fit_line`]).
pub fn fit_message(text: &str, width: u16) -> String {
    let columns = usize::from(width);
    let parts: Vec<&str> = text.split(FIELD_SEPARATOR).collect();
    let mut line = String::new();
    for kept in (1..=parts.len()).rev() {
        line = shorten_paths(&parts[..kept], columns);
        if line.width() <= columns {
            return line;
        }
        // Names lose their middle only where that makes the line fit.
        let named = shorten_names(&line, columns);
        if named.width() <= columns {
            return named;
        }
    }
    fit_line(line, width)
        .spans
        .iter()
        .map(|s| s.content.as_ref())
        .collect()
}

/// `text` in `width` columns with only the folders of its paths shortened (`…/name.csv`),
/// every name whole; `None` when that is not enough (the first step of [`fit_message`]).
pub fn fit_folders(text: &str, width: u16) -> Option<String> {
    let columns = usize::from(width);
    let parts: Vec<&str> = text.split(FIELD_SEPARATOR).collect();
    let line = shorten_paths(&parts, columns);
    (line.width() <= columns).then_some(line)
}

/// Names in `line` at least [`NAME_KEPT`] + 3 columns wide lose their middle, the widest
/// first, down to [`NAME_KEPT`] columns, until the line fits in `width` or none is left.
fn shorten_names(line: &str, width: usize) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    let joined = |words: &[String]| words.join(" ");
    while joined(&words).width() > width {
        let Some((i, _)) = words
            .iter()
            .enumerate()
            .filter(|(_, w)| {
                let body = w.trim_start_matches(['…', '/', '\\']);
                is_name(w) && !body.contains(ELLIPSIS) && body.width() >= NAME_KEPT + 3
            })
            .max_by_key(|(_, w)| w.width())
        else {
            break;
        };
        // A shortened path's `…/` and punctuation after a name (`id:`) stay whole.
        let word = &words[i];
        let body = word.trim_end_matches(|c: char| ",;:)".contains(c));
        let rest = &word[body.len()..];
        let start = body.len() - body.trim_start_matches(['…', '/', '\\']).len();
        let (lead, body) = body.split_at(start);
        words[i] = format!("{lead}{}{rest}", shorten_middle(body, NAME_KEPT));
    }
    joined(&words)
}

/// The columns a name keeps when a message shortens it in the middle.
const NAME_KEPT: usize = 16;

/// `parts` joined by ` · `, with the paths in them shortened from the left (the last part's
/// last path first) until the line fits in `width` or every path is down to its file name.
fn shorten_paths(parts: &[&str], width: usize) -> String {
    let mut words: Vec<Vec<String>> = parts
        .iter()
        .map(|p| p.split(' ').map(str::to_string).collect())
        .collect();
    let joined = |words: &[Vec<String>]| {
        words
            .iter()
            .map(|w| w.join(" "))
            .collect::<Vec<_>>()
            .join(FIELD_SEPARATOR)
    };
    for part in (0..words.len()).rev() {
        for word in (0..words[part].len()).rev() {
            while joined(&words).width() > width {
                match shorter_path(&words[part][word]) {
                    Some(shorter) => words[part][word] = shorter,
                    None => break,
                }
            }
        }
    }
    joined(&words)
}

/// `word` with its first folder replaced by `…` (`/a/b/c.csv` → `…/b/c.csv` → `…/c.csv`),
/// or `None` when it is not a path or is down to its file name.
fn shorter_path(word: &str) -> Option<String> {
    // An opening bracket or quote before a path stays in front of it.
    let open = word.len() - word.trim_start_matches(['(', '[', '"', '\'']).len();
    let (open, word) = word.split_at(open);
    let sep = if word.contains('/') { '/' } else { '\\' };
    // A path, not a fraction (`20/20`, `(1/b)`): rooted, or two folders deep, with a letter.
    let rooted = word.starts_with([sep, '.', '~', '…']);
    if !(rooted || word.matches(sep).count() >= 2) || !word.chars().any(char::is_alphabetic) {
        return None;
    }
    let rest = word.strip_prefix(ELLIPSIS).unwrap_or(word);
    let rest = rest.strip_prefix(sep).unwrap_or(rest);
    let (_, tail) = rest.split_once(sep)?;
    Some(format!("{open}{ELLIPSIS}{sep}{tail}"))
}

/// The byte length of the longest prefix of `text` at most `room` columns wide, ending on a
/// char boundary. Zero-width chars (combining marks) after the last char that fits stay with
/// it. The prefix is measured again as a whole, as ratatui measures a span, because a
/// sequence such as an emoji with a variation selector is wider than its chars' sum.
fn prefix_end(text: &str, room: usize) -> usize {
    let mut used = 0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        used += c.width().unwrap_or(0);
        if used > room {
            break;
        }
        end = i + c.len_utf8();
    }
    while end > 0 && text[..end].width() > room {
        end = text[..end].char_indices().next_back().map_or(0, |(i, _)| i);
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Style};

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_line_that_fits_is_unchanged() {
        let line = fit_line("exactly ten", 11);
        assert_eq!(text(&line), "exactly ten");
        let line = fit_line("", 0);
        assert_eq!(text(&line), "");
        let line = fit_line("short", 80);
        assert_eq!(text(&line), "short");
    }

    #[test]
    fn a_cut_line_ends_with_an_ellipsis_within_its_width() {
        // Whole words go, and ` …` says so.
        let line = fit_line("exactly ten", 10);
        assert_eq!(text(&line), "exactly …");
        assert_eq!(line.width(), 9);
        // Whole items (two spaces or ` · ` apart) go before words.
        assert_eq!(
            text(&fit_line("s sort  f filter  y/n/u label", 20)),
            "s sort  f filter …"
        );
        assert_eq!(
            text(&fit_line("cost of every banding · candidate pairs", 36)),
            "cost of every banding …"
        );
        // A single word too wide: a name keeps its start and end, another word its start.
        assert_eq!(text(&fit_line("job-000909", 8)), "job-…909");
        assert_eq!(text(&fit_line("estimate", 6)), "estim…");
        assert_eq!(text(&fit_line("abc", 1)), "…");
        assert_eq!(text(&fit_line("text A", 2)), "…");
        assert_eq!(text(&fit_line("abc", 0)), "");
        assert_eq!(text(&fit_line("a", 1)), "a");
        assert_eq!(text(&fit_line("ab", 2)), "ab");
    }

    #[test]
    fn wide_chars_are_never_split_and_never_overflow() {
        // 日本語 is six columns: at five, 日本 (4) and … (1); at four, 日 (2) and … leave one
        // column empty rather than half a char.
        let line = fit_line("日本語", 5);
        assert_eq!(text(&line), "日本…");
        assert_eq!(line.width(), 5);
        let line = fit_line("日本語", 4);
        assert_eq!(text(&line), "日…");
        assert_eq!(line.width(), 3);
        assert_eq!(text(&fit_line("日本語", 6)), "日本語");
        assert_eq!(text(&fit_line("日本語", 2)), "…");
        // Multi-byte chars of width 1 are cut between chars, not inside one.
        assert_eq!(text(&fit_line("≈4.2 M ± 643.7 k", 8)), "≈4.2 M …");
        // A combining mark stays with the letter it follows.
        assert_eq!(text(&fit_line("cafe\u{301} au lait", 5)), "cafe\u{301}…");
        for width in 0..12 {
            let line = fit_line("ab日本語cd ≈ é", width);
            assert!(line.width() <= usize::from(width), "{width}: {line:?}");
        }
    }

    #[test]
    fn spans_keep_their_styles_and_the_ellipsis_takes_the_cut_ones() {
        let red = Style::default().fg(Color::Red);
        let blue = Style::default().fg(Color::Blue);
        let line = Line::from(vec![Span::styled("red ", red), Span::styled("blue", blue)]);
        // The word `blue` goes whole; the mark takes the style of the first char gone (the
        // space, red).
        let cut = fit_line(line.clone(), 6);
        assert_eq!(text(&cut), "red …");
        assert_eq!(cut.spans[0].style, red);
        assert_eq!(cut.spans.last().unwrap().style, red);
        // Cut exactly at a span's end: the next span is dropped and lends its style.
        let line2 = Line::from(vec![Span::styled("red", red), Span::styled(" blue", blue)]);
        let cut = fit_line(line2, 6);
        assert_eq!(text(&cut), "red …");
        assert_eq!(cut.spans.last().unwrap().style, blue);
        assert_eq!(fit_line(line.clone(), 8), line);
    }

    /// The widths match the ones `Table` draws with, also when its columns do not all fit:
    /// an id cut to its column's width shows its `…`, followed by the column spacing.
    #[test]
    fn table_columns_are_the_widths_the_table_draws() {
        use ratatui::Terminal;
        use ratatui::backend::TestBackend;
        use ratatui::widgets::{Row, Table};
        let id = "a-very-long-document-identifier";
        for width in [30u16, 44, 60, 90] {
            let constraints = [
                Constraint::Length(6),
                Constraint::Length(24),
                Constraint::Length(7),
                Constraint::Fill(1),
            ];
            let columns = table_column_widths(&constraints, width);
            let starts: Vec<u16> = columns
                .iter()
                .scan(0, |x, &w| {
                    let start = *x;
                    *x += w + 1;
                    Some(start)
                })
                .collect();
            let row = Row::new(vec![
                Line::from("1"),
                fit_line(id, columns[1]),
                Line::from("0.500"),
                Line::from("text"),
            ]);
            let mut terminal = Terminal::new(TestBackend::new(width, 1)).unwrap();
            terminal
                .draw(|frame| frame.render_widget(Table::new([row], constraints), frame.area()))
                .unwrap();
            let buffer = terminal.backend().buffer();
            let drawn: String = (starts[1]..starts[1] + columns[1])
                .map(|x| buffer[(x, 0)].symbol())
                .collect();
            assert_eq!(drawn, text(&fit_line(id, columns[1])), "width {width}");
            assert!(drawn.contains('…'), "width {width}: {drawn:?}");
            assert_eq!(buffer[(starts[2], 0)].symbol(), "0", "width {width}");
        }
    }

    #[test]
    fn fields_shorten_then_drop_by_rank_and_rank_zero_stays() {
        let fields = || {
            vec![
                Field::new(3, "20,000 docs").or_short("20 k docs"),
                Field::new(2, "7,048 candidates").or_short("7.0 k cand."),
                Field::new(4, "re-banded in 3 ms"),
                Field::new(0, "recall 91.9 %"),
                Field::new(0, "precision 14.4 %"),
            ]
        };
        let line = |w| text(&fit_fields(fields(), w));
        assert_eq!(
            line(200),
            "20,000 docs · 7,048 candidates · re-banded in 3 ms · recall 91.9 % · precision 14.4 %"
        );
        // Rank by rank from the least important: short forms, then the fields go.
        assert_eq!(
            line(84),
            "20,000 docs · 7,048 candidates · recall 91.9 % · precision 14.4 %"
        );
        assert_eq!(
            line(64),
            "20 k docs · 7,048 candidates · recall 91.9 % · precision 14.4 %"
        );
        assert_eq!(
            line(60),
            "7,048 candidates · recall 91.9 % · precision 14.4 %"
        );
        assert_eq!(line(50), "7.0 k cand. · recall 91.9 % · precision 14.4 %");
        // Rank 0 stays to the end.
        assert_eq!(line(34), "recall 91.9 % · precision 14.4 %");
        assert_eq!(line(20), "recall 91.9 % …");
        for w in 0..100 {
            let l = fit_fields(fields(), w);
            assert!(l.width() <= usize::from(w), "{w}: {}", text(&l));
        }
    }

    #[test]
    fn messages_shorten_paths_then_drop_parts_then_cut_between_words() {
        let text = "loaded 3 labels from /home/ana/projects/jobs/lshscope-sample.labels.csv \
                    (3 match this corpus)";
        assert_eq!(fit_message(text, 200), text);
        // Folders go from the left, one at a time, only as far as needed.
        assert_eq!(
            fit_message(text, 80),
            "loaded 3 labels from …/jobs/lshscope-sample.labels.csv (3 match this corpus)"
        );
        assert_eq!(
            fit_message(text, 72),
            "loaded 3 labels from …/lshscope-sample.labels.csv (3 match this corpus)"
        );
        // Then whole words go from the end.
        assert_eq!(
            fit_message(text, 60),
            "loaded 3 labels from …/lshscope-sample.labels.csv (3 match …"
        );
        // The last part's paths shorten first; when that is not enough, parts go whole from
        // the right, and the parts kept get their paths back.
        let two = "labels are saved to /data/x/labels.csv · exports go to /data/x/out";
        assert_eq!(
            fit_message(two, 60),
            "labels are saved to /data/x/labels.csv · exports go to …/out"
        );
        assert_eq!(
            fit_message(two, 40),
            "labels are saved to /data/x/labels.csv"
        );
        assert_eq!(fit_message(two, 34), "labels are saved to …/x/labels.csv");
        assert_eq!(fit_message(two, 33), "labels are saved to …/labels.csv");
        assert_eq!(fit_message(two, 30), "labels are saved to …");
        // A word wider than the line is cut inside, as it has to be.
        assert_eq!(fit_message("abcdefghij", 5), "abcd…");
        for w in 0..90 {
            assert!(fit_message(text, w).width() <= usize::from(w), "{w}");
            assert!(fit_message(two, w).width() <= usize::from(w), "{w}");
        }
    }

    /// What happened stays whole; the ids and the path are what shortens.
    #[test]
    fn a_label_message_keeps_what_happened_at_80_columns() {
        let text = "libxfixes-dev ⟷ xorg-sgml-doctools: duplicate: saved 1 label to \
                    /home/ana/audit/debian-copyright.csv.labels.csv";
        let fitted = fit_message(text, 80);
        assert_eq!(
            fitted,
            "libxfixes-dev ⟷ xorg-sgm…octools: duplicate: saved 1 label to …/debian-c…els.csv"
        );
        let fitted = fit_message(text, 70);
        assert_eq!(
            fitted,
            "libxfixes-dev ⟷ xorg-sgml-doctools: duplicate: saved 1 label to …"
        );
        for w in 0..120 {
            assert!(fit_message(text, w).width() <= usize::from(w), "{w}");
        }
    }

    #[test]
    fn trailing_spaces_past_the_edge_are_not_a_cut() {
        let line = Line::from(vec![
            Span::raw(" Title "),
            Span::raw("keys  "),
            Span::raw(" "),
        ]);
        assert_eq!(fit_line(line.clone(), 11), line);
        assert_eq!(text(&fit_line(line.clone(), 10)), " Title …");
        assert_eq!(text(&fit_line("   ", 1)), "   ");
    }
}
