//! Independent count check for the delimited readers: files written here with a known number
//! of rows and quotes in every awkward place read back as exactly those rows and texts.

use std::fmt::Write as _;
use std::path::Path;

use lshscope_core::corpus::{Quote, ReadOptions, read_corpus};
use lshscope_core::jobs::Progress;

/// Texts with quotes at the start, the end, doubled, alone, and beside the delimiter.
fn awkward_text(i: usize) -> String {
    let pieces = ["\"", "\"\"", "say \"x\"", "'", "\" ,", "end\""];
    let mut text = String::new();
    for k in 0..(i % 5 + 1) {
        text.push_str(pieces[(i + k * 7) % pieces.len()]);
        let _ = write!(text, "w{}", i * 31 + k);
    }
    text
}

#[test]
fn tsv_rows_with_quotes_everywhere_read_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quotes.tsv");
    let n = 20_000;
    let mut body = String::from("id\ttext\n");
    for i in 0..n {
        let _ = writeln!(body, "id{i}\t{}", awkward_text(i));
    }
    std::fs::write(&path, &body).unwrap();
    let (corpus, report) = read_corpus(&path, &ReadOptions::default(), &Progress::new()).unwrap();
    assert_eq!(corpus.len(), n);
    assert_eq!(report.lines.physical, n as u64 + 1);
    for i in (0..n).step_by(97) {
        assert_eq!(corpus.id(i), format!("id{i}"));
        assert_eq!(corpus.text(i), awkward_text(i));
    }
    assert_eq!(report.duplicate_ids, 0);
}

#[test]
fn csv_rows_quoted_rfc4180_read_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quotes.csv");
    let n = 5_000;
    let mut body = String::from("id,text\n");
    for i in 0..n {
        let mut text = awkward_text(i);
        if i % 10 == 0 {
            text.push_str("\nsecond line");
        }
        let _ = writeln!(body, "{i},\"{}\"", text.replace('"', "\"\""));
    }
    std::fs::write(&path, &body).unwrap();
    let (corpus, report) = read_corpus(&path, &ReadOptions::default(), &Progress::new()).unwrap();
    assert_eq!(corpus.len(), n);
    assert_eq!(report.lines.continuation, n as u64 / 10);
    for i in (0..n).step_by(13) {
        let mut text = awkward_text(i);
        if i % 10 == 0 {
            text.push_str("\nsecond line");
        }
        assert_eq!(corpus.text(i), text);
    }
    // Read without quoting the same file is still n + n/10 rows' worth of lines, but the
    // multi-line rows now break the field count.
    let none = ReadOptions {
        quote: Some(Quote::None),
        ..Default::default()
    };
    assert!(read_corpus(Path::new(&path), &none, &Progress::new()).is_err());
}

/// Rows with text after a closing quote, among good rows (some of them multi-line): each bad
/// row is skipped and counted under `--skip-bad` at its own line, every good row reads back
/// exactly, and every physical line is accounted for.
#[test]
fn csv_rows_with_text_after_a_closing_quote_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("glued.csv");
    let n = 3_000;
    let mut body = String::from("id,text\n");
    let mut line = 2u64;
    let mut bad_lines = Vec::new();
    let mut good = Vec::new();
    for i in 0..n {
        let text = awkward_text(i);
        let quoted = text.replace('"', "\"\"");
        if i % 7 == 3 {
            bad_lines.push(line);
            let _ = writeln!(body, "{i},\"{quoted}\"{}", ["x", " ", "\"", "tail"][i % 4]);
        } else if i % 11 == 0 {
            let _ = writeln!(body, "{i},\"{quoted}\nsecond line\"");
            good.push((i.to_string(), format!("{text}\nsecond line")));
            line += 1;
        } else {
            let _ = writeln!(body, "{i},\"{quoted}\"");
            good.push((i.to_string(), text));
        }
        line += 1;
    }
    std::fs::write(&path, &body).unwrap();
    let opts = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (corpus, report) = read_corpus(&path, &opts, &Progress::new()).unwrap();
    let read: Vec<(String, String)> = (0..corpus.len())
        .map(|i| (corpus.id(i).to_string(), corpus.text(i).to_string()))
        .collect();
    assert_eq!(read, good);
    assert_eq!(report.skipped, bad_lines.len());
    assert_eq!(report.skipped_lines, bad_lines[..10]);
    let l = report.lines;
    assert_eq!(l.physical, line - 1);
    assert_eq!(
        l.physical,
        l.header + l.blank + l.continuation + report.rows_read as u64 + report.skipped as u64
    );
    // Without --skip-bad the first one stops the read.
    assert!(read_corpus(&path, &ReadOptions::default(), &Progress::new()).is_err());
}
