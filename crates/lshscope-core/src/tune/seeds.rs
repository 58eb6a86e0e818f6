//! Seed spread: real candidate counts of a corpus under several MinHash seeds.
//!
//! The S-curve gives the expected candidate count of a banding as if pairs collided
//! independently. On real corpora they do not: pairs that share a frequent boilerplate collide
//! together, so the count swings with the seed far beyond the binomial. `tune --corpus --seeds S`
//! builds signatures for S seeds (the shingle sets are built once) and counts, for each seed,
//! the distinct candidate pairs of every row's banding ([`crate::minhash::collisions`]);
//! `--budget` then picks a banding whose count fits for the worst seed.
//!
//! Counted on a uniform sample of the corpus, every seed's count is scaled up from the same
//! documents, so the seeds' range does not show the sample's own error: a sample that missed
//! part of a template family is low for every seed. Each seed's count therefore carries the
//! 95 % interval of a count scaled from a document sample ([`PairScale::estimate`], the
//! explorer's cost view uses the same), and `--budget` holds for the top of the worst seed's
//! interval.

use rayon::prelude::*;
use serde::Serialize;

use crate::Result;
use crate::analysis::cost::PairScale;
use crate::analysis::sampled::Estimate;
use crate::jobs::Progress;
use crate::minhash::collisions::{
    CandidateGrowth, SweepLimits, candidate_growth, candidate_growth_with_degrees,
};
use crate::minhash::tune::fewest_near_the_best;
use crate::minhash::{Banding, Index, Signatures, SketchFamily, signatures_of_sets};

/// Signatures of one corpus (or a uniform sample of it) under several seeds.
#[derive(Debug, Clone)]
pub struct SeedCorpus {
    /// The corpus file, as the user named it.
    pub source: String,
    /// Documents in the corpus.
    pub population: usize,
    /// Documents counted: the sample, or all of them.
    pub documents: usize,
    /// The seeds, one set of signatures each, in the order given.
    pub seeds: Vec<u64>,
    /// The sketch family the signatures are drawn in.
    pub family: SketchFamily,
    signatures: Vec<Signatures>,
}

/// Candidate counts of one banding, one per seed, in corpus pairs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeedSpread {
    /// The seeds counted under, in the order of the lists below.
    pub seeds: Vec<u64>,
    /// Per seed: the candidate pairs of the corpus (the sample's count times
    /// [`SeedCorpus::pair_scale`] when sampled), or `None` where counting stopped at the work
    /// bound.
    pub candidates: Vec<Option<f64>>,
    /// Per seed: the 95 % interval (low, high) of the corpus's count when counted on a
    /// sample, the count itself at both ends when counted on every document.
    pub intervals: Vec<Option<(f64, f64)>>,
    /// Median, lowest and highest count over the seeds counted.
    pub median: Option<f64>,
    /// The lowest count over the seeds counted.
    pub min: Option<f64>,
    /// The highest count over the seeds counted.
    pub max: Option<f64>,
    /// The lowest and the highest end of the seeds' intervals: where the corpus's count lies
    /// for every seed, at 95 % each (`min` and `max` when not sampled).
    pub low: Option<f64>,
    /// The highest end of the seeds' intervals.
    pub high: Option<f64>,
    /// Corpus pairs per counted pair ([`SeedCorpus::pair_scale`]); above 1 when counted on a
    /// sample and scaled, so the values are estimates.
    pub pair_scale: f64,
}

impl SeedSpread {
    fn new(seeds: &[u64], estimates: Vec<Option<Estimate>>, pair_scale: f64) -> Self {
        let candidates: Vec<Option<f64>> = estimates.iter().map(|e| e.map(|e| e.value)).collect();
        let mut known: Vec<f64> = candidates.iter().flatten().copied().collect();
        known.sort_by(f64::total_cmp);
        let known_estimates = estimates.iter().flatten();
        let median = match known.len() {
            0 => None,
            n if n % 2 == 1 => Some(known[n / 2]),
            n => Some((known[n / 2 - 1] + known[n / 2]) / 2.0),
        };
        SeedSpread {
            seeds: seeds.to_vec(),
            median,
            min: known.first().copied(),
            max: known.last().copied(),
            low: known_estimates
                .clone()
                .map(|e| e.low)
                .min_by(f64::total_cmp),
            high: known_estimates.map(|e| e.high).max_by(f64::total_cmp),
            intervals: estimates
                .iter()
                .map(|e| e.map(|e| (e.low, e.high)))
                .collect(),
            candidates,
            pair_scale,
        }
    }

