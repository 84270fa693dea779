//! Finding the skills in a checked-out repository or a plain folder.
//!
//! One bounded walk (depth [`MAX_DEPTH`], at most [`MAX_WALKED_DIRS`]
//! folders, never through a symbolic link, never into `.git`,
//! `node_modules`, `dist`, `build`, `__pycache__`, nor into a skill's own
//! folder) collects every folder holding a `SKILL.md`. What it finds is
//! kept in the conventions repositories use today:
//! - `SKILL.md` at the root: the root *is* one skill, and only it counts;
//! - the usual places: `*/`, `skills/*/`, category folders `skills/<c>/*/`
//!   (dot-named ones included: `skills/.curated`, `.system`,
//!   `.experimental`), and the agent folders `.<agent>/skills/*/`
//!   (`.agents`, `.claude`, `.codex`, `.cursor`, `.github`, …);
//! - Claude Code plugin marketplaces: `.claude-plugin/marketplace.json`
//!   lists `plugins[]` whose `source` is a folder of this repository
//!   (relative to the root, after `metadata.pluginRoot`); each plugin's
//!   skills are its `skills` entries (a skill folder, or a folder of skill
//!   folders), its `skills/*/SKILL.md` and a `SKILL.md` at its root. Plugins
//!   hosted elsewhere are skipped with a warning; a single plugin's
//!   `.claude-plugin/plugin.json` `skills` entries likewise;
//! - anywhere else in the walk (a nested monorepo's `packages/x/skills/y`):
//!   used only when the usual places hold nothing, as the vercel `skills`
//!   CLI does, and otherwise mentioned in a warning.
//!
//! Lenient like every discovery (docs/design.md#skills): a skill that cannot be loaded
//! is listed in `skipped` with the reason, never fatal to the rest. Two
//! folders claiming one name are both kept and reported, never merged.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::{is_valid_name, parse_skill_md, printable};

/// Bounds that keep discovery cheap on hostile or huge trees (the client
/// guidance suggests a depth of 4–6 and a folder budget).
pub const MAX_DEPTH: usize = 6;
pub const MAX_WALKED_DIRS: usize = 2_000;
/// Folders never walked: version control, dependencies, build output.
pub const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "dist", "build", "__pycache__"];
const MAX_LISTED_DIRS: usize = 2_000;
const MAX_PLUGINS: usize = 1_000;
const MAX_MANIFEST_BYTES: u64 = 1 << 20;
const MAX_SKILL_MD_BYTES: u64 = 1 << 20;

/// One skill found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoSkill {
    pub name: String,
    pub description: String,
    /// Its folder relative to the discovery root, `/`-separated; `""` when
    /// the root itself is the skill.
    pub path: String,
    /// The marketplace plugin that lists it, when found through one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
}

/// A folder holding a SKILL.md that cannot be offered, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedSkill {
    /// Relative to the discovery root, `/`-separated; `""` for the root.
    pub path: String,
    pub reason: String,
}

/// Everything discovery found, and what it skipped and why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RepoDiscovery {
    /// Sorted by path.
    pub skills: Vec<RepoSkill>,
    /// Folders with a SKILL.md that cannot be loaded.
    pub skipped: Vec<SkippedSkill>,
    pub warnings: Vec<String>,
    /// Folders the walk looked at (for "found nothing" messages).
    pub walked: usize,
}

impl RepoDiscovery {
    /// The skills named `name` (more than one when two folders claim it).
    pub fn named(&self, name: &str) -> Vec<&RepoSkill> {
        self.skills.iter().filter(|s| s.name == name).collect()
    }

    /// Names claimed by more than one folder, with those folders.
    pub fn duplicates(&self) -> BTreeMap<&str, Vec<&str>> {
        let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for s in &self.skills {
            by_name.entry(&s.name).or_default().push(&s.path);
        }
        by_name.retain(|_, paths| paths.len() > 1);
        by_name
    }
}

/// Finds the skills under `root`.
pub fn discover_skills(root: &Path) -> RepoDiscovery {
    let (found, walked) = gather(root);
    found.finish(walked)
}

/// Whether [`discover_skills`] would find a skill or a folder it skips under
/// `root`, without reading a SKILL.md: how a folder source is recognised
/// before it is opened (and discovered) once (docs/performance.md).
pub fn finds_anything(root: &Path) -> bool {
    let (found, _) = gather(root);
    !found.skipped.is_empty()
        || found.links > 0
        || (found.candidates.iter()).any(|(path, _)| real_dir(root, path).is_some())
}

