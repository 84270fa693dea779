//! From what one script was seen doing to findings (docs/audit.md,
//! "Running a skill: audit --run"; the rules are `audit::behaviour`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::canary::{self, Canary, Needles};
use super::init::{Outcome, SinkEvent, SinkKind};
use super::trace::Call;
use crate::audit::Finding;
use crate::audit::behaviour::finding;

/// What the judge knows besides the calls.
pub struct Known<'a> {
    pub canaries: &'a [Canary],
    pub needles: &'a Needles,
    /// The real user's home folder (outside the sandbox), if known.
    pub real_home: Option<&'a str>,
}

/// Paths that run code again later, relative to the fake home when they
/// do not start with `/`; a path *containing* one of [`PERSIST_ANYWHERE`]
/// counts too.
const PERSIST_HOME: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".config/fish/",
    ".ssh/authorized_keys",
    ".config/autostart/",
    ".config/systemd/",
    "Library/LaunchAgents/",
    "Library/LaunchDaemons/",
    ".local/share/systemd/",
    ".gitconfig",
    ".config/git/",
    ".codex/config.toml",
    ".cursor/",
];
const PERSIST_ABSOLUTE: &[&str] = &["/etc/", "/var/spool/cron", "/Library/Launch"];
/// Anywhere: git hooks, an agent's settings (its hooks run on every tool
/// call), an editor's tasks that run when a folder is opened.
const PERSIST_ANYWHERE: &[&str] = &[
    "/.git/hooks/",
    "/.claude/settings.json",
    "/.claude/settings.local.json",
    "/.vscode/tasks.json",
];
/// Files Python runs at every start: a `.pth` file in a `site-packages`
/// folder (its `import` lines run), and `sitecustomize`/`usercustomize`.
const PYTHON_STARTUP: &[&str] = &["sitecustomize.py", "usercustomize.py"];
/// Programs that install what runs again later.
const PERSIST_PROGRAMS: &[&str] = &["crontab", "launchctl", "schtasks", "at"];

/// Sockets of a container engine or the host's session.
const ESCAPE_SOCKETS: &[&str] = &[
    "docker.sock",
    "containerd.sock",
    "podman.sock",
    "crio.sock",
    "/run/user/",
    "/run/dbus/",
    "/var/run/dbus/",
];
/// Files whose reading is reaching out of the sandbox (or for the host's
/// secrets).
const ESCAPE_PREFIXES: &[&str] = &[
    "/etc/shadow",
    "/etc/sudoers",
    "/root",
    "/dev/mem",
    "/dev/kmem",
    "/dev/sd",
    "/dev/nvme",
    "/var/run/docker",
    "/run/docker",
    "/var/lib/docker",
];
/// Where writing reaches the host's kernel settings (reading them is
/// ordinary: runtimes read their memory limit there).
const ESCAPE_WRITES: &[&str] = &["/sys/", "/proc/sys/", "/proc/sysrq-trigger"];
/// What another process's `/proc/PID/…` gives: its root, files and memory.
const PROC_ESCAPES: &[&str] = &["root", "cwd", "environ", "mem", "map_files"];
/// Syscalls no script needs that change namespaces, mounts or trace others.
const ESCAPE_CALLS: &[&str] = &[
    "mount",
    "umount2",
    "unshare",
    "setns",
    "ptrace",
    "chroot",
    "pivot_root",
];
/// Programs that do the same.
const ESCAPE_PROGRAMS: &[&str] = &["nsenter", "sudo", "su"];
/// Container engines: talking to their own socket is how they work (a
/// skill that pins image digests runs `docker`), so only the arguments
/// that hand a container the host reach out of the sandbox.
const ENGINES: &[&str] = &["docker", "podman"];
const HOST_ARGUMENTS: &[&str] = &[
    "--privileged",
    "--pid=host",
    "--pid host",
    "--userns=host",
    "SYS_ADMIN",
    ".sock:",
    "/:/",
];

/// What one script did: its findings, and the hosts it contacted in ways
/// that are not findings by themselves (DNS names, TLS handshakes).
#[derive(Debug, Default)]
pub struct Judged {
    pub findings: Vec<Finding>,
    pub contacted: Vec<String>,
}

