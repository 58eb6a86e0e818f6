//! The pictures in the documentation are screens of the real explorer: the App on the embedded
//! sample, driven by actions as the event loop drives it, rendered through ratatui's
//! TestBackend and written as SVG with the buffer's colours. Each test fails when the file in
//! `docs/` is not what the explorer draws today; `LSHSCOPE_UPDATE_PICTURES=1 cargo test --test
//! docs_pictures` redraws them.

use crate::tui_support;

use std::fmt::Write as _;
use std::path::PathBuf;

use lshscope::tui::app::App;
use lshscope::tui::keys::Command;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use tui_support::{cmd, run_effects, sample_app};

const UPDATE_VAR: &str = "LSHSCOPE_UPDATE_PICTURES";
const UPDATE_COMMAND: &str = "LSHSCOPE_UPDATE_PICTURES=1 cargo test --test tui docs_pictures";

/// Terminal size of the main screen's picture: wide enough for every panel's numbers, short
/// enough to read on a page. The viewer's texts are short, so its picture is shorter.
const MAIN: (u16, u16) = (150, 42);
const VIEWER: (u16, u16) = (150, 26);

fn buffer(app: &App) -> Buffer {
    let (columns, rows) = app.size();
    let mut terminal = Terminal::new(TestBackend::new(columns, rows)).unwrap();
    terminal
        .draw(|frame| lshscope::tui::ui::render(frame, app))
        .unwrap();
    terminal.backend().buffer().clone()
}

// ---- the buffer as SVG --------------------------------------------------------------------

/// One cell, in pixels. DejaVu Sans Mono's glyphs are 0.602 em wide and its box-drawing
/// characters span ascent + descent = 1.164 em, so at this size a row is exactly one line and
/// vertical borders join up.
const FONT_SIZE: f64 = 14.6;
const CELL_W: f64 = 8.8;
const CELL_H: f64 = 17.0;
/// The baseline sits the font's ascent (0.928 em) below a row's top.
const BASELINE: f64 = 13.5;
/// The terminal's own colours, where the explorer leaves them (`Color::Reset`).
const DEFAULT_FG: &str = "#d4d4d4";
const DEFAULT_BG: &str = "#1e1e1e";

/// The 16 ANSI colours as a common dark terminal theme (VS Code's) shows them.
fn ansi(index: u8) -> &'static str {
    [
        "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
        "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
    ][index as usize]
}

/// `None` is the terminal's default colour.
fn rgb(color: Color) -> Option<String> {
    let named = |i: u8| Some(ansi(i).to_string());
    match color {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => named(8),
        Color::LightRed => named(9),
        Color::LightGreen => named(10),
        Color::LightYellow => named(11),
        Color::LightBlue => named(12),
        Color::LightMagenta => named(13),
        Color::LightCyan => named(14),
        Color::White => named(15),
        Color::Rgb(r, g, b) => Some(format!("#{r:02x}{g:02x}{b:02x}")),
        Color::Indexed(i) if i < 16 => named(i),
        // xterm's 6×6×6 cube and its grey ramp.
        Color::Indexed(i) if i < 232 => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            let i = i - 16;
            Some(format!(
                "#{:02x}{:02x}{:02x}",
                level(i / 36),
                level(i / 6 % 6),
                level(i % 6)
            ))
        }
        Color::Indexed(i) => {
            let v = 8 + 10 * (i - 232);
            Some(format!("#{v:02x}{v:02x}{v:02x}"))
        }
    }
}

/// What a run of cells shares: the colours as painted (reverse video applied) and the font.
#[derive(Clone, PartialEq)]
struct Style {
    fg: String,
    bg: Option<String>,
    bold: bool,
    italic: bool,
    dim: bool,
    underline: bool,
    crossed: bool,
}

