//! The sandbox's own first process (`skillpm __sandbox-init SPEC`), run by
//! bubblewrap inside the new namespaces (docs/audit.md, "Running a skill:
//! audit --run"). It binds the loopback sink (a DNS server that answers
//! every name with 127.0.0.1, and TCP listeners that take whatever is sent
//! and answer HTTP requests with an empty shell script), runs the skill's
//! scripts one after the other, notes the processes a script leaves
//! running, and prints what it saw as one JSON line on stdout. The
//! syscalls themselves are recorded by strace outside the sandbox, where
//! no script can reach the record.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, UdpSocket};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The TCP ports the sink listens on (every name resolves to 127.0.0.1).
pub const PORTS: &[u16] = &[80, 443, 3000, 5000, 8000, 8080, 8443, 8888];

/// How long what a script leaves running may go on after it exited (within
/// the deadline): long enough to see a delayed payload act, as sleeps
/// return at once in the sandbox.
const LINGER: Duration = Duration::from_secs(1);

/// How many of a skill's scripts run at once: they start side by side, so
/// a skill of many small scripts costs about its slowest one, not their sum.
const AT_ONCE: usize = 4;

/// Bytes kept of one connection or datagram.
const KEEP: usize = 64 * 1024;

/// What the parent asks for.
#[derive(Debug, Serialize, Deserialize)]
pub struct Spec {
    pub scripts: Vec<ScriptSpec>,
    pub env: Vec<(String, String)>,
    /// For all the scripts together, from the sandbox's start: their
    /// processes and what they leave running, counted on the sandbox's own
    /// clock ([`Clock`]: time its processes waited for a CPU the machine
    /// gave to others does not count). A script still running then is
    /// killed, and the scripts not started by then are not started.
    pub deadline_ms: u64,
    /// The wall-clock time the run may take however loaded the machine is
    /// (from the sandbox's start): past it, the run ends as at the deadline.
    pub wall_cap_ms: u64,
    /// When the parent started the sandbox (milliseconds since the Unix
    /// epoch): the deadline counts from then.
    pub started_ms: u64,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ScriptSpec {
    pub argv: Vec<String>,
    pub cwd: String,
    /// What the script reads on stdin (a hook's event); `None`: nothing.
    pub stdin: Option<String>,
}

/// What kind of traffic reached the sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SinkKind {
    /// A DNS query (the name is the data).
    Dns,
    /// A TLS handshake that did not carry a request (the client did not
    /// trust the run's authority, or sent nothing): only the server name
    /// it asked for is known.
    Tls,
    /// What a client sent over TLS once the sink's certificate was
    /// accepted (docs/audit.md, "Encrypted traffic"): a request, read as
    /// plainly as HTTP.
    Https,
    /// A plain HTTP request.
    Http,
    /// Any other bytes, or none.
    Tcp,
}

/// What the sink received.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SinkEvent {
    /// The index of the script started last when it arrived (the parent
    /// finds the script that sent it by [`SinkEvent::socket`] when it can).
    pub script: usize,
    /// The sender's socket (its inode, as strace's record names it:
    /// `TCP:[123456]`), 0 when unknown.
    #[serde(default)]
    pub socket: u64,
    pub kind: SinkKind,
    /// `GET http://host/path`, `POST https://host/path`, `dns name.example`,
    /// `tls name.example:443`, `tcp :5000`.
    pub summary: String,
    /// What was received, as text (invalid UTF-8 replaced).
    pub data: String,
    /// The server name a TLS client asked for (empty otherwise).
    #[serde(default)]
    pub server_name: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Outcome {
    /// The exit code; `None` when killed or ended by a signal.
    pub exit: Option<i32>,
    pub timed_out: bool,
    pub ms: u64,
    /// Command lines of processes still running after the script exited.
    pub outlived: Vec<String>,
    /// Why the script could not be started, if it could not.
    pub error: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct SandboxStartReport {
    pub scripts: Vec<Outcome>,
    pub sink: Vec<SinkEvent>,
    /// Sink ports that could not be bound (the run is still made).
    pub unbound: Vec<String>,
    /// Wall-clock time the sandbox's processes waited for a CPU that the
    /// machine gave to others ([`Clock`]): not counted in the deadline.
    pub waited_ms: u64,
    /// The run ended at the wall-clock cap, not at the deadline.
    pub capped: bool,
}

type Events = Arc<Mutex<Vec<SinkEvent>>>;

/// TCP connections the sink accepted, and those it is still reading.
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);
static OPEN: AtomicUsize = AtomicUsize::new(0);

