//! Screens that fit: the main screen on the embedded sample at 80×24, 100×30 and 160×45 keeps
//! P(t), recall and precision whole on its status line and shows more than a handful of
//! pairs; the pair list opens (and refills) at its top; an open cluster's copy marks stand
//! apart from the text; sort messages read as sentences; a first sampled estimate too wide to
//! act on says "estimating…".

use crate::tui_support;

use lshscope::tui::app::{Action, App, Effect, View};
use lshscope::tui::keys::Command;
use lshscope::tui::layout;
use lshscope_core::corpus::Corpus;
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use tui_support::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (160, 45)];

/// The status line: the line above the message line, at the bottom of the main screen.
fn status_line(screen: &str) -> &str {
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len() - 3]
}

#[test]
fn main_screen_keeps_p_t_recall_and_precision_at_every_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), SIZES[0]);
    cmd(&mut app, Command::ComputeTruth);
    assert_eq!(run_effects(&mut app), 1, "one truth job");
    // The truth's message carries the join's time; the screens leave messages out: a key
    // clears the message, and Tab then Shift-Tab come back to the same panel.
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::FocusPrev);
    assert!(app.message().is_none());
    for (w, h) in SIZES {
        app.update(Action::Resize(w, h));
        let s = screen(&app, w, h);
        let status = status_line(&s);
        for field in ["t 0.50: P(t) 47.0 %", "recall 81.0 %", "precision 31.9 %"] {
            assert!(status.contains(field), "{w}×{h}: {field} in {status:?}");
        }
        assert!(!status.contains('…'), "{w}×{h}: nothing cut: {status:?}");
        assert!(
            layout::pair_list_rows((w, h)) > 4,
            "{w}×{h}: the pair list shows more than 4 rows"
        );
        // Rows #1 to #6 are on screen at the smallest size, and the list starts at #1.
        assert!(s.contains("│6      job-"), "{w}×{h}:\n{s}");
        assert_eq!(app.candidates().list().selected(), 0);
        assert_eq!(app.candidates().list().offset(), 0);
        insta::assert_snapshot!(format!("main_sample_{w}x{h}"), s);
    }
}

#[test]
fn a_narrow_status_line_drops_whole_fields_least_important_first() {
    let dir = tempfile::tempdir().unwrap();
    let app = sample_app(dir.path(), (160, 45));
    let wide = screen(&app, 160, 45);
    let wide = status_line(&wide);
    assert!(
        wide.starts_with("20,000 docs · 19.6 M shingles · K 128 · 20×5 · 296,174 candidates"),
        "{wide}"
    );
    assert!(wide.contains("re-banded in"), "{wide}");
    let narrow = screen(&app, 80, 24);
    let narrow = status_line(&narrow);
    // Shingles, K and the time go, whole; the rest fits as it is.
    assert_eq!(
        narrow.trim_end(),
        "20,000 docs · 20×5 · 296,174 candidates · 94,421 ≥ t · t 0.50: P(t) 47.0 %"
    );
}

#[test]
fn the_pair_list_stays_at_its_top_when_it_refills() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), (140, 44));
    // Lowest Jaccard first: the top pair is bread-1/bread-3 (0.292).
    cmd(&mut app, Command::CycleSort);
    assert_eq!(
        app.message().as_ref().unwrap().text,
        "pairs sorted by Jaccard, lowest first"
    );
    let top = app.selected_pair().map(|p| (p.a, p.b)).unwrap();
    // Fewer rows per band: more candidates, some below the old top pair.
    cmd(&mut app, Command::RowsDown);
    run_effects(&mut app);
    let new_top = app.candidates().list().rows()[0];
    let pairs = &app.candidates().result().unwrap().pairs;
    assert_ne!(
        (pairs[new_top as usize].a, pairs[new_top as usize].b),
        top,
        "the refilled list has another pair at its top"
    );
    assert_eq!(
        app.candidates().list().selected(),
        0,
        "the selection stays on top"
    );
    // A pair the user moved to stays selected through a refill.
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::Down);
    let chosen = app.selected_pair().map(|p| (p.a, p.b)).unwrap();
    cmd(&mut app, Command::RowsUp);
    run_effects(&mut app);
    assert_eq!(app.selected_pair().map(|p| (p.a, p.b)), Some(chosen));
    cmd(&mut app, Command::CycleSort);
    assert_eq!(
        app.message().as_ref().unwrap().text,
        "pairs shuffled (a random order, the same each time)"
    );
    cmd(&mut app, Command::CycleSort);
    assert_eq!(
        app.message().as_ref().unwrap().text,
        "pairs sorted by Jaccard, highest first"
    );
}

