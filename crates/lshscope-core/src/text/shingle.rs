use std::ops::Range;
use std::str::FromStr;

use unicode_normalization::UnicodeNormalization;

use super::profile::{self, Profile};

/// What a shingle is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase", tag = "unit", content = "size")]
pub enum ShingleKind {
    /// K consecutive Unicode characters of the normalized text.
    Char(usize),
    /// N consecutive words (split on the single spaces left by normalization).
    Word(usize),
}

impl std::fmt::Display for ShingleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShingleKind::Char(k) => write!(f, "char:{k}"),
            ShingleKind::Word(n) => write!(f, "word:{n}"),
        }
    }
}

impl FromStr for ShingleKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (unit, size) = s
            .split_once(':')
            .ok_or_else(|| format!("expected char:K or word:N, got `{s}`"))?;
        let size: usize = size
            .parse()
            .map_err(|_| format!("shingle size `{size}` is not a positive integer"))?;
        if size == 0 || size > 64 {
            return Err(format!("shingle size must be between 1 and 64, got {size}"));
        }
        match unit {
            "char" | "c" => Ok(ShingleKind::Char(size)),
            "word" | "w" => Ok(ShingleKind::Word(size)),
            _ => Err(format!(
                "unknown shingle unit `{unit}`: use char:K or word:N"
            )),
        }
    }
}

/// Normalization and shingling settings. Two runs agree on every hash iff these agree.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShingleOptions {
    /// Characters or words, and k, the shingle length in them.
    pub kind: ShingleKind,
    /// Lowercase (Unicode full case mapping).
    pub lowercase: bool,
    /// Apply NFKC compatibility normalization first.
    pub nfkc: bool,
    /// Drop every character that is neither alphanumeric nor whitespace.
    pub strip_punct: bool,
    /// Another tool's normalization and shingling instead of lshscope's (the three flags
    /// above then do nothing; `kind` gives the n-gram size, which the profile must accept).
    #[serde(default)]
    pub profile: Profile,
}

impl Default for ShingleOptions {
    fn default() -> Self {
        ShingleOptions {
            kind: ShingleKind::Char(5),
            lowercase: true,
            nfkc: false,
            strip_punct: false,
            profile: Profile::Lshscope,
        }
    }
}

impl ShingleOptions {
    /// The options of `profile` with its own default shingles.
    pub fn for_profile(profile: Profile) -> Self {
        ShingleOptions {
            kind: profile.default_shingle(),
            profile,
            ..ShingleOptions::default()
        }
    }
}

/// A mask of the low `n` bytes of a u64 (n ≤ 8): how a shingle of n ASCII bytes is cut out of
/// an 8-byte window.
#[inline]
fn low_bytes_mask(n: usize) -> u64 {
    if n == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// One shingle occurrence: its hash and the bytes of the original text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShingleSpan {
    /// The shingle's 64-bit hash, the same value its set holds.
    pub hash: u64,
    /// Bytes of the original (not normalized) text the shingle was cut from.
    pub range: Range<usize>,
}

// Per-length salts so that packed shingles of different lengths never map to the same input of
// the mixer (same length: packing is injective and the mixer is a bijection, so no collisions).
const LEN_SALT: [u64; 9] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0x2545_f491_4f6c_dd1d,
    0xd6e8_feb8_6659_fd93,
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
    0x8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3,
];

/// The 64-bit hash of a shingle's UTF-8 bytes.
///
/// Shingles of up to 8 bytes (every ASCII char 5-shingle) are packed into a u64 and passed
/// through the murmur3 `fmix64` finalizer, a bijection: distinct short shingles of one length
/// never collide, and this is several times cheaper than a general string hash. Longer
/// shingles use xxh3.
#[inline]
pub fn shingle_hash(bytes: &[u8]) -> u64 {
    if bytes.len() <= 8 {
        let mut buf = [0u8; 8];
        buf[..bytes.len()].copy_from_slice(bytes);
        fmix64(u64::from_le_bytes(buf) ^ LEN_SALT[bytes.len()])
    } else {
        xxhash_rust::xxh3::xxh3_64(bytes)
    }
}

