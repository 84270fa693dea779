//! Judging a project against the policy (docs/policy.md#what-is-checked):
//! its declared sources, the lock entries a command resolves or places,
//! `[audit] fail-on`, the link mode and the agents. Each broken rule is a
//! [`Violation`] naming the rule, its file and line, and the line of
//! skills.toml or skills.lock that breaks it (lines are looked up only
//! when there is something to report).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::file::{Place, line_of};
use super::location::{location, matches, path_form};
use super::{Effective, Pattern, PolicyError, PolicyRule, Requirement, SigstoreRule};
use crate::agents::Agent;
use crate::agents::roots::LinkMode;
use crate::audit::Severity;
use crate::project::Manifest;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::sources::id::{SourceId, SourceKind};

/// What a command is about to resolve or place, as the policy reads it.
pub struct Scene<'a> {
    pub root: &'a Path,
    pub manifest: &'a Manifest,
    pub lock_path: &'a Path,
    /// The lock entries judged (the whole lock, or what is placed).
    pub entries: &'a [&'a LockedSkill],
    /// The link mode and agents the placement uses (`None`: nothing is
    /// placed by this step).
    pub placing: Option<(LinkMode, &'a [Agent])>,
}

/// One rule the project breaks.
#[derive(Debug, Clone, Serialize)]
pub struct Violation {
    /// `sources.allow`, `sources.deny`, `require.minisign`,
    /// `require.cosign`, `require.sigstore`, `audit.fail-on`,
    /// `audit.never-accept`, `install.link-modes`, `install.agents`.
    pub rule: &'static str,
    /// Where the rule is written.
    pub policy: Place,
    /// What breaks it: ``source `acme` (https://…)``, ``skill `pdf` ``.
    pub subject: String,
    /// The line of skills.toml or skills.lock that says it.
    pub at: Place,
    pub detail: String,
    #[serde(skip)]
    locator: Locator,
}

/// How to find a violation's line once there is one to report.
#[derive(Debug, Clone)]
enum Locator {
    Source(String),
    Skill(String, &'static str),
    Setting(&'static str, &'static str),
    Known,
}

impl Violation {
    fn new(
        rule: &'static str,
        policy: &Place,
        subject: String,
        (file, locator): (&Path, Locator),
        detail: String,
    ) -> Violation {
        Violation {
            rule,
            policy: policy.clone(),
            subject,
            at: Place {
                file: file.to_owned(),
                line: None,
            },
            detail,
            locator,
        }
    }

    /// A violation found outside skills.toml and skills.lock (a finding
    /// the audit read from a skill's files).
    pub fn finding(
        rule: &PolicyRule<Severity>,
        skill: &str,
        finding: &crate::audit::Finding,
    ) -> Violation {
        Violation {
            rule: "audit.never-accept",
            policy: rule.at.clone(),
            subject: format!("skill `{skill}`"),
            at: Place {
                file: PathBuf::from(format!("{skill}/{}", finding.file)),
                line: (finding.line > 0).then_some(finding.line),
            },
            detail: format!(
                "{} finding `{}`: {}; the policy lets no acceptance through at `{}`",
                finding.severity, finding.rule, finding.excerpt, finding.severity
            ),
            locator: Locator::Known,
        }
    }
}

/// The refusal text for `violations`.
pub fn render(violations: &[Violation]) -> String {
    let mut out = String::from("the install policy refuses this; nothing was changed:");
    for v in violations {
        out.push_str(&format!(
            "\n  {}: {}: {} (rule `{}` at {})",
            v.at, v.subject, v.detail, v.rule, v.policy
        ));
    }
    out.push_str(
        "\n  change the project to meet the policy, or ask whoever keeps that file; `skillpm policy check` lists every violation (docs/policy.md)",
    );
    out
}

/// `Err` with every violation (lines filled in), or `Ok` when there is none.
pub fn refuse(violations: Vec<Violation>, manifest: &Path, lock: &Path) -> Result<(), PolicyError> {
    if violations.is_empty() {
        return Ok(());
    }
    Err(PolicyError::Violated {
        violations: with_lines(violations, manifest, lock),
    })
}

/// `violations` with each line of skills.toml and skills.lock filled in.
pub fn with_lines(mut violations: Vec<Violation>, manifest: &Path, lock: &Path) -> Vec<Violation> {
    fill_lines(&mut violations, manifest, lock);
    violations
}

impl Effective {
    /// Every rule `scene` breaks (no lines yet: [`refuse`] adds them).
    pub fn check(&self, scene: &Scene<'_>) -> Vec<Violation> {
        if self.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for decl in scene.manifest.sources() {
            out.extend(self.check_source(decl, scene.root, scene.manifest.path()));
        }
        for entry in scene.entries {
            let decl = scene.manifest.source(&entry.source);
            out.extend(self.check_entry(entry, decl, scene.root, scene.lock_path));
        }
        out.extend(self.check_settings(scene));
        out
    }

