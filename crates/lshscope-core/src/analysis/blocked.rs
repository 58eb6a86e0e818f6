//! The exact distribution of the pairs at or above a Jaccard threshold, given a partition of the
//! documents into blocks (the template families `gen --families` writes, or any clustering):
//! for corpora whose big families make the plain join ([`super::truth`]) quadratic.
//!
//! The pairs fall in two disjoint parts, each counted exactly:
//! - **within blocks**, every pair is compared. Members with identical shingle sets are one
//!   set with a multiplicity (m copies are m(m − 1)/2 pairs at Jaccard 1 without a merge), and
//!   two distinct sets of multiplicities m and m′ stand for m·m′ pairs of one Jaccard, computed
//!   by the verification's kernel (`jaccards_at_least`, AVX-512 where the CPU has it);
//! - **across blocks**, the prefix-filtering join of [`plan_join_across_blocks`], which skips
//!   each probe's own block and finds every pair of different blocks at or above T.
//!
//! A pair of documents is in exactly one part, so the sum is the count of the plain join, and
//! the Jaccard values are the very ones it computes: the distribution is exact, not sampled.

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;

use crate::corpus::Corpus;
use crate::jobs::{Phase, Progress};
use crate::minhash::scurve::candidate_probability;
use crate::minhash::{IdenticalGroups, ShingleSets, jaccards_at_least};
use crate::{Error, Result};

use super::truth::{JoinStats, JoinWork, TruthPair, plan_join_across_blocks};

/// The exact pairs at or above a threshold, as a distribution of their Jaccard values.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockedJoin {
    /// The threshold T ∈ (0, 1]: every pair with Jaccard ≥ T is counted.
    pub threshold: f64,
    /// Every distinct Jaccard value ≥ T with the number of pairs that have it, ascending.
    pub distribution: Vec<(f64, u64)>,
    /// Blocks with at least one document with shingles.
    pub blocks: usize,
    /// Pairs ≥ T inside one block.
    pub within: u64,
    /// Of those, pairs of identical (non-empty) shingle sets, counted without a merge.
    pub within_identical: u64,
    /// Pairs of distinct sets inside one block that were merged (each stands for the product
    /// of the two sets' multiplicities).
    pub within_merged: u64,
    /// The pairs ≥ T across blocks, sorted by (a, b).
    pub across: Vec<TruthPair>,
    /// The cross-block join's work estimate.
    pub work: JoinWork,
    /// What the cross-block join scanned and verified.
    pub stats: JoinStats,
}

impl BlockedJoin {
    /// The number of pairs with Jaccard ≥ `t` (t ≥ [`Self::threshold`]).
    pub fn pairs_at_or_above(&self, t: f64) -> u64 {
        self.distribution
            .iter()
            .filter(|&&(j, _)| j >= t)
            .map(|&(_, n)| n)
            .sum()
    }

    /// The recall of a banding of `bands` × `rows` at `t` (≥ [`Self::threshold`]): the mean
    /// of P(s) = 1 − (1 − s^r)^b over the pairs with Jaccard s ≥ t; `None` without such pairs.
    pub fn expected_recall(&self, t: f64, bands: usize, rows: usize) -> Option<f64> {
        let (mut sum, mut pairs) = (0.0, 0u64);
        for &(j, n) in self.distribution.iter().filter(|&&(j, _)| j >= t) {
            sum += n as f64 * candidate_probability(j, bands, rows);
            pairs += n;
        }
        (pairs > 0).then(|| sum / pairs as f64)
    }
}

