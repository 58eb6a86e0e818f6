//! The pair viewer's commands: scrolling the two texts, and stepping through the list the
//! pair came from.

use crate::tui::app::{App, PairSource, PromptKind, View};
use crate::tui::keys::{Command, hint};
use crate::tui::layout;
use crate::tui::viewer::{TextSearch, find_all, match_lines, pair_view};
use lshscope_core::diff::export::{ExportFormat, PairInfo, write_diff};
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::util::numfmt::{for_count, thousands};

/// A scroll by this many lines reaches either end of any text (and `scroll + delta` cannot
/// overflow).
const TO_THE_END: isize = i32::MAX as isize;

impl App {
    /// The viewer's commands; `false` leaves `cmd` to the common ones.
    pub(super) fn viewer_command(&mut self, cmd: Command, from: PairSource) -> bool {
        match cmd {
            Command::Up => self.scroll_texts(-1),
            Command::Down => self.scroll_texts(1),
            Command::PageUp => self.scroll_texts(-(self.viewer_page() as isize)),
            Command::PageDown => self.scroll_texts(self.viewer_page() as isize),
            // Past either end: the scroll stops at the first (last) page of each text.
            Command::Top | Command::Bottom => {
                // `]` and `[` go on from where the texts now are, not from the difference
                // last visited.
                if let Some(view) = &mut self.viewer.pair {
                    view.difference = None;
                }
                let delta = if cmd == Command::Top { -1 } else { 1 };
                self.scroll_texts(delta * TO_THE_END)
            }
            Command::PrevPair | Command::NextPair => {
                let delta = if cmd == Command::NextPair { 1 } else { -1 };
                match from {
                    PairSource::Missed => self.step_missed(delta),
                    PairSource::ClusterEdges => self.step_cluster_edge(delta),
                    PairSource::Candidates => self.step_candidate(delta),
                }
            }
            Command::ToggleBandValues => self.viewer.show_values = !self.viewer.show_values,
            Command::ToggleDiff => self.toggle_diff(),
            Command::NextDifference => self.step_difference(true),
            Command::PrevDifference => self.step_difference(false),
            Command::Export => self.export_diff(),
            Command::SearchPrompt => self.open_prompt(PromptKind::Search),
            Command::NextMatch => self.step_match(true),
            Command::PrevMatch => self.step_match(false),
            // Level panes scroll as one: choosing a side would undo the alignment.
            Command::ScrollSide if self.viewer.diff_mode => self.say(format!(
                "in diff mode both texts scroll together ({} shows shared shingles, where {} \
                 picks a side)",
                hint(Command::ToggleDiff),
                hint(Command::ScrollSide)
            )),
            Command::ScrollSide => {
                if let Some(v) = &mut self.viewer.pair {
                    v.next_side();
                }
            }
            _ => return false,
        }
        true
    }

