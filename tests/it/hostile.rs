//! The hostile-archive corpus (docs/design.md#unpacking, issue 4): generated at test time by
//! `scripts/hostile-corpus.py`, each case fed to the real binary
//! (`skillpm cache add`). Every hostile case must be refused with exit 5,
//! name the archive and the rule, leave no file outside the staging folder
//! and create no store entry; the good ones must give the tree digest of the
//! same files on disk.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use skillpm::digest::hash_tree;

#[derive(Debug, Deserialize)]
struct Manifest {
    marker: String,
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
struct Case {
    id: String,
    file: String,
    name: String,
    expect: String,
    stderr: String,
    tree_of: Option<String>,
}

/// Every kind of hostile input the issue lists, by corpus id: the script may
/// add cases, never drop one of these.
const REQUIRED: &[&str] = &[
    "z-parent-1",
    "t-parent-1",
    "z-parent-2",
    "t-parent-3",
    "z-parent-deep",
    "t-parent-deep",
    "z-backslash-parent",
    "t-backslash-deep",
    "z-absolute",
    "t-absolute",
    "z-drive",
    "t-drive",
    "z-dot-segment",
    "t-dot-segment",
    "z-empty-segment",
    "t-empty-segment",
    "z-duplicate",
    "t-duplicate",
    "z-header-name",
    "z-header-size",
    "z-case-collision",
    "t-case-collision",
    "z-reserved-con",
    "t-reserved-con",
    "z-control-newline",
    "t-control-escape",
    "z-symlink-inside",
    "z-symlink-escape",
    "t-symlink-inside",
    "t-symlink-escape",
    "t-hardlink-inside",
    "t-hardlink-escape",
    "t-fifo",
    "z-bomb",
    "t-bomb",
    "z-file-too-large",
    "t-file-too-large",
    "z-too-many-entries",
    "t-too-many-entries",
    "t-truncated",
    "z-no-skill-md",
    "t-no-skill-md",
    "z-wrapper",
    "t-wrapper",
    "good-zip",
    "good-tar-gz",
];

fn generate_corpus(dir: &Path) -> Manifest {
    let marker = format!("m{:x}{:x}", std::process::id(), fastrand::u64(..));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/hostile-corpus.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg(dir)
        .arg(&marker)
        .status()
        .expect("python3 runs");
    assert!(status.success(), "corpus script failed");
    let manifest: Manifest =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest.marker, marker);
    manifest
}

