//! `lshscope explore`: the interactive explorer.
//!
//! Structure, from the bottom up, with no two modules importing each other:
//! - [`layout`] (screen geometry, text wrapping) and [`lshscope_core::util::numfmt`] (numbers): pure helpers
//!   the App and the panels both read;
//! - state by owner: [`session`] (config, where the documents come from), [`list`] (a
//!   [`list::PairList`] and its order, for the candidate and missed lists), [`candidates`]
//!   (re-banding requests, answers and the candidate list; the exact-or-sampled policy
//!   itself is [`lshscope_core::pipeline::band_policy`]), [`truth`] (ground truth, recall, missed
//!   list), [`viewer`] (the open pair), [`labels`] (labels and what is on disk), [`clusters`]
//!   (the clusters of the candidates at t, their audits, the open cluster), [`cost`] (every
//!   banding's cost), [`imported`] (another tool's pairs or clusters shown instead of the
//!   banding's: `explore --pairs/--clusters`);
//! - [`app::App`] composes them, with [`app::View`] for what the user is looking at; its
//!   fields are private, read through accessors, and a session's inputs come through
//!   [`app::App::new`] ([`app::Inputs`]);
//! - `app/update/` is the only place the App changes ([`app::App::update`]): it hands a command to
//!   the view on screen, then to the commands every view shares, one module per feature
//!   (candidates, list, viewer, truth, clusters, cost, export, prompt). It does no I/O: work
//!   is queued as [`app::Effect`]s;
//! - `lanes` runs the effects: each knows its lane and runs itself, one worker thread per
//!   lane;
//! - [`ui::render`] draws a frame from an `&App`, one module per panel; [`keys::BINDINGS`] is
//!   the one key table (help, footer and message hints read it; `learn` has its own table on
//!   the same mechanism).
//!
//! Work runs off the UI thread through [`lshscope_core::jobs`]: the App numbers requests with a
//! [`lshscope_core::jobs::Latest`] (a new one cancels the old), one [`lshscope_core::jobs::Runner`] thread per
//! lane runs the newest, and answers carry the ticket id so a stale one is dropped. Tests run
//! the same job code inline ([`run_effect_inline`]). Labels are written by their own lane from
//! snapshots numbered by change, so the status line can say "saved" once a change is on disk.

pub mod aligned;
pub mod app;
pub mod candidates;
pub mod clock;
pub mod clusters;
pub mod cost;
pub mod export;
pub mod family;
pub mod help;
pub mod imported;
pub mod keys;
pub mod labels;
mod lanes;
pub mod layout;
pub mod learn;
pub mod list;
pub mod sample;
pub mod session;
pub mod terminal;
pub mod theme;
pub mod truth;
pub mod ui;

pub mod viewer;

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use ratatui::crossterm::event::{
    self, KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEventKind,
};

use lshscope_core::analysis::labels::LabelStore;
use lshscope_core::jobs::{Pending, Progress, Runner, Ticket};
use lshscope_core::pipeline::open::{PendingCacheWrite, open_deferred};
// Re-exported where the explorer's tests and benches have always found them.
pub use lshscope_core::pipeline::rebanding::{
    MAX_BUCKET_PAIRS, MAX_KNOWN_PAIRS, estimated_bucket_pairs, reband, remember,
};
use lshscope_core::{Error, Result};

use app::{Action, App, Overlay, PromptKey};
use lanes::Workers;
pub use lanes::{run_effect_inline, run_label_save, run_reband_job, run_reband_job_reporting};
use lshscope_core::pipeline::{Loaded, PhaseTiming};
use session::Config;

/// How often the screen is redrawn while nothing else happens (progress gauges move).
const TICK: Duration = Duration::from_millis(100);

/// Everything that wakes the event loop.
enum Event {
    Key(KeyEvent),
    Mouse(event::MouseEvent),
    Resize(u16, u16),
    Worker(Action),
}

/// Reads the corpus and builds the index ([`lshscope_core::pipeline::open`]), reporting each
/// finished phase; writes the cache entry, if one is due, before returning.
pub fn load(
    config: &Config,
    progress: &Progress,
    step_done: impl FnMut(PhaseTiming),
) -> Result<Loaded> {
    lshscope_core::pipeline::open::open(
        config.source.corpus_source(),
        &config.index_options,
        &config.source_name,
        progress,
        step_done,
    )
}

