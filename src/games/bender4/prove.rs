//! The shortest program, proven: every program shorter than the best one found, in a canonical
//! form, run by the referee's rules through the program search's [`Judge`] (resumed from the
//! last program's run; see [`part`]). The first length at which one wins holds the optimum;
//! when none below the best one's length wins, the best one is optimal.
//!
//! Why the canonical programs are enough. Take any winning program, arriving at step w. Each
//! change below keeps it winning and makes it no longer:
//! 1. Delete every character not read in steps 1 to w. The steps up to the arrival read the same
//!    characters, so Bender makes the same moves. (A function called before the arrival keeps
//!    its first character: it is read at the step after the call, at the latest at w, since a
//!    call is not a move and w is.)
//! 2. Delete every character that does nothing (neither a move nor a digit 1–9). The moves are
//!    the same, each at an earlier step.
//! 3. Delete every empty function with the calls to it (a call and a return, no move), and
//!    number the functions after it one lower, in their calls too.
//!
//! Then every piece holds at least one character, every character is a move or a digit, and
//! every digit was read before the arrival as a call of a function that existed: it names one
//! of the k functions, and every function is called before the arrival. So the step after the
//! arrival cannot call a missing function either, and the program wins. Three more changes
//! ([`Pruning`]), each again keeping it winning and making it no longer, the moves being the
//! same and in the same order, each at the same or an earlier step:
//! 4. Replace every call of a function whose body is one character by that character (a move,
//!    or the call of another function; a body that calls only itself never moves, so it was
//!    not called before the arrival), and delete the function: two characters fewer.
//! 5. Replace the one call of a function whose digit occurs once in the line by the function's
//!    body, and delete the function: two characters fewer. (That call is outside the body, or
//!    the function would never be entered.)
//! 6. Number the functions in the order in which their digits first occur in the line: read
//!    main, then the functions in their new order; the line is as long as before.
//!
//! Repeating 1 to 6 ends (each shortens the line or, 6, leaves it in order), with a program in
//! which every function body has two characters or more, every digit occurs twice or more, and
//! the digits first occur in the order 1, 2, ..., k. Canonical programs of n characters are
//! therefore: k separators (k at most 9), a non-empty main and k bodies of two characters or
//! more, each character one of `U` `D` `L` `R` and the digits 1 to k, each digit occurring at
//! least twice, first in that order. If none of at most n characters wins, no program of at
//! most n characters wins at all. [`canonical_count`] gives their number per length, so that a
//! budget of programs run decides ahead of a length whether it can be finished: the bound
//! reached is the same on every run.

use rayon::prelude::*;

use super::judge::{Judge, Record};
use super::program::Code;
use super::routes::PlainGraph;

const MOVES: &[u8] = b"UDLR";

/// The most functions a program can call (digits 1 to 9).
const MAX_FUNCTIONS: usize = 9;

/// The reductions 4 to 6 of the module's argument, each of which leaves out the programs it
/// shortens or renumbers; a test holds each against a run without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// 4: every function body has two characters or more.
    pub bodies_of_two: bool,
    /// 5: every function's digit occurs at least twice.
    pub called_twice: bool,
    /// 6: the digits first occur in the order 1, 2, ..., k.
    pub ordered: bool,
}

impl Pruning {
    /// Every reduction: what the proof runs.
    pub const ALL: Pruning = Pruning {
        bodies_of_two: true,
        called_twice: true,
        ordered: true,
    };

    /// The shortest a function body may be.
    fn min_body(&self) -> usize {
        if self.bodies_of_two { 2 } else { 1 }
    }

