//! Numbers as people read them: percentages, digit grouping, compact counts and rates. One
//! copy for the CLI, the explorer, the figures and the engine's own sentences (the tuner's
//! notes, the shingle advice), with no terminal dependency.
//!
//! The percentage styles differ on purpose, each for where it is read; their names say how.

/// A decimal as a person would write it: at most 12 significant decimals, trailing zeros
/// dropped, so arithmetic noise never reaches the user (`1.0 - 0.8` is `0.2`, not
/// `0.19999999999999996`).
pub fn decimal(x: f64) -> String {
    let text = format!("{:.12}", x);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// [`decimal`] cut after `places` decimals, with `…` where digits were cut (`0.2718…` for
/// 0.27184466…): a threshold read from data (a truth file's lowest Jaccard) stays readable,
/// and the ellipsis says it is not the whole value, where rounding would misstate it.
pub fn decimal_cut(x: f64, places: usize) -> String {
    let full = decimal(x);
    match full.find('.') {
        Some(dot) if full.len() - dot - 1 > places => format!("{}…", &full[..dot + 1 + places]),
        _ => full,
    }
}

/// A probability as a percentage with enough digits to tell 99.6 % from 99.63 %: two decimals,
/// three below 0.1 % and above 99.9 %, and never a flat 0 % or 100 % for a value that is not
/// exactly 0 or 1 (`< 0.001 %`, `> 99.999 %`). The tuner's tables and notes.
pub fn percent_fine(p: f64) -> String {
    let v = 100.0 * p;
    if (0.999995..1.0).contains(&p) {
        return "> 99.999 %".to_string();
    }
    if p > 0.0 && p < 0.000005 {
        return "< 0.001 %".to_string();
    }
    if v != 0.0 && !(0.1..=99.9).contains(&v) && v != 100.0 {
        format!("{v:.3} %")
    } else {
        format!("{v:.2} %")
    }
}

/// A proportion as a percentage with one decimal from 1 % up and more below, so that a
/// precision of 1,099 in 3.5 M candidates reads `0.031 %`, not `0.0 %`: two decimals in
/// [0.1 %, 1 %), three below; and near 100 % as many as keep it below 100 (`99.97 %`,
/// `99.997 %`, then `> 99.999 %`): a recall with 73 of 22.8 M pairs missed is not `100.0 %`.
/// The explorer's recall, precision and probabilities.
pub fn percent_adaptive(p: f64) -> String {
    let v = p * 100.0;
    if p < 1.0 && v >= 99.95 {
        return if v >= 99.9995 {
            "> 99.999 %".to_string()
        } else if v >= 99.995 {
            format!("{v:.3} %")
        } else {
            format!("{v:.2} %")
        };
    }
    let decimals = if v == 0.0 || v >= 1.0 {
        1
    } else if v >= 0.1 {
        2
    } else {
        3
    };
    format!("{v:.decimals$} %")
}

/// The two ends of an interval of proportions as percentages that stay apart: with
/// [`percent_adaptive`]'s decimals where those tell the ends apart, else one more decimal at a
/// time (up to four, or one more than they showed) until they do, the low end rounded down
/// and the high end up, so that 0.9988–0.99909 reads `99.88 % – 99.91 %`, not
/// `99.9 % – 99.9 %`.
pub fn percent_interval(low: f64, high: f64) -> (String, String) {
    let (low_text, high_text) = (percent_adaptive(low), percent_adaptive(high));
    if low_text != high_text || low >= high {
        return (low_text, high_text);
    }
    // One more decimal than either end showed, and more while they still agree.
    let shown = |text: &str| text.split('.').nth(1).map_or(0, |d| d.len() - " %".len());
    let start = shown(&low_text).max(shown(&high_text)) + 1;
    let (lo, hi) = (100.0 * low, 100.0 * high);
    let mut decimals = start;
    loop {
        let scale = 10f64.powi(decimals as i32);
        if (lo * scale).round() != (hi * scale).round() || decimals >= start.max(4) {
            return (
                format!("{:.decimals$} %", (lo * scale).floor() / scale),
                format!("{:.decimals$} %", (hi * scale).ceil() / scale),
            );
        }
        decimals += 1;
    }
}

/// A share in a sentence: whole percent from 10 % up (`66 %`), one decimal below (`3.4 %`).
pub fn percent_rough(p: f64) -> String {
    let v = 100.0 * p;
    if v >= 10.0 {
        format!("{v:.0} %")
    } else {
        format!("{v:.1} %")
    }
}

/// A probability for a figure label: two decimals (`47.01 %`), and `< 0.01 %` or `> 99.99 %`
/// rather than a flat 0 % or 100 % for a value that is not exactly 0 or 1.
pub fn percent_two_decimals(p: f64) -> String {
    if p > 0.0 && p < 0.00005 {
        "< 0.01 %".to_string()
    } else if (0.99995..1.0).contains(&p) {
        "> 99.99 %".to_string()
    } else {
        format!("{:.2} %", 100.0 * p)
    }
}

/// `1814017` → `1,814,017`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1234567` → `1.2 M`, for tight spaces; below 1000 the number itself.
pub fn compact(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} M", n as f64 / 1e6),
        _ => format!("{:.1} G", n as f64 / 1e9),
    }
}

