//! The engine's words for the settings a caller chooses, and how a face puts its own in.
//!
//! An engine message that tells the user what to change ("pass `skip_bad` to skip such
//! lines") names a [`Setting`], not a command-line flag: the engine has callers that have no
//! flags (Python, a library user). Formatting a `Setting` into a message writes a token that
//! stands for it; the message stays a plain `String` inside [`crate::Error`] and the read
//! reports' [`Message`]s, so a face can wrap it in its own sentence and the token survives.
//! Showing the text replaces each token by a name: [`neutral`] (the engine's own, what
//! `Display` of an error or a [`Message`] gives), or a face's, through [`render`] (the command
//! line's `--skip-bad`, Python's `skip_bad=True`).

use std::borrow::Cow;
use std::fmt;

/// A setting of the engine's options that a message may tell the user to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    /// Which CSV/TSV/Parquet column holds the text ([`crate::corpus::ReadOptions::text_column`]).
    TextColumn,
    /// Which CSV/TSV/Parquet column holds the id.
    IdColumn,
    /// Which JSON Lines field holds the text.
    TextField,
    /// Which JSON Lines field holds the id.
    IdField,
    /// Name documents by row (line) number even where the input has an id column or field.
    RowIds,
    /// The input format ([`crate::corpus::InputFormat`]).
    Format,
    /// Skip malformed records instead of failing.
    SkipBad,
    /// Stop with an error where reading the input would only warn.
    Strict,
    /// CSV/TSV: the first row is data, not a header (`has_headers = false`).
    NoHeaders,
    /// CSV/TSV quoting.
    Quote,
    /// Keep only the first N documents.
    Limit,
    /// Keep a uniform sample of N documents.
    Sample,
    /// Directory input: include hidden files.
    Hidden,
    /// Directory input: do not honour ignore files.
    NoIgnore,
    /// The shingle kind and size (`char:K`, `word:N`).
    Shingle,
    /// Rebuild the index instead of opening it from the cache.
    NoCache,
    /// The two id columns of an imported pairs table.
    PairColumns,
    /// The id and cluster columns of an imported clusters table.
    ClusterColumns,
    /// K: the number of hash functions (permutations) in a signature.
    NumPerm,
    /// b: the number of bands.
    Bands,
    /// r: the rows of each band.
    Rows,
    /// A banding b × r to evaluate as it is.
    Banding,
    /// The banding a scan ran with, to weight its candidate pairs.
    ScanBanding,
    /// The Jaccard threshold t at which pairs count as duplicates.
    Threshold,
    /// The sketch family of the signatures (classic or one-permutation).
    Family,
    /// The largest bucket whose pairs are emitted.
    MaxBucket,
    /// How many candidate pairs may be held in memory to sort them.
    SortLimit,
    /// Write pairs as found instead of sorted.
    Unsorted,
    /// A truth file: every pair at or above the join's threshold.
    Truth,
    /// A stratified sample of N pairs instead of the exact join.
    EstimatePairs,
    /// Sample pairs uniformly instead of by strata.
    Uniform,
    /// The lower strata threshold of a stratified sample (or `off`).
    LowerThreshold,
    /// Run the exact join past its size guard.
    Force,
    /// The time the exact join may take before it is refused.
    MaxSeconds,
    /// A file of pair labels.
    Labels,
    /// A pairs file of a scan, whose similarities weight the tuner's corpus columns.
    Pairs,
    /// A file of pair similarities for the tuner's corpus columns.
    Similarities,
    /// A corpus the tuner measures on.
    Corpus,
    /// The tuner's expected candidate budget.
    Budget,
    /// The tool to translate the chosen banding for.
    Export,
    /// The tuner's bound on removing a pair below the threshold.
    MaxFalseRemoval,
    /// The P(t) the tuner's recall criterion must reach.
    MinRecall,
    /// Probabilities at which the tuner reports the similarity reaching them.
    Quantiles,
    /// datasketch's weight on the false-positive area.
    FpWeight,
    /// datasketch's weight on the false-negative area.
    FnWeight,
    /// A constraint: pairs at this similarity are candidates with at most this probability.
    Reject,
    /// A constraint: pairs at this similarity are candidates with at least this probability.
    Accept,
    /// How many seeds of the hash family to measure over.
    Seeds,
    /// A normalization and shingling profile.
    Profile,
}

