//! Every naming rule of skillpm in one place: the entry-name rules of
//! docs/design.md#unpacking (what a file inside a skill may be called, whatever carried it:
//! an archive, a file list, a directory walk or a git tree), the stricter
//! rules of a path that is also a URL (a v0.1 index's `files`,
//! [`check_url_path`]) and of a path `publish` writes ([`check_published`]),
//! each the one before plus its own, so what `publish` writes every reader
//! accepts; and the skill name rule of docs/design.md#skills.
//!
//! Why not `Path::components()`: it hides `.` and empty segments, turns
//! `/abs` into a root component and knows nothing of Windows rules on Unix.
//! A skill stored here must install unchanged on Linux, macOS and Windows, so
//! every name is judged as the strictest of those file systems would see it.

use std::collections::HashMap;

pub mod pattern;

/// Longest skill name the spec allows (docs/design.md#skills).
pub const MAX_SKILL_NAME_CHARS: usize = 64;

/// The docs/design.md#skills name rule: 1–64 chars of `^[a-z0-9]+(-[a-z0-9]+)*$`. Checked
/// before any path or URL is built from a name, so a valid name can never
/// be `..`, contain `/`, or name a hidden file.
pub fn is_valid_skill_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_SKILL_NAME_CHARS
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Why an entry name is refused, worded for the person reading the error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameRule {
    #[error("the name is empty")]
    EmptyName,
    #[error("absolute path (leading `/`): entries must be relative to the skill folder")]
    Absolute,
    #[error("`{0}` is a drive prefix: entries must be relative to the skill folder")]
    DrivePrefix(String),
    #[error("contains `\\`, a path separator on Windows: use `/` as the only separator")]
    Backslash,
    #[error("empty path segment (`//` or a trailing `/` on a file)")]
    EmptySegment,
    #[error(
        "`.` path segment: names must be written without `./` (with tar, name the files: `tar -czf skill.tar.gz -C dir SKILL.md scripts`)"
    )]
    DotSegment,
    #[error("`..` path segment: an entry may not point outside the skill folder")]
    ParentSegment,
    #[error("control character {} in the name", .0.escape_unicode())]
    ControlChar(char),
    #[error("`:` in the name (a drive or alternate-data-stream marker on Windows)")]
    Colon,
    #[error("`{0}` is not allowed in file names on Windows")]
    WindowsChar(char),
    #[error("`{0}` ends with a dot or a space, which Windows silently strips")]
    TrailingDotOrSpace(String),
    #[error("`{0}` is a reserved device name on Windows")]
    Reserved(String),
    #[error("a path segment of {0} bytes is longer than file systems allow (255)")]
    SegmentTooLong(usize),
    #[error("the name is not valid UTF-8")]
    NotUtf8,
    #[error(
        "same name as `{0}` on case-insensitive file systems (macOS, Windows): rename one of them"
    )]
    CaseCollision(String),
    #[error("the name appears twice")]
    Duplicate,
    #[error("`{0}` is both a file and a folder")]
    FileDirClash(String),
    #[error("`{0}` changes a URL's meaning (Agent Skills Discovery RFC)")]
    UrlChar(char),
    #[error("the path is longer than {MAX_URL_PATH_BYTES} bytes")]
    PathTooLong,
    #[error(
        "{} is not printable ASCII, which published paths must be (Agent Skills Discovery RFC)",
        describe_char(*.0)
    )]
    NotPrintableAscii(char),
    #[error(
        "the path is too long ({0} bytes) for a portable tar archive: at most 100 bytes after a \
         folder boundary that leaves at most 155 before it"
    )]
    TooLongForTar(usize),
}

fn describe_char(c: char) -> String {
    if c.is_control() {
        format!("the control character U+{:04X}", c as u32)
    } else {
        format!("`{c}` (U+{:04X})", c as u32)
    }
}

// Every name rule guards against unsafe content (docs/design.md#unpacking).
crate::classified!(NameRule => Unsafe);

