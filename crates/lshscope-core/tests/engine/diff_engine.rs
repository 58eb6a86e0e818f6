//! The pair diff: alignments on the cases a person auditing pairs meets (a moved sentence, a
//! changed number, a deleted paragraph, CJK text, identical texts), the size cap and the
//! deadline, invariants on generated pairs, and the text and HTML exports.

use std::time::{Duration, Instant};

use lshscope_core::diff::export::{ExportFormat, PairInfo, render, to_html, to_text, write_diff};
use lshscope_core::diff::{
    DiffOptions, Folding, Granularity, Kind, SegmentKind, Side, TextDiff, Unit, diff_texts,
};

fn diff(a: &str, b: &str) -> TextDiff {
    diff_texts(a, b, &DiffOptions::default())
}

/// The rows as `kind: left | right`, the test's own view of the alignment.
fn rows(d: &TextDiff, a: &str, b: &str) -> Vec<String> {
    d.rows
        .iter()
        .map(|r| {
            format!(
                "{:?}: {} | {}",
                r.kind,
                &a[r.left.clone()],
                &b[r.right.clone()]
            )
        })
        .collect()
}

/// Checks what every diff must hold: segments tile each text in order, rows hold every
/// compared word once and in order, equal rows and move partners hold the same words, the
/// summary adds up, differences are the maximal runs of rows that are not equal, and each
/// moved block's rows, ranges and inner alignment agree (and its own diff holds all this).
fn check_invariants(d: &TextDiff, a: &str, b: &str) {
    for (side, text) in [(Side::Left, a), (Side::Right, b)] {
        let segments = d.segments(side);
        let mut at = 0;
        for s in &segments {
            assert_eq!(s.range.start, at, "{side:?}: segments must be contiguous");
            at = s.range.end;
            if s.kind == SegmentKind::Gap {
                assert!(
                    text[s.range.clone()].trim().is_empty(),
                    "a gap holds a word"
                );
            }
        }
        assert_eq!(at, text.len(), "{side:?}: segments must cover the text");
        let words_of = |t: &str| -> Vec<String> {
            match d.unit {
                Unit::Words => t.split_whitespace().map(str::to_string).collect(),
                Unit::Chars => t.chars().map(String::from).collect(),
            }
        };
        let from_rows: Vec<String> = d
            .rows
            .iter()
            .flat_map(|r| words_of(&text[r.range(side)]))
            .collect();
        assert_eq!(from_rows, words_of(&text[..d.compared_len(side)]));
    }
    // Compared as the default folding compares them: lowercased.
    let words = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let (mut left_total, mut right_total) = (0, 0);
    for (i, r) in d.rows.iter().enumerate() {
        left_total += r.left_tokens;
        right_total += r.right_tokens;
        match r.kind {
            Kind::Equal => {
                assert_eq!(words(&a[r.left.clone()]), words(&b[r.right.clone()]));
                assert_eq!(r.moved, None);
            }
            Kind::MovedOut { to } => {
                assert_eq!(d.rows[to].kind, Kind::MovedIn { from: i });
                assert_eq!(
                    words(&a[r.left.clone()]),
                    words(&b[d.rows[to].right.clone()])
                );
                assert!(r.moved.is_some() && r.moved == d.rows[to].moved);
            }
            Kind::MovedIn { from } => assert_eq!(d.rows[from].kind, Kind::MovedOut { to: i }),
            Kind::Deleted => assert!(r.right.is_empty() && !r.left.is_empty()),
            Kind::Inserted => assert!(r.left.is_empty() && !r.right.is_empty()),
            Kind::Changed => assert_eq!(r.moved, None),
        }
    }
    assert_eq!(left_total, d.summary.left_tokens);
    assert_eq!(right_total, d.summary.right_tokens);
    let s = &d.summary;
    assert_eq!(
        s.equal
            + s.deleted
            + s.changed_left
            + s.moved
            + s.edited_moves_unchanged
            + s.edited_moves_changed_left,
        s.left_tokens
    );
    assert_eq!(
        s.equal
            + s.inserted
            + s.changed_right
            + s.moved
            + s.edited_moves_unchanged
            + s.edited_moves_changed_right,
        s.right_tokens
    );
    assert_eq!(
        s.edited_moves,
        d.moves.iter().filter(|m| m.is_edited()).count()
    );
    for (n, m) in d.moves.iter().enumerate() {
        // Its rows: left-only ones at the old place, right-only ones at the new, no other.
        let of_block: Vec<usize> = (0..d.rows.len())
            .filter(|&i| d.rows[i].moved == Some(n))
            .collect();
        let places: Vec<usize> = m.out_rows.clone().chain(m.in_rows.clone()).collect();
        assert_eq!(of_block.len(), places.len());
        assert!(of_block.iter().all(|i| places.contains(i)));
        assert!(m.out_rows.clone().all(|i| d.rows[i].right_tokens == 0));
        assert!(m.in_rows.clone().all(|i| d.rows[i].left_tokens == 0));
        // Blocks are numbered in the order of their old places.
        if n > 0 {
            assert!(d.moves[n - 1].out_rows.start < m.out_rows.start);
        }
        // The inner alignment holds the block's words on each side, once and in order.
        let inner = |side: Side, text: &str| -> String {
            m.rows
                .iter()
                .map(|r| &text[r.range(side)])
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(words(&inner(Side::Left, a)), words(&a[m.left.clone()]));
        assert_eq!(words(&inner(Side::Right, b)), words(&b[m.right.clone()]));
        assert_eq!(
            m.left_tokens,
            m.out_rows
                .clone()
                .map(|i| d.rows[i].left_tokens)
                .sum::<usize>()
        );
        assert_eq!(m.unchanged + m.changed_left, m.left_tokens);
        assert_eq!(m.unchanged + m.changed_right, m.right_tokens);
        let own = d.move_diff(n);
        let (left, right) = (&a[m.left.clone()], &b[m.right.clone()]);
        check_invariants(&own, left, right);
        assert_eq!(own.summary.equal, m.unchanged);
        assert!(own.moves.is_empty());
    }
    let mut runs = Vec::new();
    for (i, r) in d.rows.iter().enumerate() {
        if !r.kind.is_equal() {
            match runs.last_mut() {
                Some(std::ops::Range { end, .. }) if *end == i => *end = i + 1,
                _ => runs.push(i..i + 1),
            }
        }
    }
    assert_eq!(d.differences, runs);
    // Blocks take every row once, in order, and tile each side's compared text.
    let blocks = d.blocks();
    let rows_of_blocks: Vec<usize> = blocks.iter().flat_map(|b| b.rows.clone()).collect();
    assert_eq!(rows_of_blocks, (0..d.rows.len()).collect::<Vec<_>>());
    for side in [Side::Left, Side::Right] {
        let mut at = 0;
        for i in 0..blocks.len() {
            let range = d.block_range(&blocks, i, side);
            assert_eq!(range.start, at);
            at = range.end;
        }
        if !blocks.is_empty() {
            assert_eq!(at, d.compared_len(side));
        }
    }
    for b in &blocks {
        match b.difference {
            Some(n) => assert_eq!(d.differences[n], b.rows),
            None => assert!(b.rows.len() == 1 && d.rows[b.rows.start].kind.is_equal()),
        }
    }
}

const INFO: PairInfo = PairInfo {
    left_id: "doc-a",
    right_id: "doc-b",
    jaccard: Some((0.5, "char:5")),
    source: None,
};

#[test]
fn a_moved_sentence_is_one_move_not_a_deletion_and_an_insertion() {
    let a = "The service keeps your files for thirty days. Deleted files can be restored from \
             the bin. Support answers within two working days.";
    let b = "Deleted files can be restored from the bin. The service keeps your files for \
             thirty days. Support answers within two working days.";
    let d = diff(a, b);
    check_invariants(&d, a, b);
    assert_eq!(
        rows(&d, a, b),
        [
            "MovedOut { to: 2 }: The service keeps your files for thirty days. | ",
            "Equal: Deleted files can be restored from the bin. | Deleted files can be restored \
             from the bin.",
            "MovedIn { from: 0 }:  | The service keeps your files for thirty days.",
            "Equal: Support answers within two working days. | Support answers within two \
             working days.",
        ]
    );
    assert_eq!(d.summary.moved, 8);
    assert_eq!(d.differences.len(), 2);
    assert_eq!(d.describe(), "8 words moved; 100 % unchanged");
    let text = to_text(&d, a, b, &INFO);
    assert!(
        text.contains("[-The service keeps your files for thirty days.-](moved to @@ 1)"),
        "{text}"
    );
}

#[test]
fn a_changed_number_is_one_changed_word() {
    let a = "The plan costs 12 euros per month and the first invoice is sent after 30 days.";
    let b = "The plan costs 15 euros per month and the first invoice is sent after 30 days.";
    let d = diff(a, b);
    check_invariants(&d, a, b);
    let changed: Vec<String> = rows(&d, a, b)
        .into_iter()
        .filter(|r| !r.starts_with("Equal"))
        .collect();
    assert_eq!(changed, ["Changed: 12 | 15"]);
    assert_eq!(d.unit, Unit::Words);
    assert_eq!(d.describe(), "1 word changed; 94 % unchanged");
    let text = to_text(&d, a, b, &INFO);
    assert!(text.contains("\n@@ 1: a:1:16 b:1:16 @@\nThe plan costs [-12-]{+15+} euros per month and the first invoice is sent after…\n"), "{text}");
}

#[test]
fn a_deleted_paragraph_is_one_deletion_and_whitespace_is_not_a_difference() {
    let first = "Installs the command-line client and its manual pages.";
    let second = "This package also contains the shell completions for bash and zsh, and an \
                  example configuration file.";
    let third = "See the upstream site for the changelog.";
    let a = format!("{first}\n\n{second}\n\n{third}\n");
    let b = format!("{first}\n\n{third}");
    let d = diff(&a, &b);
    check_invariants(&d, &a, &b);
    assert_eq!(d.differences.len(), 1);
    let row = &d.rows[d.differences[0].start];
    assert_eq!(row.kind, Kind::Deleted);
    assert_eq!(&a[row.left.clone()], second);
    assert_eq!(d.summary.deleted, second.split_whitespace().count());
    // The paragraph's own line breaks stay out of the deletion: they are gaps.
    let segments = d.segments(Side::Left);
    assert!(
        segments
            .iter()
            .any(|s| s.kind == SegmentKind::Gap && &a[s.range.clone()] == "\n\n")
    );
    let html = to_html(&d, &a, &b, &INFO);
    assert!(html.contains(&format!("<del>{second}</del>")), "{html}");
    // Re-wrapped text with the same words has no difference.
    let rewrapped = a.replace(' ', "\n");
    let same = diff(&a, &rewrapped);
    assert!(same.differences.is_empty() && same.summary.is_unchanged());
}

#[test]
fn cjk_text_is_compared_character_by_character() {
    let a = "東京は日本の首都です。人口は約千四百万人で、多くの鉄道が通っています。";
    let b = "東京は日本の首都です。人口は約千三百万人で、多くの地下鉄が通っています。";
    let d = diff(a, b);
    check_invariants(&d, a, b);
    assert_eq!(d.unit, Unit::Chars);
    let changed: Vec<String> = rows(&d, a, b)
        .into_iter()
        .filter(|r| !r.starts_with("Equal"))
        .collect();
    assert_eq!(changed, ["Changed: 四 | 三", "Changed: 鉄道 | 地下鉄"]);
    assert_eq!(
        d.describe(),
        "3 characters changed (into 4); 90 % unchanged"
    );
    // Forced to words, the same texts are one word each: one change of everything.
    let words = diff_texts(
        a,
        b,
        &DiffOptions {
            granularity: Granularity::Words,
            ..DiffOptions::default()
        },
    );
    assert_eq!(words.unit, Unit::Words);
    assert_eq!(words.rows.len(), 1);
    assert_eq!(words.rows[0].kind, Kind::Changed);
}

#[test]
fn identical_texts_have_no_difference() {
    let a = "Shared boilerplate text that both documents contain word for word.";
    let d = diff(a, a);
    check_invariants(&d, a, a);
    assert!(d.differences.is_empty());
    assert_eq!(d.rows.len(), 1);
    assert_eq!(d.rows[0].kind, Kind::Equal);
    assert_eq!(d.summary.unchanged_share(), 1.0);
    assert_eq!(d.describe(), "no difference in 10 words compared");
    assert_eq!(d.next_difference(None), None);
    let text = to_text(&d, a, a, &INFO);
    assert!(!text.contains("@@"), "{text}");
    let empty = diff("", "");
    check_invariants(&empty, "", "");
    assert!(empty.rows.is_empty() && empty.summary.is_unchanged());
    let one_side = diff("", "only here");
    check_invariants(&one_side, "", "only here");
    assert_eq!(one_side.rows[0].kind, Kind::Inserted);
}

#[test]
fn short_equal_runs_inside_a_rewrite_fold_into_one_change() {
    let a = "Keep this start. alpha beta gamma delta. Keep this end too.";
    let b = "Keep this start. one beta two three. Keep this end too.";
    let d = diff(a, b);
    check_invariants(&d, a, b);
    let changed: Vec<String> = rows(&d, a, b)
        .into_iter()
        .filter(|r| !r.starts_with("Equal"))
        .collect();
    assert_eq!(
        changed,
        ["Changed: alpha beta gamma delta. | one beta two three."]
    );
}

#[test]
fn next_and_previous_difference() {
    let a = "one two three four five six seven eight nine ten";
    let b = "one 2 three four five six seven 8 nine ten";
    let d = diff(a, b);
    check_invariants(&d, a, b);
    assert_eq!(d.differences.len(), 2);
    let first = d.next_difference(None).unwrap();
    assert_eq!(first, 0);
    let second = d.next_difference(Some(d.differences[first].start)).unwrap();
    assert_eq!(second, 1);
    assert_eq!(d.next_difference(Some(d.differences[second].start)), None);
    assert_eq!(d.previous_difference(d.differences[second].start), Some(0));
    assert_eq!(d.previous_difference(d.differences[first].start), None);
}

/// A text of `words` words from a small vocabulary (so words repeat, as in real text), by a
/// fixed linear congruential generator.
fn generated_text(words: usize, seed: u64) -> String {
    const VOCABULARY: [&str; 24] = [
        "data", "file", "the", "a", "package", "of", "contains", "support", "and", "for",
        "library", "tools", "to", "is", "with", "in", "module", "run", "files", "this", "on",
        "that", "it", "user",
    ];
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut out = String::with_capacity(words * 6);
    for i in 0..words {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if i > 0 {
            out.push(if (state >> 40).is_multiple_of(13) {
                '\n'
            } else {
                ' '
            });
        }
        out.push_str(VOCABULARY[((state >> 33) % VOCABULARY.len() as u64) as usize]);
    }
    out
}

#[test]
fn invariants_hold_on_generated_pairs() {
    for seed in 0..40 {
        let a = generated_text(60 + seed as usize, seed);
        // Mutate: drop a stretch, insert a stretch from another text, change some words.
        let words: Vec<&str> = a.split_whitespace().collect();
        let other = generated_text(12, seed + 1000);
        let cut = (seed as usize * 7) % words.len();
        let mut b_words: Vec<&str> = words[..cut].to_vec();
        b_words.extend(other.split_whitespace());
        b_words.extend(words[(cut + 5).min(words.len())..].iter().copied());
        if seed.is_multiple_of(3) {
            // Move the first ten words to the end.
            let head: Vec<&str> = b_words.drain(..10).collect();
            b_words.extend(head);
        }
        let b = b_words.join(" ");
        let d = diff(&a, &b);
        check_invariants(&d, &a, &b);
        let chars = diff_texts(
            &a,
            &b,
            &DiffOptions {
                granularity: Granularity::Chars,
                ..DiffOptions::default()
            },
        );
        check_invariants(&chars, &a, &b);
        let capped = diff_texts(
            &a,
            &b,
            &DiffOptions {
                max_tokens: 20,
                ..DiffOptions::default()
            },
        );
        check_invariants(&capped, &a, &b);
        let html = render(ExportFormat::Html, &d, &a, &b, &INFO);
        assert!(html.ends_with("</html>\n"));
    }
}

#[test]
fn a_multi_megabyte_pair_is_cut_at_the_cap_and_says_so() {
    // About 3.8 MB per text; b differs near the start and near the end.
    let a = generated_text(700_000, 7);
    let mut b = a.clone();
    b.replace_range(0..0, "INSERTED ");
    b.push_str(" APPENDED");
    let started = Instant::now();
    let d = diff(&a, &b);
    let elapsed = started.elapsed();
    assert!(a.len() > 3_000_000);
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    let cut = d.cut.expect("a cut");
    assert_eq!(cut.max_tokens, lshscope_core::diff::DEFAULT_MAX_TOKENS);
    assert!(cut.left < a.len() / 5 && cut.right < b.len() / 5, "{cut:?}");
    // b's window holds one word less of a (it starts with INSERTED): a's last word in its
    // window has its match past b's cut, so it is left out rather than shown as deleted.
    assert_eq!(d.summary.right_tokens, cut.max_tokens);
    assert_eq!(d.summary.left_tokens, cut.max_tokens - 1);
    assert!(
        d.rows.last().unwrap().kind.is_equal(),
        "an edit at the cut: {:?}",
        d.rows.last()
    );
    assert_eq!(
        d.describe(),
        "1 word inserted; over 99 % unchanged; stopped at the cap of 50,000 words per text"
    );
    check_invariants(&d, &a, &b);
    // The change at the start is found; the end was not compared, and the segments say so.
    assert_eq!(&b[d.rows[0].right.clone()], "INSERTED");
    let last = d.segments(Side::Right).pop().unwrap();
    assert_eq!(last.kind, SegmentKind::Uncompared);
    assert_eq!(last.range.end, b.len());
    assert!(
        d.describe()
            .contains("stopped at the cap of 50,000 words per text"),
        "{}",
        d.describe()
    );
    let text = to_text(&d, &a, &b, &INFO);
    assert!(
        text.contains("the comparison stopped at the cap of 50,000 words per text: a from byte "),
        "{text:.400}"
    );
    let html = to_html(&d, &a, &b, &INFO);
    assert!(
        html.len() < a.len() / 2,
        "the export holds only what was compared"
    );
    assert!(html.contains("more bytes not compared"));
}

#[test]
fn the_deadline_bounds_the_alignment_and_marks_it_approximate() {
    // Two unrelated texts from a small vocabulary: the hardest case for the alignment.
    let a = generated_text(40_000, 1);
    let b = generated_text(40_000, 2);
    let options = DiffOptions {
        timeout: Some(Duration::from_millis(20)),
        ..DiffOptions::default()
    };
    let started = Instant::now();
    let d = diff_texts(&a, &b, &options);
    let elapsed = started.elapsed();
    assert!(d.approximate);
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
    check_invariants(&d, &a, &b);
    assert!(
        d.describe()
            .ends_with("approximate (the alignment ran out of time)")
    );
}

#[test]
fn html_escapes_markup_and_quotes() {
    let a = "Click <a href=\"x\">here</a> & it's <script>alert('a')</script> done.";
    let b = "Click <a href=\"y\">here</a> & it's <script>alert(\"b\")</script> done.";
    let info = PairInfo {
        left_id: "<b>id\"1</b>",
        right_id: "id'2&",
        jaccard: None,
        source: Some("in<put>.csv"),
    };
    let d = diff(a, b);
    check_invariants(&d, a, b);
    let html = to_html(&d, a, b, &info);
    for raw in [
        "<script",
        "<a href",
        "<b>id",
        "in<put>",
        "alert('a')",
        "\"y\"",
    ] {
        assert!(!html.contains(raw), "unescaped {raw} in\n{html}");
    }
    for escaped in [
        "&lt;script&gt;",
        "&lt;b&gt;id&quot;1&lt;/b&gt;",
        "id&#39;2&amp;",
        "in&lt;put&gt;.csv",
        "alert(&#39;a&#39;)",
    ] {
        assert!(html.contains(escaped), "no {escaped} in\n{html}");
    }
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<style>"));
    // No external resource: the page is standalone.
    assert!(!html.contains("src=") && !html.contains("<link"));
}

#[test]
fn write_diff_writes_the_rendered_export() {
    let a = "first version of the text";
    let b = "second version of the text";
    let d = diff(a, b);
    let dir = tempfile::tempdir().unwrap();
    for (name, format) in [
        ("d.txt", ExportFormat::Text),
        ("d.html", ExportFormat::Html),
    ] {
        let path = dir.path().join(name);
        assert_eq!(ExportFormat::from_path(&path), format);
        write_diff(&path, format, &d, a, b, &INFO).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            render(format, &d, a, b, &INFO)
        );
    }
    let text = std::fs::read_to_string(dir.path().join("d.txt")).unwrap();
    assert!(text.starts_with("--- a: doc-a\n+++ b: doc-b\nJaccard 0.500 (char:5 shingles)\n1 word changed; 80 % unchanged (compared word by word, ignoring case)\n"), "{text}");
    assert!(
        text.contains("[-first-]{+second+} version of the text"),
        "{text}"
    );
    let missing = dir.path().join("no").join("d.txt");
    assert!(write_diff(&missing, ExportFormat::Text, &d, a, b, &INFO).is_err());
}

