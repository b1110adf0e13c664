//! The program search: simulated annealing directly over program texts, every candidate judged
//! by the referee's own [`run`] (so wall-sliding, pushes and loops that merely happen to work
//! are all found), guided towards Fry by the exact no-push distance table.
//!
//! A candidate's energy is its length plus `lambda` times the smallest distance to Fry (in
//! plain moves, from [`PlainGraph`]) that Bender reaches while it runs; a winning program's
//! energy is its length. Every winning candidate met is remembered, accepted or not. The search
//! is deterministic: its budget is a number of candidates, and each chain has a fixed seed.

use super::Rng;
use super::compress::MAX_FUNCTIONS;
use super::judge::{Judge, MAX_BODY, MAX_MAIN, Record, Trial};
use super::program::Code;
use super::rules::DIRECTIONS;
use crate::engine::SearchControl;

/// A candidate program: main and nine function slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genome {
    pieces: Vec<Vec<u8>>,
    /// The highest function with a non-empty body (trailing empty pieces do not exist, I1).
    functions: usize,
}

impl Genome {
    /// A genome from program pieces (main first).
    pub fn new(pieces: &[Vec<u8>]) -> Genome {
        let mut g = Genome {
            pieces: vec![Vec::new(); MAX_FUNCTIONS + 1],
            functions: 0,
        };
        for (slot, piece) in g.pieces.iter_mut().zip(pieces) {
            slot.clone_from(piece);
        }
        g.fix();
        g
    }

    fn fix(&mut self) {
        self.functions = (1..=MAX_FUNCTIONS)
            .rev()
            .find(|&i| !self.pieces[i].is_empty())
            .unwrap_or(0);
    }

    /// The program's length in characters (its score).
    pub fn len(&self) -> usize {
        self.pieces[0].len()
            + self.pieces[1..=self.functions]
                .iter()
                .map(|p| p.len() + 1)
                .sum::<usize>()
    }

    /// The functions main can reach through calls, as bits (bit 0: main).
    fn reached(&self) -> u16 {
        let mut reached = 1u16;
        let mut todo = 1u16;
        while todo != 0 {
            let p = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            for &c in &self.pieces[p] {
                let k = c.wrapping_sub(b'0') as usize;
                if (1..=self.functions).contains(&k) && reached & 1 << k == 0 {
                    reached |= 1 << k;
                    todo |= 1 << k;
                }
            }
        }
        reached
    }

    /// The length once the functions main never reaches are dropped ([`Genome::tidy`]).
    pub fn used_len(&self) -> usize {
        let reached = self.reached();
        self.pieces[0].len()
            + (1..=self.functions)
                .filter(|&k| reached & 1 << k != 0)
                .map(|k| self.pieces[k].len() + 1)
                .sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The program line.
    pub fn line(&self) -> String {
        super::compress::line(&self.pieces[..=self.functions])
    }

    /// Empties the functions main never reaches: they cost characters for nothing, and an
    /// empty slot is free for a new function.
    fn clear_unreached(&mut self) {
        let reached = self.reached();
        if reached.count_ones() as usize == self.functions + 1 {
            return;
        }
        for k in 1..=self.functions {
            if reached & 1 << k == 0 {
                self.pieces[k].clear();
            }
        }
        self.fix();
    }

    /// Drops the functions main never reaches, renumbering the others; the program executes
    /// the same steps.
    pub fn tidy(&mut self) {
        let reached = self.reached();
        for k in (1..=self.functions).rev() {
            if reached & 1 << k != 0 {
                continue;
            }
            self.pieces.remove(k);
            self.pieces.push(Vec::new());
            for piece in &mut self.pieces {
                for c in piece.iter_mut() {
                    if (b'1'..=b'9').contains(c) && usize::from(*c - b'0') > k {
                        *c -= 1;
                    }
                }
            }
        }
        self.fix();
    }
}

impl Code for Genome {
    #[inline]
    fn pieces(&self) -> usize {
        self.functions + 1
    }
    #[inline]
    fn piece(&self, index: usize) -> &[u8] {
        &self.pieces[index]
    }
}

/// The annealing schedule of one chain.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub iterations: u64,
    pub lambda: f64,
    pub t_start: f64,
    pub t_end: f64,
}

/// The best winning program found: (length, steps, genome).
pub type Best = Option<(usize, u32, Genome)>;

/// Keeps `g` (winning at `steps`) if it beats `best`.
pub fn offer(best: &mut Best, g: &Genome, steps: u32) {
    let len = g.used_len();
    if best
        .as_ref()
        .is_none_or(|(l, s, _)| (len, steps) < (*l, *s))
    {
        *best = Some((len, steps, g.clone()));
    }
}

