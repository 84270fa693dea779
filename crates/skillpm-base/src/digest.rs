//! Artifact and tree digests exactly as docs/design.md#digests defines them.
//!
//! The tree digest is the identity of a skill's content whatever archive
//! carried it: it names the store entry and is what a person approves.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sha2::{Digest as _, Sha256};

use crate::error::{Classify, Exit};

/// A sha256 digest, written `sha256:<64 lowercase hex>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest([u8; 32]);

#[derive(Debug, thiserror::Error)]
pub enum DigestError {
    #[error("`{0}` is not a digest: expected `sha256:` followed by 64 lowercase hex characters")]
    Malformed(String),
    #[error("cannot read {path} while hashing: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: {what} is not allowed in a skill tree (only regular files and folders)")]
    NotRegular { path: PathBuf, what: &'static str },
    #[error("{path}: file name is not valid UTF-8")]
    NonUtf8 { path: PathBuf },
}

crate::classified!(DigestError);
impl Classify for DigestError {
    fn exit(&self) -> Exit {
        match self {
            DigestError::Malformed(_) => Exit::Usage,
            DigestError::Io { .. } => Exit::Other,
            DigestError::NotRegular { .. } | DigestError::NonUtf8 { .. } => Exit::Unsafe,
        }
    }
}

impl Digest {
    /// The 32 bytes of the digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    pub fn hex(&self) -> String {
        let mut text = String::with_capacity(64);
        text.push_str(self.hex_str(&mut [0; 64]));
        text
    }

    /// The hex form written into `buf` (ASCII digits, so always text):
    /// one copy, not a character pushed at a time (a no-op install names
    /// 2,000 store paths).
    fn hex_str<'b>(&self, buf: &'b mut [u8; 64]) -> &'b str {
        *buf = self.hex_ascii();
        std::str::from_utf8(buf).unwrap_or_default()
    }

    /// The hex form in a stack buffer: a digest is printed for every store
    /// path, record and lock line, so a no-op install of 500 formats
    /// thousands of them.
    fn hex_ascii(&self) -> [u8; 64] {
        let mut out = [0u8; 64];
        for (i, b) in self.0.iter().enumerate() {
            out[2 * i] = HEX_DIGITS[usize::from(b >> 4)];
            out[2 * i + 1] = HEX_DIGITS[usize::from(b & 15)];
        }
        out
    }

    /// Parses exactly 64 lowercase hex digits.
    pub fn from_hex(hex_part: &str) -> Option<Self> {
        let text = hex_part.as_bytes();
        if text.len() != 64 {
            return None;
        }
        let nibble = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        let mut bytes = [0u8; 32];
        for (i, pair) in text.chunks_exact(2).enumerate() {
            bytes[i] = (nibble(pair[0])? << 4) | nibble(pair[1])?;
        }
        Some(Digest(bytes))
    }

    /// Digest of an in-memory byte slice.
    pub fn of_bytes(bytes: &[u8]) -> Self {
        Digest(Sha256::digest(bytes).into())
    }

    /// Digest of everything a reader yields, streamed in 64 KiB chunks.
    pub fn of_reader(mut reader: impl Read) -> io::Result<Self> {
        let mut hasher = HashingWriter::new(io::sink());
        io::copy(&mut reader, &mut hasher)?;
        Ok(hasher.finish().0)
    }

    pub fn of_file(path: &Path) -> Result<Self, DigestError> {
        let file = std::fs::File::open(path).map_err(io_err(path))?;
        Digest::of_reader(io::BufReader::with_capacity(64 * 1024, file)).map_err(io_err(path))
    }

    /// The file-system-safe form used for store and download names: `sha256-<hex>`.
    pub fn file_name(&self) -> String {
        let mut name = String::with_capacity(71);
        name.push_str("sha256-");
        name.push_str(self.hex_str(&mut [0; 64]));
        name
    }

    /// Parses the file-system form `sha256-<hex>` back into a digest.
    pub fn from_file_name(name: &str) -> Option<Self> {
        Digest::from_hex(name.strip_prefix("sha256-")?)
    }
}

const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = self.hex_ascii();
        f.write_str("sha256:")?;
        f.write_str(std::str::from_utf8(&hex).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

impl FromStr for Digest {
    type Err = DigestError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || DigestError::Malformed(s.to_owned());
        let hex_part = s.strip_prefix("sha256:").ok_or_else(malformed)?;
        Digest::from_hex(hex_part).ok_or_else(malformed)
    }
}

