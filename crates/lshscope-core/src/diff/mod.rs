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

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag, capture_diff_slices_deadline};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::canonical_combining_class;

use crate::text::{Profile, ShingleOptions};
use crate::util::numfmt::{for_count, percent_rough, thousands};

/// Compare at most this many words (or characters) of each text by default: about 300 KB of
/// English, far beyond a document a person reads side by side, and aligned in well under a
/// second on one core.
pub const DEFAULT_MAX_TOKENS: usize = 50_000;

/// The alignment's default time budget. Past it `similar` stops searching for the best
/// alignment of what remains and reports it as deleted and inserted.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(300);

/// A run of fewer words than this deleted in one place and inserted in another is left as a
/// deletion and an insertion: two texts share many short runs ("of the") by chance.
pub const MIN_MOVED_WORDS: usize = 3;

/// The same for characters (texts without spaces): about two CJK words.
pub const MIN_MOVED_CHARS: usize = 6;

/// How to cut the texts into the units the alignment compares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Granularity {
    /// Words, unless either text is written without spaces (mostly Han, kana, Thai, Lao,
    /// Khmer or Myanmar letters, or no whitespace at all): then characters.
    #[default]
    Auto,
    /// Runs of non-whitespace; whitespace between words is not compared.
    Words,
    /// Unicode scalar values, whitespace included.
    Chars,
}

/// The unit a diff was computed in (what [`Granularity::Auto`] chose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Words,
    Chars,
}

impl Unit {
    /// "word"/"words" or "character"/"characters" for `n`.
    pub fn noun(self, n: u64) -> &'static str {
        match self {
            Unit::Words => for_count(n, "word", "words"),
            Unit::Chars => for_count(n, "character", "characters"),
        }
    }
}

/// How to align two texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffOptions {
    pub granularity: Granularity,
    /// Compare at most this many words (characters) of each text; at least 1.
    pub max_tokens: usize,
    /// Time budget of the alignment; `None` waits for the best one.
    pub timeout: Option<Duration>,
    /// What is not a difference: the words are compared folded as the shingles see them
    /// (lowercased by default), while ranges and output keep the original characters.
    pub folding: Folding,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            granularity: Granularity::Auto,
            max_tokens: DEFAULT_MAX_TOKENS,
            timeout: Some(DEFAULT_TIMEOUT),
            folding: Folding::default(),
        }
    }
}

/// How words (characters) are folded before they are compared, so that the diff calls a
/// difference only what the shingles can see: with the index's default lowercasing, `Price`
/// against `price` is no difference for Jaccard, and none here either. Each word is folded
/// on its own, so a row's byte ranges are always the original word's, whatever folding does
/// to byte lengths (`İ` lowercases to two chars, NFKC turns `ﬁ` into `fi`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folding {
    /// Compare lowercased (per char, as the shingler lowercases: Unicode full case mapping).
    pub lowercase: bool,
    /// Compare after NFKC (in character mode, a character and its combining marks are one
    /// unit, so `é` and `e` + U+0301 compare equal as they shingle equal).
    pub nfkc: bool,
    /// Compare without chars that are neither alphanumeric nor whitespace; a word of
    /// punctuation only is then not compared at all.
    pub strip_punct: bool,
}

impl Default for Folding {
    /// Lowercase only: the shingler's default ([`ShingleOptions::default`]).
    fn default() -> Self {
        Folding {
            lowercase: true,
            nfkc: false,
            strip_punct: false,
        }
    }
}

impl Folding {
    /// Compare the characters as they are.
    pub const NONE: Folding = Folding {
        lowercase: false,
        nfkc: false,
        strip_punct: false,
    };

    /// The folding that matches how `options` normalizes text before shingling. A tool's
    /// profile maps to its nearest: datatrove and text-dedup lowercase and split at
    /// punctuation (lowercase + strip), Spark lowercases, NeMo and datasketch keep the raw
    /// text (datatrove's digit and accent folding are not reproduced here).
    pub fn of(options: &ShingleOptions) -> Folding {
        let (lowercase, strip_punct) = match options.profile {
            Profile::Lshscope => {
                return Folding {
                    lowercase: options.lowercase,
                    nfkc: options.nfkc,
                    strip_punct: options.strip_punct,
                };
            }
            Profile::Datatrove | Profile::TextDedup => (true, true),
            Profile::Spark => (true, false),
            Profile::Nemo | Profile::Datasketch => (false, false),
        };
        Folding {
            lowercase,
            nfkc: false,
            strip_punct,
        }
    }

