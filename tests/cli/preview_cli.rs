//! `explore --preview-column NAME`: the field is checked before the terminal is taken over; a
//! name the file does not have is an error listing the columns it has, in the option's own
//! name.

use assert_cmd::Command;

fn lshscope() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("lshscope")
}

/// Runs `explore` with `args` in `dir` where no terminal is (the test harness): the exit
/// code and stderr.
fn explore(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = lshscope()
        .current_dir(dir)
        .arg("explore")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ADS: &str = "id,title,text
ad-1,Registered Nurse,\"Registered Nurse – Redmoor & Co. Full-time, nights, Zürich.\"
ad-2,Registered Nurse (repost),\"Registered Nurse – Redmoor & Co. Full-time, days, Zürich.\"
";

#[test]
fn a_column_the_file_does_not_have_is_an_error_listing_its_columns() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("ads.csv");
    std::fs::write(&csv, ADS).unwrap();
    let (code, err) = explore(
        dir.path(),
        &[csv.to_str().unwrap(), "--preview-column", "headline"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no column named `headline`; columns are: id, title, text"),
        "{err}"
    );
    assert!(
        err.contains("use --preview-column with one of these names"),
        "{err}"
    );
    assert!(
        !err.contains("--text-column"),
        "the option the user typed: {err}"
    );
    // A 1-based index past the last column, as csvlens would take it.
    let (code, err) = explore(
        dir.path(),
        &[csv.to_str().unwrap(), "--preview-column", "4"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--preview-column 4 is out of range"), "{err}");

    // JSON Lines: the line without the field is named, with the fields it has.
    let jsonl = dir.path().join("ads.jsonl");
    std::fs::write(
        &jsonl,
        "{\"id\":\"a\",\"title\":\"Nurse\",\"text\":\"x y z\"}\n{\"id\":\"b\",\"text\":\"x y w\"}\n",
    )
    .unwrap();
    let (code, err) = explore(
        dir.path(),
        &[jsonl.to_str().unwrap(), "--preview-column", "title"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(":2") && err.contains("no field `title`"),
        "{err}"
    );
    assert!(err.contains("--preview-column"), "{err}");

    // Plain text has no fields.
    let txt = dir.path().join("lines.txt");
    std::fs::write(&txt, "one line\nanother line\n").unwrap();
    let (code, err) = explore(
        dir.path(),
        &[txt.to_str().unwrap(), "--preview-column", "title"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("text input has no fields"), "{err}");
}

#[test]
fn a_column_the_file_has_is_read_before_the_explorer_opens() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("ads.csv");
    std::fs::write(&csv, ADS).unwrap();
    for column in ["title", "2"] {
        let (code, err) = explore(
            dir.path(),
            &[csv.to_str().unwrap(), "--preview-column", column],
        );
        // Read, then refused only for want of a terminal.
        assert!(
            err.contains(&format!("reading the field {column} of")),
            "{err}"
        );
        assert!(err.contains("needs an interactive terminal"), "{err}");
        assert_eq!(code, 2, "{err}");
    }
}
