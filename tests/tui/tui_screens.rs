//! Every screen a key reaches, on the embedded sample (20,000 job ads, ids such as
//! `job-000909`) at 80×24, 100×30 and 160×45: a snapshot of each, and a check that no word of
//! the status, message, footer or legend lines is cut. A word shown must be a whole word of
//! what the same screen shows at 400 columns (or of the message's full text); shortening is
//! allowed only where it is marked: `…/name.csv` (leading folders gone), `job-0…909` (the
//! middle of one word gone), or a whole word followed by a lone `…` (words after it gone).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::tui_support;

use lshscope::tui::app::{Action, App, PromptKey, View};
use lshscope::tui::keys::Command;
use tui_support::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (160, 45)];
/// Wide enough that nothing on these screens is shortened.
const WIDE: u16 = 400;

/// A directory for labels and exports whose path reads the same on every machine (relative to
/// the package root, where cargo runs the tests), emptied first.
fn fixed_dir(name: &str) -> PathBuf {
    let dir = Path::new("target").join("screens").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The words of `text` as the check compares them: split at white space and box-drawing
/// characters, with the punctuation around a word taken off.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || ('\u{2500}'..='\u{259f}').contains(&c))
        .map(|w| {
            w.trim_matches(|c: char| "()[]{},;:'\"".contains(c))
                .to_string()
        })
        // Plot marks (braille dots, blocks, markers) are not words.
        .filter(|w| w.chars().any(char::is_alphanumeric) && !w.chars().any(is_plot_mark))
        .collect()
}

fn is_plot_mark(c: char) -> bool {
    ('\u{2800}'..='\u{28ff}').contains(&c) || ('\u{2580}'..='\u{259f}').contains(&c)
}

/// True when `word` is a whole word of `full`, or shortened in one of the marked ways.
fn whole_or_marked(word: &str, full: &HashSet<String>) -> bool {
    if full.contains(word) || word == "…" {
        return true;
    }
    if !word.contains('…') {
        // Counts that depend on the size (lines of a wrapped text, rows of the help) are
        // numbers, not words; a number cut short carries its `…`. A count in a narrow column
        // may be written short, its unit glued (`2k`, `1.2k`, as the cluster-size chart does),
        // and a bound open upwards (`65+`) is a number too.
        let number = word.strip_suffix(['k', 'M', 'G']).unwrap_or(word);
        return !number.is_empty()
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || "–-,.%+".contains(c));
    }
    // A word with a `…` glued at its end is a cut word: the `…` stands for the rest of it.
    let pieces: Vec<&str> = word.split('…').collect();
    let (head, tail) = (pieces[0], pieces[pieces.len() - 1]);
    if tail.is_empty() {
        return false;
    }
    // Otherwise each piece is part of one full word, in order: `…/name.csv`, `job-0…909`,
    // `…/lshscope…els.csv`.
    full.iter().any(|w| {
        if !(w.starts_with(head) && w.ends_with(tail)) || w.len() <= head.len() + tail.len() {
            return false;
        }
        let mut rest = &w[head.len()..w.len() - tail.len()];
        pieces[1..pieces.len() - 1]
            .iter()
            .all(|p| match rest.find(p) {
                Some(i) => {
                    rest = &rest[i + p.len()..];
                    true
                }
                None => false,
            })
    })
}

/// The lines of `screen` whose words the check reads: the status, message and footer lines
/// (the last three) and every line that holds a panel's title, legend or axis. Text shown from
/// documents (pair previews, the viewer's panes, cluster members) is clipped at its edge by
/// design and is left out: those lines are the ones given by `text_rows`.
fn checked_lines<'a>(screen: &'a str, text_rows: &[usize]) -> Vec<(usize, &'a str)> {
    screen
        .lines()
        .enumerate()
        .filter(|(i, _)| !text_rows.contains(i))
        .collect()
}

