//! `mentions`, `doctor` and `show --path` on the real binary, in temp
//! homes and projects with real symlinks into a hand-built store.

use crate::skill_world;
use crate::support::cli::json;
use crate::support::write;

use predicates::prelude::*;
use serde_json::Value;
use skill_world::{Approval, World};

/// `skillpm mentions TEXT --json` (plus `extra`): the mentioned names, and
/// the whole report.
fn mentions(w: &World, text: &str, extra: &[&str]) -> (Vec<String>, Value) {
    let out = w
        .cmd()
        .args(["mentions", text, "--json"])
        .args(extra)
        .assert()
        .success();
    let report = json(&out.get_output().stdout);
    let names = report["mentions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect();
    (names, report)
}

// ---------------------------------------------------------------- mentions

#[test]
fn mentions_in_order_of_first_mention_once_each_with_punctuation() {
    let mut w = World::new();
    for name in ["alpha", "beta", "pdf-tools"] {
        w.install(name, "", "Body.\n", &[], Approval::Approved);
    }
    let (names, report) = mentions(
        &w,
        "Use ($beta), then \"$alpha\"; also $pdf-tools. And $beta's output, `$alpha`, **$pdf-tools**!",
        &[],
    );
    assert_eq!(names, ["beta", "alpha", "pdf-tools"]);
    let first = &report["mentions"][0];
    assert_eq!(first["how"], "name");
    assert_eq!(first["offset"], 5);
    assert_eq!(first["scope"], "repo");

    // A trailing hyphen or underscore does not hide the name; glued `$` and
    // longer names do not match.
    let (names, _) = mentions(
        &w,
        "try $alpha-- and $beta_ now; US$alpha, $alphabet, $pdf-tools-x",
        &[],
    );
    assert_eq!(names, ["alpha", "beta"]);

    let (names, report) = mentions(&w, "nothing here, $5 and $", &[]);
    assert!(names.is_empty());
    assert_eq!(report["skipped"], serde_json::json!([]));

    w.cmd()
        .args(["mentions", "use $alpha"])
        .assert()
        .success()
        .stdout(predicate::str::contains("alpha").and(predicate::str::contains("repo")));
    w.cmd()
        .args(["mentions", "-", "--json"])
        .write_stdin("from stdin: $beta\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("\"beta\""));
}

#[test]
fn mentions_ignore_env_var_lookalikes_unless_a_skill_has_the_name() {
    let mut w = World::new();
    w.install("path", "", "Body.\n", &[], Approval::Approved);
    w.install("home-tools", "", "Body.\n", &[], Approval::Approved);
    let (names, _) = mentions(
        &w,
        "echo $PATH and $HOME and $XDG_CONFIG_HOME and $HOME-TOOLS",
        &[],
    );
    assert!(names.is_empty(), "{names:?}");
    let (names, _) = mentions(&w, "now $path and [$HOME](/nowhere) and $home-tools", &[]);
    assert_eq!(names, ["path", "home-tools"]);
}

