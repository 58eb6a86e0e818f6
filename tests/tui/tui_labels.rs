//! Labels in the explorer: saved after each key and loaded again, acknowledged only once their
//! snapshot is on disk, and written again after a failed write.

use crate::tui_support;

use lshscope::tui::app::{Action, App, Effect};
use lshscope::tui::keys::Command;
use lshscope::tui::labels::LabelsSaved;
use lshscope_core::analysis::labels::{Label, LabelStore};
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

#[test]
fn labels_are_saved_after_each_key_and_loaded_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("labels.csv");
    let mut app = ready_app(dir.path(), SIZE);
    let data = app.data().clone().unwrap();
    let p = *app.selected_pair().unwrap();
    let (a, b) = (data.corpus.id(p.a as usize), data.corpus.id(p.b as usize));
    cmd(&mut app, Command::LabelDuplicate);
    run_effects(&mut app);
    assert_eq!(
        LabelStore::load(&path).unwrap().get(a, b),
        Some(Label::Duplicate)
    );
    let bin = lshscope_core::analysis::histogram::bin_of(p.jaccard, app.hist().bins());
    assert_eq!(app.hist().precision(bin), Some(1.0));
    cmd(&mut app, Command::LabelNotDuplicate);
    run_effects(&mut app);
    assert_eq!(
        LabelStore::load(&path).unwrap().get(b, a),
        Some(Label::NotDuplicate)
    );
    assert_eq!(app.hist().precision(bin), Some(0.0));
    cmd(&mut app, Command::LabelUnsure);
    run_effects(&mut app);
    assert_eq!(
        LabelStore::load(&path).unwrap().get(a, b),
        Some(Label::Unsure)
    );
    assert_eq!(app.hist().precision(bin), None);
    assert_eq!(app.hist().labelled(bin), 1);
    // Label a second pair from the viewer, then clear the first.
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::LabelDuplicate);
    run_effects(&mut app);
    cmd(&mut app, Command::Back);
    cmd(&mut app, Command::Top);
    cmd(&mut app, Command::ClearLabel);
    run_effects(&mut app);
    let store = LabelStore::load(&path).unwrap();
    assert_eq!(store.len(), 1);
    assert_eq!(store.get(a, b), None);
    // A new session reads the file back.
    let app2 = ready_app(dir.path(), SIZE);
    let r = app2.candidates().result().unwrap();
    let labelled: Vec<_> = r
        .pairs
        .iter()
        .filter_map(|p| app2.label_of(p.a, p.b))
        .collect();
    assert_eq!(labelled, vec![Label::Duplicate]);
    assert!(app2.message().as_ref().unwrap().text.contains("1 match"));
}

/// Takes the one label snapshot `app` queued.
fn take_label_save(app: &mut App) -> lshscope::tui::labels::LabelSave {
    let mut saves: Vec<_> = app
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::SaveLabels(save) => Some(*save),
            _ => None,
        })
        .collect();
    assert_eq!(saves.len(), 1, "one snapshot per label change");
    saves.pop().unwrap()
}

#[test]
fn a_label_is_acknowledged_only_once_its_snapshot_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("labels.csv");
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::LabelDuplicate);
    // `update` did no I/O: the file appears only when the snapshot is written.
    assert!(!path.exists());
    assert!(app.labels_unsaved());
    let first = take_label_save(&mut app);
    assert_eq!(first.labels.len(), 1);
    let text = app.message().clone().unwrap().text;
    assert!(text.contains("saving") && !text.contains("saved"), "{text}");

    // A second change before the first write is answered: the older answer is no
    // acknowledgement of the newer change.
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::LabelNotDuplicate);
    let second = take_label_save(&mut app);
    assert!(second.generation > first.generation);
    assert_eq!(second.labels.len(), 2);
    app.update(Action::LabelsSaved(save_labels(&first)));
    assert!(app.labels_unsaved());
    let text = app.message().clone().unwrap().text;
    assert!(!text.contains("saved"), "{text}");
    app.update(Action::LabelsSaved(save_labels(&second)));
    assert!(!app.labels_unsaved());
    let msg = app.message().clone().unwrap();
    assert!(
        !msg.error && msg.text.contains("not_duplicate: saved 2 labels to"),
        "{msg:?}"
    );
    assert_eq!(LabelStore::load(&path).unwrap().len(), 2);
}

/// One label saved reads "saved 1 label", and a store of one label reads "loaded 1 label".
#[test]
fn one_saved_label_is_one_label() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::LabelDuplicate);
    let save = take_label_save(&mut app);
    app.update(Action::LabelsSaved(save_labels(&save)));
    let msg = app.message().clone().unwrap();
    assert!(
        !msg.error && msg.text.contains("duplicate: saved 1 label to"),
        "{msg:?}"
    );
    let again = ready_app(dir.path(), SIZE);
    let text = again.message().clone().unwrap().text;
    assert!(
        text.contains("loaded 1 label from") && text.contains("(1 matches this corpus)"),
        "{text}"
    );
}

