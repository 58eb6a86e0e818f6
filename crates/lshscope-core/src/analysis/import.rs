//! Auditing another tool's result: the pairs or the clusters that datatrove, NeMo Curator,
//! text-dedup, Spark's MinHashLSH or a datasketch loop produced, read back onto this corpus.
//!
//! A **pairs file** has two id columns (named by the user, or found among the names those tools
//! write: [`PAIR_COLUMN_NAMES`]); every pair gets its exact Jaccard, and the tool's clusters are
//! the connected components of all its pairs ([`pair_components`]): what a tool that does not
//! verify its candidates (datatrove, NeMo Curator) removes. A **clusters file** maps a document
//! id to a cluster id ([`CLUSTER_ID_NAMES`], [`CLUSTER_NAMES`]); each cluster gets a maximum
//! spanning tree over the exact Jaccards of its members, so the chaining audit of
//! [`crate::analysis::clusters`] applies to it unchanged.
//!
//! Files are CSV (with a header), JSON Lines, or Parquet, possibly compressed, recognised by
//! their bytes as every pair reader here does; a directory of part files (as Spark, Dask and
//! datatrove write them) is read part by part in name order. Nested columns are named with dots:
//! `datasetA.id` (a Spark join written as is), `metadata.minhash_cluster_id` (datatrove).
//!
//! Ids the corpus does not have are an error naming the file, the line (or Parquet row) and
//! the id, because they nearly always mean the wrong corpus or id column, and a silently
//! smaller import would audit something else than what the tool did. When the corpus was
//! read with `--limit` or `--sample`, missing ids are expected; [`UnknownIds::Skip`] then
//! drops those rows and counts them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use crate::io::table::TableFormat;

use crate::Result;
use crate::analysis::clusters::{Clusters, Edge, KeepRule, UnionFind};
use crate::corpus::Corpus;
use crate::io::table::{RowPlace, Want, for_each_row};
use crate::jobs::{Phase, Progress};
use crate::minhash::similarity::jaccard;
use crate::minhash::{Banding, CandidatePair, Index, Signatures, VerifiedPair, verify};
use crate::terms::Setting::{ClusterColumns, IdColumn, IdField, PairColumns};
use crate::util::rng::SplitMix64;

/// Id column pairs tried in order when a pairs file's columns are not named: lshscope's own,
/// common spellings, NeMo Curator's edge lists (`id_x`, `id_y` for its default id column
/// `id`), a Spark `approxSimilarityJoin` written without flattening, and graph edge lists.
pub const PAIR_COLUMN_NAMES: &[(&str, &str)] = &[
    ("id_a", "id_b"),
    ("id1", "id2"),
    ("id_1", "id_2"),
    ("id_x", "id_y"),
    ("datasetA.id", "datasetB.id"),
    ("doc_a", "doc_b"),
    ("src", "dst"),
    ("source", "target"),
];

/// Document id columns tried in order in a clusters file.
pub const CLUSTER_ID_NAMES: &[&str] = &["id", "doc_id", "document_id"];

/// Cluster columns tried in order: lshscope's `dedup` output, common spellings, NeMo Curator's
/// connected components (`group`), datatrove's filter metadata (flat when written with
/// `expand_metadata`, nested otherwise), text-dedup's cluster column, and the representative
/// of `scan --collapse-identical`'s groups file.
pub const CLUSTER_NAMES: &[&str] = &[
    "cluster",
    "cluster_id",
    "group",
    "minhash_cluster_id",
    "metadata.minhash_cluster_id",
    "__CLUSTER__",
    "representative",
    "component",
];

/// What to do with a row whose id is not in the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnknownIds {
    /// Stop with an error naming the file, the row and the id.
    #[default]
    Error,
    /// Drop the row and count it (the corpus is a subset of what the tool saw).
    Skip,
}

/// How to read an imported file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// The two columns (pairs: the two ids; clusters: the id and the cluster), or `None` to
    /// find them among the usual names.
    pub columns: Option<[String; 2]>,
    /// What to do with an id that is not in the corpus: refuse the file or skip the row.
    pub unknown: UnknownIds,
}

