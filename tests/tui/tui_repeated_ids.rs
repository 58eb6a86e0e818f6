//! A corpus whose ids repeat: the explorer warns at load (naming `--row-ids`), refuses to
//! label a pair with a repeated id (labels are saved by id), and keeps every message readable
//! in full at 80 columns through the messages overlay.

use crate::tui_support;

use lshscope::tui::app::{Action, App, Effect, Overlay};
use lshscope::tui::keys::Command;
use lshscope::tui::layout::{centered, main_layout};
use lshscope_core::analysis::labels::Label;
use lshscope_core::corpus::Corpus;
use tui_support::*;

const NARROW: (u16, u16) = (80, 24);

/// The fixture with `lake-2` renamed `lake-1` (a pair of two documents with one id) and
/// `bread-2` renamed `train-3` (an id shared across two families).
fn app_with_repeated_ids(dir: &std::path::Path) -> App {
    let docs = DOCS.iter().map(|&(id, text)| {
        let id = match id {
            "lake-2" => "lake-1",
            "bread-2" => "train-3",
            other => other,
        };
        (id, text)
    });
    let mut app = new_app(dir, NARROW);
    app.update(Action::Loaded(Box::new(Ok(loaded(Corpus::from_pairs(
        docs,
    ))))));
    run_effects(&mut app);
    app
}

/// Selects the candidate pair of input positions `a` and `b`.
fn select(app: &mut App, a: u32, b: u32) {
    cmd(app, Command::FocusPrev);
    cmd(app, Command::Top);
    for _ in 0..app.candidates().list().len() {
        let p = app.selected_pair().unwrap();
        if (p.a.min(p.b), p.a.max(p.b)) == (a, b) {
            return;
        }
        cmd(app, Command::Down);
    }
    panic!("no candidate pair ({a}, {b})");
}

fn saves(app: &mut App) -> usize {
    (app.take_effects().iter())
        .filter(|e| matches!(e, Effect::SaveLabels(_)))
        .count()
}

#[test]
fn repeated_ids_are_announced_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_repeated_ids(dir.path());
    let message = app.message().clone().unwrap();
    assert!(message.error, "{message:?}");
    assert!(
        message
            .text
            .starts_with("2 documents repeat an earlier id (first: lake-1, train-3)"),
        "{message:?}"
    );
    assert!(message.text.contains("--row-ids"), "{message:?}");
}

#[test]
fn a_pair_with_a_repeated_id_is_not_labelled() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_repeated_ids(dir.path());
    app.take_effects();
    // Two documents with one id.
    select(&mut app, 0, 1);
    cmd(&mut app, Command::LabelDuplicate);
    let message = app.message().clone().unwrap();
    assert!(message.error, "{message:?}");
    assert!(
        message
            .text
            .starts_with("cannot label lake-1 ⟷ lake-1: both have the id lake-1"),
        "{message:?}"
    );
    assert_eq!(saves(&mut app), 0);
    assert_eq!(app.label_of(0, 1), None);
    // An id another document also has (bread-2 is named train-3, as train-3 is).
    select(&mut app, 3, 4);
    cmd(&mut app, Command::LabelNotDuplicate);
    let message = app.message().clone().unwrap();
    assert!(
        message.text.starts_with(
            "cannot label bread-1 ⟷ train-3: another document also has the id train-3"
        ),
        "{message:?}"
    );
    assert_eq!(saves(&mut app), 0);
    assert_eq!(app.label_of(3, 4), None);
    // Ids of their own: labelled as usual.
    select(&mut app, 6, 7);
    cmd(&mut app, Command::LabelDuplicate);
    assert_eq!(saves(&mut app), 1);
    assert_eq!(app.label_of(6, 7), Some(Label::Duplicate));
}

/// The text of the messages overlay at `size`, its wrapped lines joined by spaces.
fn overlay_text(app: &App, size: (u16, u16)) -> String {
    let screen = screen(app, size.0, size.1);
    let rows: Vec<&str> = screen.lines().collect();
    let area = ratatui::layout::Rect::new(0, 0, size.0, size.1);
    let rect = centered(area, size.0 - 4, size.1 - 4);
    let mut words = Vec::new();
    for y in rect.y + 1..rect.bottom() - 1 {
        let row: String = rows[y as usize]
            .chars()
            .skip(usize::from(rect.x) + 1)
            .take(usize::from(rect.width) - 2)
            .collect();
        words.extend(row.split_whitespace().map(str::to_string));
    }
    words.join(" ")
}

#[test]
fn a_message_too_long_for_the_line_is_shown_whole_by_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_repeated_ids(dir.path());
    let warning = app.message().clone().unwrap().text;
    let (w, h) = NARROW;
    let shown = screen(&app, w, h);
    let line = shown
        .lines()
        .nth(main_layout(NARROW).message.y as usize)
        .unwrap();
    assert!(!line.contains("--row-ids"), "{line:?}");
    assert!(line.trim_end().ends_with("M full text"), "{line:?}");
    // A note from the background (the cache written) does not hide the warning.
    app.update(Action::CacheWritten(
        "index cached in /tmp/cache".to_string(),
    ));
    assert_eq!(app.message().as_ref().unwrap().text, warning);
    assert_eq!(
        app.messages().back().unwrap().text,
        "index cached in /tmp/cache"
    );

    cmd(&mut app, Command::ShowMessages);
    assert_eq!(*app.overlay(), Overlay::Messages);
    let text = overlay_text(&app, NARROW);
    assert!(
        text.starts_with(&format!("index cached in /tmp/cache {warning}")),
        "{text:?}"
    );
    // Any key closes it, without doing what it does elsewhere.
    let banding = app.curve().banding;
    cmd(&mut app, Command::BandsUp);
    assert_eq!(*app.overlay(), Overlay::None);
    assert_eq!(app.curve().banding, banding);
}

/// At 80 columns the bins do not divide the histogram's width: the precision strip (a cell
/// per column of each bin) still runs to the column before the panel's right border.
#[test]
fn the_histogram_uses_its_panel_width_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let app = ready_app(dir.path(), NARROW);
    let (w, h) = NARROW;
    let shown = screen(&app, w, h);
    let panel = main_layout(NARROW).histogram;
    let g = lshscope::tui::layout::histogram_geometry(panel, app.hist().bins());
    let strip: Vec<char> = shown
        .lines()
        .nth(g.precision.y as usize)
        .unwrap()
        .chars()
        .collect();
    let cells: String = strip[usize::from(g.plot.x)..usize::from(panel.right() - 2)]
        .iter()
        .collect();
    assert_eq!(cells, "·".repeat(cells.chars().count()), "{shown}");
    assert_eq!(strip[usize::from(panel.right() - 2)], ' ', "{shown}");
}
