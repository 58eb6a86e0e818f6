//! Python's names for the engine's settings: where an engine message names a setting, a
//! Python user reads the keyword argument that would set it (`skip_bad=True`,
//! `shingle="char:K"`'s `shingle=`). The package does not read corpus files itself, so most
//! of these name the option of the engine's reader, in the spelling a keyword argument has.

use lshscope_core::terms::{Message, Setting};

/// The keyword argument, as a message should show it, for `setting`.
pub fn keyword(setting: Setting) -> &'static str {
    match setting {
        Setting::TextColumn => "text_column=",
        Setting::IdColumn => "id_column=",
        Setting::TextField => "text_field=",
        Setting::IdField => "id_field=",
        Setting::RowIds => "row_ids=True",
        Setting::Format => "format=",
        Setting::SkipBad => "skip_bad=True",
        Setting::Strict => "strict=True",
        Setting::NoHeaders => "has_headers=False",
        Setting::Quote => "quote=",
        Setting::Limit => "limit=",
        Setting::Sample => "sample=",
        Setting::Hidden => "hidden=True",
        Setting::NoIgnore => "no_ignore=True",
        Setting::Shingle => "shingle=",
        Setting::NoCache => "no_cache=True",
        Setting::PairColumns => "pair_columns=",
        Setting::ClusterColumns => "cluster_columns=",
        Setting::NumPerm => "num_perm=",
        Setting::Bands => "bands=",
        Setting::Rows => "rows=",
        Setting::Banding => "banding=",
        Setting::ScanBanding => "scan_banding=",
        Setting::Threshold => "threshold=",
        Setting::Family => "family=",
        Setting::MaxBucket => "max_bucket=",
        Setting::SortLimit => "sort_limit=",
        Setting::Unsorted => "unsorted=True",
        Setting::Truth => "truth=",
        Setting::EstimatePairs => "estimate_pairs=",
        Setting::Uniform => "uniform=True",
        Setting::LowerThreshold => "lower_threshold=",
        Setting::Force => "force=True",
        Setting::MaxSeconds => "max_seconds=",
        Setting::Labels => "labels=",
        Setting::Pairs => "pairs=",
        Setting::Similarities => "similarities=",
        Setting::Corpus => "corpus=",
        Setting::Budget => "budget=",
        Setting::Export => "export=",
        Setting::MaxFalseRemoval => "max_false_removal=",
        Setting::MinRecall => "min_recall=",
        Setting::Quantiles => "quantiles=",
        Setting::FpWeight => "fp_weight=",
        Setting::FnWeight => "fn_weight=",
        Setting::Reject => "reject=",
        Setting::Accept => "accept=",
        Setting::Seeds => "seeds=",
        Setting::Profile => "profile=",
    }
}

/// An engine error's text with Python's names.
pub fn error_text(error: &lshscope_core::Error) -> String {
    error.render(keyword)
}

/// An engine message's text with Python's names.
pub fn message_text(message: &Message) -> String {
    message.render(keyword)
}
