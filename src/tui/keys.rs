//! The one key table. The event handler, the `?` help overlay and the footer all read
//! [`BINDINGS`], so a key and its description can never disagree. The table is generic over
//! its commands and contexts ([`Binding`], [`lookup_in`], [`footer_groups`]): the `learn`
//! walkthrough keeps its own table on the same mechanism.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Everything a key can ask for. Data-free, so the table can be a `const`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    Quit,
    Help,
    Back,
    FocusNext,
    FocusPrev,
    BandsDown,
    BandsUp,
    RowsDown,
    RowsUp,
    Pin,
    ClearPins,
    ThresholdPrompt,
    ThresholdDown,
    ThresholdUp,
    ToggleLog,
    BinLeft,
    BinRight,
    FilterToBin,
    FilterPrompt,
    ClearFilter,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Open,
    CycleSort,
    CyclePreview,
    JumpPrompt,
    LabelDuplicate,
    LabelNotDuplicate,
    LabelUnsure,
    ClearLabel,
    ToggleAdvance,
    PrevPair,
    NextPair,
    ToggleBandValues,
    ScrollSide,
    Export,
    ComputeTruth,
    ToggleMissed,
    ToggleClusters,
    /// The clusters view: center clustering ↔ connected components.
    SwitchClustering,
    /// Open or close the cost view (the heatmap over every banding).
    ToggleCost,
    /// Pin another sketch family's measured curve beside the truth's (cycles, then unpins).
    PinFamily,
    /// The cost view: what the heatmap colours.
    CycleMetric,
    /// The cost view's cursor: one band fewer or more.
    CursorLeft,
    CursorRight,
    ToggleDiff,
    PrevDifference,
    NextDifference,
    /// The viewer: type words to find in both texts.
    SearchPrompt,
    /// The viewer: the next (previous) line holding a match of the search.
    NextMatch,
    PrevMatch,
    /// The recent messages in full (open or close the overlay).
    ShowMessages,
}

/// Where a binding applies: the screen and, on the main screen, the focused panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Context {
    Loading,
    Curve,
    Histogram,
    Pairs,
    Viewer,
    /// The clusters view's cluster list.
    Clusters,
    /// An open cluster: its members and edges.
    Cluster,
    /// The cost view: the heatmap over the (b, r) grid.
    Cost,
}

/// One key: a code and whether Ctrl is held. Shift is part of the character (`B` vs `b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

pub const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

pub const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

pub const LEFT: Key = code(KeyCode::Left);
pub const RIGHT: Key = code(KeyCode::Right);
pub const UP: Key = code(KeyCode::Up);
pub const DOWN: Key = code(KeyCode::Down);
pub const ENTER: Key = code(KeyCode::Enter);
pub const ESC: Key = code(KeyCode::Esc);
pub const TAB: Key = code(KeyCode::Tab);
pub const BACK_TAB: Key = code(KeyCode::BackTab);
pub const BACKSPACE: Key = code(KeyCode::Backspace);
pub const PAGE_UP: Key = code(KeyCode::PageUp);
pub const PAGE_DOWN: Key = code(KeyCode::PageDown);
pub const HOME: Key = code(KeyCode::Home);
pub const END: Key = code(KeyCode::End);

impl Key {
    /// How the key is written in help and footer.
    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Left => "←".to_string(),
            KeyCode::Right => "→".to_string(),
            KeyCode::Up => "↑".to_string(),
            KeyCode::Down => "↓".to_string(),
            KeyCode::Enter => "Enter".to_string(),
            KeyCode::Esc => "Esc".to_string(),
            KeyCode::Tab => "Tab".to_string(),
            KeyCode::BackTab => "S-Tab".to_string(),
            KeyCode::PageUp => "PgUp".to_string(),
            KeyCode::PageDown => "PgDn".to_string(),
            KeyCode::Home => "Home".to_string(),
            KeyCode::End => "End".to_string(),
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            other => format!("{other:?}"),
        };
        if self.ctrl { format!("C-{base}") } else { base }
    }

    fn matches(&self, event: &KeyEvent) -> bool {
        let has_ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        if has_ctrl != self.ctrl || event.modifiers.contains(KeyModifiers::ALT) {
            return false;
        }
        match (self.code, event.code) {
            // Terminals differ in whether Shift+Tab arrives as BackTab or Tab+SHIFT.
            (KeyCode::BackTab, KeyCode::Tab) => event.modifiers.contains(KeyModifiers::SHIFT),
            (KeyCode::Tab, KeyCode::Tab) => !event.modifiers.contains(KeyModifiers::SHIFT),
            (a, b) => a == b,
        }
    }
}

