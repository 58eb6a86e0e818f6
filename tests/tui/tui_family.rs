//! `P` in the explorer: another sketch family's S-curve measured on the truth pairs in the
//! background and drawn beside the formula; it follows b and r without hashing again, cycles
//! through the families other than the index's, and needs a truth.

use crate::tui_support;

use lshscope::tui::app::Effect;
use lshscope::tui::keys::Command;
use lshscope_core::analysis::family_curve::FamilyCurve;
use lshscope_core::analysis::redraws::RedrawAgreement;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, IndexOptions, SketchFamily};
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

#[test]
fn a_pinned_family_is_measured_on_the_truth_and_follows_the_banding() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);

    // Without a truth there is nothing to measure on: a message, no job.
    cmd(&mut app, Command::PinFamily);
    assert!(app.take_effects().is_empty());
    let message = app.message().as_ref().unwrap();
    assert!(
        message.error && message.text.contains("truth"),
        "{message:?}"
    );

    cmd(&mut app, Command::ComputeTruth);
    // While the truth job runs, P says to wait for it.
    let truth_job = app.take_effects();
    cmd(&mut app, Command::PinFamily);
    assert!(app.take_effects().is_empty());
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .contains("still being read")
    );
    assert_eq!(run_given_effects(&mut app, truth_job), 1);
    let truth = app.truth().truth().unwrap().pairs.clone();
    assert!(!truth.is_empty());

    cmd(&mut app, Command::PinFamily);
    let effects = app.take_effects();
    let [Effect::Family(job)] = effects.as_slice() else {
        panic!("P queues one family job, got {effects:?}")
    };
    assert_eq!(job.request.family, SketchFamily::OnePermutation);
    assert!(screen(&app, SIZE.0, SIZE.1).contains("one-permutation: measuring…"));
    run_given_effects(&mut app, effects);

    let pinned = app.family().pinned().unwrap();
    let agreement = pinned.agreement().unwrap();
    assert_eq!(agreement.pairs(), truth.len());
    let curve = pinned.curve().unwrap();
    assert_eq!(curve.banding, app.curve().banding);
    assert_eq!(
        curve,
        &FamilyCurve::measure(
            SketchFamily::OnePermutation,
            agreement,
            &truth,
            app.curve().banding,
            app.hist().bins()
        )
    );
    // The masks are the pinned family's draws, not the index's family's: the first row's
    // agreement under each draw matches a one-permutation computation and not a classic one.
    let data = app.data().clone().unwrap();
    let first_rows = |a: &RedrawAgreement| -> Vec<bool> {
        let one_row = Banding::new(1, 1, app.num_perm()).unwrap();
        (0..a.pairs())
            .flat_map(|i| (0..a.draws()).map(move |d| (i, d)))
            .map(|(i, d)| a.collides(i, d, one_row))
            .collect()
    };
    let redrawn = |family| {
        let options = IndexOptions {
            family,
            ..data.index.options.clone()
        };
        RedrawAgreement::compute(&data.index.sets, &truth, &options, 16, &Progress::new()).unwrap()
    };
    assert_eq!(
        first_rows(agreement),
        first_rows(&redrawn(SketchFamily::OnePermutation))
    );
    assert_ne!(
        first_rows(agreement),
        first_rows(&redrawn(SketchFamily::Classic))
    );
    let shown = screen(&app, SIZE.0, SIZE.1);
    let legend = format!(
        "◇ one-permutation {}/{} off",
        curve.departing_bins(),
        curve.bins.len()
    );
    assert!(shown.contains(&legend), "{shown}");
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .contains("off the formula")
    );

    // A new banding is a recount of the same masks: no job.
    let before = app.curve().banding;
    cmd(&mut app, Command::RowsDown);
    let banding = app.curve().banding;
    assert_eq!(
        banding,
        Banding::new(before.bands, before.rows - 1, app.num_perm()).unwrap()
    );
    let effects = app.take_effects();
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Family(_))),
        "{effects:?}"
    );
    run_given_effects(&mut app, effects);
    let curve = app.family().pinned().unwrap().curve().unwrap();
    assert_eq!(curve.banding, banding);

    // P again: the next family; then none.
    cmd(&mut app, Command::PinFamily);
    let effects = app.take_effects();
    let [Effect::Family(job)] = effects.as_slice() else {
        panic!("P queues one family job, got {effects:?}")
    };
    assert_eq!(job.request.family, SketchFamily::CMinHash);
    run_given_effects(&mut app, effects);
    assert_eq!(
        app.family().pinned().unwrap().family(),
        SketchFamily::CMinHash
    );
    cmd(&mut app, Command::PinFamily);
    assert!(app.family().pinned().is_none());
    assert!(app.take_effects().is_empty());
    assert!(!screen(&app, SIZE.0, SIZE.1).contains('◇'));
}

#[test]
fn a_new_truth_measures_the_pinned_family_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ComputeTruth);
    run_effects(&mut app);
    cmd(&mut app, Command::PinFamily);
    run_effects(&mut app);
    let before = app.family().pinned().unwrap().truth().clone();

    // A truth at a lower t: the family is measured on its pairs.
    for _ in 0..30 {
        cmd(&mut app, Command::ThresholdDown);
    }
    cmd(&mut app, Command::ComputeTruth);
    run_effects(&mut app);
    let effects = app.take_effects();
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Family(_))),
        "{effects:?}"
    );
    run_given_effects(&mut app, effects);
    let pinned = app.family().pinned().unwrap();
    let truth = &app.truth().truth().unwrap().pairs;
    assert!(!std::sync::Arc::ptr_eq(&before, truth));
    assert!(std::sync::Arc::ptr_eq(pinned.truth(), truth));
    assert_eq!(pinned.agreement().unwrap().pairs(), truth.len());
}
