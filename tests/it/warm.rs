//! A warm cache (docs/performance.md#what-the-measurements-decided): `add` of skills whose
//! artifacts the store already unpacked neither downloads nor unpacks them
//! again, an entry that is no longer whole is never reused, and v0.1 files
//! (no digest) are revalidated with the server's validators (a 304 over
//! cached bytes altered since is a miss). Counted at the server, never timed.

use crate::support;

use std::path::{Path, PathBuf};

use support::cli::{Sandbox, run};
use support::registry::{Registry, SkillFiles};
use support::server::TestServer;

fn skills() -> Vec<SkillFiles> {
    (0..3)
        .map(|i| {
            SkillFiles::new(&format!("warm-{i}"))
                .file("references/GUIDE.md", format!("guide {i}\n"))
                .executable("scripts/run.sh", format!("#!/bin/sh\necho {i}\n"))
        })
        .collect()
}

/// Artifact requests the server answered.
fn artifact_requests(server: &TestServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|r| r.path.ends_with(".tar.gz"))
        .count()
}

/// A new project folder in the sandbox (same HOME and cache), initialised.
fn project(sandbox: &Sandbox, name: &str) -> PathBuf {
    let dir = sandbox.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    sandbox.cmd_in(&dir).arg("init").assert().success();
    dir
}

fn add_all(sandbox: &Sandbox, dir: &Path, url: &str) {
    let (code, _, stderr) = run(sandbox
        .cmd_in(dir)
        .args(["add", "--all", "--yes", "--source", url]));
    assert_eq!(code, 0, "{stderr}");
}

/// Empties `downloads/`: what is left to reuse is the store itself.
fn forget_downloads(sandbox: &Sandbox) {
    let downloads = sandbox.cache.join("downloads");
    for item in std::fs::read_dir(&downloads).unwrap().flatten() {
        std::fs::remove_file(item.path()).unwrap();
    }
}

fn lock_trees(dir: &Path) -> Vec<String> {
    let lock = std::fs::read_to_string(dir.join("skills.lock")).unwrap();
    let mut trees: Vec<String> = lock
        .lines()
        .filter(|l| l.trim_start().starts_with("tree ="))
        .map(str::to_owned)
        .collect();
    trees.sort();
    trees
}

/// The site's folder (kept alive), its server, the sandbox, the first project.
type ColdStart = (tempfile::TempDir, TestServer, Sandbox, PathBuf);

/// A loopback site with [`skills`] (index v0.2 or v0.1), a sandbox, and a
/// first project that added them all: the cold start every test here
/// measures a warm run against.
fn added_from(v2: bool) -> ColdStart {
    let site = tempfile::tempdir().unwrap();
    let registry = Registry::new(site.path());
    if v2 {
        registry.write_v2(&skills());
    } else {
        registry.write_v1(&skills());
    }
    let server = TestServer::serve(site.path());
    let sandbox = Sandbox::new();
    let first = project(&sandbox, "first");
    add_all(&sandbox, &first, &server.base());
    (site, server, sandbox, first)
}

fn added_from_v2() -> ColdStart {
    added_from(true)
}

fn added_from_v1() -> ColdStart {
    added_from(false)
}

#[test]
fn a_warm_add_neither_downloads_nor_unpacks_again() {
    let (_site, server, sandbox, first) = added_from_v2();
    assert_eq!(artifact_requests(&server), 3);

    // Without the cached artifacts, only reusing the store entries avoids
    // asking the server again.
    forget_downloads(&sandbox);
    server.clear_log();
    let second = project(&sandbox, "second");
    add_all(&sandbox, &second, &server.base());
    assert_eq!(artifact_requests(&server), 0, "{:#?}", server.requests());
    assert_eq!(lock_trees(&first), lock_trees(&second));
    assert_eq!(lock_trees(&second).len(), 3);
    for i in 0..3 {
        let placed = second.join(format!(".claude/skills/warm-{i}"));
        assert_eq!(
            std::fs::read_to_string(placed.join("references/GUIDE.md")).unwrap(),
            format!("guide {i}\n")
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(placed.join("scripts/run.sh"))
                .unwrap()
                .permissions()
                .mode();
            assert_ne!(mode & 0o100, 0, "the script lost its executable bit");
        }
    }
    assert!(
        std::fs::read_to_string(second.join("skills.lock"))
            .unwrap()
            .contains("scripts/run.sh"),
        "the lock names the executable"
    );
}

