//! A v0.1.0 skill: a list of file names, each fetched on its own
//! (`<index dir>/<name>/<file>`). Same name rules and limits as an archive;
//! the server's bytes are streamed in, never trusted for their size.

use std::io::Read;
use std::path::Path;

use super::writer::TreeWriter;
use super::{Limits, Problem, UnpackError};
use crate::digest::HashedTree;

/// Builds a skill in a staging folder from named files, one at a time.
///
/// ```no_run
/// # use skillpm::unpack::{FileList, Limits};
/// # fn demo(staging: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
/// let names = ["SKILL.md", "scripts/run.sh"];
/// FileList::check_names("pdf-tools (v0.1.0)", &names, &Limits::default())?;
/// let mut list = FileList::new(staging, "pdf-tools (v0.1.0)", &Limits::default());
/// list.add_file("SKILL.md", &b"---\nname: pdf-tools\ndescription: d\n---\n"[..])?;
/// list.add_file("scripts/run.sh", &b"#!/bin/sh\n"[..])?;
/// let (tree, _written) = list.finish("pdf-tools")?;
/// # Ok(()) }
/// ```
pub struct FileList {
    tree: TreeWriter,
}

impl FileList {
    /// `staging` must be an existing, empty folder the caller owns.
    pub fn new(staging: &Path, label: &str, limits: &Limits) -> Self {
        FileList {
            tree: TreeWriter::new(staging, label, limits),
        }
    }

    /// Judges a whole list (names, duplicates, case collisions, count) before
    /// anything is fetched, so a hostile index costs no downloads.
    pub fn check_names<S: AsRef<str>>(
        label: &str,
        names: &[S],
        limits: &Limits,
    ) -> Result<(), UnpackError> {
        let mut tree = TreeWriter::new(Path::new(""), label, limits);
        names
            .iter()
            .try_for_each(|name| tree.precheck_file(name.as_ref()))
    }

    /// Adds one file, streamed from `reader` (a failed read is reported as
    /// an I/O error naming the file; fetch errors are the caller's to map).
    pub fn add_file(&mut self, name: &str, mut reader: impl Read) -> Result<(), UnpackError> {
        let read_error = Problem::io("read", Path::new(name));
        self.tree
            .copy_file(name, false, &mut reader, &mut |_| Ok(()), &read_error)
    }

    /// Checks the skill (SKILL.md at the root, valid frontmatter, its name)
    /// and returns the tree as written, with the files' bytes when the
    /// skill was small enough to keep them.
    pub fn finish(
        self,
        expected_name: &str,
    ) -> Result<(HashedTree, Option<super::FilesAsWritten>), UnpackError> {
        self.tree.finish(expected_name)
    }
}
