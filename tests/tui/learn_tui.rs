//! The walkthrough's screens through TestBackend: every step at 80×24 and 160×45 (review
//! changes with `cargo insta review`), the keys, monochrome, and the export.

use lshscope::tui::keys::keys_label;
use lshscope::tui::learn::{LEARN_KEYS, LearnApp, STEPS, render};
use lshscope_core::learn::BUILTIN_DOCUMENTS;
use lshscope_core::text::ShingleKind;
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
    assert!(lines[0].contains("Step 1/9: Documents"), "{s}");
    let footer = lines[23];
    for key in [
        "←→ step",
        "k/K",
        "p/P",
        "b/B",
        "r/R",
        "n/N",
        "<> t",
        "e export",
        "? help",
        "q quit",
    ] {
        assert!(footer.contains(key), "{key} missing from {footer:?}");
    }
}

#[test]
fn s_curve_step_shows_the_textbook_numbers_for_the_first_pair() {
    let mut app = app();
    for _ in 0..7 {
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
        "learn-step6-one-permutation.csv",
        "learn-step7-buckets.csv",
        "learn-step8-scurve.svg",
        "learn-step9-verification.csv",
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
    let oph = std::fs::read_to_string(dir.path().join(expected[5])).unwrap();
    assert!(oph.starts_with("id,bin,row,from_bin\n1,1,"), "{oph}");
    assert_eq!(
        oph.lines().count(),
        1 + 6 * 6,
        "a line per document and bin: {oph}"
    );
    let svg = std::fs::read_to_string(dir.path().join(expected[7])).unwrap();
    assert!(svg.contains("<svg"));
    // The plot's threshold line is the walkthrough's t, not the selected pair's Jaccard.
    assert!(svg.contains("threshold t = 0.5"), "{svg}");
    let verification = std::fs::read_to_string(dir.path().join(expected[8])).unwrap();
    assert_eq!(
        verification,
        "a,b,intersection,union,jaccard,verdict\n4,5,6,8,0.750000,kept\n1,2,6,8,0.750000,missed\n"
    );
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

/// Presses → until the walkthrough is on 1-based step `step`.
fn go_to(app: &mut LearnApp, step: usize) {
    while app.step + 1 < step {
        press(app, KeyCode::Right);
    }
    assert_eq!(app.step + 1, step);
}

#[test]
fn help_lists_every_key_of_the_table_and_any_key_closes_it() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut app = app();
        chars(&mut app, "?");
        assert!(app.help);
        let s = screen(&app, w, h);
        for binding in LEARN_KEYS {
            assert!(
                s.contains(binding.help),
                "{} missing at {w}×{h}:\n{s}",
                binding.help
            );
            assert!(s.contains(&keys_label(binding)), "{w}×{h}:\n{s}");
        }
        // Esc closes the help and does not quit; `?` closes it too.
        press(&mut app, KeyCode::Esc);
        assert!(!app.help && !app.quit);
        chars(&mut app, "??");
        assert!(!app.help);
        // Another key closes it and does its work.
        chars(&mut app, "?");
        press(&mut app, KeyCode::Right);
        assert!(!app.help);
        assert_eq!(app.step, 1);
        assert!(!screen(&app, w, h).contains(LEARN_KEYS[0].help));
    }
}

#[test]
fn the_s_curve_has_a_legend_and_names_t_apart_from_the_steep_point() {
    let mut app = app();
    go_to(&mut app, 8);
    for (w, h) in [(80, 24), (160, 45)] {
        let s = screen(&app, w, h);
        for entry in [
            "⣀⠔⠊ P(s), b=2 r=3",
            "│ your threshold t = 0.50",
            "◆ steep point (1/b)^(1/r) = 0.79",
            "█ pair 1–2: P = 0.666",
            "your threshold t = 0.50 (< >)",
            "P(t) = 0.234",
            "steep point ≈ (1/b)^(1/r) = 0.794",
        ] {
            assert!(s.contains(entry), "{entry} missing at {w}×{h}:\n{s}");
        }
        assert!(!s.contains("threshold t ≈"), "{s}");
    }
    // t is the user's: it moves with < >, and the steep point does not.
    chars(&mut app, ">");
    assert_eq!(app.threshold, 0.55);
    let s = screen(&app, 160, 45);
    assert!(s.contains("your threshold t = 0.55"), "{s}");
    assert!(s.contains("(1/b)^(1/r) = 0.794"), "{s}");
    // The steep point moves with b and r, and t does not.
    chars(&mut app, "r");
    let s = screen(&app, 160, 45);
    assert!(s.contains("your threshold t = 0.55"), "{s}");
    assert!(s.contains("(1/b)^(1/r) = 0.707"), "{s}");
}

