//! A cluster of timely workers: this process's share of them, kept alive from one search to the
//! next, and what to do when the cluster breaks.
//!
//! **Workers.** Each of the process's workers is a thread of a rayon pool of its own, and holds
//! its timely [`Worker`] (bound to the thread: timely's allocators are not `Send`) in a
//! thread-local for the cluster's lifetime, so that connections are made once per run, not once
//! per search. A search is a job that every worker runs at once ([`Cluster::run`], rayon's
//! `broadcast`), borrowing the level's space and control for its duration: no `'static` copies.
//!
//! **Connections.** For several processes, the sockets are connected here, then handed to
//! timely (`initialize_networking_from_sockets`), which does all the rest. Why not timely's own
//! `create_sockets`: it retries forever, printing to standard output. Here every process listens
//! on its own address and connects to those before it, within a deadline; the two ends of each
//! connection first exchange a hello (process index, processes, workers, the run's fingerprint),
//! so that a process given other levels, options or `--workers` is refused with a message
//! naming it, before anything is searched.
//!
//! **Agreement.** Before each search the workers agree on what they are about to run (the run's
//! sequence number, the search and its start state, [`Cluster::run`]); a process that went its
//! own way (another level, or a limit hit outside a search on one process only) is named and
//! the run ends, rather than pairing the wrong searches.
//!
//! **Faults.** When a peer process dies, timely's network threads panic ("timely communication
//! error"), and every worker that touches the broken channels panics in turn. A panic hook
//! recognises these panics, records which process was lost (the network thread is named after
//! it) and interrupts the process's searches ([`crate::engine::control::interrupt`]); workers
//! waiting for progress notice the fault flag within a fraction of a second; the job returns an
//! error naming the peer. The harness then writes the rows finished so far, the level cut short
//! as an `error` row naming the lost process, and exits non-zero.

use std::any::Any;
use std::cell::RefCell;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::{Duration, Instant};

use timely::WorkerConfig;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{Allocator, AllocatorBuilder, ProcessBuilder, Thread};
use timely::communication::{Config as Communication, Hooks};
use timely::worker::Worker;

use super::rounds::Rounds;
use crate::engine::control;

thread_local! {
    /// The timely worker of this thread of a cluster's pool.
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// A worker gave up because the cluster broke; [`Cluster::failure`] says why.
#[derive(Debug)]
pub struct Fault;

/// Whether a cluster is broken, and why: shared by its workers and the panic hook.
#[derive(Default)]
pub struct Faults {
    broken: AtomicBool,
    why: Mutex<Option<String>>,
}

impl Faults {
    /// `Err` once the cluster broke.
    #[inline]
    pub fn check(&self) -> Result<(), Fault> {
        if self.broken.load(Ordering::Relaxed) {
            Err(Fault)
        } else {
            Ok(())
        }
    }

    /// Marks the cluster broken; the first reason is the one kept. The process's searches stop:
    /// the run cannot go on without its peers.
    fn record(&self, why: String) {
        let mut first = self.why.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(why);
        self.broken.store(true, Ordering::Relaxed);
        control::interrupt();
    }

    fn why(&self) -> Option<String> {
        self.why.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The processes of a cluster and this one's place among them.
#[derive(Clone, Debug)]
pub struct Hosts {
    /// Each process's `host:port`, in the order of their indices.
    pub addresses: Vec<String>,
    /// This process's index.
    pub process: usize,
}

/// This process's workers of a cluster.
pub struct Cluster {
    pool: rayon::ThreadPool,
    workers: usize,
    process: usize,
    addresses: Vec<String>,
    faults: Arc<Faults>,
    /// Timely's network threads (joined on a clean shutdown).
    network: Mutex<Option<Box<dyn Any + Send>>>,
    /// Jobs run so far: the sequence number every process must agree on.
    runs: AtomicU64,
    /// Whether every process agreed that the run ended ([`Cluster::finish`]): only then are
    /// the connections closed cleanly.
    finished: AtomicBool,
}

/// What every process sends first on each connection, to be checked by the other end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hello {
    process: u64,
    processes: u64,
    workers: u64,
    fingerprint: u64,
}

const MAGIC: u64 = u64::from_be_bytes(*b"frontier");
/// The job that ends a run, which no search is.
const END: u64 = u64::MAX;
/// How long one connection attempt may take before the next peer is tried.
const ATTEMPT: Duration = Duration::from_millis(250);
/// How long a connecting process waits between rounds of attempts.
const RETRY: Duration = Duration::from_millis(20);

impl Hello {
    fn write(&self, stream: &mut TcpStream) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(40);
        for word in [
            MAGIC,
            self.process,
            self.processes,
            self.workers,
            self.fingerprint,
        ] {
            bytes.extend_from_slice(&word.to_be_bytes());
        }
        stream.write_all(&bytes)
    }

    /// Reads a hello; `Ok(None)` when the other end is not a frontier process.
    fn read(stream: &mut TcpStream) -> std::io::Result<Option<Hello>> {
        let mut bytes = [0u8; 40];
        stream.read_exact(&mut bytes)?;
        let word = |i: usize| u64::from_be_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap());
        Ok((word(0) == MAGIC).then(|| Hello {
            process: word(1),
            processes: word(2),
            workers: word(3),
            fingerprint: word(4),
        }))
    }

    /// Why a peer's hello does not fit this process's.
    fn mismatch(&self, theirs: &Hello, address: &str) -> Option<String> {
        let them = format!("process {} ({address})", theirs.process);
        if theirs.processes != self.processes {
            Some(format!(
                "{them} has a hostfile of {} processes, this one of {}",
                theirs.processes, self.processes
            ))
        } else if theirs.workers != self.workers {
            Some(format!(
                "{them} runs {} workers, this one {}: give every process the same --workers",
                theirs.workers, self.workers
            ))
        } else if theirs.fingerprint != self.fingerprint {
            Some(format!(
                "{them} was given other levels or options than this one: every process needs the same paths and options"
            ))
        } else {
            None
        }
    }
}

