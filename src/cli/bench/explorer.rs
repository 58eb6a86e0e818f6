//! `lshscope bench --explorer`: the explorer's re-banding job stepped across the (b, r) grid
//! on a template-heavy corpus, with the latency of each step's first and final histogram, how
//! its candidates were obtained (enumerated or sampled), the memory the buckets hold and the
//! process's resident memory. These are the numbers the README's explorer table reports.
//!
//! Each cell runs the banding policy the explorer's worker thread runs ([`band_candidates`])
//! with the state the explorer carries from one step to the next (the bands built so far, the exact
//! Jaccards sampled so far, the pairs verified so far), so a cell's figures are those of a
//! user moving there from the previous cell of the table.

use std::path::Path;
use std::time::Instant;

use lshscope_core::analysis::sampled::Estimate;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, Index, IndexOptions, VerifiedPair, build_index};
use lshscope_core::pipeline::band_policy::{BandAnswer, BandRequest, Sampling, band_candidates};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use lshscope_core::util::numfmt;
use lshscope_core::{Error, Result};

use super::{Clock, current_rss_bytes, mb, peak_rss_bytes};

/// Rows and bands of the measured cells: every r of this list with every b of the next that
/// fits b·r ≤ K, and the widest b = K / r.
const GRID_ROWS: &[usize] = &[1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32, 64, 128];
const GRID_BANDS: &[usize] = &[1, 2, 4, 8, 16, 20, 32, 64, 128];

/// The cells in the order they are visited: r ascending, b ascending within each r (a b
/// step reuses the bands already built at that r, as it does in the explorer).
pub fn grid(num_perm: usize) -> Vec<Banding> {
    let mut cells = Vec::new();
    for &rows in GRID_ROWS.iter().filter(|&&r| r <= num_perm) {
        let widest = num_perm / rows;
        let mut bands: Vec<usize> = GRID_BANDS
            .iter()
            .copied()
            .filter(|&b| b <= widest)
            .collect();
        if bands.last() != Some(&widest) {
            bands.push(widest);
        }
        cells.extend(bands.into_iter().map(|bands| Banding { bands, rows }));
    }
    cells
}

/// One measured cell.
struct Cell {
    banding: Banding,
    /// Seconds from the request to the first histogram and to the final one.
    first: f64,
    last: f64,
    /// Candidate pairs: exact, or the estimate of a sampled answer.
    candidates: Result<Candidates>,
    bucket_bytes: Option<usize>,
    rss: Option<u64>,
}

enum Candidates {
    Exact(usize),
    Estimated(Estimate),
}

/// The corpus to step through: `path` read as `lshscope explore` reads it, else a generated
/// template-heavy one shaped as `lshscope gen --templates -n DOCS --identical-group DOCS/50
/// --template-family DOCS/200` makes it.
fn corpus(path: Option<&Path>, docs: usize, seed: u64) -> Result<lshscope_core::corpus::Corpus> {
    match path {
        Some(path) => {
            let options = lshscope_core::corpus::ReadOptions::default();
            lshscope_core::corpus::read_corpus(path, &options, &Progress::new())
                .map(|(corpus, _)| corpus)
                .map_err(|e| super::super::about_file(Some("--corpus"), path, e))
        }
        None => Ok(generate_templated(&TemplateOptions {
            docs,
            seed,
            identical_group: docs / 50,
            template_family: docs / 200,
            ..TemplateOptions::default()
        })
        .corpus),
    }
}

pub fn run(path: Option<&Path>, docs: usize, num_perm: usize, seed: u64) -> Result<i32> {
    if path.is_none() && docs < 2 {
        return Err(Error::usage("--docs must be at least 2"));
    }
    match path {
        Some(p) => eprintln!("reading {}…", p.display()),
        None => eprintln!(
            "generating {} template-heavy documents…",
            numfmt::thousands(docs as u64)
        ),
    }
    let corpus = corpus(path, docs, seed)?;
    let options = IndexOptions {
        num_perm,
        seed,
        ..Default::default()
    };
    let clock = Clock::start();
    let index = build_index(&corpus, &options, &Progress::new())?;
    let (wall, cpu) = clock.stop();
    println!(
        "lshscope bench --explorer: {} documents, {} of text, K = {num_perm}, {} threads; \
         index built in {wall:.1} s wall ({cpu:.1} s CPU)",
        numfmt::thousands(corpus.len() as u64),
        mb(corpus.text_bytes() as f64),
        rayon::current_num_threads(),
    );
    let sampling = Sampling::default();
    // The identical groups are found once per session, by the explorer's first banding job
    // (the one that opens it): timed apart, so that every cell is a step.
    let clock = Clock::start();
    let copies = sampling.bands.docs(&index);
    let (wall, cpu) = clock.stop();
    println!(
        "identical groups: {} copies, found in {wall:.2} s wall ({cpu:.2} s CPU), once per \
         session before the first banding",
        numfmt::thousands(copies.copies() as u64)
    );
    println!(
        "{:<9} {:<8} {:>26} {:>9} {:>9} {:>12} {:>10}",
        "banding", "mode", "candidate pairs", "first", "final", "buckets", "RSS"
    );
    let mut known: Option<Vec<VerifiedPair>> = None;
    let mut cells = Vec::new();
    for banding in grid(num_perm) {
        let cell = step(&index, banding, &sampling, &mut known);
        print_cell(&cell);
        cells.push(cell);
    }
    summarize(&cells);
    Ok(0)
}

