//! The walkthrough's screens through TestBackend: every step at 80×24 and 160×45 (review
//! changes with `cargo insta review`), the keys, monochrome, and the export.

use lshscope::learn::BUILTIN_DOCUMENTS;
use lshscope::text::ShingleKind;
use lshscope::tui::learn::{LearnApp, STEPS, render};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Color, Modifier};

fn app() -> LearnApp {
    let texts: Vec<(String, String)> = BUILTIN_DOCUMENTS
        .iter()
        .enumerate()
        .map(|(i, t)| ((i + 1).to_string(), t.to_string()))
        .collect();
    LearnApp::new(&texts, false)
}

fn press(app: &mut LearnApp, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn chars(app: &mut LearnApp, keys: &str) {
    for c in keys.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn draw(app: &LearnApp, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| render(f, app)).unwrap();
    terminal
}

fn screen(app: &LearnApp, w: u16, h: u16) -> String {
    let terminal = draw(app, w, h);
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn every_step_at_80x24_and_160x45() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut app = app();
        for step in 0..STEPS {
            assert_eq!(app.step, step);
            insta::assert_snapshot!(
                format!("learn_step{}_{w}x{h}", step + 1),
                screen(&app, w, h)
            );
            press(&mut app, KeyCode::Right);
        }
    }
}

#[test]
fn the_first_screen_names_the_step_and_every_key_at_80_columns() {
    let s = screen(&app(), 80, 24);
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[0].contains("Step 1/7: Documents"), "{s}");
    let footer = lines[23];
    for key in [
        "←/→", "k/K", "p/P", "b/B", "r/R", "n/N", "e export", "q quit",
    ] {
        assert!(footer.contains(key), "{key} missing from {footer:?}");
    }
}

#[test]
fn s_curve_step_shows_the_textbook_numbers_for_the_first_pair() {
    let mut app = app();
    for _ in 0..6 {
        press(&mut app, KeyCode::Right);
    }
    let s = screen(&app, 160, 45);
    assert!(s.contains("s = 0.7500"), "{s}");
    assert!(s.contains("s^r = 0.421875"), "{s}");
    assert!(s.contains("1 − s^r = 0.578125"), "{s}");
    assert!(s.contains("(1 − s^r)^b = 0.334229"), "{s}");
    assert!(s.contains("= 0.665771"), "{s}");
}

