//! The diff of two texts as the pair viewer and learn mode draw it: the one-line summary
//! with its legend, and the two panes' rows from an [`AlignedLayout`], styled by what each
//! stretch of text is.

use std::ops::Range;

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::fit::{Field, fit_fields_with, fit_line};
use crate::tui::aligned::{AlignedLayout, MovePlace, ScreenRow};
use crate::tui::layout::shown_text;
use crate::tui::theme::Theme;
use lshscope_core::diff::{Kind, SegmentKind, Side, TextDiff};
use lshscope_core::util::numfmt::thousands;

/// The summary line in `width` columns: `diff`, the counts, a legend drawn in the styles it
/// explains, then `keys` (which keys jump and switch back, in the caller's key table) dimmed.
/// When it does not fit, the keys go first, then the legend, then the counts take their
/// brief form ([`lshscope_core::diff::Summary::describe_brief`]): what differs is the last
/// thing cut.
pub fn summary_line(theme: &Theme, diff: &TextDiff, keys: String, width: u16) -> Line<'static> {
    let row = |kind| theme.diff(SegmentKind::Row { row: 0, kind });
    let counts = |text: String| vec![Span::styled("diff ", theme.key()), Span::raw(text)];
    let mut legend = Vec::new();
    for (text, kind) in [
        ("deleted", Kind::Deleted),
        ("inserted", Kind::Inserted),
        ("changed", Kind::Changed),
        ("moved", Kind::MovedOut { to: 0 }),
    ] {
        if !legend.is_empty() {
            legend.push(Span::raw(" "));
        }
        legend.push(Span::styled(text, row(kind)));
    }
    if diff.cut.is_some() {
        legend.push(Span::raw(" "));
        legend.push(Span::styled(
            "not compared past the cap",
            theme.diff(SegmentKind::Uncompared),
        ));
    }
    let mut legend_and_keys = legend.clone();
    legend_and_keys.push(Span::raw(" "));
    legend_and_keys.push(Span::styled(keys, theme.dim()));
    let brief = diff.summary.describe_brief(diff.unit);
    fit_fields_with(
        vec![
            Field::new(0, counts(diff.describe())).or_short(counts(brief)),
            Field::new(1, legend_and_keys).or_short(legend),
        ],
        "  ",
        width,
    )
}

/// Rows `shown` of one pane: each stretch of text in the style of its kind
/// (the difference `current`, the one last jumped to, in bold), filler rows as a dim rule.
pub fn pane_lines(
    theme: &Theme,
    text: &str,
    diff: &TextDiff,
    layout: &AlignedLayout,
    side: Side,
    current: Option<usize>,
    shown: Range<usize>,
) -> Vec<Line<'static>> {
    let segments = layout.segments(side);
    let current_rows = current.and_then(|k| diff.differences.get(k).cloned());
    let style_of = |kind: SegmentKind| {
        let style = theme.diff(kind);
        match (kind, &current_rows) {
            (SegmentKind::Row { row, .. }, Some(rows)) if rows.contains(&row) => {
                style.add_modifier(Modifier::BOLD)
            }
            _ => style,
        }
    };
    layout
        .rows(side)
        .iter()
        .skip(shown.start)
        .take(shown.len())
        .map(|row| match row {
            ScreenRow::Text(range) => {
                // The first segment that ends inside or after the row, then on in order.
                let first = segments.partition_point(|s| s.range.end <= range.start);
                let mut spans = Vec::new();
                for segment in segments[first..]
                    .iter()
                    .take_while(|s| s.range.start < range.end)
                {
                    let from = segment.range.start.max(range.start);
                    let to = segment.range.end.min(range.end);
                    // Drawn as the layout counted it: a tab as a space, no control
                    // character.
                    let piece = shown_text(&text[from..to]);
                    if !piece.is_empty() {
                        spans.push(Span::styled(piece, style_of(segment.kind)));
                    }
                }
                Line::from(spans)
            }
            ScreenRow::Filler => Line::styled("╌".repeat(layout.width), theme.dim()),
            ScreenRow::Move { block, place } => fit_line(
                Span::styled(
                    move_marker(diff, layout, *block, *place, side),
                    theme.diff(SegmentKind::Row {
                        row: 0,
                        kind: Kind::MovedOut { to: 0 },
                    }),
                ),
                layout.width.min(u16::MAX as usize) as u16,
            ),
            ScreenRow::Omitted(bytes) => Line::styled(
                format!(
                    "… {} more bytes past the cap, not compared and not shown",
                    thousands(*bytes as u64)
                ),
                theme.diff(SegmentKind::Uncompared),
            ),
        })
        .collect()
}

/// The marker row of moved block `block` at `place` in the pane of `side`: at the old place
/// it heads the two copies side by side (where B has the block, what the move changed in
/// it), at the new place it stands for B's copy and says where that is shown. Lines are
/// counted from 1, as the pane's title counts them.
pub fn move_marker(
    diff: &TextDiff,
    layout: &AlignedLayout,
    block: usize,
    place: MovePlace,
    side: Side,
) -> String {
    let (old_row, new_row) = layout.move_rows.get(block).copied().unwrap_or_default();
    let (old_line, new_line) = (thousands(old_row as u64 + 1), thousands(new_row as u64 + 1));
    match (place, side) {
        (MovePlace::Old, Side::Left) => format!("▾ moved: B has it at line {new_line}"),
        (MovePlace::Old, Side::Right) => {
            let what = match diff.moves.get(block) {
                Some(m) if m.changed_left > 0 => {
                    format!("{} changed inside", thousands(m.changed_left as u64))
                }
                Some(m) if m.changed_right > 0 => {
                    format!("{} added inside", thousands(m.changed_right as u64))
                }
                _ => "unchanged".to_string(),
            };
            format!("▾ from line {new_line}: {what}")
        }
        (MovePlace::New, Side::Left) => format!("▴ moved block, shown at line {old_line}"),
        (MovePlace::New, Side::Right) => format!("▴ B has it here, shown at line {old_line}"),
    }
}
