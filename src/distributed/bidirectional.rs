//! Bidirectional breadth-first search on the cluster, for reversible spaces with one goal state:
//! the local engine's two searches from the start and from the goal, each layer spread over
//! every worker.
//!
//! A worker keeps one store per side. Both sides share the owner hash, so a state's two
//! possible homes are on the same worker, and the test that ends the search (a new state of the
//! growing side that the other side holds) is a local lookup, never a message. As in the local
//! engine, each round grows the side with the smaller frontier (the cluster's totals, which
//! every worker knows from the reports) by one whole layer, and the path is the start's side's
//! path to the meeting state followed by the goal's side's path back from it.

use super::cluster::Fault;
use super::store::{Link, Offered, Store};
use super::{Local, Offer, Portable, Report, Round, SearchRounds, path_to};
use crate::engine::{SearchControl, SearchOutcome, Stored};

/// States expanded between two looks at the dataflow (to store what arrived) and at the limits.
const CHUNK: usize = 512;

/// The side of an offer (carried in its third field).
const FORWARD: u32 = 0;
const BACKWARD: u32 = 1;

/// What a worker holds: each side's states and its share of each side's frontier.
struct Owner<S> {
    me: usize,
    stores: [Store<S>; 2],
    /// The newest layer of each side: the frontier, and while a side grows, its next layer.
    layers: [Vec<u32>; 2],
    stored: u64,
    /// A state both sides hold: its forward and backward links.
    meeting: Option<[Link; 2]>,
    full: bool,
}

impl<S: Portable> Owner<S> {
    /// Stores the states sent to this worker that are new to their side, and looks each up in
    /// the other side. (Only the first round, which stores the start and the goal, mixes sides.)
    fn receive(&mut self, batch: &[Offer<S>]) {
        let side = batch[0].2;
        if batch.iter().all(|&(_, _, s)| s == side) {
            self.receive_side(batch, side as usize);
        } else {
            for side in [FORWARD, BACKWARD] {
                let part: Vec<Offer<S>> = batch.iter().filter(|o| o.2 == side).copied().collect();
                self.receive_side(&part, side as usize);
            }
        }
    }

    fn receive_side(&mut self, batch: &[Offer<S>], side: usize) {
        let Owner {
            me,
            stores: [forward, backward],
            layers,
            stored,
            meeting,
            full,
        } = self;
        let (store, other) = if side == 0 {
            (forward, &*backward)
        } else {
            (backward, &*forward)
        };
        store.offer_all(batch, 0, |i, offered| match offered {
            Offered::New(index) => {
                *stored += 1;
                layers[side].push(index);
                if meeting.is_none()
                    && let Some(there) = other.find(&batch[i].0)
                {
                    let (here, there) = (Link::new(*me, index), Link::new(*me, there));
                    *meeting = Some(if side == 0 {
                        [here, there]
                    } else {
                        [there, here]
                    });
                }
            }
            Offered::Full => *full = true,
            Offered::Improved(_) | Offered::Known => {}
        });
    }

    fn bytes(&self, layer: &[u32], successors: &[S]) -> u64 {
        let layers: usize = self.layers.iter().map(Vec::capacity).sum();
        self.stores.iter().map(Store::bytes).sum::<u64>()
            + ((layers + layer.len()) * size_of::<u32>()) as u64
            + std::mem::size_of_val(successors) as u64
    }
}

/// One worker's part of the search from the start to `goal`.
pub(super) fn run<P: Stored>(
    rounds: &mut SearchRounds<P::State>,
    space: &P,
    goal: P::State,
    ctl: &SearchControl,
    local: &Local,
) -> Result<SearchOutcome<P::State>, Fault>
where
    P::State: Portable,
{
    let me = rounds.index();
    let (start, goal) = (space.canonical(space.start()), space.canonical(goal));
    if start == goal {
        if local.keeps_counts(me) {
            ctl.progress.add(1, 0);
        }
        return Ok(SearchOutcome::Found(vec![start]));
    }
    let tagged = space.layout().tagged;
    let mut owner = Owner {
        me,
        stores: [Store::new(false, tagged), Store::new(false, tagged)],
        layers: [Vec::new(), Vec::new()],
        stored: 0,
        meeting: None,
        full: false,
    };
    let mut states = ctl.progress.states();
    if me == 0 {
        rounds.offer((start, Link::ROOT, FORWARD));
        rounds.offer((goal, Link::ROOT, BACKWARD));
    }
    let mut successors = Vec::new();
    let (mut depths, mut expanded, mut peak_bytes) = ([0u64; 2], 0u64, 0u64);
    loop {
        rounds.exchange(|batch| owner.receive(batch))?;
        peak_bytes = peak_bytes.max(owner.bytes(&[], &successors));
        let report = Report {
            goal: owner.meeting.map(|[forward, _]| forward),
            meeting: owner.meeting.map(|[_, backward]| backward),
            frontiers: owner.layers.each_ref().map(|l| l.len() as u64),
            ..Report::of_round(&mut owner.stored, expanded, peak_bytes, owner.full, ctl)
        };
        let (round, reports) = Round::gather(rounds, report, &mut states, ctl, local)?;
        if let Some(forward) = round.goal {
            let backward = reports
                .iter()
                .find_map(|r| r.goal.filter(|&g| g == forward).and(r.meeting))
                .expect("the worker that met reports both links");
            round.finish(me, ctl, local);
            let mut path = path_to(rounds, &owner.stores[0], forward)?;
            let back = path_to(rounds, &owner.stores[1], backward)?;
            path.extend(back.into_iter().rev().skip(1));
            return Ok(SearchOutcome::Found(path));
        }
        if let Some(limit) = round.limit {
            return Ok(round.stopped(limit, me, ctl, local));
        }
        let total = |side: usize| reports.iter().map(|r| r.frontiers[side]).sum::<u64>();
        let side = if total(0) <= total(1) { 0 } else { 1 };
        if total(side) == 0 {
            return Ok(round.exhausted(me, ctl, local));
        }
        depths[side] += 1;
        if local.keeps_counts(me) {
            ctl.progress.set_depth(depths[0] + depths[1]);
        }
        let layer = std::mem::take(&mut owner.layers[side]);
        expanded = 0;
        for chunk in layer.chunks(CHUNK) {
            if ctl.stop.is_stopped() {
                break;
            }
            for &index in chunk {
                let state = owner.stores[side].state(index);
                let parent = Link::new(me, index);
                let came_by = owner.stores[side].came_by(space, index, me);
                successors.clear();
                space.successors_after(&state, came_by, &mut successors);
                for &next in &successors {
                    rounds.offer((space.canonical(next), parent, side as u32));
                }
            }
            expanded += chunk.len() as u64;
            rounds.poll(|batch| owner.receive(batch))?;
            let bytes = owner.bytes(&layer, &successors);
            peak_bytes = peak_bytes.max(bytes);
            local.set_bytes(me, bytes, ctl);
            let _ = ctl.check_mid_layer();
        }
    }
}