impl serde::Serialize for Digest {
    /// `sha256:<hex>` from a stack buffer, not through the formatter (a
    /// no-op install writes 2,000 of them into the key of its proof memo).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut text = [0u8; 71];
        text[..7].copy_from_slice(b"sha256:");
        text[7..].copy_from_slice(&self.hex_ascii());
        serializer.serialize_str(std::str::from_utf8(&text).unwrap_or_default())
    }
}

impl<'de> serde::Deserialize<'de> for Digest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Digest::from_str(&s).map_err(serde::de::Error::custom)
    }
}

/// A writer that hashes everything passing through it, so downloads and
/// extraction hash the bytes they actually write, in one pass.
pub struct HashingWriter<W> {
    inner: W,
    hasher: Sha256,
    written: u64,
}

impl<W: Write> HashingWriter<W> {
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            hasher: Sha256::new(),
            written: 0,
        }
    }

    pub fn written(&self) -> u64 {
        self.written
    }

    /// Returns the digest, the byte count and the inner writer.
    pub fn finish(self) -> (Digest, u64, W) {
        (
            Digest(self.hasher.finalize().into()),
            self.written,
            self.inner,
        )
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that hashes everything read through it, so a file parsed as a
/// stream is checked against its name in the same pass.
pub struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
}

impl<R: io::Read> HashingReader<R> {
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            hasher: Sha256::new(),
        }
    }

    /// The digest of everything read so far.
    pub fn finish(self) -> Digest {
        Digest(self.hasher.finalize().into())
    }
}

impl<R: io::Read> io::Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// Incremental builder of a tree digest from (relative path, content digest)
/// pairs given in any order.
#[derive(Debug, Default, Clone)]
pub struct TreeHasher {
    files: Vec<(String, Digest)>,
}

impl TreeHasher {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one regular file; `path` is relative with `/` separators.
    pub fn add(&mut self, path: impl Into<String>, content: Digest) {
        self.files.push((path.into(), content));
    }

    pub fn finish(mut self) -> Digest {
        self.files
            .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut hasher = Sha256::new();
        for (path, content) in &self.files {
            hasher.update(path.as_bytes());
            hasher.update([0u8]);
            hasher.update(content.hex().as_bytes());
            hasher.update(b"\n");
        }
        Digest(hasher.finalize().into())
    }
}

/// One regular file of a tree on disk, as the tree digest sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TreeFile {
    /// Relative path with `/` separators.
    pub path: String,
    pub size: u64,
    pub digest: Digest,
    pub executable: bool,
}

/// A skill tree on disk, hashed: its digest and every file in path order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HashedTree {
    pub digest: Digest,
    pub files: Vec<TreeFile>,
}

impl HashedTree {
    /// The tree of `files`, given in any order: sorted by path and hashed.
    pub fn from_files(mut files: Vec<TreeFile>) -> Self {
        files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        let mut hasher = TreeHasher::new();
        for f in &files {
            hasher.add(f.path.clone(), f.digest);
        }
        HashedTree {
            digest: hasher.finish(),
            files,
        }
    }

    pub fn executables(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|f| f.executable)
            .map(|f| f.path.clone())
            .collect()
    }
}

/// Hashes the tree under `root`. Symlinks and special files are refused, never
/// followed, so a digest always describes bytes that really live in the tree.
pub fn hash_tree(root: &Path) -> Result<HashedTree, DigestError> {
    hash_tree_where(root, &|_, _| true)
}

/// Like [`hash_tree`], over only the entries `keep(relative path, is a
/// folder)` keeps (a folder left out is not entered). `publish` uses it to
/// leave out what it does not publish.
pub fn hash_tree_where(
    root: &Path,
    keep: &dyn Fn(&str, bool) -> bool,
) -> Result<HashedTree, DigestError> {
    let mut files = Vec::new();
    walk(root, root, keep, &mut files)?;
    Ok(HashedTree::from_files(files))
}

/// Computes only the tree digest of `root`.
pub fn tree_digest(root: &Path) -> Result<Digest, DigestError> {
    hash_tree(root).map(|t| t.digest)
}

/// What a failed read of `path` means.
fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DigestError + '_ {
    move |source| DigestError::Io {
        path: path.to_owned(),
        source,
    }
}