    /// Whether the characters of a program with `k` functions (its pieces' characters in
    /// order, the separators left out) are admitted.
    fn admits(&self, k: usize, characters: impl Iterator<Item = u8>) -> bool {
        let mut count = [0u8; MAX_FUNCTIONS + 1];
        let mut seen = 0;
        for c in characters {
            if !c.is_ascii_digit() {
                continue;
            }
            let d = usize::from(c - b'0');
            if count[d] == 0 {
                if self.ordered && d != seen + 1 {
                    return false;
                }
                seen = seen.max(d);
            }
            count[d] = count[d].saturating_add(1);
        }
        !self.called_twice || count[1..=k].iter().all(|&c| c >= 2)
    }

    /// How many strings of `len` characters over the four moves and the digits 1 to `k` it
    /// admits: a count over the number of times each digit occurred so far (0, 1, or 2 and
    /// more), which is all that [`Pruning::admits`] looks at.
    fn strings(&self, len: usize, k: usize) -> u64 {
        let states = 3usize.pow(k as u32);
        let digit = |state: usize, d: usize| state / 3usize.pow(d as u32) % 3;
        let mut ways = vec![0u64; states];
        ways[0] = 1;
        for _ in 0..len {
            let mut next = vec![0u64; states];
            for (state, &w) in ways.iter().enumerate().filter(|(_, w)| **w > 0) {
                next[state] = next[state].saturating_add(w.saturating_mul(MOVES.len() as u64));
                for d in 0..k {
                    let n = digit(state, d);
                    if self.ordered && n == 0 && d > 0 && digit(state, d - 1) == 0 {
                        continue;
                    }
                    let to = if n < 2 {
                        state + 3usize.pow(d as u32)
                    } else {
                        state
                    };
                    next[to] = next[to].saturating_add(w);
                }
            }
            ways = next;
        }
        ways.iter()
            .enumerate()
            .filter(|&(state, _)| !self.called_twice || (0..k).all(|d| digit(state, d) == 2))
            .map(|(_, &w)| w)
            .fold(0, u64::saturating_add)
    }
}

/// What the exhaustive search showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortest {
    /// The shortest winning program (the first of its length in the enumeration order), and the
    /// step at which it arrives: every shorter program loses.
    Found { line: String, steps: u32 },
    /// No program of at most `within` characters wins (0: nothing was searched).
    Loses { within: usize },
}

/// The result and the programs the referee ran for it.
pub struct Search {
    pub shortest: Shortest,
    pub programs_run: u64,
}

/// Searches the programs of 1, 2, ... characters, up to `below − 1`, in order, while the
/// canonical programs of the next length fit in what is left of `budget`; `stop` is asked
/// between lengths and between parts of a length (a stopped length does not count).
pub fn shortest_below(
    graph: &PlainGraph,
    below: usize,
    budget: u64,
    stop: &(impl Fn() -> bool + Sync),
) -> Search {
    shortest_below_pruned(graph, below, budget, stop, Pruning::ALL)
}

/// [`shortest_below`] over the canonical programs that `pruning` admits.
fn shortest_below_pruned(
    graph: &PlainGraph,
    below: usize,
    budget: u64,
    stop: &(impl Fn() -> bool + Sync),
    pruning: Pruning,
) -> Search {
    let mut programs_run = 0;
    let mut within = 0;
    for n in 1..below {
        let count = canonical_count(n, pruning);
        if programs_run + count > budget || stop() {
            break;
        }
        let (found, run) = of_length(graph, n, stop, pruning);
        programs_run += run;
        if let Some((line, steps)) = found {
            return Search {
                shortest: Shortest::Found { line, steps },
                programs_run,
            };
        }
        if stop() {
            break;
        }
        within = n;
    }
    Search {
        shortest: Shortest::Loses { within },
        programs_run,
    }
}

