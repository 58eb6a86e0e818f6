//! `--profile`: lshscope's shingle strings (before hashing) against each tool's own output on
//! the tricky texts of `tests/fixtures/profiles/`. The fixtures were written by
//! `tests/fixtures/profiles/make_fixtures.py` running the tools themselves (datatrove with
//! spaCy, text-dedup's current source, pyspark on a local Spark, datasketch's README usage) or,
//! for NeMo Curator whose cuDF kernel needs a GPU, following cuDF's source; see that script.

use std::collections::BTreeSet;
use std::path::Path;

use lshscope_core::text::{Profile, ShingleKind, ShingleOptions, Shingler, shingle_hash};
use serde_json::Value;

struct Case {
    text: String,
    kind: ShingleKind,
    expected: BTreeSet<String>,
}

fn fixture(name: &str) -> (Value, Vec<Case>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/profiles")
        .join(format!("{name}.json"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut cases = Vec::new();
    for case in data["cases"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap().to_string();
        for (key, shingles) in case.as_object().unwrap() {
            // Other keys hold intermediate results (e.g. datatrove's simplified text) or
            // pipelines the profile does not claim (Spark's RegexTokenizer).
            let Ok(kind) = key.parse::<ShingleKind>() else {
                continue;
            };
            let expected = shingles
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            cases.push(Case {
                text: text.clone(),
                kind,
                expected,
            });
        }
    }
    (data, cases)
}

fn shingler(profile: Profile, kind: ShingleKind) -> Shingler {
    Shingler::new(ShingleOptions {
        kind,
        ..ShingleOptions::for_profile(profile)
    })
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Every fixture's shingle set is reproduced exactly; on a mismatch, the message lists each
/// differing case and the share of identical sets.
fn assert_reproduces(profile: Profile, name: &str) {
    let (_, cases) = fixture(name);
    assert!(cases.len() >= 20, "{name}: too few cases");
    let mut failures = Vec::new();
    for case in &cases {
        let mut s = shingler(profile, case.kind);
        let got: BTreeSet<String> = s.shingle_texts(&case.text).into_iter().collect();
        if got != case.expected {
            failures.push(format!(
                "{} {:?}\n  tool:     {:?}\n  lshscope: {:?}",
                case.kind, case.text, case.expected, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} of {} shingle sets differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn datatrove_profile_reproduces_datatrove() {
    assert_reproduces(Profile::Datatrove, "datatrove");
}

#[test]
fn datatrove_simplified_text_matches_simplify_text() {
    let (data, _) = fixture("datatrove");
    let mut s = shingler(Profile::Datatrove, ShingleKind::Word(5));
    for case in data["cases"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        assert_eq!(
            s.normalize(text),
            case["simplified"][0].as_str().unwrap(),
            "{text:?}"
        );
    }
}

#[test]
fn text_dedup_profile_reproduces_text_dedup() {
    assert_reproduces(Profile::TextDedup, "text-dedup");
}

#[test]
fn nemo_profile_reproduces_cudf_minhash_windows() {
    assert_reproduces(Profile::Nemo, "nemo");
}

#[test]
fn datasketch_profile_reproduces_its_readme_usage() {
    assert_reproduces(Profile::Datasketch, "datasketch");
}

#[test]
fn spark_profile_reproduces_tokenizer_and_ngram() {
    assert_reproduces(Profile::Spark, "spark");
}

/// The hashes the engine uses are the hashes of these strings, and the highlighted spans are
/// the same shingles, in the same order.
#[test]
fn hashes_and_spans_are_of_the_shingle_strings() {
    for (profile, name) in [
        (Profile::Datatrove, "datatrove"),
        (Profile::TextDedup, "text-dedup"),
        (Profile::Nemo, "nemo"),
        (Profile::Datasketch, "datasketch"),
        (Profile::Spark, "spark"),
    ] {
        let (_, cases) = fixture(name);
        for case in &cases {
            let mut s = shingler(profile, case.kind);
            let strings = s.shingle_texts(&case.text);
            let from_strings: Vec<u64> =
                strings.iter().map(|t| shingle_hash(t.as_bytes())).collect();
            let mut hashes = Vec::new();
            s.hashes(&case.text, &mut hashes);
            assert_eq!(hashes, from_strings, "{name} {} {:?}", case.kind, case.text);
            let spans = s.spans(&case.text);
            assert_eq!(
                spans.iter().map(|sp| sp.hash).collect::<Vec<_>>(),
                hashes,
                "{name} {:?}",
                case.text
            );
            for sp in &spans {
                assert!(
                    case.text.is_char_boundary(sp.range.start)
                        && case.text.is_char_boundary(sp.range.end)
                        && sp.range.start <= sp.range.end,
                    "{name} {:?}: span {:?}",
                    case.text,
                    sp.range
                );
            }
        }
    }
}

/// The default profile is lshscope's own, unchanged: its shingles differ from every tool's
/// on these texts (which is why profiles exist), and the Jaccard of two texts moves with the
/// profile.
#[test]
fn profiles_change_jaccard() {
    let a = "The Café opened in 2019; it's open daily.";
    let b = "the cafe opened in 2021 - its open daily!";
    let sets = |profile: Profile| {
        let mut s = Shingler::new(ShingleOptions {
            kind: ShingleKind::Word(1),
            ..ShingleOptions::for_profile(profile)
        });
        let x: BTreeSet<String> = s.shingle_texts(a).into_iter().collect();
        let y: BTreeSet<String> = s.shingle_texts(b).into_iter().collect();
        jaccard(&x, &y)
    };
    // datatrove: both simplify to the same words except "it s" vs "its".
    assert!(sets(Profile::Datatrove) > sets(Profile::Datasketch));
    assert_eq!(
        ShingleOptions::default(),
        ShingleOptions {
            profile: Profile::Lshscope,
            ..ShingleOptions::default()
        }
    );
}

/// Random texts from an alphabet of every kind of character the profiles treat specially
/// (digits of two scripts, separators, punctuation, combining marks, emoji, joiners, control
/// and whitespace bytes, capital sigma and dotted I): no panic, spans on char boundaries in
/// text order, hashes equal to the hashes of the shingle strings. A long text without spaces
/// stays fast (the tokenizer's lookups are bounded by the longest rule).
#[test]
fn random_texts_keep_every_invariant() {
    let alphabet: Vec<char> = "aZé0٣.,،'’-\u{301}\u{200d}😀€°kmΣİ \t\n\u{a0}\u{1c}\u{0}!?中"
        .chars()
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut texts: Vec<String> = (0..300)
        .map(|_| {
            let len = next(40);
            (0..len).map(|_| alphabet[next(alphabet.len())]).collect()
        })
        .collect();
    texts.push("0€😀".repeat(20_000));
    for profile in Profile::ALL {
        let kinds = [
            profile.default_shingle(),
            ShingleKind::Word(1),
            ShingleKind::Char(3),
        ];
        for kind in kinds
            .into_iter()
            .filter(|k| profile.check_shingle(*k).is_ok())
        {
            let mut s = shingler(profile, kind);
            for text in &texts {
                let strings = s.shingle_texts(text);
                let mut hashes = Vec::new();
                s.hashes(text, &mut hashes);
                let spans = s.spans(text);
                let expected: Vec<u64> =
                    strings.iter().map(|t| shingle_hash(t.as_bytes())).collect();
                assert_eq!(hashes, expected, "{profile} {kind} {text:?}");
                assert_eq!(spans.len(), hashes.len(), "{profile} {kind} {text:?}");
                let mut last_start = 0;
                for sp in &spans {
                    assert!(sp.range.start <= sp.range.end && sp.range.end <= text.len());
                    assert!(
                        text.is_char_boundary(sp.range.start)
                            && text.is_char_boundary(sp.range.end)
                    );
                    assert!(sp.range.start >= last_start, "{profile} {kind} {text:?}");
                    last_start = sp.range.start;
                }
            }
        }
    }
}
