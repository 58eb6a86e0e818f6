//! Stream compression, one codec table for reading and writing: what a file name promises
//! (`.gz`, `.zst`, `.bz2`, `.xz`), what the first bytes say, the decoder that reads it and the
//! encoder that writes it. Corpora and pair files are read through [`Compression::decoder`];
//! outputs are written through [`Compression::encode`].

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Read buffer of a decoder's output: large enough that per-call overhead vanishes next to
/// parsing.
const DECODED_BUFFER_BYTES: usize = 256 * 1024;

// Magic bytes: RFC 1952 §2.3.1 (gzip), RFC 8878 §3.1.1 (zstd), the bzip2 stream header `BZh`
// followed by the block size digit, and the xz stream header (xz file format §2.1.1.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
const BZIP2_MAGIC: &[u8] = b"BZh";
const XZ_MAGIC: [u8; 6] = [0xfd, b'7', b'z', b'X', b'Z', 0x00];

/// A stream's compression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain bytes.
    None,
    /// gzip (`.gz`); read multi-member.
    Gzip,
    /// Zstandard (`.zst`).
    Zstd,
    /// bzip2 (`.bz2`); read multi-stream.
    Bzip2,
    /// xz (`.xz`); read multi-stream.
    Xz,
}

impl Compression {
    /// Every codec, `None` first.
    pub const ALL: [Compression; 5] = [
        Compression::None,
        Compression::Gzip,
        Compression::Zstd,
        Compression::Bzip2,
        Compression::Xz,
    ];

    /// What the file name promises by its last extension (any case).
    pub fn from_name(path: &Path) -> Compression {
        let extension = lower_extension(path);
        Compression::ALL
            .into_iter()
            .skip(1)
            .find(|c| extension.as_deref() == Some(c.extension()))
            .unwrap_or(Compression::None)
    }

    /// The compression a name asks for, and the name without that extension (`a.csv.gz` →
    /// `a.csv`), so the format can be read from what is left.
    pub fn strip(path: &Path) -> (PathBuf, Compression) {
        match Compression::from_name(path) {
            Compression::None => (path.to_path_buf(), Compression::None),
            c => (path.with_extension(""), c),
        }
    }

    /// The codec's name in messages and reports (`gzip`), `None` for plain bytes.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Compression::None => None,
            Compression::Gzip => Some("gzip"),
            Compression::Zstd => Some("zstd"),
            Compression::Bzip2 => Some("bzip2"),
            Compression::Xz => Some("xz"),
        }
    }

    /// The file extension without its dot (`gz`), empty for plain bytes.
    pub fn extension(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => "gz",
            Compression::Zstd => "zst",
            Compression::Bzip2 => "bz2",
            Compression::Xz => "xz",
        }
    }

    /// What the first bytes of a stream say.
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&GZIP_MAGIC) {
            Compression::Gzip
        } else if head.starts_with(&ZSTD_MAGIC) {
            Compression::Zstd
        } else if head.len() >= 4
            && head.starts_with(BZIP2_MAGIC)
            && (b'1'..=b'9').contains(&head[3])
        {
            Compression::Bzip2
        } else if head.starts_with(&XZ_MAGIC) {
            Compression::Xz
        } else {
            Compression::None
        }
    }

    /// `reader` decoded: the one place that knows each codec's decoder. Concatenated members
    /// or streams read as one (`cat a.gz b.gz` is a valid gzip file, RFC 1952 §2.2; `pbzip2`
    /// writes several bzip2 streams).
    pub fn decoder<'a, R: BufRead + 'a>(self, reader: R) -> std::io::Result<Box<dyn BufRead + 'a>> {
        let buffered = |r: Box<dyn std::io::Read + 'a>| -> Box<dyn BufRead + 'a> {
            Box::new(BufReader::with_capacity(DECODED_BUFFER_BYTES, r))
        };
        Ok(match self {
            Compression::None => Box::new(reader),
            Compression::Gzip => buffered(Box::new(flate2::bufread::MultiGzDecoder::new(reader))),
            Compression::Zstd => {
                buffered(Box::new(zstd::stream::read::Decoder::with_buffer(reader)?))
            }
            Compression::Bzip2 => buffered(Box::new(bzip2::bufread::MultiBzDecoder::new(reader))),
            Compression::Xz => buffered(Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(
                reader,
            ))),
        })
    }

    /// Runs `write` on an encoder over `w` and finishes the stream (its trailer written, not
    /// `w` flushed or closed). Fast levels: outputs are written on every run and read a few
    /// times, so speed matters more than the last percent of size (gzip 1, zstd 3, bzip2 1,
    /// xz 1).
    pub fn encode<E: From<std::io::Error>>(
        self,
        w: &mut dyn Write,
        write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            Compression::None => write(w),
            Compression::Gzip => {
                let mut enc = flate2::write::GzEncoder::new(w, flate2::Compression::fast());
                write(&mut enc)?;
                Ok(enc.try_finish()?)
            }
            Compression::Zstd => {
                let mut enc = zstd::stream::write::Encoder::new(w, 3)?;
                write(&mut enc)?;
                enc.finish()?;
                Ok(())
            }
            Compression::Bzip2 => {
                let mut enc = bzip2::write::BzEncoder::new(w, bzip2::Compression::fast());
                write(&mut enc)?;
                Ok(enc.try_finish()?)
            }
            Compression::Xz => {
                let mut enc = liblzma::write::XzEncoder::new(w, 1);
                write(&mut enc)?;
                Ok(enc.try_finish()?)
            }
        }
    }
}

/// The last extension of `path`, lowercased.
pub fn lower_extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn every_codec_round_trips_and_is_recognised_by_name_and_bytes() {
        let text = "id,text\n1,a first document\n2,a second one\n".repeat(50);
        for c in Compression::ALL {
            let mut bytes = Vec::new();
            c.encode(&mut bytes, |w| w.write_all(text.as_bytes()))
                .unwrap();
            assert_eq!(Compression::sniff(&bytes), c, "{c:?}");
            if c != Compression::None {
                assert_ne!(bytes, text.as_bytes(), "{c:?} wrote plain bytes");
                let name = format!("pairs.csv.{}", c.extension().to_uppercase());
                assert_eq!(
                    Compression::strip(Path::new(&name)),
                    (PathBuf::from("pairs.csv"), c)
                );
            }
            let mut back = String::new();
            c.decoder(&bytes[..])
                .unwrap()
                .read_to_string(&mut back)
                .unwrap();
            assert_eq!(back, text, "{c:?}");
        }
        assert_eq!(
            Compression::strip(Path::new("pairs.csv")),
            (PathBuf::from("pairs.csv"), Compression::None)
        );
    }

    #[test]
    fn concatenated_streams_read_as_one() {
        for c in [
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Xz,
            Compression::Zstd,
        ] {
            let mut bytes = Vec::new();
            for part in ["first\n", "second\n"] {
                c.encode(&mut bytes, |w| w.write_all(part.as_bytes()))
                    .unwrap();
            }
            let mut back = String::new();
            c.decoder(&bytes[..])
                .unwrap()
                .read_to_string(&mut back)
                .unwrap();
            assert_eq!(back, "first\nsecond\n", "{c:?}");
        }
    }
}
