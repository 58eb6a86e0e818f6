use super::buckets::{
    shared_bands, shared_bands_narrow, shared_bands_narrow_portable, shared_bands_portable,
};
use super::candidates::union_of_band_pairs;
use super::keys::sort_by_key_then_doc;
use super::*;
use crate::corpus::Corpus;
use crate::jobs::Progress;
use crate::minhash::{IndexOptions, build_index};

#[test]
fn band_agreement_counts_rows_per_band() {
    let banding = Banding { bands: 3, rows: 2 };
    let a = [1, 2, 3, 4, 5, 6, 9];
    let b = [1, 2, 3, 0, 0, 0, 7];
    assert_eq!(
        banding.band_agreement(&a, &b).collect::<Vec<_>>(),
        vec![2, 1, 0]
    );
}

#[test]
fn agreeing_bands_match_the_candidates() {
    let corpus = Corpus::from_pairs([
        (
            "a",
            "the quick brown fox jumps over the lazy dog near the river bank",
        ),
        (
            "b",
            "the quick brown fox jumps over the lazy dog near the river bend",
        ),
        (
            "c",
            "completely different words about copper wire and electricity",
        ),
        ("e", ""),
    ]);
    let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let banding = Banding { bands: 32, rows: 4 };
    let sigs = &index.signatures;
    let found = find_candidates(
        sigs,
        &BandingOptions {
            banding,
            max_bucket: None,
        },
        &Progress::new(),
    )
    .unwrap();
    for a in 0..4 {
        for b in a + 1..4 {
            let bands = banding.agreeing_bands(sigs, a, b);
            assert_eq!(bands.len(), 32);
            let hits = bands.iter().filter(|&&hit| hit).count();
            let candidate = found
                .pairs
                .iter()
                .find(|p| (p.a as usize, p.b as usize) == (a, b));
            assert_eq!(candidate.map_or(0, |p| p.bands_hit as usize), hits);
            if !sigs.is_empty_doc(a) && !sigs.is_empty_doc(b) {
                assert_eq!(banding.closest_band(sigs, a, b) == 4, hits > 0);
            }
        }
    }
    // The near copies collide somewhere; the empty document nowhere.
    assert!(banding.agreeing_bands(sigs, 0, 1).contains(&true));
    assert!(!banding.agreeing_bands(sigs, 0, 3).contains(&true));
}

#[test]
fn radix_grouping_matches_sort() {
    let mut rng = crate::util::rng::SplitMix64::new(1);
    for n in [0usize, 5, 300, 5000, 70_000] {
        let keys: Vec<(u64, u32)> = (0..n as u32)
            .map(|d| {
                let k = rng.next_u64();
                // Some heavy duplicates, as identical documents give.
                (
                    if d % 5 == 0 {
                        77
                    } else {
                        (k % (n as u64 / 2 + 1)) << 40
                    },
                    d,
                )
            })
            .collect();
        let mut expected = keys.clone();
        expected.sort_unstable();
        assert_eq!(sort_by_key_then_doc(keys), expected, "n = {n}");
    }
}

#[test]
fn union_over_many_partitions_matches_a_plain_count() {
    let mut rng = crate::util::rng::SplitMix64::new(9);
    let docs = 5000u64;
    let band_pairs: Vec<Vec<u64>> = (0..6)
        .map(|_| {
            (0..40_000)
                .map(|_| {
                    let a = rng.next_u64() % (docs - 1);
                    let b = a + 1 + rng.next_u64() % (docs - 1 - a);
                    (a << 32) | b
                })
                .collect()
        })
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    for p in band_pairs.iter().flatten() {
        *counts.entry(*p).or_insert(0u32) += 1;
    }
    let expected: Vec<CandidatePair> = counts
        .into_iter()
        .map(|(p, n)| CandidatePair {
            a: (p >> 32) as u32,
            b: p as u32,
            bands_hit: n,
        })
        .collect();
    assert_eq!(union_of_band_pairs(band_pairs, docs as usize), expected);
}

#[test]
fn bucket_lists_imply_the_candidates() {
    let mut texts: Vec<String> = (0..60)
        .map(|i| {
            format!(
                "a boilerplate notice about item {} and its {} colour",
                i % 7,
                i % 3
            )
        })
        .collect();
    texts.push(String::new());
    texts.extend(std::iter::repeat_n("one copied line".to_string(), 5));
    let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
    let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let n = idx.signatures.len() as u32;
    for cap in [None, Some(4)] {
        let options = BandingOptions {
            banding: Banding::new(16, 2, 128).unwrap(),
            max_bucket: cap,
        };
        let pairs = find_candidates(&idx.signatures, &options, &Progress::new()).unwrap();
        let lists = bucket_lists(&idx.signatures, &options, None, &Progress::new()).unwrap();
        let mut implied = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let hit = lists.bands_hit(a, b);
                if hit > 0 {
                    implied.push(CandidatePair {
                        a,
                        b,
                        bands_hit: hit,
                    });
                }
            }
        }
        assert_eq!(implied, pairs.pairs, "cap {cap:?}");
        assert_eq!(lists.bucket_pairs, pairs.bucket_pairs);
        assert_eq!(lists.pairs_dropped_by_cap, pairs.pairs_dropped_by_cap);
        assert_eq!(lists.largest_buckets, pairs.largest_buckets);
        let listed: usize = lists
            .bands
            .iter()
            .map(|b| b.iter().map(<[u32]>::len).sum::<usize>())
            .sum();
        assert!(listed <= n as usize * 16);
    }
}

