//! `frontier solve`: every level under the paths solved, one CSV row each, with the provenance
//! sidecar beside the CSV; on this process's threads or on a cluster (`--distributed`).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use frontier::engine::control;
use frontier::harness::levels::selected_levels;
use frontier::harness::provenance::Provenance;
use frontier::harness::results::{self, Status};
use frontier::harness::{self, batch};
use frontier::words;

use super::args::SolveArgs;
use super::config::Config;
use super::output::{default_out, destination, emit};
use super::{INTERRUPTED, set_threads, stop_cleanly_on_interrupt, usage_error};

pub fn run(args: SolveArgs) -> ExitCode {
    if let Err(e) = set_threads(args.threads) {
        return usage_error(e);
    }
    if args.cluster.distributed && args.parallel_levels.is_some_and(|n| n != 1) {
        return usage_error("--parallel-levels: a distributed run solves one level at a time");
    }
    let config = match Config::new(&args) {
        Ok(config) => config,
        Err(e) => return usage_error(e),
    };
    let started = Instant::now();
    // Before the levels are read and anything is written: an interrupt from here on is caught
    // (one during start-up solves no level, and every level gets its `limit` row).
    stop_cleanly_on_interrupt();
    let tasks = match selected_levels(&args.paths, args.game, args.level.as_deref()) {
        Ok(tasks) => tasks,
        Err(e) => return usage_error(e),
    };
    if args.list {
        for task in &tasks {
            println!("{}", harness::listed_name(task.name()));
        }
        return ExitCode::SUCCESS;
    }
    let out = destination(args.out.as_deref(), || default_out(&args.paths[0]));
    let plan = match args.cluster.plan(rayon::current_num_threads()) {
        Ok(plan) => plan,
        Err(e) => return usage_error(e),
    };
    let cluster = match plan.map(|p| p.join(config.fingerprint(&tasks))).transpose() {
        Ok(cluster) => cluster.map(Arc::new),
        Err(e) => {
            eprintln!("frontier: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Of a cluster's processes, the first writes the results and shows progress.
    let lead = cluster.as_ref().is_none_or(|c| c.process() == 0);
    let checkpoint = out.clone().filter(|_| lead);
    let options = config.batch_options(args.quiet || !lead, checkpoint, cluster.clone());
    if let Some(path) = out.as_ref().filter(|_| lead) {
        let provenance = Provenance::now(
            config.levels.clone(),
            config.settings(&options, tasks.len()),
        );
        // Written first, so that a checkpointed file has its provenance too, and with it a
        // whole CSV (the header alone) under the results lock: from the moment the sidecar
        // exists a whole CSV is beside it, whenever an interrupt comes. Neither beside nor
        // into a device or pipe (`--out /dev/null`), which gets the last write only.
        let regular = std::fs::metadata(path).map(|m| m.is_file()).unwrap_or(true);
        let begun = harness::interrupt::begin(|| {
            if !regular {
                return Ok(());
            }
            provenance
                .write_beside(path)
                .map_err(|e| format!("cannot write the provenance of {}: {e}", path.display()))?;
            results::write_atomically(path, &results::to_csv(&[]))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        });
        if let Err(e) = begun {
            eprintln!("frontier: {e}");
            return ExitCode::FAILURE;
        }
    }
    let batch::Batch { rows, lost } = batch::solve_all(&tasks, &options);
    // A cluster that broke, or whose processes do not all reach the end together.
    let failure = cluster
        .as_ref()
        .and_then(|c| c.failure().or_else(|| c.finish().err()));
    if !lead {
        if let Some(failure) = &failure {
            eprintln!("frontier: {failure}");
        }
        return exit_status(&rows, failure.is_some());
    }
    // The last write: a second interrupt waits for it, then quits without writing again.
    let csv = results::to_csv(&rows);
    let written = match out.as_deref() {
        Some(path) => harness::interrupt::write_last(path, &csv)
            .map_err(|e| eprintln!("frontier: cannot write {}: {e}", path.display())),
        None => emit(None, &csv).map_err(drop),
    };
    if written.is_err() {
        return ExitCode::FAILURE;
    }
    if let Some(failure) = &failure {
        eprintln!(
            "frontier: {failure}; the results hold the {} finished before",
            words::count(rows.len() - lost, "level")
        );
    }
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    if !args.quiet {
        // Only an external solver's answers can be wrong.
        let wrong = Some(count(Status::Wrong))
            .filter(|&n| n > 0)
            .map(|n| format!(", {n} wrong"));
        eprintln!(
            "{} in {:.3} s: {} solved, {} unsolvable, {} limit, {} error{}{}",
            words::count(rows.len(), "level"),
            started.elapsed().as_secs_f64(),
            count(Status::Solved),
            count(Status::Unsolvable),
            count(Status::Limit),
            count(Status::Error),
            wrong.unwrap_or_default(),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    exit_status(&rows, failure.is_some())
}

/// 1 when a cluster broke, else 130 when interrupted, else 0 when every level was decided.
fn exit_status(rows: &[results::Row], cluster_broke: bool) -> ExitCode {
    if cluster_broke {
        ExitCode::FAILURE
    } else if control::interrupted() {
        ExitCode::from(INTERRUPTED)
    } else if rows.iter().all(|r| r.status.is_decided()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
