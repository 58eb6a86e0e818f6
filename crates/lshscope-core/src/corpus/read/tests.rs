use super::*;

/// The report's warnings as the engine says them.
fn said(r: &ReadReport) -> Vec<String> {
    r.warnings.iter().map(ToString::to_string).collect()
}
use crate::corpus::{ColumnSpec, LineCounts, Quote};

fn read_bytes(bytes: &[u8], name: &str, opts: &ReadOptions) -> Result<(Corpus, ReadReport)> {
    read_corpus_from(bytes, Path::new(name), opts, &Progress::new())
}

fn docs(c: &Corpus) -> Vec<(String, String)> {
    (0..c.len())
        .map(|i| (c.id(i).to_string(), c.text(i).to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn input_error(r: Result<(Corpus, ReadReport)>) -> (u64, String) {
    match r {
        Err(Error::Input { line, message, .. }) => (line, crate::terms::render_neutral(&message)),
        other => panic!("expected an input error, got {other:?}"),
    }
}

fn header_as_text_warning_of_stdin(head: &[u8]) -> Option<String> {
    header_as_text_warning(head, None)
}

#[test]
fn stdin_header_warning_needs_a_delimited_first_line_naming_text() {
    let csv = crate::terms::render_neutral(
        &header_as_text_warning_of_stdin(b"id,text\n1,first\n").unwrap(),
    );
    assert_eq!(
        csv,
        "stdin looks like CSV with a header (`id,text`); it is read as plain text, one \
             document per line: pass `format` csv (or tsv) to read its columns"
    );
    let tsv = crate::terms::render_neutral(
        &header_as_text_warning_of_stdin(b"\xEF\xBB\xBFdoc_id\tTEXT\r\n1\ta\n").unwrap(),
    );
    assert!(
        tsv.contains("TSV with a header (`doc_id\\tTEXT`)") && tsv.contains("`format` tsv"),
        "{tsv}"
    );
    assert!(header_as_text_warning_of_stdin(b"\"id\",\"Text\"").is_some());
    for plain in [
        &b"text\nmore\n"[..],
        b"a text, or two\nid,text\n",
        b"id,body\n",
        b"",
    ] {
        assert_eq!(header_as_text_warning_of_stdin(plain), None, "{plain:?}");
    }
}

/// A CSV under a name that names no format (`export.data`, a gzip without an inner extension)
/// is read as text lines, as documented, but not silently: the header gets the warning stdin
/// gets, which `--strict` turns into a stop.
#[test]
fn a_table_under_a_name_without_a_format_is_read_as_text_with_a_warning() {
    let csv = b"id,text\n1,first document\n2,second document\n";
    for name in ["export.data", "dump", "jobs.gz.bak"] {
        let (corpus, report) = read_bytes(csv, name, &ReadOptions::default()).unwrap();
        assert_eq!(report.format, InputFormat::Text, "{name}");
        assert_eq!(
            corpus.len(),
            3,
            "every line is a document, the header too: {name}"
        );
        assert_eq!(
            said(&report),
            vec![format!(
                "{name} looks like CSV with a header (`id,text`), but its name says no format, \
                 so it is read as plain text, one document per line: pass `format` csv (or tsv) \
                 to read its columns, or name the file .csv"
            )],
            "{name}"
        );
    }
    // Compressed: the check reads the decompressed head.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, b"id\ttext\n1\ta tab separated row\n").unwrap();
    let gz = gz.finish().unwrap();
    let (_, report) = read_bytes(&gz, "export.bin", &ReadOptions::default()).unwrap();
    assert!(
        said(&report)[0].contains("looks like TSV") && said(&report)[0].ends_with(".tsv.gz"),
        "{:?}",
        said(&report)
    );
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    assert!(read_bytes(csv, "export.data", &strict).is_err());
    // Named formats and plain text lines are read without it.
    for (bytes, name) in [
        (&csv[..], "export.csv"),
        (b"a line of text, with a comma\nanother\n", "notes.txt"),
        (b"id,body\n1,x\n", "export.data"),
    ] {
        let (_, report) = read_bytes(bytes, name, &ReadOptions::default()).unwrap();
        assert!(said(&report).is_empty(), "{name}: {:?}", said(&report));
    }
    let text = ReadOptions {
        format: InputFormat::Text,
        ..ReadOptions::default()
    };
    let (_, report) = read_bytes(csv, "export.data", &text).unwrap();
    assert!(
        said(&report).is_empty(),
        "asked for text lines: {:?}",
        said(&report)
    );
}

#[test]
fn format_from_extension() {
    let f = |p: &str| detect_format(Path::new(p));
    assert_eq!(f("a.csv"), InputFormat::Csv);
    assert_eq!(f("a.CSV.gz"), InputFormat::Csv);
    assert_eq!(f("dir.v2/a.tsv.zst"), InputFormat::Tsv);
    assert_eq!(f("a.tab"), InputFormat::Tsv);
    assert_eq!(f("a.jsonl"), InputFormat::Jsonl);
    assert_eq!(f("a.ndjson.gz"), InputFormat::Jsonl);
    assert_eq!(f("hf/train-00000-of-00002.parquet"), InputFormat::Parquet);
    assert_eq!(f("a.txt"), InputFormat::Text);
    assert_eq!(f("a.json"), InputFormat::Text);
    assert_eq!(f("notes"), InputFormat::Text);
    assert_eq!(f("a.gz"), InputFormat::Text);
    assert_eq!(f("<stdin>"), InputFormat::Text);
}

#[test]
fn text_lines_strip_crlf_and_bom_and_keep_empty_lines() {
    let (c, r) = read_bytes(
        b"\xEF\xBB\xBFfirst\r\n\r\n  \nlast",
        "x.txt",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("1", "first"), ("2", ""), ("3", "  "), ("4", "last")])
    );
    assert_eq!((r.documents, r.empty, r.format), (4, 2, InputFormat::Text));
    assert_eq!(r.bytes, 19);
}

#[test]
fn invalid_utf8_is_decoded_lossily_and_counted() {
    let (c, r) = read_bytes(b"ok\nbad \xFF byte\n", "x.txt", &ReadOptions::default()).unwrap();
    assert_eq!(c.text(1), "bad \u{FFFD} byte");
    assert_eq!(r.lossy_utf8, 1);
    // The warning names the first such document, so it can be found, and what to do.
    assert_eq!(
        said(&r),
        [
            "x.txt: 1 document has bytes that are not valid UTF-8 (first id: 2), read with each \
          such byte as U+FFFD; re-encode the file as UTF-8 (from Latin-1: `iconv -f latin1 -t \
          utf-8`) to shingle the text it holds"
        ]
    );
    // Several, in CSV, and through a sample: the first kept, in input order.
    let csv = b"id,text\na,fine\nb,caf\xE9\nc,fine too\nd,na\xEFve\n";
    let (_, r) = read_bytes(csv, "x.csv", &ReadOptions::default()).unwrap();
    assert!(
        said(&r)[0]
            .starts_with("x.csv: 2 documents have bytes that are not valid UTF-8 (first id: b)"),
        "{:?}",
        said(&r)
    );
    let sample = ReadOptions {
        sample: Some(4),
        ..ReadOptions::default()
    };
    let (_, r) = read_bytes(csv, "x.csv", &sample).unwrap();
    assert!(said(&r)[0].contains("2 documents have"), "{:?}", said(&r));
    assert!(said(&r)[0].contains("(first id: b)"), "{:?}", said(&r));
    // Valid input says nothing of the kind.
    let (_, r) = read_bytes(b"ok\nfine\n", "x.txt", &ReadOptions::default()).unwrap();
    assert!(said(&r).is_empty(), "{:?}", said(&r));
}

#[test]
fn csv_defaults_to_text_and_id_columns_by_name() {
    let input = b"title,Text,id\nt1,\"one, with comma\",a\nt2,\"two\nlines\",b\n";
    let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("a", "one, with comma"), ("b", "two\nlines")])
    );
    assert_eq!(r.format, InputFormat::Csv);
}

