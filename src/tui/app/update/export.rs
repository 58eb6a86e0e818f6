//! Exports: the listed pairs (candidates or missed) as CSV, with the plots.

use std::path::PathBuf;
use std::sync::Arc;

use crate::tui::app::{App, Effect};
use crate::tui::export::{ExportJob, ExportReport, PlotSpec, brace_names};
use crate::tui::keys::{Command, hint};
use lshscope_core::analysis::sampled::Estimate;
use lshscope_core::minhash::Banding;
use lshscope_core::util::numfmt::{for_count, thousands};

impl App {
    /// Queues the export of the filtered pairs (CSV) and the plots; the file is written off
    /// the UI thread (it may hold millions of rows) and [`Action::Exported`] reports back.
    pub(super) fn export(&mut self) {
        if self.candidates.hold_export(self.curve.banding) {
            self.say(format!(
                "exporting when the candidates of {} are ready…",
                self.curve.banding
            ));
            return;
        }
        let Some(result) = self.candidates.result() else {
            self.complain("nothing to export yet");
            return;
        };
        let path = self.export_path("pairs", result.banding);
        let Some(data) = self.data.clone() else {
            return;
        };
        let rows = self.candidates.list().rows().to_vec();
        let labels = (rows.iter())
            .map(|&i| &result.pairs[i as usize])
            .filter_map(|p| self.label_of(p.a, p.b).map(|l| ((p.a, p.b), l)))
            .collect();
        let job = ExportJob {
            data,
            path: path.clone(),
            pairs: Arc::clone(&result.pairs),
            rows,
            labels,
            plots: self.plot_spec(result.banding),
            sampled_from: self.candidates.estimated_total(),
        };
        self.say(format!(
            "exporting {} {}to {} and the plots…",
            thousands(job.rows.len() as u64),
            sampled_pairs(job.sampled_from),
            path.display()
        ));
        self.effects.push(Effect::Export(Box::new(job)));
    }

    /// `e` on the missed list: the listed missed pairs (filtered, in list order) as CSV, in
    /// the candidates' export format (bands_hit 0), next to the candidate exports.
    pub(super) fn export_missed(&mut self) {
        let (Some(data), Some(m)) = (&self.data, self.truth.measure()) else {
            self.complain("nothing to export yet");
            return;
        };
        let banding = m.banding;
        let pairs = self.truth.listed_missed(data);
        let labels = pairs
            .iter()
            .filter_map(|p| self.label_of(p.a, p.b).map(|l| ((p.a, p.b), l)))
            .collect();
        let path = self.export_path("missed", banding);
        let job = ExportJob {
            data: Arc::clone(data),
            path: path.clone(),
            rows: (0..pairs.len() as u32).collect(),
            pairs: Arc::new(pairs),
            labels,
            plots: self.plot_spec(banding),
            sampled_from: None,
        };
        self.say(format!(
            "exporting {} missed pairs to {}…",
            thousands(job.rows.len() as u64),
            path.display()
        ));
        self.effects.push(Effect::Export(Box::new(job)));
    }

    /// `export_dir/<stem>.<what>.<b>x<r>.csv`.
    pub(super) fn export_path(&self, what: &str, banding: Banding) -> PathBuf {
        self.config.export_dir.join(format!(
            "{}.{what}.{}x{}.csv",
            self.config.export_stem, banding.bands, banding.rows
        ))
    }

    /// The plots an export writes, with the histogram of the candidates of `histogram_banding`.
    pub(super) fn plot_spec(&self, histogram_banding: Banding) -> PlotSpec {
        PlotSpec {
            dir: self.config.export_dir.clone(),
            stem: self.config.export_stem.clone(),
            banding: self.curve.banding,
            pins: self.curve.pins.clone(),
            threshold: self.curve.threshold,
            num_perm: self.num_perm(),
            histogram: self.hist.clone(),
            histogram_banding,
            log_scale: self.log_scale,
            measured: crate::tui::export::measured_points(
                &self.truth,
                histogram_banding,
                self.hist.bins(),
            ),
            estimated: self.candidates.estimated().map(|e| {
                // Short enough for the figure's legend line.
                format!(
                    "{} in all (95 %, {} sampled)",
                    e.estimate.total,
                    thousands(e.estimate.draws as u64)
                )
            }),
        }
    }

    pub(super) fn on_exported(&mut self, report: ExportReport) {
        match report.csv {
            Err(e) => self.complain(format!("export failed: {e}")),
            Ok(()) => {
                let csv = format!(
                    "wrote {} {}to {}",
                    thousands(report.rows as u64),
                    sampled_pairs(report.sampled_from),
                    report.path.display()
                );
                match report.plots {
                    Ok(plots) => {
                        let names = brace_names(&plots, report.path.parent());
                        // Narrower: the CSV's name whole and the plots counted, then the
                        // CSV's name alone, then only the count of the files and their folder.
                        let pairs = format!(
                            "{} {}",
                            thousands(report.rows as u64),
                            pairs_word(report.sampled_from)
                        );
                        let mut files = vec![report.path.clone()];
                        files.extend(plots.iter().cloned());
                        let shorter = vec![
                            format!(
                                "wrote {pairs} to {} and {} plot files ({})",
                                report.path.display(),
                                plots.len(),
                                lists_them()
                            ),
                            format!(
                                "wrote {pairs} to {}; {} lists the plots",
                                report.path.display(),
                                hint(Command::ShowMessages)
                            ),
                            format!("wrote {pairs}: {}", files_written(&files)),
                        ];
                        self.say_or_shorter(format!("{csv}; plots: {names}"), shorter);
                    }
                    Err(e) => self.complain(format!("{csv}; plots failed: {e}")),
                }
            }
        }
    }
}

/// "pairs ", or for a uniform sample of ≈N candidates "sampled pairs (a uniform sample of
/// ≈N ± h candidates) ".
fn sampled_pairs(sampled_from: Option<Estimate>) -> String {
    match sampled_from {
        None => "pairs ".to_string(),
        Some(total) => format!("sampled pairs (a uniform sample of {total} candidates) "),
    }
}

/// "pairs", or "sampled pairs" for a uniform sample of the candidates.
fn pairs_word(sampled_from: Option<Estimate>) -> &'static str {
    match sampled_from {
        None => "pairs",
        Some(_) => "sampled pairs",
    }
}

/// What a message line too narrow for the names of `files` says instead: how many, in which
/// folder (when they share one), and the key of the messages view, which shows the names.
pub(super) fn files_written(files: &[PathBuf]) -> String {
    let folder = files.first().and_then(|f| f.parent()).filter(|folder| {
        !folder.as_os_str().is_empty() && files.iter().all(|f| f.parent() == Some(*folder))
    });
    let count = format!(
        "{} {}",
        thousands(files.len() as u64),
        for_count(files.len() as u64, "file", "files")
    );
    match folder {
        Some(folder) => format!("{count} in {} ({})", folder.display(), lists_them()),
        None => format!("{count} ({})", lists_them()),
    }
}

/// "M lists them": the key of the messages view, where a shortened message is whole.
fn lists_them() -> String {
    format!("{} lists them", hint(Command::ShowMessages))
}