impl Cluster {
    /// A cluster of `workers` workers in this process alone.
    pub fn local(workers: usize) -> Result<Cluster, String> {
        let config = if workers <= 1 {
            Communication::Thread
        } else {
            Communication::Process(workers)
        };
        let (builders, _) = config.try_build()?;
        Cluster::start(builders, None, Vec::new(), 0, Arc::default())
    }

    /// Every process of a cluster of `processes` processes on localhost, `workers` workers
    /// each, as clusters of this process connected over TCP: each is to be used from threads
    /// of its own, as a separate process would use it. For trying the backend on one machine,
    /// and for its tests.
    pub fn localhost(processes: usize, workers: usize) -> Result<Vec<Cluster>, String> {
        // The ports are held until all are chosen, so that none is handed out twice.
        let listeners = (0..processes)
            .map(|_| TcpListener::bind("127.0.0.1:0"))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("no free port on localhost: {e}"))?;
        let addresses: Vec<String> = listeners
            .iter()
            .filter_map(|l| l.local_addr().ok())
            .map(|a| a.to_string())
            .collect();
        drop(listeners);
        std::thread::scope(|scope| {
            let connecting: Vec<_> = (0..processes)
                .map(|process| {
                    let hosts = Hosts {
                        addresses: addresses.clone(),
                        process,
                    };
                    scope.spawn(move || {
                        Cluster::connect(&hosts, workers, 0, Duration::from_secs(20))
                    })
                })
                .collect();
            let joined = connecting.into_iter().map(|c| {
                c.join()
                    .unwrap_or_else(|_| Err("a process panicked while connecting".into()))
            });
            joined.collect()
        })
    }

    /// This process's `workers` workers of the cluster of `hosts`, connected to every other
    /// process within `timeout`. `fingerprint` sums up the run (levels and options): processes
    /// that disagree on it are refused.
    pub fn connect(
        hosts: &Hosts,
        workers: usize,
        fingerprint: u64,
        timeout: Duration,
    ) -> Result<Cluster, String> {
        let Hosts { addresses, process } = hosts;
        if *process >= addresses.len() {
            return Err(format!(
                "--process {process}: the hostfile lists {} processes (0 to {})",
                addresses.len(),
                addresses.len() - 1
            ));
        }
        if addresses.len() == 1 {
            return Cluster::local(workers);
        }
        let hello = Hello {
            process: *process as u64,
            processes: addresses.len() as u64,
            workers: workers as u64,
            fingerprint,
        };
        let sockets = connect_all(addresses, *process, hello, timeout)?;
        let hooks = Hooks::default();
        let process_allocators =
            ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), None);
        let (builders, network) = initialize_networking_from_sockets(
            process_allocators,
            sockets,
            *process,
            workers,
            hooks,
        )
        .map_err(|e| format!("process {process}: cannot start the network threads: {e}"))?;
        let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
        let faults = Arc::<Faults>::default();
        report_lost_peers(&faults, addresses);
        Cluster::start(
            builders,
            Some(Box::new(network)),
            addresses.clone(),
            *process,
            faults,
        )
    }

    /// Starts one pool thread per builder, each holding its worker.
    fn start(
        builders: Vec<AllocatorBuilder>,
        network: Option<Box<dyn Any + Send>>,
        addresses: Vec<String>,
        process: usize,
        faults: Arc<Faults>,
    ) -> Result<Cluster, String> {
        let workers = builders.len();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .thread_name(|i| format!("frontier:worker-{i}"))
            .build()
            .map_err(|e| format!("cannot start {workers} worker threads: {e}"))?;
        let builders = Mutex::new(builders.into_iter().map(Some).collect::<Vec<_>>());
        pool.broadcast(|context| {
            let builder = builders.lock().unwrap_or_else(|e| e.into_inner())[context.index()]
                .take()
                .expect("one builder per thread");
            let worker = Worker::new(
                WorkerConfig::default(),
                build(builder),
                Some(Instant::now()),
            );
            WORKER.with(|cell| *cell.borrow_mut() = Some(worker));
        });
        Ok(Cluster {
            pool,
            workers,
            process,
            addresses,
            faults,
            network: Mutex::new(network),
            runs: AtomicU64::new(0),
            finished: AtomicBool::new(false),
        })
    }

    /// Workers in this process.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Processes in the cluster.
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }

    /// This process's index.
    pub fn process(&self) -> usize {
        self.process
    }

    /// Why the cluster broke, once it has.
    pub fn failure(&self) -> Option<String> {
        self.faults.why()
    }

    /// Runs `job` on every worker of this process at once, after every worker of the cluster
    /// agreed that it is running the same job (`what`, and the job's sequence number); returns
    /// what the process's first worker returned, or why the cluster broke.
    pub fn run<R: Send>(
        &self,
        what: u64,
        job: impl Fn(&mut Worker, &Faults) -> Result<R, Fault> + Sync,
    ) -> Result<R, String> {
        let broken = || self.failure().unwrap_or_else(|| "the cluster broke".into());
        if self.faults.check().is_err() {
            return Err(broken());
        }
        let run = self.runs.fetch_add(1, Ordering::Relaxed);
        let faults = &*self.faults;
        let results = self.pool.broadcast(|_| {
            let mut worker = WORKER
                .with(|cell| cell.borrow().clone())
                .expect("a pool thread holds a worker");
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                self.agree(&mut worker, run, what)?;
                job(&mut worker, faults)
            }));
            outcome.unwrap_or_else(|panic| {
                faults.record(format!(
                    "a worker of process {} failed: {}",
                    self.process,
                    panic_message(&*panic)
                ));
                Err(Fault)
            })
        });
        let mut first = None;
        for result in results {
            match result {
                Ok(r) => {
                    first.get_or_insert(r);
                }
                Err(Fault) => return Err(broken()),
            }
        }
        Ok(first.expect("a cluster has workers"))
    }

    /// Every worker tells every other which job it is about to run; a difference means the
    /// processes went separate ways, and ends the run.
    fn agree(&self, worker: &mut Worker, run: u64, what: u64) -> Result<(), Fault> {
        let mut rounds = Rounds::<(), (u64, u64)>::new(worker, &self.faults, |_| 0);
        let reports = rounds.gather((run, what))?;
        rounds.close()?;
        if let Some((other, &(_, theirs))) =
            reports.iter().enumerate().find(|&(_, &r)| r != (run, what))
        {
            let process = other / self.workers;
            let them = format!("process {process}{}", self.address(process));
            let me = format!("process {}", self.process);
            let search = run + 1;
            self.faults.record(match (theirs, what) {
                (END, _) => format!(
                    "{them} ended its run while {me} was to start search {search}: was it interrupted?"
                ),
                (_, END) => format!(
                    "{me} ended its run while {them} was to start search {search}: was this one interrupted?"
                ),
                _ => format!(
                    "{them} is running another search than {me} (search {search} of the run): were all processes given the same paths and options?"
                ),
            });
            return Err(Fault);
        }
        Ok(())
    }

    /// ` (host:port)` of a process, when there are several.
    fn address(&self, process: usize) -> String {
        self.addresses
            .get(process)
            .map(|a| format!(" ({a})"))
            .unwrap_or_default()
    }

    /// Ends the run: every process agrees that it is at its end, so that none leaves while
    /// another still searches; the connections then close cleanly when the cluster is dropped.
    /// Without it (or when it fails), dropping the cluster leaves them to the process's exit,
    /// which the other processes see as this one lost.
    pub fn finish(&self) -> Result<(), String> {
        self.run(END, |_, _| Ok(()))?;
        self.finished.store(true, Ordering::Relaxed);
        Ok(())
    }
}

