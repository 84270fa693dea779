//! The foundation commands on the real binary: `check`, `list --all` and
//! `show`, in temp home and project folders with real symlinks. Every
//! environment variable that moves a skill root points into the temp dir,
//! admin roots included, so nothing outside it is ever scanned.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support::cli::Sandbox;
use crate::support::write;

/// The shared sandbox, with a `.git` folder marking the project's top.
fn world() -> Sandbox {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.project.join(".git")).unwrap();
    sb
}

fn skill(dir: &Path, name: &str, description: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nInstructions for {name}.\n"),
    )
    .unwrap();
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, link).unwrap();
}

// ---------------------------------------------------------------- check

/// A folder of skills: one valid, one with warnings only, one breaking
/// several rules, one with no SKILL.md.
fn check_fixture(w: &Sandbox) -> PathBuf {
    let skills = w.project.join("skills");
    skill(
        &skills.join("good"),
        "good",
        "Does good things. Use when good.",
    );
    write(
        &skills.join("warned/SKILL.md"),
        "\u{feff}---\r\nname: warned\r\ndescription: \"Quotes: and colons\"\r\nmetadata:\r\n  version: 1.0\r\n---\r\nBody\r\n",
    );
    write(
        &skills.join("warned/agents/openai.yaml"),
        "interface: [broken\n",
    );
    write(
        &skills.join("broken/SKILL.md"),
        &format!(
            "---\nname: Broken--Name\ndescription: {}\ncompatibility: \"\"\nallowed-tools: 7\n---\n",
            "x".repeat(1025)
        ),
    );
    std::fs::create_dir_all(skills.join("empty/scripts")).unwrap();
    write(&skills.join("empty/notes.md"), "no SKILL.md here\n");
    skills
}

#[test]
fn check_lists_errors_and_warnings_per_skill_and_exits_5() {
    let w = world();
    check_fixture(&w);
    // `empty` has no SKILL.md so it is not one of the folder's skills;
    // named directly it is checked and its missing SKILL.md reported.
    let out = w
        .cmd()
        .args(["check", "skills", "skills/empty"])
        .assert()
        .code(5);
    let out = out.get_output();
    insta::assert_snapshot!("check_human", w.redact(&out.stdout));

    let out = w
        .cmd()
        .args(["check", "--json", "skills", "skills/empty"])
        .assert()
        .code(5);
    let out = out.get_output();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["checked"], 4);
    assert_eq!(json["invalid"], 2);
    insta::assert_snapshot!("check_json", w.redact(&out.stdout));
}

#[test]
fn check_of_valid_skills_exits_0() {
    let w = world();
    let skills = check_fixture(&w);
    w.cmd()
        .args(["check"])
        .arg(skills.join("good"))
        .arg("skills/warned")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "2 skills checked: 2 valid, 0 invalid",
        ));
}

