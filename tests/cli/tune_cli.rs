//! `lshscope tune`: every flag, every output format, and the errors for bad arguments.

use assert_cmd::Command;
use lshscope_core::minhash::scurve::candidate_probability;
use predicates::prelude::*;
use serde_json::Value;

use crate::cli_support;
use cli_support::assert_numbers_grouped;

const PAIRS: &str = "tests/data/math/pairs.csv";
const SIMILARITIES: &str = "tests/data/math/similarities.txt";

fn tune() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

fn tune_json(args: &[&str]) -> Value {
    let out = tune()
        .arg("tune")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn row<'a>(report: &'a Value, criterion: &str) -> &'a Value {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["criterion"] == criterion)
        .unwrap_or_else(|| panic!("no {criterion} row in {report}"))
}

fn banding(row: &Value) -> (u64, u64) {
    (
        row["bands"].as_u64().unwrap(),
        row["rows"].as_u64().unwrap(),
    )
}

/// The pair similarities in the fixture, read independently of the code under test.
fn fixture_similarities() -> Vec<f64> {
    std::fs::read_to_string(SIMILARITIES)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

#[test]
fn datasketch_row_follows_the_weights() {
    // Expected picks from datasketch 2.0.0 (see crates/lshscope-core/tests/engine/scurve.rs for the full table).
    let even = tune_json(&["--num-perm", "128", "--threshold", "0.8"]);
    assert_eq!(banding(row(&even, "datasketch")), (9, 13));
    let fn_heavy = tune_json(&[
        "--num-perm",
        "128",
        "--threshold",
        "0.8",
        "--fp-weight",
        "0.1",
        "--fn-weight",
        "0.9",
    ]);
    assert_eq!(banding(row(&fn_heavy, "datasketch")), (14, 9));
    let k256 = tune_json(&["-k", "256", "-t", "0.9"]);
    assert_eq!(banding(row(&k256, "datasketch")), (9, 28));
}

#[test]
fn json_carries_every_number_of_the_table() {
    let report = tune_json(&["--threshold", "0.8"]);
    assert_eq!(report["num_perm"], 128);
    assert_eq!(report["threshold"], 0.8);
    let r = row(&report, "datasketch");
    for key in [
        "bands",
        "rows",
        "hashes",
        "steepest_point",
        "steepest_slope",
        "approximate_threshold",
        "probability_at_threshold",
        "similarity_at_10",
        "similarity_at_50",
        "similarity_at_90",
        "false_positive_area",
        "false_negative_area",
        "unused_permutations",
    ] {
        assert!(r[key].is_number(), "{key} missing in {r}");
    }
    // 9 × 13 uses 117 of 128 and misses most pairs at 0.8: both warnings.
    assert_eq!(r["unused_permutations"], 11);
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains("11 computed but never banded"),
        "{warnings}"
    );
    assert!(warnings.contains("most pairs at the threshold are missed"));
    let p = r["probability_at_threshold"].as_f64().unwrap();
    assert!((p - candidate_probability(0.8, 9, 13)).abs() < 1e-12);
}

#[test]
fn recall_row_meets_min_recall() {
    let report = tune_json(&["--threshold", "0.7", "--min-recall", "0.95"]);
    let r = row(&report, "recall");
    assert!(r["probability_at_threshold"].as_f64().unwrap() >= 0.95);
    assert!(r["hashes"].as_u64().unwrap() <= 128);
}

#[test]
fn constraints_reproduce_42_by_3_in_fractions_and_percent() {
    for (reject, accept) in [("0.05:0.6%", "0.5:99.6%"), ("0.05:0.006", "0.5:0.996")] {
        let report = tune_json(&[
            "--num-perm",
            "128",
            "--threshold",
            "0.5",
            "--reject",
            reject,
            "--accept",
            accept,
        ]);
        let r = row(&report, "constraints");
        assert_eq!(banding(r), (42, 3));
        assert!((r["probability_at_threshold"].as_f64().unwrap() - 0.9963).abs() < 5e-5);
        assert_eq!(report["chosen"], "constraints");
    }
    tune()
        .args([
            "tune",
            "-t",
            "0.5",
            "--reject",
            "0.05:0.6%",
            "--accept",
            "0.5:99.6%",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("constraints    42    3    126"))
        .stdout(predicate::str::contains("99.63 %"));
}

#[test]
fn impossible_constraints_are_reported() {
    let report = tune_json(&["-t", "0.8", "--reject", "0.79:0.01", "--accept", "0.8:0.99"]);
    assert!(
        report["not_found"][0]
            .as_str()
            .unwrap()
            .starts_with("constraints: no banding")
    );
}

#[test]
fn pairs_add_corpus_columns() {
    let report = tune_json(&["-t", "0.8", "--pairs", PAIRS]);
    let values = fixture_similarities();
    let r = row(&report, "datasketch");
    let (b, c) = banding(r);
    let expected: f64 = values
        .iter()
        .map(|&s| candidate_probability(s, b as usize, c as usize))
        .sum();
    let corpus = &r["corpus"];
    assert!((corpus["expected_candidates"].as_f64().unwrap() - expected).abs() < 1e-9);
    let above: Vec<f64> = values.iter().copied().filter(|&s| s >= 0.8).collect();
    let found: f64 = above
        .iter()
        .map(|&s| candidate_probability(s, b as usize, c as usize))
        .sum();
    let recall = corpus["expected_recall"].as_f64().unwrap();
    assert!((recall - found / above.len() as f64).abs() < 1e-12);
    let precision = corpus["expected_precision"].as_f64().unwrap();
    assert!((precision - found / expected).abs() < 1e-12);
    assert_eq!(report["corpus"]["pairs"], 40.0);
    assert!(report["notes"][0].as_str().unwrap().contains("scan"));
    // Table shows the extra columns.
    tune()
        .args(["tune", "-t", "0.8", "--pairs", PAIRS])
        .assert()
        .success()
        .stdout(predicate::str::contains("exp. cands"))
        .stdout(predicate::str::contains("recall@t"));
}

#[test]
fn scan_banding_reweights_pairs() {
    // With a 1 × 1 scan, P₀(s) = s: each pair weighs 1/s, so the corpus size is Σ 1/s and a
    // 1 × 1 banding expects Σ (1/s)·s = 40 candidates, exactly the pairs the scan found.
    let report = tune_json(&[
        "-t",
        "0.8",
        "--pairs",
        PAIRS,
        "--scan-banding",
        "1x1",
        "--banding",
        "1x1",
    ]);
    let inverse: f64 = fixture_similarities().iter().map(|s| 1.0 / s).sum();
    assert!((report["corpus"]["pairs"].as_f64().unwrap() - inverse).abs() < 1e-9);
    let given = &row(&report, "given")["corpus"];
    assert!((given["expected_candidates"].as_f64().unwrap() - 40.0).abs() < 1e-9);
    assert!(report["notes"][0].as_str().unwrap().contains("1/P₀(s)"));
    fails_with(&["-t", "0.8", "--scan-banding", "20x5"], "--pairs");
}

/// A banding given with --banding that a criterion also picked repeats its row: the given
/// row says which, and one that no criterion picked says nothing more.
#[test]
fn a_given_banding_names_the_rows_that_picked_it_too() {
    let picked = tune_json(&["-t", "0.8", "--pairs", PAIRS]);
    let (b, r) = banding(row(&picked, "recall"));
    let recall_pick = format!("{b}x{r}");
    let report = tune_json(&[
        "-t",
        "0.8",
        "--pairs",
        PAIRS,
        "--banding",
        &recall_pick,
        "--banding",
        "1x1",
    ]);
    let given: Vec<&Value> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["criterion"] == "given")
        .collect();
    assert_eq!(given.len(), 2);
    let description = given[0]["description"].as_str().unwrap();
    assert!(
        description.ends_with("; the recall row above picks it too"),
        "{description}"
    );
    assert_eq!(
        given[1]["description"].as_str().unwrap(),
        "the banding given with --banding"
    );
}