    /// True when the counts are estimates scaled up from a sample.
    pub fn estimated(&self) -> bool {
        self.pair_scale > 1.0
    }

    /// A count as the report shows it: thousands separated, `≈` when estimated.
    pub fn show(&self, count: f64) -> String {
        let n = crate::util::numfmt::thousands(count.round() as u64);
        if self.estimated() {
            format!("≈{n}")
        } else {
            n
        }
    }

    /// True when the counts vary across seeds more than independent collisions would make
    /// them: more than six Poisson standard deviations (of the counted pairs) between the
    /// lowest and the highest, and by more than half the lowest.
    pub fn beyond_chance(&self) -> bool {
        let (Some(min), Some(max), Some(median)) = (self.min, self.max, self.median) else {
            return false;
        };
        let counted = median / self.pair_scale;
        let sd = self.pair_scale * counted.max(1.0).sqrt();
        self.seeds.len() > 1 && max - min > 6.0 * sd && max > 1.5 * min
    }

    /// True when some seed's count is unknown (the work bound stopped it).
    pub fn incomplete(&self) -> bool {
        self.candidates.iter().any(Option::is_none)
    }
}

/// A banding whose candidate count fits a budget for every seed.
#[derive(Debug, Clone, PartialEq)]
pub struct WithinBudget {
    /// The banding that fits.
    pub banding: Banding,
    /// Its candidate count under each seed.
    pub spread: SeedSpread,
}

impl SeedCorpus {
    /// Signatures for each of `seeds` over the shingle sets of `index` (the index's own
    /// signatures serve its seed). `population` is the number of documents in the corpus the
    /// index was sampled from (its own length when not sampled).
    pub fn new(
        source: String,
        population: usize,
        index: &Index,
        seeds: &[u64],
        progress: &Progress,
    ) -> Result<Self> {
        Self::in_family(
            source,
            population,
            index,
            seeds,
            index.options.family,
            progress,
        )
    }

