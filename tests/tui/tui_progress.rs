//! Progress that tells the truth: the cost grid (`H`) and the exact join (`T`) on the embedded
//! sample (20,000 job ads), each run on a thread as the explorer's worker runs it while this
//! thread polls the job's progress handle as the screen does. What it reports must only go
//! forward, and it must say which phase runs ("phase 2/3: …"), the label changing with the
//! phase.

use crate::tui_support;

use lshscope::tui::app::{App, Effect};
use lshscope::tui::keys::Command;
use lshscope_core::jobs::{Progress, ProgressSnapshot};
use tui_support::*;

/// Runs `effect` on a thread and returns every distinct snapshot of `progress` seen meanwhile.
fn watch(effect: Effect, progress: Progress) -> Vec<ProgressSnapshot> {
    let worker = std::thread::spawn(move || lshscope::tui::run_effect_inline(effect));
    let mut seen: Vec<ProgressSnapshot> = Vec::new();
    while !worker.is_finished() {
        let s = progress.snapshot();
        let changed = seen.last().is_none_or(|l| {
            (l.step, l.phase, l.done, l.total) != (s.step, s.phase, s.done, s.total)
        });
        if changed {
            seen.push(s);
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(worker.join().unwrap().is_some(), "the job answered");
    seen.push(progress.snapshot());
    seen
}

/// The overall fraction never goes back, the steps go forward one phase at a time with
/// their labels, and the last snapshot reads 100 %.
fn check(seen: &[ProgressSnapshot], labels: &[&str]) {
    let planned: Vec<&ProgressSnapshot> = seen.iter().filter(|s| s.step.is_some()).collect();
    assert!(planned.len() > 2, "the job reported as it ran: {seen:?}");
    for pair in planned.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert!(
            b.overall.unwrap() >= a.overall.unwrap(),
            "went back: {a:?} then {b:?}"
        );
        assert!(b.step.unwrap().0 >= a.step.unwrap().0, "{a:?} then {b:?}");
    }
    let mut shown: Vec<String> = planned
        .iter()
        .filter(|s| s.phase != lshscope_core::jobs::Phase::Idle)
        .map(|s| s.step_label())
        .collect();
    shown.dedup();
    assert_eq!(shown, labels, "each phase says which it is, in order");
    let last = seen.last().unwrap();
    assert_eq!(last.percent_done(), Some(1.0), "{last:?}");
}

fn job_of(app: &mut App) -> (Effect, Progress) {
    let mut effects = app.take_effects();
    let i = effects
        .iter()
        .position(|e| matches!(e, Effect::Cost(_) | Effect::Truth(_)))
        .expect("a cost or truth job");
    let effect = effects.swap_remove(i);
    let progress = match &effect {
        Effect::Cost(job) => job.progress.clone(),
        Effect::Truth(job) => job.progress.clone(),
        _ => unreachable!(),
    };
    (effect, progress)
}

#[test]
fn the_cost_grid_reports_forward_by_phase() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), (100, 30));
    cmd(&mut app, Command::ToggleCost);
    let (effect, progress) = job_of(&mut app);
    let seen = watch(effect, progress);
    check(
        &seen,
        &["phase 1/2: sizing the bands", "phase 2/2: banding"],
    );
}

#[test]
fn the_exact_join_reports_forward_by_phase() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), (100, 30));
    cmd(&mut app, Command::ComputeTruth);
    let (effect, progress) = job_of(&mut app);
    let seen = watch(effect, progress);
    check(
        &seen,
        &[
            "phase 1/3: indexing shingles for the join",
            "phase 2/3: exact similarity join",
            "phase 3/3: redrawing the hash family",
        ],
    );
}
