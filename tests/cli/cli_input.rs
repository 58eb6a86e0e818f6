//! `lshscope scan` input handling, driven through the real binary: every format, stdin,
//! compression, column and field options, limit and sample, and every bad-input case.
//!
//! The fixtures in `tests/data/` hold six short notes in which notes 2 and 5 are near
//! duplicates (one word differs, exact Jaccard of char-5 shingles 0.85), so a correct read
//! shows up as exactly one output pair carrying the ids the format should produce.

use std::io::Write;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn lshscope() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("lshscope")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The `(id_a, id_b)` columns of the pairs CSV that `scan` writes to stdout.
fn parse_pairs(stdout: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8(stdout.to_vec()).expect("utf-8 output");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("id_a,id_b,jaccard,estimate,bands_hit"),
        "header"
    );
    lines
        .map(|l| {
            let mut f = l.split(',');
            (f.next().unwrap().to_string(), f.next().unwrap().to_string())
        })
        .collect()
}

fn pair(a: &str, b: &str) -> Vec<(String, String)> {
    vec![(a.to_string(), b.to_string())]
}

/// Runs `scan INPUT -q ARGS`, expects success, returns the pairs.
fn scan_pairs(input: &Path, args: &[&str]) -> Vec<(String, String)> {
    let out = lshscope()
        .arg("scan")
        .arg(input)
        .arg("-q")
        .args(args)
        .assert()
        .success();
    parse_pairs(&out.get_output().stdout)
}

/// Runs `scan` with `--summary-json`, returns the pairs and the summary's `read` object.
fn scan_with_summary(
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
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    (parse_pairs(&out.get_output().stdout), json["read"].clone())
}

/// Runs `scan` expecting a user error; returns stderr.
fn scan_fails(input: &Path, args: &[&str]) -> String {
    let out = lshscope()
        .arg("scan")
        .arg(input)
        .arg("-q")
        .args(args)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty());
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Formats

#[test]
fn text_lines_use_line_numbers_as_ids() {
    let (pairs, read) = scan_with_summary(&data("notes.txt"), &[], None);
    assert_eq!(pairs, pair("2", "5"));
    assert_eq!(read["format"], "text");
    assert_eq!(read["documents"], 6);
    assert_eq!(read["skipped"], 0);
}

#[test]
fn csv_uses_id_and_text_columns_by_default() {
    let (pairs, read) = scan_with_summary(&data("notes.csv"), &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["format"], "csv");
    assert_eq!(read["documents"], 6);
}

#[test]
fn csv_columns_by_name_and_by_index() {
    // The title column makes no pair: only `password` / `password again` share a few shingles.
    let by_index = scan_pairs(
        &data("notes.csv"),
        &["--text-column", "3", "--id-column", "1"],
    );
    assert_eq!(by_index, pair("n2", "n5"));
    let by_name = scan_pairs(
        &data("notes.csv"),
        &["--text-column", "text", "--id-column", "title"],
    );
    assert_eq!(by_name, pair("password", "password again"));
}

#[test]
fn tsv_with_named_columns() {
    let pairs = scan_pairs(
        &data("notes.tsv"),
        &["--text-column", "body", "--id-column", "key"],
    );
    assert_eq!(pairs, pair("n2", "n5"));
    let pairs = scan_pairs(
        &data("notes.tsv"),
        &["--text-column", "2", "--id-column", "1"],
    );
    assert_eq!(pairs, pair("n2", "n5"));
}

#[test]
fn no_headers_reads_the_first_row_as_data() {
    // Without an id column the id is the data row number.
    let pairs = scan_pairs(
        &data("notes_noheader.csv"),
        &["--no-headers", "--text-column", "2"],
    );
    assert_eq!(pairs, pair("2", "5"));
    let (pairs, read) = scan_with_summary(
        &data("notes_noheader.csv"),
        &["--no-headers", "--text-column", "2", "--id-column", "1"],
        None,
    );
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["documents"], 6);
}

#[test]
fn jsonl_default_and_chosen_fields() {
    // The fixture has a blank line, which is skipped, not a document.
    let (pairs, read) = scan_with_summary(&data("notes.jsonl"), &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(
        (read["format"].clone(), read["documents"].clone()),
        ("jsonl".into(), 6.into())
    );
    // `body` is the upper-cased text: lowercasing makes it the same pair.
    let pairs = scan_pairs(
        &data("notes.jsonl"),
        &["--text-field", "body", "--id-field", "num"],
    );
    assert_eq!(pairs, pair("101", "104"));
}

#[test]
fn jsonl_without_ids_uses_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("noid.ndjson");
    let notes = std::fs::read_to_string(data("notes.txt")).unwrap();
    let mut out = String::new();
    for line in notes.lines() {
        out.push_str(&serde_json::json!({ "text": line }).to_string());
        out.push('\n');
    }
    std::fs::write(&path, out).unwrap();
    assert_eq!(scan_pairs(&path, &[]), pair("2", "5"));
}

#[test]
fn directory_files_are_documents_with_relative_path_ids() {
    let (pairs, read) = scan_with_summary(&data("notes_dir"), &[], None);
    assert_eq!(pairs, pair("b.md", "e.txt"));
    assert_eq!(read["format"], "dir");
    assert_eq!(read["documents"], 6);
}

#[test]
fn directory_recurses_and_decompresses() {
    let dir = tempfile::tempdir().unwrap();
    let notes = std::fs::read_to_string(data("notes.txt")).unwrap();
    let lines: Vec<&str> = notes.lines().collect();
    std::fs::create_dir_all(dir.path().join("deep/er")).unwrap();
    std::fs::write(
        dir.path().join("deep/er/two.txt.gz"),
        gzip(lines[1].as_bytes()),
    )
    .unwrap();
    std::fs::write(dir.path().join("five.zst"), zstd(lines[4].as_bytes())).unwrap();
    std::fs::write(dir.path().join("three.txt"), lines[2]).unwrap();
    let (pairs, read) = scan_with_summary(dir.path(), &[], None);
    // Sorted by relative path: deep/er/two.txt.gz, five.zst, three.txt.
    assert_eq!(pairs, pair("deep/er/two.txt.gz", "five.zst"));
    assert_eq!(read["documents"], 3);
}

