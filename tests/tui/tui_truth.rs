//! Ground truth in the explorer, driven through `App::update(Action)`: the truth from a file
//! or computed with `T`, recall and precision that follow b, r and t without recomputing the
//! truth, the missed-pairs list and its viewer, and the screens that show them.

use crate::tui_support;

use std::sync::Arc;

use lshscope::tui::app::{Action, App, Effect, View};
use lshscope::tui::keys::Command;
use lshscope::tui::truth::{TruthOrigin, TruthTask};
use lshscope_core::analysis::labels::{Label, LabelStore};
use lshscope_core::analysis::recall::measure_recall;
use lshscope_core::analysis::truth::brute_force_join;
use lshscope_core::minhash::{Banding, CandidatePair};
use tui_support::*;

const W: u16 = 140;
const H: u16 = 44;
const SIZE: (u16, u16) = (W, H);

/// A ready App with the exact truth at t = 0.5 computed through `T`.
fn app_with_truth(dir: &std::path::Path) -> App {
    let mut app = ready_app(dir, SIZE);
    cmd(&mut app, Command::ComputeTruth);
    assert_eq!(run_effects(&mut app), 1);
    assert!(!app.truth().job().is_running());
    app
}

/// The engine's report for `app`'s shown candidates, the slow way: `measure_recall`, which
/// binary-searches every truth pair in the candidates.
fn engine_report(app: &App) -> lshscope_core::analysis::recall::RecallReport {
    let result = app.candidates().result().unwrap();
    let truth = app.truth().truth().unwrap();
    let candidates: Vec<CandidatePair> = result
        .pairs
        .iter()
        .map(|p| CandidatePair {
            a: p.a,
            b: p.b,
            bands_hit: p.bands_hit,
        })
        .collect();
    let at_t = result
        .pairs
        .iter()
        .filter(|p| p.jaccard >= app.curve().threshold)
        .count();
    measure_recall(
        &truth.pairs,
        &candidates,
        at_t,
        result.banding,
        app.curve().threshold,
        app.hist().bins(),
    )
}

/// Recall of `app`'s shown candidates the slow way ([`engine_report`]).
fn expected_recall(app: &App) -> (usize, usize, Option<f64>) {
    let r = engine_report(app);
    (r.found_at_threshold, r.true_at_threshold, r.precision)
}

fn shown_recall(app: &App) -> (usize, usize, Option<f64>) {
    let r = &app.truth().measure().unwrap().report;
    (r.found_at_threshold, r.true_at_threshold, r.precision)
}

#[test]
fn t_computes_the_exact_truth_at_the_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ComputeTruth);
    let effects = app.take_effects();
    let [Effect::Truth(job)] = effects.as_slice() else {
        panic!("T queues one truth job, got {effects:?}")
    };
    assert_eq!(job.request.task, TruthTask::Join { threshold: 0.5 });
    let status = tui_support::screen(&app, W, H);
    assert!(status.contains("⟳ exact join at J ≥ 0.5"), "{status}");
    let data = app.data().clone().unwrap();
    let done = lshscope::tui::truth::run_truth_job(job).unwrap();
    app.update(Action::TruthDone(done));
    let truth = app.truth().truth().unwrap();
    assert_eq!(truth.origin, TruthOrigin::Computed { threshold: 0.5 });
    assert_eq!(*truth.pairs, brute_force_join(&data.index.sets, 0.5));
    assert!(truth.pairs.len() >= 4, "the fixture has near-duplicates");
    let msg = app.message().as_ref().unwrap();
    assert!(!msg.error && msg.text.starts_with("truth: "), "{msg:?}");
    assert_eq!(shown_recall(&app), expected_recall(&app));
}

#[test]
fn a_join_beyond_the_budget_is_refused_with_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = Inputs {
        join_budget_seconds: 0.0,
        ..fixture_inputs()
    };
    let mut app = ready_app_given(dir.path(), SIZE, inputs);
    cmd(&mut app, Command::ComputeTruth);
    run_effects(&mut app);
    assert!(app.truth().truth().is_none());
    let msg = app.message().clone().unwrap();
    assert!(msg.error, "{msg:?}");
    assert!(
        msg.text
            .contains("lshscope truth INPUT --threshold 0.5 --sample")
            && msg.text.contains("--truth truth.csv"),
        "{msg:?}"
    );
}

