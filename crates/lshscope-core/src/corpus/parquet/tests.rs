use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::column::writer::ColumnWriterImpl;
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::SerializedFileReader;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use super::*;

/// The report's warnings as the engine says them.
fn said(r: &ReadReport) -> Vec<String> {
    r.warnings.iter().map(ToString::to_string).collect()
}

/// One column's values for the test writer; `None` is null.
#[derive(Clone)]
enum Col {
    Bytes(Vec<Option<Vec<u8>>>),
    I64(Vec<Option<i64>>),
}

fn strs(values: &[Option<&str>]) -> Col {
    Col::Bytes(
        values
            .iter()
            .map(|o| o.map(|s| s.as_bytes().to_vec()))
            .collect(),
    )
}

fn put<T: DataType>(w: &mut ColumnWriterImpl<'_, T>, values: Vec<Option<T::T>>) {
    let nullable = w.get_descriptor().max_def_level() > 0;
    let defs: Vec<i16> = values.iter().map(|o| i16::from(o.is_some())).collect();
    let vals: Vec<T::T> = values.into_iter().flatten().collect();
    w.write_batch(&vals, nullable.then_some(&defs[..]), None)
        .unwrap();
}

/// Writes a file with `schema`, splitting the rows into groups of `group_rows` and pages of
/// 3 rows, so batches, pages and groups all have boundaries in the data.
fn write(schema: &str, cols: &[Col], group_rows: usize, codec: Compression) -> Vec<u8> {
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(codec)
            .set_data_page_row_count_limit(3)
            .set_write_batch_size(3)
            .build(),
    );
    let mut w = SerializedFileWriter::new(Vec::new(), schema, props).unwrap();
    let rows = match &cols[0] {
        Col::Bytes(v) => v.len(),
        Col::I64(v) => v.len(),
    };
    let mut start = 0;
    while start < rows {
        let end = (start + group_rows).min(rows);
        let mut g = w.next_row_group().unwrap();
        for col in cols {
            let mut cw = g.next_column().unwrap().unwrap();
            match col {
                Col::Bytes(v) => put(
                    cw.typed::<ByteArrayType>(),
                    v[start..end]
                        .iter()
                        .map(|o| o.clone().map(ByteArray::from))
                        .collect(),
                ),
                Col::I64(v) => put(cw.typed::<Int64Type>(), v[start..end].to_vec()),
            }
            cw.close().unwrap();
        }
        g.close().unwrap();
        start = end;
    }
    w.into_inner().unwrap()
}

fn read(bytes: Vec<u8>, opts: &ReadOptions) -> Result<(Corpus, ReadReport)> {
    read_parquet_bytes(bytes, Path::new("x.parquet"), opts, &Progress::new())
}

fn docs(c: &Corpus) -> Vec<(String, String)> {
    (0..c.len())
        .map(|i| (c.id(i).to_string(), c.text(i).to_string()))
        .collect()
}

fn message(r: Result<(Corpus, ReadReport)>) -> String {
    match r {
        Err(Error::Input { message, .. }) => crate::terms::render_neutral(&message),
        other => panic!("expected an input error, got {other:?}"),
    }
}

const STRING_ID_TEXT: &str = "message m {
        optional binary title (STRING);
        optional int64 id;
        optional binary text (STRING);
    }";

fn sample_columns(n: usize) -> Vec<Col> {
    let titles: Vec<Option<&str>> = (0..n).map(|_| Some("t")).collect();
    let ids: Vec<Option<i64>> = (0..n).map(|i| Some(100 + i as i64)).collect();
    let texts: Vec<Option<Vec<u8>>> = (0..n)
        .map(|i| (i % 4 != 3).then(|| format!("doc number {i}").into_bytes()))
        .collect();
    vec![strs(&titles), Col::I64(ids), Col::Bytes(texts)]
}

