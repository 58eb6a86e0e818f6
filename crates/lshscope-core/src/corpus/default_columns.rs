//! The text and id columns a reader takes when the user names none, with one rule for every
//! reader, so that a table reads the same as CSV, TSV or Parquet, and so that no guess is
//! silent.
//!
//! Text: the column named `text`; else, when exactly one column could hold the text (it is not
//! the id column, does not look like an id, and, in Parquet, holds strings), that column with a
//! warning naming it; else an error listing the candidates. Picking one of several columns by
//! position (the last, as before) read `id,body,url` as urls, and `dedup` then removed all but
//! one document: a guess that wrong must not be made quietly, and with several candidates it
//! is not made at all, as xsv, qsv and DuckDB refuse a column that does not exist and list the
//! ones that do instead of picking one.
//!
//! Id: the column (or JSON Lines field) named `id`; else the row (line) number, as documented,
//! with a warning when some column looks like an id (`doc_id`, `docId`, `uuid`), which is
//! what the user nearly always meant.

use std::path::Path;

use crate::io::excerpt::{excerpt, listing};
use crate::terms::Setting::{IdColumn, IdField, TextColumn};

/// The name the text column has by default.
pub(super) const TEXT: &str = "text";

/// The columns of a table (a CSV/TSV header, a Parquet schema's top-level columns), as the
/// default rules see them.
pub(super) struct TableColumns<'a> {
    pub(super) names: Vec<&'a str>,
    /// Whether each column could hold the text (every CSV column; in Parquet, flat string or
    /// binary columns).
    pub(super) can_hold_text: Vec<bool>,
    /// Whether each column could hold ids (every CSV column; in Parquet, flat string, binary
    /// or integer columns).
    pub(super) can_hold_id: Vec<bool>,
}

impl TableColumns<'_> {
    /// The text column when none is named and none is called `text`, given the id column:
    /// `Ok((column, warning))` when exactly one column could hold it, else the error message
    /// (without the file name, which the caller's error carries).
    pub(super) fn fallback_text(
        &self,
        file: &Path,
        id: Option<usize>,
    ) -> std::result::Result<(usize, String), String> {
        let usable = |i: &usize| self.can_hold_text[*i] && Some(*i) != id;
        let mut pool: Vec<usize> = (0..self.names.len())
            .filter(usable)
            .filter(|&i| !looks_like_id(self.names[i]))
            .collect();
        // `doc_id,content` has one candidate; `doc_id` alone still has one, its id-like column.
        if pool.is_empty() {
            pool = (0..self.names.len()).filter(usable).collect();
        }
        match pool[..] {
            [] => Err(format!(
                "no column named `{TEXT}`, and no column could hold the text (columns are: {}); \
                 choose one with {TextColumn}",
                listing(&self.names)
            )),
            [chosen] => {
                let others: Vec<&str> = (0..self.names.len())
                    .filter(|&i| i != chosen)
                    .map(|i| self.names[i])
                    .collect();
                let others = if others.is_empty() {
                    "its only column".to_string()
                } else {
                    format!("other columns: {}", listing(&others))
                };
                Ok((
                    chosen,
                    format!(
                        "{} has no column named `{TEXT}`, so the text is read from column `{}` \
                         ({others}); name the text column with {TextColumn} NAME to choose \
                         another or to confirm this one",
                        file.display(),
                        excerpt(self.names[chosen])
                    ),
                ))
            }
            _ => {
                let listed: Vec<&str> = pool.iter().map(|&i| self.names[i]).collect();
                let id_note = id
                    .map(|i| format!(" (the id is column `{}`)", excerpt(self.names[i])))
                    .unwrap_or_default();
                Err(format!(
                    "no column named `{TEXT}`, and {} columns could hold the text: {}{id_note}; \
                     choose one with {TextColumn} NAME (or a 1-based index)",
                    listed.len(),
                    listing(&listed)
                ))
            }
        }
    }

    /// The warning for ids taken from row numbers when some column looks like an id; `text`
    /// is the text column, never suggested.
    pub(super) fn numbered_ids_warning(&self, file: &Path, text: usize) -> Option<String> {
        let candidates: Vec<&str> = (0..self.names.len())
            .filter(|&i| i != text && self.can_hold_id[i] && looks_like_id(self.names[i]))
            .map(|i| self.names[i])
            .collect();
        numbered_ids_warning(file, Numbered::ByRow, &candidates)
    }
}

/// What a document is numbered by when it has no id.
#[derive(Clone, Copy)]
pub(super) enum Numbered {
    /// Tables: the data row, from 1.
    ByRow,
    /// JSON Lines: the physical line, from 1.
    ByLine,
}

