//! The recall intervals hold where pairs share documents: on corpora of families of near-copies
//! and of chains of edits, over many seeds of the hash family, the intervals measured over
//! redraws flag bins about as often as their 95 % level says, while binomial intervals (which
//! treat pairs as independent) flag several times as many. The second half is what makes the
//! first meaningful: the corpora here really do make pairs move together.

use lshscope_core::analysis::recall::measure_recall_with;
use lshscope_core::analysis::redraws::RedrawAgreement;
use lshscope_core::analysis::truth::brute_force_join;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::SketchFamily::{self, Classic};
use lshscope_core::minhash::{Banding, IndexOptions, build_index};
use lshscope_core::text::{ShingleKind, ShingleOptions};

use crate::corpora;
use corpora::dependent_corpus;
use lshscope_core::util::rng::SplitMix64;

#[test]
fn redrawn_intervals_hold_on_families_and_chains() {
    let corpus = dependent_corpus(7);
    let shingle = ShingleOptions {
        kind: ShingleKind::Word(1),
        ..ShingleOptions::default()
    };
    let banding = Banding::new(20, 5, 128).unwrap();
    let bins = 20;
    let threshold = 0.5;
    let (mut bins_checked, mut flagged_redrawn, mut flagged_binomial) = (0, 0, 0);
    let (mut recall_checked, mut recall_covered) = (0, 0);
    let seeds = 40;
    let mut truth = Vec::new();
    for seed in 1..=seeds {
        let options = IndexOptions {
            shingle: shingle.clone(),
            num_perm: 128,
            seed,
            ..IndexOptions::default()
        };
        let index = build_index(&corpus, &options, &Progress::new()).unwrap();
        if truth.is_empty() {
            truth = brute_force_join(&index.sets, 0.25);
            assert!(truth.len() > 1500, "{} truth pairs", truth.len());
        }
        let mut report = measure_recall_with(
            &truth,
            |i| banding.collide(&index.signatures, truth[i].a as usize, truth[i].b as usize),
            0,
            0,
            banding,
            threshold,
            bins,
        );
        // Only bins where a miss or a hit is possible say anything about the spread.
        let informative = |b: &lshscope_core::analysis::recall::RecallBin| {
            b.true_pairs >= 30 && b.predicted > 0.02 && b.predicted < 0.98
        };
        flagged_binomial += report
            .bins
            .iter()
            .filter(|b| informative(b) && b.outside)
            .count();
        let agreement =
            RedrawAgreement::compute(&index.sets, &truth, &index.options, 16, &Progress::new())
                .unwrap();
        report.apply_redraws(&agreement.found_per_draw(&truth, banding, bins, threshold));
        assert_eq!(report.redraws, 16);
        for b in report.bins.iter().filter(|b| informative(b)) {
            bins_checked += 1;
            flagged_redrawn += b.outside as usize;
        }
        if let (Some(p), Some((lo, hi))) = (report.predicted_recall, report.recall_interval) {
            recall_checked += 1;
            recall_covered += (lo <= p && p <= hi) as usize;
        }
    }
    let rate = |k: usize| k as f64 / bins_checked as f64;
    eprintln!(
        "{bins_checked} bins: redrawn flags {flagged_redrawn} ({:.3}), binomial flags \
         {flagged_binomial} ({:.3}); recall covered {recall_covered} of {recall_checked}",
        rate(flagged_redrawn),
        rate(flagged_binomial)
    );
    assert!(bins_checked >= 200, "{bins_checked} bins");
    // The corpus is dependent: binomial intervals flag far more than 1 in 20.
    assert!(rate(flagged_binomial) > 0.12, "{}", rate(flagged_binomial));
    // Nominal 5 %. Bins of one seed move together too (they share documents), so the count
    // over 40 seeds is noisier than a binomial over the bins: allow up to 10 %, and ask for
    // some flags, so intervals too wide to flag anything fail as well.
    assert!(rate(flagged_redrawn) <= 0.10, "{}", rate(flagged_redrawn));
    assert!(flagged_redrawn >= 1, "never flagged: intervals too wide");
    // The recall at t: an interval per seed that covers the S-curve's value about 95 % of the
    // time (at least 34 of 40: below that a 95 % interval has a chance under 1 in 1,000).
    assert_eq!(recall_checked, seeds as usize);
    assert!(recall_covered >= 34, "{recall_covered} of {recall_checked}");
}

