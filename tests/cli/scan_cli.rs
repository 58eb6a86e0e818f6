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

/// Pairs of a scan CSV as unordered id pairs with (jaccard, estimate, bands_hit).
type PairSet = std::collections::BTreeMap<(String, String), (f64, f64, u32)>;

fn pair_set(csv: &str) -> PairSet {
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let (a, b) = (f[0].to_string(), f[1].to_string());
            let key = if a < b { (a, b) } else { (b, a) };
            (
                key,
                (
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                    f[4].parse().unwrap(),
                ),
            )
        })
        .collect()
}

/// Every pair the collapsed output stands for: each pair of representatives for all pairs of
/// their groups, and the members of a group with each other at Jaccard 1 in every band.
fn expand(pairs: &str, groups: &str, bands: u32) -> PairSet {
    let mut members: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut lines = groups.lines();
    assert_eq!(lines.next(), Some("id,representative,size"));
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        members
            .entry(f[1].to_string())
            .or_default()
            .push(f[0].to_string());
    }
    for (rep, m) in &members {
        assert_eq!(&m[0], rep, "a group's first member is its representative");
    }
    let group = |id: &String| members.get(id).cloned().unwrap_or_else(|| vec![id.clone()]);
    let mut out = PairSet::new();
    let mut add = |a: &String, b: &String, v| {
        let key = if a < b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        assert!(
            out.insert(key, v).is_none(),
            "a pair stands for itself once"
        );
    };
    for ((a, b), v) in pair_set(pairs) {
        for x in group(&a) {
            for y in group(&b) {
                add(&x, &y, v);
            }
        }
    }
    for m in members.values() {
        for (i, x) in m.iter().enumerate() {
            for y in &m[i + 1..] {
                add(x, y, (1.0, 1.0, bands));
            }
        }
    }
    out
}

#[test]
fn collapsed_identical_copies_expand_to_the_full_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("templates.csv");
    let hand = dir.path().join("hand.txt");
    std::fs::write(
        &hand,
        "a note on copper kettles\nsomething else entirely\na note on copper kettles\n\n\
         a note on copper kettles!\nsomething else entirely\n\na note on copper kettles\n",
    )
    .unwrap();
    lshscope()
        .args([
            "gen",
            "--templates",
            "-n",
            "3000",
            "--identical-group",
            "300",
            "--seed",
            "4",
        ])
        .arg("-o")
        .arg(&generated)
        .arg("-q")
        .assert()
        .success();
    for (input, bands, rows, threshold) in [
        (&generated, "16", "4", "0"),
        (&generated, "16", "4", "0.7"),
        (&hand, "32", "2", "0"),
    ] {
        let full = dir.path().join("full.csv");
        let collapsed = dir.path().join("collapsed.csv");
        let summary = dir.path().join("s.json");
        let scan = |out: &std::path::Path, extra: &[&str]| {
            let o = lshscope()
                .arg("scan")
                .arg(input)
                .args(["-b", bands, "-r", rows, "-t", threshold, "-q", "-o"])
                .arg(out)
                .args(extra)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        };
        scan(&full, &[]);
        scan(
            &collapsed,
            &[
                "--collapse-identical",
                "--summary-json",
                summary.to_str().unwrap(),
            ],
        );
        let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
        let groups = read(&dir.path().join("collapsed.groups.csv"));
        let expected = pair_set(&read(&full));
        let got = expand(&read(&collapsed), &groups, bands.parse().unwrap());
        assert_eq!(
            got,
            expected,
            "{} at {bands}×{rows}, t = {threshold}",
            input.display()
        );
        assert!(read(&collapsed).lines().count() < read(&full).lines().count());
        let s: serde_json::Value = serde_json::from_str(&read(&summary)).unwrap();
        let copies = s["collapsed"]["identical_copies"].as_u64().unwrap();
        if input == &generated {
            assert!(copies >= 299, "{copies}");
            assert!(s["collapsed"]["largest_group"][0].as_u64().unwrap() >= 300);
        } else {
            // Lines 1, 3 and 8 are one group, 2 and 6 another; empty lines stay apart.
            assert_eq!(copies, 3);
            assert_eq!(groups.lines().count(), 1 + 5);
        }
    }
}

