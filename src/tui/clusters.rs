//! The clusters view: what the dedup step would make of the current candidates at t (verified
//! joining: pairs with exact Jaccard ≥ t, identical copies joined first), with the chaining
//! audit of every cluster. The clusters are computed off the UI thread by [`run_clusters`]
//! from a [`ClustersRequest`] (the shown candidates, their banding, t); the answer carries its
//! ticket id so a stale one is dropped. The state here is the cluster list, its order, and the
//! open cluster with its edges (farthest pair, then the spanning edges weakest first).
//!
//! Both of `lshscope dedup`'s methods are computed, so switching between them is instant:
//! the connected components (what text-dedup, datatrove and NeMo Curator remove) and center
//! clustering (`dedup`'s default: a document is removed only for a kept document at J ≥ t).
//! For each, every member's exact Jaccard with its cluster's kept document is known, so the
//! components' false removals (removed although below t against the kept document) are
//! counted and marked. An imported clusters file is audited the same way.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use lshscope_core::analysis::center::{center_clusters, jaccards_to_kept};
use lshscope_core::analysis::clusters::{
    AuditLimits, ChainAudit, Clusters, Edge, KeepRule, audit_all,
};
use lshscope_core::analysis::dedup::{Clustering, DedupOptions, Joining};
use lshscope_core::jobs::{Latest, Phase, Ticket};
use lshscope_core::minhash::{
    Banding, BandingOptions, IdenticalGroups, VerifiedPair, bucket_lists,
};
use lshscope_core::pipeline::Pipeline;

use super::clock::Clock;
use super::list::PairList;
use lshscope_core::pipeline::Loaded;

/// How the cluster list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterSort {
    /// Largest first (ties: input order of the kept document).
    Size,
    /// Weakest link first: the clusters that hold together least.
    WeakestLink,
}

impl ClusterSort {
    pub fn label(self) -> &'static str {
        match self {
            ClusterSort::Size => "size ↓",
            ClusterSort::WeakestLink => "weakest link ↑",
        }
    }

    pub fn toggled(self) -> Self {
        match self {
            ClusterSort::Size => ClusterSort::WeakestLink,
            ClusterSort::WeakestLink => ClusterSort::Size,
        }
    }
}

/// The method's name as the view writes it.
pub fn method_label(method: Clustering) -> &'static str {
    match method {
        Clustering::Center => "center",
        Clustering::Components => "components",
    }
}

/// The other method.
pub fn other_method(method: Clustering) -> Clustering {
    match method {
        Clustering::Center => Clustering::Components,
        Clustering::Components => Clustering::Center,
    }
}

/// Cluster the candidates of `banding` at `threshold`; answered with a [`ClustersOutcome`].
#[derive(Debug, Clone)]
pub struct ClustersRequest {
    pub data: Arc<Loaded>,
    /// Every candidate with its exact Jaccard, sorted by (a, b) (a re-banding's answer).
    pub pairs: Arc<Vec<VerifiedPair>>,
    pub banding: Banding,
    pub threshold: f64,
    /// Identical-set groups once computed (they depend on the corpus only); `None`: the job
    /// computes them and returns them for the next request.
    pub identical: Option<Arc<IdenticalGroups>>,
    pub sort: ClusterSort,
    /// Clusters given by an imported result (`explore --pairs/--clusters`): audited at the
    /// threshold as they are, instead of clustering the pairs ≥ t.
    pub fixed: Option<FixedClusters>,
    /// `pairs` are a sample of the candidates (the banding's bucket pairs were too many to
    /// enumerate): the clusters are joined from the banding's buckets instead, exactly as
    /// `lshscope dedup` joins them (`pairs` unused), with this bucket cap.
    pub from_buckets: Option<FromBuckets>,
    /// The bucket cap of the shown candidates (`--max-bucket`): the center pass reads the
    /// same buckets.
    pub max_bucket: Option<usize>,
}

/// Clustering from the buckets: the cap on bucket size (`--max-bucket`, over distinct sets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FromBuckets {
    pub max_bucket: Option<usize>,
}

/// Clusters an imported result fixes.
#[derive(Debug, Clone)]
pub struct FixedClusters {
    pub clusters: Arc<Clusters>,
    /// The clusters join every one of `pairs` (an imported pairs file), so the removals owed
    /// to pairs below t can be counted.
    pub from_pairs: bool,
}

