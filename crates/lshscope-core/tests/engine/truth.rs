//! The exact join against brute force, and measured recall against independent counts and
//! against the S-curve.

use std::collections::HashSet;
use std::path::Path;

use lshscope_core::analysis::recall::{measure_recall, missed_pairs, read_truth};
use lshscope_core::analysis::truth::{
    TruthPair, brute_force_join, plan_join, sample_pair_similarities, similarity_join,
};
use lshscope_core::corpus::{Corpus, ReadOptions, read_corpus};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::similarity::jaccard;
use lshscope_core::minhash::{
    Banding, BandingOptions, IndexOptions, ShingleSets, build_index, find_candidates,
};
use lshscope_core::synthetic::words::{GenOptions, generate};
use lshscope_core::text::ShingleOptions;
use lshscope_core::util::rng::SplitMix64;

/// A draw in [0, n) from the shared generator, by modulo (the mapping these tests were
/// written with, so their data stays the same).
fn below(rng: &mut SplitMix64, n: u64) -> u64 {
    rng.next_u64() % n
}

const THRESHOLDS: [f64; 7] = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

fn assert_join_is_exact(sets: &ShingleSets, label: &str) {
    let progress = Progress::new();
    for t in THRESHOLDS {
        let got = similarity_join(sets, t, &progress).unwrap();
        let want = brute_force_join(sets, t);
        assert_eq!(got.len(), want.len(), "{label}, T = {t}: pair count");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!((g.a, g.b), (w.a, w.b), "{label}, T = {t}");
            // Bit-for-bit the same Jaccard.
            assert_eq!(g.jaccard.to_bits(), w.jaccard.to_bits(), "{label}, T = {t}");
        }
    }
}

/// Random sets from a small skewed universe, with near-copies (to have pairs at every
/// similarity), exact copies, empty sets and one-element sets mixed in.
fn random_sets(seed: u64, n: usize) -> Vec<Vec<u64>> {
    let mut rng = SplitMix64::new(seed);
    let mut sets: Vec<Vec<u64>> = Vec::new();
    while sets.len() < n {
        match below(&mut rng, 10) {
            0 => sets.push(Vec::new()),
            1 => sets.push(vec![below(&mut rng, 5)]),
            2 | 3 if !sets.is_empty() => {
                // A mutated copy of an earlier set: drop and add a few elements.
                let base = sets[below(&mut rng, sets.len() as u64) as usize].clone();
                let mut s: Vec<u64> = base
                    .into_iter()
                    .filter(|_| below(&mut rng, 5) != 0)
                    .collect();
                for _ in 0..below(&mut rng, 4) {
                    s.push(below(&mut rng, 400));
                }
                sets.push(s);
            }
            4 if !sets.is_empty() => {
                let copy = sets[below(&mut rng, sets.len() as u64) as usize].clone();
                sets.push(copy);
            }
            _ => {
                let len = 1 + below(&mut rng, 40);
                // Square of a uniform: small values (frequent tokens) are likelier.
                let s = (0..len)
                    .map(|_| {
                        let u = below(&mut rng, 400);
                        u * u / 400
                    })
                    .collect();
                sets.push(s);
            }
        }
    }
    sets
}

#[test]
fn join_equals_brute_force_on_random_sets() {
    for seed in 0..40 {
        let sets = ShingleSets::from_sets(&random_sets(seed, 60 + seed as usize * 5));
        assert_join_is_exact(&sets, &format!("random seed {seed}"));
    }
}

#[test]
fn join_equals_brute_force_on_generated_corpora() {
    for seed in 1..=6 {
        let (generated, _) = generate(&GenOptions {
            documents: 300,
            length: 120 + 40 * seed as usize,
            levels: vec![0.3, 0.45, 0.6, 0.75, 0.9, 1.0],
            pairs_per_level: 12,
            seed,
            shingle: ShingleOptions::default(),
        });
        // Add empty documents, documents shorter than one shingle and exact duplicates.
        let mut corpus = Corpus::new();
        for i in 0..generated.len() {
            corpus.push(generated.id(i), generated.text(i));
            if i % 37 == 0 {
                corpus.push(&format!("empty-{i}"), "");
                corpus.push(&format!("short-{i}"), "ab");
                corpus.push(&format!("copy-{i}"), generated.text(i));
            }
        }
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        assert_join_is_exact(&index.sets, &format!("generated seed {seed}"));
        // Identical documents pair with J = 1; empty ones never pair.
        let pairs = similarity_join(&index.sets, 0.9, &Progress::new()).unwrap();
        let copies = pairs
            .iter()
            .filter(|p| corpus.id(p.b as usize).starts_with("copy-"))
            .filter(|p| p.jaccard == 1.0)
            .count();
        assert!(copies >= 300 / 37, "copies found: {copies}");
        assert!(pairs.iter().all(|p| {
            !corpus.id(p.a as usize).starts_with("empty-")
                && !corpus.id(p.b as usize).starts_with("empty-")
        }));
        // All the "ab" documents are one shingle each and identical to one another.
        let short: Vec<u32> = (0..corpus.len() as u32)
            .filter(|&i| corpus.id(i as usize).starts_with("short-"))
            .collect();
        let short_pairs = pairs
            .iter()
            .filter(|p| short.contains(&p.a) && short.contains(&p.b))
            .count();
        assert_eq!(short_pairs, short.len() * (short.len() - 1) / 2);
    }
}

