//! What differs between two texts: an alignment word by word (character by character for
//! texts written without spaces), for a person judging whether a candidate pair is a real
//! near-duplicate.
//!
//! The shared-shingle highlight answers "what do these share?"; this answers "what is
//! different?". [`diff_texts`] aligns the two texts with the Patience algorithm of the
//! [`similar`] crate (unique words anchor the alignment, which keeps prose readable), then
//! two passes make the result read as a person would describe it:
//!
//! - a run deleted from one place and inserted unchanged elsewhere is a **move**
//!   ([`Kind::MovedOut`] / [`Kind::MovedIn`], each naming its partner row), not a deletion
//!   and an unrelated insertion;
//! - a long block deleted from one place and inserted elsewhere *with a few words edited*
//!   (a licence's permission notice moved from first to last, its copyright holder
//!   changed) is a **moved block with edits inside**: its words the same at both places are
//!   moves, the few that differ are [`Kind::Deleted`] at the old place and
//!   [`Kind::Inserted`] at the new one, and every row of the block carries its number
//!   ([`Row::moved`], an index into [`TextDiff::moves`]). The [`MovedBlock`] holds the block
//!   aligned old against new ([`MovedBlock::rows`], [`TextDiff::move_diff`]) for a view that
//!   shows it side by side, and the summary says `1 block of 175 words moved (6 words
//!   changed inside)`;
//! - a short unchanged run between two edits that are each at least as long (a stray "the"
//!   in a rewritten sentence) is folded into one [`Kind::Changed`] row, the rule of
//!   diff-match-patch's semantic cleanup (Neil Fraser, "Diff Strategies", 2006), so a
//!   rewritten clause shows as one change rather than confetti.
//!
//! Long inputs are bounded twice: each text is compared up to [`DiffOptions::max_tokens`]
//! words (or characters), the rest is reported as not compared ([`TextDiff::cut`]); and the
//! alignment has a deadline after which `similar` falls back to a coarser answer
//! ([`TextDiff::approximate`]). A 10 MB pair costs a bounded tokenization, never a frozen
//! screen.
//!
//! Moved blocks with edits are looked for after the exact moves and before the fold (whose
//! rule would otherwise join a block, the shorter unchanged section it moved across and its
//! new place into one change). The first alignment's rows are cut into regions at each
//! unchanged run of at least [`MIN_MOVED_WORDS`] words: what lies between is what one text
//! lost there and the other gained, chance matches of a word or two and exact moves
//! included. A region that lost at least [`MIN_EDITED_MOVE_WORDS`] words
//! ([`MIN_EDITED_MOVE_CHARS`] characters) is paired with each other region that gained as
//! many; the pair is aligned on its own (Patience again), its edges cut to its first and last
//! unchanged run of [`MIN_MOVED_WORDS`] words, and it is a moved block when at least
//! [`MIN_EDITED_MOVE_WORDS`] of its words are unchanged and they are at least
//! [`MOVED_BLOCK_MATCH`] of its longer side. The regions it came from are rebuilt as
//! deletions and insertions around it, and the search runs again on what is left (at most
//! four passes), so two blocks, or one split by a chance match, are found too.
//!
//! That search is bounded like the alignment: only the [`MAX_MOVE_CANDIDATES`] longest
//! regions on each side are candidates; a screen (three-token sequences the two regions
//! share, one hash set per region) orders the pairs, most promising first, and drops those
//! that share almost nothing; and it stops when the regions aligned add up to
//! [`MOVE_SEARCH_BUDGET`] times the tokens compared or when a deadline as long as
//! [`DiffOptions::timeout`] passes (so a diff takes at most about twice the timeout). When a
//! bound stopped it before every pair was tried, the diff says so
//! ([`TextDiff::moves_bounded`]).
//!
//! The result holds byte ranges into the two texts, never the texts: the caller keeps them.
//! [`TextDiff::segments`] tiles one text completely (rows, the whitespace between them, the
//! part not compared) so a renderer walks it once and styles by kind; [`TextDiff::rows`]
//! pairs both sides for side-by-side alignment; [`TextDiff::differences`] are the stops of
//! "next / previous difference". [`export`] writes the diff as text or HTML.
//!
//! # Example
//!
//! ```
//! use lshscope_core::diff::{DiffOptions, Kind, SegmentKind, Side, diff_texts};
//!
//! let (a, b) = ("The plan costs 12 euros.", "The plan costs 15 euros.");
//! let diff = diff_texts(a, b, &DiffOptions::default());
//! assert_eq!(diff.describe(), "1 word changed; 80 % unchanged");
//! let changed = &diff.rows[diff.differences[0].start];
//! assert_eq!(changed.kind, Kind::Changed);
//! assert_eq!((&a[changed.left.clone()], &b[changed.right.clone()]), ("12", "15"));
//! // Every byte of `a` once, in order: rows by kind, the whitespace between them.
//! let styled: String = diff
//!     .segments(Side::Left)
//!     .iter()
//!     .map(|s| match s.kind {
//!         SegmentKind::Row { kind: Kind::Changed, .. } => format!("[{}]", &a[s.range.clone()]),
//!         _ => a[s.range.clone()].to_string(),
//!     })
//!     .collect();
//! assert_eq!(styled, "The plan costs [12] euros.");
//! ```

