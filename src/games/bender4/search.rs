//! Solving a map: route searches first (without pushes, exact and cheap; with pushes through the
//! engine's A*, within a state budget), then the program search over the routes' compressions.
//!
//! Everything is budgeted in states and candidates, not time, so a build gives the same program
//! for a map on every run; a user's `--timeout` or `--max-states` still stops it early (with the
//! best program found so far, if any).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::Rng;
use super::anneal::{self, Best, Genome, Schedule};
use super::compress::compress;
use super::judge::{Judge, MAX_MAIN, Record};
use super::prove::{self, Shortest};
use super::routes::PlainGraph;
use super::rules::{Board, CellSet, Effect, direction};
use super::space::PushSpace;
use crate::engine::control::Limits;
use crate::engine::{Limit, SearchControl, SearchOutcome};
use crate::games::{Answer, Proof, TooLarge};
use crate::search::astar;

/// How much searching each map gets.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// States the shortest-route search with pushes may store.
    pub push_states: u64,
    /// Random shortest plain routes drawn as extra seeds.
    pub random_routes: usize,
    /// Exploration chains and the candidates each one runs.
    pub chains: usize,
    pub explore: Schedule,
    /// Refinement chains (from the best program) and their schedule.
    pub refiners: usize,
    pub refine: Schedule,
    /// Rounds that share the refinement's candidates, each after the first starting from the
    /// best program so far, polished.
    pub refine_rounds: u64,
    /// Mixed into every random seed (0 by default; other values give independent runs).
    pub seed: u64,
    /// The proof that no shorter program wins ([`prove::shortest_below`]) is tried for
    /// programs of at most `proof_score` characters, running at most `proof_programs`
    /// programs: by default every canonical program of up to 10 characters (11.6 million),
    /// a few seconds.
    pub proof_score: usize,
    pub proof_programs: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            push_states: 400_000,
            random_routes: 24,
            chains: 4,
            explore: Schedule {
                iterations: 50_000,
                lambda: 3.0,
                t_start: 2.0,
                t_end: 0.3,
            },
            refiners: 2,
            refine: Schedule {
                iterations: 700_000,
                lambda: 20.0,
                t_start: 1.0,
                t_end: 0.1,
            },
            refine_rounds: 4,
            seed: 0,
            proof_score: 12,
            proof_programs: 12_000_000,
        }
    }
}

impl Budget {
    /// A budget for tests: a fraction of the default's candidates.
    pub fn small() -> Self {
        let mut b = Budget {
            push_states: 50_000,
            random_routes: 8,
            chains: 2,
            refiners: 1,
            ..Budget::default()
        };
        b.explore.iterations = 20_000;
        b.refine.iterations = 10_000;
        b
    }

    /// The budget of `--effort N`: N times the refinement's candidates, where more candidates
    /// pay most (docs/bender4.md, "More effort").
    pub fn with_effort(mut self, effort: u32) -> Self {
        self.refine.iterations = self.refine.iterations.saturating_mul(u64::from(effort));
        self
    }

    /// The budget for a map whose shortest plain route has `moves` moves: maps with short
    /// routes (the tutorials) get proportionally fewer candidates.
    fn scaled(&self, moves: usize) -> Self {
        let scale = (moves as f64 / FULL_BUDGET_MOVES).clamp(0.02, 1.0);
        let mut b = *self;
        for schedule in [&mut b.explore, &mut b.refine] {
            schedule.iterations = ((schedule.iterations as f64 * scale) as u64).max(1000);
        }
        b
    }
}

/// Plain routes of this many moves or more get the whole budget.
const FULL_BUDGET_MOVES: f64 = 120.0;

/// What the searches found.
pub struct Solution {
    pub line: String,
    pub steps: u32,
    /// Candidate programs the referee ran to find it. Not states: the CSV gives them in
    /// `detail`, not in `expanded`.
    pub programs_run: u64,
}

