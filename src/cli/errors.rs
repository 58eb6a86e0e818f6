//! The command line's names for the engine's settings: where an engine message says "pass
//! `skip_bad`", the user of this binary reads "pass --skip-bad". The one place that maps
//! [`Setting`]s to flags; `main` prints errors through [`render_error`], and warnings go through
//! [`render_message`].

use lshscope_core::Error;
use lshscope_core::terms::{Message, Setting};

/// The flag that sets `setting` on this command line.
pub fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::TextColumn => "--text-column",
        Setting::IdColumn => "--id-column",
        Setting::TextField => "--text-field",
        Setting::IdField => "--id-field",
        Setting::RowIds => "--row-ids",
        Setting::Format => "--format",
        Setting::SkipBad => "--skip-bad",
        Setting::Strict => "--strict",
        Setting::NoHeaders => "--no-headers",
        Setting::Quote => "--quote",
        Setting::Limit => "--limit",
        Setting::Sample => "--sample",
        Setting::Hidden => "--hidden",
        Setting::NoIgnore => "--no-ignore",
        Setting::Shingle => "--shingle",
        Setting::NoCache => "--no-cache",
        Setting::PairColumns => "--pair-columns",
        Setting::ClusterColumns => "--cluster-columns",
        Setting::NumPerm => "--num-perm",
        Setting::Bands => "--bands",
        Setting::Rows => "--rows",
        Setting::Banding => "--banding",
        Setting::ScanBanding => "--scan-banding",
        Setting::Threshold => "--threshold",
        Setting::Family => "--family",
        Setting::MaxBucket => "--max-bucket",
        Setting::SortLimit => "--sort-limit",
        Setting::Unsorted => "--unsorted",
        Setting::Truth => "--truth",
        Setting::EstimatePairs => "--estimate-pairs",
        Setting::Uniform => "--uniform",
        Setting::LowerThreshold => "--lower-threshold",
        Setting::Force => "--force",
        Setting::MaxSeconds => "--max-seconds",
        Setting::Labels => "--labels",
        Setting::Pairs => "--pairs",
        Setting::Similarities => "--similarities",
        Setting::Corpus => "--corpus",
        Setting::Budget => "--budget",
        Setting::Export => "--for",
        Setting::MaxFalseRemoval => "--max-false-removal",
        Setting::MinRecall => "--min-recall",
        Setting::Quantiles => "--quantiles",
        Setting::FpWeight => "--fp-weight",
        Setting::FnWeight => "--fn-weight",
        Setting::Reject => "--reject",
        Setting::Accept => "--accept",
        Setting::Seeds => "--seeds",
        Setting::Profile => "--profile",
    }
}

/// The error as this command line says it.
pub fn render_error(error: &Error) -> String {
    error.render(flag)
}

/// A message (a read report's warning) as this command line says it.
pub fn render_message(message: &Message) -> String {
    message.render(flag)
}

/// A sentence of the engine's (a note such as the cache's) as this command line says it.
pub fn render_text(text: &str) -> String {
    lshscope_core::terms::render(text, flag)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The long flags of `command` and its subcommands, at any depth.
    fn long_flags(command: &clap::Command, into: &mut Vec<String>) {
        into.extend(
            command
                .get_arguments()
                .filter_map(|a| a.get_long())
                .map(String::from),
        );
        for sub in command.get_subcommands() {
            long_flags(sub, into);
        }
    }

    #[test]
    fn every_setting_is_a_flag_of_some_command() {
        use clap::CommandFactory;
        let mut known = Vec::new();
        long_flags(&crate::cli::Cli::command(), &mut known);
        for setting in Setting::ALL {
            let flag = flag(setting);
            let long = flag.strip_prefix("--").expect("a long flag");
            assert!(
                known.iter().any(|k| k == long),
                "{flag} is no flag of lshscope"
            );
        }
    }

    #[test]
    fn errors_read_as_before_with_flags() {
        let e = Error::usage(format!("{} must be at least 1", Setting::Limit));
        assert_eq!(e.to_string(), "`limit` must be at least 1");
        assert_eq!(render_error(&e), "--limit must be at least 1");
        let m = Message::from(format!("pass {} to say so", Setting::NoHeaders));
        assert_eq!(render_message(&m), "pass --no-headers to say so");
    }
}
