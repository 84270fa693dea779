//! What skillpm remembers about a project on this machine, kept in the cache
//! (`<cache>/state/`), never in the project:
//! - `links/<project-key>.json`: the links and folders it placed for a
//!   project, each with the tree and kind it placed, so a later `install`
//!   removes exactly its own stale links, in every scope. This record is
//!   the only thing that makes a folder skillpm's: nothing inside an agent
//!   folder does (a marker file there could be planted or shipped).
//!
//! - `sealed-folders/<project-key>`: the agent folders whose symlinks a
//!   run found all in place, each with its stamp, so a no-op install reads
//!   one folder's stamp instead of every link in it
//!   (docs/performance.md#the-no-op-install). It grants nothing: a folder
//!   it names is read link by link unless its stamp still matches.
//!
//! The cache is content, not authority (docs/threat-model.md): whoever
//! writes the cache could write a record naming any folder. A record
//! therefore carries an HMAC by the user's record key
//! (`crate::trust::RecordKey`, as the cache's other records), over the
//! project and its links; one without a valid MAC is ignored (none of the
//! folders it names is skillpm's) and reported once
//! ([`ProjectState::take_rejected`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::digest::Digest;
use crate::trust::RecordKey;

/// The record kind the MAC binds (no other record's MAC can stand for one).
const MAC_KIND: &[u8] = b"placements";
/// The same for a sealed-folders record, and its first line's start.
const FOLDERS_MAC_KIND: &[u8] = b"sealed-folders";
const FOLDERS_HEADER: &str = "skillpm-sealed-folders 1";

#[derive(Debug, Clone)]
pub struct ProjectState {
    dir: PathBuf,
    key: Option<&'static RecordKey>,
    /// Records read that failed their MAC, and those already reported.
    rejected: Arc<Mutex<(BTreeSet<PathBuf>, BTreeSet<PathBuf>)>>,
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

/// An agent folder a run found holding exactly the symlinks it should
/// (`placement::sealed` decides which, docs/performance.md#the-no-op-install):
/// while `stamp` is what `stat` says of the folder, no entry in it was
/// added, removed or renamed, and a symlink cannot change in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedFolder {
    pub root: PathBuf,
    /// `<device> <inode> <mtime-ns> <ctime-ns>` of the folder.
    pub stamp: String,
    /// The digest of the links it holds: each name and its target.
    pub links: Digest,
}

/// A record's content: the project and its links. On disk it is one line
/// of JSON followed by `mac <hex>`, the HMAC-SHA256 of [`MAC_KIND`] and
/// exactly those JSON bytes by the user's record key: the bytes read are
/// the bytes checked, so a large record is hashed, not serialised again.
#[derive(Serialize, Deserialize, Default)]
struct LinkRecord {
    project: PathBuf,
    links: Vec<PlacedLink>,
}
impl ProjectState {
    /// The state kept in `dir` (the cache's `state/` folder; the caller
    /// knows the cache layout, this model does not), its records keyed by
    /// the user's record key.
    pub fn new(dir: &Path) -> Self {
        Self::with_key(dir, RecordKey::user())
    }

    /// [`ProjectState::new`] with records keyed by `key` (`None`: no record
    /// is written, none is believed).
    pub fn with_key(dir: &Path, key: Option<&'static RecordKey>) -> Self {
        ProjectState {
            dir: dir.to_owned(),
            key,
            rejected: Arc::default(),
        }
    }

    /// The record at `path`, when its MAC verifies; one that exists and does
    /// not is remembered as rejected.
    fn read_record(&self, path: &Path) -> Option<LinkRecord> {
        let bytes = std::fs::read(path).ok()?;
        let record = self
            .authentic(&bytes)
            .and_then(|json| serde_json::from_slice::<LinkRecord>(json).ok());
        if record.is_none()
            && let Ok(mut rejected) = self.rejected.lock()
        {
            rejected.0.insert(path.to_owned());
        }
        record
    }