/// The engine carries a cluster as a level's backend; [`crate::search`] sends its searches here.
impl control::Backend for Cluster {}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("process", &self.process)
            .field("processes", &self.processes())
            .field("workers", &self.workers)
            .finish_non_exhaustive()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Each worker is dropped on its own thread; then timely's network threads end once
        // every peer has closed its side too. After a fault, the workers' channels are poisoned
        // (dropping them panics) and the network threads may never end; and a run that did not
        // finish must not look finished to a peer still waiting for it (a clean close would
        // leave that peer waiting forever). In both cases all is left as it is, for the
        // process's exit to clear, which the peers see as a lost process.
        let network = self
            .network
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let broken = self.faults.check().is_err()
            || (network.is_some() && !self.finished.load(Ordering::Relaxed));
        let workers_closed = catch_unwind(AssertUnwindSafe(|| {
            self.pool.broadcast(|_| {
                let worker = WORKER.with(|cell| cell.borrow_mut().take());
                if broken {
                    std::mem::forget(worker);
                }
            })
        }));
        if broken || workers_closed.is_err() {
            std::mem::forget(network);
        } else if catch_unwind(AssertUnwindSafe(|| drop(network))).is_err() {
            self.faults
                .record("a peer left while the run was ending".into());
        }
    }
}

