//! The MCP handler: tool listing and calls over a catalog rebuilt per
//! request. The logic lives in plain methods ([`SkillServer::load_skill`],
//! [`SkillServer::skills_json`], [`SkillServer::tools`]) so it reads the
//! same with or without a transport; the `ServerHandler` impl only moves
//! them onto blocking threads and wraps the results.

use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    GetSkillRequestParams, GetSkillResult, Implementation, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ServerCapabilities, ServerConfig, Skill, SubscriptionFilter,
    Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::listing::{self, Listing};
use super::skills_ext;
use super::{LIST_TOOL, McpOptions, SKILL_TOOL, arguments};
use crate::agents::roots::{self, ScanLimits};
use crate::catalog::{Catalog, CatalogSkill, HashCache, NameLookup, ServingRules};
use crate::skill::SKILL_MD;
use crate::skill::{self, envelope};

/// The skill server. Cheap to clone: clones share the hash cache.
#[derive(Clone)]
pub struct SkillServer {
    inner: Arc<Inner>,
}

struct Inner {
    options: McpOptions,
    cache: Mutex<HashCache>,
    /// The listing last sent to the client, to notice changes.
    last_listing: Mutex<Option<String>>,
    /// The served skills' URIs and tree digests last seen, to tell the
    /// client `notifications/resources/list_changed`.
    last_resources: Mutex<Option<String>>,
    /// Names last reported on stderr as left out of the listing.
    last_omitted: Mutex<Vec<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these leaves plain data behind; keep going.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SkillServer {
    pub fn new(options: McpOptions) -> Self {
        SkillServer {
            inner: Arc::new(Inner {
                options,
                cache: Mutex::new(HashCache::new()),
                last_listing: Mutex::new(None),
                last_resources: Mutex::new(None),
                last_omitted: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Discovers and judges every skill now. The error is a sentence for
    /// the client (a broken `skills.toml` or `skills.lock`).
    pub fn catalog(&self) -> Result<Catalog, String> {
        let o = &self.inner.options;
        let discovery = roots::discover(&o.project, &o.cwd, &o.env, ScanLimits::default());
        let policy = ServingRules::load(&o.project)
            .map_err(|e| format!("skillpm cannot serve skills here: {e}"))?;
        let mut cache = lock(&self.inner.cache);
        Ok(Catalog::build(&discovery, &policy, &o.catalog, &mut cache))
    }

    /// [`SkillServer::catalog`] for a protocol request.
    fn served_catalog(&self) -> Result<Catalog, McpError> {
        self.catalog().map_err(internal)
    }

    /// The listing for `catalog`, reporting newly omitted names on stderr.
    fn listing(&self, catalog: &Catalog) -> Listing {
        let listing = listing::render(catalog.listed(), self.inner.options.budget);
        let mut last = lock(&self.inner.last_omitted);
        if *last != listing.omitted {
            if !listing.omitted.is_empty() {
                (self.inner.options.notes.0)(&format!(
                    "skillpm mcp: {} skill(s) did not fit in the {}-character listing and were left out of the `skill` tool's description (still loadable, and listed by `{LIST_TOOL}`): {}",
                    listing.omitted.len(),
                    listing.budget,
                    listing.omitted.join(", ")
                ));
            }
            *last = listing.omitted.clone();
        }
        listing
    }

    /// The two tools, with the `skill` description built from `catalog`.
    pub fn tools(&self, catalog: &Result<Catalog, String>) -> Vec<Tool> {
        let description = match catalog {
            Ok(c) => skill_description(&self.listing(c)),
            Err(e) => format!("No skills can be loaded right now: {e}"),
        };
        *lock(&self.inner.last_listing) = Some(description.clone());
        vec![
            Tool::new(SKILL_TOOL, description, object(skill_schema())),
            Tool::new(
                LIST_TOOL,
                "List every skill the `skill` tool can load, as JSON: name, description, scope \
                 (repo, user, system, admin), path, tree digest and signing key, and whether it \
                 fits in the `skill` tool's description. Use it when the skill you need is not \
                 in that description.",
                object(json!({"type": "object", "properties": {}, "additionalProperties": false})),
            ),
        ]
    }

    /// The `skill` tool: the envelope for `name`, or the reason it cannot
    /// be loaded. The name is checked before anything is read from disk.
    pub fn load_skill(&self, name: &str, args: Option<&str>) -> Result<String, String> {
        if !skill::is_valid_name(name) {
            return Err(format!(
                "{}; call `{LIST_TOOL}` to see the skills available",
                crate::skill::not_a_skill_name(name)
            ));
        }
        let catalog = self.catalog()?;
        match catalog.resolve(name) {
            NameLookup::Served(s) if !s.model_invocable() => Err(format!(
                "skill `{name}` may only be invoked by a person (its SKILL.md sets `disable-model-invocation: true`); ask the user to invoke it"
            )),
            NameLookup::Served(s) => {
                let Some(md) = &s.skill else {
                    return Err(format!("skill `{name}` has no readable SKILL.md"));
                };
                let commands = md.shell_commands();
                let mut md = md.clone();
                md.body = arguments::substitute(&md.body, args, &s.path);
                let files = envelope::sample_files(&s.path, envelope::MAX_LISTED_FILES);
                let mut text = envelope::render(&md, &s.path, &files);
                if !commands.is_empty() {
                    text.push_str(&format!(
                        "\nNote: this skill contains {} shell preprocessing command(s) (`!` lines) that some agents run while loading it. skillpm did not run them; they appear above exactly as written.\n",
                        commands.len()
                    ));
                }
                Ok(text)
            }
            NameLookup::Withheld(s, why) => Err(why.explain(name, &s.path)),
            NameLookup::Unknown => {
                let names = catalog.listed_names();
                Err(if names.is_empty() {
                    format!("no skill named `{name}`; no skills are available to load")
                } else {
                    format!("no skill named `{name}`; available: {}", names.join(", "))
                })
            }
        }
    }

    /// The `skills_list` tool's JSON: `{"skills": [...]}` in name order.
    ///
    /// Shape (stable):
    /// ```json
    /// {"skills": [{"name": "pdf", "description": "…", "scope": "repo", "agent": "claude",
    ///              "path": "/work/app/.claude/skills/pdf", "tree": "sha256:…",
    ///              "signer": "RWQ…", "managed": true, "source": "acme", "listed": true}]}
    /// ```
    pub fn skills_json(&self) -> Result<Value, String> {
        let catalog = self.catalog()?;
        let listing = self.listing(&catalog);
        let mut skills: Vec<Value> = catalog
            .listed()
            .map(|s| {
                let source = match &s.provenance {
                    crate::catalog::Provenance::Managed { source, .. } => source.clone(),
                    crate::catalog::Provenance::Unmanaged => None,
                };
                json!({
                    "name": s.name,
                    "description": s.description,
                    "scope": s.scope,
                    "agent": s.agent,
                    "path": s.path,
                    "tree": s.tree,
                    "signer": s.signer,
                    "managed": s.is_managed(),
                    "source": source,
                    "listed": listing.included.contains(&s.name),
                })
            })
            .collect();
        skills.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
        Ok(json!({ "skills": skills }))
    }

    /// The served skill named in `uri`, and the path below its root. A URI
    /// that is not a plain `skill://` path, or names a skill that is not
    /// served (withheld, disabled, denied to this agent, unknown), is
    /// invalid params (`-32602`) with the reason.
    fn resolve_uri<'c>(
        &self,
        catalog: &'c Catalog,
        uri: &str,
    ) -> Result<(&'c CatalogSkill, String), McpError> {
        let Some((name, rel)) = skills_ext::parse_uri(uri) else {
            return Err(invalid(format!(
                "{:?} is not a resource this server serves: skill files are `skill://<name>/<path>` with no `.`, `..` or empty segments",
                skill::printable(uri)
            )));
        };
        let served = catalog
            .listed()
            .find(|s| s.name == name && s.skill.is_some() && s.tree.is_some());
        match served {
            Some(s) => Ok((s, rel)),
            None => {
                let why = match catalog.resolve(&name) {
                    NameLookup::Withheld(s, why) => why.explain(&name, &s.path),
                    NameLookup::Served(_) => format!(
                        "skill `{name}` may only be invoked by a person (its SKILL.md sets `disable-model-invocation: true`)"
                    ),
                    NameLookup::Unknown => format!("no skill named `{name}` is served here"),
                };
                Err(invalid(format!("no skill is served at {uri}: {why}")))
            }
        }
    }

    /// The extension entry of a served skill, its manifest from the hash
    /// cache (the same hashing that checked it against its approval).
    fn skill_entry(&self, s: &CatalogSkill) -> Result<Skill, McpError> {
        let tree = lock(&self.inner.cache)
            .tree(&s.path)
            .map_err(|e| internal(format!("cannot hash {}: {e}", s.name)))?;
        if Some(tree.digest) != s.tree {
            return Err(internal(format!(
                "skill `{}` changed while it was being listed; ask again",
                s.name
            )));
        }
        skills_ext::entry(s, &tree.files)
            .ok_or_else(|| internal(format!("skill `{}` has no readable SKILL.md", s.name)))
    }

    /// `skills/list`: the skills the `skill` tool's description lists (the
    /// same context budget), one page after `cursor`. Skills left out for
    /// the budget are still answered by `skills/get`, as the extension
    /// allows for partial listings.
    pub fn list_skills(&self, cursor: Option<&str>) -> Result<ListSkillsResult, McpError> {
        let catalog = self.served_catalog()?;
        let listing = self.listing(&catalog);
        *lock(&self.inner.last_resources) = Some(resources_key(&catalog));
        let mut entries = catalog
            .listed()
            .filter(|s| listing.included.contains(&s.name) && s.skill.is_some())
            .map(|s| self.skill_entry(s))
            .collect::<Result<Vec<_>, _>>()?;
        entries.sort_by(|a, b| a.uri.cmp(&b.uri));
        entries.dedup_by(|a, b| a.uri == b.uri);
        let (skills, next) = skills_ext::page(
            entries,
            |e| e.uri.as_str(),
            cursor,
            self.inner.options.page_size,
        )
        .map_err(invalid)?;
        let mut result = ListSkillsResult::with_all_items(skills)
            .with_ttl_ms(skills_ext::TTL_MS)
            .with_cache_scope(CacheScope::Private);
        result.next_cursor = next;
        Ok(result)
    }

    /// `skills/get`: the entry for the skill whose SKILL.md is `uri`.
    pub fn get_skill(&self, uri: &str) -> Result<GetSkillResult, McpError> {
        let catalog = self.served_catalog()?;
        let (s, rel) = self.resolve_uri(&catalog, uri)?;
        if rel != SKILL_MD || uri != skills_ext::skill_uri(&s.name) {
            return Err(invalid(format!(
                "no skill is served at {uri}; a skill's URI is {}",
                skills_ext::skill_uri(&s.name)
            )));
        }
        Ok(GetSkillResult::new(self.skill_entry(s)?)
            .with_ttl_ms(skills_ext::TTL_MS)
            .with_cache_scope(CacheScope::Private))
    }

    /// `resources/read` of a skill file: its exact bytes, read with the
    /// rest of the skill and checked against the approved tree digest
    /// before anything is returned.
    pub fn read_skill_file(&self, uri: &str) -> Result<ReadResourceResult, McpError> {
        let catalog = self.served_catalog()?;
        let (s, rel) = self.resolve_uri(&catalog, uri)?;
        let Some(expected) = s.tree else {
            return Err(invalid(format!("no skill is served at {uri}")));
        };
        let mut files = crate::catalog::integrity::read_verified(
            &s.path,
            &expected,
            skills_ext::MAX_SKILL_BYTES,
        )
        .map_err(internal)?;
        let Some(bytes) = files.remove(&rel) else {
            return Err(invalid(format!("skill `{}` has no file {uri}", s.name)));
        };
        let canonical = skills_ext::file_uri(&s.name, &rel);
        Ok(
            ReadResourceResult::new(vec![skills_ext::contents(&canonical, &rel, bytes)])
                .with_ttl_ms(skills_ext::TTL_MS)
                .with_cache_scope(CacheScope::Private),
        )
    }

    /// `resources/directory/read`: the direct children of a directory of a
    /// served skill (its root is `skill://<name>`).
    pub fn read_directory(&self, uri: &str) -> Result<ReadResourceDirectoryResult, McpError> {
        let catalog = self.served_catalog()?;
        let (s, rel) = self.resolve_uri(&catalog, uri)?;
        let tree = lock(&self.inner.cache)
            .tree(&s.path)
            .map_err(|e| internal(format!("cannot hash {}: {e}", s.name)))?;
        let paths = tree.files.iter().map(|f| (f.path.as_str(), f.size));
        let children = skills_ext::directory_children(&s.name, paths, &rel)
            .ok_or_else(|| invalid(format!("{uri} is not a directory resource")))?;
        Ok(ReadResourceDirectoryResult::with_all_items(children))
    }

    /// `resources/list`: the SKILL.md of every skill `skills/list` lists.
    pub fn list_resources(&self) -> Result<ListResourcesResult, McpError> {
        let catalog = self.served_catalog()?;
        let listing = self.listing(&catalog);
        *lock(&self.inner.last_resources) = Some(resources_key(&catalog));
        let mut resources: Vec<Resource> = catalog
            .listed()
            .filter(|s| listing.included.contains(&s.name))
            .map(|s| {
                Resource::new(skills_ext::skill_uri(&s.name), s.name.clone())
                    .with_description(s.description.clone())
                    .with_mime_type("text/markdown")
            })
            .collect();
        resources.sort_by(|a, b| a.uri.cmp(&b.uri));
        resources.dedup_by(|a, b| a.uri == b.uri);
        Ok(ListResourcesResult::with_all_items(resources)
            .with_ttl_ms(skills_ext::TTL_MS)
            .with_cache_scope(CacheScope::Private))
    }

    /// Rebuilds the listing; tells whether the `skill` tool's description
    /// and the set of served skills (URIs and tree digests) differ from what
    /// the client last received (which then becomes what it will receive).
    fn listing_changed(&self) -> (bool, bool) {
        let catalog = self.catalog();
        let description = match &catalog {
            Ok(c) => skill_description(&self.listing(c)),
            Err(e) => format!("No skills can be loaded right now: {e}"),
        };
        let resources = match &catalog {
            Ok(c) => resources_key(c),
            Err(e) => e.clone(),
        };
        (
            replace_if_changed(&self.inner.last_listing, description),
            replace_if_changed(&self.inner.last_resources, resources),
        )
    }

    /// Polls for changes and notifies `peer` until it goes away.
    async fn watch(self, peer: Peer<RoleServer>) {
        let Some(interval) = self.inner.options.poll_interval else {
            return;
        };
        loop {
            tokio::time::sleep(interval).await;
            let this = self.clone();
            let (tools, resources) = tokio::task::spawn_blocking(move || this.listing_changed())
                .await
                .unwrap_or((false, false));
            if tools && peer.notify_tool_list_changed().await.is_err() {
                return;
            }
            if resources && peer.notify_resource_list_changed().await.is_err() {
                return;
            }
        }
    }
}

/// Stores `now` in `slot`; `true` when it replaced a different value (the
/// first value is only remembered: the client has just asked for it).
fn replace_if_changed(slot: &Mutex<Option<String>>, now: String) -> bool {
    let mut last = lock(slot);
    let changed = last.as_ref().is_some_and(|previous| *previous != now);
    *last = Some(now);
    changed
}

/// What `notifications/resources/list_changed` watches: the URI and tree
/// digest of every skill the extension serves.
fn resources_key(catalog: &Catalog) -> String {
    let mut lines: Vec<String> = catalog
        .listed()
        .map(|s| {
            let tree = s.tree.map(|t| t.to_string()).unwrap_or_default();
            format!("{} {tree}", skills_ext::skill_uri(&s.name))
        })
        .collect();
    lines.sort();
    lines.join("\n")
}

fn skill_description(listing: &Listing) -> String {
    let mut text = String::from(
        "Load a skill: a folder of instructions, scripts and reference files for one kind of task. \
         Before starting a task that matches a skill's description below, call this tool with the \
         skill's name and follow the instructions it returns; relative paths in them are relative \
         to the skill's base directory. Pass `arguments` when the user gave the skill arguments. \
         Only the skills listed here can be loaded.\n\n",
    );
    if listing.included.is_empty() && listing.omitted.is_empty() {
        text.push_str("No skills are available right now.\n\n");
    }
    text.push_str(&listing.xml);
    if !listing.omitted.is_empty() {
        text.push_str(&format!(
            "\n\n{} more skill(s) did not fit in this list; call `{LIST_TOOL}` to see them all.",
            listing.omitted.len()
        ));
    }
    text
}

fn skill_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "description": "The skill's name, exactly as listed in <available_skills>."
            },
            "arguments": {
                "type": "string",
                "description": "Optional arguments for the skill, as the user would type them after its name; substituted for $ARGUMENTS, $ARGUMENTS[N] and $N in its instructions."
            }
        },
        "required": ["name"],
        "additionalProperties": false
    })
}

