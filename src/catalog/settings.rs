//! The parts of `skills.toml` that decide what is served: `[install]`
//! (where links should be), `[agent.<name>] allow/deny` patterns, and
//! `enabled = false` on a `[skills]` entry.
//!
//! A view of the one typed manifest (`project::manifest`), not a second
//! parser: every command reads `skills.toml` the same way, so a section one
//! command accepts no other command refuses. The agent rules and their
//! matching are the manifest's own [`AgentRules`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::agents::roots::{Agent, Scope};
use crate::project::{Manifest, ManifestError};

use super::CatalogError;
pub use crate::project::manifest::{AgentRules, Denial};

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
        match Manifest::load(&project.join(crate::project::MANIFEST_FILE)) {
            Ok(manifest) => Ok(Self::from_manifest(&manifest)),
            Err(ManifestError::Read { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Ok(ProjectSettings::default())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The serving view of a loaded manifest (which has validated the
    /// agent ids and patterns already).
    pub fn from_manifest(manifest: &Manifest) -> ProjectSettings {
        let data = manifest.data();
        ProjectSettings {
            path: Some(manifest.path().to_owned()),
            scope: data.install.scope.root_scope(),
            agents: data
                .install
                .agents
                .as_ref()
                .map(|ids| ids.iter().filter_map(|id| Agent::parse(id)).collect()),
            agent_rules: data.agent.clone(),
            disabled: data
                .skills
                .iter()
                .filter(|(_, decl)| !decl.enabled)
                .map(|(name, _)| name.clone())
                .collect(),
        }
    }

    /// The rules for `agent`, if `skills.toml` has a table for it.
    pub fn rules_for(&self, agent: &str) -> Option<&AgentRules> {
        self.agent_rules.get(agent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ProjectSettings, CatalogError> {
        let manifest = Manifest::parse(text, Path::new("skills.toml"))?;
        Ok(ProjectSettings::from_manifest(&manifest))
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
