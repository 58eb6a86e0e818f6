//! Shared fixtures for the explorer tests: a fixed small corpus, an App driven through its
//! load and re-banding like the event loop would, and screen capture through TestBackend.
#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use lshscope::tui::app::{Action, App, Effect};
pub use lshscope::tui::app::{Clock, Inputs};
use lshscope::tui::candidates::BandOutcome;
use lshscope::tui::keys::Command;
use lshscope::tui::labels::{LabelSave, LabelsSaved};
use lshscope::tui::session::{Config, Source};
use lshscope_core::analysis::labels::LabelStore;
use lshscope_core::corpus::{Corpus, ReadReport};
use lshscope_core::jobs::{Phase, Progress};
use lshscope_core::minhash::{Banding, IndexOptions, build_index};
use lshscope_core::pipeline::band_policy::Sampling;
use lshscope_core::pipeline::{Loaded, PhaseTiming};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Twelve short documents: three families of edited copies and three loners.
pub const DOCS: &[(&str, &str)] = &[
    (
        "lake-1",
        "the old boat drifted across the quiet lake while herons watched from the reeds at dawn",
    ),
    (
        "lake-2",
        "the old boat drifted across the quiet lake while herons watched from the reeds at dusk",
    ),
    (
        "lake-3",
        "an old boat drifted over the quiet lake while two herons watched from tall reeds at dawn",
    ),
    (
        "bread-1",
        "knead the dough for ten minutes then let it rise in a warm corner until it doubles in size",
    ),
    (
        "bread-2",
        "knead the dough for ten minutes, then let it rise in a warm corner until doubled in size",
    ),
    (
        "bread-3",
        "knead the dough for twelve minutes and let it rest somewhere warm until it has doubled",
    ),
    (
        "train-1",
        "the night train to the coast leaves at eleven and stops at every small station on the way",
    ),
    (
        "train-2",
        "the night train to the coast leaves at eleven and stops at every small station along the way",
    ),
    (
        "train-3",
        "the morning train to the hills leaves at seven and stops only at the larger stations",
    ),
    (
        "solo-1",
        "copper wire conducts heat and electricity far better than most other common metals do",
    ),
    (
        "solo-2",
        "a sonnet has fourteen lines and usually follows one of a few strict rhyme schemes",
    ),
    (
        "solo-3",
        "penguins cannot fly but they swim with remarkable speed through cold southern waters",
    ),
];

pub const K: usize = 128;
pub const BANDING: Banding = Banding { bands: 16, rows: 4 };

pub fn config(export_dir: &Path) -> Config {
    Config {
        source: Source::EmbeddedSample,
        source_name: "fixture (12 documents)".to_string(),
        index_options: IndexOptions {
            num_perm: K,
            ..IndexOptions::default()
        },
        banding: BANDING,
        threshold: 0.5,
        max_bucket: None,
        export_dir: export_dir.to_path_buf(),
        export_stem: "fixture".to_string(),
        monochrome: false,
        bins: 20,
        shuffle_seed: 7,
        advance: false,
    }
}

pub fn loaded_data() -> Loaded {
    loaded(Corpus::from_pairs(DOCS.iter().copied()))
}

/// `corpus` indexed with the fixture's options (K permutations), as the explorer loads it.
pub fn loaded(corpus: Corpus) -> Loaded {
    let index = build_index(
        &corpus,
        &IndexOptions {
            num_perm: K,
            ..IndexOptions::default()
        },
        &Progress::new(),
    )
    .unwrap();
    Loaded {
        read: ReadReport::of_corpus(&corpus),
        corpus,
        index,
    }
}

/// The pair of `corpus`'s two documents open in the viewer at `size`.
pub fn viewer_on_pair(dir: &Path, corpus: Corpus, size: (u16, u16)) -> App {
    let mut app = new_app(dir, size);
    app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
    run_effects(&mut app);
    cmd(&mut app, Command::Open);
    assert!(
        matches!(app.view(), lshscope::tui::app::View::Viewer { .. }),
        "the pair opens"
    );
    app
}

/// An App on the fixture, before loading finished, with labels in `dir/labels.csv`.
pub fn new_app(dir: &Path, size: (u16, u16)) -> App {
    new_app_with(config(dir), dir, size)
}

