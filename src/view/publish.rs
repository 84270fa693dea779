//! The reports of `skillpm publish` (a static site, or `--oci` pushes) and
//! `skillpm keygen`.

use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::publish::sign::SignatureReport;
use crate::publish::{PublishedSkill, SkillSource};

/// The result of `skillpm publish`.
///
/// JSON shape (`--json`):
/// ```json
/// {"site": "/abs/site", "index": ".well-known/agent-skills/index.json",
///  "legacy_index": ".well-known/skills/index.json", "changed": true,
///  "skills": [{"name": "pdf-tools", "version": "1.2.0", "tree": "sha256:…",
///              "archive": {"path": ".well-known/agent-skills/pdf-tools.tar.gz",
///                          "digest": "sha256:…", "size": 1234},
///              "zip": null, "files": 7, "bytes": 9876}],
///  "signature": {"path": ".well-known/agent-skills/index.json.minisig",
///                "key_id": "0123456789ABCDEF", "public_key": "RW…", "version": 3,
///                "expires": "2030-01-01T00:00:00Z", "reused": false}}
/// ```
/// `changed` is false when the folder already held exactly this site (nothing
/// was written); `signature` is null without `--sign`; `reused` says the
/// previous signature still covered the unchanged index and was kept.
///
/// With `--dry-run`, `dry_run` is true, `changed` false, `signature` null,
/// `files` lists every file that would be published:
/// `[{"skill", "path", "size"}]`, and `left_out` every file or folder
/// (`path` ending in `/`) of the skill folders that would not be, and why:
/// `[{"skill", "path", "why"}]` (both absent otherwise, and when empty).
#[derive(Debug, Serialize)]
pub struct PublishReport {
    pub site: PathBuf,
    pub index: String,
    pub legacy_index: String,
    pub changed: bool,
    pub skills: Vec<PublishedSkill>,
    pub signature: Option<SignatureReport>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<ListedFile>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<ListedLeftOut>,
}

/// One file or folder `publish --dry-run` would leave out, and why.
#[derive(Debug, Serialize)]
pub struct ListedLeftOut {
    pub skill: String,
    pub path: String,
    pub why: String,
}

impl ListedLeftOut {
    /// What each of `sources` leaves out.
    pub fn all(sources: &[SkillSource]) -> Vec<ListedLeftOut> {
        (sources.iter())
            .flat_map(|s| {
                s.files.left_out.iter().map(|l| ListedLeftOut {
                    skill: s.name.clone(),
                    path: l.path.clone(),
                    why: l.why.clone(),
                })
            })
            .collect()
    }
}

/// One file `publish --dry-run` would publish.
#[derive(Debug, Serialize)]
pub struct ListedFile {
    pub skill: String,
    pub path: String,
    pub size: u64,
}

impl Report for PublishReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.dry_run {
            for f in &self.files {
                writeln!(out, "{:>10}  {}/{}", f.size, f.skill, f.path)?;
            }
            for l in &self.left_out {
                writeln!(out, "{:>10}  {}/{}: {}", "left out", l.skill, l.path, l.why)?;
            }
            let bytes: u64 = self.files.iter().map(|f| f.size).sum();
            return writeln!(
                out,
                "{} file{}, {bytes} bytes in {} skill{} would be published to {} (dry run: nothing written)",
                self.files.len(),
                super::plural(self.files.len()),
                self.skills.len(),
                super::plural(self.skills.len()),
                self.site.display()
            );
        }
        let count = self.skills.len();
        let state = if self.changed {
            ""
        } else {
            " (already up to date; nothing written)"
        };
        writeln!(
            out,
            "Published {count} skill{} to {}{state}",
            super::plural(count),
            self.site.display()
        )?;
        let width = self.skills.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in &self.skills {
            writeln!(
                out,
                "  {:width$}  {:>10}  {}  {} files, {} bytes",
                s.name,
                s.version.as_deref().unwrap_or("-"),
                s.archive.digest,
                s.files,
                s.bytes,
            )?;
        }
        match &self.signature {
            Some(sig) => {
                let expires = sig
                    .expires
                    .as_deref()
                    .map(|e| format!(", expires {e}"))
                    .unwrap_or_default();
                let reused = if sig.reused { ", signature kept" } else { "" };
                writeln!(
                    out,
                    "Signed by key {} (version {}{expires}{reused})",
                    sig.key_id, sig.version
                )?;
            }
            None => writeln!(
                out,
                "Not signed (pass --sign <secret key> so clients can pin your key)"
            )?,
        }
        let pin = self
            .signature
            .as_ref()
            .map(|sig| format!(" --key {}", sig.public_key))
            .unwrap_or_default();
        writeln!(out, "Upload the folder to any static host, then:")?;
        writeln!(out, "  skillpm source add <name> <site URL>{pin}")
    }
}

/// `--json`: `{"target": "oci://HOST/NS", "skills": [{"name", "reference":
/// "oci://HOST/NS/NAME@sha256:…", "manifest": "sha256:…", "layer": "sha256:…",
/// "tags": ["1.0.0", "latest"], "uploaded": 2}]}`; `uploaded` counts the blobs
/// whose bytes were sent (0: the registry had them all).
#[derive(Debug, Serialize)]
pub struct OciPublishReport {
    pub target: String,
    pub skills: Vec<crate::sources::oci::push::Pushed>,
}

impl Report for OciPublishReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let count = self.skills.len();
        writeln!(
            out,
            "Pushed {count} skill{} to {}",
            super::plural(count),
            self.target
        )?;
        for s in &self.skills {
            writeln!(out, "  {}  tags {}", s.reference, s.tags.join(", "))?;
            if s.uploaded == 0 {
                writeln!(out, "    (the registry had every blob; nothing uploaded)")?;
            }
        }
        writeln!(out, "Install with:")?;
        writeln!(out, "  skillpm add --source {} <name>", self.target)
    }
}

/// The result of `skillpm keygen`.
///
/// JSON shape: `{"secret_key": "/abs/k.key", "public_key_file": "/abs/k.pub",
/// "key_id": "0123456789ABCDEF", "public_key": "RW…", "encrypted": false}`.
/// Human output is the public key line alone, so `$(skillpm keygen …)` captures it.
#[derive(Debug, Serialize)]
pub struct KeygenReport {
    pub secret_key: PathBuf,
    pub public_key_file: PathBuf,
    pub key_id: String,
    pub public_key: String,
    pub encrypted: bool,
}

impl Report for KeygenReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.public_key)
    }
}

impl ListedFile {
    /// Every file of `sources`, as `publish --dry-run` lists them.
    pub fn all(sources: &[SkillSource]) -> Vec<ListedFile> {
        sources
            .iter()
            .flat_map(|s| {
                s.files.files.iter().map(|f| ListedFile {
                    skill: s.name.clone(),
                    path: f.path.clone(),
                    size: f.bytes.len() as u64,
                })
            })
            .collect()
    }
}