    /// What the folding ignores, for a reader: `case`, `case and punctuation`, …; `None`
    /// when the words are compared as written.
    pub fn ignored(self) -> Option<String> {
        let parts: Vec<&str> = [
            (self.lowercase, "case"),
            (self.nfkc, "compatibility forms (NFKC)"),
            (self.strip_punct, "punctuation"),
        ]
        .into_iter()
        .filter_map(|(on, what)| on.then_some(what))
        .collect();
        match parts.as_slice() {
            [] => None,
            [one] => Some(one.to_string()),
            [init @ .., last] => Some(format!("{} and {last}", init.join(", "))),
        }
    }

    /// `token` as it is compared. Borrowed when folding changes nothing (the common case:
    /// lowercase ASCII words).
    fn fold<'t>(self, token: &'t str) -> Cow<'t, str> {
        let needs_work = self.nfkc && !token.is_ascii()
            || self.lowercase && token.chars().any(|c| c.is_uppercase() || !c.is_ascii())
            || self.strip_punct && token.chars().any(|c| !c.is_alphanumeric());
        if !needs_work {
            return Cow::Borrowed(token);
        }
        let normalized: Cow<str> = if self.nfkc {
            Cow::Owned(token.nfkc().collect())
        } else {
            Cow::Borrowed(token)
        };
        let mut out = String::with_capacity(normalized.len());
        for c in normalized.chars() {
            // The shingler's order: the class of the char before lowercasing decides.
            if self.strip_punct && !c.is_alphanumeric() && !c.is_whitespace() {
                continue;
            }
            if self.lowercase {
                out.extend(c.to_lowercase());
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    }
}

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
    MovedOut { to: usize },
    /// Only on the right here; the same words are the [`Kind::MovedOut`] row `from`.
    MovedIn { from: usize },
}

impl Kind {
    pub fn is_equal(self) -> bool {
        self == Kind::Equal
    }

    pub fn is_moved(self) -> bool {
        matches!(self, Kind::MovedOut { .. } | Kind::MovedIn { .. })
    }
}

/// One text of the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// One aligned row: what the two texts hold at one place of the alignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    /// Bytes of the left text, from the row's first word to the end of its last. Empty (at
    /// the place the right side's words would go) when the row has nothing on the left.
    pub left: Range<usize>,
    /// The same in the right text.
    pub right: Range<usize>,
    /// How many words (characters) the row holds on the left and on the right.
    pub left_tokens: usize,
    pub right_tokens: usize,
}

impl Row {
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
    pub left: usize,
    pub right: usize,
    /// The cap: [`DiffOptions::max_tokens`].
    pub max_tokens: usize,
}

/// How much changed, in [`Unit`]s. A changed row counts its words on each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Words in equal rows (counted once: they are the same on both sides).
    pub equal: usize,
    pub deleted: usize,
    pub inserted: usize,
    /// Words of changed rows on the left (replaced) and on the right (replacing them).
    pub changed_left: usize,
    pub changed_right: usize,
    /// Words that moved (counted once).
    pub moved: usize,
    /// Words compared in each text.
    pub left_tokens: usize,
    pub right_tokens: usize,
}

impl Summary {
    /// Share of the compared words that are unchanged and in place: 2·equal / (left + right),
    /// 1 for two empty texts. Moved words are not counted as unchanged.
    pub fn unchanged_share(&self) -> f64 {
        let total = self.left_tokens + self.right_tokens;
        if total == 0 {
            1.0
        } else {
            2.0 * self.equal as f64 / total as f64
        }
    }

    /// True when nothing was deleted, inserted, changed or moved.
    pub fn is_unchanged(&self) -> bool {
        self.deleted + self.inserted + self.changed_left + self.changed_right + self.moved == 0
    }

