//! Importing another tool's result (`lshscope_core::analysis::import`): pairs and clusters files in
//! CSV, JSON Lines, Parquet and a directory of Parquet part files; columns detected or named;
//! unknown ids; exact Jaccard and spanning trees against brute force.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lshscope_core::Error;
use lshscope_core::analysis::clusters::{AuditLimits, audit};
use lshscope_core::analysis::import::{
    ImportOptions, TableFormat, UnknownIds, import_clusters, import_pairs, pair_components,
    read_pairs, spanning_tree,
};
use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Index, IndexOptions, build_index};
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// Families of edited sentences, so pairs span a range of Jaccards, and a chain.
fn corpus() -> Corpus {
    let base = [
        "the river runs past the mill and under the stone bridge before it reaches the sea",
        "our garden has three apple trees a pear tree and a row of gooseberry bushes by the wall",
        "the library opens at nine on weekdays and closes early on saturdays during the summer",
    ];
    let mut docs: Vec<(String, String)> = Vec::new();
    for (f, text) in base.iter().enumerate() {
        let words: Vec<&str> = text.split(' ').collect();
        for v in 0..4 {
            // Variant v replaces v words near the end: similarity falls with v.
            let edited: Vec<String> = words
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    if i + v >= words.len() && v > 0 {
                        format!("{w}{v}x")
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            docs.push((format!("f{f}-v{v}"), edited.join(" ")));
        }
    }
    // A chain: c0 ~ c1 ~ c2, but c0 and c2 share little.
    docs.push((
        "c0".into(),
        "alpha beta gamma delta epsilon zeta eta theta".into(),
    ));
    docs.push((
        "c1".into(),
        "epsilon zeta eta theta iota kappa lambda mu".into(),
    ));
    docs.push(("c2".into(), "iota kappa lambda mu nu xi omicron pi".into()));
    docs.push((
        "42".into(),
        "a document whose id is a number, as integer id columns write".into(),
    ));
    Corpus::from_pairs(docs)
}

fn index(corpus: &Corpus) -> Index {
    build_index(corpus, &IndexOptions::default(), &Progress::new()).unwrap()
}

fn pos(corpus: &Corpus, id: &str) -> u32 {
    corpus.position_of(id).unwrap() as u32
}

/// Jaccard by hash sets, independent of the merge the engine uses.
fn brute_jaccard(index: &Index, a: u32, b: u32) -> f64 {
    let x: HashSet<u64> = index.sets.get(a as usize).iter().copied().collect();
    let y: HashSet<u64> = index.sets.get(b as usize).iter().copied().collect();
    let union = x.union(&y).count();
    if union == 0 {
        return 0.0;
    }
    x.intersection(&y).count() as f64 / union as f64
}

/// The rows every pairs format below holds: two pairs, one reversed copy, one repeat, one
/// self pair, one with an integer id.
const PAIR_ROWS: &[(&str, &str)] = &[
    ("f0-v0", "f0-v1"),
    ("f1-v2", "f1-v0"),
    ("f0-v1", "f0-v0"),
    ("f1-v0", "f1-v2"),
    ("c1", "c1"),
    ("42", "c0"),
];

fn expected_pairs(corpus: &Corpus) -> Vec<(u32, u32)> {
    let mut want: BTreeSet<(u32, u32)> = BTreeSet::new();
    for &(a, b) in PAIR_ROWS {
        let (a, b) = (pos(corpus, a), pos(corpus, b));
        if a != b {
            want.insert((a.min(b), a.max(b)));
        }
    }
    want.into_iter().collect()
}

fn csv_text(header: &str, rows: &[(&str, &str)]) -> String {
    let mut s = format!("{header}\n");
    for (a, b) in rows {
        s.push_str(&format!("{a},{b},0.9\n"));
    }
    s
}

/// A Parquet file of string columns at `paths` (dotted: nested optional groups).
fn write_parquet(path: &Path, schema: &str, columns: &[Vec<Option<String>>], max_defs: &[i16]) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = SerializedFileWriter::new(
        file,
        Arc::new(parse_message_type(schema).unwrap()),
        Default::default(),
    )
    .unwrap();
    let mut g = w.next_row_group().unwrap();
    for (values, &max_def) in columns.iter().zip(max_defs) {
        let mut c = g.next_column().unwrap().unwrap();
        let present: Vec<ByteArray> = values
            .iter()
            .flatten()
            .map(|s| ByteArray::from(s.as_str()))
            .collect();
        let defs: Vec<i16> = values
            .iter()
            .map(|v| if v.is_some() { max_def } else { 0 })
            .collect();
        c.typed::<ByteArrayType>()
            .write_batch(&present, (max_def > 0).then_some(&defs[..]), None)
            .unwrap();
        c.close().unwrap();
    }
    g.close().unwrap();
    w.close().unwrap();
}