/// The sample corpus, read as `id,text` CSV by the corpus reader (the truth file names these
/// ids).
fn sample_corpus() -> Corpus {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_data/jobs.csv");
    read_corpus(&path, &ReadOptions::default(), &Progress::new())
        .unwrap()
        .0
}

#[test]
fn join_is_exact_on_the_sample_corpus() {
    let corpus = sample_corpus();
    assert_eq!(corpus.len(), 20_000);
    let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let progress = Progress::new();
    let threshold = 0.5;
    let pairs = similarity_join(&index.sets, threshold, &progress).unwrap();

    // Sound: every pair is recomputed exactly, once, in (a, b) order.
    assert!(
        pairs
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
    );
    for p in &pairs {
        let j = jaccard(index.sets.get(p.a as usize), index.sets.get(p.b as usize));
        assert_eq!(j.to_bits(), p.jaccard.to_bits());
        assert!(j >= threshold);
    }
    // Complete for the planted pairs (the truth file lists only those).
    let planted = read_truth(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_data/jobs.truth.csv"),
        &corpus,
    )
    .unwrap();
    let found: HashSet<(u32, u32)> = pairs.iter().map(|p| (p.a, p.b)).collect();
    for p in planted.iter().filter(|p| p.jaccard >= threshold) {
        assert!(found.contains(&(p.a, p.b)), "planted pair {p:?} missing");
    }
    // Complete against brute force, on the first 1500 documents (a job ad has about 1,000
    // shingles: all pairs of 20 000 would take many minutes in a test build).
    let slice: Vec<Vec<u64>> = (0..1500).map(|i| index.sets.get(i).to_vec()).collect();
    let slice = ShingleSets::from_sets(&slice);
    let all = brute_force_join(&slice, 0.3);
    for t in [0.3, 0.5, 0.8] {
        let want: Vec<TruthPair> = all.iter().filter(|p| p.jaccard >= t).copied().collect();
        assert_eq!(similarity_join(&slice, t, &progress).unwrap(), want);
    }
}

#[test]
fn plan_reports_work_and_cancellation_stops_the_join() {
    let sets = ShingleSets::from_sets(&random_sets(5, 500));
    let progress = Progress::new();
    let plan = plan_join(&sets, 0.5, &progress).unwrap();
    assert_eq!(plan.work.documents, 500);
    assert!(plan.work.estimated_scans > 0.0);
    let (pairs, stats) = plan.run(&progress).unwrap();
    assert!(stats.verified >= pairs.len() as u64);
    // The estimate ignores the length filter, so it bounds the real scans.
    assert!(stats.scans as f64 <= plan.work.estimated_scans * 2.0);
    // The join counts the posting entries it expects to scan, and ends at its total.
    let snap = progress.snapshot();
    assert!(snap.total > 0);
    assert_eq!(snap.done, snap.total);
    progress.cancel();
    assert!(matches!(
        plan.run(&progress),
        Err(lshscope_core::Error::Cancelled)
    ));
}

#[test]
fn sampled_pairs_carry_their_exact_jaccard() {
    let sets = ShingleSets::from_sets(&random_sets(11, 200));
    let sample = sample_pair_similarities(&sets, 500, 3, &Progress::new()).unwrap();
    assert_eq!(sample.len(), 500);
    for p in &sample {
        assert!(p.a < p.b);
        assert_eq!(
            p.jaccard,
            jaccard(sets.get(p.a as usize), sets.get(p.b as usize))
        );
    }
}

