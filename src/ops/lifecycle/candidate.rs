//! Resolving what a source offers into *candidates*: content already in the
//! store, hashed and parsed, with the lock entry that would pin it. Nothing
//! here writes the project; callers decide what gets approved and linked.

use std::path::Path;
use std::time::SystemTime;

use anyhow::Context as _;

use super::Session;
use crate::approve::Dependency;
use crate::error::{Exit, OpError};
use crate::git::{self, GitOptions, GitSpec};
use crate::index::{ArtifactKind as IndexKind, Entry, EntryContent};
use crate::ops::fail;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::provenance::Unpacked;
use crate::skill::openai_yaml::ToolKind;
use crate::skill::{self, Level, SkillMd};
use crate::source::{self, FetchedContent, Source, SourceSpec};
use crate::store::StoreEntry;
use crate::unpack::ArtifactKind;

/// A skill resolved into the store, ready for approval.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
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

/// A declared source, opened: an index or a git repository.
pub(crate) enum Opened {
    Index {
        decl: SourceDecl,
        resolved: Box<source::ResolvedIndex>,
    },
    Git {
        decl: SourceDecl,
        spec: GitSpec,
        commit: String,
        checkout: Box<git::Checkout>,
        found: git::Discovery,
    },
    /// A plain folder of skills (or one skill folder) on this machine.
    Folder {
        decl: SourceDecl,
        /// The folder the source names (relative paths in the lock are
        /// relative to it).
        base: std::path::PathBuf,
        /// `--path` inside `base`, `/`-separated, or `None`.
        subpath: Option<String>,
        found: git::Discovery,
    },
    /// An OCI registry namespace or one artifact in it.
    Oci {
        decl: SourceDecl,
        opened: Box<super::oci_source::OciOpened>,
    },
    Mcp {
        decl: SourceDecl,
        skills: Vec<crate::source_mcp::ListedSkill>,
        /// The session that listed them (servers may allow one per client).
        client: std::sync::Mutex<crate::source_mcp::McpClient>,
    },
}

impl Opened {
    pub fn offers(&self) -> Vec<Offer> {
        let offer = |name: &str, description: &str, path: Option<&str>| Offer {
            name: name.to_owned(),
            description: description.to_owned(),
            path: path.map(str::to_owned),
        };
        match self {
            Opened::Index { resolved, .. } => resolved
                .index
                .entries
                .iter()
                .map(|e| offer(&e.name, &e.description, None))
                .collect(),
            Opened::Git { found, .. } | Opened::Folder { found, .. } => found
                .skills
                .iter()
                .map(|f| offer(&f.name, &f.description, Some(&f.path)))
                .collect(),
            Opened::Mcp { skills, .. } => skills
                .iter()
                .map(|s| offer(&s.name, &s.description, Some(&s.uri)))
                .collect(),
            Opened::Oci { opened, .. } => opened.offers(),
        }
    }

    /// What discovery found but cannot offer (git and folder sources).
    pub fn discovery(&self) -> Option<&git::Discovery> {
        match self {
            Opened::Index { .. } | Opened::Mcp { .. } | Opened::Oci { .. } => None,
            Opened::Git { found, .. } | Opened::Folder { found, .. } => Some(found),
        }
    }

    /// A git or folder source whose (sub)path is itself a skill folder.
    pub fn is_one_skill(&self) -> bool {
        if let Opened::Oci { opened, .. } = self {
            return opened.one.is_some();
        }
        self.discovery()
            .is_some_and(|d| d.skills.len() == 1 && d.skills[0].path.is_empty())
    }

    pub fn decl(&self) -> &SourceDecl {
        match self {
            Opened::Index { decl, .. }
            | Opened::Git { decl, .. }
            | Opened::Folder { decl, .. }
            | Opened::Mcp { decl, .. }
            | Opened::Oci { decl, .. } => decl,
        }
    }

