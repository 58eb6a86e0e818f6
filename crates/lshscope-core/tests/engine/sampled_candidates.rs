//! The sampled mode of re-banding: estimated histograms of distinct candidate pairs against
//! the exact ones (enumerated on corpora small enough), and the pair sampler's uniformity.
//! Seeds are fixed, so outcomes are deterministic; tolerances are stated where they are set.

use std::collections::HashMap;

use lshscope_core::analysis::histogram::SimilarityHistogram;
use lshscope_core::analysis::sampled::CandidateEstimate;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, Index, IndexOptions, build_index};
use lshscope_core::pipeline::bucketed::{BandCache, JaccardCache};
use lshscope_core::pipeline::rebanding::{reband, sample_candidates};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};

fn template_index(docs: usize, identical: usize, family: usize, seed: u64) -> Index {
    let corpus = generate_templated(&TemplateOptions {
        docs,
        seed,
        identical_group: identical,
        template_family: family,
        max_family: family.max(50),
        ..Default::default()
    })
    .corpus;
    build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap()
}

const BINS: usize = 20;

/// How often estimated intervals covered the exact counts, over runs.
#[derive(Default)]
struct Coverage {
    asked: usize,
    covered: usize,
    totals_covered: usize,
    runs: usize,
}

impl Coverage {
    /// One estimate against the exact histogram and total of the same banding.
    fn add(&mut self, e: &CandidateEstimate, exact: &SimilarityHistogram, exact_total: usize) {
        self.runs += 1;
        self.totals_covered += usize::from(e.total.covers(exact_total as f64));
        for bin in 0..BINS {
            // Bins where both are empty say nothing (and are covered trivially).
            if exact.counts[bin] == 0 && e.hits[bin] == 0 {
                continue;
            }
            self.asked += 1;
            self.covered += usize::from(e.bins[bin].covers(exact.counts[bin] as f64));
        }
    }

    /// 95 % intervals: about 95 % of bins covered where a bin holds many draws; bins with a
    /// handful of draws are covered less often by a normal interval, so the bar is 85 %.
    fn check(&self) {
        let rate = self.covered as f64 / self.asked as f64;
        eprintln!(
            "coverage {}/{} = {rate:.3}; totals {}/{}",
            self.covered, self.asked, self.totals_covered, self.runs
        );
        assert!(self.asked >= 100, "{} bins compared", self.asked);
        assert!(
            rate >= 0.85,
            "coverage {}/{} = {rate:.3}",
            self.covered,
            self.asked
        );
        assert!(
            self.totals_covered as f64 >= 0.8 * self.runs as f64,
            "totals covered {}/{}",
            self.totals_covered,
            self.runs
        );
    }
}

#[test]
fn estimated_histograms_agree_with_the_exact_ones_within_their_intervals() {
    // A template corpus (families, copies) of a few thousand documents: small enough to
    // enumerate every candidate, sampled anyway.
    let index = template_index(3000, 120, 250, 11);
    let cache = BandCache::new();
    let jaccards = JaccardCache::new();
    let mut coverage = Coverage::default();
    for (b, r) in [(20, 5), (16, 8), (32, 4), (10, 10), (64, 2)] {
        let banding = Banding::new(b, r, 128).unwrap();
        let exact_pairs = reband(&index, banding, None, None, None, &Progress::new()).unwrap();
        let exact =
            SimilarityHistogram::from_values(exact_pairs.iter().map(|p| (p.jaccard, None)), BINS);
        let buckets = cache.buckets(&index, banding, &Progress::new()).unwrap();
        assert!(buckets.occurrences() >= exact_pairs.len() as u64);
        for seed in [1u64, 2, 3] {
            let sampled = sample_candidates(
                &index,
                &buckets,
                20_000,
                seed,
                BINS,
                &jaccards,
                &Progress::new(),
            )
            .unwrap();
            assert_eq!(sampled.estimate.draws, 20_000);
            coverage.add(&sampled.estimate, &exact, exact_pairs.len());
            // The listed pairs are real candidates with their exact similarities.
            for p in sampled.pairs.iter().take(200) {
                let i = exact_pairs
                    .binary_search_by(|q| (q.a, q.b).cmp(&(p.a, p.b)))
                    .expect("a sampled pair is a candidate");
                assert_eq!(exact_pairs[i].jaccard, p.jaccard);
                assert_eq!(exact_pairs[i].bands_hit, p.bands_hit);
            }
        }
    }
    coverage.check();
}

