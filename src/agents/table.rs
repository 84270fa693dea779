//! The rows of the agents table. The first four are skillpm's own names
//! (kept from DESIGN §8 so existing `skills.toml` files, `--agent` filters
//! and JSON stay valid); the rest follow vercel-labs `skills` 1.7.4
//! (`src/agents.ts`, read from the published npm package), which is the
//! only source for rows without their own `doc` link: for those, the
//! folders and detection are vercel's, not checked against the agent's own
//! documentation.

use super::{Admin, AgentDef, Dir, Probe};

/// vercel-labs `skills` 1.7.4, `src/agents.ts`.
pub(super) const VERCEL_TABLE: &str =
    "https://github.com/vercel-labs/skills/blob/main/src/agents.ts";

pub(super) const AGENTS: &[AgentDef] = &[
    // The shared folder of the Agent Skills standard: read by Codex, Gemini
    // CLI, GitHub Copilot, OpenCode, Cursor, Amp and others (see their rows).
    // https://agentskills.io/client-implementation/adding-skills-support
    AgentDef {
        id: "agents",
        display: "Agent Skills (shared .agents/skills)",
        aliases: &["universal"],
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        admin: Admin::Shared,
        detect: &[],
        doc: "https://agentskills.io/client-implementation/adding-skills-support",
        ..AgentDef::VERCEL
    },
    // https://code.claude.com/docs/en/skills — project `.claude/skills`,
    // personal `~/.claude/skills` (`CLAUDE_CONFIG_DIR` moves `~/.claude`),
    // enterprise managed settings folder.
    AgentDef {
        id: "claude",
        display: "Claude Code",
        aliases: &["claude-code"],
        project: ".claude/skills",
        user: Some(Dir::var("CLAUDE_CONFIG_DIR", ".claude", "skills")),
        admin: Admin::ClaudeManaged,
        detect: &[
            Probe::Var("CLAUDE_CONFIG_DIR", ".claude"),
            Probe::Project(".claude"),
        ],
        doc: "https://code.claude.com/docs/en/skills",
        ..AgentDef::VERCEL
    },
    // https://opencode.ai/docs/skills/ — `.opencode/skills`, `.claude/skills`,
    // `.agents/skills` up to the git worktree, and the same under
    // `~/.config/opencode`, `~/.claude`, `~/.agents`. Its loader
    // (anomalyco/opencode packages/opencode/src/skill) also globs the
    // singular `skill/**/SKILL.md` of its config folders, at any depth.
    AgentDef {
        id: "opencode",
        display: "OpenCode",
        aliases: &[],
        project: ".opencode/skills",
        project_reads: &[".opencode/skill", ".claude/skills", ".agents/skills"],
        user: Some(Dir::config("opencode/skills")),
        user_reads: &[
            Dir::config("opencode/skill"),
            Dir::var("CLAUDE_CONFIG_DIR", ".claude", "skills"),
            Dir::home(".agents/skills"),
        ],
        detect: &[Probe::Config("opencode"), Probe::Project(".opencode")],
        doc: "https://opencode.ai/docs/skills/",
        ..AgentDef::VERCEL
    },
    // https://developers.openai.com/codex/skills — repo `.agents/skills`
    // (every folder from the working directory up to the repository root),
    // user `${CODEX_HOME:-~/.codex}/skills` and `~/.agents/skills`, admin
    // `/etc/codex/skills`, system `$CODEX_HOME/skills/.system` (loader:
    // openai/codex codex-rs/core-skills/src/loader.rs).
    AgentDef {
        id: "codex",
        display: "Codex",
        aliases: &[],
        project: ".agents/skills",
        user: Some(Dir::var("CODEX_HOME", ".codex", "skills")),
        user_reads: &[Dir::home(".agents/skills")],
        system: Some(Dir::var("CODEX_HOME", ".codex", "skills/.system")),
        admin: Admin::Codex,
        detect: &[Probe::Var("CODEX_HOME", ".codex")],
        doc: "https://developers.openai.com/codex/skills",
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "aider-desk",
        display: "AiderDesk",
        project: ".aider-desk/skills",
        user: Some(Dir::home(".aider-desk/skills")),
        detect: &[Probe::Home(".aider-desk")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "amp",
        display: "Amp",
        project: ".agents/skills",
        user: Some(Dir::config("agents/skills")),
        detect: &[Probe::Config("amp")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "antigravity",
        display: "Antigravity",
        project: ".agents/skills",
        user: Some(Dir::home(".gemini/antigravity/skills")),
        detect: &[Probe::Home(".gemini/antigravity")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "antigravity-cli",
        display: "Antigravity CLI",
        project: ".agents/skills",
        user: Some(Dir::home(".gemini/antigravity-cli/skills")),
        detect: &[Probe::Home(".gemini/antigravity-cli")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "astrbot",
        display: "AstrBot",
        project: "data/skills",
        user: Some(Dir::home(".astrbot/data/skills")),
        detect: &[Probe::Home(".astrbot")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "autohand-code",
        display: "Autohand Code CLI",
        project: ".autohand/skills",
        user: Some(Dir::var("AUTOHAND_HOME", ".autohand", "skills")),
        detect: &[Probe::Var("AUTOHAND_HOME", ".autohand")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "augment",
        display: "Augment",
        project: ".augment/skills",
        user: Some(Dir::home(".augment/skills")),
        detect: &[Probe::Home(".augment")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "bob",
        display: "IBM Bob",
        project: ".bob/skills",
        user: Some(Dir::home(".bob/skills")),
        detect: &[Probe::Home(".bob")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "openclaw",
        display: "OpenClaw",
        project: "skills",
        user: Some(Dir::home(".openclaw/skills")),
        user_reads: &[Dir::home(".clawdbot/skills"), Dir::home(".moltbot/skills")],
        detect: &[
            Probe::Home(".openclaw"),
            Probe::Home(".clawdbot"),
            Probe::Home(".moltbot"),
        ],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "cline",
        display: "Cline",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".cline")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "codearts-agent",
        display: "CodeArts Agent",
        project: ".codeartsdoer/skills",
        user: Some(Dir::home(".codeartsdoer/skills")),
        detect: &[Probe::Home(".codeartsdoer")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "codebuddy",
        display: "CodeBuddy",
        project: ".codebuddy/skills",
        user: Some(Dir::home(".codebuddy/skills")),
        detect: &[Probe::Home(".codebuddy")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "codemaker",
        display: "Codemaker",
        project: ".codemaker/skills",
        user: Some(Dir::home(".codemaker/skills")),
        detect: &[Probe::Home(".codemaker")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "codestudio",
        display: "Code Studio",
        project: ".codestudio/skills",
        user: Some(Dir::home(".codestudio/skills")),
        detect: &[Probe::Home(".codestudio")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "command-code",
        display: "Command Code",
        project: ".commandcode/skills",
        user: Some(Dir::home(".commandcode/skills")),
        detect: &[Probe::Home(".commandcode")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "continue",
        display: "Continue",
        project: ".continue/skills",
        user: Some(Dir::home(".continue/skills")),
        detect: &[Probe::Home(".continue")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "cortex",
        display: "Cortex Code",
        project: ".cortex/skills",
        user: Some(Dir::home(".snowflake/cortex/skills")),
        detect: &[Probe::Home(".snowflake/cortex")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "crush",
        display: "Crush",
        project: ".crush/skills",
        user: Some(Dir::home(".config/crush/skills")),
        detect: &[Probe::Home(".config/crush")],
        ..AgentDef::VERCEL
    },
    // vercel's row; Cursor also reads `.cursor/skills` and `.claude/skills`
    // (https://cursor.com/docs/context/skills, not checked here).
    AgentDef {
        id: "cursor",
        display: "Cursor",
        project: ".agents/skills",
        user: Some(Dir::home(".cursor/skills")),
        detect: &[Probe::Home(".cursor")],
        project_reads: &[".cursor/skills", ".claude/skills"],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "deepagents",
        display: "Deep Agents",
        project: ".agents/skills",
        user: Some(Dir::home(".deepagents/agent/skills")),
        detect: &[Probe::Home(".deepagents")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "devin",
        display: "Devin for Terminal",
        project: ".devin/skills",
        user: Some(Dir::config("devin/skills")),
        detect: &[Probe::Config("devin")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "dexto",
        display: "Dexto",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".dexto")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "droid",
        display: "Droid",
        project: ".agents/skills",
        user: Some(Dir::home(".factory/skills")),
        detect: &[Probe::Home(".factory")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "eve",
        display: "Eve",
        project: "agent/skills",
        user: None,
        detect: &[Probe::Project("agent")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "firebender",
        display: "Firebender",
        project: ".agents/skills",
        user: Some(Dir::home(".firebender/skills")),
        detect: &[Probe::Home(".firebender")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "forgecode",
        display: "ForgeCode",
        project: ".forge/skills",
        user: Some(Dir::home(".forge/skills")),
        detect: &[Probe::Home(".forge")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "fx",
        display: "fx",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".fx")],
        ..AgentDef::VERCEL
    },
    // https://geminicli.com/docs/cli/using-agent-skills/ — workspace
    // `.gemini/skills` or `.agents/skills`, user `~/.gemini/skills` or `~/.agents/skills`.
    AgentDef {
        id: "gemini-cli",
        display: "Gemini CLI",
        project: ".agents/skills",
        user: Some(Dir::home(".gemini/skills")),
        detect: &[Probe::Home(".gemini")],
        project_reads: &[".gemini/skills"],
        user_reads: &[Dir::home(".agents/skills")],
        doc: "https://geminicli.com/docs/cli/skills",
        ..AgentDef::VERCEL
    },
    // https://docs.github.com/en/copilot/concepts/agents/about-agent-skills —
    // project `.github/skills`, `.claude/skills`, `.agents/skills`; personal
    // `~/.copilot/skills`, `~/.claude/skills`, `~/.agents/skills`.
    AgentDef {
        id: "github-copilot",
        display: "GitHub Copilot",
        project: ".agents/skills",
        user: Some(Dir::home(".copilot/skills")),
        detect: &[Probe::Home(".copilot")],
        project_reads: &[".github/skills", ".claude/skills"],
        user_reads: &[
            Dir::home(".agents/skills"),
            Dir::var("CLAUDE_CONFIG_DIR", ".claude", "skills"),
        ],
        doc: "https://docs.github.com/en/copilot/concepts/agents/about-agent-skills",
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "goose",
        display: "Goose",
        project: ".goose/skills",
        user: Some(Dir::config("goose/skills")),
        detect: &[Probe::Config("goose")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "grok",
        display: "Grok Build",
        project: ".grok/skills",
        user: Some(Dir::var("GROK_HOME", ".grok", "skills")),
        detect: &[Probe::Var("GROK_HOME", ".grok")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "hermes-agent",
        display: "Hermes Agent",
        project: ".hermes/skills",
        user: Some(Dir::var("HERMES_HOME", ".hermes", "skills")),
        detect: &[Probe::Var("HERMES_HOME", ".hermes")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "inference-sh",
        display: "inference.sh",
        project: ".inferencesh/skills",
        user: Some(Dir::home(".inferencesh/skills")),
        detect: &[Probe::Home(".inferencesh")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "jazz",
        display: "Jazz",
        project: ".jazz/skills",
        user: Some(Dir::home(".jazz/skills")),
        detect: &[Probe::Home(".jazz")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "junie",
        display: "Junie",
        project: ".junie/skills",
        user: Some(Dir::home(".junie/skills")),
        detect: &[Probe::Home(".junie")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "iflow-cli",
        display: "iFlow CLI",
        project: ".iflow/skills",
        user: Some(Dir::home(".iflow/skills")),
        detect: &[Probe::Home(".iflow")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "kilo",
        display: "Kilo Code",
        project: ".agents/skills",
        user: Some(Dir::home(".kilo/skills")),
        detect: &[Probe::Home(".kilo"), Probe::Home(".kilocode")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "kimchi",
        display: "Kimchi",
        project: ".kimchi/skills",
        user: Some(Dir::home(".config/kimchi/harness/skills")),
        detect: &[Probe::Home(".config/kimchi")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "kimi-code-cli",
        display: "Kimi Code CLI",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".kimi-code"), Probe::Home(".kimi")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "kiro-cli",
        display: "Kiro CLI",
        project: ".kiro/skills",
        user: Some(Dir::home(".kiro/skills")),
        detect: &[Probe::Home(".kiro")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "kode",
        display: "Kode",
        project: ".kode/skills",
        user: Some(Dir::home(".kode/skills")),
        detect: &[Probe::Home(".kode")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "lingma",
        display: "Lingma",
        project: ".lingma/skills",
        user: Some(Dir::home(".lingma/skills")),
        detect: &[Probe::Home(".lingma")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "loaf",
        display: "Loaf",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".loaf")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "mcpjam",
        display: "MCPJam",
        project: ".mcpjam/skills",
        user: Some(Dir::home(".mcpjam/skills")),
        detect: &[Probe::Home(".mcpjam")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "minimax-code",
        display: "MiniMax Code",
        project: ".minimax/skills",
        user: Some(Dir::home(".minimax/skills")),
        detect: &[Probe::Home(".minimax")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "mistral-vibe",
        display: "Mistral Vibe",
        project: ".vibe/skills",
        user: Some(Dir::var("VIBE_HOME", ".vibe", "skills")),
        detect: &[Probe::Var("VIBE_HOME", ".vibe")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "moxby",
        display: "Moxby",
        project: ".moxby/skills",
        user: Some(Dir::home(".moxby/skills")),
        detect: &[Probe::Home(".moxby")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "mux",
        display: "Mux",
        project: ".mux/skills",
        user: Some(Dir::home(".mux/skills")),
        detect: &[Probe::Home(".mux")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "openhands",
        display: "OpenHands",
        project: ".openhands/skills",
        user: Some(Dir::home(".openhands/skills")),
        detect: &[Probe::Home(".openhands")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "ona",
        display: "Ona",
        project: ".ona/skills",
        user: Some(Dir::home(".ona/skills")),
        detect: &[Probe::Home(".ona")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "pi",
        display: "Pi",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".pi/agent")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "posit-assistant",
        display: "Posit Assistant",
        project: ".posit/assistant/skills",
        user: Some(Dir::home(".posit/assistant/skills")),
        detect: &[Probe::Home(".posit/assistant"), Probe::Home(".positai")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "qoder",
        display: "Qoder",
        project: ".qoder/skills",
        user: Some(Dir::home(".qoder/skills")),
        detect: &[Probe::Home(".qoder")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "qoder-cn",
        display: "Qoder CN",
        project: ".qoder/skills",
        user: Some(Dir::home(".qoder-cn/skills")),
        detect: &[Probe::Home(".qoder-cn")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "qwen-code",
        display: "Qwen Code",
        project: ".qwen/skills",
        user: Some(Dir::home(".qwen/skills")),
        detect: &[Probe::Home(".qwen")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "replit",
        display: "Replit",
        project: ".agents/skills",
        user: Some(Dir::config("agents/skills")),
        detect: &[],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "reasonix",
        display: "Reasonix",
        project: ".reasonix/skills",
        user: Some(Dir::home(".reasonix/skills")),
        detect: &[Probe::Home(".reasonix")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "rovodev",
        display: "Rovo Dev",
        project: ".rovodev/skills",
        user: Some(Dir::home(".rovodev/skills")),
        detect: &[Probe::Home(".rovodev")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "roo",
        display: "Roo Code",
        project: ".roo/skills",
        user: Some(Dir::home(".roo/skills")),
        detect: &[Probe::Home(".roo")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "sarvam-code",
        display: "Sarvam Code",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Var("SARVAM_HOME", ".sarvam")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "tabnine-cli",
        display: "Tabnine CLI",
        project: ".tabnine/agent/skills",
        user: Some(Dir::home(".tabnine/agent/skills")),
        detect: &[Probe::Home(".tabnine")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "terramind",
        display: "Terramind",
        project: ".terramind/skills",
        user: Some(Dir::home(".terramind/skills")),
        detect: &[Probe::Home(".terramind")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "tinycloud",
        display: "Tinycloud",
        project: ".tinycloud/skills",
        user: Some(Dir::home(".tinycloud/skills")),
        detect: &[Probe::Home(".tinycloud")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "trae",
        display: "Trae",
        project: ".trae/skills",
        user: Some(Dir::home(".trae/skills")),
        detect: &[Probe::Home(".trae")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "trae-cn",
        display: "Trae CN",
        project: ".trae/skills",
        user: Some(Dir::home(".trae-cn/skills")),
        detect: &[Probe::Home(".trae-cn")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "warp",
        display: "Warp",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Home(".warp")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "windsurf",
        display: "Windsurf",
        project: ".windsurf/skills",
        user: Some(Dir::home(".codeium/windsurf/skills")),
        detect: &[Probe::Home(".codeium/windsurf")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "zed",
        display: "Zed",
        project: ".agents/skills",
        user: Some(Dir::home(".agents/skills")),
        detect: &[Probe::Config("zed")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "zcode",
        display: "ZCode",
        project: ".zcode/skills",
        user: Some(Dir::home(".zcode/skills")),
        detect: &[Probe::Home(".zcode")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "zencoder",
        display: "Zencoder",
        project: ".zencoder/skills",
        user: Some(Dir::home(".zencoder/skills")),
        detect: &[Probe::Home(".zencoder")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "zenflow",
        display: "Zenflow",
        project: ".zencoder/skills",
        user: Some(Dir::home(".zencoder/skills")),
        detect: &[Probe::Home(".zencoder")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "neovate",
        display: "Neovate",
        project: ".neovate/skills",
        user: Some(Dir::home(".neovate/skills")),
        detect: &[Probe::Home(".neovate")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "pochi",
        display: "Pochi",
        project: ".pochi/skills",
        user: Some(Dir::home(".pochi/skills")),
        detect: &[Probe::Home(".pochi")],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "promptscript",
        display: "PromptScript",
        project: ".agents/skills",
        user: None,
        detect: &[],
        ..AgentDef::VERCEL
    },
    AgentDef {
        id: "adal",
        display: "AdaL",
        project: ".adal/skills",
        user: Some(Dir::home(".adal/skills")),
        detect: &[Probe::Home(".adal")],
        ..AgentDef::VERCEL
    },
];
