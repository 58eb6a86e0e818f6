//! The pair viewer: both texts side by side with the characters of shared shingles
//! highlighted, a header with exact Jaccard, the estimate ±1σ, bands hit and edit-distance
//! metrics, and the band strip (optionally with every band's r signature values).

use std::borrow::Cow;
use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::fit::{Field, fit_fields, fit_fields_with, fit_line, title_room};
use crate::tui::aligned::align;
use crate::tui::app::{App, PairSource, View};
use crate::tui::keys::{Command, hint};
use crate::tui::layout::{ViewerLayout, shown_text, wrap_ranges};
use crate::tui::viewer::{METRIC_CHARS, PairView, ScrollSide};
use lshscope_core::diff::{Side, TextDiff};
use lshscope_core::minhash::similarity::{TextMetrics, estimate_sigma};
use lshscope_core::pipeline::Loaded;
use lshscope_core::util::numfmt::{for_count, thousands};

/// The wrapped lines of `text` with bytes inside `highlight` (sorted, disjoint) styled.
pub fn highlighted_lines(
    text: &str,
    highlight: &[Range<usize>],
    width: usize,
    style: Style,
) -> Vec<Line<'static>> {
    let styled: Vec<(Range<usize>, Style)> = highlight.iter().map(|r| (r.clone(), style)).collect();
    styled_lines(text, &styled, width)
}

/// The wrapped lines of `text` with the bytes of each range (sorted, disjoint) in its style,
/// the rest plain. Each char is drawn as the wrapping counted it ([`shown_text`]: a tab as a
/// space, no control character), piece by piece, so a style stays on the cells of its chars.
pub fn styled_lines(
    text: &str,
    styled: &[(Range<usize>, Style)],
    width: usize,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let mut h = 0;
    for line in wrap_ranges(text, width) {
        let mut spans = Vec::new();
        let mut pos = line.start;
        while pos < line.end {
            while h < styled.len() && styled[h].0.end <= pos {
                h += 1;
            }
            let (end, style) = match styled.get(h) {
                Some((r, style)) if r.start <= pos => (r.end.min(line.end), Some(*style)),
                Some((r, _)) => (r.start.min(line.end), None),
                None => (line.end, None),
            };
            let piece = shown_text(&text[pos..end]);
            spans.push(match style {
                Some(style) => Span::styled(piece, style),
                None => Span::raw(piece),
            });
            pos = end;
        }
        out.push(Line::from(spans));
    }
    out
}

/// The shared ranges in `shared_style` with the search's `matches` laid over them in
/// `match_style`: both sorted and disjoint, and so is the result.
pub fn with_matches(
    shared: &[Range<usize>],
    shared_style: Style,
    matches: &[Range<usize>],
    match_style: Style,
) -> Vec<(Range<usize>, Style)> {
    let mut out: Vec<(Range<usize>, Style)> = Vec::with_capacity(shared.len() + matches.len());
    let mut m = 0;
    for r in shared {
        let mut start = r.start;
        while m < matches.len() && matches[m].end <= start {
            m += 1;
        }
        let mut k = m;
        while start < r.end {
            match matches.get(k) {
                Some(hit) if hit.start < r.end => {
                    if hit.start > start {
                        out.push((start..hit.start, shared_style));
                    }
                    start = start.max(hit.end);
                    k += 1;
                }
                _ => {
                    out.push((start..r.end, shared_style));
                    start = r.end;
                }
            }
        }
    }
    out.extend(matches.iter().map(|hit| (hit.clone(), match_style)));
    out.sort_by_key(|(r, _)| r.start);
    out
}

/// The header line in diff mode, `width` columns: the summary, the legend, and the keys of
/// the viewer.
fn diff_summary_line(app: &App, diff: &TextDiff, width: u16) -> Line<'static> {
    let keys = format!(
        "({}/{} jump, {} shows shared shingles)",
        hint(Command::PrevDifference),
        hint(Command::NextDifference),
        hint(Command::ToggleDiff)
    );
    super::diff::summary_line(app.theme(), diff, keys, width)
}

