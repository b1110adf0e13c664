//! `frontier report`: one self-contained HTML page of results files, each beside its baseline
//! if it has one, with a gallery of the solved levels' animations.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use frontier::harness::comparable::{settings_check, tolerance};
use frontier::harness::compare::Tolerance;
use frontier::harness::report::{self, Baseline, Compared, Named};
use frontier::harness::{gallery, runs};

use super::args::ReportArgs;
use super::output::emit;
use super::usage_error;

pub fn run(args: ReportArgs) -> ExitCode {
    let tolerance = match tolerance(args.time_tolerance, Tolerance::default().small_millis) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    // Each file with its baseline, if any: the same name in --baseline DIR, or, for two files
    // without it, the first for the second.
    let pairs: Vec<(Option<PathBuf>, &PathBuf)> = match (&args.baseline, args.csvs.as_slice()) {
        (Some(dir), csvs) => csvs
            .iter()
            .map(|csv| {
                let base = csv.file_name().map(|name| dir.join(name));
                (base.filter(|b| b.exists()), csv)
            })
            .collect(),
        (None, [before, after]) => vec![(Some(before.clone()), after)],
        (None, csvs) => csvs.iter().map(|csv| (None, csv)).collect(),
    };
    let mut loaded = Vec::new();
    for (base, csv) in &pairs {
        let rows = match runs::read(csv) {
            Ok(rows) => rows,
            Err(e) => return usage_error(e),
        };
        let baseline = match base {
            None => None,
            Some(base) => {
                let checked = settings_check(base, csv, tolerance, false);
                match (runs::read(base), runs::paired_times(base, csv), checked) {
                    (Ok(rows), Ok(paired), Ok((tolerance, _))) => {
                        Some((base.display().to_string(), rows, paired, tolerance))
                    }
                    (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return usage_error(e),
                }
            }
        };
        loaded.push((csv.display().to_string(), rows, baseline));
    }
    let files: Vec<Compared> = loaded
        .iter()
        .map(|(name, rows, baseline)| Compared {
            file: Named { name, rows },
            baseline: baseline
                .as_ref()
                .map(|(name, rows, paired, tolerance)| Baseline {
                    file: Named { name, rows },
                    paired,
                    tolerance: *tolerance,
                }),
        })
        .collect();
    let mut budget = gallery::Budget::default();
    let mut animations = Vec::new();
    if !args.no_gallery {
        for (csv, rows, _) in &loaded {
            let tasks = gallery::levels(&args.levels, Path::new(csv));
            animations.extend(gallery::animations(csv, rows, &tasks, &mut budget));
        }
    }
    let page = report::html(&files, &animations);
    if let Err(failure) = emit(Some(&args.out), &page) {
        return failure;
    }
    eprintln!("report written to {}", args.out.display());
    ExitCode::SUCCESS
}
