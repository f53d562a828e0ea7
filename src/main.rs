//! The `paperboat` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    paperboat::cli::main()
}
