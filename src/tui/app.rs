//! Explorer state and the only place it changes: [`App::update`].
//!
//! Rendering reads an `&App`; workers report back through [`Action`]s; anything the App wants
//! done outside itself (start a re-banding job) it queues as an [`Effect`] for the event loop.

use std::collections::HashMap;

use rayon::prelude::*;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::analysis::histogram::SimilarityHistogram;
use crate::analysis::labels::{Label, LabelStore};
use crate::corpus::{Corpus, ReadOptions, ReadReport};
use crate::jobs::{Phase, Progress};
use crate::minhash::{Banding, Index, IndexOptions, VerifiedPair};
use crate::rng::SplitMix64;
use crate::similarity::TextMetrics;

use super::keys::{Command, Context};
use super::theme::{MAX_PINS, Theme};
use super::ui::layout;

/// Where the documents come from.
#[derive(Debug, Clone)]
pub enum Source {
    File {
        path: PathBuf,
        read: ReadOptions,
    },
    /// The gzipped sample compiled into the binary.
    EmbeddedSample,
}

/// Everything fixed for a session.
#[derive(Debug, Clone)]
pub struct Config {
    pub source: Source,
    /// Shown in titles.
    pub source_name: String,
    pub index_options: IndexOptions,
    /// The banding to start with.
    pub banding: Banding,
    pub threshold: f64,
    pub max_bucket: Option<usize>,
    /// Exports go to `export_dir/<export_stem>.pairs.<b>x<r>.csv`.
    pub export_dir: PathBuf,
    pub export_stem: String,
    pub monochrome: bool,
    /// Histogram bins (at least 20).
    pub bins: usize,
    /// Seed of the shuffled sort order.
    pub shuffle_seed: u64,
}

/// The corpus and its index, shared read-only with the workers.
#[derive(Debug)]
pub struct Loaded {
    pub corpus: Corpus,
    pub index: Index,
    pub read: ReadReport,
}

/// A finished loading phase, for the loading screen.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadStep {
    pub phase: Phase,
    pub items: u64,
    pub unit: &'static str,
    pub seconds: f64,
}

/// The verified candidates of one banding, tagged with the request that asked for them.
#[derive(Debug, Clone)]
pub struct BandOutcome {
    pub request: u64,
    pub banding: Banding,
    /// Every candidate with its exact Jaccard and estimate, sorted by (a, b). Shared with the
    /// next re-banding job, which reuses the similarities of the pairs both bandings find.
    pub pairs: Arc<Vec<VerifiedPair>>,
    /// Every pair verified so far this session (sorted by (a, b)), for the next job; `None`
    /// means just `pairs`.
    pub known: Option<Arc<Vec<VerifiedPair>>>,
    pub elapsed: Duration,
    /// Histogram counts and list order computed by the worker for the view asked with the
    /// request, so a large result does not stall the UI thread; `None`: the App computes them.
    pub prepared: Option<Box<Prepared>>,
}

/// What the pair list shows: which pairs and in what order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListView {
    pub filter: Option<JaccardFilter>,
    pub sort: SortOrder,
    pub shuffle_seed: u64,
}

/// A result's histogram counts (no labels) and its list order for `view`.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub view: ListView,
    pub hist: SimilarityHistogram,
    pub order: Vec<u32>,
}

impl Prepared {
    pub fn new(pairs: &[VerifiedPair], bins: usize, view: ListView) -> Self {
        Prepared {
            view,
            hist: SimilarityHistogram::from_values(pairs.iter().map(|p| (p.jaccard, None)), bins),
            order: list_order(pairs, view),
        }
    }
}

