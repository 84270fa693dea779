//! Everything that can go wrong with a git source, each with its exit code.

use std::path::PathBuf;

use crate::error::{Classify, Exit};

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The source text itself is wrong (exit 2).
    #[error("`{input}` is not a usable git source: {message}")]
    Spec { input: String, message: String },

    /// The repository could not be reached, or the server failed (exit 4).
    #[error(
        "cannot fetch from {url}: {message}\n  check the URL, your network and your git credentials (credential helper, SSH agent)"
    )]
    Network {
        url: String,
        /// Why, in plain words (`crate::net::Why`).
        message: String,
        /// The library's own account, shown with `--verbose` only.
        #[source]
        detail: crate::net::Detail,
    },

    /// Plain http to a host other than this machine, not allowed (exit 2).
    #[error(transparent)]
    PlainHttp(crate::net::NetError),

    /// A remote URL carrying credentials, shown without them (exit 2).
    #[error(transparent)]
    Credentials(#[from] crate::net::CredentialsInUrl),

    /// The GitHub API or archive server answered with an error (exit 4).
    #[error("GitHub at {url} answered {status}: {message}")]
    GitHub {
        url: String,
        status: u16,
        message: String,
        /// A transient refusal (rate limit, server error): cloning instead
        /// may still work.
        transient: bool,
    },

    /// No branch, tag or commit of that name exists upstream (exit 8).
    #[error("{url} has no branch, tag or commit `{reference}`\n  {hint}")]
    UnknownRef {
        url: String,
        reference: String,
        /// What to do: where to list the refs, or which token to set.
        hint: String,
    },

    /// A pinned commit is not (or no longer) in the repository (exit 8).
    #[error(
        "commit {commit} is not in {url} (was it force-pushed away?)\n  run `skillpm update` to move to a commit that exists"
    )]
    CommitNotFound { url: String, commit: String },

    /// The folder asked for is not in the tree at that commit (exit 8).
    #[error("{url} at {commit} has no folder `{subpath}`")]
    SubpathNotFound {
        url: String,
        commit: String,
        subpath: String,
    },

    /// What arrived is not the commit that was asked for (exit 3).
    #[error(
        "{url} delivered commit {found} where {expected} was pinned; refusing it\n  this is an integrity failure: the server or a proxy is not serving the pinned content"
    )]
    CommitMismatch {
        url: String,
        expected: String,
        found: String,
    },

    /// A locked commit that the declared ref does not reach (exit 3): a
    /// commit of another branch, or one only a pull request's ref holds.
    #[error(
        "commit {commit} is not on `{reference}` of {url} (which is at {tip} and does not contain it)"
    )]
    NotOnRef {
        url: String,
        reference: String,
        commit: String,
        tip: String,
    },

    /// `--offline` and the cache lacks what is needed (exit 6).
    #[error(
        "--offline: {what} of {url} is not in the git cache\n  run once without --offline to fetch it"
    )]
    Offline { url: String, what: String },

    /// Content skillpm refuses to install (exit 5). `path` is the entry,
    /// relative to the repository root.
    #[error("refusing `{path}` in {url}: {reason}")]
    Refused {
        url: String,
        path: String,
        reason: String,
    },

    /// The tree at the commit is too big to check out (exit 5).
    #[error(
        "{url}: {message}\n  name the skill's folder as a subpath (`github:owner/repo/<folder>` or --path) to check out less"
    )]
    TooLarge { url: String, message: String },

    /// A GitHub archive that cannot be read as a tar.gz (exit 5).
    #[error("the archive {url} is malformed: {message}")]
    BadArchive { url: String, message: String },

    /// The local git cache failed (exit 1).
    #[error("git cache {path}: {message}\n  delete that folder to start the cache afresh")]
    Cache { path: PathBuf, message: String },

    /// The local file system failed (exit 1).
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

crate::classified!(GitError);
impl Classify for GitError {
    fn exit(&self) -> Exit {
        match self {
            GitError::Spec { .. } => Exit::Usage,
            GitError::Network { .. } | GitError::GitHub { .. } => Exit::Network,
            GitError::PlainHttp(e) => e.exit(),
            GitError::Credentials(e) => e.exit(),
            GitError::UnknownRef { .. }
            | GitError::CommitNotFound { .. }
            | GitError::SubpathNotFound { .. } => Exit::NotFound,
            GitError::CommitMismatch { .. } | GitError::NotOnRef { .. } => Exit::Integrity,
            GitError::Offline { .. } => Exit::Locked,
            GitError::Refused { .. } | GitError::TooLarge { .. } | GitError::BadArchive { .. } => {
                Exit::Unsafe
            }
            GitError::Cache { .. } | GitError::Io { .. } => Exit::Other,
        }
    }
}

impl GitError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> GitError {
        let path = path.into();
        move |source| GitError::Io {
            action,
            path,
            source,
        }
    }

    /// A network failure of `url`, in plain words (`crate::net::Why`), the
    /// library's own chain kept for `--verbose`.
    pub(crate) fn network(url: &str, error: &(dyn std::error::Error + 'static)) -> GitError {
        let why = crate::net::Why::of(error);
        GitError::Network {
            url: url.to_owned(),
            message: why.to_string(),
            detail: crate::net::Detail(crate::net::chain_text(error)),
        }
    }

    /// True when the GitHub fast path failed in a way cloning may not:
    /// the server was unreachable, rate-limited us or failed itself.
    pub(crate) fn allows_clone_fallback(&self) -> bool {
        matches!(
            self,
            GitError::Network { .. }
                | GitError::GitHub {
                    transient: true,
                    ..
                }
        )
    }

    /// The source text `input` is not usable, and why (exit 2).
    pub(crate) fn spec(input: &str, message: impl Into<String>) -> GitError {
        GitError::Spec {
            input: input.to_owned(),
            message: message.into(),
        }
    }

    pub(crate) fn unknown_ref(url: &str, reference: &str) -> GitError {
        GitError::UnknownRef {
            url: url.to_owned(),
            reference: reference.to_owned(),
            hint: format!("list them with `git ls-remote {url}`"),
        }
    }
}
