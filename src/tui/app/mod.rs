//! Explorer state: [`App`], what it is asked ([`Action`]) and what it asks ([`Effect`]).
//!
//! The App composes the state parts, each with its owner module: [`Candidates`] (re-banding
//! and the candidate list), [`TruthState`] (truth, recall, missed list), [`ViewerState`] (the
//! open pair), [`LabelState`], [`ClustersState`], [`CostState`], the load, and the list view;
//! [`View`] is what the user is looking at. Rendering reads an `&App`; workers report back
//! through [`Action`]s. State changes only in [`App::update`] (in `app/update/`), which does
//! no I/O: re-banding, truth reading or joining, exports and label writes are queued as
//! [`Effect`]s for the event loop.

use std::path::PathBuf;
use std::sync::Arc;

use lshscope_core::analysis::histogram::SimilarityHistogram;
use lshscope_core::analysis::labels::{Label, LabelStore};
use lshscope_core::analysis::truth::TruthPair;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::VerifiedPair;

pub use super::clock::Clock;

use super::candidates::{Candidates, EstimatedOutcome, RebandJob};
use super::clusters::{ClustersJob, ClustersOutcome, ClustersState, EdgeKind};
use super::cost::{CostJob, CostOutcome, CostState};
use super::export::{ExportJob, ExportReport};
use super::family::{FamilyDone, FamilyJob, FamilyState};
use super::imported::{ImportAnswer, ImportJob, ImportSpec, ImportedState};
use super::keys::HelpCommand;
use super::keys::{Command, Context};
use super::labels::LabelState;
use super::theme::Theme;
use super::truth::{
    JOIN_BUDGET_SECONDS, SampleDone, SampleJob, TUNING_SAMPLE_PAIRS, TruthDone, TruthJob,
    TruthState,
};
use super::viewer::ViewerState;

use super::candidates::BandOutcome;
use super::labels::{LabelSave, LabelsSaved};
use super::list::{ListView, PreviewColumn, PreviewMode, SortOrder};
use super::session::Config;
use lshscope_core::pipeline::band_policy::Sampling;
use lshscope_core::pipeline::{Loaded, PhaseTiming};

mod update;

/// What the S-curve shows: the banding the user asked for (the candidates shown may still
/// answer an older one), the threshold t and the pinned curves.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub banding: Banding,
    pub threshold: f64,
    pub pins: Vec<Banding>,
}

/// The load's progress handle (cancelled on quit) and its finished phases.
#[derive(Debug, Default)]
pub struct LoadState {
    pub progress: Progress,
    pub steps: Vec<PhaseTiming>,
}

/// Work for the event loop.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Band and verify a banding; answer with [`Action::Banded`] carrying the ticket id.
    Reband(RebandJob),
    /// Write the filtered pairs and the plots; answer with [`Action::Exported`].
    Export(Box<ExportJob>),
    /// Read or compute the ground truth; answer with [`Action::TruthDone`].
    Truth(TruthJob),
    /// Write this snapshot of the labels to its file; answer with [`Action::LabelsSaved`].
    /// Only the newest queued snapshot needs writing: it holds every earlier change.
    SaveLabels(Box<LabelSave>),
    /// Cluster the shown candidates at t; answer with [`Action::ClustersDone`].
    Clusters(ClustersJob),
    /// Answer a banding with an imported file's pairs; answer with [`Action::Imported`].
    Import(ImportJob),
    /// Compute the cost of every banding; answer with [`Action::CostDone`].
    Cost(CostJob),
    /// Measure a second sketch family on the truth; answer with [`Action::FamilyDone`].
    Family(FamilyJob),
    /// Draw the stratified tuning sample; answer with [`Action::SampleDone`].
    Sample(SampleJob),
}