/// `tune --similarities` on a uniform sample of pairs (`truth --estimate-pairs`): over many
/// samples of the pairs of a corpus of families and chains, the 95 % intervals of the count
/// at or above t, the expected candidates, recall and precision cover the values of the whole
/// population about 95 % of the time.
#[test]
fn sampled_tune_estimates_cover_the_population() {
    use lshscope_core::minhash::similarity::jaccard;
    use lshscope_core::minhash::tune::{
        SimilarityDistribution, corpus_estimate, sampled_intervals,
    };
    let corpus = dependent_corpus(3);
    let options = IndexOptions {
        shingle: ShingleOptions {
            kind: ShingleKind::Word(1),
            ..ShingleOptions::default()
        },
        num_perm: 128,
        seed: 1,
        ..IndexOptions::default()
    };
    let index = build_index(&corpus, &options, &Progress::new()).unwrap();
    let n = index.len();
    let mut population = Vec::with_capacity(n * (n - 1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            population.push(jaccard(index.sets.get(a), index.sets.get(b)));
        }
    }
    let (bands, rows, t) = (20, 5, 0.5);
    let exact = corpus_estimate(
        &SimilarityDistribution::from_similarities(&population),
        bands,
        rows,
        t,
    );
    let m = 3000;
    let weight = population.len() as f64 / m as f64;
    let mut rng = SplitMix64::new(99);
    let samples = 200;
    let mut covered = [0usize; 4];
    let mut measurable = 0;
    let inside = |v: f64, (lo, hi): (f64, f64)| lo <= v && v <= hi;
    for _ in 0..samples {
        let rows_: Vec<(f64, f64)> = (0..m)
            .map(|_| {
                (
                    population[rng.below(population.len() as u64) as usize],
                    weight,
                )
            })
            .collect();
        let iv = sampled_intervals(&rows_, bands, rows, t).unwrap();
        covered[0] += inside(exact.pairs_at_or_above, iv.pairs_at_or_above) as usize;
        covered[1] += inside(exact.expected_candidates, iv.expected_candidates) as usize;
        if let (Some(r), Some(p)) = (iv.expected_recall, iv.expected_precision) {
            measurable += 1;
            covered[2] += inside(exact.expected_recall.unwrap(), r) as usize;
            covered[3] += inside(exact.expected_precision.unwrap(), p) as usize;
        }
    }
    eprintln!("covered {covered:?} of {samples} ({measurable} with recall and precision)");
    // The tail at t holds a few percent of the pairs: most samples see enough of it.
    assert!(measurable >= samples * 3 / 4, "{measurable}");
    // Nominal 95 %; at least 90 % (below that a 95 % interval over 200 samples has a chance
    // of about 1 in 1,000). Recall and precision are means of P in [0, 1] with variance below
    // p(1 − p), so their Wilson intervals may cover more.
    for (k, &c) in covered.iter().enumerate() {
        let of = if k < 2 { samples } else { measurable };
        assert!(c * 10 >= of * 9, "estimate {k}: {c} of {of}");
    }
}

/// The exact values a sample estimates, from every pair of a small corpus: the count at or
/// above t, and the expected candidates, recall and precision of (b, r) at t.
fn exact_estimate(
    index: &lshscope_core::minhash::Index,
    bands: usize,
    rows: usize,
    t: f64,
) -> lshscope_core::minhash::tune::CorpusEstimate {
    use lshscope_core::minhash::similarity::jaccard;
    use lshscope_core::minhash::tune::{SimilarityDistribution, corpus_estimate};
    let n = index.len();
    let mut population = Vec::with_capacity(n * (n - 1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            population.push(jaccard(index.sets.get(a), index.sets.get(b)));
        }
    }
    let exact = corpus_estimate(
        &SimilarityDistribution::from_similarities(&population),
        bands,
        rows,
        t,
    );
    // The count at or above t is the exact join's.
    assert_eq!(
        exact.pairs_at_or_above,
        brute_force_join(&index.sets, t).len() as f64
    );
    exact
}

/// A small template corpus (families of near-copies and verbatim copies, power-law sizes):
/// the shape `gen --templates` makes, where one family's pairs share documents by the
/// thousand.
fn template_corpus(seed: u64) -> lshscope_core::corpus::Corpus {
    use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
    generate_templated(&TemplateOptions {
        docs: 600,
        seed,
        max_family: 60,
        ..TemplateOptions::default()
    })
    .corpus
}

