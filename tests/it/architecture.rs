//! The arrows of docs/architecture.md, kept by a test: every top-level module
//! of src/ sits in one layer, and a module may name (`crate::x`) only modules
//! of strictly lower layers. Two more rules: only `cli` knows clap, and the
//! readers of formats never read the environment (their callers pass it in).
//! A new top-level module fails here until it is given a layer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Lowest first. Keep in step with docs/architecture.md.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["digest", "names", "fs", "cache", "shown"],
    &["skill", "trust", "agents", "net", "audit"],
    &[
        "unpack",
        "fetch",
        "index",
        "roots",
        "approve",
        "source_mcp",
        "publish",
    ],
    &["store", "git", "project", "link"],
    &["sources"],
    &["source"],
    &["provenance"],
    &["catalog"],
    &["mentions", "mcp"],
    &["ui"],
    &["ops"],
    &["cli"],
];

/// Modules that only read formats: they get every input from their caller.
const READERS: &[&str] = &[
    "skill", "index", "unpack", "trust", "digest", "names", "approve", "audit", "shown",
];

/// Items that live in `crate::` but are not modules.
const NOT_MODULES: &[&str] = &["classified", "__inventory"];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without its `#[cfg(test)] mod tests` (tests may reach anywhere).
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i])
}

/// The source without its comment lines: a doc comment may point the reader
/// anywhere (`see crate::store`); only code makes an arrow.
fn without_comments(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The leading identifier of `s`.
fn ident(s: &str) -> String {
    s.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The first module named by each item of a `use crate::{a, b::{c, d}}`
/// group, given the text after its opening brace.
fn group_items(group: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut item = String::new();
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(ident(&item));
                item.clear();
                continue;
            }
            _ => {}
        }
        if depth == 0 || c == '{' {
            item.push(c);
        }
    }
    items.push(ident(&item));
    items
}

/// Every top-level module a file names through `crate::`, including each
/// item of a `use crate::{a, b::c}` group.
fn crate_references(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        match rest.strip_prefix("{") {
            Some(group) => found.extend(group_items(group)),
            None => {
                found.insert(ident(rest));
            }
        }
    }
    found.retain(|m| !m.is_empty() && m != "self" && !NOT_MODULES.contains(&m.as_str()));
    found
}

struct Violation(String);

fn check(src: &Path) -> Vec<Violation> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let module = rel
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            out.push(Violation(format!(
                "src/{rel}: module `{module}` has no layer"
            )));
            continue;
        };
        let full = std::fs::read_to_string(&file).unwrap();
        let code = without_comments(without_tests(&full));
        let text = code.as_str();
        for used in crate_references(text) {
            if used == module {
                continue;
            }
            match layer_of(&used) {
                None => out.push(Violation(format!(
                    "src/{rel}: names `crate::{used}`, which has no layer"
                ))),
                Some(l) if l >= own => out.push(Violation(format!(
                    "src/{rel}: `{module}` (layer {own}) uses `{used}` (layer {l}): arrows point down only"
                ))),
                Some(_) => {}
            }
        }
        if module != "cli" && text.contains("clap::") {
            out.push(Violation(format!("src/{rel}: only `cli` may use clap")));
        }
        if READERS.contains(&module.as_str()) && text.contains("std::env::var") {
            out.push(Violation(format!(
                "src/{rel}: a reader reads the environment; let its caller pass the value"
            )));
        }
    }
    out
}

