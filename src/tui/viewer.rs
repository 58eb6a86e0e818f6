//! The pair viewer's state: the open pair, everything derived from it (computed once when it
//! opens), and the scroll positions of its two texts.
//!
//! [`ViewerState`] owns every change to them: the App's viewer commands
//! (`app/update/viewer.rs`) call its methods and put what they return into words on the
//! status line; the UI (`ui/viewer.rs`) and the tests read it through accessors.

use std::ops::Range;

use lshscope_core::diff::{DiffOptions, Folding, Side, TextDiff, diff_past_common_prefix};
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::minhash::similarity::TextMetrics;

use super::aligned::{AlignedLayout, ScreenRow, align};
use super::layout::{self, wrap_ranges, wrapped_line_count};
use lshscope_core::corpus::Corpus;
use lshscope_core::pipeline::Loaded;

/// A scroll by this many lines reaches either end of any text (and `scroll + delta` cannot
/// overflow).
const TO_THE_END: isize = i32::MAX as isize;

/// Which text the viewer's scroll keys move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScrollSide {
    Both,
    Left,
    Right,
}

/// The size of the viewer's two text panes: the columns each wraps its text to and the rows
/// it shows. A value handed to [`ViewerState`]'s methods, so its fields are public.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panes {
    pub width: usize,
    pub rows: usize,
}

impl Panes {
    /// How far Page Up / Page Down scroll: a pane's rows less one, kept for context.
    pub fn page(self) -> usize {
        self.rows.saturating_sub(1).max(1)
    }
}

/// What `d` left the viewer in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffToggle {
    /// Diff mode is off: the panes highlight the shared shingles.
    Off,
    /// Diff mode is on, with the open pair's number of differences (`None`: no pair is open).
    On { differences: Option<usize> },
}

/// Where `]` / `[` went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DifferenceStep {
    /// The texts show difference `index` (from 0) of the `total`.
    Moved { index: usize, total: usize },
    /// There is no difference further that way (`total` 0: the texts do not differ).
    NoneFurther { total: usize },
}

/// Where `}` / `{` (or a new search) went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchStep {
    /// No search was made in the open pair.
    NoSearch,
    /// `query` matches only past what diff mode lays out.
    OutsideLayout { query: String },
    /// The texts show line `index` (from 0) of the `lines` holding a match of `query`, which
    /// matches `in_a` times in A and `in_b` times in B; `wrapped` when the step went round
    /// past an end.
    Found {
        index: usize,
        lines: usize,
        query: String,
        in_a: usize,
        in_b: usize,
        wrapped: bool,
    },
}

/// What a search (`/` answered) did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchOutcome {
    /// The query was empty: the search is gone.
    Cleared,
    /// Neither text holds the query: the search is gone.
    NoMatch,
    /// The matches are kept and the texts moved to the first line at or after the top one.
    Searched(MatchStep),
}

/// The open pair, with everything derived from it computed once. Its fields change only
/// through [`ViewerState`]; the UI reads them through the accessors.
#[derive(Debug, Clone)]
pub struct PairView {
    a: u32,
    b: u32,
    jaccard: f64,
    estimate: f64,
    shared_shingles: usize,
    shingles_a: usize,
    shingles_b: usize,
    /// Byte ranges of each text covered by shared shingles.
    ranges_a: Vec<Range<usize>>,
    ranges_b: Vec<Range<usize>>,
    metrics: TextMetrics,
    /// For the current banding: did band i collide (all r rows equal)?
    collided: Vec<bool>,
    scroll_a: usize,
    scroll_b: usize,
    side: ScrollSide,
    /// The aligned diff of the two texts, computed when diff mode shows this pair (bounded by
    /// the diff's size cap and deadline, so it runs inline).
    diff: Option<TextDiff>,
    /// The two texts laid out level for diff mode, for the pane width it was made for
    /// (made with the diff, redone when the width changes; never per frame).
    aligned: Option<AlignedLayout>,
    /// The difference the viewer last jumped to (an index of `diff.differences`).
    difference: Option<usize>,
    /// The words `/` looked for in both texts, and where they are.
    search: Option<TextSearch>,
}

/// A search in the open pair's texts (case-insensitive): every match in each text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextSearch {
    query: String,
    /// Byte ranges of the matches in A and in B, in order, not overlapping.
    matches_a: Vec<Range<usize>>,
    matches_b: Vec<Range<usize>>,
    /// The line (wrapped line, or aligned row in diff mode) of the match last jumped to, and
    /// the top line it left shown (the texts were scrolled since when that changed).
    at: Option<(usize, usize)>,
}

