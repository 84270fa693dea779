//! The approval summary (docs/design.md#approval): everything a reviewer needs to decide
//! whether an exact tree digest may be enabled, and on update what changed.
//!
//! This module only builds and renders the summary; asking the question is
//! the printer's `confirm`, and recording the answer is the lock's `approved` field.

use serde::Serialize;

use crate::digest::{Digest, HashedTree, TreeDiff, diff_trees};
use crate::escape::{Shown, Untrusted};
use crate::skill::SkillMd;
use crate::sources::candidate::{Dependency, Trust};

/// One file of the candidate, as the reviewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileLine {
    pub path: String,
    pub size: u64,
    pub executable: bool,
}

/// The change against the previously approved version, when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Update {
    pub approved_tree: Digest,
    /// `None` when the old content is no longer in the store to compare.
    pub files: Option<TreeDiff>,
    pub allowed_tools_before: Option<String>,
    pub signer_before: Option<String>,
}

/// The approval summary. Its JSON form is part of `--json` output of `add`,
/// `install` and `update` (field names are stable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub name: String,
    pub source: String,
    pub url: String,
    pub trust: Trust,
    pub artifact: Option<Digest>,
    pub tree: Digest,
    pub files: Vec<FileLine>,
    pub executables: Vec<String>,
    pub allowed_tools: Option<String>,
    /// Frontmatter `hooks` present: commands the agent runs around tool use.
    pub hooks: bool,
    /// Body lines that ask the agent host to run a shell command on load.
    pub shell_lines: Vec<String>,
    pub dependencies: Vec<Dependency>,
    pub update: Option<Update>,
    /// What the scanner found in this tree (docs/audit.md).
    pub findings: Vec<crate::audit::Finding>,
    /// The findings accepted for this tree (`rule@file:line`), recorded in
    /// skills.lock with the approval.
    pub accepted_findings: Vec<String>,
    /// Who built the artifact, as its Sigstore bundle proved in this run
    /// (`identity (issuer …, log entry N)`; docs/provenance.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
}

/// Everything known about a candidate, gathered by the caller.
pub struct ApprovalFacts<'a> {
    pub name: &'a str,
    pub source: &'a str,
    pub url: &'a str,
    pub trust: Trust,
    pub artifact: Option<Digest>,
    pub tree: &'a HashedTree,
    pub skill: &'a SkillMd,
    pub dependencies: Vec<Dependency>,
    /// The approved version, when this is an update.
    pub previous: Option<Previous<'a>>,
    /// The verified publisher, when the source declares one.
    pub publisher: Option<String>,
}

pub struct Previous<'a> {
    pub tree: Digest,
    pub hashed: Option<&'a HashedTree>,
    pub skill: Option<&'a SkillMd>,
    pub signer: Option<String>,
}

/// `allowed-tools` as one display string, or `None` when not declared.
pub fn allowed_tools(skill: &SkillMd) -> Option<String> {
    let tools = skill.allowed_tools();
    (!tools.is_empty()).then(|| tools.join(" "))
}

pub fn summarize(c: &ApprovalFacts<'_>) -> Summary {
    let allowed = allowed_tools(c.skill);
    let update = c.previous.as_ref().map(|p| Update {
        approved_tree: p.tree,
        files: p.hashed.map(|old| diff_trees(old, c.tree)),
        allowed_tools_before: p.skill.and_then(allowed_tools),
        signer_before: p.signer.clone(),
    });
    Summary {
        name: c.name.to_owned(),
        source: c.source.to_owned(),
        url: c.url.to_owned(),
        trust: c.trust.clone(),
        artifact: c.artifact,
        tree: c.tree.digest,
        files: c
            .tree
            .files
            .iter()
            .map(|f| FileLine {
                path: f.path.clone(),
                size: f.size,
                executable: f.executable,
            })
            .collect(),
        executables: c.tree.executables(),
        allowed_tools: allowed,
        hooks: c.skill.hooks().is_some(),
        shell_lines: c
            .skill
            .shell_commands()
            .into_iter()
            .map(|cmd| format!("SKILL.md line {}: {}", cmd.line, cmd.command))
            .collect(),
        dependencies: c.dependencies.clone(),
        update,
        findings: Vec::new(),
        accepted_findings: Vec::new(),
        publisher: c.publisher.clone(),
    }
}

