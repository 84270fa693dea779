//! Git and GitHub sources against real repositories built here with the git
//! CLI: `file://` bare repositories, `git http-backend` over smart HTTP on
//! 127.0.0.1, and a loopback stand-in for GitHub's API and archive hosts.

use crate::git_support;

use std::collections::HashMap;
use std::path::Path;

use git_support::github::FakeGitHub;
use git_support::{Repo, git, options, serve};
use skillpm::error::{Classify, Exit};
use skillpm::git::{
    self, CheckoutLimits, GitError, GitHubOptions, GitOptions, GitSpec, SkipReason, parse_git_spec,
};

fn spec(url: &str, reference: Option<&str>) -> GitSpec {
    parse_git_spec(url, reference, Path::new("/"))
        .unwrap()
        .expect("a git source")
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

/// main: A (pdf v1) → B (pdf v2); dev: C; tags v1 (annotated, at A), v0 (at A).
struct History {
    repo: Repo,
    a: String,
    b: String,
    c: String,
}

fn history() -> History {
    let repo = Repo::new("skills");
    repo.skill("skills/pdf", "pdf", "Fill PDF forms (v1)");
    let a = repo.commit("v1");
    repo.git(&["tag", "-a", "v1", "-m", "release 1"]);
    repo.git(&["tag", "v0"]);
    repo.skill("skills/pdf", "pdf", "Fill PDF forms (v2)");
    let b = repo.commit("v2");
    repo.git(&["checkout", "-q", "-b", "dev"]);
    repo.skill("skills/pdf", "pdf", "Fill PDF forms (dev)");
    let c = repo.commit("dev");
    repo.git(&["checkout", "-q", "main"]);
    repo.push();
    History { repo, a, b, c }
}

#[test]
fn resolves_default_branch_tags_shas_and_rejects_unknown_refs() {
    let h = history();
    let cache = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let url = h.repo.url();
    let resolve = |r: Option<&str>| git::resolve(&spec(&url, r), &opts);

    let head = resolve(None).unwrap();
    assert_eq!(head.commit, h.b, "no ref: the remote's HEAD (main)");
    assert_eq!(head.url, url);
    assert!(head.warnings.is_empty());
    assert_eq!(resolve(Some("main")).unwrap().commit, h.b);
    assert_eq!(resolve(Some("dev")).unwrap().commit, h.c);
    assert_eq!(resolve(Some("refs/heads/dev")).unwrap().commit, h.c);
    assert_eq!(
        resolve(Some("v1")).unwrap().commit,
        h.a,
        "annotated tag peeled"
    );
    assert_eq!(resolve(Some("v0")).unwrap().commit, h.a, "lightweight tag");
    assert_eq!(resolve(Some(&h.c)).unwrap().commit, h.c, "full SHA");
    assert_eq!(
        resolve(Some(&h.c.to_uppercase())).unwrap().commit,
        h.c,
        "SHA case does not matter"
    );
    assert_eq!(
        resolve(Some(&h.a[..10])).unwrap().commit,
        h.a,
        "abbreviated SHA"
    );

    let err = resolve(Some("no-such-branch")).unwrap_err();
    assert!(matches!(err, GitError::UnknownRef { .. }), "{err}");
    assert_eq!(err.exit(), Exit::NotFound);
    assert!(err.to_string().contains("no-such-branch"), "{err}");

    // A local path to the work tree is a git source too.
    let local = parse_git_spec("work", Some("dev"), h.repo.work.parent().unwrap())
        .unwrap()
        .expect("a repository path is a git source");
    assert!(local.url().starts_with("file://"), "{}", local.url());
    assert_eq!(git::resolve(&local, &opts).unwrap().commit, h.c);
}

#[test]
fn a_moved_tag_resolves_anew_while_the_pinned_commit_keeps_its_tree() {
    let h = history();
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let source = spec(&h.repo.url(), Some("v1"));

    let pinned = git::resolve(&source, &opts).unwrap().commit;
    assert_eq!(pinned, h.a);

    // Upstream moves the tag to B.
    h.repo.git(&["tag", "-f", "-a", "v1", "-m", "moved", &h.b]);
    h.repo.push();
    let moved = git::resolve(&source, &opts).unwrap().commit;
    assert_eq!(moved, h.b, "the moved tag is seen, not the cached one");

    // The pinned commit still checks out its own tree, from the warm cache
    // and from a cold one.
    let old = git::checkout(&source, &pinned, work.path(), &opts).unwrap();
    assert_eq!(old.commit, h.a);
    assert!(read(&old.root, "skills/pdf/SKILL.md").contains("(v1)"));
    let cold_cache = tempfile::tempdir().unwrap();
    let cold = git::checkout(&source, &pinned, work.path(), &options(cold_cache.path())).unwrap();
    assert!(read(&cold.root, "skills/pdf/SKILL.md").contains("(v1)"));
    let new = git::checkout(&source, &moved, work.path(), &opts).unwrap();
    assert!(read(&new.root, "skills/pdf/SKILL.md").contains("(v2)"));

    // Dropping a checkout removes its folder and nothing else.
    let root = old.root.clone();
    drop(old);
    assert!(!root.exists());
    drop((cold, new));
    assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn a_commit_gone_upstream_is_not_found_and_a_bad_subpath_is_named() {
    let h = history();
    let feature = {
        h.repo.git(&["checkout", "-q", "-b", "feature"]);
        h.repo.write("gone.txt", "soon gone");
        let id = h.repo.commit("gone");
        h.repo.git(&["checkout", "-q", "main"]);
        h.repo.push();
        id
    };
    // Force-push it away and prune it from the remote.
    git(&h.repo.bare, &["branch", "-D", "feature"]);
    git(&h.repo.bare, &["reflog", "expire", "--expire=now", "--all"]);
    git(&h.repo.bare, &["gc", "-q", "--prune=now"]);

    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let source = spec(&h.repo.url(), None);
    let err = git::checkout(&source, &feature, work.path(), &opts).unwrap_err();
    assert!(matches!(err, GitError::CommitNotFound { .. }), "{err}");
    assert_eq!(err.exit(), Exit::NotFound);
    assert_eq!(
        std::fs::read_dir(work.path()).unwrap().count(),
        0,
        "no trace left"
    );

    let missing = spec(&h.repo.url(), None)
        .with_subpath(Some("skills/nope"))
        .unwrap();
    let err = git::checkout(&missing, &h.b, work.path(), &opts).unwrap_err();
    assert!(matches!(err, GitError::SubpathNotFound { .. }), "{err}");
    assert!(err.to_string().contains("skills/nope"), "{err}");

    let err = git::checkout(&source, "abc123", work.path(), &opts).unwrap_err();
    assert_eq!(err.exit(), Exit::Usage, "{err}");
}

#[test]
fn a_subpath_checkout_holds_only_that_folder_with_exact_bytes_and_modes() {
    let repo = Repo::new("tools");
    repo.skill("skills/fill", "fill", "Fill forms");
    // Attributes asking a checkout for CRLF and an LFS smudge: neither may
    // apply, the bytes on disk are the blob's.
    repo.write("skills/fill/notes.txt", "line one\nline two\n");
    repo.write(
        "skills/fill/.gitattributes",
        "*.txt text eol=crlf filter=lfs diff=lfs merge=lfs\n",
    );
    repo.write("skills/fill/scripts/run.sh", "#!/bin/sh\necho hi\n");
    repo.executable("skills/fill/scripts/run.sh");
    repo.write("other/big.txt", "unrelated");
    let commit = repo.commit("tools");
    repo.push();

    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let source = spec(&repo.url(), None)
        .with_subpath(Some("skills/fill"))
        .unwrap();
    let checkout = git::checkout(&source, &commit, work.path(), &opts).unwrap();
    assert!(checkout.skipped.is_empty(), "{:?}", checkout.skipped);
    let mut names: Vec<String> = walk(&checkout.root);
    names.sort();
    assert_eq!(
        names,
        [".gitattributes", "SKILL.md", "notes.txt", "scripts/run.sh"]
    );
    assert_eq!(
        std::fs::read(checkout.root.join("notes.txt")).unwrap(),
        b"line one\nline two\n"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |rel: &str| {
            std::fs::metadata(checkout.root.join(rel))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("scripts/run.sh"), 0o755);
        assert_eq!(mode("SKILL.md"), 0o644);
    }
    let discovery = checkout.discover();
    assert_eq!(discovery.skills.len(), 1);
    assert_eq!(discovery.skills[0].path, "", "the subpath is the skill");
    let dir = checkout.skill_dir("").unwrap();
    assert_eq!(dir, checkout.root);
    assert_eq!(source.join_subpath("").as_deref(), Some("skills/fill"));
}

fn walk(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            assert!(!kind.is_symlink(), "a link was written: {:?}", entry.path());
            if kind.is_dir() {
                stack.push(entry.path());
            } else {
                let rel = entry.path().strip_prefix(root).unwrap().to_owned();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn a_symlink_in_a_skill_is_refused_by_name_and_never_created() {
    let repo = Repo::new("linked");
    repo.skill("skills/good", "good", "Fine");
    repo.skill("skills/bad", "bad", "Carries a link");
    std::os::unix::fs::symlink(
        "../../../../etc/passwd",
        repo.work.join("skills/bad/passwd"),
    )
    .unwrap();
    // A link far from any skill (a common README alias) does not block the rest.
    std::os::unix::fs::symlink("skills/good/SKILL.md", repo.work.join("README.md")).unwrap();
    // A skill folder that is itself a link is not followed.
    std::os::unix::fs::symlink("good", repo.work.join("skills/alias")).unwrap();
    let commit = repo.commit("links");
    repo.push();

    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let source = spec(&repo.url(), None);
    let checkout = git::checkout(&source, &commit, work.path(), &opts).unwrap();
    walk(&checkout.root); // asserts no link exists anywhere in the checkout

    let discovery = checkout.discover();
    let names: Vec<&str> = discovery.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["bad", "good"]);
    assert!(
        discovery
            .warnings
            .iter()
            .any(|w| w.contains("skills/alias")),
        "{:?}",
        discovery.warnings
    );

    assert!(checkout.skill_dir("skills/good").is_ok());
    let err = checkout.skill_dir("skills/bad").unwrap_err();
    assert_eq!(err.exit(), Exit::Unsafe);
    let text = err.to_string();
    assert!(text.contains("skills/bad/passwd"), "{text}");
    assert!(text.contains("symbolic link"), "{text}");
    assert!(
        !checkout.root.join("skills/bad/passwd").exists(),
        "the link was materialised"
    );

    // Asking for the linked folder itself as the subpath is refused too.
    let via_link = spec(&repo.url(), None)
        .with_subpath(Some("skills/alias"))
        .unwrap();
    let err = git::checkout(&via_link, &commit, work.path(), &opts).unwrap_err();
    assert!(matches!(err, GitError::Refused { .. }), "{err}");
    assert!(err.to_string().contains("skills/alias"), "{err}");
}

#[test]
fn a_submodule_in_a_skill_is_refused() {
    let repo = Repo::new("sub");
    repo.skill("skills/vendored", "vendored", "Has a submodule");
    repo.git(&["add", "-A"]);
    let gitlink = "1111111111111111111111111111111111111111";
    repo.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{gitlink},skills/vendored/lib"),
    ]);
    // Commit the index as it is (`add -A` would drop the gitlink again).
    repo.git(&["commit", "-q", "-m", "submodule"]);
    let commit = repo.git(&["rev-parse", "HEAD"]);
    repo.push();

    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let checkout = git::checkout(
        &spec(&repo.url(), None),
        &commit,
        work.path(),
        &options(cache.path()),
    )
    .unwrap();
    assert_eq!(checkout.skipped.len(), 1);
    assert_eq!(
        checkout.skipped[0].reason,
        SkipReason::Submodule {
            commit: gitlink.into()
        }
    );
    let err = checkout.skill_dir("skills/vendored").unwrap_err();
    assert_eq!(err.exit(), Exit::Unsafe);
    assert!(err.to_string().contains("skills/vendored/lib"), "{err}");
    assert!(err.to_string().contains("submodule"), "{err}");
}

#[test]
fn hostile_tree_entries_are_never_written() {
    // Build the tree by hand: `git add` would never produce these names.
    let repo = Repo::new("hostile");
    let bare = &repo.bare;
    let blob = |content: &str| {
        let path = bare.join("blob.tmp");
        std::fs::write(&path, content).unwrap();
        git(bare, &["hash-object", "-w", path.to_str().unwrap()])
    };
    let skill = blob("---\nname: hostile\ndescription: Hostile names\n---\n");
    let other = blob("payload");
    let entries = [
        ("100644", "blob", skill.as_str(), ".."),
        ("100644", "blob", other.as_str(), "CON"),
        ("100644", "blob", other.as_str(), "README.md"),
        ("100644", "blob", skill.as_str(), "SKILL.md"),
        ("100644", "blob", other.as_str(), "a\u{1b}[2Jb"),
        ("100644", "blob", other.as_str(), "readme.md"),
    ];
    let mut input = Vec::new();
    for (mode, kind, id, name) in entries {
        input.extend_from_slice(format!("{mode} {kind} {id}\t{name}\0").as_bytes());
    }
    let mut child = std::process::Command::new("git")
        .args(["mktree", "-z"])
        .current_dir(bare)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &input).unwrap();
    let tree = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let commit = git(
        bare,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@t",
            "commit-tree",
            tree.trim(),
            "-m",
            "x",
        ],
    );
    git(bare, &["update-ref", "refs/heads/main", &commit]);

    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let source = spec(&repo.url(), Some("main"));
    assert_eq!(git::resolve(&source, &opts).unwrap().commit, commit);
    let checkout = git::checkout(&source, &commit, work.path(), &opts).unwrap();
    let mut written = walk(&checkout.root);
    written.sort();
    assert_eq!(written, ["README.md", "SKILL.md"]);
    assert!(!work.path().join("CON").exists() && !work.path().join("payload").exists());
    let skipped: Vec<&str> = checkout.skipped.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(skipped, ["..", "CON", "a\\u{1b}[2Jb", "readme.md"]);
    assert!(matches!(
        checkout.skipped[3].reason,
        SkipReason::CaseCollision { .. }
    ));
    let err = checkout.skill_dir("").unwrap_err();
    assert_eq!(err.exit(), Exit::Unsafe);
    assert!(
        !err.to_string().contains('\u{1b}'),
        "control characters escaped: {err}"
    );
}

