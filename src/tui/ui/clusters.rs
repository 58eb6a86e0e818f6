//! The clusters view: the summary and the cluster-size histogram, the cluster list, and an
//! open cluster's members and edges (the farthest pair, the false removals, then its
//! spanning edges weakest first), each edge opening in the pair viewer. Everything shows the
//! method the state asks for (center or components); the summary gives both methods' counts.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Cell, Paragraph, Row, Table, Wrap};
use unicode_width::UnicodeWidthStr;

use super::fit::{ELLIPSIS, Field, fit_fields, fit_line, table_column_widths, title_room};
use super::pairs::{TableRow, render_table};
use crate::tui::app::{App, PairSource, View};
use crate::tui::clusters::{EdgeKind, Shown, method_label, other_method};
use crate::tui::keys::{Command, hint};
use lshscope_core::analysis::dedup::Clustering;
use lshscope_core::util::numfmt::{compact, for_count, thousands};

/// The block title: what the clusters answer, and whether they are current.
fn title_spans(app: &App, what: &str) -> Vec<Span<'static>> {
    let theme = app.theme();
    let mut spans = vec![Span::styled(format!(" {what} "), theme.title())];
    let Some(r) = app.clusters().result() else {
        return spans;
    };
    if let Some(source) = app.imported().source() {
        // The clusters are the file's; only the audit's t changes.
        spans.push(Span::raw(format!(
            "{source} · audit at t {} · sort {} ",
            r.threshold,
            r.sort.label()
        )));
        if app.clusters().is_stale(r.banding, app.curve().threshold) {
            spans.push(Span::styled(
                format!("· auditing at t {}… ", app.curve().threshold),
                theme.warning(),
            ));
        }
        return spans;
    }
    let method = app.clusters().method();
    spans.push(Span::raw(format!(
        "J ≥ {} · {} · {} · sort {} ",
        r.threshold,
        r.banding,
        method_label(method),
        r.sort.label()
    )));
    if app
        .clusters()
        .is_stale(app.curve().banding, app.curve().threshold)
    {
        spans.push(Span::styled(
            format!(
                "· computing {}, t {}… ",
                app.curve().banding,
                app.curve().threshold
            ),
            theme.warning(),
        ));
    }
    spans
}