#[test]
fn reads_every_row_group_with_every_codec() {
    for codec in [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4_RAW,
    ] {
        // 2500 rows in groups of 700: four groups, batches of 1024 cross none of them.
        let bytes = write(STRING_ID_TEXT, &sample_columns(2500), 700, codec);
        let file_len = bytes.len() as u64;
        let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
        assert_eq!(c.len(), 2500, "{codec:?}");
        for i in 0..2500 {
            assert_eq!(c.id(i), (100 + i).to_string(), "{codec:?}");
            let want = if i % 4 == 3 {
                String::new()
            } else {
                format!("doc number {i}")
            };
            assert_eq!(c.text(i), want, "{codec:?} row {i}");
        }
        assert_eq!(
            (r.format, r.empty, r.bytes),
            (InputFormat::Parquet, 625, file_len)
        );
    }
}

#[test]
fn columns_by_name_or_index_and_row_number_ids() {
    let cols = vec![
        strs(&[Some("a"), Some("b"), Some("c")]),
        strs(&[Some("first"), None, Some("third")]),
    ];
    let bytes = write(
        "message m { required binary key (STRING); optional binary body (STRING); }",
        &cols,
        2,
        Compression::SNAPPY,
    );
    let message_text = message(read(bytes.clone(), &ReadOptions::default()));
    assert_eq!(
        message_text,
        "no column named `text`, and 2 columns could hold the text: key, body; choose one \
             with `text_column` NAME (or a 1-based index)"
    );

    let by_name = ReadOptions {
        text_column: Some(ColumnSpec::Name("body".into())),
        ..Default::default()
    };
    let (c, _) = read(bytes.clone(), &by_name).unwrap();
    let want = |ids: [&str; 3]| {
        ids.iter()
            .zip(["first", "", "third"])
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(docs(&c), want(["1", "2", "3"]));

    let by_index = ReadOptions {
        text_column: Some(ColumnSpec::Index(2)),
        id_column: Some(ColumnSpec::Index(1)),
        ..Default::default()
    };
    let (c, _) = read(bytes.clone(), &by_index).unwrap();
    assert_eq!(docs(&c), want(["a", "b", "c"]));

    // Row numbers asked for: a column named `id`, repeating here, is not read.
    let with_ids = write(
        "message m { required binary id (STRING); optional binary text (STRING); }",
        &[strs(&[Some("a"), Some("a"), Some("c")]), cols[1].clone()],
        2,
        Compression::SNAPPY,
    );
    let (c, _) = read(with_ids.clone(), &ReadOptions::default()).unwrap();
    assert_eq!(docs(&c), want(["a", "a", "c"]));
    let rows = ReadOptions {
        row_ids: true,
        ..Default::default()
    };
    let (c, r) = read(with_ids, &rows).unwrap();
    assert_eq!(docs(&c), want(["1", "2", "3"]));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);

    let out_of_range = ReadOptions {
        text_column: Some(ColumnSpec::Index(3)),
        ..Default::default()
    };
    let m = message(read(bytes, &out_of_range));
    assert!(m.contains("has 2 top-level columns"), "{m}");
}

#[test]
fn wrong_types_and_null_ids_are_explained() {
    let bytes = write(
        STRING_ID_TEXT,
        &sample_columns(5),
        10,
        Compression::UNCOMPRESSED,
    );
    let text_is_int = ReadOptions {
        text_column: Some(ColumnSpec::Name("id".into())),
        ..Default::default()
    };
    let m = message(read(bytes, &text_is_int));
    assert!(
        m.contains("column `id` is of type INT64") && m.contains("not a string"),
        "{m}"
    );

    let cols = vec![
        Col::I64(vec![Some(1), None, Some(3)]),
        strs(&[Some("x"), Some("y"), Some("z")]),
    ];
    let bytes = write(
        "message m { optional int64 id (INTEGER(64, false)); required binary text (STRING); }",
        &cols,
        2,
        Compression::SNAPPY,
    );
    let m = message(read(bytes.clone(), &ReadOptions::default()));
    assert!(
        m.contains("row 2 (row group 1)") && m.contains("`id` is null"),
        "{m}"
    );
    let skip = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read(bytes, &skip).unwrap();
    assert_eq!(
        docs(&c),
        vec![("1".into(), "x".into()), ("3".into(), "z".into())]
    );
    assert_eq!((r.skipped, r.skipped_lines), (1, vec![2]));
}