/// Programs that read their own credential file: `npm` reading
/// `~/.npmrc` is what npm does; `python3` reading it is a finding.
const OWNERS: &[(&str, &[&str])] = &[
    ("npmrc", &["npm", "npx", "pnpm", "yarn", "corepack"]),
    ("gh-hosts", &["gh"]),
    ("git-credentials", &["git", "git-credential-store"]),
    ("ssh-key", &["ssh", "ssh-add", "scp", "sftp"]),
    ("aws-credentials", &["aws"]),
    ("docker-config", &["docker", "podman", "skopeo"]),
    (
        "kubeconfig",
        &["kubectl", "helm", "k9s", "kubectx", "kubens"],
    ),
];

/// The services whose own hosts a credential goes to (the host or a
/// subdomain): a client of that service sends it there in an auth header,
/// as the static audit's `source-to-sink` allows (docs/audit.md,
/// "Encrypted traffic").
const SERVICES: &[(&str, &str)] = &[
    ("kubeconfig", "k8s.acme.test"),
    ("env-GITHUB_TOKEN", "github.com"),
    ("gh-hosts", "github.com"),
    ("git-credentials", "github.com"),
    ("env-AWS_ACCESS_KEY_ID", "amazonaws.com"),
    ("env-AWS_SECRET_ACCESS_KEY", "amazonaws.com"),
    ("aws-credentials", "amazonaws.com"),
    ("env-ANTHROPIC_API_KEY", "anthropic.com"),
    ("env-OPENAI_API_KEY", "openai.com"),
    ("dotenv-home", "openai.com"),
    ("env-NPM_TOKEN", "npmjs.org"),
    ("npmrc", "npmjs.org"),
    ("docker-config", "docker.io"),
];

/// The headers a credential rides in to its own service.
const AUTH_HEADERS: &[&str] = &["authorization", "proxy-authorization", "x-api-key"];

/// An HTTP request's auth header lines, and the rest of it (`data` as
/// text), with its `Host` (no port).
fn split_auth(data: &str) -> (String, String, String) {
    let (head, body) = data.split_once("\r\n\r\n").unwrap_or((data, ""));
    let (mut auth, mut rest, mut host) = (String::new(), String::new(), String::new());
    for line in head.split("\r\n") {
        let name = line.split_once(':').map_or("", |(k, _)| k.trim());
        if AUTH_HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h)) {
            auth.push_str(line);
            auth.push('\n');
            continue;
        }
        if name.eq_ignore_ascii_case("host") {
            let value = line.split_once(':').map_or("", |(_, v)| v.trim());
            host = value
                .split(':')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
        }
        rest.push_str(line);
        rest.push('\n');
    }
    rest.push_str(body);
    (auth, rest, host)
}

/// The canary a request carries, unless it is only a credential in an
/// auth header sent over HTTPS to its own service's host (the server name
/// of the handshake and the request's `Host` both: a client that names
/// one host to TLS and another in the request is not that service's).
fn carried(event: &SinkEvent, cx: &Known<'_>) -> Option<(usize, &'static str)> {
    if event.kind != SinkKind::Https {
        return cx.needles.find(event.data.as_bytes());
    }
    let (auth, rest, host) = split_auth(&event.data);
    cx.needles.find(rest.as_bytes()).or_else(|| {
        cx.needles.find(auth.as_bytes()).filter(|(i, _)| {
            let of =
                |name: &str, domain: &str| name == domain || name.ends_with(&format!(".{domain}"));
            !SERVICES.iter().any(|(c, domain)| {
                *c == cx.canaries[*i].name
                    && of(&host, domain)
                    && of(&event.server_name.to_ascii_lowercase(), domain)
            })
        })
    })
}

fn owns(program: &str, canary: &str) -> bool {
    OWNERS
        .iter()
        .any(|(c, programs)| *c == canary && programs.contains(&program))
}

