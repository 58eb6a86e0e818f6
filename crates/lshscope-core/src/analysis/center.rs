//! Center clustering: remove a document only when a document already kept is a verified
//! near-duplicate of it.
//!
//! Connected components chain: A ≈ B ≈ C joins A and C even when they share little, and the
//! component keeps one document and removes the rest, C included. Center clustering takes
//! documents in keep order (the `--keep` rule, [`keep_order`]) and decides each once: it is
//! removed when some document already kept is a candidate of it with exact Jaccard ≥ t, and
//! assigned to the most similar such document (ties to the one earlier in keep order);
//! otherwise it is kept. The kept documents are the maximal independent set of the
//! verified-pair graph that the keep order makes greedy (the lexicographically first one),
//! so every removal is justified by one pair at ≥ t, and no two kept documents are such a
//! pair. The clusters are stars: a kept document and the documents assigned to it.
//!
//! Scale. As the components ([`super::components`]), it follows documents and bands, not
//! candidate pairs: a document's candidates are read from its buckets, and only the *kept*
//! members of a bucket matter. Each listed bucket carries the list of its kept members, in
//! keep order, in an arena as large as the banding's member lists; a document compares its
//! shingle set with the distinct kept members of its buckets only. A family of m documents
//! around one kept center costs about m Jaccards, not m²; a chained family costs m times the
//! number of centers it ends with. Components stop at the first member of another component
//! that reaches t; this pass cannot stop at the first, since the assignment wants the most
//! similar kept document, so it compares every (document, kept candidate) pair that the size
//! bound `|A ∩ B| / |A ∪ B| ≤ min / max` does not rule out, each merge abandoned once it can
//! reach neither t nor the best Jaccard found so far. Once the best so far reaches
//! (1 + t) / 2, a kept candidate that shares a bucket with it is skipped (the triangle bound,
//! at `settles` below). Given the verified components ([`center_clusters_within`], as the
//! dedup pipeline does), only kept candidates of the document's own component are compared.
//!
//! Identical copies are collapsed first: the banding sees one representative per distinct
//! shingle set. A group of copies is decided once, at the position of its member that comes
//! first in keep order (its lead); the lead is kept or removed as the representative's set
//! decides, and the other copies are removed, assigned to the lead at Jaccard 1 when it is
//! kept, or to the lead's kept document at the lead's Jaccard: identical documents stay in
//! one cluster. Which documents are kept and removed is what the greedy pass over every
//! document would find, since copies share every bucket; only the assignment of the copies
//! of a removed set can differ from that pass, which could send a late copy to a document
//! kept after its lead, at a Jaccard still below 1.
//!
//! Threads. The decisions are sequential in keep order, but most of the work is not: units
//! are taken in chunks; within a chunk every document first compares itself, in parallel,
//! with the documents kept *before* the chunk (a fixed state), and then, in keep order, with
//! the few documents kept earlier within the chunk. The decision is the same as the plain
//! sequential pass, whatever the number of threads.

use rayon::prelude::*;

use super::clusters::{Clusters, Edge, KeepRule, keep_order};
use crate::jobs::Progress;
use crate::minhash::jaccards_at_least;
use crate::minhash::similarity::jaccard;
use crate::minhash::{BucketLists, IdenticalGroups, ShingleSets};
use crate::{Error, Result};

/// Documents decided per chunk: large enough to keep every thread busy with the parallel
/// comparison, small enough that few documents of a chunk are kept within it.
const CHUNK: usize = 4096;

/// Kept candidates of a document merged in one call of `jaccards_at_least`: more than two
/// lets a merge that ends early hand its lane to the next; few, since a candidate that the
/// best found before it in its batch would have skipped is merged for nothing.
const BATCH: usize = 4;

/// The buffers of finding one document's best kept candidate, reused from document to
/// document (one per task): its candidates, and the batch being merged with their sets and
/// results.
#[derive(Default)]
struct Scratch<'a> {
    candidates: Vec<u32>,
    merging: Vec<u32>,
    others: Vec<&'a [u64]>,
    merged: Vec<Option<f64>>,
}