#[test]
fn a_directory_of_csv_files_is_read_as_documents_with_a_warning() {
    // Shards of one CSV corpus given as a directory: each file is one document, as for any
    // directory, and the user is told so.
    let dir = tempfile::tempdir().unwrap();
    let notes = std::fs::read_to_string(data("notes.csv")).unwrap();
    std::fs::write(dir.path().join("part-1.csv"), &notes).unwrap();
    std::fs::write(dir.path().join("part-2.CSV.gz"), gzip(notes.as_bytes())).unwrap();
    std::fs::write(dir.path().join("readme.txt"), "shards of the notes").unwrap();
    let out = lshscope()
        .arg("scan")
        .arg(dir.path())
        .args(["-o", "-"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let warning = format!(
        "warning: {}: 2 of its 3 files are named as tables (first: part-1.csv); a directory is \
         read as one document per file, so each of them is one document, not one per row. To \
         read their rows, pass the files one at a time or join them into one file (one header \
         row)",
        dir.path().display()
    );
    assert!(err.contains(&warning), "{err}");
    let (pairs, read) = scan_with_summary(dir.path(), &[], None);
    assert_eq!(read["documents"], 3);
    assert_eq!(pairs, pair("part-1.csv", "part-2.CSV.gz"));

    // A directory of text files says nothing of the kind.
    let out = lshscope()
        .arg("scan")
        .arg(data("notes_dir"))
        .args(["-o", "-"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!err.contains("named as tables"), "{err}");
}

#[test]
fn strict_turns_what_would_be_a_warning_into_an_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("shard-7.csv");
    std::fs::write(&empty, "id,text\n").unwrap();
    let out = dir.path().join("kept.csv");
    // Without --strict an empty shard is a warning and well-formed (empty) outputs.
    lshscope()
        .args(["dedup", "-t", "0.8", "-q", "-o"])
        .arg(&out)
        .arg(&empty)
        .assert()
        .success();
    assert!(out.exists());
    std::fs::remove_file(&out).unwrap();
    // With it, a usage error naming the file and the flag, and no output file.
    lshscope()
        .args(["dedup", "-t", "0.8", "--strict", "-o"])
        .arg(&out)
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "error: no documents in {}: it holds only a header row; --strict stops here",
            empty.display()
        )));
    assert!(!out.exists());
    // Repeated ids, in the command line's words.
    let repeated = dir.path().join("repeated.csv");
    std::fs::write(&repeated, "id,text\nx,one two three\nx,one two four\n").unwrap();
    let err = scan_fails(&repeated, &["--strict"]);
    assert!(
        err.contains(&format!(
            "{}: 1 document repeats an earlier id (first: x); pairs name documents by id, so \
             make ids unique, choose another --id-column/--id-field, or name them by row number \
             with --row-ids; --strict stops here",
            repeated.display()
        )),
        "{err}"
    );
    // Where nothing names documents by id, repeated ids do not stop it.
    lshscope()
        .args(["tune", "-t", "0.8", "--strict", "--corpus"])
        .arg(&repeated)
        .assert()
        .success();
    // Ids added to an index that already holds them are refused with or without --strict,
    // the index unchanged (see index_cli.rs); --skip-existing is no warning to stop on.
    let index = dir.path().join("notes.lshidx");
    lshscope()
        .args(["index", "build", "-q", "-o"])
        .arg(&index)
        .arg(&repeated)
        .arg("--row-ids")
        .assert()
        .success();
    let before = std::fs::read(&index).unwrap();
    let again = dir.path().join("again.csv");
    std::fs::write(&again, "id,text\n1,one two five\n").unwrap();
    lshscope()
        .args(["index", "add", "--strict"])
        .arg(&index)
        .arg(&again)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1 document has an id already in"));
    assert_eq!(std::fs::read(&index).unwrap(), before);
    lshscope()
        .args(["index", "add", "--strict", "--skip-existing"])
        .arg(&index)
        .arg(&again)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "skipped 1 whose id is already in it",
        ));
    assert_eq!(std::fs::read(&index).unwrap(), before);
    // An input read without a warning is read the same with --strict.
    assert_eq!(
        scan_pairs(&data("notes.csv"), &["--strict"]),
        scan_pairs(&data("notes.csv"), &[])
    );
}

// ---------------------------------------------------------------------------------------------
// stdin and compression

#[test]
fn stdin_reads_text_unless_told_otherwise() {
    let text = std::fs::read(data("notes.txt")).unwrap();
    let (pairs, read) = scan_with_summary(Path::new("-"), &[], Some(text));
    assert_eq!(pairs, pair("2", "5"));
    assert_eq!(read["format"], "text");

    let csv = std::fs::read(data("notes.csv")).unwrap();
    let (pairs, read) = scan_with_summary(Path::new("-"), &["--format", "csv"], Some(csv));
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["format"], "csv");
}

#[test]
fn stdin_compressed_stream_is_detected_by_magic() {
    let jsonl = std::fs::read(data("notes.jsonl")).unwrap();
    let (pairs, read) =
        scan_with_summary(Path::new("-"), &["--format", "jsonl"], Some(gzip(&jsonl)));
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["compression"], "gzip");
    let text = std::fs::read(data("notes.txt")).unwrap();
    let (pairs, read) = scan_with_summary(Path::new("-"), &[], Some(zstd(&text)));
    assert_eq!(pairs, pair("2", "5"));
    assert_eq!(read["compression"], "zstd");
}

