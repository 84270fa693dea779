//! The project lifecycle (docs/design.md#manifest-and-lock to #approval): `add`, `install`, `update`,
//! `outdated`, `remove`, `approve`, `disable`/`enable`, `list`, `verify`.
//!
//! Every command opens a [`Session`] (project, manifest, lock, store), then
//! works in the same order: resolve or materialise content into the store,
//! get approval for exactly the tree digests that will be linked, place the
//! links, and only then write `skills.toml` and `skills.lock` (atomically).
//! A failure before the last step leaves the project as it was.

mod add;
mod approval;
mod audit_gate;
mod candidate;
mod install;
mod manage;
mod materialize;
mod mcp_source;
pub(crate) mod oci_source;
mod place;
mod proof;
mod status;
mod update;

use crate::fs::parallel;
pub use crate::placement::{FileChanges, LinkChanges, Replaced, default_agents};
pub use add::{AddOptions, add};
pub(crate) use candidate::{
    clean_subpath, folder_dir, folder_source_for, git_spec_for, join_rel, with_folder,
};
pub use install::{InstallMode, InstallOptions, install};
pub use manage::{ApproveOptions, approve, disable, enable, remove};
pub use status::{list, verify, verify_provenance};
pub use update::{UpdateOptions, outdated, update};

use std::path::PathBuf;

use super::Context;
use crate::error::{Exit, OpError};
use crate::fetch::Fetcher;
use crate::ops::fail;
use crate::project::lock::{LockedSkill, Lockfile};
use crate::project::state::ProjectState;
use crate::project::{self, Manifest, Project};
use crate::roots::Env;
use crate::store::Store;
use crate::unpack::Limits;

/// An open project: everything a lifecycle command reads before it acts.
pub(crate) struct Session<'c> {
    pub ctx: &'c Context,
    pub project: Project,
    pub manifest: Manifest,
    /// `None` when the project has no skills.lock yet.
    pub lock: Option<Lockfile>,
    pub store: Store,
    pub state: ProjectState,
    pub env: Env,
    pub limits: Limits,
    /// How strictly skills are judged on the way in: `[install] strict`,
    /// or `--strict` for one run.
    pub level: crate::skill::Level,
    /// `--accept-findings`: accept every audit finding of the content
    /// approved in this run (docs/audit.md).
    pub accept_findings: bool,
    fetcher: Option<Fetcher>,
}

impl<'c> Session<'c> {
    /// Opens the project of `ctx`; `strict` (`--strict`) judges skills at
    /// the strict level whatever `[install] strict` says.
    pub fn open(ctx: &'c Context, strict: bool) -> anyhow::Result<Self> {
        let env = Env::from_process();
        let project = super::open_project(ctx, &env)?;
        let mut manifest = project.load_manifest()?;
        project::check_scope(&manifest, ctx.scope)?;
        super::source::warn_unbound_tokens(ctx, &manifest);
        crate::placement::apply_choices(&ctx.agents, ctx.link_mode, &mut manifest)?;
        let lock = Lockfile::load(&project.lock_path())?;
        let store = Store::open()?;
        if store.debris_removed() > 0 {
            ctx.ui.info(format!(
                "removed {} unfinished store entries left by an interrupted run",
                store.debris_removed()
            ));
        }
        let state = ProjectState::new(&store.root().join(crate::cache::layout::STATE));
        let level = if strict || manifest.install().strict {
            crate::skill::Level::Strict
        } else {
            crate::skill::Level::Lenient
        };
        let limits = match manifest.limits() {
            None => Limits::default(),
            Some(table) => table.clone().try_into().map_err(|e: toml::de::Error| {
                OpError::new(
                    Exit::Usage,
                    format!(
                        "{}: [limits] is invalid: {}",
                        manifest.path().display(),
                        e.message()
                    ),
                )
            })?,
        };
        Ok(Session {
            ctx,
            project,
            manifest,
            lock,
            store,
            state,
            env,
            limits,
            level,
            accept_findings: false,
            fetcher: None,
        })
    }

    /// The HTTP client, created on first use (commands served from the
    /// store never build one).
    pub fn fetcher(&mut self) -> anyhow::Result<&Fetcher> {
        let fetcher = match self.fetcher.take() {
            Some(fetcher) => fetcher,
            None => super::source::fetcher_within(self.ctx, &self.limits)?,
        };
        Ok(self.fetcher.insert(fetcher))
    }

