//! Statistical tests of the MinHash family and of banding, with fixed seeds.
//!
//! Tolerances are 3σ of the quantity measured (σ from the binomial variance), so each check
//! fails by chance with probability about 0.3 % for a correct implementation; the seeds are
//! fixed, so the outcome is deterministic and a failure means the statistics moved.

use std::collections::HashSet;

use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::scurve::candidate_probability;
use lshscope_core::minhash::similarity::jaccard;
use lshscope_core::minhash::{
    Banding, BandingOptions, HashFamily, IndexOptions, build_index, find_candidates, fold32,
};
use lshscope_core::text::{ShingleKind, ShingleOptions};
use lshscope_core::util::rng::SplitMix64;

/// Two documents of distinct made-up words, sharing `shared` of their `n` words each, so that
/// with word:1 shingles their Jaccard is exactly shared / (2n − shared).
fn pair_with_overlap(n: usize, shared: usize, salt: usize) -> (String, String) {
    let word = |i: usize| format!("w{salt}x{i}");
    let a: Vec<String> = (0..n).map(word).collect();
    let b: Vec<String> = (0..shared)
        .map(word)
        .chain((n..2 * n - shared).map(word))
        .collect();
    (a.join(" "), b.join(" "))
}

fn word_options(num_perm: usize, seed: u64) -> IndexOptions {
    IndexOptions {
        shingle: ShingleOptions {
            kind: ShingleKind::Word(1),
            ..Default::default()
        },
        num_perm,
        seed,
        ..IndexOptions::default()
    }
}

#[test]
fn estimate_is_unbiased_across_seeds() {
    const K: usize = 128;
    const SEEDS: u64 = 300;
    // (n, shared) → J = shared / (2n − shared).
    for (n, shared) in [
        (200, 36),
        (200, 100),
        (200, 200 * 2 / 3),
        (200, 178),
        (150, 145),
    ] {
        let exact = shared as f64 / (2 * n - shared) as f64;
        let (ta, tb) = pair_with_overlap(n, shared, 1);
        let corpus = Corpus::from_texts([ta, tb]);
        let mut sum = 0.0;
        for seed in 0..SEEDS {
            let idx = build_index(&corpus, &word_options(K, seed), &Progress::new()).unwrap();
            assert_eq!(jaccard(idx.sets.get(0), idx.sets.get(1)), exact);
            sum += idx.signatures.estimate(0, 1);
        }
        let mean = sum / SEEDS as f64;
        // The estimate is a mean of K Bernoulli(J) rows; over independent seeds the mean of
        // the estimates has variance J(1 − J) / (K · seeds).
        let sigma = (exact * (1.0 - exact) / (K as f64 * SEEDS as f64)).sqrt();
        assert!(
            (mean - exact).abs() <= 3.0 * sigma,
            "J = {exact:.4}: mean estimate {mean:.5} is {:.1}σ away",
            (mean - exact).abs() / sigma
        );
    }
}

#[test]
fn each_row_agrees_with_probability_jaccard() {
    // Per-row check on raw hash sets, independent of text handling: over many random sets
    // the probability that row k agrees equals J for every k (no row is biased).
    const K: usize = 64;
    const TRIALS: usize = 2000;
    let mut rng = SplitMix64::new(42);
    let mut next = || rng.next_u64();
    let family = HashFamily::new(K, 9);
    // 60 shared hashes, 30 more in each set: J = 60 / 120.
    let exact = 0.5;
    let mut agree = [0usize; K];
    for _ in 0..TRIALS {
        let shared: Vec<u64> = (0..60).map(|_| next()).collect();
        let only_a: Vec<u64> = (0..30).map(|_| next()).collect();
        let only_b: Vec<u64> = (0..30).map(|_| next()).collect();
        let fold = |v: &[u64]| v.iter().map(|&h| fold32(h)).collect::<Vec<u32>>();
        let mut sa = vec![u32::MAX; K];
        let mut sb = vec![u32::MAX; K];
        family.update(&mut sa, &fold(&[shared.clone(), only_a].concat()));
        family.update(&mut sb, &fold(&[shared, only_b].concat()));
        for k in 0..K {
            agree[k] += (sa[k] == sb[k]) as usize;
        }
    }
    let sigma = (exact * (1.0 - exact) / TRIALS as f64).sqrt();
    let mut outside = 0;
    for (k, &a) in agree.iter().enumerate() {
        let rate = a as f64 / TRIALS as f64;
        // Allow 4σ per row since 64 rows are checked at once.
        assert!((rate - exact).abs() <= 4.0 * sigma, "row {k}: rate {rate}");
        outside += ((rate - exact).abs() > 2.0 * sigma) as usize;
    }
    // About 4.6 % of rows fall outside 2σ by chance; far more means correlated rows.
    assert!(outside <= 10, "{outside} of {K} rows outside 2σ");
}