#[test]
fn gz_and_zst_files_are_decompressed_and_typed_by_inner_extension() {
    let dir = tempfile::tempdir().unwrap();
    let csv = std::fs::read(data("notes.csv")).unwrap();
    let gz = dir.path().join("notes.csv.gz");
    std::fs::write(&gz, gzip(&csv)).unwrap();
    let (pairs, read) = scan_with_summary(&gz, &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(
        (read["format"].clone(), read["compression"].clone()),
        ("csv".into(), "gzip".into())
    );
    assert_eq!(read["bytes"], csv.len());

    let jsonl = std::fs::read(data("notes.jsonl")).unwrap();
    let zst = dir.path().join("notes.jsonl.zst");
    std::fs::write(&zst, zstd(&jsonl)).unwrap();
    let (pairs, read) = scan_with_summary(&zst, &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(
        (read["format"].clone(), read["compression"].clone()),
        ("jsonl".into(), "zstd".into())
    );
}

// ---------------------------------------------------------------------------------------------
// limit and sample

#[test]
fn limit_takes_the_first_documents() {
    let (pairs, read) = scan_with_summary(&data("notes.csv"), &["--limit", "4"], None);
    assert!(pairs.is_empty(), "n5 is beyond the limit: {pairs:?}");
    assert_eq!(read["documents"], 4);
    let (pairs, read) = scan_with_summary(&data("notes.csv"), &["--limit", "5"], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["documents"], 5);
}

/// 40 variations of one long sentence: every two of them are near duplicates, so the pairs
/// output lists every sampled id, which reveals the sample.
fn all_similar_corpus(dir: &Path) -> PathBuf {
    let path = dir.join("variants.txt");
    let base = "Every document in this file repeats one long sentence about rivers, bridges, \
                ferries and the small towns along the water, then ends with its own tag";
    let text: String = (1..=40).map(|i| format!("{base} tag{i:02}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn sampled_ids(path: &Path, seed: &str) -> (Vec<u32>, serde_json::Value) {
    let (pairs, read) = scan_with_summary(path, &["--sample", "6", "--seed", seed], None);
    let mut ids: Vec<u32> = pairs
        .iter()
        .flat_map(|(a, b)| [a.parse().unwrap(), b.parse().unwrap()])
        .collect();
    ids.sort_unstable();
    ids.dedup();
    // All 15 pairs among the 6 sampled documents are found, a before b in input order.
    assert_eq!(pairs.len(), 15, "{pairs:?}");
    assert!(
        pairs
            .iter()
            .all(|(a, b)| a.parse::<u32>().unwrap() < b.parse().unwrap())
    );
    (ids, read)
}

#[test]
fn sample_is_reproducible_per_seed() {
    let dir = tempfile::tempdir().unwrap();
    let path = all_similar_corpus(dir.path());
    let (first, read) = sampled_ids(&path, "3");
    assert_eq!(first.len(), 6);
    assert!(first.iter().all(|&i| (1..=40).contains(&i)));
    assert_eq!(
        (read["documents"].clone(), read["rows_read"].clone()),
        (6.into(), 40.into())
    );
    let (again, _) = sampled_ids(&path, "3");
    assert_eq!(first, again, "same seed, same sample");
    let (other, _) = sampled_ids(&path, "4");
    assert_ne!(first, other, "another seed, another sample");
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit code 2, the file and line, and what to do

#[test]
fn ragged_csv_row_names_file_and_line() {
    let err = scan_fails(&data("bad/ragged.csv"), &[]);
    // The quoted first row spans lines 2-3, so the ragged row is on line 5.
    assert!(err.contains("ragged.csv:5:"), "{err}");
    assert!(
        err.contains("row has 3 fields but the header has 2"),
        "{err}"
    );
    assert!(err.contains("--skip-bad"), "{err}");
}

#[test]
fn skip_bad_goes_on_and_reports_the_lines() {
    let (pairs, read) = scan_with_summary(&data("bad/ragged.csv"), &["--skip-bad"], None);
    assert!(pairs.is_empty());
    assert_eq!(read["documents"], 3);
    assert_eq!(read["skipped"], 2);
    assert_eq!(read["skipped_lines"], serde_json::json!([5, 7]));
    // And the human summary says so too.
    lshscope()
        .args(["scan", "--skip-bad"])
        .arg(data("bad/broken.jsonl"))
        .assert()
        .success()
        .stderr(predicate::str::contains("2 skipped"))
        .stderr(predicate::str::contains("skipped rows at lines 3, 4"));
}

#[test]
fn malformed_json_line_names_file_line_and_column() {
    let err = scan_fails(&data("bad/broken.jsonl"), &[]);
    assert!(err.contains("broken.jsonl:3:"), "{err}");
    assert!(err.contains("invalid JSON at column"), "{err}");
    assert!(err.contains("--skip-bad"), "{err}");
}

#[test]
fn json_text_of_the_wrong_type_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.jsonl");
    std::fs::write(
        &path,
        "{\"text\": \"fine\"}\n{\"text\": [\"a\", \"list\"]}\n",
    )
    .unwrap();
    let err = scan_fails(&path, &[]);
    assert!(err.contains("typed.jsonl:2:"), "{err}");
    assert!(err.contains("expected a string in field `text`"), "{err}");
}

#[test]
fn missing_csv_column_lists_the_columns() {
    let err = scan_fails(&data("notes.csv"), &["--text-column", "body"]);
    assert!(err.contains("notes.csv:1:"), "{err}");
    assert!(
        err.contains("no column named `body`; columns are: id, title, text"),
        "{err}"
    );
    assert!(err.contains("--text-column"), "{err}");
    let err = scan_fails(&data("notes.csv"), &["--id-column", "9"]);
    assert!(err.contains("--id-column 9 is out of range"), "{err}");
    let err = scan_fails(
        &data("notes_noheader.csv"),
        &["--no-headers", "--text-column", "text"],
    );
    assert!(err.contains("give a 1-based index"), "{err}");
}

#[test]
fn missing_json_fields_name_the_line_and_the_fields_present() {
    let err = scan_fails(&data("notes.jsonl"), &["--text-field", "content"]);
    assert!(err.contains("notes.jsonl:1:"), "{err}");
    assert!(err.contains("no field `content`"), "{err}");
    assert!(err.contains("body, id, num, text, title"), "{err}");
    assert!(err.contains("--text-field"), "{err}");
    let err = scan_fails(&data("notes.jsonl"), &["--id-field", "uuid"]);
    assert!(err.contains("no field `uuid`"), "{err}");
    assert!(err.contains("--id-field"), "{err}");
}

/// An id field that is there but null is called null, never "no field `id`" beside a list of
/// fields holding `id`, and is not suggested to --id-field.
#[test]
fn null_json_ids_are_called_null() {
    let dir = tempfile::tempdir().unwrap();
    let after_an_id = dir.path().join("n.jsonl");
    std::fs::write(
        &after_an_id,
        "{\"id\":\"a\",\"text\":\"x y z\"}\n{\"id\":null,\"text\":\"p q\"}\n",
    )
    .unwrap();
    let err = scan_fails(&after_an_id, &[]);
    assert!(
        err.contains(&format!(
            "{}:2: field `id` is null on this line, but line 1 has an id",
            after_an_id.display()
        )),
        "{err}"
    );
    assert!(!err.contains("no field"), "{err}");
    assert!(err.contains("--skip-bad"), "{err}");

    let only = dir.path().join("one.jsonl");
    std::fs::write(&only, "{\"id\":null,\"text\":\"p q\"}\n").unwrap();
    let out = lshscope().arg("scan").arg(&only).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("field `id` is null on every line that has it (first: line 1)"),
        "{err}"
    );
    assert!(err.contains("--row-ids"), "{err}");
    assert!(!err.contains("--id-field id"), "{err}");
    let err = scan_fails(&only, &["--id-field", "id"]);
    assert!(
        err.contains("field `id` (the --id-field) is null on this line"),
        "{err}"
    );
}

#[test]
fn unreadable_paths_are_named() {
    let err = scan_fails(Path::new("no/such/corpus.csv"), &[]);
    assert!(err.contains("no/such/corpus.csv"), "{err}");
    assert!(err.contains("cannot read"), "{err}");

    // A dangling link inside a directory cannot be read (even by root).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ok.txt"), "a readable note").unwrap();
    std::os::unix::fs::symlink(dir.path().join("gone.txt"), dir.path().join("dangling.txt"))
        .unwrap();
    let err = scan_fails(dir.path(), &[]);
    assert!(err.contains("dangling.txt"), "{err}");
}

#[test]
fn corrupt_or_mislabelled_compression_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("plain.txt.gz");
    std::fs::write(&fake, "not compressed at all\n").unwrap();
    let err = scan_fails(&fake, &[]);
    assert!(err.contains("plain.txt.gz"), "{err}");
    assert!(err.contains("not gzip-compressed"), "{err}");

    let text: String = (0..2000)
        .map(|i| format!("line number {i} of a long file\n"))
        .collect();
    let mut truncated = gzip(text.as_bytes());
    truncated.truncate(truncated.len() / 2);
    let cut = dir.path().join("cut.txt.gz");
    std::fs::write(&cut, truncated).unwrap();
    let err = scan_fails(&cut, &[]);
    assert!(err.contains("cut.txt.gz"), "{err}");
    assert!(err.contains("read failed"), "{err}");
}

#[test]
fn format_that_contradicts_the_path_is_an_error() {
    let err = scan_fails(&data("notes_dir"), &["--format", "csv"]);
    assert!(err.contains("is a directory"), "{err}");
    assert!(err.contains("--format dir"), "{err}");
    let err = scan_fails(&data("notes.csv"), &["--format", "dir"]);
    assert!(err.contains("not a directory"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Empty documents and invalid UTF-8 are kept and counted

#[test]
fn empty_documents_are_counted_and_never_pair() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gaps.txt");
    let notes = std::fs::read_to_string(data("notes.txt")).unwrap();
    let lines: Vec<&str> = notes.lines().collect();
    std::fs::write(&path, format!("\n{}\n   \n\n{}\n", lines[1], lines[4])).unwrap();
    let (pairs, read) = scan_with_summary(&path, &[], None);
    assert_eq!(pairs, pair("2", "5"));
    assert_eq!(read["documents"], 5);
    assert_eq!(read["empty"], 3);
}

#[test]
fn invalid_utf8_is_read_lossily_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.csv");
    let mut bytes = b"id,text\n".to_vec();
    bytes.extend_from_slice(b"a,caf\xE9 au lait with a croissant in the morning\n");
    bytes.extend_from_slice(b"b,caf\xE9 au lait with a croissant in the evening\n");
    std::fs::write(&path, bytes).unwrap();
    let (pairs, read) = scan_with_summary(&path, &[], None);
    assert_eq!(pairs, pair("a", "b"));
    assert_eq!(read["lossy_utf8"], 2);
}

// ---------------------------------------------------------------------------------------------
// Quoting, line accounting, repeated ids (issue 8)

/// A TSV dump whose texts start (and some end) with quotes: read as TSV is, one row per line.
#[test]
fn tsv_texts_starting_with_quotes_keep_every_line_and_quote() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dump.tsv");
    let n = 3000;
    let mut body = String::from("id\ttext\n");
    for i in 0..n {
        match i % 4 {
            0 => body.push_str(&format!(
                "r{i}\t\"opening quote only, row {i} of the dump\n"
            )),
            1 => body.push_str(&format!("r{i}\t\"quoted on both ends, row {i}\"\n")),
            2 => body.push_str(&format!("r{i}\tsays \"hello\" in row {i}\n")),
            _ => body.push_str(&format!("r{i}\t\"\n")),
        }
    }
    std::fs::write(&path, body).unwrap();
    let (_, read) = scan_with_summary(&path, &[], None);
    assert_eq!(read["documents"], n);
    assert_eq!(read["lines"]["physical"], n + 1);
    assert_eq!(read["lines"]["header"], 1);
    assert_eq!(read["lines"]["continuation"], 0);
    assert_eq!(read["empty"], 0, "a lone quote is a one-character text");

    // The same file read with RFC 4180 quoting fails at the first lone quote, and says why.
    let err = scan_fails(&path, &["--quote", "double"]);
    assert!(err.contains("dump.tsv"), "{err}");
    assert!(err.contains("--quote none"), "{err}");
}

#[test]
fn csv_unterminated_quote_names_the_line_it_opened_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("open.csv");
    std::fs::write(
        &path,
        "id,text\na,first row\nb,\"starts a quote\nc,third row\n",
    )
    .unwrap();
    let err = scan_fails(&path, &[]);
    assert!(err.contains("open.csv"), "{err}");
    assert!(err.contains(":3") || err.contains("line 3"), "{err}");
    assert!(err.contains("still open at the end"), "{err}");
    assert!(err.contains("--quote none"), "{err}");

    let (_, read) = scan_with_summary(&path, &["--skip-bad"], None);
    assert_eq!(read["documents"], 2, "a and c survive; b is skipped");
    assert_eq!(read["skipped_lines"], serde_json::json!([3]));
    let (_, read) = scan_with_summary(&path, &["--quote", "none"], None);
    assert_eq!(read["documents"], 3);
}

/// RFC 4180 ends a quoted field at its closing quote: text after it (`"abc"def`) was glued
/// onto the field, quotes dropped, without a word. It is a bad row like an unterminated quote.
#[test]
fn csv_text_after_a_closing_quote_is_a_bad_row_naming_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("glued.csv");
    std::fs::write(
        &path,
        "id,text\n1,\"abc\"def\n2,a fine row\n3,\"say \"\"hi\"\" now\" later\n4,\"also fine\"\n",
    )
    .unwrap();
    let err = scan_fails(&path, &[]);
    assert!(
        err.contains("glued.csv:2:8: text follows the closing quote of a quoted field: `def`"),
        "{err}"
    );
    assert!(err.contains("--quote none"), "{err}");
    assert!(err.contains("--skip-bad"), "{err}");

    // Under --skip-bad both glued rows are skipped and counted like any bad row.
    let (_, read) = scan_with_summary(&path, &["--skip-bad"], None);
    assert_eq!(read["documents"], 2);
    assert_eq!(read["skipped"], 2);
    assert_eq!(read["skipped_lines"], serde_json::json!([2, 4]));
    let out = lshscope()
        .arg("scan")
        .arg(&path)
        .args(["--skip-bad", "-o", "-"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("5 lines → 2 rows: 1 header line, 2 bad rows skipped"),
        "{err}"
    );
    assert!(err.contains("skipped rows at lines 2, 4"), "{err}");

    // A file whose quotes are ordinary characters reads every row as written.
    let (_, read) = scan_with_summary(&path, &["--quote", "none"], None);
    assert_eq!(read["documents"], 4);
    assert_eq!(read["skipped"], 0);

    // A stray quote closed by a quote on a later line: the error names where the text is and
    // where the field opened; under --skip-bad the lines it swallowed are read again.
    let stray = dir.path().join("stray.csv");
    std::fs::write(&stray, "id,text\na,\"one\nb,\"two\" quoted\nc,three\n").unwrap();
    let err = scan_fails(&stray, &[]);
    assert!(
        err.contains(
            "stray.csv:3:4: text follows the closing quote of a quoted field opened on line 2: \
             `two\" quoted`"
        ),
        "{err}"
    );
    let (_, read) = scan_with_summary(&stray, &["--skip-bad"], None);
    assert_eq!(read["skipped_lines"], serde_json::json!([2, 3]));
    assert_eq!(read["documents"], 1, "c survives");
}

/// A header row with a quoting error cannot be skipped: under `--skip-bad` it was, and the
/// first data row silently became the header (wrong column names, one document lost). It is
/// an error with or without `--skip-bad`, naming the line and column and what to do.
#[test]
fn a_bad_header_is_an_error_even_under_skip_bad() {
    let dir = tempfile::tempdir().unwrap();
    let glued = dir.path().join("glued_header.csv");
    std::fs::write(&glued, "\"id\"x,text\n1,first note\n2,second note\n").unwrap();
    let open = dir.path().join("open_header.csv");
    std::fs::write(&open, "\"id,text\n1,first note\n2,second note\n").unwrap();
    for (path, at, what) in [
        (
            &glued,
            "glued_header.csv:1:5: ",
            "text follows the closing quote of a quoted field of the header row: `x`",
        ),
        (
            &open,
            "open_header.csv:1:1: ",
            "a quoted field of the header row opened on this line is still open at the end of \
             the input",
        ),
    ] {
        for args in [&["--skip-bad"][..], &[]] {
            // Exit code 2, nothing on stdout.
            let err = scan_fails(path, args);
            assert!(err.contains(&format!("{at}{what}")), "{args:?}: {err}");
            assert!(
                err.contains("fix the quoting of the header")
                    && err.contains("pass --quote none")
                    && err.contains("the header row cannot be skipped, not even under --skip-bad")
                    && err.contains("pass --no-headers"),
                "{args:?}: {err}"
            );
        }
        // What the message offers works: quotes as ordinary characters read every row.
        let (_, read) = scan_with_summary(path, &["--quote", "none"], None);
        assert_eq!(read["documents"], 2);
        assert_eq!(read["skipped"], 0);
    }

    // Without a header the first row is data: --skip-bad skips it like any bad row.
    let (_, read) = scan_with_summary(&glued, &["--no-headers", "--skip-bad"], None);
    assert_eq!(read["documents"], 2);
    assert_eq!(read["skipped_lines"], serde_json::json!([1]));
    assert_eq!(read["lines"]["header"], 0);

    // A bad data row after a good header is still skipped and counted.
    let good = dir.path().join("good_header.csv");
    std::fs::write(
        &good,
        "id,text\n1,\"abc\"def\n2,second note\n3,third note\n",
    )
    .unwrap();
    let (_, read) = scan_with_summary(&good, &["--skip-bad"], None);
    assert_eq!(read["documents"], 2);
    assert_eq!(read["skipped"], 1);
    assert_eq!(read["skipped_lines"], serde_json::json!([2]));
    assert_eq!(read["lines"]["header"], 1);
}

#[test]
fn summary_says_how_lines_became_documents() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("multi.csv");
    std::fs::write(&path, "id,text\n\na,\"two\nlines\"\nb,plain\nc,too,many\n").unwrap();
    let out = lshscope()
        .arg("scan")
        .arg(&path)
        .arg("--skip-bad")
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains(
            "6 lines → 2 rows: 1 header line, 1 blank line skipped, 1 line inside multi-line \
             quoted fields, 1 bad row skipped"
        ),
        "{err}"
    );
}

