//! JSON Lines: one JSON object per line; blank lines are skipped.
//!
//! Each line is parsed with a serde visitor that looks only at the text and id fields and
//! skips every other value without building it, copying the two strings into reusable
//! buffers: no `serde_json::Value` tree and no allocation per line.
//!
//! Field rules: the text field must be a string; `null` reads as an empty document (counted
//! as empty, like an empty string), any other type is a malformed line. The id may be a string
//! or a number. When no line has the default `id` field (or all have it `null`), the line
//! number is the id; once a line has it, every line must (see [`Ids`]); an id field named
//! explicitly must be present on every line. A `null` id is no id, but the messages about a
//! line without one say when the field is there and `null`: "no field `id`" beside a listing
//! of fields that includes `id` would contradict itself.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::default_columns::{Numbered, looks_like_id, numbered_ids_warning};
use super::options::{ReadOptions, SKIPPED_LINES_KEPT};
use super::sink::{Lines, Sink, decode, number_id};
use crate::jobs::Progress;
use crate::terms::Setting::{IdField, RowIds, SkipBad, TextField};
use crate::{Error, Result};

/// Reads JSON Lines; returns the bytes read.
pub(super) fn read(
    reader: &mut dyn BufRead,
    name: &Path,
    opts: &ReadOptions,
    sink: &mut Sink,
    progress: &Progress,
) -> Result<u64> {
    let fields = Fields {
        text: opts.text_field.as_deref().unwrap_or("text"),
        id: opts.id_field.as_deref().unwrap_or("id"),
    };
    let mut ids = Ids {
        required: opts.id_field.is_some(),
        first_with_id: None,
        numbered: Vec::new(),
        first_numbered: None,
        first_null_id: None,
    };
    let mut lines = Lines::new(reader, name);
    let mut doc = Doc::default();
    let mut id_buf = String::new();
    while !sink.is_full() {
        let Some((number, content)) = lines.next_line(progress)? else {
            break;
        };
        if content.iter().all(u8::is_ascii_whitespace) {
            sink.lines.blank += 1;
            continue;
        }
        // serde_json rejects invalid UTF-8 inside strings; decode lossily first (allocating
        // only for such lines) so the document survives and is counted.
        let (json, lossy) = decode(content);
        doc.clear();
        let parsed = {
            let mut de = serde_json::Deserializer::from_str(&json);
            LineSeed {
                fields: &fields,
                doc: &mut doc,
            }
            .deserialize(&mut de)
            .and_then(|()| de.end())
        };
        if let Err(e) = parsed {
            sink.bad_row(number, json_failure(name, number, &e))?;
            continue;
        }
        if !doc.has_text {
            let message = format!(
                "no field `{}` on this line{}; name the text field with {TextField}, or pass \
                 {SkipBad} to skip such lines",
                fields.text,
                field_listing(field_names(&json).as_deref())
            );
            sink.bad_row(number, Error::input(name, number, message))?;
            continue;
        }
        // `--id-field` equal to the text field: the key matched as text. Row numbers asked
        // for: no line has an id.
        let has_id = !opts.row_ids && (doc.has_id || fields.text == fields.id);
        if has_id && ids.first_with_id.is_none() {
            ids.first_with_id = Some(number);
            ids.take_back_numbered(name, fields.id, number, sink)?;
        }
        let id: &str = if has_id && doc.has_id {
            &doc.id
        } else if has_id {
            &doc.text
        } else if ids.required {
            let message = if doc.id_null {
                format!(
                    "field `{}` (the {IdField}) is null on this line; fill in the id, choose \
                     another {IdField} (without it the line number is the id), or pass \
                     {SkipBad}",
                    fields.id
                )
            } else {
                format!(
                    "no field `{}` (the {IdField}) on this line{}; add it, choose another \
                     {IdField} (without it the line number is the id), or pass {SkipBad}",
                    fields.id,
                    field_listing(field_names(&json).as_deref())
                )
            };
            sink.bad_row(number, Error::input(name, number, message))?;
            continue;
        } else if let Some(with_id) = ids.first_with_id {
            let message = missing_id_message(
                fields.id,
                doc.id_null,
                field_names(&json).as_deref(),
                with_id,
            );
            sink.bad_row(number, Error::input(name, number, message))?;
            continue;
        } else {
            ids.numbered_line(number, &json, doc.id_null);
            number_id(&mut id_buf, number)
        };
        sink.push(number, id, &doc.text, lossy);
    }
    // No line had an id: line numbers are the ids, as documented; say so when a field of the
    // first line looks like the id that was meant.
    if ids.first_with_id.is_none()
        && !opts.row_ids
        && let Some(first) = &ids.first_numbered
    {
        // A field that is null on the line cannot be the id that was meant.
        let candidates: Vec<&str> = first
            .fields
            .iter()
            .flatten()
            .filter(|(f, null)| !null && *f != fields.text && looks_like_id(f))
            .map(|(f, _)| f.as_str())
            .collect();
        let warning = match ids.first_null_id {
            Some(line) => Some(null_ids_warning(name, fields.id, line, &candidates)),
            None => numbered_ids_warning(name, Numbered::ByLine, &candidates),
        };
        sink.warnings.extend(warning);
    }
    sink.lines.physical = lines.count();
    Ok(lines.bytes)
}

