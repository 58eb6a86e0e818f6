use std::collections::HashMap;

use super::*;

fn jaccard_of(shingler: &mut Shingler, a: &str, b: &str) -> f64 {
    jaccard(&shingle_set(shingler, a), &shingle_set(shingler, b))
}

fn small() -> JobAdOptions {
    JobAdOptions {
        documents: 4_000,
        levels: vec![0.3, 0.5, 0.7, 0.8, 0.9, 0.95],
        pairs_per_level: 40,
        seed: 5,
        ..JobAdOptions::default()
    }
}

#[test]
fn planted_pairs_land_near_their_levels() {
    let out = generate_job_ads(&small());
    assert_eq!(out.corpus.len(), 4_000);
    assert_eq!(out.planted.len(), 240);
    let mut shingler = Shingler::new(ShingleOptions::default());
    let mut deviation: HashMap<u64, Vec<f64>> = HashMap::new();
    for p in &out.planted {
        assert!(p.a < p.b);
        assert_eq!(out.origin[p.a as usize], Origin::Planted);
        assert_eq!(out.origin[p.b as usize], Origin::Planted);
        let (a, b) = (out.corpus.text(p.a as usize), out.corpus.text(p.b as usize));
        let j = jaccard_of(&mut shingler, a, b);
        assert_eq!(j, p.jaccard, "the truth states the exact Jaccard");
        assert!(
            (j - p.level).abs() < 0.06,
            "level {} got {j}:\n{a}\n{b}",
            p.level
        );
        // The same job: a rewrite keeps the company and the title it starts with.
        assert_eq!(out.company[p.a as usize], out.company[p.b as usize]);
        let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        assert!(common >= "Barista".len(), "{a}\n{b}");
        deviation
            .entry(p.level.to_bits())
            .or_default()
            .push(j - p.level);
    }
    // No level is missed systematically.
    for (level, d) in deviation {
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        assert!(
            mean.abs() < 0.015,
            "level {}: mean deviation {mean}",
            f64::from_bits(level)
        );
    }
}

#[test]
fn reposts_edits_and_families_come_in_the_chosen_shares() {
    let opts = JobAdOptions {
        documents: 20_000,
        ..JobAdOptions::default()
    };
    let out = generate_job_ads(&opts);
    let corpus = &out.corpus;
    assert_eq!(corpus.len(), 20_000);
    let rest = 20_000 - 2 * 7 * 200;
    let count = |f: &dyn Fn(&Origin) -> bool| out.origin.iter().filter(|o| f(o)).count();
    assert_eq!(count(&|o| *o == Origin::Planted), 2_800);
    assert_eq!(
        count(&|o| matches!(o, Origin::Repost { .. })),
        (rest as f64 * 0.08) as usize
    );
    assert_eq!(
        count(&|o| matches!(o, Origin::Edited { .. })),
        (rest as f64 * 0.06) as usize
    );
    let mut families: HashMap<u32, usize> = HashMap::new();
    for o in &out.origin {
        if let Origin::Family(f) = o {
            *families.entry(*f).or_default() += 1;
        }
    }
    let in_families: usize = families.values().sum();
    assert!(in_families >= (rest as f64 * 0.10) as usize);
    // Dozens to hundreds: every family but the last (cut to fit) is at least MIN_FAMILY
    // strong, none above the cap, and some in the hundreds.
    assert!(families.values().filter(|&&m| m < MIN_FAMILY).count() <= 1);
    assert!(families.values().all(|&m| m <= 150));
    assert!(families.values().any(|&m| m >= 100), "{families:?}");

    let mut shingler = Shingler::new(ShingleOptions::default());
    let (mut verbatim, mut renewed) = (0, 0);
    for (d, o) in out.origin.iter().enumerate() {
        match *o {
            Origin::Repost { of, verbatim: true } => {
                verbatim += 1;
                assert_eq!(corpus.text(d), corpus.text(of as usize));
            }
            Origin::Repost {
                of,
                verbatim: false,
            } => {
                renewed += 1;
                let (a, b) = (corpus.text(of as usize), corpus.text(d));
                // Only the dates and the reference changed: the same length give or take
                // a few characters, most shingles shared.
                assert!(a.len().abs_diff(b.len()) <= 16, "{a}\n{b}");
                assert!(jaccard_of(&mut shingler, a, b) > 0.8, "{a}\n{b}");
            }
            Origin::Edited { of } => {
                let j = jaccard_of(&mut shingler, corpus.text(of as usize), corpus.text(d));
                let (a, b) = (corpus.text(of as usize), corpus.text(d));
                assert!(j > 0.4 && j < 1.0, "edited repost at {j}:\n{a}\n{b}");
            }
            _ => {}
        }
    }
    assert!(
        verbatim > 400 && renewed > 400,
        "{verbatim} verbatim, {renewed} renewed"
    );
    // Members of a family are near each other but not copies.
    let members: Vec<usize> = (0..corpus.len())
        .filter(|&d| out.origin[d] == Origin::Family(0))
        .collect();
    let j = jaccard_of(
        &mut shingler,
        corpus.text(members[0]),
        corpus.text(members[1]),
    );
    assert!(j > 0.5 && j < 1.0, "family members at {j}");
}

