//! Corpora shaped like real dumps: template families with power-law sizes, identical copies,
//! short and long texts, quotes and non-ASCII characters.
//!
//! Package summaries, job ads and product pages are mostly generated from boilerplate: a few
//! families have thousands of members that differ in a word or two, many members are verbatim
//! copies, and most documents are unique. Such corpora are what break pair-based designs (a
//! bucket of m documents is m(m−1)/2 pairs), so the engine is measured and tested on them.

use crate::corpus::Corpus;
use crate::util::rng::SplitMix64;

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateOptions {
    /// Documents in the corpus.
    pub docs: usize,
    /// Seed of every random choice: the same options give the same corpus.
    pub seed: u64,
    /// Family sizes follow a Pareto law with this exponent (1.1: a heavy tail, most families
    /// of one document) ...
    pub pareto_alpha: f64,
    /// ... capped at this many members.
    pub max_family: usize,
    /// Share of a family's members that copy its first member verbatim.
    pub copy_share: f64,
    /// A planted group of this many verbatim copies of one text (0: none).
    pub identical_group: usize,
    /// A planted family of this many edited copies of one template (0: none).
    pub template_family: usize,
}

impl Default for TemplateOptions {
    fn default() -> Self {
        TemplateOptions {
            docs: 100_000,
            seed: 1,
            pareto_alpha: 1.1,
            max_family: 15_000,
            copy_share: 0.3,
            identical_group: 0,
            template_family: 0,
        }
    }
}

/// A generated corpus and the family of each document (families numbered from 0; the planted
/// identical group is family 0 and the planted template family the next, when asked for).
#[derive(Debug, Clone)]
pub struct TemplateCorpus {
    /// The generated documents, shuffled so families are not contiguous; ids `t0000001`, `t0000002`, …
    pub corpus: Corpus,
    /// `family[d]`: the family of document `d`, one entry per document.
    pub family: Vec<u32>,
    /// `member[d]`: how document `d` was made from its family's template.
    pub member: Vec<Member>,
}

/// How a document of a template corpus was made: the ground truth a families file names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    /// The only document of its family.
    Unique,
    /// The first member of a family of two or more: the text its copies repeat.
    First,
    /// A verbatim copy of its family's first member.
    Copy,
    /// The template with 0–3 words replaced (with none it can equal the first member).
    Edited,
    /// A member of the planted group of verbatim copies (`identical_group`).
    IdenticalGroup,
    /// A member of the planted family of edited copies (`template_family`).
    TemplateFamily,
}

impl Member {
    /// The name a families file gives it.
    pub fn name(self) -> &'static str {
        match self {
            Member::Unique => "unique",
            Member::First => "first",
            Member::Copy => "copy",
            Member::Edited => "edited",
            Member::IdenticalGroup => "identical-group",
            Member::TemplateFamily => "template-family",
        }
    }
}

/// Syllables the pseudo-words are made of (no real words, so no real text is reproduced).
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ner", "sta", "ru", "vel", "tor", "ia", "que", "bren", "dal", "fo", "gri",
    "hu", "jas", "ko", "lum", "mor", "nu", "pel", "qua", "ris", "sol", "ten", "ul", "vor", "wen",
    "xi", "yal", "zor", "ble", "cra", "dri", "fle", "glo", "pra", "tre",
];

/// Fragments real dumps carry: quotes, HTML entities, typographic marks, accents.
const ODD: &[&str] = &[
    "\"", "“", "”", "’s", "&amp;", "naïve", "café", "—", "™", "½", "…", "(beta)", "v2.0",
];

/// Template lengths in words: short summaries (~70 characters) to long descriptions (~500).
const TEMPLATE_WORDS: &[usize] = &[10, 12, 16, 30, 60, 80];

/// The generator's draws, on the crate's one random generator.
struct Stream(SplitMix64);

impl Stream {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        self.0.unit()
    }
}