/// The (piece, position) from which `child` differs from `parent`, for every piece that
/// differs; a function that came into or went out of existence differs from position 0.
pub(super) fn changes(parent: &Genome, child: &Genome, out: &mut Vec<(usize, usize)>) {
    out.clear();
    for (i, (a, b)) in parent.pieces.iter().zip(&child.pieces).enumerate() {
        let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        if same < a.len() || same < b.len() {
            out.push((i, same));
        }
    }
    let (lo, hi) = if parent.functions < child.functions {
        (parent.functions, child.functions)
    } else {
        (child.functions, parent.functions)
    };
    out.extend((lo + 1..=hi).map(|k| (k, 0)));
}

/// One annealing chain from `seed`; returns the best winning program it met.
pub fn anneal(
    judge: &mut Judge,
    seed: &Genome,
    schedule: Schedule,
    rng: &mut Rng,
    ctl: &SearchControl,
) -> Best {
    let mut best: Best = None;
    let energy =
        |g: &Genome, t: Trial| -> f64 { g.len() as f64 + schedule.lambda * f64::from(t.closest) };
    let mut current = seed.clone();
    let mut current_rec = Record::default();
    let trial = judge.run(&current, &mut current_rec);
    if let Some(steps) = trial.won {
        offer(&mut best, &current, steps);
    }
    let mut current_energy = energy(&current, trial);
    let mut candidate = current.clone();
    let mut candidate_rec = Record::default();
    let mut changed = Vec::new();
    let ratio = schedule.t_end / schedule.t_start;
    for i in 0..schedule.iterations {
        if i % 4096 == 0 && (ctl.stop.is_stopped() || ctl.check().is_err()) {
            break;
        }
        let t = schedule.t_start * ratio.powf(i as f64 / schedule.iterations as f64);
        // Metropolis: the candidate is accepted when its energy is at most `threshold`.
        let threshold = current_energy - t * (1.0 - rng.unit()).ln();
        candidate.clone_from(&current);
        if !mutate(&mut candidate, rng) {
            continue;
        }
        // Its energy is at least its length: when that is already too much and it could not
        // be a new best either, the run would change nothing.
        let best_len = best.as_ref().map_or(usize::MAX, |b| b.0);
        if candidate.len() as f64 > threshold && candidate.used_len() >= best_len {
            continue;
        }
        changes(&current, &candidate, &mut changed);
        let trial = judge.run_child(&candidate, &current_rec, &changed, &mut candidate_rec);
        if let Some(steps) = trial.won {
            offer(&mut best, &candidate, steps);
        }
        let e = energy(&candidate, trial);
        if e <= threshold {
            std::mem::swap(&mut current, &mut candidate);
            std::mem::swap(&mut current_rec, &mut candidate_rec);
            current_energy = e;
        }
    }
    best
}

/// The share of calls among random tokens when functions exist (tuned on the validators:
/// calls make the edits structural, and 0.7 beat 0.3, 0.5 and 0.9).
const CALL_SHARE: f64 = 0.7;

/// A random token: a move, or a call of an existing function.
fn random_token(functions: usize, rng: &mut Rng) -> u8 {
    if functions > 0 && rng.chance(CALL_SHARE) {
        b'1' + rng.below(functions) as u8
    } else {
        DIRECTIONS[rng.below(4)]
    }
}

/// A piece chosen with weight (length + 2), so short and empty pieces are still edited.
fn random_piece(g: &Genome, rng: &mut Rng) -> usize {
    let total: usize = (0..=g.functions).map(|i| g.pieces[i].len() + 2).sum();
    let mut r = rng.below(total);
    for i in 0..=g.functions {
        let w = g.pieces[i].len() + 2;
        if r < w {
            return i;
        }
        r -= w;
    }
    0
}

fn cap(piece: usize) -> usize {
    if piece == 0 { MAX_MAIN } else { MAX_BODY }
}

