//! The stratified sample file read back: its rows checked stratum by stratum (each stratum's
//! rows must agree on its size and weight) and assembled into a [`StratifiedSample`].

use std::io::BufRead;

use super::*;

/// One row of a stratified sample file, as read.
#[derive(serde::Deserialize)]
struct FileRow {
    jaccard: f64,
    weight: f64,
    stratum: String,
    stratum_pairs: u64,
    strata_banding: String,
    strata_threshold: f64,
    /// Absent from files written before it was added.
    #[serde(default)]
    strata_family: String,
}

/// The one column a stratified file may lack (files from before it was added).
const FAMILY_COLUMN: &str = "strata_family";

/// `20x5` or `20×5` as a banding.
pub(super) fn parse_banding(text: &str) -> Option<Banding> {
    let (b, r) = text.split_once(['x', '×'])?;
    let (b, r) = (b.trim().parse().ok()?, r.trim().parse().ok()?);
    Banding::new(b, r, b * r).ok()
}

/// Reads a stratified sample file (CSV or JSON Lines, possibly compressed, as `truth
/// --estimate-pairs` writes it); `None` when the file has no `stratum` column (a uniform
/// sample or any other pair file, for the other readers). Errors name the file, line and
/// column, and check that each stratum's rows agree on its size and weight.
pub fn read_stratified(path: &Path) -> Result<Option<StratifiedSample>> {
    let mut reader = crate::io::input::open_input(path)?;
    let head = reader.fill_buf().map_err(|e| Error::io(path, e))?;
    if head.starts_with(crate::io::parquet::MAGIC) {
        return Ok(None);
    }
    let mut rows: Vec<(u64, FileRow)> = Vec::new();
    let first_byte = head.iter().find(|b| !b.is_ascii_whitespace()).copied();
    match first_byte {
        None => return Ok(None),
        Some(b'{') => {
            let mut line_no = 0u64;
            for line in reader.lines() {
                line_no += 1;
                let line = line.map_err(|e| Error::io(path, e))?;
                if line.trim().is_empty() {
                    continue;
                }
                if line_no == 1 && !line.contains("\"stratum\"") {
                    return Ok(None);
                }
                let row: FileRow = serde_json::from_str(&line).map_err(|e| {
                    Error::input(
                        path,
                        line_no,
                        format!(
                            "not a row of a stratified sample ({e}); expected the keys {}",
                            COLUMNS.join(", ")
                        ),
                    )
                })?;
                rows.push((line_no, row));
            }
        }
        Some(_) => {
            let mut csv = crate::io::header_csv::HeaderCsv::new(reader, path, false)?;
            if csv.column("stratum").is_none() {
                return Ok(None);
            }
            let mut columns = Vec::new();
            // The family came later: a file without it is read, with no family.
            let family_column = csv.column(FAMILY_COLUMN);
            for want in COLUMNS.iter().filter(|&&c| c != FAMILY_COLUMN) {
                columns.push(csv.column(want).ok_or_else(|| {
                    Error::input(
                        path,
                        1,
                        format!(
                            "a stratified sample needs the column `{want}` (found: {}); write \
                             it again with `lshscope truth {}`",
                            csv.header_text(),
                            EstimatePairs.in_code()
                        ),
                    )
                })?);
            }
            while let Some((line, record)) = csv.next_row()? {
                let field = |k: usize| record.get(columns[k]).unwrap_or("").trim();
                let number = |k: usize| -> Result<f64> {
                    field(k).parse::<f64>().map_err(|_| {
                        Error::input(
                            path,
                            line,
                            format!(
                                "column {} ({}): `{}` is not a number",
                                columns[k] + 1,
                                COLUMNS[k],
                                crate::io::excerpt::excerpt(field(k))
                            ),
                        )
                    })
                };
                let stratum_pairs = field(3).parse::<u64>().map_err(|_| {
                    Error::input(
                        path,
                        line,
                        format!(
                            "column {} (stratum_pairs): `{}` is not a count of pairs",
                            columns[3] + 1,
                            crate::io::excerpt::excerpt(field(3))
                        ),
                    )
                })?;
                rows.push((
                    line,
                    FileRow {
                        jaccard: number(0)?,
                        weight: number(1)?,
                        stratum: field(2).to_string(),
                        stratum_pairs,
                        strata_banding: field(4).to_string(),
                        strata_threshold: number(5)?,
                        strata_family: family_column
                            .and_then(|c| record.get(c))
                            .unwrap_or("")
                            .trim()
                            .to_string(),
                    },
                ));
            }
        }
    }
    assemble(path, rows).map(Some)
}

