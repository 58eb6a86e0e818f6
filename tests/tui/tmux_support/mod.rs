//! A real pseudo-terminal for the end-to-end tests: one tmux server per session.
//!
//! Each session gets its own server socket (`tmux -L`). On one shared server, one test's
//! `kill-session` of the last session stops the server while another test's `new-session`
//! is connecting to it, which fails with "server exited unexpectedly" (it did in CI).
#![allow(dead_code)]

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Whether tmux is installed; the tests that need it print a SKIPPED line without it.
pub fn available() -> bool {
    Command::new("tmux").arg("-V").output().is_ok()
}

/// A detached tmux session on a server of its own, killed with its server on drop.
pub struct TmuxSession {
    socket: String,
    name: String,
}

impl TmuxSession {
    /// Starts `command` in a `width`×`height` terminal, with `env` pairs set and in `cwd`.
    pub fn start(
        label: &str,
        width: u16,
        height: u16,
        env: &[(&str, &str)],
        cwd: Option<&str>,
        command: &str,
    ) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "lshscope-{label}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let session = TmuxSession {
            socket: name.clone(),
            name,
        };
        let (width, height) = (width.to_string(), height.to_string());
        let mut args = vec![
            "new-session",
            "-d",
            "-s",
            &session.name,
            "-x",
            &width,
            "-y",
            &height,
        ];
        let env: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        for pair in &env {
            args.extend(["-e", pair.as_str()]);
        }
        if let Some(cwd) = cwd {
            args.extend(["-c", cwd]);
        }
        args.push(command);
        let out = session.run(&args);
        // A session that failed to start would otherwise show up later as an empty screen.
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        session
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("run tmux")
    }

    /// The visible screen as text.
    pub fn capture(&self) -> String {
        self.query(&["capture-pane", "-p", "-t", &self.name])
    }

    /// A tmux format (`#{alternate_on}`, `#{pane_pid}`…) evaluated for the pane, trimmed.
    pub fn display(&self, format: &str) -> String {
        self.query(&["display", "-p", "-t", &self.name, format])
            .trim()
            .to_string()
    }

    fn query(&self, args: &[&str]) -> String {
        String::from_utf8_lossy(&self.run(args).stdout).into_owned()
    }

    /// Whether the session still runs (its command has not exited).
    pub fn alive(&self) -> bool {
        self.run(&["has-session", "-t", &self.name])
            .status
            .success()
    }

    /// Waits until the screen contains `needle` (the program works in the background); fails
    /// at once if the program exits first.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_for_all(&[needle])
    }

    /// Waits until one screen contains every one of `needles` (parts of the screen update at
    /// different times); fails at once if the program exits first.
    pub fn wait_for_all(&self, needles: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if needles.iter().all(|needle| screen.contains(needle)) {
                return screen;
            }
            assert!(
                self.alive(),
                "the session ended before {needles:?} showed: the program exited"
            );
            if start.elapsed() > Duration::from_secs(60) {
                panic!("timed out waiting for {needles:?}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sends keys in one burst, with no pause between them.
    pub fn send_burst(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.name.as_str()];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    /// Sends keys, then lets them arrive alone: an Esc followed at once by a letter reads as
    /// Alt+letter.
    pub fn send(&self, keys: &[&str]) {
        self.send_burst(keys);
        std::thread::sleep(Duration::from_millis(250));
    }
}

impl Drop for TmuxSession {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}
