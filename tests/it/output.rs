//! The one output owner (src/ui.rs): stdout data, stderr messages and errors,
//! `--quiet`, `--color` and `NO_COLOR`, and a reader that goes away. Every
//! test runs the real binary; the pipes are real pipes.

use std::io::Read;
use std::process::Stdio;

use crate::support::cli::Sandbox;

/// `skillpm list --json` into a pipe whose reader is already gone: the write
/// fails with EPIPE for certain, and the program must still end quietly with 0.
#[test]
fn closed_stdout_is_a_quiet_success() {
    let sb = Sandbox::new();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = sb
        .process_in(&sb.project)
        .args(["list", "--all", "--json"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The same through a shell pipeline into `head -c1`, as a person types it.
#[test]
fn piped_into_head_exits_zero_with_nothing_on_stderr() {
    let sb = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("skillpm");
    let out = sb
        .process_in(&sb.project)
        .env("SKILLPM", &bin)
        .output_of_shell(r#""$SKILLPM" list --all --json | head -c1; exit "${PIPESTATUS[0]}""#);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, b"{", "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// When stdout fails for another reason (a full disk), that is still an error.
#[test]
fn a_full_stdout_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not a Linux-like system
    };
    let sb = Sandbox::new();
    let out = sb
        .process_in(&sb.project)
        .args(["list", "--all", "--json"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write to stdout"), "{stderr}");
}

/// Error messages follow `--color` like everything else, and `--quiet`
/// never hides them.
#[test]
fn errors_follow_color_and_survive_quiet() {
    let sb = Sandbox::new();
    let run = |args: &[&str]| {
        let out = sb.cmd().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(8), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let always = run(&["--color", "always", "show", "no-such-skill"]);
    assert!(always.starts_with("\x1b[1;31merror\x1b[0m: "), "{always:?}");
    // The sandbox sets NO_COLOR: `auto` (and a non-terminal) means plain.
    let auto = run(&["show", "no-such-skill"]);
    assert!(auto.starts_with("error: "), "{auto:?}");
    let never = run(&["--color", "never", "--quiet", "show", "no-such-skill"]);
    assert!(never.starts_with("error: "), "{never:?}");
    assert!(!never.contains('\x1b'), "{never:?}");
}

/// `--quiet` keeps stdout data for `--json` but silences the human report.
#[test]
fn quiet_silences_human_text_not_json() {
    let sb = Sandbox::new();
    let human = sb
        .cmd()
        .args(["--quiet", "list", "--all"])
        .output()
        .unwrap();
    assert!(human.status.success(), "{human:?}");
    assert!(human.stdout.is_empty(), "{human:?}");
    let json = sb
        .cmd()
        .args(["--quiet", "--json", "list", "--all"])
        .output()
        .unwrap();
    assert!(json.status.success(), "{json:?}");
    let mut text = String::new();
    json.stdout.as_slice().read_to_string(&mut text).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap();
}

trait ShellExt {
    fn output_of_shell(&mut self, script: &str) -> std::process::Output;
}

impl ShellExt for std::process::Command {
    /// Runs `script` in bash with this command's environment and folder.
    fn output_of_shell(&mut self, script: &str) -> std::process::Output {
        let mut shell = std::process::Command::new("bash");
        shell.args(["-c", script]).env_clear();
        for (k, v) in self.get_envs() {
            if let Some(v) = v {
                shell.env(k, v);
            }
        }
        if let Some(dir) = self.get_current_dir() {
            shell.current_dir(dir);
        }
        shell.output().unwrap()
    }
}

#[test]
fn help_lists_commands_in_the_order_of_the_workflow() {
    let sandbox = Sandbox::new();
    let out = sandbox.cmd().arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let at = |command: &str| {
        help.find(&format!("\n  {command} "))
            .unwrap_or_else(|| panic!("{command} missing:\n{help}"))
    };
    let order = [
        "init", "source", "add", "install", "update", "remove", "search",
    ];
    for pair in order.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "{pair:?}:\n{help}");
    }
    assert!(
        at("remove") < at("list") && at("remove") < at("check"),
        "{help}"
    );
}
