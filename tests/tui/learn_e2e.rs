//! End to end: `lshscope learn FILE` in a real pseudo-terminal (tmux) at 80×24: steps to the
//! S-curve, exports it, quits, and leaves the alternate screen.

use crate::tmux_support;

use tmux_support::TmuxSession;

#[test]
fn learn_steps_exports_and_quits_in_a_real_terminal() {
    if !tmux_support::available() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end walkthrough test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("questions.csv");
    std::fs::write(
        &corpus,
        "id,text\nq1,How do I undo the last git commit?\nq2,How can I undo my last git commit?\n\
         q3,What is the capital of Australia?\n",
    )
    .unwrap();
    let command = format!(
        "{} learn {} --color never; echo \"lshscope exited $?\"; sleep 60",
        env!("CARGO_BIN_EXE_lshscope"),
        corpus.display()
    );
    let dir_name = dir.path().display().to_string();
    let session = TmuxSession::start("learn", 80, 24, &[], Some(&dir_name), &command);

    let first = session.wait_for("Step 1/9: Documents");
    assert!(
        first.contains("q1  How do I undo the last git commit?"),
        "{first}"
    );
    for _ in 0..7 {
        session.send(&["Right"]);
    }
    let last = session.wait_for("Step 8/9: The S-curve");
    assert!(last.contains("pair q1–q2"), "{last}");
    session.send(&["e"]);
    session.wait_for("wrote ./learn-step8-scurve.svg");
    assert!(dir.path().join("learn-step8-scurve.svg").exists());
    session.send(&["q"]);
    let after = session.wait_for("lshscope exited 0");
    assert!(!after.contains("Step 8/9"), "{after}");
    assert_eq!(session.display("#{alternate_on}"), "0");
}

#[test]
fn learn_refuses_a_pipe_and_a_file_of_one_document() {
    let out = assert_cmd::Command::cargo_bin("lshscope")
        .unwrap()
        .arg("learn")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs an interactive terminal"));

    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.txt");
    std::fs::write(&one, "just a single line\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("lshscope")
        .unwrap()
        .arg("learn")
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&one.display().to_string()), "{err}");
    assert!(err.contains("at least 2 documents"), "{err}");
}
