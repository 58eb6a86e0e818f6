//! The explorer's clusters view, driven through `App::update(Action)`: clusters that match the
//! engine's `Clusters::build`, follow t and b/r, drop stale answers, open into members and
//! edges, open an edge in the viewer, flag a chain; and screens of the view.

use crate::tui_support;

use std::sync::Arc;
use std::time::Duration;

use lshscope::tui::app::{Action, App, Effect, View};
use lshscope::tui::clusters::{ClusterSort, EdgeKind};
use lshscope::tui::keys::{Command, Context};
use lshscope::tui::session::Source;
use lshscope_core::analysis::clusters::{Clusters, Edge, KeepRule};
use lshscope_core::analysis::labels::Label;
use lshscope_core::corpus::ReadOptions;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, IdenticalGroups};
use tui_support::*;

const SIZE: (u16, u16) = (140, 44);

/// The clusters the engine builds from the app's shown candidates at its t.
fn engine_clusters(app: &App) -> Clusters {
    let data = app.data().as_ref().unwrap();
    let result = app.candidates().result().unwrap();
    let edges: Vec<Edge> = result
        .pairs
        .iter()
        .filter(|p| p.jaccard >= app.curve().threshold)
        .map(|p| Edge {
            a: p.a,
            b: p.b,
            jaccard: p.jaccard,
        })
        .collect();
    let groups = IdenticalGroups::find(&data.index.sets);
    Clusters::build(
        data.corpus.len(),
        &edges,
        Some(&groups),
        KeepRule::First,
        |_| 0,
    )
}

fn members(c: &Clusters) -> Vec<Vec<u32>> {
    (0..c.len()).map(|k| c.members(k).to_vec()).collect()
}

/// The shown clusters' members; asserts they answer the app's banding and t.
fn shown(app: &App) -> Vec<Vec<u32>> {
    let r = app.clusters().result().expect("clusters shown");
    assert_eq!(
        (r.banding, r.threshold),
        (app.curve().banding, app.curve().threshold)
    );
    assert!(
        !app.clusters()
            .is_stale(app.curve().banding, app.curve().threshold)
    );
    members(&r.clusters)
}

fn clusters_app(dir: &std::path::Path, size: (u16, u16)) -> App {
    // Latencies are measured with a clock; fix them so screens are reproducible.
    let inputs = Inputs {
        clock: Clock::Fixed(Duration::from_millis(4)),
        ..fixture_inputs()
    };
    let mut app = ready_app_given(dir, size, inputs);
    cmd(&mut app, Command::ToggleClusters);
    assert_eq!(app.view(), View::Clusters);
    assert_eq!(run_effects(&mut app), 1, "one clusters job");
    app
}

/// The explorer on `sample_data/questions.txt` at 32×2, t 0.3, where the sample's questions
/// 22–24 chain.
fn questions_app(dir: &std::path::Path) -> App {
    let mut config = config(dir);
    config.source = Source::File {
        path: std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("sample_data/questions.txt"),
        read: ReadOptions::default(),
    };
    config.banding = Banding { bands: 32, rows: 2 };
    config.threshold = 0.3;
    let loaded = lshscope::tui::load(&config, &Progress::new(), |_| {}).unwrap();
    let inputs = Inputs {
        clock: Clock::Fixed(Duration::from_millis(4)),
        ..fixture_inputs()
    };
    let mut app = new_app_given(config, dir, SIZE, inputs);
    app.attach(Arc::new(loaded));
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    app
}

