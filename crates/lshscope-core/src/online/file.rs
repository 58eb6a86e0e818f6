//! The index file format (`.lshidx`), version 1. All integers little-endian:
//!
//! ```text
//! magic      16 bytes   "LSHSCOPE-INDEX\r\n" (the CR LF catches transfers that rewrite line ends)
//! format     u32        1
//! header     u32 length, then JSON: lshscope version, options (shingling, K, seed, sketch
//!                       family), bands, rows, documents
//! documents  per document: u32 id length, id (UTF-8), u64 text length, text (UTF-8)
//! sets       per document: u32 count, then that many u64 shingle hashes (sorted, distinct)
//! signatures N × K u32, row-major
//! checksum   u64        XXH3-64 of every byte before it
//! ```
//!
//! The band tables are not stored: they are rebuilt from the signatures on load (a sort per
//! band, well under a second per million documents), which keeps the file independent of how
//! tables are laid out in memory. A file with another magic, a newer format, a checksum that
//! does not match or a length that runs past the end is refused with an error that says which.
//!
//! Files written before sketch families existed have no `family` in their options: their rows
//! are the classic family's, and they read as classic. A face that asks for a family checks
//! it with [`Header::check_family`]: rows of one family never band with another's.

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::LshIndex;
use crate::corpus::Corpus;
use crate::minhash::{Banding, Index, IndexOptions, ShingleSets, Signatures, SketchFamily};
use crate::terms::Setting::Family;
use crate::{Error, Result};

const MAGIC: &[u8; 16] = b"LSHSCOPE-INDEX\r\n";
/// The format this build writes and the newest it reads.
pub const FORMAT: u32 = 1;

/// What the header says about the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The lshscope version that wrote the file (informational).
    pub written_by: String,
    /// The shingling, K, seed and sketch family the signatures were built with; documents added
    /// later are hashed with the same.
    pub options: IndexOptions,
    /// b, the bands of the index's band tables.
    pub bands: usize,
    /// r, the rows per band.
    pub rows: usize,
    /// Documents stored in the file.
    pub documents: usize,
    /// Set in the explorer's cache files ([`crate::pipeline::cache`]): what the file was
    /// built from (a hash of the input's bytes and the options), checked on reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_key: Option<String>,
    /// Set in the explorer's cache files: what the reader warned about when the corpus was
    /// read (a text column chosen by default, say), shown again when the entry is opened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_warnings: Vec<String>,
}

impl Header {
    /// Refuses an index built with another sketch family than `asked`: its signatures, and
    /// those of every document added to it or queried against it, are its own family's rows,
    /// which never agree with another family's. `path` names the file in the error.
    pub fn check_family(&self, asked: SketchFamily, path: &Path) -> Result<()> {
        check_family(self.options.family, asked, path)
    }
}

/// The refusal of [`Header::check_family`] for an index of `built` opened as `asked`.
pub fn check_family(built: SketchFamily, asked: SketchFamily, path: &Path) -> Result<()> {
    if built == asked {
        return Ok(());
    }
    Err(Error::input(
        path,
        0,
        format!(
            "the index was built with the {built} sketch family, not {asked} as {Family} asks: \
             open it with {Family} {built} (or without {Family}), or rebuild it with \
             `lshscope index build {} {asked}`",
            Family.in_code()
        ),
    ))
}

/// True when `bytes` start like an index file (for formats detected by content).
pub fn is_index_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The header of the index file at `path`, read from its first bytes (the contents are
/// checked when the index is loaded); `None` when the file is not an index file.
pub fn read_header(path: &Path) -> Result<Option<Header>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut start = [0u8; 24];
    let got = read_up_to(&mut file, &mut start).map_err(|e| Error::io(path, e))?;
    if !is_index_file(&start[..got]) {
        return Ok(None);
    }
    let bad = |what: &str| Error::input(path, 0, format!("the index header {what}"));
    if got < start.len() {
        return Err(bad("is cut short"));
    }
    let format = u32::from_le_bytes(start[16..20].try_into().expect("4 bytes"));
    if format == 0 || format > FORMAT {
        return Err(bad(&format!(
            "says format {format}; this lshscope reads formats 1 to {FORMAT}"
        )));
    }
    let len = u32::from_le_bytes(start[20..24].try_into().expect("4 bytes")) as usize;
    let mut json = vec![0u8; len];
    file.read_exact(&mut json)
        .map_err(|_| bad("is cut short"))?;
    serde_json::from_slice(&json)
        .map(Some)
        .map_err(|_| bad("is not the JSON this lshscope writes"))
}

