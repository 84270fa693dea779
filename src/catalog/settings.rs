//! The parts of `skills.toml` that decide what is served: `[install]`
//! (where links should be), `[agent.<name>] allow/deny` patterns, and
//! `enabled = false` on a `[skills]` entry.
//!
//! Read leniently: this module only looks at the keys it needs, so serving
//! and `doctor` work whatever else the file holds (an install would refuse
//! it with `project::manifest`'s strict reading). The agent rules and their
//! matching are the manifest's own [`AgentRules`], one type for both.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::roots::{Agent, Scope};

use super::CatalogError;
use crate::names::pattern;
pub use crate::project::manifest::{AgentRules, Denial};
use crate::project::manifest::{InstallSettings, Scope as ManifestScope};

/// The manifest's file name in the project folder.
pub const MANIFEST_FILE: &str = "skills.toml";

/// What `skills.toml` says about serving and placing skills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSettings {
    /// The file read, when there is one.
    pub path: Option<PathBuf>,
    /// `[install] scope` (default repo).
    pub scope: Scope,
    /// `[install] agents` (default `agents`, `claude`).
    pub agents: Vec<Agent>,
    pub agent_rules: BTreeMap<String, AgentRules>,
    /// Skills marked `enabled = false`.
    pub disabled: BTreeSet<String>,
}

impl Default for ProjectSettings {
    fn default() -> Self {
        ProjectSettings {
            path: None,
            scope: Scope::Repo,
            agents: vec![Agent::Agents, Agent::Claude],
            agent_rules: BTreeMap::new(),
            disabled: BTreeSet::new(),
        }
    }
}

impl ProjectSettings {
    /// Reads `<project>/skills.toml`; defaults when there is none.
    pub fn load(project: &Path) -> Result<ProjectSettings, CatalogError> {
        let path = project.join(MANIFEST_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ProjectSettings::default());
            }
            Err(source) => return Err(CatalogError::ReadSettings { path, source }),
        };
        Self::parse(&text, &path)
    }

    /// Reads the sections that decide serving with the manifest's own types
    /// (`[install]`, `[agent.*]`, `enabled` in `[skills]`); any other key
    /// is left to `project::manifest`.
    pub fn parse(text: &str, path: &Path) -> Result<ProjectSettings, CatalogError> {
        let invalid = |message: String| CatalogError::Settings {
            path: path.to_owned(),
            message,
        };
        let served: Served =
            toml::from_str(text).map_err(|e| invalid(e.to_string().trim_end().to_owned()))?;
        let agents = served
            .install
            .agents
            .iter()
            .map(|n| {
                Agent::ALL.into_iter().find(|a| a.as_str() == n).ok_or_else(|| {
                    invalid(format!(
                        "[install] agents lists unknown agent `{n}` (known: agents, claude, opencode, codex)"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        for (agent, rules) in &served.agent {
            for (key, p) in rules
                .allow
                .iter()
                .map(|p| ("allow", p))
                .chain(rules.deny.iter().map(|p| ("deny", p)))
            {
                pattern::validate(p)
                    .map_err(|why| invalid(format!("[agent.{agent}] {key}: `{p}` {why}")))?;
            }
        }
        Ok(ProjectSettings {
            path: Some(path.to_owned()),
            scope: match served.install.scope {
                ManifestScope::Repo => Scope::Repo,
                ManifestScope::User => Scope::User,
                ManifestScope::Admin => Scope::Admin,
            },
            agents,
            agent_rules: served.agent,
            disabled: served
                .skills
                .into_iter()
                .filter(|(_, s)| !s.enabled)
                .map(|(name, _)| name)
                .collect(),
        })
    }

    /// The rules for `agent`, if `skills.toml` has a table for it.
    pub fn rules_for(&self, agent: &str) -> Option<&AgentRules> {
        self.agent_rules.get(agent)
    }
}

/// The part of `skills.toml` that decides serving; other keys are ignored.
#[derive(serde::Deserialize)]
struct Served {
    #[serde(default)]
    install: InstallSettings,
    #[serde(default)]
    agent: BTreeMap<String, AgentRules>,
    #[serde(default)]
    skills: BTreeMap<String, Enabled>,
}

/// A `[skills]` entry, for its `enabled` flag only.
#[derive(serde::Deserialize)]
struct Enabled {
    #[serde(default = "yes")]
    enabled: bool,
}

fn yes() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ProjectSettings, CatalogError> {
        ProjectSettings::parse(text, Path::new("skills.toml"))
    }

    #[test]
    fn defaults_and_full_file() {
        let s = parse("").unwrap();
        assert_eq!(s.scope, Scope::Repo);
        assert_eq!(s.agents, [Agent::Agents, Agent::Claude]);
        let s = parse(
            "[install]\nscope = \"user\"\nagents = [\"codex\"]\n\
             [[source]]\nname = \"acme\"\nurl = \"https://x\"\n\
             [skills]\npdf = { source = \"acme\", enabled = false }\ndocx = { source = \"acme\" }\n\
             [agent.claude]\nallow = [\"code-*\"]\ndeny = [\"code-danger?\"]\n",
        )
        .unwrap();
        assert_eq!(s.scope, Scope::User);
        assert_eq!(s.agents, [Agent::Codex]);
        assert_eq!(s.disabled.iter().collect::<Vec<_>>(), ["pdf"]);
        let rules = s.rules_for("claude").unwrap();
        assert_eq!(rules.check("code-review"), Ok(()));
        assert_eq!(
            rules.check("code-danger1"),
            Err(Denial::Denied {
                pattern: "code-danger?".into()
            })
        );
        assert_eq!(rules.check("pdf"), Err(Denial::NotAllowed));
        assert!(s.rules_for("codex").is_none());
    }

    #[test]
    fn deny_wins_over_allow() {
        let rules = AgentRules {
            allow: vec!["*".into()],
            deny: vec!["deploy-*".into()],
        };
        assert!(rules.check("deploy-prod").is_err());
        assert!(rules.check("lint").is_ok());
    }

    #[test]
    fn wrong_types_are_errors_naming_the_key() {
        for (text, needle) in [
            ("[install]\nscope = \"galaxy\"\n", "scope"),
            ("[install]\nagents = [\"vim\"]\n", "unknown agent `vim`"),
            ("[agent.claude]\nallow = \"x\"\n", "allow = \"x\""),
            ("[agent.claude]\ndeny = [\"../x\"]\n", "`../x`"),
            (
                "[skills]\npdf = { source = \"a\", enabled = \"no\" }\n",
                "enabled",
            ),
            ("not toml =", "skills.toml"),
        ] {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