#[test]
fn similarities_as_list_and_as_csv_agree() {
    let list = tune_json(&["-t", "0.8", "--similarities", SIMILARITIES]);
    let csv = tune_json(&["-t", "0.8", "--similarities", PAIRS]);
    assert_eq!(
        row(&list, "recall")["corpus"],
        row(&csv, "recall")["corpus"]
    );
}

#[test]
fn budget_picks_best_recall_within_budget() {
    for budget in ["3", "12"] {
        let report = tune_json(&["-t", "0.8", "--pairs", PAIRS, "--budget", budget]);
        let r = row(&report, "budget");
        let cands = r["corpus"]["expected_candidates"].as_f64().unwrap();
        assert!(cands <= budget.parse::<f64>().unwrap());
        assert_eq!(report["chosen"], "budget");
    }
    let impossible = tune_json(&["-t", "0.8", "--pairs", PAIRS, "--budget", "0"]);
    assert!(impossible["not_found"].to_string().contains("budget"));
}

#[test]
fn csv_format_has_one_line_per_row() {
    let out = tune()
        .args(["tune", "-t", "0.8", "--banding", "20x5", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    assert!(headers.iter().any(|h| h == "probability_at_threshold"));
    let records: Vec<_> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(records.len(), 3); // recall, datasketch, given
    assert_eq!(&records[2][0], "given");
    assert_eq!(&records[2][1], "20");
}

#[test]
fn for_each_tool_prints_its_own_terms() {
    let cases = [
        (
            "datatrove",
            vec!["num_buckets=", "hashes_per_bucket=", "n_grams="],
        ),
        (
            "text-dedup",
            vec![
                "[algorithm]",
                "num_perm = 128",
                "bands = 16",
                "rows = 6",
                "ngram_size = 5",
                "threshold = 0.8",
                "check_false_positive = true",
                "uv run -m text_dedup.minhash",
                "# WARNING: tuned on char:5 shingles, but text-dedup's ngram_size counts words",
            ],
        ),
        ("datasketch", vec!["MinHashLSH(num_perm=128, params=("]),
        ("spark", vec!["numHashTables=", "cannot express", "no AND"]),
        (
            "nemo",
            vec!["char_ngrams=5", "num_bands=", "minhashes_per_band="],
        ),
    ];
    for (tool, needles) in cases {
        let out = tune()
            .args(["tune", "-t", "0.8", "--for", tool])
            .output()
            .unwrap();
        assert!(out.status.success(), "{tool}");
        let text = String::from_utf8(out.stdout).unwrap();
        for n in needles {
            assert!(text.contains(n), "{tool}: `{n}` missing in\n{text}");
        }
    }
    // Word shingles: datatrove is fine, NeMo says it cannot.
    let report = tune_json(&["-t", "0.8", "--for", "nemo", "--shingle", "word:3"]);
    assert!(
        report["export"]["notes"]
            .to_string()
            .contains("cannot express word:3")
    );
    let report = tune_json(&["-t", "0.8", "--for", "datatrove", "--shingle", "word:3"]);
    assert_eq!(report["export"]["parameters"]["n_grams"], 3);
    // Spark can express r = 1 bandings exactly: K = 4, P(0.3) ≥ 0.5 is met most sharply by
    // 2 × 1 (P(0.3) = 0.51), and Spark then needs no "cannot" note.
    let report = tune_json(&[
        "-k",
        "4",
        "-t",
        "0.3",
        "--min-recall",
        "0.5",
        "--for",
        "spark",
    ]);
    assert_eq!(banding(&report["rows"][0]), (2, 1));
    assert_eq!(report["export"]["parameters"]["numHashTables"], 2);
    assert!(
        !report["export"]["notes"]
            .to_string()
            .contains("cannot express")
    );
}

fn fails_with(args: &[&str], needle: &str) {
    tune()
        .arg("tune")
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(needle));
}

#[test]
fn bad_arguments_fail_with_clear_errors() {
    fails_with(&["-t", "1.5"], "--threshold must be in [0, 1]");
    fails_with(&["--threshold=-0.1"], "--threshold must be in [0, 1]");
    fails_with(&["-t", "0.8", "--reject", "1.2:0.1"], "outside [0, 1]");
    fails_with(&["-t", "0.8", "--accept", "0.5:150%"], "outside [0, 1]");
    fails_with(&["-t", "0.8", "--accept", "0.5"], "expected S:P");
    fails_with(&["-t", "0.8", "--for", "pandas"], "invalid value 'pandas'");
    fails_with(
        &["-t", "0.8", "-k", "128", "--banding", "20x7"],
        "needs 140 permutations but --num-perm is 128",
    );
    fails_with(&["-t", "0.8", "--banding", "20by7"], "expected BANDSxROWS");
    fails_with(
        &["-t", "0.8", "--budget", "10"],
        "--budget needs pair similarities",
    );
    fails_with(&["-t", "0.8", "--fp-weight=-1"], "--fp-weight");
    fails_with(
        &["-t", "0.8", "--fp-weight", "0", "--fn-weight", "0"],
        "cannot both be 0",
    );
    fails_with(&["-t", "0.8", "--for", "spark", "--format", "csv"], "--for");
    fails_with(&["-t", "0.8", "-k", "0"], "--num-perm");
    fails_with(
        &[
            "-t",
            "0.8",
            "--similarities",
            "tests/data/math/similarities_bad.txt",
        ],
        "similarities_bad.txt:4: column 1: similarity 1.3 is outside [0, 1]",
    );
    fails_with(
        &["-t", "0.8", "--pairs", "tests/data/math/similarities.txt"],
        "no `jaccard` column",
    );
    fails_with(
        &["-t", "0.8", "--pairs", "tests/data/math/missing.csv"],
        "missing.csv",
    );
    fails_with(
        &[
            "-t",
            "0.8",
            "--pairs",
            PAIRS,
            "--similarities",
            SIMILARITIES,
        ],
        "cannot be used with",
    );
}

#[test]
fn truth_file_gives_expected_recall_over_the_true_pairs() {
    // A truth file as `lshscope truth` writes it: ids and the exact Jaccard of every pair at or
    // above the join threshold (here 0.6).
    let dir = tempfile::tempdir().unwrap();
    let truth = dir.path().join("truth.csv");
    let sims = [0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 0.95, 1.0];
    let mut text = String::from("id_a,id_b,jaccard\n");
    for (i, s) in sims.iter().enumerate() {
        text.push_str(&format!("d{i},e{i},{s}\n"));
    }
    std::fs::write(&truth, text).unwrap();
    let report = tune_json(&[
        "-t",
        "0.7",
        "--truth",
        truth.to_str().unwrap(),
        "--banding",
        "20x5",
    ]);
    let given = row(&report, "given");
    let above: Vec<f64> = sims.iter().copied().filter(|&s| s >= 0.7).collect();
    let expected = above
        .iter()
        .map(|&s| candidate_probability(s, 20, 5))
        .sum::<f64>()
        / above.len() as f64;
    let recall = given["corpus"]["expected_recall"].as_f64().unwrap();
    assert!((recall - expected).abs() < 1e-12, "{recall} vs {expected}");
    assert!(
        report["notes"]
            .to_string()
            .contains("the truth file's pairs at or above t")
    );
    tune()
        .args(["tune", "-t", "0.7", "--truth"])
        .arg(&truth)
        .args(["--pairs", PAIRS])
        .assert()
        .code(2);
}

/// P(s) written out independently of the engine: 1 − (1 − s^r)^b.
fn p_of(s: f64, b: u64, r: u64) -> f64 {
    1.0 - (1.0 - s.powi(r as i32)).powi(b as i32)
}

#[test]
fn rows_report_width_the_approximation_bounds_and_quantiles() {
    let report = tune_json(&[
        "-t",
        "0.5",
        "--reject",
        "0.05:0.6%",
        "--accept",
        "0.5:99.6%",
        "--quantiles",
        "0.001,0.5,0.99",
    ]);
    for row in report["rows"].as_array().unwrap() {
        let (b, r) = banding(row);
        let width =
            row["similarity_at_90"].as_f64().unwrap() - row["similarity_at_10"].as_f64().unwrap();
        assert!((row["width_10_90"].as_f64().unwrap() - width).abs() < 1e-12);
        let approx = (1.0 / b as f64).powf(1.0 / r as f64);
        let at_approx = row["probability_at_approximate_threshold"]
            .as_f64()
            .unwrap();
        assert!((at_approx - p_of(approx, b, r)).abs() < 1e-12, "{row}");
        // Every bound, with its P and whether it holds.
        let bounds = row["bounds"].as_array().unwrap();
        assert_eq!(bounds.len(), 2);
        for (bound, (s, limit, reject)) in bounds
            .iter()
            .zip([(0.05, 0.006, true), (0.5, 0.996, false)])
        {
            let p = p_of(s, b, r);
            assert!((bound["probability"].as_f64().unwrap() - p).abs() < 1e-12);
            assert_eq!(bound["met"], if reject { p <= limit } else { p >= limit });
        }
        // Quantiles: P(s) = p at each reported s.
        let q = row["quantiles"].as_array().unwrap();
        assert_eq!(q.len(), 3);
        for pair in q {
            let (p, s) = (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap());
            assert!((p_of(s, b, r) - p).abs() < 1e-9, "{row}");
        }
    }
    let constraints = row(&report, "constraints");
    assert!(
        constraints["bounds"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["met"] == true)
    );
}

#[test]
fn infeasible_constraints_give_the_closest_banding_and_the_k_that_suffices() {
    let report = tune_json(&[
        "-t",
        "0.5",
        "-k",
        "32",
        "--reject",
        "0.05:0.6%",
        "--accept",
        "0.5:99.6%",
    ]);
    let not_found = report["not_found"].to_string();
    assert!(
        not_found.contains("raise --num-perm to 126 (42 × 3 meets them)"),
        "{not_found}"
    );
    // Brute force: 42 × 3 meets both bounds and no banding with fewer hashes does.
    let meets = |b: u64, r: u64| p_of(0.05, b, r) <= 0.006 && p_of(0.5, b, r) >= 0.996;
    assert!(meets(42, 3));
    for b in 1..126u64 {
        for r in 1..=125 / b {
            assert!(!meets(b, r), "{b} × {r}");
        }
    }
    // The closest banding is listed, after the others, and never chosen for an export.
    let closest = row(&report, "closest");
    let (b, r) = banding(closest);
    assert!(b * r <= 32);
    let violation = |b: u64, r: u64| {
        let reject = (p_of(0.05, b, r) / 0.006).max(1.0).ln();
        let accept = ((1.0 - p_of(0.5, b, r)) / (1.0 - 0.996)).max(1.0).ln();
        reject + accept
    };
    let best = (1..=32u64)
        .flat_map(|b| (1..=32 / b).map(move |r| (b, r)))
        .map(|(b, r)| violation(b, r))
        .fold(f64::INFINITY, f64::min);
    assert!((violation(b, r) - best).abs() < 1e-9);
    assert_ne!(report["chosen"], "closest");
    assert_eq!(
        report["rows"].as_array().unwrap().last().unwrap()["criterion"],
        "closest"
    );
}

#[test]
fn quantiles_outside_zero_and_one_are_refused() {
    tune()
        .args(["tune", "-t", "0.5", "--quantiles", "0.5,1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("strictly between 0 and 1"));
}

#[test]
fn constraints_search_without_a_threshold() {
    let report = tune_json(&[
        "--reject",
        "0.05:0.6%",
        "--accept",
        "0.5:99.6%",
        "--banding",
        "20x5",
    ]);
    assert!(report["threshold"].is_null());
    let criteria: Vec<&str> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["criterion"].as_str().unwrap())
        .collect();
    assert_eq!(criteria, ["constraints", "given"]);
    assert_eq!(banding(row(&report, "constraints")), (42, 3));
    assert!(row(&report, "given")["probability_at_threshold"].is_null());
    fails_with(&[], "give --threshold T, or constraints");
    fails_with(
        &["--banding", "20x5", "--for", "spark"],
        "--for needs --threshold T",
    );
    fails_with(
        &["--banding", "20x5", "--similarities", SIMILARITIES],
        "need --threshold T",
    );
}

#[test]
fn datasketch_refusals_are_said() {
    // datasketch/lsh.py raises for b < 2 and for weights whose sum is not exactly 1.0.
    let report = tune_json(&[
        "-k",
        "3",
        "-t",
        "0.9",
        "--min-recall",
        "0.5",
        "--for",
        "datasketch",
    ]);
    // The recall pick is searched among the bandings datasketch takes (1 × 3 otherwise).
    assert_eq!(banding(&report["rows"][0]), (2, 1));
    assert!(
        report["notes"]
            .to_string()
            .contains("was searched among bandings with b ≥ 2")
    );
    assert!(
        !report["export"]["notes"]
            .to_string()
            .contains("raises ValueError for b < 2")
    );
    // datasketch's own pick can have b < 2 (then it raises); exported, it is said so.
    // (No banding reaches P = 1, so the datasketch row comes first.)
    let report = tune_json(&[
        "-k",
        "3",
        "-t",
        "0.99",
        "--min-recall",
        "1",
        "--for",
        "datasketch",
    ]);
    assert_eq!(report["chosen"], "datasketch");
    assert_eq!(banding(&report["rows"][0]), (1, 3));
    assert!(
        report["export"]["notes"]
            .to_string()
            .contains("datasketch cannot express 1 × 3: MinHashLSH raises ValueError for b < 2")
    );
    let report = tune_json(&["-t", "0.8", "--fp-weight", "0.3", "--fn-weight", "0.3"]);
    let row = row(&report, "datasketch");
    assert!(
        row["warnings"]
            .to_string()
            .contains("must lie in [0, 1] and sum to 1.0")
    );
    // Scaling both weights leaves the pick unchanged.
    let plain = tune_json(&["-t", "0.8"]);
    assert_eq!(banding(row), banding(super_row(&plain, "datasketch")));
    let fine = tune_json(&["-t", "0.8", "--fp-weight", "0.7", "--fn-weight", "0.3"]);
    assert!(
        !super_row(&fine, "datasketch")["warnings"]
            .to_string()
            .contains("sum to 1.0")
    );
}

fn super_row<'a>(report: &'a Value, criterion: &str) -> &'a Value {
    row(report, criterion)
}

