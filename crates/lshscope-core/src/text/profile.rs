//! Tool-faithful shingling (`--profile`): the normalization, tokenization and n-gram rules of
//! the tools lshscope exports to, so that the Jaccard measured here is the one the tool sees.
//!
//! Each profile follows the tool's current source (named at each function); the fixtures in
//! `tests/fixtures/profiles/` hold the tools' own output on tricky texts, and
//! `crates/lshscope-core/tests/engine/profiles.rs` compares every shingle string with them.

use std::ops::Range;
use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::ShingleKind;
use super::spacy_en;
use crate::terms::Message;
use crate::terms::Setting::Shingle;

/// Whose normalization and shingling to use.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// lshscope's own, set by `--shingle`, `--no-lowercase`, `--nfkc` and `--strip-punct`.
    #[default]
    Lshscope,
    /// datatrove's MinhashDedupSignature: simplify_text, spaCy's English tokenizer, word n-grams.
    Datatrove,
    /// text-dedup's minhash: lowercase, split at non-word characters, word n-grams.
    TextDedup,
    /// NeMo Curator's fuzzy dedup: character n-grams of the raw text (cuDF `str.minhash`).
    Nemo,
    /// datasketch's documented usage: the whitespace-separated words of the raw text.
    Datasketch,
    /// Spark MLlib's Tokenizer (lowercase, split at each whitespace character) and NGram.
    Spark,
}

impl Profile {
    /// Every profile, lshscope's first.
    pub const ALL: [Profile; 6] = [
        Profile::Lshscope,
        Profile::Datatrove,
        Profile::TextDedup,
        Profile::Nemo,
        Profile::Datasketch,
        Profile::Spark,
    ];

    /// The name `--profile` takes.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Lshscope => "lshscope",
            Profile::Datatrove => "datatrove",
            Profile::TextDedup => "text-dedup",
            Profile::Nemo => "nemo",
            Profile::Datasketch => "datasketch",
            Profile::Spark => "spark",
        }
    }

    /// The shingles the tool uses when not told otherwise.
    pub fn default_shingle(self) -> ShingleKind {
        match self {
            // lshscope's own default (`--shingle char:5`).
            Profile::Lshscope => ShingleKind::Char(5),
            // MinhashConfig.n_grams = 5.
            Profile::Datatrove => ShingleKind::Word(5),
            // MinHashAlgorithmConfig.ngram_size = 1.
            Profile::TextDedup => ShingleKind::Word(1),
            // MinHashStage / FuzzyDeduplicationWorkflow char_ngrams = 24.
            Profile::Nemo => ShingleKind::Char(24),
            // The README hashes single words.
            Profile::Datasketch => ShingleKind::Word(1),
            // NGram's default n = 2.
            Profile::Spark => ShingleKind::Word(2),
        }
    }

    /// Whether the tool can shingle this way; the error says what it can do instead.
    pub fn check_shingle(self, kind: ShingleKind) -> Result<(), Message> {
        match (self, kind) {
            (Profile::Lshscope, _) => Ok(()),
            (Profile::Nemo, ShingleKind::Char(k)) if k >= 2 => Ok(()),
            (Profile::Nemo, ShingleKind::Char(k)) => Err(Message::from(format!(
                "NeMo Curator (cuDF's str.minhash) needs char_ngrams of 2 or more, got char:{k}"
            ))),
            (Profile::Nemo, ShingleKind::Word(_)) => Err(Message::from(format!(
                "NeMo Curator shingles characters only: use {Shingle} char:K (its default is 24)"
            ))),
            (_, ShingleKind::Word(_)) => Ok(()),
            (p, ShingleKind::Char(_)) => Err(Message::from(format!(
                "{} shingles words only: use {Shingle} word:N (its default is {})",
                p.name(),
                p.default_shingle()
            ))),
        }
    }

    /// The tool's normalization and shingling in one sentence.
    pub fn normalization(self) -> &'static str {
        match self {
            Profile::Lshscope => {
                "lshscope's own: optional NFKC, lowercase, optional punctuation removal, \
                 whitespace runs collapsed; a text shorter than one shingle is one shingle"
            }
            Profile::Datatrove => {
                "simplify_text with TextNormConfig's defaults (lowercase; every run of digits, \
                 with one decimal separator, becomes 0; its punctuation list becomes spaces; \
                 whitespace collapsed; NFD with nonspacing marks dropped), then spaCy's blank \
                 English tokenizer (\"dont\" is do + nt, \"cannot\" can + not, \"0km\" 0 + km, \
                 each symbol or emoji its own token), then word n-grams; a text with fewer \
                 than n tokens has no shingle"
            }
            Profile::TextDedup => {
                "lowercase, split at every non-word character (regex \\W; empty pieces \
                 dropped), word n-grams joined by spaces; fewer than min_length = 5 tokens: \
                 no shingle (text-dedup drops the document), fewer than n: one shingle of \
                 all tokens"
            }
            Profile::Nemo => {
                "no normalization: every run of K characters of the raw text (case, \
                 punctuation and whitespace kept); a text shorter than K is one shingle"
            }
            Profile::Datasketch => {
                "datasketch has no tokenizer (MinHash.update takes bytes); this profile is its \
                 README's usage: the words of str.split() on the raw text, case kept; word:N \
                 joins N words with a space (a shorter text is one shingle)"
            }
            Profile::Spark => {
                "Tokenizer: lowercase, split at every single whitespace character (so runs \
                 of spaces leave empty tokens, trailing ones dropped); NGram(n) joins n tokens \
                 with a space and gives nothing for fewer than n tokens"
            }
        }
    }

    /// How closely lshscope reproduces the tool's shingles, measured on the fixtures.
    pub fn fidelity(self) -> &'static str {
        match self {
            Profile::Lshscope => "exact by definition",
            Profile::Datatrove => {
                "identical shingle sets on every fixture, English only: spaCy's special cases \
                 and affix rules, as far as they can act on simplified text, are tables \
                 generated from spaCy itself; datatrove's tokenizers for other languages are \
                 not reproduced"
            }
            Profile::TextDedup | Profile::Nemo | Profile::Datasketch | Profile::Spark => {
                "identical shingle sets on every fixture"
            }
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                format!("unknown profile `{s}`: use one of {}", names.join(", "))
            })
    }
}

