//! Reading strace's record of a sandbox run (`strace -ff -yy -x
//! --pidns-translation`, one file per process): which processes belong to
//! which script, and what each of them did that the judge looks at
//! (docs/audit.md, "Running a skill: audit --run").

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The syscalls strace records (`-e trace=`).
pub const TRACED: &str = "openat,open,creat,execve,execveat,connect,bind,sendto,sendmsg,sendmmsg,write,writev,pwrite64,clone,clone3,fork,vfork,rename,renameat,renameat2,link,linkat,symlink,symlinkat,readlink,readlinkat,mount,umount2,unshare,setns,ptrace,chroot,pivot_root,setsid,unlink,unlinkat,rmdir";

/// One recorded syscall, as far as the judge needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    /// The program the calling process was running (the last path segment
    /// of its latest `execve`, or its parent's), filled by [`read`].
    pub program: String,
    /// The first argument's fd annotation (`/tmp/x`, `TCP:[…]`), if any.
    pub fd: Option<String>,
    /// The quoted strings among the arguments, decoded.
    pub strings: Vec<Vec<u8>>,
    /// The arguments as written (flags, addresses).
    pub args: String,
    /// The return value as written (`3</tmp/x>`, `-1 ENOENT (…)`).
    pub ret: String,
    /// Made by the script's own first process (not by one it started),
    /// filled by [`read`].
    pub by_root: bool,
}

impl Call {
    /// The call succeeded (its return is not `-1 E…`).
    pub fn ok(&self) -> bool {
        !self.ret.starts_with('-')
    }

    /// The inode of the socket this call used (`TCP:[123456]`, `UDP:[…]`:
    /// strace, outside the sandbox's network namespace, names a socket
    /// there by its inode).
    pub fn socket(&self) -> Option<u64> {
        let fd = self.fd.as_deref()?;
        let (kind, rest) = fd.split_once(":[")?;
        if !matches!(kind, "TCP" | "UDP" | "TCPv6" | "UDPv6") {
            return None;
        }
        rest.strip_suffix(']')?.parse().ok()
    }

    /// The path of the fd a successful `open` returned (`3</a/b>`).
    pub fn returned_path(&self) -> Option<String> {
        let start = self.ret.find('<')?;
        let end = self.ret.rfind('>')?;
        (end > start).then(|| self.ret[start + 1..end].to_owned())
    }

    pub fn string(&self, i: usize) -> Option<String> {
        self.strings
            .get(i)
            .map(|s| String::from_utf8_lossy(s).into_owned())
    }

    /// The call as an excerpt: `name("first string", …) = ret`.
    pub fn shown(&self) -> String {
        let first = self.string(0).unwrap_or_default();
        let ret = self.ret.split(" (").next().unwrap_or_default();
        if first.is_empty() {
            format!(
                "{}({}) = {ret}",
                self.name,
                self.args.chars().take(100).collect::<String>()
            )
        } else {
            format!("{}(\"{first}\") = {ret}", self.name)
        }
    }
}

/// The calls of one script: its processes' calls in the order each made
/// them, process by process.
pub type ScriptCalls = Vec<Call>;

