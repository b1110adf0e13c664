//! The dataflow a distributed search builds on every worker, and the rounds that drive it.
//!
//! Two inputs, one probe:
//! - **offers** (states a worker generated) are exchanged by their owner hash: timely moves each
//!   to the worker that owns it, over threads' queues or TCP, and that worker's receiving
//!   operator hands whole containers to the search (an inbox), which stores them.
//! - **reports** (a few numbers per worker and round) go to every worker: a broadcast.
//!
//! The search drives the dataflow from outside, in rounds (timely's "input, advance, step until
//! the probe passes" pattern). A round is one timestamp. [`Rounds::exchange`] ends a round of
//! offers: it advances both inputs and steps the worker until timely's progress tracking says
//! that no worker can still send anything for that time — then every offer of the round, from
//! every worker, has been received and stored by its owner. [`Rounds::gather`] is the same
//! with one report from each worker: afterwards every worker holds the same reports, and so
//! takes the same decision (the next layer, a limit, a goal). No worker ever waits on anything
//! but timely's progress.
//!
//! While a worker sends its offers it also steps the dataflow now and then ([`Rounds::poll`]), so
//! that what others send it is stored as it arrives rather than buffered for the whole round.
//!
//! A worker that is through with a round may run ahead by one: its report of the next round
//! can reach a slower worker still gathering this one's (reports carry their round), and its
//! offers of the next round can reach a worker still gathering reports (they wait in the inbox
//! until that worker starts the round they belong to). It cannot run further: a round of offers
//! ends only once every worker has sent its report of the round before.
//!
//! Every wait checks the cluster's fault flag (a lost peer), so that a worker never waits for
//! progress that cannot come.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use timely::ExchangeData;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

use super::cluster::{Fault, Faults};

/// How long a waiting worker sleeps before it looks at the fault flag again (it wakes at once
/// when data or progress arrives).
const PARK: Duration = Duration::from_millis(50);

/// One search's dataflow on one worker.
pub struct Rounds<'w, O: ExchangeData + Clone, R: ExchangeData + Clone> {
    worker: &'w mut Worker,
    faults: &'w Faults,
    offers: InputHandleVec<u64, O>,
    reports: InputHandleVec<u64, (u64, u32, R)>,
    /// Containers of offers received, not yet taken by the search.
    inbox: Rc<RefCell<Vec<Vec<O>>>>,
    /// Reports received, with their round and sender. A worker that is done with a round may
    /// send its report of the next before a slower one has taken this round's.
    mail: Rc<RefCell<Vec<(u64, u32, R)>>>,
    probe: ProbeHandle<u64>,
}

impl<'w, O: ExchangeData + Clone, R: ExchangeData + Clone> Rounds<'w, O, R> {
    /// Builds the dataflow; `owner` hashes an offer to pick the worker that receives it.
    pub fn new(worker: &'w mut Worker, faults: &'w Faults, owner: fn(&O) -> u64) -> Self {
        let mut offers = InputHandleVec::new();
        let mut reports = InputHandleVec::new();
        let inbox: Rc<RefCell<Vec<Vec<O>>>> = Rc::default();
        let mail: Rc<RefCell<Vec<(u64, u32, R)>>> = Rc::default();
        let probe = ProbeHandle::new();
        worker.dataflow::<u64, _, _>(|scope| {
            let inbox = Rc::clone(&inbox);
            receive(
                scope.input_from(&mut offers),
                Exchange::new(owner),
                move |_, data| inbox.borrow_mut().push(std::mem::take(data)),
            )
            .probe_with(&probe);
            let mail = Rc::clone(&mail);
            let to = Exchange::new(|(target, _, _): &(u64, u32, R)| *target);
            receive(scope.input_from(&mut reports), to, move |round, data| {
                mail.borrow_mut().extend(
                    data.drain(..)
                        .map(|(_, from, report)| (round, from, report)),
                )
            })
            .probe_with(&probe);
        });
        Rounds {
            worker,
            faults,
            offers,
            reports,
            inbox,
            mail,
            probe,
        }
    }

    /// This worker's index among all workers of the cluster.
    pub fn index(&self) -> usize {
        self.worker.index()
    }

    /// Sends an offer to its owner, in this round.
    #[inline]
    pub fn offer(&mut self, offer: O) {
        self.offers.send(offer);
    }