/// The diff compares as the default shingles see the text: lowercased. A pair that differs
/// only in case has no difference, and without folding it has one per recased word.
#[test]
fn a_difference_of_case_alone_is_no_difference_when_shingles_lowercase() {
    let (a, b) = ("The Plan costs 12 euros.", "the plan COSTS 12 Euros.");
    let d = diff(a, b);
    check_invariants(&d, a, b);
    assert!(d.summary.is_unchanged(), "{}", d.describe());
    assert_eq!(d.describe(), "no difference in 5 words compared");
    // The one equal row spans the original characters of both texts.
    assert_eq!(rows(&d, a, b), [format!("Equal: {a} | {b}")]);
    let as_written = diff_texts(
        a,
        b,
        &DiffOptions {
            folding: Folding::NONE,
            ..DiffOptions::default()
        },
    );
    assert_eq!(as_written.describe(), "5 words changed; 0.0 % unchanged");
}

/// A word changed beyond its case is a change, shown in its original characters; byte
/// ranges stay those of the original texts where lowercasing changes byte lengths (the
/// Kelvin sign K, three bytes, lowercases to `k`, one byte).
#[test]
fn a_case_change_inside_a_changed_word_keeps_the_original_characters() {
    let (a, b) = ("Call Support today", "call SUPPORTED Today");
    let d = diff(a, b);
    check_invariants(&d, a, b);
    assert_eq!(
        rows(&d, a, b),
        [
            "Equal: Call | call",
            "Changed: Support | SUPPORTED",
            "Equal: today | Today"
        ]
    );
    let (a, b) = (
        "The \u{212A}ELVIN scale is cold in \u{212B}NGSTRÖM units",
        "the kelvin range is cold in ångström units",
    );
    let d = diff(a, b);
    check_invariants(&d, a, b);
    assert_eq!(
        rows(&d, a, b),
        [
            "Equal: The \u{212A}ELVIN | the kelvin",
            "Changed: scale | range",
            "Equal: is cold in \u{212B}NGSTRÖM units | is cold in ångström units",
        ]
    );
    assert_eq!(d.describe(), "1 word changed; 88 % unchanged");
}

