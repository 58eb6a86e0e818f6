//! The `lshscope learn` walkthrough: nine steps from documents to the S-curve and the
//! verification of the candidates, on a handful of documents, every number computed live by [`lshscope_core::learn`]. State changes only in
//! [`LearnApp::key`]; [`render`] is a pure function of the state, so tests drive both through
//! `TestBackend`.

use std::path::PathBuf;

mod diff;
mod draw;
mod figures;
mod one_permutation;
mod scurve;

use ratatui::crossterm::event::{self, Event, KeyEvent, KeyEventKind};

use crate::plot::{CurveSpec, ScurvePlot, write_scurve};
use crate::tui::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, LEFT, PAGE_DOWN, PAGE_UP, RIGHT, UP, bind, ch,
    footer_groups, lookup_in,
};
use crate::tui::theme::Theme;
use lshscope_core::learn::{LearnDoc, Walkthrough, jaccard, learn_options};
use lshscope_core::text::ShingleKind;

pub use diff::PairDiff;
pub use draw::{TITLES, render};

pub const STEPS: usize = 9;
/// The threshold t the walkthrough starts with: the built-in questions' near-duplicates (0.75)
/// are above it, their looser relatives (0.4) below.
pub const DEFAULT_THRESHOLD: f64 = 0.5;
/// How far `<` and `>` move t: coarse enough that a class sees the lists change.
pub const THRESHOLD_STEP: f64 = 0.05;
/// The most permutations the walkthrough computes: enough for the estimate to settle, few
/// enough that the signature matrix fits a screen.
pub const MAX_PERMUTATIONS: usize = 24;

/// What a key asks of the walkthrough.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LearnCommand {
    PrevStep,
    NextStep,
    SmallerShingles,
    LargerShingles,
    ToggleUnit,
    FewerPermutations,
    MorePermutations,
    FewerBands,
    MoreBands,
    FewerRows,
    MoreRows,
    NextPair,
    PrevPair,
    ThresholdDown,
    ThresholdUp,
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    ToggleDiff,
    PrevDifference,
    NextDifference,
    Export,
    Help,
    Quit,
}

/// The walkthrough has one screen: every row of [`LEARN_KEYS`] applies on it.
const ALWAYS: &[()] = &[()];

/// The walkthrough's key table, on the explorer's mechanism ([`crate::tui::keys`]): the
/// handler, the `?` help and the footer all read it.
#[rustfmt::skip]
pub const LEARN_KEYS: &[Binding<LearnCommand, ()>] = {
    use LearnCommand::*;
    &[
        bind(&[LEFT, BACKSPACE, ch('h')], PrevStep, ALWAYS, "previous step", Some("step")),
        bind(&[RIGHT, ch(' '), ENTER, ch('l')], NextStep, ALWAYS, "next step", None),
        bind(&[ch('k')], SmallerShingles, ALWAYS, "smaller shingles", Some("size")),
        bind(&[ch('K')], LargerShingles, ALWAYS, "larger shingles", None),
        bind(&[ch('w')], ToggleUnit, ALWAYS, "char or word shingles", Some("char/word")),
        bind(&[ch('p')], FewerPermutations, ALWAYS, "fewer permutations K", Some("K")),
        bind(&[ch('P')], MorePermutations, ALWAYS, "more permutations K", None),
        bind(&[ch('b')], FewerBands, ALWAYS, "fewer bands b", Some("bands")),
        bind(&[ch('B')], MoreBands, ALWAYS, "more bands b", None),
        bind(&[ch('r')], FewerRows, ALWAYS, "fewer rows r per band", Some("rows")),
        bind(&[ch('R')], MoreRows, ALWAYS, "more rows r per band", None),
        bind(&[ch('n')], NextPair, ALWAYS, "next pair", Some("pair")),
        bind(&[ch('N')], PrevPair, ALWAYS, "previous pair", None),
        bind(&[ch('<')], ThresholdDown, ALWAYS, "threshold t − 0.05", Some("t")),
        bind(&[ch('>')], ThresholdUp, ALWAYS, "threshold t + 0.05", None),
        bind(&[UP], ScrollUp, ALWAYS, "scroll up", Some("scroll")),
        bind(&[DOWN, ch('j')], ScrollDown, ALWAYS, "scroll down", None),
        bind(&[PAGE_UP], PageUp, ALWAYS, "scroll a page up", None),
        bind(&[PAGE_DOWN], PageDown, ALWAYS, "scroll a page down", None),
        bind(&[ch('d')], ToggleDiff, ALWAYS, "the pair's diff, side by side", Some("diff")),
        bind(&[ch('[')], PrevDifference, ALWAYS, "previous difference (diff)", None),
        bind(&[ch(']')], NextDifference, ALWAYS, "next difference (diff)", None),
        bind(&[ch('e')], Export, ALWAYS, "export the step's figure", Some("export")),
        bind(&[ch('?')], Help, ALWAYS, "this help (any key closes it)", Some("help")),
        bind(&[ch('q'), ESC], Quit, ALWAYS, "quit", Some("quit")),
    ]
};

