//! `lshscope plot` and the `plot` library API: files are written, decode as SVG/PNG of the
//! requested size, and bad arguments fail with exit code 2 and no file.

use std::path::Path;

use assert_cmd::Command;
use lshscope::plot::{
    CurveSpec, HistogramPlot, ScurvePlot, histogram_bins, write_histogram, write_scurve,
};
use predicates::prelude::*;

const PAIRS: &str = "tests/data/math/pairs.csv";

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

/// Width and height of a PNG, from its header, after decoding every pixel row.
fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    // Not a blank image: some pixels are not white.
    assert!(buf[..info.buffer_size()].iter().any(|&b| b < 200));
    (info.width, info.height)
}

/// Width and height attributes of the root `<svg>` element.
fn svg_size(path: &Path) -> (u32, u32) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.trim_end().ends_with("</svg>"), "unterminated SVG");
    let start = text.find("<svg").expect("no <svg> element");
    let tag = &text[start..start + text[start..].find('>').unwrap()];
    let attr = |name: &str| -> u32 {
        let key = format!(" {name}=\"");
        let at = tag.find(&key).unwrap() + key.len();
        tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
    };
    (attr("width"), attr("height"))
}

#[test]
fn scurve_svg_and_png_have_the_requested_size() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("curve.svg");
    lshscope()
        .args(["plot", "scurve", "--bands", "42", "--rows", "3"])
        .args([
            "--compare",
            "16x8,5x25",
            "--threshold",
            "0.5",
            "--num-perm",
            "128",
        ])
        .arg("--output")
        .arg(&svg)
        .assert()
        .success();
    assert_eq!(svg_size(&svg), (1200, 800));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("42 × 3 (126 hashes): steepest at 0.252"));
    assert!(text.contains("threshold t = 0.5"));
    assert!(text.contains("Jaccard similarity"));

    let png = dir.path().join("curve.PNG");
    lshscope()
        .args([
            "plot", "scurve", "-b", "20", "-r", "5", "--width", "900", "--height", "600",
        ])
        .arg("--output")
        .arg(&png)
        .assert()
        .success();
    assert_eq!(png_size(&png), (900, 600));
}

#[test]
fn histogram_svg_and_png_with_every_flag() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("hist.png");
    lshscope()
        .args([
            "plot",
            "histogram",
            "--pairs",
            PAIRS,
            "--bands",
            "20",
            "--rows",
            "5",
        ])
        .args(["--threshold", "0.8", "--log", "--bins", "20"])
        .arg("--output")
        .arg(&png)
        .assert()
        .success();
    assert_eq!(png_size(&png), (1200, 800));

    let svg = dir.path().join("hist.svg");
    lshscope()
        .args([
            "plot",
            "histogram",
            "--pairs",
            PAIRS,
            "--width",
            "1000",
            "--height",
            "700",
        ])
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    assert_eq!(svg_size(&svg), (1000, 700));
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("40 pairs in all")
    );
}

#[test]
fn library_api_writes_plain_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.png");
    write_scurve(
        &path,
        &ScurvePlot {
            curves: vec![CurveSpec { bands: 9, rows: 13 }],
            threshold: Some(0.8),
            num_perm: Some(128),
            width: 640,
            height: 480,
        },
    )
    .unwrap();
    assert_eq!(png_size(&path), (640, 480));
    let bins = histogram_bins(&[0.1, 0.12, 0.8, 0.95], 10);
    let path = dir.path().join("api.svg");
    write_histogram(
        &path,
        &HistogramPlot {
            bins,
            curve: Some(CurveSpec { bands: 9, rows: 13 }),
            threshold: None,
            log_counts: false,
            estimated: None,
            width: 800,
            height: 500,
        },
    )
    .unwrap();
    assert_eq!(svg_size(&path), (800, 500));
    // No curves: an error, not an empty picture.
    let empty = ScurvePlot {
        curves: vec![],
        threshold: None,
        num_perm: None,
        width: 800,
        height: 600,
    };
    assert!(write_scurve(&dir.path().join("none.svg"), &empty).is_err());
}

fn fails_without_file(args: &[&str], output: &str, needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(output);
    lshscope()
        .arg("plot")
        .args(args)
        .arg("--output")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(needle));
    assert!(!path.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "leftover files"
    );
}

#[test]
fn bad_arguments_fail_with_clear_errors() {
    let scurve = ["scurve", "--bands", "42", "--rows", "3"];
    fails_without_file(
        &scurve,
        "curve.jpg",
        "the extension `.jpg`: name the file .svg or .png",
    );
    fails_without_file(&scurve, "curve", "without extension");
    fails_without_file(
        &["scurve", "-b", "42", "-r", "4", "--num-perm", "128"],
        "c.svg",
        "needs 168 permutations but --num-perm is 128",
    );
    fails_without_file(
        &[
            "scurve",
            "-b",
            "20",
            "-r",
            "5",
            "--compare",
            "16x8,40x4",
            "-k",
            "128",
        ],
        "c.svg",
        "40 bands × 4 rows needs 160 permutations",
    );
    fails_without_file(
        &["scurve", "-b", "20", "-r", "5", "--threshold", "1.2"],
        "c.svg",
        "--threshold must be in [0, 1]",
    );
    fails_without_file(&["scurve", "-b", "0", "-r", "5"], "c.svg", "at least 1");
    fails_without_file(
        &["scurve", "-b", "20", "-r", "5", "--compare", "16"],
        "c.svg",
        "BANDSxROWS",
    );
    fails_without_file(
        &["scurve", "-b", "20", "-r", "5", "--width", "10"],
        "c.svg",
        "out of range",
    );
    fails_without_file(
        &["histogram", "--pairs", "tests/data/math/none.csv"],
        "h.svg",
        "none.csv",
    );
    fails_without_file(
        &[
            "histogram",
            "--pairs",
            "tests/data/math/similarities_bad.txt",
        ],
        "h.svg",
        "no `jaccard` column",
    );
    fails_without_file(
        &["histogram", "--pairs", PAIRS, "--bins", "0"],
        "h.svg",
        "--bins",
    );
    fails_without_file(
        &["histogram", "--pairs", PAIRS, "--bands", "20"],
        "h.svg",
        "--rows",
    );
    fails_without_file(&["histogram", "--pairs", PAIRS], "h.gif", "`.gif`");
}
