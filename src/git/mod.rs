//! Git and GitHub sources, pinned to a commit (docs/design.md#formats).
//!
//! The flow the lifecycle commands drive:
//! 1. [`parse_git_spec`] turns what the user typed into a [`GitSpec`]
//!    (`None`: not a git source, try index sources);
//! 2. [`resolve`] turns its ref into a full commit id ([`ResolvedRef`]), which
//!    `skills.lock` records;
//! 3. [`checkout`] materialises exactly that commit's tree (or subpath) into a
//!    temporary folder ([`Checkout`], removed on drop);
//! 4. [`Checkout::discover`] finds the skills in it, and
//!    [`Checkout::skill_dir`] hands one skill's folder to the store, refusing
//!    a skill that holds a symlink, a submodule or an unsafe name.
//!
//! Transport is gitoxide (`gix`): `file://` and local paths (through
//! `git-upload-pack`, as git itself does), `http(s)://` (skillpm's one HTTP client, `crate::net::Http`, through [`http`])
//! and `ssh://`/`git@host:path` (spawning `ssh`). Credentials come only from
//! the user's git configuration (credential helpers), SSH agent and keys;
//! skillpm stores none. For GitHub a fast path resolves through the API and
//! downloads the commit's archive ([`GitHubOptions`]).
//!
//! These functions block (network and disk): call them from plain threads,
//! not from inside an async runtime.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use skillpm::git::{self, GitOptions};
//! let cwd = std::env::current_dir()?;
//! let spec = git::parse_git_spec("github:acme/skills@v2", None, &cwd)?.expect("a git source");
//! let options = GitOptions::new(false, None)?;
//! let resolved = git::resolve(&spec, &options)?; // lock: url, commit
//! let tmp = std::env::temp_dir();
//! let checkout = git::checkout(&spec, &resolved.commit, &tmp, &options)?;
//! for found in checkout.discover().skills {
//!     let dir = checkout.skill_dir(&found.path)?; // refuses links, submodules
//!     let lock_subpath = spec.join_subpath(&found.path); // lock: subpath
//!     // store.import_dir(&dir, …) then record (url, commit, subpath, tree)
//! #   let _ = (dir, lock_subpath);
//! }
//! // `install --locked`: GitSpec::from_lock(url, subpath) + checkout(commit).
//! # Ok(()) }
//! ```

mod cache;
mod error;
mod fetch;
mod github;
mod http;
mod names;
mod spec;
mod tree;
mod writer;

use std::path::{Path, PathBuf};

use crate::skill::discover::{self, RepoDiscovery, discover_skills};
pub use error::GitError;
pub use github::{GitHubOptions, ReleaseAsset};
pub use spec::{GITHUB_WEB, GitSpec, Repo, is_full_sha, normalize_folder, parse_git_spec};
pub use writer::{CheckoutLimits, SkipReason, SkippedEntry};

use crate::fs::TempDir;

/// The cache subfolder holding git repositories: `<cache>/git`.
pub const CACHE_SUBDIR: &str = crate::cache::layout::GIT;

/// How git operations run.
#[derive(Debug, Clone)]
pub struct GitOptions {
    /// `<cache>/git`: cached repositories and their locks.
    pub cache_dir: PathBuf,
    /// No network at all: only what the cache already holds.
    pub offline: bool,
    pub github: GitHubOptions,
    pub limits: CheckoutLimits,
    /// `--allow-http`: plain http to a host other than this machine.
    pub allow_http: bool,
}

impl GitOptions {
    /// Options for the real cache (`cache_root()/git`), GitHub bases and
    /// token from the environment ([`GitHubOptions::from_env`]), default limits.
    pub fn new(
        offline: bool,
        token_env: Option<&str>,
    ) -> Result<GitOptions, crate::cache::NoCacheDir> {
        Ok(GitOptions {
            cache_dir: crate::cache::cache_root()?.join(CACHE_SUBDIR),
            offline,
            github: GitHubOptions::from_env(token_env),
            limits: CheckoutLimits::default(),
            allow_http: false,
        })
    }

    /// The same, with `--allow-http` as the user passed it.
    pub fn allowing_http(mut self, allow: bool) -> Self {
        self.allow_http = allow;
        self.github.allow_http = allow;
        self
    }

    /// Plain `http://` repositories only on this machine unless allowed
    /// (`crate::net::check_plain_http`); nothing to check offline.
    fn check_transport(&self, url: &str) -> Result<(), GitError> {
        match url::Url::parse(url.strip_prefix("git+").unwrap_or(url)) {
            Ok(u) if !self.offline => {
                crate::net::check_plain_http(&u, self.allow_http).map_err(GitError::PlainHttp)
            }
            _ => Ok(()),
        }
    }
}