/// What an import read and what it set aside.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ImportReport {
    /// The file or directory of part files that was read.
    pub path: PathBuf,
    /// The format the file turned out to be; `None` until it was read.
    pub format: Option<TableFormat>,
    /// Files read (part files of a directory).
    pub files: usize,
    /// The two columns used.
    pub columns: [String; 2],
    /// Rows read, including those set aside below.
    pub rows: u64,
    /// Rows dropped because an id is not in the corpus ([`UnknownIds::Skip`]), and the first
    /// such id with where it was.
    pub unknown_rows: u64,
    /// The first unknown id and where it was met, for the message; `None` when there was none.
    pub first_unknown: Option<String>,
    /// Pairs: a document paired with itself (a self-join lists every document so).
    pub self_pairs: u64,
    /// Pairs: a pair listed again, in either order.
    pub duplicate_pairs: u64,
    /// Clusters: rows without a cluster (null, empty, or datatrove's `-1`).
    pub unclustered: u64,
    /// Clusters: a document listed again in the same cluster.
    pub repeated_members: u64,
    /// Clusters: clusters of one document (nothing removed).
    pub singletons: u64,
    /// Clusters: kept documents named only in a `representative` column, counted as members
    /// of their clusters.
    pub representatives_added: u64,
}

impl ImportReport {
    /// One line: what was read and what was set aside.
    pub fn summary(&self) -> String {
        let mut parts = vec![format!(
            "{} rows of {} ({}, {})",
            crate::util::numfmt::thousands(self.rows),
            self.path.display(),
            self.format.map(TableFormat::name).unwrap_or("?"),
            self.columns.join(",")
        )];
        let mut note = |n: u64, what: &str| {
            if n > 0 {
                parts.push(format!("{} {what}", crate::util::numfmt::thousands(n)));
            }
        };
        note(self.unknown_rows, "rows with ids not in the corpus skipped");
        note(self.self_pairs, "self pairs dropped");
        note(self.duplicate_pairs, "repeated pairs merged");
        note(self.unclustered, "rows in no cluster");
        note(self.repeated_members, "repeated members merged");
        note(self.singletons, "one-document clusters");
        note(
            self.representatives_added,
            "representatives without a row of their own counted as members",
        );
        parts.join(" · ")
    }
}

// ---------------------------------------------------------------------------------------------
// Ids to positions

/// The first position of every id of the corpus.
fn id_positions(corpus: &Corpus) -> HashMap<&str, u32> {
    let mut positions = HashMap::with_capacity(corpus.len());
    for i in 0..corpus.len() {
        positions.entry(corpus.id(i)).or_insert(i as u32);
    }
    positions
}

