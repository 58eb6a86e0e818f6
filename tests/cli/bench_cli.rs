//! `lshscope bench` end to end on small generated corpora: every phase is measured and
//! reported, with numbers, so the README's tables can be re-made on any machine.

use assert_cmd::Command;

fn bench(args: &[&str]) -> String {
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .arg("bench")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn pipeline_bench_reports_every_phase_with_its_memory_and_faults() {
    let text = bench(&["-n", "4000", "--length", "150"]);
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
    };
    for phase in [
        "signatures (1 thread)",
        "signatures (all threads)",
        "grouping 32×4",
        "candidates 20×5",
        "verification",
        "pairs as CSV (1 thread)",
        "pairs as CSV (all thr.)",
    ] {
        let l = line(phase);
        assert!(l.contains(" s wall") && l.contains(" s CPU"), "{l}");
        // A rate per core, or the honest dash when the phase was too short to time.
        assert!(
            l.contains("/s per core") && !l.contains("inf") && !l.contains("NaN"),
            "{l}"
        );
    }
    // Signature phases say how much of their time was the kernel's and how many pages they
    // faulted in (the first touch of fresh memory, the cost that differs between machines).
    for phase in ["signatures (1 thread)", "signatures (all threads)"] {
        let l = line(phase);
        assert!(l.contains("; kernel ") && l.contains(" page faults"), "{l}");
    }
    assert!(line("planted pairs with J ≥ 0.8 found: ").contains(" of "));
    assert!(line("peak memory").contains("× data"), "{text}");
}

#[test]
fn explorer_bench_steps_the_whole_grid() {
    let text = bench(&["--explorer", "-n", "3000"]);
    let summary = text
        .lines()
        .find(|l| l.contains(" cells, "))
        .unwrap_or_else(|| panic!("no summary in\n{text}"));
    assert!(summary.contains(" 0 failed"), "{summary}");
    assert!(text.lines().any(|l| l.starts_with("peak RSS")), "{text}");
}