    /// The rules a declared source breaks before anything is read from it:
    /// `allow`, `deny`, and the proof its requirements ask for.
    pub fn check_source(&self, decl: &SourceDecl, root: &Path, manifest: &Path) -> Vec<Violation> {
        if self.is_empty() {
            return Vec::new();
        }
        let loc = decl_location(decl, root);
        let subject = format!("source `{}` ({loc})", decl.name);
        let at = Locator::Source(decl.name.clone());
        let mut out = self.where_from(&loc, &subject, manifest, &at);
        for req in self.requiring(&[loc.as_str()]) {
            for (rule, place, why) in source_proof(req, decl, root) {
                out.push(Violation::new(
                    rule,
                    place,
                    subject.clone(),
                    (manifest, at.clone()),
                    why,
                ));
            }
        }
        out
    }

    /// The rules one lock entry breaks: where the lock says its bytes come
    /// from (an edited lock can name another place than skills.toml), the
    /// proof its format carries, and the findings it accepts.
    pub fn check_entry(
        &self,
        entry: &LockedSkill,
        decl: Option<&SourceDecl>,
        root: &Path,
        lock: &Path,
    ) -> Vec<Violation> {
        if self.is_empty() {
            return Vec::new();
        }
        let subject = format!("skill `{}`", entry.name);
        let mut out = Vec::new();
        let Some(decl) = decl else {
            // The prover refuses it too; the policy cannot judge a source it cannot see.
            if let Some(first) = self.first_place() {
                out.push(Violation::new(
                    "sources.allow",
                    &first,
                    subject,
                    (lock, Locator::Skill(entry.name.clone(), "source")),
                    format!("its source `{}` is not declared in skills.toml, so no policy rule can allow it", entry.source),
                ));
            }
            return out;
        };
        let declared = decl_location(decl, root);
        let mut locs = vec![declared.clone()];
        let (field, own) = entry_location(entry, decl, root);
        if let Some(own) = own
            && own != declared
        {
            let at = Locator::Skill(entry.name.clone(), field);
            out.extend(self.where_from(&own, &format!("{subject} ({own})"), lock, &at));
            locs.push(own);
        }
        let refs: Vec<&str> = locs.iter().map(String::as_str).collect();
        for req in self.requiring(&refs) {
            for (rule, place, why) in entry_proof(req, entry) {
                let at = Locator::Skill(entry.name.clone(), "format");
                out.push(Violation::new(
                    rule,
                    place,
                    subject.clone(),
                    (lock, at),
                    why,
                ));
            }
        }
        for key in &entry.accepted_findings {
            let id = key.split_once('@').map_or(key.as_str(), |(id, _)| id);
            let Some(severity) = crate::audit::rules::rule(id).map(|r| r.severity) else {
                continue;
            };
            if let Some(rule) = self.never_accepts(severity) {
                out.push(Violation::new(
                    "audit.never-accept",
                    &rule.at,
                    subject.clone(),
                    (lock, Locator::Skill(entry.name.clone(), "accepted-findings")),
                    format!("it accepts `{key}`, a {severity} finding, which no acceptance may let through"),
                ));
            }
        }
        out
    }

