//! A* on the cluster: the local engine's (f, g) buckets, each spread over every worker.
//!
//! Every worker keeps the open buckets of its own states. A round expands one bucket, the least
//! (f, g) open on any worker (each reports its least): its holders expand their entries and
//! send each successor with its f to its owner, which stores it when new, or relinks it when it
//! is reached with a smaller g, and queues it in (f', g + 1). As in the local engine: the
//! heuristic is computed by the sender, and dead states are never sent; a goal queued at the
//! bucket's f ends the search once the round is finished; a goal already queued in the next
//! bucket ends it before that bucket is expanded; the move budget keeps only goals from the
//! states at the bound, and no state whose f is above it is sent; nothing deeper than 16-bit g
//! is expanded. What the budget drops is counted in the reports, so that the cluster's total
//! tells [`crate::engine::astar::in_rounds`] whether a round searched the whole space.

use std::collections::BTreeMap;

use super::cluster::Fault;
use super::store::{Link, Offered, Store};
use super::{Local, Offer, Portable, Report, Round, SearchRounds};
use crate::engine::{Heuristic, MoveBudget, SearchControl, SearchOutcome, Space};

/// The largest g stored (a 16-bit depth); nothing deeper is queued (as in the local engine).
const MAX_G: u32 = u16::MAX as u32;

/// Bucket entries expanded between two looks at the dataflow and at the limits.
const CHUNK: usize = 512;

/// What a worker holds: its states and their open buckets.
struct Owner<'a, P: Space> {
    space: &'a P,
    me: usize,
    store: Store<P::State>,
    open: BTreeMap<(u32, u32), Vec<u32>>,
    /// The f of the bucket being expanded (`None` while the start is stored), and the g of the
    /// states it sends.
    f: Option<u32>,
    g: u32,
    stored: u64,
    /// Successors dropped for the move budget since the last report.
    cut: u64,
    goal: Option<Link>,
    full: bool,
}

impl<P: Space> Owner<'_, P>
where
    P::State: Portable,
{
    /// Stores or relinks the successors sent to this worker, and queues them.
    fn receive(&mut self, batch: &[Offer<P::State>]) {
        let Owner {
            space,
            me,
            store,
            open,
            f: bucket_f,
            g,
            stored,
            goal,
            full,
            ..
        } = self;
        store.offer_all(batch, *g, |i, offered| {
            let index = match offered {
                Offered::New(index) => {
                    *stored += 1;
                    index
                }
                Offered::Improved(index) => index,
                Offered::Known => return,
                Offered::Full => {
                    *full = true;
                    return;
                }
            };
            let (state, _, f) = batch[i];
            open.entry((f, *g)).or_default().push(index);
            if goal.is_none() && *bucket_f == Some(f) && space.is_goal(&state) {
                *goal = Some(Link::new(*me, index));
            }
        });
    }

    /// This worker's least open bucket, with a goal queued there.
    fn least(&self) -> Option<((u32, u32), Option<Link>)> {
        let (&key, entries) = self.open.first_key_value()?;
        let goal = entries
            .iter()
            .find(|&&i| self.space.is_goal(&self.store.state(i)))
            .map(|&i| Link::new(self.me, i));
        Some((key, goal))
    }

    fn bytes(&self, bucket: &[u32], successors: &[P::State]) -> u64 {
        let open: usize = self.open.values().map(Vec::capacity).sum();
        self.store.bytes()
            + ((open + bucket.len()) * size_of::<u32>()) as u64
            + std::mem::size_of_val(successors) as u64
    }
}

