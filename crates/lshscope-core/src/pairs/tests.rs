use super::*;

const COLUMNS: &[&str] = &["id_a", "id_b", "jaccard", "estimate", "bands_hit"];

fn write(format: OutputFormat) -> String {
    let mut buf = Vec::new();
    let mut w = RowWriter::new(&mut buf, format, COLUMNS, None).unwrap();
    w.write_row(&[
        Field::Str("a"),
        Field::Str("b,\"c\""),
        Field::F64(1.0),
        Field::F64(0.1 + 0.2),
        Field::U64(3),
    ])
    .unwrap();
    w.finish().unwrap();
    String::from_utf8(buf).unwrap()
}

#[test]
fn csv_quotes_only_when_needed_and_floats_round_trip() {
    assert_eq!(
        write(OutputFormat::Csv),
        "id_a,id_b,jaccard,estimate,bands_hit\na,\"b,\"\"c\"\"\",1,0.30000000000000004,3\n"
    );
}

#[test]
fn cached_floats_equal_fresh_ones() {
    let mut cache = FloatCache::new();
    let mut fresh = ryu::Buffer::new();
    let mut out = Vec::new();
    // Enough distinct values that slots are overwritten, each seen twice.
    for round in 0..2 {
        for k in 0..5000u32 {
            let v = f64::from(k) / 4999.0;
            out.clear();
            cache.push(&mut out, v);
            assert_eq!(out, format_f64(&mut fresh, v), "{v} in round {round}");
        }
    }
    out.clear();
    cache.push(&mut out, 1.0);
    assert_eq!(out, b"1");
}

#[test]
fn cached_floats_equal_fresh_ones_on_random_values() {
    // Random bit patterns (every exponent, subnormals, NaN and infinities), Jaccard-like
    // ratios and estimates k/128, through caches small enough that slots are overwritten.
    let mut rng = crate::util::rng::SplitMix64::new(41);
    let mut values: Vec<f64> = (0..20_000)
        .map(|_| f64::from_bits(rng.next_u64()))
        .collect();
    values.extend((0..20_000).map(|_| {
        let union = 1 + rng.below(2000);
        rng.below(union + 1) as f64 / union as f64
    }));
    values.extend((0..=128).map(|k| k as f64 / 128.0));
    values.extend([
        0.0,
        -0.0,
        1.0,
        1e-7,
        5e-324,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]);
    let mut fresh = ryu::Buffer::new();
    for log2 in [2, 9, 12] {
        let mut cache = FloatCache::with_slots_log2(log2);
        let mut out = Vec::new();
        for _ in 0..2 {
            for &v in &values {
                out.clear();
                cache.push(&mut out, v);
                let expected: &[u8] = if v.is_finite() {
                    format_f64(&mut fresh, v)
                } else {
                    fresh.format(v).as_bytes()
                };
                assert_eq!(out, expected, "{v:e}");
            }
        }
    }
}

