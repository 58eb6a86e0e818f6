//! Moves: runs deleted in one place and inserted elsewhere, unchanged ([`mark_moves`]) or
//! with small edits inside ([`find_edited_moves`]), found after the first alignment and before
//! the fold.

use super::*;

/// Marks a run deleted on the left that is inserted word for word elsewhere on the right as
/// moved, both rows naming each other (by index in `rows`) and a new block in `blocks` (its
/// inner alignment: one equal row). Runs shorter than `min` are left alone; the first
/// unpaired insertion of the same words is the partner.
pub(super) fn mark_moves<T: Hash + Eq>(
    rows: &mut [TokenRow],
    left: &[T],
    right: &[T],
    min: usize,
    blocks: &mut Vec<BlockBuild>,
) {
    let mut inserted: HashMap<&[T], Vec<usize>> = HashMap::new();
    for (i, row) in rows.iter().enumerate().rev() {
        if row.kind == Kind::Inserted && row.block.is_none() && row.r.len() >= min {
            inserted.entry(&right[row.r.clone()]).or_default().push(i);
        }
    }
    if inserted.is_empty() {
        return;
    }
    for i in 0..rows.len() {
        if rows[i].kind != Kind::Deleted || rows[i].block.is_some() || rows[i].l.len() < min {
            continue;
        }
        // Pushed in reverse, so `pop` gives the first one.
        let Some(to) = inserted
            .get_mut(&left[rows[i].l.clone()])
            .and_then(|c| c.pop())
        else {
            continue;
        };
        rows[i].kind = Kind::MovedOut { to };
        rows[to].kind = Kind::MovedIn { from: i };
        rows[i].block = Some(blocks.len());
        rows[to].block = Some(blocks.len());
        blocks.push(BlockBuild {
            inner: vec![TokenRow::new(
                Kind::Equal,
                rows[i].l.clone(),
                rows[to].r.clone(),
            )],
            exact: true,
        });
    }
}

/// A moved block while rows are built: its inner alignment, and whether it is an exact move
/// of [`mark_moves`] (which the search for blocks with edits may undo to take its words).
#[derive(Debug, Clone)]
pub(super) struct BlockBuild {
    pub(super) inner: Vec<TokenRow>,
    pub(super) exact: bool,
}

/// The bounds of the search for moved blocks with edits (see the module comment).
pub(super) struct MoveSearch {
    /// Fewest tokens the same at both places of a block.
    pub(super) min_block: usize,
    /// Fewest tokens of the unchanged runs a block starts and ends with; an equal row
    /// shorter than this between edits is a chance match the search may undo.
    pub(super) min_edge: usize,
    pub(super) deadline: Option<Instant>,
    /// Tokens the search may still align.
    pub(super) budget: usize,
}

/// A stretch of rows between unchanged runs: deletions, insertions, changes, exact moves
/// and equal rows shorter than [`MoveSearch::min_edge`], with the tokens they hold on each
/// side (contiguous, as rows are in order).
#[derive(Debug, Clone)]
pub(super) struct Region {
    pub(super) rows: Range<usize>,
    pub(super) l: Range<usize>,
    pub(super) r: Range<usize>,
}

