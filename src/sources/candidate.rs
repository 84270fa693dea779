//! What every kind of source produces: *candidates*, content already in
//! the store, hashed, judged and parsed, with the lock entry that would pin
//! it (docs/sources.md). Nothing here writes the project; callers decide
//! what gets approved and linked.

use std::path::Path;

use super::workspace::{Workspace, fail};
use crate::digest::Digest;
use crate::error::{Exit, OpError};
use crate::escape::Untrusted;
use crate::project::lock::{Format, LockedSkill};
use crate::skill::openai_yaml::ToolKind;
use crate::skill::{self, Level, SkillMd};
use crate::store::StoreEntry;

/// A skill resolved into the store, ready for approval.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// What the lock will say (`approved` still to be decided).
    pub locked: LockedSkill,
    pub entry: StoreEntry,
    pub skill: SkillMd,
    pub dependencies: Vec<Dependency>,
}

/// One skill a source offers (for the picker, error messages and `add --list`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Offer {
    pub name: String,
    pub description: String,
    /// The folder it comes from (git and folder sources), `""` for the root.
    pub path: Option<String>,
}

/// The lock entry of stored content with only what every source gives
/// (name, source, format, tree): what no index describes (a git checkout,
/// a folder, an MCP server) has no version, signer or artifact; not yet
/// approved.
pub fn new_lock_entry(name: &str, source: &str, format: Format, entry: &StoreEntry) -> LockedSkill {
    LockedSkill {
        name: name.to_owned(),
        source: source.to_owned(),
        version: None,
        format,
        index: None,
        index_digest: None,
        index_version: None,
        url: None,
        commit: None,
        subpath: None,
        uri: None,
        artifact: None,
        tree: entry.digest,
        executables: entry.tree.executables(),
        signer: None,
        approved: None,
        warnings: Vec::new(),
        accepted_findings: Vec::new(),
        publisher: None,
    }
}

/// Locked skills by the name of their source, in name order.
pub fn by_source<'a>(
    group: &[&'a LockedSkill],
) -> std::collections::BTreeMap<&'a str, Vec<&'a LockedSkill>> {
    let mut by_source = std::collections::BTreeMap::<&str, Vec<&LockedSkill>>::new();
    for s in group {
        by_source.entry(s.source.as_str()).or_default().push(s);
    }
    by_source
}

/// A source-relative folder as shown to the user: the root is `.`.
pub fn shown_path(path: &str) -> &str {
    if path.is_empty() { "." } else { path }
}

/// `a` joined with `b` as `/`-separated folders; `None` for the root.
pub fn join_rel(a: Option<&str>, b: &str) -> Option<String> {
    match (a.unwrap_or(""), b.trim_matches('/')) {
        ("", "") => None,
        ("", b) => Some(b.to_owned()),
        (a, "") => Some(a.to_owned()),
        (a, b) => Some(format!("{a}/{b}")),
    }
}

/// `--path` as a clean relative folder (`None` for the root); anything that
/// could leave the source is a usage error.
pub fn clean_subpath(raw: Option<&str>) -> anyhow::Result<Option<String>> {
    let Some(raw) = raw else { return Ok(None) };
    crate::git::normalize_folder(raw)
        .map_err(|why| OpError::new(Exit::Usage, format!("--path `{raw}`: {why}")).into())
}

