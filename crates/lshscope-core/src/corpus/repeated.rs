//! Documents whose id another document also has: counted for the read report, and named
//! for a face that acts on ids (labels keyed by id).

use std::collections::{HashMap, HashSet};

use super::{Corpus, DUPLICATE_IDS_KEPT};

/// The documents of a corpus whose id is not unique.
#[derive(Debug, Clone, Default)]
pub struct RepeatedIds {
    /// Input positions of every document whose id another document has, first occurrences
    /// included.
    shared: HashSet<u32>,
    /// Documents whose id repeats an earlier document's ([`super::ReadReport::duplicate_ids`]).
    repeats: usize,
    /// Different ids that repeat.
    values: usize,
    /// The first [`DUPLICATE_IDS_KEPT`] repeated ids in the order they first repeat, each as a
    /// message quotes it ([`crate::io::excerpt::excerpt`]: a long id is usually a misread
    /// column).
    examples: Vec<String>,
}

impl RepeatedIds {
    /// Finds them in one pass over the ids.
    ///
    /// Memory while it runs is a map from the 64-bit hash of an id to the first document with
    /// that hash (about 20 to 40 bytes per document), equality confirmed on a hit; ids whose
    /// hash collides with a different id (vanishingly rare) go to a small exact map. Only the
    /// documents found repeated are kept after the pass.
    pub fn find(corpus: &Corpus) -> Self {
        let mut first: HashMap<u64, u32> = HashMap::with_capacity(corpus.len());
        let mut collided: HashMap<&str, u32> = HashMap::new();
        let mut found = RepeatedIds::default();
        for i in 0..corpus.len() {
            let id = corpus.id(i);
            let hash = xxhash_rust::xxh3::xxh3_64(id.as_bytes());
            let earlier = match first.entry(hash) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i as u32);
                    None
                }
                std::collections::hash_map::Entry::Occupied(slot) => {
                    let at = *slot.get();
                    if corpus.id(at as usize) == id {
                        Some(at)
                    } else {
                        match collided.entry(id) {
                            std::collections::hash_map::Entry::Vacant(slot) => {
                                slot.insert(i as u32);
                                None
                            }
                            std::collections::hash_map::Entry::Occupied(slot) => Some(*slot.get()),
                        }
                    }
                }
            };
            let Some(earlier) = earlier else { continue };
            found.repeats += 1;
            // An id's first occurrence enters the set when the id first repeats.
            if found.shared.insert(earlier) {
                found.values += 1;
            }
            found.shared.insert(i as u32);
            let shown = crate::io::excerpt::excerpt(id);
            if found.examples.len() < DUPLICATE_IDS_KEPT
                && !found.examples.iter().any(|e| *e == shown)
            {
                found.examples.push(shown.into_owned());
            }
        }
        found
    }

    /// Documents whose id repeats an earlier document's.
    pub fn repeats(&self) -> usize {
        self.repeats
    }

    /// How many different ids repeat.
    pub fn values(&self) -> usize {
        self.values
    }

    /// The first few repeated ids, in the order they first repeat, as messages quote them.
    pub fn examples(&self) -> &[String] {
        &self.examples
    }

    /// Whether the document at input position `doc` shares its id with another document.
    pub fn is_shared(&self, doc: u32) -> bool {
        self.shared.contains(&doc)
    }

    /// `N documents repeat an earlier id (first: a, "", …)`, as
    /// [`super::ReadReport::repeated_ids`] says it.
    pub fn phrase(&self) -> String {
        phrase(self.repeats, self.values, &self.examples)
    }
}

/// `N documents repeat an earlier id (first: a, "", …)`: how many, and the first few ids as
/// messages show them; what every face says of repeated ids begins with it.
pub(super) fn phrase(repeats: usize, values: usize, examples: &[String]) -> String {
    use crate::io::excerpt::{first_of, id_for_message};
    use crate::util::numfmt::{for_count, thousands};
    let examples: Vec<_> = examples.iter().map(|id| id_for_message(id)).collect();
    format!(
        "{} {} an earlier id (first: {})",
        thousands(repeats as u64),
        for_count(repeats as u64, "document repeats", "documents repeat"),
        first_of(&examples, values)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_of_a_shared_id_is_named_and_repeats_are_counted_after_the_first() {
        let mut corpus = Corpus::new();
        for (id, text) in [
            ("a", "1"),
            ("b", "2"),
            ("a", "3"),
            ("c", "4"),
            ("a", "5"),
            ("b", "6"),
        ] {
            corpus.push(id, text);
        }
        let found = RepeatedIds::find(&corpus);
        assert_eq!((found.repeats(), found.values()), (3, 2));
        assert_eq!(found.examples(), ["a", "b"]);
        // Two ids repeat and both are named: nothing left out, no `…`.
        assert_eq!(
            found.phrase(),
            "3 documents repeat an earlier id (first: a, b)"
        );
        let shared: Vec<u32> = (0..6).filter(|&d| found.is_shared(d)).collect();
        assert_eq!(shared, [0, 1, 2, 4, 5]);
        let mut unique = Corpus::new();
        unique.push("x", "1");
        unique.push("y", "2");
        let none = RepeatedIds::find(&unique);
        assert_eq!((none.repeats(), none.examples().len()), (0, 0));
        assert!(!none.is_shared(0));
    }
}
