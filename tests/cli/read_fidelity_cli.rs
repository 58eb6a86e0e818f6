//! What the reader decides on its own when the command line leaves a choice open, through the
//! real binary: the text and id columns of a table without `text` or `id` (CSV and Parquet
//! alike), JSON Lines whose ids are on some lines only, a CSV under a `.tsv` name (and what
//! `gen` writes to one), and inputs without documents. Each such decision is an error or a
//! `warning:` on stderr (silenced by `-q`), never silent.
//!
//! The documents are the six notes of `tests/data/notes.txt`, in which notes 2 and 5 are near
//! duplicates (exact Jaccard of char-5 shingles 0.85).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;

use assert_cmd::Command;

fn lshscope() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("lshscope")
}

fn notes() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/notes.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs lshscope with `args` (and `stdin`), returns its output whatever the exit code.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = lshscope();
    cmd.args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes.to_vec());
    }
    cmd.output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `warning:` lines of stderr, without the prefix.
fn warnings(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter_map(|l| l.strip_prefix("warning: "))
        .map(str::to_string)
        .collect()
}

/// The `(id_a, id_b)` pairs of `scan`'s CSV output.
fn pairs(out: &Output) -> Vec<(String, String)> {
    stdout(out)
        .lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split(',');
            (f.next().unwrap().to_string(), f.next().unwrap().to_string())
        })
        .collect()
}

fn pair(a: &str, b: &str) -> Vec<(String, String)> {
    vec![(a.to_string(), b.to_string())]
}