    /// Where the source was read, for "found nothing" messages.
    pub fn looked_at(&self) -> String {
        let place = match self {
            Opened::Index { resolved, .. } => format!("the index {}", resolved.index_url),
            Opened::Mcp { decl, skills, .. } => format!(
                "the MCP server {} ({} skills listed)",
                decl.url,
                skills.len()
            ),
            Opened::Git { spec, commit, .. } => {
                format!("{spec} at {}", &commit[..commit.len().min(12)])
            }
            Opened::Oci { opened, .. } => match &opened.one {
                Some((_, artifact)) => format!("the OCI artifact {}", artifact.pinned()),
                None => format!(
                    "the OCI registry namespace {} ({} repositories listed)",
                    opened.declared,
                    opened.listed.len()
                ),
            },
            Opened::Folder { base, subpath, .. } => format!(
                "the folder {}{}",
                base.display(),
                subpath
                    .as_deref()
                    .map(|p| format!(" at --path {p}"))
                    .unwrap_or_default()
            ),
        };
        match self.discovery() {
            Some(found) => format!(
                "{place} ({} folders walked: SKILL.md at the root, skills/, category and agent folders, marketplaces, then everywhere to depth {})",
                found.walked,
                git::MAX_DEPTH
            ),
            None => place,
        }
    }

