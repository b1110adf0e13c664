//! The program search's judge: runs candidate programs by the rules ([`Board::step`] and the
//! interpreter's [`Machine`], the same as [`super::program::run`]) and reports whether they win
//! and how close to Fry they bring Bender, as fast as possible.
//!
//! - **Resuming.** A run is recorded: a checkpoint of the whole state every
//!   [`CHECKPOINT_EVERY`] steps, and for every (piece, position) the first step that read it.
//!   A candidate differs from its parent only from some positions on; the first step that read
//!   any of them is where the two runs can first differ, so the candidate resumes from the
//!   last checkpoint before it (and costs nothing when its change is never read).
//! - **Guides.** Closeness is measured in the distance table of the current ball layout when
//!   one was built for it (the layouts a route with pushes goes through), else in the table of
//!   the map's own layout.
//! - **Loops.** At every call the judge notes (Bender, fields, balls, the piece called) with
//!   the depth of the new frame. Meeting the same call again while that frame has not returned
//!   proves an endless loop: from the first meeting the run only read frames at that depth or
//!   deeper, so from the second it does the same again, one level deeper or at the same level,
//!   through the same states, forever. Neither a win nor a closer approach can follow, and
//!   the positions it would read are those it has read. Every endless run is caught this way:
//!   at the least depth it keeps returning to, its frame never returns, so it must keep
//!   calling from there (each piece is finite), and with finitely many states some call
//!   repeats. This also stops the recursions that grow the stack without moving Bender, which
//!   a check of the whole stack cannot, and it costs one hash per call, not one per frame.
//!   Only calls of pieces that recurse (or run past the step limit) are noted: a program has
//!   no conditions, so a call of any other piece ends after a fixed number of steps, and the
//!   frame an endless run never leaves must keep calling recursive pieces from there.
//! - **Memo.** A program has no conditions, so a call of a piece that does not recurse runs
//!   the same characters every time, and the same steps from the same state (Bender, fields,
//!   balls) end in the same state. The judge keeps, by a fingerprint of what the call runs
//!   (the piece's text and its callees', in order) and the state, where each such call
//!   ended and how close it came to Fry, when it won nothing, lost nothing and moved no ball
//!   for good. A later call that finds its entry jumps there, its steps counted, once this run
//!   has read every position the call reads (so the first step that read each is still
//!   known). Checkpoints then fall after the jump. The proof's judge ([`Judge::exact`]) keeps
//!   no memo: its verdicts rest on states, not on 64-bit fingerprints.
//!
//! A test holds the judge to the same verdicts as [`super::program::run`].

use super::program::{Action, Code, Frame, LAST_WINNING_STEP, Machine};
use super::routes::{NEAR_FAR, PlainGraph};
use super::rules::{Board, Effect, Pos};

/// The longest main routine a candidate may have.
pub const MAX_MAIN: usize = 256;
/// The longest function body a candidate may have.
pub const MAX_BODY: usize = 48;
/// Steps between two checkpoints.
const CHECKPOINT_EVERY: u32 = 16;
/// A position no step has read.
const NEVER: u16 = u16::MAX;
/// Positions of the read table: main's and nine bodies', each with its end.
const READ_SLOTS: usize = MAX_MAIN + 1 + 9 * (MAX_BODY + 1);
/// Calls remembered per run for loop detection (a power of two).
const SEEN_SLOTS: usize = 2048;
/// Entries of the memo of calls (a power of two): 256 KiB, within a core's cache.
const MEMO_SLOTS: usize = 1 << 14;
/// A piece whose calls are not memoised (it recurses, calls a missing piece, or runs past
/// the step limit).
const UNPLANNED: u32 = u32::MAX;

/// Where a piece's positions start in the read table.
#[inline]
fn slot(piece: u8) -> usize {
    if piece == 0 {
        0
    } else {
        MAX_MAIN + 1 + (piece as usize - 1) * (MAX_BODY + 1)
    }
}

/// The positions a piece may have (its characters and its end).
fn slots(piece: usize) -> usize {
    if piece == 0 {
        MAX_MAIN + 1
    } else {
        MAX_BODY + 1
    }
}

/// How a candidate did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The winning step, if it wins.
    pub won: Option<u32>,
    /// The smallest plain distance to Fry reached (0 when it wins; [`NEAR_FAR`]: none).
    pub closest: u8,
}

