//! `lshscope learn [FILE]`: the teaching walkthrough, on built-in questions or on the first
//! documents of FILE (any input `scan` reads).

use clap::Args;

use super::CorpusArgs;
use super::explore::ColorChoice;
use crate::tui::learn::{LearnApp, run as run_tui};
use lshscope_core::corpus::read_corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::learn::BUILTIN_DOCUMENTS;
use lshscope_core::{Error, Result};

/// The input's value when none is given (no file is expected to bear this name).
const BUILTIN: &str = "<built-in questions>";

/// At most this many documents: the matrices must fit one screen.
pub const MAX_DOCS: usize = 8;

#[derive(Debug, Args)]
// The input is optional here: without it the walkthrough uses its built-in questions.
#[command(mut_arg("input", |a| a
    .required(false)
    .default_value(BUILTIN)
    .hide_default_value(true)
    .help("Walk through the first (up to 8) documents of this file or directory instead \
           of the built-in questions; `-` reads stdin")))]
pub struct LearnArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Seed for --sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Colours: `auto` honours NO_COLOR; `never` uses a monochrome theme.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The walkthrough's documents as (id, text): the built-in set, or FILE's first ones (with
/// --sample, a uniform sample of at most [`MAX_DOCS`] of them, drawn with `seed`).
pub fn learn_texts(corpus: Option<&CorpusArgs>, seed: u64) -> Result<Vec<(String, String)>> {
    let Some(corpus) = corpus else {
        return Ok(BUILTIN_DOCUMENTS
            .iter()
            .enumerate()
            .map(|(i, t)| ((i + 1).to_string(), t.to_string()))
            .collect());
    };
    let mut opts = corpus.read_options(seed);
    match opts.sample {
        // --limit applies before --sample: sample the whole input (or its --limit first).
        Some(n) => opts.sample = Some(n.min(MAX_DOCS)),
        None => opts.limit = Some(opts.limit.unwrap_or(MAX_DOCS).min(MAX_DOCS)),
    }
    let (docs, mut read) = read_corpus(&corpus.input, &opts, &Progress::new())?;
    // Printed before the walkthrough takes over the terminal, so they are on screen when it
    // ends; the walkthrough shows ids only as labels, so repeated ones do no harm.
    super::warn_about_read(false, corpus, &mut read, false)?;
    if docs.len() < 2 {
        return Err(Error::usage(format!(
            "{}: the walkthrough needs at least 2 documents, found {}",
            corpus.input.display(),
            docs.len()
        )));
    }
    Ok((0..docs.len())
        .map(|i| (docs.id(i).to_string(), docs.text(i).to_string()))
        .collect())
}

pub fn run(args: LearnArgs) -> Result<i32> {
    let corpus = (args.corpus.input.as_os_str() != BUILTIN).then_some(&args.corpus);
    let texts = learn_texts(corpus, args.seed)?;
    // The same test as the explorer's: stdout a terminal, and keys readable.
    if !crate::tui::has_terminal() {
        return Err(Error::usage(
            "lshscope learn needs an interactive terminal (stdout is not one); run it without \
             redirecting its output",
        ));
    }
    let mut app = LearnApp::new(&texts, args.color.monochrome());
    run_tui(&mut app).map_err(|e| Error::io("<terminal>", e))?;
    Ok(0)
}