/// No document: kept, or no kept document found.
const NONE: u32 = u32::MAX;

/// The clusters center clustering finds.
#[derive(Debug, Clone)]
pub struct Centered {
    /// Stars: each cluster's kept document is its center, every other member is assigned to it.
    pub clusters: Clusters,
    /// Per document: its Jaccard with the kept document of its cluster (1 for the kept
    /// document itself; NaN for a document in no cluster).
    pub to_kept: Vec<f64>,
    /// Exact Jaccards the pass computed.
    pub jaccards: u64,
}

/// The best kept candidate so far: the highest Jaccard, then the earliest in keep order.
#[derive(Debug, Clone, Copy)]
struct Best {
    jaccard: f64,
    rank: u32,
    doc: u32,
}

impl Best {
    const NONE: Best = Best {
        jaccard: f64::NEG_INFINITY,
        rank: u32::MAX,
        doc: NONE,
    };

    fn max(self, other: Best) -> Best {
        if other.jaccard > self.jaccard || (other.jaccard == self.jaccard && other.rank < self.rank)
        {
            other
        } else {
            self
        }
    }
}

/// True when `a` and `b` can reach `threshold`: Jaccard is at most the ratio of the smaller
/// set's size to the larger's.
fn may_reach(a: &[u64], b: &[u64], threshold: f64) -> bool {
    let (small, large) = (a.len().min(b.len()), a.len().max(b.len()));
    large == 0 || small as f64 >= threshold * large as f64
}

/// The kept members of every listed bucket, in keep order: bucket k of band b holds its kept
/// members in `slots[b][start[b][k]..start[b][k] + len[b][k]]`.
struct KeptLists {
    start: Vec<Vec<u32>>,
    len: Vec<Vec<u32>>,
    slots: Vec<Vec<u32>>,
}

impl KeptLists {
    fn new(buckets: &BucketLists) -> Self {
        let mut start = Vec::with_capacity(buckets.bands.len());
        let mut len = Vec::with_capacity(buckets.bands.len());
        let mut slots = Vec::with_capacity(buckets.bands.len());
        for band in &buckets.bands {
            let mut offsets = Vec::with_capacity(band.len());
            let mut total = 0u32;
            for bucket in band.iter() {
                offsets.push(total);
                total += bucket.len() as u32;
            }
            start.push(offsets);
            len.push(vec![0u32; band.len()]);
            slots.push(vec![0u32; total as usize]);
        }
        KeptLists { start, len, slots }
    }

    fn kept(&self, band: usize, bucket: u32) -> &[u32] {
        let s = self.start[band][bucket as usize] as usize;
        &self.slots[band][s..s + self.len[band][bucket as usize] as usize]
    }

    fn push(&mut self, band: usize, bucket: u32, doc: u32) {
        let s = self.start[band][bucket as usize] as usize;
        let l = &mut self.len[band][bucket as usize];
        self.slots[band][s + *l as usize] = doc;
        *l += 1;
    }
}

/// Center clustering of the documents of `buckets` (representatives of `identical`, when
/// given) in the keep order of `keep` and `key` (see [`keep_order`]).
#[allow(clippy::too_many_arguments)]
pub fn center_clusters(
    documents: usize,
    buckets: &BucketLists,
    identical: Option<&IdenticalGroups>,
    sets: &ShingleSets,
    threshold: f64,
    keep: KeepRule,
    key: impl Fn(u32) -> usize + Sync + Copy,
    progress: &Progress,
) -> Result<Centered> {
    let sizes = Sizes {
        documents,
        chunk: CHUNK,
        direct: DIRECT,
        batch: BATCH,
    };
    center_in_chunks(
        sizes, buckets, identical, sets, threshold, keep, key, None, progress,
    )
}

/// What the dedup pipeline already knows when the center pass starts, and the pass uses to
/// compare less.
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    /// Each document's (representative's) component of the candidate pairs at Jaccard ≥ the
    /// threshold, over the same buckets, as a label below the number of documents. A kept
    /// candidate in another component is below the threshold (the pair would have joined
    /// the two), so it is never compared.
    pub component: &'a [u32],
}