#[test]
fn row_ids_name_documents_by_row_whatever_the_input_holds() {
    let rows = ReadOptions {
        row_ids: true,
        ..ReadOptions::default()
    };
    let numbered = pairs(&[("1", "first"), ("2", "second")]);
    // A CSV id column (repeating here) is not read, nor taken for the text, and nothing warns.
    for csv in [
        &b"id,text\na,first\na,second\n"[..],
        b"id,body\na,first\na,second\n",
        b"doc_id,text\na,first\na,second\n",
    ] {
        let (c, r) = read_bytes(csv, "x.csv", &rows).unwrap();
        assert_eq!(docs(&c), numbered);
        assert_eq!(r.duplicate_ids, 0);
        assert!(
            said(&r).iter().all(|w| !w.contains("looks like an id")),
            "{:?}",
            said(&r)
        );
    }
    // Headerless `id<TAB>text`, read as an id and a text by default.
    let headerless = ReadOptions {
        has_headers: false,
        ..ReadOptions::default()
    };
    let tsv = b"a\tfirst\nb\tsecond\n";
    let (c, _) = read_bytes(tsv, "x.tsv", &headerless).unwrap();
    assert_eq!(docs(&c), pairs(&[("a", "first"), ("b", "second")]));
    let (c, _) = read_bytes(
        tsv,
        "x.tsv",
        &ReadOptions {
            row_ids: true,
            ..headerless
        },
    )
    .unwrap();
    assert_eq!(docs(&c), numbered);
    // JSON Lines with an id field on some lines only (an error without row ids).
    let jsonl = b"{\"id\": \"a\", \"text\": \"first\"}\n{\"text\": \"second\"}\n";
    let (c, _) = read_bytes(jsonl, "x.jsonl", &rows).unwrap();
    assert_eq!(docs(&c), numbered);
    assert!(read_bytes(jsonl, "x.jsonl", &ReadOptions::default()).is_err());
    // Not with an id column or field, and not for input named by line or path.
    for opts in [
        ReadOptions {
            id_column: Some(ColumnSpec::Name("id".into())),
            ..rows.clone()
        },
        ReadOptions {
            id_field: Some("id".into()),
            ..rows.clone()
        },
    ] {
        let err = read_bytes(b"id,text\na,first\n", "x.csv", &opts).unwrap_err();
        assert!(
            err.to_string().contains("`row_ids` names documents by row"),
            "{err}"
        );
    }
    let err = read_bytes(b"first\nsecond\n", "x.txt", &rows).unwrap_err();
    assert!(
        err.to_string()
            .contains("`row_ids` applies only to CSV/TSV, JSON Lines or Parquet"),
        "{err}"
    );
}

#[test]
fn csv_without_a_text_column_takes_the_only_candidate_or_refuses_to_guess() {
    let defaults = ReadOptions::default();
    // `id,body,url`: body or url? The last column (url) was taken silently before.
    let (line, message) = input_error(read_bytes(
        b"id,body,url\n1,first,http://a\n",
        "x.csv",
        &defaults,
    ));
    assert_eq!(line, 1);
    assert!(
        message.starts_with(
            "no column named `text`, and 2 columns could hold the text: body, url (the id is \
                 column `id`); choose one with `text_column` NAME"
        ),
        "{message}"
    );
    let (line, _) = input_error(read_bytes(b"x,y\n1,first\n", "x.csv", &defaults));
    assert_eq!(line, 1);

    // `doc_id,body`: body is the only column that does not look like an id.
    let (c, r) = read_bytes(b"doc_id,body\nd1,first\nd2,second\n", "x.csv", &defaults).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
    assert_eq!(
        said(&r),
        [
            "x.csv has no column named `text`, so the text is read from column `body` (other \
                 columns: doc_id); name the text column with `text_column` NAME to choose \
                 another or to confirm this one",
            "x.csv has no column named `id`, so documents are numbered by row (1, 2, …) and \
                 pairs and clusters name them so; column `doc_id` looks like an id: pass \
                 `id_column` doc_id to use it",
        ]
    );
    // Naming the columns silences both.
    let named = ReadOptions {
        text_column: Some(ColumnSpec::Name("body".into())),
        id_column: Some(ColumnSpec::Name("doc_id".into())),
        ..Default::default()
    };
    let (c, r) = read_bytes(b"doc_id,body\nd1,first\n", "x.csv", &named).unwrap();
    assert_eq!(docs(&c), pairs(&[("d1", "first")]));
    assert!(said(&r).is_empty(), "{:?}", said(&r));
    // `body,id`: the id column is never the text, wherever it stands.
    let (c, r) = read_bytes(b"body,id\nfirst,a\n", "x.csv", &defaults).unwrap();
    assert_eq!(docs(&c), pairs(&[("a", "first")]));
    assert_eq!(said(&r).len(), 1, "{:?}", said(&r));
    // A `text` column and no id-like column: nothing to warn about.
    let (_, r) = read_bytes(b"title,text\nt,first\n", "x.csv", &defaults).unwrap();
    assert!(said(&r).is_empty(), "{:?}", said(&r));
}

