//! The served-skills catalog: of every skill discovery found, which ones an
//! agent may load, and for every other one the reason it may not.
//!
//! `skillpm mcp`, `show`, `mentions` and `doctor` all judge skills here, so
//! they agree. A skill is served when it is valid and:
//! - it is a skillpm link (symlink or marked copy) whose content still
//!   hashes to the `tree` a `skills.lock` pins and a person approved
//!   (`approved == tree`); or it is a folder someone wrote by hand and the
//!   caller opted in with `include_unmanaged` (off by default, so nothing
//!   unapproved reaches an agent);
//! - a skillpm link passes the audit gate under that lock entry, the
//!   project's `fail-on` and install policy, as `install` would link it
//!   (docs/audit.md#the-gate): a link is no proof the gate let it through
//!   here (an acceptance dropped since, or a symlink committed with the
//!   project that is shaped like a store link);
//! - `skills.toml` does not mark it `enabled = false`;
//! - the agent's `[agent.<name>] allow/deny` patterns let it through.
//!
//! Discovery's precedence decides which copy a name means; a withheld
//! winner is never silently replaced by a lower-precedence copy, so what
//! `skillpm show NAME` shows is what the server serves or refuses.

pub mod integrity;
pub mod mentions;
pub mod settings;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::agents::roots::{Agent, Discovery, FoundSkill, Scope};
use crate::digest::Digest;
use crate::error::{Classify, Exit};
use crate::placement::link::{LinkKind, LinkState};
use crate::project::lock::LockError;
use crate::skill::{OpenAiMetadata, SkillMd};

pub use integrity::{Approvals, GateRules, HashCache};
pub use settings::{Denial, ProjectSettings};

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Settings(#[from] crate::project::ManifestError),
    #[error(transparent)]
    Policy(#[from] crate::policy::PolicyError),
}

crate::classified!(CatalogError);
impl Classify for CatalogError {
    fn exit(&self) -> Exit {
        match self {
            CatalogError::Lock(e) => e.exit(),
            CatalogError::Settings(e) => e.exit(),
            CatalogError::Policy(e) => e.exit(),
        }
    }
}

/// How the catalog is narrowed for one consumer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogOptions {
    /// Apply `[agent.<name>]` of `skills.toml` for this agent.
    pub agent: Option<String>,
    /// Serve skills that are plain folders, not skillpm links.
    pub include_unmanaged: bool,
}

/// Everything besides the skills on disk that decides what is served.
#[derive(Debug, Clone, Default)]
pub struct ServingRules {
    pub settings: ProjectSettings,
    pub approvals: Approvals,
}

impl ServingRules {
    /// Reads `skills.toml` and the lock files for `project`.
    pub fn load(project: &Path) -> Result<ServingRules, CatalogError> {
        let cache = crate::cache::cache_root().ok();
        Ok(ServingRules {
            settings: ProjectSettings::load(project)?,
            approvals: Approvals::load(project, cache.as_deref())?,
        })
    }
}

/// How a skill got where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Provenance {
    /// A folder someone put there by hand: no lock, no approval.
    Unmanaged,
    /// A link skillpm placed. `lock` and `source` are known when a lock
    /// lists the skill.
    Managed {
        link: LinkKind,
        lock: Option<PathBuf>,
        source: Option<String>,
    },
}

/// Why a discovered skill is not served.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Withheld {
    /// The strict check failed.
    Invalid { message: String },
    /// A skillpm link whose content no longer hashes to what the lock pins.
    Modified {
        expected: Digest,
        found: Option<Digest>,
        detail: String,
    },
    /// A skillpm link that no `skills.lock` lists.
    Unlocked,
    /// Locked, but nobody approved this tree.
    Unapproved { tree: Digest },
    /// Approved, but the audit gate refuses the tree under this lock and
    /// `fail-on` (docs/audit.md#the-gate): `install` would not link it, so
    /// nothing hands it to an agent. `findings` as the gate names them.
    Refused {
        tree: Digest,
        fail_on: String,
        findings: Vec<String>,
    },
    /// Locked and approved, but no verdict is remembered for it and its
    /// files hold more than the project's `[limits] max-skill-size`: the
    /// gate does not read them (docs/audit.md#the-gate), as `install` does
    /// not unpack a tree that large.
    TooLarge { limit: u64 },
    /// A hand-made folder, and unmanaged skills were not asked for.
    Unmanaged,
    /// `enabled = false` in `skills.toml`.
    Disabled,
    /// `[agent.<name>]` keeps it from this agent.
    Denied {
        agent: String,
        pattern: Option<String>,
    },
}

