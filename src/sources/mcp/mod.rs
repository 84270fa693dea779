//! The MCP kind (docs/sources.md#mcp, `mcp+https://…` sources): list,
//! fetch and verify with [`crate::sources::mcp::client`], then store like any other
//! source. The lock pins the server URL, the skill's URI and the tree
//! digest; the proof is this cache's own record of having read that tree
//! from that server.

pub mod client;

use anyhow::Context as _;

use super::candidate::{Candidate, Offer, candidate, check_tree, judge_stored, new_lock_entry};
use super::location::Written;
use super::proof::{Declared, Proof, ProveContext, ProveError, broken, declared_url};
use super::tokens::bound_token_env;
use super::workspace::{Workspace, fail};
use super::{Kind, Latest, Net, SearchResult, SearchTarget, Source};
use crate::error::{Exit, OpError};
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::store::StoreEntry;
use client::{McpClient, ServerSkill};

/// The MCP kind.
pub struct Mcp;

/// An MCP source, opened: the skills the server lists.
pub struct McpOpened {
    pub skills: Vec<ServerSkill>,
    /// The session that listed them (servers may allow one per client).
    pub client: std::sync::Mutex<McpClient>,
}

/// Lists the server's skills (each entry checked for shape).
fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<McpOpened> {
    let mut client = connect(ws, decl)?;
    let skills = client
        .list_skills()
        .with_context(|| format!("cannot list the skills of source `{}`", decl.name))?;
    Ok(McpOpened {
        skills,
        client: std::sync::Mutex::new(client),
    })
}

impl Source for McpOpened {
    fn offers(&self) -> Vec<Offer> {
        self.skills
            .iter()
            .map(|s| Offer {
                name: s.name.clone(),
                description: s.description.clone(),
                path: Some(s.uri.clone()),
            })
            .collect()
    }

    fn looked_at(&self, decl: &SourceDecl) -> String {
        format!(
            "the MCP server {} ({} skills listed)",
            decl.url,
            self.skills.len()
        )
    }

    fn resolve(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        resolve(ws, decl, &self.skills, &self.client, names)
    }
}