#[test]
fn keys_step_change_sizes_and_pairs_within_bounds() {
    let mut app = app();
    press(&mut app, KeyCode::Left);
    assert_eq!(app.step, 0);
    for _ in 0..10 {
        press(&mut app, KeyCode::Right);
    }
    assert_eq!(app.step, STEPS - 1);
    press(&mut app, KeyCode::Left);
    assert_eq!(app.step, STEPS - 2);

    // Shingle size and unit recompute the shingles.
    assert_eq!(app.kind, ShingleKind::Word(1));
    chars(&mut app, "K");
    assert_eq!(app.kind, ShingleKind::Word(2));
    assert!(app.walk.shingles[0].contains(&"sort a".to_string()));
    chars(&mut app, "w");
    assert_eq!(app.kind, ShingleKind::Char(3));
    assert!(app.walk.shingles[0].contains(&"how".to_string()));
    chars(&mut app, "kkkk");
    assert_eq!(app.kind, ShingleKind::Char(1));
    chars(&mut app, "KKKKKKKKKKK");
    assert_eq!(app.kind, ShingleKind::Char(9));

    // b·r never exceeds K, and K never drops below b·r.
    assert_eq!((app.num_perm, app.bands, app.rows), (6, 2, 3));
    chars(&mut app, "B");
    assert_eq!(app.bands, 2, "3 bands of 3 rows need 9 > 6 permutations");
    chars(&mut app, "pp");
    assert_eq!(app.num_perm, 6);
    chars(&mut app, "PPPP");
    assert_eq!(app.num_perm, 10);
    assert_eq!(app.walk.hash_signatures.len(), 10);
    chars(&mut app, "BBB");
    assert_eq!(app.bands, 3);
    chars(&mut app, "rrrr");
    assert_eq!(app.rows, 1);
    chars(&mut app, "bbbb");
    assert_eq!(app.bands, 1);

    // Pairs cycle through all 15 pairs of 6 documents, forward and back.
    assert_eq!(app.pair, (0, 1));
    chars(&mut app, "n");
    assert_eq!(app.pair, (0, 2));
    chars(&mut app, "N");
    assert_eq!(app.pair, (0, 1));
    chars(&mut app, "N");
    assert_eq!(app.pair, (4, 5));
    for _ in 0..15 {
        chars(&mut app, "n");
    }
    assert_eq!(app.pair, (4, 5));

    chars(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn monochrome_uses_no_colour() {
    let texts: Vec<(String, String)> = BUILTIN_DOCUMENTS
        .iter()
        .enumerate()
        .map(|(i, t)| ((i + 1).to_string(), t.to_string()))
        .collect();
    let mut app = LearnApp::new(&texts, true);
    for step in 0..STEPS {
        let terminal = draw(&app, 80, 24);
        let buffer = terminal.backend().buffer();
        let mut reversed = 0;
        for cell in buffer.content() {
            assert!(
                matches!(cell.fg, Color::Reset) && matches!(cell.bg, Color::Reset),
                "colour on step {}: {cell:?}",
                step + 1
            );
            reversed += cell.modifier.contains(Modifier::REVERSED) as usize;
        }
        // The step title (and the shared shingles) stand out by reverse video instead.
        assert!(reversed > 0, "step {}", step + 1);
        press(&mut app, KeyCode::Right);
    }
}

#[test]
fn export_writes_each_steps_figure_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app();
    app.export_dir = dir.path().to_path_buf();
    let expected = [
        "learn-step1-shingles.csv",
        "learn-step2-shingles.csv",
        "learn-step3-characteristic-matrix.csv",
        "learn-step4-signatures-permutations.csv",
        "learn-step5-signatures-hashes.csv",
        "learn-step6-buckets.csv",
        "learn-step7-scurve.svg",
    ];
    for name in expected {
        chars(&mut app, "e");
        let path = dir.path().join(name);
        assert!(path.exists(), "{name}");
        let message = app.message.clone().unwrap();
        if name.ends_with(".svg") {
            assert!(path.with_extension("png").exists(), "the PNG beside {name}");
            assert_eq!(message, format!("wrote {} (and .png)", path.display()));
        } else {
            assert_eq!(message, format!("wrote {}", path.display()));
        }
        assert!(screen(&app, 80, 24).contains("wrote "), "{name}");
        press(&mut app, KeyCode::Right);
    }
    let matrix = std::fs::read_to_string(dir.path().join(expected[2])).unwrap();
    assert!(
        matrix.starts_with("shingle,1,2,3,4,5,6\na,1,1,0,0,0,0\n"),
        "{matrix}"
    );
    let svg = std::fs::read_to_string(dir.path().join(expected[6])).unwrap();
    assert!(svg.contains("<svg"));
}

#[test]
fn eight_documents_fit_80_columns_with_the_agreement_marks() {
    let texts: Vec<(String, String)> = (1..=8)
        .map(|i| {
            (
                i.to_string(),
                format!("Question {i}: how do I sort a list?"),
            )
        })
        .collect();
    let mut app = LearnApp::new(&texts, false);
    chars(&mut app, "w");
    assert_eq!(app.kind, ShingleKind::Char(3));
    press(&mut app, KeyCode::Right);
    // Spaces inside character shingles are shown, so "a␣l" reads as three characters.
    assert!(screen(&app, 80, 24).contains("[a␣l]"));
    for _ in 0..3 {
        press(&mut app, KeyCode::Right);
    }
    let s = screen(&app, 80, 24);
    let rows: Vec<&str> = s
        .lines()
        .filter(|l| l.starts_with('h') && !l.starts_with("hash"))
        .collect();
    assert_eq!(rows.len(), 6, "{s}");
    for row in rows {
        let row = row.trim_end();
        assert!(row.ends_with('=') || row.ends_with('≠'), "{row}");
    }
}

#[test]
fn the_matrix_scrolls_under_its_column_heads() {
    let mut app = app();
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    let before = screen(&app, 80, 24);
    for _ in 0..5 {
        press(&mut app, KeyCode::Down);
    }
    let after = screen(&app, 80, 24);
    let head = |s: &str| {
        s.lines()
            .find(|l| l.contains("25 shingles"))
            .map(String::from)
    };
    assert!(
        head(&before).is_some() && head(&before) == head(&after),
        "{after}"
    );
    // The first row was `a`; five rows down it is `from` (rows are sorted shingles).
    let first_row = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        let i = lines
            .iter()
            .position(|l| l.contains("25 shingles"))
            .unwrap();
        lines[i + 1].split_whitespace().next().unwrap().to_string()
    };
    assert_eq!(first_row(&before), "a");
    assert_eq!(first_row(&after), "dough");
    press(&mut app, KeyCode::Right);
    assert_eq!(app.scroll, 0, "a new step starts at the top");
}
