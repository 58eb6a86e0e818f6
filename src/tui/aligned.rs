//! The two texts of a diff laid out side by side so that they stay level: the screen rows of
//! both panes, computed once per pair and pane width (not per frame).
//!
//! Each pane wraps its own text, word by word, as prose flows; the two are kept level at
//! every block of [`TextDiff::blocks`] (each equal run and each difference): before a block
//! is placed, the row its first word would land on is found in each pane, and the pane that
//! would place it higher is padded with filler rows down to the other's. An equal run that
//! wraps also starts at the same column in both panes (on a fresh row in both when it would
//! not), so its words wrap alike and stay side by side; one that ends on the row it starts
//! on cannot drift and flows on where each pane is. So every block starts on the same screen row
//! in both panes and they scroll as one; a one-word change of the same width inside a
//! sentence costs nothing, and a deleted paragraph leaves as many filler rows in the other
//! pane as it takes.
//!
//! The layout is bounded: the diff compares at most [`lshscope_core::diff::DEFAULT_MAX_TOKENS`]
//! words per text, and of what lies past that cap at most [`MAX_UNCOMPARED_BYTES`] per text
//! is laid out (a last row says how much more there is), so a 10 MB pair costs one pass over
//! a few hundred kilobytes when it opens and nothing per frame.

use std::ops::Range;

use unicode_width::UnicodeWidthChar;

use lshscope_core::diff::{Segment, Side, TextDiff};

/// Of the text past the diff's size cap, at most this many bytes per side are laid out.
pub const MAX_UNCOMPARED_BYTES: usize = 64 * 1024;

/// One screen row of one pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScreenRow {
    /// These bytes of the text (line breaks excluded).
    Text(Range<usize>),
    /// Padding: the other pane has more here.
    Filler,
    /// The last row when the text past the cap was not all laid out: this many bytes more.
    Omitted(usize),
}

/// Both panes' rows, equally many, and where each difference starts.
#[derive(Debug, Clone, PartialEq)]
pub struct AlignedLayout {
    /// The pane width (columns) the rows were wrapped to.
    pub width: usize,
    pub left: Vec<ScreenRow>,
    pub right: Vec<ScreenRow>,
    /// For difference `k` of [`TextDiff::differences`], the row it starts on (in both panes).
    pub difference_rows: Vec<usize>,
    /// Each side's segments ([`TextDiff::segments`]), kept to style the rows drawn.
    pub left_segments: Vec<Segment>,
    pub right_segments: Vec<Segment>,
}

impl AlignedLayout {
    /// Screen rows of the layout (the same in both panes).
    pub fn len(&self) -> usize {
        self.left.len()
    }

    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    pub fn rows(&self, side: Side) -> &[ScreenRow] {
        match side {
            Side::Left => &self.left,
            Side::Right => &self.right,
        }
    }

    pub fn segments(&self, side: Side) -> &[Segment] {
        match side {
            Side::Left => &self.left_segments,
            Side::Right => &self.right_segments,
        }
    }
}

