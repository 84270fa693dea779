//! `skills.toml`: what the team asks for (docs/design.md#manifest-and-lock).
//!
//! The file is held twice: as a `toml_edit` document, so every edit skillpm
//! makes keeps the user's comments, order and formatting, and as the typed
//! [`ManifestData`] read from it, so callers never touch raw TOML. Each edit
//! is applied to a copy of the document and re-validated before it replaces
//! the original, so an edit that would make the file invalid changes nothing.
//!
//! ```toml
//! [install]
//! scope = "repo"                  # repo | user | admin
//! agents = ["agents", "claude"]   # agent folders that get links
//!
//! [[source]]
//! name = "acme"
//! url = "https://skills.acme.dev" # base URL, index.json URL, file:// URL or path
//! keys = ["RWQ…"]                 # pinned minisign keys: signatures required
//! token-env = "ACME_SKILLS_TOKEN" # bearer token variable, sent only to this origin
//!
//! [skills]
//! pdf-tools = { source = "acme", version = "1.2" }
//!
//! [agent.claude]                  # optional per-agent filters of skill names
//! deny = ["pdf-tools"]
//!
//! [limits]                        # optional, free-form; read by the unpacker
//!
//! [audit]
//! fail-on = "high"                # low | medium | high | critical (docs/audit.md)
//! run = true                       # also run the scripts in the sandbox (`audit --run`)
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, value};

use crate::error::{Classify, Exit};
use crate::names::pattern;
use crate::skill::is_valid_name;
use crate::trust::PinnedKey;

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not valid: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("{path} has no source named `{name}`{known}")]
    UnknownSource {
        path: PathBuf,
        name: String,
        known: String,
    },
    #[error("{path} already has a source named `{name}`; remove it first or pick another name")]
    DuplicateSource { path: PathBuf, name: String },
}

crate::classified!(ManifestError);
impl Classify for ManifestError {
    fn exit(&self) -> Exit {
        match self {
            ManifestError::Read { .. } | ManifestError::Write { .. } => Exit::Other,
            ManifestError::Invalid { .. } | ManifestError::DuplicateSource { .. } => Exit::Usage,
            ManifestError::UnknownSource { .. } => Exit::NotFound,
        }
    }
}

/// Where links are made (docs/design.md#agents).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InstallScope {
    #[default]
    Repo,
    User,
    Admin,
}

impl InstallScope {
    pub fn as_str(self) -> &'static str {
        self.root_scope().as_str()
    }

    /// The same scope as the roots layer names it.
    pub fn root_scope(self) -> crate::agents::roots::Scope {
        match self {
            InstallScope::Repo => crate::agents::roots::Scope::Repo,
            InstallScope::User => crate::agents::roots::Scope::User,
            InstallScope::Admin => crate::agents::roots::Scope::Admin,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct InstallSettings {
    #[serde(default)]
    pub scope: InstallScope,
    /// Agent ids of the agents table (`skillpm agents`). Unset: the shared
    /// `.agents/skills` folder plus every agent detected here.
    #[serde(default)]
    pub agents: Option<Vec<String>>,
    /// How skill folders are placed; unset means `symlink`.
    #[serde(default)]
    pub link_mode: Option<crate::agents::roots::LinkMode>,
    /// `strict = true`: refuse at install what `skillpm check` refuses,
    /// instead of installing with warnings (what `--strict` does per run).
    #[serde(default, skip_serializing_if = "is_false")]
    pub strict: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One `[[source]]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SourceDecl {
    pub name: String,
    /// Base URL, index URL, `file://` URL, or a path (relative paths are
    /// relative to the project root).
    pub url: String,
    /// Pinned minisign public keys (`RW…`); when any is set, the index must
    /// carry a valid signature by one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
    /// Name of the environment variable holding a bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_env: Option<String>,
    /// `add --path SUBDIR`: the folder inside the source (a git repository
    /// or a folder of skills) where its skills are looked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// OCI sources: a cosign public key (base64 of the DER SubjectPublicKeyInfo,
    /// ECDSA P-256, the body of cosign's `cosign.pub`); when set, every
    /// artifact must carry a signature by it (`sources::oci::cosign`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cosign_key: Option<String>,
    /// The publisher every artifact of this source must be attested by: a
    /// Sigstore certificate identity (a workflow URI or an email address;
    /// exact, or a pattern where `*` is any run of characters), with
    /// `issuer` (docs/provenance.md#declaring-a-publisher).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// The OIDC issuer of `identity` (`https://token.actions.githubusercontent.com`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
}

impl SourceDecl {
    /// The publisher this source declares (`identity` and `issuer`).
    pub fn expected_publisher(&self) -> Option<crate::trust::sigstore::Expected> {
        Some(crate::trust::sigstore::Expected {
            identity: self.identity.clone()?,
            issuer: self.issuer.clone()?,
        })
    }
}

/// One `[skills]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillDecl {
    pub source: String,
    /// Free text the user asked for (informational; identity is the digest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `false` after `skillpm disable`: kept in the lock, linked nowhere.
    #[serde(default = "enabled_default", skip_serializing_if = "is_enabled")]
    pub enabled: bool,
}

fn enabled_default() -> bool {
    true
}

fn is_enabled(enabled: &bool) -> bool {
    *enabled
}

/// `[agent.<name>]`: which skill names an agent may load, for an agent
/// folder (`claude`) or an MCP client persona (`mcp --agent reviewer`).
/// Patterns use `*` (any run of characters) and `?` (one character); an
/// empty `allow` allows every name; a `deny` match always wins.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentRules {
    #[serde(default)]
    pub allow: Vec<String>,
    #[serde(default)]
    pub deny: Vec<String>,
}

