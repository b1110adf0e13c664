//! `frontier compare`: a baseline's results against a new run's, level by level, with how each
//! run was made first; the exit status says whether anything regressed.

use std::process::ExitCode;

use frontier::harness::comparable::{settings_check, tolerance};
use frontier::harness::{compare, runs};

use super::args::CompareArgs;
use super::usage_error;

pub fn run(args: CompareArgs) -> ExitCode {
    let tolerance = match tolerance(args.time_tolerance, args.small_millis) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let (base, new) = match (runs::read(&args.baseline), runs::read(&args.new)) {
        (Ok(b), Ok(n)) => (b, n),
        (Err(e), _) | (_, Err(e)) => return usage_error(e),
    };
    let tolerance = match settings_check(&args.baseline, &args.new, tolerance, args.force_times) {
        Ok((tolerance, lines)) => {
            for line in lines {
                println!("{line}");
            }
            tolerance
        }
        Err(e) => return usage_error(e),
    };
    let paired = match runs::paired_times(&args.baseline, &args.new) {
        Ok(paired) => paired,
        Err(e) => return usage_error(e),
    };
    let result = compare::compare(&base, &new, &paired, tolerance);
    print!(
        "{}",
        result.render(
            &args.baseline.display().to_string(),
            &args.new.display().to_string(),
            tolerance
        )
    );
    if result.regressed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