/// Counts every pair with Jaccard ≥ `threshold` ∈ (0, 1] exactly, inside the blocks
/// (`blocks[d]`: the block of document `d`) and across them. With `budget_seconds`, the
/// cross-block join is refused as the plain one is when its estimate is beyond the budget.
pub fn blocked_join(
    sets: &ShingleSets,
    blocks: &[u32],
    threshold: f64,
    budget_seconds: Option<f64>,
    progress: &Progress,
) -> Result<BlockedJoin> {
    let plan = plan_join_across_blocks(sets, threshold, blocks, progress)?;
    if let Some(budget) = budget_seconds {
        plan.check_budget(budget)?;
    }
    let (across, stats) = plan.run(progress)?;
    let work = plan.work;
    drop(plan);
    let within = within_blocks(sets, blocks, threshold, progress)?;
    let mut counts = within.counts;
    for p in &across {
        *counts.entry(p.jaccard.to_bits()).or_default() += 1;
    }
    let mut distribution: Vec<(f64, u64)> = counts
        .into_iter()
        .map(|(bits, n)| (f64::from_bits(bits), n))
        .collect();
    distribution.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    Ok(BlockedJoin {
        threshold,
        distribution,
        blocks: within.blocks,
        within: within.pairs,
        within_identical: within.identical,
        within_merged: within.merged,
        across,
        work,
        stats,
    })
}

/// What [`within_blocks`] found: pairs by the bits of their Jaccard.
struct Within {
    counts: HashMap<u64, u64>,
    blocks: usize,
    pairs: u64,
    identical: u64,
    merged: u64,
}

/// A distinct shingle set of a block: a document holding it and how many members hold it.
#[derive(Debug, Clone, Copy)]
struct Distinct {
    doc: u32,
    copies: u64,
}

/// Every pair inside each block compared exactly, identical sets once with their multiplicity.
fn within_blocks(
    sets: &ShingleSets,
    blocks: &[u32],
    threshold: f64,
    progress: &Progress,
) -> Result<Within> {
    let identical = IdenticalGroups::find(sets);
    // Documents with shingles by (block, identical set): each block a run, each set a run in it.
    let mut docs: Vec<u32> = (0..sets.len() as u32)
        .filter(|&d| !sets.get(d as usize).is_empty())
        .collect();
    docs.par_sort_unstable_by_key(|&d| (blocks[d as usize], identical.representative(d), d));
    let mut distinct: Vec<Distinct> = Vec::new();
    // Each block's distinct sets, `distinct[start..end]`.
    let mut block_ranges: Vec<(usize, usize)> = Vec::new();
    let (mut identical_pairs, mut i) = (0u64, 0usize);
    while i < docs.len() {
        let block = blocks[docs[i] as usize];
        let start = distinct.len();
        while i < docs.len() && blocks[docs[i] as usize] == block {
            let rep = identical.representative(docs[i]);
            let mut copies = 0u64;
            let doc = docs[i];
            while i < docs.len()
                && blocks[docs[i] as usize] == block
                && identical.representative(docs[i]) == rep
            {
                copies += 1;
                i += 1;
            }
            identical_pairs += copies * (copies - 1) / 2;
            distinct.push(Distinct { doc, copies });
        }
        block_ranges.push((start, distinct.len()));
    }
    drop(docs);
    // One unit of work: a distinct set against the block's sets after it.
    let units: Vec<(usize, usize)> = block_ranges
        .iter()
        .flat_map(|&(start, end)| (start..end).map(move |k| (k, end)))
        .collect();
    progress.begin(Phase::Verifying, units.len() as u64);
    let (mut counts, merged) = units
        .par_chunks(64)
        .map_init(
            || (Vec::new(), Vec::new()),
            |(others, out), chunk| -> Result<(HashMap<u64, u64>, u64)> {
                progress.check()?;
                let mut counts: HashMap<u64, u64> = HashMap::new();
                let mut merged = 0u64;
                for &(k, end) in chunk {
                    let x = distinct[k];
                    others.clear();
                    others.extend(
                        distinct[k + 1..end]
                            .iter()
                            .map(|y| sets.get(y.doc as usize)),
                    );
                    merged += others.len() as u64;
                    jaccards_at_least(sets.get(x.doc as usize), others, threshold, out);
                    for (y, j) in distinct[k + 1..end].iter().zip(out.iter()) {
                        if let Some(j) = j {
                            *counts.entry(j.to_bits()).or_default() += x.copies * y.copies;
                        }
                    }
                }
                progress.advance(chunk.len() as u64);
                Ok((counts, merged))
            },
        )
        .try_reduce(
            || (HashMap::new(), 0),
            |(mut a, m), (b, n)| {
                if a.len() < b.len() {
                    return Ok(merge_counts(b, a, m + n));
                }
                Ok(merge_counts(std::mem::take(&mut a), b, m + n))
            },
        )?;
    if identical_pairs > 0 {
        *counts.entry(1.0f64.to_bits()).or_default() += identical_pairs;
    }
    let pairs = counts.values().sum();
    Ok(Within {
        counts,
        blocks: block_ranges.len(),
        pairs,
        identical: identical_pairs,
        merged,
    })
}