#[test]
fn the_threshold_keys_step_by_005_within_bounds() {
    let mut app = app();
    chars(&mut app, "<");
    assert_eq!(app.threshold, 0.45);
    chars(&mut app, ">>>");
    assert_eq!(app.threshold, 0.6);
    chars(&mut app, &">".repeat(20));
    assert_eq!(app.threshold, 1.0);
    chars(&mut app, &"<".repeat(30));
    assert_eq!(app.threshold, 0.05);
}

#[test]
fn step_one_says_what_scan_does_by_default() {
    use lshscope_core::learn::learn_options;
    use lshscope_core::text::ShingleOptions;
    // The walkthrough strips punctuation and scan by default does not: the screen must say both.
    assert!(learn_options(ShingleKind::Word(1)).strip_punct);
    let scan = ShingleOptions::default();
    assert!(!scan.strip_punct && scan.lowercase && !scan.nfkc);
    let s = screen(&app(), 160, 45);
    let s: String = s.lines().map(str::trim_end).collect::<Vec<_>>().join(" ");
    assert!(
        s.contains("normalized as scan does by default, lowercase with runs of spaces made one"),
        "{s}"
    );
    assert!(
        s.contains("also without punctuation (scan does that only with --strip-punct)"),
        "{s}"
    );
}

#[test]
fn a_new_k_says_it_redraws_the_hash_family() {
    let mut app = app();
    go_to(&mut app, 7);
    let before = app.walk.hash_signatures.clone();
    chars(&mut app, "P");
    assert_eq!(app.num_perm, 7);
    // Why the note is true: every hash row is new, not just a seventh one added.
    for (k, row) in before.iter().enumerate() {
        assert_ne!(&app.walk.hash_signatures[k], row, "hash row {}", k + 1);
    }
    let s = screen(&app, 80, 24);
    let flat: String = s.lines().map(str::trim_end).collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "K 6 → 7: a new K draws a new family of 7 hash functions from seed 1, so every hash \
             row changes, and with it which pairs collide (and which are false positives)"
        ),
        "{s}"
    );
    // The next key clears the note; fewer permutations say it again.
    chars(&mut app, "p");
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .starts_with("K 7 → 6: a new K")
    );
    chars(&mut app, "n");
    assert_eq!(app.message, None);

    // On the permutations step, the first permutations stay: they are drawn one by one.
    let mut app = self::app();
    go_to(&mut app, 4);
    let before = app.walk.permutations.clone();
    chars(&mut app, "P");
    assert_eq!(&app.walk.permutations[..6], &before[..]);
    assert_eq!(
        app.message.as_deref(),
        Some(
            "K 6 → 7: permutations 1–6 stay (drawn one by one from seed 1); the hash functions \
             of the later steps are all redrawn"
        )
    );
    // K cannot go below b·r = 6: no change, no note.
    chars(&mut app, "p");
    chars(&mut app, "p");
    assert_eq!(app.num_perm, 6);
    assert_eq!(app.message, None);
}

#[test]
fn verification_shows_each_candidates_exact_jaccard_and_drops_the_false_positives() {
    let mut app = app();
    go_to(&mut app, 9);
    let s = screen(&app, 80, 24);
    assert!(s.contains("Step 9/9: Verification"), "{s}");
    assert!(
        s.contains("4–5           6/8    0.750   kept: a near-duplicate"),
        "{s}"
    );
    assert!(
        s.contains("false negatives, at or above t but never candidates: 1–2 (0.750)"),
        "{s}"
    );
    assert!(
        s.contains("1 kept of 1 candidate, 1 exact comparison instead of all 15 pairs"),
        "{s}"
    );
    // One row per band lets the 0.4 pairs through: their exact Jaccard drops them.
    chars(&mut app, "rr");
    assert_eq!((app.bands, app.rows), (2, 1));
    let v = app.walk.verify(2, 1, 0.5);
    assert!(!v.dropped.is_empty(), "{v:?}");
    let s = screen(&app, 160, 45);
    for p in &v.dropped {
        let line = s
            .lines()
            .find(|l| l.starts_with(&format!("{}–{} ", p.a + 1, p.b + 1)))
            .unwrap_or_else(|| panic!("{p:?} not listed:\n{s}"));
        assert!(line.contains(&format!("{:.3}", p.jaccard)), "{line}");
        assert!(
            line.contains("dropped: a false positive (below t)"),
            "{line}"
        );
    }
    let result = format!(
        "{} kept of {} candidates, {} exact comparisons",
        v.kept.len(),
        v.comparisons(),
        v.comparisons()
    );
    assert!(s.contains(&result), "{result}:\n{s}");
    // Raising t above 0.75 drops the near-duplicates too.
    chars(&mut app, &">".repeat(6));
    assert_eq!(app.threshold, 0.8);
    let s = screen(&app, 160, 45);
    assert!(!s.contains("kept: a near-duplicate"), "{s}");
}

