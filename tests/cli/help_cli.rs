//! The command line as users meet it: snapshots of `--help` for the program and every
//! subcommand (so a changed option shows up in review), and the completion scripts and man
//! page generated from the same clap definitions.

use assert_cmd::Command;
use clap::CommandFactory;
use lshscope::cli::Cli;

/// Every subcommand path, the program itself first.
const COMMANDS: &[&[&str]] = &[
    &[],
    &["explore"],
    &["scan"],
    &["dedup"],
    &["index"],
    &["index", "build"],
    &["index", "add"],
    &["index", "query"],
    &["index", "info"],
    &["tune"],
    &["diff"],
    &["truth"],
    &["plot"],
    &["plot", "scurve"],
    &["plot", "histogram"],
    &["gen"],
    &["bench"],
    &["shingles"],
    &["learn"],
    &["completions"],
    &["man"],
];

/// `--help` as the binary prints it, at a fixed width so the snapshot does not depend on the
/// terminal the tests run in.
fn long_help(path: &[&str]) -> String {
    let mut command = Cli::command().term_width(100);
    command.build();
    let mut current = &mut command;
    for name in path {
        current = current
            .find_subcommand_mut(name)
            .unwrap_or_else(|| panic!("no subcommand {name}"));
    }
    current.render_long_help().to_string()
}

#[test]
fn help_snapshots() {
    for path in COMMANDS {
        let name = if path.is_empty() {
            "help".to_string()
        } else {
            format!("help_{}", path.join("_"))
        };
        insta::assert_snapshot!(name, long_help(path));
    }
}

#[test]
fn binary_help_matches_the_definitions() {
    // The snapshots are rendered from the definitions; the binary prints the same text.
    for path in [&["scan"][..], &[]] {
        let out = Command::cargo_bin("lshscope")
            .unwrap()
            .args(path)
            .arg("--help")
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8(out.stdout).unwrap(), long_help(path));
    }
    assert!(long_help(&[]).contains("Exit codes:\n  0 "));
}

fn run(args: &[&str]) -> String {
    let out = Command::cargo_bin("lshscope")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn completions_for_every_shell_name_the_subcommands_and_options() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef lshscope"),
        ("fish", "complete -c lshscope"),
        ("elvish", "edit:completion:arg-completer[lshscope]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = run(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: no `{marker}`");
        for word in ["scan", "tune", "histogram", "output-format", "summary-json"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    Command::cargo_bin("lshscope")
        .unwrap()
        .args(["completions", "tcsh"])
        .assert()
        .code(2);
}

#[test]
fn man_page_is_roff_with_every_subcommand() {
    let page = run(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH lshscope"),
        "{}",
        &page[..200]
    );
    assert!(page.contains(".TH lshscope 1"));
    assert!(page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"));
    for sub in [
        "scan",
        "tune",
        "truth",
        "plot",
        "gen",
        "bench",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!("lshscope\\-{sub}")) || page.contains(sub),
            "{sub}"
        );
    }
    assert!(
        page.contains("Exit codes"),
        "exit codes missing from the man page"
    );
}

/// Every option and argument of every subcommand says what it does: an option with only a
/// default in its help (`--seed <SEED> [default: 1]`) leaves the user guessing.
#[test]
fn every_option_has_a_description() {
    let mut command = Cli::command();
    command.build();
    let mut undescribed = Vec::new();
    for path in COMMANDS {
        let mut current = &command;
        for name in *path {
            current = current.find_subcommand(name).unwrap();
        }
        for arg in current.get_arguments() {
            // clap's own --help and --version carry their text.
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let described = arg.get_help().or(arg.get_long_help()).is_some();
            if !described && !arg.is_hide_set() {
                let name = arg
                    .get_long()
                    .map_or_else(|| id.to_uppercase(), |long| format!("--{long}"));
                undescribed.push(format!("lshscope {} {name}", path.join(" ")));
            }
        }
    }
    assert!(undescribed.is_empty(), "no description: {undescribed:?}");
}

/// `lshscope FILE` opens the explorer on FILE: a first argument that names a file (it exists,
/// or has a dot or a slash) gets `explore` put before it; subcommands, options and other
/// words are left to clap.
#[test]
fn a_file_given_first_opens_the_explorer() {
    use lshscope::cli::explore_a_file_given_first;
    let given = |args: &[&str]| {
        let args = std::iter::once("lshscope").chain(args.iter().copied());
        explore_a_file_given_first(args.map(Into::into).collect())
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect::<Vec<_>>()
    };
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/sample_data/jobs.csv");
    assert_eq!(
        given(&[sample, "-b", "8"]),
        ["lshscope", "explore", sample, "-b", "8"]
    );
    assert_eq!(
        given(&["missing.csv"]),
        ["lshscope", "explore", "missing.csv"]
    );
    assert_eq!(given(&["data/x"]), ["lshscope", "explore", "data/x"]);
    for unchanged in [
        &[][..],
        &["scan", "a.csv"],
        &["help"],
        &["--version"],
        &["scna"],
        &["-"],
    ] {
        let mut expected = vec!["lshscope".to_string()];
        expected.extend(unchanged.iter().map(|a| a.to_string()));
        assert_eq!(given(unchanged), expected);
    }
    // The binary does it: without a terminal, the explorer's own refusal, not clap's
    // "unrecognized subcommand".
    Command::cargo_bin("lshscope")
        .unwrap()
        .arg("missing.csv")
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "lshscope explore needs an interactive terminal",
        ));
}