#[test]
fn binary_text_is_decoded_lossily_and_counted() {
    let cols = vec![Col::Bytes(vec![
        Some(b"ok".to_vec()),
        Some(b"bad \xFF".to_vec()),
    ])];
    let bytes = write(
        "message m { required binary text; }",
        &cols,
        10,
        Compression::SNAPPY,
    );
    let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
    assert_eq!(c.text(1), "bad \u{FFFD}");
    assert_eq!(r.lossy_utf8, 1);
}

#[test]
fn limit_and_sample_go_through_the_sink() {
    let bytes = write(
        STRING_ID_TEXT,
        &sample_columns(3000),
        1000,
        Compression::SNAPPY,
    );
    let limited = ReadOptions {
        limit: Some(1500),
        ..Default::default()
    };
    let (c, r) = read(bytes.clone(), &limited).unwrap();
    assert_eq!((c.len(), r.rows_read, c.id(1499)), (1500, 1500, "1599"));
    let sampled = ReadOptions {
        sample: Some(10),
        seed: 3,
        ..Default::default()
    };
    let (c, r) = read(bytes, &sampled).unwrap();
    assert_eq!((c.len(), r.rows_read), (10, 3000));
}

/// A page header whose statistics declare a 128 TiB value is a clean error. The `parquet`
/// crate reserves a declared binary length before reading it (parquet 60.1,
/// `ThriftReadInputProtocol::read_bytes_owned`), and no machine has 128 TiB: the process
/// would abort. It is safe only because page statistics are skipped (`read_page_stats`
/// stays off); this test fails, by aborting, if that ever changes.
#[test]
fn a_page_header_declaring_128_tib_is_an_error_not_an_abort() {
    let mut bytes = write(STRING_ID_TEXT, &sample_columns(50), 50, Compression::SNAPPY);
    let reader = SerializedFileReader::new(Bytes::from(bytes.clone())).unwrap();
    let (start, _) = reader.metadata().row_group(0).column(2).byte_range();
    // A data page header (Thrift compact) whose statistics' max value declares 2^47 bytes.
    let mut forged = vec![
        0x15, 0x00, 0x15, 0x80, 0x01, 0x15, 0x80, 0x01, 0x2c, 0x15, 0x04, 0x15, 0x00, 0x15, 0x06,
        0x15, 0x06, 0x1c, 0x18,
    ];
    forged.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
    bytes[start as usize..start as usize + forged.len()].copy_from_slice(&forged);
    let m = message(read(bytes, &ReadOptions::default()));
    assert!(
        m.contains("not a readable Parquet file (row group 1, column `text`)"),
        "{m}"
    );
}

