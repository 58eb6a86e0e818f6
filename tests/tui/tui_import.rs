//! The explorer on another tool's result (`explore --pairs FILE`, `explore --clusters FILE`),
//! driven through `App::update(Action)`: the file's pairs replace the banding's candidates in
//! the histogram, pair list, viewer, labels and clusters view; b and r leave them be; a bad
//! file ends the session with an error naming it. And the command line around it.

use crate::tui_support;

use std::collections::HashSet;
use std::path::Path;

use assert_cmd::Command as Bin;
use lshscope::tui::app::{Action, App, Effect, View};
use lshscope::tui::imported::{ImportKind, ImportSpec};
use lshscope::tui::keys::Command;
use lshscope_core::analysis::import::{ImportOptions, UnknownIds, pair_components};
use lshscope_core::analysis::labels::Label;
use lshscope_core::minhash::{Banding, VerifiedPair};
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

/// Pairs as another tool lists them: one reversed repeat, a self pair, and a pair of
/// unrelated documents that a tool without verification would still join.
const TOOL_PAIRS: &str = "id1,id2,score\n\
lake-1,lake-2,1\n\
bread-3,bread-1,1\n\
train-1,solo-1,1\n\
lake-2,lake-1,1\n\
solo-2,solo-2,1\n\
solo-1,lake-3,1\n";

fn spec(kind: ImportKind, path: &Path) -> ImportSpec {
    ImportSpec {
        kind,
        path: path.to_path_buf(),
        options: ImportOptions {
            columns: None,
            unknown: UnknownIds::Error,
        },
    }
}

/// An App on the fixture importing `spec`, loaded and answered.
fn imported_app(dir: &Path, spec: ImportSpec) -> App {
    let inputs = Inputs {
        import: Some(spec),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config(dir), dir, SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    let effects = app.take_effects();
    assert!(
        matches!(effects.as_slice(), [Effect::Import(_)]),
        "the import answers the first banding"
    );
    run_given_effects(&mut app, effects);
    assert!(app.fatal().is_none(), "{:?}", app.fatal());
    app
}

fn ids(app: &App, p: &VerifiedPair) -> (String, String) {
    let corpus = &app.data().as_ref().unwrap().corpus;
    (
        corpus.id(p.a as usize).to_string(),
        corpus.id(p.b as usize).to_string(),
    )
}

fn jaccard_by_sets(app: &App, a: u32, b: u32) -> f64 {
    let sets = &app.data().as_ref().unwrap().index.sets;
    let x: HashSet<u64> = sets.get(a as usize).iter().copied().collect();
    let y: HashSet<u64> = sets.get(b as usize).iter().copied().collect();
    x.intersection(&y).count() as f64 / x.union(&y).count() as f64
}

#[test]
fn explore_pairs_shows_the_imported_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tool.csv");
    std::fs::write(&file, TOOL_PAIRS).unwrap();
    let mut app = imported_app(dir.path(), spec(ImportKind::Pairs, &file));
    let result = app.candidates().result().unwrap();
    let mut got: Vec<(String, String)> = result.pairs.iter().map(|p| ids(&app, p)).collect();
    got.sort();
    let want = [
        ("bread-1", "bread-3"),
        ("lake-1", "lake-2"),
        ("lake-3", "solo-1"),
        ("solo-1", "train-1"),
    ];
    let mut want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| {
            // Pairs are in input order: a < b by position.
            let (pa, pb) = (
                DOCS.iter().position(|d| d.0 == *a).unwrap(),
                DOCS.iter().position(|d| d.0 == *b).unwrap(),
            );
            if pa < pb {
                (a.to_string(), b.to_string())
            } else {
                (b.to_string(), a.to_string())
            }
        })
        .collect();
    want.sort();
    assert_eq!(got, want);
    for p in result.pairs.iter() {
        assert!((p.jaccard - jaccard_by_sets(&app, p.a, p.b)).abs() < 1e-12);
        let hit = BANDING
            .agreeing_bands(
                &app.data().as_ref().unwrap().index.signatures,
                p.a as usize,
                p.b as usize,
            )
            .iter()
            .filter(|&&h| h)
            .count() as u32;
        assert_eq!(p.bands_hit, hit);
    }
    assert_eq!(app.hist().total(), 4);
    let text = screen(&app, SIZE.0, SIZE.1);
    assert!(
        text.contains("Pairs: imported pairs from tool.csv"),
        "{text}"
    );
    assert!(
        text.contains("Exact Jaccard, imported pairs from tool.csv"),
        "{text}"
    );
    assert!(
        text.contains("pairs from tool.csv, fixed: b/r move the reference curve only"),
        "{text}"
    );
    assert!(
        text.contains("solo-1") && text.contains("train-1"),
        "{text}"
    );
    assert!(
        text.contains("1 self pairs dropped") && text.contains("1 repeated pairs merged"),
        "{text}"
    );

    // b and r move the curve, not the pairs; the bands hit follow the new banding.
    let before: Vec<(u32, u32, f64)> = result.pairs.iter().map(|p| (p.a, p.b, p.jaccard)).collect();
    cmd(&mut app, Command::BandsDown);
    cmd(&mut app, Command::RowsDown);
    let effects = app.take_effects();
    assert!(effects.iter().all(|e| matches!(e, Effect::Import(_))));
    run_given_effects(&mut app, effects);
    let result = app.candidates().result().unwrap();
    assert_eq!(result.banding, Banding { bands: 15, rows: 3 });
    let after: Vec<(u32, u32, f64)> = result.pairs.iter().map(|p| (p.a, p.b, p.jaccard)).collect();
    assert_eq!(before, after);
    assert!(!app.result_is_stale());

    // The viewer opens an imported pair and labels it.
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let (a, b) = {
        let v = app.viewer().pair().unwrap();
        (v.a(), v.b())
    };
    cmd(&mut app, Command::LabelNotDuplicate);
    assert_eq!(app.label_of(a, b), Some(Label::NotDuplicate));
    let viewer = screen(&app, SIZE.0, SIZE.1);
    assert!(viewer.contains("label: not_duplicate"), "{viewer}");
}

