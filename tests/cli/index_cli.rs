//! `lshscope index`: build, add, query and info end to end, and the refusals of damaged files.

use assert_cmd::Command;
use predicates::prelude::*;

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const DOCS: &str = "id,text
a,the quick brown fox jumps over the lazy dog near the river bank
b,the quick brown fox jumped over the lazy dog near the river bank
c,\"a completely different sentence, about tax forms and receipts\"
d,the quick brown fox jumps over the lazy dog near the river bank
";

const MORE: &str = "id,text
e,the quick brown fox jumps over the lazy dog near the river bend
f,nothing like the others at all
";

fn build(dir: &std::path::Path) -> std::path::PathBuf {
    let docs = write(dir, "docs.csv", DOCS);
    let index = dir.join("docs.lshidx");
    lshscope()
        .args([
            "index", "build", "-q", "-k", "64", "-b", "16", "-r", "4", "-o",
        ])
        .arg(&index)
        .arg(&docs)
        .assert()
        .success();
    index
}

fn query(index: &std::path::Path, what: &str) -> Vec<Vec<String>> {
    let out = lshscope()
        .args(["index", "query"])
        .arg(index)
        .arg(what)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn build_query_add_and_info() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    let rows = query(
        &index,
        "the quick brown fox jumps over the lazy dog near the river bank",
    );
    assert_eq!(rows[0], ["query", "id", "jaccard", "estimate", "bands_hit"]);
    let ids: Vec<&str> = rows[1..].iter().map(|r| r[1].as_str()).collect();
    // a and d are the same text (Jaccard 1, first by position), then b.
    assert_eq!(ids, ["a", "d", "b"]);
    assert_eq!(rows[1][2], "1");
    assert_eq!(rows[1][4], "16");

    let more = write(dir.path(), "more.csv", MORE);
    lshscope()
        .args(["index", "add", "-q"])
        .arg(&index)
        .arg(&more)
        .assert()
        .success();
    let rows = query(
        &index,
        "the quick brown fox jumps over the lazy dog near the river bend",
    );
    assert_eq!(rows[1][1], "e");
    assert_eq!(rows[1][2], "1");

    // A file of queries: each document looked up, its id in the query column.
    let queries = write(dir.path(), "q.csv", MORE);
    let rows = query(&index, queries.to_str().unwrap());
    assert!(rows[1..].iter().any(|r| r[0] == "e" && r[1] == "e"));
    assert!(rows[1..].iter().any(|r| r[0] == "f" && r[1] == "f"));

    let info = lshscope()
        .args(["index", "info", "--json"])
        .arg(&index)
        .output()
        .unwrap();
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(info["documents"], 6);
    assert_eq!(info["bands"], 16);
    assert_eq!(info["options"]["num_perm"], 64);
}

/// The index answers what a scan with the same options finds for a document.
#[test]
fn a_query_agrees_with_scan() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    let scan = lshscope()
        .args(["scan", "-q", "-k", "64", "-b", "16", "-r", "4"])
        .arg(dir.path().join("docs.csv"))
        .output()
        .unwrap();
    let scanned: Vec<Vec<String>> = String::from_utf8(scan.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .filter(|r: &Vec<String>| r[0] == "b" || r[1] == "b")
        .collect();
    let rows = query(
        &index,
        "the quick brown fox jumped over the lazy dog near the river bank",
    );
    for pair in &scanned {
        let other = if pair[0] == "b" { &pair[1] } else { &pair[0] };
        let hit = rows
            .iter()
            .find(|r| &r[1] == other)
            .expect("scan's partner found");
        assert_eq!(hit[2], pair[2], "jaccard");
        assert_eq!(hit[3], pair[3], "estimate");
        assert_eq!(hit[4], pair[4], "bands hit");
    }
    assert_eq!(
        rows.len() - 1,
        scanned.len() + 1,
        "the partners and b itself"
    );
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    let bytes = std::fs::read(&index).unwrap();

    let flipped = dir.path().join("flipped.lshidx");
    let mut b = bytes.clone();
    let middle = b.len() / 2;
    b[middle] ^= 1;
    std::fs::write(&flipped, &b).unwrap();
    lshscope()
        .args(["index", "info"])
        .arg(&flipped)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("flipped.lshidx").and(predicate::str::contains("checksum")),
        );

    let cut = dir.path().join("cut.lshidx");
    std::fs::write(&cut, &bytes[..30]).unwrap();
    lshscope()
        .args(["index", "query"])
        .arg(&cut)
        .arg("hello")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cut.lshidx"));

    lshscope()
        .args(["index", "add"])
        .arg(dir.path().join("docs.csv"))
        .arg(dir.path().join("docs.csv"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not an lshscope index file"));
    // An add whose input is bad fails and leaves the index as it was.
    let bad = write(
        dir.path(),
        "bad.csv",
        "id,text\nx,\"an open quote\ny,more\n",
    );
    lshscope()
        .args(["index", "add"])
        .arg(&index)
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.csv"));
    assert_eq!(std::fs::read(&index).unwrap(), bytes);
}

/// A query argument that looks like a file name but names none (a typo) is looked up as a
/// text, with a warning naming it; `--text` says a text is meant and silences it.
#[test]
fn a_missing_file_name_is_looked_up_as_text_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    let typo = dir.path().join("dcos.csv");
    let out = lshscope()
        .args(["index", "query"])
        .arg(&index)
        .arg(&typo)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("warning: no file `{}`", typo.display()))
            && stderr.contains("--text"),
        "{stderr}"
    );
    for (query, extra) in [
        ("notes.txt", &["--text"][..]),
        ("for this and/or that", &[][..]),
        ("a plain text to look up", &[][..]),
    ] {
        lshscope()
            .args(["index", "query"])
            .arg(&index)
            .arg(query)
            .args(extra)
            .assert()
            .success()
            .stderr(predicate::str::is_empty());
    }
    // --text looks up the argument itself even when a file has that name.
    let queries = write(dir.path(), "q.csv", MORE);
    let out = lshscope()
        .args(["index", "query", "--text"])
        .arg(&index)
        .arg(&queries)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "only the header: {text}");
    // Options for reading a file do not apply to a text.
    lshscope()
        .args(["index", "query", "--text", "--sample", "2"])
        .arg(&index)
        .arg("some text")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--text looks it up as a text"));
}