#[test]
fn repeated_ids_warn_and_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dups.csv");
    std::fs::write(
        &path,
        "id,text\n1,the first text here\n1,another text entirely\n2,third one\n2,fourth\n",
    )
    .unwrap();
    let out = lshscope().arg("scan").arg(&path).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains(
            "warning: 2 documents repeat an earlier id (first: 1, 2); pairs name documents by \
             id, so make ids unique"
        ),
        "{err}"
    );
    let (_, read) = scan_with_summary(&path, &[], None);
    assert_eq!(read["duplicate_ids"], 2);
    // --quiet silences the warning.
    lshscope()
        .arg("scan")
        .arg(&path)
        .arg("-q")
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

// ---------------------------------------------------------------------------------------------
// Compression, binary input, .json, options that do not fit (issue 8)

fn bzip2_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn xz_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut enc = liblzma::write::XzEncoder::new(Vec::new(), 1);
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

#[test]
fn bz2_and_xz_are_decompressed_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let csv = std::fs::read(data("notes.csv")).unwrap();
    for (ext, bytes, kind) in [
        ("bz2", bzip2_bytes(&csv), "bzip2"),
        ("xz", xz_bytes(&csv), "xz"),
    ] {
        let path = dir.path().join(format!("notes.csv.{ext}"));
        std::fs::write(&path, &bytes).unwrap();
        let (pairs, read) = scan_with_summary(&path, &[], None);
        assert_eq!(pairs, pair("n2", "n5"), "{ext}");
        assert_eq!(read["compression"], kind);
        assert_eq!(read["format"], "csv");
        // On stdin too, recognised by the magic bytes alone.
        let (pairs, _) = scan_with_summary(Path::new("-"), &["--format", "csv"], Some(bytes));
        assert_eq!(pairs, pair("n2", "n5"), "stdin {ext}");
    }
    let fake = dir.path().join("plain.txt.xz");
    std::fs::write(&fake, "plain words\n").unwrap();
    let err = scan_fails(&fake, &[]);
    assert!(err.contains("not xz-compressed"), "{err}");
    let fake = dir.path().join("other.txt.bz2");
    std::fs::write(&fake, gzip(b"gzip inside\n")).unwrap();
    let err = scan_fails(&fake, &[]);
    assert!(
        err.contains("not bzip2-compressed (it is gzip-compressed)"),
        "{err}"
    );
}