pub mod export;
mod moves;
mod options;
mod prefix;
mod summary;
mod text_diff;
mod tokens;

use moves::*;
use tokens::*;

pub use options::*;
pub use summary::{Summary, changed_inside};
pub use text_diff::*;

pub use prefix::{
    DifferenceExcerpt, PREFIX_APART_BYTES, PREFIX_APART_MAX_BYTES, diff_past_common_prefix,
    first_difference,
};

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp, DiffTag, capture_diff_slices_deadline};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::canonical_combining_class;

use crate::text::{Profile, ShingleOptions};
use crate::util::numfmt::{for_count, percent_rough, thousands};

/// Aligns `left` and `right`.
pub fn diff_texts(left: &str, right: &str, options: &DiffOptions) -> TextDiff {
    let unit = match options.granularity {
        Granularity::Words => Unit::Words,
        Granularity::Chars => Unit::Chars,
        Granularity::Auto if written_without_spaces(left) || written_without_spaces(right) => {
            Unit::Chars
        }
        Granularity::Auto => Unit::Words,
    };
    let max_tokens = options.max_tokens.max(1);
    let folding = options.folding;
    let (mut left_tokens, left_cut) = tokenize(left, unit, max_tokens, folding.nfkc);
    let (mut right_tokens, right_cut) = tokenize(right, unit, max_tokens, folding.nfkc);
    let mut cut = (left_cut.is_some() || right_cut.is_some()).then(|| Cut {
        left: left_cut.unwrap_or(left.len()),
        right: right_cut.unwrap_or(right.len()),
        max_tokens,
    });
    let left_words = fold_tokens(left, &mut left_tokens, folding);
    let right_words = fold_tokens(right, &mut right_tokens, folding);

    let deadline = options.timeout.map(|t| Instant::now() + t);
    let ops =
        capture_diff_slices_deadline(Algorithm::Patience, &left_words, &right_words, deadline);
    let approximate = deadline.is_some_and(|d| Instant::now() > d);
    let mut rows = token_rows(&ops, 0, 0);
    debug_assert_eq!(
        rows.last().map_or((0, 0), |r| (r.l.end, r.r.end)),
        (left_words.len(), right_words.len())
    );
    let (min_moved, min_edited_move) = match unit {
        Unit::Words => (MIN_MOVED_WORDS, MIN_EDITED_MOVE_WORDS),
        Unit::Chars => (MIN_MOVED_CHARS, MIN_EDITED_MOVE_CHARS),
    };
    // The inner alignments of moved blocks: one per block id, in token ranges.
    let mut blocks: Vec<BlockBuild> = Vec::new();
    mark_moves(&mut rows, &left_words, &right_words, min_moved, &mut blocks);
    let moves_bounded = find_moves_with_edits(
        &mut rows,
        (&left_words, &right_words),
        (min_moved, min_edited_move),
        options.timeout,
        &mut blocks,
    );
    fold_short_equal_runs(&mut rows);
    if let Some(cut) = &mut cut
        && let Some((left_kept, right_kept)) = drop_unaligned_tail(&mut rows)
    {
        // The edits after the last equal row may only be the two windows' ends not lining
        // up (the words one text has past its cut): they were not really compared.
        let start = |tokens: &[Range<usize>], at: usize, cut: usize| {
            tokens.get(at).map_or(cut, |t| t.start)
        };
        cut.left = start(&left_tokens, left_kept, cut.left);
        cut.right = start(&right_tokens, right_kept, cut.right);
        left_tokens.truncate(left_kept);
        right_tokens.truncate(right_kept);
    }

    let (rows, moves) = byte_rows(&rows, &blocks, &left_tokens, &right_tokens);
    let summary = summarize(&rows, &moves, left_tokens.len(), right_tokens.len());
    TextDiff {
        unit,
        differences: differences_of(&rows),
        rows,
        summary,
        moves,
        moves_bounded,
        cut,
        approximate,
        left_len: left.len(),
        right_len: right.len(),
        folding,
    }
}