impl Withheld {
    /// The exit code a command refusing this skill ends with.
    pub fn exit(&self) -> Exit {
        match self {
            Withheld::Invalid { .. } | Withheld::Refused { .. } | Withheld::TooLarge { .. } => {
                Exit::Unsafe
            }
            Withheld::Modified { .. } => Exit::Integrity,
            Withheld::Unlocked | Withheld::Unapproved { .. } | Withheld::Unmanaged => {
                Exit::Approval
            }
            Withheld::Disabled | Withheld::Denied { .. } => Exit::NotFound,
        }
    }

    /// A sentence for a person or a model: what is wrong and what to do.
    pub fn explain(&self, name: &str, path: &Path) -> String {
        let at = path.display();
        match self {
            Withheld::Invalid { message } => format!(
                "skill `{name}` at {at} is invalid and cannot be loaded: {message}; run `skillpm check {at}` for every problem"
            ),
            Withheld::Modified {
                expected,
                found,
                detail,
            } => {
                let what = match found {
                    Some(found) => format!(
                        "its files now hash to {found}, but it was installed and locked as {expected}"
                    ),
                    None => format!(
                        "its files cannot be hashed ({detail}); it was installed and locked as {expected}"
                    ),
                };
                format!(
                    "skill `{name}` at {at} was modified after it was installed: {what}. skillpm will not load changed instructions; run `skillpm verify` to see what changed, then `skillpm install` to restore the approved files{}",
                    if detail.is_empty() || found.is_none() {
                        String::new()
                    } else {
                        format!(" ({detail})")
                    }
                )
            }
            Withheld::Unlocked => format!(
                "skill `{name}` at {at} is a skillpm link that no skills.lock here lists, so nobody approved it for this project: run `skillpm install` to bring the links in line with skills.lock, or `skillpm add {name}` to review and approve it"
            ),
            Withheld::Unapproved { tree } => format!(
                "skill `{name}` at {at} is locked at {tree} but that content was never approved: review it with `skillpm approve {name}`"
            ),
            Withheld::Refused {
                tree,
                fail_on,
                findings,
            } => format!(
                "skill `{name}` at {at} (tree {}) has {} finding{} at or above `{fail_on}` that skills.lock does not accept for this tree:\n{}\n  skillpm will not hand it to an agent (`skillpm install` refuses it too), but an agent that reads this folder still loads it: `skillpm disable {name}` unlinks it; read the files named above, and only if you trust them run `skillpm approve {name} --accept-findings` (it records the acceptance in skills.lock for review)",
                &tree.hex()[..12],
                findings.len(),
                if findings.len() == 1 { "" } else { "s" },
                findings.join("\n")
            ),
            Withheld::TooLarge { limit } => format!(
                "skill `{name}` at {at} holds more than {}, the `max-skill-size` under [limits] of skills.toml, and no verdict is remembered for it, so it is not read here and skillpm will not hand it to an agent: `skillpm install` judges it and remembers the verdict (raise `max-skill-size` if a skill this large is expected), or `skillpm disable {name}` unlinks it",
                crate::unpack::Size(*limit)
            ),
            Withheld::Unmanaged => format!(
                "skill `{name}` at {at} was not installed by skillpm (nobody approved it through skills.lock), so it is not served: install it with skillpm, or review it and start the server with --include-unmanaged"
            ),
            Withheld::Disabled => format!(
                "skill `{name}` is disabled in skills.toml (`enabled = false`): enable it again with `skillpm enable {name}`"
            ),
            Withheld::Denied { agent, pattern } => match pattern {
                Some(p) => format!(
                    "skill `{name}` is not available to agent `{agent}`: the deny pattern `{p}` in [agent.{agent}] of skills.toml matches it"
                ),
                None => format!(
                    "skill `{name}` is not available to agent `{agent}`: no allow pattern in [agent.{agent}] of skills.toml matches it"
                ),
            },
        }
    }
}