#[test]
fn clusters_match_the_engine_and_are_computed_only_when_shown() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = ready_app(dir.path(), SIZE);
    // Off screen, t changes ask for no clusters.
    cmd(&mut app, Command::ThresholdDown);
    assert!(app.take_effects().is_empty());
    assert!(app.clusters().result().is_none());
    cmd(&mut app, Command::ToggleClusters);
    let effects = app.take_effects();
    assert!(matches!(effects.as_slice(), [Effect::Clusters(_)]));
    run_given_effects(&mut app, effects);
    let expected = engine_clusters(&app);
    assert!(!expected.is_empty(), "the fixture has families");
    assert_eq!(shown(&app), members(&expected));
    let r = app.clusters().result().unwrap();
    assert_eq!(r.clusters.removed_documents(), expected.removed_documents());
    // Sorted by size by default; the list holds every cluster.
    let sizes: Vec<usize> = app
        .clusters()
        .list()
        .rows()
        .iter()
        .map(|&c| r.clusters.members(c as usize).len())
        .collect();
    assert_eq!(sizes.len(), expected.len());
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    // Asking again for the same banding and t queues nothing.
    cmd(&mut app, Command::ToggleClusters);
    assert_eq!(app.view(), View::Main);
    cmd(&mut app, Command::ToggleClusters);
    assert!(app.take_effects().is_empty());
}

#[test]
fn clusters_follow_t_and_the_banding() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = clusters_app(dir.path(), SIZE);
    let at_start = shown(&app);
    for _ in 0..30 {
        cmd(&mut app, Command::ThresholdDown);
    }
    run_effects(&mut app);
    assert!((app.curve().threshold - 0.2).abs() < 1e-9);
    let lower = shown(&app);
    assert_eq!(lower, members(&engine_clusters(&app)));
    let clustered = |m: &Vec<Vec<u32>>| m.iter().map(Vec::len).sum::<usize>();
    assert!(clustered(&lower) >= clustered(&at_start));
    // b and r: the re-banding answers first, then the clusters of its candidates.
    cmd(&mut app, Command::BandsDown);
    cmd(&mut app, Command::RowsDown);
    assert!(
        app.clusters()
            .is_stale(app.curve().banding, app.curve().threshold)
    );
    run_effects(&mut app);
    assert!(
        app.clusters().job().is_running(),
        "the clusters of the new candidates are asked for"
    );
    run_effects(&mut app);
    assert_eq!(app.curve().banding, Banding { bands: 15, rows: 3 });
    assert_eq!(shown(&app), members(&engine_clusters(&app)));
}

#[test]
fn a_stale_answer_is_never_shown() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = clusters_app(dir.path(), SIZE);
    cmd(&mut app, Command::ThresholdDown);
    let old = app.take_effects();
    cmd(&mut app, Command::ThresholdDown);
    let new = app.take_effects();
    // The superseded job was cancelled: it answers nothing, or an answer that is dropped.
    if let [Effect::Clusters(job)] = old.as_slice() {
        assert!(job.progress.is_cancelled());
        if let Some(outcome) = lshscope::tui::clusters::run_clusters(job) {
            app.update(Action::ClustersDone(Box::new(outcome)));
        }
    }
    assert!((app.clusters().result().unwrap().threshold - 0.5).abs() < 1e-9);
    run_given_effects(&mut app, new);
    assert!((app.clusters().result().unwrap().threshold - 0.48).abs() < 1e-9);
    shown(&app);
}