/// A new app caught while loading: the file read (1 MiB in 0.5 s), signatures 5 of 12
/// steps along.
pub fn loading_app(dir: &Path, size: (u16, u16)) -> App {
    let mut app = new_app(dir, size);
    app.update(Action::LoadStepDone(PhaseTiming {
        phase: Phase::Reading,
        items: 1_048_576,
        unit: "bytes",
        seconds: 0.5,
    }));
    app.load().progress.begin(Phase::Signatures, 12);
    app.load().progress.advance(5);
    app
}

pub fn new_app_with(config: Config, dir: &Path, size: (u16, u16)) -> App {
    new_app_given(config, dir, size, fixture_inputs())
}

/// An App on `config` given `inputs` (a truth file, an import, job limits, a clock).
pub fn new_app_given(config: Config, dir: &Path, size: (u16, u16), inputs: Inputs) -> App {
    let labels = LabelStore::load(dir.join("labels.csv")).unwrap();
    App::new(config, labels, inputs, size)
}

/// The times work took, as the fixtures report them: measured durations vary from run to run,
/// so the screens show this one.
pub const FIXED_TIME: Duration = Duration::from_millis(3);

/// No truth, no import, the explorer's job limits, and times fixed at [`FIXED_TIME`].
pub fn fixture_inputs() -> Inputs {
    Inputs {
        clock: Clock::Fixed(FIXED_TIME),
        ..Inputs::default()
    }
}

/// Runs the queued effects synchronously through the workers' own job code
/// ([`lshscope::tui::run_effect_inline`]), answering with a fixed elapsed time so screens are
/// reproducible. Returns how many there were.
pub fn run_effects(app: &mut App) -> usize {
    let effects = app.take_effects();
    run_given_effects(app, effects)
}

/// Runs `effects` (taken from `app` earlier) as [`run_effects`] does.
pub fn run_given_effects(app: &mut App, effects: Vec<Effect>) -> usize {
    let n = effects.len();
    for effect in effects {
        // A job superseded by a newer request was cancelled; the worker sends nothing then.
        let Some(action) = lshscope::tui::run_effect_inline(effect) else {
            continue;
        };
        let banded = match action {
            Action::Banded(outcome) => Action::Banded(BandOutcome {
                elapsed: FIXED_TIME,
                ..outcome
            }),
            Action::BandFailed { message, .. } => panic!("re-banding failed: {message}"),
            other => other,
        };
        // The App's request-to-screen time is fixed by its clock ([`fixture_inputs`]).
        app.update(banded);
    }
    n
}

/// Writes a label snapshot as the label writer thread does, and its answer.
pub fn save_labels(save: &LabelSave) -> LabelsSaved {
    let action = lshscope::tui::run_label_save(lshscope_core::jobs::Ticket::new(
        save.generation,
        save.clone(),
    ));
    let Action::LabelsSaved(saved) = action else {
        unreachable!("the label writer answers with LabelsSaved")
    };
    saved
}

/// A loaded App with its first banding answered.
pub fn ready_app(dir: &Path, size: (u16, u16)) -> App {
    ready_app_given(dir, size, fixture_inputs())
}

/// A loaded App given `inputs`, with its first banding answered.
pub fn ready_app_given(dir: &Path, size: (u16, u16), inputs: Inputs) -> App {
    let mut app = new_app_given(config(dir), dir, size, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    app
}

pub fn cmd(app: &mut App, command: Command) {
    app.update(Action::Command(command));
}

/// The screen as text, one line per row (trailing spaces kept so widths show).
pub fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| lshscope::tui::ui::render(frame, app))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        for x in 0..buffer.area.width {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(&line);
        out.push('\n');
    }
    hide_timings(&out)
}

/// `screen` with every timing hidden, the one redaction of the explorer's screens: the number
/// of a duration (`24.7 s`, `(0.0 s)`, `3 ms`) or of a rate (`2.1 MB/s`, `12.3 k docs/s`) is
/// written `N`, so the screens say what happened and not how fast this machine was. The
/// columns the number took beyond one go to the padding that absorbs its width: the spaces
/// before it when it is right-aligned in a column (two or more spaces before it), else the
/// next run of two or more spaces after it (or the line's end), up to which a number of one
/// more digit (10.2 s against 9.8 s) shifts what follows it. So a line reads the same
/// whatever the digits, and keeps its width.
pub fn hide_timings(screen: &str) -> String {
    let mut out: Vec<String> = screen.lines().map(hide_line_timings).collect();
    if screen.ends_with('\n') {
        out.push(String::new());
    }
    out.join("\n")
}