#[test]
fn check_of_a_missing_path_is_a_usage_error() {
    let w = world();
    check_fixture(&w);
    w.cmd()
        .args(["check", "skills/good", "no-such-folder"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("cannot check no-such-folder"));
}

// ---------------------------------------------------------------- list

/// The same name `shared` in every scope, plus one skill unique to each.
fn scopes_fixture(w: &Sandbox) -> PathBuf {
    let cwd = w.project.join("app/src");
    std::fs::create_dir_all(&cwd).unwrap();
    // repo, nearest the working directory
    skill(
        &w.project.join("app/.claude/skills/shared"),
        "shared",
        "Nearest repo copy.",
    );
    // repo, project root
    skill(
        &w.project.join(".agents/skills/shared"),
        "shared",
        "Project root copy.",
    );
    skill(
        &w.project.join(".agents/skills/repo-only"),
        "repo-only",
        "Repo skill.",
    );
    skill(
        &w.project.join(".opencode/skills/oc-skill"),
        "oc-skill",
        "OpenCode repo skill.",
    );
    // an invalid copy in the nearest folder neither wins nor shadows
    write(
        &w.project.join("app/.agents/skills/shared/SKILL.md"),
        "---\nname: shared\n---\n",
    );
    // user
    skill(
        &w.home.join(".agents/skills/shared"),
        "shared",
        "User copy.",
    );
    skill(
        &w.home.join(".claude/skills/user-only"),
        "user-only",
        "User skill.",
    );
    skill(
        &w.home.join(".config/opencode/skills/oc-user"),
        "oc-user",
        "OpenCode user skill.",
    );
    skill(
        &w.home.join(".codex/skills/codex-user"),
        "codex-user",
        "Codex user skill.",
    );
    // system (Codex's own)
    skill(
        &w.home.join(".codex/skills/.system/shared"),
        "shared",
        "System copy.",
    );
    skill(
        &w.home.join(".codex/skills/.system/sys-only"),
        "sys-only",
        "System skill.",
    );
    // admin
    skill(
        &w.root.join("admin/etc/agent-skills/shared"),
        "shared",
        "Admin copy.",
    );
    skill(
        &w.root.join("admin/etc/codex/skills/admin-only"),
        "admin-only",
        "Admin skill.",
    );
    cwd
}

#[test]
fn list_ranks_scopes_and_reports_duplicates() {
    let w = world();
    let cwd = scopes_fixture(&w);
    let out = w.cmd_in(&cwd).args(["list", "--all"]).assert().success();
    insta::assert_snapshot!("list_human", w.redact(&out.get_output().stdout));

    let out = w
        .cmd_in(&cwd)
        .args(["list", "--all", "--json"])
        .assert()
        .success();
    let stdout = &out.get_output().stdout;
    let json: serde_json::Value = serde_json::from_slice(stdout).unwrap();
    let shared: Vec<&serde_json::Value> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"] == "shared")
        .collect();
    let scopes: Vec<&str> = shared
        .iter()
        .map(|s| s["scope"].as_str().unwrap())
        .collect();
    assert_eq!(scopes, ["repo", "repo", "repo", "user", "system", "admin"]);
    let winner = w.project.join("app/.claude/skills/shared");
    assert_eq!(shared[0]["valid"], false, "the invalid nearest copy");
    assert!(shared[0]["shadowed_by"].is_null());
    assert_eq!(shared[1]["path"], winner.to_str().unwrap());
    assert!(shared[1]["shadowed_by"].is_null());
    for s in &shared[2..] {
        assert_eq!(s["shadowed_by"], winner.to_str().unwrap());
    }
    let dup = &json["duplicates"][0];
    assert_eq!(dup["name"], "shared");
    assert_eq!(dup["winner"], winner.to_str().unwrap());
    assert_eq!(dup["paths"].as_array().unwrap().len(), 6);
    insta::assert_snapshot!("list_json", w.redact(stdout));
}

#[test]
fn plain_list_is_list_all_for_now() {
    let w = world();
    let cwd = scopes_fixture(&w);
    let all = w.cmd_in(&cwd).args(["list", "--all"]).output().unwrap();
    let plain = w.cmd_in(&cwd).args(["list"]).output().unwrap();
    assert_eq!(all.stdout, plain.stdout);
}

#[test]
fn skills_toml_marks_the_project_root_and_project_flag_overrides() {
    let w = world();
    // skills.toml above the .git folder: its folder is the project root.
    let outer = w.root.join("outer");
    write(&outer.join("skills.toml"), "");
    std::fs::create_dir_all(outer.join("inner/.git")).unwrap();
    skill(
        &outer.join(".agents/skills/outer-skill"),
        "outer-skill",
        "Outer.",
    );
    let cwd = outer.join("inner");
    w.cmd_in(&cwd)
        .args(["list", "--all"])
        .assert()
        .success()
        .stdout(predicate::str::contains("outer-skill"));
    // --project elsewhere: the outer repo roots are no longer scanned.
    w.cmd_in(&cwd)
        .args(["list", "--all", "--project"])
        .arg(&w.project)
        .assert()
        .success()
        .stdout(predicate::str::contains("outer-skill").not());
    w.cmd_in(&cwd)
        .args(["list", "--all", "--project", "no-such-project"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--project no-such-project: "));
}

#[cfg(unix)]
#[test]
fn symlinked_skill_folders_are_followed_but_not_in_system_scope() {
    let w = world();
    // A store-like folder outside every root, linked in as skillpm does.
    let store = w.root.join("cache/store/sha256-0123");
    skill(&store, "linked", "Reached through a symlink.");
    write(&store.join("scripts/run.sh"), "#!/bin/sh\n");
    symlink(&store, &w.project.join(".claude/skills/linked"));
    symlink(&store, &w.project.join(".agents/skills/linked"));
    // A loop and a dangling link must neither hang nor stop the scan.
    symlink(
        &w.project.join(".agents"),
        &w.project.join(".agents/skills/loop"),
    );
    symlink(
        &w.root.join("gone"),
        &w.project.join(".agents/skills/dangling"),
    );
    // System scope never follows links.
    let sys_target = w.root.join("elsewhere/sys-linked");
    skill(&sys_target, "sys-linked", "Linked into the system root.");
    symlink(
        &sys_target,
        &w.home.join(".codex/skills/.system/sys-linked"),
    );

    let out = w.cmd().args(["list", "--all", "--json"]).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let skills = json["skills"].as_array().unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["linked", "linked"]);
    for s in skills {
        assert_eq!(s["link_target"], store.to_str().unwrap());
        assert_eq!(s["valid"], true);
    }
    assert_eq!(json["duplicates"][0]["same_target"], true);
    let warnings = json["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("dangling")),
        "{warnings:?}"
    );

    let out = w.cmd().args(["show", "linked"]).assert().success();
    let text = w.redact(&out.get_output().stdout);
    assert!(
        text.contains("Base directory for this skill: file://[TMP]/project/.agents/skills/linked")
    );
    assert!(text.contains("<file>[TMP]/project/.agents/skills/linked/scripts/run.sh</file>"));
}

#[test]
fn a_deep_tree_is_cut_at_the_depth_bound() {
    let w = world();
    let root = w.project.join(".agents/skills");
    skill(
        &root.join("a/b/c/d/e/at-depth-six"),
        "at-depth-six",
        "Deepest reachable.",
    );
    skill(
        &root.join("a/b/c/d/e/f/at-depth-seven"),
        "at-depth-seven",
        "Too deep.",
    );
    let out = w.cmd().args(["list", "--all"]).assert().success();
    let out = out.get_output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("at-depth-six"), "{stdout}");
    assert!(!stdout.contains("at-depth-seven"), "{stdout}");
    let stderr = w.redact(&out.stderr);
    assert!(
        stderr.contains(
            "warning: 1 folder(s) in [TMP]/project/.agents/skills are deeper than 6 levels and were not scanned"
        ),
        "{stderr}"
    );
}

#[test]
fn a_bad_skill_never_stops_discovery() {
    let w = world();
    let root = w.project.join(".claude/skills");
    write(&root.join("no-frontmatter/SKILL.md"), "# just markdown\n");
    write(&root.join("bad-yaml/SKILL.md"), "---\nname: [oops\n---\n");
    std::fs::create_dir_all(root.join("bad-bytes")).unwrap();
    std::fs::write(root.join("bad-bytes/SKILL.md"), b"---\nname: \xff\n---\n").unwrap();
    skill(&root.join("fine"), "fine", "Still listed.");
    let out = w.cmd().args(["list", "--all", "--json"]).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let listed: Vec<(&str, bool)> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["valid"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("bad-bytes", false),
            ("bad-yaml", false),
            ("fine", true),
            ("no-frontmatter", false)
        ]
    );
}