#[test]
fn mentions_links_resolve_by_path_and_plain_names_need_one_skill() {
    let mut w = World::new();
    // Two different skills named `demo`: the project's and the user's.
    let user_demo = w.home.join(".agents/skills/demo");
    w.write_skill(&user_demo, "demo", "User demo", "User.\n");
    w.write_skill(
        &w.agents_root().join("demo"),
        "demo",
        "Project demo",
        "Project.\n",
    );
    w.install("solo", "", "Body.\n", &[], Approval::Approved);
    let unmanaged = ["--include-unmanaged"];

    let (names, report) = mentions(&w, "use $demo and $solo", &unmanaged);
    assert_eq!(names, ["solo"]);
    let skipped = &report["skipped"][0];
    assert_eq!(skipped["token"], "$demo");
    assert!(
        skipped["reason"]
            .as_str()
            .unwrap()
            .contains("2 different skills are named `demo`")
    );

    // A link picks the shadowed user copy by its folder or its SKILL.md.
    for target in [user_demo.clone(), user_demo.join("SKILL.md")] {
        let text = format!("use [$demo]({}) please", target.display());
        let (names, report) = mentions(&w, &text, &unmanaged);
        assert_eq!(names, ["demo"]);
        assert_eq!(report["mentions"][0]["path"], user_demo.to_str().unwrap());
        assert_eq!(report["mentions"][0]["how"], "link");
        assert_eq!(report["mentions"][0]["scope"], "user");
    }
    let text = format!(
        "[$demo]( skill://{}/SKILL.md ) and $demo",
        user_demo.display()
    );
    let (names, _) = mentions(&w, &text, &unmanaged);
    assert_eq!(
        names,
        ["demo"],
        "link once, the ambiguous plain name adds nothing"
    );

    // A link to no skill selects nothing and does not fall back to the name.
    let (names, report) = mentions(&w, "[$solo](/nowhere/solo)", &unmanaged);
    assert!(names.is_empty());
    assert!(
        report["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("no skill is installed at /nowhere/solo")
    );

    // The same skill by link and by name counts once.
    let solo = w.agents_root().join("solo");
    let text = format!("$solo, [$solo]({}), $solo", solo.display());
    let (names, _) = mentions(&w, &text, &unmanaged);
    assert_eq!(names, ["solo"]);

    // Without --include-unmanaged the hand-written copies are not candidates.
    let (names, report) = mentions(&w, "use $demo", &[]);
    assert!(names.is_empty());
    assert!(
        report["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("not installed by skillpm")
    );
}

#[test]
fn mentions_skip_disabled_withheld_and_person_only_skills() {
    let mut w = World::new();
    w.install("off", "", "Body.\n", &[], Approval::Approved);
    w.install(
        "bot-only",
        "user-invocable: false\n",
        "Body.\n",
        &[],
        Approval::Approved,
    );
    w.install(
        "manual",
        "disable-model-invocation: true\n",
        "Body.\n",
        &[],
        Approval::Approved,
    );
    w.install("pending", "", "Body.\n", &[], Approval::Unapproved);
    w.skills_toml("[skills]\noff = { source = \"acme\", enabled = false }\n");
    let (names, report) = mentions(&w, "$off $bot-only $manual $pending", &[]);
    // A person may name a skill the model may not pick on its own.
    assert_eq!(names, ["manual"]);
    let reasons: Vec<&str> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["reason"].as_str().unwrap())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("disabled in skills.toml")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("never approved")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("user-invocable: false")),
        "{reasons:?}"
    );
}

// ---------------------------------------------------------------- doctor

/// The links doctor must report: a broken one (`gone`, its store entry
/// removed) and a folder skillpm did not make where the lock expects one
/// (`squat`).
struct DoctorTroubles {
    gone: skill_world::Installed,
    squatter: skill_world::Installed,
}

/// A world with one of each problem doctor reports: a shadowed skill, a
/// broken link, a missing env var and MCP server, and a foreign folder.
fn world_with_every_doctor_finding(w: &mut World) -> DoctorTroubles {
    // A shadowed skill: the project's copy wins over a different user copy.
    w.write_skill(
        &w.agents_root().join("notes"),
        "notes",
        "Project notes",
        "P.\n",
    );
    w.write_skill(
        &w.home.join(".agents/skills/notes"),
        "notes",
        "User notes",
        "U.\n",
    );
    // A skillpm link whose store entry is gone.
    let gone = w.install("gone", "", "Body.\n", &[], Approval::Approved);
    std::fs::remove_dir_all(&gone.entry).unwrap();
    // Dependencies this machine lacks.
    w.install(
        "needs",
        "",
        "Body.\n",
        &[(
            "agents/openai.yaml",
            "dependencies:\n  tools:\n    - type: env_var\n      value: SKILLPM_TEST_SURELY_UNSET_TOKEN\n      description: API token\n    - type: mcp\n      value: linear\n      transport: stdio\n      command: npx linear-mcp\n    - type: mcp\n      value: github\n",
        )],
        Approval::Approved,
    );
    write(
        &w.project.join(".mcp.json"),
        r#"{"mcpServers": {"github": {"command": "gh-mcp"}}}"#,
    );
    // A folder skillpm did not make where the lock expects a link.
    let squatter = w.install("squat", "", "Body.\n", &[], Approval::Approved);
    std::fs::remove_file(&squatter.link).unwrap();
    w.write_skill(&squatter.link, "squat", "Someone's own", "Mine.\n");
    DoctorTroubles { gone, squatter }
}