/// Reads the files `prefix.PID` in `dir` and returns the calls of each
/// script, in the order the sandbox's first process started them. That
/// process is the one that ran the program `init_path`; each process (not
/// thread) it started is one script, and everything those start belongs to it.
pub fn read(dir: &Path, prefix: &str, init_path: &str) -> std::io::Result<Vec<ScriptCalls>> {
    let mut per_pid: BTreeMap<u32, Vec<Call>> = BTreeMap::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(prefix)
            .and_then(|p| p.strip_prefix('.'))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let text = std::fs::read(entry.path())?;
        let calls = String::from_utf8_lossy(&text)
            .lines()
            .filter_map(parse_line)
            .collect();
        per_pid.insert(pid, calls);
    }
    // The first process is the one that ran `init_path` (bubblewrap's own
    // command line names it too, but does not run it); only what it does
    // after that counts.
    let runs_init = |c: &Call| {
        c.name == "execve" && c.ok() && c.strings.first().is_some_and(|s| s == init_path.as_bytes())
    };
    let Some(init) = per_pid
        .iter()
        .find_map(|(pid, calls)| calls.iter().any(runs_init).then_some(*pid))
    else {
        return Ok(Vec::new());
    };
    if let Some(calls) = per_pid.get_mut(&init) {
        let after = calls.iter().position(runs_init).map_or(0, |i| i + 1);
        calls.drain(..after);
    }
    // Children: (pid, is a thread).
    let children = |pid: u32| -> Vec<(u32, bool)> {
        per_pid.get(&pid).map_or_else(Vec::new, |calls| {
            calls
                .iter()
                .filter(|c| matches!(c.name.as_str(), "clone" | "clone3" | "fork" | "vfork"))
                .filter_map(|c| Some((child_pid(&c.ret)?, c.args.contains("CLONE_THREAD"))))
                .collect()
        })
    };
    let roots: Vec<u32> = children(init)
        .into_iter()
        .filter(|(_, thread)| !thread)
        .map(|(pid, _)| pid)
        .collect();
    let mut out = Vec::new();
    for root in roots {
        // Parents before children, so a child starts as its parent's program.
        let mut members = BTreeSet::new();
        let mut todo = vec![(root, String::new())];
        let mut calls = Vec::new();
        while let Some((pid, inherited)) = todo.pop() {
            if !members.insert(pid) {
                continue;
            }
            let mut program = inherited;
            // Each process is one script's (its own tree's) only: its calls
            // move, not copied.
            for mut call in per_pid.remove(&pid).unwrap_or_default() {
                if matches!(call.name.as_str(), "execve" | "execveat") && call.ok() {
                    program = program_of(&call);
                }
                if let Some(child) =
                    matches!(call.name.as_str(), "clone" | "clone3" | "fork" | "vfork")
                        .then(|| child_pid(&call.ret))
                        .flatten()
                {
                    todo.push((child, program.clone()));
                }
                call.program.clone_from(&program);
                call.by_root = pid == root;
                calls.push(call);
            }
        }
        out.push(calls);
    }
    Ok(out)
}

/// Programs that run the file they are given.
pub const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "python", "node", "nodejs", "perl", "ruby", "php", "lua",
];

/// An interpreter's name without its version (`python3.11` → `python`).
pub fn interpreter_name(program: &str) -> Option<&'static str> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    INTERPRETERS.iter().copied().find(|i| *i == base)
}

/// What a successful `execve` runs, as the judge names it: the last
/// segment of a system program's path (`/usr/bin/git` → `git`), or of
/// the system script an interpreter runs (`node /usr/bin/npm` → `npm`);
/// anything outside the system folders keeps its whole path, so a skill's
/// own file named `npm` is never taken for npm.
fn program_of(call: &Call) -> String {
    let system = |p: &str| {
        ["/usr/", "/bin/", "/sbin/"]
            .iter()
            .any(|d| p.starts_with(d))
    };
    let base = |p: &str| p.rsplit('/').next().unwrap_or_default().to_owned();
    let Some(path) = call.string(0) else {
        return String::new();
    };
    if !system(&path) {
        return path;
    }
    match call.string(2) {
        Some(script) if interpreter_name(&base(&path)).is_some() && system(&script) => {
            base(&script)
        }
        _ => base(&path),
    }
}

/// The pid a clone returned, in strace's PID namespace:
/// `2 /* 26109 in strace's PID NS */` → 26109; `26108` → 26108.
fn child_pid(ret: &str) -> Option<u32> {
    if let Some((_, rest)) = ret.split_once("/* ") {
        return rest.split_whitespace().next()?.parse().ok();
    }
    ret.split_whitespace().next()?.parse().ok()
}

/// One line of `strace -yy -x` output: `name(args) = ret`. Signals,
/// exits and unfinished calls are skipped.
pub fn parse_line(line: &str) -> Option<Call> {
    let open = line.find('(')?;
    let name = &line[..open];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let rest = &line[open + 1..];
    let (args, strings, after) = scan_args(rest)?;
    let ret = after.trim_start().strip_prefix('=')?.trim().to_owned();
    let fd = args
        .split(',')
        .next()
        .and_then(|first| {
            let start = first.find('<')?;
            Some(first[start + 1..].trim_end_matches('>').to_owned())
        })
        .filter(|_| !args.starts_with('"'));
    Some(Call {
        name: name.to_owned(),
        program: String::new(),
        fd,
        strings,
        args,
        ret,
        by_root: false,
    })
}