fn record(
    events: &Events,
    current: &AtomicUsize,
    socket: u64,
    kind: SinkKind,
    summary: String,
    data: &[u8],
) {
    let event = SinkEvent {
        script: current.load(Ordering::SeqCst),
        socket,
        kind,
        summary,
        data: String::from_utf8_lossy(&data[..data.len().min(KEEP)]).into_owned(),
        server_name: String::new(),
    };
    if let Ok(mut all) = events.lock() {
        all.push(event);
    }
}

/// Runs `spec` (the JSON the parent passed) and returns the report the
/// caller prints as JSON on stdout (the scripts' own output goes nowhere).
/// The run's certificate authority's key (PKCS#8) comes on stdin, so it is
/// in no file or command line a script could read; without one, the sink
/// takes a TLS client's first record only.
pub fn run(spec: &str) -> Result<SandboxStartReport, serde_json::Error> {
    let spec: Spec = serde_json::from_str(spec)?;
    // Undumpable before the key arrives: its memory (`/proc/PID/mem`,
    // `process_vm_readv`) is then closed to the scripts, which run as the
    // same user without capabilities (docs/audit.md, "Encrypted traffic").
    // Without it, the key comes all the same: the scripts can learn it,
    // which gives them nothing outside their own run.
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    let mut key = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut key);
    // The TLS server is made by the sink at the first handshake (its
    // crypto's start costs tens of milliseconds on a loaded machine, which
    // a run without TLS does not pay before its scripts start).
    let tls = (!key.is_empty()).then_some(key);
    let events: Events = Arc::default();
    let current = Arc::new(AtomicUsize::new(0));
    let mut report = SandboxStartReport::default();
    // The deadline counts from the sandbox's start (the parent's clock is
    // this one: no time namespace), so setting it up is inside it too.
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let spent = now_ms.saturating_sub(spec.started_ms).min(spec.wall_cap_ms);
    let now = Instant::now();
    let mut clock = Clock::new(
        now.checked_sub(Duration::from_millis(spent)).unwrap_or(now),
        Duration::from_millis(spec.deadline_ms),
        Duration::from_millis(spec.wall_cap_ms.max(spec.deadline_ms)),
    );
    start_sink(&events, &current, tls, &mut report.unbound);
    report.scripts = run_all(&spec, &mut clock, &current);
    // Let the sink finish what arrived last: until no connection is being
    // read and none arrived for a moment (at most a second, and not past
    // the deadline by more than a moment).
    let quiet = Instant::now();
    let until = quiet + clock.left().clamp(SETTLE, Duration::from_secs(1));
    let mut seen_accepted = ACCEPTED.load(Ordering::SeqCst);
    loop {
        pause(Duration::from_millis(10));
        let now = ACCEPTED.load(Ordering::SeqCst);
        let idle = OPEN.load(Ordering::SeqCst) == 0 && now == seen_accepted;
        if idle || Instant::now() >= until {
            break;
        }
        seen_accepted = now;
    }
    report.sink = events.lock().map(|e| e.clone()).unwrap_or_default();
    report.waited_ms = clock.not_counted().as_millis() as u64;
    report.capped = clock.capped;
    Ok(report)
}

/// How often the clock reads what the sandbox's processes waited.
const CLOCK_EVERY: Duration = Duration::from_millis(25);