#[test]
fn a_marketplace_repository_yields_its_plugin_skills() {
    let repo = Repo::new("market");
    repo.write(
        ".claude-plugin/marketplace.json",
        r#"{
          "name": "acme-market",
          "owner": {"name": "Acme"},
          "plugins": [
            {"name": "docs", "source": "./plugins/docs"},
            {"name": "bundle", "source": "./", "skills": ["./extra/one", "./extra/more"]},
            {"name": "elsewhere", "source": {"source": "github", "repo": "acme/other"}},
            {"name": "escape", "source": "../outside"}
          ]
        }"#,
    );
    repo.skill("plugins/docs/skills/writer", "writer", "Writes docs");
    repo.skill("plugins/docs/skills/broken", "Broken Name", "bad name");
    repo.skill("extra/one", "one", "Listed directly");
    repo.skill("extra/more/two", "two", "Listed by its parent folder");
    repo.skill("skills/plain", "plain", "Conventional folder");
    repo.skill(".claude/skills/local", "local", "Claude folder");
    repo.skill(".agents/skills/shared", "shared", "Agents folder");
    repo.write("docs/not-a-skill/SKILL.md", "no frontmatter");
    let commit = repo.commit("market");
    repo.push();

    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let checkout = git::checkout(
        &spec(&repo.url(), None),
        &commit,
        work.path(),
        &options(cache.path()),
    )
    .unwrap();
    let discovery = checkout.discover();
    let found: Vec<(&str, &str, Option<&str>)> = discovery
        .skills
        .iter()
        .map(|s| (s.name.as_str(), s.path.as_str(), s.plugin.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            ("shared", ".agents/skills/shared", None),
            ("local", ".claude/skills/local", None),
            ("two", "extra/more/two", Some("bundle")),
            ("one", "extra/one", Some("bundle")),
            ("writer", "plugins/docs/skills/writer", Some("docs")),
            ("plain", "skills/plain", Some("bundle")),
        ]
    );
    let warnings = discovery.warnings.join("\n");
    assert!(warnings.contains("elsewhere"), "{warnings}");
    assert!(warnings.contains("escape"), "{warnings}");
    assert!(
        warnings.contains("plugins/docs/skills/broken"),
        "{warnings}"
    );
    assert_eq!(discovery.named("writer")[0].description, "Writes docs");
    assert!(checkout.skill_dir("plugins/docs/skills/writer").is_ok());
}

