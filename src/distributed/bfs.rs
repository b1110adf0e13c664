//! Breadth-first search on the cluster: the local engine's layers, each spread over every
//! worker.
//!
//! Round 0 stores the start (worker 0 sends it to its owner). In round d each worker expands
//! its share of layer d − 1 and sends every successor to its owner, which stores the new ones
//! as its share of layer d; after the round every worker knows the layer's size, whether a goal
//! was stored and whether a limit was hit, and all decide alike. As in the local engine: the
//! layer in which a goal appears is finished; with a move budget the layer at the bound keeps
//! only goals; `max_states` is checked between layers.

use super::cluster::Fault;
use super::store::{Link, Offered, Store};
use super::{Local, Offer, Portable, Report, Round, SearchRounds};
use crate::engine::{MoveBudget, SearchControl, SearchOutcome, Space, Stored};

/// States expanded between two looks at the dataflow (to store what arrived) and at the limits.
const CHUNK: usize = 512;

/// What a worker holds: its states, and its share of the layer being stored.
struct Owner<'a, P: Space> {
    space: &'a P,
    me: usize,
    store: Store<P::State>,
    next: Vec<u32>,
    stored: u64,
    goal: Option<Link>,
    full: bool,
}

impl<P: Space> Owner<'_, P>
where
    P::State: Portable,
{
    /// Stores the successors sent to this worker that are new.
    fn receive(&mut self, batch: &[Offer<P::State>]) {
        let Owner {
            space,
            me,
            store,
            next,
            stored,
            goal,
            full,
        } = self;
        store.offer_all(batch, 0, |i, offered| match offered {
            Offered::New(index) => {
                *stored += 1;
                next.push(index);
                if goal.is_none() && space.is_goal(&batch[i].0) {
                    *goal = Some(Link::new(*me, index));
                }
            }
            Offered::Full => *full = true,
            Offered::Improved(_) | Offered::Known => {}
        });
    }

    fn bytes(&self, layer: &[u32], successors: &[P::State]) -> u64 {
        self.store.bytes()
            + ((self.next.capacity() + layer.len()) * size_of::<u32>()) as u64
            + std::mem::size_of_val(successors) as u64
    }
}

/// One worker's part of the search.
pub(super) fn run<P: Stored + MoveBudget>(
    rounds: &mut SearchRounds<P::State>,
    space: &P,
    ctl: &SearchControl,
    local: &Local,
) -> Result<SearchOutcome<P::State>, Fault>
where
    P::State: Portable,
{
    let me = rounds.index();
    let mut owner = Owner {
        space,
        me,
        store: Store::new(false, space.layout().tagged),
        next: Vec::new(),
        stored: 0,
        goal: None,
        full: false,
    };
    let mut states = ctl.progress.states();
    let max_depth = space.max_depth().map(u64::from);
    if me == 0 {
        rounds.offer((space.canonical(space.start()), Link::ROOT, 0));
    }
    let mut successors = Vec::new();
    let (mut depth, mut expanded, mut peak_bytes) = (0u64, 0u64, 0u64);
    loop {
        rounds.exchange(|batch| owner.receive(batch))?;
        peak_bytes = peak_bytes.max(owner.bytes(&[], &successors));
        let report = Report {
            goal: owner.goal,
            frontiers: [owner.next.len() as u64, 0],
            ..Report::of_round(&mut owner.stored, expanded, peak_bytes, owner.full, ctl)
        };
        let (round, reports) = Round::gather(rounds, report, &mut states, ctl, local)?;
        if let Some(end) = round.verdict(rounds, &owner.store, ctl, local)? {
            return Ok(end);
        }
        depth += 1;
        if reports.iter().all(|r| r.frontiers[0] == 0) || max_depth.is_some_and(|max| depth > max) {
            return Ok(round.exhausted(me, ctl, local));
        }
        if local.keeps_counts(me) {
            ctl.progress.set_depth(depth);
        }
        let goals_only = max_depth == Some(depth);
        let layer = std::mem::take(&mut owner.next);
        expanded = 0;
        for chunk in layer.chunks(CHUNK) {
            if ctl.stop.is_stopped() {
                break;
            }
            for &index in chunk {
                let state = owner.store.state(index);
                let parent = Link::new(me, index);
                let came_by = owner.store.came_by(space, index, me);
                successors.clear();
                space.successors_after(&state, came_by, &mut successors);
                for &next in &successors {
                    let next = space.canonical(next);
                    if !goals_only || space.is_goal(&next) {
                        rounds.offer((next, parent, 0));
                    }
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