    /// The "not offered" error for `name` (exit 8), listing what is.
    pub fn missing(&self, name: &str) -> anyhow::Error {
        // A folder of that name whose skill cannot be loaded: say why (exit 5).
        if let Some(skipped) = self.discovery().and_then(|d| {
            d.skipped
                .iter()
                .find(|s| s.path.rsplit('/').next() == Some(name))
        }) {
            return OpError::new(
                Exit::Unsafe,
                format!(
                    "`{name}` ({}) in source `{}` cannot be installed: {}",
                    shown_path(&skipped.path),
                    self.decl().name,
                    skipped.reason
                ),
            )
            .into();
        }
        let names: Vec<String> = self.offers().into_iter().map(|o| o.name).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let source = &self.decl().name;
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
}

pub(crate) fn git_options(sess: &Session<'_>, decl: &SourceDecl) -> anyhow::Result<GitOptions> {
    Ok(GitOptions::new(
        sess.ctx.offline,
        crate::source::bound_token_env(decl).as_deref(),
    )?
    .allowing_http(sess.ctx.allow_http))
}

/// The git source `text` names (relative paths against `base_dir`), or
/// `None` for an index source. Besides the git forms, a `file://` URL or path
/// naming a local repository is git (docs/design.md#formats), unless the folder
/// publishes a registry (`.well-known/`): a registry kept in a git work tree
/// stays an index source.
pub(crate) fn git_spec_for(text: &str, base_dir: &Path) -> anyhow::Result<Option<GitSpec>> {
    match SourceSpec::parse(text, base_dir)? {
        SourceSpec::Git(git_text) => Ok(Some(
            git::parse_git_spec(&git_text, None, base_dir)?.ok_or_else(|| {
                OpError::new(
                    Exit::Usage,
                    format!(
                        "`{git_text}` looks like a git source but names no repository I can read"
                    ),
                )
            })?,
        )),
        SourceSpec::Base(url) if url.scheme() == "file" => {
            let publishes_index = url
                .to_file_path()
                .is_ok_and(|dir| dir.join(".well-known").is_dir());
            if publishes_index {
                return Ok(None);
            }
            Ok(git::parse_git_spec(text, None, base_dir)?)
        }
        _ => Ok(None),
    }
}

/// The plain folder of skills `decl` names: a local folder (path or
/// `file://` URL) that is neither a git repository nor a published registry
/// (`.well-known/`) and holds at least one SKILL.md where discovery looks.
/// `None` for every other source (an empty folder stays an index source, so
/// its error says no index was found there).
pub(crate) fn folder_source_for(text: &str, base_dir: &Path) -> Option<std::path::PathBuf> {
    let dir = local_folder(text, base_dir)?;
    let found = git::discover_skills(&dir);
    (!found.skills.is_empty() || !found.skipped.is_empty()).then_some(dir)
}

/// The folder a local source names, when it is a folder without a
/// `.well-known/` index. A locked folder source needs only this: it was
/// told apart from an index when it was added, and discovering every skill
/// of the folder again for each locked one would make installing n skills
/// read n² SKILL.md files.
pub(crate) fn local_folder(text: &str, base_dir: &Path) -> Option<std::path::PathBuf> {
    let SourceSpec::Base(url) = SourceSpec::parse(text, base_dir).ok()? else {
        return None;
    };
    if url.scheme() != "file" {
        return None;
    }
    let dir = url.to_file_path().ok()?;
    let is_folder = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
    (is_folder && !dir.join(".well-known").exists()).then_some(dir)
}

/// `--path` as a clean relative folder (`None` for the root); anything that
/// could leave the source is a usage error.
pub(crate) fn clean_subpath(raw: Option<&str>) -> anyhow::Result<Option<String>> {
    let Some(raw) = raw else { return Ok(None) };
    git::normalize_folder(raw)
        .map_err(|why| OpError::new(Exit::Usage, format!("--path `{raw}`: {why}")).into())
}

/// `spec` narrowed to `folder` (skills.toml's `path`) inside the folder it
/// names itself.
pub(crate) fn with_folder(mut spec: GitSpec, folder: Option<&str>) -> anyhow::Result<GitSpec> {
    if let Some(path) = folder {
        let joined = spec.join_subpath(path);
        spec.subpath = None;
        spec = spec.with_subpath(joined.as_deref())?;
    }
    Ok(spec)
}

/// Fetches a source's index (signature checked), resolves its git ref and
/// checks the commit out, or walks a folder of skills.
pub(crate) fn open_source(sess: &mut Session<'_>, decl: &SourceDecl) -> anyhow::Result<Opened> {
    if crate::source_mcp::is_mcp_form(&decl.url) {
        return super::mcp_source::open(sess, decl);
    }
    if decl.url.starts_with(crate::sources::oci::SCHEME) {
        return Ok(Opened::Oci {
            decl: decl.clone(),
            opened: Box::new(super::oci_source::open(sess, decl)?),
        });
    }
    let root = sess.project.root.clone();
    let subpath = clean_subpath(decl.path.as_deref())?;
    if let Some(spec) = git_spec_for(&decl.url, &root)? {
        let spec = with_folder(spec, subpath.as_deref())?;
        let opts = git_options(sess, decl)?;
        sess.ctx.ui.status("Resolving", spec.to_string());
        let resolved = git::resolve(&spec, &opts)?;
        for w in &resolved.warnings {
            sess.ctx.ui.warn(w);
        }
        // Resolving proves the ref link: the commit is the ref's tip now.
        crate::provenance::chain::record_on_ref(
            sess.store.root(),
            &spec.url(),
            spec.reference.as_deref(),
            &resolved.commit,
            &resolved.commit,
        );
        let checkout = git::checkout(&spec, &resolved.commit, &sess.store.tmp_dir(), &opts)?;
        for w in &checkout.warnings {
            sess.ctx.ui.warn(w);
        }
        let discovery = checkout.discover();
        for w in &discovery.warnings {
            sess.ctx.ui.warn(w);
        }
        return Ok(Opened::Git {
            decl: decl.clone(),
            spec,
            commit: resolved.commit,
            checkout: Box::new(checkout),
            found: discovery,
        });
    }
    if let Some(base) = folder_source_for(&decl.url, &root) {
        let dir = folder_dir(&base, subpath.as_deref())
            .with_context(|| format!("source `{}` ({})", decl.name, base.display()))?;
        let discovery = git::discover_skills(&dir);
        for w in &discovery.warnings {
            sess.ctx.ui.warn(w);
        }
        return Ok(Opened::Folder {
            decl: decl.clone(),
            base,
            subpath,
            found: discovery,
        });
    }
    if let Some(path) = &subpath {
        return fail(
            Exit::Usage,
            format!(
                "source `{}` is a registry (an index), which has no folders: `path = \"{path}\"` applies to git and folder sources",
                decl.name
            ),
        );
    }
    let source = Source::from_decl(decl, &root)?;
    let fetcher = sess.fetcher()?;
    let resolved = source::resolve(fetcher, &source, SystemTime::now())
        .with_context(|| format!("cannot read source `{}`", decl.name))?;
    for problem in &resolved.index.problems {
        sess.ctx
            .ui
            .warn(format!("{}: {problem}", resolved.index_url));
    }
    Ok(Opened::Index {
        decl: decl.clone(),
        resolved: Box::new(resolved),
    })
}

/// `base/rel` when every segment of `rel` is a real folder (symbolic links
/// would lead out of the source, so they are refused, never followed).
/// A link is refused (exit 5), a missing folder is not found (exit 8).
pub(crate) fn folder_dir(base: &Path, rel: Option<&str>) -> Result<std::path::PathBuf, OpError> {
    let mut dir = base.to_owned();
    for segment in rel.unwrap_or("").split('/').filter(|s| !s.is_empty()) {
        dir.push(segment);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(OpError::new(
                    Exit::Unsafe,
                    format!(
                        "`{}` is a symbolic link; skillpm never follows links out of a source folder",
                        dir.display()
                    ),
                ));
            }
            Ok(m) if m.is_dir() => {}
            _ => {
                return Err(OpError::new(
                    Exit::NotFound,
                    format!("there is no folder `{}`", dir.display()),
                ));
            }
        }
    }
    Ok(dir)
}

