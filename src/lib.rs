//! skillpm: a package manager and registry client for Agent Skills.
//!
//! The flow (docs/design.md#flow): resolve → fetch → verify → unpack → store → lock →
//! approve → link. Each module below does one step; `ops` glues them into
//! commands and `cli` parses arguments and prints.

#[doc(hidden)]
pub use inventory as __inventory;

pub mod agents;
pub mod approve;
pub mod audit;
pub mod cache;
pub mod catalog;
pub mod cli;
pub mod digest;
pub mod doctor;
pub mod error;
pub mod fetch;
pub mod fs;
pub mod git;
pub mod link;
pub mod mcp;
pub mod mentions;
pub mod migrate;
pub mod names;
pub mod net;
pub mod ops;
pub mod placement;
pub mod project;
pub mod provenance;
pub mod publish;
pub mod roots;
pub mod sandbox;
pub mod shown;
pub mod skill;
pub mod sources;
pub mod store;
pub mod trust;
pub mod ui;
pub mod unpack;
pub mod view;