/// Longest segment most file systems accept (ext4, APFS, NTFS: 255).
const MAX_SEGMENT_BYTES: usize = 255;

/// Characters Windows refuses in file names (besides `\`, `/`, `:` and controls).
const WINDOWS_FORBIDDEN: &[char] = &['<', '>', '"', '|', '?', '*'];

/// Device names Windows reserves in every folder, with any extension.
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "COM1", "COM2", "COM3", "COM4", "COM5",
    "COM6", "COM7", "COM8", "COM9", "COM¹", "COM²", "COM³", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5",
    "LPT6", "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³",
];

/// Decodes a raw name; names must be UTF-8 so locks and digests are portable.
pub fn utf8_name(raw: &[u8]) -> Result<&str, NameRule> {
    std::str::from_utf8(raw).map_err(|_| NameRule::NotUtf8)
}

/// Checks one relative path (a directory name without its trailing `/`).
pub fn check_name(name: &str) -> Result<(), NameRule> {
    if name.is_empty() {
        return Err(NameRule::EmptyName);
    }
    if name.starts_with('/') {
        return Err(NameRule::Absolute);
    }
    if name.contains('\\') {
        return Err(NameRule::Backslash);
    }
    let first = name.split('/').next().unwrap_or(name);
    let bytes = first.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Err(NameRule::DrivePrefix(first[..2].to_owned()));
    }
    name.split('/').try_for_each(check_segment)
}

/// Checks one path segment: one file or folder name, without `/`.
pub fn check_segment(segment: &str) -> Result<(), NameRule> {
    match segment {
        "" => return Err(NameRule::EmptySegment),
        "." => return Err(NameRule::DotSegment),
        ".." => return Err(NameRule::ParentSegment),
        _ => {}
    }
    if segment.contains('\\') {
        return Err(NameRule::Backslash);
    }
    if let Some(c) = segment.chars().find(|c| c.is_control()) {
        return Err(NameRule::ControlChar(c));
    }
    if segment.contains(':') {
        return Err(NameRule::Colon);
    }
    if let Some(c) = segment.chars().find(|c| WINDOWS_FORBIDDEN.contains(c)) {
        return Err(NameRule::WindowsChar(c));
    }
    if segment.ends_with('.') || segment.ends_with(' ') {
        return Err(NameRule::TrailingDotOrSpace(segment.to_owned()));
    }
    let stem = segment
        .split('.')
        .next()
        .unwrap_or(segment)
        .trim_end_matches(' ');
    if reserved(stem) {
        return Err(NameRule::Reserved(segment.to_owned()));
    }
    if segment.len() > MAX_SEGMENT_BYTES {
        return Err(NameRule::SegmentTooLong(segment.len()));
    }
    Ok(())
}

/// Whether `stem` upper-cased is a reserved device name. Upper-casing
/// never makes a text of fewer characters, so a stem longer than the
/// longest name (7) is none; an ASCII stem is compared without allocating
/// (a lock of 500 entries checks thousands of segments).
fn reserved(stem: &str) -> bool {
    if stem.is_ascii() {
        return stem.len() <= 7 && RESERVED.iter().any(|r| r.eq_ignore_ascii_case(stem));
    }
    stem.chars().nth(7).is_none() && RESERVED.contains(&stem.to_uppercase().as_str())
}

/// Longest file path a v0.1 index may list.
const MAX_URL_PATH_BYTES: usize = 1024;

/// A file path that is also the tail of a URL (a v0.1 index's `files`
/// entry): [`check_name`], at most 1 KiB, and none of `? # [ ]`.
pub fn check_url_path(path: &str) -> Result<(), NameRule> {
    check_name(path)?;
    if path.len() > MAX_URL_PATH_BYTES {
        return Err(NameRule::PathTooLong);
    }
    match path.chars().find(|c| matches!(c, '?' | '#' | '[' | ']')) {
        Some(c) => Err(NameRule::UrlChar(c)),
        None => Ok(()),
    }
}

