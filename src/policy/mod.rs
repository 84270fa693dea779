//! The install policy (docs/policy.md): what an administrator, a user and a
//! project allow skillpm to install, in one file per level, merged so that
//! a lower level can only tighten. Every command that resolves or places a
//! skill asks it: `ops` before a source is read, and the placement gate
//! (`placement::gate`) before anything is linked. A violation is exit 3,
//! names the rule, its file and line, and changes nothing.
//!
//! | level | file |
//! |---|---|
//! | admin | `/etc/skillpm/policy.toml` (`C:\ProgramData\skillpm\policy.toml`); with `SKILLPM_ADMIN_PREFIX`, that prefix's `etc/skillpm/policy.toml` too |
//! | user | `${XDG_CONFIG_HOME:-~/.config}/skillpm/policy.toml` |
//! | project | `skills-policy.toml` beside skills.toml |
//!
//! With no file at any level, loading is a few `stat` calls and every
//! check returns at once.

pub mod check;
pub mod file;
pub mod location;
mod merge;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::agents::roots::LinkMode;
use crate::audit::Severity;
use crate::error::{Classify, Exit};

pub use check::{Scene, Violation};
pub use file::Place;

/// A project's own policy file, beside skills.toml.
pub const PROJECT_FILE: &str = "skills-policy.toml";
/// The admin and user levels' file name.
pub const FILE: &str = "policy.toml";
/// Where the admin level's file is, under the admin base (`/`).
pub const ADMIN_RELATIVE: &str = "etc/skillpm/policy.toml";

/// Who wrote a policy file, highest first: a lower level may only tighten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicyLevel {
    Admin,
    User,
    Project,
}

impl PolicyLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyLevel::Admin => "admin",
            PolicyLevel::User => "user",
            PolicyLevel::Project => "project",
        }
    }
}

/// One rule's value and where it is written.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyRule<T> {
    pub value: T,
    pub at: Place,
    pub level: PolicyLevel,
}

/// A source pattern: as written (for messages) and in normal form.
#[derive(Debug, Clone, Serialize)]
pub struct Pattern {
    pub written: String,
    #[serde(skip)]
    pub normal: String,
}

/// `[sigstore]` of a `[[require]]`: the certificate identity (SAN) and
/// issuer a lock entry's Sigstore bundle must carry. `identity` may use
/// `*` and `?` (docs/policy.md#required-proof).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SigstoreRule {
    pub identity: String,
    pub issuer: String,
}

/// One `[[require]]`: what every source its patterns match must prove.
#[derive(Debug, Clone, Serialize)]
pub struct Requirement {
    pub sources: Vec<PolicyRule<Pattern>>,
    /// The index must be signed by one of these minisign keys (`RW…`).
    pub minisign: Option<PolicyRule<Vec<String>>>,
    /// Every artifact must be signed by one of these cosign keys.
    pub cosign: Option<PolicyRule<Vec<String>>>,
    pub sigstore: Option<PolicyRule<SigstoreRule>>,
}

/// The policy every level's file adds up to.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Effective {
    /// The files read, highest level first.
    pub files: Vec<(PolicyLevel, PathBuf)>,
    /// Each level's non-empty `allow` list: a source must match one
    /// pattern of every list.
    pub allow: Vec<Vec<PolicyRule<Pattern>>>,
    /// Every level's `deny` patterns: a match always wins.
    pub deny: Vec<PolicyRule<Pattern>>,
    pub require: Vec<Requirement>,
    /// The strictest `fail-on` (lowest severity) of every level.
    pub fail_on: Option<PolicyRule<Severity>>,
    /// Severities no acceptance lets through, with where each is said first.
    pub never_accept: Vec<PolicyRule<Severity>>,
    /// The narrowest `link-modes` list (each level's lies inside the one above).
    pub link_modes: Option<PolicyRule<Vec<LinkMode>>>,
    pub agents: Option<PolicyRule<Vec<String>>>,
}

impl Effective {
    /// No file at any level: nothing to check.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The `fail-on` a run uses: the project's `[audit] fail-on`, or the
    /// policy's floor where that is stricter (a looser project value is
    /// itself a violation, [`check::Scene`]).
    pub fn fail_on(&self, project: Severity) -> Severity {
        match &self.fail_on {
            Some(floor) => project.min(floor.value),
            None => project,
        }
    }

    /// The `never-accept` rule a finding of `severity` falls under.
    pub fn never_accepts(&self, severity: Severity) -> Option<&PolicyRule<Severity>> {
        self.never_accept.iter().find(|r| r.value == severity)
    }

