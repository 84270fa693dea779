//! The agents table: every coding agent skillpm knows, where each one reads
//! skills in a project and in the user's home (with the environment
//! variables that move those folders), and how to tell it is installed.
//!
//! One table serves both directions: placement (`install`, `add`,
//! `remove`, … write links into the folders of the chosen agents) and
//! discovery (`list --all`, `show`, `doctor`, `mcp` scan every folder every
//! agent reads). Rows live in [`table`], each citing its source.

mod env;
pub mod other_tools;
pub mod roots;
mod table;

use std::path::{Path, PathBuf};

pub use env::Env;

/// A folder in the user's home, possibly moved by an environment variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dir {
    /// The variable that replaces `~/<base>` when set (`CODEX_HOME`).
    pub var: Option<&'static str>,
    /// Whether `base` is under the XDG config folder instead of the home.
    pub xdg: bool,
    /// The folder the variable stands for, relative to home (or config).
    pub base: &'static str,
    /// The skills folder below it.
    pub rel: &'static str,
}

impl Dir {
    /// `~/<rel>`.
    pub const fn home(rel: &'static str) -> Dir {
        Dir {
            var: None,
            xdg: false,
            base: "",
            rel,
        }
    }

    /// `${XDG_CONFIG_HOME:-~/.config}/<rel>`.
    pub const fn config(rel: &'static str) -> Dir {
        Dir {
            var: None,
            xdg: true,
            base: "",
            rel,
        }
    }

    /// `${VAR:-~/<base>}/<rel>`.
    pub const fn var(var: &'static str, base: &'static str, rel: &'static str) -> Dir {
        Dir {
            var: Some(var),
            xdg: false,
            base,
            rel,
        }
    }

    /// The folder in `env`, or `None` when the home folder is unknown.
    pub fn resolve(&self, env: &Env) -> Option<PathBuf> {
        let base = match self.var.and_then(|v| env.var(v)) {
            Some(moved) => moved.to_owned(),
            None => {
                let top = if self.xdg {
                    env.config_dir()?
                } else {
                    env.home.clone()?
                };
                if self.base.is_empty() {
                    top
                } else {
                    top.join(self.base)
                }
            }
        };
        Some(if self.rel.is_empty() {
            base
        } else {
            base.join(self.rel)
        })
    }

    /// How the folder is written in docs and `skillpm agents`: `~/.x/skills`,
    /// `${CODEX_HOME:-~/.codex}/skills`.
    pub fn pattern(&self) -> String {
        let top = if self.xdg {
            "${XDG_CONFIG_HOME:-~/.config}"
        } else {
            "~"
        };
        let base = match (self.var, self.base.is_empty()) {
            (Some(v), _) => format!("${{{v}:-{top}/{}}}", self.base),
            (None, true) => top.to_owned(),
            (None, false) => format!("{top}/{}", self.base),
        };
        if self.rel.is_empty() {
            base
        } else {
            format!("{base}/{}", self.rel)
        }
    }
}

/// One sign that an agent is installed or used here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// `~/<path>` exists.
    Home(&'static str),
    /// `${XDG_CONFIG_HOME:-~/.config}/<path>` exists.
    Config(&'static str),
    /// `${VAR:-~/<base>}` exists.
    Var(&'static str, &'static str),
    /// `<project>/<path>` exists.
    Project(&'static str),
}

impl Probe {
    fn holds(&self, project: &Path, env: &Env) -> bool {
        let path = match *self {
            Probe::Home(rel) => env.home.as_ref().map(|h| h.join(rel)),
            Probe::Config(rel) => env.config_dir().map(|c| c.join(rel)),
            Probe::Var(var, base) => Dir::var(var, base, "").resolve(env),
            Probe::Project(rel) => Some(project.join(rel)),
        };
        path.is_some_and(|p| p.exists())
    }
}

/// The machine-wide folder an agent reads, if any (relative to the admin
/// base, see [`Env::admin_path`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admin {
    None,
    /// `/etc/agent-skills`.
    Shared,
    /// Claude Code's managed-settings folder + `.claude/skills`.
    ClaudeManaged,
    /// `/etc/codex/skills`.
    Codex,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct AgentDef {
    /// The name `--agent`, `[install] agents` and JSON use.
    pub id: &'static str,
    pub display: &'static str,
    /// Other accepted names (vercel's ids where skillpm's differ).
    pub aliases: &'static [&'static str],
    /// The project folder skillpm writes, relative to the project root.
    pub project: &'static str,
    /// Other project folders the agent reads (discovery only).
    pub project_reads: &'static [&'static str],
    /// The user folder skillpm writes.
    pub user: Option<Dir>,
    /// Other user folders the agent reads (discovery only).
    pub user_reads: &'static [Dir],
    /// Skills the agent ships itself (read-only).
    pub system: Option<Dir>,
    pub admin: Admin,
    /// Any one of these existing means the agent is used here.
    pub detect: &'static [Probe],
    /// Where the row's facts come from.
    pub doc: &'static str,
}

