//! How to diff: the default bounds of the alignment and the move search, the unit of
//! comparison and how words are folded before they are compared.

use super::*;

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
pub(super) const MAX_MOVE_PASSES: usize = 4;

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
    /// Words split at whitespace, each row a run of whole words.
    Words,
    /// Single characters, for texts written without spaces between words (CJK).
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
    /// Words, characters, or decided from the texts ([`Granularity::Auto`]).
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
    pub(super) fn fold<'t>(self, token: &'t str) -> Cow<'t, str> {
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