    /// The one-line summary the viewer, the CLI and the exports show:
    /// `3 words inserted, 2 deleted, 4 changed (into 5), 9 moved; 87 % unchanged`.
    pub fn describe(&self, unit: Unit) -> String {
        if self.is_unchanged() {
            return format!(
                "no difference in {} {} compared",
                thousands(self.left_tokens as u64),
                unit.noun(self.left_tokens as u64)
            );
        }
        let mut parts: Vec<String> = Vec::new();
        let mut noun_said = false;
        let mut part = |n: usize, what: String| {
            if n > 0 {
                let noun = if noun_said {
                    String::new()
                } else {
                    noun_said = true;
                    format!(" {}", unit.noun(n as u64))
                };
                parts.push(format!("{}{noun} {what}", thousands(n as u64)));
            }
        };
        part(self.inserted, "inserted".into());
        part(self.deleted, "deleted".into());
        let into = if self.changed_right != self.changed_left {
            format!(" (into {})", thousands(self.changed_right as u64))
        } else {
            String::new()
        };
        part(self.changed_left, format!("changed{into}"));
        if self.changed_left == 0 && self.changed_right > 0 {
            // Only possible for an empty left side of a change; say it rather than lose it.
            part(self.changed_right, "written in".into());
        }
        part(self.moved, "moved".into());
        // Moved words are not unchanged: say so where there are any.
        let in_place = if self.moved > 0 { " in place" } else { "" };
        format!(
            "{}; {} unchanged{in_place}",
            parts.join(", "),
            percent_rough(self.unchanged_share())
        )
    }
}

/// What one stretch of a text is, for a renderer walking it ([`TextDiff::segments`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentKind {
    /// Row `row` of [`TextDiff::rows`], of this kind. May be empty: the other text has words
    /// here that this one lacks (draw a marker or nothing).
    Row { row: usize, kind: Kind },
    /// Whitespace between rows (word mode), not compared.
    Gap,
    /// Past the size cap: not compared.
    Uncompared,
}