/// Writes `header` and one row per note, built by `row(index from 1, note)`.
fn write_table(
    dir: &Path,
    name: &str,
    header: &str,
    row: impl Fn(usize, &str) -> String,
) -> PathBuf {
    let mut text = format!("{header}\n");
    for (i, note) in notes().iter().enumerate() {
        text.push_str(&row(i + 1, note));
        text.push('\n');
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

// ---------------------------------------------------------------------------------------------
// The text column: never guessed among several

/// `id,body,url`: the last column (url) was read as the text, and `dedup` removed every
/// document sharing a url prefix. Now no command reads it without being told which column.
#[test]
fn several_candidate_text_columns_are_an_error_listing_them() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_table(dir.path(), "pages.csv", "id,body,url", |i, note| {
        format!("p{i},\"{note}\",https://example.com/page")
    });
    let file = arg(&csv);
    for args in [
        vec!["dedup", file, "-t", "0.8"],
        vec!["scan", file],
        vec!["truth", file, "-t", "0.8"],
    ] {
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "lshscope: error: {file}:1: no column named `text`, and 2 columns could hold the \
                 text: body, url (the id is column `id`); choose one with --text-column NAME (or \
                 a 1-based index)\n"
            ),
            "{args:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Told, it reads the bodies: one cluster, notes 2 and 5.
    let out = run(&["dedup", file, "-t", "0.8", "--text-column", "body"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "id,cluster,size,keep,jaccard\np2,p2,2,true,1\np5,p2,2,false,0.8524590163934426\n"
    );
    assert_eq!(warnings(&out), Vec::<String>::new());
}

/// `doc_id,body`: one column can hold the text, and it is read, with a warning naming it; the
/// ids are row numbers, with a warning naming `doc_id`. Every corpus command says so, and
/// `-q` silences both as it silences other read warnings.
#[test]
fn a_default_text_column_and_row_number_ids_are_warned_about_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_table(dir.path(), "docs.csv", "doc_id,body", |i, note| {
        format!("d{i},\"{note}\"")
    });
    let file = arg(&csv);
    let expected = [
        format!(
            "{file} has no column named `text`, so the text is read from column `body` (other \
             columns: doc_id); name the text column with --text-column NAME to choose another or \
             to confirm this one"
        ),
        format!(
            "{file} has no column named `id`, so documents are numbered by row (1, 2, …) and \
             pairs and clusters name them so; column `doc_id` looks like an id: pass --id-column \
             doc_id to use it"
        ),
    ];
    for args in [
        vec!["scan", file],
        vec!["dedup", file, "-t", "0.8"],
        vec!["truth", file, "-t", "0.8"],
        vec!["shingles", file],
    ] {
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(warnings(&out), expected, "{args:?}");
        let mut quiet = args.clone();
        quiet.push("-q");
        let out = run(&quiet, None);
        assert_eq!(out.status.code(), Some(0), "{quiet:?}");
        assert!(
            !stderr(&out).contains("warning"),
            "{quiet:?}: {}",
            stderr(&out)
        );
    }
    let out = run(&["scan", file, "-q"], None);
    assert_eq!(pairs(&out), pair("2", "5"));
    // Naming both columns: the file's ids, and nothing to warn about.
    let out = run(
        &[
            "scan",
            file,
            "--text-column",
            "body",
            "--id-column",
            "doc_id",
        ],
        None,
    );
    assert_eq!(pairs(&out), pair("d2", "d5"));
    assert_eq!(warnings(&out), Vec::<String>::new());
}

// ---------------------------------------------------------------------------------------------
// Parquet follows the same rules

/// Writes a Parquet file of required string columns.
fn write_parquet(path: &Path, columns: &[(&str, Vec<String>)]) {
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;

    let fields: String = columns
        .iter()
        .map(|(name, _)| format!("required binary {name} (STRING); "))
        .collect();
    let schema = Arc::new(parse_message_type(&format!("message m {{ {fields}}}")).unwrap());
    let file = std::fs::File::create(path).unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut group = writer.next_row_group().unwrap();
    for (_, values) in columns {
        let mut column = group.next_column().unwrap().unwrap();
        let values: Vec<ByteArray> = values.iter().map(|v| ByteArray::from(v.as_str())).collect();
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
}

/// A Parquet file without a `text` column failed with `no column named text`, though the help
/// promises a default; it now reads as the same table in CSV does.
#[test]
fn parquet_without_a_text_column_reads_like_the_same_csv() {
    let dir = tempfile::tempdir().unwrap();
    let n = notes().len();
    let doc_ids: Vec<String> = (1..=n).map(|i| format!("d{i}")).collect();
    let parquet = dir.path().join("docs.parquet");
    write_parquet(&parquet, &[("doc_id", doc_ids.clone()), ("body", notes())]);
    let file = arg(&parquet);
    let out = run(&["scan", file], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(pairs(&out), pair("2", "5"));
    assert_eq!(
        warnings(&out),
        [
            format!(
                "{file} has no column named `text`, so the text is read from column `body` \
                 (other columns: doc_id); name the text column with --text-column NAME to choose \
                 another or to confirm this one"
            ),
            format!(
                "{file} has no column named `id`, so documents are numbered by row (1, 2, …) and \
                 pairs and clusters name them so; column `doc_id` looks like an id: pass \
                 --id-column doc_id to use it"
            ),
        ]
    );
    let out = run(&["scan", file, "-q", "--id-column", "doc_id"], None);
    assert_eq!(pairs(&out), pair("d2", "d5"));

    let urls = vec!["https://example.com/page".to_string(); n];
    let ambiguous = dir.path().join("pages.parquet");
    write_parquet(
        &ambiguous,
        &[("id", doc_ids), ("body", notes()), ("url", urls)],
    );
    let out = run(&["dedup", arg(&ambiguous), "-t", "0.8"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "lshscope: error: {}: no column named `text`, and 2 columns could hold the text: \
             body, url (the id is column `id`); choose one with --text-column NAME (or a 1-based \
             index)\n",
            arg(&ambiguous)
        )
    );
}

/// Options of another format name the formats they do apply to.
#[test]
fn options_for_another_format_name_the_formats_they_apply_to() {
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("notes.txt");
    std::fs::write(&txt, notes().join("\n")).unwrap();
    let file = arg(&txt);
    for (option, value, message) in [
        (
            "--id-field",
            "key",
            "--id-field applies only to JSON Lines, but the input is read as text lines (one \
             document per line); remove it or choose the right --format",
        ),
        (
            "--id-column",
            "1",
            "--id-column applies only to CSV/TSV or Parquet, but the input is read as text \
             lines (one document per line); remove it or choose the right --format",
        ),
    ] {
        let out = run(&["scan", file, option, value], None);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(stderr(&out), format!("lshscope: error: {message}\n"));
    }
}

// ---------------------------------------------------------------------------------------------
// JSON Lines with ids on some lines

fn write_jsonl(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Line 3 has no id while `"id": 3` is on line 4: line 3 used to get its line number, the same
/// id. Now it is a malformed line, skipped and counted under `--skip-bad`.
#[test]
fn a_jsonl_line_without_the_id_among_lines_with_ids_is_a_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = notes()
        .iter()
        .enumerate()
        .map(|(i, note)| match i {
            2 => serde_json::json!({ "text": note }).to_string(),
            3 => serde_json::json!({ "id": 3, "text": note }).to_string(),
            _ => serde_json::json!({ "id": format!("n{}", i + 1), "text": note }).to_string(),
        })
        .collect();
    let path = write_jsonl(dir.path(), "notes.jsonl", &lines);
    let file = arg(&path);
    let out = run(&["scan", file], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "lshscope: error: {file}:3: no field `id` on this line (its fields are: text), but \
             line 1 has one: with its line number as id it could collide with the id of another \
             line; add the id to every line, or pass --skip-bad to skip lines without one\n"
        )
    );
    let summary = dir.path().join("summary.json");
    let out = run(
        &[
            "scan",
            file,
            "-q",
            "--skip-bad",
            "--summary-json",
            arg(&summary),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(pairs(&out), pair("n2", "n5"));
    let read: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let read = &read["read"];
    assert_eq!(
        (&read["documents"], &read["skipped"], &read["skipped_lines"]),
        (
            &serde_json::json!(5),
            &serde_json::json!(1),
            &serde_json::json!([3])
        )
    );
    assert_eq!(read["duplicate_ids"], 0);
}

/// Without an id on any line, line numbers are the ids, as documented, without a warning
/// unless a field looks like the id that was meant.
#[test]
fn jsonl_without_ids_is_numbered_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let plain: Vec<String> = notes()
        .iter()
        .map(|note| serde_json::json!({ "text": note }).to_string())
        .collect();
    let path = write_jsonl(dir.path(), "plain.jsonl", &plain);
    let out = run(&["scan", arg(&path)], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(pairs(&out), pair("2", "5"));
    assert_eq!(warnings(&out), Vec::<String>::new());

    let keyed: Vec<String> = notes()
        .iter()
        .enumerate()
        .map(|(i, note)| {
            serde_json::json!({ "docId": format!("k{}", i + 1), "text": note }).to_string()
        })
        .collect();
    let path = write_jsonl(dir.path(), "keyed.jsonl", &keyed);
    let out = run(&["scan", arg(&path)], None);
    assert_eq!(pairs(&out), pair("2", "5"));
    assert_eq!(
        warnings(&out),
        [format!(
            "{} has no field named `id`, so documents are numbered by line (1, 2, …) and pairs \
             and clusters name them so; field `docId` looks like an id: pass --id-field docId to \
             use it",
            arg(&path)
        )]
    );
    let out = run(&["scan", arg(&path), "--id-field", "docId"], None);
    assert_eq!(pairs(&out), pair("k2", "k5"));
    assert_eq!(warnings(&out), Vec::<String>::new());
}

// ---------------------------------------------------------------------------------------------
// TSV names

/// `gen -o g.tsv` wrote CSV, which `scan g.tsv` read one line per field. It writes TSV now, and
/// reads back as the same corpus written as CSV.
#[test]
fn gen_writes_tsv_to_a_tsv_name_and_scan_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("g.tsv");
    let csv = dir.path().join("g.csv");
    for path in [&tsv, &csv] {
        let out = run(&["gen", "-n", "2000", "-q", "-o", arg(path)], None);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let written = std::fs::read_to_string(&tsv).unwrap();
    assert!(
        written.starts_with("id\ttext\ndoc-000001\t"),
        "{}",
        &written[..40]
    );
    assert_eq!(written.lines().count(), 2001);
    assert!(written.lines().all(|l| l.matches('\t').count() == 1));

    let from_tsv = run(&["scan", arg(&tsv)], None);
    assert_eq!(from_tsv.status.code(), Some(0));
    assert_eq!(warnings(&from_tsv), Vec::<String>::new());
    let from_csv = run(&["scan", arg(&csv), "-q"], None);
    assert!(
        stdout(&from_tsv).contains("\ndoc-"),
        "ids are the generated ones"
    );
    assert_eq!(stdout(&from_tsv), stdout(&from_csv));
}

/// `gen -o g.txt` wrote CSV, whose header `scan g.txt` read as a document. A name read as text
/// gets one text per line now (the reader numbers them); --truth, which names ids, is refused.
#[test]
fn gen_writes_text_lines_to_a_text_name() {
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("g.txt");
    let out = run(&["gen", "-n", "300", "-q", "-o", arg(&txt)], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(written.lines().count(), 300);
    assert!(!written.starts_with("id,"), "{}", &written[..40]);
    let scanned = run(&["scan", arg(&txt)], None);
    assert_eq!(scanned.status.code(), Some(0), "{}", stderr(&scanned));
    assert!(
        stderr(&scanned).contains("read 300 documents"),
        "{}",
        stderr(&scanned)
    );

    let truth = dir.path().join("t.csv");
    let refused = run(
        &["gen", "-n", "300", "-o", arg(&txt), "--truth", arg(&truth)],
        None,
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("holds no ids"),
        "{}",
        stderr(&refused)
    );
    assert!(!truth.exists());
}

/// A CSV under a `.tsv` name (as `gen` wrote before), or read with `--format tsv`, is read one
/// line per field: a warning says so and what to pass, as for stdin that looks like CSV.
#[test]
fn a_csv_read_as_tsv_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let named = write_table(dir.path(), "g.tsv", "id,text", |i, note| {
        format!("doc-{i},\"{note}\"")
    });
    let file = arg(&named);
    let out = run(&["scan", file], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        warnings(&out),
        [format!(
            "{file} is read as TSV, but its first lines hold no tab and do hold commas \
             (`id,text`): it looks like CSV, and each line is read as one field; pass --format \
             csv to read it as such"
        )]
    );
    let out = run(&["scan", file, "-q", "--format", "csv"], None);
    assert_eq!(pairs(&out), pair("doc-2", "doc-5"));
    // Naming a column stops the read before any warning: the error says it instead.
    let out = run(&["scan", file, "--text-column", "text"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "no column named `text`; columns are: id,text (only one column was found: if the \
             file is comma-separated, use --format csv)"
        ),
        "{}",
        stderr(&out)
    );
    let out = run(&["scan", file, "-q"], None);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));

    let flagged = dir.path().join("corpus.txt");
    std::fs::copy(&named, &flagged).unwrap();
    let out = run(
        &["dedup", arg(&flagged), "-t", "0.8", "--format", "tsv"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        warnings(&out)[0].starts_with(&format!("{} is read as TSV", arg(&flagged))),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------------------------------------
// Inputs without documents

/// Empty inputs still succeed (an empty shard is normal and every output is well formed), but
/// never silently.
#[test]
fn an_input_without_documents_is_warned_about_and_still_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let header = dir.path().join("header.csv");
    std::fs::write(&header, "id,text\n").unwrap();
    for (path, why) in [
        (&empty, "it is empty"),
        (&header, "it holds only a header row"),
    ] {
        let file = arg(path);
        for args in [vec!["scan", file], vec!["dedup", file, "-t", "0.8"]] {
            let out = run(&args, None);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            assert_eq!(
                warnings(&out),
                [format!("no documents in {file}: {why}")],
                "{args:?}"
            );
            let mut quiet = args.clone();
            quiet.push("-q");
            let out = run(&quiet, None);
            assert_eq!(out.status.code(), Some(0));
            assert!(stderr(&out).is_empty(), "{quiet:?}: {}", stderr(&out));
        }
    }
    let only_hidden = dir.path().join("only_hidden");
    std::fs::create_dir(&only_hidden).unwrap();
    std::fs::write(only_hidden.join(".note.txt"), "hidden").unwrap();
    let out = run(&["scan", arg(&only_hidden)], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        warnings(&out),
        [format!(
            "no documents in {}: it holds no file to read (hidden files and those ignore files \
             exclude are left out: see --hidden and --no-ignore)",
            arg(&only_hidden)
        )]
    );
    let out = run(&["scan", "-"], Some(b""));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(warnings(&out), ["no documents in <stdin>: it is empty"]);
    assert_eq!(stdout(&out), "id_a,id_b,jaccard,estimate,bands_hit\n");
}