/// A row of a key table: the explorer's ([`BINDINGS`], commands in [`Context`]s) or the
/// `learn` walkthrough's (its own commands, one context).
#[derive(Debug, Clone, Copy)]
pub struct Binding<C: 'static = Command, X: 'static = Context> {
    pub keys: &'static [Key],
    pub command: C,
    pub contexts: &'static [X],
    /// What the key does, for the help overlay.
    pub help: &'static str,
    /// Shown in the footer as `keys help_short`; `None` keeps it out of the footer.
    pub footer: Option<&'static str>,
}

/// A table row, written on one line in the table.
pub const fn bind<C, X>(
    keys: &'static [Key],
    command: C,
    contexts: &'static [X],
    help: &'static str,
    footer: Option<&'static str>,
) -> Binding<C, X> {
    Binding {
        keys,
        command,
        contexts,
        help,
        footer,
    }
}

use Context::*;

const EVERYWHERE: &[Context] = &[
    Loading, Curve, Histogram, Pairs, Viewer, Clusters, Cluster, Cost,
];
const MAIN: &[Context] = &[Curve, Histogram, Pairs];
/// Where b, r and t change: everywhere once loaded (the clusters view follows them live).
const LIVE: &[Context] = &[Curve, Histogram, Pairs, Viewer, Clusters, Cluster, Cost];
/// Where a pair is at hand to label: the viewer, the pair lists, an open cluster's edges.
const LABELING: &[Context] = &[Curve, Histogram, Pairs, Viewer, Cluster];
/// Where the exact truth can be joined: the main screen and the cost view, whose recall it
/// makes exact (the status line asks for it there too).
const TRUTH: &[Context] = &[Curve, Histogram, Pairs, Cost];