/// One discovered skill folder, judged.
#[derive(Debug, Clone)]
pub struct CatalogSkill {
    pub name: String,
    /// Empty when SKILL.md could not be read.
    pub description: String,
    pub scope: Scope,
    pub agent: Agent,
    /// The folder as agents see it.
    pub path: PathBuf,
    /// The folder it really is (through symlinks).
    pub real_path: PathBuf,
    pub shadowed_by: Option<PathBuf>,
    pub provenance: Provenance,
    /// The tree digest: the lock's for a managed skill, computed for an
    /// unmanaged one that is served.
    pub tree: Option<Digest>,
    /// Key id that signed the skill's index, from the lock.
    pub signer: Option<String>,
    pub skill: Option<SkillMd>,
    pub openai: Option<OpenAiMetadata>,
    /// `None` when served.
    pub withheld: Option<Withheld>,
}

impl CatalogSkill {
    pub fn is_served(&self) -> bool {
        self.withheld.is_none()
    }

    pub fn is_valid(&self) -> bool {
        !matches!(self.withheld, Some(Withheld::Invalid { .. }))
    }

    /// Valid and not shadowed: the copy its name means.
    pub fn is_winner(&self) -> bool {
        self.is_valid() && self.shadowed_by.is_none()
    }

    /// The model may pick it on its own: not `disable-model-invocation:
    /// true`, and not `policy.allow_implicit_invocation: false` in
    /// `agents/openai.yaml` (Codex's spelling of the same wish).
    pub fn model_invocable(&self) -> bool {
        let by_frontmatter = self
            .skill
            .as_ref()
            .is_some_and(|s| !s.disable_model_invocation());
        let by_openai = self
            .openai
            .as_ref()
            .and_then(|o| o.policy.as_ref())
            .and_then(|p| p.allow_implicit_invocation)
            != Some(false);
        by_frontmatter && by_openai
    }

    /// A person may invoke it by name (`user-invocable` is not `false`).
    pub fn user_invocable(&self) -> bool {
        self.skill.as_ref().is_some_and(|s| s.user_invocable())
    }

    pub fn is_managed(&self) -> bool {
        matches!(self.provenance, Provenance::Managed { .. })
    }
}

/// What a name resolves to.
#[derive(Debug, Clone, Copy)]
pub enum NameLookup<'a> {
    Served(&'a CatalogSkill),
    Withheld(&'a CatalogSkill, &'a Withheld),
    Unknown,
}

/// Every discovered skill folder, judged, in discovery's precedence order.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub skills: Vec<CatalogSkill>,
}

impl Catalog {
    /// Judges every skill `discovery` found.
    pub fn build(
        discovery: &Discovery,
        policy: &ServingRules,
        options: &CatalogOptions,
        cache: &mut HashCache,
    ) -> Catalog {
        let skills = discovery
            .skills
            .iter()
            .map(|found| judge(found, policy, options, cache))
            .collect();
        cache.flush();
        Catalog { skills }
    }

    /// The copy `name` means (discovery's winner), served or not.
    pub fn resolve(&self, name: &str) -> NameLookup<'_> {
        let winner = self
            .skills
            .iter()
            .find(|s| s.name == name && s.is_winner())
            .or_else(|| self.skills.iter().find(|s| s.name == name));
        match winner {
            Some(s) => match &s.withheld {
                None => NameLookup::Served(s),
                Some(w) => NameLookup::Withheld(s, w),
            },
            None => NameLookup::Unknown,
        }
    }

    /// The skill whose folder (or its SKILL.md) is `path`, whatever its
    /// precedence. `skill://` prefixes are accepted, as in Codex links.
    pub fn find_by_path(&self, path: &Path) -> Option<&CatalogSkill> {
        let wanted = normalize_skill_path(path)?;
        self.skills.iter().find(|s| {
            s.path == wanted
                || s.real_path == wanted
                || std::fs::canonicalize(&s.path).is_ok_and(|p| p == wanted)
        })
    }

    /// Served skills, every copy.
    pub fn served(&self) -> impl Iterator<Item = &CatalogSkill> {
        self.skills.iter().filter(|s| s.is_served())
    }

    /// What an agent's model is offered: served winners it may invoke on
    /// its own, in precedence order.
    pub fn listed(&self) -> impl Iterator<Item = &CatalogSkill> {
        self.skills
            .iter()
            .filter(|s| s.is_served() && s.is_winner() && s.model_invocable())
    }

    /// Names of [`Catalog::listed`], sorted.
    pub fn listed_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.listed().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names
    }
}

