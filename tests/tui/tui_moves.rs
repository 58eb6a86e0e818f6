//! Issue 38, item 5: a pair whose permission notice stands first in one text and last in the
//! other, with other holders, opened in the viewer's diff mode. The notice is recognised as one
//! moved block with a few words changed inside, laid out once with both copies side by side
//! (the edits inside marked, a marker row at each of its places), and the summary says so;
//! the right pane opens on B's copy of the notice, not on filler.

use crate::tui_support;

use lshscope::tui::aligned::{MovePlace, ScreenRow};
use lshscope::tui::app::{App, View};
use lshscope::tui::keys::Command;
use lshscope_core::corpus::Corpus;
use lshscope_core::diff::Side;
use tui_support::*;

/// A licence-like notice of about 150 words naming `holder` three times.
fn notice(holder: &str) -> String {
    format!(
        "Permission is hereby given, free of charge, to any person who obtains a copy of this \
         toolkit and the manuals that come with it, to use, copy, change, merge, publish and \
         hand on copies of the toolkit, on the condition that the notice of {holder} above \
         and this permission notice are kept in every copy or large portion of it.\n\n\
         THE TOOLKIT IS OFFERED AS IT STANDS, WITHOUT A PROMISE OF ANY KIND, SPOKEN OR \
         IMPLIED, INCLUDING BUT NOT LIMITED TO PROMISES THAT IT WILL SELL OR SERVE ANY \
         PURPOSE. IN NO CASE SHALL {holder} BE ANSWERABLE FOR ANY CLAIM, LOSS OR OTHER \
         HARM, WHETHER IN A SUIT OVER A CONTRACT, A WRONG OR ANYTHING ELSE, THAT ARISES FROM \
         OR IS TIED TO THE TOOLKIT OR ITS USE.\n\n\
         The name of {holder} shall not be used to promote goods made from this toolkit \
         without written consent given beforehand."
    )
}

/// The rest of both files: the packaging section, about 200 words, the same in both (longer
/// than the notice, so the notice is what moved).
const PACKAGING: &str = "Files: packaging/*\nCopyright: 2015-2019 The Grey Lantern Packagers\n\
    License: same-as-upstream\n The packaging scripts were written for this archive by its \
    volunteers and may be reused under the terms of the toolkit itself. Patches carried here \
    are sent upstream when they are of use there, and each names the person who wrote it in \
    its header so questions reach the right desk. Builds are made in a clean room from the \
    signed release files; the checksums of those files are kept beside the scripts, and a \
    build that does not match them stops before anything is compiled. When a release changes \
    its terms, the packagers read the new terms line by line, write down what moved and what \
    is new, and hold the upload until someone who did not do the reading has checked it. \
    Translations of the manuals are welcome and follow the same terms as the manuals they \
    come from; a translator keeps the right to be named in the file that lists the \
    contributors, and may ask to be left out of it. Reports of a problem with the packaging \
    go to the archive's tracker, not to the upstream authors, who cannot fix what they did \
    not write. Old versions of the scripts stay in the archive's history for anyone who \
    needs to rebuild a past release exactly as it was shipped.";

/// A: the notice of Oren Vasquez first, then the packaging; B: the packaging, then the same
/// notice of Tilda Marsh & Co.
fn pair() -> (String, String) {
    let a = format!(
        "Copyright 2004 Oren Vasquez\n\n{}\n\n{PACKAGING}\n",
        notice("Oren Vasquez")
    );
    let b = format!(
        "{PACKAGING}\n\nCopyright 2011 Tilda Marsh & Co.\n\n{}\n",
        notice("Tilda Marsh & Co.")
    );
    (a, b)
}

/// The pair open in diff mode at `size`.
fn viewer_in_diff_mode(dir: &std::path::Path, size: (u16, u16)) -> App {
    let (a, b) = pair();
    let corpus = Corpus::from_pairs([("notice-first", a.as_str()), ("notice-last", b.as_str())]);
    let mut app = new_app(dir, size);
    app.update(lshscope::tui::app::Action::Loaded(Box::new(Ok(loaded(
        corpus,
    )))));
    run_effects(&mut app);
    cmd(&mut app, Command::Open);
    assert!(matches!(app.view(), View::Viewer { .. }), "the pair opens");
    cmd(&mut app, Command::ToggleDiff);
    assert!(app.viewer().diff_mode());
    app
}