/// A worker's allocator, built on its own thread (allocators are bound to their thread).
fn build(builder: AllocatorBuilder) -> Allocator {
    match builder {
        AllocatorBuilder::Thread(_) => Allocator::Thread(Thread::default()),
        AllocatorBuilder::Process(process) => Allocator::Process(process.build()),
        AllocatorBuilder::Tcp(tcp) => Allocator::Tcp(tcp.build()),
    }
}

/// Connects to every other process of `addresses` (listening for those after `me`, connecting
/// to those before it, as timely expects), exchanging hellos, within `timeout`.
fn connect_all(
    addresses: &[String],
    me: usize,
    hello: Hello,
    timeout: Duration,
) -> Result<Vec<Option<TcpStream>>, String> {
    let deadline = Instant::now() + timeout;
    let listener = TcpListener::bind(&addresses[me])
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| format!("process {me}: cannot listen on {}: {e}", addresses[me]))?;
    let mut sockets: Vec<Option<TcpStream>> = addresses.iter().map(|_| None).collect();
    loop {
        for peer in 0..me {
            if sockets[peer].is_none() {
                sockets[peer] = dial(&addresses[peer], hello, deadline)?;
            }
        }
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    if let Some((peer, stream)) = answer(stream, addresses, me, hello, deadline)? {
                        sockets[peer] = Some(stream);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(format!("process {me}: accepting connections: {e}")),
            }
        }
        let missing: Vec<String> = (0..addresses.len())
            .filter(|&p| p != me && sockets[p].is_none())
            .map(|p| format!("process {p} ({})", addresses[p]))
            .collect();
        if missing.is_empty() {
            break;
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "process {me} ({}): no connection with {} within {} s: is every process of the hostfile running, with the same hostfile?",
                addresses[me],
                missing.join(", "),
                timeout.as_secs_f64()
            ));
        }
        std::thread::sleep(RETRY);
    }
    for socket in sockets.iter().flatten() {
        socket
            .set_read_timeout(None)
            .and_then(|()| socket.set_nodelay(true))
            .map_err(|e| format!("process {me}: configuring a connection: {e}"))?;
    }
    Ok(sockets)
}