/// The moved blocks with edits inside, looked for in passes over `rows` (after the exact
/// moves), within the search's bounds; true when a bound stopped it.
fn find_moves_with_edits(
    rows: &mut Vec<TokenRow>,
    (left_words, right_words): (&[Cow<'_, str>], &[Cow<'_, str>]),
    (min_moved, min_edited_move): (usize, usize),
    timeout: Option<Duration>,
    blocks: &mut Vec<BlockBuild>,
) -> bool {
    // The search looks at the rows before the fold: the fold's rule would join a moved
    // block, the unchanged run it moved across and its new place into one change when the
    // block is the longer (a notice moved from first to last around a shorter section).
    let mut search = MoveSearch {
        min_block: min_edited_move,
        min_edge: min_moved,
        deadline: timeout.map(|t| Instant::now() + t),
        budget: MOVE_SEARCH_BUDGET * (left_words.len() + right_words.len()),
    };
    let mut moves_bounded = false;
    // Each pass takes at most one block from each side of a region; what a region holds
    // besides its block is looked at again in the next pass (a block split in two by a
    // chance match, two blocks moved from one place), until a pass finds nothing or a
    // bound stops it.
    for _ in 0..MAX_MOVE_PASSES {
        let (found, bounded) =
            find_edited_moves(rows, left_words, right_words, &mut search, blocks);
        if found > 0 {
            // The regions blocks were cut from are deletions and insertions again: look
            // for exact moves among them, as at first.
            mark_moves(rows, left_words, right_words, min_moved, blocks);
        }
        moves_bounded |= bounded;
        if found == 0 || bounded {
            break;
        }
    }
    moves_bounded
}

/// The token rows as byte ranges of the texts, and the moved blocks numbered in the order of
/// their old places.
fn byte_rows(
    rows: &[TokenRow],
    blocks: &[BlockBuild],
    left_tokens: &[Range<usize>],
    right_tokens: &[Range<usize>],
) -> (Vec<Row>, Vec<MovedBlock>) {
    let byte_range = |tokens: &[Range<usize>], t: &Range<usize>| -> Range<usize> {
        if t.is_empty() {
            let at = match tokens.get(t.start) {
                Some(next) => next.start,
                None => tokens.last().map_or(0, |last| last.end),
            };
            at..at
        } else {
            tokens[t.start].start..tokens[t.end - 1].end
        }
    };
    let to_row = |row: &TokenRow, moved: Option<usize>| Row {
        kind: row.kind,
        left: byte_range(left_tokens, &row.l),
        right: byte_range(right_tokens, &row.r),
        left_tokens: row.l.len(),
        right_tokens: row.r.len(),
        moved,
    };
    // Blocks are numbered in the order of their old places; a block the tail's drop left
    // with one place only has been undone there and is gone.
    let mut number: Vec<Option<usize>> = vec![None; blocks.len()];
    let mut order = Vec::new();
    for row in rows {
        if let Some(b) = row.block
            && number[b].is_none()
            && !row.l.is_empty()
        {
            number[b] = Some(order.len());
            order.push(b);
        }
    }
    let byte_rows: Vec<Row> = rows
        .iter()
        .map(|row| to_row(row, row.block.and_then(|b| number[b])))
        .collect();
    let moves: Vec<MovedBlock> = order
        .iter()
        .enumerate()
        .map(|(n, &b)| {
            let at = |left_side: bool| -> Range<usize> {
                let of_block = |r: &Row| r.moved == Some(n) && (r.left_tokens > 0) == left_side;
                let start = byte_rows
                    .iter()
                    .position(of_block)
                    .expect("both places are kept");
                let end = byte_rows
                    .iter()
                    .rposition(of_block)
                    .expect("both places are kept")
                    + 1;
                start..end
            };
            block_of(
                &byte_rows,
                at(true),
                at(false),
                blocks[b].inner.iter().map(|r| to_row(r, None)),
            )
        })
        .collect();

    (byte_rows, moves)
}

/// A moved block from its rows at the two places and its inner alignment.
fn block_of(
    rows: &[Row],
    out_rows: Range<usize>,
    in_rows: Range<usize>,
    inner: impl Iterator<Item = Row>,
) -> MovedBlock {
    let span = |range: &Range<usize>, side: Side| {
        rows[range.start].range(side).start..rows[range.end - 1].range(side).end
    };
    let inner: Vec<Row> = inner.collect();
    let mut block = MovedBlock {
        left: span(&out_rows, Side::Left),
        right: span(&in_rows, Side::Right),
        left_tokens: rows[out_rows.clone()].iter().map(|r| r.left_tokens).sum(),
        right_tokens: rows[in_rows.clone()].iter().map(|r| r.right_tokens).sum(),
        out_rows,
        in_rows,
        unchanged: 0,
        changed_left: 0,
        changed_right: 0,
        rows: inner,
    };
    for row in &block.rows {
        if row.kind.is_equal() {
            block.unchanged += row.left_tokens;
        } else {
            block.changed_left += row.left_tokens;
            block.changed_right += row.right_tokens;
        }
    }
    block
}

