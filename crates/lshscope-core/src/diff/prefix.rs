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
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().min(b.len());
    // Blocks compared as slices (memcmp) first: a pair list asks this of every row it draws,
    // and a licence pair can share megabytes.
    const BLOCK: usize = 256;
    let same_blocks = a[..n]
        .chunks(BLOCK)
        .zip(b[..n].chunks(BLOCK))
        .position(|(x, y)| x != y)
        .unwrap_or(n.div_ceil(BLOCK));
    let from = (same_blocks * BLOCK).min(n);
    let common = a[from..n]
        .iter()
        .zip(&b[from..n])
        .position(|(x, y)| x != y)
        .map_or(n, |k| from + k);
    (common < a.len().max(b.len())).then_some(common)
}

/// Where a one-line preview of text A beside text B starts: a few words before the first
/// byte where they differ, so a pair list shows what differs instead of the header both
/// share (a licence's "Format: https://…", a job ad's title). Byte offsets into A; the first
/// difference is the same offset in B, since both are the same bytes before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DifferenceExcerpt {
    /// Where the preview starts: 0, or the start of a word (a char boundary after
    /// whitespace) at most [`DifferenceExcerpt::CONTEXT_WORDS`] words before the difference.
    pub start: usize,
    /// The first difference, moved back to a char boundary (two different characters may
    /// share their first bytes); `a.len()` when A ends where B goes on. `None` when the texts
    /// are the same bytes.
    pub difference: Option<usize>,
}

impl DifferenceExcerpt {
    /// Words of shared text the preview keeps before the difference, to say where it is.
    pub const CONTEXT_WORDS: usize = 3;
    /// ... and at most this many characters of them (a text without spaces, or one word as
    /// long as a URL, would otherwise push the difference off a narrow column).
    pub const CONTEXT_CHARS: usize = 40;

    /// The excerpt of `a` against `b`.
    pub fn of(a: &str, b: &str) -> DifferenceExcerpt {
        let Some(at) = first_difference(a, b) else {
            return DifferenceExcerpt {
                start: 0,
                difference: None,
            };
        };
        let at = a.floor_char_boundary(at);
        DifferenceExcerpt {
            start: context_start(&a[..at], Self::CONTEXT_WORDS, Self::CONTEXT_CHARS),
            difference: Some(at),
        }
    }

    /// Text before `start` is left out of the preview (faces mark the cut with "…").
    pub fn is_cut(&self) -> bool {
        self.start > 0
    }
}

/// The start of the preview of a text whose difference starts where `before` ends: back
/// over the rest of the word the difference is in, then over up to `words` more words, no
/// further than `max_chars` characters, and always at the start of a word, unless the word
/// holding the difference alone is longer than `max_chars`.
fn context_start(before: &str, words: usize, max_chars: usize) -> usize {
    // A difference inside a word: the start of that word is shown too, and is not context.
    let limit = words + usize::from(before.ends_with(|c: char| !c.is_whitespace()));
    let mut whole_words = 0;
    let mut seen_space = false;
    let mut start = before.len();
    for (walked, (i, c)) in before.char_indices().rev().enumerate() {
        if walked == max_chars {
            // Out of room: open at the first word start from here on.
            return if !seen_space || before[..start].ends_with(char::is_whitespace) {
                start
            } else {
                next_word_start(before, start)
            };
        }
        if c.is_whitespace() {
            seen_space = true;
            if start < before.len() && !before[start..].starts_with(char::is_whitespace) {
                // The word from `start` on is whole.
                whole_words += 1;
                if whole_words == limit {
                    return start;
                }
            }
        }
        start = i;
    }
    0
}

