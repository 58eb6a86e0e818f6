//! Human judgements of candidate pairs, kept in a small CSV file.
//!
//! Columns: `id_a,id_b,label,jaccard,labelled_at,copy_of_a,copy_of_b`. `jaccard` is the pair's
//! exact Jaccard when it was labelled and `labelled_at` the time (RFC 3339, UTC). A label
//! applies to every pair made of identical copies of the same two texts (documents with the
//! same shingle set, what [`IdenticalGroups`] collapses): the pair the user judged has empty
//! `copy_of_*`, and each copy pair it covers has a row of its own whose `copy_of_a,copy_of_b`
//! name the judged pair. Files written before these columns (`id_a,id_b,label`) still load.
//!
//! The explorer writes the whole file again after every label (on a writer thread, from a
//! snapshot of the store), through [`crate::io::atomic::write_atomically`], so a crash never
//! leaves a half-written file, and a label the screen calls saved is on disk. Pairs are unordered: `(a, b)` and
//! `(b, a)` are the same pair. Labels of pairs not in the current corpus are kept as they are.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::corpus::Corpus;
use crate::minhash::IdenticalGroups;
use crate::terms::Setting::Labels;
use crate::{Error, Result};
/// A user's verdict on one pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    /// The two texts are near-duplicates: a true positive when the banding made them candidates.
    Duplicate,
    /// The two texts are different documents, however similar their shingles: a false positive
    /// when they are candidates.
    NotDuplicate,
    /// The user could not decide; counted apart from both verdicts.
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

/// The most copy pairs one label lists in the file. Two template groups of a thousand copies
/// each make a million copy pairs; past this many the file lists the first ones, and a reopened
/// corpus still labels every copy pair through its identical groups ([`GroupLabels`]).
pub const MAX_COPY_ROWS: usize = 10_000;

/// What a user said about one pair, with when and at which Jaccard.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelEntry {
    /// The verdict.
    pub label: Label,
    /// The pair's exact Jaccard when it was labelled (`None` in files without the column).
    pub jaccard: Option<f64>,
    /// When it was labelled, RFC 3339 in UTC (`None` in files without the column).
    pub labelled_at: Option<String>,
    /// For a pair labelled because its two documents are identical copies of a judged pair's:
    /// that pair's ids (ordered). `None` for the pair the user judged.
    pub copy_of: Option<(String, String)>,
}

/// A label as the user gives it: the verdict, the pair's Jaccard and the time.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The verdict.
    pub label: Label,
    /// The pair's exact Jaccard when the user judged it, in [0, 1].
    pub jaccard: f64,
    /// RFC 3339, UTC ([`rfc3339_utc`]).
    pub labelled_at: String,
}

/// Labels by unordered id pair, bound to the file they are saved to.
#[derive(Debug, Clone)]
pub struct LabelStore {
    path: PathBuf,
    entries: BTreeMap<(String, String), LabelEntry>,
}

/// The file's columns, in order.
const COLUMNS: [&str; 7] = [
    "id_a",
    "id_b",
    "label",
    "jaccard",
    "labelled_at",
    "copy_of_a",
    "copy_of_b",
];

