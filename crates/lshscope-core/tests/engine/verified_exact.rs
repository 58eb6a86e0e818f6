//! The streamed verification a scan writes its pairs from, checked pair by pair against a
//! reference written the plain way: the candidates listed band by band and merged, and each
//! one's Jaccard counted with a `BTreeSet`, so a faster verification can only be kept when
//! it gives exactly these pairs with exactly these values.

use std::collections::BTreeSet;
use std::path::Path;

use lshscope_core::corpus::{Corpus, ReadOptions, read_corpus};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{
    Banding, BandingOptions, IdenticalGroups, Index, IndexOptions, VerifiedPair, bucket_lists,
    build_index, find_candidates_among, stream_verified,
};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};

/// |A ∩ B| / |A ∪ B| counted through ordered sets, 0 for two empty sets.
fn reference_jaccard(a: &[u64], b: &[u64]) -> f64 {
    let (a, b): (BTreeSet<u64>, BTreeSet<u64>) =
        (a.iter().copied().collect(), b.iter().copied().collect());
    let inter = a.intersection(&b).count();
    let union = a.union(&b).count();
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

/// Every candidate of `banding`, each with its reference Jaccard, the signatures' estimate and
/// its bands, in (a, b) order.
fn reference_pairs(index: &Index, banding: &BandingOptions) -> Vec<VerifiedPair> {
    let listed = find_candidates_among(&index.signatures, banding, None, &Progress::new()).unwrap();
    listed
        .pairs
        .iter()
        .map(|c| {
            let (a, b) = (c.a as usize, c.b as usize);
            VerifiedPair {
                a: c.a,
                b: c.b,
                bands_hit: c.bands_hit,
                jaccard: reference_jaccard(index.sets.get(a), index.sets.get(b)),
                estimate: index.signatures.estimate(a, b),
            }
        })
        .collect()
}

fn streamed_pairs(index: &Index, banding: &BandingOptions, threshold: f64) -> Vec<VerifiedPair> {
    let lists = bucket_lists(&index.signatures, banding, None, &Progress::new()).unwrap();
    let copies = IdenticalGroups::find(&index.sets);
    let mut pairs = Vec::new();
    stream_verified(
        index,
        &lists,
        Some(&copies),
        threshold,
        &Progress::new(),
        |batch| {
            pairs.extend_from_slice(batch);
            Ok(())
        },
    )
    .unwrap();
    pairs.sort_by_key(|p| (p.a, p.b));
    pairs
}

fn assert_streamed_equals_reference(name: &str, corpus: &Corpus, expect_candidates: usize) {
    let index = build_index(corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    for (bands, rows) in [(32, 4), (20, 5)] {
        let banding = BandingOptions {
            banding: Banding { bands, rows },
            max_bucket: None,
        };
        let every = reference_pairs(&index, &banding);
        for threshold in [0.0, 0.5, 0.8, 1.0] {
            let expected: Vec<VerifiedPair> = every
                .iter()
                .filter(|p| p.jaccard >= threshold)
                .copied()
                .collect();
            if threshold == 0.0 && bands == 32 {
                assert!(
                    expected.len() >= expect_candidates,
                    "{name}: {} candidates, the check needs many",
                    expected.len()
                );
            }
            let streamed = streamed_pairs(&index, &banding, threshold);
            assert_eq!(
                streamed.len(),
                expected.len(),
                "{name} {bands}×{rows} t {threshold}"
            );
            for (s, e) in streamed.iter().zip(&expected) {
                // Bit for bit: the values are written out as they are.
                assert!(
                    s.a == e.a
                        && s.b == e.b
                        && s.bands_hit == e.bands_hit
                        && s.jaccard.to_bits() == e.jaccard.to_bits()
                        && s.estimate.to_bits() == e.estimate.to_bits(),
                    "{name} {bands}×{rows} t {threshold}: streamed {s:?}, reference {e:?}"
                );
            }
        }
    }
}

#[test]
fn streamed_pairs_of_the_job_ads_sample_equal_the_reference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_data/jobs.csv");
    // The first 3,000 ads: reposts, edited reposts and agency families are spread through
    // the file, and the reference is slow in a debug build.
    let read = ReadOptions {
        limit: Some(3_000),
        ..ReadOptions::default()
    };
    let (corpus, _) = read_corpus(&path, &read, &Progress::new()).unwrap();
    assert_streamed_equals_reference("jobs.csv", &corpus, 1_000);
}

#[test]
fn streamed_pairs_of_a_template_corpus_equal_the_reference() {
    // Families up to 600 members (buckets of hundreds, pairs seen again in many bands),
    // verbatim copies, short and long texts, non-ASCII characters.
    let generated = generate_templated(&TemplateOptions {
        docs: 4_000,
        seed: 7,
        max_family: 300,
        ..TemplateOptions::default()
    });
    assert_streamed_equals_reference("templates", &generated.corpus, 5_000);
}
