//! Reading what other tools installed (`skillpm import`), and never
//! changing it: each record becomes a [`Found`] source for `skillpm add`.
//!
//! `skillpm import` brings in skills another tool installed, so a team does
//! not start over. It reads:
//!
//! - vercel `skills`: the project's `skills-lock.json` (version 1: per skill
//!   `source`, `sourceType`, optional `sourceUrl`, `ref`, `skillPath`,
//!   `computedHash`) and the global lock
//!   `${XDG_STATE_HOME}/skills/.skill-lock.json` or `~/.agents/.skill-lock.json`
//!   (version 3, same source fields);
//! - openskills: the `.openskills.json` inside each skill folder it installed
//!   (`source`, `sourceType`, `repoUrl`, `subpath`, `localPath`), in the
//!   project's and the home folder's `.claude/skills`, `.agent/skills` and
//!   `.agents/skills`;
//! - `gh skill` installs and pnpm's links in every agent folder
//!   ([`placed`]);
//! - skillkit: `~/.skillkit/lock.json` (version 1: key `<source>:<name>`,
//!   per skill `source`, `sourceType`, `path`, `checksum`, `agents`), the
//!   format `@skillkit/core` 1.24.0 reads and writes, and the project's
//!   `.skills` manifest (YAML: `skills:` of `owner/repo[/skill]` strings or
//!   `{source, skills, agents, enabled}`; no `skills` list means every
//!   skill the source offers, `enabled: false` is not installed).
//!
//! Each skill becomes an ordinary `skillpm add` of its source: declared in
//! skills.toml, resolved, checked, stored, pinned in skills.lock (commit for
//! git, tree digest always), approved and linked. None of these tools records
//! a commit, so a git skill is re-resolved at the ref it names (or the
//! default branch) and reported as `re-resolved`; a source that no longer
//! offers the skill is `not-found`. A folder (or link) the other tool
//! installed under the same name that holds exactly the tree skillpm
//! resolved is adopted: replaced by skillpm's placement, so `verify` passes
//! right after. One that differs stays where it is and is reported with how
//! it differs, until `import --replace` backs it up under skillpm's state
//! for the project and places skillpm's (docs/design.md#agents).

mod placed;

pub use placed::{GH_SKILL, PNPM};

use std::path::{Path, PathBuf};

use crate::error::Exit;

/// One skill another tool recorded.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub name: String,
    pub tool: &'static str,
    pub file: PathBuf,
    pub source: String,
    pub git_ref: Option<String>,
    /// Every skill the source offers (a skillkit manifest entry without a
    /// `skills` list); `name` is then `*`.
    pub all: bool,
    /// What the record says beyond its source, for the report's `detail`.
    pub detail: Option<String>,
    /// What the other tool will do again after the import unless told not
    /// to, and how to tell it (pnpm re-links approved skills on every
    /// install); `None` where it does nothing on its own.
    pub hand_off: Option<String>,
}

/// The skills `gh skill` and pnpm placed in the agent folders of `project`
/// and the user (`list --all` names who placed each; `import` reads them
/// through [`gather`]).
pub fn placed(project: &Path, env: &crate::agents::Env) -> Vec<Found> {
    placed::gather(project, env).1
}

/// Every record of the other tools (skillkit's lock last), project first
/// (its records win), and the files they came from.
pub fn gather(
    project: &Path,
    env: &crate::agents::Env,
    state_home: Option<&Path>,
) -> anyhow::Result<(Vec<PathBuf>, Vec<Found>)> {
    let home = env.home.as_deref();
    let mut files = Vec::new();
    let mut found = Vec::new();
    let manifest = SKILLKIT_MANIFESTS
        .iter()
        .map(|n| project.join(n))
        .find(|p| p.is_file());
    if let Some(manifest) = manifest {
        found.extend(read_skillkit_manifest(&manifest, project, home)?);
        files.push(manifest);
    }
    let project_lock = project.join("skills-lock.json");
    if project_lock.is_file() {
        found.extend(read_vercel(&project_lock, project, "vercel-skills")?);
        files.push(project_lock);
    }
    for base in std::iter::once(project).chain(home) {
        for dir in [".claude/skills", ".agent/skills", ".agents/skills"] {
            let Ok(entries) = std::fs::read_dir(base.join(dir)) else {
                continue;
            };
            let mut paths: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path().join(".openskills.json"))
                .filter(|p| p.is_file())
                .collect();
            paths.sort();
            for p in paths {
                found.push(read_openskills(&p)?);
                files.push(p);
            }
        }
    }
    let (placed_files, placed) = placed::gather(project, env);
    files.extend(placed_files);
    found.extend(placed);
    let global = state_home
        .map(|s| s.join("skills/.skill-lock.json"))
        .or_else(|| home.map(|h| h.join(".agents/.skill-lock.json")));
    if let Some(global) = global.filter(|g| g.is_file()) {
        let base = home.unwrap_or(project);
        found.extend(read_vercel(&global, base, "vercel-skills-global")?);
        files.push(global);
    }
    let skillkit = home.map(|h| h.join(".skillkit/lock.json"));
    if let Some(lock) = skillkit.filter(|l| l.is_file()) {
        found.extend(read_skillkit(&lock, project, home)?);
        files.push(lock);
    }
    Ok((files, found))
}

