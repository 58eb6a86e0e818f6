//! LSH as an online structure: band tables that documents are added to and queried against,
//! stored in one file.
//!
//! An [`LshIndex`] holds what a scan computes (the documents, their shingle sets and
//! signatures, under one set of [`IndexOptions`]) plus the band tables of one banding. New
//! documents are shingled and hashed with the stored options, so their signatures equal what
//! `lshscope scan` computes for them; a query returns the indexed documents that share a
//! bucket with the query in at least one band, with the MinHash estimate and the exact Jaccard.
//! [`mod@file`] stores it in a versioned, checksummed format; the explorer and `lshscope index`
//! read the same files.

pub mod file;

use std::collections::HashMap;

use rayon::prelude::*;

use crate::Result;
use crate::corpus::Corpus;
use crate::jobs::Progress;
use crate::minhash::similarity::jaccard;
use crate::minhash::{Banding, Index, IndexOptions, Signatures, band_key, build_index};

/// Documents, their sets and signatures, and the band tables of one banding.
#[derive(Debug, Clone)]
pub struct LshIndex {
    corpus: Corpus,
    index: Index,
    banding: Banding,
    tables: Vec<BandTable>,
    /// The hash of each id held, with the first document that has it: whether an id is held
    /// is asked for every document added, and a scan of the corpus per question made adding a
    /// batch quadratic.
    ids: HashMap<u64, u32>,
}

/// The key of an id in [`LshIndex::ids`].
fn id_hash(id: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(id.as_bytes())
}

/// One band's table: (key, document) sorted, plus entries added since the last merge (kept
/// apart so an insert costs O(1) and a query stays a binary search plus a short scan).
#[derive(Debug, Clone, Default)]
struct BandTable {
    sorted: Vec<(u64, u32)>,
    recent: Vec<(u64, u32)>,
}

/// Entries added to a band before they are merged into its sorted part.
const RECENT_LIMIT: usize = 4096;

impl BandTable {
    fn insert(&mut self, key: u64, doc: u32) {
        self.recent.push((key, doc));
        if self.recent.len() >= RECENT_LIMIT {
            self.merge();
        }
    }

    fn merge(&mut self) {
        if self.recent.is_empty() {
            return;
        }
        self.sorted.append(&mut self.recent);
        // Both parts are sorted runs apart from the recent entries: the standard library's
        // sort detects runs and merges them in linear time.
        self.sorted.sort_unstable();
    }

    /// Documents whose key in this band is `key`.
    fn lookup(&self, key: u64, mut visit: impl FnMut(u32)) {
        let start = self.sorted.partition_point(|&(k, _)| k < key);
        for &(k, doc) in &self.sorted[start..] {
            if k != key {
                break;
            }
            visit(doc);
        }
        for &(k, doc) in &self.recent {
            if k == key {
                visit(doc);
            }
        }
    }
}

/// An indexed document that shares a bucket with a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Match {
    /// Position of the document in the index (its id is [`LshIndex::id`]).
    pub doc: u32,
    /// Bands in which the query and the document share a bucket (at least 1).
    pub bands_hit: u32,
    /// Exact Jaccard of the two shingle sets.
    pub jaccard: f64,
    /// The fraction of the K signature rows that agree.
    pub estimate: f64,
}

impl LshIndex {
    /// An empty index with these options and this banding.
    pub fn new(options: IndexOptions, banding: Banding) -> Result<Self> {
        Banding::new(banding.bands, banding.rows, options.num_perm)?;
        let index = build_index(&Corpus::new(), &options, &Progress::new())?;
        Ok(LshIndex {
            corpus: Corpus::new(),
            index,
            banding,
            tables: vec![BandTable::default(); banding.bands],
            ids: HashMap::new(),
        })
    }

    /// An index of `corpus`, with its sets and signatures built in parallel.
    pub fn build(
        corpus: Corpus,
        options: &IndexOptions,
        banding: Banding,
        progress: &Progress,
    ) -> Result<Self> {
        Banding::new(banding.bands, banding.rows, options.num_perm)?;
        let index = build_index(&corpus, options, progress)?;
        Self::from_index(corpus, index, banding)
    }

