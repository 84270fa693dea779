//! The arrows of docs/architecture.md, kept by a test: every top-level module
//! of src/ sits in one layer, and a module may name (`crate::x`) only modules
//! of strictly lower layers. Two more rules: only `cli` knows clap, and the
//! readers of formats never read the environment (their callers pass it in).
//! A new top-level module fails here until it is given a layer.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Lowest first. Keep in step with docs/architecture.md. Layers 0 to 3, `net`
/// and `sandbox` are crates of their own (crates/), re-exported by name: the
/// compiler keeps each from naming anything above it, and this table places
/// what the others name of them.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["digest", "names", "fs", "cache", "escape"],
    &["skill", "trust"],
    &["audit"],
    &["unpack", "net", "agents", "publish", "sandbox"],
    &["store", "git", "project"],
    &["printer"],
    &["sources"],
    &["provenance", "policy"],
    &["placement"],
    &["catalog"],
    &["mcp"],
    &["doctor"],
    &["view"],
    &["ops"],
    &["cli"],
];

/// Modules (or files, by path without `.rs`) that only read formats: they
/// get every input from their caller.
const READERS: &[&str] = &[
    "skill",
    "sources/index/format",
    "unpack",
    "trust",
    "digest",
    "names",
    "view/approval",
    "audit",
    "escape",
    "agents/other_tools",
];

/// Whether the file at `rel` (below src/) belongs to a reader.
fn is_reader(rel: &str) -> bool {
    READERS.iter().any(|r| {
        rel.strip_prefix(r)
            .is_some_and(|rest| rest == ".rs" || rest.starts_with('/'))
    })
}

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
    check_tree(src, "src", None)
}

/// The checks of [`check`] over the files below `dir`, named `shown/…` in
/// what it finds. `module`: the one module every file belongs to (a crate
/// that is one module, e.g. `audit`); its `crate::` names that are not
/// layers are its own parts (the compiler keeps it from anything above).
fn check_tree(dir: &Path, shown: &str, module: Option<&str>) -> Vec<Violation> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    let mut out = Vec::new();
    for file in files {
        let in_dir = file
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let (rel, module) = match module {
            Some(m) => (format!("{m}/{in_dir}"), m.to_owned()),
            None => {
                let first = in_dir.split('/').next().unwrap().trim_end_matches(".rs");
                if first == "lib" || first == "main" {
                    continue;
                }
                (in_dir.clone(), first.to_owned())
            }
        };
        let at = format!("{shown}/{in_dir}");
        let Some(own) = layer_of(&module) else {
            out.push(Violation(format!("{at}: module `{module}` has no layer")));
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
                None if module_is_crate(&module) => {}
                None => out.push(Violation(format!(
                    "{at}: names `crate::{used}`, which has no layer"
                ))),
                Some(l) if l >= own => out.push(Violation(format!(
                    "{at}: `{module}` (layer {own}) uses `{used}` (layer {l}): arrows point down only"
                ))),
                Some(_) => {}
            }
        }
        if module != "cli" && text.contains("clap::") {
            out.push(Violation(format!("{at}: only `cli` may use clap")));
        }
        if is_reader(&rel) && text.contains("std::env::var") {
            out.push(Violation(format!(
                "{at}: a reader reads the environment; let its caller pass the value"
            )));
        }
    }
    out
}

/// The crates that are one module each (crates/skillpm-MODULE).
const ONE_MODULE_CRATES: &[&str] = &["skill", "trust", "audit", "net", "sandbox"];

fn module_is_crate(module: &str) -> bool {
    ONE_MODULE_CRATES.contains(&module)
}

