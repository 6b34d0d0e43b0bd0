//! The `dama` binary: parse the command line and hand over to the library.

fn main() {
    std::process::exit(dama::cli::run());
}
