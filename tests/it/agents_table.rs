//! The agents table (issue 16): every row's folders per scope and
//! environment override, detection, `skillpm agents`, `--agent` and
//! `[install] agents`, one placement per distinct folder, unmanaged folders
//! never clobbered, and discovery of every folder an agent reads.

use crate::support;
use crate::support::cli::json;

use std::path::{Path, PathBuf};

use skillpm::agents::roots::{Scope, root_dir};
use skillpm::agents::{Agent, Env};
use support::cli::{Sandbox, ok, run};
use support::registry::{Registry, SkillFiles};

fn registry(dir: &Path) -> PathBuf {
    let reg = Registry::new(dir);
    reg.write_v2(&[
        SkillFiles::new("pdf-tools").description("Fill PDF forms"),
        SkillFiles::new("notes").description("Keep notes"),
    ]);
    dir.to_owned()
}

#[test]
fn every_row_has_its_folders_under_the_environment_it_names() {
    let home = Path::new("/h");
    let env = Env::with_home(home);
    let project = Path::new("/p");
    assert!(
        Agent::ALL.len() >= 79,
        "vercel skills 1.7.4 lists 79 agents"
    );
    for agent in Agent::ALL {
        let def = agent.def();
        let repo = root_dir(Scope::Repo, agent, project, &env).unwrap();
        assert_eq!(repo, project.join(def.project), "{agent}");
        if let Some(user) = root_dir(Scope::User, agent, project, &env) {
            assert!(user.starts_with(home), "{agent}: {}", user.display());
            assert!(
                user.ends_with("skills") || user.ends_with("skill"),
                "{agent}"
            );
        }
    }
    // The overrides the agents document move exactly their rows.
    let mut moved = Env::with_home(home);
    moved.claude_config_dir = Some("/cc".into());
    moved.codex_home = Some("/cx".into());
    moved.xdg_config_home = Some("/xdg".into());
    moved.vars.insert("VIBE_HOME".into(), "/vibe".into());
    let user =
        |a: &str, env: &Env| root_dir(Scope::User, Agent::parse(a).unwrap(), project, env).unwrap();
    let cases = [
        ("claude-code", "/h/.claude/skills", "/cc/skills"),
        ("codex", "/h/.codex/skills", "/cx/skills"),
        (
            "opencode",
            "/h/.config/opencode/skills",
            "/xdg/opencode/skills",
        ),
        ("goose", "/h/.config/goose/skills", "/xdg/goose/skills"),
        ("mistral-vibe", "/h/.vibe/skills", "/vibe/skills"),
        ("cursor", "/h/.cursor/skills", "/h/.cursor/skills"),
        (
            "windsurf",
            "/h/.codeium/windsurf/skills",
            "/h/.codeium/windsurf/skills",
        ),
    ];
    for (id, plain, overridden) in cases {
        assert_eq!(user(id, &env), Path::new(plain), "{id}");
        assert_eq!(user(id, &moved), Path::new(overridden), "{id} moved");
    }
    assert_eq!(
        root_dir(Scope::System, Agent::Codex, project, &moved).unwrap(),
        Path::new("/cx/skills/.system")
    );
    // Agents that read the shared folder say so; their project folder is it.
    for id in [
        "codex",
        "cursor",
        "gemini-cli",
        "github-copilot",
        "amp",
        "opencode",
    ] {
        assert!(Agent::parse(id).unwrap().def().reads_shared(), "{id}");
    }
    assert!(!Agent::parse("windsurf").unwrap().def().reads_shared());
}

