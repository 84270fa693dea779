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

/// The manifest's file name in the project folder.
pub const MANIFEST_FILE: &str = "skills.toml";

/// What `skills.toml` says about serving and placing skills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSettings {
    /// The file read, when there is one.
    pub path: Option<PathBuf>,
    /// `[install] scope` (default repo).
    pub scope: Scope,
    /// `[install] agents`; `None`: the default (`.agents/skills` plus the
    /// detected agents, see `ops::lifecycle::default_agents`).
    pub agents: Option<Vec<Agent>>,
    pub agent_rules: BTreeMap<String, AgentRules>,
    /// Skills marked `enabled = false`.
    pub disabled: BTreeSet<String>,
}

impl Default for ProjectSettings {
    fn default() -> Self {
        ProjectSettings {
            path: None,
            scope: Scope::Repo,
            agents: None,
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

    pub fn parse(text: &str, path: &Path) -> Result<ProjectSettings, CatalogError> {
        let invalid = |message: String| CatalogError::Settings {
            path: path.to_owned(),
            message,
        };
        let table: toml::Table = toml::from_str(text).map_err(|e| invalid(e.message().into()))?;
        let mut settings = ProjectSettings {
            path: Some(path.to_owned()),
            ..ProjectSettings::default()
        };
        if let Some(install) = table.get("install") {
            let install = install
                .as_table()
                .ok_or_else(|| invalid("[install] must be a table".into()))?;
            if let Some(scope) = install.get("scope") {
                settings.scope = match scope.as_str() {
                    Some("repo") => Scope::Repo,
                    Some("user") => Scope::User,
                    Some("admin") => Scope::Admin,
                    _ => {
                        return Err(invalid(format!(
                            "[install] scope must be \"repo\", \"user\" or \"admin\", found {scope}"
                        )));
                    }
                };
            }
            if let Some(agents) = install.get("agents") {
                let names = strings(agents, "[install] agents").map_err(invalid)?;
                settings.agents = Some(names
                    .iter()
                    .map(|n| {
                        agent_named(n).ok_or_else(|| {
                            invalid(format!(
                                "[install] agents lists unknown agent `{n}`; `skillpm agents` lists the known ids"
                            ))
                        })
                    })
                    .collect::<Result<_, _>>()?);
            }
        }
        if let Some(agents) = table.get("agent") {
            let agents = agents
                .as_table()
                .ok_or_else(|| invalid("[agent] must hold one table per agent".into()))?;
            for (agent, rules) in agents {
                let rules = rules
                    .as_table()
                    .ok_or_else(|| invalid(format!("[agent.{agent}] must be a table")))?;
                let list = |key: &str| -> Result<Vec<String>, CatalogError> {
                    match rules.get(key) {
                        None => Ok(Vec::new()),
                        Some(v) => {
                            let items =
                                strings(v, &format!("[agent.{agent}] {key}")).map_err(invalid)?;
                            for p in &items {
                                pattern::validate(p).map_err(|why| {
                                    invalid(format!("[agent.{agent}] {key}: `{p}` {why}"))
                                })?;
                            }
                            Ok(items)
                        }
                    }
                };
                settings.agent_rules.insert(
                    agent.clone(),
                    AgentRules {
                        allow: list("allow")?,
                        deny: list("deny")?,
                    },
                );
            }
        }
        if let Some(skills) = table.get("skills").and_then(|s| s.as_table()) {
            for (name, decl) in skills {
                let enabled = decl.as_table().and_then(|t| t.get("enabled"));
                match enabled {
                    None => {}
                    Some(toml::Value::Boolean(true)) => {}
                    Some(toml::Value::Boolean(false)) => {
                        settings.disabled.insert(name.clone());
                    }
                    Some(other) => {
                        return Err(invalid(format!(
                            "[skills] {name}: `enabled` must be true or false, found {other}"
                        )));
                    }
                }
            }
        }
        Ok(settings)
    }

    /// The rules for `agent`, if `skills.toml` has a table for it.
    pub fn rules_for(&self, agent: &str) -> Option<&AgentRules> {
        self.agent_rules.get(agent)
    }
}

fn strings(value: &toml::Value, what: &str) -> Result<Vec<String>, String> {
    let array = value
        .as_array()
        .ok_or_else(|| format!("{what} must be an array of strings"))?;
    array
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{what} must be an array of strings, found {v}"))
        })
        .collect()
}

fn agent_named(name: &str) -> Option<Agent> {
    Agent::parse(name)
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
        assert_eq!(s.agents, None);
        let s = parse(
            "[install]\nscope = \"user\"\nagents = [\"codex\"]\n\
             [[source]]\nname = \"acme\"\nurl = \"https://x\"\n\
             [skills]\npdf = { source = \"acme\", enabled = false }\ndocx = { source = \"acme\" }\n\
             [agent.claude]\nallow = [\"code-*\"]\ndeny = [\"code-danger?\"]\n",
        )
        .unwrap();
        assert_eq!(s.scope, Scope::User);
        assert_eq!(s.agents, Some(vec![Agent::Codex]));
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
            ("[agent.claude]\nallow = \"x\"\n", "[agent.claude] allow"),
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