/// Applies one random edit; `false` when the edit was impossible (nothing changed).
pub(super) fn mutate(g: &mut Genome, rng: &mut Rng) -> bool {
    let p = random_piece(g, rng);
    let len = g.pieces[p].len();
    let changed = match rng.below(100) {
        // Replace one token.
        0..20 => {
            if len == 0 {
                return false;
            }
            let t = random_token(g.functions, rng);
            let i = rng.below(len);
            let old = std::mem::replace(&mut g.pieces[p][i], t);
            old != t
        }
        // Insert one token.
        20..35 => {
            if len >= cap(p) {
                return false;
            }
            let t = random_token(g.functions, rng);
            g.pieces[p].insert(rng.below(len + 1), t);
            true
        }
        // Delete one token.
        35..50 => {
            if len == 0 {
                return false;
            }
            g.pieces[p].remove(rng.below(len));
            true
        }
        // Replace a block of 1–4 tokens by 0–4 random ones.
        50..75 => {
            if len == 0 {
                return false;
            }
            let at = rng.below(len);
            let cut = (1 + rng.below(4)).min(len - at);
            let put = rng.below(5);
            if len - cut + put > cap(p) {
                return false;
            }
            let functions = g.functions;
            let tokens = (0..put).map(|_| random_token(functions, rng));
            g.pieces[p].splice(at..at + cut, tokens);
            true
        }
        // Swap two neighbouring tokens.
        75..82 => {
            if len < 2 {
                return false;
            }
            let i = rng.below(len - 1);
            g.pieces[p].swap(i, i + 1);
            g.pieces[p][i] != g.pieces[p][i + 1]
        }
        // Move a substring into a new function.
        82..90 => {
            let reached = g.reached();
            let free = (1..=MAX_FUNCTIONS)
                .find(|&k| k != p && g.pieces[k].is_empty() && reached & 1 << k == 0);
            let (Some(k), true) = (free, len >= 2) else {
                return false;
            };
            let body_len = 2 + rng.below(len.min(8) - 1);
            let at = rng.below(len - body_len + 1);
            let mut body = std::mem::take(&mut g.pieces[k]);
            body.extend(g.pieces[p].drain(at..at + body_len));
            g.pieces[p].insert(at, b'0' + k as u8);
            g.pieces[k] = body;
            true
        }
        // Inline one call.
        90..95 => {
            let calls = g.pieces[p].iter().filter(|c| c.is_ascii_digit()).count();
            if calls == 0 {
                return false;
            }
            let nth = rng.below(calls);
            let (i, &digit) = g.pieces[p]
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_ascii_digit())
                .nth(nth)
                .expect("counted");
            let k = usize::from(digit - b'0');
            let body_len = g.pieces[k].len();
            if len - 1 + body_len > cap(p) {
                return false;
            }
            let mut body = [0u8; MAX_MAIN];
            body[..body_len].copy_from_slice(&g.pieces[k]);
            g.pieces[p].splice(i..i + 1, body[..body_len].iter().copied());
            true
        }
        // Copy a token from anywhere.
        _ => {
            let q = random_piece(g, rng);
            if g.pieces[q].is_empty() || len >= cap(p) {
                return false;
            }
            let t = g.pieces[q][rng.below(g.pieces[q].len())];
            g.pieces[p].insert(rng.below(len + 1), t);
            true
        }
    };
    g.fix();
    g.clear_unreached();
    changed
}

/// Shortens a winning program greedily: drops one or two tokens, or replaces two or three
/// neighbouring tokens by one, as long as it still wins; repeats until nothing helps.
pub fn polish(judge: &mut Judge, g: &mut Genome) {
    let mut record = Record::default();
    if judge.run(g, &mut record).won.is_none() {
        return;
    }
    let mut child_record = Record::default();
    let mut changed = Vec::new();
    let mut candidate = g.clone();
    'improved: loop {
        let len = g.used_len();
        for p in 0..=g.functions {
            for i in 0..g.pieces[p].len() {
                for cut in 1..=3 {
                    if i + cut > g.pieces[p].len() {
                        break;
                    }
                    let replacements: Vec<Option<u8>> = if cut == 1 {
                        vec![None]
                    } else {
                        std::iter::once(None)
                            .chain(DIRECTIONS.iter().map(|&d| Some(d)))
                            .chain((1..=g.functions).map(|k| Some(b'0' + k as u8)))
                            .collect()
                    };
                    for put in replacements {
                        candidate.clone_from(g);
                        candidate.pieces[p].splice(i..i + cut, put);
                        candidate.fix();
                        if candidate.used_len() >= len {
                            continue;
                        }
                        changes(g, &candidate, &mut changed);
                        let trial =
                            judge.run_child(&candidate, &record, &changed, &mut child_record);
                        if trial.won.is_some() {
                            std::mem::swap(g, &mut candidate);
                            std::mem::swap(&mut record, &mut child_record);
                            continue 'improved;
                        }
                    }
                }
            }
        }
        break;
    }
}