/// Which lines have ids. A file whose lines have the id field on some lines only would mix
/// its ids with line numbers, which can collide (`"id": 3` on line 4, no id on line 3): once
/// one line has an id, every line must, and a line without one is malformed (as a line
/// without the text field is).
struct Ids {
    /// `--id-field` was given: every line must have it.
    required: bool,
    /// The first line that had an id.
    first_with_id: Option<u64>,
    /// The first few lines given their line number as id before any line had an id.
    numbered: Vec<u64>,
    /// The first such line, for messages.
    first_numbered: Option<NumberedLine>,
    /// The first line numbered by line whose id field is there but `null`.
    first_null_id: Option<u64>,
}

/// A line given its line number as id, as messages describe it.
struct NumberedLine {
    number: u64,
    /// Whether its id field is there but `null`.
    id_null: bool,
    /// Its fields by name, each with whether its value is `null` (`None` when the line is not
    /// a plain object map).
    fields: Option<Vec<(String, bool)>>,
}

impl Ids {
    /// A document kept with its line number as id, before any line had an id.
    fn numbered_line(&mut self, number: u64, json: &str, id_null: bool) {
        if id_null && self.first_null_id.is_none() {
            self.first_null_id = Some(number);
        }
        if self.first_numbered.is_none() {
            self.first_numbered = Some(NumberedLine {
                number,
                id_null,
                fields: fields_and_nulls(json),
            });
        }
        if self.numbered.len() < SKIPPED_LINES_KEPT {
            self.numbered.push(number);
        }
    }

    /// Line `with_id` is the first with an id: the lines before it numbered by line are
    /// malformed after all. The first of them is the error, or under `--skip-bad` they are
    /// all taken back and counted as skipped.
    fn take_back_numbered(
        &mut self,
        name: &Path,
        id_field: &str,
        with_id: u64,
        sink: &mut Sink,
    ) -> Result<()> {
        let Some(first) = self.first_numbered.take() else {
            return Ok(());
        };
        let names: Option<Vec<String>> = first
            .fields
            .map(|fields| fields.into_iter().map(|(f, _)| f).collect());
        let message = missing_id_message(id_field, first.id_null, names.as_deref(), with_id);
        sink.take_back_all_as_bad(&self.numbered, Error::input(name, first.number, message))?;
        self.numbered.clear();
        Ok(())
    }
}

/// For a line without an id (no id field, or `null` in it when `null`) when line `with_id`
/// has one.
fn missing_id_message(
    id_field: &str,
    null: bool,
    fields_here: Option<&[String]>,
    with_id: u64,
) -> String {
    let here = if null {
        format!("field `{id_field}` is null on this line, but line {with_id} has an id")
    } else {
        format!(
            "no field `{id_field}` on this line{}, but line {with_id} has one",
            field_listing(fields_here)
        )
    };
    format!(
        "{here}: with its line number as id it could collide with the id of another line; add \
         the id to every line, or pass {SkipBad} to skip lines without one"
    )
}