/// The summary (left) and the cluster-size histogram (right).
pub fn render_summary(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let block = Block::bordered()
        .border_style(theme.border())
        .title(fit_line(title_spans(app, "Clusters"), title_room(area)));
    let (Some(r), Some(data)) = (app.clusters().result(), &app.data()) else {
        let text = match (app.candidates().result(), app.clusters().job().running()) {
            (None, _) => "banding…".to_string(),
            // Joining a large corpus's buckets takes a while: say which phase and how far.
            (Some(_), Some(job)) => {
                let s = job.progress.snapshot();
                let fraction = s
                    .fraction()
                    .map(|f| format!(" {:.0} %", f * 100.0))
                    .unwrap_or_default();
                let source = if job.request.from_buckets.is_some() {
                    " (from the buckets, as dedup)"
                } else {
                    ""
                };
                format!("clustering{source}… {}{fraction}", s.phase.label())
            }
            (Some(_), None) => "clustering…".to_string(),
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    };
    let documents = data.corpus.len();
    let shown = r.shown(app.clusters().method());
    let c = shown.clusters;
    let removed = c.removed_documents();
    let share = 100.0 * removed as f64 / documents.max(1) as f64;
    let mut lines = vec![
        Line::from(format!(
            "{} {} · {} documents in clusters",
            thousands(c.len() as u64),
            for_count(c.len() as u64, "cluster", "clusters"),
            thousands(c.clustered_documents() as u64)
        )),
        Line::from(format!(
            "{} {} removed ({share:.1} % of {})",
            thousands(removed as u64),
            for_count(removed as u64, "document", "documents"),
            thousands(documents as u64)
        )),
        Line::from(vec![
            Span::styled(
                format!("{} chained", thousands(shown.chained as u64)),
                if shown.chained > 0 {
                    theme.warning()
                } else {
                    theme.good()
                },
            ),
            Span::raw(match r.removed_below_t {
                // An imported pairs file: what joining unverified pairs costs.
                Some(n) => format!(" · {} removed only via pairs < t", thousands(n as u64)),
                None => format!(
                    " · {} identical copies",
                    thousands(r.identical.copies() as u64)
                ),
            }),
        ]),
        Line::default(),
        Line::from(Span::styled(
            match (app.imported().result(), app.imported().source()) {
                (Some(i), Some(_)) if i.kind == crate::tui::imported::ImportKind::Pairs => {
                    "joined: every imported pair, verified or not".to_string()
                }
                (Some(i), Some(_)) if i.sampled_trees > 0 => format!(
                    "as imported; {} large clusters' trees sampled",
                    thousands(i.sampled_trees as u64)
                ),
                (Some(_), Some(_)) => "as imported; trees over exact J".to_string(),
                // The candidates are sampled: the job joined the buckets, as `dedup` does.
                _ if r.from_buckets => "joined in buckets as dedup: exact J ≥ t".to_string(),
                _ => "joined: exact J ≥ t, copies first".to_string(),
            },
            theme.dim(),
        )),
    ];
    if let Some(took) = app.clusters().last_latency() {
        lines.push(Line::from(Span::styled(
            format!("clustered in {} ms", took.as_millis()),
            theme.dim(),
        )));
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // Wider terminals give the summary's lines more room before the histogram, which keeps
    // room for its bars; the method line, the widest, takes its short form when narrow.
    let chart_room = (shown.clusters.size_distribution().len() as u16 * 4).max(MIN_CHART_WIDTH);
    let left_width = (inner.width * 45 / 100)
        .clamp(50, 72)
        .max(method_line(app, r, shown, u16::MAX).width() as u16 + 1)
        .min(inner.width.saturating_sub(chart_room))
        .max(50.min(inner.width));
    let [left, right] =
        Layout::horizontal([Constraint::Length(left_width), Constraint::Fill(1)]).areas(inner);
    // One column stays free between the summary and the chart.
    let text_width = left.width.saturating_sub(1);
    lines[3] = method_line(app, r, shown, text_width);
    let lines: Vec<Line> = lines.into_iter().map(|l| fit_line(l, text_width)).collect();
    frame.render_widget(Paragraph::new(lines), left);
    render_histogram(frame, app, shown, right);
}

/// Both methods side by side: the one shown, and what the other removes; the components'
/// false removals (removed although below t against the kept document) in warning colour.
/// Each field has a short form, which a narrow summary takes before cutting anything.
fn method_line(
    app: &App,
    r: &crate::tui::clusters::ClustersOutcome,
    shown: Shown,
    width: u16,
) -> Line<'static> {
    let theme = app.theme();
    let false_style = if r.false_removals > 0 {
        theme.warning()
    } else {
        theme.good()
    };
    let false_count = thousands(r.false_removals as u64);
    let fields = match (&r.center, shown.method) {
        // An imported result: the tool's clusters, audited against their kept documents.
        (None, _) => vec![
            Field::new(
                0,
                Line::from(vec![
                    Span::raw("as the tool: "),
                    Span::styled(format!("{false_count} removed < t vs kept"), false_style),
                ]),
            )
            .or_short(Line::from(vec![
                Span::raw("as the tool: "),
                Span::styled(format!("{false_count} < t"), false_style),
            ])),
        ],
        (Some(_), Clustering::Center) => {
            let other = thousands(r.clusters.removed_documents() as u64);
            vec![
                Field::new(0, Span::styled("center", theme.title())),
                Field::new(
                    0,
                    Line::from(vec![
                        Span::raw(format!("components remove {other}, ")),
                        Span::styled(format!("{false_count} < t vs kept"), false_style),
                    ]),
                )
                .or_short(Line::from(vec![
                    Span::raw(format!("components remove {other} (")),
                    Span::styled(format!("{false_count} < t"), false_style),
                    Span::raw(")"),
                ])),
            ]
        }
        (Some(center), Clustering::Components) => vec![
            Field::new(0, Span::styled("components", theme.title())),
            Field::new(
                0,
                Span::styled(format!("{false_count} removed < t vs kept"), false_style),
            )
            .or_short(Span::styled(format!("{false_count} < t"), false_style)),
            Field::new(
                0,
                format!(
                    "center {}",
                    thousands(center.clusters.removed_documents() as u64)
                ),
            ),
        ],
    };
    fit_fields(fields, width)
}

/// The chart's narrowest: three-column bars and their gaps for 2 to 128.
const MIN_CHART_WIDTH: u16 = 28;

/// Cluster sizes in powers of two, drawn inside the summary panel's right half: the bars,
/// each bin's upper bound under its bar, and under that the bin's count of clusters (in
/// its own row, so that no count is drawn over a bar or left out for a narrow one).
fn render_histogram(frame: &mut Frame, app: &App, shown: Shown, area: Rect) {
    let theme = app.theme();
    let mut bins = shown.clusters.size_distribution();
    if bins.is_empty() || area.height < 4 {
        return;
    }
    let gap = 1;
    let width = (area.width / bins.len().max(1) as u16)
        .saturating_sub(gap)
        .clamp(3, 9);
    // Bins past the room for bars join the last bar that fits, named by its lower bound
    // (`65+`): every cluster is counted, the largest ones together.
    let fitting = usize::from((area.width + gap) / (width + gap)).max(1);
    let mut open_ended = false;
    if bins.len() > fitting {
        let largest: usize = bins[fitting - 1..].iter().map(|&(_, _, n)| n).sum();
        bins.truncate(fitting);
        bins[fitting - 1].2 = largest;
        open_ended = true;
    }
    let last = bins.len() - 1;
    let size_label = |n: usize| {
        if n >= 1024 {
            format!("{}k", n / 1024)
        } else {
            n.to_string()
        }
    };
    let bars: Vec<Bar> = bins
        .iter()
        .enumerate()
        .map(|(i, &(lo, hi, n))| {
            // The upper bound names the bin (2, 4, 8, … 1k): short enough for narrow bars.
            let label = if open_ended && i == last {
                format!("{}+", size_label(lo))
            } else {
                size_label(hi)
            };
            Bar::default()
                .value(n as u64)
                .label(Line::from(label))
                .text_value(String::new())
        })
        .collect();
    let [chart, counts] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let chart_widget = BarChart::default()
        .block(Block::default().title(Span::styled("cluster sizes", theme.dim())))
        .data(BarGroup::default().bars(&bars))
        .bar_width(width)
        .bar_gap(gap)
        .bar_style(theme.title());
    frame.render_widget(chart_widget, chart);
    // Each count in its bar's columns and the gap after it, in the widest form that fits.
    let room = usize::from(width + gap);
    let mut row = String::new();
    for (i, &(_, _, n)) in bins.iter().enumerate() {
        let text = count_in(n as u64, room);
        let start = i * room;
        if start + text.width() > usize::from(counts.width) {
            break;
        }
        row.push_str(&format!(
            "{text:^w$}",
            w = room.min(usize::from(counts.width) - start)
        ));
    }
    frame.render_widget(Paragraph::new(row).style(theme.dim()), counts);
}

/// `n` in fewer than `room` columns (a column stays free before the next count): `6,011`,
/// else `6.0 k`, `6.0k`, `6k`, or `…` when not even that fits.
fn count_in(n: u64, room: usize) -> String {
    let compact = compact(n);
    let joined = compact.replace(' ', "");
    let rounded = match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{}k", (n + 500) / 1_000),
        _ => format!("{}M", (n + 500_000) / 1_000_000),
    };
    [thousands(n), compact, joined, rounded]
        .into_iter()
        .find(|t| t.width() < room)
        .unwrap_or_else(|| ELLIPSIS.to_string())
}