impl Kind for Mcp {
    /// `mcp+https://…` (and `mcp+http://…`): an MCP server.
    fn recognizes(&self, at: &Written<'_>) -> anyhow::Result<Option<Option<String>>> {
        if !client::is_mcp_form(at.text) {
            return Ok(None);
        }
        client::endpoint(at.text).map_err(|e| at.not_a_source(&e.to_string()))?;
        Ok(Some(None))
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Mcp]
    }

    fn open(&self, ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Box<dyn Source>> {
        Ok(Box::new(open(ws, decl)?))
    }

    fn fetch(&self, ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
        for group in super::candidate::by_source(group).values() {
            fetch_locked(ws, group)?;
        }
        Ok(())
    }

    fn needs_fetch(&self, ws: &Workspace<'_>, skill: &LockedSkill) -> anyhow::Result<bool> {
        Ok(!proven_here(ws, skill)?)
    }

    /// The MCP links: the server is the declared one and the URI names this
    /// skill; the tree is checked when the files are fetched.
    fn prove(
        &self,
        _cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        _declared: &Declared,
        proof: Proof,
    ) -> Result<Option<Proof>, ProveError> {
        declared_url(entry, decl, "fetches it from MCP server", "")?;
        let named = entry
            .uri
            .as_deref()
            .and_then(|u| u.strip_suffix("/SKILL.md"))
            .and_then(|root| root.rsplit('/').next());
        if named != Some(entry.name.as_str()) {
            return Err(broken(
                entry,
                "entry",
                format!(
                    "skills.lock gives it the MCP skill URI {}, which does not name `{}`",
                    entry.uri.as_deref().unwrap_or("(none)"),
                    entry.name
                ),
            ));
        }
        Ok(Some(proof))
    }

    /// What the server lists now for each locked skill: its tree digest,
    /// from the manifest alone (no file is read).
    fn latest(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>> {
        let opened = open(ws, decl)?;
        Ok(upstream_trees(&opened.skills, skills)
            .into_iter()
            .map(Ok)
            .collect())
    }

    /// `search` reads no MCP server: `add --list` lists one in a project.
    fn search(&self, _net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult> {
        fail(
            Exit::Usage,
            format!(
                "source `{}` is an MCP server, which `search` does not read; list its skills with `skillpm add --list {}`",
                target.decl.name, target.decl.url
            ),
        )
    }
}

/// The record kind of MCP fetches (`state/proofs/mcp/`).
const MCP_RECORDS: &str = "mcp";

fn fetched_key(url: &str, uri: &str, tree: &crate::digest::Digest) -> String {
    format!("{url}\n{uri}\n{tree}")
}

/// Records that this cache read `tree` from MCP server `url` at `uri`
/// (authenticated with the user's record key, docs/threat-model.md).
fn record_fetched(ws: &Workspace<'_>, url: &str, uri: &str, tree: &crate::digest::Digest) {
    let records = crate::store::unpacked::Records::proofs(ws.store.root(), MCP_RECORDS);
    let _ = records.put(&fetched_key(url, uri, tree), "fetched");
}

/// The proof rule of an MCP lock entry: its tree was read from the
/// declared server at the locked URI, on this cache (a record this user's
/// key authenticates). Without one, an online run reads it from the server
/// again (returned `false`: fetch it); an offline run whose store holds the
/// tree anyway refuses it (exit 3): a lock edit may name any tree the
/// cache holds. Against someone who can also write the user's state folder
/// (the key) only a signature over the server's listing would help.
fn proven_here(ws: &Workspace<'_>, s: &LockedSkill) -> anyhow::Result<bool> {
    let (url, uri) = (
        s.url.as_deref().unwrap_or(""),
        s.uri.as_deref().unwrap_or(""),
    );
    let records = crate::store::unpacked::Records::proofs(ws.store.root(), MCP_RECORDS);
    if records.get(&fetched_key(url, uri, &s.tree)).is_some() {
        return Ok(true);
    }
    if ws.offline && ws.store.has_entry(&s.tree) {
        return fail(
            Exit::Integrity,
            format!(
                "{}: tree {} was never read from MCP server {url} ({uri}) on this machine, so offline nothing proves it\n  run `skillpm install --locked` (online) to read it from the server, or `skillpm update {}`; {}",
                s.name,
                s.tree,
                s.name,
                crate::trust::record_key::CI_HINT
            ),
        );
    }
    Ok(false)
}

/// Connects to the server `decl` names, with its token when one is set.
fn connect(ws: &Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<McpClient> {
    let url = client::endpoint(&decl.url)?;
    let token = |var: &String| {
        let set = std::env::var(var).ok().filter(|t| !t.trim().is_empty());
        set.ok_or_else(|| {
            OpError::new(
                Exit::Usage,
                format!(
                    "source `{}` needs the token in ${var}, which is not set",
                    decl.name
                ),
            )
        })
    };
    let bearer = bound_token_env(decl).as_ref().map(token).transpose()?;
    ws.ui.status("Connecting", url.as_str());
    Ok(McpClient::connect(&url, bearer, ws.offline)?)
}

/// Reads, verifies and stores one listed skill.
fn store_skill(
    ws: &Workspace<'_>,
    client: &mut McpClient,
    skill: &ServerSkill,
) -> anyhow::Result<StoreEntry> {
    let files = client.fetch_skill(skill)?;
    let readers = files
        .into_iter()
        .map(|(path, bytes)| (path, std::io::Cursor::new(bytes)));
    Ok(ws
        .store
        .import_file_list(&skill.uri, &skill.name, ws.limits, readers)?)
}

/// Candidates for `names` of an opened MCP source, one result per name so
/// `add --all` keeps every acceptable skill and reports the others.
fn resolve(
    ws: &mut Workspace<'_>,
    decl: &SourceDecl,
    skills: &[ServerSkill],
    client: &std::sync::Mutex<McpClient>,
    names: &[String],
) -> Vec<anyhow::Result<Candidate>> {
    let mut client = client.lock().unwrap_or_else(|p| p.into_inner());
    names
        .iter()
        .map(|name| {
            let skill = skills.iter().find(|s| &s.name == name).ok_or_else(|| {
                OpError::new(
                    Exit::NotFound,
                    format!("MCP server {} lists no skill named `{name}`", decl.url),
                )
            })?;
            let entry = store_skill(ws, &mut client, skill)
                .with_context(|| format!("cannot fetch `{name}` from {}", decl.url))?;
            record_fetched(ws, &decl.url, &skill.uri, &entry.digest);
            let locked = LockedSkill {
                url: Some(decl.url.clone()),
                uri: Some(skill.uri.clone()),
                ..new_lock_entry(name, &decl.name, Format::Mcp, &entry)
            };
            let judged = judge_stored(ws.level, (ws.store, &entry), name, &skill.uri)?;
            candidate(ws, locked, entry, judged)
        })
        .collect()
}

/// Fetches locked MCP skills missing from the store (or not proven on this
/// cache); each must hash to the locked tree (the server changed it
/// otherwise: exit 3).
fn fetch_locked(ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let source_name = group[0].source.as_str();
    let decl = ws.manifest.require_source(source_name)?.clone();
    let mut client = connect(ws, &decl)?;
    let skills = client.list_skills()?;
    for s in group {
        let Some(listed) = skills.iter().find(|l| Some(&l.uri) == s.uri.as_ref()) else {
            return fail(
                Exit::NotFound,
                format!(
                    "MCP source `{source_name}` no longer lists {} (skill `{}`)",
                    s.uri.as_deref().unwrap_or("(no uri in skills.lock)"),
                    s.name
                ),
            );
        };
        check_tree(s, listed.tree(), &decl.url)?;
        let entry = store_skill(ws, &mut client, listed)?;
        check_tree(s, entry.digest, &decl.url)?;
        record_fetched(ws, &decl.url, &listed.uri, &entry.digest);
    }
    Ok(())
}

/// What the server lists now for each locked skill: its tree digest, from
/// the manifest alone (no file is read), for `outdated`.
fn upstream_trees(
    skills: &[ServerSkill],
    locked: &[&LockedSkill],
) -> Vec<(Option<String>, Option<String>)> {
    locked
        .iter()
        .map(|s| {
            let found = skills
                .iter()
                .find(|l| Some(&l.uri) == s.uri.as_ref())
                .or_else(|| skills.iter().find(|l| l.name == s.name));
            (found.map(|l| l.tree().to_string()), None)
        })
        .collect()
}