/// The pair rows of the fast CSV formatter, one at a time, in batches on one thread and in
/// parallel, equal the rows the general row writer makes of the same pairs.
#[test]
fn fast_csv_pairs_equal_general_rows() {
    let mut rng = crate::util::rng::SplitMix64::new(43);
    let long = "an-id-long-enough-to-need-several-sixteen-byte-moves";
    let mut ids: Vec<String> = vec![
        String::new(),
        "a,b".into(),
        "say \"hi\"".into(),
        "line\nbreak".into(),
        "cr\rhere".into(),
        "café ½ ™".into(),
        long.into(),
        format!("{long},{long}"),
        "x".repeat(15),
        "y".repeat(16),
        "z".repeat(17),
    ];
    ids.extend((0..300).map(|i| format!("t{i:07}")));
    let corpus = Corpus::from_pairs(ids.iter().map(|id| (id.as_str(), "text")));
    let n = corpus.len() as u64;
    let floats = [0.0, 1.0, 0.5, 1e-7, 0.1 + 0.2, f64::NAN, f64::INFINITY];
    let pairs: Vec<VerifiedPair> = (0..70_000)
        .map(|i| {
            let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
            let union = 1 + rng.below(700);
            VerifiedPair {
                a: a.min(b),
                b: a.max(b),
                bands_hit: match i % 7 {
                    0 => u32::MAX,
                    1 => 9,
                    2 => 10,
                    3 => 100,
                    _ => rng.below(40) as u32,
                },
                jaccard: if i % 11 == 0 {
                    floats[i % floats.len()]
                } else {
                    rng.below(union + 1) as f64 / union as f64
                },
                estimate: if i % 13 == 0 {
                    f64::from_bits(rng.next_u64())
                } else {
                    rng.below(129) as f64 / 128.0
                },
            }
        })
        .collect();
    let mut expected = Vec::new();
    let mut rows = RowWriter::new(&mut expected, OutputFormat::Csv, PAIR_COLUMNS, None).unwrap();
    for p in &pairs {
        rows.write_row(&pair_fields(&corpus, p)).unwrap();
    }
    rows.finish().unwrap();
    let one_by_one = {
        let mut out = Vec::new();
        let mut w = PairWriter::new(&mut out, &corpus, OutputFormat::Csv, None).unwrap();
        for p in &pairs {
            w.write(p).unwrap();
        }
        w.finish().unwrap();
        out
    };
    assert!(one_by_one == expected, "row by row");
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let batched = pool.install(|| {
            let mut out = Vec::new();
            let mut w = PairWriter::new(&mut out, &corpus, OutputFormat::Csv, None).unwrap();
            for batch in [&pairs[..1], &pairs[1..40_000], &pairs[40_000..]] {
                w.write_batch(batch).unwrap();
            }
            w.finish().unwrap();
            out
        });
        assert!(batched == expected, "batches on {threads} threads");
        let mut whole = Vec::new();
        pool.install(|| {
            write_pairs(
                &mut whole,
                &corpus,
                pairs.iter(),
                OutputFormat::Csv,
                None,
                None,
            )
        })
        .unwrap();
        assert!(whole == expected, "write_pairs on {threads} threads");
    }
}

#[test]
fn jsonl_keys_follow_the_csv_columns() {
    let line = write(OutputFormat::Jsonl);
    assert_eq!(
        line,
        "{\"id_a\":\"a\",\"id_b\":\"b,\\\"c\\\"\",\"jaccard\":1,\"estimate\":0.30000000000000004,\"bands_hit\":3}\n"
    );
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["id_b"], "b,\"c\"");
}

fn read_all(text: &[u8], columns: PairColumns) -> Result<Vec<(u64, String, String, f64)>> {
    let mut out = Vec::new();
    for_each_pair_in(text, Path::new("p"), columns, |r| {
        out.push((r.line, r.id_a.into_owned(), r.id_b.into_owned(), r.jaccard));
        Ok(())
    })?;
    Ok(out)
}

const IDS: PairColumns = PairColumns {
    ids: true,
    plain_list: false,
};

#[test]
fn reads_back_what_it_writes() {
    for format in [OutputFormat::Csv, OutputFormat::Jsonl] {
        let text = write(format);
        let rows = read_all(text.as_bytes(), IDS).unwrap();
        assert_eq!(
            rows,
            vec![(
                if format == OutputFormat::Csv { 2 } else { 1 },
                "a".to_string(),
                "b,\"c\"".to_string(),
                1.0
            )],
            "{format:?}"
        );
    }
}

