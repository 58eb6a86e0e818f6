use super::*;

fn opts(kind: &str) -> ShingleOptions {
    ShingleOptions {
        kind: kind.parse().unwrap(),
        ..Default::default()
    }
}

fn texts(kind: &str, text: &str) -> Vec<String> {
    let mut s = Shingler::new(opts(kind));
    s.spans(text)
        .into_iter()
        .map(|sp| text[sp.range].to_string())
        .collect()
}

#[test]
fn normalizes_case_and_whitespace() {
    let mut s = Shingler::new(opts("char:3"));
    assert_eq!(s.normalize("  Hello\t\n  WORLD  "), "hello world");
    assert_eq!(s.normalize("ÉCOLE   Über"), "école über");
    let mut p = Shingler::new(ShingleOptions {
        strip_punct: true,
        ..opts("char:3")
    });
    assert_eq!(p.normalize("Don't, stop!  now."), "dont stop now");
    let mut n = Shingler::new(ShingleOptions {
        nfkc: true,
        ..opts("char:3")
    });
    assert_eq!(n.normalize("ﬁne Ｆｕｌｌ e\u{301}"), "fine full é");
}

#[test]
fn tracking_origins_does_not_change_the_normalized_text() {
    let samples = [
        "  Mixed CASE\ttext,\x0b with\r\npunctuation!! ",
        "",
        "   ",
        "a",
        "x\x01y  z",
    ];
    for strip_punct in [false, true] {
        for lowercase in [false, true] {
            let o = ShingleOptions {
                kind: ShingleKind::Char(3),
                lowercase,
                nfkc: false,
                strip_punct,
                profile: Profile::Lshscope,
            };
            let mut a = Shingler::new(o.clone());
            let mut b = Shingler::new(o);
            for t in samples {
                a.normalize_into(t, false);
                b.normalize_into(t, true);
                assert_eq!(a.norm, b.norm, "{t:?}");
                assert_eq!(a.bounds, b.bounds, "{t:?}");
            }
        }
    }
}

#[test]
fn char_shingles_and_short_documents() {
    assert_eq!(texts("char:3", "abcd"), ["abc", "bcd"]);
    assert_eq!(texts("char:5", "ab"), ["ab"]);
    assert!(texts("char:5", "   ").is_empty());
    // Spans point at original bytes even through case folding and collapsed spaces.
    assert_eq!(texts("char:3", "A  Bc"), ["A  B", "Bc"]);
}

#[test]
fn word_shingles() {
    assert_eq!(
        texts("word:2", "the  quick brown"),
        ["the  quick", "quick brown"]
    );
    assert_eq!(texts("word:3", "only two"), ["only two"]);
    let mut s = Shingler::new(opts("word:2"));
    let mut a = Vec::new();
    s.hashes("The quick", &mut a);
    let mut b = Vec::new();
    s.hashes("the   QUICK", &mut b);
    assert_eq!(a, b);
}

#[test]
fn fast_path_equals_general_path() {
    for k in 1..=9 {
        let mut s = Shingler::new(opts(&format!("char:{k}")));
        for text in [
            "a",
            "abcdefgh",
            "abcdefghi",
            "The quick brown fox jumps over the dog",
            "0123456789abcdef",
        ] {
            let mut fast = Vec::new();
            s.hashes(text, &mut fast);
            let slow: Vec<u64> = s.spans(text).into_iter().map(|sp| sp.hash).collect();
            assert_eq!(fast, slow, "k = {k}, {text:?}");
        }
    }
}

#[test]
fn ascii_fast_paths_equal_general_path_on_random_texts() {
    // Whitespace runs at the start, the end and across 64-byte blocks, every ASCII
    // whitespace byte, control bytes, punctuation and case, texts shorter than one shingle
    // and longer than several blocks: the SIMD path, the scalar fused path and the general
    // (normalize, then slice) path must give the same hashes in the same order.
    let alphabet = b"aAbBzZ09 \t\n\x0b\x0c\r.,!'\x00\x01\x1f\x7f@[`{";
    let mut rng = crate::util::rng::SplitMix64::new(17);
    let mut texts: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"   \t\n ".to_vec(),
        b" a ".to_vec(),
        [b' '; 63]
            .iter()
            .chain(b"xY")
            .chain(&[b'\n'; 70])
            .copied()
            .collect(),
    ];
    for _ in 0..400 {
        let len = rng.below(200) as usize;
        let runny = rng.below(2) == 0;
        texts.push(
            (0..len)
                .map(|_| {
                    if runny && rng.below(3) == 0 {
                        b' '
                    } else {
                        alphabet[rng.below(alphabet.len() as u64) as usize]
                    }
                })
                .collect(),
        );
    }
    for k in 1..=9 {
        for (lowercase, strip_punct) in [(true, false), (false, false), (true, true)] {
            let o = ShingleOptions {
                kind: ShingleKind::Char(k),
                lowercase,
                nfkc: false,
                strip_punct,
                profile: Profile::Lshscope,
            };
            let mut simd = Shingler::new(o.clone());
            let mut scalar = Shingler::new(o.clone());
            scalar.avx512 = false;
            let mut general = Shingler::new(o);
            for t in &texts {
                let t = std::str::from_utf8(t).unwrap();
                let expected: Vec<u64> = general.spans(t).into_iter().map(|sp| sp.hash).collect();
                let (mut a, mut b) = (vec![1], vec![1]);
                simd.hashes(t, &mut a);
                scalar.hashes(t, &mut b);
                assert_eq!(a[1..], expected[..], "simd, k = {k}, {t:?}");
                assert_eq!(b[1..], expected[..], "scalar, k = {k}, {t:?}");
            }
        }
    }
}