impl AgentDef {
    /// Defaults for rows taken from vercel's table.
    pub(crate) const VERCEL: AgentDef = AgentDef {
        id: "",
        display: "",
        aliases: &[],
        project: "",
        project_reads: &[],
        user: None,
        user_reads: &[],
        system: None,
        admin: Admin::None,
        detect: &[],
        doc: table::VERCEL_TABLE,
    };

    /// Whether the agent reads the shared `<project>/.agents/skills`.
    pub fn reads_shared(&self) -> bool {
        self.project == SHARED || self.project_reads.contains(&SHARED)
    }

    /// Every project folder the agent reads, the written one first.
    pub fn project_dirs(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.project).chain(self.project_reads.iter().copied())
    }

    /// Every user folder the agent reads, the written one first.
    pub fn user_dirs(&self) -> impl Iterator<Item = Dir> {
        self.user.into_iter().chain(self.user_reads.iter().copied())
    }
}

/// The shared project folder of the Agent Skills standard.
pub const SHARED: &str = ".agents/skills";

/// The table, in skillpm's order (shared folder first, then Claude Code,
/// OpenCode, Codex, then the rest as vercel lists them).
pub fn table() -> &'static [AgentDef] {
    table::AGENTS
}

const COUNT: usize = table::AGENTS.len();

/// An agent of the table, by position. Cheap to copy and compare; ordered
/// like the table; serialised as its id.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Agent(u16);

#[allow(non_upper_case_globals)]
impl Agent {
    /// The shared `.agents/skills` folder.
    pub const Agents: Agent = Agent(0);
    pub const Claude: Agent = Agent(1);
    pub const Opencode: Agent = Agent(2);
    pub const Codex: Agent = Agent(3);

    /// Every agent, in table order.
    pub const ALL: [Agent; COUNT] = {
        let mut all = [Agent(0); COUNT];
        let mut i = 0;
        while i < COUNT {
            all[i] = Agent(i as u16);
            i += 1;
        }
        all
    };

    pub fn def(self) -> &'static AgentDef {
        &table::AGENTS[self.0 as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.def().id
    }

    /// The agent with this id or alias (case-insensitive).
    pub fn parse(name: &str) -> Option<Agent> {
        let name = name.trim();
        Agent::ALL.into_iter().find(|a| {
            let d = a.def();
            d.id.eq_ignore_ascii_case(name)
                || d.aliases.iter().any(|x| x.eq_ignore_ascii_case(name))
        })
    }

    /// Whether the agent is installed or used here: one of its probes
    /// exists in `project` or the user's folders.
    pub fn detected(self, project: &Path, env: &Env) -> bool {
        self.def().detect.iter().any(|p| p.holds(project, env))
    }

    /// The ids, for error messages.
    pub fn known_ids() -> String {
        Agent::ALL.map(|a| a.as_str()).join(", ")
    }
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Agent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Agent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Agent::parse(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown agent `{name}` (known: {})",
                Agent::known_ids()
            ))
        })
    }
}

impl std::str::FromStr for Agent {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Agent::parse(s).ok_or_else(|| {
            format!(
                "unknown agent `{s}`; `skillpm agents` lists them (known: {})",
                Agent::known_ids()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_aliases_are_unique_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for a in Agent::ALL {
            let d = a.def();
            for name in std::iter::once(d.id).chain(d.aliases.iter().copied()) {
                assert!(seen.insert(name), "{name} twice");
                assert!(crate::skill::is_valid_name(name), "{name}");
            }
            assert!(!d.display.is_empty() && !d.project.is_empty(), "{}", d.id);
            assert!(d.doc.starts_with("https://"), "{}", d.id);
            for p in d.project_dirs() {
                assert!(!p.starts_with('/') && !p.contains(".."), "{p}");
            }
        }
        const { assert!(COUNT >= 70, "vercel's table has more than 70 rows") };
    }

    #[test]
    fn legacy_names_stay_first() {
        assert_eq!(Agent::Agents.as_str(), "agents");
        assert_eq!(Agent::Claude.as_str(), "claude");
        assert_eq!(Agent::Opencode.as_str(), "opencode");
        assert_eq!(Agent::Codex.as_str(), "codex");
        assert_eq!(Agent::parse("claude-code"), Some(Agent::Claude));
        assert_eq!(Agent::parse("Cursor").map(|a| a.as_str()), Some("cursor"));
        assert_eq!(Agent::parse("vim"), None);
    }

    #[test]
    fn patterns_name_the_override() {
        assert_eq!(
            Agent::Codex.def().user.unwrap().pattern(),
            "${CODEX_HOME:-~/.codex}/skills"
        );
        assert_eq!(
            Agent::Opencode.def().user.unwrap().pattern(),
            "${XDG_CONFIG_HOME:-~/.config}/opencode/skills"
        );
        assert_eq!(Dir::home(".cursor/skills").pattern(), "~/.cursor/skills");
    }
}
