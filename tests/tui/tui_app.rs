//! App state tests: every key path goes through `App::update(Action)`.

use crate::tui_support;

use lshscope::tui::app::{Action, Effect, Focus, Overlay, PromptKey, View};
use lshscope::tui::candidates::BandOutcome;
use lshscope::tui::keys::Command;
use lshscope::tui::list::SortOrder;
use lshscope_core::minhash::Banding;
use std::time::Duration;
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

fn type_prompt(app: &mut lshscope::tui::app::App, text: &str) {
    for c in text.chars() {
        app.update(Action::PromptInput(PromptKey::Char(c)));
    }
    app.update(Action::PromptInput(PromptKey::Submit));
}

fn pending_bandings(app: &mut lshscope::tui::app::App) -> Vec<Banding> {
    app.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Reband(job) => Some(job.request.banding),
            _ => None,
        })
        .collect()
}

#[test]
fn loading_then_first_banding() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), SIZE);
    assert_eq!(app.view(), View::Loading);
    cmd(&mut app, Command::BandsUp); // not bound while loading; harmless if sent
    assert!(
        app.take_effects().is_empty(),
        "no banding before the corpus is loaded"
    );
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    assert_eq!(app.view(), View::Main);
    assert_eq!(run_effects(&mut app), 1);
    let result = app.candidates().result().unwrap();
    assert_eq!(result.banding, app.curve().banding);
    assert!(!result.pairs.is_empty());
    assert_eq!(app.hist().total() as usize, result.pairs.len());
    assert_eq!(app.candidates().list().len(), result.pairs.len());
}

#[test]
fn load_failure_ends_the_session_with_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Err(lshscope_core::Error::input(
        "x.csv", 3, "bad row",
    )))));
    assert!(app.should_quit());
    assert!(app.fatal().unwrap().to_string().contains("x.csv:3"));
}

#[test]
fn bands_and_rows_respect_b_times_r_at_most_k() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    assert_eq!(app.curve().banding, Banding { bands: 16, rows: 4 });
    cmd(&mut app, Command::BandsUp);
    assert_eq!(app.curve().banding, Banding { bands: 17, rows: 4 });
    assert_eq!(
        pending_bandings(&mut app),
        vec![Banding { bands: 17, rows: 4 }]
    );
    // 32 × 4 = 128 = K is allowed, 33 × 4 is not.
    for _ in 0..20 {
        cmd(&mut app, Command::BandsUp);
    }
    assert_eq!(app.curve().banding, Banding { bands: 32, rows: 4 });
    let msg = app.message().clone().unwrap();
    assert!(msg.error && msg.text.contains("b·r ≤ K"), "{msg:?}");
    cmd(&mut app, Command::RowsUp);
    assert_eq!(app.curve().banding.rows, 4, "32 × 5 > 128 must be refused");
    for _ in 0..40 {
        cmd(&mut app, Command::BandsDown);
    }
    assert_eq!(app.curve().banding.bands, 1);
    for _ in 0..10 {
        cmd(&mut app, Command::RowsDown);
    }
    assert_eq!(app.curve().banding, Banding { bands: 1, rows: 1 });
    for _ in 0..200 {
        cmd(&mut app, Command::RowsUp);
    }
    assert_eq!(
        app.curve().banding,
        Banding {
            bands: 1,
            rows: 128
        }
    );
    // Every accepted change asked for exactly one job; the refused ones asked for none.
    let asked = pending_bandings(&mut app);
    assert!(asked.iter().all(|b| b.bands * b.rows <= 128));
    assert_eq!(
        asked.last(),
        Some(&Banding {
            bands: 1,
            rows: 128
        })
    );
}

#[test]
fn stale_results_are_never_shown_as_current() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    let first = app.candidates().result().unwrap().banding;
    cmd(&mut app, Command::BandsUp);
    cmd(&mut app, Command::BandsUp);
    let effects = app.take_effects();
    assert_eq!(effects.len(), 2);
    let (old, new) = (&effects[0], &effects[1]);
    let Effect::Reband(old_job) = old.clone() else {
        panic!("expected a re-banding job")
    };
    let (old_id, old_b, old_p, known) = (
        old_job.id,
        old_job.request.banding,
        old_job.progress,
        old_job.request.known,
    );
    let remembered = app.candidates().known().cloned().unwrap();
    assert!(
        known.is_some_and(|p| std::sync::Arc::ptr_eq(&p, &remembered)),
        "the job reuses the similarities verified so far"
    );
    let Effect::Reband(new_job) = new.clone() else {
        panic!("expected a re-banding job")
    };
    let (new_id, new_b) = (new_job.id, new_job.request.banding);
    assert!(old_p.is_cancelled(), "the superseded job is cancelled");
    assert!(
        app.result_is_stale(),
        "the shown result answers {first}, not {}",
        app.curve().banding
    );
    // The old job's answer arrives late: dropped.
    app.update(Action::Banded(BandOutcome {
        request: old_id,
        banding: old_b,
        pairs: Default::default(),
        known: None,
        elapsed: Duration::ZERO,
        prepared: None,
    }));
    assert_eq!(app.candidates().result().unwrap().banding, first);
    assert!(app.candidates().job().is_running());
    // The newest answer is taken.
    let data = app.data().clone().unwrap();
    let pairs =
        lshscope::tui::reband(&data.index, new_b, None, None, None, &Default::default()).unwrap();
    app.update(Action::Banded(BandOutcome {
        request: new_id,
        banding: new_b,
        pairs: std::sync::Arc::new(pairs),
        known: None,
        elapsed: Duration::ZERO,
        prepared: None,
    }));
    assert_eq!(app.candidates().result().unwrap().banding, new_b);
    assert!(!app.result_is_stale());
    assert!(!app.candidates().job().is_running());
}