#[test]
fn a_cluster_opens_and_its_edges_open_in_the_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = clusters_app(dir.path(), SIZE);
    assert_eq!(app.context(), Context::Clusters);
    let c = app.clusters().selected_cluster().unwrap();
    cmd(&mut app, Command::Open);
    assert_eq!(app.context(), Context::Cluster);
    let open = app.clusters().open().unwrap();
    assert_eq!(open.cluster, c);
    let r = app.clusters().result().unwrap();
    let size = r.clusters.members(c).len();
    // The farthest pair, then the size − 1 spanning edges, weakest first.
    assert_eq!(open.edge_list.len(), size);
    assert_eq!(open.edge_list[0].0, EdgeKind::Farthest);
    assert_eq!(open.edge_list[0].1, r.audits[c].farthest_pair);
    assert_eq!(open.edge_list[1].1, r.clusters.weakest_link(c));
    assert!(
        open.edge_list[1..]
            .windows(2)
            .all(|w| w[0].1.jaccard <= w[1].1.jaccard)
    );
    // The weakest spanning edge opens side by side.
    cmd(&mut app, Command::Down);
    let (_, edge) = app.selected_cluster_edge().unwrap();
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    let view = app.viewer().pair().unwrap();
    let (a, b) = (view.a(), view.b());
    assert_eq!((a, b), (edge.a.min(edge.b), edge.a.max(edge.b)));
    assert_eq!(view.jaccard(), edge.jaccard);
    let s = screen(&app, SIZE.0, SIZE.1);
    assert!(s.contains("weakest link · edge 2 of"), "{s}");
    // Labels work there as everywhere.
    cmd(&mut app, Command::LabelDuplicate);
    assert_eq!(app.label_of(a, b), Some(Label::Duplicate));
    // ← goes back along the edges, Esc to the open cluster, Esc again to the list.
    cmd(&mut app, Command::PrevPair);
    let view = app.viewer().pair().unwrap();
    let farthest = app.clusters().open().unwrap().edge_list[0].1;
    assert_eq!(
        (view.a(), view.b()),
        (farthest.a.min(farthest.b), farthest.a.max(farthest.b))
    );
    cmd(&mut app, Command::Back);
    assert_eq!(app.view(), View::Clusters);
    assert_eq!(app.context(), Context::Cluster);
    // A label set on the open cluster's edge list goes to the selected edge.
    cmd(&mut app, Command::Down);
    cmd(&mut app, Command::LabelNotDuplicate);
    let (_, e) = app.selected_cluster_edge().unwrap();
    assert_eq!(
        app.label_of(e.a.min(e.b), e.a.max(e.b)),
        Some(Label::NotDuplicate)
    );
    cmd(&mut app, Command::Back);
    assert_eq!(app.context(), Context::Clusters);
    cmd(&mut app, Command::Back);
    assert_eq!(app.view(), View::Main);
}

#[test]
fn the_open_cluster_stays_open_when_t_moves() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = clusters_app(dir.path(), SIZE);
    cmd(&mut app, Command::Open);
    let r = app.clusters().result().unwrap();
    let kept = r.clusters.kept(app.clusters().open().unwrap().cluster);
    cmd(&mut app, Command::ThresholdDown);
    run_effects(&mut app);
    let r = app.clusters().result().unwrap();
    let open = app.clusters().open().expect("still open");
    assert_eq!(r.clusters.cluster_of(kept), Some(open.cluster));
}

#[test]
fn sorting_by_weakest_link_puts_the_loosest_cluster_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = questions_app(dir.path());
    cmd(&mut app, Command::CycleSort);
    assert_eq!(app.clusters().sort(), ClusterSort::WeakestLink);
    assert_eq!(
        app.clusters().list().selected(),
        0,
        "a new order starts at the top"
    );
    let r = app.clusters().result().unwrap();
    let weakest: Vec<f64> = app
        .clusters()
        .list()
        .rows()
        .iter()
        .map(|&c| r.audits[c as usize].weakest_link.jaccard)
        .collect();
    assert!(weakest.len() > 2, "{weakest:?}");
    assert!(weakest.windows(2).all(|w| w[0] <= w[1]), "{weakest:?}");
    // A new answer keeps the order asked for.
    cmd(&mut app, Command::ThresholdUp);
    run_effects(&mut app);
    assert_eq!(
        app.clusters().result().unwrap().sort,
        ClusterSort::WeakestLink
    );
}

#[test]
fn the_questions_chain_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let app = questions_app(dir.path());
    let r = app.clusters().result().unwrap();
    // Lines 22, 23 and 24 (positions 21–23): 22–23 and 22–24 join 23 and 24, far apart.
    let c = r.clusters.cluster_of(21).expect("question 22 is clustered");
    assert_eq!(r.clusters.cluster_of(22), Some(c));
    assert_eq!(r.clusters.cluster_of(23), Some(c));
    let audit = &r.audits[c];
    assert!(audit.chained && audit.exact);
    assert!(audit.farthest_pair.jaccard < 0.3);
    assert!(r.chained >= 1);
    let s = screen(&app, SIZE.0, SIZE.1);
    assert!(s.contains("chained"), "{s}");
}