#[test]
fn offline_uses_only_the_cache() {
    let h = history();
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let online = options(cache.path());
    let offline = GitOptions {
        offline: true,
        ..online.clone()
    };
    let url = h.repo.url();
    let source = spec(&url, Some("main"));

    let err = git::resolve(&source, &offline).unwrap_err();
    assert!(matches!(err, GitError::Offline { .. }), "{err}");
    assert_eq!(err.exit(), Exit::Locked);
    assert!(
        !cache.path().join("git").exists(),
        "offline created nothing"
    );

    assert_eq!(git::resolve(&source, &online).unwrap().commit, h.b);
    // The bare repository vanishes: offline still answers from the cache.
    std::fs::rename(&h.repo.bare, h.repo.bare.with_extension("moved")).unwrap();
    assert_eq!(git::resolve(&source, &offline).unwrap().commit, h.b);
    let checkout = git::checkout(&source, &h.b, work.path(), &offline).unwrap();
    assert!(read(&checkout.root, "skills/pdf/SKILL.md").contains("(v2)"));
    let err = git::checkout(&source, &"0".repeat(40), work.path(), &offline).unwrap_err();
    assert_eq!(err.exit(), Exit::Locked, "{err}");
    let dev = GitSpec::new(&url, Some("dev"), None).unwrap();
    let err = git::resolve(&dev, &offline).unwrap_err();
    assert_eq!(err.exit(), Exit::Locked, "dev was never fetched: {err}");
}

