//! `frontier generate`: a board's hardest sliding-block puzzles, one per piece count, as a
//! `.tsv` that `solve` reads; in this process, or on a cluster (`--distributed`), whose process
//! 0 journals and writes the table.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use frontier::distributed;
use frontier::engine::control::Limit;
use frontier::games::GameId;
use frontier::games::sliding_blocks::generate::Goal;
use frontier::harness::generate::{self, GenerateError, GenerateOptions, Stop};
use frontier::words;

use super::args::GenerateArgs;
use super::config::memory_budget;
use super::output::{destination, emit};
use super::{INTERRUPTED, set_threads, stop_cleanly_on_interrupt, usage_error};

pub fn run(args: GenerateArgs) -> ExitCode {
    if args.game != GameId::SlidingBlocks {
        return usage_error(format!(
            "generate: no generator for {} (only sliding-blocks has one)",
            args.game
        ));
    }
    // A puzzle needs an empty cell to move into, so every piece count above this has none.
    let most = args.board.width * args.board.height - 1;
    if let Some(pieces) = args.pieces.filter(|&p| usize::from(p) > most) {
        return usage_error(format!(
            "--pieces {pieces}: a {} board holds at most {most} pieces with a cell left empty",
            args.board
        ));
    }
    if let Err(e) = set_threads(args.threads) {
        return usage_error(e);
    }
    // A process's units are searched on its --threads; its workers only carry finished units.
    let plan = match args.cluster.plan(1) {
        Ok(plan) => plan,
        Err(e) => return usage_error(e),
    };
    let out = destination(args.out.as_deref(), || {
        PathBuf::from(format!("results/generated-{}.tsv", args.board))
    });
    let journal = args.journal.clone().or_else(|| {
        out.as_ref().map(|out| {
            let mut name = out.clone().into_os_string();
            name.push(".journal");
            PathBuf::from(name)
        })
    });
    stop_cleanly_on_interrupt();
    let started = Instant::now();
    let options = GenerateOptions {
        board: args.board,
        pieces: args.pieces.map(usize::from),
        goal: if args.box_goal { Goal::Box } else { Goal::Cell },
        quiet: args.quiet,
        memory_budget: memory_budget(args.max_memory),
        journal,
        any_build: args.resume_any_build,
    };
    let cluster = match plan
        .map(|p| p.join(distributed::generate::fingerprint(&options)))
        .transpose()
    {
        Ok(cluster) => cluster,
        Err(e) => {
            eprintln!("frontier: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Of a cluster's processes, the first journals and writes the table.
    let lead = cluster.as_ref().is_none_or(|c| c.process() == 0);
    let generated = match &cluster {
        Some(cluster) => distributed::generate::generate(cluster, &options),
        None => generate::generate(&options),
    };
    // Every process at the end together, so that none leaves while another still needs it:
    // also after a halt that every process took alike (an interrupt, the memory budget, the
    // journal), since a process that left at once could take its last messages with it unsent
    // and its peers would see it lost. Not after a lost process: the cluster is broken.
    let together = !matches!(
        generated,
        Err(GenerateError::Stopped {
            why: Stop::Cluster(_),
            ..
        })
    );
    let ended = match &cluster {
        Some(cluster) if together => cluster.finish(),
        _ => Ok(()),
    };
    let generated = match (generated, ended) {
        (Ok(generated), Err(why)) => Err(GenerateError::Stopped {
            why: Stop::Cluster(why),
            finished: generated.classes,
            journal: generated.journal.map(|j| j.path().to_path_buf()),
        }),
        (generated, _) => generated,
    };
    let generated = match generated {
        Ok(generated) => generated,
        Err(GenerateError::Journal(e)) => {
            eprintln!("frontier: generate: {e}");
            return ExitCode::FAILURE;
        }
        Err(GenerateError::Stopped {
            why,
            finished,
            journal,
        }) => {
            let kept = match journal {
                _ if !lead => "process 0's journal keeps the classes finished".into(),
                Some(path) => format!(
                    "{} finished are in {}: the same command goes on from there",
                    words::count(finished, "class"),
                    path.display()
                ),
                None => "nothing kept (no journal)".into(),
            };
            eprintln!("frontier: generate stopped: {why}; {kept}");
            return match why {
                Stop::Limit(Limit::Memory(_)) | Stop::Cluster(_) => ExitCode::FAILURE,
                Stop::Limit(_) => ExitCode::from(INTERRUPTED),
            };
        }
    };
    if !lead {
        return ExitCode::SUCCESS;
    }
    if let Err(failure) = emit(out.as_deref(), &generate::to_tsv(&generated.records)) {
        return failure;
    }
    if let Some(journal) = generated.journal
        && let Err(e) = journal.remove()
    {
        eprintln!("frontier: generate: {e}");
        return ExitCode::FAILURE;
    }
    if !args.quiet {
        let resumed = match generated.resumed {
            0 => String::new(),
            n => format!(
                ", {} of {} from the journal",
                n,
                words::count(generated.classes, "class")
            ),
        };
        eprintln!(
            "{} of {} in {:.3} s{resumed}{}",
            words::count(generated.records.len(), "piece count"),
            args.board,
            started.elapsed().as_secs_f64(),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    ExitCode::SUCCESS
}