/// `truth --estimate-pairs` (stratified) then `tune --similarities`: on corpora of families
/// and chains, and of templates, for 20 seeds of the hash and the sample each, the 95 %
/// intervals of the count at or above t, expected candidates, recall and precision cover the
/// exact values (from every pair, the count checked against the exact join) at least 18
/// times in 20, and the count's top stays within 1.5 times the exact count. The candidates
/// stratum is drawn, not taken whole, so the draws among pairs that share documents are what
/// is tested.
#[test]
fn stratified_estimates_cover_the_exact_values_on_dependent_corpora() {
    use lshscope_core::analysis::stratified::{StrataDesign, stratified_pair_sample};
    let shingle = ShingleOptions {
        kind: ShingleKind::Word(1),
        ..ShingleOptions::default()
    };
    type Case = (
        &'static str,
        fn(u64) -> lshscope_core::corpus::Corpus,
        usize,
        f64,
        (usize, usize),
    );
    // Bandings whose P moves across the pairs at t, so recall is not simply 1.
    let cases: [Case; 4] = [
        ("families and chains", dependent_corpus, 1200, 0.5, (16, 6)),
        ("families and chains", dependent_corpus, 1200, 0.7, (16, 6)),
        ("templates", template_corpus, 3000, 0.8, (10, 10)),
        ("templates", template_corpus, 3000, 0.9, (6, 16)),
    ];
    for (name, make, m, t, (bands, rows)) in cases {
        let corpus = make(5);
        let mut covered = [0usize; 4];
        let mut widths = Vec::new();
        let mut tops = Vec::new();
        let mut mass_tops = Vec::new();
        let seeds = 20u64;
        for seed in 1..=seeds {
            let options = IndexOptions {
                shingle: shingle.clone(),
                num_perm: 128,
                seed,
                ..IndexOptions::default()
            };
            let index = build_index(&corpus, &options, &Progress::new()).unwrap();
            let exact = exact_estimate(&index, bands, rows, t);
            let sample = stratified_pair_sample(
                &index.sets,
                &index.signatures,
                128,
                SketchFamily::Classic,
                m,
                StrataDesign::with_default_lower(t),
                1000 + seed,
                &Progress::new(),
            )
            .unwrap();
            let candidates = sample.candidates();
            assert!(
                !candidates.is_census(),
                "{name}: {} candidates, all taken",
                candidates.pairs
            );
            assert_eq!(
                sample.population(),
                (index.len() * (index.len() - 1) / 2) as u64
            );
            let iv = sample.intervals(bands, rows, t).unwrap();
            let inside = |v: f64, (lo, hi): (f64, f64)| lo <= v && v <= hi;
            covered[0] += inside(exact.pairs_at_or_above, iv.pairs_at_or_above) as usize;
            covered[1] += inside(exact.expected_candidates, iv.expected_candidates) as usize;
            let recall = iv.expected_recall.expect("enough sampled pairs at t");
            let precision = iv.expected_precision.expect("enough sampled pairs at t");
            covered[2] += inside(exact.expected_recall.unwrap(), recall) as usize;
            covered[3] += inside(exact.expected_precision.unwrap(), precision) as usize;
            widths.push(recall.1 - recall.0);
            tops.push(iv.pairs_at_or_above.1 / exact.pairs_at_or_above);
            mass_tops.push(iv.expected_candidates.1 / exact.expected_candidates);
        }
        eprintln!(
            "{name}, m = {m}, t = {t}: covered {covered:?} of {seeds}; recall interval widths \
             {:.3}–{:.3}; count's top over the exact count up to {:.3}; expected candidates' \
             top over the exact up to {:.3}",
            widths.iter().copied().fold(f64::INFINITY, f64::min),
            widths.iter().copied().fold(0.0, f64::max),
            tops.iter().copied().fold(0.0, f64::max),
            mass_tops.iter().copied().fold(0.0, f64::max)
        );
        for (k, &c) in covered.iter().enumerate() {
            assert!(c >= 18, "{name}, t = {t}, estimate {k}: {c} of {seeds}");
        }
        // Narrow where the user decides: the others stratum's draws alone put the count's top
        // up to 2.2 times the exact count here (and 5 times on 63k Debian descriptions);
        // bounding the pairs the permissive banding missed keeps it within 1.5.
        let top = tops.iter().copied().fold(0.0, f64::max);
        assert!(
            top <= 1.5,
            "{name}, t = {t}: count's top {top:.3} × the exact"
        );
        // And the top of expected candidates, which `--budget` reads: up to 1.63 here with
        // the lower level from t = 0.7 and the split of the others' mass (1.71 with neither).
        let top = mass_tops.iter().copied().fold(0.0, f64::max);
        assert!(
            top <= 1.8,
            "{name}, t = {t}: expected candidates' top {top:.3} × the exact"
        );
    }
}

