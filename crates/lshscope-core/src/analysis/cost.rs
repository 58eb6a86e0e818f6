//! The cost of every banding before moving there: for each (b, r) with b·r ≤ K, the candidate
//! pairs the corpus gives, what the explorer would hold in memory for them, P(t), and whether
//! the explorer has to sample them.
//!
//! The counts come from the corpus itself, not from the S-curve: real corpora have template
//! families whose members collide together, so the binomial expectation is far off. The
//! signatures of a uniform sample of n of the N documents are swept once per row count r
//! ([`candidate_growth_with_degrees`](crate::minhash::collisions::candidate_growth_with_degrees), the tuner's counting engine), which gives the exact
//! distinct candidate pairs of the sample for every b at once; a count c of sample pairs is
//! scaled to the corpus by the inclusion probability of a pair, q₂ = n(n−1) / (N(N−1)).
//!
//! The interval of a scaled count is the Horvitz–Thompson variance under sampling documents
//! without replacement, estimated from the sample: pairs enter the sample with probability
//! q₂, and two candidate pairs sharing a document enter together with probability
//! q₃ = n(n−1)(n−2) / (N(N−1)(N−2)), so
//! Var ≈ c (1 − q₂) / q₂² + P (1/q₂² − 1/q₃), P = Σ d(d−1) over the sample's documents with
//! d candidate partners each (the covariance of disjoint pairs, slightly negative without
//! replacement, is left out, which widens the interval a little). A template family
//! makes some documents' d large, and the interval widens with it, as it should: whether the
//! sample caught that family's members decides the count.

use rayon::prelude::*;

use super::sampled::Estimate;
use crate::Result;
use crate::jobs::{Phase, Progress};
use crate::minhash::collisions::{
    CandidateGrowth, SweepLimits, band_bucket_pairs, candidate_growth_with_degrees_reporting,
};
use crate::minhash::scurve::candidate_probability;
use crate::minhash::{Banding, CandidatePair, Signatures, VerifiedPair};
use crate::util::rng::SplitMix64;
use crate::util::stats::Z_95;

/// What the grid is computed from and what the explorer's limits are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostOptions {
    /// Documents sampled to count on (all of them when the corpus has no more).
    pub sample: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// t of P(t).
    pub threshold: f64,
    /// The explorer enumerates a banding's candidates when its bucket pairs are at most this
    /// many, else samples them (`Sampling::enumeration_budget` of the explorer).
    pub enumeration_budget: u64,
    /// Pairs the sampled mode keeps for its list (`Sampling::refined_draws`).
    pub sampled_draws: usize,
    /// Work bound of one row count's sweep, in bucket pairs of the sample: beyond it the
    /// count of the larger b is left unknown (bounded by its bucket pairs) rather than make
    /// the user wait.
    pub max_bucket_pairs: u64,
}

impl Default for CostOptions {
    fn default() -> Self {
        CostOptions {
            sample: 20_000,
            seed: 0x5eed_c057,
            threshold: 0.5,
            enumeration_budget: 40_000_000,
            sampled_draws: 500_000,
            max_bucket_pairs: 50_000_000,
        }
    }
}

/// The distinct candidate pairs of one banding in the corpus.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PairCount {
    /// Counted on every document.
    Exact(u64),
    /// Scaled from the sample, with its 95 % interval.
    Estimated(Estimate),
    /// The sweep stopped at its work bound before this b: at most this many (the bucket
    /// pairs, scaled from the sample when sampled), since every candidate pair is at least
    /// one bucket pair.
    AtMost(f64),
}

impl PairCount {
    /// The count, or its upper bound when unknown: what the heatmap colours.
    pub fn value(&self) -> f64 {
        match *self {
            PairCount::Exact(n) => n as f64,
            PairCount::Estimated(e) => e.value,
            PairCount::AtMost(n) => n,
        }
    }
}

