//! The audit's rule-set version, a digest of the scanner's own sources
//! (docs/audit.md#the-rule-set-version), given to the crate as
//! `SKILLPM_AUDIT_RULESET`: hashed at run time it cost every judging process
//! about half a millisecond at its end, and the 370 KB of source it read
//! were in the binary (docs/performance.md#what-the-measurements-decided).

/// The files whose every byte makes the audit's verdicts: a change to any
/// of them is a new rule set, and remembered verdicts are judged again.
const RULESET_SOURCES: [&str; 15] = [
    "src/lib.rs",
    "src/rules.rs",
    "src/capability.rs",
    "src/disguise.rs",
    "src/content.rs",
    "src/normal.rs",
    "src/unicode.rs",
    "src/cues.rs",
    "src/context.rs",
    "src/standing.rs",
    "src/steering.rs",
    "src/tools.rs",
    "src/blind.rs",
    "../skillpm-base/src/escape.rs",
    "../skillpm-skill/src/frontmatter.rs",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    ruleset_version();
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
