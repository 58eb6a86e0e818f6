//! The cost view's commands: a cursor over every banding's cost.

use crate::tui::app::{App, Effect, View};
use crate::tui::cost::CostRequest;
use crate::tui::keys::Command;

impl App {
    /// `H`: opens the cost view (computing the grid once a session, and the tuning sample at
    /// t when there is no truth and none for this t), or closes it.
    pub(super) fn toggle_cost(&mut self) {
        if self.view == View::Cost {
            self.show(View::Main);
        } else if let Some(data) = self.data.clone() {
            self.show(View::Cost);
            let (threshold, sampling) = (self.curve.threshold, self.candidates.sampling());
            let job = self.cost.open(self.curve.banding, || CostRequest {
                data,
                options: lshscope_core::analysis::cost::CostOptions {
                    threshold,
                    enumeration_budget: sampling.enumeration_budget,
                    sampled_draws: sampling.refined_draws,
                    ..Default::default()
                },
            });
            self.effects.extend(job.map(Effect::Cost));
            // Recall and precision at t for the cursor's banding, where no truth is loaded.
            self.request_tuning_sample();
        }
    }

    /// The cost view's commands; `false` leaves `cmd` to the common ones (b, r, t, help,
    /// quit, Back).
    pub(super) fn cost_command(&mut self, cmd: Command) -> bool {
        let here = self.curve.banding;
        match cmd {
            Command::CursorLeft | Command::CursorRight | Command::Up | Command::Down => {
                let (db, dr) = match cmd {
                    Command::CursorLeft => (-1, 0),
                    Command::CursorRight => (1, 0),
                    Command::Up => (0, 1),
                    _ => (0, -1),
                };
                let k = self.num_perm();
                self.cost.move_cursor(here, db, dr, k);
            }
            Command::Open => {
                let to = self.cost.cursor_or(here);
                self.show(View::Main);
                self.set_banding(to.bands, to.rows);
            }
            Command::CycleMetric => self.cost.cycle_metric(),
            _ => return false,
        }
        true
    }
}