/// `into` with the counts of `from` added, and `merged`.
fn merge_counts(
    mut into: HashMap<u64, u64>,
    from: HashMap<u64, u64>,
    merged: u64,
) -> (HashMap<u64, u64>, u64) {
    for (bits, n) in from {
        *into.entry(bits).or_default() += n;
    }
    (into, merged)
}

/// Reads a partition of `corpus` into blocks: a CSV file (possibly .gz/.zst) with a header,
/// the document id in the column `id` (else the first) and its block's label in the column
/// `family`, `block` or `cluster` (else the second): any text, documents with equal labels
/// share a block. A document the file does not name is a block of its own. Returns the
/// block of every document, numbered from 0.
pub fn read_blocks(path: &Path, corpus: &Corpus) -> Result<Vec<u32>> {
    let reader = crate::io::input::open_input(path)?;
    let mut csv = crate::io::header_csv::HeaderCsv::new(reader, path, true)?;
    let column = |names: &[&str], fallback: usize| {
        names
            .iter()
            .find_map(|name| csv.column(name))
            .unwrap_or(fallback)
    };
    let (id_column, block_column) = (
        column(&["id"], 0),
        column(&["family", "block", "cluster"], 1),
    );
    if csv.column_count() < 2 || id_column == block_column {
        return Err(Error::input(
            path,
            1,
            format!(
                "a blocks file needs two columns, the document id and its block (a header such \
                 as `id,family`); found: {}",
                csv.header_text()
            ),
        ));
    }
    let mut positions: HashMap<&str, u32> = HashMap::with_capacity(corpus.len());
    for d in 0..corpus.len() {
        positions.entry(corpus.id(d)).or_insert(d as u32);
    }
    const UNNAMED: u32 = u32::MAX;
    let mut blocks = vec![UNNAMED; corpus.len()];
    let mut labels: HashMap<String, u32> = HashMap::new();
    while let Some((line, record)) = csv.next_row()? {
        let (Some(id), Some(label)) = (record.get(id_column), record.get(block_column)) else {
            return Err(Error::input(path, line, "a row without its id or block"));
        };
        let Some(&d) = positions.get(id) else {
            return Err(Error::input(
                path,
                line,
                format!(
                    "`{}` is not an id of the corpus ({} documents)",
                    crate::io::excerpt::excerpt(id),
                    corpus.len()
                ),
            ));
        };
        if blocks[d as usize] != UNNAMED {
            return Err(Error::input(
                path,
                line,
                format!("`{}` is listed twice", crate::io::excerpt::excerpt(id)),
            ));
        }
        let next = labels.len() as u32;
        blocks[d as usize] = *labels.entry(label.to_string()).or_insert(next);
    }
    let unnamed = blocks.iter_mut().filter(|b| **b == UNNAMED);
    for (next, b) in (labels.len() as u32..).zip(unnamed) {
        *b = next;
    }
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::truth::brute_force_join;
    use crate::minhash::{IndexOptions, build_index};
    use crate::synthetic::templated::{TemplateOptions, generate_templated};
    use crate::text::{ShingleKind, ShingleOptions};
    use crate::util::rng::SplitMix64;

    /// The brute-force pairs as a distribution, and those whose blocks differ.
    fn reference(sets: &ShingleSets, blocks: &[u32], t: f64) -> (Vec<(f64, u64)>, Vec<TruthPair>) {
        let pairs = brute_force_join(sets, t);
        let mut counts: HashMap<u64, u64> = HashMap::new();
        for p in &pairs {
            *counts.entry(p.jaccard.to_bits()).or_default() += 1;
        }
        let mut distribution: Vec<(f64, u64)> = counts
            .into_iter()
            .map(|(b, n)| (f64::from_bits(b), n))
            .collect();
        distribution.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let across = pairs
            .into_iter()
            .filter(|p| blocks[p.a as usize] != blocks[p.b as usize])
            .collect();
        (distribution, across)
    }

    /// On template families with copies, a planted group and a planted family, the count by
    /// blocks equals the brute-force join pair for pair: by the generator's families (few
    /// pairs across), by a random partition (most similar pairs across, so skipping the
    /// cross-block part fails), by one block and by one block per document.
    #[test]
    fn the_count_by_blocks_equals_the_brute_force_join() {
        let generated = generate_templated(&TemplateOptions {
            docs: 2500,
            seed: 4,
            max_family: 300,
            identical_group: 60,
            template_family: 90,
            ..TemplateOptions::default()
        });
        let options = IndexOptions {
            shingle: ShingleOptions {
                kind: ShingleKind::Word(1),
                ..ShingleOptions::default()
            },
            num_perm: 1,
            ..IndexOptions::default()
        };
        let p = Progress::new();
        let index = build_index(&generated.corpus, &options, &p).unwrap();
        let sets = &index.sets;
        let n = sets.len();
        let mut rng = SplitMix64::new(12);
        let random: Vec<u32> = (0..n).map(|_| rng.below(5) as u32).collect();
        let partitions = [
            ("families", generated.family.clone()),
            ("random", random),
            ("one block", vec![7; n]),
            ("singletons", (0..n as u32).collect()),
        ];
        for t in [0.5, 0.7, 0.9, 1.0] {
            for (name, blocks) in &partitions {
                let got = blocked_join(sets, blocks, t, None, &p).unwrap();
                let (distribution, across) = reference(sets, blocks, t);
                assert_eq!(got.distribution, distribution, "{name} at {t}");
                assert_eq!(got.across, across, "{name} at {t}");
                let total: u64 = distribution.iter().map(|&(_, c)| c).sum();
                assert_eq!(got.within + got.across.len() as u64, total, "{name} at {t}");
                assert_eq!(got.pairs_at_or_above(t), total);
                match *name {
                    "random" => assert!(
                        got.across.len() as u64 * 2 > total,
                        "{} of {total} across at {t}",
                        got.across.len()
                    ),
                    "families" => assert!(got.within_identical > 0 && got.within > 0),
                    "one block" => assert!(got.across.is_empty()),
                    _ => assert_eq!(got.within, 0),
                }
            }
        }
        // Recall from the distribution: the mean of P over the pairs.
        let got = blocked_join(sets, &generated.family, 0.7, None, &p).unwrap();
        let pairs = brute_force_join(sets, 0.8);
        let mean = pairs
            .iter()
            .map(|q| candidate_probability(q.jaccard, 14, 9))
            .sum::<f64>()
            / pairs.len() as f64;
        let recall = got.expected_recall(0.8, 14, 9).unwrap();
        assert!((recall - mean).abs() < 1e-12, "{recall} {mean}");
        assert_eq!(got.pairs_at_or_above(0.8), pairs.len() as u64);
    }

    #[test]
    fn a_blocks_file_names_documents_by_id() {
        let corpus = Corpus::from_pairs([("a", "x"), ("b", "y"), ("c", "z"), ("d", "w")]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.csv");
        std::fs::write(&path, "family,id\n3,c\nx,a\n3,b\n").unwrap();
        // b and c share a block; a has its own; d, unnamed, another.
        assert_eq!(read_blocks(&path, &corpus).unwrap(), vec![1, 0, 0, 2]);
        std::fs::write(&path, "id,family\na,1\nq,1\n").unwrap();
        let err = read_blocks(&path, &corpus).unwrap_err().to_string();
        assert!(err.contains("`q` is not an id of the corpus"), "{err}");
        std::fs::write(&path, "id,family\na,1\na,2\n").unwrap();
        let err = read_blocks(&path, &corpus).unwrap_err().to_string();
        assert!(err.contains("listed twice") && err.contains(":3"), "{err}");
    }
}
