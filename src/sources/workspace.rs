//! What a source kind may use while it works for a project: the printer,
//! the project's folder and manifest, the store, the limits and level of
//! judgement, and the HTTP client (built on first use). Plain borrowed
//! values, so `sources` never names the commands above it
//! (docs/architecture.md, docs/sources.md).

use std::path::Path;

use crate::error::Exit;
use crate::net::fetch::Fetcher;
use crate::printer::Printer;
use crate::project::manifest::Manifest;
use crate::skill::Level;
use crate::store::Store;
use crate::unpack::Limits;

/// One run's view of a project, lent to the source kinds.
pub struct Workspace<'s> {
    pub ui: &'s Printer,
    /// `--offline`: never open a socket.
    pub offline: bool,
    /// `--allow-http`: plain http to hosts other than this machine.
    pub allow_http: bool,
    /// The project's folder (relative sources and lock paths start here).
    pub root: &'s Path,
    pub manifest: &'s Manifest,
    pub store: &'s Store,
    pub limits: &'s Limits,
    /// How strictly skills are judged on the way in.
    pub level: Level,
    /// This run judges all it fetches (a cold cache): the audit's warm-up
    /// (`crate::audit::warm_up`, once per process) starts as the source is
    /// opened, or, for a kind that [`asks a server first`](super::Kind::asks_a_server_first),
    /// as it asks (docs/performance.md#what-the-measurements-decided).
    pub audit_ahead: bool,
    /// The run's HTTP client, kept by its owner across workspaces.
    pub fetcher: &'s mut Option<Fetcher>,
}

impl Workspace<'_> {
    /// The HTTP client, created on first use (runs served from the store
    /// never build one).
    pub fn fetcher(&mut self) -> anyhow::Result<&Fetcher> {
        let fetcher = match self.fetcher.take() {
            Some(fetcher) => fetcher,
            None => fetcher_within(self.ui, self.offline, self.allow_http, self.limits)?,
        };
        Ok(self.fetcher.insert(fetcher))
    }

    /// How a URL is written into the lock: a `file://` URL near the project
    /// (sharing a folder below `/` with it) becomes a relative path, so the
    /// lock reads the same on every clone.
    /// A folder URL keeps its trailing `/` (a v0.1 skill's file folder).
    pub fn lock_url(&self, url: &url::Url) -> String {
        if url.scheme() == "file"
            && let Ok(path) = url.to_file_path()
            && let Some(rel) = relative_path(self.root, &path)
        {
            if url.path().ends_with('/') && !rel.ends_with('/') {
                return format!("{rel}/");
            }
            return rel;
        }
        url.to_string()
    }

    /// The inverse of [`Workspace::lock_url`].
    pub fn resolve_lock_url(&self, text: &str) -> anyhow::Result<url::Url> {
        if let Ok(url) = url::Url::parse(text) {
            return Ok(url);
        }
        url::Url::from_file_path(self.root.join(text)).or_else(|()| {
            fail(
                Exit::Usage,
                format!(
                    "skills.lock has `{text}`, which is neither a URL nor a path in the project"
                ),
            )
        })
    }
}

/// The HTTP client of one invocation (settings from the environment).
pub fn fetcher(ui: &Printer, offline: bool, allow_http: bool) -> anyhow::Result<Fetcher> {
    client(ui, offline, allow_http, None)
}

/// The HTTP client for a project: its `[limits]` also cap what is
/// downloaded, so an artifact larger than a skill may be is refused before
/// its bytes fill the disk, and a raised limit is not undercut by the
/// fetcher's default.
pub fn fetcher_within(
    ui: &Printer,
    offline: bool,
    allow_http: bool,
    limits: &Limits,
) -> anyhow::Result<Fetcher> {
    client(ui, offline, allow_http, Some(limits.max_skill_size))
}

fn client(
    ui: &Printer,
    offline: bool,
    allow_http: bool,
    max: Option<u64>,
) -> anyhow::Result<Fetcher> {
    let mut config = crate::net::fetch::FetchConfig::from_env()?;
    if let Some(max) = max {
        config.max_artifact_bytes = max;
    }
    config.allow_http = allow_http;
    let fetcher = Fetcher::new(config, crate::net::fetch::CacheDirs::from_env()?, offline)?;
    fetcher.on_retry(ui.retry_notices());
    // The process's client (GitHub, MCP, git) says its retries the same way.
    crate::net::Http::shared().on_retry(ui.retry_notices());
    Ok(fetcher)
}

/// One warning per source whose `token-env` in skills.toml names a
/// variable the user never bound to that source's origin, or whose host
/// has no `SKILLPM_TOKEN_…` variable while the one earlier versions read for
/// it is set: no token is sent to it (docs/network.md).
pub fn warn_unbound_tokens(ui: &Printer, manifest: &Manifest) {
    let host_vars_set =
        || std::env::vars_os().any(|(k, _)| k.to_string_lossy().starts_with("SKILLPM_TOKEN_"));
    if !manifest.sources().iter().any(|d| d.token_env.is_some()) && !host_vars_set() {
        return;
    }
    let user = crate::net::UserTokens::load();
    for decl in manifest.sources() {
        if let crate::net::TokenChoice::Refused { reason, .. } =
            super::tokens::token_choice(decl, &user)
        {
            ui.warn(format!("source `{}`: {reason}", decl.name));
        }
    }
}

pub(crate) use crate::error::fail;

/// `to` relative to `from` with `/` separators (`..` allowed), when both are
/// absolute and share at least one folder below the root.
fn relative_path(from: &Path, to: &Path) -> Option<String> {
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