fn vocabulary(rng: &mut Stream, words: usize) -> Vec<String> {
    (0..words)
        .map(|_| {
            let syllables = 1 + rng.below(3);
            (0..syllables)
                .map(|_| SYLLABLES[rng.below(SYLLABLES.len())])
                .collect()
        })
        .collect()
}

/// A template: its words, and now and then an odd fragment in place of a word.
fn template(rng: &mut Stream, vocab: &[String], words: usize) -> Vec<String> {
    (0..words)
        .map(|_| {
            if rng.unit() < 0.04 {
                ODD[rng.below(ODD.len())].to_string()
            } else {
                vocab[rng.below(vocab.len())].clone()
            }
        })
        .collect()
}

/// A member of a family: the template with 0–3 words replaced (or, for short templates, at
/// most 1, so short members stay near-duplicates), sometimes quoted at the ends.
fn member(rng: &mut Stream, vocab: &[String], template: &[String]) -> String {
    let mut words = template.to_vec();
    let max_edits = if words.len() <= 12 { 2 } else { 4 };
    for _ in 0..rng.below(max_edits) {
        let at = rng.below(words.len());
        words[at] = vocab[rng.below(vocab.len())].clone();
    }
    let mut text = words.join(" ");
    if rng.unit() < 0.05 {
        text.insert(0, '"');
    }
    if rng.unit() < 0.03 {
        text.push('"');
    }
    text
}