    /// What the audit gate's remembered pass must depend on
    /// (`placement::gate`): empty with no policy, so records made without
    /// one keep their meaning.
    pub fn gate_key(&self) -> String {
        let mut severities: Vec<&str> =
            self.never_accept.iter().map(|r| r.value.as_str()).collect();
        severities.sort_unstable();
        if severities.is_empty() {
            String::new()
        } else {
            format!(" never-accept={}", severities.join(","))
        }
    }
}

/// The files of every level, highest first: the admin file at the admin
/// base (always, whatever the environment says), the one under
/// `SKILLPM_ADMIN_PREFIX` as well when that is set (a variable can add a
/// level, never remove one), the user's, and the project's.
pub fn files(env: &crate::agents::roots::Env, project_root: &Path) -> Vec<(PolicyLevel, PathBuf)> {
    let system = crate::agents::roots::Env {
        admin_prefix: None,
        ..crate::agents::roots::Env::default()
    };
    let mut out = vec![(PolicyLevel::Admin, system.admin_path(ADMIN_RELATIVE))];
    if env.admin_prefix.is_some() {
        let prefixed = env.admin_path(ADMIN_RELATIVE);
        if !out.iter().any(|(_, p)| *p == prefixed) {
            out.push((PolicyLevel::Admin, prefixed));
        }
    }
    if let Some(config) = env.config_dir() {
        out.push((PolicyLevel::User, config.join("skillpm").join(FILE)));
    }
    out.push((PolicyLevel::Project, project_root.join(PROJECT_FILE)));
    out
}

/// Reads and merges the policy files of every level (docs/policy.md). A
/// lower level that loosens a higher one is an error naming both places.
pub fn load(
    env: &crate::agents::roots::Env,
    project_root: &Path,
) -> Result<Effective, PolicyError> {
    let mut read = Vec::new();
    for (level, path) in files(env, project_root) {
        if let Some((text, raw)) = file::read(level, &path)? {
            read.push((level, path, text, raw));
        }
    }
    merge::merge(read, project_root)
}