    /// An index over documents already hashed (by a scan's pipeline, or a file being loaded):
    /// only the band tables are built.
    pub fn from_index(corpus: Corpus, index: Index, banding: Banding) -> Result<Self> {
        Banding::new(banding.bands, banding.rows, index.options.num_perm)?;
        if corpus.len() != index.len() {
            return Err(crate::Error::internal(format!(
                "an index of {} documents for a corpus of {}",
                index.len(),
                corpus.len()
            )));
        }
        Ok(Self::with_tables(corpus, index, banding))
    }

    fn with_tables(corpus: Corpus, index: Index, banding: Banding) -> Self {
        let sigs = &index.signatures;
        let tables = (0..banding.bands)
            .into_par_iter()
            .map(|band| BandTable {
                sorted: crate::minhash::band_keys(sigs, banding, band),
                recent: Vec::new(),
            })
            .collect();
        let mut ids = HashMap::with_capacity(corpus.len());
        for doc in 0..corpus.len() {
            ids.entry(id_hash(corpus.id(doc))).or_insert(doc as u32);
        }
        LshIndex {
            corpus,
            index,
            banding,
            tables,
            ids,
        }
    }

    /// True when a document with this id is in the index.
    pub fn holds(&self, id: &str) -> bool {
        match self.ids.get(&id_hash(id)) {
            None => false,
            Some(&doc) if self.corpus.id(doc as usize) == id => true,
            // Another id with the same 64-bit hash: only a look at every id can tell.
            Some(_) => self.corpus.position_of(id).is_some(),
        }
    }

    /// The positions in `corpus` (ascending) of its documents whose id the index holds: what
    /// adding `corpus` would index a second time.
    pub fn held_among(&self, corpus: &Corpus) -> Vec<usize> {
        (0..corpus.len())
            .filter(|&i| self.holds(corpus.id(i)))
            .collect()
    }

    /// Number of documents in the index.
    pub fn len(&self) -> usize {
        self.corpus.len()
    }