#[test]
fn arrows_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let violations: Vec<String> = check(&src).into_iter().map(|v| v.0).collect();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The checker itself catches each kind of wrong arrow.
#[test]
fn the_checker_sees_an_arrow_pointing_up() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path();
    let write = |rel: &str, text: &str| {
        let path = src.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "store/mod.rs",
        "use crate::{digest::Digest, git::{self, Checkout}};\n",
    );
    write(
        "project/state.rs",
        "fn f() { crate::cache::cache_root(); }\n",
    );
    write("roots/mod.rs", "#[derive(clap::ValueEnum)] enum Scope {}\n");
    write(
        "skill/openai_yaml.rs",
        "fn f() { std::env::var_os(\"X\"); }\n",
    );
    write("widgets.rs", "\n");
    write("fs/temp.rs", "//! Used by `crate::store`.\n");
    write(
        "ops/ok.rs",
        "use crate::{store, cli};\n#[cfg(test)]\nmod tests { use crate::cli; }\n",
    );
    let found: Vec<String> = check(src).into_iter().map(|v| v.0).collect();
    let has = |needle: &str| found.iter().any(|v| v.contains(needle));
    assert!(has("`store` (layer 4) uses `git` (layer 4)"), "{found:#?}");
    assert!(has("`ops` (layer 11) uses `cli` (layer 12)"), "{found:#?}");
    assert!(
        has("src/roots/mod.rs: only `cli` may use clap"),
        "{found:#?}"
    );
    assert!(
        has("src/skill/openai_yaml.rs: a reader reads"),
        "{found:#?}"
    );
    assert!(has("module `widgets` has no layer"), "{found:#?}");
    // project → cache is a lower layer: allowed by the table.
    assert!(!has("src/project/state.rs"), "{found:#?}");
    assert_eq!(found.len(), 5, "{found:#?}");
}

/// Names still given to two `pub` types (issue 22: one name per type), each
/// in code other work is moving; the list only shrinks: a name that is no
/// longer shared fails below until it is taken off.
const SHARED_NAMES_TO_SPLIT: &[&str] = &[
    "AddArgs",
    "AddOptions",
    "AddReport",
    "Artifact",
    "Candidate",
    "Credential",
    "Failure",
    "Finding",
    "Index",
    "Level",
    "ListReport",
    "ListedFile",
    "ListedSkill",
    "Manifest",
    "Parsed",
    "Policy",
    "Probe",
    "Problem",
    "Resolved",
    "Rule",
    "Skipped",
    "VerifyReport",
];

/// Every `pub` (any visibility: `pub`, `pub(crate)`, `pub(super)`) struct,
/// enum, type alias or trait in src/, with the files that define it.
fn pub_type_names() -> std::collections::BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut names: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(&src).unwrap().display().to_string();
        for line in without_tests(&text).lines() {
            let line = line.trim_start();
            let Some(rest) = line.strip_prefix("pub") else {
                continue;
            };
            // `pub(crate) `, `pub(super) `, `pub(in …) ` or `pub `.
            let rest = match rest.strip_prefix('(') {
                Some(r) => r.split_once(')').map_or("", |(_, after)| after),
                None => rest,
            };
            let Some(rest) = rest.strip_prefix(' ') else {
                continue;
            };
            for keyword in ["struct ", "enum ", "type ", "trait "] {
                if let Some(item) = rest.strip_prefix(keyword) {
                    let name = ident(item);
                    if !name.is_empty() {
                        names.entry(name).or_default().push(shown.clone());
                    }
                }
            }
        }
    }
    names
}

#[test]
fn each_pub_type_has_its_own_name() {
    let names = pub_type_names();
    assert!(
        names.len() > 200,
        "the scan found too few types: {}",
        names.len()
    );
    let shared: Vec<String> = names
        .iter()
        .filter(|(name, files)| files.len() > 1 && !SHARED_NAMES_TO_SPLIT.contains(&name.as_str()))
        .map(|(name, files)| format!("{name} in {}", files.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "two pub types share a name (give each its own, e.g. `InstallScope` / `Scope`): {shared:?}"
    );
    let split: Vec<&&str> = SHARED_NAMES_TO_SPLIT
        .iter()
        .filter(|name| names.get(**name).is_none_or(|files| files.len() < 2))
        .collect();
    assert!(
        split.is_empty(),
        "no longer shared, take them off SHARED_NAMES_TO_SPLIT: {split:?}"
    );
}

#[test]
fn the_type_name_scan_sees_every_visibility() {
    // The types this issue split must be found, whatever their visibility.
    let names = pub_type_names();
    for (name, file) in [
        ("InstallScope", "project/manifest.rs"),
        ("Scope", "roots/mod.rs"),
        ("RepoSkill", "git/discover.rs"),
        ("TreeWriter", "unpack/writer.rs"),
        ("CheckoutTree", "git/writer.rs"),
        ("ArtifactType", "index/mod.rs"),
        ("ArtifactKind", "unpack/kind.rs"),
    ] {
        assert_eq!(
            names.get(name).map(Vec::as_slice),
            Some([file.to_owned()].as_slice()),
            "{name}"
        );
    }
}
