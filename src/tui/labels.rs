//! The user's labels in the explorer: the store (ids), the same labels by pair of identical
//! groups of the loaded corpus (a label covers every pair of copies of its two texts), and
//! which change is known to be on disk. Writing is an effect: a change
//! gives a numbered snapshot for the label writer, whose answer says which change is saved.

use std::sync::Arc;

use lshscope_core::analysis::labels::{
    GroupLabels, Judgement, Label, LabelStore, MAX_COPY_ROWS, copy_pairs,
};
use lshscope_core::corpus::{Corpus, RepeatedIds};
use lshscope_core::io::excerpt::id_for_message;
use lshscope_core::minhash::IdenticalGroups;
use lshscope_core::pipeline::Loaded;
use lshscope_core::util::numfmt::{for_count, thousands};

/// The warning shown at load when ids repeat, or `None` when every id is unique. Labels are
/// stored by id (and matched to a corpus at an id's first occurrence), so a label on a
/// document whose id another has could not say which of the documents it meant.
pub fn repeated_ids_warning(repeated: &RepeatedIds) -> Option<String> {
    (repeated.repeats() > 0).then(|| {
        format!(
            "{}: pairs with a repeated id cannot be labelled, as labels are saved by id · \
             reopen with --row-ids to name documents by row number",
            repeated.phrase()
        )
    })
}

/// Why the pair of input positions `(a, b)` of `corpus` cannot be labelled, if it cannot.
pub fn label_refusal(repeated: &RepeatedIds, corpus: &Corpus, a: u32, b: u32) -> Option<String> {
    // Ids as messages show them: an empty one reads `""`.
    let id = |p: u32| id_for_message(corpus.id(p as usize));
    let why = if corpus.id(a as usize) == corpus.id(b as usize) {
        format!("both have the id {}", id(a))
    } else {
        let shared: Vec<_> = [a, b]
            .into_iter()
            .filter(|&p| repeated.is_shared(p))
            .map(id)
            .collect();
        match shared.as_slice() {
            [] => return None,
            [one] => format!("another document also has the id {one}"),
            _ => "other documents also have these ids".to_string(),
        }
    };
    // The reason first: a narrow message line keeps the part before ` · `.
    Some(format!(
        "cannot label {} ⟷ {}: {why} · labels are saved by id; reopen with --row-ids to name \
         documents by row number",
        id(a),
        id(b)
    ))
}

/// The labels as they were after change number `generation`, for the label writer.
#[derive(Debug, Clone)]
pub struct LabelSave {
    pub generation: u64,
    pub labels: LabelStore,
}

impl LabelSave {
    /// The label writer's job: writes this snapshot and says whether it is on disk.
    pub fn write(&self) -> LabelsSaved {
        LabelsSaved {
            generation: self.generation,
            count: self.labels.len(),
            result: self.labels.save().map_err(|e| e.to_string()),
        }
    }
}

/// The label writer's answer: snapshot `generation` (`count` labels) is on disk, or why not.
#[derive(Debug, Clone)]
pub struct LabelsSaved {
    pub generation: u64,
    pub count: usize,
    pub result: std::result::Result<(), String>,
}

/// Labels, by id and by identical group of the loaded corpus, with the bookkeeping of what is
/// on disk.
#[derive(Debug)]
pub struct LabelState {
    store: LabelStore,
    /// The loaded corpus's identical groups (by shingle set), found when the first label needs
    /// them: at load when the file has labels, else at the first label.
    groups: Option<Arc<IdenticalGroups>>,
    /// The labels of the loaded corpus's pairs, one per pair of identical groups.
    by_group: GroupLabels,
    /// Label changes made so far; each queues a snapshot carrying its number.
    generation: u64,
    /// The newest change known to be on disk.
    on_disk: u64,
    /// What the newest change did, shown again once it is on disk.
    last_change: String,
    /// After a label, move to the next pair.
    advance: bool,
    /// The loaded corpus's documents whose id is not theirs alone: never labelled.
    repeated: RepeatedIds,
}

/// The pair a label is given to: positions, ids and exact Jaccard.
pub struct LabelTarget<'a> {
    pub pair: (u32, u32),
    pub corpus: &'a Corpus,
    pub jaccard: f64,
    /// The loaded corpus's identical groups.
    pub groups: Arc<IdenticalGroups>,
    /// When the label is given, RFC 3339 UTC.
    pub labelled_at: String,
}

impl LabelState {
    pub fn new(store: LabelStore, advance: bool) -> Self {
        LabelState {
            advance,
            store,
            groups: None,
            by_group: GroupLabels::default(),
            generation: 0,
            on_disk: 0,
            last_change: String::new(),
            repeated: RepeatedIds::default(),
        }
    }

    /// Whether a label moves on to the next pair.
    pub fn advance(&self) -> bool {
        self.advance
    }

    /// Turns advancing after a label on or off; returns the new setting.
    pub fn toggle_advance(&mut self) -> bool {
        self.advance = !self.advance;
        self.advance
    }

    pub fn store(&self) -> &LabelStore {
        &self.store
    }

