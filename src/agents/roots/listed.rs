//! A skill folder as `list --json` and `doctor --json` show it.

use std::path::PathBuf;

use serde::Serialize;

use super::{Agent, RootReport, Scope};

/// One skill folder of the scan: where, whose, and what it held.
#[derive(Debug, Clone, Serialize)]
pub struct ListedRoot {
    pub scope: Scope,
    pub agent: Agent,
    pub path: PathBuf,
    pub exists: bool,
    pub skills: usize,
    pub truncated: bool,
}

impl From<&RootReport> for ListedRoot {
    fn from(r: &RootReport) -> Self {
        ListedRoot {
            scope: r.root.scope,
            agent: r.root.agent,
            path: r.root.path.clone(),
            exists: r.exists,
            skills: r.skills,
            truncated: r.truncated,
        }
    }
}