/// The state after some step.
#[derive(Clone, Copy, Debug)]
struct Checkpoint {
    step: u32,
    cell: u16,
    mask: u32,
    balls_hash: u64,
    closest: u8,
    /// Where its frames start in [`Record::frames`] (they end where the next one's start).
    frames: u32,
}

/// What a run leaves for resuming its children.
#[derive(Debug)]
pub struct Record {
    checkpoints: Vec<Checkpoint>,
    frames: Vec<Frame>,
    /// Ball words of every checkpoint, `words` per checkpoint.
    balls: Vec<u64>,
    /// First step that read each position (`NEVER`: none).
    read: Vec<u16>,
    pub trial: Trial,
}

impl Clone for Record {
    fn clone(&self) -> Self {
        let mut copy = Record::default();
        copy.clone_from(self);
        copy
    }

    /// Copies into the buffers already held (a child that reads nothing new is its parent).
    fn clone_from(&mut self, source: &Self) {
        self.checkpoints.clone_from(&source.checkpoints);
        self.frames.clone_from(&source.frames);
        self.balls.clone_from(&source.balls);
        self.read.clone_from(&source.read);
        self.trial = source.trial;
    }
}

impl Record {
    /// The first step that read any of the (piece, position) starts in `changed` or a
    /// position after them in their piece (`NEVER`: none).
    fn first_read(&self, changed: &[(usize, usize)]) -> u16 {
        changed
            .iter()
            .map(|&(piece, from)| {
                let base = slot(piece as u8);
                self.read[base + from..base + slots(piece)]
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(NEVER)
            })
            .min()
            .unwrap_or(NEVER)
    }

    /// Whether the run read any of the positions from the starts in `changed` on. When it
    /// did not, a program that differs only there makes the same run, step for step.
    pub fn reads(&self, changed: &[(usize, usize)]) -> bool {
        self.first_read(changed) != NEVER
    }
}

impl Default for Record {
    fn default() -> Self {
        Record {
            checkpoints: Vec::new(),
            frames: Vec::new(),
            balls: Vec::new(),
            read: vec![NEVER; READ_SLOTS],
            trial: Trial {
                won: None,
                closest: NEAR_FAR,
            },
        }
    }
}

/// The calls met in the current run: for each (Bender, fields, balls, piece called), the depth
/// of its frame and the step of its last meeting.
struct Seen {
    keys: Vec<u64>,
    met: Vec<(u32, u32)>,
    stamp: Vec<u32>,
    run: u32,
    len: usize,
    /// For each depth, the last step at which the frame there returned (0: not in this run).
    returned: Vec<u32>,
}

impl Seen {
    fn new() -> Self {
        Seen {
            keys: vec![0; SEEN_SLOTS],
            met: vec![(0, 0); SEEN_SLOTS],
            stamp: vec![0; SEEN_SLOTS],
            run: 0,
            len: 0,
            returned: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.run += 1;
        self.len = 0;
        self.returned.clear();
    }

    /// The frame at `depth` (counted from 1) returned at `step`.
    #[inline]
    fn note_return(&mut self, depth: usize, step: u32) {
        if depth >= self.returned.len() {
            self.returned.resize(depth + 1, 0);
        }
        self.returned[depth] = step;
    }

    /// Notes the call `key`, whose frame is at `depth`, at `step`; `true` when the same call
    /// was met before and the frame it made has not returned since: the run loops forever.
    #[inline]
    fn repeats(&mut self, key: u64, depth: usize, step: u32) -> bool {
        let mut i = (key >> 40) as usize & (SEEN_SLOTS - 1);
        while self.stamp[i] == self.run {
            if self.keys[i] == key {
                let (d, s) = self.met[i];
                if self.returned.get(d as usize).is_none_or(|&r| r < s) {
                    return true;
                }
                self.met[i] = (depth as u32, step);
                return false;
            }
            i = (i + 1) & (SEEN_SLOTS - 1);
        }
        if self.len < SEEN_SLOTS / 2 {
            self.stamp[i] = self.run;
            self.keys[i] = key;
            self.met[i] = (depth as u32, step);
            self.len += 1;
        }
        false
    }
}

/// What a call did, from the state it was made in: where it left Bender and the closest
/// approach to Fry during it.
#[derive(Clone, Copy, Default)]
struct Memo {
    key: u64,
    mask: u32,
    cell: u16,
    closest: u8,
}

/// A call being stepped through whose result goes to the memo when its return is reached.
#[derive(Clone, Copy)]
struct Open {
    key: u64,
    /// The step of its return.
    end: u32,
    piece: u8,
    balls_hash: u64,
    closest: u8,
}

/// Per piece of the program being run: a fingerprint of everything a call of it runs (its
/// text and its callees', in order) and the steps of one call ([`UNPLANNED`]: no memo).
#[derive(Default)]
struct Plan {
    fingerprint: [u64; 10],
    steps: [u32; 10],
    /// Pieces in an order in which every callee precedes its callers.
    order: Vec<u8>,
}

impl Plan {
    /// Plans every piece of `code`.
    fn make(&mut self, code: &impl Code) {
        self.order.clear();
        // 0: not yet, 1: being planned (a call back to it recurses), 2: done.
        let mut state = [0u8; 10];
        for piece in 1..code.pieces() {
            self.visit(code, piece, &mut state);
        }
    }