/// Solves `board`: the shortest program found, `Unsolvable`, or why it stopped.
pub fn solve(board: &Board, ctl: &SearchControl, budget: &Budget) -> Answer {
    let graph = match PlainGraph::new(board) {
        Ok(graph) => graph,
        Err(too_large) => return Answer::limit(too_large),
    };
    ctl.progress.set_bytes(graph.bytes());
    let plain = graph.shortest_from_start();
    ctl.progress.add(plain.states, plain.states);
    let mut routes: Vec<String> = plain.moves.iter().cloned().collect();
    let mut guides = vec![graph];
    match push_route(board, ctl, budget.push_states) {
        PushRoute::Found(route) => {
            for balls in layouts(board, &route) {
                match PlainGraph::with_balls(board, balls) {
                    Ok(guide) => guides.push(guide),
                    Err(too_large) => return Answer::limit(too_large),
                }
            }
            routes.push(route);
        }
        PushRoute::None if routes.is_empty() => return Answer::Unsolvable,
        PushRoute::Unknown(limit) if routes.is_empty() => return Answer::limit(limit),
        // The memory budget holds for the whole level: no program search past it.
        PushRoute::Memory(limit) => return Answer::limit(limit),
        _ => {}
    }
    ctl.progress
        .set_bytes(guides.iter().map(PlainGraph::bytes).sum());
    // The distance tables alone may be past the memory budget (`max_bytes`).
    if let Some(stopped) = memory_stop(ctl) {
        return stopped;
    }
    let mut rng = Rng::new(0x00be_4de4 ^ budget.seed);
    for _ in 0..budget.random_routes {
        if let Some(route) = guides[0].random_shortest(&mut rng, 0.8) {
            routes.push(route);
        }
    }
    let budget = budget.scaled(routes.iter().map(String::len).max().unwrap_or(0));
    let found = programs(&guides, &routes, ctl, &budget);
    // A memory stop (the harness's guard) cut the program search short: no answer stands.
    if let Some(stopped) = memory_stop(ctl) {
        return stopped;
    }
    let Some(s) = found else {
        return Answer::limit(crate::games::Limit::Budget);
    };
    let stopped = || ctl.check().is_err();
    let below = if s.line.len() <= budget.proof_score {
        s.line.len()
    } else {
        0
    };
    let proof = prove::shortest_below(&guides[0], below, budget.proof_programs, &stopped);
    let searched = match proof.programs_run {
        0 => format!("{} programs run", s.programs_run),
        proved => format!("{} programs run, then {proved} to prove", s.programs_run),
    };
    // A limit of the run may have cut the search or the proof short.
    let unproven = || Proof::Unproven {
        limit: ctl.check().err().map(crate::games::Limit::from),
    };
    let (line, steps, proof, note) = match proof.shortest {
        Shortest::Found { line, steps } => {
            let note = format!("{searched}: the first winner of the shortest length");
            (line, steps, Proof::Optimal, note)
        }
        Shortest::Loses { within } if within + 1 == s.line.len() => {
            let note = format!("{searched}: every program of at most {within} characters loses");
            (s.line, s.steps, Proof::Optimal, note)
        }
        Shortest::Loses { within: 0 } => (s.line, s.steps, unproven(), searched),
        Shortest::Loses { within } => {
            let note = format!("{searched}: no program of at most {within} characters wins");
            (s.line, s.steps, unproven(), note)
        }
    };
    Answer::Solved {
        moves: u64::from(steps),
        score: line.len() as u64,
        solution: line,
        proof,
        note,
    }
}

/// A `limit` answer if the level's memory budget stopped it (its own count past
/// `max_bytes`, or a stop the harness requested for memory).
fn memory_stop(ctl: &SearchControl) -> Option<Answer> {
    match ctl.check() {
        Err(limit @ Limit::Memory(_)) => Some(Answer::limit(limit)),
        _ => None,
    }
}

/// The most ball layouts of a route with pushes that get a distance table of their own.
const MAX_GUIDES: usize = 6;

/// The ball layouts a route passes through after its pushes, in order, without repeats (the
/// last ones first when there are too many: they are nearest to Fry).
fn layouts(board: &Board, route: &str) -> Vec<CellSet> {
    let mut pos = board.start_pos();
    let mut seen = vec![pos.balls.clone()];
    for dir in route.bytes().filter_map(direction) {
        if let Effect::Pushed { .. } = board.step(&mut pos, dir)
            && !seen.contains(&pos.balls)
        {
            seen.push(pos.balls.clone());
        }
    }
    let skip = seen.len().saturating_sub(MAX_GUIDES);
    seen.drain(..skip.max(1));
    seen
}

enum PushRoute {
    Found(String),
    /// The whole space with pushes was searched: no route at all.
    None,
    /// The budget or a user limit stopped the search, or the map is too large for it.
    Unknown(crate::games::Limit),
    /// The memory budget stopped the search.
    Memory(Limit),
}

/// A shortest route with pushes, searched by the engine's A* within `max_states` more states,
/// or as many as the user's `--max-states` allows when one is given (the user's limit is the
/// budget then, larger or smaller). It counts into the level's states and progress as it runs.
fn push_route(board: &Board, ctl: &SearchControl, max_states: u64) -> PushRoute {
    let Some(space) = PushSpace::new(board, 1) else {
        return PushRoute::Unknown(crate::games::Limit::TooLarge(TooLarge::PushStates));
    };
    let user = ctl.budget.limits;
    let limits = Limits {
        max_states: Some(
            user.max_states
                .unwrap_or(ctl.progress.states() + max_states),
        ),
        timeout: user.timeout.map(|t| t.saturating_sub(ctl.budget.elapsed())),
        ..user
    };
    let outcome = astar(&space, &ctl.child(limits));
    match outcome {
        SearchOutcome::Found(path) => PushRoute::Found(space.moves(&path)),
        SearchOutcome::Exhausted => PushRoute::None,
        SearchOutcome::Stopped(limit @ Limit::Memory(_)) => PushRoute::Memory(limit),
        SearchOutcome::Stopped(limit) => PushRoute::Unknown(limit.into()),
    }
}

