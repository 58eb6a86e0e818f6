//! Screens of every view on the fixed fixture corpus, through ratatui's TestBackend, driven by
//! actions exactly as the event loop drives them. Review changes with `cargo insta review`.

mod tui_support;

use lshscope::jobs::Phase;
use lshscope::tui::app::{Action, PhaseTiming};
use lshscope::tui::keys::Command;
use ratatui::style::{Color, Modifier};
use tui_support::*;

const W: u16 = 140;
const H: u16 = 44;

/// The progress line shows a measured rate and time; keep the counts, drop the clock.
fn redact_clock(screen: &str) -> String {
    screen
        .lines()
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let Some(start) = l.find('▸').and_then(|_| l.find(" · ")) else {
                return l.to_string();
            };
            let start = l[..start].chars().count();
            let border = chars.iter().rposition(|&c| c == '│').unwrap_or(chars.len());
            chars
                .iter()
                .enumerate()
                .map(|(i, &c)| if i >= start && i < border { ' ' } else { c })
                .collect()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn loading_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), (W, H));
    app.update(Action::LoadStepDone(PhaseTiming {
        phase: Phase::Reading,
        items: 1_048_576,
        unit: "bytes",
        seconds: 0.5,
    }));
    app.load.progress.begin(Phase::Signatures, 12);
    app.load.progress.advance(5);
    insta::assert_snapshot!("loading", redact_clock(&screen(&app, W, H)));
}

#[test]
fn main_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::Pin);
    cmd(&mut app, Command::BandsDown);
    cmd(&mut app, Command::RowsDown);
    run_effects(&mut app);
    insta::assert_snapshot!("main", screen(&app, W, H));
}

#[test]
fn main_screen_while_rebanding_marks_the_old_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::BandsUp);
    // The job is queued but has not answered: the histogram says what it shows.
    let s = screen(&app, W, H);
    assert!(s.contains("showing 16×4 · computing 17×4…"), "{s}");
    assert!(s.contains("re-banding 17×4"), "{s}");
    assert!(
        s.contains("(of 16×4)"),
        "the status line says whose counts it shows: {s}"
    );
}

#[test]
fn histogram_bin_filter_log_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::LabelDuplicate);
    cmd(&mut app, Command::ToggleLog);
    cmd(&mut app, Command::FocusNext);
    for _ in 0..1 {
        cmd(&mut app, Command::BinLeft);
    }
    cmd(&mut app, Command::FilterToBin);
    insta::assert_snapshot!("histogram_filtered_log", screen(&app, W, H));
}

#[test]
fn pair_viewer_with_highlights() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::Open);
    let text = screen(&app, W, H);
    insta::assert_snapshot!("viewer", text);
    // Shared shingles are highlighted (yellow background) and the rest is not.
    let buf = cell_styles(&app, W, H);
    let l = lshscope::tui::layout::viewer_layout((W, H), false, 16);
    let columns = l.left.x + 1..l.left.x + l.left.width - 1;
    let rows = l.left.y + 1..l.left.y + l.left.height - 1;
    let lit = |x: u16, y: u16| buf[(x, y)].bg == Color::Yellow;
    assert!(
        lit(l.left.x + 1, l.left.y + 1),
        "the shared start is highlighted"
    );
    // "dawn" vs "dusk": the last word of lake-1 differs from lake-2's, so it is not lit.
    let (row, line) = rows
        .map(|y| {
            let line: String = columns
                .clone()
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            (y, line)
        })
        .find(|(_, line)| line.contains("dawn"))
        .expect("lake-1 ends with dawn");
    let col = line.find("dawn").unwrap() as u16 + l.left.x + 1;
    assert!(
        !lit(col + 3, row),
        "the differing last word is not highlighted: {line}"
    );
}

#[test]
fn band_strip_with_values() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::ToggleBandValues);
    insta::assert_snapshot!("band_strip_values", screen(&app, W, H));
}

#[test]
fn help_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::Help);
    insta::assert_snapshot!("help", screen(&app, W, H));
}

#[test]
fn prompt_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::FilterPrompt);
    for c in "0.5-0.9".chars() {
        app.update(Action::PromptInput(lshscope::tui::app::PromptKey::Char(c)));
    }
    let s = screen(&app, W, H);
    assert!(s.contains("Jaccard range"), "{s}");
    assert!(s.contains("0.5-0.9▏"), "{s}");
}

#[test]
fn too_small_terminal_asks_for_more_room() {
    let dir = tempfile::tempdir().unwrap();
    let app = ready_app(dir.path(), (60, 20));
    insta::assert_snapshot!("too_small", screen(&app, 60, 20));
}

#[test]
fn monochrome_theme_uses_no_colour_but_keeps_highlights() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.monochrome = true;
    let mut app = new_app_with(config, dir.path(), (W, H));
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    cmd(&mut app, Command::Pin);
    let main = cell_styles(&app, W, H);
    cmd(&mut app, Command::Open);
    let viewer = cell_styles(&app, W, H);
    for buf in [&main, &viewer] {
        for cell in buf.content() {
            assert!(
                matches!(cell.fg, Color::Reset) && matches!(cell.bg, Color::Reset),
                "colour {:?}/{:?} on {:?} in monochrome",
                cell.fg,
                cell.bg,
                cell.symbol()
            );
        }
    }
    // Selected row and shared shingles stay visible through reverse video.
    assert!(
        main.content()
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED))
    );
    assert!(
        viewer
            .content()
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED))
    );
}

#[test]
fn every_view_draws_at_the_minimum_and_at_odd_sizes() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(80, 24), (81, 25), (97, 31), (200, 60), (79, 24), (80, 23)] {
        let mut app = ready_app(dir.path(), (w, h));
        app.update(Action::Resize(w, h));
        let main = screen(&app, w, h);
        if (w, h) >= (80, 24) && h >= 24 {
            assert!(main.contains("Candidate pairs"), "{w}×{h}:\n{main}");
            assert!(main.contains("S-curve"), "{w}×{h}:\n{main}");
        } else {
            assert!(main.contains("larger terminal"), "{w}×{h}:\n{main}");
        }
        cmd(&mut app, Command::FocusNext);
        let _ = screen(&app, w, h);
        cmd(&mut app, Command::Open);
        cmd(&mut app, Command::ToggleBandValues);
        for _ in 0..5 {
            cmd(&mut app, Command::PageDown);
        }
        let _ = screen(&app, w, h);
        cmd(&mut app, Command::Help);
        let _ = screen(&app, w, h);
    }
}
