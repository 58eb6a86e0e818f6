//! The candidates: asking for a banding's candidates and showing the answers.

use std::sync::Arc;

use lshscope_core::analysis::histogram::SimilarityHistogram;
use lshscope_core::minhash::Banding;

use crate::tui::app::{App, Effect};
use crate::tui::candidates::{BandOutcome, EstimatedOutcome, RebandRequest};

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

    /// Cancels the running job (if any) and queues a job for `self.curve.banding`.
    pub(super) fn request_banding(&mut self) {
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

    pub(super) fn set_banding(&mut self, bands: usize, rows: usize) {
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
        self.family.remeasure(banding, self.hist.bins());
        if self.data.is_some() {
            self.request_banding();
        }
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

    /// Counts the labels of the current candidates into `hist` (which must have no labels).
    pub(super) fn add_labels_to_histogram(&mut self) {
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