#[inline]
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// Reusable normalizer + shingler; keeps its buffers between documents so the hot path does
/// not allocate. Not `Sync`: use one per thread.
#[derive(Debug, Clone)]
pub struct Shingler {
    opts: ShingleOptions,
    /// The normalized text of the last document.
    norm: String,
    /// Byte offset in `norm` of every char start, plus `norm.len()` at the end.
    bounds: Vec<u32>,
    /// For each char of `norm`, the byte range of the original text it came from
    /// (filled only when spans are requested).
    origin: Vec<Range<usize>>,
    segment: String,
    /// The normalized bytes of the last ASCII document (the char-shingle fast path).
    bytes: Vec<u8>,
    /// The CPU has what `simd::ascii_char_hashes` needs (checked once, here).
    avx512: bool,
    /// Scratch for a profile's shingle text.
    shingle: String,
}

impl Shingler {
    /// A shingler for `opts`, with empty scratch buffers.
    pub fn new(opts: ShingleOptions) -> Self {
        Shingler {
            opts,
            norm: String::new(),
            bounds: Vec::new(),
            origin: Vec::new(),
            segment: String::new(),
            bytes: Vec::new(),
            avx512: simd::available(),
            shingle: String::new(),
        }
    }

    /// The settings this shingler cuts with.
    pub fn options(&self) -> &ShingleOptions {
        &self.opts
    }

    /// The normalized form of `text`: NFKC (optional), lowercase (optional), punctuation
    /// stripped (optional), whitespace runs collapsed to one space, trimmed.
    ///
    /// With a [`Profile`], the text the tool's tokenizer sees (datatrove's simplified text,
    /// the lowercased text for text-dedup and Spark, the raw text for NeMo and datasketch).
    pub fn normalize(&mut self, text: &str) -> &str {
        if self.opts.profile != Profile::Lshscope {
            self.norm = profile::normalized(self.opts.profile, text);
            return &self.norm;
        }
        self.normalize_into(text, false);
        &self.norm
    }

    /// The text of every shingle of `text`, in text order, duplicates included: the strings
    /// whose bytes [`shingle_hash`] hashes.
    pub fn shingle_texts(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        if self.opts.profile != Profile::Lshscope {
            let mut buf = std::mem::take(&mut self.shingle);
            profile::for_each_shingle(self.opts.profile, self.opts.kind, text, &mut buf, |s, _| {
                out.push(String::from_utf8_lossy(s).into_owned())
            });
            self.shingle = buf;
            return out;
        }
        self.normalize_into(text, false);
        self.for_each_shingle(|bytes, _, _| out.push(String::from_utf8_lossy(bytes).into_owned()));
        out
    }

    /// Appends the hash of every shingle of `text` to `out`, in text order, duplicates
    /// included. A non-empty text shorter than one shingle yields one shingle, its whole
    /// normalized text; an empty one yields none.
    pub fn hashes(&mut self, text: &str, out: &mut Vec<u64>) {
        if self.opts.profile != Profile::Lshscope {
            let mut buf = std::mem::take(&mut self.shingle);
            profile::for_each_shingle(self.opts.profile, self.opts.kind, text, &mut buf, |s, _| {
                out.push(shingle_hash(s))
            });
            self.shingle = buf;
            return;
        }
        if let ShingleKind::Char(k) = self.opts.kind
            && k <= 8
        {
            // ASCII is its own NFKC form, so NFKC matters only for other text.
            #[cfg(target_arch = "x86_64")]
            if self.avx512 && !self.opts.strip_punct && (!self.opts.nfkc || text.is_ascii()) {
                // SAFETY: `avx512` is set only when the CPU has the features the function uses.
                unsafe {
                    simd::char_hashes(
                        text,
                        self.opts.lowercase,
                        k,
                        &mut self.bytes,
                        &mut self.bounds,
                        out,
                    )
                };
                return;
            }
            if text.is_ascii() {
                self.ascii_char_hashes(text.as_bytes(), k, out);
                return;
            }
        }
        self.normalize_into(text, false);
        let chars = self.bounds.len() - 1;
        match self.opts.kind {
            // Shingles of up to 8 bytes (most, even in non-ASCII text) are an 8-byte load
            // masked to their length: exactly the packing `shingle_hash` does, without a
            // variable-length copy per shingle. Longer ones are hashed as `shingle_hash` does.
            ShingleKind::Char(k) if k <= 8 && chars > k => {
                let norm = self.norm.as_bytes();
                let b = &self.bounds;
                // The last 8 bytes, padded, for the loads that would run past the end.
                let tail_from = norm.len().saturating_sub(8);
                let mut tail = [0u8; 16];
                tail[..norm.len() - tail_from].copy_from_slice(&norm[tail_from..]);
                out.reserve(chars - k + 1);
                for i in 0..=chars - k {
                    let (start, end) = (b[i] as usize, b[i + k] as usize);
                    let len = end - start;
                    let hash = if len <= 8 {
                        let window = if start + 8 <= norm.len() {
                            &norm[start..start + 8]
                        } else {
                            &tail[start - tail_from..start - tail_from + 8]
                        };
                        let w = u64::from_le_bytes(window.try_into().unwrap());
                        fmix64((w & low_bytes_mask(len)) ^ LEN_SALT[len])
                    } else {
                        xxhash_rust::xxh3::xxh3_64(&norm[start..end])
                    };
                    out.push(hash);
                }
            }
            _ => self.for_each_shingle(|bytes, _, _| out.push(shingle_hash(bytes))),
        }
    }

