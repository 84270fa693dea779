//! skills.toml read by every command the same way: an `[agent.<persona>]`
//! section with glob patterns (what `mcp --agent reviewer` filters by) is
//! accepted by the commands that load the strict manifest, too.

use crate::support::cli::{Sandbox, run};

#[test]
fn agent_persona_sections_with_patterns_are_accepted_everywhere() {
    let sb = Sandbox::new();
    sb.init();
    let manifest = sb.project.join("skills.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("\n[agent.reviewer]\nallow = [\"code-*\"]\ndeny = [\"code-danger?\"]\n");
    std::fs::write(&manifest, &text).unwrap();

    // The strict manifest (install, source list) and the serving side
    // (doctor) both read it.
    let (code, _, stderr) = run(sb.cmd().args(["source", "list"]));
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(sb.cmd().args(["install"]));
    assert_eq!(code, 0, "{stderr}");

    // A bad pattern is refused as a usage error naming the section.
    text.push_str("[agent.ci]\ndeny = [\"Deploy-*\"]\n");
    std::fs::write(&manifest, &text).unwrap();
    let (code, _, stderr) = run(sb.cmd().args(["source", "list"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("[agent.ci]"), "{stderr}");
}

#[test]
fn source_add_and_remove_keep_the_templates_commented_keys_in_install() {
    let sb = Sandbox::new();
    sb.init();
    let template = sb.manifest();
    for (name, url) in [
        ("one", "https://one.example"),
        ("two", "https://two.example"),
    ] {
        let (code, _, stderr) = run(sb.cmd().args(["--offline", "source", "add", name, url]));
        assert_eq!(code, 0, "{stderr}");
    }
    let text = sb.manifest();
    // Every line of the template is still there, in order.
    let mut rest = text.as_str();
    for line in template.lines().filter(|l| !l.is_empty()) {
        let at = rest
            .find(line)
            .unwrap_or_else(|| panic!("{line:?} lost or moved:\n{text}"));
        rest = &rest[at + line.len()..];
    }
    // Uncommenting init's keys puts them in [install], where they belong.
    let edited = text
        .replace(
            "# agents = [\"agents\", \"claude\"]",
            "agents = [\"claude\"]",
        )
        .replace("# link-mode = \"symlink\"", "link-mode = \"copy\"");
    std::fs::write(sb.project.join("skills.toml"), &edited).unwrap();
    let (code, stdout, stderr) = run(sb.cmd().args(["--json", "source", "list"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("\"one\"") && stdout.contains("\"two\""),
        "{stdout}"
    );
    let (code, _, stderr) = run(sb.cmd().args(["source", "remove", "one"]));
    assert_eq!(code, 0, "{stderr}");
    let after = sb.manifest();
    assert!(after.contains("agents = [\"claude\"]"), "{after}");
    assert!(after.contains("link-mode = \"copy\""), "{after}");
    assert!(!after.contains("one.example"), "{after}");
    let (code, _, stderr) = run(sb.cmd().arg("install"));
    assert_eq!(code, 0, "{stderr}");
}
