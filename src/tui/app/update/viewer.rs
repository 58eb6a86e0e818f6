//! The pair viewer's commands: each asks the viewer's state ([`ViewerState`]) to change and
//! puts what it answers into words on the status line; ← / → step through the list the pair
//! came from.
//!
//! [`ViewerState`]: crate::tui::viewer::ViewerState

use super::export::files_written;
use crate::tui::app::{App, PairSource, PromptKind, View};
use crate::tui::export::brace_names;
use crate::tui::keys::{Command, hint};
use crate::tui::viewer::{DiffToggle, DifferenceStep, MatchStep, Panes, SearchOutcome};
use lshscope_core::diff::export::{ExportFormat, PairInfo, write_diff};
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::pipeline::Loaded;
use lshscope_core::util::numfmt::{for_count, thousands};

impl App {
    /// The viewer's commands; `false` leaves `cmd` to the common ones.
    pub(super) fn viewer_command(&mut self, cmd: Command, from: PairSource) -> bool {
        // The viewer opens only on a pair of the loaded corpus (`show_pair`).
        let Some(data) = self.data.clone() else {
            return false;
        };
        let panes = self.viewer_panes();
        match cmd {
            Command::Up => self.viewer.scroll(-1, &data, panes),
            Command::Down => self.viewer.scroll(1, &data, panes),
            Command::PageUp => self.viewer.scroll(-(panes.page() as isize), &data, panes),
            Command::PageDown => self.viewer.scroll(panes.page() as isize, &data, panes),
            // Past either end: the scroll stops at the first (last) page of each text.
            Command::Top => self.viewer.scroll_to_end(false, &data, panes),
            Command::Bottom => self.viewer.scroll_to_end(true, &data, panes),
            Command::PrevPair | Command::NextPair => {
                let delta = if cmd == Command::NextPair { 1 } else { -1 };
                match from {
                    PairSource::Missed => self.step_missed(delta),
                    PairSource::ClusterEdges => self.step_cluster_edge(delta),
                    PairSource::Candidates => self.step_candidate(delta),
                }
            }
            Command::ToggleBandValues => self.viewer.toggle_values(),
            Command::ToggleDiff => self.toggle_diff(&data, panes),
            Command::NextDifference => self.step_difference(true, &data, panes),
            Command::PrevDifference => self.step_difference(false, &data, panes),
            Command::Export => self.export_diff(&data, panes),
            Command::SearchPrompt => self.open_prompt(PromptKind::Search),
            Command::NextMatch => self.step_match(true, &data, panes),
            Command::PrevMatch => self.step_match(false, &data, panes),
            Command::ScrollSide => {
                if !self.viewer.switch_scroll_side() {
                    self.say(format!(
                        "in diff mode both texts scroll together ({} shows shared shingles, \
                         where {} picks a side)",
                        hint(Command::ToggleDiff),
                        hint(Command::ScrollSide)
                    ));
                }
            }
            _ => return false,
        }
        true
    }

    /// The viewer's text panes at the terminal's size and the banding asked for.
    fn viewer_panes(&self) -> Panes {
        self.viewer.panes(self.size, self.curve.banding.bands)
    }

    /// Opens `pair` in the viewer, remembering the list it came from.
    pub(super) fn show_pair(&mut self, pair: &VerifiedPair, from: PairSource) {
        let Some(data) = &self.data else { return };
        let width = self.viewer_panes().width;
        self.viewer.open(data, pair, self.curve.banding, width);
        self.show(View::Viewer { from });
    }

    /// Opens the selected candidate in the viewer.
    pub(super) fn open_selected(&mut self) {
        let Some(pair) = self.selected_pair().copied() else {
            self.complain("no pair selected");
            return;
        };
        self.show_pair(&pair, PairSource::Candidates);
    }

    /// ← / → in the viewer opened from the candidate list.
    pub(super) fn step_candidate(&mut self, delta: isize) {
        let before = self.candidates.list().selected();
        self.move_selection(delta);
        if self.candidates.list().selected() == before {
            self.say("no more pairs in the list");
        } else {
            self.open_selected();
        }
    }

    /// `d`: diff mode on or off ([`crate::tui::viewer::ViewerState::toggle_diff`]).
    fn toggle_diff(&mut self, data: &Loaded, panes: Panes) {
        match self.viewer.toggle_diff(data, panes.width) {
            DiffToggle::Off => self.say("diff mode off: highlighting shared shingles"),
            DiffToggle::On { differences: None } => {}
            DiffToggle::On {
                differences: Some(n),
            } => self.say(format!(
                "diff mode: {} {} ({}/{} jump between them)",
                thousands(n as u64),
                for_count(n as u64, "difference", "differences"),
                hint(Command::PrevDifference),
                hint(Command::NextDifference)
            )),
        }
    }

