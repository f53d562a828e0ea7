//! The `paperboat` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    paperboat::alloc::configure();
    paperboat::cli::main()
}

/// mimalloc: loading a million papers is mostly small allocations, which
/// it serves faster than the system allocator, and from every core.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