    /// The identical groups the labels are keyed by, once found.
    pub fn groups(&self) -> Option<&Arc<IdenticalGroups>> {
        self.groups.as_ref()
    }

    /// The label of the pair of input positions `(a, b)`, given to it or to a pair of
    /// identical copies of the same two texts.
    pub fn of(&self, a: u32, b: u32) -> Option<Label> {
        self.by_group.get(self.groups.as_deref()?, a, b)
    }

    /// Each labelled pair of texts once: the pairs of copies it covers (up to `limit`, the
    /// representatives' pair first) and its label.
    pub fn labelled_texts(&self, limit: usize) -> Vec<(Vec<(u32, u32)>, Label)> {
        let Some(groups) = self.groups.as_deref() else {
            return Vec::new();
        };
        self.by_group
            .iter()
            .map(|(&(a, b), &label)| (copy_pairs(groups, a, b, limit), label))
            .collect()
    }

    /// The loaded corpus's shared ids (found by [`LabelState::attach`]).
    pub fn repeated_ids(&self) -> &RepeatedIds {
        &self.repeated
    }

    /// True while a label change is not yet known to be on disk.
    pub fn unsaved(&self) -> bool {
        self.on_disk < self.generation
    }

    /// Resolves the labelled id pairs to the pairs of identical groups of `loaded`'s corpus
    /// (an id at its first occurrence); returns how many rows match it. `groups` are the
    /// corpus's.
    pub fn attach(&mut self, loaded: &Loaded, groups: Option<Arc<IdenticalGroups>>) -> usize {
        let corpus = &loaded.corpus;
        // The read already looked for repeated ids (off this thread: 0.1 s at a million
        // documents); which ones repeat is found again only when some do.
        self.repeated = if loaded.read.duplicate_ids == 0 {
            RepeatedIds::default()
        } else {
            RepeatedIds::find(corpus)
        };
        self.groups = groups;
        self.by_group = match &self.groups {
            Some(groups) => self.store.by_group(corpus, groups),
            None => GroupLabels::default(),
        };
        self.by_group.matched()
    }

    /// Labels the pair `target` and every pair of identical copies of its two texts (`None`
    /// removes their label). Returns the snapshot to write and what changed, in words.
    pub fn set(&mut self, target: LabelTarget, label: Option<Label>) -> (LabelSave, String) {
        let (a, b) = target.pair;
        let corpus = target.corpus;
        let groups = target.groups;
        let pairs = copy_pairs(&groups, a, b, MAX_COPY_ROWS + 1);
        let id = |p: u32| corpus.id(p as usize);
        let (id_a, id_b) = (id(a), id(b));
        // A copy whose id is shared is left out of the file (its id could name another
        // document); the label still covers it here, by group, and when the file is read
        // again, through the labelled pair's own ids.
        let copies: Vec<(&str, &str)> = pairs[1..]
            .iter()
            .filter(|&&(x, y)| !self.repeated.is_shared(x) && !self.repeated.is_shared(y))
            .map(|&(x, y)| (id(x), id(y)))
            .collect();
        let judgement = label.map(|label| Judgement {
            label,
            jaccard: target.jaccard,
            labelled_at: target.labelled_at,
        });
        self.store.judge((id_a, id_b), &copies, judgement.as_ref());
        self.by_group.set(&groups, a, b, label);
        self.groups = Some(groups);
        let what = match label {
            Some(l) => l.as_str(),
            None => "label removed",
        };
        let also = match copies.len() {
            0 => String::new(),
            n if n >= MAX_COPY_ROWS => format!(" (and {}+ copy pairs)", thousands(n as u64)),
            n => format!(
                " (and {} copy {})",
                thousands(n as u64),
                for_count(n as u64, "pair", "pairs")
            ),
        };
        // ⟷ as the viewer writes a pair: ` · ` sets a message's parts apart (ui::fit).
        let text = format!("{id_a} ⟷ {id_b}: {what}{also}");
        self.generation += 1;
        self.last_change = text.clone();
        let save = LabelSave {
            generation: self.generation,
            labels: self.store.clone(),
        };
        (save, text)
    }

    /// Takes the label writer's answer: `Ok(text)` to show when the newest change is on disk,
    /// `Err(text)` for a failure that still matters, `None` when there is nothing to say.
    pub fn saved(&mut self, saved: LabelsSaved) -> Option<Result<String, String>> {
        let path = self.store.path().display().to_string();
        match saved.result {
            Ok(()) => {
                self.on_disk = self.on_disk.max(saved.generation);
                // An older snapshot says nothing about the newest change; its own answer will.
                (saved.generation == self.generation).then(|| {
                    Ok(format!(
                        "{}: saved {} {} to {path}",
                        self.last_change,
                        thousands(saved.count as u64),
                        for_count(saved.count as u64, "label", "labels")
                    ))
                })
            }
            // A failure older than what is already on disk no longer matters. A newer one
            // stays until the next change, which writes the whole store again.
            Err(e) if saved.generation > self.on_disk => Some(Err(format!(
                "saving labels to {path} failed: {e}; they are written again on the next \
                 label change"
            ))),
            Err(_) => None,
        }
    }
}