/// [`center_clusters`] with what the pipeline knows ([`Known`]): the same result, bit for bit,
/// for fewer Jaccards.
#[allow(clippy::too_many_arguments)]
pub fn center_clusters_within(
    documents: usize,
    buckets: &BucketLists,
    identical: Option<&IdenticalGroups>,
    sets: &ShingleSets,
    threshold: f64,
    keep: KeepRule,
    key: impl Fn(u32) -> usize + Sync + Copy,
    known: Known<'_>,
    progress: &Progress,
) -> Result<Centered> {
    if known.component.len() != documents
        || known.component.iter().any(|&l| l as usize >= documents)
    {
        return Err(Error::Internal(format!(
            "center clustering: {} component labels for {documents} documents, or a label \
             out of range",
            known.component.len(),
        )));
    }
    let sizes = Sizes {
        documents,
        chunk: CHUNK,
        direct: DIRECT,
        batch: BATCH,
    };
    center_in_chunks(
        sizes,
        buckets,
        identical,
        sets,
        threshold,
        keep,
        key,
        Some(known),
        progress,
    )
}

/// Components with at most this many kept documents give a document its kept candidates by
/// testing each of them for a shared bucket, instead of gathering the kept members of its
/// buckets (one copy per band the pair shares) and sorting them.
const DIRECT: usize = 32;

/// The kept documents of every component, in keep order: component l holds them in
/// `slots[start[l]..start[l] + len[l]]`, room made for every unit of the component.
struct ComponentKept {
    start: Vec<u32>,
    len: Vec<u32>,
    slots: Vec<u32>,
}

impl ComponentKept {
    fn new(component: &[u32], units: &[u32]) -> Self {
        let mut start = vec![0u32; component.len() + 1];
        for &r in units {
            start[component[r as usize] as usize + 1] += 1;
        }
        for l in 0..component.len() {
            start[l + 1] += start[l];
        }
        ComponentKept {
            len: vec![0; component.len()],
            slots: vec![0; units.len()],
            start,
        }
    }

    fn kept(&self, label: u32) -> &[u32] {
        let s = self.start[label as usize] as usize;
        &self.slots[s..s + self.len[label as usize] as usize]
    }

    fn push(&mut self, label: u32, doc: u32) {
        let s = self.start[label as usize] as usize;
        let l = &mut self.len[label as usize];
        self.slots[s + *l as usize] = doc;
        *l += 1;
    }
}

/// How many documents, and how many units are decided per chunk.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    documents: usize,
    chunk: usize,
    /// Components with at most this many kept documents are searched directly ([`DIRECT`]).
    direct: usize,
    /// Kept candidates merged per call ([`BATCH`]).
    batch: usize,
}

