//! `skillpm source add | list | remove | rotate-key`.

use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

use anyhow::Context as _;
use serde::Serialize;

use super::{Context, Report};
use crate::error::{Exit, OpError};
use crate::fetch::Fetcher;
use crate::index::IndexFormat;
use crate::ops::fail;
use crate::project::Project;
use crate::project::manifest::{Manifest, SourceDecl, is_env_var_name};
use crate::source::{self, Source, SourceSpec};
use crate::trust::{PinnedKey, Rotation, Signer, verify_rotation};

/// The fetcher for this invocation (settings from the environment).
pub(crate) fn fetcher(ctx: &Context) -> anyhow::Result<Fetcher> {
    let mut config = crate::fetch::FetchConfig::from_env()?;
    config.allow_http = ctx.allow_http;
    let fetcher = Fetcher::new(config, crate::fetch::CacheDirs::from_env()?, ctx.offline)?;
    fetcher.on_retry(ctx.ui.retry_notices());
    Ok(fetcher)
}

/// The HTTP client for a project: its `[limits]` also cap what is
/// downloaded, so an artifact larger than a skill may be is refused before
/// its bytes fill the disk, and a raised limit is not undercut by the
/// fetcher's default.
pub(crate) fn fetcher_within(
    ctx: &Context,
    limits: &crate::unpack::Limits,
) -> anyhow::Result<Fetcher> {
    let mut config = crate::fetch::FetchConfig::from_env()?;
    config.max_artifact_bytes = limits.max_skill_size;
    config.allow_http = ctx.allow_http;
    let fetcher = Fetcher::new(config, crate::fetch::CacheDirs::from_env()?, ctx.offline)?;
    fetcher.on_retry(ctx.ui.retry_notices());
    Ok(fetcher)
}

/// The project and its manifest.
pub(crate) fn load_project(ctx: &Context) -> anyhow::Result<(Project, Manifest)> {
    let project = super::open_project(ctx, &crate::roots::Env::from_process())?;
    let manifest = project.load_manifest()?;
    warn_unbound_tokens(ctx, &manifest);
    Ok((project, manifest))
}

/// One warning per source whose `token-env` in skills.toml names a
/// variable the user never bound to that source's origin: no token is sent
/// to it (docs/network.md).
pub(crate) fn warn_unbound_tokens(ctx: &Context, manifest: &Manifest) {
    if !manifest.sources().iter().any(|d| d.token_env.is_some()) {
        return;
    }
    let user = crate::net::UserTokens::load();
    for decl in manifest.sources() {
        if let crate::net::TokenChoice::Refused { reason, .. } = source::token_choice(decl, &user) {
            ctx.ui.warn(format!("source `{}`: {reason}", decl.name));
        }
    }
}

#[derive(Debug, Clone)]
pub struct AddOptions {
    pub name: String,
    pub url: String,
    pub keys: Vec<String>,
    pub token_env: Option<String>,
    /// A cosign public key file (PEM), for OCI sources.
    pub cosign_key: Option<std::path::PathBuf>,
}

/// What probing a source found.
#[derive(Debug, Serialize)]
pub struct Probe {
    pub index_url: String,
    pub index_format: IndexFormat,
    pub skills: usize,
    /// Entries skipped or refused (see `search` for details).
    pub problems: usize,
    pub signer: Option<Signer>,
    /// Unsigned sources only: whether `index.json.minisig` exists (so a key could be pinned).
    pub signature_published: Option<bool>,
}

/// `--json`: `{"name", "url", "manifest", "probe": null | {"index_url", "index_format",
/// "skills", "problems", "signer": null | {"key", "key_id", "version", "expires"},
/// "signature_published": null | bool}, "commit": null | "<sha>"}`.
#[derive(Debug, Serialize)]
pub struct AddReport {
    pub name: String,
    pub url: String,
    pub manifest: std::path::PathBuf,
    /// `null` under --offline (nothing was checked) and for git sources.
    pub probe: Option<Probe>,
    /// Git sources: the commit the ref resolves to now (`null` under --offline).
    pub commit: Option<String>,
}