    /// `[audit] fail-on`, the link mode and the agents.
    fn check_settings(&self, scene: &Scene<'_>) -> Vec<Violation> {
        let manifest = scene.manifest.path();
        let mut out = Vec::new();
        if let (Some(floor), Some(set)) = (&self.fail_on, scene.manifest.data().audit.fail_on)
            && set > floor.value
        {
            out.push(Violation::new(
                "audit.fail-on",
                &floor.at,
                "[audit] fail-on".to_owned(),
                (manifest, Locator::Setting("audit", "fail-on")),
                format!("`{set}` would let through findings the policy stops at `{}`; set `fail-on = \"{}\"` or lower", floor.value, floor.value),
            ));
        }
        let Some((mode, agents)) = scene.placing else {
            return out;
        };
        if let Some(modes) = &self.link_modes
            && !modes.value.contains(&mode)
        {
            let listed: Vec<&str> = modes.value.iter().map(|m| m.as_str()).collect();
            out.push(Violation::new(
                "install.link-modes",
                &modes.at,
                "[install] link-mode".to_owned(),
                (manifest, Locator::Setting("install", "link-mode")),
                format!("skills would be placed as `{}`; the policy allows {} (set `link-mode` in [install], or pass --link-mode)", mode.as_str(), listed.join(", ")),
            ));
        }
        if let Some(allowed) = &self.agents {
            for agent in agents
                .iter()
                .filter(|a| !allowed.value.iter().any(|x| x == a.as_str()))
            {
                out.push(Violation::new(
                    "install.agents",
                    &allowed.at,
                    format!("agent `{agent}`"),
                    (manifest, Locator::Setting("install", "agents")),
                    format!("skills would be placed for it; the policy allows {} (set `agents` in [install])", allowed.value.join(", ")),
                ));
            }
        }
        out
    }

    /// `allow` and `deny` for one location.
    fn where_from(&self, loc: &str, subject: &str, file: &Path, at: &Locator) -> Vec<Violation> {
        let mut out = Vec::new();
        if let Some(d) = self.deny.iter().find(|d| matches(&d.value.normal, loc)) {
            out.push(Violation::new(
                "sources.deny",
                &d.at,
                subject.to_owned(),
                (file, at.clone()),
                format!("denied by {:?}", d.value.written),
            ));
        }
        for list in &self.allow {
            if !list.iter().any(|a| matches(&a.value.normal, loc)) {
                let written: Vec<&str> = list.iter().map(|a| a.value.written.as_str()).collect();
                out.push(Violation::new(
                    "sources.allow",
                    &list[0].at,
                    subject.to_owned(),
                    (file, at.clone()),
                    format!(
                        "not in the sources the policy allows: {}",
                        written.join(", ")
                    ),
                ));
            }
        }
        out
    }

    /// The requirements whose patterns match any of `locs`.
    fn requiring<'s>(&'s self, locs: &[&str]) -> impl Iterator<Item = &'s Requirement> {
        let locs: Vec<String> = locs.iter().map(|l| (*l).to_owned()).collect();
        self.require.iter().filter(move |r| {
            r.sources
                .iter()
                .any(|p: &PolicyRule<Pattern>| locs.iter().any(|l| matches(&p.value.normal, l)))
        })
    }

    /// Where the first rule is written (for a refusal no single rule makes).
    fn first_place(&self) -> Option<Place> {
        let (_, path) = self.files.first()?;
        Some(Place {
            file: path.clone(),
            line: None,
        })
    }
}

/// Where a declared source is, in normal form (a folder source's `path`
/// included).
fn decl_location(decl: &SourceDecl, root: &Path) -> String {
    let loc = location(&decl.url, root);
    match &decl.path {
        Some(sub) if loc.starts_with('/') => path_form(&Path::new(&loc).join(sub)),
        _ => loc,
    }
}

