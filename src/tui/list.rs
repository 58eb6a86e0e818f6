//! Pair lists: which pairs a list shows and in what order ([`ListView`], [`list_order`]), and
//! where the user is in it ([`PairList`]: rows, selection, scroll). One type serves the
//! candidate list and the missed-pairs list.

use rayon::prelude::*;

use lshscope_core::minhash::VerifiedPair;
use lshscope_core::util::rng::SplitMix64;

/// What the pair list shows: which pairs and in what order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListView {
    pub filter: Option<JaccardFilter>,
    pub sort: SortOrder,
    pub shuffle_seed: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    JaccardDesc,
    JaccardAsc,
    Shuffled,
}

impl SortOrder {
    pub fn label(self) -> &'static str {
        match self {
            SortOrder::JaccardDesc => "J ↓",
            SortOrder::JaccardAsc => "J ↑",
            SortOrder::Shuffled => "shuffled",
        }
    }

    /// What the list's order is, as a sentence's end: "sorted by Jaccard, highest first".
    pub fn describe(self) -> &'static str {
        match self {
            SortOrder::JaccardDesc => "sorted by Jaccard, highest first",
            SortOrder::JaccardAsc => "sorted by Jaccard, lowest first",
            SortOrder::Shuffled => "shuffled (a random order, the same each time)",
        }
    }
}

/// What the pair list's text column shows ([`Command::CyclePreview`](crate::tui::keys::Command)
/// cycles through them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PreviewMode {
    /// Text A from a few words before the first place A and B differ: pairs of licences or job
    /// ads share a long start (a header, a title), and what tells them apart comes after it.
    #[default]
    FromDifference,
    /// Text A from its start.
    Start,
    /// The `--preview-column` field of A and of B.
    Column,
}

impl PreviewMode {
    /// The column's header: what the column shows.
    pub fn header(self, column: Option<&str>) -> String {
        match (self, column) {
            (PreviewMode::FromDifference, _) => "text A from where it differs from B".into(),
            (PreviewMode::Start, _) => "text A from its start".into(),
            (PreviewMode::Column, Some(name)) => format!("{name}: A │ B"),
            (PreviewMode::Column, None) => "text A".into(),
        }
    }

    /// The next mode; [`PreviewMode::Column`] only when a column was given.
    pub fn next(self, has_column: bool) -> PreviewMode {
        match self {
            PreviewMode::FromDifference => PreviewMode::Start,
            PreviewMode::Start if has_column => PreviewMode::Column,
            PreviewMode::Start | PreviewMode::Column => PreviewMode::FromDifference,
        }
    }

    /// What the mode shows, for the message after the key.
    pub fn describe(self, column: Option<&str>) -> String {
        match (self, column) {
            (PreviewMode::FromDifference, _) => {
                "text column: text A from a few words before its first difference from B \
                 (… marks the cut; the changed part is not dimmed)"
                    .into()
            }
            (PreviewMode::Start, _) => "text column: text A from its start".into(),
            (PreviewMode::Column, Some(name)) => {
                format!("text column: the field {name} of A and of B")
            }
            (PreviewMode::Column, None) => "text column: text A".into(),
        }
    }
}

/// A field of every document shown in the list instead of its text (`--preview-column`):
/// read from the input as a second corpus whose "text" is that field, in the same rows.
#[derive(Debug, Clone)]
pub struct PreviewColumn {
    pub name: String,
    pub values: std::sync::Arc<lshscope_core::corpus::Corpus>,
}

impl PreviewColumn {
    /// The field of document `doc` of `corpus`, when the column's rows are the corpus's (the
    /// same id at the same position); `None` otherwise.
    pub fn value(&self, corpus: &lshscope_core::corpus::Corpus, doc: u32) -> Option<&str> {
        let d = doc as usize;
        (d < self.values.len() && self.values.id(d) == corpus.id(d)).then(|| self.values.text(d))
    }
}

/// Pairs shown in the list: Jaccard in [low, high), or [low, high] when `high_inclusive`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JaccardFilter {
    pub low: f64,
    pub high: f64,
    pub high_inclusive: bool,
    /// The histogram bin this filter came from, if any.
    pub bin: Option<usize>,
}

impl JaccardFilter {
    pub fn contains(&self, j: f64) -> bool {
        j >= self.low - 1e-12
            && (j < self.high - 1e-12 || (self.high_inclusive && j <= self.high + 1e-12))
    }

    pub fn describe(&self) -> String {
        format!(
            "J ∈ [{}, {}{}",
            filter_bound(self.low),
            filter_bound(self.high),
            if self.high_inclusive { "]" } else { ")" }
        )
    }
}

