//! Screens of every view on the fixed fixture corpus, through ratatui's TestBackend, driven by
//! actions exactly as the event loop drives them. Review changes with `cargo insta review`.

use crate::tui_support;

use lshscope::tui::app::Action;
use lshscope::tui::keys::Command;
use ratatui::style::{Color, Modifier};
use tui_support::*;

const W: u16 = 140;
const H: u16 = 44;

#[test]
fn loading_screen() {
    let dir = tempfile::tempdir().unwrap();
    let app = loading_app(dir.path(), (W, H));
    insta::assert_snapshot!("loading", screen(&app, W, H));
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

/// The viewer's two text panes as a map of what each cell's style says in diff mode: `-`
/// deleted, `+` inserted, `~` changed, `>` moved (their colours, or in monochrome reverse
/// video, reverse + underline and underline), `.` dimmed (unchanged), ` ` plain.
fn diff_style_map(app: &lshscope::tui::app::App, w: u16, h: u16) -> String {
    let buf = cell_styles(app, w, h);
    let l = lshscope::tui::layout::viewer_layout((w, h), app.viewer().show_values(), 16);
    let mut out = String::new();
    for y in l.left.y + 1..l.left.y + l.left.height - 1 {
        for rect in [l.left, l.right] {
            for x in rect.x + 1..rect.x + rect.width - 1 {
                let cell = &buf[(x, y)];
                let (rev, under) = (
                    cell.modifier.contains(Modifier::REVERSED),
                    cell.modifier.contains(Modifier::UNDERLINED),
                );
                out.push(match (cell.bg, cell.fg, rev, under) {
                    (Color::LightRed, ..) => '-',
                    (Color::LightGreen, ..) => '+',
                    (Color::Yellow, ..) | (_, _, true, true) => '~',
                    (Color::LightBlue, ..) | (_, _, false, true) => '>',
                    (_, _, true, false) => '±',
                    (_, Color::DarkGray, ..) => '.',
                    _ => ' ',
                });
            }
            out.push('|');
        }
        out.push('\n');
    }
    out
}

/// Two notices, the second with a word changed and three sentences inserted in the middle.
fn harbour_pair() -> Vec<(&'static str, String)> {
    let before = "The harbour office opens at eight on weekdays. Boats must be registered before \
                  the first of April, and the fee is paid at the counter.";
    let after = "Moorings are assigned in order of registration. Visitors may stay three \
                 nights without a permit, longer with one from the office.";
    let inserted = "Owners of boats longer than twelve metres also need a survey certificate. \
                    The certificate is renewed every five years. The office checks it when the \
                    boat is registered.";
    let a = format!("{before}\n\n{after}");
    let b = format!(
        "{}\n\n{inserted}\n\n{after}",
        before.replace("at eight", "at nine")
    );
    vec![("harbour-2025", a), ("harbour-2026", b)]
}

/// The viewer in diff mode on two notices, one with three sentences inserted: the screen,
/// and the styles of both panes, at the minimum size and a large one, in colour and
/// monochrome, jumped (`]` twice) to the insertion. The text after it is level in both panes.
#[test]
fn pair_viewer_in_diff_mode() {
    for (w, h) in [(80u16, 24u16), (160, 45)] {
        for mono in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let mut config = config(dir.path());
            config.monochrome = mono;
            let mut app = new_app_with(config, dir.path(), (w, h));
            let corpus = lshscope_core::corpus::Corpus::from_pairs(harbour_pair());
            app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
            run_effects(&mut app);
            cmd(&mut app, Command::Open);
            cmd(&mut app, Command::ToggleDiff);
            cmd(&mut app, Command::NextDifference);
            cmd(&mut app, Command::NextDifference);
            let name = format!(
                "viewer_diff_{w}x{h}_{}",
                if mono { "mono" } else { "colour" }
            );
            let text = screen(&app, w, h);
            assert!(text.contains("diff"), "{text}");
            // "Moorings", the first word after the insertion, starts the same row in both.
            let level = text
                .lines()
                .any(|line| line.matches("│Moorings are assigned").count() == 2);
            assert!(level, "the text after the insertion is level:\n{text}");
            let styles = diff_style_map(&app, w, h);
            insta::assert_snapshot!(name, format!("{text}\n{styles}"));
            if mono {
                let buf = cell_styles(&app, w, h);
                assert!(
                    buf.content()
                        .iter()
                        .all(|c| matches!(c.fg, Color::Reset) && matches!(c.bg, Color::Reset)),
                    "no colour in monochrome"
                );
                assert!(styles.contains('±'), "the insertion is marked:\n{styles}");
            } else {
                assert!(styles.contains('+') && styles.contains('.'), "{styles}");
            }
        }
    }
}