/// Lays out `left` and `right` (the texts `diff` was computed on) in panes `width` columns
/// wide.
pub fn align(diff: &TextDiff, left: &str, right: &str, width: usize) -> AlignedLayout {
    let width = width.max(1);
    let mut panes = [Flow::new(left, width), Flow::new(right, width)];
    let sides = [Side::Left, Side::Right];
    let blocks = diff.blocks();
    let mut difference_rows = vec![0; diff.differences.len()];
    for i in 0..blocks.len() {
        let ranges = sides.map(|side| diff.block_range(&blocks, i, side));
        let row = level(&mut panes, &ranges, blocks[i].difference.is_none());
        if let Some(k) = blocks[i].difference {
            difference_rows[k] = row;
        }
        for (pane, range) in panes.iter_mut().zip(ranges) {
            pane.feed(range);
        }
    }
    if blocks.is_empty() {
        // No word compared (empty or blank texts): their whitespace, as it is.
        for (pane, side) in panes.iter_mut().zip(sides) {
            pane.feed(0..diff.compared_len(side));
        }
    }
    // Past the cap: level once, then each side's uncompared text, bounded.
    let tails = sides.map(|side| {
        let (from, to) = (diff.compared_len(side), diff.len(side));
        let text = if side == Side::Left { left } else { right };
        let mut end = to.min(from + MAX_UNCOMPARED_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        (from..end, to - end)
    });
    if tails.iter().any(|(range, _)| !range.is_empty()) {
        level(&mut panes, &tails.clone().map(|(range, _)| range), false);
        for (pane, (range, _)) in panes.iter_mut().zip(tails.clone()) {
            pane.feed(range);
        }
    }
    for (pane, (_, omitted)) in panes.iter_mut().zip(tails) {
        pane.close_open_row();
        if omitted > 0 {
            pane.rows.push(ScreenRow::Omitted(omitted));
        }
    }
    let rows = panes.iter().map(|p| p.rows.len()).max().unwrap_or(0).max(1);
    for pane in &mut panes {
        if pane.rows.is_empty() {
            pane.rows.push(ScreenRow::Text(0..0));
        }
        pane.rows.resize(rows, ScreenRow::Filler);
    }
    let [left_pane, right_pane] = panes;
    AlignedLayout {
        width,
        left: left_pane.rows,
        right: right_pane.rows,
        difference_rows,
        left_segments: diff.segments(Side::Left),
        right_segments: diff.segments(Side::Right),
    }
}

/// Pads the pane that would place its next range higher down to the other's row, so both
/// start it on the same screen row; returns that row. Equal text (`equal`) must also start
/// at the same column, or the same words would wrap differently and drift apart: unless they
/// already would, both panes start it on a fresh row.
fn level(panes: &mut [Flow; 2], ranges: &[Range<usize>; 2], equal: bool) -> usize {
    let landing = [panes[0].landing(&ranges[0]), panes[1].landing(&ranges[1])];
    // Equal text that ends on the row it starts on in both panes cannot drift: it may start
    // at different columns.
    let fits = |i: usize| panes[i].fits_on_open_row(&ranges[i]);
    let same_row_and_fits = landing[0].0 == landing[1].0 && fits(0) && fits(1);
    if equal && landing[0] != landing[1] && !same_row_and_fits {
        let row = panes.iter().map(Flow::fresh_row).max().unwrap_or(0);
        for pane in panes.iter_mut() {
            pane.pad_to(row);
        }
        return row;
    }
    let row = landing[0].0.max(landing[1].0);
    for (pane, (at, _)) in panes.iter_mut().zip(landing) {
        if at < row {
            pane.pad_to(row);
        }
    }
    row
}

/// One pane being wrapped: closed rows, and the open row being filled.
struct Flow<'t> {
    text: &'t str,
    width: usize,
    rows: Vec<ScreenRow>,
    /// Bytes on the open row so far; `None` while it is empty.
    open: Option<Range<usize>>,
    /// Columns used on the open row (spaces at its end included: they hang past the edge).
    column: usize,
}

impl<'t> Flow<'t> {
    fn new(text: &'t str, width: usize) -> Self {
        Flow {
            text,
            width,
            rows: Vec::new(),
            open: None,
            column: 0,
        }
    }

    /// The row and column the first word of `range` would be placed at.
    fn landing(&self, range: &Range<usize>) -> (usize, usize) {
        let first_word: usize = self.text[range.clone()]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .map(char_width)
            .sum();
        if self.column > 0 && first_word > 0 && self.column + first_word > self.width {
            (self.rows.len() + 1, 0)
        } else {
            (self.rows.len(), self.column)
        }
    }

    /// Whether all of `range` (its trailing whitespace aside) fits on the open row.
    fn fits_on_open_row(&self, range: &Range<usize>) -> bool {
        let text = self.text[range.clone()].trim_end();
        !text.contains('\n')
            && self.column + text.chars().map(char_width).sum::<usize>() <= self.width
    }

    /// The first row nothing is on yet.
    fn fresh_row(&self) -> usize {
        self.rows.len() + self.open.is_some() as usize
    }

    /// Ends the open row here and adds filler rows until `row` is the open one.
    fn pad_to(&mut self, row: usize) {
        if self.open.is_some() {
            self.close_open_row();
        }
        while self.rows.len() < row {
            self.rows.push(ScreenRow::Filler);
        }
    }

    fn close_open_row(&mut self) {
        if let Some(open) = self.open.take() {
            self.rows.push(ScreenRow::Text(open));
        }
        self.column = 0;
    }

