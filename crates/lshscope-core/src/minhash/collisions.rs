//! Distinct candidate pairs of bandings, counted without listing them.
//!
//! Band k of a banding b × r reads rows k·r..(k+1)·r of the signatures whatever b is, so the
//! candidates of b × r are those of (b − 1) × r plus the pairs that first collide in band b − 1.
//! One sweep over the bands of a row count r therefore gives the candidate count of every b at
//! once: a pair is counted in the first band where its r values agree (checked against the
//! earlier bands from the two signatures), so each distinct pair counts once however many bands
//! it shares. The tuner uses this to report real candidate counts per seed and to hold a
//! budget for the worst seed.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::banding::{Banding, band_keys, pairs_among};
use super::index::Signatures;
use crate::Result;
use crate::jobs::Progress;

/// Why a sweep stopped before its last band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SweepStop {
    /// The candidate count passed the limit asked for: the last count listed is above it.
    AboveLimit,
    /// The bucket pairs to examine passed the work bound: the next band was not counted, so
    /// only the bandings listed are known.
    WorkBound,
}

/// Candidate counts of b × `rows` for b = 1, 2, …: `cumulative[b − 1]` is the exact number of
/// distinct candidate pairs of the banding b × rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateGrowth {
    /// r, the rows per band of every banding counted.
    pub rows: usize,
    /// `cumulative[b − 1]`: distinct candidate pairs of b × rows; non-decreasing in b, and only
    /// as long as the bands that were counted.
    pub cumulative: Vec<u64>,
    /// `bucket_pairs[b − 1]`: bucket-pair occurrences of b × rows (document pairs sharing a
    /// bucket, counted once per band they share one in), for the bands counted.
    pub bucket_pairs: Vec<u64>,
    /// With [`candidate_growth_with_degrees`]: `two_paths[b − 1]` is Σ d(d − 1) over the
    /// documents, d being a document's number of candidate partners under b × rows (ordered
    /// pairs of candidate pairs that share a document). Empty otherwise.
    pub two_paths: Vec<u64>,
    /// `None`: every band asked for was counted.
    pub stopped: Option<SweepStop>,
}

impl CandidateGrowth {
    /// The exact candidate count of `bands` × rows, when the sweep reached it.
    pub fn candidates(&self, bands: usize) -> Option<u64> {
        bands
            .checked_sub(1)
            .and_then(|i| self.cumulative.get(i))
            .copied()
    }
}

/// Limits of one sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepLimits {
    /// Stop after the first band whose cumulative count exceeds this.
    pub stop_above: u64,
    /// Stop before a band that would take the bucket pairs examined (over all bands so far,
    /// with multiplicity) past this; each costs a comparison of two signatures.
    pub max_bucket_pairs: u64,
}

impl Default for SweepLimits {
    fn default() -> Self {
        SweepLimits {
            stop_above: u64::MAX,
            max_bucket_pairs: DEFAULT_MAX_BUCKET_PAIRS,
        }
    }
}

/// About a minute of comparisons on one core: beyond it a count is reported as unknown rather
/// than made the user wait. A sample of documents (pairs fall with its square) brings large
/// corpora under it.
pub const DEFAULT_MAX_BUCKET_PAIRS: u64 = 2_000_000_000;

/// Sweeps bands 0, 1, … (at most `max_bands`) of `rows` rows each over `sigs` and counts the
/// distinct candidate pairs of every b ≤ `max_bands`. Documents without shingles never
/// collide, as in [`super::find_candidates`] without a bucket cap, whose pair count this equals.
pub fn candidate_growth(
    sigs: &Signatures,
    rows: usize,
    max_bands: usize,
    limits: SweepLimits,
    progress: &Progress,
) -> Result<CandidateGrowth> {
    sweep::<false>(sigs, rows, max_bands, limits, progress, &mut |_| {})
}

/// [`candidate_growth`] that also counts, for every b, how candidate pairs pile up on shared
/// documents ([`CandidateGrowth::two_paths`]): what the variance of a pair count scaled up
/// from a sample of documents depends on (a document in many candidate pairs takes all of
/// them in or out of the sample at once).
pub fn candidate_growth_with_degrees(
    sigs: &Signatures,
    rows: usize,
    max_bands: usize,
    limits: SweepLimits,
    progress: &Progress,
) -> Result<CandidateGrowth> {
    sweep::<true>(sigs, rows, max_bands, limits, progress, &mut |_| {})
}