/// Why an agent may not load a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// A `deny` pattern matched.
    Denied { pattern: String },
    /// `allow` is not empty and no pattern in it matched.
    NotAllowed,
}

impl AgentRules {
    /// `Ok` when `name` may be served; deny is checked first so it wins.
    pub fn check(&self, name: &str) -> Result<(), Denial> {
        if let Some(p) = self.deny.iter().find(|p| pattern::matches(p, name)) {
            return Err(Denial::Denied { pattern: p.clone() });
        }
        if !self.allow.is_empty() && !self.allow.iter().any(|p| pattern::matches(p, name)) {
            return Err(Denial::NotAllowed);
        }
        Ok(())
    }
}

/// The typed content of `skills.toml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestData {
    #[serde(default)]
    pub install: InstallSettings,
    #[serde(default, rename = "source")]
    pub sources: Vec<SourceDecl>,
    #[serde(default)]
    pub skills: BTreeMap<String, SkillDecl>,
    #[serde(default)]
    pub agent: BTreeMap<String, AgentRules>,
    /// Free-form; the unpacker defines what it reads from here.
    #[serde(default)]
    pub limits: Option<toml::Table>,
    #[serde(default)]
    pub audit: AuditSettings,
}

/// `[audit]`: how the scanner's findings stop an install (docs/audit.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AuditSettings {
    /// A skill with a finding at or above this severity, not accepted in
    /// skills.lock, is refused (exit 5). Unset: `high`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_on: Option<crate::audit::Severity>,
    /// Also run each new skill's scripts in the sandbox before it is
    /// linked (`audit --run`; docs/audit.md). Unset: no.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<bool>,
}

/// A loaded `skills.toml`, editable without losing its formatting.
#[derive(Debug, Clone)]
pub struct Manifest {
    path: PathBuf,
    /// The file's text as read. Most runs only read it, and parsing the
    /// editable document too was a fifth of loading a manifest of 500
    /// skills: that is made on the first edit.
    text: String,
    /// The editable document, once something edited the manifest; from
    /// then on it, not `text`, is what would be saved.
    doc: Option<DocumentMut>,
    data: ManifestData,
}

/// The most bytes of skills.toml skillpm reads (60,000 skills take 2 MB).
pub const MAX_MANIFEST_BYTES: u64 = 16 * 1024 * 1024;

/// The file `skillpm init` writes.
/// The skills.toml `skillpm init` writes: `agents` are the ids written
/// into `[install] agents` (the agents detected, chosen by the caller), and
/// `link-mode = "auto"`, so a new project holds real folders every agent
/// reads in a container, a mounted repository and Claude Code
/// (docs/design.md#agents).
pub fn template(agents: &[&str]) -> String {
    let listed: Vec<String> = agents.iter().map(|a| format!("{a:?}")).collect();
    format!(
        r#"# skills.toml: the Agent Skills this project asks for. skillpm resolves it into
# skills.lock; commit both.
#
#   [install]   where skills are linked, and for which agents
#   [[source]]  a registry; `skillpm source add <name> <url> [--key RW…] [--token-env VAR]`
#               writes one. url: a base URL, an index.json URL, a file:// URL or a path.
#               keys: pinned minisign public keys (signatures then required).
#               token-env: variable holding a bearer token, sent only to that registry.
#   [skills]    name = {{ source = "<source name>" }}, written by `skillpm add`

[install]
# "repo" (this project). Skills for your home folder or the whole system go
# in skillpm's own manifests: `skillpm -g add …`, `skillpm --scope admin add …`
scope = "repo"
# agents whose folders get the skills (ids from `skillpm agents`: "claude",
# "cursor", "opencode", ...); "agents" is the shared .agents/skills folder
agents = [{}]
# how skill folders are placed: "auto" (real folders: reflink clone, else
# hard links, else copies), "symlink" (links into your cache: gone where the
# project is mounted without it), "hardlink", "clone" or "copy"
link-mode = "auto"

[skills]
"#,
        listed.join(", ")
    )
}