#[test]
fn pins_add_dedupe_cap_and_clear() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::Pin);
    cmd(&mut app, Command::Pin);
    assert_eq!(app.curve().pins, vec![Banding { bands: 16, rows: 4 }]);
    for _ in 0..10 {
        cmd(&mut app, Command::BandsDown);
        cmd(&mut app, Command::Pin);
    }
    assert_eq!(app.curve().pins.len(), lshscope::tui::theme::MAX_PINS);
    assert!(app.message().as_ref().unwrap().error);
    cmd(&mut app, Command::ClearPins);
    assert!(app.curve().pins.is_empty());
}

#[test]
fn threshold_keys_prompt_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    let count_at = |app: &lshscope::tui::app::App, t: f64| {
        app.candidates()
            .result()
            .unwrap()
            .pairs
            .iter()
            .filter(|p| p.jaccard >= t)
            .count()
    };
    assert_eq!(app.pairs_at_or_above_t(), count_at(&app, 0.5));
    cmd(&mut app, Command::ThresholdUp);
    cmd(&mut app, Command::ThresholdUp);
    assert_eq!(app.curve().threshold, 0.52);
    cmd(&mut app, Command::ThresholdDown);
    assert_eq!(app.curve().threshold, 0.51);
    cmd(&mut app, Command::ThresholdPrompt);
    assert!(matches!(app.overlay(), Overlay::Prompt(_)));
    type_prompt(&mut app, "0.8");
    assert_eq!(*app.overlay(), Overlay::None);
    assert_eq!(app.curve().threshold, 0.8);
    assert_eq!(app.pairs_at_or_above_t(), count_at(&app, 0.8));
    cmd(&mut app, Command::ThresholdPrompt);
    type_prompt(&mut app, "1.5");
    assert_eq!(app.curve().threshold, 0.8);
    assert!(app.message().as_ref().unwrap().error);
    // Backspace and cancel.
    cmd(&mut app, Command::ThresholdPrompt);
    app.update(Action::PromptInput(PromptKey::Char('9')));
    app.update(Action::PromptInput(PromptKey::Backspace));
    app.update(Action::PromptInput(PromptKey::Cancel));
    assert_eq!(*app.overlay(), Overlay::None);
    for _ in 0..30 {
        cmd(&mut app, Command::ThresholdUp);
    }
    assert_eq!(app.curve().threshold, 1.0);
}

#[test]
fn histogram_bin_filter_and_range_filter() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    let all = app.candidates().list().len();
    cmd(&mut app, Command::FocusNext);
    assert_eq!(app.focus(), Focus::Histogram);
    // Walk to the fullest bin and filter to it.
    let fullest = (0..app.hist().bins())
        .max_by_key(|&i| app.hist().counts[i])
        .unwrap();
    for _ in 0..40 {
        cmd(&mut app, Command::BinLeft);
    }
    assert_eq!(app.bin_cursor(), 0);
    for _ in 0..fullest {
        cmd(&mut app, Command::BinRight);
    }
    cmd(&mut app, Command::FilterToBin);
    assert_eq!(
        app.candidates().list().len() as u64,
        app.hist().counts[fullest]
    );
    let (lo, hi) = app.hist().bin_range(fullest);
    let result = app.candidates().result().unwrap();
    assert!(app.candidates().list().rows().iter().all(|&i| {
        let j = result.pairs[i as usize].jaccard;
        j >= lo - 1e-9 && j <= hi + 1e-9
    }));
    cmd(&mut app, Command::Back); // Esc clears the filter
    assert!(app.list_view().filter.is_none());
    assert_eq!(app.candidates().list().len(), all);
    cmd(&mut app, Command::FilterPrompt);
    type_prompt(&mut app, "0.6-1");
    let result = app.candidates().result().unwrap();
    let expected = result.pairs.iter().filter(|p| p.jaccard >= 0.6).count();
    assert_eq!(app.candidates().list().len(), expected);
    cmd(&mut app, Command::FilterPrompt);
    type_prompt(&mut app, "nonsense");
    assert!(app.message().as_ref().unwrap().error);
    assert_eq!(
        app.candidates().list().len(),
        expected,
        "a bad range keeps the old filter"
    );
    cmd(&mut app, Command::ClearFilter);
    assert_eq!(app.candidates().list().len(), all);
}

#[test]
fn sort_orders() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    let js = |app: &lshscope::tui::app::App| -> Vec<f64> {
        let r = app.candidates().result().unwrap();
        app.candidates()
            .list()
            .rows()
            .iter()
            .map(|&i| r.pairs[i as usize].jaccard)
            .collect()
    };
    assert_eq!(app.list_view().sort, SortOrder::JaccardDesc);
    assert!(js(&app).windows(2).all(|w| w[0] >= w[1]));
    cmd(&mut app, Command::CycleSort);
    assert_eq!(app.list_view().sort, SortOrder::JaccardAsc);
    assert!(js(&app).windows(2).all(|w| w[0] <= w[1]));
    cmd(&mut app, Command::CycleSort);
    assert_eq!(app.list_view().sort, SortOrder::Shuffled);
    let mut shuffled = app.candidates().list().rows().to_vec();
    let first = shuffled.clone();
    shuffled.sort();
    let n = app.candidates().result().unwrap().pairs.len() as u32;
    assert_eq!(
        shuffled,
        (0..n).collect::<Vec<_>>(),
        "a permutation of all pairs"
    );
    cmd(&mut app, Command::CycleSort);
    cmd(&mut app, Command::CycleSort);
    cmd(&mut app, Command::CycleSort);
    assert_eq!(
        app.candidates().list().rows(),
        first,
        "the shuffle is reproducible"
    );
}