/// With `--nfkc` and `--strip-punct` the diff folds as the shingles do: a ligature is its
/// letters, punctuation is not compared (a word of punctuation only is skipped), and in
/// character mode a letter and its combining accent are one unit that NFKC composes.
#[test]
fn nfkc_and_stripped_punctuation_fold_as_the_shingles_do() {
    let folding = Folding {
        lowercase: true,
        nfkc: true,
        strip_punct: true,
    };
    let options = DiffOptions {
        folding,
        ..DiffOptions::default()
    };
    let (a, b) = (
        "The \u{FB01}le \u{2014} saved, twice.",
        "the file saved twice",
    );
    let d = diff_texts(a, b, &options);
    assert!(d.summary.is_unchanged(), "{}", d.describe());
    assert_eq!(d.summary.left_tokens, 4, "the dash is not compared");
    assert_eq!(
        d.folding.ignored().as_deref(),
        Some("case, compatibility forms (NFKC) and punctuation")
    );
    assert_eq!(Folding::NONE.ignored(), None);
    assert!(
        !diff(a, b).summary.is_unchanged(),
        "lowercasing alone sees them"
    );
    let chars = DiffOptions {
        granularity: Granularity::Chars,
        ..options.clone()
    };
    let (a, b) = ("東京のcaf\u{e9}", "東京のcafe\u{301}");
    let d = diff_texts(a, b, &chars);
    assert!(d.summary.is_unchanged(), "{}", d.describe());
    assert_eq!(d.rows[0].right, 0..b.len());
    let without = diff_texts(
        a,
        b,
        &DiffOptions {
            granularity: Granularity::Chars,
            ..DiffOptions::default()
        },
    );
    assert!(!without.summary.is_unchanged());
}