/// Checks the rows of a stratified file and groups them by stratum.
///
/// The candidates' and the others' rows name the first level's banding and threshold, the
/// lower candidates' rows the lower level's (see [`StratifiedSample::write`]); all rows name
/// one family.
fn assemble(path: &Path, rows: Vec<(u64, FileRow)>) -> Result<StratifiedSample> {
    let bad = |line: u64, what: String| Error::input(path, line, what);
    let (first_line, first) = rows.first().ok_or_else(|| {
        bad(
            2,
            format!(
                "a stratified sample without rows: write it again with `lshscope truth {}`",
                EstimatePairs.in_code()
            ),
        )
    })?;
    let family_text = first.strata_family.clone();
    let family = match family_text.as_str() {
        "" => None,
        name => Some(name.parse::<SketchFamily>().map_err(|e| {
            bad(
                *first_line,
                format!(
                    "strata_family: `{}`: {e}",
                    crate::io::excerpt::excerpt(name)
                ),
            )
        })?),
    };
    const NAMES: [&str; 3] = [CANDIDATES, LOWER_CANDIDATES, OTHERS];
    let mut strata = NAMES.map(|name| Stratum {
        name,
        pairs: 0,
        similarities: Vec::new(),
    });
    let mut weights = [None::<(u64, f64)>; 3];
    let mut sizes = [None::<u64>; 3];
    // The first level's (banding text, threshold bits, line, level), and the lower one's.
    let mut levels: [Option<(String, u64, u64, StrataLevel)>; 2] = [None, None];
    for (line, row) in rows {
        let Some(k) = NAMES.iter().position(|&n| n == row.stratum) else {
            return Err(bad(
                line,
                format!(
                    "stratum: `{}` is not `{CANDIDATES}`, `{LOWER_CANDIDATES}` or `{OTHERS}`",
                    crate::io::excerpt::excerpt(&row.stratum)
                ),
            ));
        };
        let level = &mut levels[usize::from(k == 1)];
        match level {
            None => {
                let banding = parse_banding(&row.strata_banding).ok_or_else(|| {
                    bad(
                        line,
                        format!(
                            "strata_banding: `{}` is not a banding such as 20x5",
                            crate::io::excerpt::excerpt(&row.strata_banding)
                        ),
                    )
                })?;
                let threshold = row.strata_threshold;
                *level = Some((
                    row.strata_banding.clone(),
                    threshold.to_bits(),
                    line,
                    StrataLevel { banding, threshold },
                ));
            }
            Some((text, bits, _, _)) => {
                if row.strata_banding != *text || row.strata_threshold.to_bits() != *bits {
                    return Err(bad(
                        line,
                        format!(
                            "strata_banding and strata_threshold differ from the earlier `{}` \
                             rows': one file holds one sample; do not concatenate samples",
                            row.stratum
                        ),
                    ));
                }
            }
        }
        if row.strata_family != family_text {
            return Err(bad(
                line,
                "strata_family differs from the first row's: one file holds one sample; do \
                 not concatenate samples"
                    .to_string(),
            ));
        }
        if !(0.0..=1.0).contains(&row.jaccard) {
            return Err(bad(
                line,
                format!("jaccard: similarity {} is outside [0, 1]", row.jaccard),
            ));
        }
        match sizes[k] {
            None => sizes[k] = Some(row.stratum_pairs),
            Some(size) if size != row.stratum_pairs => {
                return Err(bad(
                    line,
                    format!(
                        "stratum_pairs: {} differs from {size} on earlier `{}` rows: one \
                         stratum has one size",
                        row.stratum_pairs, row.stratum
                    ),
                ));
            }
            Some(_) => {}
        }
        if weights[k].is_none() {
            weights[k] = Some((line, row.weight));
        }
        strata[k].similarities.push(row.jaccard);
    }
    for (k, stratum) in strata.iter_mut().enumerate() {
        stratum.pairs = sizes[k].unwrap_or(0);
        let n = stratum.similarities.len() as u64;
        if n > stratum.pairs {
            return Err(bad(
                weights[k].map_or(2, |w| w.0),
                format!(
                    "the `{}` stratum has {n} rows but stratum_pairs says it holds {} pairs",
                    stratum.name, stratum.pairs
                ),
            ));
        }
        // The weight must be size ÷ rows: anything else means rows were added or removed.
        if let Some((line, w)) = weights[k]
            && (w - stratum.weight()).abs() > 1e-9 * stratum.weight().max(1.0)
        {
            return Err(bad(
                line,
                format!(
                    "weight: {w} but the `{}` stratum has {n} rows of {} pairs (weight {}): \
                     the file was cut or merged; sample again with `lshscope truth {}`",
                    stratum.name,
                    stratum.pairs,
                    stratum.weight(),
                    EstimatePairs.in_code()
                ),
            ));
        }
    }
    let [first, lower] = levels;
    let Some((_, _, _, first)) = first else {
        return Err(bad(
            lower.map_or(2, |l| l.2),
            format!(
                "only `{LOWER_CANDIDATES}` rows: a stratified sample has `{CANDIDATES}` or \
                 `{OTHERS}` rows too; sample again with `lshscope truth {}`",
                EstimatePairs.in_code()
            ),
        ));
    };
    let lower = match lower {
        Some((_, _, line, level)) if level.threshold >= first.threshold => {
            return Err(bad(
                line,
                format!(
                    "strata_threshold: the `{LOWER_CANDIDATES}` rows' {} is not below the \
                     first level's {}",
                    level.threshold, first.threshold
                ),
            ));
        }
        other => other.map(|l| l.3),
    };
    let [candidates, lower_candidates, others] = strata;
    let strata = if lower.is_some() {
        vec![candidates, lower_candidates, others]
    } else {
        vec![candidates, others]
    };
    Ok(StratifiedSample {
        banding: first.banding,
        threshold: first.threshold,
        lower,
        family,
        strata,
    })
}
