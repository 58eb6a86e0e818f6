//! End to end (tmux): a label given to one pair of texts that have identical copies labels
//! every pair of those copies, on screen at once, in the labels file, and again after
//! reopening the corpus.

use crate::tmux_support;

use std::path::Path;

use lshscope_core::analysis::labels::{Label, LabelStore};
use tmux_support::TmuxSession;

/// Two licence texts that share their first clauses, each with a copy that differs only in
/// case or spacing (the same shingle set), and two unrelated notes.
fn write_corpus(dir: &Path) -> std::path::PathBuf {
    let shared = "Permission is hereby granted, free of charge, to any person obtaining a copy \
                  of this software and associated documentation files (the Software), to deal \
                  in the Software without restriction, including without limitation the rights \
                  to use, copy, modify, merge, publish and distribute copies of the Software";
    let mit = format!("{shared}, subject to the following conditions: keep this notice.");
    let x11 = format!("{shared}, provided that this notice and the X Consortium name appear.");
    let rows = [
        ("libxss1", mit.clone()),
        ("libxxf86dga1", x11.clone()),
        ("libxss-dev", mit.to_uppercase()),
        ("libxxf86dga-dev", x11.replace(' ', "  ")),
        (
            "tea",
            "steep the green tea leaves for two minutes in water just off the boil".into(),
        ),
        (
            "train",
            "the night train to the coast stops at every small station on the way".into(),
        ),
    ];
    let mut csv = String::from("id,text\n");
    for (id, text) in rows {
        csv += &format!("{id},\"{text}\"\n");
    }
    let path = dir.join("licences.csv");
    std::fs::write(&path, csv).unwrap();
    path
}

/// The pair-list rows that show `label` (the message line, which names the labels file, is
/// left out).
fn rows_labelled(screen: &str, label: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|l| l.contains(&format!(" {label} ")) && l.contains("libx"))
        .filter(|l| !l.contains("saved") && !l.contains("labels"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_label_follows_identical_copies_and_comes_back_on_reopening() {
    if !tmux_support::available() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end labels test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_corpus(dir.path());
    let labels = dir.path().join("labels.csv");
    let command = format!(
        "LSHSCOPE_CACHE_DIR={} {} explore {} -b 16 -r 4 --labels {}; echo \"lshscope exited $?\"; sleep 60",
        dir.path().join("cache").display(),
        env!("CARGO_BIN_EXE_lshscope"),
        corpus.display(),
        labels.display()
    );
    let session = TmuxSession::start("labels", 160, 45, &[("NO_COLOR", "")], None, &command);
    session.wait_for("re-banded in");
    // Six candidates: the two pairs of copies (J = 1) first, then the four pairs of a MIT
    // text and an X11 text. Focus the list, go to the third row, label it.
    let main = session.wait_for("Candidate pairs 6 of 6");
    assert!(rows_labelled(&main, "duplicate").is_empty(), "{main}");
    session.send(&["Tab"]);
    session.send(&["Tab"]);
    session.send(&["j"]);
    session.send(&["j"]);
    session.send(&["y"]);
    let labelled = session.wait_for("saved 4 labels to");
    assert!(labelled.contains("(and 3 copy pairs)"), "{labelled}");
    let rows = rows_labelled(&labelled, "duplicate");
    assert_eq!(rows.len(), 4, "every copy pair is labelled:\n{labelled}");
    for row in &rows {
        assert!(
            (row.contains("libxss1") || row.contains("libxss-dev"))
                && (row.contains("libxxf86dga1") || row.contains("libxxf86dga-dev")),
            "{row}"
        );
    }
    session.send(&["q"]);
    session.wait_for("lshscope exited 0");

    // The file: one judged row and three copy rows that name it, each with its Jaccard and
    // time.
    let store = LabelStore::load(&labels).unwrap();
    assert_eq!((store.len(), store.judged()), (4, 1));
    let judged: Vec<(String, String)> = store
        .entries()
        .filter(|(_, _, e)| e.copy_of.is_none())
        .map(|(a, b, _)| (a.to_string(), b.to_string()))
        .collect();
    for (a, b, entry) in store.entries() {
        assert_eq!(entry.label, Label::Duplicate);
        let j = entry.jaccard.expect("a Jaccard");
        assert!(j > 0.5 && j < 1.0, "{a},{b}: {j}");
        assert!(
            entry
                .labelled_at
                .as_deref()
                .is_some_and(|t| t.ends_with('Z'))
        );
        if let Some(of) = &entry.copy_of {
            assert_eq!(of, &judged[0], "{a},{b}");
        }
    }

    // Reopened (from the index cache), the labels come back on every copy pair.
    let session = TmuxSession::start("labels", 160, 45, &[("NO_COLOR", "")], None, &command);
    let reopened = session.wait_for("loaded 4 labels");
    assert!(reopened.contains("4 match this corpus"), "{reopened}");
    session.wait_for("re-banded in");
    let screen = session.wait_for("Candidate pairs 6 of 6");
    assert_eq!(
        rows_labelled(&screen, "duplicate").len(),
        4,
        "after reopening:\n{screen}"
    );
    session.send(&["q"]);
    session.wait_for("lshscope exited 0");
}
