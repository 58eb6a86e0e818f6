//! The dedup result: clusters of near-duplicates and the audit of how each one holds together.
//!
//! What deduplication pipelines finally do (datatrove, NeMo Curator, text-dedup, Spark jobs) is
//! join candidate pairs into connected components and keep one document per component. Near
//! duplication is not transitive, so a chain A≈B≈C joins A and C even when they share little;
//! the audit says, per cluster, how weak its weakest link is and how far apart its members
//! can be.
//!
//! Components come from Kruskal's algorithm over the edges by descending Jaccard, so the edges
//! that join a cluster form its maximum spanning forest, and the weakest of them is the
//! bottleneck: the highest threshold at which the cluster would still be one piece.

use rayon::prelude::*;

use crate::minhash::similarity::jaccard;
use crate::minhash::{IdenticalGroups, ShingleSets};
use crate::util::rng::SplitMix64;

/// Which document of a cluster is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeepRule {
    /// The first in input order.
    First,
    /// The longest text (the first of equal lengths).
    Longest,
    /// The highest value of a numeric column of the input (`--keep-by`; the first of equal
    /// values). The engine sees it as the key function's value, as it sees lengths for
    /// [`KeepRule::Longest`].
    Highest,
}

/// Keys for [`KeepRule::Highest`] from one score per document: equal scores get equal keys,
/// a higher score a higher key (the rank among the distinct scores, which fits `usize`).
/// Scores must be finite.
pub fn score_keys(scores: &[f64]) -> Vec<usize> {
    // −0 and 0 are one score.
    let scores: Vec<f64> = scores
        .iter()
        .map(|&s| if s == 0.0 { 0.0 } else { s })
        .collect();
    let mut distinct: Vec<f64> = scores.clone();
    distinct.sort_unstable_by(f64::total_cmp);
    distinct.dedup();
    scores
        .iter()
        .map(|s| {
            distinct
                .binary_search_by(|x| x.total_cmp(s))
                .expect("every score is among the distinct scores")
        })
        .collect()
}

/// Documents in the order a keep rule prefers them: `First` is input order; `Longest` and
/// `Highest` are by descending `key(doc)`, ties in input order. A cluster built by
/// [`Clusters::build`] keeps its member that comes first here, and center clustering
/// (`crate::analysis::center`) takes documents in this order.
pub fn keep_order(documents: usize, keep: KeepRule, key: impl Fn(u32) -> usize + Sync) -> Vec<u32> {
    let mut order: Vec<u32> = (0..documents as u32).collect();
    if keep != KeepRule::First {
        // A stable sort keeps input order among equal keys.
        order.par_sort_by_key(|&d| std::cmp::Reverse(key(d)));
    }
    order
}

/// A pair that joins two documents in a cluster.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Edge {
    /// Input position of one document, 0-based.
    pub a: u32,
    /// Input position of the other document.
    pub b: u32,
    /// Exact Jaccard of the two shingle sets, in [0, 1] (1.0 for identical copies collapsed
    /// before banding).
    pub jaccard: f64,
}

/// Union-find over document positions with path halving and union by size.
#[derive(Debug, Clone)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singleton sets, one per document position `0..n`.
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    /// The representative of `x`'s set; halves the path it walks, so later finds are shorter.
    /// Panics when `x` is not below the `n` given to [`UnionFind::new`].
    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Joins the sets of `a` and `b`; the root of the joined set, or `None` when they were
    /// already one set.
    pub fn union(&mut self, a: u32, b: u32) -> Option<u32> {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return None;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb as usize] = ra;
        self.size[ra as usize] += self.size[rb as usize];
        Some(ra)
    }
}

/// Documents grouped into clusters of two or more, each with its kept document.
#[derive(Debug, Clone, PartialEq)]
pub struct Clusters {
    /// For each document its cluster number, or [`Clusters::NONE`].
    cluster_of: Vec<u32>,
    /// Members of cluster c in input order: `members[offsets[c]..offsets[c + 1]]`.
    offsets: Vec<u32>,
    members: Vec<u32>,
    /// The kept document of each cluster.
    kept: Vec<u32>,
    /// The weakest edge of each cluster's maximum spanning forest.
    weakest: Vec<Edge>,
    /// The edges of each cluster's maximum spanning tree, strongest first (Kruskal's order):
    /// a cluster of n members has n − 1, so cluster c's are
    /// `tree[offsets[c] − c..offsets[c + 1] − c − 1]`.
    tree: Vec<Edge>,
}