#[test]
fn spark_snippet_keeps_pairs_at_exactly_t_once_each() {
    // Spark's approxSimilarityJoin keeps distance < threshold (strictly) and a self-join
    // returns (a, b), (b, a) and (a, a).
    let report = tune_json(&["-t", "0.8", "--for", "spark"]);
    let snippet = report["export"]["snippet"].as_str().unwrap();
    assert!(
        snippet.contains("approxSimilarityJoin(df, df, 0.200000001,"),
        "{snippet}"
    );
    assert!(snippet.contains("datasetA.id < datasetB.id"));
    assert!(!report["export"].to_string().contains("0.19999"));
    assert!(
        report["export"]["notes"]
            .to_string()
            .contains("single characters")
    );
    // MinHashLSHModel requires a non-empty vector, and NGram(n) gives none under n tokens.
    let words = tune_json(&["-t", "0.8", "--for", "spark", "--profile", "spark"]);
    assert!(
        words["export"]["notes"]
            .to_string()
            .contains("Must have at least 1 non zero entry"),
        "{}",
        words["export"]["notes"]
    );
}

#[test]
fn text_dedup_gets_a_config_toml_table() {
    // The current text-dedup reads config.toml, which must hold [input], [algorithm], [output]
    // and [debug]; its [algorithm] table names the banding `bands` and `rows` and the n-gram
    // size `ngram_size`; nested flags (`--algorithm.bands`) override the file, the old `--b`
    // flags are gone (text-dedup main at 1bd3f5c, again at 7538f3e).
    let report = tune_json(&["-t", "0.7", "--for", "text-dedup", "--shingle", "word:3"]);
    let p = &report["export"]["parameters"];
    let (b, r) = banding(&report["rows"][0]);
    assert_eq!(p["algorithm_name"], "minhash");
    assert_eq!(
        (p["bands"].as_u64(), p["rows"].as_u64()),
        (Some(b), Some(r))
    );
    assert_eq!(p["ngram_size"], 3);
    assert_eq!(p["check_false_positive"], true);
    let snippet = report["export"]["snippet"].as_str().unwrap();
    assert!(
        snippet.contains(&format!("bands = {b}\nrows = {r}\n")),
        "{snippet}"
    );
    assert!(
        !snippet.contains("--b "),
        "no command-line flags: {snippet}"
    );
    let notes = report["export"]["notes"].to_string();
    assert!(notes.contains("[debug]"), "{notes}");
    assert!(notes.contains("--algorithm.bands"), "{notes}");
    assert!(!notes.contains("only from config.toml"), "{notes}");
}