/// Inputs to [`App::update`].
#[derive(Debug)]
pub enum Action {
    Command(Command),
    /// Periodic redraw while work runs (progress is read from the handles at draw time).
    Tick,
    Resize(u16, u16),
    /// Left click at a screen cell.
    Click(u16, u16),
    /// Mouse wheel at a screen cell: `true` scrolls down.
    Wheel(u16, u16, bool),
    /// A key for the open help: scroll it or close it.
    Help(HelpCommand),
    /// A typed character or editing key for the open prompt.
    PromptInput(PromptKey),
    LoadStepDone(PhaseTiming),
    Loaded(Box<lshscope_core::Result<Loaded>>),
    /// A finished load already shared with the thread that writes its cache entry.
    Opened(Arc<Loaded>),
    /// The cache entry of the open corpus was written (or why not): a note for the status line.
    CacheWritten(String),
    Banded(BandOutcome),
    /// Candidates estimated from a sample (a first answer when `refining`, the ticket stays
    /// open for the refined one).
    Estimated(Box<EstimatedOutcome>),
    BandFailed {
        request: u64,
        message: String,
    },
    Exported(ExportReport),
    TruthDone(TruthDone),
    LabelsSaved(LabelsSaved),
    ClustersDone(Box<ClustersOutcome>),
    Imported(Box<ImportAnswer>),
    CostDone(Box<CostOutcome>),
    FamilyDone(FamilyDone),
    SampleDone(SampleDone),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKey {
    Char(char),
    Backspace,
    /// Ctrl-U: delete everything before the cursor (the cursor is at the end of the input).
    ClearToStart,
    /// Ctrl-W: delete the word before the cursor and the spaces after it.
    DeleteWord,
    Submit,
    Cancel,
}

/// What the user is looking at: one value, so the key context, the pair a label applies to
/// and where Back goes are each one match over it. The main screen's focused panel
/// ([`App::focus`]) and its pair list ([`TruthState::show_missed`]) are kept beside it: they
/// outlive a trip to the other views. Changed only by `App::show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Loading,
    Main,
    /// The pair viewer, and the list its pair came from: ← / → step through that list.
    Viewer {
        from: PairSource,
    },
    /// The clusters view: the cluster list, or the cluster open in it
    /// ([`ClustersState::open`]).
    Clusters,
    /// The cost view: the heatmap over every banding.
    Cost,
}

/// The list a pair in the viewer came from. `ClusterEdges` holds only while that cluster is
/// open: when new clusters drop it, the view becomes `Candidates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairSource {
    Candidates,
    /// The missed pairs of the truth.
    Missed,
    /// The edges of the open cluster.
    ClusterEdges,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Curve,
    Histogram,
    Pairs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    Threshold,
    Filter,
    Jump,
    /// Words to find in the viewer's two texts.
    Search,
}

impl PromptKind {
    pub fn question(self) -> &'static str {
        match self {
            PromptKind::Threshold => "threshold t in [0, 1]",
            PromptKind::Filter => "Jaccard range (e.g. 0.5-0.8, or 0.7 for ≥ 0.7)",
            PromptKind::Jump => "jump to id",
            PromptKind::Search => "find in both texts (case-insensitive)",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub input: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    None,
    Help,
    Prompt(Prompt),
    /// The recent messages in full, newest first (a narrow message line shortens them).
    Messages,
}

/// How many recent messages the messages overlay keeps.
pub const MESSAGES_KEPT: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub error: bool,
    /// Shorter ways to say it, longest first, for a message line too narrow for `text` even
    /// with its folders shortened: a message that names several files would otherwise lose
    /// the middles of the names until they look alike; these count them instead and point
    /// to the messages view, which shows `text` whole. Empty for most messages.
    pub shorter: Vec<String>,
}

