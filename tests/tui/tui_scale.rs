//! The explorer at scale: a banding whose bucket pairs are too many to enumerate (formerly
//! refused) shows an estimated histogram, marked as such, with intervals; a quick first
//! estimate is shown while the job goes on, and dropped once the user moved past it; the
//! exact path comes back when the enumeration fits.

use crate::tui_support;

use lshscope::tui::app::{Action, Effect};
use lshscope::tui::keys::Command;
use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::Banding;
use lshscope_core::pipeline::Loaded;
use lshscope_core::pipeline::band_policy::Sampling;
use lshscope_core::pipeline::rebanding::{MAX_BUCKET_PAIRS, check_bucket_budget};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

/// 9,000 verbatim copies of one line among 1,500 template documents: one bucket of 9,000
/// documents in every band, 40 M pairs per band, far beyond what the explorer enumerates.
fn heavy_data() -> Loaded {
    let templated = generate_templated(&TemplateOptions {
        docs: 1500,
        seed: 3,
        template_family: 200,
        ..Default::default()
    })
    .corpus;
    let mut texts: Vec<String> = (0..templated.len())
        .map(|i| templated.text(i).to_string())
        .collect();
    texts.extend(std::iter::repeat_n(
        "the same notice, copied by a template engine nine thousand times".to_string(),
        9000,
    ));
    loaded(Corpus::from_texts(texts.iter().map(String::as_str)))
}

#[test]
fn a_formerly_refused_banding_shows_an_estimated_histogram() {
    let dir = tempfile::tempdir().unwrap();
    let data = heavy_data();
    let banding = Banding::new(20, 5, K).unwrap();
    let refusal = check_bucket_budget(&data.index, banding, None).unwrap_err();
    assert!(refusal.to_string().contains("more than the explorer holds"));

    let mut config = config(dir.path());
    config.banding = banding;
    let mut app = new_app_with(config, dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Ok(data))));
    run_effects(&mut app);
    // (The copies do make most random pairs candidates, which the App warns about.)
    assert!(
        app.message()
            .as_ref()
            .is_none_or(|m| !m.text.contains("re-banding failed")),
        "{:?}",
        app.message()
    );
    let result = app.candidates().result().expect("an answer");
    assert_eq!(result.banding, banding);
    let estimated = app.candidates().estimated().expect("sampled");
    assert!(
        !estimated.refining,
        "inline runs end with the refined answer"
    );
    assert!(estimated.bucket_pairs > MAX_BUCKET_PAIRS);
    let e = &estimated.estimate;
    // The 9,000 copies alone make 40,495,500 distinct pairs at Jaccard 1.
    let copies = 9000.0 * 8999.0 / 2.0;
    assert!(e.bins[e.bins.len() - 1].value > 0.9 * copies);
    assert!(e.total.low <= copies * 1.01 + 2e6 && e.total.high >= copies);
    // The bars are the estimated counts, the list a sample of real candidates.
    assert_eq!(app.hist().counts, e.histogram().counts);
    assert!(!app.candidates().list().is_empty());
    let screen = screen(&app, SIZE.0, SIZE.1);
    assert!(
        screen.contains("estimated from 500,000 sampled pairs"),
        "{screen}"
    );
    assert!(screen.contains("≈ Jaccard, estimated"), "{screen}");
    assert!(screen.contains("(sampled)"), "status line: {screen}");
    assert!(!screen.contains("re-banding failed"), "{screen}");
    let info = screen
        .lines()
        .find(|l| l.contains("at/above"))
        .expect("the counts line");
    assert!(info.contains('≈') && info.contains('±'), "{info}");
    // The count below t is an estimate too, with its own interval: few draws fall below t
    // here, so it is skewed and shown as a range that stays above zero.
    let below = info.split(" below").next().unwrap();
    assert!(below.contains('≈') && below.contains('–'), "{info}");
}

