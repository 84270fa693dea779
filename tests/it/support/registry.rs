//! Builds registries on disk the way publishers lay them out: v0.2.0 with
//! real `.tar.gz` artifacts and digests (plus the skillpm `files` extension
//! and the tree under `<name>/`), and v0.1.0 file lists.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::Digest as _;

use super::keys::TestKey;

pub const SCHEMA_V2: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
pub const V2_DIR: &str = ".well-known/agent-skills";
pub const V1_DIR: &str = ".well-known/skills";

/// One skill's files (SKILL.md first).
#[derive(Debug, Clone)]
pub struct SkillFiles {
    pub name: String,
    pub description: String,
    pub version: Option<String>,
    /// (relative path, content, executable)
    pub files: Vec<(String, Vec<u8>, bool)>,
}

impl SkillFiles {
    /// `skill-NNN` of the benchmarks: SKILL.md plus 4 files of 2-5 KB, one
    /// of them an executable script.
    pub fn bench(i: usize) -> SkillFiles {
        let filler = |label: &str, kb: usize| {
            let line = format!("{label} of skill {i}: some reference text for the agent.\n");
            line.repeat(kb * 1024 / line.len() + 1)
        };
        SkillFiles::new(&format!("skill-{i:03}"))
            .description(&format!("Benchmark skill number {i}"))
            .version("1.0.0")
            .file("references/GUIDE.md", filler("guide", 4))
            .file("references/API.md", filler("api", 3))
            .file("assets/template.md", filler("template", 2))
            .executable(
                "scripts/run.sh",
                format!("#!/bin/sh\n{}", filler("# script", 2)),
            )
    }

    pub fn new(name: &str) -> Self {
        let mut skill = SkillFiles {
            name: name.to_owned(),
            description: format!("Test skill {name}"),
            version: None,
            files: Vec::new(),
        };
        skill.write_skill_md();
        skill
    }

    pub fn description(mut self, description: &str) -> Self {
        self.description = description.to_owned();
        self.write_skill_md();
        self
    }

    pub fn version(mut self, version: &str) -> Self {
        self.version = Some(version.to_owned());
        self
    }

    pub fn file(mut self, path: &str, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.to_owned(), content.into(), false));
        self
    }

    pub fn executable(mut self, path: &str, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.to_owned(), content.into(), true));
        self
    }

    /// Adds `assets/payload.bin` of `size` pseudo-random bytes (incompressible).
    pub fn payload(self, size: usize, seed: u64) -> Self {
        let mut rng = fastrand::Rng::with_seed(seed);
        let bytes: Vec<u8> = (0..size).map(|_| rng.u8(..)).collect();
        self.file("assets/payload.bin", bytes)
    }

    fn write_skill_md(&mut self) {
        let md = format!(
            "---\nname: {}\ndescription: {}\n---\n\n# {}\n\nUse it well.\n",
            self.name, self.description, self.name
        );
        self.files.retain(|(p, _, _)| p != "SKILL.md");
        self.files
            .insert(0, ("SKILL.md".into(), md.into_bytes(), false));
    }

    pub fn paths(&self) -> Vec<String> {
        self.files.iter().map(|(p, _, _)| p.clone()).collect()
    }

    /// A deterministic `.tar.gz` with SKILL.md at the root.
    pub fn tar_gz(&self) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut tar = tar::Builder::new(gz);
        let mut files = self.files.clone();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, content, exec) in &files {
            let mut header = tar::Header::new_ustar();
            header.set_size(content.len() as u64);
            header.set_mode(if *exec { 0o755 } else { 0o644 });
            header.set_mtime(1_700_000_000);
            header.set_entry_type(tar::EntryType::Regular);
            tar.append_data(&mut header, path, content.as_slice())
                .unwrap();
        }
        tar.into_inner().unwrap().finish().unwrap()
    }

    /// Writes the files under `dir/<name>/`.
    pub fn write_tree(&self, dir: &Path) {
        for (path, content, exec) in &self.files {
            let full = dir.join(&self.name).join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, content).unwrap();
            #[cfg(unix)]
            if *exec {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&full, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
    }
}

/// `sha256:<hex>` of some bytes.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

/// A registry rooted at a folder (what a web server's document root holds).
#[derive(Debug, Clone)]
pub struct Registry {
    pub root: PathBuf,
}

impl Registry {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        std::fs::create_dir_all(&root).unwrap();
        Registry { root }
    }

    pub fn v2_index(&self) -> PathBuf {
        self.root.join(V2_DIR).join("index.json")
    }

    pub fn v1_index(&self) -> PathBuf {
        self.root.join(V1_DIR).join("index.json")
    }

    /// URL path of a file in the v0.2.0 folder, e.g. `/.well-known/agent-skills/a.tar.gz`.
    pub fn v2_path(file: &str) -> String {
        format!("/{V2_DIR}/{file}")
    }

    /// Writes a v0.2.0 registry: `<name>.tar.gz` artifacts with digests, the
    /// `files` and `version` extensions, and each tree under `<name>/`.
    /// Returns the index as written.
    pub fn write_v2(&self, skills: &[SkillFiles]) -> Value {
        let dir = self.root.join(V2_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        let mut entries = Vec::new();
        for skill in skills {
            let archive = skill.tar_gz();
            let file = format!("{}.tar.gz", skill.name);
            std::fs::write(dir.join(&file), &archive).unwrap();
            skill.write_tree(&dir);
            let mut entry = json!({
                "name": skill.name,
                "type": "archive",
                "description": skill.description,
                "url": file,
                "digest": digest(&archive),
                "files": skill.paths(),
            });
            if let Some(v) = &skill.version {
                entry["version"] = json!(v);
            }
            entries.push(entry);
        }
        let index = json!({"$schema": SCHEMA_V2, "skills": entries});
        self.write_index(&self.v2_index(), &index);
        index
    }

    /// Writes a v0.1.0 registry (file lists, no digests).
    pub fn write_v1(&self, skills: &[SkillFiles]) -> Value {
        let dir = self.root.join(V1_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        let entries: Vec<Value> = skills
            .iter()
            .map(|s| {
                s.write_tree(&dir);
                json!({"name": s.name, "description": s.description, "files": s.paths()})
            })
            .collect();
        let index = json!({"skills": entries});
        self.write_index(&self.v1_index(), &index);
        index
    }

    /// Writes `value` as pretty JSON; returns the exact bytes.
    pub fn write_index(&self, path: &Path, value: &Value) -> Vec<u8> {
        let bytes = serde_json::to_vec_pretty(value).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &bytes).unwrap();
        bytes
    }

    /// Signs the v0.2.0 index as it is on disk (`index.json.minisig`).
    pub fn sign_v2(&self, key: &TestKey, trusted_comment: &str) {
        let bytes = std::fs::read(self.v2_index()).unwrap();
        self.write_signature(&key.sign(&bytes, trusted_comment));
    }

    /// Writes `index.json.minisig` beside the v0.2.0 index.
    pub fn write_signature(&self, text: &str) {
        let mut f = std::fs::File::create(self.v2_index().with_extension("json.minisig")).unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }
}
