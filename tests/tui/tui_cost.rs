//! The explorer's cost view (`H`), driven through `App::update(Action)`: the grid it shows is
//! the engine's count of every banding, the cursor moves inside b·r ≤ K, Enter moves the
//! explorer there, t moves P(t), the sampled-mode cells follow the explorer's budget; and
//! screens of the view.

use crate::tui_support;

use std::time::Duration;

use lshscope::tui::app::{App, Effect, View};
use lshscope::tui::cost::CostMetric;
use lshscope::tui::keys::{Command, Context};
use lshscope_core::analysis::cost::PairCount;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, BandingOptions, find_candidates};
use tui_support::*;

const SIZE: (u16, u16) = (120, 36);

fn cost_app(dir: &std::path::Path) -> App {
    // The grid's time is measured with a clock; fix it so screens are reproducible.
    let inputs = Inputs {
        clock: Clock::Fixed(Duration::from_millis(5)),
        ..fixture_inputs()
    };
    let mut app = ready_app_given(dir, SIZE, inputs);
    cmd(&mut app, Command::ToggleCost);
    assert_eq!(app.view(), View::Cost);
    assert_eq!(app.context(), Context::Cost);
    let effects = app.take_effects();
    assert!(
        matches!(effects.as_slice(), [Effect::Cost(_), Effect::Sample(_)]),
        "the cost job and, without a truth, the tuning sample"
    );
    run_given_effects(&mut app, effects);
    app
}

#[test]
fn the_grid_is_the_listed_count_of_every_banding() {
    let dir = tempfile::tempdir().unwrap();
    let app = cost_app(dir.path());
    let grid = app.cost().grid().expect("a grid");
    let data = app.data().as_ref().unwrap();
    assert!(!grid.sampled(), "12 documents are counted whole");
    assert_eq!(grid.num_perm, K);
    for banding in [
        Banding { bands: 16, rows: 4 },
        Banding {
            bands: 1,
            rows: 128,
        },
        Banding {
            bands: 128,
            rows: 1,
        },
        Banding { bands: 7, rows: 3 },
    ] {
        let listed = find_candidates(
            &data.index.signatures,
            &BandingOptions {
                banding,
                max_bucket: None,
            },
            &Progress::new(),
        )
        .unwrap();
        let cell = grid.cell(banding.bands, banding.rows).unwrap();
        assert_eq!(
            cell.pairs,
            PairCount::Exact(listed.pairs.len() as u64),
            "{banding}"
        );
    }
    // A second visit does not compute it again.
    app_after_toggle_twice(app);
}

fn app_after_toggle_twice(mut app: App) {
    cmd(&mut app, Command::ToggleCost);
    assert_eq!(app.view(), View::Main);
    cmd(&mut app, Command::ToggleCost);
    assert_eq!(app.view(), View::Cost);
    assert!(app.take_effects().is_empty(), "the grid is kept");
}

#[test]
fn the_cursor_stays_inside_the_grid_and_enter_moves_there() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = cost_app(dir.path());
    assert_eq!(app.cost().cursor(), Some(BANDING));
    cmd(&mut app, Command::CursorRight);
    cmd(&mut app, Command::Up);
    assert_eq!(app.cost().cursor(), Some(Banding { bands: 17, rows: 5 }));
    // Up to r = 6, b is cut to the widest that fits: ⌊128 / 6⌋ = 21.
    for _ in 0..10 {
        cmd(&mut app, Command::CursorRight);
    }
    assert_eq!(app.cost().cursor(), Some(Banding { bands: 25, rows: 5 }));
    cmd(&mut app, Command::Up);
    assert_eq!(app.cost().cursor(), Some(Banding { bands: 21, rows: 6 }));
    for _ in 0..30 {
        cmd(&mut app, Command::CursorLeft);
        cmd(&mut app, Command::Down);
    }
    assert_eq!(app.cost().cursor(), Some(Banding { bands: 1, rows: 1 }));
    cmd(&mut app, Command::Up);
    cmd(&mut app, Command::Up);
    cmd(&mut app, Command::CursorRight);
    // The banding does not move until Enter.
    assert_eq!(app.curve().banding, BANDING);
    assert!(app.take_effects().is_empty());
    cmd(&mut app, Command::Open);
    assert_eq!(app.view(), View::Main);
    assert_eq!(app.curve().banding, Banding { bands: 2, rows: 3 });
    let effects = app.take_effects();
    assert!(matches!(effects.as_slice(), [Effect::Reband(_)]));
    run_given_effects(&mut app, effects);
    assert_eq!(
        app.candidates().result().unwrap().banding,
        Banding { bands: 2, rows: 3 }
    );
    // Back in the view, the current-banding mark and the cursor start there.
    cmd(&mut app, Command::ToggleCost);
    assert_eq!(app.cost().cursor(), Some(Banding { bands: 2, rows: 3 }));
    cmd(&mut app, Command::Back);
    assert_eq!(app.view(), View::Main);
}