#[test]
fn the_clusters_view_audits_the_components_of_every_imported_pair() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tool.csv");
    std::fs::write(&file, TOOL_PAIRS).unwrap();
    let mut app = imported_app(dir.path(), spec(ImportKind::Pairs, &file));
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    let pairs = app.candidates().result().unwrap().pairs.clone();
    let data = app.data().clone().unwrap();
    let expected = pair_components(data.corpus.len(), &pairs);
    let r = app.clusters().result().unwrap();
    let members = |c: &lshscope_core::analysis::clusters::Clusters| {
        (0..c.len())
            .map(|k| c.members(k).to_vec())
            .collect::<Vec<_>>()
    };
    assert_eq!(members(&r.clusters), members(&expected));
    // train-1 ~ solo-1 ~ lake-3 is one cluster, joined through dissimilar pairs: a chain.
    let train = data.corpus.position_of("train-1").unwrap() as u32;
    let c = r.clusters.cluster_of(train).unwrap();
    assert_eq!(r.clusters.members(c).len(), 3);
    assert!(r.audits[c].chained);
    // The removals owed only to pairs below t: those of the clusters of the pairs ≥ t spared.
    let at_t: Vec<VerifiedPair> = pairs.iter().filter(|p| p.jaccard >= 0.5).copied().collect();
    let verified = pair_components(data.corpus.len(), &at_t);
    let owed = expected.removed_beyond(&verified);
    assert!(
        owed >= 2,
        "the chain's two removals rest on dissimilar pairs"
    );
    assert_eq!(r.removed_below_t, Some(owed));
    assert!(screen(&app, SIZE.0, SIZE.1).contains(&format!("{owed} removed only via pairs < t")));
    // A different t audits the same clusters again.
    let chained_at_half = r.chained;
    for _ in 0..50 {
        cmd(&mut app, Command::ThresholdDown);
    }
    run_effects(&mut app);
    let r = app.clusters().result().unwrap();
    assert_eq!(members(&r.clusters), members(&expected));
    assert!(r.chained <= chained_at_half);
    let text = screen(&app, SIZE.0, SIZE.1);
    assert!(
        text.contains("pairs from tool.csv · audit at t 0"),
        "{text}"
    );
    assert!(
        text.contains("joined: every imported pair, verified or not"),
        "{text}"
    );
}