/// The candidates stratum's size is the number of distinct candidate pairs of the permissive
/// banding, as `scan` (find_candidates) counts them, and a stratum small enough is taken
/// whole: then the count at or above t of the candidates is exact.
#[test]
fn candidates_stratum_is_the_distinct_candidates() {
    use lshscope_core::analysis::stratified::{StrataDesign, stratified_pair_sample};
    use lshscope_core::minhash::{BandingOptions, find_candidates};
    let design = StrataDesign::two_strata(0.6);
    for corpus in [dependent_corpus(2), template_corpus(2)] {
        let index = word_index(&corpus, 4);
        let p = Progress::new();
        let sample = stratified_pair_sample(
            &index.sets,
            &index.signatures,
            128,
            Classic,
            100,
            design,
            1,
            &p,
        )
        .unwrap();
        let found = find_candidates(
            &index.signatures,
            &BandingOptions {
                banding: sample.banding,
                max_bucket: None,
            },
            &p,
        )
        .unwrap();
        assert_eq!(sample.candidates().pairs, found.pairs.len() as u64);
        assert!(
            found.bucket_pairs > found.pairs.len() as u64,
            "some pairs in several bands"
        );
        // A budget above the candidates takes them whole: exactly their similarities.
        let m = 2 * found.pairs.len() + 1000;
        let whole = stratified_pair_sample(
            &index.sets,
            &index.signatures,
            128,
            Classic,
            m,
            design,
            1,
            &p,
        )
        .unwrap();
        assert!(whole.candidates().is_census());
        let listed: Vec<(u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b)).collect();
        assert_same_similarities(&whole.candidates().similarities, &index, &listed);
        // Every other pair is outside the banding's candidates.
        assert_eq!(
            whole.strata[1].pairs,
            whole.population() - found.pairs.len() as u64
        );
    }
}

/// `truth --estimate-pairs` sketches only the permissive banding's b × r rows of the sets
/// ([`strata_signatures`]); the explorer samples from the full signatures it holds. For the
/// same seed both give the same sample, so the same estimates, in every sketch family and
/// whether the candidates are drawn or taken whole. The strata sketch one document per
/// identical set and copy its row to the others, which must not change a row.
#[test]
fn strata_signatures_give_the_sample_of_the_full_index() {
    use lshscope_core::analysis::stratified::{
        StrataDesign, strata_signatures, stratified_pair_sample,
    };
    let corpus = template_corpus(3);
    for family in SketchFamily::ALL {
        for (t, m) in [(0.5, 400), (0.9, 100_000)] {
            let options = IndexOptions {
                shingle: ShingleOptions {
                    kind: ShingleKind::Word(1),
                    ..ShingleOptions::default()
                },
                num_perm: 128,
                seed: 6,
                family,
            };
            let p = Progress::new();
            let index = build_index(&corpus, &options, &p).unwrap();
            let design = StrataDesign::with_default_lower(t);
            let strata = strata_signatures(&index.sets, &options, design, &p).unwrap();
            let rows = design.rows_used(128).unwrap();
            if family != SketchFamily::OnePermutation {
                assert_eq!(strata.num_perm(), rows, "{family}");
            }
            // Every document, the verbatim copies (whose rows are copied from their first
            // document's) and the first documents alike.
            let copies = lshscope_core::minhash::IdenticalGroups::find(&index.sets).copies();
            assert!(copies > 0, "the corpus has verbatim copies");
            for doc in 0..corpus.len() {
                assert_eq!(
                    strata.row(doc)[..rows],
                    index.signatures.row(doc)[..rows],
                    "{family}: document {doc}"
                );
            }
            let explorer = stratified_pair_sample(
                &index.sets,
                &index.signatures,
                128,
                family,
                m,
                design,
                6,
                &p,
            )
            .unwrap();
            let cli = stratified_pair_sample(&index.sets, &strata, 128, family, m, design, 6, &p)
                .unwrap();
            assert_eq!(explorer, cli, "{family}, t = {t}");
            assert_eq!(
                explorer.intervals(20, 5, t).map(|iv| iv.pairs_at_or_above),
                cli.intervals(20, 5, t).map(|iv| iv.pairs_at_or_above)
            );
            assert!(explorer.sampled() > 0);
        }
    }
}