/// One banding's cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostCell {
    /// The b × r this cell is for.
    pub banding: Banding,
    /// Its distinct candidate pairs, counted exactly or estimated from the sample.
    pub pairs: PairCount,
    /// Bucket-pair occurrences over all bands (scaled when sampled): what enumerating the
    /// candidates would emit, and what decides the explorer's mode.
    pub bucket_pairs: f64,
    /// What the explorer holds for this banding's candidates, beyond the index (the same for
    /// every banding); see [`memory_bytes`].
    pub memory_bytes: u64,
    /// P(t) = 1 − (1 − tʳ)ᵇ.
    pub p_at_t: f64,
    /// The bucket pairs exceed the explorer's enumeration budget: it shows this banding's
    /// candidates in its sampled mode (estimated histogram, a sample of pairs).
    pub needs_sampled: bool,
}

/// Every banding b × r with b·r ≤ K.
#[derive(Debug, Clone, PartialEq)]
pub struct CostGrid {
    /// K, the signature length: the grid holds every b × r with b·r ≤ K.
    pub num_perm: usize,
    /// Documents in the corpus.
    pub population: usize,
    /// Documents counted on (the sample, or all of them).
    pub documents: usize,
    /// The t at which every cell's [`CostCell::p_at_t`] is computed; change it with
    /// [`CostGrid::set_threshold`].
    pub threshold: f64,
    /// By r, then b: `cells[offset(r) + b − 1]`.
    cells: Vec<CostCell>,
    offsets: Vec<usize>,
}

impl CostGrid {
    /// The cell of `bands` × `rows`, when b·r ≤ K.
    pub fn cell(&self, bands: usize, rows: usize) -> Option<&CostCell> {
        if bands == 0 || rows == 0 || bands * rows > self.num_perm {
            return None;
        }
        self.cells.get(self.offsets[rows - 1] + bands - 1)
    }

    /// Every cell, by r then b.
    pub fn cells(&self) -> &[CostCell] {
        &self.cells
    }

    /// The most bands a banding of `rows` rows can have: ⌊K / r⌋.
    pub fn max_bands(&self, rows: usize) -> usize {
        self.num_perm / rows.max(1)
    }

    /// True when the counts come from a sample of the documents rather than all of them.
    pub fn sampled(&self) -> bool {
        self.documents < self.population
    }

    /// P(t) of every cell at a new `threshold` (the counts do not depend on it).
    pub fn set_threshold(&mut self, threshold: f64) {
        self.threshold = threshold;
        for c in &mut self.cells {
            c.p_at_t = candidate_probability(threshold, c.banding.bands, c.banding.rows);
        }
    }
}

