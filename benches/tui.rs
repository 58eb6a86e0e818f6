//! Explorer benchmarks: how long a b or r step takes to reach the screen, and how long one
//! frame takes to draw. Run with `cargo bench --bench tui`.
//!
//! The corpora are generated in memory with the defaults of `lshscope gen` (300-character
//! documents, planted pairs at seven Jaccard levels) at 100k and 1M documents; the explorer
//! starts at 20 × 5 over K = 128 as `lshscope explore` does.
//!
//! - `reband_*`: the worker's job, `tui::reband` (find_candidates, then similarities reused
//!   from the previous result by a merge and only the new pairs verified), from 20 × 5 to
//!   the neighbouring banding.
//! - `worker_job_bands_up`: the whole worker job of that step (re-banding, the union of known
//!   similarities, the prepared result) run through the job runner's `run_inline` and the
//!   same job function its thread calls.
//! - `prepare_result`: the worker's next step, histogram counts and the sorted pair list.
//! - `apply_result`: the UI thread's share, `App::update(Action::Banded)` with that prepared
//!   result (labels, count ≥ t, the selection kept).
//! - `frame_*`: drawing the main screen and the pair viewer into a 200 × 60 `TestBackend`.
//!
//! A b or r step costs the user `reband_*` + `prepare_result` + `apply_result` (+ a frame);
//! only `apply_result` and the frame hold the UI thread.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use divan::{Bencher, black_box};
use lshscope::tui::app::{Action, App, Effect, Inputs};
use lshscope::tui::candidates::{BandOutcome, Prepared, RebandRequest};
use lshscope::tui::keys::Command;
use lshscope::tui::reband;
use lshscope::tui::session::{Config, Source};
use lshscope_core::analysis::labels::LabelStore;
use lshscope_core::corpus::ReadReport;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::minhash::{Banding, IndexOptions, build_index};
use lshscope_core::pipeline::Loaded;
use lshscope_core::synthetic::words::{GenOptions, generate};
use lshscope_core::text::ShingleOptions;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    divan::main();
}

const SIZES: [usize; 2] = [100_000, 1_000_000];
const START: Banding = Banding { bands: 20, rows: 5 };
const FRAME: (u16, u16) = (200, 60);

/// A generated corpus, its index, and the verified candidates of [`START`].
struct Setup {
    data: Arc<Loaded>,
    start: Arc<Vec<VerifiedPair>>,
}

fn setup(docs: usize) -> &'static Setup {
    static SMALL: OnceLock<Setup> = OnceLock::new();
    static LARGE: OnceLock<Setup> = OnceLock::new();
    let cell = match docs {
        100_000 => &SMALL,
        1_000_000 => &LARGE,
        _ => unreachable!("sizes are listed in SIZES"),
    };
    cell.get_or_init(|| {
        let clock = std::time::Instant::now();
        let (corpus, _) = generate(&GenOptions {
            documents: docs,
            length: 300,
            levels: vec![0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
            pairs_per_level: 200,
            seed: 1,
            shingle: ShingleOptions::default(),
        });
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let start = reband(&index, START, None, None, None, &Progress::new()).unwrap();
        eprintln!(
            "[setup] {docs} documents, {} candidates at {START}, in {:.1} s",
            start.len(),
            clock.elapsed().as_secs_f64()
        );
        Setup {
            data: Arc::new(Loaded {
                read: ReadReport::of_corpus(&corpus),
                corpus,
                index,
            }),
            start: Arc::new(start),
        }
    })
}

/// The worker's job for a step from [`START`] to `to`, as the explorer runs it.
fn bench_step(bencher: Bencher, docs: usize, to: Banding) {
    let s = setup(docs);
    bencher.bench(|| {
        reband(
            &s.data.index,
            black_box(to),
            None,
            Some(&s.start),
            None,
            &Progress::new(),
        )
        .unwrap()
    });
}

/// The whole worker job of a b step (20 × 5 → 21 × 5) as the explorer's runner thread runs
/// it: `reband`, the union of known similarities and the prepared histogram and list, through
/// `jobs::run_inline` and the job function the runner calls.
#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn worker_job_bands_up(bencher: Bencher, docs: usize) {
    let s = setup(docs);
    bencher
        .with_inputs(|| {
            lshscope_core::jobs::Ticket::new(
                1,
                RebandRequest {
                    data: Arc::clone(&s.data),
                    banding: Banding { bands: 21, rows: 5 },
                    max_bucket: None,
                    known: Some(Arc::clone(&s.start)),
                    view: ready_view(),
                    bins: 20,
                    sampling: Default::default(),
                },
            )
        })
        .bench_values(|job| {
            lshscope_core::jobs::run_inline(job, lshscope::tui::run_reband_job)
                .flatten()
                .is_some()
        });
}

/// The list view the explorer starts with (J ↓, no filter).
fn ready_view() -> lshscope::tui::list::ListView {
    lshscope::tui::list::ListView {
        filter: None,
        sort: lshscope::tui::list::SortOrder::JaccardDesc,
        shuffle_seed: config().shuffle_seed,
    }
}

/// One more band: 20 × 5 → 21 × 5.
#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn reband_bands_up(bencher: Bencher, docs: usize) {
    bench_step(bencher, docs, Banding { bands: 21, rows: 5 });
}

/// One more row: 20 × 5 → 20 × 6 (fewer candidates, nearly all known).
#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn reband_rows_up(bencher: Bencher, docs: usize) {
    bench_step(bencher, docs, Banding { bands: 20, rows: 6 });
}

