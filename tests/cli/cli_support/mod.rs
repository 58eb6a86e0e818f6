//! Checks shared by the CLI tests: how numbers read in text output.
#![allow(dead_code)]

/// Every number of four or more digits in `text` written without thousands separators
/// (`93985`, the `1234` of `1234.5`), for the assertion message; decimal fractions
/// (`0.54750`), digits inside words or ids (`t0000013`, `doc-000001`, `x86_64`) and the
/// parts of a grouped number (`93,985`) do not count.
pub fn ungrouped_numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let before = start.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i).copied();
        let part_of_something = before
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | ',' | '-' | '_' | '/'))
            || after.is_some_and(|c| c.is_alphabetic() || c == '_');
        if i - start >= 4 && !part_of_something {
            found.push(chars[start..i].iter().collect());
        }
    }
    found
}

/// Fails, quoting the text, when any number in `text` lacks its thousands separators.
pub fn assert_numbers_grouped(what: &str, text: &str) {
    let bare = ungrouped_numbers(text);
    assert!(
        bare.is_empty(),
        "{what}: numbers without thousands separators {bare:?} in\n{text}"
    );
}

#[test]
fn ungrouped_numbers_are_found_and_nothing_else() {
    assert_eq!(
        ungrouped_numbers("1249975000 pairs (≈17237155, 16,356,741) 93985 1234.5"),
        ["1249975000", "17237155", "93985", "1234"]
    );
    assert!(ungrouped_numbers("0.54750 t0000013 doc-000001 x86_64 999 1,000 12ms").is_empty());
}
