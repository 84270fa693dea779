//! The rollback guard: the highest signed index version seen per index URL,
//! kept in `<cache>/state/`, so an attacker who can only replay old signed
//! indexes cannot move a client back to a vulnerable skill.
//!
//! Read-compare-write runs under an exclusive lock on a per-URL lock file, so
//! concurrent skillpm runs never lower the recorded version.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use url::Url;

use super::{Signer, TrustError};
use crate::digest::Digest;
use crate::fs::HeldLock;

#[derive(Debug, Serialize, Deserialize)]
struct Record {
    index: String,
    version: u64,
    key_id: String,
}

#[derive(Debug, Clone)]
pub struct RollbackGuard {
    dir: PathBuf,
}

impl RollbackGuard {
    /// Keeps its records in `state_dir` (normally `<cache>/state`).
    pub fn new(state_dir: impl Into<PathBuf>) -> Self {
        RollbackGuard {
            dir: state_dir.into(),
        }
    }

    /// Refuses `signer.version` if lower than the highest seen for
    /// `index_url`; otherwise records it (when higher) and returns.
    pub fn check_and_record(&self, index_url: &Url, signer: &Signer) -> Result<(), TrustError> {
        let state_err = |path: &Path| {
            let path = path.to_owned();
            move |source| TrustError::State { path, source }
        };
        fs::create_dir_all(&self.dir).map_err(state_err(&self.dir))?;
        let record_path = self.record_path(index_url);
        let lock_path = record_path.with_extension("lock");
        let _lock = HeldLock::acquire(&lock_path).map_err(state_err(&lock_path))?;

        let seen = read_record(&record_path).map(|r| r.version);
        match seen {
            Some(highest) if signer.version < highest => {
                return Err(TrustError::Rollback {
                    what: index_url.to_string(),
                    expected: highest,
                    actual: signer.version,
                });
            }
            Some(highest) if signer.version == highest => return Ok(()),
            _ => {}
        }
        let record = Record {
            index: index_url.to_string(),
            version: signer.version,
            key_id: signer.key_id.clone(),
        };
        let bytes = serde_json::to_vec_pretty(&record)
            .map_err(std::io::Error::other)
            .map_err(state_err(&record_path))?;
        crate::fs::write_atomic(&record_path, &bytes).map_err(state_err(&record_path))?;
        Ok(())
    }

    fn record_path(&self, index_url: &Url) -> PathBuf {
        let key = Digest::of_bytes(index_url.as_str().as_bytes()).hex();
        self.dir.join(format!("version-{key}.json"))
    }
}

fn read_record(path: &Path) -> Option<Record> {
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer(version: u64) -> Signer {
        Signer {
            key: "RW".into(),
            key_id: "0011223344556677".into(),
            version,
            expires: None,
        }
    }

    #[test]
    fn versions_may_rise_or_repeat_but_never_fall() {
        let dir = tempfile::tempdir().unwrap();
        let guard = RollbackGuard::new(dir.path().join("state"));
        let url = Url::parse("https://r.example/index.json").unwrap();
        let other = Url::parse("https://s.example/index.json").unwrap();
        let highest = |url| read_record(&guard.record_path(url)).map(|r| r.version);
        guard.check_and_record(&url, &signer(5)).unwrap();
        guard.check_and_record(&url, &signer(5)).unwrap();
        let err = guard.check_and_record(&url, &signer(4)).unwrap_err();
        assert!(
            matches!(
                err,
                TrustError::Rollback {
                    expected: 5,
                    actual: 4,
                    ..
                }
            ),
            "{err}"
        );
        guard.check_and_record(&url, &signer(9)).unwrap();
        assert_eq!(highest(&url), Some(9));
        // Each index URL has its own history.
        guard.check_and_record(&other, &signer(1)).unwrap();
        assert_eq!(highest(&url), Some(9));
    }
}