impl Report for AddReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "Added source `{}` ({})", self.name, self.url)?;
        if let Some(commit) = &self.commit {
            return writeln!(out, "  git repository, now at commit {commit}");
        }
        match &self.probe {
            None => writeln!(out, "  not probed (--offline)"),
            Some(p) => {
                writeln!(
                    out,
                    "  index: {} (format {}, {} skill{})",
                    p.index_url,
                    p.index_format.as_str(),
                    p.skills,
                    super::plural(p.skills)
                )?;
                if p.problems > 0 {
                    writeln!(
                        out,
                        "  {} entries skipped or refused (see `skillpm search`)",
                        p.problems
                    )?;
                }
                match (&p.signer, p.signature_published) {
                    (Some(s), _) => {
                        writeln!(out, "  signed by key {} (version {})", s.key_id, s.version)
                    }
                    (None, Some(true)) => writeln!(
                        out,
                        "  unsigned use: the registry publishes a signature; pin its key with --key to require it"
                    ),
                    _ => writeln!(out, "  unsigned"),
                }
            }
        }
    }
}

/// Declares a source. The name, keys and token variable are checked first;
/// then (unless offline) the source is resolved exactly as installs will
/// resolve it, signature included; only then is skills.toml written.
pub fn add(ctx: &Context, opts: &AddOptions) -> anyhow::Result<AddReport> {
    let (project, mut manifest) = load_project(ctx)?;
    PinnedKey::parse_all(&opts.keys)?;
    if let Some(var) = &opts.token_env
        && !is_env_var_name(var)
    {
        return fail(
            Exit::Usage,
            format!(
                "--token-env `{var}` is not an environment variable name (letters, digits, `_`)"
            ),
        );
    }
    // The token variable is the user's binding, kept in the user's own
    // config, never in skills.toml (docs/network.md): a project file cannot
    // send anyone's secrets anywhere.
    let decl = SourceDecl {
        name: opts.name.clone(),
        url: manifest_url(&opts.url, &ctx.cwd, &project.root)?,
        keys: opts.keys.clone(),
        token_env: None,
        path: None,
        cosign_key: cosign_key(ctx, opts)?,
    };
    let token_url = match &opts.token_env {
        Some(_) => Some(source::token_url(&decl.url).ok_or_else(|| {
            OpError::new(
                Exit::Usage,
                format!(
                    "--token-env: `{}` has no web origin a token could be sent to (tokens go to http(s), github: and mcp+https sources)",
                    decl.url
                ),
            )
        })?),
        None => None,
    };
    if let Ok(spec) = SourceSpec::parse(&decl.url, &project.root)
        && let Some(path) = spec.url().and_then(|u| u.to_file_path().ok())
        && !path.exists()
    {
        return fail(
            Exit::NotFound,
            format!(
                "{} does not exist; check the path (a source is a folder of skills, a registry folder, or an index.json)",
                path.display()
            ),
        );
    }
    let mut user = crate::net::UserTokens::load();
    if let (Some(url), Some(var)) = (&token_url, &opts.token_env) {
        let origin = url.origin().ascii_serialization();
        user.tokens.retain(|t| t.origin != origin);
        user.tokens.push(crate::net::TokenBinding {
            origin,
            env: var.clone(),
        });
    }
    manifest.add_source(&decl)?;
    let (probe, commit) = if decl.url.starts_with(crate::sources::oci::SCHEME) {
        if !opts.keys.is_empty() {
            return fail(
                Exit::Usage,
                "--key pins a minisign index key; an OCI source pins a cosign key with --cosign-key FILE",
            );
        }
        if !ctx.offline {
            super::lifecycle::oci_source::probe(ctx, &decl, opts.token_env.as_deref())
                .with_context(|| format!("source `{}` was not added", decl.name))?;
        }
        (None, None)
    } else {
        match super::lifecycle::git_spec_for(&decl.url, &project.root)? {
            Some(spec) => (None, resolve_git(ctx, opts, &decl, spec)?),
            None if ctx.offline => (None, None),
            None => (Some(probe(ctx, &decl, &project.root, &user)?), None),
        }
    };
    if let (Some(url), Some(var)) = (&token_url, &opts.token_env) {
        let path = crate::net::UserTokens::bind(url, var).with_context(
            || "cannot record the token binding in your config (set SKILLPM_CONFIG_DIR)",
        )?;
        ctx.ui.info(format!(
            "bound ${var} to {} in {} (sent there only)",
            url.origin().ascii_serialization(),
            path.display()
        ));
    }
    manifest.save()?;
    Ok(AddReport {
        name: decl.name,
        url: decl.url,
        manifest: manifest.path().to_owned(),
        probe,
        commit,
    })
}

