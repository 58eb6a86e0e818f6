//! Rows of fixed columns as CSV or JSON Lines, formatted without an allocation per row.

use super::*;

/// One value of a row.
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    /// Text: quoted in CSV when it needs quotes, a JSON string in JSON Lines.
    Str(&'a str),
    /// A number, written in the shortest form that reads back the same (null in JSON Lines
    /// when not finite).
    F64(f64),
    /// A whole number.
    U64(u64),
    /// `true`/`false` in CSV, a JSON boolean in JSON Lines.
    Bool(bool),
}

fn bool_text(v: bool) -> &'static [u8] {
    if v { b"true" } else { b"false" }
}

/// Writes rows of a fixed set of columns as CSV (header first) or JSON Lines (keys in column
/// order), advancing `progress` as it goes and stopping when it is cancelled.
///
/// Rows are formatted into one reused buffer that goes to `out` in large blocks: one virtual
/// call per megabyte instead of one per field, and no allocation per row.
pub struct RowWriter<'w, 'p> {
    out: &'w mut dyn Write,
    buf: Vec<u8>,
    format: OutputFormat,
    columns: &'static [&'static str],
    progress: Option<&'p Progress>,
    since_update: u64,
    floats: FloatCache,
    ints: itoa::Buffer,
}

impl<'w, 'p> RowWriter<'w, 'p> {
    /// Starts a file of `columns`; CSV writes its header now. Parquet is not a row format
    /// here: it has its own writer.
    pub fn new(
        out: &'w mut dyn Write,
        format: OutputFormat,
        columns: &'static [&'static str],
        progress: Option<&'p Progress>,
    ) -> std::io::Result<Self> {
        if format == OutputFormat::Parquet {
            return Err(std::io::Error::other(
                "Parquet is written by its own writer, not row by row",
            ));
        }
        let mut writer = RowWriter {
            out,
            buf: Vec::with_capacity(BUFFER + 4096),
            format,
            columns,
            progress,
            since_update: 0,
            floats: FloatCache::new(),
            ints: itoa::Buffer::new(),
        };
        if format == OutputFormat::Csv {
            for (i, c) in columns.iter().enumerate() {
                if i > 0 {
                    writer.buf.push(b',');
                }
                push_csv_str(&mut writer.buf, c);
            }
            writer.buf.push(b'\n');
        }
        Ok(writer)
    }

    /// Writes one row; `fields` are in the order of the columns.
    pub fn write_row(&mut self, fields: &[Field]) -> std::io::Result<()> {
        debug_assert_eq!(fields.len(), self.columns.len());
        let buf = &mut self.buf;
        match self.format {
            OutputFormat::Csv => {
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        buf.push(b',');
                    }
                    match *f {
                        Field::Str(s) => push_csv_str(buf, s),
                        Field::F64(v) => self.floats.push(buf, v),
                        Field::U64(v) => buf.extend_from_slice(self.ints.format(v).as_bytes()),
                        Field::Bool(v) => buf.extend_from_slice(bool_text(v)),
                    }
                }
                buf.push(b'\n');
            }
            _ => {
                buf.push(b'{');
                for (i, (f, key)) in fields.iter().zip(self.columns).enumerate() {
                    buf.extend_from_slice(if i > 0 { b",\"" } else { b"\"" });
                    buf.extend_from_slice(key.as_bytes());
                    buf.extend_from_slice(b"\":");
                    match *f {
                        Field::Str(s) => serde_json::to_writer(&mut *buf, s)?,
                        Field::F64(v) if v.is_finite() => self.floats.push(buf, v),
                        Field::F64(_) => buf.extend_from_slice(b"null"),
                        Field::U64(v) => buf.extend_from_slice(self.ints.format(v).as_bytes()),
                        Field::Bool(v) => buf.extend_from_slice(bool_text(v)),
                    }
                }
                buf.extend_from_slice(b"}\n");
            }
        }
        if self.buf.len() >= BUFFER {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        self.since_update += 1;
        if self.since_update == PROGRESS_EVERY {
            self.count_progress()?;
        }
        Ok(())
    }

    fn count_progress(&mut self) -> std::io::Result<()> {
        if let Some(p) = self.progress {
            p.advance(self.since_update);
            if p.is_cancelled() {
                return Err(std::io::Error::other("cancelled"));
            }
        }
        self.since_update = 0;
        Ok(())
    }

    /// Writes what is buffered, counts the last rows into the progress handle, and flushes.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.count_progress()?;
        self.out.write_all(&self.buf)?;
        self.out.flush()
    }
}

