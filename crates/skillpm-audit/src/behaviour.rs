//! The rules of `skillpm audit --run` (docs/audit.md, "Running a skill:
//! audit --run"): what a skill's scripts were *seen doing* in the sandbox,
//! as opposed to what the static rules of [`super::rules`] read in its
//! files. The sandbox (`crate::sandbox`, one layer up) fills the findings;
//! this table gives them their ids, severities and reasons, so the report,
//! the install gate and SARIF treat them exactly like static findings.

use super::rules::Rule;
use super::{Family, Finding, Severity};

/// The behaviour rules: rows of [`Rule`], as the static rules are, with
/// no pattern (the sandbox judges what a run did).
pub static BEHAVIOUR_RULES: &[Rule] = &[
    Rule {
        id: "run-canary-read",
        family: Family::Credentials,
        severity: Severity::High,
        why: "the script opened a credential file of the sandbox's fake home (a canary): a real run would read the user's secret",
        example: "openat(\"/home/user/.aws/credentials\") (canary aws-credentials)",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-canary-exfil",
        family: Family::Credentials,
        severity: Severity::Critical,
        why: "a canary credential's bytes (plain, base64 or hex) left the script through the network (an HTTP request, a DNS query, a socket write)",
        example: "POST http://collect.example/u carries canary env-GITHUB_TOKEN (base64)",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-canary-copy",
        family: Family::Credentials,
        severity: Severity::High,
        why: "a canary credential's bytes were written into another file, where a later step or another program can pick them up",
        example: "write(\"/tmp/.cache/x\") carries canary ssh-key",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-network",
        family: Family::RemoteCode,
        severity: Severity::High,
        why: "the script sent plain traffic over the network (an HTTP request, raw TCP, or a connection to a bare address outside the sandbox), whose content a canary check sees and an honest script has little reason for",
        example: "POST http://collect.example/u",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-exec-written",
        family: Family::RemoteCode,
        severity: Severity::Critical,
        why: "the script ran a file that the run itself had written (downloaded or decoded, then executed)",
        example: "execve(\"/tmp/p\") of a file written during the run",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-persistence",
        family: Family::Persistence,
        severity: Severity::High,
        why: "the script wrote (or tried to write) where code runs again later: shell rc files, cron, autostart, launch agents, systemd units, git hooks, authorized_keys",
        example: "openat(\"/home/user/.bashrc\", O_WRONLY|O_APPEND)",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-outlived",
        family: Family::Persistence,
        severity: Severity::High,
        why: "a process the script started was still running after the script had exited, or detached itself from the script's session (a background job or a daemon)",
        example: "sleep 30 (still running after the script exited)",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-local-server",
        family: Family::Persistence,
        severity: Severity::Medium,
        why: "a server the script started was still running after it exited, listening on this machine only, and the script reached nothing outside (a dev or preview server): stop it when done",
        example: "node server.cjs (still running after the script exited)",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-escape",
        family: Family::Payload,
        severity: Severity::High,
        why: "the script reached for what lies outside the sandbox (another process's root, the real home folder, a container or system socket, namespaces, mounts, ptrace); it failed inside, and no honest script needs it",
        example: "openat(\"/proc/1/root/etc/shadow\")",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-destroy",
        family: Family::Payload,
        severity: Severity::High,
        why: "the script deleted what the user's home held before the run (a credential file, the project's .env, the folders holding them): a real run would destroy the user's files",
        example: "unlinkat(\"/home/user/.aws/credentials\") = 0",
        ..Rule::PLAIN
    },
    Rule {
        id: "run-unfinished",
        family: Family::Obfuscation,
        severity: Severity::Medium,
        why: "the skill's run reached its deadline: a script was killed, or not started, before it finished, so what it would have done after that was not observed (the run is not a clean bill)",
        example: "killed at the deadline after 1500 ms",
        ..Rule::PLAIN
    },
];

/// The rule named `id`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    BEHAVIOUR_RULES.iter().find(|r| r.id == id)
}

/// A finding of rule `id` (one of [`BEHAVIOUR_RULES`]) about `file` (the
/// script, `/`-separated, relative to the skill), with `excerpt` naming the
/// syscall or request and `detail` (the canary, the path) added to the why.
pub fn finding(id: &str, file: &str, excerpt: &str, detail: &str) -> Finding {
    let (severity, why) = rule(id).map_or((Severity::High, ""), |r| (r.severity, r.why));
    Finding {
        rule: id.to_owned(),
        severity,
        file: file.to_owned(),
        line: 0,
        excerpt: super::excerpt(excerpt, 160),
        why: if detail.is_empty() {
            why.to_owned()
        } else {
            format!("{why} ({detail})")
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaviour_ids_are_unique_and_apart_from_the_static_rules() {
        let mut ids: Vec<&str> = BEHAVIOUR_RULES.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), BEHAVIOUR_RULES.len());
        for r in BEHAVIOUR_RULES {
            assert!(r.id.starts_with("run-"), "{}", r.id);
            assert!(super::super::rules::all().all(|s| s.id != r.id));
        }
    }
}