fn strings(rows: &[(&str, &str)], k: usize) -> Vec<Option<String>> {
    rows.iter()
        .map(|r| Some(if k == 0 { r.0 } else { r.1 }.to_string()))
        .collect()
}

fn read(
    path: &Path,
    corpus: &Corpus,
    columns: Option<[&str; 2]>,
) -> lshscope_core::Result<Vec<(u32, u32)>> {
    let options = ImportOptions {
        columns: columns.map(|c| [c[0].to_string(), c[1].to_string()]),
        unknown: UnknownIds::Error,
    };
    let (pairs, report) = read_pairs(path, corpus, &options, &Progress::new())?;
    assert_eq!(report.rows, PAIR_ROWS.len() as u64);
    assert_eq!(report.self_pairs, 1);
    assert_eq!(report.duplicate_pairs, 2, "a reversed copy and a repeat");
    Ok(pairs.iter().map(|p| (p.a, p.b)).collect())
}

#[test]
fn pairs_are_read_from_each_format_with_detected_columns() {
    let corpus = corpus();
    let want = expected_pairs(&corpus);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // CSV as lshscope writes it, and as pandas writes id1/id2.
    let csv = d.join("pairs.csv");
    std::fs::write(&csv, csv_text("id_a,id_b,jaccard", PAIR_ROWS)).unwrap();
    assert_eq!(read(&csv, &corpus, None).unwrap(), want);
    let csv2 = d.join("pairs2.csv");
    std::fs::write(&csv2, csv_text("id1,id2,score", PAIR_ROWS)).unwrap();
    assert_eq!(read(&csv2, &corpus, None).unwrap(), want);

    // JSON Lines with NeMo Curator's edge names; the integer id written as a number.
    let jsonl = d.join("edges.jsonl");
    let mut text = String::new();
    for (a, b) in PAIR_ROWS {
        let json = |s: &str| {
            if s.parse::<i64>().is_ok() {
                s.to_string()
            } else {
                format!("\"{s}\"")
            }
        };
        text.push_str(&format!(
            "{{\"id_x\": {}, \"id_y\": {}, \"jaccard\": 1.0}}\n\n",
            json(a),
            json(b)
        ));
    }
    std::fs::write(&jsonl, text).unwrap();
    assert_eq!(read(&jsonl, &corpus, None).unwrap(), want);

    // Parquet as a Spark join writes it without flattening: datasetA.id, datasetB.id.
    let spark = "message spark_schema {
        optional group datasetA { optional binary id (STRING); }
        optional group datasetB { optional binary id (STRING); }
    }";
    let parquet = d.join("join.parquet");
    write_parquet(
        &parquet,
        spark,
        &[strings(PAIR_ROWS, 0), strings(PAIR_ROWS, 1)],
        &[2, 2],
    );
    assert_eq!(read(&parquet, &corpus, None).unwrap(), want);

    // A directory of part files, with the bookkeeping files Spark leaves beside them.
    let parts = d.join("join_dir");
    std::fs::create_dir(&parts).unwrap();
    let (first, second) = PAIR_ROWS.split_at(2);
    write_parquet(
        &parts.join("part-00000-abc.snappy.parquet"),
        spark,
        &[strings(first, 0), strings(first, 1)],
        &[2, 2],
    );
    write_parquet(
        &parts.join("part-00001-abc.snappy.parquet"),
        spark,
        &[strings(second, 0), strings(second, 1)],
        &[2, 2],
    );
    std::fs::write(parts.join("_SUCCESS"), "").unwrap();
    std::fs::write(parts.join(".part-00000-abc.snappy.parquet.crc"), "crc").unwrap();
    let options = ImportOptions::default();
    let (got, report) = read_pairs(&parts, &corpus, &options, &Progress::new()).unwrap();
    assert_eq!(got.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>(), want);
    assert_eq!(report.format, Some(TableFormat::Directory));
    assert_eq!(report.files, 2);
    assert_eq!(
        report.columns,
        ["datasetA.id".to_string(), "datasetB.id".to_string()]
    );

    // A directory of CSV parts, one of them empty (a task that found nothing).
    let csv_parts = d.join("csv_parts");
    std::fs::create_dir(&csv_parts).unwrap();
    std::fs::write(
        csv_parts.join("part-0.csv"),
        csv_text("id_a,id_b,score", first),
    )
    .unwrap();
    std::fs::write(
        csv_parts.join("part-1.csv"),
        csv_text("id_a,id_b,score", second),
    )
    .unwrap();
    std::fs::write(csv_parts.join("part-2.csv"), "").unwrap();
    assert_eq!(read(&csv_parts, &corpus, None).unwrap(), want);
}

