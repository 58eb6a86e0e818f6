//! Whether the first row of a CSV/TSV file is a header. The most common dump, `id<TAB>text`
//! with no header row, used to have its first document taken for column names: the read then
//! failed quoting that document as a column name, or lost it silently.
//!
//! The rule is conservative, because a header read as data costs a stray document and a header
//! misjudged the other way costs an error that says what to do: the first row is data only on
//! strong evidence, when no field is named like a column the readers look for (`text`, `id`,
//! `doc_id`, …) and some field is one no one names a column:
//!
//! - longer than [`MAX_NAME_CHARS`] characters (a document, not a name);
//! - a sentence: at least [`SENTENCE_WORDS`] words;
//! - mostly spaces and punctuation (at least 3 characters, fewer than half of them letters or
//!   digits: `---`, `...`, `* * *`);
//! - a whole number while another field has several words (`17<TAB>Refund not received`):
//!   ids in front of text. A header of numbers alone (`0,1`, as pandas writes unnamed
//!   columns) stays a header.
//!
//! Anything else is a header, as before: a short first document (`a1<TAB>Hello there`) is
//! still taken for column names, and the error that follows names `--no-headers`.

use super::default_columns::{TEXT, looks_like_id};

/// Longer than this, a field is a document rather than a column name.
pub(super) const MAX_NAME_CHARS: usize = 100;

/// A field of this many words or more is a sentence, not a column name.
pub(super) const SENTENCE_WORDS: usize = 10;

/// Why the first row (its fields, as read) is data rather than a header, for the note; `None`
/// when it reads as a header.
pub fn not_a_header(fields: &[&[u8]]) -> Option<String> {
    // Only a bounded prefix of each field is decoded: the length test needs no more, and a
    // first document of megabytes is not copied.
    const PREFIX_BYTES: usize = 4 * (MAX_NAME_CHARS + 1);
    let heads: Vec<String> = fields
        .iter()
        .map(|f| String::from_utf8_lossy(&f[..f.len().min(PREFIX_BYTES)]).into_owned())
        .collect();
    if heads.iter().any(|h| names_a_column(h)) {
        return None;
    }
    let field = |i: usize| format!("field {}", i + 1);
    for (i, (raw, head)) in fields.iter().zip(&heads).enumerate() {
        let head = head.trim();
        let chars = head.chars().count();
        if chars > MAX_NAME_CHARS {
            // The whole field's length, in characters, for the note.
            let total = match std::str::from_utf8(raw) {
                Ok(s) => s.trim().chars().count(),
                Err(_) => raw.len(),
            };
            return Some(format!(
                "{} is {} characters long",
                field(i),
                crate::util::numfmt::thousands(total as u64)
            ));
        }
        let words = head.split_whitespace().count();
        if words >= SENTENCE_WORDS {
            return Some(format!("{} is a sentence of {words} words", field(i)));
        }
        let alphanumeric = head.chars().filter(|c| c.is_alphanumeric()).count();
        if chars >= 3 && 2 * alphanumeric < chars {
            return Some(format!("{} is mostly spaces and punctuation", field(i)));
        }
    }
    let is_number = |h: &str| !h.is_empty() && h.bytes().all(|b| b.is_ascii_digit());
    let has_words = |h: &str| h.split_whitespace().count() >= 2;
    if let Some(number) = heads.iter().position(|h| is_number(h.trim()))
        && let Some(words) = heads.iter().position(|h| has_words(h))
    {
        return Some(format!(
            "{} is a number and {} has several words",
            field(number),
            field(words)
        ));
    }
    None
}

/// Whether `field` of a first row is named like a column the readers look for: `text`, or an
/// id (`id`, `doc_id`, `docId`, …) written as one word. Such a row is a header.
pub(super) fn names_a_column(field: &str) -> bool {
    let field = field.trim();
    field.eq_ignore_ascii_case(TEXT)
        || (!field.is_empty() && !field.contains(char::is_whitespace) && looks_like_id(field))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(fields: &[&str]) -> Option<String> {
        let bytes: Vec<&[u8]> = fields.iter().map(|f| f.as_bytes()).collect();
        not_a_header(&bytes)
    }

    #[test]
    fn real_headers_stay_headers() {
        for header in [
            &["id", "text"][..],
            &["doc_id", "content"],
            &["text"],
            &["title", "body", "url"],
            &["0", "1"],
            &["Job Title", "Date of birth (YYYY)", "%", "#"],
            &["", "text"],
            &["country", "2019", "2020"],
            // A question as a column name, below the sentence length.
            &["How satisfied are you with the onboarding?"],
            // A named column wins over everything else.
            &["id", &"word ".repeat(40)],
            &["text", "---"],
        ] {
            assert_eq!(row(header), None, "{header:?}");
        }
    }

    #[test]
    fn documents_are_not_headers() {
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(
            row(&["1", &long]).unwrap(),
            "field 2 is 101 characters long"
        );
        // The edge: exactly MAX_NAME_CHARS characters may be a name (a long survey question).
        let edge = "y".repeat(MAX_NAME_CHARS);
        assert_eq!(row(&["a1", &edge]), None);
        // Multi-byte characters count as one each.
        assert_eq!(row(&["é".repeat(MAX_NAME_CHARS).as_str()]), None);
        assert!(row(&["é".repeat(MAX_NAME_CHARS + 1).as_str()]).is_some());

        let nine = "one two three four five six seven eight nine";
        assert_eq!(row(&["a1", nine]), None);
        assert_eq!(
            row(&["a1", &format!("{nine} ten")]).unwrap(),
            "field 2 is a sentence of 10 words"
        );
        assert_eq!(
            row(&["k", "* * *"]).unwrap(),
            "field 2 is mostly spaces and punctuation"
        );
        assert_eq!(row(&["k", "--"]), None, "two characters may be a name");
        assert_eq!(
            row(&["17", "Refund not received"]).unwrap(),
            "field 1 is a number and field 2 has several words"
        );
        // An id that is not a number in front of a short text: still a header.
        assert_eq!(row(&["a1", "Hello there"]), None);
    }

    #[test]
    fn a_megabyte_field_is_judged_without_decoding_it_all() {
        let huge = "word ".repeat(2_000_000);
        assert_eq!(
            row(&["1", &huge]).unwrap(),
            "field 2 is 9,999,999 characters long"
        );
        let mut invalid = vec![0xFFu8; 1_000];
        invalid.extend_from_slice(b" tail");
        assert!(not_a_header(&[b"1", &invalid]).is_some());
    }
}