/// The candidate folders under `root` (and the folders walked), before any
/// SKILL.md is read.
fn gather(root: &Path) -> (Finder<'_>, usize) {
    let mut found = Finder {
        root,
        candidates: Vec::new(),
        skipped: Vec::new(),
        warnings: Vec::new(),
        links: 0,
    };
    if is_regular_file(&root.join("SKILL.md")) {
        // `github:owner/repo/skills/pdf`: the folder is the skill.
        found.candidate(String::new(), None);
        return (found, 0);
    }
    if root.join("SKILL.md").is_symlink() {
        found.linked(&[String::new()]);
        return (found, 0);
    }
    found.marketplace();
    found.plugin_manifest();
    let walk = walk(root);
    let (usual, elsewhere): (Vec<String>, Vec<String>) =
        walk.skill_dirs.into_iter().partition(|p| is_usual_place(p));
    for path in usual {
        found.candidate(path, None);
    }
    let known: HashSet<&str> = found.candidates.iter().map(|(p, _)| p.as_str()).collect();
    let elsewhere: Vec<String> = elsewhere
        .into_iter()
        .filter(|p| !known.contains(p.as_str()))
        .collect();
    if found.candidates.is_empty() {
        for path in elsewhere {
            found.candidate(path, None);
        }
    } else if !elsewhere.is_empty() {
        found.warnings.push(format!(
            "{} more SKILL.md outside the usual folders ignored (first: `{}`); point --path at one to use it",
            elsewhere.len(),
            printable(&elsewhere[0])
        ));
    }
    found.linked(&walk.linked);
    if walk.truncated {
        found.warnings.push(format!(
            "stopped looking after {MAX_WALKED_DIRS} folders; point --path at the folder holding the skills"
        ));
    }
    (found, walk.walked)
}

/// Whether a skill folder sits where collections put skills: directly
/// under the root or a category folder of it, under `skills/` (or a category
/// folder of it), or under an agent's `.<agent>/skills/`.
fn is_usual_place(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        // A folder of category folders (`.curated/x`, `tools/x`) too.
        [_] | [_, _] | ["skills", _, _] => true,
        [agent, "skills", _] => agent.starts_with('.'),
        [agent, "skills", _, _] => agent.starts_with('.'),
        _ => false,
    }
}

/// The folders holding a SKILL.md, in walk order.
struct Walk {
    skill_dirs: Vec<String>,
    /// Folders whose SKILL.md is a symbolic link (never followed).
    linked: Vec<String>,
    walked: usize,
    truncated: bool,
}

/// Breadth-first, bounded, no links followed, no descent into a skill.
fn walk(root: &Path) -> Walk {
    let mut out = Walk {
        skill_dirs: Vec::new(),
        linked: Vec::new(),
        walked: 0,
        truncated: false,
    };
    let mut queue = std::collections::VecDeque::from([(String::new(), 0usize)]);
    while let Some((rel, depth)) = queue.pop_front() {
        if out.walked >= MAX_WALKED_DIRS {
            out.truncated = true;
            break;
        }
        out.walked += 1;
        let mut children: Vec<String> = child_dirs(&root.join(&rel))
            .filter(|n| !SKIPPED_DIRS.contains(&n.as_str()))
            .collect();
        children.sort();
        for name in children {
            let path = join(&rel, &name);
            let skill_md = root.join(&path).join("SKILL.md");
            if is_regular_file(&skill_md) {
                out.skill_dirs.push(path);
            } else if skill_md.is_symlink() {
                out.linked.push(path);
            } else if depth + 1 < MAX_DEPTH {
                queue.push_back((path, depth + 1));
            }
        }
    }
    out
}

struct Finder<'a> {
    root: &'a Path,
    /// Folders that may hold a skill, with the plugin that named them.
    candidates: Vec<(String, Option<String>)>,
    skipped: Vec<SkippedSkill>,
    warnings: Vec<String>,
    /// Folders whose SKILL.md is a symbolic link ([`Finder::linked`]).
    links: usize,
}

