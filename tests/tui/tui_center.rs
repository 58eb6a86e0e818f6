//! The clusters view's two methods on a generated corpus with an edit chain: center clustering
//! (the default, as `lshscope dedup`) and connected components, switched with a key. The chain
//! is one component whose far members share little with the kept one (the false removals,
//! marked and counted); center clustering splits it into stars, each removal ≥ t.

use crate::tui_support;

use std::sync::Arc;
use std::time::Duration;

use lshscope::tui::app::{App, View};
use lshscope::tui::clusters::EdgeKind;
use lshscope::tui::keys::{Command, Context, hint};
use lshscope_core::analysis::clusters::{AuditLimits, Clusters, Edge, KeepRule};
use lshscope_core::analysis::dedup::{Clustering, DedupOptions, Joining};
use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::similarity::jaccard;
use lshscope_core::minhash::{BandingOptions, IdenticalGroups};
use lshscope_core::pipeline::Pipeline;
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use tui_support::*;

/// Documents of the edit chain.
const CHAIN: usize = 12;

/// Generated template families, then an edit chain: link k replaces the first 2k of 24
/// words, so neighbours are near-copies and the ends share little.
fn chained_corpus() -> Corpus {
    let mut corpus = generate_templated(&TemplateOptions {
        docs: 40,
        max_family: 6,
        seed: 3,
        ..TemplateOptions::default()
    })
    .corpus;
    let words: Vec<String> = [
        "harbour", "lantern", "granite", "meadow", "copper", "violin", "thistle", "orchard",
        "cinder", "falcon", "marble", "saffron", "tundra", "quiver", "beacon", "willow", "ember",
        "pebble", "sextant", "juniper", "anchor", "zephyr", "bramble", "citadel",
    ]
    .iter()
    .map(|w| w.to_string())
    .collect();
    for link in 0..CHAIN {
        let mut text = words.clone();
        for (k, w) in text.iter_mut().enumerate().take(2 * link) {
            *w = format!("edit{}", words[(k * 7 + 3) % words.len()]);
        }
        corpus.push(&format!("chain{link:02}"), &text.join(" "));
    }
    corpus
}

/// The explorer on the chained corpus, in the clusters view with its clusters answered.
fn chained_app(dir: &std::path::Path, size: (u16, u16)) -> App {
    let config = config(dir);
    let inputs = Inputs {
        clock: Clock::Fixed(Duration::from_millis(4)),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config, dir, size, inputs);
    app.attach(Arc::new(loaded(chained_corpus())));
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleClusters);
    assert_eq!(run_effects(&mut app), 1, "one clusters job");
    assert_eq!(app.view(), View::Clusters);
    app
}

/// The documents the components of the shown candidates' pairs ≥ t remove although their
/// exact Jaccard with their component's kept document is below t, computed here from the
/// engine's `Clusters::build` and `jaccard`.
fn expected_false_removals(app: &App) -> Vec<u32> {
    let data = app.data().as_ref().unwrap();
    let t = app.curve().threshold;
    let edges: Vec<Edge> = app
        .candidates()
        .result()
        .unwrap()
        .pairs
        .iter()
        .filter(|p| p.jaccard >= t)
        .map(|p| Edge {
            a: p.a,
            b: p.b,
            jaccard: p.jaccard,
        })
        .collect();
    let groups = IdenticalGroups::find(&data.index.sets);
    let components = Clusters::build(
        data.corpus.len(),
        &edges,
        Some(&groups),
        KeepRule::First,
        |_| 0,
    );
    let sets = &data.index.sets;
    (0..data.corpus.len() as u32)
        .filter(|&d| {
            components.cluster_of(d).is_some_and(|c| {
                let kept = components.kept(c);
                kept != d && jaccard(sets.get(d as usize), sets.get(kept as usize)) < t
            })
        })
        .collect()
}

fn chain_doc(app: &App, link: usize) -> u32 {
    let data = app.data().as_ref().unwrap();
    (0..data.corpus.len() as u32)
        .find(|&d| data.corpus.id(d as usize) == format!("chain{link:02}"))
        .unwrap()
}

