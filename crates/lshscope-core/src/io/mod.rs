//! Files in and out: opening an input, atomic writes, compression (one codec table for reading
//! and writing), the header-row CSV reader, the Parquet column toolkit and the two-column table
//! reader the importers share, and input quoted in messages.

pub mod atomic;
pub mod compression;
pub mod excerpt;
pub mod header_csv;
pub mod input;
pub(crate) mod parquet;
pub(crate) mod parquet_chunks;
pub(crate) mod table;