/// `--cosign-key FILE` read into what skills.toml keeps; only for OCI sources.
fn cosign_key(ctx: &Context, opts: &AddOptions) -> anyhow::Result<Option<String>> {
    let Some(path) = &opts.cosign_key else {
        return Ok(None);
    };
    if !opts.url.trim().starts_with(crate::sources::oci::SCHEME) {
        return fail(
            Exit::Usage,
            format!(
                "--cosign-key applies to OCI sources (oci://…), not to `{}`",
                opts.url
            ),
        );
    }
    let path = ctx.cwd.join(path);
    let bad = |reason: String| crate::sources::oci::OciError::CosignKey {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let key = crate::sources::oci::cosign::CosignKey::from_pem(&text).map_err(bad)?;
    Ok(Some(key.to_base64()))
}

/// Resolves the new index source exactly as installs will, signature included.
fn probe(
    ctx: &Context,
    decl: &SourceDecl,
    root: &Path,
    user: &crate::net::UserTokens,
) -> anyhow::Result<Probe> {
    let source = Source::from_decl_with(decl, root, user)?;
    let fetcher = fetcher(ctx)?;
    ctx.ui.status(
        "Probing",
        source.spec.url().map(|u| u.as_str()).unwrap_or(&decl.url),
    );
    let resolved = source::resolve(&fetcher, &source, SystemTime::now())
        .with_context(|| format!("source `{}` was not added", decl.name))?;
    super::search::warn_problems(ctx, &resolved);
    let signature_published = resolved.signer.is_none().then(|| {
        let url = source::signature_url(&resolved.index.url);
        fetcher.get(&url, source.auth.as_ref(), 64 * 1024).is_ok()
    });
    Ok(Probe {
        index_url: resolved.index_url.to_string(),
        index_format: resolved.index.format,
        skills: resolved.index.entries.len(),
        problems: resolved.index.problems.len(),
        signer: resolved.signer,
        signature_published,
    })
}

/// `source add` for a git repository: keys do not apply (a commit pins the
/// content), and the probe is resolving its ref (`None` under --offline).
fn resolve_git(
    ctx: &Context,
    opts: &AddOptions,
    decl: &SourceDecl,
    spec: crate::git::GitSpec,
) -> anyhow::Result<Option<String>> {
    if !opts.keys.is_empty() {
        return fail(
            Exit::Usage,
            format!(
                "--key pins the signing key of an index; `{}` is a git repository, pinned by commit in skills.lock",
                decl.url
            ),
        );
    }
    if ctx.offline {
        return Ok(None);
    }
    let options = crate::git::GitOptions::new(false, opts.token_env.as_deref())?
        .allowing_http(ctx.allow_http);
    ctx.ui.status("Resolving", spec.to_string());
    let resolved = crate::git::resolve(&spec, &options)
        .with_context(|| format!("source `{}` was not added", decl.name))?;
    for warning in &resolved.warnings {
        ctx.ui.warn(warning);
    }
    Ok(Some(resolved.commit))
}

/// How a source's location is written into skills.toml: URLs as given; a
/// path relative to the project root when it lies inside the project (so the
/// file works on every clone), absolute otherwise.
pub(crate) fn manifest_url(text: &str, cwd: &Path, project_root: &Path) -> anyhow::Result<String> {
    let spec = SourceSpec::parse(text, cwd)?;
    let is_plain_path = !text.contains("://") && !matches!(spec, SourceSpec::Git(_));
    if !is_plain_path {
        return Ok(text.trim().to_owned());
    }
    let absolute = cwd.join(text.trim());
    let normalized = normalize_lexically(&absolute);
    match normalized.strip_prefix(project_root) {
        Ok(rel) if rel.as_os_str().is_empty() => Ok(".".into()),
        Ok(rel) => Ok(rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")),
        Err(_) => Ok(normalized.to_string_lossy().into_owned()),
    }
}

/// Removes `.` and resolves `..` without touching the file system (the path
/// may not exist yet, and symlinks are irrelevant to how it is written down).
fn normalize_lexically(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[derive(Debug, Serialize)]
pub struct KeyRow {
    pub key: String,
    pub key_id: String,
}

#[derive(Debug, Serialize)]
pub struct SourceRow {
    pub name: String,
    pub url: String,
    pub keys: Vec<KeyRow>,
    /// The variable whose token is sent to this source: the one the user
    /// bound, or the host's own (docs/network.md); never just what
    /// skills.toml names.
    pub token_env: Option<String>,
}

/// `--json`: `{"sources": [{"name", "url", "keys": [{"key", "key_id"}], "token_env": null | "VAR"}]}`
/// (`token_env`: the variable whose token would be sent, by the user's binding).
#[derive(Debug, Serialize)]
pub struct ListReport {
    pub sources: Vec<SourceRow>,
}

impl Report for ListReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.sources.is_empty() {
            return writeln!(
                out,
                "No sources; add one with `skillpm source add <name> <url>`."
            );
        }
        for s in &self.sources {
            writeln!(out, "{}  {}", s.name, s.url)?;
            for k in &s.keys {
                writeln!(out, "    key {} ({})", k.key_id, k.key)?;
            }
            if let Some(var) = &s.token_env {
                writeln!(out, "    token from ${var} (sent to this origin only)")?;
            }
        }
        Ok(())
    }
}

pub fn list(ctx: &Context) -> anyhow::Result<ListReport> {
    let (_, manifest) = load_project(ctx)?;
    let sources = manifest
        .sources()
        .iter()
        .map(|s| {
            let keys = s.keys.iter().map(|k| KeyRow {
                key: k.clone(),
                key_id: PinnedKey::parse(k)
                    .map(|p| p.id().to_string())
                    .unwrap_or_default(),
            });
            SourceRow {
                name: s.name.clone(),
                url: s.url.clone(),
                keys: keys.collect(),
                token_env: source::bound_token_env(s),
            }
        })
        .collect();
    Ok(ListReport { sources })
}

/// `--json`: `{"removed": "<name>", "url": "<its url>"}`.
#[derive(Debug, Serialize)]
pub struct RemoveReport {
    pub removed: String,
    pub url: String,
}

impl Report for RemoveReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "Removed source `{}` ({})", self.removed, self.url)
    }
}