#[test]
fn a_first_estimate_shows_at_once_and_a_step_moved_past_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Ok(heavy_data()))));
    // The first job, run as the worker runs it: its quick estimate is reported first.
    let Some(Effect::Reband(job)) = app.take_effects().into_iter().next() else {
        panic!("a re-banding job")
    };
    let mut first = Vec::new();
    let last = lshscope::tui::run_reband_job_reporting(job.clone(), |a| first.push(a)).unwrap();
    assert_eq!(first.len(), 1, "one quick estimate before the refined one");
    app.update(first.pop().unwrap());
    let info = app.candidates().estimated().expect("the first estimate");
    assert!(info.refining);
    assert_eq!(info.estimate.draws, 20_000);
    assert!(
        app.candidates().job().is_running(),
        "the refined answer is awaited"
    );
    let screen_now = screen(&app, SIZE.0, SIZE.1);
    assert!(screen_now.contains("refining…"), "{screen_now}");
    // The user moves on: the refined answer to the old banding is dropped, and the old
    // estimate stays on screen (marked as another banding's) until the new one arrives.
    cmd(&mut app, Command::RowsDown);
    assert!(
        job.progress.is_cancelled(),
        "the superseded job is cancelled"
    );
    app.update(last);
    assert_eq!(app.candidates().result().unwrap().banding, BANDING);
    assert!(app.result_is_stale());
    let stale = screen(&app, SIZE.0, SIZE.1);
    assert!(stale.contains("showing 16×4"), "{stale}");
    assert!(!stale.contains("refining"), "{stale}");
    run_effects(&mut app);
    assert!(!app.result_is_stale());
    assert!(app.candidates().estimated().is_some());
}

#[test]
fn the_exact_path_returns_when_the_enumeration_fits() {
    let dir = tempfile::tempdir().unwrap();
    // A budget the fixture's first banding exceeds and the next r fits: sampled, then exact.
    let data = loaded_data();
    let bucket_pairs = |rows: usize| {
        Sampling::default()
            .bands
            .buckets(&data.index, Banding { rows, ..BANDING }, &Progress::new())
            .unwrap()
            .occurrences()
    };
    let (first, next) = (bucket_pairs(BANDING.rows), bucket_pairs(BANDING.rows + 1));
    assert!(next < first, "{next} bucket pairs at r + 1, {first} at r");
    let inputs = sampling_inputs(|s| {
        s.enumeration_budget = next;
        s.preview_above = next;
    });
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(data))));
    run_effects(&mut app);
    assert!(app.candidates().estimated().is_some());
    assert!(screen(&app, SIZE.0, SIZE.1).contains("estimated from"));
    cmd(&mut app, Command::RowsUp);
    run_effects(&mut app);
    assert!(app.candidates().estimated().is_none(), "exact again");
    let screen = screen(&app, SIZE.0, SIZE.1);
    assert!(screen.contains("Exact Jaccard of candidates"), "{screen}");
    assert!(!screen.contains("estimated from"), "{screen}");
}

#[test]
fn a_first_estimate_before_every_band_is_built_says_from_how_many() {
    let dir = tempfile::tempdir().unwrap();
    // No time to build bands before the first answer: it samples the first batch of bands.
    let inputs = sampling_inputs(|s| s.first_bands_within = std::time::Duration::ZERO);
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(heavy_data()))));
    let Some(Effect::Reband(job)) = app.take_effects().into_iter().next() else {
        panic!("a re-banding job")
    };
    let mut first = Vec::new();
    let last = lshscope::tui::run_reband_job_reporting(job, |a| first.push(a)).unwrap();
    app.update(first.pop().expect("a first estimate"));
    let info = app.candidates().estimated().expect("estimated");
    let (k, b) = info.estimate.bands;
    assert_eq!(b, BANDING.bands);
    assert!((2..b).contains(&k), "{k} of {b} bands");
    // Its intervals are wider than those of the answer over every band.
    let first_width = info.estimate.total.half_width();
    let screen_first = screen(&app, SIZE.0, SIZE.1);
    assert!(
        screen_first.contains(&format!("of {k} of {b} bands")),
        "{screen_first}"
    );
    app.update(last);
    let refined = &app.candidates().estimated().expect("estimated").estimate;
    assert_eq!(refined.bands, (b, b));
    assert!(refined.total.half_width() < first_width);
    let screen_last = screen(&app, SIZE.0, SIZE.1);
    assert!(!screen_last.contains(" bands, "), "{screen_last}");
    assert!(
        !screen_last.contains(&format!("of {b} bands")),
        "{screen_last}"
    );
}

#[test]
fn a_sample_says_when_the_bucket_cap_is_not_applied() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.max_bucket = Some(50);
    let inputs = sampling_inputs(|s| {
        s.enumeration_budget = 0;
        s.preview_above = 0;
    });
    let mut app = new_app_given(config, dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(heavy_data()))));
    run_effects(&mut app);
    assert!(app.candidates().estimated().expect("sampled").cap_ignored);
    let screen = screen(&app, SIZE.0, SIZE.1);
    assert!(screen.contains("(--max-bucket not applied)"), "{screen}");
}