/// When no line has an id and the id field is `null` on some (from line `first_null` on):
/// documents are numbered by line, which the field's presence says was not meant. The
/// warning for a file without the field would say it has none.
fn null_ids_warning(file: &Path, id_field: &str, first_null: u64, candidates: &[&str]) -> String {
    let advice = match candidates {
        [] => format!("fill in the ids, or pass {RowIds} to number the documents by line"),
        [one] => {
            let one = crate::io::excerpt::excerpt(one);
            format!("field `{one}` looks like an id: pass {IdField} {one} to use it")
        }
        many => format!(
            "fields {} look like ids: pass {IdField} with one of them",
            many.iter()
                .take(crate::io::excerpt::MAX_NAMES)
                .map(|c| format!("`{}`", crate::io::excerpt::excerpt(c)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!(
        "{}: field `{id_field}` is null on every line that has it (first: line {first_null}), \
         so documents are numbered by line (1, 2, …) and pairs and clusters name them so; \
         {advice}",
        file.display()
    )
}

/// The field names of a line that is a JSON object (sorted by name).
fn field_names(json: &str) -> Option<Vec<String>> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(json)
        .ok()
        .map(|map| map.keys().cloned().collect())
}

/// The field names of a line that is a JSON object (sorted by name), each with whether its
/// value is `null`.
fn fields_and_nulls(json: &str) -> Option<Vec<(String, bool)>> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(json)
        .ok()
        .map(|map| {
            map.into_iter()
                .map(|(name, value)| (name, value.is_null()))
                .collect()
        })
}

/// ` (its fields are: a, b)` for an error message, when the line is an object.
fn field_listing(names: Option<&[String]>) -> String {
    match names {
        None => String::new(),
        Some([]) => " (the object is empty)".to_string(),
        Some(names) => format!(" (its fields are: {})", crate::io::excerpt::listing(names)),
    }
}

fn json_failure(name: &Path, line: u64, e: &serde_json::Error) -> Error {
    // serde_json appends " at line L column C"; the line is always 1 here (one line per
    // document), so keep the message and report the column ourselves.
    let full = e.to_string();
    let message = full
        .rfind(" at line ")
        .map_or(full.as_str(), |i| &full[..i]);
    let text = if e.is_data() {
        format!("{message}; fix the line or pass {SkipBad} to skip such lines")
    } else {
        format!(
            "invalid JSON at column {}: {message}; each line must be one complete JSON object \
             (fix the line, or pass {SkipBad} to skip such lines)",
            e.column()
        )
    };
    Error::input_at(name, line, e.column() as u64, text)
}

struct Fields<'a> {
    text: &'a str,
    id: &'a str,
}

/// The two values of one line, in buffers reused from line to line.
#[derive(Default)]
struct Doc {
    text: String,
    has_text: bool,
    id: String,
    has_id: bool,
    /// The id field is there and `null` (`has_id` is false then).
    id_null: bool,
}

impl Doc {
    fn clear(&mut self) {
        self.text.clear();
        self.has_text = false;
        self.id.clear();
        self.has_id = false;
        self.id_null = false;
    }
}

struct LineSeed<'a> {
    fields: &'a Fields<'a>,
    doc: &'a mut Doc,
}

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object (one document per line)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some(key) = map.next_key_seed(KeySeed(self.fields))? {
            match key {
                Key::Text => {
                    self.doc.text.clear();
                    map.next_value_seed(TextSeed {
                        buf: &mut self.doc.text,
                        field: self.fields.text,
                    })?;
                    self.doc.has_text = true;
                }
                Key::Id => {
                    self.doc.id.clear();
                    self.doc.has_id = map.next_value_seed(IdSeed {
                        buf: &mut self.doc.id,
                        field: self.fields.id,
                    })?;
                    self.doc.id_null = !self.doc.has_id;
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

enum Key {
    Text,
    Id,
    Other,
}

struct KeySeed<'a>(&'a Fields<'a>);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> std::result::Result<Key, E> {
        Ok(if key == self.0.text {
            Key::Text
        } else if key == self.0.id {
            Key::Id
        } else {
            Key::Other
        })
    }
}

/// The text value: a string is copied into `buf`; `null` leaves it empty.
struct TextSeed<'a> {
    buf: &'a mut String,
    field: &'a str,
}

impl<'de> DeserializeSeed<'de> for TextSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TextSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a string in field `{}` (the document text)", self.field)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<(), E> {
        self.buf.push_str(v);
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<(), E> {
        Ok(())
    }
}

/// The id value: a string or a number, written into `buf`. Returns whether an id was present
/// (`null` counts as absent).
struct IdSeed<'a> {
    buf: &'a mut String,
    field: &'a str,
}

impl<'de> DeserializeSeed<'de> for IdSeed<'_> {
    type Value = bool;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IdSeed<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a string or a number in field `{}` (the id)", self.field)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<bool, E> {
        self.buf.push_str(v);
        Ok(true)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<bool, E> {
        use fmt::Write as _;
        let _ = write!(self.buf, "{v}");
        Ok(true)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<bool, E> {
        use fmt::Write as _;
        let _ = write!(self.buf, "{v}");
        Ok(true)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<bool, E> {
        use fmt::Write as _;
        let _ = write!(self.buf, "{v}");
        Ok(true)
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<bool, E> {
        Ok(false)
    }
}
