//! `skillpm import` (issue 16) from files the real tools wrote
//! (`tests/fixtures/import/README.md` says how): vercel `skills`' project and
//! global locks, openskills' `.openskills.json`, skillkit's
//! `~/.skillkit/lock.json` and `.skills`. Sources are real git
//! repositories; the old tools' files and folders must stay byte for byte.

use crate::git_support::git;
use crate::support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::cli::{Sandbox, run};

const PREFIX: &str = "/tmp/agfx/";

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import")
        .join(rel)
}

/// Copies a fixture file to `dest`, pointing its recorded paths at `root`.
fn place_fixture(rel: &str, dest: &Path, root: &Path) {
    let text = std::fs::read_to_string(fixture(rel)).unwrap();
    let text = text.replace(PREFIX, &format!("{}/", root.display()));
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::write(dest, text).unwrap();
}

/// `<root>/src-repo` (work tree with two skills, one commit) and
/// `<root>/src.git` (its bare clone), as the fixtures were made against.
fn sources(root: &Path) -> String {
    let work = root.join("src-repo");
    for (name, desc) in [("pdf-tools", "Fill PDF forms."), ("notes", "Take notes.")] {
        let dir = work.join("skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n"),
        )
        .unwrap();
    }
    git(&work, &["init", "-q", "-b", "main"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "init"]);
    git(root, &["clone", "-q", "--bare", "src-repo", "src.git"]);
    git(&work, &["rev-parse", "HEAD"])
}

fn snapshot(paths: &[PathBuf]) -> Vec<(PathBuf, Vec<u8>)> {
    paths
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect()
}

fn status_of<'a>(report: &'a Value, name: &str, tool: &str) -> &'a str {
    report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name && s["tool"] == tool)
        .unwrap_or_else(|| panic!("{name} from {tool} in {report:#}"))["status"]
        .as_str()
        .unwrap()
}

