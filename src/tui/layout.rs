//! Screen geometry as pure functions of the terminal size, shared by the renderer and by
//! [`App::update`](crate::tui::app::App::update) (mouse hits, page sizes, scrolling limits),
//! so both always agree on where things are.

use std::ops::Range;

use ratatui::layout::{Constraint, Layout, Rect};
use unicode_width::UnicodeWidthChar;

/// Smallest terminal the explorer draws in; below it, a message asks for more room.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

pub fn too_small(size: (u16, u16)) -> bool {
    size.0 < MIN_WIDTH || size.1 < MIN_HEIGHT
}

fn screen(size: (u16, u16)) -> Rect {
    Rect::new(0, 0, size.0, size.1)
}

/// The main screen: S-curve and histogram side by side, pair list, status line, footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MainLayout {
    pub curve: Rect,
    pub histogram: Rect,
    pub pairs: Rect,
    pub status: Rect,
    pub message: Rect,
    pub footer: Rect,
}

pub fn main_layout(size: (u16, u16)) -> MainLayout {
    let area = screen(size);
    let top_height = (area.height.saturating_sub(3) * 11 / 20).max(12);
    let [top, pairs, status, message, footer] = Layout::vertical([
        Constraint::Length(top_height),
        Constraint::Min(5),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [curve, histogram] =
        Layout::horizontal([Constraint::Percentage(42), Constraint::Percentage(58)]).areas(top);
    MainLayout {
        curve,
        histogram,
        pairs,
        status,
        message,
        footer,
    }
}

/// Rows of pairs the list shows (inside the border, below the header).
pub fn pair_list_rows(size: (u16, u16)) -> usize {
    main_layout(size).pairs.height.saturating_sub(3) as usize
}

/// Where the histogram draws inside its panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistogramGeometry {
    /// The bars (and the overlaid S-curve): every column right of the y labels, so that the
    /// bars span the panel whatever its width.
    pub plot: Rect,
    /// How many bins share the plot's columns.
    pub bins: u16,
    /// Y-axis labels to the left of the plot.
    pub y_labels: Rect,
    /// Tick labels under the plot.
    pub x_axis: Rect,
    /// Labelled precision per bin, under the axis.
    pub precision: Rect,
    /// Counts below/above t and the selected bin.
    pub info: Rect,
}

/// Width of the y-axis labels of the histogram.
pub const Y_LABEL_WIDTH: u16 = 7;

pub fn histogram_geometry(panel: Rect, bins: usize) -> HistogramGeometry {
    let inner = Rect {
        x: panel.x + 1,
        y: panel.y + 1,
        width: panel.width.saturating_sub(2),
        height: panel.height.saturating_sub(2),
    };
    let bins = bins.max(1) as u16;
    // One column of the inner width stays free at the right, beside the border.
    let avail = inner.width.saturating_sub(Y_LABEL_WIDTH + 1);
    let plot_height = inner.height.saturating_sub(4);
    let plot = Rect {
        x: inner.x + Y_LABEL_WIDTH,
        y: inner.y,
        width: avail,
        height: plot_height,
    };
    let row = |i: u16| Rect {
        x: inner.x,
        y: inner.y + plot_height + i,
        width: inner.width,
        height: 1,
    };
    HistogramGeometry {
        plot,
        bins,
        y_labels: Rect {
            x: inner.x,
            y: inner.y,
            width: Y_LABEL_WIDTH,
            height: plot_height,
        },
        x_axis: row(0),
        precision: row(1),
        info: Rect {
            height: 2,
            ..row(2)
        },
    }
}

impl HistogramGeometry {
    /// The plot's columns (from its left edge) that draw `bin`. The bins share the columns
    /// as evenly as whole columns allow: bin `i` starts at column `⌊i · width / bins⌋`, so
    /// widths differ by one column at most and a bin's edges sit where its similarities
    /// fall on the x axis (and under the S-curve drawn over the bars).
    pub fn bin_columns(&self, bin: usize) -> Range<u16> {
        let start = |i: usize| (i * usize::from(self.plot.width) / usize::from(self.bins)) as u16;
        start(bin)..start(bin + 1)
    }

    /// The bin drawn in plot column `column` (from the plot's left edge).
    pub fn bin_of_column(&self, column: u16) -> usize {
        let (column, width) = (usize::from(column), usize::from(self.plot.width).max(1));
        // The last bin whose first column is at or before `column`.
        ((column + 1) * usize::from(self.bins)).div_ceil(width) - 1
    }

    /// The bin under screen column `x`, if `x` is over the plot.
    pub fn bin_at(&self, x: u16) -> Option<usize> {
        (x >= self.plot.x && x < self.plot.x + self.plot.width)
            .then(|| self.bin_of_column(x - self.plot.x))
    }
}

/// The pair viewer: header, band strip (and band values), two texts, status, footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewerLayout {
    pub header: Rect,
    pub strip: Rect,
    pub left: Rect,
    pub right: Rect,
    pub status: Rect,
    pub message: Rect,
    pub footer: Rect,
}