    /// True when the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.corpus.is_empty()
    }

    /// The settings every document of the index is shingled and hashed with.
    pub fn options(&self) -> &IndexOptions {
        &self.index.options
    }

    /// The b × r of the band tables.
    pub fn banding(&self) -> Banding {
        self.banding
    }

    /// Id of document `doc` (its position, in the order documents were added).
    pub fn id(&self, doc: u32) -> &str {
        self.corpus.id(doc as usize)
    }

    /// Text of document `doc`, as it was added.
    pub fn text(&self, doc: u32) -> &str {
        self.corpus.text(doc as usize)
    }

    /// The documents and what was computed from them, for the explorer and the pipeline.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// The shingle sets and signatures of every document.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The documents and their index, giving up the tables.
    pub fn into_parts(self) -> (Corpus, Index) {
        (self.corpus, self.index)
    }

    /// Adds one document; returns its position.
    pub fn insert(&mut self, id: &str, text: &str) -> u32 {
        let (set, row) = self.hash(text);
        let doc = self.corpus.len() as u32;
        self.ids.entry(id_hash(id)).or_insert(doc);
        self.corpus.push(id, text);
        self.index.sets.push(&set);
        let one = Signatures::from_rows(row.len(), row, vec![set.is_empty()])
            .expect("one row of K values");
        self.add_to_tables(doc, &one, 0);
        self.index.signatures.append(&one);
        doc
    }

    /// Adds every document of `corpus` (hashed in parallel); returns the first new position.
    pub fn extend(&mut self, corpus: &Corpus, progress: &Progress) -> Result<u32> {
        let first = self.corpus.len() as u32;
        let added = build_index(corpus, &self.index.options, progress)?;
        for i in 0..corpus.len() {
            self.ids
                .entry(id_hash(corpus.id(i)))
                .or_insert(first + i as u32);
            self.corpus.push(corpus.id(i), corpus.text(i));
            self.index.sets.push(added.sets.get(i));
            self.add_to_tables(first + i as u32, &added.signatures, i);
        }
        self.index.signatures.append(&added.signatures);
        for table in &mut self.tables {
            table.merge();
        }
        Ok(first)
    }

    /// The indexed documents that share a bucket with `text` in at least one band, most similar
    /// (exact Jaccard) first, then by position.
    pub fn query(&self, text: &str) -> Vec<Match> {
        let (set, row) = self.hash(text);
        if set.is_empty() {
            return Vec::new();
        }
        let mut hits: Vec<(u32, u32)> = Vec::new();
        for (band, table) in self.tables.iter().enumerate() {
            table.lookup(band_key(&row, self.banding, band), |doc| {
                hits.push((doc, 1))
            });
        }
        hits.sort_unstable();
        hits.dedup_by(|next, first| {
            let same = next.0 == first.0;
            if same {
                first.1 += next.1;
            }
            same
        });
        let k = row.len();
        let mut matches: Vec<Match> = hits
            .into_iter()
            .map(|(doc, bands_hit)| {
                let other = self.index.signatures.row(doc as usize);
                let agree = crate::minhash::similarity::agreeing_rows(&row, other);
                Match {
                    doc,
                    bands_hit,
                    jaccard: jaccard(&set, self.index.sets.get(doc as usize)),
                    estimate: agree as f64 / k as f64,
                }
            })
            .collect();
        matches.sort_by(|x, y| y.jaccard.total_cmp(&x.jaccard).then(x.doc.cmp(&y.doc)));
        matches
    }

    fn hash(&self, text: &str) -> (Vec<u64>, Vec<u32>) {
        hash_text(&self.index.options, text)
    }

    fn add_to_tables(&mut self, doc: u32, sigs: &Signatures, row: usize) {
        if sigs.is_empty_doc(row) {
            return;
        }
        for (band, table) in self.tables.iter_mut().enumerate() {
            table.insert(band_key(sigs.row(row), self.banding, band), doc);
        }
    }
}

