//! Finding the skills in a checked-out repository (or any folder).
//!
//! Where skills are looked for, in the conventions repositories use today:
//! - `SKILL.md` at the root (a repository or subpath that *is* one skill);
//! - `*/SKILL.md` (a repository or subpath that is a folder of skills);
//! - `skills/*/SKILL.md`, `.agents/skills/*/SKILL.md`, `.claude/skills/*/SKILL.md`;
//! - Claude Code plugin marketplaces: `.claude-plugin/marketplace.json` lists
//!   `plugins[]` whose `source` is a folder of this repository (relative to
//!   the repository root, after `metadata.pluginRoot`); each plugin's skills
//!   are its `skills` entries (a skill folder, or a folder of skill folders),
//!   its `skills/*/SKILL.md` and a `SKILL.md` at its root. Plugins hosted
//!   elsewhere (`{"source": "github", …}`, URLs) are skipped with a warning;
//! - a single plugin's `.claude-plugin/plugin.json` `skills` entries.
//!
//! Lenient like every discovery (DESIGN §10): a bad skill is reported in
//! `warnings` and skipped, never fatal to the rest. Symbolic links are never
//! followed.

use std::collections::{BTreeMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::skill::{is_valid_name, parse_skill_md, printable};

/// Bounds that keep discovery cheap on hostile or huge trees.
const MAX_LISTED_DIRS: usize = 2_000;
const MAX_PLUGINS: usize = 1_000;
const MAX_MANIFEST_BYTES: u64 = 1 << 20;
const MAX_SKILL_MD_BYTES: u64 = 1 << 20;

/// One skill found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoundSkill {
    pub name: String,
    pub description: String,
    /// Its folder relative to the discovery root, `/`-separated; `""` when
    /// the root itself is the skill.
    pub path: String,
    /// The marketplace plugin that lists it, when found through one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
}

/// Everything discovery found, and what it skipped and why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Discovery {
    /// Sorted by path.
    pub skills: Vec<FoundSkill>,
    pub warnings: Vec<String>,
}

impl Discovery {
    /// The skills named `name` (more than one when two folders claim it).
    pub fn named(&self, name: &str) -> Vec<&FoundSkill> {
        self.skills.iter().filter(|s| s.name == name).collect()
    }
}

/// Finds the skills under `root`.
pub fn discover_skills(root: &Path) -> Discovery {
    let mut found = Finder {
        root,
        candidates: Vec::new(),
        warnings: Vec::new(),
    };
    found.marketplace();
    found.plugin_manifest();
    if is_regular_file(&root.join("SKILL.md")) {
        found.candidate(String::new(), None);
    }
    // `github:owner/repo/skills` names a folder of skills: its children count.
    found.children("", None);
    for base in ["skills", ".agents/skills", ".claude/skills"] {
        found.children(base, None);
    }
    found.finish()
}

struct Finder<'a> {
    root: &'a Path,
    /// Folders that may hold a skill, with the plugin that named them.
    candidates: Vec<(String, Option<String>)>,
    warnings: Vec<String>,
}