impl LabelStore {
    /// An empty store that will be saved to `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        LabelStore {
            path: path.into(),
            entries: BTreeMap::new(),
        }
    }

    /// Loads `path`; a missing file is an empty store. A malformed row is an error naming
    /// the file and line. The columns after `label` are optional (files written before them
    /// load with no Jaccard, time or copy).
    pub fn load(path: impl Into<PathBuf>) -> Result<Self> {
        let path = path.into();
        let mut store = LabelStore::new(path.clone());
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(store),
            Err(e) => return Err(Error::io(&path, e)),
        };
        // Flexible: a hand-edited file may carry extra fields on some rows.
        let mut csv = crate::io::header_csv::HeaderCsv::new(bytes.as_slice(), &path, true)?;
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
        let (ij, it) = (csv.column("jaccard"), csv.column("labelled_at"));
        let (ica, icb) = (csv.column("copy_of_a"), csv.column("copy_of_b"));
        while let Some((line, record)) = csv.next_row()? {
            let field = |i: usize| record.get(i).unwrap_or("");
            let optional = |i: Option<usize>| i.map(field).map(str::trim).filter(|v| !v.is_empty());
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
            let jaccard = match optional(ij) {
                None => None,
                Some(v) => match v.parse::<f64>() {
                    Ok(j) if (0.0..=1.0).contains(&j) => Some(j),
                    _ => {
                        return Err(Error::input(
                            &path,
                            line,
                            format!(
                                "jaccard `{}` is not a number from 0 to 1: fix it or leave \
                                 the field empty",
                                crate::io::excerpt::excerpt(v)
                            ),
                        ));
                    }
                },
            };
            let copy_of = match (optional(ica), optional(icb)) {
                (Some(a), Some(b)) => Some(pair_key(a, b)),
                (None, None) => None,
                _ => {
                    return Err(Error::input(
                        &path,
                        line,
                        "copy_of_a and copy_of_b name a judged pair together: fill both or \
                         neither",
                    ));
                }
            };
            let entry = LabelEntry {
                label,
                jaccard,
                labelled_at: optional(it).map(str::to_string),
                copy_of,
            };
            store.entries.insert(pair_key(field(ia), field(ib)), entry);
        }
        Ok(store)
    }

    /// The labels file this store reads from and saves to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rows of the file: judged pairs and the copy pairs they cover.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the file holds no rows (or does not exist yet).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Pairs the user judged (rows without `copy_of`).
    pub fn judged(&self) -> usize {
        self.entries
            .values()
            .filter(|e| e.copy_of.is_none())
            .count()
    }

    /// The verdict on the pair of documents with ids `a` and `b`, in either order.
    pub fn get(&self, a: &str, b: &str) -> Option<Label> {
        self.entry(a, b).map(|e| e.label)
    }

    /// The whole row for the pair `a`, `b` (in either order), or `None` when it is not labelled.
    pub fn entry(&self, a: &str, b: &str) -> Option<&LabelEntry> {
        self.entries.get(&pair_key(a, b))
    }

    /// Sets (or with `None` removes) the label of one pair, with no Jaccard, time or copies.
    pub fn set(&mut self, a: &str, b: &str, label: Option<Label>) {
        let key = pair_key(a, b);
        match label {
            Some(label) => {
                let entry = LabelEntry {
                    label,
                    jaccard: None,
                    labelled_at: None,
                    copy_of: None,
                };
                self.entries.insert(key, entry);
            }
            None => {
                self.entries.remove(&key);
            }
        }
    }

    /// Labels the judged pair `judged` and its copy pairs `copies` (pairs of documents
    /// identical to the judged pair's, [`copy_pairs`]); `None` removes them all. What an
    /// earlier label said about the same texts goes: rows that were copies of any of these
    /// pairs are removed first, so the newest judgement of two texts is the only one.
    pub fn judge(
        &mut self,
        judged: (&str, &str),
        copies: &[(&str, &str)],
        judgement: Option<&Judgement>,
    ) {
        let judged_key = pair_key(judged.0, judged.1);
        let mut covered: std::collections::HashSet<(String, String)> =
            copies.iter().map(|&(a, b)| pair_key(a, b)).collect();
        covered.insert(judged_key.clone());
        self.entries.retain(|k, e| {
            !covered.contains(k) && !e.copy_of.as_ref().is_some_and(|c| covered.contains(c))
        });
        let Some(j) = judgement else {
            return;
        };
        let entry = |copy_of: Option<(String, String)>| LabelEntry {
            label: j.label,
            jaccard: Some(j.jaccard),
            labelled_at: Some(j.labelled_at.clone()),
            copy_of,
        };
        for key in covered {
            let copy_of = (key != judged_key).then(|| judged_key.clone());
            self.entries.insert(key, entry(copy_of));
        }
    }

    /// Every labelled pair, ordered by ids.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, Label)> {
        self.entries().map(|(a, b, e)| (a, b, e.label))
    }

    /// Every row, ordered by ids.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str, &LabelEntry)> {
        self.entries
            .iter()
            .map(|((a, b), e)| (a.as_str(), b.as_str(), e))
    }

    /// Writes the whole store to its file, atomically.
    pub fn save(&self) -> Result<()> {
        crate::io::atomic::write_atomically(&self.path, |w| {
            let mut out = csv::Writer::from_writer(w);
            out.write_record(COLUMNS)?;
            for (a, b, e) in self.entries() {
                let jaccard = e.jaccard.map(|j| j.to_string()).unwrap_or_default();
                let (ca, cb) = e
                    .copy_of
                    .as_ref()
                    .map_or(("", ""), |(x, y)| (x.as_str(), y.as_str()));
                let at = e.labelled_at.as_deref().unwrap_or("");
                out.write_record([a, b, e.label.as_str(), &jaccard, at, ca, cb])?;
            }
            out.flush()
        })
    }

    /// The labels of `corpus`'s pairs by identical group ([`GroupLabels`]): ids resolve to
    /// their first position in the corpus, and a judged row wins over a copy row of the same
    /// two texts.
    pub fn by_group(&self, corpus: &Corpus, groups: &IdenticalGroups) -> GroupLabels {
        let wanted: std::collections::HashSet<&str> = self
            .entries
            .keys()
            .flat_map(|(a, b)| [a.as_str(), b.as_str()])
            .collect();
        let mut position: HashMap<&str, u32> = HashMap::new();
        for i in 0..corpus.len() {
            let id = corpus.id(i);
            if wanted.contains(id) {
                position.entry(id).or_insert(i as u32);
            }
        }
        let mut labels = GroupLabels::default();
        let mut matched = 0;
        // Copy rows first, so that judged rows overwrite them.
        for judged in [false, true] {
            for ((a, b), e) in &self.entries {
                if e.copy_of.is_none() != judged {
                    continue;
                }
                if let (Some(&pa), Some(&pb)) = (position.get(a.as_str()), position.get(b.as_str()))
                {
                    matched += 1;
                    labels.by_group.insert(group_key(groups, pa, pb), e.label);
                }
            }
        }
        labels.matched = matched;
        labels
    }
}

