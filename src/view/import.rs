//! The report of `skillpm import`: one row per record another tool kept.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Report;
use crate::agents::other_tools::Found;
use crate::error::Exit;
use crate::escape::Untrusted;
use crate::placement::{FileChanges, LinkChanges, Replaced};

/// JSON shape (stable):
/// ```json
/// {"dry_run": false,
///  "files": ["/work/app/skills-lock.json"],
///  "skills": [{"name": "pdf-tools", "tool": "vercel-skills",
///              "file": "/work/app/skills-lock.json", "source": "github:acme/skills",
///              "ref": null, "status": "re-resolved", "tree": "sha256:…",
///              "detail": "no commit recorded; resolved again", "left_in_place": []}]}
/// ```
/// `status`: `planned` (dry run), `imported` (the old tool pinned enough to
/// reproduce it), `re-resolved` (it did not; resolved again now),
/// `not-found` (the source no longer offers it), `failed` (`detail` says
/// why), `skipped` (a second record of a name already imported).
/// `left_in_place` lists the other tool's folders skillpm did not replace,
/// `differences` how each differs from the locked tree (`changed`/`added`/
/// `removed` + file); `adopted` the ones that held exactly the locked tree
/// and are skillpm's now; `replaced` the ones `--replace` took over, with
/// their backups; `hand_off` (pnpm rows) what the other tool does again
/// unless told not to, and the setting that stops it.
/// `tool`: `vercel-skills`, `vercel-skills-global`, `openskills`,
/// `skillkit` (its lock), `skillkit-manifest` (its `.skills`; a whole-source
/// entry plans as `name` `*` and imports as one row per skill), `gh-skill`
/// (a folder `gh skill install` wrote; `imported` once skillpm's tree at the
/// resolved commit is what gh installed, but for gh's own keys), `pnpm` (a
/// link pnpm made into `node_modules`; a folder source).
#[derive(Debug, Serialize)]
pub struct ImportReport {
    pub dry_run: bool,
    pub files: Vec<PathBuf>,
    pub skills: Vec<ImportedSkill>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportedSkill {
    pub name: String,
    pub tool: &'static str,
    pub file: PathBuf,
    pub source: String,
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
    pub status: &'static str,
    pub tree: Option<String>,
    pub detail: String,
    pub left_in_place: Vec<PathBuf>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<FileChanges>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adopted: Vec<PathBuf>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<Replaced>,
    /// Dry run: folders already at the skill's name in the agent folders
    /// it would be placed in (adopted when they hold exactly what skillpm
    /// resolves; else kept, or replaced with `--replace`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<PathBuf>,
    /// What the other tool will do again unless told not to, and how to
    /// tell it (pnpm): the migration's last step, which skillpm leaves to
    /// the person because the file is the other tool's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_off: Option<String>,
}

impl ImportReport {
    /// 8 when nothing could be imported because nothing was found.
    pub fn exit(&self) -> Exit {
        if self.skills.iter().any(|s| s.status == "failed") {
            Exit::Other
        } else if !self.skills.is_empty() && self.skills.iter().all(|s| s.status == "not-found") {
            Exit::NotFound
        } else {
            Exit::Success
        }
    }
}

impl ImportedSkill {
    /// The report row of a record before anything is added.
    pub fn planned(f: &Found) -> ImportedSkill {
        let detail = if let Some(detail) = &f.detail {
            detail.as_str()
        } else if f.all {
            "every skill the source offers; no commit recorded"
        } else if f
            .git_ref
            .as_deref()
            .is_some_and(crate::agents::other_tools::is_commit)
        {
            "commit recorded; pinned to it"
        } else {
            "no commit recorded; resolved again"
        };
        ImportedSkill {
            name: f.name.clone(),
            tool: f.tool,
            file: f.file.clone(),
            source: f.source.clone(),
            git_ref: f.git_ref.clone(),
            status: "planned",
            detail: detail.to_owned(),
            hand_off: f.hand_off.clone(),
            ..Default::default()
        }
    }
}

impl ImportedSkill {
    /// What the link pass did with the other tool's folders of the skill
    /// (`wanted` picks its places), each path once.
    pub fn take_placements(&mut self, links: &LinkChanges, wanted: &dyn Fn(&Path) -> bool) {
        let row = self;
        for c in links.conflicts.iter().filter(|c| wanted(&c.path)) {
            if !row.left_in_place.contains(&c.path) {
                row.left_in_place.push(c.path.clone());
                row.differences.push(c.clone());
            }
        }
        for p in links.adopted.iter().filter(|p| wanted(p)) {
            if !row.adopted.contains(p) {
                row.adopted.push(p.clone());
            }
        }
        for r in links.replaced.iter().filter(|r| wanted(&r.path)) {
            if !row.replaced.iter().any(|x| x.path == r.path) {
                row.replaced.push(r.clone());
            }
        }
    }
}

impl Report for ImportReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.files.is_empty() {
            return writeln!(
                out,
                "nothing to import: no skills-lock.json, ~/.agents/.skill-lock.json, .openskills.json, ~/.skillkit/lock.json, .skills, gh skill install or pnpm link found"
            );
        }
        // Names, sources, details and paths come from the other tools' files
        // and folders, which anyone can edit: each is one field, its line
        // breaks escaped, so no record can print a row of its own
        // (docs/output.md).
        let path = crate::escape::path_field;
        for f in &self.files {
            writeln!(out, "read {}", path(f))?;
        }
        for s in &self.skills {
            writeln!(
                out,
                "{:<11}  {}  ({} from {}): {}",
                s.status,
                Untrusted(&s.name),
                s.tool,
                Untrusted(&s.source),
                Untrusted(&s.detail)
            )?;
            for p in &s.found {
                writeln!(
                    out,
                    "             found: {} (adopted if it holds exactly what skillpm resolves; else kept, or backed up and replaced with --replace)",
                    path(p)
                )?;
            }
            for p in &s.adopted {
                writeln!(
                    out,
                    "             adopted: {} (it held exactly the locked tree; skillpm's now)",
                    path(p)
                )?;
            }
            for r in &s.replaced {
                writeln!(
                    out,
                    "             replaced: {} (the old folder is backed up at {})",
                    path(&r.path),
                    path(&r.backup)
                )?;
            }
            for d in &s.differences {
                let how = if d.files.is_empty() {
                    "its content differs".to_owned()
                } else {
                    Untrusted(&d.files.join(", ")).to_string()
                };
                writeln!(
                    out,
                    "             left in place: {} (not skillpm's, and it differs from the locked tree: {how}); `skillpm import --replace` backs it up and takes it over",
                    path(&d.path)
                )?;
            }
            if let Some(then) = s.hand_off.as_ref().filter(|_| s.status != "skipped") {
                writeln!(out, "             then: {}", Untrusted(then))?;
            }
        }
        if self.dry_run {
            writeln!(out, "dry run: nothing was changed")?;
        }
        Ok(())
    }
}