#[test]
fn named_columns_are_read_and_missing_ones_explained() {
    let corpus = corpus();
    let want = expected_pairs(&corpus);
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("custom.csv");
    std::fs::write(&csv, csv_text("left,right,weight", PAIR_ROWS)).unwrap();
    assert_eq!(read(&csv, &corpus, Some(["left", "right"])).unwrap(), want);
    // Undetectable names: the message lists the file's columns and the option.
    match read_pairs(&csv, &corpus, &ImportOptions::default(), &Progress::new()) {
        Err(Error::Input { message, line, .. }) => {
            assert_eq!(line, 1);
            let message = lshscope_core::terms::render_neutral(&message);
            assert!(
                message.contains("left, right, weight") || message.contains("left,right,weight"),
                "{message}"
            );
            assert!(message.contains("`pair_columns` A,B"), "{message}");
        }
        other => panic!("expected an input error, got {other:?}"),
    }
    // Named columns absent from a Parquet file.
    let parquet = dir.path().join("p.parquet");
    write_parquet(
        &parquet,
        "message m { required binary a (STRING); required binary b (STRING); }",
        &[strings(PAIR_ROWS, 0), strings(PAIR_ROWS, 1)],
        &[0, 0],
    );
    assert_eq!(read(&parquet, &corpus, Some(["a", "b"])).unwrap(), want);
    let err = read(&parquet, &corpus, Some(["id_a", "b"]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("p.parquet") && err.contains("columns are: a, b"),
        "{err}"
    );
    // A JSON Lines key named with dots reaches into nested objects.
    let jsonl = dir.path().join("nested.jsonl");
    std::fs::write(
        &jsonl,
        "{\"l\": {\"doc\": \"f0-v0\"}, \"r\": {\"doc\": \"f0-v1\"}}\n",
    )
    .unwrap();
    let options = ImportOptions {
        columns: Some(["l.doc".into(), "r.doc".into()]),
        unknown: UnknownIds::Error,
    };
    let (pairs, _) = read_pairs(&jsonl, &corpus, &options, &Progress::new()).unwrap();
    assert_eq!(pairs.len(), 1);
}

#[test]
fn an_unknown_id_names_file_line_and_id_or_is_counted() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("pairs.csv");
    std::fs::write(
        &csv,
        "id_a,id_b\nf0-v0,f0-v1\nf0-v0,nowhere-7\nf1-v0,f1-v1\n",
    )
    .unwrap();
    match read_pairs(&csv, &corpus, &ImportOptions::default(), &Progress::new()) {
        Err(Error::Input {
            path,
            line,
            message,
            ..
        }) => {
            assert_eq!(path, csv);
            assert_eq!(line, 3);
            assert!(
                message.contains("`nowhere-7`") && message.contains("id_b"),
                "{message}"
            );
        }
        other => panic!("expected an input error, got {other:?}"),
    }
    let skip = ImportOptions {
        columns: None,
        unknown: UnknownIds::Skip,
    };
    let (pairs, report) = read_pairs(&csv, &corpus, &skip, &Progress::new()).unwrap();
    assert_eq!(pairs.len(), 2);
    assert_eq!(report.unknown_rows, 1);
    assert!(report.first_unknown.as_deref().unwrap().contains("line 3"));
    // In a Parquet file the row is named.
    let parquet = dir.path().join("pairs.parquet");
    let rows = [("f0-v0", "f0-v1"), ("ghost", "f0-v1")];
    write_parquet(
        &parquet,
        "message m { required binary id_a (STRING); required binary id_b (STRING); }",
        &[strings(&rows, 0), strings(&rows, 1)],
        &[0, 0],
    );
    let err = read_pairs(
        &parquet,
        &corpus,
        &ImportOptions::default(),
        &Progress::new(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("pairs.parquet") && err.contains("row 2") && err.contains("`ghost`"),
        "{err}"
    );
    // A null id is an error too.
    let jsonl = dir.path().join("null.jsonl");
    std::fs::write(&jsonl, "{\"id_a\": \"f0-v0\", \"id_b\": null}\n").unwrap();
    let err = read_pairs(&jsonl, &corpus, &ImportOptions::default(), &Progress::new())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("null.jsonl:1") && err.contains("id_b"),
        "{err}"
    );
}

