//! What the pair viewer draws of a document's tabs, carriage returns and other control
//! characters: an auditor judges the texts by eye, so the words the document keeps apart must
//! stay apart on screen, and the highlight of the shared shingles must stay on its characters.

use std::ops::Range;

use crate::tui_support;

use lshscope::tui::app::App;
use lshscope::tui::keys::Command;
use lshscope::tui::layout::{viewer_layout, wrap_ranges};
use lshscope_core::corpus::Corpus;
use tui_support::*;

const SIZE: (u16, u16) = (100, 30);

/// The pair of `a` and `b` open in the viewer at [`SIZE`].
fn viewer_on(dir: &std::path::Path, a: &str, b: &str) -> App {
    viewer_on_pair(dir, Corpus::from_pairs([("doc-a", a), ("doc-b", b)]), SIZE)
}

/// The text rows of the left pane, trailing spaces trimmed.
fn left_rows(app: &App) -> Vec<String> {
    let pane = viewer_layout(SIZE, false, BANDING.bands).left;
    let cells = cell_styles(app, SIZE.0, SIZE.1);
    (pane.y + 1..pane.bottom() - 1)
        .map(|y| {
            (pane.x + 1..pane.right() - 1)
                .map(|x| cells[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// Checks that each char of `text` is drawn in its own cell of the left pane, highlighted
/// exactly when its byte is in `shared`: the highlight is computed on the document's bytes
/// and must land on the cells those bytes are drawn in.
fn assert_highlight_on_its_chars(app: &App, text: &str, shared: &[Range<usize>]) {
    let cells = cell_styles(app, SIZE.0, SIZE.1);
    let pane = viewer_layout(SIZE, false, BANDING.bands).left;
    let width = usize::from(pane.width - 2);
    let highlight = app.theme().shared().bg;
    for (row, line) in wrap_ranges(text, width).into_iter().enumerate() {
        let y = pane.y + 1 + row as u16;
        // One cell per char: the texts here have no wide or zero-width chars.
        for (x, (at, c)) in (pane.x + 1..).zip(text[line.clone()].char_indices()) {
            let at = line.start + at;
            let cell = &cells[(x, y)];
            let shown = if c == '\t' { ' ' } else { c };
            assert_eq!(
                cell.symbol(),
                shown.to_string(),
                "byte {at} of {text:?} is drawn at column {x} of row {row}"
            );
            let inside = shared.iter().any(|r| r.contains(&at));
            assert_eq!(
                Some(cell.bg) == highlight,
                inside,
                "byte {at} ({c:?}) of {text:?}: highlighted {inside} in the ranges {shared:?}"
            );
        }
    }
}

#[test]
fn a_tab_is_drawn_as_a_space_with_the_highlight_on_its_characters() {
    let dir = tempfile::tempdir().unwrap();
    let a = "col1\tcol2\tcol3 the quick brown fox jumps";
    let b = "col1\tcol2\tcol3 the quick brown fox leaps";
    let mut app = viewer_on(dir.path(), a, b);
    assert_eq!(
        left_rows(&app)[0],
        "col1 col2 col3 the quick brown fox jumps",
        "a tab separates the columns as a space does"
    );
    let view = app.viewer().pair().unwrap();
    let shared = view.ranges_a().to_vec();
    assert!(
        shared.iter().any(|r| r.contains(&4)) && !shared.iter().any(|r| r.contains(&36)),
        "the tab is inside a shared shingle, `jumps` is not: {shared:?}"
    );
    assert_highlight_on_its_chars(&app, a, &shared);

    cmd(&mut app, Command::ToggleDiff);
    assert!(app.viewer().diff_mode());
    assert_eq!(
        left_rows(&app)[0],
        "col1 col2 col3 the quick brown fox jumps"
    );
}

#[test]
fn a_carriage_return_alone_or_before_a_line_feed_ends_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = "line one\rline two is here\r\nline three ends it";
    let b = "line one\rline two is there\r\nline three ends it";
    let mut app = viewer_on(dir.path(), a, b);
    assert_eq!(
        left_rows(&app)[..4],
        ["line one", "line two is here", "line three ends it", ""]
    );
    assert!(
        screen(&app, SIZE.0, SIZE.1).contains(" lines 1–3 of 3 "),
        "three lines"
    );
    let shared = app.viewer().pair().unwrap().ranges_a().to_vec();
    assert_highlight_on_its_chars(&app, a, &shared);

    cmd(&mut app, Command::ToggleDiff);
    assert!(app.viewer().diff_mode());
    assert_eq!(
        left_rows(&app)[..4],
        ["line one", "line two is here", "line three ends it", ""]
    );
}

/// Terminal escape sequences and other control characters in a document never reach the
/// screen, in either mode: what follows the escape shows as text.
#[test]
fn control_characters_stay_off_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let a = "alert\x07 \x1b[31mred\x1b[0m and\x0cwords\nthe rest of the two documents \
             is the same, word for word";
    let b = "alert\x07 \x1b[31mred\x1b[0m and\x0cwords\nthe rest of the two documents \
             is the same, word by word";
    let mut app = viewer_on(dir.path(), a, b);
    for diff_mode in [false, true] {
        assert_eq!(app.viewer().diff_mode(), diff_mode);
        let cells = cell_styles(&app, SIZE.0, SIZE.1);
        for cell in &cells.content {
            assert!(
                !cell.symbol().contains(char::is_control),
                "{:?} on screen",
                cell.symbol()
            );
        }
        assert_eq!(left_rows(&app)[0], "alert [31mred[0m and words");
        cmd(&mut app, Command::ToggleDiff);
    }
}