    pub fn lock_path(&self) -> PathBuf {
        self.project.lock_path()
    }

    pub fn lock_or_empty(&self) -> Lockfile {
        self.lock.clone().unwrap_or_default()
    }

    /// Writes the lock (only when it changed) and registers it for `cache gc`.
    pub fn save_lock(&mut self, lock: Lockfile) -> anyhow::Result<bool> {
        let path = self.lock_path();
        let changed = self.lock.as_ref() != Some(&lock) || !path.exists();
        if changed {
            lock.save(&path)?;
        }
        self.register_lock();
        self.lock = Some(lock);
        Ok(changed)
    }

    pub fn register_lock(&self) {
        let path = self.lock_path();
        if path.exists()
            && let Err(e) = self.store.register_project_lock(&path)
        {
            self.ctx.ui.warn(format!(
                "could not record {} for `cache gc`: {e}",
                path.display()
            ));
        }
    }

    /// How a URL is written into the lock: a `file://` URL near the project
    /// (sharing a folder below `/` with it) becomes a relative path, so the
    /// lock reads the same on every clone.
    /// A folder URL keeps its trailing `/` (a v0.1 skill's file folder).
    pub fn lock_url(&self, url: &url::Url) -> String {
        if url.scheme() == "file"
            && let Ok(path) = url.to_file_path()
            && let Some(rel) = relative_path(&self.project.root, &path)
        {
            if url.path().ends_with('/') && !rel.ends_with('/') {
                return format!("{rel}/");
            }
            return rel;
        }
        url.to_string()
    }

    /// The inverse of [`Session::lock_url`].
    pub fn resolve_lock_url(&self, text: &str) -> anyhow::Result<url::Url> {
        if let Ok(url) = url::Url::parse(text) {
            return Ok(url);
        }
        url::Url::from_file_path(self.project.root.join(text)).or_else(|()| {
            fail(
                Exit::Usage,
                format!(
                    "skills.lock has `{text}`, which is neither a URL nor a path in the project"
                ),
            )
        })
    }

    pub fn is_enabled(&self, name: &str) -> bool {
        self.manifest.skills().get(name).is_none_or(|d| d.enabled)
    }

    /// The entries of `lock` that get links: approved and not disabled.
    pub fn active<'l>(&self, lock: &'l Lockfile) -> Vec<&'l LockedSkill> {
        lock.skills()
            .iter()
            .filter(|s| s.is_approved() && self.is_enabled(&s.name))
            .collect()
    }
}

/// `to` relative to `from` with `/` separators (`..` allowed), when both are
/// absolute and share at least one folder below the root.
fn relative_path(from: &std::path::Path, to: &std::path::Path) -> Option<String> {
    use std::path::Component;
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let shares_a_folder = from
        .first()
        .is_some_and(|c| matches!(c, Component::RootDir))
        && common >= 2;
    if !shares_a_folder
        || to[common..]
            .iter()
            .chain(&from[common..])
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let mut parts: Vec<String> = from[common..].iter().map(|_| "..".to_owned()).collect();
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts.join("/"))
}

/// The error for names the lock or manifest does not have (exit 8).
pub(crate) fn not_in_project(name: &str, known: Vec<&str>) -> anyhow::Error {
    let known = if known.is_empty() {
        "the project has no skills yet (`skillpm add <name>`)".to_owned()
    } else if known.len() <= 10 {
        format!("the project has: {}", known.join(", "))
    } else {
        format!(
            "{} (`skillpm list` shows all {})",
            crate::names::suggest(name, &known, 0),
            known.len()
        )
    };
    OpError::new(
        Exit::NotFound,
        format!("no skill named `{name}` in this project; {known}"),
    )
    .into()
}

#[cfg(test)]
mod tests {
    use super::relative_path;
    use std::path::Path;

    #[test]
    fn lock_paths_are_relative_near_the_project_and_absolute_elsewhere() {
        let p = Path::new("/repo/registry-fixtures/demo");
        assert_eq!(
            relative_path(p, Path::new("/repo/registry-fixtures/site/a.tar.gz")).as_deref(),
            Some("../site/a.tar.gz")
        );
        assert_eq!(
            relative_path(p, Path::new("/repo/registry-fixtures/demo/x")).as_deref(),
            Some("x")
        );
        assert_eq!(relative_path(p, Path::new("/tmp/site/a.tar.gz")), None);
    }
}