/// [`candidate_growth_with_degrees`] that tells `on_band` the work of each band swept (its
/// documents keyed plus its bucket pairs compared), for a caller that reports progress in
/// that unit (the cost grid).
pub fn candidate_growth_with_degrees_reporting(
    sigs: &Signatures,
    rows: usize,
    max_bands: usize,
    limits: SweepLimits,
    progress: &Progress,
    on_band: &mut dyn FnMut(u64),
) -> Result<CandidateGrowth> {
    sweep::<true>(sigs, rows, max_bands, limits, progress, on_band)
}

/// Bucket-pair occurrences of band `band` of `banding`: Σ m(m − 1)/2 over its buckets.
pub fn band_bucket_pairs(sigs: &Signatures, banding: Banding, band: usize) -> u64 {
    let keys = band_keys(sigs, banding, band);
    bucket_ranges(&keys)
        .iter()
        .map(|&(s, e)| pairs_among((e - s) as u64))
        .sum()
}

fn sweep<const DEGREES: bool>(
    sigs: &Signatures,
    rows: usize,
    max_bands: usize,
    limits: SweepLimits,
    progress: &Progress,
    on_band: &mut dyn FnMut(u64),
) -> Result<CandidateGrowth> {
    let banding = Banding::new(max_bands, rows, sigs.num_perm())?;
    let mut growth = CandidateGrowth {
        rows,
        cumulative: Vec::with_capacity(max_bands),
        bucket_pairs: Vec::with_capacity(max_bands),
        two_paths: Vec::new(),
        stopped: None,
    };
    // Candidate partners per document so far (only when counting two-paths).
    let degrees: Vec<AtomicU32> = if DEGREES {
        (0..sigs.len()).map(|_| AtomicU32::new(0)).collect()
    } else {
        Vec::new()
    };
    let mut total = 0u64;
    let mut two_paths = 0u64;
    let mut examined = 0u64;
    for band in 0..max_bands {
        progress.check()?;
        let keys = band_keys(sigs, banding, band);
        let buckets = bucket_ranges(&keys);
        let pairs: u64 = buckets
            .iter()
            .map(|&(s, e)| pairs_among((e - s) as u64))
            .sum();
        if examined.saturating_add(pairs) > limits.max_bucket_pairs {
            growth.stopped = Some(SweepStop::WorkBound);
            break;
        }
        examined += pairs;
        let first_here = AtomicU64::new(0);
        let paths_here = AtomicU64::new(0);
        buckets.par_iter().for_each(|&(s, e)| {
            let (mut count, mut paths) = (0u64, 0u64);
            for x in s..e {
                let a = sigs.row(keys[x].1 as usize);
                for y in &keys[x + 1..e] {
                    let b = sigs.row(y.1 as usize);
                    if !agree_in_a_band_before(a, b, rows, band) {
                        count += 1;
                        if DEGREES {
                            // Σ d(d − 1) grows by 2d when a document's d becomes d + 1.
                            for doc in [keys[x].1, y.1] {
                                let d = degrees[doc as usize].fetch_add(1, Ordering::Relaxed);
                                paths += 2 * d as u64;
                            }
                        }
                    }
                }
            }
            first_here.fetch_add(count, Ordering::Relaxed);
            paths_here.fetch_add(paths, Ordering::Relaxed);
        });
        on_band((keys.len() as u64).saturating_add(pairs));
        total += first_here.into_inner();
        growth.cumulative.push(total);
        growth.bucket_pairs.push(examined);
        if DEGREES {
            two_paths += paths_here.into_inner();
            growth.two_paths.push(two_paths);
        }
        if total > limits.stop_above {
            if band + 1 < max_bands {
                growth.stopped = Some(SweepStop::AboveLimit);
            }
            break;
        }
    }
    Ok(growth)
}

/// The runs of equal keys with two or more documents, as index ranges of `keys`.
fn bucket_ranges(keys: &[(u64, u32)]) -> Vec<(usize, usize)> {
    let mut start = 0;
    keys.chunk_by(|x, y| x.0 == y.0)
        .filter_map(|run| {
            let range = (start, start + run.len());
            start = range.1;
            (run.len() >= 2).then_some(range)
        })
        .collect()
}