/// `doctor --json` (needing action, exit 1) with the test's token set to
/// `token`, or unset.
fn doctor_report(w: &World, token: Option<&str>) -> Value {
    let mut cmd = w.cmd();
    cmd.args(["doctor", "--json"]);
    match token {
        Some(t) => cmd.env("SKILLPM_TEST_SURELY_UNSET_TOKEN", t),
        None => cmd.env_remove("SKILLPM_TEST_SURELY_UNSET_TOKEN"),
    };
    json(&cmd.assert().code(1).get_output().stdout)
}

/// The findings of `kind` in a doctor report.
fn findings<'a>(report: &'a Value, kind: &str) -> Vec<&'a Value> {
    let all = report["findings"].as_array().unwrap();
    all.iter().filter(|f| f["kind"] == kind).collect()
}

/// One `shadowed` finding naming both copies, one `broken-link` error
/// saying how to repair it, one `foreign-folder`.
fn assert_reports_the_links(w: &World, report: &Value, troubles: &DoctorTroubles) {
    let all = &report["findings"];
    let shadowed = findings(report, "shadowed");
    assert_eq!(shadowed.len(), 1, "{all:?}");
    let msg = shadowed[0]["message"].as_str().unwrap();
    assert!(
        msg.contains(w.agents_root().join("notes").to_str().unwrap()),
        "{msg}"
    );
    assert!(
        msg.contains(w.home.join(".agents/skills/notes").to_str().unwrap()),
        "{msg}"
    );

    let broken = findings(report, "broken-link");
    assert_eq!(broken.len(), 1, "{all:?}");
    assert_eq!(broken[0]["level"], "error");
    assert_eq!(broken[0]["path"], troubles.gone.link.to_str().unwrap());
    assert!(
        broken[0]["message"]
            .as_str()
            .unwrap()
            .contains("skillpm install")
    );

    let foreign = findings(report, "foreign-folder");
    assert_eq!(foreign.len(), 1, "{all:?}");
    assert_eq!(foreign[0]["path"], troubles.squatter.link.to_str().unwrap());
}

/// The unset variable, and the MCP server not configured (github is, in
/// .mcp.json), each reported once.
fn assert_reports_missing_dependencies(report: &Value) {
    let all = &report["findings"];
    let env = findings(report, "missing-env-var");
    assert_eq!(env.len(), 1, "{all:?}");
    assert!(
        env[0]["message"]
            .as_str()
            .unwrap()
            .contains("SKILLPM_TEST_SURELY_UNSET_TOKEN")
    );
    let mcp = findings(report, "missing-mcp-server");
    assert_eq!(mcp.len(), 1, "github is configured in .mcp.json: {all:?}");
    assert!(
        mcp[0]["message"]
            .as_str()
            .unwrap()
            .contains("`linear` (started with `npx linear-mcp`)")
    );
}