#[test]
fn csv_without_a_header_reads_two_columns_as_id_and_text_quietly() {
    let opts = ReadOptions {
        has_headers: false,
        ..Default::default()
    };
    // Two columns: `id,text` without the header (the ids used to become row numbers).
    let (c, r) = read_bytes(b"k1,first\nk2,second\n", "x.csv", &opts).unwrap();
    assert_eq!(docs(&c), pairs(&[("k1", "first"), ("k2", "second")]));
    assert!(said(&r).is_empty(), "{:?}", said(&r));
    assert_eq!(r.lines.header, 0);
    // Other counts: the last column, row numbers.
    let (c, r) = read_bytes(b"k1,t,first\nk2,u,second\n", "x.csv", &opts).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
    assert!(said(&r).is_empty(), "{:?}", said(&r));
    let (c, _) = read_bytes(b"first\nsecond\n", "x.csv", &opts).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
    // Given columns win; the text in column 1 leaves no column for the id.
    let (c, _) = read_bytes(
        b"k1,first\nk2,second\n",
        "x.csv",
        &ReadOptions {
            text_column: Some(ColumnSpec::Index(1)),
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "k1"), ("2", "k2")]));
    let (c, _) = read_bytes(
        b"first,k1\nsecond,k2\n",
        "x.csv",
        &ReadOptions {
            id_column: Some(ColumnSpec::Index(2)),
            text_column: Some(ColumnSpec::Index(1)),
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(docs(&c), pairs(&[("k1", "first"), ("k2", "second")]));
}

/// `id<TAB>text` dumps whose first document would be taken for column names.
#[test]
fn a_first_row_that_cannot_be_a_header_is_read_as_data_with_a_note() {
    let long = "Senior data engineer wanted for a growing logistics team; ".repeat(5);
    let tsv = format!("101\t{long}\n102\tsecond ad\n");
    let (c, r) = read_bytes(tsv.as_bytes(), "ads.tsv", &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("101", long.as_str()), ("102", "second ad")])
    );
    assert_eq!(r.lines.header, 0);
    assert_eq!(
        said(&r),
        [format!(
            "ads.tsv: the first row does not look like a header (field 2 is {} characters \
                 long), so it is read as data and the file as having no header row: column 2 \
                 of 2 is the text, column 1 is the id; pass `has_headers = false` to say so, or, if that \
                 row is a header, name the text column with `text_column` NAME",
            long.trim().chars().count()
        )]
    );
    // `has_headers = false` reads it the same, with nothing to note.
    let no_headers = ReadOptions {
        has_headers: false,
        ..Default::default()
    };
    let (c2, r2) = read_bytes(tsv.as_bytes(), "ads.tsv", &no_headers).unwrap();
    assert_eq!(docs(&c2), docs(&c));
    assert!(said(&r2).is_empty(), "{:?}", said(&r2));
    // The same in CSV, with quoting; a short number-led first row is data too.
    let csv = b"7,\"Refund not received, order 55\"\n8,Where is my parcel\n";
    let (c, r) = read_bytes(csv, "q.csv", &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[
            ("7", "Refund not received, order 55"),
            ("8", "Where is my parcel")
        ])
    );
    assert!(
        said(&r)[0].contains("(field 1 is a number and field 2 has several words)"),
        "{:?}",
        said(&r)
    );
    // One column of prose: numbered by row.
    let (c, r) = read_bytes(
        format!("{long}\nshort\n").as_bytes(),
        "p.tsv",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(c.id(0), "1");
    assert!(
        said(&r)[0].contains("its one column is the text, documents are numbered by row"),
        "{:?}",
        said(&r)
    );
    // A column named on the command line says there is a header: no sniffing.
    let named = ReadOptions {
        text_column: Some(ColumnSpec::Name("body".into())),
        ..Default::default()
    };
    let (line, message) = input_error(read_bytes(tsv.as_bytes(), "ads.tsv", &named));
    assert_eq!(line, 1);
    assert!(message.contains("no column named `body`"), "{message}");
    assert!(message.ends_with("pass `has_headers = false`"), "{message}");
}

/// A short first document looks like a header: it is taken for one, as before, and the
/// error says how to read the file without.
#[test]
fn a_short_first_document_is_a_header_and_the_error_names_no_headers() {
    let input = b"a1\tHello there\na2\tGood morning\n";
    let (line, message) = input_error(read_bytes(input, "x.tsv", &ReadOptions::default()));
    assert_eq!(line, 1);
    assert!(
        message.starts_with(
            "no column named `text`, and 2 columns could hold the text: a1, \
                 Hello there"
        ) && message.ends_with(
            "if the file has no header row (its first row is a document), pass \
                     `has_headers = false`"
        ),
        "{message}"
    );
    let opts = ReadOptions {
        has_headers: false,
        ..Default::default()
    };
    let (c, _) = read_bytes(input, "x.tsv", &opts).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("a1", "Hello there"), ("a2", "Good morning")])
    );
    // Real headers are untouched.
    for (input, name) in [
        (&b"id,text\n1,a b c\n"[..], "x.csv"),
        (b"doc_id\tcontent\nd1\tfirst words here\n", "x.tsv"),
        (b"text\nfirst words here\n", "x.tsv"),
    ] {
        let (_, r) = read_bytes(input, name, &ReadOptions::default()).unwrap();
        assert_eq!(r.lines.header, 1, "{name}");
        assert!(
            said(&r).iter().all(|w| !w.contains("look like a header")),
            "{:?}",
            said(&r)
        );
    }
}

/// A document of megabytes taken for a header must not be quoted whole.
#[test]
fn messages_quote_at_most_a_hundred_characters_of_the_input() {
    let huge = "z".repeat(3_000_000);
    // Under a column name the sniff is off: the error lists the columns, shortened.
    let opts = ReadOptions {
        text_column: Some(ColumnSpec::Name("body".into())),
        ..Default::default()
    };
    let (_, message) = input_error(read_bytes(
        format!("{huge},{huge}\n1,2\n").as_bytes(),
        "x.csv",
        &opts,
    ));
    assert!(message.len() < 1_000, "{} bytes", message.len());
    assert!(
        message.contains(&format!("{}…", "z".repeat(100))),
        "{message}"
    );
    // Text after a closing quote.
    let (_, message) = input_error(read_bytes(
        format!("id,text\n1,\"a\"{huge}\n").as_bytes(),
        "x.csv",
        &ReadOptions::default(),
    ));
    assert!(message.len() < 1_000, "{} bytes", message.len());
    // Repeated ids kept as examples.
    let (_, r) = read_bytes(
        format!("id\ttext\n{huge}\ta\n{huge}\tb\n").as_bytes(),
        "x.tsv",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(r.duplicate_id_examples, [format!("{}…", "z".repeat(100))]);
}

#[test]
fn csv_ragged_row_reports_the_physical_line() {
    // The first data row spans lines 2-3, so the ragged row is on line 5, not row 4.
    let input = b"id,text\na,\"two\nlines\"\nb,ok\nc,too,many\nd,fine\n";
    let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
    assert_eq!(line, 5);
    assert!(
        message.contains("3 fields but the header has 2"),
        "{message}"
    );
    assert!(message.contains("`skip_bad`"), "{message}");

    let opts = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("a", "two\nlines"), ("b", "ok"), ("d", "fine")])
    );
    assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![5]));
}