#[test]
fn list_navigation_and_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::FocusPrev);
    assert_eq!(app.focus(), Focus::Pairs);
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::Down);
    assert_eq!(app.candidates().list().selected(), 2);
    cmd(&mut app, Command::Up);
    assert_eq!(app.candidates().list().selected(), 1);
    cmd(&mut app, Command::Bottom);
    assert_eq!(
        app.candidates().list().selected(),
        app.candidates().list().len() - 1
    );
    cmd(&mut app, Command::Down);
    assert_eq!(
        app.candidates().list().selected(),
        app.candidates().list().len() - 1
    );
    cmd(&mut app, Command::Top);
    assert_eq!(app.candidates().list().selected(), 0);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let pair = *app.selected_pair().unwrap();
    let view = app.viewer().pair().cloned().unwrap();
    assert_eq!((view.a(), view.b()), (pair.a, pair.b));
    let hit = view.collided().iter().filter(|&&c| c).count() as u32;
    assert_eq!(hit, pair.bands_hit, "band strip agrees with the banding");
    assert!(!view.ranges_a().is_empty() && !view.ranges_b().is_empty());
    cmd(&mut app, Command::NextPair);
    assert_eq!(app.candidates().list().selected(), 1);
    assert_ne!(
        app.viewer().pair().map(|v| (v.a(), v.b())),
        Some((view.a(), view.b()))
    );
    cmd(&mut app, Command::PrevPair);
    cmd(&mut app, Command::PrevPair);
    assert_eq!(app.candidates().list().selected(), 0);
    cmd(&mut app, Command::ToggleBandValues);
    assert!(app.viewer().show_values());
    cmd(&mut app, Command::ScrollSide);
    assert_eq!(
        app.viewer().pair().unwrap().side(),
        lshscope::tui::viewer::ScrollSide::Left
    );
    // Changing b in the viewer recomputes the strip for the new banding.
    cmd(&mut app, Command::BandsDown);
    assert_eq!(app.viewer().pair().unwrap().collided().len(), 15);
    cmd(&mut app, Command::Back);
    assert_eq!(app.view(), View::Main);
    assert!(app.viewer().pair().is_none());
}

#[test]
fn jump_to_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::JumpPrompt);
    type_prompt(&mut app, "train-2");
    let data = app.data().clone().unwrap();
    let p = *app.selected_pair().unwrap();
    let ids = [data.corpus.id(p.a as usize), data.corpus.id(p.b as usize)];
    assert_eq!(ids, ["train-1", "train-2"]);
    assert!(
        app.candidates().list().selected() > 0,
        "the pair is not the first one: the jump moved"
    );
    cmd(&mut app, Command::JumpPrompt);
    type_prompt(&mut app, "no-such-id");
    assert!(app.message().as_ref().unwrap().error);
    cmd(&mut app, Command::JumpPrompt);
    type_prompt(&mut app, "bread-3");
    let msg = app.message().clone().unwrap();
    assert!(msg.error && msg.text.contains("no candidate"), "{msg:?}");
}

/// Width, height and RGB pixels of a PNG file.
fn decode_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "{}", path.display());
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Checks an SVG is one complete document of the export size and returns its text.
fn read_svg(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.trim_start().starts_with("<svg"), "{}", path.display());
    assert!(text.trim_end().ends_with("</svg>"), "{}", path.display());
    assert!(
        text.contains(r#"width="1200""#) && text.contains(r#"height="800""#),
        "{}",
        path.display()
    );
    text
}