/// What a ref resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedRef {
    /// Full 40-hex commit id, lowercase.
    pub commit: String,
    /// The repository URL (as `skills.lock` records it).
    pub url: String,
    /// Things the user should know (a fallback taken); print them on stderr.
    pub warnings: Vec<String>,
}

/// GitHub's API for `spec`, when it names a github.com repository and the
/// fast path may be taken (it is on, and the run is online).
fn github_api<'a>(
    spec: &'a GitSpec,
    options: &'a GitOptions,
) -> Result<Option<github::GitHub<'a>>, GitError> {
    match &spec.repo {
        Repo::GitHub { owner, name } if options.github.fast_path && !options.offline => {
            github::GitHub::new(owner, name, &options.github).map(Some)
        }
        _ => Ok(None),
    }
}

/// Resolves `spec`'s ref to the commit it names now.
pub fn resolve(spec: &GitSpec, options: &GitOptions) -> Result<ResolvedRef, GitError> {
    let url = spec.url();
    options.check_transport(&url)?;
    let mut warnings = Vec::new();
    if let Some(github) = github_api(spec, options)? {
        match github.resolve(spec.reference.as_deref()) {
            Ok(commit) => {
                return Ok(ResolvedRef {
                    commit,
                    url,
                    warnings,
                });
            }
            Err(e) if e.allows_clone_fallback() && options.github.clone_fallback => {
                warnings.push(fallback_warning(&e, &clone_url(spec, options)));
            }
            Err(e) => return Err(e),
        }
    }
    let (_, commit) = clone_tip(spec, options, || {
        format!("ref `{}`", spec.reference.as_deref().unwrap_or("HEAD"))
    })?;
    Ok(ResolvedRef {
        commit: commit.to_string(),
        url,
        warnings,
    })
}

/// What proved a locked commit to be on the declared ref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnRef {
    /// The ref as declared (`HEAD`: the default branch).
    pub reference: String,
    /// The commit that ref names (now, or in the cache when offline).
    pub tip: String,
}

/// The proof rule of a git lock entry (docs/threat-model.md): the locked
/// `commit` must be reachable from the ref the project declared (a branch,
/// a tag, or the default branch; a declared full commit id must be the
/// commit itself). A commit of another branch, or one that only a pull
/// request's ref (`refs/pull/N/head`) holds, is [`GitError::NotOnRef`].
///
/// Online the ref is read from the remote now; offline from the cached
/// clone's refs ([`GitError::Offline`] when the cache has none).
pub fn prove_on_ref(spec: &GitSpec, commit: &str, options: &GitOptions) -> Result<OnRef, GitError> {
    let commit = commit.to_ascii_lowercase();
    let reference = spec.reference.clone().unwrap_or_else(|| "HEAD".into());
    let not_on = |tip: String| GitError::NotOnRef {
        url: spec.url(),
        reference: reference.clone(),
        commit: commit.clone(),
        tip,
    };
    if let Some(pinned) = spec.reference.as_deref().filter(|r| is_full_sha(r)) {
        return if pinned.eq_ignore_ascii_case(&commit) {
            Ok(OnRef {
                reference,
                tip: commit.clone(),
            })
        } else {
            Err(not_on(pinned.to_ascii_lowercase()))
        };
    }
    if let Some(github) = github_api(spec, options)? {
        let answer = github.resolve(spec.reference.as_deref()).and_then(|tip| {
            let contained = tip == commit || github.contains(&tip, &commit)?;
            Ok((tip, contained))
        });
        match answer {
            Ok((tip, true)) => return Ok(OnRef { reference, tip }),
            Ok((tip, false)) => return Err(not_on(tip)),
            Err(e) if e.allows_clone_fallback() && options.github.clone_fallback => {}
            Err(e) => return Err(e),
        }
    }
    let (cached, tip) = clone_tip(spec, options, || format!("ref `{reference}`"))?;
    let id = fetch::parse_id(&commit)?;
    if fetch::reaches(&cached, tip, id) {
        Ok(OnRef {
            reference,
            tip: tip.to_string(),
        })
    } else {
        Err(not_on(tip.to_string()))
    }
}