/// A stretch of one text: a byte range and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub range: Range<usize>,
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
    pub summary: Summary,
    /// Where the size cap stopped the comparison; `None` when both texts were compared whole.
    pub cut: Option<Cut>,
    /// The deadline passed: the alignment after that point is coarser than the best one (more
    /// deleted and inserted than needed), never wrong.
    pub approximate: bool,
    /// Byte lengths of the two texts the diff was computed on.
    pub left_len: usize,
    pub right_len: usize,
    /// How the words were folded before they were compared.
    pub folding: Folding,
}

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

    // A replacement enters as a deletion and an insertion, so that either half can be
    // recognised as a move; the fold joins the halves that are not back into one change.
    // Positions come from the ops' lengths, in order: after `similar`'s compaction (2.7.0)
    // the index an op holds for the side it does not touch (a deletion's `new_index`) can
    // be off, while lengths and order are right.
    let mut rows: Vec<TokenRow> = Vec::with_capacity(ops.len() + 8);
    let (mut at_left, mut at_right) = (0, 0);
    for op in &ops {
        let (tag, l, r) = op.as_tag_tuple();
        let l = at_left..at_left + l.len();
        let r = at_right..at_right + r.len();
        (at_left, at_right) = (l.end, r.end);
        let row = |kind, l, r| TokenRow { kind, l, r };
        match tag {
            DiffTag::Equal => rows.push(row(Kind::Equal, l, r)),
            DiffTag::Delete => rows.push(row(Kind::Deleted, l, r)),
            DiffTag::Insert => rows.push(row(Kind::Inserted, l, r)),
            DiffTag::Replace => {
                rows.push(row(Kind::Deleted, l.clone(), r.start..r.start));
                rows.push(row(Kind::Inserted, l.end..l.end, r));
            }
        }
    }
    debug_assert_eq!((at_left, at_right), (left_words.len(), right_words.len()));
    let min_moved = match unit {
        Unit::Words => MIN_MOVED_WORDS,
        Unit::Chars => MIN_MOVED_CHARS,
    };
    mark_moves(&mut rows, &left_words, &right_words, min_moved);
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
    let rows: Vec<Row> = rows
        .iter()
        .map(|row| Row {
            kind: row.kind,
            left: byte_range(&left_tokens, &row.l),
            right: byte_range(&right_tokens, &row.r),
            left_tokens: row.l.len(),
            right_tokens: row.r.len(),
        })
        .collect();

    let mut summary = Summary {
        left_tokens: left_tokens.len(),
        right_tokens: right_tokens.len(),
        ..Summary::default()
    };
    for row in &rows {
        match row.kind {
            Kind::Equal => summary.equal += row.left_tokens,
            Kind::Deleted => summary.deleted += row.left_tokens,
            Kind::Inserted => summary.inserted += row.right_tokens,
            Kind::Changed => {
                summary.changed_left += row.left_tokens;
                summary.changed_right += row.right_tokens;
            }
            Kind::MovedOut { .. } => summary.moved += row.left_tokens,
            Kind::MovedIn { .. } => {}
        }
    }
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
    TextDiff {
        unit,
        rows,
        differences,
        summary,
        cut,
        approximate,
        left_len: left.len(),
        right_len: right.len(),
        folding,
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
        line
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

/// A row while rows are built: token index ranges on each side.
#[derive(Debug, Clone)]
struct TokenRow {
    kind: Kind,
    l: Range<usize>,
    r: Range<usize>,
}

/// True for a text a word diff would see as one or a few huge words: no whitespace at all
/// (beyond a short word), or mostly letters of scripts written without spaces. Looks at the
/// first 4,096 characters.
fn written_without_spaces(text: &str) -> bool {
    let (mut letters, mut spaceless, mut spaces) = (0usize, 0usize, 0usize);
    for c in text.chars().take(4096) {
        if c.is_whitespace() {
            spaces += 1;
        } else if c.is_alphanumeric() {
            letters += 1;
            spaceless += is_spaceless_script(c) as usize;
        }
    }
    (spaces == 0 && letters > 0) || 2 * spaceless > letters
}

/// Letters of scripts that do not separate words with spaces: Thai, Lao, Myanmar, Khmer,
/// kana, Han (CJK unified ideographs and extension A, compatibility ideographs) and Hangul
/// syllables (Korean separates words, but its syllables are dense enough that a word diff
/// of short Korean texts is too coarse).
fn is_spaceless_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF      // Thai, Lao
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

/// What each token is compared as, folded; tokens that fold to nothing (punctuation when
/// it is stripped) are removed from `tokens`: they are not compared, as they are not
/// shingled.
fn fold_tokens<'t>(
    text: &'t str,
    tokens: &mut Vec<Range<usize>>,
    folding: Folding,
) -> Vec<Cow<'t, str>> {
    let mut keys = Vec::with_capacity(tokens.len());
    tokens.retain(|range| {
        let key = folding.fold(&text[range.clone()]);
        let keep = !key.is_empty();
        if keep {
            keys.push(key);
        }
        keep
    });
    keys
}