#[test]
fn csv_missing_column_lists_the_columns() {
    let opts = ReadOptions {
        text_column: Some(ColumnSpec::Name("body".into())),
        ..Default::default()
    };
    let (line, message) = input_error(read_bytes(b"id,title,text\n1,a,b\n", "x.csv", &opts));
    assert_eq!(line, 1);
    assert!(
        message.contains("no column named `body`; columns are: id, title, text"),
        "{message}"
    );
    assert!(message.contains("`text_column`"), "{message}");
}

#[test]
fn tsv_uses_tabs() {
    let (c, _) = read_bytes(b"id\ttext\n7\ta, b, c\n", "x.tsv", &ReadOptions::default()).unwrap();
    assert_eq!(docs(&c), pairs(&[("7", "a, b, c")]));
}

#[test]
fn jsonl_fields_ids_blank_lines_and_escapes() {
    let input = concat!(
        "{\"id\": 17, \"text\": \"plain\", \"other\": [1, {\"x\": null}]}\n",
        "\n",
        "{\"text\": \"esc\\u00e9 \\\"q\\\"\", \"id\": 2.5}\n",
        "{\"id\": \"s-1\", \"text\": null}\r\n",
    );
    let (c, r) = read_bytes(input.as_bytes(), "x.jsonl", &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("17", "plain"), ("2.5", "esc\u{e9} \"q\""), ("s-1", "")])
    );
    assert_eq!((r.documents, r.empty), (3, 1));
}

#[test]
fn jsonl_errors_name_the_line() {
    let opts = ReadOptions::default();
    let (line, message) = input_error(read_bytes(
        b"{\"text\": \"a\"}\n{\"text\": 5}\n",
        "x.jsonl",
        &opts,
    ));
    assert_eq!(line, 2);
    assert!(
        message.contains("expected a string in field `text`"),
        "{message}"
    );

    let (line, message) = input_error(read_bytes(b"{\"text\": \"a\"}\n[1, 2]\n", "x.jsonl", &opts));
    assert_eq!(line, 2);
    assert!(message.contains("a JSON object"), "{message}");

    let (line, message) = input_error(read_bytes(
        b"{\"body\": \"a\", \"n\": 1}\n",
        "x.jsonl",
        &opts,
    ));
    assert_eq!(line, 1);
    assert!(
        message.contains("no field `text`") && message.contains("body, n"),
        "{message}"
    );

    let explicit = ReadOptions {
        id_field: Some("key".into()),
        ..Default::default()
    };
    let (line, message) = input_error(read_bytes(
        b"{\"key\": 1, \"text\": \"a\"}\n{\"text\": \"b\"}\n",
        "x.jsonl",
        &explicit,
    ));
    assert_eq!(line, 2);
    assert!(message.contains("no field `key`"), "{message}");
}

#[test]
fn limit_applies_before_sample() {
    let input: String = (1..=100).map(|i| format!("doc {i}\n")).collect();
    let limited = ReadOptions {
        limit: Some(10),
        ..Default::default()
    };
    let (c, r) = read_bytes(input.as_bytes(), "x.txt", &limited).unwrap();
    assert_eq!((c.len(), c.id(9), r.rows_read), (10, "10", 10));

    let both = ReadOptions {
        limit: Some(10),
        sample: Some(4),
        seed: 9,
        ..Default::default()
    };
    let (c, r) = read_bytes(input.as_bytes(), "x.txt", &both).unwrap();
    assert_eq!((c.len(), r.rows_read, r.documents), (4, 10, 4));
    let ids: Vec<u32> = (0..c.len()).map(|i| c.id(i).parse().unwrap()).collect();
    assert!(ids.iter().all(|&i| i <= 10), "{ids:?}");
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "input order: {ids:?}");
    for i in 0..c.len() {
        assert_eq!(c.text(i), format!("doc {}", c.id(i)));
    }
}

#[test]
fn compressed_streams_are_recognised_by_magic() {
    use std::io::Write;
    let plain = b"id,text\n1,hello there\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(plain).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(&plain[..], 1).unwrap();
    for (bytes, kind) in [(gz, "gzip"), (zst, "zstd")] {
        let (c, r) = read_bytes(&bytes, "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "hello there")]), "{kind}");
        assert_eq!(r.compression, Some(kind));
        assert_eq!(r.bytes, plain.len() as u64);
    }
}

#[test]
fn zero_limit_or_sample_is_a_usage_error() {
    for opts in [
        ReadOptions {
            limit: Some(0),
            ..Default::default()
        },
        ReadOptions {
            sample: Some(0),
            ..Default::default()
        },
    ] {
        assert!(matches!(
            read_bytes(b"a\n", "x.txt", &opts),
            Err(Error::Usage(_))
        ));
    }
}

#[test]
fn tsv_quotes_are_ordinary_characters_by_default() {
    // Texts that start (and some that end) with a quote, as in unquoted dumps.
    let mut input = String::from("id\ttext\n");
    let n = 500;
    for i in 0..n {
        match i % 3 {
            0 => input.push_str(&format!("{i}\t\"quoted start of text {i}\n")),
            1 => input.push_str(&format!("{i}\t\"fully quoted {i}\"\n")),
            _ => input.push_str(&format!("{i}\tplain \"inner\" {i}\n")),
        }
    }
    let (c, r) = read_bytes(input.as_bytes(), "x.tsv", &ReadOptions::default()).unwrap();
    assert_eq!(c.len(), n);
    assert_eq!(c.text(0), "\"quoted start of text 0");
    assert_eq!(c.text(1), "\"fully quoted 1\"");
    assert_eq!(c.text(2), "plain \"inner\" 2");
    assert_eq!(
        r.lines,
        LineCounts {
            physical: n as u64 + 1,
            header: 1,
            blank: 0,
            continuation: 0
        }
    );
}

/// A TSV quoted as Python's csv module and pandas write it, read with TSV's default (no
/// quoting): not silently. Texts mostly wrapped in quotes get a warning (a stop under
/// `--strict`); a quoted text with a line break, which splits into a short row, gets an error
/// that says to read the quotes as quoting before it offers to skip the row.
#[test]
fn a_quoted_tsv_read_unquoted_says_to_pass_quote_double() {
    let mut wrapped = String::from("id\ttext\n");
    for i in 0..20 {
        wrapped.push_str(&format!("d{i}\t\"fox \"\"q{i}\"\" item\"\n"));
    }
    let (corpus, report) =
        read_bytes(wrapped.as_bytes(), "py.tsv", &ReadOptions::default()).unwrap();
    assert_eq!(corpus.text(0), "\"fox \"\"q0\"\" item\"", "read as written");
    assert_eq!(
        said(&report),
        vec![
            "py.tsv: 20 of 20 texts begin and end with `\"`, and the file is read without \
             quoting, so the quotes are part of the texts: it looks quoted (Python's csv module \
             and pandas quote TSV so); pass `quote` double to read them as quoting"
                .to_string()
        ]
    );
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    assert!(read_bytes(wrapped.as_bytes(), "py.tsv", &strict).is_err());
    let double = ReadOptions {
        quote: Some(Quote::Double),
        ..ReadOptions::default()
    };
    let (corpus, report) = read_bytes(wrapped.as_bytes(), "py.tsv", &double).unwrap();
    assert_eq!(corpus.text(0), "fox \"q0\" item");
    assert!(said(&report).is_empty(), "{:?}", said(&report));

    let mut broken = wrapped.clone();
    broken.push_str("x\t\"multi\nline\"\n");
    let (line, message) = input_error(read_bytes(
        broken.as_bytes(),
        "py.tsv",
        &ReadOptions::default(),
    ));
    assert_eq!(line, 23);
    assert!(
        message.contains(
            "row has 1 field but the header has 2; fields of this file begin with `\"`: if it \
             quotes its fields (Python's csv module and pandas quote TSV so), pass `quote` \
             double; else fix the row, or pass `skip_bad` to skip such rows"
        ),
        "{message}"
    );
    // A minority of texts in quotes is an unquoted dump's ordinary text: no warning, and a
    // short row without any quote gets the plain advice.
    let mut dump = String::from("id\ttext\n1\t\"a quoted line\"\n");
    for i in 2..10 {
        dump.push_str(&format!("{i}\tplain text {i}\n"));
    }
    let (_, report) = read_bytes(dump.as_bytes(), "dump.tsv", &ReadOptions::default()).unwrap();
    assert!(said(&report).is_empty(), "{:?}", said(&report));
    let (_, message) = input_error(read_bytes(
        b"id\ttext\n1\tone\n2\n",
        "short.tsv",
        &ReadOptions::default(),
    ));
    assert!(!message.contains("quote"), "{message}");
}

#[test]
fn tsv_with_double_quotes_unescapes() {
    let opts = ReadOptions {
        quote: Some(Quote::Double),
        ..Default::default()
    };
    let (c, r) = read_bytes(b"id\ttext\n1\t\"a\tb\"\"c\nd\"\n", "x.tsv", &opts).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "a\tb\"c\nd")]));
    assert_eq!((r.lines.physical, r.lines.continuation), (3, 1));
}

