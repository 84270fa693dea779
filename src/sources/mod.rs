//! Source kinds (docs/architecture.md): what a string names
//! ([`spec`], the one parser) and the kinds that live here so far
//! ([`oci`]: skills in OCI registries). The index, git, folder and MCP kinds
//! still live in `source`, `git` and `source_mcp`; they move here one by one.

pub mod oci;
pub mod spec;