#[test]
fn checks_budget() {
    assert!(Banding::new(20, 5, 100).is_ok());
    let err = Banding::new(20, 6, 100).unwrap_err().to_string();
    assert!(
        err.contains("120 hashes") && err.contains("raise `num_perm`"),
        "{err}"
    );
    assert!(Banding::new(0, 5, 100).is_err());
}

#[test]
fn identical_docs_collide_in_every_band_and_empty_never() {
    let corpus = Corpus::from_texts([
        "same text here",
        "",
        "same text here",
        "",
        "other words entirely",
    ]);
    let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let opts = BandingOptions {
        banding: Banding::new(16, 8, 128).unwrap(),
        max_bucket: None,
    };
    let c = find_candidates(&idx.signatures, &opts, &Progress::new()).unwrap();
    assert_eq!(
        c.pairs,
        vec![CandidatePair {
            a: 0,
            b: 2,
            bands_hit: 16
        }]
    );
    assert_eq!(c.largest_buckets[0].size, 2);
}

#[test]
fn max_bucket_caps_and_reports() {
    let texts: Vec<&str> = std::iter::repeat_n("a repeated boilerplate line", 50).collect();
    let corpus = Corpus::from_texts(texts);
    let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    let banding = Banding::new(4, 4, 128).unwrap();
    let full = find_candidates(
        &idx.signatures,
        &BandingOptions {
            banding,
            max_bucket: None,
        },
        &Progress::new(),
    )
    .unwrap();
    assert_eq!(full.pairs.len(), 50 * 49 / 2);
    let capped = find_candidates(
        &idx.signatures,
        &BandingOptions {
            banding,
            max_bucket: Some(10),
        },
        &Progress::new(),
    )
    .unwrap();
    assert_eq!(capped.pairs.len(), 45);
    assert_eq!(capped.capped_bucket_count, 4);
    assert_eq!(capped.pairs_dropped_by_cap, 4 * (1225 - 45));
    assert!(capped.pairs.iter().all(|p| p.b < 10 && p.bands_hit == 4));
}

#[test]
fn shared_bands_agree_with_the_two_scalar_questions() {
    let mut rng = crate::util::rng::SplitMix64::new(43);
    for bands in [1usize, 2, 15, 16, 17, 20, 31, 32, 33, 64, 100] {
        for _ in 0..400 {
            // Few distinct buckets, so rows agree often; MAX (no bucket) on both sides too.
            let mut draw = || match rng.below(5) {
                0 => u32::MAX,
                v => v as u32,
            };
            let a: Vec<u32> = (0..bands).map(|_| draw()).collect();
            let b: Vec<u32> = (0..bands).map(|_| draw()).collect();
            let hits: Vec<bool> = a
                .iter()
                .zip(&b)
                .map(|(&x, &y)| x != u32::MAX && x == y)
                .collect();
            let expected = SharedBands {
                first: hits.iter().position(|&h| h).unwrap_or(bands),
                count: hits.iter().filter(|&&h| h).count() as u32,
            };
            assert_eq!(shared_bands(&a, &b), expected, "{a:?} {b:?}");
            assert_eq!(shared_bands_portable(&a, &b), expected, "{a:?} {b:?}");
            // The same rows in 16 bits, where u16::MAX is "no bucket".
            let narrow = |row: &[u32]| row.iter().map(|&x| x as u16).collect::<Vec<u16>>();
            let (a, b) = (narrow(&a), narrow(&b));
            assert_eq!(shared_bands_narrow(&a, &b), expected, "{a:?} {b:?}");
            assert_eq!(
                shared_bands_narrow_portable(&a, &b),
                expected,
                "{a:?} {b:?}"
            );
        }
    }
}

/// The narrow (16-bit) rows decide every pair as the 32-bit rows do: which pairs a band takes
/// first and in how many bands they share a bucket, on a template corpus with copies and
/// families of hundreds, at 32 bands (one compare a pair) and 40 (two).
#[test]
fn narrow_rows_take_the_pairs_wide_rows_take() {
    use crate::synthetic::templated::{TemplateOptions, generate_templated};
    let corpus = generate_templated(&TemplateOptions {
        docs: 3000,
        seed: 5,
        ..TemplateOptions::default()
    })
    .corpus;
    let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    for (bands, rows) in [(32, 4), (40, 3), (8, 2)] {
        let options = BandingOptions {
            banding: Banding::new(bands, rows, 128).unwrap(),
            max_bucket: None,
        };
        let lists = bucket_lists(&index.signatures, &options, None, &Progress::new()).unwrap();
        assert!(
            lists.has_narrow_rows(),
            "{bands} × {rows}: 3,000 documents fit"
        );
        let wide = lists.clone().without_narrow_rows();
        let (mut narrow_pairs, mut wide_pairs) = (Vec::new(), Vec::new());
        let mut taken = 0;
        for (band, buckets) in lists.bands.iter().enumerate() {
            for members in buckets.iter() {
                for (i, &a) in members.iter().enumerate() {
                    narrow_pairs.clear();
                    wide_pairs.clear();
                    lists.first_met_in(a, &members[i + 1..], band, &mut narrow_pairs);
                    wide.first_met_in(a, &members[i + 1..], band, &mut wide_pairs);
                    assert_eq!(narrow_pairs, wide_pairs, "{bands} × {rows}, band {band}");
                    taken += narrow_pairs.len();
                    for &b in &members[i + 1..] {
                        assert_eq!(lists.shared_bands(a, b), wide.shared_bands(a, b));
                    }
                }
            }
        }
        assert!(taken > 10_000, "{bands} × {rows}: {taken} pairs taken");
    }
}