/// Bands `banding` as the explorer's re-banding job would after the previous step.
fn step(
    index: &Index,
    banding: Banding,
    sampling: &Sampling,
    known: &mut Option<Vec<VerifiedPair>>,
) -> Cell {
    let request = BandRequest {
        index,
        banding,
        max_bucket: None,
        known: known.as_deref(),
        bins: 20,
        sampling,
    };
    let start = Instant::now();
    let mut first = None;
    let answer = band_candidates(request, &Progress::new(), |_| {
        first.get_or_insert(start.elapsed().as_secs_f64());
    });
    let last = start.elapsed().as_secs_f64();
    let mut cell = Cell {
        banding,
        first: first.unwrap_or(last),
        last,
        candidates: Err(Error::internal("no answer")),
        bucket_bytes: None,
        rss: current_rss_bytes(),
    };
    // What the explorer keeps for the next step: every pair verified so far, else the pairs
    // of this answer.
    match answer {
        Ok(BandAnswer::Exact { pairs, known: all }) => {
            cell.candidates = Ok(Candidates::Exact(pairs.len()));
            *known = all.or(Some(pairs));
        }
        Ok(BandAnswer::Estimated(estimated)) => {
            cell.candidates = Ok(Candidates::Estimated(estimated.estimate().total));
            cell.bucket_bytes = Some(estimated.bucket_bytes);
            *known = Some(estimated.sampled.pairs);
        }
        Err(e) => cell.candidates = Err(e),
    }
    cell
}

fn print_cell(cell: &Cell) {
    let (mode, candidates) = match &cell.candidates {
        Ok(Candidates::Exact(n)) => ("exact", numfmt::thousands(*n as u64)),
        Ok(Candidates::Estimated(e)) => ("sampled", e.to_string()),
        Err(e) => ("FAILED", e.to_string()),
    };
    let bytes = |b: Option<u64>| b.map_or_else(|| "-".to_string(), |b| mb(b as f64));
    println!(
        "{:<9} {mode:<8} {candidates:>26} {:>8.2}s {:>8.2}s {:>12} {:>10}",
        cell.banding.to_string(),
        cell.first,
        cell.last,
        bytes(cell.bucket_bytes.map(|b| b as u64)),
        bytes(cell.rss),
    );
}

fn summarize(cells: &[Cell]) {
    let failed = cells.iter().filter(|c| c.candidates.is_err()).count();
    let slow_first = cells.iter().filter(|c| c.first > 1.0).count();
    let worst = |f: fn(&Cell) -> f64, exact: bool| {
        cells
            .iter()
            .filter(|c| matches!(c.candidates, Ok(Candidates::Exact(_))) == exact)
            .map(|c| (f(c), c.banding))
            .max_by(|x, y| x.0.total_cmp(&y.0))
    };
    let show = |w: Option<(f64, Banding)>| {
        w.map_or_else(|| "-".to_string(), |(s, b)| format!("{s:.2} s ({b})"))
    };
    println!(
        "{} cells, {failed} failed; first histogram over 1 s: {slow_first}; slowest first \
         histogram: {}; slowest exact answer: {}; slowest sampled answer: {}",
        cells.len(),
        show(
            cells
                .iter()
                .map(|c| (c.first, c.banding))
                .max_by(|x, y| x.0.total_cmp(&y.0))
        ),
        show(worst(|c| c.last, true)),
        show(worst(|c| c.last, false)),
    );
    match peak_rss_bytes() {
        Some(peak) => println!("peak RSS {}", mb(peak as f64)),
        None => println!("peak RSS not measurable on this system"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_covers_every_rows_value_at_its_widest_banding_within_k() {
        let cells = grid(128);
        assert!(cells.iter().all(|c| c.bands * c.rows <= 128));
        for &r in GRID_ROWS {
            assert!(cells.contains(&Banding {
                bands: 128 / r,
                rows: r
            }));
        }
        assert!(cells.contains(&Banding { bands: 20, rows: 5 }));
        let small = grid(16);
        assert!(small.iter().all(|c| c.bands * c.rows <= 16 && c.rows <= 16));
        assert!(small.contains(&Banding { bands: 1, rows: 16 }));
    }
}
