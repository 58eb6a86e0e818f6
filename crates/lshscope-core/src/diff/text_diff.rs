//! The result of a diff: aligned rows, their kinds, moved blocks and the byte ranges a
//! renderer walks, with the queries a view asks of them.

use super::*;

/// What an aligned row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The same words on both sides (the whitespace between them may differ).
    Equal,
    /// Only in the left text.
    Deleted,
    /// Only in the right text.
    Inserted,
    /// Different words on both sides, in the same place.
    Changed,
    /// Only on the left here; the same words are the [`Kind::MovedIn`] row `to`.
    MovedOut {
        /// Index in [`TextDiff::rows`] of the row the words moved to.
        to: usize,
    },
    /// Only on the right here; the same words are the [`Kind::MovedOut`] row `from`.
    MovedIn {
        /// Index in [`TextDiff::rows`] of the row the words came from.
        from: usize,
    },
}

impl Kind {
    /// True for [`Kind::Equal`].
    pub fn is_equal(self) -> bool {
        self == Kind::Equal
    }

    /// True for the two halves of a move, [`Kind::MovedOut`] and [`Kind::MovedIn`].
    pub fn is_moved(self) -> bool {
        matches!(self, Kind::MovedOut { .. } | Kind::MovedIn { .. })
    }
}

/// One text of the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The first text, `left` of [`diff_texts`].
    Left,
    /// The second text, `right` of [`diff_texts`].
    Right,
}

/// One aligned row: what the two texts hold at one place of the alignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// What the row is: equal, deleted, inserted, changed or half of a move.
    pub kind: Kind,
    /// Bytes of the left text, from the row's first word to the end of its last. Empty (at
    /// the place the right side's words would go) when the row has nothing on the left.
    pub left: Range<usize>,
    /// The same in the right text.
    pub right: Range<usize>,
    /// How many words (characters) the row holds on the left and on the right.
    pub left_tokens: usize,
    /// Words (characters) the row holds on the right.
    pub right_tokens: usize,
    /// The moved block this row is part of (an index into [`TextDiff::moves`]): set on its
    /// [`Kind::MovedOut`] and [`Kind::MovedIn`] rows and on the [`Kind::Deleted`] and
    /// [`Kind::Inserted`] rows of the edits inside it; `None` elsewhere.
    pub moved: Option<usize>,
}

impl Row {
    /// The row's byte range in the text of `side`.
    pub fn range(&self, side: Side) -> Range<usize> {
        match side {
            Side::Left => self.left.clone(),
            Side::Right => self.right.clone(),
        }
    }
}

/// Where the size cap stopped the comparison: bytes from `left` on (from `right` on) were
/// not compared. Equal to a text's length when that whole text was compared. When a text is
/// cut, the edits after the last unchanged run are left out too (up to there both texts
/// were aligned; past it, one text's window may end before words that match the other's),
/// so a side can end before its cap, or before its end though it was not cut itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Byte offset in the left text from which nothing was compared.
    pub left: usize,
    /// Byte offset in the right text from which nothing was compared.
    pub right: usize,
    /// The cap: [`DiffOptions::max_tokens`].
    pub max_tokens: usize,
}

/// What one stretch of a text is, for a renderer walking it ([`TextDiff::segments`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentKind {
    /// Row `row` of [`TextDiff::rows`], of this kind. May be empty: the other text has words
    /// here that this one lacks (draw a marker or nothing).
    Row {
        /// Index in [`TextDiff::rows`].
        row: usize,
        /// That row's kind, so a renderer need not look it up.
        kind: Kind,
    },
    /// Whitespace between rows (word mode), not compared.
    Gap,
    /// Past the size cap: not compared.
    Uncompared,
}

/// A stretch of one text: a byte range and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Bytes of the text this segment covers.
    pub range: Range<usize>,
    /// What those bytes are.
    pub kind: SegmentKind,
}

