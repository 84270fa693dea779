//! Where skillpm's cache lives (docs/design.md#store): `SKILLPM_CACHE_DIR`, else the
//! platform cache directory (`~/.cache/skillpm` on Linux). The layout inside
//! is owned by `store` (entries, downloads) and `fetch` (index, state).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[error(
    "cannot find a cache directory: no home directory is known; set SKILLPM_CACHE_DIR to a writable folder"
)]
pub struct NoCacheDir;

crate::classified!(NoCacheDir => Other);

/// The cache root, without creating it.
pub fn cache_root() -> Result<PathBuf, NoCacheDir> {
    if let Some(dir) = std::env::var_os("SKILLPM_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("dev", "skillpm", "skillpm")
        .map(|dirs| dirs.cache_dir().to_owned())
        .ok_or(NoCacheDir)
}

/// The user's state folder, which holds what the cache must not (the key
/// that authenticates the cache's records, `trust::record_key`):
/// `SKILLPM_STATE_DIR`, else the platform state folder
/// (`~/.local/state/skillpm` on Linux; the local data folder elsewhere).
pub fn state_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SKILLPM_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let dirs = directories::ProjectDirs::from("dev", "skillpm", "skillpm")?;
    Some(
        dirs.state_dir()
            .unwrap_or_else(|| dirs.data_local_dir())
            .to_owned(),
    )
}

/// The variable that holds the record key a CI keeps as a secret, in place
/// of the state folder's (`trust::record_key`).
pub const RECORD_KEY_VAR: &str = "SKILLPM_RECORD_KEY";

/// The value of [`RECORD_KEY_VAR`] (`None`: unset or empty).
pub fn record_key_var() -> Option<std::ffi::OsString> {
    std::env::var_os(RECORD_KEY_VAR).filter(|v| !v.is_empty())
}

/// Subfolders of the cache root, named once here so no module spells them twice.
pub mod layout {
    pub const LOCK_FILE: &str = ".lock";
    pub const DOWNLOADS: &str = "downloads";
    pub const STORE: &str = "store";
    pub const INDEX: &str = "index";
    pub const STATE: &str = "state";
    pub const TMP: &str = "tmp";
    /// Git sources: bare repositories and checkouts (src/git).
    pub const GIT: &str = "git";
    /// Content-addressed index snapshots (`store::snapshots`).
    pub const SNAPSHOTS: &str = "snapshots";
    /// Sigstore bundles of locked artifacts, by the sha256 of their bytes.
    pub const SIGSTORE: &str = "sigstore";
}