fn hide_line_timings(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    // Columns freed by hidden numbers, not yet given to a run of spaces.
    let mut owed = 0;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let number = word.trim_start_matches('(');
        let next = words.get(i + 1).copied();
        // A rate's count may carry its SI prefix as a word of its own (`12.3 k docs/s`).
        let prefixed = matches!(next, Some("k" | "M" | "G"))
            && words.get(i + 2).is_some_and(|w| is_rate_unit(w));
        if is_number(number) && (is_timing_unit(next) || prefixed) {
            // The prefix and its space go too.
            let freed = number.len() - 1 + if prefixed { 2 } else { 0 };
            if i > 0 && words[i - 1].is_empty() {
                // Right-aligned in a column (padded on its left): the padding before it grows.
                out.extend(std::iter::repeat_n(String::new(), freed));
            } else {
                owed += freed;
            }
            out.push(format!("{}N", &word[..word.len() - number.len()]));
            i += usize::from(prefixed);
        } else if word.is_empty() && owed > 0 {
            // Two spaces in a row: the start of a run, where the freed columns go.
            out.extend(std::iter::repeat_n(String::new(), owed + 1));
            owed = 0;
        } else {
            out.push(word.to_string());
        }
        i += 1;
    }
    out.join(" ") + &" ".repeat(owed)
}

/// `s` or `ms` (a duration), or a unit per second (a rate), with what punctuation follows it.
fn is_timing_unit(word: Option<&str>) -> bool {
    word.is_some_and(|w| matches!(unpunctuated(w), "s" | "ms") || is_rate_unit(w))
}

/// A unit per second (`MB/s`, `docs/s`), with what punctuation follows it.
fn is_rate_unit(word: &str) -> bool {
    let unit = unpunctuated(word);
    unit.len() > 2 && unit.ends_with("/s")
}

/// `word` without the punctuation or panel border that may follow it.
fn unpunctuated(word: &str) -> &str {
    word.trim_end_matches([')', ',', ';', '·', '│'])
}

/// Digits with a decimal point or thousands separators.
fn is_number(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// True when some cell on `row` whose symbol is `ch` has style modifier or colour `pred`.
pub fn cell_styles(app: &App, width: u16, height: u16) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| lshscope::tui::ui::render(frame, app))
        .unwrap();
    terminal.backend().buffer().clone()
}

/// The explorer as a bare `lshscope` opens it: the embedded sample with the default options
/// (`cli::explore::run_sample`), loaded through the explorer's own loader and banded by its
/// own job, at `size`. Labels would go to `dir`.
pub fn sample_app(dir: &Path, size: (u16, u16)) -> App {
    let config = Config {
        source: lshscope::tui::session::Source::EmbeddedSample,
        source_name: lshscope::tui::sample::SAMPLE_NAME.to_string(),
        index_options: IndexOptions::default(),
        banding: Banding { bands: 20, rows: 5 },
        threshold: 0.5,
        max_bucket: None,
        export_dir: dir.to_path_buf(),
        export_stem: "lshscope-sample".to_string(),
        monochrome: false,
        bins: 20,
        shuffle_seed: IndexOptions::default().seed,
        advance: false,
    };
    let loaded = lshscope::tui::load(&config, &Progress::new(), |_| {}).expect("the sample loads");
    let labels = LabelStore::load(dir.join("lshscope-sample.labels.csv")).unwrap();
    let mut app = App::new(config, labels, fixture_inputs(), size);
    app.update(Action::Loaded(Box::new(Ok(loaded))));
    run_effects(&mut app);
    app
}

/// [`fixture_inputs`] with re-banding's sampling limits changed by `limits` (to take the
/// sampled path on a corpus small enough to enumerate).
pub fn sampling_inputs(limits: impl FnOnce(&mut Sampling)) -> Inputs {
    let mut inputs = fixture_inputs();
    limits(&mut inputs.sampling);
    inputs
}