#[test]
fn an_open_clusters_copy_marks_stand_apart_from_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let manual = "a simple printer manual: load the paper tray, close the cover and press start";
    let docs = [
        ("printer-manual-0001", manual),
        ("printer-manual-1020", manual),
        (
            "printer-manual-2040",
            "a simple printer manual: load the paper tray, close the lid and press start",
        ),
        (
            "unrelated",
            "penguins swim with remarkable speed through cold southern waters",
        ),
    ];
    let mut app = new_app(dir.path(), (100, 30));
    app.update(Action::Loaded(Box::new(Ok(loaded(Corpus::from_pairs(
        docs.iter().copied(),
    ))))));
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    assert_eq!(app.view(), View::Clusters);
    cmd(&mut app, Command::Open);
    let s = screen(&app, 100, 30);
    let copy = s
        .lines()
        .find(|l| l.contains("= printer-manual-0001"))
        .unwrap_or_else(|| panic!("the copy is marked:\n{s}"));
    assert!(
        copy.contains("= printer-manual-0001 a simple printer"),
        "a space between the mark and the text: {copy}"
    );
    let kept = s
        .lines()
        .find(|l| l.contains("kept"))
        .unwrap_or_else(|| panic!("the kept member is marked:\n{s}"));
    // The marks form one column: the texts start at the same place.
    assert_eq!(
        kept.find("a simple printer"),
        copy.find("a simple printer"),
        "{kept}\n{copy}"
    );
}

/// 1,500 template documents (the families of `tui_scale`), with sampling forced as on a corpus
/// too large to enumerate and no time to build bands before the first answer: the first
/// estimate comes from 2 of the 16 bands, the refined one from all of them.
fn templated_app(dir: &std::path::Path) -> (App, Vec<Action>, Action) {
    let templated = generate_templated(&TemplateOptions {
        docs: 1500,
        seed: 3,
        template_family: 200,
        ..Default::default()
    })
    .corpus;
    let texts: Vec<String> = (0..templated.len())
        .map(|i| templated.text(i).to_string())
        .collect();
    let inputs = sampling_inputs(|s| {
        s.first_bands_within = std::time::Duration::ZERO;
        s.enumeration_budget = 0;
        s.preview_above = 0;
    });
    let mut app = new_app_given(config(dir), dir, (140, 44), inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded(Corpus::from_texts(
        texts.iter().map(String::as_str),
    ))))));
    let Some(Effect::Reband(job)) = app.take_effects().into_iter().next() else {
        panic!("a re-banding job")
    };
    let mut first = Vec::new();
    let last = lshscope::tui::run_reband_job_reporting(job, |a| first.push(a)).unwrap();
    (app, first, last)
}

#[test]
fn a_first_estimate_too_wide_to_act_on_says_estimating() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, mut first, last) = templated_app(dir.path());
    app.update(first.pop().expect("a first estimate"));
    let info = app.candidates().estimated().expect("estimated");
    assert!(info.refining);
    let first_total = info.estimate.total;
    let s = screen(&app, 140, 44);
    let status = status_line(&s);
    let counts = s
        .lines()
        .find(|l| l.contains("t = 0.50"))
        .expect("the counts line");
    // The first estimate over a few bands spans more than a factor of 2.
    assert!(!first_total.is_informative(), "{first_total:?}");
    assert!(
        status.contains("candidates estimating… (20,000 sampled pairs so far)"),
        "{status}"
    );
    assert!(!status.contains(&first_total.to_string()), "{status}");
    assert!(
        counts.contains("counts estimating… (20,000 sampled pairs so far)"),
        "{counts}"
    );
    app.update(last);
    let refined = app.candidates().estimated().unwrap();
    assert!(!refined.refining);
    assert!(refined.estimate.total.is_informative());
    let s = screen(&app, 140, 44);
    let status = status_line(&s);
    assert!(!s.contains("estimating…"), "{s}");
    assert!(
        status.contains(&format!("{} candidates", refined.estimate.total)),
        "{status}"
    );
}

/// The message line at 80 columns: a long labels path loses leading folders instead of the
/// message losing its end in mid-word.
#[test]
fn a_long_message_shortens_its_path_rather_than_cutting_a_word() {
    let root = tempfile::tempdir().unwrap();
    let dir = root
        .path()
        .join("a-rather-long-project-folder")
        .join("with-labelled-data-inside");
    std::fs::create_dir_all(&dir).unwrap();
    // A first session labels a pair; the second loads that label and says from where.
    let mut first = ready_app(&dir, (80, 24));
    cmd(&mut first, Command::FocusPrev);
    cmd(&mut first, Command::LabelDuplicate);
    run_effects(&mut first);
    let mut app = new_app(&dir, (80, 24));
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    let text = &app
        .message()
        .as_ref()
        .expect("the loaded labels are announced")
        .text;
    assert!(text.starts_with("loaded 1 label from "), "{text}");
    assert!(
        text.chars().count() > 80,
        "the test needs a message wider than the screen"
    );
    let screen = screen(&app, 80, 24);
    let lines: Vec<&str> = screen.lines().collect();
    let message = lines[lines.len() - 2].trim_end();
    assert!(message.starts_with("loaded 1 label from …/"), "{message}");
    assert!(
        message.ends_with("labels.csv (1 matches this corpus)"),
        "{message}"
    );
}