/// True when the two signature rows agree on all `rows` values of some band before `band`.
#[inline]
fn agree_in_a_band_before(a: &[u32], b: &[u32], rows: usize, band: usize) -> bool {
    a[..band * rows]
        .chunks_exact(rows)
        .zip(b[..band * rows].chunks_exact(rows))
        .any(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{BandingOptions, IndexOptions, build_index, find_candidates};

    fn template_index() -> crate::minhash::Index {
        // Families of near-copies (one word changed) and identical copies: buckets of many
        // sizes, pairs that share many bands.
        let texts: Vec<String> = (0..1500)
            .map(|i| match i % 5 {
                0 => "the same notice repeated word for word many times".to_string(),
                1 | 2 => format!(
                    "a shipping template for order {} with a short note number {}",
                    i % 40,
                    i % 7
                ),
                _ => format!("free text {i} {} {}", i * 7 % 101, i * 13 % 97),
            })
            .chain(["".to_string(), "".to_string()])
            .collect();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let options = IndexOptions {
            num_perm: 64,
            ..IndexOptions::default()
        };
        build_index(&corpus, &options, &Progress::new()).unwrap()
    }

    #[test]
    fn counts_equal_the_listed_candidates_for_every_b() {
        let index = template_index();
        for rows in [1, 2, 3, 5, 8] {
            let max_bands = 64 / rows;
            let growth = candidate_growth(
                &index.signatures,
                rows,
                max_bands,
                SweepLimits::default(),
                &Progress::new(),
            )
            .unwrap();
            assert_eq!(growth.stopped, None);
            assert_eq!(growth.cumulative.len(), max_bands);
            for bands in [1, 2, max_bands / 2, max_bands] {
                let listed = find_candidates(
                    &index.signatures,
                    &BandingOptions {
                        banding: Banding { bands, rows },
                        max_bucket: None,
                    },
                    &Progress::new(),
                )
                .unwrap();
                assert_eq!(
                    growth.candidates(bands),
                    Some(listed.pairs.len() as u64),
                    "{bands} × {rows}"
                );
            }
        }
    }

    #[test]
    fn bucket_pairs_and_two_paths_match_the_listing() {
        let index = template_index();
        for rows in [1, 3] {
            let max_bands = 64 / rows;
            let growth = candidate_growth_with_degrees(
                &index.signatures,
                rows,
                max_bands,
                SweepLimits::default(),
                &Progress::new(),
            )
            .unwrap();
            for bands in [1, max_bands / 2, max_bands] {
                let listed = find_candidates(
                    &index.signatures,
                    &BandingOptions {
                        banding: Banding { bands, rows },
                        max_bucket: None,
                    },
                    &Progress::new(),
                )
                .unwrap();
                assert_eq!(growth.bucket_pairs[bands - 1], listed.bucket_pairs);
                let mut degree = vec![0u64; index.len()];
                for p in &listed.pairs {
                    degree[p.a as usize] += 1;
                    degree[p.b as usize] += 1;
                }
                let two_paths: u64 = degree.iter().map(|d| d * d.saturating_sub(1)).sum();
                assert_eq!(growth.two_paths[bands - 1], two_paths, "{bands} × {rows}");
                let band = bands - 1;
                let one_band = band_bucket_pairs(&index.signatures, Banding { bands, rows }, band);
                let before = if band == 0 {
                    0
                } else {
                    growth.bucket_pairs[band - 1]
                };
                assert_eq!(one_band, growth.bucket_pairs[band] - before);
            }
        }
        // Without degrees the counts are the same and no two-paths are kept.
        let plain = candidate_growth(
            &index.signatures,
            3,
            21,
            SweepLimits::default(),
            &Progress::new(),
        )
        .unwrap();
        assert!(plain.two_paths.is_empty());
        assert_eq!(plain.bucket_pairs.len(), 21);
    }

    #[test]
    fn stops_above_the_limit_and_at_the_work_bound() {
        let index = template_index();
        let full = candidate_growth(
            &index.signatures,
            2,
            32,
            SweepLimits::default(),
            &Progress::new(),
        )
        .unwrap();
        let limit = full.cumulative[10];
        let stopped = candidate_growth(
            &index.signatures,
            2,
            32,
            SweepLimits {
                stop_above: limit,
                ..SweepLimits::default()
            },
            &Progress::new(),
        )
        .unwrap();
        assert_eq!(stopped.stopped, Some(SweepStop::AboveLimit));
        assert!(*stopped.cumulative.last().unwrap() > limit);
        assert_eq!(
            stopped.cumulative[..],
            full.cumulative[..stopped.cumulative.len()]
        );

        let bounded = candidate_growth(
            &index.signatures,
            2,
            32,
            SweepLimits {
                max_bucket_pairs: 1,
                ..SweepLimits::default()
            },
            &Progress::new(),
        )
        .unwrap();
        assert_eq!(bounded.stopped, Some(SweepStop::WorkBound));
        assert!(bounded.cumulative.is_empty());
        assert_eq!(bounded.candidates(1), None);
    }
}