#[test]
fn export_writes_the_filtered_pairs_and_the_plots() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    // A pinned comparison curve, the log scale and a threshold the plots must show.
    cmd(&mut app, Command::Pin);
    cmd(&mut app, Command::RowsUp);
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleLog);
    cmd(&mut app, Command::ThresholdPrompt);
    type_prompt(&mut app, "0.62");
    cmd(&mut app, Command::FilterPrompt);
    type_prompt(&mut app, "0.5");
    let n = app.candidates().list().len();
    let total = app.hist().total();
    cmd(&mut app, Command::Export);
    let path = dir.path().join("fixture.pairs.16x5.csv");
    let plots = [
        "fixture.scurve.16x5.svg",
        "fixture.scurve.16x5.png",
        "fixture.histogram.16x5.svg",
        "fixture.histogram.16x5.png",
    ]
    .map(|name| dir.path().join(name));
    assert!(
        !path.exists() && plots.iter().all(|p| !p.exists()),
        "the files are written by the worker, not the UI thread"
    );
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .starts_with("exporting")
    );
    run_effects(&mut app);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("id_a,id_b,jaccard,estimate,bands_hit,label\n"));
    assert_eq!(text.lines().count(), n + 1);
    let msg = app.message().clone().unwrap();
    assert!(!msg.error, "{msg:?}");
    assert!(msg.text.contains(&path.display().to_string()), "{msg:?}");
    assert!(
        msg.text.contains("fixture.scurve.16x5.{svg,png}")
            && msg.text.contains("fixture.histogram.16x5.{svg,png}"),
        "the message names the plots: {msg:?}"
    );

    // The S-curve: current banding and the pin, each in the legend, and the threshold.
    let scurve = read_svg(&plots[0]);
    assert!(scurve.contains("K = 128"), "title names K");
    assert!(scurve.contains("16 × 5 (80 hashes)"), "current curve");
    assert!(scurve.contains("16 × 4 (64 hashes)"), "pinned curve");
    assert!(scurve.contains("threshold t = 0.62"));
    // The histogram: the panel's counts (all candidates, not just the filtered list), the
    // log scale and the overlay of the banding those candidates come from.
    let hist = read_svg(&plots[2]);
    // Grouped as every count in the explorer is (`1,234 pairs in all`).
    let grouped = lshscope_core::util::numfmt::thousands(total);
    assert!(
        hist.contains(&format!("{grouped} pairs in all")),
        "{grouped}"
    );
    assert!(hist.contains("log scale"));
    assert!(hist.contains("16 bands × 5 rows"));
    assert!(hist.contains("threshold t = 0.62"));

    for png in [&plots[1], &plots[3]] {
        let (w, h, rgb) = decode_png(png);
        assert_eq!((w, h), (1200, 800), "{}", png.display());
        assert_eq!(rgb.len(), 1200 * 800 * 3);
        // A drawn figure: mostly white background, and some coloured (curve/bar) pixels.
        let white = rgb.chunks(3).filter(|p| p == &[255, 255, 255]).count();
        let coloured = rgb
            .chunks(3)
            .filter(|p| p.iter().max().unwrap() - p.iter().min().unwrap() > 60)
            .count();
        assert!(white > 1200 * 800 / 2, "{}: {white} white", png.display());
        assert!(coloured > 2000, "{}: {coloured} coloured", png.display());
    }
}

#[test]
fn export_during_rebanding_waits_for_the_current_banding() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::BandsUp);
    assert!(app.result_is_stale());
    cmd(&mut app, Command::Export);
    assert!(app.candidates().export_pending());
    assert!(
        app.message().as_ref().unwrap().text.contains("17×4"),
        "{:?}",
        app.message()
    );
    // The queued job answers 17 × 4; only then is the export queued, for 17 × 4.
    let effects = app.take_effects();
    assert!(
        effects.iter().all(|e| matches!(e, Effect::Reband { .. })),
        "no export of the stale candidates"
    );
    run_given_effects(&mut app, effects);
    assert!(!app.candidates().export_pending());
    assert_eq!(run_effects(&mut app), 1, "the export runs after the answer");
    assert!(dir.path().join("fixture.pairs.17x4.csv").exists());
    assert!(dir.path().join("fixture.histogram.17x4.png").exists());
    assert!(!dir.path().join("fixture.pairs.16x4.csv").exists());
}

/// The worker's precomputed histogram and list order give the same screen state as the App
/// computing them itself; and an order prepared for a view the user has since changed is
/// not used.
#[test]
fn prepared_results_match_the_apps_own_and_stale_views_are_recomputed() {
    let dir = tempfile::tempdir().unwrap();
    let mut own = ready_app(dir.path(), SIZE);
    let mut prepared = ready_app(dir.path(), SIZE);
    for app in [&mut own, &mut prepared] {
        cmd(app, Command::Down);
        cmd(app, Command::CycleSort);
        cmd(app, Command::RowsDown);
    }
    let effects = own.take_effects();
    let Some(Effect::Reband(job)) = effects.into_iter().last() else {
        panic!("a re-banding job")
    };
    let (request, banding, view, bins) = (
        job.id,
        job.request.banding,
        job.request.view,
        job.request.bins,
    );
    let data = own.data().clone().unwrap();
    let pairs = std::sync::Arc::new(
        lshscope::tui::reband(&data.index, banding, None, None, None, &Default::default()).unwrap(),
    );
    let outcome = |prepared| BandOutcome {
        request,
        banding,
        pairs: pairs.clone(),
        known: None,
        elapsed: Duration::ZERO,
        prepared,
    };
    own.update(Action::Banded(outcome(None)));
    prepared.take_effects();
    // While the job ran, the user changed the sort: the prepared order is for the old view.
    cmd(&mut prepared, Command::CycleSort);
    cmd(&mut prepared, Command::CycleSort);
    cmd(&mut prepared, Command::CycleSort);
    assert_eq!(prepared.list_view().sort, own.list_view().sort);
    let mut stale_view = view;
    stale_view.sort = SortOrder::Shuffled;
    let wrong = lshscope::tui::candidates::Prepared::new(&pairs, bins, stale_view);
    prepared.update(Action::Banded(outcome(Some(Box::new(wrong)))));
    assert_eq!(
        prepared.candidates().list().rows(),
        own.candidates().list().rows(),
        "recomputed for the current view"
    );
    // And with the view unchanged, the prepared order is used as is.
    let mut again = ready_app(dir.path(), SIZE);
    cmd(&mut again, Command::RowsDown);
    run_effects(&mut again);
    let mut reference = ready_app(dir.path(), SIZE);
    cmd(&mut reference, Command::RowsDown);
    let Some(Effect::Reband(job)) = reference.take_effects().into_iter().last() else {
        panic!("a re-banding job")
    };
    let request = job.id;
    reference.update(Action::Banded(BandOutcome {
        request,
        ..outcome(None)
    }));
    assert_eq!(
        again.candidates().list().rows(),
        reference.candidates().list().rows()
    );
    assert_eq!(again.hist(), reference.hist());
    assert_eq!(
        again.candidates().list().selected(),
        reference.candidates().list().selected()
    );
    assert_eq!(again.pairs_at_or_above_t(), reference.pairs_at_or_above_t());
    assert_eq!(prepared.hist(), own.hist());
    assert_eq!(
        prepared.candidates().list().selected(),
        own.candidates().list().selected()
    );
}

