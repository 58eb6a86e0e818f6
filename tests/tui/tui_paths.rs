//! Where the explorer writes: labels, pair exports and plots go to the current directory (the
//! input's folder may be shared or read-only), and the screen names the full path. The real
//! binary in a real pseudo-terminal (tmux), opened on `../data/docs.txt` from a work folder.

use crate::tmux_support;

use tmux_support::TmuxSession;

#[test]
fn labels_and_exports_go_to_the_current_directory_and_the_screen_says_where() {
    if !tmux_support::available() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end explorer test needs it");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let work = root.path().join("work");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let docs = [
        "the old boat drifted across the quiet lake while herons watched from the reeds at dawn",
        "the old boat drifted across the quiet lake while herons watched from the reeds at dusk",
        "knead the dough for ten minutes then let it rise in a warm corner until it doubles in size",
        "knead the dough for ten minutes, then let it rise in a warm corner until doubled in size",
        "copper wire conducts heat and electricity far better than most other common metals do",
    ];
    std::fs::write(data.join("docs.txt"), docs.join("\n") + "\n").unwrap();
    // The folder the user stands in, spelled as the explorer spells it (symlinks resolved, as
    // the shell's working directory is).
    let work = work.canonicalize().unwrap();
    let command = format!(
        "LSHSCOPE_CACHE_DIR={} {} explore ../data/docs.txt --format text -b 16 -r 4 --no-cache; \
         echo \"lshscope exited $?\"; sleep 60",
        root.path().join("cache").display(),
        env!("CARGO_BIN_EXE_lshscope"),
    );
    let session = TmuxSession::start(
        "paths",
        220,
        40,
        &[("NO_COLOR", "")],
        Some(work.to_str().unwrap()),
        &command,
    );
    let labels = work.join("docs.txt.labels.csv");
    session.wait_for("Candidate pairs");
    session.wait_for("re-banded in");
    // The first message says where files go; a later one may have taken the message line
    // by now (how soon depends on the machine's load), and the messages log keeps it.
    session.send(&["M"]);
    let log = session.wait_for("labels are saved to");
    assert!(
        log.contains(&format!(
            "labels are saved to {} · exports go to {}",
            labels.display(),
            work.display()
        )),
        "the first message says where files go:\n{log}"
    );
    // Any key but quit closes the log.
    session.send(&["Escape"]);

    session.send(&["Enter"]);
    session.wait_for("⟷");
    session.send(&["y"]);
    let saved = session.wait_for("saved 1 label to");
    assert!(
        saved.contains(&format!("saved 1 label to {}", labels.display())),
        "{saved}"
    );
    session.send(&["Escape"]);
    session.wait_for("Candidate pairs");
    session.send(&["e"]);
    let exported = session.wait_for("plots:");
    let pairs = work.join("docs.pairs.16x4.csv");
    assert!(
        exported.contains(&format!("to {}", pairs.display())),
        "the export message names the full path:\n{exported}"
    );
    session.send(&["q"]);
    session.wait_for("lshscope exited 0");

    assert!(labels.is_file(), "labels in the current directory");
    assert!(pairs.is_file(), "pairs in the current directory");
    for plot in ["docs.scurve.16x4.svg", "docs.histogram.16x4.png"] {
        assert!(work.join(plot).is_file(), "{plot} in the current directory");
    }
    let beside_input: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        beside_input,
        ["docs.txt"],
        "nothing is written next to the input"
    );
}
