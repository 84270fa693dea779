//! A temp machine for the agent-facing commands: a home folder, a project
//! and a skillpm cache, with every environment variable that moves a skill
//! root pointed inside it (admin roots included), so nothing outside is
//! ever scanned. Skills are placed the way `install` places them, built by
//! hand: a read-only store entry named by its tree digest, a real symlink
//! into it from a root, and a `skills.lock` entry.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use crate::support::write;

/// The shared sandbox (`root`, `home`, `project`, `cache`, `cmd()`) with
/// the lock entries written so far.
pub struct World {
    pub sb: crate::support::cli::Sandbox,
    locked: Vec<String>,
}

impl std::ops::Deref for World {
    type Target = crate::support::cli::Sandbox;

    fn deref(&self) -> &Self::Target {
        &self.sb
    }
}

/// How a skill should appear in `skills.lock`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    Approved,
    Unapproved,
    /// Linked, but no lock entry at all.
    Unlocked,
}

pub struct Installed {
    pub entry: PathBuf,
    pub link: PathBuf,
    pub tree: String,
}

impl World {
    pub fn new() -> World {
        let sb = crate::support::cli::Sandbox::new();
        for d in [&sb.project.join(".git"), &sb.cache] {
            std::fs::create_dir_all(d).unwrap();
        }
        World {
            sb,
            locked: Vec::new(),
        }
    }

    /// The same `skillpm`, as a plain process (for stdio protocols).
    pub fn process(&self) -> std::process::Command {
        self.sb.process_in(&self.project)
    }

    pub fn agents_root(&self) -> PathBuf {
        self.project.join(".agents/skills")
    }

    /// A hand-written skill folder (unmanaged) at `dir`.
    pub fn write_skill(&self, dir: &Path, name: &str, description: &str, body: &str) {
        write(
            &dir.join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n{body}"),
        );
    }

    /// Installs `name` the way `skillpm install` does: store entry, link in
    /// `<project>/.agents/skills`, lock entry. `files` are extra files
    /// (path, content); a path ending in `.sh` is made executable.
    pub fn install(
        &mut self,
        name: &str,
        frontmatter_extra: &str,
        body: &str,
        files: &[(&str, &str)],
        approval: Approval,
    ) -> Installed {
        let link_root = self.agents_root();
        self.install_into(&link_root, name, frontmatter_extra, body, files, approval)
    }

    pub fn install_into(
        &mut self,
        link_root: &Path,
        name: &str,
        frontmatter_extra: &str,
        body: &str,
        files: &[(&str, &str)],
        approval: Approval,
    ) -> Installed {
        let stage = self.root.join(format!("stage-{name}"));
        write(
            &stage.join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: The {name} skill, for tests.\n{frontmatter_extra}---\n{body}"
            ),
        );
        let mut executables = Vec::new();
        for (path, content) in files {
            write(&stage.join(path), content);
            if path.ends_with(".sh") {
                set_mode(&stage.join(path), 0o755);
                executables.push(path.to_string());
            }
        }
        let hashed = skillpm::digest::hash_tree(&stage).unwrap();
        let tree = hashed.digest.to_string();
        let entry = self.cache.join("store").join(hashed.digest.file_name());
        std::fs::create_dir_all(self.cache.join("store")).unwrap();
        if entry.exists() {
            std::fs::remove_dir_all(&stage).unwrap();
        } else {
            std::fs::rename(&stage, &entry).unwrap();
            read_only(&entry);
        }
        let link = link_root.join(name);
        std::fs::create_dir_all(link_root).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&entry, &link).unwrap();
        if approval != Approval::Unlocked {
            let approved = if approval == Approval::Approved {
                format!("approved = \"{tree}\"\n")
            } else {
                String::new()
            };
            let executables = if executables.is_empty() {
                String::new()
            } else {
                format!(
                    "executables = [{}]\n",
                    executables
                        .iter()
                        .map(|e| format!("\"{e}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            self.locked
                .retain(|b| !b.contains(&format!("name = \"{name}\"\n")));
            self.locked.push(format!(
                "[[skill]]\nname = \"{name}\"\nsource = \"acme\"\nformat = \"path\"\nurl = \"acme-skills\"\nsubpath = \"{name}\"\ntree = \"{tree}\"\n{executables}{approved}"
            ));
            self.save_lock();
        }
        Installed { entry, link, tree }
    }

    pub fn save_lock(&self) {
        let mut text = String::from("version = 1\n");
        for block in &self.locked {
            text.push('\n');
            text.push_str(block);
        }
        write(&self.project.join("skills.lock"), &text);
    }

    /// Writes skills.toml; the source `acme` the world's lock entries name
    /// is declared too (a lock entry of an undeclared source vouches for
    /// nothing).
    pub fn skills_toml(&self, text: &str) {
        let text = if text.contains("[[source]]") {
            text.to_owned()
        } else {
            format!("{text}\n[[source]]\nname = \"acme\"\nurl = \"acme-skills\"\n")
        };
        write(&self.project.join("skills.toml"), &text);
    }

    /// Replaces `path` inside a store entry (making it writable first), as
    /// someone editing an installed skill in place would.
    pub fn tamper(&self, entry: &Path, path: &str, content: &str) {
        let file = entry.join(path);
        set_mode(&file, 0o644);
        std::fs::write(&file, content).unwrap();
    }
}

pub fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// Files read-only, as the store keeps them (folders stay writable so the
/// temp dir can be removed).
fn read_only(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            read_only(&path);
        } else {
            let exec = std::fs::metadata(&path).unwrap().permissions();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if exec.mode() & 0o100 != 0 {
                    0o555
                } else {
                    0o444
                };
                set_mode(&path, mode);
            }
        }
    }
}