/// The edit-based metrics and what they were computed on: Levenshtein is quadratic, so they
/// see the first [`METRIC_CHARS`] characters of each text. When a text is longer, the line
/// gives both lengths in full (in words short enough to fit 100 columns).
/// The edit-based metrics and what they cover, as a field whose short form drops
/// "(normalized)" and "edit-based": what the numbers cover is said first when it is not the
/// whole texts, so a narrow header loses a metric before it loses that.
fn metrics_line(m: &TextMetrics, chars_a: usize, chars_b: usize) -> Field<'static> {
    let (lev, jw, dice) = (m.normalized_levenshtein, m.jaro_winkler, m.sorensen_dice);
    if chars_a.max(chars_b) <= METRIC_CHARS {
        return Field::new(
            0,
            format!(
                "Levenshtein (normalized) {lev:.3} · Jaro-Winkler {jw:.3} · Sørensen–Dice \
                 {dice:.3} (edit-based, whole texts)"
            ),
        )
        .or_short(format!(
            "Levenshtein {lev:.3} · Jaro-Winkler {jw:.3} · Sørensen–Dice {dice:.3} (whole texts)"
        ));
    }
    let covered = format!(
        "first {} chars of {} and {}",
        thousands(METRIC_CHARS as u64),
        thousands(chars_a as u64),
        thousands(chars_b as u64)
    );
    let metrics = format!("Levenshtein {lev:.3} · Jaro-Winkler {jw:.3} · Dice {dice:.3}");
    Field::new(0, format!("{metrics}: {covered}")).or_short(format!("{covered}: {metrics}"))
}

/// The pair viewer: a header of facts about the pair, the band strip, and the two texts.
pub fn render(frame: &mut Frame, app: &App, l: &ViewerLayout) {
    let (Some(view), Some(data)) = (app.viewer().pair(), app.data().as_ref()) else {
        return;
    };
    let header: Vec<Line> = header_lines(app, view, data, l.header.width)
        .into_iter()
        .map(|line| fit_line(line, l.header.width))
        .collect();
    frame.render_widget(Paragraph::new(header), l.header);

    render_band_strip(frame, app, view, l.strip);

    let left = Pane {
        pos: view.a(),
        ranges: view.ranges_a(),
        scroll: view.scroll_a(),
        side: ScrollSide::Left,
        diff_side: Side::Left,
    };
    let right = Pane {
        pos: view.b(),
        ranges: view.ranges_b(),
        scroll: view.scroll_b(),
        side: ScrollSide::Right,
        diff_side: Side::Right,
    };
    render_pane(frame, app, view, data, l.left, left);
    render_pane(frame, app, view, data, l.right, right);
}

/// Where the open pair is: in the candidate list, the missed list, or neither.
fn position_text(app: &App, view: &PairView) -> String {
    app.candidates()
        .result()
        .and_then(|r| {
            let is_open =
                |&i: &u32| (r.pairs[i as usize].a, r.pairs[i as usize].b) == (view.a(), view.b());
            // The open pair is nearly always the selected one; only after a re-banding or a
            // filter change does the (possibly million-row) list need a search.
            let list = app.candidates().list();
            match list.rows().get(list.selected()) {
                Some(i) if is_open(i) => Some(list.selected()),
                _ => list.rows().iter().position(is_open),
            }
        })
        .map(|i| {
            format!(
                "pair {} of {}",
                thousands(i as u64 + 1),
                thousands(app.candidates().list().len() as u64)
            )
        })
        .or_else(|| {
            let t = app.truth();
            let from_missed = app.view()
                == View::Viewer {
                    from: PairSource::Missed,
                };
            let p = app.selected_missed().filter(|_| from_missed)?;
            ((p.a, p.b) == (view.a(), view.b())).then(|| {
                format!(
                    "missed pair {} of {} (true J ≥ t, not a candidate)",
                    thousands(t.missed().selected() as u64 + 1),
                    thousands(t.missed().len() as u64)
                )
            })
        })
        .unwrap_or_else(|| format!("not a candidate at {}", app.curve().banding))
}

