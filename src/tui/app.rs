//! Explorer state and the only place it changes: [`App::update`].
//!
//! The App composes the state parts, each with its owner module: [`Candidates`] (re-banding
//! and the candidate list), [`TruthState`] (truth, recall, missed list), [`PairView`] (the
//! open pair), [`LabelState`], the load, and the list view. Rendering reads an `&App`;
//! workers report back through [`Action`]s. `update` does no I/O: re-banding, truth reading
//! or joining, exports and label writes are queued as [`Effect`]s for the event loop.

use std::path::PathBuf;
use std::sync::Arc;

use crate::analysis::histogram::SimilarityHistogram;
use crate::analysis::labels::{Label, LabelStore};
use crate::analysis::sampled::Estimate;
use crate::analysis::truth::TruthPair;
use crate::jobs::Progress;
use crate::minhash::Banding;
use crate::minhash::VerifiedPair;

pub use super::candidates::{
    BandOutcome, Candidates, EstimatedInfo, EstimatedOutcome, Prepared, RebandJob, RebandRequest,
};
pub use super::clusters::{
    ClustersJob, ClustersOutcome, ClustersRequest, ClustersState, FromBuckets,
};
use super::clusters::{OpenCluster, cluster_list_rows, edge_list_rows, edge_pair};
pub use super::cost::{CostJob, CostOutcome, CostRequest, CostState};
use super::export::{ExportJob, ExportReport, PlotSpec, brace_names};
pub use super::imported::{ImportAnswer, ImportJob, ImportedState};
use super::keys::{Command, Context, hint};
pub use super::labels::{LabelSave, LabelState, LabelsSaved};
use super::layout;
pub use super::list::{JaccardFilter, ListView, PairList, SortOrder, list_order};
pub use super::session::{Config, Loaded, PhaseTiming, Source};
use super::theme::{MAX_PINS, Theme};
use super::truth::{MeasuredCandidates, MissedView, TruthFailure, TruthJob, TruthState, TruthTask};
pub use super::viewer::{METRIC_CHARS, PairView, ScrollSide, ViewerState, pair_view};
use crate::numfmt::{for_count, thousands};

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
    /// A typed character or editing key for the open prompt.
    PromptInput(PromptKey),
    LoadStepDone(PhaseTiming),
    Loaded(Box<crate::Result<Loaded>>),
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
    TruthDone(super::truth::TruthDone),
    LabelsSaved(LabelsSaved),
    ClustersDone(Box<ClustersOutcome>),
    Imported(Box<ImportAnswer>),
    CostDone(Box<CostOutcome>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKey {
    Char(char),
    Backspace,
    Submit,
    Cancel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Loading,
    Main,
    Viewer,
    /// The clusters view (a cluster open or the cluster list).
    Clusters,
    /// The cost view: the heatmap over every banding.
    Cost,
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
}

impl PromptKind {
    pub fn question(self) -> &'static str {
        match self {
            PromptKind::Threshold => "threshold t in [0, 1]",
            PromptKind::Filter => "Jaccard range (e.g. 0.5-0.8, or 0.7 for ≥ 0.7)",
            PromptKind::Jump => "jump to id",
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
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

pub struct App {
    pub config: Config,
    pub theme: Theme,
    pub screen: Screen,
    pub focus: Focus,
    pub overlay: Overlay,
    /// The load's progress and finished phases, for the loading screen.
    pub load: LoadState,
    pub data: Option<Arc<Loaded>>,
    /// The banding asked for, the threshold and the pinned curves (what the S-curve shows).
    pub curve: Curve,
    pub hist: SimilarityHistogram,
    pub pairs_at_or_above_t: usize,
    pub log_scale: bool,
    pub bin_cursor: usize,
    /// The filter and sort of the pair lists (the missed list follows the candidate list).
    pub view: ListView,
    /// The candidates shown, the re-banding asked for and the candidate list.
    pub candidates: Candidates,
    /// The user's labels and whether they are on disk.
    labels: LabelState,
    /// The pair viewer.
    pub viewer: ViewerState,
    pub message: Option<Message>,
    size: (u16, u16),
    should_quit: bool,
    /// Set when loading failed: the event loop ends and reports it.
    fatal: Option<crate::Error>,
    effects: Vec<Effect>,
    /// Ground truth, recall against it and the missed-pairs list (see [`super::truth`]).
    pub truth: TruthState,
    /// The clusters of the candidates at t (see [`super::clusters`]).
    pub clusters: ClustersState,
    /// Another tool's result shown instead of the banding's (see [`super::imported`]).
    pub imported: ImportedState,
    /// The cost of every banding (see [`super::cost`]).
    pub cost: CostState,
}

impl App {
    pub fn new(config: Config, labels: LabelStore, size: (u16, u16)) -> Self {
        let bins = config.bins.max(20);
        let message = Some(Message {
            text: format!("labels are saved to {}", labels.path().display()),
            error: false,
        });
        App {
            theme: Theme::new(config.monochrome),
            screen: Screen::Loading,
            focus: Focus::Curve,
            overlay: Overlay::None,
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
            view: ListView {
                filter: None,
                sort: SortOrder::JaccardDesc,
                shuffle_seed: config.shuffle_seed,
            },
            candidates: Candidates::default(),
            labels: LabelState::new(labels),
            viewer: ViewerState::default(),
            message,
            size,
            should_quit: false,
            fatal: None,
            effects: Vec::new(),
            truth: Default::default(),
            clusters: ClustersState::default(),
            imported: ImportedState::default(),
            cost: CostState::default(),
            config,
        }
    }

    /// True once the user quit (or loading failed): the event loop ends.
    pub fn should_quit(&self) -> bool {
        self.should_quit
    }

    /// Why the session has to end, if loading or the truth file failed.
    pub fn fatal(&self) -> Option<&crate::Error> {
        self.fatal.as_ref()
    }

    /// Takes the error the session ends with.
    pub fn take_fatal(&mut self) -> Option<crate::Error> {
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

    /// The key-table context of the current screen and focus.
    pub fn context(&self) -> Context {
        match self.screen {
            Screen::Loading => Context::Loading,
            Screen::Viewer => Context::Viewer,
            Screen::Clusters if self.clusters.open.is_some() => Context::Cluster,
            Screen::Clusters => Context::Clusters,
            Screen::Cost => Context::Cost,
            Screen::Main => match self.focus {
                Focus::Curve => Context::Curve,
                Focus::Histogram => Context::Histogram,
                Focus::Pairs => Context::Pairs,
            },
        }
    }

    /// True when the shown candidates answer a different banding than the one asked for.
    pub fn result_is_stale(&self) -> bool {
        self.candidates
            .result
            .as_ref()
            .is_some_and(|r| r.banding != self.curve.banding)
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
        let result = self.candidates.result.as_ref()?;
        result
            .pairs
            .get(self.candidates.list.selected_index()? as usize)
    }

    pub(super) fn say(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            error: false,
        });
    }

    pub(super) fn complain(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            error: true,
        });
    }

    pub fn update(&mut self, action: Action) {
        match action {
            Action::Tick => {}
            Action::Resize(w, h) => {
                self.size = (w, h);
                let height = self.list_height();
                self.candidates.list.scroll_into_view(height);
                self.truth.missed.scroll_into_view(height);
                self.clusters
                    .list
                    .scroll_into_view(cluster_list_rows(self.size));
                if let Some(open) = &mut self.clusters.open {
                    open.edges.scroll_into_view(edge_list_rows(self.size));
                }
            }
            Action::LoadStepDone(step) => self.load.steps.push(step),
            Action::Opened(loaded) => self.attach(loaded),
            Action::CacheWritten(note) => self.say(note),
            Action::Loaded(result) => match *result {
                Ok(loaded) => self.on_loaded(loaded),
                Err(e) => {
                    self.fatal = Some(e);
                    self.should_quit = true;
                }
            },
            Action::Banded(outcome) => self.on_banded(outcome),
            Action::Estimated(estimated) => self.on_estimated(*estimated),
            Action::BandFailed { request, message } => {
                if self.candidates.job.accept(request).is_some() {
                    let export = if std::mem::take(&mut self.candidates.export_pending) {
                        " (export cancelled)"
                    } else {
                        ""
                    };
                    self.complain(format!("re-banding failed: {message}{export}"));
                }
            }
            Action::PromptInput(key) => self.on_prompt_key(key),
            Action::Exported(report) => self.on_exported(report),
            Action::TruthDone(done) => self.on_truth_done(done),
            Action::LabelsSaved(saved) => self.on_labels_saved(saved),
            Action::ClustersDone(outcome) => {
                let heights = (cluster_list_rows(self.size), edge_list_rows(self.size));
                self.clusters.accept(*outcome, heights);
            }
            Action::Imported(answer) => match *answer {
                ImportAnswer::Done { imported, outcome } => {
                    if !self.imported.announced {
                        self.imported.announced = true;
                        self.say(format!("imported {}", imported.report.summary()));
                    }
                    self.imported.result = Some(imported);
                    self.on_banded(outcome);
                }
                ImportAnswer::Failed { request, error } => {
                    if self.candidates.job.accept(request).is_some() {
                        self.fatal = Some(error);
                        self.should_quit = true;
                    }
                }
            },
            Action::CostDone(outcome) => self.cost.accept(*outcome, self.curve.threshold),
            Action::Click(x, y) => self.on_click(x, y),
            Action::Wheel(x, y, down) => self.on_wheel(x, y, down),
            Action::Command(cmd) => {
                self.message = None;
                self.on_command(cmd);
            }
        }
    }

    fn on_loaded(&mut self, loaded: Loaded) {
        self.attach(Arc::new(loaded));
    }

    /// Shows `loaded` (what [`Action::Loaded`] does with a finished load): resolves the
    /// labels to input positions, opens the main screen and queues the first re-banding.
    /// Public so benchmarks can share one index among several Apps.
    pub fn attach(&mut self, loaded: Arc<Loaded>) {
        let known = self.labels.attach(&loaded.corpus);
        let store = self.labels.store();
        if !store.is_empty() {
            self.say(format!(
                "loaded {} {} from {} ({known} {} this corpus)",
                store.len(),
                for_count(store.len() as u64, "label", "labels"),
                store.path().display(),
                for_count(known as u64, "matches", "match")
            ));
        }
        if let Some(note) = &loaded.read.cache_note {
            let text = match &self.message {
                Some(m) => format!("{note} · {}", m.text),
                None => note.clone(),
            };
            self.say(text);
        }
        // Random pairs similar enough to flood the candidates (char:1, say) deserve a word.
        if let Some(w) = crate::analysis::shingle_advice::candidate_share_notice(
            &loaded.index,
            self.curve.banding,
        ) {
            self.complain(w);
        }
        // What the reader warned about (stdin that looks like CSV, read as text lines) comes
        // last, so it is what the status line shows: it says the corpus may not be the one
        // the user meant.
        if !loaded.read.warnings.is_empty() {
            self.complain(loaded.read.warnings.join(" · "));
        }
        self.data = Some(loaded);
        self.screen = Screen::Main;
        self.request_banding();
        self.truth_on_loaded();
    }

    fn on_banded(&mut self, outcome: BandOutcome) {
        // Latest wins: an answer to anything but the newest request is dropped.
        let Some(ticket) = self.candidates.job.accept(outcome.request) else {
            return;
        };
        if self.candidates.estimated.take().is_none_or(|e| !e.refining) {
            self.candidates.first_latency = Some(ticket.submitted.elapsed());
        }
        self.show_candidates(outcome, Some(ticket.submitted));
    }

    /// Shows sampled candidates with their estimate; a first answer (`refining`) leaves the
    /// job running for the refined one.
    fn on_estimated(&mut self, estimated: EstimatedOutcome) {
        let id = estimated.outcome.request;
        let started = if estimated.refining {
            match self.candidates.job.running() {
                Some(t) if t.id == id => t.submitted,
                _ => return,
            }
        } else {
            match self.candidates.job.accept(id) {
                Some(t) => t.submitted,
                None => return,
            }
        };
        let first = self
            .candidates
            .estimated
            .as_ref()
            .is_none_or(|e| !e.refining)
            || self.result_is_stale();
        if first {
            self.candidates.first_latency = Some(started.elapsed());
        }
        self.candidates.estimated = Some(EstimatedInfo {
            estimate: estimated.estimate,
            refining: estimated.refining,
            bucket_pairs: estimated.bucket_pairs,
            bucket_bytes: estimated.bucket_bytes,
            largest_bucket: estimated.largest_bucket,
            cap_ignored: estimated.cap_ignored,
        });
        self.show_candidates(estimated.outcome, Some(started));
    }

    fn show_candidates(&mut self, outcome: BandOutcome, started: Option<std::time::Instant>) {
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        let mut outcome = outcome;
        self.candidates.known = outcome
            .known
            .take()
            .or_else(|| Some(Arc::clone(&outcome.pairs)));
        let prepared = outcome.prepared.take();
        self.candidates.result = Some(outcome);
        match prepared.map(|p| *p) {
            Some(p) if p.hist.bins() == self.hist.bins() => {
                self.hist = p.hist;
                self.add_labels_to_histogram();
                if p.view == self.list_view() {
                    self.show_order(p.order, keep);
                } else {
                    // The filter or sort changed while the job ran.
                    self.rebuild_visible(keep);
                }
            }
            _ => {
                self.rebuild_histogram();
                self.rebuild_visible(keep);
            }
        }
        self.count_above_threshold();
        self.truth_remeasure();
        self.candidates.last_latency = started.map(|t| t.elapsed());
        if std::mem::take(&mut self.candidates.export_pending) {
            self.export();
        }
        self.request_clusters();
    }

    /// Cancels the running job (if any) and queues a job for `self.curve.banding`.
    fn request_banding(&mut self) {
        let Some(data) = self.data.clone() else {
            return;
        };
        let ticket = self.candidates.job.submit(RebandRequest {
            data: Arc::clone(&data),
            banding: self.curve.banding,
            max_bucket: self.config.max_bucket,
            known: self.candidates.known.clone(),
            view: self.list_view(),
            bins: self.hist.bins(),
            sampling: self.candidates.sampling.clone(),
        });
        // With an imported result, the file's pairs answer every banding.
        match self.imported.job_for(&ticket) {
            Some(job) => self.effects.push(Effect::Import(job)),
            None => self.effects.push(Effect::Reband(ticket)),
        }
        if let Some(view) = &mut self.viewer.pair {
            view.collided = self.curve.banding.agreeing_bands(
                &data.index.signatures,
                view.a as usize,
                view.b as usize,
            );
        }
    }

    fn set_banding(&mut self, bands: usize, rows: usize) {
        let k = self.num_perm();
        if bands == 0 || rows == 0 {
            self.complain("bands and rows are at least 1");
            return;
        }
        if bands * rows > k {
            self.complain(format!(
                "b·r ≤ K: {bands} × {rows} = {} > {k} (raise --num-perm to go further)",
                bands * rows
            ));
            return;
        }
        let Ok(banding) = Banding::new(bands, rows, k) else {
            return;
        };
        if banding == self.curve.banding {
            return;
        }
        self.curve.banding = banding;
        if self.data.is_some() {
            self.request_banding();
        }
    }

    fn rebuild_histogram(&mut self) {
        let bins = self.hist.bins();
        self.hist = match &self.candidates.result {
            // Sampled candidates: bars are the estimated counts, labels those of the sample.
            Some(_) if self.candidates.estimated.is_some() => self
                .candidates
                .estimated
                .as_ref()
                .map(|e| e.estimate.histogram())
                .filter(|h| h.bins() == bins)
                .unwrap_or_else(|| SimilarityHistogram::new(bins)),
            Some(result) => SimilarityHistogram::from_values(
                result.pairs.iter().map(|p| (p.jaccard, None)),
                bins,
            ),
            None => SimilarityHistogram::new(bins),
        };
        self.add_labels_to_histogram();
    }

    /// Counts the labels of the current candidates into `hist` (which must have no labels).
    fn add_labels_to_histogram(&mut self) {
        let Some(result) = &self.candidates.result else {
            return;
        };
        let pairs = &result.pairs;
        // Labels are few and pairs sorted by (a, b): look each label's pair up, rather than
        // every pair's label.
        for (&(a, b), &label) in self.labels.by_position() {
            if let Ok(i) = pairs.binary_search_by(|p| (p.a, p.b).cmp(&(a, b))) {
                self.hist.add_label(pairs[i].jaccard, label);
            }
        }
    }

    /// The filter and sort the pair list shows.
    pub fn list_view(&self) -> ListView {
        self.view
    }

    fn count_above_threshold(&mut self) {
        let t = self.curve.threshold;
        self.pairs_at_or_above_t = self
            .candidates
            .result
            .as_ref()
            .map(|r| r.pairs.iter().filter(|p| p.jaccard >= t).count())
            .unwrap_or(0);
    }

    /// Recomputes the filtered, sorted list, keeping `keep` selected if it is still there.
    fn rebuild_visible(&mut self, keep: Option<(u32, u32)>) {
        let order = match &self.candidates.result {
            Some(result) => list_order(&result.pairs, self.list_view()),
            None => Vec::new(),
        };
        self.show_order(order, keep);
    }

    /// Shows `order` (indices into the current result) as the list, keeping `keep` selected
    /// if it is still there.
    fn show_order(&mut self, order: Vec<u32>, keep: Option<(u32, u32)>) {
        let height = self.list_height();
        let pairs = self
            .candidates
            .result
            .as_ref()
            .map(|r| Arc::clone(&r.pairs));
        self.candidates.list.show(
            order,
            |i| match (&pairs, keep) {
                (Some(pairs), Some(k)) => (pairs[i as usize].a, pairs[i as usize].b) == k,
                _ => false,
            },
            height,
        );
        self.rebuild_missed();
    }

    /// Rows the pair list panel shows at the current size.
    fn list_height(&self) -> usize {
        layout::pair_list_rows(self.size).max(1)
    }

    /// The missed list's view: the candidate list's filter and sort, at t.
    fn missed_view(&self) -> MissedView {
        MissedView {
            list: self.list_view(),
            threshold: self.curve.threshold,
            height: self.list_height(),
        }
    }

    fn rebuild_missed(&mut self) {
        let view = self.missed_view();
        self.truth.rebuild_missed(view);
    }

    /// Measures the truth against the shown candidates at the current t.
    fn truth_remeasure(&mut self) {
        let view = self.missed_view();
        // Sampled candidates: recall from the signatures, precision from the estimates.
        let candidates = match (&self.candidates.result, &self.data) {
            (Some(r), Some(data)) => Some(match self.candidates.estimated_total() {
                Some(total) => MeasuredCandidates::Sampled {
                    banding: r.banding,
                    signatures: &data.index.signatures,
                    total: total.value.round() as usize,
                    at_or_above: self
                        .candidates
                        .estimated_at_or_above(self.curve.threshold)
                        .map_or(0, |e| e.value.round() as usize),
                },
                None => MeasuredCandidates::Listed {
                    banding: r.banding,
                    pairs: r.pairs.as_slice(),
                    at_or_above: self.pairs_at_or_above_t,
                },
            }),
            _ => None,
        };
        self.truth.remeasure(candidates, self.hist.bins(), view);
    }

    fn move_selection(&mut self, delta: isize) {
        let height = self.list_height();
        self.candidates.list.move_by(delta, height);
    }

    fn open_selected(&mut self) {
        let Some(pair) = self.selected_pair().copied() else {
            self.complain("no pair selected");
            return;
        };
        let Some(data) = &self.data else { return };
        self.viewer.pair = Some(pair_view(data, &pair, self.curve.banding));
        self.screen = Screen::Viewer;
    }

    fn set_label(&mut self, label: Option<Label>) {
        let pair = match (&self.viewer.pair, self.screen) {
            (Some(v), Screen::Viewer) => Some((v.a, v.b)),
            (_, Screen::Clusters) => self.selected_cluster_edge().map(|(_, e)| (e.a, e.b)),
            _ if self.truth.show_missed => self.truth.selected_missed().map(|p| (p.a, p.b)),
            _ => self.selected_pair().map(|p| (p.a, p.b)),
        };
        let (Some((a, b)), Some(data)) = (pair, &self.data) else {
            self.complain("no pair selected to label");
            return;
        };
        let ids = (data.corpus.id(a as usize), data.corpus.id(b as usize));
        // The file is written by the label writer thread; the status line says "saved" only
        // when it answers, so what the screen acknowledges is on disk.
        let (save, text) = self.labels.set((a, b), ids, label);
        self.effects.push(Effect::SaveLabels(Box::new(save)));
        self.say(format!("{text} (saving…)"));
        self.rebuild_histogram();
    }

    fn on_labels_saved(&mut self, saved: LabelsSaved) {
        match self.labels.saved(saved) {
            Some(Ok(text)) => self.say(text),
            Some(Err(text)) => self.complain(text),
            None => {}
        }
    }

    fn on_command(&mut self, cmd: Command) {
        if self.overlay == Overlay::Help {
            // Any key closes the help; quitting still quits.
            self.overlay = Overlay::None;
            if cmd != Command::Quit {
                return;
            }
        }
        if self.cost_command(cmd) || self.truth_command(cmd) || self.clusters_command(cmd) {
            return;
        }
        let b = self.curve.banding;
        match cmd {
            Command::Quit => {
                self.load.progress.cancel();
                self.candidates.job.cancel_running();
                self.should_quit = true;
            }
            Command::Help => self.overlay = Overlay::Help,
            Command::Back => {
                if self.screen == Screen::Viewer {
                    self.screen = Screen::Main;
                    self.viewer.pair = None;
                } else if self.view.filter.is_some() {
                    self.clear_filter();
                }
            }
            Command::FocusNext | Command::FocusPrev => {
                let order = [Focus::Curve, Focus::Histogram, Focus::Pairs];
                let i = order.iter().position(|&f| f == self.focus).unwrap_or(0);
                let step = if cmd == Command::FocusNext { 1 } else { 2 };
                self.focus = order[(i + step) % 3];
            }
            Command::BandsDown => self.set_banding(b.bands.saturating_sub(1), b.rows),
            Command::BandsUp => self.set_banding(b.bands + 1, b.rows),
            Command::RowsDown => self.set_banding(b.bands, b.rows.saturating_sub(1)),
            Command::RowsUp => self.set_banding(b.bands, b.rows + 1),
            Command::Pin => {
                if self.curve.pins.contains(&b) {
                    self.say(format!("{b} is already pinned"));
                } else if self.curve.pins.len() >= MAX_PINS {
                    self.complain(format!(
                        "at most {MAX_PINS} pinned curves: {} clears them",
                        hint(Command::ClearPins)
                    ));
                } else {
                    self.curve.pins.push(b);
                    self.say(format!("pinned {b}"));
                }
            }
            Command::ClearPins => {
                self.curve.pins.clear();
                self.say("pins cleared");
            }
            Command::ThresholdPrompt => self.open_prompt(PromptKind::Threshold),
            Command::ThresholdDown => self.set_threshold(self.curve.threshold - 0.01),
            Command::ThresholdUp => self.set_threshold(self.curve.threshold + 0.01),
            Command::ToggleLog => self.log_scale = !self.log_scale,
            Command::BinLeft => self.bin_cursor = self.bin_cursor.saturating_sub(1),
            Command::BinRight => self.bin_cursor = (self.bin_cursor + 1).min(self.hist.bins() - 1),
            Command::FilterToBin => self.filter_to_bin(self.bin_cursor),
            Command::FilterPrompt => self.open_prompt(PromptKind::Filter),
            Command::ClearFilter => self.clear_filter(),
            Command::Up => self.scroll_or_move(-1),
            Command::Down => self.scroll_or_move(1),
            Command::PageUp => self.scroll_or_move(-(self.page() as isize)),
            Command::PageDown => self.scroll_or_move(self.page() as isize),
            Command::Top => {
                let height = self.list_height();
                self.candidates.list.top(height);
            }
            Command::Bottom => {
                let height = self.list_height();
                self.candidates.list.bottom(height);
            }
            Command::Open => self.open_selected(),
            Command::CycleSort => {
                self.view.sort = match self.view.sort {
                    SortOrder::JaccardDesc => SortOrder::JaccardAsc,
                    SortOrder::JaccardAsc => SortOrder::Shuffled,
                    SortOrder::Shuffled => SortOrder::JaccardDesc,
                };
                let keep = self.selected_pair().map(|p| (p.a, p.b));
                self.rebuild_visible(keep);
                let height = self.list_height();
                self.candidates.list.top(height);
                self.say(format!("sorted by {}", self.view.sort.label()));
            }
            Command::JumpPrompt => self.open_prompt(PromptKind::Jump),
            Command::LabelDuplicate => self.set_label(Some(Label::Duplicate)),
            Command::LabelNotDuplicate => self.set_label(Some(Label::NotDuplicate)),
            Command::LabelUnsure => self.set_label(Some(Label::Unsure)),
            Command::ClearLabel => self.set_label(None),
            Command::PrevPair | Command::NextPair => {
                let before = self.candidates.list.selected();
                self.move_selection(if cmd == Command::NextPair { 1 } else { -1 });
                if self.candidates.list.selected() == before {
                    self.say("no more pairs in the list");
                } else {
                    self.open_selected();
                }
            }
            Command::ToggleBandValues => self.viewer.show_values = !self.viewer.show_values,
            Command::ScrollSide => {
                if let Some(v) = &mut self.viewer.pair {
                    v.next_side();
                }
            }
            Command::Export => self.export(),
            // Handled by `truth_command` and `clusters_command` above.
            // Handled by `cost_command` above.
            Command::ComputeTruth
            | Command::ToggleMissed
            | Command::ToggleClusters
            | Command::ToggleCost
            | Command::CycleMetric
            | Command::CursorLeft
            | Command::CursorRight => {}
        }
    }

    fn page(&self) -> usize {
        match self.screen {
            Screen::Viewer => layout::viewer_text_rows(
                self.size,
                self.viewer.show_values,
                self.curve.banding.bands,
            )
            .saturating_sub(1)
            .max(1),
            _ => layout::pair_list_rows(self.size).saturating_sub(1).max(1),
        }
    }

    fn scroll_or_move(&mut self, delta: isize) {
        if self.screen != Screen::Viewer && self.truth.show_missed {
            let height = self.list_height();
            self.truth.missed.move_by(delta, height);
            return;
        }
        if self.screen != Screen::Viewer {
            self.move_selection(delta);
            return;
        }
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands),
        );
        view.scroll(delta, &data.corpus, width, rows);
    }

    fn set_threshold(&mut self, t: f64) {
        // Round to 1e-6 so repeated ±0.01 steps do not drift (0.1 + 0.01·k in binary).
        self.curve.threshold = (t.clamp(0.0, 1.0) * 1e6).round() / 1e6;
        self.count_above_threshold();
        self.truth_remeasure();
        self.request_clusters();
        self.cost.follow_threshold(self.curve.threshold);
    }

    /// Handles the cost view's commands (see [`super::cost`]). `true` when `cmd` was
    /// handled here; b, r, t, help and quit go on to the common handling.
    fn cost_command(&mut self, cmd: Command) -> bool {
        let k = self.num_perm();
        let here = self.curve.banding;
        match cmd {
            Command::Quit => {
                self.cost.job.cancel_running();
                false
            }
            Command::ToggleCost => {
                if self.screen == Screen::Cost {
                    self.screen = Screen::Main;
                } else if let Some(data) = self.data.clone() {
                    self.screen = Screen::Cost;
                    self.cost.cursor = Some(here);
                    // Computed once a session: the counts depend on the corpus only.
                    if self.cost.grid.is_none() && !self.cost.job.is_running() {
                        let options = crate::analysis::cost::CostOptions {
                            threshold: self.curve.threshold,
                            enumeration_budget: self.candidates.sampling.enumeration_budget,
                            sampled_draws: self.candidates.sampling.refined_draws,
                            ..Default::default()
                        };
                        let job = self.cost.job.submit(CostRequest { data, options });
                        self.effects.push(Effect::Cost(job));
                    }
                }
                true
            }
            _ if self.screen != Screen::Cost => false,
            Command::CursorLeft | Command::CursorRight | Command::Up | Command::Down => {
                let (db, dr) = match cmd {
                    Command::CursorLeft => (-1, 0),
                    Command::CursorRight => (1, 0),
                    Command::Up => (0, 1),
                    _ => (0, -1),
                };
                self.cost.move_cursor(here, db, dr, k);
                true
            }
            Command::Open => {
                let to = self.cost.cursor.unwrap_or(here);
                self.screen = Screen::Main;
                self.set_banding(to.bands, to.rows);
                true
            }
            Command::CycleMetric => {
                self.cost.metric = self.cost.metric.next();
                true
            }
            Command::Back => {
                self.screen = Screen::Main;
                true
            }
            _ => false,
        }
    }

    fn filter_to_bin(&mut self, bin: usize) {
        let (low, high, high_inclusive) =
            crate::analysis::histogram::bin_bounds(bin, self.hist.bins());
        self.bin_cursor = bin;
        self.set_filter(JaccardFilter {
            low,
            high,
            high_inclusive,
            bin: Some(bin),
        });
    }

    fn set_filter(&mut self, filter: JaccardFilter) {
        self.view.filter = Some(filter);
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        self.rebuild_visible(keep);
        let shown = self.candidates.list.len();
        self.say(format!(
            "showing {shown} {} with {} ({} clears)",
            for_count(shown as u64, "pair", "pairs"),
            filter.describe(),
            hint(Command::ClearFilter)
        ));
    }

    fn clear_filter(&mut self) {
        if self.view.filter.take().is_some() {
            let keep = self.selected_pair().map(|p| (p.a, p.b));
            self.rebuild_visible(keep);
            self.say("filter cleared");
        }
    }

    fn open_prompt(&mut self, kind: PromptKind) {
        self.overlay = Overlay::Prompt(Prompt {
            kind,
            input: String::new(),
        });
    }

    fn on_prompt_key(&mut self, key: PromptKey) {
        let Overlay::Prompt(prompt) = &mut self.overlay else {
            return;
        };
        match key {
            PromptKey::Char(c) => prompt.input.push(c),
            PromptKey::Backspace => {
                prompt.input.pop();
            }
            PromptKey::Cancel => self.overlay = Overlay::None,
            PromptKey::Submit => {
                let prompt = prompt.clone();
                self.overlay = Overlay::None;
                self.submit_prompt(prompt);
            }
        }
    }

    fn submit_prompt(&mut self, prompt: Prompt) {
        let input = prompt.input.trim();
        match prompt.kind {
            PromptKind::Threshold => match input.parse::<f64>() {
                Ok(t) if (0.0..=1.0).contains(&t) => {
                    self.set_threshold(t);
                    self.say(format!("threshold t = {t}"));
                }
                _ => self.complain(format!(
                    "threshold must be a number in [0, 1], got {input:?}"
                )),
            },
            PromptKind::Filter => match parse_range(input) {
                Some((low, high)) => self.set_filter(JaccardFilter {
                    low,
                    high,
                    high_inclusive: true,
                    bin: None,
                }),
                None => self.complain(format!(
                    "not a Jaccard range: {input:?} (write e.g. 0.5-0.8, or 0.7 for ≥ 0.7)"
                )),
            },
            PromptKind::Jump => self.jump_to(input),
        }
    }

    fn jump_to(&mut self, id: &str) {
        let (Some(result), Some(data)) = (&self.candidates.result, &self.data) else {
            return;
        };
        if id.is_empty() {
            return;
        }
        let has = |i: u32| {
            let p = &result.pairs[i as usize];
            data.corpus.id(p.a as usize) == id || data.corpus.id(p.b as usize) == id
        };
        // Search forward from the pair after the selection, wrapping, so `/` again finds the
        // next pair with the same id.
        match self.candidates.list.find_after_selection(has) {
            Some(k) => {
                let height = self.list_height();
                self.candidates.list.select(k, height);
                self.say(format!("pair with {id}"));
            }
            None if (0..result.pairs.len() as u32).any(has) => self.complain(format!(
                "{id} is in a pair the filter hides ({} clears the filter)",
                hint(Command::ClearFilter)
            )),
            None if data.corpus.position_of(id).is_some() => self.complain(format!(
                "{id} is in no candidate pair at {}",
                self.curve.banding
            )),
            None => self.complain(format!("no document has the id {id:?}")),
        }
    }

    fn on_click(&mut self, x: u16, y: u16) {
        if self.screen != Screen::Main || self.overlay != Overlay::None {
            return;
        }
        let l = layout::main_layout(self.size);
        let pos = ratatui::layout::Position { x, y };
        if l.curve.contains(pos) {
            self.focus = Focus::Curve;
        } else if l.histogram.contains(pos) {
            self.focus = Focus::Histogram;
            let g = layout::histogram_geometry(l.histogram, self.hist.bins());
            if let Some(bin) = g.bin_at(x) {
                self.filter_to_bin(bin);
            }
        } else if l.pairs.contains(pos) {
            self.focus = Focus::Pairs;
            let first_row = l.pairs.y + 2;
            if y >= first_row {
                let height = self.list_height();
                let list = if self.truth.show_missed {
                    &mut self.truth.missed
                } else {
                    &mut self.candidates.list
                };
                if let Some(i) = list.row_on_line((y - first_row) as usize) {
                    list.select(i, height);
                }
            }
        }
    }

    fn on_wheel(&mut self, _x: u16, _y: u16, down: bool) {
        if self.overlay != Overlay::None {
            return;
        }
        if self.screen == Screen::Clusters {
            for _ in 0..3 {
                self.clusters_command(if down { Command::Down } else { Command::Up });
            }
            return;
        }
        self.scroll_or_move(if down { 3 } else { -3 });
    }

    /// Queues the export of the filtered pairs (CSV) and the plots; the file is written off
    /// the UI thread (it may hold millions of rows) and [`Action::Exported`] reports back.
    fn export(&mut self) {
        if self.candidates.job.is_running()
            && (self.candidates.result.is_none() || self.result_is_stale())
        {
            self.candidates.export_pending = true;
            self.say(format!(
                "exporting when the candidates of {} are ready…",
                self.curve.banding
            ));
            return;
        }
        let Some(result) = &self.candidates.result else {
            self.complain("nothing to export yet");
            return;
        };
        let path = self.export_path("pairs", result.banding);
        let Some(data) = self.data.clone() else {
            return;
        };
        let job = ExportJob {
            data,
            path: path.clone(),
            pairs: Arc::clone(&result.pairs),
            rows: self.candidates.list.rows().to_vec(),
            labels: self.labels.by_position().clone(),
            plots: self.plot_spec(result.banding),
            sampled_from: self.candidates.estimated_total(),
        };
        self.say(format!(
            "exporting {} {}to {} and the plots…",
            thousands(job.rows.len() as u64),
            sampled_pairs(job.sampled_from),
            path.display()
        ));
        self.effects.push(Effect::Export(Box::new(job)));
    }

    /// `e` on the missed list: the listed missed pairs (filtered, in list order) as CSV, in
    /// the candidates' export format (bands_hit 0), next to the candidate exports.
    fn export_missed(&mut self) {
        let (Some(data), Some(m)) = (&self.data, &self.truth.measure) else {
            self.complain("nothing to export yet");
            return;
        };
        let banding = m.banding;
        let pairs = self.truth.listed_missed(data);
        let labels = pairs
            .iter()
            .filter_map(|p| self.label_of(p.a, p.b).map(|l| ((p.a, p.b), l)))
            .collect();
        let path = self.export_path("missed", banding);
        let job = ExportJob {
            data: Arc::clone(data),
            path: path.clone(),
            rows: (0..pairs.len() as u32).collect(),
            pairs: Arc::new(pairs),
            labels,
            plots: self.plot_spec(banding),
            sampled_from: None,
        };
        self.say(format!(
            "exporting {} missed pairs to {}…",
            job.rows.len(),
            path.display()
        ));
        self.effects.push(Effect::Export(Box::new(job)));
    }

    /// `export_dir/<stem>.<what>.<b>x<r>.csv`.
    fn export_path(&self, what: &str, banding: Banding) -> PathBuf {
        self.config.export_dir.join(format!(
            "{}.{what}.{}x{}.csv",
            self.config.export_stem, banding.bands, banding.rows
        ))
    }

    /// The plots an export writes, with the histogram of the candidates of `histogram_banding`.
    fn plot_spec(&self, histogram_banding: Banding) -> PlotSpec {
        PlotSpec {
            dir: self.config.export_dir.clone(),
            stem: self.config.export_stem.clone(),
            banding: self.curve.banding,
            pins: self.curve.pins.clone(),
            threshold: self.curve.threshold,
            num_perm: self.num_perm(),
            histogram: self.hist.clone(),
            histogram_banding,
            log_scale: self.log_scale,
            estimated: self.candidates.estimated.as_ref().map(|e| {
                // Short enough for the figure's legend line.
                format!(
                    "{} in all (95 %, {} sampled)",
                    e.estimate.total,
                    thousands(e.estimate.draws as u64)
                )
            }),
        }
    }

    /// The truth is incomplete at the current t (t is below what it covers).
    pub fn truth_below_floor(&self) -> bool {
        self.truth.below_floor(self.curve.threshold)
    }

    /// The truth pair the missed list has selected.
    pub fn selected_missed(&self) -> Option<&TruthPair> {
        self.truth.selected_missed()
    }

    /// After loading: read `--truth FILE` in the background.
    fn truth_on_loaded(&mut self) {
        if let Some(path) = self.truth.file.clone() {
            self.start_truth_job(TruthTask::Read(path));
        }
    }

    fn start_truth_job(&mut self, task: TruthTask) {
        let Some(data) = self.data.clone() else {
            return;
        };
        let job = self.truth.submit(data, task);
        self.effects.push(Effect::Truth(job));
    }

    /// Handles the commands the truth owns, and the list and viewer commands while the missed
    /// list is in use. `true` when `cmd` was handled here.
    fn truth_command(&mut self, cmd: Command) -> bool {
        let on_missed_list = self.screen == Screen::Main && self.truth.show_missed;
        let in_missed_viewer = self.screen == Screen::Viewer && self.truth.viewing;
        let height = self.list_height();
        match cmd {
            Command::Quit => {
                self.truth.job.cancel_running();
                false
            }
            Command::ComputeTruth => {
                let t = self.curve.threshold;
                if t <= 0.0 {
                    self.complain("the exact join needs t > 0 (at 0 every pair is similar)");
                } else if self.data.is_some() {
                    self.start_truth_job(TruthTask::Join { threshold: t });
                    self.say(format!("computing the exact truth at J ≥ {t}…"));
                }
                true
            }
            Command::ToggleMissed => {
                if self.truth.truth.is_none() {
                    self.complain(format!(
                        "no truth yet: {} computes it (exact join at t), or start with --truth FILE",
                        hint(Command::ComputeTruth)
                    ));
                } else {
                    self.truth.show_missed = !self.truth.show_missed;
                    if self.truth.show_missed {
                        self.say(format!(
                            "pair list: missed pairs (true J ≥ t, not candidates); {}: candidates",
                            hint(Command::ToggleMissed)
                        ));
                    } else {
                        self.say("pair list: candidate pairs");
                    }
                }
                true
            }
            Command::Top if on_missed_list => {
                self.truth.missed.top(height);
                true
            }
            Command::Bottom if on_missed_list => {
                self.truth.missed.bottom(height);
                true
            }
            Command::Open if on_missed_list => {
                self.open_missed();
                true
            }
            Command::Export if on_missed_list => {
                self.export_missed();
                true
            }
            Command::JumpPrompt if on_missed_list => {
                self.complain(format!(
                    "{} searches the candidate list ({} shows it)",
                    hint(Command::JumpPrompt),
                    hint(Command::ToggleMissed)
                ));
                true
            }
            Command::PrevPair | Command::NextPair if in_missed_viewer => {
                let before = self.truth.missed.selected();
                let delta = if cmd == Command::NextPair { 1 } else { -1 };
                self.truth.missed.move_by(delta, height);
                if self.truth.missed.selected() == before {
                    self.say("no more pairs in the missed list");
                } else {
                    self.open_missed();
                }
                true
            }
            Command::Back if in_missed_viewer => {
                self.truth.viewing = false;
                false
            }
            _ => false,
        }
    }

    fn on_truth_done(&mut self, done: super::truth::TruthDone) {
        match self.truth.accept(done, self.hist.bins()) {
            None => {}
            Some(Ok(text)) => {
                self.say(text);
                self.truth_remeasure();
            }
            Some(Err(TruthFailure::BadFile(e))) => {
                self.fatal = Some(e);
                self.should_quit = true;
            }
            Some(Err(TruthFailure::Refused(msg))) => self.complain(msg),
            Some(Err(TruthFailure::Failed(msg))) => {
                self.complain(format!("exact join failed: {msg}"))
            }
        }
    }

    /// Opens the selected missed pair in the pair viewer.
    fn open_missed(&mut self) {
        let (Some(p), Some(data)) = (self.truth.selected_missed().copied(), self.data.clone())
        else {
            self.complain("no missed pair selected");
            return;
        };
        let pair = self.truth.as_verified(&data, &p);
        self.viewer.pair = Some(pair_view(&data, &pair, self.curve.banding));
        self.screen = Screen::Viewer;
        self.truth.viewing = true;
    }

    /// True while the clusters view (or a pair opened from it) is on screen: only then are
    /// clusters computed.
    pub fn clusters_shown(&self) -> bool {
        self.screen == Screen::Clusters || (self.screen == Screen::Viewer && self.clusters.viewing)
    }

    /// The selected edge of the open cluster.
    pub fn selected_cluster_edge(
        &self,
    ) -> Option<(super::clusters::EdgeKind, crate::analysis::clusters::Edge)> {
        self.clusters.open.as_ref()?.selected_edge()
    }

    /// Queues a clusters job for the shown candidates at t, when the clusters view is shown,
    /// the candidates answer the banding asked for, and nothing was asked for these yet.
    fn request_clusters(&mut self) {
        let (Some(data), Some(result)) = (&self.data, &self.candidates.result) else {
            return;
        };
        let (banding, threshold) = (result.banding, self.curve.threshold);
        if !self.clusters_shown()
            || banding != self.curve.banding
            || self.clusters.asked() == Some((banding, threshold))
        {
            return;
        }
        let job = self.clusters.job.submit(ClustersRequest {
            data: Arc::clone(data),
            pairs: Arc::clone(&result.pairs),
            banding,
            threshold,
            // The re-banding jobs' groups serve when the clusters have none yet.
            identical: self
                .clusters
                .identical
                .clone()
                .or_else(|| self.candidates.sampling.bands.found_groups()),
            sort: self.clusters.sort.0,
            fixed: self.imported.clusters(),
            // Sampled candidates do not hold every pair: the job joins the buckets instead.
            from_buckets: self.candidates.estimated.is_some().then_some(FromBuckets {
                max_bucket: self.config.max_bucket,
            }),
        });
        self.effects.push(Effect::Clusters(job));
    }

    /// Handles the clusters view's commands, and the list and viewer commands while it is in
    /// use. `true` when `cmd` was handled here.
    fn clusters_command(&mut self, cmd: Command) -> bool {
        let in_edge_viewer = self.screen == Screen::Viewer && self.clusters.viewing;
        if cmd == Command::Quit {
            self.clusters.job.cancel_running();
            return false;
        }
        if cmd == Command::ToggleClusters {
            if self.screen == Screen::Clusters {
                self.screen = Screen::Main;
                self.clusters.open = None;
            } else if self.data.is_some() {
                self.screen = Screen::Clusters;
                self.request_clusters();
            }
            return true;
        }
        if in_edge_viewer {
            match cmd {
                Command::Back => {
                    self.clusters.viewing = false;
                    self.viewer.pair = None;
                    self.screen = Screen::Clusters;
                }
                Command::PrevPair | Command::NextPair => {
                    let height = edge_list_rows(self.size);
                    let Some(open) = &mut self.clusters.open else {
                        return true;
                    };
                    let before = open.edges.selected();
                    open.edges
                        .move_by(if cmd == Command::NextPair { 1 } else { -1 }, height);
                    if open.edges.selected() == before {
                        self.say("no more edges in this cluster");
                    } else {
                        self.open_cluster_edge();
                    }
                }
                _ => return false,
            }
            return true;
        }
        if self.screen != Screen::Clusters {
            return false;
        }
        let size = self.size;
        let (list_rows, edge_rows) = (cluster_list_rows(size), edge_list_rows(size));
        let moved = |list: &mut PairList, rows: usize, cmd: Command| match cmd {
            Command::Up => list.move_by(-1, rows),
            Command::Down => list.move_by(1, rows),
            Command::PageUp => list.move_by(-(rows.saturating_sub(1).max(1) as isize), rows),
            Command::PageDown => list.move_by(rows.saturating_sub(1).max(1) as isize, rows),
            Command::Top => list.top(rows),
            _ => list.bottom(rows),
        };
        match cmd {
            Command::Up
            | Command::Down
            | Command::PageUp
            | Command::PageDown
            | Command::Top
            | Command::Bottom => match (&mut self.clusters.open, &self.clusters.result) {
                (Some(open), Some(result)) => {
                    moved(&mut open.edges, edge_rows, cmd);
                    let members = result.clusters.members(open.cluster);
                    open.follow_selection(
                        members,
                        super::clusters::member_rows(size).saturating_sub(1).max(1),
                    );
                }
                _ => moved(&mut self.clusters.list, list_rows, cmd),
            },
            Command::Open if self.clusters.open.is_some() => self.open_cluster_edge(),
            Command::Open => match (&self.clusters.result, self.clusters.selected_cluster()) {
                (Some(result), Some(c)) => {
                    self.clusters.open = Some(OpenCluster::new(result, c, edge_rows));
                }
                _ => self.complain("no cluster selected"),
            },
            Command::CycleSort => {
                let sort = self.clusters.sort.0.toggled();
                self.clusters.set_sort(sort, list_rows);
                self.clusters.list.top(list_rows);
                self.say(format!("clusters sorted by {}", sort.label()));
            }
            Command::Back if self.clusters.open.is_some() => self.clusters.open = None,
            Command::Back => self.screen = Screen::Main,
            _ => return false,
        }
        true
    }

    /// Opens the selected edge of the open cluster in the pair viewer.
    fn open_cluster_edge(&mut self) {
        let (Some((_, edge)), Some(data)) = (self.selected_cluster_edge(), self.data.clone())
        else {
            self.complain("no edge selected");
            return;
        };
        let pair = edge_pair(&data, edge, self.curve.banding);
        self.viewer.pair = Some(pair_view(&data, &pair, self.curve.banding));
        self.screen = Screen::Viewer;
        self.clusters.viewing = true;
    }

    fn on_exported(&mut self, report: ExportReport) {
        match report.csv {
            Err(e) => self.complain(format!("export failed: {e}")),
            Ok(()) => {
                let csv = format!(
                    "wrote {} {}to {}",
                    thousands(report.rows as u64),
                    sampled_pairs(report.sampled_from),
                    report.path.display()
                );
                match report.plots {
                    Ok(paths) => {
                        let names = brace_names(&paths, report.path.parent());
                        self.say(format!("{csv}; plots: {names}"));
                    }
                    Err(e) => self.complain(format!("{csv}; plots failed: {e}")),
                }
            }
        }
    }
}