#[allow(clippy::too_many_arguments)]
fn center_in_chunks<'s>(
    Sizes {
        documents,
        chunk,
        direct,
        batch,
    }: Sizes,
    buckets: &BucketLists,
    identical: Option<&IdenticalGroups>,
    sets: &'s ShingleSets,
    threshold: f64,
    keep: KeepRule,
    key: impl Fn(u32) -> usize + Sync + Copy,
    known: Option<Known<'_>>,
    progress: &Progress,
) -> Result<Centered> {
    // Kept candidates that may reach the threshold with `r`: all, or those of its component.
    let same_component =
        |r: u32, c: u32| known.is_none_or(|k| k.component[r as usize] == k.component[c as usize]);
    let order = keep_order(documents, keep, key);
    let mut rank = vec![0u32; documents];
    for (position, &d) in order.iter().enumerate() {
        rank[d as usize] = position as u32;
    }
    let representative = |d: u32| identical.map_or(d, |g| g.representative(d));
    // The lead of each distinct set: its member first in keep order.
    let mut lead: Vec<u32> = (0..documents as u32).collect();
    if let Some(groups) = identical {
        for group in groups.groups() {
            let first = *group.iter().min_by_key(|&&d| rank[d as usize]).unwrap();
            lead[group[0] as usize] = first;
        }
    }
    // Distinct sets in the keep order of their leads, each with its lead's rank.
    let units: Vec<u32> = order
        .iter()
        .copied()
        .filter(|&d| lead[representative(d) as usize] == d)
        .map(representative)
        .collect();
    let unit_rank = |r: u32| rank[lead[r as usize] as usize];

    let mut kept_lists = KeptLists::new(buckets);
    let mut component_kept = known.map(|k| ComponentKept::new(k.component, &units));
    // The kept documents of a small component, when `r`'s is one: its candidates among them
    // are those that share a bucket with it.
    let small_component = |lists: &ComponentKept, r: u32| -> Option<u32> {
        let label = known?.component[r as usize];
        (lists.kept(label).len() <= direct).then_some(label)
    };
    let mut assigned = vec![NONE; documents];
    let mut assigned_jaccard = vec![f64::NAN; documents];
    let mut jaccards = 0u64;
    // The best of `best` and the kept `candidates` of `r`. A candidate matters only when it
    // reaches the threshold and at least ties the best so far (a tie goes to the earlier
    // keep rank, so a tie needs its exact value too): its intersection is abandoned as soon
    // as it cannot reach that floor, and what reaches it is computed exactly.
    // A best so far at or above `settles` beats every kept candidate c that shares a bucket
    // with it. Two kept documents that share a bucket are below the threshold t (the later one
    // would have been removed), and Jaccard distance 1 − J is a metric (Levandowsky and
    // Winter, Nature 1971), so J(r, c) ≤ J(best, c) + 1 − J(r, best) < t + 1 − best ≤ best
    // once best ≥ (1 + t) / 2: c can neither beat nor tie the best. The margin keeps the
    // rounded Jaccards (ratios of counts below 2^32) on the safe side of the exact bound.
    let settles = (1.0 + threshold) / 2.0 + 1e-9;
    // Beaten by the triangle inequality (see `settles`).
    let settled = |best: Best, c: u32| {
        best.jaccard >= settles && c != best.doc && buckets.bands_hit(best.doc, c) > 0
    };
    // The candidates are merged a few at a time (`batch`), at the floor of the best before
    // them: `jaccards_at_least` runs two merges in one loop, whose memory waits overlap. A
    // candidate that a better best found earlier in its batch would have raised the floor for
    // gets its exact value or nothing all the same (its value counts only if it reaches that
    // best), and one that the new best settles is dropped, so the decisions and the count of
    // Jaccards are those of merging one candidate after the other.
    let best_of = |r: u32, scratch: &mut Scratch<'s>, mut best: Best, computed: &mut u64| -> Best {
        let Scratch {
            candidates,
            merging,
            others,
            merged,
        } = scratch;
        candidates.sort_unstable();
        candidates.dedup();
        let set_r = sets.get(r as usize);
        let mut next = candidates.iter().copied();
        loop {
            merging.clear();
            merging.extend(
                next.by_ref()
                    .filter(|&c| {
                        may_reach(set_r, sets.get(c as usize), threshold) && !settled(best, c)
                    })
                    .take(batch),
            );
            if merging.is_empty() {
                return best;
            }
            others.clear();
            others.extend(merging.iter().map(|&c| sets.get(c as usize)));
            jaccards_at_least(set_r, others, threshold.max(best.jaccard), merged);
            for (&c, &j) in merging.iter().zip(merged.iter()) {
                if settled(best, c) {
                    continue;
                }
                *computed += 1;
                if let Some(j) = j {
                    best = best.max(Best {
                        jaccard: j,
                        rank: unit_rank(c),
                        doc: c,
                    });
                }
            }
        }
    };
    let mut scratch = Scratch::default();
    for chunk in units.chunks(chunk) {
        progress.check()?;
        let chunk_start = unit_rank(chunk[0]);
        // Against the documents kept before the chunk: final, so compared in parallel.
        let before: Vec<(Best, u64)> = chunk
            .par_iter()
            .map_init(Scratch::default, |scratch, &r| {
                scratch.candidates.clear();
                let candidates = &mut scratch.candidates;
                let small = component_kept
                    .as_ref()
                    .and_then(|lists| Some((lists, small_component(lists, r)?)));
                if let Some((lists, label)) = small {
                    let kept = lists.kept(label).iter().copied();
                    candidates.extend(kept.filter(|&c| buckets.bands_hit(r, c) > 0));
                } else {
                    for (band, &bucket) in buckets.buckets_of(r).iter().enumerate() {
                        if bucket != NONE {
                            let kept = kept_lists.kept(band, bucket).iter().copied();
                            candidates.extend(kept.filter(|&c| same_component(r, c)));
                        }
                    }
                }
                let mut computed = 0;
                let best = best_of(r, scratch, Best::NONE, &mut computed);
                (best, computed)
            })
            .collect();
        // Against the documents kept earlier in the chunk (the tails of the kept lists), and
        // the decision, in keep order.
        let mut computed = 0u64;
        for (&r, &(best, before_computed)) in chunk.iter().zip(&before) {
            computed += before_computed;
            scratch.candidates.clear();
            let candidates = &mut scratch.candidates;
            let row = buckets.buckets_of(r);
            let small = component_kept
                .as_ref()
                .and_then(|lists| Some((lists, small_component(lists, r)?)));
            if let Some((lists, label)) = small {
                let recent = lists
                    .kept(label)
                    .iter()
                    .rev()
                    .take_while(|&&c| unit_rank(c) >= chunk_start)
                    .copied();
                candidates.extend(recent.filter(|&c| buckets.bands_hit(r, c) > 0));
            } else {
                for (band, &bucket) in row.iter().enumerate() {
                    if bucket != NONE {
                        let kept = kept_lists.kept(band, bucket);
                        let recent = kept
                            .iter()
                            .rev()
                            .take_while(|&&c| unit_rank(c) >= chunk_start)
                            .copied()
                            .filter(|&c| same_component(r, c));
                        candidates.extend(recent);
                    }
                }
            }
            let best = best_of(r, &mut scratch, best, &mut computed);
            if best.jaccard >= threshold {
                assigned[r as usize] = best.doc;
                assigned_jaccard[r as usize] = best.jaccard;
            } else {
                for (band, &bucket) in row.iter().enumerate() {
                    if bucket != NONE {
                        kept_lists.push(band, bucket, r);
                    }
                }
                if let (Some(lists), Some(known)) = (component_kept.as_mut(), known) {
                    lists.push(known.component[r as usize], r);
                }
            }
        }
        jaccards += computed;
        progress.advance(computed);
    }
    drop(kept_lists);

    // Every document to the kept document of its star: copies of a kept set to its lead at
    // 1, members of a removed set to the lead of the set it was assigned to.
    let mut center_of = vec![NONE; documents];
    let mut to_kept = vec![f64::NAN; documents];
    let mut edges = Vec::new();
    for d in 0..documents as u32 {
        let r = representative(d);
        let (center, value) = match assigned[r as usize] {
            NONE => (lead[r as usize], 1.0),
            k => (lead[k as usize], assigned_jaccard[r as usize]),
        };
        if center != d {
            center_of[d as usize] = center;
            to_kept[d as usize] = value;
            to_kept[center as usize] = 1.0;
            edges.push(Edge {
                a: d.min(center),
                b: d.max(center),
                jaccard: value,
            });
        }
    }
    let clusters = Clusters::build(documents, &edges, None, keep, key);
    for c in 0..clusters.len() {
        let kept = clusters.kept(c);
        if let Some(&d) = clusters
            .members(c)
            .iter()
            .find(|&&d| d != kept && center_of[d as usize] != kept)
        {
            return Err(Error::Internal(format!(
                "center clustering: document {d} is assigned to {} but its cluster keeps {kept}",
                center_of[d as usize]
            )));
        }
    }
    Ok(Centered {
        clusters,
        to_kept,
        jaccards,
    })
}