/// The signatures of `n` documents drawn uniformly without replacement from `sigs` (input
/// order kept), or all of them when `n` is not smaller.
pub fn sample_signatures(sigs: &Signatures, n: usize, seed: u64) -> Signatures {
    let total = sigs.len();
    if n >= total {
        return sigs.clone();
    }
    // Floyd's algorithm: n draws, no array of N.
    let mut rng = SplitMix64::new(seed);
    let mut chosen = std::collections::HashSet::with_capacity(n);
    for j in (total - n)..total {
        let t = rng.below(j as u64 + 1) as usize;
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    let mut picked: Vec<usize> = chosen.into_iter().collect();
    picked.sort_unstable();
    let k = sigs.num_perm();
    let mut rows = Vec::with_capacity(n * k);
    let mut empty = Vec::with_capacity(n);
    for &i in &picked {
        rows.extend_from_slice(sigs.row(i));
        empty.push(sigs.is_empty_doc(i));
    }
    Signatures::from_rows(k, rows, empty).expect("n rows of K values")
}

/// What the explorer holds for a banding's candidates, beyond the index.
///
/// Enumerated (the exact mode): the bucket pairs of every band as one `u64` each while they
/// are grouped, then each distinct candidate as a [`CandidatePair`] and a [`VerifiedPair`].
/// Sampled: the buckets, at most 8 bytes per document and band for members and their
/// cumulative multiplicities plus 12 per bucket (at most one bucket per two documents), 9 per
/// document for the identical groups, and the sampled pairs kept for the list.
pub fn memory_bytes(
    banding: Banding,
    documents: usize,
    bucket_pairs: f64,
    pairs: f64,
    sampled: bool,
    sampled_draws: usize,
) -> u64 {
    let bytes = if sampled {
        let n = documents as f64;
        (8.0 + 6.0) * n * banding.bands as f64
            + 9.0 * n
            + (sampled_draws * std::mem::size_of::<VerifiedPair>()) as f64
    } else {
        8.0 * bucket_pairs
            + (std::mem::size_of::<CandidatePair>() + std::mem::size_of::<VerifiedPair>()) as f64
                * pairs
    };
    bytes.min(u64::MAX as f64) as u64
}

/// The cost of every banding of K = `sample.num_perm()` hashes in a corpus of `population`
/// documents, counted on `sample` (signatures of a uniform sample of the corpus, or of all of
/// it; see [`sample_signatures`]).
pub fn cost_grid(
    sample: &Signatures,
    population: usize,
    options: &CostOptions,
    progress: &Progress,
) -> Result<CostGrid> {
    let k = sample.num_perm();
    let n = sample.len();
    let population = population.max(n);
    let scale = PairScale::new(n, population);
    // Phase 1 sizes the work of each r from its first band; phase 2 counts, reporting that
    // work as it is done. A count of r values done would read 95 % while the few small r,
    // whose buckets are largest, still run.
    // Both in one unit (a document keyed or a pair compared): sizing keys one band per r,
    // counting is re-weighed once sizing has measured it.
    let sizing = (n * k) as f64;
    // Counting is larger by far (every band of every r, and the pairs compared): planned
    // generously, so that re-weighing it moves the fraction forward rather than holding it.
    progress.plan(&[(Phase::Sizing, sizing), (Phase::Banding, sizing * 100.0)]);
    progress.begin(Phase::Sizing, k as u64);
    let mut work: Vec<(usize, u64)> = (1..=k)
        .into_par_iter()
        .map(|rows| {
            progress.check()?;
            let w = rows_work(sample, rows, options.max_bucket_pairs);
            progress.advance(1);
            Ok((rows, w))
        })
        .collect::<Result<_>>()?;
    // The heaviest first, so that no long one starts last and runs alone at the end.
    work.sort_unstable_by_key(|&(rows, w)| (std::cmp::Reverse(w), rows));
    let counting: u64 = work.iter().map(|&(_, w)| w).sum();
    progress.reweigh(Phase::Banding, counting as f64);
    progress.begin(Phase::Banding, counting);
    let mut per_rows: Vec<(usize, Vec<CostCell>)> = work
        .par_iter()
        .with_max_len(1)
        .map(|&(rows, w)| {
            progress.check()?;
            // Band by band as the sweep reports them, up to this r's expected work; what is
            // left of it when the r is done.
            let mut reported = 0u64;
            let mut on_band = |units: u64| {
                let step = units.min(w - reported);
                reported += step;
                progress.advance(step);
            };
            let cells = cells_of_rows(
                sample,
                rows,
                population,
                &scale,
                options,
                progress,
                &mut on_band,
            )?;
            progress.advance(w - reported);
            Ok((rows, cells))
        })
        .collect::<Result<_>>()?;
    per_rows.sort_unstable_by_key(|(rows, _)| *rows);
    let mut offsets = Vec::with_capacity(k);
    let mut cells = Vec::new();
    for (_, row) in per_rows {
        offsets.push(cells.len());
        cells.extend(row);
    }
    Ok(CostGrid {
        num_perm: k,
        population,
        documents: n,
        threshold: options.threshold,
        cells,
        offsets,
    })
}

/// The expected work of counting every banding with `rows` rows: one pass over the
/// documents per band, plus the bucket pairs compared (each band's about as many as the
/// first one's, up to the sweep's bound, and as much again for the smaller sample a
/// bounded sweep falls back to). One unit is one document keyed or one pair compared.
fn rows_work(sample: &Signatures, rows: usize, max_bucket_pairs: u64) -> u64 {
    let max_bands = sample.num_perm() / rows;
    let banding = Banding {
        bands: max_bands,
        rows,
    };
    let first = band_bucket_pairs(sample, banding, 0);
    let pairs = first.saturating_mul(max_bands as u64);
    let compared = if pairs > max_bucket_pairs {
        max_bucket_pairs.saturating_mul(2)
    } else {
        pairs
    };
    (sample.len() as u64)
        .saturating_mul(max_bands as u64)
        .saturating_add(compared)
}

/// How the pairs of a uniform sample of n of N documents (without replacement) stand for the
/// corpus's pairs: the scale factor and the interval of a scaled count (the module's text has
/// the variance). `tune --corpus` scales its per-seed counts with it too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairScale {
    /// Probability that a given corpus pair is in the sample: n(n−1) / (N(N−1)).
    q2: f64,
    /// Probability that three given documents are: n(n−1)(n−2) / (N(N−1)(N−2)).
    q3: f64,
    whole: bool,
}