/// "pairs ", or for a uniform sample of ≈N candidates "sampled pairs (a uniform sample of
/// ≈N ± h candidates) ".
fn sampled_pairs(sampled_from: Option<Estimate>) -> String {
    match sampled_from {
        None => "pairs ".to_string(),
        Some(total) => format!("sampled pairs (a uniform sample of {total} candidates) "),
    }
}

/// Parses `0.5-0.8`, `0.5..0.8`, `0.5 0.8`, `0.5,0.8` or a single lower bound `0.7`.
fn parse_range(input: &str) -> Option<(f64, f64)> {
    let spaced = input.replace("..", " ");
    let parts: Vec<&str> = spaced
        .split(|c: char| c == '-' || c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let nums: Vec<f64> = parts
        .iter()
        .map(|s| s.trim().parse().ok())
        .collect::<Option<_>>()?;
    let (low, high) = match nums.as_slice() {
        [x] => (*x, 1.0),
        [x, y] => (*x, *y),
        _ => return None,
    };
    ((0.0..=1.0).contains(&low) && (0.0..=1.0).contains(&high) && low <= high)
        .then_some((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("0.5-0.8"), Some((0.5, 0.8)));
        assert_eq!(parse_range("0.5..0.8"), Some((0.5, 0.8)));
        assert_eq!(parse_range(" 0.2 0.4 "), Some((0.2, 0.4)));
        assert_eq!(parse_range("0.2,0.4"), Some((0.2, 0.4)));
        assert_eq!(parse_range("0.7"), Some((0.7, 1.0)));
        assert_eq!(parse_range("0.8-0.5"), None);
        assert_eq!(parse_range("1.5"), None);
        assert_eq!(parse_range("abc"), None);
        assert_eq!(parse_range(""), None);
    }
}
