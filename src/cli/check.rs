//! `frontier check`: a solution replayed on a level by the game's rules alone; the verdict is
//! printed, and the exit status says whether the solution solves the level.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use frontier::harness::discover;
use frontier::harness::levels::one_level;

use super::args::CheckArgs;
use super::usage_error;

pub fn run(args: CheckArgs) -> ExitCode {
    let solution = match solution_text(args.solution, &args.level_path) {
        Ok(solution) => solution,
        Err(code) => return code,
    };
    let task = match one_level(&args.level_path, args.game, args.level.as_deref()) {
        Ok(task) => task,
        Err(e) => return usage_error(e),
    };
    match task.check(&solution) {
        Ok(verdict) => {
            println!("{}", verdict.message);
            ExitCode::SUCCESS
        }
        Err(why) => {
            println!("{why}");
            ExitCode::FAILURE
        }
    }
}

/// A solution given on the command line, or read from standard input for `-` (`check`,
/// `show`).
pub fn solution_text(solution: String, level_path: &Path) -> Result<String, ExitCode> {
    if solution != "-" {
        return Ok(solution);
    }
    if level_path.as_os_str() == discover::STDIN {
        return Err(usage_error(
            "the level and the solution cannot both come from standard input",
        ));
    }
    let mut text = String::new();
    match std::io::stdin().read_to_string(&mut text) {
        Ok(_) => Ok(text),
        Err(e) => Err(usage_error(format!(
            "cannot read the solution from standard input: {e}"
        ))),
    }
}
