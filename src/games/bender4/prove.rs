//! The shortest program, proven: every program shorter than the best one found, in a canonical
//! form, run by the referee ([`super::program::run`]). The first length at which one wins holds
//! the optimum; when none below the best one's length wins, the best one is optimal.
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
//! of the k functions. So the step after the arrival cannot call a missing function either, and
//! the program wins. Canonical programs of n characters are therefore: k separators (k at most
//! 9), k + 1 non-empty pieces, each character one of `U` `D` `L` `R` and the digits 1 to k. If
//! none of at most n characters wins, no program of at most n characters wins at all.
//! [`canonical_count`] gives their number per length, so that a budget of programs run decides
//! ahead of a length whether it can be finished: the bound reached is the same on every run.

use rayon::prelude::*;

use super::program::{Code, Machine, Outcome, run};
use super::rules::Board;

const MOVES: &[u8] = b"UDLR";

/// The most functions a program can call (digits 1 to 9).
const MAX_FUNCTIONS: usize = 9;

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
    board: &Board,
    below: usize,
    budget: u64,
    stop: &(impl Fn() -> bool + Sync),
) -> Search {
    let mut programs_run = 0;
    let mut within = 0;
    for n in 1..below {
        let count = canonical_count(n);
        if programs_run + count > budget || stop() {
            break;
        }
        let (found, run) = of_length(board, n, stop);
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

/// The number of canonical programs of `n` characters: for each number of functions k, the
/// ways to cut the n − k characters into k + 1 non-empty pieces, times 4 + k choices each.
pub fn canonical_count(n: usize) -> u64 {
    (0..=MAX_FUNCTIONS.min(n.saturating_sub(1) / 2))
        .map(|k| {
            binomial(n - k - 1, k).saturating_mul((4 + k as u64).saturating_pow((n - k) as u32))
        })
        .fold(0, u64::saturating_add)
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// Runs every canonical program of `n` characters: the first winner in enumeration order, and
/// how many were run. Parts (one per piece lengths and first character) run in parallel.
fn of_length(
    board: &Board,
    n: usize,
    stop: &(impl Fn() -> bool + Sync),
) -> (Option<(String, u32)>, u64) {
    let mut parts = Vec::new();
    for k in 0..=MAX_FUNCTIONS.min((n - 1) / 2) {
        for lengths in compositions(n - k, k + 1) {
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
            part(board, *k, lengths, *first)
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
fn part(board: &Board, k: usize, lengths: &[usize], first: usize) -> (Option<(String, u32)>, u64) {
    let alphabet: Vec<u8> = MOVES.iter().copied().chain(b'1'..b'1' + k as u8).collect();
    let mut bounds = Vec::with_capacity(lengths.len());
    let mut slots = Vec::new();
    let mut start = 0;
    for &len in lengths {
        bounds.push((start, start + len));
        slots.extend(start..start + len);
        start += len + 1;
    }
    let mut text = vec![b';'; start - 1];
    // digits[i]: the alphabet index at slots[i]; slots[0] is fixed to `first`.
    let mut digits = vec![0; slots.len()];
    digits[0] = first;
    for (&slot, &d) in slots.iter().zip(&digits) {
        text[slot] = alphabet[d];
    }
    let mut program = Pieces { text, bounds };
    let (mut machine, mut pos) = (Machine::default(), board.start_pos());
    let mut run_count = 0;
    loop {
        run_count += 1;
        if let Outcome::Won { steps } = run(board, &program, &mut machine, &mut pos) {
            let line = String::from_utf8(program.text.clone()).expect("ASCII");
            return (Some((line, steps)), run_count);
        }
        // The next program: the last character advances first; slot 0 stays.
        let mut i = slots.len() - 1;
        loop {
            if i == 0 {
                return (None, run_count);
            }
            digits[i] += 1;
            if digits[i] < alphabet.len() {
                program.text[slots[i]] = alphabet[digits[i]];
                break;
            }
            digits[i] = 0;
            program.text[slots[i]] = alphabet[0];
            i -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bender4::notation::wins;
    use crate::games::bender4::testing::{INTRO1, INTRO4, level};

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

    #[test]
    fn the_count_is_the_number_of_programs_run() {
        let board = level(INTRO1).board;
        for n in 1..=4 {
            let (found, run) = of_length(&board, n, &|| false);
            assert_eq!(found, None, "no program of {n} characters wins intro 1");
            assert_eq!(run, canonical_count(n), "length {n}");
        }
        assert_eq!(canonical_count(3), 64 + 5 * 5);
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
        let search = shortest_below(&intro4, 4, u64::MAX, &|| false);
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
        let search = shortest_below(&intro1, 5, u64::MAX, &|| false);
        assert_eq!(search.shortest, Shortest::Loses { within: 4 });
        assert_eq!(
            search.programs_run,
            (1..=4).map(canonical_count).sum::<u64>()
        );
    }

    #[test]
    fn a_budget_stops_before_a_length_it_cannot_finish() {
        let board = level(INTRO1).board;
        let budget = (1..=3).map(canonical_count).sum::<u64>() + canonical_count(4) - 1;
        let search = shortest_below(&board, 5, budget, &|| false);
        assert_eq!(search.shortest, Shortest::Loses { within: 3 });
        let stopped = shortest_below(&board, 5, u64::MAX, &|| true);
        assert_eq!(stopped.shortest, Shortest::Loses { within: 0 });
    }
}
