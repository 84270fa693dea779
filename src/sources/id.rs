//! A source's identity, as in cargo (docs/sources.md): its kind, where it
//! is, the git ref it names and the folder inside it, worked out once from
//! what skills.toml (or the command line) wrote; a lock entry names its kind
//! by its `format`, never by guessing again. [`SourceKind::module`] is the
//! one map from a kind to its module: a new kind is its module and its line
//! here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use url::Url;

use super::{Kind, folder, git, index, location, mcp, oci};
use crate::project::lock::Format;
use crate::project::manifest::SourceDecl;

/// The kinds of source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SourceKind {
    Mcp,
    Oci,
    Git,
    Folder,
    Index,
}

impl SourceKind {
    /// Every kind, in the order a location is offered to them: the first
    /// that recognizes it is its kind (an index takes any URL left).
    pub const ALL: [SourceKind; 5] = [
        SourceKind::Mcp,
        SourceKind::Oci,
        SourceKind::Git,
        SourceKind::Folder,
        SourceKind::Index,
    ];

    /// The one map of a kind to its module.
    pub fn module(self) -> &'static dyn Kind {
        match self {
            SourceKind::Mcp => &mcp::Mcp,
            SourceKind::Oci => &oci::kind::Oci,
            SourceKind::Git => &git::Git,
            SourceKind::Folder => &folder::Folder,
            SourceKind::Index => &index::Index,
        }
    }

    /// The kind that wrote a lock entry of `format`.
    pub fn of_format(format: Format) -> SourceKind {
        (Self::ALL.into_iter())
            .find(|k| k.module().formats().contains(&format))
            .unwrap_or(SourceKind::Index)
    }
}

/// What a source is: its kind and location, parsed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceId {
    pub kind: SourceKind,
    /// The location as written (trimmed): a URL, a git form or a path.
    pub text: String,
    /// The http(s) or `file:` URL the text names (`None` for the other forms).
    pub url: Option<Url>,
    /// The git ref the location names (`None`: the default branch, or not git).
    pub reference: Option<String>,
    /// The folder inside the source (skills.toml's `path`).
    pub subpath: Option<String>,
}

impl SourceId {
    /// The one decision of what kind of source `text` names (relative paths
    /// against `base_dir`): each kind in [`SourceKind::ALL`]'s order is asked.
    pub fn parse(text: &str, base_dir: &Path) -> anyhow::Result<SourceId> {
        let at = location::parse(text, base_dir)?;
        for kind in SourceKind::ALL {
            if let Some(reference) = kind.module().recognizes(&at)? {
                return Ok(SourceId {
                    kind,
                    text: at.text.to_owned(),
                    url: at.url,
                    reference,
                    subpath: None,
                });
            }
        }
        Err(at.unrecognized().into())
    }

    /// The identity of a declared source (relative paths against `root`),
    /// worked out once per process: every later ask is a look-up.
    pub fn of(decl: &SourceDecl, root: &Path) -> anyhow::Result<SourceId> {
        static SEEN: LazyLock<Mutex<HashMap<(String, PathBuf), SourceId>>> =
            LazyLock::new(Default::default);
        let key = (decl.url.clone(), root.to_owned());
        let known = SEEN.lock().ok().and_then(|seen| seen.get(&key).cloned());
        let mut id = match known {
            Some(id) => id,
            None => {
                let id = SourceId::parse(&decl.url, root)?;
                if let Ok(mut seen) = SEEN.lock() {
                    seen.insert(key, id.clone());
                }
                id
            }
        };
        id.subpath = decl.path.clone();
        Ok(id)
    }
}
