//! The LSH settings several commands share, declared once: bands and rows (`-b`, `-r`), the
//! bucket cap of the batch commands, the threshold that keeps verified pairs (`-t`), and a
//! banding written as one value (`BxR`, for `tune` and `plot`).
//!
//! A command whose flag means something else (the explorer's values to start with, `plot`'s
//! curve, `dedup`'s required threshold, `truth`'s join threshold) either flattens a group and
//! rewords its help with `mut_arg`, keeping the default, or declares its own flag.

use std::str::FromStr;

use clap::Args;

use lshscope_core::Result;
use lshscope_core::minhash::Banding;

/// Bands b when `-b` is not given (with [`DEFAULT_ROWS`]: 20 × 5, candidates from about
/// Jaccard 0.5 up).
pub const DEFAULT_BANDS: usize = 20;

/// Rows per band r when `-r` is not given.
pub const DEFAULT_ROWS: usize = 5;

/// `-b`/`-r`: the bands and rows of an LSH banding.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct BandsRowsArgs {
    /// Number of LSH bands b.
    #[arg(long, short = 'b', default_value_t = DEFAULT_BANDS)]
    pub bands: usize,
    /// Rows per band r (b·r must not exceed --num-perm).
    #[arg(long, short = 'r', default_value_t = DEFAULT_ROWS)]
    pub rows: usize,
}

impl Default for BandsRowsArgs {
    fn default() -> Self {
        BandsRowsArgs {
            bands: DEFAULT_BANDS,
            rows: DEFAULT_ROWS,
        }
    }
}

impl BandsRowsArgs {
    /// The banding, checked against K permutations.
    pub fn banding(&self, num_perm: usize) -> Result<Banding> {
        // Named here, where the options are known: the engine's check speaks of bands and rows.
        for (option, value) in [("--bands (-b)", self.bands), ("--rows (-r)", self.rows)] {
            if value == 0 {
                return Err(lshscope_core::Error::usage(format!(
                    "{option} must be at least 1, got 0"
                )));
            }
        }
        Banding::new(self.bands, self.rows, num_perm)
    }
}

/// The banding of the batch commands (`scan`, `dedup`): bands, rows and the bucket cap.
#[derive(Debug, Clone, Args)]
pub struct BandingArgs {
    #[command(flatten)]
    pub bands_rows: BandsRowsArgs,
    /// In a bucket with more than N documents, only the first N (in input order) form pairs;
    /// where identical copies are collapsed, a group counts as one document. At least 2.
    #[arg(long, value_name = "N", value_parser = parse_max_bucket)]
    pub max_bucket: Option<usize>,
}

/// `--max-bucket N`, refused below [`lshscope_core::minhash::MIN_MAX_BUCKET`] (the engine never caps
/// below a pair, so such an N would silently mean 2).
pub fn parse_max_bucket(text: &str) -> std::result::Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("expected a whole number of documents, got `{text}`"))?;
    if let Some(why) = lshscope_core::minhash::max_bucket_refusal(n) {
        return Err(format!("{why}, or leave the option out for no cap"));
    }
    Ok(n)
}

impl BandingArgs {
    /// The banding, checked against K permutations.
    pub fn banding(&self, num_perm: usize) -> Result<Banding> {
        self.bands_rows.banding(num_perm)
    }
}

/// `-t`: the exact Jaccard a verified pair needs to be kept, 0 (every candidate) unless
/// given (`scan`; `index query` keeps matches).
#[derive(Debug, Clone, Args)]
pub struct KeepThresholdArgs {
    /// Keep pairs whose exact Jaccard is at least T (0 keeps every candidate).
    #[arg(
        long,
        short = 't',
        default_value_t = 0.0,
        value_name = "T",
        allow_negative_numbers = true
    )]
    pub threshold: f64,
}

impl KeepThresholdArgs {
    /// The threshold, checked to be in [0, 1] (a usage error naming `--threshold` if not).
    pub fn checked(&self) -> Result<f64> {
        lshscope_core::error::check_unit("--threshold", self.threshold)?;
        Ok(self.threshold)
    }
}

/// `BxR` (bands × rows) on the command line, e.g. `16x8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BandingArg {
    pub bands: usize,
    pub rows: usize,
}

impl FromStr for BandingArg {
    type Err = String;
    fn from_str(text: &str) -> std::result::Result<Self, String> {
        let (b, r) = text
            .split_once(['x', 'X', '×'])
            .ok_or_else(|| format!("expected BANDSxROWS such as 16x8, got `{text}`"))?;
        let parse = |v: &str, what: &str| {
            v.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{what} `{v}` in `{text}` is not a positive integer"))
        };
        Ok(BandingArg {
            bands: parse(b, "bands")?,
            rows: parse(r, "rows")?,
        })
    }
}

impl From<BandingArg> for Banding {
    fn from(b: BandingArg) -> Self {
        Banding {
            bands: b.bands,
            rows: b.rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches, Parser};

    #[derive(Debug, Parser)]
    struct Banded {
        #[command(flatten)]
        banding: BandingArgs,
        #[command(flatten)]
        keep: KeepThresholdArgs,
    }

    #[test]
    fn defaults_come_from_the_declarations() {
        let parsed = Banded::try_parse_from(["x"]).unwrap();
        assert_eq!(parsed.banding.bands_rows, BandsRowsArgs::default());
        assert_eq!(parsed.banding.max_bucket, None);
        assert_eq!(parsed.keep.threshold, 0.0);
        let matches = Banded::command()
            .try_get_matches_from(["x", "-b", "9", "-r", "3", "-t", "0.7"])
            .unwrap();
        let parsed = Banded::from_arg_matches(&matches).unwrap();
        assert_eq!(
            (
                parsed.banding.bands_rows.bands,
                parsed.banding.bands_rows.rows
            ),
            (9, 3)
        );
        assert_eq!(parsed.keep.checked().unwrap(), 0.7);
    }

    #[test]
    fn a_threshold_outside_the_unit_interval_names_the_flag() {
        let parsed = Banded::try_parse_from(["x", "-t", "-0.1"]).unwrap();
        let error = parsed.keep.checked().unwrap_err();
        assert_eq!(error.to_string(), "--threshold must be in [0, 1], got -0.1");
        assert_eq!(error.exit_code(), 2);
    }
}