/// The sandbox's own clock (docs/audit.md, "The deadline"): the wall-clock
/// time since the sandbox's start, less the time its work waited for a
/// CPU that the machine gave to others, so a loaded machine does not cut a
/// run short. That wait is the kernel's own account of each process
/// (`/proc/PID/schedstat`, its second field: time runnable but not
/// running), read every [`CLOCK_EVERY`]: over each such interval, the
/// largest wait of any live process (time in which the run's most held-back
/// line of work made no progress; processes side by side are not added up),
/// summed over the intervals; plus strace's own wait, outside
/// ([`tracer_wait`]: a process stopped at a recorded syscall waits for
/// strace). A process that sleeps, waits for input or works on a CPU it has
/// spends the clock as on an idle machine; one that keeps the CPUs busy
/// itself only slows the clock, which gives the run more time to be seen,
/// up to the wall-clock cap. Never faster than the wall clock.
struct Clock {
    start: Instant,
    deadline: Duration,
    cap: Duration,
    /// The wait summed so far (without strace's).
    waited: Duration,
    /// strace's wait, as last read.
    tracer: Duration,
    /// Where it is read ([`tracer_wait`]), kept open: every open here is a
    /// stop for strace too.
    tracer_file: Option<std::fs::File>,
    /// `/proc`, kept open and read again from its start.
    proc_dir: Option<rustix::fs::Dir>,
    /// Each process's `schedstat`, kept open, and its wait when last read.
    procs: std::collections::HashMap<u32, (std::fs::File, u64)>,
    /// When the waits were last read.
    read_at: Instant,
    /// The wall-clock cap ended the run.
    capped: bool,
}

impl Clock {
    fn new(start: Instant, deadline: Duration, cap: Duration) -> Clock {
        let mut clock = Clock {
            start,
            deadline,
            cap,
            waited: Duration::ZERO,
            tracer: Duration::ZERO,
            tracer_file: std::fs::File::open(super::TRACER_WAIT).ok(),
            proc_dir: std::fs::File::open("/proc")
                .ok()
                .and_then(|f| rustix::fs::Dir::read_from(&f).ok()),
            procs: std::collections::HashMap::new(),
            // The first reading covers the time since the sandbox's start.
            read_at: start,
            capped: false,
        };
        clock.read_waits();
        clock
    }

    /// The wait of this interval: the largest growth of any live process's
    /// wait since the last reading (a process seen for the first time
    /// counts all of its own), at most the interval itself.
    fn read_waits(&mut self) {
        use std::os::unix::fs::FileExt as _;
        let interval = self.read_at.elapsed();
        self.read_at = Instant::now();
        let Some(dir) = self.proc_dir.as_mut() else {
            return;
        };
        dir.rewind();
        let pids: Vec<u32> = std::iter::from_fn(|| dir.read())
            .filter_map(|e| e.ok()?.file_name().to_str().ok()?.parse().ok())
            .collect();
        let mut live = std::collections::HashMap::new();
        let mut most = 0u64;
        let mut buf = [0u8; 128];
        for pid in pids {
            // A process seen before is read through the file kept open (no
            // new open: this process is traced too); a pid used again
            // after its process ended fails there and is opened anew.
            let known = self.procs.remove(&pid);
            let read = |file: &std::fs::File, buf: &mut [u8]| {
                let n = file.read_at(buf, 0).ok()?;
                std::str::from_utf8(&buf[..n])
                    .ok()?
                    .split_whitespace()
                    .nth(1)?
                    .parse::<u64>()
                    .ok()
            };
            let (file, before, now) = match known {
                Some((file, before)) => match read(&file, &mut buf) {
                    Some(now) => (file, before, now),
                    None => continue,
                },
                None => {
                    let Ok(file) = std::fs::File::open(format!("/proc/{pid}/schedstat")) else {
                        continue;
                    };
                    let Some(now) = read(&file, &mut buf) else {
                        continue;
                    };
                    (file, 0, now)
                }
            };
            most = most.max(now.saturating_sub(before));
            live.insert(pid, (file, now));
        }
        self.procs = live;
        self.waited += Duration::from_nanos(most).min(interval);
    }

    /// The deadline (or the cap) has come.
    fn expired(&mut self) -> bool {
        let wall = self.start.elapsed();
        if wall >= self.cap {
            self.capped = true;
            return true;
        }
        if self.read_at.elapsed() >= CLOCK_EVERY {
            self.read_waits();
        }
        if wall < self.deadline {
            return false;
        }
        // strace's wait is read once the wall-clock time reaches the
        // deadline (before that the own time, never more, cannot have).
        self.tracer = self.tracer.max(tracer_wait(self.tracer_file.as_ref()));
        self.own() >= self.deadline
    }

    /// The sandbox's own time so far.
    fn own(&self) -> Duration {
        self.start
            .elapsed()
            .saturating_sub(self.waited + self.tracer)
    }

    /// Own time left before the deadline (or wall-clock time before the
    /// cap, if less).
    fn left(&mut self) -> Duration {
        if self.expired() {
            return Duration::ZERO;
        }
        self.deadline
            .saturating_sub(self.own())
            .min(self.cap.saturating_sub(self.start.elapsed()))
    }

