use lshscope::learn::{Walkthrough, documents, jaccard, scurve_steps, shingles_of};
use lshscope::text::{ShingleKind, ShingleOptions};

fn opts(kind: ShingleKind) -> ShingleOptions {
    ShingleOptions {
        kind,
        strip_punct: true,
        ..ShingleOptions::default()
    }
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
    // A and B share 6 of their 8 words (3/4); C shares 4 words with each, of 10 (2/5).
    let texts = [
        "How do I sort a list quickly?",
        "How do I sort a list fast?",
        "How do I sort my sock drawer?",
    ];
    let texts: Vec<(String, String)> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (i.to_string(), t.to_string()))
        .collect();
    let docs = documents(&texts, &opts(ShingleKind::Word(1)));
    let sets: Vec<Vec<String>> = docs
        .iter()
        .map(|d| shingles_of(&d.normalized, ShingleKind::Word(1)))
        .collect();
    let j = |a: usize, b: usize| jaccard(&sets[a], &sets[b]).2;
    assert_eq!((j(0, 1), j(0, 2), j(1, 2)), (0.75, 0.4, 0.4));
}

#[test]
fn signatures_agree_with_jaccard_roughly_and_candidates_follow_buckets() {
    let texts: Vec<(String, String)> = lshscope::learn::BUILTIN_DOCUMENTS
        .iter()
        .enumerate()
        .map(|(i, t)| (i.to_string(), t.to_string()))
        .collect();
    let docs = documents(&texts, &opts(ShingleKind::Char(3)));
    let w = Walkthrough::new(docs, ShingleKind::Char(3), 200, 7);
    let exact = jaccard(&w.shingles[0], &w.shingles[1]).2;
    assert!((w.perm_agreement(0, 1) - exact).abs() < 0.12);
    assert!((w.hash_agreement(0, 1) - exact).abs() < 0.12);
    assert!(w.candidates(20, 5).contains(&(0, 1)));
    assert!(!w.candidates(20, 5).contains(&(0, 5)));
    // Every row of the characteristic matrix has at least one 1.
    assert!(w.matrix.iter().all(|row| row.iter().any(|&x| x)));
}