/// The byte ranges of the first `max` tokens of `text`, and where the cap stopped (the
/// start of the first token left out), if it did. With `marks_attached`, a character token
/// holds the combining marks that follow it (NFKC composes them with it).
fn tokenize(
    text: &str,
    unit: Unit,
    max: usize,
    marks_attached: bool,
) -> (Vec<Range<usize>>, Option<usize>) {
    let mut tokens: Vec<Range<usize>> = Vec::new();
    match unit {
        Unit::Chars => {
            for (i, c) in text.char_indices() {
                if marks_attached
                    && canonical_combining_class(c) != 0
                    && let Some(last) = tokens.last_mut()
                    && last.end == i
                {
                    last.end = i + c.len_utf8();
                    continue;
                }
                if tokens.len() == max {
                    return (tokens, Some(i));
                }
                tokens.push(i..i + c.len_utf8());
            }
        }
        Unit::Words => {
            let mut start = None;
            for (i, c) in text.char_indices() {
                match (c.is_whitespace(), start) {
                    (false, None) => {
                        if tokens.len() == max {
                            return (tokens, Some(i));
                        }
                        start = Some(i);
                    }
                    (true, Some(s)) => {
                        tokens.push(s..i);
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some(s) = start {
                tokens.push(s..text.len());
            }
        }
    }
    (tokens, None)
}

/// Folds an equal run into the edits around it when it is no longer than either of them
/// (each edit's size is its longer side): `[-the cat-] sat [-down-]` against `{+a dog+} sat
/// {+still+}` reads better as one change than as three pieces. Adjacent edits merge into
/// one changed row. Moves are neither folded nor merged; their partner indices are updated
/// to the rows' new places.
fn fold_short_equal_runs(rows: &mut Vec<TokenRow>) {
    let is_edit = |row: &TokenRow| !row.kind.is_equal() && !row.kind.is_moved();
    let size = |row: &TokenRow| row.l.len().max(row.r.len());
    let mut out: Vec<TokenRow> = Vec::with_capacity(rows.len());
    // Where each input row went (moved rows are never merged, so theirs is exact).
    let mut new_index = vec![0usize; rows.len()];
    let mut i = 0;
    while i < rows.len() {
        let row = rows[i].clone();
        let previous_edit = out.last().filter(|p| is_edit(p));
        let next_edit = rows.get(i + 1).filter(|n| is_edit(n));
        if row.kind.is_equal()
            && let (Some(prev), Some(next)) = (previous_edit, next_edit)
            && row.l.len() <= size(prev)
            && row.l.len() <= size(next)
        {
            let next = next.clone();
            let prev = out.last_mut().expect("checked above");
            prev.kind = Kind::Changed;
            prev.l = prev.l.start..next.l.end;
            prev.r = prev.r.start..next.r.end;
            new_index[i] = out.len() - 1;
            new_index[i + 1] = out.len() - 1;
            i += 2;
            continue;
        }
        match out.last_mut() {
            // A deletion next to an insertion is one change.
            Some(prev) if is_edit(prev) && is_edit(&row) => {
                prev.kind = Kind::Changed;
                prev.l = prev.l.start..row.l.end;
                prev.r = prev.r.start..row.r.end;
            }
            _ => out.push(row),
        }
        new_index[i] = out.len() - 1;
        i += 1;
    }
    for row in &mut out {
        row.kind = match row.kind {
            Kind::MovedOut { to } => Kind::MovedOut { to: new_index[to] },
            Kind::MovedIn { from } => Kind::MovedIn {
                from: new_index[from],
            },
            other => other,
        };
    }
    *rows = out;
}

/// Drops the rows after the last equal one, if there are both, and returns how many tokens
/// of each side the kept rows hold. A move whose partner is dropped becomes a plain deletion
/// (insertion).
fn drop_unaligned_tail(rows: &mut Vec<TokenRow>) -> Option<(usize, usize)> {
    let last_equal = rows.iter().rposition(|r| r.kind.is_equal())?;
    if last_equal + 1 == rows.len() {
        return None;
    }
    rows.truncate(last_equal + 1);
    let kept = rows.len();
    for row in rows.iter_mut() {
        row.kind = match row.kind {
            Kind::MovedOut { to } if to >= kept => Kind::Deleted,
            Kind::MovedIn { from } if from >= kept => Kind::Inserted,
            other => other,
        };
    }
    let last = &rows[last_equal];
    Some((last.l.end, last.r.end))
}

/// Marks a run deleted on the left that is inserted word for word elsewhere on the right as
/// moved, both rows naming each other (by index in `rows`). Runs shorter than `min` are left
/// alone; the first unpaired insertion of the same words is the partner.
fn mark_moves<T: std::hash::Hash + Eq>(rows: &mut [TokenRow], left: &[T], right: &[T], min: usize) {
    let mut inserted: HashMap<&[T], Vec<usize>> = HashMap::new();
    for (i, row) in rows.iter().enumerate().rev() {
        if row.kind == Kind::Inserted && row.r.len() >= min {
            inserted.entry(&right[row.r.clone()]).or_default().push(i);
        }
    }
    if inserted.is_empty() {
        return;
    }
    for i in 0..rows.len() {
        if rows[i].kind != Kind::Deleted || rows[i].l.len() < min {
            continue;
        }
        // Pushed in reverse, so `pop` gives the first one.
        let Some(to) = inserted
            .get_mut(&left[rows[i].l.clone()])
            .and_then(|c| c.pop())
        else {
            continue;
        };
        rows[i].kind = Kind::MovedOut { to };
        rows[to].kind = Kind::MovedIn { from: i };
    }
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