impl TextSearch {
    /// Every match of `query` in the two texts (none jumped to yet).
    fn new(query: &str, texts: (&str, &str)) -> Self {
        TextSearch {
            query: query.to_string(),
            matches_a: find_all(texts.0, query),
            matches_b: find_all(texts.1, query),
            at: None,
        }
    }

    /// The words looked for.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Byte ranges of the matches in A, in order, not overlapping.
    pub fn matches_a(&self) -> &[Range<usize>] {
        &self.matches_a
    }

    /// Byte ranges of the matches in B, in order, not overlapping.
    pub fn matches_b(&self) -> &[Range<usize>] {
        &self.matches_b
    }
}

/// The viewer's state: the open pair, whether the band strip shows each band's values, and
/// whether the panes show the diff.
#[derive(Debug, Clone, Default)]
pub struct ViewerState {
    pair: Option<PairView>,
    show_values: bool,
    /// Diff mode: the panes show the aligned diff instead of the shared shingles. It stays on
    /// while stepping through pairs, so a run of pairs can be labelled in it.
    diff_mode: bool,
}

impl ViewerState {
    /// The open pair, if any.
    pub fn pair(&self) -> Option<&PairView> {
        self.pair.as_ref()
    }

    /// True when the band strip shows each band's r values for both documents.
    pub fn show_values(&self) -> bool {
        self.show_values
    }

    /// True when the panes show the aligned diff instead of the shared shingles.
    pub fn diff_mode(&self) -> bool {
        self.diff_mode
    }

    /// The text panes on a terminal of `size` whose band strip has `bands` cells (with the
    /// values, when shown, the strip is taller and the panes shorter).
    pub fn panes(&self, size: (u16, u16), bands: usize) -> Panes {
        Panes {
            width: layout::viewer_text_width(size),
            rows: layout::viewer_text_rows(size, self.show_values, bands),
        }
    }

    /// Opens `pair`: what the viewer shows about it is computed now, its diff too (laid out
    /// `width` columns wide) while diff mode is on.
    pub fn open(&mut self, data: &Loaded, pair: &VerifiedPair, banding: Banding, width: usize) {
        let mut view = PairView::new(data, pair, banding);
        if self.diff_mode {
            view.ensure_diff(data, width);
        }
        self.pair = Some(view);
    }

    /// Closes the open pair (the modes stay for the next one).
    pub fn close(&mut self) {
        self.pair = None;
    }

    /// The open pair's bands that agree under `banding`, the one just asked for.
    pub fn follow_banding(&mut self, banding: Banding, data: &Loaded) {
        if let Some(view) = &mut self.pair {
            view.collided =
                banding.agreeing_bands(&data.index.signatures, view.a as usize, view.b as usize);
        }
    }

    /// `v`: the band strip shows each band's values, or stops showing them.
    pub fn toggle_values(&mut self) {
        self.show_values = !self.show_values;
    }

    /// `d`: diff mode on or off; on, the open pair's diff is computed now, laid out `width`
    /// columns wide (and so is every pair opened while it stays on).
    pub fn toggle_diff(&mut self, data: &Loaded, width: usize) -> DiffToggle {
        self.diff_mode = !self.diff_mode;
        // The search's last line counted in the other mode's lines: go on from the top shown.
        if let Some(search) = self.pair.as_mut().and_then(|v| v.search.as_mut()) {
            search.at = None;
        }
        if !self.diff_mode {
            return DiffToggle::Off;
        }
        let differences = self.pair.as_mut().map(|view| {
            view.ensure_diff(data, width);
            view.diff.as_ref().map_or(0, |d| d.differences.len())
        });
        DiffToggle::On { differences }
    }

    /// Scrolls the texts (the side chosen) by `delta` lines; in diff mode both together by
    /// aligned rows, whatever the side, so they stay level.
    pub fn scroll(&mut self, delta: isize, data: &Loaded, panes: Panes) {
        let Some(view) = &mut self.pair else { return };
        if self.diff_mode {
            view.ensure_diff(data, panes.width);
            view.scroll_aligned(delta, panes.rows);
        } else {
            view.scroll(delta, &data.corpus, panes.width, panes.rows);
        }
    }

    /// Home / End: the texts to their first (`to_bottom`: last) page. `]` and `[` then go on
    /// from where the texts are, not from the difference last visited.
    pub fn scroll_to_end(&mut self, to_bottom: bool, data: &Loaded, panes: Panes) {
        if let Some(view) = &mut self.pair {
            view.difference = None;
        }
        let delta = if to_bottom { TO_THE_END } else { -TO_THE_END };
        self.scroll(delta, data, panes);
    }