/// A clusters job as the event loop runs it.
pub type ClustersJob = Ticket<ClustersRequest>;

/// Center clustering's clusters (stars: a kept document and the documents assigned to it),
/// with what the view shows of them.
#[derive(Debug, Clone)]
pub struct CenterOutcome {
    pub clusters: Arc<Clusters>,
    pub audits: Arc<Vec<ChainAudit>>,
    /// Per document, its Jaccard with the kept document it is assigned to (1 for a kept
    /// document, NaN outside clusters).
    pub to_kept: Arc<Vec<f64>>,
    pub chained: usize,
    /// Cluster numbers in the requested order.
    pub order: Vec<u32>,
}

/// Clusters, audits and summary numbers for one (banding, t).
#[derive(Debug, Clone)]
pub struct ClustersOutcome {
    pub request: u64,
    pub banding: Banding,
    pub threshold: f64,
    pub identical: Arc<IdenticalGroups>,
    /// The connected components of the pairs ≥ t (or an imported result's clusters).
    pub clusters: Arc<Clusters>,
    /// One audit per cluster.
    pub audits: Arc<Vec<ChainAudit>>,
    /// Clusters whose members are not all ≥ t of each other.
    pub chained: usize,
    /// Per document, its exact Jaccard with the kept document of its cluster in `clusters`
    /// (1 for the kept one, NaN outside clusters).
    pub to_kept: Arc<Vec<f64>>,
    /// Documents `clusters` removes although their Jaccard with their cluster's kept document
    /// is below t: the false removals.
    pub false_removals: usize,
    /// Center clustering of the same verified pairs; `None` for an imported result (its
    /// clusters are the tool's).
    pub center: Option<CenterOutcome>,
    /// Fixed clusters of imported pairs: the documents removed only through pairs below t
    /// (removed here, but not by the clusters of the pairs ≥ t).
    pub removed_below_t: Option<usize>,
    /// Cluster numbers in the requested order.
    pub order: Vec<u32>,
    pub sort: ClusterSort,
    pub elapsed: Duration,
    /// Joined from the banding's buckets (the candidates were sampled), not from pairs.
    pub from_buckets: bool,
}

/// One method's clusters of an outcome, as the view shows them.
#[derive(Debug, Clone, Copy)]
pub struct Shown<'a> {
    /// The method shown: the one asked for, or components when center does not exist (an
    /// imported result).
    pub method: Clustering,
    pub clusters: &'a Clusters,
    pub audits: &'a [ChainAudit],
    pub to_kept: &'a [f64],
    pub chained: usize,
    pub order: &'a [u32],
}

impl ClustersOutcome {
    /// The clusters of `method` (components when center clustering was not computed).
    pub fn shown(&self, method: Clustering) -> Shown<'_> {
        match (&self.center, method) {
            (Some(c), Clustering::Center) => Shown {
                method,
                clusters: &c.clusters,
                audits: &c.audits,
                to_kept: &c.to_kept,
                chained: c.chained,
                order: &c.order,
            },
            _ => Shown {
                method: Clustering::Components,
                clusters: &self.clusters,
                audits: &self.audits,
                to_kept: &self.to_kept,
                chained: self.chained,
                order: &self.order,
            },
        }
    }

    /// Re-orders both methods' lists by `sort`.
    fn sort_by(&mut self, sort: ClusterSort) {
        self.order = cluster_order(&self.clusters, &self.audits, sort);
        if let Some(c) = &mut self.center {
            c.order = cluster_order(&c.clusters, &c.audits, sort);
        }
        self.sort = sort;
    }
}

impl Shown<'_> {
    /// True when `doc` is removed although its Jaccard with its cluster's kept document is
    /// below `threshold`. Center clustering has none by construction; components and
    /// imported results can.
    pub fn is_false_removal(&self, doc: u32, threshold: f64) -> bool {
        self.clusters.is_removed(doc) && self.to_kept[doc as usize] < threshold
    }

    /// The false removals among the members of cluster `c`.
    pub fn false_removals_in(&self, c: usize, threshold: f64) -> usize {
        self.clusters
            .members(c)
            .iter()
            .filter(|&&d| self.is_false_removal(d, threshold))
            .count()
    }
}

/// The false removals of `clusters`: removed documents whose Jaccard with their cluster's
/// kept document (`to_kept`) is below `threshold`.
fn count_false_removals(clusters: &Clusters, to_kept: &[f64], threshold: f64) -> usize {
    (0..to_kept.len() as u32)
        .filter(|&d| clusters.is_removed(d) && to_kept[d as usize] < threshold)
        .count()
}

