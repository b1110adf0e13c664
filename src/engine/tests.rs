//! Engine tests: a memory limit is enforced while a bucket or layer grows, not after it, and a
//! limit once hit stays hit.

use super::astar::astar;
use super::bfs::bfs;
use super::control::{Limit, Limits};
use super::{SearchControl, SearchOutcome, Space};

/// States fanning out a thousandfold per move, without a goal: the second layer (or A* bucket)
/// is a million states generated from a thousand.
struct Fan;

impl Space for Fan {
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn successors(&self, state: &u64, _parent: Option<&u64>, out: &mut Vec<u64>) {
        out.extend((1..=1000).map(|i| state * 1000 + i));
    }

    fn is_goal(&self, _state: &u64) -> bool {
        false
    }
}

/// Runs a search under a memory limit: it must stop for memory, and within a hash-table
/// doubling of the limit rather than after the whole second layer (tens of megabytes).
fn assert_stops_near(limit: u64, search: impl Fn(&SearchControl) -> SearchOutcome<u64>) {
    let ctl = SearchControl::new(Limits {
        max_bytes: Some(limit),
        ..Limits::default()
    });
    assert_eq!(search(&ctl), SearchOutcome::Stopped(Limit::Memory(limit)));
    assert!(ctl.states() < 1_000_000, "{} states", ctl.states());
    assert!(
        ctl.peak_bytes() < 2 * limit,
        "peak {} for a limit of {limit}",
        ctl.peak_bytes()
    );
}

#[test]
fn a_memory_limit_stops_a_growing_astar_bucket() {
    assert_stops_near(8 << 20, |ctl| astar(&Fan, ctl));
}

#[test]
fn a_memory_limit_stops_a_growing_bfs_layer() {
    assert_stops_near(8 << 20, |ctl| bfs(&Fan, ctl));
}

#[test]
fn a_limit_once_hit_stays_hit_when_memory_falls_back() {
    let ctl = SearchControl::new(Limits {
        max_bytes: Some(100),
        ..Limits::default()
    });
    assert_eq!(ctl.check(), Ok(()));
    ctl.set_bytes(200);
    assert_eq!(ctl.check(), Err(Limit::Memory(100)));
    ctl.set_bytes(50);
    assert_eq!(ctl.check(), Err(Limit::Memory(100)));
    assert!(ctl.is_stopped());
}
