//! What a game's solver concludes about a level, typed until the results file writes it.
//!
//! A solver answers with numbers and enums: the limit that stopped it ([`Limit`]), the bound
//! it proved, how far its solution is proven shortest ([`Proof`]). Only the results file
//! (`harness/results.rs`) turns them into the row's `detail` text, and reads that text back
//! into them; no decision anywhere depends on a message's wording.

use std::fmt;
use std::str::FromStr;

use crate::engine::{SearchOutcome, control};

/// What a game's solver concluded about a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Solved {
        /// Length in the game's moves.
        moves: u64,
        /// The game's own score (the program length for bender4, else `moves`).
        score: u64,
        /// The solution in the game's notation.
        solution: String,
        /// How far the search proved that no shorter solution exists.
        proof: Proof,
        /// A note for people (Bender: how many programs the referee ran); usually empty.
        /// Nothing decides on it.
        note: String,
    },
    /// The whole reachable space was searched without reaching a goal.
    Unsolvable,
    /// A limit ended the search before it found a solution; `lower`, where the search proved
    /// one, is a bound: no solution has fewer moves.
    Limit { limit: Limit, lower: Option<u64> },
}

impl Answer {
    /// A solution proven shortest, its score its length.
    pub fn optimal(moves: u64, solution: String) -> Self {
        Answer::Solved {
            moves,
            score: moves,
            solution,
            proof: Proof::Optimal,
            note: String::new(),
        }
    }

    /// The answer of an optimal search: the path it found written by `notation`, no path in
    /// the whole space, or the limit that stopped it.
    pub fn of_optimal<S>(outcome: SearchOutcome<S>, notation: impl FnOnce(&[S]) -> String) -> Self {
        match outcome {
            SearchOutcome::Found(path) => Answer::optimal(path.len() as u64 - 1, notation(&path)),
            SearchOutcome::Exhausted => Answer::Unsolvable,
            SearchOutcome::Stopped(limit) => Answer::limit(limit),
        }
    }

    /// A limit that stopped the search with no bound proven.
    pub fn limit(limit: impl Into<Limit>) -> Self {
        Answer::Limit {
            limit: limit.into(),
            lower: None,
        }
    }
}

/// How far a solution is proven shortest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The search proved that no solution is shorter.
    Optimal,
    /// A limit stopped the proof after it showed that no solution has fewer than `lower`
    /// moves: the optimum lies between `lower` and the solution's length.
    Bounded { limit: Limit, lower: u64 },
    /// The solver does not prove its answers shortest (Bender's programs); `limit`, when one
    /// cut its search short.
    Unproven { limit: Option<Limit> },
}

impl Proof {
    pub fn is_optimal(self) -> bool {
        self == Proof::Optimal
    }

    /// The limit that stopped the proof or the search, if one did.
    pub fn limit(self) -> Option<Limit> {
        match self {
            Proof::Optimal => None,
            Proof::Bounded { limit, .. } => Some(limit),
            Proof::Unproven { limit } => limit,
        }
    }

    /// The lower bound on the optimum that a stopped proof showed.
    pub fn lower(self) -> Option<u64> {
        match self {
            Proof::Bounded { lower, .. } => Some(lower),
            _ => None,
        }
    }
}

/// Why a level's search ended before deciding it (or before proving its solution shortest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A limit of the run: `--max-states`, `--timeout`, `--max-memory`, or an interrupt.
    Search(control::Limit),
    /// The run was interrupted before the level's search began.
    NotStarted,
    /// The solver's own budget ran out before it found a solution (Bender's program search).
    Budget,
    /// The level is larger than the solver's packed states or tables hold: what is too large.
    TooLarge(TooLarge),
}

impl Limit {
    /// Whether the user's interrupt ended the level.
    pub fn is_interrupt(self) -> bool {
        matches!(
            self,
            Limit::NotStarted | Limit::Search(control::Limit::Interrupted(_))
        )
    }
}

impl From<TooLarge> for Limit {
    fn from(what: TooLarge) -> Self {
        Limit::TooLarge(what)
    }
}

impl From<control::Limit> for Limit {
    fn from(limit: control::Limit) -> Self {
        Limit::Search(limit)
    }
}

/// What part of a level is beyond a solver's representation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLarge {
    /// Bender: the map's states with garbage balls do not fit the 128 bits of a packed state.
    PushStates,
    /// Bender: the map's cells times its switches' field masks exceed a distance table.
    DistanceTable,
}

impl TooLarge {
    const ALL: [TooLarge; 2] = [TooLarge::PushStates, TooLarge::DistanceTable];

    fn as_str(self) -> &'static str {
        match self {
            TooLarge::PushStates => "the map's states with pushes do not fit 128 bits",
            TooLarge::DistanceTable => {
                "the map's cells times its field masks exceed the states of a distance table"
            }
        }
    }
}

const NOT_STARTED: &str = "interrupted before it started";
const BUDGET: &str = "no program found within the budget";

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Search(limit) => limit.fmt(f),
            Limit::NotStarted => f.write_str(NOT_STARTED),
            Limit::Budget => f.write_str(BUDGET),
            Limit::TooLarge(what) => f.write_str(what.as_str()),
        }
    }
}

impl FromStr for Limit {
    type Err = ();

    /// The limit a results file's `detail` names, exactly as [`Limit`]'s `Display` wrote it.
    fn from_str(text: &str) -> Result<Self, ()> {
        match text {
            NOT_STARTED => Ok(Limit::NotStarted),
            BUDGET => Ok(Limit::Budget),
            _ => TooLarge::ALL
                .into_iter()
                .find(|what| what.as_str() == text)
                .map(Limit::TooLarge)
                .map_or_else(|| text.parse().map(Limit::Search), Ok),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn every_limit_reads_back_as_it_was_written() {
        let limits = [
            Limit::Search(control::Limit::States(1)),
            Limit::Search(control::Limit::States(1_000_000)),
            Limit::Search(control::Limit::Time(Duration::from_millis(2_500))),
            Limit::Search(control::Limit::Memory(512 << 20)),
            Limit::Search(control::Limit::Interrupted(0)),
            Limit::Search(control::Limit::Interrupted(7)),
            Limit::NotStarted,
            Limit::Budget,
            Limit::TooLarge(TooLarge::PushStates),
            Limit::TooLarge(TooLarge::DistanceTable),
        ];
        for limit in limits {
            assert_eq!(limit.to_string().parse(), Ok(limit), "{limit}");
        }
        assert_eq!("timeout of 1.5 s".parse::<Limit>(), Err(()));
        assert_eq!("3 programs run".parse::<Limit>(), Err(()));
    }

    #[test]
    fn only_interrupts_are_interrupts() {
        assert!(Limit::NotStarted.is_interrupt());
        assert!(Limit::Search(control::Limit::Interrupted(3)).is_interrupt());
        assert!(!Limit::Budget.is_interrupt());
        assert!(!Limit::Search(control::Limit::States(3)).is_interrupt());
    }
}
