//! JSON Lines: one JSON object per line; blank lines are skipped.
//!
//! Each line is parsed with a serde visitor that looks only at the text and id fields and
//! skips every other value without building it, copying the two strings into reusable
//! buffers: no `serde_json::Value` tree and no allocation per line.
//!
//! Field rules: the text field must be a string; `null` reads as an empty document (counted
//! as empty, like an empty string), any other type is a malformed line. The id may be a string
//! or a number; when the default `id` field is absent (or `null`) the line number is the id,
//! but an id field named explicitly must be present on every line.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::options::ReadOptions;
use super::sink::{Lines, Sink, decode, number_id};
use crate::jobs::Progress;
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
    let id_required = opts.id_field.is_some();
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
                "no field `{}` on this line{}; name the text field with --text-field, or pass \
                 --skip-bad to skip such lines",
                fields.text,
                field_listing(&json)
            );
            sink.bad_row(number, Error::input(name, number, message))?;
            continue;
        }
        let id: &str = match () {
            () if doc.has_id => &doc.id,
            // `--id-field` equal to the text field: the key matched as text.
            () if fields.text == fields.id => &doc.text,
            () if id_required => {
                let message = format!(
                    "no field `{}` (the --id-field) on this line{}; add it, choose another \
                     --id-field (without it the line number is the id), or pass --skip-bad",
                    fields.id,
                    field_listing(&json)
                );
                sink.bad_row(number, Error::input(name, number, message))?;
                continue;
            }
            () => number_id(&mut id_buf, number),
        };
        sink.push(id, &doc.text, lossy);
    }
    sink.lines.physical = lines.count();
    Ok(lines.bytes)
}

/// ` (its fields are: a, b)` for an error message, when the line is an object.
fn field_listing(json: &str) -> String {
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(json) {
        Ok(map) if map.is_empty() => " (the object is empty)".to_string(),
        Ok(map) => format!(
            " (its fields are: {})",
            map.keys()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Err(_) => String::new(),
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
        format!("{message}; fix the line or pass --skip-bad to skip such lines")
    } else {
        format!(
            "invalid JSON at column {}: {message}; each line must be one complete JSON object \
             (fix the line, or pass --skip-bad to skip such lines)",
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
}

impl Doc {
    fn clear(&mut self) {
        self.text.clear();
        self.has_text = false;
        self.id.clear();
        self.has_id = false;
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
