//! Output by its name and the exit codes, end to end: `-o -`, `.gz`/`.zst`, the format from
//! the extension, a closed stdout pipe, Ctrl-C, and every pair reader taking what scan writes.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

const QUESTIONS: &str = "sample_data/questions.txt";
/// Enough bands of one row that most pairs of the sample become candidates.
const MANY: &[&str] = &["-b", "32", "-r", "2"];

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

fn scan_stdout(extra: &[&str]) -> Vec<u8> {
    let out = lshscope()
        .args(["scan", QUESTIONS, "-q"])
        .args(MANY)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn scan_to(path: &Path, extra: &[&str]) {
    lshscope()
        .args(["scan", QUESTIONS, "-q"])
        .args(MANY)
        .arg("-o")
        .arg(path)
        .args(extra)
        .assert()
        .success();
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// Files in `dir`, sorted: nothing half-written or temporary may be left there.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn dash_is_stdout_and_creates_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let plain = scan_stdout(&[]);
    let out = lshscope()
        .current_dir(dir.path())
        .args(["scan", "-q", "-o", "-"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(QUESTIONS))
        .args(MANY)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, plain);
    assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
}

#[test]
fn gz_and_zst_names_compress() {
    let dir = tempfile::tempdir().unwrap();
    let plain = String::from_utf8(scan_stdout(&[])).unwrap();
    assert!(plain.starts_with("id_a,id_b,jaccard,estimate,bands_hit\n"));

    let gz = dir.path().join("pairs.csv.gz");
    scan_to(&gz, &[]);
    let bytes = std::fs::read(&gz).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "not gzip");
    assert_eq!(gunzip(&bytes), plain);

    let zst = dir.path().join("pairs.csv.zst");
    scan_to(&zst, &[]);
    let bytes = std::fs::read(&zst).unwrap();
    assert_eq!(&bytes[..4], &[0x28, 0xb5, 0x2f, 0xfd], "not zstd");
    let text = zstd::stream::decode_all(bytes.as_slice()).unwrap();
    assert_eq!(String::from_utf8(text).unwrap(), plain);
    assert_eq!(files(dir.path()), ["pairs.csv.gz", "pairs.csv.zst"]);
}

#[test]
fn jsonl_name_writes_json_lines_in_csv_column_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.jsonl");
    scan_to(&path, &[]);
    let text = std::fs::read_to_string(&path).unwrap();
    let csv = String::from_utf8(scan_stdout(&[])).unwrap();
    let csv_rows: Vec<&str> = csv.lines().skip(1).collect();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), csv_rows.len());
    for (line, row) in lines.iter().zip(&csv_rows) {
        assert!(line.starts_with("{\"id_a\":"), "{line}");
        let keys: Vec<usize> = [
            "\"id_a\"",
            "\"id_b\"",
            "\"jaccard\"",
            "\"estimate\"",
            "\"bands_hit\"",
        ]
        .iter()
        .map(|k| line.find(k).expect(k))
        .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "key order: {line}");
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(v["id_a"], fields[0]);
        assert_eq!(
            v["jaccard"].as_f64().unwrap(),
            fields[2].parse::<f64>().unwrap()
        );
        assert_eq!(
            v["bands_hit"].as_u64().unwrap(),
            fields[4].parse::<u64>().unwrap()
        );
    }
    // Also compressed, and `.ndjson` is the same format.
    let zst = dir.path().join("x.ndjson.zst");
    scan_to(&zst, &[]);
    let text2 = zstd::stream::decode_all(std::fs::read(&zst).unwrap().as_slice()).unwrap();
    assert_eq!(String::from_utf8(text2).unwrap(), text);
}

#[test]
fn output_format_flag_wins_over_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.jsonl");
    scan_to(&path, &["--output-format", "csv"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.as_bytes(), scan_stdout(&[]).as_slice());
    let jsonl = scan_stdout(&["--output-format", "jsonl"]);
    assert!(jsonl.starts_with(b"{\"id_a\":"));
}

