//! What a declared git source names: its repository, the folder inside it
//! and the ref it declares. Read by the online prover (`chain`) and the
//! offline one (`offline`) alike, so neither imports the other for it.

use std::path::Path;

use crate::project::manifest::SourceDecl;
use crate::source::SourceSpec;

/// The repository a declared source names, when it is a git source (the
/// forms of docs/design.md#formats; a folder publishing `.well-known/` is an
/// index), and the folder inside it where its skills are looked for: the
/// spec's own subfolder joined with the source's `path` (`None`: the whole
/// repository), and the ref it declares (`None`: the default branch).
pub(crate) fn declared_git(decl: &SourceDecl, project_root: &Path) -> Option<DeclaredGit> {
    let text = match SourceSpec::parse(&decl.url, project_root).ok()? {
        SourceSpec::Git(text) => text,
        SourceSpec::Base(url)
            if url.scheme() == "file"
                && !url
                    .to_file_path()
                    .is_ok_and(|dir| dir.join(".well-known").is_dir()) =>
        {
            decl.url.clone()
        }
        _ => return None,
    };
    let spec = crate::git::parse_git_spec(&text, None, project_root)
        .ok()
        .flatten()?;
    Some(DeclaredGit {
        url: spec.url(),
        folder: spec.join_subpath(decl.path.as_deref().unwrap_or("")),
        reference: spec.reference.clone(),
    })
}

/// What [`declared_git`] finds in a declared git source.
pub(crate) struct DeclaredGit {
    pub url: String,
    pub folder: Option<String>,
    pub reference: Option<String>,
}