#[test]
fn csv_quoting_keeps_crlf_and_counts_lines() {
    let input = b"id,text\r\n\r\na,\"x\r\ny\"\r\nb,\"\"\"q\"\" end\"\r\nc,plain\r\n";
    let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("a", "x\r\ny"), ("b", "\"q\" end"), ("c", "plain")])
    );
    assert_eq!(
        r.lines,
        LineCounts {
            physical: 6,
            header: 1,
            blank: 1,
            continuation: 1
        }
    );
    let l = r.lines;
    assert_eq!(
        l.physical,
        l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
    );
}

#[test]
fn csv_quote_open_at_end_names_its_line() {
    let input = b"id,text\na,fine\nb,\"never closed\nc,swallowed\nd,too\n";
    let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
    assert_eq!(line, 3);
    assert!(message.contains("still open at the end"), "{message}");
    assert!(message.contains("`quote` none"), "{message}");

    let opts = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("a", "fine"), ("c", "swallowed"), ("d", "too")])
    );
    assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![3]));
    assert_eq!(r.lines.physical, 5);

    let none = ReadOptions {
        quote: Some(Quote::None),
        ..Default::default()
    };
    let (c, _) = read_bytes(input, "x.csv", &none).unwrap();
    assert_eq!(c.text(1), "\"never closed");
    assert_eq!(c.len(), 4);
}

#[test]
fn text_after_a_closing_quote_is_a_bad_row_naming_line_and_column() {
    let opts = ReadOptions::default();
    for (input, line, column, stray) in [
        (&b"id,text\n1,\"abc\"def\n"[..], 2, 8, "`def`"),
        (
            b"id,text\n1,ok\n2,\"say \"\"hi\"\" now\" later\n",
            3,
            19,
            "` later`",
        ),
        // Columns count characters; the text shown stops at the next delimiter.
        (
            b"id,text,x\n\"\xC3\xA9\"\xC3\xA9t\xC3\xA9,b,c\n",
            2,
            4,
            "`\u{e9}t\u{e9}`",
        ),
        // A bad header row has its own message: see `delimited::tests`.
    ] {
        let Err(Error::Input {
            line: l,
            column: c,
            message,
            ..
        }) = read_bytes(input, "x.csv", &opts)
        else {
            panic!("{input:?} should be an input error");
        };
        let message = crate::terms::render_neutral(&message);
        assert_eq!((l, c), (line, Some(column)), "{message}");
        assert!(
            message.starts_with("text follows the closing quote of a quoted field: ")
                && message.contains(stray),
            "{message}"
        );
        assert!(
            message.contains("`quote` none") && message.contains("`skip_bad`"),
            "{message}"
        );
    }
    // TSV with `quote` double follows the same rule.
    let tsv = ReadOptions {
        quote: Some(Quote::Double),
        ..Default::default()
    };
    let (line, message) = input_error(read_bytes(b"id\ttext\n1\t\"a\"b\n", "x.tsv", &tsv));
    assert_eq!(line, 2);
    assert!(message.contains("`b`"), "{message}");
}

#[test]
fn a_closing_quote_may_be_followed_only_by_a_delimiter_a_quote_or_the_line_end() {
    let input = b"id,text,n\r\n\"a\",\"\",x\r\n\"b\",\"q \"\"x\"\"\",\"\"\r\nc,in \"the\" middle,\"\"\"\"\n";
    let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
    assert_eq!(
        docs(&c),
        pairs(&[("a", ""), ("b", "q \"x\""), ("c", "in \"the\" middle")])
    );
    assert_eq!(r.skipped, 0);
    // Quotes inside an unquoted field stay ordinary characters.
    let (c, _) = read_bytes(b"id,text\n1,ab\"c\"d\n", "x.csv", &ReadOptions::default()).unwrap();
    assert_eq!(c.text(0), "ab\"c\"d");
}

#[test]
fn text_after_a_quote_is_skipped_and_counted_under_skip_bad() {
    let input = b"id,text\n1,\"abc\"def\n2,fine\n3,\"say \"\"hi\"\" now\" later\n4,\"also fine\"\n";
    let opts = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
    assert_eq!(docs(&c), pairs(&[("2", "fine"), ("4", "also fine")]));
    assert_eq!((r.skipped, r.skipped_lines.clone()), (2, vec![2, 4]));
    let l = r.lines;
    assert_eq!(
        l.physical,
        l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
    );
    // Read without quoting, every row is kept as written.
    let none = ReadOptions {
        quote: Some(Quote::None),
        ..Default::default()
    };
    let (c, _) = read_bytes(input, "x.csv", &none).unwrap();
    assert_eq!(c.text(0), "\"abc\"def");
    assert_eq!(c.text(2), "\"say \"\"hi\"\" now\" later");
}