/// Downloads, verifies and stores the named skills of an opened source.
/// Unknown names fail (exit 8) before anything is downloaded; the first
/// skill that cannot be stored fails the whole call.
pub(crate) fn resolve_names(
    sess: &mut Session<'_>,
    opened: &Opened,
    names: &[String],
) -> anyhow::Result<Vec<Candidate>> {
    let offered: Vec<String> = opened.offers().into_iter().map(|o| o.name).collect();
    // An OCI namespace need not list its skills: the registry says "not found".
    let listed_in_full = !matches!(opened, Opened::Oci { opened, .. } if opened.one.is_none());
    if let Some(name) = names
        .iter()
        .find(|n| listed_in_full && !offered.contains(n))
    {
        return Err(opened.missing(name));
    }
    resolve_each(sess, opened, names).into_iter().collect()
}

/// Resolves `(name, source)` pairs, each source opened once (in name order
/// of the sources; the names of one source in the order given).
pub(crate) fn resolve_by_source<'a>(
    sess: &mut Session<'_>,
    wanted: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> anyhow::Result<Vec<Candidate>> {
    let mut by_source: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for (name, source) in wanted {
        by_source.entry(source).or_default().push(name.to_owned());
    }
    let mut candidates = Vec::new();
    for (source, names) in by_source {
        let decl = sess.manifest.require_source(source)?.clone();
        let opened = open_source(sess, &decl)?;
        candidates.extend(resolve_names(sess, &opened, &names)?);
    }
    Ok(candidates)
}

/// Like [`resolve_names`], one result per name, so `add --all` can keep
/// every skill that is acceptable and report the others.
pub(crate) fn resolve_each(
    sess: &mut Session<'_>,
    opened: &Opened,
    names: &[String],
) -> Vec<anyhow::Result<Candidate>> {
    match opened {
        Opened::Index { decl, resolved } => resolve_index(sess, decl, resolved, names),
        Opened::Mcp {
            decl,
            skills,
            client,
        } => super::mcp_source::resolve(sess, decl, skills, client, names),
        Opened::Oci { decl, opened } => super::oci_source::resolve(sess, decl, opened, names),
        Opened::Git {
            decl,
            spec,
            commit,
            checkout,
            found,
        } => names
            .iter()
            .map(|name| {
                let skill = unique_found(opened, found, name)?;
                let dir = checkout.skill_dir(&skill.path)?;
                let label = format!("{spec} ({})", shown_path(&skill.path));
                let entry = sess.store.import_dir(&dir, &label, name, &sess.limits)?;
                let subpath = spec.join_subpath(&skill.path);
                // The commit → tree link that `provenance` checks later.
                let key = Unpacked::git_key(&spec.url(), commit, subpath.as_deref());
                let _ = Unpacked::in_cache(sess.store.root()).record(&key, &entry.digest);
                let locked = LockedSkill {
                    url: Some(spec.url()),
                    commit: Some(commit.to_owned()),
                    subpath,
                    ..new_lock_entry(name, &decl.name, Format::Git, &entry)
                };
                let judged = judge(sess, &dir, name, !skill.path.is_empty(), &label)?;
                candidate(sess, locked, entry, judged)
            })
            .collect(),
        Opened::Folder {
            decl,
            base,
            subpath,
            found,
        } => {
            // Copying is independent per skill: spread over the cores
            // (docs/performance.md); judging and reporting stay in order.
            let shared: &Session<'_> = sess;
            let copied = super::parallel::map(names, |name| -> anyhow::Result<_> {
                let skill = unique_found(opened, found, name)?;
                let rel = join_rel(subpath.as_deref(), &skill.path);
                let dir = folder_dir(base, rel.as_deref())?;
                let label = format!("{} ({})", base.display(), shown_path(&skill.path));
                let entry = shared
                    .store
                    .import_dir(&dir, &label, name, &shared.limits)?;
                Ok((skill, rel, dir, label, entry))
            });
            names
                .iter()
                .zip(copied)
                .map(|(name, copied)| {
                    let (skill, rel, dir, label, entry) = copied?;
                    let locked = LockedSkill {
                        url: Some(decl.url.clone()),
                        subpath: rel,
                        ..new_lock_entry(name, &decl.name, Format::Path, &entry)
                    };
                    let judged = judge(sess, &dir, name, !skill.path.is_empty(), &label)?;
                    candidate(sess, locked, entry, judged)
                })
                .collect()
        }
    }
}

