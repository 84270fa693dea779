//! Writing a new key pair: both files or neither, the secret one readable
//! by its owner only.

use std::path::{Path, PathBuf};

use super::PublishError;
use super::sign::{self, GeneratedKey};

/// A new key pair written to `<prefix>.key` and `<prefix>.pub` (refused
/// when either exists, unless `force`); returns the key and both paths.
pub fn create(
    prefix: &Path,
    force: bool,
    comment: &str,
    password: Option<&str>,
) -> Result<(GeneratedKey, PathBuf, PathBuf), PublishError> {
    let with_ext = |ext: &str| {
        let mut s = prefix.to_path_buf().into_os_string();
        s.push(ext);
        PathBuf::from(s)
    };
    let (secret_path, public_path) = (with_ext(".key"), with_ext(".pub"));
    if !force {
        for path in [&secret_path, &public_path] {
            if std::fs::symlink_metadata(path).is_ok() {
                return Err(PublishError::KeyExists { path: path.clone() });
            }
        }
    }
    let key = sign::generate(comment, password)?;
    if let Some(parent) = secret_path.parent() {
        std::fs::create_dir_all(parent).map_err(PublishError::io("cannot create", parent))?;
    }
    write_key_files(&[
        (&secret_path, &key.secret_file, true),
        (&public_path, &key.public_file, false),
    ])?;
    Ok((key, secret_path, public_path))
}

/// Writes each file to a temp sibling, then renames them all into place, so
/// a failure never leaves a half-written key. Secret files get mode 0600.
fn write_key_files(files: &[(&PathBuf, &String, bool)]) -> Result<(), PublishError> {
    let mut temps = Vec::new();
    let written = (|| {
        for (path, text, secret) in files {
            let temp = path.with_file_name(format!(
                ".{}.tmp-{:016x}",
                path.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default(),
                fastrand::u64(..)
            ));
            temps.push(temp.clone());
            write_new(&temp, text.as_bytes(), *secret)?;
        }
        for (temp, (path, _, _)) in temps.iter().zip(files) {
            std::fs::rename(temp, path).map_err(PublishError::io("cannot write", *path))?;
        }
        Ok(())
    })();
    if written.is_err() {
        for t in &temps {
            let _ = std::fs::remove_file(t);
        }
    }
    written
}

fn write_new(path: &Path, bytes: &[u8], secret: bool) -> Result<(), PublishError> {
    use std::io::Write;
    let mut file = crate::fs::create_new(path, if secret { 0o600 } else { 0o644 })
        .map_err(PublishError::io("cannot create", path))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(PublishError::io("cannot write", path))
}