/// Reads until `buf` is full or the input ends; returns how many bytes were read.
fn read_up_to(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

impl LshIndex {
    /// Writes the index to `path` atomically: a failed write leaves any old file as it was.
    pub fn save(&self, path: &Path) -> Result<()> {
        save_parts(path, &self.corpus, &self.index, self.banding, None, &[])
    }

    #[cfg(test)]
    fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        write_parts(out, &self.corpus, &self.index, self.banding, None, &[])
    }

    /// Reads an index written by [`LshIndex::save`] (this format or an older one).
    pub fn load(path: &Path) -> Result<LshIndex> {
        Self::from_parts(load_parts(path)?, path)
    }

    /// [`LshIndex::load`] from bytes in memory; `path` names them in errors.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<LshIndex> {
        Self::from_parts(parts_from_bytes(bytes, path)?, path)
    }

    fn from_parts((header, corpus, index): (Header, Corpus, Index), path: &Path) -> Result<Self> {
        let banding =
            Banding::new(header.bands, header.rows, header.options.num_perm).map_err(|e| {
                Error::input(
                    path,
                    0,
                    format!("the index header's banding is invalid: {e}"),
                )
            })?;
        LshIndex::from_index(corpus, index, banding)
    }
}

/// Writes documents, shingle sets and signatures in the index format to `path` atomically
/// (a failed write leaves any old file as it was), without band tables: what
/// [`LshIndex::save`] writes, and the explorer's cache (with `cache_key` and the reader's
/// warnings).
pub fn save_parts(
    path: &Path,
    corpus: &Corpus,
    index: &Index,
    banding: Banding,
    cache_key: Option<String>,
    read_warnings: &[String],
) -> Result<()> {
    crate::io::atomic::write_atomically(path, |w| {
        let mut out = Checksummed::new(w);
        write_parts(
            &mut out,
            corpus,
            index,
            banding,
            cache_key.clone(),
            read_warnings,
        )?;
        let sum = out.hasher.digest();
        out.inner.write_all(&sum.to_le_bytes())
    })
}

/// Reads what [`save_parts`] wrote: the header, the documents and their index (no band
/// tables). Refuses a file whose checksum does not match, as [`LshIndex::load`] does.
pub fn load_parts(path: &Path) -> Result<(Header, Corpus, Index)> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let total = file.metadata().map_err(|e| Error::io(path, e))?.len();
    parts_from_reader(file, total, path)
}

fn write_parts(
    out: &mut dyn Write,
    corpus: &Corpus,
    index: &Index,
    banding: Banding,
    cache_key: Option<String>,
    read_warnings: &[String],
) -> std::io::Result<()> {
    let documents = corpus.len();
    {
        let header = Header {
            written_by: format!("lshscope {}", env!("CARGO_PKG_VERSION")),
            options: index.options.clone(),
            bands: banding.bands,
            rows: banding.rows,
            documents,
            cache_key,
            read_warnings: read_warnings.to_vec(),
        };
        let json = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
        out.write_all(MAGIC)?;
        out.write_all(&FORMAT.to_le_bytes())?;
        out.write_all(&(json.len() as u32).to_le_bytes())?;
        out.write_all(&json)?;
        let mut buf = Vec::with_capacity(1 << 20);
        let flush = |buf: &mut Vec<u8>, out: &mut dyn Write| -> std::io::Result<()> {
            if buf.len() >= 1 << 20 {
                out.write_all(buf)?;
                buf.clear();
            }
            Ok(())
        };
        for i in 0..documents {
            let (id, text) = (corpus.id(i), corpus.text(i));
            buf.extend_from_slice(&(id.len() as u32).to_le_bytes());
            buf.extend_from_slice(id.as_bytes());
            buf.extend_from_slice(&(text.len() as u64).to_le_bytes());
            buf.extend_from_slice(text.as_bytes());
            flush(&mut buf, out)?;
        }
        for i in 0..documents {
            let set = index.sets.get(i);
            buf.extend_from_slice(&(set.len() as u32).to_le_bytes());
            for h in set {
                buf.extend_from_slice(&h.to_le_bytes());
            }
            flush(&mut buf, out)?;
        }
        for v in index.signatures.rows() {
            buf.extend_from_slice(&v.to_le_bytes());
            flush(&mut buf, out)?;
        }
        out.write_all(&buf)
    }
}