/// The footer: `k/K size`-style groups of [`LEARN_KEYS`].
fn footer_entries() -> Vec<(String, &'static str)> {
    fn partner(a: LearnCommand, b: LearnCommand) -> bool {
        use LearnCommand::*;
        matches!(
            (a, b),
            (PrevStep, NextStep)
                | (SmallerShingles, LargerShingles)
                | (FewerPermutations, MorePermutations)
                | (FewerBands, MoreBands)
                | (FewerRows, MoreRows)
                | (NextPair, PrevPair)
                | (ThresholdDown, ThresholdUp)
                | (ScrollUp, ScrollDown)
                | (PrevDifference, NextDifference)
        )
    }
    footer_groups(LEARN_KEYS, (), partner)
        .into_iter()
        .map(|(keys, text)| {
            // As the explorer writes them: arrows side by side (←→), letters apart (k/K).
            let alnum = keys.iter().any(|k| k.chars().all(char::is_alphanumeric));
            (keys.join(if alnum { "/" } else { "" }), text)
        })
        .collect()
}

/// The walkthrough's state: the step, the settings a teacher can change, the selected pair.
pub struct LearnApp {
    pub docs: Vec<LearnDoc>,
    /// 0-based step.
    pub step: usize,
    pub kind: ShingleKind,
    pub num_perm: usize,
    pub bands: usize,
    pub rows: usize,
    /// The similarity threshold t: pairs at or above it are the ones wanted, as the
    /// explorer's t and `scan --threshold`.
    pub threshold: f64,
    /// The selected pair (a < b), 0-based document positions.
    pub pair: (usize, usize),
    pub scroll: usize,
    pub seed: u64,
    pub walk: Walkthrough,
    pub theme: Theme,
    /// Where `e` writes its files.
    pub export_dir: PathBuf,
    /// The last export's result, shown in the footer until the next key.
    pub message: Option<String>,
    /// The key help is open over the step.
    pub help: bool,
    /// The selected pair's diff, while it shows instead of the step's figure (`d`). It
    /// stays on while `n`/`N` choose other pairs; a new step closes it.
    pub diff: Option<PairDiff>,
    /// The terminal's width as last drawn, for the diff's layout.
    pub screen_width: u16,
    pub quit: bool,
}

impl LearnApp {
    /// Starts at step 1 with the textbook setting: word:1 shingles, K = 6, 2 bands of 3 rows.
    pub fn new(texts: &[(String, String)], mono: bool) -> Self {
        let kind = ShingleKind::Word(1);
        let docs = lshscope_core::learn::documents(texts, &learn_options(kind));
        let (num_perm, seed) = (6, 1);
        let walk = Walkthrough::new(docs.clone(), kind, num_perm, seed);
        LearnApp {
            pair: (0, 1.min(docs.len().saturating_sub(1))),
            docs,
            step: 0,
            kind,
            num_perm,
            bands: 2,
            rows: 3,
            threshold: DEFAULT_THRESHOLD,
            scroll: 0,
            seed,
            walk,
            theme: Theme::new(mono),
            export_dir: PathBuf::from("."),
            message: None,
            help: false,
            diff: None,
            screen_width: 80,
            quit: false,
        }
    }

    fn recompute(&mut self) {
        let docs = lshscope_core::learn::documents(
            &self
                .docs
                .iter()
                .map(|d| (d.id.clone(), d.text.clone()))
                .collect::<Vec<_>>(),
            &learn_options(self.kind),
        );
        self.walk = Walkthrough::new(docs, self.kind, self.num_perm, self.seed);
    }

    /// The selected pair's exact Jaccard.
    pub fn pair_jaccard(&self) -> f64 {
        let (a, b) = self.pair;
        jaccard(&self.walk.shingles[a], &self.walk.shingles[b]).2
    }

