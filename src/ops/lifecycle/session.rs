//! An open project: what every lifecycle command reads before it acts
//! (docs/design.md#manifest-and-lock). Its own file, so the commands beside
//! it never import up from `lifecycle/mod.rs`.

use std::path::{Path, PathBuf};

use crate::agents::roots::Env;
use crate::error::{Exit, OpError};
use crate::net::fetch::Fetcher;
use crate::ops::Context;
use crate::project::lock::{LockedSkill, Lockfile};
use crate::project::state::ProjectState;
use crate::project::{self, Manifest, Project};
use crate::sources::workspace::Workspace;
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
    /// The install policy of every level (docs/policy.md), read once.
    pub policy: crate::policy::Effective,
    pub limits: Limits,
    /// How strictly skills are judged on the way in: `[install] strict`,
    /// or `--strict` for one run.
    pub level: crate::skill::Level,
    /// `--accept-findings`: accept every audit finding of the content
    /// approved in this run (docs/audit.md).
    pub accept_findings: bool,
    /// `add --all`: a skill the audit refuses is held back (named in
    /// `skipped`) instead of refusing the whole command.
    pub hold_back: bool,
    /// The project's sealed set, being checked since the session opened
    /// ([`Session::open_checking_ahead`]); taken by the first check of the
    /// store's entries.
    pub set_ahead: Option<crate::store::SetCheckAhead>,
    /// Lent to the source kinds as [`Workspace::audit_ahead`].
    pub audit_ahead: bool,
    fetcher: Option<Fetcher>,
}

impl<'c> Session<'c> {
    /// Opens the project of `ctx`; `strict` (`--strict`) judges skills at
    /// the strict level whatever `[install] strict` says.
    pub fn open(ctx: &'c Context, strict: bool) -> anyhow::Result<Self> {
        Self::open_with(ctx, strict, false)
    }

    /// [`Session::open`] for a command that checks every locked entry
    /// (`install`): the project's sealed set is checked on a thread of its
    /// own while the manifest, policy and lock are read
    /// (docs/performance.md#the-no-op-install).
    pub fn open_checking_ahead(ctx: &'c Context, strict: bool) -> anyhow::Result<Self> {
        Self::open_with(ctx, strict, true)
    }

    fn open_with(ctx: &'c Context, strict: bool, ahead: bool) -> anyhow::Result<Self> {
        let env = Env::from_process();
        let project = crate::ops::open_project(ctx, &env)?;
        let set_ahead = ahead
            .then(|| Store::check_set_ahead(&project.root))
            .flatten();
        let manifest = project.load_manifest()?;
        project::check_scope(&manifest, ctx.scope)?;
        let policy = crate::policy::load(&env, &project.root)?;
        crate::sources::workspace::warn_unbound_tokens(&ctx.ui, &manifest);
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
            policy,
            limits,
            level,
            accept_findings: false,
            hold_back: false,
            set_ahead,
            audit_ahead: false,
            fetcher: None,
        })
    }

    /// The HTTP client, created on first use (commands served from the
    /// store never build one).
    pub fn fetcher(&mut self) -> anyhow::Result<&Fetcher> {
        let fetcher = match self.fetcher.take() {
            Some(fetcher) => fetcher,
            None => crate::sources::workspace::fetcher_within(
                &self.ctx.ui,
                self.ctx.offline,
                self.ctx.allow_http,
                &self.limits,
            )?,
        };
        Ok(self.fetcher.insert(fetcher))
    }

    /// What the source kinds may use of this session (`crate::sources`).
    pub fn workspace(&mut self) -> Workspace<'_> {
        Workspace {
            ui: &self.ctx.ui,
            offline: self.ctx.offline,
            allow_http: self.ctx.allow_http,
            root: &self.project.root,
            manifest: &self.manifest,
            store: &self.store,
            limits: &self.limits,
            level: self.level,
            audit_ahead: self.audit_ahead,
            fetcher: &mut self.fetcher,
        }
    }

    pub fn lock_path(&self) -> PathBuf {
        self.project.lock_path()
    }

    pub fn lock_or_empty(&self) -> Lockfile {
        self.lock.clone().unwrap_or_default()
    }

    /// Writes the lock (only when it changed) and registers it for `cache gc`.
    pub fn save_lock(&mut self, lock: Lockfile) -> anyhow::Result<bool> {
        self.save(false, lock)
    }

    /// [`Session::save_lock`] with skills.toml written beside it: both
    /// flushed, then both renamed and their folder flushed once
    /// ([`crate::fs::write_atomic_all`]).
    pub fn save_manifest_and_lock(&mut self, lock: Lockfile) -> anyhow::Result<bool> {
        self.save(true, lock)
    }

    fn save(&mut self, with_manifest: bool, lock: Lockfile) -> anyhow::Result<bool> {
        let path = self.lock_path();
        let changed = self.lock.as_ref() != Some(&lock) || !path.exists();
        let manifest = with_manifest.then(|| self.manifest.to_toml());
        let locked = changed.then(|| lock.to_toml());
        let files: Vec<(&Path, &[u8])> = (manifest.iter())
            .map(|text| (self.manifest.path(), text.as_bytes()))
            .chain(locked.iter().map(|text| (path.as_path(), text.as_bytes())))
            .collect();
        if files.is_empty() {
            self.register_lock();
        } else {
            // The lock is recorded as a `cache gc` root while it is written
            // (its own flushes, 0.5-1 ms of a cold add): a root whose file
            // never came is forgotten by the next gc, and a root recorded
            // before its lock exists only narrows the window in which a gc
            // could miss it (docs/performance.md#what-the-measurements-decided).
            let store = &self.store;
            let (written, registered) = std::thread::scope(|scope| {
                let registering = scope.spawn(|| store.register_project_lock(&path));
                let written = crate::fs::write_atomic_all(&files);
                (written, registering.join())
            });
            written.map_err(|(at, source)| -> anyhow::Error {
                if manifest.is_some() && at == 0 {
                    let path = self.manifest.path().to_owned();
                    crate::project::manifest::ManifestError::Write { path, source }.into()
                } else {
                    let path = path.clone();
                    crate::project::lock::LockError::Write { path, source }.into()
                }
            })?;
            match registered {
                Ok(Ok(())) => {}
                Ok(Err(e)) => self.warn_unregistered(&path, &e),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        self.lock = Some(lock);
        Ok(changed)
    }

    pub fn register_lock(&self) {
        let path = self.lock_path();
        if path.exists()
            && let Err(e) = self.store.register_project_lock(&path)
        {
            self.warn_unregistered(&path, &e);
        }
    }

    fn warn_unregistered(&self, path: &Path, e: &crate::store::StoreError) {
        self.ctx.ui.warn(format!(
            "could not record {} for `cache gc`: {e}; until it is recorded, `cache gc` may remove \
             stored skills this lock needs (`skillpm install` fetches them again): fix that, then \
             run `skillpm install` here to record it",
            path.display()
        ));
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
