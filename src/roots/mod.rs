//! Where agents look for skills (DESIGN §8): the table of scopes × agent
//! folders, the project root, and discovery across all of them.
//!
//! | scope  | agents                     | claude                                   | opencode                      | codex                      |
//! |--------|----------------------------|------------------------------------------|-------------------------------|----------------------------|
//! | repo   | `<dir>/.agents/skills`     | `<dir>/.claude/skills`                   | `<dir>/.opencode/skills`      | `<dir>/.agents/skills`     |
//! | user   | `~/.agents/skills`         | `${CLAUDE_CONFIG_DIR:-~/.claude}/skills` | `${XDG_CONFIG_HOME:-~/.config}/opencode/skills` | `${CODEX_HOME:-~/.codex}/skills` |
//! | system | —                          | —                                        | —                             | `${CODEX_HOME:-~/.codex}/skills/.system` |
//! | admin  | `/etc/agent-skills`        | Claude Code's managed-settings folder + `/.claude/skills` | — | `/etc/codex/skills`        |
//!
//! Repo roots exist in every folder from the project root down to the
//! working directory; nearer folders take precedence.

mod discover;
mod scan;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use discover::{Discovery, Duplicate, FoundSkill, RootReport, discover};
pub use scan::{RootScan, ScanLimits, ScannedSkill, scan_root};

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
    pub const ALL: [Scope; 4] = [Scope::Repo, Scope::User, Scope::System, Scope::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Repo => "repo",
            Scope::User => "user",
            Scope::System => "system",
            Scope::Admin => "admin",
        }
    }

    /// Whether skillpm may create links in this scope's roots.
    pub fn is_writable(self) -> bool {
        self != Scope::System
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which agent folder a root is: the shared `.agents` folder (read by Codex
/// and others) or one agent's own.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Agent {
    Agents,
    Claude,
    Opencode,
    Codex,
}

impl Agent {
    pub const ALL: [Agent; 4] = [Agent::Agents, Agent::Claude, Agent::Opencode, Agent::Codex];

    /// The agent a manifest names (any case), if skillpm knows it.
    pub fn parse(name: &str) -> Option<Agent> {
        Agent::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(name))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Agent::Agents => "agents",
            Agent::Claude => "claude",
            Agent::Opencode => "opencode",
            Agent::Codex => "codex",
        }
    }
}

