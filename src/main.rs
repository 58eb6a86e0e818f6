use clap::Parser;

fn main() {
    let args = lshscope::cli::explore_a_file_given_first(std::env::args_os().collect());
    let cli = lshscope::cli::Cli::parse_from(args);
    match lshscope::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            // One mapping from error to exit code: `Error::exit_code`. A closed stdout pipe
            // maps to 0 and says nothing: the reader had what it wanted.
            match &e {
                _ if e.is_broken_pipe() => {}
                lshscope_core::Error::Cancelled => eprintln!("lshscope: interrupted"),
                _ => eprintln!(
                    "lshscope: error: {}",
                    lshscope::cli::errors::render_error(&e)
                ),
            }
            std::process::exit(e.exit_code());
        }
    }
}