/// The asset `asset` of the GitHub release of `tag` of `spec`'s repository
/// (docs/provenance.md#publisher-identity-for-git-sources), through the
/// API at `options.github` with its token. `Ok(None)`: the repository is
/// not on GitHub.
pub fn release_asset(
    spec: &GitSpec,
    tag: &str,
    asset: &str,
    max_bytes: u64,
    options: &GitOptions,
) -> Result<Option<ReleaseAsset>, GitError> {
    let Repo::GitHub { owner, name } = &spec.repo else {
        return Ok(None);
    };
    if options.offline {
        return Err(GitError::Offline {
            url: spec.url(),
            what: format!("the release asset {asset} of tag `{tag}`"),
        });
    }
    let github = github::GitHub::new(owner, name, &options.github)?;
    github.release_asset(tag, asset, max_bytes).map(Some)
}

/// A commit's tree (at the spec's subpath) written into a temporary folder.
/// Dropping it removes the folder.
#[derive(Debug)]
pub struct Checkout {
    /// The subpath's folder: where [`Checkout::discover`] looks.
    pub root: PathBuf,
    /// The commit checked out (full id, lowercase).
    pub commit: String,
    /// Entries not written (links, submodules, unsafe names, oversized
    /// files), relative to `root`.
    pub skipped: Vec<SkippedEntry>,
    /// Things the user should know (a fallback taken); print them on stderr.
    pub warnings: Vec<String>,
    url: String,
    subpath: Option<String>,
    /// Owns `root` through its lock file (`crate::fs::temp`): removed on
    /// drop, and swept by the next run if this process is killed.
    _dir: TempDir,
}

impl Checkout {
    /// The skills in the checkout, plus warnings for links and submodules
    /// standing where skills would be (they are never followed).
    pub fn discover(&self) -> RepoDiscovery {
        let mut discovery = discover_skills(&self.root);
        for entry in &self.skipped {
            let (parent, leaf) = entry.path.rsplit_once('/').unwrap_or(("", &entry.path));
            let skill_like = leaf == "SKILL.md"
                || ["skills", ".agents/skills", ".claude/skills"].contains(&parent);
            if skill_like
                && matches!(
                    entry.reason,
                    SkipReason::Symlink { .. } | SkipReason::Submodule { .. }
                )
            {
                discovery.warnings.push(format!(
                    "`{}` not searched: {}",
                    self.repo_path(&entry.path),
                    entry.reason
                ));
            }
        }
        discovery
    }

    /// The folder of the skill at `rel` (a [`crate::skill::discover::RepoSkill::path`]), ready for
    /// the store to import. Refused when anything below it was skipped: a
    /// skill is installed whole or not at all.
    pub fn skill_dir(&self, rel: &str) -> Result<PathBuf, GitError> {
        let rel = rel.trim_matches('/');
        let inside = |p: &str| rel.is_empty() || p == rel || p.starts_with(&format!("{rel}/"));
        if let Some(entry) = self.skipped.iter().find(|e| inside(&e.path)) {
            return Err(GitError::Refused {
                url: self.url.clone(),
                path: self.repo_path(&entry.path),
                reason: entry.reason.to_string(),
            });
        }
        let mut dir = self.root.clone();
        for segment in rel.split('/').filter(|s| !s.is_empty()) {
            names::check_segment(segment.as_bytes()).map_err(|why| {
                GitError::spec(rel, format!("not a folder of the checkout: {why}"))
            })?;
            dir.push(segment);
        }
        let is_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
        if !is_dir || !dir.join("SKILL.md").is_file() {
            return Err(GitError::SubpathNotFound {
                url: self.url.clone(),
                commit: self.commit.clone(),
                subpath: self.repo_path(rel),
            });
        }
        Ok(dir)
    }

    /// `rel` (relative to `root`) as a path in the repository.
    fn repo_path(&self, rel: &str) -> String {
        discover::join(self.subpath.as_deref().unwrap_or(""), rel)
    }
}