/// Text after a tool's normalization, each char with the bytes of the original text it came
/// from (for highlighting).
#[derive(Debug, Default)]
struct Mapped {
    text: String,
    /// Per char of `text`: its byte offset in `text` and its origin in the original.
    chars: Vec<(usize, Range<usize>)>,
    /// Length of the original text (the origin of an empty span at the end).
    original_len: usize,
}

impl Mapped {
    fn identity(text: &str) -> Mapped {
        Mapped {
            text: text.to_string(),
            chars: text
                .char_indices()
                .map(|(i, c)| (i, i..i + c.len_utf8()))
                .collect(),
            original_len: text.len(),
        }
    }

    /// Full Unicode lowercasing of the whole string (final sigma included, as Python's
    /// `str.lower` and Java's `String.toLowerCase` do), with origins: `str::to_lowercase`
    /// maps each char to as many chars as `char::to_lowercase` does.
    fn lowercase(text: &str) -> Mapped {
        let lower = text.to_lowercase();
        let mut lowered = lower.char_indices();
        let mut chars = Vec::with_capacity(lower.len());
        for (start, c) in text.char_indices() {
            let origin = start..start + c.len_utf8();
            for _ in c.to_lowercase() {
                let (at, _) = lowered.next().expect("same number of chars");
                chars.push((at, origin.clone()));
            }
        }
        Mapped {
            text: lower,
            chars,
            original_len: text.len(),
        }
    }

    fn len(&self) -> usize {
        self.chars.len()
    }

    fn char_at(&self, i: usize) -> char {
        self.text[self.chars[i].0..]
            .chars()
            .next()
            .expect("char index")
    }

    /// The char index of byte offset `byte` (a char boundary of `text`, or its end).
    fn char_index(&self, byte: usize) -> usize {
        self.chars.partition_point(|&(at, _)| at < byte)
    }

    /// The text of chars `range`.
    fn slice(&self, range: Range<usize>) -> &str {
        let start = self.byte(range.start);
        let end = self.byte(range.end);
        &self.text[start..end]
    }

    fn byte(&self, char_index: usize) -> usize {
        self.chars
            .get(char_index)
            .map_or(self.text.len(), |&(at, _)| at)
    }