    /// `]` / `[`: the next (previous) difference
    /// ([`crate::tui::viewer::ViewerState::step_difference`]).
    fn step_difference(&mut self, forward: bool, data: &Loaded, panes: Panes) {
        let message = match self.viewer.step_difference(forward, data, panes) {
            None => return,
            Some(DifferenceStep::Moved { index, total }) => format!(
                "difference {} of {}",
                thousands(index as u64 + 1),
                thousands(total as u64)
            ),
            Some(DifferenceStep::NoneFurther { total: 0 }) => "the texts do not differ".to_string(),
            Some(DifferenceStep::NoneFurther { total }) => format!(
                "no difference {} this one ({} in all)",
                if forward { "after" } else { "before" },
                thousands(total as u64)
            ),
        };
        self.say(message);
    }

    /// `/` answered: finds `query` in both texts
    /// ([`crate::tui::viewer::ViewerState::search`]).
    pub(super) fn search_texts(&mut self, query: &str) {
        let panes = self.viewer_panes();
        let outcome = match &self.data {
            Some(data) => self.viewer.search(query, data, panes),
            // Nothing is open before the load.
            None => None,
        };
        match outcome {
            None => self.complain("no pair open to search"),
            Some(SearchOutcome::Cleared) => self.say("search cleared"),
            Some(SearchOutcome::NoMatch) => {
                self.complain(format!("no match for “{query}” in either text"))
            }
            Some(SearchOutcome::Searched(step)) => self.say_match_step(step, true),
        }
    }

    /// `}` / `{`: the next (previous) line holding a match
    /// ([`crate::tui::viewer::ViewerState::step_match`]).
    fn step_match(&mut self, forward: bool, data: &Loaded, panes: Panes) {
        if let Some(step) = self.viewer.step_match(forward, data, panes) {
            self.say_match_step(step, forward);
        }
    }

    /// Where a step through the search's matches went, in words.
    fn say_match_step(&mut self, step: MatchStep, forward: bool) {
        let message = match step {
            MatchStep::NoSearch => format!(
                "no search yet: {} finds words in both texts",
                hint(Command::SearchPrompt)
            ),
            MatchStep::OutsideLayout { query } => format!(
                "no match for “{query}” in what diff mode lays out ({} shows the whole texts)",
                hint(Command::ToggleDiff)
            ),
            MatchStep::Found {
                index,
                lines,
                query,
                in_a,
                in_b,
                wrapped,
            } => {
                let wrap_note = match (wrapped, forward) {
                    (false, _) => "",
                    (true, true) => " · from the top again",
                    (true, false) => " · from the end again",
                };
                format!(
                    "match {} of {} for “{query}” ({} in A, {} in B){wrap_note}",
                    thousands(index as u64 + 1),
                    thousands(lines as u64),
                    thousands(in_a as u64),
                    thousands(in_b as u64),
                )
            }
        };
        self.say(message);
    }

    /// `e` in the viewer: the open pair's diff as text (for a ticket) and as HTML (to read
    /// side by side), next to the other exports.
    fn export_diff(&mut self, data: &Loaded, panes: Panes) {
        let Some(view) = self.viewer.pair_with_diff(data, panes.width) else {
            self.complain("no pair open");
            return;
        };
        let Some(diff) = view.diff() else { return };
        let (a, b) = (view.a() as usize, view.b() as usize);
        let (id_a, id_b) = (data.corpus.id(a), data.corpus.id(b));
        let shingling = data.index.options.shingle.kind.to_string();
        let info = PairInfo {
            left_id: id_a,
            right_id: id_b,
            jaccard: Some((view.jaccard(), &shingling)),
            source: Some(&self.config.source_name),
        };
        let stem = format!(
            "{}.diff.{}.{}",
            self.config.export_stem,
            file_safe(id_a),
            file_safe(id_b)
        );
        let (text_a, text_b) = (data.corpus.text(a), data.corpus.text(b));
        let mut written = Vec::new();
        let mut failure = None;
        for ext in ["txt", "html"] {
            let path = self.config.export_dir.join(format!("{stem}.{ext}"));
            let format = ExportFormat::from_path(&path);
            match write_diff(&path, format, diff, text_a, text_b, &info) {
                Ok(()) => written.push(path),
                Err(e) => {
                    failure = Some(format!("could not write {}: {e:#}", path.display()));
                    break;
                }
            }
        }
        match failure {
            Some(message) => self.complain(message),
            None => {
                let full: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
                // Narrower: the two names folded into one (`x.{txt,html}`), then counted.
                let shorter = vec![
                    format!("diff written to {}", brace_names(&written, None)),
                    format!("diff written: {}", files_written(&written)),
                ];
                self.say_or_shorter(format!("diff written to {}", full.join(" and ")), shorter);
            }
        }
    }

    /// Scrolls the viewer's texts by `delta` lines (the mouse wheel over them).
    pub(super) fn scroll_texts(&mut self, delta: isize) {
        let panes = self.viewer_panes();
        if let Some(data) = &self.data {
            self.viewer.scroll(delta, data, panes);
        }
    }

    /// After a resize: diff mode's layout follows the new pane width.
    pub(super) fn relayout_viewer(&mut self) {
        let panes = self.viewer_panes();
        if let Some(data) = &self.data {
            self.viewer.relayout(data, panes);
        }
    }
}

/// An id as part of a file name: characters other than letters, digits, `-` and `_` become
/// `_` (ids may be paths or URLs).
fn file_safe(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