#[test]
fn concurrent_runs_share_one_cache_safely() {
    let h = history();
    let cache = tempfile::tempdir().unwrap();
    let opts = options(cache.path());
    let url = h.repo.url();
    let results: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = ["main", "dev", "v1", "main"]
            .into_iter()
            .map(|r| {
                let (opts, url) = (&opts, &url);
                scope.spawn(move || git::resolve(&spec(url, Some(r)), opts).unwrap().commit)
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        results,
        [h.b.clone(), h.c.clone(), h.a.clone(), h.b.clone()]
    );
    let repos: Vec<_> = std::fs::read_dir(cache.path().join("git/repos"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        repos.iter().filter(|n| n.ends_with(".git")).count(),
        1,
        "{repos:?}"
    );
    assert!(!repos.iter().any(|n| n.contains(".tmp-")), "{repos:?}");
}

#[test]
fn smart_http_via_git_http_backend() {
    let h = history();
    let server = serve(git_support::http_backend::router(
        h.repo.bare.parent().unwrap().to_owned(),
    ));
    let url = format!("{}/skills.git", server.base);
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(cache.path());

    let source = spec(&url, Some("v1"));
    let resolved = git::resolve(&source, &opts).unwrap();
    assert_eq!(resolved.commit, h.a);
    assert_eq!(resolved.url, url);
    assert_eq!(
        git::resolve(&spec(&format!("{url}#dev"), None), &opts)
            .unwrap()
            .commit,
        h.c
    );
    let checkout = git::checkout(&source, &h.a, work.path(), &opts).unwrap();
    assert!(read(&checkout.root, "skills/pdf/SKILL.md").contains("(v1)"));
    // A commit only reachable from a branch never fetched before: asked by id.
    let cold = tempfile::tempdir().unwrap();
    let checkout = git::checkout(&source, &h.c, work.path(), &options(cold.path())).unwrap();
    assert!(read(&checkout.root, "skills/pdf/SKILL.md").contains("(dev)"));

    let err =
        git::resolve(&spec(&format!("{}/missing.git", server.base), None), &opts).unwrap_err();
    assert_eq!(err.exit(), Exit::Network, "{err}");
    drop(server);
    let err = git::resolve(&source, &opts).unwrap_err();
    assert_eq!(err.exit(), Exit::Network, "server gone: {err}");
}

trait GitHubOptionsFor {
    fn options(&self, cache: &Path, token: Option<&str>) -> GitOptions;
}

impl GitHubOptionsFor for FakeGitHub {
    fn options(&self, cache: &Path, token: Option<&str>) -> GitOptions {
        GitOptions {
            github: GitHubOptions {
                fast_path: true,
                api_url: self.api.base.clone(),
                archive_url: self.archive.base.clone(),
                git_url: dead_url(),
                clone_fallback: false,
                token_env: "TEST_GITHUB_TOKEN".into(),
                token: token.map(str::to_owned),
                allow_http: false,
            },
            ..options(cache)
        }
    }
}

/// A loopback GitHub with `v1` at A, HEAD at B and `feature/x` at C, whose
/// archive of B is A's: a mirror answering B with A's archive, caught by
/// the commit id `git archive` records in the pax header.
fn github_with_a_lying_mirror(h: &History) -> FakeGitHub {
    let refs = HashMap::from([
        ("v1".to_owned(), h.a.clone()),
        ("HEAD".to_owned(), h.b.clone()),
        ("feature/x".to_owned(), h.c.clone()),
        (h.a.clone(), h.a.clone()),
    ]);
    let archives = HashMap::from([
        (h.a.clone(), h.repo.archive("skills", &h.a)),
        (h.c.clone(), h.repo.archive("skills", &h.c)),
        (h.b.clone(), h.repo.archive("skills", &h.a)),
    ]);
    FakeGitHub::new(refs, archives)
}

/// A tag, the default branch and a branch with a slash resolve to their
/// commits on the canonical URL; an unknown ref is not found.
fn assert_refs_resolve_through_the_api(h: &History, opts: &GitOptions) {
    let resolved = git::resolve(&spec("github:acme/skills/skills/pdf@v1", None), opts).unwrap();
    assert_eq!(resolved.commit, h.a);
    assert_eq!(resolved.url, "https://github.com/acme/skills");
    assert_eq!(
        git::resolve(&spec("github:acme/skills", None), opts)
            .unwrap()
            .commit,
        h.b
    );
    assert_eq!(
        git::resolve(&spec("github:acme/skills@feature/x", None), opts)
            .unwrap()
            .commit,
        h.c
    );
    let err = git::resolve(&spec("github:acme/skills@nope", None), opts).unwrap_err();
    assert_eq!(err.exit(), Exit::NotFound, "{err}");
}

#[test]
fn github_fast_path_resolves_downloads_and_keeps_the_token_home() {
    let h = history();
    let gh = github_with_a_lying_mirror(&h);
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = gh.options(cache.path(), Some("s3cret"));

    let source = spec("github:acme/skills/skills/pdf@v1", None);
    assert_refs_resolve_through_the_api(&h, &opts);

    let checkout = git::checkout(&source, &h.a, work.path(), &opts).unwrap();
    assert_eq!(checkout.commit, h.a);
    assert!(
        read(&checkout.root, "SKILL.md").contains("(v1)"),
        "wrapper and subpath stripped"
    );
    assert_eq!(walk(&checkout.root), ["SKILL.md"]);
    assert!(
        !cache.path().join("git").exists(),
        "the fast path cloned nothing"
    );

    // Token: sent to the API and archive origins, on every request there.
    let log = gh.take_log();
    assert!(log.len() >= 5, "{log:?}");
    for hit in &log {
        assert_eq!(hit.auth.as_deref(), Some("Bearer s3cret"), "{hit:?}");
    }

    // A redirect to another origin: followed, without the token.
    let redirected = spec("github:redirected/skills", None);
    let elsewhere = git::checkout(&redirected, &h.c, work.path(), &opts).unwrap();
    assert!(read(&elsewhere.root, "skills/pdf/SKILL.md").contains("(dev)"));
    let log = gh.take_log();
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[0].origin, "archive");
    assert_eq!(log[0].path, format!("/redirected/skills/tar.gz/{}", h.c));
    assert_eq!(log[0].auth.as_deref(), Some("Bearer s3cret"));
    assert_eq!(log[1].origin, "elsewhere");
    assert_eq!(log[1].auth, None, "the token left its origins");

    // No token configured: no Authorization header at all.
    let anonymous = gh.options(cache.path(), None);
    git::resolve(&source, &anonymous).unwrap();
    let log = gh.take_log();
    assert_eq!(log.len(), 1);
    assert!(log.iter().all(|hit| hit.auth.is_none()), "{log:?}");

    // The archive of another commit is an integrity failure.
    let err =
        git::checkout(&spec("github:acme/skills", None), &h.b, work.path(), &opts).unwrap_err();
    assert!(matches!(err, GitError::CommitMismatch { .. }), "{err}");
    assert_eq!(err.exit(), Exit::Integrity);
    // A commit the host has no archive for.
    let err = git::checkout(&source, &"e".repeat(40), work.path(), &opts).unwrap_err();
    assert_eq!(err.exit(), Exit::NotFound, "{err}");
    drop((checkout, elsewhere));
    assert_eq!(
        std::fs::read_dir(work.path()).unwrap().count(),
        0,
        "no trace left"
    );
}

#[test]
fn github_fast_path_refuses_links_and_matches_the_git_tree_digest() {
    let repo = Repo::new("skills");
    repo.skill("skills/pdf", "pdf", "Fill PDF forms");
    repo.write("skills/pdf/scripts/fill.py", "print('fill')\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/passwd", repo.work.join("skills/pdf/secrets")).unwrap();
    repo.executable("skills/pdf/scripts/fill.py");
    repo.skill("skills/clean", "clean", "No links");
    let commit = repo.commit("skills");
    repo.push();
    let gh = FakeGitHub::new(
        HashMap::from([("HEAD".to_owned(), commit.clone())]),
        HashMap::from([(commit.clone(), repo.archive("skills", &commit))]),
    );
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let source = spec("github:acme/skills", None);
    let via_archive = git::checkout(
        &source,
        &commit,
        work.path(),
        &gh.options(cache.path(), None),
    )
    .unwrap();
    walk(&via_archive.root);
    #[cfg(unix)]
    {
        let err = via_archive.skill_dir("skills/pdf").unwrap_err();
        assert_eq!(err.exit(), Exit::Unsafe);
        assert!(err.to_string().contains("skills/pdf/secrets"), "{err}");
    }

    // The same commit through git gives the same tree digest.
    let via_git = git::checkout(
        &spec(&repo.url(), None),
        &commit,
        work.path(),
        &options(cache.path()),
    )
    .unwrap();
    let digest = |c: &git::Checkout| {
        let dir = c.skill_dir("skills/clean").unwrap();
        skillpm::digest::hash_tree(&dir).unwrap()
    };
    assert_eq!(digest(&via_archive).digest, digest(&via_git).digest);
    let pdf = |root: &Path| {
        let tree = skillpm::digest::hash_tree(&root.join("skills/pdf/scripts")).unwrap();
        (tree.digest, tree.executables())
    };
    assert_eq!(pdf(&via_archive.root), pdf(&via_git.root));
    assert_eq!(pdf(&via_git.root).1, ["fill.py"]);
}

/// A tar.gz written header by header, so names no honest tool writes
/// (`..`, absolute paths) can be tested.
fn raw_tar_gz(entries: &[(&str, tar::EntryType, &[u8], &str)]) -> Vec<u8> {
    let mut tar = Vec::new();
    for (name, kind, data, link) in entries {
        let mut header = tar::Header::new_old();
        header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        header.as_old_mut().linkname[..link.len()].copy_from_slice(link.as_bytes());
        header.set_entry_type(*kind);
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.extend_from_slice(header.as_bytes());
        tar.extend_from_slice(data);
        tar.resize(tar.len().div_ceil(512) * 512, 0);
    }
    tar.resize(tar.len() + 1024, 0);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &tar).unwrap();
    gz.finish().unwrap()
}