impl std::fmt::Display for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The parts of the user's environment that move skill roots. Tests build
/// one directly; the binary uses [`Env::from_process`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    /// `HOME` (or the platform's home folder).
    pub home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`: replaces `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`: replaces `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`: replaces `~/.config` (absolute paths only, per XDG).
    pub xdg_config_home: Option<PathBuf>,
    /// `SKILLPM_ADMIN_PREFIX`: a folder standing in for `/` in admin-scope
    /// paths (for containers, packaging and tests); `None` means `/`.
    pub admin_prefix: Option<PathBuf>,
}

impl Env {
    /// Reads the variables above from this process; empty values count as unset.
    pub fn from_process() -> Env {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Env {
            home: var("HOME")
                .or_else(|| directories::BaseDirs::new().map(|d| d.home_dir().to_owned())),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
            admin_prefix: var("SKILLPM_ADMIN_PREFIX"),
        }
    }

    /// An environment with only a home folder set.
    pub fn with_home(home: impl Into<PathBuf>) -> Env {
        Env {
            home: Some(home.into()),
            ..Env::default()
        }
    }

    fn claude_dir(&self) -> Option<PathBuf> {
        self.claude_config_dir
            .clone()
            .or_else(|| Some(self.home.as_ref()?.join(".claude")))
    }

    fn codex_dir(&self) -> Option<PathBuf> {
        self.codex_home
            .clone()
            .or_else(|| Some(self.home.as_ref()?.join(".codex")))
    }

    fn config_dir(&self) -> Option<PathBuf> {
        self.xdg_config_home
            .clone()
            .or_else(|| Some(self.home.as_ref()?.join(".config")))
    }

    fn admin(&self, relative: &str) -> PathBuf {
        match &self.admin_prefix {
            Some(prefix) => prefix.join(relative),
            None => Path::new(ADMIN_BASE).join(relative),
        }
    }
}

#[cfg(unix)]
const ADMIN_BASE: &str = "/";
#[cfg(windows)]
const ADMIN_BASE: &str = "C:\\ProgramData";

/// Claude Code's managed (enterprise) settings folder, relative to the admin base.
#[cfg(all(unix, not(target_os = "macos")))]
const CLAUDE_MANAGED: &str = "etc/claude-code/.claude/skills";
#[cfg(target_os = "macos")]
const CLAUDE_MANAGED: &str = "Library/Application Support/ClaudeCode/.claude/skills";
#[cfg(windows)]
const CLAUDE_MANAGED: &str = "ClaudeCode\\.claude\\skills";

#[cfg(unix)]
const ADMIN_AGENTS: &str = "etc/agent-skills";
#[cfg(windows)]
const ADMIN_AGENTS: &str = "agent-skills";

/// The skills folder of `agent` in `scope`, or `None` where the agent has
/// none (or the home folder is unknown). For `Repo`, `project` is the
/// folder holding the agent folders; other scopes ignore it.
pub fn root_dir(scope: Scope, agent: Agent, project: &Path, env: &Env) -> Option<PathBuf> {
    match (scope, agent) {
        (Scope::Repo, Agent::Agents | Agent::Codex) => Some(project.join(".agents/skills")),
        (Scope::Repo, Agent::Claude) => Some(project.join(".claude/skills")),
        (Scope::Repo, Agent::Opencode) => Some(project.join(".opencode/skills")),
        (Scope::User, Agent::Agents) => Some(env.home.as_ref()?.join(".agents/skills")),
        (Scope::User, Agent::Claude) => Some(env.claude_dir()?.join("skills")),
        (Scope::User, Agent::Opencode) => Some(env.config_dir()?.join("opencode/skills")),
        (Scope::User, Agent::Codex) => Some(env.codex_dir()?.join("skills")),
        (Scope::System, Agent::Codex) => Some(env.codex_dir()?.join("skills/.system")),
        (Scope::System, _) => None,
        (Scope::Admin, Agent::Agents) => Some(env.admin(ADMIN_AGENTS)),
        (Scope::Admin, Agent::Claude) => Some(env.admin(CLAUDE_MANAGED)),
        (Scope::Admin, Agent::Codex) if cfg!(unix) => Some(env.admin("etc/codex/skills")),
        (Scope::Admin, _) => None,
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
            if let Some(path) = root_dir(scope, agent, project, env) {
                outer.push(Root { scope, agent, path });
            }
        }
    }
    let mut roots = Vec::new();
    for dir in dirs_from_cwd_to_project(project, cwd) {
        for agent in [Agent::Agents, Agent::Claude, Agent::Opencode] {
            if let Some(path) = root_dir(Scope::Repo, agent, &dir, env) {
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

/// The project a command works on: the nearest ancestor of `cwd` (itself
/// included) holding `skills.toml`, else the nearest holding `.git`, else
/// `cwd` itself.
pub fn find_project_root(cwd: &Path) -> PathBuf {
    for marker in ["skills.toml", ".git"] {
        if let Some(dir) = cwd.ancestors().find(|d| d.join(marker).exists()) {
            return dir.to_owned();
        }
    }
    cwd.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env::with_home("/home/u")
    }

    #[test]
    fn user_roots_follow_the_environment() {
        let p = Path::new("/p");
        let e = env();
        assert_eq!(
            root_dir(Scope::User, Agent::Agents, p, &e).unwrap(),
            Path::new("/home/u/.agents/skills")
        );
        assert_eq!(
            root_dir(Scope::User, Agent::Claude, p, &e).unwrap(),
            Path::new("/home/u/.claude/skills")
        );
        assert_eq!(
            root_dir(Scope::User, Agent::Opencode, p, &e).unwrap(),
            Path::new("/home/u/.config/opencode/skills")
        );
        assert_eq!(
            root_dir(Scope::User, Agent::Codex, p, &e).unwrap(),
            Path::new("/home/u/.codex/skills")
        );
        assert_eq!(
            root_dir(Scope::System, Agent::Codex, p, &e).unwrap(),
            Path::new("/home/u/.codex/skills/.system")
        );

        let moved = Env {
            claude_config_dir: Some("/cc".into()),
            codex_home: Some("/cx".into()),
            xdg_config_home: Some("/xdg".into()),
            ..env()
        };
        assert_eq!(
            root_dir(Scope::User, Agent::Claude, p, &moved).unwrap(),
            Path::new("/cc/skills")
        );
        assert_eq!(
            root_dir(Scope::User, Agent::Codex, p, &moved).unwrap(),
            Path::new("/cx/skills")
        );
        assert_eq!(
            root_dir(Scope::System, Agent::Codex, p, &moved).unwrap(),
            Path::new("/cx/skills/.system")
        );
        assert_eq!(
            root_dir(Scope::User, Agent::Opencode, p, &moved).unwrap(),
            Path::new("/xdg/opencode/skills")
        );
    }

    #[test]
    fn repo_roots_and_missing_ones() {
        let p = Path::new("/p");
        let e = env();
        assert_eq!(
            root_dir(Scope::Repo, Agent::Codex, p, &e).unwrap(),
            Path::new("/p/.agents/skills")
        );
        assert_eq!(
            root_dir(Scope::Repo, Agent::Opencode, p, &e).unwrap(),
            Path::new("/p/.opencode/skills")
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
        let p = Path::new("/p");
        let e = env();
        assert_eq!(
            root_dir(Scope::Admin, Agent::Agents, p, &e).unwrap(),
            Path::new("/etc/agent-skills")
        );
        assert_eq!(
            root_dir(Scope::Admin, Agent::Codex, p, &e).unwrap(),
            Path::new("/etc/codex/skills")
        );
        assert_eq!(
            root_dir(Scope::Admin, Agent::Claude, p, &e).unwrap(),
            Path::new("/etc/claude-code/.claude/skills")
        );
        let prefixed = Env {
            admin_prefix: Some("/sandbox".into()),
            ..env()
        };
        assert_eq!(
            root_dir(Scope::Admin, Agent::Agents, p, &prefixed).unwrap(),
            Path::new("/sandbox/etc/agent-skills")
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
            &listed[..7],
            [
                (Scope::Repo, Agent::Agents, "/p/a/.agents/skills"),
                (Scope::Repo, Agent::Claude, "/p/a/.claude/skills"),
                (Scope::Repo, Agent::Opencode, "/p/a/.opencode/skills"),
                (Scope::Repo, Agent::Agents, "/p/.agents/skills"),
                (Scope::Repo, Agent::Claude, "/p/.claude/skills"),
                (Scope::Repo, Agent::Opencode, "/p/.opencode/skills"),
                (Scope::User, Agent::Agents, "/home/u/.agents/skills"),
            ]
        );
        let scopes: Vec<Scope> = roots.iter().map(|r| r.scope).collect();
        let mut sorted = scopes.clone();
        sorted.sort();
        assert_eq!(scopes, sorted, "precedence order");
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

    #[test]
    fn project_root_prefers_skills_toml_over_git() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        let inner = top.join("inner");
        let deep = inner.join("src/deep");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(find_project_root(&deep), deep);
        std::fs::create_dir(inner.join(".git")).unwrap();
        assert_eq!(find_project_root(&deep), inner);
        std::fs::write(top.join("skills.toml"), "").unwrap();
        assert_eq!(find_project_root(&deep), top);
    }
}