    /// Applies one key (see [`LEARN_KEYS`]).
    pub fn key(&mut self, key: KeyEvent) {
        self.message = None;
        let n = self.docs.len();
        let command = lookup_in(LEARN_KEYS, &key, ());
        use LearnCommand::*;
        if self.help {
            // Any key closes the help; `?` and Esc (which quits otherwise) only close it.
            self.help = false;
            if command == Some(Help) || key.code == ratatui::crossterm::event::KeyCode::Esc {
                return;
            }
        }
        let Some(command) = command else {
            return;
        };
        match command {
            Quit => self.quit = true,
            Help => self.help = true,
            NextStep => {
                self.step = (self.step + 1).min(STEPS - 1);
                self.scroll = 0;
                self.diff = None;
            }
            PrevStep => {
                self.step = self.step.saturating_sub(1);
                self.scroll = 0;
                self.diff = None;
            }
            ToggleDiff => {
                self.scroll = 0;
                self.diff = match self.diff {
                    Some(_) => None,
                    None => Some(PairDiff::new(self, self.screen_width)),
                };
            }
            NextDifference | PrevDifference => self.step_difference(command == NextDifference),
            ScrollDown => self.scroll += 1,
            ScrollUp => self.scroll = self.scroll.saturating_sub(1),
            PageDown => self.scroll += 10,
            PageUp => self.scroll = self.scroll.saturating_sub(10),
            SmallerShingles | LargerShingles => {
                let up = command == LargerShingles;
                self.kind = match self.kind {
                    ShingleKind::Char(k) => ShingleKind::Char(step_size(k, up, 9)),
                    ShingleKind::Word(w) => ShingleKind::Word(step_size(w, up, 5)),
                };
                self.scroll = 0;
                self.recompute();
            }
            ToggleUnit => {
                self.kind = match self.kind {
                    ShingleKind::Char(_) => ShingleKind::Word(1),
                    ShingleKind::Word(_) => ShingleKind::Char(3),
                };
                self.scroll = 0;
                self.recompute();
            }
            FewerPermutations | MorePermutations => {
                // K never drops below b·r: fewer permutations than the bands use is no banding.
                let min = self.bands * self.rows;
                let up = command == MorePermutations;
                let before = self.num_perm;
                self.num_perm = step_size(self.num_perm, up, MAX_PERMUTATIONS).max(min);
                self.recompute();
                if self.num_perm != before {
                    self.message = Some(self.new_family_note(before));
                }
            }
            ThresholdDown | ThresholdUp => {
                // Counted in steps and divided once, so repeated presses land on 0.55 exactly
                // as written (the exported plot prints t), not on 0.5499999.
                let per_unit = (1.0 / THRESHOLD_STEP).round();
                let delta = if command == ThresholdUp { 1.0 } else { -1.0 };
                let steps = ((self.threshold * per_unit).round() + delta).clamp(1.0, per_unit);
                self.threshold = steps / per_unit;
            }
            FewerBands | MoreBands => {
                let max = (self.num_perm / self.rows).max(1);
                self.bands = step_size(self.bands, command == MoreBands, max);
            }
            FewerRows | MoreRows => {
                let max = (self.num_perm / self.bands).max(1);
                self.rows = step_size(self.rows, command == MoreRows, max);
            }
            NextPair | PrevPair if n >= 2 => {
                self.pair = if command == NextPair {
                    next_pair(self.pair, n)
                } else {
                    previous_pair(self.pair, n)
                };
                if self.diff.is_some() {
                    self.scroll = 0;
                    self.diff = Some(PairDiff::new(self, self.screen_width));
                }
            }
            NextPair | PrevPair => {}
            Export => {
                self.message = Some(match self.export() {
                    Ok(path) if path.extension().is_some_and(|e| e == "svg") => {
                        format!("wrote {} (and .png)", path.display())
                    }
                    Ok(path) => format!("wrote {}", path.display()),
                    Err(e) => format!("export failed: {e}"),
                });
            }
        }
    }

    /// `]` / `[`: the next (previous) difference of the pair's diff, scrolled to its row
    /// (the diff opens if it is not showing).
    fn step_difference(&mut self, forward: bool) {
        if self.diff.is_none() {
            self.scroll = 0;
            self.diff = Some(PairDiff::new(self, self.screen_width));
        }
        let Some(pair) = &mut self.diff else { return };
        let diff = &pair.diff;
        let total = diff.differences.len();
        let at = pair.difference.map(|k| diff.differences[k].start);
        let target = match (forward, at) {
            (true, at) => diff.next_difference(at),
            (false, Some(row)) => diff.previous_difference(row),
            (false, None) => None,
        };
        match target {
            Some(k) => {
                pair.difference = Some(k);
                // One row of context above; drawing keeps it within the rows there are.
                self.scroll = pair.layout.difference_rows[k].saturating_sub(1);
                self.message = Some(format!("difference {} of {total}", k + 1));
            }
            None if total == 0 => self.message = Some("the texts do not differ".into()),
            None => self.message = Some(format!("no further difference ({total} in all)")),
        }
    }