    /// The original bytes of chars `range` (an empty range: an empty span where it starts).
    fn origin(&self, range: Range<usize>) -> Range<usize> {
        if range.start < range.end {
            self.chars[range.start].1.start..self.chars[range.end - 1].1.end
        } else {
            let at = self
                .chars
                .get(range.start)
                .map_or(self.original_len, |c| c.1.start);
            at..at
        }
    }

    /// A new mapped text built by `f`, which pushes chars with their origin.
    fn rebuild(&self, f: impl FnOnce(&Mapped, &mut Builder)) -> Mapped {
        let mut b = Builder {
            out: Mapped {
                original_len: self.original_len,
                ..Mapped::default()
            },
        };
        f(self, &mut b);
        b.out
    }
}

struct Builder {
    out: Mapped,
}

impl Builder {
    fn push(&mut self, c: char, origin: Range<usize>) {
        self.out.chars.push((self.out.text.len(), origin));
        self.out.text.push(c);
    }
}

/// Python's `str.isspace` (and `re`'s `\s` on str): Unicode White_Space plus the four
/// information separators U+001C..U+001F, which Python counts as whitespace.
fn python_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Java's `\s` without UNICODE_CHARACTER_CLASS: `[ \t\n\x0B\f\r]`.
fn java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// datatrove's `PUNCTUATION` (datatrove/utils/text.py), which `simplify_text` turns into
/// spaces: the listed characters plus the control ranges 0..9, 11..13, 13..32 and 127..160.
/// (Its TERMINAL_PUNCTUATION set is not part of the translation table.)
const DATATROVE_PUNCTUATION: &str =
    "!/—”:％１〈&(、━\\【#%「」，】；+^]~“《„';’{|∶´[=-`*．（–？！：$～«〉,><》)?）。…@_.\"}►»";

/// The ASCII characters of [`DATATROVE_PUNCTUATION`] as a bit mask, so that the common case
/// needs no search through the string (`str::contains` was a tenth of the profile's time).
const DATATROVE_ASCII_PUNCTUATION: u128 = {
    let bytes = DATATROVE_PUNCTUATION.as_bytes();
    let mut mask = 0u128;
    let mut i = 0;
    while i < bytes.len() {
        // Bytes below 128 are whole ASCII characters in UTF-8, never part of a longer one.
        if bytes[i] < 128 {
            mask |= 1 << bytes[i];
        }
        i += 1;
    }
    mask
};

fn datatrove_punctuation(c: char) -> bool {
    let u = c as u32;
    if u < 128 {
        return u < 9
            || (11..32).contains(&u)
            || u == 127
            || DATATROVE_ASCII_PUNCTUATION >> u & 1 == 1;
    }
    u < 160 || DATATROVE_PUNCTUATION.contains(c)
}

/// datatrove's NUMBERS_PATTERN.
static NUMBERS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\p{Nd}+(?:[.,،٫⎖⎗⎘]\p{Nd}+)?").expect("valid regex"));
/// General category Mn (nonspacing mark).
static NONSPACING_MARK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\p{Mn}$").expect("valid regex"));
/// text-dedup's tokens: the pieces between `\W` characters, empty ones dropped.
static WORD_RUNS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("valid regex"));

fn is_nonspacing_mark(c: char) -> bool {
    is_combining_mark(c) && NONSPACING_MARK.is_match(c.encode_utf8(&mut [0; 4]))
}

