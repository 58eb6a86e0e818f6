//! Labels that follow identical copies, and the labels file: Jaccard, time and copy rows
//! written and read back, files of the first format still loading.

use lshscope_core::analysis::labels::{
    Judgement, Label, LabelStore, MAX_COPY_ROWS, copy_pairs, rfc3339_utc,
};
use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{IdenticalGroups, IndexOptions, build_index};

/// Two license texts, each present twice (the second copy differs only in case and spacing,
/// which shingling normalizes away), a near copy of the first and an unrelated short text.
fn corpus() -> Corpus {
    let mit = "Permission is hereby granted, free of charge, to any person obtaining a copy \
               of this software and associated documentation files, to deal in the Software \
               without restriction, including without limitation the rights to use, copy, modify";
    let x11 = "Permission is hereby granted, free of charge, to any person obtaining a copy \
               of this software and associated documentation files, to deal in the Software \
               without restriction, subject to the conditions of the X Consortium notice";
    Corpus::from_pairs([
        ("libxss1", mit.to_string()),
        ("libxxf86dga1", x11.to_string()),
        ("libxss-dev", mit.to_uppercase()),
        ("libxxf86dga-dev", x11.replace(' ', "  ")),
        ("libxfixes3", format!("{mit}, merge and publish")),
        ("hello", "a short unrelated text".to_string()),
    ])
}

fn groups(corpus: &Corpus) -> IdenticalGroups {
    let index = build_index(corpus, &IndexOptions::default(), &Progress::new()).unwrap();
    IdenticalGroups::find(&index.sets)
}

#[test]
fn a_label_covers_every_pair_of_copies_of_its_two_texts() {
    let corpus = corpus();
    let groups = groups(&corpus);
    // The normalized copies share their originals' shingle sets.
    assert_eq!(groups.members_of(2), &[0, 2]);
    assert_eq!(groups.members_of(3), &[1, 3]);
    assert_eq!(groups.members_of(4), &[4]);
    // The judged pair first, then its three copy pairs; a pair within one group is its own.
    assert_eq!(
        copy_pairs(&groups, 0, 1, 100),
        [(0, 1), (0, 3), (1, 2), (2, 3)]
    );
    assert_eq!(copy_pairs(&groups, 3, 2, 100)[0], (2, 3));
    assert_eq!(copy_pairs(&groups, 0, 2, 100), [(0, 2)]);
    assert_eq!(copy_pairs(&groups, 4, 5, 100), [(4, 5)]);
    assert_eq!(
        copy_pairs(&groups, 0, 1, 2),
        [(0, 1), (0, 3)],
        "at most `limit`"
    );

    // Labelled through the store, reopened: every copy pair has the label, the unrelated
    // pair none, and the file names the judged pair on each copy row.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("labels.csv");
    let mut store = LabelStore::new(&path);
    let id = |p: u32| corpus.id(p as usize);
    let pairs = copy_pairs(&groups, 0, 1, MAX_COPY_ROWS);
    let copies: Vec<(&str, &str)> = pairs[1..].iter().map(|&(a, b)| (id(a), id(b))).collect();
    let judgement = Judgement {
        label: Label::NotDuplicate,
        jaccard: 0.75,
        labelled_at: "2026-11-28T11:40:00Z".to_string(),
    };
    store.judge((id(0), id(1)), &copies, Some(&judgement));
    store.save().unwrap();
    let again = LabelStore::load(&path).unwrap();
    assert_eq!((again.len(), again.judged()), (4, 1));
    let copy = again.entry("libxxf86dga-dev", "libxss-dev").unwrap();
    assert_eq!(copy.label, Label::NotDuplicate);
    assert_eq!(copy.jaccard, Some(0.75));
    assert_eq!(copy.labelled_at.as_deref(), Some("2026-11-28T11:40:00Z"));
    assert_eq!(
        copy.copy_of,
        Some(("libxss1".to_string(), "libxxf86dga1".to_string()))
    );
    let by_group = again.by_group(&corpus, &groups);
    for (a, b) in [(0, 1), (0, 3), (1, 2), (2, 3), (3, 0)] {
        assert_eq!(
            by_group.get(&groups, a, b),
            Some(Label::NotDuplicate),
            "{a},{b}"
        );
    }
    assert_eq!(by_group.get(&groups, 0, 4), None);
    assert_eq!(by_group.get(&groups, 4, 5), None);

    // A newer judgement of a copy pair replaces the whole group's: one judged row, the old
    // judged pair now a copy of the new one.
    let pairs = copy_pairs(&groups, 2, 3, MAX_COPY_ROWS);
    let copies: Vec<(&str, &str)> = pairs[1..].iter().map(|&(a, b)| (id(a), id(b))).collect();
    let newer = Judgement {
        label: Label::Duplicate,
        ..judgement
    };
    let mut store = again;
    store.judge((id(2), id(3)), &copies, Some(&newer));
    assert_eq!((store.len(), store.judged()), (4, 1));
    assert_eq!(
        store.entry("libxss1", "libxxf86dga1").unwrap().copy_of,
        Some(("libxss-dev".to_string(), "libxxf86dga-dev".to_string()))
    );
    assert!(store.iter().all(|(_, _, l)| l == Label::Duplicate));
    // Removing it removes every copy row with it.
    store.judge((id(2), id(3)), &copies, None);
    assert!(store.is_empty());
}