    /// The terminal is `width` columns wide: the diff's layout follows.
    pub fn set_screen_width(&mut self, width: u16) {
        if width == self.screen_width {
            return;
        }
        self.screen_width = width;
        if let Some(pair) = &self.diff {
            let difference = pair.difference;
            let mut relaid = PairDiff::new(self, width);
            relaid.difference = difference;
            self.diff = Some(relaid);
        }
    }

    /// What a new K does, said when K changes: the permutations are drawn one after another
    /// from the seed, so the first ones stay; the hash family draws all K multipliers before
    /// the K offsets ([`lshscope_core::minhash::HashFamily::new`]), so a new K is a new family and
    /// every hash row, every collision and so every false positive can change. One-permutation
    /// hashing keeps each shingle's hash and cuts the range anew.
    fn new_family_note(&self, before: usize) -> String {
        let k = self.num_perm;
        if self.step == 3 {
            let kept = before.min(k);
            format!(
                "K {before} → {k}: permutations 1–{kept} stay (drawn one by one from seed {}); \
                 the hash functions of the later steps are all redrawn",
                self.seed
            )
        } else if self.step == 5 {
            // The one-permutation key is drawn from the seed alone (lshscope_core::minhash::oph), so
            // the shingles' hashes stay and only the cut into bins (and the probes) changes.
            format!(
                "K {before} → {k}: each shingle keeps its one hash; the range is cut into {k} \
                 bins instead of {before}, so bins, empty bins and probes change (the K hash \
                 functions of step 5 are all redrawn)"
            )
        } else {
            format!(
                "K {before} → {k}: a new K draws a new family of {k} hash functions from seed {}, \
                 so every hash row changes, and with it which pairs collide (and which are \
                 false positives)",
                self.seed
            )
        }
    }

    /// Writes the current step's figure: the S-curve as SVG and PNG on the S-curve step, the
    /// step's table as CSV on the others. Returns the path written.
    pub fn export(&self) -> lshscope_core::Result<PathBuf> {
        let w = &self.walk;
        let (name, csv) = match self.step {
            0 | 1 => ("shingles", w.shingles_csv()),
            2 => ("characteristic-matrix", w.characteristic_csv()),
            3 => ("signatures-permutations", w.signature_csv(false)),
            4 => ("signatures-hashes", w.signature_csv(true)),
            5 => ("one-permutation", w.one_permutation_csv()),
            6 => ("buckets", w.buckets_csv(self.bands, self.rows)),
            8 => (
                "verification",
                w.verification_csv(self.bands, self.rows, self.threshold),
            ),
            _ => {
                // SVG for slides and the web, PNG for documents that take only bitmaps.
                let plot = ScurvePlot {
                    curves: vec![CurveSpec {
                        bands: self.bands,
                        rows: self.rows,
                    }],
                    threshold: Some(self.threshold),
                    num_perm: Some(self.num_perm),
                    width: 800,
                    height: 500,
                };
                let path = self
                    .export_dir
                    .join(format!("learn-step{}-scurve.svg", self.step + 1));
                write_scurve(&path.with_extension("png"), &plot)?;
                write_scurve(&path, &plot)?;
                return Ok(path);
            }
        };
        let path = self
            .export_dir
            .join(format!("learn-step{}-{name}.csv", self.step + 1));
        lshscope_core::io::atomic::write_atomically(&path, |out| out.write_all(csv.as_bytes()))?;
        Ok(path)
    }
}

fn step_size(v: usize, up: bool, max: usize) -> usize {
    if up {
        (v + 1).min(max)
    } else {
        v.saturating_sub(1).max(1)
    }
}

/// (0,1) → (0,2) → … → (0,n−1) → (1,2) → … → (n−2,n−1) → (0,1).
fn next_pair((a, b): (usize, usize), n: usize) -> (usize, usize) {
    if b + 1 < n {
        (a, b + 1)
    } else if a + 2 < n {
        (a + 1, a + 2)
    } else {
        (0, 1)
    }
}

fn previous_pair((a, b): (usize, usize), n: usize) -> (usize, usize) {
    if b > a + 1 {
        (a, b - 1)
    } else if a > 0 {
        (a - 1, n - 1)
    } else {
        (n - 2, n - 1)
    }
}

/// Runs the walkthrough on the terminal until `q`. The terminal is entered and restored (also
/// on a panic) as the explorer does it, by [`crate::tui::terminal`].
pub fn run(app: &mut LearnApp) -> std::io::Result<()> {
    let mouse = crate::tui::terminal::Mouse::Off;
    let mut terminal = crate::tui::terminal::setup(mouse)?;
    let result = (|| {
        while !app.quit {
            app.set_screen_width(terminal.size()?.width);
            terminal.draw(|f| render(f, app))?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                app.key(key);
            }
        }
        Ok(())
    })();
    crate::tui::terminal::restore(mouse);
    result
}