#[test]
fn explore_clusters_shows_what_the_tool_removes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clusters.jsonl");
    // datatrove's filter output: cluster ids in metadata, -1 for none.
    let rows = [
        ("lake-1", 0),
        ("lake-2", 0),
        ("lake-3", 0),
        ("train-1", 1),
        ("train-3", 1),
        ("solo-1", -1),
    ];
    let text: String = rows
        .iter()
        .map(|(id, c)| {
            format!("{{\"id\": \"{id}\", \"text\": \"…\", \"metadata\": {{\"minhash_cluster_id\": {c}}}}}\n")
        })
        .collect();
    std::fs::write(&file, text).unwrap();
    let mut app = imported_app(dir.path(), spec(ImportKind::Clusters, &file));
    // The pairs are each removed document with its cluster's kept one.
    let result = app.candidates().result().unwrap();
    let got: Vec<(String, String)> = result.pairs.iter().map(|p| ids(&app, p)).collect();
    assert_eq!(
        got,
        [
            ("lake-1".to_string(), "lake-2".to_string()),
            ("lake-1".into(), "lake-3".into()),
            ("train-1".into(), "train-3".into()),
        ]
    );
    let text = screen(&app, SIZE.0, SIZE.1);
    assert!(
        text.contains("Pairs: removed ↔ kept, clusters from clusters.jsonl"),
        "{text}"
    );
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    let r = app.clusters().result().unwrap();
    assert_eq!(r.clusters.len(), 2);
    assert_eq!(r.clusters.removed_documents(), 3);
    let text = screen(&app, SIZE.0, SIZE.1);
    assert!(
        text.contains("clusters from clusters.jsonl · audit at t 0.5"),
        "{text}"
    );
    assert!(text.contains("3 documents removed"), "{text}");
    // The two trains share little: the audit flags that cluster.
    let data = app.data().clone().unwrap();
    let train = r
        .clusters
        .cluster_of(data.corpus.position_of("train-1").unwrap() as u32)
        .unwrap();
    assert!(r.audits[train].chained);
    // Its edges open in the viewer.
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
}

#[test]
fn an_unknown_id_ends_the_session_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tool.csv");
    std::fs::write(&file, "id_a,id_b\nlake-1,lake-2\nlake-1,lake-9\n").unwrap();
    let inputs = Inputs {
        import: Some(spec(ImportKind::Pairs, &file)),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut app);
    assert!(app.should_quit());
    let message = app.fatal().unwrap().to_string();
    assert!(
        message.contains("tool.csv:3") && message.contains("`lake-9`"),
        "{message}"
    );
    // With unknown ids skipped (a --limit/--sample corpus) the rest is shown.
    let mut skipping = spec(ImportKind::Pairs, &file);
    skipping.options.unknown = UnknownIds::Skip;
    let app = imported_app(dir.path(), skipping);
    assert_eq!(app.candidates().result().unwrap().pairs.len(), 1);
    let text = screen(&app, SIZE.0, SIZE.1);
    assert!(
        text.contains("1 rows with ids not in the corpus skipped"),
        "{text}"
    );
}

#[test]
fn the_command_line_checks_the_import_options() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.csv");
    std::fs::write(&corpus, "id,text\na,one two three\nb,one two four\n").unwrap();
    // A missing file is reported before the terminal is needed.
    Bin::cargo_bin("lshscope")
        .unwrap()
        .args([
            "explore",
            corpus.to_str().unwrap(),
            "--pairs",
            "no-such-pairs.csv",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no-such-pairs.csv"));
    Bin::cargo_bin("lshscope")
        .unwrap()
        .args(["explore", corpus.to_str().unwrap(), "--pair-columns", "a,b"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--pairs"));
    Bin::cargo_bin("lshscope")
        .unwrap()
        .args([
            "explore",
            corpus.to_str().unwrap(),
            "--pairs",
            "x.csv",
            "--clusters",
            "y.csv",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with"));
    Bin::cargo_bin("lshscope")
        .unwrap()
        .args([
            "explore",
            corpus.to_str().unwrap(),
            "--clusters",
            "y.csv",
            "--cluster-columns",
            "id",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("two column names"));
}
