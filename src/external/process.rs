//! One run of an external solver's command under limits that the operating system enforces,
//! not the solver: the command runs in a process group of its own; past the wall-time limit,
//! past the memory limit, or on an interrupt, the whole group is killed (`SIGKILL`), and once
//! the command has ended, whatever it left behind in its group (a forked child) is killed too.
//!
//! Memory is held by a watchdog: every few milliseconds the resident memory of every process of
//! the group is summed from `/proc`, and the group is killed once the sum passes the limit.
//! Not `RLIMIT_AS`: it limits address space, not memory, so a solver that reserves more than it
//! touches (Go and Java runtimes, many allocators) would fail at start, and its allocation
//! failures could not be told from a crash. Not a cgroup: this project's machines offer no
//! cgroup v2 memory controller to a process (see docs/cli.md).
//!
//! What is measured comes from the kernel: CPU time and peak resident memory from `wait4`'s
//! resource usage (the command and every child it waited for), the peak also from the
//! watchdog's sums (processes side by side), whichever is larger.

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// What a run may use.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProcessLimits {
    pub wall: Option<Duration>,
    /// Resident memory of the whole process group, in bytes.
    pub memory: Option<u64>,
}

/// Why the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The command exited (or was killed by a signal that was not ours).
    Exited(ExitStatus),
    /// Killed at the wall-time limit.
    Time,
    /// Killed at the memory limit.
    Memory,
    /// Killed because the run was interrupted.
    Interrupted,
}

/// A finished run.
#[derive(Debug)]
pub struct Run {
    pub ended: Ended,
    /// Standard output, up to [`MAX_STDOUT`] bytes (more is read and dropped).
    pub stdout: Vec<u8>,
    /// Whether standard output was longer than what was kept.
    pub stdout_cut: bool,
    /// The last lines of standard error (at most [`STDERR_TAIL`] bytes).
    pub stderr_tail: String,
    /// The last `frontier-states: N` line's N on standard error.
    pub states: Option<u64>,
    pub wall: Duration,
    /// User and system time of the command and the children it waited for.
    pub cpu: Duration,
    /// Peak resident memory in KiB.
    pub peak_kib: u64,
}

/// Standard output kept: a solution is text of a few KiB; this keeps a runaway writer from
/// filling memory.
pub const MAX_STDOUT: usize = 16 << 20;
/// Standard error kept, from its end: enough for an error message and a backtrace's top.
pub const STDERR_TAIL: usize = 4 << 10;
/// How the limits are held, as a run's sidecar records it.
pub const ENFORCEMENT: &str = "process group killed (SIGKILL) at --timeout, and at --max-memory by a watchdog summing its processes' resident memory from /proc every 5 ms or less";
/// The line by which a solver reports the states it explored.
pub const STATES_LINE: &str = "frontier-states:";

/// The watchdog's first interval, doubled up to [`MAX_POLL`]: a run of a millisecond is not
/// held for a long sleep, and a long one is not polled needlessly often.
const FIRST_POLL: Duration = Duration::from_micros(250);
const MAX_POLL: Duration = Duration::from_millis(5);
/// How long the output readers are waited for once the group is dead: a process that left the
/// group (`setsid`) may hold the pipes open forever.
const READERS_GRACE: Duration = Duration::from_secs(1);

/// Runs `command` with `/bin/sh -c`, `input` on its standard input (none: `/dev/null`), under
/// `limits`; `interrupted` is asked between polls.
pub fn run(
    command: &str,
    input: Option<Vec<u8>>,
    limits: ProcessLimits,
    interrupted: impl Fn() -> bool,
) -> io::Result<Run> {
    let started = Instant::now();
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let (sender, readers) = mpsc::channel::<Output>();
    if let (Some(mut stdin), Some(input)) = (child.stdin.take(), input) {
        // A solver that stops reading early closes the pipe: the write fails, which is its
        // business, not an error of the run.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let to_stdout = sender.clone();
    thread::spawn(move || to_stdout.send(Output::Stdout(read_capped(stdout))));
    thread::spawn(move || sender.send(Output::Stderr(read_tail(stderr))));

    let mut poll = FIRST_POLL;
    let mut peak_bytes = 0u64;
    let mut killed: Option<Ended> = None;
    let (status, usage) = loop {
        if let Some(reaped) = reap(pid, killed.is_some())? {
            break reaped;
        }
        if killed.is_none() {
            let resident = limits.memory.map(|_| group_resident_bytes(pid));
            peak_bytes = peak_bytes.max(resident.unwrap_or(0));
            let why = if interrupted() {
                Some(Ended::Interrupted)
            } else if limits.wall.is_some_and(|wall| started.elapsed() >= wall) {
                Some(Ended::Time)
            } else if resident.zip(limits.memory).is_some_and(|(r, max)| r > max) {
                Some(Ended::Memory)
            } else {
                None
            };
            if let Some(why) = why {
                kill_group(pid);
                killed = Some(why);
                continue;
            }
        }
        thread::sleep(poll);
        poll = (poll * 2).min(MAX_POLL);
    };
    let wall = started.elapsed();
    // Whatever the command left in its group (a forked child) goes with it.
    kill_group(pid);
    let (mut stdout, mut stderr) = ((Vec::new(), false), (String::new(), None));
    let deadline = Instant::now() + READERS_GRACE;
    for _ in 0..2 {
        match readers.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Output::Stdout(out)) => stdout = out,
            Ok(Output::Stderr(err)) => stderr = err,
            Err(_) => break,
        }
    }
    let cpu = timeval(usage.ru_utime) + timeval(usage.ru_stime);
    Ok(Run {
        ended: killed.unwrap_or(Ended::Exited(ExitStatus::from_raw(status))),
        stdout: stdout.0,
        stdout_cut: stdout.1,
        stderr_tail: stderr.0,
        states: stderr.1,
        wall,
        cpu,
        // ru_maxrss is in KiB on Linux.
        peak_kib: (usage.ru_maxrss.max(0) as u64).max(peak_bytes >> 10),
    })
}