#[test]
fn list_with_no_skills_says_so() {
    let w = world();
    w.cmd()
        .args(["list", "--all"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("no skills found ("));
}

// ---------------------------------------------------------------- show

#[test]
fn show_prints_the_envelope_an_agent_receives() {
    let w = world();
    let dir = w.project.join(".claude/skills/pdf-tools");
    write(
        &dir.join("SKILL.md"),
        "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n\n# PDF tools\n\nBranch: !`git branch --show-current`\nRun scripts/fill.py.\n",
    );
    for i in 0..12 {
        write(&dir.join(format!("references/ref{i:02}.md")), "ref\n");
    }
    write(&dir.join("scripts/fill.py"), "print()\n");
    let out = w.cmd().args(["show", "pdf-tools"]).assert().success();
    let out = out.get_output();
    insta::assert_snapshot!("show_human", w.redact(&out.stdout));
    assert!(
        w.redact(&out.stderr)
            .contains("asks agents to run 1 shell command(s)"),
        "{}",
        w.redact(&out.stderr)
    );

    let out = w
        .cmd()
        .args(["show", "--json", "pdf-tools"])
        .assert()
        .success();
    insta::assert_snapshot!("show_json", w.redact(&out.get_output().stdout));
}

#[test]
fn show_refuses_names_that_are_not_skill_names_before_scanning() {
    let w = world();
    // A dangling link in a root makes any scan warn: the refusal must come
    // before discovery, so that warning must never appear.
    #[cfg(unix)]
    symlink(
        &w.root.join("gone"),
        &w.project.join(".agents/skills/dangling"),
    );
    skill(
        &w.project.join(".agents/skills/real"),
        "real",
        "A real skill.",
    );
    for name in [
        "../real",
        "..",
        ".",
        "a/b",
        "/etc/passwd",
        "..\\x",
        "Real",
        "real/",
        "",
    ] {
        let out = w.cmd().args(["show", name]).assert().code(2).stdout("");
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains("is not a skill name"), "{name:?}: {stderr}");
        assert!(!stderr.contains("dangling"), "{name:?} scanned: {stderr}");
    }
}

#[test]
fn show_of_an_unknown_name_lists_what_is_available() {
    let w = world();
    skill(&w.project.join(".agents/skills/beta"), "beta", "B.");
    skill(&w.home.join(".claude/skills/alpha"), "alpha", "A.");
    let out = w.cmd().args(["show", "gamma"]).assert().code(8).stdout("");
    insta::assert_snapshot!("show_unknown", w.redact(&out.get_output().stderr));

    let empty = world();
    empty
        .cmd()
        .args(["show", "gamma"])
        .assert()
        .code(8)
        .stderr(predicate::str::contains(
            "no skills are installed in any scope",
        ));
}

#[test]
fn show_of_an_invalid_skill_names_the_problem() {
    let w = world();
    write(
        &w.project.join(".agents/skills/half/SKILL.md"),
        "---\nname: half\n---\n",
    );
    w.cmd()
        .args(["show", "half"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains(
            "is invalid and cannot be loaded: required field `description` is missing",
        ));
}
