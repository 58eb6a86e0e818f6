//! Moving through a long pair in the viewer: Home/End (g/G) reach either end of both texts,
//! `]` from the top skips a long common header to the first difference, and `/` finds words
//! in either pane. The pair is generated: 30,000 lines each, identical but for a
//! few lines near the end.

use crate::tui_support;

use lshscope::tui::app::{Action, App};
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
    if b && i >= FIRST_CHANGE && (i - FIRST_CHANGE).is_multiple_of(10) {
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
    viewer_on_pair(dir, corpus, SIZE)
}

/// The first line each pane shows.
fn tops(app: &App) -> (usize, usize) {
    let view = app.viewer().pair().expect("a pair is open");
    (view.scroll_a(), view.scroll_b())
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
    // The metrics say, uncut, that they saw only the start of these texts.
    assert!(
        s.contains("first 2,000 chars of 1,410,007 and 1,410,012 "),
        "{s}"
    );

    // In diff mode Home/End move both panes over the aligned rows.
    cmd(&mut app, Command::ToggleDiff);
    cmd(&mut app, Command::Bottom);
    let view = app.viewer().pair().unwrap();
    let aligned = view.aligned().expect("diff mode lays the pair out").len();
    assert_eq!(tops(&app), (aligned - rows, aligned - rows));
    cmd(&mut app, Command::Top);
    assert_eq!(tops(&app), (0, 0));
}

#[test]
fn bracket_from_the_top_lands_past_the_common_header() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = viewer_on_long_pair(dir.path());
    // From the shared-shingle view: diff mode, on the first difference, which the diff's
    // word cap (50,000 words, fewer than the header holds) no longer hides.
    cmd(&mut app, Command::NextDifference);
    assert!(app.viewer().diff_mode());
    let s = shown(&app);
    assert!(s.contains("difference 1 of 5"), "{s}");
    assert!(s.contains("struck out by the second party"), "{s}");
    let view = app.viewer().pair().unwrap();
    let row = view.aligned().unwrap().difference_rows[0];
    assert_eq!(tops(&app), (row - 1, row - 1));
    assert!(
        row >= FIRST_CHANGE,
        "the difference is past the header: row {row}"
    );

    // Home, then ] again: the first difference, not the one after the last visited.
    cmd(&mut app, Command::NextDifference);
    assert!(shown(&app).contains("difference 2 of 5"));
    cmd(&mut app, Command::Top);
    assert_eq!(tops(&app), (0, 0));
    cmd(&mut app, Command::NextDifference);
    assert!(shown(&app).contains("difference 1 of 5"));
    assert_eq!(tops(&app), (row - 1, row - 1));
    // End, then [: the last difference above the last page.
    cmd(&mut app, Command::Bottom);
    let top = tops(&app).0;
    let view = app.viewer().pair().unwrap();
    let rows = &view.aligned().unwrap().difference_rows;
    let above = rows
        .iter()
        .rposition(|&r| r < top)
        .expect("a difference above the last page");
    cmd(&mut app, Command::PrevDifference);
    let s = shown(&app);
    assert!(s.contains(&format!("difference {} of 5", above + 1)), "{s}");
    assert!(tops(&app).0 < top);
}