fn object(v: Value) -> Arc<serde_json::Map<String, Value>> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(serde_json::Map::new()),
    }
}

/// A request this server cannot answer as asked (`-32602`), and why.
fn invalid(message: impl Into<std::borrow::Cow<'static, str>>) -> McpError {
    McpError::invalid_params(message, None)
}

/// A failure of this server while answering, said for the client.
fn internal(message: impl Into<std::borrow::Cow<'static, str>>) -> McpError {
    McpError::internal_error(message, None)
}

fn text_result(result: Result<String, String>) -> CallToolResult {
    match result {
        Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, McpError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| internal(format!("skillpm failed while serving: {e}")))
}

impl ServerHandler for SkillServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .enable_resources_list_changed()
                .enable_skills_with_directory_read()
                .build(),
        )
        .with_server_info(Implementation::new("skillpm", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "skillpm serves the Agent Skills installed and approved for this project. The `skill` \
             tool's description lists them; call `skill` with a name to load its instructions.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let this = self.clone();
        let tools = blocking(move || {
            let catalog = this.catalog();
            this.tools(&catalog)
        })
        .await?;
        Ok(ListToolsResult {
            tools,
            ..Default::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.unwrap_or_default();
        let this = self.clone();
        let result = match request.name.as_ref() {
            SKILL_TOOL => {
                let name = match args.get("name") {
                    Some(Value::String(s)) => s.clone(),
                    _ => {
                        return Ok(CallToolResult::error(vec![ContentBlock::text(
                            "the `skill` tool needs a string `name`: the skill's name as listed in its description",
                        )])
                        .into());
                    }
                };
                let extra = match args.get("arguments") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => {
                        return Ok(CallToolResult::error(vec![ContentBlock::text(
                            "`arguments` must be a string, as the user would type it after the skill's name",
                        )])
                        .into());
                    }
                };
                text_result(blocking(move || this.load_skill(&name, extra.as_deref())).await?)
            }
            LIST_TOOL => match blocking(move || this.skills_json()).await? {
                Ok(value) => CallToolResult::structured(value),
                Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
            },
            other => {
                return Err(invalid(format!(
                    "unknown tool `{other}`; this server has `{SKILL_TOOL}` and `{LIST_TOOL}`"
                )));
            }
        };
        Ok(result.into())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, McpError> {
        let cursor = request.and_then(|r| r.cursor);
        let this = self.clone();
        blocking(move || this.list_skills(cursor.as_deref())).await?
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, McpError> {
        let this = self.clone();
        blocking(move || this.get_skill(&request.uri)).await?
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let this = self.clone();
        blocking(move || this.read_skill_file(&request.uri))
            .await?
            .map(Into::into)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, McpError> {
        if request.cursor.is_some() {
            return Err(invalid(
                "this server returns every child of a directory in one page; there is no cursor to resume from",
            ));
        }
        let this = self.clone();
        blocking(move || this.read_directory(&request.uri)).await?
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let this = self.clone();
        blocking(move || this.list_resources()).await?
    }

    /// Protocol 2026-07-28 delivers change notifications on a
    /// `subscriptions/listen` stream instead of the session.
    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(
            SubscriptionFilter::builder()
                .tools_list_changed()
                .resources_list_changed()
                .build(),
        )
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let Some(interval) = self.inner.options.poll_interval else {
            context.cancelled().await;
            return Ok(());
        };
        let accepted = context.accepted().clone();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                _ = tokio::time::sleep(interval) => {}
            }
            let this = self.clone();
            let (tools, resources) = blocking(move || this.listing_changed()).await?;
            let sink = context.sink();
            if tools
                && accepted.tools_list_changed == Some(true)
                && sink.notify_tool_list_changed().await.is_err()
            {
                return Ok(());
            }
            if resources
                && accepted.resources_list_changed == Some(true)
                && sink.notify_resource_list_changed().await.is_err()
            {
                return Ok(());
            }
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tokio::spawn(self.clone().watch(context.peer.clone()));
    }
}
