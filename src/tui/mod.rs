//! `lshscope explore`: the interactive explorer.
//!
//! Structure (see DESIGN.md): [`app::App`] holds all state and changes only in
//! [`app::App::update`]; [`ui::render`] draws a frame from an `&App`; [`keys::BINDINGS`] is
//! the one key table. Work runs off the UI thread: a load job (read corpus → build index) and
//! latest-wins re-banding jobs (`find_candidates` + `verify`), each reporting back through the
//! single `Event` channel. Results carry the request id they answer, and the App drops any
//! answer that is not for its newest request. Labels are written by one writer thread, from
//! snapshots numbered by change, so the status line can say "saved" once a change is on disk.

pub mod app;
pub mod export;
pub mod keys;
pub mod learn;
pub mod sample;
pub mod theme;
pub mod truth;
pub mod ui;

use std::io::IsTerminal;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, KeyCode, KeyEvent, KeyEventKind, MouseButton,
    MouseEventKind,
};
use ratatui::crossterm::execute;

use crate::analysis::labels::LabelStore;
use crate::jobs::{Phase, Progress};
use crate::pipeline::Pipeline;
// Re-exported where the explorer's tests and benches have always found them.
pub use crate::pipeline::rebanding::{
    MAX_BUCKET_PAIRS, MAX_KNOWN_PAIRS, estimated_bucket_pairs, reband, remember,
};
use crate::{Error, Result};

use app::{
    Action, App, BandOutcome, Config, Effect, LabelSave, LabelsSaved, LoadStep, Loaded, Overlay,
    PromptKey, Source,
};

/// How often the screen is redrawn while nothing else happens (progress gauges move).
const TICK: Duration = Duration::from_millis(100);

/// Everything that wakes the event loop.
enum Event {
    Key(KeyEvent),
    Mouse(event::MouseEvent),
    Resize(u16, u16),
    Worker(Action),
}

/// Reads the corpus and builds the index ([`crate::pipeline`]), reporting each finished phase.
pub fn load(
    config: &Config,
    progress: &Progress,
    mut step_done: impl FnMut(LoadStep),
) -> Result<Loaded> {
    // The loading screen counts the signature phase in documents, as its progress bar does.
    let documents = std::cell::Cell::new(0);
    let mut run = Pipeline::new(progress).on_phase(|t| {
        let (items, unit) = match t.phase {
            Phase::Signatures => (documents.get(), "docs"),
            _ => (t.items, t.unit),
        };
        step_done(LoadStep {
            phase: t.phase,
            items,
            unit,
            seconds: t.seconds,
        })
    });
    let (corpus, read) = match &config.source {
        Source::File { path, read } => run.read(path, read)?,
        Source::EmbeddedSample => run.read_with(sample::read_sample)?,
    };
    documents.set(corpus.len() as u64);
    if corpus.is_empty() {
        return Err(Error::usage(format!(
            "{} has no documents: nothing to explore",
            config.source_name
        )));
    }
    let index = run.index(&corpus, &config.index_options)?;
    progress.finish();
    Ok(Loaded {
        corpus,
        index,
        read,
    })
}

/// What a user sees when stdout or stdin is not a terminal.
pub const NOT_A_TERMINAL: &str = "lshscope explore needs an interactive terminal (stdout \
must be a TTY, and keys are read from the controlling terminal).\nFor pipes, scripts and CI use \
`lshscope scan INPUT` (add -b/-r/-t as needed); it prints the pairs as CSV or JSON Lines.";

/// The explorer draws on stdout and reads keys from stdin, or from /dev/tty when stdin is
/// the corpus (`cat docs.txt | lshscope explore -`), as crossterm does.
pub(crate) fn has_terminal() -> bool {
    std::io::stdout().is_terminal()
        && (std::io::stdin().is_terminal() || std::fs::File::open("/dev/tty").is_ok())
}

/// Runs the explorer until the user quits; returns the exit code.
pub fn run(config: Config, labels: LabelStore) -> Result<i32> {
    run_with_truth(config, labels, None)
}