#[test]
fn hostile_github_archives_are_refused_or_contained() {
    use tar::EntryType::{Directory, Link, Regular, Symlink};
    let skill: &[u8] = b"---\nname: pdf\ndescription: PDF\n---\n";
    let commits = [
        "1".repeat(40),
        "2".repeat(40),
        "3".repeat(40),
        "4".repeat(40),
    ];
    let bomb = vec![0u8; 4 << 20];
    let archives = HashMap::from([
        (
            commits[0].clone(),
            raw_tar_gz(&[
                ("r-1/", Directory, b"", ""),
                ("r-1/SKILL.md", Regular, skill, ""),
                ("r-1/../escape.txt", Regular, b"out", ""),
                ("r-1//abs.txt", Regular, b"abs", ""),
                ("r-1/hard", Link, b"", "r-1/SKILL.md"),
                ("r-1/soft", Symlink, b"", "/etc/passwd"),
            ]),
        ),
        (
            commits[1].clone(),
            raw_tar_gz(&[
                ("a/SKILL.md", Regular, skill, ""),
                ("b/SKILL.md", Regular, skill, ""),
            ]),
        ),
        (commits[2].clone(), b"\x1f\x8b\x08\x00garbage".to_vec()),
        (
            commits[3].clone(),
            raw_tar_gz(&[
                ("r-4/SKILL.md", Regular, skill, ""),
                ("r-4/zeros", Regular, &bomb, ""),
            ]),
        ),
    ]);
    let gh = FakeGitHub::new(HashMap::new(), archives);
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = gh.options(cache.path(), None);
    let source = spec("github:acme/r", None);

    let contained = git::checkout(&source, &commits[0], work.path(), &opts).unwrap();
    assert_eq!(walk(&contained.root), ["SKILL.md"]);
    assert!(!work.path().join("escape.txt").exists());
    let skipped: Vec<&str> = contained.skipped.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(skipped, ["../escape.txt", "/abs.txt", "hard", "soft"]);
    assert_eq!(contained.skill_dir("").unwrap_err().exit(), Exit::Unsafe);
    drop(contained);

    let err = git::checkout(&source, &commits[1], work.path(), &opts).unwrap_err();
    assert!(
        err.to_string().contains("more than one top-level folder"),
        "{err}"
    );
    assert_eq!(err.exit(), Exit::Unsafe);
    let err = git::checkout(&source, &commits[2], work.path(), &opts).unwrap_err();
    assert!(matches!(err, GitError::BadArchive { .. }), "{err}");
    let small = GitOptions {
        limits: CheckoutLimits {
            max_total_bytes: 1 << 20,
            ..CheckoutLimits::default()
        },
        ..opts.clone()
    };
    let err = git::checkout(&source, &commits[3], work.path(), &small).unwrap_err();
    assert!(matches!(err, GitError::TooLarge { .. }), "{err}");
    assert_eq!(
        std::fs::read_dir(work.path()).unwrap().count(),
        0,
        "no trace left"
    );
}