/// A permission notice in the style of the X11 licences, about 170 words, naming `holder`
/// three times; `variant` edits two of its words as a second copy of it might.
fn permission_notice(holder: &str, variant: bool) -> String {
    let (sold, fit) = if variant {
        ("marketed", "suitable")
    } else {
        ("sold", "fit")
    };
    format!(
        "Permission is granted to anyone to use, copy, change, merge, publish and hand on \
         copies of this software and the notes that come with it, for any purpose and \
         without a fee, on the condition that the notice of ownership above and this grant \
         appear in every copy, and in the notes that come with the copies. The name of \
         {holder} may not be used to promote products made from this software without \
         written leave given beforehand. {holder} gives no promise that this software is \
         {fit} for any purpose at all. It comes as it is, without any promise, stated or \
         implied, including but not limited to promises that it can be {sold}, that it \
         suits a given use, and that it breaks no rights of others. In no event shall \
         {holder} be answerable for any claim, damages or other loss, whether in a suit \
         over a contract, a wrong or otherwise, that arises from, out of or in connection \
         with the software or its use or other dealings in it, even when told beforehand \
         that such a loss could happen, and whatever the law under which the claim is made."
    )
}

/// The packaging section of a Debian copyright file, about 200 words of the maintainers'
/// own terms.
fn packaging_section() -> &'static str {
    "Files: debian/*\nCopyright: 2008-2012 The Debian X Strike Force\n\
                     License: GPL-2+\n This packaging is free software; you can give it away \
                     and change it under the terms of the GNU General Public License as \
                     published by the Free Software Foundation, version 2 or any later \
                     version. It is handed out in the hope that it helps, but with no \
                     guarantee of any kind, not even the implied one that it is of use for a \
                     particular job. Read the licence itself for the details of what you may \
                     and may not do with these files, and where its terms differ from the \
                     summary given here, the terms win. A copy of the licence should have come \
                     with the packaging; when it did not, write to the foundation at its \
                     postal address in Boston, or look on its web site, where each version is \
                     kept. On Debian systems the full text of version 2 of that licence is in \
                     the file /usr/share/common-licenses/GPL-2, and the later versions sit \
                     beside it in the same directory. Patches written for this package by its \
                     maintainers are offered under the same terms as the packaging, unless a \
                     header at the top of the patch says otherwise, and changes made upstream \
                     keep the terms of the files they touch.\n"
}