impl Finder<'_> {
    fn candidate(&mut self, path: String, plugin: Option<&str>) {
        self.candidates.push((path, plugin.map(str::to_owned)));
    }

    /// Adds every child folder of `base` that holds a SKILL.md.
    fn children(&mut self, base: &str, plugin: Option<&str>) {
        let Some(dir) = real_dir(self.root, base) else {
            return;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().into_string().ok())
            .take(MAX_LISTED_DIRS + 1)
            .collect();
        if names.len() > MAX_LISTED_DIRS {
            let shown = if base.is_empty() { "." } else { base };
            self.warnings.push(format!(
                "`{shown}` holds more than {MAX_LISTED_DIRS} folders; only the first {MAX_LISTED_DIRS} were searched"
            ));
            names.truncate(MAX_LISTED_DIRS);
        }
        names.sort();
        for name in names {
            let path = join(base, &name);
            if is_regular_file(&self.root.join(&path).join("SKILL.md")) {
                self.candidate(path, plugin);
            }
        }
    }

    /// `.claude-plugin/marketplace.json`: the skills of every local plugin.
    fn marketplace(&mut self) {
        let file = ".claude-plugin/marketplace.json";
        let Some(manifest) = self.read_json(file) else {
            return;
        };
        let plugin_root = match manifest.pointer("/metadata/pluginRoot") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => match relative(s) {
                Some(p) => p,
                None => {
                    self.warnings.push(format!(
                        "{file}: metadata.pluginRoot `{s}` is not a folder inside the repository; plugins skipped"
                    ));
                    return;
                }
            },
            Some(_) => {
                self.warnings.push(format!(
                    "{file}: metadata.pluginRoot is not a string; plugins skipped"
                ));
                return;
            }
        };
        let Some(plugins) = manifest.get("plugins").and_then(Value::as_array) else {
            self.warnings
                .push(format!("{file}: no `plugins` array; nothing listed there"));
            return;
        };
        for (i, plugin) in plugins.iter().take(MAX_PLUGINS).enumerate() {
            let name = plugin
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| format!("plugins[{i}]"));
            let base = match plugin.get("source") {
                None | Some(Value::Null) => Some(plugin_root.clone()),
                Some(Value::String(s)) => relative(s).map(|s| join(&plugin_root, &s)),
                Some(other) => {
                    let kind = other
                        .get("source")
                        .and_then(Value::as_str)
                        .unwrap_or("non-local");
                    self.warnings.push(format!(
                        "{file}: plugin `{name}` is hosted elsewhere ({kind} source); skipped: add that repository as its own source"
                    ));
                    continue;
                }
            };
            let Some(base) = base else {
                self.warnings.push(format!(
                    "{file}: plugin `{name}` has a source outside this repository; skipped"
                ));
                continue;
            };
            self.plugin_skills(&base, plugin.get("skills"), Some(&name), file);
        }
    }

    /// `.claude-plugin/plugin.json`: a single plugin at the root.
    fn plugin_manifest(&mut self) {
        let file = ".claude-plugin/plugin.json";
        let Some(manifest) = self.read_json(file) else {
            return;
        };
        let name = manifest
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.plugin_skills("", manifest.get("skills"), name.as_deref(), file);
    }

    /// A plugin folder's skills: its `skills` entries, `skills/*`, its root.
    fn plugin_skills(
        &mut self,
        base: &str,
        listed: Option<&Value>,
        plugin: Option<&str>,
        file: &str,
    ) {
        let listed: Vec<&str> = match listed {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(s)) => vec![s.as_str()],
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            Some(_) => {
                self.warnings.push(format!(
                    "{file}: `skills` of plugin `{}` is neither a path nor a list of paths; ignored",
                    plugin.unwrap_or("?")
                ));
                Vec::new()
            }
        };
        for entry in listed {
            let Some(rel) = relative(entry) else {
                self.warnings.push(format!(
                    "{file}: skill path `{entry}` leaves the plugin folder; ignored"
                ));
                continue;
            };
            let path = join(base, &rel);
            if is_regular_file(&self.root.join(&path).join("SKILL.md")) {
                self.candidate(path, plugin);
            } else {
                self.children(&path, plugin);
            }
        }
        if is_regular_file(&self.root.join(base).join("SKILL.md")) {
            self.candidate(base.to_owned(), plugin);
        }
        self.children(&join(base, "skills"), plugin);
    }

    fn read_json(&mut self, rel: &str) -> Option<Value> {
        let path = self.root.join(rel);
        if !is_regular_file(&path) {
            return None;
        }
        let mut text = String::new();
        let read = std::fs::File::open(&path)
            .and_then(|f| f.take(MAX_MANIFEST_BYTES + 1).read_to_string(&mut text));
        if let Err(e) = read {
            self.warnings.push(format!("{rel}: cannot read it: {e}"));
            return None;
        }
        if text.len() as u64 > MAX_MANIFEST_BYTES {
            self.warnings.push(format!(
                "{rel}: larger than {MAX_MANIFEST_BYTES} bytes; ignored"
            ));
            return None;
        }
        match serde_json::from_str(&text) {
            Ok(v) => Some(v),
            Err(e) => {
                self.warnings
                    .push(format!("{rel}: not valid JSON ({e}); ignored"));
                None
            }
        }
    }

    fn finish(mut self) -> Discovery {
        let mut seen = HashSet::new();
        let mut skills = Vec::new();
        let candidates = std::mem::take(&mut self.candidates);
        for (path, plugin) in candidates {
            if !seen.insert(path.clone()) {
                continue;
            }
            let Some(dir) = real_dir(self.root, &path) else {
                continue;
            };
            // Folder names and frontmatter are untrusted: escape what is shown.
            let shown = if path.is_empty() {
                ".".to_owned()
            } else {
                printable(&path)
            };
            let file = dir.join("SKILL.md");
            let mut text = String::new();
            let read = std::fs::File::open(&file)
                .and_then(|f| f.take(MAX_SKILL_MD_BYTES + 1).read_to_string(&mut text));
            if let Err(e) = read {
                self.warnings
                    .push(format!("skipped `{shown}`: cannot read SKILL.md: {e}"));
                continue;
            }
            if text.len() as u64 > MAX_SKILL_MD_BYTES {
                self.warnings.push(format!(
                    "skipped `{shown}`: SKILL.md is larger than {MAX_SKILL_MD_BYTES} bytes"
                ));
                continue;
            }
            let skill = match parse_skill_md(&text) {
                Ok(skill) => skill,
                Err(message) => {
                    self.warnings
                        .push(format!("skipped `{shown}`: SKILL.md: {message}"));
                    continue;
                }
            };
            if !is_valid_name(&skill.name) {
                self.warnings.push(format!(
                    "skipped `{shown}`: SKILL.md: name `{}` must be 1-64 lowercase letters, digits and single hyphens",
                    printable(&skill.name)
                ));
                continue;
            }
            let folder = path.rsplit('/').next().unwrap_or("");
            if !path.is_empty() && folder != skill.name {
                self.warnings.push(format!(
                    "`{shown}`: SKILL.md names the skill `{}`, not its folder name `{}`",
                    skill.name,
                    printable(folder)
                ));
            }
            skills.push(FoundSkill {
                name: skill.name,
                description: skill.description,
                path,
                plugin,
            });
        }
        skills.sort_by(|a, b| a.path.cmp(&b.path));
        let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for s in &skills {
            by_name.entry(&s.name).or_default().push(&s.path);
        }
        for (name, paths) in by_name.into_iter().filter(|(_, p)| p.len() > 1) {
            self.warnings.push(format!(
                "{} folders hold a skill named `{name}`: {}; name one with a subpath to choose",
                paths.len(),
                paths
                    .iter()
                    .map(|p| format!(
                        "`{}`",
                        if p.is_empty() {
                            ".".into()
                        } else {
                            printable(p)
                        }
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Discovery {
            skills,
            warnings: self.warnings,
        }
    }
}

/// A manifest path (`./x`, `x/y`, `./`) as a clean relative path; `None`
/// when it is absolute or climbs out with `..`.
fn relative(raw: &str) -> Option<String> {
    if raw.starts_with('/') || raw.contains('\\') || raw.contains(':') {
        return None;
    }
    let mut parts = Vec::new();
    for segment in raw.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

fn join(base: &str, rel: &str) -> String {
    match (base.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_owned(),
        (false, true) => base.to_owned(),
        (false, false) => format!("{base}/{rel}"),
    }
}

/// `root/rel` when every component of `rel` is a real folder (no links).
fn real_dir(root: &Path, rel: &str) -> Option<PathBuf> {
    let mut dir = root.to_owned();
    for segment in rel.split('/').filter(|s| !s.is_empty()) {
        dir.push(segment);
        let meta = std::fs::symlink_metadata(&dir).ok()?;
        if !meta.is_dir() {
            return None;
        }
    }
    Some(dir)
}

fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(relative("./").as_deref(), Some(""));
        assert_eq!(relative("./plugins/a/").as_deref(), Some("plugins/a"));
        assert_eq!(relative("plugins//a").as_deref(), Some("plugins/a"));
        assert_eq!(relative("../x"), None);
        assert_eq!(relative("/abs"), None);
        assert_eq!(relative("a/../../b"), None);
    }
}