impl Finder<'_> {
    fn candidate(&mut self, path: String, plugin: Option<&str>) {
        self.candidates.push((path, plugin.map(str::to_owned)));
    }

    /// One warning for the folders whose SKILL.md is a symbolic link: a
    /// skill's files are read without following links, so those folders
    /// are no skills, and "no skill found" alone would not say why.
    fn linked(&mut self, paths: &[String]) {
        let Some(first) = paths.first() else {
            return;
        };
        self.links += paths.len();
        let file = if first.is_empty() {
            "SKILL.md".to_owned()
        } else {
            format!("{first}/SKILL.md")
        };
        let target = std::fs::read_link(self.root.join(&file))
            .map_or_else(|_| "?".to_owned(), |t| t.to_string_lossy().into_owned());
        let missing = if self.root.join(&file).exists() {
            ""
        } else {
            " (it does not exist)"
        };
        let link = format!(
            "`{}` links to `{}`{missing}",
            printable(&file),
            printable(&target)
        );
        let what = match paths.len() {
            1 => format!("{link} and is not followed"),
            n => format!("{n} SKILL.md are symbolic links and are not followed ({link})"),
        };
        self.warnings.push(format!(
            "{what}; a skill's files are read without following links: put the file itself in place of the link"
        ));
    }

    /// Adds every child folder of `base` that holds a SKILL.md.
    fn children(&mut self, base: &str, plugin: Option<&str>) {
        let Some(dir) = real_dir(self.root, base) else {
            return;
        };
        let mut names: Vec<String> = child_dirs(&dir).take(MAX_LISTED_DIRS + 1).collect();
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
        let text = match crate::fs::read_bounded(&path, MAX_MANIFEST_BYTES) {
            Ok(Some(text)) => text,
            Ok(None) => {
                self.warnings.push(format!(
                    "{rel}: larger than {MAX_MANIFEST_BYTES} bytes; ignored"
                ));
                return None;
            }
            Err(e) => {
                self.warnings.push(format!("{rel}: cannot read it: {e}"));
                return None;
            }
        };
        match serde_json::from_str(&text) {
            Ok(v) => Some(v),
            Err(e) => {
                self.warnings
                    .push(format!("{rel}: not valid JSON ({e}); ignored"));
                None
            }
        }
    }

    fn skip(&mut self, path: &str, reason: String) {
        self.skipped.push(SkippedSkill {
            path: path.to_owned(),
            reason,
        });
    }

    fn finish(mut self, walked: usize) -> RepoDiscovery {
        let mut seen = HashSet::new();
        let mut skills = Vec::new();
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.retain(|(path, _)| seen.insert(path.clone()));
        // Each SKILL.md is read and parsed on every core (a collection of
        // 500 was read on one thread before anything else could start,
        // docs/performance.md); what each gave is taken in the listing's order.
        let root = self.root;
        let read = crate::fs::parallel::map(&candidates, |(path, _)| {
            real_dir(root, path).map(|dir| read_skill(&dir))
        });
        for ((path, plugin), read) in candidates.into_iter().zip(read) {
            let skill = match read {
                None => continue,
                Some(Ok(skill)) => skill,
                Some(Err(reason)) => {
                    self.skip(&path, reason);
                    continue;
                }
            };
            skills.push(RepoSkill {
                name: skill.name,
                description: skill.description,
                path,
                plugin,
            });
        }
        skills.sort_by(|a, b| a.path.cmp(&b.path));
        for skipped in &self.skipped {
            self.warnings.push(format!(
                "skipped `{}`: {}",
                shown(&skipped.path),
                skipped.reason
            ));
        }
        let mut discovery = RepoDiscovery {
            skills,
            skipped: self.skipped,
            warnings: self.warnings,
            walked,
        };
        let mut twins = Vec::new();
        for (name, paths) in discovery.duplicates() {
            let listed: Vec<String> = paths.iter().map(|p| format!("`{}`", shown(p))).collect();
            twins.push(format!(
                "{} folders hold a skill named `{name}`: {}; neither is installed by that name alone: choose one with --path",
                paths.len(),
                listed.join(", ")
            ));
        }
        discovery.warnings.extend(twins);
        discovery
    }
}

/// A folder as shown to people: `.` for the root; folder names are
/// untrusted, so what is shown is escaped.
fn shown(path: &str) -> String {
    if path.is_empty() {
        ".".to_owned()
    } else {
        printable(path)
    }
}