#[test]
fn vercel_locks_are_imported_resolved_pinned_and_left_untouched() {
    let sb = Sandbox::new();
    let root = sb.path("");
    let root = root.canonicalize().unwrap();
    let commit = sources(&root);
    let project_lock = sb.project.join("skills-lock.json");
    let global_lock = sb.home.join(".agents/.skill-lock.json");
    place_fixture(
        "vercel-skills/project/skills-lock.json",
        &project_lock,
        &root,
    );
    place_fixture(
        "vercel-skills/home/.agents/.skill-lock.json",
        &global_lock,
        &root,
    );
    // A record whose source no longer offers the skill (added to the real
    // file here: the tools refuse to install what does not exist).
    let mut lock: Value =
        serde_json::from_str(&std::fs::read_to_string(&project_lock).unwrap()).unwrap();
    lock["skills"]["ghost"] = serde_json::json!({
        "source": "../src-repo", "sourceType": "local", "computedHash": "00"
    });
    std::fs::write(&project_lock, serde_json::to_vec_pretty(&lock).unwrap()).unwrap();
    // The folder vercel installed for pdf-tools, and its Claude symlink.
    let theirs = sb.project.join(".agents/skills/pdf-tools");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("SKILL.md"), "installed by vercel skills\n").unwrap();
    std::fs::create_dir_all(sb.project.join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink(
        "../../.agents/skills/pdf-tools",
        sb.project.join(".claude/skills/pdf-tools"),
    )
    .unwrap();
    let untouched = [
        project_lock.clone(),
        global_lock.clone(),
        theirs.join("SKILL.md"),
    ];
    let before = snapshot(&untouched);

    // --dry-run: the plan, and nothing written.
    let (code, out, err) = run(sb.cmd().args(["import", "--dry-run", "--json"]));
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["dry_run"], true);
    assert_eq!(status_of(&plan, "pdf-tools", "vercel-skills"), "planned");
    assert_eq!(status_of(&plan, "notes", "vercel-skills"), "planned");
    assert_eq!(status_of(&plan, "notes", "vercel-skills-global"), "skipped");
    assert!(!sb.project.join("skills.toml").exists());
    assert!(!sb.project.join("skills.lock").exists());

    let (code, out, err) = run(sb.cmd().args(["import", "--yes", "--json"]));
    assert_eq!(code, 0, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    // vercel records no commit: both are resolved again, then pinned.
    assert_eq!(
        status_of(&report, "pdf-tools", "vercel-skills"),
        "re-resolved"
    );
    assert_eq!(status_of(&report, "notes", "vercel-skills"), "re-resolved");
    assert_eq!(status_of(&report, "ghost", "vercel-skills"), "not-found");
    assert_eq!(
        status_of(&report, "notes", "vercel-skills-global"),
        "skipped"
    );

    let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    assert_eq!(
        lock.matches(&commit).count(),
        2,
        "both pinned to the commit: {lock}"
    );
    let manifest = sb.manifest();
    assert!(
        manifest.contains("pdf-tools") && manifest.contains("notes"),
        "{manifest}"
    );
    assert!(!manifest.contains("ghost"), "{manifest}");

    // notes is linked; pdf-tools' places belong to vercel and stay theirs.
    assert!(sb.project.join(".agents/skills/notes/SKILL.md").exists());
    let pdf = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "pdf-tools")
        .unwrap();
    let left: Vec<&str> = pdf["left_in_place"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        left.iter().any(|p| p.ends_with(".agents/skills/pdf-tools")),
        "{left:?}"
    );
    assert_eq!(
        snapshot(&untouched),
        before,
        "the old tool's files are untouched"
    );
    assert_eq!(
        std::fs::read_link(sb.project.join(".claude/skills/pdf-tools")).unwrap(),
        Path::new("../../.agents/skills/pdf-tools")
    );
    // Until the user clears vercel's folders, verify says pdf-tools is not
    // where the lock wants it; after, install links it and all verifies.
    let (code, out, err) = run(sb.cmd().arg("verify"));
    assert_eq!(code, 3, "{out}{err}");
    assert!(format!("{out}{err}").contains("pdf-tools"), "{out}{err}");
    std::fs::remove_file(sb.project.join(".claude/skills/pdf-tools")).unwrap();
    std::fs::remove_dir_all(&theirs).unwrap();
    let (code, _, err) = run(sb.cmd().arg("install"));
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(sb.cmd().arg("verify"));
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn openskills_records_are_imported_from_every_folder() {
    let sb = Sandbox::new();
    let root = sb.path("").canonicalize().unwrap();
    let commit = sources(&root);
    let mut files = Vec::new();
    for rel in [
        ".claude/skills/pdf-tools/.openskills.json",
        ".claude/skills/notes/.openskills.json",
        ".agent/skills/pdf-tools/.openskills.json",
        ".agent/skills/notes/.openskills.json",
    ] {
        let dest = sb.project.join(rel);
        place_fixture(&format!("openskills/project/{rel}"), &dest, &root);
        files.push(dest);
    }
    let before = snapshot(&files);
    let (code, out, err) = run(sb.cmd().args(["import", "--yes", "--json"]));
    assert_eq!(code, 0, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let rows = report["skills"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{report:#}");
    let imported: Vec<&Value> = rows
        .iter()
        .filter(|r| r["status"] == "re-resolved")
        .collect();
    assert_eq!(imported.len(), 2, "one per name: {report:#}");
    assert_eq!(rows.iter().filter(|r| r["status"] == "skipped").count(), 2);
    let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    assert_eq!(lock.matches(&commit).count(), 2, "{lock}");
    assert_eq!(snapshot(&files), before);
    // openskills' folders in `.claude/skills` are not skillpm's: left in place.
    for r in &imported {
        assert!(!r["left_in_place"].as_array().unwrap().is_empty(), "{r}");
    }
    assert!(sb.project.join(".agents/skills/notes/SKILL.md").exists());
}

#[test]
fn nothing_to_import_says_so_and_a_broken_lock_is_named() {
    let sb = Sandbox::new();
    let (code, out, err) = run(sb.cmd().arg("import"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("nothing to import"), "{out}");
    assert!(!sb.project.join("skills.toml").exists());

    std::fs::write(sb.project.join("skills-lock.json"), "{not json").unwrap();
    let (code, _, err) = run(sb.cmd().arg("import"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("skills-lock.json") && err.contains("not valid JSON"),
        "{err}"
    );
    assert!(!sb.project.join("skills.toml").exists());
}

#[test]
fn skillkit_lock_is_imported_mapped_and_left_untouched() {
    let sb = Sandbox::new();
    let root = sb.path("").canonicalize().unwrap();
    let commit = sources(&root);
    let lock_path = sb.home.join(".skillkit/lock.json");
    place_fixture("skillkit/home/.skillkit/lock.json", &lock_path, &root);
    // Records the tool wrote for sources it could not be run against here
    // (GitHub, GitLab) and one whose source no longer offers the skill.
    let mut lock: Value =
        serde_json::from_str(&std::fs::read_to_string(&lock_path).unwrap()).unwrap();
    let extra = |source: &str, kind: &str, name: &str| {
        serde_json::json!({
            "source": source, "sourceType": kind,
            "installedAt": "2026-11-24T06:20:52.110Z", "agents": ["claude-code"],
            "path": format!("/nowhere/{name}")
        })
    };
    let skills = lock["skills"].as_object_mut().unwrap();
    skills.insert(
        "acme/skills/tools:web".into(),
        extra("acme/skills/tools", "github", "web"),
    );
    skills.insert(
        "gitlab:team/kit:lint".into(),
        extra("gitlab:team/kit", "gitlab", "lint"),
    );
    skills.insert(
        "skills.sh/acme/more/fmt:fmt".into(),
        extra("skills.sh/acme/more/fmt", "skills-sh", "fmt"),
    );
    std::fs::write(&lock_path, serde_json::to_vec_pretty(&lock).unwrap()).unwrap();
    // skillkit's own copies in `.claude/skills`, as it installed them.
    let theirs = sb.project.join(".claude/skills/pdf-tools");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("SKILL.md"), "installed by skillkit\n").unwrap();
    std::fs::write(theirs.join(".skillkit.json"), "{\"name\":\"pdf-tools\"}").unwrap();
    let untouched = [
        lock_path.clone(),
        theirs.join("SKILL.md"),
        theirs.join(".skillkit.json"),
    ];
    let before = snapshot(&untouched);

    let (code, out, err) = run(sb.cmd().args(["import", "--dry-run", "--json"]));
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    let source_of = |name: &str| {
        plan["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name && s["tool"] == "skillkit")
            .unwrap_or_else(|| panic!("{name} in {plan:#}"))["source"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let src_repo = root.join("src-repo").display().to_string();
    assert_eq!(source_of("pdf-tools"), src_repo);
    // `../src-repo` was typed in the project: relative to it.
    assert_eq!(source_of("notes"), src_repo);
    assert_eq!(source_of("web"), "github:acme/skills");
    assert_eq!(source_of("lint"), "https://gitlab.com/team/kit.git");
    assert_eq!(source_of("fmt"), "github:acme/more");
    assert!(!sb.project.join("skills.toml").exists());

    // Only the local records can be resolved without a network: drop the
    // others, add one the source does not offer.
    let skills = lock["skills"].as_object_mut().unwrap();
    skills.remove("acme/skills/tools:web");
    skills.remove("gitlab:team/kit:lint");
    skills.remove("skills.sh/acme/more/fmt:fmt");
    skills.insert(
        "../src-repo:ghost".into(),
        extra("../src-repo", "local", "ghost"),
    );
    std::fs::write(&lock_path, serde_json::to_vec_pretty(&lock).unwrap()).unwrap();
    let before = {
        let mut b = before;
        b[0].1 = std::fs::read(&lock_path).unwrap();
        b
    };
    let (code, out, err) = run(sb.cmd().args(["import", "--yes", "--json"]));
    assert_eq!(code, 0, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(status_of(&report, "pdf-tools", "skillkit"), "re-resolved");
    assert_eq!(status_of(&report, "notes", "skillkit"), "re-resolved");
    assert_eq!(status_of(&report, "ghost", "skillkit"), "not-found");
    let pinned = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    assert_eq!(pinned.matches(&commit).count(), 2, "{pinned}");
    let manifest = sb.manifest();
    assert!(
        manifest.contains("pdf-tools") && manifest.contains("notes") && !manifest.contains("ghost"),
        "{manifest}"
    );
    assert_eq!(
        snapshot(&untouched),
        before,
        "skillkit's files are untouched"
    );
    let pdf = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "pdf-tools")
        .unwrap();
    assert!(
        pdf["left_in_place"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p.as_str().unwrap().ends_with(".claude/skills/pdf-tools")),
        "{pdf}"
    );
}

#[test]
fn a_skillkit_lock_without_skills_is_refused_and_nothing_written() {
    let sb = Sandbox::new();
    let lock = sb.home.join(".skillkit/lock.json");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    std::fs::write(&lock, "{\"version\": 1, \"skills\": []}").unwrap();
    let (code, _, err) = run(sb.cmd().arg("import"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(".skillkit/lock.json") && err.contains("skillkit lock"),
        "{err}"
    );
    assert!(!sb.project.join("skills.toml").exists());
}

#[test]
fn skillkit_manifest_entries_are_imported_including_whole_sources() {
    let sb = Sandbox::new();
    let root = sb.path("").canonicalize().unwrap();
    let commit = sources(&root);
    let manifest_path = sb.project.join(".skills");
    place_fixture("skillkit/project/.skills", &manifest_path, &root);

    let (code, out, err) = run(sb.cmd().args(["import", "--dry-run", "--json"]));
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    let rows: Vec<(String, String)> = plan["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["tool"] == "skillkit-manifest")
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["source"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let src_repo = root.join("src-repo").display().to_string();
    assert_eq!(
        rows,
        vec![
            ("pdf-tools".to_owned(), src_repo.clone()),
            ("*".to_owned(), src_repo.clone()),
            ("web".to_owned(), "github:acme/skills".to_owned()),
        ],
        "{plan:#}"
    );
    assert!(!sb.project.join("skills.toml").exists());

    // Without the GitHub entry (no network here), a real import.
    let text = std::fs::read_to_string(&manifest_path).unwrap();
    let text = text.replace("  - acme/skills/web\n", "");
    std::fs::write(&manifest_path, &text).unwrap();
    let before = snapshot(std::slice::from_ref(&manifest_path));
    let (code, out, err) = run(sb.cmd().args(["import", "--yes", "--json"]));
    assert_eq!(code, 0, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        status_of(&report, "pdf-tools", "skillkit-manifest"),
        "re-resolved"
    );
    assert_eq!(
        status_of(&report, "notes", "skillkit-manifest"),
        "re-resolved"
    );
    let pinned = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    assert_eq!(pinned.matches(&commit).count(), 2, "{pinned}");
    assert!(sb.project.join(".agents/skills/notes/SKILL.md").exists());
    assert_eq!(snapshot(std::slice::from_ref(&manifest_path)), before);

    // A manifest that is not one is named; nothing written.
    let sb = Sandbox::new();
    std::fs::write(sb.project.join(".skills"), "skills: {a: 1}\n").unwrap();
    let (code, _, err) = run(sb.cmd().arg("import"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(".skills") && err.contains("not a skillkit manifest"),
        "{err}"
    );
    assert!(!sb.project.join("skills.toml").exists());
}
