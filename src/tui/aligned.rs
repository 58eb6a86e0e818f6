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
//! A moved block ([`TextDiff::moves`]) is laid out once, side by side: at its old place (where
//! A has it, so the left pane reads A in order), B's copy of it stands beside A's, both
//! aligned by the block's own diff ([`TextDiff::move_diff`]) so its unchanged words sit level
//! and the edits inside show in place. A marker row above says where B has it; at the new
//! place (where B has it) a marker row in both panes stands for it and says where it is
//! shown. The right pane is then B in order except for its moved blocks, each shown beside
//! its old place; a notice moved from first to last with its holder renamed reads as one
//! text beside the other instead of a pane of filler opposite each copy.
//!
//! The layout is bounded: the diff compares at most [`lshscope_core::diff::DEFAULT_MAX_TOKENS`]
//! words per text, and of what lies past that cap at most [`MAX_UNCOMPARED_BYTES`] per text
//! is laid out (a last row says how much more there is), so a 10 MB pair costs one pass over
//! a few hundred kilobytes when it opens and nothing per frame.

use std::ops::Range;

use lshscope_core::diff::{Segment, Side, TextDiff};

use super::layout::{line_break_len, shown_width};

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
    /// A marker of moved block `block` (an index into [`TextDiff::moves`]) at one of its
    /// places, in both panes.
    Move { block: usize, place: MovePlace },
}

/// One of the two places of a moved block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MovePlace {
    /// Where A has the block: below the marker, A's copy and B's side by side.
    Old,
    /// Where B has it: the marker stands for B's copy, shown at the old place.
    New,
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
    /// For moved block `n` of [`TextDiff::moves`], the rows of its markers: at its old place
    /// (the two copies side by side follow it) and at its new place.
    pub move_rows: Vec<(usize, usize)>,
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
    let pieces = pieces(diff);
    let mut difference_rows = vec![0; diff.differences.len()];
    let mut move_rows = vec![(0, 0); diff.moves.len()];
    let mut next_difference = 0;
    for (j, piece) in pieces.iter().enumerate() {
        // The bytes of each side from the piece's first row to the next piece's (whitespace
        // included), so that the pieces tile the compared text.
        let ranges = sides.map(|side| {
            let start = if j == 0 {
                0
            } else {
                diff.rows[piece.rows.start].range(side).start
            };
            let end = match pieces.get(j + 1) {
                Some(next) => diff.rows[next.rows.start].range(side).start,
                None => diff.compared_len(side),
            };
            start..end.max(start)
        });
        let row = match piece.place {
            None => {
                let equal = diff.rows[piece.rows.start].kind.is_equal();
                let row = level(&mut panes, &ranges, equal);
                for (pane, range) in panes.iter_mut().zip(ranges) {
                    pane.feed(range);
                }
                row
            }
            Some((block, MovePlace::Old)) => {
                let moved = &diff.moves[block];
                let [l, r] = ranges;
                panes[0].feed(l.start..moved.left.start.max(l.start));
                let row = mark(&mut panes, block, MovePlace::Old);
                move_rows[block].0 = row;
                // The block's own diff, its ranges into the two copies.
                let inner = diff.move_diff(block);
                let blocks = inner.blocks();
                for i in 0..blocks.len() {
                    let ranges = [
                        offset(inner.block_range(&blocks, i, Side::Left), moved.left.start),
                        offset(
                            inner.block_range(&blocks, i, Side::Right),
                            moved.right.start,
                        ),
                    ];
                    level(&mut panes, &ranges, blocks[i].difference.is_none());
                    for (pane, range) in panes.iter_mut().zip(ranges) {
                        pane.feed(range);
                    }
                }
                // A goes on where it is; B's copy came from elsewhere, so its row ends here
                // and B goes on from where it was (usually nothing: B lacks the block here).
                panes[0].feed(moved.left.end.min(l.end)..l.end);
                panes[1].close_open_row();
                panes[1].feed(r);
                row
            }
            Some((block, MovePlace::New)) => {
                let moved = &diff.moves[block];
                let [l, r] = ranges;
                // A has no words here (at most the whitespace that ends it): nothing to show.
                if !left[l.clone()].trim().is_empty() {
                    panes[0].feed(l);
                }
                panes[1].feed(r.start..moved.right.start.max(r.start));
                let row = mark(&mut panes, block, MovePlace::New);
                move_rows[block].1 = row;
                // The marker stands for B's copy and the line break after it.
                let mut after = moved.right.end.min(r.end);
                if let Some(k) = right[after..r.end].find(['\n', '\r']) {
                    after = (after + k + line_break_len(right, after + k)).min(r.end);
                }
                panes[1].feed(after..r.end);
                row
            }
        };
        while let Some(d) = diff.differences.get(next_difference)
            && d.start < piece.rows.end
        {
            difference_rows[next_difference] = row;
            next_difference += 1;
        }
    }
    if pieces.is_empty() {
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
        move_rows,
        left_segments: diff.segments(Side::Left),
        right_segments: diff.segments(Side::Right),
    }
}