#[test]
fn help_opens_and_any_key_closes_it_and_quit_cancels_work() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), SIZE);
    cmd(&mut app, Command::Help);
    assert_eq!(*app.overlay(), Overlay::Help);
    cmd(&mut app, Command::Pin);
    assert_eq!(*app.overlay(), Overlay::None);
    cmd(&mut app, Command::Quit);
    assert!(app.should_quit());
    assert!(app.load().progress.is_cancelled());
}

#[test]
fn mouse_click_on_a_bin_filters_and_on_a_row_selects() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    let l = lshscope::tui::layout::main_layout(SIZE);
    let g = lshscope::tui::layout::histogram_geometry(l.histogram, app.hist().bins());
    let bin = (0..app.hist().bins())
        .find(|&i| app.hist().counts[i] > 0)
        .unwrap();
    let x = g.plot.x + g.bin_columns(bin).start;
    app.update(Action::Click(x, g.plot.y + 1));
    assert_eq!(app.focus(), Focus::Histogram);
    assert_eq!(app.list_view().filter.unwrap().bin, Some(bin));
    assert_eq!(app.candidates().list().len() as u64, app.hist().counts[bin]);
    cmd(&mut app, Command::ClearFilter);
    app.update(Action::Click(l.pairs.x + 3, l.pairs.y + 2 + 2));
    assert_eq!(app.focus(), Focus::Pairs);
    assert_eq!(app.candidates().list().selected(), 2);
    app.update(Action::Wheel(l.pairs.x + 3, l.pairs.y + 3, true));
    assert_eq!(
        app.candidates().list().selected(),
        (2 + 3).min(app.candidates().list().len() - 1)
    );
}

#[test]
fn oversized_bandings_are_refused_before_they_exhaust_memory() {
    use lshscope_core::corpus::Corpus;
    use lshscope_core::minhash::{IndexOptions, build_index};
    let mut docs = vec!["the same words again and again"; 10];
    docs.push("something else entirely");
    let index = build_index(
        &Corpus::from_texts(docs),
        &IndexOptions::default(),
        &Default::default(),
    )
    .unwrap();
    let b = Banding { bands: 8, rows: 2 };
    // Ten identical documents share every bucket: C(10, 2) = 45 pairs per band.
    assert_eq!(
        lshscope::tui::estimated_bucket_pairs(&index, b, None),
        45 * 8
    );
    assert_eq!(
        lshscope::tui::estimated_bucket_pairs(&index, b, Some(4)),
        6 * 8
    );

    // A failure answering the newest request is shown; one for an older request is not.
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::BandsUp);
    cmd(&mut app, Command::BandsUp);
    let ids: Vec<u64> = app
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Reband(job) => Some(job.id),
            _ => None,
        })
        .collect();
    app.update(Action::BandFailed {
        request: ids[0],
        message: "old".into(),
    });
    assert!(app.candidates().job().is_running() && app.message().is_none());
    app.update(Action::BandFailed {
        request: ids[1],
        message: "too many pairs".into(),
    });
    assert!(!app.candidates().job().is_running());
    let msg = app.message().clone().unwrap();
    assert!(msg.error && msg.text.contains("too many pairs"));
    assert!(
        app.result_is_stale(),
        "the old histogram stays, marked as not current"
    );
}

#[test]
fn rebanding_reuses_similarities_and_matches_a_fresh_verification() {
    let data = loaded_data();
    let p = lshscope_core::jobs::Progress::new();
    let wide = Banding { bands: 32, rows: 2 };
    let first = lshscope::tui::reband(&data.index, BANDING, None, None, None, &p).unwrap();
    let fresh = lshscope::tui::reband(&data.index, wide, None, None, None, &p).unwrap();
    let reused = lshscope::tui::reband(&data.index, wide, None, Some(&first), None, &p).unwrap();
    assert!(fresh.len() > first.len(), "32×2 finds more pairs than 16×4");
    assert_eq!(fresh, reused);
    assert!(
        reused
            .iter()
            .all(|v| v.jaccard.is_finite() && v.estimate.is_finite())
    );
}