/// Sampled candidates are labelled as a sample wherever they go: the list's title, the export
/// message, and the exported histogram's legend (an estimated total with its interval, never a
/// bare count).
#[test]
fn a_sample_is_called_a_sample_in_the_list_the_export_and_the_figure() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.banding = Banding::new(20, 5, K).unwrap();
    let mut app = new_app_with(config, dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Ok(heavy_data()))));
    run_effects(&mut app);
    let total = app.candidates().estimated_total().expect("sampled");
    let shown = total.to_string();
    let screen = screen(&app, SIZE.0, SIZE.1);
    let title = screen
        .lines()
        .find(|l| l.contains("Candidate pairs"))
        .expect("the list's title");
    assert!(title.contains(&format!("sampled of {shown}")), "{title}");

    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let message = app.message().clone().unwrap();
    assert!(!message.error, "{message:?}");
    assert!(
        message.text.contains(&format!(
            "sampled pairs (a uniform sample of {shown} candidates)"
        )),
        "{message:?}"
    );
    let svg = std::fs::read_to_string(dir.path().join("fixture.histogram.20x5.svg")).unwrap();
    assert!(
        svg.contains("estimated candidate pairs per bin")
            && svg.contains(&format!("{shown} in all (95 %, 500,000 sampled)")),
        "the legend says the counts are estimated"
    );
    assert!(
        !svg.contains(">candidate pairs per bin"),
        "no exact-count legend"
    );
}

/// While only the first bands are built, the list shows a sample of real candidates: its
/// first row is selected and `Enter` opens it (it said "no pair selected"), and the title's
/// estimate never shows an interval reaching below the pairs already found.
#[test]
fn a_sampled_list_opens_its_first_row_and_bounds_its_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = sampling_inputs(|s| s.first_bands_within = std::time::Duration::ZERO);
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(heavy_data()))));
    let Some(Effect::Reband(job)) = app.take_effects().into_iter().next() else {
        panic!("a re-banding job")
    };
    let mut first = Vec::new();
    lshscope::tui::run_reband_job_reporting(job, |a| first.push(a)).unwrap();
    app.update(first.pop().expect("a first estimate"));
    assert!(app.candidates().estimated().expect("sampled").refining);
    assert!(!app.candidates().list().is_empty(), "rows are shown");
    let selected = app
        .selected_pair()
        .copied()
        .expect("the first row is selected");
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::Open);
    assert!(
        app.message().as_ref().is_none_or(|m| !m.error),
        "{:?}",
        app.message()
    );
    let opened = app.viewer().pair().expect("the viewer shows a pair");
    assert_eq!((opened.a(), opened.b()), (selected.a, selected.b));
    let screen = screen(&app, SIZE.0, SIZE.1);
    assert!(!screen.contains("no pair selected"), "{screen}");
}

/// A label counts in a sampled histogram by the two texts it pairs: `y` on one pair of the
/// 9,000 copies counts once in the last bin after each re-banding draws a new sample, whichever
/// of their 40 M copy pairs the sample holds (only the first 64 copy pairs were looked up, so
/// a label loaded from a file usually counted nowhere).
#[test]
fn a_label_on_copies_counts_once_in_every_sampled_histogram() {
    let dir = tempfile::tempdir().unwrap();
    // The copies first, so the list's first row (highest Jaccard, then first documents) is
    // a pair of them.
    let heavy = heavy_data();
    let n = heavy.corpus.len();
    let texts: Vec<&str> = (n - 9000..n)
        .chain(0..n - 9000)
        .map(|i| heavy.corpus.text(i))
        .collect();
    let is_copy = |d: u32| d < 9000;
    let mut app = new_app(dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Ok(loaded(Corpus::from_texts(
        texts,
    ))))));
    run_effects(&mut app);
    assert!(app.candidates().estimated().is_some(), "sampled");
    let selected = *app.selected_pair().expect("the first row is selected");
    assert!(is_copy(selected.a) && is_copy(selected.b), "{selected:?}");
    cmd(&mut app, Command::LabelDuplicate);
    run_effects(&mut app);
    let last = app.hist().bins() - 1;
    assert_eq!(app.hist().duplicate[last], 1);
    for step in [Command::RowsUp, Command::BandsDown, Command::RowsDown] {
        cmd(&mut app, step);
        run_effects(&mut app);
        assert!(app.candidates().estimated().is_some(), "{step:?}: sampled");
        let pairs = &app.candidates().result().unwrap().pairs;
        let held = pairs
            .iter()
            .filter(|p| is_copy(p.a) && is_copy(p.b))
            .count();
        assert!(held > 0, "{step:?}: the sample holds copy pairs");
        assert_eq!(app.hist().duplicate[last], 1, "{step:?}: counted once");
        assert_eq!(app.hist().labelled(last), 1, "{step:?}");
    }
}