/// The center outcome of `centered`: its stars audited at `threshold`, ordered by `sort`.
fn center_outcome(
    centered: lshscope_core::analysis::center::Centered,
    sets: &lshscope_core::minhash::ShingleSets,
    identical: &IdenticalGroups,
    threshold: f64,
    sort: ClusterSort,
) -> CenterOutcome {
    let audits = audit_all(
        &centered.clusters,
        sets,
        Some(identical),
        threshold,
        AuditLimits::default(),
    );
    let order = cluster_order(&centered.clusters, &audits, sort);
    CenterOutcome {
        chained: audits.iter().filter(|a| a.chained).count(),
        clusters: Arc::new(centered.clusters),
        audits: Arc::new(audits),
        to_kept: Arc::new(centered.to_kept),
        order,
    }
}

/// The job: identical groups (once), clusters of the pairs ≥ t, their audits, the list order.
/// `None` when cancelled.
pub fn run_clusters(job: &ClustersJob) -> Option<ClustersOutcome> {
    let start = Instant::now();
    let request = &job.request;
    let progress = &job.progress;
    let index = &request.data.index;
    let documents = index.len();
    if let (Some(from), None) = (request.from_buckets, &request.fixed) {
        return clusters_from_buckets(job, from, start);
    }
    progress.begin(Phase::Clustering, documents as u64);
    let identical = request
        .identical
        .clone()
        .unwrap_or_else(|| Arc::new(IdenticalGroups::find(&index.sets)));
    progress.check().ok()?;
    let clusters = match &request.fixed {
        Some(fixed) => Arc::clone(&fixed.clusters),
        None => {
            let edges: Vec<Edge> = request
                .pairs
                .par_iter()
                .filter(|p| p.jaccard >= request.threshold)
                .map(|p| Edge {
                    a: p.a,
                    b: p.b,
                    jaccard: p.jaccard,
                })
                .collect();
            Arc::new(Clusters::build(
                documents,
                &edges,
                Some(&identical),
                KeepRule::First,
                |_| 0,
            ))
        }
    };
    progress.check().ok()?;
    let removed_below_t = request.fixed.as_ref().filter(|f| f.from_pairs).map(|_| {
        let verified: Vec<Edge> = request
            .pairs
            .iter()
            .filter(|p| p.jaccard >= request.threshold)
            .map(|p| Edge {
                a: p.a,
                b: p.b,
                jaccard: p.jaccard,
            })
            .collect();
        let verified = Clusters::build(documents, &verified, None, KeepRule::First, |_| 0);
        clusters.removed_beyond(&verified)
    });
    // Imported clusters were not joined through identical copies: their members are audited
    // as they are, copies included.
    let audit_identical = request.fixed.is_none().then_some(identical.as_ref());
    let audits = audit_all(
        &clusters,
        &index.sets,
        audit_identical,
        request.threshold,
        AuditLimits::default(),
    );
    progress.check().ok()?;
    let order = cluster_order(&clusters, &audits, request.sort);
    // One Jaccard per removed document: the exact similarity with what its cluster keeps.
    let (to_kept, _) = jaccards_to_kept(&clusters, &index.sets);
    let false_removals = count_false_removals(&clusters, &to_kept, request.threshold);
    progress.check().ok()?;
    // Center clustering reads the banding's buckets as `lshscope dedup` does (copies
    // collapsed, the same cap), so it is `dedup --clustering center` at this (b, r, t).
    let center = match &request.fixed {
        Some(_) => None,
        None => {
            let included: Vec<bool> = (0..documents as u32)
                .map(|d| identical.is_representative(d))
                .collect();
            let banding = BandingOptions {
                banding: request.banding,
                max_bucket: request.max_bucket,
            };
            let buckets =
                bucket_lists(&index.signatures, &banding, Some(&included), progress).ok()?;
            let centered = center_clusters(
                documents,
                &buckets,
                Some(&identical),
                &index.sets,
                request.threshold,
                KeepRule::First,
                |_| 0,
                progress,
            )
            .ok()?;
            Some(center_outcome(
                centered,
                &index.sets,
                &identical,
                request.threshold,
                request.sort,
            ))
        }
    };
    progress.finish();
    Some(ClustersOutcome {
        request: job.id,
        banding: request.banding,
        threshold: request.threshold,
        chained: audits.iter().filter(|a| a.chained).count(),
        removed_below_t,
        identical,
        clusters,
        audits: Arc::new(audits),
        to_kept: Arc::new(to_kept),
        false_removals,
        center,
        order,
        sort: request.sort,
        elapsed: start.elapsed(),
        from_buckets: false,
    })
}

