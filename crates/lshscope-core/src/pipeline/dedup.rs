//! The dedup sequence: identical copies grouped, banding over their representatives,
//! verification, clusters and the chaining audit, each a timed phase.

use std::sync::Arc;

use crate::Result;
use crate::analysis::clusters::Clusters;
use crate::analysis::components::{audited_clusters, unverified_components, verified_components};
use crate::analysis::dedup::{Dedup, DedupOptions, Joining};
use crate::jobs::Phase;
use crate::minhash::{IdenticalGroups, Index, bucket_lists};

use super::Pipeline;

impl Pipeline<'_> {
    /// Deduplicates an indexed corpus. `length(doc)` serves `KeepRule::Longest`.
    ///
    /// Memory and time follow documents and bands, not candidate pairs: the banding is kept
    /// as buckets, and clusters are joined from them with a Jaccard computed only where two
    /// documents are not yet in one component (see [`crate::analysis::components`]).
    pub fn dedup(
        &mut self,
        index: &Index,
        options: &DedupOptions,
        length: impl Fn(u32) -> usize + Copy + Sync,
    ) -> Result<Dedup> {
        self.dedup_grouped(index, options, None, length)
    }

    /// [`Self::dedup`] with the identical groups of `index` already found (`groups`; they
    /// depend on the corpus only), so a caller that dedups one corpus again and again (the
    /// explorer's clusters view) finds them once. Found here when `None`.
    pub fn dedup_grouped(
        &mut self,
        index: &Index,
        options: &DedupOptions,
        groups: Option<Arc<IdenticalGroups>>,
        length: impl Fn(u32) -> usize + Copy + Sync,
    ) -> Result<Dedup> {
        let n = index.len();
        let identical = match (options.collapse_identical, groups) {
            (false, _) => None,
            (true, Some(groups)) => Some(groups),
            (true, None) => Some(self.timed(Phase::Collapsing, "docs", |_| {
                Ok((Arc::new(IdenticalGroups::find(&index.sets)), n as u64))
            })?),
        };
        let included: Option<Vec<bool>> = identical
            .as_ref()
            .map(|g| (0..n as u32).map(|d| g.is_representative(d)).collect());
        let buckets = self.timed(Phase::Banding, "bucket pairs", |progress| {
            let buckets = bucket_lists(
                &index.signatures,
                &options.banding,
                included.as_deref(),
                progress,
            )?;
            let bucket_pairs = buckets.bucket_pairs;
            Ok((buckets, bucket_pairs))
        })?;
        drop(included);
        // The verified components are needed either way: with --unverified they tell which
        // removals are owed to pairs below the threshold.
        let (verified, unverified) = self.timed(Phase::Verifying, "pairs", |progress| {
            progress.begin(Phase::Verifying, 0);
            let verified =
                verified_components(n, &buckets, &index.sets, options.threshold, progress)?;
            let unverified = match options.joining {
                Joining::Verified => None,
                Joining::Unverified => {
                    Some(unverified_components(n, &buckets, &index.sets, progress)?)
                }
            };
            let computed = verified.jaccards + unverified.as_ref().map_or(0, |u| u.jaccards);
            Ok(((verified, unverified), computed))
        })?;
        let (audited, removed_below_threshold) =
            self.timed(Phase::Clustering, "docs", |progress| {
                progress.begin(Phase::Clustering, 0);
                let (joined, joining_threshold) = match &unverified {
                    None => (&verified, Some(options.threshold)),
                    Some(all) => (all, None),
                };
                let audited = audited_clusters(
                    n,
                    joined,
                    &buckets,
                    identical.as_deref(),
                    &index.sets,
                    joining_threshold,
                    options.threshold,
                    options.keep,
                    options.audit,
                    length,
                    progress,
                )?;
                let below = unverified.as_ref().map(|_| {
                    let kept = Clusters::build(
                        n,
                        &verified.edges,
                        identical.as_deref(),
                        options.keep,
                        length,
                    );
                    audited.clusters.removed_beyond(&kept)
                });
                Ok(((audited, below), n as u64))
            })?;
        Ok(Dedup {
            identical,
            bucket_pairs: buckets.bucket_pairs,
            largest_buckets: buckets.largest_buckets,
            capped_buckets: buckets.capped_bucket_count,
            pairs_dropped_by_cap: buckets.pairs_dropped_by_cap,
            jaccards_computed: verified.jaccards
                + unverified.as_ref().map_or(0, |u| u.jaccards)
                + audited.jaccards,
            clusters: audited.clusters,
            audits: audited.audits,
            removed_below_threshold,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::clusters::{AuditLimits, Clusters, Edge, KeepRule};
    use crate::analysis::dedup::{Joining, audit_clusters, cluster_pairs};
    use crate::corpus::Corpus;
    use crate::jobs::Progress;
    use crate::minhash::{
        Banding, BandingOptions, IndexOptions, VerifiedPair, build_index, find_candidates_among,
        verify,
    };

    fn dedup(
        index: &Index,
        options: &DedupOptions,
        length: impl Fn(u32) -> usize + Copy + Sync,
        progress: &Progress,
    ) -> Result<Dedup> {
        Pipeline::new(progress).dedup(index, options, length)
    }

    fn corpus(texts: &[String]) -> Corpus {
        let mut c = Corpus::new();
        for (i, t) in texts.iter().enumerate() {
            c.push(&format!("d{i}"), t);
        }
        c
    }

    /// A template family with edits, identical copies of some members, and loners.
    fn family_corpus() -> Vec<String> {
        let base = "the quick brown fox jumps over the lazy dog near the riverbank at noon";
        let mut texts = Vec::new();
        for i in 0..40 {
            let text = match i % 5 {
                0 => base.to_string(),
                1 => base.replace("noon", "dawn"),
                2 => base.replace("lazy", "sleepy"),
                3 => format!("{base} today {i}"),
                _ => format!("an unrelated sentence number {i} about copper kettles and tea"),
            };
            texts.push(text);
        }
        texts.push(String::new());
        texts.push(String::new());
        texts
    }

    fn options(collapse: bool, joining: Joining) -> DedupOptions {
        DedupOptions {
            banding: BandingOptions {
                banding: Banding { bands: 16, rows: 4 },
                max_bucket: None,
            },
            threshold: 0.6,
            joining,
            keep: KeepRule::First,
            collapse_identical: collapse,
            audit: AuditLimits::default(),
        }
    }

    fn members(c: &Clusters) -> Vec<Vec<u32>> {
        (0..c.len()).map(|k| c.members(k).to_vec()).collect()
    }

    #[test]
    fn collapsing_identical_copies_changes_no_cluster() {
        let texts = family_corpus();
        let index =
            build_index(&corpus(&texts), &IndexOptions::default(), &Progress::new()).unwrap();
        let len = |d: u32| texts[d as usize].len();
        for joining in [Joining::Verified, Joining::Unverified] {
            let with = dedup(&index, &options(true, joining), len, &Progress::new()).unwrap();
            let without = dedup(&index, &options(false, joining), len, &Progress::new()).unwrap();
            assert_eq!(members(&with.clusters), members(&without.clusters));
            assert_eq!(
                with.removed_below_threshold,
                without.removed_below_threshold
            );
            assert!(
                with.bucket_pairs < without.bucket_pairs,
                "the collapse saves pairs: {} vs {}",
                with.bucket_pairs,
                without.bucket_pairs
            );
            let copies = with.identical.as_ref().unwrap().copies();
            assert!(copies >= 20, "{copies}");
        }
    }

    #[test]
    fn audits_match_brute_force_on_a_template_corpus() {
        use crate::minhash::similarity::jaccard;
        use crate::synthetic::templated::{TemplateOptions, generate_templated};
        let generated = generate_templated(&TemplateOptions {
            docs: 1_500,
            max_family: 120,
            seed: 3,
            ..TemplateOptions::default()
        });
        let index = build_index(
            &generated.corpus,
            &IndexOptions::default(),
            &Progress::new(),
        )
        .unwrap();
        let mut options = options(true, Joining::Verified);
        options.threshold = 0.7;
        let d = dedup(&index, &options, |_| 0, &Progress::new()).unwrap();
        assert!(d.clusters.len() > 20, "{}", d.clusters.len());
        let all_pairs = reference_pairs(&index, &options);
        let mut chained = 0;
        for c in 0..d.clusters.len() {
            let members = d.clusters.members(c);
            let audit = &d.audits[c];
            assert!(audit.exact);
            // The farthest pair is the lowest Jaccard over every pair of members.
            let mut lowest = 1.0f64;
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    lowest = lowest.min(jaccard(
                        index.sets.get(a as usize),
                        index.sets.get(b as usize),
                    ));
                }
            }
            assert_eq!(audit.farthest_pair.jaccard, lowest, "cluster {c}");
            assert_eq!(audit.chained, lowest < options.threshold);
            chained += usize::from(audit.chained);
            // The weakest link is the bottleneck: the cluster's verified edges strictly above
            // it do not connect it (copies count as edges at 1).
            let w = audit.weakest_link.jaccard;
            if w < 1.0 {
                let edges: Vec<Edge> = all_pairs
                    .iter()
                    .filter(|p| p.jaccard > w && members.contains(&p.a))
                    .map(|p| Edge {
                        a: p.a,
                        b: p.b,
                        jaccard: p.jaccard,
                    })
                    .collect();
                let split = Clusters::build(
                    index.len(),
                    &edges,
                    d.identical.as_deref(),
                    KeepRule::First,
                    |_| 0,
                );
                assert!(
                    split
                        .cluster_of(members[0])
                        .is_none_or(|k| split.members(k).len() < members.len())
                );
            }
        }
        assert!(chained > 0, "template families chain at 0.7");
    }

    /// Every candidate among the representatives with its Jaccard: what dedup used to
    /// materialize.
    fn reference_pairs(index: &Index, options: &DedupOptions) -> Vec<VerifiedPair> {
        let identical = IdenticalGroups::find(&index.sets);
        let included: Vec<bool> = (0..index.len() as u32)
            .map(|d| !options.collapse_identical || identical.is_representative(d))
            .collect();
        let candidates = find_candidates_among(
            &index.signatures,
            &options.banding,
            Some(&included),
            &Progress::new(),
        )
        .unwrap();
        verify(index, &candidates.pairs, 0.0, &Progress::new()).unwrap()
    }

    /// The pair-based dedup (every candidate verified, clusters by Kruskal over all of them)
    /// against the bucket-based one: same clusters, kept documents, weakest links of the
    /// exactly audited clusters, audits and removals.
    fn assert_same_as_pair_based(
        index: &Index,
        options: &DedupOptions,
        len: impl Fn(u32) -> usize + Copy + Sync,
    ) {
        let identical = options
            .collapse_identical
            .then(|| IdenticalGroups::find(&index.sets));
        let pairs = reference_pairs(index, options);
        let (expected, below) =
            cluster_pairs(index.len(), &pairs, identical.as_ref(), options, len);
        let audits = audit_clusters(&expected, &index.sets, identical.as_ref(), options);
        let got = dedup(index, options, len, &Progress::new()).unwrap();
        let (g, e) = (members(&got.clusters), members(&expected));
        if g != e {
            let diff: Vec<_> = g
                .iter()
                .filter(|c| !e.contains(c))
                .map(|c| c.len())
                .collect();
            let diff2: Vec<_> = e
                .iter()
                .filter(|c| !g.contains(c))
                .map(|c| c.len())
                .collect();
            panic!(
                "{:?} {}×{} t {} collapse {} cap {:?}: got {} clusters, expected {}; got-only sizes {diff:?} expected-only {diff2:?}",
                options.joining,
                options.banding.banding.bands,
                options.banding.banding.rows,
                options.threshold,
                options.collapse_identical,
                options.banding.max_bucket,
                g.len(),
                e.len()
            );
        }
        assert_eq!(got.removed_below_threshold, below);
        for (c, audit) in audits.iter().enumerate() {
            assert_eq!(got.clusters.kept(c), expected.kept(c));
            if audit.exact {
                assert_eq!(got.audits[c], *audit, "cluster {c}");
            } else {
                // Above the exact bound the weakest link is a lower bound.
                let bound = got.audits[c].weakest_link.jaccard;
                assert!(bound <= audit.weakest_link.jaccard, "cluster {c}");
                assert!(!got.audits[c].exact);
            }
        }
        // Never more Jaccards than the pair-based way (whose unverified joining edges are
        // candidates it verifies too, counted here once more at most per document).
        let unverified_edges = match options.joining {
            Joining::Verified => 0,
            Joining::Unverified => index.len(),
        };
        let pair_based = pairs.len()
            + audits
                .iter()
                .map(|a| a.pairs_compared as usize)
                .sum::<usize>();
        assert!(
            got.jaccards_computed as usize <= pair_based + unverified_edges,
            "{} > {pair_based}",
            got.jaccards_computed
        );
    }

    #[test]
    fn bucket_joining_equals_joining_every_pair() {
        use crate::synthetic::templated::{TemplateOptions, generate_templated};
        let generated = generate_templated(&TemplateOptions {
            docs: 2_000,
            max_family: 300,
            seed: 11,
            ..TemplateOptions::default()
        });
        let index = build_index(
            &generated.corpus,
            &IndexOptions::default(),
            &Progress::new(),
        )
        .unwrap();
        let len = |d: u32| generated.corpus.text(d as usize).len();
        for (bands, rows, threshold) in [(16, 4, 0.6), (32, 2, 0.5), (20, 5, 0.8)] {
            for joining in [Joining::Verified, Joining::Unverified] {
                for collapse in [true, false] {
                    for (keep, cap, exact_members) in [
                        (KeepRule::First, None, 400),
                        (KeepRule::Longest, Some(50), 400),
                        (KeepRule::First, None, 8),
                    ] {
                        let mut o = options(collapse, joining);
                        o.banding.banding = Banding { bands, rows };
                        o.banding.max_bucket = cap;
                        o.threshold = threshold;
                        o.keep = keep;
                        o.audit.exact_members = exact_members;
                        assert_same_as_pair_based(&index, &o, len);
                    }
                }
            }
        }
        let texts = family_corpus();
        let index =
            build_index(&corpus(&texts), &IndexOptions::default(), &Progress::new()).unwrap();
        for joining in [Joining::Verified, Joining::Unverified] {
            for collapse in [true, false] {
                assert_same_as_pair_based(&index, &options(collapse, joining), |d| {
                    texts[d as usize].len()
                });
            }
        }
    }

    #[test]
    fn capped_buckets_are_reported_as_the_banding_counts_them() {
        let texts = family_corpus();
        let index =
            build_index(&corpus(&texts), &IndexOptions::default(), &Progress::new()).unwrap();
        let mut options = options(true, Joining::Verified);
        options.banding.max_bucket = Some(2);
        let d = dedup(&index, &options, |_| 0, &Progress::new()).unwrap();
        let groups = IdenticalGroups::find(&index.sets);
        let included: Vec<bool> = (0..index.len() as u32)
            .map(|d| groups.is_representative(d))
            .collect();
        let lists = bucket_lists(
            &index.signatures,
            &options.banding,
            Some(&included),
            &Progress::new(),
        )
        .unwrap();
        assert!(
            d.capped_buckets > 0,
            "the family's buckets hold more than 2"
        );
        assert_eq!(d.capped_buckets, lists.capped_bucket_count);
        assert_eq!(d.pairs_dropped_by_cap, lists.pairs_dropped_by_cap);
        options.banding.max_bucket = None;
        let uncapped = dedup(&index, &options, |_| 0, &Progress::new()).unwrap();
        assert_eq!(
            (uncapped.capped_buckets, uncapped.pairs_dropped_by_cap),
            (0, 0)
        );
    }

    #[test]
    fn empty_documents_are_never_clustered() {
        let texts = family_corpus();
        let index =
            build_index(&corpus(&texts), &IndexOptions::default(), &Progress::new()).unwrap();
        let d = dedup(
            &index,
            &options(true, Joining::Unverified),
            |_| 0,
            &Progress::new(),
        )
        .unwrap();
        let n = texts.len() as u32;
        assert!(d.clusters.cluster_of(n - 1).is_none() && d.clusters.cluster_of(n - 2).is_none());
    }
}
