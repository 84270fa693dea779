//! Findings about the skills themselves: invalid, modified or withheld
//! winners, shadowed copies, and what they need that this machine lacks.

use super::*;

/// Invalid and modified skills wherever they are, and winners withheld
/// for any other reason (a shadowed copy is otherwise reported once, under
/// `shadowed`: it is not what agents load).
pub(super) fn check_skills(skills: &[CatalogSkill], findings: &mut Vec<Observation>) {
    for s in skills {
        let Some(why) = &s.withheld else { continue };
        let always = matches!(
            why,
            Withheld::Invalid { .. }
                | Withheld::Modified { .. }
                | Withheld::Refused { .. }
                | Withheld::TooLarge { .. }
        );
        if s.shadowed_by.is_some() && !always {
            continue;
        }
        let (level, kind) = match why {
            Withheld::Invalid { .. } => (Urgency::Error, "invalid-skill"),
            Withheld::Modified { .. } => (Urgency::Error, "modified"),
            Withheld::Refused { .. } => (Urgency::Error, "refused"),
            Withheld::TooLarge { .. } => (Urgency::Error, "too-large"),
            Withheld::Unlocked => (Urgency::Warning, "unlocked"),
            Withheld::Unapproved { .. } => (Urgency::Warning, "unapproved"),
            Withheld::Unmanaged => (Urgency::Info, "unmanaged"),
            Withheld::Disabled => (Urgency::Info, "disabled"),
            Withheld::Denied { .. } => (Urgency::Info, "denied"),
        };
        findings.push(finding(
            level,
            kind,
            Some(&s.name),
            Some(&s.path),
            why.explain(&s.name, &s.path),
        ));
    }
}

pub(super) fn check_duplicates(discovery: &Discovery, findings: &mut Vec<Observation>) {
    for d in &discovery.duplicates {
        if d.same_target {
            twice_in_one_folder(d, findings);
            continue;
        }
        let Some(winner) = &d.winner else { continue };
        let losers: Vec<String> = d
            .paths
            .iter()
            .filter(|p| *p != winner)
            .map(|p| p.display().to_string())
            .collect();
        findings.push(finding(
            Urgency::Warning,
            "shadowed",
            Some(&d.name),
            Some(winner),
            format!(
                "`{}` exists in {} folders with different content: {} wins (highest precedence) and shadows {}; agents load only the winner, so remove or rename the others",
                d.name,
                d.paths.len(),
                winner.display(),
                losers.join(", ")
            ),
        ));
    }
}

/// One skill in one agent folder under two folder names (pnpm links an
/// approved skill again as `pnpm-<package>-<name>` beside the folder
/// `import` adopted): the same content, but an agent reading that folder
/// lists it once for each (Claude Code 2.1.332 does, by folder name: seen
/// in the request it sent a loopback model API, as scripts/interop-agents.sh
/// reads them) (docs/sources.md#skills-other-tools-installed).
fn twice_in_one_folder(d: &crate::agents::roots::Duplicate, findings: &mut Vec<Observation>) {
    let mut by_folder: std::collections::BTreeMap<&std::path::Path, Vec<String>> =
        std::collections::BTreeMap::new();
    for p in &d.paths {
        if let (Some(parent), Some(name)) = (p.parent(), p.file_name()) {
            by_folder
                .entry(parent)
                .or_default()
                .push(name.to_string_lossy().into_owned());
        }
    }
    for (folder, names) in by_folder.into_iter().filter(|(_, n)| n.len() > 1) {
        let pnpm = if names.iter().any(|n| n.starts_with("pnpm-")) {
            "; pnpm links a `pnpm-…` one again on its next install unless `pnpm-workspace.yaml` says `skills: false` for its package (`skillpm import` names the key)"
        } else {
            ""
        };
        findings.push(finding(
            Urgency::Warning,
            "listed-twice",
            Some(&d.name),
            Some(&folder.join(&names[0])),
            format!(
                "`{}` is in {} {} times ({}), the same content each time: agents that read that folder list it once for each (Claude Code does, under each folder's name), so keep one and remove the others{pnpm}",
                d.name,
                folder.display(),
                names.len(),
                names.join(", ")
            ),
        ));
    }
}

/// Environment variables and MCP servers winners declare in
/// `agents/openai.yaml` that this machine lacks.
pub(super) fn check_dependencies(
    skills: &[CatalogSkill],
    servers: &clients::ClientConfigs,
    env_var_is_set: fn(&str) -> bool,
    findings: &mut Vec<Observation>,
) {
    for s in skills.iter().filter(|s| s.is_winner()) {
        let Some(meta) = &s.openai else { continue };
        for dep in &meta.dependencies {
            let why = dep
                .description
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            match dep.kind {
                ToolKind::EnvVar if dep.is_missing_env_var(env_var_is_set) => findings.push(finding(
                    Urgency::Warning,
                    "missing-env-var",
                    Some(&s.name),
                    Some(&s.path),
                    format!(
                        "`{}` needs the environment variable {}{why}, which is not set here: set it in the environment your agent runs in",
                        s.name, dep.value
                    ),
                )),
                ToolKind::Mcp if !servers.has(&dep.value) => {
                    let how = match (&dep.command, &dep.url) {
                        (Some(cmd), _) => format!(" (started with `{cmd}`)"),
                        (None, Some(url)) => format!(" (at {url})"),
                        _ => String::new(),
                    };
                    findings.push(finding(
                        Urgency::Warning,
                        "missing-mcp-server",
                        Some(&s.name),
                        Some(&s.path),
                        format!(
                            "`{}` needs the MCP server `{}`{how}{why}, which no agent here configures (.mcp.json, ~/.claude.json, ~/.codex/config.toml, opencode.json): add it to your agent's MCP configuration",
                            s.name, dep.value
                        ),
                    ));
                }
                _ => {}
            }
        }
    }
}
