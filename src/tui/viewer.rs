//! The pair viewer's state: the open pair, everything derived from it (computed once when it
//! opens), and the scroll positions of its two texts.

use std::ops::Range;

use lshscope_core::diff::{DiffOptions, Folding, Side, TextDiff, diff_past_common_prefix};
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::minhash::similarity::TextMetrics;

use super::aligned::{AlignedLayout, ScreenRow, align};
use super::layout::{wrap_ranges, wrapped_line_count};
use lshscope_core::corpus::Corpus;
use lshscope_core::pipeline::Loaded;

/// Which text the viewer's scroll keys move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScrollSide {
    Both,
    Left,
    Right,
}

/// The open pair, with everything derived from it computed once.
#[derive(Debug, Clone)]
pub struct PairView {
    pub a: u32,
    pub b: u32,
    pub jaccard: f64,
    pub estimate: f64,
    pub shared_shingles: usize,
    pub shingles_a: usize,
    pub shingles_b: usize,
    /// Byte ranges of each text covered by shared shingles.
    pub ranges_a: Vec<Range<usize>>,
    pub ranges_b: Vec<Range<usize>>,
    pub metrics: TextMetrics,
    /// For the current banding: did band i collide (all r rows equal)?
    pub collided: Vec<bool>,
    pub scroll_a: usize,
    pub scroll_b: usize,
    pub side: ScrollSide,
    /// The aligned diff of the two texts, computed when diff mode shows this pair (bounded by
    /// the diff's size cap and deadline, so it runs inline).
    pub diff: Option<TextDiff>,
    /// The two texts laid out level for diff mode, for the pane width it was made for
    /// (made with the diff, redone when the width changes; never per frame).
    pub aligned: Option<AlignedLayout>,
    /// The difference the viewer last jumped to (an index of `diff.differences`).
    pub difference: Option<usize>,
    /// The words `/` looked for in both texts, and where they are.
    pub search: Option<TextSearch>,
}

/// A search in the open pair's texts (case-insensitive): every match in each text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextSearch {
    pub query: String,
    /// Byte ranges of the matches in A and in B, in order, not overlapping.
    pub matches_a: Vec<Range<usize>>,
    pub matches_b: Vec<Range<usize>>,
    /// The line (wrapped line, or aligned row in diff mode) of the match last jumped to, and
    /// the top line it left shown (the texts were scrolled since when that changed).
    pub at: Option<(usize, usize)>,
}

/// The viewer's state: the open pair, and whether the band strip shows each band's values.
#[derive(Debug, Clone, Default)]
pub struct ViewerState {
    pub pair: Option<PairView>,
    pub show_values: bool,
    /// Diff mode: the panes show the aligned diff instead of the shared shingles. It stays on
    /// while stepping through pairs, so a run of pairs can be labelled in it.
    pub diff_mode: bool,
}

impl ViewerState {
    /// The open pair's bands that agree under `banding`, the one just asked for.
    pub fn follow_banding(&mut self, banding: Banding, data: &Loaded) {
        if let Some(view) = &mut self.pair {
            view.collided =
                banding.agreeing_bands(&data.index.signatures, view.a as usize, view.b as usize);
        }
    }
}

impl PairView {
    /// Scrolls the texts `side` selects by `delta` lines, within the lines each wraps to at
    /// `width` columns in a panel of `rows` lines.
    pub fn scroll(&mut self, delta: isize, corpus: &Corpus, width: usize, rows: usize) {
        let max_scroll =
            |pos: u32| wrapped_line_count(corpus.text(pos as usize), width).saturating_sub(rows);
        let step = |scroll: usize, max: usize| -> usize {
            (scroll as isize + delta).clamp(0, max as isize) as usize
        };
        if self.side != ScrollSide::Right {
            self.scroll_a = step(self.scroll_a, max_scroll(self.a));
        }
        if self.side != ScrollSide::Left {
            self.scroll_b = step(self.scroll_b, max_scroll(self.b));
        }
    }

