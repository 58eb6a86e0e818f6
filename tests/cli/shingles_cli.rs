//! `lshscope shingles`: the advisor's figures against a brute-force count on a small corpus,
//! its recommendation rule, its errors; and the warning `scan` gives when random pairs are
//! similar enough to make a large share of all pairs candidates.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use assert_cmd::Command;

const WORDS: &[&str] = &[
    "kettle", "harbor", "violet", "gravel", "lantern", "orchard", "pepper", "saddle", "thunder",
    "walnut", "basket", "candle", "ferry", "glacier", "hammock", "island", "jigsaw", "kayak",
    "ladder", "meadow", "needle", "oyster", "parcel", "quiver", "ribbon", "spruce", "tunnel",
    "umbrella", "velvet", "whistle", "yonder", "zephyr", "anchor", "bramble", "copper", "dune",
    "ember", "falcon", "granite", "hazel", "ivory", "juniper", "kernel", "lemon", "marble",
    "nectar", "olive", "pebble", "quartz", "raven",
];

/// A deterministic corpus of `n` documents of 8 to 19 words; every fifth document repeats the
/// one before it with one word replaced, so some pairs are near-duplicates.
fn corpus(n: usize) -> Vec<String> {
    let mut state: u64 = 0x5eed;
    let mut next = move |m: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % m as u64) as usize
    };
    let mut docs: Vec<String> = Vec::with_capacity(n);
    for i in 0..n {
        if i % 5 == 4 {
            let mut words: Vec<&str> = docs[i - 1].split(' ').collect();
            let at = next(words.len());
            words[at] = WORDS[next(WORDS.len())];
            docs.push(words.join(" "));
        } else {
            let len = 8 + next(12);
            let words: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
            docs.push(words.join(" "));
        }
    }
    docs
}

/// The shingles of a normalized text, by their text: char k-grams or word n-grams; a text
/// shorter than one shingle is one shingle.
fn shingles(text: &str, unit: &str, size: usize) -> BTreeSet<String> {
    let pieces: Vec<String> = match unit {
        "char" => text.chars().map(String::from).collect(),
        _ => text.split(' ').map(String::from).collect(),
    };
    let glue = if unit == "char" { "" } else { " " };
    if pieces.len() <= size {
        return BTreeSet::from([pieces.join(glue)]);
    }
    pieces.windows(size).map(|w| w.join(glue)).collect()
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let inter = a.intersection(b).count();
    inter as f64 / (a.len() + b.len() - inter) as f64
}

fn write_corpus(docs: &[String]) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    for d in docs {
        writeln!(file, "{d}").unwrap();
    }
    file.flush().unwrap();
    file
}