/// `path` as a skill folder: `skill://` stripped, a trailing `SKILL.md`
/// dropped, made absolute and resolved when it exists.
fn normalize_skill_path(path: &Path) -> Option<PathBuf> {
    let text = path.to_str()?;
    let text = text.strip_prefix("skill://").unwrap_or(text);
    let mut p = PathBuf::from(text);
    if p.file_name()
        .is_some_and(|f| f.eq_ignore_ascii_case(crate::skill::SKILL_MD))
    {
        p.pop();
    }
    Some(std::fs::canonicalize(&p).unwrap_or(p))
}

/// What [`judge_placement`] found out about where a skill came from.
#[derive(Debug, Clone)]
pub struct Placement {
    pub provenance: Provenance,
    pub tree: Option<Digest>,
    pub signer: Option<String>,
    /// A problem with a managed skill: modified, unlocked or unapproved.
    pub problem: Option<Withheld>,
}

/// Decides whether the skill folder `found` is a skillpm link and, if so,
/// whether its content still matches an approved lock entry.
pub fn judge_placement(
    found: &FoundSkill,
    approvals: &Approvals,
    cache: &mut HashCache,
) -> Placement {
    let state = crate::placement::link::inspect(&found.path, approvals.record(&found.path));
    let link = match &state {
        Ok(LinkState::Symlink { .. }) => LinkKind::Symlink,
        Ok(LinkState::Copy { .. }) => LinkKind::Copy,
        Ok(_) => return Placement::unmanaged(None),
        Err(e) => {
            return Placement::unmanaged(Some(Withheld::Invalid {
                message: e.to_string(),
            }));
        }
    };
    // A link is `<root>/<name>`; its lock entry goes by that name.
    let link_name = found
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| found.name.clone());
    let Some((entry, lock_path)) = approvals.find(&link_name, &found.path) else {
        // No lock vouches for it; it must still match the store entry it
        // names, or it was edited in place.
        let own = state.ok().and_then(|s| s.digest());
        let problem = unlocked_problem(own, &found.path, cache);
        return Placement {
            provenance: Provenance::Managed {
                link,
                lock: None,
                source: None,
            },
            tree: own,
            signer: None,
            problem: Some(problem),
        };
    };
    let provenance = Provenance::Managed {
        link,
        lock: Some(lock_path.to_owned()),
        source: Some(entry.source.clone()),
    };
    let problem = locked_problem(entry, &found.path, cache)
        .or_else(|| refused_problem(entry, &found.path, approvals.gate(), cache));
    Placement {
        provenance,
        tree: Some(entry.tree),
        signer: entry.signer.clone(),
        problem,
    }
}

impl Placement {
    /// A folder skillpm did not place (or could not read as its link).
    fn unmanaged(problem: Option<Withheld>) -> Placement {
        Placement {
            provenance: Provenance::Unmanaged,
            tree: None,
            signer: None,
            problem,
        }
    }
}

/// Why a skillpm link no lock vouches for is withheld: it must still match
/// the store entry it names (`own`), or it was edited in place.
fn unlocked_problem(own: Option<Digest>, path: &Path, cache: &mut HashCache) -> Withheld {
    match own.map(|d| (d, cache.tree(path))) {
        Some((expected, Err(detail))) => Withheld::Modified {
            expected,
            found: None,
            detail,
        },
        Some((expected, Ok(placed))) if placed.digest != expected => Withheld::Modified {
            expected,
            found: Some(placed.digest),
            detail: "the link names a different store entry than its files hash to".into(),
        },
        _ => Withheld::Unlocked,
    }
}

