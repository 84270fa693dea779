//! A lone SKILL.md artifact (`type: skill-md`): the whole skill is one file.

use std::path::Path;

use super::writer::TreeWriter;
use super::{Problem, UnpackError};

pub(super) fn unpack(path: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    let mut file = tree.open_artifact(path)?;
    let read_error = Problem::io("read", path);
    tree.copy_file("SKILL.md", false, &mut file, &mut |_| Ok(()), &read_error)
}