#[test]
fn a_newer_truth_request_supersedes_the_older_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ComputeTruth);
    cmd(&mut app, Command::ThresholdUp);
    cmd(&mut app, Command::ComputeTruth);
    let effects = app.take_effects();
    let jobs: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Truth(j) => Some(j.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(jobs.len(), 2);
    assert!(jobs[0].progress.is_cancelled());
    // The old job finishes anyway (it was past its last check): its answer is dropped.
    let old = lshscope::tui::truth::run_truth_job(&jobs[0]).unwrap_or_else(|| {
        let fresh = lshscope::tui::truth::TruthJob {
            progress: Default::default(),
            ..jobs[0].clone()
        };
        lshscope::tui::truth::run_truth_job(&fresh).unwrap()
    });
    app.update(Action::TruthDone(old));
    assert!(app.truth().truth().is_none() && app.truth().job().is_running());
    let new = lshscope::tui::truth::run_truth_job(&jobs[1]).unwrap();
    app.update(Action::TruthDone(new));
    assert_eq!(
        app.truth().truth().unwrap().origin,
        TruthOrigin::Computed { threshold: 0.51 }
    );
}

#[test]
fn recall_follows_b_r_and_t_without_recomputing_the_truth() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    let truth = Arc::clone(&app.truth().truth().unwrap().pairs);
    let first = shown_recall(&app);
    assert_eq!(first, expected_recall(&app));

    // More rows per band: fewer candidates, recall can only fall (and it does by r = 8,
    // where P(0.55) is 13 %).
    let mut seen = vec![first];
    for _ in 0..4 {
        cmd(&mut app, Command::RowsUp);
        assert!(
            !app.truth().job().is_running(),
            "changing r starts no truth job"
        );
        run_effects(&mut app);
        let m = app.truth().measure().unwrap();
        assert_eq!(
            m.banding,
            app.curve().banding,
            "recall answers the shown banding"
        );
        assert_eq!(shown_recall(&app), expected_recall(&app));
        seen.push(shown_recall(&app));
    }
    assert_eq!(app.curve().banding, Banding { bands: 16, rows: 8 });
    assert!(
        seen.last().unwrap().0 < first.0,
        "recall must drop at 16×8: {seen:?}"
    );
    assert!(Arc::ptr_eq(&truth, &app.truth().truth().unwrap().pairs));

    // t moves: recounted at once, no job at all.
    cmd(&mut app, Command::ThresholdUp);
    cmd(&mut app, Command::ThresholdUp);
    assert!(app.take_effects().is_empty());
    assert_eq!(shown_recall(&app), expected_recall(&app));
    assert_eq!(app.truth().measure().unwrap().report.threshold, 0.52);

    // Below the truth's threshold the status line says the truth is incomplete.
    for _ in 0..5 {
        cmd(&mut app, Command::ThresholdDown);
    }
    assert!(app.truth_below_floor());
    let s = tui_support::screen(&app, W, H);
    assert!(
        s.contains("recall ? (truth ≥ 0.5; T) · precision 100.0 %"),
        "{s}"
    );
    // A tuning sample for the new t was asked for; once drawn, it answers in the truth's
    // place.
    assert!(run_effects(&mut app) >= 1);
    assert!(app.truth().sample().is_some());
    let s = tui_support::screen(&app, W, H);
    let status = s
        .lines()
        .find(|l| l.contains(" docs · "))
        .expect("the status line");
    assert!(!status.contains("recall ? (truth"), "{s}");
    assert!(
        status.contains("· recall ") && status.contains("· precision "),
        "{s}"
    );
    // The S-curve's points are measured against the truth, which still says nothing here.
    assert!(s.contains("measured recall ? (truth ≥ 0.5)"), "{s}");
}