/// Per document, its Jaccard with the kept document of its cluster in `clusters` (1 for the
/// kept document; NaN outside clusters), and the Jaccards computed (one per removed
/// document whose set differs from the kept one's).
pub fn jaccards_to_kept(clusters: &Clusters, sets: &ShingleSets) -> (Vec<f64>, u64) {
    let to_kept: Vec<f64> = (0..sets.len() as u32)
        .into_par_iter()
        .map(|d| match clusters.cluster_of(d) {
            None => f64::NAN,
            Some(c) => {
                let kept = clusters.kept(c);
                if kept == d {
                    1.0
                } else {
                    jaccard(sets.get(d as usize), sets.get(kept as usize))
                }
            }
        })
        .collect();
    let computed = clusters.removed_documents() as u64;
    (to_kept, computed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::clusters::UnionFind;
    use crate::analysis::components::verified_components;
    use crate::corpus::Corpus;
    use crate::minhash::{Banding, BandingOptions, IndexOptions, bucket_lists, build_index};
    use crate::synthetic::templated::{TemplateOptions, generate_templated};

    /// Template families (copies among them) followed by an edit chain: each text of the
    /// chain replaces one more word of the first.
    fn chained_templates(docs: usize, seed: u64) -> Corpus {
        let generated = generate_templated(&TemplateOptions {
            docs,
            max_family: 200,
            seed,
            ..TemplateOptions::default()
        });
        let mut corpus: Corpus = generated.corpus;
        let words: Vec<String> = (0..30).map(|i| format!("w{i}x{}", i * 7 % 11)).collect();
        for step in 0..60 {
            let mut text = words.clone();
            for (k, w) in text.iter_mut().enumerate().take(step / 2) {
                *w = format!("edit{step}at{k}");
            }
            corpus.push(&format!("chain{step}"), &text.join(" "));
        }
        corpus
    }

    /// The chunks only split the work: any chunk size, on any number of threads, with or
    /// without the components, gives the decisions of the one-at-a-time pass (chunks of 1).
    #[test]
    fn chunks_and_threads_do_not_change_the_result() {
        let corpus = chained_templates(2_500, 17);
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let identical = IdenticalGroups::find(&index.sets);
        let included: Vec<bool> = (0..index.len() as u32)
            .map(|d| identical.is_representative(d))
            .collect();
        let banding = BandingOptions {
            banding: Banding { bands: 20, rows: 5 },
            max_bucket: None,
        };
        let buckets = bucket_lists(
            &index.signatures,
            &banding,
            Some(&included),
            &Progress::new(),
        )
        .unwrap();
        let key = |d: u32| corpus.text(d as usize).len();
        let component = component_labels(index.len(), &buckets, &index.sets, 0.6);
        let known = Known {
            component: &component,
        };
        let run = |chunk: usize,
                   threads: usize,
                   known: Option<Known<'_>>,
                   direct: usize,
                   batch: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let sizes = Sizes {
                    documents: index.len(),
                    chunk,
                    direct,
                    batch,
                };
                let c = center_in_chunks(
                    sizes,
                    &buckets,
                    Some(&identical),
                    &index.sets,
                    0.6,
                    KeepRule::Longest,
                    key,
                    known,
                    &Progress::new(),
                )
                .unwrap();
                let to_kept: Vec<u64> = c.to_kept.iter().map(|j| j.to_bits()).collect();
                (c.clusters, to_kept, c.jaccards)
            })
        };
        let one_at_a_time = run(1, 1, None, DIRECT, BATCH);
        assert!(one_at_a_time.0.removed_documents() > 200);
        // The Jaccards computed may depend on the chunk size (the triangle bound depends on
        // the best met so far), never on the threads.
        let decisions = |r: &(Clusters, Vec<u64>, u64)| (r.0.clone(), r.1.clone());
        for chunk in [1, 7, 100, CHUNK] {
            let one_thread = run(chunk, 1, None, DIRECT, BATCH);
            assert_eq!(
                decisions(&one_thread),
                decisions(&one_at_a_time),
                "chunk {chunk}"
            );
            assert_eq!(
                run(chunk, 4, None, DIRECT, BATCH),
                one_thread,
                "chunk {chunk}"
            );
            // Merging a few candidates per call gives the decisions and the count of Jaccards
            // of merging them one by one.
            for batch in [1, 2, 7] {
                assert_eq!(
                    run(chunk, 1, None, DIRECT, batch),
                    one_thread,
                    "chunk {chunk}, batches of {batch}"
                );
            }
            let within = run(chunk, 1, Some(known), DIRECT, BATCH);
            assert_eq!(
                decisions(&within),
                decisions(&one_at_a_time),
                "chunk {chunk}, within components"
            );
            assert!(
                within.2 < one_thread.2,
                "chunk {chunk}: {} Jaccards within components, {} in all",
                within.2,
                one_thread.2
            );
            // Every component searched through the buckets, directly up to 3 kept
            // documents, or always directly: the same candidates.
            for direct in [0, 3, DIRECT, usize::MAX] {
                assert_eq!(
                    run(chunk, 4, Some(known), direct, BATCH),
                    within,
                    "chunk {chunk}, within components, direct to {direct}"
                );
            }
        }
    }

    /// Each document's verified component (the root of its union-find set), as the dedup
    /// pipeline labels them.
    fn component_labels(
        documents: usize,
        buckets: &BucketLists,
        sets: &ShingleSets,
        threshold: f64,
    ) -> Vec<u32> {
        let joined =
            verified_components(documents, buckets, sets, threshold, &Progress::new()).unwrap();
        let mut components = UnionFind::new(documents);
        for e in &joined.edges {
            components.union(e.a, e.b);
        }
        (0..documents as u32).map(|d| components.find(d)).collect()
    }

    /// The pass abandons a candidate's intersection once it cannot reach the threshold or tie
    /// the best so far; the result is still that of the plain greedy pass, which computes
    /// every candidate's full Jaccard: the same kept documents, the same assignment (ties to
    /// the earlier kept document) and the same Jaccards, bit for bit.
    #[test]
    fn bounded_jaccards_give_the_plain_greedy_result() {
        let mut corpus = chained_templates(3_000, 23);
        // Ties: a text t of one word (no space, letters a–m and digits), and t + " " + one of
        // two ten-letter tails of distinct letters from n–z. Each tail adds the same number of
        // shingles that t lacks (the window ending in the space, then ten that hold tail
        // letters), so the two Jaccards with t are equal, whatever t is. For some lengths of
        // t both extensions are kept (they are below t against each other) before t is
        // decided; which tail comes first in input order alternates. Under
        // `KeepRule::Highest` the keys below rank the second extension (in input order) first,
        // so a tie is won by the candidate met second, which must not be abandoned.
        let mut rng = crate::util::rng::SplitMix64::new(41);
        let mut ranked_keys: Vec<usize> = (0..corpus.len()).map(|d| corpus.text(d).len()).collect();
        const LETTERS: &[u8] = b"abcdefghijklm0123456789";
        for triple in 0..240 {
            let length = 8 + triple % 90;
            let text: String = (0..length)
                .map(|_| LETTERS[rng.below(LETTERS.len() as u64) as usize] as char)
                .collect();
            let tails = match triple % 2 {
                0 => ["nopqrstuvw", "zyxwvutsrq"],
                _ => ["zyxwvutsrq", "nopqrstuvw"],
            };
            for ((tail, name), key) in tails.iter().zip(["a", "b"]).zip([1_000_000, 1_000_001]) {
                corpus.push(&format!("tie{triple}{name}"), &format!("{text} {tail}"));
                ranked_keys.push(key);
            }
            corpus.push(&format!("tie{triple}"), &text);
            ranked_keys.push(text.len());
        }
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let documents = index.len();
        for (bands, rows, threshold, keep) in [
            (20, 5, 0.5, KeepRule::First),
            (20, 5, 0.8, KeepRule::Longest),
            (32, 4, 0.3, KeepRule::Highest),
            (20, 5, 0.5, KeepRule::Highest),
            (9, 13, 1.0, KeepRule::Longest),
        ] {
            let banding = BandingOptions {
                banding: Banding { bands, rows },
                max_bucket: None,
            };
            let buckets =
                bucket_lists(&index.signatures, &banding, None, &Progress::new()).unwrap();
            let keys: Vec<usize> = match keep {
                KeepRule::Highest => ranked_keys.clone(),
                _ => (0..documents).map(|d| corpus.text(d).len()).collect(),
            };
            let key = |d: u32| keys[d as usize];
            // The plain pass: documents in keep order, each compared in full with every kept
            // document that shares a bucket with it.
            let order = keep_order(documents, keep, key);
            let mut rank = vec![0u32; documents];
            for (position, &d) in order.iter().enumerate() {
                rank[d as usize] = position as u32;
            }
            let mut kept: Vec<bool> = vec![false; documents];
            let mut plain_center = vec![NONE; documents];
            let mut plain_jaccard = vec![f64::NAN; documents];
            // Ties won by a candidate met after the best so far (in document order).
            let mut tie_won_later = 0;
            for &d in &order {
                let mut best: Option<(f64, u32)> = None;
                for e in 0..documents as u32 {
                    if !kept[e as usize] || buckets.bands_hit(d, e) == 0 {
                        continue;
                    }
                    let j = jaccard(index.sets.get(d as usize), index.sets.get(e as usize));
                    if j < threshold {
                        continue;
                    }
                    match best {
                        Some((b, c)) if j == b => {
                            if rank[e as usize] < rank[c as usize] {
                                tie_won_later += 1;
                                best = Some((j, e));
                            }
                        }
                        Some((b, _)) if j < b => {}
                        _ => best = Some((j, e)),
                    }
                }
                match best {
                    Some((j, c)) => {
                        plain_center[d as usize] = c;
                        plain_jaccard[d as usize] = j;
                    }
                    None => kept[d as usize] = true,
                }
            }
            let case = format!("{bands}×{rows}, t = {threshold}, {keep:?}");
            let centered = center_clusters(
                documents,
                &buckets,
                None,
                &index.sets,
                threshold,
                keep,
                key,
                &Progress::new(),
            )
            .unwrap();
            // Within the verified components: the same result, bit for bit.
            let component = component_labels(documents, &buckets, &index.sets, threshold);
            let within = center_clusters_within(
                documents,
                &buckets,
                None,
                &index.sets,
                threshold,
                keep,
                key,
                Known {
                    component: &component,
                },
                &Progress::new(),
            )
            .unwrap();
            assert_eq!(within.clusters, centered.clusters, "{case}");
            assert!(
                within
                    .to_kept
                    .iter()
                    .zip(&centered.to_kept)
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
                "{case}"
            );
            assert!(within.jaccards <= centered.jaccards, "{case}");
            let removed = plain_center.iter().filter(|&&c| c != NONE).count();
            assert!(removed > 300, "{case}: {removed} removed");
            assert_eq!(centered.clusters.removed_documents(), removed, "{case}");
            for d in 0..documents as u32 {
                let cluster = centered.clusters.cluster_of(d);
                match plain_center[d as usize] {
                    NONE => assert!(
                        cluster.is_none_or(|c| centered.clusters.kept(c) == d),
                        "{case}: document {d} is kept"
                    ),
                    c => {
                        let cluster = cluster.expect("a removed document is in a cluster");
                        assert_eq!(centered.clusters.kept(cluster), c, "{case}: document {d}");
                        assert_eq!(
                            centered.to_kept[d as usize].to_bits(),
                            plain_jaccard[d as usize].to_bits(),
                            "{case}: document {d}"
                        );
                    }
                }
            }
            if keep == KeepRule::Highest {
                assert!(
                    tie_won_later > 5,
                    "{case}: {tie_won_later} ties decided by rank"
                );
            }
        }
    }
}
