//! Tokens and the rows built from them: splitting a text into words (or characters, for
//! scripts written without spaces), `similar`'s ops as token rows, and the passes over those
//! rows before they become byte rows (the fold of short equal runs, the unaligned tail).

use super::*;

/// A row while rows are built: token index ranges on each side, and the moved block it is
/// part of (an index into the blocks being built).
#[derive(Debug, Clone)]
pub(super) struct TokenRow {
    pub(super) kind: Kind,
    pub(super) l: Range<usize>,
    pub(super) r: Range<usize>,
    pub(super) block: Option<usize>,
}

impl TokenRow {
    pub(super) fn new(kind: Kind, l: Range<usize>, r: Range<usize>) -> TokenRow {
        TokenRow {
            kind,
            l,
            r,
            block: None,
        }
    }

    /// Neither equal nor part of a move: what the fold may join.
    pub(super) fn is_edit(&self) -> bool {
        !self.kind.is_equal() && self.block.is_none()
    }
}

/// `similar`'s ops as rows, token positions counted from `l0` and `r0`. A replacement enters
/// as a deletion and an insertion, so that either half can be recognised as a move; the fold
/// joins the halves that are not back into one change. Positions come from the ops' lengths,
/// in order: after `similar`'s compaction (2.7.0) the index an op holds for the side it does
/// not touch (a deletion's `new_index`) can be off, while lengths and order are right.
pub(super) fn token_rows(ops: &[DiffOp], l0: usize, r0: usize) -> Vec<TokenRow> {
    let mut rows: Vec<TokenRow> = Vec::with_capacity(ops.len() + 8);
    let (mut at_left, mut at_right) = (l0, r0);
    for op in ops {
        let (tag, l, r) = op.as_tag_tuple();
        let l = at_left..at_left + l.len();
        let r = at_right..at_right + r.len();
        (at_left, at_right) = (l.end, r.end);
        match tag {
            DiffTag::Equal => rows.push(TokenRow::new(Kind::Equal, l, r)),
            DiffTag::Delete => rows.push(TokenRow::new(Kind::Deleted, l, r)),
            DiffTag::Insert => rows.push(TokenRow::new(Kind::Inserted, l, r)),
            DiffTag::Replace => {
                rows.push(TokenRow::new(Kind::Deleted, l.clone(), r.start..r.start));
                rows.push(TokenRow::new(Kind::Inserted, l.end..l.end, r));
            }
        }
    }
    rows
}

/// True for a text a word diff would see as one or a few huge words: no whitespace at all
/// (beyond a short word), or mostly letters of scripts written without spaces. Looks at the
/// first 4,096 characters.
pub(super) fn written_without_spaces(text: &str) -> bool {
    let (mut letters, mut spaceless, mut spaces) = (0usize, 0usize, 0usize);
    for c in text.chars().take(4096) {
        if c.is_whitespace() {
            spaces += 1;
        } else if c.is_alphanumeric() {
            letters += 1;
            spaceless += is_spaceless_script(c) as usize;
        }
    }
    (spaces == 0 && letters > 0) || 2 * spaceless > letters
}

/// Letters of scripts that do not separate words with spaces: Thai, Lao, Myanmar, Khmer,
/// kana, Han (CJK unified ideographs and extension A, compatibility ideographs) and Hangul
/// syllables (Korean separates words, but its syllables are dense enough that a word diff
/// of short Korean texts is too coarse).
pub(super) fn is_spaceless_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF      // Thai, Lao
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

/// What each token is compared as, folded; tokens that fold to nothing (punctuation when
/// it is stripped) are removed from `tokens`: they are not compared, as they are not
/// shingled.
pub(super) fn fold_tokens<'t>(
    text: &'t str,
    tokens: &mut Vec<Range<usize>>,
    folding: Folding,
) -> Vec<Cow<'t, str>> {
    let mut keys = Vec::with_capacity(tokens.len());
    tokens.retain(|range| {
        let key = folding.fold(&text[range.clone()]);
        let keep = !key.is_empty();
        if keep {
            keys.push(key);
        }
        keep
    });
    keys
}