#[test]
fn screens_of_the_clusters_view() {
    for (w, h) in [(80u16, 24u16), (160, 45)] {
        let dir = tempfile::tempdir().unwrap();
        let mut app = questions_app(dir.path());
        app.update(Action::Resize(w, h));
        insta::assert_snapshot!(format!("clusters_{w}x{h}"), screen(&app, w, h));
        cmd(&mut app, Command::Open);
        insta::assert_snapshot!(format!("cluster_open_{w}x{h}"), screen(&app, w, h));
    }
}

#[test]
fn with_sampled_candidates_the_clusters_are_joined_from_the_buckets_and_equal() {
    let dir = tempfile::tempdir().unwrap();
    // The same corpus, banding and t: once enumerated, once with sampling forced.
    let mut exact = ready_app(dir.path(), SIZE);
    cmd(&mut exact, Command::ThresholdDown);
    cmd(&mut exact, Command::ToggleClusters);
    run_effects(&mut exact);
    assert!(exact.candidates().estimated().is_none());
    let expected = shown(&exact);
    assert!(!expected.is_empty(), "the fixture has families");
    assert!(!exact.clusters().result().unwrap().from_buckets);

    let inputs = sampling_inputs(|s| {
        s.enumeration_budget = 0;
        s.preview_above = 0;
    });
    let mut sampled = new_app_given(config(dir.path()), dir.path(), SIZE, inputs);
    sampled.update(Action::Loaded(Box::new(Ok(loaded_data()))));
    run_effects(&mut sampled);
    cmd(&mut sampled, Command::ThresholdDown);
    cmd(&mut sampled, Command::ToggleClusters);
    run_effects(&mut sampled);
    assert!(
        sampled.candidates().estimated().is_some(),
        "sampled candidates"
    );
    let r = sampled
        .clusters()
        .result()
        .expect("clusters despite the sample");
    assert!(r.from_buckets);
    assert_eq!(shown(&sampled), expected);
    assert_eq!(
        r.clusters.removed_documents(),
        exact
            .clusters()
            .result()
            .unwrap()
            .clusters
            .removed_documents()
    );
    let screen = screen(&sampled, SIZE.0, SIZE.1);
    assert!(screen.contains("joined in buckets as dedup"), "{screen}");
}

/// A cluster past the audit's limits (over 400 distinct members) shows its weakest link as the
/// lower bound it is, `≥`, as `lshscope dedup` prints it; exact ones show the value alone.
#[test]
fn a_sampled_audit_shows_its_weakest_link_as_a_lower_bound() {
    use lshscope_core::corpus::Corpus;
    use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};

    let corpus = generate_templated(&TemplateOptions {
        docs: 1200,
        seed: 5,
        template_family: 900,
        ..Default::default()
    })
    .corpus;
    let data = loaded(Corpus::from_pairs(
        (0..corpus.len()).map(|i| (corpus.id(i), corpus.text(i))),
    ));
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.banding = Banding::new(32, 4, K).unwrap();
    let mut app = new_app_with(config, dir.path(), SIZE);
    app.update(Action::Loaded(Box::new(Ok(data))));
    run_effects(&mut app);
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    // The audits below are the components'.
    cmd(&mut app, Command::SwitchClustering);
    let r = app.clusters().result().expect("clusters shown");
    let sampled = (0..r.audits.len())
        .find(|&c| !r.audits[c].exact)
        .expect("a cluster past the audit's limits");
    let exact = (0..r.audits.len())
        .find(|&c| r.audits[c].exact && r.audits[c].size > 2)
        .expect("an exact cluster");
    let row = |c: usize| {
        let kept = app
            .data()
            .as_ref()
            .unwrap()
            .corpus
            .id(r.clusters.kept(c) as usize);
        screen(&app, SIZE.0, SIZE.1)
            .lines()
            .find(|l| l.contains(&format!(" {kept} ")))
            .map(str::to_string)
    };
    let bound = format!("≥{:.3}", r.audits[sampled].weakest_link.jaccard);
    let line = row(sampled).expect("the largest clusters are listed first");
    assert!(line.contains(&bound), "{line}");
    if let Some(line) = row(exact) {
        assert!(!line.contains('≥'), "{line}");
    }
}