/// The one folder offering `name`; two folders claiming it are an error
/// that names both (never one picked silently).
pub fn unique_found<'a>(
    found: &'a crate::skill::discover::RepoDiscovery,
    name: &str,
    missing: impl FnOnce() -> anyhow::Error,
) -> anyhow::Result<&'a crate::skill::discover::RepoSkill> {
    let matches = found.named(name);
    match matches.as_slice() {
        [] => Err(missing()),
        [one] => Ok(one),
        many => fail(
            Exit::Usage,
            format!(
                "{} folders hold a skill named `{name}`: {}; choose one with --path <folder>",
                many.len(),
                many.iter()
                    .map(|f| format!("`{}`", skill::printable(shown_path(&f.path))))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

/// Where a discovered skill is read from and how messages name it.
pub struct FoundPlace {
    pub dir: std::path::PathBuf,
    pub label: String,
}

/// The skills `names` of a folder or checkout `found`, as candidates:
/// each is copied into the store, judged and parsed in parallel (the work
/// is independent per skill and most of a cold add, docs/performance.md#what-the-measurements-decided),
/// then its warnings are shown and its candidate made in order, so
/// warnings and errors keep the order asked for. `place` says where a
/// skill is read; `locked` makes its lock entry from the stored tree.
pub fn import_found(
    ws: &Workspace<'_>,
    found: &crate::skill::discover::RepoDiscovery,
    names: &[String],
    missing: impl Fn(&str) -> anyhow::Error + Sync,
    place: impl Fn(&crate::skill::discover::RepoSkill) -> anyhow::Result<FoundPlace> + Sync,
    locked: impl Fn(&str, &crate::skill::discover::RepoSkill, &StoreEntry) -> LockedSkill,
) -> Vec<anyhow::Result<Candidate>> {
    let (store, limits, level) = (ws.store, ws.limits, ws.level);
    // Each new skill is judged by the thread that stored it: the first one
    // is not also audited ahead on a thread of its own, and the others are
    // copied meanwhile instead of waiting behind the audit's first-use
    // compiles (docs/performance.md#what-the-measurements-decided).
    crate::audit::judged_as_stored();
    let prepared = crate::fs::parallel::map_at_once(names, |name| -> anyhow::Result<_> {
        let skill = unique_found(found, name, || missing(name))?;
        let at = place(skill)?;
        let entry = store.import_dir(&at.dir, &at.label, name, limits)?;
        let own_folder = !skill.path.is_empty();
        let judged = judge_copy(level, (store, &entry, &at.dir), name, own_folder, &at.label)?;
        audit_ahead(store, &entry);
        Ok((skill, entry, judged))
    });
    names
        .iter()
        .zip(prepared)
        .map(|(name, prepared)| {
            let (skill, entry, judged) = prepared?;
            let lock_entry = locked(name, skill, &entry);
            candidate(ws, lock_entry, entry, judged)
        })
        .collect()
}

/// Has the audit judge a skill of a folder or checkout just stored, on the
/// thread that stored it, while the other skills are still being copied (it
/// ran on every core only after the last one was in, docs/performance.md;
/// not while downloading: measured slower there). The
/// store remembers the verdict for this process ([`crate::store::Store::verdict`]),
/// so the approval summary and the placement gate, which ask for it as
/// before, find it made; what it finds is decided there, not here (an error
/// is met again there too). Only an entry this process created (so hashed)
/// is judged ahead: one that was there before is checked against its name
/// there first, as before, and a tampered one refused there.
pub fn audit_ahead(store: &crate::store::Store, entry: &StoreEntry) {
    if entry.created {
        let _ = store.verdict(&entry.digest);
    }
}

/// Judges the store entry `stored` made from the skill folder `original`
/// at `level` and parses it, from one read of its SKILL.md (what is judged
/// is what was stored, [`checked`]): refuses (exit 5) what that level
/// refuses, naming skill, field and rule, else gives the warnings a lenient
/// install keeps. `own_folder`: `original`'s name is the folder the skill
/// came in, so a name that differs from it is reported.
fn judge_copy(
    level: Level,
    (store, stored, original): (&crate::store::Store, &StoreEntry, &Path),
    name: &str,
    own_folder: bool,
    label: &str,
) -> anyhow::Result<JudgedSkill> {
    let expected = if own_folder { None } else { Some(name) };
    let check = checked(store, stored, original, expected);
    let stored = &stored.path;
    let warnings = verdict(level, &check, stored, name, label)?;
    let parsed = parsed_skill(stored, check)?;
    Ok(JudgedSkill { warnings, parsed })
}

/// The refusal (exit 5) or the lenient warnings of a checked skill folder.
fn verdict(
    level: Level,
    check: &skill::SkillCheck,
    dir: &Path,
    name: &str,
    label: &str,
) -> anyhow::Result<Vec<String>> {
    let refusals = check.refusals(level);
    if !refusals.is_empty() {
        let why: Vec<String> = refusals.iter().map(|d| diagnostic_text(dir, d)).collect();
        let hint = match level {
            Level::Strict => {
                " (strict: `--strict` or `[install] strict = true` refuses every rule `skillpm check` reports)"
            }
            Level::Lenient => "",
        };
        return fail(
            Exit::Unsafe,
            format!("`{name}` from {label} refused{hint}: {}", why.join("; ")),
        );
    }
    Ok(check
        .lenient_warnings()
        .into_iter()
        .map(|d| diagnostic_text(dir, d))
        .collect())
}

/// A stored skill judged at the run's level and parsed: the warnings a
/// lenient install keeps, the skill and its declared dependencies.
pub struct JudgedSkill {
    warnings: Vec<String>,
    parsed: (SkillMd, Vec<Dependency>),
}

impl JudgedSkill {
    /// The skill as parsed: what its candidate and lock entry are made of.
    pub fn skill(&self) -> &SkillMd {
        &self.parsed.0
    }
}

/// Judges the skill stored as `entry` (named `name` by its source, from
/// `label`) at `level` and parses it, from one read of its SKILL.md
/// ([`checked`]).
pub fn judge_stored(
    level: Level,
    (store, entry): (&crate::store::Store, &StoreEntry),
    name: &str,
    label: &str,
) -> anyhow::Result<JudgedSkill> {
    let check = checked(store, entry, &entry.path, Some(name));
    let dir = &entry.path;
    let warnings = verdict(level, &check, dir, name, label)?;
    let parsed = parsed_skill(dir, check)?;
    Ok(JudgedSkill { warnings, parsed })
}

/// The skill check of the store entry `entry`, a copy of `original`: from
/// the bytes this process just wrote it from while the store keeps them
/// for its verdict (the bytes its digest names, and no read of the copy,
/// docs/audit.md#remembered-findings), else from the copy on disk.
fn checked(
    store: &crate::store::Store,
    entry: &StoreEntry,
    original: &Path,
    expected: Option<&str>,
) -> skill::SkillCheck {
    let written = store.written(&entry.digest);
    skill::check_skill_copy(
        &entry.path,
        original,
        expected,
        written.as_deref().map(Vec::as_slice),
    )
}

/// `--strict` over a lock entry already in the store: its content is judged
/// by every rule (its folder name, when the lock records one, is the name
/// it must carry).
pub fn judge_locked(
    store: &crate::store::Store,
    level: Level,
    locked: &LockedSkill,
) -> anyhow::Result<()> {
    let dir = store.entry_path(&locked.tree);
    let folder = locked
        .subpath
        .as_deref()
        .and_then(|p| p.rsplit('/').next())
        .unwrap_or(&locked.name);
    let check = skill::check_skill_dir(&dir, Some(folder));
    let refusals = check.refusals(level);
    if refusals.is_empty() {
        return Ok(());
    }
    let why: Vec<String> = refusals.iter().map(|d| diagnostic_text(&dir, d)).collect();
    fail(
        Exit::Unsafe,
        format!(
            "`{}` (locked {}) refused by --strict / `[install] strict`: {}",
            locked.name,
            locked.tree,
            why.join("; ")
        ),
    )
}

/// `SKILL.md: \`description\` is 1068 characters long; …` (field and rule
/// are in the message; the file is shown relative to the skill).
fn diagnostic_text(dir: &Path, d: &skill::Diagnostic) -> String {
    d.clone().relative_to(dir).to_string()
}

/// The candidate of a stored skill judged and parsed ([`judge_stored`]).
pub fn candidate(
    ws: &Workspace<'_>,
    locked: LockedSkill,
    entry: StoreEntry,
    judged: JudgedSkill,
) -> anyhow::Result<Candidate> {
    Ok(parsed_candidate(
        ws,
        locked,
        entry,
        judged.warnings,
        judged.parsed,
    ))
}

/// The candidate of a stored skill already parsed; shows its warnings.
fn parsed_candidate(
    ws: &Workspace<'_>,
    mut locked: LockedSkill,
    entry: StoreEntry,
    warnings: Vec<String>,
    (skill, dependencies): (SkillMd, Vec<Dependency>),
) -> Candidate {
    for w in &warnings {
        ws.ui.warn(format!(
            "`{}`: {}",
            locked.name,
            crate::escape::Untrusted(w)
        ));
    }
    locked.warnings = warnings;
    Candidate {
        locked,
        entry,
        skill,
        dependencies,
    }
}

/// The parsed SKILL.md of a store entry and its declared dependencies.
pub fn read_stored_skill(
    dir: &std::path::Path,
    name: &str,
) -> anyhow::Result<(SkillMd, Vec<Dependency>)> {
    parsed_skill(dir, skill::check_skill_dir(dir, Some(name)))
}

/// The skill and declared dependencies of a checked folder `dir`.
fn parsed_skill(
    dir: &Path,
    check: skill::SkillCheck,
) -> anyhow::Result<(SkillMd, Vec<Dependency>)> {
    let Some(skill) = check.skill.clone() else {
        let why = check
            .errors
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "SKILL.md is unreadable".into());
        return fail(Exit::Unsafe, format!("{}: {why}", dir.display()));
    };
    let dependencies = check
        .openai
        .map(|m| {
            m.dependencies
                .iter()
                .map(|d| {
                    let env_var = d.kind == ToolKind::EnvVar;
                    Dependency {
                        kind: if env_var { "env_var" } else { "mcp" }.into(),
                        name: d.value.clone(),
                        present: env_var && !d.is_missing_env_var(env_var_is_set),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((skill, dependencies))
}

/// Content that arrived (hashing to `actual`) must be what the lock pins.
pub fn check_tree(skill: &LockedSkill, actual: Digest, from: &str) -> anyhow::Result<()> {
    if actual == skill.tree {
        return Ok(());
    }
    fail(
        Exit::Integrity,
        format!(
            "`{}` from {from} does not match skills.lock:\n  expected tree {}\n  actual tree   {actual}\n  the published content changed without a new lock; run `skillpm update {}` to review the change",
            skill.name, skill.tree, skill.name
        ),
    )
}

/// Whether an environment variable a skill depends on is set (and not
/// empty) in this process: the one place the dependency checks read it.
pub fn env_var_is_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// The "not offered" error for `name` (exit 8), listing what source
/// `source` offers.
pub fn not_offered(
    source: &str,
    offers: &[Offer],
    discovery: Option<&crate::skill::discover::RepoDiscovery>,
    name: &str,
) -> anyhow::Error {
    // A folder of that name whose skill cannot be loaded: say why (exit 5).
    if let Some(skipped) = discovery.and_then(|d| {
        d.skipped
            .iter()
            .find(|s| s.path.rsplit('/').next() == Some(name))
    }) {
        return OpError::new(
            Exit::Unsafe,
            format!(
                "`{name}` ({}) in source `{}` cannot be installed: {}",
                shown_path(&skipped.path),
                source,
                skipped.reason
            ),
        )
        .into();
    }
    let names: Vec<&str> = offers.iter().map(|o| o.name.as_str()).collect();
    let hint = if names.len() <= 10 {
        format!(
            "it offers: {}",
            if names.is_empty() {
                "nothing".to_owned()
            } else {
                names.join(", ")
            }
        )
    } else {
        format!(
            "{}; `skillpm add --list --source {source}` lists all {}",
            crate::names::suggest(name, &names, 0),
            names.len()
        )
    };
    OpError::new(
        Exit::NotFound,
        format!("source `{source}` offers no skill named `{name}`; {hint}"),
    )
    .into()
}

/// What discovery found, as offers (git and folder sources).
pub fn found_offers(found: &crate::skill::discover::RepoDiscovery) -> Vec<Offer> {
    found
        .skills
        .iter()
        .map(|f| Offer {
            name: f.name.clone(),
            description: f.description.clone(),
            path: Some(f.path.clone()),
        })
        .collect()
}

/// A candidate for a lock entry whose content is already in the store.
pub fn from_lock(store: &crate::store::Store, locked: &LockedSkill) -> anyhow::Result<Candidate> {
    let path = store.entry_path(&locked.tree);
    let tree = match store.remembered_tree(&locked.tree) {
        Some(t) => t,
        None => crate::digest::hash_tree(&path)?,
    };
    let (skill, dependencies) = read_stored_skill(&path, &locked.name)?;
    Ok(Candidate {
        locked: locked.clone(),
        entry: StoreEntry {
            digest: locked.tree,
            path,
            tree,
            created: false,
        },
        skill,
        dependencies,
    })
}

/// How the lock entry's content was pinned, by its kind, for the approval
/// summary.
pub fn trust_of(locked: &LockedSkill) -> Trust {
    match (&locked.signer, locked.format) {
        (Some(key), _) => Trust::Signed { key: key.clone() },
        (None, Format::Files) => Trust::TrustOnFirstUse,
        (None, Format::Git) => Trust::GitCommit {
            commit: locked.commit.clone().unwrap_or_default(),
        },
        (None, Format::Path) => Trust::LocalPath,
        (None, Format::Mcp) => Trust::McpDigests,
        (None, Format::Oci) => Trust::OciManifest {
            reference: locked.url.clone().unwrap_or_default(),
        },
        (None, _) => Trust::DigestPinned,
    }
}
/// How far the bytes are pinned by their publisher.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Trust {
    /// The index was signed by this minisign key id, and its digest pins the artifact.
    Signed { key: String },
    /// An unsigned v0.2.0 index pins the artifact digest.
    DigestPinned,
    /// A v0.1.0 file list: no published digest; this tree is trusted on first use.
    TrustOnFirstUse,
    /// A git commit pins the content.
    GitCommit { commit: String },
    /// A local folder: only the tree digest computed here pins it.
    LocalPath,
    /// An MCP server's Skills extension entry: per-file digests published
    /// by the server itself (unsigned), all verified.
    McpDigests,
    /// An OCI registry artifact pinned by its manifest digest (and, when the
    /// source pins a cosign key, signed by it).
    OciManifest { reference: String },
}

impl Trust {
    pub fn describe(&self) -> String {
        match self {
            Trust::Signed { key } => format!(
                "signed index (key {}), artifact digest pinned",
                Untrusted(key)
            ),
            Trust::DigestPinned => "unsigned index, artifact digest pinned".into(),
            Trust::TrustOnFirstUse => {
                "legacy v0.1.0 index without digests: trust on first use".into()
            }
            Trust::GitCommit { commit } => format!("git commit {}", Untrusted(commit)),
            Trust::LocalPath => "local folder: pinned by the tree digest computed here".into(),
            Trust::OciManifest { reference } => {
                format!("OCI artifact pinned by manifest digest ({reference})")
            }
            Trust::McpDigests => {
                "MCP server: unsigned per-file digests from the server, every file verified".into()
            }
        }
    }

    pub fn signer(&self) -> Option<&str> {
        match self {
            Trust::Signed { key } => Some(key),
            _ => None,
        }
    }
}

/// A dependency a skill declares in `agents/openai.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Dependency {
    /// `env_var` or `mcp`.
    pub kind: String,
    pub name: String,
    /// Whether it is available here (env var set; MCP server unknown → false).
    pub present: bool,
}
