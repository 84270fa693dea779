//! `skillpm audit --run` (docs/audit.md, "Running a skill: audit --run"):
//! real scripts run in the real sandbox (bubblewrap, strace). The corpus
//! under tests/fixtures/audit-run/ holds skills that hide what they do
//! from a reader (encoded, split, fetched then run, delayed, …), honest
//! scripts (a formatter, a report builder, CLI wrappers that print), and
//! an escape attempt. Skipped with a message where bubblewrap or strace is
//! missing; CI (`.ci/run`) installs both and sets
//! `SKILLPM_TEST_NEEDS_SANDBOX`, and there a missing tool fails.

use crate::support::cli::json;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::cli::{Sandbox, run};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit-run")
}

/// Whether the sandbox can run here; prints why not (and fails in CI).
fn sandbox_ready() -> bool {
    let missing: Vec<&str> = ["bwrap", "strace"]
        .into_iter()
        .filter(|t| {
            !std::process::Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("SKILLPM_TEST_NEEDS_SANDBOX").is_none(),
        "CI must install {missing:?} (.ci/run)"
    );
    eprintln!("{missing:?} not installed: the audit --run tests are skipped");
    false
}

fn installed(program: &str) -> bool {
    ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .any(|d| Path::new(d).join(program).is_file())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Per skill of a report: (rule, severity, excerpt, why) of each finding.
fn findings(report: &Value, name: &str) -> Vec<(String, String, String, String)> {
    let skill = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {report:#}"));
    skill["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_owned();
            (s("rule"), s("severity"), s("excerpt"), s("why"))
        })
        .collect()
}

fn high(sev: &str) -> bool {
    sev == "high" || sev == "critical"
}

/// The hiding skills, each with the behaviour rules it must be caught by
/// (and the interpreter it needs).
const HIDING: &[(&str, &[&str], &str)] = &[
    (
        "hide-encoded",
        &["run-canary-read", "run-network", "run-canary-exfil"],
        "python3",
    ),
    (
        "hide-split",
        &["run-canary-read", "run-network", "run-canary-exfil"],
        "bash",
    ),
    (
        "hide-fetch-run",
        &["run-network", "run-exec-written"],
        "python3",
    ),
    (
        "hide-delayed",
        &["run-outlived", "run-canary-exfil"],
        "python3",
    ),
    ("hide-persist", &["run-persistence"], "node"),
    (
        "hide-env-perl",
        &["run-network", "run-canary-exfil"],
        "perl",
    ),
    ("hide-githook", &["run-persistence"], "bash"),
    (
        "hide-daemon",
        &["run-outlived", "run-canary-read"],
        "python3",
    ),
    (
        "hide-copy",
        &["run-canary-read", "run-canary-copy"],
        "python3",
    ),
];

const HONEST: &[&str] = &["honest-cli", "honest-formatter", "honest-report"];

#[test]
fn hiding_skills_are_caught_by_what_they_do_and_honest_ones_are_clean() {
    if !sandbox_ready() {
        return;
    }
    let sb = Sandbox::new();
    // Honest first: their scripts run (exit 0) and nothing is found, by
    // the static audit or by the run.
    let honest: Vec<PathBuf> = HONEST.iter().map(|n| corpus().join(n)).collect();
    let (code, out, err) = run(sb.cmd().args(["audit", "--run", "--json"]).args(&honest));
    assert_eq!(code, 0, "{out}\n{err}");
    let report = json(&out);
    for name in HONEST {
        assert_eq!(findings(&report, name), [], "{name}");
    }
    for skill in report["skills"].as_array().unwrap() {
        for script in skill["run"]["scripts"].as_array().unwrap() {
            assert_eq!(script["exit"], 0, "{script}");
        }
    }
    let ran: usize = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["run"]["scripts"].as_array().unwrap().len())
        .sum();
    assert!(ran >= 4, "{report:#}");

    // Then the hiding skills: each caught at high or above, by the rules it
    // earns. The static audit of the same folders misses most of them.
    let hiding: Vec<PathBuf> = HIDING.iter().map(|(n, _, _)| corpus().join(n)).collect();
    let (code, out, err) = run(sb.cmd().args(["audit", "--json"]).args(&hiding));
    assert!(code == 0 || code == 5, "{err}");
    let statically = json(&out);
    let (code, out, err) = run(sb.cmd().args(["audit", "--run", "--json"]).args(&hiding));
    assert_eq!(code, 5, "{out}\n{err}");
    let report = json(&out);
    let mut missed_statically = 0;
    for (name, rules, needs) in HIDING {
        if !installed(needs) {
            eprintln!("{needs} not installed: {name} not checked");
            continue;
        }
        let found = findings(&report, name);
        for rule in *rules {
            assert!(
                found.iter().any(|f| f.0 == *rule && high(&f.1)),
                "{name}: no {rule} in {found:#?}"
            );
        }
        if !findings(&statically, name).iter().any(|f| high(&f.1)) {
            missed_statically += 1;
        }
    }
    eprintln!(
        "audit --run caught {} of {} hiding skills; the static audit misses {missed_statically}",
        HIDING.len(),
        HIDING.len()
    );
    // Every finding names the script and says which canary or request.
    let exfil = findings(&report, "hide-encoded");
    let leak = exfil.iter().find(|f| f.0 == "run-canary-exfil").unwrap();
    assert!(
        leak.2.contains("telemetry.tidy-imports.example"),
        "{leak:?}"
    );
    assert!(leak.3.contains("canary aws-credentials"), "{leak:?}");
    let dns = findings(&report, "hide-delayed");
    assert!(
        dns.iter()
            .any(|f| f.0 == "run-canary-exfil" && f.3.contains("env-GITHUB_TOKEN (hex)")),
        "{dns:#?}"
    );
}

#[test]
fn escape_attempts_fail_inside_and_are_reported() {
    if !sandbox_ready() {
        return;
    }
    let sb = Sandbox::new();
    // The real home holds a file the script names by its full path.
    std::fs::write(sb.home.join("secret.txt"), "real secret").unwrap();
    let skill = sb.path("escape-attempt");
    copy_dir(&corpus().join("escape-attempt"), &skill);
    let script = skill.join("scripts/diagnose.py");
    let mut text = std::fs::read_to_string(&script).unwrap();
    // Honest first: the same script, without the attempts, is clean.
    let honest_text = text
        .split("attempt(\"proc-root\"")
        .next()
        .unwrap()
        .to_owned();
    std::fs::write(&script, &honest_text).unwrap();
    let (code, out, err) = run(sb.cmd().args(["audit", "--run", "--json"]).arg(&skill));
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(findings(&json(&out), "escape-attempt"), []);

    text.push_str(&format!(
        "attempt(\"real-home-file\", lambda: open({:?}).read())\n",
        sb.home.join("secret.txt").to_str().unwrap()
    ));
    std::fs::write(&script, &text).unwrap();
    let (code, out, err) = run(sb.cmd().args(["audit", "--run", "--json"]).arg(&skill));
    assert_eq!(code, 5, "{out}\n{err}");
    let found = findings(&json(&out), "escape-attempt");
    let escapes: Vec<&(String, String, String, String)> =
        found.iter().filter(|f| f.0 == "run-escape").collect();
    for wanted in [
        "/proc/1/root/etc/hostname",
        "/root",
        "/var/run/docker.sock",
        sb.home.join("secret.txt").to_str().unwrap(),
    ] {
        let hit = escapes
            .iter()
            .find(|f| f.2.contains(wanted))
            .unwrap_or_else(|| panic!("{wanted} not reported: {found:#?}"));
        // It failed inside: the recorded call returned an error.
        assert!(hit.2.contains("= -1"), "{hit:?}");
    }
}

#[test]
fn run_findings_come_in_sarif_and_the_flag_explains_where_it_is_unavailable() {
    if !sandbox_ready() {
        return;
    }
    let sb = Sandbox::new();
    let skill = corpus().join("hide-copy");
    let (code, out, err) = run(sb
        .cmd()
        .args(["audit", "--run", "--sarif", "-"])
        .arg(&skill));
    assert_eq!(code, 5, "{err}");
    let log = json(&out);
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().any(|r| r["id"] == "run-canary-read"));
    let results = log["runs"][0]["results"].as_array().unwrap();
    let read = results
        .iter()
        .find(|r| r["ruleId"] == "run-canary-read")
        .unwrap_or_else(|| panic!("{log:#}"));
    assert_eq!(
        read["ruleIndex"],
        rules
            .iter()
            .position(|r| r["id"] == "run-canary-read")
            .unwrap()
    );
    assert!(
        read["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("scripts/backup.py")
    );

    // Without bubblewrap on PATH: a clear error, exit 1, no report.
    let (code, out, err) = run(sb
        .cmd()
        .env("PATH", sb.path("empty"))
        .args(["audit", "--run"])
        .arg(&skill));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("`audit --run` is unavailable here") && err.contains("`bwrap`"),
        "{err}"
    );
}