fn parts_from_bytes(bytes: &[u8], path: &Path) -> Result<(Header, Corpus, Index)> {
    parts_from_reader(bytes, bytes.len() as u64, path)
}

/// Parses an index of `total` bytes from `input` in one pass, hashing as it reads, so a file
/// is never held in memory beside what is built from it. The checksum is compared once the
/// body has been read; when it does not match, that is the error reported, whatever the
/// parse found (a damaged length field shows up as a checksum mismatch, not as a confusing
/// parse error).
fn parts_from_reader(
    mut input: impl Read,
    total: u64,
    path: &Path,
) -> Result<(Header, Corpus, Index)> {
    let bad = |message: String| Error::input(path, 0, message);
    let mut start = [0u8; 20];
    let got = read_up_to(&mut input, &mut start).map_err(|e| Error::io(path, e))?;
    if !is_index_file(&start[..got]) {
        return Err(bad(
            "not an lshscope index file (it does not start with the index magic): build one \
             with `lshscope index build`"
                .to_string(),
        ));
    }
    if got < start.len() {
        return Err(bad(truncated("the format number")));
    }
    let format = u32::from_le_bytes(start[16..20].try_into().expect("4 bytes"));
    if format > FORMAT {
        return Err(bad(format!(
            "index format {format} was written by a newer lshscope; this one reads formats \
             up to {FORMAT}: upgrade lshscope or rebuild the index"
        )));
    }
    if format == 0 {
        return Err(bad(
            "index format 0 does not exist: the file is corrupt".into()
        ));
    }
    if total < start.len() as u64 + 8 {
        return Err(bad(truncated("the checksum")));
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&start);
    let body_len = total - 8 - start.len() as u64;
    let mut body = std::io::BufReader::with_capacity(
        1 << 20,
        Hashing {
            inner: (&mut input).take(body_len),
            hasher,
        },
    );
    let parsed = parse_body(&mut body, path);
    // Whatever the parse left unread still counts for the checksum.
    let left = std::io::copy(&mut body, &mut std::io::sink()).map_err(|e| Error::io(path, e))?;
    let digest = body.into_inner().hasher.digest();
    let mut sum = [0u8; 8];
    let stored = match input.read_exact(&mut sum) {
        Ok(()) => Some(u64::from_le_bytes(sum)),
        Err(_) => None,
    };
    if stored != Some(digest) {
        return Err(bad(
            "the index is corrupt (its checksum does not match its contents): rebuild it \
             with `lshscope index build`"
                .to_string(),
        ));
    }
    let parts = parsed?;
    if left > 0 {
        return Err(bad(format!(
            "{left} bytes after the signatures: the file is corrupt"
        )));
    }
    Ok(parts)
}