/// The program search: compressed routes as seeds, exploration chains from the best seeds,
/// refinement chains from the best program, then a final polish.
fn programs(
    guides: &[PlainGraph],
    routes: &[String],
    ctl: &SearchControl,
    budget: &Budget,
) -> Option<Solution> {
    let mut judge = Judge::new(guides);
    let mut record = Record::default();
    // Seeds: every route compressed, shortest first (ties: earlier route).
    let mut seeds: Vec<(usize, Genome)> = routes
        .iter()
        .filter(|r| r.len() <= MAX_MAIN)
        .map(|r| Genome::new(&compress(r.as_bytes())))
        .filter(|g| judge.run(g, &mut record).won.is_some())
        .map(|g| (g.used_len(), g))
        .collect();
    seeds.sort_by_key(|(len, _)| *len);
    let mut best: Best = None;
    for (_, g) in &seeds {
        let trial = judge.run(g, &mut record);
        anneal::offer(&mut best, g, trial.won.expect("seeds win"));
    }
    let chains: Vec<(u64, Genome)> = (0..budget.chains)
        .filter_map(|i| {
            seeds
                .get(i % seeds.len().max(1))
                .map(|(_, g)| (i as u64 ^ budget.seed << 32, g.clone()))
        })
        .collect();
    // Refinement starts from the best programs of the exploration chains, best first.
    let chain_runs = AtomicU64::new(0);
    let mut explored: Vec<(usize, u32, Genome)> =
        run_chains(guides, &chains, budget.explore, ctl, &chain_runs)
            .into_iter()
            .flatten()
            .collect();
    explored.sort_by_key(|(len, steps, _)| (*len, *steps));
    best = explored
        .iter()
        .cloned()
        .fold(best, |b, e| merge(b, Some(e)));
    let mut starts: Vec<Genome> = match explored.is_empty() {
        true => vec![best.as_ref()?.2.clone()],
        false => explored.into_iter().map(|(_, _, g)| g).collect(),
    };
    // The refinement's candidates are shared among rounds: each later round starts its chains
    // hot again from the best program so far, polished. Restarts beat one long cooling
    // (docs/bender4.md, "More effort").
    let rounds = budget.refine_rounds.max(1);
    let mut refine = budget.refine;
    refine.iterations /= rounds;
    for round in 0..rounds {
        let refiners: Vec<(u64, Genome)> = (0..budget.refiners)
            .map(|i| {
                let seed = match round {
                    0 => 1000 + i as u64,
                    _ => 2000 + 100 * round + i as u64,
                };
                (seed ^ budget.seed << 32, starts[i % starts.len()].clone())
            })
            .collect();
        best = run_chains(guides, &refiners, refine, ctl, &chain_runs)
            .into_iter()
            .fold(best, merge);
        let mut polished = best.as_ref()?.2.clone();
        anneal::polish(&mut judge, &mut polished);
        starts = vec![polished];
    }
    // The last round's start is the best program, already polished.
    let mut genome = starts.pop()?;
    genome.tidy();
    let line = genome.line();
    let steps = judge.run(&genome, &mut record).won?;
    let programs_run = judge.runs + chain_runs.load(Ordering::Relaxed);
    Some(Solution {
        line,
        steps,
        programs_run,
    })
}

/// Runs annealing chains in parallel, each with its own seed number; the best of each. Adds
/// the programs they ran to `runs`.
fn run_chains(
    guides: &[PlainGraph],
    chains: &[(u64, Genome)],
    schedule: Schedule,
    ctl: &SearchControl,
    runs: &AtomicU64,
) -> Vec<Best> {
    chains
        .par_iter()
        .map(|(seed, start)| {
            let mut judge = Judge::new(guides);
            let mut rng = Rng::new(*seed);
            let best = anneal::anneal(&mut judge, start, schedule, &mut rng, ctl);
            runs.fetch_add(judge.runs, Ordering::Relaxed);
            best
        })
        .collect()
}

/// The better of two results (shorter, then fewer steps, then the first).
fn merge(a: Best, b: Best) -> Best {
    match (a, b) {
        (Some(a), Some(b)) => Some(if (b.0, b.1) < (a.0, a.1) { b } else { a }),
        (a, b) => a.or(b),
    }
}