/// The byte ranges of the first `max` tokens of `text`, and where the cap stopped (the
/// start of the first token left out), if it did. With `marks_attached`, a character token
/// holds the combining marks that follow it (NFKC composes them with it).
pub(super) fn tokenize(
    text: &str,
    unit: Unit,
    max: usize,
    marks_attached: bool,
) -> (Vec<Range<usize>>, Option<usize>) {
    let mut tokens: Vec<Range<usize>> = Vec::new();
    match unit {
        Unit::Chars => {
            for (i, c) in text.char_indices() {
                if marks_attached
                    && canonical_combining_class(c) != 0
                    && let Some(last) = tokens.last_mut()
                    && last.end == i
                {
                    last.end = i + c.len_utf8();
                    continue;
                }
                if tokens.len() == max {
                    return (tokens, Some(i));
                }
                tokens.push(i..i + c.len_utf8());
            }
        }
        Unit::Words => {
            let mut start = None;
            for (i, c) in text.char_indices() {
                match (c.is_whitespace(), start) {
                    (false, None) => {
                        if tokens.len() == max {
                            return (tokens, Some(i));
                        }
                        start = Some(i);
                    }
                    (true, Some(s)) => {
                        tokens.push(s..i);
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some(s) = start {
                tokens.push(s..text.len());
            }
        }
    }
    (tokens, None)
}

/// Folds an equal run into the edits around it when it is no longer than either of them
/// (each edit's size is its longer side): `[-the cat-] sat [-down-]` against `{+a dog+} sat
/// {+still+}` reads better as one change than as three pieces. Adjacent edits merge into
/// one changed row. Rows of moves are neither folded nor merged; their partner indices are
/// updated to the rows' new places.
pub(super) fn fold_short_equal_runs(rows: &mut Vec<TokenRow>) {
    let size = |row: &TokenRow| row.l.len().max(row.r.len());
    let mut out: Vec<TokenRow> = Vec::with_capacity(rows.len());
    // Where each input row went (rows of moves are never merged, so theirs is exact).
    let mut new_index = vec![0usize; rows.len()];
    let mut i = 0;
    while i < rows.len() {
        let row = rows[i].clone();
        let previous_edit = out.last().filter(|p| p.is_edit());
        let next_edit = rows.get(i + 1).filter(|n| n.is_edit());
        if row.kind.is_equal()
            && let (Some(prev), Some(next)) = (previous_edit, next_edit)
            && row.l.len() <= size(prev)
            && row.l.len() <= size(next)
        {
            let next = next.clone();
            let prev = out.last_mut().expect("checked above");
            prev.kind = Kind::Changed;
            prev.l = prev.l.start..next.l.end;
            prev.r = prev.r.start..next.r.end;
            new_index[i] = out.len() - 1;
            new_index[i + 1] = out.len() - 1;
            i += 2;
            continue;
        }
        match out.last_mut() {
            // A deletion next to an insertion is one change.
            Some(prev) if prev.is_edit() && row.is_edit() => {
                prev.kind = Kind::Changed;
                prev.l = prev.l.start..row.l.end;
                prev.r = prev.r.start..row.r.end;
            }
            _ => out.push(row),
        }
        new_index[i] = out.len() - 1;
        i += 1;
    }
    for row in &mut out {
        row.kind = match row.kind {
            Kind::MovedOut { to } => Kind::MovedOut { to: new_index[to] },
            Kind::MovedIn { from } => Kind::MovedIn {
                from: new_index[from],
            },
            other => other,
        };
    }
    *rows = out;
}

/// Drops the rows after the last equal one, if there are both, and returns how many tokens
/// of each side the kept rows hold. A move that loses one of its places is undone at the
/// other: its rows become plain deletions (insertions).
pub(super) fn drop_unaligned_tail(rows: &mut Vec<TokenRow>) -> Option<(usize, usize)> {
    let last_equal = rows.iter().rposition(|r| r.kind.is_equal())?;
    if last_equal + 1 == rows.len() {
        return None;
    }
    rows.truncate(last_equal + 1);
    let blocks = rows
        .iter()
        .filter_map(|r| r.block)
        .max()
        .map_or(0, |b| b + 1);
    // For each block: has it rows at its old place, at its new place?
    let mut places = vec![(false, false); blocks];
    for row in rows.iter() {
        if let Some(b) = row.block {
            if row.l.is_empty() {
                places[b].1 = true;
            } else {
                places[b].0 = true;
            }
        }
    }
    for row in rows.iter_mut() {
        if let Some(b) = row.block
            && places[b] != (true, true)
        {
            row.block = None;
            row.kind = match row.kind {
                Kind::MovedOut { .. } => Kind::Deleted,
                Kind::MovedIn { .. } => Kind::Inserted,
                other => other,
            };
        }
    }
    let last = &rows[last_equal];
    Some((last.l.end, last.r.end))
}