#[test]
fn missed_pairs_list_opens_in_the_viewer_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ToggleMissed);
    assert!(app.message().as_ref().unwrap().error, "no truth yet");
    assert!(!app.truth().show_missed());
    cmd(&mut app, Command::ComputeTruth);
    for _ in 0..4 {
        cmd(&mut app, Command::RowsUp);
    }
    run_effects(&mut app);
    assert_eq!(app.curve().banding, Banding { bands: 16, rows: 8 });
    cmd(&mut app, Command::ToggleMissed);
    assert!(app.truth().show_missed());
    let missed = app.truth().missed().len();
    let m = app.truth().measure().unwrap();
    assert_eq!(missed, m.missed);
    assert!(missed >= 2, "16×8 misses pairs near 0.5: {missed}");
    // Sorted by Jaccard, descending, like the candidates; every one is ≥ t and no candidate.
    let truth = app.truth().truth().cloned().unwrap();
    let result = app.candidates().result().cloned().unwrap();
    let js: Vec<f64> = app
        .truth()
        .missed()
        .rows()
        .iter()
        .map(|&i| truth.pairs[i as usize].jaccard)
        .collect();
    assert!(js.windows(2).all(|w| w[0] >= w[1]), "{js:?}");
    for &i in app.truth().missed().rows() {
        let p = truth.pairs[i as usize];
        assert!(p.jaccard >= app.curve().threshold);
        assert!(!result.pairs.iter().any(|c| (c.a, c.b) == (p.a, p.b)));
    }

    // Down, open: the viewer shows the second missed pair, with no band collided.
    cmd(&mut app, Command::FocusPrev);
    assert_eq!(app.focus(), lshscope::tui::app::Focus::Pairs);
    cmd(&mut app, Command::Down);
    assert_eq!(app.truth().missed().selected(), 1);
    let second = truth.pairs[app.truth().missed().rows()[1] as usize];
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let view = app.viewer().pair().unwrap();
    assert_eq!((view.a(), view.b()), (second.a, second.b));
    assert!(view.collided().iter().all(|c| !c));
    let s = tui_support::screen(&app, W, H);
    assert!(
        s.contains(&format!("missed pair 2 of {missed}")),
        "the viewer says where the pair comes from:\n{s}"
    );
    // ← moves within the missed list, not the candidates.
    cmd(&mut app, Command::PrevPair);
    let first = truth.pairs[app.truth().missed().rows()[0] as usize];
    let view = app.viewer().pair().unwrap();
    assert_eq!((view.a(), view.b()), (first.a, first.b));
    // A false negative is labelled like any pair, and saved.
    cmd(&mut app, Command::LabelDuplicate);
    tui_support::run_effects(&mut app);
    assert_eq!(app.label_of(first.a, first.b), Some(Label::Duplicate));
    let data = app.data().clone().unwrap();
    let saved = LabelStore::load(dir.path().join("labels.csv")).unwrap();
    let ids = (
        data.corpus.id(first.a as usize),
        data.corpus.id(first.b as usize),
    );
    assert!(
        saved
            .iter()
            .any(|(a, b, l)| (a, b) == ids && l == Label::Duplicate),
        "labels file has the missed pair"
    );
    // Back on the main screen the missed list is still shown; `n` there labels its selection.
    cmd(&mut app, Command::Back);
    assert_eq!(app.view(), View::Main);
    assert!(app.truth().show_missed() && !matches!(app.view(), View::Viewer { .. }));
    cmd(&mut app, Command::Bottom);
    let last = truth.pairs[*app.truth().missed().rows().last().unwrap() as usize];
    cmd(&mut app, Command::LabelNotDuplicate);
    assert_eq!(app.label_of(last.a, last.b), Some(Label::NotDuplicate));

    // `e` on the missed list writes the missed pairs, with their labels.
    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let csv = std::fs::read_to_string(dir.path().join("fixture.missed.16x8.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "id_a,id_b,jaccard,estimate,bands_hit,label");
    assert_eq!(lines.len(), 1 + missed, "{csv}");
    let (la, lb) = (
        data.corpus.id(last.a as usize),
        data.corpus.id(last.b as usize),
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{la},{lb},")) && l.ends_with(",0,not_duplicate")),
        "{csv}"
    );

    // More bands find them: the list empties; m goes back to the candidates.
    for _ in 0..16 {
        cmd(&mut app, Command::BandsUp);
    }
    for _ in 0..6 {
        cmd(&mut app, Command::RowsDown);
    }
    run_effects(&mut app);
    assert!(
        app.truth().missed().len() < missed,
        "{:?}",
        app.curve().banding
    );
    cmd(&mut app, Command::ToggleMissed);
    assert!(!app.truth().show_missed());
}

#[test]
fn the_missed_list_follows_the_bin_filter() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    for _ in 0..4 {
        cmd(&mut app, Command::RowsUp);
    }
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleMissed);
    let all = app.truth().missed().len();
    // Filter to J ≥ 0.9: only the highest missed pairs (maybe none) remain.
    cmd(&mut app, Command::FilterPrompt);
    for c in "0.9".chars() {
        app.update(Action::PromptInput(lshscope::tui::app::PromptKey::Char(c)));
    }
    app.update(Action::PromptInput(lshscope::tui::app::PromptKey::Submit));
    let truth = app.truth().truth().cloned().unwrap();
    assert!(
        app.truth()
            .missed()
            .rows()
            .iter()
            .all(|&i| truth.pairs[i as usize].jaccard >= 0.9)
    );
    cmd(&mut app, Command::ClearFilter);
    assert_eq!(app.truth().missed().len(), all);
}