/// The clusters of a banding whose candidates are sampled: `lshscope dedup`'s verified joining
/// over the banding's buckets (identical copies collapsed first, a Jaccard computed only
/// between documents not yet in one component), with its audits. Memory and time follow
/// documents and bands, not the pairs the buckets stand for.
fn clusters_from_buckets(
    job: &ClustersJob,
    from: FromBuckets,
    start: Instant,
) -> Option<ClustersOutcome> {
    let request = &job.request;
    let options = DedupOptions {
        banding: BandingOptions {
            banding: request.banding,
            max_bucket: from.max_bucket,
        },
        threshold: request.threshold,
        joining: Joining::Verified,
        // Both methods are computed; this only names the one `Dedup::chosen` gives.
        clustering: Clustering::Center,
        keep: KeepRule::First,
        collapse_identical: true,
        audit: AuditLimits::default(),
    };
    let dedup = Pipeline::new(&job.progress)
        .dedup_grouped(
            &request.data.index,
            &options,
            request.identical.clone(),
            |_| 0,
        )
        .ok()?;
    let identical = dedup.identical.expect("collapsed");
    let order = cluster_order(&dedup.clusters, &dedup.audits, request.sort);
    let sets = &request.data.index.sets;
    let center = dedup
        .center
        .map(|c| center_outcome(c, sets, &identical, request.threshold, request.sort));
    job.progress.finish();
    Some(ClustersOutcome {
        request: job.id,
        banding: request.banding,
        threshold: request.threshold,
        chained: dedup.audits.iter().filter(|a| a.chained).count(),
        removed_below_t: None,
        identical,
        clusters: Arc::new(dedup.clusters),
        audits: Arc::new(dedup.audits),
        to_kept: Arc::new(dedup.components_to_kept),
        false_removals: dedup.components_removed_below_threshold,
        center,
        order,
        sort: request.sort,
        elapsed: start.elapsed(),
        from_buckets: true,
    })
}

/// Cluster numbers in `sort` order; ties by cluster number (input order of the first member).
pub fn cluster_order(clusters: &Clusters, audits: &[ChainAudit], sort: ClusterSort) -> Vec<u32> {
    let mut order: Vec<u32> = (0..clusters.len() as u32).collect();
    match sort {
        ClusterSort::Size => {
            order.par_sort_by_key(|&c| (std::cmp::Reverse(clusters.members(c as usize).len()), c))
        }
        ClusterSort::WeakestLink => order.par_sort_by(|&x, &y| {
            let (wx, wy) = (
                audits[x as usize].weakest_link.jaccard,
                audits[y as usize].weakest_link.jaccard,
            );
            wx.total_cmp(&wy).then(x.cmp(&y))
        }),
    }
    order
}

/// What a row of an open cluster's edge list is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    /// The lowest Jaccard found between two members (the audit's farthest pair).
    Farthest,
    /// The lowest spanning edge: the highest t at which the cluster still holds together.
    Weakest,
    /// Another edge of the maximum spanning tree.
    Spanning,
    /// A spanning edge between identical copies (Jaccard 1).
    Copy,
    /// A removed member and the kept document, below t: a removal no pair justifies.
    FalseRemoval,
}

impl EdgeKind {
    pub fn label(self) -> &'static str {
        match self {
            EdgeKind::Farthest => "farthest pair",
            EdgeKind::Weakest => "weakest link",
            EdgeKind::Spanning => "spanning",
            EdgeKind::Copy => "identical copy",
            EdgeKind::FalseRemoval => "removed < t",
        }
    }
}

/// The open cluster: its number among the shown method's clusters, and its edge rows (the
/// farthest pair, the false removals each with the kept document, then the spanning edges
/// weakest first); `edges.rows()` index `edge_list`.
#[derive(Debug, Clone, Default)]
pub struct OpenCluster {
    pub cluster: usize,
    pub edge_list: Vec<(EdgeKind, Edge)>,
    pub edges: PairList,
    /// First member shown in the member panel.
    pub member_offset: usize,
}

