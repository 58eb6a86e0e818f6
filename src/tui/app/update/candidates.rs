//! The candidates' answers: showing a banding's candidates (exact or estimated), with the
//! histogram and list they fill. Asking for them is in `update/mod.rs` (`App::set_banding`).

use std::sync::Arc;

use lshscope_core::analysis::histogram::SimilarityHistogram;

use crate::tui::app::App;
use crate::tui::candidates::{BandOutcome, EstimatedOutcome};

impl App {
    pub(super) fn on_banded(&mut self, outcome: BandOutcome) {
        // Latest wins: an answer to anything but the newest request is dropped.
        let Some(ticket) = self.candidates.job.accept(outcome.request) else {
            return;
        };
        if self.candidates.estimated.take().is_none_or(|e| !e.refining) {
            self.candidates.first_latency = Some(self.clock.report(ticket.submitted.elapsed()));
        }
        self.show_candidates(outcome, Some(ticket.submitted));
    }

    /// Shows sampled candidates with their estimate; a first answer (`refining`) leaves the
    /// job running for the refined one.
    pub(super) fn on_estimated(&mut self, estimated: EstimatedOutcome) {
        let id = estimated.outcome.request;
        let started = if estimated.info.refining {
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
            self.candidates.first_latency = Some(self.clock.report(started.elapsed()));
        }
        self.candidates.estimated = Some(estimated.info);
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
        let clock = self.clock;
        self.candidates.last_latency = started.map(|t| clock.report(t.elapsed()));
        if std::mem::take(&mut self.candidates.export_pending) {
            self.export();
        }
        self.on_candidates_changed();
    }

    pub(super) fn rebuild_histogram(&mut self) {
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

    /// Counts the labels of the current candidates into `hist` (which must have no labels):
    /// each labelled pair of texts once, however many copy pairs it covers, so a bin's
    /// precision and its interval count judgements, not copies.
    pub(super) fn add_labels_to_histogram(&mut self) {
        let Some(result) = &self.candidates.result else {
            return;
        };
        let pairs = &result.pairs;
        // Labels are few and pairs sorted by (a, b): look each label's pairs up, rather than
        // every pair's label. A labelled pair of texts counts when any of its copy pairs is a
        // candidate (they share signatures, so all are, unless the list is a sample).
        for (copies, label) in self.labels.labelled_texts(LABEL_LOOKUPS) {
            let found = copies
                .iter()
                .find_map(|&(a, b)| pairs.binary_search_by(|p| (p.a, p.b).cmp(&(a, b))).ok());
            if let Some(i) = found {
                self.hist.add_label(pairs[i].jaccard, label);
            }
        }
    }

    pub(super) fn count_above_threshold(&mut self) {
        let t = self.curve.threshold;
        self.pairs_at_or_above_t = self
            .candidates
            .result
            .as_ref()
            .map(|r| r.pairs.iter().filter(|p| p.jaccard >= t).count())
            .unwrap_or(0);
    }
}

/// The most copy pairs of one labelled pair of texts looked up among sampled candidates.
const LABEL_LOOKUPS: usize = 64;
