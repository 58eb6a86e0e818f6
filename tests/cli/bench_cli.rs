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

#[test]
fn families_bench_measures_each_family_beside_the_ceiling() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/sample_data/questions.txt");
    for args in [
        &[
            "--families",
            "-n",
            "2000",
            "--length",
            "150",
            "--rounds",
            "1",
        ][..],
        &["--families", "--corpus", sample, "--rounds", "2"][..],
    ] {
        let text = bench(args);
        let mut measured = Vec::new();
        let mut lines = vec![
            "bare rolling hash".to_string(),
            "normalize and hash shingles".to_string(),
            "shingle sets of every document".to_string(),
        ];
        for family in ["classic", "one-permutation", "c-minhash"] {
            lines.push(format!("{family}: sets + signatures (build_index)"));
            lines.push(format!("{family}: signatures from the shingle stream"));
        }
        for start in &lines {
            let line = text
                .lines()
                .find(|l| l.starts_with(start.as_str()))
                .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"));
            // µs per document, MB/s per core and the share of the ceiling, all measured.
            let numbers: Vec<f64> = line
                .split_whitespace()
                .rev()
                .take(3)
                .map(|f| f.parse().unwrap_or_else(|_| panic!("{line}")))
                .collect();
            assert!(numbers.iter().all(|x| x.is_finite() && *x > 0.0), "{line}");
            measured.push(numbers);
        }
        // The ceiling's line is its own yardstick.
        assert_eq!(measured[0][0], 1.0, "{text}");
        assert!(
            text.contains("bit-identical to the index's in every family"),
            "{text}"
        );
    }
}

#[test]
fn a_corpus_needs_a_bench_that_reads_one() {
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .args(["bench", "--corpus", "whatever.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--corpus needs --explorer or --families"),
        "{err}"
    );
}
