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