#[test]
fn a_failed_label_write_is_an_error_and_the_next_change_writes_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::LabelDuplicate);
    let failed = take_label_save(&mut app);
    app.update(Action::LabelsSaved(LabelsSaved {
        generation: failed.generation,
        count: failed.labels.len(),
        result: Err("disk full".into()),
    }));
    let msg = app.message().clone().unwrap();
    assert!(msg.error && msg.text.contains("disk full"), "{msg:?}");
    assert!(app.labels_unsaved());
    // The next change queues the whole store again, the failed label included.
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::LabelUnsure);
    let retry = take_label_save(&mut app);
    assert_eq!(retry.labels.len(), 2);
    app.update(Action::LabelsSaved(save_labels(&retry)));
    assert!(!app.labels_unsaved());
    let store = LabelStore::load(dir.path().join("labels.csv")).unwrap();
    assert_eq!(store.len(), 2);
}

/// With advance on (`--advance`, or the key), a label moves to the next pair: in the list and
/// in the viewer. Removing a label stays put, and advance off stays put.
#[test]
fn advance_moves_to_the_next_pair_after_a_label() {
    use lshscope::tui::keys::{Context, lookup};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let a = KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE);
    for context in [Context::Pairs, Context::Viewer, Context::Cluster] {
        assert_eq!(lookup(&a, context), Some(Command::ToggleAdvance));
    }
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    let at = |app: &App| app.selected_pair().map(|p| (p.a, p.b)).unwrap();
    let first = at(&app);
    cmd(&mut app, Command::LabelDuplicate);
    assert_eq!(at(&app), first, "advance is off by default");
    cmd(&mut app, Command::ToggleAdvance);
    assert!(app.message().as_ref().unwrap().text.contains("advance on"));
    cmd(&mut app, Command::LabelNotDuplicate);
    let second = at(&app);
    assert_ne!(second, first);
    assert_eq!(app.label_of(first.0, first.1), Some(Label::NotDuplicate));

    // In the viewer: the next pair of the list opens.
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Open);
    let open = |app: &App| {
        let v = app.viewer().pair().expect("a pair is open");
        (v.a(), v.b())
    };
    assert_eq!(open(&app), second);
    cmd(&mut app, Command::LabelUnsure);
    assert_eq!(app.label_of(second.0, second.1), Some(Label::Unsure));
    let third = open(&app);
    assert_ne!(third, second);
    cmd(&mut app, Command::ClearLabel);
    assert_eq!(open(&app), third, "removing a label does not advance");
    cmd(&mut app, Command::ToggleAdvance);
    assert!(app.message().as_ref().unwrap().text.contains("advance off"));
    cmd(&mut app, Command::LabelDuplicate);
    assert_eq!(open(&app), third);

    // `--advance` starts with it on.
    let mut config = config(dir.path());
    config.advance = true;
    let mut app = new_app_with(config, dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    let before = at(&app);
    cmd(&mut app, Command::LabelDuplicate);
    assert_ne!(at(&app), before);
}

/// The exported histogram shows what the panels show: each labelled bin's precision (the
/// precision strip) and the truth's measured candidate rates (the S-curve panel's points).
#[test]
fn the_exported_histogram_shows_labelled_precision_and_the_truth_points() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ComputeTruth);
    run_effects(&mut app);
    assert!(app.truth().measure().is_some());
    cmd(&mut app, Command::LabelDuplicate);
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::LabelNotDuplicate);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::LabelUnsure);
    run_effects(&mut app);
    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let msg = app.message().clone().unwrap();
    assert!(!msg.error, "{msg:?}");
    let name = |ext: &str| {
        let b = app.curve().banding;
        dir.path()
            .join(format!("fixture.histogram.{}x{}.{ext}", b.bands, b.rows))
    };
    let svg = std::fs::read_to_string(name("svg")).unwrap();
    assert!(
        svg.contains(
            "labelled precision per bin (right axis, 95 % Wilson interval): 1 of 2 decided \
             labels are duplicates"
        ),
        "the legend counts the decided labels"
    );
    assert!(svg.contains("candidate rate measured on the truth"));
    // Bluish green precision points and reddish purple truth points (Okabe–Ito).
    assert!(svg.contains("#009E73") && svg.contains("#CC79A7"));
    assert!(std::fs::metadata(name("png")).unwrap().len() > 10_000);

    // Without labels or truth the figure says nothing of either.
    let plain = tempfile::tempdir().unwrap();
    let mut app = ready_app(plain.path(), SIZE);
    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let b = app.curve().banding;
    let svg = std::fs::read_to_string(
        plain
            .path()
            .join(format!("fixture.histogram.{}x{}.svg", b.bands, b.rows)),
    )
    .unwrap();
    assert!(!svg.contains("labelled precision") && !svg.contains("measured on the truth"));
}