/// Indices of the `pairs` that pass `view.filter`, in `view.sort` order. Millions of
/// candidates are possible (a low threshold on a large corpus): (key, index) pairs are
/// sorted in parallel rather than with a comparator that looks both pairs up. Index order is
/// (a, b) order, so ties break by the ids' input positions.
pub fn list_order(pairs: &[VerifiedPair], view: ListView) -> Vec<u32> {
    let ListView {
        filter,
        sort,
        shuffle_seed: seed,
    } = view;
    let mut keyed: Vec<(u64, u32)> = pairs
        .par_iter()
        .enumerate()
        .filter(|(_, p)| filter.is_none_or(|f| f.contains(p.jaccard)))
        .map(|(i, p)| (sort_key(sort, seed, p.jaccard, p.a, p.b), i as u32))
        .collect();
    keyed.par_sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// A re-banding job in flight.
#[derive(Debug, Clone)]
pub struct RunningJob {
    pub request: u64,
    pub banding: Banding,
    pub progress: Progress,
    pub started: std::time::Instant,
}

/// Work for the event loop.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Band and verify `banding`; answer with [`Action::Banded`] carrying `request`.
    Reband {
        request: u64,
        banding: Banding,
        progress: Progress,
        /// Pairs verified before (sorted by (a, b)): their similarities are not computed again.
        known: Option<Arc<Vec<VerifiedPair>>>,
        /// The list view and histogram bins when asked, for [`Prepared`].
        view: ListView,
        bins: usize,
    },
    /// Write the filtered pairs and the plots; answer with [`Action::Exported`].
    Export(Box<ExportJob>),
    /// Read or compute the ground truth; answer with [`Action::TruthDone`].
    Truth(super::truth::TruthJob),
    /// Write this snapshot of the labels to its file; answer with [`Action::LabelsSaved`].
    /// Only the newest queued snapshot needs writing: it holds every earlier change.
    SaveLabels(Box<LabelSave>),
}

/// The labels as they were after change number `generation`, for the label writer.
#[derive(Debug, Clone)]
pub struct LabelSave {
    pub generation: u64,
    pub labels: LabelStore,
}

/// The label writer's answer: snapshot `generation` (`count` labels) is on disk, or why not.
#[derive(Debug, Clone)]
pub struct LabelsSaved {
    pub generation: u64,
    pub count: usize,
    pub result: std::result::Result<(), String>,
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
    LoadStepDone(LoadStep),
    Loaded(Box<crate::Result<Loaded>>),
    Banded(BandOutcome),
    BandFailed {
        request: u64,
        message: String,
    },
    Exported(ExportReport),
    TruthDone(super::truth::TruthDone),
    LabelsSaved(LabelsSaved),
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    JaccardDesc,
    JaccardAsc,
    Shuffled,
}

impl SortOrder {
    pub fn label(self) -> &'static str {
        match self {
            SortOrder::JaccardDesc => "J ↓",
            SortOrder::JaccardAsc => "J ↑",
            SortOrder::Shuffled => "shuffled",
        }
    }
}

/// Pairs shown in the list: Jaccard in [low, high), or [low, high] when `high_inclusive`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JaccardFilter {
    pub low: f64,
    pub high: f64,
    pub high_inclusive: bool,
    /// The histogram bin this filter came from, if any.
    pub bin: Option<usize>,
}

impl JaccardFilter {
    pub fn contains(&self, j: f64) -> bool {
        j >= self.low - 1e-12
            && (j < self.high - 1e-12 || (self.high_inclusive && j <= self.high + 1e-12))
    }

    pub fn describe(&self) -> String {
        format!(
            "J ∈ [{:.2}, {:.2}{}",
            self.low,
            self.high,
            if self.high_inclusive { "]" } else { ")" }
        )
    }
}

/// Which text the viewer's scroll keys move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScrollSide {
    Both,
    Left,
    Right,
}

/// The open pair, with everything derived from it computed once.
#[derive(Debug, Clone)]
pub struct PairView {
    pub a: u32,
    pub b: u32,
    pub jaccard: f64,
    pub estimate: f64,
    pub shared_shingles: usize,
    pub shingles_a: usize,
    pub shingles_b: usize,
    /// Byte ranges of each text covered by shared shingles.
    pub ranges_a: Vec<Range<usize>>,
    pub ranges_b: Vec<Range<usize>>,
    pub metrics: TextMetrics,
    /// For the current banding: did band i collide (all r rows equal)?
    pub collided: Vec<bool>,
    pub scroll_a: usize,
    pub scroll_b: usize,
    pub side: ScrollSide,
}