    /// Puts bytes `from..to` on the open row.
    fn put(&mut self, from: usize, to: usize, columns: usize) {
        match &mut self.open {
            Some(open) => open.end = to,
            None => self.open = Some(from..to),
        }
        self.column += columns;
    }

    /// Wraps `range` onto the rows: words move whole to the next row when they do not fit
    /// (a word wider than the pane is cut), spaces hang at the end of a row, a line break
    /// ends the row (two make an empty row, as paragraphs are written).
    fn feed(&mut self, range: Range<usize>) {
        let text = self.text;
        let mut at = range.start;
        while at < range.end {
            let c = text[at..].chars().next().expect("a char boundary");
            if c == '\n' {
                match self.open.take() {
                    Some(open) => self.rows.push(ScreenRow::Text(open)),
                    None => self.rows.push(ScreenRow::Text(at..at)),
                }
                self.column = 0;
                at += 1;
                continue;
            }
            if c.is_whitespace() {
                self.put(at, at + c.len_utf8(), char_width(c));
                at += c.len_utf8();
                continue;
            }
            let word_end = text[at..range.end]
                .find(char::is_whitespace)
                .map_or(range.end, |i| at + i);
            let word = &text[at..word_end];
            let columns: usize = word.chars().map(char_width).sum();
            if self.column > 0 && self.column + columns > self.width {
                self.close_open_row();
            }
            if columns <= self.width {
                self.put(at, word_end, columns);
            } else {
                // Longer than a row: cut where the row is full.
                for (i, c) in word.char_indices() {
                    let w = char_width(c);
                    if self.column > 0 && self.column + w > self.width {
                        self.close_open_row();
                    }
                    self.put(at + i, at + i + c.len_utf8(), w);
                }
            }
            at = word_end;
        }
    }
}