#[test]
fn the_pair_sample_is_uniform_over_distinct_candidates() {
    // Small enough that each distinct pair is seen many times over the repetitions.
    let index = template_index(300, 25, 40, 5);
    let banding = Banding::new(16, 4, 128).unwrap();
    let exact = reband(&index, banding, None, None, None, &Progress::new()).unwrap();
    let n = exact.len();
    assert!(n > 300, "{n} candidate pairs");
    let buckets = BandCache::new()
        .buckets(&index, banding, &Progress::new())
        .unwrap();
    let jaccards = JaccardCache::new();
    let mut seen: HashMap<(u32, u32), u32> = HashMap::new();
    let repetitions = 300;
    // Draws per repetition so that a pair is listed in roughly a third of them.
    let draws = (buckets.occurrences() as f64 * 0.4) as usize;
    let mut listed = 0usize;
    for seed in 0..repetitions {
        let s = sample_candidates(
            &index,
            &buckets,
            draws,
            1000 + seed,
            BINS,
            &jaccards,
            &Progress::new(),
        )
        .unwrap();
        listed += s.pairs.len();
        for p in &s.pairs {
            *seen.entry((p.a, p.b)).or_default() += 1;
        }
    }
    // Every distinct pair is listed with the same probability q: inclusion counts are
    // Binomial(R, q), and their chi-square over the n pairs is n − 1 ± √(2(n − 1)).
    let q = listed as f64 / (repetitions as f64 * n as f64);
    let expected = repetitions as f64 * q;
    let variance = expected * (1.0 - q);
    let chi2: f64 = exact
        .iter()
        .map(|p| {
            let k = seen.get(&(p.a, p.b)).copied().unwrap_or(0) as f64;
            (k - expected).powi(2) / variance
        })
        .sum();
    let z = (chi2 - (n - 1) as f64) / (2.0 * (n - 1) as f64).sqrt();
    assert!(z.abs() < 4.0, "chi-square z = {z:.2} (n = {n}, q = {q:.3})");
    // Pairs colliding in many bands are no likelier than others: the mean bands hit of the
    // listed pairs is that of all candidates (a sampler weighting by occurrences fails here).
    let mean_hit = |pairs: &mut dyn Iterator<Item = (u32, f64)>| {
        let (s, c) = pairs.fold((0.0, 0.0), |(s, c), (h, w)| (s + h as f64 * w, c + w));
        s / c
    };
    let exact_mean = mean_hit(&mut exact.iter().map(|p| (p.bands_hit, 1.0)));
    let by_pair: HashMap<(u32, u32), u32> =
        exact.iter().map(|p| ((p.a, p.b), p.bands_hit)).collect();
    // (Indexing `by_pair` also checks that every listed pair is a candidate.)
    let sampled_mean = mean_hit(&mut seen.iter().map(|(k, &c)| (by_pair[k], c as f64)));
    let by_occurrence = mean_hit(&mut exact.iter().map(|p| (p.bands_hit, p.bands_hit as f64)));
    assert!(
        (sampled_mean - exact_mean).abs() < 0.02 * exact_mean,
        "sampled {sampled_mean:.3} vs exact {exact_mean:.3}"
    );
    assert!(
        (by_occurrence - exact_mean).abs() > 0.1 * exact_mean,
        "the corpus must tell a uniform sampler from an occurrence-weighted one"
    );
}

#[test]
fn a_first_estimate_from_some_of_the_bands_covers_the_exact_counts() {
    // The first answer after a step that must build many bands samples the first k of the b
    // bands (two-stage: bands, then occurrences). Which bands come first depends on the hash
    // seed, so the coverage is measured over indexes of one corpus with different seeds.
    let corpus = generate_templated(&TemplateOptions {
        docs: 2500,
        seed: 5,
        identical_group: 80,
        template_family: 200,
        max_family: 200,
        ..Default::default()
    })
    .corpus;
    let mut coverage = Coverage::default();
    for seed in 1..=12u64 {
        let options = IndexOptions {
            seed,
            ..Default::default()
        };
        let index = build_index(&corpus, &options, &Progress::new()).unwrap();
        for (b, r, k) in [(16, 4, 6), (32, 2, 8)] {
            let banding = Banding::new(b, r, 128).unwrap();
            let exact_pairs = reband(&index, banding, None, None, None, &Progress::new()).unwrap();
            let exact = SimilarityHistogram::from_values(
                exact_pairs.iter().map(|p| (p.jaccard, None)),
                BINS,
            );
            // k bands cached, and a deadline already past: the buckets stop at those k.
            let cache = BandCache::new();
            cache
                .buckets(&index, Banding::new(k, r, 128).unwrap(), &Progress::new())
                .unwrap();
            let first = cache
                .buckets_by(
                    &index,
                    banding,
                    Some(std::time::Instant::now()),
                    &Progress::new(),
                )
                .unwrap();
            assert_eq!(first.bands_built(), k);
            let sampled = sample_candidates(
                &index,
                &first,
                20_000,
                seed,
                BINS,
                &JaccardCache::new(),
                &Progress::new(),
            )
            .unwrap();
            assert_eq!(sampled.estimate.bands, (k, b));
            coverage.add(&sampled.estimate, &exact, exact_pairs.len());
            // Listed pairs are candidates of the whole banding, with its bands hit.
            for p in sampled.pairs.iter().take(200) {
                let i = exact_pairs
                    .binary_search_by(|q| (q.a, q.b).cmp(&(p.a, p.b)))
                    .expect("a sampled pair is a candidate");
                assert_eq!(exact_pairs[i].bands_hit, p.bands_hit);
            }
        }
    }
    // Nominal 95 %; the between-band spread rests on k values (a t interval); the bars are
    // those of the one-stage test.
    coverage.check();
}