/// The findings of one script (`file`, relative to the skill).
pub fn judge(
    file: &str,
    calls: &[Call],
    outcome: Option<&Outcome>,
    sink: &[&SinkEvent],
    cx: &Known<'_>,
) -> Judged {
    let mut out = Vec::new();
    let mut contacted = Vec::new();
    let mut seen = BTreeSet::new();
    let mut push = |id: &str, excerpt: String, detail: String| {
        if seen.insert((id.to_owned(), excerpt.clone(), detail.clone())) {
            out.push(finding(id, file, &excerpt, &detail));
        }
    };
    let canary_paths: BTreeMap<&str, &Canary> = cx
        .canaries
        .iter()
        .filter_map(|c| Some((c.path.as_deref()?, c)))
        .collect();
    let mut written: BTreeSet<String> = BTreeSet::new();
    let mut system_links: BTreeSet<String> = BTreeSet::new();
    let mut socket_data: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut file_data: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut read_canaries = BTreeSet::new();
    let mut listens: Vec<bool> = Vec::new();
    for call in calls {
        match call.name.as_str() {
            "open" | "openat" | "creat" => {
                let Some(path) = opened_path(call) else {
                    continue;
                };
                let write = call.name == "creat"
                    || ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]
                        .iter()
                        .any(|f| call.args.contains(f));
                if let Some(c) = canary_paths.get(path.as_str())
                    && call.ok()
                    && !write
                    && (!canary::READ_FREELY.contains(&c.name.as_str())
                        || canary::MOVERS.contains(&call.program.as_str()))
                    && !owns(&call.program, &c.name)
                    && read_canaries.insert(c.name.clone())
                {
                    push(
                        "run-canary-read",
                        call.shown(),
                        format!("canary {}", c.name),
                    );
                }
                if write && is_persistence(&path) {
                    push("run-persistence", call.shown(), path.clone());
                }
                if is_escape_path(&path, cx.real_home)
                    || write && ESCAPE_WRITES.iter().any(|p| path.starts_with(p))
                {
                    push("run-escape", call.shown(), path.clone());
                }
                if write && call.ok() {
                    written.insert(path);
                }
            }
            "rename" | "renameat" | "renameat2" | "link" | "linkat" | "symlink" | "symlinkat" => {
                let Some(target) = call.strings.last() else {
                    continue;
                };
                let target = String::from_utf8_lossy(target).into_owned();
                // A canary given another name (a hard link, a symbolic
                // link, a move) is read through that name later, where its
                // path no longer says what it is.
                let source = linked_source(call);
                if let Some(c) = source.as_deref().and_then(|p| canary_paths.get(p))
                    && !owns(&call.program, &c.name)
                    && read_canaries.insert(c.name.clone())
                {
                    push(
                        "run-canary-read",
                        call.shown(),
                        format!("canary {}, given another name ({target})", c.name),
                    );
                }
                if is_persistence(&target) {
                    push("run-persistence", call.shown(), target.clone());
                }
                // A symbolic link to a system program (a virtualenv's
                // `bin/python3`, and the links to that link) runs the
                // system's file, not one the run wrote.
                let to_system = call.name.starts_with("symlink")
                    && call.string(0).is_some_and(|to| {
                        is_system_path(&to)
                            || Path::new(&target)
                                .parent()
                                .map(|dir| dir.join(&to).to_string_lossy().into_owned())
                                .is_some_and(|p| system_links.contains(&p))
                    });
                if call.ok() && to_system {
                    system_links.insert(target);
                } else if call.ok() {
                    written.insert(target);
                }
            }
            "readlink" | "readlinkat" => {
                if let Some(path) = call.string(0)
                    && is_escape_path(&path, cx.real_home)
                {
                    push("run-escape", call.shown(), path);
                }
            }
            "execve" | "execveat" => {
                let Some(program) = call.string(0) else {
                    continue;
                };
                let args: Vec<String> = call
                    .strings
                    .iter()
                    .skip(2)
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .collect();
                let base = program.rsplit('/').next().unwrap_or_default();
                // The program itself, or the script an interpreter is given.
                let interpreted = super::trace::interpreter_name(base).is_some();
                let ran = std::iter::once(&program)
                    .chain(args.iter().filter(|_| interpreted))
                    .find(|p| was_written(&written, p));
                if let Some(ran) = ran {
                    push(
                        "run-exec-written",
                        call.shown(),
                        format!("{ran} was written during the run"),
                    );
                } else if let Some(fd) = std::iter::once(&program)
                    .chain(args.iter().filter(|_| interpreted))
                    .find(|p| is_fd_path(p))
                {
                    push(
                        "run-exec-written",
                        call.shown(),
                        format!(
                            "{fd} is an open file, not a file on disk (a payload held in memory)"
                        ),
                    );
                }
                let enables = base == "systemctl" && args.iter().any(|a| a == "enable");
                if PERSIST_PROGRAMS.contains(&base) || enables {
                    push("run-persistence", call.shown(), format!("runs {base}"));
                }
                let line = args.join(" ");
                if ESCAPE_PROGRAMS.contains(&base)
                    || ENGINES.contains(&base) && HOST_ARGUMENTS.iter().any(|a| line.contains(a))
                {
                    push("run-escape", call.shown(), format!("runs {base}"));
                }
            }
            "connect" | "sendto" | "sendmsg" | "sendmmsg" => {
                if call.args.contains("AF_UNIX") || call.fd.as_deref().is_some_and(is_unix) {
                    let path = call.string(0).unwrap_or_default();
                    let own = ENGINES.contains(&call.program.as_str())
                        && ENGINES
                            .iter()
                            .any(|e| path.ends_with(&format!("/{e}.sock")));
                    if ESCAPE_SOCKETS.iter().any(|s| path.contains(s)) && !own {
                        push("run-escape", call.shown(), path);
                    }
                    continue;
                }
                if let Some(to) = inet_target(call)
                    && !is_inside(&to)
                {
                    push(
                        "run-network",
                        format!("{}({to}) = {}", call.name, short_ret(call)),
                        String::new(),
                    );
                }
                if call.name != "connect" {
                    let key = call.fd.clone().unwrap_or_default();
                    for s in &call.strings {
                        socket_data
                            .entry(key.clone())
                            .or_default()
                            .extend_from_slice(s);
                    }
                }
            }
            "write" | "writev" | "pwrite64" => {
                let Some(fd) = call.fd.as_deref() else {
                    continue;
                };
                let into = if is_network_socket(fd) {
                    &mut socket_data
                } else if fd.starts_with('/')
                    && !fd.starts_with("/dev/")
                    && !fd.starts_with("/proc/")
                {
                    &mut file_data
                } else {
                    continue;
                };
                let entry = into.entry(fd.to_owned()).or_default();
                for s in &call.strings {
                    entry.extend_from_slice(s);
                }
            }
            "unlink" | "unlinkat" | "rmdir" => {
                let Some(path) = opened_path(call) else {
                    continue;
                };
                // What the home held before the run is the user's: the
                // canaries and the folders holding them.
                let users = canary_paths.keys().any(|c| {
                    *c == path || c.starts_with(&format!("{}/", path.trim_end_matches('/')))
                });
                if users && !written.contains(&path) {
                    push("run-destroy", call.shown(), path.clone());
                }
            }
            // A process the script started leaving its session: the first
            // step of a daemon, which sleeps return too soon to see outlive
            // the script (docs/audit.md, "The deadline").
            // A system program's own detaching (git's background
            // maintenance) is that program's business, as its own
            // credential file is.
            // Where the script's servers listen: on this machine only, or
            // on every interface (reachable from the network).
            "bind" if call.ok() => {
                if let Some(at) = inet_target(call) {
                    listens.push(is_inside(&at));
                }
            }
            "setsid" if !call.by_root && call.ok() && runs_skill_code(&call.program) => {
                push(
                    "run-outlived",
                    format!("setsid() = {} by {}", short_ret(call), call.program),
                    "it detached from the script's session to go on without it".to_owned(),
                );
            }
            name if ESCAPE_CALLS.contains(&name) => {
                push(
                    "run-escape",
                    call.shown(),
                    format!("the {name} system call"),
                );
            }
            _ => {}
        }
    }
    let mut sent = BTreeSet::new();
    for event in sink {
        // A connection that sent nothing carried nothing: a contact (a
        // client that gave up, or was ended, before its first byte).
        let empty = event.kind == SinkKind::Tcp && event.data.is_empty();
        if empty || matches!(event.kind, SinkKind::Dns | SinkKind::Tls | SinkKind::Https) {
            let shown = crate::audit::excerpt(&event.summary, 160);
            if !contacted.contains(&shown) {
                contacted.push(shown);
            }
        } else {
            push("run-network", event.summary.clone(), String::new());
        }
        if let Some((i, how)) = carried(event, cx) {
            sent.insert(i);
            push(
                "run-canary-exfil",
                event.summary.clone(),
                format!("canary {} ({how})", cx.canaries[i].name),
            );
        }
    }
    // What the sink received is named by its request; a socket's bytes
    // add the canaries that went elsewhere (or that the sink missed).
    for (socket, data) in &socket_data {
        if let Some((i, how)) = cx.needles.find(data)
            && !sent.contains(&i)
        {
            push(
                "run-canary-exfil",
                format!("send on {socket}"),
                format!("canary {} ({how})", cx.canaries[i].name),
            );
        }
    }
    for (path, data) in &file_data {
        if canary_paths.contains_key(path.as_str()) {
            continue;
        }
        // A hook may keep the transcript it is handed (a session log); a
        // copy of the project's `.env` elsewhere is staged, not loaded.
        if let Some((i, how)) = cx.needles.find(data)
            && cx.canaries[i].name != canary::TRANSCRIPT_CANARY
        {
            push(
                "run-canary-copy",
                format!("write(\"{path}\")"),
                format!("canary {} ({how})", cx.canaries[i].name),
            );
        }
    }
    // A server left running that listens on this machine only, by a
    // script that reached nothing outside and did nothing else amiss, is a
    // dev server (a preview, a companion page), not a foothold.
    let local_server = !listens.is_empty()
        && listens.iter().all(|inside| *inside)
        && sink.is_empty()
        && contacted.is_empty()
        && out.is_empty();
    let id = if local_server {
        "run-local-server"
    } else {
        "run-outlived"
    };
    // What a script killed at the limit leaves behind is the kill's doing.
    for cmd in outcome
        .filter(|o| !o.timed_out)
        .map_or(&[][..], |o| &o.outlived)
    {
        let excerpt = format!("{cmd} (still running after the script exited)");
        if seen.insert((id.to_owned(), excerpt.clone(), String::new())) {
            out.push(finding(id, file, &excerpt, ""));
        }
    }
    Judged {
        findings: out,
        contacted,
    }
}

