//! Clusters straight from a banding's buckets, without enumerating its candidate pairs.
//!
//! A bucket of m documents stands for m(m−1)/2 candidate pairs, and template families make
//! buckets of thousands. Clusters do not need every pair: a pair whose two documents are
//! already in one component cannot change the components. So buckets are joined band by band
//! against a snapshot of the components found so far, and inside a bucket a document is only
//! compared with documents of *other* components, stopping at the first that reaches the
//! threshold. A family that is one component after the first band costs O(m) Jaccards there
//! and none in the other bands.
//!
//! The weakest link (the bottleneck of a cluster's maximum spanning forest) cannot be read
//! off the pairs computed this way, since skipped pairs may be stronger than the ones that
//! joined. It is computed exactly, by Kruskal's algorithm over every candidate pair of the
//! cluster, for clusters of up to [`AuditLimits::exact_members`] distinct sets (the same
//! bound as the audit's exact farthest pair, and from the same Jaccards); above it, it is the
//! weakest edge of the strongest forest over the pairs that joined the cluster: a lower bound
//! (the cluster holds together at that Jaccard at least).

use std::collections::HashMap;

use rayon::prelude::*;

use super::clusters::{AuditLimits, ChainAudit, Clusters, Edge, KeepRule, UnionFind, audit};
use crate::jobs::Progress;
use crate::minhash::similarity::jaccard;
use crate::minhash::{BucketLists, IdenticalGroups, ShingleSets};
use crate::{Error, Result};

/// Components found from buckets, with the edges that joined them.
#[derive(Debug, Clone)]
pub struct Joined {
    /// The pairs that joined two components (a spanning forest of the components, each with
    /// its Jaccard), identical copies not included.
    pub edges: Vec<Edge>,
    /// Exact Jaccards computed.
    pub jaccards: u64,
}

/// True when `a` and `b` can reach `threshold`: Jaccard is at most the ratio of the smaller
/// set's size to the larger's, so sizes alone rule many pairs out.
fn may_reach(a: &[u64], b: &[u64], threshold: f64) -> bool {
    let (small, large) = (a.len().min(b.len()), a.len().max(b.len()));
    large == 0 || small as f64 >= threshold * large as f64
}

/// The components of the candidate pairs with exact Jaccard ≥ `threshold`, among the
/// documents of `buckets` (identical copies are joined by the caller).
///
/// Band by band: a snapshot of the components so far labels every document; each bucket
/// (in parallel) starts from its members grouped by label and merges two groups when a
/// member of one reaches the threshold with a member of the other. The pairs that merged
/// are joined into the global components after the band. Every pair at or above the
/// threshold ends in one component, and only such pairs join, so the components are exactly
/// those of the verified candidates.
pub fn verified_components(
    documents: usize,
    buckets: &BucketLists,
    sets: &ShingleSets,
    threshold: f64,
    progress: &Progress,
) -> Result<Joined> {
    let mut components = UnionFind::new(documents);
    let mut joined = Joined {
        edges: Vec::new(),
        jaccards: 0,
    };
    for (number, band) in buckets.bands.iter().enumerate() {
        progress.check()?;
        let labels: Vec<u32> = (0..documents as u32).map(|d| components.find(d)).collect();
        let (edges, jaccards) = (0..band.len())
            .into_par_iter()
            .fold(
                || (Vec::new(), 0u64),
                |(mut edges, mut jaccards), k| {
                    let earlier = |a: u32, b: u32| buckets.collide_before(a, b, number);
                    jaccards += join_bucket(
                        band.bucket(k),
                        &labels,
                        sets,
                        threshold,
                        earlier,
                        &mut edges,
                    );
                    (edges, jaccards)
                },
            )
            .reduce(
                || (Vec::new(), 0u64),
                |(mut a, x), (b, y)| {
                    a.extend(b);
                    (a, x + y)
                },
            );
        joined.jaccards += jaccards;
        progress.advance(jaccards);
        for e in edges {
            // Two buckets of one band may join the same components: keep one edge.
            if components.union(e.a, e.b).is_some() {
                joined.edges.push(e);
            }
        }
    }
    Ok(joined)
}