#[test]
fn candidate_rate_follows_the_s_curve() {
    const SEEDS: u64 = 600;
    // (bands, rows, n, shared): J = shared / (2n − shared).
    let cases = [
        (20, 5, 100, 67), // J ≈ 0.503, P ≈ 0.49
        (20, 5, 100, 80), // J ≈ 0.667, P ≈ 0.88
        (16, 8, 100, 89), // J ≈ 0.80,  P ≈ 0.93
        (42, 3, 100, 40), // J = 0.25,  P ≈ 0.49
        (5, 25, 100, 95), // J ≈ 0.905, P ≈ 0.33
        (32, 4, 100, 33), // J ≈ 0.20,  P ≈ 0.05
    ];
    for (b, r, n, shared) in cases {
        let exact = shared as f64 / (2 * n - shared) as f64;
        let (ta, tb) = pair_with_overlap(n, shared, 2);
        let corpus = Corpus::from_texts([ta, tb]);
        let banding = BandingOptions {
            banding: Banding::new(b, r, 128).unwrap(),
            max_bucket: None,
        };
        let mut hits = 0;
        for seed in 0..SEEDS {
            let idx =
                build_index(&corpus, &word_options(128, 1000 + seed), &Progress::new()).unwrap();
            let c = find_candidates(&idx.signatures, &banding, &Progress::new()).unwrap();
            hits += c.pairs.len();
        }
        let p = candidate_probability(exact, b, r);
        let rate = hits as f64 / SEEDS as f64;
        let sigma = (p * (1.0 - p) / SEEDS as f64).sqrt();
        assert!(
            (rate - p).abs() <= 3.0 * sigma,
            "{b}×{r} at J = {exact:.3}: rate {rate:.4} vs P = {p:.4} ({:.1}σ)",
            (rate - p).abs() / sigma
        );
    }
}

/// An independent, obviously-correct shingler: lowercase, collapse whitespace, char k-grams
/// as strings in a HashSet.
fn naive_shingles(text: &str, k: usize) -> HashSet<String> {
    let norm = text
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let chars: Vec<char> = norm.chars().collect();
    if chars.is_empty() {
        return HashSet::new();
    }
    if chars.len() <= k {
        return HashSet::from([norm]);
    }
    chars.windows(k).map(|w| w.iter().collect()).collect()
}

#[test]
fn exact_jaccard_matches_brute_force() {
    let opts = lshscope_core::synthetic::words::GenOptions {
        documents: 120,
        length: 120,
        levels: vec![0.3, 0.6, 0.9],
        pairs_per_level: 10,
        seed: 5,
        shingle: ShingleOptions::default(),
    };
    let (mut corpus, _) = lshscope_core::synthetic::words::generate(&opts);
    for extra in [
        "",
        "  ",
        "ab",
        "AB",
        "Ünïcödé  TEXT wïth àccents",
        "ünïcödé text WÏTH àccents",
    ] {
        corpus.push("extra", extra);
    }
    let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let naive: Vec<HashSet<String>> = (0..corpus.len())
        .map(|i| naive_shingles(corpus.text(i), 5))
        .collect();
    for i in 0..corpus.len() {
        assert_eq!(
            idx.sets.get(i).len(),
            naive[i].len(),
            "doc {i}: {:?}",
            corpus.text(i)
        );
        for j in i + 1..corpus.len() {
            let inter = naive[i].intersection(&naive[j]).count();
            let union = naive[i].len() + naive[j].len() - inter;
            let expected = if union == 0 {
                0.0
            } else {
                inter as f64 / union as f64
            };
            assert_eq!(
                jaccard(idx.sets.get(i), idx.sets.get(j)),
                expected,
                "pair ({i}, {j})"
            );
        }
    }
}