/// One worker's part of the search.
pub(super) fn run<P: Heuristic + MoveBudget>(
    rounds: &mut SearchRounds<P::State>,
    space: &P,
    ctl: &SearchControl,
    local: &Local,
) -> Result<SearchOutcome<P::State>, Fault>
where
    P::State: Portable,
{
    let me = rounds.index();
    let start = space.canonical(space.start());
    // Every worker computes the same: a dead start is no search at all.
    let Some(h0) = space.heuristic(&start) else {
        return Ok(SearchOutcome::Exhausted);
    };
    let mut owner = Owner {
        space,
        me,
        store: Store::new(true, space.layout().tagged),
        open: BTreeMap::new(),
        f: None,
        g: 0,
        stored: 0,
        cut: 0,
        goal: None,
        full: false,
    };
    // What a limit reached before the first bucket still proves (as in the local engine).
    ctl.progress.set_depth(u64::from(h0));
    let mut states = ctl.progress.states();
    if me == 0 {
        rounds.offer((start, Link::ROOT, h0));
    }
    let (mut successors, mut bounded) = (Vec::new(), Vec::new());
    let (mut expanded, mut peak_bytes) = (0u64, 0u64);
    loop {
        rounds.exchange(|batch| owner.receive(batch))?;
        peak_bytes = peak_bytes.max(owner.bytes(&[], &successors));
        let report = Report {
            goal: owner.goal,
            bucket: owner.least(),
            cut: std::mem::take(&mut owner.cut),
            ..Report::of_round(&mut owner.stored, expanded, peak_bytes, owner.full, ctl)
        };
        let (round, reports) = Round::gather(rounds, report, &mut states, ctl, local)?;
        if let Some(end) = round.verdict(rounds, &owner.store, ctl, local)? {
            return Ok(end);
        }
        let Some((f, g)) = reports
            .iter()
            .filter_map(|r| r.bucket)
            .map(|(key, _)| key)
            .min()
        else {
            return Ok(round.exhausted(me, ctl, local));
        };
        if space.max_depth().is_some_and(|max| f > max) {
            return Ok(round.exhausted(me, ctl, local));
        }
        if local.keeps_counts(me) {
            ctl.progress.set_depth(u64::from(f));
        }
        let queued_goal = reports
            .iter()
            .filter_map(|r| r.bucket)
            .find_map(|(key, goal)| goal.filter(|_| key == (f, g)));
        if let Some(goal) = queued_goal {
            return round.found(rounds, &owner.store, goal, ctl, local);
        }
        owner.f = Some(f);
        owner.g = g + 1;
        let bucket = owner.open.remove(&(f, g)).unwrap_or_default();
        expanded = 0;
        if g >= MAX_G {
            owner.cut += bucket.len() as u64;
            continue;
        }
        // Successors at the depth bound matter only if they are goals, and none whose f is
        // above it is sent (as in the local engine).
        let max_depth = space.max_depth();
        let goals_only = max_depth.is_some_and(|max| g + 1 >= max);
        for chunk in bucket.chunks(CHUNK) {
            if ctl.stop.is_stopped() {
                break;
            }
            for &index in chunk {
                let state = owner.store.state(index);
                let parent = Link::new(me, index);
                let came_by = owner.store.came_by(space, index, me);
                if goals_only {
                    successors.clear();
                    space.successors_after(&state, came_by, &mut successors);
                    for &next in &successors {
                        if space.is_goal(&next) {
                            rounds.offer((space.canonical(next), parent, f));
                        } else {
                            owner.cut += 1;
                        }
                    }
                    continue;
                }
                // A successor's f is within the budget when its bound is within what the
                // budget leaves (`f` itself is, or the search would have ended).
                let limit = max_depth.map_or(u32::MAX, |max| max - g - 1);
                bounded.clear();
                owner.cut +=
                    space.successors_within(&state, came_by, limit, &mut successors, &mut bounded);
                for &(next, h) in &bounded {
                    rounds.offer((next, parent, (g + 1 + h).max(f)));
                }
            }
            expanded += chunk.len() as u64;
            rounds.poll(|batch| owner.receive(batch))?;
            let bytes = owner.bytes(&bucket, &successors);
            peak_bytes = peak_bytes.max(bytes);
            local.set_bytes(me, bytes, ctl);
            let _ = ctl.check_mid_layer();
        }
    }
}
