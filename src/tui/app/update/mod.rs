//! [`App::update`], the only place explorer state changes, and the commands every view shares.
//!
//! An [`Action`] is a key's [`Command`], a mouse event, or a worker's answer. A command goes
//! first to the handler of the view on screen (one match over [`View`]: [`list`] for the
//! main screen, [`viewer`], [`clusters`], [`cost`]); what that view leaves goes to
//! [`App::common_command`] (quit, help, Back, b/r/t, pins, labels, the view toggles). Each
//! feature's commands live in the module named after it; work is queued as [`Effect`]s.
//!
//! The banding's round trip is here too, so one key press reads in one file: b and r go to
//! [`App::set_banding`], which asks the candidates' owner for a job (`request_banding`); its
//! answers come back to `on_banded` / `on_estimated`, which hand them to the owner and fill
//! the histogram and list (`show_candidates`).
//!
//! Two fan-outs keep the views in step: [`App::on_candidates_changed`] after new candidates
//! arrive, and [`App::on_threshold_changed`] after t moves.
//!
//! [`Effect`]: crate::tui::app::Effect

mod clusters;
mod cost;
mod export;
mod family;
mod list;
mod prompt;
mod truth;
mod viewer;

use std::collections::HashMap;
use std::sync::Arc;

use lshscope_core::analysis::histogram::SimilarityHistogram;
use lshscope_core::analysis::labels::{Label, group_key, rfc3339_utc};
use lshscope_core::minhash::similarity::jaccard;
use lshscope_core::minhash::{Banding, IdenticalGroups};
use lshscope_core::util::numfmt::{for_count, thousands};

use lshscope_core::pipeline::Loaded;

use crate::tui::app::{Action, App, Effect, Overlay, PairSource, PromptKind, View};
use crate::tui::candidates::{BandOutcome, Candidates, EstimatedOutcome, RebandContext};
use crate::tui::clusters::{cluster_list_rows, edge_list_rows};
use crate::tui::help::HelpPage;
use crate::tui::imported::ImportAnswer;
use crate::tui::keys::HelpCommand;
use crate::tui::keys::{Command, hint};
use crate::tui::labels::{LabelTarget, LabelsSaved};
use crate::tui::list::PairList;
use crate::tui::theme::MAX_PINS;