#[test]
fn skillpm_agents_reports_detection_folders_and_managed_counts() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.home.join(".cursor")).unwrap();
    std::fs::create_dir_all(sb.home.join(".codeium/windsurf")).unwrap();
    sb.init();
    // `init` wrote the agents it detected; a project without `[install]
    // agents` (made before) gets the same from detection on every run.
    let written = sb.manifest();
    assert!(
        written.contains(r#"agents = ["agents", "claude", "cursor", "windsurf"]"#),
        "{written}"
    );
    let without: String = written
        .lines()
        .filter(|l| !l.starts_with("agents = "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(sb.project.join("skills.toml"), without).unwrap();
    let reg = registry(&sb.path("registry"));
    ok(run(sb
        .cmd()
        .arg("add")
        .arg(&reg)
        .args(["pdf-tools", "--yes"])));

    let (_, out, _) = ok(run(sb.cmd().args(["agents", "--json"])));
    let report = json(&out);
    assert_eq!(report["chosen_from"], "default");
    let row = |id: &str| {
        report["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("{id} missing"))
            .clone()
    };
    for id in ["cursor", "windsurf", "claude"] {
        assert_eq!(row(id)["detected"], true, "{id}");
        assert_eq!(row(id)["chosen"], true, "{id}");
    }
    assert_eq!(row("roo")["detected"], false);
    assert_eq!(row("roo")["chosen"], false);
    // Windsurf has its own folder: the skill was placed there, once.
    let windsurf = row("windsurf");
    let repo = windsurf["folders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["scope"] == "repo" && f["written"] == true)
        .unwrap()
        .clone();
    assert_eq!(repo["pattern"], ".windsurf/skills");
    assert_eq!(repo["managed"], 1);
    assert!(
        sb.project
            .join(".windsurf/skills/pdf-tools/SKILL.md")
            .exists()
    );
    // Cursor reads the shared folder: no `.cursor/skills` placement.
    assert!(!sb.project.join(".cursor/skills").exists());
    assert!(sb.project.join(".agents/skills/pdf-tools").exists());
    let (_, out, _) = ok(run(sb.cmd().arg("agents")));
    assert!(
        out.contains("windsurf") && out.contains(".windsurf/skills (1 managed)"),
        "{out}"
    );
}

#[test]
fn agent_flags_place_once_per_folder_and_every_command_covers_every_placement() {
    let sb = Sandbox::new();
    sb.init();
    let reg = registry(&sb.path("registry"));
    ok(run(sb.cmd().arg("add").arg(&reg).args([
        "pdf-tools",
        "notes",
        "--yes",
        "--agent",
        "codex",
        "--agent",
        "cursor",
        "--agent",
        "claude-code",
        "--agent",
        "roo",
    ])));
    // Recorded for the next install, by canonical id.
    let manifest = sb.manifest();
    assert!(
        manifest.contains(r#"agents = ["codex", "cursor", "claude", "roo"]"#),
        "{manifest}"
    );
    let roots = [".agents/skills", ".claude/skills", ".roo/skills"];
    for root in roots {
        for skill in ["pdf-tools", "notes"] {
            let p = sb.project.join(root).join(skill);
            assert!(p.join("SKILL.md").exists(), "{}", p.display());
        }
    }
    // Codex and Cursor share `.agents/skills`: one entry each, no `.cursor`.
    assert_eq!(
        std::fs::read_dir(sb.project.join(".agents/skills"))
            .unwrap()
            .count(),
        2
    );
    assert!(!sb.project.join(".cursor").exists());

    // verify re-hashes every placement.
    ok(run(sb.cmd().arg("verify")));

    // disable and remove take the skill out of every folder.
    ok(run(sb.cmd().args(["disable", "notes"])));
    for root in roots {
        assert!(!sb.project.join(root).join("notes").exists(), "{root}");
        assert!(sb.project.join(root).join("pdf-tools").exists(), "{root}");
    }
    ok(run(sb.cmd().args(["remove", "pdf-tools"])));
    for root in roots {
        assert!(!sb.project.join(root).join("pdf-tools").exists(), "{root}");
    }

    // A plain install keeps the recorded agents.
    ok(run(sb.cmd().args(["enable", "notes"])));
    assert!(sb.project.join(".roo/skills/notes").exists());
}

#[test]
fn an_unknown_agent_is_a_usage_error_and_changes_nothing() {
    let sb = Sandbox::new();
    sb.init();
    let reg = registry(&sb.path("registry"));
    let before = sb.manifest();
    let (code, _, err) =
        run(sb
            .cmd()
            .arg("add")
            .arg(&reg)
            .args(["pdf-tools", "--yes", "--agent", "vim"]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown agent `vim`") && err.contains("skillpm agents"),
        "{err}"
    );
    assert_eq!(sb.manifest(), before);
    assert!(!sb.project.join("skills.lock").exists());
    assert!(!sb.project.join(".agents").exists());

    std::fs::write(
        sb.project.join("skills.toml"),
        "[install]\nagents = [\"emacs\"]\n",
    )
    .unwrap();
    let (code, _, err) = run(sb.cmd().arg("install"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("emacs"), "{err}");
}

#[test]
fn an_unmanaged_folder_in_any_agents_folder_is_never_clobbered() {
    let sb = Sandbox::new();
    sb.init();
    let reg = registry(&sb.path("registry"));
    let mine = sb.project.join(".windsurf/skills/pdf-tools");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("SKILL.md"), "my own\n").unwrap();
    let (code, _, err) = run(sb.cmd().arg("add").arg(&reg).args([
        "pdf-tools",
        "--yes",
        "--agent",
        "windsurf",
        "--agent",
        "agents",
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&mine.display().to_string()), "{err}");
    assert_eq!(
        std::fs::read_to_string(mine.join("SKILL.md")).unwrap(),
        "my own\n"
    );
    assert!(!sb.project.join(".agents/skills/pdf-tools").exists());
}

#[test]
fn existing_manifests_with_the_old_agent_names_keep_their_folders() {
    let sb = Sandbox::new();
    let reg = registry(&sb.path("registry"));
    std::fs::write(
        sb.project.join("skills.toml"),
        "[install]\nscope = \"repo\"\nagents = [\"agents\", \"claude\", \"opencode\", \"codex\"]\n",
    )
    .unwrap();
    ok(run(sb.cmd().arg("add").arg(&reg).args(["notes", "--yes"])));
    for root in [".agents/skills", ".claude/skills", ".opencode/skills"] {
        let link = sb.project.join(root).join("notes");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{root}: the default link mode stays symlink"
        );
    }
}

#[test]
fn discovery_reads_opencode_singular_skill_folders_and_other_agents_folders() {
    let sb = Sandbox::new();
    let write = |dir: &Path, name: &str| {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Found in {}.\n---\n# {name}\n",
                dir.display()
            ),
        )
        .unwrap();
    };
    write(&sb.project.join(".opencode/skill/oc-project"), "oc-project");
    // OpenCode globs `skill/**/SKILL.md`: any depth below.
    write(
        &sb.home.join(".config/opencode/skill/group/oc-user"),
        "oc-user",
    );
    write(&sb.project.join(".windsurf/skills/ws"), "ws");
    write(&sb.home.join(".gemini/skills/gem"), "gem");
    let (_, out, _) = ok(run(sb.cmd().args(["list", "--all", "--json"])));
    let report = json(&out);
    let found: Vec<(String, String)> = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["agent"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for (name, agent) in [
        ("oc-project", "opencode"),
        ("oc-user", "opencode"),
        ("ws", "windsurf"),
        ("gem", "gemini-cli"),
    ] {
        assert!(
            found.contains(&(name.to_owned(), agent.to_owned())),
            "{name} by {agent} in {found:?}"
        );
    }
    let (_, out, _) = ok(run(sb.cmd().args(["show", "oc-user"])));
    assert!(out.contains("# oc-user"), "{out}");
}

/// Every agent that validation names as the reader of a frontmatter field
/// is a row of the agents table (whose `doc` link is the field's source).
#[test]
fn agent_fields_name_agents_of_the_table() {
    for (field, agent) in skillpm::skill::validate::AGENT_FIELDS {
        let row = Agent::ALL.into_iter().find(|a| a.def().display == *agent);
        let row = row.unwrap_or_else(|| panic!("`{field}`: {agent} is not in the agents table"));
        assert!(row.def().doc.starts_with("https://"), "{agent}");
    }
}
