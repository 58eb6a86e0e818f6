//! The summary lines several commands print on stderr: what was read, how long each phase
//! took, what `--max-bucket` left out, and ids as messages show them.

use lshscope_core::corpus::ReadReport;
pub(super) use lshscope_core::io::excerpt::{first_of, id_for_message};
use lshscope_core::pipeline::PhaseTiming;
use lshscope_core::util::numfmt::{for_count, thousands};

/// What `--max-bucket` left out, one line (shared by `scan` and `dedup`); nothing when no
/// bucket was capped.
pub(super) fn render_cap(capped_buckets: usize, pairs_dropped: u64) -> String {
    if capped_buckets == 0 {
        return String::new();
    }
    format!(
        "--max-bucket capped {} {}; {} bucket {} not emitted\n",
        thousands(capped_buckets as u64),
        for_count(capped_buckets as u64, "bucket", "buckets"),
        thousands(pairs_dropped),
        for_count(pairs_dropped, "pair", "pairs")
    )
}

/// The first summary line: what was read (shared by the corpus commands).
pub(super) fn render_read_line(r: &ReadReport, input: &str, without_shingles: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let sampled = if r.rows_read > r.documents {
        format!(" (sampled from {})", thousands(r.rows_read as u64))
    } else {
        String::new()
    };
    let compression = r.compression.map(|c| format!(", {c}")).unwrap_or_default();
    let _ = writeln!(
        out,
        "read {} {}{sampled} from {input}{compression} ({} skipped, {} empty, {} without shingles, {} with invalid UTF-8)",
        thousands(r.documents as u64),
        for_count(r.documents as u64, "document", "documents"),
        thousands(r.skipped as u64),
        thousands(r.empty as u64),
        thousands(without_shingles as u64),
        thousands(r.lossy_utf8 as u64)
    );
    let l = &r.lines;
    if l.physical > 0 {
        // Why lines and documents differ, so no document goes missing without a word.
        let mut reasons = Vec::new();
        let plural =
            |n: u64, one: &str, many: &str| format!("{} {}", thousands(n), for_count(n, one, many));
        if l.header > 0 {
            reasons.push(plural(l.header, "header line", "header lines"));
        }
        if l.blank > 0 {
            reasons.push(plural(l.blank, "blank line", "blank lines") + " skipped");
        }
        if l.continuation > 0 {
            reasons
                .push(plural(l.continuation, "line", "lines") + " inside multi-line quoted fields");
        }
        if r.skipped > 0 {
            reasons.push(plural(r.skipped as u64, "bad row", "bad rows") + " skipped");
        }
        let _ = writeln!(
            out,
            "  {} → {}{}{}",
            plural(l.physical, "line", "lines"),
            plural(r.rows_read as u64, "row", "rows"),
            if reasons.is_empty() { "" } else { ": " },
            reasons.join(", ")
        );
    }
    if r.duplicate_ids > 0 {
        let _ = writeln!(out, "  {}", duplicate_ids_message(r));
    }
    // Rows skipped have line numbers; files skipped in a directory are listed below instead.
    if !r.skipped_lines.is_empty() {
        let _ = writeln!(
            out,
            "  {} {}",
            for_count(
                r.skipped as u64,
                "skipped row at line",
                "skipped rows at lines"
            ),
            first_of(&r.skipped_lines, r.skipped)
        );
    }
    if !r.skipped_files.is_empty() {
        // Only a directory skips files, and then every skip is a file: more than are listed
        // means the list was cut.
        let _ = writeln!(
            out,
            "  unreadable files skipped: {}",
            first_of(&r.skipped_files, r.skipped)
        );
    }
    out
}

/// `N documents repeat an earlier id (first: a, b); pairs name documents by id, …`, for
/// the warning and the summary.
pub(super) fn duplicate_ids_message(r: &ReadReport) -> String {
    format!(
        "{}; pairs name documents by id, so make ids unique, choose another \
         --id-column/--id-field, or name them by row number with --row-ids",
        r.repeated_ids()
    )
}

/// One line per phase: time and throughput (shared by the corpus commands).
pub(super) fn render_phases(phases: &[PhaseTiming]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for p in phases {
        let _ = writeln!(
            out,
            "  {:<32} {:>8.3} s  {:>14}/s",
            p.phase.label(),
            p.seconds,
            super::progress::human_rate(p.rate(), p.unit)
        );
    }
    out
}

/// A similarity bin as the tables print it: `[lo, hi)`, closed at 1 (`[0.95, 1.00]`).
pub(crate) fn bin_label(lo: f64, hi: f64) -> String {
    format!("[{lo:.2}, {hi:.2}{}", if hi >= 1.0 { "]" } else { ")" })
}

/// `--compare-family`: each family's candidate rate per bin, the mean over its redraws with
/// the 95 % interval of that mean, beside the formula; `*` marks an interval that excludes it.
pub(crate) fn render_families(
    families: &[lshscope_core::analysis::family_curve::FamilyCurve],
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let draws = families[0].draws;
    let _ = writeln!(
        out,
        "sketch families, mean rate over {draws} draws each (95 % interval; * excludes the S-curve):"
    );
    let _ = write!(out, "  {:<14} {:>8} {:>8}", "Jaccard", "true", "S-curve");
    for f in families {
        let _ = write!(out, "   {:<24}", f.family.name());
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for (i, bin) in families[0].bins.iter().enumerate() {
        let _ = write!(
            out,
            "  {}   {:>8} {:>8.3}",
            bin_label(bin.lo, bin.hi),
            bin.pairs,
            bin.predicted
        );
        for f in families {
            // Every family is measured on the same truth pairs and bins.
            let b = &f.bins[i];
            let cell = format!(
                "{:.3} [{:.3}, {:.3}]{}",
                b.rate,
                b.interval_lo,
                b.interval_hi,
                if b.departs() { " *" } else { "" }
            );
            let _ = write!(out, "   {cell:<24}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let _ = write!(out, "bins departing from the S-curve:");
    for f in families {
        let _ = write!(
            out,
            " {} {} of {}{}",
            f.family.name(),
            f.departing_bins(),
            f.bins.len(),
            if std::ptr::eq(f, families.last().unwrap()) {
                ""
            } else {
                ";"
            }
        );
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_messages_read_unambiguously() {
        assert_eq!(id_for_message("doc-7"), "doc-7");
        assert_eq!(id_for_message(""), "\"\"");
        assert_eq!(id_for_message("a, b"), "\"a, b\"");
        assert_eq!(id_for_message(" x"), "\" x\"");
        assert_eq!(id_for_message("two\nlines"), "\"two\\nlines\"");
        let read = ReadReport {
            duplicate_ids: 1_234,
            duplicate_id_examples: vec!["a".into(), String::new()],
            repeated_id_values: 3,
            ..ReadReport::default()
        };
        assert_eq!(
            read.repeated_ids(),
            "1,234 documents repeat an earlier id (first: a, \"\", …)"
        );
    }

    #[test]
    fn the_cap_line_appears_only_when_a_bucket_was_capped() {
        assert_eq!(render_cap(0, 0), "");
        assert_eq!(
            render_cap(518, 175_074_714),
            "--max-bucket capped 518 buckets; 175,074,714 bucket pairs not emitted\n"
        );
        assert_eq!(
            render_cap(1, 1),
            "--max-bucket capped 1 bucket; 1 bucket pair not emitted\n"
        );
    }
}