#[test]
fn doctor_reports_shadowing_broken_links_and_missing_dependencies() {
    let mut w = World::new();
    let troubles = world_with_every_doctor_finding(&mut w);

    let report = doctor_report(&w, None);
    assert_eq!(report["needs_action"], true);
    assert_reports_the_links(&w, &report, &troubles);
    assert_reports_missing_dependencies(&report);

    // Roots are reported in precedence order, the project's first.
    let roots = report["roots"].as_array().unwrap();
    assert_eq!(roots[0]["rank"], 1);
    assert_eq!(roots[0]["scope"], "repo");
    assert_eq!(roots[0]["path"], w.agents_root().to_str().unwrap());
    assert!(
        report["mcp_servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "github")
    );

    // The variable set: that finding goes away.
    let report = doctor_report(&w, Some("t"));
    assert!(findings(&report, "missing-env-var").is_empty());

    // Human output names each problem and says action is needed.
    w.cmd().arg("doctor").assert().code(1).stdout(
        predicate::str::contains("roots, highest precedence first:")
            .and(predicate::str::contains("broken-link"))
            .and(predicate::str::contains("shadowed"))
            .and(predicate::str::contains("action needed")),
    );
}

#[test]
fn doctor_finds_tampered_skills_and_corrupt_store_entries_and_passes_when_clean() {
    let mut w = World::new();
    // Links only in `.agents/skills`, as `install` makes them with this setting.
    w.skills_toml("[install]\nagents = [\"agents\"]\n");
    let pdf = w.install(
        "pdf-tools",
        "",
        "Body.\n",
        &[("a.txt", "a")],
        Approval::Approved,
    );
    w.cmd()
        .arg("doctor")
        .assert()
        .success()
        .stdout(predicate::str::contains("no problems found"));
    // Healthy skills are counted by default and listed with -v.
    let out = w.cmd().arg("doctor").assert().success();
    let summary = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        summary.contains("skills: 1 found (1 managed by skillpm)"),
        "{summary}"
    );
    assert!(
        !summary.contains(&pdf.link.display().to_string()),
        "{summary}"
    );
    let out = w.cmd().args(["-v", "doctor"]).assert().success();
    let detail = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(detail.contains("(skillpm)"), "{detail}");

    w.tamper(&pdf.entry, "a.txt", "changed");
    let out = w.cmd().args(["doctor", "--json"]).assert().code(1);
    let report = json(&out.get_output().stdout);
    let kinds: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"modified"), "{kinds:?}");
    assert!(kinds.contains(&"store-corrupt"), "{kinds:?}");
    assert_eq!(report["store"]["corrupt"], 1);
    assert_eq!(report["store"]["entries_checked"], 1);
    let corrupt = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "store-corrupt")
        .unwrap();
    assert!(
        corrupt["message"]
            .as_str()
            .unwrap()
            .contains(pdf.link.to_str().unwrap())
    );
    let skill = &report["skills"][0];
    assert_eq!(skill["status"], "withheld");
    assert_eq!(skill["managed"], true);
}

#[test]
fn doctor_warns_about_skills_over_the_listing_budget() {
    let mut w = World::new();
    for name in ["alpha", "beta"] {
        w.install(name, "", "Body.\n", &[], Approval::Approved);
    }
    // 2% of 7,500 characters is 150: the wrapper and one entry.
    let out = w
        .cmd()
        .args(["doctor", "--json", "--context-chars", "7500"])
        .assert()
        .code(1);
    let report = json(&out.get_output().stdout);
    assert_eq!(report["listing"]["budget"], 150);
    assert_eq!(report["listing"]["listed"], serde_json::json!(["alpha"]));
    assert_eq!(report["listing"]["omitted"], serde_json::json!(["beta"]));
    let over: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "over-budget")
        .collect();
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["skill"], "beta");
}

