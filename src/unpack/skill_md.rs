//! A lone SKILL.md artifact (`type: skill-md`): the whole skill is one file.

use std::fs::File;
use std::path::Path;

use super::writer::TreeWriter;
use super::{Problem, UnpackError};

pub(super) fn unpack(path: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    let open_error = |source| {
        tree.error(
            None,
            Problem::Io {
                action: "open",
                path: path.to_owned(),
                source,
            },
        )
    };
    let mut file = File::open(path).map_err(open_error)?;
    let read_error = |source| Problem::Io {
        action: "read",
        path: path.to_owned(),
        source,
    };
    tree.copy_file("SKILL.md", false, &mut file, &mut |_| Ok(()), &read_error)
}
