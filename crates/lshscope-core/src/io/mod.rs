//! Files in and out: atomic writes, compression (one codec table for reading and writing), the
//! Parquet column toolkit and the two-column table reader the importers share, and input
//! quoted in messages.

pub mod atomic;
pub mod compression;
pub mod excerpt;
pub(crate) mod parquet;
pub(crate) mod parquet_chunks;
pub(crate) mod table;
