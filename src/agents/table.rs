//! The rows of the agents table. The first four are skillpm's own names
//! (kept from the first four-agent table so existing `skills.toml` files, `--agent` filters
//! and JSON stay valid); the rest follow vercel-labs `skills` 1.7.4
//! (`src/agents.ts`, read from the published npm package), which is the
//! only source for rows without their own `doc` link: for those, the
//! folders and detection are vercel's, not checked against the agent's own
//! documentation.

use super::{Admin, AgentDef, Dir, Probe, SHARED};

/// vercel-labs `skills` 1.7.4, `src/agents.ts`.
pub(super) const VERCEL_TABLE: &str =
    "https://github.com/vercel-labs/skills/blob/main/src/agents.ts";

/// A row of vercel's table: the agent writes `project` and `user`, and is
/// detected by any of `detect`.
const fn row(
    id: &'static str,
    display: &'static str,
    project: &'static str,
    user: Dir,
    detect: &'static [Probe],
) -> AgentDef {
    AgentDef {
        id,
        display,
        project,
        user: Some(user),
        detect,
        ..AgentDef::VERCEL
    }
}

/// A row of an agent that reads only the shared `.agents/skills` folders
/// (project and home) and is detected by `detect`.
const fn shared(id: &'static str, display: &'static str, detect: &'static [Probe]) -> AgentDef {
    row(id, display, SHARED, Dir::home(SHARED), detect)
}

