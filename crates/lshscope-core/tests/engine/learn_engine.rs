//! The walkthrough's numbers: the textbook S-curve example, Jaccard on three questions built
//! for it, signatures against Jaccard, buckets against candidates, and the CSV exports.

use lshscope_core::learn::{
    BUILTIN_DOCUMENTS, Walkthrough, documents, jaccard, learn_options, scurve_steps, shingles_of,
};
use lshscope_core::text::ShingleKind;

fn texts(list: &[&str]) -> Vec<(String, String)> {
    list.iter()
        .enumerate()
        .map(|(i, t)| ((i + 1).to_string(), t.to_string()))
        .collect()
}

#[test]
fn textbook_scurve_two_bands_of_three_rows() {
    let steps = scurve_steps(0.75, 2, 3);
    assert_eq!(steps.s_pow_r, 0.421875);
    assert_eq!(steps.band_miss, 0.578125);
    assert_eq!(steps.all_bands_miss, 0.334228515625);
    assert_eq!(steps.candidate, 0.665771484375);
}

#[test]
fn word_one_jaccard_of_three_questions() {
    // A and B differ in one of seven words (6/8); C keeps four of the six shared words and
    // adds three of its own (4/10 against either).
    let docs = documents(
        &texts(&[
            "How do I sort a Python list?",
            "How do I sort a Java list?",
            "How can I sort my list quickly?",
        ]),
        &learn_options(ShingleKind::Word(1)),
    );
    let sets: Vec<Vec<String>> = docs
        .iter()
        .map(|d| shingles_of(&d.normalized, ShingleKind::Word(1)))
        .collect();
    let j = |a: usize, b: usize| jaccard(&sets[a], &sets[b]);
    assert_eq!(j(0, 1), (6, 8, 0.75));
    assert_eq!(j(0, 2), (4, 10, 0.4));
    assert_eq!(j(1, 2), (4, 10, 0.4));
}

#[test]
fn built_in_questions_sit_at_their_documented_similarities() {
    let docs = documents(
        &texts(&BUILTIN_DOCUMENTS),
        &learn_options(ShingleKind::Word(1)),
    );
    let w = Walkthrough::new(docs, ShingleKind::Word(1), 6, 1);
    let j = |a: usize, b: usize| jaccard(&w.shingles[a], &w.shingles[b]).2;
    assert_eq!((j(0, 1), j(3, 4), j(0, 2), j(1, 2)), (0.75, 0.75, 0.4, 0.4));
    assert!(j(0, 5) < 0.1 && j(3, 5) < 0.1);
}

#[test]
fn signatures_estimate_jaccard_and_candidates_follow_buckets() {
    let docs = documents(
        &texts(&BUILTIN_DOCUMENTS),
        &learn_options(ShingleKind::Char(3)),
    );
    let w = Walkthrough::new(docs, ShingleKind::Char(3), 400, 7);
    for (a, b) in [(0, 1), (0, 2), (3, 4), (0, 5)] {
        let exact = jaccard(&w.shingles[a], &w.shingles[b]).2;
        // 400 rows: the estimate's standard deviation is at most 0.025.
        assert!((w.perm_agreement(a, b) - exact).abs() < 0.1, "{a}-{b}");
        assert!((w.hash_agreement(a, b) - exact).abs() < 0.1, "{a}-{b}");
    }
    // Every pair sharing a bucket is a candidate and nothing else is.
    let (bands, rows) = (50, 2);
    let mut from_buckets = std::collections::BTreeSet::new();
    for band in w.buckets(bands, rows) {
        for docs in band.values() {
            for (i, &x) in docs.iter().enumerate() {
                for &y in &docs[i + 1..] {
                    from_buckets.insert((x, y));
                }
            }
        }
    }
    assert_eq!(w.candidates(bands, rows), from_buckets);
    assert!(w.candidates(bands, rows).contains(&(0, 1)));
    assert!(!w.candidates(bands, rows).contains(&(0, 5)));
    // The characteristic matrix has a 1 in every row, and a column's 1s are its shingles.
    assert!(w.matrix.iter().all(|row| row.iter().any(|&x| x)));
    let ones: usize = w.matrix.iter().filter(|row| row[2]).count();
    assert_eq!(ones, w.shingles[2].len());
}

#[test]
fn permutation_signature_is_the_first_one_in_the_shuffled_order() {
    let docs = documents(
        &texts(&BUILTIN_DOCUMENTS),
        &learn_options(ShingleKind::Word(1)),
    );
    let w = Walkthrough::new(docs, ShingleKind::Word(1), 5, 3);
    for k in 0..5 {
        let order = w.permuted_rows(k);
        for d in 0..w.docs.len() {
            let first = order.iter().position(|&row| w.matrix[row][d]).unwrap();
            assert_eq!(w.perm_signatures[k][d], first, "perm {k} doc {d}");
        }
    }
}