/// Claude Code's own listing (docs/design.md#proof-with-real-agents):
/// `- name: description - when_to_use` a line. Its own skills leave 1,800
/// characters of a 200k-token model's budget (a note past them) and 23,800
/// of its default model's (a warning past them);
/// SLASH_COMMAND_TOOL_CHAR_BUDGET sets the budget (a warning past what it
/// leaves). Skills of other agents' folders do not count.
#[test]
fn doctor_tells_when_claude_codes_own_listing_drops_descriptions() {
    let w = World::new();
    let claude = w.project.join(".claude/skills");
    // 9 lines of 200 characters: "- skill-NN: " (12) + description + "\n".
    let description = "d".repeat(200 - 12 - 1);
    for i in 0..9 {
        let name = format!("skill-{i:02}");
        w.write_skill(&claude.join(&name), &name, &description, "Body.\n");
    }
    // Another agent's folder: not Claude Code's listing.
    w.write_skill(
        &w.agents_root().join("shared"),
        "shared",
        &"x".repeat(900),
        "Body.\n",
    );
    let said = |budget: Option<&str>| {
        let mut cmd = w.cmd();
        cmd.args(["doctor", "--json", "--include-unmanaged"]);
        match budget {
            Some(b) => cmd.env("SLASH_COMMAND_TOOL_CHAR_BUDGET", b),
            None => cmd.env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET"),
        };
        let report = json(&cmd.output().unwrap().stdout);
        let found: Vec<(String, String)> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["kind"] == "claude-listing")
            .map(|f| {
                let text = |k: &str| f[k].as_str().unwrap().to_owned();
                (text("level"), text("message"))
            })
            .collect();
        found
    };
    // Exactly 1,800 characters: what a 200k-token model leaves.
    assert_eq!(said(None), Vec::new());
    // Four characters more, through when_to_use (" - " and the text): a note.
    w.write_skill(
        &claude.join("skill-00"),
        "skill-00",
        &format!("{description}\nwhen_to_use: x"),
        "Body.\n",
    );
    let found = said(None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "info");
    assert!(
        found[0]
            .1
            .contains("the 9 skills in Claude Code's folders take 1804 characters")
            && found[0]
                .1
                .contains("over the 1800 its own skills leave on a 200k-token model"),
        "{found:?}"
    );
    // The budget Claude Code is told to use.
    assert_eq!(said(Some("9000")), Vec::new());
    let found = said(Some("6000"));
    assert_eq!(found[0].0, "warning");
    assert!(
        found[0].1.contains("over the 800 its own skills leave of the budget SLASH_COMMAND_TOOL_CHAR_BUDGET=6000 sets"),
        "{found:?}"
    );
    // Past what its default model leaves: a warning. Descriptions count
    // up to 1,536 characters each: 16 lines of 1,548 and the 1,804 before
    // take 26,572.
    for i in 0..16 {
        let name = format!("long-{i:02}");
        w.write_skill(&claude.join(&name), &name, &"l".repeat(3_000), "Body.\n");
    }
    let found = said(None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "warning", "{found:?}");
    assert!(
        found[0].1.contains("take 26572 characters")
            && found[0]
                .1
                .contains("over the 23800 its own skills leave on its default model"),
        "{found:?}"
    );
}

#[test]
fn doctor_tells_many_skills_over_the_budget_in_one_line() {
    let mut w = World::new();
    let names: Vec<String> = (0..12).map(|i| format!("skill-{i:02}")).collect();
    for name in &names {
        w.install(name, "", "Body.\n", &[], Approval::Approved);
    }
    // 2% of 7,500 characters is 150: the wrapper and one entry; 11 left out.
    let out = w
        .cmd()
        .args(["doctor", "--context-chars", "7500"])
        .assert()
        .code(1);
    let human = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = human
        .lines()
        .filter(|l| l.contains("over-budget"))
        .collect();
    assert_eq!(lines.len(), 1, "{human}");
    assert!(
        lines[0].contains("11 skills do not fit in the 150-character skill listing"),
        "{human}"
    );
    assert!(
        lines[0].contains("and 3 more (`--json` lists them)"),
        "{human}"
    );
    assert!(lines[0].contains("larger --context-chars"), "{human}");
    // Any other kind: its first five findings, then a count. Here the twelve
    // skills are not linked into `.claude/skills` either.
    let not_linked: Vec<&str> = human.lines().filter(|l| l.contains("not-linked")).collect();
    assert_eq!(not_linked.len(), 6, "{human}");
    assert!(
        not_linked[5].ends_with("… and 7 more like these (`--json` lists them)"),
        "{human}"
    );
    // JSON keeps one finding per skill, for scripts.
    let out = w
        .cmd()
        .args(["doctor", "--json", "--context-chars", "7500"])
        .assert()
        .code(1);
    let report = json(&out.get_output().stdout);
    let over = (report["findings"].as_array().unwrap().iter())
        .filter(|f| f["kind"] == "over-budget")
        .count();
    assert_eq!(over, 11);
}

// ---------------------------------------------------------------- show