/// Every cut word on `screen`, judged against the words of `wide` (the same state at
/// [`WIDE`] columns) and `extra` (the message's full text).
fn cut_words(screen: &str, wide: &str, extra: &str, text_rows: &[usize]) -> Vec<String> {
    let mut full: HashSet<String> = words(wide).into_iter().collect();
    full.extend(words(extra));
    let mut cut = Vec::new();
    for (row, line) in checked_lines(screen, text_rows) {
        for word in words(line) {
            if !whole_or_marked(&word, &full) {
                cut.push(format!("row {row}: {word:?} in {:?}", line.trim_end()));
            }
        }
    }
    cut
}

/// The rows on `screen` that show documents' text rather than the explorer's words.
fn text_rows(app: &App, screen: &str) -> Vec<usize> {
    let lines: Vec<&str> = screen.lines().collect();
    let mut rows = Vec::new();
    let is_id_row = |line: &str| {
        // A row of a pair or cluster table: it names a document by its id.
        line.contains("job-") && !line.contains('┌') && !line.contains('└')
    };
    match app.view() {
        View::Viewer { .. } => {
            // The two panes: every row between the viewer's header block and the bottom lines.
            let top = lines
                .iter()
                .position(|l| l.contains('┌') && l.contains("job-"))
                .unwrap_or(0);
            rows.extend(top + 1..lines.len().saturating_sub(4));
        }
        _ => {
            for (i, line) in lines.iter().enumerate() {
                if is_id_row(line) && i + 3 < lines.len() {
                    rows.push(i);
                }
            }
        }
    }
    rows
}

/// A message's words and those of the hint that follows it when shortened by more than its
/// folders (the key that shows it whole).
fn with_more_hint(message: &str) -> String {
    format!("{message} {}", lshscope::tui::ui::status::more_hint())
}

/// [`with_more_hint`] of a message and of each shorter form it may be shown in instead.
fn words_of(message: &lshscope::tui::app::Message) -> String {
    let mut words = with_more_hint(&message.text);
    for form in &message.shorter {
        words.push(' ');
        words.push_str(form);
    }
    words
}

struct Shot {
    name: String,
    failures: Vec<String>,
}

/// Renders `app` at the three sizes: a snapshot each, and the cut-word check.
fn shoot(app: &mut App, name: &str, shots: &mut Vec<Shot>) {
    shoot_with(app, name, shots, false)
}

/// [`shoot`] for a screen with an overlay (help, a prompt): the overlay hides parts of the
/// screen under it, words included, so only the status, message and footer lines are read.
fn shoot_overlay(app: &mut App, name: &str, shots: &mut Vec<Shot>) {
    shoot_with(app, name, shots, true)
}

fn shoot_with(app: &mut App, name: &str, shots: &mut Vec<Shot>, overlay: bool) {
    // A message shortened by more than its folders is followed by the key that shows it whole.
    let full_message = app.message().as_ref().map(words_of).unwrap_or_default();
    let (_, h0) = SIZES[0];
    app.update(Action::Resize(WIDE, h0));
    for (w, h) in SIZES {
        app.update(Action::Resize(WIDE, h));
        let wide = screen(app, WIDE, h);
        app.update(Action::Resize(w, h));
        let s = screen(app, w, h);
        let rows = if overlay {
            // The last three lines, where the overlay does not reach down over them (a tall
            // help page covers them too, and what it hides is not cut).
            let last = usize::from(h) - 3;
            let over = |line: &str| line.contains(['│', '└', '┘']);
            (0..usize::from(h))
                .filter(|&i| i < last || s.lines().nth(i).is_some_and(over))
                .collect()
        } else if app.data().is_some() {
            text_rows(app, &s)
        } else {
            Vec::new()
        };
        let failures = cut_words(&s, &wide, &full_message, &rows);
        shots.push(Shot {
            name: format!("{name}_{w}x{h}"),
            failures: failures.clone(),
        });
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), s);
    }
}

/// Fails with every cut word found, also written to `target/screens/<name>.cut-words.txt`.
fn report(name: &str, shots: Vec<Shot>) {
    let failed: Vec<String> = shots
        .into_iter()
        .filter(|s| !s.failures.is_empty())
        .map(|s| format!("{}:\n  {}", s.name, s.failures.join("\n  ")))
        .collect();
    let _ = std::fs::write(
        Path::new("target")
            .join("screens")
            .join(format!("{name}.cut-words.txt")),
        failed.join("\n"),
    );
    assert!(failed.is_empty(), "cut words:\n{}", failed.join("\n"));
}

