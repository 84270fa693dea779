//! Where agents look for skills (docs/design.md#agents): the table of scopes × agent
//! folders, the project root, and discovery across all of them.
//!
//! The folders come from the agents table (`crate::agents`): each agent's
//! project folder (in every folder from the project root down to the
//! working directory), user folder (moved by `CLAUDE_CONFIG_DIR`,
//! `CODEX_HOME`, `XDG_CONFIG_HOME`, …), system folder (Codex's
//! `skills/.system`, read-only) and admin folder (`/etc/agent-skills`,
//! `/etc/codex/skills`, Claude Code's managed settings), plus every other
//! folder the agent reads (OpenCode's singular `skill/`).
//!
//! Repo roots exist in every folder from the project root down to the
//! working directory; nearer folders take precedence.

mod discover;
mod listed;
mod scan;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use discover::{Discovery, Duplicate, FoundSkill, RootReport, discover};
pub use listed::ListedRoot;
pub use scan::ScanLimits;

/// Who a skill root belongs to. Declared in precedence order: when two
/// scopes hold a skill of the same name, the earlier one wins.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The project (committed with the code).
    Repo,
    /// The person's home folder.
    User,
    /// Skills an agent ships itself; read-only, never written by skillpm.
    System,
    /// Machine-wide, managed by an administrator.
    Admin,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Repo => "repo",
            Scope::User => "user",
            Scope::System => "system",
            Scope::Admin => "admin",
        }
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub use crate::agents::{Agent, Env};

/// How skill folders are placed into a root (`--link-mode`, `[install]
/// link-mode`); `link` does the placing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkMode {
    /// A symlink to the store entry (a copy where symlinks are impossible).
    #[default]
    Symlink,
    /// A real folder of hard links to the store's files.
    Hardlink,
    /// A real folder of reflink clones (copy-on-write; btrfs, XFS, APFS…).
    Clone,
    /// A real folder of plain copies.
    Copy,
    /// A reflink clone, else a hard link, else a copy, decided per file system.
    Auto,
}

impl LinkMode {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkMode::Symlink => "symlink",
            LinkMode::Hardlink => "hardlink",
            LinkMode::Clone => "clone",
            LinkMode::Copy => "copy",
            LinkMode::Auto => "auto",
        }
    }
}

/// The skills folder skillpm writes for `agent` in `scope`, or `None` where
/// the agent has none (or the home folder is unknown). For `Repo`,
/// `project` is the folder holding the agent folders; other scopes ignore it.
pub fn root_dir(scope: Scope, agent: Agent, project: &Path, env: &Env) -> Option<PathBuf> {
    let def = agent.def();
    match scope {
        Scope::Repo => Some(project.join(def.project)),
        Scope::User => def.user?.resolve(env),
        Scope::System => def.system?.resolve(env),
        Scope::Admin => env.admin_dir(def.admin),
    }
}

/// Every folder `agent` reads in `scope` (the written one first).
fn read_dirs(scope: Scope, agent: Agent, project: &Path, env: &Env) -> Vec<PathBuf> {
    let def = agent.def();
    match scope {
        Scope::Repo => def.project_dirs().map(|d| project.join(d)).collect(),
        Scope::User => def.user_dirs().filter_map(|d| d.resolve(env)).collect(),
        _ => root_dir(scope, agent, project, env).into_iter().collect(),
    }
}

/// One folder agents scan for skills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Root {
    pub scope: Scope,
    pub agent: Agent,
    pub path: PathBuf,
}

/// Every root discovery scans, in precedence order: repo roots from `cwd`
/// up to `project` (nearest first; within a folder `.agents`, `.claude`,
/// `.opencode`), then user, system and admin roots. A folder reached twice
/// (Codex and the shared `.agents` folder; a project that is the home
/// folder) is listed once, under the user/system/admin scope when one
/// claims it, since that is where skillpm would write it.
pub fn all_roots(project: &Path, cwd: &Path, env: &Env) -> Vec<Root> {
    let mut outer = Vec::new();
    for scope in [Scope::User, Scope::System, Scope::Admin] {
        for agent in Agent::ALL {
            for path in read_dirs(scope, agent, project, env) {
                outer.push(Root { scope, agent, path });
            }
        }
    }
    let mut roots = Vec::new();
    for dir in dirs_from_cwd_to_project(project, cwd) {
        for agent in Agent::ALL {
            for path in read_dirs(Scope::Repo, agent, &dir, env) {
                // A bare `skills/` or `data/skills/` (OpenClaw, AstrBot) is
                // too common a name to scan in every project: it counts
                // only where that agent is detected.
                let generic = !path
                    .strip_prefix(&dir)
                    .ok()
                    .and_then(|p| p.to_str())
                    .is_some_and(|p| p.starts_with('.'));
                if generic && !agent.detected(project, env) {
                    continue;
                }
                roots.push(Root {
                    scope: Scope::Repo,
                    agent,
                    path,
                });
            }
        }
    }
    roots.retain(|r| !outer.iter().any(|o| o.path == r.path));
    roots.extend(outer);
    let mut seen = std::collections::HashSet::new();
    roots.retain(|r| seen.insert(r.path.clone()));
    roots
}