/// Rows of the diff the layout places as one: an equal row, a run of edits outside moved
/// blocks, or one place of a moved block (`place`: its rows there).
struct Piece {
    rows: Range<usize>,
    place: Option<(usize, MovePlace)>,
}

/// The pieces of `diff`, in order.
fn pieces(diff: &TextDiff) -> Vec<Piece> {
    let rows = &diff.rows;
    let mut out = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let place = rows[i].moved.and_then(|n| {
            let moved = &diff.moves[n];
            if moved.out_rows.start == i {
                Some((n, MovePlace::Old, moved.out_rows.end))
            } else if moved.in_rows.start == i {
                Some((n, MovePlace::New, moved.in_rows.end))
            } else {
                None
            }
        });
        let piece = match place {
            Some((n, place, end)) => Piece {
                rows: i..end,
                place: Some((n, place)),
            },
            None if rows[i].kind.is_equal() => Piece {
                rows: i..i + 1,
                place: None,
            },
            None => {
                let mut end = i + 1;
                while end < rows.len() && !rows[end].kind.is_equal() && rows[end].moved.is_none() {
                    end += 1;
                }
                Piece {
                    rows: i..end,
                    place: None,
                }
            }
        };
        i = piece.rows.end;
        out.push(piece);
    }
    out
}

/// `range` moved on by `by` bytes.
fn offset(range: Range<usize>, by: usize) -> Range<usize> {
    range.start + by..range.end + by
}