#[test]
fn formats_an_output_cannot_take_are_usage_errors_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    // Parquet compresses internally; a .gz on top is refused rather than guessed.
    lshscope()
        .args(["scan", QUESTIONS, "-o"])
        .arg(dir.path().join("pairs.parquet.gz"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Parquet compresses internally"));
    lshscope()
        .args(["gen", "-n", "10", "-o"])
        .arg(dir.path().join("c.parquet"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("CSV or JSON Lines"));
    // --output-format lists what each command writes.
    lshscope()
        .args(["gen", "-n", "10", "--output-format", "parquet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("[possible values: csv, jsonl]"));
    assert!(files(dir.path()).is_empty());
}

#[test]
fn scan_writes_parquet_pairs_that_read_back_equal_to_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("p.csv");
    let parquet_path = dir.path().join("p.parquet");
    scan_to(&csv_path, &[]);
    scan_to(&parquet_path, &[]);
    let mut from_csv = Vec::new();
    let mut from_parquet = Vec::new();
    for (path, rows) in [
        (&csv_path, &mut from_csv),
        (&parquet_path, &mut from_parquet),
    ] {
        lshscope_core::pairs::for_each_pair(
            path,
            lshscope_core::pairs::PairColumns {
                ids: true,
                plain_list: false,
            },
            |r| {
                rows.push((r.id_a.to_string(), r.id_b.to_string(), r.jaccard.to_bits()));
                Ok(())
            },
        )
        .unwrap();
    }
    assert!(!from_csv.is_empty());
    assert_eq!(from_parquet, from_csv);
    assert!(std::fs::read(&parquet_path).unwrap().starts_with(b"PAR1"));
}

/// Spawns `args` with stdout piped, reads one line, closes the pipe: the command must stop
/// with exit 0 and say nothing.
fn head_1(args: &[&str]) {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("lshscope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(!stderr.contains("error"), "{args:?}: {stderr}");
}

#[test]
fn a_closed_stdout_pipe_exits_0_quietly() {
    // Far more than a pipe buffer holds, so the writer meets the closed pipe.
    head_1(&["gen", "-n", "20000", "-q"]);
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.csv");
    lshscope()
        .args(["gen", "-n", "800", "-q", "-o"])
        .arg(&corpus)
        .assert()
        .success();
    head_1(&[
        "scan",
        corpus.to_str().unwrap(),
        "-b",
        "64",
        "-r",
        "1",
        "-q",
    ]);
    head_1(&["scan", corpus.to_str().unwrap(), "-b", "64", "-r", "1"]);
}

#[test]
fn gen_writes_the_corpus_to_stdout_by_default() {
    let out = lshscope().args(["gen", "-n", "5", "-q"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("id,text\n"), "{text}");
    assert_eq!(text.lines().count(), 6);
    let jsonl = lshscope()
        .args(["gen", "-n", "5", "-q", "--output-format", "jsonl"])
        .output()
        .unwrap();
    let first = String::from_utf8(jsonl.stdout).unwrap();
    assert!(first.starts_with("{\"id\":"), "{first}");
    lshscope()
        .args(["gen", "-n", "5", "--truth", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("both go to stdout"));
}

/// A scan's pairs in every form the readers must take.
fn pair_files(dir: &Path) -> Vec<PathBuf> {
    let names = ["p.csv", "p.jsonl", "p.csv.gz", "p.jsonl.zst", "p.parquet"];
    names
        .iter()
        .map(|n| {
            let p = dir.join(n);
            scan_to(&p, &[]);
            p
        })
        .collect()
}

fn tune_json(pairs: &str, stdin: Option<Vec<u8>>) -> serde_json::Value {
    let mut cmd = lshscope();
    cmd.args(["tune", "-t", "0.5", "--format", "json", "--pairs", pairs]);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Everything but the file's name must agree.
    report["corpus"]["source"] = serde_json::Value::Null;
    report
}

#[test]
fn tune_and_plot_read_what_scan_writes_and_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let paths = pair_files(dir.path());
    let reference = tune_json(paths[0].to_str().unwrap(), None);
    for p in &paths[1..] {
        assert_eq!(
            tune_json(p.to_str().unwrap(), None),
            reference,
            "{}",
            p.display()
        );
    }
    for p in &paths {
        let bytes = std::fs::read(p).unwrap();
        assert_eq!(
            tune_json("-", Some(bytes)),
            reference,
            "stdin of {}",
            p.display()
        );
    }
    for (i, p) in paths.iter().enumerate() {
        let svg = dir.path().join(format!("h{i}.svg"));
        lshscope()
            .args(["plot", "histogram", "--pairs"])
            .arg(p)
            .arg("-o")
            .arg(&svg)
            .assert()
            .success();
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    }
    let svg = dir.path().join("stdin.svg");
    lshscope()
        .args(["plot", "histogram", "--pairs", "-", "-o"])
        .arg(&svg)
        .write_stdin(std::fs::read(&paths[1]).unwrap())
        .assert()
        .success();
    // --similarities takes the same files.
    lshscope()
        .args(["tune", "-t", "0.5", "--similarities"])
        .arg(&paths[3])
        .assert()
        .success();
}

#[test]
fn pair_readers_name_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"id_a\":\"1\",\"id_b\":\"2\",\"jaccard\":0.5}\n{\"id_a\":\"1\",\"id_b\":\"3\",\"jaccard\":\"x\"}\n",
    )
    .unwrap();
    lshscope()
        .args(["tune", "-t", "0.5", "--pairs"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}:2:", bad.display())))
        .stderr(predicate::str::contains("jaccard"));
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(
        &broken,
        "{\"id_a\":\"1\",\"id_b\":\"2\",\"jaccard\":0.5}\n{\"id_a\":\n",
    )
    .unwrap();
    lshscope()
        .args(["plot", "histogram", "-o"])
        .arg(dir.path().join("h.svg"))
        .arg("--pairs")
        .arg(&broken)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":2: column"));
}

#[test]
fn scan_truth_reads_compressed_json_lines_from_truth() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.csv");
    let truth_csv = dir.path().join("t.csv");
    let truth_zst = dir.path().join("t.jsonl.zst");
    lshscope()
        .args(["gen", "-n", "1000", "--pairs-per-level", "20", "-q", "-o"])
        .arg(&corpus)
        .assert()
        .success();
    for t in [&truth_csv, &truth_zst] {
        lshscope()
            .args(["truth", "-q", "-t", "0.5"])
            .arg(&corpus)
            .arg("-o")
            .arg(t)
            .assert()
            .success();
    }
    let summary = |truth: &Path| {
        let out = lshscope()
            .args(["scan", "-o", "-", "--summary-json"])
            .arg(dir.path().join(format!(
                "{}.json",
                truth.file_name().unwrap().to_string_lossy()
            )))
            .arg(&corpus)
            .arg("--truth")
            .arg(truth)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stderr).unwrap();
        text[text.find("truth:").unwrap()..].to_string()
    };
    let a = summary(&truth_csv);
    let b = summary(&truth_zst);
    assert_eq!(a.replace("t.csv", "T"), b.replace("t.jsonl.zst", "T"));
}