/// Reads the arguments up to the `)` that closes them: the text with the
/// strings' contents left out, the decoded strings, and what follows.
fn scan_args(rest: &str) -> Option<(String, Vec<Vec<u8>>, &str)> {
    let bytes = rest.as_bytes();
    let mut depth = 0i32;
    let mut args = String::new();
    let mut strings = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let (decoded, next) = decode_string(bytes, i + 1);
                strings.push(decoded);
                args.push_str("\"…\"");
                i = next;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            b')' if depth == 0 => return Some((args, strings, &rest[i + 1..])),
            b')' => depth -= 1,
            _ => {}
        }
        args.push(bytes[i] as char);
        i += 1;
    }
    None
}

/// Decodes a C string strace wrote, from just after its opening quote;
/// returns the bytes and the index after the closing quote (and after a
/// `...` that marks truncation).
fn decode_string(bytes: &[u8], mut i: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    while i < bytes.len() {
        // Plain bytes up to the next quote or escape, at once.
        let plain = bytes[i..]
            .iter()
            .position(|b| matches!(b, b'"' | b'\\'))
            .unwrap_or(bytes.len() - i);
        out.extend_from_slice(&bytes[i..i + plain]);
        i += plain;
        if i >= bytes.len() {
            break;
        }
        match bytes[i] {
            b'"' => {
                i += 1;
                if bytes[i..].starts_with(b"...") {
                    i += 3;
                }
                return (out, i);
            }
            b'\\' if i + 1 < bytes.len() => {
                let c = bytes[i + 1];
                i += 2;
                match c {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'v' => out.push(0x0b),
                    b'f' => out.push(0x0c),
                    b'x' => {
                        let hex = std::str::from_utf8(&bytes[i..(i + 2).min(bytes.len())])
                            .ok()
                            .and_then(|h| u8::from_str_radix(h, 16).ok());
                        if let Some(b) = hex {
                            out.push(b);
                            i += 2;
                        }
                    }
                    b'0'..=b'7' => {
                        let mut value = u32::from(c - b'0');
                        let mut n = 1;
                        while n < 3 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                            value = value * 8 + u32::from(bytes[i] - b'0');
                            i += 1;
                            n += 1;
                        }
                        out.push(value as u8);
                    }
                    other => out.push(other),
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    (out, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_give_name_fd_strings_and_return() {
        let c = parse_line(r#"openat(AT_FDCWD</>, "/tmp/w", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3</tmp/w>"#).unwrap();
        assert_eq!(c.name, "openat");
        assert_eq!(c.string(0).as_deref(), Some("/tmp/w"));
        assert!(c.args.contains("O_WRONLY"));
        assert_eq!(c.returned_path().as_deref(), Some("/tmp/w"));
        let c = parse_line(r#"sendto(4<UDP:[28918]>, "\x61\x62\x63\x00\xff", 5, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, 16) = 5"#).unwrap();
        assert_eq!(c.fd.as_deref(), Some("UDP:[28918]"));
        assert_eq!(c.strings[0], b"abc\x00\xff");
        assert_eq!(c.string(1).as_deref(), Some("127.0.0.1"));
        let c = parse_line(r#"connect(3<TCP:[28915]>, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("10.1.2.3")}, 16) = -1 ENETUNREACH (Network is unreachable)"#).unwrap();
        assert!(!c.ok());
        assert!(c.args.contains("htons(80)"));
        let c = parse_line(r#"write(1</dev/null>, "a \"q\"\n\\", 7) = 7"#).unwrap();
        assert_eq!(c.strings[0], b"a \"q\"\n\\");
        assert!(parse_line("+++ exited with 0 +++").is_none());
        assert!(parse_line("--- SIGCHLD {si_signo=SIGCHLD} ---").is_none());
    }

    #[test]
    fn clone_returns_are_read_in_straces_namespace() {
        assert_eq!(child_pid("2 /* 26109 in strace's PID NS */"), Some(26109));
        assert_eq!(child_pid("26108"), Some(26108));
        assert_eq!(child_pid("-1 EAGAIN (x)"), None);
    }
}
