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

/// Bytes kept of one connection or datagram.
const KEEP: usize = 64 * 1024;

/// What the parent asks for.
#[derive(Debug, Serialize, Deserialize)]
pub struct Spec {
    pub scripts: Vec<ScriptSpec>,
    pub env: Vec<(String, String)>,
    /// For all the scripts together, from the first one's start: their
    /// processes and what they leave running. A script still running then
    /// is killed, and the scripts after it are not started.
    pub deadline_ms: u64,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ScriptSpec {
    pub argv: Vec<String>,
    pub cwd: String,
}

/// What kind of traffic reached the sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SinkKind {
    /// A DNS query (the name is the data).
    Dns,
    /// A TLS handshake: its content is not visible.
    Tls,
    /// A plain HTTP request.
    Http,
    /// Any other bytes, or none.
    Tcp,
}

/// What the sink received.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SinkEvent {
    /// The index of the script running when it arrived.
    pub script: usize,
    pub kind: SinkKind,
    /// `GET http://host/path`, `dns name.example`, `tcp :5000`.
    pub summary: String,
    /// What was received, as text (invalid UTF-8 replaced).
    pub data: String,
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
}

type Events = Arc<Mutex<Vec<SinkEvent>>>;

/// TCP connections the sink accepted, and those it is still reading.
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);
static OPEN: AtomicUsize = AtomicUsize::new(0);

fn record(events: &Events, current: &AtomicUsize, kind: SinkKind, summary: String, data: &[u8]) {
    let event = SinkEvent {
        script: current.load(Ordering::SeqCst),
        kind,
        summary,
        data: String::from_utf8_lossy(&data[..data.len().min(KEEP)]).into_owned(),
    };
    if let Ok(mut all) = events.lock() {
        all.push(event);
    }
}

/// Runs `spec` (the JSON the parent passed) and returns the report the
/// caller prints as JSON on stdout (the scripts' own output goes nowhere).
pub fn run(spec: &str) -> Result<SandboxStartReport, serde_json::Error> {
    let spec: Spec = serde_json::from_str(spec)?;
    let events: Events = Arc::default();
    let current = Arc::new(AtomicUsize::new(0));
    let mut report = SandboxStartReport::default();
    start_sink(&events, &current, &mut report.unbound);
    let mut seen: Vec<u32> = Vec::new();
    let deadline = Instant::now() + Duration::from_millis(spec.deadline_ms);
    for (i, script) in spec.scripts.iter().enumerate() {
        // A script not started is not in the report: the parent names it.
        if Instant::now() >= deadline {
            break;
        }
        current.store(i, Ordering::SeqCst);
        report
            .scripts
            .push(run_one(script, &spec.env, deadline, &mut seen));
    }
    // Let the sink finish what arrived last: until no connection is being
    // read and none arrived for a moment (at most a second).
    let quiet = Instant::now();
    let mut seen_accepted = ACCEPTED.load(Ordering::SeqCst);
    loop {
        pause(Duration::from_millis(25));
        let now = ACCEPTED.load(Ordering::SeqCst);
        let idle = OPEN.load(Ordering::SeqCst) == 0 && now == seen_accepted;
        if idle || quiet.elapsed() > Duration::from_secs(1) {
            break;
        }
        seen_accepted = now;
    }
    report.sink = events.lock().map(|e| e.clone()).unwrap_or_default();
    Ok(report)
}

/// Waits without `nanosleep`: the sandbox's sleeps return at once (strace
/// skips them, docs/audit.md), and this process is traced too; a futex
/// wait with a timeout is not skipped.
fn pause(d: Duration) {
    std::thread::park_timeout(d);
}

