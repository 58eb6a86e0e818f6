//! Fuzz targets for the corpus readers and the shingler, shared by two harnesses:
//! cargo-fuzz (`fuzz/fuzz_targets/*.rs`, coverage-guided, run for millions of executions by
//! hand) and `tests/fuzz_readers.rs` (a bounded, seeded mutation loop that `cargo test` runs in
//! CI). One copy of each property, so both harnesses check the same thing.
//!
//! Every target must not panic or hang on any input. Where the input is valid by construction
//! (records written by an independent writer: the `csv` crate, `serde_json`, a plain join), the
//! documents read must equal the records written, which checks the readers' counting and
//! quoting against code that is not ours.

#![allow(dead_code)]

use std::io::Write as _;
use std::path::Path;

use arbitrary::{Arbitrary, Unstructured};
use lshscope_core::corpus::{
    Corpus, InputFormat, Quote, ReadOptions, read_corpus, read_corpus_from,
};
use lshscope_core::jobs::Progress;
use lshscope_core::text::{Profile, ShingleKind, ShingleOptions, Shingler};

fn read(bytes: &[u8], name: &str, opts: &ReadOptions) -> lshscope_core::Result<Corpus> {
    read_corpus_from(bytes, Path::new(name), opts, &Progress::new()).map(|(c, _)| c)
}

fn docs(c: &Corpus) -> Vec<(String, String)> {
    (0..c.len())
        .map(|i| (c.id(i).to_string(), c.text(i).to_string()))
        .collect()
}

/// Options the raw-bytes targets draw from the input's first bytes.
fn options(u: &mut Unstructured, format: InputFormat) -> ReadOptions {
    ReadOptions {
        format,
        has_headers: u.arbitrary().unwrap_or(true),
        quote: if u.arbitrary().unwrap_or(false) {
            Some(Quote::None)
        } else {
            Some(Quote::Double)
        },
        skip_bad: u.arbitrary().unwrap_or(false),
        limit: if u.ratio(1, 8).unwrap_or(false) {
            Some(u.int_in_range(1..=5).unwrap_or(1))
        } else {
            None
        },
        ..Default::default()
    }
}

/// Arbitrary bytes as text lines: never fails on plain text, and the documents are exactly the
/// lines (an independent count: split on `\n`, a last line without newline counts).
pub fn text_bytes(data: &[u8]) {
    let opts = ReadOptions {
        format: InputFormat::Text,
        ..Default::default()
    };
    let Ok((corpus, report)) =
        read_corpus_from(data, Path::new("fuzz.txt"), &opts, &Progress::new())
    else {
        return;
    };
    if report.compression.is_none() {
        let mut lines = data.split(|&b| b == b'\n').count();
        if data.last() == Some(&b'\n') || data.is_empty() {
            lines -= 1;
        }
        assert_eq!(corpus.len(), lines, "documents vs lines of {data:?}");
    }
}

/// Arbitrary bytes as CSV or TSV under every quoting mode: no panic, no hang.
pub fn delimited_bytes(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let tsv: bool = u.arbitrary().unwrap_or(false);
    let format = if tsv {
        InputFormat::Tsv
    } else {
        InputFormat::Csv
    };
    let opts = options(&mut u, format);
    let _ = read(
        u.take_rest(),
        if tsv { "fuzz.tsv" } else { "fuzz.csv" },
        &opts,
    );
}

/// Arbitrary bytes as JSON Lines: no panic, no hang.
pub fn jsonl_bytes(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let opts = ReadOptions {
        format: InputFormat::Jsonl,
        skip_bad: u.arbitrary().unwrap_or(false),
        ..Default::default()
    };
    let _ = read(u.take_rest(), "fuzz.jsonl", &opts);
}

#[derive(Debug, Arbitrary)]
struct Records {
    rows: Vec<(String, String)>,
}

/// Records written by the `csv` crate (RFC 4180 quoting wherever needed) read back equal with
/// `--quote double`: every comma, quote and line break inside a field survives.
pub fn csv_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(records) = Records::arbitrary(&mut u) else {
        return;
    };
    // Ids are trimmed by the reader and must not be empty to compare; texts are kept as is.
    // A `\r` before `\n` is a line ending, and NUL bytes mark a file as binary (refused): both
    // are the reader's documented rules, so the generator avoids them.
    let rows: Vec<(String, String)> = records
        .rows
        .into_iter()
        .enumerate()
        .map(|(i, (_, text))| (format!("r{i}"), text.replace(['\r', '\0'], "")))
        .collect();
    let mut out = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(Vec::new());
    out.write_record(["id", "text"]).unwrap();
    for (id, text) in &rows {
        out.write_record([id, text]).unwrap();
    }
    let bytes = out.into_inner().unwrap();
    let opts = ReadOptions {
        format: InputFormat::Csv,
        quote: Some(Quote::Double),
        ..Default::default()
    };
    let corpus = read(&bytes, "fuzz.csv", &opts).expect("valid CSV must read");
    assert_eq!(docs(&corpus), rows);
}