/// The key table. The first row that matches a key in the current context wins, so rows for
/// a single panel come before rows that apply everywhere.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = {
    use Command::*;
    &[
    // S-curve panel focused: arrows and hjkl turn b and r.
    bind(&[LEFT, ch('h')], BandsDown, &[Curve], "fewer bands b", Some("bands")),
    bind(&[RIGHT, ch('l')], BandsUp, &[Curve], "more bands b", None),
    bind(&[DOWN, ch('j')], RowsDown, &[Curve], "fewer rows r per band", Some("rows")),
    bind(&[UP, ch('k')], RowsUp, &[Curve], "more rows r per band", None),
    // Histogram focused: arrows pick a bin, Enter filters the pair list to it.
    bind(&[LEFT, ch('h')], BinLeft, &[Histogram], "previous bin", Some("bin")),
    bind(&[RIGHT, ch('l')], BinRight, &[Histogram], "next bin", None),
    bind(&[ENTER, ch(' ')], FilterToBin, &[Histogram], "filter the pairs to the bin", Some("filter bin")),
    // Pair list focused.
    bind(&[UP, ch('k')], Up, &[Pairs], "previous pair", Some("move")),
    bind(&[DOWN, ch('j')], Down, &[Pairs], "next pair", None),
    bind(&[LEFT, ch('h')], BandsDown, &[Pairs], "fewer bands b", Some("bands")),
    bind(&[RIGHT, ch('l')], BandsUp, &[Pairs], "more bands b", None),
    bind(&[PAGE_UP], PageUp, &[Pairs], "page up", None),
    bind(&[PAGE_DOWN], PageDown, &[Pairs], "page down", None),
    bind(&[HOME, ch('g')], Top, &[Pairs], "first pair", None),
    bind(&[END, ch('G')], Bottom, &[Pairs], "last pair", None),
    // In the pair list only: the help's page stays whole at 160×45.
    bind(&[ch('v')], CyclePreview, &[Pairs], "text from 1st difference / start / column", None),
    bind(&[ENTER], Open, &[Curve, Pairs], "open the selected pair side by side", Some("open pair")),
    // Pair viewer.
    bind(&[ESC], Back, &[Viewer], "back to the main screen", Some("back")),
    bind(&[UP, ch('k')], Up, &[Viewer], "scroll the texts up", Some("scroll")),
    bind(&[DOWN, ch('j')], Down, &[Viewer], "scroll the texts down", None),
    bind(&[PAGE_UP], PageUp, &[Viewer], "scroll a page up", None),
    bind(&[PAGE_DOWN, ch(' ')], PageDown, &[Viewer], "scroll a page down", None),
    bind(&[HOME, ch('g')], Top, &[Viewer], "to the top of the texts", None),
    bind(&[END, ch('G')], Bottom, &[Viewer], "to the end of the texts", None),
    bind(&[LEFT, ch('h')], PrevPair, &[Viewer], "previous pair in the list", Some("prev/next pair")),
    bind(&[RIGHT, ch('l')], NextPair, &[Viewer], "next pair in the list", None),
    bind(&[TAB], ScrollSide, &[Viewer], "scroll both / left / right text", Some("scroll side")),
    bind(&[ch('v')], ToggleBandValues, &[Viewer], "show/hide each band's r values", Some("band values")),
    bind(&[ch('d')], ToggleDiff, &[Viewer], "diff mode: what differs, aligned word by word (stays on for ←/→)", Some("diff")),
    bind(&[ch('[')], PrevDifference, &[Viewer], "previous difference (diff mode)", None),
    bind(&[ch(']')], NextDifference, &[Viewer], "next difference (diff mode; from the top, past a common header)", None),
    bind(&[ch('/')], SearchPrompt, &[Viewer], "find words in both texts (case-insensitive)", None),
    // Not n/N: n labels the pair "not a duplicate" here. } and { step as ] and [ do.
    bind(&[ch('}')], NextMatch, &[Viewer], "next match of the search", None),
    bind(&[ch('{')], PrevMatch, &[Viewer], "previous match of the search", None),
    bind(&[ch('e')], Export, &[Viewer], "export the pair's diff (<stem>.diff.<a>.<b>.txt and .html)", Some("export diff")),
    // Clusters view: the cluster list.
    bind(&[UP, ch('k')], Up, &[Clusters], "previous cluster", Some("move")),
    bind(&[DOWN, ch('j')], Down, &[Clusters], "next cluster", None),
    bind(&[ENTER], Open, &[Clusters], "open the cluster: members, spanning edges, farthest pair", Some("open cluster")),
    bind(&[ch('s')], CycleSort, &[Clusters], "sort clusters: by size / by weakest link", Some("sort")),
    bind(&[ch('m')], SwitchClustering, &[Clusters, Cluster], "method: center (removes only near-copies of a kept document) / components (chains)", None),
    bind(&[ESC], Back, &[Clusters], "back to the pairs", Some("back")),
    bind(&[ch('C')], ToggleClusters, &[Clusters, Cluster], "back to the pairs", None),
    // The cost view: a cursor over the (b, r) grid.
    bind(&[LEFT, ch('h')], CursorLeft, &[Cost], "cursor: one band fewer", Some("b")),
    bind(&[RIGHT, ch('l')], CursorRight, &[Cost], "cursor: one band more", None),
    bind(&[UP, ch('k')], Up, &[Cost], "cursor: one row per band more", Some("r")),
    bind(&[DOWN, ch('j')], Down, &[Cost], "cursor: one row per band fewer", None),
    bind(&[ENTER], Open, &[Cost], "move the explorer to the cursor's banding", Some("go there")),
    bind(&[ch('m')], CycleMetric, &[Cost], "colour by: candidate pairs / memory / P(t)", Some("metric")),
    bind(&[ESC], Back, &[Cost], "back to the pairs", Some("back")),
    bind(&[ch('H')], ToggleCost, &[Cost], "back to the pairs", None),
    // An open cluster: its edge list.
    bind(&[UP, ch('k')], Up, &[Cluster], "previous edge", Some("move")),
    bind(&[DOWN, ch('j')], Down, &[Cluster], "next edge", None),
    bind(&[ENTER], Open, &[Cluster], "open the edge's pair side by side", Some("open pair")),
    bind(&[ESC], Back, &[Cluster], "back to the cluster list", Some("back")),
    bind(&[PAGE_UP], PageUp, &[Clusters, Cluster], "page up", None),
    bind(&[PAGE_DOWN], PageDown, &[Clusters, Cluster], "page down", None),
    bind(&[HOME, ch('g')], Top, &[Clusters, Cluster], "first row", None),
    bind(&[END, ch('G')], Bottom, &[Clusters, Cluster], "last row", None),
    // Main screen.
    bind(&[TAB], FocusNext, MAIN, "next panel: S-curve, histogram, pairs", Some("panel")),
    bind(&[BACK_TAB], FocusPrev, MAIN, "focus the previous panel", None),
    bind(&[ESC], Back, MAIN, "clear the filter, or close the help", None),
    // Everywhere once the corpus is loaded.
    bind(&[ch('b')], BandsDown, LIVE, "fewer bands b (any panel)", None),
    bind(&[ch('B')], BandsUp, LIVE, "more bands b (any panel)", None),
    bind(&[ch('r')], RowsDown, LIVE, "fewer rows r (any panel)", None),
    bind(&[ch('R')], RowsUp, LIVE, "more rows r (any panel)", None),
    bind(&[ch('p')], Pin, MAIN, "pin the S-curve for comparison", Some("pin")),
    bind(&[ch('c')], ClearPins, MAIN, "clear the pinned curves", None),
    bind(&[ch('P')], PinFamily, MAIN, "pin another sketch family's curve", None),
    bind(&[ch('t')], ThresholdPrompt, LIVE, "type a similarity threshold t", Some("threshold")),
    bind(&[ch('<')], ThresholdDown, LIVE, "threshold t − 0.01", None),
    bind(&[ch('>')], ThresholdUp, LIVE, "threshold t + 0.01", None),
    bind(&[ch('L')], ToggleLog, MAIN, "histogram counts: linear / log scale", Some("log")),
    bind(&[ch('s')], CycleSort, MAIN, "sort: Jaccard ↓, Jaccard ↑, shuffled", Some("sort")),
    bind(&[ch('f')], FilterPrompt, MAIN, "filter by Jaccard range (0.5-0.8)", Some("filter")),
    bind(&[ch('F')], ClearFilter, MAIN, "clear the filter", None),
    bind(&[ch('/')], JumpPrompt, MAIN, "jump to a pair containing an id", None),
    bind(&[ch('y')], LabelDuplicate, LABELING, "label the pair: duplicate", Some("label")),
    bind(&[ch('n')], LabelNotDuplicate, LABELING, "label the pair: not a duplicate", None),
    bind(&[ch('u')], LabelUnsure, LABELING, "label the pair: unsure", None),
    bind(&[ch('x')], ClearLabel, LABELING, "remove the pair's label", None),
    bind(&[ch('a')], ToggleAdvance, LABELING, "auto-advance after a label (on/off)", None),
    bind(&[ch('e')], Export, MAIN, "export pairs (CSV), plots (SVG, PNG)", None),
    bind(&[ch('T')], ComputeTruth, TRUTH, "exact truth ≥ t (join; small corpora)", Some("truth")),
    bind(&[ch('m')], ToggleMissed, MAIN, "list missed true pairs / candidates", Some("missed")),
    // Out of the footer: it is full at 140 columns (help lists it).
    bind(&[ch('C')], ToggleClusters, MAIN, "clusters view (what dedup removes)", None),
    // Out of the footer, as C: the help lists it.
    bind(&[ch('H')], ToggleCost, MAIN, "cost of every banding (heatmap)", None),
    bind(&[ch('M')], ShowMessages, EVERYWHERE, "the recent messages in full", None),
    bind(&[ch('?')], Help, EVERYWHERE, "this help", Some("help")),
    bind(&[ch('q'), ctrl('c')], Quit, EVERYWHERE, "quit", Some("quit")),
]
};

