//! Corpora for the statistics tests, shaped so that pairs share documents and move together.

use lshscope_core::corpus::Corpus;
use lshscope_core::util::rng::SplitMix64;

/// Families whose members are the base text with a share of words replaced (each member its
/// own share, so pairs spread over the similarity range), and chains where each text edits the
/// one before. Every pair of a family or a chain shares a document with many others.
pub fn dependent_corpus(seed: u64) -> Corpus {
    let mut rng = SplitMix64::new(seed);
    let word = |rng: &mut SplitMix64| format!("w{}", rng.below(4000));
    let mut texts = Vec::new();
    for _ in 0..10 {
        let base: Vec<String> = (0..60).map(|_| word(&mut rng)).collect();
        for _ in 0..14 {
            let share = 0.05 + 0.4 * rng.unit();
            let member: Vec<String> = base
                .iter()
                .map(|w| {
                    if rng.unit() < share {
                        word(&mut rng)
                    } else {
                        w.clone()
                    }
                })
                .collect();
            texts.push(member.join(" "));
        }
    }
    for _ in 0..6 {
        let mut text: Vec<String> = (0..60).map(|_| word(&mut rng)).collect();
        for _ in 0..18 {
            texts.push(text.join(" "));
            for w in text.iter_mut() {
                if rng.unit() < 0.07 {
                    *w = word(&mut rng);
                }
            }
        }
    }
    Corpus::from_texts(texts)
}
