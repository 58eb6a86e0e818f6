//! The dedup result's options and parts: which pairs join clusters, the clusters of a set of
//! verified pairs, and their audits. `Pipeline::dedup` runs the whole sequence.

use std::sync::Arc;

use crate::minhash::{BandingOptions, BucketInfo, IdenticalGroups, ShingleSets, VerifiedPair};

use super::center::Centered;
use super::clusters::{AuditLimits, ChainAudit, Clusters, Edge, KeepRule, audit_all};

/// Which pairs join documents into clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Joining {
    /// Candidates whose exact Jaccard reaches the threshold (text-dedup with
    /// `check_false_positive`, and what lshscope recommends).
    Verified,
    /// Every candidate, as datatrove and the current NeMo Curator workflow do: each false
    /// positive of the banding removes a document.
    Unverified,
}

/// Which documents of the verified-pair graph are removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Clustering {
    /// Greedy in keep order: a document is removed only when a document already kept is a
    /// verified pair with it, and assigned to the most similar one
    /// ([`crate::analysis::center`]). Every removal is a near-copy of what is kept.
    Center,
    /// Connected components, one document kept per component, as text-dedup, datatrove and
    /// NeMo Curator do: a chain removes documents below the threshold of the kept one.
    Components,
}

/// What a dedup run is asked for: how to band, how to join and cluster the candidates, and
/// which document each cluster keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DedupOptions {
    /// The banding and bucket cap the candidates come from.
    pub banding: BandingOptions,
    /// Exact Jaccard, in [0, 1], at or above which two documents count as near-duplicates.
    pub threshold: f64,
    /// Whether candidates are verified against the threshold before they join clusters.
    pub joining: Joining,
    /// Which clusters the result's [`Dedup::chosen`] gives. Center clustering needs verified
    /// joining; with [`Joining::Unverified`] only the components exist.
    pub clustering: Clustering,
    /// Which member of each cluster is kept.
    pub keep: KeepRule,
    /// Group identical shingle sets before banding (the clusters are the same either way;
    /// without it a template copied m times costs m(m−1)/2 pairs).
    pub collapse_identical: bool,
    /// Bounds of the chaining audit run on every cluster.
    pub audit: AuditLimits,
}

/// The outcome of `Pipeline::dedup`.
#[derive(Debug, Clone)]
pub struct Dedup {
    /// Identical-set groups, when collapsed.
    pub identical: Option<Arc<IdenticalGroups>>,
    /// Candidate pairs the banding's buckets stand for among the representatives, counted
    /// with multiplicity over bands (never enumerated: clusters are joined from the buckets).
    pub bucket_pairs: u64,
    /// The largest buckets over all bands, largest first (at most 10).
    pub largest_buckets: Vec<BucketInfo>,
    /// Buckets larger than `--max-bucket`, whose members past the cap form no pairs.
    pub capped_buckets: usize,
    /// Bucket pairs the cap leaves out (with multiplicity over bands).
    pub pairs_dropped_by_cap: u64,
    /// Exact Jaccards computed: joining the components, their weakest links and audits, the
    /// center pass, and each removed document against its component's kept one.
    pub jaccards_computed: u64,
    /// Of those, the ones that joined the components (stopping, in a bucket, at the first
    /// member of another component that reaches the threshold).
    pub joining_jaccards: u64,
    /// Which of `center` and `clusters` the result stands for.
    pub clustering: Clustering,
    /// The connected components (of the verified pairs, or of every candidate with
    /// [`Joining::Unverified`]), each keeping one document by the keep rule.
    pub clusters: Clusters,
    /// One audit per component.
    pub audits: Vec<ChainAudit>,
    /// Per document, its Jaccard with the kept document of its component (1 for the kept
    /// one, NaN outside components).
    pub components_to_kept: Vec<f64>,
    /// Documents the components remove although their Jaccard with their component's kept
    /// document is below the threshold: removals no pair justifies.
    pub components_removed_below_threshold: usize,
    /// Center clustering of the verified pairs (`None` with [`Joining::Unverified`]).
    pub center: Option<Centered>,
    /// With [`Joining::Unverified`]: documents removed only through pairs below the threshold
    /// (verified joining would keep them).
    pub removed_below_threshold: Option<usize>,
}

impl Dedup {
    /// The clusters of the chosen method: the centers' stars, or the components.
    pub fn chosen(&self) -> &Clusters {
        match (&self.center, self.clustering) {
            (Some(center), Clustering::Center) => &center.clusters,
            _ => &self.clusters,
        }
    }

    /// Per document of [`Dedup::chosen`], its Jaccard with the kept document of its cluster
    /// (1 for the kept one, NaN outside clusters).
    pub fn chosen_to_kept(&self) -> &[f64] {
        match (&self.center, self.clustering) {
            (Some(center), Clustering::Center) => &center.to_kept,
            _ => &self.components_to_kept,
        }
    }
}

/// Clusters of `pairs` (every candidate with its Jaccard, among the representatives of
/// `identical`) under `options`, with, for [`Joining::Unverified`], the removals owed to pairs
/// below the threshold. `length(doc)` serves [`KeepRule::Longest`].
pub fn cluster_pairs(
    documents: usize,
    pairs: &[VerifiedPair],
    identical: Option<&IdenticalGroups>,
    options: &DedupOptions,
    length: impl Fn(u32) -> usize + Copy,
) -> (Clusters, Option<usize>) {
    let edges_at = |threshold: f64| -> Vec<Edge> {
        pairs
            .iter()
            .filter(|p| p.jaccard >= threshold)
            .map(|p| Edge {
                a: p.a,
                b: p.b,
                jaccard: p.jaccard,
            })
            .collect()
    };
    let verified = Clusters::build(
        documents,
        &edges_at(options.threshold),
        identical,
        options.keep,
        length,
    );
    match options.joining {
        Joining::Verified => (verified, None),
        Joining::Unverified => {
            let all = Clusters::build(documents, &edges_at(0.0), identical, options.keep, length);
            let below = all.removed_beyond(&verified);
            (all, Some(below))
        }
    }
}

/// The audits of every cluster at the options' threshold.
pub fn audit_clusters(
    clusters: &Clusters,
    sets: &ShingleSets,
    identical: Option<&IdenticalGroups>,
    options: &DedupOptions,
) -> Vec<ChainAudit> {
    audit_all(clusters, sets, identical, options.threshold, options.audit)
}
