//! skillpm's own folders outside the cache are trusted as the user's: the
//! config folder (`tokens.toml`, which of your secrets may be sent where;
//! the user's `policy.toml`) and the state folder (the record key that
//! authenticates the cache's records, the Sigstore trusted root). Where they
//! are comes from the environment (`SKILLPM_CONFIG_DIR`, `SKILLPM_STATE_DIR`,
//! `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `HOME`), which a project can set as
//! well: a `.env` that a task runner loads, a CI job's `env:`. Pointed into
//! the project, they would hold files the project's authors wrote (a
//! `tokens.toml` sending `$AWS_SECRET_ACCESS_KEY` to their host, a record
//! key of their own that makes forged records authentic). So every command
//! first refuses such a folder inside the project it runs in, or inside the
//! repository holding it (docs/threat-model.md#pull-request-author).
//!
//! The cache may be anywhere, the project included: it is content, checked
//! where it is used, never trusted because it is there.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A folder skillpm trusts as the user's own found inside the project.
#[derive(Debug, thiserror::Error)]
#[error(
    "{var} puts skillpm's {what} folder inside the project: {} is in {}\n  that folder holds {holds}, which no file of a project may decide; point {var} at a folder of your own outside the project{unset}",
    folder.display(),
    project.display()
)]
pub struct UserFolderInProject {
    /// The variable that put it there.
    pub var: &'static str,
    pub what: &'static str,
    pub folder: PathBuf,
    /// The project folder (or repository) it is in.
    pub project: PathBuf,
    holds: &'static str,
    unset: &'static str,
}

crate::classified!(UserFolderInProject => Usage);

/// What the config folder holds, in messages: the token bindings
/// (`SKILLPM_CONFIG_DIR`, else the one below), and the user's policy and
/// user-scope manifest (`${XDG_CONFIG_HOME:-~/.config}/skillpm`).
const TOKENS_HOLD: &str = "tokens.toml (which of your secrets may be sent where)";
const CONFIG_HOLDS: &str = "tokens.toml (which of your secrets may be sent where), your policy.toml and the user scope's skills.toml";
const POLICY_HOLDS: &str = "your policy.toml and the user scope's skills.toml";
/// What the state folder holds, in messages.
const STATE_HOLDS: &str =
    "the record key that authenticates the cache's records, and the Sigstore trusted root";

/// Refuses skillpm's config or state folder when it lies inside the project
/// a command run in `cwd` (with `--project` as `project_override`) works
/// on, or inside the git repository holding it.
pub fn refuse_inside_project(
    cwd: &Path,
    project_override: Option<&Path>,
) -> Result<(), UserFolderInProject> {
    let home = var("HOME").map(|h| resolved(cwd, Path::new(&h)));
    let project = match project_override {
        Some(dir) => Some(cwd.join(dir)),
        None => super::manifest_dir(cwd).map(Path::to_owned),
    }
    .map(|p| resolved(cwd, &p));
    // The repository holding the project (or the working directory), but
    // not a home folder kept in git as a whole (dotfiles): the user's own
    // folders are there by design.
    let start = project.clone().unwrap_or_else(|| resolved(cwd, cwd));
    let repository = (start.ancestors())
        .find(|d| d.join(".git").exists())
        .map(Path::to_owned)
        .filter(|r| home.as_deref() != Some(r.as_path()));
    let places: Vec<PathBuf> = project.into_iter().chain(repository).collect();
    if places.is_empty() {
        return Ok(());
    }
    let tokens_var = named_by("SKILLPM_CONFIG_DIR", "XDG_CONFIG_HOME");
    let own_tokens_dir = tokens_var == "SKILLPM_CONFIG_DIR";
    let folders = [
        (
            crate::net::UserTokens::dir(),
            tokens_var,
            "config",
            if own_tokens_dir {
                TOKENS_HOLD
            } else {
                CONFIG_HOLDS
            },
        ),
        // With SKILLPM_CONFIG_DIR set, the policy's folder is another one.
        (
            directories::BaseDirs::new()
                .filter(|_| own_tokens_dir)
                .map(|b| b.config_dir().join("skillpm")),
            named_by("", "XDG_CONFIG_HOME"),
            "config",
            POLICY_HOLDS,
        ),
        (
            crate::cache::state_root(),
            named_by("SKILLPM_STATE_DIR", "XDG_STATE_HOME"),
            "state",
            STATE_HOLDS,
        ),
    ];
    for (folder, var, what, holds) in folders {
        let Some(folder) = folder else { continue };
        let folder = resolved(cwd, &folder);
        for place in &places {
            // The project *is* the user's own folder (`-g`'s manifest lives
            // in the config folder): only a folder the user did not name
            // with skillpm's own variable.
            let own_scope = folder == *place && !var.starts_with("SKILLPM_");
            if folder.starts_with(place) && !own_scope {
                return Err(UserFolderInProject {
                    var,
                    what,
                    folder,
                    project: place.clone(),
                    holds,
                    unset: if var.starts_with("SKILLPM_") {
                        " (or unset it)"
                    } else {
                        ""
                    },
                });
            }
        }
    }
    Ok(())
}

/// A set, non-empty variable.
fn var(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// Which variable decides a folder: skillpm's own (`own`) when set, else the
/// XDG one when set to an absolute path (as `directories` reads it), else
/// `HOME`.
fn named_by(own: &'static str, xdg: &'static str) -> &'static str {
    if !own.is_empty() && var(own).is_some() {
        own
    } else if var(xdg).is_some_and(|v| Path::new(&v).is_absolute()) {
        xdg
    } else {
        "HOME"
    }
}

/// `path` (relative to `cwd`) with every link of the part that exists
/// resolved, so a link or a relative path cannot hide where it is.
fn resolved(cwd: &Path, path: &Path) -> PathBuf {
    let path = cwd.join(path);
    let mut tail = Vec::new();
    let mut at = path.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            return tail.iter().rev().fold(real, |p, name| p.join(name));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_owned());
                at = parent;
            }
            _ => return path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_resolved_through_links_and_beyond_what_exists() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join("real")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
        assert_eq!(
            resolved(&root, Path::new("real/a/b")),
            root.join("real/a/b")
        );
        #[cfg(unix)]
        assert_eq!(resolved(&root, Path::new("link/a")), root.join("real/a"));
        assert_eq!(
            resolved(&root.join("real"), Path::new("../x")),
            root.join("x")
        );
    }
}