/// A filter's bound with two decimals, as the histogram's bins have them, or with as many
/// as a typed bound needs (up to four): a filter of 0.86-0.865 must not read [0.86, 0.86].
fn filter_bound(x: f64) -> String {
    let two = format!("{x:.2}");
    if two.parse::<f64>().is_ok_and(|t| (t - x).abs() < 1e-9) {
        two
    } else {
        format!("{}", (x * 1e4).round() / 1e4)
    }
}

/// Indices of the `pairs` that pass `view.filter`, in `view.sort` order. Millions of
/// candidates are possible (a low threshold on a large corpus): (key, index) pairs are
/// sorted in parallel rather than with a comparator that looks both pairs up. Index order is
/// (a, b) order, so ties break by the ids' input positions.
pub fn list_order(pairs: &[VerifiedPair], view: ListView) -> Vec<u32> {
    ordered(
        pairs.len(),
        |i| Some((pairs[i].jaccard, pairs[i].a, pairs[i].b)),
        view,
    )
}

/// The key pair (a, b) with this Jaccard sorts by under `sort` (ascending keys).
pub fn sort_key(sort: SortOrder, seed: u64, jaccard: f64, a: u32, b: u32) -> u64 {
    // Non-negative floats order like their bit patterns.
    let bits = jaccard.max(0.0).to_bits();
    match sort {
        SortOrder::JaccardDesc => u64::MAX - bits,
        SortOrder::JaccardAsc => bits,
        // A pseudo-random key per pair (not per position): the order of the pairs two
        // bandings share stays the same, so an audit can go on after re-banding.
        SortOrder::Shuffled => SplitMix64::mix(seed ^ (((a as u64) << 32) | b as u64)),
    }
}

/// Where the user is in a list of pairs: the rows shown (indices into the list's pairs,
/// filtered and sorted), the selected row and the first row on screen. `height` arguments
/// are the rows the list panel shows ([`super::layout::pair_list_rows`]).
#[derive(Debug, Clone, Default)]
pub struct PairList {
    rows: Vec<u32>,
    selected: usize,
    offset: usize,
}

impl PairList {
    /// Indices into the list's pairs, in the order shown.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Position of the selection in [`PairList::rows`].
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The first row on screen.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The pair index of the selected row.
    pub fn selected_index(&self) -> Option<u32> {
        self.rows.get(self.selected).copied()
    }

    /// Shows `rows`, selecting the first row for which `keep` holds (else the top).
    pub fn show(&mut self, rows: Vec<u32>, keep: impl Fn(u32) -> bool, height: usize) {
        self.rows = rows;
        self.selected = self.rows.iter().position(|&i| keep(i)).unwrap_or(0);
        self.offset = 0;
        self.scroll_into_view(height);
    }

    pub fn clear(&mut self) {
        *self = PairList::default();
    }

    /// Moves the selection by `delta` rows, staying inside the list.
    pub fn move_by(&mut self, delta: isize, height: usize) {
        if self.rows.is_empty() {
            return;
        }
        let last = self.rows.len() as isize - 1;
        self.selected = (self.selected as isize + delta).clamp(0, last) as usize;
        self.scroll_into_view(height);
    }

    /// Selects row `i` (clamped to the list).
    pub fn select(&mut self, i: usize, height: usize) {
        self.selected = i.min(self.rows.len().saturating_sub(1));
        self.scroll_into_view(height);
    }

    pub fn top(&mut self, height: usize) {
        self.select(0, height);
    }

    pub fn bottom(&mut self, height: usize) {
        self.select(usize::MAX, height);
    }

    /// The row shown on screen line `line` of the list (0 = first row under the header).
    pub fn row_on_line(&self, line: usize) -> Option<usize> {
        let i = self.offset + line;
        (i < self.rows.len()).then_some(i)
    }

    /// The first row after the selection (wrapping) whose pair index satisfies `pred`, so a
    /// repeated search goes on to the next match.
    pub fn find_after_selection(&self, pred: impl Fn(u32) -> bool) -> Option<usize> {
        let n = self.rows.len();
        (1..=n)
            .map(|k| (self.selected + k) % n.max(1))
            .find(|&k| pred(self.rows[k]))
    }

    /// Scrolls so the selection is on screen, and no further than the last page.
    pub fn scroll_into_view(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(self.rows.len().saturating_sub(height));
    }
}