/// Where a lock entry itself says its bytes come from, and the field that
/// says it: the index of a registry entry (its artifact is pinned by that
/// index's digest), the repository of a git entry, the OCI repository,
/// the MCP server, the folder of a folder entry.
fn entry_location(
    entry: &LockedSkill,
    decl: &SourceDecl,
    root: &Path,
) -> (&'static str, Option<String>) {
    match entry.format {
        Format::Archive | Format::SkillMd | Format::Files => {
            ("index", entry.index.as_deref().map(|i| location(i, root)))
        }
        Format::Git | Format::Oci | Format::Mcp => {
            ("url", entry.url.as_deref().map(|u| location(u, root)))
        }
        Format::Path => {
            let base = decl_location(decl, root);
            let own = match &entry.subpath {
                Some(sub) if base.starts_with('/') => path_form(&Path::new(&base).join(sub)),
                _ => base,
            };
            ("path", Some(own))
        }
    }
}

type Unmet<'r> = (&'static str, &'r Place, String);

/// What a declared source lacks of what `req` asks: pinned minisign keys
/// of the policy's on a registry, the policy's cosign key on an OCI
/// source, a declared Sigstore identity.
fn source_proof<'r>(req: &'r Requirement, decl: &SourceDecl, root: &Path) -> Vec<Unmet<'r>> {
    let mut out = Vec::new();
    let kind = || SourceId::of(decl, root).ok().map(|id| id.kind);
    if let Some(rule) = &req.minisign {
        let pinned = !decl.keys.is_empty()
            && decl
                .keys
                .iter()
                .all(|k| rule.value.iter().any(|p| p.trim() == k.trim()));
        if kind() != Some(SourceKind::Index) {
            out.push(("require.minisign", &rule.at, "the policy asks for an index signed with minisign, which this kind of source does not carry".to_owned()));
        } else if !pinned {
            out.push(("require.minisign", &rule.at, format!(
                "the policy asks for an index signed by {}; pin it with `keys = [...]` on the source (every key pinned must be one of these)",
                rule.value.join(", ")
            )));
        }
    }
    if let Some(rule) = &req.cosign {
        let pinned = decl
            .cosign_key
            .as_deref()
            .is_some_and(|k| rule.value.iter().any(|p| same_key(p, k)));
        if kind() != Some(SourceKind::Oci) {
            out.push((
                "require.cosign",
                &rule.at,
                "the policy asks for cosign signatures, which only an OCI source carries"
                    .to_owned(),
            ));
        } else if !pinned {
            out.push(("require.cosign", &rule.at, "the policy asks for artifacts signed by its cosign key; set `cosign-key` on the source to that key".to_owned()));
        }
    }
    if let Some(rule) = &req.sigstore
        && let Err(why) = sigstore_meets(&rule.value, declared_identity(decl))
    {
        out.push(("require.sigstore", &rule.at, format!("the source {why}")));
    }
    out
}

/// What a lock entry's format lacks of what `req` asks (its source's
/// keys are [`source_proof`]'s): a minisign requirement needs an index
/// entry, a cosign one an OCI entry, a Sigstore one the identity its
/// bundle was verified with.
fn entry_proof<'r>(req: &'r Requirement, entry: &LockedSkill) -> Vec<Unmet<'r>> {
    let mut out = Vec::new();
    if let Some(rule) = &req.minisign
        && !matches!(
            entry.format,
            Format::Archive | Format::SkillMd | Format::Files
        )
    {
        out.push((
            "require.minisign",
            &rule.at,
            format!(
                "its format `{}` carries no minisign signature",
                entry.format.as_str()
            ),
        ));
    }
    if let Some(rule) = &req.cosign
        && entry.format != Format::Oci
    {
        out.push((
            "require.cosign",
            &rule.at,
            format!(
                "its format `{}` carries no cosign signature",
                entry.format.as_str()
            ),
        ));
    }
    if let Some(rule) = &req.sigstore
        && let Err(why) = sigstore_meets(&rule.value, recorded_identity(entry))
    {
        out.push((
            "require.sigstore",
            &rule.at,
            format!("its lock entry {why}"),
        ));
    }
    out
}