    /// [`Shingler::hashes`] for ASCII text and char shingles of at most 8 bytes. Normalization
    /// is a branch-free pass into a byte buffer (no `String`, no char offsets: every char is
    /// one byte), then each shingle is an 8-byte load masked to k bytes, exactly the packing
    /// [`shingle_hash`] uses, so every hash equals the general path's (tests check this on
    /// random and adversarial texts).
    fn ascii_char_hashes(&mut self, text: &[u8], k: usize, out: &mut Vec<u64>) {
        let (lower, strip) = (self.opts.lowercase, self.opts.strip_punct);
        // Normalization never lengthens ASCII text; 8 spare bytes let every window be one load.
        let buf = &mut self.bytes;
        buf.clear();
        buf.resize(text.len() + 8, 0);
        let mut len = 0;
        let mut pending_space = false;
        for &c in text {
            // The classes of `push_ascii`; unconditional stores and counted advances,
            // because spaces come at random and a branch on them mispredicts once a word.
            let space = c == b' ' || c.wrapping_sub(b'\t') <= b'\r' - b'\t';
            let keep = !space && (!strip || c.is_ascii_alphanumeric());
            buf[len] = b' ';
            len += (pending_space && keep && len > 0) as usize;
            buf[len] = if lower { c.to_ascii_lowercase() } else { c };
            len += keep as usize;
            pending_space = (pending_space || space) && !keep;
        }
        buf[len..].fill(0);
        let window = |i: usize| u64::from_le_bytes(buf[i..i + 8].try_into().unwrap());
        let mask = low_bytes_mask;
        if len == 0 {
            return;
        }
        if len < k {
            // A non-empty text shorter than one shingle is one shingle: all of it.
            out.push(fmix64((window(0) & mask(len)) ^ LEN_SALT[len]));
            return;
        }
        let (mask, salt) = (mask(k), LEN_SALT[k]);
        out.extend((0..len - k + 1).map(|i| fmix64((window(i) & mask) ^ salt)));
    }

    /// Every shingle occurrence with the byte range of the original `text` it covers.
    pub fn spans(&mut self, text: &str) -> Vec<ShingleSpan> {
        let mut spans = Vec::new();
        if self.opts.profile != Profile::Lshscope {
            let mut buf = std::mem::take(&mut self.shingle);
            profile::for_each_shingle(self.opts.profile, self.opts.kind, text, &mut buf, |s, r| {
                spans.push(ShingleSpan {
                    hash: shingle_hash(s),
                    range: r,
                })
            });
            self.shingle = buf;
            return spans;
        }
        self.normalize_into(text, true);
        let origin = std::mem::take(&mut self.origin);
        self.for_each_shingle(|bytes, first, last| {
            spans.push(ShingleSpan {
                hash: shingle_hash(bytes),
                range: origin[first].start..origin[last].end,
            })
        });
        self.origin = origin;
        spans
    }