/// The explorer's state. Its fields are private: the UI, the event loop and the tests read it
/// through the accessors below, and it changes only in [`App::update`] (`app/update/`).
pub struct App {
    config: Config,
    theme: Theme,
    /// What the user is looking at.
    view: View,
    focus: Focus,
    overlay: Overlay,
    /// The first row of the help page shown (it scrolls when taller than the screen).
    help_scroll: usize,
    /// The load's progress and finished phases, for the loading screen.
    load: LoadState,
    data: Option<Arc<Loaded>>,
    /// The banding asked for, the threshold and the pinned curves (what the S-curve shows).
    curve: Curve,
    hist: SimilarityHistogram,
    pairs_at_or_above_t: usize,
    log_scale: bool,
    bin_cursor: usize,
    /// The filter and sort of the pair lists (the missed list follows the candidate list).
    list_view: ListView,
    /// What the pair lists' text column shows, and the `--preview-column` field if given.
    preview: PreviewMode,
    preview_column: Option<PreviewColumn>,
    /// The candidates shown, the re-banding asked for and the candidate list.
    candidates: Candidates,
    /// The user's labels and whether they are on disk.
    labels: LabelState,
    /// The pair viewer.
    viewer: ViewerState,
    message: Option<Message>,
    /// The recent messages, oldest first, at most [`MESSAGES_KEPT`].
    messages: std::collections::VecDeque<Message>,
    size: (u16, u16),
    should_quit: bool,
    /// Set when loading failed: the event loop ends and reports it.
    fatal: Option<lshscope_core::Error>,
    effects: Vec<Effect>,
    /// How the time work took is reported (measured, or fixed for reproducible screens).
    clock: Clock,
    /// Ground truth, recall against it and the missed-pairs list (see [`super::truth`]).
    truth: TruthState,
    /// The clusters of the candidates at t (see [`super::clusters`]).
    clusters: ClustersState,
    /// Another tool's result shown instead of the banding's (see [`super::imported`]).
    imported: ImportedState,
    /// The cost of every banding (see [`super::cost`]).
    cost: CostState,
    /// A second sketch family measured on the truth (see [`super::family`]).
    family: FamilyState,
}

/// What a session is given beside its [`Config`] and labels, once, at the start: the files the
/// banding is compared with and the limits of its jobs.
#[derive(Debug)]
pub struct Inputs {
    /// The ground-truth file: read when it exists, written by the join when it does not.
    pub truth: Option<PathBuf>,
    /// Another tool's pairs, shown instead of the banding's candidates.
    pub import: Option<ImportSpec>,
    /// When re-banding samples instead of enumerating (the engine's defaults unless a test
    /// needs the sampled path on a small corpus).
    pub sampling: Sampling,
    /// How long the truth's join may take before it is refused.
    pub join_budget_seconds: f64,
    /// Pairs the stratified tuning sample draws (tests take fewer, to sample a small corpus).
    pub tuning_sample_pairs: usize,
    pub clock: Clock,
    /// A field of each document the pair lists show instead of its text (`--preview-column`).
    pub preview_column: Option<PreviewColumn>,
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            truth: None,
            import: None,
            sampling: Sampling::default(),
            join_budget_seconds: JOIN_BUDGET_SECONDS,
            tuning_sample_pairs: TUNING_SAMPLE_PAIRS,
            clock: Clock::Measured,
            preview_column: None,
        }
    }
}