#[test]
fn every_screen_at_three_sizes_keeps_its_words_whole() {
    let dir = fixed_dir("every_screen");
    let mut app = sample_app(&dir, SIZES[0]);
    let mut shots = Vec::new();
    shoot(&mut app, "main_curve", &mut shots);
    cmd(&mut app, Command::FocusNext);
    shoot(&mut app, "main_histogram", &mut shots);
    cmd(&mut app, Command::FocusNext);
    shoot(&mut app, "main_pairs", &mut shots);
    cmd(&mut app, Command::Help);
    shoot_overlay(&mut app, "help", &mut shots);
    cmd(&mut app, Command::Back);
    cmd(&mut app, Command::CycleSort);
    shoot(&mut app, "sorted", &mut shots);
    cmd(&mut app, Command::ThresholdPrompt);
    shoot_overlay(&mut app, "threshold_prompt", &mut shots);
    app.update(Action::PromptInput(PromptKey::Cancel));
    cmd(&mut app, Command::FilterPrompt);
    shoot_overlay(&mut app, "filter_prompt", &mut shots);
    app.update(Action::PromptInput(PromptKey::Cancel));
    cmd(&mut app, Command::JumpPrompt);
    shoot_overlay(&mut app, "jump_prompt", &mut shots);
    app.update(Action::PromptInput(PromptKey::Cancel));
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }));
    shoot(&mut app, "viewer", &mut shots);
    cmd(&mut app, Command::ToggleBandValues);
    shoot(&mut app, "viewer_band_values", &mut shots);
    cmd(&mut app, Command::ToggleBandValues);
    cmd(&mut app, Command::ToggleDiff);
    shoot(&mut app, "viewer_diff", &mut shots);
    cmd(&mut app, Command::ToggleDiff);
    cmd(&mut app, Command::Back);
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    assert_eq!(app.view(), View::Clusters);
    shoot(&mut app, "clusters", &mut shots);
    cmd(&mut app, Command::Open);
    shoot(&mut app, "cluster_open", &mut shots);
    cmd(&mut app, Command::Back);
    cmd(&mut app, Command::Back);
    cmd(&mut app, Command::ToggleCost);
    run_effects(&mut app);
    assert_eq!(app.view(), View::Cost);
    shoot(&mut app, "cost", &mut shots);
    cmd(&mut app, Command::CursorRight);
    cmd(&mut app, Command::Up);
    shoot(&mut app, "cost_cursor", &mut shots);
    cmd(&mut app, Command::CycleMetric);
    shoot(&mut app, "cost_memory", &mut shots);
    cmd(&mut app, Command::Back);
    report("every_screen", shots);
}

/// The screens that need the truth (a join of the 20,000 documents at t = 0.5).
#[test]
fn every_truth_screen_at_three_sizes_keeps_its_words_whole() {
    let dir = fixed_dir("truth_screens");
    let mut app = sample_app(&dir, SIZES[0]);
    let mut shots = Vec::new();
    cmd(&mut app, Command::ComputeTruth);
    run_effects(&mut app);
    shoot(&mut app, "truth", &mut shots);
    cmd(&mut app, Command::ToggleMissed);
    shoot(&mut app, "missed", &mut shots);
    cmd(&mut app, Command::ToggleMissed);
    cmd(&mut app, Command::PinFamily);
    run_effects(&mut app);
    shoot(&mut app, "family", &mut shots);
    report("truth_screens", shots);
}

#[test]
fn the_loading_screen_at_three_sizes() {
    let dir = fixed_dir("loading");
    let mut app = loading_app(&dir, SIZES[0]);
    for (w, h) in SIZES {
        app.update(Action::Resize(w, h));
        insta::assert_snapshot!(format!("loading_{w}x{h}"), screen(&app, w, h));
    }
}