    /// The JSON of a record file whose last line is a valid MAC of it.
    fn authentic<'b>(&self, bytes: &'b [u8]) -> Option<&'b [u8]> {
        let key = self.key?;
        let body = bytes.strip_suffix(b"\n")?;
        let split = body.iter().rposition(|&b| b == b'\n')?;
        let (json, mac_line) = (&body[..split], &body[split + 1..]);
        let mac = std::str::from_utf8(mac_line.strip_prefix(b"mac ")?).ok()?;
        key.verify_hex(&[MAC_KIND, json], mac).then_some(json)
    }

    /// Records read so far that failed their MAC and were ignored, each
    /// returned once (the caller reports them).
    pub fn take_rejected(&self) -> Vec<PathBuf> {
        let Ok(mut guard) = self.rejected.lock() else {
            return Vec::new();
        };
        let (rejected, reported) = &mut *guard;
        let new: Vec<PathBuf> = rejected.difference(reported).cloned().collect();
        reported.extend(new.iter().cloned());
        new
    }

    fn was_rejected(&self, path: &Path) -> bool {
        self.rejected.lock().is_ok_and(|r| r.0.contains(path))
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

    /// The links `project`'s record names (none when the record is missing,
    /// unreadable, fails its MAC or is another project's).
    pub fn placed_links(&self, project: &Path) -> Vec<PlacedLink> {
        self.read_record(&self.links_path(project))
            .filter(|r| r.project == project)
            .map(|r| r.links)
            .unwrap_or_default()
    }

    /// Every project's record of the links it placed, as (project, links),
    /// in a stable order. An unreadable or unauthenticated record is
    /// skipped: a record can only withhold trust from a link, never grant it.
    pub fn all_placed_links(&self) -> Vec<(PathBuf, Vec<PlacedLink>)> {
        let Ok(entries) = std::fs::read_dir(self.dir.join("links")) else {
            return Vec::new();
        };
        let mut records: Vec<(PathBuf, LinkRecord)> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .filter_map(|e| {
                let record = self.read_record(&e.path())?;
                // A record copied under another project's name is not its.
                (e.path() == self.links_path(&record.project)).then_some((e.path(), record))
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

    fn folders_path(&self, project: &Path) -> PathBuf {
        self.dir
            .join("sealed-folders")
            .join(Self::project_key(project))
    }

    /// The folders `project`'s sealed-folders record names, when it was
    /// written in the boot `boot` and its MAC (over the project's path and
    /// the record) holds; none otherwise. After a crash the boot differs:
    /// what the folders held then may not be what the disk kept.
    pub fn sealed_folders(&self, project: &Path, boot: &str) -> Vec<SealedFolder> {
        let Some(key) = self.key else {
            return Vec::new();
        };
        let Ok(text) = std::fs::read_to_string(self.folders_path(project)) else {
            return Vec::new();
        };
        let Some((body, mac)) = text
            .strip_suffix('\n')
            .and_then(|t| t.rsplit_once('\n'))
            .and_then(|(body, mac)| Some((body, mac.strip_prefix("mac ")?)))
        else {
            return Vec::new();
        };
        let project_bytes = project.as_os_str().as_encoded_bytes();
        if !key.verify_hex(&[FOLDERS_MAC_KIND, project_bytes, body.as_bytes()], mac) {
            return Vec::new();
        }
        let mut lines = body.lines();
        if lines.next() != Some(format!("{FOLDERS_HEADER} {boot}").as_str()) {
            return Vec::new();
        }
        // `<links digest> <dev> <inode> <mtime> <ctime> <root>`
        lines
            .filter_map(|line| {
                let (links, rest) = line.split_once(' ')?;
                let mut end = 0;
                for _ in 0..4 {
                    end += rest[end..].find(' ')? + 1;
                }
                Some(SealedFolder {
                    root: PathBuf::from(&rest[end..]),
                    stamp: rest[..end - 1].to_owned(),
                    links: Digest::from_hex(links)?,
                })
            })
            .collect()
    }

    /// Writes `project`'s sealed-folders record for the boot `boot`
    /// (a folder whose path is not one line of text is left out).
    pub fn record_sealed_folders(
        &self,
        project: &Path,
        boot: &str,
        folders: &[SealedFolder],
    ) -> std::io::Result<()> {
        let Some(key) = self.key else {
            return Ok(());
        };
        let mut body = format!("{FOLDERS_HEADER} {boot}");
        for f in folders {
            if let Some(root) = f.root.to_str().filter(|r| !r.contains('\n')) {
                body.push_str(&format!("\n{} {} {root}", f.links.hex(), f.stamp));
            }
        }
        let project_bytes = project.as_os_str().as_encoded_bytes();
        let mac = key.mac_hex(&[FOLDERS_MAC_KIND, project_bytes, body.as_bytes()]);
        let path = self.folders_path(project);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::fs::write_replacing(&path, format!("{body}\nmac {mac}\n").as_bytes())
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
        let path = self.links_path(project);
        // A rejected record is replaced even when nothing changed, so it is
        // reported once.
        if previous == links.as_slice() && !self.was_rejected(&path) {
            return Ok(());
        }
        // Without a key no record could be told from a forged one.
        let Some(bytes) = self.links_record_bytes(project, links)? else {
            return Ok(());
        };
        // Not flushed: a sync here would make the file system write back
        // every copy just placed (ext4 data=ordered); the reader checks the
        // record, and placed folders are recognised by their own marker.
        crate::fs::write_replacing(&path, &bytes)
    }

    /// Whether `project`'s links record is, byte for byte, the one
    /// [`ProjectState::record_links_over`] writes for `links`: an authentic
    /// record (its MAC is the user's key's) naming exactly those links,
    /// told without parsing it.
    pub fn links_record_is(&self, project: &Path, mut links: Vec<PlacedLink>) -> bool {
        links.sort();
        links.dedup();
        let Ok(Some(wanted)) = self.links_record_bytes(project, links) else {
            return false;
        };
        std::fs::read(self.links_path(project)).is_ok_and(|found| found == wanted)
    }

    /// The bytes of `project`'s record of `links` (sorted, deduplicated):
    /// its JSON and MAC line (`None` without a record key).
    fn links_record_bytes(
        &self,
        project: &Path,
        links: Vec<PlacedLink>,
    ) -> std::io::Result<Option<Vec<u8>>> {
        let Some(key) = self.key else {
            return Ok(None);
        };
        let record = LinkRecord {
            project: project.to_owned(),
            links,
        };
        let mut json = serde_json::to_vec(&record).map_err(std::io::Error::other)?;
        let mac = key.mac_hex(&[MAC_KIND, &json]);
        json.extend_from_slice(format!("\nmac {mac}\n").as_bytes());
        Ok(Some(json))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_records_are_per_project() {
        let cache = tempfile::tempdir().unwrap();
        let state = ProjectState::with_key(
            cache.path(),
            Some(RecordKey::leaked_in(&cache.path().join("k"))),
        );
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

    /// A sealed-folders record vouches only in its own boot, for its own
    /// project, under the user's key, as written.
    #[test]
    fn a_sealed_folders_record_holds_only_as_written() {
        let cache = tempfile::tempdir().unwrap();
        let key = RecordKey::leaked_in(&cache.path().join("k"));
        let state = ProjectState::with_key(cache.path(), Some(key));
        let (p, boot) = (Path::new("/p"), "0b1d5e5c-0000-4000-8000-000000000001");
        let folder = SealedFolder {
            root: "/p/.claude/skills".into(),
            stamp: "66306 1234 1800000000000000000 1800000000000000001".into(),
            links: Digest::of_bytes(b"links"),
        };
        assert!(state.sealed_folders(p, boot).is_empty(), "none yet");
        state
            .record_sealed_folders(p, boot, std::slice::from_ref(&folder))
            .unwrap();
        assert_eq!(
            state.sealed_folders(p, boot),
            vec![folder.clone()],
            "honest"
        );

        // Another boot (a crash since), another project, another key.
        assert!(
            state
                .sealed_folders(p, "0b1d5e5c-0000-4000-8000-000000000002")
                .is_empty()
        );
        let q = Path::new("/q");
        let path = state.folders_path(p);
        let honest = std::fs::read_to_string(&path).unwrap();
        std::fs::create_dir_all(state.folders_path(q).parent().unwrap()).unwrap();
        std::fs::write(state.folders_path(q), &honest).unwrap();
        assert!(state.sealed_folders(q, boot).is_empty());
        let other = ProjectState::with_key(
            cache.path(),
            Some(RecordKey::leaked_in(&cache.path().join("o"))),
        );
        assert!(other.sealed_folders(p, boot).is_empty());
        // Edited (another stamp), or torn.
        let edited = honest.replace("1800000000000000001", "1800000000000000002");
        assert_ne!(edited, honest);
        std::fs::write(&path, edited).unwrap();
        assert!(state.sealed_folders(p, boot).is_empty());
        std::fs::write(&path, &honest[..honest.len() - 3]).unwrap();
        assert!(state.sealed_folders(p, boot).is_empty());
        std::fs::write(&path, &honest).unwrap();
        assert_eq!(state.sealed_folders(p, boot), vec![folder]);
    }

    /// A record edited, planted, copied under another project's name or
    /// MAC'd by another key names nothing, and is reported once.
    #[test]
    fn a_record_without_a_valid_mac_names_nothing() {
        let cache = tempfile::tempdir().unwrap();
        let key = RecordKey::leaked_in(&cache.path().join("k"));
        let state = ProjectState::with_key(cache.path(), Some(key));
        let link = PlacedLink {
            root: "/p/.claude/skills".into(),
            name: "pdf".into(),
            tree: Some(Digest::of_bytes(b"t")),
            kind: Some("copy".into()),
        };
        state
            .record_links(Path::new("/p"), vec![link.clone()])
            .unwrap();
        assert_eq!(state.placed_links(Path::new("/p")), vec![link.clone()]);
        assert_eq!(state.all_placed_links().len(), 1);
        assert!(state.take_rejected().is_empty());
        let path = state.links_path(Path::new("/p"));
        let honest = std::fs::read_to_string(&path).unwrap();
        // Another folder written in: the MAC no longer covers it.
        std::fs::write(&path, honest.replace("\"pdf\"", "\".ssh\"")).unwrap();
        assert!(state.placed_links(Path::new("/p")).is_empty());
        assert!(state.all_placed_links().is_empty());
        assert_eq!(state.take_rejected(), vec![path.clone()]);
        assert!(state.take_rejected().is_empty(), "reported once");
        // The honest record copied under another project's name.
        std::fs::write(&path, &honest).unwrap();
        let q = state.links_path(Path::new("/q"));
        std::fs::write(&q, &honest).unwrap();
        assert!(state.placed_links(Path::new("/q")).is_empty());
        assert_eq!(state.all_placed_links().len(), 1);
        // Another key (another user, or a CI secret that differs).
        let other = ProjectState::with_key(
            cache.path(),
            Some(RecordKey::leaked_in(&cache.path().join("o"))),
        );
        assert!(other.placed_links(Path::new("/p")).is_empty());
        // The rejected record is replaced by an authentic one on the next write.
        other.record_links(Path::new("/p"), Vec::new()).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("\nmac "));
        assert!(other.placed_links(Path::new("/p")).is_empty());
        assert!(other.take_rejected().contains(&path));
    }
}