/// Looks `id` up; `Ok(None)` when it is unknown and unknown ids are skipped (counted in
/// `report`).
fn position(
    positions: &HashMap<&str, u32>,
    corpus: &Corpus,
    id: &str,
    column: &str,
    place: RowPlace<'_>,
    options: &ImportOptions,
    report: &mut ImportReport,
) -> Result<Option<u32>> {
    if let Some(&p) = positions.get(id) {
        return Ok(Some(p));
    }
    match options.unknown {
        UnknownIds::Error => Err(place.error(format!(
            "{column} `{}` is not an id of the corpus ({} documents): was the result computed \
             on this input, with the same id column ({IdColumn} / {IdField})?",
            crate::io::excerpt::excerpt(id),
            crate::util::numfmt::thousands(corpus.len() as u64)
        ))),
        UnknownIds::Skip => {
            if report.first_unknown.is_none() {
                report.first_unknown = Some(format!(
                    "`{}` at {}",
                    crate::io::excerpt::excerpt(id),
                    place.describe()
                ));
            }
            Ok(None)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pairs

/// Pairs read from another tool's file: distinct, a < b, sorted by (a, b), with their
/// exact Jaccard and MinHash estimate (`bands_hit` 0 until [`count_bands_hit`]).
#[derive(Debug, Clone)]
pub struct ImportedPairs {
    /// The pairs, distinct and sorted by (a, b) with a < b.
    pub pairs: Vec<VerifiedPair>,
    /// What the import read and set aside.
    pub report: ImportReport,
}

/// Reads the pairs of `path` as positions in `corpus`: a < b, sorted, each once (self pairs
/// and repeats are counted in the report, not kept).
pub fn read_pairs(
    path: &Path,
    corpus: &Corpus,
    options: &ImportOptions,
    progress: &Progress,
) -> Result<(Vec<CandidatePair>, ImportReport)> {
    let positions = id_positions(corpus);
    let mut report = ImportReport {
        path: path.to_path_buf(),
        ..Default::default()
    };
    let mut pairs: Vec<CandidatePair> = Vec::new();
    let want = Want::new(
        options.columns.as_ref(),
        PAIR_COLUMN_NAMES.to_vec(),
        PairColumns,
        "A,B",
    );
    let (format, files, columns) = for_each_row(path, want, progress, |place, values| {
        report.rows += 1;
        let mut ids = [0u32; 2];
        for k in 0..2 {
            let Some(id) = values[k] else {
                return Err(place.error(format!(
                    "column `{}` is missing or null; every pair needs two ids",
                    place.columns[k]
                )));
            };
            match position(
                &positions,
                corpus,
                id,
                place.columns[k],
                place,
                options,
                &mut report,
            )? {
                Some(p) => ids[k] = p,
                None => {
                    report.unknown_rows += 1;
                    return Ok(());
                }
            }
        }
        if ids[0] == ids[1] {
            report.self_pairs += 1;
            return Ok(());
        }
        pairs.push(CandidatePair {
            a: ids[0].min(ids[1]),
            b: ids[0].max(ids[1]),
            bands_hit: 0,
        });
        Ok(())
    })?;
    pairs.par_sort_unstable_by_key(|p| (p.a, p.b));
    let before = pairs.len();
    pairs.dedup_by_key(|p| (p.a, p.b));
    report.duplicate_pairs = (before - pairs.len()) as u64;
    report.format = Some(format);
    report.files = files;
    report.columns = columns;
    Ok((pairs, report))
}

/// [`read_pairs`] and the exact Jaccard (and MinHash estimate) of every pair.
pub fn import_pairs(
    path: &Path,
    corpus: &Corpus,
    index: &Index,
    options: &ImportOptions,
    progress: &Progress,
) -> Result<ImportedPairs> {
    progress.begin(Phase::Reading, 0);
    let (candidates, report) = read_pairs(path, corpus, options, progress)?;
    let pairs = verify(index, &candidates, 0.0, progress)?;
    Ok(ImportedPairs { pairs, report })
}

/// Sets each pair's `bands_hit` to the bands of `banding` in which its two signatures agree:
/// how lshscope's banding would see the imported pairs.
pub fn count_bands_hit(pairs: &mut [VerifiedPair], banding: Banding, signatures: &Signatures) {
    pairs.par_iter_mut().for_each(|p| {
        p.bands_hit = banding
            .agreeing_bands(signatures, p.a as usize, p.b as usize)
            .iter()
            .filter(|&&hit| hit)
            .count() as u32;
    });
}

/// The clusters a tool forms from `pairs` when it joins every pair it found, verified or not
/// (datatrove, NeMo Curator): connected components, the first document in input order kept.
pub fn pair_components(documents: usize, pairs: &[VerifiedPair]) -> Clusters {
    let edges: Vec<Edge> = pairs
        .iter()
        .map(|p| Edge {
            a: p.a,
            b: p.b,
            jaccard: p.jaccard,
        })
        .collect();
    Clusters::build(documents, &edges, None, KeepRule::First, |_| 0)
}

// ---------------------------------------------------------------------------------------------
// Clusters

/// Clusters read from another tool's file, with what the audit needs.
#[derive(Debug, Clone)]
pub struct ImportedClusters {
    /// The file's clusters of two or more documents. Each one's spanning edges are a maximum
    /// spanning tree over its members' exact Jaccards (see [`spanning_tree`]); the kept document
    /// is the member whose id is the cluster id when there is one (lshscope's `dedup`,
    /// text-dedup), else the first in input order.
    pub clusters: Clusters,
    /// Every removed document with its cluster's kept document (a < b, sorted by (a, b)), with
    /// exact Jaccard and estimate: what the tool removes, and how far each is from what it keeps.
    pub pairs: Vec<VerifiedPair>,
    /// Clusters whose tree was built from sampled member pairs (more members than the exact
    /// bound): their weakest link is a lower bound.
    pub sampled_trees: usize,
    /// What the import read and set aside.
    pub report: ImportReport,
}

/// Members read from a clusters file: each document's cluster, in the order clusters first
/// appear, and the cluster's own id.
struct Membership {
    /// `(cluster number, document)` for every distinct membership.
    members: Vec<(u32, u32)>,
    /// The cluster value as written, by cluster number.
    names: Vec<String>,
}

/// True for the values that mean "in no cluster": datatrove writes `-1` for documents without
/// duplicates.
fn no_cluster(value: &str) -> bool {
    value == "-1"
}

fn read_membership(
    path: &Path,
    corpus: &Corpus,
    options: &ImportOptions,
    progress: &Progress,
) -> Result<(Membership, ImportReport)> {
    let positions = id_positions(corpus);
    let mut report = ImportReport {
        path: path.to_path_buf(),
        ..Default::default()
    };
    let want = Want::new(
        options.columns.as_ref(),
        CLUSTER_ID_NAMES
            .iter()
            .flat_map(|&id| CLUSTER_NAMES.iter().map(move |&c| (id, c)))
            .collect(),
        ClusterColumns,
        "ID,CLUSTER",
    );
    let mut cluster_of: Vec<u32> = vec![u32::MAX; corpus.len()];
    // Where each document's membership was read (file, line or row, Parquet or not), for the
    // message about a second one; the files in the order they were read.
    let mut first_seen: Vec<(u32, u64, bool)> = vec![(0, 0, false); corpus.len()];
    let mut files_read: Vec<PathBuf> = Vec::new();
    let mut numbers: HashMap<String, u32> = HashMap::new();
    let mut membership = Membership {
        members: Vec::new(),
        names: Vec::new(),
    };
    let (format, files, columns) = for_each_row(path, want, progress, |place, values| {
        report.rows += 1;
        let Some(id) = values[0] else {
            return Err(place.error(format!(
                "column `{}` (the document id) is missing or null",
                place.columns[0]
            )));
        };
        let cluster = match values[1] {
            Some(c) if !no_cluster(c) => c,
            _ => {
                report.unclustered += 1;
                return Ok(());
            }
        };
        let Some(doc) = position(
            &positions,
            corpus,
            id,
            place.columns[0],
            place,
            options,
            &mut report,
        )?
        else {
            report.unknown_rows += 1;
            return Ok(());
        };
        let number = match numbers.get(cluster) {
            Some(&n) => n,
            None => {
                let n = membership.names.len() as u32;
                numbers.insert(cluster.to_string(), n);
                membership.names.push(cluster.to_string());
                n
            }
        };
        if files_read.last().map(PathBuf::as_path) != Some(place.file) {
            files_read.push(place.file.to_path_buf());
        }
        match cluster_of[doc as usize] {
            u32::MAX => {
                cluster_of[doc as usize] = number;
                first_seen[doc as usize] =
                    (files_read.len() as u32 - 1, place.number, place.parquet);
                membership.members.push((number, doc));
            }
            same if same == number => report.repeated_members += 1,
            other => {
                let (file, number, parquet) = first_seen[doc as usize];
                let earlier = RowPlace {
                    file: &files_read[file as usize],
                    columns: place.columns,
                    number,
                    parquet,
                };
                return Err(place.error(format!(
                    "document `{}` is in cluster `{}` here and in cluster `{}` at {}; \
                     a document belongs to one cluster",
                    crate::io::excerpt::excerpt(id),
                    crate::io::excerpt::excerpt(cluster),
                    crate::io::excerpt::excerpt(&membership.names[other as usize]),
                    earlier.describe()
                )));
            }
        }
        Ok(())
    })?;
    if columns[1].rsplit('.').next() == Some("representative") {
        add_representatives(&positions, &mut cluster_of, &mut membership, &mut report);
    }
    report.format = Some(format);
    report.files = files;
    report.columns = columns;
    Ok((membership, report))
}

/// A `representative` column names each cluster by the id of the document kept for it, and a
/// file of only the removed documents (one row per removed document, its representative beside
/// it) has no row for that kept document. It is a member all the same: counted out, every
/// cluster would look one document smaller and the kept document would seem unclustered.
/// Representatives that are not corpus ids stay plain cluster names; one with a row of its own
/// (in its cluster or another) stays where that row put it.
fn add_representatives(
    positions: &HashMap<&str, u32>,
    cluster_of: &mut [u32],
    membership: &mut Membership,
    report: &mut ImportReport,
) {
    for (number, name) in membership.names.iter().enumerate() {
        let Some(&doc) = positions.get(name.as_str()) else {
            continue;
        };
        if cluster_of[doc as usize] == u32::MAX {
            cluster_of[doc as usize] = number as u32;
            membership.members.push((number as u32, doc));
            report.representatives_added += 1;
        }
    }
}

/// Member pairs sampled per member when a cluster is above the exact bound: each member is
/// joined to the cluster's first member and to this many others drawn at random.
pub const SAMPLED_NEIGHBOURS: usize = 8;

/// A maximum spanning tree of `members` over their exact Jaccards: every pair compared (Prim's
/// algorithm, n² Jaccards, no edge list) up to `exact_members`, else over the pairs of each
/// member with the first one and with [`SAMPLED_NEIGHBOURS`] others drawn with `seed`
/// (Kruskal's algorithm); the second is a spanning tree whose weakest link is a lower bound.
pub fn spanning_tree(members: &[u32], index: &Index, exact_members: usize, seed: u64) -> Vec<Edge> {
    let n = members.len();
    let sim = |i: usize, j: usize| {
        jaccard(
            index.sets.get(members[i] as usize),
            index.sets.get(members[j] as usize),
        )
    };
    let edge = |i: usize, j: usize, jaccard: f64| Edge {
        a: members[i].min(members[j]),
        b: members[i].max(members[j]),
        jaccard,
    };
    if n < 2 {
        return Vec::new();
    }
    if n <= exact_members {
        // Prim: best[j] is the strongest link from the tree to j so far.
        let mut inside = vec![false; n];
        let mut best = vec![(f64::NEG_INFINITY, 0usize); n];
        let mut tree = Vec::with_capacity(n - 1);
        let mut last = 0;
        inside[0] = true;
        for _ in 1..n {
            let mut pick = usize::MAX;
            for j in 0..n {
                if inside[j] {
                    continue;
                }
                let s = sim(last, j);
                if s > best[j].0 {
                    best[j] = (s, last);
                }
                if pick == usize::MAX || best[j].0 > best[pick].0 {
                    pick = j;
                }
            }
            inside[pick] = true;
            tree.push(edge(best[pick].1, pick, best[pick].0));
            last = pick;
        }
        return tree;
    }
    let mut rng = SplitMix64::new(seed);
    let mut edges: Vec<Edge> = Vec::with_capacity(n * (SAMPLED_NEIGHBOURS + 1));
    for i in 1..n {
        edges.push(edge(0, i, sim(0, i)));
        for _ in 0..SAMPLED_NEIGHBOURS {
            let j = rng.below(n as u64) as usize;
            if j != i {
                edges.push(edge(i, j, sim(i, j)));
            }
        }
    }
    edges.sort_unstable_by(|x, y| {
        y.jaccard
            .total_cmp(&x.jaccard)
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    // Kruskal over positions within the cluster.
    let local: HashMap<u32, u32> = members
        .iter()
        .enumerate()
        .map(|(k, &d)| (d, k as u32))
        .collect();
    let mut sets = UnionFind::new(n);
    edges
        .into_iter()
        .filter(|e| sets.union(local[&e.a], local[&e.b]).is_some())
        .collect()
}

/// Reads the clusters of `path` onto `corpus`, builds each one's spanning tree and the pairs
/// of removed and kept documents. `exact_members` is the audit's exact bound
/// ([`crate::analysis::clusters::AuditLimits::exact_members`]).
pub fn import_clusters(
    path: &Path,
    corpus: &Corpus,
    index: &Index,
    options: &ImportOptions,
    exact_members: usize,
    progress: &Progress,
) -> Result<ImportedClusters> {
    progress.begin(Phase::Reading, 0);
    let (membership, mut report) = read_membership(path, corpus, options, progress)?;
    progress.check()?;
    // Members of each imported cluster in input order.
    let clusters_read = membership.names.len();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); clusters_read];
    for &(c, d) in &membership.members {
        lists[c as usize].push(d);
    }
    for list in &mut lists {
        list.sort_unstable();
    }
    report.singletons = lists.iter().filter(|l| l.len() == 1).count() as u64;
    progress.begin(Phase::Clustering, membership.members.len() as u64);
    let trees: Vec<Vec<Edge>> = lists
        .par_iter()
        .enumerate()
        .map(|(c, members)| {
            let tree = spanning_tree(members, index, exact_members, 0x5eed ^ c as u64);
            progress.advance(members.len() as u64);
            tree
        })
        .collect();
    progress.check()?;
    let sampled_trees = lists.iter().filter(|l| l.len() > exact_members).count();
    let edges: Vec<Edge> = trees.into_iter().flatten().collect();
    let mut clusters = Clusters::build(corpus.len(), &edges, None, KeepRule::First, |_| 0);
    drop(edges);
    // The member whose id is the cluster's id is the one the tool keeps.
    let positions = id_positions(corpus);
    for (c, name) in membership.names.iter().enumerate() {
        let Some(&first) = lists[c].first() else {
            continue;
        };
        if let (Some(&named), Some(built)) =
            (positions.get(name.as_str()), clusters.cluster_of(first))
            && lists[c].binary_search(&named).is_ok()
        {
            clusters.set_kept(built, named);
        }
    }
    let mut removed: Vec<CandidatePair> = (0..clusters.len())
        .flat_map(|c| {
            let kept = clusters.kept(c);
            clusters
                .members(c)
                .iter()
                .filter(move |&&d| d != kept)
                .map(move |&d| CandidatePair {
                    a: d.min(kept),
                    b: d.max(kept),
                    bands_hit: 0,
                })
                .collect::<Vec<_>>()
        })
        .collect();
    removed.par_sort_unstable_by_key(|p| (p.a, p.b));
    let pairs = verify(index, &removed, 0.0, progress)?;
    Ok(ImportedClusters {
        clusters,
        pairs,
        sampled_trees,
        report,
    })
}