#[test]
fn the_threshold_moves_p_and_the_metric_cycles() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = cost_app(dir.path());
    let p = |app: &App| app.cost().grid().unwrap().cell(16, 4).unwrap().p_at_t;
    let before = p(&app);
    let expected = |t: f64| 1.0 - (1.0 - t.powi(4)).powi(16);
    assert!((before - expected(0.5)).abs() < 1e-12);
    cmd(&mut app, Command::ThresholdUp);
    assert!((p(&app) - expected(0.51)).abs() < 1e-12);
    assert!(p(&app) > before);
    // b and r keys still move the banding from the view; the view stays open.
    cmd(&mut app, Command::BandsUp);
    assert_eq!(app.curve().banding, Banding { bands: 17, rows: 4 });
    assert_eq!(app.view(), View::Cost);
    assert_eq!(app.cost().metric(), CostMetric::Pairs);
    cmd(&mut app, Command::CycleMetric);
    assert_eq!(app.cost().metric(), CostMetric::Memory);
    cmd(&mut app, Command::CycleMetric);
    assert_eq!(app.cost().metric(), CostMetric::Probability);
    cmd(&mut app, Command::CycleMetric);
    assert_eq!(app.cost().metric(), CostMetric::Pairs);
}

#[test]
fn cells_past_the_explorers_budget_are_marked_sampled() {
    let dir = tempfile::tempdir().unwrap();
    // A budget the fixture's wide bandings exceed, as a million documents would the default.
    let inputs = sampling_inputs(|s| s.enumeration_budget = 40);
    let mut app = ready_app_given(dir.path(), SIZE, inputs);
    cmd(&mut app, Command::ToggleCost);
    run_effects(&mut app);
    let grid = app.cost().grid().unwrap();
    for cell in grid.cells() {
        assert_eq!(
            cell.needs_sampled,
            cell.bucket_pairs > 40.0,
            "{}",
            cell.banding
        );
    }
    assert!(grid.cells().iter().any(|c| c.needs_sampled));
    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(shown.contains("▚▚"), "{shown}");
}

#[test]
fn screens() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = cost_app(dir.path());
    cmd(&mut app, Command::CursorRight);
    cmd(&mut app, Command::Down);
    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(shown.contains("◆◆"), "the current banding is marked");
    assert!(
        shown.contains("17×3"),
        "the cursor's banding titles the details"
    );
    insta::assert_snapshot!("cost_120x36", shown);
    cmd(&mut app, Command::CycleMetric);
    insta::assert_snapshot!("cost_memory_80x24", screen(&app, 80, 24));
    // Before the grid arrives the view says what it is doing.
    let mut waiting = ready_app(dir.path(), SIZE);
    cmd(&mut waiting, Command::ToggleCost);
    let shown = screen(&waiting, SIZE.0, SIZE.1);
    assert!(shown.contains("counting the candidates"), "{shown}");
}

/// 1,500 template documents (families of near-copies, verbatim copies): about 1.1 M pairs,
/// more than the 20,000 the tuning sample below draws, so its strata are sampled.
fn template_data() -> lshscope_core::pipeline::Loaded {
    use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
    let corpus = generate_templated(&TemplateOptions {
        docs: 1500,
        seed: 3,
        ..Default::default()
    })
    .corpus;
    loaded(corpus)
}