impl App {
    pub fn new(config: Config, labels: LabelStore, inputs: Inputs, size: (u16, u16)) -> Self {
        let bins = config.bins.max(20);
        let message = Some(Message {
            text: format!(
                "labels are saved to {} · exports go to {}",
                labels.path().display(),
                config.export_dir.display()
            ),
            error: false,
            shorter: Vec::new(),
        });
        App {
            theme: Theme::new(config.monochrome),
            view: View::Loading,
            focus: Focus::Curve,
            overlay: Overlay::None,
            help_scroll: 0,
            load: LoadState::default(),
            data: None,
            curve: Curve {
                banding: config.banding,
                threshold: config.threshold.clamp(0.0, 1.0),
                pins: Vec::new(),
            },
            hist: SimilarityHistogram::new(bins),
            pairs_at_or_above_t: 0,
            log_scale: false,
            bin_cursor: bins - 1,
            list_view: ListView {
                filter: None,
                sort: SortOrder::JaccardDesc,
                shuffle_seed: config.shuffle_seed,
            },
            // A column the user named is what they asked to see.
            preview: match inputs.preview_column {
                Some(_) => PreviewMode::Column,
                None => PreviewMode::default(),
            },
            preview_column: inputs.preview_column,
            candidates: Candidates::new(inputs.sampling),
            labels: LabelState::new(labels, config.advance),
            viewer: ViewerState::default(),
            messages: message.iter().cloned().collect(),
            message,
            size,
            should_quit: false,
            fatal: None,
            effects: Vec::new(),
            clock: inputs.clock,
            truth: TruthState::new(
                inputs.truth,
                inputs.join_budget_seconds,
                inputs.tuning_sample_pairs,
            ),
            clusters: ClustersState::default(),
            imported: ImportedState::new(inputs.import),
            cost: CostState::default(),
            family: FamilyState::default(),
            config,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// What the user is looking at.
    pub fn view(&self) -> View {
        self.view
    }

    /// The main screen's focused panel (kept while another view is shown).
    pub fn focus(&self) -> Focus {
        self.focus
    }

    pub fn overlay(&self) -> &Overlay {
        &self.overlay
    }

    /// The first row of the help page shown.
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }

    /// The load's progress and finished phases.
    pub fn load(&self) -> &LoadState {
        &self.load
    }

    /// The loaded corpus and index, once loading finished.
    pub fn data(&self) -> &Option<Arc<Loaded>> {
        &self.data
    }

    /// The banding asked for, the threshold and the pinned curves.
    pub fn curve(&self) -> &Curve {
        &self.curve
    }

    /// The similarity histogram of the shown candidates.
    pub fn hist(&self) -> &SimilarityHistogram {
        &self.hist
    }

    /// Candidates whose Jaccard is at or above t.
    pub fn pairs_at_or_above_t(&self) -> usize {
        self.pairs_at_or_above_t
    }

    pub fn log_scale(&self) -> bool {
        self.log_scale
    }

    /// The histogram bin the cursor is on.
    pub fn bin_cursor(&self) -> usize {
        self.bin_cursor
    }

    pub fn candidates(&self) -> &Candidates {
        &self.candidates
    }

    /// The user's labels and whether they are on disk.
    pub fn labels(&self) -> &LabelState {
        &self.labels
    }

    pub fn viewer(&self) -> &ViewerState {
        &self.viewer
    }

    /// The status line's note or error.
    pub fn message(&self) -> &Option<Message> {
        &self.message
    }

    /// The recent messages, oldest first (the messages overlay lists them newest first).
    pub fn messages(&self) -> &std::collections::VecDeque<Message> {
        &self.messages
    }

    pub fn truth(&self) -> &TruthState {
        &self.truth
    }

    pub fn clusters(&self) -> &ClustersState {
        &self.clusters
    }

    pub fn imported(&self) -> &ImportedState {
        &self.imported
    }

    /// `banding`'s candidates when they are listed, every one (not drawn, not a file's
    /// pairs): this seed's, whose counts are exact.
    pub fn listed_candidates(&self, banding: Banding) -> Option<&super::candidates::BandOutcome> {
        self.candidates.result().filter(|r| {
            r.banding == banding
                && self.candidates.estimated().is_none()
                && self.imported.source().is_none()
        })
    }

    pub fn cost(&self) -> &CostState {
        &self.cost
    }

    pub fn family(&self) -> &FamilyState {
        &self.family
    }

    /// True once the user quit (or loading failed): the event loop ends.
    pub fn should_quit(&self) -> bool {
        self.should_quit
    }

    /// Why the session has to end, if loading or the truth file failed.
    pub fn fatal(&self) -> Option<&lshscope_core::Error> {
        self.fatal.as_ref()
    }

    /// Takes the error the session ends with.
    pub fn take_fatal(&mut self) -> Option<lshscope_core::Error> {
        self.fatal.take()
    }

    /// The terminal size the App lays its lists out for.
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// Effects queued since the last call.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    pub fn num_perm(&self) -> usize {
        self.config.index_options.num_perm
    }

