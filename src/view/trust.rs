//! `skillpm trust update`'s report (docs/provenance.md#refreshing-the-trusted-root).

use std::path::PathBuf;

use serde::Serialize;

use super::Report;

/// JSON shape: `{"kept_at": "/abs/state/sigstore-trusted-root.json",
/// "authorities": 2, "logs": 2, "changed": true}`.
#[derive(Debug, Serialize)]
pub struct TrustUpdateReport {
    pub kept_at: PathBuf,
    pub authorities: usize,
    pub logs: usize,
    pub changed: bool,
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
        )
    }
}