    /// All the wait the clock did not count.
    fn not_counted(&self) -> Duration {
        self.waited + self.tracer
    }
}

/// The time strace, outside, waited for a CPU (the parent writes it to
/// [`super::TRACER_WAIT`] as it goes): a traced process stopped at a
/// recorded syscall waits for strace, so that is time its work could not
/// go on either. Zero when not written. `file` is [`super::TRACER_WAIT`],
/// read from its start each time.
fn tracer_wait(file: Option<&std::fs::File>) -> Duration {
    use std::os::unix::fs::FileExt as _;
    let mut buf = [0u8; 32];
    file.and_then(|f| f.read_at(&mut buf, 0).ok())
        .and_then(|n| {
            std::str::from_utf8(&buf[..n])
                .ok()?
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// How long a connection that arrived at the deadline may still be read.
const SETTLE: Duration = Duration::from_millis(100);

/// How long after a script's own process ended what it started may take to
/// end too before it counts as having outlived the script.
const GRACE: Duration = Duration::from_millis(100);

/// One script of the run and where it is.
enum State {
    Waiting,
    Running {
        child: std::process::Child,
        start: Instant,
    },
    /// Its own process ended; what it started is looked at after [`GRACE`].
    Ended {
        outcome: Outcome,
        at: Instant,
    },
    Done(Outcome),
}

/// Runs the scripts side by side ([`AT_ONCE`] at a time, in their order),
/// each in a process group of its own (so what each one started is known
/// by its group), until they end or the deadline comes. A script still
/// running then is killed; one not started by then is not in the result
/// (the parent names it).
fn run_all(spec: &Spec, clock: &mut Clock, current: &AtomicUsize) -> Vec<Outcome> {
    let n = spec.scripts.len();
    let mut states: Vec<State> = (0..n).map(|_| State::Waiting).collect();
    // Each started script's process group (its own process's pid).
    let mut groups: Vec<u32> = vec![0; n];
    let mut seen: Vec<u32> = Vec::new();
    let mut last_end = Instant::now();
    loop {
        let now = Instant::now();
        let expired = clock.expired();
        let running = states
            .iter()
            .filter(|s| matches!(s, State::Running { .. }))
            .count();
        if !expired
            && running < AT_ONCE
            && let Some(i) = states.iter().position(|s| matches!(s, State::Waiting))
        {
            current.store(i, Ordering::SeqCst);
            states[i] = match spawn(&spec.scripts[i], &spec.env) {
                Ok(child) => {
                    groups[i] = child.id();
                    State::Running { child, start: now }
                }
                Err(e) => State::Done(Outcome {
                    error: Some(e.to_string()),
                    ..Outcome::default()
                }),
            };
            continue;
        }
        for state in &mut states {
            let State::Running { child, start } = state else {
                continue;
            };
            let (exit, timed_out) = match child.try_wait() {
                Ok(Some(status)) => (status.code(), false),
                Ok(None) if expired => {
                    let _ = child.kill();
                    let _ = child.wait();
                    (None, true)
                }
                Ok(None) => continue,
                Err(_) => (None, false),
            };
            let outcome = Outcome {
                exit,
                timed_out,
                ms: start.elapsed().as_millis() as u64,
                ..Outcome::default()
            };
            let group = child.id();
            last_end = now;
            *state = if timed_out {
                // What it would have done later is not known; what it left
                // running ends with the sandbox.
                seen.extend(
                    others(&seen)
                        .iter()
                        .filter(|p| p.group == group)
                        .map(|p| p.pid),
                );
                State::Done(outcome)
            } else {
                State::Ended { outcome, at: now }
            };
        }
        // What is still running a moment after a script ended outlived it:
        // the processes of its group, and any that left their group (set
        // apart from every script's group, the first script to end takes them).
        let mut live: Option<Vec<Proc>> = None;
        for (i, state) in states.iter_mut().enumerate() {
            let State::Ended { at, .. } = state else {
                continue;
            };
            let group = groups[i];
            let left: Vec<Proc> = live
                .get_or_insert_with(|| others(&seen))
                .iter()
                .filter(|p| !seen.contains(&p.pid))
                .filter(|p| p.group == group || !groups.contains(&p.group))
                .cloned()
                .collect();
            if !left.is_empty() && at.elapsed() < GRACE && !expired {
                continue;
            }
            seen.extend(left.iter().map(|p| p.pid));
            let State::Ended { mut outcome, .. } = std::mem::replace(state, State::Waiting) else {
                continue;
            };
            outcome.outlived = left.into_iter().map(|p| p.cmd).collect();
            *state = State::Done(outcome);
        }
        let all_done = states.iter().all(|s| matches!(s, State::Done(_)));
        let none_left = states
            .iter()
            .all(|s| matches!(s, State::Done(_) | State::Waiting));
        if all_done || (expired && none_left) {
            break;
        }
        pause(Duration::from_millis(5));
    }
    // What the scripts left running may go on for LINGER more (a delayed
    // payload is seen doing its work), within the deadline; the sandbox's
    // end kills whatever is left.
    while !others(&[]).is_empty() && !clock.expired() && last_end.elapsed() < LINGER {
        pause(Duration::from_millis(10));
    }
    states
        .into_iter()
        .map_while(|s| match s {
            State::Done(outcome) => Some(outcome),
            _ => None,
        })
        .collect()
}

/// Starts one script in a process group of its own, output discarded;
/// stdin is its hook's event and then its end, else empty (`/dev/null`).
/// The event is far smaller than a pipe's buffer: writing it never waits
/// for the script to read.
fn spawn(script: &ScriptSpec, env: &[(String, String)]) -> std::io::Result<std::process::Child> {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    use std::process::Stdio;
    let Some((program, args)) = script.argv.split_first() else {
        return Err(std::io::Error::other("no command"));
    };
    let mut child = std::process::Command::new(program)
        .args(args)
        .current_dir(&script.cwd)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(
            script
                .stdin
                .as_ref()
                .map_or_else(Stdio::null, |_| Stdio::piped()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    if let (Some(mut pipe), Some(input)) = (child.stdin.take(), &script.stdin) {
        // A script that exits without reading closes the pipe: not an error.
        let _ = pipe.write_all(input.as_bytes());
    }
    Ok(child)
}

/// Waits without `nanosleep`: the sandbox's sleeps return at once (strace
/// skips them, docs/audit.md), and this process is traced too; a futex
/// wait with a timeout is not skipped.
fn pause(d: Duration) {
    std::thread::park_timeout(d);
}

/// A live process of the sandbox.
#[derive(Clone)]
struct Proc {
    pid: u32,
    /// Its process group.
    group: u32,
    /// Its command line.
    cmd: String,
}

/// Live processes of this PID namespace other than its first (bubblewrap's
/// reaper), this one and `seen`.
fn others(seen: &[u32]) -> Vec<Proc> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == 1 || pid == me || seen.contains(&pid) {
            continue;
        }
        // `pid (comm) state ppid pgrp …`
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let mut fields = stat
            .rsplit_once(") ")
            .map_or("", |(_, rest)| rest)
            .split(' ');
        let state = fields.next().unwrap_or_default();
        if state.starts_with('Z') || state.starts_with('X') || stat.is_empty() {
            continue;
        }
        let group = fields.nth(1).and_then(|g| g.parse().ok()).unwrap_or(0);
        let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        out.push(Proc {
            pid,
            group,
            cmd: cmd.trim().to_owned(),
        });
    }
    out
}

/// Binds the sink (UDP 53 and the TCP [`PORTS`] on 127.0.0.1) and serves
/// it from one thread that polls its sockets: under strace every thread a
/// traced process starts costs an attach, so the sink makes no more than one.
fn start_sink(
    events: &Events,
    current: &Arc<AtomicUsize>,
    tls: Option<Vec<u8>>,
    unbound: &mut Vec<String>,
) {
    let dns =
        match UdpSocket::bind("127.0.0.1:53").and_then(|s| s.set_nonblocking(true).map(|()| s)) {
            Ok(socket) => Some(socket),
            Err(e) => {
                unbound.push(format!("udp 53: {e}"));
                None
            }
        };
    let mut listeners = Vec::new();
    for port in PORTS {
        match TcpListener::bind(("127.0.0.1", *port))
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
        {
            Ok(listener) => listeners.push((*port, listener)),
            Err(e) => unbound.push(format!("tcp {port}: {e}")),
        }
    }
    let (events, current) = (Arc::clone(events), Arc::clone(current));
    std::thread::spawn(move || serve(dns.as_ref(), &listeners, tls, &events, &current));
}

/// The inode of the socket of this network namespace bound to `port` (the
/// sender's own port), from `table` (`/proc/net/tcp`, `udp`:
/// `sl local_address rem_address st … uid timeout inode`, addresses in
/// hex). 0 when it is gone or unknown.
fn socket_of(table: &str, port: u16) -> u64 {
    let local = format!(":{port:04X}");
    std::fs::read_to_string(table)
        .unwrap_or_default()
        .lines()
        .skip(1)
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.get(1).is_some_and(|a| a.ends_with(&local)))
        .and_then(|f| f.get(9)?.parse().ok())
        .unwrap_or(0)
}

/// A connection the sink is reading.
struct Conn {
    stream: TcpStream,
    port: u16,
    /// What arrived: the bytes as sent, or over TLS what they decrypt to.
    data: Vec<u8>,
    /// The TLS server side, once the client began a handshake (and the
    /// run has an authority).
    tls: Option<Box<rustls::ServerConnection>>,
    /// When bytes last arrived (or it was accepted).
    last: Instant,
}

/// How long a connection may send nothing before what it sent is taken.
const READ_IDLE: Duration = Duration::from_millis(300);

/// The same over TLS: a client checks the sink's certificate and reads its
/// CA bundle between the handshake's steps, which on a loaded machine, each
/// file it opens a stop for strace, takes longer than a plain client's
/// pause.
const TLS_IDLE: Duration = Duration::from_secs(2);

fn serve(
    dns: Option<&UdpSocket>,
    listeners: &[(u16, TcpListener)],
    key: Option<Vec<u8>>,
    events: &Events,
    current: &AtomicUsize,
) {
    let mut conns: Vec<Conn> = Vec::new();
    let mut tls: Option<Option<Arc<rustls::ServerConfig>>> = None;
    let mut buf = vec![0u8; 8192];
    loop {
        let mut busy = false;
        if let Some(socket) = dns {
            while let Ok((n, from)) = socket.recv_from(&mut buf) {
                busy = true;
                answer_dns(socket, &buf[..n], from, events, current);
            }
        }
        for (port, listener) in listeners {
            while let Ok((stream, _)) = listener.accept() {
                busy = true;
                ACCEPTED.fetch_add(1, Ordering::SeqCst);
                OPEN.fetch_add(1, Ordering::SeqCst);
                let _ = stream.set_nonblocking(true);
                conns.push(Conn {
                    stream,
                    port: *port,
                    data: Vec::new(),
                    tls: None,
                    last: Instant::now(),
                });
            }
        }
        let mut i = 0;
        while i < conns.len() {
            let conn = &mut conns[i];
            let done = loop {
                match conn.stream.read(&mut buf) {
                    Ok(0) => break true,
                    Ok(n) => {
                        busy = true;
                        conn.last = Instant::now();
                        // A handshake's first bytes, on any port: the sink
                        // answers as the server the client asked for.
                        if conn.data.is_empty()
                            && conn.tls.is_none()
                            && buf[..n].starts_with(&[0x16, 0x03])
                        {
                            let config = tls.get_or_insert_with(|| {
                                key.as_deref()
                                    .and_then(|k| super::tls::server_config(k).ok())
                            });
                            conn.tls = config
                                .as_ref()
                                .and_then(|c| rustls::ServerConnection::new(Arc::clone(c)).ok())
                                .map(Box::new);
                        }
                        match conn.tls.as_deref_mut() {
                            Some(server) => {
                                if !decrypt(server, &buf[..n], &mut conn.stream, &mut conn.data) {
                                    break true;
                                }
                            }
                            None => conn.data.extend_from_slice(&buf[..n]),
                        }
                        if conn.data.len() >= KEEP || request_complete(&conn.data) {
                            break true;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        let idle = match conn.tls.as_deref_mut() {
                            Some(server) => {
                                flush(server, &mut conn.stream);
                                TLS_IDLE
                            }
                            None => READ_IDLE,
                        };
                        break conn.last.elapsed() > idle;
                    }
                    Err(_) => break true,
                }
            };
            if done {
                let conn = conns.swap_remove(i);
                serve_tcp(conn, events, current);
                OPEN.fetch_sub(1, Ordering::SeqCst);
            } else {
                i += 1;
            }
        }
        if !busy {
            pause(Duration::from_millis(2));
        }
    }
}

fn answer_dns(
    socket: &UdpSocket,
    packet: &[u8],
    from: std::net::SocketAddr,
    events: &Events,
    current: &AtomicUsize,
) {
    let Some((name, qtype, end)) = dns_question(packet) else {
        return;
    };
    record(
        events,
        current,
        socket_of("/proc/net/udp", from.port()),
        SinkKind::Dns,
        format!("dns {name}"),
        name.as_bytes(),
    );
    let _ = socket.send_to(&dns_answer(packet, qtype, end), from);
}

/// The first question of a DNS query: name, type, and where it ends.
fn dns_question(packet: &[u8]) -> Option<(String, u16, usize)> {
    let mut at = 12;
    let mut labels = Vec::new();
    loop {
        let len = *packet.get(at)? as usize;
        at += 1;
        if len == 0 {
            break;
        }
        if len > 63 {
            return None;
        }
        labels.push(String::from_utf8_lossy(packet.get(at..at + len)?).into_owned());
        at += len;
    }
    let qtype = u16::from_be_bytes([*packet.get(at)?, *packet.get(at + 1)?]);
    Some((labels.join("."), qtype, at + 4))
}

/// The answer: every A query gets 127.0.0.1, anything else no records.
fn dns_answer(query: &[u8], qtype: u16, end: usize) -> Vec<u8> {
    let question = &query[12..end.min(query.len())];
    let answers: u16 = if qtype == 1 { 1 } else { 0 };
    let mut out = Vec::with_capacity(end + 16);
    out.extend_from_slice(&query[..2]);
    out.extend_from_slice(&[0x81, 0x80, 0, 1]);
    out.extend_from_slice(&answers.to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(question);
    if answers == 1 {
        out.extend_from_slice(&[0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1]);
    }
    out
}

const METHODS: &[&str] = &[
    "GET ", "POST ", "PUT ", "HEAD ", "PATCH ", "DELETE ", "OPTIONS ",
];

/// The body served to every HTTP request: a script that does nothing, in
/// the form every interpreter reads as a comment.
const BODY: &[u8] = b"#!/bin/sh\n";

/// Feeds what a TLS client sent to the sink's server side, adds what it
/// decrypts to to `plain` and sends the server's answer. False when the
/// handshake failed (the client did not accept the certificate) or the
/// client closed.
fn decrypt(
    server: &mut rustls::ServerConnection,
    mut bytes: &[u8],
    stream: &mut TcpStream,
    plain: &mut Vec<u8>,
) -> bool {
    while !bytes.is_empty() {
        match server.read_tls(&mut bytes) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {}
        }
        if server.process_new_packets().is_err() {
            flush(server, stream);
            return false;
        }
        // What is not there yet is `WouldBlock`; what was read is kept.
        let _ = server.reader().read_to_end(plain);
    }
    flush(server, stream);
    true
}

/// Sends what the TLS server side has to send (on a non-blocking socket,
/// what does not fit now is sent on the next call).
fn flush(server: &mut rustls::ServerConnection, stream: &mut TcpStream) {
    while server.wants_write() {
        if !matches!(server.write_tls(stream), Ok(n) if n > 0) {
            break;
        }
    }
}

/// `METHOD scheme://host/path` of an HTTP request (`host` from its `Host`
/// header, else `fallback`), or `None` when `text` is not one.
fn request_line(text: &str, scheme: &str, fallback: &str) -> Option<String> {
    if !METHODS.iter().any(|m| text.starts_with(m)) {
        return None;
    }
    let line = text.lines().next().unwrap_or_default();
    let mut words = line.split_whitespace();
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let host = text
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("host"))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| fallback.to_owned());
    Some(format!("{method} {scheme}://{host}{path}"))
}

/// The answer to every HTTP request: [`BODY`].
fn answer() -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        BODY.len()
    )
    .into_bytes();
    out.extend_from_slice(BODY);
    out
}

