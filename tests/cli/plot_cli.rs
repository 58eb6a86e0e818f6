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
            precision: Vec::new(),
            measured: Vec::new(),
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

#[test]
fn big_counts_read_compact_on_the_count_axis() {
    // Bin counts of a 1 M-document corpus run to 9 digits; the explorer's export draws through
    // the same write_histogram.
    let mut bins = histogram_bins(&[], 50);
    for (i, bin) in bins.iter_mut().enumerate() {
        bin.count = 123_456_789 / (i as u64 + 1);
    }
    let dir = tempfile::tempdir().unwrap();
    for log_counts in [false, true] {
        let plot = HistogramPlot {
            bins: bins.clone(),
            curve: Some(CurveSpec { bands: 20, rows: 5 }),
            threshold: Some(0.8),
            log_counts,
            estimated: None,
            precision: Vec::new(),
            measured: Vec::new(),
            width: 1200,
            height: 800,
        };
        let svg = dir.path().join(format!("big_{log_counts}.svg"));
        write_histogram(&svg, &plot).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        let tick = if log_counts { "100.0 M" } else { "120.0 M" };
        assert!(text.contains(tick), "no `{tick}` tick in {}", svg.display());
        assert!(!text.contains("100000000"), "a 9-digit tick label");
        let png = dir.path().join(format!("big_{log_counts}.png"));
        write_histogram(&png, &plot).unwrap();
        assert_eq!(png_size(&png), (1200, 800));
    }
}

/// A pairs file as `scan -t 0.8` writes it: no pair below 0.8.
fn thresholded_pairs(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("pairs_t08.csv");
    let mut text = String::from("id_a,id_b,jaccard,estimate,bands_hit\n");
    for (i, j) in [0.8013, 0.82, 0.85, 0.9, 0.93, 1.0].iter().enumerate() {
        text += &format!("doc{i},doc{},{j},{j},3\n", i + 100);
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn thresholded_pairs_file_is_pointed_out() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = thresholded_pairs(dir.path());
    let svg = dir.path().join("hist.svg");
    lshscope()
        .args(["plot", "histogram", "--pairs"])
        .arg(&pairs)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "looks thresholded at about 0.8 (its lowest Jaccard is 0.8013)",
        ))
        .stderr(predicate::str::contains(
            "the histogram shows only the pairs at or above it",
        ))
        .stderr(predicate::str::contains("scan -t 0"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("only pairs ≥ 0.8013"), "no mark in the title");
    assert!(text.contains("no pair below 0.8013 in the pairs file"));
    assert!(text.contains("scan -t 0"));

    // A scan at threshold 0 (its lowest Jaccard is 0.0612): nothing to point out.
    let svg = dir.path().join("full.svg");
    lshscope()
        .args(["plot", "histogram", "--pairs", PAIRS, "-o"])
        .arg(&svg)
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(!text.contains("only pairs ≥"));
    assert!(!text.contains("scan -t 0"));
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
    fails_without_file(
        &["scurve", "-b", "0", "-r", "5"],
        "c.svg",
        "--bands (-b) must be at least 1, got 0",
    );
    fails_without_file(
        &["histogram", "--pairs", PAIRS, "-b", "20", "-r", "0"],
        "h.svg",
        "--rows (-r) must be at least 1, got 0",
    );
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

/// The S-curve figure of three curves as PNG: antialiased (its edges blend into the white:
/// many grey levels, where plotters' bitmap backend drew only the palette's colours and text)
/// and small (513 kB before rasterizing the SVG; the bound leaves room for a busier figure).
#[test]
fn scurve_png_is_antialiased_and_small() {
    let dir = tempfile::tempdir().unwrap();
    let plot = ScurvePlot {
        curves: vec![
            CurveSpec { bands: 20, rows: 5 },
            CurveSpec { bands: 16, rows: 8 },
            CurveSpec { bands: 5, rows: 25 },
        ],
        threshold: Some(0.5),
        num_perm: Some(128),
        width: 1200,
        height: 800,
    };
    let svg = dir.path().join("curves.svg");
    let png = dir.path().join("curves.png");
    let started = std::time::Instant::now();
    write_scurve(&svg, &plot).unwrap();
    let svg_time = started.elapsed();
    let started = std::time::Instant::now();
    write_scurve(&png, &plot).unwrap();
    let png_time = started.elapsed();
    let bytes = std::fs::metadata(&png).unwrap().len();
    eprintln!("SVG in {svg_time:?}; PNG of {bytes} bytes in {png_time:?}");
    assert!(bytes <= 200_000, "{bytes} bytes");

    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1200, 800));
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks_exact(3).collect();
    // Antialiasing blends the first curve's blue (0x0072B2) with the white along its edges:
    // pixels between the two, w·white + (1 − w)·blue for some 0 < w < 1: 1,337 in this
    // figure, against 138 (where grid lines cross the curve) when plotters drew it aliased.
    let blend_of_blue = |p: &[u8]| {
        let w = p[0] as f64 / 255.0;
        let expect = |c: f64| w * 255.0 + (1.0 - w) * c;
        (10..=245).contains(&p[0])
            && (p[1] as f64 - expect(114.0)).abs() <= 3.0
            && (p[2] as f64 - expect(178.0)).abs() <= 3.0
    };
    let blended = pixels.iter().filter(|p| blend_of_blue(p)).count();
    assert!(
        blended > 500,
        "{blended} pixels blend the curve into the white"
    );
    assert!(pixels.contains(&&[0x00, 0x72, 0xB2][..]), "no curve colour");
}
