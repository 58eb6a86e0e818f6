//! `lshscope truth` and `lshscope scan --truth` end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lshscope_core::analysis::truth::brute_force_join;
use lshscope_core::corpus::{ReadOptions, read_corpus};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{IndexOptions, build_index};
use lshscope_core::synthetic::words::{GenOptions, generate};
use lshscope_core::text::ShingleOptions;

use crate::cli_support;

fn lshscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lshscope"))
        .args(args)
        .output()
        .expect("run lshscope")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A one-document-per-line corpus (ids are line numbers) with planted pairs and a blank line.
fn write_corpus(dir: &Path) -> PathBuf {
    let (corpus, _) = generate(&GenOptions {
        documents: 400,
        length: 200,
        levels: vec![0.4, 0.55, 0.7, 0.85, 1.0],
        pairs_per_level: 15,
        seed: 21,
        shingle: ShingleOptions::default(),
    });
    let mut lines: Vec<String> = (0..corpus.len())
        .map(|i| corpus.text(i).to_string())
        .collect();
    lines.insert(17, String::new());
    let path = dir.join("corpus.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn truth_writes_the_brute_force_pairs_in_scan_order() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let out = dir.path().join("truth.csv");
    let run = lshscope(&[
        "truth",
        input.to_str().unwrap(),
        "--threshold",
        "0.5",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("read 401 documents"), "{stderr}");
    assert!(stderr.contains("exact join:"), "{stderr}");
    assert!(stderr.contains("exact similarity join"), "{stderr}");

    // The same pairs, ids and float strings as brute force on the same sets.
    let progress = Progress::new();
    let (corpus, _) = read_corpus(&input, &ReadOptions::default(), &progress).unwrap();
    let index = build_index(&corpus, &IndexOptions::default(), &progress).unwrap();
    let mut want = String::from("id_a,id_b,jaccard\n");
    let pairs = brute_force_join(&index.sets, 0.5);
    assert!(
        pairs.len() >= 45,
        "too few pairs to mean anything: {}",
        pairs.len()
    );
    for p in &pairs {
        want.push_str(&format!(
            "{},{},{}\n",
            corpus.id(p.a as usize),
            corpus.id(p.b as usize),
            p.jaccard
        ));
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);

    // Stdout when no --output; --quiet silences stderr.
    let run = lshscope(&["truth", input.to_str().unwrap(), "-t", "0.5", "--quiet"]);
    assert!(run.status.success());
    assert_eq!(text(&run.stdout), want);
    assert!(run.stderr.is_empty(), "{}", text(&run.stderr));
}

#[test]
fn truth_refuses_work_beyond_the_budget_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let input = input.to_str().unwrap();
    let run = lshscope(&["truth", input, "-t", "0.3", "--max-seconds", "0", "-q"]);
    assert_eq!(run.status.code(), Some(1), "a refused budget exits 1");
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("--sample") && stderr.contains("--force"),
        "{stderr}"
    );
    assert!(run.stdout.is_empty());

    let run = lshscope(&[
        "truth",
        input,
        "-t",
        "0.3",
        "--max-seconds",
        "0",
        "--force",
        "-q",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(text(&run.stdout).starts_with("id_a,id_b,jaccard\n"));

    for bad in ["0", "1.5", "-0.1"] {
        let run = lshscope(&["truth", input, "-t", bad]);
        assert_eq!(run.status.code(), Some(2), "threshold {bad}");
    }
    let run = lshscope(&["truth", input]);
    assert_eq!(run.status.code(), Some(2), "no threshold");
}

#[test]
fn estimate_pairs_writes_a_jaccard_column_and_a_distribution() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let out = dir.path().join("sample.csv");
    let run = lshscope(&[
        "truth",
        input.to_str().unwrap(),
        "--estimate-pairs",
        "2000",
        "--uniform",
        "-t",
        "0.5",
        "--seed",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("sampled 2,000 of 80,200 pairs"), "{stderr}");
    assert!(stderr.contains("[0.00, 0.05)"), "{stderr}");
    // Most random pairs land in the first bin: a count in the thousands.
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("  [0.00, 0.05)") && l.contains(',')),
        "{stderr}"
    );
    cli_support::assert_numbers_grouped("truth --estimate-pairs", &stderr);
    let written = std::fs::read_to_string(&out).unwrap();
    let mut lines = written.lines();
    assert_eq!(lines.next(), Some("jaccard,weight"));
    let rows: Vec<(f64, f64)> = lines
        .map(|l| {
            let (j, w) = l.split_once(',').unwrap();
            (j.parse().unwrap(), w.parse().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), 2000);
    assert!(rows.iter().all(|(j, _)| (0.0..=1.0).contains(j)));
    // Each sampled pair stands for 80,200 / 2,000 pairs.
    assert!(rows.iter().all(|&(_, w)| w == 40.1));
    // tune scales by the weights: its corpus is every pair, its expected candidates the
    // weighted sum of P(s) over the sample.
    let tuned = lshscope(&[
        "tune",
        "-t",
        "0.5",
        "--banding",
        "20x5",
        "--similarities",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    let report: serde_json::Value = serde_json::from_slice(&tuned.stdout).unwrap();
    assert!((report["corpus"]["pairs"].as_f64().unwrap() - 80200.0).abs() < 1e-6);
    let given = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["criterion"] == "given")
        .unwrap();
    let expected: f64 = rows
        .iter()
        .map(|&(s, w)| w * (1.0 - (1.0 - s.powi(5)).powi(20)))
        .sum();
    let got = given["corpus"]["expected_candidates"].as_f64().unwrap();
    assert!(
        (got - expected).abs() < 1e-6 * expected.max(1.0),
        "{got} vs {expected}"
    );
    assert!(report["notes"].to_string().contains("`weight`"));
    // Same seed, same sample.
    let again = dir.path().join("again.csv");
    let run = lshscope(&[
        "truth",
        input.to_str().unwrap(),
        "--estimate-pairs",
        "2000",
        "--uniform",
        "--seed",
        "4",
        "-q",
        "-o",
        again.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), written);
}

/// The default sample is stratified: the file says each row's stratum, the stratum's exact
/// size and the permissive banding; the summary the strata and the count at or above t with
/// its interval, which covers the exact join's; `tune --similarities` reads it with recall and
/// precision at t, and a file cut short is refused with its line.
#[test]
fn estimate_pairs_samples_by_strata_and_tune_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let input = input.to_str().unwrap();
    let out = dir.path().join("strata.csv");
    let run = lshscope(&[
        "truth",
        input,
        "--estimate-pairs",
        "2000",
        "-t",
        "0.7",
        "--seed",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("strata of the permissive"), "{stderr}");
    assert!(stderr.contains("candidates"), "{stderr}");
    assert!(stderr.contains("others"), "{stderr}");
    cli_support::assert_numbers_grouped("truth --estimate-pairs", &stderr);
    // At -t 0.7 the strata have a lower level, 25 × 2 for Jaccard 0.5.
    assert!(stderr.contains("lower 25 × 2 banding"), "{stderr}");
    // The census of candidates holds all 36 pairs at 0.7. The draws of `lower_candidates`
    // and `others` alone could not rule out some 300 more hidden among their 80,012 pairs;
    // the permissive banding misses a pair at 0.7 with probability below 10⁻³, which bounds
    // them (Markov) at 11 % of the candidates' count (under 4.5): the interval is 36–40, not
    // 36–300.
    assert!(
        stderr.contains("36 pairs in the corpus (95 % interval 36–40)"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&out).unwrap();
    let mut lines = written.lines();
    assert_eq!(
        lines.next(),
        Some("jaccard,weight,stratum,stratum_pairs,strata_banding,strata_threshold,strata_family")
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 2000);
    // The lower candidates' rows name their own banding and threshold, the others' the first.
    let banding_of = |name: &str| {
        let row = rows.iter().find(|r| r[2] == name).unwrap();
        (row[4].clone(), row[5].clone())
    };
    assert_eq!(
        banding_of("lower_candidates"),
        ("25x2".into(), "0.5".into())
    );
    assert_eq!(banding_of("others"), banding_of("candidates"));
    let sizes: u64 = ["candidates", "lower_candidates", "others"]
        .iter()
        .map(|name| {
            let of: Vec<&Vec<String>> = rows.iter().filter(|r| r[2] == *name).collect();
            let size: u64 = of[0][3].parse().unwrap();
            // weight = stratum size ÷ rows drawn from it
            let w: f64 = of[0][1].parse().unwrap();
            assert!(
                (w - size as f64 / of.len() as f64).abs() < 1e-9 * w,
                "{name}"
            );
            size
        })
        .sum();
    assert_eq!(sizes, 80_200, "the strata split all pairs");
    // The count at or above 0.7 in the summary covers the exact join's.
    let progress = Progress::new();
    let (corpus, _) = read_corpus(Path::new(input), &ReadOptions::default(), &progress).unwrap();
    let index = build_index(&corpus, &IndexOptions::default(), &progress).unwrap();
    let exact = brute_force_join(&index.sets, 0.7).len() as u64;
    let line = stderr
        .lines()
        .find(|l| l.contains("Jaccard ≥ 0.7: about"))
        .expect("count line");
    let interval = line
        .split("interval ")
        .nth(1)
        .unwrap()
        .trim_end_matches(')');
    let (lo, hi) = interval.split_once('–').unwrap();
    let number = |t: &str| t.replace(',', "").parse::<u64>().unwrap();
    assert!(
        number(lo) <= exact && exact <= number(hi),
        "{line} vs {exact}"
    );

    let tuned = lshscope(&[
        "tune",
        "-t",
        "0.7",
        "--banding",
        "20x5",
        "--similarities",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    let report: serde_json::Value = serde_json::from_slice(&tuned.stdout).unwrap();
    assert!((report["corpus"]["pairs"].as_f64().unwrap() - 80200.0).abs() < 1e-6);
    assert!(
        report["notes"].to_string().contains("stratified sample"),
        "{report}"
    );
    // The candidates of the permissive banding are few here: taken whole.
    assert!(report["notes"].to_string().contains("all "), "{report}");
    // What the figures are about, and where one seed's spread is measured.
    assert!(
        report["notes"]
            .to_string()
            .contains("averages over hash seeds, and their intervals are about those averages")
            && report["notes"].to_string().contains("--seeds 5"),
        "{report}"
    );
    let given = &report["rows"].as_array().unwrap()[0];
    assert!(given["sampled"]["expected_recall"].is_array(), "{given}");
    assert!(given["corpus"]["expected_recall"].is_number(), "{given}");

    // A file cut short no longer adds up: refused, naming the line and what to do.
    let cut = dir.path().join("cut.csv");
    let kept: Vec<&str> = written.lines().take(1500).collect();
    std::fs::write(&cut, kept.join("\n") + "\n").unwrap();
    let refused = lshscope(&["tune", "-t", "0.7", "--similarities", cut.to_str().unwrap()]);
    assert!(!refused.status.success());
    let message = text(&refused.stderr);
    assert!(
        message.contains("cut.csv") && message.contains("weight"),
        "{message}"
    );
    assert!(message.contains("--estimate-pairs"), "{message}");
}

/// `--lower-threshold off` draws two strata (the file has no lower rows and tune reads it);
/// a lower threshold at or above -t, or not a number, is refused with exit 2 naming the flag.
#[test]
fn lower_threshold_can_be_set_or_turned_off() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let input = input.to_str().unwrap();
    let sample = |extra: &[&str], name: &str| {
        let out = dir.path().join(name);
        let mut args = vec![
            "truth",
            input,
            "--estimate-pairs",
            "2000",
            "-t",
            "0.8",
            "-q",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", out.to_str().unwrap()]);
        (lshscope(&args), out)
    };
    let (run, two) = sample(&["--lower-threshold", "off"], "two.csv");
    assert!(run.status.success(), "{}", text(&run.stderr));
    let written = std::fs::read_to_string(&two).unwrap();
    assert!(!written.contains("lower_candidates"), "{written}");
    assert!(written.contains(",others,"), "{written}");
    let (run, lower) = sample(&["--lower-threshold", "0.65"], "lower.csv");
    assert!(run.status.success(), "{}", text(&run.stderr));
    let written = std::fs::read_to_string(&lower).unwrap();
    assert!(written.contains(",lower_candidates,"), "{written}");
    assert!(written.contains(",0.65,"), "{written}");
    for file in [&two, &lower] {
        let tuned = lshscope(&[
            "tune",
            "-t",
            "0.8",
            "--similarities",
            file.to_str().unwrap(),
        ]);
        assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    }
    for (bad, says) in [
        ("0.8", "below the strata threshold 0.8"),
        ("lots", "or `off`"),
    ] {
        let (run, _) = sample(&["--lower-threshold", bad], "bad.csv");
        assert_eq!(run.status.code(), Some(2), "{bad}");
        let message = text(&run.stderr);
        assert!(
            message.contains("--lower-threshold") && message.contains(says),
            "{bad}: {message}"
        );
    }
}

#[test]
fn scan_with_truth_reports_recall_and_keeps_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let input = input.to_str().unwrap();
    let truth = dir.path().join("truth.csv");
    let run = lshscope(&[
        "truth",
        input,
        "-t",
        "0.5",
        "-q",
        "-o",
        truth.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));

    let plain = lshscope(&["scan", input, "-t", "0.5"]);
    assert!(plain.status.success());
    let json = dir.path().join("summary.json");
    let with_truth = lshscope(&[
        "scan",
        input,
        "-t",
        "0.5",
        "--truth",
        truth.to_str().unwrap(),
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    assert!(with_truth.status.success(), "{}", text(&with_truth.stderr));
    assert_eq!(
        with_truth.stdout, plain.stdout,
        "--truth changed the pairs written"
    );
    let stderr = text(&with_truth.stderr);
    assert!(stderr.contains("recall at Jaccard ≥ 0.5:"), "{stderr}");
    assert!(stderr.contains("precision at Jaccard ≥ 0.5:"), "{stderr}");
    assert!(stderr.contains("95 % interval"), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");

    // Recall in the JSON equals pairs written (all candidates ≥ 0.5) over truth pairs.
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let report = &summary["truth"]["report"];
    let true_pairs = std::fs::read_to_string(&truth).unwrap().lines().count() - 1;
    let written = text(&plain.stdout).lines().count() - 1;
    assert_eq!(report["true_at_threshold"], true_pairs);
    assert_eq!(report["found_at_threshold"], written);
    assert_eq!(report["candidates_at_threshold"], written);
    assert_eq!(summary["truth"]["jaccard_mismatches"], 0);

    // A gen-style truth file with a `level` column is accepted; an unknown id names its line.
    let with_level = dir.path().join("level.csv");
    let mut rows = String::from("id_a,id_b,jaccard,level\n");
    for line in std::fs::read_to_string(&truth).unwrap().lines().skip(1) {
        rows.push_str(line);
        rows.push_str(",0.5\n");
    }
    std::fs::write(&with_level, &rows).unwrap();
    let run = lshscope(&["scan", input, "-q", "--truth", with_level.to_str().unwrap()]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    rows.push_str("1,no-such-id,0.7,0.7\n");
    std::fs::write(&with_level, &rows).unwrap();
    let run = lshscope(&["scan", input, "-q", "--truth", with_level.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = text(&run.stderr);
    let line = rows.lines().count();
    assert!(
        stderr.contains(&format!("level.csv:{line}:")) && stderr.contains("no-such-id"),
        "{stderr}"
    );

    // A truth made with other shingles is flagged.
    let run = lshscope(&[
        "scan",
        input,
        "--shingle",
        "char:4",
        "--truth",
        truth.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    assert!(
        text(&run.stderr).contains("warning"),
        "{}",
        text(&run.stderr)
    );
}

/// `scan --truth` on template families, whose bins hold thousands of true pairs: the table
/// and the recall and precision lines group their digits; a missing truth file names --truth.
#[test]
fn scan_truth_table_groups_thousands() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("t.csv");
    let truth = dir.path().join("truth.csv");
    let (corpus, truth) = (corpus.to_str().unwrap(), truth.to_str().unwrap());
    let generate = [
        "gen",
        "--kind",
        "templates",
        "-n",
        "1500",
        "--max-family",
        "300",
    ];
    assert!(
        lshscope(&[&generate[..], &["-q", "-o", corpus]].concat())
            .status
            .success()
    );
    assert!(
        lshscope(&["truth", corpus, "-t", "0.5", "-q", "-o", truth])
            .status
            .success()
    );
    let run = lshscope(&[
        "scan",
        corpus,
        "--truth",
        truth,
        "--truth-redraws",
        "0",
        "-o",
        "-",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    let table = &stderr[stderr.find("truth: ").expect("the truth table")..];
    assert!(table.contains(','), "no count reaches a thousand:\n{table}");
    cli_support::assert_numbers_grouped("scan --truth", table);
    let missing = dir.path().join("missing.csv");
    let run = lshscope(&["scan", corpus, "-q", "--truth", missing.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains(&format!("--truth {}: cannot read: ", missing.display())),
        "{}",
        text(&run.stderr)
    );
}

/// With a truth file and no `-t`, recall is at the file's lowest Jaccard, a value such as
/// 28/103: the line shows it to four decimals and an ellipsis, not its 17 digits.
#[test]
fn recall_at_a_truth_files_lowest_jaccard_is_readable() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("jobs.csv");
    let truth = dir.path().join("jobs.truth.csv");
    let generated = lshscope(&[
        "gen",
        "--kind",
        "jobs",
        "-n",
        "400",
        "--seed",
        "3",
        "-o",
        input.to_str().unwrap(),
        "--truth",
        truth.to_str().unwrap(),
        "-q",
    ]);
    assert!(generated.status.success(), "{}", text(&generated.stderr));
    let run = lshscope(&[
        "scan",
        input.to_str().unwrap(),
        "--truth",
        truth.to_str().unwrap(),
        "-o",
        "/dev/null",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("recall at Jaccard ≥ "))
        .unwrap_or_else(|| panic!("no recall line in {stderr}"));
    let value = line["recall at Jaccard ≥ ".len()..]
        .split(':')
        .next()
        .unwrap();
    let digits = value.trim_end_matches('…').split('.').nth(1).unwrap_or("");
    assert!(digits.len() <= 4, "{line}");
}

/// `scan --truth` streams like any scan (the bucket lists say which truth pairs are
/// candidates; no list of candidates is built): on a template corpus with copies, a bucket cap
/// and a threshold, the report equals the one counted from the written pairs, and
/// `--unsorted` (no longer refused with `--truth`) gives the same pairs and the same report.
#[test]
fn scan_with_truth_streams_and_unsorted_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("t.csv");
    let input = input.to_str().unwrap();
    let generated = lshscope(&[
        "gen",
        "--templates",
        "-n",
        "2500",
        "--max-family",
        "300",
        "--identical-group",
        "200",
        "--seed",
        "9",
        "-o",
        input,
        "-q",
    ]);
    assert!(generated.status.success(), "{}", text(&generated.stderr));
    let truth = dir.path().join("truth.csv");
    let made = lshscope(&[
        "truth",
        input,
        "-t",
        "0.6",
        "-q",
        "-o",
        truth.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let scan = |extra: &[&str], json: &str| {
        let json = dir.path().join(json);
        let mut args = vec![
            "scan",
            input,
            "-b",
            "16",
            "-r",
            "4",
            "-t",
            "0.7",
            "--max-bucket",
            "150",
            "--truth-redraws",
            "0",
            "--truth",
            truth.to_str().unwrap(),
            "--summary-json",
            json.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = lshscope(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let mut pairs: Vec<String> = text(&run.stdout)
            .lines()
            .skip(1)
            .map(String::from)
            .collect();
        pairs.sort();
        (summary, pairs)
    };
    let (sorted, sorted_pairs) = scan(&[], "sorted.json");
    let (unsorted, unsorted_pairs) = scan(&["--unsorted"], "unsorted.json");
    assert_eq!(sorted["truth"], unsorted["truth"]);
    assert_eq!(sorted_pairs, unsorted_pairs);
    let report = &sorted["truth"]["report"];
    // The truth holds every pair at 0.6 and above: those at 0.7 and above that are candidates
    // are exactly the pairs written.
    assert_eq!(report["found_at_threshold"], sorted_pairs.len());
    assert_eq!(report["candidates_at_threshold"], sorted_pairs.len());
    assert_eq!(report["candidates"], sorted["candidates"]);
    assert!(
        sorted["pairs_dropped_by_cap"].as_u64().unwrap() > 0,
        "the cap cut a bucket"
    );
}

/// `--estimate-pairs 0` is refused at once (exit 2, saying what to give), instead of writing
/// a sample without rows that only `tune` refuses later.
#[test]
fn a_sample_of_no_pairs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_corpus(dir.path());
    let out = dir.path().join("s.csv");
    let run = lshscope(&[
        "truth",
        input.to_str().unwrap(),
        "--estimate-pairs",
        "0",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("a sample needs at least one pair"),
        "{}",
        text(&run.stderr)
    );
    assert!(!out.exists());
}