#[test]
fn imported_pairs_carry_the_exact_jaccard() {
    let corpus = corpus();
    let index = index(&corpus);
    let dir = tempfile::tempdir().unwrap();
    // Every pair of the corpus, some reversed.
    let mut text = String::from("id_a,id_b\n");
    let n = corpus.len();
    for a in 0..n {
        for b in 0..n {
            if a != b && (a + b) % 3 != 0 {
                text.push_str(&format!("{},{}\n", corpus.id(a), corpus.id(b)));
            }
        }
    }
    let csv = dir.path().join("all.csv");
    std::fs::write(&csv, text).unwrap();
    let imported = import_pairs(
        &csv,
        &corpus,
        &index,
        &ImportOptions::default(),
        &Progress::new(),
    )
    .unwrap();
    assert!(imported.pairs.len() > 50);
    assert!(
        imported
            .pairs
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
    );
    for p in &imported.pairs {
        assert!(p.a < p.b);
        let want = brute_jaccard(&index, p.a, p.b);
        assert!(
            (p.jaccard - want).abs() < 1e-12,
            "{} {}: {} vs {want}",
            p.a,
            p.b,
            p.jaccard
        );
        assert_eq!(
            p.estimate,
            index.signatures.estimate(p.a as usize, p.b as usize)
        );
    }
    // Joining every pair (as a tool that does not verify does) makes one cluster of all the
    // documents that have a pair.
    let clusters = pair_components(n, &imported.pairs);
    assert_eq!(clusters.len(), 1);
    assert_eq!(clusters.members(0).len(), n);
}

/// Weight of a maximum spanning tree of `members` by brute force (Prim over every pair).
fn best_tree_weight(index: &Index, members: &[u32]) -> f64 {
    let mut inside = vec![members[0]];
    let mut total = 0.0;
    while inside.len() < members.len() {
        let mut best = (f64::NEG_INFINITY, 0u32);
        for &x in &inside {
            for &y in members.iter().filter(|y| !inside.contains(y)) {
                let j = brute_jaccard(index, x, y);
                if j > best.0 {
                    best = (j, y);
                }
            }
        }
        total += best.0;
        inside.push(best.1);
    }
    total
}