#[cfg(unix)]
#[test]
fn a_store_entry_edited_since_is_fetched_again_not_reused() {
    use std::os::unix::fs::PermissionsExt;
    let (_site, server, sandbox, first) = added_from_v2();

    // Someone edits a stored file (through a link, say).
    let entry = std::fs::read_dir(sandbox.cache.join("store"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            std::fs::read_to_string(p.join("SKILL.md")).is_ok_and(|t| t.contains("name: warm-1"))
        })
        .expect("warm-1 is in the store");
    let guide = entry.join("references/GUIDE.md");
    std::fs::set_permissions(&guide, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&guide, "tampered\n").unwrap();

    forget_downloads(&sandbox);
    server.clear_log();
    let second = project(&sandbox, "second");
    add_all(&sandbox, &second, &server.base());
    // The two intact skills are reused; the edited one is downloaded again.
    assert_eq!(
        server
            .requests()
            .iter()
            .filter(|r| r.path.ends_with("warm-1.tar.gz"))
            .count(),
        1,
        "{:#?}",
        server.requests()
    );
    assert_eq!(artifact_requests(&server), 1);
    assert_eq!(
        std::fs::read_to_string(second.join(".claude/skills/warm-1/references/GUIDE.md")).unwrap(),
        "guide 1\n"
    );
    assert_eq!(lock_trees(&first), lock_trees(&second));
}

/// Requests for the v0.1 files (not the index), with their status.
fn file_requests(server: &TestServer) -> Vec<(String, u16, bool)> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/.well-known/skills/") && !r.path.ends_with("index.json"))
        .map(|r| {
            let conditional = r.header("if-none-match").is_some();
            (r.path, r.status, conditional)
        })
        .collect()
}

/// The statuses the server answered for `path`, in order.
fn statuses_of(server: &TestServer, path: &str) -> Vec<u16> {
    file_requests(server)
        .into_iter()
        .filter(|(p, _, _)| p == path)
        .map(|(_, status, _)| status)
        .collect()
}

#[test]
fn v0_1_files_are_revalidated_and_a_304_over_altered_bytes_is_a_miss() {
    let (_site, server, sandbox, first) = added_from_v1();
    let cold = file_requests(&server);
    assert_eq!(cold.len(), 9, "{cold:#?}");
    assert!(
        cold.iter().all(|(_, status, _)| *status == 200),
        "{cold:#?}"
    );

    // Warm: every file is asked for conditionally and answered 304.
    server.clear_log();
    let second = project(&sandbox, "second");
    add_all(&sandbox, &second, &server.base());
    let warm = file_requests(&server);
    assert_eq!(warm.len(), 9, "{warm:#?}");
    assert!(
        warm.iter()
            .all(|(_, status, conditional)| *status == 304 && *conditional),
        "{warm:#?}"
    );
    assert_eq!(lock_trees(&first), lock_trees(&second));

    // The cached bytes of one file (v0.1 files are kept in the store entry
    // only, never in downloads/) are altered: its 304 is a miss, and the
    // file is downloaded again, whole.
    assert!(support::files_under(&sandbox.cache.join("downloads")).is_empty());
    let cached = std::fs::read_dir(sandbox.cache.join("store"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("references/GUIDE.md"))
        .find(|p| std::fs::read(p).is_ok_and(|b| b == b"guide 1\n"))
        .expect("the guide of warm-1 is stored");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cached, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::write(&cached, "tampered\n").unwrap();
    server.clear_log();
    let third = project(&sandbox, "third");
    add_all(&sandbox, &third, &server.base());
    let guide = "/.well-known/skills/warm-1/references/GUIDE.md";
    let asked = statuses_of(&server, guide);
    assert_eq!(asked, vec![304, 200], "{:#?}", file_requests(&server));
    assert_eq!(
        std::fs::read_to_string(third.join(".claude/skills/warm-1/references/GUIDE.md")).unwrap(),
        "guide 1\n"
    );
    assert_eq!(lock_trees(&first), lock_trees(&third));
}

/// The store entries (`store/sha256-…` folders).
fn store_entries(cache: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(cache.join("store"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with("sha256-")
        })
        .collect()
}

/// Removes a read-only store entry (as `cache gc` would).
fn remove_entry(entry: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for dir in [
            entry.to_owned(),
            entry.join("references"),
            entry.join("scripts"),
        ] {
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
        }
    }
    std::fs::remove_dir_all(entry).unwrap();
}