impl PairScale {
    /// `n` documents sampled of `population` (the whole corpus when n ≥ N).
    pub fn new(n: usize, population: usize) -> Self {
        let (n, big) = (n as f64, population as f64);
        let whole = n >= big || n < 2.0;
        let q2 = if whole {
            1.0
        } else {
            n * (n - 1.0) / (big * (big - 1.0))
        };
        let q3 = if whole || n < 3.0 {
            q2
        } else {
            q2 * (n - 2.0) / (big - 2.0)
        };
        PairScale { q2, q3, whole }
    }

    /// True when the sample is the whole corpus: counts are exact.
    pub fn whole(&self) -> bool {
        self.whole
    }

    /// Corpus pairs one sample pair stands for, 1/q₂ (1 for the whole corpus).
    pub fn factor(&self) -> f64 {
        1.0 / self.q2
    }

    /// `sample_pairs` of the sample scaled to the corpus, with its 95 % interval;
    /// `two_paths` is Σ d(d − 1) over the sample's documents ([`CandidateGrowth::two_paths`]).
    /// The whole corpus gives the count itself, an interval of width zero.
    pub fn estimate(&self, sample_pairs: u64, two_paths: u64) -> Estimate {
        let c = sample_pairs as f64;
        if self.whole {
            return Estimate {
                value: c,
                low: c,
                high: c,
            };
        }
        let (q2, q3) = (self.q2, self.q3);
        let variance =
            (c * (1.0 - q2) / (q2 * q2) + two_paths as f64 * (1.0 / (q2 * q2) - 1.0 / q3)).max(0.0);
        let value = c / q2;
        let half = Z_95 * variance.sqrt();
        Estimate {
            value,
            // The corpus holds at least the pairs the sample saw.
            low: (value - half).max(c),
            high: value + half,
        }
    }

    fn count(&self, sample_pairs: u64, two_paths: u64) -> PairCount {
        match self.whole {
            true => PairCount::Exact(sample_pairs),
            false => PairCount::Estimated(self.estimate(sample_pairs, two_paths)),
        }
    }

    fn scaled(&self, sample_count: u64) -> f64 {
        sample_count as f64 / self.q2
    }
}

/// Documents below which a sub-sample is not worth counting on: its interval would say
/// little more than the bucket-pair bound.
const MIN_SUBSAMPLE: usize = 200;

