use clap::Parser;

fn main() {
    let cli = lshscope::cli::Cli::parse();
    match lshscope::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("lshscope: error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