/// Generates `options.docs` documents in shuffled order, ids `t0000001`, `t0000002`, ….
pub fn generate_templated(options: &TemplateOptions) -> TemplateCorpus {
    let mut rng = Stream(SplitMix64::new(options.seed ^ 0x7465_6d70_6c61_7465));
    let vocab = vocabulary(&mut rng, 20_000);
    let n = options.docs;
    let mut texts: Vec<(u32, Member, String)> = Vec::with_capacity(n);
    let mut family = 0u32;
    let mut planted =
        |size: usize, copies: bool, texts: &mut Vec<(u32, Member, String)>, rng: &mut Stream| {
            let size = size.min(n - texts.len());
            if size == 0 {
                return;
            }
            let words = TEMPLATE_WORDS[rng.below(TEMPLATE_WORDS.len())];
            let t = template(rng, &vocab, words);
            let first = member(rng, &vocab, &t);
            for i in 0..size {
                let text = if copies || i == 0 {
                    first.clone()
                } else {
                    member(rng, &vocab, &t)
                };
                let kind = if copies {
                    Member::IdenticalGroup
                } else {
                    Member::TemplateFamily
                };
                texts.push((family, kind, text));
            }
            family += 1;
        };
    planted(options.identical_group, true, &mut texts, &mut rng);
    planted(options.template_family, false, &mut texts, &mut rng);
    while texts.len() < n {
        // Pareto by inversion: size = floor(U^(-1/α)), at least 1.
        let u = rng.unit().max(f64::MIN_POSITIVE);
        let size = (u.powf(-1.0 / options.pareto_alpha) as usize).clamp(1, options.max_family);
        let size = size.min(n - texts.len());
        let words = TEMPLATE_WORDS[rng.below(TEMPLATE_WORDS.len())];
        let t = template(&mut rng, &vocab, words);
        let first = member(&mut rng, &vocab, &t);
        for i in 0..size {
            // The draws are the ones made before families were recorded, so a corpus stays
            // the same byte for byte.
            let (kind, text) = if i == 0 {
                let kind = if size == 1 {
                    Member::Unique
                } else {
                    Member::First
                };
                (kind, first.clone())
            } else if rng.unit() < options.copy_share {
                (Member::Copy, first.clone())
            } else {
                (Member::Edited, member(&mut rng, &vocab, &t))
            };
            texts.push((family, kind, text));
        }
        family += 1;
    }
    // Real dumps are not sorted by family.
    for i in (1..texts.len()).rev() {
        let j = rng.below(i + 1);
        texts.swap(i, j);
    }
    let mut corpus = Corpus::new();
    let mut families = Vec::with_capacity(n);
    let mut members = Vec::with_capacity(n);
    for (k, (f, kind, text)) in texts.into_iter().enumerate() {
        corpus.push(&format!("t{:07}", k + 1), &text);
        families.push(f);
        members.push(kind);
    }
    TemplateCorpus {
        corpus,
        family: families,
        member: members,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_follow_the_options() {
        let out = generate_templated(&TemplateOptions {
            docs: 50_000,
            identical_group: 3_000,
            template_family: 1_000,
            ..TemplateOptions::default()
        });
        assert_eq!(out.corpus.len(), 50_000);
        let mut sizes = std::collections::HashMap::<u32, usize>::new();
        for &f in &out.family {
            *sizes.entry(f).or_default() += 1;
        }
        assert_eq!((sizes[&0], sizes[&1]), (3_000, 1_000));
        // The planted copies are one text.
        let copies: std::collections::HashSet<&str> = (0..out.corpus.len())
            .filter(|&d| out.family[d] == 0)
            .map(|d| out.corpus.text(d))
            .collect();
        assert_eq!(copies.len(), 1);
        // Every document says how it was made: planted families by name, a family of one as
        // unique, a copy as the very text of its family's first member.
        let mut first_text = std::collections::HashMap::new();
        for d in 0..out.corpus.len() {
            let (f, kind) = (out.family[d], out.member[d]);
            match f {
                0 => assert_eq!(kind, Member::IdenticalGroup),
                1 => assert_eq!(kind, Member::TemplateFamily),
                _ => assert_eq!(kind == Member::Unique, sizes[&f] == 1, "document {d}"),
            }
            if kind == Member::First {
                assert!(first_text.insert(f, out.corpus.text(d)).is_none());
            }
        }
        for d in 0..out.corpus.len() {
            if out.member[d] == Member::Copy {
                assert_eq!(out.corpus.text(d), first_text[&out.family[d]]);
            }
        }
        let edited = out.member.iter().filter(|&&m| m == Member::Edited).count();
        let copied = out.member.iter().filter(|&&m| m == Member::Copy).count();
        assert!(
            edited > copied && copied > 0,
            "{edited} edited, {copied} copies"
        );
        // A heavy tail: mostly singletons, yet families in the thousands.
        let singletons = sizes.values().filter(|&&s| s == 1).count();
        assert!(
            singletons * 2 > sizes.len(),
            "{singletons} of {}",
            sizes.len()
        );
        assert!(sizes.values().filter(|&&s| s >= 500).count() >= 3);
        // Short and long texts, quotes and non-ASCII.
        let lengths: Vec<usize> = (0..out.corpus.len())
            .map(|d| out.corpus.text(d).len())
            .collect();
        assert!(lengths.iter().any(|&l| l < 90) && lengths.iter().any(|&l| l > 400));
        assert!((0..out.corpus.len()).any(|d| out.corpus.text(d).starts_with('"')));
        assert!((0..out.corpus.len()).any(|d| !out.corpus.text(d).is_ascii()));
        // Shuffled: the planted copies are spread over the corpus.
        let first_copy = out.family.iter().position(|&f| f == 0).unwrap();
        assert!(first_copy < 1_000);
        assert!(out.family[40_000..].contains(&0));
    }

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        let options = TemplateOptions {
            docs: 2_000,
            seed: 9,
            ..TemplateOptions::default()
        };
        let (a, b) = (generate_templated(&options), generate_templated(&options));
        assert!((0..2_000).all(|d| a.corpus.text(d) == b.corpus.text(d)));
        let other = generate_templated(&TemplateOptions {
            seed: 10,
            ..options
        });
        assert!((0..2_000).any(|d| a.corpus.text(d) != other.corpus.text(d)));
    }
}