    /// [`SeedCorpus::new`] with the signatures drawn in `family` instead of the index's own
    /// (what another tool's family does to the same documents and seeds).
    pub fn in_family(
        source: String,
        population: usize,
        index: &Index,
        seeds: &[u64],
        family: SketchFamily,
        progress: &Progress,
    ) -> Result<Self> {
        let k = index.options.num_perm;
        let signatures = seeds
            .iter()
            .map(|&seed| {
                if seed == index.options.seed && family == index.options.family {
                    Ok(index.signatures.clone())
                } else {
                    signatures_of_sets(&index.sets, family, k, seed, progress)
                }
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(SeedCorpus {
            source,
            population: population.max(index.len()),
            documents: index.len(),
            seeds: seeds.to_vec(),
            family,
            signatures,
        })
    }

    /// How many corpus pairs one pair of the sample stands for: a uniform sample of n of N
    /// documents holds each pair with probability n(n−1) / (N(N−1)), so a count of sample
    /// pairs divided by it is an unbiased estimate of the corpus's count (1 when not sampled).
    pub fn pair_scale(&self) -> f64 {
        self.scale().factor()
    }

    fn scale(&self) -> PairScale {
        PairScale::new(self.documents, self.population)
    }

    /// True when the counts come from a sample of the documents rather than all of them.
    pub fn sampled(&self) -> bool {
        self.documents < self.population
    }

    /// The candidate count of `banding` under every seed.
    pub fn spread(&self, banding: Banding, progress: &Progress) -> Result<SeedSpread> {
        let growths = self.growths(banding.rows, banding.bands, u64::MAX, progress)?;
        Ok(self.spread_of(&growths, banding.bands))
    }

    /// For each row count r, the most bands whose candidate count stays within `budget` (in
    /// corpus pairs) for every seed, the top of its 95 % interval when counted on a sample;
    /// the S-curve rises with b at fixed r, so that b is the best banding of its r. `rank`
    /// scores a banding (higher is better: expected recall or P(t)); the best-scoring one is
    /// returned, ties going to the smaller worst-seed count, then to fewer hashes. A seed
    /// whose count the work bound left unknown does not fit.
    pub fn best_within_budget(
        &self,
        num_perm: usize,
        budget: f64,
        rank: impl Fn(usize, usize) -> f64 + Sync,
        progress: &Progress,
    ) -> Result<Option<WithinBudget>> {
        let scale = self.scale();
        // An estimate is at least its scaled count, so no sample count above this fits.
        let stop_above = (budget / scale.factor()).floor().max(0.0) as u64;
        let per_rows: Vec<Option<(usize, usize, SeedSpread)>> = (1..=num_perm)
            .into_par_iter()
            .map(|rows| {
                let growths = self.growths(rows, num_perm / rows, stop_above, progress)?;
                // The interval's top grows with b (the count and every degree do).
                let fits = growths
                    .iter()
                    .map(|g| {
                        (1..=g.cumulative.len())
                            .take_while(|&b| self.estimate(g, b).is_some_and(|e| e.high <= budget))
                            .count()
                    })
                    .min()
                    .unwrap_or(0);
                Ok((fits > 0).then(|| (fits, rows, self.spread_of(&growths, fits))))
            })
            .collect::<Result<_>>()?;
        // The worst seed's count decides among the ranks near the best.
        let best = fewest_near_the_best(
            per_rows
                .into_iter()
                .flatten()
                .map(|(b, r, spread)| (rank(b, r), spread.max.unwrap_or(0.0), b, r, spread)),
        );
        Ok(best.map(|(bands, rows, spread)| WithinBudget {
            banding: Banding { bands, rows },
            spread,
        }))
    }

    fn growths(
        &self,
        rows: usize,
        max_bands: usize,
        stop_above: u64,
        progress: &Progress,
    ) -> Result<Vec<CandidateGrowth>> {
        let limits = SweepLimits {
            stop_above,
            ..SweepLimits::default()
        };
        // Degrees (for the interval) only when the counts are scaled from a sample.
        let sampled = self.sampled();
        self.signatures
            .par_iter()
            .map(|sigs| match sampled {
                true => candidate_growth_with_degrees(sigs, rows, max_bands, limits, progress),
                false => candidate_growth(sigs, rows, max_bands, limits, progress),
            })
            .collect()
    }

    /// The corpus's count of `bands` × rows from one seed's sweep, `None` where the sweep did
    /// not reach it (every listed count is exact).
    fn estimate(&self, growth: &CandidateGrowth, bands: usize) -> Option<Estimate> {
        let count = growth.candidates(bands)?;
        let two_paths = growth.two_paths.get(bands - 1).copied().unwrap_or(0);
        Some(self.scale().estimate(count, two_paths))
    }

    fn spread_of(&self, growths: &[CandidateGrowth], bands: usize) -> SeedSpread {
        let estimates = growths.iter().map(|g| self.estimate(g, bands)).collect();
        SeedSpread::new(&self.seeds, estimates, self.pair_scale())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{BandingOptions, IndexOptions, build_index, find_candidates};

    fn corpus() -> Corpus {
        let texts: Vec<String> = (0..600)
            .map(|i| match i % 4 {
                0 => format!("boilerplate footer for listing {} in the catalogue", i % 30),
                1 => "one notice copied verbatim across the whole site".to_string(),
                _ => format!("unrelated words {i} {} and {}", i * 31 % 89, i * 17 % 83),
            })
            .collect();
        Corpus::from_texts(texts.iter().map(String::as_str))
    }

    fn seed_corpus(seeds: &[u64]) -> SeedCorpus {
        let options = IndexOptions {
            num_perm: 32,
            ..IndexOptions::default()
        };
        let index = build_index(&corpus(), &options, &Progress::new()).unwrap();
        SeedCorpus::new("test".into(), index.len(), &index, seeds, &Progress::new()).unwrap()
    }

    /// The candidate count a scan with `seed` finds (no bucket cap), as a listing.
    fn scanned(indexes: &[(u64, Index)], seed: u64, banding: Banding) -> u64 {
        let index = &indexes.iter().find(|(s, _)| *s == seed).unwrap().1;
        let options = BandingOptions {
            banding,
            max_bucket: None,
        };
        find_candidates(&index.signatures, &options, &Progress::new())
            .unwrap()
            .pairs
            .len() as u64
    }

    fn indexes(seeds: &[u64]) -> Vec<(u64, Index)> {
        seeds
            .iter()
            .map(|&seed| {
                let options = IndexOptions {
                    num_perm: 32,
                    seed,
                    ..IndexOptions::default()
                };
                (
                    seed,
                    build_index(&corpus(), &options, &Progress::new()).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn spread_counts_what_a_scan_with_each_seed_finds() {
        let seeds = [1, 2, 3, 4];
        let sc = seed_corpus(&seeds);
        let banding = Banding { bands: 8, rows: 3 };
        let spread = sc.spread(banding, &Progress::new()).unwrap();
        let indexes = indexes(&seeds);
        for (i, &seed) in seeds.iter().enumerate() {
            assert_eq!(
                spread.candidates[i],
                Some(scanned(&indexes, seed, banding) as f64)
            );
        }
        assert!(!spread.estimated());
        assert!(spread.min <= spread.median && spread.median <= spread.max);
    }

    #[test]
    fn each_seed_is_drawn_in_the_index_s_sketch_family() {
        use crate::minhash::SketchFamily;
        let options = IndexOptions {
            num_perm: 32,
            family: SketchFamily::OnePermutation,
            ..IndexOptions::default()
        };
        let index = build_index(&corpus(), &options, &Progress::new()).unwrap();
        let sc = SeedCorpus::new(
            "test".into(),
            index.len(),
            &index,
            &[1, 5],
            &Progress::new(),
        )
        .unwrap();
        let rebuilt = IndexOptions {
            seed: 5,
            ..options.clone()
        };
        let rebuilt = build_index(&corpus(), &rebuilt, &Progress::new()).unwrap();
        assert_eq!(sc.signatures[1].rows(), rebuilt.signatures.rows());
        assert_eq!(sc.signatures[0].rows(), index.signatures.rows());

        // The same documents and seeds in another family: what that family's own index has,
        // the index's seed included (its signatures are not reused across families).
        let classic = SeedCorpus::in_family(
            "test".into(),
            index.len(),
            &index,
            &[1, 5],
            SketchFamily::Classic,
            &Progress::new(),
        )
        .unwrap();
        assert_eq!(classic.family, SketchFamily::Classic);
        for (i, seed) in [1, 5].into_iter().enumerate() {
            let own = IndexOptions {
                seed,
                family: SketchFamily::Classic,
                ..options.clone()
            };
            let own = build_index(&corpus(), &own, &Progress::new()).unwrap();
            assert_eq!(classic.signatures[i].rows(), own.signatures.rows());
        }
    }

    #[test]
    fn budget_holds_for_every_seed_and_is_the_best_rank() {
        let seeds = [1, 2, 3];
        let sc = seed_corpus(&seeds);
        let indexes = indexes(&seeds);
        let rank = |b: usize, r: usize| crate::minhash::scurve::candidate_probability(0.6, b, r);
        // The fewest candidates any banding gives (identical copies always collide), then
        // budgets above it.
        let floor = sc
            .spread(Banding { bands: 1, rows: 32 }, &Progress::new())
            .unwrap()
            .max
            .unwrap();
        let mut worst = std::collections::HashMap::new();
        for budget in [floor * 1.05, floor * 1.5, floor * 4.0] {
            let pick = sc
                .best_within_budget(32, budget, rank, &Progress::new())
                .unwrap()
                .expect("a banding fits");
            for &seed in &seeds {
                assert!(
                    scanned(&indexes, seed, pick.banding) as f64 <= budget,
                    "seed {seed}"
                );
            }
            // No banding that ranks higher by more than the tie fits for every seed.
            let tie = crate::minhash::tune::BUDGET_RECALL_TIE_POINTS / 100.0;
            for (b, r) in crate::minhash::scurve::bandings(32) {
                if rank(b, r) > rank(pick.banding.bands, pick.banding.rows) + tie {
                    let worst = *worst.entry((b, r)).or_insert_with(|| {
                        seeds
                            .iter()
                            .map(|&s| scanned(&indexes, s, Banding { bands: b, rows: r }))
                            .max()
                            .unwrap()
                    });
                    assert!(
                        worst as f64 > budget,
                        "{b} × {r} fits {budget} and ranks higher"
                    );
                }
            }
        }
    }

    /// Template families of several sizes (members differ in a few slots) among unrelated
    /// documents: the shape whose counts a sample gets wrong for every seed at once.
    fn family_texts() -> Vec<String> {
        let mut rng = crate::util::rng::SplitMix64::new(11);
        let mut texts = Vec::new();
        for (family, size) in [240, 120, 60, 30, 30, 15, 15].into_iter().enumerate() {
            for _ in 0..size {
                let slot = |rng: &mut crate::util::rng::SplitMix64| rng.below(40);
                texts.push(format!(
                    "family {family} listing: unit {} on floor {}, {} rooms, contact desk {}",
                    slot(&mut rng),
                    slot(&mut rng),
                    slot(&mut rng),
                    slot(&mut rng)
                ));
            }
        }
        for i in 0..690 {
            texts.push(format!(
                "free text {i}: {} {} {}",
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64()
            ));
        }
        texts
    }

    #[test]
    fn sampled_seed_counts_carry_intervals_that_cover_the_corpus_count() {
        let texts = family_texts();
        let options = IndexOptions {
            num_perm: 32,
            ..IndexOptions::default()
        };
        let seeds = [1, 2];
        let banding = Banding { bands: 8, rows: 4 };
        let whole = build_index(
            &Corpus::from_texts(texts.iter().map(String::as_str)),
            &options,
            &Progress::new(),
        )
        .unwrap();
        let truth = SeedCorpus::new("all".into(), whole.len(), &whole, &seeds, &Progress::new())
            .unwrap()
            .spread(banding, &Progress::new())
            .unwrap();
        assert!(!truth.estimated());
        assert_eq!(truth.low, truth.min);

        let (trials, n) = (40, 400);
        let mut rng = crate::util::rng::SplitMix64::new(2026);
        let (mut covered, mut sums) = (0, [0.0; 2]);
        for _ in 0..trials {
            // A uniform sample without replacement: the first n of a shuffle.
            let mut order: Vec<usize> = (0..texts.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            order.truncate(n);
            order.sort_unstable();
            let sample = Corpus::from_texts(order.iter().map(|&i| texts[i].as_str()));
            let index = build_index(&sample, &options, &Progress::new()).unwrap();
            let sc =
                SeedCorpus::new("s".into(), texts.len(), &index, &seeds, &Progress::new()).unwrap();
            let spread = sc.spread(banding, &Progress::new()).unwrap();
            assert!(spread.estimated());
            for (i, sum) in sums.iter_mut().enumerate() {
                let exact = truth.candidates[i].unwrap();
                let (low, high) = spread.intervals[i].unwrap();
                let value = spread.candidates[i].unwrap();
                assert!(low <= value && value <= high);
                covered += usize::from(low <= exact && exact <= high);
                *sum += value / exact;
            }
            assert!(spread.low.unwrap() <= spread.min.unwrap());
            assert!(spread.high.unwrap() >= spread.max.unwrap());
        }
        // Unbiased per seed; each interval covers its seed's count about 95 % of the time
        // (the normal approximation of a skewed count, so a margin: 68 of 80).
        for (i, sum) in sums.iter().enumerate() {
            let mean = sum / trials as f64;
            assert!(
                (mean - 1.0).abs() < 0.1,
                "seed {}: mean ratio {mean}",
                seeds[i]
            );
        }
        assert!(covered >= 68, "covered {covered} of {}", 2 * trials);
    }

    #[test]
    fn a_sampled_budget_holds_for_the_top_of_the_interval() {
        let texts = family_texts();
        let options = IndexOptions {
            num_perm: 32,
            ..IndexOptions::default()
        };
        let sample = Corpus::from_texts(texts.iter().step_by(3).map(String::as_str));
        let index = build_index(&sample, &options, &Progress::new()).unwrap();
        let sc =
            SeedCorpus::new("s".into(), texts.len(), &index, &[1, 2], &Progress::new()).unwrap();
        let rank = |b: usize, r: usize| crate::minhash::scurve::candidate_probability(0.6, b, r);
        let budget = 20_000.0;
        let pick = sc
            .best_within_budget(32, budget, rank, &Progress::new())
            .unwrap()
            .expect("a banding fits");
        assert!(pick.spread.high.unwrap() <= budget, "{:?}", pick.spread);
        // One more band at the same rows breaks it at the interval's top, or none is left.
        let more = Banding {
            bands: pick.banding.bands + 1,
            rows: pick.banding.rows,
        };
        if more.bands * more.rows <= 32 {
            let spread = sc.spread(more, &Progress::new()).unwrap();
            assert!(spread.high.unwrap() > budget, "{more:?}: {spread:?}");
        }
    }

    #[test]
    fn a_sample_scales_pairs_to_the_corpus() {
        let mut sc = seed_corpus(&[1]);
        sc.population = 2 * sc.documents;
        let n = sc.documents as f64;
        let expected = (2.0 * n) * (2.0 * n - 1.0) / (n * (n - 1.0));
        assert!((sc.pair_scale() - expected).abs() < 1e-9);
        let spread = sc
            .spread(Banding { bands: 4, rows: 4 }, &Progress::new())
            .unwrap();
        assert!(spread.estimated());
    }
}