/// Unquoted TSV (`id<TAB>text`, fields without tabs or line breaks) read back equal with the
/// TSV default, `--quote none`: quotes anywhere in a field are literal characters.
pub fn tsv_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(records) = Records::arbitrary(&mut u) else {
        return;
    };
    let rows: Vec<(String, String)> = records
        .rows
        .into_iter()
        .enumerate()
        .map(|(i, (_, text))| {
            let text: String = text
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r' | '\0'))
                .collect();
            (format!("r{i}"), text)
        })
        .collect();
    let mut bytes = b"id\ttext\n".to_vec();
    for (id, text) in &rows {
        writeln!(bytes, "{id}\t{text}").unwrap();
    }
    let opts = ReadOptions {
        format: InputFormat::Tsv,
        ..Default::default()
    };
    let corpus = read(&bytes, "fuzz.tsv", &opts).expect("valid TSV must read");
    assert_eq!(docs(&corpus), rows);
}

/// Objects written by `serde_json` read back equal, whatever the escapes.
pub fn jsonl_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(records) = Records::arbitrary(&mut u) else {
        return;
    };
    let mut bytes = Vec::new();
    for (id, text) in &records.rows {
        serde_json::to_writer(&mut bytes, &serde_json::json!({"id": id, "text": text})).unwrap();
        bytes.push(b'\n');
    }
    let opts = ReadOptions {
        format: InputFormat::Jsonl,
        ..Default::default()
    };
    let corpus = read(&bytes, "fuzz.jsonl", &opts).expect("valid JSON Lines must read");
    let expected: Vec<(String, String)> = records.rows;
    assert_eq!(docs(&corpus), expected);
}

/// Compressed input: a valid stream of each codec decompresses to the same documents as the
/// plain bytes; arbitrary bytes behind a codec's name or magic fail cleanly.
pub fn compressed(data: &[u8]) {
    let Some((&selector, plain)) = data.split_first() else {
        return;
    };
    let opts = ReadOptions {
        format: InputFormat::Text,
        ..Default::default()
    };
    let Ok(expected) = read(plain, "fuzz.txt", &opts) else {
        return;
    };
    let (name, packed) = match selector % 5 {
        0 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(plain).unwrap();
            ("fuzz.txt.gz", e.finish().unwrap())
        }
        1 => ("fuzz.txt.zst", zstd::encode_all(plain, 1).unwrap()),
        2 => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(plain).unwrap();
            ("fuzz.txt.bz2", e.finish().unwrap())
        }
        3 => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(plain).unwrap();
            ("fuzz.txt.xz", e.finish().unwrap())
        }
        _ => {
            // Corrupt streams: each codec's name on bytes that are not that codec.
            for name in ["fuzz.txt.gz", "fuzz.txt.zst", "fuzz.txt.bz2", "fuzz.txt.xz"] {
                let _ = read(plain, name, &opts);
            }
            return;
        }
    };
    if plain.starts_with(&[0x1f, 0x8b]) || plain.starts_with(b"BZh") {
        return; // the plain bytes are themselves a compressed stream's start
    }
    let corpus = read(&packed, name, &opts).expect("a valid compressed stream must read");
    assert_eq!(docs(&corpus), docs(&expected));
}

/// A directory built from the input: up to 8 files (some hidden, some nested) of arbitrary
/// bytes. Never panics; without --skip-bad failures are errors, with it every readable
/// non-hidden file is a document.
pub fn directory(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(dir) = tempfile::tempdir() else { return };
    let count = u.int_in_range(0..=8).unwrap_or(0);
    for i in 0..count {
        let hidden: bool = u.arbitrary().unwrap_or(false);
        let nested: bool = u.arbitrary().unwrap_or(false);
        let bytes: Vec<u8> = u.arbitrary().unwrap_or_default();
        let name = format!("{}f{i}.txt", if hidden { "." } else { "" });
        let path = if nested {
            let sub = dir.path().join("sub");
            std::fs::create_dir_all(&sub).unwrap();
            sub.join(name)
        } else {
            dir.path().join(name)
        };
        std::fs::write(path, bytes).unwrap();
    }
    let opts = ReadOptions {
        skip_bad: u.arbitrary().unwrap_or(false),
        ..Default::default()
    };
    let _ = read_corpus(dir.path(), &opts, &Progress::new());
}