/// The header, documents, shingle sets and signatures, read from `r` (after the format
/// number; the checksum is the caller's).
fn parse_body(r: &mut impl Read, path: &Path) -> Result<(Header, Corpus, Index)> {
    let bad = |message: String| Error::input(path, 0, message);
    let header_len = read_u32(r).ok_or_else(|| bad(truncated("the header")))? as usize;
    let header: Header = read_bytes(r, header_len)
        .and_then(|h| serde_json::from_slice(&h).ok())
        .ok_or_else(|| bad("the index header is not the JSON this lshscope writes".into()))?;
    Banding::new(header.bands, header.rows, header.options.num_perm)
        .map_err(|e| bad(format!("the index header's banding is invalid: {e}")))?;
    let n = header.documents;
    let mut corpus = Corpus::new();
    for i in 0..n {
        let doc = (|| {
            let id_len = read_u32(r)? as usize;
            let id = String::from_utf8(read_bytes(r, id_len)?).ok()?;
            let text_len = usize::try_from(read_u64(r)?).ok()?;
            let text = String::from_utf8(read_bytes(r, text_len)?).ok()?;
            Some((id, text))
        })()
        .ok_or_else(|| {
            bad(format!(
                "document {} of {n} is cut short or not UTF-8",
                i + 1
            ))
        })?;
        corpus.push(&doc.0, &doc.1);
    }
    let mut sets = ShingleSets::default();
    let mut set = Vec::new();
    let mut raw = Vec::new();
    for i in 0..n {
        let cut = || {
            bad(format!(
                "the shingle set of document {} is cut short",
                i + 1
            ))
        };
        let count = read_u32(r).ok_or_else(cut)? as usize;
        raw.resize(count * 8, 0);
        r.read_exact(&mut raw).map_err(|_| cut())?;
        set.clear();
        set.extend(
            raw.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
        );
        if !set.windows(2).all(|w| w[0] < w[1]) {
            return Err(bad(format!(
                "the shingle set of document {} is not sorted: the file is corrupt",
                i + 1
            )));
        }
        sets.push(&set);
    }
    let k = header.options.num_perm;
    let total = n
        .checked_mul(k)
        .ok_or_else(|| bad(truncated("the signatures")))?;
    let mut data: Vec<u32> = Vec::with_capacity(total.min(1 << 28));
    let mut chunk = vec![0u8; 1 << 20];
    while data.len() < total {
        let want = ((total - data.len()) * 4).min(chunk.len());
        r.read_exact(&mut chunk[..want])
            .map_err(|_| bad(truncated("the signatures")))?;
        data.extend(
            chunk[..want]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))),
        );
    }
    let empty = (0..n).map(|i| sets.get(i).is_empty()).collect();
    let signatures = Signatures::from_rows(k, data, empty)
        .ok_or_else(|| bad("the signatures do not match the documents".into()))?;
    let index = Index {
        options: header.options.clone(),
        sets,
        signatures,
    };
    Ok((header, corpus, index))
}

fn truncated(what: &str) -> String {
    format!("the index is cut short before {what}: the file is truncated or not an index")
}

fn read_u32(r: &mut impl Read) -> Option<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b).ok()?;
    Some(u32::from_le_bytes(b))
}

fn read_u64(r: &mut impl Read) -> Option<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b).ok()?;
    Some(u64::from_le_bytes(b))
}

/// `len` bytes, or `None` when the input ends first (read in steps, so a damaged length
/// cannot ask for more memory than the input holds).
fn read_bytes(r: &mut impl Read, len: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(len.min(1 << 16));
    r.take(len as u64).read_to_end(&mut out).ok()?;
    (out.len() == len).then_some(out)
}

/// A reader that hashes every byte it passes on.
struct Hashing<R> {
    inner: R,
    hasher: xxhash_rust::xxh3::Xxh3,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// A writer that hashes every byte it passes on.
struct Checksummed<'w> {
    inner: &'w mut dyn Write,
    hasher: xxhash_rust::xxh3::Xxh3,
}

impl<'w> Checksummed<'w> {
    fn new(inner: &'w mut dyn Write) -> Self {
        Checksummed {
            inner,
            hasher: xxhash_rust::xxh3::Xxh3::new(),
        }
    }
}

