//! Arguments of `init`, `source …` and `search`, and the `source` dispatch.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::emit::{OK, emit};
use crate::error::Exit;
use crate::ops::{self, Context};

/// Runs one `skillpm source …` subcommand.
pub(crate) fn run_source(ctx: &Context, args: SourceArgs) -> anyhow::Result<Exit> {
    match args.command {
        SourceCommand::Add(a) => {
            let opts = ops::source::SourceAddOptions {
                name: a.name,
                url: a.url,
                keys: a.keys,
                token_env: a.token_env,
                cosign_key: a.cosign_key,
                identity: a.identity,
                issuer: a.issuer,
            };
            emit(ctx, &ops::source::add(ctx, &opts)?, OK)
        }
        SourceCommand::List => emit(ctx, &ops::source::list(ctx)?, OK),
        SourceCommand::Remove(a) => emit(ctx, &ops::source::remove(ctx, &a.name)?, OK),
        SourceCommand::RotateKey(a) => {
            let opts = ops::source::RotateOptions {
                name: a.name,
                new_key: a.new_key,
                signature: a.signature,
            };
            emit(ctx, &ops::source::rotate_key(ctx, &opts)?, OK)
        }
    }
}

#[derive(Debug, Args)]
pub struct InitArgs {}

#[derive(Debug, Args)]
pub struct SourceArgs {
    #[command(subcommand)]
    pub command: SourceCommand,
}

#[derive(Debug, Subcommand)]
pub enum SourceCommand {
    /// Add a registry to skills.toml; probes it first unless --offline.
    Add(SourceAddArgs),
    /// List the registries declared in skills.toml.
    List,
    /// Remove a registry from skills.toml (refused while skills use it).
    Remove(SourceRemoveArgs),
    /// Replace a pinned key with a new one that the old key signed.
    RotateKey(RotateKeyArgs),
}

#[derive(Debug, Args)]
pub struct SourceAddArgs {
    /// Name to refer to the source by (a-z, 0-9, hyphens).
    pub name: String,
    /// Base URL, index.json URL, file:// URL, local path, git form, or
    /// `oci://HOST/NAMESPACE[/NAME][:TAG]` (an OCI registry).
    pub url: String,
    /// Pin a minisign public key (`RW…`); repeat for several. Signatures are then required.
    #[arg(long = "key", value_name = "KEY")]
    pub keys: Vec<String>,
    /// Environment variable holding a bearer token for this registry.
    #[arg(long, value_name = "VAR")]
    pub token_env: Option<String>,
    /// OCI sources: require cosign signatures by this public key (PEM,
    /// ECDSA P-256, as `cosign generate-key-pair` writes cosign.pub).
    #[arg(long, value_name = "FILE")]
    pub cosign_key: Option<PathBuf>,
    /// Require a Sigstore bundle naming this publisher (certificate
    /// identity, e.g. a workflow URI; `*` matches any run of characters).
    #[arg(long, value_name = "IDENTITY", requires = "issuer")]
    pub identity: Option<String>,
    /// The OIDC issuer of `--identity` (GitHub Actions:
    /// https://token.actions.githubusercontent.com).
    #[arg(long, value_name = "URL", requires = "identity")]
    pub issuer: Option<String>,
}

#[derive(Debug, Args)]
pub struct SourceRemoveArgs {
    pub name: String,
}

#[derive(Debug, Args)]
pub struct RotateKeyArgs {
    /// The source whose key changes.
    pub name: String,
    /// The new minisign public key (`RW…`).
    pub new_key: String,
    /// A minisign signature of the new key's text, made with the old key.
    #[arg(long, value_name = "FILE")]
    pub signature: PathBuf,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Substring to find in skill names and descriptions (case-insensitive); all skills when absent.
    pub query: Option<String>,
    /// Search only this source: a name from skills.toml, or a URL or path.
    #[arg(long, value_name = "NAME")]
    pub source: Option<String>,
}

impl SearchArgs {
    pub(super) fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::search::SearchOptions {
            query: self.query,
            source: self.source,
        };
        let report = ops::search::search(ctx, &opts)?;
        emit(ctx, &report, report.exit())
    }
}