#[test]
fn binary_files_are_refused_with_what_they_appear_to_be() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<u8>, &str); 6] = [
        // PAR1 sends any file to the Parquet reader, which judges a truncated one.
        (
            "data.bin",
            b"PAR1\x15\x04\x15\x10".to_vec(),
            "not a readable Parquet file",
        ),
        ("a.zip", b"PK\x03\x04\x14\x00rest".to_vec(), "ZIP archive"),
        ("paper.txt", b"%PDF-1.7\n%stuff\n".to_vec(), "PDF document"),
        (
            "pic.txt",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
            "PNG image",
        ),
        ("blob.csv", b"id,text\n1,a\0b\0c\n".to_vec(), "NUL bytes"),
        (
            "inner.txt.gz",
            gzip(b"%PDF-1.4\nx\n"),
            "PDF document (gzip-compressed)",
        ),
    ];
    for (file, bytes, expected) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, bytes).unwrap();
        let err = scan_fails(&path, &[]);
        assert!(err.contains(file), "{err}");
        assert!(err.contains(expected), "{file}: {err}");
    }
}

#[test]
fn json_holding_ndjson_is_read_as_json_lines_and_arrays_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ndjson = dir.path().join("notes.json");
    std::fs::copy(data("notes.jsonl"), &ndjson).unwrap();
    let (pairs, read) = scan_with_summary(&ndjson, &[], None);
    assert_eq!(read["format"], "jsonl");
    assert_eq!(read["documents"], 6);
    assert_eq!(pairs.len(), 1);

    let array = dir.path().join("array.json");
    std::fs::write(&array, "[\n  {\"text\": \"a\"},\n  {\"text\": \"b\"}\n]\n").unwrap();
    let err = scan_fails(&array, &[]);
    assert!(
        err.contains("array.json") && err.contains("JSON array"),
        "{err}"
    );
    assert!(err.contains("jq -c"), "{err}");

    let pretty = dir.path().join("pretty.json");
    std::fs::write(&pretty, "{\n  \"text\": \"a\"\n}\n").unwrap();
    let err = scan_fails(&pretty, &[]);
    assert!(err.contains("spread over several lines"), "{err}");
}

