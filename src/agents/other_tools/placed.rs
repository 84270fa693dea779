//! Skills other tools placed in agent folders without a lock file of
//! their own that names them (docs/sources.md#skills-other-tools-installed):
//!
//! - `gh skill install` (GitHub CLI ≥ 2.90) copies a skill's folder into an
//!   agent folder and records its origin in the copy's SKILL.md
//!   (`metadata.github-repo`, `github-ref`, `github-tree-sha`, `github-path`,
//!   `github-pinned`; `crate::skill::gh`);
//! - pnpm ≥ 12.11 links the `skills/<name>` folders of approved direct
//!   dependencies into agent folders: a symlink (named `<name>`, or
//!   `pnpm-<package>-<name>` before 12.18 and on a clash) into the
//!   project's `node_modules`.
//!
//! Every folder an agent of the agents table reads is looked at, in the
//! project and the home folder; nothing there is changed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Found;
use crate::agents::Env;
use crate::skill::{MAX_SKILL_MD_BYTES, SKILL_MD};

/// The tool names of the rows these records make.
pub const GH_SKILL: &str = "gh-skill";
pub const PNPM: &str = "pnpm";

/// The most bytes of a package's `package.json` read.
const MAX_PACKAGE_JSON_BYTES: u64 = 1024 * 1024;

/// Every agent folder of the table, project ones first, each once.
fn agent_folders(project: &Path, env: &Env) -> Vec<PathBuf> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let table = crate::agents::table();
    let project_dirs = table
        .iter()
        .flat_map(|a| a.project_dirs())
        .map(|d| project.join(d));
    let user_dirs = (table.iter())
        .flat_map(|a| a.user_dirs())
        .filter_map(|d| d.resolve(env));
    for dir in project_dirs.chain(user_dirs) {
        if seen.insert(dir.clone()) {
            out.push(dir);
        }
    }
    out
}

/// The `gh skill` installs and pnpm links in every agent folder, one
/// record per folder or link (`list --all` labels each).
pub fn gather(project: &Path, env: &Env) -> (Vec<PathBuf>, Vec<Found>) {
    let node_modules = std::fs::canonicalize(project.join("node_modules")).ok();
    let mut files = Vec::new();
    let mut found = Vec::new();
    for dir in agent_folders(project, env) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let record = if meta.file_type().is_symlink() {
                node_modules
                    .as_deref()
                    .and_then(|nm| pnpm_link(&path, nm, project))
            } else if meta.is_dir() {
                gh_install(&path)
            } else {
                None
            };
            if let Some(f) = record {
                files.push(f.file.clone());
                found.push(f);
            }
        }
    }
    (files, found)
}

/// A folder `gh skill install` wrote: its SKILL.md names the repository.
fn gh_install(dir: &Path) -> Option<Found> {
    let file = dir.join(SKILL_MD);
    let text = crate::fs::read_bounded(&file, MAX_SKILL_MD_BYTES).ok()??;
    let origin = crate::skill::gh::gh_origin(&text)?;
    let name = dir.file_name()?.to_string_lossy().into_owned();
    Some(Found {
        name,
        tool: GH_SKILL,
        source: repo_source(&origin.repo),
        git_ref: origin.wanted_ref(),
        detail: Some(format!(
            "gh skill recorded {} at {}{}; resolved again and compared with what it installed",
            origin.repo,
            origin.reference.as_deref().unwrap_or("its default branch"),
            origin
                .tree_sha
                .as_deref()
                .map(|t| format!(" (tree {t})"))
                .unwrap_or_default()
        )),
        file,
        ..Default::default()
    })
}

/// gh's `github-repo` as a skillpm source: a github.com repository by its
/// `github:` form, any other URL (GitHub Enterprise, a mirror) as a git URL.
fn repo_source(repo: &str) -> String {
    let bare = repo.trim_end_matches('/').trim_end_matches(".git");
    match bare.strip_prefix("https://github.com/") {
        Some(rest) if rest.split('/').count() == 2 => format!("github:{rest}"),
        _ => repo.to_owned(),
    }
}

