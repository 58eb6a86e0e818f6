//! Counts in the explorer carry thousands separators, as the titles do (`showing 1,128
//! pairs`, `1,083 in the union`), on a corpus large enough to need them.

use crate::tui_support;

use lshscope::tui::app::{Action, PromptKey, View};
use lshscope::tui::keys::Command;
use lshscope_core::corpus::Corpus;
use tui_support::*;

/// About `words` words of made-up text from `seed`: varied enough that a char-5 shingling
/// of it has well over a thousand distinct shingles.
fn prose(seed: u64, words: usize) -> String {
    const SYLLABLES: &[&str] = &[
        "ka", "lo", "mir", "tes", "an", "vu", "rel", "pio", "sna", "dor", "qui", "ept", "zal",
        "mo", "ber", "isk",
    ];
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    (0..words)
        .map(|_| {
            let n = 1 + next() % 3;
            (0..n)
                .map(|_| SYLLABLES[next() % SYLLABLES.len()])
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn filter_message_and_pair_viewer_write_counts_with_thousands_separators() {
    let dir = tempfile::tempdir().unwrap();
    let size = (160, 45);
    // 48 copies of one long text, each with its own ending: 1,128 candidate pairs.
    let base = prose(7, 260);
    let docs: Vec<(String, String)> = (0..48)
        .map(|i| {
            (
                format!("copy-{i:02}"),
                format!("{base} {}", prose(100 + i, 4)),
            )
        })
        .collect();
    let mut app = new_app(dir.path(), size);
    app.update(Action::Loaded(Box::new(Ok(loaded(Corpus::from_pairs(
        docs.iter().map(|(id, text)| (id.as_str(), text.as_str())),
    ))))));
    run_effects(&mut app);

    cmd(&mut app, Command::FilterPrompt);
    for c in "0.5".chars() {
        app.update(Action::PromptInput(PromptKey::Char(c)));
    }
    app.update(Action::PromptInput(PromptKey::Submit));
    let message = app
        .message()
        .as_ref()
        .expect("the filter says what it shows");
    assert!(
        message.text.starts_with("showing 1,128 pairs with"),
        "{}",
        message.text
    );

    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let viewer = screen(&app, size.0, size.1);
    let header = viewer
        .lines()
        .find(|l| l.contains("in the union"))
        .expect("the viewer's header");
    let numbers: Vec<&str> = header
        .split(|c: char| !(c.is_ascii_digit() || c == ','))
        .filter(|s| s.len() >= 4)
        .collect();
    assert!(!numbers.is_empty(), "{header}");
    for n in numbers {
        assert!(n.contains(','), "{n} in {header:?}");
    }
    assert!(
        viewer
            .lines()
            .any(|l| l.contains(",") && l.contains(" chars ")),
        "{viewer}"
    );
}