#[test]
fn options_for_another_format_are_usage_errors() {
    let err = scan_fails(&data("notes.txt"), &["--id-column", "1"]);
    assert!(err.contains("--id-column applies only to CSV/TSV"), "{err}");
    let err = scan_fails(&data("notes.csv"), &["--text-field", "body"]);
    assert!(
        err.contains("--text-field applies only to JSON Lines"),
        "{err}"
    );
    let err = scan_fails(&data("notes.jsonl"), &["--quote", "none", "--no-headers"]);
    assert!(err.contains("--no-headers, --quote apply only"), "{err}");
    let err = scan_fails(&data("notes_dir"), &["--text-column", "text"]);
    assert!(err.contains("a directory"), "{err}");

    let out = lshscope()
        .args(["scan", "-", "-q", "--id-column", "1"])
        .write_stdin("a b c\n")
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("stdin is read as text lines"), "{err}");
    assert!(err.contains("--format csv"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Directory rules (issue 8)

#[test]
fn directory_skips_hidden_and_ignored_files_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let notes = std::fs::read_to_string(data("notes.txt")).unwrap();
    let lines: Vec<&str> = notes.lines().collect();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".cache")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::create_dir_all(root.join("keep")).unwrap();
    std::fs::write(root.join("keep/two.txt"), lines[1]).unwrap();
    std::fs::write(root.join("five.txt"), lines[4]).unwrap();
    std::fs::write(root.join("three.txt"), lines[2]).unwrap();
    // Copies of note 2 in hidden and ignored places would add pairs if they were read.
    std::fs::write(root.join(".hidden.txt"), lines[1]).unwrap();
    std::fs::write(root.join(".cache/copy.txt"), lines[1]).unwrap();
    std::fs::write(root.join("build/copy.txt"), lines[1]).unwrap();
    std::fs::write(root.join("scratch.log"), lines[1]).unwrap();
    std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
    std::fs::write(root.join(".ignore"), "*.log\n").unwrap();

    let (pairs, read) = scan_with_summary(root, &[], None);
    assert_eq!(pairs, pair("five.txt", "keep/two.txt"));
    assert_eq!(read["documents"], 3);

    let (pairs, read) = scan_with_summary(root, &["--no-ignore"], None);
    assert_eq!(read["documents"], 5, "build/copy.txt and scratch.log join");
    assert_eq!(
        pairs.len(),
        6,
        "four similar notes make six pairs: {pairs:?}"
    );

    let (_, read) = scan_with_summary(root, &["--hidden"], None);
    // .hidden.txt, .cache/copy.txt, .gitignore and .ignore join; build/ and *.log stay out.
    assert_eq!(read["documents"], 7);

    let err = scan_fails(&data("notes.txt"), &["--hidden"]);
    assert!(err.contains("only to directory input"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Advice that works where it is given (findings F9, F10, F12)

/// A directory holding one text note and a Parquet file, as a user's `dir2`.
fn dir_with_parquet(root: &Path) {
    let notes = std::fs::read_to_string(data("notes.txt")).unwrap();
    std::fs::write(root.join("q.txt"), notes.lines().next().unwrap()).unwrap();
    std::fs::copy(data("notes.parquet"), root.join("x.parquet")).unwrap();
}

#[test]
fn parquet_inside_a_directory_is_refused_with_advice_that_works_there() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    dir_with_parquet(root);
    let err = scan_fails(root, &[]);
    assert!(
        err.contains(
            "x.parquet: a Parquet file inside a directory input (read as one document per text \
             file); pass --skip-bad to skip such files, list them in a .ignore file, or read the \
             file by itself with --format parquet"
        ),
        "{err}"
    );
    assert!(!err.contains("read it with --format parquet"), "{err}");

    // Each piece of advice works: --skip-bad, a .ignore file, the file by itself.
    let (_, read) = scan_with_summary(root, &["--skip-bad"], None);
    assert_eq!(read["documents"], 1);
    assert_eq!(read["skipped_files"], serde_json::json!(["x.parquet"]));
    std::fs::write(root.join(".ignore"), "*.parquet\n").unwrap();
    let (_, read) = scan_with_summary(root, &[], None);
    assert_eq!(read["documents"], 1);
    let (pairs, read) = scan_with_summary(&root.join("x.parquet"), &["--format", "parquet"], None);
    assert_eq!(read["documents"], 7);
    assert_eq!(pairs.len(), 1);

    // Other binary files in a directory say the same; given alone, the messages are unchanged.
    std::fs::write(root.join("paper.txt"), b"%PDF-1.7\n%stuff\n").unwrap();
    let err = scan_fails(root, &[]);
    assert!(
        err.contains(
            "paper.txt: the content appears to be a PDF document, not text, inside a directory \
             input (read as one document per text file); pass --skip-bad to skip such files, \
             list them in a .ignore file, or extract or convert its text first"
        ),
        "{err}"
    );
    let err = scan_fails(&root.join("x.parquet"), &["--format", "text"]);
    assert!(
        err.contains(
            "x.parquet: the content is a Parquet file (it starts with PAR1); read it with \
             --format parquet"
        ),
        "{err}"
    );
}

#[test]
fn files_skipped_in_a_directory_are_not_reported_as_rows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("dir2");
    std::fs::create_dir(&root).unwrap();
    dir_with_parquet(&root);
    let out = lshscope()
        .arg("scan")
        .arg(&root)
        .args(["--skip-bad", "-o"])
        .arg(dir.path().join("pairs.csv"))
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("1 skipped"), "{err}");
    assert!(
        err.contains("unreadable files skipped: x.parquet\n"),
        "{err}"
    );
    assert!(!err.contains("skipped rows"), "{err}");
    // Nor does the JSON summary carry an empty list of skipped lines.
    let (_, read) = scan_with_summary(&root, &["--skip-bad"], None);
    assert_eq!(read["skipped"], 1);
    assert!(read.get("skipped_lines").is_none(), "{read}");
}

