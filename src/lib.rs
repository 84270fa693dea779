//! skillpm: a package manager and registry client for Agent Skills.
//!
//! The flow (docs/design.md#flow): resolve → fetch → verify → unpack → store → lock →
//! approve → link. Each module below does one step; `ops` glues them into
//! commands and `cli` parses arguments and prints.

// The lower layers are crates of their own (crates/, docs/architecture.md):
// the compiler keeps their arrows pointing down. Their modules keep their
// names here.
pub use skillpm_audit as audit;
pub use skillpm_base::{cache, classified, digest, error, escape, fs, names};
pub use skillpm_net as net;
pub use skillpm_sandbox as sandbox;
pub use skillpm_skill as skill;
pub use skillpm_trust as trust;

pub mod agents;
pub mod catalog;
pub mod cli;
pub mod doctor;
pub mod git;
pub mod mcp;
pub mod ops;
pub mod placement;
pub mod policy;
pub mod printer;
pub mod project;
pub mod provenance;
pub mod publish;
pub mod sources;
pub mod store;
pub mod unpack;
pub mod view;

#[cfg(test)]
mod tests {
    use crate::error::Classifier;
    use std::path::Path;

    /// Every `thiserror` type under `dir`, as `(file, type name)`, the file
    /// named from the workspace root as `file!()` names it.
    fn error_types_in(dir: &Path, found: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                error_types_in(&path, found);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            let file = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .expect("under the crate")
                .to_string_lossy()
                .into_owned();
            let mut after_derive = false;
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with("#[derive(") && line.contains("thiserror::Error") {
                    after_derive = true;
                    continue;
                }
                let item = line
                    .trim_start_matches("pub(crate) ")
                    .trim_start_matches("pub ");
                let Some(rest) = item
                    .strip_prefix("enum ")
                    .or_else(|| item.strip_prefix("struct "))
                else {
                    continue;
                };
                if after_derive {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.push((file.trim_start_matches('/').to_owned(), name));
                    after_derive = false;
                }
            }
        }
    }

    /// A new error type that is not registered would fall through to exit 1
    /// silently; this walks the sources and fails naming it. (A new *variant* cannot:
    /// each `Classify` impl is an exhaustive match without a `_` arm.)
    #[test]
    fn every_error_type_is_classified() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut found = Vec::new();
        error_types_in(&root.join("src"), &mut found);
        for krate in std::fs::read_dir(root.join("crates")).expect("crates/ is readable") {
            error_types_in(&krate.expect("a crate").path().join("src"), &mut found);
        }
        assert!(
            found.len() >= 15,
            "the scan found too few error types: {found:?}"
        );
        let registered: Vec<(&str, &str)> = inventory::iter::<Classifier>
            .into_iter()
            .map(|c| (c.file, c.type_name))
            .collect();
        let missing: Vec<_> = found
            .iter()
            .filter(|(file, name)| !registered.contains(&(file.as_str(), name.as_str())))
            .collect();
        assert!(
            missing.is_empty(),
            "error types without `crate::classified!` next to their `Classify` impl: {missing:?}"
        );
    }
}