impl Clusters {
    /// The cluster number of a document in no cluster.
    pub const NONE: u32 = u32::MAX;

    /// Connected components of `edges` over `documents` documents, with identical copies (if
    /// given) joined to their representative at Jaccard 1. Clusters are numbered in the input
    /// order of their first member, members listed in input order, so the result does not
    /// depend on the order of `edges`. `length(doc)` is only called for [`KeepRule::Longest`].
    pub fn build(
        documents: usize,
        edges: &[Edge],
        identical: Option<&IdenticalGroups>,
        keep: KeepRule,
        length: impl Fn(u32) -> usize,
    ) -> Self {
        let mut order: Vec<Edge> = Vec::with_capacity(edges.len());
        if let Some(groups) = identical {
            for group in groups.groups() {
                order.extend(group[1..].iter().map(|&d| Edge {
                    a: group[0],
                    b: d,
                    jaccard: 1.0,
                }));
            }
        }
        order.extend_from_slice(edges);
        // Descending Jaccard, ties by position: Kruskal's order for a maximum spanning forest,
        // and deterministic.
        order.par_sort_unstable_by(|x, y| {
            y.jaccard
                .total_cmp(&x.jaccard)
                .then((x.a, x.b).cmp(&(y.a, y.b)))
        });
        let mut sets = UnionFind::new(documents);
        // The weakest joining edge so far of each root: edges come strongest first, so the
        // edge that joins two sets is the weakest of the joined set.
        let mut weakest_at_root: Vec<Option<Edge>> = vec![None; documents];
        let mut joining: Vec<Edge> = Vec::new();
        for e in &order {
            if let Some(root) = sets.union(e.a, e.b) {
                weakest_at_root[root as usize] = Some(*e);
                joining.push(*e);
            }
        }
        drop(order);
        let mut cluster_of = vec![Self::NONE; documents];
        let mut root_cluster = vec![Self::NONE; documents];
        let mut sizes: Vec<u32> = Vec::new();
        let mut weakest = Vec::new();
        for d in 0..documents as u32 {
            let root = sets.find(d);
            if sets.size[root as usize] < 2 {
                continue;
            }
            if root_cluster[root as usize] == Self::NONE {
                root_cluster[root as usize] = sizes.len() as u32;
                sizes.push(0);
                weakest.push(weakest_at_root[root as usize].expect("a joined set has an edge"));
            }
            let c = root_cluster[root as usize];
            cluster_of[d as usize] = c;
            sizes[c as usize] += 1;
        }
        let mut offsets = Vec::with_capacity(sizes.len() + 1);
        offsets.push(0u32);
        for s in &sizes {
            offsets.push(offsets.last().unwrap() + s);
        }
        let mut fill = offsets[..sizes.len()].to_vec();
        let mut members = vec![0u32; *offsets.last().unwrap() as usize];
        for (d, &c) in cluster_of.iter().enumerate() {
            if c != Self::NONE {
                members[fill[c as usize] as usize] = d as u32;
                fill[c as usize] += 1;
            }
        }
        // Each joining edge goes to its cluster's slice of the tree, in Kruskal's order.
        let mut tree_fill: Vec<u32> = (0..sizes.len() as u32)
            .map(|c| offsets[c as usize] - c)
            .collect();
        let mut tree = vec![
            Edge {
                a: 0,
                b: 0,
                jaccard: 0.0
            };
            joining.len()
        ];
        for e in joining {
            let c = cluster_of[e.a as usize] as usize;
            tree[tree_fill[c] as usize] = e;
            tree_fill[c] += 1;
        }
        let kept = offsets
            .windows(2)
            .map(|w| {
                let m = &members[w[0] as usize..w[1] as usize];
                match keep {
                    KeepRule::First => m[0],
                    // max_by_key keeps the last maximum; reversing makes it the first.
                    KeepRule::Longest | KeepRule::Highest => {
                        *m.iter().rev().max_by_key(|&&d| length(d)).unwrap()
                    }
                }
            })
            .collect();
        Clusters {
            cluster_of,
            offsets,
            members,
            kept,
            weakest,
            tree,
        }
    }