/// Removes a source no skill uses.
pub fn remove(ctx: &Context, name: &str) -> anyhow::Result<RemoveReport> {
    let (_, mut manifest) = load_project(ctx)?;
    manifest.require_source(name)?;
    let users: Vec<&str> = manifest
        .skills()
        .iter()
        .filter(|(_, d)| d.source == name)
        .map(|(n, _)| n.as_str())
        .collect();
    if !users.is_empty() {
        return fail(
            Exit::Other,
            format!(
                "source `{name}` is still used by {}; remove those skills first (`skillpm remove {}`)",
                users.join(", "),
                users.join(" ")
            ),
        );
    }
    let removed = manifest.remove_source(name)?;
    manifest.save()?;
    Ok(RemoveReport {
        removed: removed.name,
        url: removed.url,
    })
}

#[derive(Debug, Clone)]
pub struct RotateOptions {
    pub name: String,
    pub new_key: String,
    pub signature: std::path::PathBuf,
}

/// `--json`: `{"source", "old_key", "old_key_id", "new_key", "new_key_id"}`.
#[derive(Debug, Serialize)]
pub struct RotateReport {
    pub source: String,
    #[serde(flatten)]
    pub rotation: Rotation,
}

impl Report for RotateReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "Rotated the key of `{}`: {} -> {} (the new key is signed by the old one)",
            self.source, self.rotation.old_key_id, self.rotation.new_key_id
        )
    }
}

/// Replaces the pinned key that signed `new_key` with `new_key`.
pub fn rotate_key(ctx: &Context, opts: &RotateOptions) -> anyhow::Result<RotateReport> {
    let (_, mut manifest) = load_project(ctx)?;
    let decl = manifest.require_source(&opts.name)?.clone();
    let signature = std::fs::read_to_string(&opts.signature).map_err(|e| {
        OpError::new(
            Exit::Usage,
            format!(
                "cannot read the signature file {}: {e}",
                opts.signature.display()
            ),
        )
    })?;
    let pinned = PinnedKey::parse_all(&decl.keys)?;
    let rotation = verify_rotation(&pinned, &opts.new_key, &signature)?;
    let mut keys: Vec<String> = Vec::with_capacity(decl.keys.len());
    for key in &decl.keys {
        let replacement = if key.trim() == rotation.old_key {
            &rotation.new_key
        } else {
            key
        };
        if !keys.contains(replacement) {
            keys.push(replacement.clone());
        }
    }
    manifest.set_source_keys(&opts.name, &keys)?;
    manifest.save()?;
    Ok(RotateReport {
        source: opts.name.clone(),
        rotation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_project_are_stored_relative() {
        let root = Path::new("/p");
        assert_eq!(
            manifest_url("reg", Path::new("/p/sub"), root).unwrap(),
            "sub/reg"
        );
        assert_eq!(
            manifest_url("../reg", Path::new("/p/sub"), root).unwrap(),
            "reg"
        );
        assert_eq!(manifest_url("./", Path::new("/p"), root).unwrap(), ".");
        assert_eq!(manifest_url("../x", Path::new("/p"), root).unwrap(), "/x");
        assert_eq!(
            manifest_url("/srv/reg", Path::new("/p"), root).unwrap(),
            "/srv/reg"
        );
        assert_eq!(
            manifest_url("https://h.example/x", Path::new("/p"), root).unwrap(),
            "https://h.example/x"
        );
    }
}