/// An amount of `unit`: bytes as MB (`12.3 MB`), everything else as a [`compact`] count and
/// the unit (`45.6 k docs`).
pub fn amount(n: u64, unit: &str) -> String {
    if unit == "bytes" {
        format!("{:.1} MB", n as f64 / 1e6)
    } else {
        format!("{} {unit}", compact(n))
    }
}

/// A rate of `unit` per second: `12.3 MB/s` for bytes, else a [`compact`] count of the rate
/// rounded to a whole number (`45.6 k docs/s`).
pub fn rate(per_second: f64, unit: &str) -> String {
    if unit == "bytes" {
        format!("{:.1} MB/s", per_second / 1e6)
    } else {
        format!("{} {unit}/s", compact(per_second.round() as u64))
    }
}

/// A value with its SI prefix joined to the unit, as in `MB`: `12.3 Mpairs`, `2.5 MB` for
/// bytes, and one decimal always (`512.0 docs`). The CLI's progress lines and timing tables,
/// which append `/s`.
pub fn prefixed(value: f64, unit: &str) -> String {
    if unit == "bytes" {
        return format!("{:.1} MB", value / 1e6);
    }
    let (v, prefix) = if value >= 1e9 {
        (value / 1e9, " G")
    } else if value >= 1e6 {
        (value / 1e6, " M")
    } else if value >= 1e3 {
        (value / 1e3, " k")
    } else {
        (value, " ")
    };
    format!("{v:.1}{prefix}{unit}")
}

/// A pair count: a whole number as such (`40`, `1,249,975,000`), a weighted (estimated) count
/// rounded to whole pairs and marked `≈` (`≈698`, `≈17,237,155`): no count shows a fraction of
/// a pair. (JSON and CSV carry the exact values.)
pub fn estimated_count(v: f64) -> String {
    let whole = thousands(v.round().max(0.0) as u64);
    if v.fract() == 0.0 {
        whole
    } else {
        format!("≈{whole}")
    }
}

