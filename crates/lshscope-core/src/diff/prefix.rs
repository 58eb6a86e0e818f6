//! Texts that share a long start: the diff compares at most `max_tokens` words of each
//! text, so a shared header longer than that would hide every difference after it. The
//! explorer's viewer diffs long pairs through [`diff_past_common_prefix`], which compares
//! the shared start apart (one equal run, found in one pass) and spends the cap on the rest.

use std::ops::Range;

use super::{Cut, DiffOptions, Granularity, MovedBlock, Row, TextDiff, Unit, diff_texts};

/// A common prefix of at least this many bytes is compared apart from the rest (see
/// [`diff_past_common_prefix`]); a shorter one costs the diff's word cap little.
pub const PREFIX_APART_BYTES: usize = 16 * 1024;

/// The first byte where `a` and `b` differ (the end of the shorter when one starts the
/// other), or `None` when they are the same text. Bytes are compared as written: a change of
/// case is a difference here.
pub fn first_difference(a: &str, b: &str) -> Option<usize> {
    let common = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    (common < a.len().max(b.len())).then_some(common)
}

/// Of a longer common prefix, only this much is compared apart: its tokens are held in
/// memory while it is (some 40 bytes a word), and it takes one pass (about 0.1 s for 1.4 MB).
/// Texts sharing more than this still have their differences hidden past the diff's cap.
pub const PREFIX_APART_MAX_BYTES: usize = 4 * 1024 * 1024;

/// The start of the line holding the first difference of `a` and `b` (within the first
/// [`PREFIX_APART_MAX_BYTES`]): both texts are the same bytes before it, and it is a word
/// boundary in both. 0 when they differ on line 1.
fn common_prefix_lines(a: &str, b: &str) -> usize {
    let at = first_difference(a, b)
        .unwrap_or(a.len())
        .min(PREFIX_APART_MAX_BYTES);
    a.as_bytes()[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1)
}

/// The diff of `a` and `b`, with a long common prefix compared apart: the diff compares at
/// most `options.max_tokens` words of each text, so a header longer than that would hide
/// every difference after it. The prefix (whole lines, the same bytes in both) is one equal
/// run, found in one pass, and the cap applies to what follows it. The rest is compared in
/// the unit chosen for the prefix, so the two parts count alike.
pub fn diff_past_common_prefix(a: &str, b: &str, options: &DiffOptions) -> TextDiff {
    let split = common_prefix_lines(a, b);
    if split < PREFIX_APART_BYTES {
        return diff_texts(a, b, options);
    }
    let prefix = diff_texts(
        &a[..split],
        &b[..split],
        &DiffOptions {
            max_tokens: usize::MAX,
            ..options.clone()
        },
    );
    let granularity = match prefix.unit {
        Unit::Words => Granularity::Words,
        Unit::Chars => Granularity::Chars,
    };
    let rest = diff_texts(
        &a[split..],
        &b[split..],
        &DiffOptions {
            granularity,
            ..options.clone()
        },
    );
    let shifted = |r: &Range<usize>| r.start + split..r.end + split;
    let first_row = prefix.rows.len();
    let mut rows = prefix.rows;
    let prefix_moves = prefix.moves.len();
    rows.extend(
        rest.rows
            .iter()
            .map(|row| shift_row(row, split, prefix_moves)),
    );
    let (p, r) = (prefix.summary, rest.summary);
    let mut summary = r;
    summary.equal += p.equal;
    summary.left_tokens += p.left_tokens;
    summary.right_tokens += p.right_tokens;
    TextDiff {
        unit: prefix.unit,
        rows,
        differences: rest
            .differences
            .iter()
            .map(|d| d.start + first_row..d.end + first_row)
            .collect(),
        summary,
        cut: rest.cut.map(|cut| Cut {
            left: cut.left + split,
            right: cut.right + split,
            ..cut
        }),
        approximate: prefix.approximate || rest.approximate,
        left_len: a.len(),
        right_len: b.len(),
        folding: rest.folding,
        moves: prefix
            .moves
            .into_iter()
            .chain(rest.moves.iter().map(|m| {
                MovedBlock {
                    out_rows: m.out_rows.start + first_row..m.out_rows.end + first_row,
                    in_rows: m.in_rows.start + first_row..m.in_rows.end + first_row,
                    left: shifted(&m.left),
                    right: shifted(&m.right),
                    rows: m
                        .rows
                        .iter()
                        .map(|row| shift_row(row, split, prefix_moves))
                        .collect(),
                    ..m.clone()
                }
            }))
            .collect(),
        moves_bounded: prefix.moves_bounded || rest.moves_bounded,
    }
}

/// `row` of a diff of the texts from byte `split` on, as a row of the whole texts' diff whose
/// moved blocks after the first `moves_before` are the part's.
fn shift_row(row: &Row, split: usize, moves_before: usize) -> Row {
    Row {
        left: row.left.start + split..row.left.end + split,
        right: row.right.start + split..row.right.end + split,
        moved: row.moved.map(|m| m + moves_before),
        ..row.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::Side;

    #[test]
    fn the_first_difference_is_a_byte_offset() {
        assert_eq!(first_difference("same", "same"), None);
        assert_eq!(first_difference("abc", "abd"), Some(2));
        assert_eq!(first_difference("abc", "abcdef"), Some(3));
        assert_eq!(first_difference("Abc", "abc"), Some(0));
    }

    #[test]
    fn a_long_common_prefix_does_not_hide_the_differences_after_it() {
        let header: String = (0..20_000).map(|i| format!("line {i} same\n")).collect();
        let a = format!("{header}the end is near\nfin");
        let b = format!("{header}the end is here\nfin");
        let options = DiffOptions {
            max_tokens: 1_000,
            ..DiffOptions::default()
        };
        assert!(
            diff_texts(&a, &b, &options).differences.is_empty(),
            "the cap alone stops inside the header"
        );
        let diff = diff_past_common_prefix(&a, &b, &options);
        assert_eq!(diff.differences.len(), 1);
        let row = &diff.rows[diff.differences[0].start];
        assert_eq!(&a[row.left.clone()], "near");
        assert_eq!(&b[row.right.clone()], "here");
        assert_eq!(diff.summary.left_tokens, 20_000 * 3 + 5);
        assert_eq!(diff.compared_len(Side::Left), a.len());
        // Segments still tile each text.
        let segments = diff.segments(Side::Right);
        assert_eq!(segments.last().unwrap().range.end, b.len());
    }
}