/// Two texts aligned: rows, the stops between differences, a summary, and what was cut.
#[derive(Debug, Clone, PartialEq)]
pub struct TextDiff {
    /// Words or characters.
    pub unit: Unit,
    /// The alignment in order; on each side the rows' ranges are increasing and do not
    /// overlap.
    pub rows: Vec<Row>,
    /// The differences a person steps through: maximal runs of rows that are not
    /// [`Kind::Equal`], as ranges of row indices, in order.
    pub differences: Vec<Range<usize>>,
    /// Words (characters) equal, deleted, inserted, changed and moved, over the compared part.
    pub summary: Summary,
    /// The blocks that moved, unchanged or with edits inside, in the order of their old
    /// places in the left text; [`Row::moved`] indexes this.
    pub moves: Vec<MovedBlock>,
    /// The search for moved blocks with edits stopped at one of its bounds (candidates, work
    /// or time) before it tried every pair of long runs: a block may have been missed.
    pub moves_bounded: bool,
    /// Where the size cap stopped the comparison; `None` when both texts were compared whole.
    pub cut: Option<Cut>,
    /// The deadline passed: the alignment after that point is coarser than the best one (more
    /// deleted and inserted than needed), never wrong.
    pub approximate: bool,
    /// Byte lengths of the two texts the diff was computed on.
    pub left_len: usize,
    /// Byte length of the right text.
    pub right_len: usize,
    /// How the words were folded before they were compared.
    pub folding: Folding,
}

/// A block of words that moved: its rows at the old place (the left text) and at the new
/// place (the right text), and the block aligned old against new.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovedBlock {
    /// Its rows at the old place: [`Kind::MovedOut`] rows and, for the edits inside,
    /// [`Kind::Deleted`] rows; a range of [`TextDiff::rows`].
    pub out_rows: Range<usize>,
    /// Its rows at the new place: [`Kind::MovedIn`] and [`Kind::Inserted`] rows.
    pub in_rows: Range<usize>,
    /// Bytes of the block in the left text (from its first word to the end of its last) and
    /// in the right text.
    pub left: Range<usize>,
    /// Bytes of the block in the right text.
    pub right: Range<usize>,
    /// Words (characters) of the block in each text.
    pub left_tokens: usize,
    /// Words (characters) of the block in the right text.
    pub right_tokens: usize,
    /// Words the same at both places (counted once).
    pub unchanged: usize,
    /// Words the move changed: as they were (left) and as they are (right).
    pub changed_left: usize,
    /// Words the move changed, as they are in the right text.
    pub changed_right: usize,
    /// The block aligned old against new, as a diff of the two places would show it:
    /// [`Kind::Equal`], [`Kind::Deleted`], [`Kind::Inserted`] and [`Kind::Changed`] rows whose
    /// left ranges lie in [`MovedBlock::left`] and right ranges in [`MovedBlock::right`]. One
    /// equal row for a block that moved unchanged.
    pub rows: Vec<Row>,
}

impl MovedBlock {
    /// True when the move changed words inside the block.
    pub fn is_edited(&self) -> bool {
        self.changed_left + self.changed_right > 0
    }
}

impl TextDiff {
    /// Length in bytes of one side's text.
    pub fn len(&self, side: Side) -> usize {
        match side {
            Side::Left => self.left_len,
            Side::Right => self.right_len,
        }
    }

    /// Where one side's comparison stopped (its length when it was compared whole).
    pub fn compared_len(&self, side: Side) -> usize {
        match (self.cut, side) {
            (Some(cut), Side::Left) => cut.left,
            (Some(cut), Side::Right) => cut.right,
            (None, _) => self.len(side),
        }
    }

    /// One text cut into consecutive segments that cover it exactly, in order: each row's
    /// range on that side (empty ones included), the whitespace between them, and the part
    /// past the size cap. A renderer walks this once and styles each segment by its kind.
    pub fn segments(&self, side: Side) -> Vec<Segment> {
        let mut out = Vec::with_capacity(2 * self.rows.len() + 2);
        let mut at = 0;
        for (i, row) in self.rows.iter().enumerate() {
            let range = row.range(side);
            if range.start > at {
                out.push(Segment {
                    range: at..range.start,
                    kind: SegmentKind::Gap,
                });
            }
            at = range.end.max(at);
            out.push(Segment {
                range,
                kind: SegmentKind::Row {
                    row: i,
                    kind: row.kind,
                },
            });
        }
        let compared = self.compared_len(side);
        if compared > at {
            out.push(Segment {
                range: at..compared,
                kind: SegmentKind::Gap,
            });
        }
        let len = self.len(side);
        if len > compared {
            out.push(Segment {
                range: compared.max(at)..len,
                kind: SegmentKind::Uncompared,
            });
        }
        out
    }