/// datatrove's `simplify_text(text, TextNormConfig())` (datatrove/utils/text.py), step by step
/// in its order: lowercase, numbers to 0, punctuation to spaces, strip and collapse
/// whitespace, NFD and drop nonspacing marks, strip.
fn datatrove_simplify(text: &str) -> Mapped {
    let lower = Mapped::lowercase(text);
    let numbers = lower.rebuild(|m, b| {
        let mut next = 0;
        for found in NUMBERS.find_iter(&m.text) {
            let (start, end) = (m.char_index(found.start()), m.char_index(found.end()));
            for i in next..start {
                b.push(m.char_at(i), m.chars[i].1.clone());
            }
            b.push('0', m.origin(start..end));
            next = end;
        }
        for i in next..m.len() {
            b.push(m.char_at(i), m.chars[i].1.clone());
        }
    });
    let spaced = numbers.rebuild(|m, b| {
        // Punctuation to spaces, then `WHITESPACE_PATTERN.sub(" ", text.strip())`.
        let mut pending: Option<Range<usize>> = None;
        for i in 0..m.len() {
            let mut c = m.char_at(i);
            if datatrove_punctuation(c) {
                c = ' ';
            }
            if python_isspace(c) {
                pending.get_or_insert(m.chars[i].1.clone());
                continue;
            }
            if let Some(origin) = pending.take()
                && !b.out.text.is_empty()
            {
                b.push(' ', origin);
            }
            b.push(c, m.chars[i].1.clone());
        }
    });
    let mut marks_dropped = spaced.rebuild(|m, b| {
        // NFD per starter and the marks after it (canonical reordering stays inside), then
        // drop category Mn.
        let mut i = 0;
        let mut segment = String::new();
        while i < m.len() {
            let mut end = i + 1;
            while end < m.len() && {
                let next = m.char_at(end);
                !next.is_ascii() && is_combining_mark(next)
            } {
                end += 1;
            }
            let c = m.char_at(i);
            if end == i + 1 && c.is_ascii() {
                // NFD leaves an ASCII char alone and it is no mark: the common case, without
                // the decomposition machinery.
                b.push(c, m.chars[i].1.clone());
                i = end;
                continue;
            }
            segment.clear();
            segment.push_str(m.slice(i..end));
            let origin = m.origin(i..end);
            for c in segment.nfd() {
                if !is_nonspacing_mark(c) {
                    b.push(c, origin.clone());
                }
            }
            i = end;
        }
    });
    // The final `.strip()`: dropping marks can leave a space at either end.
    while marks_dropped.text.ends_with(python_isspace) {
        marks_dropped.text.pop();
        marks_dropped.chars.pop();
    }
    let leading = marks_dropped
        .text
        .chars()
        .take_while(|&c| python_isspace(c))
        .count();
    if leading > 0 {
        let cut = marks_dropped.byte(leading);
        marks_dropped.text.drain(..cut);
        marks_dropped.chars.drain(..leading);
        for c in &mut marks_dropped.chars {
            c.0 -= cut;
        }
    }
    marks_dropped
}

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let u = c as u32;
    let i = table.partition_point(|&(_, hi)| hi < u);
    table.get(i).is_some_and(|&(lo, _)| lo <= u)
}

/// The longest special-case key and digit suffix, in chars: longer strings need no lookup
/// (which keeps a long chunk without spaces linear).
static LONGEST: LazyLock<(usize, usize)> = LazyLock::new(|| {
    let chars = |s: &&str| s.chars().count();
    (
        spacy_en::SPECIALS
            .iter()
            .map(|(k, _)| chars(k))
            .max()
            .unwrap_or(0),
        spacy_en::DIGIT_SUFFIXES
            .iter()
            .map(chars)
            .max()
            .unwrap_or(0),
    )
});

/// Room for the UTF-8 of any special-case key (checked by a test), so that a lookup needs no
/// allocation: a chunk whose UTF-8 does not fit is longer than every key.
const SPECIAL_KEY_BYTES: usize = 64;

fn special(chars: &[char]) -> Option<&'static [&'static str]> {
    if chars.len() > LONGEST.0 {
        return None;
    }
    let mut buf = [0u8; SPECIAL_KEY_BYTES];
    let mut len = 0;
    for &c in chars {
        if len + c.len_utf8() > buf.len() {
            return None;
        }
        len += c.encode_utf8(&mut buf[len..]).len();
    }
    let key = std::str::from_utf8(&buf[..len]).expect("encoded chars");
    spacy_en::SPECIALS
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|i| spacy_en::SPECIALS[i].1)
}

/// spaCy's `find_prefix` on what can reach it: one prefix character.
fn spacy_prefix(chars: &[char]) -> usize {
    usize::from(
        chars
            .first()
            .is_some_and(|&c| in_ranges(spacy_en::PREFIX, c)),
    )
}

/// spaCy's `find_suffix`: the leftmost match of its suffix alternatives anchored at the end,
/// which is a unit or currency right after an ASCII digit where one ends the string, else one
/// suffix character.
fn spacy_suffix(chars: &[char]) -> usize {
    let first = chars.len().saturating_sub(LONGEST.1).max(1);
    for start in first..chars.len() {
        if chars[start - 1].is_ascii_digit() {
            let rest: String = chars[start..].iter().collect();
            if spacy_en::DIGIT_SUFFIXES.contains(&rest.as_str()) {
                return chars.len() - start;
            }
        }
    }
    usize::from(
        chars
            .last()
            .is_some_and(|&c| in_ranges(spacy_en::SUFFIX, c)),
    )
}