#[test]
fn viewer_scrolls_both_or_one_side_and_stops_at_the_end() {
    use lshscope::tui::viewer::ScrollSide;
    use lshscope_core::corpus::Corpus;
    let words = [
        "river", "stone", "lantern", "meadow", "copper", "violet", "harbor", "ember",
    ];
    let long: String = (0..600)
        .map(|i| words[(i * 7 + i / 3) % 8])
        .collect::<Vec<_>>()
        .join(" ");
    let mut edited = long.clone();
    edited.replace_range(100..110, "XXXXXXXXXX");
    let corpus = Corpus::from_pairs([
        ("long-a", long.as_str()),
        ("long-b", edited.as_str()),
        ("other", "short"),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on(corpus, dir.path());
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let scroll = |app: &lshscope::tui::app::App| {
        let v = app.viewer().pair().unwrap();
        (v.scroll_a(), v.scroll_b())
    };
    for _ in 0..5 {
        cmd(&mut app, Command::Down);
    }
    assert_eq!(scroll(&app), (5, 5));
    cmd(&mut app, Command::ScrollSide);
    assert_eq!(app.viewer().pair().unwrap().side(), ScrollSide::Left);
    cmd(&mut app, Command::Down);
    assert_eq!(scroll(&app), (6, 5));
    cmd(&mut app, Command::ScrollSide);
    cmd(&mut app, Command::Up);
    assert_eq!(scroll(&app), (6, 4));
    cmd(&mut app, Command::ScrollSide);
    assert_eq!(app.viewer().pair().unwrap().side(), ScrollSide::Both);
    for _ in 0..100 {
        cmd(&mut app, Command::PageDown);
    }
    let width = lshscope::tui::layout::viewer_text_width(SIZE);
    let rows = lshscope::tui::layout::viewer_text_rows(SIZE, false, BANDING.bands);
    let lines = lshscope::tui::layout::wrapped_line_count(&long, width);
    assert!(lines > rows, "the fixture must be longer than the view");
    assert_eq!(
        scroll(&app).0,
        lines - rows,
        "scrolling stops at the last screenful"
    );
    for _ in 0..100 {
        cmd(&mut app, Command::PageUp);
    }
    assert_eq!(scroll(&app), (0, 0));
    let screen = screen(&app, SIZE.0, SIZE.1);
    assert!(
        screen.contains(&format!("lines 1–{rows} of {lines}")),
        "{screen}"
    );
}

/// Hints in messages name the key the table binds, so a rebinding changes them too.
#[test]
fn message_hints_come_from_the_key_table() {
    use lshscope::tui::keys::hint;
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    cmd(&mut app, Command::ToggleMissed);
    let msg = app.message().clone().unwrap();
    assert!(
        msg.error
            && msg
                .text
                .contains(&format!("{} computes it", hint(Command::ComputeTruth))),
        "{msg:?}"
    );
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::FilterToBin);
    let msg = app.message().clone().unwrap();
    assert!(
        msg.text
            .contains(&format!("({} clears)", hint(Command::ClearFilter))),
        "{msg:?}"
    );
    for _ in 0..lshscope::tui::theme::MAX_PINS {
        cmd(&mut app, Command::Pin);
        cmd(&mut app, Command::BandsDown);
    }
    cmd(&mut app, Command::Pin);
    let msg = app.message().clone().unwrap();
    assert!(
        msg.text
            .contains(&format!("{} clears them", hint(Command::ClearPins))),
        "{msg:?}"
    );
}

#[test]
fn the_readers_warning_shows_in_the_status_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(dir.path(), (120, 40));
    let mut data = loaded_data();
    data.read.warnings = vec!["stdin looks like CSV with a header; read as text lines".into()];
    app.update(Action::Loaded(Box::new(Ok(data))));
    let screen = screen(&app, 120, 40);
    assert!(screen.contains("stdin looks like CSV"), "{screen}");
}

/// Row `y` of `buffer` between columns `xs`, as text.
fn row_text(buffer: &ratatui::buffer::Buffer, y: u16, xs: std::ops::Range<u16>) -> String {
    xs.map(|x| buffer[(x, y)].symbol()).collect()
}

/// The whole buffer as text, for failure messages.
fn buffer_text(buffer: &ratatui::buffer::Buffer) -> String {
    (0..buffer.area.height)
        .map(|y| row_text(buffer, y, 0..buffer.area.width) + "\n")
        .collect()
}

/// A line that fills `xs` to its last column is cut: it must end there with `…`. A line
/// that ends short of the edge was not cut.
fn assert_ends_marked(buffer: &ratatui::buffer::Buffer, y: u16, xs: std::ops::Range<u16>) {
    let last = buffer[(xs.end - 1, y)].symbol();
    assert!(
        last == " " || last == "…",
        "row {y}, columns {xs:?} run to the edge without `…`: {:?}\n{}",
        row_text(buffer, y, xs.clone()),
        buffer_text(buffer)
    );
}