    fn visit(&mut self, code: &impl Code, piece: usize, state: &mut [u8; 10]) -> u32 {
        match state[piece] {
            1 => return UNPLANNED,
            2 => return self.steps[piece],
            _ => {}
        }
        state[piece] = 1;
        let body = code.piece(piece);
        let mut fingerprint = mix(0x6a09_e667_f3bc_c909, body.len() as u64);
        // The call and the return.
        let mut steps = 2u32;
        for &c in body {
            let callee = usize::from(c.wrapping_sub(b'0'));
            let cost = if (1..=9).contains(&callee) {
                if callee >= code.pieces() {
                    UNPLANNED
                } else {
                    let cost = self.visit(code, callee, state);
                    fingerprint = mix(fingerprint, self.fingerprint[callee]);
                    cost
                }
            } else {
                fingerprint = mix(fingerprint, u64::from(c));
                1
            };
            steps = steps.saturating_add(cost);
        }
        if steps > LAST_WINNING_STEP {
            steps = UNPLANNED;
        }
        self.fingerprint[piece] = fingerprint;
        self.steps[piece] = steps;
        state[piece] = 2;
        self.order.push(piece as u8);
        steps
    }
}

#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// Runs candidates with reused buffers.
pub struct Judge<'a> {
    board: &'a Board,
    /// Distance tables by ball layout; the first is the map's own layout.
    guides: &'a [PlainGraph<'a>],
    /// The balls' hash of each guide's layout.
    guide_hashes: Vec<u64>,
    machine: Machine,
    pos: Pos,
    words: usize,
    /// A random key per cell for the balls' hash.
    zobrist: Vec<u64>,
    seen: Seen,
    /// Calls by (what they run, the state they start in): none for [`Judge::exact`].
    memo: Vec<Memo>,
    plan: Plan,
    open: Vec<Open>,
    /// Runs started so far.
    pub runs: u64,
}