/// spaCy's `Tokenizer._split_affixes` and `_attach_tokens` (spacy/tokenizer.pyx) on one chunk
/// between spaces, `chars[base..]` being the chunk; pushes token char ranges.
fn spacy_chunk(chars: &[char], base: usize, out: &mut Vec<Range<usize>>) {
    let (mut start, mut end) = (0, chars.len());
    let mut prefixes: Vec<Range<usize>> = Vec::new();
    let mut suffixes: Vec<Range<usize>> = Vec::new();
    let mut last_size = 0;
    // The last special-case lookup and the range it was for: a chunk without affixes is looked
    // up once, not again after the loop.
    let mut looked_up: Option<(Range<usize>, Option<&'static [&'static str]>)> = None;
    while start < end && end - start != last_size {
        let found = special(&chars[start..end]);
        looked_up = Some((start..end, found));
        if found.is_some() {
            break;
        }
        last_size = end - start;
        let pre_len = spacy_prefix(&chars[start..end]);
        if pre_len != 0 && start + pre_len < end && special(&chars[start + pre_len..end]).is_some()
        {
            prefixes.push(start..start + pre_len);
            start += pre_len;
            break;
        }
        let suf_len = spacy_suffix(&chars[start + pre_len..end]);
        if suf_len != 0 && start < end - suf_len && special(&chars[start..end - suf_len]).is_some()
        {
            suffixes.push(end - suf_len..end);
            end -= suf_len;
            break;
        }
        if pre_len != 0 && suf_len != 0 && pre_len + suf_len <= end - start {
            prefixes.push(start..start + pre_len);
            suffixes.push(end - suf_len..end);
            start += pre_len;
            end -= suf_len;
        } else if pre_len != 0 {
            prefixes.push(start..start + pre_len);
            start += pre_len;
        } else if suf_len != 0 {
            suffixes.push(end - suf_len..end);
            end -= suf_len;
        }
    }
    let shift = |r: Range<usize>| r.start + base..r.end + base;
    out.extend(prefixes.into_iter().map(shift));
    if start < end {
        let found = match looked_up {
            Some((range, found)) if range == (start..end) => found,
            _ => special(&chars[start..end]),
        };
        if let Some(tokens) = found {
            // Special-case tokens spell the chunk out (checked when the table was made).
            let mut at = start;
            for token in tokens {
                let len = token.chars().count();
                out.push(shift(at..at + len));
                at += len;
            }
        } else {
            let mut piece = start;
            for (i, &c) in chars.iter().enumerate().take(end).skip(start) {
                // An infix at the very start of the string is not split off.
                if i == start || !in_ranges(spacy_en::INFIX, c) {
                    continue;
                }
                if i != piece {
                    out.push(shift(piece..i));
                }
                out.push(shift(i..i + 1));
                piece = i + 1;
            }
            if piece < end {
                out.push(shift(piece..end));
            }
        }
    }
    out.extend(suffixes.into_iter().rev().map(shift));
}

/// datatrove's word tokens: spaCy's blank English tokenizer on the chunks between whitespace
/// (`SpaCyTokenizer("en").word_tokenize`, whitespace tokens dropped by `strip_strings`).
fn datatrove_tokens(m: &Mapped) -> Vec<Range<usize>> {
    let chars: Vec<char> = m.text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if python_isspace(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !python_isspace(chars[i]) {
            i += 1;
        }
        spacy_chunk(&chars[start..i], start, &mut tokens);
    }
    tokens
}

/// What a tool does with a document that has fewer tokens than one n-gram.
#[derive(Clone, Copy)]
enum Short {
    /// No shingle (datatrove's and Spark's sliding windows).
    Nothing,
    /// One shingle of all its tokens, if it has any.
    Whole,
    /// text-dedup: no shingle below `min_length` tokens, else one of all tokens.
    MinLength(usize),
}

/// text-dedup's default `min_length`.
const TEXT_DEDUP_MIN_LENGTH: usize = 5;