impl Setting {
    /// Every setting, in declaration order.
    pub const ALL: [Setting; 49] = [
        Setting::TextColumn,
        Setting::IdColumn,
        Setting::TextField,
        Setting::IdField,
        Setting::RowIds,
        Setting::Format,
        Setting::SkipBad,
        Setting::Strict,
        Setting::NoHeaders,
        Setting::Quote,
        Setting::Limit,
        Setting::Sample,
        Setting::Hidden,
        Setting::NoIgnore,
        Setting::Shingle,
        Setting::NoCache,
        Setting::PairColumns,
        Setting::ClusterColumns,
        Setting::NumPerm,
        Setting::Bands,
        Setting::Rows,
        Setting::Banding,
        Setting::ScanBanding,
        Setting::Threshold,
        Setting::Family,
        Setting::MaxBucket,
        Setting::SortLimit,
        Setting::Unsorted,
        Setting::Truth,
        Setting::EstimatePairs,
        Setting::Uniform,
        Setting::LowerThreshold,
        Setting::Force,
        Setting::MaxSeconds,
        Setting::Labels,
        Setting::Pairs,
        Setting::Similarities,
        Setting::Corpus,
        Setting::Budget,
        Setting::Export,
        Setting::MaxFalseRemoval,
        Setting::MinRecall,
        Setting::Quantiles,
        Setting::FpWeight,
        Setting::FnWeight,
        Setting::Reject,
        Setting::Accept,
        Setting::Seeds,
        Setting::Profile,
    ];

    /// The engine's key for the setting: the field of the options struct that holds it, in
    /// snake case. Tokens carry it, and faces without a table of their own may derive names
    /// from it.
    pub fn key(self) -> &'static str {
        match self {
            Setting::TextColumn => "text_column",
            Setting::IdColumn => "id_column",
            Setting::TextField => "text_field",
            Setting::IdField => "id_field",
            Setting::RowIds => "row_ids",
            Setting::Format => "format",
            Setting::SkipBad => "skip_bad",
            Setting::Strict => "strict",
            Setting::NoHeaders => "no_headers",
            Setting::Quote => "quote",
            Setting::Limit => "limit",
            Setting::Sample => "sample",
            Setting::Hidden => "hidden",
            Setting::NoIgnore => "no_ignore",
            Setting::Shingle => "shingle",
            Setting::NoCache => "no_cache",
            Setting::PairColumns => "pair_columns",
            Setting::ClusterColumns => "cluster_columns",
            Setting::NumPerm => "num_perm",
            Setting::Bands => "bands",
            Setting::Rows => "rows",
            Setting::Banding => "banding",
            Setting::ScanBanding => "scan_banding",
            Setting::Threshold => "threshold",
            Setting::Family => "family",
            Setting::MaxBucket => "max_bucket",
            Setting::SortLimit => "sort_limit",
            Setting::Unsorted => "unsorted",
            Setting::Truth => "truth",
            Setting::EstimatePairs => "estimate_pairs",
            Setting::Uniform => "uniform",
            Setting::LowerThreshold => "lower_threshold",
            Setting::Force => "force",
            Setting::MaxSeconds => "max_seconds",
            Setting::Labels => "labels",
            Setting::Pairs => "pairs",
            Setting::Similarities => "similarities",
            Setting::Corpus => "corpus",
            Setting::Budget => "budget",
            Setting::Export => "export",
            Setting::MaxFalseRemoval => "max_false_removal",
            Setting::MinRecall => "min_recall",
            Setting::Quantiles => "quantiles",
            Setting::FpWeight => "fp_weight",
            Setting::FnWeight => "fn_weight",
            Setting::Reject => "reject",
            Setting::Accept => "accept",
            Setting::Seeds => "seeds",
            Setting::Profile => "profile",
        }
    }

    fn from_key(key: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.key() == key)
    }

    /// The setting's token for a place inside a quoted example (a command in backticks): it
    /// renders as the face's name without the backticks [`neutral`] puts around it, so the
    /// example stays one quoted span.
    pub fn in_code(self) -> InCode {
        InCode(self)
    }
}

/// A setting's token inside a quoted example ([`Setting::in_code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InCode(Setting);

impl fmt::Display for InCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{OPEN}{CODE}{}{CLOSE}", self.0.key())
    }
}

// Private-use code points bracket a token: no message the engine writes uses them, and text
// from the user's files that happens to contain them is left alone unless a known key sits
// between them.
const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';
// Right after `OPEN`: the token stands inside a quoted example ([`InCode`]).
const CODE: char = '\u{E002}';