/// The key of the pair of texts `(a, b)`: their groups' representatives, ordered.
pub fn group_key(groups: &IdenticalGroups, a: u32, b: u32) -> (u32, u32) {
    let (ra, rb) = (groups.representative(a), groups.representative(b));
    (ra.min(rb), ra.max(rb))
}

/// Labels of the loaded corpus's pairs, keyed by pair of identical groups: every pair of
/// copies of two labelled texts has their label.
#[derive(Debug, Clone, Default)]
pub struct GroupLabels {
    by_group: HashMap<(u32, u32), Label>,
    /// Rows of the store whose two ids are in the corpus.
    matched: usize,
}

impl GroupLabels {
    /// The label of the pair of documents `(a, b)`, given directly or through copies.
    pub fn get(&self, groups: &IdenticalGroups, a: u32, b: u32) -> Option<Label> {
        self.by_group.get(&group_key(groups, a, b)).copied()
    }

    /// Sets (or removes) the label of every pair of copies of the texts of `(a, b)`.
    pub fn set(&mut self, groups: &IdenticalGroups, a: u32, b: u32, label: Option<Label>) {
        let key = group_key(groups, a, b);
        match label {
            Some(l) => self.by_group.insert(key, l),
            None => self.by_group.remove(&key),
        };
    }

    /// Each labelled pair of texts once, by its groups' representatives: `((ra, rb), label)`.
    pub fn iter(&self) -> impl Iterator<Item = (&(u32, u32), &Label)> {
        self.by_group.iter()
    }

    /// Rows of the store whose two ids are in the corpus.
    pub fn matched(&self) -> usize {
        self.matched
    }

    /// True when no labelled pair names two documents of the corpus.
    pub fn is_empty(&self) -> bool {
        self.by_group.is_empty()
    }
}

/// Every pair of documents identical (same shingle set) to `a` and `b` respectively, `(x, y)`
/// with x < y, `(a, b)` itself first, then in input order; at most `limit`. When `a` and `b`
/// are copies of each other, the pairs within their group.
pub fn copy_pairs(groups: &IdenticalGroups, a: u32, b: u32, limit: usize) -> Vec<(u32, u32)> {
    let first = (a.min(b), a.max(b));
    let mut out = vec![first];
    let (ma, mb) = (groups.members_of(a), groups.members_of(b));
    let same_group = groups.representative(a) == groups.representative(b);
    'outer: for (i, &x) in ma.iter().enumerate() {
        // Within one group each unordered pair once: y after x.
        let ys = if same_group { &mb[i + 1..] } else { mb };
        for &y in ys {
            let pair = (x.min(y), x.max(y));
            if x == y || pair == first {
                continue;
            }
            if out.len() >= limit {
                break 'outer;
            }
            out.push(pair);
        }
    }
    out
}

/// `time` as RFC 3339 in UTC to the second (`2026-11-28T11:37:59Z`).
pub fn rfc3339_utc(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date: Howard Hinnant, "chrono-Compatible Low-Level Date
    // Algorithms", civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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
        assert!(
            text.starts_with("id_a,id_b,label,jaccard,labelled_at,copy_of_a,copy_of_b\n"),
            "{text}"
        );
        let again = LabelStore::load(&path).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(again.get("doc-1", "doc-2"), Some(Label::Duplicate));
        assert_eq!(again.get("c\"d", "a,b"), Some(Label::Unsure));
        assert_eq!(again.get("x", "y"), None);
    }

    #[test]
    fn times_are_rfc3339_utc() {
        let at =
            |secs: u64| rfc3339_utc(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century leap year) and the task's own date.
        assert_eq!(at(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
        assert_eq!(at(1_795_865_879), "2026-11-28T11:37:59Z");
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