/// Indices of `n` pairs in `view.sort` order, keeping those for which `pair(i)` gives
/// `Some((jaccard, a, b))` and whose Jaccard passes `view.filter`. (key, index) pairs are
/// sorted in parallel rather than with a comparator that looks both pairs up; index order is
/// (a, b) order, so ties break by the ids' input positions.
pub fn ordered(
    n: usize,
    pair: impl Fn(usize) -> Option<(f64, u32, u32)> + Sync,
    view: ListView,
) -> Vec<u32> {
    let ListView {
        filter,
        sort,
        shuffle_seed: seed,
    } = view;
    let mut keyed: Vec<(u64, u32)> = (0..n)
        .into_par_iter()
        .filter_map(|i| {
            let (jaccard, a, b) = pair(i)?;
            filter
                .is_none_or(|f| f.contains(jaccard))
                .then(|| (sort_key(sort, seed, jaccard, a, b), i as u32))
        })
        .collect();
    keyed.par_sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_filter_reads_as_typed_and_a_bin_with_two_decimals() {
        let filter = |low, high, high_inclusive| JaccardFilter {
            low,
            high,
            high_inclusive,
            bin: None,
        };
        assert_eq!(filter(0.86, 0.865, true).describe(), "J ∈ [0.86, 0.865]");
        assert_eq!(filter(0.9, 0.95, false).describe(), "J ∈ [0.90, 0.95)");
        assert_eq!(filter(0.7, 1.0, true).describe(), "J ∈ [0.70, 1.00]");
        assert_eq!(filter(0.12345, 0.5, true).describe(), "J ∈ [0.1235, 0.50]");
    }

    #[test]
    fn preview_modes_cycle_through_the_column_only_when_given() {
        let mut mode = PreviewMode::default();
        assert_eq!(mode, PreviewMode::FromDifference);
        let mut seen = vec![];
        for _ in 0..3 {
            mode = mode.next(true);
            seen.push(mode);
        }
        assert_eq!(
            seen,
            [
                PreviewMode::Start,
                PreviewMode::Column,
                PreviewMode::FromDifference
            ]
        );
        assert_eq!(PreviewMode::Start.next(false), PreviewMode::FromDifference);
        assert_eq!(PreviewMode::Column.header(Some("title")), "title: A │ B");
    }

    #[test]
    fn a_preview_column_answers_only_for_its_own_rows() {
        let corpus = lshscope_core::corpus::Corpus::from_pairs([("a", "long text"), ("b", "x")]);
        let column = PreviewColumn {
            name: "title".into(),
            values: std::sync::Arc::new(lshscope_core::corpus::Corpus::from_pairs([(
                "a", "Title A",
            )])),
        };
        assert_eq!(column.value(&corpus, 0), Some("Title A"));
        assert_eq!(
            column.value(&corpus, 1),
            None,
            "a row the column does not have"
        );
        let other = lshscope_core::corpus::Corpus::from_pairs([("z", "text")]);
        assert_eq!(
            column.value(&other, 0),
            None,
            "another document at that row"
        );
    }

    #[test]
    fn filter_bounds() {
        let f = JaccardFilter {
            low: 0.8,
            high: 0.85,
            high_inclusive: false,
            bin: Some(16),
        };
        assert!(f.contains(0.8) && f.contains(0.84) && !f.contains(0.85) && !f.contains(0.79));
        let g = JaccardFilter {
            high: 1.0,
            high_inclusive: true,
            ..f
        };
        assert!(g.contains(1.0));
    }

    #[test]
    fn pair_list_moves_scrolls_and_keeps_the_selection() {
        let mut list = PairList::default();
        list.move_by(1, 3);
        assert_eq!((list.selected(), list.selected_index()), (0, None));
        list.show((10..20).collect(), |i| i == 15, 3);
        assert_eq!((list.selected(), list.selected_index()), (5, Some(15)));
        assert_eq!(list.offset(), 3, "the kept selection is on screen");
        list.move_by(100, 3);
        assert_eq!((list.selected(), list.offset()), (9, 7));
        list.move_by(-2, 3);
        assert_eq!((list.selected(), list.offset()), (7, 7));
        assert_eq!(list.row_on_line(1), Some(8));
        assert_eq!(list.row_on_line(3), None, "below the last row");
        list.top(3);
        assert_eq!((list.selected(), list.offset()), (0, 0));
        list.bottom(3);
        assert_eq!(list.selected(), 9);
        // Searching starts after the selection and wraps.
        assert_eq!(list.find_after_selection(|i| i % 2 == 0), Some(0));
        list.show((0..4).collect(), |_| false, 3);
        assert_eq!((list.selected(), list.offset()), (0, 0));
        list.clear();
        assert!(list.is_empty());
    }

    #[test]
    fn order_filters_and_sorts_with_ties_by_index() {
        let js = [0.5, 0.9, 0.5, 0.2, 0.95];
        let view = ListView {
            filter: Some(JaccardFilter {
                low: 0.3,
                high: 1.0,
                high_inclusive: true,
                bin: None,
            }),
            sort: SortOrder::JaccardDesc,
            shuffle_seed: 1,
        };
        let pair = |i: usize| (i != 4).then_some((js[i], 0, i as u32 + 1));
        assert_eq!(ordered(js.len(), pair, view), vec![1, 0, 2]);
        let asc = ListView {
            sort: SortOrder::JaccardAsc,
            ..view
        };
        assert_eq!(ordered(js.len(), pair, asc), vec![0, 2, 1]);
    }
}