fn run_one(
    script: &ScriptSpec,
    env: &[(String, String)],
    deadline: Instant,
    seen: &mut Vec<u32>,
) -> Outcome {
    let start = Instant::now();
    let Some((program, args)) = script.argv.split_first() else {
        return Outcome::default();
    };
    let child = std::process::Command::new(program)
        .args(args)
        .current_dir(&script.cwd)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                error: Some(e.to_string()),
                ..Outcome::default()
            };
        }
    };
    let mut out = Outcome::default();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                out.exit = status.code();
                break;
            }
            Ok(None) if Instant::now() >= deadline => {
                out.timed_out = true;
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            Ok(None) => pause(Duration::from_millis(5)),
            Err(_) => break,
        }
    }
    out.ms = start.elapsed().as_millis() as u64;
    // What is still running a moment after the script ended outlived it;
    // it may go on for LINGER more (a delayed payload is seen doing its
    // work), and the sandbox's end kills whatever is left.
    let prior = seen.clone();
    let grace = Instant::now();
    let mut left = others(seen);
    while !left.is_empty() && grace.elapsed() < Duration::from_millis(100) {
        pause(Duration::from_millis(10));
        left = others(seen);
    }
    out.outlived = left.iter().map(|(_, cmd)| cmd.clone()).collect();
    seen.extend(left.iter().map(|(pid, _)| *pid));
    let ended = Instant::now();
    while !others(&prior).is_empty() && Instant::now() < deadline && ended.elapsed() < LINGER {
        pause(Duration::from_millis(10));
    }
    out
}

/// Live processes of this PID namespace other than its first (bubblewrap's
/// reaper), this one and `seen`: (pid, command line).
fn others(seen: &[u32]) -> Vec<(u32, String)> {
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
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let state = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
        if state.starts_with('Z') || state.starts_with('X') || stat.is_empty() {
            continue;
        }
        let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        out.push((pid, cmd.trim().to_owned()));
    }
    out
}

fn start_sink(events: &Events, current: &Arc<AtomicUsize>, unbound: &mut Vec<String>) {
    match UdpSocket::bind("127.0.0.1:53") {
        Ok(socket) => {
            let (events, current) = (Arc::clone(events), Arc::clone(current));
            std::thread::spawn(move || serve_dns(&socket, &events, &current));
        }
        Err(e) => unbound.push(format!("udp 53: {e}")),
    }
    for port in PORTS {
        match TcpListener::bind(("127.0.0.1", *port)) {
            Ok(listener) => {
                let (events, current) = (Arc::clone(events), Arc::clone(current));
                std::thread::spawn(move || {
                    for stream in listener.incoming().flatten() {
                        let (events, current) = (Arc::clone(&events), Arc::clone(&current));
                        let port = *port;
                        ACCEPTED.fetch_add(1, Ordering::SeqCst);
                        OPEN.fetch_add(1, Ordering::SeqCst);
                        std::thread::spawn(move || {
                            serve_tcp(stream, port, &events, &current);
                            OPEN.fetch_sub(1, Ordering::SeqCst);
                        });
                    }
                });
            }
            Err(e) => unbound.push(format!("tcp {port}: {e}")),
        }
    }
}

fn serve_dns(socket: &UdpSocket, events: &Events, current: &AtomicUsize) {
    let mut buf = [0u8; 1500];
    while let Ok((n, from)) = socket.recv_from(&mut buf) {
        let packet = &buf[..n];
        let Some((name, qtype, end)) = dns_question(packet) else {
            continue;
        };
        record(
            events,
            current,
            SinkKind::Dns,
            format!("dns {name}"),
            name.as_bytes(),
        );
        let _ = socket.send_to(&dns_answer(packet, qtype, end), from);
    }
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

fn serve_tcp(mut stream: TcpStream, port: u16, events: &Events, current: &AtomicUsize) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(300)));
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    while data.len() < KEEP {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => data.extend_from_slice(&buf[..n]),
        }
        if request_complete(&data) {
            break;
        }
    }
    let text = String::from_utf8_lossy(&data);
    let mut kind = SinkKind::Http;
    let summary = if METHODS.iter().any(|m| text.starts_with(m)) {
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
            .unwrap_or_else(|| format!("127.0.0.1:{port}"));
        let scheme = if port == 443 || port == 8443 {
            "https"
        } else {
            "http"
        };
        format!("{method} {scheme}://{host}{path}")
    } else if data.starts_with(&[0x16, 0x03]) {
        kind = SinkKind::Tls;
        format!("tls 127.0.0.1:{port}")
    } else {
        kind = SinkKind::Tcp;
        format!("tcp 127.0.0.1:{port} ({} bytes)", data.len())
    };
    // Recorded before the answer: a client that waits for it is seen
    // before its script goes on (or ends).
    record(events, current, kind, summary, &data);
    if kind == SinkKind::Http {
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            BODY.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(BODY);
    }
}

/// An HTTP request's head has arrived and its body is as long as its
/// `Content-Length` says.
fn request_complete(data: &[u8]) -> bool {
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
    }
}
