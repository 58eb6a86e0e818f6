//! One truth file, one answer: `scan --truth`, `tune --truth` and the explorer take the same
//! floor from it and report the same recall at the same banding and threshold.

use crate::tui_support;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use lshscope::tui::app::Action;
use lshscope_core::analysis::recall::truth_floor;
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

/// The explorer's fixture documents as a CSV corpus for the command line.
fn fixture_csv(dir: &Path) -> PathBuf {
    let mut csv = String::from("id,text\n");
    for (id, text) in DOCS {
        csv.push_str(&format!("{id},\"{text}\"\n"));
    }
    let path = dir.join("fixture.csv");
    std::fs::write(&path, csv).unwrap();
    path
}

/// The exact truth of the fixture at J ≥ 0.3, written by `lshscope truth`.
fn truth_file(dir: &Path, corpus: &Path) -> PathBuf {
    let path = dir.join("truth.csv");
    lshscope()
        .args(["truth", corpus.to_str().unwrap(), "-t", "0.3", "-q", "-o"])
        .arg(&path)
        .assert()
        .success();
    path
}

/// `scan --truth` with the explorer fixture's banding (16 × 4, K = 128); the summary's truth
/// report.
fn scan_report(dir: &Path, corpus: &Path, truth: &Path, threshold: &str) -> serde_json::Value {
    let summary = dir.join(format!("summary-{threshold}.json"));
    lshscope()
        .args([
            "scan",
            corpus.to_str().unwrap(),
            "-b",
            "16",
            "-r",
            "4",
            "-t",
            threshold,
        ])
        .args([
            "-q",
            "-o",
            dir.join("pairs.csv").to_str().unwrap(),
            "--truth",
        ])
        .arg(truth)
        .arg("--summary-json")
        .arg(&summary)
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(summary).unwrap()).unwrap();
    json["truth"]["report"].clone()
}

/// The explorer on the same documents, reading the same truth file after loading.
fn explorer_with_truth(dir: &Path, truth: &Path) -> lshscope::tui::app::App {
    let inputs = Inputs {
        truth: Some(truth.to_path_buf()),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config(dir), dir, SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    assert!(app.truth().truth().is_some(), "the truth file was read");
    app
}

fn floor_of(truth: &Path) -> f64 {
    let text = std::fs::read_to_string(truth).unwrap();
    truth_floor(
        text.lines()
            .skip(1)
            .map(|l| l.rsplit(',').next().unwrap().parse::<f64>().unwrap()),
    )
    .unwrap()
}

#[test]
fn the_same_truth_file_gives_the_same_floor_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = fixture_csv(dir.path());
    let truth = truth_file(dir.path(), &corpus);
    let floor = floor_of(&truth);
    assert!(
        floor > 0.3 && (floor * 100.0).fract() != 0.0,
        "an uneven floor: {floor}"
    );

    // scan: with -t 0, recall is measured at the floor.
    let report = scan_report(dir.path(), &corpus, &truth, "0");
    assert_eq!(report["threshold"].as_f64().unwrap(), floor);

    // The explorer: the same floor, to the last bit.
    let app = explorer_with_truth(dir.path(), &truth);
    assert_eq!(app.truth().truth().unwrap().floor, floor);

    // tune: below the floor, it says where the file stops being complete.
    let out = lshscope()
        .args(["tune", "-t", "0.3", "--format", "json", "--truth"])
        .arg(&truth)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("lowest Jaccard is {floor:.3}")),
        "{text}"
    );
}

#[test]
fn scan_and_the_explorer_report_the_same_recall() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = fixture_csv(dir.path());
    let truth = truth_file(dir.path(), &corpus);
    let app = explorer_with_truth(dir.path(), &truth);
    // The explorer's fixture opens at 16 × 4 and t = 0.5.
    let shown = &app.truth().measure().unwrap().report;
    assert_eq!(shown.threshold, 0.5);
    let cli = scan_report(dir.path(), &corpus, &truth, "0.5");
    assert_eq!(cli["threshold"].as_f64().unwrap(), shown.threshold);
    assert_eq!(cli["found_at_threshold"], shown.found_at_threshold);
    assert_eq!(cli["true_at_threshold"], shown.true_at_threshold);
    assert_eq!(cli["recall"].as_f64(), shown.recall);
    assert_eq!(cli["precision"].as_f64(), shown.precision);
    assert!(shown.true_at_threshold > 0);
    let bins: Vec<(u64, u64)> = cli["bins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["true_pairs"].as_u64().unwrap(),
                b["found"].as_u64().unwrap(),
            )
        })
        .collect();
    let shown_bins: Vec<(u64, u64)> = shown
        .bins
        .iter()
        .map(|b| (b.true_pairs as u64, b.found as u64))
        .collect();
    assert_eq!(bins, shown_bins);
}
