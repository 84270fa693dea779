//! Command-line definitions. Each command builds an options struct and calls
//! one function of `ops`; this module only parses arguments and renders what
//! comes back (human text, or `--json` on stdout).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "skillpm",
    version,
    about = "Install, verify and serve Agent Skills: locked, signed, approved",
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`: when to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// The printer's view: a forced choice, or `None` for automatic.
    pub fn forced(self) -> Option<bool> {
        match self {
            ColorChoice::Auto => None,
            ColorChoice::Always => Some(true),
            ColorChoice::Never => Some(false),
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct GlobalArgs {
    /// Print machine-readable JSON on stdout instead of human text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print nothing but errors on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Use this project folder instead of the nearest one holding skills.toml.
    #[arg(long, global = true, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Never open a network connection; use only what is cached.
    #[arg(long, global = true)]
    pub offline: bool,
    /// When to color output (NO_COLOR is respected under `auto`).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Allow plain http:// to hosts other than this machine (readable and
    /// changeable by anyone on the way; loopback needs no flag).
    #[arg(long, global = true)]
    pub allow_http: bool,
    /// Show the causes behind an error (the libraries' own words).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Your user's own skills (in your home folder's agent folders), kept in
    /// skillpm's user-scope skills.toml and skills.lock in its config folder.
    #[arg(short = 'g', long, global = true, conflicts_with_all = ["project", "scope"])]
    pub global: bool,
    /// `admin`: skills for every user of this machine, kept in skillpm's
    /// admin-scope manifest; `user` is `-g`.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "SCOPE",
        conflicts_with = "project"
    )]
    pub scope: Option<ScopeArg>,
}

/// `--scope`: a scope outside any project, which only the person names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScopeArg {
    User,
    Admin,
}

impl GlobalArgs {
    /// The scope the person chose, `None` for the project's.
    pub fn chosen_scope(&self) -> Option<crate::project::manifest::InstallScope> {
        use crate::project::manifest::InstallScope;
        match (self.global, self.scope) {
            (true, _) | (_, Some(ScopeArg::User)) => Some(InstallScope::User),
            (_, Some(ScopeArg::Admin)) => Some(InstallScope::Admin),
            (false, None) => None,
        }
    }
}

/// In the order of the workflow (`--help` lists them so): set up, add,
/// install, update, remove; then the rest.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a commented skills.toml here (or in --project DIR).
    Init(InitArgs),
    /// Manage the registries skills come from.
    Source(SourceArgs),
    /// Resolve, verify, approve and link skills; record them in skills.toml and skills.lock.
    Add(lifecycle::AddArgs),
    /// Make the skill folders match skills.lock exactly.
    Install(lifecycle::InstallArgs),
    /// Re-resolve skills, show what changed, and ask for approval.
    Update(lifecycle::UpdateArgs),
    /// Remove skills from the project and unlink them.
    Remove(lifecycle::NamesArgs),
    /// Find skills in the project's registries.
    Search(SearchArgs),
    /// Report skills whose source offers newer content (never changes anything).
    Outdated,
    /// Approve skills whose locked content is not approved yet.
    Approve(lifecycle::ApproveArgs),
    /// Unlink skills without forgetting them.
    Disable(lifecycle::NamesArgs),
    /// Link disabled skills again.
    Enable(lifecycle::NamesArgs),
    /// Re-hash every linked skill against skills.lock and re-prove the lock
    /// against its sources; exit 3 on drift.
    Verify(VerifyArgs),
    /// List the project's skills, or with --all every skill the agents can see.
    List(ListArgs),
    /// Load one skill by name, as an agent's skill tool does.
    Show(ShowArgs),
    /// Validate skill folders (or folders of skill folders).
    Check(CheckArgs),
    /// Scan skills for what they would make an agent do (download-and-run,
    /// credential theft, prompt injection, hidden text, …); exit 5 on a
    /// finding at or above --fail-on.
    Audit(AuditArgs),
    /// Check skill roots, links, approvals, dependencies and the store.
    Doctor(agent::DoctorArgs),
    /// The agents skillpm knows: detected here?, their skill folders, managed skills.
    Agents,
    /// Bring in skills installed by vercel `skills`, openskills, skillkit, `gh skill` or pnpm.
    Import(ImportArgs),
    /// Serve approved skills to agents over MCP (stdio).
    Mcp(agent::McpArgs),
    /// List the skills a user message names explicitly ($name, [$name](path)).
    Mentions(agent::MentionsArgs),
    /// Build a static registry site (both discovery paths, archives, signature).
    // `--version N` is the index version here, not skillpm's own version.
    #[command(disable_version_flag = true)]
    Publish(publish::PublishArgs),
    /// Create a minisign key pair for signing published indexes.
    Keygen(publish::KeygenArgs),
    /// The Sigstore trusted root publisher identities are verified against.
    #[command(subcommand)]
    Trust(TrustCommand),
    /// Inspect and maintain the cache of stored skills.
    Cache(cache::CacheArgs),
    /// The install policy of this machine, this user and this project
    /// (docs/policy.md).
    Policy(PolicyArgs),
    #[command(name = "__sandbox-init", hide = true)]
    SandboxInit(SandboxInitArgs),
}

#[derive(Debug, clap::Subcommand)]
pub enum TrustCommand {
    /// Fetch Sigstore's trusted_root.json through its TUF repository (each
    /// file checked against the TUF root this machine trusts), or use FILE;
    /// kept in the state folder.
    Update {
        /// A trusted_root.json a person fetched; it must keep every key of
        /// the root in use. Without it, TUF.
        #[arg(conflicts_with = "mirror")]
        file: Option<std::path::PathBuf>,
        /// The TUF repository to read (default https://tuf-repo-cdn.sigstore.dev,
        /// or $SKILLPM_SIGSTORE_TUF_URL).
        #[arg(long, value_name = "URL")]
        mirror: Option<String>,
    },
}

#[derive(Debug, clap::Args)]
pub struct PolicyArgs {
    #[command(subcommand)]
    pub command: PolicyCommand,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Check skills.toml and skills.lock against the merged policy: every
    /// violation with its rule, file and line; exit 3 if there is any.
    Check,
}

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Print the plan; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Approve what the summaries show without asking.
    #[arg(short, long)]
    pub yes: bool,
    /// Take over the other tool's folders that differ from what skillpm
    /// resolved: each is backed up under skillpm's state for this project
    /// (in the cache), then replaced by skillpm's placement.
    #[arg(long)]
    pub replace: bool,
    #[command(flatten)]
    pub accept: lifecycle::AcceptArg,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Show every locked skill's chain: declared source, index snapshot
    /// (digest, signing key, signed version, expiry), artifact, tree,
    /// approval; exit 3 when a link is broken.
    #[arg(long)]
    pub provenance: bool,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Skill folders, or folders containing skill folders.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Refuse fields only an agent defines (e.g. Claude Code's
    /// `disable-model-invocation`) too: the reference validator's verdict.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Skill folders or folders of skills; none: the project's locked skills.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Also write the findings as SARIF 2.1.0 to FILE (`-`: stdout, instead
    /// of the report).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Exit 5 when a finding is at or above this severity (default: the
    /// project's `[audit] fail-on`, else high).
    #[arg(long, value_name = "SEVERITY", value_parser = parse_severity)]
    pub fail_on: Option<crate::audit::Severity>,
    /// Also run the scripts each skill tells the agent to run, in a sandbox
    /// with canary credentials and no network, and report what they do
    /// (Linux, with bubblewrap and strace).
    #[arg(long)]
    pub run: bool,
    /// Read every byte of the locked skills again instead of the findings
    /// remembered for their trees (no effect on PATHs, which are always read).
    #[arg(long)]
    pub no_cache: bool,
}

/// The sandbox's first process, started by `audit --run` only.
#[derive(Debug, clap::Args)]
pub struct SandboxInitArgs {
    pub spec: String,
}

fn parse_severity(text: &str) -> Result<crate::audit::Severity, String> {
    crate::audit::Severity::parse(text)
        .ok_or_else(|| format!("`{text}` is not a severity: low, medium, high or critical"))
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Every skill discovered in every scope and agent folder, not just the project's.
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The skill's name.
    pub name: String,
    /// Load the skill in this folder (or at this SKILL.md) even if another
    /// of the same name takes precedence; no fallback to the name.
    #[arg(long, value_name = "PATH")]
    pub path: Option<PathBuf>,
}

pub mod agent;
mod cache;
mod emit;
pub mod lifecycle;
pub mod publish;
mod run;
pub mod source;

pub use source::{InitArgs, SearchArgs, SourceArgs};

pub use run::main;