/// One row less: 20 × 5 → 20 × 4, the expensive direction (on this corpus ~25× more
/// candidates, nearly all new). At 1M it is refused up front (over `MAX_BUCKET_PAIRS`).
#[divan::bench(args = [100_000], sample_count = 5, sample_size = 1)]
fn reband_rows_down(bencher: Bencher, docs: usize) {
    bench_step(bencher, docs, Banding { bands: 20, rows: 4 });
}

fn config() -> Config {
    Config {
        source: Source::EmbeddedSample,
        source_name: "generated".to_string(),
        index_options: IndexOptions::default(),
        banding: START,
        threshold: 0.5,
        max_bucket: None,
        export_dir: std::env::temp_dir(),
        export_stem: "bench".to_string(),
        monochrome: false,
        bins: 20,
        shuffle_seed: 1,
        advance: false,
    }
}

/// An App showing the candidates of [`START`] on the corpus of `docs` documents. Its labels
/// file (in the temporary directory) is never written: nothing is labelled.
fn ready_app(docs: usize) -> App {
    let s = setup(docs);
    let labels = std::env::temp_dir().join(format!(
        "lshscope-bench-tui-{}.labels.csv",
        std::process::id()
    ));
    let mut app = App::new(
        config(),
        LabelStore::load(labels).unwrap(),
        Inputs::default(),
        FRAME,
    );
    app.attach(Arc::clone(&s.data));
    answer(&mut app, &s.start);
    app
}

/// The outcome answering the App's queued re-banding with `pairs` (already computed), with
/// the histogram and list order prepared as the worker does.
fn outcome(app: &mut App, pairs: &Arc<Vec<VerifiedPair>>) -> BandOutcome {
    let Some(Effect::Reband(job)) = app.take_effects().into_iter().last() else {
        panic!("a re-banding job is queued")
    };
    let RebandRequest {
        banding,
        view,
        bins,
        ..
    } = job.request;
    BandOutcome {
        request: job.id,
        banding,
        pairs: Arc::clone(pairs),
        known: None,
        elapsed: Duration::ZERO,
        prepared: Some(Box::new(Prepared::new(pairs, bins, view))),
    }
}

fn answer(app: &mut App, pairs: &Arc<Vec<VerifiedPair>>) {
    let outcome = outcome(app, pairs);
    app.update(Action::Banded(outcome));
}

fn step_up(s: &Setup) -> Arc<Vec<VerifiedPair>> {
    Arc::new(
        reband(
            &s.data.index,
            Banding { bands: 21, rows: 5 },
            None,
            Some(&s.start),
            None,
            &Progress::new(),
        )
        .unwrap(),
    )
}

/// The worker's share after re-banding: histogram counts and the sorted list (J ↓, no
/// filter) of the 21 × 5 candidates.
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn prepare_result(bencher: Bencher, docs: usize) {
    let up = step_up(setup(docs));
    let view = ready_app(docs).list_view();
    bencher.bench(|| Prepared::new(&up, 20, view));
}

/// The UI thread's share when a prepared result arrives (labels into the histogram, count
/// ≥ t, selection kept): alternately 21 × 5 and back to 20 × 5.
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn apply_result(bencher: Bencher, docs: usize) {
    let s = setup(docs);
    let up = step_up(s);
    let app = RefCell::new(ready_app(docs));
    let mut step = 0usize;
    bencher
        .with_inputs(|| {
            step += 1;
            let (command, pairs) = if step % 2 == 1 {
                (Command::BandsUp, &up)
            } else {
                (Command::BandsDown, &s.start)
            };
            let mut app = app.borrow_mut();
            app.update(Action::Command(command));
            outcome(&mut app, pairs)
        })
        .bench_local_values(|outcome| {
            let mut app = app.borrow_mut();
            app.update(Action::Banded(outcome));
            app.candidates().list().len()
        });
}

fn draw(terminal: &mut Terminal<TestBackend>, app: &App) {
    terminal
        .draw(|frame| lshscope::tui::ui::render(frame, app))
        .unwrap();
}

/// One frame of the main screen (S-curve with two pins, histogram, 50-row pair list).
#[divan::bench]
fn frame_main(bencher: Bencher) {
    let mut app = ready_app(SIZES[0]);
    app.update(Action::Command(Command::Pin));
    app.update(Action::Command(Command::RowsUp));
    app.update(Action::Command(Command::Pin));
    app.update(Action::Command(Command::RowsDown));
    answer(&mut app, &setup(SIZES[0]).start);
    let mut terminal = Terminal::new(TestBackend::new(FRAME.0, FRAME.1)).unwrap();
    bencher.bench_local(|| draw(&mut terminal, &app));
}

/// One frame of the pair viewer (both texts wrapped with shared shingles highlighted, the
/// band strip with the signature values shown).
#[divan::bench]
fn frame_viewer(bencher: Bencher) {
    let mut app = ready_app(SIZES[0]);
    // A pair in the middle of the similarity range: highlights and plain text interleave.
    app.update(Action::Command(Command::FilterPrompt));
    for c in "0.6-0.7".chars() {
        app.update(Action::PromptInput(lshscope::tui::app::PromptKey::Char(c)));
    }
    app.update(Action::PromptInput(lshscope::tui::app::PromptKey::Submit));
    app.update(Action::Command(Command::Open));
    app.update(Action::Command(Command::ToggleBandValues));
    assert!(app.viewer().pair().is_some(), "a pair is open");
    let mut terminal = Terminal::new(TestBackend::new(FRAME.0, FRAME.1)).unwrap();
    bencher.bench_local(|| draw(&mut terminal, &app));
}