/// [`run`], measuring the candidates against the ground truth in `truth` (read once the
/// corpus is loaded; see [`truth`]).
pub fn run_with_truth(
    config: Config,
    labels: LabelStore,
    truth: Option<std::path::PathBuf>,
) -> Result<i32> {
    if !has_terminal() {
        eprintln!("lshscope: {NOT_A_TERMINAL}");
        return Ok(2);
    }
    let mut terminal = ratatui::try_init().map_err(|e| Error::io("<terminal>", e))?;
    // ratatui's hook (installed by init) restores raw mode and the screen, then prints the
    // message; ours runs first to turn mouse reporting off too. A panic on a worker thread
    // would leave the UI drawing on a restored terminal, so any panic ends the process.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
        std::process::exit(101);
    }));
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, config, labels, truth);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    config: Config,
    labels: LabelStore,
    truth: Option<std::path::PathBuf>,
) -> Result<i32> {
    let size = terminal.size().map_err(|e| Error::io("<terminal>", e))?;
    let (tx, rx) = mpsc::channel::<Event>();
    spawn_input_thread(tx.clone());

    let label_writer = LabelWriter::spawn(tx.clone())?;
    let mut app = App::new(config.clone(), labels, (size.width, size.height));
    app.truth.file = truth;
    {
        let tx = tx.clone();
        let progress = app.load_progress.clone();
        std::thread::Builder::new()
            .name("lshscope-load".into())
            .spawn(move || {
                let step_tx = tx.clone();
                let result = load(&config, &progress, |step| {
                    let _ = step_tx.send(Event::Worker(Action::LoadStepDone(step)));
                });
                if !matches!(result, Err(Error::Cancelled)) {
                    let _ = tx.send(Event::Worker(Action::Loaded(Box::new(result))));
                }
            })
            .map_err(|e| Error::io("<thread>", e))?;
    }

    // A deliberate panic after the first frame, so a test can check that a panic restores the
    // terminal (raw mode, alternate screen, mouse) before its message prints.
    let panic_for_test = std::env::var_os("LSHSCOPE_TEST_PANIC").is_some();
    loop {
        terminal
            .draw(|frame| ui::render(frame, &app))
            .map_err(|e| Error::io("<terminal>", e))?;
        if panic_for_test {
            panic!("deliberate panic (LSHSCOPE_TEST_PANIC is set)");
        }
        let first = match rx.recv_timeout(TICK) {
            Ok(ev) => Some(ev),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        match first {
            None => app.update(Action::Tick),
            Some(ev) => {
                handle(&mut app, ev);
                // Take whatever else is queued before drawing again, so a burst of key
                // repeats costs one frame, not one frame each.
                drain(&mut app, &rx);
            }
        }
        for effect in app.take_effects() {
            start_effect(&app, effect, &tx, &label_writer);
        }
        if app.should_quit {
            break;
        }
    }
    // Labels the user made are written before the process ends.
    label_writer.finish();
    match app.fatal.take() {
        Some(e) => Err(e),
        None => Ok(0),
    }
}

fn drain(app: &mut App, rx: &Receiver<Event>) {
    while let Ok(ev) = rx.try_recv() {
        handle(app, ev);
        if app.should_quit {
            return;
        }
    }
}

fn spawn_input_thread(tx: Sender<Event>) {
    let _ = std::thread::Builder::new()
        .name("lshscope-input".into())
        .spawn(move || {
            loop {
                let ev = match event::read() {
                    Ok(ev) => ev,
                    Err(_) => return,
                };
                let sent = match ev {
                    event::Event::Key(k) if k.kind == KeyEventKind::Press => tx.send(Event::Key(k)),
                    event::Event::Mouse(m) => tx.send(Event::Mouse(m)),
                    event::Event::Resize(w, h) => tx.send(Event::Resize(w, h)),
                    _ => Ok(()),
                };
                if sent.is_err() {
                    return;
                }
            }
        });
}

/// Turns a terminal or worker event into an [`Action`] for the App.
fn handle(app: &mut App, ev: Event) {
    match ev {
        Event::Worker(action) => app.update(action),
        Event::Resize(w, h) => app.update(Action::Resize(w, h)),
        Event::Key(key) => {
            if let Some(action) = key_action(app, &key) {
                app.update(action);
            }
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => app.update(Action::Click(m.column, m.row)),
            MouseEventKind::ScrollDown => app.update(Action::Wheel(m.column, m.row, true)),
            MouseEventKind::ScrollUp => app.update(Action::Wheel(m.column, m.row, false)),
            _ => {}
        },
    }
}

/// The action of a key press: prompt editing while a prompt is open, else the key table.
pub fn key_action(app: &App, key: &KeyEvent) -> Option<Action> {
    if let Overlay::Prompt(_) = app.overlay {
        let ctrl = key.modifiers.contains(event::KeyModifiers::CONTROL);
        return match key.code {
            KeyCode::Char('c') if ctrl => Some(Action::Command(keys::Command::Quit)),
            KeyCode::Char(c) => Some(Action::PromptInput(PromptKey::Char(c))),
            KeyCode::Backspace => Some(Action::PromptInput(PromptKey::Backspace)),
            KeyCode::Enter => Some(Action::PromptInput(PromptKey::Submit)),
            KeyCode::Esc => Some(Action::PromptInput(PromptKey::Cancel)),
            _ => None,
        };
    }
    if app.overlay == Overlay::Help {
        // Any key closes the help (the App does that on any command).
        return Some(Action::Command(
            keys::lookup(key, app.context()).unwrap_or(keys::Command::Help),
        ));
    }
    keys::lookup(key, app.context()).map(Action::Command)
}

/// The thread that writes label snapshots, newest first: a burst of changes queued while one
/// write runs costs one more write, of the last snapshot (which holds all of them).
struct LabelWriter {
    shared: Arc<(Mutex<WriterSlot>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Default)]
struct WriterSlot {
    newest: Option<LabelSave>,
    closed: bool,
}

impl LabelWriter {
    fn spawn(tx: Sender<Event>) -> Result<Self> {
        let shared = Arc::new((Mutex::new(WriterSlot::default()), Condvar::new()));
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("lshscope-labels".into())
            .spawn(move || {
                let (slot, wake) = &*theirs;
                loop {
                    let save = {
                        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
                        while slot.newest.is_none() && !slot.closed {
                            slot = wake.wait(slot).unwrap_or_else(|e| e.into_inner());
                        }
                        match slot.newest.take() {
                            Some(save) => save,
                            None => return,
                        }
                    };
                    let result = save.labels.save().map_err(|e| e.to_string());
                    // After quitting nobody listens; the write itself is what counts.
                    let _ = tx.send(Event::Worker(Action::LabelsSaved(LabelsSaved {
                        generation: save.generation,
                        count: save.labels.len(),
                        result,
                    })));
                }
            })
            .map_err(|e| Error::io("<thread>", e))?;
        Ok(LabelWriter {
            shared,
            thread: Some(thread),
        })
    }

    /// Queues `save`, replacing an older snapshot not yet taken up.
    fn submit(&self, save: LabelSave) {
        let (slot, wake) = &*self.shared;
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot
            .newest
            .as_ref()
            .is_none_or(|s| s.generation < save.generation)
        {
            slot.newest = Some(save);
        }
        wake.notify_one();
    }

    /// Writes what is still queued, then stops the thread.
    fn finish(mut self) {
        {
            let (slot, wake) = &*self.shared;
            slot.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
            wake.notify_one();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn start_effect(app: &App, effect: Effect, tx: &Sender<Event>, label_writer: &LabelWriter) {
    match effect {
        Effect::SaveLabels(save) => label_writer.submit(*save),
        Effect::Truth(job) => {
            let Some(data) = app.data.clone() else { return };
            let tx = tx.clone();
            let _ = std::thread::Builder::new()
                .name("lshscope-truth".into())
                .spawn(move || {
                    if let Some(done) = truth::run_truth_job(&data, &job) {
                        let _ = tx.send(Event::Worker(Action::TruthDone(done)));
                    }
                });
        }
        Effect::Export(job) => {
            let Some(data) = app.data.clone() else { return };
            let tx = tx.clone();
            let _ = std::thread::Builder::new()
                .name("lshscope-export".into())
                .spawn(move || {
                    let report = export::run_export(&data, &job);
                    let _ = tx.send(Event::Worker(Action::Exported(report)));
                });
        }
        Effect::Reband {
            request,
            banding,
            progress,
            known,
            view,
            bins,
        } => {
            let Some(data) = app.data.clone() else { return };
            let tx = tx.clone();
            let max_bucket = app.config.max_bucket;
            let _ = std::thread::Builder::new()
                .name("lshscope-reband".into())
                .spawn(move || {
                    let data: Arc<Loaded> = data;
                    let start = Instant::now();
                    let known = known.as_deref().map(Vec::as_slice);
                    match reband(&data.index, banding, max_bucket, known, &progress) {
                        Ok(pairs) => {
                            let known = known.map(|k| Arc::new(remember(k, &pairs)));
                            let prepared = app::Prepared::new(&pairs, bins, view);
                            progress.finish();
                            let _ = tx.send(Event::Worker(Action::Banded(BandOutcome {
                                request,
                                banding,
                                pairs: Arc::new(pairs),
                                known,
                                elapsed: start.elapsed(),
                                prepared: Some(Box::new(prepared)),
                            })));
                        }
                        Err(Error::Cancelled) => {}
                        Err(e) => {
                            let _ = tx.send(Event::Worker(Action::BandFailed {
                                request,
                                message: e.to_string(),
                            }));
                        }
                    }
                });
        }
    }
}
