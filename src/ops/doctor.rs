//! `skillpm doctor`: everything that stands between the skills on disk and
//! the agents that should load them, with what to do about each.
//!
//! Checks: the roots scanned, in precedence order; shadowed skills;
//! skills that fail the strict check; skillpm links that are dangling,
//! modified, stale, unlocked or unapproved; folders skillpm did not make
//! where `skills.lock` expects a link; environment variables and MCP
//! servers that skills declare in `agents/openai.yaml` but this machine
//! lacks; skills the MCP listing has no room for; store entries whose
//! content no longer matches their name. Any error or
//! warning means action is needed (exit 1).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::discover::discover_here;
use super::mentions::catalog_options;
use super::{Context, Report};
use crate::catalog::{
    Approvals, Catalog, CatalogError, CatalogSkill, HashCache, Policy, ProjectSettings, Withheld,
};
use crate::error::Exit;
use crate::link::LinkState;
use crate::mcp::clients::{self, ConfiguredServer};
use crate::mcp::listing;
use crate::roots::{self, Agent, Discovery, Env, Scope};
use crate::skill::ToolKind;

#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    pub agent: Option<String>,
    pub include_unmanaged: bool,
    pub context_chars: Option<usize>,
}

/// How much a finding matters. Errors and warnings need action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Info,
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
        }
    }
}

/// One thing doctor noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub level: Level,
    /// A stable slug: `invalid-skill`, `shadowed`, `broken-link`,
    /// `foreign-folder`, `not-linked`, `stale-link`, `modified`, `policy`,
    /// `unlocked`, `unapproved`, `unmanaged`, `disabled`, `denied`,
    /// `missing-env-var`, `missing-mcp-server`, `over-budget`,
    /// `store-corrupt`, `scan`, `client-config`.
    pub kind: &'static str,
    pub skill: Option<String>,
    pub path: Option<PathBuf>,
    /// What is wrong and what to do.
    pub message: String,
}