impl Write for Checksummed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.hasher.update(&buf[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::Progress;

    fn sample() -> LshIndex {
        sample_of(SketchFamily::Classic)
    }

    fn sample_of(family: SketchFamily) -> LshIndex {
        let corpus = Corpus::from_pairs([
            ("a", "the quick brown fox jumps over the lazy dog"),
            ("b", "the quick brown fox jumped over the lazy dog"),
            ("c", ""),
            ("d", "an unrelated sentence about tax forms"),
        ]);
        let options = IndexOptions {
            num_perm: 32,
            family,
            ..IndexOptions::default()
        };
        LshIndex::build(
            corpus,
            &options,
            Banding { bands: 8, rows: 4 },
            &Progress::new(),
        )
        .unwrap()
    }

    fn saved(index: &LshIndex) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = Checksummed::new(&mut out);
        index.write_to(&mut w).unwrap();
        let sum = w.hasher.digest();
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn round_trips() {
        let index = sample();
        let bytes = saved(&index);
        let back = LshIndex::from_bytes(&bytes, Path::new("x.lshidx")).unwrap();
        assert_eq!(back.len(), 4);
        assert_eq!(back.options(), index.options());
        assert_eq!(back.banding(), index.banding());
        for i in 0..4u32 {
            assert_eq!(back.id(i), index.id(i));
            assert_eq!(back.text(i), index.text(i));
            assert_eq!(
                back.index.sets.get(i as usize),
                index.index.sets.get(i as usize)
            );
            assert_eq!(
                back.index.signatures.row(i as usize),
                index.index.signatures.row(i as usize)
            );
        }
        assert_eq!(
            back.query("the quick brown fox jumps over a lazy dog"),
            index.query("the quick brown fox jumps over a lazy dog")
        );
    }

    #[test]
    fn refuses_every_kind_of_damage() {
        let bytes = saved(&sample());
        let err = |b: &[u8]| {
            LshIndex::from_bytes(b, Path::new("x.lshidx"))
                .unwrap_err()
                .to_string()
        };
        assert!(err(b"id,text\n1,hello\n").contains("not an lshscope index file"));
        for cut in [16, 20, bytes.len() / 2, bytes.len() - 1] {
            let e = err(&bytes[..cut]);
            assert!(
                e.contains("cut short") || e.contains("corrupt"),
                "cut at {cut}: {e}"
            );
        }
        for at in [30, bytes.len() / 2, bytes.len() - 20] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x40;
            assert!(err(&flipped).contains("checksum"), "flip at {at}");
        }
        let mut newer = bytes.clone();
        newer[16..20].copy_from_slice(&2u32.to_le_bytes());
        assert!(err(&newer).contains("newer lshscope"));
        assert!(err(&newer).starts_with("x.lshidx"));
    }

    /// `bytes` (a saved index) with its header's JSON edited by `edit` and the checksum
    /// recomputed: a file as another writer would have written it.
    fn with_header(bytes: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
        let len = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
        let mut header: serde_json::Value = serde_json::from_slice(&bytes[24..24 + len]).unwrap();
        edit(&mut header);
        let json = serde_json::to_vec(&header).unwrap();
        let mut out = bytes[..20].to_vec();
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(&json);
        out.extend_from_slice(&bytes[24 + len..bytes.len() - 8]);
        let sum = xxhash_rust::xxh3::xxh3_64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn the_family_round_trips_and_older_files_read_as_classic() {
        for family in SketchFamily::ALL {
            let index = sample_of(family);
            let bytes = saved(&index);
            let back = LshIndex::from_bytes(&bytes, Path::new("x.lshidx")).unwrap();
            assert_eq!(back.options().family, family);
            assert_eq!(
                back.index.signatures.rows(),
                index.index.signatures.rows(),
                "{family}"
            );
            // Documents added later are sketched with the file's family.
            let text = "the quick brown fox jumps over the lazy cat";
            let mut grown = back.clone();
            let doc = grown.insert("e", text);
            let direct = crate::online::hash_text(index.options(), text).1;
            assert_eq!(grown.index.signatures.row(doc as usize), &direct[..]);
        }
        // A file of a version before families: no `family` in its options.
        let classic = saved(&sample());
        let old = with_header(&classic, |h| {
            let options = h["options"].as_object_mut().unwrap();
            assert_eq!(options.remove("family").unwrap(), "classic");
        });
        let back = LshIndex::from_bytes(&old, Path::new("old.lshidx")).unwrap();
        assert_eq!(back.options().family, SketchFamily::Classic);
        assert_eq!(back.options(), sample().options());
    }

    #[test]
    fn an_index_of_another_family_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("oph.lshidx");
        sample_of(SketchFamily::OnePermutation).save(&path).unwrap();
        let header = read_header(&path).unwrap().unwrap();
        header
            .check_family(SketchFamily::OnePermutation, &path)
            .unwrap();
        let err = header
            .check_family(SketchFamily::Classic, &path)
            .unwrap_err()
            .to_string();
        assert!(err.contains("oph.lshidx"), "{err}");
        assert!(
            err.contains("built with the one-permutation sketch family, not classic"),
            "{err}"
        );
        assert!(err.contains("with `family` one-permutation"), "{err}");
        assert!(
            err.contains("`lshscope index build family classic`"),
            "{err}"
        );
    }
}