/// The absolute path an `open` named: what it returned, else its argument
/// (relative ones joined to the directory fd's path).
fn opened_path(call: &Call) -> Option<String> {
    if call.ok()
        && let Some(p) = call.returned_path()
    {
        return Some(p);
    }
    let arg = call.string(0)?;
    if arg.starts_with('/') {
        return Some(arg);
    }
    let base = call.fd.as_deref().filter(|d| d.starts_with('/'))?;
    Some(format!("{}/{arg}", base.trim_end_matches('/')))
}

/// Whether a process running `program` (as [`Call::program`] names it)
/// runs what the skill or the run provided: an interpreter, the `setsid`
/// and `nohup` programs a script asks to detach, or a file outside the
/// system folders.
fn runs_skill_code(program: &str) -> bool {
    program.is_empty()
        || program.starts_with('/')
        || matches!(
            program,
            "setsid" | "nohup" | "daemonize" | "start-stop-daemon"
        )
        || super::trace::interpreter_name(program).is_some()
}

/// A path in the system's read-only folders.
fn is_system_path(path: &str) -> bool {
    ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/"]
        .iter()
        .any(|d| path.starts_with(d))
}

fn was_written(written: &BTreeSet<String>, path: &str) -> bool {
    if path.starts_with('/') {
        return written.contains(path);
    }
    let rel = path.trim_start_matches("./");
    !rel.is_empty()
        && (rel.contains('/') || path.starts_with("./"))
        && written.iter().any(|w| w.ends_with(&format!("/{rel}")))
}

