//! Git sources through the real `skillpm` binary: `add` by tag, branch and
//! commit; the lock pinning the full commit beside the tree digest; a ref
//! moving upstream (`install --locked` keeps the pinned commit, `outdated`
//! sees the move, `update` needs approval and shows the diff); a symlink in
//! a skill refused; a Claude Code marketplace; `search` over a repository;
//! smart HTTP through `git http-backend`; and the GitHub fast path against
//! a loopback API and archive host, with the token kept to those origins.
//!
//! Every repository is built here with the `git` CLI in a temp folder; every
//! server listens on 127.0.0.1.

use crate::git_support;
use crate::support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use git_support::github::FakeGitHub;
use git_support::{Repo, git, serve};
use support::cli::{Sandbox, run};
use support::{files_under, succeed};

/// main: A (pdf v1, with a script) → B (pdf v2, a new file); tag `v1`
/// (annotated) at A. `other` sits beside `pdf` in both.
struct History {
    repo: Repo,
    a: String,
    b: String,
}

fn history() -> History {
    let repo = Repo::new("skills");
    repo.skill("skills/pdf", "pdf", "Fill PDF forms")
        .write("skills/pdf/scripts/fill.sh", "#!/bin/sh\necho v1\n")
        .executable("skills/pdf/scripts/fill.sh")
        .skill("skills/other", "other", "Another skill");
    let a = repo.commit("v1");
    repo.git(&["tag", "-a", "v1", "-m", "release 1"]);
    repo.write(
        "skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Fill PDF forms, now with tables\n---\n# pdf v2\n",
    )
    .write("skills/pdf/tables.md", "tables\n");
    let b = repo.commit("v2");
    repo.push();
    History { repo, a, b }
}

/// The exact bytes of `rel` at `commit`.
fn blob(repo: &Repo, commit: &str, rel: &str) -> Vec<u8> {
    let out = succeed(
        std::process::Command::new("git")
            .args(["cat-file", "blob", &format!("{commit}:{rel}")])
            .current_dir(&repo.work),
    );
    out.stdout
}

/// A new project folder `name` in the sandbox, initialised.
fn project(sb: &Sandbox, name: &str) -> PathBuf {
    let dir = sb.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    sb.cmd_in(&dir).arg("init").assert().success();
    dir
}

fn lock_entry(project: &Path, name: &str) -> toml::Table {
    let text = std::fs::read_to_string(project.join("skills.lock")).unwrap();
    let lock: toml::Table = toml::from_str(&text).unwrap();
    lock["skill"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_table().unwrap())
        .find(|s| s["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("`{name}` not in the lock:\n{text}"))
        .clone()
}

fn str_of<'a>(table: &'a toml::Table, key: &str) -> &'a str {
    table
        .get(key)
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("no `{key}` in {table:?}"))
}

