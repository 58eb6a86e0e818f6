//! The dedup sequence: identical copies grouped, banding over their representatives,
//! verification, clusters and the chaining audit, each a timed phase.

use std::sync::Arc;

use crate::Result;
use crate::analysis::center::{Known, center_clusters_within, jaccards_to_kept};
use crate::analysis::clusters::{Clusters, UnionFind};
use crate::analysis::components::{audited_clusters, unverified_components, verified_components};
use crate::analysis::dedup::{Clustering, Dedup, DedupOptions, Joining};
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
        if options.clustering == Clustering::Center && options.joining == Joining::Unverified {
            return Err(crate::Error::usage(
                "center clustering removes a document only for a verified pair at the \
                 threshold; unverified joining (every candidate joins) has components only",
            ));
        }
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
        // The center pass: verified joining only (its guarantee is about verified pairs).
        let center = match options.joining {
            Joining::Unverified => None,
            Joining::Verified => Some(self.timed(Phase::Centering, "Jaccards", |progress| {
                progress.begin(Phase::Centering, 0);
                // The verified components bound the search: a kept candidate in another
                // component is below the threshold.
                let mut components = UnionFind::new(n);
                for e in &verified.edges {
                    components.union(e.a, e.b);
                }
                let component: Vec<u32> = (0..n as u32).map(|d| components.find(d)).collect();
                drop(components);
                let centered = center_clusters_within(
                    n,
                    &buckets,
                    identical.as_deref(),
                    &index.sets,
                    options.threshold,
                    options.keep,
                    length,
                    Known {
                        component: &component,
                    },
                    progress,
                )?;
                let computed = centered.jaccards;
                Ok((centered, computed))
            })?),
        };
        let (components_to_kept, to_kept_jaccards) =
            jaccards_to_kept(&audited.clusters, &index.sets);
        let components_removed_below_threshold = (0..n as u32)
            .filter(|&d| {
                audited.clusters.is_removed(d) && components_to_kept[d as usize] < options.threshold
            })
            .count();
        Ok(Dedup {
            identical,
            bucket_pairs: buckets.bucket_pairs,
            largest_buckets: buckets.largest_buckets,
            capped_buckets: buckets.capped_bucket_count,
            pairs_dropped_by_cap: buckets.pairs_dropped_by_cap,
            jaccards_computed: verified.jaccards
                + unverified.as_ref().map_or(0, |u| u.jaccards)
                + audited.jaccards
                + center.as_ref().map_or(0, |c| c.jaccards)
                + to_kept_jaccards,
            joining_jaccards: verified.jaccards + unverified.as_ref().map_or(0, |u| u.jaccards),
            clustering: options.clustering,
            clusters: audited.clusters,
            audits: audited.audits,
            components_to_kept,
            components_removed_below_threshold,
            center,
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
            clustering: Clustering::Components,
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
        // The center pass and the Jaccards of removed documents with their kept ones are
        // not part of joining components.
        let components_jaccards = got.jaccards_computed
            - got.center.as_ref().map_or(0, |c| c.jaccards)
            - got.clusters.removed_documents() as u64;
        assert!(
            components_jaccards as usize <= pair_based + unverified_edges,
            "{components_jaccards} > {pair_based}"
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

    /// Hand-built edit chains: each document is the previous one with a few words replaced,
    /// so neighbours are near-duplicates and the chain's ends share little.
    fn edit_chains(chains: usize, length: usize, seed: u64) -> Vec<String> {
        use crate::util::rng::SplitMix64;
        let mut rng = SplitMix64::new(seed);
        let word = |rng: &mut SplitMix64| {
            let syllables = [
                "ka", "lo", "mi", "ner", "sta", "ru", "vel", "tor", "que", "dal",
            ];
            (0..3)
                .map(|_| syllables[rng.below(syllables.len() as u64) as usize])
                .collect::<String>()
        };
        let mut texts = Vec::new();
        for _ in 0..chains {
            let mut words: Vec<String> = (0..40).map(|_| word(&mut rng)).collect();
            for _ in 0..length {
                texts.push(words.join(" "));
                for _ in 0..3 {
                    let at = rng.below(words.len() as u64) as usize;
                    words[at] = word(&mut rng);
                }
            }
        }
        texts
    }

    /// A template corpus (families, verbatim copies) with edit chains appended.
    fn chained_template_corpus(docs: usize, seed: u64) -> Corpus {
        use crate::synthetic::templated::{TemplateOptions, generate_templated};
        let generated = generate_templated(&TemplateOptions {
            docs,
            max_family: 150,
            seed,
            ..TemplateOptions::default()
        });
        let mut corpus = generated.corpus;
        for (i, text) in edit_chains(12, 25, seed).iter().enumerate() {
            corpus.push(&format!("chain{i}"), text);
        }
        corpus
    }

    /// The definition of center clustering, over every candidate pair of every document
    /// (no bucket lists): in keep order, a document with a kept candidate at ≥ t goes to the
    /// most similar one (ties: earlier in keep order), else it is kept. With
    /// `collapse_identical`, a document whose shingle set an earlier one in keep order has
    /// goes where that one went. Returns each document's kept document (itself when kept).
    fn greedy_reference(
        index: &Index,
        options: &DedupOptions,
        len: impl Fn(u32) -> usize + Sync,
    ) -> Vec<u32> {
        use crate::analysis::clusters::keep_order;
        let n = index.len();
        let candidates =
            find_candidates_among(&index.signatures, &options.banding, None, &Progress::new())
                .unwrap();
        let pairs = verify(
            index,
            &candidates.pairs,
            options.threshold,
            &Progress::new(),
        )
        .unwrap();
        let mut neighbours: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
        for p in &pairs {
            neighbours[p.a as usize].push((p.b, p.jaccard));
            neighbours[p.b as usize].push((p.a, p.jaccard));
        }
        let order = keep_order(n, options.keep, len);
        let mut rank = vec![0usize; n];
        for (i, &d) in order.iter().enumerate() {
            rank[d as usize] = i;
        }
        let mut kept_doc: Vec<u32> = (0..n as u32).collect();
        let mut kept = vec![false; n];
        let mut lead_of_set: std::collections::HashMap<&[u64], u32> = Default::default();
        for &d in &order {
            let set = index.sets.get(d as usize);
            if options.collapse_identical && !set.is_empty() {
                let lead = *lead_of_set.entry(set).or_insert(d);
                if lead != d {
                    kept_doc[d as usize] = kept_doc[lead as usize];
                    continue;
                }
            }
            let best = neighbours[d as usize]
                .iter()
                .filter(|(c, j)| kept[*c as usize] && *j >= options.threshold)
                .max_by(|x, y| {
                    x.1.total_cmp(&y.1)
                        .then(rank[y.0 as usize].cmp(&rank[x.0 as usize]))
                });
            match best {
                Some(&(c, _)) => kept_doc[d as usize] = c,
                None => kept[d as usize] = true,
            }
        }
        kept_doc
    }

    fn center_of_each(d: &Dedup, n: usize) -> Vec<u32> {
        let clusters = d.chosen();
        (0..n as u32)
            .map(|doc| clusters.cluster_of(doc).map_or(doc, |c| clusters.kept(c)))
            .collect()
    }

    fn center_options(threshold: f64, bands: usize, rows: usize, keep: KeepRule) -> DedupOptions {
        let mut o = options(true, Joining::Verified);
        o.clustering = Clustering::Center;
        o.threshold = threshold;
        o.banding.banding = Banding { bands, rows };
        o.keep = keep;
        o
    }

    #[test]
    fn center_clustering_is_the_greedy_pass_over_every_verified_pair() {
        let corpus = chained_template_corpus(1_500, 5);
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let len = |d: u32| corpus.text(d as usize).len();
        for (threshold, bands, rows) in [(0.7, 20, 5), (0.5, 32, 2), (0.8, 16, 4)] {
            for keep in [KeepRule::First, KeepRule::Longest] {
                for collapse in [true, false] {
                    let mut o = center_options(threshold, bands, rows, keep);
                    o.collapse_identical = collapse;
                    let got = dedup(&index, &o, len, &Progress::new()).unwrap();
                    let expected = greedy_reference(&index, &o, len);
                    assert_eq!(
                        center_of_each(&got, index.len()),
                        expected,
                        "t {threshold} {bands}×{rows} {keep:?} collapse {collapse}"
                    );
                }
            }
        }
    }

    #[test]
    fn center_removals_are_justified_and_kept_documents_are_no_pair() {
        use crate::minhash::similarity::jaccard;
        let corpus = chained_template_corpus(2_000, 9);
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let len = |d: u32| corpus.text(d as usize).len();
        let n = index.len();
        let mut chained_removals = 0;
        for (threshold, cap) in [(0.7, None), (0.5, None), (0.7, Some(20))] {
            let mut o = center_options(threshold, 20, 5, KeepRule::Longest);
            o.banding.max_bucket = cap;
            let d = dedup(&index, &o, len, &Progress::new()).unwrap();
            let center = d.center.as_ref().unwrap();
            let clusters = &center.clusters;
            for doc in 0..n as u32 {
                if let Some(c) = clusters.cluster_of(doc) {
                    let kept = clusters.kept(c);
                    let exact =
                        jaccard(index.sets.get(doc as usize), index.sets.get(kept as usize));
                    assert_eq!(center.to_kept[doc as usize], exact, "document {doc}");
                    assert!(exact >= threshold, "document {doc} removed at {exact}");
                }
            }
            // Every kept document against every other kept one its buckets pair it with.
            let lists =
                bucket_lists(&index.signatures, &o.banding, None, &Progress::new()).unwrap();
            let kept: Vec<u32> = (0..n as u32)
                .filter(|&doc| !clusters.is_removed(doc))
                .collect();
            for (i, &a) in kept.iter().enumerate() {
                for &b in &kept[i + 1..] {
                    if lists.bands_hit(a, b) > 0 {
                        let j = jaccard(index.sets.get(a as usize), index.sets.get(b as usize));
                        // Copies past the cap share no bucket with their representative's
                        // other pairs; kept copies are never both kept.
                        assert!(j < threshold, "kept {a} and {b} at {j}");
                    }
                }
            }
            assert!(clusters.removed_documents() <= d.clusters.removed_documents());
            chained_removals += d.components_removed_below_threshold;
            // The components' count is what their to-kept Jaccards say.
            let below = (0..n as u32)
                .filter(|&doc| {
                    d.clusters.is_removed(doc) && d.components_to_kept[doc as usize] < threshold
                })
                .count();
            assert_eq!(below, d.components_removed_below_threshold);
        }
        assert!(
            chained_removals > 0,
            "edit chains make components remove documents below t"
        );
    }

    #[test]
    fn center_clustering_does_not_depend_on_threads_or_runs() {
        let corpus = chained_template_corpus(3_000, 21);
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let len = |d: u32| corpus.text(d as usize).len();
        let o = center_options(0.6, 20, 5, KeepRule::Longest);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let d = dedup(&index, &o, len, &Progress::new()).unwrap();
                let center = d.center.unwrap();
                let to_kept: Vec<u64> = center.to_kept.iter().map(|j| j.to_bits()).collect();
                (center.clusters, to_kept, center.jaccards)
            })
        };
        let one = run(1);
        assert!(
            one.0.removed_documents() > 100,
            "{}",
            one.0.removed_documents()
        );
        assert_eq!(one, run(4));
        assert_eq!(one, run(4));
        assert_eq!(one, run(1));
    }

    #[test]
    fn center_clustering_refuses_unverified_joining() {
        let texts = family_corpus();
        let index =
            build_index(&corpus(&texts), &IndexOptions::default(), &Progress::new()).unwrap();
        let mut o = options(true, Joining::Unverified);
        o.clustering = Clustering::Center;
        let refused = dedup(&index, &o, |_| 0, &Progress::new())
            .unwrap_err()
            .to_string();
        assert!(refused.contains("components only"), "{refused}");
    }
}