/// The lock entry of stored content with only what every source gives
/// (name, source, format, tree): what no index describes (a git checkout,
/// a folder, an MCP server) has no version, signer or artifact; not yet
/// approved.
pub(crate) fn new_lock_entry(
    name: &str,
    source: &str,
    format: Format,
    entry: &StoreEntry,
) -> LockedSkill {
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
    }
}

/// A source-relative folder as shown to the user: the root is `.`.
pub(crate) fn shown_path(path: &str) -> &str {
    if path.is_empty() { "." } else { path }
}

/// `a` joined with `b` as `/`-separated folders; `None` for the root.
pub(crate) fn join_rel(a: Option<&str>, b: &str) -> Option<String> {
    match (a.unwrap_or(""), b.trim_matches('/')) {
        ("", "") => None,
        ("", b) => Some(b.to_owned()),
        (a, "") => Some(a.to_owned()),
        (a, b) => Some(format!("{a}/{b}")),
    }
}

/// The one folder offering `name`; two folders claiming it are an error
/// that names both (never one picked silently).
fn unique_found<'a>(
    opened: &Opened,
    found: &'a git::Discovery,
    name: &str,
) -> anyhow::Result<&'a git::FoundSkill> {
    let matches = found.named(name);
    match matches.as_slice() {
        [] => Err(opened.missing(name)),
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

/// Judges the skill folder `dir` at the session's level: refuses (exit 5)
/// what that level refuses, naming skill, field and rule; returns the
/// warnings a lenient install keeps. `own_folder`: `dir`'s name is the
/// folder the skill came in, so a name that differs from it is reported.
pub(crate) fn judge(
    sess: &Session<'_>,
    dir: &Path,
    name: &str,
    own_folder: bool,
    label: &str,
) -> anyhow::Result<Vec<String>> {
    let check = skill::check_skill_dir(dir, if own_folder { None } else { Some(name) });
    let refusals = check.refusals(sess.level);
    if !refusals.is_empty() {
        let why: Vec<String> = refusals.iter().map(|d| diagnostic_text(dir, d)).collect();
        let hint = match sess.level {
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

/// `--strict` over a lock entry already in the store: its content is judged
/// by every rule (its folder name, when the lock records one, is the name
/// it must carry).
pub(crate) fn judge_locked(sess: &Session<'_>, locked: &LockedSkill) -> anyhow::Result<()> {
    let dir = sess.store.entry_path(&locked.tree);
    let folder = locked
        .subpath
        .as_deref()
        .and_then(|p| p.rsplit('/').next())
        .unwrap_or(&locked.name);
    let check = skill::check_skill_dir(&dir, Some(folder));
    let refusals = check.refusals(sess.level);
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

fn resolve_index(
    sess: &mut Session<'_>,
    decl: &SourceDecl,
    resolved: &source::ResolvedIndex,
    names: &[String],
) -> Vec<anyhow::Result<Candidate>> {
    let mut by_name = std::collections::HashMap::new();
    let mut entries: Vec<&Entry> = Vec::new();
    for entry in names.iter().filter_map(|n| resolved.index.entry(n)) {
        // Warm cache: an artifact already unpacked in the store is reused.
        match stored_artifact(sess, entry) {
            Some(stored) => {
                let candidate = index_candidate(sess, decl, resolved, entry, stored);
                by_name.insert(entry.name.clone(), candidate);
            }
            None => entries.push(entry),
        }
    }
    let requests: Vec<_> = entries.iter().map(|e| resolved.request(e)).collect();
    let bar = sess.ctx.ui.bar(0, "Downloading", false);
    let fetched = if requests.is_empty() {
        Ok(Vec::new())
    } else {
        sess.fetcher()
            .map(|fetcher| source::download_entries(fetcher, &requests, &bar))
    };
    bar.finish_and_clear();
    let fetched = match fetched {
        Ok(fetched) => fetched,
        Err(e) => {
            // The first keeps the error itself (its exit code); the rest say it.
            let message = format!("{e:#}");
            let mut out = vec![Err(e)];
            out.extend(
                names
                    .iter()
                    .skip(1)
                    .map(|_| Err(anyhow::anyhow!(message.clone()))),
            );
            out.truncate(names.len());
            return out;
        }
    };
    let mut downloaded = Vec::with_capacity(entries.len());
    for (entry, result) in entries.into_iter().zip(fetched) {
        // A failed download keeps its error (and so its exit code).
        match result.with_context(|| format!("cannot download `{}`", entry.name)) {
            Ok(fetched) => downloaded.push((entry, fetched)),
            Err(e) => {
                by_name.insert(entry.name.clone(), Err(e));
            }
        }
    }
    // Unpacking is independent per skill; results are kept in index order.
    let shared: &Session<'_> = sess;
    let imported = super::parallel::map(&downloaded, |(entry, fetched)| {
        import_fetched(shared, entry, fetched)
    });
    for ((entry, _), result) in downloaded.iter().zip(imported) {
        let candidate =
            result.and_then(|imported| index_candidate(sess, decl, resolved, entry, imported));
        by_name.insert(entry.name.clone(), candidate);
    }
    names
        .iter()
        .map(|n| {
            by_name.remove(n).unwrap_or_else(|| {
                fail(
                    Exit::NotFound,
                    format!("source `{}` offers no skill named `{n}`", decl.name),
                )
            })
        })
        .collect()
}

/// The candidate for an index entry whose content is now in the store:
/// its lock entry names the index snapshot and, when signed, the signer.
fn index_candidate(
    sess: &Session<'_>,
    decl: &SourceDecl,
    resolved: &source::ResolvedIndex,
    entry: &Entry,
    (store_entry, format, artifact): (StoreEntry, Format, Option<crate::digest::Digest>),
) -> anyhow::Result<Candidate> {
    let url = match &entry.content {
        EntryContent::Artifact { url, .. } => sess.lock_url(url),
        EntryContent::Files { .. } => sess.lock_url(&crate::index::paths::file_url(
            &crate::index::paths::index_dir(&resolved.index.url),
            &entry.name,
            "",
        )),
    };
    let locked = LockedSkill {
        version: entry.version.clone(),
        index: Some(sess.lock_url(&resolved.index_url)),
        index_digest: Some(resolved.snapshot),
        index_version: resolved.signer.as_ref().map(|s| s.version),
        url: Some(url),
        artifact,
        signer: resolved.signer.as_ref().map(|s| s.key_id.clone()),
        ..new_lock_entry(&entry.name, &decl.name, format, &store_entry)
    };
    let judged = judge(
        sess,
        &store_entry.path,
        &entry.name,
        false,
        &entry_label(entry),
    )?;
    candidate(sess, locked, store_entry, judged)
}

/// An index entry as named in messages: its URL, else its name.
fn entry_label(entry: &Entry) -> String {
    entry
        .url()
        .map_or_else(|| entry.name.clone(), |u| u.to_string())
}

/// The store entry an index entry's artifact unpacked to before, when the
/// store still holds it whole (`Store::reuse_unpacked`): nothing to download.
fn stored_artifact(
    sess: &Session<'_>,
    entry: &Entry,
) -> Option<(StoreEntry, Format, Option<crate::digest::Digest>)> {
    let EntryContent::Artifact {
        digest, artifact, ..
    } = &entry.content
    else {
        return None;
    };
    let stored = sess
        .store
        .reuse_unpacked(digest, |tree| sess.state.load_tree(tree))?;
    let format = match artifact {
        IndexKind::SkillMd => Format::SkillMd,
        IndexKind::Archive => Format::Archive,
    };
    Some((stored, format, Some(*digest)))
}

/// Unpacks downloaded content into the store.
pub(crate) fn import_fetched(
    sess: &Session<'_>,
    entry: &Entry,
    content: &FetchedContent,
) -> anyhow::Result<(StoreEntry, Format, Option<crate::digest::Digest>)> {
    let label = entry_label(entry);
    match content {
        FetchedContent::Artifact {
            path,
            digest,
            kind,
            format,
        } => {
            let (unpack_kind, lock_format) = match (kind, format) {
                (IndexKind::SkillMd, _) => (ArtifactKind::SkillMd, Format::SkillMd),
                (IndexKind::Archive, Some(archive)) => (*archive, Format::Archive),
                (IndexKind::Archive, None) => {
                    return fail(
                        Exit::Unsafe,
                        format!(
                            "{label}: neither its Content-Type, its extension nor its bytes say whether it is a .zip or a .tar.gz; the registry must serve one of those"
                        ),
                    );
                }
            };
            let stored =
                sess.store
                    .import_artifact(unpack_kind, path, &label, &entry.name, &sess.limits)?;
            // The artifact → tree link that `provenance` checks later.
            let _ = Unpacked::in_cache(sess.store.root()).record(digest, &stored.digest);
            Ok((stored, lock_format, Some(*digest)))
        }
        FetchedContent::Files { files, .. } => {
            let mut opened = Vec::with_capacity(files.len());
            for f in files {
                let file = std::fs::File::open(&f.local)
                    .with_context(|| format!("cannot read {}", f.local.display()))?;
                opened.push((f.path.clone(), file));
            }
            let stored = sess
                .store
                .import_file_list(&label, &entry.name, &sess.limits, opened)?;
            // The file list → tree link that `provenance` checks later.
            if let crate::index::EntryContent::Files { files } = &entry.content {
                let key = Unpacked::files_key(files.iter().map(|f| &f.url));
                let _ = Unpacked::in_cache(sess.store.root()).record(&key, &stored.digest);
            }
            Ok((stored, Format::Files, None))
        }
    }
}

/// Parses the stored skill and gathers what the approval summary shows.
pub(crate) fn candidate(
    sess: &Session<'_>,
    mut locked: LockedSkill,
    entry: StoreEntry,
    warnings: Vec<String>,
) -> anyhow::Result<Candidate> {
    for w in &warnings {
        sess.ctx
            .ui
            .warn(format!("`{}`: {}", locked.name, crate::shown::Untrusted(w)));
    }
    locked.warnings = warnings;
    if let Err(e) = sess.state.save_tree(&entry.tree) {
        sess.ctx.ui.warn(format!(
            "could not remember the file list of {}: {e}",
            entry.digest
        ));
    }
    let (skill, dependencies) = read_stored_skill(&entry.path, &locked.name)?;
    Ok(Candidate {
        locked,
        entry,
        skill,
        dependencies,
    })
}

/// The parsed SKILL.md of a store entry and its declared dependencies.
pub(crate) fn read_stored_skill(
    dir: &std::path::Path,
    name: &str,
) -> anyhow::Result<(SkillMd, Vec<Dependency>)> {
    let check = skill::check_skill_dir(dir, Some(name));
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
                        present: env_var && !d.is_missing_env_var(crate::ops::env_var_is_set),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((skill, dependencies))
}
