//! `frontier analyze`: each level's whole reachable space explored and measured, one CSV row
//! per level; optionally the size of every layer, and each level's farthest position as a
//! level file.

use std::process::ExitCode;

use frontier::engine::control;
use frontier::harness::levels::selected_levels;
use frontier::harness::{self, analyze};
use frontier::words;

use super::args::AnalyzeArgs;
use super::output::{default_out, destination, emit};
use super::{INTERRUPTED, set_threads, stop_cleanly_on_interrupt, usage_error};

pub fn run(args: AnalyzeArgs) -> ExitCode {
    if let Err(e) = set_threads(args.threads) {
        return usage_error(e);
    }
    let tasks = match selected_levels(&args.paths, args.game, args.level.as_deref()) {
        Ok(tasks) => tasks,
        Err(e) => return usage_error(e),
    };
    let out = destination(args.out.as_deref(), || {
        let mut path = default_out(&args.paths[0]);
        let stem = harness::file_stem(&path);
        path.set_file_name(format!("{stem}-analysis.csv"));
        path
    });
    stop_cleanly_on_interrupt();
    let analyses = analyze::analyze_all(&tasks, args.limits.limits(), args.quiet);
    let mut written = vec![(out.clone(), analyze::rows_csv(&analyses))];
    if let Some(layers) = &args.layers {
        written.push((Some(layers.clone()), analyze::layers_csv(&analyses)));
    }
    for (path, csv) in written {
        if let Err(failure) = emit(path.as_deref(), &csv) {
            return failure;
        }
    }
    if let Some(dir) = &args.farthest {
        for analysis in &analyses {
            let Some(text) = &analysis.farthest else {
                continue;
            };
            // In a folder named after the game, which is how `solve` tells a level file's game.
            let path = dir
                .join(&analysis.row.game)
                .join(analyze::farthest_file_name(&analysis.row.level));
            if let Err(failure) = emit(Some(&path), text) {
                return failure;
            }
        }
    }
    let analyzed = analyses
        .iter()
        .filter(|a| a.row.status == "analyzed")
        .count();
    if !args.quiet {
        eprintln!(
            "{}, {analyzed} analyzed{}",
            words::count(analyses.len(), "level"),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    if control::interrupted() {
        ExitCode::from(INTERRUPTED)
    } else if analyzed == analyses.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