/// `FILE has no column named `id`, so documents are numbered by row …; column `doc_id` looks
/// like an id: …`, or `None` when nothing looks like an id (row numbers are then the only
/// choice, and a warning could not be acted on).
pub(super) fn numbered_ids_warning(
    file: &Path,
    numbered: Numbered,
    candidates: &[&str],
) -> Option<String> {
    let (noun, unit, flag) = match numbered {
        Numbered::ByRow => ("column", "row", IdColumn),
        Numbered::ByLine => ("field", "line", IdField),
    };
    let advice = match candidates {
        [] => return None,
        [one] => {
            let one = excerpt(one);
            format!("{noun} `{one}` looks like an id: pass {flag} {one} to use it")
        }
        many => format!(
            "{noun}s {} look like ids: pass {flag} with one of them",
            many.iter()
                .take(crate::io::excerpt::MAX_NAMES)
                .map(|c| format!("`{}`", excerpt(c)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Some(format!(
        "{} has no {noun} named `id`, so documents are numbered by {unit} (1, 2, …) and pairs \
         and clusters name them so; {advice}",
        file.display()
    ))
}

/// Whether a column or field name reads as an identifier: its last word is `id`, `uuid` or
/// `guid`, words being split at non-alphanumeric characters and where a lowercase letter meets
/// an uppercase one (`doc_id`, `doc-id`, `docId`, `DocumentID`, `_id`, `uuid`). A word merely
/// ending in the letters `id` (`valid`, `paid`, `hybrid`) does not count.
pub(super) fn looks_like_id(name: &str) -> bool {
    let mut last_word_start = 0;
    let mut previous: Option<char> = None;
    for (i, c) in name.char_indices() {
        if !c.is_alphanumeric() {
            last_word_start = i + c.len_utf8();
        } else if c.is_uppercase() && previous.is_some_and(char::is_lowercase) {
            last_word_start = i;
        }
        previous = Some(c);
    }
    let last = &name[last_word_start..];
    ["id", "uuid", "guid"]
        .iter()
        .any(|word| last.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::render_neutral;

    fn table<'a>(names: &[&'a str]) -> TableColumns<'a> {
        TableColumns {
            names: names.to_vec(),
            can_hold_text: vec![true; names.len()],
            can_hold_id: vec![true; names.len()],
        }
    }

    #[test]
    fn id_like_names_end_in_the_word_id() {
        for name in [
            "id",
            "ID",
            "doc_id",
            "doc-id",
            "doc.id",
            "docId",
            "DocumentID",
            "_id",
            "uuid",
            "row_GUID",
        ] {
            assert!(looks_like_id(name), "{name}");
        }
        for name in [
            "valid", "paid", "hybrid", "docid", "ids", "identity", "text", "",
        ] {
            assert!(!looks_like_id(name), "{name}");
        }
    }

    #[test]
    fn one_candidate_is_taken_with_a_warning_naming_the_others() {
        let file = Path::new("x.csv");
        let (chosen, warning) = table(&["id", "body"]).fallback_text(file, Some(0)).unwrap();
        assert_eq!(chosen, 1);
        assert_eq!(
            render_neutral(&warning),
            "x.csv has no column named `text`, so the text is read from column `body` (other \
             columns: id); name the text column with `text_column` NAME to choose another or to \
             confirm this one"
        );
        // An id-like column is not a text candidate, whether or not it is the id.
        let (chosen, _) = table(&["doc_id", "body"])
            .fallback_text(file, None)
            .unwrap();
        assert_eq!(chosen, 1);
        let (chosen, _) = table(&["body", "id"]).fallback_text(file, Some(1)).unwrap();
        assert_eq!(chosen, 0, "the id is never read as the text");
        // With nothing else, the id-like column (then any column) is the text.
        let (chosen, warning) = table(&["doc_id"]).fallback_text(file, None).unwrap();
        assert_eq!(chosen, 0);
        assert!(warning.contains("(its only column)"), "{warning}");
        let (chosen, _) = table(&["id"]).fallback_text(file, None).unwrap();
        assert_eq!(chosen, 0);
    }

    #[test]
    fn several_candidates_are_an_error_listing_them() {
        let message = table(&["id", "body", "url"])
            .fallback_text(Path::new("x.csv"), Some(0))
            .unwrap_err();
        assert_eq!(
            render_neutral(&message),
            "no column named `text`, and 2 columns could hold the text: body, url (the id is \
             column `id`); choose one with `text_column` NAME (or a 1-based index)"
        );
        let mut numbers = table(&["n", "m"]);
        numbers.can_hold_text = vec![false, false];
        let message = numbers
            .fallback_text(Path::new("x.parquet"), None)
            .unwrap_err();
        assert!(
            message.contains("no column could hold the text (columns are: n, m)"),
            "{message}"
        );
    }

    #[test]
    fn numbered_ids_are_warned_about_only_when_a_column_looks_like_an_id() {
        let file = Path::new("x.csv");
        assert_eq!(
            render_neutral(
                &table(&["doc_id", "body"])
                    .numbered_ids_warning(file, 1)
                    .unwrap()
            ),
            "x.csv has no column named `id`, so documents are numbered by row (1, 2, …) and \
             pairs and clusters name them so; column `doc_id` looks like an id: pass \
             `id_column` doc_id to use it"
        );
        let two = table(&["doc_id", "uuid", "body"])
            .numbered_ids_warning(file, 2)
            .map(|w| render_neutral(&w))
            .unwrap();
        assert!(
            two.contains("columns `doc_id`, `uuid` look like ids: pass `id_column` with one"),
            "{two}"
        );
        assert_eq!(
            table(&["title", "body"]).numbered_ids_warning(file, 1),
            None
        );
        // The text column is never suggested as the id.
        assert_eq!(table(&["doc_id"]).numbered_ids_warning(file, 0), None);
        let lines =
            numbered_ids_warning(Path::new("x.jsonl"), Numbered::ByLine, &["docId"]).unwrap();
        let lines = render_neutral(&lines);
        assert!(
            lines.contains("no field named `id`, so documents are numbered by line")
                && lines.contains("field `docId` looks like an id: pass `id_field` docId"),
            "{lines}"
        );
    }
}