/// The shingle set (sorted, distinct hashes) and the signature of one text under `options`:
/// exactly what [`build_index`] computes for it as a document of a corpus.
pub fn hash_text(options: &IndexOptions, text: &str) -> (Vec<u64>, Vec<u32>) {
    let corpus = Corpus::from_texts([text]);
    let one = build_index(&corpus, options, &Progress::new())
        .expect("hashing one document in memory cannot fail");
    (one.sets.get(0).to_vec(), one.signatures.row(0).to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::{BandingOptions, find_candidates};

    fn texts() -> Vec<String> {
        (0..400)
            .map(|i| match i % 4 {
                0 => "a notice repeated on every page of the site".to_string(),
                1 => format!("order {} shipped with tracking code {}", i % 20, i % 3),
                _ => format!("text {i} about {} and {}", i * 7 % 61, i * 11 % 53),
            })
            .chain(["".to_string()])
            .collect()
    }

    fn options() -> IndexOptions {
        IndexOptions {
            num_perm: 64,
            ..IndexOptions::default()
        }
    }

    const BANDING: Banding = Banding { bands: 16, rows: 4 };

    #[test]
    fn held_ids_are_known_after_build_insert_extend_and_load() {
        let built = LshIndex::build(
            Corpus::from_pairs([("a", "first text here"), ("b", "second text here")]),
            &options(),
            BANDING,
            &Progress::new(),
        )
        .unwrap();
        let mut index = built;
        index.insert("c", "a third text");
        let more = Corpus::from_pairs([("d", "fourth"), ("a", "the first id again")]);
        index.extend(&more, &Progress::new()).unwrap();
        for id in ["a", "b", "c", "d"] {
            assert!(index.holds(id), "{id}");
        }
        for id in ["", "e", "A", "a "] {
            assert!(!index.holds(id), "{id:?}");
        }
        let batch = Corpus::from_pairs([("x", "new"), ("c", "held"), ("y", "new"), ("a", "held")]);
        assert_eq!(index.held_among(&batch), vec![1, 3]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.lshidx");
        index.save(&path).unwrap();
        let loaded = LshIndex::load(&path).unwrap();
        assert_eq!(loaded.held_among(&batch), vec![1, 3]);
        assert!(!loaded.holds("x"));
    }

    /// Two ids with one 64-bit hash (none is known for xxh3, so the table is forged): the
    /// answer comes from the ids themselves, not the hash.
    #[test]
    fn a_hash_shared_by_two_ids_does_not_make_either_held() {
        let mut index = LshIndex::new(options(), BANDING).unwrap();
        index.insert("a", "text");
        let doc_of_a = index.ids[&id_hash("a")];
        index.ids.clear();
        index.ids.insert(id_hash("b"), doc_of_a);
        assert!(!index.holds("b"), "the hash of b points at a");
        index.ids.insert(id_hash("a"), doc_of_a);
        assert!(index.holds("a"));
    }

    #[test]
    fn inserting_one_by_one_equals_building_at_once() {
        let texts = texts();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        for family in crate::minhash::SketchFamily::ALL {
            let options = IndexOptions {
                family,
                ..options()
            };
            grown_equals_built(&corpus, &options);
        }
    }

    fn grown_equals_built(corpus: &Corpus, options: &IndexOptions) {
        let built = LshIndex::build(corpus.clone(), options, BANDING, &Progress::new()).unwrap();
        let mut grown = LshIndex::new(options.clone(), BANDING).unwrap();
        let half = Corpus::from_pairs((0..200).map(|i| (corpus.id(i), corpus.text(i))));
        grown.extend(&half, &Progress::new()).unwrap();
        for i in 200..corpus.len() {
            grown.insert(corpus.id(i), corpus.text(i));
        }
        assert_eq!(grown.len(), built.len());
        for i in 0..corpus.len() {
            assert_eq!(grown.index.sets.get(i), built.index.sets.get(i));
            assert_eq!(grown.index.signatures.row(i), built.index.signatures.row(i));
            assert_eq!(
                grown.index.signatures.is_empty_doc(i),
                built.index.signatures.is_empty_doc(i)
            );
        }
        for probe in [
            "order 3 shipped with tracking code 0",
            "a notice repeated on every page",
        ] {
            assert_eq!(
                grown.query(probe),
                built.query(probe),
                "{probe}, {}",
                options.family
            );
        }
    }

    /// Querying a document's own text finds exactly the documents a scan pairs it with (and
    /// itself), with the scan's bands hit.
    #[test]
    fn a_query_finds_what_a_scan_pairs() {
        let texts = texts();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let index = LshIndex::build(corpus, &options(), BANDING, &Progress::new()).unwrap();
        let scan = find_candidates(
            &index.index.signatures,
            &BandingOptions {
                banding: BANDING,
                max_bucket: None,
            },
            &Progress::new(),
        )
        .unwrap();
        for doc in [0u32, 1, 2, 5, 399, 400] {
            let mut expected: Vec<(u32, u32)> = scan
                .pairs
                .iter()
                .filter(|p| p.a == doc || p.b == doc)
                .map(|p| (if p.a == doc { p.b } else { p.a }, p.bands_hit))
                .collect();
            if !index.index.signatures.is_empty_doc(doc as usize) {
                expected.push((doc, BANDING.bands as u32));
            }
            expected.sort_unstable();
            let mut found: Vec<(u32, u32)> = index
                .query(index.text(doc))
                .iter()
                .map(|m| (m.doc, m.bands_hit))
                .collect();
            found.sort_unstable();
            assert_eq!(found, expected, "document {doc}");
            for m in index.query(index.text(doc)) {
                let exact = jaccard(
                    index.index.sets.get(doc as usize),
                    index.index.sets.get(m.doc as usize),
                );
                assert_eq!(m.jaccard, exact);
            }
        }
    }
}