/// The number of canonical programs of `n` characters that `pruning` admits: for each number
/// of functions k, the ways to cut the n − k characters into a main and k bodies of their
/// least lengths or more, times the strings of n − k characters admitted.
pub fn canonical_count(n: usize, pruning: Pruning) -> u64 {
    (0..=MAX_FUNCTIONS.min(n.saturating_sub(1) / 2))
        .map(|k| {
            // Lengths above the least ones, shared among k + 1 pieces.
            let least = 1 + k * pruning.min_body();
            match (n - k).checked_sub(least) {
                Some(spare) => binomial(spare + k, k).saturating_mul(pruning.strings(n - k, k)),
                None => 0,
            }
        })
        .fold(0, u64::saturating_add)
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// Runs every canonical program of `n` characters: the first winner in enumeration order, and
/// how many were run. Parts (one per piece lengths and first character) run in parallel.
fn of_length(
    graph: &PlainGraph,
    n: usize,
    stop: &(impl Fn() -> bool + Sync),
    pruning: Pruning,
) -> (Option<(String, u32)>, u64) {
    let bodies_long_enough =
        |lengths: &Vec<usize>| lengths[1..].iter().all(|&len| len >= pruning.min_body());
    let mut parts = Vec::new();
    for k in 0..=MAX_FUNCTIONS.min((n - 1) / 2) {
        for lengths in compositions(n - k, k + 1)
            .into_iter()
            .filter(bodies_long_enough)
        {
            for first in 0..4 + k {
                parts.push((k, lengths.clone(), first));
            }
        }
    }
    let results: Vec<(Option<(String, u32)>, u64)> = parts
        .par_iter()
        .map(|(k, lengths, first)| {
            if stop() {
                return (None, 0);
            }
            part(graph, *k, lengths, *first, pruning)
        })
        .collect();
    let run = results.iter().map(|(_, r)| r).sum();
    (results.into_iter().find_map(|(found, _)| found), run)
}

/// The ways to cut `total` into `parts` positive lengths, in lexicographic order.
fn compositions(total: usize, parts: usize) -> Vec<Vec<usize>> {
    if parts == 1 {
        return vec![vec![total]];
    }
    (1..=total + 1 - parts)
        .flat_map(|first| {
            compositions(total - first, parts - 1)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

/// A program being enumerated: its characters (pieces joined by `;`) and where each piece
/// starts and ends.
struct Pieces {
    text: Vec<u8>,
    bounds: Vec<(usize, usize)>,
}

impl Code for Pieces {
    fn pieces(&self) -> usize {
        self.bounds.len()
    }
    fn piece(&self, index: usize) -> &[u8] {
        let (start, end) = self.bounds[index];
        &self.text[start..end]
    }
}

/// Runs the canonical programs with k functions, these piece lengths and this first
/// character (an index into the alphabet), in odometer order; the first winner and the count.
///
/// Each program but the first is run as a child of the last one run ([`Judge::run_child`]):
/// they differ only from the odometer's lowest changed slot on, so the run resumes from the
/// last checkpoint before the first step that read any of those slots; and when the last run
/// read none of them, the program makes the same run step for step and loses as it did.
fn part(
    graph: &PlainGraph,
    k: usize,
    lengths: &[usize],
    first: usize,
    pruning: Pruning,
) -> (Option<(String, u32)>, u64) {
    let alphabet: Vec<u8> = MOVES.iter().copied().chain(b'1'..b'1' + k as u8).collect();
    let mut bounds = Vec::with_capacity(lengths.len());
    // slots[i]: a character's place in the text, and its (piece, position).
    let mut slots = Vec::new();
    let mut start = 0;
    for (piece, &len) in lengths.iter().enumerate() {
        bounds.push((start, start + len));
        slots.extend((0..len).map(|at| (start + at, (piece, at))));
        start += len + 1;
    }
    let mut text = vec![b';'; start - 1];
    // digits[i]: the alphabet index at slots[i]; slots[0] is fixed to `first`.
    let mut digits = vec![0; slots.len()];
    digits[0] = first;
    for (&(at, _), &d) in slots.iter().zip(&digits) {
        text[at] = alphabet[d];
    }
    let mut program = Pieces { text, bounds };
    let mut judge = Judge::new(std::slice::from_ref(graph)).exact();
    let (mut record, mut child) = (Record::default(), Record::default());
    // The lowest slot changed since the last program run (`None`: none was run yet).
    let mut changed_from: Option<usize> = None;
    let mut changed = Vec::new();
    let mut run_count = 0;
    loop {
        let characters = slots.iter().map(|&(at, _)| program.text[at]);
        if pruning.admits(k, characters) {
            run_count += 1;
            let won = match changed_from {
                None => judge.run(&program, &mut record).won,
                Some(lowest) => {
                    let (piece, from) = slots[lowest].1;
                    changed.clear();
                    changed.push((piece, from));
                    changed.extend((piece + 1..lengths.len()).map(|later| (later, 0)));
                    if record.reads(&changed) {
                        judge.run_child(&program, &record, &changed, &mut child);
                        std::mem::swap(&mut record, &mut child);
                    }
                    record.trial.won
                }
            };
            if let Some(steps) = won {
                let line = String::from_utf8(program.text.clone()).expect("ASCII");
                return (Some((line, steps)), run_count);
            }
            changed_from = Some(usize::MAX);
        }
        // The next program: the last character advances first; slot 0 stays.
        let mut i = slots.len() - 1;
        loop {
            if i == 0 {
                return (None, run_count);
            }
            digits[i] += 1;
            if digits[i] < alphabet.len() {
                program.text[slots[i].0] = alphabet[digits[i]];
                break;
            }
            digits[i] = 0;
            program.text[slots[i].0] = alphabet[0];
            i -= 1;
        }
        changed_from = changed_from.map(|lowest| lowest.min(i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bender4::notation::wins;
    use crate::games::bender4::testing::{INTRO1, INTRO2, INTRO3, INTRO4, INTRO5, MAP_A, level};

    /// Every line of exactly `n` characters over `alphabet`, by brute force.
    fn every_line(alphabet: &[u8], n: usize) -> impl Iterator<Item = String> + '_ {
        let total = alphabet.len().pow(n as u32);
        (0..total).map(move |mut i| {
            (0..n)
                .map(|_| {
                    let c = alphabet[i % alphabet.len()];
                    i /= alphabet.len();
                    c as char
                })
                .collect()
        })
    }

    /// Every character that could matter, with one that does nothing (`0`).
    const ALL: &[u8] = b"UDLR0123456789;";

    /// Every combination of the reductions, none first and all last.
    fn prunings() -> impl Iterator<Item = Pruning> {
        (0..8).map(|bits| Pruning {
            bodies_of_two: bits & 1 != 0,
            called_twice: bits & 2 != 0,
            ordered: bits & 4 != 0,
        })
    }

    const NONE: Pruning = Pruning {
        bodies_of_two: false,
        called_twice: false,
        ordered: false,
    };

    #[test]
    fn the_count_is_the_number_of_programs_run() {
        let board = level(include_str!("../../../corpora/bender4/unwinnable.txt")).board;
        let graph = PlainGraph::new(&board).unwrap();
        for pruning in prunings() {
            for n in 1..=6 {
                let (found, run) = of_length(&graph, n, &|| false, pruning);
                assert_eq!(found, None, "nothing wins the unwinnable map");
                assert_eq!(run, canonical_count(n, pruning), "length {n}, {pruning:?}");
            }
        }
        assert_eq!(canonical_count(3, NONE), 64 + 5 * 5);
        // Of the 5 * 5 with one function, `1;1` alone has its digit twice, and its body is
        // one character.
        assert_eq!(canonical_count(3, Pruning::ALL), 64);
        // Four characters: `1;X1`, `1;1X` and `X;11` (X a move), and `1;11`.
        assert_eq!(canonical_count(4, Pruning::ALL), 256 + 3 * 4 + 1);
        assert_eq!(
            (1..=10)
                .map(|n| canonical_count(n, NONE))
                .collect::<Vec<_>>(),
            [
                4, 16, 89, 506, 3115, 20484, 143566, 1068074, 8404817, 69727092
            ]
        );
    }

    #[test]
    fn each_reduction_leaves_the_shortest_length_as_it_was() {
        // Won at 3, 5, 6, 7 characters, or not within 7 (intro 5, map A's own corridor).
        let maps = [INTRO1, INTRO2, INTRO3, INTRO4, INTRO5, MAP_A];
        let length = |search: Search| match search.shortest {
            Shortest::Found { line, .. } => Ok(line.len()),
            Shortest::Loses { within } => Err(within),
        };
        for text in maps {
            let board = level(text).board;
            let graph = PlainGraph::new(&board).unwrap();
            let without = length(shortest_below_pruned(&graph, 8, u64::MAX, &|| false, NONE));
            for pruning in prunings().skip(1) {
                let with = shortest_below_pruned(&graph, 8, u64::MAX, &|| false, pruning);
                assert_eq!(length(with), without, "{pruning:?}");
            }
        }
    }

    #[test]
    fn a_proof_agrees_with_brute_force_over_every_character() {
        // Intro 4 is won by `RRD` and by nothing shorter; intro 1 by `1;DR1` and by nothing of
        // four characters. The brute force runs every line over every character that matters
        // (pruning nothing); the proof runs only the canonical ones.
        let intro4 = level(INTRO4).board;
        for n in 1..=2 {
            assert!(every_line(ALL, n).all(|line| !wins(&intro4, &line)));
        }
        assert!(every_line(ALL, 3).any(|line| wins(&intro4, &line)));
        let search = shortest_below(&PlainGraph::new(&intro4).unwrap(), 4, u64::MAX, &|| false);
        assert_eq!(
            search.shortest,
            Shortest::Found {
                line: "RRD".into(),
                steps: 3
            }
        );
        let intro1 = level(INTRO1).board;
        for n in 1..=4 {
            assert!(
                every_line(ALL, n).all(|line| !wins(&intro1, &line)),
                "length {n}"
            );
        }
        let search = shortest_below(&PlainGraph::new(&intro1).unwrap(), 5, u64::MAX, &|| false);
        assert_eq!(search.shortest, Shortest::Loses { within: 4 });
        assert_eq!(
            search.programs_run,
            (1..=4)
                .map(|n| canonical_count(n, Pruning::ALL))
                .sum::<u64>()
        );
    }

    #[test]
    fn the_proofs_resumed_runs_agree_with_the_referee_on_every_short_line() {
        // The proof resumes each program from the last one's run and skips the programs whose
        // change that run never read. Up to 6 characters, canonical programs have at most two
        // functions: the referee runs every line over `U` `D` `L` `R` `1` `2` `;` from the
        // start, and the shortest winning length is the same.
        for text in [INTRO1, INTRO2, INTRO3, INTRO4, INTRO5, MAP_A] {
            let board = level(text).board;
            let brute =
                (1..=6).find(|&n| every_line(b"UDLR12;", n).any(|line| wins(&board, &line)));
            let search = shortest_below(&PlainGraph::new(&board).unwrap(), 7, u64::MAX, &|| false);
            let proof = match search.shortest {
                Shortest::Found { line, .. } => Some(line.len()),
                Shortest::Loses { within } => {
                    assert_eq!(within, 6);
                    None
                }
            };
            assert_eq!(proof, brute);
        }
    }

    #[test]
    fn a_budget_stops_before_a_length_it_cannot_finish() {
        let board = level(INTRO1).board;
        let graph = PlainGraph::new(&board).unwrap();
        let count = |n| canonical_count(n, Pruning::ALL);
        let budget = (1..=3).map(count).sum::<u64>() + count(4) - 1;
        let search = shortest_below(&graph, 5, budget, &|| false);
        assert_eq!(search.shortest, Shortest::Loses { within: 3 });
        let stopped = shortest_below(&graph, 5, u64::MAX, &|| true);
        assert_eq!(stopped.shortest, Shortest::Loses { within: 0 });
    }
}
