//! Which MCP servers the agents on this machine are configured to start,
//! read from their own configuration files. `doctor` uses it to tell a
//! skill's declared MCP dependency (`agents/openai.yaml`) that no agent
//! here provides.
//!
//! | agent       | project                                   | user                                              |
//! |-------------|-------------------------------------------|---------------------------------------------------|
//! | Claude Code | `.mcp.json` → `mcpServers`                | `${CLAUDE_CONFIG_DIR:-~}/.claude.json` → `mcpServers`, and `projects["<dir>"].mcpServers` |
//! | Codex       | `.codex/config.toml` → `[mcp_servers.*]`  | `${CODEX_HOME:-~/.codex}/config.toml` → `[mcp_servers.*]` |
//! | OpenCode    | `opencode.json[c]`, `.opencode/opencode.json[c]` → `mcp` | `${XDG_CONFIG_HOME:-~/.config}/opencode/opencode.json[c]` → `mcp` |
//!
//! Unreadable files are reported, never fatal.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::agents::roots::Env;

/// One MCP server an agent is configured to start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfiguredServer {
    pub name: String,
    /// `claude`, `codex` or `opencode`.
    pub client: &'static str,
    /// The file that declares it.
    pub file: PathBuf,
    /// `false` when the file turns it off (`enabled = false`).
    pub enabled: bool,
}

/// Every configured server found, plus the files that could not be read.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ClientConfigs {
    pub servers: Vec<ConfiguredServer>,
    pub problems: Vec<String>,
}

impl ClientConfigs {
    /// Whether some agent starts a server called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.servers.iter().any(|s| s.name == name && s.enabled)
    }
}

/// Reads every configuration file in the table above for `project`.
pub fn configured_servers(project: &Path, env: &Env) -> ClientConfigs {
    let mut out = ClientConfigs::default();
    read_json(&mut out, "claude", &project.join(".mcp.json"), |v| {
        names(v.get("mcpServers"))
    });
    let claude_json = env
        .claude_config_dir
        .clone()
        .or_else(|| env.home.clone())
        .map(|d| d.join(".claude.json"));
    if let Some(file) = claude_json {
        let key = project.to_string_lossy().into_owned();
        read_json(&mut out, "claude", &file, |v| {
            let mut all = names(v.get("mcpServers"));
            all.extend(names(
                v.get("projects")
                    .and_then(|p| p.get(&key))
                    .and_then(|p| p.get("mcpServers")),
            ));
            all
        });
    }
    let codex_home = env
        .codex_home
        .clone()
        .or_else(|| env.home.as_ref().map(|h| h.join(".codex")));
    read_codex(&mut out, &project.join(".codex/config.toml"));
    if let Some(home) = codex_home {
        read_codex(&mut out, &home.join("config.toml"));
    }
    let config_dir = env
        .xdg_config_home
        .clone()
        .or_else(|| env.home.as_ref().map(|h| h.join(".config")));
    let mut opencode = vec![
        project.join("opencode.json"),
        project.join("opencode.jsonc"),
        project.join(".opencode/opencode.json"),
        project.join(".opencode/opencode.jsonc"),
    ];
    if let Some(dir) = config_dir {
        opencode.push(dir.join("opencode/opencode.json"));
        opencode.push(dir.join("opencode/opencode.jsonc"));
    }
    for file in opencode {
        read_json(&mut out, "opencode", &file, |v| names(v.get("mcp")));
    }
    out
}

/// `(name, enabled)` for each key of an object of server tables.
fn names(servers: Option<&Value>) -> Vec<(String, bool)> {
    let Some(Value::Object(map)) = servers else {
        return Vec::new();
    };
    map.iter()
        .map(|(k, v)| {
            let enabled = v.get("enabled").and_then(Value::as_bool) != Some(false)
                && v.get("disabled").and_then(Value::as_bool) != Some(true);
            (k.clone(), enabled)
        })
        .collect()
}

fn read_json(
    out: &mut ClientConfigs,
    client: &'static str,
    file: &Path,
    pick: impl Fn(&Value) -> Vec<(String, bool)>,
) {
    let Some(text) = read(out, file) else {
        return;
    };
    match serde_json::from_str::<Value>(&strip_jsonc(&text)) {
        Ok(v) => push(out, client, file, pick(&v)),
        Err(e) => out
            .problems
            .push(format!("cannot parse {}: {e}", file.display())),
    }
}