/// [`load`] without writing the cache entry: the explorer opens first and writes it in the
/// background.
pub fn load_deferred(
    config: &Config,
    progress: &Progress,
    step_done: impl FnMut(PhaseTiming),
) -> Result<(Loaded, Option<PendingCacheWrite>)> {
    open_deferred(
        config.source.corpus_source(),
        &config.index_options,
        &config.source_name,
        progress,
        step_done,
    )
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
    run_session(config, labels, truth, None, None)
}

/// [`run_with_truth`], showing the pairs or clusters of another tool's file instead of the
/// banding's candidates when `import` is given (see [`imported`]).
/// `preview_column` is a field the pair lists show instead of the text (`--preview-column`).
pub fn run_session(
    config: Config,
    labels: LabelStore,
    truth: Option<std::path::PathBuf>,
    import: Option<imported::ImportSpec>,
    preview_column: Option<list::PreviewColumn>,
) -> Result<i32> {
    if !has_terminal() {
        eprintln!("lshscope: {NOT_A_TERMINAL}");
        return Ok(2);
    }
    let mut terminal =
        terminal::setup(terminal::Mouse::On).map_err(|e| Error::io("<terminal>", e))?;
    let inputs = app::Inputs {
        truth,
        import,
        preview_column,
        ..app::Inputs::default()
    };
    let result = event_loop(&mut terminal, config, labels, inputs);
    terminal::restore(terminal::Mouse::On);
    result
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    config: Config,
    labels: LabelStore,
    inputs: app::Inputs,
) -> Result<i32> {
    let size = terminal.size().map_err(|e| Error::io("<terminal>", e))?;
    let (tx, rx) = mpsc::channel::<Event>();
    spawn_input_thread(tx.clone());

    let workers = {
        let tx = tx.clone();
        // After quitting nobody listens; the work itself is what counts.
        Workers::spawn(move |action| {
            let _ = tx.send(Event::Worker(action));
        })
        .map_err(|e| Error::io("<thread>", e))?
    };
    let mut app = App::new(config.clone(), labels, inputs, (size.width, size.height));
    {
        let tx = tx.clone();
        let loader = Runner::spawn(
            "lshscope-load",
            Pending::Queue,
            move |job: Ticket<Config>| {
                let step_tx = tx.clone();
                let result = load_deferred(&job.request, &job.progress, |step| {
                    let _ = step_tx.send(Event::Worker(Action::LoadStepDone(step)));
                });
                match result {
                    Err(Error::Cancelled) => {}
                    Err(e) => {
                        let _ = tx.send(Event::Worker(Action::Loaded(Box::new(Err(e)))));
                    }
                    Ok((loaded, None)) => {
                        let _ = tx.send(Event::Worker(Action::Loaded(Box::new(Ok(loaded)))));
                    }
                    Ok((loaded, Some(pending))) => {
                        // Shown first, written after: the entry shares the explorer's data.
                        let loaded = Arc::new(loaded);
                        let _ = tx.send(Event::Worker(Action::Opened(Arc::clone(&loaded))));
                        let note = pending.write(&loaded);
                        let _ = tx.send(Event::Worker(Action::CacheWritten(note)));
                    }
                }
            },
        )
        .map_err(|e| Error::io("<thread>", e))?;
        loader.submit(Ticket {
            progress: app.load().progress.clone(),
            ..Ticket::new(0, config)
        });
        // Dropped: the thread ends after the load (or its cancellation).
    }

    // A deliberate panic after the first frame, so a test can check that a panic restores the
    // terminal (raw mode, alternate screen, mouse) before its message prints.
    let panic_for_test = std::env::var_os("LSHSCOPE_TEST_PANIC").is_some();
    // Ctrl-C quits like q, but the exit status says the user interrupted (130, as every
    // command of lshscope does on Ctrl-C), so a script can tell a finished session from it.
    let mut interrupted = false;
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
                interrupted |= is_interrupt(&ev);
                handle(&mut app, ev);
                // Take whatever else is queued before drawing again, so a burst of key
                // repeats costs one frame, not one frame each.
                drain(&mut app, &rx, &mut interrupted);
            }
        }
        for effect in app.take_effects() {
            workers.start(effect);
        }
        if app.should_quit() {
            break;
        }
    }
    // Labels the user made are written before the process ends.
    workers.finish();
    match app.take_fatal() {
        Some(e) => Err(e),
        None if interrupted => Ok(Error::Cancelled.exit_code()),
        None => Ok(0),
    }
}

