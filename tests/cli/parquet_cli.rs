//! `lshscope scan` on Parquet input through the real binary, on a file written by pyarrow
//! (`tests/data/notes.parquet`, made by `tests/data/make_parquet_fixture.py`): the six notes
//! of the other fixtures, in which notes 2 and 5 are near duplicates, plus a seventh row whose
//! text is null; three row groups, snappy, the text stored as `large_string`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn lshscope() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("lshscope")
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/notes.parquet")
}

/// Runs `scan -q --summary-json` with `args`, returns the `(id_a, id_b)` pairs and the
/// summary's `read` object.
fn scan(
    input: &Path,
    args: &[&str],
    stdin: Option<Vec<u8>>,
) -> (Vec<(String, String)>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.json");
    let mut cmd = lshscope();
    cmd.arg("scan")
        .arg(input)
        .arg("-q")
        .arg("--summary-json")
        .arg(&summary)
        .args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes);
    }
    let out = cmd.assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("id_a,id_b,jaccard,estimate,bands_hit"));
    let pairs = lines
        .map(|l| {
            let mut f = l.split(',');
            (f.next().unwrap().to_string(), f.next().unwrap().to_string())
        })
        .collect();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    (pairs, json["read"].clone())
}

fn pair(a: &str, b: &str) -> Vec<(String, String)> {
    vec![(a.to_string(), b.to_string())]
}

#[test]
fn scan_reads_a_pyarrow_parquet_file_by_its_extension() {
    let (pairs, read) = scan(&fixture(), &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["format"], "parquet");
    assert_eq!(read["documents"], 7);
    assert_eq!(read["empty"], 1, "the null text is an empty document");
}

#[test]
fn id_column_may_be_an_integer_column() {
    let (pairs, _) = scan(&fixture(), &["--id-column", "number"], None);
    assert_eq!(pairs, pair("102", "105"));
    let (pairs, _) = scan(
        &fixture(),
        &["--id-column", "3", "--text-column", "4"],
        None,
    );
    assert_eq!(pairs, pair("102", "105"));
}

#[test]
fn stdin_is_read_as_parquet_when_told() {
    let bytes = std::fs::read(fixture()).unwrap();
    let (pairs, read) = scan(Path::new("-"), &["--format", "parquet"], Some(bytes));
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["documents"], 7);
}

#[test]
fn limit_stops_inside_the_row_groups() {
    let (pairs, read) = scan(&fixture(), &["--limit", "4"], None);
    assert!(pairs.is_empty(), "note 5 is beyond the limit: {pairs:?}");
    assert_eq!(read["documents"], 4);
}

#[test]
fn missing_column_lists_the_columns_and_exits_2() {
    let out = lshscope()
        .arg("scan")
        .arg(fixture())
        .args(["-q", "--text-column", "body"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("notes.parquet"), "{stderr}");
    assert!(
        stderr.contains("no column named `body`; columns are: id (string), title (string), number (int64), text (string)"),
        "{stderr}"
    );
}

#[test]
fn a_text_file_named_parquet_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.parquet");
    std::fs::write(&fake, "id,text\n1,hello\n").unwrap();
    let out = lshscope().arg("scan").arg(&fake).arg("-q").assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("not a Parquet file"), "{stderr}");
}

/// `bad/corrupt_page.parquet` is the fixture with a few bytes changed (a random mutation that
/// makes the `parquet` crate's page decoder panic): one clear error line and exit 2, no panic
/// message or backtrace.
#[test]
fn a_corrupt_page_is_one_clear_error() {
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad/corrupt_page.parquet");
    let out = lshscope()
        .arg("scan")
        .arg(&bad)
        .arg("-q")
        .env("RUST_BACKTRACE", "1")
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("corrupt_page.parquet: not a readable Parquet file"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Hugging Face exports are often named without an extension (`train-00000-of-00001`): the
/// `PAR1` magic picks the reader; a compressed Parquet file or a quote option is refused.
#[test]
fn parquet_is_recognised_by_its_magic_and_refuses_options_it_has_no_use_for() {
    let dir = tempfile::tempdir().unwrap();
    let unnamed = dir.path().join("train-00000-of-00001");
    std::fs::copy(fixture(), &unnamed).unwrap();
    let (pairs, read) = scan(&unnamed, &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["format"], "parquet");

    lshscope()
        .arg("scan")
        .arg(fixture())
        .args(["--quote", "none"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--quote"));

    let gz = dir.path().join("notes.parquet.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, &std::fs::read(fixture()).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    lshscope()
        .arg("scan")
        .arg(&gz)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("decompress"));
}
