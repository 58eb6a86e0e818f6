//! The engine alone (no feature needed): the pipeline against the functions it sequences,
//! cancellation, the budget refusals as `Error::Refused`, and input errors at line and column.

use lshscope_core::Error;
use lshscope_core::analysis::truth::plan_join;
use lshscope_core::corpus::{Corpus, ReadOptions, read_corpus};
use lshscope_core::jobs::{Phase, Progress};
use lshscope_core::minhash::{
    Banding, BandingOptions, IndexOptions, build_index, find_candidates, verify,
};
use lshscope_core::pipeline::{Pipeline, reband};

fn corpus() -> Corpus {
    let mut texts = Vec::new();
    for i in 0..60 {
        let base = format!("document {i} talks about topic {} at some length", i % 7);
        texts.push(base.clone());
        if i % 3 == 0 {
            texts.push(format!("{base}, again"));
        }
    }
    Corpus::from_texts(texts)
}

#[test]
fn the_pipeline_runs_the_same_phases_as_the_functions_it_sequences() {
    let progress = Progress::new();
    let options = IndexOptions::default();
    let banding = BandingOptions {
        banding: Banding::new(32, 4, 128).unwrap(),
        max_bucket: None,
    };
    let mut run = Pipeline::new(&progress);
    let (docs, _) = run
        .read_with(|_| Ok((corpus(), Default::default())))
        .unwrap();
    let index = run.index(&docs, &options).unwrap();
    let (candidates, pairs) = run.band_and_verify(&index, &banding, 0.5).unwrap();

    let direct = build_index(&docs, &options, &progress).unwrap();
    let direct_candidates = find_candidates(&direct.signatures, &banding, &progress).unwrap();
    let direct_pairs = verify(&direct, &direct_candidates.pairs, 0.5, &progress).unwrap();
    assert_eq!(candidates.pairs, direct_candidates.pairs);
    assert_eq!(pairs, direct_pairs);
    assert!(!pairs.is_empty());

    let phases: Vec<Phase> = run.phases().iter().map(|p| p.phase).collect();
    assert_eq!(
        phases,
        [
            Phase::Reading,
            Phase::Signatures,
            Phase::Banding,
            Phase::Verifying
        ]
    );
    let timings = run.phases();
    assert_eq!(timings[1].items, docs.text_bytes() as u64);
    assert_eq!(timings[2].items, candidates.bucket_pairs);
    assert_eq!(timings[3].items, candidates.pairs.len() as u64);
}

#[test]
fn the_pipeline_tells_its_observer_of_each_phase_and_stops_when_cancelled() {
    let progress = Progress::new();
    let mut seen = Vec::new();
    let mut run = Pipeline::new(&progress).on_phase(|t| seen.push(t.phase));
    let (docs, _) = run
        .read_with(|_| Ok((corpus(), Default::default())))
        .unwrap();
    progress.cancel();
    assert!(matches!(
        run.index(&docs, &IndexOptions::default()),
        Err(Error::Cancelled)
    ));
    drop(run);
    assert_eq!(seen, [Phase::Reading]);
}

#[test]
fn an_oversized_banding_is_refused_before_any_work() {
    // 2000 copies of one text share every bucket: C(2000, 2) ≈ 2 M pairs in each of 32 bands.
    let docs = Corpus::from_texts(vec!["one text, many copies"; 2000]);
    let progress = Progress::new();
    let index = build_index(&docs, &IndexOptions::default(), &progress).unwrap();
    let banding = Banding::new(32, 1, 128).unwrap();
    match reband(&index, banding, None, None, None, &progress) {
        Err(e @ Error::Refused(_)) => {
            assert_eq!(e.exit_code(), 1);
            let text = e.to_string();
            assert!(text.contains("32×1 would emit about 64.0 M"), "{text}");
            assert!(text.contains("start with `max_bucket` N"), "{text}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Under the cap the same banding runs.
    assert!(reband(&index, banding, Some(100), None, None, &progress).is_ok());
}

#[test]
fn the_join_refusal_names_every_way_out() {
    let docs = corpus();
    let progress = Progress::new();
    let index = build_index(&docs, &IndexOptions::default(), &progress).unwrap();
    let plan = plan_join(&index.sets, 0.5, &progress).unwrap();
    assert!(plan.check_budget(f64::INFINITY).is_ok());
    match plan.check_budget(0.0) {
        Err(e @ Error::Refused(_)) => {
            assert_eq!(e.exit_code(), 1);
            // In the engine's names, and in a face's that names settings by flags.
            let text = e.to_string();
            for way_out in [
                "`lshscope truth INPUT threshold 0.5 sample ",
                "`truth` truth.csv",
                "`estimate_pairs` M",
                "`force`",
                "`max_seconds`",
            ] {
                assert!(text.contains(way_out), "{way_out}: {text}");
            }
            let flags = e.render(|s| format!("--{}", s.key().replace('_', "-")));
            for way_out in [
                "`lshscope truth INPUT --threshold 0.5 --sample ",
                "--truth truth.csv",
                "--estimate-pairs M",
                "--force",
                "--max-seconds",
            ] {
                assert!(flags.contains(way_out), "{way_out}: {flags}");
            }
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn read_error(name: &str, content: &str) -> (String, Error) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    let err = read_corpus(&path, &ReadOptions::default(), &Progress::new()).unwrap_err();
    (path.display().to_string(), err)
}

#[test]
fn an_open_quote_is_reported_at_its_line_and_column() {
    let (path, err) = read_error("open.csv", "id,text\n1,fine\n2,\"never closed\n");
    assert!(
        matches!(
            err,
            Error::Input {
                line: 3,
                column: Some(3),
                ..
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("{path}:3:3: a quoted field opened on this line")),
        "{text}"
    );
    // Columns count characters, not bytes.
    let (_, err) = read_error("wide.csv", "id,text\nü,x\névé,\"open\n");
    assert!(
        matches!(
            err,
            Error::Input {
                column: Some(5),
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_broken_json_line_is_reported_at_its_line_and_column() {
    let (path, err) = read_error("broken.jsonl", "{\"text\": \"fine\"}\n{\"text\": oops}\n");
    let Error::Input {
        line,
        column: Some(column),
        ..
    } = err
    else {
        panic!("{err:?}");
    };
    assert_eq!(line, 2);
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "{path}:2:{column}: invalid JSON at column {column}:"
        )),
        "{text}"
    );
}

#[test]
fn load_reads_and_indexes_a_file_in_one_call() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_data/questions.txt");
    let (loaded, phases) = lshscope_core::pipeline::load(
        &path,
        &ReadOptions::default(),
        &IndexOptions::default(),
        &Progress::new(),
    )
    .unwrap();
    assert_eq!(loaded.corpus.len(), 40);
    assert_eq!(loaded.read.documents, 40);
    assert_eq!(loaded.index.sets.len(), 40);
    let phases: Vec<(Phase, u64)> = phases.iter().map(|p| (p.phase, p.items)).collect();
    assert_eq!(
        phases,
        [
            (Phase::Reading, loaded.read.bytes),
            (Phase::Signatures, loaded.corpus.text_bytes() as u64)
        ]
    );
}
