//! Signatures from the shingle stream (`signatures_of_texts`, no sets built) against the
//! signatures the index computes from each document's sorted, distinct set (`build_index`):
//! bit-identical in every family, at several K and seeds, for every shingling profile, on the
//! sample data, generated job ads and template corpora, empty and short texts, texts of one
//! repeated shingle and odd bytes. Every existing output rests on these rows, so none may move.

use std::path::Path;

use lshscope_core::corpus::{Corpus, ReadOptions, read_corpus};
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{IndexOptions, SketchFamily, build_index, signatures_of_texts};
use lshscope_core::synthetic::jobads::{JobAdOptions, generate_job_ads};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use lshscope_core::text::{Profile, ShingleKind, ShingleOptions};
use lshscope_core::util::rng::SplitMix64;

/// Asserts the two ways give the same rows and the same shingleless documents.
fn assert_same_signatures(corpus: &Corpus, options: &IndexOptions, what: &str) {
    let index = build_index(corpus, options, &Progress::new()).unwrap();
    let streamed = signatures_of_texts(corpus, options, &Progress::new()).unwrap();
    let case = format!(
        "{what}: {}, K = {}, seed {}, {:?}",
        options.family, options.num_perm, options.seed, options.shingle
    );
    assert_eq!(streamed.len(), corpus.len(), "{case}");
    assert_eq!(streamed.num_perm(), options.num_perm, "{case}");
    for d in 0..corpus.len() {
        assert_eq!(
            streamed.is_empty_doc(d),
            index.signatures.is_empty_doc(d),
            "{case}, doc {d}"
        );
        assert_eq!(
            streamed.row(d),
            index.signatures.row(d),
            "{case}, doc {d}: {:?}",
            corpus.text(d)
        );
    }
}

/// Every family at K = 128 (the default), at a K below a vector's width and at one above
/// 128, with other seeds.
fn every_family(corpus: &Corpus, shingle: &ShingleOptions, what: &str) {
    every_family_at(corpus, shingle, what, &[(128, 1), (7, 42), (256, 9)]);
}

fn every_family_at(corpus: &Corpus, shingle: &ShingleOptions, what: &str, ks: &[(usize, u64)]) {
    for family in SketchFamily::ALL {
        for &(num_perm, seed) in ks {
            let options = IndexOptions {
                shingle: shingle.clone(),
                num_perm,
                seed,
                family,
            };
            assert_same_signatures(corpus, &options, what);
        }
    }
}

/// The first `docs` documents of a sample file (the tests run unoptimized enough that all
/// 20,000 job ads in every profile would take minutes).
fn sample(name: &str, docs: usize) -> Corpus {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../sample_data")
        .join(name);
    let whole = read_corpus(&path, &ReadOptions::default(), &Progress::new())
        .unwrap()
        .0;
    Corpus::from_pairs((0..whole.len().min(docs)).map(|i| (whole.id(i), whole.text(i))))
}

#[test]
fn stream_signatures_equal_set_signatures_on_the_sample_data() {
    let jobs = sample("jobs.csv", usize::MAX);
    assert_eq!(jobs.len(), 20_000);
    every_family_at(&jobs, &ShingleOptions::default(), "jobs.csv", &[(128, 1)]);
    let jobs = sample("jobs.csv", 3000);
    every_family(&jobs, &ShingleOptions::default(), "jobs.csv");
    let questions = sample("questions.txt", usize::MAX);
    assert_eq!(questions.len(), 40);
    every_family(&questions, &ShingleOptions::default(), "questions.txt");
}

#[test]
fn stream_signatures_equal_set_signatures_for_every_profile() {
    // Word shingles repeat far more within a text than char shingles do (a word 1-gram per
    // occurrence of "the"): the case where stream and set differ most in length.
    let corpus = sample("jobs.csv", 1000);
    for profile in Profile::ALL {
        every_family_at(
            &corpus,
            &ShingleOptions::for_profile(profile),
            profile.name(),
            &[(128, 5)],
        );
    }
    let words = ShingleOptions {
        kind: ShingleKind::Word(1),
        ..ShingleOptions::default()
    };
    every_family(&corpus, &words, "word 1-shingles");
}

#[test]
fn stream_signatures_equal_set_signatures_on_generated_corpora() {
    // Template families, verbatim copies, quotes and non-ASCII characters (the general
    // shingling path), short and long texts; and job ads with reposts and boilerplate.
    let templates = generate_templated(&TemplateOptions {
        docs: 2000,
        seed: 7,
        identical_group: 60,
        template_family: 40,
        ..TemplateOptions::default()
    })
    .corpus;
    every_family(&templates, &ShingleOptions::default(), "gen --templates");
    let jobs = generate_job_ads(&JobAdOptions {
        documents: 1000,
        ..JobAdOptions::default()
    })
    .corpus;
    every_family(&jobs, &ShingleOptions::default(), "gen --kind jobs");
}

#[test]
fn stream_signatures_equal_set_signatures_on_short_repetitive_and_odd_texts() {
    let mut rng = SplitMix64::new(3);
    let mut texts: Vec<String> = vec![
        String::new(),
        " ".into(),
        "\n\t\r ".into(),
        "a".into(),
        "abcd".into(),
        "abcde".into(),
        "ABCDE".into(),
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into(),
        "ab".repeat(3000),
        "the cat. ".repeat(500),
        "\u{0}\u{1}\u{7f}\u{0}\u{1}\u{7f}\u{0}".into(),
        "\u{feff}byte order mark, then text".into(),
        "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301} combining accents".into(),
        "İstanbul ǅemal ß ﬁ ΣΑΣ".into(),
        "emoji 😀😀😀😀😀😀 👩‍👩‍👧 flags 🇫🇷🇩🇪".into(),
        "עברית ومن العربية mixed with left-to-right".into(),
        "中文文本没有空格中文文本没有空格".into(),
        "\u{2028}line\u{2029}separators\u{85}next line\u{a0}no-break".into(),
        "tabs\tand\u{3000}ideographic\u{2003}spaces".into(),
    ];
    // Random mixes of ASCII, Latin-1, CJK and astral characters, of every length up to a few
    // hundred characters (across the sort's small and bucketed paths and the 64-byte blocks).
    let alphabet: Vec<char> = "ab cdé\u{0}\t.ΣЖ中😀\u{301}\n".chars().collect();
    for len in (0..300).step_by(7) {
        texts.push(
            (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect(),
        );
    }
    let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
    every_family(&corpus, &ShingleOptions::default(), "short and odd texts");
    for profile in Profile::ALL {
        every_family_at(
            &corpus,
            &ShingleOptions::for_profile(profile),
            profile.name(),
            &[(128, 5)],
        );
    }
    let nfkc = ShingleOptions {
        nfkc: true,
        strip_punct: true,
        lowercase: false,
        ..ShingleOptions::default()
    };
    every_family(&corpus, &nfkc, "nfkc, no punctuation, case kept");
}

#[test]
fn stream_signatures_check_k_as_the_index_does() {
    let corpus = Corpus::from_texts(["some text"]);
    for num_perm in [0, 4097] {
        let options = IndexOptions {
            num_perm,
            ..IndexOptions::default()
        };
        let streamed = signatures_of_texts(&corpus, &options, &Progress::new()).unwrap_err();
        let built = build_index(&corpus, &options, &Progress::new()).unwrap_err();
        assert_eq!(streamed.to_string(), built.to_string());
    }
}
