//! The clusters view's commands: the cluster list, an open cluster's edges, and asking for
//! the clusters of the shown candidates at t.

use std::sync::Arc;

use crate::tui::app::{App, Effect, PairSource, View};
use crate::tui::clusters::{
    ClustersRequest, FromBuckets, cluster_list_rows, edge_list_rows, edge_pair, method_label,
    other_method,
};
use crate::tui::keys::Command;
use crate::tui::list::PairList;

impl App {
    /// `C`: opens the clusters view, or closes it.
    pub(super) fn toggle_clusters(&mut self) {
        if self.view == View::Clusters {
            self.show(View::Main);
            self.clusters.close();
        } else if self.data.is_some() {
            self.show(View::Clusters);
            self.request_clusters();
        }
    }

    /// The clusters view's commands; `false` leaves `cmd` to the common ones.
    pub(super) fn clusters_command(&mut self, cmd: Command) -> bool {
        let size = self.size;
        let moved = |list: &mut PairList, rows: usize, cmd: Command| match cmd {
            Command::Up => list.move_by(-1, rows),
            Command::Down => list.move_by(1, rows),
            Command::PageUp => list.move_by(-(rows.saturating_sub(1).max(1) as isize), rows),
            Command::PageDown => list.move_by(rows.saturating_sub(1).max(1) as isize, rows),
            Command::Top => list.top(rows),
            _ => list.bottom(rows),
        };
        match cmd {
            Command::Up
            | Command::Down
            | Command::PageUp
            | Command::PageDown
            | Command::Top
            | Command::Bottom => self
                .clusters
                .move_selection(size, |list, rows| moved(list, rows, cmd)),
            Command::Open if self.clusters.open().is_some() => self.open_cluster_edge(),
            Command::Open => {
                if !self.clusters.open_selected(edge_list_rows(size)) {
                    self.complain("no cluster selected");
                }
            }
            Command::CycleSort => {
                let sort = self.clusters.toggle_sort(cluster_list_rows(size));
                self.say(format!("clusters sorted by {}", sort.label()));
            }
            Command::SwitchClustering => self.switch_clustering(),
            _ => return false,
        }
        true
    }

    /// `m`: shows the other method's clusters (center ↔ components); an imported result has
    /// its tool's clusters only.
    fn switch_clustering(&mut self) {
        if self.clusters.result().is_some_and(|r| r.center.is_none()) {
            self.complain(
                "these clusters are the imported file's: there is no center clustering of them",
            );
            return;
        }
        let method = other_method(self.clusters.method());
        let heights = (cluster_list_rows(self.size), edge_list_rows(self.size));
        self.clusters.set_method(method, heights);
        let what = match self.clusters.shown() {
            Some(shown)
                if shown.method == lshscope_core::analysis::dedup::Clustering::Components =>
            {
                let r = self.clusters.result().expect("shown");
                format!(
                    "{} removed below t against their kept document",
                    lshscope_core::util::numfmt::thousands(r.false_removals as u64)
                )
            }
            Some(_) => "every removal is ≥ t against its kept document".to_string(),
            None => "computing…".to_string(),
        };
        self.say(format!("clusters by {}: {what}", method_label(method)));
    }

    /// ← / → in the viewer opened from an open cluster: the previous or next edge.
    pub(super) fn step_cluster_edge(&mut self, delta: isize) {
        let height = edge_list_rows(self.size);
        if self.clusters.open().is_none() {
            return;
        }
        if self.clusters.step_edge(delta, height) {
            self.open_cluster_edge();
        } else {
            self.say("no more edges in this cluster");
        }
    }

    /// Queues a clusters job for the shown candidates at t, when the clusters view is shown,
    /// the candidates answer the banding asked for, and nothing was asked for these yet.
    pub(super) fn request_clusters(&mut self) {
        let (Some(data), Some(result)) = (&self.data, self.candidates.result()) else {
            return;
        };
        let (banding, threshold) = (result.banding, self.curve.threshold);
        if !self.clusters_shown()
            || banding != self.curve.banding
            || self.clusters.asked() == Some((banding, threshold))
        {
            return;
        }
        let job = self.clusters.submit(ClustersRequest {
            data: Arc::clone(data),
            pairs: Arc::clone(&result.pairs),
            banding,
            threshold,
            // The re-banding jobs' groups serve when the clusters have none yet.
            identical: self
                .clusters
                .identical()
                .cloned()
                .or_else(|| self.candidates.sampling().bands.found_groups()),
            sort: self.clusters.sort(),
            fixed: self.imported.clusters(),
            // Sampled candidates do not hold every pair: the job joins the buckets instead.
            from_buckets: self
                .candidates
                .estimated()
                .is_some()
                .then_some(FromBuckets {
                    max_bucket: self.config.max_bucket,
                }),
            max_bucket: self.config.max_bucket,
        });
        self.effects.push(Effect::Clusters(job));
    }

    /// Opens the selected edge of the open cluster in the pair viewer.
    fn open_cluster_edge(&mut self) {
        let (Some((_, edge)), Some(data)) = (self.selected_cluster_edge(), self.data.clone())
        else {
            self.complain("no edge selected");
            return;
        };
        let pair = edge_pair(&data, edge, self.curve.banding);
        self.show_pair(&pair, PairSource::ClusterEdges);
    }
}