impl<'a> Judge<'a> {
    /// A judge guided by `guides` (at least one: the map's own layout first).
    pub fn new(guides: &'a [PlainGraph<'a>]) -> Self {
        let board = guides[0].board;
        let pos = board.start_pos();
        let mut rng = super::Rng::new(0x5eed);
        let zobrist: Vec<u64> = (0..board.cells()).map(|_| rng.next_u64()).collect();
        let guide_hashes = guides
            .iter()
            .map(|g| g.balls().iter().fold(0, |h, c| h ^ zobrist[c as usize]))
            .collect();
        Judge {
            board,
            guides,
            guide_hashes,
            machine: Machine::default(),
            words: pos.balls.words().len(),
            pos,
            zobrist,
            seen: Seen::new(),
            memo: vec![Memo::default(); MEMO_SLOTS],
            plan: Plan::default(),
            open: Vec::new(),
            runs: 0,
        }
    }

    /// This judge without the memo of calls: every verdict then rests on states compared, not
    /// on fingerprints of programs (what a proof wants).
    pub fn exact(mut self) -> Self {
        self.memo = Vec::new();
        self
    }

    /// The pieces whose calls may come from the memo now: each of their positions (and their
    /// callees') has been read in this run, so a call of one reads nothing for the first time.
    fn traced(&self, read: &[u16], code: &impl Code) -> u16 {
        let mut traced = 0u16;
        for &piece in &self.plan.order {
            let at = slot(piece);
            let body = code.piece(piece as usize);
            let own = read[at..=at + body.len()].iter().all(|&r| r != NEVER);
            let callees = body.iter().all(|&c| {
                let callee = c.wrapping_sub(b'0');
                !(1..=9).contains(&callee) || traced & 1 << callee != 0
            });
            if own && callees && self.plan.steps[piece as usize] != UNPLANNED {
                traced |= 1 << piece;
            }
        }
        traced
    }

    /// Runs `code` from the start, recording into `rec`.
    pub fn run(&mut self, code: &impl Code, rec: &mut Record) -> Trial {
        self.runs += 1;
        rec.checkpoints.clear();
        rec.frames.clear();
        rec.balls.clear();
        rec.read.fill(NEVER);
        self.board.reset(&mut self.pos);
        self.machine.reset(code);
        let closest = self.guides[0].near(self.board.start, self.board.initial_mask());
        if code.pieces() == 0 || self.board.is_deadly(&self.pos) {
            rec.trial = Trial { won: None, closest };
            return rec.trial;
        }
        let balls_hash = self
            .board
            .initial_balls()
            .iter()
            .fold(0, |h, c| h ^ self.zobrist[c as usize]);
        rec.trial = self.go(code, rec, 0, balls_hash, closest);
        rec.trial
    }

    /// Runs `code`, a child of the program recorded in `parent` that differs from it only at
    /// the (piece, position) starts in `changed`, recording into `rec`.
    pub fn run_child(
        &mut self,
        code: &impl Code,
        parent: &Record,
        changed: &[(usize, usize)],
        rec: &mut Record,
    ) -> Trial {
        let diverge = parent.first_read(changed);
        if diverge == NEVER {
            rec.clone_from(parent);
            return rec.trial;
        }
        // The last checkpoint strictly before the first step that can differ.
        let Some(at) = parent
            .checkpoints
            .iter()
            .rposition(|c| c.step < u32::from(diverge))
        else {
            return self.run(code, rec);
        };
        self.runs += 1;
        let c = parent.checkpoints[at];
        let frames_end = parent
            .checkpoints
            .get(at + 1)
            .map_or(parent.frames.len(), |n| n.frames as usize);
        self.machine
            .restore(&parent.frames[c.frames as usize..frames_end]);
        let words = self.words;
        self.pos.cell = c.cell;
        self.pos.mask = c.mask;
        self.pos
            .balls
            .words_mut()
            .copy_from_slice(&parent.balls[at * words..(at + 1) * words]);
        // Keep what precedes the checkpoint; `go` records the checkpoint again.
        rec.checkpoints.clear();
        rec.checkpoints.extend_from_slice(&parent.checkpoints[..at]);
        rec.frames.clear();
        rec.frames
            .extend_from_slice(&parent.frames[..c.frames as usize]);
        rec.balls.clear();
        rec.balls.extend_from_slice(&parent.balls[..at * words]);
        let last = c.step as u16;
        for (r, &p) in rec.read.iter_mut().zip(&parent.read) {
            *r = if p <= last { p } else { NEVER };
        }
        rec.trial = self.go(code, rec, c.step, c.balls_hash, c.closest);
        rec.trial
    }

    /// The distance table for the ball layout of hash `balls_hash`.
    #[inline]
    fn guide(&self, balls_hash: u64) -> &'a PlainGraph<'a> {
        let i = self
            .guide_hashes
            .iter()
            .position(|&h| h == balls_hash)
            .unwrap_or(0);
        &self.guides[i]
    }

    /// The stack's depth after a return at `step` from `depth`; a frame that went is noted
    /// for the loop check.
    #[inline]
    fn returned(&mut self, depth: usize, step: u32) -> usize {
        let now = self.machine.frames().len();
        if now < depth {
            self.seen.note_return(depth, step);
        }
        now
    }

    /// Bender came within `near` of Fry inside the innermost open call.
    #[inline]
    fn approach(&mut self, near: u8) {
        if let Some(open) = self.open.last_mut() {
            open.closest = open.closest.min(near);
        }
    }

    /// Continues the run whose state after `step` is in the machine and position.
    fn go(
        &mut self,
        code: &impl Code,
        rec: &mut Record,
        mut step: u32,
        mut balls_hash: u64,
        mut closest: u8,
    ) -> Trial {
        let board = self.board;
        let mut guide = self.guide(balls_hash);
        let lost = |closest| Trial { won: None, closest };
        self.seen.clear();
        let memo = !self.memo.is_empty();
        self.open.clear();
        self.plan.make(code);
        let mut traced = if memo {
            self.traced(&rec.read, code)
        } else {
            0
        };
        let mut depth = self.machine.frames().len();
        let mut next_checkpoint = step;
        loop {
            if step >= LAST_WINNING_STEP {
                break lost(closest);
            }
            // A memoised call may jump over a multiple of the period: the checkpoint is then
            // taken after it.
            if step >= next_checkpoint {
                next_checkpoint = (step / CHECKPOINT_EVERY + 1) * CHECKPOINT_EVERY;
                rec.checkpoints.push(Checkpoint {
                    step,
                    cell: self.pos.cell,
                    mask: self.pos.mask,
                    balls_hash,
                    closest,
                    frames: rec.frames.len() as u32,
                });
                rec.frames.extend_from_slice(self.machine.frames());
                rec.balls.extend_from_slice(self.pos.balls.words());
            }
            step += 1;
            let read = &mut rec.read;
            let mut note = |piece: u8, at: u16| {
                let r = &mut read[slot(piece) + at as usize];
                if *r == NEVER {
                    *r = step as u16;
                }
            };
            let dir = match self.machine.next_traced(code, &mut note) {
                Action::Move(dir) => dir,
                Action::Nothing => continue,
                Action::Return => {
                    depth = self.returned(depth, step);
                    if self.open.last().is_some_and(|open| open.end == step) {
                        let done = self.open.pop().expect("an open call");
                        // A call that moved balls leaves a layout the memo does not hold.
                        if done.balls_hash == balls_hash {
                            self.memo[done.key as usize & (MEMO_SLOTS - 1)] = Memo {
                                key: done.key,
                                mask: self.pos.mask,
                                cell: self.pos.cell,
                                closest: done.closest,
                            };
                        }
                        traced |= 1 << done.piece;
                        self.approach(done.closest);
                    }
                    continue;
                }
                Action::Call => {
                    depth = self.machine.frames().len();
                    let piece = self.machine.frames()[depth - 1].piece;
                    let state = u64::from(self.pos.cell) | u64::from(self.pos.mask) << 16;
                    let steps = self.plan.steps[usize::from(piece)];
                    if steps == UNPLANNED {
                        let key = mix(balls_hash ^ u64::from(piece) << 56, state);
                        if self.seen.repeats(key, depth, step) {
                            break lost(closest);
                        }
                        continue;
                    }
                    if !memo || step + steps - 1 > LAST_WINNING_STEP {
                        continue;
                    }
                    let key = mix(
                        mix(self.plan.fingerprint[usize::from(piece)], balls_hash),
                        state,
                    );
                    let known = self.memo[key as usize & (MEMO_SLOTS - 1)];
                    if traced & 1 << piece != 0 && known.key == key {
                        // The call's steps, as they went before: its return included.
                        step += steps - 1;
                        self.pos.cell = known.cell;
                        self.pos.mask = known.mask;
                        closest = closest.min(known.closest);
                        self.approach(known.closest);
                        self.machine.skip_call(code);
                        depth = self.returned(depth, step);
                        continue;
                    }
                    self.open.push(Open {
                        key,
                        end: step + steps - 1,
                        piece,
                        balls_hash,
                        closest: NEAR_FAR,
                    });
                    continue;
                }
                Action::Missing(_) | Action::End => break lost(closest),
            };
            let effect = board.step(&mut self.pos, dir);
            match effect {
                Effect::Blocked => continue,
                Effect::Walked => {}
                Effect::Pushed { to } => {
                    balls_hash ^= self.zobrist[self.pos.cell as usize] ^ self.zobrist[to as usize];
                    guide = self.guide(balls_hash);
                }
            }
            if board.is_deadly(&self.pos) || board.squashes_fry(effect) {
                break lost(closest);
            }
            if self.pos.cell == board.target {
                // T2: the next step still runs, and a missing call there loses.
                let mut note = |piece: u8, at: u16| {
                    let r = &mut rec.read[slot(piece) + at as usize];
                    if *r == NEVER {
                        *r = step as u16 + 1;
                    }
                };
                break match self.machine.next_traced(code, &mut note) {
                    Action::Missing(_) => lost(closest),
                    _ => Trial {
                        won: Some(step),
                        closest: 0,
                    },
                };
            }
            let near = guide.near(self.pos.cell, self.pos.mask);
            closest = closest.min(near);
            self.approach(near);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bender4::anneal::{Genome, changes, mutate};
    use crate::games::bender4::program::{Outcome, Program, run};
    use crate::games::bender4::testing::{INTRO1, INTRO2, INTRO3, INTRO5, MAP_A, level};
    use crate::games::bender4::{Level, Rng};

    /// The maps of the repository's own corpus, and the spec's intro maps and map A.
    fn judge_maps() -> Vec<Level> {
        [
            include_str!("../../../corpora/bender4/corridor.txt"),
            include_str!("../../../corpora/bender4/field.txt"),
            include_str!("../../../corpora/bender4/push-onto-switch.txt"),
            include_str!("../../../corpora/bender4/squash.txt"),
            include_str!("../../../corpora/bender4/own-switch.txt"),
            INTRO1,
            INTRO2,
            INTRO3,
            INTRO5,
            MAP_A,
        ]
        .iter()
        .map(|text| level(text))
        .collect()
    }

    /// Recursions that only deepen the stack loop forever; the judge stops them at their first
    /// repeated call, long before the step limit (a check of the whole stack never repeats).
    #[test]
    fn a_recursion_that_deepens_without_end_is_stopped_at_once() {
        let level = level(INTRO1);
        let graph = PlainGraph::new(&level.board).unwrap();
        let mut judge = Judge::new(std::slice::from_ref(&graph));
        let mut rec = Record::default();
        // `1U` calls itself before it moves; `U1D` and `R1L` move until a wall stops them,
        // and every pass leaves a move pending.
        for line in ["1;1U", "1;U1D", "1;R1L"] {
            let pieces: Vec<Vec<u8>> = line.split(';').map(|p| p.as_bytes().to_vec()).collect();
            let trial = judge.run(&Genome::new(&pieces), &mut rec);
            assert_eq!(trial.won, None, "{line}");
            let last = rec.checkpoints.last().unwrap().step;
            assert!(last < 64, "{line} ran to step {last}");
        }
    }

    #[test]
    fn the_judge_agrees_with_the_referee_on_random_programs_and_their_children() {
        let mut rng = Rng::new(11);
        for level in judge_maps() {
            let board = &level.board;
            let graph = PlainGraph::new(board).unwrap();
            let mut judge = Judge::new(std::slice::from_ref(&graph));
            let (mut parent_rec, mut child_rec, mut fresh_rec) =
                (Record::default(), Record::default(), Record::default());
            let mut changed = Vec::new();
            let mut pos = board.start_pos();
            for _ in 0..20 {
                let pieces: Vec<Vec<u8>> = (0..1 + rng.below(4))
                    .map(|_| {
                        (0..rng.below(9))
                            .map(|_| b"UDRLUDRL1232"[rng.below(12)])
                            .collect()
                    })
                    .collect();
                let mut parent = Genome::new(&pieces);
                judge.run(&parent, &mut parent_rec);
                for _ in 0..150 {
                    let mut child = parent.clone();
                    if !mutate(&mut child, &mut rng) {
                        continue;
                    }
                    changes(&parent, &child, &mut changed);
                    let resumed = judge.run_child(&child, &parent_rec, &changed, &mut child_rec);
                    let fresh = judge.run(&child, &mut fresh_rec);
                    assert_eq!(resumed, fresh, "program {}", child.line());
                    let program = Program::parse(&child.line()).unwrap();
                    let referee = run(board, &program, &mut Machine::default(), &mut pos);
                    let won = match referee {
                        Outcome::Won { steps } => Some(steps),
                        Outcome::Lost { .. } => None,
                    };
                    assert_eq!(fresh.won, won, "program {}", child.line());
                    if rng.chance(0.5) {
                        parent = child;
                        std::mem::swap(&mut parent_rec, &mut child_rec);
                    }
                }
            }
        }
    }
}