/// What is wrong with a locked skill's placed files, if anything: changed
/// content, changed execute bits, or not approved.
fn locked_problem(
    entry: &crate::project::lock::LockedSkill,
    path: &Path,
    cache: &mut HashCache,
) -> Option<Withheld> {
    match cache.tree(path) {
        Err(detail) => Some(Withheld::Modified {
            expected: entry.tree,
            found: None,
            detail,
        }),
        Ok(placed) if placed.digest != entry.tree => Some(Withheld::Modified {
            expected: entry.tree,
            found: Some(placed.digest),
            detail: String::new(),
        }),
        Ok(placed) if !same_set(&placed.executables(), &entry.executables) => {
            Some(Withheld::Modified {
                expected: entry.tree,
                found: Some(placed.digest),
                detail: format!(
                    "the files are intact but their execute bits differ: executable now [{}], locked [{}]",
                    placed.executables().join(", "),
                    entry.executables.join(", ")
                ),
            })
        }
        Ok(_) if !entry.is_approved() => Some(Withheld::Unapproved { tree: entry.tree }),
        Ok(_) => None,
    }
}

/// The audit gate, as `install` runs it before linking (docs/audit.md#the-gate),
/// for a locked, approved skill whose placed files hash to its tree: its
/// findings against this lock entry's acceptances and the project's
/// `fail-on` and install policy. A placed link is no proof that the gate
/// let the tree through under this lock: the acceptance may have been
/// dropped since, `fail-on` made stricter, or the link put there by hand
/// (a symlink shaped like a store link, committed with the project).
fn refused_problem(
    entry: &crate::project::lock::LockedSkill,
    path: &Path,
    gate: &integrity::GateRules,
    cache: &mut HashCache,
) -> Option<Withheld> {
    let found = match cache.findings(path, &entry.tree, gate) {
        Ok(found) => found,
        Err(integrity::Unread::TooLarge { limit }) => return Some(Withheld::TooLarge { limit }),
        Err(integrity::Unread::Changed(detail)) => {
            return Some(Withheld::Modified {
                expected: entry.tree,
                found: None,
                detail,
            });
        }
    };
    let stop = gate.stopping(&found, entry.accepted());
    if stop.is_empty() {
        cache.remember(&entry.tree, gate);
    }
    (!stop.is_empty()).then(|| Withheld::Refused {
        tree: entry.tree,
        fail_on: gate.fail_on().as_str().to_owned(),
        findings: crate::audit::gate::describe(&stop)
            .lines()
            .map(|l| l.trim_start().to_owned())
            .collect(),
    })
}

fn same_set(a: &[String], b: &[String]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a == b
}