/// A path `publish` writes: [`check_url_path`], printable ASCII without
/// `%` (percent-decoded by servers and some readers), and short enough
/// for a ustar header, so every reader and platform takes it as written.
pub fn check_published(path: &str) -> Result<(), NameRule> {
    check_url_path(path)?;
    if let Some(c) = path.chars().find(|c| !(' '..='~').contains(c)) {
        return Err(NameRule::NotPrintableAscii(c));
    }
    if path.contains('%') {
        return Err(NameRule::UrlChar('%'));
    }
    if !fits_ustar(path) {
        return Err(NameRule::TooLongForTar(path.len()));
    }
    Ok(())
}

/// Whether a ustar header can hold `path`: whole in `name` (100 bytes), or
/// split at a `/` into `prefix` (155) and `name` (100), the split `tar` makes.
fn fits_ustar(path: &str) -> bool {
    if path.len() <= 100 {
        return true;
    }
    let head = &path[..path.len().min(156)];
    match head.rfind('/') {
        Some(split) => {
            let name = &path[split + 1..];
            !name.is_empty() && name.len() <= 100
        }
        None => false,
    }
}

/// How a name compares on a case-insensitive file system.
pub fn fold(name: &str) -> String {
    name.to_lowercase()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    File,
    /// A folder some file lives in, not (yet) listed on its own.
    ImpliedDir,
    ListedDir,
}

/// Every name of one skill so far, to refuse duplicates, case collisions and
/// a name that is a file in one entry and a folder in another.
#[derive(Debug, Default)]
pub struct NameSet {
    seen: HashMap<String, (String, Seen)>,
}

impl NameSet {
    /// Registers a regular file (its name already passed [`check_name`]).
    pub fn add_file(&mut self, name: &str) -> Result<(), NameRule> {
        self.add_parents(name)?;
        self.add(name, Seen::File)
    }

    /// Registers a folder listed as an entry of its own.
    pub fn add_dir(&mut self, name: &str) -> Result<(), NameRule> {
        self.add_parents(name)?;
        self.add(name, Seen::ListedDir)
    }

    fn add_parents(&mut self, name: &str) -> Result<(), NameRule> {
        for (i, _) in name.match_indices('/') {
            self.add(&name[..i], Seen::ImpliedDir)?;
        }
        Ok(())
    }

    fn add(&mut self, name: &str, what: Seen) -> Result<(), NameRule> {
        let folded = fold(name);
        let Some((exact, before)) = self.seen.get_mut(&folded) else {
            self.seen.insert(folded, (name.to_owned(), what));
            return Ok(());
        };
        if exact != name {
            return Err(NameRule::CaseCollision(exact.clone()));
        }
        match (*before, what) {
            (Seen::File, Seen::File) | (Seen::ListedDir, Seen::ListedDir) => {
                Err(NameRule::Duplicate)
            }
            (Seen::File, _) | (_, Seen::File) => Err(NameRule::FileDirClash(exact.clone())),
            (Seen::ImpliedDir, Seen::ListedDir) => {
                *before = Seen::ListedDir;
                Ok(())
            }
            (_, Seen::ImpliedDir) => Ok(()),
        }
    }
}

/// A URL path segment with its `%XX` escapes decoded (git remote paths,
/// `skill://` URIs); `None` when an escape is malformed or the result is
/// not UTF-8, so a name is never guessed from a broken one.
pub fn percent_decode(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = segment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The names within edit distance 3 of `wanted`, nearest first, at most
/// five: what a "did you mean" offers instead of every name there is.
pub fn nearest<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut near: Vec<(usize, &str)> = names
        .into_iter()
        .map(|n| (strsim::levenshtein(wanted, n), n))
        .filter(|(d, _)| *d <= 3)
        .collect();
    near.sort();
    near.dedup();
    near.into_iter().take(5).map(|(_, n)| n).collect()
}

