//! The folder kind (docs/sources.md#folder): a plain folder of skills on
//! this machine (or one skill folder), neither a git repository nor a
//! published registry. The lock pins the folder as skills.toml names it,
//! the skill's folder inside it and the tree; a folder is trusted as it lies
//! on disk, so every fetch hashes it again and a change is drift (exit 6).

use std::path::Path;

use anyhow::Context as _;

use super::candidate::{
    Candidate, FoundPlace, Offer, clean_subpath, found_offers, import_found, join_rel,
    new_lock_entry, not_offered, shown_path,
};
use super::location::Written;
use super::proof::{Declared, Proof, ProveContext, ProveError, check_within, declared_url};
use super::workspace::{Workspace, fail};
use super::{Kind, Latest, Net, SearchResult, SearchTarget, Source, found_hits};
use crate::digest::Digest;
use crate::error::{Exit, OpError};
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;

/// The folder kind.
pub struct Folder;

/// A folder source, opened: walked for skills.
pub struct FolderOpened {
    /// The folder the source names (relative paths in the lock are
    /// relative to it).
    pub base: std::path::PathBuf,
    /// `--path` inside `base`, `/`-separated, or `None`.
    pub subpath: Option<String>,
    pub found: crate::skill::discover::RepoDiscovery,
}

fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<FolderOpened> {
    let subpath = clean_subpath(decl.path.as_deref())?;
    let Some(base) = local_folder(&decl.url, ws.root) else {
        return fail(
            Exit::NotFound,
            format!("source `{}`: there is no folder `{}`", decl.name, decl.url),
        );
    };
    let dir = dir(&base, subpath.as_deref())
        .with_context(|| format!("source `{}` ({})", decl.name, base.display()))?;
    let found = crate::skill::discover::discover_skills(&dir);
    for w in &found.warnings {
        ws.ui.warn(w);
    }
    Ok(FolderOpened {
        base,
        subpath,
        found,
    })
}

impl Source for FolderOpened {
    fn offers(&self) -> Vec<Offer> {
        found_offers(&self.found)
    }

    fn looked_at(&self, _decl: &SourceDecl) -> String {
        format!(
            "the folder {}{}",
            self.base.display(),
            self.subpath
                .as_deref()
                .map(|p| format!(" at --path {p}"))
                .unwrap_or_default()
        )
    }

    fn discovery(&self) -> Option<&crate::skill::discover::RepoDiscovery> {
        Some(&self.found)
    }

    fn resolve(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        let FolderOpened {
            base,
            subpath,
            found,
        } = self;
        let missing = |name: &str| not_offered(&decl.name, &found_offers(found), Some(found), name);
        import_found(
            ws,
            found,
            names,
            missing,
            |skill| {
                let rel = join_rel(subpath.as_deref(), &skill.path);
                Ok(FoundPlace {
                    dir: dir(base, rel.as_deref())?,
                    label: format!("{} ({})", base.display(), shown_path(&skill.path)),
                })
            },
            |name, skill, entry| LockedSkill {
                url: Some(decl.url.clone()),
                subpath: join_rel(subpath.as_deref(), &skill.path),
                ..new_lock_entry(name, &decl.name, Format::Path, entry)
            },
        )
    }
}

