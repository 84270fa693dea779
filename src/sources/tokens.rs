//! Which token may go to a source (docs/network.md): every kind asks here,
//! so the one rule of `crate::net::choose_token` is applied the same way to
//! registries, git hosts, MCP servers and OCI registries.

use url::Url;

use crate::net::{TokenChoice, UserTokens};
use crate::project::manifest::SourceDecl;

/// The URL a token for a source written as `text` would be sent to: its
/// origin is what a token is bound to (`crate::net::choose_token`).
/// `github:` forms go to GitHub; `mcp+https://…` to the server; `git+`,
/// http(s) URLs to themselves. `None`: no token can go there (files, ssh).
pub fn token_url(text: &str) -> Option<Url> {
    let text = text.trim();
    if text.starts_with(crate::sources::oci::SCHEME) {
        // An OCI registry: its origin (https, or http on loopback).
        return crate::sources::oci::OciRef::parse(text)
            .ok()?
            .base_url()
            .ok();
    }
    if text.starts_with("github:") {
        return Url::parse("https://github.com/").ok();
    }
    let text = text
        .strip_prefix("mcp+")
        .or_else(|| text.strip_prefix("git+"))
        .unwrap_or(text);
    Url::parse(text)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

/// Which variable's token may go to `decl`'s source under the one rule of
/// `crate::net::choose_token` (docs/network.md), with `user`'s bindings.
pub fn token_choice(decl: &SourceDecl, user: &UserTokens) -> TokenChoice {
    match token_url(&decl.url) {
        Some(url) => crate::net::choose_token(&url, decl.token_env.as_deref(), user),
        None => match &decl.token_env {
            Some(var) => TokenChoice::Refused {
                var: var.clone(),
                reason: format!(
                    "skills.toml names token-env ${var} for source `{}`, which has no web origin a token could be bound to; no token sent",
                    decl.name
                ),
            },
            None => TokenChoice::None,
        },
    }
}

/// The variable whose token may be sent to `decl`'s source, if any.
pub fn bound_token_env(decl: &SourceDecl) -> Option<String> {
    match token_choice(decl, &UserTokens::load()) {
        TokenChoice::Bound { var } => Some(var),
        TokenChoice::Refused { .. } | TokenChoice::None => None,
    }
}
