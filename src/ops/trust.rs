//! `skillpm trust update FILE`: replace the Sigstore trusted root in use
//! (docs/provenance.md#refreshing-the-trusted-root).

use std::path::Path;

use anyhow::Context as _;

use super::Context;
use crate::trust::sigstore::{SigstoreError, TrustedRoot};
use crate::view::trust::TrustUpdateReport;

/// Reads `file` as a trusted root, refuses one that drops a key of the root
/// in use, and keeps it in the state folder.
pub fn update(ctx: &Context, file: &Path) -> anyhow::Result<TrustUpdateReport> {
    let path = ctx.cwd.join(file);
    let shown = path.display().to_string();
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {shown}"))?;
    let new = TrustedRoot::parse(&shown, &bytes)?;
    let state = crate::cache::state_root()
        .context("no state folder to keep the trusted root in (set SKILLPM_STATE_DIR)")?;
    let current = TrustedRoot::load(Some(&state))?;
    new.keeps(&current)
        .map_err(|reason| SigstoreError::Refresh {
            path: shown.clone(),
            reason,
        })?;
    let kept_at = TrustedRoot::refreshed_path(&state);
    let changed = std::fs::read(&kept_at).ok().as_deref() != Some(bytes.as_slice());
    if changed {
        std::fs::create_dir_all(&state)
            .with_context(|| format!("cannot create {}", state.display()))?;
        crate::fs::write_atomic(&kept_at, &bytes)
            .with_context(|| format!("cannot write {}", kept_at.display()))?;
    }
    let (authorities, logs) = new.counts();
    Ok(TrustUpdateReport {
        kept_at,
        authorities,
        logs,
        changed,
    })
}