#[test]
fn a_stray_quote_closed_on_a_later_line_is_reported_and_its_lines_read_again() {
    let input = b"id,text\na,\"one\nb,\"two\nc,three\nd,\"four\"\"\n";
    // The quote of line 3 closes the field opened on line 2, and `two` follows it.
    let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
    assert_eq!(line, 3);
    assert!(
        message.contains("quoted field opened on line 2: `two`"),
        "{message}"
    );

    let opts = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
    // Line 2 is skipped and line 3 read again: its quote closes on line 5 before `four`,
    // so it is skipped too and lines 4 and 5 read again; line 5, `d,"four""`, never
    // closes.
    assert_eq!(docs(&c), pairs(&[("c", "three")]));
    assert_eq!(r.skipped_lines, vec![2, 3, 5]);
    assert_eq!(r.lines.physical, 5);
    let l = r.lines;
    assert_eq!(
        l.physical,
        l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
    );
}

#[test]
fn csv_quote_spanning_too_many_lines_is_bounded() {
    let mut input = String::from("id,text\n1,\"runaway\n");
    let n = super::super::MAX_QUOTED_LINES as usize + 50;
    for i in 0..n {
        input.push_str(&format!("{},line {i}\n", i + 2));
    }
    input.push_str("last,\"closes here\"\n");
    let (line, message) = input_error(read_bytes(
        input.as_bytes(),
        "x.csv",
        &ReadOptions::default(),
    ));
    assert_eq!(line, 2);
    assert!(message.contains("spans more than 10000 lines"), "{message}");
    let opts = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(input.as_bytes(), "x.csv", &opts).unwrap();
    assert_eq!(c.len(), n + 1);
    assert_eq!(c.text(c.len() - 1), "closes here");
    assert_eq!(r.skipped_lines, vec![2]);
    assert_eq!(r.lines.physical, n as u64 + 3);
}

#[test]
fn repeated_ids_are_counted() {
    let input = b"id,text\na,1\nb,2\na,3\nc,4\na,5\nb,6\n";
    let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
    assert_eq!(c.len(), 6);
    assert_eq!(r.duplicate_ids, 3);
    assert_eq!(
        r.duplicate_id_examples,
        vec!["a".to_string(), "b".to_string()]
    );
    let (_, r) = read_bytes(b"x\ny\n", "x.txt", &ReadOptions::default()).unwrap();
    assert_eq!(r.duplicate_ids, 0);
}

#[test]
fn jsonl_blank_lines_are_counted() {
    let (_, r) = read_bytes(
        b"{\"text\": \"a\"}\n\n  \n{\"text\": \"b\"}\n",
        "x.jsonl",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!((r.lines.physical, r.lines.blank, r.documents), (4, 2, 2));
}

/// Lines 1, 2 and 4 have ids: line 3 must too, or its line number could collide with one
/// (here `"id": 3` on line 4).
const ONE_LINE_WITHOUT_ID: &[u8] = b"{\"id\": 1, \"text\": \"a\"}\n{\"id\": 2, \"text\": \"b\"}\n\
        {\"text\": \"c\", \"n\": 0}\n{\"id\": 3, \"text\": \"d\"}\n";

#[test]
fn jsonl_line_without_the_id_among_lines_with_ids_is_a_bad_row() {
    let (line, message) = input_error(read_bytes(
        ONE_LINE_WITHOUT_ID,
        "x.jsonl",
        &ReadOptions::default(),
    ));
    assert_eq!(line, 3);
    assert_eq!(
        message,
        "no field `id` on this line (its fields are: n, text), but line 1 has one: with its \
             line number as id it could collide with the id of another line; add the id to every \
             line, or pass `skip_bad` to skip lines without one"
    );
    let skip = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(ONE_LINE_WITHOUT_ID, "x.jsonl", &skip).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "a"), ("2", "b"), ("3", "d")]));
    assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![3]));
    assert_eq!(r.duplicate_ids, 0);
    // A null id is no id, and the message says the field is there but null.
    let null = b"{\"id\": 1, \"text\": \"a\"}\n{\"id\": null, \"text\": \"b\"}\n";
    let (line, message) = input_error(read_bytes(null, "x.jsonl", &ReadOptions::default()));
    assert_eq!(line, 2);
    assert_eq!(
        message,
        "field `id` is null on this line, but line 1 has an id: with its line number as id it \
         could collide with the id of another line; add the id to every line, or pass \
         `skip_bad` to skip lines without one"
    );
}

/// A line whose id field is `null` is told apart from a line without the field, wherever the
/// reader speaks of it: before the first id, under `--id-field`, and when no line has an id.
#[test]
fn jsonl_null_ids_are_called_null() {
    // Numbered by line before line 2 showed the file has ids.
    let before = b"{\"id\": null, \"text\": \"a\"}\n{\"id\": \"b\", \"text\": \"b\"}\n";
    let (line, message) = input_error(read_bytes(before, "x.jsonl", &ReadOptions::default()));
    assert_eq!(line, 1);
    assert!(
        message.starts_with("field `id` is null on this line, but line 2 has an id:"),
        "{message}"
    );
    // The id field named: a null in it is not a missing field.
    let one = b"{\"id\": null, \"text\": \"p q\"}\n";
    let named = ReadOptions {
        id_field: Some("id".into()),
        ..ReadOptions::default()
    };
    let (line, message) = input_error(read_bytes(one, "x.jsonl", &named));
    assert_eq!(line, 1);
    assert_eq!(
        message,
        "field `id` (the `id_field`) is null on this line; fill in the id, choose another \
         `id_field` (without it the line number is the id), or pass `skip_bad`"
    );
    // No line has an id: numbered by line, and the warning neither says the file has no field
    // `id` nor suggests naming a field whose value is null.
    let (c, r) = read_bytes(one, "x.jsonl", &ReadOptions::default()).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "p q")]));
    assert_eq!(
        said(&r),
        [
            "x.jsonl: field `id` is null on every line that has it (first: line 1), so documents \
          are numbered by line (1, 2, …) and pairs and clusters name them so; fill in the ids, \
          or pass `row_ids` to number the documents by line"
        ]
    );
    let other_null = b"{\"doc_id\": null, \"text\": \"p q\"}\n";
    let (_, r) = read_bytes(other_null, "x.jsonl", &ReadOptions::default()).unwrap();
    assert!(said(&r).is_empty(), "{:?}", said(&r));
    // A field with a value that looks like an id is still suggested.
    let other = b"{\"id\": null, \"doc_id\": 7, \"text\": \"p q\"}\n";
    let (_, r) = read_bytes(other, "x.jsonl", &ReadOptions::default()).unwrap();
    assert!(
        said(&r)[0].ends_with("field `doc_id` looks like an id: pass `id_field` doc_id to use it"),
        "{:?}",
        said(&r)
    );
    // A null text is an empty document, as an empty string is.
    let text_null = b"{\"id\": \"a\", \"text\": null}\n{\"id\": \"b\", \"text\": \"\"}\n";
    let (c, r) = read_bytes(text_null, "x.jsonl", &ReadOptions::default()).unwrap();
    assert_eq!(docs(&c), pairs(&[("a", ""), ("b", "")]));
    assert_eq!(r.empty, 2);
}