impl Summary {
    /// The human rendering, for stderr before the question is asked.
    /// `paint(text, sgr)` styles a part; the caller's printer decides
    /// whether colour is on (this module never looks at the terminal).
    /// Every value from the skill, its source or the lock is one escaped
    /// field (`Untrusted`): it can neither move the cursor nor start a
    /// line of its own.
    pub fn render(&self, paint: &dyn Fn(&str, &'static str) -> Shown) -> Shown {
        let mut s = paint(&self.name, "1");
        let line = |s: &mut Shown, text: String| s.push(text + "\n");
        line(
            &mut s,
            format!(
                "  from {} ({})",
                Untrusted(&self.source),
                Untrusted(&self.url)
            ),
        );
        line(&mut s, format!("  trust:       {}", self.trust.describe()));
        if let Some(p) = &self.publisher {
            line(
                &mut s,
                format!("  publisher:   {} (Sigstore, verified)", Untrusted(p)),
            );
        }
        if let Some(a) = &self.artifact {
            line(&mut s, format!("  artifact:    {a}"));
        }
        line(&mut s, format!("  tree:        {}", self.tree));
        let total: u64 = self.files.iter().map(|f| f.size).sum();
        line(
            &mut s,
            format!("  files:       {} ({} bytes)", self.files.len(), total),
        );
        for f in &self.files {
            let x = if f.executable { " (executable)" } else { "" };
            line(
                &mut s,
                format!("    {:>9}  {}{x}", f.size, Untrusted(&f.path)),
            );
        }
        let flagged = |s: &mut Shown, label: &str, text: String| {
            s.push("  ");
            s.push(paint(label, "33"));
            s.push(format!(" {text}\n"));
        };
        if !self.executables.is_empty() {
            let runs: Vec<String> = self
                .executables
                .iter()
                .map(|e| Untrusted(e).to_string())
                .collect();
            flagged(&mut s, "runs:", runs.join(", "));
        }
        if let Some(tools) = &self.allowed_tools {
            flagged(&mut s, "allowed-tools:", Untrusted(tools).to_string());
        }
        if self.hooks {
            flagged(&mut s, "hooks:", "frontmatter declares hooks".into());
        }
        for l in &self.shell_lines {
            flagged(&mut s, "shell on load:", Untrusted(l).to_string());
        }
        for d in &self.dependencies {
            let state = if d.present { "present" } else { "MISSING here" };
            line(
                &mut s,
                format!(
                    "  needs {} {} ({state})",
                    Untrusted(&d.kind),
                    Untrusted(&d.name)
                ),
            );
        }
        self.render_findings(paint, &mut s);
        if let Some(u) = &self.update {
            self.render_update(u, paint, &mut s);
        }
        s
    }

    /// The audit findings: each one at `medium` or above, a count of the
    /// `low` ones (teaching text, mentions).
    fn render_findings(&self, paint: &dyn Fn(&str, &'static str) -> Shown, s: &mut Shown) {
        if self.findings.is_empty() {
            s.push("  audit:       no findings\n");
            return;
        }
        let low = self
            .findings
            .iter()
            .filter(|f| f.severity == crate::audit::Severity::Low)
            .count();
        s.push("  ");
        s.push(paint("audit:      ", "33"));
        s.push(format!(
            " {} finding{}{}\n",
            self.findings.len(),
            if self.findings.len() == 1 { "" } else { "s" },
            if low > 0 {
                format!(" ({low} low: explained or mentioned, not run)")
            } else {
                String::new()
            }
        ));
        for f in self
            .findings
            .iter()
            .filter(|f| f.severity > crate::audit::Severity::Low)
        {
            let accepted = if self.accepted_findings.contains(&f.key()) {
                " (accepted)"
            } else {
                ""
            };
            // The excerpt and the place are the skill's own text.
            s.push(format!(
                "    {:<8} {} {}: {}{accepted}\n",
                f.severity.as_str(),
                f.rule,
                Untrusted(&f.place()),
                Untrusted(&f.excerpt)
            ));
            s.push(format!("             {}\n", f.why));
        }
    }

    /// What changed since the approved tree: files, executables, and the
    /// allowed tools and signer when they differ.
    fn render_update(
        &self,
        u: &Update,
        paint: &dyn Fn(&str, &'static str) -> Shown,
        s: &mut Shown,
    ) {
        let flagged = |s: &mut Shown, label: &str, text: String| {
            s.push("    ");
            s.push(paint(label, "33"));
            s.push(format!(" {text}\n"));
        };
        s.push(format!("  update from approved {}\n", u.approved_tree));
        match &u.files {
            Some(d) if d.is_empty() => s.push("    no file changes\n"),
            Some(d) => {
                for (mark, paths) in [("+", &d.added), ("-", &d.removed), ("~", &d.changed)] {
                    for p in paths {
                        s.push(format!("    {mark} {}\n", Untrusted(p)));
                    }
                }
                for p in &d.executables_added {
                    flagged(s, "now executable:", Untrusted(p).to_string());
                }
                for p in &d.executables_removed {
                    s.push(format!("    no longer executable: {}\n", Untrusted(p)));
                }
            }
            None => s.push("    (approved content not in the cache: file diff unavailable)\n"),
        }
        let or = |v: Option<&str>, none: &'static str| {
            v.map_or(none.to_owned(), |v| Untrusted(v).to_string())
        };
        if u.allowed_tools_before != self.allowed_tools {
            flagged(
                s,
                "allowed-tools changed:",
                format!(
                    "{} -> {}",
                    or(u.allowed_tools_before.as_deref(), "(none)"),
                    or(self.allowed_tools.as_deref(), "(none)")
                ),
            );
        }
        if u.signer_before.as_deref() != self.trust.signer() {
            flagged(
                s,
                "signer changed:",
                format!(
                    "{} -> {}",
                    or(u.signer_before.as_deref(), "(unsigned)"),
                    or(self.trust.signer(), "(unsigned)")
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::TreeFile;

    fn file(path: &str, content: &[u8], executable: bool) -> TreeFile {
        TreeFile {
            path: path.into(),
            size: content.len() as u64,
            digest: Digest::of_bytes(content),
            executable,
        }
    }

    #[test]
    fn diff_reports_added_removed_changed_and_executable_bits() {
        let old = HashedTree::from_files(vec![
            file("SKILL.md", b"a", false),
            file("scripts/run.sh", b"x", false),
            file("gone.txt", b"g", false),
        ]);
        let new = HashedTree::from_files(vec![
            file("SKILL.md", b"b", false),
            file("scripts/run.sh", b"x", true),
            file("scripts/new.sh", b"n", true),
        ]);
        let d = diff_trees(&old, &new);
        assert_eq!(d.added, ["scripts/new.sh"]);
        assert_eq!(d.removed, ["gone.txt"]);
        assert_eq!(d.changed, ["SKILL.md"]);
        assert_eq!(d.executables_added, ["scripts/new.sh", "scripts/run.sh"]);
        assert!(diff_trees(&new, &new).is_empty());
    }

    #[test]
    fn summary_flags_what_runs_or_reaches_out() {
        let skill = crate::skill::parse_skill_md(
            "---\nname: deploy\ndescription: Ship it\nallowed-tools: Bash(git:*) Read\nhooks:\n  PreToolUse: []\n---\nRun this:\n!`git status`\nplain text\n",
        )
        .unwrap();
        let t = HashedTree::from_files(vec![
            file("SKILL.md", b"a", false),
            file("run.sh", b"r", true),
        ]);
        let s = summarize(&ApprovalFacts {
            name: "deploy",
            source: "acme",
            url: "https://x/index.json",
            trust: Trust::Signed { key: "ABCD".into() },
            artifact: None,
            tree: &t,
            skill: &skill,
            dependencies: vec![Dependency {
                kind: "env_var".into(),
                name: "DEPLOY_TOKEN".into(),
                present: false,
            }],
            previous: None,
            publisher: None,
        });
        assert_eq!(s.allowed_tools.as_deref(), Some("Bash(git:*) Read"));
        assert!(s.hooks);
        assert_eq!(s.shell_lines.len(), 1, "{:?}", s.shell_lines);
        assert!(
            s.shell_lines[0].ends_with("git status"),
            "{:?}",
            s.shell_lines
        );
        assert_eq!(s.executables, ["run.sh"]);
        let text = s.render(&|text, _| Shown::from(text)).to_string();
        assert!(text.contains("DEPLOY_TOKEN (MISSING here)"), "{text}");
        assert!(text.contains("shell on load: SKILL.md line"), "{text}");
    }
}
