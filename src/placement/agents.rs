//! The agents table as it applies to a project (`skillpm agents`): which
//! agents are detected, which get skills, every folder each one reads per
//! scope, and how many skillpm-managed skills each folder holds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::link;
use crate::agents::roots::Scope;
use crate::agents::{Agent, Env};

/// JSON shape (stable):
/// ```json
/// {"project": "/work/app", "chosen_from": "default",
///  "agents": [{"id": "claude", "name": "Claude Code", "aliases": ["claude-code"],
///              "detected": true, "chosen": true, "reads_shared": false,
///              "doc": "https://…",
///              "folders": [{"scope": "repo", "path": "/work/app/.claude/skills",
///                           "pattern": ".claude/skills", "written": true,
///                           "exists": true, "managed": 3}]}]}
/// ```
/// `chosen_from` is `manifest` (`[install] agents`) or `default` (the
/// shared folder plus detected agents). `written` marks the folder skillpm
/// places skills in for that scope; the others are only read by the agent.
/// `managed` counts skill folders skillpm placed there (any link mode).
#[derive(Debug, Serialize)]
pub struct AgentsReport {
    pub project: PathBuf,
    pub chosen_from: &'static str,
    pub agents: Vec<AgentRow>,
}

#[derive(Debug, Serialize)]
pub struct AgentRow {
    pub id: &'static str,
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub detected: bool,
    pub chosen: bool,
    pub reads_shared: bool,
    pub doc: &'static str,
    pub folders: Vec<AgentFolder>,
}

#[derive(Debug, Serialize)]
pub struct AgentFolder {
    pub scope: Scope,
    pub path: PathBuf,
    pub pattern: String,
    pub written: bool,
    pub exists: bool,
    pub managed: usize,
}

/// The report for `project` in `env`; `configured` is `[install] agents`.
pub fn report(project: &Path, env: &Env, configured: Option<Vec<Agent>>) -> AgentsReport {
    let chosen_from = if configured.is_some() {
        "manifest"
    } else {
        "default"
    };
    let chosen = configured.unwrap_or_else(|| super::default_agents(project, env));
    let mut counts: HashMap<PathBuf, (bool, usize)> = HashMap::new();
    let agents = Agent::ALL
        .into_iter()
        .map(|agent| {
            let def = agent.def();
            let folders = folders_of(agent, project, env);
            AgentRow {
                id: def.id,
                name: def.display,
                aliases: def.aliases,
                detected: agent == Agent::Agents || agent.detected(project, env),
                chosen: chosen.contains(&agent),
                reads_shared: def.reads_shared(),
                doc: def.doc,
                folders: folders
                    .into_iter()
                    .map(|(scope, path, pattern, written)| {
                        let (exists, managed) = *counts
                            .entry(path.clone())
                            .or_insert_with(|| count_managed(&path));
                        AgentFolder {
                            scope,
                            path,
                            pattern,
                            written,
                            exists,
                            managed,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    AgentsReport {
        project: project.to_owned(),
        chosen_from,
        agents,
    }
}

/// Every folder `agent` reads, per scope: (scope, path, pattern as the
/// agents table writes it, whether skillpm places skills there).
fn folders_of(agent: Agent, project: &Path, env: &Env) -> Vec<(Scope, PathBuf, String, bool)> {
    let def = agent.def();
    let mut folders = Vec::new();
    for (i, rel) in def.project_dirs().enumerate() {
        folders.push((Scope::Repo, project.join(rel), rel.to_owned(), i == 0));
    }
    for (i, dir) in def.user_dirs().enumerate() {
        if let Some(path) = dir.resolve(env) {
            folders.push((Scope::User, path, dir.pattern(), i == 0));
        }
    }
    if let Some(dir) = def.system
        && let Some(path) = dir.resolve(env)
    {
        folders.push((Scope::System, path, dir.pattern(), false));
    }
    if let Some(path) = env.admin_dir(def.admin) {
        let pattern = path.display().to_string();
        folders.push((Scope::Admin, path, pattern, true));
    }
    folders
}

/// Whether `root` exists, and how many of its entries skillpm placed.
fn count_managed(root: &Path) -> (bool, usize) {
    let Ok(dir) = std::fs::read_dir(root) else {
        return (false, 0);
    };
    let placements = link::placements(crate::cache::cache_root().ok().as_deref());
    let managed = dir
        .flatten()
        .filter(|e| {
            let record = link::record_at(&placements, &e.path());
            link::inspect(&e.path(), record).is_ok_and(|s| s.is_managed())
        })
        .count();
    (true, managed)
}
