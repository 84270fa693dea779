//! What a publish refuses or warns about before anything is written: a
//! live-looking secret in the files, a site and skills folder inside each
//! other, a skill beyond what clients unpack by default.

use std::path::{Path, PathBuf};

use super::files::SkillFiles;
use super::{PublishError, SkillSource};

/// Defaults of the client's strict unpacker (docs/design.md#unpacking): a skill beyond
/// them publishes, with a warning that clients must raise their limits.
pub const CLIENT_MAX_ENTRIES: usize = 10_000;
pub const CLIENT_MAX_FILE: u64 = 16 * 1024 * 1024;
pub const CLIENT_MAX_SKILL: u64 = 64 * 1024 * 1024;

/// Runs the scanner on exactly the files about to be published: a
/// live-looking secret refuses the publish (exit 5, naming file and line);
/// other findings at `high` or above come back as warnings.
pub fn audit_files(skill: &str, files: &SkillFiles) -> Result<Vec<String>, PublishError> {
    let mut warnings = Vec::new();
    for file in &files.files {
        for f in crate::audit::audit_file(&file.path, &file.bytes) {
            if f.rule == "live-secret" {
                return Err(PublishError::Secret {
                    skill: skill.to_owned(),
                    file: f.file,
                    line: f.line,
                    excerpt: f.excerpt,
                });
            }
            if f.severity >= crate::audit::Severity::High {
                warnings.push(format!(
                    "skill `{skill}`: audit finding {} ({}) at {}: {}",
                    f.rule,
                    f.severity,
                    f.place(),
                    f.excerpt
                ));
            }
        }
    }
    Ok(warnings)
}

/// The warning for a skill beyond the client's default unpack limits: it
/// publishes, but clients must raise theirs to install it.
pub fn over_client_limits(source: &SkillSource) -> Option<String> {
    let files = &source.files;
    let largest = files
        .files
        .iter()
        .map(|f| f.bytes.len() as u64)
        .max()
        .unwrap_or(0);
    let over = files.files.len() > CLIENT_MAX_ENTRIES
        || largest > CLIENT_MAX_FILE
        || files.total_bytes() > CLIENT_MAX_SKILL;
    over.then(|| {
        format!(
            "skill `{}` ({} files, {} bytes, largest file {largest} bytes) exceeds skillpm's default unpack limits \
             ({CLIENT_MAX_ENTRIES} files, {CLIENT_MAX_FILE} bytes a file, {CLIENT_MAX_SKILL} bytes a skill); \
             clients must raise theirs to install it",
            source.name,
            files.files.len(),
            files.total_bytes()
        )
    })
}

/// Refuses a site inside the skills (the next publish would take it for a
/// skill) and skills inside the site (the swap would delete them).
pub fn ensure_disjoint(skills_dir: &Path, out: &Path) -> Result<(), PublishError> {
    let skills = comparable(skills_dir);
    let site = comparable(out);
    if site.starts_with(&skills) || skills.starts_with(&site) {
        return Err(PublishError::Overlap {
            out: out.to_owned(),
            skills: skills_dir.to_owned(),
        });
    }
    Ok(())
}

/// The canonical form of the longest existing ancestor, plus the rest.
fn comparable(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => comparable(parent).join(name),
        _ => path.to_owned(),
    }
}
