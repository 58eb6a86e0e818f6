//! `lshscope dedup` end to end: the clusters file, the drop list, the summary and its chaining
//! audit, identical copies, and clusters checked against the exact join's components.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

const QUESTIONS: &str = "sample_data/questions.txt";

fn run_ok(args: &[&str]) -> (String, String) {
    let out = lshscope().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Rows of a clusters CSV as (id, cluster, size, keep).
fn rows(csv: &str) -> Vec<(String, String, usize, bool)> {
    rows_with_jaccard(csv)
        .into_iter()
        .map(|(id, cluster, size, keep, _)| (id, cluster, size, keep))
        .collect()
}

/// Rows of a clusters CSV as (id, cluster, size, keep, jaccard with the kept document).
fn rows_with_jaccard(csv: &str) -> Vec<(String, String, usize, bool, f64)> {
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("id,cluster,size,keep,jaccard"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

fn summary(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_sample_chain_is_flagged() {
    // Questions 22–23 (0.315) and 22–24 (0.478) join 23 and 24, which share 0.121.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("summary.json");
    let (out, err) = run_ok(&[
        "dedup",
        QUESTIONS,
        "-b",
        "64",
        "-r",
        "2",
        "-t",
        "0.3",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    let rows = rows(&out);
    let family: Vec<_> = rows.iter().filter(|r| r.1 == "22").collect();
    assert_eq!(family.len(), 3, "{rows:?}");
    assert!(family.iter().all(|r| r.2 == 3));
    let s = summary(&json);
    assert_eq!(s["chained_clusters"], 1);
    let chain = &s["most_chained"][0];
    assert_eq!(chain["kept"], "22");
    assert_eq!(chain["farthest_pair_ids"], serde_json::json!(["23", "24"]));
    assert!((chain["farthest_pair"].as_f64().unwrap() - 0.121_495).abs() < 1e-5);
    assert!((chain["weakest_link"].as_f64().unwrap() - 0.314_815).abs() < 1e-5);
    assert_eq!(chain["exact"], true);
    assert!(err.contains("1 of 14 components are chained"), "{err}");
    assert!(err.contains("23 and 24 at 0.121"), "{err}");
}

#[test]
fn rows_drop_list_and_counts_agree() {
    let dir = tempfile::tempdir().unwrap();
    let (clusters, drop, json) = (
        dir.path().join("clusters.csv"),
        dir.path().join("drop.txt"),
        dir.path().join("s.json"),
    );
    run_ok(&[
        "dedup",
        QUESTIONS,
        "-b",
        "32",
        "-r",
        "2",
        "-t",
        "0.4",
        "-q",
        "-o",
        clusters.to_str().unwrap(),
        "--drop-list",
        drop.to_str().unwrap(),
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    let rows = rows(&std::fs::read_to_string(&clusters).unwrap());
    // Input order, one kept document per cluster, named by it, sizes that add up.
    let ids: Vec<usize> = rows.iter().map(|r| r.0.parse().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let mut by_cluster: BTreeMap<&str, Vec<&(String, String, usize, bool)>> = BTreeMap::new();
    for r in &rows {
        by_cluster.entry(&r.1).or_default().push(r);
    }
    for (cluster, members) in &by_cluster {
        let kept: Vec<_> = members.iter().filter(|r| r.3).collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].0, *cluster);
        assert_eq!(kept[0].0, members[0].0, "--keep first keeps the first");
        assert!(members.iter().all(|r| r.2 == members.len()));
    }
    let dropped: Vec<String> = std::fs::read_to_string(&drop)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let not_kept: Vec<String> = rows.iter().filter(|r| !r.3).map(|r| r.0.clone()).collect();
    assert_eq!(dropped, not_kept);
    let s = summary(&json);
    assert_eq!(s["clusters"], by_cluster.len());
    assert_eq!(s["documents_removed"], dropped.len());
    assert_eq!(s["documents_in_clusters"], rows.len());
}

/// Connected components (as sorted id sets) of the pairs `lshscope truth` writes.
fn components_of_truth(csv: &str) -> BTreeSet<BTreeSet<String>> {
    let mut next: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        next.entry(f[0].into()).or_default().push(f[1].into());
        next.entry(f[1].into()).or_default().push(f[0].into());
    }
    let mut seen = BTreeSet::new();
    let mut out = BTreeSet::new();
    for start in next.keys() {
        if seen.contains(start) {
            continue;
        }
        let mut comp = BTreeSet::new();
        let mut stack = vec![start.clone()];
        while let Some(x) = stack.pop() {
            if seen.insert(x.clone()) {
                comp.insert(x.clone());
                stack.extend(next[&x].iter().cloned());
            }
        }
        out.insert(comp);
    }
    out
}

fn components_of_clusters(csv: &str) -> BTreeSet<BTreeSet<String>> {
    let mut by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (id, cluster, _, _) in rows(csv) {
        by.entry(cluster).or_default().insert(id);
    }
    by.into_values().collect()
}

/// A corpus shaped like real dumps: a template family of 64 edits, 1,500 identical copies of
/// one member, texts with quotes, and unrelated texts.
fn template_corpus(dir: &Path) -> std::path::PathBuf {
    let mut csv = String::from("id,text\n");
    let base = [
        "Senior data engineer wanted for our growing analytics team in the city centre",
        "you will build batch pipelines, review schemas and mentor two junior colleagues",
        "we offer flexible hours, a learning budget and a quiet office near the station",
    ];
    let swaps = [
        "harbour", "museum", "market", "bridge", "tower", "garden", "square", "castle",
    ];
    let mut n = 0;
    let mut push = |csv: &mut String, text: &str| {
        csv.push_str(&format!("doc{n},\"{}\"\n", text.replace('"', "\"\"")));
        n += 1;
    };
    for i in 0..64 {
        let text = format!(
            "{} {} {} near the {}",
            base[0],
            base[1],
            base[2].replace("station", swaps[i % swaps.len()]),
            swaps[(i / swaps.len()) % swaps.len()]
        );
        push(&mut csv, &text);
        if i == 7 {
            for _ in 0..1500 {
                push(&mut csv, &text);
            }
        }
    }
    for i in 0..150 {
        push(
            &mut csv,
            &format!(
                "\"quoted\" note {i}: the {} opens at {} o'clock",
                swaps[i % 8],
                i % 12
            ),
        );
    }
    let path = dir.join("template.csv");
    std::fs::write(&path, csv).unwrap();
    path
}

#[test]
fn clusters_equal_the_components_of_the_exact_join() {
    // With r = 1 and 64 bands a pair at J ≥ 0.5 is missed with probability ≤ 2^-64: the
    // verified clusters must be exactly the connected components of every pair at J ≥ 0.5.
    let dir = tempfile::tempdir().unwrap();
    let input = template_corpus(dir.path());
    let input = input.to_str().unwrap();
    let (truth, _) = run_ok(&["truth", input, "-t", "0.5", "-q"]);
    let json = dir.path().join("s.json");
    let (clusters, _) = run_ok(&[
        "dedup",
        input,
        "-b",
        "64",
        "-r",
        "1",
        "-t",
        "0.5",
        "-q",
        "--clustering",
        "components",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    let expected = components_of_truth(&truth);
    assert!(
        expected.iter().any(|c| c.len() > 1500),
        "the copies form one family"
    );
    assert_eq!(components_of_clusters(&clusters), expected);
    let s = summary(&json);
    assert_eq!(s["identical_copies"], 1500);
    // Representatives only, joined from buckets: 1,500 copies would add over a million
    // pairs, and the family's pairs are mostly skipped once it is one component.
    assert!(
        s["jaccards_computed"].as_u64().unwrap() < 100_000,
        "{}",
        s["jaccards_computed"]
    );
}

#[test]
fn unverified_joining_counts_removals_below_the_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let (out, err) = run_ok(&[
        "dedup",
        QUESTIONS,
        "-b",
        "64",
        "-r",
        "2",
        "-t",
        "0.5",
        "--unverified",
        "--keep",
        "longest",
        "--output-format",
        "jsonl",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    let s = summary(&json);
    let below = s["removed_below_threshold"].as_u64().unwrap();
    assert!(below > 0, "64×2 lets pairs well below 0.5 through");
    assert!(err.contains(&format!(
        "{below} documents are removed only through pairs below"
    )));
    assert_eq!(s["joining"], "unverified");
    let line = out.lines().next().unwrap();
    let at = |key: &str| line.find(&format!("\"{key}\":")).unwrap();
    assert!(at("id") < at("cluster") && at("cluster") < at("size") && at("size") < at("keep"));
    let first: serde_json::Value = serde_json::from_str(line).unwrap();
    assert!(first["keep"].is_boolean());
}

#[test]
fn bad_options_are_usage_errors() {
    lshscope()
        .args(["dedup", QUESTIONS, "-t", "1.5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--threshold must be in [0, 1]"));
    lshscope()
        .args(["dedup", QUESTIONS, "-t", "0.5", "--drop-list", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only one of the clusters"));
    lshscope()
        .args(["dedup", QUESTIONS])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--threshold"));
}

#[test]
fn parquet_clusters_hold_the_csv_rows() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::RowAccessor;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clusters.parquet");
    let args = ["dedup", QUESTIONS, "-b", "64", "-r", "2", "-t", "0.3", "-q"];
    let (csv, _) = run_ok(&args);
    let mut with_output = args.to_vec();
    with_output.extend(["-o", path.to_str().unwrap()]);
    run_ok(&with_output);
    let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    let from_parquet: Vec<(String, String, usize, bool, f64)> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            (
                row.get_string(0).unwrap().clone(),
                row.get_string(1).unwrap().clone(),
                row.get_long(2).unwrap() as usize,
                row.get_bool(3).unwrap(),
                row.get_double(4).unwrap(),
            )
        })
        .collect();
    assert_eq!(from_parquet, rows_with_jaccard(&csv));
}

#[test]
fn clusters_of_a_generated_template_corpus_equal_the_exact_components() {
    // `gen --templates`: power-law families, verbatim copies, a planted group of 400 copies.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("templates.csv");
    let input = input.to_str().unwrap();
    run_ok(&[
        "gen",
        "--templates",
        "-n",
        "3000",
        "--max-family",
        "300",
        "--identical-group",
        "400",
        "--seed",
        "5",
        "-o",
        input,
        "-q",
    ]);
    let (truth, _) = run_ok(&["truth", input, "-t", "0.6", "-q"]);
    let json = dir.path().join("s.json");
    // 32 × 2 misses a pair at J = 0.6 with probability (1 − 0.36)^32 ≈ 6e-7.
    let (clusters, _) = run_ok(&[
        "dedup",
        input,
        "-b",
        "32",
        "-r",
        "2",
        "-t",
        "0.6",
        "-q",
        "--clustering",
        "components",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    let expected = components_of_truth(&truth);
    assert!(expected.iter().any(|c| c.len() >= 400));
    assert_eq!(components_of_clusters(&clusters), expected);
    assert!(summary(&json)["identical_copies"].as_u64().unwrap() >= 399);
}

/// A count of one reads in the singular: one band, one repeated document, one cluster, one
/// document removed.
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("twins.txt");
    std::fs::write(
        &input,
        "the very same line\nthe very same line\nsomething else entirely\n",
    )
    .unwrap();
    let (_, err) = run_ok(&[
        "dedup",
        input.to_str().unwrap(),
        "-b",
        "1",
        "-r",
        "4",
        "-t",
        "0.5",
    ]);
    assert!(
        err.contains(
            "1 band × 4 rows; 1 document repeats an earlier document's shingles (collapsed \
             before banding)"
        ),
        "{err}"
    );
    assert!(
        err.contains("1 cluster holds 2 documents; 1 removed"),
        "{err}"
    );
    assert!(err.contains("0 of 1 component is chained"), "{err}");
}

/// `args` run to failure: the exit code and stderr.
fn run_err(args: &[&str]) -> (i32, String) {
    let out = lshscope().args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn write_csv(dir: &Path, name: &str, csv: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, csv).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn repeated_ids_are_refused_before_any_output_even_when_quiet() {
    // The kept `a` and the removed `a` cannot be told apart in a drop list or the clusters.
    let dir = tempfile::tempdir().unwrap();
    let text = "the same sentence about copper kettles and tea";
    let input = write_csv(
        dir.path(),
        "dupid.csv",
        &format!("id,text\na,{text}\na,{text}\nb,\nc,{text} too\n"),
    );
    let drop = dir.path().join("drop.txt");
    let clusters = dir.path().join("c.csv");
    let (code, err) = run_err(&[
        "dedup",
        &input,
        "-t",
        "0.5",
        "-q",
        "-o",
        clusters.to_str().unwrap(),
        "--drop-list",
        drop.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        "lshscope: error: 1 document repeats an earlier id (first: a): the clusters and the \
         drop list name documents by id, so an id that repeats stands for several documents, \
         and dropping it drops the kept one too; make the ids unique, choose an id column \
         with unique values (--id-column, or --id-field for JSON Lines), or name documents by \
         row number with --row-ids\n"
    );
    assert!(!drop.exists() && !clusters.exists());
    // The way out it names: row 2 copies row 1 and row 4 nearly does, and the drop list
    // names them by row.
    lshscope()
        .args([
            "dedup",
            &input,
            "-t",
            "0.5",
            "-q",
            "--row-ids",
            "--drop-list",
        ])
        .arg(&drop)
        .args(["-o"])
        .arg(&clusters)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&drop).unwrap(), "2\n4\n");
    // It names documents by row, so it cannot be given with the id column it replaces.
    let (code, err) = run_err(&[
        "dedup",
        &input,
        "-t",
        "0.5",
        "--row-ids",
        "--id-column",
        "id",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--row-ids") && err.contains("--id-column"),
        "{err}"
    );
    // Without a drop list the clusters alone are refused too: they have no row numbers, so
    // `a,a,3,false` names the kept `a` as well.
    let (code, err) = run_err(&["dedup", &input, "-t", "0.5"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("(first: a): the clusters name documents by id"),
        "{err}"
    );
    // An empty id reads as such, not as nothing.
    let input = write_csv(
        dir.path(),
        "empty.csv",
        &format!("id,text\n,{text}\n,{text}\n"),
    );
    let (code, err) = run_err(&["dedup", &input, "-t", "0.5"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("1 document repeats an earlier id (first: \"\")"),
        "{err}"
    );
}

/// A corpus whose removed documents have ids that need quoting in CSV.
fn quoting_corpus(dir: &Path) -> String {
    let text = "near duplicates of a sentence about copper kettles and tea";
    write_csv(
        dir,
        "q.csv",
        &format!(
            "id,text\nkept,{text}\n\"a,b\",{text}\n\"say \"\"hi\"\"\",{text}\nother,unrelated\n"
        ),
    )
}

#[test]
fn the_drop_list_format_follows_its_name() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let input = quoting_corpus(dir.path());
    let drop = |name: &str| {
        let path = dir.path().join(name);
        run_ok(&[
            "dedup",
            &input,
            "-t",
            "0.5",
            "-q",
            "-o",
            "-",
            "--drop-list",
            path.to_str().unwrap(),
        ]);
        std::fs::read(&path).unwrap()
    };
    let lines = "a,b\nsay \"hi\"\n";
    assert_eq!(drop("drop.txt"), lines.as_bytes());
    assert_eq!(drop("drop"), lines.as_bytes());
    let csv = "id\n\"a,b\"\n\"say \"\"hi\"\"\"\n";
    assert_eq!(drop("drop.csv"), csv.as_bytes());
    let jsonl = String::from_utf8(drop("drop.jsonl")).unwrap();
    let ids: Vec<String> = jsonl
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(ids, ["a,b", "say \"hi\""]);
    let mut unzipped = String::new();
    flate2::read::GzDecoder::new(drop("drop.csv.gz").as_slice())
        .read_to_string(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, csv);
    let unzstd = zstd::stream::decode_all(drop("drop.txt.zst").as_slice()).unwrap();
    assert_eq!(unzstd, lines.as_bytes());
    // Parquet: one string column `id`, the same ids.
    {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::RowAccessor;
        let bytes = bytes::Bytes::from(drop("drop.parquet"));
        let reader = SerializedFileReader::new(bytes).unwrap();
        let schema = reader.metadata().file_metadata().schema_descr();
        assert_eq!(schema.num_columns(), 1);
        assert_eq!(schema.column(0).name(), "id");
        let ids: Vec<String> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().get_string(0).unwrap().clone())
            .collect();
        assert_eq!(ids, ["a,b", "say \"hi\""]);
    }
}

#[test]
fn an_id_with_a_line_break_needs_a_table_drop_list() {
    let dir = tempfile::tempdir().unwrap();
    let text = "near duplicates of a sentence about copper kettles and tea";
    let input = write_csv(
        dir.path(),
        "nl.csv",
        &format!("id,text\nkept,{text}\n\"two\nlines\",{text}\n"),
    );
    let txt = dir.path().join("drop.txt");
    let (code, err) = run_err(&[
        "dedup",
        &input,
        "-t",
        "0.5",
        "--drop-list",
        txt.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "--drop-list {}: the id \"two\\nlines\" holds a line break, which a list of one id \
             per line cannot; name the drop list .csv, .jsonl or .parquet",
            txt.display()
        )),
        "{err}"
    );
    let csv = dir.path().join("drop.csv");
    run_ok(&[
        "dedup",
        &input,
        "-t",
        "0.5",
        "-q",
        "--drop-list",
        csv.to_str().unwrap(),
        "-o",
        "-",
    ]);
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "id\n\"two\nlines\"\n"
    );
}

/// A generated template corpus (families, verbatim copies) in `dir`.
fn generated_templates(dir: &Path, docs: &str) -> String {
    let path = dir.join("templates.csv");
    let path = path.to_str().unwrap().to_string();
    run_ok(&[
        "gen",
        "--templates",
        "-n",
        docs,
        "--identical-group",
        "400",
        "--seed",
        "5",
        "-q",
        "-o",
        &path,
    ]);
    path
}

#[test]
fn the_summary_reports_the_bucket_cap_settings_and_what_it_counts() {
    let dir = tempfile::tempdir().unwrap();
    let input = generated_templates(dir.path(), "3000");
    let json = dir.path().join("s.json");
    let (_, err) = run_ok(&[
        "dedup",
        &input,
        "-t",
        "0.8",
        "--max-bucket",
        "50",
        "--seed",
        "9",
        "-o",
        "/dev/null",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    let s = summary(&json);
    let capped = s["capped_buckets"].as_u64().unwrap();
    let dropped = s["pairs_dropped_by_cap"].as_u64().unwrap();
    assert!(capped > 0 && dropped > 0, "{s}");
    assert_eq!(s["max_bucket"], 50);
    assert_eq!(s["num_perm"], 128);
    assert_eq!(s["seed"], 9);
    assert_eq!(
        s["shingle"]["kind"],
        serde_json::json!({"unit": "char", "size": 5})
    );
    // The same line as scan's, numbers grouped.
    let thousands = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        err.contains(&format!(
            "--max-bucket capped {} buckets; {} bucket pairs not emitted",
            thousands(capped),
            thousands(dropped)
        )),
        "{err}"
    );
    assert!(err.starts_with("read 3,000 documents"), "{err}");
    assert!(
        err.contains(&format!(
            "buckets stand for {} bucket pairs of distinct shingle sets (counted in every \
             band they share, identical copies collapsed: not scan's count of distinct \
             candidates)",
            thousands(s["bucket_pairs"].as_u64().unwrap())
        )),
        "{err}"
    );
    // Without the cap: nothing capped, and no such line.
    let (_, err) = run_ok(&[
        "dedup",
        &input,
        "-t",
        "0.8",
        "-o",
        "/dev/null",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    assert!(!err.contains("--max-bucket"), "{err}");
    let s = summary(&json);
    assert_eq!(
        (s["capped_buckets"].as_u64(), s["max_bucket"].is_null()),
        (Some(0), true)
    );
}

#[test]
fn outputs_are_checked_before_the_work_and_a_late_failure_names_what_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let clusters = dir.path().join("c.csv");
    let clusters = clusters.to_str().unwrap();
    let missing = dir.path().join("no").join("such");
    for (option, name) in [
        ("-o", "x.csv"),
        ("--drop-list", "d.txt"),
        ("--summary-json", "s.json"),
    ] {
        let target = missing.join(name);
        let mut args = vec!["dedup", QUESTIONS, "-t", "0.5", "-q"];
        if option != "-o" {
            args.extend(["-o", clusters]);
        }
        args.extend([option, target.to_str().unwrap()]);
        let (code, err) = run_err(&args);
        assert_eq!(code, 2, "{err}");
        let shown = if option == "-o" { "--output" } else { option };
        assert_eq!(
            err,
            format!(
                "lshscope: error: {shown} {}: the directory {} does not exist\n",
                target.display(),
                missing.display()
            )
        );
        assert!(!Path::new(clusters).exists(), "{option}: c.csv was written");
    }
    // A failure no check foresees (a full device) says which outputs are complete.
    if Path::new("/dev/full").exists() {
        let (code, err) = run_err(&[
            "dedup",
            QUESTIONS,
            "-t",
            "0.5",
            "-q",
            "-o",
            clusters,
            "--drop-list",
            "/dev/full",
        ]);
        assert_eq!(code, 1);
        assert!(
            err.ends_with(&format!("; already written in full: {clusters}\n")),
            "{err}"
        );
    }
}

/// dedup counts documents without shingles as scan does (it printed 0 where scan printed 1).
#[test]
fn documents_without_shingles_are_counted_as_scan_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.csv");
    std::fs::write(
        &corpus,
        "id,text\na,the quick brown fox jumps over the lazy dog\n\
         b,the quick brown fox jumps over the lazy cat\nc,\"...\"\n",
    )
    .unwrap();
    let corpus = corpus.to_str().unwrap();
    let clusters = dir.path().join("clusters.csv");
    let (_, scan) = run_ok(&["scan", corpus, "--profile", "datatrove", "-o", "-"]);
    let (_, dedup) = run_ok(&[
        "dedup",
        corpus,
        "-t",
        "0.8",
        "--profile",
        "datatrove",
        "-o",
        clusters.to_str().unwrap(),
    ]);
    for stderr in [&scan, &dedup] {
        assert!(stderr.contains("1 without shingles"), "{stderr}");
    }
}

/// A `gen --templates` corpus with hand-built edit chains appended: each chain's texts replace
/// three more of forty words at every step, so neighbours are near-duplicates and the ends of
/// a chain share little.
fn chained_corpus(dir: &Path) -> String {
    let path = dir.join("chained.csv");
    let input = path.to_str().unwrap().to_string();
    run_ok(&[
        "gen",
        "--templates",
        "-n",
        "2000",
        "--max-family",
        "200",
        "--seed",
        "8",
        "-o",
        &input,
        "-q",
    ]);
    let mut csv = std::fs::read_to_string(&path).unwrap();
    assert!(csv.starts_with("id,text\n"), "{}", &csv[..40]);
    let syllables = [
        "ka", "lo", "mi", "ner", "sta", "ru", "vel", "tor", "que", "dal",
    ];
    let mut state = 12345u64;
    let mut word = || {
        (0..3)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                syllables[(state >> 33) as usize % syllables.len()]
            })
            .collect::<String>()
    };
    for chain in 0..10 {
        let mut words: Vec<String> = (0..40).map(|_| word()).collect();
        for step in 0..20 {
            csv.push_str(&format!("chain{chain}-{step},{}\n", words.join(" ")));
            for k in 0..3 {
                let at = (step * 7 + k * 13 + chain) % words.len();
                words[at] = word();
            }
        }
    }
    std::fs::write(&path, csv).unwrap();
    input
}

/// Pairs of `lshscope truth` output as (smaller id, larger id) → Jaccard.
fn truth_pairs(csv: &str) -> BTreeMap<(String, String), f64> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let (a, b) = (f[0].to_string(), f[1].to_string());
            (if a < b { (a, b) } else { (b, a) }, f[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn center_clustering_removes_only_verified_pairs_of_kept_documents() {
    let dir = tempfile::tempdir().unwrap();
    let input = chained_corpus(dir.path());
    // Every pair at J ≥ 0.5: with r = 1 and 64 bands each is a candidate but for 2^-64.
    let (truth, _) = run_ok(&["truth", &input, "-t", "0.5", "-q"]);
    let truth = truth_pairs(&truth);
    let pair = |a: &str, b: &str| {
        let key = if a < b { (a, b) } else { (b, a) };
        truth.get(&(key.0.to_string(), key.1.to_string())).copied()
    };
    let banding = ["-b", "64", "-r", "1", "-t", "0.5", "-q"];
    let (center_json, components_json) = (dir.path().join("c.json"), dir.path().join("k.json"));
    let mut center_args = vec!["dedup", &input];
    center_args.extend(banding);
    center_args.extend(["--keep", "longest", "--summary-json"]);
    let mut components_args = center_args.clone();
    center_args.push(center_json.to_str().unwrap());
    components_args.push(components_json.to_str().unwrap());
    components_args.extend(["--clustering", "components"]);
    let (center_csv, _) = run_ok(&center_args);
    let center = rows_with_jaccard(&center_csv);
    let mut kept: BTreeSet<String> = BTreeSet::new();
    let mut removed = 0;
    for (id, cluster, _, keep, jaccard) in &center {
        if *keep {
            assert_eq!(id, cluster);
            kept.insert(id.clone());
        } else {
            removed += 1;
            let exact = pair(id, cluster).unwrap_or_else(|| panic!("{id} → {cluster}"));
            assert_eq!(*jaccard, exact, "{id} → {cluster}");
            assert!(exact >= 0.5);
        }
    }
    // No two kept documents are a pair at ≥ t (documents in no cluster are kept too).
    let in_clusters: BTreeSet<&String> = center.iter().map(|r| &r.0).collect();
    for (a, b) in truth.keys() {
        let is_kept = |d: &String| kept.contains(d) || !in_clusters.contains(d);
        assert!(!(is_kept(a) && is_kept(b)), "{a} and {b} both kept");
    }
    let (components_csv, _) = run_ok(&components_args);
    let components = rows_with_jaccard(&components_csv);
    let below = components
        .iter()
        .filter(|r| !r.3 && r.4 < 0.5)
        .inspect(|r| assert!(pair(&r.0, &r.1).is_none(), "{r:?} is a pair"))
        .count();
    let (c, k) = (summary(&center_json), summary(&components_json));
    assert!(
        below > 0,
        "the edit chains make components remove documents below t"
    );
    assert_eq!(c["clustering"], "center");
    assert_eq!(k["clustering"], "components");
    assert_eq!(c["documents_removed"], removed);
    assert_eq!(k["components_removed_below_threshold"], below);
    // Both summaries give both methods' numbers, the same ones.
    for s in [&c, &k] {
        assert_eq!(s["center_removed"], removed);
        assert_eq!(s["components_removed"], k["documents_removed"]);
        assert_eq!(s["components_removed_below_threshold"], below);
    }
    assert!(removed <= k["documents_removed"].as_u64().unwrap() as usize);
    // The result does not depend on the number of threads.
    let one_thread = lshscope()
        .args(&center_args)
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert!(one_thread.status.success());
    assert_eq!(String::from_utf8(one_thread.stdout).unwrap(), center_csv);
}

#[test]
fn the_summary_puts_both_methods_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let input = chained_corpus(dir.path());
    let args = [
        "dedup", &input, "-b", "20", "-r", "5", "-t", "0.7", "-o", "-",
    ];
    let (_, err) = run_ok(&args);
    assert!(
        err.contains("center clustering in keep order (input order): each removed document"),
        "{err}"
    );
    assert!(
        err.contains("connected components (--clustering components) would remove"),
        "{err}"
    );
    let mut components = args.to_vec();
    components.extend(["--clustering", "components"]);
    let (_, err) = run_ok(&components);
    assert!(
        err.contains("center clustering (--clustering center) would remove"),
        "{err}"
    );
    assert!(
        err.contains("below Jaccard 0.7 against the document kept for"),
        "{err}"
    );
}

#[test]
fn center_clustering_refuses_unverified_joining() {
    let (code, err) = run_err(&[
        "dedup",
        QUESTIONS,
        "-t",
        "0.5",
        "--clustering",
        "center",
        "--unverified",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--unverified joins every candidate unchecked, which has components only"),
        "{err}"
    );
    // --unverified alone means components, and says so.
    let (_, err) = run_ok(&["dedup", QUESTIONS, "-t", "0.5", "--unverified", "-o", "-"]);
    assert!(
        err.contains("connected components, one document kept"),
        "{err}"
    );
    assert!(err.contains("--unverified joins components only"), "{err}");
}

/// Near-duplicate pairs with a score column: the higher score is kept, ties by input order.
fn scored_csv(dir: &Path, third_score: &str) -> String {
    let a = "the committee approved the new budget for the public library on monday evening";
    let b = "the committee approved the new budget for the public library on monday night";
    let c = "a completely different note about the harbour ferry timetable for the winter";
    let d = "a completely different note about the harbour ferry timetable for the summer";
    let csv = format!("id,text,score\nd1,{a},0.2\nd2,{b},0.9\nd3,{c},{third_score}\nd4,{d},0.5\n");
    write_csv(dir, "scored.csv", &csv)
}

#[test]
fn keep_by_keeps_the_highest_value_of_a_column() {
    let dir = tempfile::tempdir().unwrap();
    let input = scored_csv(dir.path(), "0.5");
    for clustering in ["center", "components"] {
        let json = dir.path().join(format!("{clustering}.json"));
        let (out, _) = run_ok(&[
            "dedup",
            &input,
            "-b",
            "64",
            "-r",
            "1",
            "-t",
            "0.5",
            "-q",
            "--keep-by",
            "score",
            "--clustering",
            clustering,
            "--summary-json",
            json.to_str().unwrap(),
        ]);
        let kept: Vec<String> = rows(&out)
            .into_iter()
            .filter(|r| r.3)
            .map(|r| r.0)
            .collect();
        // d2 outscores d1; d3 and d4 tie at 0.5, and the first is kept.
        assert_eq!(kept, ["d2", "d3"], "{clustering}: {out}");
        let s = summary(&json);
        assert_eq!(
            (s["keep"].as_str(), s["keep_by"].as_str()),
            (Some("highest"), Some("score"))
        );
    }
}

#[test]
fn keep_by_names_the_file_row_and_column_of_a_bad_value() {
    let dir = tempfile::tempdir().unwrap();
    let dedup = |input: &str, column: &str| {
        run_err(&["dedup", input, "-t", "0.5", "--keep-by", column, "-o", "-"])
    };
    let input = scored_csv(dir.path(), "high");
    let (code, err) = dedup(&input, "score");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{input}:4: column `score` of id d3: \"high\" is not a number"
        )),
        "{err}"
    );
    assert!(
        err.contains("fix the value, or choose another column"),
        "{err}"
    );
    let input = scored_csv(dir.path(), "");
    let (code, err) = dedup(&input, "score");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{input}:4: column `score` of id d3: no value")),
        "{err}"
    );
    // A quoted field over two lines: lines no longer follow rows, so the row is named.
    let multiline = dir.path().join("multiline.csv");
    std::fs::write(
        &multiline,
        "id,text,score\nd1,\"a note\nover two lines\",1\nd2,another note,none\n",
    )
    .unwrap();
    let (code, err) = dedup(multiline.to_str().unwrap(), "score");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{}: row 2 (id d2), column `score`: \"none\" is not a number",
            multiline.display()
        )),
        "{err}"
    );
    let (code, err) = dedup(&input, "quality");
    assert_eq!(code, 2);
    assert!(err.contains("quality"), "{err}");
    let jsonl = dir.path().join("s.jsonl");
    std::fs::write(
        &jsonl,
        "{\"id\": \"a\", \"text\": \"x y z\", \"score\": 1}\n",
    )
    .unwrap();
    let (code, err) = dedup(jsonl.to_str().unwrap(), "score");
    assert_eq!(code, 2);
    assert!(
        err.contains("reads a column of a CSV or TSV input"),
        "{err}"
    );
    let (code, err) = run_err(&[
        "dedup",
        &input,
        "-t",
        "0.5",
        "--keep-by",
        "score",
        "--keep",
        "longest",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--keep-by") && err.contains("--keep"), "{err}");
}
