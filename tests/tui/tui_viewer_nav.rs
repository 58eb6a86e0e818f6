//! Moving through a long pair in the viewer: Home/End (g/G) reach either end of both texts,
//! `]` from the top skips a long common header to the first place the texts differ, and `/`
//! finds words in either pane. The pair is generated: 30,000 lines each, identical but for a
//! few lines near the end.

use crate::tui_support;

use lshscope::tui::app::{Action, App, View};
use lshscope::tui::keys::{Command, Context, lookup};
use lshscope_core::corpus::Corpus;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui_support::*;

const SIZE: (u16, u16) = (100, 30);
const LINES: usize = 30_000;
/// The first line (0-based) where B differs from A.
const FIRST_CHANGE: usize = 29_950;

/// Line `i` of text A; B differs from line [`FIRST_CHANGE`] on every tenth line.
fn line(i: usize, b: bool) -> String {
    if b && i >= FIRST_CHANGE && (i - FIRST_CHANGE) % 10 == 0 {
        format!("clause {i:05} was struck out by the second party")
    } else if i % 7_000 == 3_000 {
        format!("clause {i:05} the Indemnity of the licensee holds")
    } else {
        format!("clause {i:05} of the shared licence text stands")
    }
}

fn text(b: bool) -> String {
    (0..LINES)
        .map(|i| line(i, b))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The long pair open in the viewer at [`SIZE`].
fn viewer_on_long_pair(dir: &std::path::Path) -> App {
    let corpus = Corpus::from_pairs([
        ("long-a", text(false).as_str()),
        ("long-b", text(true).as_str()),
    ]);
    let mut app = new_app(dir, SIZE);
    app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
    run_effects(&mut app);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }), "the pair opens");
    app
}

/// The first line each pane shows.
fn tops(app: &App) -> (usize, usize) {
    let view = app.viewer().pair.as_ref().expect("a pair is open");
    (view.scroll_a, view.scroll_b)
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn shown(app: &App) -> String {
    screen(app, SIZE.0, SIZE.1)
}

#[test]
fn home_and_end_reach_either_end_of_both_texts() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = viewer_on_long_pair(dir.path());
    assert_eq!(tops(&app), (0, 0));
    assert_eq!(lookup(&key('G'), Context::Viewer), Some(Command::Bottom));
    assert_eq!(lookup(&key('g'), Context::Viewer), Some(Command::Top));
    let end = KeyEvent::new(KeyCode::End, KeyModifiers::NONE);
    assert_eq!(lookup(&end, Context::Viewer), Some(Command::Bottom));

    cmd(&mut app, Command::Bottom);
    let rows = lshscope::tui::layout::viewer_text_rows(SIZE, false, BANDING.bands);
    assert_eq!(tops(&app), (LINES - rows, LINES - rows));
    let s = shown(&app);
    assert!(
        s.contains("clause 29999 of the shared licence text stands"),
        "{s}"
    );
    assert!(
        s.contains(&format!("lines 29,{:03}–30,000 of 30,000", 1000 - rows + 1)),
        "{s}"
    );
    // End again stays at the end; PgDn there does not move past it.
    cmd(&mut app, Command::Bottom);
    cmd(&mut app, Command::PageDown);
    assert_eq!(tops(&app), (LINES - rows, LINES - rows));

    cmd(&mut app, Command::PageUp);
    assert_eq!(tops(&app).0, LINES - rows - (rows - 1));
    cmd(&mut app, Command::Top);
    assert_eq!(tops(&app), (0, 0));
    let s = shown(&app);
    assert!(
        s.contains("clause 00000 of the shared licence text stands"),
        "{s}"
    );
    assert!(s.contains(&format!("lines 1–{rows} of 30,000")), "{s}");

    // In diff mode Home/End move both panes over the aligned rows.
    cmd(&mut app, Command::ToggleDiff);
    cmd(&mut app, Command::Bottom);
    let view = app.viewer().pair.as_ref().unwrap();
    let aligned = view
        .aligned
        .as_ref()
        .expect("diff mode lays the pair out")
        .len();
    assert_eq!(tops(&app), (aligned - rows, aligned - rows));
    cmd(&mut app, Command::Top);
    assert_eq!(tops(&app), (0, 0));
}
