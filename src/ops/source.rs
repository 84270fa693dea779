//! `skillpm source add | list | remove | rotate-key`.

use std::io::Write;

use anyhow::Context as _;
use serde::Serialize;

use super::source_decl;
use super::{Context, Report};
use crate::error::{Exit, OpError};
use crate::ops::fail;
use crate::project::Project;
use crate::project::manifest::{Manifest, SourceDecl, is_env_var_name};
use crate::sources::location::manifest_url;
use crate::sources::oci;
use crate::sources::tokens::bound_token_env;
use crate::trust::{PinnedKey, Rotation};

/// The project and its manifest.
pub(crate) fn load_project(ctx: &Context) -> anyhow::Result<(Project, Manifest)> {
    let project = super::open_project(ctx, &crate::agents::roots::Env::from_process())?;
    let manifest = project.load_manifest()?;
    crate::sources::workspace::warn_unbound_tokens(&ctx.ui, &manifest);
    Ok((project, manifest))
}

#[derive(Debug, Clone)]
pub struct SourceAddOptions {
    pub name: String,
    pub url: String,
    pub keys: Vec<String>,
    pub token_env: Option<String>,
    /// A cosign public key file (PEM), for OCI sources.
    pub cosign_key: Option<std::path::PathBuf>,
    /// The Sigstore publisher every artifact must be attested by.
    pub identity: Option<String>,
    pub issuer: Option<String>,
}

pub use crate::sources::IndexProbe;

/// `--json`: `{"name", "url", "manifest", "probe": null | {"index_url", "index_format",
/// "skills", "problems", "signer": null | {"key", "key_id", "version", "expires"},
/// "signature_published": null | bool}, "commit": null | "<sha>"}`.
#[derive(Debug, Serialize)]
pub struct SourceAddReport {
    pub name: String,
    pub url: String,
    pub manifest: std::path::PathBuf,
    /// `null` under --offline (nothing was checked) and for git sources.
    pub probe: Option<IndexProbe>,
    /// Git sources: the commit the ref resolves to now (`null` under --offline).
    pub commit: Option<String>,
}

impl Report for SourceAddReport {
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
pub fn add(ctx: &Context, opts: &SourceAddOptions) -> anyhow::Result<SourceAddReport> {
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
        cosign_key: oci::kind::cosign_key(&opts.url, opts.cosign_key.as_deref(), &ctx.cwd)?,
        identity: opts.identity.clone(),
        issuer: opts.issuer.clone(),
        ..Default::default()
    };
    let binding = source_decl::token_binding(&decl, opts.token_env.as_deref())?;
    source_decl::check_exists(&decl, &project.root)?;
    let mut user = crate::net::UserTokens::load();
    if let Some((url, var)) = &binding {
        source_decl::bind_token(&mut user, url, var);
    }
    manifest.add_source(&decl)?;
    let fetcher = match ctx.offline {
        true => None,
        false => Some(crate::sources::workspace::fetcher(
            &ctx.ui,
            false,
            ctx.allow_http,
        )?),
    };
    let net = crate::sources::Net {
        ui: &ctx.ui,
        offline: ctx.offline,
        allow_http: ctx.allow_http,
        fetcher: fetcher.as_ref(),
    };
    let new = crate::sources::NewSource {
        decl: &decl,
        root: &project.root,
        user: &user,
        token_env: opts.token_env.as_deref(),
    };
    let probed = crate::sources::load::probe(&net, &new)?;
    if let Some((url, var)) = &binding {
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
    Ok(SourceAddReport {
        name: decl.name,
        url: decl.url,
        manifest: manifest.path().to_owned(),
        probe: probed.index,
        commit: probed.commit,
    })
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
pub struct SourceListReport {
    pub sources: Vec<SourceRow>,
}

impl Report for SourceListReport {
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

pub fn list(ctx: &Context) -> anyhow::Result<SourceListReport> {
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
                token_env: bound_token_env(s),
            }
        })
        .collect();
    Ok(SourceListReport { sources })
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
    let (keys, rotation) = source_decl::rotated_keys(&decl.keys, &opts.new_key, &signature)?;
    manifest.set_source_keys(&opts.name, &keys)?;
    manifest.save()?;
    Ok(RotateReport {
        source: opts.name.clone(),
        rotation,
    })
}