fn write_truth_file(dir: &std::path::Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("truth.csv");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn truth_file_is_read_after_loading() {
    let dir = tempfile::tempdir().unwrap();
    // gen's format: an extra `level` column; the pairs in either order.
    let path = write_truth_file(
        dir.path(),
        "id_a,id_b,jaccard,level\nlake-2,lake-1,0.929,0.9\ntrain-1,train-2,0.835,0.8\n",
    );
    let inputs = Inputs {
        truth: Some(path.clone()),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    assert_eq!(run_effects(&mut app), 2, "re-banding and reading the truth");
    let truth = app.truth().truth().unwrap();
    assert_eq!(truth.origin, TruthOrigin::File(path));
    assert_eq!(truth.pairs.len(), 2);
    // The lowest Jaccard exactly, as `scan --truth` and `tune --truth` use it.
    assert_eq!(truth.floor, 0.835);
    assert_eq!(shown_recall(&app), expected_recall(&app));
    assert!(
        app.truth_below_floor(),
        "t = 0.5 is below what the file covers"
    );
}

#[test]
fn a_bad_truth_file_ends_the_session_with_its_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_truth_file(dir.path(), "id_a,id_b,jaccard\nlake-1,nobody,0.9\n");
    let inputs = Inputs {
        truth: Some(path),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    assert!(app.should_quit());
    let e = app.fatal().unwrap();
    assert_eq!(e.exit_code(), 2);
    assert!(
        e.to_string().contains("truth.csv:2:") && e.to_string().contains("`nobody`"),
        "{e}"
    );
}

#[test]
fn main_screen_with_truth() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    for _ in 0..2 {
        cmd(&mut app, Command::RowsUp);
    }
    run_effects(&mut app);
    insta::assert_snapshot!("main_with_truth", screen(&app, W, H));
}

#[test]
fn missed_pairs_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    for _ in 0..4 {
        cmd(&mut app, Command::RowsUp);
    }
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleMissed);
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::Down);
    insta::assert_snapshot!("missed_pairs", screen(&app, W, H));
}

#[test]
fn the_highlighted_bin_shows_its_measured_rate_in_the_legend() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    cmd(&mut app, Command::FocusNext);
    // The bin cursor starts on the last bin, [0.95, 1]: lake-1 · lake-2 (0.929) is not in it;
    // walk left to the bin of 0.929, [0.90, 0.95).
    cmd(&mut app, Command::BinLeft);
    let bin = app
        .truth()
        .measure()
        .unwrap()
        .report
        .bins
        .iter()
        .find(|b| (b.lo - 0.9).abs() < 1e-9)
        .copied()
        .expect("a true pair in [0.90, 0.95)");
    let s = tui_support::screen(&app, W, H);
    let want = format!(
        "found {}/{} = {:.0} % [{:.0}, {:.0}], curve {:.0} %",
        bin.found,
        bin.true_pairs,
        bin.measured * 100.0,
        bin.interval_lo * 100.0,
        bin.interval_hi * 100.0,
        bin.predicted * 100.0
    );
    assert!(s.contains(&want), "{want}\n{s}");
}