/// Writes `text` at `rel` below `src`, making its folders: the fake trees
/// the checkers' own tests build.
fn writer(src: &Path) -> impl Fn(&str, &str) + '_ {
    move |rel, text| {
        let path = src.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn arrows_point_down() {
    // The crates too: the compiler keeps each from naming what is above it,
    // this keeps the base crate's own two layers, and every reader.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut violations: Vec<String> = check(&root.join("src")).into_iter().map(|v| v.0).collect();
    let base = "crates/skillpm-base/src";
    violations.extend(
        check_tree(&root.join(base), base, None)
            .into_iter()
            .map(|v| v.0),
    );
    for module in ONE_MODULE_CRATES {
        let dir = format!("crates/skillpm-{module}/src");
        let found = check_tree(&root.join(&dir), &dir, Some(module));
        violations.extend(found.into_iter().map(|v| v.0));
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The checker itself catches each kind of wrong arrow.
#[test]
fn the_checker_sees_an_arrow_pointing_up() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path();
    let write = writer(src);
    write(
        "store/mod.rs",
        "use crate::{digest::Digest, git::{self, Checkout}};\n",
    );
    write(
        "project/state.rs",
        "fn f() { crate::cache::cache_root(); }\n",
    );
    write(
        "agents/roots/mod.rs",
        "#[derive(clap::ValueEnum)] enum Scope {}\n",
    );
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
    assert!(has("`store` (layer 5) uses `git` (layer 5)"), "{found:#?}");
    assert!(has("`ops` (layer 14) uses `cli` (layer 15)"), "{found:#?}");
    assert!(
        has("src/agents/roots/mod.rs: only `cli` may use clap"),
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

// ---------------------------------------------------------------------------
// The file-level import graph: no circles, and no source kind importing
// another (docs/architecture.md, docs/sources.md).
// ---------------------------------------------------------------------------

/// The module path of a file under `src/` (`ops/lifecycle/add.rs` →
/// `ops::lifecycle::add`, `x/mod.rs` → `x`, `lib.rs` → the crate root).
fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Reads one use-tree or path at `chars[*i..]`: `a::b::{c, d::e as f}`
/// expands to one (segments, alias) per leaf. Stops at anything else.
fn read_tree(
    chars: &[char],
    i: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) {
    let mut path = prefix.to_vec();
    loop {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
        if *i < chars.len() && chars[*i] == '{' {
            *i += 1;
            loop {
                read_tree(chars, i, &path, out);
                while *i < chars.len() && chars[*i].is_whitespace() {
                    *i += 1;
                }
                match chars.get(*i) {
                    Some(',') => *i += 1,
                    Some('}') => {
                        *i += 1;
                        return;
                    }
                    _ => return,
                }
                while *i < chars.len() && chars[*i].is_whitespace() {
                    *i += 1;
                }
                if chars.get(*i) == Some(&'}') {
                    *i += 1;
                    return;
                }
            }
        }
        let start = *i;
        while *i < chars.len() && is_ident_char(chars[*i]) {
            *i += 1;
        }
        if start == *i {
            return;
        }
        let ident: String = chars[start..*i].iter().collect();
        if ident != "self" || path.is_empty() {
            path.push(ident);
        }
        if chars.get(*i) == Some(&':') && chars.get(*i + 1) == Some(&':') {
            *i += 2;
            continue;
        }
        let rest: String = chars[*i..chars.len().min(*i + 40)].iter().collect();
        let alias = match rest.trim_start().strip_prefix("as ") {
            Some(after) => ident_of(after),
            None => path.last().cloned().unwrap_or_default(),
        };
        out.push((path, alias));
        return;
    }
}

fn ident_of(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| is_ident_char(*c))
        .collect()
}

/// Every path a file names (`crate::…`, `super::…`, `self::…`, or through a
/// name such a `use` brought in), made absolute.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let chars: Vec<char> = text.chars().collect();
    let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
    let absolute =
        |path: &[String], aliases: &HashMap<String, Vec<String>>| -> Option<Vec<String>> {
            let first = path.first()?;
            let mut base: Vec<String> = match first.as_str() {
                "crate" => Vec::new(),
                "self" => module.to_vec(),
                "super" => {
                    let ups = path.iter().take_while(|s| *s == "super").count();
                    let mut m = module.to_vec();
                    for _ in 0..ups {
                        m.pop()?;
                    }
                    m.extend(path[ups..].iter().cloned());
                    return Some(m);
                }
                other => aliases.get(other)?.clone(),
            };
            base.extend(path[1..].iter().cloned());
            Some(base)
        };
    // A name a `use crate::…` / `use super::…` brought in may start a path
    // (`use super::oci;` … `oci::kind::Oci`); a bare child path (`mod x;`
    // … `x::f()`, `pub use x::Y`) is the module's own structure, not an import.
    let mut uses = Vec::new();
    for (at, _) in text.match_indices("use ") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(is_ident_char) {
            continue;
        }
        let mut i = text[..at + 4].chars().count();
        read_tree(&chars, &mut i, &[], &mut uses);
    }
    for (path, alias) in &uses {
        if let Some(abs) = absolute(path, &aliases) {
            aliases.insert(alias.clone(), abs);
        }
    }
    let mut out: Vec<Vec<String>> = uses
        .iter()
        .filter_map(|(p, _)| absolute(p, &aliases))
        .collect();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !(is_ident_char(chars[i - 1]) || chars[i - 1] == ':');
        if boundary && is_ident_char(chars[i]) {
            let mut found = Vec::new();
            let start = i;
            read_tree(&chars, &mut i, &[], &mut found);
            for (path, _) in found {
                if path.len() > 1
                    && let Some(abs) = absolute(&path, &aliases)
                {
                    out.push(abs);
                }
            }
            if i == start {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The import graph of the files under `src`: file → files it names (the
/// file of the longest module prefix of each path; a name re-exported by
/// a `mod.rs` leads to that `mod.rs`).
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut by_module: HashMap<Vec<String>, String> = HashMap::new();
    let mut texts = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let module = module_of(&rel);
        let full = std::fs::read_to_string(file).unwrap();
        texts.push((
            rel.clone(),
            module.clone(),
            without_comments(without_tests(&full)),
        ));
        by_module.insert(module, rel);
    }
    let mut graph = BTreeMap::new();
    for (rel, module, text) in &texts {
        let mut targets = BTreeSet::new();
        for path in named_paths(text, module) {
            let target = (1..=path.len())
                .rev()
                .find_map(|n| by_module.get(&path[..n]));
            if let Some(target) = target
                && target != rel
            {
                targets.insert(target.clone());
            }
        }
        graph.insert(rel.clone(), targets);
    }
    graph
}

/// The circles of `graph`: its strongly connected parts of two or more
/// files (Tarjan), each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: HashMap<&'g str, usize>,
        low: HashMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.graph.contains_key(w) {
                    continue;
                }
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut part = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    part.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.found.push(part);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

fn circle_report(src: &Path) -> Vec<String> {
    let graph = import_graph(src);
    circles(&graph)
        .into_iter()
        .map(|files| {
            let ties: Vec<String> = files
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|b| files.contains(b))
                        .map(move |b| format!("src/{a} -> src/{b}"))
                })
                .collect();
            format!(
                "import circle of {} files: {}",
                files.len(),
                ties.join(", ")
            )
        })
        .collect()
}