/// The normalization spelled out char by char, with no fast path: segments of a char and
/// the combining marks after it (NFKC'd together when asked), whitespace runs to one space,
/// punctuation dropped, lowercase.
fn reference_normalized(o: &ShingleOptions, text: &str) -> Vec<char> {
    let mut segments: Vec<String> = Vec::new();
    for c in text.chars() {
        let combining = unicode_normalization::char::canonical_combining_class(c) != 0;
        match segments.last_mut() {
            Some(last) if o.nfkc && combining => last.push(c),
            _ => segments.push(c.to_string()),
        }
    }
    let mut out = Vec::new();
    let mut pending_space = false;
    for segment in segments {
        let chars: Vec<char> = if o.nfkc {
            segment.nfkc().collect()
        } else {
            segment.chars().collect()
        };
        for c in chars {
            if c.is_whitespace() {
                pending_space = true;
            } else if !o.strip_punct || c.is_alphanumeric() {
                if pending_space && !out.is_empty() {
                    out.push(' ');
                }
                pending_space = false;
                if o.lowercase {
                    out.extend(c.to_lowercase());
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

#[test]
fn mixed_unicode_texts_hash_as_the_reference_says() {
    // ASCII runs next to multi-byte chars, combining marks after ASCII and non-ASCII
    // letters, Unicode spaces, chars whose lowercase is two chars (İ), compatibility chars
    // NFKC rewrites (ﬁ, full-width, ½), a combining mark at the very start, and
    // 4-byte chars: shingles of every byte length around 8.
    let alphabet = [
        "a",
        "B",
        " ",
        "\t",
        ".",
        "'",
        "“",
        "”",
        "é",
        "e\u{301}",
        "\u{301}",
        "\u{327}",
        "İ",
        "ﬁ",
        "Ｆ",
        "½",
        "\u{a0}",
        "\u{3000}",
        "—",
        "ß",
        "Σ",
        "😀",
        "\u{1d400}",
        "漢",
    ];
    let mut rng = crate::util::rng::SplitMix64::new(23);
    let mut texts = vec![
        String::new(),
        "\u{301}abc".to_string(),
        "e\u{301}".to_string(),
    ];
    for _ in 0..300 {
        let len = rng.below(60) as usize;
        texts.push(
            (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect(),
        );
    }
    for k in [1, 2, 3, 5, 8, 9] {
        for nfkc in [false, true] {
            for (lowercase, strip_punct) in [(true, false), (false, false), (true, true)] {
                let o = ShingleOptions {
                    kind: ShingleKind::Char(k),
                    lowercase,
                    nfkc,
                    strip_punct,
                    profile: Profile::Lshscope,
                };
                let mut shingler = Shingler::new(o.clone());
                for t in &texts {
                    let norm = reference_normalized(&o, t);
                    let expected: Vec<u64> = if norm.is_empty() {
                        Vec::new()
                    } else {
                        norm.windows(k.min(norm.len()))
                            .map(|w| shingle_hash(w.iter().collect::<String>().as_bytes()))
                            .collect()
                    };
                    let mut hashes = Vec::new();
                    shingler.hashes(t, &mut hashes);
                    assert_eq!(hashes, expected, "k = {k}, {o:?}, {t:?}");
                    let spans: Vec<u64> = shingler.spans(t).iter().map(|s| s.hash).collect();
                    assert_eq!(spans, expected, "spans, k = {k}, {o:?}, {t:?}");
                    assert_eq!(
                        shingler.normalize(t),
                        norm.iter().collect::<String>(),
                        "{o:?}, {t:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn hash_depends_on_bytes_only() {
    let mut s = Shingler::new(opts("char:5"));
    let mut h = Vec::new();
    s.hashes("hello hello", &mut h);
    assert_eq!(h[0], shingle_hash(b"hello"));
    assert_eq!(h[6], shingle_hash(b"hello"));
    assert_ne!(shingle_hash(b"ab"), shingle_hash(b"ab\0"));
    assert_ne!(shingle_hash(b"0123456789"), shingle_hash(b"0123456788"));
}

#[test]
fn parses_kinds() {
    assert_eq!("char:5".parse(), Ok(ShingleKind::Char(5)));
    assert_eq!("word:2".parse(), Ok(ShingleKind::Word(2)));
    assert!("char:0".parse::<ShingleKind>().is_err());
    assert!("byte:3".parse::<ShingleKind>().is_err());
    assert!("char".parse::<ShingleKind>().is_err());
}
