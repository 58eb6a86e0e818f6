//! `--family` end to end: a scan of the job-ads sample in a cheap family finds the planted
//! pairs, summaries and index files say which family made the rows, and an index of another
//! family is refused by name.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lshscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lshscope"))
        .args(args)
        .output()
        .expect("run lshscope")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample_data")
        .join(name)
        .display()
        .to_string()
}

fn path(dir: &Path, name: &str) -> (PathBuf, String) {
    let p = dir.join(name);
    let s = p.display().to_string();
    (p, s)
}

/// One-permutation hashing on the job ads (about 1,000 shingles a document, so hardly a bin
/// is empty) follows the S-curve: at 20×5 and t = 0.8 the formula predicts 0.9999 of the
/// 502 planted pairs at or above t, and the scan measured all 502 (2026-11-27). A margin of
/// 3 % leaves room for another draw; a family that broke the rows' agreement would find far
/// fewer.
#[test]
fn one_permutation_scan_finds_the_planted_job_ad_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let (summary_path, summary) = path(dir.path(), "summary.json");
    let (_, pairs) = path(dir.path(), "pairs.csv");
    let out = lshscope(&[
        "scan",
        &sample("jobs.csv"),
        "-b",
        "20",
        "-r",
        "5",
        "-t",
        "0.8",
        "--family",
        "one-permutation",
        "--truth",
        &sample("jobs.truth.csv"),
        "-o",
        &pairs,
        "--summary-json",
        &summary,
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("K = 128, one-permutation sketches, 20 bands × 5 rows"),
        "{stderr}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
    assert_eq!(s["family"], "one-permutation");
    let report = &s["truth"]["report"];
    let true_pairs = report["true_at_threshold"].as_u64().unwrap();
    let found = report["found_at_threshold"].as_u64().unwrap();
    assert_eq!(true_pairs, 502);
    let recall = found as f64 / true_pairs as f64;
    eprintln!("one-permutation recall at t = 0.8: {found} of {true_pairs} ({recall:.4})");
    assert!(recall >= 0.97, "recall {recall}");
    assert!(report["predicted_recall"].as_f64().unwrap() > 0.999);
    // The intervals come from redraws of the chosen family; about 1 bin in 20 falls outside
    // by chance (13 bins here).
    assert_eq!(report["redraws"], 16);
    let flagged = report["flagged_bins"].as_u64().unwrap();
    assert!(
        flagged <= 2,
        "{flagged} bins outside their interval:\n{stderr}"
    );
}

#[test]
fn the_default_family_is_classic_and_its_output_is_unchanged_by_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample("questions.txt");
    let mut outputs = Vec::new();
    for family in [None, Some("classic"), Some("c-minhash")] {
        let (pairs_path, pairs) = path(dir.path(), "pairs.csv");
        let (summary_path, summary) = path(dir.path(), "summary.json");
        let mut args = vec![
            "scan",
            &input,
            "-t",
            "0.3",
            "-o",
            &pairs,
            "--summary-json",
            &summary,
        ];
        if let Some(f) = family {
            args.extend(["--family", f]);
        }
        let out = lshscope(&args);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
        assert_eq!(s["family"], family.unwrap_or("classic"));
        // The default's summary reads as before; another family is named.
        assert_eq!(
            stderr.contains("sketches"),
            family == Some("c-minhash"),
            "{stderr}"
        );
        // Questions are short texts: C-MinHash's weakness there is said, in the CLI's words.
        assert_eq!(
            stderr
                .contains("warning: half the documents have fewer shingles than --num-perm = 128")
                && stderr.contains("--family one-permutation follows the S-curve"),
            family == Some("c-minhash"),
            "{stderr}"
        );
        outputs.push(std::fs::read_to_string(&pairs_path).unwrap());
    }
    assert_eq!(outputs[0], outputs[1], "--family classic is the default");
    assert!(
        outputs[0].lines().count() > 3,
        "the sample has near-duplicates"
    );

    let out = lshscope(&["scan", &input, "--family", "oph"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("classic") && stderr.contains("one-permutation"),
        "{stderr}"
    );
}

#[test]
fn an_index_records_its_family_and_refuses_another() {
    let dir = tempfile::tempdir().unwrap();
    let (_, index) = path(dir.path(), "q.lshidx");
    let input = sample("questions.txt");
    let out = lshscope(&[
        "index",
        "build",
        &input,
        "--family",
        "c-minhash",
        "-o",
        &index,
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("seed 1, c-minhash sketches"), "{stderr}");

    let out = lshscope(&["index", "info", &index, "--json"]);
    assert!(out.status.success());
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["options"]["family"], "c-minhash");

    // Documents added and queries are sketched with the index's family: a document's own
    // text finds it with every row agreeing.
    let out = lshscope(&[
        "index",
        "query",
        &index,
        "--text",
        "--top",
        "1",
        &first_line(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let row = stdout.lines().nth(1).unwrap_or_default();
    assert!(row.ends_with(",1,1,20"), "{stdout}");

    // Opening it as another family is refused before the explorer takes the terminal.
    let out = lshscope(&["explore", &index, "--family", "one-permutation"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("q.lshidx"), "{stderr}");
    assert!(
        stderr.contains("built with the c-minhash sketch family, not one-permutation"),
        "{stderr}"
    );
    assert!(stderr.contains("--family c-minhash"), "{stderr}");

    // Reading options cannot apply to an index (its ids are as it was built): refused, not
    // ignored, also before the terminal is taken.
    for option in [&["--row-ids"][..], &["--strict"], &["--format", "csv"]] {
        let mut args = vec!["explore", index.as_str()];
        args.extend_from_slice(option);
        let out = lshscope(&args);
        assert_eq!(out.status.code(), Some(2), "{option:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(
                "q.lshidx is an index file: its documents and ids are as `index build` read them"
            ),
            "{stderr}"
        );
    }
}

fn first_line() -> String {
    std::fs::read_to_string(sample("questions.txt"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn dedup_names_the_family_in_its_summaries() {
    let dir = tempfile::tempdir().unwrap();
    let (_, out_csv) = path(dir.path(), "clusters.csv");
    let (summary_path, summary) = path(dir.path(), "dedup.json");
    let out = lshscope(&[
        "dedup",
        &sample("questions.txt"),
        "-t",
        "0.3",
        "--family",
        "one-permutation",
        "-o",
        &out_csv,
        "--summary-json",
        &summary,
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("20 bands × 5 rows, one-permutation sketches; "),
        "{stderr}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
    assert_eq!(s["family"], "one-permutation");
}

/// `scan --truth --compare-family`: both families measured over the same number of redraws on
/// the same truth pairs, side by side in the text summary and in the JSON one. The scan's own
/// family is classic here, whose mean rate over draws is the formula's in expectation, so few
/// of its bins may depart.
#[test]
fn scan_truth_compares_a_second_family_on_the_same_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let (_, corpus) = path(dir.path(), "corpus.csv");
    let (_, truth) = path(dir.path(), "truth.csv");
    let out = lshscope(&[
        "gen", "-n", "3000", "--seed", "3", "-o", &corpus, "--truth", &truth,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (summary_path, summary) = path(dir.path(), "summary.json");
    let out = lshscope(&[
        "scan",
        &corpus,
        "--truth",
        &truth,
        "--compare-family",
        "c-minhash",
        "--truth-redraws",
        "8",
        "-o",
        &path(dir.path(), "pairs.csv").1,
        "--summary-json",
        &summary,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("sketch families, mean rate over 8 draws each"),
        "{stderr}"
    );
    assert!(
        stderr.contains("bins departing from the S-curve: classic "),
        "{stderr}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(summary_path).unwrap()).unwrap();
    let families = json["truth"]["families"].as_array().expect("families");
    assert_eq!(families.len(), 2);
    assert_eq!(families[0]["family"], "classic");
    assert_eq!(families[1]["family"], "c-minhash");
    let bins = |f: &serde_json::Value| f["bins"].as_array().unwrap().len();
    assert_eq!(bins(&families[0]), bins(&families[1]));
    assert_eq!(
        bins(&families[0]),
        json["truth"]["report"]["bins"].as_array().unwrap().len()
    );
    for f in families {
        assert_eq!(f["draws"], 8);
    }
    let departing = families[0]["bins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| {
            let p = b["predicted"].as_f64().unwrap();
            p < b["interval_lo"].as_f64().unwrap() || p > b["interval_hi"].as_f64().unwrap()
        })
        .count();
    assert!(departing <= 2, "{departing} classic bins depart");

    // Without --truth the option is refused by name.
    let out = lshscope(&["scan", &corpus, "--compare-family", "c-minhash"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--truth"),
        "{}",
        text(&out.stderr)
    );
}