fn advisor_json(path: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .arg("shingles")
        .arg(path)
        .args(["--output-format", "json", "-q"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn figures_match_brute_force_on_every_pair() {
    let docs = corpus(200);
    let file = write_corpus(&docs);
    // 200 documents have 19,900 pairs: asking for more measures every one of them, so the
    // brute force needs no sampling.
    let json = advisor_json(file.path(), &["--pairs", "20000"]);
    assert_eq!(json["documents"], 200);
    assert_eq!(json["pairs"], 19_900);
    let sizes = json["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 13);
    // Pairs at Jaccard 0.5 or more at char:9 are related and left out of every size's figures.
    let nine: Vec<BTreeSet<String>> = docs.iter().map(|d| shingles(d, "char", 9)).collect();
    let unrelated = |a: usize, b: usize| jaccard(&nine[a], &nine[b]) < 0.5;
    let related = (0..200)
        .flat_map(|a| (a + 1..200).map(move |b| (a, b)))
        .filter(|&(a, b)| !unrelated(a, b))
        .count();
    assert!(related > 0, "the corpus has related pairs to leave out");
    assert_eq!(json["related_pairs"], related);
    let kinds: Vec<(&str, usize)> = (2..=9)
        .map(|k| ("char", k))
        .chain((1..=5).map(|n| ("word", n)))
        .collect();
    for (row, &(unit, size)) in sizes.iter().zip(&kinds) {
        let name = format!("{unit}:{size}");
        assert_eq!(row["shingle"], name.as_str());
        let sets: Vec<BTreeSet<String>> = docs.iter().map(|d| shingles(d, unit, size)).collect();
        let mut doc_freq: BTreeMap<&String, usize> = BTreeMap::new();
        for set in &sets {
            for s in set {
                *doc_freq.entry(s).or_default() += 1;
            }
        }
        let distinct = doc_freq.len();
        // "More than 1 % of 200 documents" is 3 documents or more.
        let common = doc_freq.values().filter(|&&df| df >= 3).count();
        let mean_per_doc = sets.iter().map(BTreeSet::len).sum::<usize>() as f64 / 200.0;
        let mut similarities = Vec::new();
        for a in 0..sets.len() {
            for b in a + 1..sets.len() {
                if unrelated(a, b) {
                    similarities.push(jaccard(&sets[a], &sets[b]));
                }
            }
        }
        let mean = similarities.iter().sum::<f64>() / similarities.len() as f64;
        similarities.sort_by(f64::total_cmp);
        // Nearest rank: the ⌈0.99 · n⌉-th smallest.
        let rank = (0.99 * similarities.len() as f64).ceil() as usize;
        let p99 = similarities[rank - 1];
        let close = |key: &str, want: f64| {
            let got = row[key].as_f64().unwrap();
            assert!((got - want).abs() < 1e-12, "{name} {key}: {got} vs {want}");
        };
        assert_eq!(row["distinct"], distinct, "{name}");
        close("mean_per_doc", mean_per_doc);
        close("common_share", common as f64 / distinct as f64);
        close("mean_jaccard", mean);
        close("p99_jaccard", p99);
    }
}

#[test]
fn recommends_the_smallest_char_size_whose_random_pairs_stay_unrelated() {
    let file = write_corpus(&corpus(300));
    let json = advisor_json(file.path(), &[]);
    let sizes = json["sizes"].as_array().unwrap();
    let first_unrelated = sizes
        .iter()
        .filter(|r| r["shingle"].as_str().unwrap().starts_with("char:"))
        .find(|r| r["p99_jaccard"].as_f64().unwrap() <= 0.10)
        .expect("long random word strings separate at some char size");
    assert_eq!(json["recommended"], first_unrelated["shingle"]);
    // char:2 over a 26-letter alphabet: random documents share most bigrams.
    assert!(sizes[0]["p99_jaccard"].as_f64().unwrap() > 0.10);
    assert_ne!(json["recommended"], "char:2");
    let reason = json["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(first_unrelated["shingle"].as_str().unwrap()),
        "{reason}"
    );
}

#[test]
fn the_same_seed_gives_the_same_figures_and_samples_are_reproducible() {
    let file = write_corpus(&corpus(400));
    let args = ["--pairs", "500", "--max-docs", "250", "--seed", "9"];
    let a = advisor_json(file.path(), &args);
    let b = advisor_json(file.path(), &args);
    assert_eq!(a, b);
    assert_eq!(a["documents"], 250);
    assert_eq!(a["read"]["rows_read"], 400);
    let c = advisor_json(
        file.path(),
        &["--pairs", "500", "--max-docs", "250", "--seed", "10"],
    );
    assert_ne!(a["sizes"], c["sizes"]);
}

#[test]
fn table_marks_the_recommendation_and_csv_has_one_row_per_size() {
    let file = write_corpus(&corpus(120));
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .args(["shingles", "-q"])
        .arg(file.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("120 documents with text"), "{table}");
    let marked: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("◀ recommended"))
        .collect();
    assert_eq!(marked.len(), 1, "{table}");
    assert!(table.contains("recommended: --shingle char:"), "{table}");

    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .args(["shingles", "-q", "--output-format", "csv"])
        .arg(file.path())
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "shingle,distinct,mean_per_doc,common_share,mean_jaccard,p99_jaccard,recommended"
    );
    assert_eq!(lines.len(), 14);
    assert_eq!(lines.iter().filter(|l| l.ends_with(",true")).count(), 1);
}

#[test]
fn refuses_a_corpus_of_one_document_naming_the_file() {
    let file = write_corpus(&["only one question here".to_string()]);
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .arg("shingles")
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&file.path().display().to_string()), "{err}");
    assert!(err.contains("at least 2 documents"), "{err}");
}