/// Rows of the band strip: one line of cells (wrapped if b is large), plus one line per band
/// when the values are shown, capped to leave room for the texts.
fn strip_height(size: (u16, u16), show_values: bool, bands: usize) -> u16 {
    let cell_rows = (bands as u16 * 2)
        .div_ceil(size.0.saturating_sub(4).max(2))
        .max(1);
    let values = if show_values {
        (bands as u16 + 1).min(size.1.saturating_sub(16) / 2)
    } else {
        0
    };
    cell_rows + values + 2
}

pub fn viewer_layout(size: (u16, u16), show_values: bool, bands: usize) -> ViewerLayout {
    let area = screen(size);
    let [header, strip, texts, status, message, footer] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(strip_height(size, show_values, bands)),
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(texts);
    ViewerLayout {
        header,
        strip,
        left,
        right,
        status,
        message,
        footer,
    }
}

/// Text columns' inner width (inside the borders).
pub fn viewer_text_width(size: (u16, u16)) -> usize {
    viewer_layout(size, false, 1).left.width.saturating_sub(2) as usize
}

/// Text lines visible in each column.
pub fn viewer_text_rows(size: (u16, u16), show_values: bool, bands: usize) -> usize {
    viewer_layout(size, show_values, bands)
        .left
        .height
        .saturating_sub(2) as usize
}

/// A rectangle of `width` × `height` centred in `area` (clipped to it).
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// How the text panes draw `c` of a document, one cell for one char: a tab, and the other
/// white space that is a control character (vertical tab, form feed, next line), as one
/// space, so that the words they separate stay apart on screen (a tab stop would make one
/// char several cells, and a pane's rows wrap anyway); any other control character as
/// nothing, so that no escape sequence of a document reaches the terminal. Line breaks are
/// the wrapper's ([`line_break_len`]): they end a row and are never drawn.
pub fn shown_char(c: char) -> Option<char> {
    if c.is_control() {
        return c.is_whitespace().then_some(' ');
    }
    Some(c)
}

/// The columns `c` takes as the text panes draw it ([`shown_char`]).
pub fn shown_width(c: char) -> usize {
    shown_char(c).map_or(0, |c| c.width().unwrap_or(0))
}

/// `text` as the text panes draw it ([`shown_char`]), for a stretch without line breaks.
pub fn shown_text(text: &str) -> String {
    text.chars().filter_map(shown_char).collect()
}

/// The bytes of the line break that starts at byte `at` of `text`: 2 for `\r\n`, 1 for a
/// `\n` or for a `\r` alone (how classic Mac files, and some exports, end their lines), 0 when
/// none starts there. A lone `\r` drawn as nothing would glue the last word of a line to the
/// first of the next.
pub fn line_break_len(text: &str, at: usize) -> usize {
    match text.as_bytes().get(at..).unwrap_or_default() {
        [b'\r', b'\n', ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        _ => 0,
    }
}

/// Greedy word wrap of `text` into byte ranges of at most `width` display columns, as the
/// panes draw it ([`shown_width`]). Words longer than a line are split; line breaks
/// ([`line_break_len`]) end a line and are left out of it.
pub fn wrap_ranges(text: &str, width: usize) -> Vec<Range<usize>> {
    let width = width.max(1);
    let mut lines = Vec::new();
    for (para_start, para) in split_lines(text) {
        let mut line_start = para_start;
        let mut line_width = 0usize;
        // The last place a line may break (after a space), as (byte, width up to there).
        let mut last_break: Option<(usize, usize)> = None;
        for (i, ch) in para.char_indices() {
            let pos = para_start + i;
            let w = shown_width(ch);
            if line_width + w > width && line_width > 0 {
                match last_break {
                    Some((brk, brk_width)) if brk > line_start => {
                        lines.push(line_start..brk);
                        line_start = brk;
                        line_width -= brk_width;
                    }
                    _ => {
                        lines.push(line_start..pos);
                        line_start = pos;
                        line_width = 0;
                    }
                }
                last_break = None;
            }
            line_width += w;
            // A tab is drawn as a space: a line may break after it too.
            if shown_char(ch) == Some(' ') {
                last_break = Some((pos + ch.len_utf8(), line_width));
            }
        }
        lines.push(line_start..para_start + para.len());
    }
    lines
}

/// Lines of `text` without their line breaks ([`line_break_len`]), with their byte offsets.
fn split_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while let Some(k) = text[at..].find(['\n', '\r']) {
        let end = at + k;
        out.push((start, &text[start..end]));
        at = end + line_break_len(text, end);
        start = at;
    }
    // The last line, unless the text ends with a line break (which ends a line, and starts
    // none); an empty text is one empty line.
    if start < text.len() || out.is_empty() {
        out.push((start, &text[start..]));
    }
    out
}