    /// Calls `f(shingle bytes, first char index, last char index)` for each shingle of the
    /// normalized text currently in `self.norm`.
    fn for_each_shingle(&self, mut f: impl FnMut(&[u8], usize, usize)) {
        let chars = self.bounds.len().saturating_sub(1);
        if chars == 0 {
            return;
        }
        let norm = self.norm.as_bytes();
        let b = &self.bounds;
        match self.opts.kind {
            ShingleKind::Char(k) => {
                if chars <= k {
                    f(norm, 0, chars - 1);
                } else {
                    for i in 0..=chars - k {
                        f(&norm[b[i] as usize..b[i + k] as usize], i, i + k - 1);
                    }
                }
            }
            ShingleKind::Word(n) => {
                // Word starts (char index) and ends (char index past the word). Normalized text
                // has single spaces, no leading or trailing space.
                let mut starts = Vec::new();
                let mut ends = Vec::new();
                let mut in_word = false;
                for c in 0..chars {
                    let is_space = norm[b[c] as usize] == b' ';
                    if !is_space && !in_word {
                        starts.push(c);
                    } else if is_space && in_word {
                        ends.push(c);
                    }
                    in_word = !is_space;
                }
                ends.push(chars);
                let words = starts.len();
                if words <= n {
                    f(norm, 0, chars - 1);
                } else {
                    for w in 0..=words - n {
                        let (first, end) = (starts[w], ends[w + n - 1]);
                        f(&norm[b[first] as usize..b[end] as usize], first, end - 1);
                    }
                }
            }
        }
    }

    /// Normalizes `text` into `self.norm` and `self.bounds` (and `self.origin` when asked).
    fn normalize_into(&mut self, text: &str, track_origin: bool) {
        self.norm.clear();
        self.bounds.clear();
        self.origin.clear();
        let bytes = text.as_bytes();
        let nfkc = self.opts.nfkc;
        let mut pending_space = false;
        let mut pos = 0;
        while pos < bytes.len() {
            // An ASCII char is its own NFKC form, its lowercase is the ASCII one, and Unicode's
            // whitespace and alphanumeric classes agree with ASCII's on it; so runs of ASCII
            // (most of any text) go byte by byte. With NFKC, not the last char before a
            // non-ASCII one: that may be a combining mark to compose with it (e + U+0301 → é).
            let ascii = bytes[pos..]
                .iter()
                .position(|b| !b.is_ascii())
                .unwrap_or(bytes.len() - pos);
            let run = if nfkc && pos + ascii < bytes.len() {
                ascii.saturating_sub(1)
            } else {
                ascii
            };
            if run > 0 {
                self.push_ascii(
                    &bytes[pos..pos + run],
                    pos,
                    &mut pending_space,
                    track_origin,
                );
                pos += run;
                continue;
            }
            let c = text[pos..]
                .chars()
                .next()
                .expect("pos is at a char boundary");
            let mut end = pos + c.len_utf8();
            if !nfkc {
                self.emit(c, pos..end, &mut pending_space, track_origin);
                pos = end;
                continue;
            }
            // With NFKC, a starter and the combining marks after it are normalized together
            // (segment-wise NFKC; it differs from whole-string NFKC only for compositions
            // across two starters, such as conjoining Hangul jamo).
            let mut raw = std::mem::take(&mut self.segment);
            raw.clear();
            raw.push(c);
            for next in text[end..].chars() {
                if unicode_normalization::char::canonical_combining_class(next) == 0 {
                    break;
                }
                raw.push(next);
                end += next.len_utf8();
            }
            for sc in raw.nfkc() {
                self.emit(sc, pos..end, &mut pending_space, track_origin);
            }
            self.segment = raw;
            pos = end;
        }
        self.bounds.push(self.norm.len() as u32);
    }

    /// Appends a run of ASCII text that starts at byte `offset` of the original: what
    /// [`Shingler::emit`] does for each byte, without decoding chars.
    fn push_ascii(
        &mut self,
        run: &[u8],
        offset: usize,
        pending_space: &mut bool,
        track_origin: bool,
    ) {
        let (lower, strip) = (self.opts.lowercase, self.opts.strip_punct);
        for (i, &c) in run.iter().enumerate() {
            if matches!(c, b' ' | b'\t'..=b'\r') {
                *pending_space = true;
                continue;
            }
            if strip && !c.is_ascii_alphanumeric() {
                continue;
            }
            let at = offset + i;
            self.flush_space(at, pending_space, track_origin);
            let c = if lower { c.to_ascii_lowercase() } else { c };
            self.push_char(c as char, at..at + 1, track_origin);
        }
    }