/// The skills.toml skillpm makes on first use for a scope outside any
/// project (`-g`, `--scope admin`; `project::scope_project`): it says what
/// that scope is, names `agents` as `init` would, and places real folders
/// (`link-mode = "auto"`), which keep working when the cache is cleaned or
/// deleted, where symlinks into it would dangle (docs/design.md#agents).
pub fn scope_template(scope: InstallScope, agents: &[&str]) -> String {
    let (flag, whom, folders) = match scope {
        InstallScope::Repo => return template(agents),
        InstallScope::User => (
            "-g",
            "you install for yourself",
            "your home folder's agent folders (~/.agents/skills, ~/.claude/skills, …), which\n# your agents read in every project",
        ),
        InstallScope::Admin => (
            "--scope admin",
            "an administrator installs for every user of this machine",
            "the machine's agent folders (/etc/agent-skills, …), which every user's\n# agents read",
        ),
    };
    let listed: Vec<String> = agents.iter().map(|a| format!("{a:?}")).collect();
    format!(
        r#"# skills.toml of skillpm's {scope} scope: the Agent Skills {whom}
# with `skillpm {flag} add …`, placed in {folders}.
# skillpm keeps this file and its skills.lock here, outside any project, and
# made it on first use. A project's own skills go in that project's
# skills.toml (`skillpm init` there).
#
#   [install]   where skills are placed, and for which agents
#   [[source]]  a registry; `skillpm {flag} source add <name> <url>` writes one
#   [skills]    name = {{ source = "<source name>" }}, written by `skillpm {flag} add`

[install]
# always "{scope}" here (the scope is chosen by `{flag}`, never by a file)
scope = "{scope}"
# agents whose folders get the skills (ids from `skillpm {flag} agents`);
# "agents" is the shared .agents/skills folder, which Claude Code does not read
agents = [{agents}]
# "auto": real folders (reflink clone, else hard links, else copies) that
# keep working when skillpm's cache is cleaned or deleted; "symlink" links
# into the cache and dangles then; also "hardlink", "clone" or "copy"
link-mode = "auto"

[skills]
"#,
        scope = scope.as_str(),
        agents = listed.join(", "),
    )
}

impl Manifest {
    pub fn load(path: &Path) -> Result<Self, ManifestError> {
        let text = crate::fs::read_bounded(path, MAX_MANIFEST_BYTES)
            .map_err(|source| ManifestError::Read {
                path: path.to_owned(),
                source,
            })?
            .ok_or_else(|| ManifestError::Invalid {
                path: path.to_owned(),
                message: format!(
                    "it is larger than {MAX_MANIFEST_BYTES} bytes, the most skillpm reads of a skills.toml; it was not read"
                ),
            })?;
        Manifest::parse(&text, path)
    }