fn walk(
    root: &Path,
    dir: &Path,
    keep: &dyn Fn(&str, bool) -> bool,
    out: &mut Vec<TreeFile>,
) -> Result<(), DigestError> {
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let path = entry.path();
        let file_type = entry.file_type().map_err(io_err(&path))?;
        if !keep(&relative_slash_path(root, &path)?, file_type.is_dir()) {
            continue;
        }
        if file_type.is_dir() {
            walk(root, &path, keep, out)?;
        } else if file_type.is_file() {
            let rel = relative_slash_path(root, &path)?;
            let meta = entry.metadata().map_err(io_err(&path))?;
            out.push(TreeFile {
                path: rel,
                size: meta.len(),
                digest: Digest::of_file(&path)?,
                executable: is_executable(&meta),
            });
        } else {
            let what = if file_type.is_symlink() {
                "a symlink"
            } else {
                "a special file"
            };
            return Err(DigestError::NotRegular { path, what });
        }
    }
    Ok(())
}

fn relative_slash_path(root: &Path, path: &Path) -> Result<String, DigestError> {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    parts
        .map(|p| p.join("/"))
        .ok_or_else(|| DigestError::NonUtf8 {
            path: path.to_owned(),
        })
}

/// Whether the owner-execute bit is set (always false where there is none).
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o100 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// What changed between the approved tree and the candidate.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct TreeDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    pub executables_added: Vec<String>,
    pub executables_removed: Vec<String>,
}

impl TreeDiff {
    pub fn is_empty(&self) -> bool {
        *self == TreeDiff::default()
    }
}

/// Compares two hashed trees file by file.
pub fn diff_trees(old: &HashedTree, new: &HashedTree) -> TreeDiff {
    let old_files: std::collections::BTreeMap<_, _> =
        old.files.iter().map(|f| (f.path.as_str(), f)).collect();
    let new_files: std::collections::BTreeMap<_, _> =
        new.files.iter().map(|f| (f.path.as_str(), f)).collect();
    let mut diff = TreeDiff::default();
    for (path, nf) in &new_files {
        let old = old_files.get(path);
        match old {
            None => diff.added.push(path.to_string()),
            Some(of) if of.digest != nf.digest => diff.changed.push(path.to_string()),
            Some(_) => {}
        }
        let was_executable = old.is_some_and(|of| of.executable);
        if nf.executable && !was_executable {
            diff.executables_added.push(path.to_string());
        }
        if was_executable && !nf.executable {
            diff.executables_removed.push(path.to_string());
        }
    }
    for path in old_files.keys() {
        if !new_files.contains_key(path) {
            diff.removed.push(path.to_string());
        }
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTOR: &str = "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e";

    #[test]
    fn tree_digest_matches_the_design_test_vector() {
        let mut h = TreeHasher::new();
        // Added out of order on purpose: the digest must sort by path.
        h.add("scripts/run.sh", Digest::of_bytes(b"#!/bin/sh\n"));
        h.add("SKILL.md", Digest::of_bytes(b"# Hello\n"));
        assert_eq!(h.finish().to_string(), VECTOR);
    }

    #[test]
    fn tree_digest_on_disk_matches_the_test_vector() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("scripts")).unwrap();
        std::fs::write(dir.path().join("SKILL.md"), "# Hello\n").unwrap();
        std::fs::write(dir.path().join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        let tree = hash_tree(dir.path()).unwrap();
        assert_eq!(tree.digest.to_string(), VECTOR);
        assert_eq!(tree.files.len(), 2);
        assert_eq!(tree.files[0].path, "SKILL.md");
        assert_eq!(tree.files[1].size, 10);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("SKILL.md"), "# Hello\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("leak")).unwrap();
        let err = hash_tree(dir.path()).unwrap_err();
        assert!(matches!(err, DigestError::NotRegular { .. }), "{err}");
    }

    #[test]
    fn digest_round_trips_and_rejects_bad_forms() {
        let d: Digest = VECTOR.parse().unwrap();
        assert_eq!(d.to_string(), VECTOR);
        assert_eq!(Digest::from_file_name(&d.file_name()), Some(d));
        for bad in [
            "sha256:ABC",
            "md5:34f7",
            &VECTOR.to_uppercase(),
            &VECTOR[..70],
        ] {
            assert!(bad.parse::<Digest>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn hashing_writer_counts_and_hashes() {
        let mut w = HashingWriter::new(Vec::new());
        w.write_all(b"# Hello\n").unwrap();
        let (d, n, inner) = w.finish();
        assert_eq!(n, 8);
        assert_eq!(inner, b"# Hello\n");
        assert_eq!(d, Digest::of_bytes(b"# Hello\n"));
    }
}
