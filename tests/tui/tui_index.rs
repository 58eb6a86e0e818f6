//! The explorer opens an index file (`lshscope index build`) without rebuilding signatures:
//! what it loads equals what it would build from the same documents and options.

use crate::tui_support;

use lshscope::tui::session::Source;
use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, IndexOptions, build_index};
use lshscope_core::online::LshIndex;

#[test]
fn an_index_file_loads_as_its_documents_and_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Corpus::from_pairs(tui_support::DOCS.iter().copied());
    let options = IndexOptions {
        num_perm: 64,
        seed: 9,
        ..IndexOptions::default()
    };
    let path = dir.path().join("fixture.lshidx");
    LshIndex::build(
        corpus.clone(),
        &options,
        Banding { bands: 8, rows: 8 },
        &Progress::new(),
    )
    .unwrap()
    .save(&path)
    .unwrap();
    let header = lshscope_core::online::file::read_header(&path)
        .unwrap()
        .unwrap();
    assert_eq!(header.options, options);

    let mut config = tui_support::config(dir.path());
    config.source = Source::Index { path: path.clone() };
    config.index_options = header.options;
    let mut phases = Vec::new();
    let loaded = lshscope::tui::load(&config, &Progress::new(), |t| phases.push(t.phase)).unwrap();
    // One reading step: no shingling or signature phase ran.
    assert_eq!(phases, [lshscope_core::jobs::Phase::Reading]);
    let built = build_index(&corpus, &options, &Progress::new()).unwrap();
    assert_eq!(loaded.corpus.len(), corpus.len());
    assert_eq!(loaded.read.documents, corpus.len());
    for i in 0..corpus.len() {
        assert_eq!(loaded.corpus.id(i), corpus.id(i));
        assert_eq!(loaded.corpus.text(i), corpus.text(i));
        assert_eq!(loaded.index.sets.get(i), built.sets.get(i));
        assert_eq!(loaded.index.signatures.row(i), built.signatures.row(i));
    }
    // A plain text file is not an index.
    let text = dir.path().join("docs.txt");
    std::fs::write(&text, "one\ntwo\n").unwrap();
    assert!(
        lshscope_core::online::file::read_header(&text)
            .unwrap()
            .is_none()
    );
}
