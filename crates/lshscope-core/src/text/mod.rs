//! Normalization and shingling.
//!
//! One normalization routine serves both the hot path (hashing every shingle of every document)
//! and the viewer (mapping shingles back to byte ranges of the original text for highlighting),
//! so what the viewer highlights is exactly what the engine hashed.

mod profile;
mod set;
mod shingle;
mod spacy_en;

pub use profile::Profile;
pub use set::SetBuilder;
pub use shingle::{ShingleKind, ShingleOptions, ShingleSpan, Shingler, shingle_hash};

use std::ops::Range;

/// Byte ranges of `text` covered by shingles whose hash is in `shared` (a sorted set), merged
/// into non-overlapping ranges in order. This is what the pair viewer highlights.
pub fn shared_ranges(text: &str, opts: &ShingleOptions, shared: &[u64]) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut shingler = Shingler::new(opts.clone());
    for span in shingler.spans(text) {
        if shared.binary_search(&span.hash).is_err() {
            continue;
        }
        match ranges.last_mut() {
            Some(last) if span.range.start <= last.end => last.end = last.end.max(span.range.end),
            _ => ranges.push(span.range),
        }
    }
    ranges
}