/// The form of a word that agrees with a count: `one` for exactly 1, `many` for any other
/// count (`0 labels`, `1 label`, `2 labels`; `1 document repeats`, `2 documents repeat`). The
/// caller writes the number in whatever style its line uses.
pub fn for_count<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `16 bands × 8 rows`, `1 band × 20 rows`: a banding in words.
pub fn bands_by_rows(bands: usize, rows: usize) -> String {
    format!(
        "{bands} {} × {rows} {}",
        for_count(bands as u64, "band", "bands"),
        for_count(rows as u64, "row", "rows")
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn interval_ends_stay_apart() {
        use super::percent_interval;
        let text = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            percent_interval(0.9988, 0.99909),
            text("99.88 %", "99.91 %")
        );
        assert_eq!(percent_interval(0.772, 0.826), text("77.2 %", "82.6 %"));
        assert_eq!(percent_interval(0.5, 0.5), text("50.0 %", "50.0 %"));
        // Never fewer decimals than the ends showed alone.
        assert_eq!(
            percent_interval(0.004499, 0.004501),
            text("0.4499 %", "0.4501 %")
        );
    }

    #[test]
    fn decimals_cut_say_so() {
        assert_eq!(decimal_cut(0.27184466019417475, 4), "0.2718…");
        assert_eq!(decimal_cut(0.8, 4), "0.8");
        assert_eq!(decimal_cut(0.29, 4), "0.29");
        assert_eq!(decimal_cut(0.12345, 4), "0.1234…");
        assert_eq!(decimal_cut(1.0, 4), "1");
        assert_eq!(decimal_cut(0.0, 4), "0");
    }

    #[test]
    fn decimals_drop_arithmetic_noise() {
        assert_eq!(decimal(1.0 - 0.8), "0.2");
        assert_eq!(decimal(0.1 + 0.2), "0.3");
        assert_eq!(decimal(0.5), "0.5");
        assert_eq!(decimal(3.0), "3");
        assert_eq!(decimal(1e-13), "0");
        assert_eq!(decimal(0.123456789012345), "0.123456789012");
    }

    use super::*;

    #[test]
    fn fine_percentages_keep_digits_near_the_ends() {
        assert_eq!(percent_fine(0.9963), "99.63 %");
        assert_eq!(percent_fine(0.5), "50.00 %");
        assert_eq!(percent_fine(0.00006), "0.006 %");
        assert_eq!(percent_fine(0.000001), "< 0.001 %");
        assert_eq!(percent_fine(0.999999), "> 99.999 %");
        assert_eq!(percent_fine(0.9995), "99.950 %");
        assert_eq!(percent_fine(0.0), "0.00 %");
        assert_eq!(percent_fine(1.0), "100.00 %");
    }

    #[test]
    fn other_percentage_styles() {
        assert_eq!(percent_adaptive(0.919), "91.9 %");
        assert_eq!(percent_adaptive(0.0042), "0.42 %");
        assert_eq!(percent_adaptive(1099.0 / 3_502_214.0), "0.031 %");
        assert_eq!(percent_rough(0.66), "66 %");
        assert_eq!(percent_rough(0.034), "3.4 %");
        assert_eq!(percent_two_decimals(0.47012), "47.01 %");
        assert_eq!(percent_two_decimals(0.00001), "< 0.01 %");
        assert_eq!(percent_two_decimals(0.99999), "> 99.99 %");
        assert_eq!(percent_two_decimals(0.0), "0.00 %");
    }

    #[test]
    fn counts_and_rates() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_814_017), "1,814,017");
        assert_eq!(compact(999), "999");
        assert_eq!(compact(1500), "1.5 k");
        assert_eq!(compact(1_234_567), "1.2 M");
        assert_eq!(compact(3_000_000_000), "3.0 G");
        assert_eq!(amount(2_100_000, "bytes"), "2.1 MB");
        assert_eq!(amount(45_600, "docs"), "45.6 k docs");
        assert_eq!(rate(2.1e6, "bytes"), "2.1 MB/s");
        assert_eq!(rate(45_612.4, "docs"), "45.6 k docs/s");
        // The CLI's style (moved with its assertions from cli/progress.rs).
        assert_eq!(prefixed(12_345_678.0, "pairs"), "12.3 Mpairs");
        assert_eq!(prefixed(2.5e6, "bytes"), "2.5 MB");
        assert_eq!(prefixed(512.0, "docs"), "512.0 docs");
        assert_eq!(estimated_count(40.0), "40");
        assert_eq!(estimated_count(697.94), "≈698");
        assert_eq!(estimated_count(1_249_975_000.0), "1,249,975,000");
        assert_eq!(estimated_count(17_237_155.25), "≈17,237,155");
    }

    #[test]
    fn words_agree_with_their_count() {
        assert_eq!(for_count(0, "label", "labels"), "labels");
        assert_eq!(for_count(1, "label", "labels"), "label");
        assert_eq!(for_count(2, "label", "labels"), "labels");
        assert_eq!(for_count(1, "copy", "copies"), "copy");
    }
}