/// A loopback URL nothing listens on. On 127.0.0.2, where no test serves:
/// this test runs in the test process, whose one shared client remembers
/// the origin as down for the rest of the process, and a port released on
/// 127.0.0.1 is soon another test's server (it then failed as "unreachable
/// in this run").
fn dead_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://127.0.0.2:{}", listener.local_addr().unwrap().port())
}

#[test]
fn github_falls_back_to_cloning_only_when_allowed() {
    let h = history();
    let hosted = tempfile::tempdir().unwrap();
    std::fs::create_dir(hosted.path().join("acme")).unwrap();
    git(
        hosted.path(),
        &[
            "clone",
            "-q",
            "--bare",
            h.repo.bare.to_str().unwrap(),
            "acme/skills.git",
        ],
    );
    let git_host = serve(git_support::http_backend::router(hosted.path().to_owned()));
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let mut opts = options(cache.path());
    opts.github = GitHubOptions {
        fast_path: true,
        api_url: dead_url(),
        archive_url: dead_url(),
        git_url: git_host.base.clone(),
        clone_fallback: true,
        token_env: "TEST_GITHUB_TOKEN".into(),
        token: Some("s3cret".into()),
        allow_http: false,
    };
    let source = spec("github:acme/skills@v1", None);

    let resolved = git::resolve(&source, &opts).unwrap();
    assert_eq!(resolved.commit, h.a);
    assert_eq!(
        resolved.url, "https://github.com/acme/skills",
        "the lock keeps GitHub's URL"
    );
    assert_eq!(resolved.warnings.len(), 1, "{:?}", resolved.warnings);
    assert!(
        resolved.warnings[0].contains("falling back to cloning"),
        "{:?}",
        resolved.warnings
    );
    let checkout = git::checkout(&source, &h.a, work.path(), &opts).unwrap();
    assert!(read(&checkout.root, "skills/pdf/SKILL.md").contains("(v1)"));
    assert_eq!(checkout.warnings.len(), 1, "{:?}", checkout.warnings);

    opts.github.clone_fallback = false;
    let err = git::resolve(&source, &opts).unwrap_err();
    assert_eq!(err.exit(), Exit::Network, "{err}");
}

#[test]
fn lock_specs_round_trip() {
    let spec = GitSpec::from_lock("https://github.com/acme/skills", Some("skills/pdf")).unwrap();
    assert_eq!(spec.to_string(), "github:acme/skills/skills/pdf");
    let spec = GitSpec::from_lock("file:///gone/repo.git", None).unwrap();
    assert_eq!(spec.url(), "file:///gone/repo.git");
    assert!(GitSpec::from_lock("https://x/y.git", Some("../up")).is_err());
}