/// The commonest rows: an agent with its own dot folder `<dot>` holding
/// `skills/` in the home (or under `$VAR`, which replaces `~/<dot>`) and, unless
/// another `project` folder is named, in the project; detected by `~/<dot>`
/// (or `$VAR`).
macro_rules! dotted {
    ($id:literal, $display:literal, $dot:literal) => {
        dotted!($id, $display, $dot, project: concat!($dot, "/skills"))
    };
    ($id:literal, $display:literal, $dot:literal, project: $project:expr) => {
        row(
            $id,
            $display,
            $project,
            Dir::home(concat!($dot, "/skills")),
            &[Probe::Home($dot)],
        )
    };
    ($id:literal, $display:literal, $dot:literal, var: $var:literal) => {
        row(
            $id,
            $display,
            concat!($dot, "/skills"),
            Dir::var($var, $dot, "skills"),
            &[Probe::Var($var, $dot)],
        )
    };
}

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
    dotted!("aider-desk", "AiderDesk", ".aider-desk"),
    row(
        "amp",
        "Amp",
        ".agents/skills",
        Dir::config("agents/skills"),
        &[Probe::Config("amp")],
    ),
    dotted!("antigravity", "Antigravity", ".gemini/antigravity", project: SHARED),
    dotted!("antigravity-cli", "Antigravity CLI", ".gemini/antigravity-cli", project: SHARED),
    row(
        "astrbot",
        "AstrBot",
        "data/skills",
        Dir::home(".astrbot/data/skills"),
        &[Probe::Home(".astrbot")],
    ),
    dotted!("autohand-code", "Autohand Code CLI", ".autohand", var: "AUTOHAND_HOME"),
    dotted!("augment", "Augment", ".augment"),
    dotted!("bob", "IBM Bob", ".bob"),
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
    shared("cline", "Cline", &[Probe::Home(".cline")]),
    dotted!("codearts-agent", "CodeArts Agent", ".codeartsdoer"),
    dotted!("codebuddy", "CodeBuddy", ".codebuddy"),
    dotted!("codemaker", "Codemaker", ".codemaker"),
    dotted!("codestudio", "Code Studio", ".codestudio"),
    dotted!("command-code", "Command Code", ".commandcode"),
    dotted!("continue", "Continue", ".continue"),
    dotted!("cortex", "Cortex Code", ".snowflake/cortex", project: ".cortex/skills"),
    dotted!("crush", "Crush", ".config/crush", project: ".crush/skills"),
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
    row(
        "deepagents",
        "Deep Agents",
        ".agents/skills",
        Dir::home(".deepagents/agent/skills"),
        &[Probe::Home(".deepagents")],
    ),
    row(
        "devin",
        "Devin for Terminal",
        ".devin/skills",
        Dir::config("devin/skills"),
        &[Probe::Config("devin")],
    ),
    shared("dexto", "Dexto", &[Probe::Home(".dexto")]),
    dotted!("droid", "Droid", ".factory", project: SHARED),
    AgentDef {
        id: "eve",
        display: "Eve",
        project: "agent/skills",
        detect: &[Probe::Project("agent")],
        ..AgentDef::VERCEL
    },
    dotted!("firebender", "Firebender", ".firebender", project: SHARED),
    dotted!("forgecode", "ForgeCode", ".forge"),
    shared("fx", "fx", &[Probe::Home(".fx")]),
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
    row(
        "goose",
        "Goose",
        ".goose/skills",
        Dir::config("goose/skills"),
        &[Probe::Config("goose")],
    ),
    dotted!("grok", "Grok Build", ".grok", var: "GROK_HOME"),
    dotted!("hermes-agent", "Hermes Agent", ".hermes", var: "HERMES_HOME"),
    dotted!("inference-sh", "inference.sh", ".inferencesh"),
    dotted!("jazz", "Jazz", ".jazz"),
    dotted!("junie", "Junie", ".junie"),
    dotted!("iflow-cli", "iFlow CLI", ".iflow"),
    row(
        "kilo",
        "Kilo Code",
        ".agents/skills",
        Dir::home(".kilo/skills"),
        &[Probe::Home(".kilo"), Probe::Home(".kilocode")],
    ),
    row(
        "kimchi",
        "Kimchi",
        ".kimchi/skills",
        Dir::home(".config/kimchi/harness/skills"),
        &[Probe::Home(".config/kimchi")],
    ),
    shared(
        "kimi-code-cli",
        "Kimi Code CLI",
        &[Probe::Home(".kimi-code"), Probe::Home(".kimi")],
    ),
    dotted!("kiro-cli", "Kiro CLI", ".kiro"),
    dotted!("kode", "Kode", ".kode"),
    dotted!("lingma", "Lingma", ".lingma"),
    shared("loaf", "Loaf", &[Probe::Home(".loaf")]),
    dotted!("mcpjam", "MCPJam", ".mcpjam"),
    dotted!("minimax-code", "MiniMax Code", ".minimax"),
    dotted!("mistral-vibe", "Mistral Vibe", ".vibe", var: "VIBE_HOME"),
    dotted!("moxby", "Moxby", ".moxby"),
    dotted!("mux", "Mux", ".mux"),
    dotted!("openhands", "OpenHands", ".openhands"),
    dotted!("ona", "Ona", ".ona"),
    shared("pi", "Pi", &[Probe::Home(".pi/agent")]),
    row(
        "posit-assistant",
        "Posit Assistant",
        ".posit/assistant/skills",
        Dir::home(".posit/assistant/skills"),
        &[Probe::Home(".posit/assistant"), Probe::Home(".positai")],
    ),
    dotted!("qoder", "Qoder", ".qoder"),
    dotted!("qoder-cn", "Qoder CN", ".qoder-cn", project: ".qoder/skills"),
    dotted!("qwen-code", "Qwen Code", ".qwen"),
    row(
        "replit",
        "Replit",
        ".agents/skills",
        Dir::config("agents/skills"),
        &[],
    ),
    dotted!("reasonix", "Reasonix", ".reasonix"),
    dotted!("rovodev", "Rovo Dev", ".rovodev"),
    dotted!("roo", "Roo Code", ".roo"),
    shared(
        "sarvam-code",
        "Sarvam Code",
        &[Probe::Var("SARVAM_HOME", ".sarvam")],
    ),
    row(
        "tabnine-cli",
        "Tabnine CLI",
        ".tabnine/agent/skills",
        Dir::home(".tabnine/agent/skills"),
        &[Probe::Home(".tabnine")],
    ),
    dotted!("terramind", "Terramind", ".terramind"),
    dotted!("tinycloud", "Tinycloud", ".tinycloud"),
    dotted!("trae", "Trae", ".trae"),
    dotted!("trae-cn", "Trae CN", ".trae-cn", project: ".trae/skills"),
    shared("warp", "Warp", &[Probe::Home(".warp")]),
    dotted!("windsurf", "Windsurf", ".codeium/windsurf", project: ".windsurf/skills"),
    shared("zed", "Zed", &[Probe::Config("zed")]),
    dotted!("zcode", "ZCode", ".zcode"),
    dotted!("zencoder", "Zencoder", ".zencoder"),
    dotted!("zenflow", "Zenflow", ".zencoder"),
    dotted!("neovate", "Neovate", ".neovate"),
    dotted!("pochi", "Pochi", ".pochi"),
    AgentDef {
        id: "promptscript",
        display: "PromptScript",
        project: ".agents/skills",
        detect: &[],
        ..AgentDef::VERCEL
    },
    dotted!("adal", "AdaL", ".adal"),
];