/// Two copyright files shaped like libxfixes-dev and xorg-sgml-doctools in issue 38: the
/// same header, the same packaging section, and the same notice (other holders, two words
/// edited) first in one and last in the other.
fn copyright_pair() -> (String, String) {
    let header = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\
                  Upstream-Name: X.Org\nSource: https://xorg.freedesktop.org/releases/\n";
    let packaging = packaging_section();
    let a = format!(
        "{header}\nFiles: *\nCopyright: 2001-2003 Keith Packard\nLicense: MIT\n {}\n\n{packaging}",
        permission_notice("Keith Packard", false)
    );
    let b = format!(
        "{header}\n{packaging}\nFiles: *\nCopyright: 2010 Red Hat, Inc.\nLicense: MIT\n {}\n",
        permission_notice("Red Hat, Inc.", true)
    );
    (a, b)
}

/// Issue 38, item 5: a long permission notice first in one file and last in the other, its
/// holder changed and two words edited, is one moved block with its edits inside, not a
/// deletion and an unrelated insertion; the block lines up old against new.
#[test]
fn a_moved_notice_with_edits_inside_is_one_moved_block() {
    let (a, b) = copyright_pair();
    let d = diff(&a, &b);
    check_invariants(&d, &a, &b);
    assert_eq!(
        d.describe(),
        "1 block of 196 words moved (8 words changed inside, into 11); 7 words inserted, 6 \
         deleted; 96 % unchanged"
    );
    // The brief form for a narrow line: the move and the share first, the rest after.
    assert_eq!(
        d.summary.describe_brief(d.unit),
        "196 words moved (8 changed inside); 96 % unchanged; 7 inserted, 6 deleted"
    );
    assert_eq!(d.moves.len(), 1);
    let block = &d.moves[0];
    assert!(block.is_edited());
    let notice = |text: &str| {
        let at = text.find("License: MIT").unwrap();
        at..at + text[at..].find("the claim is made.").unwrap() + "the claim is made.".len()
    };
    assert_eq!(block.left, notice(&a));
    assert_eq!(block.right, notice(&b));
    assert_eq!(
        (block.unchanged, block.changed_left, block.changed_right),
        (188, 8, 11)
    );
    // Inside, the edits are the holder's name three times and the two edited words.
    let edits: Vec<String> = block
        .rows
        .iter()
        .filter(|r| !r.kind.is_equal())
        .map(|r| {
            format!(
                "{:?}: {} | {}",
                r.kind,
                &a[r.left.clone()],
                &b[r.right.clone()]
            )
        })
        .collect();
    assert_eq!(
        edits,
        [
            "Changed: Keith Packard | Red Hat, Inc.",
            "Changed: Keith Packard | Red Hat, Inc.",
            "Changed: fit | suitable",
            "Changed: sold, | marketed,",
            "Changed: Keith Packard | Red Hat, Inc.",
        ]
    );
    // At the old place the block's rows are moves and deletions, at the new place moves and
    // insertions; nothing outside it is more than a line of holders.
    let kinds =
        |rows: std::ops::Range<usize>| -> Vec<Kind> { rows.map(|i| d.rows[i].kind).collect() };
    assert!(
        kinds(block.out_rows.clone())
            .iter()
            .all(|k| matches!(k, Kind::MovedOut { .. } | Kind::Deleted))
    );
    assert!(
        kinds(block.in_rows.clone())
            .iter()
            .all(|k| matches!(k, Kind::MovedIn { .. } | Kind::Inserted))
    );
    assert!(
        d.rows
            .iter()
            .filter(|r| r.moved.is_none() && !r.kind.is_equal())
            .all(|r| r.left_tokens.max(r.right_tokens) <= 7),
        "{:?}",
        rows(&d, &a, &b)
    );
    // A viewer on either place finds the block and lays it out old against new.
    let places: Vec<Option<usize>> = (0..d.differences.len())
        .map(|k| d.move_of_difference(k))
        .collect();
    assert_eq!(
        places.iter().filter(|p| **p == Some(0)).count(),
        2,
        "{places:?}"
    );
    let own = d.move_diff(0);
    assert_eq!(own.describe(), "8 words changed (into 11); 95 % unchanged");
    assert_eq!(own.differences.len(), 5);
    let text = to_text(&d, &a, &b, &INFO);
    assert!(
        text.contains("[-License: MIT\n Permission is granted to anyone"),
        "{text}"
    );
    assert!(
        text.contains(
            "whatever the law under which the claim is made.-](moved to @@ 2, edited inside)"
        ),
        "{text}"
    );
    assert!(
        text.contains("The name of [-Keith Packard-]{+Red Hat, Inc.+} may not be used"),
        "{text}"
    );
    assert!(
        text.contains("the claim is made.+}(moved from @@ 1, edited inside)"),
        "{text}"
    );
    assert!(
        text.contains("\na block moved with edits inside is [-as it was-]"),
        "{text}"
    );
    let html = to_html(&d, &a, &b, &INFO);
    assert!(
        html.contains("<div class=\"was\"><a href=\"#d1\">←1</a> as it was there: License: MIT"),
        "{html}"
    );
    assert!(
        html.contains("The name of <del class=\"chg\">Keith Packard</del> may not"),
        "{html}"
    );
    assert!(
        html.contains("<ins class=\"moved chg\">Red Hat, Inc.</ins>"),
        "{html}"
    );
}