/// Ends both panes' rows and puts a marker of moved block `block` at `place` on the first
/// row free in both; returns that row.
fn mark(panes: &mut [Flow; 2], block: usize, place: MovePlace) -> usize {
    let row = panes.iter().map(Flow::fresh_row).max().unwrap_or(0);
    for pane in panes.iter_mut() {
        pane.pad_to(row);
        pane.rows.push(ScreenRow::Move { block, place });
    }
    row
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
            .map(shown_width)
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
        !text.contains(['\n', '\r'])
            && self.column + text.chars().map(shown_width).sum::<usize>() <= self.width
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
    /// (`\n`, `\r\n` or a lone `\r`) ends the row (two make an empty row, as paragraphs are
    /// written).
    fn feed(&mut self, range: Range<usize>) {
        let text = self.text;
        let mut at = range.start;
        while at < range.end {
            let c = text[at..].chars().next().expect("a char boundary");
            if c == '\n' && text[..at].ends_with('\r') {
                // The end of a `\r\n` whose `\r` an earlier range ended with: that ended
                // the row already.
                at += 1;
                continue;
            }
            let line_break = line_break_len(text, at);
            if line_break > 0 {
                match self.open.take() {
                    Some(open) => self.rows.push(ScreenRow::Text(open)),
                    None => self.rows.push(ScreenRow::Text(at..at)),
                }
                self.column = 0;
                at += line_break;
                continue;
            }
            if c.is_whitespace() {
                self.put(at, at + c.len_utf8(), shown_width(c));
                at += c.len_utf8();
                continue;
            }
            let word_end = text[at..range.end]
                .find(char::is_whitespace)
                .map_or(range.end, |i| at + i);
            let word = &text[at..word_end];
            let columns: usize = word.chars().map(shown_width).sum();
            if self.column > 0 && self.column + columns > self.width {
                self.close_open_row();
            }
            if columns <= self.width {
                self.put(at, word_end, columns);
            } else {
                // Longer than a row: cut where the row is full.
                for (i, c) in word.char_indices() {
                    let w = shown_width(c);
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

/// Two short texts for tests: a paragraph first in A and last in B, with the name inside it
/// changed, around a paragraph both share.
#[cfg(test)]
pub(crate) fn moved_paragraph_texts() -> (String, String) {
    let para = |who: &str| {
        format!(
            "The garden opens at nine on weekdays and at ten on Sundays, and {who} keeps \
             the keys to the shed where the tools and the seed trays are stored."
        )
    };
    let middle = "Visitors sign the book at the gate. Dogs stay on a lead near the ponds. \
                  The café closes an hour before the garden does, and the last tour \
                  leaves from the fountain at four.";
    let a = format!("{}\n\n{middle}\n", para("Mira Holt"));
    let b = format!("{middle}\n\n{}\n", para("the head gardener"));
    (a, b)
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
            ScreenRow::Move { block, place } => format!("[move {block} {place:?}]"),
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

    /// The words on the text rows of a pane, in the order of their bytes in `text`.
    fn words_on_rows(text: &str, rows: &[ScreenRow]) -> Vec<String> {
        let mut words: Vec<(usize, String)> = rows
            .iter()
            .filter_map(|r| match r {
                ScreenRow::Text(t) => Some(t.clone()),
                _ => None,
            })
            .flat_map(|t| {
                let start = t.start;
                text[t]
                    .split_whitespace()
                    .map(move |w| (start, w.to_string()))
                    .collect::<Vec<_>>()
            })
            .collect();
        words.sort_by_key(|(at, _)| *at);
        words.into_iter().map(|(_, w)| w).collect()
    }

    fn all(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    /// Paragraphs shuffled and edited, moved blocks with and without edits among them: each
    /// pane holds every word of its text once, in rows, equal text stays level, and each
    /// moved block has its two markers in both panes.
    #[test]
    fn shuffled_paragraphs_keep_every_word_once_and_every_move_marked() {
        let paragraph = |p: usize, edit: bool| -> String {
            let words: Vec<String> = (0..24)
                .map(|w| {
                    if edit && w == 11 {
                        format!("edited{p}")
                    } else {
                        format!("p{p}w{w}")
                    }
                })
                .collect();
            words.join(" ")
        };
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        };
        let mut moves_seen = 0;
        for _ in 0..40 {
            let count = 3 + next(4);
            let a: Vec<String> = (0..count).map(|p| paragraph(p, false)).collect();
            let mut order: Vec<usize> = (0..count).collect();
            for i in (1..count).rev() {
                order.swap(i, next(i + 1));
            }
            let b: Vec<String> = order.iter().map(|&p| paragraph(p, next(3) == 0)).collect();
            let (a, b) = (a.join("\n\n"), b.join("\n\n"));
            let diff = diff_texts(&a, &b, &DiffOptions::default());
            moves_seen += diff.moves.len();
            for width in [24, 60] {
                let layout = align(&diff, &a, &b, width);
                assert_eq!(words_on_rows(&a, &layout.left), all(&a), "{a}\n--\n{b}");
                assert_eq!(words_on_rows(&b, &layout.right), all(&b), "{a}\n--\n{b}");
                for (l, r) in equal_block_rows(&a, &b, width) {
                    assert_eq!(l, r, "{a}\n--\n{b}");
                }
                for (n, &(old_row, new_row)) in layout.move_rows.iter().enumerate() {
                    for (row, place) in [(old_row, MovePlace::Old), (new_row, MovePlace::New)] {
                        let marker = ScreenRow::Move { block: n, place };
                        assert_eq!(layout.left[row], marker, "{a}\n--\n{b}");
                        assert_eq!(layout.right[row], marker, "{a}\n--\n{b}");
                    }
                }
            }
        }
        assert!(moves_seen >= 20, "the pairs hold moves: {moves_seen}");
    }

    /// A paragraph moved from first to last with a name changed inside: laid out once, at
    /// its old place, both copies side by side under a marker; its new place is a marker in
    /// both panes; every word of B is on exactly one row of the right pane.
    #[test]
    fn a_moved_paragraph_with_an_edit_sits_beside_its_copy_under_a_marker() {
        let (a, b) = moved_paragraph_texts();
        let diff = diff_texts(&a, &b, &DiffOptions::default());
        assert_eq!(diff.moves.len(), 1, "{}", diff.describe());
        let layout = align(&diff, &a, &b, 30);
        let pic = picture(&a, &b, 30);
        assert_eq!(pic[0], "[move 0 Old] | [move 0 Old]", "{pic:#?}");
        assert_eq!(
            pic[1], "The garden opens at nine on | The garden opens at nine on",
            "{pic:#?}"
        );
        let (old_row, new_row) = layout.move_rows[0];
        assert_eq!(old_row, 0);
        assert_eq!(pic[new_row], "[move 0 New] | [move 0 New]", "{pic:#?}");
        for (l, r) in equal_block_rows(&a, &b, 30) {
            assert_eq!(l, r, "{pic:#?}");
        }
        assert_eq!(words_on_rows(&a, &layout.left), all(&a));
        assert_eq!(words_on_rows(&b, &layout.right), all(&b));
        // The edit inside is in the block's rows, beside A's name.
        let changed_row = pic
            .iter()
            .position(|r| r.contains("Mira Holt"))
            .expect("A's name is shown");
        assert!(pic[changed_row].contains("the head gardener"), "{pic:#?}");

        // The other way round: B has the block first, so its marker heads both panes, and
        // the two copies stand side by side at A's end.
        let diff = diff_texts(&b, &a, &DiffOptions::default());
        assert_eq!(diff.moves.len(), 1, "{}", diff.describe());
        let layout = align(&diff, &b, &a, 30);
        let pic = picture(&b, &a, 30);
        assert_eq!(pic[0], "[move 0 New] | [move 0 New]", "{pic:#?}");
        let (old_row, new_row) = layout.move_rows[0];
        assert_eq!(new_row, 0);
        assert_eq!(pic[old_row], "[move 0 Old] | [move 0 Old]", "{pic:#?}");
        assert_eq!(
            pic[old_row + 1],
            "The garden opens at nine on | The garden opens at nine on",
            "{pic:#?}"
        );
        for (l, r) in equal_block_rows(&b, &a, 30) {
            assert_eq!(l, r, "{pic:#?}");
        }
        assert_eq!(words_on_rows(&b, &layout.left), all(&b));
        assert_eq!(words_on_rows(&a, &layout.right), all(&a));
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
            [ScreenRow::Text(0..10), ScreenRow::Text(12..16)],
            "`name value` is 10 columns and fits; the row ends before the line break"
        );
    }

    /// A `\r` alone ends a row as `\n` does: the words on either side of it are on two rows,
    /// in both panes, and level.
    #[test]
    fn a_lone_carriage_return_ends_the_row() {
        let a = "line one\rline two\r\rend";
        let b = "line one\rline 2\r\rend";
        assert_eq!(
            picture(a, b, 20),
            [
                "line one | line one",
                "line two | line 2",
                " | ",
                "end | end"
            ]
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