/// Why the policy stops a command.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("{}", check::render(.violations))]
    Violated { violations: Vec<Violation> },
    #[error(
        "{child}: {what} loosens {parent}, which a lower level may only tighten (docs/policy.md#levels)\n  remove it from {}, or ask whoever keeps {} to change it",
        .child.file.display(),
        .parent.file.display()
    )]
    Loosens {
        what: String,
        child: Place,
        parent: Place,
    },
    #[error("policy file {path} is refused: {reason}")]
    Unsafe { path: PathBuf, reason: String },
    #[error("policy file {path}:{line} is not valid: {message} (docs/policy.md#the-file)")]
    Invalid {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("cannot read policy file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

crate::classified!(PolicyError);
impl Classify for PolicyError {
    fn exit(&self) -> Exit {
        match self {
            PolicyError::Violated { .. }
            | PolicyError::Loosens { .. }
            | PolicyError::Unsafe { .. } => Exit::Integrity,
            PolicyError::Invalid { .. } => Exit::Usage,
            PolicyError::Read { .. } => Exit::Other,
        }
    }
}

/// One rule of the effective policy as `doctor` and `policy check` show
/// it: what it says and where it is written.
#[derive(Debug, Clone, Serialize)]
pub struct RuleShown {
    /// `sources.allow`, `sources.deny`, `require.minisign`, …
    pub rule: &'static str,
    pub value: String,
    pub level: PolicyLevel,
    pub at: Place,
}

impl Effective {
    /// Every rule in force, each with the file and line it comes from.
    pub fn rules(&self) -> Vec<RuleShown> {
        let mut out = Vec::new();
        let mut push = |rule: &'static str, value: String, r: (&Place, PolicyLevel)| {
            out.push(RuleShown {
                rule,
                value,
                level: r.1,
                at: r.0.clone(),
            })
        };
        for p in self.allow.iter().flatten() {
            push("sources.allow", p.value.written.clone(), (&p.at, p.level));
        }
        for p in &self.deny {
            push("sources.deny", p.value.written.clone(), (&p.at, p.level));
        }
        for req in &self.require {
            let on: Vec<&str> = req
                .sources
                .iter()
                .map(|p| p.value.written.as_str())
                .collect();
            let on = on.join(", ");
            if let Some(k) = &req.minisign {
                push(
                    "require.minisign",
                    format!("{on}: {}", k.value.join(", ")),
                    (&k.at, k.level),
                );
            }
            if let Some(k) = &req.cosign {
                push(
                    "require.cosign",
                    format!("{on}: {} key(s)", k.value.len()),
                    (&k.at, k.level),
                );
            }
            if let Some(s) = &req.sigstore {
                push(
                    "require.sigstore",
                    format!("{on}: {} from {}", s.value.identity, s.value.issuer),
                    (&s.at, s.level),
                );
            }
        }
        if let Some(f) = &self.fail_on {
            push("audit.fail-on", f.value.to_string(), (&f.at, f.level));
        }
        for n in &self.never_accept {
            push("audit.never-accept", n.value.to_string(), (&n.at, n.level));
        }
        if let Some(m) = &self.link_modes {
            let modes: Vec<&str> = m.value.iter().map(|m| m.as_str()).collect();
            push("install.link-modes", modes.join(", "), (&m.at, m.level));
        }
        if let Some(a) = &self.agents {
            push("install.agents", a.value.join(", "), (&a.at, a.level));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `SKILLPM_ADMIN_PREFIX` adds the prefix's file; the machine's own
    /// admin file is read whatever the variable says (docs/policy.md).
    #[test]
    fn the_admin_file_is_read_whatever_the_prefix() {
        let project = Path::new("/work/app");
        let plain = crate::agents::roots::Env::with_home("/home/u");
        let moved = crate::agents::roots::Env {
            admin_prefix: Some(PathBuf::from("/tmp/empty")),
            ..plain.clone()
        };
        let system = crate::agents::roots::Env::default().admin_path(ADMIN_RELATIVE);
        for env in [&plain, &moved] {
            let files = files(env, project);
            assert_eq!(files[0], (PolicyLevel::Admin, system.clone()), "{files:?}");
            assert!(files.contains(&(PolicyLevel::Project, project.join(PROJECT_FILE))));
            assert!(files.contains(&(
                PolicyLevel::User,
                PathBuf::from("/home/u/.config/skillpm/policy.toml")
            )));
        }
        assert!(files(&moved, project).contains(&(
            PolicyLevel::Admin,
            PathBuf::from("/tmp/empty/etc/skillpm/policy.toml")
        )));
    }

    fn merged(levels: &[(PolicyLevel, &str)]) -> Result<Effective, PolicyError> {
        let read = levels
            .iter()
            .enumerate()
            .map(|(i, (level, text))| {
                let raw = toml::from_str(text).unwrap();
                (
                    *level,
                    PathBuf::from(format!("/p{i}.toml")),
                    (*text).to_owned(),
                    raw,
                )
            })
            .collect();
        merge::merge(read, Path::new("/work/app"))
    }

    #[test]
    fn lower_levels_tighten_and_loosening_names_both_places() {
        let admin = "[sources]\nallow = [\"oci://ghcr.io/acme/*\"]\ndeny = [\"oci://ghcr.io/acme/old\"]\n[audit]\nfail-on = \"high\"\n";
        let ok = merged(&[
            (PolicyLevel::Admin, admin),
            (
                PolicyLevel::Project,
                "[sources]\nallow = [\"oci://ghcr.io/acme/team/*\"]\n[audit]\nfail-on = \"low\"\n",
            ),
        ])
        .unwrap();
        assert_eq!(ok.allow.len(), 2);
        assert_eq!(ok.fail_on.as_ref().unwrap().value, Severity::Low);
        for (child, parent_line) in [
            ("[sources]\nallow = [\"oci://ghcr.io/acme/old\"]\n", 3),
            ("[sources]\nallow = [\"https://other.example\"]\n", 2),
            ("\n[audit]\nfail-on = \"critical\"\n", 5),
        ] {
            match merged(&[(PolicyLevel::Admin, admin), (PolicyLevel::User, child)]) {
                Err(PolicyError::Loosens { child, parent, .. }) => {
                    assert_eq!(parent.line, Some(parent_line), "{child:?}");
                    assert_eq!(child.file, PathBuf::from("/p1.toml"));
                }
                other => panic!("{child:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn sigstore_identities_match_exactly_or_by_pattern() {
        let rule = SigstoreRule {
            identity: "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/*"
                .into(),
            issuer: "https://token.actions.githubusercontent.com".into(),
        };
        let issuer = "https://token.actions.githubusercontent.com";
        let main = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
        assert!(check::sigstore_meets(&rule, Some((main, issuer))).is_ok());
        assert!(check::sigstore_meets(&rule, Some((main, "https://accounts.google.com"))).is_err());
        let other = "https://github.com/evil/skills/.github/workflows/release.yml@refs/heads/main";
        assert!(
            check::sigstore_meets(&rule, Some((other, issuer)))
                .unwrap_err()
                .contains("evil")
        );
        assert!(check::sigstore_meets(&rule, None).is_err());
    }
}