/// `cwd`, its parent, … up to and including `project`; just `project` when
/// `cwd` is not inside it.
pub fn dirs_from_cwd_to_project(project: &Path, cwd: &Path) -> Vec<PathBuf> {
    if !cwd.starts_with(project) {
        return vec![project.to_owned()];
    }
    cwd.ancestors()
        .take_while(|d| d.starts_with(project))
        .map(Path::to_path_buf)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env::with_home("/home/u")
    }

    /// Asserts the root folder of each `(scope, agent)` in `env`.
    fn assert_roots(env: &Env, expected: &[(Scope, Agent, &str)]) {
        for &(scope, agent, path) in expected {
            assert_eq!(
                root_dir(scope, agent, Path::new("/p"), env).as_deref(),
                Some(Path::new(path)),
                "{scope} {agent:?}"
            );
        }
    }

    #[test]
    fn user_roots_follow_the_environment() {
        assert_roots(
            &env(),
            &[
                (Scope::User, Agent::Agents, "/home/u/.agents/skills"),
                (Scope::User, Agent::Claude, "/home/u/.claude/skills"),
                (
                    Scope::User,
                    Agent::Opencode,
                    "/home/u/.config/opencode/skills",
                ),
                (Scope::User, Agent::Codex, "/home/u/.codex/skills"),
                (Scope::System, Agent::Codex, "/home/u/.codex/skills/.system"),
            ],
        );
        let moved = Env {
            claude_config_dir: Some("/cc".into()),
            codex_home: Some("/cx".into()),
            xdg_config_home: Some("/xdg".into()),
            ..env()
        };
        assert_roots(
            &moved,
            &[
                (Scope::User, Agent::Claude, "/cc/skills"),
                (Scope::User, Agent::Codex, "/cx/skills"),
                (Scope::System, Agent::Codex, "/cx/skills/.system"),
                (Scope::User, Agent::Opencode, "/xdg/opencode/skills"),
            ],
        );
    }

    #[test]
    fn repo_roots_and_missing_ones() {
        let p = Path::new("/p");
        let e = env();
        assert_roots(
            &e,
            &[
                (Scope::Repo, Agent::Codex, "/p/.agents/skills"),
                (Scope::Repo, Agent::Opencode, "/p/.opencode/skills"),
            ],
        );
        assert_eq!(root_dir(Scope::System, Agent::Claude, p, &e), None);
        assert_eq!(root_dir(Scope::Admin, Agent::Opencode, p, &e), None);
        assert_eq!(
            root_dir(Scope::User, Agent::Agents, p, &Env::default()),
            None
        );
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn admin_roots_and_their_prefix() {
        assert_roots(
            &env(),
            &[
                (Scope::Admin, Agent::Agents, "/etc/agent-skills"),
                (Scope::Admin, Agent::Codex, "/etc/codex/skills"),
                (
                    Scope::Admin,
                    Agent::Claude,
                    "/etc/claude-code/.claude/skills",
                ),
            ],
        );
        let prefixed = Env {
            admin_prefix: Some("/sandbox".into()),
            ..env()
        };
        assert_roots(
            &prefixed,
            &[(Scope::Admin, Agent::Agents, "/sandbox/etc/agent-skills")],
        );
    }

    #[test]
    fn roots_are_ordered_by_precedence_and_deduplicated() {
        let roots = all_roots(Path::new("/p"), Path::new("/p/a"), &env());
        let listed: Vec<(Scope, Agent, &str)> = roots
            .iter()
            .map(|r| (r.scope, r.agent, r.path.to_str().unwrap()))
            .collect();
        assert_eq!(
            &listed[..4],
            [
                (Scope::Repo, Agent::Agents, "/p/a/.agents/skills"),
                (Scope::Repo, Agent::Claude, "/p/a/.claude/skills"),
                (Scope::Repo, Agent::Opencode, "/p/a/.opencode/skills"),
                (Scope::Repo, Agent::Opencode, "/p/a/.opencode/skill"),
            ]
        );
        let nearest = roots
            .iter()
            .position(|r| r.path == Path::new("/p/.agents/skills"))
            .unwrap();
        assert!(roots[..nearest].iter().all(|r| r.path.starts_with("/p/a")));
        let scopes: Vec<Scope> = roots.iter().map(|r| r.scope).collect();
        let mut sorted = scopes.clone();
        sorted.sort();
        assert_eq!(scopes, sorted, "precedence order");
        // Every folder once; generic names (`skills/`) only where detected.
        let mut paths: Vec<_> = roots.iter().map(|r| &r.path).collect();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), roots.len());
        assert!(!roots.iter().any(|r| r.path == Path::new("/p/skills")));
        assert!(
            roots
                .iter()
                .any(|r| r.path == Path::new("/p/a/.cursor/skills"))
        );
        assert!(
            roots
                .iter()
                .any(|r| r.path == Path::new("/home/u/.config/opencode/skill"))
        );
    }

    #[test]
    fn a_project_in_the_home_folder_does_not_list_home_roots_twice() {
        let roots = all_roots(Path::new("/home/u"), Path::new("/home/u"), &env());
        let agents: Vec<_> = roots
            .iter()
            .filter(|r| r.path == Path::new("/home/u/.agents/skills"))
            .collect();
        assert_eq!(agents.len(), 1);
        assert_eq!(agents[0].scope, Scope::User);
    }

    #[test]
    fn dirs_between_cwd_and_project() {
        assert_eq!(
            dirs_from_cwd_to_project(Path::new("/p"), Path::new("/p/a/b")),
            [Path::new("/p/a/b"), Path::new("/p/a"), Path::new("/p")]
        );
        assert_eq!(
            dirs_from_cwd_to_project(Path::new("/p"), Path::new("/q")),
            [Path::new("/p")]
        );
    }
}