    /// Steps the dataflow once and hands every container of offers received so far to `take`.
    pub fn poll(&mut self, take: impl FnMut(&[O])) -> Result<(), Fault> {
        self.worker.step();
        self.faults.check()?;
        self.take_inbox(take);
        Ok(())
    }

    /// Ends the round of offers: returns once every worker's offers of the round have reached
    /// their owners, each container received handed to `take`.
    pub fn exchange(&mut self, mut take: impl FnMut(&[O])) -> Result<(), Fault> {
        self.advance();
        while self.probe.less_than(self.offers.time()) {
            self.worker.step_or_park(Some(PARK));
            self.faults.check()?;
            self.take_inbox(&mut take);
        }
        self.take_inbox(take);
        Ok(())
    }

    /// Sends `report` to every worker and returns every worker's report of this round, in the
    /// order of their indices (the same on every worker).
    pub fn gather(&mut self, report: R) -> Result<Vec<R>, Fault> {
        let from = self.worker.index() as u32;
        for target in 0..self.worker.peers() as u64 {
            self.reports.send((target, from, report.clone()));
        }
        let round = *self.offers.time();
        self.advance();
        while self.probe.less_than(self.offers.time()) {
            self.worker.step_or_park(Some(PARK));
            self.faults.check()?;
        }
        let mut mail: Vec<(u64, u32, R)> = self
            .mail
            .borrow_mut()
            .extract_if(.., |&mut (r, _, _)| r == round)
            .collect();
        mail.sort_by_key(|&(_, from, _)| from);
        debug_assert_eq!(mail.len(), self.worker.peers());
        Ok(mail.into_iter().map(|(_, _, report)| report).collect())
    }

    /// Closes the inputs and steps until every worker has closed its own, so that the dataflow
    /// is gone before the next search builds one.
    pub fn close(mut self) -> Result<(), Fault> {
        drop(std::mem::replace(&mut self.offers, InputHandleVec::new()));
        drop(std::mem::replace(&mut self.reports, InputHandleVec::new()));
        while self.worker.has_dataflows() {
            self.worker.step_or_park(Some(PARK));
            self.faults.check()?;
        }
        Ok(())
    }

    fn advance(&mut self) {
        let next = self.offers.time() + 1;
        self.offers.advance_to(next);
        self.reports.advance_to(next);
    }

    fn take_inbox(&mut self, mut take: impl FnMut(&[O])) {
        // Taken out whole, so that the inbox is not borrowed while the search stores it.
        let containers = std::mem::take(&mut *self.inbox.borrow_mut());
        for container in containers.iter().filter(|c| !c.is_empty()) {
            take(container);
        }
    }
}

impl<O: ExchangeData + Clone, R: ExchangeData + Clone> Drop for Rounds<'_, O, R> {
    fn drop(&mut self) {
        // Dropping an input closes it, which flushes it into timely's channels. After a lost
        // peer those are poisoned and panic; while this worker is already unwinding from that
        // panic, a second one would abort the whole process before it could name the peer and
        // write its rows. So after a fault the inputs are left as they are (the cluster leaves
        // its workers to the process's exit then too); detached empty handles take their place.
        if std::thread::panicking() || self.faults.check().is_err() {
            std::mem::forget(std::mem::replace(&mut self.offers, InputHandleVec::new()));
            std::mem::forget(std::mem::replace(&mut self.reports, InputHandleVec::new()));
        }
    }
}

/// An operator that hands each container it receives through `pact` to `sink`, with its time,
/// and outputs nothing: a probe on its output passes a time once it has received everything
/// of that time.
fn receive<'s, D, P>(
    stream: timely::dataflow::StreamVec<'s, u64, D>,
    pact: P,
    mut sink: impl FnMut(u64, &mut Vec<D>) + 'static,
) -> timely::dataflow::StreamVec<'s, u64, ()>
where
    D: ExchangeData + Clone,
    P: timely::dataflow::channels::pact::ParallelizationContract<u64, Vec<D>>,
{
    stream.unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(pact, "Receive", |_, _| {
        move |input, _output| {
            input.for_each(|stamp, data| {
                let time = stamp.least().copied().expect("a message has a time");
                sink(time, data)
            })
        }
    })
}
