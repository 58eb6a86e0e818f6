//! Where the explorer's views lead when what they show changes under them: a pair opened from
//! a cluster that new clusters no longer hold.

use crate::tui_support;

use lshscope::tui::app::{Action, PromptKey, View};
use lshscope::tui::keys::{Command, Context};
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

#[test]
fn a_pair_from_a_cluster_that_vanishes_steps_through_the_candidates_and_backs_to_the_main_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    // The loosest cluster first: its farthest pair is well below J = 1.
    cmd(&mut app, Command::CycleSort);
    cmd(&mut app, Command::Open);
    assert_eq!(app.context(), Context::Cluster);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let s = screen(&app, SIZE.0, SIZE.1);
    assert!(s.contains("farthest pair · edge 1 of"), "{s}");

    // At t = 1 only identical copies cluster: the open cluster is gone.
    cmd(&mut app, Command::ThresholdPrompt);
    app.update(Action::PromptInput(PromptKey::Char('1')));
    app.update(Action::PromptInput(PromptKey::Submit));
    assert_eq!(app.curve().threshold, 1.0);
    run_effects(&mut app);
    assert!(app.clusters().result().is_some());
    assert!(
        app.clusters().open().is_none(),
        "the loosest cluster does not hold at t = 1"
    );
    assert!(matches!(app.view(), View::Viewer { .. }));
    let s = screen(&app, SIZE.0, SIZE.1);
    assert!(
        !s.contains("edge 1 of"),
        "no cluster to place the pair in:\n{s}"
    );

    // → goes on in the candidate list; Back returns to the main screen.
    cmd(&mut app, Command::NextPair);
    let selected = *app.selected_pair().expect("a candidate is selected");
    let view = app.viewer().pair().unwrap();
    assert_eq!((view.a(), view.b()), (selected.a, selected.b));
    cmd(&mut app, Command::Back);
    assert_eq!(app.view(), View::Main);
    assert!(app.viewer().pair().is_none());
}

/// The sketch family is shown where K is, on the loading screen and the status line, only
/// when it is not the default (so the default's screens read as they always did).
#[test]
fn another_sketch_family_is_named_beside_k() {
    use lshscope_core::minhash::SketchFamily;
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.index_options.family = SketchFamily::OnePermutation;
    let mut app = new_app_with(config.clone(), dir.path(), SIZE);
    let loading = screen(&app, SIZE.0, SIZE.1);
    assert!(
        loading.contains("K = 128 permutations · seed 1 · one-permutation sketches"),
        "{loading}"
    );
    let corpus = lshscope_core::corpus::Corpus::from_pairs(DOCS.iter().copied());
    let index = lshscope_core::minhash::build_index(
        &corpus,
        &config.index_options,
        &lshscope_core::jobs::Progress::new(),
    )
    .unwrap();
    let data = lshscope_core::pipeline::Loaded {
        corpus,
        index,
        read: Default::default(),
    };
    app.update(Action::Loaded(Box::new(Ok(data))));
    run_effects(&mut app);
    let main = screen(&app, SIZE.0, SIZE.1);
    assert!(
        main.contains("· K 128 · one-permutation sketches ·"),
        "{main}"
    );
    let classic = ready_app(dir.path(), SIZE);
    assert!(!screen(&classic, SIZE.0, SIZE.1).contains("sketches"));
}