    /// Computes the diff of the two texts unless it is there, comparing them as the index
    /// shingles them (lowercased by default: a difference of case is none for Jaccard), and
    /// its layout in panes `width` columns wide unless that is there.
    pub fn ensure_diff(&mut self, data: &Loaded, width: usize) {
        let (a, b) = (
            data.corpus.text(self.a as usize),
            data.corpus.text(self.b as usize),
        );
        let diff = self.diff.get_or_insert_with(|| {
            let options = DiffOptions {
                folding: Folding::of(&data.index.options.shingle),
                ..DiffOptions::default()
            };
            diff_past_common_prefix(a, b, &options)
        });
        if self
            .aligned
            .as_ref()
            .is_none_or(|l| l.width != width.max(1))
        {
            self.aligned = Some(align(diff, a, b, width));
        }
    }

    /// Diff mode's scrolling: both panes together by `delta` aligned rows, within the
    /// layout's rows in a panel of `rows` lines.
    pub fn scroll_aligned(&mut self, delta: isize, rows: usize) {
        let Some(layout) = &self.aligned else { return };
        let max = layout.len().saturating_sub(rows);
        let to = (self.scroll_a as isize + delta).clamp(0, max as isize) as usize;
        self.scroll_a = to;
        self.scroll_b = to;
    }

    /// Moves to difference `k` of the diff: both panes scroll so that the row it starts on
    /// (the same in both) is the second one shown, one row of what comes before it for
    /// context.
    pub fn jump_to_difference(&mut self, k: usize, rows: usize) {
        let Some(layout) = &self.aligned else { return };
        let Some(&row) = layout.difference_rows.get(k) else {
            return;
        };
        let to = row.saturating_sub(1).min(layout.len().saturating_sub(rows));
        self.scroll_a = to;
        self.scroll_b = to;
        self.difference = Some(k);
    }

    /// Scrolls both texts so that `line` (a wrapped line; an aligned row in `diff_mode`) is
    /// the second one shown, one line of what comes before it for context, within each
    /// text's last page.
    pub fn show_line(
        &mut self,
        line: usize,
        diff_mode: bool,
        corpus: &Corpus,
        width: usize,
        rows: usize,
    ) {
        let to = line.saturating_sub(1);
        match &self.aligned {
            Some(layout) if diff_mode => {
                let to = to.min(layout.len().saturating_sub(rows));
                (self.scroll_a, self.scroll_b) = (to, to);
            }
            _ => {
                let max_scroll = |pos: u32| {
                    wrapped_line_count(corpus.text(pos as usize), width).saturating_sub(rows)
                };
                self.scroll_a = to.min(max_scroll(self.a));
                self.scroll_b = to.min(max_scroll(self.b));
            }
        }
    }

    /// Both texts → left → right → both.
    pub fn next_side(&mut self) {
        self.side = match self.side {
            ScrollSide::Both => ScrollSide::Left,
            ScrollSide::Left => ScrollSide::Right,
            ScrollSide::Right => ScrollSide::Both,
        };
    }
}

/// Every case-insensitive occurrence of `query` in `text`, as byte ranges of `text` (whole
/// characters), in order and not overlapping. Lowercasing may change a character's length,
/// so the search runs on a lowercased copy that remembers where each of its bytes came from.
pub fn find_all(text: &str, query: &str) -> Vec<Range<usize>> {
    let needle = query.to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    let mut folded = String::with_capacity(text.len());
    let mut origin: Vec<usize> = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        for lower in c.to_lowercase() {
            folded.push(lower);
        }
        origin.resize(folded.len(), i);
    }
    let char_end = |at: usize| at + text[at..].chars().next().map_or(0, char::len_utf8);
    folded
        .match_indices(&needle)
        .map(|(at, m)| origin[at]..char_end(origin[at + m.len() - 1]))
        .collect()
}

