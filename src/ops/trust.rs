//! `skillpm trust update [FILE]`: replace the Sigstore trusted root in use
//! (docs/provenance.md#refreshing-the-trusted-root), from a file a person
//! hands over or through Sigstore's TUF repository.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use url::Url;

use super::Context;
use crate::net::fetch::{Exchange, FetchError, Fetcher, Verb};
use crate::trust::sigstore::tuf::{self, Mirror, Trusted};
use crate::trust::sigstore::{SigstoreError, TrustedRoot};
use crate::view::trust::{TrustUpdateReport, TufReport};

/// The environment variable that names another TUF mirror (a private
/// Sigstore's, or a test's); the report always says which mirror was used
/// and that the variable chose it.
pub const MIRROR_ENV: &str = "SKILLPM_SIGSTORE_TUF_URL";

fn state_folder() -> anyhow::Result<PathBuf> {
    crate::cache::state_root()
        .context("no state folder to keep the trusted root in (set SKILLPM_STATE_DIR)")
}

/// Reads `file` as a trusted root, refuses one that drops a key of the root
/// in use, and keeps it in the state folder.
pub fn update(ctx: &Context, file: &Path) -> anyhow::Result<TrustUpdateReport> {
    let path = ctx.cwd.join(file);
    let shown = path.display().to_string();
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {shown}"))?;
    let new = TrustedRoot::parse(&shown, &bytes)?;
    let state = state_folder()?;
    let current = TrustedRoot::load(Some(&state))?;
    new.keeps(&current)
        .map_err(|reason| SigstoreError::Refresh {
            path: shown.clone(),
            reason,
        })?;
    keep_root(&state, &new, &bytes, None)
}

/// Writes the trusted root `bytes` (parsed as `new`) into the state folder
/// when it differs from the one kept there.
fn keep_root(
    state: &Path,
    new: &TrustedRoot,
    bytes: &[u8],
    tuf: Option<TufReport>,
) -> anyhow::Result<TrustUpdateReport> {
    let kept_at = TrustedRoot::refreshed_path(state);
    let changed = std::fs::read(&kept_at).ok().as_deref() != Some(bytes);
    if changed {
        std::fs::create_dir_all(state)
            .with_context(|| format!("cannot create {}", state.display()))?;
        crate::fs::write_atomic(&kept_at, bytes)
            .with_context(|| format!("cannot write {}", kept_at.display()))?;
    }
    let (authorities, logs) = new.counts();
    Ok(TrustUpdateReport {
        kept_at,
        authorities,
        logs,
        changed,
        tuf,
    })
}

/// Fetches Sigstore's `trusted_root.json` through its TUF repository at
/// `mirror` (else `$SKILLPM_SIGSTORE_TUF_URL`, else Sigstore's CDN), checks
/// the whole chain from the TUF root this machine trusts, and keeps the
/// metadata and the new trusted root in the state folder. Nothing is
/// written unless every check passed.
pub fn update_from_tuf(ctx: &Context, mirror: Option<&str>) -> anyhow::Result<TrustUpdateReport> {
    let env = std::env::var(MIRROR_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty());
    let (text, chosen_by) = match (mirror, env) {
        (Some(m), _) => (m.to_owned(), Some("--mirror".to_owned())),
        (None, Some(e)) => (e, Some(format!("${MIRROR_ENV}"))),
        (None, None) => (tuf::DEFAULT_MIRROR.to_owned(), None),
    };
    let base = mirror_url(&text, chosen_by.as_deref())?;
    let from = chosen_by
        .as_deref()
        .map(|c| format!(" (from {c})"))
        .unwrap_or_default();
    crate::net::check_plain_http(&base, ctx.allow_http)
        .with_context(|| format!("the TUF mirror {base}{from}"))?;
    let state = state_folder()?;
    let trusted = Trusted::load(&state)?;
    let fetcher = crate::sources::workspace::fetcher(&ctx.ui, ctx.offline, ctx.allow_http)?;
    let mut http = HttpMirror {
        fetcher: &fetcher,
        base: base.clone(),
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let refreshed = trusted.refresh(&mut http, now)?;
    let shown = format!("{}targets/{}", base, tuf::TARGET);
    let new = TrustedRoot::parse(&shown, &refreshed.target)?;
    refreshed
        .keep(&state)
        .with_context(|| format!("cannot write {}", state.join(tuf::STATE_DIR).display()))?;
    let report = TufReport {
        mirror: base.to_string(),
        mirror_set_by: chosen_by,
        versions: refreshed.versions,
    };
    keep_root(&state, &new, &refreshed.target, Some(report))
}

/// The mirror's base URL (ending in `/`), with no credentials in it.
fn mirror_url(text: &str, chosen_by: Option<&str>) -> anyhow::Result<Url> {
    let text = text.trim();
    crate::net::refuse_credentials(text)?;
    let from = chosen_by
        .map(|c| format!(" (from {c})"))
        .unwrap_or_default();
    let mut url = Url::parse(text)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
        .with_context(|| {
            format!(
                "{text}{from} is not an http(s) URL of a TUF repository (e.g. {})",
                tuf::DEFAULT_MIRROR
            )
        })?;
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    Ok(url)
}

/// The TUF mirror over the one HTTP client (redirect, plain-http, timeout
/// and size rules of docs/network.md).
struct HttpMirror<'a> {
    fetcher: &'a Fetcher,
    base: Url,
}

impl Mirror for HttpMirror<'_> {
    fn fetch(&mut self, path: &str, max: u64) -> anyhow::Result<Option<Vec<u8>>> {
        let url = self.base.join(path)?;
        let reply = self
            .fetcher
            .exchange(&Exchange::new(Verb::Get, url.clone(), max))?;
        match reply.status {
            200 => Ok(Some(reply.body)),
            // Object stores answer 403 for a file that is not there
            // (python-tuf reads both as "no such file").
            403 | 404 => Ok(None),
            status => Err(FetchError::Status {
                url: url.to_string(),
                status,
                hint: String::new(),
            }
            .into()),
        }
    }
}