/// A link pnpm made: it leads into the project's `node_modules`, to a
/// `skills/…/<name>` folder of a package (the nearest folder above holding
/// `package.json`). The source is that folder reached through
/// `node_modules/<package>`, the path pnpm keeps for a direct dependency.
fn pnpm_link(link: &Path, node_modules: &Path, project: &Path) -> Option<Found> {
    let target = std::fs::canonicalize(link).ok()?;
    if !target.starts_with(node_modules) || !target.join(SKILL_MD).is_file() {
        return None;
    }
    let name = target.file_name()?.to_string_lossy().into_owned();
    let package_dir = target
        .ancestors()
        .skip(1)
        .take_while(|a| a.starts_with(node_modules) && *a != node_modules)
        .find(|a| a.join("package.json").is_file())?;
    let text = crate::fs::read_bounded(&package_dir.join("package.json"), MAX_PACKAGE_JSON_BYTES)
        .ok()??;
    let package: serde_json::Value = serde_json::from_str(&text).ok()?;
    let package_name = package.get("name")?.as_str()?.to_owned();
    let version = package
        .get("version")
        .and_then(|v| v.as_str())
        .unwrap_or("?");
    let inside = target.strip_prefix(package_dir).ok()?;
    // `node_modules/<name>` is pnpm's link to the dependency; reached that
    // way, the source follows the dependency's next version.
    let direct = node_modules.join(&package_name).join(inside);
    let source = match std::fs::canonicalize(&direct) {
        Ok(real) if real == target => direct,
        _ => target.clone(),
    };
    Some(Found {
        name,
        tool: PNPM,
        file: link.to_owned(),
        source: source.display().to_string(),
        detail: Some(format!(
            "pnpm linked it from {package_name}@{version} in node_modules; added as a folder source"
        )),
        hand_off: Some(format!(
            "pnpm links it again on its next install, under another name beside skillpm's folder: set `skills: false` under `permissions` for `{}` in pnpm-workspace.yaml, and its next install removes its own links and the .gitignore it wrote beside them",
            pnpm_permission_key(project, &package_name)
        )),
        ..Default::default()
    })
}

/// The key under `permissions` in pnpm-workspace.yaml that approved
/// `package`'s skills: its name for a registry package, `name@<source>` for
/// a local, git or tarball one (pnpm's own keys); the name when the file
/// says nothing of it. The nearest pnpm-workspace.yaml at or above
/// `project` is read.
fn pnpm_permission_key(project: &Path, package: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Workspace {
        #[serde(default)]
        permissions: std::collections::BTreeMap<String, serde_json::Value>,
    }
    let read = |dir: &Path| {
        let text =
            crate::fs::read_bounded(&dir.join("pnpm-workspace.yaml"), MAX_PACKAGE_JSON_BYTES)
                .ok()??;
        serde_saphyr::from_str::<Workspace>(&text).ok()
    };
    let Some(workspace) = project.ancestors().find_map(read) else {
        return package.to_owned();
    };
    let versioned = format!("{package}@");
    (workspace.permissions.into_iter())
        .filter(|(key, _)| key == package || key.starts_with(&versioned))
        .find(|(_, granted)| granted.get("skills").is_some_and(|s| s != false))
        .map_or_else(|| package.to_owned(), |(key, _)| key)
}

#[cfg(test)]
mod tests {
    use super::{pnpm_permission_key, repo_source};

    /// The key pnpm approved a package's skills under, as pnpm 12.21 writes
    /// it: the name for a registry package, `name@<source>` for a local one;
    /// a denial, another package sharing the prefix, or no file at all give
    /// the bare name.
    #[test]
    fn the_pnpm_key_is_the_one_that_approved_the_skills() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("app");
        std::fs::create_dir_all(&project).unwrap();
        assert_eq!(pnpm_permission_key(&project, "acme-tools"), "acme-tools");
        std::fs::write(
            tmp.path().join("pnpm-workspace.yaml"),
            "permissions:\n  acme-tools-extra:\n    skills: true\n  acme-tools@git+https://old.example/a.git:\n    skills: false\n  acme-tools@file:../pkg:\n    skills: true\n  '@acme/kit':\n    build: true\n    skills: [pdf]\n",
        )
        .unwrap();
        assert_eq!(
            pnpm_permission_key(&project, "acme-tools"),
            "acme-tools@file:../pkg"
        );
        assert_eq!(pnpm_permission_key(&project, "@acme/kit"), "@acme/kit");
        assert_eq!(pnpm_permission_key(&project, "other"), "other");
    }

    #[test]
    fn github_repositories_become_github_sources() {
        assert_eq!(
            repo_source("https://github.com/acme/skills"),
            "github:acme/skills"
        );
        assert_eq!(
            repo_source("https://github.com/acme/skills.git"),
            "github:acme/skills"
        );
        assert_eq!(
            repo_source("https://ghe.example/acme/skills"),
            "https://ghe.example/acme/skills"
        );
        assert_eq!(repo_source("file:///tmp/src.git"), "file:///tmp/src.git");
    }
}