fn style_of(cell: &ratatui::buffer::Cell) -> Style {
    let m = cell.modifier;
    let mut fg = rgb(cell.fg);
    let mut bg = rgb(cell.bg);
    if m.contains(Modifier::REVERSED) {
        // Reverse video swaps the two, the terminal's defaults included.
        let (f, b) = (
            bg.unwrap_or_else(|| DEFAULT_BG.to_string()),
            fg.unwrap_or_else(|| DEFAULT_FG.to_string()),
        );
        fg = Some(f);
        bg = Some(b);
    }
    Style {
        fg: fg.unwrap_or_else(|| DEFAULT_FG.to_string()),
        bg: bg.filter(|b| b != DEFAULT_BG),
        bold: m.contains(Modifier::BOLD),
        italic: m.contains(Modifier::ITALIC),
        dim: m.contains(Modifier::DIM),
        underline: m.contains(Modifier::UNDERLINED),
        crossed: m.contains(Modifier::CROSSED_OUT),
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The buffer as an SVG image: a rectangle per run of cells with a background colour, then a
/// `<text>` per run of styled cells, stretched (`textLength`) to exactly its cells so columns
/// line up whatever monospace font the viewer picks. `title` is the image's accessible name.
fn svg(buffer: &Buffer, title: &str) -> String {
    let area = buffer.area;
    let (width, height) = (area.width as f64 * CELL_W, area.height as f64 * CELL_H);
    let mut backgrounds = String::new();
    let mut texts = String::new();
    for y in 0..area.height {
        // Runs of cells with one style: (first column, cells, style, text).
        let mut runs: Vec<(u16, u16, Style, String)> = Vec::new();
        let mut x = 0;
        while x < area.width {
            let cell = &buffer[(x, y)];
            let symbol = cell.symbol();
            // A wide character covers the next cell too, which holds an empty symbol.
            let cells = unicode_width::UnicodeWidthStr::width(symbol).clamp(1, 2) as u16;
            let style = style_of(cell);
            match runs.last_mut() {
                Some((start, n, s, text)) if *s == style && *start + *n == x => {
                    *n += cells;
                    text.push_str(symbol);
                }
                _ => runs.push((x, cells, style, symbol.to_string())),
            }
            x += cells;
        }
        let top = y as f64 * CELL_H;
        for (start, cells, style, text) in &runs {
            let left = *start as f64 * CELL_W;
            let span = *cells as f64 * CELL_W;
            if let Some(bg) = &style.bg {
                writeln!(
                    backgrounds,
                    r#"<rect x="{left:.1}" y="{top:.1}" width="{span:.1}" height="{CELL_H:.1}" fill="{bg}"/>"#
                )
                .unwrap();
            }
            let trimmed = text.trim_end();
            let visible = !trimmed.trim_start().is_empty() || style.underline || style.crossed;
            if !visible {
                continue;
            }
            // Leading and trailing blanks are left out (the position says where the text
            // starts), except under a line that spans them.
            let (skip, shown) = if style.underline || style.crossed {
                (0, text.as_str())
            } else {
                let lead = text.len() - text.trim_start().len();
                (text[..lead].chars().count(), trimmed.trim_start())
            };
            let shown_cells = unicode_width::UnicodeWidthStr::width(shown) as f64;
            let mut attrs = format!(
                r#"x="{:.1}" y="{:.1}" textLength="{:.1}""#,
                left + skip as f64 * CELL_W,
                top + BASELINE,
                shown_cells * CELL_W
            );
            if style.fg != DEFAULT_FG {
                write!(attrs, r#" fill="{}""#, style.fg).unwrap();
            }
            if style.bold {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if style.italic {
                attrs.push_str(r#" font-style="italic""#);
            }
            if style.dim {
                attrs.push_str(r#" opacity="0.6""#);
            }
            match (style.underline, style.crossed) {
                (true, true) => attrs.push_str(r#" text-decoration="underline line-through""#),
                (true, false) => attrs.push_str(r#" text-decoration="underline""#),
                (false, true) => attrs.push_str(r#" text-decoration="line-through""#),
                (false, false) => {}
            }
            writeln!(texts, "<text {attrs}>{}</text>", escape(shown)).unwrap();
        }
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" xml:space="preserve" role="img" aria-label="{title}">
<title>{title}</title>
<desc>Drawn by tests/tui/docs_pictures.rs from the explorer's screen; redraw with: {UPDATE_COMMAND}</desc>
<style>text {{ font-family: "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: {FONT_SIZE}px; white-space: pre; }}</style>
<rect width="100%" height="100%" fill="{DEFAULT_BG}"/>
{backgrounds}<g fill="{DEFAULT_FG}">
{texts}</g>
</svg>
"#,
        title = escape(title),
    )
}

// ---- the pictures --------------------------------------------------------------------------

/// Compares `docs/<name>` with `fresh`, or writes it when `LSHSCOPE_UPDATE_PICTURES` is set.
fn check_picture(name: &str, fresh: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "docs", name].iter().collect();
    if std::env::var_os(UPDATE_VAR).is_some() {
        std::fs::write(&path, fresh).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == fresh,
        "{} is not what the explorer draws today; redraw it with `{UPDATE_COMMAND}` and look \
         at it before committing",
        path.display()
    );
}

#[test]
fn explorer_main_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), MAIN);
    // A banding with a clear S-curve around the threshold, and the curve it left pinned.
    cmd(&mut app, Command::Pin);
    cmd(&mut app, Command::BandsDown);
    run_effects(&mut app);
    let picture = svg(
        &buffer(&app),
        "The lshscope explorer on the embedded sample: S-curve, histogram of candidate \
         similarities, candidate pairs",
    );
    check_picture("explorer.svg", &picture);
}

#[test]
fn explorer_pair_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), VIEWER);
    // The list starts with identical copies (reposts); a pair between 0.6 and 0.8 shows what
    // is shared and what is not.
    for _ in 0..200_000 {
        match app.selected_pair() {
            Some(pair) if pair.jaccard < 0.8 => break,
            Some(_) => cmd(&mut app, Command::Down),
            None => panic!("the sample has candidates"),
        }
    }
    let jaccard = app.selected_pair().unwrap().jaccard;
    assert!((0.6..0.8).contains(&jaccard), "selected J = {jaccard}");
    cmd(&mut app, Command::Open);
    let picture = svg(
        &buffer(&app),
        "The lshscope pair viewer: two documents side by side, shared shingles highlighted",
    );
    check_picture("explorer-viewer.svg", &picture);
}

/// The same pair in diff mode (`d`): what differs, aligned word by word.
#[test]
fn explorer_pair_viewer_in_diff_mode() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), VIEWER);
    for _ in 0..5_000 {
        match app.selected_pair() {
            Some(pair) if pair.jaccard < 0.8 => break,
            Some(_) => cmd(&mut app, Command::Down),
            None => panic!("the sample has candidates"),
        }
    }
    cmd(&mut app, Command::Open);
    cmd(&mut app, Command::ToggleDiff);
    let picture = svg(
        &buffer(&app),
        "The lshscope pair viewer in diff mode: the two documents aligned word by word, \
         deletions, insertions and changes marked, unchanged text dimmed",
    );
    check_picture("explorer-viewer-diff.svg", &picture);
}

/// The SVG writer keeps what the screen shows: every styled run, its colours and its place.
#[test]
fn svg_writes_runs_with_their_colours_and_places() {
    use ratatui::layout::Rect;
    use ratatui::style::Style as RStyle;
    let mut buffer = Buffer::empty(Rect::new(0, 0, 12, 2));
    buffer.set_string(0, 0, "ab<c", RStyle::default().fg(Color::Red));
    buffer.set_string(
        5,
        0,
        "sel",
        RStyle::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
    );
    buffer.set_string(2, 1, "x", RStyle::default().bg(Color::Rgb(1, 2, 3)));
    let out = svg(&buffer, "t");
    assert!(
        out.contains(r##"<text x="0.0" y="13.5" textLength="35.2" fill="#cd3131">ab&lt;c</text>"##),
        "{out}"
    );
    // Reverse video: the default background becomes the text colour, and the text gets a box.
    assert!(
        out.contains(&format!(
            r#"<rect x="44.0" y="0.0" width="26.4" height="17.0" fill="{DEFAULT_FG}"/>"#
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            r#"<text x="44.0" y="13.5" textLength="26.4" fill="{DEFAULT_BG}" font-weight="bold">sel</text>"#
        )),
        "{out}"
    );
    assert!(
        out.contains(r##"<rect x="17.6" y="17.0" width="8.8" height="17.0" fill="#010203"/>"##),
        "{out}"
    );
    assert_eq!(
        out.matches("<text ").count(),
        3,
        "blank runs draw nothing: {out}"
    );
}