impl OpenCluster {
    /// The edges of cluster `c` of `outcome` under `method`, as the open cluster lists them.
    pub fn new(outcome: &ClustersOutcome, method: Clustering, c: usize, height: usize) -> Self {
        let shown = outcome.shown(method);
        let audit = &shown.audits[c];
        let mut edge_list = vec![(EdgeKind::Farthest, audit.farthest_pair)];
        // Each false removal beside the kept document, so Enter shows what was lost.
        let kept = shown.clusters.kept(c);
        for &d in shown.clusters.members(c) {
            if shown.is_false_removal(d, outcome.threshold) {
                let edge = Edge {
                    a: kept,
                    b: d,
                    jaccard: shown.to_kept[d as usize],
                };
                edge_list.push((EdgeKind::FalseRemoval, edge));
            }
        }
        // Weakest first: the edges a lower t would cut come first.
        for (k, &e) in shown.clusters.spanning_edges(c).iter().rev().enumerate() {
            let kind = if k == 0 {
                EdgeKind::Weakest
            } else if outcome.identical.representative(e.b) == outcome.identical.representative(e.a)
            {
                EdgeKind::Copy
            } else {
                EdgeKind::Spanning
            };
            edge_list.push((kind, e));
        }
        let mut edges = PairList::default();
        edges.show((0..edge_list.len() as u32).collect(), |_| false, height);
        OpenCluster {
            cluster: c,
            edge_list,
            edges,
            member_offset: 0,
        }
    }

    /// Scrolls the member panel (of `rows` lines) to the selected edge's far member, so
    /// walking the spanning edges walks every member. `members` are in input order.
    pub fn follow_selection(&mut self, members: &[u32], rows: usize) {
        let Some((_, e)) = self.selected_edge() else {
            return;
        };
        let at = members.binary_search(&e.b).unwrap_or(0);
        if at < self.member_offset || at >= self.member_offset + rows {
            self.member_offset = at.saturating_sub(rows / 2);
        }
        self.member_offset = self.member_offset.min(members.len().saturating_sub(rows));
    }

    /// The selected edge row.
    pub fn selected_edge(&self) -> Option<(EdgeKind, Edge)> {
        self.edge_list
            .get(self.edges.selected_index()? as usize)
            .copied()
    }
}

/// The clusters view's state. Changed only through its methods.
#[derive(Debug)]
pub struct ClustersState {
    /// The clusters job asked last, until it answers (latest wins).
    job: Latest<ClustersRequest>,
    /// The newest answer; its banding and t may lag behind what is asked.
    result: Option<ClustersOutcome>,
    /// Identical groups of the loaded corpus, once a job (or the labels) found them.
    identical: Option<Arc<IdenticalGroups>>,
    /// The list order asked for.
    sort: ClusterSort,
    /// The method shown (center by default, as `lshscope dedup`).
    method: Clustering,
    /// The cluster list: rows are cluster numbers of `result` under `method`.
    list: PairList,
    open: Option<OpenCluster>,
    /// From the request of the shown result to its answer.
    last_latency: Option<Duration>,
}

impl Default for ClustersState {
    fn default() -> Self {
        ClustersState {
            job: Latest::default(),
            result: None,
            identical: None,
            sort: ClusterSort::Size,
            method: Clustering::Center,
            list: PairList::default(),
            open: None,
            last_latency: None,
        }
    }
}

impl ClustersState {
    /// The clusters job asked last, until it answers.
    pub fn job(&self) -> &Latest<ClustersRequest> {
        &self.job
    }

    /// The newest answer; its banding and t may lag behind what is asked.
    pub fn result(&self) -> Option<&ClustersOutcome> {
        self.result.as_ref()
    }

    /// Identical groups of the loaded corpus, once found.
    pub fn identical(&self) -> Option<&Arc<IdenticalGroups>> {
        self.identical.as_ref()
    }

    /// The list order asked for.
    pub fn sort(&self) -> ClusterSort {
        self.sort
    }

    /// The method asked for.
    pub fn method(&self) -> Clustering {
        self.method
    }

    /// The cluster list.
    pub fn list(&self) -> &PairList {
        &self.list
    }

    /// The open cluster.
    pub fn open(&self) -> Option<&OpenCluster> {
        self.open.as_ref()
    }

    /// From the request of the shown result to its answer.
    pub fn last_latency(&self) -> Option<Duration> {
        self.last_latency
    }