/// The counts of [`Summary`] for `rows` and the blocks they moved.
fn summarize(
    rows: &[Row],
    moves: &[MovedBlock],
    left_tokens: usize,
    right_tokens: usize,
) -> Summary {
    let mut summary = Summary {
        left_tokens,
        right_tokens,
        ..Summary::default()
    };
    for row in rows.iter().filter(|r| r.moved.is_none()) {
        match row.kind {
            Kind::Equal => summary.equal += row.left_tokens,
            Kind::Deleted => summary.deleted += row.left_tokens,
            Kind::Inserted => summary.inserted += row.right_tokens,
            Kind::Changed => {
                summary.changed_left += row.left_tokens;
                summary.changed_right += row.right_tokens;
            }
            // Rows of a move are counted by their block, below.
            Kind::MovedOut { .. } | Kind::MovedIn { .. } => {}
        }
    }
    for block in moves {
        if block.is_edited() {
            summary.edited_moves += 1;
            summary.edited_moves_unchanged += block.unchanged;
            summary.edited_moves_changed_left += block.changed_left;
            summary.edited_moves_changed_right += block.changed_right;
        } else {
            summary.moved += block.unchanged;
        }
    }
    summary
}

/// The maximal runs of rows that are not equal.
fn differences_of(rows: &[Row]) -> Vec<Range<usize>> {
    let mut differences: Vec<Range<usize>> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row.kind.is_equal() {
            continue;
        }
        match differences.last_mut() {
            Some(last) if last.end == i => last.end = i + 1,
            _ => differences.push(i..i + 1),
        }
    }
    differences
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenize_words_and_cap() {
        let (t, cut) = tokenize("  ab cd\n e ", Unit::Words, 10, false);
        assert_eq!(t, vec![2..4, 5..7, 9..10]);
        assert_eq!(cut, None);
        let (t, cut) = tokenize("ab cd e", Unit::Words, 2, false);
        assert_eq!(t, vec![0..2, 3..5]);
        assert_eq!(cut, Some(6));
        let (t, cut) = tokenize("日本語", Unit::Chars, 2, false);
        assert_eq!(t, vec![0..3, 3..6]);
        assert_eq!(cut, Some(6));
    }

    /// The search aligns a pair of runs only while its budget lasts, and says when it
    /// stopped for it; with the budget, it finds the block and spends what the pair cost.
    #[test]
    fn the_move_search_stops_at_its_budget_and_says_so() {
        let block: Vec<String> = (0..30).map(|i| format!("w{i}")).collect();
        let mut edited = block.clone();
        edited[15] = "changed".to_string();
        let middle: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
        let left: Vec<String> = block.iter().chain(&middle).cloned().collect();
        let right: Vec<String> = middle.iter().chain(&edited).cloned().collect();
        let ops = capture_diff_slices_deadline(Algorithm::Patience, &left, &right, None);
        let mut rows = token_rows(&ops, 0, 0);
        fold_short_equal_runs(&mut rows);
        let kinds: Vec<Kind> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [Kind::Deleted, Kind::Equal, Kind::Inserted]);
        let search = |budget| MoveSearch {
            min_block: MIN_EDITED_MOVE_WORDS,
            min_edge: MIN_MOVED_WORDS,
            deadline: None,
            budget,
        };
        let mut blocks = Vec::new();
        let mut poor = search(59);
        let found = find_edited_moves(&mut rows, &left, &right, &mut poor, &mut blocks);
        assert_eq!(found, (0, true));
        assert!(blocks.is_empty() && rows.len() == 3);
        let mut enough = search(1000);
        let found = find_edited_moves(&mut rows, &left, &right, &mut enough, &mut blocks);
        assert_eq!(found, (1, false));
        assert_eq!(enough.budget, 1000 - 60, "one pair of 30-word runs aligned");
        let inner: Vec<(Kind, Range<usize>, Range<usize>)> = blocks[0]
            .inner
            .iter()
            .map(|r| (r.kind, r.l.clone(), r.r.clone()))
            .collect();
        assert_eq!(
            inner,
            [
                (Kind::Equal, 0..15, 40..55),
                (Kind::Changed, 15..16, 55..56),
                (Kind::Equal, 16..30, 56..70),
            ]
        );
    }

    #[test]
    fn auto_granularity() {
        assert!(written_without_spaces("東京は日本の首都です。"));
        assert!(written_without_spaces("東京は 日本の 首都です。"));
        assert!(written_without_spaces("hello"));
        assert!(!written_without_spaces("hello world"));
        assert!(!written_without_spaces(""));
        assert!(!written_without_spaces("The 東京 tower is tall and old"));
    }
}
