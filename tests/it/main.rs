//! The one integration-test binary: every spec below links the crate once.
//! Shared helpers live in `support` (sandbox, registry, servers, keys),
//! `git_support` (real git repositories and `git http-backend`) and
//! `skill_world` (skill folders in agent roots).

mod git_support;
mod skill_world;
mod support;

#[cfg(unix)]
mod agent;
mod agents_table;
mod architecture;
mod audit;
mod audit_capabilities;
mod audit_corpus;
mod audit_fresh;
#[cfg(target_os = "linux")]
mod audit_run;
mod collections;
mod foundation;
mod gate;
mod git;
mod git_cli;
#[cfg(unix)]
mod git_http;
mod hostile;
#[cfg(unix)]
mod import;
#[cfg(unix)]
mod journeys;
mod lifecycle;
#[cfg(unix)]
mod link_modes;
mod manifest;
#[cfg(unix)]
mod mcp;
#[cfg(unix)]
mod mcp_source;
#[cfg(unix)]
mod network;
mod oci;
mod output;
mod policy;
mod provenance;
mod publish;
mod registry;
mod sigstore;
mod sigstore_git;
mod sigstore_tuf;
mod store;
#[cfg(unix)]
mod stress;
mod surface;
mod warm;
