//! The parts of the user's environment that move skill folders.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The parts of the user's environment that move skill roots. Tests build
/// one directly; the binary uses [`Env::from_process`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    /// `HOME` (or the platform's home folder).
    pub home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`: replaces `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`: replaces `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`: replaces `~/.config` (absolute paths only, per XDG).
    pub xdg_config_home: Option<PathBuf>,
    /// `SKILLPM_ADMIN_PREFIX`: a folder standing in for `/` in admin-scope
    /// paths (for containers, packaging and tests); `None` means `/`.
    pub admin_prefix: Option<PathBuf>,
    /// Other variables the agents table names (`VIBE_HOME`, `GROK_HOME`, …).
    pub vars: BTreeMap<String, PathBuf>,
}

impl Env {
    /// Reads the variables above from this process; empty values count as unset.
    pub fn from_process() -> Env {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let mut vars = BTreeMap::new();
        for def in super::table() {
            for dir in def.user_dirs().chain(def.system) {
                if let Some(name) = dir.var
                    && let Some(value) = var(name)
                {
                    vars.insert(name.to_owned(), value);
                }
            }
            for probe in def.detect {
                if let super::Probe::Var(name, _) = probe
                    && let Some(value) = var(name)
                {
                    vars.insert((*name).to_owned(), value);
                }
            }
        }
        Env {
            home: var("HOME")
                .or_else(|| directories::BaseDirs::new().map(|d| d.home_dir().to_owned())),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
            admin_prefix: var("SKILLPM_ADMIN_PREFIX"),
            vars,
        }
    }

    /// An environment with only a home folder set.
    pub fn with_home(home: impl Into<PathBuf>) -> Env {
        Env {
            home: Some(home.into()),
            ..Env::default()
        }
    }

    /// The value of a folder variable the table names.
    pub fn var(&self, name: &str) -> Option<&Path> {
        match name {
            "CLAUDE_CONFIG_DIR" => self.claude_config_dir.as_deref(),
            "CODEX_HOME" => self.codex_home.as_deref(),
            _ => self.vars.get(name).map(PathBuf::as_path),
        }
    }

    /// `${XDG_CONFIG_HOME:-~/.config}`.
    pub fn config_dir(&self) -> Option<PathBuf> {
        self.xdg_config_home
            .clone()
            .or_else(|| Some(self.home.as_ref()?.join(".config")))
    }

    /// `relative` under the admin base (`/`, or `SKILLPM_ADMIN_PREFIX`).
    pub fn admin_path(&self, relative: &str) -> PathBuf {
        match &self.admin_prefix {
            Some(prefix) => prefix.join(relative),
            None => Path::new(ADMIN_BASE).join(relative),
        }
    }

    /// The machine-wide folder of `admin`, if the platform has one.
    pub fn admin_dir(&self, admin: super::Admin) -> Option<PathBuf> {
        match admin {
            super::Admin::None => None,
            super::Admin::Shared => Some(self.admin_path(ADMIN_AGENTS)),
            super::Admin::ClaudeManaged => Some(self.admin_path(CLAUDE_MANAGED)),
            super::Admin::Codex if cfg!(unix) => Some(self.admin_path("etc/codex/skills")),
            super::Admin::Codex => None,
        }
    }
}

#[cfg(unix)]
const ADMIN_BASE: &str = "/";
#[cfg(windows)]
const ADMIN_BASE: &str = "C:\\ProgramData";

/// Claude Code's managed (enterprise) settings folder, relative to the admin base.
#[cfg(all(unix, not(target_os = "macos")))]
const CLAUDE_MANAGED: &str = "etc/claude-code/.claude/skills";
#[cfg(target_os = "macos")]
const CLAUDE_MANAGED: &str = "Library/Application Support/ClaudeCode/.claude/skills";
#[cfg(windows)]
const CLAUDE_MANAGED: &str = "ClaudeCode\\.claude\\skills";

#[cfg(unix)]
const ADMIN_AGENTS: &str = "etc/agent-skills";
#[cfg(windows)]
const ADMIN_AGENTS: &str = "agent-skills";
