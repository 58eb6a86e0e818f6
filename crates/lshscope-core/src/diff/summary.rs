//! How much a diff changed, counted in words (or characters) and said in one line.

use super::*;

/// How much changed, in [`Unit`]s. A changed row counts its words on each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Words in equal rows (counted once: they are the same on both sides).
    pub equal: usize,
    /// Words only in the left text.
    pub deleted: usize,
    /// Words only in the right text.
    pub inserted: usize,
    /// Words of changed rows on the left (replaced) and on the right (replacing them).
    pub changed_left: usize,
    /// Words of changed rows on the right, the ones replacing them.
    pub changed_right: usize,
    /// Words of blocks that moved unchanged (counted once).
    pub moved: usize,
    /// Blocks that moved with edits inside ([`MovedBlock::is_edited`]).
    pub edited_moves: usize,
    /// Words of those blocks the same at both places (counted once).
    pub edited_moves_unchanged: usize,
    /// Words of those blocks changed by the move: as they were (left) and as they are
    /// (right).
    pub edited_moves_changed_left: usize,
    /// The right side's count of those words: as they are now.
    pub edited_moves_changed_right: usize,
    /// Words compared in each text.
    pub left_tokens: usize,
    /// Words compared in the right text ([`Summary::left_tokens`] is the left's).
    pub right_tokens: usize,
}

impl Summary {
    /// Share of the compared words that are unchanged, in place or moved: 2·(equal + moved +
    /// the words of moved blocks the same at both places) / (left + right), 1 for two empty
    /// texts. A notice moved from first to last with its holder renamed is mostly unchanged
    /// words, and the share says so; where the words went, the moves say.
    pub fn unchanged_share(&self) -> f64 {
        let total = self.left_tokens + self.right_tokens;
        if total == 0 {
            1.0
        } else {
            let same = self.equal + self.moved + self.edited_moves_unchanged;
            2.0 * same as f64 / total as f64
        }
    }

    /// True when nothing was deleted, inserted, changed or moved.
    pub fn is_unchanged(&self) -> bool {
        self.deleted + self.inserted + self.changed_left + self.changed_right + self.moved == 0
            && self.edited_moves == 0
    }

    /// The one-line summary the viewer, the CLI and the exports show:
    /// `3 words inserted, 2 deleted, 4 changed (into 5), 9 moved; 87 % unchanged`, led by the
    /// moved blocks with edits when there are any:
    /// `1 block of 175 words moved (6 words changed inside); 2 words inserted; 96 % unchanged`.
    pub fn describe(&self, unit: Unit) -> String {
        self.describe_as(unit, false)
    }

    /// [`Summary::describe`] in fewer words, for a narrow line: the moved blocks as their
    /// words and the number changed inside them, then the share unchanged, then the other
    /// counts (so a line cut at its end loses the least):
    /// `175 words moved (6 changed inside); 96 % unchanged; 2 inserted`. The same as
    /// [`Summary::describe`] when no block moved with edits.
    pub fn describe_brief(&self, unit: Unit) -> String {
        self.describe_as(unit, true)
    }

    fn describe_as(&self, unit: Unit, brief: bool) -> String {
        if self.is_unchanged() {
            return format!(
                "no difference in {} {} compared",
                thousands(self.left_tokens as u64),
                unit.noun(self.left_tokens as u64)
            );
        }
        let mut parts: Vec<String> = Vec::new();
        let mut noun_said = false;
        let moved_block_words = self.edited_moves_unchanged + self.edited_moves_changed_left;
        let mut clauses = Vec::new();
        // Last, or in the brief form right after the moved blocks.
        let share = self.unchanged_share();
        // Rounding must not call a pair with a difference 100 % unchanged.
        let share = if (0.995..1.0).contains(&share) {
            "over 99 %".to_string()
        } else {
            percent_rough(share)
        };
        let mut unchanged = Some(format!("{share} unchanged"));
        // Only moved blocks with edits have a brief form.
        let brief = brief && self.edited_moves > 0;
        if brief {
            let blocks = if self.edited_moves > 1 {
                format!(" in {} blocks", thousands(self.edited_moves as u64))
            } else {
                String::new()
            };
            let inside = match self.edited_moves_changed_left {
                0 => format!(
                    "{} added",
                    thousands(self.edited_moves_changed_right as u64)
                ),
                n => format!("{} changed", thousands(n as u64)),
            };
            clauses.push(format!(
                "{} {} moved{blocks} ({inside} inside)",
                thousands(moved_block_words as u64),
                unit.noun(moved_block_words as u64)
            ));
            clauses.extend(unchanged.take());
            noun_said = true;
        }
        let mut part = |n: usize, what: String| {
            if n > 0 {
                let noun = if noun_said {
                    String::new()
                } else {
                    noun_said = true;
                    format!(" {}", unit.noun(n as u64))
                };
                parts.push(format!("{}{noun} {what}", thousands(n as u64)));
            }
        };
        part(self.inserted, "inserted".into());
        part(self.deleted, "deleted".into());
        let into = if self.changed_right != self.changed_left {
            format!(" (into {})", thousands(self.changed_right as u64))
        } else {
            String::new()
        };
        part(self.changed_left, format!("changed{into}"));
        if self.changed_left == 0 && self.changed_right > 0 {
            // Only possible for an empty left side of a change; say it rather than lose it.
            part(self.changed_right, "written in".into());
        }
        part(self.moved, "moved".into());
        if self.edited_moves > 0 && !brief {
            let words = moved_block_words;
            clauses.push(format!(
                "{} {} of {} {} moved ({})",
                thousands(self.edited_moves as u64),
                for_count(self.edited_moves as u64, "block", "blocks"),
                thousands(words as u64),
                unit.noun(words as u64),
                changed_inside(
                    unit,
                    self.edited_moves_changed_left,
                    self.edited_moves_changed_right
                )
            ));
        }
        if !parts.is_empty() {
            clauses.push(parts.join(", "));
        }
        clauses.extend(unchanged);
        clauses.join("; ")
    }
}

/// What a move changed inside a block, `left` words as they were against `right` as they
/// are: `6 words changed inside`, `2 words changed inside, into 3`, `4 words added inside`.
pub fn changed_inside(unit: Unit, left: usize, right: usize) -> String {
    if left == 0 {
        return format!(
            "{} {} added inside",
            thousands(right as u64),
            unit.noun(right as u64)
        );
    }
    let into = if right != left {
        format!(", into {}", thousands(right as u64))
    } else {
        String::new()
    };
    format!(
        "{} {} changed inside{into}",
        thousands(left as u64),
        unit.noun(left as u64)
    )
}