    /// The edges of cluster `c`'s maximum spanning tree, strongest first: the pairs (and
    /// identical copies, at Jaccard 1) through which its members joined, one fewer than its
    /// members. The last is [`Clusters::weakest_link`].
    pub fn spanning_edges(&self, c: usize) -> &[Edge] {
        let start = self.offsets[c] as usize - c;
        let end = self.offsets[c + 1] as usize - c - 1;
        &self.tree[start..end]
    }

    /// Number of clusters (of two or more documents).
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// True when no two documents were joined.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// The cluster of `doc`, or `None` when it has no near-duplicate.
    pub fn cluster_of(&self, doc: u32) -> Option<usize> {
        match self.cluster_of[doc as usize] {
            Self::NONE => None,
            c => Some(c as usize),
        }
    }

    /// Members of cluster `c` in input order.
    pub fn members(&self, c: usize) -> &[u32] {
        &self.members[self.offsets[c] as usize..self.offsets[c + 1] as usize]
    }

    /// The document cluster `c` keeps.
    pub fn kept(&self, c: usize) -> u32 {
        self.kept[c]
    }

    /// Makes `doc` the kept document of cluster `c`, as a result imported from another tool
    /// names it; `false` (nothing changes) when `doc` is not a member of `c`.
    pub fn set_kept(&mut self, c: usize, doc: u32) -> bool {
        let member = self.members(c).binary_search(&doc).is_ok();
        if member {
            self.kept[c] = doc;
        }
        member
    }

    /// The weakest edge of cluster `c`'s maximum spanning forest: the highest Jaccard at which
    /// the cluster still holds together.
    pub fn weakest_link(&self, c: usize) -> Edge {
        self.weakest[c]
    }

    /// True when `doc` is in a cluster and not its kept document.
    pub fn is_removed(&self, doc: u32) -> bool {
        self.cluster_of(doc).is_some_and(|c| self.kept[c] != doc)
    }

    /// Documents in clusters, and documents removed (all members but the kept ones).
    pub fn clustered_documents(&self) -> usize {
        self.members.len()
    }

    /// Documents a dedup drops: every cluster member except the one each cluster keeps.
    pub fn removed_documents(&self) -> usize {
        self.members.len() - self.kept.len()
    }

    /// Documents removed here that `other` keeps or leaves alone: with `self` built from every
    /// candidate and `other` from the verified pairs only, the removals owed to pairs below
    /// the threshold.
    pub fn removed_beyond(&self, other: &Clusters) -> usize {
        (0..self.cluster_of.len() as u32)
            .filter(|&d| self.is_removed(d) && !other.is_removed(d))
            .count()
    }

    /// Cluster sizes in bins of powers of two: `(lo, hi, clusters)` for sizes lo..=hi.
    pub fn size_distribution(&self) -> Vec<(usize, usize, usize)> {
        let mut bins: Vec<(usize, usize, usize)> = Vec::new();
        for c in 0..self.len() {
            let size = self.members(c).len();
            // Bins 2, 3–4, 5–8, 9–16, …
            let bin = (usize::BITS - (size - 1).leading_zeros()) as usize - 1;
            while bins.len() <= bin {
                let k = bins.len();
                let lo = if k == 0 { 2 } else { (1 << k) + 1 };
                bins.push((lo, 1 << (k + 1), 0));
            }
            bins[bin].2 += 1;
        }
        bins
    }
}

/// Limits of the chaining audit's search for a cluster's farthest pair.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AuditLimits {
    /// Up to this many distinct member sets, every pair is compared (n(n−1)/2 Jaccards).
    pub exact_members: usize,
    /// Above it, this many pairs drawn at random (seeded) are compared.
    pub sampled_pairs: usize,
    /// Seed of the pair sample, so an audit is reproducible.
    pub seed: u64,
}

impl Default for AuditLimits {
    fn default() -> Self {
        // 400 distinct sets are 79,800 pairs, a few milliseconds; a sample of 20,000 pairs
        // costs a quarter of that on any cluster size.
        AuditLimits {
            exact_members: 400,
            sampled_pairs: 20_000,
            seed: 1,
        }
    }
}