#[test]
fn stdin_that_looks_like_csv_is_read_as_text_with_a_warning() {
    let csv = std::fs::read(data("notes.csv")).unwrap();
    let warning = "warning: stdin looks like CSV with a header (`id,title,text`); it is read as \
                   plain text, one document per line: pass --format csv (or tsv) to read its \
                   columns";
    let out = lshscope()
        .args(["scan", "-", "-o", "-"])
        .write_stdin(csv.clone())
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains(warning), "{err}");
    assert_eq!(err.matches("stdin looks like").count(), 1, "{err}");
    // What is read does not change: every line, the header too, is a document.
    let (_, read) = scan_with_summary(Path::new("-"), &[], Some(csv.clone()));
    assert_eq!(read["format"], "text");
    assert_eq!(read["documents"], 7);

    // The same as `lshscope gen` writes it, and TSV.
    lshscope()
        .args(["scan", "-", "-o", "-"])
        .write_stdin("id,text\n1,a first document\n2,a second one\n")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "stdin looks like CSV with a header (`id,text`)",
        ));
    lshscope()
        .args(["scan", "-", "-o", "-"])
        .write_stdin("id\ttext\n1\ta first document\n")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "stdin looks like TSV with a header",
        ))
        .stderr(predicate::str::contains("pass --format tsv"));

    // No warning under --quiet, with an explicit --format, or for plain text.
    for (args, input) in [
        (&["-q"][..], csv.clone()),
        (&["--format", "text"][..], csv.clone()),
        (&["--format", "csv"][..], csv),
        (&[][..], std::fs::read(data("notes.txt")).unwrap()),
    ] {
        lshscope()
            .args(["scan", "-", "-o", "-"])
            .args(args)
            .write_stdin(input)
            .assert()
            .success()
            .stderr(predicate::str::contains("looks like").not());
    }
}