/// The regions of `rows`. Rows of blocks the search found end a region, as do long
/// unchanged runs; a region neither starts nor ends with an equal row.
pub(super) fn regions(rows: &[TokenRow], blocks: &[BlockBuild], min_edge: usize) -> Vec<Region> {
    let inside = |r: &TokenRow| match r.block {
        Some(b) => blocks[b].exact,
        None => !r.kind.is_equal() || r.l.len() < min_edge,
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        if !inside(&rows[i]) || rows[i].kind.is_equal() {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        while end < rows.len() && inside(&rows[end]) {
            end += 1;
        }
        while rows[end - 1].kind.is_equal() {
            end -= 1;
        }
        out.push(Region {
            rows: i..end,
            l: rows[i].l.start..rows[end - 1].l.end,
            r: rows[i].r.start..rows[end - 1].r.end,
        });
        i = end;
    }
    out
}

/// Finds moved blocks with edits inside between the regions of `rows` (the words one region
/// lost against those another one gained) and cuts each out: at its old place its unchanged
/// words become [`Kind::MovedOut`] rows and its edited ones [`Kind::Deleted`] rows, at its
/// new place [`Kind::MovedIn`] and [`Kind::Inserted`] rows, all naming the block, whose inner
/// alignment is pushed on `blocks`. A region a block is cut from is rebuilt as deletions and
/// insertions around the block (the chance matches and exact moves it held are undone; the
/// caller looks for exact moves again). Each region gives at most one block per side per
/// call. Returns how many blocks it found, and whether a bound stopped it before it tried
/// every pair.
pub(super) fn find_edited_moves<T: Hash + Eq + Ord>(
    rows: &mut Vec<TokenRow>,
    left: &[T],
    right: &[T],
    search: &mut MoveSearch,
    blocks: &mut Vec<BlockBuild>,
) -> (usize, bool) {
    let min = search.min_block;
    let regions = regions(rows, blocks, search.min_edge);
    let mut bounded = false;
    let mut candidates = |old_place: bool| -> Vec<usize> {
        let len = |g: &Region| if old_place { g.l.len() } else { g.r.len() };
        let mut found: Vec<usize> = (0..regions.len())
            .filter(|&g| len(&regions[g]) >= min)
            .collect();
        found.sort_by_key(|&g| std::cmp::Reverse(len(&regions[g])));
        if found.len() > MAX_MOVE_CANDIDATES {
            found.truncate(MAX_MOVE_CANDIDATES);
            bounded = true;
        }
        found
    };
    let (olds, news) = (candidates(true), candidates(false));
    if olds.is_empty() || news.is_empty() {
        return (0, bounded);
    }
    let mut pairs = screened_pairs(&regions, (&olds, &news), (left, right), min);
    // Most shared first; ties in the order of the regions, so the result is deterministic.
    pairs.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    // For each region, the block found at it as an old place and as a new one.
    let mut old_block: Vec<Option<usize>> = vec![None; regions.len()];
    let mut new_block: Vec<Option<usize>> = vec![None; regions.len()];
    let first_block = blocks.len();
    for (_, a, b) in pairs {
        let (g, h) = (olds[a], news[b]);
        if old_block[g].is_some() || new_block[h].is_some() {
            continue;
        }
        let (l, r) = (regions[g].l.clone(), regions[h].r.clone());
        let work = l.len() + r.len();
        if work > search.budget || search.deadline.is_some_and(|d| Instant::now() > d) {
            bounded = true;
            break;
        }
        search.budget -= work;
        let ops = capture_diff_slices_deadline(
            Algorithm::Patience,
            &left[l.clone()],
            &right[r.clone()],
            search.deadline,
        );
        if let Some(inner) = moved_block(token_rows(&ops, l.start, r.start), search) {
            old_block[g] = Some(blocks.len());
            new_block[h] = Some(blocks.len());
            blocks.push(BlockBuild {
                inner,
                exact: false,
            });
        }
    }
    let found = blocks.len() - first_block;
    if found == 0 {
        return (0, bounded);
    }
    let (mut out, new_index) = cut_out_blocks(rows, &regions, (&old_block, &new_block), blocks);
    renumber_partners(&mut out, &new_index, first_block);
    pair_block_pieces(&mut out, first_block..blocks.len());
    *rows = out;
    (found, bounded)
}

/// The pairs of an old place (`olds[a]`) and a new one (`news[b]`) worth aligning, as (shared
/// three-token sequences, a, b).
fn screened_pairs<T: Hash>(
    regions: &[Region],
    (olds, news): (&[usize], &[usize]),
    (left, right): (&[T], &[T]),
    min: usize,
) -> Vec<(usize, usize, usize)> {
    // The screen: a block with a few edits keeps long unchanged runs, so its two places
    // share many three-token sequences (a 20-word block with two edits inside still shares
    // a dozen); two regions that share fewer than half the block's minimum are not aligned.
    let grams = |tokens: &[T]| -> HashSet<u64> {
        tokens
            .windows(3)
            .map(|w| {
                let mut h = std::hash::DefaultHasher::new();
                w.hash(&mut h);
                h.finish()
            })
            .collect()
    };
    let old_grams: Vec<HashSet<u64>> = olds
        .iter()
        .map(|&g| grams(&left[regions[g].l.clone()]))
        .collect();
    let new_grams: Vec<HashSet<u64>> = news
        .iter()
        .map(|&g| grams(&right[regions[g].r.clone()]))
        .collect();
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    for (a, &g) in olds.iter().enumerate() {
        for (b, &h) in news.iter().enumerate() {
            // A region's own two sides are an edit in place, not a move.
            if g == h {
                continue;
            }
            let (small, big) = if old_grams[a].len() <= new_grams[b].len() {
                (&old_grams[a], &new_grams[b])
            } else {
                (&new_grams[b], &old_grams[a])
            };
            let shared = small.iter().filter(|x| big.contains(x)).count();
            if shared >= (min / 2).max(1) {
                pairs.push((shared, a, b));
            }
        }
    }
    pairs
}

/// `rows` with the regions a block was found at rebuilt around their blocks (see
/// [`find_edited_moves`]), and where each row kept whole went (`usize::MAX`: undone with its
/// region).
fn cut_out_blocks(
    rows: &[TokenRow],
    regions: &[Region],
    (old_block, new_block): (&[Option<usize>], &[Option<usize>]),
    blocks: &[BlockBuild],
) -> (Vec<TokenRow>, Vec<usize>) {
    // Room for the pieces of a few blocks without growing.
    let mut out: Vec<TokenRow> = Vec::with_capacity(rows.len() + 16 * blocks.len());
    // Where each row kept whole went (`usize::MAX`: undone with its region), for the
    // partners of the moves found before.
    let mut new_index = vec![usize::MAX; rows.len()];
    let mut at = 0;
    for (g, region) in regions.iter().enumerate() {
        if old_block[g].is_none() && new_block[g].is_none() {
            continue;
        }
        for i in at..region.rows.start {
            new_index[i] = out.len();
            out.push(rows[i].clone());
        }
        at = region.rows.end;
        // The region's left-only rows first, their right ranges empty where its right
        // tokens start, then its right-only rows, their left ranges empty where its left
        // tokens end.
        let pieces = |block: Option<usize>, old_place: bool| -> Vec<TokenRow> {
            let side = |r: &TokenRow| if old_place { r.l.clone() } else { r.r.clone() };
            let piece = |tokens: Range<usize>, kind: Kind, block: Option<usize>| {
                let (l, r) = if old_place {
                    (tokens, region.r.start..region.r.start)
                } else {
                    (region.l.end..region.l.end, tokens)
                };
                TokenRow { kind, l, r, block }
            };
            let (edit, moved) = if old_place {
                (Kind::Deleted, Kind::MovedOut { to: 0 })
            } else {
                (Kind::Inserted, Kind::MovedIn { from: 0 })
            };
            let all = if old_place {
                region.l.clone()
            } else {
                region.r.clone()
            };
            let Some(b) = block else {
                return if all.is_empty() {
                    Vec::new()
                } else {
                    vec![piece(all, edit, None)]
                };
            };
            let inner = &blocks[b].inner;
            let span = side(&inner[0]).start..side(&inner[inner.len() - 1]).end;
            let mut out = Vec::new();
            if all.start < span.start {
                out.push(piece(all.start..span.start, edit, None));
            }
            for row in inner.iter().filter(|r| !side(r).is_empty()) {
                let kind = if row.kind.is_equal() { moved } else { edit };
                out.push(piece(side(row), kind, Some(b)));
            }
            if span.end < all.end {
                out.push(piece(span.end..all.end, edit, None));
            }
            out
        };
        out.extend(pieces(old_block[g], true));
        out.extend(pieces(new_block[g], false));
    }
    for i in at..rows.len() {
        new_index[i] = out.len();
        out.push(rows[i].clone());
    }
    (out, new_index)
}

/// The moves found before the rebuild: their partners renumbered, and a move whose partner
/// was undone undone too.
fn renumber_partners(out: &mut [TokenRow], new_index: &[usize], first_block: usize) {
    for row in out.iter_mut() {
        let partner = match row.kind {
            Kind::MovedOut { to } if row.block < Some(first_block) => new_index[to],
            Kind::MovedIn { from } if row.block < Some(first_block) => new_index[from],
            _ => continue,
        };
        row.kind = match (row.kind, partner) {
            (Kind::MovedOut { .. }, usize::MAX) => Kind::Deleted,
            (Kind::MovedIn { .. }, usize::MAX) => Kind::Inserted,
            (Kind::MovedOut { .. }, to) => Kind::MovedOut { to },
            (_, from) => Kind::MovedIn { from },
        };
        if partner == usize::MAX {
            row.block = None;
        }
    }
}

/// Pairs the unchanged pieces of each new block: they are in the same order at both places.
fn pair_block_pieces(out: &mut [TokenRow], new_blocks: Range<usize>) {
    for b in new_blocks {
        let of = |moved_out: bool| -> Vec<usize> {
            (0..out.len())
                .filter(|&k| {
                    out[k].block == Some(b)
                        && matches!(
                            (out[k].kind, moved_out),
                            (Kind::MovedOut { .. }, true) | (Kind::MovedIn { .. }, false)
                        )
                })
                .collect()
        };
        let (outs, ins) = (of(true), of(false));
        debug_assert_eq!(outs.len(), ins.len());
        for (o, n) in outs.into_iter().zip(ins) {
            out[o].kind = Kind::MovedOut { to: n };
            out[n].kind = Kind::MovedIn { from: o };
        }
    }
}

/// The moved block two runs hold, from their alignment `rows`: cut to its first and last
/// unchanged run of at least [`MoveSearch::min_edge`] tokens (a shorter one at an edge is a
/// chance match, a `the` of unrelated text), short unchanged runs inside folded into the
/// edits around them as in the main alignment; `None` unless at least
/// [`MoveSearch::min_block`] of its tokens are unchanged and they are at least
/// [`MOVED_BLOCK_MATCH`] of its longer side.
pub(super) fn moved_block(mut rows: Vec<TokenRow>, search: &MoveSearch) -> Option<Vec<TokenRow>> {
    let anchor = |r: &TokenRow| r.kind.is_equal() && r.l.len() >= search.min_edge;
    let first = rows.iter().position(anchor)?;
    let last = rows.iter().rposition(anchor)?;
    rows.truncate(last + 1);
    rows.drain(..first);
    fold_short_equal_runs(&mut rows);
    let unchanged: usize = rows
        .iter()
        .filter(|r| r.kind.is_equal())
        .map(|r| r.l.len())
        .sum();
    let (head, tail) = (&rows[0], &rows[rows.len() - 1]);
    let longer = (tail.l.end - head.l.start).max(tail.r.end - head.r.start);
    (unchanged >= search.min_block && unchanged as f64 >= MOVED_BLOCK_MATCH * longer as f64)
        .then_some(rows)
}
