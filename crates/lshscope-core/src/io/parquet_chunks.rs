//! The file as the `parquet` crate reads it, with the end of the file an error.
//!
//! The crate decodes a page header from a stream (`ChunkReader::get_read`), and its Thrift
//! reader skips a field with `std::io::copy(take(n), sink)` without checking that n bytes came
//! (parquet 60.1, `ThriftReadInputProtocol::skip_bytes`). Past the end of the file the copy
//! returns 0 bytes and the skip succeeds, so a corrupt header that declares a list of two
//! billion doubles is skipped element by element without consuming anything: minutes of CPU,
//! found by the fuzzers (`fuzz/regressions`). Here a read at the end of the file is an
//! `UnexpectedEof` error instead, which ends such a skip at once; a header never runs past
//! the file, so no valid read changes.

use std::io::Read;

use bytes::Bytes;
use parquet::file::reader::{ChunkReader, Length};

/// A [`ChunkReader`] whose streams fail at the end of the file instead of returning 0 bytes.
pub(crate) struct EndIsError<R>(pub(crate) R);

impl<R: ChunkReader> Length for EndIsError<R> {
    fn len(&self) -> u64 {
        self.0.len()
    }
}

impl<R: ChunkReader> ChunkReader for EndIsError<R> {
    type T = FailAtEnd<R::T>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        self.0.get_read(start).map(FailAtEnd)
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.0.get_bytes(start, length)
    }
}

/// A stream that reports its end as an error.
pub(crate) struct FailAtEnd<T>(T);

impl<T: Read> Read for FailAtEnd<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.read(buf)? {
            0 if !buf.is_empty() => Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "a page header runs past the end of the file",
            )),
            n => Ok(n),
        }
    }
}
