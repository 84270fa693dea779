//! Writing a new key pair: both files or neither, the secret one readable
//! by its owner only.

use std::path::{Path, PathBuf};

use super::PublishError;

/// Writes each file to a temp sibling, then renames them all into place, so
/// a failure never leaves a half-written key. Secret files get mode 0600.
pub fn write_key_files(files: &[(&PathBuf, &String, bool)]) -> Result<(), PublishError> {
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
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if secret { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut file = options
        .open(path)
        .map_err(PublishError::io("cannot create", path))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(PublishError::io("cannot write", path))
}
