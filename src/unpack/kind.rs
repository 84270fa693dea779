//! Which unpacker an artifact needs. docs/design.md#formats: an index entry's `type` says
//! `skill-md` or `archive`; for archives the Content-Type decides, then the
//! URL's extension, and as a last resort the first bytes.

use std::fmt;
use std::io::Read;
use std::path::Path;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactKind {
    Zip,
    TarGz,
    /// A lone SKILL.md: the whole skill is that one file.
    SkillMd,
}

impl ArtifactKind {
    /// From an HTTP Content-Type, when it is decisive (`application/octet-stream` is not).
    pub fn from_content_type(content_type: &str) -> Option<Self> {
        let mime = content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        match mime.as_str() {
            "application/zip" | "application/x-zip" | "application/x-zip-compressed" => {
                Some(ArtifactKind::Zip)
            }
            "application/gzip"
            | "application/x-gzip"
            | "application/x-gtar"
            | "application/x-tgz"
            | "application/x-compressed-tar"
            | "application/x-tar+gzip"
            | "application/tar+gzip" => Some(ArtifactKind::TarGz),
            "text/markdown" | "text/x-markdown" => Some(ArtifactKind::SkillMd),
            _ => None,
        }
    }

    /// From the name at the end of a URL or path (query and fragment ignored).
    pub fn from_extension(name: &str) -> Option<Self> {
        let name = name.split(['?', '#']).next().unwrap_or_default();
        let name = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
        if name.ends_with(".zip") {
            Some(ArtifactKind::Zip)
        } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
            Some(ArtifactKind::TarGz)
        } else if name.ends_with(".md") {
            Some(ArtifactKind::SkillMd)
        } else {
            None
        }
    }

    /// From the first bytes: zip's `PK\3\4` (or an empty zip's `PK\5\6`), gzip's `1f 8b`.
    pub fn from_magic(head: &[u8]) -> Option<Self> {
        if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            Some(ArtifactKind::Zip)
        } else if head.starts_with(&[0x1f, 0x8b]) {
            Some(ArtifactKind::TarGz)
        } else {
            None
        }
    }

    /// Content-Type, then extension, then magic bytes.
    pub fn guess(content_type: Option<&str>, name: Option<&str>, head: &[u8]) -> Option<Self> {
        content_type
            .and_then(Self::from_content_type)
            .or_else(|| name.and_then(Self::from_extension))
            .or_else(|| Self::from_magic(head))
    }

    /// Guesses the kind of a local file from its name, then its first bytes.
    pub fn guess_file(path: &Path) -> std::io::Result<Option<Self>> {
        let mut head = Vec::with_capacity(4);
        std::fs::File::open(path)?.take(4).read_to_end(&mut head)?;
        let name = path.file_name().and_then(|n| n.to_str());
        Ok(Self::guess(None, name, &head))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactKind::Zip => "zip",
            ArtifactKind::TarGz => "tar-gz",
            ArtifactKind::SkillMd => "skill-md",
        }
    }
}

impl fmt::Display for ArtifactKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ArtifactKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "zip" => Ok(ArtifactKind::Zip),
            "tar-gz" | "tar.gz" | "tgz" => Ok(ArtifactKind::TarGz),
            "skill-md" | "md" => Ok(ArtifactKind::SkillMd),
            other => Err(format!(
                "`{other}` is not an artifact kind: use zip, tar-gz or skill-md"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_wins_over_extension_and_magic() {
        let gz = [0x1f, 0x8b, 8, 0];
        assert_eq!(
            ArtifactKind::guess(
                Some("application/zip; charset=binary"),
                Some("x.tar.gz"),
                &gz
            ),
            Some(ArtifactKind::Zip)
        );
        assert_eq!(
            ArtifactKind::guess(
                Some("application/octet-stream"),
                Some("https://h/x.tgz?v=1"),
                b"PK\x03\x04"
            ),
            Some(ArtifactKind::TarGz)
        );
        assert_eq!(
            ArtifactKind::guess(
                Some("application/octet-stream"),
                Some("download"),
                b"PK\x03\x04"
            ),
            Some(ArtifactKind::Zip)
        );
        assert_eq!(
            ArtifactKind::guess(None, None, &gz),
            Some(ArtifactKind::TarGz)
        );
        assert_eq!(ArtifactKind::guess(None, Some("blob"), b"\0\0"), None);
        assert_eq!(
            ArtifactKind::from_extension("a/SKILL.md"),
            Some(ArtifactKind::SkillMd)
        );
    }

    #[test]
    fn kinds_parse_from_their_names() {
        for kind in [
            ArtifactKind::Zip,
            ArtifactKind::TarGz,
            ArtifactKind::SkillMd,
        ] {
            assert_eq!(kind.as_str().parse::<ArtifactKind>(), Ok(kind));
        }
        assert!("rar".parse::<ArtifactKind>().is_err());
    }
}