    /// The key-table context of the current view and focus.
    pub fn context(&self) -> Context {
        match self.view {
            View::Loading => Context::Loading,
            View::Viewer { .. } => Context::Viewer,
            View::Clusters if self.clusters.open().is_some() => Context::Cluster,
            View::Clusters => Context::Clusters,
            View::Cost => Context::Cost,
            View::Main => match self.focus {
                Focus::Curve => Context::Curve,
                Focus::Histogram => Context::Histogram,
                Focus::Pairs => Context::Pairs,
            },
        }
    }

    /// Switches the view: the one place `view` changes.
    fn show(&mut self, view: View) {
        self.view = view;
    }

    /// Cancels the load and every job (on quit): their answers would find nobody.
    pub(super) fn cancel_all(&mut self) {
        self.load.progress.cancel();
        self.candidates.cancel();
        self.truth.cancel();
        self.clusters.cancel();
        self.cost.cancel();
        self.family.cancel();
    }

    /// True when the shown candidates answer a different banding than the one asked for.
    pub fn result_is_stale(&self) -> bool {
        self.candidates.is_stale(self.curve.banding)
    }

    /// True while a label change is not yet known to be on disk.
    pub fn labels_unsaved(&self) -> bool {
        self.labels.unsaved()
    }

    pub fn label_of(&self, a: u32, b: u32) -> Option<Label> {
        self.labels.of(a, b)
    }

    /// The selected pair of the list, if any.
    pub fn selected_pair(&self) -> Option<&VerifiedPair> {
        self.candidates.selected_pair()
    }

    fn say(&mut self, text: impl Into<String>) {
        self.say_or_shorter(text, Vec::new());
    }

    /// [`say`](Self::say) with shorter forms for a narrow message line ([`Message::shorter`]).
    fn say_or_shorter(&mut self, text: impl Into<String>, shorter: Vec<String>) {
        self.post(Message {
            text: text.into(),
            error: false,
            shorter,
        });
    }

    fn complain(&mut self, text: impl Into<String>) {
        self.post(Message {
            text: text.into(),
            error: true,
            shorter: Vec::new(),
        });
    }

    /// A note from work the user did not ask for (the cache written in the background): it
    /// goes to the log, and to the message line unless a warning is there, which it would
    /// hide before the user pressed a key.
    fn note(&mut self, text: impl Into<String>) {
        let warning = self.message.take_if(|m| m.error);
        self.post(Message {
            text: text.into(),
            error: false,
            shorter: Vec::new(),
        });
        if warning.is_some() {
            self.message = warning;
        }
    }

    /// Shows `message` on the message line and keeps it in the log, which holds what a
    /// narrow line shortened and what the next key cleared.
    fn post(&mut self, message: Message) {
        if self.messages.back() != Some(&message) {
            if self.messages.len() == MESSAGES_KEPT {
                self.messages.pop_front();
            }
            self.messages.push_back(message.clone());
        }
        self.message = Some(message);
    }

    /// The filter and sort the pair list shows.
    pub fn list_view(&self) -> ListView {
        self.list_view
    }

    /// What the pair lists' text column shows.
    pub fn preview_mode(&self) -> PreviewMode {
        self.preview
    }

    /// The `--preview-column` field, when one was given.
    pub fn preview_column(&self) -> Option<&PreviewColumn> {
        self.preview_column.as_ref()
    }

    /// The truth is incomplete at the current t (t is below what it covers).
    pub fn truth_below_floor(&self) -> bool {
        self.truth.below_floor(self.curve.threshold)
    }

    /// The truth pair the missed list has selected.
    pub fn selected_missed(&self) -> Option<&TruthPair> {
        self.truth.selected_missed()
    }

    /// True while the clusters view (or a pair opened from its open cluster) is on screen:
    /// only then are clusters computed.
    pub fn clusters_shown(&self) -> bool {
        matches!(
            self.view,
            View::Clusters
                | View::Viewer {
                    from: PairSource::ClusterEdges
                }
        )
    }

    /// The selected edge of the open cluster.
    pub fn selected_cluster_edge(
        &self,
    ) -> Option<(EdgeKind, lshscope_core::analysis::clusters::Edge)> {
        self.clusters.open()?.selected_edge()
    }
}