/// Every path under `root`, relative, with a trailing `/` on folders.
fn listing(root: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if entry.file_type().unwrap().is_dir() {
                out.insert(format!("{rel}/"));
                walk(root, &path, out);
            } else {
                out.insert(rel);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(root, root, &mut out);
    out
}

/// What an empty cache looks like after a refused import: the layout, the
/// lock and the tag, and nothing else (no entry, no staging, no temp file).
fn empty_cache_listing() -> BTreeSet<String> {
    [
        "cache/",
        "cache/.lock",
        "cache/CACHEDIR.TAG",
        "cache/state/",
        "cache/store/",
        "home/",
        "work/",
        "work/a/",
        "work/a/b/",
    ]
    .into_iter()
    .map(String::from)
    .collect()
}

fn run_add(sandbox: &Path, artifact: &Path, name: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skillpm"))
        .args(["cache", "add"])
        .arg(artifact)
        .args(["--name", name])
        .current_dir(sandbox.join("work/a/b"))
        .env("SKILLPM_CACHE_DIR", sandbox.join("cache"))
        .env("HOME", sandbox.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.join("home/.config"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Names containing the marker anywhere they could have landed: the
/// sandbox's ancestors (`../` from the staging folder climbs through them)
/// and the absolute targets the corpus aims at.
fn escaped_files(sandbox: &Path, corpus: &Path, marker: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs: Vec<PathBuf> = sandbox.ancestors().map(Path::to_path_buf).collect();
    dirs.push(corpus.to_owned());
    dirs.push(PathBuf::from("/tmp"));
    for dir in dirs {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().contains(marker) {
                    found.push(entry.path());
                }
            }
        }
    }
    found
}

/// A refused case: exit 5, the expected reason, the archive named, and
/// the cache as empty as before. Problems go to `failures`.
fn check_refused(
    case: &Case,
    sandbox: &Path,
    out: &std::process::Output,
    failures: &mut Vec<String>,
) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    if code != Some(5) {
        failures.push(format!(
            "{}: exit {code:?}, want 5; stderr: {stderr}",
            case.id
        ));
    }
    if !stderr.contains(&case.stderr) {
        failures.push(format!(
            "{}: stderr lacks {:?}: {stderr}",
            case.id, case.stderr
        ));
    }
    if !stderr.contains(&case.file) {
        failures.push(format!(
            "{}: error does not name the archive: {stderr}",
            case.id
        ));
    }
    let after = listing(sandbox);
    let expected = empty_cache_listing();
    if after != expected {
        let extra: Vec<_> = after.symmetric_difference(&expected).collect();
        failures.push(format!("{}: files left behind: {extra:?}", case.id));
    }
}

/// An accepted case: exit 0 and the digest of its files on disk, and a
/// store entry that hashes to its name with the script executable.
fn check_accepted(
    case: &Case,
    (corpus, sandbox): (&Path, &Path),
    out: &std::process::Output,
    failures: &mut Vec<String>,
) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let code = out.status.code();
    if code != Some(0) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        failures.push(format!(
            "{}: exit {code:?}, want 0; stderr: {stderr}",
            case.id
        ));
        return;
    }
    let src = corpus.join(
        case.tree_of
            .as_deref()
            .expect("accepted cases name their tree"),
    );
    let want = hash_tree(&src).unwrap();
    if stdout.trim() != want.digest.to_string() {
        failures.push(format!(
            "{}: digest {} != files on disk {}",
            case.id,
            stdout.trim(),
            want.digest
        ));
    }
    let entry = sandbox.join("cache/store").join(want.digest.file_name());
    let stored = hash_tree(&entry).unwrap();
    assert_eq!(
        stored.digest, want.digest,
        "{}: the entry on disk hashes to its name",
        case.id
    );
    assert_eq!(
        stored.executables(),
        vec!["scripts/run.sh".to_owned()],
        "{}",
        case.id
    );
}

#[test]
fn hostile_corpus_is_refused_and_good_archives_match_the_disk() {
    let corpus_dir = tempfile::tempdir().unwrap();
    let corpus = corpus_dir.path();
    let manifest = generate_corpus(corpus);
    let ids: BTreeSet<&str> = manifest.cases.iter().map(|c| c.id.as_str()).collect();
    for id in REQUIRED {
        assert!(ids.contains(id), "corpus lacks required case {id}");
    }
    let corpus_before = listing(corpus);

    let mut failures = Vec::new();
    for case in &manifest.cases {
        let sandbox_dir = tempfile::tempdir().unwrap();
        let sandbox = sandbox_dir.path();
        std::fs::create_dir_all(sandbox.join("work/a/b")).unwrap();
        std::fs::create_dir_all(sandbox.join("home")).unwrap();
        let out = run_add(sandbox, &corpus.join(&case.file), &case.name);
        match case.expect.as_str() {
            "refuse" => check_refused(case, sandbox, &out, &mut failures),
            "accept" => {
                check_accepted(case, (corpus, sandbox), &out, &mut failures);
                if out.status.code() != Some(0) {
                    continue;
                }
            }
            other => panic!("unknown expectation {other}"),
        }
        let escaped = escaped_files(sandbox, corpus, &manifest.marker);
        if !escaped.is_empty() {
            failures.push(format!("{}: files escaped: {escaped:?}", case.id));
        }
    }
    assert_eq!(
        listing(corpus),
        corpus_before,
        "nothing was written next to the archives"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