#[test]
fn the_switch_changes_the_counts_and_marks_the_false_removals() {
    let dir = tempfile::tempdir().unwrap();
    let size = (140, 44);
    let mut app = chained_app(dir.path(), size);
    let t = app.curve().threshold;
    let expected = expected_false_removals(&app);
    assert!(
        !expected.is_empty(),
        "the chain has false removals at t {t}"
    );

    // Center by default: every removal is ≥ t against the document it is assigned to.
    let shown = app.clusters().shown().unwrap();
    assert_eq!(shown.method, Clustering::Center);
    let center_removed = shown.clusters.removed_documents();
    let data = app.data().clone().unwrap();
    let sets = &data.index.sets;
    for d in 0..sets.len() as u32 {
        if let Some(c) = shown.clusters.cluster_of(d) {
            let kept = shown.clusters.kept(c);
            if kept != d {
                let exact = jaccard(sets.get(d as usize), sets.get(kept as usize));
                assert_eq!(shown.to_kept[d as usize], exact, "document {d}");
                assert!(exact >= t, "center removed {d} at {exact} < {t}");
            }
        }
    }
    // They are `lshscope dedup --clustering center`'s at this banding and t.
    let options = DedupOptions {
        banding: BandingOptions {
            banding: app.curve().banding,
            max_bucket: None,
        },
        threshold: t,
        joining: Joining::Verified,
        clustering: Clustering::Center,
        keep: KeepRule::First,
        collapse_identical: true,
        audit: AuditLimits::default(),
    };
    let dedup = Pipeline::new(&Progress::new())
        .dedup(&data.index, &options, |_| 0)
        .unwrap();
    let engine = dedup.center.as_ref().unwrap();
    assert_eq!(*shown.clusters, engine.clusters);
    assert_eq!(
        shown
            .to_kept
            .iter()
            .map(|j| j.to_bits())
            .collect::<Vec<_>>(),
        engine
            .to_kept
            .iter()
            .map(|j| j.to_bits())
            .collect::<Vec<_>>()
    );
    // The chain is split: its first and last links are kept in different stars.
    let (first, last) = (chain_doc(&app, 0), chain_doc(&app, CHAIN - 1));
    assert_ne!(
        shown.clusters.cluster_of(first),
        shown.clusters.cluster_of(last)
    );
    let s = screen(&app, size.0, size.1);
    assert!(s.contains("· center · sort"), "{s}");
    assert!(
        s.contains(&format!(", {} < t vs kept", expected.len())),
        "{s}"
    );
    assert!(s.contains("· m shows components"), "{s}");

    // `m`: the components, with the same false removals the engine's components give.
    assert_eq!(hint(Command::SwitchClustering), "m");
    cmd(&mut app, Command::SwitchClustering);
    let r = app.clusters().result().unwrap();
    let shown = app.clusters().shown().unwrap();
    assert_eq!(shown.method, Clustering::Components);
    assert_eq!(r.false_removals, expected.len());
    let marked: Vec<u32> = (0..sets.len() as u32)
        .filter(|&d| shown.is_false_removal(d, t))
        .collect();
    assert_eq!(marked, expected);
    let components_removed = shown.clusters.removed_documents();
    assert!(
        components_removed > center_removed,
        "components {components_removed}, center {center_removed}"
    );
    assert_eq!(
        shown.clusters.cluster_of(first),
        shown.clusters.cluster_of(last)
    );
    let s = screen(&app, size.0, size.1);
    assert!(s.contains("· components · sort"), "{s}");
    assert!(
        s.contains(&format!("{} documents removed", components_removed)),
        "{s}"
    );

    // The chain's component is the largest: opened, it lists each false removal beside the
    // kept document, and Enter shows that pair side by side. (The switch kept the selected
    // kept document's cluster selected: the first row is the largest.)
    cmd(&mut app, Command::Top);
    let shown = app.clusters().shown().unwrap();
    let c = app.clusters().selected_cluster().unwrap();
    assert_eq!(shown.clusters.cluster_of(first), Some(c));
    let in_chain = shown.false_removals_in(c, t);
    assert!(in_chain > 0);
    cmd(&mut app, Command::Open);
    assert_eq!(app.context(), Context::Cluster);
    let open = app.clusters().open().unwrap();
    let removals: Vec<Edge> = open
        .edge_list
        .iter()
        .filter(|(kind, _)| *kind == EdgeKind::FalseRemoval)
        .map(|&(_, e)| e)
        .collect();
    assert_eq!(removals.len(), in_chain);
    assert!(removals.iter().all(|e| e.a == first && e.jaccard < t));
    assert_eq!(open.edge_list[1].0, EdgeKind::FalseRemoval);
    let s = screen(&app, size.0, size.1);
    assert!(s.contains("< t"), "{s}");
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let pair = app.viewer().pair().unwrap();
    let e = removals[0];
    assert_eq!((pair.a(), pair.b()), (e.a.min(e.b), e.a.max(e.b)));
    assert_eq!(pair.jaccard(), e.jaccard);
    let s = screen(&app, size.0, size.1);
    assert!(s.contains("removed < t · edge 2 of"), "{s}");
    cmd(&mut app, Command::Back);

    // Back to center: the open chain cluster follows its kept document into its star.
    cmd(&mut app, Command::SwitchClustering);
    let shown = app.clusters().shown().unwrap();
    assert_eq!(shown.method, Clustering::Center);
    assert_eq!(shown.clusters.removed_documents(), center_removed);
    let open = app.clusters().open().unwrap();
    assert_eq!(shown.clusters.kept(open.cluster), first);
    assert!(
        open.edge_list
            .iter()
            .all(|(kind, _)| *kind != EdgeKind::FalseRemoval)
    );
}