impl App {
    pub fn update(&mut self, action: Action) {
        match action {
            Action::Tick => {}
            Action::Resize(w, h) => {
                self.size = (w, h);
                let height = self.list_height();
                self.candidates
                    .move_selection(height, PairList::scroll_into_view);
                self.truth.scroll_missed_into_view(height);
                self.clusters.scroll_into_view(self.size);
                self.relayout_viewer();
                self.help_scroll = self.help_scroll.min(self.help_page().max_scroll());
            }
            Action::LoadStepDone(step) => self.load.steps.push(step),
            Action::Opened(loaded) => self.attach(loaded),
            Action::CacheWritten(note) => self.note(note),
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
                if let Some(export_pending) = self.candidates.fail(request) {
                    let export = if export_pending {
                        " (export cancelled)"
                    } else {
                        ""
                    };
                    self.complain(format!("re-banding failed: {message}{export}"));
                }
            }
            Action::Help(key) => self.on_help_key(key),
            Action::PromptInput(key) => self.on_prompt_key(key),
            Action::Exported(report) => self.on_exported(report),
            Action::TruthDone(done) => self.on_truth_done(done),
            Action::LabelsSaved(saved) => self.on_labels_saved(saved),
            Action::ClustersDone(outcome) => {
                let heights = (cluster_list_rows(self.size), edge_list_rows(self.size));
                self.clusters.accept(*outcome, heights, self.clock);
                // A pair opened from a cluster the new clusters no longer hold belongs to no
                // cluster: ← / → go on in the candidate list, Back to the main screen.
                let from_cluster = View::Viewer {
                    from: PairSource::ClusterEdges,
                };
                if self.view == from_cluster && self.clusters.open().is_none() {
                    self.show(View::Viewer {
                        from: PairSource::Candidates,
                    });
                }
            }
            Action::Imported(answer) => match *answer {
                ImportAnswer::Done { imported, outcome } => {
                    if let Some(news) = self.imported.accept(imported) {
                        self.say(news);
                    }
                    self.on_banded(outcome);
                }
                ImportAnswer::Failed { request, error } => {
                    if self.candidates.fail(request).is_some() {
                        self.fatal = Some(error);
                        self.should_quit = true;
                    }
                }
            },
            Action::CostDone(outcome) => {
                self.cost.accept(*outcome, self.curve.threshold, self.clock)
            }
            Action::FamilyDone(done) => self.on_family_done(done),
            Action::SampleDone(done) => self.on_sample_done(done),
            Action::Click(x, y) => self.on_click(x, y),
            Action::Wheel(x, y, down) => self.on_wheel(x, y, down),
            Action::Command(cmd) => {
                self.message = None;
                self.on_command(cmd);
            }
        }
    }

    /// A command: the view on screen handles its own, the rest applies on every view.
    fn on_command(&mut self, cmd: Command) {
        if matches!(self.overlay, Overlay::Help | Overlay::Messages) {
            // Any key closes the help or the messages; quitting still quits.
            self.overlay = Overlay::None;
            if cmd != Command::Quit {
                return;
            }
        }
        // b and r mean the same on every view that binds them, and no view claims them.
        if let Some((bands, rows)) = banding_step(cmd, self.curve.banding) {
            return self.set_banding(bands, rows);
        }
        let handled = match self.view {
            View::Loading => false,
            View::Main => self.main_command(cmd),
            View::Viewer { from } => self.viewer_command(cmd, from),
            View::Clusters => self.clusters_command(cmd),
            View::Cost => self.cost_command(cmd),
        };
        if !handled {
            self.common_command(cmd);
        }
    }

    /// The commands that mean the same on every view.
    fn common_command(&mut self, cmd: Command) {
        let b = self.curve.banding;
        match cmd {
            Command::Quit => {
                self.cancel_all();
                self.should_quit = true;
            }
            Command::Help => {
                self.overlay = Overlay::Help;
                self.help_scroll = 0;
            }
            Command::ShowMessages => self.overlay = Overlay::Messages,
            Command::Back => self.back(),
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
            Command::FilterPrompt => self.open_prompt(PromptKind::Filter),
            Command::ClearFilter => self.clear_filter(),
            Command::LabelDuplicate => self.set_label(Some(Label::Duplicate)),
            Command::LabelNotDuplicate => self.set_label(Some(Label::NotDuplicate)),
            Command::LabelUnsure => self.set_label(Some(Label::Unsure)),
            Command::ClearLabel => self.set_label(None),
            Command::ToggleAdvance => {
                let on = self.labels.toggle_advance();
                self.say(if on {
                    "advance on: a label moves to the next pair"
                } else {
                    "advance off: a label stays on the pair"
                });
            }
            Command::Export => self.export(),
            Command::ComputeTruth => self.compute_truth(),
            Command::ToggleMissed => self.toggle_missed(),
            Command::ToggleClusters => self.toggle_clusters(),
            Command::ToggleCost => self.toggle_cost(),
            Command::PinFamily => self.pin_family(),
            // Handled before the views ([`banding_step`]).
            Command::BandsDown | Command::BandsUp | Command::RowsDown | Command::RowsUp => {}
            // The rest belong to one view each (the key table binds them only there).
            Command::FocusNext
            | Command::FocusPrev
            | Command::BinLeft
            | Command::BinRight
            | Command::FilterToBin
            | Command::Up
            | Command::Down
            | Command::PageUp
            | Command::PageDown
            | Command::Top
            | Command::Bottom
            | Command::Open
            | Command::CycleSort
            | Command::CyclePreview
            | Command::SwitchClustering
            | Command::JumpPrompt
            | Command::PrevPair
            | Command::NextPair
            | Command::ToggleBandValues
            | Command::ScrollSide
            | Command::CycleMetric
            | Command::CursorLeft
            | Command::CursorRight
            | Command::ToggleDiff
            | Command::PrevDifference
            | Command::NextDifference
            | Command::SearchPrompt
            | Command::NextMatch
            | Command::PrevMatch => {}
        }
    }

    /// The help page as the terminal shows it.
    fn help_page(&self) -> HelpPage {
        let (width, height) = self.size;
        HelpPage::new(self, ratatui::layout::Rect::new(0, 0, width, height))
    }

    /// A key while the help is open: scroll it within its page, or close it.
    fn on_help_key(&mut self, key: HelpCommand) {
        let page = self.help_page();
        let rows = page.body_rows().max(1);
        let top = self.help_scroll;
        self.help_scroll = match key {
            HelpCommand::LineUp => top.saturating_sub(1),
            HelpCommand::LineDown => top + 1,
            // A page keeps one row of the last one in view, so the reader keeps their place.
            HelpCommand::PageUp => top.saturating_sub(rows.saturating_sub(1).max(1)),
            HelpCommand::PageDown => top + rows.saturating_sub(1).max(1),
            HelpCommand::Top => 0,
            HelpCommand::Bottom => usize::MAX,
            HelpCommand::Close => {
                self.overlay = Overlay::None;
                0
            }
        }
        .min(page.max_scroll());
    }

    /// Back (Esc): where it goes is decided by the view alone.
    fn back(&mut self) {
        match self.view {
            View::Loading => {}
            View::Main => self.clear_filter(),
            View::Viewer { from } => {
                self.viewer.close();
                let to = match from {
                    PairSource::ClusterEdges => View::Clusters,
                    PairSource::Candidates | PairSource::Missed => View::Main,
                };
                self.show(to);
            }
            View::Clusters if self.clusters.open().is_some() => self.clusters.close(),
            View::Clusters | View::Cost => self.show(View::Main),
        }
    }

    /// Labels the pair the view has at hand: the viewer's, the open cluster's edge, the
    /// selected missed pair, or the selected candidate. The label covers every pair of
    /// identical copies of the same two texts; with advance on, the next pair follows.
    fn set_label(&mut self, label: Option<Label>) {
        let pair = match self.view {
            View::Viewer { .. } => self.viewer.pair().map(|v| (v.a(), v.b())),
            View::Clusters => self.selected_cluster_edge().map(|(_, e)| (e.a, e.b)),
            _ if self.truth.show_missed() => self.truth.selected_missed().map(|p| (p.a, p.b)),
            _ => self.selected_pair().map(|p| (p.a, p.b)),
        };
        let (Some((a, b)), Some(groups)) = (pair, self.identical_groups()) else {
            self.complain("no pair selected to label");
            return;
        };
        let Some(data) = self.data.clone() else {
            return;
        };
        // Removing stays possible: a label read from the file may sit on such a pair.
        if label.is_some()
            && let Some(why) =
                crate::tui::labels::label_refusal(self.labels.repeated_ids(), &data.corpus, a, b)
        {
            return self.complain(why);
        }
        let sets = &data.index.sets;
        let target = LabelTarget {
            pair: (a.min(b), a.max(b)),
            corpus: &data.corpus,
            jaccard: jaccard(sets.get(a as usize), sets.get(b as usize)),
            groups,
            labelled_at: rfc3339_utc(std::time::SystemTime::now()),
        };
        // The file is written by the label writer thread; the status line says "saved" only
        // when it answers, so what the screen acknowledges is on disk.
        let (save, text) = self.labels.set(target, label);
        self.effects.push(Effect::SaveLabels(Box::new(save)));
        self.say(format!("{text} (saving…)"));
        self.rebuild_histogram();
        if self.labels.advance() && label.is_some() {
            self.advance_to_next_pair();
        }
    }

    /// After a label with advance on: the next pair of the list the labelled one came from.
    fn advance_to_next_pair(&mut self) {
        match self.view {
            View::Viewer { from } => match from {
                PairSource::Missed => self.step_missed(1),
                PairSource::ClusterEdges => self.step_cluster_edge(1),
                PairSource::Candidates => self.step_candidate(1),
            },
            View::Clusters => {
                self.clusters_command(Command::Down);
            }
            _ => self.move_in_list(1),
        }
    }

    /// The loaded corpus's identical groups (by shingle set), which labels are keyed by:
    /// found once, shared with the clusters view.
    fn identical_groups(&mut self) -> Option<Arc<IdenticalGroups>> {
        if let Some(groups) = self.labels.groups() {
            return Some(Arc::clone(groups));
        }
        let data = self.data.as_ref()?;
        let groups = match self.clusters.identical() {
            Some(groups) => Arc::clone(groups),
            None => Arc::new(IdenticalGroups::find(&data.index.sets)),
        };
        self.clusters.keep_identical(Arc::clone(&groups));
        Some(groups)
    }

    fn on_labels_saved(&mut self, saved: LabelsSaved) {
        match self.labels.saved(saved) {
            Some(Ok(text)) => self.say(text),
            Some(Err(text)) => self.complain(text),
            None => {}
        }
    }

    fn on_loaded(&mut self, loaded: Loaded) {
        self.attach(Arc::new(loaded));
    }

    /// Shows `loaded` (what [`Action::Loaded`] does with a finished load): resolves the
    /// labels to input positions, opens the main screen and queues the first re-banding.
    /// Public so benchmarks can share one index among several Apps.
    pub fn attach(&mut self, loaded: Arc<Loaded>) {
        // Labels are keyed by identical group: find the groups now when the file has labels
        // (they are found at the first label otherwise).
        let groups = (!self.labels.store().is_empty())
            .then(|| Arc::new(IdenticalGroups::find(&loaded.index.sets)));
        if let Some(groups) = &groups {
            self.clusters.keep_identical(Arc::clone(groups));
        }
        let known = self.labels.attach(&loaded, groups);
        let store = self.labels.store();
        if !store.is_empty() {
            self.say(format!(
                "loaded {} {} from {} ({} {} this corpus)",
                thousands(store.len() as u64),
                for_count(store.len() as u64, "label", "labels"),
                store.path().display(),
                thousands(known as u64),
                for_count(known as u64, "matches", "match")
            ));
        }
        if let Some(note) = &loaded.read.cache_note {
            // The engine names settings neutrally; here they are the command line's flags.
            let note = crate::cli::errors::render_text(note);
            // The labels read come first: a narrow message line drops parts from the right.
            let text = match &self.message {
                Some(m) => format!("{} · {note}", m.text),
                None => note,
            };
            self.say(text);
        }
        // Random pairs similar enough to flood the candidates (char:1, say) deserve a word.
        if let Some(w) = lshscope_core::analysis::shingle_advice::candidate_share_notice(
            &loaded.index,
            self.curve.banding,
        ) {
            self.complain(w);
        }
        // Labels are saved by id: ids that repeat make some pairs unlabellable, which the
        // user should hear before trying.
        if let Some(w) = crate::tui::labels::repeated_ids_warning(self.labels.repeated_ids()) {
            self.complain(w);
        }
        // What the reader warned about (stdin that looks like CSV, read as text lines) comes
        // last, so it is what the status line shows: it says the corpus may not be the one
        // the user meant.
        if !loaded.read.warnings.is_empty() {
            let said: Vec<String> = (loaded.read.warnings.iter())
                .map(crate::cli::errors::render_message)
                .collect();
            self.complain(said.join(" · "));
        }
        self.data = Some(loaded);
        self.show(View::Main);
        self.request_banding();
        self.truth_on_loaded();
    }

    /// Moves the banding asked for to `bands` × `rows` (checked by its owner,
    /// [`Candidates::checked_banding`]) and asks for its candidates.
    fn set_banding(&mut self, bands: usize, rows: usize) {
        let banding = match Candidates::checked_banding(bands, rows, self.num_perm()) {
            Ok(banding) if banding == self.curve.banding => return,
            Ok(banding) => banding,
            Err(text) => return self.complain(text),
        };
        self.curve.banding = banding;
        self.family.remeasure(banding, self.hist.bins());
        self.request_banding();
    }

    /// Asks the candidates' owner for a job for `self.curve.banding` (it cancels the running
    /// one) and queues it: as a re-banding, or answered by the imported file's pairs.
    fn request_banding(&mut self) {
        let Some(data) = self.data.clone() else {
            return;
        };
        let context = RebandContext {
            data: Arc::clone(&data),
            max_bucket: self.config.max_bucket,
            view: self.list_view,
            bins: self.hist.bins(),
        };
        let job = self.candidates.request(self.curve.banding, context);
        let effect = match self.imported.job_for(&job) {
            Some(import) => Effect::Import(import),
            None => Effect::Reband(job),
        };
        self.effects.push(effect);
        self.viewer.follow_banding(self.curve.banding, &data);
    }

    // The candidates' answers: shown with the histogram and list they fill.

    fn on_banded(&mut self, outcome: BandOutcome) {
        // Latest wins: an answer to anything but the newest request is dropped.
        if let Some(started) = self.candidates.accept_exact(&outcome, self.clock) {
            self.show_candidates(outcome, Some(started));
        }
    }

    /// Shows sampled candidates with their estimate; a first answer (`refining`) leaves the
    /// job running for the refined one.
    fn on_estimated(&mut self, estimated: EstimatedOutcome) {
        let asked = self.curve.banding;
        if let Some((outcome, started)) = self
            .candidates
            .accept_estimated(estimated, asked, self.clock)
        {
            self.show_candidates(outcome, Some(started));
        }
    }

    fn show_candidates(&mut self, outcome: BandOutcome, started: Option<std::time::Instant>) {
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        match self.candidates.show(outcome) {
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
        if self.candidates.shown(started, self.clock) {
            self.export();
        }
        self.on_candidates_changed();
    }

    fn rebuild_histogram(&mut self) {
        let bins = self.hist.bins();
        self.hist = match self.candidates.result() {
            // Sampled candidates: bars are the estimated counts, labels those of the sample.
            Some(_) if self.candidates.estimated().is_some() => self
                .candidates
                .estimated()
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

    /// Counts the labels of the current candidates into `hist` (which must have no labels):
    /// each labelled pair of texts once, however many copy pairs it covers, so a bin's
    /// precision and its interval count judgements, not copies.
    fn add_labels_to_histogram(&mut self) {
        let Some(result) = self.candidates.result() else {
            return;
        };
        let pairs = &result.pairs;
        // Labels are few and pairs sorted by (a, b): look each label's pairs up, rather than
        // every pair's label. A labelled pair of texts counts when any of its copy pairs is a
        // candidate (they share signatures, so all are, unless the list is a sample).
        let mut not_found: HashMap<(u32, u32), Label> = HashMap::new();
        for (copies, label) in self.labels.labelled_texts(LABEL_LOOKUPS) {
            let found = copies
                .iter()
                .find_map(|&(a, b)| pairs.binary_search_by(|p| (p.a, p.b).cmp(&(a, b))).ok());
            match found {
                Some(i) => self.hist.add_label(pairs[i].jaccard, label),
                // The first copy pair is the pair of the two texts' representatives: the
                // key every copy pair of them has.
                None => {
                    not_found.insert(copies[0], label);
                }
            }
        }
        // A sample holds a few of a large group's copy pairs, seldom the first ones looked up
        // above: the rest are found by the texts they pair, in one pass over the sample (at
        // most its draws; an exact list is not passed over, since there every copy pair of a
        // candidate is one).
        let Some(groups) = self.labels.groups() else {
            return;
        };
        if not_found.is_empty() || self.candidates.estimated().is_none() {
            return;
        }
        for p in pairs.iter() {
            if let Some(label) = not_found.remove(&group_key(groups, p.a, p.b)) {
                self.hist.add_label(p.jaccard, label);
                if not_found.is_empty() {
                    break;
                }
            }
        }
    }

    fn count_above_threshold(&mut self) {
        let t = self.curve.threshold;
        self.pairs_at_or_above_t = self
            .candidates
            .result()
            .map(|r| r.pairs.iter().filter(|p| p.jaccard >= t).count())
            .unwrap_or(0);
    }

    fn set_threshold(&mut self, t: f64) {
        // Round to 1e-6 so repeated ±0.01 steps do not drift (0.1 + 0.01·k in binary).
        self.curve.threshold = (t.clamp(0.0, 1.0) * 1e6).round() / 1e6;
        self.on_threshold_changed();
    }

    /// What follows new candidates: the count at t, recall against the truth, the clusters.
    fn on_candidates_changed(&mut self) {
        self.count_above_threshold();
        self.truth_remeasure();
        self.request_clusters();
    }

    /// What follows a new t: the count at t, recall against the truth, the clusters, the
    /// cost view's P(t), and a tuning sample for t where the one asked for does not serve it,
    /// or where t fell below what a loaded truth covers (its recall would be unknown there).
    fn on_threshold_changed(&mut self) {
        self.count_above_threshold();
        self.truth_remeasure();
        self.request_clusters();
        self.cost.follow_threshold(self.curve.threshold);
        if self.truth.has_sample() || self.truth_below_floor() {
            self.request_tuning_sample();
        }
    }
}

/// The bands and rows a banding command asks for, one step from `b`.
fn banding_step(cmd: Command, b: Banding) -> Option<(usize, usize)> {
    match cmd {
        Command::BandsDown => Some((b.bands.saturating_sub(1), b.rows)),
        Command::BandsUp => Some((b.bands + 1, b.rows)),
        Command::RowsDown => Some((b.bands, b.rows.saturating_sub(1))),
        Command::RowsUp => Some((b.bands, b.rows + 1)),
        _ => None,
    }
}

/// The most copy pairs of one labelled pair of texts looked up among sampled candidates.
const LABEL_LOOKUPS: usize = 64;
