//! The diff of two texts as the pair viewer and learn mode draw it: the one-line summary
//! with its legend, and the two panes' rows from an [`AlignedLayout`], styled by what each
//! stretch of text is.

use std::ops::Range;

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::aligned::{AlignedLayout, ScreenRow};
use crate::tui::theme::Theme;
use lshscope_core::diff::{Kind, SegmentKind, Side, TextDiff};
use lshscope_core::util::numfmt::thousands;

/// The summary line: `diff`, the counts, a legend drawn in the styles it explains, then
/// `keys` (which keys jump and switch back, in the caller's key table) dimmed.
pub fn summary_line(theme: &Theme, diff: &TextDiff, keys: String) -> Line<'static> {
    let row = |kind| theme.diff(SegmentKind::Row { row: 0, kind });
    let mut spans = vec![
        Span::styled("diff ", theme.key()),
        Span::raw(format!("{}  ", diff.describe())),
    ];
    for (text, kind) in [
        ("deleted", Kind::Deleted),
        ("inserted", Kind::Inserted),
        ("changed", Kind::Changed),
        ("moved", Kind::MovedOut { to: 0 }),
    ] {
        spans.push(Span::styled(text, row(kind)));
        spans.push(Span::raw(" "));
    }
    if diff.cut.is_some() {
        spans.push(Span::styled(
            "not compared past the cap",
            theme.diff(SegmentKind::Uncompared),
        ));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(keys, theme.dim()));
    Line::from(spans)
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
                    // A tab is one space (as the layout counts it); other control
                    // characters (a `\r` before a line break) take no column.
                    let piece: String = text[from..to]
                        .chars()
                        .filter_map(|c| match c {
                            '\t' => Some(' '),
                            c if c.is_control() => None,
                            c => Some(c),
                        })
                        .collect();
                    if !piece.is_empty() {
                        spans.push(Span::styled(piece, style_of(segment.kind)));
                    }
                }
                Line::from(spans)
            }
            ScreenRow::Filler => Line::styled("╌".repeat(layout.width), theme.dim()),
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