/// Calls `f(shingle, original byte range)` for each shingle of `text` under `profile` (not
/// [`Profile::Lshscope`]), in text order, duplicates included.
pub(super) fn for_each_shingle(
    profile: Profile,
    kind: ShingleKind,
    text: &str,
    buf: &mut String,
    mut f: impl FnMut(&[u8], Range<usize>),
) {
    let n = match kind {
        ShingleKind::Word(n) => n,
        ShingleKind::Char(k) => {
            // Character windows of the raw text: NeMo (cuDF minhash_kernel) and, for a
            // profile asked for characters anyway, the same rule.
            let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for (j, &start) in starts.iter().enumerate() {
                if j + k <= starts.len() {
                    let end = starts.get(j + k).copied().unwrap_or(text.len());
                    f(&text.as_bytes()[start..end], start..end);
                } else if j == 0 {
                    f(text.as_bytes(), 0..text.len());
                } else {
                    break;
                }
            }
            return;
        }
    };
    let (mapped, tokens, short) = match profile {
        Profile::Lshscope | Profile::Nemo => unreachable!("no word profile for {profile}"),
        Profile::Datatrove => {
            let m = datatrove_simplify(text);
            let tokens = datatrove_tokens(&m);
            (m, tokens, Short::Nothing)
        }
        Profile::TextDedup => {
            let m = Mapped::lowercase(text);
            let tokens = WORD_RUNS
                .find_iter(&m.text)
                .map(|w| m.char_index(w.start())..m.char_index(w.end()))
                .collect();
            (m, tokens, Short::MinLength(TEXT_DEDUP_MIN_LENGTH))
        }
        Profile::Datasketch => {
            let m = Mapped::identity(text);
            let tokens = split_runs(&m, python_isspace);
            (m, tokens, Short::Whole)
        }
        Profile::Spark => {
            let m = Mapped::lowercase(text);
            let tokens = java_split(&m);
            (m, tokens, Short::Nothing)
        }
    };
    let mut emit = |window: &[Range<usize>]| {
        buf.clear();
        for (i, t) in window.iter().enumerate() {
            if i > 0 {
                buf.push(' ');
            }
            buf.push_str(mapped.slice(t.clone()));
        }
        let chars = window[0].start..window[window.len() - 1].end;
        f(buf.as_bytes(), mapped.origin(chars));
    };
    if tokens.len() < n {
        match short {
            Short::Nothing => {}
            Short::Whole if tokens.is_empty() => {}
            Short::MinLength(min) if tokens.len() < min || tokens.is_empty() => {}
            Short::Whole | Short::MinLength(_) => emit(&tokens),
        }
        return;
    }
    if let Short::MinLength(min) = short
        && tokens.len() < min
    {
        return;
    }
    for window in tokens.windows(n) {
        emit(window);
    }
}