    /// Parses `text` as the content of `path` (used in messages and by `save`).
    pub fn parse(text: &str, path: &Path) -> Result<Self, ManifestError> {
        let data = typed(text, path)?;
        Ok(Manifest {
            path: path.to_owned(),
            text: text.to_owned(),
            doc: None,
            data,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn data(&self) -> &ManifestData {
        &self.data
    }

    pub fn install(&self) -> &InstallSettings {
        &self.data.install
    }

    pub fn sources(&self) -> &[SourceDecl] {
        &self.data.sources
    }

    pub fn source(&self, name: &str) -> Option<&SourceDecl> {
        self.data.sources.iter().find(|s| s.name == name)
    }

    /// The named source, or an error listing the declared ones.
    pub fn require_source(&self, name: &str) -> Result<&SourceDecl, ManifestError> {
        self.source(name).ok_or_else(|| self.unknown_source(name))
    }

    pub fn skills(&self) -> &BTreeMap<String, SkillDecl> {
        &self.data.skills
    }

    /// `[audit] fail-on`, `high` when unset.
    pub fn audit_fail_on(&self) -> crate::audit::Severity {
        self.data.audit.fail_on.unwrap_or_default()
    }

    /// `[audit] run`, no when unset.
    pub fn audit_run(&self) -> bool {
        self.data.audit.run.unwrap_or(false)
    }

    pub fn limits(&self) -> Option<&toml::Table> {
        self.data.limits.as_ref()
    }

    /// The document as it would be saved.
    pub fn to_toml(&self) -> String {
        self.doc
            .as_ref()
            .map_or_else(|| self.text.clone(), DocumentMut::to_string)
    }

    /// Writes the file atomically (temp file, fsync, rename).
    pub fn save(&self) -> Result<(), ManifestError> {
        crate::fs::write_atomic(&self.path, self.to_toml().as_bytes()).map_err(|source| {
            ManifestError::Write {
                path: self.path.clone(),
                source,
            }
        })
    }

    /// Appends a `[[source]]` table (after the last one, or before `[skills]`).
    pub fn add_source(&mut self, decl: &SourceDecl) -> Result<(), ManifestError> {
        if self.source(&decl.name).is_some() {
            return Err(ManifestError::DuplicateSource {
                path: self.path.clone(),
                name: decl.name.clone(),
            });
        }
        self.edit(|doc| {
            let mut table = Table::new();
            table["name"] = value(&decl.name);
            table["url"] = value(&decl.url);
            if !decl.keys.is_empty() {
                table["keys"] = value(Array::from_iter(decl.keys.iter()));
            }
            if let Some(var) = &decl.token_env {
                table["token-env"] = value(var);
            }
            if let Some(path) = &decl.path {
                table["path"] = value(path);
            }
            if let Some(key) = &decl.cosign_key {
                table["cosign-key"] = value(key);
            }
            if let Some(identity) = &decl.identity {
                table["identity"] = value(identity);
            }
            if let Some(issuer) = &decl.issuer {
                table["issuer"] = value(issuer);
            }
            let anchor = last_source_position(doc)
                .map(|p| p + 1)
                .or_else(|| table_position(doc, "skills"));
            if let Some(anchor) = anchor {
                // Comments above the next table's header that come before
                // its last blank line belong to the
                // previous table (init's commented `# agents = …` keys of
                // [install]): they stay above the new table, not below it.
                if let Some(next) = top_table_at(doc, anchor) {
                    let prefix = next.decor().prefix().and_then(|p| p.as_str()).unwrap_or("");
                    let (before, header) = split_trailing_comments(prefix);
                    if !before.trim().is_empty() {
                        next.decor_mut().set_prefix(format!("\n{header}"));
                        table.decor_mut().set_prefix(format!("{before}\n"));
                    }
                }
                double_positions(doc);
                table.set_position(Some(anchor * 2 - 1));
            }
            source_tables(doc)?.push(table);
            Ok(())
        })
    }

    /// Sets `[install] agents` (creating `[install]` when missing).
    pub fn set_install_agents(&mut self, ids: &[String]) -> Result<(), ManifestError> {
        self.set_install("agents", value(Array::from_iter(ids.iter())))
    }

    /// Sets `[install] link-mode`.
    pub fn set_install_link_mode(&mut self, mode: &str) -> Result<(), ManifestError> {
        self.set_install("link-mode", value(mode))
    }

    fn set_install(&mut self, key: &str, item: Item) -> Result<(), ManifestError> {
        self.edit(|doc| {
            let install = doc
                .entry("install")
                .or_insert_with(|| Item::Table(Table::new()));
            let table = install
                .as_table_mut()
                .ok_or_else(|| "[install] must be a table".to_owned())?;
            table[key] = item;
            Ok(())
        })
    }

    /// Removes the `[[source]]` named `name` and returns what it declared.
    pub fn remove_source(&mut self, name: &str) -> Result<SourceDecl, ManifestError> {
        let removed = self.require_source(name)?.clone();
        self.edit(|doc| {
            let tables = source_tables(doc)?;
            tables.retain(|t| t.get("name").and_then(Item::as_str) != Some(name));
            if tables.is_empty() {
                doc.remove("source");
            }
            Ok(())
        })?;
        Ok(removed)
    }

    /// Replaces the pinned keys of source `name`.
    pub fn set_source_keys(&mut self, name: &str, keys: &[String]) -> Result<(), ManifestError> {
        self.require_source(name)?;
        self.edit(|doc| {
            for table in source_tables(doc)?.iter_mut() {
                if table.get("name").and_then(Item::as_str) == Some(name) {
                    if keys.is_empty() {
                        table.remove("keys");
                    } else {
                        let mut array = Array::from_iter(keys.iter());
                        if let Some(old) = table.get("keys").and_then(Item::as_value) {
                            *array.decor_mut() = old.decor().clone();
                        }
                        table["keys"] = value(array);
                    }
                }
            }
            Ok(())
        })
    }

    /// Adds or replaces `[skills] name = { source = …, version = … }`.
    ///
    /// Unlike [`Manifest::edit`], the file is not re-parsed: the inline
    /// table written holds every field of a [`SkillDecl`], so the typed view
    /// is updated directly (the test `set_skill_reads_back_as_written` checks
    /// it equals a re-parse). Re-parsing the whole file after each skill made
    /// `add --all` quadratic: 70 % of a warm `add` of 500 (docs/performance.md#what-the-measurements-decided).
    pub fn set_skill(&mut self, name: &str, decl: &SkillDecl) -> Result<(), ManifestError> {
        let previous = self.data.skills.insert(name.to_owned(), decl.clone());
        // Checked before the document changes: `write_skill` fails (on a
        // `skills` that is not a table) before it writes anything. The rest
        // was valid already: only this entry is checked (checking the whole
        // file after each of 500 skills was 16 % of a warm `add --all`).
        let result = validate_skill(&self.data, name, decl)
            .and_then(|()| self.document().map_err(|e| e.to_string()))
            .and_then(|doc| write_skill(doc, name, decl));
        if let Err(message) = result {
            match previous {
                Some(before) => self.data.skills.insert(name.to_owned(), before),
                None => self.data.skills.remove(name),
            };
            return Err(ManifestError::Invalid {
                path: self.path.clone(),
                message,
            });
        }
        Ok(())
    }

    /// The `[skills]` edit of [`Manifest::set_skill`] through the full
    /// round trip (kept for the test that compares both).
    #[cfg(test)]
    fn set_skill_round_trip(&mut self, name: &str, decl: &SkillDecl) -> Result<(), ManifestError> {
        self.edit(|doc| write_skill(doc, name, decl))
    }

    /// Removes `[skills] name`; returns whether it was there.
    pub fn remove_skill(&mut self, name: &str) -> Result<bool, ManifestError> {
        if !self.data.skills.contains_key(name) {
            return Ok(false);
        }
        self.edit(|doc| {
            if let Some(skills) = doc.get_mut("skills").and_then(Item::as_table_like_mut) {
                skills.remove(name);
            }
            Ok(())
        })?;
        Ok(true)
    }

    /// Applies `change` to a copy and keeps it only if the result is valid.
    fn edit(
        &mut self,
        change: impl FnOnce(&mut DocumentMut) -> Result<(), String>,
    ) -> Result<(), ManifestError> {
        let mut doc = self.document()?.clone();
        change(&mut doc).map_err(|message| ManifestError::Invalid {
            path: self.path.clone(),
            message,
        })?;
        // Round-trip through text: what is validated is exactly what is saved.
        self.data = typed(&doc.to_string(), &self.path)?;
        self.doc = Some(doc);
        Ok(())
    }

    /// The editable document, parsed from the text on the first edit.
    fn document(&mut self) -> Result<&mut DocumentMut, ManifestError> {
        let doc = match self.doc.take() {
            Some(doc) => doc,
            None => parse_doc(&self.text, &self.path)?,
        };
        Ok(self.doc.insert(doc))
    }

    fn unknown_source(&self, name: &str) -> ManifestError {
        let names: Vec<&str> = self.data.sources.iter().map(|s| s.name.as_str()).collect();
        ManifestError::UnknownSource {
            path: self.path.clone(),
            name: name.to_owned(),
            known: if names.is_empty() {
                "; it declares none (add one with `skillpm source add <name> <url>`)".into()
            } else {
                format!(" (it declares: {})", names.join(", "))
            },
        }
    }
}

/// Writes `[skills] name = { source = …, version = …, enabled = false }`.
fn write_skill(doc: &mut DocumentMut, name: &str, decl: &SkillDecl) -> Result<(), String> {
    let skills = doc
        .entry("skills")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or_else(|| "`skills` must be a table".to_owned())?;
    let mut inline = InlineTable::new();
    inline.insert("source", decl.source.as_str().into());
    if let Some(v) = &decl.version {
        inline.insert("version", v.as_str().into());
    }
    if !decl.enabled {
        inline.insert("enabled", false.into());
    }
    skills.insert(name, value(inline));
    Ok(())
}

fn source_tables(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables, String> {
    doc.entry("source")
        .or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()))
        .as_array_of_tables_mut()
        .ok_or_else(|| {
            "`source` is not written as [[source]] tables; edit skills.toml by hand".to_owned()
        })
}

fn table_position(doc: &DocumentMut, key: &str) -> Option<isize> {
    doc.get(key)
        .and_then(Item::as_table)
        .and_then(Table::position)
}

/// The top-level table (not array of tables) at `position`.
fn top_table_at(doc: &mut DocumentMut, position: isize) -> Option<&mut Table> {
    doc.as_table_mut()
        .iter_mut()
        .filter_map(|(_, item)| item.as_table_mut())
        .find(|t| t.position() == Some(position))
}

/// Splits the text above a table header at its last blank line: what comes
/// before it trails the previous table; what follows it is the header's own.
fn split_trailing_comments(prefix: &str) -> (String, String) {
    let lines: Vec<&str> = prefix.split_inclusive('\n').collect();
    match lines.iter().rposition(|l| l.trim().is_empty()) {
        Some(blank) => (lines[..blank].concat(), lines[blank + 1..].concat()),
        None => (String::new(), prefix.to_owned()),
    }
}

fn last_source_position(doc: &DocumentMut) -> Option<isize> {
    doc.get("source")
        .and_then(Item::as_array_of_tables)
        .and_then(|tables| tables.iter().filter_map(Table::position).max())
}

/// Doubles every table position so that the odd slot `p * 2 - 1` lies just
/// before the table that was at `p`; tables keep their relative order.
fn double_positions(doc: &mut DocumentMut) {
    fn double(table: &mut Table) {
        if let Some(p) = table.position() {
            table.set_position(Some(p * 2));
        }
        for (_, item) in table.iter_mut() {
            match item {
                Item::Table(t) => double(t),
                Item::ArrayOfTables(tables) => tables.iter_mut().for_each(double),
                _ => {}
            }
        }
    }
    double(doc.as_table_mut());
}

fn parse_doc(text: &str, path: &Path) -> Result<DocumentMut, ManifestError> {
    text.parse()
        .map_err(|e: toml_edit::TomlError| ManifestError::Invalid {
            path: path.to_owned(),
            message: e.to_string(),
        })
}

/// Deserializes and checks the rules serde cannot express.
fn typed(text: &str, path: &Path) -> Result<ManifestData, ManifestError> {
    let invalid = |message: String| ManifestError::Invalid {
        path: path.to_owned(),
        message,
    };
    let data: ManifestData =
        toml::from_str(text).map_err(|e| invalid(e.to_string().trim_end().to_owned()))?;
    validate(&data).map_err(invalid)?;
    Ok(data)
}

fn validate(data: &ManifestData) -> Result<(), String> {
    // `[agent.NAME]` sections are MCP allow/deny rules for any name (a
    // reviewer, a CI bot), not agent ids: only `[install] agents` must be
    // in the agents table.
    for agent in data.install.agents.iter().flatten() {
        if crate::agents::Agent::parse(agent).is_none() {
            return Err(format!(
                "unknown agent `{agent}`; `skillpm agents` lists the known ids"
            ));
        }
    }
    let mut names = BTreeSet::new();
    for source in &data.sources {
        if !is_valid_name(&source.name) {
            return Err(format!(
                "source name `{}` must be 1-64 characters of a-z, 0-9 and single inner hyphens",
                source.name
            ));
        }
        if !names.insert(source.name.as_str()) {
            return Err(format!("source `{}` is declared twice", source.name));
        }
        if source.url.trim().is_empty() {
            return Err(format!("source `{}` has an empty url", source.name));
        }
        crate::net::refuse_credentials(&source.url)
            .map_err(|e| format!("source `{}`: {e}", source.name))?;
        PinnedKey::parse_all(&source.keys).map_err(|e| format!("source `{}`: {e}", source.name))?;
        match (&source.identity, &source.issuer) {
            (Some(i), Some(o)) if !i.trim().is_empty() && !o.trim().is_empty() => {}
            (None, None) => {}
            _ => {
                return Err(format!(
                    "source `{}`: `identity` and `issuer` go together (e.g. identity = \"https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main\", issuer = \"https://token.actions.githubusercontent.com\")",
                    source.name
                ));
            }
        }
        if let Some(var) = &source.token_env
            && !is_env_var_name(var)
        {
            return Err(format!(
                "source `{}`: token-env `{var}` is not an environment variable name (letters, digits, `_`)",
                source.name
            ));
        }
    }
    for (skill, decl) in &data.skills {
        validate_skill(data, skill, decl)?;
    }
    for (agent, rules) in &data.agent {
        if !is_valid_name(agent) {
            return Err(format!(
                "[agent.{agent}]: an agent name is 1-64 characters of a-z, 0-9 and single inner hyphens"
            ));
        }
        for p in rules.allow.iter().chain(&rules.deny) {
            pattern::validate(p).map_err(|why| {
                format!("[agent.{agent}] lists `{p}`, which {why} (not a skill name or pattern)")
            })?;
        }
    }
    Ok(())
}

/// The rules of one `[skills]` entry: its name, and a source that is declared.
fn validate_skill(data: &ManifestData, skill: &str, decl: &SkillDecl) -> Result<(), String> {
    if !is_valid_name(skill) {
        return Err(format!(
            "skill name `{skill}` must be 1-64 characters of a-z, 0-9 and single inner hyphens"
        ));
    }
    if !data.sources.iter().any(|s| s.name == decl.source) {
        return Err(format!(
            "skill `{skill}` names source `{}`, which no [[source]] declares",
            decl.source
        ));
    }
    Ok(())
}

/// `[A-Za-z_][A-Za-z0-9_]*`, the portable shell variable name.
pub fn is_env_var_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_skill_reads_back_as_written() {
        let text = "[[source]]\nname = \"acme\"\nurl = \"https://acme.test\"\n\n[skills]\nold = { source = \"acme\" }\n";
        let mut fast = Manifest::parse(text, Path::new("skills.toml")).unwrap();
        let mut slow = fast.clone();
        let decls = [
            ("new-one", decl("acme", Some("^1.2"), true)),
            ("old", decl("acme", None, false)),
            ("quoted-\"name", decl("acme", None, true)),
            ("orphan", decl("nobody", None, true)),
        ];
        for (name, decl) in &decls {
            let a = fast.set_skill(name, decl).map_err(|e| e.to_string());
            let b = slow
                .set_skill_round_trip(name, decl)
                .map_err(|e| e.to_string());
            assert_eq!(a, b, "{name}");
            assert_eq!(fast.to_toml(), slow.to_toml());
            assert_eq!(fast.data, slow.data);
            // And what is kept is what a fresh parse of the text reads.
            let reread = typed(&fast.to_toml(), &fast.path);
            assert_eq!(reread.unwrap(), fast.data);
        }
    }

    /// A skill's declaration: its source, its version requirement, and
    /// whether it is enabled.
    fn decl(source: &str, version: Option<&str>, enabled: bool) -> SkillDecl {
        SkillDecl {
            source: source.into(),
            version: version.map(Into::into),
            enabled,
        }
    }

    fn path() -> PathBuf {
        PathBuf::from("skills.toml")
    }

    /// The template of a project using the agents `agents` and `claude`.
    fn templated() -> Manifest {
        Manifest::parse(&template(&["agents", "claude"]), &path()).unwrap()
    }

    fn acme() -> SourceDecl {
        SourceDecl {
            name: "acme".into(),
            url: "https://skills.acme.dev".into(),
            token_env: Some("ACME_TOKEN".into()),
            ..Default::default()
        }
    }

    #[test]
    fn scope_templates_say_their_scope_and_place_real_folders() {
        for scope in [InstallScope::User, InstallScope::Admin] {
            let text = scope_template(scope, &["agents", "claude"]);
            let m = Manifest::parse(&text, &path()).unwrap();
            assert_eq!(m.install().scope, scope, "{text}");
            assert_eq!(
                m.install().agents.as_deref(),
                Some(&["agents".to_owned(), "claude".to_owned()][..])
            );
            assert_eq!(
                m.install().link_mode,
                Some(crate::agents::roots::LinkMode::Auto),
                "{text}"
            );
            assert!(text.contains(&format!("skillpm's {} scope", scope.as_str())));
            for never in ["this project", "commit both", "\"repo\""] {
                assert!(!text.contains(never), "{never}: {text}");
            }
        }
    }

    #[test]
    fn template_is_valid_and_edits_keep_comments_and_order() {
        let mut m = templated();
        assert_eq!(m.install().scope, InstallScope::Repo);
        m.add_source(&acme()).unwrap();
        m.set_skill("pdf-tools", &decl("acme", None, true)).unwrap();
        let mut second = acme();
        second.name = "beta".into();
        second.token_env = None;
        m.add_source(&second).unwrap();
        let text = m.to_toml();
        assert!(
            text.starts_with("# skills.toml: the Agent Skills"),
            "{text}"
        );
        assert!(
            text.contains("# agents whose folders get the skills"),
            "{text}"
        );
        let install = text.find("\n[install]\n").unwrap();
        let acme_at = text.find("name = \"acme\"").unwrap();
        let beta_at = text.find("name = \"beta\"").unwrap();
        let skills = text.find("\n[skills]\n").unwrap();
        assert!(
            install < acme_at && acme_at < beta_at && beta_at < skills,
            "{text}"
        );
        assert!(text.contains("pdf-tools = { source = \"acme\" }"), "{text}");
        assert!(text.contains("token-env = \"ACME_TOKEN\""), "{text}");
        // What was written reads back the same.
        let again = Manifest::parse(&text, &path()).unwrap();
        assert_eq!(again.data(), m.data());
    }

    #[test]
    fn a_source_added_to_the_template_leaves_its_install_keys_in_install() {
        let mut m = templated();
        m.add_source(&acme()).unwrap();
        let mut second = acme();
        second.name = "beta".into();
        m.add_source(&second).unwrap();
        let text = m.to_toml();
        let agents = text.find("\nagents = [\"agents\", \"claude\"]").unwrap();
        let link_mode = text.find("\nlink-mode = \"auto\"").unwrap();
        let first_source = text.find("\n[[source]]\n").unwrap();
        assert!(agents < first_source && link_mode < first_source, "{text}");
        // Editing the template's keys keeps them in [install].
        let edited = text
            .replace(
                "\nagents = [\"agents\", \"claude\"]",
                "\nagents = [\"claude\"]",
            )
            .replace("\nlink-mode = \"auto\"", "\nlink-mode = \"copy\"");
        let again = Manifest::parse(&edited, &path()).unwrap();
        assert_eq!(
            again.install().agents.as_deref(),
            Some(&["claude".to_owned()][..])
        );
        assert_eq!(again.sources().len(), 2);
        assert!(edited.contains("\n[skills]\n"), "{edited}");
    }

    #[test]
    fn invalid_edits_change_nothing() {
        let mut m = templated();
        m.add_source(&acme()).unwrap();
        let before = m.to_toml();
        assert!(matches!(
            m.add_source(&acme()),
            Err(ManifestError::DuplicateSource { .. })
        ));
        let mut bad = acme();
        bad.name = "Bad Name".into();
        assert!(matches!(
            m.add_source(&bad),
            Err(ManifestError::Invalid { .. })
        ));
        let orphan = decl("nowhere", None, true);
        assert!(m.set_skill("x", &orphan).is_err());
        assert_eq!(m.to_toml(), before);
    }

    #[test]
    fn removing_sources_and_keys() {
        let mut m = templated();
        m.add_source(&acme()).unwrap();
        m.set_source_keys(
            "acme",
            &["RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3".into()],
        )
        .unwrap();
        assert_eq!(m.source("acme").unwrap().keys.len(), 1);
        assert!(m.set_source_keys("acme", &["not a key".into()]).is_err());
        let removed = m.remove_source("acme").unwrap();
        assert_eq!(removed.name, "acme");
        assert!(!m.to_toml().contains("[[source]]\nname"));
        assert!(matches!(
            m.remove_source("acme"),
            Err(ManifestError::UnknownSource { .. })
        ));
    }

    #[test]
    fn unknown_fields_and_bad_values_are_reported_with_their_place() {
        for (text, needle) in [
            ("[install]\nscope = \"galaxy\"\n", "galaxy"),
            ("[install]\nagents = [\"vim\"]\n", "unknown agent `vim`"),
            (
                "[[source]]\nname = \"a\"\nurl = \"x\"\ncolour = 1\n",
                "colour",
            ),
            (
                "[[source]]\nname = \"a\"\nurl = \"x\"\ntoken-env = \"A-B\"\n",
                "token-env",
            ),
            ("[skills]\nfoo = { source = \"none\" }\n", "no [[source]]"),
            ("[agent.claude]\nallow = [\"../x\"]\n", "not a skill name"),
            ("nonsense = 1\n", "nonsense"),
        ] {
            let err = Manifest::parse(text, &path()).unwrap_err();
            assert!(err.to_string().contains(needle), "{text}: {err}");
            assert_eq!(err.exit(), Exit::Usage);
        }
    }

    /// `[agent.reviewer]` with glob patterns: the same section `mcp --agent
    /// reviewer` serves by is accepted, and matched as patterns.
    #[test]
    fn agent_sections_take_personas_and_patterns() {
        let m = Manifest::parse(
            "[agent.reviewer]\nallow = [\"code-*\", \"lint\"]\ndeny = [\"code-danger?\"]\n",
            &path(),
        )
        .unwrap();
        let rules = &m.data().agent["reviewer"];
        assert!(rules.check("code-review").is_ok());
        assert!(rules.check("lint").is_ok());
        assert_eq!(rules.check("pdf"), Err(Denial::NotAllowed));
        assert_eq!(
            rules.check("code-danger1"),
            Err(Denial::Denied {
                pattern: "code-danger?".into()
            })
        );
        for bad in [
            "[agent.Reviewer]\n",
            "[agent.reviewer]\ndeny = [\"Deploy-*\"]\n",
        ] {
            let err = Manifest::parse(bad, &path()).unwrap_err();
            assert_eq!(err.exit(), Exit::Usage, "{bad}: {err}");
        }
    }

    #[test]
    fn agent_rules_and_limits_are_read() {
        let m = Manifest::parse(
            "[agent.claude]\nallow = [\"a\", \"b\"]\ndeny = [\"b\"]\n[limits]\nfile-bytes = 1\n",
            &path(),
        )
        .unwrap();
        let rules = &m.data().agent["claude"];
        assert!(rules.check("a").is_ok() && rules.check("b").is_err() && rules.check("c").is_err());
        assert_eq!(m.limits().unwrap()["file-bytes"].as_integer(), Some(1));
        assert_eq!(m.install().agents, None, "unset: detection decides");
        let m = Manifest::parse(
            "[install]\nagents = [\"claude-code\", \"cursor\"]\n",
            &path(),
        )
        .unwrap();
        assert_eq!(
            m.install().agents.as_deref(),
            Some(&["claude-code".to_owned(), "cursor".to_owned()][..])
        );
    }
}
