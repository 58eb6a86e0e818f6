//! The dedup sequence: identical copies grouped, banding over their representatives,
//! verification, clusters and the chaining audit, each a timed phase.

use crate::Result;
use crate::analysis::dedup::{Dedup, DedupOptions, audit_clusters, cluster_pairs};
use crate::jobs::Phase;
use crate::minhash::{IdenticalGroups, Index, find_candidates_among};

use super::Pipeline;

impl Pipeline<'_> {
    /// Deduplicates an indexed corpus. `length(doc)` serves `KeepRule::Longest`.
    pub fn dedup(
        &mut self,
        index: &Index,
        options: &DedupOptions,
        length: impl Fn(u32) -> usize + Copy,
    ) -> Result<Dedup> {
        let n = index.len();
        let identical = if options.collapse_identical {
            Some(self.timed(Phase::Collapsing, "docs", |_| {
                Ok((IdenticalGroups::find(&index.sets), n as u64))
            })?)
        } else {
            None
        };
        let included: Option<Vec<bool>> = identical
            .as_ref()
            .map(|g| (0..n as u32).map(|d| g.is_representative(d)).collect());
        let candidates = self.timed(Phase::Banding, "bucket pairs", |progress| {
            let candidates = find_candidates_among(
                &index.signatures,
                &options.banding,
                included.as_deref(),
                progress,
            )?;
            let bucket_pairs = candidates.bucket_pairs;
            Ok((candidates, bucket_pairs))
        })?;
        // Threshold 0: unverified joining and the audit need every candidate's Jaccard.
        let pairs = self.verify(index, &candidates.pairs, 0.0)?;
        let (clusters, removed_below_threshold, audits) =
            self.timed(Phase::Clustering, "docs", |progress| {
                progress.begin(Phase::Clustering, 0);
                let (clusters, below) =
                    cluster_pairs(n, &pairs, identical.as_ref(), options, length);
                progress.check()?;
                let audits = audit_clusters(&clusters, &index.sets, identical.as_ref(), options);
                Ok(((clusters, below, audits), n as u64))
            })?;
        Ok(Dedup {
            identical,
            candidates,
            pairs,
            clusters,
            audits,
            removed_below_threshold,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::clusters::{AuditLimits, Clusters, Edge, KeepRule};
    use crate::analysis::dedup::Joining;
    use crate::corpus::Corpus;
    use crate::jobs::Progress;
    use crate::minhash::{Banding, BandingOptions, IndexOptions, build_index};

    fn dedup(
        index: &Index,
        options: &DedupOptions,
        length: impl Fn(u32) -> usize + Copy,
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
                with.pairs.len() < without.pairs.len(),
                "the collapse saves pairs: {} vs {}",
                with.pairs.len(),
                without.pairs.len()
            );
            let copies = with.identical.as_ref().unwrap().copies();
            assert!(copies >= 20, "{copies}");
        }
    }

    #[test]
    fn audits_match_brute_force_on_a_template_corpus() {
        use crate::similarity::jaccard;
        use crate::templated::{TemplateOptions, generate_templated};
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
                let edges: Vec<Edge> = d
                    .pairs
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
                    d.identical.as_ref(),
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