/// The reader's warnings (here: stdin that looks like CSV, read as text) are printed by every
/// command that reads a corpus, not only by those that go through `scan`'s loading.
#[test]
fn reader_warnings_are_printed_by_every_command_that_reads_a_corpus() {
    let csv = std::fs::read(data("notes.csv")).unwrap();
    let warning = "warning: stdin looks like CSV with a header (`id,title,text`)";
    let stderr = |out: &assert_cmd::assert::Assert| {
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    let warned_once = |err: &str| {
        assert!(err.contains(warning), "{err}");
        assert_eq!(err.matches("stdin looks like").count(), 1, "{err}");
    };

    let out = lshscope()
        .args(["shingles", "-", "--pairs", "10"])
        .write_stdin(csv.clone())
        .assert()
        .success();
    warned_once(&stderr(&out));
    lshscope()
        .args(["shingles", "-", "--pairs", "10", "-q"])
        .write_stdin(csv.clone())
        .assert()
        .success()
        .stderr(predicate::str::is_empty());

    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("notes.lshidx");
    lshscope()
        .args(["index", "build"])
        .arg(data("notes.csv"))
        .arg("-o")
        .arg(&index)
        .arg("-q")
        .assert()
        .success();
    let out = lshscope()
        .args(["index", "add"])
        .arg(&index)
        .arg("-")
        .write_stdin(csv.clone())
        .assert()
        .success();
    warned_once(&stderr(&out));
    // The same lines again: their ids (line numbers) are indexed now, so they are skipped.
    lshscope()
        .args(["index", "add", "--skip-existing"])
        .arg(&index)
        .args(["-", "-q"])
        .write_stdin(csv.clone())
        .assert()
        .success()
        .stderr(predicate::str::is_empty());

    // A query file on stdin is a corpus too.
    let out = lshscope()
        .args(["index", "query"])
        .arg(&index)
        .arg("-")
        .write_stdin(csv.clone())
        .assert()
        .success();
    warned_once(&stderr(&out));

    // The walkthrough reads its documents before it needs a terminal (there is none here).
    let out = lshscope()
        .args(["learn", "-"])
        .write_stdin(csv)
        .assert()
        .code(2);
    let err = stderr(&out);
    warned_once(&err);
    assert!(err.contains("needs an interactive terminal"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Files without a header row, and messages that quote input

/// The `key<TAB>body` rows of `notes.tsv` without its header: `id<TAB>text` as dumps are
/// written. `first_body` replaces the body of the first note.
fn headerless_notes(first_body: Option<&str>, delimiter: char) -> String {
    let notes = std::fs::read_to_string(data("notes.tsv")).unwrap();
    let mut out = String::new();
    for (i, line) in notes.lines().skip(1).enumerate() {
        let mut fields = line.split('\t');
        let (key, body) = (fields.next().unwrap(), fields.next().unwrap());
        let body = match (i, first_body) {
            (0, Some(b)) => b,
            _ => body,
        };
        if delimiter == ',' {
            out.push_str(&format!("{key},\"{}\"\n", body.replace('"', "\"\"")));
        } else {
            out.push_str(&format!("{key}\t{body}\n"));
        }
    }
    out
}

#[test]
fn a_headerless_dump_with_a_long_first_document_is_read_as_id_and_text() {
    let long = "The night ferry to the islands leaves at ten, and the ticket office by the \
                harbour stays open until the last boat has gone; bring a coat.";
    let dir = tempfile::tempdir().unwrap();
    for (name, delimiter) in [("dump.tsv", '\t'), ("dump.csv", ',')] {
        let path = dir.path().join(name);
        std::fs::write(&path, headerless_notes(Some(long), delimiter)).unwrap();
        let out = lshscope().arg("scan").arg(&path).assert().success();
        // The ids are the first column: the near-duplicate notes 2 and 5 keep their keys.
        assert_eq!(
            parse_pairs(&out.get_output().stdout),
            pair("n2", "n5"),
            "{name}"
        );
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            err.contains(&format!(
                "{name}: the first row does not look like a header (field 2 is {} characters \
                 long), so it is read as data",
                long.chars().count()
            )) && err.contains("column 2 of 2 is the text, column 1 is the id")
                && err.contains("pass --no-headers to say so"),
            "{err}"
        );
        // Under --no-headers: the same pairs and every document, with nothing to note.
        let (pairs, read) = scan_with_summary(&path, &["--no-headers"], None);
        assert_eq!(pairs, pair("n2", "n5"));
        assert_eq!(read["documents"], 6);
        assert_eq!(read["lines"]["header"], 0);
        assert!(read.get("warnings").is_none(), "{read}");
    }
}

#[test]
fn a_headerless_dump_with_a_short_first_document_needs_no_headers_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dump.tsv");
    std::fs::write(&path, headerless_notes(Some("Call home"), '\t')).unwrap();
    // `n1<TAB>Call home` reads as column names: the error says how to read it as data.
    let err = scan_fails(&path, &[]);
    assert!(
        err.contains(
            "dump.tsv:1: no column named `text`, and 2 columns could hold the text: \
             n1, Call home"
        ) && err.contains("pass --no-headers"),
        "{err}"
    );
    let (pairs, read) = scan_with_summary(&path, &["--no-headers"], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(read["documents"], 6);
    // With a header, nothing changes.
    let with_header = dir.path().join("with_header.tsv");
    std::fs::write(
        &with_header,
        format!("id\ttext\n{}", headerless_notes(None, '\t')),
    )
    .unwrap();
    let (pairs, read) = scan_with_summary(&with_header, &[], None);
    assert_eq!(pairs, pair("n2", "n5"));
    assert_eq!(
        (read["documents"].clone(), read["lines"]["header"].clone()),
        (6.into(), 1.into())
    );
}

/// A one-line document of megabytes read as CSV: stderr names the file and stays short.
#[test]
fn a_multi_megabyte_line_read_as_csv_is_not_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let sentence = "Shipping is free for orders over fifty euros and returns are accepted \
                    within thirty days. ";
    let line = sentence.repeat(9_400_000 / sentence.len());
    // About 9.4 MB of prose with no line break and no comma: one field, taken for the header
    // before (and quoted whole in the warning naming it as the text column). It is a
    // document: read as one, numbered 1.
    let path = dir.path().join("one_line.csv");
    std::fs::write(&path, &line).unwrap();
    let out = lshscope().arg("scan").arg(&path).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.len() < 2_000,
        "{} bytes on stderr: {}",
        err.len(),
        &err[..2_000]
    );
    assert!(
        err.contains(&format!(
            "one_line.csv: the first row does not look like a header (field 1 is {} characters \
             long)",
            lshscope_core::util::numfmt::thousands(line.trim().len() as u64)
        )) && err.contains("read 1 document"),
        "{err}"
    );
    // Naming a column turns the sniff off: the error quotes the column name, shortened.
    let err = scan_fails(&path, &["--text-column", "body"]);
    assert!(
        err.len() < 1_000,
        "{} bytes on stderr: {}",
        err.len(),
        &err[..1_000]
    );
    assert!(
        err.contains(&format!(
            "no column named `body`; columns are: {}…",
            &line[..100]
        )),
        "{err}"
    );

    // With commas between short phrases, the line splits into 200,000 short fields: column
    // names to the reader, none of them `text`. The error lists the first few, each shortened.
    let commas = dir.path().join("commas.csv");
    let phrases = "Shipping is free for orders over fifty euros, and returns are accepted \
                   within thirty days, ";
    std::fs::write(&commas, phrases.repeat(line.len() / phrases.len())).unwrap();
    let err = scan_fails(&commas, &[]);
    assert!(
        err.len() < 4_000,
        "{} bytes on stderr: {}",
        err.len(),
        &err[..4_000]
    );
    assert!(
        err.contains("columns could hold the text: Shipping is free")
            && err.contains("… and ")
            && err.contains("pass --no-headers"),
        "{err}"
    );
}

/// A file given to an option that cannot be read: the message names the option and its path
/// and says what to do, like the input path's (`cannot read: …; check the path`), exit 2.
#[test]
fn files_given_to_options_name_the_option_when_they_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.csv");
    let missing = missing.to_str().unwrap();
    let notes = data("notes.csv");
    let notes = notes.to_str().unwrap();
    let svg = dir.path().join("h.svg");
    let svg = svg.to_str().unwrap();
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "--similarities",
            vec!["tune", "-t", "0.8", "--similarities", missing],
        ),
        ("--pairs", vec!["tune", "-t", "0.8", "--pairs", missing]),
        ("--truth", vec!["tune", "-t", "0.8", "--truth", missing]),
        ("--corpus", vec!["tune", "-t", "0.8", "--corpus", missing]),
        (
            "--pairs",
            vec!["plot", "histogram", "--pairs", missing, "-o", svg],
        ),
        ("--truth", vec!["explore", notes, "--truth", missing]),
        ("--pairs", vec!["explore", notes, "--pairs", missing]),
        ("--clusters", vec!["explore", notes, "--clusters", missing]),
    ];
    for (option, args) in cases {
        let out = lshscope().args(&args).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        let expected = format!("{option} {missing}: cannot read: ");
        assert!(
            err.contains(&expected) && err.trim_end().ends_with("; check the path"),
            "{args:?}: {err}"
        );
    }
    // scan --truth reads the file through the engine: it says what to do too.
    let err = scan_fails(&data("notes.csv"), &["--truth", missing]);
    assert!(
        err.contains(&format!("{missing}: cannot read: ")) && err.contains("; check the path"),
        "{err}"
    );
    // So does an index file that is not there.
    let index = dir.path().join("missing.lshi");
    let out = lshscope()
        .args(["index", "info"])
        .arg(&index)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains(&format!("{}: cannot read: ", index.display()))
            && err.contains("; check the path"),
        "{err}"
    );
}

/// One skipped row reads in the singular; several in the plural.
#[test]
fn one_skipped_row_is_named_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"id\":\"a\",\"text\":\"the first note\"}\n{bad\n{\"id\":\"c\",\"text\":\"a third note\"}\n",
    )
    .unwrap();
    let out = lshscope()
        .args(["scan", "--skip-bad"])
        .arg(&bad)
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("  skipped row at line 2\n"), "{err}");
    assert!(!err.contains("lines 2"), "{err}");
}

/// `-b 0` and `-r 0` name the option to fix.
#[test]
fn zero_bands_or_rows_name_the_option() {
    let err = scan_fails(&data("notes.csv"), &["-b", "0"]);
    assert!(
        err.contains("--bands (-b) must be at least 1, got 0"),
        "{err}"
    );
    let err = scan_fails(&data("notes.csv"), &["-r", "0"]);
    assert!(
        err.contains("--rows (-r) must be at least 1, got 0"),
        "{err}"
    );
}
