//! `P`: a second sketch family's measured S-curve beside the truth's measurement.

use std::sync::Arc;

use crate::tui::app::{App, Effect};
use crate::tui::family::FamilyDone;
use crate::tui::keys::{Command, hint};
use lshscope_core::util::numfmt::{for_count, thousands};

impl App {
    /// `P`: pins the next family other than the index's (measured on the truth in the
    /// background), and after the last one, unpins.
    pub(super) fn pin_family(&mut self) {
        let (Some(data), Some(truth)) = (self.data.clone(), self.truth.truth()) else {
            if self.truth.job().is_running() {
                self.complain("the truth is still being read or computed: P again once it is in");
                return;
            }
            self.complain(format!(
                "a family's curve is measured on the truth pairs: {} computes them (exact join \
                 at t), or start with --truth FILE",
                hint(Command::ComputeTruth)
            ));
            return;
        };
        let truth = Arc::clone(&truth.pairs);
        let index_family = data.index.options.family;
        match self.family.next_family(index_family) {
            None => {
                self.family.unpin();
                self.say("family curve unpinned");
            }
            Some(family) => {
                let pairs = truth.len() as u64;
                let job = self.family.pin(data, family, truth);
                self.effects.push(Effect::Family(job));
                self.say(format!(
                    "measuring {family} on {} truth {} (draws of the family in the background)…",
                    thousands(pairs),
                    for_count(pairs, "pair", "pairs")
                ));
            }
        }
    }

    /// A new truth: the pinned family is measured again on its pairs.
    pub(super) fn remeasure_pinned_family(&mut self) {
        let (Some(pinned), Some(data), Some(truth)) =
            (self.family.pinned(), self.data.clone(), self.truth.truth())
        else {
            return;
        };
        if Arc::ptr_eq(pinned.truth(), &truth.pairs) {
            return;
        }
        let (family, truth) = (pinned.family(), Arc::clone(&truth.pairs));
        let job = self.family.pin(data, family, truth);
        self.effects.push(Effect::Family(job));
    }

    pub(super) fn on_family_done(&mut self, done: FamilyDone) {
        match self.family.accept(done) {
            None => {}
            Some(Ok(family)) => {
                self.family.remeasure(self.curve.banding, self.hist.bins());
                let departing = (self.family.pinned())
                    .and_then(|p| p.curve())
                    .map(|c| (c.departing_bins(), c.bins.len(), c.draws));
                match departing {
                    Some((off, bins, draws)) => self.say(format!(
                        "{family} measured over {draws} draws: {off} of {bins} {} off the \
                         formula at {}; {} pins the next family",
                        for_count(bins as u64, "bin", "bins"),
                        self.curve.banding,
                        hint(Command::PinFamily)
                    )),
                    None => self.say(format!("{family} measured")),
                }
            }
            Some(Err(why)) => self.complain(format!("cannot pin the family: {why}")),
        }
    }
}