/// The most bytes of another tool's lock or manifest `import` reads: far
/// above any real one, and never read past (docs/design.md#unpacking: every input has a limit).
pub const MAX_IMPORT_BYTES: u64 = 8 * 1024 * 1024;

/// The text of another tool's file, read through a bounded reader.
fn read_foreign(path: &Path) -> anyhow::Result<String> {
    crate::fs::read_bounded(path, MAX_IMPORT_BYTES)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?
        .ok_or_else(|| {
            crate::error::OpError::new(
                Exit::Usage,
                format!(
                    "{} is larger than {MAX_IMPORT_BYTES} bytes, the most `skillpm import` reads of another tool's file; it was not read: check where it came from, or move it away",
                    path.display()
                ),
            )
            .into()
        })
}

fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let text = read_foreign(path)?;
    serde_json::from_str(&text).map_err(|e| {
        crate::error::OpError::new(
            Exit::Usage,
            format!(
                "{} is not valid JSON ({e}); fix or move it, then run `skillpm import` again",
                path.display()
            ),
        )
        .into()
    })
}

fn text(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(|x| x.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The `skills` object of a lock file of `tool`.
fn skills_object<'j>(
    json: &'j serde_json::Value,
    path: &Path,
    tool: &str,
) -> anyhow::Result<&'j serde_json::Map<String, serde_json::Value>> {
    json.get("skills")
        .and_then(|s| s.as_object())
        .ok_or_else(|| {
            crate::error::OpError::new(
                Exit::Usage,
                format!(
                    "{} has no `skills` object; is it a {tool} lock?",
                    path.display()
                ),
            )
            .into()
        })
}

/// vercel `skills-lock.json` (v1) or `.skill-lock.json` (v3).
fn read_vercel(path: &Path, base: &Path, tool: &'static str) -> anyhow::Result<Vec<Found>> {
    let json = read_json(path)?;
    let skills = skills_object(&json, path, "vercel skills")?;
    let mut out = Vec::new();
    for (name, entry) in skills {
        let source_type = text(entry, "sourceType").unwrap_or_default();
        let source = text(entry, "source").unwrap_or_default();
        let url = text(entry, "sourceUrl");
        let spec = match source_type.as_str() {
            "github" if !source.contains("://") => format!("github:{source}"),
            "git" | "gitlab" => url.unwrap_or(source),
            "local" => local(base, &source),
            _ => url.unwrap_or(source),
        };
        out.push(Found {
            name: name.clone(),
            tool,
            file: path.to_owned(),
            source: spec,
            git_ref: text(entry, "ref"),
            ..Default::default()
        });
    }
    Ok(out)
}

/// openskills' `<skill>/.openskills.json`.
fn read_openskills(path: &Path) -> anyhow::Result<Found> {
    let json = read_json(path)?;
    let name = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source_type = text(&json, "sourceType").unwrap_or_default();
    let source = text(&json, "source").unwrap_or_default();
    let spec = match source_type.as_str() {
        "local" => local(Path::new("/"), &source),
        _ => text(&json, "repoUrl").unwrap_or(source),
    };
    Ok(Found {
        name,
        tool: "openskills",
        file: path.to_owned(),
        source: spec,
        ..Default::default()
    })
}

/// skillkit's `~/.skillkit/lock.json`: `{"version": 1, "skills": {"<source>:<name>":
/// {"source", "sourceType", "path", ...}}}`. `sourceType` is one of github,
/// gitlab, bitbucket, local, wellknown, skills-sh; `source` is what the user
/// typed (`owner/repo[/sub]`, a git URL, `gitlab:owner/repo`, a path).
fn read_skillkit(path: &Path, project: &Path, home: Option<&Path>) -> anyhow::Result<Vec<Found>> {
    let json = read_json(path)?;
    let skills = skills_object(&json, path, "skillkit")?;
    let mut out = Vec::new();
    for (key, entry) in skills {
        let source = text(entry, "source").unwrap_or_default();
        let name = key
            .strip_prefix(&format!("{source}:"))
            .or_else(|| key.rsplit(':').next())
            .unwrap_or(key)
            .to_owned();
        let spec = skillkit_source(&source, project, home);
        out.push(Found {
            name,
            tool: "skillkit",
            file: path.to_owned(),
            source: spec,
            ..Default::default()
        });
    }
    Ok(out)
}