/// Number of lines `text` wraps to at `width`.
pub fn wrapped_line_count(text: &str, width: usize) -> usize {
    wrap_ranges(text, width).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_and_splits_long_words() {
        let text = "the quick brown fox";
        let lines: Vec<&str> = wrap_ranges(text, 10)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(lines, ["the quick ", "brown fox"]);
        let text = "abcdefghijkl";
        let lines: Vec<&str> = wrap_ranges(text, 5).into_iter().map(|r| &text[r]).collect();
        assert_eq!(lines, ["abcde", "fghij", "kl"]);
        let text = "one\ntwo";
        let lines: Vec<&str> = wrap_ranges(text, 10)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(lines, ["one", "two"]);
        assert_eq!(wrapped_line_count("", 10), 1);
    }

    /// A tab is one column and a place to break; `\r\n` and a lone `\r` end a line as `\n`
    /// does, and no line holds a line break.
    #[test]
    fn tabs_take_a_column_and_every_line_break_ends_a_line() {
        let lines = |text: &str, width: usize| -> Vec<String> {
            wrap_ranges(text, width)
                .into_iter()
                .map(|r| text[r].to_string())
                .collect()
        };
        assert_eq!(lines("col1\tcol2\tcol3", 8), ["col1\t", "col2\t", "col3"]);
        assert_eq!(lines("col1\tcol2", 9), ["col1\tcol2"]);
        assert_eq!(
            lines("one\rtwo\r\nthree\n\rfour\r", 20),
            ["one", "two", "three", "", "four"]
        );
        assert_eq!(lines("one\r\n\r\ntwo", 20), ["one", "", "two"]);
        assert_eq!(shown_text("a\tb\x1b[31mc\x07d\x0ce"), "a b[31mcd e");
        assert_eq!(line_break_len("a\r\n", 1), 2);
        assert_eq!(line_break_len("a\r\n", 2), 1);
        assert_eq!(line_break_len("a\r", 0), 0);
        assert_eq!(line_break_len("a\r", 9), 0);
    }

    /// At 80 columns 20 bins do not divide the plot's width: the bars still take every
    /// column right of the y labels, each column in exactly one bin, no bin empty of columns.
    #[test]
    fn histogram_bins_share_the_whole_plot_width() {
        for width in [80, 100, 101, 160] {
            let panel = main_layout((width, 24)).histogram;
            let g = histogram_geometry(panel, 20);
            assert_eq!(g.plot.x, panel.x + 1 + Y_LABEL_WIDTH);
            assert_eq!(g.plot.right(), panel.right() - 2, "at {width} columns");
            let mut next = 0;
            for bin in 0..20 {
                let columns = g.bin_columns(bin);
                assert_eq!(columns.start, next, "bin {bin} at {width} columns");
                assert!(!columns.is_empty(), "bin {bin} at {width} columns");
                assert!(columns.len() <= g.plot.width.div_ceil(20) as usize);
                for c in columns.clone() {
                    assert_eq!(g.bin_of_column(c), bin, "column {c} at {width} columns");
                    assert_eq!(g.bin_at(g.plot.x + c), Some(bin));
                }
                next = columns.end;
            }
            assert_eq!(next, g.plot.width);
            assert_eq!(g.bin_at(g.plot.right()), None);
        }
    }
}
