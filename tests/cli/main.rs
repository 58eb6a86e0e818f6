//! The command line's tests: one binary (linking the crate once), one module per area, each
//! running the real `lshscope` binary (`CARGO_BIN_EXE_lshscope`) or its parser.

mod cli_support;

mod bench_cli;
mod cli_input;
mod dedup_cli;
mod diff_cli;
mod docs_commands;
mod family_cli;
mod gen_cli;
mod help_cli;
mod index_cli;
mod output_cli;
mod parquet_cli;
mod plot_cli;
mod preview_cli;
mod read_fidelity_cli;
mod scan_cli;
mod shingles_cli;
mod truth_cli;
mod tune_cli;