#[test]
fn files_of_the_first_format_still_load_and_are_rewritten_with_every_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("labels.csv");
    std::fs::write(
        &path,
        "id_a,id_b,label\nlibxss1,libxxf86dga1,duplicate\nhello,libxfixes3,n\n",
    )
    .unwrap();
    let mut store = LabelStore::load(&path).unwrap();
    assert_eq!(store.len(), 2);
    let old = store.entry("libxxf86dga1", "libxss1").unwrap();
    assert_eq!((old.jaccard, old.labelled_at.as_deref()), (None, None));
    assert_eq!(old.copy_of, None);
    // Judged in the first format, copies found on opening a corpus.
    let corpus = corpus();
    let groups = groups(&corpus);
    let by_group = store.by_group(&corpus, &groups);
    assert_eq!(by_group.get(&groups, 2, 3), Some(Label::Duplicate));
    assert_eq!(by_group.get(&groups, 4, 5), Some(Label::NotDuplicate));
    assert_eq!(by_group.matched(), 2);

    let at = rfc3339_utc(std::time::SystemTime::now());
    store.judge(
        ("hello", "libxss1"),
        &[],
        Some(&Judgement {
            label: Label::Unsure,
            jaccard: 0.0,
            labelled_at: at.clone(),
        }),
    );
    store.save().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "id_a,id_b,label,jaccard,labelled_at,copy_of_a,copy_of_b",
            "hello,libxfixes3,not_duplicate,,,,",
            &format!("hello,libxss1,unsure,0,{at},,"),
            "libxss1,libxxf86dga1,duplicate,,,,",
        ]
    );
}

#[test]
fn malformed_new_columns_name_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("labels.csv");
    let header = "id_a,id_b,label,jaccard,labelled_at,copy_of_a,copy_of_b\n";
    std::fs::write(
        &path,
        format!("{header}a,b,duplicate,0.5,,,\nc,d,duplicate,1.5,,,\n"),
    )
    .unwrap();
    let err = LabelStore::load(&path).unwrap_err().to_string();
    assert!(err.contains(":3:") && err.contains("1.5"), "{err}");
    std::fs::write(&path, format!("{header}a,b,duplicate,,,x,\n")).unwrap();
    let err = LabelStore::load(&path).unwrap_err().to_string();
    assert!(err.contains(":2:") && err.contains("copy_of_a"), "{err}");
}
