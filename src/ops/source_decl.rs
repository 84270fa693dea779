//! Which source `add` reads (docs/sources.md): a declared source by name,
//! the project's only one, or a new declaration for a location the user
//! typed (its URL as skills.toml will keep it, a `--ref` written into it,
//! a name made from it and unique among the declared sources), and what
//! `source add` and `source rotate-key` check before skills.toml changes.

use std::path::Path;

use crate::error::{Exit, OpError};
use crate::project::Manifest;
use crate::project::manifest::SourceDecl;
use crate::sources::candidate::clean_subpath;
use crate::sources::id::{SourceId, SourceKind};
use crate::sources::location::{is_git_form, looks_like_location, manifest_url, parse};
use crate::sources::tokens::token_url;
use crate::sources::workspace::fail;
use crate::trust::{PinnedKey, Rotation, verify_rotation};

/// The declared source to use, or a new declaration for a location.
pub fn choose(
    manifest: &Manifest,
    (cwd, root): (&Path, &Path),
    text: Option<&str>,
    git_ref: Option<&str>,
    path: Option<&str>,
) -> anyhow::Result<(SourceDecl, bool)> {
    let path = clean_subpath(path)?;
    if path.is_some() && text.is_some_and(|t| manifest.source(t).is_some()) {
        return fail(
            Exit::Usage,
            "--path applies to a source given by its location (URL or folder), not to a declared source (edit its `path` in skills.toml)",
        );
    }
    let Some(text) = text else {
        return Ok((only_declared_source(manifest, path.is_some())?, false));
    };
    if let Some(decl) = manifest.source(text) {
        if git_ref.is_some() {
            return fail(
                Exit::Usage,
                format!(
                    "--ref applies to a git URL, not to the declared source `{text}` (edit its url in skills.toml)"
                ),
            );
        }
        return Ok((decl.clone(), false));
    }
    if !looks_like_location(text) {
        return Err(manifest.require_source(text).unwrap_err().into());
    }
    let mut url = manifest_url(text, cwd, root)?;
    if let Some(r) = git_ref {
        url = with_git_ref(root, text, url, r)?;
    }
    if let Some(existing) = manifest
        .sources()
        .iter()
        .find(|s| s.url == url && s.path == path)
    {
        return Ok((existing.clone(), false));
    }
    let mut name = unique_source_name(manifest, &url);
    if let Some(p) = path.as_deref().and_then(|p| p.rsplit('/').next())
        && manifest.sources().iter().any(|s| s.url == url)
    {
        // The same location with another folder: name it after the folder.
        name = unique_name(manifest, &format!("{name}-{p}"));
    }
    Ok((
        SourceDecl {
            name,
            url,
            path,
            ..Default::default()
        },
        true,
    ))
}