fn judge(
    found: &FoundSkill,
    policy: &ServingRules,
    options: &CatalogOptions,
    cache: &mut HashCache,
) -> CatalogSkill {
    let mut skill = CatalogSkill {
        name: found.name.clone(),
        description: found
            .check
            .skill
            .as_ref()
            .map(|s| s.description.clone())
            .unwrap_or_default(),
        scope: found.scope,
        agent: found.agent,
        path: found.path.clone(),
        real_path: found
            .link_target
            .clone()
            .or_else(|| std::fs::canonicalize(&found.path).ok())
            .unwrap_or_else(|| found.path.clone()),
        shadowed_by: found.shadowed_by.clone(),
        provenance: Provenance::Unmanaged,
        tree: None,
        signer: None,
        skill: found.check.skill.clone(),
        openai: found.check.openai.clone(),
        withheld: None,
    };
    if !found.is_valid() {
        let message = found
            .check
            .fatal
            .first()
            .map(|e| e.message.clone())
            .unwrap_or_else(|| "SKILL.md cannot be read".into());
        skill.withheld = Some(Withheld::Invalid { message });
        return skill;
    }
    let placement = judge_placement(found, &policy.approvals, cache);
    skill.provenance = placement.provenance;
    skill.tree = placement.tree;
    skill.signer = placement.signer;
    if let Some(problem) = placement.problem {
        skill.withheld = Some(problem);
        return skill;
    }
    if !skill.is_managed() {
        if !options.include_unmanaged {
            skill.withheld = Some(Withheld::Unmanaged);
            return skill;
        }
        skill.tree = cache.tree(&found.path).ok().map(|t| t.digest);
    }
    if policy.settings.disabled.contains(&skill.name) {
        skill.withheld = Some(Withheld::Disabled);
        return skill;
    }
    if let Some(agent) = &options.agent
        && let Some(rules) = policy.settings.rules_for(agent)
        && let Err(denial) = rules.check(&skill.name)
    {
        skill.withheld = Some(Withheld::Denied {
            agent: agent.clone(),
            pattern: match denial {
                Denial::Denied { pattern } => Some(pattern),
                Denial::NotAllowed => None,
            },
        });
    }
    skill
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::agents::roots::{Env, ScanLimits, discover};
    use crate::placement::link::{LinkKind, Record};
    use crate::project::lock::{LockedSkill, Lockfile};

    struct Fixture {
        _tmp: tempfile::TempDir,
        project: PathBuf,
        home: PathBuf,
        root: PathBuf,
    }

    fn fixture() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let project = base.join("project");
        let home = base.join("home");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Fixture {
            root: project.join(".agents/skills"),
            _tmp: tmp,
            project,
            home,
        }
    }

    /// A store entry for `name` under the fixture, and its tree digest.
    fn entry(f: &Fixture, name: &str, body: &str) -> (PathBuf, Digest) {
        let stage = f.home.join(format!("stage-{name}"));
        std::fs::create_dir_all(&stage).unwrap();
        std::fs::write(
            stage.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\n{body}"),
        )
        .unwrap();
        let tree = crate::digest::tree_digest(&stage).unwrap();
        let store = f.home.join("cache/store");
        std::fs::create_dir_all(&store).unwrap();
        let entry = store.join(tree.file_name());
        std::fs::rename(&stage, &entry).unwrap();
        (entry, tree)
    }

    /// A path-source lock entry signed by `RWQKEY`, as skills.lock says it.
    fn locked(name: &str, tree: Digest, approved: bool) -> LockedSkill {
        let mut text = format!(
            "name = \"{name}\"\nsource = \"acme\"\nformat = \"path\"\ntree = \"{tree}\"\nsigner = \"RWQKEY\"\n"
        );
        if approved {
            text.push_str(&format!("approved = \"{tree}\"\n"));
        }
        toml::from_str(&text).unwrap()
    }

    fn build(f: &Fixture, lock: Lockfile, options: &CatalogOptions) -> Catalog {
        let d = discover(
            &f.project,
            &f.project,
            &Env::with_home(&f.home),
            ScanLimits::default(),
        );
        lock.save(&f.project.join("skills.lock")).unwrap();
        let policy = ServingRules {
            settings: ProjectSettings::default(),
            approvals: Approvals::load(&f.project, Some(&f.home.join("cache"))).unwrap(),
        };
        Catalog::build(&d, &policy, options, &mut HashCache::new())
    }

    #[test]
    fn copies_are_judged_like_symlinks() {
        let f = fixture();
        let (e, tree) = entry(&f, "pdf", "Fill.\n");
        crate::placement::link::place(&f.root, "pdf", &e, tree, LinkKind::Copy, Record::None)
            .unwrap();
        // The copy is skillpm's because its state says so.
        let state = crate::project::state::ProjectState::new(&f.home.join("cache/state"));
        let placed = crate::project::state::PlacedLink {
            root: f.root.clone(),
            name: "pdf".into(),
            tree: Some(tree),
            kind: Some("copy".into()),
        };
        state.record_links(&f.project, vec![placed]).unwrap();
        let mut lock = Lockfile::default();
        lock.upsert(locked("pdf", tree, true));
        let c = build(&f, lock.clone(), &CatalogOptions::default());
        let NameLookup::Served(s) = c.resolve("pdf") else {
            panic!("{:?}", c.skills[0].withheld)
        };
        assert_eq!(
            s.provenance,
            Provenance::Managed {
                link: LinkKind::Copy,
                lock: Some(f.project.join("skills.lock")),
                source: Some("acme".into())
            }
        );
        assert_eq!(s.tree, Some(tree));
        assert_eq!(s.signer.as_deref(), Some("RWQKEY"));
        assert_eq!(c.listed_names(), ["pdf"]);

        // Editing the copy (not the store) is still tampering.
        std::fs::write(f.root.join("pdf/extra.txt"), "x").unwrap();
        let c = build(&f, lock, &CatalogOptions::default());
        let NameLookup::Withheld(
            _,
            Withheld::Modified {
                expected, found, ..
            },
        ) = c.resolve("pdf")
        else {
            panic!("{:?}", c.skills[0].withheld)
        };
        assert_eq!(*expected, tree);
        assert!(found.is_some_and(|d| d != tree));
        assert!(c.listed_names().is_empty());
    }

    #[test]
    fn a_withheld_winner_is_not_replaced_by_a_shadowed_copy() {
        let f = fixture();
        // Approved in user scope, but a hand-made folder wins in the project.
        let (e, tree) = entry(&f, "notes", "Approved.\n");
        let user_root = f.home.join(".agents/skills");
        crate::placement::link::place(
            &user_root,
            "notes",
            &e,
            tree,
            LinkKind::Symlink,
            Record::None,
        )
        .unwrap();
        std::fs::create_dir_all(f.root.join("notes")).unwrap();
        std::fs::write(
            f.root.join("notes/SKILL.md"),
            "---\nname: notes\ndescription: mine\n---\nUnreviewed.\n",
        )
        .unwrap();
        let mut lock = Lockfile::default();
        lock.upsert(locked("notes", tree, true));
        let c = build(&f, lock.clone(), &CatalogOptions::default());
        assert!(matches!(
            c.resolve("notes"),
            NameLookup::Withheld(_, Withheld::Unmanaged)
        ));
        assert_eq!(
            c.served().count(),
            1,
            "the user copy is still judged served"
        );
        assert!(c.listed_names().is_empty());
        let c = build(
            &f,
            lock,
            &CatalogOptions {
                include_unmanaged: true,
                ..CatalogOptions::default()
            },
        );
        let NameLookup::Served(s) = c.resolve("notes") else {
            panic!()
        };
        assert_eq!(s.path, f.root.join("notes"));
        // Found by either path, whatever the precedence.
        let user = c.find_by_path(&user_root.join("notes/SKILL.md")).unwrap();
        assert_eq!(user.scope, Scope::User);
        let skill_url = format!("skill://{}", f.root.join("notes").display());
        assert_eq!(
            c.find_by_path(Path::new(&skill_url)).unwrap().scope,
            Scope::Repo
        );
    }

    #[test]
    fn disabled_and_denied_skills_are_withheld() {
        let f = fixture();
        let mut lock = Lockfile::default();
        for name in ["deploy-prod", "lint", "off"] {
            let (e, tree) = entry(&f, name, "Body.\n");
            crate::placement::link::place(&f.root, name, &e, tree, LinkKind::Symlink, Record::None)
                .unwrap();
            lock.upsert(locked(name, tree, true));
        }
        let d = discover(
            &f.project,
            &f.project,
            &Env::with_home(&f.home),
            ScanLimits::default(),
        );
        let manifest = crate::project::Manifest::parse(
            "[[source]]\nname = \"acme\"\nurl = \"https://x\"\n\
             [skills]\noff = { source = \"acme\", enabled = false }\n[agent.claude]\ndeny = [\"deploy-*\"]\n",
            Path::new("skills.toml"),
        )
        .unwrap();
        let mut settings = ProjectSettings::from_manifest(&manifest);
        settings.path = None;
        lock.save(&f.project.join("skills.lock")).unwrap();
        let policy = ServingRules {
            settings,
            approvals: Approvals::load(&f.project, Some(&f.home.join("cache"))).unwrap(),
        };
        let options = CatalogOptions {
            agent: Some("claude".into()),
            include_unmanaged: false,
        };
        let c = Catalog::build(&d, &policy, &options, &mut HashCache::new());
        assert_eq!(c.listed_names(), ["lint"]);
        assert!(matches!(
            c.resolve("off"),
            NameLookup::Withheld(_, Withheld::Disabled)
        ));
        let NameLookup::Withheld(_, w) = c.resolve("deploy-prod") else {
            panic!()
        };
        assert_eq!(
            *w,
            Withheld::Denied {
                agent: "claude".into(),
                pattern: Some("deploy-*".into())
            }
        );
        assert_eq!(w.exit(), Exit::NotFound);
    }
}
