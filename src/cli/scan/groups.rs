//! `scan --collapse-identical`: the groups file (each document of a group of identical
//! shingle sets with its representative), where it goes by default, and what the summary
//! says of it.

use std::path::{Path, PathBuf};

use lshscope_core::corpus::Corpus;
use lshscope_core::minhash::IdenticalGroups;
use lshscope_core::pairs::parquet::{IdColumn, MembersParquetWriter};
use lshscope_core::pairs::{Field, OutputFormat, OutputTarget, RowWriter};

/// The columns of a groups file, in order.
pub const GROUP_COLUMNS: &[&str] = &["id", "representative", "size"];

/// Where the groups go by default: the pairs file's name with `.groups` inserted before its
/// format and compression extensions (`pairs.jsonl.zst` → `pairs.groups.jsonl.zst`).
pub fn default_groups_path(pairs: &Path) -> PathBuf {
    let name = pairs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let known = [
        "csv", "jsonl", "ndjson", "json", "parquet", "gz", "zst", "tsv", "txt",
    ];
    let mut stem = name.as_str();
    let mut suffix = String::new();
    while let Some((head, ext)) = stem.rsplit_once('.') {
        if head.is_empty() || !known.contains(&ext.to_ascii_lowercase().as_str()) {
            break;
        }
        suffix = format!(".{ext}{suffix}");
        stem = head;
    }
    if suffix.is_empty() {
        suffix = ".csv".to_string();
    }
    pairs.with_file_name(format!("{stem}.groups{suffix}"))
}

/// What `--collapse-identical` collapsed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CollapseSummary {
    /// Documents whose shingle set repeats an earlier document's.
    pub identical_copies: usize,
    /// Groups of two or more identical documents.
    pub groups: usize,
    /// The largest group: its size and the id of its representative.
    pub largest_group: Option<(usize, String)>,
    /// Where the groups were written.
    pub groups_file: String,
}

impl CollapseSummary {
    /// What `groups` collapsed in `corpus`, written to `target`.
    pub fn new(groups: &IdenticalGroups, corpus: &Corpus, target: &OutputTarget) -> Self {
        let largest = groups
            .groups()
            .max_by_key(|g| (g.len(), std::cmp::Reverse(g[0])))
            .map(|g| (g.len(), corpus.id(g[0] as usize).to_string()));
        CollapseSummary {
            identical_copies: groups.copies(),
            groups: groups.groups().len(),
            largest_group: largest,
            groups_file: target.display(),
        }
    }
}

/// One row per document in a group of two or more identical documents, in input order: its
/// id, the id of its group's representative (first member) and the group's size.
pub fn write_groups(
    w: &mut dyn std::io::Write,
    corpus: &Corpus,
    groups: &IdenticalGroups,
    format: OutputFormat,
) -> std::io::Result<()> {
    let rows = (0..corpus.len() as u32).filter_map(|d| {
        let size = groups.multiplicity(d);
        (size >= 2).then(|| (d, groups.representative(d), size))
    });
    if format == OutputFormat::Parquet {
        let ids = IdColumn::new((0..corpus.len()).map(|i| corpus.id(i)));
        let mut out = MembersParquetWriter::groups(w)?;
        for (d, rep, size) in rows {
            out.write_member(&ids, d, rep, size)?;
        }
        return out.finish().map(|_| ());
    }
    let mut out = RowWriter::new(w, format, GROUP_COLUMNS, None)?;
    for (d, rep, size) in rows {
        out.write_row(&[
            Field::Str(corpus.id(d as usize)),
            Field::Str(corpus.id(rep as usize)),
            Field::U64(size as u64),
        ])?;
    }
    out.finish()
}