#[test]
fn exit_codes_follow_the_documented_mapping() {
    // 2: bad usage, bad input, a path that does not exist.
    lshscope()
        .args(["scan", QUESTIONS, "-t", "2"])
        .assert()
        .code(2);
    lshscope()
        .args(["scan", "no/such/file.csv"])
        .assert()
        .code(2);
    lshscope().args(["scan", "--no-such-flag"]).assert().code(2);
    // 1: a write that fails part-way (a full device).
    if Path::new("/dev/full").exists() {
        lshscope()
            .args(["scan", QUESTIONS, "-q", "-o", "/dev/full"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("/dev/full"));
    }
    // --help documents them.
    lshscope()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes:"))
        .stdout(predicate::str::contains("130"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_cancels_cleans_up_and_exits_130() {
    signal_cancels_a_scan_and_cleans_up("-INT");
}

#[test]
fn summary_json_goes_to_stdout_with_dash() {
    let dir = tempfile::tempdir().unwrap();
    let out = lshscope()
        .args(["scan", QUESTIONS, "-q", "--summary-json", "-", "-o"])
        .arg(dir.path().join("p.csv"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["pairs_kept"].as_u64().is_some());
    let mut both = lshscope();
    both.args(["scan", QUESTIONS, "-q", "--summary-json", "-"]);
    both.assert()
        .code(2)
        .stderr(predicate::str::contains("both go to stdout"));
    let _ = std::io::stdout().flush();
}

/// Waits until `child` has a temporary output file in `dir`, failing if it ends first.
#[cfg(unix)]
fn wait_for_temporary_file(dir: &Path, child: &mut std::process::Child) {
    let started = std::time::Instant::now();
    while !files(dir).iter().any(|f| f.ends_with(".tmp")) {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "no temporary file appeared"
        );
        assert!(child.try_wait().unwrap().is_none(), "scan ended early");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A generated corpus of `n` documents in `dir`.
fn generated(dir: &Path, n: &str) -> PathBuf {
    let corpus = dir.join("c.csv");
    lshscope()
        .args(["gen", "-n", n, "-q", "-o"])
        .arg(&corpus)
        .assert()
        .success();
    corpus
}

#[cfg(unix)]
#[test]
fn sigterm_cancels_cleans_up_and_exits_130_like_ctrl_c() {
    signal_cancels_a_scan_and_cleans_up("-TERM");
}

/// Sends `signal` (as `kill` spells it) to a scan while it writes its pairs: the scan exits
/// with 130, says it was interrupted and leaves no file behind.
#[cfg(unix)]
fn signal_cancels_a_scan_and_cleans_up(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = generated(dir.path(), "3000");
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    // One row per band: millions of candidate pairs, written for far longer than it takes
    // to see the temporary file.
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("lshscope"))
        .args(["scan", "-b", "128", "-r", "1", "-q", "-o"])
        .arg(out_dir.join("pairs.csv"))
        .arg(&corpus)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Signal only once the pairs are being written, so there is a temporary file to remove
    // (a fixed wait assumed a slow machine).
    wait_for_temporary_file(&out_dir, &mut child);
    let killed = StdCommand::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(
        files(&out_dir).is_empty(),
        "left behind: {:?}",
        files(&out_dir)
    );
}

#[test]
fn every_output_is_checked_before_reading_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = dir.path().join("p.csv");
    let missing = dir.path().join("missing");
    let check = |args: &[&str], option: &str, target: &Path| {
        let out = lshscope().args(args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(
            err,
            format!(
                "lshscope: error: {option} {}: the directory {} does not exist\n",
                target.display(),
                missing.display()
            )
        );
        assert!(!pairs.exists(), "the pairs were written");
    };
    let summary = missing.join("s.json");
    check(
        &[
            "scan",
            QUESTIONS,
            "-q",
            "-o",
            pairs.to_str().unwrap(),
            "--summary-json",
            summary.to_str().unwrap(),
        ],
        "--summary-json",
        &summary,
    );
    let groups = missing.join("g.csv");
    check(
        &[
            "scan",
            QUESTIONS,
            "-q",
            "--collapse-identical",
            "-o",
            pairs.to_str().unwrap(),
            "--groups",
            groups.to_str().unwrap(),
        ],
        "--groups",
        &groups,
    );
    let truth = missing.join("t.csv");
    check(
        &[
            "truth",
            QUESTIONS,
            "-t",
            "0.5",
            "-o",
            truth.to_str().unwrap(),
        ],
        "--output",
        &truth,
    );
    // gen and plot say the same as the others (they named the directory as one they could
    // not create a file in), and gen writes no corpus when its side file cannot be written.
    let corpus = dir.path().join("corpus.csv");
    let families = missing.join("f.csv");
    check(
        &[
            "gen",
            "--templates",
            "-n",
            "10",
            "-o",
            corpus.to_str().unwrap(),
            "--families",
            families.to_str().unwrap(),
        ],
        "--families",
        &families,
    );
    assert!(!corpus.exists(), "the corpus was written");
    let image = missing.join("s.svg");
    check(
        &[
            "plot",
            "scurve",
            "-b",
            "20",
            "-r",
            "5",
            "-o",
            image.to_str().unwrap(),
        ],
        "--output",
        &image,
    );
    // An input that does not exist is not read: the output is checked first.
    let pairs_elsewhere = missing.join("p.csv");
    check(
        &[
            "scan",
            "no/such/input.csv",
            "-o",
            pairs_elsewhere.to_str().unwrap(),
        ],
        "--output",
        &pairs_elsewhere,
    );
    // A directory or a file in the way is named too.
    lshscope()
        .args(["scan", QUESTIONS, "-q", "-o"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory; give a file name"));
    // A directory that exists but takes no files (Linux's /proc answers "No such file or
    // directory" of itself) gets the way out beside the system's words.
    if Path::new("/proc").is_dir() {
        lshscope()
            .args(["scan", QUESTIONS, "-q", "-o", "/proc/pairs.csv"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--output /proc/pairs.csv: cannot create a file in /proc: ",
            ))
            .stderr(predicate::str::contains(
                "; write it to a directory you can write to",
            ));
    }
}

#[test]
fn a_later_output_that_fails_names_the_outputs_already_written() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pairs = dir.path().join("p.csv");
    let out = lshscope()
        .args(["scan", QUESTIONS, "-q", "--collapse-identical", "-o"])
        .arg(&pairs)
        .args(["--summary-json", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let groups = dir.path().join("p.groups.csv");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "lshscope: error: /dev/full: No space left on device (os error 28); already \
             written in full: {}, {}\n",
            pairs.display(),
            groups.display()
        )
    );
    assert_eq!(files(dir.path()), ["p.csv", "p.groups.csv"]);
}

#[test]
fn scan_summary_groups_digits_and_records_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = generated(dir.path(), "1500");
    let json = dir.path().join("s.json");
    let out = lshscope()
        .args([
            "scan",
            "-o",
            "/dev/null",
            "--max-bucket",
            "20",
            "--seed",
            "3",
        ])
        .args(["--shingle", "word:2", "--summary-json"])
        .arg(&json)
        .arg(&corpus)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(err.starts_with("read 1,500 documents"), "{err}");
    assert!(
        err.contains("1,501 lines → 1,500 rows: 1 header line"),
        "{err}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(s["max_bucket"], 20);
    assert_eq!(s["seed"], 3);
    assert_eq!(s["num_perm"], 128);
    assert_eq!(
        s["shingle"]["kind"],
        serde_json::json!({"unit": "word", "size": 2})
    );
    assert_eq!(s["shingle"]["lowercase"], true);
}