#[test]
fn a_missing_truth_file_is_reported_before_the_screen_opens() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("docs.txt");
    std::fs::write(&corpus, "one document\nanother document\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lshscope"))
        .arg("explore")
        .arg(&corpus)
        .args(["--truth", "no-such-truth.csv"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-truth.csv"), "{err}");
}

#[test]
fn recall_and_precision_fit_an_80_column_status_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    run_effects(&mut app);
    let text = screen(&app, 80, 24);
    let status = text
        .lines()
        .find(|l| l.contains("≥ t ·"))
        .unwrap_or_else(|| panic!("no status line:\n{text}"));
    assert!(
        status.contains("recall") && status.contains("precision"),
        "{status}"
    );
    assert!(
        status.trim_end().ends_with('%'),
        "precision cut off: {status}"
    );
}

#[test]
fn with_sampled_candidates_recall_is_exact_and_precision_an_estimate() {
    let dir = tempfile::tempdir().unwrap();
    // The same corpus, truth and bandings: enumerated, and with sampling forced.
    let mut exact = app_with_truth(dir.path());
    let inputs = sampling_inputs(|s| {
        s.enumeration_budget = 0;
        s.preview_above = 0;
    });
    let mut sampled = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    sampled.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut sampled);
    cmd(&mut sampled, Command::ComputeTruth);
    run_effects(&mut sampled);
    for step in [None, Some(Command::RowsUp), Some(Command::RowsUp)] {
        if let Some(c) = step {
            cmd(&mut exact, c);
            run_effects(&mut exact);
            cmd(&mut sampled, c);
            run_effects(&mut sampled);
        }
        assert!(sampled.candidates().estimated().is_some(), "sampled");
        let (e, s) = (
            exact.truth().measure().unwrap(),
            sampled.truth().measure().unwrap(),
        );
        assert!(s.sampled && !e.sampled);
        assert_eq!(s.banding, e.banding);
        // Which truth pairs are candidates, hence recall and the missed pairs: the same.
        assert_eq!(s.hits, e.hits);
        assert_eq!(s.report.found_at_threshold, e.report.found_at_threshold);
        assert_eq!(s.report.recall, e.report.recall);
        assert_eq!(s.missed, e.missed);
    }
    let screen = tui_support::screen(&sampled, W, H);
    let status = screen
        .lines()
        .find(|l| l.contains("precision"))
        .expect("the status line");
    eprintln!("{status}");
    assert!(status.contains("precision ≈"), "{status}");
}

/// The truth's bars are measured over redraws of the hash family, not assumed binomial: the
/// explorer keeps each truth pair's agreement under 16 redraws, and every banding's report
/// is the engine's report with those redraws applied, also after b changes.
#[test]
fn the_truth_bars_are_measured_over_redraws() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_truth(dir.path());
    for step in 0..2 {
        let truth = app.truth().truth().unwrap();
        let agreement = truth
            .redraws
            .as_ref()
            .expect("a small truth keeps its redraws");
        assert_eq!(agreement.draws(), 16);
        let report = &app.truth().measure().unwrap().report;
        assert_eq!(report.redraws, 16);
        let result = app.candidates().result().unwrap();
        let mut expected = engine_report(&app);
        expected.apply_redraws(&agreement.found_per_draw(
            &truth.pairs,
            result.banding,
            app.hist().bins(),
            app.curve().threshold,
        ));
        assert_eq!(*report, expected, "step {step}");
        if step == 0 {
            cmd(&mut app, Command::BandsUp);
            run_effects(&mut app);
        }
    }
}
