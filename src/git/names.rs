//! Which tree entry names a checkout may write (docs/design.md#unpacking).
//!
//! A git tree or a GitHub archive is untrusted input: a name is written to
//! disk only when it is a single, portable path segment. Anything else is
//! skipped and recorded, so the skill that contains it is refused by
//! [`super::Checkout::skill_dir`] instead of being installed without it.
//! (The store re-checks every name when it imports a skill; this check exists
//! so that nothing unsafe is ever written into the temporary checkout, not
//! even on Windows, where `CON` or `a:b` name devices and streams.)

/// Why a segment may not be written, or `Ok` when it may: the rules of
/// [`crate::names`] (the same an archive's names obey), plus what only a git
/// tree can carry: a `/` inside one name and a `.git` entry.
pub(crate) fn check_segment(segment: &[u8]) -> Result<&str, String> {
    let name = crate::names::utf8_name(segment).map_err(|rule| rule.to_string())?;
    if name.contains('/') && !name.is_empty() {
        return Err("a `/` inside one name".into());
    }
    crate::names::check_segment(name).map_err(|rule| rule.to_string())?;
    if name.eq_ignore_ascii_case(".git") {
        return Err("a `.git` entry (git metadata is never content)".into());
    }
    Ok(name)
}

pub(crate) use crate::names::fold;

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
            "",
            ".",
            "..",
            "a/b",
            "a\\b",
            "c:d",
            "CON",
            "con.txt",
            "Lpt1.md",
            "x.",
            "x ",
            "a\nb",
            ".git",
            ".GIT",
            "a*b",
            "COM¹",
            "lpt².txt",
        ] {
            assert!(check_segment(bad.as_bytes()).is_err(), "{bad:?} accepted");
        }
        assert!(check_segment(&[0xff, 0xfe]).is_err());
        assert!(check_segment("a".repeat(256).as_bytes()).is_err());
    }
}