/// `d` shows the selected pair's diff instead of the step's figure, in the pair viewer's
/// styles and summary line; it stays on while `n` picks the next pair, `]` jumps, and a new
/// step closes it.
#[test]
fn d_shows_the_pairs_diff_and_it_stays_on_for_the_next_pair() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut app = app();
        app.set_screen_width(w);
        go_to(&mut app, 2);
        chars(&mut app, "d");
        assert!(app.diff.is_some());
        let s = screen(&app, w, h);
        insta::assert_snapshot!(format!("learn_diff_{w}x{h}"), s);
        assert!(s.contains("diff 1 word changed"), "{s}");
        // "Python" against "Java", in the viewer's colour for a change; the rest dimmed.
        let terminal = draw(&app, w, h);
        let buffer = terminal.backend().buffer();
        let changed: String = buffer
            .content()
            .iter()
            .filter(|c| c.bg == Color::Yellow)
            .map(|c| c.symbol())
            .collect();
        // The legend's "changed", then the two sides of the change on one row.
        assert_eq!(changed, "changedPythonJava", "{s}");
        chars(&mut app, "n");
        assert_eq!(app.pair, (0, 2));
        assert!(app.diff.is_some(), "the diff stays on for the next pair");
        chars(&mut app, "]");
        assert_eq!(app.message.as_deref(), Some("difference 1 of 2"));
        assert_eq!(app.diff.as_ref().unwrap().difference, Some(0));
        press(&mut app, KeyCode::Right);
        assert!(app.diff.is_none(), "a new step shows the step");
    }
}

/// The one-permutation step follows K and the pair, and says when K is more than a
/// document's shingles.
#[test]
fn one_permutation_step_follows_k_and_warns_when_k_exceeds_the_shingles() {
    let mut app = app();
    go_to(&mut app, 6);
    let s = screen(&app, 80, 24);
    assert!(s.contains("Step 6/9: One permutation, K bins"), "{s}");
    assert!(
        s.contains("pair 1–2: 5 of 6 rows agree = 0.833  Jaccard 0.750"),
        "{s}"
    );
    assert!(!s.contains("is more than"), "7 shingles, K = 6: {s}");
    // Question 1 has 7 words: at K = 9 at least 2 bins must copy.
    let hashes = app.walk.one_permutation[0].hashes.clone();
    chars(&mut app, "PPP");
    assert_eq!(app.num_perm, 9);
    // What the K note says here is true: the hashes stay, the bins are cut anew.
    assert_eq!(app.walk.one_permutation[0].hashes, hashes);
    let note = app.message.clone().unwrap();
    assert!(
        note.starts_with("K 8 → 9: each shingle keeps its one hash"),
        "{note}"
    );
    let s = screen(&app, 160, 45);
    assert!(
        s.contains("K = 9 is more than the 7 shingles of 1: at least 2 bins must copy others"),
        "{s}"
    );
    let rows = &app.walk.one_permutation[0].rows;
    let agree = rows
        .iter()
        .zip(&app.walk.one_permutation[1].rows)
        .filter(|(x, y)| x == y)
        .count();
    assert!(s.contains(&format!("{agree} of 9 rows agree")), "{s}");
    assert!(s.contains(" 9 "), "a ninth bin row: {s}");
    // Another pair: the figure shows its documents.
    chars(&mut app, "n");
    assert_eq!(app.pair, (0, 2));
    let s = screen(&app, 160, 45);
    assert!(s.contains("pair 1–3:"), "{s}");
    assert!(s.contains("doc 3"), "{s}");
}
