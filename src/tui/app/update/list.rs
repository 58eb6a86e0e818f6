//! The main screen: panel focus, the histogram's bin cursor, and the pair list (the
//! candidates, or the missed pairs when the truth's list is shown: see [`super::truth`]).

use crate::tui::app::{App, Focus, Overlay, PromptKind, View};
use crate::tui::keys::HelpCommand;
use crate::tui::keys::{Command, hint};
use crate::tui::layout;
use crate::tui::list::{JaccardFilter, PairList, SortOrder, list_order};
use lshscope_core::util::numfmt::{for_count, thousands};

impl App {
    /// The main screen's commands; `false` leaves `cmd` to the common ones.
    pub(super) fn main_command(&mut self, cmd: Command) -> bool {
        if self.truth.show_missed() && self.missed_list_command(cmd) {
            return true;
        }
        let height = self.list_height();
        match cmd {
            Command::FocusNext | Command::FocusPrev => {
                let order = [Focus::Curve, Focus::Histogram, Focus::Pairs];
                let i = order.iter().position(|&f| f == self.focus).unwrap_or(0);
                let step = if cmd == Command::FocusNext { 1 } else { 2 };
                self.focus = order[(i + step) % 3];
            }
            Command::BinLeft => self.bin_cursor = self.bin_cursor.saturating_sub(1),
            Command::BinRight => self.bin_cursor = (self.bin_cursor + 1).min(self.hist.bins() - 1),
            Command::FilterToBin => self.filter_to_bin(self.bin_cursor),
            Command::Up => self.move_in_list(-1),
            Command::Down => self.move_in_list(1),
            Command::PageUp => self.move_in_list(-(self.list_page() as isize)),
            Command::PageDown => self.move_in_list(self.list_page() as isize),
            Command::Top => self.candidates.move_selection(height, PairList::top),
            Command::Bottom => self.candidates.move_selection(height, PairList::bottom),
            Command::Open => self.open_selected(),
            Command::CycleSort => self.cycle_sort(),
            Command::CyclePreview => self.cycle_preview(),
            Command::JumpPrompt => self.open_prompt(PromptKind::Jump),
            _ => return false,
        }
        true
    }

    fn cycle_sort(&mut self) {
        self.list_view.sort = match self.list_view.sort {
            SortOrder::JaccardDesc => SortOrder::JaccardAsc,
            SortOrder::JaccardAsc => SortOrder::Shuffled,
            SortOrder::Shuffled => SortOrder::JaccardDesc,
        };
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        self.rebuild_visible(keep);
        let height = self.list_height();
        self.candidates.move_selection(height, PairList::top);
        self.say(format!("pairs {}", self.list_view.sort.describe()));
    }

    /// `v`: what the list's text column shows, in turn: A from where it differs from B, A from
    /// its start, and the `--preview-column` field of A and B when one was given.
    fn cycle_preview(&mut self) {
        let column = self.preview_column.as_ref().map(|c| c.name.clone());
        self.preview = self.preview.next(column.is_some());
        self.say(self.preview.describe(column.as_deref()));
    }

    /// A page of the pair list.
    fn list_page(&self) -> usize {
        layout::pair_list_rows(self.size).saturating_sub(1).max(1)
    }

    /// Moves the selection of the list shown: the missed pairs or the candidates.
    pub(super) fn move_in_list(&mut self, delta: isize) {
        let height = self.list_height();
        if self.truth.show_missed() {
            self.truth.move_missed(delta, height);
        } else {
            self.candidates
                .move_selection(height, |list, h| list.move_by(delta, h));
        }
    }

    /// Recomputes the filtered, sorted list, keeping `keep` selected if it is still there.
    pub(super) fn rebuild_visible(&mut self, keep: Option<(u32, u32)>) {
        let order = match self.candidates.result() {
            Some(result) => list_order(&result.pairs, self.list_view()),
            None => Vec::new(),
        };
        self.show_order(order, keep);
    }

    /// Shows `order` (indices into the current result) as the list, keeping `keep` selected
    /// if it is still there.
    pub(super) fn show_order(&mut self, order: Vec<u32>, keep: Option<(u32, u32)>) {
        let height = self.list_height();
        self.candidates.show_rows(order, keep, height);
        self.rebuild_missed();
    }

    /// Rows the pair list panel shows at the current size.
    pub(super) fn list_height(&self) -> usize {
        layout::pair_list_rows(self.size).max(1)
    }

    pub(super) fn move_selection(&mut self, delta: isize) {
        let height = self.list_height();
        self.candidates
            .move_selection(height, |list, h| list.move_by(delta, h));
    }

    pub(super) fn filter_to_bin(&mut self, bin: usize) {
        let (low, high, high_inclusive) =
            lshscope_core::analysis::histogram::bin_bounds(bin, self.hist.bins());
        self.bin_cursor = bin;
        self.set_filter(JaccardFilter {
            low,
            high,
            high_inclusive,
            bin: Some(bin),
        });
    }

    pub(super) fn set_filter(&mut self, filter: JaccardFilter) {
        self.list_view.filter = Some(filter);
        let keep = self.selected_pair().map(|p| (p.a, p.b));
        self.rebuild_visible(keep);
        let shown = self.candidates.list().len();
        self.say(format!(
            "showing {} {} with {} ({} clears)",
            thousands(shown as u64),
            for_count(shown as u64, "pair", "pairs"),
            filter.describe(),
            hint(Command::ClearFilter)
        ));
    }

    pub(super) fn clear_filter(&mut self) {
        if self.list_view.filter.take().is_some() {
            let keep = self.selected_pair().map(|p| (p.a, p.b));
            self.rebuild_visible(keep);
            self.say("filter cleared");
        }
    }

    pub(super) fn jump_to(&mut self, id: &str) {
        let (Some(result), Some(data)) = (self.candidates.result(), &self.data) else {
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
        match self.candidates.list().find_after_selection(has) {
            Some(k) => {
                let height = self.list_height();
                self.candidates
                    .move_selection(height, |list, h| list.select(k, h));
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

    pub(super) fn on_click(&mut self, x: u16, y: u16) {
        if self.view != View::Main || self.overlay != Overlay::None {
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
                let line = (y - first_row) as usize;
                if self.truth.show_missed() {
                    self.truth.select_missed_on_line(line, height);
                } else if let Some(i) = self.candidates.list().row_on_line(line) {
                    self.candidates
                        .move_selection(height, |list, h| list.select(i, h));
                }
            }
        }
    }

    pub(super) fn on_wheel(&mut self, _x: u16, _y: u16, down: bool) {
        if self.overlay == Overlay::Help {
            let line = if down {
                HelpCommand::LineDown
            } else {
                HelpCommand::LineUp
            };
            for _ in 0..3 {
                self.on_help_key(line);
            }
            return;
        }
        if self.overlay != Overlay::None {
            return;
        }
        let delta = if down { 3 } else { -3 };
        match self.view {
            View::Clusters => {
                for _ in 0..3 {
                    self.clusters_command(if down { Command::Down } else { Command::Up });
                }
            }
            View::Viewer { .. } => self.scroll_texts(delta),
            _ => self.move_in_list(delta),
        }
    }
}