#[test]
fn unrelated_ads_share_boilerplate_at_low_jaccard() {
    let out = generate_job_ads(&small());
    let corpus = &out.corpus;
    let originals: Vec<usize> = (0..corpus.len())
        .filter(|&d| out.origin[d] == Origin::Original)
        .collect();
    let mut shingler = Shingler::new(ShingleOptions::default());
    let (mut same, mut other) = (Vec::new(), Vec::new());
    let mut by_company: HashMap<u32, Vec<usize>> = HashMap::new();
    for &d in &originals {
        by_company.entry(out.company[d]).or_default().push(d);
    }
    for ads in by_company.values() {
        for pair in ads.windows(2).take(3) {
            same.push(jaccard_of(
                &mut shingler,
                corpus.text(pair[0]),
                corpus.text(pair[1]),
            ));
        }
    }
    for w in originals.windows(2).take(500) {
        if out.company[w[0]] != out.company[w[1]] {
            other.push(jaccard_of(
                &mut shingler,
                corpus.text(w[0]),
                corpus.text(w[1]),
            ));
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(same.len() > 200 && other.len() > 200);
    // One company's ads share its blurb, benefits and closing lines: clearly related to
    // MinHash, yet far from duplicates.
    assert!(
        (0.2..0.5).contains(&mean(&same)),
        "same company {}",
        mean(&same)
    );
    // Different companies share only common phrases and equal-opportunity lines.
    assert!(
        (0.03..0.2).contains(&mean(&other)),
        "other companies {}",
        mean(&other)
    );
    assert!(other.iter().all(|&j| j > 0.0 && j < 0.6));
}

#[test]
fn ads_are_single_lines_with_short_long_quoted_and_non_ascii_ones() {
    let out = generate_job_ads(&small());
    let texts: Vec<&str> = (0..out.corpus.len()).map(|d| out.corpus.text(d)).collect();
    assert!(texts.iter().all(|t| !t.contains(['\t', '\n', '\r'])));
    assert!(
        texts.iter().all(|t| !t.contains('{')),
        "a placeholder left unfilled"
    );
    assert!(texts.iter().any(|t| t.len() < 400));
    assert!(texts.iter().any(|t| t.len() > 1500));
    assert!(texts.iter().any(|t| t.contains('"')));
    assert!(texts.iter().any(|t| t.contains('“') && t.contains('’')));
    for s in ["Zürich", "Kraków", "€", "£", "zł", "CHF"] {
        assert!(texts.iter().any(|t| t.contains(s)), "{s}");
    }
    assert_eq!(out.corpus.id(0), "job-000001");
}

#[test]
fn the_same_seed_gives_the_same_corpus() {
    let opts = JobAdOptions {
        documents: 1_500,
        pairs_per_level: 10,
        ..small()
    };
    let (a, b) = (generate_job_ads(&opts), generate_job_ads(&opts));
    assert!((0..1_500).all(|d| a.corpus.text(d) == b.corpus.text(d)));
    assert_eq!(a.planted, b.planted);
    assert_eq!(a.origin, b.origin);
    let other = generate_job_ads(&JobAdOptions { seed: 6, ..opts });
    assert!((0..1_500).any(|d| a.corpus.text(d) != other.corpus.text(d)));
}

#[test]
fn tiny_corpora_and_small_family_caps_are_filled_exactly() {
    for documents in [0, 1, 3, 60] {
        for max_family in [1, 5, 150] {
            let out = generate_job_ads(&JobAdOptions {
                documents,
                pairs_per_level: 2,
                mix: JobMix {
                    max_family,
                    ..JobMix::default()
                },
                ..small()
            });
            assert_eq!(out.corpus.len(), documents);
            assert_eq!(out.origin.len(), documents);
            assert_eq!(out.planted.len(), (documents / 2).min(12));
        }
    }
}

#[test]
fn placeholders_and_money_are_written_out() {
    assert_eq!(grouped(1_234_567, ","), "1,234,567");
    assert_eq!(grouped(999, ","), "999");
    assert_eq!(money(Currency::Chf, 104_000), "CHF 104’000");
    assert_eq!(money(Currency::Pln, 9_500), "9 500 zł");
    assert_eq!(hourly(Currency::Gbp, 1_240), "£12.40");
    assert_eq!(
        fill("{a} and {b} but {unknown}", |k| match k {
            "a" => Some(Cow::Borrowed("x")),
            "b" => Some(Cow::Owned("y".to_string())),
            _ => None,
        }),
        "x and y but {unknown}"
    );
    assert_eq!(typographic(r#"say "hi" it's"#), "say “hi” it’s");
}