/// The command bound to `event` in `context`, if any.
pub fn lookup(event: &KeyEvent, context: Context) -> Option<Command> {
    lookup_in(BINDINGS, event, context)
}

/// The command of the first row of `table` that binds `event` in `context`.
pub fn lookup_in<C: Copy, X: PartialEq>(
    table: &[Binding<C, X>],
    event: &KeyEvent,
    context: X,
) -> Option<C> {
    table
        .iter()
        .filter(|b| b.contexts.contains(&context))
        .find(|b| b.keys.iter().any(|k| k.matches(event)))
        .map(|b| b.command)
}

/// The key bound to `command`, as help writes it (the first key of the first row binding
/// it), for hints in messages: a rebinding changes every hint with it.
pub fn hint(command: Command) -> String {
    BINDINGS
        .iter()
        .find(|b| b.command == command)
        .and_then(|b| b.keys.first())
        .map(Key::label)
        .unwrap_or_else(|| format!("{command:?}"))
}

/// `←/h`-style label of a binding's keys.
pub fn keys_label<C, X>(binding: &Binding<C, X>) -> String {
    binding
        .keys
        .iter()
        .map(Key::label)
        .collect::<Vec<_>>()
        .join("/")
}

/// Footer entries for `context`: bindings with a footer text, with keys of the same footer
/// group (a footer text followed by `None` rows of the same panel) merged, e.g. `←→ bands`.
pub fn footer(context: Context) -> Vec<(String, &'static str)> {
    footer_groups(BINDINGS, context, is_partner)
        .into_iter()
        .map(|(keys, text)| {
            // Arrows read well side by side (←→); letters need a separator (y/n/u).
            let alnum = keys.iter().any(|k| k.chars().all(char::is_alphanumeric));
            (keys.join(if alnum { "/" } else { "" }), text)
        })
        .collect()
}

