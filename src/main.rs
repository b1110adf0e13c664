//! The `frontier` command line: `solve`, `check`, `show`, `compare`, `report`, `generate` and
//! `analyze` (see `docs/cli.md`, the contract, and the README). This file holds the process's
//! allocator and hands each command to its module in [`cli`].

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::args::{Cli, Command};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Turns off mimalloc's eager commit of its arenas. Why: with it on (mimalloc's default on
/// Linux), memory the searches free (hash tables outgrown as they double) stays committed and
/// resident, and The Time Machine peaks at 55-65 MB of RSS for 15 MB of live heap; with it off,
/// at 28 MB. The option's number is its place in `mi_option_e` of mimalloc v3's `mimalloc.h`
/// (the Rust bindings' constants predate v3).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static KEEP_MEMORY_UNCOMMITTED: extern "C" fn() = keep_memory_uncommitted_until_used;
extern "C" fn keep_memory_uncommitted_until_used() {
    const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
    // SAFETY: setting an option is allowed at any time; it affects arenas reserved after it.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Solve(args) => cli::solve::run(args),
        Command::Check(args) => cli::check::run(args),
        Command::Show(args) => cli::show::run(args),
        Command::Compare(args) => cli::compare::run(args),
        Command::Report(args) => cli::report::run(args),
        Command::Generate(args) => cli::generate::run(args),
        Command::Analyze(args) => cli::analyze::run(args),
    }
}