/// How one cluster holds together.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ChainAudit {
    /// Number of documents in the cluster.
    pub size: usize,
    /// The weakest edge of the maximum spanning forest.
    pub weakest_link: Edge,
    /// The lowest Jaccard found between two members.
    pub farthest_pair: Edge,
    /// True when every pair of distinct member sets was compared; false when
    /// `pairs_compared` of them were sampled (the true lowest may be lower still).
    pub exact: bool,
    /// Pairs of members whose Jaccard was computed for [`ChainAudit::farthest_pair`].
    pub pairs_compared: u64,
    /// Some members are less similar than the threshold to each other: the cluster is a chain.
    pub chained: bool,
}

/// Audits cluster `c`: its weakest link and its farthest pair, compared over the distinct
/// shingle sets of its members (identical copies add nothing to the lowest Jaccard).
pub fn audit(
    clusters: &Clusters,
    c: usize,
    sets: &ShingleSets,
    identical: Option<&IdenticalGroups>,
    threshold: f64,
    limits: AuditLimits,
) -> ChainAudit {
    let members = clusters.members(c);
    let distinct: Vec<u32> = match identical {
        Some(g) => members
            .iter()
            .copied()
            .filter(|&d| g.is_representative(d))
            .collect(),
        None => members.to_vec(),
    };
    let weakest_link = clusters.weakest_link(c);
    let mut farthest = Edge {
        a: members[0],
        b: members[1],
        jaccard: 1.0,
    };
    let mut consider = |a: u32, b: u32, compared: &mut u64| {
        *compared += 1;
        let j = jaccard(sets.get(a as usize), sets.get(b as usize));
        let (a, b) = (a.min(b), a.max(b));
        if j < farthest.jaccard || (j == farthest.jaccard && (a, b) < (farthest.a, farthest.b)) {
            farthest = Edge { a, b, jaccard: j };
        }
    };
    let mut compared = 0u64;
    let exact = distinct.len() <= limits.exact_members;
    if exact {
        for (i, &a) in distinct.iter().enumerate() {
            for &b in &distinct[i + 1..] {
                consider(a, b, &mut compared);
            }
        }
    } else {
        let mut rng = SplitMix64::new(limits.seed ^ c as u64);
        let n = distinct.len() as u64;
        for _ in 0..limits.sampled_pairs {
            let i = rng.below(n);
            let j = (i + 1 + rng.below(n - 1)) % n;
            consider(distinct[i as usize], distinct[j as usize], &mut compared);
        }
    }
    // The weakest link is a pair of members too, and may be lower than what sampling found.
    if weakest_link.jaccard < farthest.jaccard {
        farthest = weakest_link;
    }
    ChainAudit {
        size: members.len(),
        weakest_link,
        farthest_pair: farthest,
        exact,
        pairs_compared: compared,
        chained: farthest.jaccard < threshold,
    }
}