#[test]
fn jsonl_lines_numbered_before_the_first_id_are_bad_rows_too() {
    let input = b"{\"text\": \"a\"}\n\n{\"text\": \"b\"}\n{\"id\": 1, \"text\": \"c\"}\n\
            {\"text\": \"d\"}\n{\"id\": 2, \"text\": \"e\"}\n";
    // The first line without an id is the one reported.
    let (line, message) = input_error(read_bytes(input, "x.jsonl", &ReadOptions::default()));
    assert_eq!(line, 1);
    assert!(
        message.starts_with(
            "no field `id` on this line (its fields are: text), but line 4 \
                 has one"
        ),
        "{message}"
    );
    let skip = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (c, r) = read_bytes(input, "x.jsonl", &skip).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "c"), ("2", "e")]));
    assert_eq!((r.skipped, r.skipped_lines.clone()), (3, vec![1, 3, 5]));
    assert_eq!((r.rows_read, r.lines.blank, r.lines.physical), (2, 1, 6));
    // The documents taken back free their places under `limit`.
    let limited = ReadOptions {
        limit: Some(3),
        ..skip.clone()
    };
    let (c, _) = read_bytes(input, "x.jsonl", &limited).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "c"), ("2", "e")]));
    // A limit reached before any line had an id: the lines read have none, and are
    // numbered by line as in a file without ids.
    let (c, r) = read_bytes(
        input,
        "x.jsonl",
        &ReadOptions {
            limit: Some(2),
            ..skip.clone()
        },
    )
    .unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "a"), ("3", "b")]));
    assert_eq!(r.skipped, 0);
    // A sample draws among the documents kept, as if the others had never been read.
    let sampled = |input: &[u8]| {
        let opts = ReadOptions {
            sample: Some(3),
            seed: 5,
            ..skip.clone()
        };
        docs(&read_bytes(input, "x.jsonl", &opts).unwrap().0)
    };
    let with_ids: String = (1..=40)
        .map(|i| format!("{{\"id\": {i}, \"text\": \"t{i}\"}}\n"))
        .collect();
    let preceded = format!("{{\"text\": \"x\"}}\n{{\"text\": \"y\"}}\n{with_ids}");
    assert_eq!(sampled(preceded.as_bytes()), sampled(with_ids.as_bytes()));
}

#[test]
fn jsonl_without_any_id_is_numbered_by_line_and_says_so_when_a_field_looks_like_one() {
    let plain = b"{\"text\": \"a\"}\n{\"text\": \"b\"}\n";
    let (c, r) = read_bytes(plain, "x.jsonl", &ReadOptions::default()).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "a"), ("2", "b")]));
    assert!(said(&r).is_empty(), "{:?}", said(&r));

    let doc_ids = b"{\"doc_id\": \"k1\", \"text\": \"a\"}\n{\"doc_id\": \"k2\", \"text\": \"b\"}\n";
    let (c, r) = read_bytes(doc_ids, "x.jsonl", &ReadOptions::default()).unwrap();
    assert_eq!(docs(&c), pairs(&[("1", "a"), ("2", "b")]));
    assert_eq!(
        said(&r),
        [
            "x.jsonl has no field named `id`, so documents are numbered by line (1, 2, …) and \
              pairs and clusters name them so; field `doc_id` looks like an id: pass `id_field` \
              doc_id to use it"
        ]
    );
    let named = ReadOptions {
        id_field: Some("doc_id".into()),
        ..Default::default()
    };
    let (c, r) = read_bytes(doc_ids, "x.jsonl", &named).unwrap();
    assert_eq!(docs(&c), pairs(&[("k1", "a"), ("k2", "b")]));
    assert!(said(&r).is_empty(), "{:?}", said(&r));
}

#[test]
fn a_file_read_as_tsv_that_holds_csv_is_warned_about() {
    let csv = b"id,text\ndoc-1,first, with a comma\ndoc-2,second\n";
    let (c, r) = read_bytes(csv, "g.tsv", &ReadOptions::default()).unwrap();
    assert_eq!(c.text(0), "doc-1,first, with a comma");
    // One warning: the column warnings would only repeat it.
    assert_eq!(
        said(&r),
        [
            "g.tsv is read as TSV, but its first lines hold no tab and do hold commas \
              (`id,text`): it looks like CSV, and each line is read as one field; pass `format` \
              csv to read it as such"
        ]
    );
    // The same through `format` tsv, and the mirror case.
    let tsv = ReadOptions {
        format: InputFormat::Tsv,
        ..Default::default()
    };
    let (_, r) = read_bytes(csv, "corpus.txt", &tsv).unwrap();
    assert!(
        said(&r)[0].starts_with("corpus.txt is read as TSV"),
        "{:?}",
        said(&r)
    );
    let (_, r) = read_bytes(b"id\ttext\n1\ta\n", "x.csv", &ReadOptions::default()).unwrap();
    assert!(
        said(&r)[0].contains(
            "hold no comma and do hold tabs (`id\\ttext`): it looks like \
                 TSV"
        ) && said(&r)[0].ends_with("pass `format` tsv to read it as such"),
        "{:?}",
        said(&r)
    );
    // JSON Lines under a TSV name.
    let (_, r) = read_bytes(
        b"{\"id\":1,\"text\":\"a\"}\n",
        "x.tsv",
        &ReadOptions::default(),
    )
    .unwrap();
    assert!(
        said(&r)[0].contains("pass `format` jsonl"),
        "{:?}",
        said(&r)
    );
}

#[test]
fn other_delimiter_warning_needs_no_delimiter_in_the_first_lines() {
    let name = Path::new("x.tsv");
    // A one-column TSV of prose: its header holds no comma.
    assert_eq!(other_delimiter_warning(b"text\na, b\n", name, b'\t'), None);
    // A tab on a later line among the first: a real TSV with an odd header.
    assert_eq!(other_delimiter_warning(b"a,b\n1\t2\n", name, b'\t'), None);
    assert_eq!(other_delimiter_warning(b"", name, b'\t'), None);
    assert!(other_delimiter_warning(b"\xEF\xBB\xBF\n\na,b\r\n1,2\r\n", name, b'\t').is_some());
}

