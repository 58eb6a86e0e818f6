//! The pair list's text column: text A from where it differs from B (a long shared header left
//! out), from its start, or a field of each document (`--preview-column`); `v` cycles them.

use std::sync::Arc;

use crate::tui_support;

use lshscope::tui::app::{Action, Inputs};
use lshscope::tui::keys::Command;
use lshscope::tui::list::{PreviewColumn, PreviewMode};
use lshscope_core::corpus::Corpus;
use tui_support::*;

/// The header every machine-readable copyright file of a distribution starts with: long
/// enough to fill the list's text column at any width.
const HEADER: &str = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Contact: the X.Org Foundation <xorg@lists.x.org>
Source: https://gitlab.freedesktop.org/xorg/lib
Files: *
Copyright: 1985, 1986, 1987, 1988, 1989, 1990, 1991 by the Massachusetts Institute of Technology
";

/// Copyright files of a few packages: the shared header, then a licence each, with the
/// holders and the wording changed between families; one file twice, byte for byte.
fn copyright_files() -> Vec<(&'static str, String)> {
    let mit = "License: MIT-open-group
 Permission to use, copy, modify, distribute, and sell this software and its documentation for
 any purpose is hereby granted without fee, provided that the above copyright notice appear in
 all copies and that both that copyright notice and this permission notice appear in supporting
 documentation.";
    let x11 = "License: X11
 Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 and associated documentation files, to deal in the Software without restriction, including
 without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense.";
    vec![
        ("libxss1", format!("{HEADER}{mit}")),
        ("libxss1-dev", format!("{HEADER}{mit}")),
        (
            "libxxf86dga1",
            format!("{HEADER}{mit} Holders: Keith Packard, 2004."),
        ),
        ("libxfixes3", format!("{HEADER}{x11}")),
        (
            "libxfixes-dev",
            format!("{HEADER}{x11} Holders: Sun Microsystems, 2003."),
        ),
        (
            "libxau6",
            format!("{HEADER}{x11}\n Holders: Keith Packard, 2004."),
        ),
        (
            "fonts-dejavu",
            "Upstream-Name: DejaVu fonts\nBitstream Vera Fonts are a trademark of Bitstream, Inc."
                .to_string(),
        ),
    ]
}

fn copyright_app(
    dir: &std::path::Path,
    size: (u16, u16),
    inputs: Inputs,
) -> lshscope::tui::app::App {
    let files = copyright_files();
    let corpus = Corpus::from_pairs(files.iter().map(|(id, text)| (*id, text.as_str())));
    let mut app = new_app_given(config(dir), dir, size, inputs);
    app.update(Action::Loaded(Box::new(Ok(loaded(corpus)))));
    run_effects(&mut app);
    cmd(&mut app, Command::FocusPrev);
    app
}

/// The list's rows as the screen shows them (the lines under the list's header).
fn list_lines(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.contains("id A") && l.contains("Jaccard"))
        .expect("the list's header");
    lines[header + 1..]
        .iter()
        .take_while(|l| !l.starts_with('└'))
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn the_list_shows_each_pair_from_where_it_differs() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(80, 24), (160, 45)] {
        let app = copyright_app(dir.path(), (w, h), fixture_inputs());
        assert!(app.candidates().list().len() >= 4, "pairs among the copies");
        assert_eq!(app.preview_mode(), PreviewMode::FromDifference);
        let screen = screen(&app, w, h);
        insta::assert_snapshot!(format!("preview_difference_{w}x{h}"), screen);
        let rows = list_lines(&screen);
        assert!(!rows.is_empty(), "{screen}");
        // No row repeats the header both texts share, but for the copies identical to the
        // byte, marked as such.
        assert!(
            rows.iter()
                .filter(|r| !r.contains("= Format"))
                .all(|r| !r.contains("Format: https")),
            "{screen}"
        );
        if w == 160 {
            assert!(
                screen.contains("text A from where it differs from B"),
                "{screen}"
            );
            // The identical copies say so, the others show their change after a cut.
            assert!(rows.iter().any(|r| r.contains("= Format:")), "{screen}");
            assert!(
                rows.iter()
                    .any(|r| r.contains("…") && r.contains("Holders")),
                "{screen}"
            );
        }
    }
}

#[test]
fn v_cycles_the_text_column_and_says_what_it_shows() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (160, 45);
    let mut app = copyright_app(dir.path(), (w, h), fixture_inputs());
    cmd(&mut app, Command::CyclePreview);
    assert_eq!(app.preview_mode(), PreviewMode::Start);
    let message = app.message().clone().unwrap().text;
    assert!(message.contains("text A from its start"), "{message}");
    let screen = screen(&app, w, h);
    assert!(screen.contains("text A from its start"), "{screen}");
    let rows = list_lines(&screen);
    assert!(
        rows.iter()
            .filter(|r| !r.trim_matches([' ', '│']).is_empty())
            .all(|r| r.contains("Format: https")),
        "every row opens on the header again: {screen}"
    );
    // Without --preview-column, the next mode is the first again.
    cmd(&mut app, Command::CyclePreview);
    assert_eq!(app.preview_mode(), PreviewMode::FromDifference);
}

#[test]
fn a_preview_column_shows_the_field_of_a_and_b() {
    let dir = tempfile::tempdir().unwrap();
    let titles = Corpus::from_pairs(copyright_files().iter().map(|(id, _)| {
        let title = format!("{id} (Debian package)");
        (*id, title)
    }));
    let inputs = Inputs {
        preview_column: Some(PreviewColumn {
            name: "package".into(),
            values: Arc::new(titles),
        }),
        ..fixture_inputs()
    };
    let (w, h) = (160, 45);
    let mut app = copyright_app(dir.path(), (w, h), inputs);
    assert_eq!(
        app.preview_mode(),
        PreviewMode::Column,
        "the column asked for comes first"
    );
    let screen = screen(&app, w, h);
    assert!(screen.contains("package: A │ B"), "{screen}");
    let pair = *app.selected_pair().unwrap();
    let data = app.data().clone().unwrap();
    let first = &list_lines(&screen)[0];
    let (a, b) = (
        data.corpus.id(pair.a as usize),
        data.corpus.id(pair.b as usize),
    );
    assert!(
        first.contains(&format!("{a} (Debian package) │ {b} (Debian package)")),
        "{first}"
    );
    // v goes on to the text from the difference, then from its start, then back.
    for mode in [
        PreviewMode::FromDifference,
        PreviewMode::Start,
        PreviewMode::Column,
    ] {
        cmd(&mut app, Command::CyclePreview);
        assert_eq!(app.preview_mode(), mode);
    }
}