#[test]
fn audit_run_in_skills_toml_stops_add_of_a_skill_that_acts_badly() {
    if !sandbox_ready() {
        return;
    }
    let sb = Sandbox::new();
    sb.init();
    let vendor = sb.project.join("vendor");
    copy_dir(
        &corpus().join("honest-formatter"),
        &vendor.join("honest-formatter"),
    );
    copy_dir(&corpus().join("hide-copy"), &vendor.join("hide-copy"));
    let manifest = sb.manifest();
    std::fs::write(
        sb.project.join("skills.toml"),
        format!("{manifest}\n[audit]\nrun = true\n"),
    )
    .unwrap();
    // The honest skill is run, found clean and added.
    let (code, _, err) =
        run(sb
            .cmd()
            .args(["add", "--source", "./vendor", "honest-formatter", "--yes"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        sb.project
            .join(".agents/skills/honest-formatter/SKILL.md")
            .exists()
    );
    // The one that reads credentials statically looks harmless, and is
    // refused for what it did (exit 5), nothing linked.
    let (code, _, err) = run(sb
        .cmd()
        .args(["audit", "--json"])
        .arg(vendor.join("hide-copy")));
    assert_eq!(code, 0, "the static audit should not see it: {err}");
    let (code, _, err) = run(sb
        .cmd()
        .args(["add", "--source", "./vendor", "hide-copy", "--yes"]));
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("run-canary-read scripts/backup.py"), "{err}");
    assert!(!sb.project.join(".agents/skills/hide-copy").exists());
    assert!(!sb.manifest().contains("hide-copy"));
}