/// The maximal runs of chars that are not `sep`.
fn split_runs(m: &Mapped, sep: impl Fn(char) -> bool) -> Vec<Range<usize>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for i in 0..m.len() {
        match (sep(m.char_at(i)), start) {
            (true, Some(s)) => {
                tokens.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push(s..m.len());
    }
    tokens
}

/// Java's `String.split("\\s")`: a token between every two whitespace chars (empty ones
/// included), trailing empty tokens removed; a string without whitespace is one token, even
/// when empty.
fn java_split(m: &Mapped) -> Vec<Range<usize>> {
    let mut tokens = Vec::new();
    let mut start = 0;
    for i in 0..m.len() {
        if java_space(m.char_at(i)) {
            tokens.push(start..i);
            start = i + 1;
        }
    }
    if tokens.is_empty() {
        // One token: the whole (possibly empty) string.
        let whole: Range<usize> = 0..m.len();
        return std::iter::once(whole).collect();
    }
    tokens.push(start..m.len());
    while tokens.last().is_some_and(|t| t.is_empty()) {
        tokens.pop();
    }
    tokens
}

/// The tool's normalized text: what its tokenizer sees (raw text for NeMo and datasketch).
pub(super) fn normalized(profile: Profile, text: &str) -> String {
    match profile {
        Profile::Lshscope | Profile::Nemo | Profile::Datasketch => text.to_string(),
        Profile::Datatrove => datatrove_simplify(text).text,
        Profile::TextDedup | Profile::Spark => text.to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shingles(profile: Profile, kind: &str, text: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut buf = String::new();
        for_each_shingle(profile, kind.parse().unwrap(), text, &mut buf, |s, r| {
            out.push((String::from_utf8(s.to_vec()).unwrap(), text[r].to_string()))
        });
        out
    }

    #[test]
    fn datatrove_simplifies_like_simplify_text() {
        assert_eq!(
            datatrove_simplify("  Café, 3.50€ and 1,000,000 ÉLAN\t\n").text,
            "cafe 0€ and 0 0 elan"
        );
        assert_eq!(datatrove_simplify("a \u{301}").text, "a");
    }

    #[test]
    fn datatrove_punctuation_mask_agrees_with_the_list() {
        // The definition the mask stands for: datatrove's PUNCTUATION string plus its control
        // ranges, tested on every char.
        let by_list = |c: char| {
            let u = c as u32;
            u < 9
                || (11..32).contains(&u)
                || (127..160).contains(&u)
                || DATATROVE_PUNCTUATION.contains(c)
        };
        for u in 0..=0x10FFFF {
            if let Some(c) = char::from_u32(u) {
                assert_eq!(datatrove_punctuation(c), by_list(c), "U+{u:04X}");
            }
        }
    }

    #[test]
    fn special_case_keys_fit_the_lookup_buffer() {
        for (key, tokens) in spacy_en::SPECIALS {
            assert!(key.len() <= SPECIAL_KEY_BYTES, "{key}");
            let chars: Vec<char> = key.chars().collect();
            assert_eq!(special(&chars), Some(*tokens), "{key}");
        }
        let long: Vec<char> = "é".repeat(SPECIAL_KEY_BYTES).chars().collect();
        assert_eq!(special(&long[..LONGEST.0.min(long.len())]), None);
        assert_eq!(special(&['d', 'o', 'n', 't', 'x']), None);
    }

    #[test]
    fn datatrove_splits_contractions_and_units() {
        let got: Vec<String> = shingles(Profile::Datatrove, "word:1", "I dont know, 5km!")
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        assert_eq!(got, ["i", "do", "nt", "know", "0", "km"]);
    }

    #[test]
    fn spans_point_at_the_original_text() {
        let got = shingles(Profile::Datatrove, "word:2", "Naïve  CAFÉS, 12.5 x");
        assert_eq!(
            got,
            [
                ("naive cafes".to_string(), "Naïve  CAFÉS".to_string()),
                ("cafes 0".to_string(), "CAFÉS, 12.5".to_string()),
                ("0 x".to_string(), "12.5 x".to_string()),
            ]
        );
        let spark = shingles(Profile::Spark, "word:2", "A  b");
        assert_eq!(
            spark,
            [
                ("a ".to_string(), "A ".to_string()),
                (" b".to_string(), " b".to_string())
            ]
        );
    }

    #[test]
    fn short_texts_follow_each_tool() {
        assert!(shingles(Profile::Datatrove, "word:5", "only four words here").is_empty());
        assert!(shingles(Profile::TextDedup, "word:1", "four words are short").is_empty());
        assert_eq!(
            shingles(Profile::TextDedup, "word:9", "five words are now enough").len(),
            1
        );
        assert!(shingles(Profile::Spark, "word:3", "two words").is_empty());
        assert_eq!(shingles(Profile::Spark, "word:1", "").len(), 1);
        assert_eq!(
            shingles(Profile::Datasketch, "word:3", "two words").len(),
            1
        );
        assert_eq!(shingles(Profile::Nemo, "char:24", "short").len(), 1);
        assert!(shingles(Profile::Nemo, "char:24", "").is_empty());
    }

    #[test]
    fn profiles_parse_and_check_shingles() {
        for p in Profile::ALL {
            assert_eq!(p.name().parse(), Ok(p));
            assert_eq!(p.check_shingle(p.default_shingle()), Ok(()));
        }
        assert!("nltk".parse::<Profile>().is_err());
        assert!(Profile::Nemo.check_shingle(ShingleKind::Word(5)).is_err());
        assert!(Profile::Nemo.check_shingle(ShingleKind::Char(1)).is_err());
        assert!(
            Profile::Datatrove
                .check_shingle(ShingleKind::Char(5))
                .is_err()
        );
    }
}