#[test]
fn collapsed_scan_options_are_checked() {
    lshscope()
        .args(["scan", QUESTIONS, "--collapse-identical"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--groups FILE"));
    lshscope()
        .args(["scan", QUESTIONS, "--groups", "g.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--collapse-identical"));
    // Pairs to a device: no groups file beside it in /dev.
    #[cfg(unix)]
    lshscope()
        .args(["scan", QUESTIONS, "--collapse-identical", "-o", "/dev/null"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/dev/null is not a regular file: give --groups FILE",
        ));
    // Pairs to stdout, groups to a Parquet file named explicitly.
    let dir = tempfile::tempdir().unwrap();
    let groups = dir.path().join("g.parquet");
    lshscope()
        .args(["scan", QUESTIONS, "-q", "--collapse-identical", "--groups"])
        .arg(&groups)
        .assert()
        .success();
    assert!(std::fs::read(&groups).unwrap().starts_with(b"PAR1"));
}

/// Above --sort-limit, pairs are written as found (band by band) in bounded memory: the same
/// rows as the sorted file, in another order, and the summary says so.
/// Pairs sorted through runs on disk are the in-memory sorted file byte for byte, and no
/// temporary file stays beside the output; `--unsorted` writes the same pairs band by band.
#[test]
fn pairs_sorted_on_disk_equal_pairs_sorted_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.json");
    let mut files = Vec::new();
    for (name, flags) in [
        ("memory.csv", vec![]),
        ("disk.csv", vec!["--sort-limit", "50"]),
        ("found.csv", vec!["--unsorted"]),
    ] {
        let out = dir.path().join(name);
        Command::cargo_bin("lshscope")
            .unwrap()
            .args(["scan", "sample_data/jobs.csv", "-b", "8", "-r", "8", "-q"])
            .args(&flags)
            .arg("-o")
            .arg(&out)
            .arg("--summary-json")
            .arg(&summary)
            .assert()
            .success();
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
        assert_eq!(report["pairs_sorted"], name != "found.csv");
        let runs = report["sort_runs_on_disk"].as_u64().unwrap();
        assert_eq!(runs > 0, name == "disk.csv", "{name}: {runs} runs");
        files.push(std::fs::read_to_string(&out).unwrap());
    }
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["disk.csv", "found.csv", "memory.csv", "summary.json"]
    );
    let [memory, disk, found] = &files[..] else {
        unreachable!()
    };
    assert!(memory.lines().count() > 1000, "enough pairs for many runs");
    assert_eq!(disk, memory);
    assert_ne!(found, memory, "band order differs from document order");
    let sorted_lines = |text: &str| {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.sort_unstable();
        lines.join("\n")
    };
    assert_eq!(sorted_lines(found), sorted_lines(memory));
}

#[test]
fn a_bucket_cap_below_a_pair_is_refused() {
    for n in ["0", "1"] {
        let out = lshscope()
            .args(["scan", "sample_data/jobs.csv", "--max-bucket", n])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("would keep no pair"), "{stderr}");
    }
}

/// The summary names the largest bucket's band from 1 and its first document by id, in the
/// text and in the JSON alike: with one band, that band is band 1; the first document is the
/// id `doc-b` (input position 1), not a row number.
#[test]
fn the_largest_bucket_is_named_by_band_number_and_document_id() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ids.csv");
    let copy = "the same boilerplate sentence repeated across several records";
    std::fs::write(
        &input,
        format!(
            "id,text\n\
             doc-a,a different text that shares nothing with the others at all\n\
             doc-b,{copy}\n\
             doc-c,{copy}\n\
             doc-d,{copy}\n"
        ),
    )
    .unwrap();
    let summary = dir.path().join("summary.json");
    let out = lshscope()
        .arg("scan")
        .arg(&input)
        .args(["-b", "1", "-r", "4", "-o"])
        .arg(dir.path().join("pairs.csv"))
        .arg("--summary-json")
        .arg(&summary)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("largest bucket: 3 documents in band 1 (first: doc-b)"),
        "{stderr}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(
        s["largest_buckets"][0],
        serde_json::json!({"band": 1, "size": 3, "first_id": "doc-b"})
    );
}

/// A count of one reads in the singular: one band, one candidate pair, one document.
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let twins = dir.path().join("twins.txt");
    std::fs::write(&twins, "the very same line\nthe very same line\n").unwrap();
    let out = lshscope()
        .arg("scan")
        .arg(&twins)
        .args(["-b", "1", "-r", "4"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(", 1 band × 4 rows ("), "{stderr}");
    assert!(stderr.contains("\n1 candidate pair, 1 kept"), "{stderr}");

    let single = dir.path().join("single.txt");
    std::fs::write(&single, "only one line here\n").unwrap();
    let out = lshscope().arg("scan").arg(&single).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("read 1 document from"), "{stderr}");
}