/// Writes the setting's token: the place in a message where a face puts its name for it.
impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{OPEN}{}{CLOSE}", self.key())
    }
}

/// The engine's own name for `setting`, as `Display` of an error shows it: the options
/// field in backticks (`` `skip_bad` ``; `` `has_headers = false` `` for [`Setting::NoHeaders`],
/// which the options hold as `has_headers`).
pub fn neutral(setting: Setting) -> Cow<'static, str> {
    match setting {
        Setting::NoHeaders => Cow::Borrowed("`has_headers = false`"),
        other => Cow::Owned(format!("`{}`", other.key())),
    }
}

/// `text` with each setting's token replaced by `name(setting)`; the rest unchanged.
pub fn render<'a, N>(text: &str, name: impl Fn(Setting) -> N) -> String
where
    N: AsRef<str> + 'a,
{
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(OPEN) {
        out.push_str(&rest[..open]);
        let after = &rest[open + OPEN.len_utf8()..];
        match after
            .find(CLOSE)
            .and_then(|close| Some((close, token(&after[..close])?)))
        {
            Some((close, (setting, in_code))) => {
                let shown = name(setting);
                let shown = shown.as_ref();
                out.push_str(match in_code {
                    true => shown.trim_matches('`'),
                    false => shown,
                });
                rest = &after[close + CLOSE.len_utf8()..];
            }
            None => {
                out.push(OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The setting a token's inside names, and whether it stands inside a quoted example.
fn token(inside: &str) -> Option<(Setting, bool)> {
    match inside.strip_prefix(CODE) {
        Some(key) => Some((Setting::from_key(key)?, true)),
        None => Some((Setting::from_key(inside)?, false)),
    }
}

/// `text` with the engine's own names ([`neutral`]).
pub fn render_neutral(text: &str) -> String {
    render(text, neutral)
}

/// A message for the user that may name settings (a read report's warning): `Display` gives
/// the engine's names, [`Message::render`] a face's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message(String);

impl Message {
    /// The message with `name`'s names for its settings.
    pub fn render<'a, N: AsRef<str> + 'a>(&self, name: impl Fn(Setting) -> N) -> String {
        render(&self.0, name)
    }

    /// The text with its settings' tokens in place, to build a longer message from (as the
    /// argument of `format!` for an [`crate::Error`] or another `Message`); never to show.
    pub fn tokens(&self) -> &str {
        &self.0
    }
}

impl From<String> for Message {
    fn from(text: String) -> Self {
        Message(text)
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Self {
        Message(text.to_string())
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render_neutral(&self.0))
    }
}

/// Serialised as `Display` shows it, in the engine's names: a face that writes a report in
/// its own words renders the messages first ([`Message::render`]).
impl serde::Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_render_as_each_face_names_them() {
        let text = format!("pass {} to skip such lines", Setting::SkipBad);
        assert_ne!(text, "pass `skip_bad` to skip such lines");
        assert_eq!(render_neutral(&text), "pass `skip_bad` to skip such lines");
        assert_eq!(
            render(&text, |s| format!("--{}", s.key().replace('_', "-"))),
            "pass --skip-bad to skip such lines"
        );
        let nested = format!("--x: {}; or {}", text, Setting::NoHeaders);
        assert_eq!(
            Message::from(nested).to_string(),
            "--x: pass `skip_bad` to skip such lines; or `has_headers = false`"
        );
    }

    #[test]
    fn tokens_in_quoted_examples_lose_the_neutral_backticks() {
        let text = format!(
            "open it with {} classic, or run `build {} classic`",
            Setting::Family,
            Setting::Family.in_code()
        );
        assert_eq!(
            render_neutral(&text),
            "open it with `family` classic, or run `build family classic`"
        );
        assert_eq!(
            render(&text, |s| format!("--{}", s.key())),
            "open it with --family classic, or run `build --family classic`"
        );
        let unknown = format!("{OPEN}{CODE}nonsense{CLOSE}");
        assert_eq!(render_neutral(&unknown), unknown);
    }

    #[test]
    fn stray_markers_and_unknown_keys_stay_as_they_are() {
        let text = format!("a{OPEN}b{OPEN}nonsense{CLOSE}c{OPEN}");
        assert_eq!(render_neutral(&text), text);
        let half = format!("{OPEN}limit");
        assert_eq!(render_neutral(&half), half);
    }

    #[test]
    fn every_setting_has_a_distinct_key() {
        for s in Setting::ALL {
            assert_eq!(Setting::from_key(s.key()), Some(s));
        }
    }
}