/// `--sample` of a query file and of `add` is reproducible with `--seed`.
/// Adding a batch whose ids the index already holds (the same batch twice) is refused, the
/// file left byte for byte as it was; `--skip-existing` adds the new ids only and says how many
/// it skipped, and a query then returns each id once.
#[test]
fn adding_ids_already_indexed_is_refused_unless_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    let more = write(dir.path(), "more.csv", MORE);
    lshscope()
        .args(["index", "add", "-q"])
        .arg(&index)
        .arg(&more)
        .assert()
        .success();
    let before = std::fs::read(&index).unwrap();
    lshscope()
        .args(["index", "add"])
        .arg(&index)
        .arg(&more)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: 2 documents have an id already in {} (first: e on line 2, f on line 3); \
             nothing was added, the index is unchanged: pass --skip-existing to add only the new \
             ids, or give these documents other ids",
            more.display(),
            index.display()
        )));
    assert_eq!(std::fs::read(&index).unwrap(), before);

    // Two old ids (one on a line after a blank one) and a new one: only the new one is added.
    let mixed = write(
        dir.path(),
        "mixed.csv",
        "id,text\na,the quick brown fox\n\ng,a new document about gardens\ne,again\n",
    );
    lshscope()
        .args(["index", "add"])
        .arg(&index)
        .arg(&mixed)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "2 documents have an id already in",
        ))
        .stderr(predicate::str::contains(
            "(first: a on line 2, e on line 5)",
        ));
    assert_eq!(std::fs::read(&index).unwrap(), before);
    lshscope()
        .args(["index", "add", "--skip-existing"])
        .arg(&index)
        .arg(&mixed)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "added 1 document to {} (6 before); skipped 2 whose id is already in it",
            index.display()
        )));
    let rows = query(
        &index,
        "the quick brown fox jumps over the lazy dog near the river bend",
    );
    let ids: Vec<&str> = rows[1..].iter().map(|r| r[1].as_str()).collect();
    let mut once = ids.clone();
    once.sort_unstable();
    once.dedup();
    assert_eq!(ids.len(), once.len(), "{ids:?}");
    assert!(
        query(&index, "a new document about gardens")[1..]
            .iter()
            .any(|r| r[1] == "g")
    );

    // Nothing new: nothing added, and the file is not rewritten.
    let after = std::fs::read(&index).unwrap();
    lshscope()
        .args(["index", "add", "--skip-existing"])
        .arg(&index)
        .arg(&more)
        .assert()
        .success()
        .stderr(predicate::str::contains("added 0 documents to"))
        .stderr(predicate::str::contains("(7 before); skipped 2 whose"));
    assert_eq!(std::fs::read(&index).unwrap(), after);
}

#[test]
fn query_and_add_samples_take_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    let docs = dir.path().join("docs.csv");
    let sampled = |seed: &str| {
        let out = lshscope()
            .args(["index", "query", "--sample", "2", "--seed", seed, "-t", "1"])
            .arg(&index)
            .arg(&docs)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(sampled("7"), sampled("7"));
    let more = write(dir.path(), "more.csv", MORE);
    lshscope()
        .args(["index", "add", "--sample", "1", "--seed", "3"])
        .arg(&index)
        .arg(&more)
        .assert()
        .success()
        .stderr(predicate::str::contains("added 1 document to"));
}

#[test]
fn info_names_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let docs = write(dir.path(), "docs.csv", DOCS);
    let index = dir.path().join("dt.lshidx");
    lshscope()
        .args(["index", "build", "-q", "--profile", "datatrove", "-o"])
        .arg(&index)
        .arg(&docs)
        .assert()
        .success();
    lshscope()
        .args(["index", "info"])
        .arg(&index)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("4 documents")
                .and(predicate::str::contains("word:5 as datatrove makes them"))
                .and(predicate::str::contains("--profile datatrove"))
                .and(predicate::str::contains("lowercased").not()),
        );
    // lshscope's own shingling lists its flags.
    let own = build(dir.path());
    lshscope()
        .args(["index", "info"])
        .arg(&own)
        .assert()
        .success()
        .stdout(predicate::str::contains("shingles char:5, lowercased,"));
}

/// Out-of-range numbers get the range check's own message, not clap's `unexpected argument`.
#[test]
fn negative_thresholds_and_zero_permutations_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path());
    lshscope()
        .args(["index", "query", "-t", "-0.1"])
        .arg(&index)
        .arg("text")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--threshold must be in [0, 1], got -0.1",
        ));
    lshscope()
        .args(["index", "build", "-k", "0", "-o"])
        .arg(dir.path().join("k0.lshidx"))
        .arg(dir.path().join("docs.csv"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--num-perm must be at least 1"));
}
