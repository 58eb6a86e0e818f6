//! What the message line says after an export at 80 columns: the folder shortens first and
//! the file names stay whole; when even that does not fit, the line counts the files and
//! names the key of the messages view, which lists them in full. A name cut in the middle
//! (`weirdid.…vg,png}` twice) tells the files apart no more.

use std::path::{Path, PathBuf};

use crate::tui_support;

use lshscope::tui::app::{Action, App, View};
use lshscope::tui::keys::{Command, Context, lookup};
use lshscope::tui::layout::{main_layout, viewer_layout};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui_support::*;

const NARROW: (u16, u16) = (80, 24);
const WIDE: (u16, u16) = (160, 45);

/// A loaded app at `size` whose exports are named after `stem` and go to a folder a few
/// levels deep, as a user's would.
fn exporting_app(dir: &Path, size: (u16, u16), stem: &str) -> (App, PathBuf) {
    let folder = dir.join("audits").join("2026").join("trial");
    std::fs::create_dir_all(&folder).unwrap();
    let mut config = config(dir);
    config.export_dir = folder.clone();
    config.export_stem = stem.to_string();
    let mut app = new_app_with(config, dir, size);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    (app, folder)
}

/// The message line of the screen at `size` (the main view's, or the viewer's).
fn message_line(app: &App, size: (u16, u16)) -> String {
    let row = match app.view() {
        View::Viewer { .. } => viewer_layout(size, false, BANDING.bands).message.y,
        _ => main_layout(size).message.y,
    };
    screen(app, size.0, size.1)
        .lines()
        .nth(usize::from(row))
        .unwrap()
        .trim_end()
        .to_string()
}

/// Every `…` on `line` stands for folders (`…/`): no name lost its middle.
fn assert_names_whole(line: &str) {
    for (at, _) in line.match_indices('…') {
        assert!(
            line[at + '…'.len_utf8()..].starts_with('/'),
            "a name is cut in the middle: {line:?}"
        );
    }
}

#[test]
fn m_shows_the_messages() {
    let m = KeyEvent::new(KeyCode::Char('M'), KeyModifiers::NONE);
    assert_eq!(lookup(&m, Context::Pairs), Some(Command::ShowMessages));
    assert_eq!(lookup(&m, Context::Viewer), Some(Command::ShowMessages));
}

#[test]
fn a_pair_export_at_80_columns_keeps_the_csv_name_whole_and_counts_the_plots() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, folder) = exporting_app(dir.path(), NARROW, "fixture");
    let pairs = app.candidates().list().len();
    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let line = message_line(&app, NARROW);
    assert!(
        line.starts_with(&format!("wrote {pairs} pairs to …/"))
            && line.ends_with("/fixture.pairs.16x4.csv and 4 plot files (M lists them)"),
        "{line:?}"
    );
    assert!(line.chars().count() <= 80);
    assert_names_whole(&line);

    // The messages view lists every file whole.
    let full = &app.messages().back().unwrap().text;
    assert!(
        full.contains(&folder.join("fixture.pairs.16x4.csv").display().to_string())
            && full.contains("fixture.scurve.16x4.{svg,png}")
            && full.contains("fixture.histogram.16x4.{svg,png}"),
        "{full}"
    );
    cmd(&mut app, Command::ShowMessages);
    let shown = screen(&app, NARROW.0, NARROW.1);
    assert!(
        shown.contains("fixture.scurve.16x4.{svg,png},")
            && shown.contains("fixture.histogram.16x4.{svg,png}"),
        "{shown}"
    );

    // Wide enough, the line is the message itself.
    let (mut app, _) = exporting_app(dir.path(), WIDE, "fixture");
    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let line = message_line(&app, WIDE);
    assert!(
        line.ends_with("; plots: fixture.scurve.16x4.{svg,png}, fixture.histogram.16x4.{svg,png}"),
        "{line:?}"
    );
    assert_names_whole(&line);
}

#[test]
fn an_export_whose_names_do_not_fit_80_columns_counts_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let stem = "weirdid-with-a-long-export-name";
    let (mut app, _) = exporting_app(dir.path(), NARROW, stem);
    let pairs = app.candidates().list().len();
    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let line = message_line(&app, NARROW);
    assert!(
        line.starts_with(&format!("wrote {pairs} pairs: 5 files in "))
            && line.ends_with("/trial (M lists them)"),
        "{line:?}"
    );
    assert_names_whole(&line);
    let full = &app.messages().back().unwrap().text;
    for name in [
        format!("{stem}.pairs.16x4.csv"),
        format!("{stem}.scurve.16x4.{{svg,png}}"),
        format!("{stem}.histogram.16x4.{{svg,png}}"),
    ] {
        assert!(full.contains(&name), "{full}");
    }
}

#[test]
fn a_diff_export_at_80_columns_names_its_two_files_whole() {
    let dir = tempfile::tempdir().unwrap();
    for (stem, counted) in [
        ("fixture", false),
        ("weirdid-with-a-much-longer-export-name", true),
    ] {
        let (mut app, folder) = exporting_app(dir.path(), NARROW, stem);
        cmd(&mut app, Command::Open);
        cmd(&mut app, Command::Export);
        let view = app.viewer().pair().unwrap();
        let data = app.data().as_ref().unwrap();
        let name = format!(
            "{stem}.diff.{}.{}",
            data.corpus.id(view.a() as usize),
            data.corpus.id(view.b() as usize)
        );
        let full = &app.messages().back().unwrap().text;
        for ext in ["txt", "html"] {
            let path = folder.join(format!("{name}.{ext}"));
            assert!(path.exists(), "{}", path.display());
            assert!(full.contains(&path.display().to_string()), "{full}");
        }
        let line = message_line(&app, NARROW);
        if counted {
            assert!(
                line.starts_with("diff written: 2 files in ")
                    && line.ends_with("/trial (M lists them)"),
                "{line:?}"
            );
        } else {
            let both = |a: &str, b: &str| line.contains(a) && line.contains(b);
            assert!(
                line.starts_with("diff written to ")
                    && (line.ends_with(&format!("/{name}.{{txt,html}}"))
                        || both(&format!("/{name}.txt and "), &format!("/{name}.html"))),
                "{line:?}"
            );
        }
        assert_names_whole(&line);
    }
}
