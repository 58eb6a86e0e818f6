//! Human judgements of candidate pairs, kept in a small CSV file (`id_a,id_b,label`).
//!
//! The explorer writes the whole file again after every label (on a writer thread, from a
//! snapshot of the store), through [`crate::io::atomic::write_atomically`], so a crash never
//! leaves a half-written file, and a label the screen calls saved is on disk. Pairs are unordered: `(a, b)` and
//! `(b, a)` are the same pair. Labels of pairs not in the current corpus are kept as they are.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::terms::Setting::Labels;
use crate::{Error, Result};

/// A user's verdict on one pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    Duplicate,
    NotDuplicate,
    Unsure,
}

impl Label {
    /// The word written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Duplicate => "duplicate",
            Label::NotDuplicate => "not_duplicate",
            Label::Unsure => "unsure",
        }
    }

    /// One-letter form shown in tables (the key that sets it).
    pub fn short(self) -> &'static str {
        match self {
            Label::Duplicate => "y",
            Label::NotDuplicate => "n",
            Label::Unsure => "u",
        }
    }

    /// Accepts the file words and the usual short forms (`y`, `n`, `u`, `yes`, `no`, `1`, `0`).
    pub fn parse(s: &str) -> Option<Label> {
        match s.trim().to_ascii_lowercase().as_str() {
            "duplicate" | "dup" | "y" | "yes" | "1" | "true" => Some(Label::Duplicate),
            "not_duplicate" | "not-duplicate" | "n" | "no" | "0" | "false" => {
                Some(Label::NotDuplicate)
            }
            "unsure" | "u" | "?" => Some(Label::Unsure),
            _ => None,
        }
    }
}

/// The key of an unordered pair of ids.
fn pair_key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// Labels by unordered id pair, bound to the file they are saved to.
#[derive(Debug, Clone)]
pub struct LabelStore {
    path: PathBuf,
    entries: BTreeMap<(String, String), Label>,
}

impl LabelStore {
    /// An empty store that will be saved to `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        LabelStore {
            path: path.into(),
            entries: BTreeMap::new(),
        }
    }

    /// Loads `path`; a missing file is an empty store. A malformed row is an error naming
    /// the file and line.
    pub fn load(path: impl Into<PathBuf>) -> Result<Self> {
        let path = path.into();
        let mut store = LabelStore::new(path.clone());
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(store),
            Err(e) => return Err(Error::io(&path, e)),
        };
        // Flexible: a hand-edited file may carry extra fields on some rows.
        let mut csv = crate::pairs::HeaderCsv::new(bytes.as_slice(), &path, true)?;
        let (Some(ia), Some(ib), Some(il)) =
            (csv.column("id_a"), csv.column("id_b"), csv.column("label"))
        else {
            return Err(Error::input(
                &path,
                1,
                format!(
                    "a labels file needs the columns id_a,id_b,label; fix the header or pass \
                     another {Labels} file"
                ),
            ));
        };
        while let Some((line, record)) = csv.next_row()? {
            let field = |i: usize| record.get(i).unwrap_or("");
            let label = Label::parse(field(il)).ok_or_else(|| {
                Error::input(
                    &path,
                    line,
                    format!(
                        "unknown label `{}`: use duplicate, not_duplicate or unsure",
                        crate::io::excerpt::excerpt(field(il))
                    ),
                )
            })?;
            store.entries.insert(pair_key(field(ia), field(ib)), label);
        }
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, a: &str, b: &str) -> Option<Label> {
        self.entries.get(&pair_key(a, b)).copied()
    }

    /// Sets (or with `None` removes) the label of the pair.
    pub fn set(&mut self, a: &str, b: &str, label: Option<Label>) {
        let key = pair_key(a, b);
        match label {
            Some(l) => {
                self.entries.insert(key, l);
            }
            None => {
                self.entries.remove(&key);
            }
        }
    }

    /// Every labelled pair, ordered by ids.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, Label)> {
        self.entries
            .iter()
            .map(|((a, b), l)| (a.as_str(), b.as_str(), *l))
    }

    /// Writes the whole store to its file, atomically.
    pub fn save(&self) -> Result<()> {
        crate::io::atomic::write_atomically(&self.path, |w| {
            let mut out = csv::Writer::from_writer(w);
            out.write_record(["id_a", "id_b", "label"])?;
            for (a, b, l) in self.iter() {
                out.write_record([a, b, l.as_str()])?;
            }
            out.flush()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_unordered_and_removal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.csv");
        let mut store = LabelStore::load(&path).unwrap();
        assert!(store.is_empty());
        store.set("doc-2", "doc-1", Some(Label::Duplicate));
        store.set("a,b", "c\"d", Some(Label::Unsure));
        store.set("x", "y", Some(Label::NotDuplicate));
        store.set("y", "x", None);
        store.save().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("id_a,id_b,label\n"), "{text}");
        let again = LabelStore::load(&path).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(again.get("doc-1", "doc-2"), Some(Label::Duplicate));
        assert_eq!(again.get("c\"d", "a,b"), Some(Label::Unsure));
        assert_eq!(again.get("x", "y"), None);
    }

    #[test]
    fn bad_label_names_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.csv");
        std::fs::write(&path, "id_a,id_b,label\na,b,duplicate\nc,d,maybe\n").unwrap();
        let err = LabelStore::load(&path).unwrap_err().to_string();
        assert!(err.contains(":3:") && err.contains("maybe"), "{err}");
        std::fs::write(&path, "x,y\n").unwrap();
        let err = LabelStore::load(&path).unwrap_err().to_string();
        assert!(err.contains("id_a,id_b,label"), "{err}");
    }

    #[test]
    fn loads_through_the_shared_header_reader() {
        // A byte-order mark (as spreadsheets save) and a row with an extra field both load;
        // bytes that are not UTF-8 are an error naming their line.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.csv");
        std::fs::write(
            &path,
            "\u{feff}id_a,id_b,label\na,b,duplicate,checked twice\nc,d,unsure\n",
        )
        .unwrap();
        let store = LabelStore::load(&path).unwrap();
        assert_eq!(store.get("b", "a"), Some(Label::Duplicate));
        assert_eq!(store.get("c", "d"), Some(Label::Unsure));
        std::fs::write(&path, b"id_a,id_b,label\na,b,duplicate\nc,\xff,unsure\n").unwrap();
        let err = LabelStore::load(&path).unwrap_err().to_string();
        assert!(
            err.contains(":3:") && err.contains("malformed CSV"),
            "{err}"
        );
    }
}
