//! The MCP handler: tool listing and calls over a catalog rebuilt per
//! request. The logic lives in plain methods ([`SkillServer::load_skill`],
//! [`SkillServer::skills_json`], [`SkillServer::tools`]) so it reads the
//! same with or without a transport; the `ServerHandler` impl only moves
//! them onto blocking threads and wraps the results.

use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::listing::{self, Listing};
use super::{LIST_TOOL, McpOptions, SKILL_TOOL, arguments};
use crate::catalog::{Catalog, HashCache, Policy, Resolved};
use crate::roots::{self, ScanLimits};
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
                last_omitted: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Discovers and judges every skill now. The error is a sentence for
    /// the client (a broken `skills.toml` or `skills.lock`).
    pub fn catalog(&self) -> Result<Catalog, String> {
        let o = &self.inner.options;
        let discovery = roots::discover(&o.project, &o.cwd, &o.env, ScanLimits::default());
        let policy = Policy::load(&o.project)
            .map_err(|e| format!("skillpm cannot serve skills here: {e}"))?;
        let mut cache = lock(&self.inner.cache);
        Ok(Catalog::build(&discovery, &policy, &o.catalog, &mut cache))
    }

    /// The listing for `catalog`, reporting newly omitted names on stderr.
    fn listing(&self, catalog: &Catalog) -> Listing {
        let listing = listing::render(catalog.listed(), self.inner.options.budget);
        let mut last = lock(&self.inner.last_omitted);
        if *last != listing.omitted {
            if !listing.omitted.is_empty() {
                eprintln!(
                    "skillpm mcp: {} skill(s) did not fit in the {}-character listing and were left out of the `skill` tool's description (still loadable, and listed by `{LIST_TOOL}`): {}",
                    listing.omitted.len(),
                    listing.budget,
                    listing.omitted.join(", ")
                );
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
                "{:?} is not a skill name: names are 1-64 characters of a-z, 0-9 and single hyphens (no `/`, `.` or `..`); call `{LIST_TOOL}` to see the skills available",
                skill::printable(name)
            ));
        }
        let catalog = self.catalog()?;
        match catalog.resolve(name) {
            Resolved::Served(s) if !s.model_invocable() => Err(format!(
                "skill `{name}` may only be invoked by a person (its SKILL.md sets `disable-model-invocation: true`); ask the user to invoke it"
            )),
            Resolved::Served(s) => {
                let Some(md) = &s.skill else {
                    return Err(format!("skill `{name}` has no readable SKILL.md"));
                };
                let mut md = md.clone();
                md.body = arguments::substitute(&md.body, args, &s.path);
                let files = envelope::sample_files(&s.path, envelope::MAX_LISTED_FILES);
                let mut text = envelope::render(&md, &s.path, &files);
                let commands = s
                    .skill
                    .as_ref()
                    .map(|m| m.shell_commands())
                    .unwrap_or_default();
                if !commands.is_empty() {
                    text.push_str(&format!(
                        "\nNote: this skill contains {} shell preprocessing command(s) (`!` lines) that some agents run while loading it. skillpm did not run them; they appear above exactly as written.\n",
                        commands.len()
                    ));
                }
                Ok(text)
            }
            Resolved::Withheld(s, why) => Err(why.explain(name, &s.path)),
            Resolved::Unknown => {
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

    /// Rebuilds the listing; `true` when it differs from the one the client
    /// last received (which then becomes the one it will receive).
    fn listing_changed(&self) -> bool {
        let catalog = self.catalog();
        let description = match &catalog {
            Ok(c) => skill_description(&self.listing(c)),
            Err(e) => format!("No skills can be loaded right now: {e}"),
        };
        let mut last = lock(&self.inner.last_listing);
        match last.as_ref() {
            Some(previous) if *previous != description => {
                *last = Some(description);
                true
            }
            _ => false,
        }
    }

    /// Polls for changes and notifies `peer` until it goes away.
    async fn watch(self, peer: Peer<RoleServer>) {
        let Some(interval) = self.inner.options.poll_interval else {
            return;
        };
        loop {
            tokio::time::sleep(interval).await;
            let this = self.clone();
            let changed = tokio::task::spawn_blocking(move || this.listing_changed())
                .await
                .unwrap_or(false);
            if changed && peer.notify_tool_list_changed().await.is_err() {
                return;
            }
        }
    }
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
        .map_err(|e| McpError::internal_error(format!("skillpm failed while serving: {e}"), None))
}

impl ServerHandler for SkillServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
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
                return Err(McpError::invalid_params(
                    format!(
                        "unknown tool `{other}`; this server has `{SKILL_TOOL}` and `{LIST_TOOL}`"
                    ),
                    None,
                ));
            }
        };
        Ok(result.into())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tokio::spawn(self.clone().watch(context.peer.clone()));
    }
}