/// At the narrowest size the explorer draws in, the lines too wide for their area (panel
/// titles, the histogram's bin line, the S-curve's legend lines, the footer) end with `…`
/// where they are cut, and no status, count or legend line reaches its edge without it.
#[test]
fn narrow_screens_end_cut_lines_with_an_ellipsis() {
    use lshscope::tui::layout::{histogram_geometry, main_layout};
    let size @ (w, h) = (80, 24);
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), size);
    // With a bin under the cursor the histogram shows its longest line.
    cmd(&mut app, Command::FocusNext);
    assert_eq!(app.focus(), Focus::Histogram);
    let buffer = cell_styles(&app, w, h);
    let screen = buffer_text(&buffer);
    let l = main_layout(size);
    let g = histogram_geometry(l.histogram, app.hist().bins());

    let hist = l.histogram;
    let title = row_text(&buffer, hist.y, hist.x + 1..hist.right() - 1);
    assert!(
        title.starts_with(" Exact Jaccard of candidates") && title.trim_end().ends_with('…'),
        "{title:?}\n{screen}"
    );
    let counts = row_text(&buffer, g.info.y, g.info.x..g.info.right());
    assert!(counts.starts_with("│ t = 0.50: "), "{counts:?}\n{screen}");
    let bin = row_text(&buffer, g.info.y + 1, g.info.x..g.info.right());
    assert!(
        bin.starts_with("bin [") && bin.trim_end().ends_with('…'),
        "{bin:?}\n{screen}"
    );
    let footer = row_text(&buffer, l.footer.y, 0..w);
    // The footer drops whole entries from the right and keeps `? help` to the last.
    assert!(
        footer.trim_end().ends_with("? help"),
        "{footer:?}\n{screen}"
    );

    // Every one-line text area: the status line, the message, the footer, the histogram's
    // count and bin lines, the S-curve's four lines under the chart, and the panel titles
    // (whose last column before the corner is border, blank or `…`).
    let mut rows = vec![
        (l.status.y, 0..w),
        (l.message.y, 0..w),
        (l.footer.y, 0..w),
        (g.info.y, g.info.x..g.info.right()),
        (g.info.y + 1, g.info.x..g.info.right()),
    ];
    let curve = l.curve;
    rows.extend(
        (curve.bottom() - 5..curve.bottom() - 1).map(|y| (y, curve.x + 1..curve.right() - 1)),
    );
    for (y, xs) in rows {
        assert_ends_marked(&buffer, y, xs);
    }
    for panel in [l.curve, l.histogram, l.pairs] {
        let last = buffer[(panel.right() - 2, panel.y)].symbol();
        assert!(
            last == "─" || last == " " || last == "…",
            "the title of the panel at {panel:?} runs into the corner\n{screen}"
        );
    }
}

/// The histogram panel alone in a narrow area: its count line, wider than the panel, ends
/// with `…` at the border, and the border is intact on every row.
#[test]
fn a_narrow_histogram_panel_cuts_its_count_line_with_an_ellipsis() {
    use lshscope::tui::layout::histogram_geometry;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let dir = tempfile::tempdir().unwrap();
    let app = ready_app(dir.path(), SIZE);
    let (w, h) = (32, 14);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|frame| lshscope::tui::ui::histogram::render(frame, &app, frame.area()))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let screen = buffer_text(&buffer);
    let g = histogram_geometry(buffer.area, app.hist().bins());
    let counts = row_text(&buffer, g.info.y, g.info.x..g.info.right());
    assert!(
        counts.starts_with("│ t = 0.50: ") && counts.trim_end().ends_with('…'),
        "{counts:?}\n{screen}"
    );
    for y in 1..h - 1 {
        assert_eq!(buffer[(0, y)].symbol(), "│", "{screen}");
        assert_eq!(buffer[(w - 1, y)].symbol(), "│", "{screen}");
    }
}

/// The pair viewer at 80 columns: each header line is either whole or cut with `…` (compared
/// with the same lines at 200 columns), and the band strip's title keeps whole words.
#[test]
fn a_narrow_pair_viewer_ends_cut_header_lines_with_an_ellipsis() {
    use lshscope::tui::layout::viewer_layout;
    use unicode_width::UnicodeWidthStr;
    let size @ (w, h) = (80, 24);
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), size);
    cmd(&mut app, Command::FocusPrev);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let buffer = cell_styles(&app, w, h);
    let wide = cell_styles(&app, 200, h);
    let screen = buffer_text(&buffer);
    let l = viewer_layout(size, false, app.curve().banding.bands);
    let mut cut = 0;
    for y in l.header.y..l.header.bottom() {
        let full = row_text(&wide, y, 0..200).trim_end().to_string();
        let shown = row_text(&buffer, y, 0..w).trim_end().to_string();
        if full.width() <= usize::from(w) {
            assert_eq!(shown, full, "\n{screen}");
        } else {
            // Whole words went (` …`), or the line took its short form: either way every
            // word shown is a whole word of the full line.
            let kept = shown.strip_suffix('…').unwrap_or(&shown).trim_end();
            // Words without their brackets and commas: a short form may regroup a
            // parenthesis ("(edit-based, whole texts)" → "(whole texts)").
            let bare = |w: &str| w.trim_matches(|c: char| "(),".contains(c)).to_string();
            let full_words: Vec<String> = full.split_whitespace().map(bare).collect();
            for word in kept.split_whitespace().map(bare) {
                assert!(
                    full_words.contains(&word),
                    "header line {y}: {word:?} of {shown:?} is not a word of {full:?}"
                );
            }
            cut += 1;
        }
    }
    assert!(
        cut > 0,
        "the metrics line is wider than 80 columns\n{screen}"
    );
    // The band strip's title drops its hints rather than cut a word.
    let strip = row_text(&buffer, l.strip.y, 1..w - 1);
    let wide_layout = viewer_layout((200, h), false, app.curve().banding.bands);
    let wide_strip = row_text(&wide, wide_layout.strip.y, 1..199);
    let words = |t: &str| -> Vec<String> {
        t.split_whitespace()
            .filter(|w| !w.chars().all(|c| c == '─'))
            .map(|w| w.trim_end_matches('─').to_string())
            .collect()
    };
    assert!(
        strip.starts_with(" Band strip ")
            && strip.contains("bands collided")
            && !strip.contains('…'),
        "{strip:?}\n{screen}"
    );
    let wide_words = words(&wide_strip);
    for word in words(&strip) {
        assert!(
            wide_words.contains(&word),
            "{word:?} of {strip:?} in {wide_strip:?}"
        );
    }
    assert!(
        words(&strip).len() < wide_words.len(),
        "the hint went at 80 columns: {strip:?}"
    );
}