fn is_persistence(path: &str) -> bool {
    let in_home = path
        .strip_prefix(canary::HOME)
        .and_then(|p| p.strip_prefix('/'));
    let name = path.rsplit('/').next().unwrap_or_default();
    // `git init` copies its inert `*.sample` hooks.
    let sample_hook = path.contains("/.git/hooks/") && name.ends_with(".sample");
    let python_startup =
        (path.contains("-packages/") && name.ends_with(".pth")) || PYTHON_STARTUP.contains(&name);
    in_home.is_some_and(|p| PERSIST_HOME.iter().any(|h| p.starts_with(h)))
        || PERSIST_ABSOLUTE.iter().any(|a| path.starts_with(a))
        || PERSIST_ANYWHERE.iter().any(|a| path.contains(a)) && !sample_hook
        || python_startup
}

fn is_escape_path(path: &str, real_home: Option<&str>) -> bool {
    if let Some(rest) = path.strip_prefix("/proc/") {
        let mut parts = rest.split('/');
        let pid = parts.next().unwrap_or_default();
        let what = parts.next().unwrap_or_default();
        if !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && PROC_ESCAPES.contains(&what)
        {
            return true;
        }
    }
    let under = |root: &str| path == root || path.starts_with(&format!("{root}/"));
    if let Some(home) = real_home.filter(|h| h.len() > 1 && *h != canary::HOME)
        && under(home.trim_end_matches('/'))
    {
        return true;
    }
    // Inside another user's home (node looking for `/home/package.json`
    // is not).
    if let Some(other) = path.strip_prefix("/home/")
        && !under(canary::HOME)
        && other.contains('/')
    {
        return true;
    }
    ESCAPE_PREFIXES
        .iter()
        .any(|p| under(p) || (p.ends_with("/sd") || p.ends_with("/nvme")) && path.starts_with(p))
        || ESCAPE_SOCKETS
            .iter()
            .any(|s| s.ends_with(".sock") && path.ends_with(s))
}