/// The lower candidates stratum is the distinct candidates of the lower level's permissive
/// banding that the first banding does not make candidates, as `find_candidates` lists both;
/// taken whole when the budget covers it, and drawn with the same size otherwise; the others
/// are every pair in neither.
#[test]
fn lower_stratum_is_the_lower_bandings_further_candidates() {
    use lshscope_core::analysis::stratified::{StrataDesign, stratified_pair_sample};
    use lshscope_core::minhash::{BandingOptions, find_candidates};
    use std::collections::BTreeSet;
    let design = StrataDesign {
        threshold: 0.8,
        lower_threshold: Some(0.5),
    };
    for corpus in [dependent_corpus(3), template_corpus(3)] {
        let p = Progress::new();
        let index = word_index(&corpus, 5);
        let (first, lower) = design.levels(128).unwrap();
        let pairs_of = |banding| -> BTreeSet<(u32, u32)> {
            find_candidates(
                &index.signatures,
                &BandingOptions {
                    banding,
                    max_bucket: None,
                },
                &p,
            )
            .unwrap()
            .pairs
            .iter()
            .map(|c| (c.a, c.b))
            .collect()
        };
        let first_pairs = pairs_of(first.banding);
        let further: Vec<(u32, u32)> = pairs_of(lower.unwrap().banding)
            .difference(&first_pairs)
            .copied()
            .collect();
        assert!(!further.is_empty());
        let sample_of = |m| {
            stratified_pair_sample(
                &index.sets,
                &index.signatures,
                128,
                Classic,
                m,
                design,
                2,
                &p,
            )
            .unwrap()
        };
        let whole = sample_of(8 * (first_pairs.len() + further.len()) + 8000);
        assert_eq!(whole.lower.map(|l| l.threshold), Some(0.5));
        let names: Vec<&str> = whole.strata.iter().map(|s| s.name).collect();
        assert_eq!(names, ["candidates", "lower_candidates", "others"]);
        let stratum = &whole.strata[1];
        assert!(stratum.is_census());
        assert_eq!(stratum.pairs, further.len() as u64);
        assert_same_similarities(&stratum.similarities, &index, &further);
        assert_eq!(
            whole.strata[2].pairs,
            whole.population() - (first_pairs.len() + further.len()) as u64
        );
        // Drawn: the same strata sizes, m/8 of the lower candidates.
        let drawn = sample_of(800);
        assert_eq!(
            drawn.strata.iter().map(|s| s.pairs).collect::<Vec<_>>(),
            whole.strata.iter().map(|s| s.pairs).collect::<Vec<_>>()
        );
        if further.len() > 100 {
            assert_eq!(drawn.strata[1].similarities.len(), 100);
        }
    }
}

/// The index of `corpus` the strata tests build: word 1-shingles, K = 128, `seed`.
fn word_index(corpus: &lshscope_core::corpus::Corpus, seed: u64) -> lshscope_core::minhash::Index {
    let options = IndexOptions {
        shingle: ShingleOptions {
            kind: ShingleKind::Word(1),
            ..ShingleOptions::default()
        },
        num_perm: 128,
        seed,
        ..IndexOptions::default()
    };
    build_index(corpus, &options, &Progress::new()).unwrap()
}

/// A stratum taken whole holds exactly the Jaccard values of `pairs`, in any order.
fn assert_same_similarities(
    got: &[f64],
    index: &lshscope_core::minhash::Index,
    pairs: &[(u32, u32)],
) {
    let mut got = got.to_vec();
    let mut want: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| {
            lshscope_core::minhash::similarity::jaccard(
                index.sets.get(a as usize),
                index.sets.get(b as usize),
            )
        })
        .collect();
    got.sort_by(f64::total_cmp);
    want.sort_by(f64::total_cmp);
    assert_eq!(got, want);
}