/// Shingler: the ASCII fast path and the general path give the same hashes, every span is a
/// non-empty range on char boundaries of the original text, and the normalized text has no
/// leading, trailing or doubled spaces.
pub fn shingler(data: &[u8]) {
    let mut u = Unstructured::new(data);
    // One input in four shingles as another tool does (`--profile`): its normalization and
    // tokenizer (spaCy's rules for datatrove) carry byte offsets through several passes.
    let profile = match u.int_in_range(0..=19).unwrap_or(0) {
        0 => Profile::Datatrove,
        1 => Profile::TextDedup,
        2 => Profile::Nemo,
        3 => Profile::Datasketch,
        4 => Profile::Spark,
        _ => Profile::Lshscope,
    };
    let word: bool = u.arbitrary().unwrap_or(false);
    let size = u.int_in_range(1..=12).unwrap_or(5);
    let kind = if word {
        ShingleKind::Word(size)
    } else {
        ShingleKind::Char(size)
    };
    let opts = if profile == Profile::Lshscope {
        ShingleOptions {
            kind,
            lowercase: u.arbitrary().unwrap_or(true),
            nfkc: u.arbitrary().unwrap_or(false),
            strip_punct: u.arbitrary().unwrap_or(false),
            ..ShingleOptions::default()
        }
    } else {
        ShingleOptions {
            kind: if profile.check_shingle(kind).is_ok() {
                kind
            } else {
                profile.default_shingle()
            },
            ..ShingleOptions::for_profile(profile)
        }
    };
    let text = String::from_utf8_lossy(u.take_rest()).into_owned();
    let mut shingler = Shingler::new(opts);
    let norm = shingler.normalize(&text).to_string();
    let mut hashes = Vec::new();
    shingler.hashes(&text, &mut hashes);
    let spans = shingler.spans(&text);
    let span_hashes: Vec<u64> = spans.iter().map(|s| s.hash).collect();
    assert_eq!(
        hashes, span_hashes,
        "fast and general paths disagree on {text:?} ({profile:?})"
    );
    for s in &spans {
        // A shingle that is only a collapsed space has an empty range: the space belongs to
        // the character that ends the whitespace run.
        assert!(s.range.start <= s.range.end && s.range.end <= text.len());
        assert!(text.is_char_boundary(s.range.start) && text.is_char_boundary(s.range.end));
    }
    if profile == Profile::Lshscope {
        // lshscope's own normalization collapses whitespace, and a text shorter than one
        // shingle is one shingle; the tools' rules differ (Spark's NGram gives none).
        assert!(!norm.starts_with(' ') && !norm.ends_with(' ') && !norm.contains("  "));
        assert_eq!(norm.is_empty(), hashes.is_empty());
    }
}

/// Arbitrary bytes as a Parquet corpus and as a Parquet pairs file: an error, never a panic
/// (the `parquet` crate panics on some corrupt pages; the readers must contain that).
pub fn parquet_bytes(data: &[u8]) {
    let opts = ReadOptions {
        format: InputFormat::Parquet,
        ..Default::default()
    };
    let _ = lshscope_core::corpus::read_parquet_bytes(
        data.to_vec(),
        Path::new("fuzz.parquet"),
        &opts,
        &Progress::new(),
    );
    let _ = lshscope_core::pairs::parquet::read_pairs_bytes(
        data.to_vec(),
        Path::new("pairs.parquet"),
        &Progress::new(),
        |_| Ok(()),
    );
}

/// Pairs written by our Parquet writer read back bit-exact, and a mutated copy of the file
/// (one byte changed, chosen by the input) is an error or a read, never a panic.
pub fn parquet_pairs_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(rows) = Vec::<(String, String, f64, f64, u16)>::arbitrary(&mut u) else {
        return;
    };
    let rows: Vec<_> = rows
        .into_iter()
        .map(|(a, b, j, e, hit)| (a, b, j, e, u32::from(hit)))
        .collect();
    let mut writer =
        lshscope_core::pairs::parquet::PairsParquetWriter::with_row_group_rows(Vec::new(), 7)
            .unwrap();
    for (a, b, j, e, hit) in &rows {
        writer.write_pair(a, b, *j, *e, *hit).unwrap();
    }
    let bytes = writer.finish().unwrap();
    let mut back = Vec::new();
    lshscope_core::pairs::parquet::read_pairs_bytes(
        bytes.clone(),
        Path::new("pairs.parquet"),
        &Progress::new(),
        |r| {
            back.push((
                r.id_a.to_string(),
                r.id_b.to_string(),
                r.jaccard.to_bits(),
                r.estimate.map(f64::to_bits),
                r.bands_hit,
            ));
            Ok(())
        },
    )
    .expect("our own Parquet must read");
    let expected: Vec<_> = rows
        .iter()
        .map(|(a, b, j, e, hit)| {
            (
                a.clone(),
                b.clone(),
                j.to_bits(),
                Some(e.to_bits()),
                Some(*hit),
            )
        })
        .collect();
    assert_eq!(back, expected);
    if let (Ok(at), Ok(flip)) = (u.choose_index(bytes.len()), u.arbitrary::<u8>()) {
        let mut bad = bytes;
        bad[at] ^= flip | 1;
        let _ = lshscope_core::pairs::parquet::read_pairs_bytes(
            bad,
            Path::new("pairs.parquet"),
            &Progress::new(),
            |_| Ok(()),
        );
    }
}
