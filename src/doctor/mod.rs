//! The checks of `skillpm doctor`: everything that stands between the
//! skills on disk and the agents that should load them, with what to do
//! about each, as findings (`view::doctor` renders them; `ops` passes in
//! the discovery and the options).
//!
//! Checks: the roots scanned, in precedence order; shadowed skills;
//! skills that fail the strict check; skillpm links that are dangling,
//! modified, stale, unlocked or unapproved; folders skillpm did not make
//! where `skills.lock` expects a link; environment variables and MCP
//! servers that skills declare in `agents/openai.yaml` but this machine
//! lacks; skills the MCP listing has no room for; store entries whose
//! content no longer matches their name. Any error or
//! warning means action is needed (exit 1).

pub mod claude_listing;
mod links;
mod skills;
mod store;

use links::{check_lock_links, check_root_links};
use skills::{check_dependencies, check_duplicates, check_skills};
use store::check_store;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::agents::roots::{self, Agent, Discovery, Env, Scope};
use crate::catalog::{
    Approvals, Catalog, CatalogError, CatalogOptions, CatalogSkill, HashCache, ProjectSettings,
    ServingRules, Withheld,
};
use crate::error::Exit;
use crate::mcp::clients::{self, ConfiguredServer};
use crate::mcp::listing;
use crate::placement::link::LinkState;
use crate::skill::ToolKind;

/// What a doctor run looks at, as the command gathered it.
pub struct Inputs<'a> {
    pub discovery: &'a Discovery,
    /// Which agent's view, and whether unmanaged skills count.
    pub options: &'a CatalogOptions,
    /// `--context-chars`: the listing budget.
    pub context_chars: Option<usize>,
    /// Claude Code's own listing budget when its variable sets one
    /// ([`claude_listing::BUDGET_VAR`]).
    pub claude_budget: Option<usize>,
    /// Whether a dependency's environment variable is set here.
    pub env_var_is_set: fn(&str) -> bool,
    /// `-v`: the human text lists every skill.
    pub verbose: bool,
}

/// How much a finding matters. Errors and warnings need action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Urgency {
    Error,
    Warning,
    Info,
}

impl Urgency {
    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::Error => "error",
            Urgency::Warning => "warning",
            Urgency::Info => "info",
        }
    }
}

