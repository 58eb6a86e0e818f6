//! End to end: `lshscope learn FILE` in a real pseudo-terminal (tmux) at 80×24: steps to the
//! S-curve, exports it, quits, and leaves the alternate screen.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("run tmux");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn wait_for(session: &str, needle: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(needle) {
            return screen;
        }
        if start.elapsed() > Duration::from_secs(30) {
            panic!("timed out waiting for {needle:?}; screen:\n{screen}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn send(session: &str, key: &str) {
    tmux(&["send-keys", "-t", session, key]);
    std::thread::sleep(Duration::from_millis(150));
}

struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.0]);
    }
}

#[test]
fn learn_steps_exports_and_quits_in_a_real_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
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
    let session = format!("lshscope-learn-e2e-{}", std::process::id());
    let command = format!(
        "{} learn {} --color never; echo \"lshscope exited $?\"; sleep 60",
        env!("CARGO_BIN_EXE_lshscope"),
        corpus.display()
    );
    let dir_name = dir.path().display().to_string();
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "80",
        "-y",
        "24",
        "-c",
        &dir_name,
        &command,
    ]);
    let _guard = Session(session.clone());

    let first = wait_for(&session, "Step 1/7: Documents");
    assert!(
        first.contains("q1  How do I undo the last git commit?"),
        "{first}"
    );
    for _ in 0..6 {
        send(&session, "Right");
    }
    let last = wait_for(&session, "Step 7/7: The S-curve");
    assert!(last.contains("pair q1–q2"), "{last}");
    send(&session, "e");
    wait_for(&session, "wrote ./learn-step7-scurve.svg");
    assert!(dir.path().join("learn-step7-scurve.svg").exists());
    send(&session, "q");
    let after = wait_for(&session, "lshscope exited 0");
    assert!(!after.contains("Step 7/7"), "{after}");
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{alternate_on}"]).trim(),
        "0"
    );
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