fn drain(app: &mut App, rx: &Receiver<Event>, interrupted: &mut bool) {
    while let Ok(ev) = rx.try_recv() {
        *interrupted |= is_interrupt(&ev);
        handle(app, ev);
        if app.should_quit() {
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

/// Ctrl-C, which quits wherever the user is (the key table and the prompt both map it to
/// quit) and makes the exit status 130.
fn is_interrupt(ev: &Event) -> bool {
    matches!(ev, Event::Key(k) if is_ctrl_c(k))
}

fn is_ctrl_c(key: &KeyEvent) -> bool {
    key.code == KeyCode::Char('c') && key.modifiers.contains(event::KeyModifiers::CONTROL)
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
        Event::Mouse(_) if layout::too_small(app.size()) => {}
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => app.update(Action::Click(m.column, m.row)),
            MouseEventKind::ScrollDown => app.update(Action::Wheel(m.column, m.row, true)),
            MouseEventKind::ScrollUp => app.update(Action::Wheel(m.column, m.row, false)),
            _ => {}
        },
    }
}

/// The editing a key asks of a text prompt: the line-editing keys of a shell (Ctrl-U, Ctrl-W)
/// work; any other Control or Alt chord is ignored, never typed as its letter.
fn prompt_key(key: &KeyEvent) -> Option<PromptKey> {
    use event::KeyModifiers as M;
    let ctrl = key.modifiers.contains(M::CONTROL);
    let alt = key.modifiers.contains(M::ALT);
    match key.code {
        KeyCode::Char('u') if ctrl && !alt => Some(PromptKey::ClearToStart),
        KeyCode::Char('w') if ctrl && !alt => Some(PromptKey::DeleteWord),
        // Terminals that send ^H for Backspace.
        KeyCode::Char('h') if ctrl && !alt => Some(PromptKey::Backspace),
        // Ctrl-Backspace and Alt-Backspace delete a word in most line editors.
        KeyCode::Backspace if ctrl || alt => Some(PromptKey::DeleteWord),
        _ if ctrl || alt => None,
        KeyCode::Char(c) => Some(PromptKey::Char(c)),
        KeyCode::Backspace => Some(PromptKey::Backspace),
        KeyCode::Enter => Some(PromptKey::Submit),
        KeyCode::Esc => Some(PromptKey::Cancel),
        _ => None,
    }
}

/// The action of a key press: prompt editing while a prompt is open, else the key table.
/// While the terminal is too small to draw the explorer only quitting works: the screen then
/// says so, and a key acting on views the user cannot see would change them unseen.
pub fn key_action(app: &App, key: &KeyEvent) -> Option<Action> {
    if layout::too_small(app.size()) {
        let quit = is_ctrl_c(key) || keys::lookup(key, app.context()) == Some(keys::Command::Quit);
        return quit.then_some(Action::Command(keys::Command::Quit));
    }
    if let Overlay::Prompt(_) = app.overlay() {
        if is_ctrl_c(key) {
            return Some(Action::Command(keys::Command::Quit));
        }
        return prompt_key(key).map(Action::PromptInput);
    }
    if *app.overlay() == Overlay::Messages {
        // Any key closes the messages (Ctrl-C quits).
        let command = if is_ctrl_c(key) {
            keys::Command::Quit
        } else {
            keys::Command::ShowMessages
        };
        return Some(Action::Command(command));
    }
    if *app.overlay() == Overlay::Help {
        if is_ctrl_c(key) {
            return Some(Action::Command(keys::Command::Quit));
        }
        // The help's own keys scroll or close it; any other key closes it.
        return Some(Action::Help(
            keys::lookup_in(keys::HELP_KEYS, key, ()).unwrap_or(keys::HelpCommand::Close),
        ));
    }
    keys::lookup(key, app.context()).map(Action::Command)
}