/// The `doctor` report.
///
/// JSON shape (stable):
/// ```json
/// {"project": "/work/app",
///  "roots": [{"rank": 1, "scope": "repo", "agent": "agents", "path": "…", "exists": true,
///             "skills": 2, "truncated": false}],
///  "skills": [{"name": "pdf", "scope": "repo", "agent": "agents", "path": "…",
///              "status": "served", "managed": true}],
///  "listing": {"budget": 16000, "used": 412, "listed": ["pdf"], "omitted": []},
///  "store": {"entries_checked": 1, "corrupt": 0},
///  "mcp_servers": [{"name": "github", "client": "claude", "file": "…/.mcp.json", "enabled": true}],
///  "findings": [{"level": "error", "kind": "broken-link", "skill": "gone", "path": "…",
///                "message": "…"}],
///  "needs_action": true}
/// ```
/// `status` is `served`, `withheld` (see its finding), `shadowed` (by a
/// different skill of the same name), `duplicate` (the winner's own folder
/// linked into another agent folder) or `invalid`. Findings are sorted
/// errors first.
#[derive(Debug, Clone, Serialize)]
pub struct DoctorReport {
    pub project: PathBuf,
    pub roots: Vec<DoctorRoot>,
    pub skills: Vec<DoctorSkill>,
    pub listing: ListingReport,
    pub store: StoreReport,
    pub mcp_servers: Vec<ConfiguredServer>,
    pub findings: Vec<Finding>,
    pub needs_action: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct DoctorRoot {
    /// 1 = highest precedence.
    pub rank: usize,
    pub scope: Scope,
    pub agent: Agent,
    pub path: PathBuf,
    pub exists: bool,
    pub skills: usize,
    pub truncated: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct DoctorSkill {
    pub name: String,
    pub scope: Scope,
    pub agent: Agent,
    pub path: PathBuf,
    pub status: &'static str,
    pub managed: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ListingReport {
    pub budget: usize,
    pub used: usize,
    pub listed: Vec<String>,
    pub omitted: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct StoreReport {
    pub entries_checked: usize,
    pub corrupt: usize,
}

impl DoctorReport {
    pub fn exit(&self) -> Exit {
        if self.needs_action {
            Exit::Other
        } else {
            Exit::Success
        }
    }
}

pub fn doctor(ctx: &Context, opts: &DoctorOptions) -> anyhow::Result<DoctorReport> {
    let options = catalog_options(opts.agent.clone(), opts.include_unmanaged)?;
    let discovery = discover_here(ctx)?;
    let project = discovery.project.clone();
    let env = Env::from_process();
    let mut findings = Vec::new();
    // A broken skills.toml or skills.lock is a finding here, not the end:
    // the rest is checked with defaults in its place.
    let mut broken = |e: CatalogError, consequence: &str| {
        findings.push(finding(
            Level::Error,
            "policy",
            None,
            None,
            format!("{e}; {consequence}"),
        ));
    };
    let settings = ProjectSettings::load(&project).unwrap_or_else(|e| {
        broken(
            e,
            "until it is fixed, its [install] and [agent.*] settings are ignored",
        );
        ProjectSettings::default()
    });
    let cache_root = crate::cache::cache_root().ok();
    let approvals = Approvals::load(&project, cache_root.as_deref()).unwrap_or_else(|e| {
        broken(e, "until it is fixed no skillpm link counts as approved");
        Approvals::default()
    });
    let policy = Policy {
        settings,
        approvals,
    };
    let catalog = Catalog::build(&discovery, &policy, &options, &mut HashCache::new());
    let settings = &policy.settings;

    for w in &discovery.warnings {
        findings.push(finding(Level::Warning, "scan", None, None, w.clone()));
    }
    check_skills(&catalog.skills, &mut findings);
    check_duplicates(&discovery, &mut findings);
    let mut dangling = BTreeSet::new();
    check_root_links(&discovery, &mut findings, &mut dangling);
    if let Some(lock) = policy.approvals.project_lock() {
        check_lock_links(lock, settings, &project, &env, &dangling, &mut findings);
    }
    let servers = clients::configured_servers(&project, &env);
    for p in &servers.problems {
        findings.push(finding(
            Level::Warning,
            "client-config",
            None,
            None,
            p.clone(),
        ));
    }
    check_dependencies(&catalog.skills, &servers, &mut findings);

    let listing = listing::render(catalog.listed(), listing::budget_for(opts.context_chars));
    for name in &listing.omitted {
        findings.push(finding(
            Level::Warning,
            "over-budget",
            Some(name),
            None,
            format!(
                "`{name}` does not fit in the {}-character skill listing agents read, so a model will not know to load it; shorten the descriptions of the listed skills, disable skills you do not need, or give `skillpm mcp` a larger --context-chars",
                listing.budget
            ),
        ));
    }
    let store = check_store(&discovery, &mut findings);

    findings.sort_by_key(|f| f.level);
    let needs_action = findings.iter().any(|f| f.level != Level::Info);
    Ok(DoctorReport {
        project,
        roots: discovery
            .roots
            .iter()
            .enumerate()
            .filter(|(_, r)| r.exists)
            .map(|(i, r)| DoctorRoot {
                rank: i + 1,
                scope: r.root.scope,
                agent: r.root.agent,
                path: r.root.path.clone(),
                exists: r.exists,
                skills: r.skills,
                truncated: r.truncated,
            })
            .collect(),
        skills: catalog
            .skills
            .iter()
            .map(|s| DoctorSkill {
                name: s.name.clone(),
                scope: s.scope,
                agent: s.agent,
                path: s.path.clone(),
                status: if !s.is_valid() {
                    "invalid"
                } else if s.shadowed_by.is_some() && same_as_winner(&catalog, s) {
                    "duplicate"
                } else if s.shadowed_by.is_some() {
                    "shadowed"
                } else if s.is_served() {
                    "served"
                } else {
                    "withheld"
                },
                managed: s.is_managed(),
            })
            .collect(),
        listing: ListingReport {
            budget: listing.budget,
            used: listing.chars(),
            listed: listing.included,
            omitted: listing.omitted,
        },
        store,
        mcp_servers: servers.servers,
        findings,
        needs_action,
    })
}

/// A shadowed copy that is the winner's own folder linked a second time
/// (one install linked into several agent folders): nothing is hidden.
fn same_as_winner(catalog: &Catalog, s: &CatalogSkill) -> bool {
    catalog
        .skills
        .iter()
        .any(|w| w.name == s.name && w.is_winner() && w.real_path == s.real_path)
}

fn finding(
    level: Level,
    kind: &'static str,
    skill: Option<&str>,
    path: Option<&Path>,
    message: String,
) -> Finding {
    Finding {
        level,
        kind,
        skill: skill.map(str::to_owned),
        path: path.map(Path::to_owned),
        message,
    }
}

/// Invalid and modified skills wherever they are, and winners withheld
/// for any other reason (a shadowed copy is otherwise reported once, under
/// `shadowed`: it is not what agents load).
fn check_skills(skills: &[CatalogSkill], findings: &mut Vec<Finding>) {
    for s in skills {
        let Some(why) = &s.withheld else { continue };
        let always = matches!(why, Withheld::Invalid { .. } | Withheld::Modified { .. });
        if s.shadowed_by.is_some() && !always {
            continue;
        }
        let (level, kind) = match why {
            Withheld::Invalid { .. } => (Level::Error, "invalid-skill"),
            Withheld::Modified { .. } => (Level::Error, "modified"),
            Withheld::Unlocked => (Level::Warning, "unlocked"),
            Withheld::Unapproved { .. } => (Level::Warning, "unapproved"),
            Withheld::Unmanaged => (Level::Info, "unmanaged"),
            Withheld::Disabled => (Level::Info, "disabled"),
            Withheld::Denied { .. } => (Level::Info, "denied"),
        };
        findings.push(finding(
            level,
            kind,
            Some(&s.name),
            Some(&s.path),
            why.explain(&s.name, &s.path),
        ));
    }
}

fn check_duplicates(discovery: &Discovery, findings: &mut Vec<Finding>) {
    for d in &discovery.duplicates {
        if d.same_target {
            continue;
        }
        let Some(winner) = &d.winner else { continue };
        let losers: Vec<String> = d
            .paths
            .iter()
            .filter(|p| *p != winner)
            .map(|p| p.display().to_string())
            .collect();
        findings.push(finding(
            Level::Warning,
            "shadowed",
            Some(&d.name),
            Some(winner),
            format!(
                "`{}` exists in {} folders with different content: {} wins (highest precedence) and shadows {}; agents load only the winner, so remove or rename the others",
                d.name,
                d.paths.len(),
                winner.display(),
                losers.join(", ")
            ),
        ));
    }
}

/// Dangling symlinks directly in a root: skillpm's (store entry gone) and
/// anyone else's.
fn check_root_links(
    discovery: &Discovery,
    findings: &mut Vec<Finding>,
    dangling: &mut BTreeSet<PathBuf>,
) {
    for root in discovery.roots.iter().filter(|r| r.exists) {
        let Ok(entries) = std::fs::read_dir(&root.root.path) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
            if !is_link || std::fs::metadata(&path).is_ok() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let target = std::fs::read_link(&path).unwrap_or_default();
            let (level, message) = match crate::link::inspect(&path) {
                Ok(LinkState::Symlink { .. }) => (
                    Level::Error,
                    format!(
                        "{} is a skillpm link to {}, which is no longer in the store: run `skillpm install` to restore it (or remove the skill with `skillpm remove {name}`)",
                        path.display(),
                        target.display()
                    ),
                ),
                _ => (
                    Level::Warning,
                    format!(
                        "{} is a symlink to {}, which does not exist; skillpm did not make it: remove it or point it at a skill folder",
                        path.display(),
                        target.display()
                    ),
                ),
            };
            dangling.insert(path.clone());
            findings.push(finding(
                level,
                "broken-link",
                Some(&name),
                Some(&path),
                message,
            ));
        }
    }
}

/// Where `skills.lock` says links should be (`[install]` scope and agents),
/// what is there.
fn check_lock_links(
    lock: &crate::project::lock::Lockfile,
    settings: &ProjectSettings,
    project: &Path,
    env: &Env,
    dangling: &BTreeSet<PathBuf>,
    findings: &mut Vec<Finding>,
) {
    let agents = settings
        .agents
        .clone()
        .unwrap_or_else(|| crate::ops::lifecycle::default_agents(project, env));
    let mut root_dirs: Vec<PathBuf> = Vec::new();
    for dir in agents
        .iter()
        .filter_map(|&a| roots::root_dir(settings.scope, a, project, env))
    {
        if !root_dirs.contains(&dir) {
            root_dirs.push(dir);
        }
    }
    let mut seen = BTreeSet::new();
    for entry in lock.skills() {
        let disabled = settings.disabled.contains(&entry.name);
        for root in &root_dirs {
            let path = root.join(&entry.name);
            if !seen.insert(path.clone()) || dangling.contains(&path) {
                continue;
            }
            let state = match crate::link::inspect(&path) {
                Ok(s) => s,
                Err(e) => {
                    findings.push(finding(
                        Level::Warning,
                        "broken-link",
                        Some(&entry.name),
                        Some(&path),
                        e.to_string(),
                    ));
                    continue;
                }
            };
            let name = entry.name.as_str();
            match state {
                LinkState::Missing if !disabled => findings.push(finding(
                    Level::Warning,
                    "not-linked",
                    Some(name),
                    Some(&path),
                    format!(
                        "skills.lock pins `{name}` but {} does not exist, so agents reading {} do not see it: run `skillpm install`",
                        path.display(),
                        root.display()
                    ),
                )),
                LinkState::Missing => {}
                LinkState::Foreign { what } => findings.push(finding(
                    Level::Error,
                    "foreign-folder",
                    Some(name),
                    Some(&path),
                    format!(
                        "{} is {what} skillpm did not create, where skills.lock expects a link to `{name}`; skillpm never overwrites it: move it away (or delete it) and run `skillpm install`",
                        path.display()
                    ),
                )),
                state if disabled => findings.push(finding(
                    Level::Warning,
                    "not-linked",
                    Some(name),
                    Some(&path),
                    format!(
                        "`{name}` is disabled in skills.toml but still linked at {} ({}): run `skillpm install` to remove the link",
                        path.display(),
                        if matches!(state, LinkState::Copy { .. }) { "a copy" } else { "a symlink" }
                    ),
                )),
                state => {
                    if let Some(d) = state.digest()
                        && d != entry.tree
                    {
                        findings.push(finding(
                            Level::Error,
                            "stale-link",
                            Some(name),
                            Some(&path),
                            format!(
                                "{} links to {d}, but skills.lock pins {}: run `skillpm install` to relink it",
                                path.display(),
                                entry.tree
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// Environment variables and MCP servers winners declare in
/// `agents/openai.yaml` that this machine lacks.
fn check_dependencies(
    skills: &[CatalogSkill],
    servers: &clients::ClientConfigs,
    findings: &mut Vec<Finding>,
) {
    for s in skills.iter().filter(|s| s.is_winner()) {
        let Some(meta) = &s.openai else { continue };
        for dep in &meta.dependencies {
            let why = dep
                .description
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            match dep.kind {
                ToolKind::EnvVar if dep.is_missing_env_var(crate::ops::env_var_is_set) => findings.push(finding(
                    Level::Warning,
                    "missing-env-var",
                    Some(&s.name),
                    Some(&s.path),
                    format!(
                        "`{}` needs the environment variable {}{why}, which is not set here: set it in the environment your agent runs in",
                        s.name, dep.value
                    ),
                )),
                ToolKind::Mcp if !servers.has(&dep.value) => {
                    let how = match (&dep.command, &dep.url) {
                        (Some(cmd), _) => format!(" (started with `{cmd}`)"),
                        (None, Some(url)) => format!(" (at {url})"),
                        _ => String::new(),
                    };
                    findings.push(finding(
                        Level::Warning,
                        "missing-mcp-server",
                        Some(&s.name),
                        Some(&s.path),
                        format!(
                            "`{}` needs the MCP server `{}`{how}{why}, which no agent here configures (.mcp.json, ~/.claude.json, ~/.codex/config.toml, opencode.json): add it to your agent's MCP configuration",
                            s.name, dep.value
                        ),
                    ));
                }
                _ => {}
            }
        }
    }
}

/// Every entry of the store must still hash to its name: a hand-edited
/// entry changes every link to it at once. Read-only (`skillpm cache
/// verify` is what quarantines); entries linked from a root found here
/// are named with their links.
fn check_store(discovery: &Discovery, findings: &mut Vec<Finding>) -> StoreReport {
    let mut linked: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for s in &discovery.skills {
        if let Ok(LinkState::Symlink { .. }) = crate::link::inspect(&s.path)
            && let Some(target) = &s.link_target
        {
            linked
                .entry(target.clone())
                .or_default()
                .push(s.path.clone());
        }
    }
    let mut entries: BTreeMap<PathBuf, crate::digest::Digest> = BTreeMap::new();
    if let Ok(cache) = crate::cache::cache_root() {
        let dir = cache.join(crate::cache::layout::STORE);
        for item in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let digest = item
                .file_name()
                .to_str()
                .and_then(crate::digest::Digest::from_file_name);
            if let Some(d) = digest {
                let path = std::fs::canonicalize(item.path()).unwrap_or_else(|_| item.path());
                entries.insert(path, d);
            }
        }
    }
    // Links into a store elsewhere (another cache dir) are checked too.
    for target in linked.keys() {
        if let Some(d) = target
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(crate::digest::Digest::from_file_name)
        {
            entries.insert(target.clone(), d);
        }
    }
    let mut cache = HashCache::new();
    let mut corrupt = 0;
    let mut checked = 0;
    for (entry, expected) in &entries {
        let problem = match cache.tree(entry) {
            Ok(t) if t.digest == *expected => None,
            Ok(t) => Some(format!(
                "now hashes to {}: its files were changed in place",
                t.digest
            )),
            // Removed by a concurrent `cache gc` while we looked: not a problem.
            Err(_) if !entry.exists() => continue,
            Err(e) => Some(format!("cannot be hashed ({e})")),
        };
        checked += 1;
        let Some(problem) = problem else { continue };
        corrupt += 1;
        let users = match linked.get(entry) {
            Some(links) => format!(
                "; linked from {}, which serve the changed files",
                links
                    .iter()
                    .map(|l| l.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => String::new(),
        };
        findings.push(finding(
            Level::Error,
            "store-corrupt",
            None,
            Some(entry),
            format!(
                "store entry {} {problem}{users}; run `skillpm cache verify` to quarantine it, then `skillpm install`",
                entry.display()
            ),
        ));
    }
    StoreReport {
        entries_checked: checked,
        corrupt,
    }
}

impl Report for DoctorReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "project: {}", self.project.display())?;
        writeln!(out, "\nroots, highest precedence first:")?;
        for r in &self.roots {
            let state = if !r.exists {
                "absent".to_owned()
            } else {
                let n = r.skills;
                let noun = if n == 1 { "skill" } else { "skills" };
                if r.truncated {
                    format!("{n} {noun}, scan cut short")
                } else {
                    format!("{n} {noun}")
                }
            };
            writeln!(
                out,
                "  {:>2}. {:<6} {:<8} {}  ({state})",
                r.rank,
                r.scope.as_str(),
                r.agent.as_str(),
                r.path.display()
            )?;
        }
        if !self.skills.is_empty() {
            let w = self
                .skills
                .iter()
                .map(|s| s.name.len())
                .max()
                .unwrap_or(4)
                .max(4);
            writeln!(out, "\nskills:")?;
            for s in &self.skills {
                writeln!(
                    out,
                    "  {:<w$}  {:<6} {:<8} {:<8} {}{}",
                    s.name,
                    s.scope.as_str(),
                    s.agent.as_str(),
                    s.status,
                    s.path.display(),
                    if s.managed { "  (skillpm)" } else { "" }
                )?;
            }
        }
        writeln!(
            out,
            "\nlisting: {} of {} characters, {} skill(s) listed, {} left out",
            self.listing.used,
            self.listing.budget,
            self.listing.listed.len(),
            self.listing.omitted.len()
        )?;
        writeln!(
            out,
            "store: {} entr{} checked, {} corrupt",
            self.store.entries_checked,
            if self.store.entries_checked == 1 {
                "y"
            } else {
                "ies"
            },
            self.store.corrupt
        )?;
        if !self.mcp_servers.is_empty() {
            let names: Vec<String> = self
                .mcp_servers
                .iter()
                .map(|s| format!("{} ({})", s.name, s.client))
                .collect();
            writeln!(out, "MCP servers configured: {}", names.join(", "))?;
        }
        writeln!(out)?;
        for f in &self.findings {
            writeln!(out, "{:<7} {}: {}", f.level.as_str(), f.kind, f.message)?;
        }
        let errors = self
            .findings
            .iter()
            .filter(|f| f.level == Level::Error)
            .count();
        let warnings = self
            .findings
            .iter()
            .filter(|f| f.level == Level::Warning)
            .count();
        if self.needs_action {
            writeln!(
                out,
                "\n{errors} error(s), {warnings} warning(s): action needed"
            )
        } else {
            writeln!(out, "no problems found")
        }
    }
}
