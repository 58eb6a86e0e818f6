//! A family's measured S-curve ([`FamilyCurve`]) on a corpus whose pairs share documents: for
//! the classic family, whose expected candidate rate per bin is exactly the formula's mean
//! over the bin's pairs, the intervals measured over 16 draws cover the formula about 95 % of
//! the time, over many independent measurements; intervals that treat every pair-draw as
//! independent cover it far less often, which shows the corpus really makes pairs move
//! together and the test can fail.

use lshscope_core::analysis::family_curve::FamilyCurve;
use lshscope_core::analysis::redraws::RedrawAgreement;
use lshscope_core::analysis::truth::brute_force_join;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{Banding, IndexOptions, SketchFamily, build_index};
use lshscope_core::text::{ShingleKind, ShingleOptions};
use lshscope_core::util::stats::{Z_95, wilson_interval_at};

use crate::corpora;
use corpora::dependent_corpus;

#[test]
fn classic_curve_intervals_cover_the_formula_on_families_and_chains() {
    let corpus = dependent_corpus(11);
    let options = IndexOptions {
        shingle: ShingleOptions {
            kind: ShingleKind::Word(1),
            ..ShingleOptions::default()
        },
        ..IndexOptions::default()
    };
    let index = build_index(&corpus, &options, &Progress::new()).unwrap();
    let truth = brute_force_join(&index.sets, 0.25);
    assert!(truth.len() > 1500, "{} truth pairs", truth.len());
    let banding = Banding::new(20, 5, 128).unwrap();
    let (mut checked, mut departed, mut departed_independent) = (0, 0, 0);
    for measurement in 0..30u64 {
        let draw_options = IndexOptions {
            seed: 1000 + measurement,
            ..options.clone()
        };
        let agreement =
            RedrawAgreement::compute(&index.sets, &truth, &draw_options, 16, &Progress::new())
                .unwrap();
        let curve = FamilyCurve::measure(SketchFamily::Classic, &agreement, &truth, banding, 20);
        assert_eq!(curve.draws, 16);
        // Bins where both a hit and a miss are likely say something about the spread.
        for bin in curve
            .bins
            .iter()
            .filter(|b| b.pairs >= 30 && b.predicted > 0.02 && b.predicted < 0.98)
        {
            checked += 1;
            departed += bin.departs() as usize;
            let (lo, hi) = wilson_interval_at(bin.rate, (bin.pairs * curve.draws) as f64, Z_95);
            departed_independent += (bin.predicted < lo || bin.predicted > hi) as usize;
        }
    }
    let rate = |k: usize| k as f64 / checked as f64;
    eprintln!(
        "{checked} bins: measured intervals depart {departed} ({:.3}), independent-pair \
         intervals {departed_independent} ({:.3})",
        rate(departed),
        rate(departed_independent)
    );
    assert!(checked >= 150, "{checked} bins");
    assert!(
        rate(departed_independent) > 0.12,
        "{}",
        rate(departed_independent)
    );
    // Nominal 5 %; the bins of one measurement share draws, so allow up to 10 %, and ask for
    // some departures so that intervals too wide to flag anything fail too.
    assert!(rate(departed) <= 0.10, "{}", rate(departed));
    assert!(departed >= 1, "never departed: intervals too wide");
}