fn is_unix(fd: &str) -> bool {
    fd.starts_with("UNIX")
}

fn is_network_socket(fd: &str) -> bool {
    ["TCP", "UDP", "socket:"].iter().any(|p| fd.starts_with(p))
}

/// `host:port` of an AF_INET/AF_INET6 address in the arguments.
fn inet_target(call: &Call) -> Option<String> {
    let args = &call.args;
    if !args.contains("AF_INET") {
        return None;
    }
    let port = args
        .split("htons(")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap_or("?");
    // The address is the last string among the arguments (data comes first).
    let host = call.string(call.strings.len().checked_sub(1)?)?;
    Some(format!("{host}:{port}"))
}

/// A loopback address: the sandbox's own network namespace, where nothing
/// leaves. What arrives at the sink's ports is judged from the sink's
/// record (the request in words, TLS and DNS told apart); a script's own
/// server on another port (a test server, a dev server) is ordinary.
fn is_inside(to: &str) -> bool {
    let Some((host, _port)) = to.rsplit_once(':') else {
        return false;
    };
    host.starts_with("127.") || host == "::1" || host == "::ffff:127.0.0.1"
}

/// The path of an open file descriptor (`/proc/self/fd/3`, `/dev/fd/3`,
/// `/proc/PID/fd/3`): running it runs what a process holds, with no file
/// on disk (a `memfd`, a deleted file).
fn is_fd_path(path: &str) -> bool {
    let rest = path.strip_prefix("/dev/fd/").or_else(|| {
        path.strip_prefix("/proc/")
            .and_then(|r| r.split_once("/fd/").map(|(_, n)| n))
    });
    rest.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The existing file a link or rename call names (absolute, or relative to
/// its directory fd): `link(old, new)`, `linkat(dirfd, old, …)`,
/// `rename(old, new)`, `symlink(target, new)` (a relative target is taken
/// as the caller wrote it).
fn linked_source(call: &Call) -> Option<String> {
    let first = call.string(0)?;
    if first.starts_with('/') {
        return Some(first);
    }
    let base = call.fd.as_deref().filter(|d| d.starts_with('/'))?;
    Some(format!("{}/{first}", base.trim_end_matches('/')))
}

fn short_ret(call: &Call) -> &str {
    call.ret.split(" (").next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persistence_and_escape_paths() {
        for (path, persists) in [
            ("/home/user/.bashrc", true),
            ("/home/user/project/.git/hooks/pre-commit", true),
            ("/etc/cron.d/x", true),
            ("/home/user/project/out.txt", false),
            ("/tmp/d/.git/hooks/pre-commit.sample", false),
            ("/tmp/d/.git/hooks/pre-commit", true),
            ("/home/user/.local/lib/python3.11/site-packages/x.pth", true),
            ("/home/user/.local/lib/python3.11/site-packages/x.py", false),
            ("/home/user/.claude/settings.json", true),
            ("/home/user/project/.claude/settings.local.json", true),
            ("/home/user/project/.claude/skills/x/SKILL.md", false),
        ] {
            assert_eq!(is_persistence(path), persists, "{path}");
        }
        for (path, home, escapes) in [
            ("/proc/1/root/etc/passwd", None, true),
            ("/proc/self/fd", None, false),
            ("/root/.ssh/id_rsa", Some("/root"), true),
            ("/home/alice/.aws/credentials", None, true),
            ("/home/user/.aws/credentials", Some("/home/alice"), false),
            ("/var/run/docker.sock", None, true),
            ("/usr/lib/python3/os.py", None, false),
            ("/home/package.json", None, false),
        ] {
            assert_eq!(is_escape_path(path, home), escapes, "{path} {home:?}");
        }
    }

    fn rules_of(lines: &[&str]) -> Vec<String> {
        rules_of_program("", lines)
    }

    /// The rules `lines` break when made by a process running `program`.
    fn rules_of_program(program: &str, lines: &[&str]) -> Vec<String> {
        let found = judged(program, lines, None, &[]).findings;
        found.into_iter().map(|f| f.rule).collect()
    }

    /// What the judge makes of `lines` (made by `program`), the script's
    /// `outcome` and what the sink received, with a fresh set of canaries.
    fn judged(
        program: &str,
        lines: &[&str],
        outcome: Option<&Outcome>,
        sink: &[&SinkEvent],
    ) -> Judged {
        let canaries = canary::fresh();
        let needles = Needles::new(&canaries);
        let cx = Known {
            canaries: &canaries,
            needles: &needles,
            real_home: None,
        };
        let calls: Vec<Call> = lines
            .iter()
            .map(|l| super::super::trace::parse_line(l).unwrap())
            .map(|c| Call {
                program: program.to_owned(),
                ..c
            })
            .collect();
        judge("scripts/x.sh", &calls, outcome, sink, &cx)
    }

    #[test]
    fn a_link_to_a_system_program_is_not_a_written_program() {
        let venv = [
            r#"symlink("/usr/bin/python3", "/tmp/v/bin/python3") = 0"#,
            r#"symlink("python3", "/tmp/v/bin/python") = 0"#,
            r#"execve("/tmp/v/bin/python", ["python"], 0x1 /* 3 vars */) = 0"#,
        ];
        assert_eq!(rules_of(&venv), Vec::<String>::new());
        let dropped = [
            r#"openat(AT_FDCWD</tmp>, "/tmp/p", O_WRONLY|O_CREAT|O_TRUNC, 0777) = 3</tmp/p>"#,
            r#"symlink("/tmp/p", "/tmp/v/bin/tool") = 0"#,
            r#"execve("/tmp/v/bin/tool", ["tool"], 0x1 /* 3 vars */) = 0"#,
        ];
        assert_eq!(rules_of(&dropped), ["run-exec-written"]);
    }

    #[test]
    fn a_container_engine_escapes_only_when_handed_the_host() {
        let run =
            |argv: &str| format!(r#"execve("/usr/bin/docker", [{argv}], 0x1 /* 3 vars */) = 0"#);
        let pin = run(r#""docker", "buildx", "imagetools", "inspect", "node:22""#);
        assert_eq!(rules_of(&[&pin]), Vec::<String>::new());
        let host = run(r#""docker", "run", "-v", "/:/host", "alpine""#);
        assert_eq!(rules_of(&[&host]), ["run-escape"]);
        let socket = r#"connect(3<UNIX:[9]>, {sa_family=AF_UNIX, sun_path="/var/run/docker.sock"}, 110) = -1 ENOENT (No such file or directory)"#;
        assert_eq!(rules_of_program("docker", &[socket]), Vec::<String>::new());
        assert_eq!(rules_of_program("python3", &[socket]), ["run-escape"]);
    }

    #[test]
    fn the_projects_env_is_loaded_freely_and_packed_is_read() {
        let env = r#"openat(AT_FDCWD</home/user/project>, ".env", O_RDONLY|O_CLOEXEC) = 3</home/user/project/.env>"#;
        for loader in ["python3", "node", "bash", "cat"] {
            assert_eq!(
                rules_of_program(loader, &[env]),
                Vec::<String>::new(),
                "{loader}"
            );
        }
        assert_eq!(rules_of_program("tar", &[env]), ["run-canary-read"]);
        let aws = r#"openat(AT_FDCWD</home/user>, "/home/user/.aws/credentials", O_RDONLY) = 3</home/user/.aws/credentials>"#;
        assert_eq!(rules_of_program("python3", &[aws]), ["run-canary-read"]);
    }

    #[test]
    fn a_server_left_listening_on_this_machine_only_is_a_dev_server() {
        let outlived = |lines: &[&str]| -> Vec<String> {
            let outcome = Outcome {
                exit: Some(0),
                outlived: vec!["node server.cjs".to_owned()],
                ..Outcome::default()
            };
            let found = judged("bash", lines, Some(&outcome), &[]).findings;
            found.into_iter().map(|f| f.rule).collect()
        };
        let bind = |addr: &str| {
            format!(
                r#"bind(3<TCP:[7]>, {{sa_family=AF_INET, sin_port=htons(4173), sin_addr=inet_addr("{addr}")}}, 16) = 0"#
            )
        };
        assert_eq!(outlived(&[&bind("127.0.0.1")]), ["run-local-server"]);
        assert_eq!(outlived(&[&bind("0.0.0.0")]), ["run-outlived"]);
        assert_eq!(outlived(&[]), ["run-outlived"]);
        let home = r#"openat(AT_FDCWD</home/user>, "/home/user/.ssh/id_ed25519", O_RDONLY) = 3</home/user/.ssh/id_ed25519>"#;
        assert_eq!(
            outlived(&[&bind("127.0.0.1"), home]),
            ["run-canary-read", "run-outlived"]
        );
    }

    #[test]
    fn a_connection_that_sent_nothing_is_a_contact_not_traffic() {
        let event = |data: &str| SinkEvent {
            script: 0,
            socket: 0,
            kind: SinkKind::Tcp,
            summary: format!("tcp 127.0.0.1:443 ({} bytes)", data.len()),
            data: data.to_owned(),
            server_name: String::new(),
        };
        let (nothing, some) = (event(""), event("hello"));
        let empty = judged("curl", &[], None, &[&nothing]);
        assert!(empty.findings.is_empty(), "{:?}", empty.findings);
        assert_eq!(empty.contacted, ["tcp 127.0.0.1:443 (0 bytes)"]);
        let sent = judged("curl", &[], None, &[&some]);
        let rules: Vec<&str> = sent.findings.iter().map(|f| f.rule.as_str()).collect();
        assert_eq!(rules, ["run-network"]);
    }

    #[test]
    fn deleting_what_the_home_held_is_destruction() {
        let own = [
            r#"openat(AT_FDCWD</tmp>, "/home/user/.cache/t/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</home/user/.cache/t/x>"#,
            r#"unlinkat(AT_FDCWD</tmp>, "/home/user/.cache/t/x", 0) = 0"#,
        ];
        assert_eq!(rules_of(&own), Vec::<String>::new());
        let users = [r#"unlinkat(5</home/user/.aws>, "credentials", 0) = 0"#];
        assert_eq!(rules_of(&users), ["run-destroy"]);
        let folder = [r#"rmdir("/home/user/.ssh") = 0"#];
        assert_eq!(rules_of(&folder), ["run-destroy"]);
    }

    #[test]
    fn loopback_is_inside_and_fd_paths_are_open_files() {
        assert!(is_inside("127.0.0.1:9000"));
        assert!(is_inside("::1:80"));
        assert!(!is_inside("10.1.2.3:80"));
        assert!(is_fd_path("/proc/self/fd/3"));
        assert!(is_fd_path("/proc/12/fd/10"));
        assert!(is_fd_path("/dev/fd/4"));
        assert!(!is_fd_path("/proc/self/fdinfo/3"));
        assert!(!is_fd_path("/dev/fd/"));
    }

    #[test]
    fn written_files_match_relative_runs() {
        let written: BTreeSet<String> =
            ["/tmp/p".to_owned(), "/home/user/x/run.sh".to_owned()].into();
        assert!(was_written(&written, "/tmp/p"));
        assert!(was_written(&written, "./run.sh"));
        assert!(!was_written(&written, "python3"));
    }
}