/// No `--source`: the project's one declared source, else a usage error
/// saying what to pass (`--path` alone names no source's folder).
fn only_declared_source(manifest: &Manifest, with_path: bool) -> anyhow::Result<SourceDecl> {
    if with_path {
        return fail(
            Exit::Usage,
            "--path needs --source <URL|PATH> (the source whose folder it names)",
        );
    }
    match manifest.sources() {
        [only] => Ok(only.clone()),
        [] => fail(
            Exit::NotFound,
            "this project declares no source: pass `--source <URL|PATH>` (or `skillpm source add <name> <url>` first)",
        ),
        many => fail(
            Exit::Usage,
            format!(
                "this project declares several sources ({}): say which with --source NAME",
                many.iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

/// A git location `url` with `--ref r` written into it (`@r` for `github:`,
/// else `#r`); a registry takes no ref (exit 2).
fn with_git_ref(root: &Path, text: &str, url: String, r: &str) -> anyhow::Result<String> {
    let written = SourceId::parse(&url, root)?;
    if written.kind != SourceKind::Git {
        return fail(
            Exit::Usage,
            format!("--ref applies to git sources; `{text}` is a registry"),
        );
    }
    // A ref in the text too (`…#v1`, `…@v1`, `tree/v1`) must be the same
    // one (else exit 2), and is then not written twice.
    crate::git::parse_git_spec(&url, Some(r), root)?;
    if written.reference.is_some() {
        return Ok(url);
    }
    Ok(if url.starts_with("github:") {
        format!("{url}@{r}")
    } else {
        format!("{url}#{r}")
    })
}

/// `https://skills.acme.dev/x` → `skills-acme-dev`; `github:o/r` → `o-r`;
/// `…/team/skills.git#v2` → `skills`; a folder → its name. Made unique among
/// the declared sources.
fn unique_source_name(manifest: &Manifest, url: &str) -> String {
    // `oci://ghcr.io/acme/skills` → `acme-skills`.
    let oci = crate::sources::oci::OciRef::parse(url).ok();
    let stem = git_stem(url)
        .or_else(|| oci.map(|r| r.repository))
        .or_else(|| {
            url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
        })
        .unwrap_or_else(|| {
            std::path::Path::new(url.trim_end_matches('/'))
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "source".into())
        });
    unique_name(manifest, &stem)
}

/// `stem` as a source name (lowercase, `-` for anything else), made unique
/// among the declared sources.
fn unique_name(manifest: &Manifest, stem: &str) -> String {
    let dashed = stem
        .to_ascii_lowercase()
        .replace(|c: char| !c.is_ascii_alphanumeric(), "-");
    let mut name = dashed
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    name.truncate(56);
    let base = match name.trim_end_matches('-') {
        "" => "source".to_owned(),
        trimmed => trimmed.to_owned(),
    };
    let mut candidate = base.clone();
    let mut n = 2;
    while manifest.source(&candidate).is_some() {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    candidate
}

/// The name part of a git source: `owner/repo[/sub]` for GitHub, else the
/// repository's last path segment without `.git` (a host says little about
/// a git repository) and never the `#ref` (`add --ref` appends it).
fn git_stem(url: &str) -> Option<String> {
    let without_ref = url.split_once('#').map_or(url, |(u, _)| u);
    if let Some(rest) = without_ref.strip_prefix("github:") {
        return Some(rest.split('@').next().unwrap_or(rest).to_owned());
    }
    if let Some(rest) = without_ref.strip_prefix(crate::git::GITHUB_WEB) {
        let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).take(2).collect();
        return Some(parts.join("/").trim_end_matches(".git").to_owned());
    }
    if !is_git_form(without_ref) {
        return None;
    }
    let last = without_ref
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or(without_ref);
    Some(last.strip_suffix(".git").unwrap_or(last).to_owned())
}

/// `--token-env VAR`: the URL whose origin VAR is bound to, and VAR.
pub fn token_binding(
    decl: &SourceDecl,
    token_env: Option<&str>,
) -> anyhow::Result<Option<(url::Url, String)>> {
    let Some(var) = token_env else {
        return Ok(None);
    };
    let url = token_url(&decl.url).ok_or_else(|| {
        OpError::new(
            Exit::Usage,
            format!(
                "--token-env: `{}` has no web origin a token could be sent to (tokens go to http(s), github: and mcp+https sources)",
                decl.url
            ),
        )
    })?;
    Ok(Some((url, var.to_owned())))
}

/// A local source must exist (exit 8).
pub fn check_exists(decl: &SourceDecl, root: &Path) -> anyhow::Result<()> {
    if let Ok(at) = parse(&decl.url, root)
        && let Some(path) = at.url.and_then(|u| u.to_file_path().ok())
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
    Ok(())
}

/// `source rotate-key`: the source's keys with the one that signed
/// `new_key` replaced by it (the rotation verified, docs/design.md#trust).
pub fn rotated_keys(
    keys: &[String],
    new_key: &str,
    signature: &str,
) -> anyhow::Result<(Vec<String>, Rotation)> {
    let pinned = PinnedKey::parse_all(keys)?;
    let rotation = verify_rotation(&pinned, new_key, signature)?;
    let mut out: Vec<String> = Vec::with_capacity(keys.len());
    for key in keys {
        let replacement = if key.trim() == rotation.old_key {
            &rotation.new_key
        } else {
            key
        };
        if !out.contains(replacement) {
            out.push(replacement.clone());
        }
    }
    Ok((out, rotation))
}

/// `user`'s bindings with `var` bound to `url`'s origin (in memory: the
/// probe of `source add` sends the token it is about to record).
pub fn bind_token(user: &mut crate::net::UserTokens, url: &url::Url, var: &str) {
    let origin = url.origin().ascii_serialization();
    user.tokens.retain(|t| t.origin != origin);
    user.tokens.push(crate::net::TokenBinding {
        origin,
        env: var.to_owned(),
    });
}
