//! Candidates as pairs: every band's bucket pairs, merged into one sorted list with the
//! number of bands each pair collided in.

use std::time::Instant;

use rayon::prelude::*;

use super::keys::band_keys_among;
use super::stats::BucketStats;
use super::{BandingOptions, CandidatePair, Candidates, start_banding};
use crate::Result;
use crate::jobs::Progress;
use crate::minhash::index::Signatures;

struct BandResult {
    pairs: Vec<u64>,
    stats: BucketStats,
}

/// Candidate pairs of `sigs` under `options`: the union over bands of the pairs that share a
/// bucket, each with the number of bands it collided in. Parallel over bands.
pub fn find_candidates(
    sigs: &Signatures,
    options: &BandingOptions,
    progress: &Progress,
) -> Result<Candidates> {
    find_candidates_among(sigs, options, None, progress)
}

/// [`find_candidates`] among the documents `included` marks (all when `None`): with
/// identical copies collapsed, only their representatives.
pub fn find_candidates_among(
    sigs: &Signatures,
    options: &BandingOptions,
    included: Option<&[bool]>,
    progress: &Progress,
) -> Result<Candidates> {
    let (banding, cap) = start_banding(sigs, options, included, progress)?;
    let started = Instant::now();

    let per_band: Vec<BandResult> = (0..banding.bands)
        .into_par_iter()
        .map(|band| {
            progress.check()?;
            let keys = band_keys_among(sigs, banding, band, included);
            let mut out = BandResult {
                pairs: Vec::new(),
                stats: BucketStats::default(),
            };
            out.stats.walk(&keys, band, cap, |members| {
                for (i, &(_, a)) in members.iter().enumerate() {
                    for &(_, b) in &members[i + 1..] {
                        out.pairs.push(((a as u64) << 32) | b as u64);
                    }
                }
            });
            progress.advance(1);
            Ok(out)
        })
        .collect::<Result<_>>()?;

    let grouped_at = Instant::now();
    let mut result = Candidates {
        grouping_seconds: (grouped_at - started).as_secs_f64(),
        ..Default::default()
    };
    let totals = BucketStats::total(per_band.iter().map(|r| &r.stats));
    result.largest_buckets = totals.largest;
    result.capped_buckets = totals.capped;
    result.capped_bucket_count = totals.capped_count;
    result.pairs_dropped_by_cap = totals.dropped;
    progress.check()?;
    let band_pairs: Vec<Vec<u64>> = per_band.into_iter().map(|r| r.pairs).collect();
    result.bucket_pairs = band_pairs.iter().map(|p| p.len() as u64).sum();
    result.pairs = union_of_band_pairs(band_pairs, sigs.len());
    result.union_seconds = grouped_at.elapsed().as_secs_f64();
    Ok(result)
}
/// Merges the pairs of all bands (packed `a << 32 | b`) into sorted candidates, counting in
/// how many bands each pair appeared.
///
/// The pairs are first scattered into partitions by ranges of `a`, each small enough to sort
/// in cache, and the partitions are then sorted and run-length counted in parallel; their
/// concatenation is sorted by (a, b). One global sort of tens of millions of pairs would spend
/// most of its time waiting for memory.
pub(super) fn union_of_band_pairs(band_pairs: Vec<Vec<u64>>, docs: usize) -> Vec<CandidatePair> {
    let total: usize = band_pairs.iter().map(Vec::len).sum();
    if total == 0 {
        return Vec::new();
    }
    let parts = (total / 32_768).next_power_of_two().clamp(1, 1 << 14);
    let part_of = |p: u64| (((p >> 32) as usize * parts) / docs.max(1)).min(parts - 1);
    let mut starts = vec![0usize; parts + 1];
    for pairs in &band_pairs {
        for &p in pairs {
            starts[part_of(p) + 1] += 1;
        }
    }
    for i in 1..=parts {
        starts[i] += starts[i - 1];
    }
    let mut all = vec![0u64; total];
    let mut next = starts.clone();
    for pairs in band_pairs {
        for p in pairs {
            let slot = &mut next[part_of(p)];
            all[*slot] = p;
            *slot += 1;
        }
    }
    let mut slices: Vec<&mut [u64]> = Vec::with_capacity(parts);
    let mut rest: &mut [u64] = &mut all;
    for i in 0..parts {
        let (head, tail) = rest.split_at_mut(starts[i + 1] - starts[i]);
        slices.push(head);
        rest = tail;
    }
    // Sort each partition in place and count its distinct pairs, then write every partition
    // straight into its place in one exact-size result (no per-partition vectors to
    // concatenate: at tens of millions of pairs that copy would double the peak).
    let distinct: Vec<usize> = slices
        .par_iter_mut()
        .map(|slice| {
            slice.sort_unstable();
            slice.chunk_by(|x, y| x == y).count()
        })
        .collect();
    let mut result = vec![
        CandidatePair {
            a: 0,
            b: 0,
            bands_hit: 0
        };
        distinct.iter().sum()
    ];
    let mut outputs = Vec::with_capacity(parts);
    let mut rest: &mut [CandidatePair] = &mut result;
    for &d in &distinct {
        let (head, tail) = rest.split_at_mut(d);
        outputs.push(head);
        rest = tail;
    }
    slices
        .into_par_iter()
        .zip(outputs)
        .for_each(|(slice, out)| {
            for (run, slot) in slice.chunk_by(|x, y| x == y).zip(out.iter_mut()) {
                *slot = CandidatePair {
                    a: (run[0] >> 32) as u32,
                    b: run[0] as u32,
                    bands_hit: run.len() as u32,
                };
            }
        });
    result
}