fn read_codex(out: &mut ClientConfigs, file: &Path) {
    let Some(text) = read(out, file) else {
        return;
    };
    match toml::from_str::<toml::Table>(&text) {
        Ok(t) => {
            let servers = t
                .get("mcp_servers")
                .and_then(|s| s.as_table())
                .map(|s| {
                    s.iter()
                        .map(|(k, v)| {
                            let enabled =
                                v.get("enabled").and_then(toml::Value::as_bool) != Some(false);
                            (k.clone(), enabled)
                        })
                        .collect()
                })
                .unwrap_or_default();
            push(out, "codex", file, servers);
        }
        Err(e) => out
            .problems
            .push(format!("cannot parse {}: {}", file.display(), e.message())),
    }
}

fn read(out: &mut ClientConfigs, file: &Path) -> Option<String> {
    match std::fs::read_to_string(file) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            out.problems
                .push(format!("cannot read {}: {e}", file.display()));
            None
        }
    }
}

fn push(out: &mut ClientConfigs, client: &'static str, file: &Path, found: Vec<(String, bool)>) {
    out.servers
        .extend(found.into_iter().map(|(name, enabled)| ConfiguredServer {
            name,
            client,
            file: file.to_owned(),
            enabled,
        }));
}

/// JSON with comments and trailing commas (OpenCode's `.jsonc`, which it
/// also accepts in `.json`) turned into plain JSON. Strings are copied
/// untouched, so `"https://x"` keeps its `//`.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    // Where the last comma outside a string is in `out`, while only
    // whitespace and comments follow it: dropped if `}` or `]` comes next.
    let mut comma = None;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = '\0';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            c if c.is_whitespace() => out.push(c),
            _ => {
                if let ('}' | ']', Some(at)) = (c, comma) {
                    out.remove(at);
                }
                comma = (c == ',').then_some(out.len());
                in_string = c == '"';
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_client_format() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = tmp.path().join("proj");
        std::fs::create_dir_all(project.join(".codex")).unwrap();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::create_dir_all(home.join(".config/opencode")).unwrap();
        std::fs::write(
            project.join(".mcp.json"),
            r#"{"mcpServers": {"github": {"command": "gh-mcp"}}}"#,
        )
        .unwrap();
        std::fs::write(
            home.join(".claude.json"),
            format!(
                r#"{{"mcpServers": {{"slack": {{}}}}, "projects": {{"{}": {{"mcpServers": {{"local-db": {{}}}}}}}}}}"#,
                project.display()
            ),
        )
        .unwrap();
        std::fs::write(
            home.join(".codex/config.toml"),
            "[mcp_servers.linear]\ncommand = \"npx\"\n[mcp_servers.off]\ncommand = \"x\"\nenabled = false\n",
        )
        .unwrap();
        std::fs::write(
            project.join(".codex/config.toml"),
            "[mcp_servers.jira]\nurl = \"https://jira.example/mcp\"\n",
        )
        .unwrap();
        std::fs::write(
            home.join(".config/opencode/opencode.json"),
            "{\n  // my servers\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\"figma\": {\"type\": \"local\", \"command\": [\"f\"],},},\n}\n",
        )
        .unwrap();
        std::fs::write(project.join("opencode.json"), "{ not json").unwrap();
        let found = configured_servers(&project, &Env::with_home(&home));
        for name in ["github", "slack", "local-db", "linear", "jira", "figma"] {
            assert!(found.has(name), "{name}: {found:?}");
        }
        assert!(!found.has("off"));
        assert!(!found.has("missing"));
        assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
        assert!(found.problems[0].contains("opencode.json"));
    }

    #[test]
    fn jsonc_keeps_strings_intact() {
        let text = "{\"url\": \"https://a//b\", /* c */ \"x\": [1,2,],}";
        let v: Value = serde_json::from_str(&strip_jsonc(text)).unwrap();
        assert_eq!(v["url"], "https://a//b");
        assert_eq!(v["x"], serde_json::json!([1, 2]));
    }
}