    /// Appends one char of the (NFKC'd) text that came from the original bytes `origin`:
    /// whitespace only marks a pending space (runs collapse to one, none at the start or
    /// end), punctuation is dropped when stripping, and what is kept is lowercased (one char
    /// or more: İ is i and a combining dot). The classes are those of the char before
    /// lowercasing.
    fn emit(
        &mut self,
        c: char,
        origin: Range<usize>,
        pending_space: &mut bool,
        track_origin: bool,
    ) {
        if c.is_whitespace() {
            *pending_space = true;
            return;
        }
        if self.opts.strip_punct && !c.is_alphanumeric() {
            return;
        }
        self.flush_space(origin.start, pending_space, track_origin);
        if self.opts.lowercase {
            for lc in c.to_lowercase() {
                self.push_char(lc, origin.clone(), track_origin);
            }
        } else {
            self.push_char(c, origin, track_origin);
        }
    }

    /// Writes the one space a pending whitespace run collapses to, before the char that ends
    /// the run at byte `at` of the original (none at the start of the text).
    #[inline]
    fn flush_space(&mut self, at: usize, pending_space: &mut bool, track_origin: bool) {
        if *pending_space && !self.norm.is_empty() {
            // A collapsed space belongs to the character that ends it.
            self.push_char(' ', at..at, track_origin);
        }
        *pending_space = false;
    }

    /// Appends one char of normalized text and where it starts, and its origin when tracked.
    #[inline]
    fn push_char(&mut self, c: char, origin: Range<usize>, track_origin: bool) {
        self.bounds.push(self.norm.len() as u32);
        self.norm.push(c);
        if track_origin {
            self.origin.push(origin);
        }
    }
}