/// A moved block needs length and likeness: a sentence moved with a word changed is shorter
/// than a block and stays a deletion and an insertion, and two unrelated passages of the
/// same small vocabulary that swap places share their words but not their order.
#[test]
fn short_or_unlike_runs_are_not_moved_blocks() {
    let kept = "The kept part of the text stays where it is in both versions of the file, \
                word for word, so that the alignment has a long anchor to hold on to here.";
    let a = format!("The quick brown fox jumps over the lazy dog today. {kept}");
    let b = format!("{kept} The quick brown fox leaps over the lazy dog today.");
    let d = diff(&a, &b);
    check_invariants(&d, &a, &b);
    assert!(d.moves.is_empty(), "{:?}", rows(&d, &a, &b));
    assert_eq!(d.summary.edited_moves, 0);
    for seed in 0..8 {
        let (x, y) = (generated_text(80, seed), generated_text(80, seed + 100));
        let a = format!("{x}\n{kept}");
        let b = format!("{kept}\n{y}");
        let d = diff(&a, &b);
        check_invariants(&d, &a, &b);
        assert!(
            d.moves.iter().all(|m| !m.is_edited()),
            "seed {seed}: {}",
            d.describe()
        );
    }
}

/// The search also finds the block when it moved with edits the other way (last in a,
/// first in b), and two blocks at once; each is numbered by its old place.
#[test]
fn blocks_moved_with_edits_either_way_are_found_and_numbered_in_order() {
    // The part that stays: prose longer than the notice, so it anchors the alignment.
    let kept = format!(
        "{}\nUpstream notes: the sources were taken from the release tarball, checked \
         against the signature its authors publish, and unpacked without changes; the \
         generated build files were removed and are made again at build time.",
        packaging_section()
    );
    let first = permission_notice("Keith Packard", false);
    let second = generated_text(40, 9);
    let mut second_edited: Vec<&str> = second.split_whitespace().collect();
    second_edited[20] = "EDITED";
    let second_edited = second_edited.join(" ");
    let a = format!("{first}\n{kept}\n{second}");
    let b = format!(
        "{second_edited}\n{kept}\n{}",
        permission_notice("Red Hat", true)
    );
    let d = diff(&a, &b);
    check_invariants(&d, &a, &b);
    assert_eq!(
        d.moves.len(),
        2,
        "{}\n{:#?}",
        d.describe(),
        rows(&d, &a, &b)
    );
    assert!(
        d.moves.iter().all(|m| m.is_edited()),
        "{}\n{:#?}",
        d.describe(),
        rows(&d, &a, &b)
    );
    assert!(d.moves[0].left.start < d.moves[1].left.start);
    assert!(d.moves[0].right.start > d.moves[1].right.start);
    assert!(d.describe().starts_with("2 blocks of "), "{}", d.describe());
}