/// One thing doctor noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Observation {
    pub level: Urgency,
    /// A stable slug: `invalid-skill`, `shadowed`, `broken-link`,
    /// `foreign-folder`, `not-linked`, `stale-link`, `modified`, `policy`,
    /// `unlocked`, `unapproved`, `unmanaged`, `disabled`, `denied`,
    /// `missing-env-var`, `missing-mcp-server`, `over-budget`,
    /// `store-corrupt`, `scan`, `client-config`, `install-policy`.
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
///  "install_policy": [{"rule": "sources.deny", "value": "…", "level": "admin",
///                      "at": {"file": "/etc/skillpm/policy.toml", "line": 3}}],
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
    pub findings: Vec<Observation>,
    /// The install policy in force (docs/policy.md): each rule with the
    /// file and line it comes from; empty with no policy file.
    pub install_policy: Vec<crate::policy::RuleShown>,
    pub needs_action: bool,
    /// `-v`: the human text lists every skill.
    #[serde(skip)]
    pub verbose: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct DoctorRoot {
    /// 1 = highest precedence.
    pub rank: usize,
    /// The same fields as `list --json`'s roots.
    #[serde(flatten)]
    pub root: crate::agents::roots::ListedRoot,
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

/// Every check, over what `inputs` found.
pub fn examine(inputs: Inputs<'_>) -> DoctorReport {
    let discovery = inputs.discovery;
    let project = discovery.project.clone();
    let env = Env::from_process();
    let mut findings = Vec::new();
    let policy = load_policy(&project, &mut findings);
    let install_policy = match crate::policy::load(&env, &project) {
        Ok(p) => p.rules(),
        Err(e) => {
            findings.push(finding(
                Urgency::Error,
                "install-policy",
                None,
                None,
                e.to_string(),
            ));
            Vec::new()
        }
    };
    let catalog = Catalog::build(discovery, &policy, inputs.options, &mut HashCache::new());
    let settings = &policy.settings;

    let warning =
        |kind, message: &String| finding(Urgency::Warning, kind, None, None, message.clone());
    findings.extend(discovery.warnings.iter().map(|w| warning("scan", w)));
    check_skills(&catalog.skills, &mut findings);
    check_duplicates(discovery, &mut findings);
    let mut dangling = BTreeSet::new();
    check_root_links(discovery, &mut findings, &mut dangling);
    // A dangling link in a root is one `broken-link` finding with its fix;
    // the scan's own note about it would say the same thing again.
    let deeper = (discovery.dangling.iter()).filter(|(path, _)| !dangling.contains(path));
    findings.extend(deeper.map(|(_, why)| warning("scan", why)));
    if let Some(lock) = policy.approvals.project_lock() {
        check_lock_links(
            lock,
            settings,
            &policy.approvals,
            (&project, &env),
            &dangling,
            &mut findings,
        );
    }
    let servers = clients::configured_servers(&project, &env);
    findings.extend(servers.problems.iter().map(|p| warning("client-config", p)));
    check_dependencies(
        &catalog.skills,
        &servers,
        inputs.env_var_is_set,
        &mut findings,
    );

    let listing = listing::render(catalog.listed(), listing::budget_for(inputs.context_chars));
    check_listing(&listing, &mut findings);
    claude_listing::check(&catalog.skills, inputs.claude_budget, &mut findings);
    let store = check_store(discovery, &mut findings);

    findings.sort_by_key(|f| f.level);
    let needs_action = findings.iter().any(|f| f.level != Urgency::Info);
    DoctorReport {
        verbose: inputs.verbose,
        project,
        roots: ranked_roots(discovery),
        skills: skill_rows(&catalog),
        listing: ListingReport {
            budget: listing.budget,
            used: listing.chars(),
            listed: listing.included,
            omitted: listing.omitted,
        },
        store,
        mcp_servers: servers.servers,
        findings,
        install_policy,
        needs_action,
    }
}

/// `skills.toml` and the lock files; a broken one is a finding here, not
/// the end: the rest is checked with defaults in its place.
fn load_policy(project: &Path, findings: &mut Vec<Observation>) -> ServingRules {
    let mut broken = |e: CatalogError, consequence: &str| {
        findings.push(finding(
            Urgency::Error,
            "policy",
            None,
            None,
            format!("{e}; {consequence}"),
        ));
    };
    let settings = ProjectSettings::load(project).unwrap_or_else(|e| {
        broken(
            e,
            "until it is fixed, its [install] and [agent.*] settings are ignored",
        );
        ProjectSettings::default()
    });
    let cache_root = crate::cache::cache_root().ok();
    let approvals = Approvals::load(project, cache_root.as_deref()).unwrap_or_else(|e| {
        broken(e, "until it is fixed no skillpm link counts as approved");
        Approvals::default()
    });
    ServingRules {
        settings,
        approvals,
    }
}

/// Skills the listing agents read has no room for.
fn check_listing(listing: &listing::Listing, findings: &mut Vec<Observation>) {
    for name in &listing.omitted {
        findings.push(finding(
            Urgency::Warning,
            OVER_BUDGET,
            Some(name),
            None,
            format!(
                "`{name}` does not fit in the {}-character skill listing `skillpm mcp` gives its skill tool, so a model it serves will not know to load it; {BUDGET_ADVICE}",
                listing.budget
            ),
        ));
    }
}

/// The finding kind of a skill the listing has no room for.
pub const OVER_BUDGET: &str = "over-budget";

/// What to do about skills the listing has no room for.
pub const BUDGET_ADVICE: &str = "shorten the descriptions of the listed skills, disable skills you do not need, or give `skillpm mcp` a larger --context-chars";

/// The roots that exist, ranked by precedence (1 = highest).
fn ranked_roots(discovery: &Discovery) -> Vec<DoctorRoot> {
    discovery
        .roots
        .iter()
        .enumerate()
        .filter(|(_, r)| r.exists)
        .map(|(i, r)| DoctorRoot {
            rank: i + 1,
            root: r.into(),
        })
        .collect()
}

/// Each skill found with its status (see [`DoctorReport`]).
fn skill_rows(catalog: &Catalog) -> Vec<DoctorSkill> {
    catalog
        .skills
        .iter()
        .map(|s| DoctorSkill {
            name: s.name.clone(),
            scope: s.scope,
            agent: s.agent,
            path: s.path.clone(),
            status: if !s.is_valid() {
                "invalid"
            } else if s.shadowed_by.is_some() && same_as_winner(catalog, s) {
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
        .collect()
}

/// A shadowed copy that is the winner's own folder linked a second time,
/// or a folder holding the winner's tree (one install placed into several
/// agent folders): nothing is hidden.
fn same_as_winner(catalog: &Catalog, s: &CatalogSkill) -> bool {
    catalog.skills.iter().any(|w| {
        w.name == s.name
            && w.is_winner()
            && (w.real_path == s.real_path || (w.tree.is_some() && w.tree == s.tree))
    })
}

fn finding(
    level: Urgency,
    kind: &'static str,
    skill: Option<&str>,
    path: Option<&Path>,
    message: String,
) -> Observation {
    Observation {
        level,
        kind,
        skill: skill.map(str::to_owned),
        path: path.map(Path::to_owned),
        message,
    }
}
