//! Which tree entry names a checkout may write (DESIGN §5).
//!
//! A git tree or a GitHub archive is untrusted input: a name is written to
//! disk only when it is a single, portable path segment. Anything else is
//! skipped and recorded, so the skill that contains it is refused by
//! [`super::Checkout::skill_dir`] instead of being installed without it.
//! (The store re-checks every name when it imports a skill; this check exists
//! so that nothing unsafe is ever written into the temporary checkout, not
//! even on Windows, where `CON` or `a:b` name devices and streams.)

/// Device names Windows reserves in every folder, whatever the extension.
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "COM1", "COM2", "COM3", "COM4", "COM5",
    "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8",
    "LPT9",
];

/// Characters Windows refuses in names, besides controls and separators.
const WINDOWS_FORBIDDEN: &[char] = &['<', '>', '"', '|', '?', '*', ':', '\\'];

/// Longest segment ext4, APFS and NTFS accept.
const MAX_SEGMENT_BYTES: usize = 255;

/// Why a segment may not be written, or `Ok` when it may.
pub(crate) fn check_segment(segment: &[u8]) -> Result<&str, String> {
    let name = std::str::from_utf8(segment).map_err(|_| "the name is not UTF-8".to_owned())?;
    match name {
        "" => return Err("empty path segment".into()),
        "." | ".." => return Err(format!("`{name}` path segment")),
        _ => {}
    }
    if name.contains('/') {
        return Err("a `/` inside one name".into());
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!("control character {:?}", c));
    }
    if let Some(c) = name.chars().find(|c| WINDOWS_FORBIDDEN.contains(c)) {
        return Err(format!("character `{c}` (not allowed on Windows)"));
    }
    if name.ends_with('.') || name.ends_with(' ') {
        return Err("trailing dot or space (not allowed on Windows)".into());
    }
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    if RESERVED.contains(&stem.to_ascii_uppercase().as_str()) {
        return Err(format!("`{name}` is a reserved device name on Windows"));
    }
    if name.eq_ignore_ascii_case(".git") {
        return Err("a `.git` entry (git metadata is never content)".into());
    }
    if name.len() > MAX_SEGMENT_BYTES {
        return Err(format!("name longer than {MAX_SEGMENT_BYTES} bytes"));
    }
    Ok(name)
}

/// How a path compares on a case-insensitive file system (macOS, Windows).
pub(crate) fn fold(path: &str) -> String {
    path.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_names() {
        for ok in ["SKILL.md", "run.sh", ".hidden", "a b", "ünïcode.txt"] {
            assert_eq!(check_segment(ok.as_bytes()), Ok(ok));
        }
    }

    #[test]
    fn refuses_unsafe_names() {
        for bad in [
            "", ".", "..", "a/b", "a\\b", "c:d", "CON", "con.txt", "Lpt1.md", "x.", "x ", "a\nb",
            ".git", ".GIT", "a*b",
        ] {
            assert!(check_segment(bad.as_bytes()).is_err(), "{bad:?} accepted");
        }
        assert!(check_segment(&[0xff, 0xfe]).is_err());
        assert!(check_segment("a".repeat(256).as_bytes()).is_err());
    }
}
