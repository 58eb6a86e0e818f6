//! `lshscope scan` end to end: output format, ordering, options and errors.

use assert_cmd::Command;
use predicates::prelude::*;

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

const QUESTIONS: &str = "sample_data/questions.txt";

fn scan_csv(args: &[&str]) -> Vec<Vec<String>> {
    let out = lshscope()
        .arg("scan")
        .arg(QUESTIONS)
        .args(args)
        .arg("-q")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn writes_header_and_pairs_in_input_order() {
    let rows = scan_csv(&["--bands", "32", "--rows", "2"]);
    assert_eq!(
        rows[0],
        ["id_a", "id_b", "jaccard", "estimate", "bands_hit"]
    );
    let pairs: Vec<(u32, u32)> = rows[1..]
        .iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    assert!(pairs.len() >= 15, "{pairs:?}");
    assert!(pairs.iter().all(|(a, b)| a < b));
    assert!(
        pairs.windows(2).all(|w| w[0] < w[1]),
        "rows must be ordered by (a, b)"
    );
    // The two password questions are near duplicates.
    assert!(pairs.contains(&(1, 2)));
    for r in &rows[1..] {
        let j: f64 = r[2].parse().unwrap();
        let e: f64 = r[3].parse().unwrap();
        let hits: u32 = r[4].parse().unwrap();
        assert!((0.0..=1.0).contains(&j) && (0.0..=1.0).contains(&e) && (1..=32).contains(&hits));
    }
}

#[test]
fn threshold_keeps_only_similar_pairs() {
    let all = scan_csv(&["-b", "32", "-r", "2"]);
    let kept = scan_csv(&["-b", "32", "-r", "2", "--threshold", "0.5"]);
    assert!(kept.len() < all.len());
    assert!(
        kept[1..]
            .iter()
            .all(|r| r[2].parse::<f64>().unwrap() >= 0.5)
    );
    let expected = all[1..]
        .iter()
        .filter(|r| r[2].parse::<f64>().unwrap() >= 0.5)
        .count();
    assert_eq!(kept.len() - 1, expected);
}

#[test]
fn jsonl_output_and_summary_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pairs.jsonl");
    let summary = dir.path().join("summary.json");
    lshscope()
        .args([
            "scan",
            QUESTIONS,
            "-b",
            "32",
            "-r",
            "2",
            "--output-format",
            "jsonl",
            "-q",
            "-o",
        ])
        .arg(&out)
        .arg("--summary-json")
        .arg(&summary)
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&out).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for key in ["id_a", "id_b", "jaccard", "estimate", "bands_hit"] {
        assert!(first.get(key).is_some(), "{key} missing in {first}");
    }
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["read"]["documents"], 40);
    assert_eq!(
        s["candidates"].as_u64().unwrap() as usize,
        text.lines().count()
    );
    assert_eq!(s["bands"], 32);
    assert!(s["phases"].as_array().unwrap().len() >= 4);
}

#[test]
fn summary_goes_to_stderr_unless_quiet() {
    lshscope()
        .args(["scan", QUESTIONS])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("read 40 documents")
                .and(predicate::str::contains("candidate pairs")),
        );
    lshscope()
        .args(["scan", QUESTIONS, "--quiet"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn bands_times_rows_beyond_num_perm_is_a_clear_error() {
    lshscope()
        .args(["scan", QUESTIONS, "--bands", "30", "--rows", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("150 hashes").and(predicate::str::contains("--num-perm")));
    lshscope()
        .args(["scan", QUESTIONS, "--threshold", "1.5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--threshold"));
    lshscope()
        .args(["scan", "no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.txt"));
}

#[test]
fn max_bucket_caps_huge_buckets_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("boilerplate.txt");
    let mut text = String::new();
    for _ in 0..300 {
        text.push_str("This message was sent from a mobile device, please excuse typos.\n");
    }
    text.push_str("Something else entirely different from the rest of the lines.\n");
    std::fs::write(&input, text).unwrap();
    let full = lshscope()
        .arg("scan")
        .arg(&input)
        .args(["-q"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(full.stdout).unwrap().lines().count(),
        1 + 300 * 299 / 2
    );
    let capped = lshscope()
        .arg("scan")
        .arg(&input)
        .args(["--max-bucket", "20"])
        .output()
        .unwrap();
    assert!(capped.status.success());
    assert_eq!(
        String::from_utf8(capped.stdout).unwrap().lines().count(),
        1 + 20 * 19 / 2
    );
    let stderr = String::from_utf8(capped.stderr).unwrap();
    assert!(stderr.contains("largest bucket: 300 documents"), "{stderr}");
    assert!(
        stderr.contains("--max-bucket capped 20 buckets"),
        "{stderr}"
    );
}

#[test]
fn empty_documents_never_collide() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("blanks.txt");
    std::fs::write(&input, "\n   \nsame words here\n\nsame words here\n").unwrap();
    let out = lshscope().arg("scan").arg(&input).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        ["id_a,id_b,jaccard,estimate,bands_hit", "3,5,1,1,20"]
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("3 empty") && stderr.contains("3 without shingles"),
        "{stderr}"
    );
}