/// In diff mode the panes scroll as one (Tab says so rather than pick a side), and a resize
/// lays the pair out again for the new pane width.
#[test]
fn diff_mode_scrolls_both_panes_and_follows_a_resize() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), (80, 24));
    let corpus = lshscope_core::corpus::Corpus::from_pairs(long_pair());
    app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
    run_effects(&mut app);
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::ToggleDiff);
    cmd(&mut app, Command::ScrollSide);
    let said = &app.message().as_ref().unwrap().text;
    assert!(said.contains("scroll together"), "{said}");
    for _ in 0..3 {
        cmd(&mut app, Command::Down);
    }
    let view = app.viewer().pair().unwrap();
    assert_eq!(
        (view.scroll_a(), view.scroll_b()),
        (3, 3),
        "both panes moved"
    );
    let narrow = view.aligned().unwrap().len();
    assert_eq!(
        view.aligned().unwrap().width,
        lshscope::tui::layout::viewer_text_width((80, 24))
    );
    app.update(Action::Resize(160, 45));
    let view = app.viewer().pair().unwrap();
    let layout = view.aligned().unwrap();
    assert_eq!(
        layout.width,
        lshscope::tui::layout::viewer_text_width((160, 45))
    );
    assert!(layout.len() < narrow, "wider panes take fewer rows");
    let s = screen(&app, 160, 45);
    assert!(s.contains(&format!("of {} ", layout.len())), "{s}");
}

#[test]
fn diff_mode_stays_on_across_pairs_and_off_shows_shared_shingles() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::Open);
    assert!(app.viewer().pair().unwrap().diff().is_none());
    cmd(&mut app, Command::ToggleDiff);
    let first = app.viewer().pair().unwrap();
    let first_pair = (first.a(), first.b());
    assert!(first.diff().is_some());
    cmd(&mut app, Command::NextPair);
    let next = app.viewer().pair().unwrap();
    assert_ne!((next.a(), next.b()), first_pair, "→ opened the next pair");
    assert!(
        app.viewer().diff_mode() && next.diff().is_some(),
        "diff mode stayed on"
    );
    assert!(screen(&app, W, H).contains("unchanged"));
    cmd(&mut app, Command::ToggleDiff);
    let s = screen(&app, W, H);
    assert!(s.contains("highlighted: characters inside"), "{s}");
    // Back to the shared-shingle highlight: yellow, not the diff's dimmed text.
    let buf = cell_styles(&app, W, H);
    assert!(buf.content().iter().any(|c| c.bg == Color::Yellow));
}

/// Two long texts that differ in one word near the end and one near the start.
fn long_pair() -> Vec<(String, String)> {
    let sentence = |i: usize| {
        format!("Sentence {i} of the manual says the valve opens when the pressure rises. ")
    };
    let base: String = (0..80).map(sentence).collect();
    let edited = base
        .replace("Sentence 3 of", "Sentence three of")
        .replace("Sentence 70 of", "Sentence seventy of");
    vec![
        ("manual-a".to_string(), base),
        ("manual-b".to_string(), edited),
    ]
}

#[test]
fn next_and_previous_difference_scroll_both_texts_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (80, 24);
    let mut app = new_app(dir.path(), (w, h));
    let corpus = lshscope_core::corpus::Corpus::from_pairs(
        long_pair().iter().map(|(id, t)| (id.as_str(), t.as_str())),
    );
    app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
    run_effects(&mut app);
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::NextDifference);
    assert!(app.viewer().diff_mode(), "jumping turns diff mode on");
    let first = app.viewer().pair().unwrap();
    assert_eq!(first.difference(), Some(0));
    let first_scroll = (first.scroll_a(), first.scroll_b());
    let s = screen(&app, w, h);
    assert!(s.contains("three"), "{s}");
    cmd(&mut app, Command::NextDifference);
    let second = app.viewer().pair().unwrap();
    assert_eq!(second.difference(), Some(1));
    assert!(second.scroll_a() > 20, "scrolled down to sentence 70");
    assert_eq!(
        second.scroll_a(),
        second.scroll_b(),
        "both texts scrolled to it, level"
    );
    let s = screen(&app, w, h);
    assert!(
        s.contains("seventy") && s.contains("difference 2 of 2"),
        "{s}"
    );
    // The difference jumped to is drawn bold.
    let bold_changes = cell_styles(&app, w, h)
        .content()
        .iter()
        .filter(|c| c.bg == Color::Yellow && c.modifier.contains(Modifier::BOLD))
        .count();
    assert!(bold_changes >= "70".len() + "seventy".len(), "{s}");
    cmd(&mut app, Command::NextDifference);
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .contains("no difference after"),
        "{:?}",
        app.message()
    );
    cmd(&mut app, Command::PrevDifference);
    let back = app.viewer().pair().unwrap();
    assert_eq!(back.difference(), Some(0));
    assert_eq!((back.scroll_a(), back.scroll_b()), first_scroll);
}

#[test]
fn e_in_the_viewer_exports_the_pairs_diff_as_text_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (W, H));
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::Export);
    let view = app.viewer().pair().unwrap();
    let data = app.data().as_ref().unwrap();
    let stem = format!(
        "fixture.diff.{}.{}",
        data.corpus.id(view.a() as usize),
        data.corpus.id(view.b() as usize)
    );
    let (txt, html) = (
        dir.path().join(format!("{stem}.txt")),
        dir.path().join(format!("{stem}.html")),
    );
    let message = &app.message().as_ref().unwrap().text;
    assert!(message.contains(&txt.display().to_string()), "{message}");
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(text.contains("dawn") && text.contains("dusk"), "{text}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<html") || page.contains("<!DOCTYPE"),
        "{page}"
    );
    assert!(page.contains("dusk"));
}