/// A corrupt page header that makes the crate skip a forged list element by element past
/// the end of the file (1 min 45 s in a release build before) is a prompt error.
#[test]
fn a_header_skipped_past_the_end_of_the_file_is_a_prompt_error() {
    let bytes = include_bytes!("../../../../../fuzz/regressions/parquet_slow_page_header.parquet");
    let start = std::time::Instant::now();
    let m = message(read(bytes.to_vec(), &ReadOptions::default()));
    assert!(
        m.contains("not a readable Parquet file") && m.contains("past the end of the file"),
        "{m}"
    );
    // Generous for a debug build on a busy machine; without the fix it ran for minutes.
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn corrupt_files_are_errors_not_panics() {
    let m = message(read(b"id,text\n1,a\n".to_vec(), &ReadOptions::default()));
    assert!(m.contains("not a Parquet file"), "{m}");
    let m = message(read(
        zstd::encode_all(&b"PAR1"[..], 1).unwrap(),
        &ReadOptions::default(),
    ));
    assert!(m.contains("decompress the file first"), "{m}");
    let good = write(
        STRING_ID_TEXT,
        &sample_columns(300),
        100,
        Compression::SNAPPY,
    );
    // Truncations and single-byte changes everywhere: each must read or fail cleanly.
    for cut in (0..good.len()).step_by(7) {
        let _ = read(good[..cut].to_vec(), &ReadOptions::default());
    }
    // Also pyarrow's output (dictionary pages, snappy, large_string): what users have.
    let pyarrow = include_bytes!("../../../../../tests/data/notes.parquet").to_vec();
    let rounds: usize = std::env::var("LSHSCOPE_PARQUET_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3000);
    let mut rng = crate::util::rng::SplitMix64::new(1);
    let mut next = move || rng.next_u64();
    for round in 0..rounds {
        let mut bytes = if round % 2 == 0 {
            good.clone()
        } else {
            pyarrow.clone()
        };
        // One to four changed bytes per file.
        for _ in 0..=(next() % 4) {
            let at = (next() as usize) % bytes.len();
            bytes[at] = next() as u8;
        }
        let _ = read(bytes, &ReadOptions::default());
    }
}

/// The same default rules as CSV (`default_columns`): the only string column that is not
/// an id is the text, with a warning; ids are row numbers, with a warning when a column
/// looks like an id.
#[test]
fn without_a_text_column_the_only_string_column_is_read_with_a_warning() {
    let cols = vec![
        strs(&[Some("k1"), Some("k2")]),
        Col::I64(vec![Some(7), Some(8)]),
        strs(&[Some("first"), Some("second")]),
    ];
    let bytes = write(
        "message m { required binary doc_id (STRING); required int64 n; \
             optional binary body (STRING); }",
        &cols,
        10,
        Compression::SNAPPY,
    );
    let (c, r) = read(bytes.clone(), &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        vec![("1".into(), "first".into()), ("2".into(), "second".into())]
    );
    assert_eq!(
        said(&r),
        [
            "x.parquet has no column named `text`, so the text is read from column `body` \
                 (other columns: doc_id, n); name the text column with `text_column` NAME to \
                 choose another or to confirm this one",
            "x.parquet has no column named `id`, so documents are numbered by row (1, 2, …) \
                 and pairs and clusters name them so; column `doc_id` looks like an id: pass \
                 `id_column` doc_id to use it",
        ]
    );
    let named = ReadOptions {
        text_column: Some(ColumnSpec::Name("body".into())),
        id_column: Some(ColumnSpec::Name("doc_id".into())),
        ..Default::default()
    };
    let (c, r) = read(bytes, &named).unwrap();
    assert_eq!(c.id(1), "k2");
    assert!(said(&r).is_empty(), "{:?}", said(&r));

    // Only numbers: no column could hold the text.
    let bytes = write(
        "message m { required int64 n; }",
        &[Col::I64(vec![Some(1)])],
        10,
        Compression::SNAPPY,
    );
    let m = message(read(bytes, &ReadOptions::default()));
    assert!(
        m.contains("no column could hold the text (columns are: n)"),
        "{m}"
    );
}

#[test]
fn an_id_column_that_cannot_hold_ids_is_replaced_by_row_numbers_with_a_warning() {
    let cols = vec![
        Col::I64(vec![Some(1_700_000_000_000)]),
        strs(&[Some("first")]),
    ];
    let bytes = write(
        "message m { required int64 id (TIMESTAMP(MILLIS, true)); \
             required binary text (STRING); }",
        &cols,
        10,
        Compression::SNAPPY,
    );
    let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
    assert_eq!(c.id(0), "1");
    assert_eq!(said(&r).len(), 1, "{:?}", said(&r));
    assert!(
        said(&r)[0].starts_with("x.parquet: column `id` is of type INT64")
            && said(&r)[0].ends_with("documents are numbered by row (1, 2, …) instead"),
        "{:?}",
        said(&r)
    );
}

#[test]
fn a_file_without_rows_is_warned_about() {
    let bytes = write(
        "message m { required binary text (STRING); }",
        &[strs(&[])],
        10,
        Compression::SNAPPY,
    );
    let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
    assert!(c.is_empty());
    assert_eq!(
        said(&r),
        ["no documents in x.parquet: the file has no rows"]
    );
}