/// Materialises `commit` (a full id, as from [`resolve`] or `skills.lock`) at
/// `spec`'s subpath in a new folder inside `dest_parent`. The tree is exactly
/// that commit's: a server delivering another commit is an integrity error.
pub fn checkout(
    spec: &GitSpec,
    commit: &str,
    dest_parent: &Path,
    options: &GitOptions,
) -> Result<Checkout, GitError> {
    if !is_full_sha(commit) {
        return Err(GitError::spec(
            commit,
            "a checkout needs a full 40-hex commit id",
        ));
    }
    let commit = commit.to_ascii_lowercase();
    let url = spec.url();
    options.check_transport(&url)?;
    let subpath = spec.subpath.as_deref();
    std::fs::create_dir_all(dest_parent).map_err(GitError::io("create the folder", dest_parent))?;
    let dir = TempDir::create(dest_parent, ".skillpm-git-")
        .map_err(GitError::io("create a folder in", dest_parent))?;
    // From here on the folder belongs to `checkout`, which removes it on drop.
    let mut checkout = Checkout {
        root: dir.path().to_owned(),
        commit: commit.clone(),
        skipped: Vec::new(),
        warnings: Vec::new(),
        url: url.clone(),
        subpath: subpath.map(str::to_owned),
        _dir: dir,
    };

    if let Some(github) = github_api(spec, options)? {
        match github.download(&commit, subpath, &checkout.root, options.limits) {
            Ok(skipped) => {
                checkout.skipped = skipped;
                return Ok(checkout);
            }
            Err(e) if e.allows_clone_fallback() && options.github.clone_fallback => {
                checkout
                    .warnings
                    .push(fallback_warning(&e, &clone_url(spec, options)));
                empty_folder(&checkout.root)?;
            }
            Err(e) => return Err(e),
        }
    }

    let remote = clone_url(spec, options);
    let cached = open_cache(options, &remote, || format!("commit {commit}"))?;
    let id = fetch::parse_id(&commit)?;
    fetch::ensure_commit(&cached, &remote, id, options.offline, options.allow_http)?;
    let peeled = fetch::peel_to_commit(&cached, &remote, id)?;
    if peeled != id {
        return Err(GitError::CommitMismatch {
            url: remote,
            expected: commit,
            found: peeled.to_string(),
        });
    }
    checkout.skipped = tree::write_commit_tree(
        &cached,
        &remote,
        id,
        subpath,
        &checkout.root,
        options.limits,
    )?;
    Ok(checkout)
}

/// Where git fetches `spec` from (and the cache key): the URL itself, or
/// for GitHub `<git_url>/<owner>/<repo>.git`.
fn clone_url(spec: &GitSpec, options: &GitOptions) -> String {
    match &spec.repo {
        Repo::GitHub { owner, name } => options.github.clone_url(owner, name),
        Repo::Url(url) => url.clone(),
    }
}

/// The commit `spec`'s ref names in the cached clone (fetched when online),
/// and that clone; `what` names the ref in an offline miss.
fn clone_tip(
    spec: &GitSpec,
    options: &GitOptions,
    what: impl FnOnce() -> String,
) -> Result<(cache::CachedRepo, gix::ObjectId), GitError> {
    let remote = clone_url(spec, options);
    let cached = open_cache(options, &remote, what)?;
    let tip = fetch::resolve_ref(
        &cached,
        &remote,
        spec.reference.as_deref(),
        options.offline,
        options.allow_http,
    )?;
    Ok((cached, tip))
}

/// Opens (or, online, creates) the cache repository for `url`.
fn open_cache(
    options: &GitOptions,
    url: &str,
    what: impl FnOnce() -> String,
) -> Result<cache::CachedRepo, GitError> {
    cache::open_locked(&options.cache_dir, url, !options.offline)?.ok_or_else(|| {
        GitError::Offline {
            url: url.to_owned(),
            what: what(),
        }
    })
}

fn fallback_warning(e: &GitError, url: &str) -> String {
    format!("GitHub fast path failed ({e}); falling back to cloning {url}")
}

fn empty_folder(dir: &Path) -> Result<(), GitError> {
    std::fs::remove_dir_all(dir).map_err(GitError::io("empty", dir))?;
    std::fs::create_dir(dir).map_err(GitError::io("create the folder", dir))
}

impl GitSpec {
    /// A spec from stored parts (a `skills.toml` entry that says it is git,
    /// or `skills.lock`): no file system check, so a vanished local
    /// repository still parses (and `--offline` can use the cache).
    /// `https://github.com/<owner>/<repo>` URLs become [`Repo::GitHub`].
    pub fn new(
        url: &str,
        reference: Option<&str>,
        subpath: Option<&str>,
    ) -> Result<GitSpec, GitError> {
        let parsed = if url.starts_with(spec::GITHUB_WEB) {
            parse_git_spec(url, None, Path::new("/"))?
        } else {
            None
        };
        let repo = parsed.map_or_else(|| Repo::Url(url.to_owned()), |spec| spec.repo);
        GitSpec {
            repo,
            reference: None,
            subpath: None,
        }
        .with_reference(reference)?
        .with_subpath(subpath)
    }

    /// The spec `skills.lock` describes: its `url` and `subpath` (no ref:
    /// the lock's commit pins everything).
    pub fn from_lock(url: &str, subpath: Option<&str>) -> Result<GitSpec, GitError> {
        GitSpec::new(url, None, subpath)
    }
}
