//! Editing in the text prompts (threshold, filter, jump): keys go through
//! [`lshscope::tui::key_action`], as the event loop sends them.

use crate::tui_support;

use lshscope::tui::app::{App, Overlay};
use lshscope::tui::keys::Command;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui_support::*;

fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    if let Some(action) = lshscope::tui::key_action(app, &KeyEvent::new(code, modifiers)) {
        app.update(action);
    }
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

fn ctrl(app: &mut App, c: char) {
    press(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

/// What the open prompt holds.
fn input(app: &App) -> &str {
    match &app.overlay() {
        Overlay::Prompt(p) => &p.input,
        other => panic!("no prompt open: {other:?}"),
    }
}

fn app_with_prompt(dir: &std::path::Path, prompt: Command) -> App {
    let mut app = ready_app(dir, (80, 24));
    cmd(&mut app, prompt);
    app
}

#[test]
fn ctrl_u_clears_the_prompt_to_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_prompt(dir.path(), Command::ThresholdPrompt);
    type_text(&mut app, "0.35");
    ctrl(&mut app, 'u');
    assert_eq!(input(&app), "");
    // The user's report: t, Ctrl-U, 0.9, Enter sets t = 0.9 (it said got "u0.9").
    type_text(&mut app, "0.9");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(*app.overlay(), Overlay::None);
    assert_eq!(app.curve().threshold, 0.9);
    let message = app.message().as_ref().expect("a message");
    assert!(!message.error, "{}", message.text);
}

#[test]
fn ctrl_w_deletes_the_word_before_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_prompt(dir.path(), Command::FilterPrompt);
    type_text(&mut app, "0.5 0.8");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "0.5 ");
    // Spaces before the cursor go with the word before them.
    type_text(&mut app, "0.9  ");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "0.5 ");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "");
    // Ctrl-Backspace does the same, as in most line editors; Ctrl-H is a Backspace.
    type_text(&mut app, "0.2 0.4");
    press(&mut app, KeyCode::Backspace, KeyModifiers::CONTROL);
    assert_eq!(input(&app), "0.2 ");
    ctrl(&mut app, 'h');
    assert_eq!(input(&app), "0.2");
}

#[test]
fn other_control_and_alt_chords_are_ignored_not_typed() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_prompt(dir.path(), Command::JumpPrompt);
    type_text(&mut app, "lake");
    for c in ['a', 'e', 'k', 'b', 'x', 'v'] {
        ctrl(&mut app, c);
    }
    for c in ['b', 'f', 'd', 'u', 'w'] {
        press(&mut app, KeyCode::Char(c), KeyModifiers::ALT);
    }
    press(
        &mut app,
        KeyCode::Char('u'),
        KeyModifiers::CONTROL | KeyModifiers::ALT,
    );
    assert_eq!(input(&app), "lake");
    // Shift is part of the character, not a chord.
    press(&mut app, KeyCode::Char('-'), KeyModifiers::NONE);
    press(&mut app, KeyCode::Char('X'), KeyModifiers::SHIFT);
    assert_eq!(input(&app), "lake-X");
    // Ctrl-C still quits from a prompt.
    ctrl(&mut app, 'c');
    assert!(app.should_quit());
}