/// Without a truth, `H` draws the stratified tuning sample at t; until it is there the
/// details say it is sampling, then they show the cursor's pairs at or above t, recall and
/// precision with their 95 % intervals, and the status line recall and precision of the
/// current banding marked as sampled. The sample is the one `truth --estimate-pairs` draws
/// for the same seed (the engine checks that the CLI's strata signatures give the same one).
#[test]
fn without_a_truth_the_cost_view_estimates_recall_from_the_stratified_sample() {
    use lshscope::tui::app::Action;
    use lshscope_core::analysis::stratified::{StrataDesign, stratified_pair_sample};
    let dir = tempfile::tempdir().unwrap();
    let inputs = Inputs {
        clock: Clock::Fixed(Duration::from_millis(5)),
        tuning_sample_pairs: 20_000,
        ..fixture_inputs()
    };
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(template_data()))));
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleCost);
    let effects = app.take_effects();
    let sample_job = effects
        .iter()
        .find_map(|e| match e {
            Effect::Sample(job) => Some(job.clone()),
            _ => None,
        })
        .expect("a tuning sample without a truth");
    // The grid first: while the sample is drawn, the details say so under the grid's counts.
    let (sampling, others): (Vec<_>, Vec<_>) = effects
        .into_iter()
        .partition(|e| matches!(e, Effect::Sample(_)));
    run_given_effects(&mut app, others);
    let waiting = screen(&app, SIZE.0, SIZE.1);
    assert!(
        waiting.contains("recall@t     sampling 20,000 pairs…"),
        "{waiting}"
    );
    run_given_effects(&mut app, sampling);

    let data = app.data().clone().unwrap();
    let t = app.curve().threshold;
    let expected = stratified_pair_sample(
        &data.index.sets,
        &data.index.signatures,
        K,
        data.index.options.family,
        20_000,
        StrataDesign::with_default_lower(t),
        data.index.options.seed,
        &Progress::new(),
    )
    .unwrap();
    let tuning = app.truth().sample().expect("the sample arrived");
    assert_eq!(*tuning.sample, expected);
    assert!(
        !tuning.is_census(),
        "1,500 documents have more pairs than 20,000"
    );
    assert_eq!(sample_job.request.threshold, t);
    let (estimate, intervals) = app.truth().sampled_estimates(BANDING, t).unwrap();
    let recall = estimate.expected_recall.unwrap();
    let (low, high) = intervals
        .expected_recall
        .expect("enough sampled pairs at t");
    assert!(low <= recall && recall <= high && high - low > 0.0);

    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(shown.contains("95 %:"), "{shown}");
    assert!(
        shown.contains("(sampled)"),
        "the status line marks it: {shown}"
    );
    insta::assert_snapshot!("cost_tuning_sample_120x36", shown);
    // The current banding's candidates are listed, so the status line gives this seed's
    // precision exactly (listed at t over listed) and its recall against the sample's count
    // of the corpus's pairs at t, where the details give the averages over hash seeds.
    let listed = app.candidates().result().unwrap().pairs.len() as f64;
    let found = app.pairs_at_or_above_t() as f64;
    let status = shown.lines().rev().nth(2).unwrap();
    let percent = lshscope_core::util::numfmt::percent_adaptive;
    assert!(
        status.contains(&format!(
            "recall ≈{} (sampled) · precision {}",
            percent(found / estimate.pairs_at_or_above.max(found)),
            percent(found / listed)
        )),
        "{status}"
    );
    // The sample is kept for this t, and for t up to 0.1 above it (stepping t keeps the
    // numbers on screen); below it, or past that, a new one is drawn at once, in the cost
    // view or out of it.
    let samples_asked = |app: &mut App| -> Vec<f64> {
        app.take_effects()
            .iter()
            .filter_map(|e| match e {
                Effect::Sample(job) => Some(job.request.threshold),
                _ => None,
            })
            .collect()
    };
    cmd(&mut app, Command::ToggleCost);
    cmd(&mut app, Command::ToggleCost);
    assert_eq!(
        samples_asked(&mut app),
        Vec::<f64>::new(),
        "the sample at this t is kept"
    );
    cmd(&mut app, Command::ToggleCost);
    for _ in 0..10 {
        cmd(&mut app, Command::ThresholdUp);
    }
    cmd(&mut app, Command::ToggleCost);
    assert_eq!(
        samples_asked(&mut app),
        Vec::<f64>::new(),
        "t up to T + 0.1 is served"
    );
    cmd(&mut app, Command::ThresholdUp);
    let past = app.curve().threshold;
    assert!((past - t - 0.11).abs() < 1e-9);
    let (late, others): (Vec<_>, Vec<_>) = app
        .take_effects()
        .into_iter()
        .partition(|e| matches!(e, Effect::Sample(_)));
    assert!(
        matches!(late.as_slice(), [Effect::Sample(job)] if job.request.threshold == past),
        "past T + 0.1, a new sample"
    );
    run_given_effects(&mut app, others);
    // Back to T + 0.1 before that sample arrives: the one held serves it, and when the late
    // one replaces it (it serves from T + 0.11 up), t gets a sample of its own again.
    cmd(&mut app, Command::ThresholdDown);
    let back = app.curve().threshold;
    assert_eq!(samples_asked(&mut app), Vec::<f64>::new());
    run_given_effects(&mut app, late);
    assert_eq!(
        samples_asked(&mut app),
        [back],
        "a late sample that does not serve t"
    );
    cmd(&mut app, Command::ToggleCost);
    for _ in 0..11 {
        cmd(&mut app, Command::ThresholdDown);
    }
    let below = app.curve().threshold;
    assert!((below - t + 0.01).abs() < 1e-9);
    let asked = samples_asked(&mut app);
    assert_eq!(
        asked.last(),
        Some(&below),
        "below T a new sample, out of the cost view too"
    );
}