fn scan_stderr(path: &std::path::Path, extra: &[&str]) -> String {
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .arg("scan")
        .arg(path)
        .args(["-o", "-"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn scan_warns_when_single_characters_make_every_pair_a_candidate() {
    let file = write_corpus(&corpus(100));
    let err = scan_stderr(file.path(), &["--shingle", "char:1"]);
    let warning = err
        .lines()
        .find(|l| l.starts_with("warning: random pairs are similar under char:1"))
        .unwrap_or_else(|| panic!("no warning in:\n{err}"));
    assert!(warning.contains("20 bands × 5 rows"), "{warning}");
    assert!(warning.contains("of all 4,950 pairs"), "{warning}");
    // The default shingles keep random pairs apart: no warning, although a fifth of the
    // documents have a near-duplicate.
    let err = scan_stderr(file.path(), &[]);
    assert!(!err.contains("warning:"), "{err}");
    // --quiet silences it.
    assert_eq!(scan_stderr(file.path(), &["--shingle", "char:1", "-q"]), "");
}

#[test]
fn explorer_notice_fits_an_80_column_status_line() {
    use lshscope_core::analysis::shingle_advice::candidate_share_notice;
    use lshscope_core::corpus::Corpus;
    use lshscope_core::jobs::Progress;
    use lshscope_core::minhash::{Banding, IndexOptions, build_index};
    use lshscope_core::text::{ShingleKind, ShingleOptions};

    let corpus = Corpus::from_texts(corpus(60));
    let index_with = |kind| {
        let options = IndexOptions {
            shingle: ShingleOptions {
                kind,
                ..ShingleOptions::default()
            },
            num_perm: 128,
            seed: 1,
            ..IndexOptions::default()
        };
        build_index(&corpus, &options, &Progress::new()).unwrap()
    };
    let banding = Banding { bands: 20, rows: 5 };
    let notice = candidate_share_notice(&index_with(ShingleKind::Char(1)), banding).unwrap();
    assert!(notice.starts_with("warning: char:1 makes ~"), "{notice}");
    assert!(notice.chars().count() <= 80, "{notice}");
    assert_eq!(
        candidate_share_notice(&index_with(ShingleKind::Char(5)), banding),
        None
    );
}

/// In a corpus of large template families a few percent of random pairs are near copies: left
/// in, they alone set the 99th percentile at every size and the advisor recommended word:5,
/// which makes the same near copies look far less alike. Left out, the texts' own grain shows.
#[test]
fn near_copies_among_random_pairs_do_not_steer_the_advice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("templates.csv");
    Command::cargo_bin("lshscope")
        .unwrap()
        .args([
            "gen",
            "--kind",
            "templates",
            "-n",
            "3000",
            "--seed",
            "1",
            "-q",
            "-o",
        ])
        .arg(&path)
        .assert()
        .success();
    let json = advisor_json(&path, &[]);
    let related = json["related_pairs"].as_u64().unwrap();
    let pairs = json["pairs"].as_u64().unwrap();
    assert!(
        related * 100 > 2 * pairs,
        "more than 2 % of random pairs are near copies here ({related} of {pairs})"
    );
    assert_eq!(json["recommended"], "char:5");
}