/// The footer groups of `table` in `context`: each row with a footer text, with the first
/// keys of the rows that follow it in the same contexts as its `partner` (→ after ←, n and
/// u after y).
pub fn footer_groups<C: Copy, X: PartialEq>(
    table: &[Binding<C, X>],
    context: X,
    partner: fn(C, C) -> bool,
) -> Vec<(Vec<String>, &'static str)> {
    let rows: Vec<&Binding<C, X>> = table
        .iter()
        .filter(|b| b.contexts.contains(&context))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let b = rows[i];
        i += 1;
        let Some(text) = b.footer else { continue };
        let mut keys = vec![b.keys[0].label()];
        let mut last = b.command;
        while i < rows.len()
            && rows[i].footer.is_none()
            && rows[i].contexts == b.contexts
            && partner(last, rows[i].command)
        {
            keys.push(rows[i].keys[0].label());
            last = rows[i].command;
            i += 1;
        }
        out.push((keys, text));
    }
    out
}

fn is_partner(a: Command, b: Command) -> bool {
    use Command::*;
    matches!(
        (a, b),
        (BandsDown, BandsUp)
            | (RowsDown, RowsUp)
            | (BinLeft, BinRight)
            | (CursorLeft, CursorRight)
            | (Up, Down)
            | (PrevPair, NextPair)
            | (PrevDifference, NextDifference)
            | (NextMatch, PrevMatch)
            | (LabelDuplicate, LabelNotDuplicate)
            | (LabelNotDuplicate, LabelUnsure)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn context_decides_what_arrows_do() {
        let left = press(KeyCode::Left, KeyModifiers::NONE);
        assert_eq!(lookup(&left, Context::Curve), Some(Command::BandsDown));
        assert_eq!(lookup(&left, Context::Histogram), Some(Command::BinLeft));
        assert_eq!(lookup(&left, Context::Viewer), Some(Command::PrevPair));
        assert_eq!(lookup(&left, Context::Loading), None);
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(lookup(&q, Context::Loading), Some(Command::Quit));
        let cc = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(lookup(&cc, Context::Pairs), Some(Command::Quit));
        let c = press(KeyCode::Char('c'), KeyModifiers::NONE);
        assert_eq!(lookup(&c, Context::Pairs), Some(Command::ClearPins));
        let big_b = press(KeyCode::Char('B'), KeyModifiers::SHIFT);
        assert_eq!(lookup(&big_b, Context::Viewer), Some(Command::BandsUp));
        let shift_tab = press(KeyCode::Tab, KeyModifiers::SHIFT);
        assert_eq!(lookup(&shift_tab, Context::Pairs), Some(Command::FocusPrev));
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for ctx in EVERYWHERE {
            let mut seen: Vec<Key> = Vec::new();
            for b in BINDINGS.iter().filter(|b| b.contexts.contains(ctx)) {
                for k in b.keys {
                    assert!(!seen.contains(k), "{k:?} bound twice in {ctx:?}");
                    seen.push(*k);
                }
            }
        }
    }

    #[test]
    fn footer_merges_partners() {
        let f = footer(Context::Curve);
        assert_eq!(f[0], ("←→".to_string(), "bands"));
        assert_eq!(f[1], ("↓↑".to_string(), "rows"));
        assert!(f.iter().any(|(k, t)| k == "q" && *t == "quit"));
        assert!(f.iter().any(|(k, t)| k == "y/n/u" && *t == "label"));
    }

    #[test]
    fn hints_name_the_bound_key() {
        assert_eq!(hint(Command::ClearFilter), "F");
        assert_eq!(hint(Command::ComputeTruth), "T");
        assert_eq!(hint(Command::ToggleMissed), "m");
        assert_eq!(hint(Command::ClearPins), "c");
        assert_eq!(hint(Command::JumpPrompt), "/");
        assert_eq!(hint(Command::Quit), "q");
        assert_eq!(hint(Command::ToggleClusters), "C");
    }

    #[test]
    fn the_cost_view_has_its_keys() {
        let key = |c: char| press(KeyCode::Char(c), KeyModifiers::NONE);
        let code = |c: KeyCode| press(c, KeyModifiers::NONE);
        assert_eq!(lookup(&key('H'), Context::Pairs), Some(Command::ToggleCost));
        assert_eq!(lookup(&key('H'), Context::Cost), Some(Command::ToggleCost));
        assert_eq!(lookup(&key('H'), Context::Viewer), None);
        assert_eq!(
            lookup(&code(KeyCode::Esc), Context::Cost),
            Some(Command::Back)
        );
        assert_eq!(
            lookup(&code(KeyCode::Left), Context::Cost),
            Some(Command::CursorLeft)
        );
        assert_eq!(lookup(&key('l'), Context::Cost), Some(Command::CursorRight));
        assert_eq!(
            lookup(&key('T'), Context::Cost),
            Some(Command::ComputeTruth)
        );
        assert_eq!(lookup(&code(KeyCode::Up), Context::Cost), Some(Command::Up));
        assert_eq!(
            lookup(&code(KeyCode::Enter), Context::Cost),
            Some(Command::Open)
        );
        assert_eq!(lookup(&key('m'), Context::Cost), Some(Command::CycleMetric));
        // b, r and t still turn the banding from the view.
        assert_eq!(lookup(&key('B'), Context::Cost), Some(Command::BandsUp));
        assert_eq!(lookup(&key('>'), Context::Cost), Some(Command::ThresholdUp));
        assert_eq!(hint(Command::ToggleCost), "H");
    }

    #[test]
    fn the_clusters_view_has_its_keys() {
        let key = |c: char| press(KeyCode::Char(c), KeyModifiers::NONE);
        let enter = press(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(
            lookup(&key('C'), Context::Pairs),
            Some(Command::ToggleClusters)
        );
        assert_eq!(
            lookup(&key('C'), Context::Clusters),
            Some(Command::ToggleClusters)
        );
        assert_eq!(
            lookup(&key('s'), Context::Clusters),
            Some(Command::CycleSort)
        );
        assert_eq!(lookup(&enter, Context::Clusters), Some(Command::Open));
        assert_eq!(lookup(&enter, Context::Cluster), Some(Command::Open));
        assert_eq!(
            lookup(&key('b'), Context::Cluster),
            Some(Command::BandsDown)
        );
        assert_eq!(
            lookup(&key('>'), Context::Clusters),
            Some(Command::ThresholdUp)
        );
        assert_eq!(
            lookup(&key('y'), Context::Cluster),
            Some(Command::LabelDuplicate)
        );
        assert_eq!(lookup(&key('y'), Context::Clusters), None);
        assert_eq!(
            lookup(&key('m'), Context::Clusters),
            Some(Command::SwitchClustering)
        );
        assert_eq!(
            lookup(&key('m'), Context::Cluster),
            Some(Command::SwitchClustering)
        );
    }
}

/// What a key does while the help is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HelpCommand {
    LineUp,
    LineDown,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Close,
}

/// The help has one screen: every row of [`HELP_KEYS`] applies on it.
const ALWAYS: &[()] = &[()];

/// The help's key table. A key that is not in it closes the help without doing anything else
/// (the explorer's "any key closes the help"), except Ctrl-C, which quits everywhere.
#[rustfmt::skip]
pub const HELP_KEYS: &[Binding<HelpCommand, ()>] = {
    use HelpCommand::*;
    &[
        bind(&[UP, ch('k')], LineUp, ALWAYS, "scroll up", Some("scroll")),
        bind(&[DOWN, ch('j')], LineDown, ALWAYS, "scroll down", None),
        bind(&[PAGE_UP], PageUp, ALWAYS, "a page up", None),
        bind(&[PAGE_DOWN, ch(' ')], PageDown, ALWAYS, "a page down", None),
        bind(&[HOME, ch('g')], Top, ALWAYS, "to the top", None),
        bind(&[END, ch('G')], Bottom, ALWAYS, "to the end", None),
        bind(&[ESC, ch('q'), ch('?')], Close, ALWAYS, "close the help", Some("close")),
    ]
};
