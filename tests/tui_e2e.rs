//! End to end: the real binary in a real pseudo-terminal (tmux). Opens a corpus, changes b,
//! opens a pair, labels it, quits; then checks the labels file and that the terminal left
//! the alternate screen and mouse mode.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("run tmux");
    // A session that failed to start would otherwise show up later as an empty screen.
    assert!(
        out.status.success() || args[0] != "new-session",
        "tmux {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn capture(session: &str) -> String {
    tmux(&["capture-pane", "-p", "-t", session])
}

/// Waits until the screen contains `needle` (the explorer works in the background).
fn wait_for(session: &str, needle: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = capture(session);
        if screen.contains(needle) {
            return screen;
        }
        let alive = Command::new("tmux")
            .args(["has-session", "-t", session])
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            alive,
            "the session ended before {needle:?} showed: the explorer exited"
        );
        if start.elapsed() > Duration::from_secs(60) {
            panic!("timed out waiting for {needle:?}; screen:\n{screen}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn send(session: &str, keys: &[&str]) {
    let mut args = vec!["send-keys", "-t", session];
    args.extend_from_slice(keys);
    tmux(&args);
    // Let the key arrive alone: an Esc followed at once by a letter reads as Alt+letter.
    std::thread::sleep(Duration::from_millis(250));
}

struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.0]);
    }
}

fn write_corpus(dir: &Path) -> std::path::PathBuf {
    let docs = [
        "the old boat drifted across the quiet lake while herons watched from the reeds at dawn",
        "the old boat drifted across the quiet lake while herons watched from the reeds at dusk",
        "knead the dough for ten minutes then let it rise in a warm corner until it doubles in size",
        "knead the dough for ten minutes, then let it rise in a warm corner until doubled in size",
        "the night train to the coast leaves at eleven and stops at every small station on the way",
        "copper wire conducts heat and electricity far better than most other common metals do",
    ];
    let path = dir.join("docs.txt");
    std::fs::write(&path, docs.join("\n") + "\n").unwrap();
    path
}

#[test]
fn explore_label_and_quit_in_a_real_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end explorer test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_corpus(dir.path());
    let labels = dir.path().join("labels.csv");
    let session = format!("lshscope-e2e-{}", std::process::id());
    let command = format!(
        // The explorer's index cache goes to the test's directory, never the user's.
        "LSHSCOPE_CACHE_DIR={} {} explore {} --format text -b 16 -r 4 --labels {}; echo \"lshscope exited $?\"; sleep 60",
        dir.path().join("cache").display(),
        env!("CARGO_BIN_EXE_lshscope"),
        corpus.display(),
        labels.display()
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "160",
        "-y",
        "50",
        "-e",
        "NO_COLOR=",
        &command,
    ]);
    let _guard = Session(session.clone());

    let main = wait_for(&session, "Candidate pairs");
    assert!(main.contains("S-curve b = 16 × r = 4"), "{main}");
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{alternate_on}"]).trim(),
        "1"
    );

    // → adds a band (the S-curve panel has focus at start); wait for the new histogram.
    send(&session, &["Right"]);
    let rebanded = wait_for(&session, "Exact Jaccard of candidates 17×4");
    assert!(rebanded.contains("S-curve b = 17 × r = 4"), "{rebanded}");

    send(&session, &["Enter"]);
    let viewer = wait_for(&session, "⟷");
    assert!(viewer.contains("Band strip 17×4"), "{viewer}");
    assert!(viewer.contains("unlabelled"), "{viewer}");

    send(&session, &["y"]);
    let labelled = wait_for(&session, "label: duplicate");
    assert!(labelled.contains("saved 1 labels to"), "{labelled}");

    send(&session, &["q"]);
    let after = wait_for(&session, "lshscope exited 0");
    assert!(
        !after.contains("Candidate pairs"),
        "the explorer screen is gone:\n{after}"
    );
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{alternate_on}"]).trim(),
        "0"
    );
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{mouse_any_flag}"]).trim(),
        "0"
    );

    let text = std::fs::read_to_string(&labels).unwrap();
    assert_eq!(
        text, "id_a,id_b,label\n1,2,duplicate\n",
        "labels file:\n{text}"
    );
}