/// Writes the same memberships as CSV, datatrove-style JSON Lines, NeMo-style Parquet and a
/// Parquet directory; returns them with the columns each needs named (None: detected).
fn cluster_files(d: &Path) -> Vec<(PathBuf, Option<[&'static str; 2]>)> {
    // Cluster "f0-v0" is named by its kept member; "7" is a number naming no member; the chain
    // is a cluster; f2-v3 is alone in a cluster; 42 and f2-v0 in no cluster.
    let rows: &[(&str, &str)] = &[
        ("f0-v0", "f0-v0"),
        ("f0-v1", "f0-v0"),
        ("f0-v2", "f0-v0"),
        ("f0-v1", "f0-v0"),
        ("f1-v3", "7"),
        ("f1-v1", "7"),
        ("c2", "chain"),
        ("c0", "chain"),
        ("c1", "chain"),
        ("f2-v3", "lonely"),
        ("42", "-1"),
    ];
    let mut out = Vec::new();
    let csv = d.join("clusters.csv");
    let mut text = String::from("id,cluster,size,keep\n");
    for (id, c) in rows {
        text.push_str(&format!("{id},{c},0,false\n"));
    }
    text.push_str("f2-v0,,1,true\n");
    std::fs::write(&csv, text).unwrap();
    out.push((csv, None));

    // datatrove: the document with its cluster in metadata, -1 for none.
    let jsonl = d.join("datatrove.jsonl");
    let mut text = String::new();
    for (id, c) in rows {
        let cluster = if let Ok(n) = c.parse::<i64>() {
            n.to_string()
        } else {
            format!("\"{c}\"")
        };
        text.push_str(&format!(
            "{{\"text\": \"…\", \"id\": \"{id}\", \"metadata\": {{\"minhash_cluster_id\": {cluster}, \"minhash_cluster_size\": 2}}}}\n"
        ));
    }
    std::fs::write(&jsonl, text).unwrap();
    out.push((jsonl, None));

    // NeMo Curator: id and group; a named pair of columns for a file that calls them otherwise.
    let schema = "message m { optional binary doc (STRING); optional binary group (STRING); }";
    let parquet = d.join("cc.parquet");
    let col = |k: usize| -> Vec<Option<String>> {
        rows.iter()
            .map(|r| {
                let v = if k == 0 { r.0 } else { r.1 };
                (v != "-1").then(|| v.to_string())
            })
            .collect()
    };
    write_parquet(&parquet, schema, &[col(0), col(1)], &[1, 1]);
    out.push((parquet, Some(["doc", "group"])));

    let dir = d.join("connected_components.parquet");
    std::fs::create_dir(&dir).unwrap();
    let schema = "message m { optional binary id (STRING); optional binary group (STRING); }";
    let (a, b) = rows.split_at(5);
    for (k, part) in [a, b].iter().enumerate() {
        let col = |c: usize| -> Vec<Option<String>> {
            part.iter()
                .map(|r| Some(if c == 0 { r.0 } else { r.1 }.to_string()))
                .collect()
        };
        write_parquet(
            &dir.join(format!("part.{k}.parquet")),
            schema,
            &[col(0), col(1)],
            &[1, 1],
        );
    }
    out.push((dir, None));
    out
}

#[test]
fn clusters_are_read_from_each_format_with_trees_and_kept_documents() {
    let corpus = corpus();
    let index = index(&corpus);
    let dir = tempfile::tempdir().unwrap();
    let p = |id: &str| pos(&corpus, id);
    for (path, columns) in cluster_files(dir.path()) {
        let options = ImportOptions {
            columns: columns.map(|c| [c[0].to_string(), c[1].to_string()]),
            unknown: UnknownIds::Error,
        };
        let imported = import_clusters(&path, &corpus, &index, &options, 400, &Progress::new())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let c = &imported.clusters;
        let name = path.display().to_string();
        let mut members: Vec<Vec<u32>> = (0..c.len()).map(|k| c.members(k).to_vec()).collect();
        members.sort();
        let mut want = vec![
            vec![p("f0-v0"), p("f0-v1"), p("f0-v2")],
            vec![p("f1-v1"), p("f1-v3")],
            vec![p("c0"), p("c1"), p("c2")],
        ];
        want.iter_mut().for_each(|m| m.sort());
        want.sort();
        assert_eq!(members, want, "{name}");
        assert_eq!(imported.report.singletons, 1, "{name}");
        assert_eq!(imported.sampled_trees, 0);
        // The member named by the cluster id is kept; else the first in input order.
        let of = |id: &str| c.cluster_of(p(id)).unwrap();
        assert_eq!(c.kept(of("f0-v1")), p("f0-v0"), "{name}");
        assert_eq!(c.kept(of("f1-v1")), p("f1-v1"), "{name}");
        assert_eq!(c.kept(of("c1")), p("c0"), "{name}");
        assert!(c.cluster_of(p("42")).is_none() && c.cluster_of(p("f2-v0")).is_none());
        // Each tree is a maximum spanning tree over the exact Jaccards.
        for k in 0..c.len() {
            let weight: f64 = c.spanning_edges(k).iter().map(|e| e.jaccard).sum();
            let best = best_tree_weight(&index, c.members(k));
            assert!((weight - best).abs() < 1e-9, "{name}: {weight} vs {best}");
        }
        // The chain is flagged by the audit; the pairs are removed ↔ kept with exact Jaccards.
        let chain = audit(c, of("c0"), &index.sets, None, 0.3, AuditLimits::default());
        assert!(chain.chained && chain.exact, "{name}");
        assert_eq!(
            (chain.farthest_pair.a, chain.farthest_pair.b),
            (p("c0"), p("c2"))
        );
        assert_eq!(imported.pairs.len(), c.removed_documents());
        for pair in &imported.pairs {
            assert!((pair.jaccard - brute_jaccard(&index, pair.a, pair.b)).abs() < 1e-12);
            let cluster = c.cluster_of(pair.a).unwrap();
            assert!(c.kept(cluster) == pair.a || c.kept(cluster) == pair.b);
        }
    }
}

#[test]
fn a_document_in_two_clusters_is_an_error() {
    let corpus = corpus();
    let index = index(&corpus);
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("c.csv");
    std::fs::write(&csv, "id,group\nf0-v0,1\nf0-v1,1\nf0-v0,2\n").unwrap();
    let err = import_clusters(
        &csv,
        &corpus,
        &index,
        &ImportOptions::default(),
        400,
        &Progress::new(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("c.csv:4") && err.contains("`f0-v0`") && err.contains("line 2"),
        "{err}"
    );
    std::fs::write(&csv, "id,group\nf0-v0,1\nmissing,1\n").unwrap();
    let err = import_clusters(
        &csv,
        &corpus,
        &index,
        &ImportOptions::default(),
        400,
        &Progress::new(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("c.csv:3") && err.contains("`missing`"),
        "{err}"
    );
}

#[test]
fn sampled_spanning_trees_still_span_every_member() {
    let corpus = corpus();
    let index = index(&corpus);
    let members: Vec<u32> = (0..corpus.len() as u32).collect();
    let exact = spanning_tree(&members, &index, members.len(), 1);
    let sampled = spanning_tree(&members, &index, 3, 1);
    for tree in [&exact, &sampled] {
        assert_eq!(tree.len(), members.len() - 1);
        let mut sets = lshscope_core::analysis::clusters::UnionFind::new(members.len());
        for e in tree.iter() {
            assert!(sets.union(e.a, e.b).is_some(), "a cycle");
        }
    }
    // Sampling sees fewer pairs: its tree is no heavier than the exact one, and its weakest
    // link no higher.
    let weight =
        |t: &[lshscope_core::analysis::clusters::Edge]| t.iter().map(|e| e.jaccard).sum::<f64>();
    let weakest = |t: &[lshscope_core::analysis::clusters::Edge]| {
        t.iter().map(|e| e.jaccard).fold(f64::INFINITY, f64::min)
    };
    assert!(weight(&sampled) <= weight(&exact) + 1e-9);
    assert!(weakest(&sampled) <= weakest(&exact) + 1e-9);
    assert!((weight(&exact) - best_tree_weight(&index, &members)).abs() < 1e-9);
}

/// Times an import on files named by the environment (not run by default):
/// `LSHSCOPE_IMPORT_CORPUS=big.csv LSHSCOPE_IMPORT_CLUSTERS=c.parquet
/// LSHSCOPE_IMPORT_PAIRS=p.parquet cargo test --release --test import_engine -- --ignored`.
#[test]
#[ignore]
fn import_timing() {
    let Some(corpus_path) = std::env::var_os("LSHSCOPE_IMPORT_CORPUS") else {
        return;
    };
    let progress = Progress::new();
    let start = std::time::Instant::now();
    let (corpus, _) =
        lshscope_core::corpus::read_corpus(Path::new(&corpus_path), &Default::default(), &progress)
            .unwrap();
    let index = index(&corpus);
    eprintln!(
        "corpus and index: {} documents in {:.2} s",
        corpus.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(path) = std::env::var_os("LSHSCOPE_IMPORT_PAIRS") {
        let start = std::time::Instant::now();
        let imported = import_pairs(
            Path::new(&path),
            &corpus,
            &index,
            &ImportOptions::default(),
            &progress,
        )
        .unwrap();
        let read = start.elapsed();
        let clusters = pair_components(corpus.len(), &imported.pairs);
        eprintln!(
            "pairs: {} rows, {} pairs read with exact Jaccard in {:.2} s; {} clusters in {:.2} s more",
            imported.report.rows,
            imported.pairs.len(),
            read.as_secs_f64(),
            clusters.len(),
            (start.elapsed() - read).as_secs_f64()
        );
    }
    if let Some(path) = std::env::var_os("LSHSCOPE_IMPORT_CLUSTERS") {
        let start = std::time::Instant::now();
        let imported = import_clusters(
            Path::new(&path),
            &corpus,
            &index,
            &ImportOptions::default(),
            400,
            &progress,
        )
        .unwrap();
        let largest = (0..imported.clusters.len())
            .map(|c| imported.clusters.members(c).len())
            .max()
            .unwrap_or(0);
        eprintln!(
            "clusters: {} rows, {} clusters (largest {largest}, {} trees sampled), {} removed, in {:.2} s",
            imported.report.rows,
            imported.clusters.len(),
            imported.sampled_trees,
            imported.clusters.removed_documents(),
            start.elapsed().as_secs_f64()
        );
    }
}

/// A file of only the removed documents, each beside its representative (the document kept):
/// the representative has no row, yet it is a member of its cluster and the one kept.
#[test]
fn representatives_without_a_row_are_members_of_their_clusters() {
    let corpus = corpus();
    let index = index(&corpus);
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("removed.csv");
    std::fs::write(
        &csv,
        "id,representative\nf0-v1,f0-v0\nf0-v2,f0-v0\nf1-v3,f1-v0\nf2-v1,not-a-document\n",
    )
    .unwrap();
    let imported = import_clusters(
        &csv,
        &corpus,
        &index,
        &ImportOptions::default(),
        400,
        &Progress::new(),
    )
    .unwrap();
    let doc = |id: &str| (0..corpus.len()).find(|&i| corpus.id(i) == id).unwrap() as u32;
    let clusters = &imported.clusters;
    let first = clusters
        .cluster_of(doc("f0-v0"))
        .expect("f0-v0 is clustered");
    let mut members = clusters.members(first).to_vec();
    members.sort_unstable();
    assert_eq!(members, [doc("f0-v0"), doc("f0-v1"), doc("f0-v2")]);
    assert_eq!(clusters.kept(first), doc("f0-v0"));
    let second = clusters
        .cluster_of(doc("f1-v0"))
        .expect("f1-v0 is clustered");
    assert_eq!(clusters.members(second).len(), 2);
    assert_eq!(clusters.kept(second), doc("f1-v0"));
    // A representative that is not a corpus id is only a cluster name: its cluster has one
    // document, as before.
    assert_eq!(clusters.cluster_of(doc("f2-v1")), None);
    assert_eq!(imported.report.representatives_added, 2);
    assert_eq!(imported.report.singletons, 1);
    assert!(
        imported
            .report
            .summary()
            .contains("2 representatives without a row of their own counted as members"),
        "{}",
        imported.report.summary()
    );
    // Every removed document is paired with the document kept for it.
    let removed: Vec<(u32, u32)> = imported.pairs.iter().map(|p| (p.a, p.b)).collect();
    for (gone, kept) in [("f0-v1", "f0-v0"), ("f0-v2", "f0-v0"), ("f1-v3", "f1-v0")] {
        let (a, b) = (doc(gone).min(doc(kept)), doc(gone).max(doc(kept)));
        assert!(removed.contains(&(a, b)), "{gone} – {kept}: {removed:?}");
    }
}