/// The skill a candidate folder's SKILL.md declares, or why the folder is
/// skipped (unreadable, too large, no frontmatter, a name unfit for a folder).
fn read_skill(dir: &Path) -> Result<crate::SkillMd, String> {
    // One read for a typical SKILL.md: `take` alone gives no size hint,
    // and growing from nothing cost five (docs/performance.md).
    let text = crate::fs::read_bounded(&dir.join("SKILL.md"), MAX_SKILL_MD_BYTES)
        .map_err(|e| format!("cannot read SKILL.md: {e}"))?
        .ok_or_else(|| format!("SKILL.md is larger than {MAX_SKILL_MD_BYTES} bytes"))?;
    let skill = parse_skill_md(&text).map_err(|message| format!("SKILL.md: {message}"))?;
    if !is_valid_name(&skill.name) {
        return Err(format!(
            "SKILL.md: `name` `{}` is not 1-64 lowercase letters, digits and single hyphens, so it cannot name a folder safely",
            printable(&skill.name)
        ));
    }
    Ok(skill)
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

/// `base/rel`, either of which may be `""` (the root).
pub fn join(base: &str, rel: &str) -> String {
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

/// The UTF-8 names of the folders in `dir` (none when it cannot be read).
fn child_dirs(dir: &Path) -> impl Iterator<Item = String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
}

fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &Path, rel: &str, name: &str) {
        let dir = root.join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\n"),
        )
        .unwrap();
    }

    fn paths(d: &RepoDiscovery) -> Vec<&str> {
        d.skills.iter().map(|s| s.path.as_str()).collect()
    }

    #[test]
    fn usual_places() {
        for p in [
            "a",
            "cat/a",
            "skills/a",
            "skills/.curated/a",
            ".claude/skills/a",
            ".codex/skills/x/a",
        ] {
            assert!(is_usual_place(p), "{p}");
        }
        for p in [
            "packages/app/skills/a",
            "a/b/c",
            "x/skills/a/b",
            "docs/x/y/z",
        ] {
            assert!(!is_usual_place(p), "{p}");
        }
    }

    #[test]
    fn the_walk_is_bounded_and_skips_build_output_and_links() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        skill(root, "packages/app/skills/deploy", "deploy");
        skill(root, "node_modules/dep/skills/hidden", "hidden");
        skill(root, "dist/skills/built", "built");
        // Deeper than MAX_DEPTH folders: never reached.
        skill(root, "a/b/c/d/e/f/g/deep", "deep");
        // A skill inside a skill is the outer skill's file, not a skill.
        skill(root, "packages/app/skills/deploy/examples/inner", "inner");
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("packages"), root.join("linked")).unwrap();
        let d = discover_skills(root);
        assert_eq!(paths(&d), ["packages/app/skills/deploy"], "{d:?}");
        // The fallback is not used when the usual places hold a skill.
        skill(root, "skills/top", "top");
        let d = discover_skills(root);
        assert_eq!(paths(&d), ["skills/top"], "{d:?}");
        assert!(
            d.warnings.iter().any(|w| w.contains("1 more SKILL.md")),
            "{d:?}"
        );
    }

    #[test]
    fn the_walk_stops_at_the_folder_budget() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..MAX_WALKED_DIRS + 5 {
            std::fs::create_dir_all(t.path().join(format!("d{i:05}"))).unwrap();
        }
        let d = discover_skills(t.path());
        assert_eq!(d.walked, MAX_WALKED_DIRS);
        assert!(
            d.warnings.iter().any(|w| w.contains("stopped looking")),
            "{d:?}"
        );
    }

    #[test]
    fn a_root_skill_is_the_only_skill() {
        let t = tempfile::tempdir().unwrap();
        skill(t.path(), "", "root");
        skill(t.path(), "skills/other", "other");
        let d = discover_skills(t.path());
        assert_eq!(paths(&d), [""]);
    }

    /// `finds_anything` (no SKILL.md read) says what discovery would.
    #[test]
    fn finds_anything_agrees_with_discovery() {
        let agree = |root: &Path| {
            let d = discover_skills(root);
            let found = !d.skills.is_empty() || !d.skipped.is_empty();
            assert_eq!(finds_anything(root), found, "{d:?}");
            found
        };
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        assert!(!agree(root), "an empty folder");
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::write(root.join("docs/README.md"), "# no skill\n").unwrap();
        assert!(!agree(root), "a folder without SKILL.md");
        std::fs::create_dir_all(root.join("skills/bad")).unwrap();
        std::fs::write(root.join("skills/bad/SKILL.md"), "no frontmatter\n").unwrap();
        assert!(agree(root), "a folder discovery skips");
        skill(root, "skills/good", "good");
        assert!(agree(root), "a skill");
    }

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