fn source_url(project: &Path) -> String {
    let text = std::fs::read_to_string(project.join("skills.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&text).unwrap();
    manifest["source"][0]["url"].as_str().unwrap().to_owned()
}

/// The installed skill folder (the link's target).
fn installed(project: &Path, name: &str) -> PathBuf {
    project
        .join(".agents/skills")
        .join(name)
        .canonicalize()
        .unwrap_or_else(|e| panic!("`{name}` is not linked in {}: {e}", project.display()))
}

/// Asserts the lock entry pins `commit` and that its `tree` is the digest of
/// exactly what is installed.
fn assert_pinned(project: &Path, name: &str, url: &str, commit: &str, subpath: &str) {
    let entry = lock_entry(project, name);
    assert_eq!(str_of(&entry, "format"), "git", "{entry:?}");
    assert_eq!(str_of(&entry, "url"), url);
    assert_eq!(str_of(&entry, "commit"), commit, "the full SHA is pinned");
    assert_eq!(str_of(&entry, "path"), subpath);
    let tree = skillpm::placement::link::hash_placed(&installed(project, name)).unwrap();
    assert_eq!(str_of(&entry, "tree"), tree.digest.to_string());
    assert_eq!(str_of(&entry, "approved"), tree.digest.to_string());
}

#[test]
fn add_by_tag_branch_and_commit_pins_the_full_sha() {
    let h = history();
    let url = h.repo.url();
    let sb = Sandbox::new();
    let a = h.a.as_str();
    for (dir, reference, commit) in [
        ("by-tag", "v1", a),
        ("by-branch", "main", h.b.as_str()),
        ("by-sha", a, a),
        ("by-short-sha", &a[..10], a),
    ] {
        let p = project(&sb, dir);
        let (code, stdout, stderr) = run(sb
            .cmd_in(&p)
            .args(["add", &url, "pdf", "--ref", reference, "--yes"]));
        assert_eq!(code, 0, "{dir}: {stderr}");
        assert!(stdout.contains("Added source `skills`"), "{stdout}");
        assert!(
            !stderr.contains("warning"),
            "{dir}: nothing to warn about: {stderr}"
        );
        assert_eq!(source_url(&p), format!("{url}#{reference}"));
        assert_pinned(&p, "pdf", &url, commit, "skills/pdf");
        assert_eq!(
            std::fs::read(installed(&p, "pdf").join("SKILL.md")).unwrap(),
            blob(&h.repo, commit, "skills/pdf/SKILL.md"),
            "{dir}"
        );
        assert!(
            !p.join(".agents/skills/other").exists(),
            "only the named skill"
        );
    }
    // The script keeps its executable bit and is listed in the lock.
    let p = sb.path("by-tag");
    let entry = lock_entry(&p, "pdf");
    assert_eq!(
        entry["executables"].as_array().unwrap()[0].as_str(),
        Some("scripts/fill.sh")
    );

    // Refusals leave the project as it was.
    let p = project(&sb, "refused");
    let before = std::fs::read(p.join("skills.toml")).unwrap();
    let (code, _, stderr) = run(sb
        .cmd_in(&p)
        .args(["add", &url, "pdf", "--ref", "nope", "--yes"]));
    assert_eq!(code, 8, "unknown ref: {stderr}");
    assert!(stderr.contains("`nope`"), "{stderr}");
    let (code, _, stderr) =
        run(sb
            .cmd_in(&p)
            .args(["add", &format!("{url}#v1"), "pdf", "--ref", "main", "--yes"]));
    assert_eq!(code, 2, "two refs: {stderr}");
    let (code, _, stderr) = run(sb
        .cmd_in(&p)
        .args(["add", &url, "missing", "--ref", "v1", "--yes"]));
    assert_eq!(code, 8, "unknown skill: {stderr}");
    assert!(stderr.contains("offers: other, pdf"), "{stderr}");
    assert_eq!(std::fs::read(p.join("skills.toml")).unwrap(), before);
    assert!(!p.join("skills.lock").exists());
    assert!(!p.join(".agents").exists());
}

/// The team commits the project; a teammate clones it. Returns the clone.
fn commit_and_clone(sb: &Sandbox) -> PathBuf {
    git(&sb.project, &["init", "-q"]);
    git(&sb.project, &["add", "skills.toml", "skills.lock"]);
    git(&sb.project, &["commit", "-q", "-m", "skills"]);
    let clone = sb.path("clone");
    git(
        &sb.path(""),
        &[
            "clone",
            "-q",
            sb.project.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    clone
}

/// `install --locked` in the clone, with an empty cache: the pinned commit
/// `pinned`, the lock as it was; then `--frozen` needs no network (the
/// repository could be gone).
fn assert_clone_installs_the_pinned_commit(sb: &Sandbox, clone: &Path, repo: &Repo, pinned: &str) {
    let lock_before = std::fs::read(clone.join("skills.lock")).unwrap();
    let fresh_cache = sb.path("fresh-cache");
    let (code, stdout, stderr) = run(sb
        .cmd_in(clone)
        .env("SKILLPM_CACHE_DIR", &fresh_cache)
        .args(["install", "--locked"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1 skill installed (1 fetched"), "{stdout}");
    assert_eq!(
        std::fs::read(installed(clone, "pdf").join("SKILL.md")).unwrap(),
        blob(repo, pinned, "skills/pdf/SKILL.md")
    );
    assert!(!installed(clone, "pdf").join("new.md").exists());
    assert_eq!(
        std::fs::read(clone.join("skills.lock")).unwrap(),
        lock_before
    );
    // Now cached: `--frozen` needs no network (the repository could be gone).
    let (code, _, stderr) = run(sb
        .cmd_in(clone)
        .env("SKILLPM_CACHE_DIR", &fresh_cache)
        .args(["install", "--frozen"]));
    assert_eq!(code, 0, "{stderr}");
}

/// `outdated` sees `pdf` moved from `a` to `b`, in JSON and in words.
fn assert_outdated_sees_the_move(sb: &Sandbox, a: &str, b: &str) {
    let (code, stdout, stderr) = run(sb.cmd().args(["--json", "outdated"]));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let row = &report["skills"][0];
    assert_eq!(row["name"], "pdf");
    assert_eq!(row["outdated"], true, "{row}");
    assert_eq!(row["locked"], a);
    assert_eq!(row["latest"], b);
    let (_, stdout, _) = run(sb.cmd().arg("outdated"));
    assert!(
        stdout.contains(&format!("pdf  {} -> {}", &a[..12], &b[..12])),
        "{stdout}"
    );
}

/// A repository with one skill `pdf` at commit `a`, added to a new
/// project with `extra` arguments: (repository, `a`, URL, sandbox).
fn pdf_added(extra: &[&str]) -> (Repo, String, String, Sandbox) {
    let repo = Repo::new("skills");
    repo.skill("skills/pdf", "pdf", "Fill PDF forms");
    let a = repo.commit("v1");
    repo.push();
    let url = repo.url();
    let sb = Sandbox::new();
    sb.init();
    let (code, _, stderr) = run(sb.cmd().args(["add", &url, "pdf", "--yes"]).args(extra));
    assert_eq!(code, 0, "{stderr}");
    assert_pinned(&sb.project, "pdf", &url, &a, "skills/pdf");
    (repo, a, url, sb)
}

#[test]
fn a_moved_ref_keeps_locked_installs_pinned_until_update() {
    let (repo, a, url, sb) = pdf_added(&["--ref", "main"]);
    let (_, stdout, _) = run(sb.cmd().arg("list"));
    assert!(stdout.contains(&format!("pdf   @{}", &a[..9])), "{stdout}");

    let clone = commit_and_clone(&sb);

    // Upstream moves main.
    repo.write(
        "skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Fill PDF forms v2\n---\n# v2\n",
    )
    .write("skills/pdf/new.md", "new\n");
    let b = repo.commit("v2");
    repo.push();

    assert_clone_installs_the_pinned_commit(&sb, &clone, &repo, &a);
    assert_outdated_sees_the_move(&sb, &a, &b);

    // `update` without approval: exit 7, nothing changes.
    let lock_before = std::fs::read(sb.project.join("skills.lock")).unwrap();
    let (code, _, stderr) = run(sb.cmd().arg("update"));
    assert_eq!(code, 7, "{stderr}");
    assert!(stderr.contains("--yes"), "{stderr}");
    assert_eq!(
        std::fs::read(sb.project.join("skills.lock")).unwrap(),
        lock_before
    );
    assert_eq!(
        std::fs::read(installed(&sb.project, "pdf").join("SKILL.md")).unwrap(),
        blob(&repo, &a, "skills/pdf/SKILL.md")
    );

    // `update --yes`: shows what changed and moves to the new commit.
    let (code, stdout, stderr) = run(sb.cmd().args(["update", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("pdf updated {} -> {}", &a[..12], &b[..12])),
        "{stdout}"
    );
    assert!(stderr.contains(&format!("git commit {b}")), "{stderr}");
    assert!(stderr.contains("+ new.md"), "{stderr}");
    assert!(stderr.contains("~ SKILL.md"), "{stderr}");
    assert_pinned(&sb.project, "pdf", &url, &b, "skills/pdf");
    assert_eq!(
        std::fs::read(installed(&sb.project, "pdf").join("SKILL.md")).unwrap(),
        blob(&repo, &b, "skills/pdf/SKILL.md")
    );
    let (_, stdout, _) = run(sb.cmd().arg("outdated"));
    assert!(stdout.contains("All 1 skills are up to date"), "{stdout}");
}

#[test]
fn a_locked_install_refuses_anything_but_the_pinned_commit_and_tree() {
    let h = history();
    let url = h.repo.url();
    let sb = Sandbox::new();
    sb.init();
    let (code, _, stderr) = run(sb.cmd().args(["add", &url, "pdf", "--ref", "v1", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    let entry = lock_entry(&sb.project, "pdf");
    let tree = str_of(&entry, "tree").to_owned();
    // A teammate's checkout of the project, with its own empty cache each time.
    let teammate = |name: &str, lock: &str| {
        let dir = sb.path(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(sb.project.join("skills.toml"), dir.join("skills.toml")).unwrap();
        std::fs::write(dir.join("skills.lock"), lock).unwrap();
        let mut cmd = sb.cmd_in(&dir);
        cmd.env("SKILLPM_CACHE_DIR", sb.path(&format!("{name}-cache")));
        (dir, cmd)
    };

    // The lock's tree is not what that commit holds: integrity failure.
    let forged = format!("sha256:{}", "0".repeat(64));
    let (dir, mut cmd) = teammate("forged", &lock.replace(&tree, &forged));
    let (code, _, stderr) = run(cmd.args(["install", "--locked"]));
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(&forged) && stderr.contains(&tree),
        "{stderr}"
    );
    assert!(!dir.join(".agents").exists(), "nothing linked");

    // Offline with nothing cached: exit 6, no socket needed to say so.
    let (dir, mut cmd) = teammate("frozen", &lock);
    let (code, _, stderr) = run(cmd.args(["install", "--frozen"]));
    assert_eq!(code, 6, "{stderr}");
    assert!(!dir.join(".agents").exists());

    // The pinned commit rewritten away upstream (tag moved, history pruned).
    h.repo.git(&["tag", "-d", "v1"]);
    h.repo.git(&["checkout", "-q", "--orphan", "rewritten"]);
    h.repo.commit("rewritten");
    h.repo.git(&["branch", "-M", "main"]);
    h.repo.git(&["push", "-q", "--force", "origin", "main"]);
    git(&h.repo.bare, &["tag", "-d", "v1"]);
    git(&h.repo.bare, &["reflog", "expire", "--expire=now", "--all"]);
    git(&h.repo.bare, &["gc", "-q", "--prune=now"]);
    let (dir, mut cmd) = teammate("rewritten", &lock);
    let (code, _, stderr) = run(cmd.args(["install", "--locked"]));
    assert_eq!(code, 8, "{stderr}");
    assert!(stderr.contains(&h.a), "names the commit: {stderr}");
    assert!(stderr.contains("skillpm update"), "{stderr}");
    assert!(!dir.join(".agents").exists());
    // The original project still has it in its store: nothing to fetch.
    let (code, _, stderr) = run(sb.cmd().args(["install", "--locked"]));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_symlink_inside_a_skill_is_refused_by_name_and_nothing_is_written() {
    let repo = Repo::new("skills");
    repo.skill("skills/evil", "evil", "Reads outside its folder")
        .skill("skills/fine", "fine", "Harmless");
    std::os::unix::fs::symlink("../../../outside.txt", repo.work.join("skills/evil/secret"))
        .unwrap();
    repo.write("outside.txt", "not part of the skill\n");
    repo.commit("link");
    repo.push();
    let url = repo.url();
    let sb = Sandbox::new();
    sb.init();
    let before: Vec<(PathBuf, Vec<u8>)> = files_under(&sb.project)
        .into_iter()
        .map(|f| (f.clone(), std::fs::read(sb.project.join(&f)).unwrap()))
        .collect();

    let (code, stdout, stderr) = run(sb.cmd().args(["add", &url, "evil", "--yes"]));
    assert_eq!(code, 5, "{stdout}{stderr}");
    assert!(stderr.contains("skills/evil/secret"), "{stderr}");
    assert!(stderr.contains("link"), "{stderr}");
    let after: Vec<(PathBuf, Vec<u8>)> = files_under(&sb.project)
        .into_iter()
        .map(|f| (f.clone(), std::fs::read(sb.project.join(&f)).unwrap()))
        .collect();
    assert_eq!(before, after, "the project is untouched");
    assert!(!sb.project.join(".agents").exists());

    // The other skills of that repository are fine.
    let (code, _, stderr) = run(sb.cmd().args(["add", &url, "fine", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(installed(&sb.project, "fine").join("SKILL.md").is_file());
}

#[test]
fn a_marketplace_repository_installs_its_plugin_skills() {
    let repo = Repo::new("market");
    repo.write(
        ".claude-plugin/marketplace.json",
        r#"{
  "name": "acme-market",
  "owner": {"name": "Acme"},
  "plugins": [
    {"name": "docs", "source": "./plugins/docs", "description": "Document skills"},
    {"name": "remote", "source": {"source": "github", "repo": "acme/remote"}}
  ]
}"#,
    )
    .write(
        "plugins/docs/.claude-plugin/plugin.json",
        r#"{"name": "docs"}"#,
    )
    .skill("plugins/docs/skills/pdf", "pdf", "Fill PDF forms")
    .skill("plugins/docs/skills/xlsx", "xlsx", "Edit spreadsheets");
    let commit = repo.commit("market");
    repo.push();
    let url = repo.url();
    let sb = Sandbox::new();
    sb.init();

    let (code, stdout, stderr) = run(sb.cmd().args(["add", &url, "--all", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Added source `market`"), "{stdout}");
    assert!(
        stderr.contains("plugin `remote` is hosted elsewhere"),
        "{stderr}"
    );
    assert_pinned(&sb.project, "pdf", &url, &commit, "plugins/docs/skills/pdf");
    assert_pinned(
        &sb.project,
        "xlsx",
        &url,
        &commit,
        "plugins/docs/skills/xlsx",
    );
    assert!(sb.project.join(".claude/skills/xlsx/SKILL.md").is_file());

    // The same skills, listed by search.
    let (code, stdout, stderr) = run(sb.cmd().args(["--json", "search", "--source", &url]));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let hits: Vec<(&str, &str)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["name"].as_str().unwrap(), h["subpath"].as_str().unwrap()))
        .collect();
    assert_eq!(
        hits,
        [
            ("pdf", "plugins/docs/skills/pdf"),
            ("xlsx", "plugins/docs/skills/xlsx")
        ]
    );
}

#[test]
fn search_lists_a_git_repository_like_an_index() {
    let h = history();
    let url = h.repo.url();
    let sb = Sandbox::new();

    // Ad hoc, outside any project.
    let (code, stdout, stderr) =
        run(sb
            .cmd_in(&sb.home)
            .args(["--json", "search", "--source", &format!("{url}#v1")]));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{report}");
    let pdf = results.iter().find(|r| r["name"] == "pdf").unwrap();
    assert_eq!(pdf["description"], "Fill PDF forms");
    assert_eq!(pdf["format"], "git");
    assert_eq!(pdf["commit"], h.a.as_str(), "v1 resolved");
    assert_eq!(pdf["subpath"], "skills/pdf");
    assert_eq!(pdf["url"], url.as_str());
    assert_eq!(pdf["digest"], serde_json::Value::Null);

    // A query filters; human output names the commit.
    let (code, stdout, stderr) = run(sb
        .cmd_in(&sb.home)
        .args(["search", "tables", "--source", &url]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("pdf  ["), "{stdout}");
    assert!(stdout.contains(&h.b[..12]), "main resolved: {stdout}");
    assert!(stdout.contains("now with tables"), "{stdout}");
    assert!(!stdout.contains("other"), "{stdout}");

    // A declared git source is searched with the others.
    sb.init();
    let (code, _, stderr) = run(sb.cmd().args(["source", "add", "team", &url]));
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = run(sb.cmd().args(["--json", "search", "other"]));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["results"][0]["name"], "other");
    assert_eq!(report["results"][0]["source"], "team");
    assert_eq!(report["failures"].as_array().unwrap().len(), 0);

    // A repository that is not there: exit 4 when it is the only source.
    let (code, _, stderr) =
        run(sb
            .cmd()
            .args(["search", "--source", "http://127.0.0.1:9/gone.git"]));
    assert_eq!(code, 4, "{stderr}");
}

#[test]
fn smart_http_through_git_http_backend() {
    let h = history();
    let server = serve(git_support::http_backend::router(
        h.repo.bare.parent().unwrap().to_owned(),
    ));
    let url = format!("{}/skills.git", server.base);
    let sb = Sandbox::new();
    sb.init();
    let (code, _, stderr) = run(sb.cmd().args(["add", &url, "pdf", "--ref", "v1", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(source_url(&sb.project), format!("{url}#v1"));
    assert_pinned(&sb.project, "pdf", &url, &h.a, "skills/pdf");
    assert_eq!(
        std::fs::read(installed(&sb.project, "pdf").join("scripts/fill.sh")).unwrap(),
        blob(&h.repo, &h.a, "skills/pdf/scripts/fill.sh")
    );
}

#[test]
fn a_local_work_tree_is_a_git_source() {
    let h = history();
    let sb = Sandbox::new();
    sb.init();
    let path = h.repo.work.canonicalize().unwrap();
    let (code, _, stderr) =
        run(sb
            .cmd()
            .args(["add", path.to_str().unwrap(), "pdf", "--ref", "v1", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(source_url(&sb.project), format!("{}#v1", path.display()));
    let url = url::Url::from_file_path(&path).unwrap().to_string();
    assert_pinned(&sb.project, "pdf", &url, &h.a, "skills/pdf");
    let (code, stdout, _) = run(sb.cmd().args(["--json", "outdated"]));
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["skills"][0]["outdated"], false, "v1 has not moved");
}

// ---------------------------------------------------------------------------
// The GitHub fast path, against a loopback API host and archive host.

/// A loopback GitHub serving the history: `main` at B, `v1` at A.
fn fake_github(h: &History) -> FakeGitHub {
    FakeGitHub::new(
        HashMap::from([
            ("main".to_owned(), h.b.clone()),
            ("v1".to_owned(), h.a.clone()),
        ]),
        HashMap::from([
            (h.a.clone(), h.repo.archive("skills", &h.a)),
            (h.b.clone(), h.repo.archive("skills", &h.b)),
        ]),
    )
}

/// Asserts the requests GitHub saw since the last call, as origin, path
/// and Authorization header.
fn assert_seen(gh: &FakeGitHub, want: &[(&str, &str, Option<&str>)]) {
    let log = gh.take_log();
    let seen: Vec<(&str, &str, Option<&str>)> = log
        .iter()
        .map(|hit| (hit.origin, hit.path.as_str(), hit.auth.as_deref()))
        .collect();
    assert_eq!(seen, want);
}

const BEARER: Option<&str> = Some("Bearer s3cret");

/// `add github:…@main` of two skills: pinned to B from one API call and
/// one archive, both with the token, and nothing cloned.
fn assert_adds_from_one_api_call_and_archive(sb: &Sandbox, gh: &FakeGitHub, h: &History) {
    let github = "https://github.com/acme/skills";
    let (code, stdout, stderr) = run(sb.cmd().args([
        "add",
        "github:acme/skills/skills@main",
        "pdf",
        "other",
        "--yes",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("Added source `acme-skills-skills`"),
        "{stdout}"
    );
    assert_eq!(source_url(&sb.project), "github:acme/skills/skills@main");
    assert_pinned(&sb.project, "pdf", github, &h.b, "skills/pdf");
    assert_pinned(&sb.project, "other", github, &h.b, "skills/other");
    assert_eq!(
        std::fs::read(installed(&sb.project, "pdf").join("tables.md")).unwrap(),
        blob(&h.repo, &h.b, "skills/pdf/tables.md")
    );
    assert!(!sb.cache.join("git").exists(), "nothing was cloned");
    let tarball = format!("/acme/skills/tar.gz/{}", h.b);
    assert_seen(
        gh,
        &[
            ("api", "/repos/acme/skills/commits/main", BEARER),
            ("archive", tarball.as_str(), BEARER),
        ],
    );
}

/// A teammate's fresh clone: one API call reads the declared ref (the
/// pinned commit must be on it), then the pinned commit's archive, once
/// for both skills; the archive host redirects elsewhere, and the token
/// stays behind.
fn assert_clone_fetches_one_archive_and_the_token_stays(
    sb: &Sandbox,
    gh: &FakeGitHub,
    h: &History,
) {
    let github = "https://github.com/acme/skills";
    let clone = sb.path("clone");
    std::fs::create_dir_all(&clone).unwrap();
    for file in ["skills.toml", "skills.lock"] {
        std::fs::copy(sb.project.join(file), clone.join(file)).unwrap();
    }
    gh.redirect_all(true);
    let (code, _, stderr) = run(sb
        .cmd_in(&clone)
        .env("SKILLPM_CACHE_DIR", sb.path("fresh-cache"))
        .args(["install", "--locked"]));
    assert_eq!(code, 0, "{stderr}");
    assert_pinned(&clone, "pdf", github, &h.b, "skills/pdf");
    assert_pinned(&clone, "other", github, &h.b, "skills/other");
    let tarball = format!("/acme/skills/tar.gz/{}", h.b);
    // The declared ref (`main`) is read to prove the pinned commit is on it
    // (docs/threat-model.md), then the archive is fetched.
    assert_seen(
        gh,
        &[
            ("api", "/repos/acme/skills/commits/main", BEARER),
            ("archive", tarball.as_str(), BEARER),
            ("elsewhere", tarball.as_str(), None),
        ],
    );
    gh.redirect_all(false);
}

#[test]
fn github_fast_path_adds_and_installs_with_the_token_kept_home() {
    let h = history();
    let gh = fake_github(&h);
    let mut sb = Sandbox::new();
    gh.configure(&mut sb);
    sb.init();
    let github = "https://github.com/acme/skills";
    assert_adds_from_one_api_call_and_archive(&sb, &gh, &h);
    assert_clone_fetches_one_archive_and_the_token_stays(&sb, &gh, &h);

    // The folder URL a browser shows: ref and subpath from `tree/<ref>/…`;
    // it names one skill, so no name is needed.
    let p = project(&sb, "from-url");
    let (code, _, stderr) = run(sb.cmd_in(&p).args([
        "add",
        "https://github.com/acme/skills/tree/v1/skills/pdf",
        "--yes",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_pinned(&p, "pdf", github, &h.a, "skills/pdf");
    assert_eq!(
        std::fs::read(installed(&p, "pdf").join("SKILL.md")).unwrap(),
        blob(&h.repo, &h.a, "skills/pdf/SKILL.md")
    );

    // A repository the API does not know: exit 8, nothing written.
    let p = project(&sb, "unknown");
    let (code, _, stderr) = run(sb
        .cmd_in(&p)
        .args(["add", "github:acme/nope", "pdf", "--yes"]));
    assert_eq!(code, 8, "{stderr}");
    assert!(!p.join("skills.lock").exists());
    assert!(!stderr.contains("s3cret"), "the token is never printed");
}

/// `SKILLPM_GITHUB_API_URL` and `SKILLPM_GITHUB_ARCHIVE_URL` move the fast
/// path's hosts, and a project's `.env` or CI job can set them as easily as
/// the user: pointed at another origin, they took `$GITHUB_TOKEN` there.
/// The GitHub token goes only to GitHub's own origins and to this machine;
/// another origin gets only a token the user bound to it (its
/// `SKILLPM_TOKEN_…` variable here). The other origin is reached through a
/// logging proxy on loopback: the fake API itself.
#[test]
fn the_github_token_stays_with_github_when_a_variable_moves_its_hosts() {
    let h = history();
    let gh = fake_github(&h);
    let mut sb = Sandbox::new();
    gh.configure(&mut sb);
    sb.init();
    // Honest: the fake's hosts on loopback get the token.
    assert_adds_from_one_api_call_and_archive(&sb, &gh, &h);

    // Attack: the hosts moved elsewhere by the environment.
    let moved = |p: &Path| {
        let mut cmd = sb.cmd_in(p);
        cmd.env("SKILLPM_GITHUB_API_URL", "http://api.evil.example")
            .env("SKILLPM_GITHUB_ARCHIVE_URL", "http://archive.evil.example")
            .env("HTTP_PROXY", &gh.api.base)
            .args([
                "--allow-http",
                "add",
                "github:acme/skills/skills@main",
                "pdf",
                "--yes",
            ]);
        cmd
    };
    let p = project(&sb, "moved");
    let (_, stdout, stderr) = run(&mut moved(&p));
    assert!(!stdout.contains("s3cret") && !stderr.contains("s3cret"));
    let log = gh.take_log();
    assert!(
        log.iter()
            .any(|hit| hit.path == "/repos/acme/skills/commits/main"),
        "the moved API was not asked: {log:?}"
    );
    let sent: Vec<_> = log.iter().filter_map(|hit| hit.auth.clone()).collect();
    assert_eq!(sent, Vec::<String>::new(), "the GitHub token left GitHub");
    assert!(!p.join("skills.lock").exists());

    // The user's own binding for the moved host is sent there, and only it.
    let p = project(&sb, "bound");
    let (_, _, stderr) = run(moved(&p).env("SKILLPM_TOKEN_api_evil_example", "ghe-token"));
    let log = gh.take_log();
    let sent: Vec<_> = log.iter().filter_map(|hit| hit.auth.clone()).collect();
    assert!(
        !sent.is_empty() && sent.iter().all(|a| a == "Bearer ghe-token"),
        "{sent:?}\n{stderr}"
    );
}

/// `cache verify --json` of `sb`'s cache: clean, and the git cache holds one
/// repository and no staging debris.
fn assert_git_cache_sound(sb: &Sandbox) {
    let out = succeed(
        sb.process_in(&sb.project)
            .args(["--json", "cache", "verify"]),
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    let repos: Vec<String> = std::fs::read_dir(sb.cache.join("git/repos"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        repos.iter().filter(|n| n.ends_with(".git")).count(),
        1,
        "{repos:?}"
    );
    assert!(!repos.iter().any(|n| n.contains(".tmp")), "{repos:?}");
    let tmp = files_under(&sb.cache.join("tmp"));
    assert!(
        tmp.iter()
            .all(|f| f.extension().is_some_and(|e| e == "lock")),
        "{tmp:?}"
    );
}

#[test]
fn git_sources_share_one_cache_across_processes_with_gc_and_kills() {
    let repo = Repo::new("shared");
    repo.skill("skills/fill", "fill", "Fill forms")
        .skill("skills/notes", "notes", "Take notes");
    repo.commit("two skills");
    repo.push();
    let sb = Sandbox::new();
    let projects: Vec<PathBuf> = (0..6).map(|i| project(&sb, &format!("p{i}"))).collect();
    for round in 0..3 {
        let mut children: Vec<_> = projects
            .iter()
            .map(|p| {
                sb.process_in(p)
                    .args(["add", "--source", &repo.url(), "--all", "--yes"])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        // gc and verify run while the adds do; one add is killed mid-way.
        let mut maintenance: Vec<_> = [&["cache", "gc"][..], &["cache", "verify"]]
            .iter()
            .map(|args| sb.process_in(&sb.project).args(*args).spawn().unwrap())
            .collect();
        let killed = round % projects.len();
        std::thread::sleep(std::time::Duration::from_millis(20 * round as u64));
        let _ = children[killed].kill();
        for (i, child) in children.into_iter().enumerate() {
            let out = child.wait_with_output().unwrap();
            if i != killed {
                assert!(
                    out.status.success(),
                    "round {round}, p{i}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        for m in &mut maintenance {
            // gc may refuse (exit 2) while no project lock is known yet;
            // neither may fail otherwise.
            let code = m.wait().unwrap().code();
            assert!(matches!(code, Some(0 | 2)), "round {round}: {code:?}");
        }
        // The killed project recovers with a plain install; all verify.
        succeed(sb.process_in(&projects[killed]).args([
            "add",
            "--source",
            &repo.url(),
            "--all",
            "--yes",
        ]));
        for p in &projects {
            succeed(sb.process_in(p).arg("verify"));
        }
        assert_git_cache_sound(&sb);
    }
}

/// The tree digest of `rel` at `commit` of `repo`, as an attacker computes
/// it (`cache add` of that folder, which also plants it in the cache).
fn tree_at(sb: &Sandbox, repo: &Repo, commit: &str, rel: &str, name: &str) -> String {
    let out = sb.path(&format!("tree-{commit}"));
    std::fs::create_dir_all(&out).unwrap();
    let tar = out.join("t.tar");
    repo.git(&["archive", "-o", tar.to_str().unwrap(), commit, rel]);
    succeed(
        std::process::Command::new("tar")
            .arg("xf")
            .arg(&tar)
            .current_dir(&out),
    );
    let (code, stdout, stderr) = run(sb
        .cmd()
        .args(["--json", "cache", "add"])
        .arg(out.join(rel))
        .args(["--name", name]));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    report["digest"].as_str().unwrap().to_owned()
}

/// Issue 23, attack 1 on the GitHub fast path: the pinned commit must be on
/// the declared ref, asked of the API (the ref's commit, then the compare
/// API once the ref moved on). An older commit of the branch installs; a
/// commit of another branch is refused (exit 3), nothing linked.
#[test]
fn github_fast_path_proves_the_commit_is_on_the_declared_ref() {
    let h = history();
    h.repo.git(&["checkout", "-q", "-b", "evil"]);
    h.repo
        .skill("skills/pdf", "pdf", "Fill PDF forms, and mail them on");
    let x = h.repo.commit("evil");
    h.repo.git(&["checkout", "-q", "main"]);
    let archives = HashMap::from([
        (h.a.clone(), h.repo.archive("skills", &h.a)),
        (h.b.clone(), h.repo.archive("skills", &h.b)),
        (x.clone(), h.repo.archive("skills", &x)),
    ]);
    let github = |main: &str| {
        let gh = FakeGitHub::new(
            HashMap::from([("main".to_owned(), main.to_owned())]),
            archives.clone(),
        );
        gh.answer_compare_from(&h.repo.work);
        gh
    };
    // Pinned while `main` was at A.
    let at_a = github(&h.a);
    let mut sb = Sandbox::new();
    at_a.configure(&mut sb);
    sb.init();
    let (code, _, stderr) =
        run(sb
            .cmd()
            .args(["add", "github:acme/skills/skills@main", "pdf", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    assert!(lock.contains(&h.a), "{lock}");

    // `main` moved on to B: a teammate's fresh cache proves A is on it.
    let at_b = github(&h.b);
    at_b.configure(&mut sb);
    let teammate = |name: &str, lock: &str| {
        let dir = sb.path(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(sb.project.join("skills.toml"), dir.join("skills.toml")).unwrap();
        std::fs::write(dir.join("skills.lock"), lock).unwrap();
        let mut cmd = sb.cmd_in(&dir);
        cmd.env("SKILLPM_CACHE_DIR", sb.path(&format!("{name}-cache")));
        (dir, cmd)
    };
    let (dir, mut cmd) = teammate("honest", &lock);
    let (code, _, stderr) = run(cmd.args(["install", "--locked"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.join(".agents/skills/pdf/SKILL.md").exists());
    let compare = format!("/repos/acme/skills/compare/{}...{}", h.a, h.b);
    assert!(
        at_b.take_log().iter().any(|hit| hit.path == compare),
        "the compare API was asked"
    );

    // The lock pointed at a commit of another branch, tree and approval to match.
    let tree_a = lock_entry(&sb.project, "pdf")["tree"]
        .as_str()
        .unwrap()
        .to_owned();
    let tree_x = tree_at(&sb, &h.repo, &x, "skills/pdf", "pdf");
    let forged = lock.replace(&h.a, &x).replace(&tree_a, &tree_x);
    let (dir, mut cmd) = teammate("forged", &forged);
    let (code, _, stderr) = run(cmd.args(["install", "--locked"]));
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("is not on `main`"), "{stderr}");
    assert!(stderr.contains("skillpm update pdf"), "{stderr}");
    assert!(!dir.join(".agents").exists(), "nothing linked");
    assert_eq!(
        std::fs::read_to_string(dir.join("skills.lock")).unwrap(),
        forged
    );
}

#[test]
fn git_lock_files_left_by_a_killed_run_do_not_block_the_next() {
    // Honest path: add from the remote's HEAD, which the cache records in a ref.
    let (repo, a, _, sb) = pdf_added(&[]);

    // A run killed while git rewrote that ref and packed-refs leaves their
    // lock files behind (SIGKILL runs no cleanup).
    let repos = sb.cache.join("git/repos");
    let cached: Vec<PathBuf> = std::fs::read_dir(&repos)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "git"))
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    let ref_lock = cached[0].join("refs/skillpm/remote-HEAD.lock");
    assert!(ref_lock.parent().unwrap().is_dir());
    std::fs::write(&ref_lock, "0000000000000000000000000000000000000000\n").unwrap();
    std::fs::write(cached[0].join("packed-refs.lock"), "").unwrap();

    // Upstream moves; the next run still fetches and moves the ref.
    repo.write(
        "skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Fill PDF forms v2\n---\n# v2\n",
    );
    let b = repo.commit("v2");
    repo.push();
    assert_outdated_sees_the_move(&sb, &a, &b);
    assert!(!ref_lock.exists());
    assert!(!cached[0].join("packed-refs.lock").exists());
}

// ---------------------------------------------------------------------------
// Retries are the one client's (docs/network.md#retries): the GitHub API and
// git's smart HTTP are retried and counted per origin like registry fetches.

/// Adds `args` in a fresh sandbox configured for `gh` (when given).
fn add_fresh(gh: Option<&FakeGitHub>, args: &[&str]) -> (Sandbox, i32, String) {
    let mut sb = Sandbox::new();
    if let Some(gh) = gh {
        gh.configure(&mut sb);
    }
    sb.init();
    let before = support::snapshot(&sb.project);
    let (code, _, stderr) = run(sb.cmd().arg("add").args(args).arg("--yes"));
    if code != 0 {
        assert_eq!(support::snapshot(&sb.project), before, "a failed add wrote");
    }
    (sb, code, stderr)
}

#[test]
fn the_github_api_is_retried_and_counted_by_the_one_client() {
    let h = history();
    let gh = fake_github(&h);
    let args = ["github:acme/skills/skills@main", "pdf"];
    // Honest: one API request.
    let (_, code, stderr) = add_fresh(Some(&gh), &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(gh.api_faults.take_seen(), 1);
    // 503 twice, then the answer: three requests, and the add succeeds.
    gh.api_faults.fail_next(2);
    let (sb, code, stderr) = add_fresh(Some(&gh), &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(gh.api_faults.take_seen(), 3);
    let github = "https://github.com/acme/skills";
    assert_pinned(&sb.project, "pdf", github, &h.b, "skills/pdf");
    // Always 503: the budget (SKILLPM_HTTP_RETRIES=2 in the sandbox) stops
    // it after three attempts, exit 4, nothing written.
    gh.api_faults.fail_next(usize::MAX);
    let (_, code, stderr) = add_fresh(Some(&gh), &args);
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("503"), "{stderr}");
    assert_eq!(gh.api_faults.take_seen(), 3);
}

#[test]
fn git_smart_http_is_retried_and_counted_by_the_one_client() {
    let h = history();
    let faults = support::server::Flaky::default();
    let server = serve(faults.wrap(git_support::http_backend::router(
        h.repo.bare.parent().unwrap().to_owned(),
    )));
    let url = format!("{}/skills.git", server.base);
    let args = [url.as_str(), "pdf", "--ref", "v1"];
    // Honest: the requests of one fetch.
    let (_, code, stderr) = add_fresh(None, &args);
    assert_eq!(code, 0, "{stderr}");
    let honest = faults.take_seen();
    assert!(honest >= 2, "{honest} requests");
    // 503 twice, then the answers: two requests more, and the add succeeds.
    faults.fail_next(2);
    let (sb, code, stderr) = add_fresh(None, &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(faults.take_seen(), honest + 2);
    assert_pinned(&sb.project, "pdf", &url, &h.a, "skills/pdf");
    // Always 503: three attempts, then the origin is down for the run.
    faults.fail_next(usize::MAX);
    let (_, code, stderr) = add_fresh(None, &args);
    assert_eq!(code, 4, "{stderr}");
    assert_eq!(faults.take_seen(), 3);
}