/// Joins the members of one bucket whose Jaccard reaches `threshold`, starting from groups of
/// equal `labels`; pushes the pairs that merged two groups and returns the Jaccards computed.
///
/// A pair that `collided_before` (shared a bucket in an earlier band) is never compared again:
/// after that band it was either compared and found below the threshold, or its documents
/// were already in one component.
fn join_bucket(
    members: &[u32],
    labels: &[u32],
    sets: &ShingleSets,
    threshold: f64,
    collided_before: impl Fn(u32, u32) -> bool,
    edges: &mut Vec<Edge>,
) -> u64 {
    let first = labels[members[0] as usize];
    if members.iter().all(|&d| labels[d as usize] == first) {
        return 0;
    }
    let mut class_of_label: HashMap<u32, u32> = HashMap::new();
    // Local union-find over classes; a root class holds its processed members.
    let mut parent: Vec<u32> = Vec::new();
    let mut processed: Vec<Vec<u32>> = Vec::new();
    // Root classes with processed members, and whether each class is listed there.
    let mut active: Vec<u32> = Vec::new();
    let mut listed: Vec<bool> = Vec::new();
    let mut jaccards = 0u64;
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let grand = parent[parent[x as usize] as usize];
            parent[x as usize] = grand;
            x = grand;
        }
        x
    }
    for &i in members {
        let class = *class_of_label.entry(labels[i as usize]).or_insert_with(|| {
            parent.push(parent.len() as u32);
            processed.push(Vec::new());
            listed.push(false);
            parent.len() as u32 - 1
        });
        let mine = root(&mut parent, class);
        let set_i = sets.get(i as usize);
        let mut k = 0;
        while k < active.len() {
            let other = active[k];
            if other == mine {
                k += 1;
                continue;
            }
            let mut hit = None;
            for &j in &processed[other as usize] {
                let set_j = sets.get(j as usize);
                if !may_reach(set_i, set_j, threshold) || collided_before(i, j) {
                    continue;
                }
                jaccards += 1;
                let value = jaccard(set_i, set_j);
                if value >= threshold {
                    hit = Some((j, value));
                    break;
                }
            }
            match hit {
                Some((j, value)) => {
                    edges.push(Edge {
                        a: i.min(j),
                        b: i.max(j),
                        jaccard: value,
                    });
                    parent[other as usize] = mine;
                    let mut moved = std::mem::take(&mut processed[other as usize]);
                    if moved.len() > processed[mine as usize].len() {
                        std::mem::swap(&mut moved, &mut processed[mine as usize]);
                    }
                    processed[mine as usize].extend(moved);
                    listed[other as usize] = false;
                    active.swap_remove(k);
                }
                None => k += 1,
            }
        }
        if !listed[mine as usize] {
            listed[mine as usize] = true;
            active.push(mine);
        }
        processed[mine as usize].push(i);
    }
    jaccards
}

/// The components of every candidate pair (`--unverified`): each bucket's members join its
/// first member, O(bucket) per band and no Jaccard. The joining edges come with their
/// Jaccard (one per document at most), for the weakest-link bound of large clusters.
pub fn unverified_components(
    documents: usize,
    buckets: &BucketLists,
    sets: &ShingleSets,
    progress: &Progress,
) -> Result<Joined> {
    let mut components = UnionFind::new(documents);
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for band in &buckets.bands {
        progress.check()?;
        for bucket in band.iter() {
            for &d in &bucket[1..] {
                if components.union(bucket[0], d).is_some() {
                    pairs.push((bucket[0], d));
                }
            }
        }
    }
    let edges: Vec<Edge> = pairs
        .par_iter()
        .map(|&(a, b)| Edge {
            a,
            b,
            jaccard: jaccard(sets.get(a as usize), sets.get(b as usize)),
        })
        .collect();
    progress.advance(edges.len() as u64);
    Ok(Joined {
        jaccards: edges.len() as u64,
        edges,
    })
}

/// Clusters from components found by [`verified_components`] or [`unverified_components`],
/// with their weakest links and audits.
#[derive(Debug, Clone)]
pub struct Audited {
    /// The clusters, in the order [`Clusters`] numbers them.
    pub clusters: Clusters,
    /// One audit per cluster, `audits[c]` for cluster `c`.
    pub audits: Vec<ChainAudit>,
    /// Jaccards computed for the weakest links and the audits.
    pub jaccards: u64,
}