/// What to say about `wanted` among `names`: all of them when they are few,
/// else the nearest ones ("did you mean …?"), else how many there are.
pub fn suggest(wanted: &str, names: &[&str], few: usize) -> String {
    if names.len() <= few {
        return match names {
            [] => "there are none".to_owned(),
            _ => format!("there are: {}", names.join(", ")),
        };
    }
    match nearest(wanted, names.iter().copied()).as_slice() {
        [] => format!("none of the {} names is close to it", names.len()),
        near => format!(
            "did you mean {}?",
            near.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows' device names, in any case and with any extension, are
    /// refused; names that only start like one are not.
    #[test]
    fn reserved_device_names_are_refused_in_any_case() {
        for ok in [
            "console.md",
            "com0.txt",
            "connect",
            "lpt",
            "conout",
            "COM10",
            "nul-x",
        ] {
            assert_eq!(check_segment(ok), Ok(()), "{ok}");
        }
        for bad in [
            "CON",
            "con",
            "nul.txt",
            "Aux.tar.gz",
            "conin$",
            "CONOUT$.log",
            "com¹",
        ] {
            assert!(
                matches!(check_segment(bad), Err(NameRule::Reserved(_))),
                "{bad}"
            );
        }
        // Upper-cased as Unicode: a long s is an S.
        assert!(matches!(check_segment("ſ"), Ok(())));
        assert!(reserved("lpt³"));
    }

    #[test]
    fn published_paths_that_pass() {
        for ok in [
            "SKILL.md",
            "scripts/fill form.py",
            "assets/logo-v2.svg",
            ".gitignore",
            "references/a/b/c.md",
            "console.md",
            "com0.txt",
            &format!("{}/{}", "d".repeat(155), "f".repeat(100)),
        ] {
            assert_eq!(check_published(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn unportable_published_paths_are_refused_with_a_reason() {
        for (bad, why) in [
            ("a\\b", "`\\`"),
            ("notes#1.md", "`#`"),
            ("100%.md", "`%`"),
            ("c:x", "drive prefix"),
            ("a/b:c", "`:`"),
            ("résumé.md", "printable ASCII"),
            ("tab\there", "control character"),
            ("a//b", "empty path segment"),
            ("a/../b", "`..`"),
            ("dir./x", "ends with a dot"),
            ("trailing ", "ends with a dot or a space"),
            ("assets/CON.txt", "reserved device name"),
            ("lpt9", "reserved device name"),
            ("Aux.tar.gz", "reserved device name"),
            ("CONIN$", "reserved device name"),
            ("conout$.txt", "reserved device name"),
            ("x[1]", "`[`"),
            (&"x".repeat(101), "too long"),
            (&format!("{}/{}", "d".repeat(156), "f"), "too long"),
            (
                &format!("{}/{}", "d".repeat(10), "f".repeat(101)),
                "too long",
            ),
        ] {
            let err = check_published(bad).expect_err(bad).to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn suggestions_are_near_names_not_every_name() {
        let names: Vec<String> = (0..300).map(|i| format!("skill-{i:03}")).collect();
        let names: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .chain(["pdf-tools"])
            .collect();
        assert_eq!(suggest("pdf-tool", &names, 10), "did you mean `pdf-tools`?");
        assert_eq!(
            suggest("zzzzzzzzzz", &names, 10),
            "none of the 301 names is close to it"
        );
        assert_eq!(suggest("x", &["a", "b"], 10), "there are: a, b");
        assert!(suggest("skill-0", &names, 10).len() < 120);
    }

    #[test]
    fn the_skill_name_rule() {
        for ok in [
            "a",
            "pdf",
            "pdf-tools",
            "x1-2y",
            "a1-b2-c3",
            &"a".repeat(64),
        ] {
            assert!(is_valid_skill_name(ok), "{ok}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "A",
            "a_b",
            "..",
            ".",
            "a.b",
            " a",
            "a/b",
            "é",
            &"a".repeat(65),
        ] {
            assert!(!is_valid_skill_name(bad), "{bad}");
        }
    }

    #[test]
    fn good_names_pass() {
        for name in [
            "SKILL.md",
            "scripts/run.sh",
            "a/b/c/d.txt",
            ".hidden",
            "..dots-inside..x",
            "name with spaces.md",
            "ünïcödé/файл.md",
            "CONSOLE.md",
            "com10.txt",
            "LPT0",
        ] {
            assert_eq!(check_name(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn each_rule_refuses_its_names() {
        let cases: &[(&str, NameRule)] = &[
            ("", NameRule::EmptyName),
            ("/etc/passwd", NameRule::Absolute),
            ("..\\evil", NameRule::Backslash),
            ("a\\b", NameRule::Backslash),
            ("C:/x", NameRule::DrivePrefix("C:".into())),
            ("c:x", NameRule::DrivePrefix("c:".into())),
            ("a//b", NameRule::EmptySegment),
            ("a/", NameRule::EmptySegment),
            ("a/./b", NameRule::DotSegment),
            ("./a", NameRule::DotSegment),
            ("../evil", NameRule::ParentSegment),
            ("a/../../evil", NameRule::ParentSegment),
            ("a/b\nc", NameRule::ControlChar('\n')),
            ("esc\u{1b}[31m", NameRule::ControlChar('\u{1b}')),
            ("del\u{7f}", NameRule::ControlChar('\u{7f}')),
            ("c1\u{85}", NameRule::ControlChar('\u{85}')),
            ("file.txt:stream", NameRule::Colon),
            ("what?.md", NameRule::WindowsChar('?')),
            ("a<b", NameRule::WindowsChar('<')),
            (
                "trailing.",
                NameRule::TrailingDotOrSpace("trailing.".into()),
            ),
            ("dir /x", NameRule::TrailingDotOrSpace("dir ".into())),
            ("CON.txt", NameRule::Reserved("CON.txt".into())),
            ("docs/con", NameRule::Reserved("con".into())),
            ("aux.tar.gz", NameRule::Reserved("aux.tar.gz".into())),
            ("Com1.md", NameRule::Reserved("Com1.md".into())),
            ("lpt9", NameRule::Reserved("lpt9".into())),
            ("NUL .txt", NameRule::Reserved("NUL .txt".into())),
            ("COM¹", NameRule::Reserved("COM¹".into())),
            ("lpt³.txt", NameRule::Reserved("lpt³.txt".into())),
        ];
        for (name, rule) in cases {
            assert_eq!(check_name(name).as_ref(), Err(rule), "{name:?}");
        }
        let long = "x".repeat(256);
        assert_eq!(check_name(&long), Err(NameRule::SegmentTooLong(256)));
        assert_eq!(utf8_name(b"caf\xe9"), Err(NameRule::NotUtf8));
    }

    #[test]
    fn duplicates_case_collisions_and_file_folder_clashes_are_refused() {
        let mut set = NameSet::default();
        set.add_file("README.md").unwrap();
        assert_eq!(
            set.add_file("readme.md"),
            Err(NameRule::CaseCollision("README.md".into()))
        );
        assert_eq!(set.add_file("README.md"), Err(NameRule::Duplicate));

        set.add_file("docs/a.md").unwrap();
        set.add_dir("docs").unwrap();
        assert_eq!(set.add_dir("docs"), Err(NameRule::Duplicate));
        assert_eq!(
            set.add_file("Docs/b.md"),
            Err(NameRule::CaseCollision("docs".into()))
        );
        assert_eq!(
            set.add_file("docs"),
            Err(NameRule::FileDirClash("docs".into()))
        );
        assert_eq!(
            set.add_file("README.md/x"),
            Err(NameRule::FileDirClash("README.md".into()))
        );

        let mut set = NameSet::default();
        set.add_dir("scripts").unwrap();
        set.add_file("scripts/run.sh").unwrap();
        set.add_file("scripts/lib/x.sh").unwrap();
    }
}
