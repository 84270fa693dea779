//! Findings about links: dangling ones in the roots, and the links
//! `skills.lock` expects where `[install]` says they should be.

use super::*;

/// Dangling symlinks directly in a root: skillpm's (store entry gone) and
/// anyone else's.
pub(super) fn check_root_links(
    discovery: &Discovery,
    findings: &mut Vec<Observation>,
    dangling: &mut BTreeSet<PathBuf>,
) {
    for root in discovery.roots.iter().filter(|r| r.exists) {
        let Ok(entries) = std::fs::read_dir(&root.root.path) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
            if !is_link || std::fs::metadata(&path).is_ok() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let target = std::fs::read_link(&path).unwrap_or_default();
            let (level, message) = match crate::placement::link::inspect(
                &path,
                crate::placement::link::Record::None,
            ) {
                Ok(LinkState::Symlink { .. }) => (
                    Urgency::Error,
                    format!(
                        "{} is a dangling skillpm link to {}, which is not in the store (or the project was copied or mounted without that cache): agents skip it silently. Run `skillpm install` to restore it (or remove the skill with `skillpm remove {name}`), and set `link-mode = \"auto\"` under [install] in skills.toml so the project holds real folders that travel with it",
                        path.display(),
                        target.display()
                    ),
                ),
                _ => (
                    Urgency::Warning,
                    format!(
                        "{} is a symlink to {}, which does not exist; skillpm did not make it: remove it or point it at a skill folder",
                        path.display(),
                        target.display()
                    ),
                ),
            };
            dangling.insert(path.clone());
            findings.push(finding(
                level,
                "broken-link",
                Some(&name),
                Some(&path),
                message,
            ));
        }
    }
}

/// Where `skills.lock` says links should be (`[install]` scope and agents),
/// what is there.
pub(super) fn check_lock_links(
    lock: &crate::project::lock::Lockfile,
    settings: &ProjectSettings,
    approvals: &crate::catalog::Approvals,
    (project, env): (&Path, &Env),
    dangling: &BTreeSet<PathBuf>,
    findings: &mut Vec<Observation>,
) {
    let root_dirs = install_root_dirs(settings, project, env);
    let mut seen = BTreeSet::new();
    for entry in lock.skills() {
        let disabled = settings.disabled.contains(&entry.name);
        for root in &root_dirs {
            let path = root.join(&entry.name);
            if !seen.insert(path.clone()) || dangling.contains(&path) {
                continue;
            }
            let found = match crate::placement::link::inspect(&path, approvals.record(&path)) {
                Ok(state) => link_finding(entry, disabled, root, &path, state),
                Err(e) => Some(finding(
                    Urgency::Warning,
                    "broken-link",
                    Some(&entry.name),
                    Some(&path),
                    e.to_string(),
                )),
            };
            findings.extend(found);
        }
    }
}

/// The roots `install` links into: the `[install]` agents' (else the
/// detected ones) at its scope, each once.
fn install_root_dirs(settings: &ProjectSettings, project: &Path, env: &Env) -> Vec<PathBuf> {
    let agents = settings
        .agents
        .clone()
        .unwrap_or_else(|| crate::placement::default_agents(project, env));
    let mut root_dirs: Vec<PathBuf> = Vec::new();
    for dir in agents
        .iter()
        .filter_map(|&a| roots::root_dir(settings.scope, a, project, env))
    {
        if !root_dirs.contains(&dir) {
            root_dirs.push(dir);
        }
    }
    root_dirs
}

/// What is wrong with `state`, found at `path` in `root` where skills.lock
/// expects `entry` linked (or, `disabled`, expects nothing): `None` when
/// it is as expected.
fn link_finding(
    entry: &crate::project::lock::LockedSkill,
    disabled: bool,
    root: &Path,
    path: &Path,
    state: LinkState,
) -> Option<Observation> {
    let name = entry.name.as_str();
    let found = |level, kind, message| Some(finding(level, kind, Some(name), Some(path), message));
    match state {
        LinkState::Missing if !disabled => found(
            Urgency::Warning,
            "not-linked",
            format!(
                "skills.lock pins `{name}` but {} does not exist, so agents reading {} do not see it: run `skillpm install`",
                path.display(),
                root.display()
            ),
        ),
        LinkState::Missing => None,
        // A folder holding exactly the locked tree is skillpm's placement,
        // state or no state (a project copied or mounted without its
        // cache): agents read the right files, `verify` passes and the next
        // `install` adopts it (docs/design.md#agents).
        LinkState::Foreign { .. }
            if crate::placement::link::hash_placed(path).is_ok_and(|h| h.digest == entry.tree) =>
        {
            None
        }
        LinkState::Foreign { what } => found(
            Urgency::Error,
            "foreign-folder",
            format!(
                "{} is {what} skillpm did not create, where skills.lock expects a link to `{name}`; its files are not the locked tree and skillpm never overwrites it: move it out of the agent folder and run `skillpm install`",
                path.display()
            ),
        ),
        state if disabled => found(
            Urgency::Warning,
            "not-linked",
            format!(
                "`{name}` is disabled in skills.toml but still linked at {} ({}): run `skillpm install` to remove the link",
                path.display(),
                if matches!(state, LinkState::Copy { .. }) {
                    "a copy"
                } else {
                    "a symlink"
                }
            ),
        ),
        state => {
            let d = state.digest().filter(|d| *d != entry.tree)?;
            found(
                Urgency::Error,
                "stale-link",
                format!(
                    "{} links to {d}, but skills.lock pins {}: run `skillpm install` to relink it",
                    path.display(),
                    entry.tree
                ),
            )
        }
    }
}