    /// Keeps the corpus's identical groups, found elsewhere, for the next job.
    pub fn keep_identical(&mut self, groups: Arc<IdenticalGroups>) {
        self.identical = Some(groups);
    }

    /// A job for `request`, superseding (and cancelling) any running one.
    pub fn submit(&mut self, request: ClustersRequest) -> ClustersJob {
        self.job.submit(request)
    }

    /// Cancels the running job (on quit).
    pub fn cancel(&self) {
        self.job.cancel_running();
    }

    /// Opens the selected cluster, its edge list `edge_rows` high; `false` when none is
    /// selected.
    pub fn open_selected(&mut self, edge_rows: usize) -> bool {
        let (Some(result), Some(c)) = (&self.result, self.selected_cluster()) else {
            return false;
        };
        self.open = Some(OpenCluster::new(result, self.method, c, edge_rows));
        true
    }

    /// Closes the open cluster, back to the list.
    pub fn close(&mut self) {
        self.open = None;
    }

    /// Moves the selection by `step` (a list and its page height): the open cluster's edges,
    /// whose members follow, or else the cluster list. Heights are those of a `size` terminal.
    pub fn move_selection(&mut self, size: (u16, u16), step: impl Fn(&mut PairList, usize)) {
        match (&mut self.open, &self.result) {
            (Some(open), Some(result)) => {
                step(&mut open.edges, edge_list_rows(size));
                let members = result.shown(self.method).clusters.members(open.cluster);
                open.follow_selection(members, member_rows(size).saturating_sub(1).max(1));
            }
            _ => step(&mut self.list, cluster_list_rows(size)),
        }
    }

    /// Moves the open cluster's edge selection by `delta`; `false` when it did not move (no
    /// cluster open, or no edge further that way).
    pub fn step_edge(&mut self, delta: isize, height: usize) -> bool {
        let Some(open) = &mut self.open else {
            return false;
        };
        let before = open.edges.selected();
        open.edges.move_by(delta, height);
        open.edges.selected() != before
    }

    /// Keeps the selections in view after a resize to `size`.
    pub fn scroll_into_view(&mut self, size: (u16, u16)) {
        self.list.scroll_into_view(cluster_list_rows(size));
        if let Some(open) = &mut self.open {
            open.edges.scroll_into_view(edge_list_rows(size));
        }
    }

    /// Sorts the list the other way, from its top; returns the new order.
    pub fn toggle_sort(&mut self, height: usize) -> ClusterSort {
        let sort = self.sort.toggled();
        self.set_sort(sort, height);
        self.list.top(height);
        sort
    }

    /// True when the shown clusters answer another banding or t than `banding` and `t`.
    pub fn is_stale(&self, banding: Banding, threshold: f64) -> bool {
        self.result
            .as_ref()
            .is_some_and(|r| r.banding != banding || r.threshold != threshold)
    }

    /// The (banding, t) of the newest request, answered or not.
    pub fn asked(&self) -> Option<(Banding, f64)> {
        self.job
            .running()
            .map(|t| (t.request.banding, t.request.threshold))
            .or_else(|| self.result.as_ref().map(|r| (r.banding, r.threshold)))
    }

    /// The cluster number the list has selected.
    pub fn selected_cluster(&self) -> Option<usize> {
        self.list.selected_index().map(|c| c as usize)
    }