#[test]
fn errors_name_line_and_column() {
    let e = read_all(b"id_a,id_b,jaccard\nx,y,0.5\nx,z,half\n", IDS)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("p:3:") && e.contains("column 3 (jaccard)"),
        "{e}"
    );
    let e = read_all(
        b"{\"id_a\":\"x\",\"id_b\":\"y\",\"jaccard\":0.5}\n{\"id_a\":\"x\",",
        IDS,
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("p:2:") && e.contains("column"), "{e}");
    let e = read_all(b"{\"id_a\":\"x\",\"jaccard\":0.5}\n", IDS)
        .unwrap_err()
        .to_string();
    assert!(e.contains("id_b"), "{e}");
    let e = read_all(b"{\"id_a\":\"x\",\"id_b\":\"y\",\"jaccard\":1.5}\n", IDS)
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside"), "{e}");
    let e = read_all(b"", IDS).unwrap_err().to_string();
    assert!(e.contains("empty"), "{e}");
    let mut rows = 0;
    for_each_pair_in(&b""[..], Path::new("none.jsonl.gz"), IDS, |_| {
        rows += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(rows, 0);
}

#[test]
fn plain_lists_only_where_allowed() {
    let plain = PairColumns {
        ids: false,
        plain_list: true,
    };
    let rows = read_all(b"0.5\n\n1\n", plain).unwrap();
    assert_eq!(rows.iter().map(|r| r.3).collect::<Vec<_>>(), vec![0.5, 1.0]);
    assert!(read_all(b"0.5\n1\n", IDS).is_err());
}

#[test]
fn names_choose_format_and_compression() {
    let t = OutputTarget::new(Some(Path::new("out/pairs.JSONL.gz")));
    assert_eq!(t.compression, Compression::Gzip);
    let all = [OutputFormat::Csv, OutputFormat::Jsonl];
    assert_eq!(t.format(None, &all).unwrap(), OutputFormat::Jsonl);
    assert_eq!(
        t.format(Some(OutputFormat::Csv), &all).unwrap(),
        OutputFormat::Csv
    );
    let stdout = OutputTarget::new(Some(Path::new("-")));
    assert_eq!(stdout, OutputTarget::stdout());
    assert_eq!(stdout.format(None, &all).unwrap(), OutputFormat::Csv);
    let zst = OutputTarget::new(Some(Path::new("p.ndjson.zst")));
    assert_eq!(zst.compression, Compression::Zstd);
    assert_eq!(zst.format(None, &all).unwrap(), OutputFormat::Jsonl);
    let parquet = OutputTarget::new(Some(Path::new("p.parquet")));
    assert!(parquet.format(None, &all).is_err());
}

#[test]
fn cancelling_while_writing_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.csv.gz");
    let progress = Progress::new();
    progress.begin(crate::jobs::Phase::Writing, 1_000_000);
    let result = OutputTarget::new(Some(&path)).write(Some(&progress), |w| {
        let mut rows = RowWriter::new(w, OutputFormat::Csv, &["jaccard"], Some(&progress))?;
        for i in 0..1_000_000u64 {
            if i == 200_000 {
                progress.cancel();
            }
            rows.write_row(&[Field::U64(i)])?;
        }
        rows.finish()
    });
    assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
    let done = progress.snapshot().done;
    assert!((200_000..=300_000).contains(&done), "{done}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn compressed_files_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["p.csv.gz", "p.jsonl.zst"] {
        let path = dir.path().join(name);
        let target = OutputTarget::new(Some(&path));
        let format = target
            .format(None, &[OutputFormat::Csv, OutputFormat::Jsonl])
            .unwrap();
        target
            .write(None, |w| {
                let mut rows = RowWriter::new(w, format, &["id_a", "id_b", "jaccard"], None)?;
                rows.write_row(&[Field::Str("1"), Field::Str("2"), Field::F64(0.75)])?;
                rows.finish()
            })
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            bytes[0] == 0x1f || bytes[0] == 0x28,
            "{name} not compressed"
        );
        let mut got = Vec::new();
        for_each_pair(&path, IDS, |r| {
            got.push((r.id_a.into_owned(), r.id_b.into_owned(), r.jaccard));
            Ok(())
        })
        .unwrap();
        assert_eq!(got, vec![("1".into(), "2".into(), 0.75)], "{name}");
    }
}

#[test]
fn bzip2_and_xz_pair_files_read_like_the_corpus_readers_do() {
    use std::io::Write as _;
    let plain = b"id_a,id_b,jaccard\n1,2,0.75\n";
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(plain).unwrap();
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
    xz.write_all(plain).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("p.csv.bz2", bz.finish().unwrap()),
        ("p.csv.xz", xz.finish().unwrap()),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let mut got = Vec::new();
        for_each_pair(&path, IDS, |r| {
            got.push((r.id_a.into_owned(), r.id_b.into_owned(), r.jaccard));
            Ok(())
        })
        .unwrap();
        assert_eq!(got, vec![("1".into(), "2".into(), 0.75)], "{name}");
    }
}
