//! Two things the build works out once instead of every run:
//!
//! - the audit's rule-set version, a digest of the scanner's own sources
//!   (docs/audit.md#the-rule-set-version), given to the crate as
//!   `SKILLPM_AUDIT_RULESET`: hashed at run time it cost every judging
//!   process about half a millisecond at its end, and the 370 KB of source
//!   it read were in the binary (docs/performance.md#what-the-measurements-decided);
//! - release links of the `skillpm` binary on x86-64 Linux
//!   (docs/performance.md#release-binary-size), where rustc links with its
//!   own LLD:
//!   - `--icf=all` keeps one copy of each machine-code-identical function;
//!   - the unwind tables (`.eh_frame`) are left out: the release profile
//!     aborts on a panic, so nothing unwinds, and only a panic's backtrace
//!     (`RUST_BACKTRACE`) used them (it now lists no frames).
//!
//!   Other targets and profiles, and a build that names its own linker (a
//!   target `linker`, or linker flags in RUSTFLAGS), link as before.

use std::path::PathBuf;

/// The files whose every byte makes the audit's verdicts: a change to any
/// of them is a new rule set, and remembered verdicts are judged again.
const RULESET_SOURCES: [&str; 15] = [
    "src/audit/mod.rs",
    "src/audit/rules.rs",
    "src/audit/capability.rs",
    "src/audit/disguise.rs",
    "src/audit/content.rs",
    "src/audit/normal.rs",
    "src/audit/unicode.rs",
    "src/audit/cues.rs",
    "src/audit/context.rs",
    "src/audit/standing.rs",
    "src/audit/steering.rs",
    "src/audit/tools.rs",
    "src/audit/blind.rs",
    "crates/skillpm-base/src/escape.rs",
    "src/skill/frontmatter.rs",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    ruleset_version();
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let own_linker = std::env::var_os("RUSTC_LINKER").is_some()
        || ["linker", "fuse-ld", "link-self-contained"]
            .iter()
            .any(|f| flags.contains(f));
    if var("PROFILE") != "release" || var("TARGET") != "x86_64-unknown-linux-gnu" || own_linker {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-Wl,--icf=all");
    let script = PathBuf::from(var("OUT_DIR")).join("no-unwind-tables.ld");
    let text = "SECTIONS { /DISCARD/ : { *(.eh_frame) } } INSERT AFTER .text;\n";
    std::fs::write(&script, text).expect("the build script writes into OUT_DIR");
    let script = script.display().to_string();
    if !script.contains(',') {
        println!("cargo:rustc-link-arg-bins=-Wl,--script={script}");
    }
}

/// `SKILLPM_AUDIT_RULESET`: `audit-` and the first 16 hex digits of the
/// SHA-256 of each of [`RULESET_SOURCES`] as its length (8 bytes, little
/// endian) then its bytes.
fn ruleset_version() {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for path in RULESET_SOURCES {
        println!("cargo:rerun-if-changed={path}");
        let source = std::fs::read(path).expect("the audit's sources are in the package");
        hash.update((source.len() as u64).to_le_bytes());
        hash.update(&source);
    }
    let hex: String = (hash.finalize().iter().take(8))
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rustc-env=SKILLPM_AUDIT_RULESET=audit-{hex}");
}