/// Recently formatted floats, direct-mapped by their bits. A pair file repeats few distinct
/// values per column (estimates are multiples of 1/K, Jaccard values ratios of small
/// integers), and copying a cached text is several times cheaper than formatting it anew.
pub(super) struct FloatCache {
    ryu: ryu::Buffer,
    slots: Vec<FloatSlot>,
    /// log2 of the slot count.
    bits: u32,
    /// Where a value that is not cached (not finite, or too long a text) is formatted; 32
    /// bytes, so it can be copied like a slot.
    uncached: [u8; 32],
    uncached_len: usize,
}

/// One formatted float: `text[..len]`, then spare bytes, so a row formatter can copy the
/// whole 24 bytes (text and length) with two moves and advance by `len`. 32 bytes, aligned, so
/// a slot is one cache line's quarter, never split between two.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct FloatSlot {
    /// The value's bits; a NaN pattern marks an empty slot (NaN is never cached).
    bits: u64,
    text: [u8; SLOT_TEXT],
    len: u8,
}

/// Bytes of text a [`FloatSlot`] holds: every finite f64 between −1e16 and 1e16 (the longest
/// Jaccard text, `0.000…` with 17 digits, is 22 bytes); longer texts are formatted uncached.
const SLOT_TEXT: usize = 23;

impl FloatCache {
    const SLOTS_LOG2: u32 = 10;

    pub(super) fn new() -> Self {
        Self::with_slots_log2(Self::SLOTS_LOG2)
    }

    pub(super) fn with_slots_log2(bits: u32) -> Self {
        let empty = FloatSlot {
            bits: u64::MAX,
            text: [0; SLOT_TEXT],
            len: 0,
        };
        FloatCache {
            ryu: ryu::Buffer::new(),
            slots: vec![empty; 1 << bits],
            bits,
            uncached: [0; 32],
            uncached_len: 0,
        }
    }

    /// The text of `v` (as [`format_f64`] writes it): 32 bytes of which the first `len` are
    /// the text, and `len`.
    #[inline(always)]
    pub(super) fn text(&mut self, v: f64) -> (*const u8, usize) {
        let bits = v.to_bits();
        // Fibonacci hashing spreads the varying mantissa bits over the slot index; folding the
        // upper half in first lets the low bits count too (without it, 1000 ratios k/997 took
        // 766 of 4096 slots, and thrashed where they met; with it, 881, as random values do).
        let i = ((bits ^ (bits >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits))
            as usize;
        let slot = &self.slots[i];
        if slot.bits == bits && v.is_finite() {
            return (slot.text.as_ptr(), slot.len as usize);
        }
        self.fill(v, i)
    }

    /// [`FloatCache::text`] for a value not in its slot: formats it, and caches it unless it
    /// is not finite or its text is too long for a slot.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, v: f64, i: usize) -> (*const u8, usize) {
        let text = if v.is_finite() {
            format_f64(&mut self.ryu, v)
        } else {
            self.ryu.format(v).as_bytes()
        };
        if v.is_finite() && text.len() <= SLOT_TEXT {
            let slot = &mut self.slots[i];
            slot.text[..text.len()].copy_from_slice(text);
            slot.len = text.len() as u8;
            slot.bits = v.to_bits();
            return (slot.text.as_ptr(), slot.len as usize);
        }
        self.uncached[..text.len()].copy_from_slice(text);
        self.uncached_len = text.len();
        (self.uncached.as_ptr(), self.uncached_len)
    }

    pub(super) fn push(&mut self, out: &mut Vec<u8>, v: f64) {
        let (text, len) = self.text(v);
        // SAFETY: `text` points at `len` initialized bytes of this cache.
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(text, len) });
    }
}

/// Shortest round-trip form; whole numbers without `.0` (`1`, not `1.0`), as Rust's `{}`
/// writes them, so files stay as earlier versions wrote them.
pub(super) fn format_f64(buf: &mut ryu::Buffer, v: f64) -> &[u8] {
    let s = buf.format(v).as_bytes();
    s.strip_suffix(b".0").unwrap_or(s)
}

/// A CSV field, quoted only when it holds a comma, a quote or a line break (RFC 4180).
pub(super) fn push_csv_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !bytes
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(bytes);
        return;
    }
    out.push(b'"');
    for (i, part) in bytes.split(|&b| b == b'"').enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\"\"");
        }
        out.extend_from_slice(part);
    }
    out.push(b'"');
}