#[test]
fn screens_of_both_methods_on_a_chain() {
    for (w, h) in [(80u16, 24u16), (160, 45)] {
        let dir = tempfile::tempdir().unwrap();
        let mut app = chained_app(dir.path(), (w, h));
        insta::assert_snapshot!(format!("center_{w}x{h}"), screen(&app, w, h));
        cmd(&mut app, Command::SwitchClustering);
        insta::assert_snapshot!(format!("components_{w}x{h}"), screen(&app, w, h));
        // The largest cluster, the chain's component, opened.
        cmd(&mut app, Command::Top);
        cmd(&mut app, Command::Open);
        insta::assert_snapshot!(format!("components_open_{w}x{h}"), screen(&app, w, h));
    }
}

/// `explore --clusters FILE`: another tool's clusters, its false removals counted exactly
/// (removed documents below t against the kept document of their cluster).
#[test]
fn an_imported_tools_false_removals_are_counted() {
    use lshscope::tui::imported::{ImportKind, ImportSpec};
    use lshscope_core::analysis::import::{ImportOptions, UnknownIds};
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
            format!("{{\"id\": \"{id}\", \"metadata\": {{\"minhash_cluster_id\": {c}}}}}\n")
        })
        .collect();
    std::fs::write(&file, text).unwrap();
    let inputs = Inputs {
        import: Some(ImportSpec {
            kind: ImportKind::Clusters,
            path: file,
            options: ImportOptions {
                columns: None,
                unknown: UnknownIds::Error,
            },
        }),
        ..fixture_inputs()
    };
    let size = (140, 44);
    let mut app = new_app_given(config(dir.path()), dir.path(), size, inputs);
    app.update(lshscope::tui::app::Action::Loaded(Box::new(Ok(
        loaded_data(),
    ))));
    run_effects(&mut app);
    assert!(app.fatal().is_none(), "{:?}", app.fatal());
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    let t = app.curve().threshold;
    let data = app.data().clone().unwrap();
    let r = app.clusters().result().unwrap();
    assert!(
        r.center.is_none(),
        "an imported result has its tool's clusters only"
    );
    // Counted here: each removed document against its cluster's kept one.
    let sets = &data.index.sets;
    let expected = (0..data.corpus.len() as u32)
        .filter(|&d| {
            r.clusters.cluster_of(d).is_some_and(|c| {
                let kept = r.clusters.kept(c);
                kept != d && jaccard(sets.get(d as usize), sets.get(kept as usize)) < t
            })
        })
        .count();
    // The trains share little: at least train-3 is a false removal of the tool.
    let train = data.corpus.position_of("train-3").unwrap() as u32;
    assert!(r.shown(Clustering::Center).is_false_removal(train, t));
    assert_eq!(r.false_removals, expected);
    let s = screen(&app, size.0, size.1);
    assert!(
        s.contains(&format!("as the tool: {expected} removed < t vs kept")),
        "{s}"
    );
    // `m` says why it does not switch.
    cmd(&mut app, Command::SwitchClustering);
    let s = screen(&app, size.0, size.1);
    assert!(s.contains("no center clustering"), "{s}");
}