#[test]
fn nemo_exports_run_as_nemo_checks_them() {
    // FuzzyDeduplicationWorkflow raises unless 1 ≤ bands_per_iteration ≤ num_bands (default
    // 5), shingles characters only, and removes every candidate (NeMo Curator at 1075bd3).
    let report = tune_json(&["-k", "4", "-t", "0.3", "--for", "nemo"]);
    let (b, _) = banding(&report["rows"][0]);
    assert!(b < 5, "a banding with fewer than 5 bands: {b}");
    assert_eq!(report["export"]["parameters"]["bands_per_iteration"], b);
    assert!(
        report["export"]["snippet"]
            .as_str()
            .unwrap()
            .contains(&format!("bands_per_iteration={b}"))
    );
    assert!(
        report["export"]["notes"]
            .to_string()
            .contains("removes every candidate")
    );
    let words = tune_json(&["-t", "0.8", "--for", "nemo", "--shingle", "word:3"]);
    assert!(
        words["export"]["parameters"]["char_ngrams"].is_null(),
        "no guessed size"
    );
    let wide = tune_json(&["-t", "0.8", "--for", "nemo"]);
    assert!(
        wide["export"]["parameters"]
            .get("bands_per_iteration")
            .is_none()
    );
}

#[test]
fn a_thresholded_pairs_file_is_pointed_out() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = dir.path().join("kept.csv");
    std::fs::write(
        &pairs,
        "id_a,id_b,jaccard,estimate,bands_hit\na,b,0.52,0.5,3\nc,d,0.9,0.9,12\n",
    )
    .unwrap();
    let report = tune_json(&["-t", "0.6", "--pairs", pairs.to_str().unwrap()]);
    assert!(
        report["notes"]
            .to_string()
            .contains("the lowest Jaccard in the pairs file is 0.52"),
        "{}",
        report["notes"]
    );
    // The fixture is a scan at threshold 0: no such note.
    let plain = tune_json(&["-t", "0.6", "--pairs", PAIRS]);
    assert!(
        !plain["notes"]
            .to_string()
            .contains("lowest Jaccard in the pairs file")
    );
}

#[test]
fn tools_that_remove_every_candidate_get_the_removal_pick() {
    // datatrove and NeMo remove every candidate: the exported banding keeps removals at
    // t − 0.3 within 5 % and then finds the most pairs at t.
    for tool in ["datatrove", "nemo"] {
        let report = tune_json(&["-t", "0.8", "--for", tool]);
        assert_eq!(report["chosen"], "removal", "{tool}");
        let (b, r) = banding(&report["rows"][0]);
        assert!(p_of(0.5, b, r) <= 0.05);
        let best = (1..=128u64)
            .flat_map(|b| (1..=128 / b).map(move |r| (b, r)))
            .filter(|&(b, r)| p_of(0.5, b, r) <= 0.05)
            .map(|(b, r)| p_of(0.8, b, r))
            .fold(0.0, f64::max);
        assert!((p_of(0.8, b, r) - best).abs() < 1e-12);
        assert_eq!((b, r), (13, 8));
    }
    // A tool that verifies keeps the recall pick; an explicit bound applies to any.
    let spark = tune_json(&["-t", "0.8", "--for", "spark"]);
    assert_ne!(spark["chosen"], "removal");
    let explicit = tune_json(&["-t", "0.8", "--max-false-removal", "0.6:10%"]);
    let (b, r) = banding(row(&explicit, "removal"));
    assert!(p_of(0.6, b, r) <= 0.10);
    fails_with(
        &["--banding", "20x5", "--max-false-removal", "0.6:10%"],
        "needs --threshold",
    );
}