#[test]
fn show_path_loads_a_shadowed_copy_and_never_falls_back() {
    let w = World::new();
    let project_copy = w.agents_root().join("notes");
    let user_copy = w.home.join(".agents/skills/notes");
    w.write_skill(
        &project_copy,
        "notes",
        "Project notes",
        "From the project.\n",
    );
    w.write_skill(&user_copy, "notes", "User notes", "From home.\n");

    w.cmd()
        .args(["show", "notes"])
        .assert()
        .success()
        .stdout(predicate::str::contains("From the project."));
    for path in [user_copy.clone(), user_copy.join("SKILL.md")] {
        w.cmd()
            .args(["show", "notes", "--path"])
            .arg(&path)
            .assert()
            .success()
            .stdout(
                predicate::str::contains("From home.")
                    .and(predicate::str::contains("From the project.").not()),
            );
    }
    // Relative to the working directory.
    w.cmd()
        .args(["show", "notes", "--path", ".agents/skills/notes"])
        .assert()
        .success()
        .stdout(predicate::str::contains("From the project."));
    w.cmd()
        .args(["show", "other", "--path"])
        .arg(&user_copy)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds skill `notes`, not `other`"));
    w.cmd()
        .args(["show", "notes", "--path"])
        .arg(w.root.join("nowhere"))
        .assert()
        .code(8)
        .stderr(predicate::str::contains("no skill agents can see is at"));
}

#[test]
fn show_refuses_a_tampered_skill_with_exit_3() {
    let mut w = World::new();
    let pdf = w.install("pdf-tools", "", "Original.\n", &[], Approval::Approved);
    w.cmd().args(["show", "pdf-tools"]).assert().success();
    w.tamper(
        &pdf.entry,
        "SKILL.md",
        "---\nname: pdf-tools\ndescription: d\n---\nTampered.\n",
    );
    w.cmd()
        .args(["show", "pdf-tools"])
        .assert()
        .code(3)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("was modified after it was installed")
                .and(predicate::str::contains(pdf.tree.as_str()))
                .and(predicate::str::contains("skillpm install")),
        );
    // --path does not get around it.
    w.cmd()
        .args(["show", "pdf-tools", "--path"])
        .arg(&pdf.link)
        .assert()
        .code(3);
    // A link no lock lists must still match the store entry it names.
    std::fs::remove_file(w.project.join("skills.lock")).unwrap();
    w.cmd().args(["show", "pdf-tools"]).assert().code(3);
}

#[test]
fn show_warns_about_an_unapproved_link_but_shows_it() {
    let mut w = World::new();
    w.install("pending", "", "Pending body.\n", &[], Approval::Unapproved);
    w.cmd()
        .args(["show", "pending"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Pending body."))
        .stderr(
            predicate::str::contains("never approved")
                .and(predicate::str::contains("will not serve it")),
        );
}

#[test]
fn doctor_reports_a_broken_lock_instead_of_stopping() {
    let mut w = World::new();
    w.install("pdf-tools", "", "Body.\n", &[], Approval::Approved);
    write(
        &w.project.join("skills.lock"),
        "version = 1\n[[skill]]\nname = 3\n",
    );
    let out = w.cmd().args(["doctor", "--json"]).assert().code(1);
    let report = json(&out.get_output().stdout);
    let findings = report["findings"].as_array().unwrap();
    let policy: Vec<&Value> = findings.iter().filter(|f| f["kind"] == "policy").collect();
    assert_eq!(policy.len(), 1, "{findings:?}");
    assert!(
        policy[0]["message"]
            .as_str()
            .unwrap()
            .contains("skills.lock")
    );
    assert!(
        findings.iter().any(|f| f["kind"] == "unlocked"),
        "{findings:?}"
    );
    // The commands that serve skills refuse to guess: a lock entry that
    // does not read is a broken claim, exit 3 (docs/design.md#exit-codes).
    w.cmd().args(["mentions", "$pdf-tools"]).assert().code(3);
}

#[test]
fn doctor_rehashes_store_entries_nothing_links_to() {
    let mut w = World::new();
    w.skills_toml("[install]\nagents = [\"agents\"]\n");
    let old = w.install("old", "", "Body.\n", &[("a.txt", "a")], Approval::Approved);
    // Uninstalled: the link and lock entry are gone, the entry stays cached.
    std::fs::remove_file(&old.link).unwrap();
    std::fs::remove_file(w.project.join("skills.lock")).unwrap();
    w.cmd().arg("doctor").assert().success();
    w.tamper(&old.entry, "a.txt", "changed");
    let out = w.cmd().args(["doctor", "--json"]).assert().code(1);
    let report = json(&out.get_output().stdout);
    assert_eq!(report["store"]["corrupt"], 1);
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "store-corrupt");
    assert_eq!(f["path"], old.entry.to_str().unwrap());
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("skillpm cache verify")
    );
}