#[test]
fn a_moved_notice_is_aligned_side_by_side_and_summarised_as_a_move() {
    for (w, h) in [(80u16, 24u16), (160, 45)] {
        let dir = tempfile::tempdir().unwrap();
        let app = viewer_in_diff_mode(dir.path(), (w, h));
        let (a, b) = pair();
        let view = app.viewer().pair().unwrap();
        let diff = view.diff().unwrap();
        assert_eq!(diff.moves.len(), 1, "{}", diff.describe());
        let block = &diff.moves[0];
        assert!(block.is_edited());
        assert_eq!(
            diff.describe(),
            "1 block of 151 words moved (6 words changed inside, into 12); 6 words inserted, \
             4 deleted; 96 % unchanged"
        );
        let layout = view.aligned().unwrap();
        // The old place is near the top, after A's line of holders: its marker, then A's
        // notice beside B's copy. The new place is marked in both panes.
        let (old_row, new_row) = layout.move_rows[0];
        assert!(old_row <= 2 && new_row > old_row, "{:?}", layout.move_rows);
        for (row, place) in [(old_row, MovePlace::Old), (new_row, MovePlace::New)] {
            let marker = ScreenRow::Move { block: 0, place };
            assert_eq!((&layout.left[row], &layout.right[row]), (&marker, &marker));
        }
        // Every row of the block's unchanged words sits beside the same words in B.
        let inner = diff.move_diff(0);
        let row_of = |rows: &[ScreenRow], byte: usize| {
            rows.iter()
                .position(|r| matches!(r, ScreenRow::Text(t) if t.contains(&byte)))
                .unwrap()
        };
        for row in inner.rows.iter().filter(|r| r.kind.is_equal()) {
            let (l, r) = (
                row_of(&layout.left, block.left.start + row.left.start),
                row_of(&layout.right, block.right.start + row.right.start),
            );
            assert_eq!(l, r, "{:?}", &a[block.left.start + row.left.start..][..20]);
            assert!(l > old_row && l < new_row);
        }
        // No word of B is laid out twice, none is lost: the right pane holds each of B's
        // words once, its notice beside A's.
        let words_shown: usize = layout
            .rows(Side::Right)
            .iter()
            .filter_map(|r| match r {
                ScreenRow::Text(t) => Some(b[t.clone()].split_whitespace().count()),
                _ => None,
            })
            .sum();
        assert_eq!(words_shown, b.split_whitespace().count());

        let s = screen(&app, w, h);
        // The summary whole where it fits, in its brief form at 80 columns.
        let summary = if w >= 160 {
            format!("diff {}", diff.describe())
        } else {
            "diff 151 words moved (6 changed inside); 96 % unchanged; 6 inserted, 4 deleted"
                .to_string()
        };
        assert!(s.contains(&summary), "{s}");
        assert!(s.contains("▾ moved: B has it at line"), "{s}");
        // The right pane opens on B's copy of the notice, not on filler.
        let first_text_row = s
            .lines()
            .find(|l| l.contains("▾ moved: B has it"))
            .expect("the marker row is on the first page");
        assert!(!first_text_row.contains('╌'), "{s}");
        assert!(s.contains("Permission is hereby given"), "{s}");
        assert_eq!(
            s.matches("Permission is hereby given").count(),
            2,
            "both copies side by side: {s}"
        );
        insta::assert_snapshot!(format!("moved_notice_{w}x{h}"), s);

        // `]` twice reaches the notice's new place, which says where it is shown.
        let mut app = app;
        cmd(&mut app, Command::NextDifference);
        cmd(&mut app, Command::NextDifference);
        let s = screen(&app, w, h);
        assert!(s.contains("▴ B has it here, shown at line"), "{s}");
        insta::assert_snapshot!(format!("moved_notice_new_place_{w}x{h}"), s);
    }
}
