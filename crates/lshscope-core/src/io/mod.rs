//! Files in and out: atomic writes, compression by file name, and input quoted in messages.

pub mod atomic;
pub mod excerpt;