    /// Tab: the scroll keys move both texts → the left → the right → both. `false` in diff
    /// mode, where the level panes scroll as one (choosing a side would undo the alignment).
    pub fn switch_scroll_side(&mut self) -> bool {
        if self.diff_mode {
            return false;
        }
        if let Some(view) = &mut self.pair {
            view.next_side();
        }
        true
    }

    /// `]` / `[`: scrolls both texts to the next (previous) difference, turning diff mode on
    /// if it is off. From the top, `]` lands on the first difference however long the common
    /// start of the texts ([`diff_past_common_prefix`]). `None` when no pair is open.
    pub fn step_difference(
        &mut self,
        forward: bool,
        data: &Loaded,
        panes: Panes,
    ) -> Option<DifferenceStep> {
        if !self.diff_mode {
            self.toggle_diff(data, panes.width);
        }
        let view = self.pair.as_mut()?;
        view.ensure_diff(data, panes.width);
        let diff = view.diff.as_ref()?;
        let total = diff.differences.len();
        let at = view.difference.map(|k| diff.differences[k].start);
        let target = match (forward, at) {
            (true, at) => diff.next_difference(at),
            (false, Some(row)) => diff.previous_difference(row),
            // None visited (or the texts moved to an end since): the last one above the top row.
            (false, None) => view.aligned.as_ref().and_then(|layout| {
                let top = view.scroll_a;
                layout.difference_rows.iter().rposition(|&row| row < top)
            }),
        };
        Some(match target {
            Some(index) => {
                view.jump_to_difference(index, panes.rows);
                DifferenceStep::Moved { index, total }
            }
            None => DifferenceStep::NoneFurther { total },
        })
    }

    /// `/` answered: finds `query` in both texts (case-insensitive) and moves to the first
    /// line at or after the top one that holds a match in either. An empty query ends the
    /// search. `None` when no pair is open.
    pub fn search(&mut self, query: &str, data: &Loaded, panes: Panes) -> Option<SearchOutcome> {
        let view = self.pair.as_mut()?;
        if query.is_empty() {
            view.search = None;
            return Some(SearchOutcome::Cleared);
        }
        let search = TextSearch::new(
            query,
            (
                data.corpus.text(view.a as usize),
                data.corpus.text(view.b as usize),
            ),
        );
        if search.matches_a.is_empty() && search.matches_b.is_empty() {
            view.search = None;
            return Some(SearchOutcome::NoMatch);
        }
        view.search = Some(search);
        self.step_match(true, data, panes)
            .map(SearchOutcome::Searched)
    }

    /// `}` / `{`: both texts to the next (previous) line holding a match, after (before) the
    /// one last found, or the top line shown once the texts were scrolled away from it; past
    /// the last one it wraps around. `None` when no pair is open.
    pub fn step_match(&mut self, forward: bool, data: &Loaded, panes: Panes) -> Option<MatchStep> {
        let diff_mode = self.diff_mode;
        let view = self.pair.as_mut()?;
        if view.search.is_none() {
            return Some(MatchStep::NoSearch);
        }
        if diff_mode {
            view.ensure_diff(data, panes.width);
        }
        let texts = (
            data.corpus.text(view.a as usize),
            data.corpus.text(view.b as usize),
        );
        let layout = view.aligned.as_ref().filter(|_| diff_mode);
        let search = view.search.as_ref()?;
        let lines = match_lines(search, texts, layout, panes.width);
        let top = view.top_line();
        // From the match last found while the texts stay where it put them; once they were
        // scrolled, from the top line shown.
        let from = match search.at {
            Some((line, shown_from)) if shown_from == top => Some(line),
            Some(_) => Some(top),
            None => None,
        };
        let (found, wrapped) = match (from, forward) {
            // The first search: at or after the top line.
            (None, _) => match lines.iter().position(|&l| l >= top) {
                Some(k) => (Some(k), false),
                None => (Some(0).filter(|_| !lines.is_empty()), true),
            },
            (Some(at), true) => match lines.iter().position(|&l| l > at) {
                Some(k) => (Some(k), false),
                None => (Some(0).filter(|_| !lines.is_empty()), true),
            },
            (Some(at), false) => match lines.iter().rposition(|&l| l < at) {
                Some(k) => (Some(k), false),
                None => (lines.len().checked_sub(1), true),
            },
        };
        let (query, in_a, in_b) = (
            search.query.clone(),
            search.matches_a.len(),
            search.matches_b.len(),
        );
        let Some(index) = found else {
            return Some(MatchStep::OutsideLayout { query });
        };
        let line = lines[index];
        view.show_line(line, diff_mode, &data.corpus, panes.width, panes.rows);
        let shown_from = view.top_line();
        if let Some(search) = &mut view.search {
            search.at = Some((line, shown_from));
        }
        Some(MatchStep::Found {
            index,
            lines: lines.len(),
            query,
            in_a,
            in_b,
            wrapped,
        })
    }

