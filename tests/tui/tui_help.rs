//! The `?` help overlay: it fits narrow terminals without cutting a phrase, scrolls when it
//! is taller than the screen, and closes as its footer says. Keys go through
//! [`lshscope::tui::key_action`], as the event loop sends them.

use crate::tui_support;

use lshscope::tui::app::{App, Overlay};
use lshscope::tui::keys::{BINDINGS, Context};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui_support::*;

fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    if let Some(action) = lshscope::tui::key_action(app, &KeyEvent::new(code, modifiers)) {
        app.update(action);
    }
}

fn key(app: &mut App, code: KeyCode) {
    press(app, code, KeyModifiers::NONE);
}

/// The rows of the help overlay on `screen` (between its top and bottom borders), without
/// the border columns.
fn overlay_rows(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains("lshscope explore · help"))
        .expect("the help is open");
    let start = lines[top].chars().position(|c| c == '┌').unwrap();
    let end = lines[top].chars().position(|c| c == '┐').unwrap();
    lines[top..]
        .iter()
        .map(|l| {
            l.chars()
                .skip(start)
                .take(end + 1 - start)
                .collect::<String>()
        })
        .take_while(|l| !l.starts_with('└'))
        .skip(1)
        .map(|l| {
            let inner: String = l.chars().skip(1).collect();
            inner.trim_end_matches('│').to_string()
        })
        .collect()
}

/// Every row the help shows from top to bottom at `size`, paging with PgDn.
fn all_help_rows(app: &mut App, (w, h): (u16, u16)) -> (Vec<String>, String) {
    let mut rows: Vec<String> = Vec::new();
    let mut last = String::new();
    for _ in 0..50 {
        let s = screen(app, w, h);
        rows.extend(overlay_rows(&s));
        if !s.contains("↓ more") {
            return (rows, s);
        }
        last = s;
        key(app, KeyCode::PageDown);
    }
    panic!("the help never reached its end:\n{last}");
}

#[test]
fn at_80x24_the_help_shows_every_phrase_whole_and_scrolls_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let size = (80, 24);
    let mut app = ready_app(dir.path(), size);
    key(&mut app, KeyCode::Char('?'));
    assert_eq!(*app.overlay(), Overlay::Help);
    let first = screen(&app, size.0, size.1);
    assert!(first.contains("↓ more"), "{first}");
    let (rows, end) = all_help_rows(&mut app, size);
    let text = rows.join("\n");
    assert!(!text.contains('…'), "a phrase is cut:\n{text}");
    // Every key of the current view with its whole description on one row.
    for b in BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&Context::Curve))
    {
        assert!(
            rows.iter().any(|r| r.contains(b.help)),
            "{:?} is not whole in:\n{text}",
            b.help
        );
    }
    for section in [
        "In the pair viewer:",
        "In the cluster list:",
        "In the open cluster:",
        "In the cost view:",
        "Mouse: click",
    ] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
    // The footer says how to scroll and close, on every page.
    assert!(first.contains("any other key closes"), "{first}");
    assert!(end.contains("any other key closes"), "{end}");
    assert!(end.contains("↑ more"), "{end}");
    // Home goes back to the top; End to the same end PgDn reached.
    key(&mut app, KeyCode::Home);
    assert_eq!(screen(&app, size.0, size.1), first);
    key(&mut app, KeyCode::End);
    assert_eq!(screen(&app, size.0, size.1), end);
    // Down at the end stays at the end; Up goes back one row.
    key(&mut app, KeyCode::Down);
    assert_eq!(screen(&app, size.0, size.1), end);
    key(&mut app, KeyCode::Up);
    assert!(screen(&app, size.0, size.1).contains("↓ more"));
}

#[test]
fn help_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (80, 24));
    key(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!("help_80x24_top", screen(&app, 80, 24));
    key(&mut app, KeyCode::End);
    insta::assert_snapshot!("help_80x24_end", screen(&app, 80, 24));
    let mut app = ready_app(dir.path(), (160, 45));
    key(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!("help_160x45", screen(&app, 160, 45));
}

#[test]
fn esc_q_and_question_mark_close_the_help_any_other_key_too_and_ctrl_c_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (80, 24));
    for close in [KeyCode::Esc, KeyCode::Char('q'), KeyCode::Char('?')] {
        key(&mut app, KeyCode::Char('?'));
        key(&mut app, KeyCode::PageDown);
        assert!(app.help_scroll() > 0);
        key(&mut app, close);
        assert_eq!(*app.overlay(), Overlay::None, "{close:?}");
        assert!(
            !app.should_quit(),
            "{close:?} closes the help, it does not quit"
        );
    }
    // Another key only closes the help: `y` labels nothing, `L` keeps the scale.
    let log_scale = app.log_scale();
    for other in [KeyCode::Char('y'), KeyCode::Char('L'), KeyCode::Enter] {
        key(&mut app, KeyCode::Char('?'));
        key(&mut app, other);
        assert_eq!(*app.overlay(), Overlay::None, "{other:?}");
    }
    assert_eq!(app.log_scale(), log_scale);
    assert!(app.take_effects().is_empty(), "no label was saved");
    // The help opens at its top again.
    key(&mut app, KeyCode::Char('?'));
    assert_eq!(app.help_scroll(), 0);
    press(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(app.should_quit());
}

#[test]
fn the_wheel_scrolls_the_help_and_a_resize_keeps_it_in_range() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (80, 24));
    key(&mut app, KeyCode::Char('?'));
    app.update(lshscope::tui::app::Action::Wheel(10, 10, true));
    assert_eq!(app.help_scroll(), 3);
    app.update(lshscope::tui::app::Action::Wheel(10, 10, false));
    assert_eq!(app.help_scroll(), 0);
    key(&mut app, KeyCode::End);
    assert!(app.help_scroll() > 0);
    // At 160×45 the whole page fits: nothing to scroll.
    app.update(lshscope::tui::app::Action::Resize(160, 45));
    assert_eq!(app.help_scroll(), 0);
    assert!(!screen(&app, 160, 45).contains("↓ more"));
}

/// While the terminal is too small for the explorer, the screen says to enlarge it or quit,
/// and only quitting works: `C` does not open the clusters out of sight, `?` no help; after
/// the terminal grows back the view is the one it was, and `q` quits even while small.
#[test]
fn a_terminal_too_small_takes_only_quit() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (80, 24));
    let view = app.view();
    app.update(lshscope::tui::app::Action::Resize(30, 8));
    assert!(screen(&app, 30, 8).contains("larger terminal"));
    for other in [
        KeyCode::Char('C'),
        KeyCode::Char('?'),
        KeyCode::Enter,
        KeyCode::Char('y'),
    ] {
        key(&mut app, other);
    }
    app.update(lshscope::tui::app::Action::Resize(80, 24));
    assert_eq!(
        app.view(),
        view,
        "no key acted while the terminal was too small"
    );
    assert_eq!(*app.overlay(), Overlay::None);
    assert!(app.take_effects().is_empty(), "no label was saved");
    app.update(lshscope::tui::app::Action::Resize(30, 8));
    key(&mut app, KeyCode::Char('q'));
    assert!(app.should_quit());
}