#[test]
fn no_file_imports_itself_round_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circle_report(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The kinds of source (docs/sources.md): the files of each. A file of one
/// kind never names a file of another; shared code lives beside them
/// (`candidate`, `proof`, `workspace`, `tokens`, `id`) or below.
const KINDS: &[(&str, &str)] = &[
    ("index", "sources/index/"),
    ("git", "sources/git.rs"),
    ("folder", "sources/folder.rs"),
    ("mcp", "sources/mcp/"),
    ("oci", "sources/oci/kind.rs"),
];

fn kind_of_file(rel: &str) -> Option<&'static str> {
    KINDS
        .iter()
        .find(|(_, place)| rel.starts_with(place))
        .map(|(kind, _)| *kind)
}

fn kind_report(src: &Path) -> Vec<String> {
    let graph = import_graph(src);
    let mut out = Vec::new();
    for (file, targets) in &graph {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        let implements =
            text.contains("impl Kind for") || text.contains("impl crate::sources::Kind for");
        let Some(kind) = kind_of_file(file) else {
            if implements {
                out.push(format!(
                    "src/{file} implements a source kind that is not in KINDS"
                ));
            }
            continue;
        };
        for target in targets {
            if let Some(other) = kind_of_file(target)
                && other != kind
            {
                out.push(format!(
                    "src/{file} (kind `{kind}`) imports src/{target} (kind `{other}`)"
                ));
            }
        }
    }
    out
}

