//! The explorer's tests: one binary, one module per area. Most drive `App` through actions and
//! render it on ratatui's TestBackend; the `*_e2e` and `tui_paths` modules drive the real binary
//! in a pseudo-terminal through tmux (skipped where tmux is missing).

mod tmux_support;
mod tui_support;

mod docs_pictures;
mod labels_e2e;
mod learn_e2e;
mod learn_tui;
mod truth_everywhere;
mod tui_app;
mod tui_cache;
mod tui_center;
mod tui_cluster_summary;
mod tui_clusters;
mod tui_cost;
mod tui_counts;
mod tui_e2e;
mod tui_export_messages;
mod tui_family;
mod tui_fit;
mod tui_help;
mod tui_import;
mod tui_index;
mod tui_labels;
mod tui_moves;
mod tui_paths;
mod tui_preview;
mod tui_progress;
mod tui_prompt;
mod tui_repeated_ids;
mod tui_scale;
mod tui_screens;
mod tui_snapshots;
mod tui_truth;
mod tui_viewer_nav;
mod tui_viewer_text;
mod tui_views;