/// Which candidate pairs join: those at or above `threshold` (the verified components), or
/// every one (`None`, the unverified components).
#[allow(clippy::too_many_arguments)]
pub fn audited_clusters(
    documents: usize,
    joined: &Joined,
    buckets: &BucketLists,
    identical: Option<&IdenticalGroups>,
    sets: &ShingleSets,
    joining_threshold: Option<f64>,
    audit_threshold: f64,
    keep: KeepRule,
    limits: AuditLimits,
    length: impl Fn(u32) -> usize + Sync,
    progress: &Progress,
) -> Result<Audited> {
    // The joining edges span the components, so these are the final clusters' members.
    let spanning = Clusters::build(documents, &joined.edges, identical, KeepRule::First, |_| 0);
    progress.check()?;
    let mut by_cluster: Vec<Vec<Edge>> = vec![Vec::new(); spanning.len()];
    for e in &joined.edges {
        let c = spanning
            .cluster_of(e.a)
            .expect("a joining edge is inside a cluster");
        by_cluster[c].push(*e);
    }
    let threshold = joining_threshold.unwrap_or(f64::NEG_INFINITY);
    // Per cluster: its forest, and for exactly audited clusters the lowest pair and the
    // pairs compared.
    type Forest = (Vec<Edge>, Option<(Edge, u64)>);
    let per_cluster: Vec<Forest> = (0..spanning.len())
        .into_par_iter()
        .map(|c| {
            if progress.is_cancelled() {
                return (Vec::new(), None);
            }
            let members = spanning.members(c);
            let distinct: Vec<u32> = match identical {
                Some(g) => members
                    .iter()
                    .copied()
                    .filter(|&d| g.is_representative(d))
                    .collect(),
                None => members.to_vec(),
            };
            let mut edges: Vec<Edge> = Vec::new();
            if let Some(g) = identical {
                for &d in members {
                    let r = g.representative(d);
                    if r != d {
                        edges.push(Edge {
                            a: r,
                            b: d,
                            jaccard: 1.0,
                        });
                    }
                }
            }
            let mut farthest = None;
            if distinct.len() <= limits.exact_members {
                // Every pair of distinct sets: the audit's farthest pair, and the candidates
                // among them for an exact maximum spanning forest.
                let mut lowest = Edge {
                    a: members[0],
                    b: members[1],
                    jaccard: 1.0,
                };
                let mut compared = 0u64;
                for (i, &a) in distinct.iter().enumerate() {
                    for &b in &distinct[i + 1..] {
                        compared += 1;
                        let value = jaccard(sets.get(a as usize), sets.get(b as usize));
                        if value < lowest.jaccard
                            || (value == lowest.jaccard && (a, b) < (lowest.a, lowest.b))
                        {
                            lowest = Edge {
                                a,
                                b,
                                jaccard: value,
                            };
                        }
                        if value >= threshold && buckets.bands_hit(a, b) > 0 {
                            edges.push(Edge {
                                a,
                                b,
                                jaccard: value,
                            });
                        }
                    }
                }
                farthest = Some((lowest, compared));
            } else {
                edges.extend_from_slice(&by_cluster[c]);
            }
            (strongest_forest(members, edges), farthest)
        })
        .collect();
    progress.check()?;
    let forest: Vec<Edge> = per_cluster
        .iter()
        .flat_map(|(edges, _)| edges.iter().copied())
        .collect();
    let clusters = Clusters::build(documents, &forest, None, keep, length);
    if clusters.len() != spanning.len() {
        return Err(Error::Internal(format!(
            "clusters from spanning forests ({}) differ from the components ({})",
            clusters.len(),
            spanning.len()
        )));
    }
    let mut jaccards = 0;
    let audits: Vec<ChainAudit> = per_cluster
        .par_iter()
        .enumerate()
        .map(|(c, (_, farthest))| match *farthest {
            Some((lowest, compared)) => {
                let weakest_link = clusters.weakest_link(c);
                let farthest_pair = if weakest_link.jaccard < lowest.jaccard {
                    weakest_link
                } else {
                    lowest
                };
                ChainAudit {
                    size: clusters.members(c).len(),
                    weakest_link,
                    farthest_pair,
                    exact: true,
                    pairs_compared: compared,
                    chained: farthest_pair.jaccard < audit_threshold,
                }
            }
            None => audit(&clusters, c, sets, identical, audit_threshold, limits),
        })
        .collect();
    jaccards += audits.iter().map(|a| a.pairs_compared).sum::<u64>();
    Ok(Audited {
        clusters,
        audits,
        jaccards,
    })
}

/// The maximum spanning forest of `edges` over `members` (sorted), by Kruskal's algorithm in
/// the order `Clusters::build` uses (descending Jaccard, ties by position), so the forest is
/// the one it would find over the same edges.
fn strongest_forest(members: &[u32], mut edges: Vec<Edge>) -> Vec<Edge> {
    edges.sort_unstable_by(|x, y| {
        y.jaccard
            .total_cmp(&x.jaccard)
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    let position = |d: u32| {
        members
            .binary_search(&d)
            .expect("an edge inside the cluster") as u32
    };
    let mut sets = UnionFind::new(members.len());
    edges
        .into_iter()
        .filter(|e| sets.union(position(e.a), position(e.b)).is_some())
        .collect()
}