/// Candidates of one banding on a generated corpus with planted pairs.
fn planted_setup(
    seed: u64,
    levels: Vec<f64>,
    pairs_per_level: usize,
    banding: Banding,
    filler: usize,
) -> (
    lshscope_core::minhash::Index,
    Vec<TruthPair>,
    lshscope_core::minhash::Candidates,
) {
    let opts = GenOptions {
        documents: levels.len() * pairs_per_level * 2 + filler,
        length: 300,
        levels,
        pairs_per_level,
        seed,
        shingle: ShingleOptions::default(),
    };
    let (corpus, planted) = generate(&opts);
    let index = build_index(
        &corpus,
        &IndexOptions {
            seed: seed * 7 + 1,
            ..IndexOptions::default()
        },
        &Progress::new(),
    )
    .unwrap();
    let truth: Vec<TruthPair> = planted
        .iter()
        .map(|p| TruthPair {
            a: p.a,
            b: p.b,
            jaccard: p.jaccard,
        })
        .collect();
    let candidates = find_candidates(
        &index.signatures,
        &BandingOptions {
            banding,
            max_bucket: None,
        },
        &Progress::new(),
    )
    .unwrap();
    (index, truth, candidates)
}

#[test]
fn recall_and_precision_match_direct_counts_on_planted_pairs() {
    let banding = Banding::new(16, 6, 128).unwrap();
    let (index, truth, candidates) =
        planted_setup(4, vec![0.3, 0.5, 0.7, 0.9, 0.95], 40, banding, 200);
    let t = 0.6;
    let candidate_set: HashSet<(u32, u32)> = candidates.pairs.iter().map(|c| (c.a, c.b)).collect();
    let at_t = candidates
        .pairs
        .iter()
        .filter(|c| jaccard(index.sets.get(c.a as usize), index.sets.get(c.b as usize)) >= t)
        .count();
    let report = measure_recall(&truth, &candidates.pairs, at_t, banding, t, 20);

    let true_t: Vec<&TruthPair> = truth.iter().filter(|p| p.jaccard >= t).collect();
    let found_t = true_t
        .iter()
        .filter(|p| candidate_set.contains(&(p.a, p.b)))
        .count();
    assert_eq!(report.true_at_threshold, 120);
    assert_eq!(report.found_at_threshold, found_t);
    assert_eq!(report.recall, Some(found_t as f64 / 120.0));
    assert_eq!(
        report.precision,
        Some(at_t as f64 / candidates.pairs.len() as f64)
    );
    // Bins add up, and each bin's count is the direct count.
    assert_eq!(
        report.bins.iter().map(|b| b.true_pairs).sum::<usize>(),
        truth.len()
    );
    for b in &report.bins {
        let inside: Vec<&TruthPair> = truth
            .iter()
            .filter(|p| p.jaccard >= b.lo && (p.jaccard < b.hi || b.hi >= 1.0))
            .collect();
        assert_eq!(b.true_pairs, inside.len(), "bin {}", b.lo);
        let found = inside
            .iter()
            .filter(|p| candidate_set.contains(&(p.a, p.b)))
            .count();
        assert_eq!(b.found, found, "bin {}", b.lo);
    }
    // With 16 × 6 (threshold near 0.63), pairs at 0.9+ are all found, pairs at 0.3 rarely.
    let recall_of = |lo: f64, hi: f64| {
        let sel: Vec<_> = truth
            .iter()
            .filter(|p| p.jaccard >= lo && p.jaccard < hi)
            .collect();
        sel.iter()
            .filter(|p| candidate_set.contains(&(p.a, p.b)))
            .count() as f64
            / sel.len() as f64
    };
    assert_eq!(recall_of(0.85, 1.01), 1.0);
    assert!(recall_of(0.0, 0.4) < 0.1);
    // The missed pairs are exactly the true pairs ≥ t outside the candidates.
    let missed = missed_pairs(&truth, &candidates.pairs, t);
    assert_eq!(missed.len(), 120 - found_t);
    assert!(
        missed
            .iter()
            .all(|p| p.jaccard >= t && !candidate_set.contains(&(p.a, p.b)))
    );
    // The planted pairs above t are all in the exact join's truth too.
    let joined = similarity_join(&index.sets, t, &Progress::new()).unwrap();
    let joined: HashSet<(u32, u32)> = joined.iter().map(|p| (p.a, p.b)).collect();
    assert!(true_t.iter().all(|p| joined.contains(&(p.a, p.b))));
}