#[test]
fn an_input_without_documents_is_warned_about() {
    let defaults = ReadOptions::default();
    for (input, name, why) in [
        (&b""[..], "x.txt", "it is empty"),
        (b"", "x.csv", "it is empty"),
        (b"id,text\n", "x.csv", "it holds only a header row"),
        (b"id,text\n\n\n", "x.csv", "it holds only a header row"),
        (b"\n  \n", "x.jsonl", "it holds only blank lines"),
    ] {
        let (c, r) = read_bytes(input, name, &defaults).unwrap();
        assert!(c.is_empty());
        assert_eq!(said(&r), [format!("no documents in {name}: {why}")]);
    }
    let skip = ReadOptions {
        skip_bad: true,
        ..Default::default()
    };
    let (_, r) = read_bytes(b"id,text\n1,a,b\n2,c,d\n", "x.csv", &skip).unwrap();
    assert_eq!(
        said(&r),
        ["no documents in x.csv: all 2 rows were malformed and skipped (`skip_bad`)"]
    );
    // A text file of one blank line has one (empty) document.
    let (_, r) = read_bytes(b"\n", "x.txt", &defaults).unwrap();
    assert!(said(&r).is_empty(), "{:?}", said(&r));
}

#[test]
fn options_for_another_format_name_the_formats_they_apply_to() {
    let usage =
        |opts: ReadOptions, format: InputFormat| match check_format_options(&opts, format, false) {
            Err(Error::Usage(message)) => crate::terms::render_neutral(&message),
            other => panic!("expected a usage error, got {other:?}"),
        };
    let id_field = ReadOptions {
        id_field: Some("k".into()),
        ..Default::default()
    };
    assert_eq!(
        usage(id_field.clone(), InputFormat::Text),
        "`id_field` applies only to JSON Lines, but the input is read as text lines (one \
             document per line); remove it or choose the right `format`"
    );
    assert_eq!(
        usage(id_field, InputFormat::Parquet),
        "`id_field` applies only to JSON Lines (use `text_column`/`id_column` here), but the \
             input is read as Parquet; remove it or choose the right `format`"
    );
    let mixed = ReadOptions {
        id_column: Some(ColumnSpec::Index(1)),
        quote: Some(Quote::None),
        text_field: Some("body".into()),
        ..Default::default()
    };
    assert_eq!(
        usage(mixed.clone(), InputFormat::Text),
        "`id_column` applies only to CSV/TSV or Parquet; `quote` only to CSV/TSV; \
             `text_field` only to JSON Lines, but the input is read as text lines (one document \
             per line); remove them or choose the right `format`"
    );
    assert_eq!(
        usage(mixed, InputFormat::Jsonl),
        "`id_column` applies only to CSV/TSV or Parquet (use `text_field`/`id_field` here); \
             `quote` only to CSV/TSV, but the input is read as JSON Lines; remove them or choose \
             the right `format`"
    );
}

#[test]
fn strict_stops_where_the_read_would_warn() {
    let strict = ReadOptions {
        strict: true,
        ..Default::default()
    };
    let stopped = |input: &[u8], name: &str| match read_bytes(input, name, &strict) {
        Err(e @ Error::Usage(_)) => e.to_string(),
        other => panic!("{name}: expected a usage error, got {other:?}"),
    };
    // Each kind of warning stops it, quoted whole, with `strict` named.
    assert_eq!(
        stopped(b"", "x.csv"),
        "no documents in x.csv: it is empty; `strict` stops here"
    );
    let lossy = stopped(b"id,text\n1,caf\xe9\n2,tea\n", "x.csv");
    assert!(
        lossy.starts_with("x.csv: 1 document has bytes that are not valid UTF-8 (first id: 1)"),
        "{lossy}"
    );
    // Repeated ids are counted, not judged: the face knows whether its output names ids.
    let (_, r) = read_bytes(b"id,text\na,1\nb,2\na,3\nb,4\n", "x.csv", &strict).unwrap();
    assert_eq!(r.duplicate_ids, 2);
    // A column taken by default and ids numbered by row: two warnings, the second counted.
    let guessed = stopped(b"doc_id,body\n1,a b c\n", "x.csv");
    assert_eq!(
        read_bytes(b"doc_id,body\n1,a b c\n", "x.csv", &ReadOptions::default())
            .map(|(_, r)| r.warnings.len())
            .unwrap(),
        2
    );
    assert!(
        guessed.ends_with(
            "; `strict` stops here (1 more thing would have been a warning without `strict`)"
        ),
        "{guessed}"
    );
    // What reads without a warning reads the same under `strict`.
    let clean = b"id,text\na,one two\nb,three four\n";
    let (c, r) = read_bytes(clean, "x.csv", &strict).unwrap();
    let (c0, r0) = read_bytes(clean, "x.csv", &ReadOptions::default()).unwrap();
    assert_eq!((docs(&c), r.warnings.len()), (docs(&c0), r0.warnings.len()));
    assert!(r.warnings.is_empty());
}

#[test]
fn keep_lines_gives_each_document_the_line_its_row_starts_on() {
    let keep = ReadOptions {
        keep_lines: true,
        ..ReadOptions::default()
    };
    // A header, a blank line and a row over two lines all shift the rows below them.
    let csv = b"id,text\na,one\n\nb,\"two\nlines\"\nc,three\n";
    let (c, r) = read_bytes(csv, "x.csv", &keep).unwrap();
    assert_eq!(c.len(), 3);
    assert_eq!(r.document_lines, [2, 4, 6]);
    let jsonl = b"{\"id\":\"a\",\"text\":\"x\"}\n\n{\"id\":\"b\",\"text\":\"y\"}\n";
    let (_, r) = read_bytes(jsonl, "x.jsonl", &keep).unwrap();
    assert_eq!(r.document_lines, [1, 3]);
    let (_, r) = read_bytes(b"one\ntwo\n", "x.txt", &keep).unwrap();
    assert_eq!(r.document_lines, [1, 2]);
    // A sample keeps the lines of the documents it keeps, in input order.
    let sampled = ReadOptions {
        sample: Some(2),
        seed: 5,
        ..keep.clone()
    };
    let (c, r) = read_bytes(csv, "x.csv", &sampled).unwrap();
    let expected: Vec<u64> = (0..c.len())
        .map(|i| match c.id(i) {
            "a" => 2,
            "b" => 4,
            _ => 6,
        })
        .collect();
    assert_eq!(r.document_lines, expected);
    // Not asked for, not kept.
    let (_, r) = read_bytes(csv, "x.csv", &ReadOptions::default()).unwrap();
    assert!(r.document_lines.is_empty());
}