/// The char-shingle path with AVX-512 for any text when normalization is lowercase and
/// whitespace only (no NFKC, no punctuation stripping): normalization 64 bytes at a time
/// (compare, blend, `vpcompressb`) wherever a block is ASCII, char by char in the few blocks
/// that are not; then hashing 8 shingles at a time (`vpermb` builds 8 overlapping windows of
/// ASCII text, `vpgatherqq` loads them at char starts otherwise; `vpmullq` runs `fmix64`).
/// Same results as the general path, bit for bit.
mod simd {
    /// True when the CPU can run [`char_hashes`].
    pub(super) fn available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("avx512vbmi2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// Room for `extra` more bytes after the first `len` (all initialized) of `buf`, whose own
    /// length stays 0 while the normalizer writes through the returned pointer.
    #[inline]
    fn room(buf: &mut Vec<u8>, len: usize, extra: usize) -> *mut u8 {
        if buf.capacity() < len + extra {
            // SAFETY: bytes 0..len were written; the new allocation copies them.
            unsafe { buf.set_len(len) };
            buf.reserve(extra);
            // SAFETY: 0 is always a valid length.
            unsafe { buf.set_len(0) };
        }
        buf.as_mut_ptr()
    }

    /// Appends the hash of every char `k`-shingle (k ≤ 8) of `text`, normalized with
    /// lowercasing (when `lower`) and whitespace collapsing only, to `out`; `buf` and
    /// `starts` are scratch. The caller checks [`available`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi,avx512vbmi2")]
    pub(super) unsafe fn char_hashes(
        text: &str,
        lower: bool,
        k: usize,
        buf: &mut Vec<u8>,
        starts: &mut Vec<u32>,
        out: &mut Vec<u64>,
    ) {
        debug_assert!((1..=8).contains(&k));
        // SAFETY: same features.
        let (len, ascii) = unsafe { normalize(text, lower, buf) };
        if len == 0 {
            return;
        }
        // SAFETY: `normalize` leaves bytes 0..len + 64 initialized.
        let norm = unsafe { std::slice::from_raw_parts(buf.as_ptr(), len + 64) };
        if ascii {
            // SAFETY: same features.
            unsafe { ascii_windows(norm, len, k, out) }
        } else {
            // SAFETY: same features.
            unsafe { char_windows(norm, len, k, starts, out) }
        }
    }

    /// Normalizes `text` into `buf` (through its pointer: bytes 0..len + 64 initialized on
    /// return, `buf.len()` 0) and returns the normalized length and whether it is all ASCII.
    /// Whitespace runs become one space at the place of their first char; leading whitespace
    /// never shows, and a trailing space is dropped at the end: the general path's text.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi,avx512vbmi2")]
    unsafe fn normalize(text: &str, lower: bool, buf: &mut Vec<u8>) -> (usize, bool) {
        use std::arch::x86_64::*;
        let bytes = text.as_bytes();
        let is_space = |c: u8| c == b' ' || c.wrapping_sub(b'\t') <= b'\r' - b'\t';
        let mut pos = bytes
            .iter()
            .position(|&c| !is_space(c))
            .unwrap_or(bytes.len());
        buf.clear();
        let space = _mm512_set1_epi8(b' ' as i8);
        let (tab, tab_to_cr) = (_mm512_set1_epi8(b'\t' as i8), _mm512_set1_epi8(4));
        let (upper_a, a_to_z) = (_mm512_set1_epi8(b'A' as i8), _mm512_set1_epi8(25));
        let case_bit = _mm512_set1_epi8(0x20);
        let mut len = 0usize;
        // 1 when the last char seen was whitespace.
        let mut prev_space = 0u64;
        let mut ascii = true;
        let mut tail = [0u8; 64];
        while pos < bytes.len() {
            let block = &bytes[pos..bytes.len().min(pos + 64)];
            let (c, valid) = if block.len() == 64 {
                // SAFETY: the block has 64 bytes.
                (
                    unsafe { _mm512_loadu_si512(block.as_ptr().cast()) },
                    u64::MAX,
                )
            } else {
                tail[..block.len()].copy_from_slice(block);
                tail[block.len()..].fill(0);
                // SAFETY: `tail` has 64 bytes.
                let c = unsafe { _mm512_loadu_si512(tail.as_ptr().cast()) };
                (c, (1u64 << block.len()) - 1)
            };
            if _mm512_movepi8_mask(c) & valid == 0 {
                let ws = (_mm512_cmpeq_epi8_mask(c, space)
                    | _mm512_cmple_epu8_mask(_mm512_sub_epi8(c, tab), tab_to_cr))
                    & valid;
                let run_start = ws & !((ws << 1) | prev_space);
                let emit = (valid & !ws) | run_start;
                let mut v = _mm512_mask_mov_epi8(c, ws, space);
                if lower {
                    let upper = _mm512_cmple_epu8_mask(_mm512_sub_epi8(c, upper_a), a_to_z);
                    v = _mm512_mask_blend_epi8(upper, v, _mm512_or_si512(v, case_bit));
                }
                let packed = _mm512_maskz_compress_epi8(emit, v);
                let dst = room(buf, len, 64);
                // SAFETY: `room` made space for 64 bytes at len.
                unsafe { _mm512_storeu_si512(dst.add(len).cast(), packed) };
                len += emit.count_ones() as usize;
                prev_space = (ws >> (block.len() - 1)) & 1;
                pos += block.len();
                continue;
            }
            // A block with non-ASCII chars goes char by char, up to the first char boundary
            // at or after its end. A run of whitespace (ASCII or Unicode) becomes one space
            // unless nothing was written yet; other chars are lowercased (one char or more:
            // İ is i and a combining dot), as `Shingler::emit` does.
            let end = pos + block.len();
            while pos < end {
                let b = bytes[pos];
                let (is_ws, width) = if b.is_ascii() {
                    (is_space(b), 1)
                } else {
                    let ch = text[pos..]
                        .chars()
                        .next()
                        .expect("pos is at a char boundary");
                    (ch.is_whitespace(), ch.len_utf8())
                };
                if is_ws {
                    if prev_space == 0 && len > 0 {
                        let dst = room(buf, len, 64);
                        // SAFETY: room for 64 bytes at len.
                        unsafe { *dst.add(len) = b' ' };
                        len += 1;
                    }
                    prev_space = 1;
                } else if b.is_ascii() {
                    let dst = room(buf, len, 64);
                    // SAFETY: room for 64 bytes at len.
                    unsafe { *dst.add(len) = if lower { b.to_ascii_lowercase() } else { b } };
                    len += 1;
                    prev_space = 0;
                } else {
                    let ch = text[pos..]
                        .chars()
                        .next()
                        .expect("pos is at a char boundary");
                    let mut put = |c: char| {
                        let dst = room(buf, len, 64);
                        ascii &= c.is_ascii();
                        // SAFETY: room for 64 bytes at len; a char has at most 4.
                        let at = unsafe { std::slice::from_raw_parts_mut(dst.add(len), 4) };
                        len += c.encode_utf8(at).len();
                    };
                    if lower {
                        ch.to_lowercase().for_each(&mut put);
                    } else {
                        put(ch);
                    }
                    prev_space = 0;
                }
                pos += width;
            }
        }
        let dst = room(buf, len, 64);
        // SAFETY: room for 64 bytes at len; zeroes the spare bytes the windows read.
        unsafe { _mm512_storeu_si512(dst.add(len).cast(), _mm512_setzero_si512()) };
        // SAFETY: bytes 0..len are initialized.
        if len > 0 && unsafe { *dst.add(len - 1) } == b' ' {
            len -= 1;
        }
        (len, ascii)
    }

    /// The hashes of the `k`-shingles of ASCII `norm[..len]` (`norm` has 64 spare bytes).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi,avx512vbmi2")]
    unsafe fn ascii_windows(norm: &[u8], len: usize, k: usize, out: &mut Vec<u64>) {
        use super::{LEN_SALT, fmix64};
        use std::arch::x86_64::*;
        let window = |i: usize| u64::from_le_bytes(norm[i..i + 8].try_into().unwrap());
        let mask = super::low_bytes_mask;
        if len < k {
            // Bytes past `len` are a space or zero: masked off.
            out.push(fmix64((window(0) & mask(len)) ^ LEN_SALT[len]));
            return;
        }
        let count = len - k + 1;
        out.reserve(count + 8);
        // Lane j of the permuted vector is bytes j..j + 8 of the 16 loaded: window j.
        let index: [u8; 64] = std::array::from_fn(|p| (p / 8 + p % 8) as u8);
        // SAFETY: 64 bytes.
        let index = unsafe { _mm512_loadu_si512(index.as_ptr().cast()) };
        let mask = _mm512_set1_epi64(mask(k) as i64);
        let salt = _mm512_set1_epi64(LEN_SALT[k] as i64);
        // SAFETY: `out` has room for count + 8 more values.
        let o = unsafe { out.as_mut_ptr().add(out.len()) };
        let mut j = 0;
        while j < count {
            // SAFETY: j + 16 ≤ count + 15 ≤ len + 64 bytes are initialized.
            let bytes = unsafe { _mm_loadu_si128(norm.as_ptr().add(j).cast()) };
            let windows = _mm512_permutexvar_epi8(index, _mm512_castsi128_si512(bytes));
            let x = _mm512_xor_si512(_mm512_and_si512(windows, mask), salt);
            // SAFETY: j + 8 ≤ count + 8 values fit in the reserved room.
            unsafe { _mm512_storeu_si512(o.add(j).cast(), fmix64_x8(x)) };
            j += 8;
        }
        // SAFETY: the first `count` of the values written are this text's hashes.
        unsafe { out.set_len(out.len() + count) };
    }

    /// The hashes of the char `k`-shingles of UTF-8 `norm[..len]` (`norm` has 64 spare
    /// bytes): each shingle's bytes are an 8-byte load at its first char's start, masked to
    /// its length, as `shingle_hash` packs them; the rare shingle longer than 8 bytes is
    /// hashed by `shingle_hash` itself.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi,avx512vbmi2")]
    unsafe fn char_windows(
        norm: &[u8],
        len: usize,
        k: usize,
        starts: &mut Vec<u32>,
        out: &mut Vec<u64>,
    ) {
        use super::{LEN_SALT, shingle_hash};
        use std::arch::x86_64::*;
        // Where each char starts: every byte that is not a UTF-8 continuation (10xxxxxx).
        starts.clear();
        starts.reserve(len + 16);
        let s = starts.as_mut_ptr();
        let mut chars = 0;
        for (i, &b) in norm[..len].iter().enumerate() {
            // SAFETY: chars ≤ i < len + 16 = the reserved room.
            unsafe { *s.add(chars) = i as u32 };
            chars += (b & 0xc0 != 0x80) as usize;
        }
        if chars <= k {
            // A text of at most one shingle is one shingle: all of it.
            out.push(shingle_hash(&norm[..len]));
            return;
        }
        // The end of the last char, then padding for the lanes past the last shingle.
        for p in 0..16 {
            // SAFETY: chars + 16 ≤ len + 16.
            unsafe { *s.add(chars + p) = len as u32 };
        }
        let count = chars - k + 1;
        out.reserve(count + 8);
        // SAFETY: `out` has room for count + 8 more values.
        let o = unsafe { out.as_mut_ptr().add(out.len()) };
        let ones = _mm512_set1_epi64(-1);
        let sixty_four = _mm512_set1_epi64(64);
        let eight = _mm512_set1_epi64(8);
        // SAFETY: LEN_SALT has 9 values; the first 8 are loaded.
        let salt_low = unsafe { _mm512_loadu_epi64(LEN_SALT.as_ptr().cast()) };
        let salt_high = _mm512_set1_epi64(LEN_SALT[8] as i64);
        let mut j = 0;
        while j < count {
            // SAFETY: j + k + 8 ≤ chars + 16 starts are written.
            let (first, next) = unsafe {
                (
                    _mm512_cvtepu32_epi64(_mm256_loadu_si256(s.add(j).cast())),
                    _mm512_cvtepu32_epi64(_mm256_loadu_si256(s.add(j + k).cast())),
                )
            };
            let bytes = _mm512_sub_epi64(next, first);
            // SAFETY: every start is ≤ len, and len + 8 ≤ len + 64 bytes are initialized.
            let w = unsafe { _mm512_i64gather_epi64::<1>(first, norm.as_ptr().cast()) };
            // The low `bytes` bytes (all 64 bits for 8; none past 8, fixed below).
            let keep = _mm512_srlv_epi64(
                ones,
                _mm512_sub_epi64(sixty_four, _mm512_slli_epi64::<3>(bytes)),
            );
            let salt = _mm512_permutex2var_epi64(salt_low, bytes, salt_high);
            let x = _mm512_xor_si512(_mm512_and_si512(w, keep), salt);
            // SAFETY: j + 8 ≤ count + 8 values fit in the reserved room.
            unsafe { _mm512_storeu_si512(o.add(j).cast(), fmix64_x8(x)) };
            let mut long = _mm512_cmpgt_epu64_mask(bytes, eight);
            while long != 0 {
                let lane = long.trailing_zeros() as usize;
                long &= long - 1;
                let i = j + lane;
                if i < count {
                    // SAFETY: i + k ≤ chars; the value slot is in the reserved room.
                    unsafe {
                        let (a, b) = (*s.add(i) as usize, *s.add(i + k) as usize);
                        *o.add(i) = shingle_hash(&norm[a..b]);
                    }
                }
            }
            j += 8;
        }
        // SAFETY: the first `count` of the values written are this text's hashes.
        unsafe { out.set_len(out.len() + count) };
    }

    /// `fmix64` on 8 values at once.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn fmix64_x8(x: std::arch::x86_64::__m512i) -> std::arch::x86_64::__m512i {
        use std::arch::x86_64::*;
        let m1 = _mm512_set1_epi64(0xff51_afd7_ed55_8ccd_u64 as i64);
        let m2 = _mm512_set1_epi64(0xc4ce_b9fe_1a85_ec53_u64 as i64);
        let fold = |x: __m512i| _mm512_xor_si512(x, _mm512_srli_epi64::<33>(x));
        let x = _mm512_mullo_epi64(fold(x), m1);
        let x = _mm512_mullo_epi64(fold(x), m2);
        fold(x)
    }
}

#[cfg(test)]
mod tests;