#[test]
fn v0_1_files_are_fetched_once_and_written_once_into_the_store() {
    let (_site, server, sandbox, first) = added_from_v1();

    // Cold: each file asked for once; its bytes go from memory into the
    // store's staging folder only: nothing in downloads/, nothing left in tmp/.
    let mut cold: Vec<String> = file_requests(&server)
        .into_iter()
        .map(|(path, status, _)| {
            assert_eq!(status, 200, "{path}");
            path
        })
        .collect();
    cold.sort();
    let before = cold.len();
    cold.dedup();
    assert_eq!((before, cold.len()), (9, 9), "{cold:#?}");
    assert!(support::files_under(&sandbox.cache.join("downloads")).is_empty());
    assert!(support::leftovers_under(&sandbox.cache.join("tmp")).is_empty());
    assert_eq!(store_entries(&sandbox.cache).len(), 3);
    // The server gave validators: one record per skill's file list, not per file.
    assert_eq!(
        support::files_under(&sandbox.cache.join("index/files")).len(),
        3,
        "{:#?}",
        support::files_under(&sandbox.cache.join("index/files"))
    );

    // Install from the lock into an empty cache: the same 9 requests, stored
    // while the rest download, the same trees.
    let other_cache = sandbox.path("other-cache");
    server.clear_log();
    let (code, _, stderr) = run(sandbox
        .cmd_in(&first)
        .env("SKILLPM_CACHE_DIR", &other_cache)
        .args(["install"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(file_requests(&server).len(), 9, "{:#?}", server.requests());
    assert!(support::files_under(&other_cache.join("downloads")).is_empty());
    assert_eq!(store_entries(&other_cache).len(), 3);

    // The store entry a 304 would confirm is gone: the 304 is a miss, and
    // the file is downloaded again, whole.
    let gone = store_entries(&sandbox.cache)
        .into_iter()
        .find(|p| std::fs::read(p.join("references/GUIDE.md")).is_ok_and(|b| b == b"guide 2\n"))
        .expect("warm-2 is stored");
    remove_entry(&gone);
    server.clear_log();
    let second = project(&sandbox, "second");
    add_all(&sandbox, &second, &server.base());
    let guide = "/.well-known/skills/warm-2/references/GUIDE.md";
    let asked = statuses_of(&server, guide);
    assert_eq!(asked, vec![304, 200], "{:#?}", file_requests(&server));
    // The other two skills' files were all confirmed by a 304 alone.
    let others = file_requests(&server)
        .into_iter()
        .filter(|(path, _, _)| !path.contains("/warm-2/"))
        .collect::<Vec<_>>();
    assert!(
        others.len() == 6 && others.iter().all(|(_, status, _)| *status == 304),
        "{others:#?}"
    );
    assert_eq!(
        std::fs::read_to_string(second.join(".claude/skills/warm-2/references/GUIDE.md")).unwrap(),
        "guide 2\n"
    );
    assert_eq!(lock_trees(&first), lock_trees(&second));
}

/// Requests for the v0.2 index: (status, whether it was conditional).
fn index_requests(server: &TestServer) -> Vec<(u16, bool)> {
    server
        .requests_to(&Registry::v2_path("index.json"))
        .into_iter()
        .map(|r| (r.status, r.header("if-none-match").is_some()))
        .collect()
}

/// The cache's copy of the site's index (`<cache>/index/…`).
fn cached_index(sandbox: &Sandbox) -> PathBuf {
    std::fs::read_dir(sandbox.cache.join("index"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| std::fs::read(p).is_ok_and(|b| String::from_utf8_lossy(&b).contains("warm-1")))
        .expect("the index is cached")
}

/// A cached copy's two header lines (magic, validators) and its body.
fn split_cached(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let first = bytes.iter().position(|&b| b == b'\n').unwrap();
    let second = first + 1 + bytes[first + 1..].iter().position(|&b| b == b'\n').unwrap();
    (bytes[..=second].to_vec(), bytes[second + 1..].to_vec())
}

/// The warm path takes the index from the cache only when the server's
/// validators say so (a 304), and a changed index is fetched again. A
/// cache writer who swaps an entry of the cached index for an artifact of
/// its own (planted in `downloads/`), keeping the validators, gets no 304 to
/// stand for it: the body no longer hashes to the digest its line names,
/// so it is asked for again; rewriting that digest too breaks the line's
/// MAC (the record key), so it is not a cached copy at all.
#[test]
fn a_cached_index_is_used_on_a_304_only_while_it_is_what_was_fetched() {
    let (site, server, sandbox, first) = added_from_v2();
    let honest_index = std::fs::read(Registry::new(site.path()).v2_index()).unwrap();

    // Honest path: asked conditionally, a 304, nothing downloaded.
    server.clear_log();
    let second = project(&sandbox, "second");
    add_all(&sandbox, &second, &server.base());
    assert_eq!(index_requests(&server), [(304, true)]);
    assert_eq!(artifact_requests(&server), 0);
    assert_eq!(lock_trees(&first), lock_trees(&second));

    // The attacker's index and artifact: warm-1 with another guide.
    let evil_site = tempfile::tempdir().unwrap();
    let mut evil = skills();
    evil[1] = SkillFiles::new("warm-1")
        .file("references/GUIDE.md", "evil\n")
        .executable("scripts/run.sh", "#!/bin/sh\necho 1\n");
    let evil_registry = Registry::new(evil_site.path());
    evil_registry.write_v2(&evil);
    let evil_index = std::fs::read(evil_registry.v2_index()).unwrap();
    let archive = evil[1].tar_gz();
    let planted = support::registry::digest(&archive).replace("sha256:", "sha256-");
    std::fs::write(sandbox.cache.join("downloads").join(planted), &archive).unwrap();
    let honest_placed = |dir: &Path| {
        assert_eq!(
            std::fs::read_to_string(dir.join(".claude/skills/warm-1/references/GUIDE.md")).unwrap(),
            "guide 1\n"
        );
        assert_eq!(lock_trees(&first), lock_trees(dir));
    };

    // Attack 1: the body swapped, the validators' line kept.
    let cached = cached_index(&sandbox);
    let (head, body) = split_cached(&std::fs::read(&cached).unwrap());
    assert_eq!(body, honest_index);
    std::fs::write(&cached, [head.as_slice(), &evil_index].concat()).unwrap();
    server.clear_log();
    let third = project(&sandbox, "third");
    add_all(&sandbox, &third, &server.base());
    assert_eq!(index_requests(&server), [(304, true), (200, false)]);
    honest_placed(&third);

    // Attack 2: the line's digest rewritten to the swapped body's.
    let (head, _) = split_cached(&std::fs::read(&cached).unwrap());
    let head = String::from_utf8(head).unwrap().replace(
        &support::registry::digest(&honest_index),
        &support::registry::digest(&evil_index),
    );
    assert!(head.contains(&support::registry::digest(&evil_index)));
    std::fs::write(&cached, [head.as_bytes(), &evil_index].concat()).unwrap();
    server.clear_log();
    let fourth = project(&sandbox, "fourth");
    add_all(&sandbox, &fourth, &server.base());
    assert_eq!(index_requests(&server), [(200, false)]);
    honest_placed(&fourth);

    // A changed index (new validators) is fetched again, and its new skill added.
    let mut more = skills();
    more.push(SkillFiles::new("warm-3").file("references/GUIDE.md", "guide 3\n"));
    Registry::new(site.path()).write_v2(&more);
    server.clear_log();
    let fifth = project(&sandbox, "fifth");
    add_all(&sandbox, &fifth, &server.base());
    assert_eq!(index_requests(&server), [(200, true)]);
    assert_eq!(lock_trees(&fifth).len(), 4);
    assert_eq!(artifact_requests(&server), 1, "{:#?}", server.requests());
}

/// A warm add places a stored tree without hashing it again when its
/// marker holds (docs/threat-model.md, "What the cache is"), and the marker
/// holds each file's ctime and inode: an edit that keeps size and mtime
/// still breaks it, so the entry is hashed, moved aside and made again from
/// its artifact, never placed as edited.
#[cfg(unix)]
#[test]
fn a_warm_add_never_places_a_store_entry_edited_keeping_size_and_mtime() {
    let (_site, server, sandbox, first) = added_from_v2();
    // Honest path: placed from the store, nothing downloaded.
    server.clear_log();
    let second = project(&sandbox, "second");
    add_all(&sandbox, &second, &server.base());
    assert_eq!(artifact_requests(&server), 0);
    assert_eq!(lock_trees(&first), lock_trees(&second));

    // The attack: warm-1's guide edited in the store, size and mtime kept.
    let guide = std::fs::canonicalize(second.join(".claude/skills/warm-1"))
        .unwrap()
        .join("references/GUIDE.md");
    let meta = std::fs::metadata(&guide).unwrap();
    let mtime = meta.modified().unwrap();
    let mut perms = meta.permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&guide, perms).unwrap();
    std::fs::write(&guide, "guide X\n").unwrap();
    let file = std::fs::File::options().write(true).open(&guide).unwrap();
    file.set_modified(mtime).unwrap();
    drop(file);
    assert_eq!(std::fs::metadata(&guide).unwrap().len(), meta.len());

    let third = project(&sandbox, "third");
    add_all(&sandbox, &third, &server.base());
    assert_eq!(
        std::fs::read_to_string(third.join(".claude/skills/warm-1/references/GUIDE.md")).unwrap(),
        "guide 1\n"
    );
    assert_eq!(lock_trees(&first), lock_trees(&third));
    assert_eq!(
        std::fs::read_dir(sandbox.cache.join("quarantine"))
            .unwrap()
            .count(),
        1
    );
}
