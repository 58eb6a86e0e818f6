//! The clusters view's summary on the embedded sample at 80 × 24 and 100 × 30: the
//! cluster-size counts have a row of their own (none is drawn over a bar), the
//! center/components line is whole, and the largest sizes share the last bar when the
//! chart has no room for a bar each.

use crate::tui_support;

use lshscope::tui::app::View;
use lshscope::tui::clusters::clusters_layout;
use lshscope::tui::keys::Command;
use tui_support::*;

/// Bar glyphs ratatui's bar chart draws (full and partial blocks).
fn is_bar(c: char) -> bool {
    ('\u{2581}'..='\u{2588}').contains(&c)
}

#[test]
fn the_cluster_summary_keeps_counts_off_the_bars_and_its_lines_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = sample_app(dir.path(), (80, 24));
    cmd(&mut app, Command::ToggleClusters);
    run_effects(&mut app);
    assert_eq!(app.view(), View::Clusters);
    for size @ (w, h) in [(80, 24), (100, 30)] {
        let shown = screen(&app, w, h);
        let top = clusters_layout(size).top;
        let rows: Vec<&str> = shown
            .lines()
            .skip(usize::from(top.y) + 1)
            .take(usize::from(top.height) - 2)
            .collect();
        // The summary's own column ends where the chart's title starts.
        let chart_x = rows[0].find("cluster sizes").expect("the chart's title");
        let chart_col = rows[0][..chart_x].chars().count();
        for row in &rows {
            let chart: String = row.chars().skip(chart_col).collect();
            if chart.chars().any(is_bar) {
                assert!(
                    !chart.chars().any(|c| c.is_ascii_digit()),
                    "a count over the bars at {w}×{h}: {row:?}\n{shown}"
                );
            }
            let summary: String = row.chars().take(chart_col).collect();
            assert!(!summary.contains('…'), "cut at {w}×{h}: {row:?}\n{shown}");
        }
        let method = rows
            .iter()
            .find(|r| r.contains("center · components remove"))
            .unwrap_or_else(|| panic!("no method line at {w}×{h}\n{shown}"));
        assert!(method.contains("< t"), "{method:?}");
        // Each bar's count, in the last row of the summary, under the row of its size.
        let labels = rows[rows.len() - 2];
        let counts = rows[rows.len() - 1];
        assert!(labels.contains(" 2 ") && labels.contains(" 4 "), "{shown}");
        assert!(
            counts.chars().skip(chart_col).any(|c| c.is_ascii_digit()),
            "{shown}"
        );
        // The sample's clusters run to 256 members: at 80 columns there is no room for that
        // bar, and the last one counts every cluster from 65 members on.
        if w == 80 {
            assert!(labels.trim_end().ends_with(" 65+ │"), "{labels:?}\n{shown}");
        } else {
            assert!(labels.contains("256"), "{shown}");
        }
    }
}