    /// The open pair with its diff computed (laid out `width` columns wide), to export it.
    pub fn pair_with_diff(&mut self, data: &Loaded, width: usize) -> Option<&PairView> {
        let view = self.pair.as_mut()?;
        view.ensure_diff(data, width);
        Some(view)
    }

    /// After a resize: diff mode's layout follows the new pane width (the scroll position
    /// kept within the new number of rows).
    pub fn relayout(&mut self, data: &Loaded, panes: Panes) {
        if !self.diff_mode {
            return;
        }
        let Some(view) = &mut self.pair else { return };
        if view.diff.is_some() {
            view.ensure_diff(data, panes.width);
            view.scroll_aligned(0, panes.rows);
        }
    }
}

impl PairView {
    /// Everything the viewer shows about `pair`, computed once when it opens.
    fn new(data: &Loaded, pair: &VerifiedPair, banding: Banding) -> Self {
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

    /// Document A's position in the corpus.
    pub fn a(&self) -> u32 {
        self.a
    }

    /// Document B's position in the corpus.
    pub fn b(&self) -> u32 {
        self.b
    }

    /// The exact Jaccard similarity of the two shingle sets.
    pub fn jaccard(&self) -> f64 {
        self.jaccard
    }

    /// The MinHash estimate of the Jaccard similarity.
    pub fn estimate(&self) -> f64 {
        self.estimate
    }

    /// Shingles both documents contain.
    pub fn shared_shingles(&self) -> usize {
        self.shared_shingles
    }

    /// Shingles of A.
    pub fn shingles_a(&self) -> usize {
        self.shingles_a
    }

    /// Shingles of B.
    pub fn shingles_b(&self) -> usize {
        self.shingles_b
    }

    /// Byte ranges of A covered by shared shingles.
    pub fn ranges_a(&self) -> &[Range<usize>] {
        &self.ranges_a
    }

    /// Byte ranges of B covered by shared shingles.
    pub fn ranges_b(&self) -> &[Range<usize>] {
        &self.ranges_b
    }

    /// The edit-based metrics of the two texts (their first [`METRIC_CHARS`] characters).
    pub fn metrics(&self) -> &TextMetrics {
        &self.metrics
    }

    /// For the banding last followed: did band i collide (all r rows equal)?
    pub fn collided(&self) -> &[bool] {
        &self.collided
    }

    /// The first line A's pane shows (in diff mode, the first aligned row of both).
    pub fn scroll_a(&self) -> usize {
        self.scroll_a
    }

    /// The first line B's pane shows (in diff mode, the same as A's).
    pub fn scroll_b(&self) -> usize {
        self.scroll_b
    }

    /// Which text the scroll keys move.
    pub fn side(&self) -> ScrollSide {
        self.side
    }

    /// The aligned diff of the two texts, once diff mode has shown this pair.
    pub fn diff(&self) -> Option<&TextDiff> {
        self.diff.as_ref()
    }

    /// The two texts laid out level for diff mode, for the pane width it was made for.
    pub fn aligned(&self) -> Option<&AlignedLayout> {
        self.aligned.as_ref()
    }

    /// The difference last jumped to (an index of the diff's differences).
    pub fn difference(&self) -> Option<usize> {
        self.difference
    }

    /// The search made in the two texts, if any.
    pub fn search(&self) -> Option<&TextSearch> {
        self.search.as_ref()
    }

    /// The top line shown of the text the search goes by: B's when the scroll keys move B
    /// alone, else A's.
    fn top_line(&self) -> usize {
        match self.side {
            ScrollSide::Right => self.scroll_b,
            _ => self.scroll_a,
        }
    }

    /// Scrolls the texts `side` selects by `delta` lines, within the lines each wraps to at
    /// `width` columns in a panel of `rows` lines.
    fn scroll(&mut self, delta: isize, corpus: &Corpus, width: usize, rows: usize) {
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
    fn ensure_diff(&mut self, data: &Loaded, width: usize) {
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
    fn scroll_aligned(&mut self, delta: isize, rows: usize) {
        let Some(layout) = &self.aligned else { return };
        let max = layout.len().saturating_sub(rows);
        let to = (self.scroll_a as isize + delta).clamp(0, max as isize) as usize;
        self.scroll_a = to;
        self.scroll_b = to;
    }

    /// Moves to difference `k` of the diff: both panes scroll so that the row it starts on
    /// (the same in both) is the second one shown, one row of what comes before it for
    /// context.
    fn jump_to_difference(&mut self, k: usize, rows: usize) {
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
    fn show_line(
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
    fn next_side(&mut self) {
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
            let search = TextSearch::new(query, (&a, &b));
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