#[test]
fn slash_finds_words_in_both_texts_and_braces_step_through_them() {
    use lshscope::tui::app::PromptKey;
    let dir = tempfile::tempdir().unwrap();
    let mut app = viewer_on_long_pair(dir.path());
    // n labels the pair here: the search keeps its own keys.
    assert_eq!(
        lookup(&key('n'), Context::Viewer),
        Some(Command::LabelNotDuplicate)
    );
    assert_eq!(
        lookup(&key('/'), Context::Viewer),
        Some(Command::SearchPrompt)
    );
    assert_eq!(lookup(&key('}'), Context::Viewer), Some(Command::NextMatch));
    assert_eq!(lookup(&key('{'), Context::Viewer), Some(Command::PrevMatch));

    let search = |app: &mut App, words: &str| {
        cmd(app, Command::SearchPrompt);
        for c in words.chars() {
            app.update(Action::PromptInput(PromptKey::Char(c)));
        }
        app.update(Action::PromptInput(PromptKey::Submit));
    };
    // Lines 3,000, 10,000, 17,000 and 24,000 hold "Indemnity" in both texts.
    cmd(&mut app, Command::PageDown);
    search(&mut app, "INDEMNITY");
    assert_eq!(tops(&app), (2_999, 2_999));
    let s = shown(&app);
    assert!(
        s.contains("match 1 of 4 for “INDEMNITY” (4 in A, 4 in B)"),
        "{s}"
    );
    assert!(
        s.contains("clause 03000 the Indemnity of the licensee holds"),
        "{s}"
    );
    cmd(&mut app, Command::NextMatch);
    assert_eq!(tops(&app), (9_999, 9_999));
    cmd(&mut app, Command::NextMatch);
    cmd(&mut app, Command::NextMatch);
    assert_eq!(tops(&app), (23_999, 23_999));
    cmd(&mut app, Command::NextMatch);
    assert_eq!(tops(&app), (2_999, 2_999));
    assert!(
        shown(&app).contains("match 1 of 4 for “INDEMNITY” (4 in A, 4 in B) · from the top again")
    );
    cmd(&mut app, Command::PrevMatch);
    assert_eq!(tops(&app), (23_999, 23_999));
    assert!(shown(&app).contains("match 4 of 4"));
    // Scrolled away, the search goes on from the top line shown.
    cmd(&mut app, Command::Top);
    cmd(&mut app, Command::PageDown);
    cmd(&mut app, Command::NextMatch);
    assert_eq!(tops(&app), (2_999, 2_999));
    cmd(&mut app, Command::Bottom);
    cmd(&mut app, Command::PrevMatch);
    assert_eq!(tops(&app), (23_999, 23_999));

    // From further down, the first match at or after the top line; a word only B has.
    cmd(&mut app, Command::Bottom);
    search(&mut app, "struck out");
    let s = shown(&app);
    assert!(
        s.contains("match 5 of 5 for “struck out” (0 in A, 5 in B)"),
        "{s}"
    );
    // The match is highlighted where it is: in B's pane, on the last page.
    let (row, line) = s
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("struck out"))
        .expect("the match is on screen");
    let column = line[..line.find("struck out").unwrap()].chars().count() as u16;
    let cells = cell_styles(&app, SIZE.0, SIZE.1);
    let selected = app.theme().selected().bg;
    assert_eq!(cells[(column, row as u16)].bg, selected.unwrap());
    assert_ne!(cells[(column - 2, row as u16)].bg, selected.unwrap());
    cmd(&mut app, Command::NextMatch);
    assert!(
        shown(&app).contains("match 1 of 5 for “struck out” (0 in A, 5 in B) · from the top again")
    );
    assert_eq!(tops(&app), (FIRST_CHANGE - 1, FIRST_CHANGE - 1));

    search(&mut app, "no such words");
    assert!(shown(&app).contains("no match for “no such words” in either text"));
    // Esc cancels the prompt: nothing moves.
    let before = tops(&app);
    cmd(&mut app, Command::SearchPrompt);
    app.update(Action::PromptInput(PromptKey::Char('x')));
    app.update(Action::PromptInput(PromptKey::Cancel));
    assert_eq!(tops(&app), before);
    assert_eq!(app.overlay(), &lshscope::tui::app::Overlay::None);

    // Diff mode: the aligned rows.
    cmd(&mut app, Command::ToggleDiff);
    cmd(&mut app, Command::Top);
    search(&mut app, "indemnity");
    assert!(shown(&app).contains("match 1 of 4"));
    let top = tops(&app).0;
    assert!((2_990..3_010).contains(&top), "row {top}");
    cmd(&mut app, Command::NextMatch);
    assert!(shown(&app).contains("match 2 of 4"));
    assert!(tops(&app).0 > top + 6_000);

    // Back in the shared-shingle view the search goes on over wrapped lines, from the top
    // line shown.
    cmd(&mut app, Command::ToggleDiff);
    cmd(&mut app, Command::Top);
    cmd(&mut app, Command::NextMatch);
    assert_eq!(tops(&app), (2_999, 2_999));
    assert!(shown(&app).contains("match 1 of 4"));
}

/// The same pair through the real binary in a pseudo-terminal (tmux), from a JSON Lines file
/// of two 1.4 MB documents: End, Home, G, g, `]`, `/`, `}` and `{` as an auditor types them.
#[test]
fn a_long_pair_is_navigated_in_a_real_terminal() {
    use crate::tmux_support::{self, TmuxSession};
    if !tmux_support::available() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end viewer test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("long.jsonl");
    // The texts hold no quotes or backslashes: only their line breaks need escaping.
    let record = |id: &str, b: bool| {
        format!(
            "{{\"id\":\"{id}\",\"text\":\"{}\"}}\n",
            text(b).replace('\n', "\\n")
        )
    };
    let jsonl = record("long-a", false) + &record("long-b", true);
    assert!(jsonl.len() > 2_000_000, "over 1 MB of text each");
    std::fs::write(&corpus, jsonl).unwrap();
    let command = format!(
        "LSHSCOPE_CACHE_DIR={} {} explore {} -b 16 -r 4 --labels {}; echo \"lshscope exited $?\"; sleep 60",
        dir.path().join("cache").display(),
        env!("CARGO_BIN_EXE_lshscope"),
        corpus.display(),
        dir.path().join("labels.csv").display()
    );
    let session = TmuxSession::start("nav", 160, 45, &[("NO_COLOR", "")], None, &command);
    session.wait_for("Candidate pairs 1 of 1");
    session.send(&["Enter"]);
    let viewer = session.wait_for("lines 1–");
    assert!(viewer.contains("of 30,000"), "{viewer}");

    session.send(&["End"]);
    let end = session.wait_for("–30,000 of 30,000");
    assert!(
        end.contains("clause 29999 of the shared licence text stands"),
        "{end}"
    );
    session.send(&["Home"]);
    let top = session.wait_for("lines 1–");
    assert!(
        top.contains("clause 00000 of the shared licence text stands"),
        "{top}"
    );
    session.send(&["G"]);
    session.wait_for("–30,000 of 30,000");
    session.send(&["g"]);
    session.wait_for("lines 1–");

    session.send(&["/"]);
    session.send(&["indemnity", "Enter"]);
    let found = session.wait_for("match 1 of 4");
    assert!(found.contains("clause 03000 the Indemnity"), "{found}");
    session.send(&["}"]);
    let next = session.wait_for("match 2 of 4");
    assert!(next.contains("clause 10000 the Indemnity"), "{next}");
    // `{` as its byte: tmux reads a lone `{` argument as the start of a command block.
    session.send(&["-H", "7b"]);
    let back = session.wait_for("match 1 of 4");
    assert!(back.contains("clause 03000 the Indemnity"), "{back}");

    session.send(&["g"]);
    session.send(&["]"]);
    let first = session.wait_for("difference 1 of 5");
    assert!(first.contains("struck out by the second party"), "{first}");

    session.send(&["q"]);
    session.wait_for("lshscope exited 0");
}