/// The viewer's status line says what each of its keys did: the words come from the App,
/// the facts (how many differences, which match, whether a step wrapped) from the viewer's
/// state. Each message here is one no other test reaches.
#[test]
fn the_viewer_says_what_its_keys_did() {
    use lshscope_core::corpus::Corpus;
    let sentence = |i: usize, word: &str| {
        format!("Sentence {i} of the notice says the {word} clause holds for every party.")
    };
    let text = |changed: bool| {
        (0..40)
            .map(|i| {
                sentence(
                    i,
                    if changed && i == 20 {
                        "amended"
                    } else {
                        "standing"
                    },
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let corpus = Corpus::from_pairs([
        ("notice", text(false).as_str()),
        ("notice-copy", text(false).as_str()),
        ("notice-amended", text(true).as_str()),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on(corpus, dir.path());
    let said = |app: &lshscope::tui::app::App| {
        app.message()
            .as_ref()
            .map(|m| m.text.clone())
            .unwrap_or_default()
    };
    let search = |app: &mut lshscope::tui::app::App, words: &str| {
        cmd(app, Command::SearchPrompt);
        type_prompt(app, words);
    };

    // The list starts with the identical copies (Jaccard 1).
    cmd(&mut app, Command::Open);
    let view = app.viewer().pair().expect("a pair is open");
    assert_eq!(view.jaccard(), 1.0);
    cmd(&mut app, Command::NextMatch);
    assert!(said(&app).starts_with("no search yet: "), "{}", said(&app));
    cmd(&mut app, Command::NextDifference);
    assert!(app.viewer().diff_mode(), "] turns diff mode on");
    assert_eq!(said(&app), "the texts do not differ");
    cmd(&mut app, Command::ToggleDiff);
    assert_eq!(said(&app), "diff mode off: highlighting shared shingles");
    search(&mut app, "clause");
    assert!(app.viewer().pair().unwrap().search().is_some());
    search(&mut app, "");
    assert_eq!(said(&app), "search cleared");
    assert!(app.viewer().pair().unwrap().search().is_none());

    // The amended copy: one difference, half-way down.
    cmd(&mut app, Command::NextPair);
    let view = app.viewer().pair().expect("the next pair opens");
    assert!(view.jaccard() < 1.0, "J = {}", view.jaccard());
    search(&mut app, "Sentence 0 ");
    assert!(said(&app).starts_with("match 1 of 1 "), "{}", said(&app));
    cmd(&mut app, Command::PrevMatch);
    assert!(
        said(&app).ends_with(" · from the end again"),
        "{}",
        said(&app)
    );
    cmd(&mut app, Command::ToggleDiff);
    assert!(
        said(&app).starts_with("diff mode: 1 difference "),
        "{}",
        said(&app)
    );
    cmd(&mut app, Command::PrevDifference);
    assert_eq!(said(&app), "no difference before this one (1 in all)");
    cmd(&mut app, Command::NextDifference);
    assert_eq!(said(&app), "difference 1 of 1");
    assert_eq!(app.viewer().pair().unwrap().difference(), Some(0));
    cmd(&mut app, Command::NextDifference);
    assert_eq!(said(&app), "no difference after this one (1 in all)");
}

/// An App at `SIZE` with `corpus` loaded and indexed with the default options (as a user's
/// first run), its effects run; labels go to `dir`.
fn app_on(corpus: lshscope_core::corpus::Corpus, dir: &std::path::Path) -> lshscope::tui::app::App {
    use lshscope_core::minhash::{IndexOptions, build_index};
    use lshscope_core::pipeline::Loaded;
    let index = build_index(&corpus, &IndexOptions::default(), &Default::default()).unwrap();
    let mut app = new_app(dir, SIZE);
    app.update(Action::Loaded(Box::new(Ok(Loaded {
        corpus,
        index,
        read: Default::default(),
    }))));
    run_effects(&mut app);
    app
}

/// At 80 columns, ids of 24 characters and more give way to the text column: the pair list
/// keeps at least 10 characters of each pair's text (two 24-character ids left none, and `v`,
/// which changes that column, seemed to do nothing).
#[test]
fn at_80_columns_long_ids_leave_room_for_the_text() {
    use lshscope_core::corpus::Corpus;
    let text = "libraries for reading and writing compressed archives of many formats";
    let edited = "libraries for reading and writing compressed archives of most formats";
    let corpus = Corpus::from_pairs([
        ("libboost-interprocess-container-dev", text),
        ("libboost-interprocess-container-doc", edited),
        ("other", "short"),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let app = app_on(corpus, dir.path());
    let shown = screen(&app, 80, 24);
    let row = shown
        .lines()
        .find(|l| l.starts_with("│1 ") && l.contains("0.8"))
        .unwrap_or_else(|| panic!("a row of the pair: {shown}"));
    // Text A from a few words before its first difference from B.
    assert!(row.contains("…compresse"), "{row}");
    assert!(
        row.contains("libbo…-dev"),
        "the ids are cut to make room: {row}"
    );
}