    /// Opens `pair` in the viewer, remembering the list it came from.
    pub(super) fn show_pair(&mut self, pair: &VerifiedPair, from: PairSource) {
        let Some(data) = &self.data else { return };
        let mut view = pair_view(data, pair, self.curve.banding);
        if self.viewer.diff_mode {
            view.ensure_diff(data, layout::viewer_text_width(self.size));
        }
        self.viewer.pair = Some(view);
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

    /// `d`: diff mode on or off; on, the open pair's diff is computed now (and for every pair
    /// opened while it stays on).
    fn toggle_diff(&mut self) {
        self.viewer.diff_mode = !self.viewer.diff_mode;
        // The search's last line counted in the other mode's lines: go on from the top shown.
        if let Some(search) = self.viewer.pair.as_mut().and_then(|v| v.search.as_mut()) {
            search.at = None;
        }
        if !self.viewer.diff_mode {
            self.say("diff mode off: highlighting shared shingles");
            return;
        }
        let width = layout::viewer_text_width(self.size);
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        view.ensure_diff(data, width);
        let n = view.diff.as_ref().map_or(0, |d| d.differences.len());
        self.say(format!(
            "diff mode: {} {} ({}/{} jump between them)",
            thousands(n as u64),
            for_count(n as u64, "difference", "differences"),
            hint(Command::PrevDifference),
            hint(Command::NextDifference)
        ));
    }

    /// `]` / `[`: scrolls both texts to the next (previous) difference, turning diff mode on
    /// if it is off. From the top, `]` lands on the first difference however long the common
    /// start of the texts ([`crate::tui::viewer::diff_past_common_prefix`]).
    fn step_difference(&mut self, forward: bool) {
        if !self.viewer.diff_mode {
            self.toggle_diff();
        }
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands),
        );
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        view.ensure_diff(data, width);
        let Some(diff) = &view.diff else { return };
        let total = diff.differences.len();
        let at = view.difference.map(|k| diff.differences[k].start);
        let target = match (forward, at) {
            (true, at) => diff.next_difference(at),
            (false, Some(row)) => diff.previous_difference(row),
            // None visited (or the texts moved to an end since): the last one above the top row.
            (false, None) => view.aligned.as_ref().and_then(|layout| {
                let top = view.scroll_a;
                layout.difference_rows.iter().rposition(|&row| row < top)
            }),
        };
        let Some(k) = target else {
            let message = match (total, forward) {
                (0, _) => "the texts do not differ".to_string(),
                (_, true) => format!(
                    "no difference after this one ({} in all)",
                    thousands(total as u64)
                ),
                (_, false) => format!(
                    "no difference before this one ({} in all)",
                    thousands(total as u64)
                ),
            };
            self.say(message);
            return;
        };
        view.jump_to_difference(k, rows);
        self.say(format!(
            "difference {} of {}",
            thousands(k as u64 + 1),
            thousands(total as u64)
        ));
    }

    /// `/` answered: finds `query` in both texts (case-insensitive) and moves to the first
    /// line at or after the top one that holds a match in either. An empty query ends the
    /// search.
    pub(super) fn search_texts(&mut self, query: &str) {
        let Some(view) = &mut self.viewer.pair else {
            self.complain("no pair open to search");
            return;
        };
        if query.is_empty() {
            view.search = None;
            self.say("search cleared");
            return;
        }
        let Some(data) = &self.data else { return };
        let (a, b) = (
            data.corpus.text(view.a as usize),
            data.corpus.text(view.b as usize),
        );
        let search = TextSearch {
            query: query.to_string(),
            matches_a: find_all(a, query),
            matches_b: find_all(b, query),
            at: None,
        };
        if search.matches_a.is_empty() && search.matches_b.is_empty() {
            view.search = None;
            self.complain(format!("no match for “{query}” in either text"));
            return;
        }
        view.search = Some(search);
        self.step_match(true);
    }

    /// `}` / `{`: both texts to the next (previous) line holding a match, after (before) the
    /// one last found, or the top line shown once the texts were scrolled away from it; past
    /// the last one it wraps around.
    fn step_match(&mut self, forward: bool) {
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands),
        );
        let diff_mode = self.viewer.diff_mode;
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        if view.search.is_none() {
            self.say(format!(
                "no search yet: {} finds words in both texts",
                hint(Command::SearchPrompt)
            ));
            return;
        }
        if diff_mode {
            view.ensure_diff(data, width);
        }
        let (a, b) = (
            data.corpus.text(view.a as usize),
            data.corpus.text(view.b as usize),
        );
        let layout = view.aligned.as_ref().filter(|_| diff_mode);
        let Some(search) = &view.search else { return };
        let lines = match_lines(search, (a, b), layout, width);
        let top = match view.side {
            crate::tui::viewer::ScrollSide::Right => view.scroll_b,
            _ => view.scroll_a,
        };
        // From the match last found while the texts stay where it put them; once they were
        // scrolled, from the top line shown.
        let from = match search.at {
            Some((line, shown_from)) if shown_from == top => Some(line),
            Some(_) => Some(top),
            None => None,
        };
        let (found, wrapped) = match (from, forward) {
            // The first search: at or after the top line.
            (None, _) => match lines.iter().position(|&l| l >= top) {
                Some(k) => (Some(k), false),
                None => (Some(0).filter(|_| !lines.is_empty()), true),
            },
            (Some(at), true) => match lines.iter().position(|&l| l > at) {
                Some(k) => (Some(k), false),
                None => (Some(0).filter(|_| !lines.is_empty()), true),
            },
            (Some(at), false) => match lines.iter().rposition(|&l| l < at) {
                Some(k) => (Some(k), false),
                None => (lines.len().checked_sub(1), true),
            },
        };
        let (query, in_a, in_b) = (
            search.query.clone(),
            search.matches_a.len(),
            search.matches_b.len(),
        );
        let Some(k) = found else {
            self.say(format!(
                "no match for “{query}” in what diff mode lays out ({} shows the whole texts)",
                hint(Command::ToggleDiff)
            ));
            return;
        };
        let line = lines[k];
        view.show_line(line, diff_mode, &data.corpus, width, rows);
        let shown_from = match view.side {
            crate::tui::viewer::ScrollSide::Right => view.scroll_b,
            _ => view.scroll_a,
        };
        if let Some(search) = &mut view.search {
            search.at = Some((line, shown_from));
        }
        let wrap_note = match (wrapped, forward) {
            (false, _) => "",
            (true, true) => " · from the top again",
            (true, false) => " · from the end again",
        };
        self.say(format!(
            "match {} of {} for “{query}” ({} in A, {} in B){wrap_note}",
            thousands(k as u64 + 1),
            thousands(lines.len() as u64),
            thousands(in_a as u64),
            thousands(in_b as u64),
        ));
    }

    /// `e` in the viewer: the open pair's diff as text (for a ticket) and as HTML (to read
    /// side by side), next to the other exports.
    fn export_diff(&mut self) {
        let width = layout::viewer_text_width(self.size);
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            self.complain("no pair open");
            return;
        };
        let (a, b) = (view.a as usize, view.b as usize);
        let (id_a, id_b) = (data.corpus.id(a), data.corpus.id(b));
        let shingling = data.index.options.shingle.kind.to_string();
        let info = PairInfo {
            left_id: id_a,
            right_id: id_b,
            jaccard: Some((view.jaccard, &shingling)),
            source: Some(&self.config.source_name),
        };
        view.ensure_diff(data, width);
        let Some(diff) = &view.diff else { return };
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
                Ok(()) => written.push(path.display().to_string()),
                Err(e) => {
                    failure = Some(format!("could not write {}: {e:#}", path.display()));
                    break;
                }
            }
        }
        match failure {
            Some(message) => self.complain(message),
            None => self.say(format!("diff written to {}", written.join(" and "))),
        }
    }

    /// A page of the viewer's texts.
    fn viewer_page(&self) -> usize {
        layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands)
            .saturating_sub(1)
            .max(1)
    }

    /// Scrolls the viewer's texts (the side the viewer has chosen) by `delta` lines; in
    /// diff mode both together by aligned rows, whatever the side, so they stay level.
    pub(super) fn scroll_texts(&mut self, delta: isize) {
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands),
        );
        if self.viewer.diff_mode {
            view.ensure_diff(data, width);
            view.scroll_aligned(delta, rows);
        } else {
            view.scroll(delta, &data.corpus, width, rows);
        }
    }

    /// After a resize: diff mode's layout follows the new pane width (the scroll position
    /// kept within the new number of rows).
    pub(super) fn relayout_viewer(&mut self) {
        if !self.viewer.diff_mode {
            return;
        }
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands),
        );
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        if view.diff.is_some() {
            view.ensure_diff(data, width);
            view.scroll_aligned(0, rows);
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
