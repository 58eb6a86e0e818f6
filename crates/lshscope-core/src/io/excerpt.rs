//! Input quoted in a message, kept short: a warning or an error that shows a line, a field, a
//! column name or an id shows at most [`MAX_CHARS`] characters of it, then `…`. A one-line
//! document of several megabytes read with the wrong settings must not end up whole on stderr
//! or in a status line. One copy for every reader (corpus, pairs, truth, labels, imports).
//!
//! The cut falls on a character boundary, never inside a UTF-8 sequence, and tabs and line
//! breaks are shown as `\t`, `\r` and `\n`, so a quoted piece stays on the message's one line.

use std::borrow::Cow;

/// The most characters of input a message quotes.
pub const MAX_CHARS: usize = 100;

/// The most names (columns, fields) a listing shows before `… and N more`.
pub const MAX_NAMES: usize = 20;

/// `text` as a message quotes it: its first [`MAX_CHARS`] characters, with `…` when it is
/// longer, and tabs and line breaks escaped. Borrowed when nothing changes.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    let cut = text.char_indices().nth(MAX_CHARS).map(|(i, _)| i);
    let head = &text[..cut.unwrap_or(text.len())];
    let needs_escape = head.contains(['\t', '\r', '\n']);
    if cut.is_none() && !needs_escape {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(head.len() + 4);
    for c in head.chars() {
        match c {
            '\t' => shown.push_str("\\t"),
            '\r' => shown.push_str("\\r"),
            '\n' => shown.push_str("\\n"),
            c => shown.push(c),
        }
    }
    if cut.is_some() {
        shown.push('…');
    }
    Cow::Owned(shown)
}

/// [`excerpt`] of bytes that may not be UTF-8 (invalid sequences shown as U+FFFD). Only the
/// bytes that can be shown are decoded, however long the input.
pub fn excerpt_bytes(bytes: &[u8]) -> String {
    // A character is at most 4 bytes: this prefix holds MAX_CHARS of them and one more, which
    // tells whether anything was cut.
    let prefix = &bytes[..bytes.len().min(4 * (MAX_CHARS + 1))];
    let decoded = String::from_utf8_lossy(prefix);
    let shown = excerpt(&decoded).into_owned();
    if prefix.len() < bytes.len() && !shown.ends_with('…') {
        // Cut at the prefix's end although under MAX_CHARS characters were shown (many
        // invalid bytes, each one character): still say that there was more.
        shown + "…"
    } else {
        shown
    }
}

/// Names (column names, JSON fields) as a message lists them: each an [`excerpt`], joined with
/// `, `, the first [`MAX_NAMES`] of them and then `… and N more`.
pub fn listing<S: AsRef<str>>(names: &[S]) -> String {
    let mut shown: Vec<Cow<'_, str>> = names
        .iter()
        .take(MAX_NAMES)
        .map(|n| excerpt(n.as_ref()))
        .collect();
    if names.len() > MAX_NAMES {
        shown.push(Cow::Owned(format!(
            "… and {} more",
            names.len() - MAX_NAMES
        )));
    }
    shown.join(", ")
}

/// An id as a message shows it: as it is when that reads unambiguously, else quoted with
/// escapes, so that an empty id reads `""` and a list of ids with commas, quotes, spaces at
/// their ends or line breaks can still be told apart.
pub fn id_for_message(id: &str) -> Cow<'_, str> {
    let plain = !id.is_empty()
        && id.trim() == id
        && !id.contains([',', '"'])
        && !id.chars().any(char::is_control);
    if plain {
        id.into()
    } else {
        format!("{id:?}").into()
    }
}

/// The first few of `total` things, comma-separated, and `, …` when the list was cut.
pub fn first_of<T: std::fmt::Display>(listed: &[T], total: usize) -> String {
    let mut text = listed
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if total > listed.len() {
        text.push_str(", …");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_borrowed_unchanged() {
        assert!(matches!(excerpt("id,text"), Cow::Borrowed("id,text")));
        assert_eq!(excerpt(""), "");
        let exactly = "x".repeat(MAX_CHARS);
        assert_eq!(excerpt(&exactly), exactly);
    }

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        let long = "é".repeat(MAX_CHARS + 1);
        let shown = excerpt(&long);
        assert_eq!(shown.chars().count(), MAX_CHARS + 1);
        assert!(shown.ends_with("é…"), "{shown}");
        // Four-byte characters, and megabytes of them.
        let huge = "𝄞".repeat(3_000_000);
        let shown = excerpt(&huge);
        assert_eq!(shown, format!("{}…", "𝄞".repeat(MAX_CHARS)));
    }

    #[test]
    fn tabs_and_line_breaks_are_escaped() {
        assert_eq!(excerpt("id\ttext\r\n"), "id\\ttext\\r\\n");
        let long = format!("a\tb{}", "c".repeat(200));
        let shown = excerpt(&long);
        assert!(
            shown.starts_with("a\\tb") && shown.ends_with('…'),
            "{shown}"
        );
        assert_eq!(shown.chars().count(), MAX_CHARS + 2);
    }

    #[test]
    fn bytes_are_decoded_only_as_far_as_shown() {
        assert_eq!(excerpt_bytes(b"ok \xFF"), "ok \u{FFFD}");
        let mut long = "ü".repeat(MAX_CHARS).into_bytes();
        long.extend_from_slice(&[b'x'; 10_000_000]);
        assert_eq!(excerpt_bytes(&long), format!("{}…", "ü".repeat(MAX_CHARS)));
        // A cut inside a character: the prefix ends in half of `€`, shown as U+FFFD; the
        // input is longer, so `…` follows.
        let mut split = vec![b'a'; 4 * (MAX_CHARS + 1) - 1];
        split.extend_from_slice("€€".as_bytes());
        let shown = excerpt_bytes(&split);
        assert!(shown.ends_with('…') && shown.chars().count() <= MAX_CHARS + 1);
    }

    #[test]
    fn listings_cap_each_name_and_their_number() {
        assert_eq!(listing(&["id", "text"]), "id, text");
        let long = "n".repeat(500);
        assert_eq!(
            listing(&["id", long.as_str()]),
            format!("id, {}…", "n".repeat(MAX_CHARS))
        );
        let many: Vec<String> = (0..25).map(|i| format!("c{i}")).collect();
        let shown = listing(&many);
        assert!(
            shown.starts_with("c0, c1, ") && shown.ends_with("c19, … and 5 more"),
            "{shown}"
        );
        assert_eq!(listing::<&str>(&[]), "");
    }
}