/// A template-heavy corpus from `lshscope gen --templates` in a temporary directory.
fn template_corpus(dir: &std::path::Path, docs: usize) -> std::path::PathBuf {
    let path = dir.join("templates.csv");
    let out = tune()
        .args(["gen", "--templates", "--max-family", "150", "--seed", "5"])
        .args(["-n", &docs.to_string(), "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

/// The candidate pairs `lshscope scan` writes for this banding and seed (threshold 0 keeps
/// every candidate), counted from its CSV.
fn scanned_pairs(corpus: &std::path::Path, bands: u64, rows: u64, seed: u64) -> u64 {
    let out = tune()
        .arg("scan")
        .arg(corpus)
        .args(["-k", "32", "--quiet", "-o", "-"])
        .args(["-b", &bands.to_string(), "-r", &rows.to_string()])
        .args(["--seed", &seed.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().lines().count() as u64 - 1
}

#[test]
fn corpus_seed_spread_counts_what_scan_finds_and_the_budget_holds_for_every_seed() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = template_corpus(dir.path(), 1500);
    let corpus_arg = corpus.to_str().unwrap();
    let seeds = [1u64, 2, 3];
    // The fewest candidates any banding gives (identical copies always collide): budgets
    // are set above it.
    let floor = tune_json(&[
        "--corpus",
        corpus_arg,
        "--seeds",
        "3",
        "-k",
        "32",
        "--banding",
        "1x32",
    ]);
    let floor_row = row(&floor, "given");
    let floor = floor_row["seed_spread"]["max"].as_f64().unwrap();
    assert!(floor > 0.0);
    for factor in [1.2, 3.0] {
        let budget = (floor * factor).round();
        let report = tune_json(&[
            "--corpus",
            corpus_arg,
            "--seeds",
            "3",
            "-k",
            "32",
            "-t",
            "0.7",
            "--budget",
            &budget.to_string(),
        ]);
        assert_eq!(report["seed_corpus"]["documents"], 1500);
        assert_eq!(report["seed_corpus"]["pair_scale"], 1.0);
        let picked = row(&report, "budget");
        let (b, r) = banding(picked);
        let spread = &picked["seed_spread"];
        for (i, &seed) in seeds.iter().enumerate() {
            let found = scanned_pairs(&corpus, b, r, seed);
            assert!(
                found as f64 <= budget,
                "{b}×{r} seed {seed}: {found} > {budget}"
            );
            assert_eq!(spread["candidates"][i].as_f64().unwrap(), found as f64);
        }
        // One more band (same rows) breaks the budget for some seed, or no band is left.
        if (b + 1) * r <= 32 {
            let worst = seeds
                .iter()
                .map(|&s| scanned_pairs(&corpus, b + 1, r, s))
                .max()
                .unwrap();
            assert!(worst as f64 > budget, "{}×{r} also fits {budget}", b + 1);
        }
        // Every row carries its spread.
        for row in report["rows"].as_array().unwrap() {
            assert_eq!(
                row["seed_spread"]["candidates"].as_array().unwrap().len(),
                3
            );
        }
    }
}

/// `tune --corpus --family` counts the candidates of that family's signatures (what `scan
/// --family` finds), and the report names the family (JSON always, the table when not
/// classic).
#[test]
fn corpus_counts_follow_the_chosen_sketch_family() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = template_corpus(dir.path(), 800);
    let corpus_arg = corpus.to_str().unwrap();
    let args = [
        "--corpus",
        corpus_arg,
        "--seeds",
        "1",
        "-k",
        "32",
        "--banding",
        "8x4",
    ];
    let report = tune_json(&[&args[..], &["--family", "c-minhash"]].concat());
    assert_eq!(report["family"], "c-minhash");
    let counted = row(&report, "given")["seed_spread"]["candidates"][0]
        .as_f64()
        .unwrap();
    let out = tune()
        .arg("scan")
        .arg(&corpus)
        .args(["-k", "32", "-b", "8", "-r", "4", "--quiet", "-o", "-"])
        .args(["--family", "c-minhash"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let scanned = String::from_utf8(out.stdout).unwrap().lines().count() - 1;
    assert_eq!(counted, scanned as f64);
    assert_eq!(tune_json(&args)["family"], "classic");
    let table = tune()
        .arg("tune")
        .args(args)
        .args(["--family", "c-minhash"])
        .output()
        .unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.starts_with("K = 32 permutations, c-minhash sketches, "),
        "{text}"
    );
}

/// `tune --for` names the family the tool draws its rows with (classic for every tool it
/// knows); tuned in another family with `--corpus`, the export gives the tool's family's
/// candidate count at the exported banding on the same documents and seeds, which is what
/// `scan` in that family finds.
#[test]
fn the_export_measures_the_tools_family_when_the_tuning_used_another() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = template_corpus(dir.path(), 800);
    let corpus_arg = corpus.to_str().unwrap();
    let args = [
        "--corpus",
        corpus_arg,
        "--seeds",
        "1",
        "-k",
        "32",
        "--banding",
        "8x4",
        "-t",
        "0.8",
        "--for",
        "text-dedup",
    ];
    let same = tune_json(&args);
    assert_eq!(same["export"]["family"], "classic");
    let notes: Vec<String> = same["export"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("classic family, as this tuning did")),
        "{notes:?}"
    );
    assert!(!notes.iter().any(|n| n.starts_with("measured on --corpus")));

    let other = tune_json(&[&args[..], &["--family", "one-permutation"]].concat());
    let notes: Vec<String> = other["export"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    let measured = notes
        .iter()
        .find(|n| n.starts_with("measured on --corpus"))
        .unwrap_or_else(|| panic!("{notes:?}"));
    // The classic count in the note is what a classic scan finds at the exported banding.
    let exported = &other["rows"][0];
    let (b, r) = (exported["bands"].to_string(), exported["rows"].to_string());
    assert!(measured.contains(&format!("at {b}×{r}:")), "{measured}");
    let out = tune()
        .arg("scan")
        .arg(&corpus)
        .args(["-k", "32", "-b", &b, "-r", &r, "--quiet", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let scanned = String::from_utf8(out.stdout).unwrap().lines().count() - 1;
    let classic = format!(
        "classic (text-dedup) gives {} candidate pairs",
        lshscope_core::util::numfmt::thousands(scanned as u64)
    );
    assert!(measured.contains(&classic), "{measured} vs {classic}");
    assert!(measured.contains("; one-permutation gives "), "{measured}");
    // One seed is one draw of each family, and the note says so.
    assert!(measured.contains("--seeds 5 shows how far"), "{measured}");
}

#[test]
fn corpus_options_without_a_corpus_are_refused() {
    tune()
        .args(["tune", "-t", "0.5", "--text-column", "body"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("need --corpus INPUT"));
    tune()
        .args(["tune", "-t", "0.5", "--seeds", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--corpus"));
}

#[test]
fn a_sampled_corpus_reports_estimates() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = template_corpus(dir.path(), 1500);
    let out = tune()
        .args(["tune", "--corpus"])
        .arg(&corpus)
        .args(["--sample", "500", "-k", "32", "-t", "0.7"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("a uniform sample of 500 of its 1,500 documents"),
        "{text}"
    );
    assert!(
        text.contains("candidates on the corpus (estimated from the sample): ≈"),
        "{text}"
    );
    assert!(text.contains("N(N−1)/(n(n−1)) = 9.01"), "{text}");
    // Every seed shares the sample's error: the count carries its interval.
    assert!(text.contains("; 95 % interval "), "{text}");
    let out = tune()
        .args(["tune", "--corpus"])
        .arg(&corpus)
        .args(["--sample", "500", "-k", "32", "-t", "0.7", "--seeds", "2"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let spread = &report["rows"][0]["seed_spread"];
    let (low, high) = (
        spread["low"].as_f64().unwrap(),
        spread["high"].as_f64().unwrap(),
    );
    assert!(low <= spread["min"].as_f64().unwrap(), "{spread}");
    assert!(high > spread["max"].as_f64().unwrap(), "{spread}");
    for (interval, count) in spread["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .zip(spread["candidates"].as_array().unwrap())
    {
        let count = count.as_f64().unwrap();
        assert!(interval[0].as_f64().unwrap() <= count, "{spread}");
        assert!(interval[1].as_f64().unwrap() > count, "{spread}");
    }
}

/// The hand-off walkthrough in docs/tuning.md shows, for each tool, the table rows and the
/// export that `tune -t 0.8 --profile TOOL --for TOOL` prints. The banding columns and the
/// export do not depend on the corpus, so they must read exactly as the binary prints them today.
#[test]
fn docs_hand_off_blocks_match_what_tune_prints() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tuning.md")).unwrap();
    let start = page
        .find("\n## Handing the banding to another tool")
        .expect("the hand-off section");
    let section = &page[start + 1..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let tools = [
        ("datatrove", "datatrove"),
        ("text-dedup", "text-dedup"),
        ("NeMo Curator", "nemo"),
        ("datasketch", "datasketch"),
        ("Spark MLlib", "spark"),
    ];
    let mut checked = Vec::new();
    for block in section.split("```text\n").skip(1) {
        let block = &block[..block.find("```").expect("closed block")];
        let lines: Vec<&str> = block.lines().collect();
        let (heading, &(_, tool)) = lines
            .iter()
            .find_map(|l| {
                tools
                    .iter()
                    .find(|(name, _)| l.starts_with(&format!("{name} parameters for the")))
                    .map(|t| (*l, t))
            })
            .expect("each block shows an export");
        let mut args = vec!["tune", "-t", "0.8", "--profile", tool, "--for", tool];
        let given: Vec<String> = lines
            .iter()
            .filter(|l| l.starts_with("given "))
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                format!("{}x{}", f[1], f[2])
            })
            .collect();
        for g in &given {
            args.extend(["--banding", g.as_str()]);
        }
        let out = tune().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let printed = String::from_utf8(out.stdout).unwrap();
        let printed_lines: Vec<&str> = printed.lines().collect();
        let mut in_export = false;
        for line in &lines {
            if *line == heading {
                in_export = true;
            }
            let row = ["removal ", "recall ", "given ", "datasketch "]
                .iter()
                .any(|p| line.starts_with(p));
            if row && !in_export {
                // The docs' row carries the corpus columns after the banding's own.
                assert!(
                    printed_lines.iter().any(|p| {
                        p.split_whitespace().next() == line.split_whitespace().next()
                            && line.starts_with(p.trim_end())
                    }),
                    "{tool}: docs/tuning.md row {line:?} is not what tune prints:\n{printed}"
                );
            } else if in_export && line.contains('…') {
                let pieces: Vec<&str> = line.split('…').filter(|p| !p.trim().is_empty()).collect();
                assert!(
                    printed_lines
                        .iter()
                        .any(|p| pieces.iter().all(|piece| p.contains(piece))),
                    "{tool}: docs/tuning.md line {line:?} is not a trimmed printed line:\n{printed}"
                );
            } else if in_export {
                assert!(
                    printed_lines.contains(line),
                    "{tool}: docs/tuning.md line {line:?} is not printed:\n{printed}"
                );
            }
        }
        checked.push(tool);
    }
    assert_eq!(
        checked,
        ["datatrove", "text-dedup", "nemo", "datasketch", "spark"],
        "one block per tool, in the page's order"
    );
}

/// `tune` on the pairs of `scan -b 20 -r 5 -t 0.5` with --scan-banding 20x5 (F5, F6): the
/// weights correct for the pairs the banding missed, not for those the scan's threshold
/// dropped, so the note on the lowest Jaccard stays and the corpus-wide estimate says it
/// covers only pairs from there up; estimated pair counts are whole pairs.
#[test]
fn scan_banding_on_a_thresholded_pairs_file_keeps_its_floor_and_whole_pair_counts() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.csv");
    let pairs = dir.path().join("pairs.csv");
    let run = |args: &[&str]| {
        let out = tune().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let (corpus_arg, pairs_arg) = (corpus.to_str().unwrap(), pairs.to_str().unwrap());
    run(&["gen", "-n", "2000", "--seed", "3", "-o", corpus_arg]);
    run(&[
        "scan", corpus_arg, "-b", "20", "-r", "5", "-t", "0.5", "--quiet", "-o", pairs_arg,
    ]);
    // The lowest Jaccard in the file, read without the code under test.
    let lowest = std::fs::read_to_string(&pairs)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse::<f64>().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert!((0.5..0.8).contains(&lowest), "{lowest}");

    let tune = || {
        run(&[
            "tune",
            "-t",
            "0.8",
            "--pairs",
            pairs_arg,
            "--scan-banding",
            "20x5",
        ])
    };
    let text = tune();
    let floor_in = |line: &str, after: &str| -> f64 {
        let rest = &line[line
            .find(after)
            .unwrap_or_else(|| panic!("{after}: {text}"))
            + after.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        rest[..end].trim_end_matches('.').parse().unwrap()
    };
    let note = text
        .lines()
        .find(|l| l.starts_with("note: the lowest Jaccard in the pairs file is "))
        .unwrap_or_else(|| panic!("the note on the lowest Jaccard stays: {text}"));
    assert!(
        (floor_in(note, "pairs file is ") - lowest).abs() < 1e-9,
        "{note}"
    );
    // The header and the weighting note say the estimate stops at that floor.
    let header = text.lines().next().unwrap();
    assert!(header.contains(" pairs with Jaccard ≥ "), "{header}");
    assert!(
        (floor_in(header, "with Jaccard ≥ ") - lowest).abs() < 1e-9,
        "{header}"
    );
    let weighting = text
        .lines()
        .find(|l| l.contains("1/P₀(s)"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        weighting.contains("all pairs of the corpus with Jaccard ≥ ")
            && weighting.contains("describe that range only"),
        "{weighting}"
    );
    assert!((floor_in(weighting, "corpus with Jaccard ≥ ") - lowest).abs() < 1e-9);
    assert!(!text.contains("give --scan-banding"), "{text}");

    // No estimate shows a fraction of a pair: every `≈N` is whole, and so is exp. cands.
    let estimates: Vec<&str> = text
        .split_whitespace()
        .filter_map(|w| w.trim_start_matches('(').strip_prefix('≈'))
        .collect();
    assert_eq!(
        estimates.len(),
        2,
        "pairs and pairs at or above t: {header}"
    );
    for e in estimates {
        assert!(
            e.replace(',', "").parse::<u64>().is_ok(),
            "≈{e} in {header}"
        );
    }
    let columns = text.lines().nth(1).unwrap();
    assert!(columns.starts_with("criterion"), "{columns}");
    let mut rows = 0;
    for line in text.lines().skip(2) {
        if line.starts_with(' ') || line.starts_with("note:") || line.starts_with("not found") {
            continue;
        }
        // criterion b r hashes steepest P(t) % s@10% s@50% s@90% width exp.cands …
        let cands = line.split_whitespace().nth(11).unwrap();
        assert!(
            cands.replace(',', "").parse::<u64>().is_ok(),
            "exp. cands {cands}: {line}"
        );
        rows += 1;
    }
    assert!(rows >= 2, "{text}");

    // Scanned at t itself, precision is 100 % by construction, and said so.
    run(&[
        "scan", corpus_arg, "-b", "20", "-r", "5", "-t", "0.8", "--quiet", "-o", pairs_arg,
    ]);
    let at_t = tune();
    assert!(
        at_t.contains("the lowest Jaccard in the pairs file is")
            && at_t.contains("precision is 100 % by construction"),
        "{at_t}"
    );
}

/// `--for datatrove` with a `--budget`: the exported row is `removal` (datatrove removes every
/// candidate), and a note says so and why the budget row is not exported; a budget row that
/// keeps the removal bound too goes first and is the one exported.
#[test]
fn for_a_removing_tool_the_note_names_the_exported_row() {
    let report = tune_json(&[
        "-t",
        "0.8",
        "--pairs",
        PAIRS,
        "--budget",
        "200000000",
        "--for",
        "datatrove",
    ]);
    assert_eq!(report["chosen"], "removal");
    assert_eq!(report["rows"][0]["criterion"], "removal");
    assert_eq!(report["export"]["criterion"], "removal");
    let budget = row(&report, "budget");
    let (b, r) = banding(budget);
    assert!(p_of(0.5, b, r) > 0.05, "the budget row breaks the bound");
    let notes = report["notes"].to_string();
    assert!(
        notes.contains(
            "--for exports the `removal` row (13 × 8): datatrove removes every candidate"
        ) && notes.contains(&format!("the `budget` row ({b} × {r}) is not exported")),
        "{notes}"
    );

    // A small budget whose row keeps P(0.5) ≤ 5 %: that row keeps both limits.
    let report = tune_json(&[
        "-t",
        "0.8",
        "--pairs",
        PAIRS,
        "--budget",
        "5",
        "--for",
        "datatrove",
    ]);
    assert_eq!(report["chosen"], "budget");
    assert_eq!(report["rows"][0]["criterion"], "budget");
    let (b, r) = banding(&report["rows"][0]);
    assert!(p_of(0.5, b, r) <= 0.05);
    assert_eq!(report["export"]["parameters"]["num_buckets"], b);
    assert!(
        report["notes"]
            .to_string()
            .contains("--for exports the `budget` row"),
        "{}",
        report["notes"]
    );
    // The table's export heading names the exported row and its banding.
    let out = tune()
        .args(["tune", "-t", "0.8", "--pairs", PAIRS, "--budget", "5"])
        .args(["--for", "datatrove"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "datatrove parameters for the `budget` row ({b} × {r}):"
        )),
        "{text}"
    );
    // No bound, no note: a tool that verifies exports the budget row as before.
    let verified = tune_json(&[
        "-t",
        "0.8",
        "--pairs",
        PAIRS,
        "--budget",
        "5",
        "--for",
        "text-dedup",
    ]);
    assert_eq!(verified["chosen"], "budget");
    assert!(!verified["notes"].to_string().contains("--for exports"));
}

/// Similarities with no pair at or above t: no negative zero anywhere, and precision is
/// undefined like recall (`n/a`, JSON null), with a note.
#[test]
fn no_pair_at_or_above_t_leaves_recall_and_precision_undefined() {
    let dir = tempfile::tempdir().unwrap();
    let sims = dir.path().join("low.txt");
    std::fs::write(&sims, "0.1\n0.2\n0.35\n").unwrap();
    let sims = sims.to_str().unwrap();
    let out = tune()
        .args(["tune", "-t", "0.9", "--similarities", sims])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(0 pairs at or above t)"), "{text}");
    assert!(!text.contains("-0 "), "negative zero in\n{text}");
    let recall_row = text.lines().find(|l| l.starts_with("recall ")).unwrap();
    assert!(
        recall_row.trim_end().ends_with("n/a        n/a"),
        "{recall_row}"
    );
    assert!(
        text.contains("recall and precision at t are undefined (n/a)"),
        "{text}"
    );
    let report = tune_json(&["-t", "0.9", "--similarities", sims]);
    let above = report["corpus"]["pairs_at_or_above_threshold"]
        .as_f64()
        .unwrap();
    assert!(above == 0.0 && above.is_sign_positive());
    for r in report["rows"].as_array().unwrap() {
        assert!(r["corpus"]["expected_precision"].is_null(), "{r}");
        assert!(r["corpus"]["expected_recall"].is_null(), "{r}");
    }
    // With a pair at t, precision is back.
    let report = tune_json(&["-t", "0.3", "--similarities", sims]);
    assert!(report["rows"][0]["corpus"]["expected_precision"].is_f64());
}

/// Negative numbers reach the range checks (not clap's `unexpected argument '-0'`).
#[test]
fn negative_numbers_get_the_range_message() {
    fails_with(&["-t", "-0.1"], "--threshold must be in [0, 1], got -0.1");
    fails_with(
        &["-t", "0.5", "--min-recall", "-1"],
        "--min-recall must be in [0, 1]",
    );
    fails_with(
        &["-t", "0.5", "--fp-weight", "-1"],
        "--fp-weight must be a non-negative",
    );
    fails_with(
        &["-t", "0.5", "--quantiles", "-0.1,0.5"],
        "strictly between 0 and 1, got -0.1",
    );
    fails_with(
        &["-t", "0.5", "--pairs", PAIRS, "--budget", "-3"],
        "--budget must be a non-negative number",
    );
    for args in [
        &[
            "plot", "scurve", "-b", "2", "-r", "2", "-t", "-0.1", "-o", "x.svg",
        ][..],
        &[
            "plot",
            "histogram",
            "--pairs",
            PAIRS,
            "-t",
            "-0.1",
            "-o",
            "x.svg",
        ][..],
    ] {
        tune()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--threshold must be in [0, 1], got -0.1",
            ));
    }
    tune()
        .args([
            "plot", "scurve", "-b", "2", "-r", "2", "-k", "0", "-o", "x.svg",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--num-perm must be at least 1"));
}

/// Word-only tools given char shingles: the block to paste says, inside itself, that its
/// n-gram size is not what was tuned on; with the tool's profile it does not.
#[test]
fn char_shingles_for_a_word_tool_are_flagged_inside_the_block() {
    for (tool, parameter) in [("datatrove", "n_grams"), ("text-dedup", "ngram_size")] {
        let report = tune_json(&["-t", "0.8", "--for", tool]);
        let snippet = report["export"]["snippet"].as_str().unwrap();
        assert!(
            snippet.contains(&format!(
                "# WARNING: tuned on char:5 shingles, but {tool}'s {parameter} counts words"
            )) && snippet.contains(&format!("--profile {tool}")),
            "{snippet}"
        );
        let matched = tune_json(&["-t", "0.8", "--for", tool, "--profile", tool]);
        let snippet = matched["export"]["snippet"].as_str().unwrap();
        assert!(!snippet.contains("WARNING"), "{snippet}");
    }
}

/// A weighted sample of pairs (`truth --estimate-pairs`) where only a handful reach t: the
/// count at or above t carries its interval and the sample size, recall and precision at t
/// are not printed as numbers, and a note says why; each row gets its intervals.
#[test]
fn a_sample_with_few_pairs_above_t_warns_instead_of_estimating() {
    let dir = tempfile::tempdir().unwrap();
    let sample = dir.path().join("sample.csv");
    let mut text = String::from("jaccard,weight\n");
    for i in 0..2000 {
        // 5 of 2,000 sampled pairs reach 0.7; each stands for 1,000 pairs.
        let s = if i % 400 == 0 {
            0.8
        } else {
            0.05 + (i % 7) as f64 * 0.01
        };
        text.push_str(&format!("{s},1000\n"));
    }
    std::fs::write(&sample, text).unwrap();
    let out = tune()
        .args([
            "tune",
            "-t",
            "0.7",
            "--similarities",
            sample.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "(≈5,000 pairs at or above t, 95 % interval 2,136–11,679; in the sample: 5 of 2,000)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("recall@t n/a (too few sampled pairs at t)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("only 5 of the 2,000 sampled pairs have Jaccard ≥ 0.7"),
        "{stdout}"
    );
    let report = tune_json(&["-t", "0.7", "--similarities", sample.to_str().unwrap()]);
    let first = &report["rows"][0];
    assert!(first["corpus"]["expected_recall"].is_null(), "{first}");
    assert_eq!(first["sampled"]["sampled_at_or_above"], 5);
    let (lo, hi) = (
        first["sampled"]["expected_candidates"][0].as_f64().unwrap(),
        first["sampled"]["expected_candidates"][1].as_f64().unwrap(),
    );
    let value = first["corpus"]["expected_candidates"].as_f64().unwrap();
    assert!(0.0 < lo && lo < value && value < hi, "{lo} {value} {hi}");
}

/// `tune --for datasketch` never exports a banding datasketch refuses (b < 2): a constraint
/// search whose cheapest answer is one band of 5 rows finds the cheapest with two bands.
#[test]
fn datasketch_picks_are_searched_among_the_bandings_it_takes() {
    let constraints = ["-t", "0.85", "--accept", "0.9:0.5", "--reject", "0.5:0.05"];
    let plain = tune_json(&constraints);
    assert_eq!(banding(row(&plain, "constraints")), (1, 5));
    assert!(!plain["notes"].to_string().contains("b ≥ 2"));

    let mut args = constraints.to_vec();
    args.extend(["--for", "datasketch"]);
    let report = tune_json(&args);
    assert_eq!(report["chosen"], "constraints");
    let (b, r) = banding(row(&report, "constraints"));
    assert_eq!((b, r), (2, 6));
    // Still within the constraints, and the fewest hashes among two or more bands.
    assert!(
        row(&report, "constraints")["bounds"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["met"] == true)
    );
    assert_eq!(
        report["export"]["parameters"]["params"],
        serde_json::json!([2, 6])
    );
    assert!(
        !report["export"]["notes"]
            .to_string()
            .contains("cannot express")
    );
    assert!(
        report["notes"]
            .to_string()
            .contains("datasketch refuses bandings with fewer than 2 bands")
    );
    // The table says so too.
    let out = tune().arg("tune").args(&args).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("params=(2, 6)"), "{text}");
    assert!(!text.contains("params=(1, 5)"), "{text}");
    assert!(
        text.contains("searched among bandings with b ≥ 2"),
        "{text}"
    );
    // A tool that takes one band keeps the unrestricted pick.
    let mut args = constraints.to_vec();
    args.extend(["--for", "text-dedup"]);
    let report = tune_json(&args);
    assert_eq!(banding(row(&report, "constraints")), (1, 5));
    assert!(!report["notes"].to_string().contains("b ≥ 2"));
}

/// Every `--for` tool's notes read as sentences: no run of spaces left inside one by a
/// broken line continuation (the family note once had 18 in the middle).
#[test]
fn export_notes_have_no_runs_of_spaces() {
    for tool in ["datatrove", "text-dedup", "datasketch", "spark", "nemo"] {
        let out = tune()
            .args(["tune", "-t", "0.8", "--profile", tool, "--for", tool])
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let notes: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  - "))
            .collect();
        assert!(
            notes.iter().any(|n| n.contains("draws its rows as")),
            "{tool}: no family note in\n{text}"
        );
        for note in notes {
            assert!(!note.contains("  "), "{tool}: spaces in the note {note:?}");
        }
        let report = tune_json(&["-t", "0.8", "--profile", tool, "--for", tool]);
        for note in report["export"]["notes"].as_array().unwrap() {
            let note = note.as_str().unwrap();
            assert!(
                !note.contains("  "),
                "{tool}: spaces in the JSON note {note:?}"
            );
        }
    }
}

/// datatrove, NeMo Curator and Spark compute exactly the hashes their banding uses (no
/// separate num_perm), so with `--for` one of them no row warns of permutations "computed but
/// never banded"; text-dedup and datasketch take num_perm beside the banding and keep it.
#[test]
fn unused_permutations_are_warned_of_only_for_tools_that_compute_them() {
    for tool in ["datatrove", "nemo", "spark"] {
        let report = tune_json(&["-t", "0.8", "--for", tool]);
        for r in report["rows"].as_array().unwrap() {
            assert!(r["hashes"].as_u64().unwrap() < 128, "{tool}: {r}");
            assert_eq!(r["unused_permutations"], 0, "{tool}: {r}");
            assert!(
                !r["warnings"].to_string().contains("never banded"),
                "{tool}: {}",
                r["warnings"]
            );
        }
        let out = tune()
            .args(["tune", "-t", "0.8", "--for", tool])
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(!text.contains("never banded"), "{tool}:\n{text}");
    }
    for tool in ["text-dedup", "datasketch"] {
        let report = tune_json(&["-t", "0.8", "--for", tool]);
        let r = row(&report, "datasketch");
        assert_eq!(r["unused_permutations"], 11, "{tool}");
        assert!(
            r["warnings"]
                .to_string()
                .contains("uses 117 of 128 permutations: 11 computed but never banded"),
            "{tool}: {}",
            r["warnings"]
        );
    }
}

/// A weighted sample of 2,000 pairs standing for 1,000 each, 400 of them at or above t: the
/// table's counts read with thousands separators, the count at or above t is marked as an
/// estimate even when it is whole and says what it counts, and JSON keeps plain numbers.
#[test]
fn tune_text_groups_thousands_and_marks_the_sampled_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let sample = dir.path().join("sample.csv");
    let mut text = String::from("jaccard,weight\n");
    for i in 0..2000 {
        let s = if i % 5 == 0 { 0.9 } else { 0.3 };
        text.push_str(&format!("{s},1000\n"));
    }
    std::fs::write(&sample, text).unwrap();
    let sample = sample.to_str().unwrap();
    let out = tune()
        .args(["tune", "-t", "0.8", "--similarities", sample])
        .args(["--banding", "20x5", "--budget", "1500000"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert_numbers_grouped("tune --similarities", &stdout);
    let header = stdout.lines().next().unwrap();
    assert!(
        header.contains("2,000,000 pairs from ")
            && header.contains("(≈400,000 pairs at or above t, 95 % interval ")
            && header.ends_with("; in the sample: 400 of 2,000)"),
        "{header}"
    );
    let given = stdout.lines().find(|l| l.starts_with("given ")).unwrap();
    let expected = 400_000.0 * candidate_probability(0.9, 20, 5)
        + 1_600_000.0 * candidate_probability(0.3, 20, 5);
    let cands = given.split_whitespace().nth(11).unwrap();
    assert_eq!(
        cands.replace(',', "").parse::<f64>().unwrap(),
        expected.round(),
        "{given}"
    );
    assert!(cands.contains(','), "{given}");
    let report = tune_json(&["-t", "0.8", "--similarities", sample]);
    assert_eq!(report["corpus"]["pairs"], 2_000_000.0);
    assert_eq!(report["corpus"]["pairs_at_or_above_threshold"], 400_000.0);
}

/// Tuning prints counts, never ids, so repeated ids are not warned about there, while `scan`
/// on the same file (whose pairs name documents by id) warns.
#[test]
fn corpus_with_repeated_ids_is_tuned_without_the_id_warning() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("repeated.csv");
    std::fs::write(
        &corpus,
        "id,text\nx,the first of three notes\nx,the second of three notes\ny,another one\n",
    )
    .unwrap();
    let warning = "an earlier id";
    let out = tune()
        .args(["tune", "-t", "0.8", "--corpus"])
        .arg(&corpus)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains(warning), "{err}");
    let out = tune()
        .args(["scan", "-o", "-"])
        .arg(&corpus)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains(warning));
}

/// Pairs that all reach a high Jaccard given as `--similarities` (a truth file, as a new user
/// passed one) are said to be no sample of all pairs, with the options that read them; a
/// sample holding dissimilar pairs gets no such note.
#[test]
fn similarities_from_a_threshold_up_are_called_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let truth = dir.path().join("truth.csv");
    std::fs::write(
        &truth,
        "id_a,id_b,jaccard\na,b,0.91\na,c,0.84\nb,c,0.8\nd,e,1\n",
    )
    .unwrap();
    let report = tune_json(&["-t", "0.8", "--similarities", truth.to_str().unwrap()]);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("has Jaccard ≥ 0.8: not a sample of all pairs")
            && notes.contains("--truth")
            && notes.contains("--pairs"),
        "{notes}"
    );
    let sample = tune_json(&["-t", "0.8", "--similarities", SIMILARITIES]);
    assert!(
        !sample["notes"]
            .to_string()
            .contains("not a sample of all pairs"),
        "{sample}"
    );
}

/// At t = 0 every pair is at or above t and P(0) = 0 for every banding: the rows carry no
/// warning that most pairs at the threshold are missed (a new user found it meaningless).
#[test]
fn threshold_zero_warns_of_no_missed_pairs() {
    let report = tune_json(&["-t", "0"]);
    assert!(
        !report
            .to_string()
            .contains("most pairs at the threshold are missed"),
        "{report}"
    );
    let at_half = tune_json(&["-t", "0.5", "--banding", "2x40"]);
    assert!(
        at_half
            .to_string()
            .contains("most pairs at the threshold are missed"),
        "{at_half}"
    );
}