/// Records what a connection sent and answers an HTTP request (plain or
/// over TLS) with [`BODY`].
fn serve_tcp(conn: Conn, events: &Events, current: &AtomicUsize) {
    let Conn {
        mut stream,
        port,
        data,
        tls,
        ..
    } = conn;
    // Recorded before the answer: a client that waits for it is seen
    // before its script goes on (or ends).
    let from = stream
        .peer_addr()
        .map_or(0, |a| socket_of("/proc/net/tcp", a.port()));
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(READ_IDLE));
    if let Some(mut server) = tls {
        let name = server.server_name().unwrap_or("127.0.0.1").to_owned();
        if server.is_handshaking() || data.is_empty() {
            // The client did not accept the certificate (it pins its own,
            // or trusts only what the sandbox cannot give it), or sent
            // nothing: a contact by name.
            record(
                events,
                current,
                from,
                SinkKind::Tls,
                format!("tls {name}:{port}"),
                name.as_bytes(),
            );
            return;
        }
        let text = String::from_utf8_lossy(&data);
        let request = request_line(&text, "https", &name);
        let summary = request
            .clone()
            .unwrap_or_else(|| format!("tls {name}:{port} ({} bytes)", data.len()));
        record(events, current, from, SinkKind::Https, summary, &data);
        if let Ok(mut all) = events.lock()
            && let Some(last) = all.last_mut()
        {
            last.server_name = name;
        }
        if request.is_some() {
            let _ = std::io::Write::write_all(&mut server.writer(), &answer());
        }
        server.send_close_notify();
        while server.wants_write() {
            if !matches!(server.write_tls(&mut stream), Ok(n) if n > 0) {
                break;
            }
        }
        return;
    }
    let text = String::from_utf8_lossy(&data);
    let scheme = if port == 443 || port == 8443 {
        "https"
    } else {
        "http"
    };
    let (kind, summary) = match request_line(&text, scheme, &format!("127.0.0.1:{port}")) {
        Some(line) => (SinkKind::Http, line),
        None if data.starts_with(&[0x16, 0x03]) => (SinkKind::Tls, format!("tls 127.0.0.1:{port}")),
        None => (
            SinkKind::Tcp,
            format!("tcp 127.0.0.1:{port} ({} bytes)", data.len()),
        ),
    };
    record(events, current, from, kind, summary, &data);
    if kind == SinkKind::Http {
        let _ = stream.write_all(&answer());
    }
}

