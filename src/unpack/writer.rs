//! The one tree writer (docs/architecture.md): every untrusted tree skillpm
//! writes to disk goes through [`TreeWriter`] — a skill into its staging
//! folder (every artifact kind and folder source), and a git tree or GitHub
//! archive into its checkout (`crate::git`, which adds its skip-and-record
//! policy on top). It takes relative names, an executable bit and bytes; it
//! applies the name rules (`crate::names`), the limits on the bytes actually
//! written, creates files without ever following or making a link, and
//! hashes each file as it writes it, so the tree digest describes exactly
//! what is on disk.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::{Limits, Problem, UnpackError, UnpackRule};
use crate::digest::{HashedTree, HashingWriter, TreeFile};
use crate::names::{NameRule, NameSet, check_name};

/// Read size: big enough that syscalls and hashing amortise, small enough
/// that memory stays flat whatever the skill's size.
const CHUNK: usize = 256 * 1024;

thread_local! {
    static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

pub(crate) struct TreeWriter {
    root: PathBuf,
    /// A checkout (files the user may edit, 0644/0755, not hashed: the
    /// store hashes what it imports) rather than a staging tree (read-only
    /// files, hashed as written).
    checkout: bool,
    label: String,
    limits: Limits,
    names: NameSet,
    entries: u64,
    total: u64,
    files: Vec<TreeFile>,
    made_dirs: HashSet<String>,
    /// Every file's bytes as written, while they total at most
    /// [`KEPT_BYTES`] (a staging tree only): the audit judges them from
    /// memory instead of reading the entry back (see [`FilesAsWritten`]).
    kept: Option<Vec<(String, Vec<u8>)>>,
    kept_bytes: u64,
}

/// The files of a tree just written, `/`-separated paths with their bytes,
/// sorted by path (as the audit lists a folder): what a store entry holds,
/// without reading it back.
pub type FilesAsWritten = Vec<(String, Vec<u8>)>;

/// A tree whose files total more is read back from disk when judged.
const KEPT_BYTES: u64 = 1 << 20;

/// A file being written: created, hashed as bytes arrive.
pub(crate) struct OpenFile {
    name: String,
    path: PathBuf,
    out: Out,
    executable: bool,
    /// Its place in [`TreeWriter::kept`].
    kept: Option<usize>,
}

/// Where a file's bytes go: hashed on the way (staging), or straight to
/// the file (a checkout).
enum Out {
    Hashing(HashingWriter<File>),
    Plain { file: File, written: u64 },
}

impl Out {
    fn written(&self) -> u64 {
        match self {
            Out::Hashing(h) => h.written(),
            Out::Plain { written, .. } => *written,
        }
    }

    fn write_all(&mut self, chunk: &[u8]) -> io::Result<()> {
        match self {
            Out::Hashing(h) => h.write_all(chunk),
            Out::Plain { file, written } => {
                file.write_all(chunk)?;
                *written += chunk.len() as u64;
                Ok(())
            }
        }
    }
}

impl OpenFile {
    /// Bytes written so far.
    pub(crate) fn written(&self) -> u64 {
        self.out.written()
    }
}

impl TreeWriter {
    pub(crate) fn new(root: &Path, label: &str, limits: &Limits) -> Self {
        TreeWriter {
            root: root.to_owned(),
            checkout: false,
            label: label.to_owned(),
            limits: *limits,
            names: NameSet::default(),
            entries: 0,
            total: 0,
            files: Vec::new(),
            made_dirs: HashSet::new(),
            kept: Some(Vec::new()),
            kept_bytes: 0,
        }
    }

    /// A writer for a checkout: files the user may edit (0644, 0755 when
    /// executable), not hashed (the store hashes what it imports).
    pub(crate) fn checkout(root: &Path, label: &str, limits: &Limits) -> Self {
        TreeWriter {
            checkout: true,
            kept: None,
            ..TreeWriter::new(root, label, limits)
        }
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Bytes of file content written so far.
    pub(crate) fn total_written(&self) -> u64 {
        self.total
    }

    pub(crate) fn refuse(&self, entry: Option<&str>, rule: impl Into<UnpackRule>) -> UnpackError {
        self.error(entry, Problem::Refused(rule.into()))
    }

    pub(crate) fn error(&self, entry: Option<&str>, problem: Problem) -> UnpackError {
        UnpackError {
            artifact: self.label.clone(),
            entry: entry.map(str::to_owned),
            problem,
        }
    }

    fn io(&self, entry: &str, action: &'static str, path: &Path, source: io::Error) -> UnpackError {
        self.error(Some(entry), Problem::io(action, path)(source))
    }

    /// Opens the artifact file itself (an archive or a lone SKILL.md).
    pub(crate) fn open_artifact(&self, path: &Path) -> Result<File, UnpackError> {
        File::open(path).map_err(|e| self.error(None, Problem::io("open", path)(e)))
    }

    /// Counts one entry of any kind against `max-entries`.
    pub(crate) fn count_entry(&mut self, entry: &str) -> Result<(), UnpackError> {
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(self.refuse(
                Some(entry),
                UnpackRule::TooManyEntries(self.limits.max_entries),
            ));
        }
        Ok(())
    }

    /// Checks a name without counting or registering it (for up-front passes).
    pub(crate) fn check(&self, name: &str) -> Result<(), UnpackError> {
        check_name(name).map_err(|rule| self.refuse(Some(name), rule))
    }

    /// Counts, checks and registers a file name without writing anything:
    /// for judging a whole file list before fetching it.
    pub(crate) fn precheck_file(&mut self, name: &str) -> Result<(), UnpackError> {
        self.register(name, NameSet::add_file)
    }

    /// Counts, checks and registers one entry name with `add`.
    fn register(
        &mut self,
        name: &str,
        add: fn(&mut NameSet, &str) -> Result<(), NameRule>,
    ) -> Result<(), UnpackError> {
        self.count_entry(name)?;
        self.check(name)?;
        add(&mut self.names, name).map_err(|rule| self.refuse(Some(name), rule))
    }

    /// A folder listed as its own entry (`name` without the trailing `/`).
    /// Only folders that hold files are created, so the tree on disk is a
    /// function of its digest.
    pub(crate) fn add_dir(&mut self, name: &str) -> Result<(), UnpackError> {
        self.register(name, NameSet::add_dir)
    }

    /// A folder created now, even if no file ends up in it (a checkout's
    /// folders mirror the tree's).
    pub(crate) fn make_dir(&mut self, name: &str) -> Result<(), UnpackError> {
        self.register(name, NameSet::add_dir)?;
        let path = self.root.join(name);
        std::fs::create_dir(&path).map_err(|e| self.io(name, "create folder", &path, e))?;
        self.made_dirs.insert(name.to_owned());
        Ok(())
    }

    /// Starts a regular file: counted, checked, registered, created.
    pub(crate) fn begin_file(
        &mut self,
        name: &str,
        executable: bool,
    ) -> Result<OpenFile, UnpackError> {
        self.register(name, NameSet::add_file)?;
        for (i, _) in name.match_indices('/') {
            let dir = &name[..i];
            if !self.made_dirs.contains(dir) {
                let path = self.root.join(dir);
                std::fs::create_dir(&path).map_err(|e| self.io(name, "create folder", &path, e))?;
                self.made_dirs.insert(dir.to_owned());
            }
        }
        let path = self.root.join(name);
        let file = create_file(&path, executable, self.checkout)
            .map_err(|e| self.io(name, "create", &path, e))?;
        let out = if self.checkout {
            Out::Plain { file, written: 0 }
        } else {
            Out::Hashing(HashingWriter::new(file))
        };
        let kept = self.kept.as_mut().map(|kept| {
            kept.push((name.to_owned(), Vec::new()));
            kept.len() - 1
        });
        Ok(OpenFile {
            name: name.to_owned(),
            path,
            out,
            executable,
            kept,
        })
    }

    /// Writes the next bytes of `file`, enforcing the size limits.
    pub(crate) fn write_chunk(
        &mut self,
        file: &mut OpenFile,
        chunk: &[u8],
    ) -> Result<(), UnpackError> {
        let len = chunk.len() as u64;
        if file.out.written() + len > self.limits.max_file_size {
            return Err(self.refuse(
                Some(&file.name),
                UnpackRule::FileTooLarge(self.limits.max_file_size),
            ));
        }
        if self.total + len > self.limits.max_skill_size {
            return Err(self.refuse(
                Some(&file.name),
                UnpackRule::SkillTooLarge(self.limits.max_skill_size),
            ));
        }
        file.out
            .write_all(chunk)
            .map_err(|e| self.io(&file.name, "write", &file.path, e))?;
        self.total += len;
        self.keep(file.kept, chunk);
        Ok(())
    }

    /// Keeps `chunk` of the file at `index` in [`TreeWriter::kept`], or
    /// stops keeping once the tree's bytes pass [`KEPT_BYTES`].
    fn keep(&mut self, index: Option<usize>, chunk: &[u8]) {
        let len = chunk.len() as u64;
        if self.kept_bytes + len > KEPT_BYTES {
            self.kept = None;
        } else if let (Some(kept), Some(i)) = (self.kept.as_mut(), index)
            && let Some((_, bytes)) = kept.get_mut(i)
        {
            bytes.extend_from_slice(chunk);
            self.kept_bytes += len;
        }
    }

    /// Closes `file` and records it in the tree.
    pub(crate) fn end_file(&mut self, file: OpenFile) -> Result<(), UnpackError> {
        let OpenFile {
            name,
            out,
            executable,
            ..
        } = file;
        if let Out::Hashing(out) = out {
            let (digest, size, handle) = out.finish();
            drop(handle);
            self.files.push(TreeFile {
                path: name,
                size,
                digest,
                executable,
            });
        }
        Ok(())
    }

    /// Removes a file begun but not wanted after all (a checkout skips a
    /// file above its per-file limit): its bytes no longer count.
    pub(crate) fn discard(&mut self, file: OpenFile) -> Result<(), UnpackError> {
        self.total = self.total.saturating_sub(file.out.written());
        // Its bytes were kept too: keep nothing rather than a wrong list.
        self.kept = None;
        let OpenFile {
            name, path, out, ..
        } = file;
        drop(out);
        std::fs::remove_file(&path).map_err(|e| self.io(&name, "remove", &path, e))
    }

    /// Streams a whole file from `reader`. `guard` sees the entry's running
    /// output count after each chunk (for ratio checks); `read_error` says
    /// what a failed read means for this input kind.
    pub(crate) fn copy_file(
        &mut self,
        name: &str,
        executable: bool,
        reader: &mut dyn Read,
        guard: &mut dyn FnMut(u64) -> Result<(), UnpackRule>,
        read_error: &dyn Fn(io::Error) -> Problem,
    ) -> Result<(), UnpackError> {
        let mut file = self.begin_file(name, executable)?;
        // One buffer per thread, reused by every import: no per-skill
        // allocation and zeroing, which dominates for small skills.
        let mut buf = BUFFER.with(|b| std::mem::take(&mut *b.borrow_mut()));
        buf.resize(CHUNK, 0);
        let result = self.pump(&mut file, reader, &mut buf, guard, read_error);
        BUFFER.with(|b| *b.borrow_mut() = buf);
        result?;
        self.end_file(file)
    }

    fn pump(
        &mut self,
        file: &mut OpenFile,
        reader: &mut dyn Read,
        buf: &mut [u8],
        guard: &mut dyn FnMut(u64) -> Result<(), UnpackRule>,
        read_error: &dyn Fn(io::Error) -> Problem,
    ) -> Result<(), UnpackError> {
        let mut out = 0u64;
        loop {
            let n = match reader.read(buf) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.error(Some(&file.name), read_error(e))),
            };
            self.write_chunk(file, &buf[..n])?;
            out += n as u64;
            guard(out).map_err(|rule| self.refuse(Some(&file.name), rule))?;
        }
    }

    /// Checks the result is a loadable skill (SKILL.md at the root whose
    /// frontmatter parses and has a usable name and description) and returns
    /// its tree, with the files' bytes as written when the tree was small
    /// enough to keep them ([`FilesAsWritten`]). Rules that do not stop
    /// loading are the caller's to judge (lenient or `--strict`): see
    /// [`crate::skill::Level`].
    pub(crate) fn finish(
        mut self,
        expected_name: &str,
    ) -> Result<(HashedTree, Option<FilesAsWritten>), UnpackError> {
        if !self.files.iter().any(|f| f.path == "SKILL.md") {
            return Err(self.refuse(None, self.missing_skill_md()));
        }
        if let Some(kept) = &mut self.kept {
            kept.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        // The bytes just written when they were kept (no read of the copy).
        let check = crate::skill::check_skill_copy(
            &self.root,
            &self.root,
            Some(expected_name),
            self.kept.as_deref(),
        );
        if !check.fatal.is_empty() {
            let details: Vec<String> = check
                .fatal
                .iter()
                .map(|d| match &d.field {
                    Some(field) => format!("`{field}`: {}", d.message),
                    None => d.message.clone(),
                })
                .collect();
            return Err(self.refuse(
                Some("SKILL.md"),
                UnpackRule::InvalidSkill(details.join("; ")),
            ));
        }
        let tree = HashedTree::from_files(std::mem::take(&mut self.files));
        Ok((tree, self.kept.take()))
    }

    /// Says why SKILL.md is missing as precisely as the files allow.
    fn missing_skill_md(&self) -> UnpackRule {
        let tops: HashSet<&str> = self
            .files
            .iter()
            .map(|f| f.path.split('/').next().unwrap_or(&f.path))
            .collect();
        if tops.len() == 1 {
            let top = tops.iter().next().copied().unwrap_or_default();
            let nested = format!("{top}/SKILL.md");
            if self.files.iter().any(|f| f.path == nested) {
                return UnpackRule::WrapperFolder(top.to_owned());
            }
        }
        if let Some(f) = self
            .files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case("SKILL.md"))
        {
            return UnpackRule::NoSkillMd(format!(
                " (found `{}`: the file must be named exactly `SKILL.md`)",
                f.path
            ));
        }
        UnpackRule::NoSkillMd(String::new())
    }
}

/// Creates a new file (never over an existing one, never through a link:
/// `create_new` fails on any existing name, links included). On Unix a
/// staging file is created read-only (0444, or 0555 when executable): the
/// store never modifies an entry, and a fresh descriptor may still write
/// what it created; a checkout's files are 0644/0755.
fn create_file(path: &Path, executable: bool, checkout: bool) -> io::Result<File> {
    let mode = match (checkout, executable) {
        (false, false) => 0o444,
        (false, true) => 0o555,
        (true, false) => 0o644,
        (true, true) => 0o755,
    };
    crate::fs::create_new(path, mode)
}