    /// The rows in blocks a side-by-side view aligns: each difference (its index in
    /// [`TextDiff::differences`] given) and each equal row between them, in order. Drawing
    /// block by block, with the shorter side padded to the longer one's height, keeps the
    /// two texts level at every difference.
    pub fn blocks(&self) -> Vec<Block> {
        let mut out = Vec::with_capacity(2 * self.differences.len() + 1);
        let mut differences = self.differences.iter().enumerate().peekable();
        let mut row = 0;
        while row < self.rows.len() {
            match differences.peek() {
                Some((n, d)) if d.start == row => {
                    out.push(Block {
                        rows: (*d).clone(),
                        difference: Some(*n),
                    });
                    row = d.end;
                    differences.next();
                }
                _ => {
                    out.push(Block {
                        rows: row..row + 1,
                        difference: None,
                    });
                    row += 1;
                }
            }
        }
        out
    }

    /// The bytes of one side a block covers, whitespace after its rows included: from its
    /// first row (the text's start for the first block) to the next block's first row (the
    /// end of what was compared for the last), so consecutive blocks tile the compared text.
    pub fn block_range(&self, blocks: &[Block], i: usize, side: Side) -> Range<usize> {
        let start = if i == 0 {
            0
        } else {
            self.rows[blocks[i].rows.start].range(side).start
        };
        let end = match blocks.get(i + 1) {
            Some(next) => self.rows[next.rows.start].range(side).start,
            None => self.compared_len(side),
        };
        start..end.max(start)
    }

    /// The index in [`TextDiff::differences`] of the first difference starting after row
    /// `row` (`None`: there is none). With `row = None`, the first difference.
    pub fn next_difference(&self, row: Option<usize>) -> Option<usize> {
        self.differences
            .iter()
            .position(|d| row.is_none_or(|r| d.start > r))
    }

    /// The index of the last difference ending before row `row`.
    pub fn previous_difference(&self, row: usize) -> Option<usize> {
        self.differences.iter().rposition(|d| d.end <= row)
    }

    /// The summary line, with what the bounds left out:
    /// `… ; 87 % unchanged; stopped at the cap of 50,000 words per text`.
    pub fn describe(&self) -> String {
        let mut line = self.summary.describe(self.unit);
        if let Some(cut) = self.cut {
            line += &format!(
                "; stopped at the cap of {} {} per text",
                thousands(cut.max_tokens as u64),
                self.unit.noun(cut.max_tokens as u64)
            );
        }
        if self.approximate {
            line += "; approximate (the alignment ran out of time)";
        }
        if self.moves_bounded {
            line += "; not every long run was checked for a moved block (the search is bounded)";
        }
        line
    }

    /// The moved block difference `k` holds (the first, if it holds several), at its old
    /// place or at its new one: where a viewer on that difference can show the block old
    /// against new ([`TextDiff::move_diff`]).
    pub fn move_of_difference(&self, k: usize) -> Option<usize> {
        let rows = self.differences.get(k)?;
        self.rows[rows.clone()].iter().find_map(|r| r.moved)
    }

    /// Moved block `block` (an index into [`TextDiff::moves`]) old against new, as a diff of
    /// its own: the diff of `&left[block.left]` and `&right[block.right]` (its ranges are
    /// into these slices), so a side-by-side view lays the block out level as it lays out a
    /// whole pair, its unchanged words side by side and the edits inside marked.
    pub fn move_diff(&self, block: usize) -> TextDiff {
        let block = &self.moves[block];
        let (l0, r0) = (block.left.start, block.right.start);
        let rows: Vec<Row> = block
            .rows
            .iter()
            .map(|r| Row {
                left: r.left.start - l0..r.left.end - l0,
                right: r.right.start - r0..r.right.end - r0,
                moved: None,
                ..r.clone()
            })
            .collect();
        TextDiff {
            unit: self.unit,
            differences: differences_of(&rows),
            summary: summarize(&rows, &[], block.left_tokens, block.right_tokens),
            rows,
            moves: Vec::new(),
            moves_bounded: false,
            cut: None,
            approximate: false,
            left_len: block.left.len(),
            right_len: block.right.len(),
            folding: self.folding,
        }
    }
}

/// A stretch of rows a side-by-side view keeps level ([`TextDiff::blocks`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Rows of [`TextDiff::rows`].
    pub rows: Range<usize>,
    /// The difference these rows are (its index in [`TextDiff::differences`]); `None` for
    /// an equal row.
    pub difference: Option<usize>,
}
