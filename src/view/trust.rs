//! `skillpm trust update`'s report (docs/provenance.md#refreshing-the-trusted-root).

use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::trust::sigstore::tuf::Versions;

/// JSON shape: `{"kept_at": "/abs/state/sigstore-trusted-root.json",
/// "authorities": 2, "logs": 2, "changed": true, "tuf": {"mirror":
/// "https://tuf-repo-cdn.sigstore.dev/", "mirror_set_by": null, "versions":
/// {"root": 15, "timestamp": 762, "snapshot": 165, "targets": 14}}}`
/// (`tuf` only when it came through TUF).
#[derive(Debug, Serialize)]
pub struct TrustUpdateReport {
    pub kept_at: PathBuf,
    pub authorities: usize,
    pub logs: usize,
    pub changed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tuf: Option<TufReport>,
}

/// Where a trusted root fetched through TUF came from.
#[derive(Debug, Serialize)]
pub struct TufReport {
    pub mirror: String,
    /// `--mirror` or the environment variable that chose a mirror other
    /// than Sigstore's (`None`: the default).
    pub mirror_set_by: Option<String>,
    pub versions: Versions,
}

impl Report for TrustUpdateReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let what = if self.changed {
            "now uses"
        } else {
            "already used"
        };
        writeln!(
            out,
            "skillpm {what} the Sigstore trusted root kept at {} ({} certificate authorities, {} log keys)",
            self.kept_at.display(),
            self.authorities,
            self.logs
        )?;
        if let Some(tuf) = &self.tuf {
            let by = (tuf.mirror_set_by.as_deref())
                .map(|b| format!(" (chosen by {b})"))
                .unwrap_or_default();
            let v = &tuf.versions;
            writeln!(
                out,
                "    verified through TUF from {}{by}: root version {}, timestamp {}, snapshot {}, targets {}",
                crate::escape::printable(&tuf.mirror),
                v.root,
                v.timestamp,
                v.snapshot,
                v.targets
            )?;
        }
        Ok(())
    }
}