/// A negative threshold reaches the range check (not clap's "unexpected argument '-0'"), and
/// zero permutations are named as such, in every command that hashes a corpus.
#[test]
fn negative_thresholds_and_zero_permutations_get_their_own_messages() {
    for (args, message) in [
        (
            &["scan", QUESTIONS, "-t", "-0.1"][..],
            "--threshold must be in [0, 1], got -0.1",
        ),
        (
            &["dedup", QUESTIONS, "-t", "-0.1"][..],
            "--threshold must be in [0, 1], got -0.1",
        ),
        (&["truth", QUESTIONS, "-t", "-0.1"][..], "got -0.1"),
        (
            &["scan", QUESTIONS, "-k", "0"][..],
            "--num-perm must be at least 1",
        ),
    ] {
        lshscope()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

/// The input position of each id of a CSV corpus with an `id` column first.
fn positions_of_ids(corpus: &std::path::Path) -> std::collections::HashMap<String, usize> {
    let mut reader = csv::Reader::from_path(corpus).unwrap();
    reader
        .records()
        .enumerate()
        .map(|(i, row)| (row.unwrap()[0].to_string(), i))
        .collect()
}

/// The sorted pairs file is the `--unsorted` one sorted by the input positions of (a, b), byte
/// for byte, on the sample and on a generated template corpus (families, verbatim copies,
/// a large identical group: many pairs share their first document), at the default
/// threshold and at `-t 0` (every candidate written); in memory and through runs on disk.
#[test]
fn sorted_pairs_are_the_unsorted_pairs_in_document_order() {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("templates.csv");
    lshscope()
        .args(["gen", "--templates", "-n", "4000", "--max-family", "400"])
        .args(["--identical-group", "300", "--seed", "11", "-q", "-o"])
        .arg(&templates)
        .assert()
        .success();
    let corpora = [std::path::PathBuf::from("sample_data/jobs.csv"), templates];
    for corpus in &corpora {
        let position = positions_of_ids(corpus);
        for threshold in ["0", "0.5"] {
            let scan = |flags: &[&str]| -> String {
                let out = dir.path().join("pairs.csv");
                lshscope()
                    .arg("scan")
                    .arg(corpus)
                    .args(["-b", "16", "-r", "4", "-t", threshold, "-q"])
                    .args(flags)
                    .arg("-o")
                    .arg(&out)
                    .assert()
                    .success();
                std::fs::read_to_string(&out).unwrap()
            };
            let found = scan(&["--unsorted"]);
            let mut lines: Vec<&str> = found.lines().collect();
            let header = lines.remove(0);
            // Sorted by document, then the whole row: ties on (a, b) would have to be rows
            // of one pair, identical.
            lines.sort_by_cached_key(|line| {
                let mut ids = line.split(',');
                let mut at = || position[ids.next().unwrap()];
                ((at(), at()), line.to_string())
            });
            let expected = format!("{header}\n{}\n", lines.join("\n"));
            let what = format!("{} at -t {threshold}", corpus.display());
            assert!(lines.len() > 500, "{what}: {} pairs", lines.len());
            assert!(scan(&[]) == expected, "{what}: sorted in memory");
            let runs = (lines.len() / 7).to_string();
            assert!(
                scan(&["--sort-limit", &runs]) == expected,
                "{what}: sorted through runs of {runs} pairs on disk"
            );
        }
    }
}

/// `-o /dev/null` (only the summary wanted) sorts nothing, and the summary is the one a
/// sorted pairs file gets, but for its timings.
#[test]
fn pairs_thrown_away_are_not_sorted_and_the_summary_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let summary_for = |output: &std::path::Path, sort_limit: &str| {
        let summary = dir.path().join("summary.json");
        lshscope()
            .args([
                "scan",
                "sample_data/jobs.csv",
                "-b",
                "8",
                "-r",
                "8",
                "-t",
                "0",
                "-q",
            ])
            .args(["--sort-limit", sort_limit, "-o"])
            .arg(output)
            .arg("--summary-json")
            .arg(&summary)
            .assert()
            .success();
        let mut report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
        report.as_object_mut().unwrap().remove("phases");
        report
    };
    let (file, null) = (
        dir.path().join("pairs.csv"),
        std::path::Path::new("/dev/null"),
    );
    let in_memory = lshscope_core::pipeline::SORTED_PAIRS_UP_TO.to_string();
    let kept = summary_for(&file, &in_memory);
    assert_eq!(kept["pairs_sorted"], true);
    assert_eq!(summary_for(null, &in_memory), kept);
    // Runs of 50 pairs: a sort would leave its trace in `sort_runs_on_disk`.
    assert!(
        summary_for(&file, "50")["sort_runs_on_disk"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert_eq!(summary_for(null, "50"), kept, "no sort for /dev/null");
}