#[test]
fn csv_exports_have_a_row_per_shingle_and_per_hash() {
    let docs = documents(
        &texts(&["one, two", "two three"]),
        &learn_options(ShingleKind::Word(1)),
    );
    let w = Walkthrough::new(docs, ShingleKind::Word(1), 3, 1);
    assert_eq!(
        w.characteristic_csv(),
        "shingle,1,2\none,1,0\nthree,0,1\ntwo,1,1\n"
    );
    let sig = w.signature_csv(true);
    assert_eq!(sig.lines().count(), 4);
    assert!(sig.starts_with("hash,1,2\n1,"));
    assert!(w.shingles_csv().contains("1,one two,one | two\n"));
}

#[test]
fn verification_splits_candidates_at_the_threshold_and_lists_the_missed() {
    let docs = documents(
        &texts(&BUILTIN_DOCUMENTS),
        &learn_options(ShingleKind::Word(1)),
    );
    let walk = Walkthrough::new(docs, ShingleKind::Word(1), 12, 1);
    for (bands, rows) in [(2, 3), (4, 3), (3, 2), (6, 1), (1, 6)] {
        for t in [0.3, 0.5, 0.75, 0.8] {
            let v = walk.verify(bands, rows, t);
            let candidates = walk.candidates(bands, rows);
            let verified: std::collections::BTreeSet<(usize, usize)> = v
                .kept
                .iter()
                .chain(&v.dropped)
                .map(|p| (p.a, p.b))
                .collect();
            assert_eq!(verified, candidates, "{bands}×{rows} t {t}");
            assert_eq!(v.comparisons(), candidates.len());
            assert!(v.kept.iter().all(|p| p.jaccard >= t));
            assert!(v.dropped.iter().all(|p| p.jaccard < t));
            for p in &v.missed {
                assert!(p.jaccard >= t && !candidates.contains(&(p.a, p.b)));
            }
            // Every pair at or above t is kept or missed, never lost.
            let similar = (0..6)
                .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
                .filter(|&(a, b)| walk.exact_pair(a, b).jaccard >= t)
                .count();
            assert_eq!(v.kept.len() + v.missed.len(), similar);
            assert_eq!(v.all_pairs, 15);
        }
    }
    let pair = walk.exact_pair(0, 1);
    assert_eq!((pair.intersection, pair.union, pair.jaccard), (6, 8, 0.75));
}

/// The one-permutation step's rows are the engine's: `--family one-permutation` with the
/// walkthrough's K and seed sketches each document's shingle set to the same rows.
#[test]
fn one_permutation_rows_are_the_engines_and_copies_come_from_occupied_bins() {
    use lshscope_core::minhash::{SketchFamily, Sketcher};
    use lshscope_core::text::shingle_hash;
    for kind in [ShingleKind::Word(1), ShingleKind::Char(3)] {
        let docs = documents(&texts(&BUILTIN_DOCUMENTS), &learn_options(kind));
        for (num_perm, seed) in [(6, 1), (24, 1), (12, 7)] {
            let walk = Walkthrough::new(docs.clone(), kind, num_perm, seed);
            let sketcher = Sketcher::new(SketchFamily::OnePermutation, num_perm, seed);
            for (d, set) in walk.shingles.iter().enumerate() {
                let oph = &walk.one_permutation[d];
                let mut hashes: Vec<u64> = set.iter().map(|s| shingle_hash(s.as_bytes())).collect();
                hashes.sort_unstable();
                assert_eq!(
                    oph.rows,
                    sketcher.sketch(&hashes),
                    "{kind} K={num_perm} doc {d}"
                );
                assert_eq!(oph.hashes.len(), set.len());
                let reached: Vec<bool> = (0..num_perm).map(|bin| oph.bins.contains(&bin)).collect();
                for bin in 0..num_perm {
                    match oph.donor(bin) {
                        None => assert!(reached[bin], "a bin without a donor was reached"),
                        Some(donor) => {
                            assert!(
                                !reached[bin] && reached[donor],
                                "copied from an occupied bin"
                            );
                            assert_eq!(oph.rows[bin], oph.rows[donor]);
                        }
                    }
                }
                assert!(oph.empty_bins() >= num_perm.saturating_sub(set.len()));
            }
        }
    }
    // Word:1 at K = 24: every built-in question has fewer than 24 words, so most bins are
    // copies, and the agreement is still a fraction of K rows.
    let docs = documents(
        &texts(&BUILTIN_DOCUMENTS),
        &learn_options(ShingleKind::Word(1)),
    );
    let walk = Walkthrough::new(docs, ShingleKind::Word(1), 24, 1);
    for (d, set) in walk.shingles.iter().enumerate() {
        assert!(set.len() < 24);
        assert!(walk.one_permutation[d].empty_bins() >= 24 - set.len());
    }
    let agree = walk.one_permutation_agreement(0, 1) * 24.0;
    assert!((agree - agree.round()).abs() < 1e-9);
}