/// One attempt to connect to an earlier process: its stream once both hellos agree, `None` when
/// it does not answer (yet), an error when it answers with a hello that does not fit.
fn dial(address: &str, hello: Hello, deadline: Instant) -> Result<Option<TcpStream>, String> {
    let Some(target) = address.to_socket_addrs().ok().and_then(|mut a| a.next()) else {
        return Ok(None);
    };
    let Ok(mut stream) = TcpStream::connect_timeout(&target, ATTEMPT) else {
        return Ok(None);
    };
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .max(ATTEMPT);
    let theirs = stream
        .set_read_timeout(Some(wait))
        .and_then(|()| hello.write(&mut stream))
        .and_then(|()| Hello::read(&mut stream));
    match theirs {
        Ok(Some(theirs)) => match hello.mismatch(&theirs, address) {
            Some(why) => Err(format!("process {}: {why}", hello.process)),
            None => Ok(Some(stream)),
        },
        Ok(None) => Err(format!(
            "process {}: {address} answered, but is not a frontier process",
            hello.process
        )),
        // It went away while greeting: tried again.
        Err(_) => Ok(None),
    }
}

/// Greets a later process that connected: its index and stream once both hellos agree.
fn answer(
    mut stream: TcpStream,
    addresses: &[String],
    me: usize,
    hello: Hello,
    deadline: Instant,
) -> Result<Option<(usize, TcpStream)>, String> {
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .max(ATTEMPT);
    let theirs = stream
        .set_nonblocking(false)
        .and_then(|()| stream.set_read_timeout(Some(wait)))
        .and_then(|()| Hello::read(&mut stream));
    let theirs = match theirs {
        Ok(Some(theirs)) => theirs,
        // Not a frontier process, or gone: not one of ours.
        Ok(None) | Err(_) => return Ok(None),
    };
    // Answered even when it does not fit, so that the other end names the mismatch too.
    let _ = hello.write(&mut stream);
    let peer = theirs.process as usize;
    let address = addresses.get(peer).map_or("?", String::as_str);
    if let Some(why) = hello.mismatch(&theirs, address) {
        return Err(format!("process {me}: {why}"));
    }
    if peer <= me || peer >= addresses.len() {
        return Err(format!(
            "process {me}: a process claiming index {peer} connected: two processes were given the same --process?"
        ));
    }
    Ok(Some((peer, stream)))
}

/// The clusters whose network threads' panics the hook reports, with their addresses.
type Watched = Vec<(Weak<Faults>, Vec<String>)>;
static WATCHED: Mutex<Watched> = Mutex::new(Vec::new());

/// Registers a networked cluster with the panic hook (installed once).
fn report_lost_peers(faults: &Arc<Faults>, addresses: &[String]) {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = panic_message(info.payload());
            if !is_network_failure(&message) {
                return previous(info);
            }
            // The network thread that failed is named after its peer: `timely:recv-3`.
            let thread = std::thread::current();
            let peer = thread
                .name()
                .and_then(|n| {
                    n.strip_prefix("timely:recv-")
                        .or(n.strip_prefix("timely:send-"))
                })
                .and_then(|p| p.parse::<usize>().ok());
            let mut watched = WATCHED.lock().unwrap_or_else(|e| e.into_inner());
            watched.retain(|(faults, _)| faults.strong_count() > 0);
            for (faults, addresses) in watched.iter() {
                let Some(faults) = faults.upgrade() else {
                    continue;
                };
                let why = match peer {
                    Some(p) => format!(
                        "lost process {p} ({}): {message}",
                        addresses.get(p).map_or("?", String::as_str)
                    ),
                    None => format!("lost a peer process: {message}"),
                };
                faults.record(why);
            }
        }));
    });
    WATCHED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((Arc::downgrade(faults), addresses.to_vec()));
}

/// Whether a panic is timely's way of saying a connection failed (on its network threads), or
/// its consequence on a worker (a poisoned queue).
fn is_network_failure(message: &str) -> bool {
    message.starts_with("timely communication error") || message.contains("MergeQueue poisoned")
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}