/// The cluster list: kept document, size, weakest link, farthest pair, chained flag.
pub fn render_list(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let list = app.clusters().list();
    let mut title = vec![Span::styled(" Cluster list ", theme.title())];
    title.push(Span::raw(format!("{} ", thousands(list.len() as u64))));
    // The switch's key is out of the footer (it is full at 80 columns): named here.
    if let Some(r) = app.clusters().result()
        && r.center.is_some()
    {
        title.push(Span::styled(
            format!(
                "· {} shows {} ",
                hint(Command::SwitchClustering),
                method_label(other_method(app.clusters().method()))
            ),
            theme.dim(),
        ));
    }
    let block = Block::bordered()
        .border_style(theme.focused_border())
        .title(Line::from(title));
    let (Some(r), Some(data)) = (app.clusters().result(), &app.data()) else {
        frame.render_widget(Block::bordered().border_style(theme.border()), area);
        return;
    };
    let shown = r.shown(app.clusters().method());
    if list.is_empty() {
        let text = format!(
            "No cluster: no candidate pair has J ≥ {} at {} (lower t with {}, or b/r).",
            r.threshold,
            r.banding,
            hint(Command::ThresholdDown)
        );
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    }
    let rows_shown = area.height.saturating_sub(3) as usize;
    let widths = [
        Constraint::Length(6),
        Constraint::Length(id_width(
            data,
            list.rows()
                .iter()
                .skip(list.offset())
                .take(rows_shown)
                .map(|&c| shown.clusters.kept(c as usize)),
        )),
        Constraint::Length(7),
        Constraint::Length(8),
        Constraint::Length(9),
        Constraint::Length(8),
        Constraint::Length(5),
        Constraint::Fill(1),
    ];
    // An id longer than its column is cut with `…` to the width the table gives it.
    let kept_width = table_column_widths(&widths, block.inner(area).width)[1];
    let rows: Vec<Row> = list
        .rows()
        .iter()
        .enumerate()
        .skip(list.offset())
        .take(rows_shown)
        .map(|(n, &c)| {
            let c = c as usize;
            let audit = &shown.audits[c];
            let kept = shown.clusters.kept(c);
            let below = shown.false_removals_in(c, r.threshold);
            let mut row = Row::new(vec![
                Cell::from(format!("{}", n + 1)),
                Cell::from(fit_line(
                    data.corpus.id(kept as usize).to_string(),
                    kept_width,
                )),
                Cell::from(format!("{:>6}", thousands(audit.size as u64))),
                // Past the audit's limits the weakest link is a lower bound, as `dedup` says.
                Cell::from(format!(
                    "{}{:.3}",
                    if audit.exact { "" } else { "≥" },
                    audit.weakest_link.jaccard
                )),
                Cell::from(format!(
                    "{:.3}{}",
                    audit.farthest_pair.jaccard,
                    if audit.exact { " " } else { "~" }
                )),
                if audit.chained {
                    Cell::from(Span::styled("chained", theme.warning()))
                } else {
                    Cell::from("")
                },
                // The cluster's false removals: members removed below t against the kept one.
                if below > 0 {
                    Cell::from(Span::styled(
                        format!("{:>4}", thousands(below as u64)),
                        theme.warning(),
                    ))
                } else {
                    Cell::from("")
                },
                Cell::from(Span::styled(preview(data, kept), theme.dim())),
            ]);
            if n == list.selected() {
                row = row.style(theme.selected());
            }
            row
        })
        .collect();
    let columns = table_column_widths(&widths, block.inner(area).width);
    let header = Row::new(
        [
            "#",
            "kept",
            "  size",
            "weakest",
            "farthest",
            "",
            " < t",
            "text of the kept document",
        ]
        .into_iter()
        .zip(&columns)
        // Headings squeezed by a narrow screen lose whole words, not letters (ui::fit).
        .map(|(h, &w)| Cell::from(fit_line(h, w))),
    )
    .style(theme.title());
    let table = Table::new(rows, widths).header(header).block(block);
    frame.render_widget(table, area);
}

