//! The one conversion from `solve`'s flags to the run's configuration. Each flag that shapes
//! the searches or their timings is read here once, into [`Config`]; the searches' limits, the
//! batch's options, the provenance sidecar's settings and the fingerprint that the processes of
//! a cluster compare are all made from it, so a new flag is added here and in [`args`] alone.
//!
//! [`args`]: super::args

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use frontier::distributed::Cluster;
use frontier::engine::control::Limits;
use frontier::external::{self, ExternalSolver, Reference};
use frontier::harness;
use frontier::harness::batch::{self, BatchOptions};
use frontier::harness::provenance::{Levels, Settings, SolverProvenance};
use frontier::harness::registry::LevelTask;

use super::args::{LimitArgs, SolveArgs};

/// The memory budget in bytes: `--max-memory` MiB, else the default share of the machine's.
pub fn memory_budget(max_memory_mib: Option<u64>) -> Option<u64> {
    max_memory_mib
        .map(|m| m << 20)
        .or_else(harness::default_memory_budget)
}

impl LimitArgs {
    /// Each level's search limits (no anytime search: that is `solve`'s own flag).
    pub fn limits(&self) -> Limits {
        Limits {
            max_states: self.max_states,
            timeout: self.timeout.0.map(Duration::from_secs_f64),
            // Every search of a level stops at its next check once its own allocations reach
            // the budget (the guard holds the whole process to it every tick).
            max_bytes: memory_budget(self.max_memory),
            anytime: None,
            effort: None,
        }
    }
}

/// A `solve` run's configuration: where its levels are, and what shapes its searches and their
/// timings, as its flags give it (seconds and milliseconds as given, which is what the sidecar
/// records and the fingerprint hashes).
pub struct Config {
    /// Where the levels are: the paths and the game given.
    pub levels: Levels,
    /// Each level's search limits.
    pub limits: Limits,
    pub timeout_s: Option<f64>,
    pub anytime_s: Option<f64>,
    pub repeat: usize,
    pub warm_below_ms: Option<f64>,
    pub parallel_levels: Option<usize>,
    /// The program that solves the levels in place of frontier's search (`--solver`), and
    /// what its sidecar records of it.
    pub solver: Option<(Arc<ExternalSolver>, SolverProvenance)>,
}

impl Config {
    /// The configuration `args` ask for; an error names a flag whose value cannot be used.
    pub fn new(args: &SolveArgs) -> Result<Config, String> {
        if let Some(t) = args.anytime.filter(|t| !(t.is_finite() && *t >= 0.0)) {
            return Err(format!(
                "--anytime {t}: expected a number of seconds, 0 or more"
            ));
        }
        let solver = match &args.solver {
            None => None,
            Some(_) if args.limits.max_states.is_some() => {
                return Err(
                    "--max-states: an external solver's states are its own to count, not held"
                        .into(),
                );
            }
            Some(command) => {
                let reference =
                    Reference::read(&args.reference).map_err(|e| format!("--reference: {e}"))?;
                let solver = ExternalSolver::new(command.clone(), reference)?;
                let recorded = SolverProvenance {
                    command: command.clone(),
                    version: solver.version(),
                    enforcement: external::process::ENFORCEMENT.into(),
                };
                Some((Arc::new(solver), recorded))
            }
        };
        Ok(Config {
            levels: Levels {
                paths: args.paths.clone(),
                game: args.game.map(|game| game.as_str().into()),
            },
            limits: Limits {
                anytime: args.anytime.map(Duration::from_secs_f64),
                effort: args.effort,
                ..args.limits.limits()
            },
            timeout_s: args.limits.timeout.0,
            anytime_s: args.anytime,
            repeat: args.repeat.into(),
            warm_below_ms: args.warm_below,
            parallel_levels: args.parallel_levels,
            solver,
        })
    }

    /// The batch's options: the per-level limits and how the levels are run. `quiet`: no
    /// progress; `checkpoint`: where the rows finished so far are written during the run.
    pub fn batch_options(
        &self,
        quiet: bool,
        checkpoint: Option<PathBuf>,
        cluster: Option<Arc<Cluster>>,
    ) -> BatchOptions {
        BatchOptions {
            limits: self.limits,
            memory_budget: self.limits.max_bytes,
            quiet,
            parallel_levels: self.parallel_levels,
            checkpoint,
            repeat: self.repeat,
            warm_below: self
                .warm_below_ms
                .map(|ms| Duration::from_secs_f64(ms / 1e3)),
            cluster,
            solver: self
                .solver
                .as_ref()
                .map(|(solver, _)| Arc::clone(solver) as Arc<dyn batch::LevelSolver>),
        }
    }

    /// The settings the sidecar records for a run of `levels` levels with `options`.
    pub fn settings(&self, options: &BatchOptions, levels: usize) -> Settings {
        Settings {
            threads: rayon::current_num_threads(),
            parallel_levels: batch::levels_at_a_time(options, levels),
            repeat: self.repeat,
            warm_below_ms: self.warm_below_ms,
            max_states: self.limits.max_states,
            timeout_s: self.timeout_s,
            max_memory_mib: self.limits.max_bytes.map(|b| b >> 20),
            anytime_s: self.anytime_s,
            effort: self.limits.effort,
            distributed: options
                .cluster
                .as_ref()
                .map(|c| format!("{} processes x {} workers", c.processes(), c.workers())),
            solver: self.solver.as_ref().map(|(_, recorded)| recorded.clone()),
        }
    }

    /// What every process of a cluster must agree on: the build, the levels in order and the
    /// options that shape the searches (not the output, nor the memory budget, which is each
    /// machine's own).
    pub fn fingerprint(&self, tasks: &[Box<dyn LevelTask>]) -> u64 {
        use std::hash::{Hash, Hasher};
        // SipHash with fixed keys: the same in every process of the same build.
        let mut hasher = std::hash::DefaultHasher::new();
        (env!("CARGO_PKG_VERSION"), env!("FRONTIER_COMMIT")).hash(&mut hasher);
        for task in tasks {
            (task.game().as_str(), task.name()).hash(&mut hasher);
        }
        (self.limits.max_states, self.limits.effort, self.repeat).hash(&mut hasher);
        for given in [self.timeout_s, self.anytime_s, self.warm_below_ms] {
            given.map(f64::to_bits).hash(&mut hasher);
        }
        hasher.finish()
    }
}
