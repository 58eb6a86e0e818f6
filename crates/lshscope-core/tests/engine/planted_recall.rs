//! The done-criterion of the engine: on a generated corpus with planted near-duplicates, the
//! fraction of planted pairs that become candidates follows the S-curve, and at 20 bands × 5
//! rows at least 99.9 % of the pairs above Jaccard 0.8 are found (P(0.8) = 99.96 %): on
//! pseudo-words and on job ads.

use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::scurve::candidate_probability;
use lshscope_core::minhash::{Banding, BandingOptions, IndexOptions, build_index, find_candidates};
use lshscope_core::synthetic::jobads::{JobAdOptions, generate_job_ads};
use lshscope_core::synthetic::words::{GenOptions, PlantedPair, generate};
use lshscope_core::text::ShingleOptions;

#[test]
fn planted_pairs_are_found_as_the_s_curve_predicts() {
    let (corpus, planted) = generate(&GenOptions {
        documents: 6000,
        length: 300,
        levels: LEVELS.to_vec(),
        pairs_per_level: 300,
        seed: 11,
        shingle: ShingleOptions::default(),
    });
    check_recall(&corpus, &planted);
}

/// The same on job ads, where the planted pairs sit among reposts, template families and
/// ads that share their company's boilerplate.
#[test]
fn planted_job_ads_are_found_as_the_s_curve_predicts() {
    let ads = generate_job_ads(&JobAdOptions {
        documents: 6000,
        levels: LEVELS.to_vec(),
        pairs_per_level: 300,
        seed: 11,
        ..JobAdOptions::default()
    });
    check_recall(&ads.corpus, &ads.planted);
}

const LEVELS: [f64; 8] = [0.3, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95];

fn check_recall(corpus: &Corpus, planted: &[PlantedPair]) {
    let index = build_index(corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let (b, r) = (20, 5);
    let options = BandingOptions {
        banding: Banding::new(b, r, 128).unwrap(),
        max_bucket: None,
    };
    let candidates = find_candidates(&index.signatures, &options, &Progress::new()).unwrap();
    let found = |a: u32, bb: u32| {
        candidates
            .pairs
            .binary_search_by_key(&(a, bb), |c| (c.a, c.b))
            .is_ok()
    };

    let high: Vec<_> = planted.iter().filter(|p| p.jaccard >= 0.8).collect();
    let high_found = high.iter().filter(|p| found(p.a, p.b)).count();
    assert!(high.len() >= 700, "{} pairs above 0.8", high.len());
    assert!(
        high_found as f64 >= 0.999 * high.len() as f64,
        "{high_found} of {} pairs above 0.8 found",
        high.len()
    );

    // Per level: found fraction within 3σ of the mean predicted probability.
    let mut levels: Vec<f64> = planted.iter().map(|p| p.level).collect();
    levels.dedup();
    for level in levels {
        let group: Vec<_> = planted.iter().filter(|p| p.level == level).collect();
        let expected: f64 = group
            .iter()
            .map(|p| candidate_probability(p.jaccard, b, r))
            .sum::<f64>();
        let variance: f64 = group
            .iter()
            .map(|p| {
                let q = candidate_probability(p.jaccard, b, r);
                q * (1.0 - q)
            })
            .sum();
        let got = group.iter().filter(|p| found(p.a, p.b)).count() as f64;
        let tolerance = 3.0 * variance.sqrt() + 1.0;
        assert!(
            (got - expected).abs() <= tolerance,
            "level {level}: {got} found, S-curve expects {expected:.1} ± {tolerance:.1}"
        );
    }
}