/// On a corpus larger than the grid's sample of documents the grid's counts are estimates,
/// but the current banding's candidates are listed: its details show the listed count first
/// (the status line's), the grid's estimate after it; another banding shows the estimate.
#[test]
fn the_current_banding_shows_its_listed_count_beside_the_grids_estimate() {
    use lshscope::tui::app::Action;
    use lshscope_core::synthetic::words::{GenOptions, generate};
    let dir = tempfile::tempdir().unwrap();
    // Pseudo-words with planted pairs at several levels: few candidates to list.
    let (corpus, _) = generate(&GenOptions {
        documents: 20_500,
        length: 120,
        levels: vec![0.5, 0.7, 0.9],
        pairs_per_level: 300,
        seed: 4,
        shingle: Default::default(),
    });
    let inputs = Inputs {
        clock: Clock::Fixed(Duration::from_millis(5)),
        tuning_sample_pairs: 2_000,
        // The explorer's own budget, so the current banding is listed.
        ..sampling_inputs(|s| s.enumeration_budget = 40_000_000)
    };
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
    run_effects(&mut app);
    assert!(app.candidates().estimated().is_none(), "listed exactly");
    let listed = app.candidates().result().unwrap().pairs.len() as u64;
    cmd(&mut app, Command::ToggleCost);
    run_effects(&mut app);
    let grid = app.cost().grid().expect("a grid");
    assert!(
        grid.sampled(),
        "20,500 documents are more than the grid counts"
    );
    let here = app.curve().banding;
    assert!(matches!(
        grid.cell(here.bands, here.rows).unwrap().pairs,
        PairCount::Estimated(_)
    ));
    let shown = screen(&app, SIZE.0, SIZE.1);
    let candidates = shown
        .lines()
        .find(|l| l.contains("candidates "))
        .expect("the details' candidates row");
    assert!(
        candidates.contains(&format!(
            "{} (listed)",
            lshscope_core::util::numfmt::thousands(listed)
        )),
        "{candidates}"
    );
    assert!(shown.contains("  grid est.  ≈"), "{shown}");
    // Another banding under the cursor has only the grid's estimate.
    cmd(&mut app, Command::Up);
    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(!shown.contains("(listed)"), "{shown}");
}

/// With a truth joined at a higher t than the current one, the truth's recall is unknown: a
/// tuning sample is drawn for t and answers, the view says how to join again, and `T` joins
/// from the cost view.
#[test]
fn below_the_truths_floor_a_sample_answers_and_t_joins_again() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), SIZE);
    cmd(&mut app, Command::ComputeTruth);
    assert_eq!(run_effects(&mut app), 1, "one truth job");
    cmd(&mut app, Command::ToggleCost);
    run_effects(&mut app);
    assert!(!screen(&app, SIZE.0, SIZE.1).contains("recall@t     ? (truth"));
    let joined_at = app.curve().threshold;
    // Another banding under the cursor shows its expected recall over the truth's pairs,
    // as `tune --truth` gives it, so bandings compare without moving there.
    cmd(&mut app, Command::Up);
    let cursor = app.cost().cursor().expect("the cost view is open");
    assert_ne!(cursor, app.curve().banding);
    let truth = app.truth().truth().unwrap();
    let expected = lshscope_core::minhash::tune::corpus_estimate(
        &truth.similarities,
        cursor.bands,
        cursor.rows,
        joined_at,
    )
    .expected_recall
    .unwrap();
    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(
        shown.contains(&format!(
            "E[recall@t]  {} (truth)",
            lshscope_core::util::numfmt::percent_adaptive(expected)
        )),
        "{shown}"
    );
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::ThresholdDown);
    assert!(app.truth_below_floor());
    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(shown.contains("recall@t     sampling"), "{shown}");
    assert_eq!(run_effects(&mut app), 1, "one tuning sample for the new t");
    let shown = screen(&app, SIZE.0, SIZE.1);
    assert!(shown.contains("pairs ≥ t"), "{shown}");
    assert!(
        shown.contains(&format!("the truth covers t ≥ {joined_at}; T joins at t")),
        "{shown}"
    );
    assert!(!shown.contains("? (truth ≥"), "the sample answers: {shown}");
    let key = KeyEvent::new(KeyCode::Char('T'), KeyModifiers::NONE);
    let action = lshscope::tui::key_action(&app, &key).expect("T is bound in the cost view");
    app.update(action);
    assert!(
        app.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Truth(_))),
        "T in the cost view joins at the new t"
    );
}