    /// The shown result under the method asked for.
    pub fn shown(&self) -> Option<Shown<'_>> {
        Some(self.result.as_ref()?.shown(self.method))
    }

    /// Shows `method`'s clusters, keeping selected (and open) the cluster of the kept
    /// document selected (and open) before, when the other method clusters it.
    pub fn set_method(&mut self, method: Clustering, heights: (usize, usize)) {
        let kept_of = |state: &Self, c: Option<usize>| Some(state.shown()?.clusters.kept(c?));
        let selected_kept = kept_of(self, self.selected_cluster());
        let open_kept = kept_of(self, self.open.as_ref().map(|o| o.cluster));
        self.method = method;
        let Some(r) = &self.result else { return };
        let shown = r.shown(method);
        let holds = |c: u32, doc: Option<u32>| {
            doc.is_some_and(|d| shown.clusters.cluster_of(d) == Some(c as usize))
        };
        self.list
            .show(shown.order.to_vec(), |c| holds(c, selected_kept), heights.0);
        self.open = open_kept
            .and_then(|d| shown.clusters.cluster_of(d))
            .map(|c| OpenCluster::new(r, method, c, heights.1));
    }

    /// Takes a job's answer if it is the newest (else `None`, nothing changes), keeping the
    /// open cluster open when a cluster of the new result holds its kept document.
    pub fn accept(
        &mut self,
        outcome: ClustersOutcome,
        heights: (usize, usize),
        clock: Clock,
    ) -> bool {
        let Some(ticket) = self.job.accept(outcome.request) else {
            return false;
        };
        self.last_latency = Some(clock.report(ticket.submitted.elapsed()));
        let method = self.method;
        let kept_before = |c: Option<usize>| {
            let r = self.result.as_ref()?;
            Some(r.shown(method).clusters.kept(c?))
        };
        let selected_kept = kept_before(self.selected_cluster());
        let open_kept = kept_before(self.open.as_ref().map(|o| o.cluster));
        self.identical = Some(Arc::clone(&outcome.identical));
        let mut outcome = outcome;
        if outcome.sort != self.sort {
            outcome.sort_by(self.sort);
        }
        let shown = outcome.shown(method);
        let holds = |c: u32, doc: Option<u32>| {
            doc.is_some_and(|d| shown.clusters.cluster_of(d) == Some(c as usize))
        };
        self.list
            .show(shown.order.to_vec(), |c| holds(c, selected_kept), heights.0);
        self.open = open_kept
            .and_then(|d| shown.clusters.cluster_of(d))
            .map(|c| OpenCluster::new(&outcome, method, c, heights.1));
        self.result = Some(outcome);
        true
    }

    /// Re-sorts the shown list, keeping the selected cluster selected.
    fn set_sort(&mut self, sort: ClusterSort, height: usize) {
        self.sort = sort;
        let Some(r) = &mut self.result else { return };
        let selected = self.list.selected_index();
        r.sort_by(sort);
        let order = r.shown(self.method).order.to_vec();
        self.list.show(order, |c| Some(c) == selected, height);
    }
}

/// The clusters screen: summary and size histogram on top, the cluster list below; an open
/// cluster shows its header, members and edges. Pure geometry of the terminal size, so the
/// App's page sizes and the renderer agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClustersLayout {
    pub top: ratatui::layout::Rect,
    pub body: ratatui::layout::Rect,
    pub status: ratatui::layout::Rect,
    pub message: ratatui::layout::Rect,
    pub footer: ratatui::layout::Rect,
}

pub fn clusters_layout(size: (u16, u16)) -> ClustersLayout {
    use ratatui::layout::{Constraint, Layout, Rect};
    let area = Rect::new(0, 0, size.0, size.1);
    let top_height = (size.1 / 3).clamp(8, 14);
    let [top, body, status, message, footer] = Layout::vertical([
        Constraint::Length(top_height),
        Constraint::Min(5),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    ClustersLayout {
        top,
        body,
        status,
        message,
        footer,
    }
}

/// An open cluster: the member panel (top) and the edge panel (body).
pub fn open_cluster_layout(size: (u16, u16)) -> ClustersLayout {
    clusters_layout(size)
}

/// Rows of the cluster list (inside the border, under the header).
pub fn cluster_list_rows(size: (u16, u16)) -> usize {
    (clusters_layout(size).body.height.saturating_sub(3) as usize).max(1)
}

/// Rows of an open cluster's edge list.
pub fn edge_list_rows(size: (u16, u16)) -> usize {
    (open_cluster_layout(size).body.height.saturating_sub(3) as usize).max(1)
}

/// Rows of an open cluster's member panel (inside the border, under its header lines).
pub fn member_rows(size: (u16, u16)) -> usize {
    (open_cluster_layout(size).top.height.saturating_sub(4) as usize).max(1)
}

/// The pair an edge row opens in the viewer: its Jaccard, the MinHash estimate and the bands
/// it hits under `banding`.
pub fn edge_pair(data: &Loaded, e: Edge, banding: Banding) -> VerifiedPair {
    let (a, b) = (e.a.min(e.b), e.a.max(e.b));
    let signatures = &data.index.signatures;
    VerifiedPair {
        a,
        b,
        bands_hit: banding
            .agreeing_bands(signatures, a as usize, b as usize)
            .iter()
            .filter(|&&hit| hit)
            .count() as u32,
        jaccard: e.jaccard,
        estimate: signatures.estimate(a as usize, b as usize),
    }
}