/// 20 rounds: label a pair with a burst of keys, wait until the screen acknowledges the last
/// one, SIGKILL the explorer at once, and check the file is whole and holds that label.
#[test]
fn acknowledged_labels_survive_sigkill() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end explorer test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_corpus(dir.path());
    let labels = dir.path().join("labels.csv");
    for round in 0..20 {
        let session = format!("lshscope-crash-{}-{round}", std::process::id());
        // `exec`: the pane's process is the explorer itself, so the kill reaches it.
        // From round 1 on, the corpus opens from the index cache the first round wrote.
        let command = format!(
            "exec env LSHSCOPE_CACHE_DIR={} {} explore {} --format text -b 16 -r 4 --labels {}",
            dir.path().join("cache").display(),
            env!("CARGO_BIN_EXE_lshscope"),
            corpus.display(),
            labels.display()
        );
        tmux(&[
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "160",
            "-y",
            "50",
            "-e",
            "NO_COLOR=",
            &command,
        ]);
        let _guard = Session(session.clone());
        wait_for(&session, "Candidate pairs");
        // The list's title shows before the first re-banding fills it: an Enter sent in
        // between finds no pair to open (this made the test flaky under load).
        wait_for(&session, "re-banded in");
        send(&session, &["Enter"]);
        wait_for(&session, "⟷");
        // A burst of y/n with no pause, then one `u`: only the last key's answer says unsure.
        let burst = round % 6;
        let mut keys: Vec<&str> = (0..burst)
            .map(|i| if i % 2 == 0 { "y" } else { "n" })
            .collect();
        keys.push("u");
        let mut args = vec!["send-keys", "-t", session.as_str()];
        args.extend_from_slice(&keys);
        tmux(&args);
        wait_for(&session, "unsure: saved 1 labels to");
        let pid = tmux(&["display", "-p", "-t", &session, "#{pane_pid}"]);
        let status = Command::new("kill")
            .args(["-KILL", pid.trim()])
            .status()
            .unwrap();
        assert!(status.success(), "kill {pid}");

        let text = std::fs::read_to_string(&labels).unwrap();
        assert_eq!(
            text, "id_a,id_b,label\n1,2,unsure\n",
            "round {round}: labels file:\n{text}"
        );
        let store = lshscope::analysis::labels::LabelStore::load(&labels).unwrap();
        assert_eq!(
            store.get("1", "2"),
            Some(lshscope::analysis::labels::Label::Unsure)
        );
        // The next round starts from a different state, so a stale file would show.
        std::fs::write(&labels, "id_a,id_b,label\n1,2,duplicate\n").unwrap();
    }
}

#[test]
fn not_a_terminal_points_to_scan() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_corpus(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_lshscope"))
        .args(["explore", corpus.to_str().unwrap(), "--format", "text"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("lshscope scan"), "{err}");
    // No subcommand is the explorer on the sample: the same message when piped.
    let out = Command::new(env!("CARGO_BIN_EXE_lshscope"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interactive terminal"));
}

#[test]
fn q_quits_while_the_sample_is_still_loading() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end explorer test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let session = format!("lshscope-e2e-load-{}", std::process::id());
    // No subcommand: the explorer on the embedded sample (20 000 documents).
    let command = format!(
        "cd {} && {}; echo \"lshscope exited $?\"; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_lshscope")
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "40",
        &command,
    ]);
    let _guard = Session(session.clone());
    let loading = wait_for(&session, "lshscope · loading");
    assert!(loading.contains("embedded sample"), "{loading}");
    let start = Instant::now();
    send(&session, &["q"]);
    wait_for(&session, "lshscope exited 0");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "quitting waited for the load"
    );
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{alternate_on}"]).trim(),
        "0"
    );
}

#[test]
fn a_panic_restores_the_terminal_before_its_message() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed; the end-to-end explorer test needs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_corpus(dir.path());
    let session = format!("lshscope-e2e-panic-{}", std::process::id());
    let command = format!(
        "LSHSCOPE_CACHE_DIR={} {} explore {} --format text --labels {}; echo \"lshscope exited $?\"; sleep 60",
        dir.path().join("cache").display(),
        env!("CARGO_BIN_EXE_lshscope"),
        corpus.display(),
        dir.path().join("labels.csv").display()
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "40",
        "-e",
        "LSHSCOPE_TEST_PANIC=1",
        &command,
    ]);
    let _guard = Session(session.clone());
    let after = wait_for(&session, "lshscope exited 101");
    assert!(
        after.contains("deliberate panic"),
        "the panic message is shown:\n{after}"
    );
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{alternate_on}"]).trim(),
        "0"
    );
    assert_eq!(
        tmux(&["display", "-p", "-t", &session, "#{mouse_any_flag}"]).trim(),
        "0"
    );
}
