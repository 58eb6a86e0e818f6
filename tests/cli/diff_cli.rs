//! `lshscope diff` end to end: the text on stdout, the HTML file, the Jaccard (the same as
//! `scan` finds for the pair), character diffs of CJK JSON Lines, and the errors for an
//! unknown id and a bad option.

use std::path::Path;

use assert_cmd::Command;

fn lshscope() -> Command {
    Command::cargo_bin("lshscope").unwrap()
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

const NOTES: &str = "id,text
plan-a,\"The plan costs 12 euros per month. Invoices are sent by email. You can cancel at any time from the account page.\"
plan-b,\"Invoices are sent by email. The plan costs 15 euros per month. You can cancel at any time from the account page.\"
other,\"Something else entirely.\"
";

#[test]
fn prints_the_diff_with_ids_jaccard_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "notes.csv", NOTES);
    let out = lshscope()
        .args(["diff", &input, "plan-a", "plan-b", "-q"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    // The Jaccard is the pair's exact one, as `scan` reports it.
    let scan = lshscope()
        .args(["scan", &input, "-b", "128", "-r", "1", "-q"])
        .output()
        .unwrap();
    let scan = String::from_utf8(scan.stdout).unwrap();
    let jaccard: f64 = scan
        .lines()
        .find(|l| l.starts_with("plan-a,plan-b,"))
        .expect("scan finds the pair")
        .split(',')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    let expected = format!(
        "--- a: plan-a
+++ b: plan-b
documents of {input}
Jaccard {jaccard:.3} (char:5 shingles)
1 word changed, 5 moved; 95 % unchanged (compared word by word, ignoring case)
markers: [-only in a-] {{+only in b+}}, a change is [-a's-]{{+b's+}}; @@ a:LINE:COLUMN b:LINE:COLUMN @@ starts a hunk

@@ 1: a:1:1 b:1:1 @@
{{+Invoices are sent by email.+}}(moved from @@ 1) The plan costs [-12-]{{+15+}} euros per month. [-Invoices are sent by email.-](moved to @@ 1) You can cancel at any time from the account page.
"
    );
    assert_eq!(stdout, expected);
}

#[test]
fn writes_an_html_page_and_says_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "notes.csv", NOTES);
    let page = dir.path().join("pair.html");
    let out = lshscope()
        .args(["diff", &input, "plan-a", "plan-b", "-o"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.ends_with("pair.html: 1 word changed, 5 moved; 95 % unchanged\n"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.contains("<del class=\"chg\">12</del>")
            && html.contains("<ins class=\"chg\">15</ins>")
    );
    // --output-format overrides the name; text goes to a .html name if asked.
    let forced = dir.path().join("pair2.html");
    lshscope()
        .args([
            "diff",
            &input,
            "plan-a",
            "plan-b",
            "-q",
            "--output-format",
            "text",
            "-o",
        ])
        .arg(&forced)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&forced)
            .unwrap()
            .starts_with("--- a: plan-a\n")
    );
    // HTML to stdout.
    let out = lshscope()
        .args([
            "diff",
            &input,
            "plan-a",
            "plan-b",
            "-q",
            "--output-format",
            "html",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
}

#[test]
fn cjk_jsonl_is_compared_by_characters() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "ja.jsonl",
        "{\"id\": 1, \"text\": \"東京は日本の首都です。人口は約千四百万人です。\"}\n\
         {\"id\": 2, \"text\": \"東京は日本の首都です。人口は約千三百万人です。\"}\n",
    );
    let out = lshscope()
        .args(["diff", &input, "1", "2", "-q", "--shingle", "char:2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "1 character changed; 96 % unchanged (compared character by character, ignoring case)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("(char:2 shingles)"), "{stdout}");
    assert!(stdout.contains("約千[-四-]{+三+}百万"), "{stdout}");
    // Forced to words: one changed "word", the whole text.
    let out = lshscope()
        .args(["diff", &input, "1", "2", "-q", "--by", "words"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("1 word changed; 0.0 % unchanged (compared word by word, ignoring case)")
    );
}

#[test]
fn an_unknown_id_names_the_id_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "notes.csv", NOTES);
    let out = lshscope()
        .args(["diff", &input, "plan-a", "plan-z"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "{input}: no document has the id `plan-z` (3 documents read;"
        )),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    let out = lshscope()
        .args(["diff", &input, "plan-a", "plan-b", "--max-words", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("--max-words must be at least 1")
    );
    // An output in a directory that does not exist is refused before reading.
    let out = lshscope()
        .args([
            "diff",
            &input,
            "plan-a",
            "plan-b",
            "-o",
            "/nonexistent-dir/d.html",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("--output /nonexistent-dir/d.html")
    );
}

#[test]
fn the_size_cap_is_an_option_and_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "notes.csv", NOTES);
    let out = lshscope()
        .args(["diff", &input, "plan-a", "plan-b", "-q", "--max-words", "4"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("the comparison stopped at the cap of 4 words per text: a from byte 18 of 112 and b from byte 21 of 112 on were not compared"),
        "{stdout}"
    );
}

