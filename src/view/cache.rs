//! The reports of `skillpm cache …`.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::digest::Digest;
use crate::escape::{Untrusted, path_field};
use crate::store::{CleanOutcome, GcOutcome, VerifyOutcome};
use crate::unpack::Size;

/// `cache dir` JSON: `{"path": "/home/u/.cache/skillpm"}`.
#[derive(Debug, Serialize)]
pub struct CacheDirReport {
    pub path: PathBuf,
}

impl Report for CacheDirReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.path.display())
    }
}

/// `cache verify` JSON: `{"cache": path, "entries_checked": n, "downloads_checked": n,
/// "debris_removed": n, "problems": [{"item": "store/sha256-…", "problem": "…",
/// "moved_to": path|null}]}`. Exit 3 when `problems` is not empty.
#[derive(Debug, Serialize)]
pub struct CacheVerifyReport {
    pub cache: PathBuf,
    #[serde(flatten)]
    pub outcome: VerifyOutcome,
}

impl CacheVerifyReport {
    pub fn is_clean(&self) -> bool {
        self.outcome.problems.is_empty()
    }
}

impl Report for CacheVerifyReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let o = &self.outcome;
        for p in &o.problems {
            match &p.moved_to {
                // Names of what a cache writer left: one field each.
                Some(to) => writeln!(
                    out,
                    "{}: {} (moved to {})",
                    Untrusted(&p.item),
                    Untrusted(&p.problem),
                    path_field(to)
                )?,
                None => writeln!(out, "{}: {}", Untrusted(&p.item), Untrusted(&p.problem))?,
            }
        }
        if o.debris_removed > 0 {
            writeln!(
                out,
                "removed {} leftover(s) of interrupted runs",
                o.debris_removed
            )?;
        }
        let verdict = if self.is_clean() {
            "all intact".to_owned()
        } else {
            format!("{} problem(s) found", o.problems.len())
        };
        writeln!(
            out,
            "checked {} entries and {} downloads: {verdict}",
            o.entries_checked, o.downloads_checked
        )
    }
}

/// `cache gc` JSON: `{"cache": path, "dry_run": bool, "lock_files": [path], "forgotten": [path],
/// "kept_entries": n, "removed_entries": ["sha256:…"], "removed_downloads": ["sha256:…"],
/// "removed_other": [path], "bytes_freed": n}`.
#[derive(Debug, Serialize)]
pub struct GcReport {
    pub cache: PathBuf,
    #[serde(flatten)]
    pub outcome: GcOutcome,
}

impl Report for GcReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let o = &self.outcome;
        let verb = if o.dry_run { "would remove" } else { "removed" };
        for d in &o.removed_entries {
            writeln!(out, "{verb} store entry {d}")?;
        }
        for d in &o.removed_downloads {
            writeln!(out, "{verb} download {d}")?;
        }
        for p in &o.removed_other {
            writeln!(out, "{verb} {}", p.display())?;
        }
        for p in &o.forgotten {
            writeln!(
                out,
                "forgot project lock {} (file no longer exists)",
                p.display()
            )?;
        }
        writeln!(
            out,
            "kept {} entries used by {} project lock(s); {verb} {} entries, {} downloads and {} records, {} freed",
            o.kept_entries,
            o.lock_files.len(),
            o.removed_entries.len(),
            o.removed_downloads.len(),
            o.removed_records,
            Size(o.bytes_freed)
        )
    }
}

/// `cache clean` JSON: `{"cache": path, "removed": [path], "bytes_freed": n}`.
#[derive(Debug, Serialize)]
pub struct CleanReport {
    pub cache: PathBuf,
    #[serde(flatten)]
    pub outcome: CleanOutcome,
}

impl Report for CleanReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "removed {} item(s) from {}, {} freed",
            self.outcome.removed.len(),
            self.cache.display(),
            Size(self.outcome.bytes_freed)
        )
    }
}

/// `cache add` JSON: `{"name": "pdf-tools", "digest": "sha256:…", "path": path,
/// "created": bool, "files": n, "bytes": n, "executables": ["scripts/run.sh"]}`.
#[derive(Debug, Serialize)]
pub struct CacheAddReport {
    pub name: String,
    pub digest: Digest,
    pub path: PathBuf,
    /// False when the store already held this exact content.
    pub created: bool,
    pub files: usize,
    pub bytes: u64,
    pub executables: Vec<String>,
}

impl Report for CacheAddReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.digest)
    }
}
