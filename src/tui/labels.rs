//! The user's labels in the explorer: the store (ids), the same labels by input position for
//! the loaded corpus, and which change is known to be on disk. Writing is an effect: a change
//! gives a numbered snapshot for the label writer, whose answer says which change is saved.

use std::collections::{HashMap, HashSet};

use lshscope_core::analysis::labels::{Label, LabelStore};
use lshscope_core::corpus::Corpus;
use lshscope_core::util::numfmt::{for_count, thousands};

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

/// Labels, by id and by position, with the bookkeeping of what is on disk.
#[derive(Debug)]
pub struct LabelState {
    store: LabelStore,
    by_position: HashMap<(u32, u32), Label>,
    /// Label changes made so far; each queues a snapshot carrying its number.
    generation: u64,
    /// The newest change known to be on disk.
    on_disk: u64,
    /// What the newest change did, shown again once it is on disk.
    last_change: String,
}

impl LabelState {
    pub fn new(store: LabelStore) -> Self {
        LabelState {
            store,
            by_position: HashMap::new(),
            generation: 0,
            on_disk: 0,
            last_change: String::new(),
        }
    }

    pub fn store(&self) -> &LabelStore {
        &self.store
    }

    /// Labels by input positions (a, b), a < b, of the loaded corpus.
    pub fn by_position(&self) -> &HashMap<(u32, u32), Label> {
        &self.by_position
    }

    pub fn of(&self, a: u32, b: u32) -> Option<Label> {
        self.by_position.get(&(a, b)).copied()
    }

    /// True while a label change is not yet known to be on disk.
    pub fn unsaved(&self) -> bool {
        self.on_disk < self.generation
    }

    /// Resolves the labelled id pairs to input positions of `corpus` once (first occurrence
    /// of an id); returns how many labels match it.
    pub fn attach(&mut self, corpus: &Corpus) -> usize {
        let wanted: HashSet<&str> = self.store.iter().flat_map(|(a, b, _)| [a, b]).collect();
        let mut position: HashMap<&str, u32> = HashMap::new();
        for i in 0..corpus.len() {
            let id = corpus.id(i);
            if wanted.contains(id) {
                position.entry(id).or_insert(i as u32);
            }
        }
        let mut by_position = HashMap::new();
        for (a, b, label) in self.store.iter() {
            if let (Some(&pa), Some(&pb)) = (position.get(a), position.get(b)) {
                by_position.insert((pa.min(pb), pa.max(pb)), label);
            }
        }
        self.by_position = by_position;
        self.by_position.len()
    }

    /// Labels the pair at positions `pair` with ids `ids` (`None` removes its label). Returns
    /// the snapshot to write and what changed, in words.
    pub fn set(
        &mut self,
        pair: (u32, u32),
        ids: (&str, &str),
        label: Option<Label>,
    ) -> (LabelSave, String) {
        let (id_a, id_b) = ids;
        self.store.set(id_a, id_b, label);
        let text = match label {
            // ⟷ as the viewer writes a pair: ` · ` sets a message's parts apart (ui::fit).
            Some(l) => format!("{id_a} ⟷ {id_b}: {}", l.as_str()),
            None => format!("{id_a} ⟷ {id_b}: label removed"),
        };
        self.generation += 1;
        self.last_change = text.clone();
        match label {
            Some(l) => self.by_position.insert(pair, l),
            None => self.by_position.remove(&pair),
        };
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