/// The header's lines: ids, position and label; Jaccard and bands hit; the estimate; the
/// text metrics; what the panes highlight (or the diff's summary).
fn header_lines<'a>(app: &'a App, view: &PairView, data: &Loaded, width: u16) -> Vec<Line<'a>> {
    let theme = app.theme();
    let k = app.num_perm();
    let (id_a, id_b) = (
        data.corpus.id(view.a() as usize),
        data.corpus.id(view.b() as usize),
    );
    // Opened from a cluster: where the edge is in it.
    let position =
        super::clusters::viewer_position(app).unwrap_or_else(|| position_text(app, view));
    let label = match app.label_of(view.a(), view.b()) {
        Some(lbl) => Span::styled(format!("label: {}", lbl.as_str()), theme.label(lbl)),
        None => Span::styled(
            format!(
                "unlabelled ({}/{}/{})",
                hint(Command::LabelDuplicate),
                hint(Command::LabelNotDuplicate),
                hint(Command::LabelUnsure)
            ),
            theme.dim(),
        ),
    };
    let sigma = estimate_sigma(view.jaccard(), k);
    let hit = view.collided().iter().filter(|&&c| c).count();
    let m = view.metrics();
    vec![
        Line::from(vec![
            Span::styled(format!("{id_a}  ⟷  {id_b}"), theme.title()),
            Span::raw(format!("   {position}   ")),
            label,
        ]),
        {
            // The sizes go first on a narrow terminal; every word left is one of the full
            // line's.
            let union = view.shingles_a() + view.shingles_b() - view.shared_shingles();
            fit_fields_with(
                vec![
                    Field::new(
                        0,
                        vec![
                            Span::styled(format!("Jaccard {:.3}", view.jaccard()), theme.key()),
                            Span::raw(format!(
                                " = {} shared / {} in the union",
                                thousands(view.shared_shingles() as u64),
                                thousands(union as u64),
                            )),
                        ],
                    ),
                    Field::new(
                        1,
                        format!(
                            "(A has {}, B {})",
                            thousands(view.shingles_a() as u64),
                            thousands(view.shingles_b() as u64),
                        ),
                    ),
                    Field::new(
                        0,
                        Span::styled(
                            format!(
                                " bands hit {} of {}",
                                thousands(hit as u64),
                                thousands(view.collided().len() as u64)
                            ),
                            theme.key(),
                        ),
                    ),
                ],
                " ",
                width,
            )
        },
        Line::from(Span::raw(format!(
            "MinHash estimate {:.3} ± {:.3} (1σ = √(J(1−J)/K), K = {k})",
            view.estimate(),
            sigma
        ))),
        fit_fields(
            vec![metrics_line(
                m,
                data.corpus.text(view.a() as usize).chars().count(),
                data.corpus.text(view.b() as usize).chars().count(),
            )],
            width,
        ),
        match (view.diff(), app.viewer().diff_mode()) {
            (Some(diff), true) => diff_summary_line(app, diff, width),
            _ => {
                let kind = &data.index.options.shingle.kind;
                fit_fields_with(
                    vec![
                        Field::new(
                            0,
                            Span::styled(
                                format!(
                                    "highlighted: characters inside {kind} shingles both \
                                     documents contain"
                                ),
                                theme.dim(),
                            ),
                        )
                        .or_short(Span::styled(
                            format!("highlighted: {kind} shingles both documents contain"),
                            theme.dim(),
                        )),
                        Field::new(
                            0,
                            Span::styled(
                                format!("({} shows what differs)", hint(Command::ToggleDiff)),
                                theme.dim(),
                            ),
                        ),
                    ],
                    " ",
                    width,
                )
            }
        },
    ]
}

/// One text pane: which document, its shared-shingle ranges, its scroll and its side.
struct Pane<'v> {
    pos: u32,
    ranges: &'v [Range<usize>],
    scroll: usize,
    side: ScrollSide,
    diff_side: Side,
}