/// Columns `c` takes; a tab is drawn as one space ([`crate::tui::ui::diff::pane_lines`]),
/// other control characters take none.
fn char_width(c: char) -> usize {
    if c == '\t' { 1 } else { c.width().unwrap_or(0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lshscope_core::diff::{DiffOptions, diff_texts};

    /// The layout as the panes would show it: `left | right` per row, `~` for a filler.
    fn picture(a: &str, b: &str, width: usize) -> Vec<String> {
        let diff = diff_texts(a, b, &DiffOptions::default());
        let layout = align(&diff, a, b, width);
        let cell = |text: &str, row: &ScreenRow| match row {
            ScreenRow::Text(r) => text[r.clone()].trim_end().to_string(),
            ScreenRow::Filler => "~".to_string(),
            ScreenRow::Omitted(n) => format!("… {n} more bytes"),
        };
        layout
            .left
            .iter()
            .zip(&layout.right)
            .map(|(l, r)| format!("{} | {}", cell(a, l), cell(b, r)))
            .collect()
    }

    /// The row of each equal block in each pane: the row holding its first byte.
    fn equal_block_rows(a: &str, b: &str, width: usize) -> Vec<(usize, usize)> {
        let diff = diff_texts(a, b, &DiffOptions::default());
        let layout = align(&diff, a, b, width);
        let row_of = |rows: &[ScreenRow], byte: usize| {
            rows.iter()
                .position(|r| matches!(r, ScreenRow::Text(t) if t.contains(&byte)))
                .unwrap()
        };
        diff.rows
            .iter()
            .filter(|r| r.kind.is_equal())
            .map(|r| {
                (
                    row_of(&layout.left, r.left.start),
                    row_of(&layout.right, r.right.start),
                )
            })
            .collect()
    }

    #[test]
    fn equal_text_after_an_insertion_of_several_lines_is_level() {
        let a = "The lease starts in May. Rent is due on the first. Pets are allowed.";
        let b = "The lease starts in May. A deposit of two months is paid before the keys \
                 are handed over, and it is returned within thirty days of the end of the \
                 lease. Rent is due on the first. Pets are allowed.";
        assert_eq!(
            picture(a, b, 24),
            [
                "The lease starts in May. | The lease starts in May.",
                "~ | A deposit of two months",
                "~ | is paid before the keys",
                "~ | are handed over, and it",
                "~ | is returned within",
                "~ | thirty days of the end",
                "~ | of the lease.",
                "Rent is due on the | Rent is due on the",
                "first. Pets are allowed. | first. Pets are allowed.",
            ]
        );
        for (l, r) in equal_block_rows(a, b, 24) {
            assert_eq!(l, r);
        }
    }

    #[test]
    fn a_deleted_paragraph_leaves_filler_rows_in_the_other_pane() {
        let a = "Intro line.\n\nThis paragraph was removed from the second version.\n\nOutro.";
        let b = "Intro line.\n\nOutro.";
        let pic = picture(a, b, 20);
        assert_eq!(pic.first().unwrap(), "Intro line. | Intro line.");
        assert_eq!(pic.last().unwrap(), "Outro. | Outro.");
        assert!(pic.iter().any(|row| row.ends_with("| ~")), "{pic:#?}");
        for (l, r) in equal_block_rows(a, b, 20) {
            assert_eq!(l, r, "{pic:#?}");
        }
    }

    #[test]
    fn a_moved_sentence_keeps_the_text_around_it_level() {
        let a = "Invoices go out by email. The plan costs 12 euros a month. Cancel at any time.";
        let b = "The plan costs 12 euros a month. Invoices go out by email. Cancel at any time.";
        for width in [16, 30, 80] {
            for (l, r) in equal_block_rows(a, b, width) {
                assert_eq!(l, r, "width {width}: {:#?}", picture(a, b, width));
            }
        }
        // A short change flows inside its sentence: no filler when both sides fit.
        let a = "The plan costs 12 euros per month, billed in advance.";
        let b = "The plan costs 15 euros per month, billed in advance.";
        assert_eq!(
            picture(a, b, 80),
            [format!("{a} | {b}")],
            "one row, nothing padded"
        );
    }

    #[test]
    fn cjk_text_wraps_by_display_width_and_stays_level() {
        let a = "東京は日本の首都です。人口は約千四百万人です。";
        let b = "東京は日本の首都です。人口は約千三百万人で、多くの会社があります。";
        let pic = picture(a, b, 12);
        for (l, r) in equal_block_rows(a, b, 12) {
            assert_eq!(l, r, "{pic:#?}");
        }
        // Two columns per character: six to a 12-column row.
        assert_eq!(pic[0], "東京は日本の | 東京は日本の");
    }

    #[test]
    fn a_tab_takes_one_column_and_a_crlf_ends_the_row() {
        let a = "name\tvalue\r\nnext";
        let diff = diff_texts(a, a, &DiffOptions::default());
        let layout = align(&diff, a, a, 10);
        assert_eq!(
            layout.left,
            [ScreenRow::Text(0..11), ScreenRow::Text(12..16)],
            "`name value` is 10 columns and fits; the row ends before the line break"
        );
    }

    #[test]
    fn identical_texts_lay_out_as_plain_wrapping() {
        let a = "one two three four five six seven eight nine ten";
        let diff = diff_texts(a, a, &DiffOptions::default());
        let layout = align(&diff, a, a, 14);
        assert_eq!(layout.left, layout.right);
        assert!(layout.difference_rows.is_empty());
        let rows: Vec<&str> = layout
            .left
            .iter()
            .map(|r| match r {
                ScreenRow::Text(t) => a[t.clone()].trim_end(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            rows,
            ["one two three", "four five six", "seven eight", "nine ten"]
        );
        let empty = diff_texts("", "", &DiffOptions::default());
        assert_eq!(align(&empty, "", "", 10).len(), 1);
    }

    #[test]
    fn text_past_the_cap_is_laid_out_up_to_a_bound() {
        let a = "word ".repeat(40_000);
        let b = format!("{a}and more");
        let options = DiffOptions {
            max_tokens: 100,
            ..DiffOptions::default()
        };
        let diff = diff_texts(&a, &b, &options);
        let layout = align(&diff, &a, &b, 40);
        assert_eq!(layout.left.len(), layout.right.len());
        let omitted =
            |rows: &[ScreenRow]| match rows.iter().rev().find(|r| **r != ScreenRow::Filler) {
                Some(ScreenRow::Omitted(n)) => *n,
                other => panic!("{other:?}"),
            };
        assert!(omitted(&layout.left) > 100_000);
        assert!(layout.len() < 2 * MAX_UNCOMPARED_BYTES / 40 + 100);
    }
}