/// The first word start in `text` after `from` (past the word `from` is in and the spaces
/// after it); `from` when none follows (it is the last word, and the one to show).
fn next_word_start(text: &str, from: usize) -> usize {
    let rest = &text[from..];
    let Some(space) = rest.find(char::is_whitespace) else {
        return from;
    };
    rest[space..]
        .find(|c: char| !c.is_whitespace())
        .map_or(from, |k| from + space + k)
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
        // Past the blocks compared whole, and inside one.
        let long = "x".repeat(1000);
        assert_eq!(
            first_difference(&long, &format!("{}y", &long[1..])),
            Some(999)
        );
        assert_eq!(first_difference(&long, &format!("{long}z")), Some(1000));
        assert_eq!(
            first_difference(&format!("{}y{}", &long[..300], &long[301..]), &long),
            Some(300)
        );
        assert_eq!(first_difference(&long, &long), None);
        assert_eq!(first_difference("", ""), None);
    }

    /// The preview of `a` beside `b` as a pair list shows it: "…" where text is left out.
    fn preview(a: &str, b: &str) -> String {
        let e = DifferenceExcerpt::of(a, b);
        format!("{}{}", if e.is_cut() { "…" } else { "" }, &a[e.start..])
    }

    #[test]
    fn the_preview_starts_a_few_words_before_the_first_difference() {
        let header = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\
                      Upstream-Name: libxss\nSource: https://www.x.org/releases/\n\n\
                      Files: *\nCopyright: 1992, 1993, 1994 the authors\n";
        let a = format!("{header}License: MIT-open-group\n");
        let b = format!("{header}License: X11\n");
        let e = DifferenceExcerpt::of(&a, &b);
        assert_eq!(e.difference, Some(header.len() + "License: ".len()));
        assert!(e.is_cut());
        // Three words of context (the word before the change is one), then the difference; the cut falls between words.
        assert_eq!(preview(&a, &b), "…the authors\nLicense: MIT-open-group\n");
        assert_eq!(preview(&b, &a), "…the authors\nLicense: X11\n");
    }

    #[test]
    fn the_preview_of_identical_texts_and_of_a_first_word_that_differs_is_the_whole_text() {
        let same = "Registered Nurse – Zürich. Full-time.";
        assert_eq!(
            DifferenceExcerpt::of(same, same),
            DifferenceExcerpt {
                start: 0,
                difference: None
            }
        );
        let e = DifferenceExcerpt::of("Nurse wanted", "Doctor wanted");
        assert_eq!((e.start, e.difference), (0, Some(0)));
        assert!(!e.is_cut());
        // Within the first words: nothing to cut.
        assert_eq!(preview("one two three", "one two four"), "one two three");
        // Empty texts: the other is all difference.
        assert_eq!(DifferenceExcerpt::of("", "x").difference, Some(0));
    }

    #[test]
    fn a_difference_at_the_end_keeps_the_last_words() {
        let a = "one two three four five six";
        let b = "one two three four five six seven";
        let e = DifferenceExcerpt::of(a, b);
        assert_eq!(e.difference, Some(a.len()), "A ends where B goes on");
        assert_eq!(preview(a, b), "…three four five six");
        // The last character differs.
        assert_eq!(
            preview(
                "one two three four five sixA",
                "one two three four five sixB"
            ),
            "…three four five sixA"
        );
    }

    #[test]
    fn the_difference_and_the_cut_fall_on_char_boundaries() {
        // é (C3 A9) and è (C3 A8) share their first byte.
        let a = "Zürich – café au lait, grand crème, thé vert";
        let b = "Zürich – cafè au lait, grand crème, thé vert";
        let e = DifferenceExcerpt::of(a, b);
        assert_eq!(e.difference, a.find('é'));
        assert!(a.is_char_boundary(e.difference.unwrap()));
        assert_eq!(preview(a, b), a, "the difference is in the third word");
        let long = format!("{} {a}", "€uro ".repeat(30));
        let other = format!("{} {b}", "€uro ".repeat(30));
        assert_eq!(
            preview(&long, &other),
            "…€uro  Zürich – café au lait, grand crème, thé vert"
        );
    }

    #[test]
    fn long_words_do_not_push_the_difference_off_the_preview() {
        // One word longer than the room for context: cut inside it.
        let (a, b) = (
            format!("{}A", "x".repeat(100)),
            format!("{}B", "x".repeat(100)),
        );
        let e = DifferenceExcerpt::of(&a, &b);
        assert_eq!(e.start, 100 - DifferenceExcerpt::CONTEXT_CHARS);
        assert_eq!(e.difference, Some(100));
        // Long context words: as many whole words as the room holds.
        let words = format!("{} {} {} d", "a".repeat(20), "b".repeat(20), "c".repeat(20));
        let (a, b) = (format!("{words}X"), format!("{words}Y"));
        assert_eq!(preview(&a, &b), format!("…{} dX", "c".repeat(20)));
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