/// `diff` compares as `scan` shingles: lowercased unless `--no-lowercase`, so a pair that
/// differs only in case has no difference by default, and one with the flag.
#[test]
fn case_alone_is_no_difference_unless_no_lowercase() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "titles.csv",
        "id,text\nt1,The Annual Report Is Ready\nt2,the annual report is ready\n",
    );
    let run = |extra: &[&str]| {
        let out = lshscope()
            .args(["diff", &input, "t1", "t2", "-q"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let folded = run(&[]);
    assert!(folded.contains("Jaccard 1.000"), "{folded}");
    assert!(
        folded.contains("no difference in 5 words compared"),
        "{folded}"
    );
    assert!(
        folded.contains("(compared word by word, ignoring case)"),
        "{folded}"
    );
    let as_written = run(&["--no-lowercase"]);
    assert!(as_written.contains("5 words changed"), "{as_written}");
    assert!(
        as_written.contains("(compared word by word)\n"),
        "{as_written}"
    );
    let stripped = run(&["--strip-punct"]);
    assert!(
        stripped.contains("(compared word by word, ignoring case and punctuation)"),
        "{stripped}"
    );
    assert!(
        as_written.contains("[-The Annual Report Is Ready-]"),
        "{as_written}"
    );
}

/// Two copyright files of a corpus holding the same permission notice, first in one and last
/// in the other, with different holders and a word edited (issue 38, item 5): `diff` reports
/// one moved block with its edits inside, in the summary, the text and the HTML page.
#[test]
fn a_notice_moved_with_edits_inside_is_reported_as_one_moved_block() {
    let notice = |holder: &str, word: &str| {
        format!(
            "Permission is granted to anyone to use, copy, change and hand on this software \
             for any purpose and without a fee, on the condition that this notice appears in \
             every copy. The name of {holder} may not be used to promote products made from \
             it without written leave. {holder} gives no promise that it is {word} for any \
             purpose; it comes as it is, without any promise, stated or implied, and in no \
             event shall {holder} answer for any claim or loss that arises from its use."
        )
    };
    let packaging = "Files: debian/*\nCopyright: 2009 The Debian X Strike Force\nLicense: \
                     GPL-2+\n This packaging is free software; you can give it away and change \
                     it under the terms of the GNU General Public License, version 2 or any \
                     later version. It is handed out in the hope that it helps, with no \
                     guarantee of any kind. On Debian systems the full text of the licence is \
                     in /usr/share/common-licenses/GPL-2, and the later versions sit beside it \
                     in the same directory; patches written by the maintainers are offered \
                     under the same terms unless their header says otherwise.";
    let a = format!(
        "Files: *\nCopyright: 2003 Keith Packard\nLicense: MIT\n {}\n\n{packaging}\n",
        notice("Keith Packard", "fit")
    );
    let b = format!(
        "{packaging}\n\nFiles: *\nCopyright: 2010 Red Hat, Inc.\nLicense: MIT\n {}\n",
        notice("Red Hat, Inc.", "suitable")
    );
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "copyright.csv",
        &format!("id,text\nlibxfixes-dev,\"{a}\"\nxorg-sgml-doctools,\"{b}\"\n"),
    );
    let out = lshscope()
        .args(["diff", &input, "libxfixes-dev", "xorg-sgml-doctools", "-q"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary = "1 block of 92 words moved (7 words changed inside, into 10); 7 words \
                   inserted, 6 deleted; 92 % unchanged";
    assert!(
        stdout.contains(&format!(
            "{summary} (compared word by word, ignoring case)\nmarkers: "
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("\na block moved with edits inside is [-as it was-](moved to @@ N"),
        "{stdout}"
    );
    // Where it left, the block whole as it was; where it arrived, as it is with its edits.
    assert!(
        stdout.contains(
            "[-License: MIT\n Permission is granted to anyone to use, copy, change and hand on"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("arises from its use.-](moved to @@ 2, edited inside)"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("The name of [-Keith Packard-]{+Red Hat, Inc.+} may not be used to promote"),
        "{stdout}"
    );
    assert!(
        stdout.contains("that it is [-fit-]{+suitable+} for any purpose"),
        "{stdout}"
    );
    assert!(
        stdout.contains("arises from its use.+}(moved from @@ 1, edited inside)\n"),
        "{stdout}"
    );
    // The HTML page: the same summary on stderr, and the block as it was beside it where it
    // arrived.
    let page = dir.path().join("pair.html");
    let out = lshscope()
        .args(["diff", &input, "libxfixes-dev", "xorg-sgml-doctools", "-o"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.ends_with(&format!("pair.html: {summary}\n")),
        "{stderr}"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<div class=\"was\"><a href=\"#d1\">←1</a> as it was there: License: MIT"),
        "{html}"
    );
    assert!(
        html.contains("The name of <del class=\"chg\">Keith Packard</del> may not"),
        "{html}"
    );
    assert!(
        html.contains("<ins class=\"moved chg\">Red Hat, Inc.</ins>"),
        "{html}"
    );
}