/// The message line after `y`, after the labels file is read again on reopening, and after
/// an export: what happened stays whole at every size; ids and paths are what shortens.
#[test]
fn the_message_line_after_a_label_a_reopening_and_an_export() {
    let dir = fixed_dir("messages");
    let mut app = sample_app(&dir, SIZES[0]);
    cmd(&mut app, Command::FocusNext);
    cmd(&mut app, Command::FocusNext);
    for _ in 0..3 {
        cmd(&mut app, Command::Down);
    }
    cmd(&mut app, Command::LabelDuplicate);
    run_effects(&mut app);
    let text = app.message().as_ref().unwrap().text.clone();
    assert!(text.contains("saved 1 label to"), "{text}");
    let mut shots = Vec::new();
    for (w, h) in SIZES {
        app.update(Action::Resize(w, h));
        let s = screen(&app, w, h);
        let message = s.lines().nth(usize::from(h) - 2).unwrap().to_string();
        assert!(message.contains("saved 1 label"), "{w}×{h}: {message:?}");
        insta::assert_snapshot!(format!("message_label_{w}x{h}"), message.trim_end());
        let wide = screen(&app, WIDE, h);
        shots.push(Shot {
            name: format!("message_label_{w}x{h}"),
            failures: cut_words(&message, &wide, &with_more_hint(&text), &[]),
        });
    }

    // Reopening reads the labels back.
    let mut again = sample_app(&dir, SIZES[0]);
    let text = again.message().as_ref().unwrap().text.clone();
    assert!(text.contains("loaded 1 label from"), "{text}");
    for (w, h) in SIZES {
        again.update(Action::Resize(w, h));
        let s = screen(&again, w, h);
        let message = s.lines().nth(usize::from(h) - 2).unwrap().to_string();
        assert!(message.contains("loaded 1 label"), "{w}×{h}: {message:?}");
        insta::assert_snapshot!(format!("message_reopen_{w}x{h}"), message.trim_end());
        let wide = screen(&again, WIDE, h);
        shots.push(Shot {
            name: format!("message_reopen_{w}x{h}"),
            failures: cut_words(&message, &wide, &with_more_hint(&text), &[]),
        });
    }

    cmd(&mut app, Command::Export);
    run_effects(&mut app);
    let text = app.message().as_ref().unwrap().text.clone();
    assert!(text.starts_with("wrote "), "{text}");
    let words = words_of(app.message().as_ref().unwrap());
    for (w, h) in SIZES {
        app.update(Action::Resize(w, h));
        let s = screen(&app, w, h);
        let message = s.lines().nth(usize::from(h) - 2).unwrap().to_string();
        assert!(message.contains("wrote "), "{w}×{h}: {message:?}");
        insta::assert_snapshot!(format!("message_export_{w}x{h}"), message.trim_end());
        let wide = screen(&app, WIDE, h);
        shots.push(Shot {
            name: format!("message_export_{w}x{h}"),
            failures: cut_words(&message, &wide, &words, &[]),
        });
    }
    report("messages", shots);
}

#[test]
fn the_check_finds_cut_words_and_lets_marked_shortening_pass() {
    let full = "saved 1 label to target/screens/x/lshscope-sample.labels.csv job-000909 sort";
    let cut = |shown: &str| cut_words(shown, full, "", &[]);
    assert!(cut("saved 1 label to …/lshscope-sample.labels.csv").is_empty());
    assert!(cut("saved 1 label · job-0…909").is_empty());
    assert!(cut("saved 1 label to …").is_empty());
    assert!(cut("saved 1 label to …/lshscope…els.csv").is_empty());
    assert_eq!(cut("saved 1 label to …/lshscope…xyz.csv").len(), 1);
    assert_eq!(cut("s sor…").len(), 2, "{:?}", cut("s sor…"));
    assert_eq!(cut("saved 1 lab").len(), 1);
    assert_eq!(cut("saved 1 label…").len(), 1);
    // Counts written short with their unit glued are numbers; other glued letters are not.
    assert!(cut("saved 2k 1.2k 65+").is_empty());
    assert_eq!(cut("saved 2kb").len(), 1);
}
