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
mod prefix;
mod summary;
mod tokens;

use moves::*;
use tokens::*;

pub use summary::{Summary, changed_inside};

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

/// A moved block with edits inside holds at least this many words the same at both places:
/// shorter runs of prose share enough common words by chance to pass for a block.
pub const MIN_EDITED_MOVE_WORDS: usize = 20;

/// The same for characters: about twenty CJK words.
pub const MIN_EDITED_MOVE_CHARS: usize = 40;

/// The share of a moved block's words (on its longer side) that must be the same at both
/// places: 0.8 allows a holder's name and a few words changed in a notice of a hundred, and
/// rejects two paragraphs that merely share their common words.
pub const MOVED_BLOCK_MATCH: f64 = 0.8;

/// Of the runs the first alignment left deleted (inserted), at most this many of the longest
/// are looked at as halves of a moved block with edits.
pub const MAX_MOVE_CANDIDATES: usize = 32;

/// The runs aligned while looking for moved blocks with edits add up to at most this many
/// times the tokens compared (both texts), so the search costs at most a few alignments.
pub const MOVE_SEARCH_BUDGET: usize = 4;

/// The search for moved blocks with edits runs at most this many passes; each takes at most
/// one block from each run.
const MAX_MOVE_PASSES: usize = 4;

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
    /// The moved block this row is part of (an index into [`TextDiff::moves`]): set on its
    /// [`Kind::MovedOut`] and [`Kind::MovedIn`] rows and on the [`Kind::Deleted`] and
    /// [`Kind::Inserted`] rows of the edits inside it; `None` elsewhere.
    pub moved: Option<usize>,
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
    pub right: Range<usize>,
    /// Words (characters) of the block in each text.
    pub left_tokens: usize,
    pub right_tokens: usize,
    /// Words the same at both places (counted once).
    pub unchanged: usize,
    /// Words the move changed: as they were (left) and as they are (right).
    pub changed_left: usize,
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