/// What a reader thread hands back.
enum Output {
    Stdout((Vec<u8>, bool)),
    Stderr((String, Option<u64>)),
}

/// The exit status and resource usage of `pid` once it has ended (`wait` blocks until then).
fn reap(pid: libc::pid_t, wait: bool) -> io::Result<Option<(i32, libc::rusage)>> {
    let mut status = 0;
    // SAFETY: rusage is plain data, fully written by a successful wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if wait { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: wait4 on our own child with valid pointers.
        let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        match reaped {
            0 => return Ok(None),
            r if r == pid => return Ok(Some((status, usage))),
            _ => {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
}

/// Kills every process of the group led by `pid` (gone already: nothing to do).
fn kill_group(pid: libc::pid_t) {
    // SAFETY: a signal to a process group; ESRCH (none left) is fine.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// The resident memory of every process in the group `pgid`, summed, from `/proc/PID/stat`
/// (its fifth field is the group, its twenty-fourth the resident pages).
fn group_resident_bytes(pgid: libc::pid_t) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64;
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    let mut pages = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.as_encoded_bytes().iter().all(u8::is_ascii_digit) {
            continue;
        }
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The command name may hold spaces and parentheses: fields are counted after its
        // closing parenthesis (field 3 is the first after it).
        let Some((_, after)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
        if field(5) == Some(pgid as u64) {
            pages += field(24).unwrap_or(0);
        }
    }
    pages * page
}

/// Reads a stream to its end, keeping the first [`MAX_STDOUT`] bytes; whether more came.
fn read_capped(mut from: impl Read) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 8192];
    let mut cut = false;
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0 {
            break;
        }
        let room = MAX_STDOUT - kept.len();
        kept.extend_from_slice(&buffer[..n.min(room)]);
        cut |= n > room;
    }
    (kept, cut)
}

/// Reads a stream to its end, keeping its last [`STDERR_TAIL`] bytes (as text, whole lines)
/// and the last `frontier-states: N` line's N.
fn read_tail(from: impl Read) -> (String, Option<u64>) {
    use std::io::BufRead;
    let mut reader = io::BufReader::new(from);
    let mut tail: Vec<u8> = Vec::new();
    let mut states = None;
    let mut line = Vec::new();
    while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
        if let Some(n) = String::from_utf8_lossy(&line)
            .trim()
            .strip_prefix(STATES_LINE)
            .and_then(|n| n.trim().parse().ok())
        {
            states = Some(n);
        }
        tail.extend_from_slice(&line);
        if tail.len() > 2 * STDERR_TAIL {
            tail.drain(..tail.len() - STDERR_TAIL);
        }
        line.clear();
    }
    if tail.len() > STDERR_TAIL {
        tail.drain(..tail.len() - STDERR_TAIL);
        // From the first whole line on.
        if let Some(newline) = tail.iter().position(|&b| b == b'\n') {
            tail.drain(..=newline);
        }
    }
    (
        String::from_utf8_lossy(&tail).trim_end().to_string(),
        states,
    )
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(command: &str, limits: ProcessLimits) -> Run {
        run(command, None, limits, || false).unwrap()
    }

    #[test]
    fn output_exit_status_and_states_are_read() {
        let run = sh(
            "echo 'R U'; echo 'frontier-states: 12' >&2; echo oops >&2; exit 3",
            ProcessLimits::default(),
        );
        assert_eq!(String::from_utf8_lossy(&run.stdout), "R U\n");
        assert_eq!(run.states, Some(12));
        assert_eq!(run.stderr_tail, "frontier-states: 12\noops");
        match run.ended {
            Ended::Exited(status) => assert_eq!(status.code(), Some(3)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn standard_input_is_given() {
        let run = run(
            "tr a-z A-Z",
            Some(b"abc".to_vec()),
            ProcessLimits::default(),
            || false,
        )
        .unwrap();
        assert_eq!(run.stdout, b"ABC");
    }

    #[test]
    fn the_wall_limit_kills_the_whole_group() {
        let limits = ProcessLimits {
            wall: Some(Duration::from_millis(200)),
            memory: None,
        };
        // A child in the background holds the output pipe: it must die with the group, or
        // the run would wait for it.
        let run = sh("sleep 30 & sleep 30", limits);
        assert_eq!(run.ended, Ended::Time);
        assert!(run.wall < Duration::from_secs(5), "{:?}", run.wall);
    }

    #[test]
    fn an_interrupt_kills_the_run() {
        let run = run("sleep 30", None, ProcessLimits::default(), || true).unwrap();
        assert_eq!(run.ended, Ended::Interrupted);
    }
}