/// [`audit`] of every cluster, in parallel.
pub fn audit_all(
    clusters: &Clusters,
    sets: &ShingleSets,
    identical: Option<&IdenticalGroups>,
    threshold: f64,
    limits: AuditLimits,
) -> Vec<ChainAudit> {
    (0..clusters.len())
        .into_par_iter()
        .map(|c| audit(clusters, c, sets, identical, threshold, limits))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(a: u32, b: u32, jaccard: f64) -> Edge {
        Edge { a, b, jaccard }
    }

    /// Components by breadth-first search, as sorted member lists.
    fn components_by_search(n: usize, edges: &[Edge]) -> Vec<Vec<u32>> {
        let mut next = vec![Vec::new(); n];
        for x in edges {
            next[x.a as usize].push(x.b);
            next[x.b as usize].push(x.a);
        }
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for s in 0..n {
            if seen[s] || next[s].is_empty() {
                continue;
            }
            let mut comp = vec![s as u32];
            seen[s] = true;
            let mut k = 0;
            while k < comp.len() {
                for &y in &next[comp[k] as usize] {
                    if !seen[y as usize] {
                        seen[y as usize] = true;
                        comp.push(y);
                    }
                }
                k += 1;
            }
            comp.sort_unstable();
            out.push(comp);
        }
        out
    }

    /// Up to 2n random edges between n documents, Jaccards in hundredths.
    fn random_edges(rng: &mut SplitMix64, n: usize) -> Vec<Edge> {
        let m = rng.below(2 * n as u64) as usize;
        (0..m)
            .filter_map(|_| {
                let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
                (a != b).then(|| e(a.min(b), a.max(b), (rng.below(100) as f64) / 100.0))
            })
            .collect()
    }

    #[test]
    fn components_match_a_graph_search_on_random_graphs() {
        let mut rng = SplitMix64::new(7);
        for round in 0..200 {
            let n = 1 + rng.below(60) as usize;
            let edges = random_edges(&mut rng, n);
            let clusters = Clusters::build(n, &edges, None, KeepRule::First, |_| 0);
            let got: Vec<Vec<u32>> = (0..clusters.len())
                .map(|c| clusters.members(c).to_vec())
                .collect();
            assert_eq!(got, components_by_search(n, &edges), "round {round}");
            // The weakest spanning edge is the bottleneck: removing every edge at or below
            // it splits the cluster, keeping those above it does not.
            for c in 0..clusters.len() {
                let w = clusters.weakest_link(c).jaccard;
                let members = clusters.members(c);
                let inside = |x: &Edge| members.contains(&x.a);
                let above: Vec<Edge> = edges
                    .iter()
                    .filter(|x| inside(x) && x.jaccard > w)
                    .copied()
                    .collect();
                let at_or_above: Vec<Edge> = edges
                    .iter()
                    .filter(|x| inside(x) && x.jaccard >= w)
                    .copied()
                    .collect();
                let whole = |es: &[Edge]| {
                    components_by_search(n, es)
                        .iter()
                        .any(|comp| comp.as_slice() == members)
                };
                assert!(whole(&at_or_above) && !whole(&above), "round {round}");
            }
        }
    }

    #[test]
    fn kept_documents_follow_the_rule_and_removals_count() {
        let edges = [e(1, 4, 0.9), e(4, 6, 0.8), e(2, 3, 0.7)];
        let lengths = [10, 5, 7, 7, 30, 0, 30];
        let first = Clusters::build(7, &edges, None, KeepRule::First, |d| lengths[d as usize]);
        assert_eq!(first.len(), 2);
        assert_eq!((first.members(0), first.kept(0)), (&[1u32, 4, 6][..], 1));
        assert_eq!((first.members(1), first.kept(1)), (&[2u32, 3][..], 2));
        assert_eq!(first.removed_documents(), 3);
        assert!(first.is_removed(4) && !first.is_removed(1) && !first.is_removed(0));
        let longest = Clusters::build(7, &edges, None, KeepRule::Longest, |d| lengths[d as usize]);
        assert_eq!(
            (longest.kept(0), longest.kept(1)),
            (4, 2),
            "ties go to the first"
        );
        assert_eq!(first.size_distribution(), [(2, 2, 1), (3, 4, 1)]);
    }

    #[test]
    fn identical_copies_join_their_representative() {
        // Documents 0, 2, 5 are identical; 1 and 3 are identical; 0–4 is a pair.
        let sets = ShingleSets::from_sets(&[
            vec![1, 2],
            vec![7],
            vec![1, 2],
            vec![7],
            vec![1, 2, 3],
            vec![1, 2],
        ]);
        let groups = IdenticalGroups::find(&sets);
        let collapsed = Clusters::build(
            6,
            &[e(0, 4, 2.0 / 3.0)],
            Some(&groups),
            KeepRule::First,
            |_| 0,
        );
        // Every pair the banding would have emitted without the collapse.
        let all = [
            e(0, 2, 1.0),
            e(0, 5, 1.0),
            e(2, 5, 1.0),
            e(1, 3, 1.0),
            e(0, 4, 2.0 / 3.0),
            e(2, 4, 2.0 / 3.0),
            e(4, 5, 2.0 / 3.0),
        ];
        let full = Clusters::build(6, &all, None, KeepRule::First, |_| 0);
        let members = |c: &Clusters| {
            (0..c.len())
                .map(|k| c.members(k).to_vec())
                .collect::<Vec<_>>()
        };
        assert_eq!(members(&collapsed), members(&full));
        assert_eq!(members(&collapsed), [vec![0, 2, 4, 5], vec![1, 3]]);
        let audit = audit(
            &collapsed,
            0,
            &sets,
            Some(&groups),
            0.8,
            AuditLimits::default(),
        );
        assert!(audit.exact && audit.chained);
        assert_eq!(audit.pairs_compared, 1, "one pair of distinct sets");
        assert_eq!((audit.farthest_pair.a, audit.farthest_pair.b), (0, 4));
    }

    #[test]
    fn a_chain_is_flagged_and_sampling_says_so() {
        // 0 ~ 1 ~ 2 share a middle, but 0 and 2 share almost nothing.
        let sets =
            ShingleSets::from_sets(&[(0..10).collect(), (5..15).collect(), (10..20).collect()]);
        let edges = [e(0, 1, 1.0 / 3.0), e(1, 2, 1.0 / 3.0)];
        let clusters = Clusters::build(3, &edges, None, KeepRule::First, |_| 0);
        let exact = audit(&clusters, 0, &sets, None, 0.3, AuditLimits::default());
        assert!(exact.exact && exact.chained);
        assert_eq!(exact.farthest_pair, e(0, 2, 0.0));
        assert_eq!(exact.pairs_compared, 3);
        let sampled = audit(
            &clusters,
            0,
            &sets,
            None,
            0.3,
            AuditLimits {
                exact_members: 2,
                sampled_pairs: 50,
                seed: 3,
            },
        );
        assert!(!sampled.exact && sampled.chained);
        assert_eq!(sampled.pairs_compared, 50);
        assert_eq!(sampled.farthest_pair.jaccard, 0.0);
    }

    /// Weight of a maximum spanning tree of `members` over `edges` by Prim's algorithm.
    fn prim_weight(members: &[u32], edges: &[Edge]) -> f64 {
        let mut inside = vec![members[0]];
        let mut total = 0.0;
        while inside.len() < members.len() {
            let best = edges
                .iter()
                .filter(|e| inside.contains(&e.a) != inside.contains(&e.b))
                .max_by(|x, y| x.jaccard.total_cmp(&y.jaccard))
                .expect("a cluster is connected");
            total += best.jaccard;
            inside.push(if inside.contains(&best.a) {
                best.b
            } else {
                best.a
            });
        }
        total
    }

    #[test]
    fn spanning_edges_form_a_maximum_spanning_tree_of_each_cluster() {
        let mut rng = SplitMix64::new(11);
        for round in 0..200 {
            let n = 2 + rng.below(40) as usize;
            let edges = random_edges(&mut rng, n);
            let clusters = Clusters::build(n, &edges, None, KeepRule::First, |_| 0);
            for c in 0..clusters.len() {
                let members = clusters.members(c);
                let tree = clusters.spanning_edges(c);
                assert_eq!(tree.len(), members.len() - 1, "round {round}");
                // The tree edges alone join every member: no cycle among n − 1 edges.
                let mut sets = UnionFind::new(n);
                for x in tree {
                    assert!(members.contains(&x.a) && members.contains(&x.b));
                    assert!(sets.union(x.a, x.b).is_some(), "a cycle in round {round}");
                }
                assert_eq!(*tree.last().unwrap(), clusters.weakest_link(c));
                let weight: f64 = tree.iter().map(|x| x.jaccard).sum();
                let best = prim_weight(members, &edges);
                assert!(
                    (weight - best).abs() < 1e-9,
                    "round {round}: {weight} vs {best}"
                );
            }
        }
        // Identical copies join through their representative at Jaccard 1.
        let sets = ShingleSets::from_sets(&[vec![1, 2], vec![1, 2], vec![1, 2, 3]]);
        let groups = IdenticalGroups::find(&sets);
        let clusters = Clusters::build(
            3,
            &[e(0, 2, 2.0 / 3.0)],
            Some(&groups),
            KeepRule::First,
            |_| 0,
        );
        assert_eq!(
            clusters.spanning_edges(0),
            [e(0, 1, 1.0), e(0, 2, 2.0 / 3.0)]
        );
    }

    #[test]
    fn removals_owed_to_pairs_below_the_threshold() {
        let candidates = [e(0, 1, 0.9), e(1, 2, 0.2), e(3, 4, 0.1)];
        let verified: Vec<Edge> = candidates
            .iter()
            .filter(|x| x.jaccard >= 0.5)
            .copied()
            .collect();
        let unverified = Clusters::build(5, &candidates, None, KeepRule::First, |_| 0);
        let kept = Clusters::build(5, &verified, None, KeepRule::First, |_| 0);
        assert_eq!(unverified.removed_documents(), 3);
        assert_eq!(kept.removed_documents(), 1);
        assert_eq!(unverified.removed_beyond(&kept), 2, "documents 2 and 4");
    }
}