#[test]
fn no_source_kind_imports_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = kind_report(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The one map from a kind to its module (docs/sources.md#how-to-add-a-kind).
const KIND_MAP: &str = "sources/id.rs";

/// Every place outside [`KIND_MAP`] that names a kind's unit type (the
/// types that `impl Kind for`) or takes a `SourceKind` apart in a `match`:
/// a second dispatch over the kinds growing back.
fn dispatch_report(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = without_comments(without_tests(&std::fs::read_to_string(f).unwrap()));
            (rel, text)
        })
        .collect();
    let units: Vec<String> = texts
        .iter()
        .flat_map(|(_, text)| {
            text.match_indices("impl Kind for ")
                .map(|(at, m)| ident(&text[at + m.len()..]))
        })
        .collect();
    let mut out = Vec::new();
    for (rel, text) in &texts {
        if rel == KIND_MAP {
            continue;
        }
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .collect();
        for unit in &units {
            // `git::Git`, never `Format::Git` (a variant of a type).
            let named = words.iter().any(|w| {
                w.strip_suffix(&format!("::{unit}"))
                    .and_then(|path| path.rsplit("::").next())
                    .is_some_and(|module| module.starts_with(|c: char| c.is_ascii_lowercase()))
            });
            if named && !text.contains(&format!("impl Kind for {unit}")) {
                out.push(format!("src/{rel} names the kind `{unit}`"));
            }
        }
        let arm = text.match_indices("SourceKind::").any(|(at, m)| {
            let rest = text[at + m.len()..].trim_start_matches(|c: char| c.is_alphanumeric());
            let rest = rest.trim_start();
            rest.starts_with("=>") || (rest.starts_with('|') && !rest.starts_with("||"))
        });
        if arm {
            out.push(format!("src/{rel} matches on SourceKind"));
        }
    }
    out
}

#[test]
fn only_the_kind_map_names_the_kinds() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = dispatch_report(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check sees what it forbids.
    let tmp = tempfile::tempdir().unwrap();
    let write = writer(tmp.path());
    write("sources/git.rs", "pub struct Git;\nimpl Kind for Git {}\n");
    write(KIND_MAP, "fn m() -> &'static dyn Kind { &git::Git }\n");
    write(
        "ops/x.rs",
        "fn f(k: SourceKind) { match k { SourceKind::Git => crate::sources::git::Git.go(), _ => {} } }\n",
    );
    write(
        "ops/y.rs",
        "fn f(k: SourceKind) -> bool { k == SourceKind::Git || k == SourceKind::Oci }\n",
    );
    let found = dispatch_report(tmp.path());
    assert_eq!(
        found,
        [
            "src/ops/x.rs names the kind `Git`",
            "src/ops/x.rs matches on SourceKind"
        ],
        "{found:#?}"
    );
}

/// The graph checks see circles through `crate::`, `super::`, groups and
/// re-exports, and kinds reaching into each other.
#[test]
fn the_graph_checks_see_circles_and_kinds_importing_kinds() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path();
    let write = writer(src);
    write("lib.rs", "pub mod a;\npub mod b;\npub mod sources;\n");
    write("a.rs", "use crate::{b::{self, Thing}};\n");
    write("b.rs", "fn f() { crate::a::g(); }\n");
    write(
        "sources/mod.rs",
        "pub mod git;\npub mod folder;\npub mod oci;\n",
    );
    write(
        "sources/git.rs",
        "use super::folder;\nfn f() { folder::x(); }\n",
    );
    write(
        "sources/folder.rs",
        "// crate::sources::git is named in a comment only\n",
    );
    write("sources/oci/mod.rs", "pub mod kind;\npub mod client;\n");
    write("sources/oci/kind.rs", "use super::client::Registry;\n");
    write("sources/oci/client.rs", "fn f() { super::kind::g(); }\n");
    write("sources/mcp/mod.rs", "impl Kind for Mcp {}\n");
    write("sources/ftp.rs", "impl Kind for Ftp {}\n");
    write("ops/mod.rs", "pub mod lifecycle;\n");
    write(
        "ops/lifecycle/mod.rs",
        "mod add;\npub use self::add::add;\nfn g() { x::y(); }\n",
    );
    write(
        "ops/lifecycle/add.rs",
        "use super::Session;\n#[cfg(test)]\nmod tests { use crate::b; }\n",
    );
    let circles = circle_report(src);
    let has = |needle: &str| circles.iter().any(|c| c.contains(needle));
    assert!(
        has("src/a.rs -> src/b.rs") && has("src/b.rs -> src/a.rs"),
        "{circles:#?}"
    );
    assert!(
        has("src/sources/oci/client.rs -> src/sources/oci/kind.rs"),
        "{circles:#?}"
    );
    assert!(
        has("src/ops/lifecycle/add.rs -> src/ops/lifecycle/mod.rs"),
        "{circles:#?}"
    );
    assert_eq!(circles.len(), 3, "{circles:#?}");
    let kinds = kind_report(src);
    assert!(
        kinds
            .iter()
            .any(|k| k.contains("src/sources/git.rs (kind `git`) imports src/sources/folder.rs")),
        "{kinds:#?}"
    );
    assert!(
        kinds
            .iter()
            .any(|k| k.contains("src/sources/ftp.rs implements a source kind that is not in KINDS")),
        "{kinds:#?}"
    );
    assert_eq!(kinds.len(), 2, "{kinds:#?}");
}

