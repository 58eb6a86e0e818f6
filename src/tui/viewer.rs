//! The pair viewer's state: the open pair, everything derived from it (computed once when it
//! opens), and the scroll positions of its two texts.

use std::ops::Range;

use crate::diff::{DiffOptions, Folding, Side, TextDiff, diff_texts};
use crate::minhash::Banding;
use crate::minhash::VerifiedPair;
use crate::similarity::TextMetrics;

use super::layout::{wrap_ranges, wrapped_line_count};
use crate::corpus::Corpus;
use crate::pipeline::Loaded;

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
    /// The difference the viewer last jumped to (an index of `diff.differences`).
    pub difference: Option<usize>,
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
    /// shingles them (lowercased by default: a difference of case is none for Jaccard).
    pub fn ensure_diff(&mut self, data: &Loaded) {
        if self.diff.is_none() {
            let (a, b) = (self.a as usize, self.b as usize);
            let options = DiffOptions {
                folding: Folding::of(&data.index.options.shingle),
                ..DiffOptions::default()
            };
            self.diff = Some(diff_texts(
                data.corpus.text(a),
                data.corpus.text(b),
                &options,
            ));
        }
    }

    /// Moves to difference `k` of the diff: both texts scroll so that its first line is the
    /// second one shown (one line of what comes before it for context).
    pub fn jump_to_difference(&mut self, k: usize, corpus: &Corpus, width: usize, rows: usize) {
        let Some(diff) = &self.diff else { return };
        let Some(first) = diff.differences.get(k).map(|d| &diff.rows[d.start]) else {
            return;
        };
        let scroll_to = |pos: u32, side: Side| {
            let text = corpus.text(pos as usize);
            let lines = wrap_ranges(text, width);
            let at = first.range(side).start;
            let line = lines
                .iter()
                .position(|l| l.end > at)
                .unwrap_or(lines.len().saturating_sub(1));
            line.saturating_sub(1).min(lines.len().saturating_sub(rows))
        };
        self.scroll_a = scroll_to(self.a, Side::Left);
        self.scroll_b = scroll_to(self.b, Side::Right);
        self.difference = Some(k);
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

/// strsim metrics look at this many leading characters (Levenshtein is quadratic).
pub const METRIC_CHARS: usize = 2000;

/// Everything the viewer shows about a pair, computed once when it opens.
pub fn pair_view(data: &Loaded, pair: &VerifiedPair, banding: Banding) -> PairView {
    let (a, b) = (pair.a as usize, pair.b as usize);
    let (set_a, set_b) = (data.index.sets.get(a), data.index.sets.get(b));
    let shared = crate::similarity::intersection(set_a, set_b);
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
        ranges_a: crate::text::shared_ranges(text_a, opts, &shared),
        ranges_b: crate::text::shared_ranges(text_b, opts, &shared),
        metrics: crate::similarity::text_metrics(text_a, text_b, METRIC_CHARS),
        collided: banding.agreeing_bands(&data.index.signatures, a, b),
        scroll_a: 0,
        scroll_b: 0,
        side: ScrollSide::Both,
        diff: None,
        difference: None,
    }
}