/// The cells of every b at `rows` rows. Counted on `sample`; where that sweep stops at the
/// work bound, the remaining bandings are counted on a uniform sub-sample small enough to
/// fit it (pairs fall with the square of the documents), which is itself a uniform sample
/// of the corpus and is scaled as one.
fn cells_of_rows(
    sample: &Signatures,
    rows: usize,
    population: usize,
    scale: &PairScale,
    options: &CostOptions,
    progress: &Progress,
    on_band: &mut dyn FnMut(u64),
) -> Result<Vec<CostCell>> {
    let max_bands = sample.num_perm() / rows;
    let limits = SweepLimits {
        max_bucket_pairs: options.max_bucket_pairs,
        ..SweepLimits::default()
    };
    let growth = candidate_growth_with_degrees_reporting(
        sample, rows, max_bands, limits, progress, on_band,
    )?;
    // Bucket pairs of the bands the sweep did not reach, counted from bucket sizes alone.
    let mut bucket_pairs = growth.bucket_pairs.clone();
    if bucket_pairs.len() < max_bands {
        let banding = Banding {
            bands: max_bands,
            rows,
        };
        let mut total = bucket_pairs.last().copied().unwrap_or(0);
        for band in bucket_pairs.len()..max_bands {
            total = total.saturating_add(band_bucket_pairs(sample, banding, band));
            bucket_pairs.push(total);
        }
    }
    let mut smaller: Option<(CandidateGrowth, PairScale)> = None;
    let all = bucket_pairs.last().copied().unwrap_or(0);
    if growth.cumulative.len() < max_bands && all > 0 {
        let keep = (options.max_bucket_pairs as f64 / all as f64).sqrt() * 0.9;
        let n = (sample.len() as f64 * keep) as usize;
        if n >= MIN_SUBSAMPLE {
            let seed = options.seed ^ (rows as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let sub = sample_signatures(sample, n, seed);
            let grown = candidate_growth_with_degrees_reporting(
                &sub, rows, max_bands, limits, progress, on_band,
            )?;
            smaller = Some((grown, PairScale::new(n, population)));
        }
    }
    Ok((1..=max_bands)
        .map(|bands| {
            let banding = Banding { bands, rows };
            let occurrences = scale.scaled(bucket_pairs[bands - 1]);
            let from_smaller = smaller.as_ref().and_then(|(g, sc)| {
                g.candidates(bands)
                    .map(|c| sc.count(c, g.two_paths[bands - 1]))
            });
            let pairs = match (growth.candidates(bands), from_smaller) {
                (Some(c), _) => scale.count(c, growth.two_paths[bands - 1]),
                (None, Some(estimated)) => estimated,
                (None, None) => PairCount::AtMost(occurrences),
            };
            let needs_sampled = occurrences > options.enumeration_budget as f64;
            CostCell {
                banding,
                pairs,
                bucket_pairs: occurrences,
                memory_bytes: memory_bytes(
                    banding,
                    population,
                    occurrences,
                    pairs.value(),
                    needs_sampled,
                    options.sampled_draws,
                ),
                p_at_t: candidate_probability(options.threshold, bands, rows),
                needs_sampled,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{BandingOptions, Index, IndexOptions, build_index, find_candidates};

    /// Template families (near-copies), identical copies, loners and two empty documents.
    fn index(k: usize) -> Index {
        let texts: Vec<String> = (0..900)
            .map(|i| match i % 6 {
                0 => "a notice copied word for word across the pages".to_string(),
                1 | 2 => format!(
                    "listing template for item {} shipped from store {}",
                    i % 25,
                    i % 3
                ),
                _ => format!("free words {i} {} {} here", i * 7 % 103, i * 11 % 97),
            })
            .chain([String::new(), String::new()])
            .collect();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let options = IndexOptions {
            num_perm: k,
            ..IndexOptions::default()
        };
        build_index(&corpus, &options, &Progress::new()).unwrap()
    }

    fn listed(index: &Index, banding: Banding) -> crate::minhash::Candidates {
        find_candidates(
            &index.signatures,
            &BandingOptions {
                banding,
                max_bucket: None,
            },
            &Progress::new(),
        )
        .unwrap()
    }

    #[test]
    fn on_the_whole_corpus_every_cell_is_the_listed_count() {
        let index = index(24);
        let options = CostOptions {
            threshold: 0.6,
            enumeration_budget: 20_000,
            ..CostOptions::default()
        };
        let grid = cost_grid(&index.signatures, index.len(), &options, &Progress::new()).unwrap();
        assert!(!grid.sampled());
        let mut cells = 0;
        for rows in 1..=24 {
            for bands in 1..=24 / rows {
                let banding = Banding { bands, rows };
                let cell = grid.cell(bands, rows).unwrap();
                assert_eq!(cell.banding, banding);
                let candidates = listed(&index, banding);
                assert_eq!(
                    cell.pairs,
                    PairCount::Exact(candidates.pairs.len() as u64),
                    "{banding}"
                );
                assert_eq!(cell.bucket_pairs, candidates.bucket_pairs as f64);
                assert_eq!(
                    cell.needs_sampled,
                    candidates.bucket_pairs > options.enumeration_budget
                );
                let p = 1.0 - (1.0 - 0.6f64.powi(rows as i32)).powi(bands as i32);
                assert!((cell.p_at_t - p).abs() < 1e-12);
                cells += 1;
            }
        }
        assert_eq!(grid.cells().len(), cells);
        assert!(grid.cell(5, 5).is_none(), "25 > K");
        assert!(
            grid.cells().iter().any(|c| c.needs_sampled)
                && grid.cells().iter().any(|c| !c.needs_sampled),
            "the budget splits the grid"
        );
    }

    #[test]
    fn past_the_work_bound_a_sub_sample_counts_or_bucket_pairs_bound() {
        let index = index(16);
        let wide = Banding { bands: 16, rows: 1 };
        let candidates = listed(&index, wide);
        let truth = candidates.pairs.len() as f64;
        // The work bound stops 16 × 1 (a million bucket pairs) on all 902 documents; a
        // sub-sample of about a quarter fits it.
        let options = CostOptions {
            max_bucket_pairs: 100_000,
            ..CostOptions::default()
        };
        let grid = cost_grid(&index.signatures, index.len(), &options, &Progress::new()).unwrap();
        let PairCount::Estimated(e) = grid.cell(16, 1).unwrap().pairs else {
            panic!("a sub-sample's estimate");
        };
        assert!(e.low < e.value && e.value < e.high);
        assert!(
            e.value > 0.5 * truth && e.value < 2.0 * truth,
            "{e:?} vs {truth}"
        );
        // Bandings the first sweep reached stay exact.
        let small = grid.cell(1, 16).unwrap();
        assert_eq!(
            small.pairs,
            PairCount::Exact(listed(&index, Banding { bands: 1, rows: 16 }).pairs.len() as u64)
        );
        // A bound so low that no useful sub-sample fits: the bucket pairs bound the count.
        let tight = CostOptions {
            max_bucket_pairs: 50,
            ..CostOptions::default()
        };
        let grid = cost_grid(&index.signatures, index.len(), &tight, &Progress::new()).unwrap();
        let cell = grid.cell(16, 1).unwrap();
        assert_eq!(
            cell.pairs,
            PairCount::AtMost(candidates.bucket_pairs as f64)
        );
        assert!(cell.pairs.value() >= truth);
    }

    #[test]
    fn sampled_counts_cover_the_corpus_count() {
        let index = index(16);
        let banding = Banding { bands: 8, rows: 2 };
        let truth = listed(&index, banding).pairs.len() as f64;
        let (mut covered, trials) = (0, 40);
        let mut values = 0.0;
        for seed in 0..trials {
            let sample = sample_signatures(&index.signatures, 300, seed);
            assert_eq!(sample.len(), 300);
            let grid = cost_grid(
                &sample,
                index.len(),
                &CostOptions::default(),
                &Progress::new(),
            )
            .unwrap();
            assert!(grid.sampled());
            let PairCount::Estimated(e) = grid.cell(8, 2).unwrap().pairs else {
                panic!("a sample gives estimates");
            };
            assert!(e.low <= e.value && e.value <= e.high);
            covered += usize::from(e.covers(truth));
            values += e.value;
        }
        // Unbiased: the mean of the estimates is near the truth; the intervals cover it
        // about 95 % of the time (the normal approximation on a skewed count, so a margin).
        let mean = values / trials as f64;
        assert!((mean - truth).abs() < 0.1 * truth, "mean {mean} vs {truth}");
        assert!(covered >= 34, "covered {covered} of {trials}");
    }

    #[test]
    fn a_sample_keeps_input_order_and_distinct_documents() {
        // Row i holds the value i everywhere, so a sampled row names its document.
        let k = 4;
        let rows: Vec<u32> = (0..200u32).flat_map(|i| [i; 4]).collect();
        let sigs = Signatures::from_rows(k, rows, vec![false; 200]).unwrap();
        let sample = sample_signatures(&sigs, 50, 9);
        let picked: Vec<u32> = (0..50).map(|i| sample.row(i)[0]).collect();
        assert!(picked.windows(2).all(|w| w[0] < w[1]), "{picked:?}");
        assert_ne!(
            picked,
            (0..50).collect::<Vec<_>>(),
            "not just the first rows"
        );
        assert_eq!(sample_signatures(&sigs, 500, 9).len(), 200);
    }

    #[test]
    fn memory_follows_pairs_when_exact_and_documents_when_sampled() {
        let b = Banding { bands: 10, rows: 4 };
        let exact = memory_bytes(b, 1_000, 100.0, 60.0, false, 500_000);
        assert_eq!(exact, 800 + 60 * (12 + 32));
        let sampled = memory_bytes(b, 1_000, 1e12, 1e11, true, 0);
        assert_eq!(sampled, (14 * 1_000 * 10 + 9 * 1_000) as u64);
    }
}
