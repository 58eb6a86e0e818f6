//! Documents: an arena of ids and texts, and the readers that fill it.
//!
//! A corpus of a million documents must not cost a million heap allocations, so ids and texts
//! each live in one `String` with an offsets array (CSR layout); document `i` is the slice
//! between `offsets[i]` and `offsets[i + 1]`.

mod default_columns;
mod delimited;
mod dir;
mod jsonl;
mod options;
pub(crate) mod parquet;
mod read;
mod repeated;
mod sample;
mod sink;
mod sniff_header;
pub(crate) mod source;

pub use delimited::{MAX_QUOTED_BYTES, MAX_QUOTED_LINES};
pub use options::{
    ColumnSpec, DUPLICATE_IDS_KEPT, InputFormat, LineCounts, Quote, ReadOptions, ReadReport,
};
pub use parquet::read_parquet_bytes;
pub use read::{read_bytes, read_corpus, read_corpus_from};
pub use repeated::RepeatedIds;
pub use sniff_header::not_a_header;
pub use source::{detect_format, has_json_extension};

/// Documents in input order, ids and texts held in two arenas.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    ids: String,
    id_offsets: Vec<usize>,
    texts: String,
    text_offsets: Vec<usize>,
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Self {
        Corpus {
            ids: String::new(),
            id_offsets: vec![0],
            texts: String::new(),
            text_offsets: vec![0],
        }
    }

    /// A corpus from `(id, text)` pairs, mostly for tests and generated data.
    pub fn from_pairs<I, S, T>(docs: I) -> Self
    where
        I: IntoIterator<Item = (S, T)>,
        S: AsRef<str>,
        T: AsRef<str>,
    {
        let mut corpus = Corpus::new();
        for (id, text) in docs {
            corpus.push(id.as_ref(), text.as_ref());
        }
        corpus
    }

    /// A corpus whose ids are the 1-based positions of `texts`.
    pub fn from_texts<I, T>(texts: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        let mut corpus = Corpus::new();
        for (i, text) in texts.into_iter().enumerate() {
            corpus.push(&(i + 1).to_string(), text.as_ref());
        }
        corpus
    }

    /// Appends a document; its position is the previous [`Corpus::len`]. Ids are not checked
    /// for uniqueness here: the readers do that.
    pub fn push(&mut self, id: &str, text: &str) {
        if self.id_offsets.is_empty() {
            self.id_offsets.push(0);
            self.text_offsets.push(0);
        }
        self.ids.push_str(id);
        self.id_offsets.push(self.ids.len());
        self.texts.push_str(text);
        self.text_offsets.push(self.texts.len());
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.id_offsets.len().saturating_sub(1)
    }

    /// True when the corpus holds no document.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Id of the document at position `i` (0-based, input order). Panics when `i` is not below
    /// [`Corpus::len`].
    pub fn id(&self, i: usize) -> &str {
        &self.ids[self.id_offsets[i]..self.id_offsets[i + 1]]
    }

    /// Text of the document at position `i`, as read (before any normalization). Panics when `i`
    /// is not below [`Corpus::len`].
    pub fn text(&self, i: usize) -> &str {
        &self.texts[self.text_offsets[i]..self.text_offsets[i + 1]]
    }

    /// Bytes of text held (not counting ids).
    pub fn text_bytes(&self) -> usize {
        self.texts.len()
    }

    /// Heap bytes used by the arenas, for the memory report.
    pub fn heap_bytes(&self) -> usize {
        self.ids.capacity()
            + self.texts.capacity()
            + (self.id_offsets.capacity() + self.text_offsets.capacity()) * size_of::<usize>()
    }

    /// Position of the document with this id (linear scan: ids are not indexed).
    pub fn position_of(&self, id: &str) -> Option<usize> {
        (0..self.len()).find(|&i| self.id(i) == id)
    }

    /// The documents except those at `positions` (ascending), in their order.
    pub fn without(&self, positions: &[usize]) -> Corpus {
        let mut left_out = positions.iter().copied().peekable();
        let mut kept = Corpus::new();
        for i in 0..self.len() {
            if left_out.next_if_eq(&i).is_none() {
                kept.push(self.id(i), self.text(i));
            }
        }
        kept
    }

    /// Removes every document, keeping the arenas' capacity.
    pub(super) fn clear(&mut self) {
        self.ids.clear();
        self.texts.clear();
        self.id_offsets.clear();
        self.id_offsets.push(0);
        self.text_offsets.clear();
        self.text_offsets.push(0);
    }

    /// Gives back the arenas' spare capacity once reading is done.
    pub fn shrink_to_fit(&mut self) {
        self.ids.shrink_to_fit();
        self.texts.shrink_to_fit();
        self.id_offsets.shrink_to_fit();
        self.text_offsets.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_round_trip() {
        let c = Corpus::from_pairs([("a", "first"), ("b", ""), ("c", "third doc")]);
        assert_eq!(c.len(), 3);
        assert_eq!((c.id(0), c.text(0)), ("a", "first"));
        assert_eq!((c.id(1), c.text(1)), ("b", ""));
        assert_eq!((c.id(2), c.text(2)), ("c", "third doc"));
        assert_eq!(c.position_of("c"), Some(2));
        assert!(Corpus::new().is_empty());
    }

    #[test]
    fn without_leaves_out_the_given_positions_in_order() {
        let c = Corpus::from_pairs([("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")]);
        let kept = c.without(&[0, 2]);
        assert_eq!((kept.len(), kept.id(0), kept.text(1)), (2, "b", "4"));
        assert_eq!(c.without(&[]).len(), 4);
        assert!(c.without(&[0, 1, 2, 3]).is_empty());
    }
}
