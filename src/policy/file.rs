//! One policy file on disk (docs/policy.md#the-file): read without
//! following a symbolic link, refused when others may write it, parsed
//! strictly with the line of every rule kept for messages.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::{PolicyError, PolicyLevel};
use crate::agents::roots::LinkMode;
use crate::audit::Severity;

/// The most bytes of a policy file skillpm reads.
pub const MAX_POLICY_BYTES: u64 = 1024 * 1024;

/// The file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct Raw {
    #[serde(default)]
    pub sources: RawSources,
    #[serde(default)]
    pub require: Vec<RawRequire>,
    #[serde(default)]
    pub audit: RawAudit,
    #[serde(default)]
    pub install: RawInstall,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSources {
    #[serde(default)]
    pub allow: Vec<Spanned<String>>,
    #[serde(default)]
    pub deny: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRequire {
    pub sources: Spanned<OneOrMany>,
    #[serde(default)]
    pub minisign: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    pub cosign: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    pub sigstore: Option<Spanned<RawSigstore>>,
}

/// `sources = "pattern"` or `sources = ["a", "b"]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSigstore {
    pub identity: String,
    pub issuer: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawAudit {
    #[serde(default)]
    pub fail_on: Option<Spanned<Severity>>,
    #[serde(default)]
    pub never_accept: Vec<Spanned<Severity>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawInstall {
    #[serde(default)]
    pub link_modes: Option<Spanned<Vec<LinkMode>>>,
    #[serde(default)]
    pub agents: Option<Spanned<Vec<Spanned<String>>>>,
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Reads the policy file at `path` for `level`: `Ok(None)` when there is
/// none. A symbolic link, anything but a regular file, or (admin and user
/// levels, on Unix) a file or folder others may write is refused: the
/// file is a rule for this machine, so whoever can change it could lift
/// it (docs/policy.md#where-the-files-are).
pub(super) fn read(level: PolicyLevel, path: &Path) -> Result<Option<(String, Raw)>, PolicyError> {
    let unsafe_file = |reason: String| PolicyError::Unsafe {
        path: path.to_owned(),
        reason,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(PolicyError::Read {
                path: path.to_owned(),
                source,
            });
        }
    };
    if meta.file_type().is_symlink() {
        return Err(unsafe_file(
            "it is a symbolic link; a policy file must be a regular file where it is read (copy the file there instead of linking it)".into(),
        ));
    }
    if !meta.is_file() {
        return Err(unsafe_file("it is not a regular file".into()));
    }
    if level != PolicyLevel::Project {
        writable_by_others(path, &meta).map_err(unsafe_file)?;
    }
    let read_err = |source| PolicyError::Read {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_err)?;
    same_file(&meta, &file.metadata().map_err(read_err)?).map_err(unsafe_file)?;
    let mut bytes = Vec::new();
    use std::io::Read as _;
    file.take(MAX_POLICY_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 > MAX_POLICY_BYTES {
        return Err(unsafe_file(format!(
            "it is larger than {MAX_POLICY_BYTES} bytes, the most skillpm reads of a policy file"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| PolicyError::Invalid {
        path: path.to_owned(),
        line: 1,
        message: "it is not UTF-8 text".into(),
    })?;
    let raw: Raw = toml::from_str(&text).map_err(|e: toml::de::Error| PolicyError::Invalid {
        path: path.to_owned(),
        line: e.span().map_or(1, |s| line_of(&text, s.start)),
        message: e.message().to_owned(),
    })?;
    Ok(Some((text, raw)))
}

/// The file opened is the one looked at (not swapped for a link between).
fn same_file(looked: &std::fs::Metadata, opened: &std::fs::Metadata) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if (looked.dev(), looked.ino()) != (opened.dev(), opened.ino()) {
            return Err("it was replaced while it was read".into());
        }
    }
    #[cfg(not(unix))]
    let _ = (looked, opened);
    Ok(())
}

/// Refuses a file, or its folder, that users other than its owner may write.
fn writable_by_others(path: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.permissions().mode() & 0o022 != 0 {
            return Err(format!(
                "other users may write it (mode {:o}); `chmod go-w {}`",
                meta.permissions().mode() & 0o777,
                path.display()
            ));
        }
        if let Some(dir) = path.parent()
            && let Ok(dir_meta) = std::fs::metadata(dir)
        {
            let mode = dir_meta.permissions().mode();
            // A sticky folder (/tmp) still lets others add files, not replace this one.
            if mode & 0o022 != 0 && mode & 0o1000 == 0 {
                return Err(format!(
                    "other users may replace it: its folder {} is writable by them (mode {:o})",
                    dir.display(),
                    mode & 0o777
                ));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (path, meta);
    Ok(())
}

/// Where a rule is written.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    pub file: PathBuf,
    /// 1-based; `None` when the line is not known.
    pub line: Option<usize>,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file.display()),
            None => write!(f, "{}", self.file.display()),
        }
    }
}
