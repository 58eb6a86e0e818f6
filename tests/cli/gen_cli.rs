//! `lshscope gen --kind`: job ads written, read back by scan with their truth; options a kind
//! does not use refused by name; the old `--templates` flag still working.

use assert_cmd::Command;
use predicates::prelude::*;

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

#[test]
fn job_ads_and_their_truth_read_back_through_scan() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("jobs.tsv.gz");
    let truth = dir.path().join("jobs.truth.csv");
    lshscope()
        .args(["gen", "--kind", "jobs", "-n", "1500", "--seed", "4"])
        .args(["--levels", "0.6,0.9", "--pairs-per-level", "30", "-o"])
        .arg(&corpus)
        .arg("--truth")
        .arg(&truth)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote 1,500 job ads to "))
        .stderr(predicate::str::contains("with 60 planted pairs, "))
        .stderr(predicate::str::contains(" template famil"));
    let rows = std::fs::read_to_string(&truth).unwrap();
    assert_eq!(rows.lines().next(), Some("id_a,id_b,jaccard,level"));
    assert_eq!(rows.lines().count(), 61);
    // Every planted pair at 0.9 becomes a candidate at 20 × 5 (P(0.85) > 0.999); scan names
    // the truth's ids, so the TSV was read back with its ids and texts intact.
    let out = lshscope()
        .args(["scan", "-q", "-o", "-", "--truth"])
        .arg(&truth)
        .arg(&corpus)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pairs = String::from_utf8(out.stdout).unwrap();
    for line in rows.lines().skip(1).filter(|l| l.ends_with(",0.9")) {
        let mut f = line.split(',');
        let (a, b) = (f.next().unwrap(), f.next().unwrap());
        assert!(
            pairs.lines().any(|p| p.starts_with(&format!("{a},{b},"))),
            "planted pair {a},{b} missing"
        );
    }
}

#[test]
fn options_a_kind_does_not_use_are_refused_by_name() {
    for (args, message) in [
        (
            &["--kind", "jobs", "--length", "300"][..],
            "--length applies to --kind words, not to --kind jobs",
        ),
        (
            &["--kind", "templates", "--levels", "0.5"][..],
            "--levels applies to --kind words or jobs, not to --kind templates",
        ),
        (
            &["--copy-share", "0.5"][..],
            "--copy-share applies to --kind templates, not to --kind words",
        ),
        (
            &["--kind", "words", "--max-family", "10"][..],
            "--max-family applies to --kind jobs or templates, not to --kind words",
        ),
        (
            &["--templates", "--truth", "t.csv", "-o", "c.csv"][..],
            "--truth applies to --kind words or jobs, not to --kind templates",
        ),
    ] {
        lshscope()
            .arg("gen")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn the_templates_flag_still_makes_template_families() {
    let run = |args: &[&str]| {
        let out = lshscope()
            .args([
                "gen",
                "-n",
                "300",
                "--seed",
                "2",
                "-q",
                "--max-family",
                "40",
            ])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let flag = run(&["--templates"]);
    assert_eq!(flag, run(&["--kind", "templates"]));
    assert!(flag.starts_with(b"id,text\nt0000001,"));
}

/// `--seed`, as its help says: the same seed writes the same bytes, another seed another
/// corpus, for every kind.
#[test]
fn the_seed_fixes_the_corpus() {
    let run = |kind: &str, seed: &str| {
        let args = ["gen", "--kind", kind, "-n", "400", "-q", "--seed", seed];
        let out = lshscope().args(args).assert().success();
        out.get_output().stdout.clone()
    };
    for kind in ["words", "jobs", "templates"] {
        let first = run(kind, "7");
        assert_eq!(first, run(kind, "7"), "{kind}");
        assert_ne!(first, run(kind, "8"), "{kind}");
    }
    let help = lshscope().args(["gen", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let seed = &help[help.find("--seed <SEED>").unwrap()..];
    // Words joined across the wrapped lines.
    let seed = seed[..seed.find("[default: 1]").unwrap()]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(seed.contains("byte for byte"), "{seed}");
}

/// `--families` writes every document's family and how it was made, and leaves the corpus
/// byte for byte as it is without it; `truth --blocks` reads it back.
#[test]
fn the_families_file_names_every_document_and_leaves_the_corpus_alone() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "gen",
        "--kind",
        "templates",
        "-n",
        "1200",
        "--seed",
        "3",
        "--identical-group",
        "30",
        "--template-family",
        "40",
        "-q",
    ];
    let (plain, with) = (dir.path().join("plain.csv"), dir.path().join("with.csv"));
    let families = dir.path().join("families.csv");
    lshscope()
        .args(base)
        .arg("-o")
        .arg(&plain)
        .assert()
        .success();
    lshscope()
        .args(base)
        .arg("-o")
        .arg(&with)
        .arg("--families")
        .arg(&families)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&with).unwrap()
    );
    let rows = std::fs::read_to_string(&families).unwrap();
    let mut lines = rows.lines();
    assert_eq!(lines.next(), Some("id,family,member"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 1200);
    let count = |member: &str| rows.iter().filter(|r| r[2] == member).count();
    assert_eq!(count("identical-group"), 30);
    assert_eq!(count("template-family"), 40);
    assert!(count("unique") > 0 && count("copy") > 0 && count("edited") > 0);
    assert!(rows.iter().all(|r| r[0].starts_with('t')));
    // Ground truth for a dedup tool: the pairs at 0.9 of the exact join, counted by blocks.
    let out = lshscope()
        .args(["truth", "-t", "0.9", "-q"])
        .arg(&plain)
        .arg("--blocks")
        .arg(&families)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let join = lshscope()
        .args(["truth", "-t", "0.9", "-q"])
        .arg(&plain)
        .output()
        .unwrap();
    let pairs = String::from_utf8_lossy(&join.stdout).lines().count() - 1;
    let counted: usize = String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counted, pairs);
    assert!(pairs > 100, "{pairs}");
    // Not for the other kinds, and not with a text corpus, which has no ids.
    lshscope()
        .args([
            "gen",
            "--kind",
            "jobs",
            "--families",
            "f.csv",
            "-o",
            "j.csv",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--families applies to --kind templates, not to --kind jobs",
        ));
    lshscope()
        .args(["gen", "--templates", "--families"])
        .arg(&families)
        .arg("-o")
        .arg(dir.path().join("t.txt"))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "holds no ids, and --families names",
        ));
}