/// An HTTP request's head has arrived and its body is as long as its
/// `Content-Length` says, or a TLS handshake's first record has (its
/// content cannot be read: there is nothing more to wait for).
fn request_complete(data: &[u8]) -> bool {
    if let [0x16, 0x03, _, high, low, ..] = data {
        return data.len() >= 5 + usize::from(u16::from_be_bytes([*high, *low]));
    }
    let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&data[..end]);
    let length = head
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
                .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        })
        .unwrap_or(0);
    // A body sent in chunks is complete with its last, empty chunk.
    let chunked = head.lines().any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.eq_ignore_ascii_case("transfer-encoding")
                && v.to_ascii_lowercase().contains("chunked")
        })
    });
    if chunked {
        return data[end + 4..].ends_with(b"0\r\n\r\n");
    }
    data.len() >= end + 4 + length
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_questions_are_read_and_answered_with_loopback() {
        // id 0x1234, one question: a.example A IN.
        let mut q = vec![0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0];
        q.extend_from_slice(b"\x01a\x07example\x00\x00\x01\x00\x01");
        let (name, qtype, end) = dns_question(&q).unwrap();
        assert_eq!((name.as_str(), qtype, end), ("a.example", 1, q.len()));
        let answer = dns_answer(&q, qtype, end);
        assert_eq!(&answer[..2], &[0x12, 0x34]);
        assert_eq!(&answer[answer.len() - 4..], &[127, 0, 0, 1]);
    }

    #[test]
    fn a_request_is_complete_with_its_body() {
        assert!(!request_complete(
            b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nab"
        ));
        assert!(request_complete(
            b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        ));
        assert!(request_complete(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        // A body in chunks is complete with its last chunk.
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n";
        assert!(!request_complete(chunked));
        assert!(request_complete(&[&chunked[..], b"0\r\n\r\n"].concat()));
        // A TLS ClientHello is complete with its first record.
        assert!(!request_complete(&[0x16, 3, 1, 0, 4, 1, 0]));
        assert!(request_complete(&[0x16, 3, 1, 0, 4, 1, 0, 0, 0]));
    }
}
