//! The pair viewer's commands: scrolling the two texts, and stepping through the list the
//! pair came from.

use crate::minhash::VerifiedPair;
use crate::tui::app::{App, PairSource, View};
use crate::tui::keys::Command;
use crate::tui::layout;
use crate::tui::viewer::pair_view;

impl App {
    /// The viewer's commands; `false` leaves `cmd` to the common ones.
    pub(super) fn viewer_command(&mut self, cmd: Command, from: PairSource) -> bool {
        match cmd {
            Command::Up => self.scroll_texts(-1),
            Command::Down => self.scroll_texts(1),
            Command::PageUp => self.scroll_texts(-(self.viewer_page() as isize)),
            Command::PageDown => self.scroll_texts(self.viewer_page() as isize),
            Command::PrevPair | Command::NextPair => {
                let delta = if cmd == Command::NextPair { 1 } else { -1 };
                match from {
                    PairSource::Missed => self.step_missed(delta),
                    PairSource::ClusterEdges => self.step_cluster_edge(delta),
                    PairSource::Candidates => self.step_candidate(delta),
                }
            }
            Command::ToggleBandValues => self.viewer.show_values = !self.viewer.show_values,
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
        self.viewer.pair = Some(pair_view(data, pair, self.curve.banding));
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
    fn step_candidate(&mut self, delta: isize) {
        let before = self.candidates.list.selected();
        self.move_selection(delta);
        if self.candidates.list.selected() == before {
            self.say("no more pairs in the list");
        } else {
            self.open_selected();
        }
    }

    /// A page of the viewer's texts.
    fn viewer_page(&self) -> usize {
        layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands)
            .saturating_sub(1)
            .max(1)
    }

    /// Scrolls the viewer's texts (the side the viewer has chosen) by `delta` lines.
    pub(super) fn scroll_texts(&mut self, delta: isize) {
        let (Some(view), Some(data)) = (&mut self.viewer.pair, &self.data) else {
            return;
        };
        let (width, rows) = (
            layout::viewer_text_width(self.size),
            layout::viewer_text_rows(self.size, self.viewer.show_values, self.curve.banding.bands),
        );
        view.scroll(delta, &data.corpus, width, rows);
    }
}