/// The Rust files of `src/` and of every crate under `crates/`.
fn workspace_rust_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        rust_files(&krate.unwrap().path().join("src"), &mut files);
    }
    files
}

/// Every `pub` (any visibility: `pub`, `pub(crate)`, `pub(super)`) struct,
/// enum, type alias or trait in src/ and the crates, with the files that
/// define it (a crate's name is one more name in `crate::`).
fn pub_type_names() -> std::collections::BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let files = workspace_rust_files();
    let mut names: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = match file.strip_prefix(&src) {
            Ok(rel) => rel.display().to_string(),
            Err(_) => file.strip_prefix(root).unwrap().display().to_string(),
        };
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
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("{name} in {}", files.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "two pub types share a name (give each its own, e.g. `InstallScope` / `Scope`): {shared:?}"
    );
}

#[test]
fn the_type_name_scan_sees_every_visibility() {
    // The types this issue split must be found, whatever their visibility.
    let names = pub_type_names();
    for (name, file) in [
        ("InstallScope", "project/manifest.rs"),
        ("Scope", "agents/roots/mod.rs"),
        ("RepoSkill", "crates/skillpm-skill/src/discover.rs"),
        ("TreeWriter", "unpack/writer.rs"),
        ("CheckoutTree", "git/writer.rs"),
        ("ArtifactType", "sources/index/format.rs"),
        ("ArtifactKind", "unpack/kind.rs"),
    ] {
        assert_eq!(
            names.get(name).map(Vec::as_slice),
            Some([file.to_owned()].as_slice()),
            "{name}"
        );
    }
}

/// The `\p{…}`, `\P{…}` and `\pL`-style classes in `text`: each needs a
/// Unicode table the release binary leaves out (Cargo.toml keeps only the
/// `regex` features `unicode-case` and `unicode-perl`).
fn unicode_classes(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices('\\') {
        let rest = &text[at + 1..];
        let Some(rest) = rest.strip_prefix(['p', 'P']) else {
            continue;
        };
        let class = if rest.starts_with('{') {
            rest.find('}').map(|end| &rest[..=end])
        } else {
            let letter = rest.chars().next().filter(|c| "CLMNPSZ".contains(*c));
            let next = rest.chars().nth(1);
            letter
                .filter(|_| !next.is_some_and(char::is_alphanumeric))
                .map(|_| &rest[..1])
        };
        if let Some(class) = class {
            found.push(format!("\\{}{class}", &text[at + 1..at + 2]));
        }
    }
    found
}

#[test]
fn no_expression_needs_a_unicode_table_the_release_leaves_out() {
    // The tests' dev-dependencies enable every table, so such an expression
    // compiles here and fails only in the release binary.
    assert!(unicode_classes(r#"r"(?i)\bcurl\s+\w+\d", "C:\\Program Files\\PATH""#).is_empty());
    assert_eq!(
        unicode_classes(r#"r"[\p{Greek}\PL]+\pN""#),
        [r"\p{Greek}", r"\PL", r"\pN"]
    );
    let files = workspace_rust_files();
    let found: Vec<String> = files
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            unicode_classes(&text)
                .into_iter()
                .map(move |class| format!("{class} in {}", file.display()))
        })
        .collect();
    assert!(
        found.is_empty(),
        "these need a Unicode table: enable its `regex` feature in Cargo.toml: {found:?}"
    );
}