/// strsim metrics look at this many leading characters (Levenshtein is quadratic).
pub const METRIC_CHARS: usize = 2000;

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
    pub load_progress: Progress,
    pub load_steps: Vec<LoadStep>,
    pub data: Option<Arc<Loaded>>,
    /// The banding the user asked for (what the S-curve shows).
    pub banding: Banding,
    pub threshold: f64,
    pub pins: Vec<Banding>,
    next_request: u64,
    pub job: Option<RunningJob>,
    /// The newest answered request; its `banding` may lag behind `self.banding`.
    pub result: Option<BandOutcome>,
    /// Similarities of every pair verified so far, reused by the next re-banding job.
    pub known_similarities: Option<Arc<Vec<VerifiedPair>>>,
    pub hist: SimilarityHistogram,
    pub pairs_at_or_above_t: usize,
    pub log_scale: bool,
    pub bin_cursor: usize,
    pub filter: Option<JaccardFilter>,
    pub sort: SortOrder,
    /// Indices into `result.pairs`, filtered and sorted.
    pub visible: Vec<u32>,
    pub selected: usize,
    pub list_offset: usize,
    pub labels: LabelStore,
    label_by_pos: HashMap<(u32, u32), Label>,
    /// Label changes made so far; each queues a snapshot carrying its number.
    label_generation: u64,
    /// The newest change known to be on disk.
    labels_on_disk: u64,
    /// What the newest change did, shown again once it is on disk.
    last_label_change: String,
    pub viewer: Option<PairView>,
    pub show_band_values: bool,
    pub message: Option<Message>,
    /// `e` was pressed while the shown candidates answered an older banding: the export runs
    /// when the current banding's candidates arrive, so files and screen agree.
    pub export_pending: bool,
    /// From the request of the shown result to its histogram and list being ready.
    pub last_latency: Option<Duration>,
    pub size: (u16, u16),
    pub should_quit: bool,
    /// Set when loading failed: the event loop ends and reports it.
    pub fatal: Option<crate::Error>,
    effects: Vec<Effect>,
    /// Ground truth, recall against it and the missed-pairs list (see [`super::truth`]).
    pub truth: super::truth::TruthState,
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
            load_progress: Progress::new(),
            load_steps: Vec::new(),
            data: None,
            banding: config.banding,
            threshold: config.threshold.clamp(0.0, 1.0),
            pins: Vec::new(),
            next_request: 0,
            job: None,
            result: None,
            known_similarities: None,
            hist: SimilarityHistogram::new(bins),
            pairs_at_or_above_t: 0,
            log_scale: false,
            bin_cursor: bins - 1,
            filter: None,
            sort: SortOrder::JaccardDesc,
            visible: Vec::new(),
            selected: 0,
            list_offset: 0,
            labels,
            label_by_pos: HashMap::new(),
            label_generation: 0,
            labels_on_disk: 0,
            last_label_change: String::new(),
            viewer: None,
            show_band_values: false,
            message,
            export_pending: false,
            last_latency: None,
            size,
            should_quit: false,
            fatal: None,
            effects: Vec::new(),
            truth: Default::default(),
            config,
        }
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
            Screen::Main => match self.focus {
                Focus::Curve => Context::Curve,
                Focus::Histogram => Context::Histogram,
                Focus::Pairs => Context::Pairs,
            },
        }
    }

    /// True when the shown candidates answer a different banding than the one asked for.
    pub fn result_is_stale(&self) -> bool {
        self.result
            .as_ref()
            .is_some_and(|r| r.banding != self.banding)
    }

    /// True while a label change is not yet known to be on disk.
    pub fn labels_unsaved(&self) -> bool {
        self.labels_on_disk < self.label_generation
    }

    pub fn label_of(&self, a: u32, b: u32) -> Option<Label> {
        self.label_by_pos.get(&(a, b)).copied()
    }

    /// The selected pair of the list, if any.
    pub fn selected_pair(&self) -> Option<&VerifiedPair> {
        let result = self.result.as_ref()?;
        let &i = self.visible.get(self.selected)?;
        result.pairs.get(i as usize)
    }

    pub(super) fn queue(&mut self, effect: Effect) {
        self.effects.push(effect);
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
                self.scroll_list_into_view();
                self.scroll_missed_into_view();
            }
            Action::LoadStepDone(step) => self.load_steps.push(step),
            Action::Loaded(result) => match *result {
                Ok(loaded) => self.on_loaded(loaded),
                Err(e) => {
                    self.fatal = Some(e);
                    self.should_quit = true;
                }
            },
            Action::Banded(outcome) => self.on_banded(outcome),
            Action::BandFailed { request, message } => {
                if self.job.as_ref().is_some_and(|j| j.request == request) {
                    self.job = None;
                    let export = if std::mem::take(&mut self.export_pending) {
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
        // Resolve labelled id pairs to input positions once (first occurrence of an id).
        let wanted: std::collections::HashSet<&str> =
            self.labels.iter().flat_map(|(a, b, _)| [a, b]).collect();
        let mut position: HashMap<&str, u32> = HashMap::new();
        for i in 0..loaded.corpus.len() {
            let id = loaded.corpus.id(i);
            if wanted.contains(id) {
                position.entry(id).or_insert(i as u32);
            }
        }
        let mut by_pos = HashMap::new();
        for (a, b, label) in self.labels.iter() {
            if let (Some(&pa), Some(&pb)) = (position.get(a), position.get(b)) {
                by_pos.insert((pa.min(pb), pa.max(pb)), label);
            }
        }
        let known = by_pos.len();
        self.label_by_pos = by_pos;
        if !self.labels.is_empty() {
            self.say(format!(
                "loaded {} labels from {} ({} match this corpus)",
                self.labels.len(),
                self.labels.path().display(),
                known
            ));
        }
        // Random pairs similar enough to flood the candidates (char:1, say) deserve a word.
        if let Some(w) =
            crate::analysis::shingle_advice::candidate_share_notice(&loaded.index, self.banding)
        {
            self.complain(w);
        }
        self.data = Some(loaded);
        self.screen = Screen::Main;
        self.request_banding();
        self.truth_on_loaded();
    }

    fn on_banded(&mut self, outcome: BandOutcome) {
        // Latest wins: an answer to anything but the newest request is dropped.
        if self
            .job
            .as_ref()
            .is_none_or(|j| j.request != outcome.request)
        {
            return;
        }
        let started = self.job.take().map(|j| j.started);
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        let mut outcome = outcome;
        self.known_similarities = outcome
            .known
            .take()
            .or_else(|| Some(Arc::clone(&outcome.pairs)));
        let prepared = outcome.prepared.take();
        self.result = Some(outcome);
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
        self.last_latency = started.map(|t| t.elapsed());
        if std::mem::take(&mut self.export_pending) {
            self.export();
        }
    }

    /// Cancels the running job (if any) and queues a job for `self.banding`.
    fn request_banding(&mut self) {
        if let Some(job) = self.job.take() {
            job.progress.cancel();
        }
        self.next_request += 1;
        let job = RunningJob {
            request: self.next_request,
            banding: self.banding,
            progress: Progress::new(),
            started: std::time::Instant::now(),
        };
        self.effects.push(Effect::Reband {
            request: job.request,
            banding: job.banding,
            progress: job.progress.clone(),
            known: self.known_similarities.clone(),
            view: self.list_view(),
            bins: self.hist.bins(),
        });
        self.job = Some(job);
        if let (Some(view), Some(data)) = (&mut self.viewer, &self.data) {
            view.collided = collided_bands(&data.index, view.a, view.b, self.banding);
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
        if banding == self.banding {
            return;
        }
        self.banding = banding;
        if self.data.is_some() {
            self.request_banding();
        }
    }

    fn rebuild_histogram(&mut self) {
        let bins = self.hist.bins();
        self.hist = match &self.result {
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
        let Some(result) = &self.result else { return };
        let pairs = &result.pairs;
        // Labels are few and pairs sorted by (a, b): look each label's pair up, rather than
        // every pair's label.
        for (&(a, b), &label) in &self.label_by_pos {
            if let Ok(i) = pairs.binary_search_by(|p| (p.a, p.b).cmp(&(a, b))) {
                self.hist.add_label(pairs[i].jaccard, label);
            }
        }
    }

    /// The filter and sort the pair list shows.
    pub fn list_view(&self) -> ListView {
        ListView {
            filter: self.filter,
            sort: self.sort,
            shuffle_seed: self.config.shuffle_seed,
        }
    }

    fn count_above_threshold(&mut self) {
        let t = self.threshold;
        self.pairs_at_or_above_t = self
            .result
            .as_ref()
            .map(|r| r.pairs.iter().filter(|p| p.jaccard >= t).count())
            .unwrap_or(0);
    }

    /// Recomputes the filtered, sorted list, keeping `keep` selected if it is still there.
    fn rebuild_visible(&mut self, keep: Option<(u32, u32)>) {
        let order = match &self.result {
            Some(result) => list_order(&result.pairs, self.list_view()),
            None => Vec::new(),
        };
        self.show_order(order, keep);
    }

    /// Shows `order` (indices into the current result) as the list, keeping `keep` selected
    /// if it is still there.
    fn show_order(&mut self, order: Vec<u32>, keep: Option<(u32, u32)>) {
        self.visible = order;
        self.selected = match (&self.result, keep) {
            (Some(result), Some((a, b))) => {
                let pairs = &result.pairs;
                self.visible
                    .iter()
                    .position(|&i| (pairs[i as usize].a, pairs[i as usize].b) == (a, b))
                    .unwrap_or(0)
            }
            _ => 0,
        };
        self.list_offset = 0;
        self.scroll_list_into_view();
        self.rebuild_missed();
    }

    fn scroll_list_into_view(&mut self) {
        let height = layout::pair_list_rows(self.size).max(1);
        if self.selected < self.list_offset {
            self.list_offset = self.selected;
        } else if self.selected >= self.list_offset + height {
            self.list_offset = self.selected + 1 - height;
        }
        let max_offset = self.visible.len().saturating_sub(height);
        self.list_offset = self.list_offset.min(max_offset);
    }

    fn move_selection(&mut self, delta: isize) {
        if self.visible.is_empty() {
            return;
        }
        let last = self.visible.len() as isize - 1;
        self.selected = (self.selected as isize + delta).clamp(0, last) as usize;
        self.scroll_list_into_view();
    }

    fn open_selected(&mut self) {
        let Some(pair) = self.selected_pair().copied() else {
            self.complain("no pair selected");
            return;
        };
        let Some(data) = &self.data else { return };
        self.viewer = Some(pair_view(data, &pair, self.banding));
        self.screen = Screen::Viewer;
    }

    fn set_label(&mut self, label: Option<Label>) {
        let pair = match (&self.viewer, self.screen) {
            (Some(v), Screen::Viewer) => Some((v.a, v.b)),
            _ if self.truth.show_missed => self.selected_missed().map(|p| (p.a, p.b)),
            _ => self.selected_pair().map(|p| (p.a, p.b)),
        };
        let (Some((a, b)), Some(data)) = (pair, &self.data) else {
            self.complain("no pair selected to label");
            return;
        };
        let (id_a, id_b) = (data.corpus.id(a as usize), data.corpus.id(b as usize));
        self.labels.set(id_a, id_b, label);
        let text = match label {
            Some(l) => format!("{id_a} · {id_b}: {}", l.as_str()),
            None => format!("{id_a} · {id_b}: label removed"),
        };
        // The file is written by the label writer thread; the status line says "saved" only
        // when it answers, so what the screen acknowledges is on disk.
        self.label_generation += 1;
        self.effects.push(Effect::SaveLabels(Box::new(LabelSave {
            generation: self.label_generation,
            labels: self.labels.clone(),
        })));
        self.say(format!("{text} (saving…)"));
        self.last_label_change = text;
        match label {
            Some(l) => self.label_by_pos.insert((a, b), l),
            None => self.label_by_pos.remove(&(a, b)),
        };
        self.rebuild_histogram();
    }

    fn on_labels_saved(&mut self, saved: LabelsSaved) {
        let path = self.labels.path().display().to_string();
        match saved.result {
            Ok(()) => {
                self.labels_on_disk = self.labels_on_disk.max(saved.generation);
                // An older snapshot says nothing about the newest change; its own answer will.
                if saved.generation == self.label_generation {
                    self.say(format!(
                        "{}: saved {} labels to {path}",
                        self.last_label_change, saved.count
                    ));
                }
            }
            // A failure older than what is already on disk no longer matters. A newer one
            // stays until the next change, which writes the whole store again.
            Err(e) if saved.generation > self.labels_on_disk => self.complain(format!(
                "saving labels to {path} failed: {e}; they are written again on the next                  label change"
            )),
            Err(_) => {}
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
        if self.truth_command(cmd) {
            return;
        }
        let b = self.banding;
        match cmd {
            Command::Quit => {
                self.load_progress.cancel();
                if let Some(job) = &self.job {
                    job.progress.cancel();
                }
                self.should_quit = true;
            }
            Command::Help => self.overlay = Overlay::Help,
            Command::Back => {
                if self.screen == Screen::Viewer {
                    self.screen = Screen::Main;
                    self.viewer = None;
                } else if self.filter.is_some() {
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
                if self.pins.contains(&b) {
                    self.say(format!("{b} is already pinned"));
                } else if self.pins.len() >= MAX_PINS {
                    self.complain(format!("at most {MAX_PINS} pinned curves: c clears them"));
                } else {
                    self.pins.push(b);
                    self.say(format!("pinned {b}"));
                }
            }
            Command::ClearPins => {
                self.pins.clear();
                self.say("pins cleared");
            }
            Command::ThresholdPrompt => self.open_prompt(PromptKind::Threshold),
            Command::ThresholdDown => self.set_threshold(self.threshold - 0.01),
            Command::ThresholdUp => self.set_threshold(self.threshold + 0.01),
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
                self.selected = 0;
                self.scroll_list_into_view();
            }
            Command::Bottom => {
                self.selected = self.visible.len().saturating_sub(1);
                self.scroll_list_into_view();
            }
            Command::Open => self.open_selected(),
            Command::CycleSort => {
                self.sort = match self.sort {
                    SortOrder::JaccardDesc => SortOrder::JaccardAsc,
                    SortOrder::JaccardAsc => SortOrder::Shuffled,
                    SortOrder::Shuffled => SortOrder::JaccardDesc,
                };
                let keep = self.selected_pair().map(|p| (p.a, p.b));
                self.rebuild_visible(keep);
                self.selected = 0;
                self.list_offset = 0;
                self.say(format!("sorted by {}", self.sort.label()));
            }
            Command::JumpPrompt => self.open_prompt(PromptKind::Jump),
            Command::LabelDuplicate => self.set_label(Some(Label::Duplicate)),
            Command::LabelNotDuplicate => self.set_label(Some(Label::NotDuplicate)),
            Command::LabelUnsure => self.set_label(Some(Label::Unsure)),
            Command::ClearLabel => self.set_label(None),
            Command::PrevPair | Command::NextPair => {
                let before = self.selected;
                self.move_selection(if cmd == Command::NextPair { 1 } else { -1 });
                if self.selected == before {
                    self.say("no more pairs in the list");
                } else {
                    self.open_selected();
                }
            }
            Command::ToggleBandValues => self.show_band_values = !self.show_band_values,
            Command::ScrollSide => {
                if let Some(v) = &mut self.viewer {
                    v.side = match v.side {
                        ScrollSide::Both => ScrollSide::Left,
                        ScrollSide::Left => ScrollSide::Right,
                        ScrollSide::Right => ScrollSide::Both,
                    };
                }
            }
            Command::Export => self.export(),
            // Handled by `truth_command` above.
            Command::ComputeTruth | Command::ToggleMissed => {}
        }
    }

    fn page(&self) -> usize {
        match self.screen {
            Screen::Viewer => {
                layout::viewer_text_rows(self.size, self.show_band_values, self.banding.bands)
                    .saturating_sub(1)
                    .max(1)
            }
            _ => layout::pair_list_rows(self.size).saturating_sub(1).max(1),
        }
    }

    fn scroll_or_move(&mut self, delta: isize) {
        if self.screen != Screen::Viewer && self.truth.show_missed {
            self.move_missed(delta);
            return;
        }
        if self.screen != Screen::Viewer {
            self.move_selection(delta);
            return;
        }
        let (Some(view), Some(data)) = (&mut self.viewer, &self.data) else {
            return;
        };
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.show_band_values, self.banding.bands),
        );
        let max_scroll = |pos: u32| {
            super::ui::viewer::wrapped_line_count(data.corpus.text(pos as usize), width)
                .saturating_sub(rows)
        };
        let step = |scroll: usize, max: usize| -> usize {
            (scroll as isize + delta).clamp(0, max as isize) as usize
        };
        if view.side != ScrollSide::Right {
            view.scroll_a = step(view.scroll_a, max_scroll(view.a));
        }
        if view.side != ScrollSide::Left {
            view.scroll_b = step(view.scroll_b, max_scroll(view.b));
        }
    }

    fn set_threshold(&mut self, t: f64) {
        // Round to 1e-6 so repeated ±0.01 steps do not drift (0.1 + 0.01·k in binary).
        self.threshold = (t.clamp(0.0, 1.0) * 1e6).round() / 1e6;
        self.count_above_threshold();
        self.truth_remeasure();
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
        self.filter = Some(filter);
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        self.rebuild_visible(keep);
        self.say(format!(
            "showing {} pairs with {} (F clears)",
            self.visible.len(),
            filter.describe()
        ));
    }

    fn clear_filter(&mut self) {
        if self.filter.take().is_some() {
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
        let (Some(result), Some(data)) = (&self.result, &self.data) else {
            return;
        };
        if id.is_empty() {
            return;
        }
        let has = |i: u32| {
            let p = &result.pairs[i as usize];
            data.corpus.id(p.a as usize) == id || data.corpus.id(p.b as usize) == id
        };
        let n = self.visible.len();
        // Search forward from the pair after the selection, wrapping, so `/` again finds the
        // next pair with the same id.
        let found = (1..=n)
            .map(|k| (self.selected + k) % n.max(1))
            .find(|&k| has(self.visible[k]));
        match found {
            Some(k) => {
                self.selected = k;
                self.scroll_list_into_view();
                self.say(format!("pair with {id}"));
            }
            None if (0..result.pairs.len() as u32).any(has) => self.complain(format!(
                "{id} is in a pair the filter hides (F clears the filter)"
            )),
            None if data.corpus.position_of(id).is_some() => {
                self.complain(format!("{id} is in no candidate pair at {}", self.banding))
            }
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
                if self.truth.show_missed {
                    let i = self.truth.offset + (y - first_row) as usize;
                    if i < self.truth.visible.len() {
                        self.truth.selected = i;
                    }
                    return;
                }
                let i = self.list_offset + (y - first_row) as usize;
                if i < self.visible.len() {
                    self.selected = i;
                }
            }
        }
    }

    fn on_wheel(&mut self, _x: u16, _y: u16, down: bool) {
        if self.overlay != Overlay::None {
            return;
        }
        self.scroll_or_move(if down { 3 } else { -3 });
    }

    /// Queues the export of the filtered pairs (CSV) and the plots; the file is written off
    /// the UI thread (it may hold millions of rows) and [`Action::Exported`] reports back.
    fn export(&mut self) {
        if self.job.is_some() && (self.result.is_none() || self.result_is_stale()) {
            self.export_pending = true;
            self.say(format!(
                "exporting when the candidates of {} are ready…",
                self.banding
            ));
            return;
        }
        let Some(result) = &self.result else {
            self.complain("nothing to export yet");
            return;
        };
        let path = self.config.export_dir.join(format!(
            "{}.pairs.{}x{}.csv",
            self.config.export_stem, result.banding.bands, result.banding.rows
        ));
        let job = ExportJob {
            path: path.clone(),
            pairs: Arc::clone(&result.pairs),
            rows: self.visible.clone(),
            labels: self.label_by_pos.clone(),
            plots: PlotSpec {
                dir: self.config.export_dir.clone(),
                stem: self.config.export_stem.clone(),
                banding: self.banding,
                pins: self.pins.clone(),
                threshold: self.threshold,
                num_perm: self.num_perm(),
                histogram: self.hist.clone(),
                histogram_banding: result.banding,
                log_scale: self.log_scale,
            },
        };
        self.say(format!(
            "exporting {} pairs to {} and the plots…",
            super::ui::thousands(job.rows.len() as u64),
            path.display()
        ));
        self.effects.push(Effect::Export(Box::new(job)));
    }

    fn on_exported(&mut self, report: ExportReport) {
        match report.csv {
            Err(e) => self.complain(format!("export failed: {e}")),
            Ok(()) => {
                let csv = format!(
                    "wrote {} pairs to {}",
                    super::ui::thousands(report.rows as u64),
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

/// Short names for files written together: those in `dir` by file name alone, and the
/// formats of one figure folded into braces, shell style (`x.scurve.20x5.{svg,png}`).
pub fn brace_names(paths: &[PathBuf], dir: Option<&std::path::Path>) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for p in paths {
        let shown = match p.file_name() {
            Some(n) if p.parent() == dir => n.to_string_lossy().into_owned(),
            _ => p.display().to_string(),
        };
        let (base, ext) = match shown.rsplit_once('.') {
            Some((base, ext)) if !base.is_empty() => (base.to_string(), ext.to_string()),
            _ => (shown.clone(), String::new()),
        };
        match groups.iter_mut().find(|(b, _)| *b == base) {
            Some((_, exts)) => exts.push(ext),
            None => groups.push((base, vec![ext])),
        }
    }
    groups
        .into_iter()
        .map(|(base, exts)| match exts.as_slice() {
            [e] if e.is_empty() => base,
            [e] => format!("{base}.{e}"),
            _ => format!("{base}.{{{}}}", exts.join(",")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the S-curve and histogram plots show, owned so a worker thread can draw them.
#[derive(Debug, Clone)]
pub struct PlotSpec {
    pub dir: PathBuf,
    pub stem: String,
    pub banding: Banding,
    pub pins: Vec<Banding>,
    pub threshold: f64,
    /// K, for the S-curve's title.
    pub num_perm: usize,
    pub histogram: SimilarityHistogram,
    /// The banding whose candidates `histogram` counts (it lags `banding` while a
    /// re-banding job runs).
    pub histogram_banding: Banding,
    pub log_scale: bool,
}

/// An export for the worker: the filtered rows of `pairs`, in list order, with labels.
#[derive(Debug, Clone)]
pub struct ExportJob {
    pub path: PathBuf,
    pub pairs: Arc<Vec<VerifiedPair>>,
    pub rows: Vec<u32>,
    pub labels: HashMap<(u32, u32), Label>,
    pub plots: PlotSpec,
}

/// How an export went.
#[derive(Debug)]
pub struct ExportReport {
    pub path: PathBuf,
    pub rows: usize,
    pub csv: Result<(), String>,
    pub plots: Result<Vec<PathBuf>, String>,
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

/// The key pair (a, b) with this Jaccard sorts by under `sort` (ascending keys).
pub(super) fn sort_key(sort: SortOrder, seed: u64, jaccard: f64, a: u32, b: u32) -> u64 {
    // Non-negative floats order like their bit patterns.
    let bits = jaccard.max(0.0).to_bits();
    match sort {
        SortOrder::JaccardDesc => u64::MAX - bits,
        SortOrder::JaccardAsc => bits,
        // A pseudo-random key per pair (not per position): the order of the pairs two
        // bandings share stays the same, so an audit can go on after re-banding.
        SortOrder::Shuffled => SplitMix64::mix(seed ^ (((a as u64) << 32) | b as u64)),
    }
}

/// Which bands of `banding` put `a` and `b` in the same bucket: band i collides when the r
/// signature values of band i are equal (the bucket key is a hash of exactly those values).
pub fn collided_bands(index: &Index, a: u32, b: u32, banding: Banding) -> Vec<bool> {
    let (ra, rb) = (
        index.signatures.row(a as usize),
        index.signatures.row(b as usize),
    );
    let empty =
        index.signatures.is_empty_doc(a as usize) || index.signatures.is_empty_doc(b as usize);
    (0..banding.bands)
        .map(|i| {
            let rows = i * banding.rows..(i + 1) * banding.rows;
            !empty && ra[rows.clone()] == rb[rows]
        })
        .collect()
}

/// Everything the viewer shows about a pair, computed once when it opens.
pub fn pair_view(data: &Loaded, pair: &VerifiedPair, banding: Banding) -> PairView {
    let (a, b) = (pair.a as usize, pair.b as usize);
    let (set_a, set_b) = (data.index.sets.get(a), data.index.sets.get(b));
    let shared = crate::similarity::intersection(set_a, set_b);
    let opts = &data.index.options.shingle;
    let (text_a, text_b) = (data.corpus.text(a), data.corpus.text(b));
    PairView {
        a: pair.a,
        b: pair.b,
        jaccard: pair.jaccard,
        estimate: pair.estimate,
        shared_shingles: shared.len(),
        shingles_a: set_a.len(),
        shingles_b: set_b.len(),
        ranges_a: crate::text::shared_ranges(text_a, opts, &shared),
        ranges_b: crate::text::shared_ranges(text_b, opts, &shared),
        metrics: crate::similarity::text_metrics(text_a, text_b, METRIC_CHARS),
        collided: collided_bands(&data.index, pair.a, pair.b, banding),
        scroll_a: 0,
        scroll_b: 0,
        side: ScrollSide::Both,
    }
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

    #[test]
    fn export_names_fold_formats() {
        let dir = std::path::Path::new("/out");
        let paths: Vec<PathBuf> = [
            "/out/c.scurve.20x5.svg",
            "/out/c.scurve.20x5.png",
            "/out/c.histogram.18x5.svg",
            "/out/c.histogram.18x5.png",
            "/elsewhere/d.svg",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(
            brace_names(&paths, Some(dir)),
            "c.scurve.20x5.{svg,png}, c.histogram.18x5.{svg,png}, /elsewhere/d.svg"
        );
    }

    #[test]
    fn filter_bounds() {
        let f = JaccardFilter {
            low: 0.8,
            high: 0.85,
            high_inclusive: false,
            bin: Some(16),
        };
        assert!(f.contains(0.8) && f.contains(0.84) && !f.contains(0.85) && !f.contains(0.79));
        let g = JaccardFilter {
            high: 1.0,
            high_inclusive: true,
            ..f
        };
        assert!(g.contains(1.0));
    }
}