impl Kind for Folder {
    /// A local folder (path or `file://` URL) that is neither a git
    /// repository nor a published registry (`.well-known/`) and holds at
    /// least one SKILL.md where discovery looks (an empty folder stays an
    /// index source, so its error says no index was found there).
    fn recognizes(&self, at: &Written<'_>) -> anyhow::Result<Option<Option<String>>> {
        let Some(dir) = at.url.as_ref().and_then(local_dir) else {
            return Ok(None);
        };
        // No SKILL.md is read here: `open` discovers the skills once.
        Ok(crate::skill::discover::finds_anything(&dir).then_some(None))
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Path]
    }

    fn open(&self, ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Box<dyn Source>> {
        Ok(Box::new(open(ws, decl)?))
    }

    fn fetch(&self, ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
        fetch_folders(ws, group)
    }

    /// The folder links: the entry reads the declared folder, inside the
    /// declared `path` when there is one, and never leaves it. A folder source
    /// is trusted as it lies on disk, so a lock edited to read another folder
    /// (with a tree and approval to match) must stop here.
    fn prove(
        &self,
        _cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        _declared: &Declared,
        proof: Proof,
    ) -> Result<Option<Proof>, ProveError> {
        declared_url(entry, decl, "reads it from the folder", "the folder ")?;
        check_within(entry, decl.path.as_deref())?;
        Ok(Some(proof))
    }

    /// A folder source's identity is the tree digest of each skill folder.
    fn latest(
        &self,
        ws: &mut Workspace<'_>,
        _decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>> {
        Ok(skills
            .iter()
            .map(|s| {
                let now = drift(ws.root, s)
                    .ok()
                    .map(|d| d.unwrap_or(s.tree).to_string());
                Ok((now, None))
            })
            .collect())
    }

    /// Its skills, walked now.
    fn search(&self, net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult> {
        let decl = &target.decl;
        let subpath = clean_subpath(decl.path.as_deref())?;
        let Some(base) = local_folder(&decl.url, &target.base_dir) else {
            return fail(Exit::NotFound, format!("there is no folder `{}`", decl.url));
        };
        let found = crate::skill::discover::discover_skills(&dir(&base, subpath.as_deref())?);
        for w in &found.warnings {
            net.ui.warn(format!("{}: {w}", base.display()));
        }
        let url = base.display().to_string();
        Ok(SearchResult {
            hits: found_hits(&decl.name, "folder", &url, subpath.as_deref(), &found),
            problems: Vec::new(),
        })
    }
}

/// The folder a local source names, when it is a folder without a
/// `.well-known/` index. A locked folder source needs only this: it was
/// told apart from an index when it was added, and discovering every skill
/// of the folder again for each locked one would make installing n skills
/// read n² SKILL.md files.
pub fn local_folder(text: &str, base_dir: &Path) -> Option<std::path::PathBuf> {
    local_dir(&crate::sources::location::parse(text, base_dir).ok()?.url?)
}

/// The folder a `file:` URL names, when it is one without `.well-known/`.
fn local_dir(url: &url::Url) -> Option<std::path::PathBuf> {
    let dir = url.to_file_path().ok().filter(|_| url.scheme() == "file")?;
    let is_folder = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
    (is_folder && !dir.join(".well-known").exists()).then_some(dir)
}

/// `base/rel` when every segment of `rel` is a real folder (symbolic links
/// would lead out of the source, so they are refused, never followed).
/// A link is refused (exit 5), a missing folder is not found (exit 8).
pub fn dir(base: &Path, rel: Option<&str>) -> Result<std::path::PathBuf, OpError> {
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

/// The folder a folder-source skill is read from: the lock's `url` (the
/// source as skills.toml names it) joined with its `subpath`.
pub fn locked_dir(root: &Path, skill: &LockedSkill) -> anyhow::Result<std::path::PathBuf> {
    let url = skill.url.as_deref().unwrap_or("");
    let base = local_folder(url, root).ok_or_else(|| {
        OpError::new(
            Exit::NotFound,
            format!(
                "`{}` comes from the folder `{url}`, which is not there any more; restore it or `skillpm remove {}`",
                skill.name, skill.name
            ),
        )
    })?;
    let sub = clean_subpath(skill.subpath.as_deref())?;
    dir(&base, sub.as_deref()).with_context(|| format!("the folder of `{}`", skill.name))
}

/// The tree digest a folder-source skill has on disk now, when it differs
/// from the lock's (`None`: unchanged). Symlinks anywhere in it are refused.
pub fn drift(root: &Path, skill: &LockedSkill) -> anyhow::Result<Option<Digest>> {
    let dir = locked_dir(root, skill)?;
    let now = crate::digest::tree_digest(&dir)
        .with_context(|| format!("cannot hash the folder of `{}`", skill.name))?;
    Ok((now != skill.tree).then_some(now))
}

/// Imports folder-source skills from their folders; what is there must
/// still hash to the lock's tree (a changed folder is drift: `update`).
fn fetch_folders(ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    for s in group {
        let dir = locked_dir(ws.root, s)?;
        let label = dir.display().to_string();
        let entry = ws.store.import_dir(&dir, &label, &s.name, ws.limits)?;
        if entry.digest != s.tree {
            return fail(
                Exit::Locked,
                format!(
                    "the folder of `{}` ({label}) changed since skills.lock was written:\n  locked tree {}\n  folder now  {}\n  run `skillpm update {}` to review the change",
                    s.name, s.tree, entry.digest, s.name
                ),
            );
        }
    }
    Ok(())
}

/// A folder source proves its entries by what the folder holds now
/// (docs/threat-model.md): its tree is recomputed on every install, in
/// every mode. When it differs from the lock's, nothing of it is linked
/// from the cache (exit 6, `update` shows the change for approval): an
/// edited folder and a lock edited to name a tree the cache happens to
/// hold look the same, and neither may install the cached tree. A folder
/// that cannot be read proves nothing either.
pub fn check_unchanged(root: &Path, skills: &[LockedSkill]) -> anyhow::Result<()> {
    for s in skills.iter().filter(|s| s.format == Format::Path) {
        if let Some(now) = drift(root, s)? {
            return fail(
                Exit::Locked,
                format!(
                    "the folder of `{}` changed since skills.lock was written (locked tree {}, folder now {now}); nothing of it was linked\n  run `skillpm update {}` to review the change, or restore the folder",
                    s.name, s.tree, s.name
                ),
            );
        }
    }
    Ok(())
}