/// The lines that hold a match in either text, in order, each once: wrapped lines of
/// `width` columns, or the aligned rows of `layout` (diff mode). Matches past what the
/// layout holds are not on any row.
pub fn match_lines(
    search: &TextSearch,
    texts: (&str, &str),
    layout: Option<&AlignedLayout>,
    width: usize,
) -> Vec<usize> {
    let mut lines = Vec::new();
    for (side, text, matches) in [
        (Side::Left, texts.0, &search.matches_a),
        (Side::Right, texts.1, &search.matches_b),
    ] {
        let mut starts: Vec<(usize, usize)> = match layout {
            Some(layout) => layout
                .rows(side)
                .iter()
                .enumerate()
                .filter_map(|(i, row)| match row {
                    ScreenRow::Text(r) => Some((i, r.end)),
                    _ => None,
                })
                .collect(),
            None => wrap_ranges(text, width)
                .into_iter()
                .enumerate()
                .map(|(i, r)| (i, r.end))
                .collect(),
        };
        // In diff mode B's moved blocks are shown beside their old places, out of B's order:
        // the rows in the order of their bytes.
        starts.sort_by_key(|&(_, end)| end);
        // A match belongs to the first line that ends at or after its start (a line's range
        // leaves out the line break).
        let mut k = 0;
        for m in matches {
            while k < starts.len() && starts[k].1 < m.start {
                k += 1;
            }
            match starts.get(k) {
                Some(&(line, _)) => lines.push(line),
                None => break,
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// strsim metrics look at this many leading characters (Levenshtein is quadratic).
pub const METRIC_CHARS: usize = 2000;

/// Everything the viewer shows about a pair, computed once when it opens.
pub fn pair_view(data: &Loaded, pair: &VerifiedPair, banding: Banding) -> PairView {
    let (a, b) = (pair.a as usize, pair.b as usize);
    let (set_a, set_b) = (data.index.sets.get(a), data.index.sets.get(b));
    let shared = lshscope_core::minhash::similarity::intersection(set_a, set_b);
    let opts = &data.index.options.shingle;
    let (text_a, text_b) = (data.corpus.text(a), data.corpus.text(b));
    PairView {
        a: pair.a,
        b: pair.b,
        jaccard: pair.jaccard,
        estimate: pair.estimate,
        shared_shingles: shared.len(),
        shingles_a: set_a.len(),
        shingles_b: set_b.len(),
        ranges_a: lshscope_core::text::shared_ranges(text_a, opts, &shared),
        ranges_b: lshscope_core::text::shared_ranges(text_b, opts, &shared),
        metrics: lshscope_core::minhash::similarity::text_metrics(text_a, text_b, METRIC_CHARS),
        collided: banding.agreeing_bands(&data.index.signatures, a, b),
        scroll_a: 0,
        scroll_b: 0,
        side: ScrollSide::Both,
        diff: None,
        aligned: None,
        difference: None,
        search: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lshscope_core::diff::diff_texts;

    /// In diff mode B's moved block is shown beside its old place, out of B's byte order: a
    /// match inside it is on the rows there, and a match in the text B has before it is on
    /// that text's row (the one level with A's), not on the block's.
    #[test]
    fn matches_are_found_on_rows_shown_out_of_byte_order() {
        let (a, b) = crate::tui::aligned::moved_paragraph_texts();
        let diff = diff_texts(&a, &b, &DiffOptions::default());
        let layout = align(&diff, &a, &b, 30);
        let (old_row, new_row) = layout.move_rows[0];
        let lines = |query: &str| {
            let search = TextSearch {
                query: query.to_string(),
                matches_a: find_all(&a, query),
                matches_b: find_all(&b, query),
                at: None,
            };
            match_lines(&search, (&a, &b), Some(&layout), 30)
        };
        let gardener = lines("gardener");
        assert_eq!(gardener.len(), 1);
        assert!(old_row < gardener[0] && gardener[0] < new_row);
        assert!(
            matches!(&layout.right[gardener[0]], ScreenRow::Text(t) if b[t.clone()].contains("gardener"))
        );
        // "tour" is in the middle of both texts, on one row level in both panes.
        let tour = lines("tour");
        assert_eq!(tour.len(), 1, "{tour:?}");
        for (rows, text) in [(&layout.left, &a), (&layout.right, &b)] {
            assert!(
                matches!(&rows[tour[0]], ScreenRow::Text(t) if text[t.clone()].contains("tour"))
            );
        }
    }

    #[test]
    fn search_ignores_case_and_keeps_byte_ranges_of_the_text() {
        let text = "Indemnity, INDEMNITY and İndemnity";
        let found = find_all(text, "indemnity");
        assert_eq!(found[0], 0..9);
        assert_eq!(&text[found[1].clone()], "INDEMNITY");
        assert_eq!(found.len(), 2, "İ lowercases to i + a mark: not a plain i");
        assert!(find_all(text, "").is_empty());
        assert!(find_all(text, "clause").is_empty());
    }
}