/// The measured candidate rate per bin agrees with the S-curve: across seeds, at least 95 % of
/// the bins hold the prediction inside the Wilson 95 % interval of the measurement.
///
/// P(s) is a probability over the choice of hash functions. Within one index, pairs that share
/// frequent shingles see the same functions, so their outcomes are correlated (measured on
/// 120 pairs per bin of one corpus, about 9 % of bins fall outside: the spread is about 1.3×
/// the binomial one). Each group below therefore pools many small corpora, each with its own
/// hash seed and only two pairs per level, so the pooled outcomes are close to independent
/// trials, as the binomial interval assumes.
#[test]
fn measured_candidate_rate_follows_the_s_curve() {
    let banding = Banding::new(20, 5, 128).unwrap();
    // 20 × 5 rises from P(0.3) ≈ 0.05 to P(0.75) ≈ 0.99: every level is informative.
    let levels: Vec<f64> = (0..10).map(|i| 0.3 + 0.05 * i as f64).collect();
    let groups: u64 = std::env::var("TRUTH_GROUPS")
        .map(|s| s.parse().unwrap())
        .unwrap_or(8);
    let (mut bins, mut flagged) = (0usize, 0usize);
    for group in 1..=groups {
        let (mut truth, mut candidates) = (Vec::new(), Vec::new());
        let mut offset = 0u32;
        for k in 0..60 {
            let (index, t, c) = planted_setup(group * 1000 + k, levels.clone(), 2, banding, 0);
            truth.extend(t.iter().map(|p| TruthPair {
                a: p.a + offset,
                b: p.b + offset,
                jaccard: p.jaccard,
            }));
            candidates.extend(
                c.pairs
                    .iter()
                    .map(|p| lshscope_core::minhash::CandidatePair {
                        a: p.a + offset,
                        b: p.b + offset,
                        bands_hit: p.bands_hit,
                    }),
            );
            offset += index.len() as u32;
        }
        let report = measure_recall(&truth, &candidates, 0, banding, 0.5, 20);
        for b in report.bins.iter().filter(|b| b.true_pairs >= 30) {
            bins += 1;
            flagged += b.outside as usize;
            // Each bin's interval is a proper interval around the measurement.
            assert!(b.interval_lo <= b.measured && b.measured <= b.interval_hi);
            if std::env::var("TRUTH_DEBUG").is_ok() {
                eprintln!(
                    "group {group} bin {:.2} n {} measured {:.3} [{:.3}, {:.3}] predicted {:.3}{}",
                    b.lo,
                    b.true_pairs,
                    b.measured,
                    b.interval_lo,
                    b.interval_hi,
                    b.predicted,
                    if b.outside { " OUT" } else { "" }
                );
            }
        }
    }
    assert!(
        bins as u64 >= 8 * groups,
        "only {bins} bins with enough pairs"
    );
    assert!(
        flagged as f64 <= 0.05 * bins as f64,
        "{flagged} of {bins} bins outside their interval"
    );
}

#[test]
fn recall_bins_agree_with_the_histogram_at_every_edge() {
    // 29/50 floors to bin 28 of 50 when multiplied out (29/50·50 = 28.999999999999996); the
    // recall table, the histogram and its bin filter must all put it in bin 29, [0.58, 0.6).
    use lshscope_core::analysis::histogram::{SimilarityHistogram, bin_bounds, bin_of};
    let banding = Banding::new(20, 5, 128).unwrap();
    for bins in [20, 50, 100] {
        let truth: Vec<TruthPair> = (0..=50u32)
            .map(|k| TruthPair {
                a: k,
                b: k + 100,
                jaccard: f64::from(k) / 50.0,
            })
            .collect();
        let report = measure_recall(&truth, &[], 0, banding, 0.5, bins);
        let hist = SimilarityHistogram::from_values(truth.iter().map(|p| (p.jaccard, None)), bins);
        for b in &report.bins {
            let i = bin_of(b.lo, bins);
            let (lo, hi, _) = bin_bounds(i, bins);
            assert_eq!((b.lo, b.hi), (lo, hi), "{bins} bins");
            assert_eq!(b.true_pairs as u64, hist.counts[i], "bin {i} of {bins}");
        }
        let total: usize = report.bins.iter().map(|b| b.true_pairs).sum();
        assert_eq!(total, truth.len());
    }
    let report = measure_recall(
        &[TruthPair {
            a: 0,
            b: 1,
            jaccard: 29.0 / 50.0,
        }],
        &[],
        0,
        banding,
        0.5,
        50,
    );
    assert_eq!(report.bins[0].lo, 29.0 / 50.0);
}