/// A text pane in `rect`: the aligned diff in diff mode, else the text with its shared
/// shingles and search matches highlighted; its title names the document, its bottom the
/// lines shown.
fn render_pane(
    frame: &mut Frame,
    app: &App,
    view: &PairView,
    data: &Loaded,
    rect: Rect,
    pane: Pane,
) {
    let theme = app.theme();
    let Pane {
        pos,
        ranges,
        scroll,
        side,
        diff_side,
    } = pane;
    let text = data.corpus.text(pos as usize);
    let chars = text.chars().count() as u64;
    let width = rect.width.saturating_sub(2) as usize;
    let rows = rect.height.saturating_sub(2) as usize;
    // Diff mode: the aligned layout made when the pair opened (or the size changed); a
    // frame drawn at another width than the app knows lays the pair out for itself.
    let aligned = match (view.diff(), app.viewer().diff_mode()) {
        (Some(diff), true) => Some((
            diff,
            match view.aligned() {
                Some(layout) if layout.width == width.max(1) => Cow::Borrowed(layout),
                _ => Cow::Owned(align(
                    diff,
                    data.corpus.text(view.a() as usize),
                    data.corpus.text(view.b() as usize),
                    width,
                )),
            },
        )),
        _ => None,
    };
    let (lines, total, scroll) = match &aligned {
        Some((diff, layout)) => {
            // The panes scroll as one: the left's position is both's.
            let scroll = view.scroll_a().min(layout.len().saturating_sub(rows));
            let lines = super::diff::pane_lines(
                theme,
                text,
                diff,
                layout,
                diff_side,
                view.difference(),
                scroll..scroll + rows,
            );
            (lines, layout.len(), scroll)
        }
        None => {
            let matches = view.search().map_or(&[][..], |s| match diff_side {
                Side::Left => s.matches_a(),
                Side::Right => s.matches_b(),
            });
            let match_style = theme.selected().add_modifier(Modifier::UNDERLINED);
            let styled = with_matches(ranges, theme.shared(), matches, match_style);
            let lines = styled_lines(text, &styled, width);
            let total = lines.len();
            let scroll = scroll.min(total.saturating_sub(rows));
            let shown: Vec<Line> = lines.into_iter().skip(scroll).take(rows).collect();
            (shown, total, scroll)
        }
    };
    let focused = view.side() == ScrollSide::Both || view.side() == side;
    let block = Block::bordered()
        .border_style(if focused && view.side() != ScrollSide::Both {
            theme.focused_border()
        } else {
            theme.border()
        })
        .title(fit_line(
            vec![
                Span::styled(format!(" {} ", data.corpus.id(pos as usize)), theme.title()),
                Span::styled(
                    format!(
                        "{} {} ",
                        thousands(chars),
                        for_count(chars, "char", "chars")
                    ),
                    theme.dim(),
                ),
            ],
            title_room(rect),
        ))
        .title_bottom(fit_line(
            Span::styled(
                format!(
                    " lines {}–{} of {} ",
                    thousands((scroll + 1).min(total) as u64),
                    thousands((scroll + rows).min(total) as u64),
                    thousands(total as u64)
                ),
                theme.dim(),
            ),
            title_room(rect),
        ));
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// b cells, one per band: `█` when the band collided (same r values, same bucket), `·` when
/// not; with `v`, each band's r values for both documents, equal values marked.
fn render_band_strip(frame: &mut Frame, app: &App, view: &PairView, area: Rect) {
    let theme = app.theme();
    let b = app.curve().banding;
    let hit = view.collided().iter().filter(|&&c| c).count();
    let toggle = hint(Command::ToggleBandValues);
    let values = if app.viewer().show_values() {
        format!("({toggle} hides values) ")
    } else {
        format!("({toggle} shows each band's values) ")
    };
    // On a narrow terminal the hints go (the footer names the key too), then the legend.
    let title = fit_fields_with(
        vec![
            Field::new(
                0,
                vec![
                    Span::styled(" Band strip ", theme.title()),
                    Span::raw(format!(
                        "{b}: {} of {} {} collided ",
                        thousands(hit as u64),
                        thousands(b.bands as u64),
                        for_count(b.bands as u64, "band", "bands")
                    )),
                ],
            ),
            Field::new(1, Span::styled("█ collided  · not ", theme.dim())),
            Field::new(2, Span::styled(values, theme.dim())),
        ],
        // Each field ends with a space: two between fields, one before the border.
        " ",
        title_room(area),
    );
    let block = Block::bordered().border_style(theme.border()).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let hit_style = if theme.mono {
        Style::default().add_modifier(Modifier::BOLD)
    } else {
        theme.good()
    };
    let mut cells = Vec::new();
    for &c in view.collided() {
        cells.push(if c {
            Span::styled("█ ", hit_style)
        } else {
            Span::styled("· ", theme.dim())
        });
    }
    let mut lines: Vec<Line> = Vec::new();
    // Wrap the cells to the strip width (two columns per band).
    let per_line = (inner.width as usize / 2).max(1);
    for chunk in cells.chunks(per_line) {
        lines.push(Line::from(chunk.to_vec()));
    }
    if app.viewer().show_values() {
        let Some(data) = &app.data() else { return };
        let (ra, rb) = (
            data.index.signatures.row(view.a() as usize),
            data.index.signatures.row(view.b() as usize),
        );
        let room = (inner.height as usize).saturating_sub(lines.len());
        // Collided bands first: they are why the pair is a candidate.
        let mut order: Vec<usize> = (0..b.bands).filter(|&i| view.collided()[i]).collect();
        order.extend((0..b.bands).filter(|&i| !view.collided()[i]));
        let shown = if order.len() > room {
            room.saturating_sub(1)
        } else {
            order.len()
        };
        for &band in order.iter().take(shown) {
            let rows = band * b.rows..(band + 1) * b.rows;
            let mut spans = vec![Span::styled(
                format!(
                    "{:>4} {} ",
                    band + 1,
                    if view.collided()[band] { "█" } else { "·" }
                ),
                if view.collided()[band] {
                    hit_style
                } else {
                    theme.dim()
                },
            )];
            for (side, row) in [("A", ra), ("B", rb)] {
                spans.push(Span::styled(format!("{side} "), theme.dim()));
                for r in rows.clone() {
                    let same = ra[r] == rb[r];
                    spans.push(Span::styled(
                        format!("{:08x}", row[r]),
                        if same {
                            theme.shared()
                        } else {
                            Style::default()
                        },
                    ));
                    spans.push(Span::raw(" "));
                }
                spans.push(Span::raw("  "));
            }
            // r = 8 values of both documents take 160 columns: cut lines end with `…`.
            lines.push(fit_line(spans, inner.width));
        }
        if shown < order.len() {
            lines.push(fit_line(
                Span::styled(
                    format!(
                        "… {} more bands (a taller terminal shows more)",
                        thousands((order.len() - shown) as u64)
                    ),
                    theme.dim(),
                ),
                inner.width,
            ));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_lay_over_the_shared_ranges() {
        let (shared, hit) = (
            Style::default(),
            Style::default().add_modifier(Modifier::BOLD),
        );
        let out = with_matches(&[0..10, 20..30], shared, &[5..8, 9..22, 40..42], hit);
        let expected = vec![
            (0..5, shared),
            (5..8, hit),
            (8..9, shared),
            (9..22, hit),
            (22..30, shared),
            (40..42, hit),
        ];
        assert_eq!(out, expected);
        let one: Vec<Range<usize>> = std::iter::once(0..4).collect();
        assert_eq!(with_matches(&one, shared, &[], hit), vec![(0..4, shared)]);
    }

    #[test]
    fn metrics_say_what_they_cover() {
        let m = TextMetrics {
            normalized_levenshtein: 0.5,
            jaro_winkler: 0.75,
            sorensen_dice: 0.25,
        };
        let text = |spans: &[ratatui::text::Span]| -> String {
            spans.iter().map(|s| s.content.as_ref()).collect()
        };
        let short = metrics_line(&m, 120, 2000);
        assert!(text(&short.full).ends_with("(edit-based, whole texts)"));
        assert!(text(short.short.as_ref().unwrap()).ends_with("(whole texts)"));
        let long = metrics_line(&m, 2_007_663, 150);
        assert_eq!(
            text(&long.full),
            "Levenshtein 0.500 · Jaro-Winkler 0.750 · Dice 0.250: first 2,000 chars of \
             2,007,663 and 150"
        );
        // Narrower, what they cover comes first: a cut takes a metric, not that.
        assert_eq!(
            text(long.short.as_ref().unwrap()),
            "first 2,000 chars of 2,007,663 and 150: Levenshtein 0.500 · Jaro-Winkler 0.750 · \
             Dice 0.250"
        );
        let long = text(&long.full);
        assert!(long.chars().count() <= 98, "fits the header at 100 columns");
    }

    #[test]
    fn highlights_cross_line_breaks() {
        let text = "aaaa bbbb cccc";
        let style = Style::default().add_modifier(Modifier::REVERSED);
        let shared: Vec<Range<usize>> = std::iter::once(3..7).collect();
        let lines = highlighted_lines(text, &shared, 5, style);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].spans[0].content, "aaa");
        assert_eq!(lines[0].spans[1].content, "a ");
        assert_eq!(lines[0].spans[1].style, style);
        assert_eq!(lines[1].spans[0].content, "bb");
        assert_eq!(lines[1].spans[0].style, style);
        assert_eq!(lines[1].spans[1].content, "bb ");
    }
}