/// An open cluster: its header and members.
pub fn render_members(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let (Some(r), Some(open), Some(data)) =
        (app.clusters().result(), app.clusters().open(), &app.data())
    else {
        return;
    };
    let c = open.cluster;
    let shown = r.shown(app.clusters().method());
    let audit = &shown.audits[c];
    let members = shown.clusters.members(c);
    let kept = shown.clusters.kept(c);
    let below = shown.false_removals_in(c, r.threshold);
    let id = |d: u32| data.corpus.id(d as usize).to_string();
    let distinct = members
        .iter()
        .filter(|&&d| r.identical.is_representative(d))
        .count();
    let block = Block::bordered()
        .border_style(theme.border())
        .title(fit_line(
            title_spans(app, &format!("Cluster of {}", id(kept))),
            title_room(area),
        ));
    let inner_width = block.inner(area).width;
    let mut lines = vec![
        Line::from(vec![
            Span::raw(format!(
                "{} members ({} distinct {}) · keeps {} · removes {}",
                thousands(members.len() as u64),
                thousands(distinct as u64),
                for_count(distinct as u64, "text", "texts"),
                id(kept),
                thousands(members.len() as u64 - 1)
            )),
            if below > 0 {
                Span::styled(
                    format!(", {} of them < t", thousands(below as u64)),
                    theme.warning(),
                )
            } else {
                Span::styled(", each ≥ t", theme.good())
            },
        ]),
        // On a narrow terminal the ids go first (the edge list below starts with both
        // pairs), then the verdict's explanation; the first form that fits is shown.
        {
            let at_least = if audit.exact { "" } else { "≥ " };
            let (weakest, farthest) = (&audit.weakest_link, &audit.farthest_pair);
            let weakest_value = format!("weakest link {at_least}{:.3}", weakest.jaccard);
            let farthest_value = format!("farthest pair {:.3}", farthest.jaccard);
            let with_ids = format!(
                "{weakest_value} ({} – {}) · {farthest_value} ({} – {}, {} {} {}) · ",
                id(weakest.a),
                id(weakest.b),
                id(farthest.a),
                id(farthest.b),
                if audit.exact {
                    "exact over"
                } else {
                    "sampled:"
                },
                thousands(audit.pairs_compared),
                for_count(audit.pairs_compared, "pair", "pairs")
            );
            let values = format!("{weakest_value} · {farthest_value} · ");
            let (verdict, short_verdict) = if audit.chained {
                (
                    Span::styled("chained: members below t of each other", theme.warning()),
                    Span::styled("chained", theme.warning()),
                )
            } else {
                let every = Span::styled("every pair ≥ t", theme.good());
                (every.clone(), every)
            };
            [
                Line::from(vec![Span::raw(with_ids), verdict.clone()]),
                Line::from(vec![Span::raw(values.clone()), verdict]),
                Line::from(vec![Span::raw(values), short_verdict]),
            ]
            .into_iter()
            .reduce(|fits, next| {
                if fits.width() <= usize::from(inner_width) {
                    fits
                } else {
                    next
                }
            })
            .expect("three forms")
        },
    ];
    // The summary lines end with `…` when cut; the member rows below are previews, cut at
    // the edge like the text column of the tables.
    for line in &mut lines {
        *line = fit_line(std::mem::take(line), inner_width);
    }
    let rows = area.height.saturating_sub(4) as usize;
    let width = id_width(
        data,
        members.iter().copied().skip(open.member_offset).take(rows),
    );
    let on_screen = || members.iter().copied().skip(open.member_offset).take(rows);
    // The mark column (`kept`, `< t` for a false removal, or `= id` of the copy's original)
    // is as wide as its widest mark on screen, capped like the id column, and a space always
    // follows it: a long id never runs into the text.
    let mark_of = |d: u32| -> Option<String> {
        if d == kept {
            Some("kept".to_string())
        } else if shown.is_false_removal(d, r.threshold) {
            Some("< t".to_string())
        } else if !r.identical.is_representative(d) {
            Some(format!("= {}", id(r.identical.representative(d))))
        } else {
            None
        }
    };
    let mark_width = on_screen()
        .filter_map(|d| mark_of(d).map(|m| m.width()))
        .max()
        .unwrap_or(0)
        .min(usize::from(width) + 2);
    for d in on_screen() {
        let mark = match mark_of(d) {
            Some(m) => {
                let style = if d == kept {
                    theme.good()
                } else {
                    theme.warning()
                };
                fit_line(Span::styled(m, style), mark_width as u16)
            }
            None => Line::default(),
        };
        let mark_padding = " ".repeat(mark_width + 1 - mark.width().min(mark_width));
        // Cut to the column and padded by display width, so the marks stay aligned.
        let member = fit_line(id(d), width);
        let padding = " ".repeat(usize::from(width) + 1 - member.width());
        let mut spans = member.spans;
        spans.push(Span::raw(padding));
        // Each removed member's exact Jaccard with the kept document it is assigned to.
        spans.push(if d == kept {
            Span::raw("      ")
        } else if shown.is_false_removal(d, r.threshold) {
            Span::styled(
                format!("{:.3} ", shown.to_kept[d as usize]),
                theme.warning(),
            )
        } else {
            Span::raw(format!("{:.3} ", shown.to_kept[d as usize]))
        });
        spans.extend(mark.spans);
        spans.extend([
            Span::raw(mark_padding),
            Span::styled(preview(data, d), theme.dim()),
        ]);
        lines.push(Line::from(spans));
    }
    let more = members.len().saturating_sub(open.member_offset + rows);
    if more > 0 && rows > 0 {
        lines.pop();
        lines.push(fit_line(
            Span::styled(
                format!("… and {} more members", thousands(more as u64 + 1)),
                theme.dim(),
            ),
            inner_width,
        ));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// An open cluster's edges: the farthest pair, then the spanning edges weakest first.
pub fn render_edges(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let (Some(open), Some(data)) = (app.clusters().open(), &app.data()) else {
        return;
    };
    // The list holds the farthest pair first, the false removals, then the spanning edges.
    let below = open
        .edge_list
        .iter()
        .filter(|(kind, _)| *kind == EdgeKind::FalseRemoval)
        .count() as u64;
    let spanning = open.edge_list.len() as u64 - 1 - below;
    let removals = if below > 0 {
        format!(", {} removed < t with the kept one", thousands(below))
    } else {
        String::new()
    };
    let title = vec![
        Span::styled(" Edges ", theme.title()),
        Span::raw(format!(
            "farthest pair{removals}, then {} spanning {} weakest first · {} opens ",
            thousands(spanning),
            for_count(spanning, "edge", "edges"),
            hint(Command::Open)
        )),
    ];
    let block = Block::bordered()
        .border_style(theme.focused_border())
        .title(fit_line(title, title_room(area)));
    let signatures = &data.index.signatures;
    render_table(frame, app, area, block, &open.edges, &[("edge", 15)], |i| {
        let (kind, e) = open.edge_list[i as usize];
        let (a, b) = (e.a.min(e.b), e.a.max(e.b));
        let style = match kind {
            EdgeKind::Farthest | EdgeKind::Weakest | EdgeKind::FalseRemoval => theme.warning(),
            _ => theme.dim(),
        };
        TableRow {
            a,
            b,
            jaccard: e.jaccard,
            estimate: signatures.estimate(a as usize, b as usize),
            extra: vec![Cell::from(Span::styled(kind.label(), style))],
        }
    });
}

/// Width of the id column for `docs`, between 4 and 24 columns.
fn id_width(data: &lshscope_core::pipeline::Loaded, docs: impl Iterator<Item = u32>) -> u16 {
    docs.take(10_000)
        .map(|d| data.corpus.id(d as usize).width())
        .max()
        .unwrap_or(4)
        .clamp(4, 24) as u16
}

/// The start of a document's text on one line.
fn preview(data: &lshscope_core::pipeline::Loaded, doc: u32) -> String {
    data.corpus
        .text(doc as usize)
        .chars()
        .take(200)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The viewer's position line for a pair opened from an open cluster: which edge of which
/// cluster it is. `None` when the viewer did not come from a cluster.
pub fn viewer_position(app: &App) -> Option<String> {
    let (open, r, data) = (
        app.clusters().open()?,
        app.clusters().result()?,
        app.data().as_ref()?,
    );
    if app.view()
        != (View::Viewer {
            from: PairSource::ClusterEdges,
        })
    {
        return None;
    }
    let (kind, _) = open.selected_edge()?;
    Some(format!(
        "{} · edge {} of {} in the cluster of {}",
        kind.label(),
        thousands(open.edges.selected() as u64 + 1),
        thousands(open.edges.len() as u64),
        data.corpus
            .id(r.shown(app.clusters().method()).clusters.kept(open.cluster) as usize)
    ))
}
