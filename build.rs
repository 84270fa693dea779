//! Release links of the `skillpm` binary on x86-64 Linux
//! (docs/performance.md#release-binary-size), where rustc links with its own
//! LLD (the audit's rule-set version is worked out by
//! crates/skillpm-audit/build.rs):
//! - `--icf=all` keeps one copy of each machine-code-identical function;
//! - the unwind tables (`.eh_frame`) are left out: the release profile
//!   aborts on a panic, so nothing unwinds, and only a panic's backtrace
//!   (`RUST_BACKTRACE`) used them (it now lists no frames).
//!
//! Other targets and profiles, and a build that names its own linker (a
//! target `linker`, or linker flags in RUSTFLAGS), link as before.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