/// Words drawn from a vocabulary of 5,000 (most of a long text's words then recur, as in
/// prose, but long runs are rare), by a fixed linear congruential generator.
fn prose_like(words: usize, seed: u64) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..words)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("w{}", (state >> 33) % 5_000)
        })
        .collect()
}

/// A 20,000-word block moved from first to last with 10 words edited inside, across 25,000
/// unchanged words: found whole, within the time bounds (the alignment's and the search's).
#[test]
fn a_long_block_moved_with_edits_is_found_within_the_bounds() {
    let block = prose_like(20_000, 1);
    let rest = prose_like(25_000, 2);
    let mut edited = block.clone();
    for k in 0..10 {
        edited[1_000 + k * 1_700] = format!("edited{k}");
    }
    let a = [block.join(" "), rest.join(" ")].join("\n");
    let b = [rest.join(" "), edited.join(" ")].join("\n");
    let started = Instant::now();
    let d = diff(&a, &b);
    let elapsed = started.elapsed();
    check_invariants(&d, &a, &b);
    assert_eq!(d.moves.len(), 1, "{}", d.describe());
    let m = &d.moves[0];
    assert_eq!(
        (m.left_tokens, m.changed_left, m.changed_right),
        (20_000, 10, 10)
    );
    assert_eq!(
        d.describe(),
        "1 block of 20,000 words moved (10 words changed inside); over 99 % unchanged"
    );
    assert!(!d.moves_bounded && !d.approximate);
    // Two deadlines of 300 ms and the work around them, with room for a slow debug build.
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
}
