//! `frontier generate --distributed`: the run of `harness/generate.rs` spread over the processes
//! of a cluster. The searches are the harness's ([`Searcher`]), on each process's own rayon pool
//! as in a local run; the cluster deals the units to the processes and carries every finished
//! unit to process 0, whose [`Merger`] journals and merges it as a local run does. No game or
//! engine code knows of it.
//!
//! **Dealing.** Process 0 opens the journal and tells every process which units it holds (one
//! gather). Then every process lists the same units in the same order and searches unit `i` of
//! the goal shape of rank `g` when `(g + i) mod processes` is its own index, unless the journal
//! holds it: every unit is searched once, by one process, with no message to deal it, and the
//! deal is the same on a resumed run.
//!
//! **Carrying.** While its process searches, every worker runs rounds of the `rounds` dataflow.
//! In a round, the process's first worker offers the units its process finished (waiting up to
//! [`TICK`] for one) to worker 0, which journals and merges each as it receives them; once they
//! have all arrived, every worker reports whether its process is through and why it halted, if
//! it did. A halt anywhere (an interrupt, the memory budget, a journal that cannot be written)
//! halts every process in the next round, with the same reason, so all end alike; the rounds end
//! when every process is through, every unit it finished in process 0's journal.
//!
//! **Faults.** A lost process breaks the cluster (`cluster.rs`): the rounds of every survivor
//! fail with its name, and its searches stop (a broken cluster interrupts its process). Process
//! 0's journal keeps the units that reached it, for a rerun of every process to go on from.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::Cluster;
use super::rounds::Rounds;
use crate::engine::control::{self, Limit};
use crate::harness::generate::{
    Finished, GenerateError, GenerateOptions, Generated, Halt, Merger, Searcher, Stop, Unit,
};

/// How long a process's first worker waits for a finished unit before it ends a round without
/// one: about how late a unit reaches process 0's journal, or a halt the other processes.
const TICK: Duration = Duration::from_millis(100);

/// What every process of a cluster must agree on: the build and the work asked.
pub fn fingerprint(options: &GenerateOptions) -> u64 {
    // SipHash with fixed keys: the same in every process of the same build.
    let mut hasher = DefaultHasher::new();
    let build = (env!("CARGO_PKG_VERSION"), env!("FRONTIER_COMMIT"));
    (build, options.work()).hash(&mut hasher);
    hasher.finish()
}

/// A worker's account of a round.
#[derive(Clone, Serialize, Deserialize)]
struct Status {
    /// Its process has searched all it will search, and offered every unit it finished.
    through: bool,
    halt: Option<Halt>,
}

/// Runs the search of `options` on the cluster: process 0 returns the run's records, the other
/// processes none; every process returns the same error when the run stopped.
pub fn generate(cluster: &Cluster, options: &GenerateOptions) -> Result<Generated, GenerateError> {
    let what = fingerprint(options);
    let lead = cluster.process() == 0;
    let opened = lead.then(|| Merger::open(options));
    let held = match &opened {
        Some(Ok(merger)) => Ok(merger.journaled()),
        Some(Err(e)) => Err(e.clone()),
        None => Ok(Vec::new()),
    };
    // Process 0 tells every process the units its journal holds, or why it cannot be used.
    let told = cluster.run(what, |worker, faults| {
        let mut rounds = Rounds::<(), Result<Vec<String>, String>>::new(worker, faults, |_| 0);
        let mine = match rounds.index() {
            0 => held.clone(),
            _ => Ok(Vec::new()),
        };
        let mut all = rounds.gather(mine)?;
        rounds.close()?;
        Ok(all.swap_remove(0))
    });
    let merger = match (opened, told) {
        (opened, Err(why)) => {
            let merger = opened.and_then(Result::ok);
            return Err(merger
                .unwrap_or_else(|| Merger::skipping(Vec::new()))
                .stopped(Stop::Cluster(why)));
        }
        (_, Ok(Err(journal))) => return Err(GenerateError::Journal(journal)),
        (Some(opened), Ok(Ok(_))) => opened.map_err(GenerateError::Journal)?,
        (None, Ok(Ok(units))) => Merger::skipping(units),
    };
    let (processes, process) = (cluster.processes(), cluster.process());
    let searcher = Searcher::new(options, options.quiet || !lead);
    // Every unit is met, so that process 0 merges the journal's and finds any not of this run.
    let take = |unit: &Unit| {
        !merger.resumes(&unit.name) && (unit.goal_rank + unit.index) % processes == process
    };
    let (sender, finished) = mpsc::channel::<Finished>();
    // Only the process's first worker takes them; the mutex makes the receiver shareable.
    let finished = Mutex::new(finished);
    let carried = std::thread::scope(|scope| {
        let searcher = &searcher;
        scope.spawn(move || {
            searcher.search(take, move |unit| {
                sender
                    .send(unit)
                    .expect("the receiver outlives the searches");
            })
        });
        cluster.run(what, |worker, faults| {
            let mut rounds = Rounds::<Finished, Status>::new(worker, faults, |_| 0);
            let carrier = rounds.index().is_multiple_of(cluster.workers());
            let mut halt = None;
            loop {
                let through = !carrier || offer(&finished, &mut rounds);
                rounds.exchange(|units| {
                    // Only worker 0, process 0's, receives units.
                    for unit in units {
                        if let Err(e) = merger.record(unit.clone()) {
                            searcher.halt(Halt::Journal(e));
                        }
                    }
                })?;
                if carrier && control::interrupted() {
                    // Searches that were running stopped on it already; this is for an
                    // interrupt after the process's searches ended.
                    searcher.halt(Halt::Limit(Limit::Interrupted(searcher.states())));
                }
                let status = Status {
                    through,
                    halt: searcher.halted().cloned(),
                };
                let statuses = rounds.gather(status)?;
                if halt.is_none()
                    && let Some(first) = statuses.iter().find_map(|s| s.halt.clone())
                {
                    searcher.halt(first.clone());
                    halt = Some(first);
                }
                if statuses.iter().all(|s| s.through) {
                    break;
                }
            }
            rounds.close()?;
            Ok(halt)
        })
    });
    match carried {
        Ok(halt) => merger.finish(options, halt),
        Err(why) => Err(merger.stopped(Stop::Cluster(why))),
    }
}

/// Offers worker 0 the units this process finished since the last round, waiting up to
/// [`TICK`] for the first; whether the process's searches are over, every unit offered.
fn offer(finished: &Mutex<Receiver<Finished>>, rounds: &mut Rounds<Finished, Status>) -> bool {
    let finished = finished.lock().unwrap_or_else(|e| e.into_inner());
    let mut wait = TICK;
    loop {
        match finished.recv_timeout(wait) {
            Ok(unit) => rounds.offer(unit),
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => return true,
        }
        wait = Duration::ZERO;
    }
}