/// Whether a Sigstore identity and issuer (`None`: none) meet `rule`: the
/// identity matches the rule's (exactly, or by its `*` and `?`), and the
/// issuer is the rule's exactly. `Err` says what was expected and found.
pub fn sigstore_meets(rule: &SigstoreRule, found: Option<(&str, &str)>) -> Result<(), String> {
    let expected = format!("identity {:?} from issuer {:?}", rule.identity, rule.issuer);
    match found {
        None => Err(format!(
            "records no Sigstore identity; the policy asks for {expected}"
        )),
        Some((identity, issuer)) => {
            let identity_ok = if rule.identity.contains(['*', '?']) {
                crate::names::pattern::matches(&rule.identity, identity)
            } else {
                rule.identity == identity
            };
            if identity_ok && rule.issuer == issuer {
                Ok(())
            } else {
                Err(format!(
                    "has identity {identity:?} from issuer {issuer:?}; the policy asks for {expected}"
                ))
            }
        }
    }
}

/// The publisher a source declares for its Sigstore bundles (skills.toml's
/// `identity` and `issuer`, docs/provenance.md): every install proves the
/// lock's bundle against it, so requiring it of the declaration holds.
fn declared_identity(decl: &SourceDecl) -> Option<(&str, &str)> {
    Some((decl.identity.as_deref()?, decl.issuer.as_deref()?))
}

/// The publisher a lock entry's Sigstore bundle recorded. The record is
/// the lock's text, but no install links it unproven: provenance verifies
/// the kept bundle against this identity on every install, in every mode
/// (docs/provenance.md), and the policy reads it only beside that proof.
fn recorded_identity(entry: &LockedSkill) -> Option<(&str, &str)> {
    let p = entry.publisher.as_ref()?;
    Some((p.identity.as_str(), p.issuer.as_str()))
}

/// Two cosign public keys are the same key: compared without PEM armour
/// and whitespace.
fn same_key(a: &str, b: &str) -> bool {
    let body = |k: &str| -> String {
        k.lines()
            .filter(|l| !l.starts_with("-----"))
            .flat_map(|l| l.chars())
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    body(a) == body(b)
}

#[derive(Deserialize)]
struct ManifestLines {
    #[serde(default)]
    source: Vec<SourceLines>,
}

#[derive(Deserialize)]
struct SourceLines {
    name: Spanned<String>,
}

#[derive(Deserialize)]
struct LockLines {
    #[serde(default)]
    skill: Vec<HashMap<String, Spanned<toml::Value>>>,
}

/// Fills in each violation's line from skills.toml and skills.lock.
fn fill_lines(violations: &mut [Violation], manifest: &Path, lock: &Path) {
    let manifest_text = std::fs::read_to_string(manifest).unwrap_or_default();
    let lock_text = std::fs::read_to_string(lock).unwrap_or_default();
    let m: Option<ManifestLines> = toml::from_str(&manifest_text).ok();
    let l: Option<LockLines> = toml::from_str(&lock_text).ok();
    // Spans of a setting's key are not kept by `toml::Table`: its line is
    // found by looking for the key under its table's header.
    let setting_line = |table: &str, key: &str| -> Option<usize> {
        let header = format!("[{table}]");
        let mut inside = false;
        for (i, line) in manifest_text.lines().enumerate() {
            let t = line.trim();
            if t.starts_with('[') {
                inside = t == header;
            } else if inside && t.split('=').next().is_some_and(|k| k.trim() == key) {
                return Some(i + 1);
            }
        }
        manifest_text
            .lines()
            .position(|l| l.trim() == header)
            .map(|i| i + 1)
    };
    for v in violations.iter_mut() {
        v.at.line = match &v.locator {
            Locator::Source(name) => m.as_ref().and_then(|m| {
                let s = m.source.iter().find(|s| s.name.get_ref() == name)?;
                Some(line_of(&manifest_text, s.name.span().start))
            }),
            Locator::Skill(name, field) => l.as_ref().and_then(|l| {
                let entry = l.skill.iter().find(|e| {
                    e.get("name").and_then(|n| n.get_ref().as_str()) == Some(name.as_str())
                })?;
                let at = entry.get(*field).or_else(|| entry.get("name"))?;
                Some(line_of(&lock_text, at.span().start))
            }),
            Locator::Setting(table, key) => setting_line(table, key),
            Locator::Known => continue,
        };
    }
}
