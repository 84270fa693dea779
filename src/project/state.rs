//! What skillpm remembers about a project on this machine, kept in the cache
//! (`<cache>/state/`), never in the project:
//! - `links/<project-key>.json`: the links and folders it placed for a
//!   project, each with the tree and kind it placed, so a later `install`
//!   removes exactly its own stale links, in every scope. This record is
//!   the only thing that makes a folder skillpm's: nothing inside an agent
//!   folder does (a marker file there could be planted or shipped).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::digest::Digest;

#[derive(Debug, Clone)]
pub struct ProjectState {
    dir: PathBuf,
}

/// One link or folder skillpm placed: `<root>/<name>`, standing for
/// `tree`, made as `kind` (`symlink`, `copy`, `hardlink`, `clone`). Records
/// written before placements kept `tree` and `kind` have neither.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlacedLink {
    pub root: PathBuf,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<Digest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

impl PlacedLink {
    pub fn path(&self) -> PathBuf {
        self.root.join(&self.name)
    }
}

/// Every placement skillpm's state records on this machine, by path: what
/// decides whether a folder is skillpm's.
#[derive(Debug, Clone, Default)]
pub struct Placements(std::collections::HashMap<PathBuf, PlacedLink>);

impl Placements {
    /// The placements of one project's record, by path.
    pub fn of(links: &[PlacedLink]) -> Self {
        Placements(links.iter().map(|l| (l.path(), l.clone())).collect())
    }

    pub fn get(&self, path: &Path) -> Option<&PlacedLink> {
        self.0.get(path)
    }
}

#[derive(Serialize, Deserialize, Default)]
struct LinkRecord {
    project: PathBuf,
    links: Vec<PlacedLink>,
}

impl ProjectState {
    /// The state kept in `dir` (the cache's `state/` folder; the caller
    /// knows the cache layout, this model does not).
    pub fn new(dir: &Path) -> Self {
        ProjectState {
            dir: dir.to_owned(),
        }
    }

    fn project_key(project: &Path) -> String {
        let key = Digest::of_bytes(project.as_os_str().as_encoded_bytes()).hex();
        key[..24].to_owned()
    }

    fn links_path(&self, project: &Path) -> PathBuf {
        self.dir
            .join("links")
            .join(format!("{}.json", Self::project_key(project)))
    }

    /// Where `import --replace` keeps the folders it took over for
    /// `project`: `backups/<project key>/`.
    pub fn backup_dir(&self, project: &Path) -> PathBuf {
        self.dir.join("backups").join(Self::project_key(project))
    }

    pub fn placed_links(&self, project: &Path) -> Vec<PlacedLink> {
        std::fs::read(self.links_path(project))
            .ok()
            .and_then(|b| serde_json::from_slice::<LinkRecord>(&b).ok())
            .map(|r| r.links)
            .unwrap_or_default()
    }

    /// Every project's record of the links it placed, as (project, links),
    /// in a stable order. An unreadable record is skipped: a record can only
    /// withhold trust from a link, never grant it.
    pub fn all_placed_links(&self) -> Vec<(PathBuf, Vec<PlacedLink>)> {
        let Ok(entries) = std::fs::read_dir(self.dir.join("links")) else {
            return Vec::new();
        };
        let mut records: Vec<(PathBuf, LinkRecord)> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .filter_map(|e| {
                let bytes = std::fs::read(e.path()).ok()?;
                Some((e.path(), serde_json::from_slice(&bytes).ok()?))
            })
            .collect();
        records.sort_by(|a, b| a.0.cmp(&b.0));
        records
            .into_iter()
            .map(|(_, r)| (r.project, r.links))
            .collect()
    }

    /// The placements `project` recorded, by path: all a run needs when
    /// every folder it places in is inside the project (reading every
    /// project's record would grow with the projects on the machine).
    pub fn project_placements(&self, project: &Path) -> Placements {
        Placements::of(&self.placed_links(project))
    }

    /// Every project's placements, by path (a place two records name goes
    /// by the later record in file order).
    pub fn placements(&self) -> Placements {
        Placements(
            self.all_placed_links()
                .into_iter()
                .flat_map(|(_, links)| links)
                .map(|l| (l.path(), l))
                .collect(),
        )
    }

    /// Records the links placed for `project` (no write when unchanged, so
    /// an install that changes nothing writes nothing).
    pub fn record_links(&self, project: &Path, links: Vec<PlacedLink>) -> std::io::Result<()> {
        let previous = self.placed_links(project);
        self.record_links_over(project, links, &previous)
    }

    /// [`ProjectState::record_links`] when the caller already read the
    /// record (`previous`): the record of a large project is read once a run.
    pub fn record_links_over(
        &self,
        project: &Path,
        mut links: Vec<PlacedLink>,
        previous: &[PlacedLink],
    ) -> std::io::Result<()> {
        links.sort();
        links.dedup();
        if previous == links.as_slice() {
            return Ok(());
        }
        let record = LinkRecord {
            project: project.to_owned(),
            links,
        };
        let json = serde_json::to_vec_pretty(&record).map_err(std::io::Error::other)?;
        // Not flushed: a sync here would make the file system write back
        // every copy just placed (ext4 data=ordered); the reader checks the
        // record, and placed folders are recognised by their own marker.
        crate::fs::write_replacing(&self.links_path(project), &json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_records_are_per_project() {
        let cache = tempfile::tempdir().unwrap();
        let state = ProjectState::new(cache.path());
        let link = PlacedLink {
            root: "/p/.agents/skills".into(),
            name: "pdf".into(),
            tree: None,
            kind: Some("symlink".into()),
        };
        state
            .record_links(Path::new("/p"), vec![link.clone(), link.clone()])
            .unwrap();
        assert_eq!(state.placed_links(Path::new("/p")), vec![link]);
        assert!(state.placed_links(Path::new("/q")).is_empty());
    }
}