/// The manifest names skillkit 1.24.0 looks for, in its order.
const SKILLKIT_MANIFESTS: [&str; 4] = [".skills", ".skills.yaml", ".skills.yml", "skills.yaml"];

/// skillkit's project manifest (its `loadManifest`/`normalizeSkills`): a
/// string entry of three or more `/` parts is `owner/repo` plus a skill
/// path; a path source (skillkit would split it too) is kept whole.
fn read_skillkit_manifest(
    path: &Path,
    project: &Path,
    home: Option<&Path>,
) -> anyhow::Result<Vec<Found>> {
    let text_of = read_foreign(path)?;
    let bad = |why: String| -> anyhow::Error {
        crate::error::OpError::new(
            Exit::Usage,
            format!(
                "{} is not a skillkit manifest ({why}); fix or move it, then run `skillpm import` again",
                path.display()
            ),
        )
        .into()
    };
    let yaml = crate::skill::frontmatter::parse_yaml(&text_of, 1).map_err(bad)?;
    let entries = match yaml.get("skills") {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(serde_json::Value::Array(a)) => a.clone(),
        Some(_) => return Err(bad("`skills` is not a list".to_owned())),
    };
    let mut out = Vec::new();
    for entry in entries {
        let Some((source, names)) = skillkit_entry(&entry) else {
            continue;
        };
        if source.is_empty() {
            continue;
        }
        let spec = skillkit_source(&source, project, home);
        let one = |name: String, all: bool| Found {
            name,
            tool: "skillkit-manifest",
            file: path.to_owned(),
            source: spec.clone(),
            all,
            ..Default::default()
        };
        if names.is_empty() {
            out.push(one("*".to_owned(), true));
        } else {
            out.extend(names.into_iter().map(|n| one(n, false)));
        }
    }
    Ok(out)
}

/// One entry of a skillkit manifest's `skills` list: its source and the
/// skills it names (none: every skill the source offers); `None` for an
/// entry that installs nothing (`enabled: false`) or is not an entry.
fn skillkit_entry(entry: &serde_json::Value) -> Option<(String, Vec<String>)> {
    match entry {
        serde_json::Value::String(s) => {
            let s = s.trim();
            let parts: Vec<&str> = s.split('/').collect();
            let is_path = s.starts_with('/') || s.starts_with('.') || s.starts_with("~/");
            if parts.len() >= 3 && !is_path && !s.contains(':') {
                Some((parts[..2].join("/"), vec![parts[2..].join("/")]))
            } else {
                Some((s.to_owned(), Vec::new()))
            }
        }
        serde_json::Value::Object(_) => {
            if entry.get("enabled") == Some(&serde_json::Value::Bool(false)) {
                return None;
            }
            let names = entry
                .get("skills")
                .and_then(|v| v.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|n| n.as_str())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            Some((text(entry, "source").unwrap_or_default(), names))
        }
        _ => None,
    }
}

/// skillkit's source string as a skillpm source (its providers' rules:
/// paths start with `/`, `.` or `~/`; `skills.sh/owner/repo/…` is GitHub;
/// URLs stay; `gitlab:`/`bitbucket:`
/// shorthands name those hosts; any other `owner/repo[/sub]` is GitHub).
fn skillkit_source(source: &str, project: &Path, home: Option<&Path>) -> String {
    if let (Some(rest), Some(home)) = (source.strip_prefix("~/"), home) {
        return local(home, rest);
    }
    if source.starts_with('/') || source.starts_with('.') {
        return local(project, source);
    }
    let repo = |s: &str| s.split('/').take(2).collect::<Vec<_>>().join("/");
    let bare = source
        .trim_start_matches("https://")
        .trim_start_matches("http://");
    if let Some(rest) = bare.strip_prefix("skills.sh/") {
        // skills.sh names a GitHub repository (its provider clones it there).
        return format!("github:{}", repo(rest));
    }
    if source.contains("://") || source.starts_with("git@") {
        return source.to_owned();
    }
    for (prefix, host) in [
        ("gitlab:", "gitlab.com"),
        ("gitlab.com/", "gitlab.com"),
        ("bitbucket:", "bitbucket.org"),
        ("bitbucket.org/", "bitbucket.org"),
    ] {
        if let Some(rest) = source.strip_prefix(prefix) {
            return format!("https://{host}/{}.git", repo(rest));
        }
    }
    format!("github:{}", repo(source))
}

/// A local source, absolute (relative ones are relative to `base`).
fn local(base: &Path, source: &str) -> String {
    let p = Path::new(source);
    let abs = if p.is_absolute() {
        p.to_owned()
    } else {
        base.join(p)
    };
    let abs = std::fs::canonicalize(&abs).unwrap_or(abs);
    abs.display().to_string()
}

/// Whether a recorded ref is a whole commit id (the record pins it).
pub fn is_commit(r: &str) -> bool {
    r.len() == 40 && r.bytes().all(|b| b.is_ascii_hexdigit())
}
