//! `oci://HOST[:PORT]/NAMESPACE[/NAME][:TAG|@sha256:HEX]`: which registry,
//! which repository, which tag or digest (docs/hosting.md, "OCI registries").

use std::fmt;

use url::Url;

use crate::digest::Digest;

/// A parsed `oci://` reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OciRef {
    /// `host[:port]` as written (lowercased).
    pub registry: String,
    /// `a/b/c`, each part `[a-z0-9]+([._-][a-z0-9]+)*`.
    pub repository: String,
    pub tag: Option<String>,
    pub digest: Option<Digest>,
}

impl OciRef {
    /// Parses the text after checking every part; the error says which.
    pub fn parse(text: &str) -> Result<Self, String> {
        let rest = text
            .strip_prefix(super::SCHEME)
            .ok_or_else(|| format!("an OCI source starts with `{}`", super::SCHEME))?;
        let (registry, path) = rest
            .split_once('/')
            .ok_or("name a repository or namespace after the registry: oci://HOST/NAMESPACE")?;
        if registry.is_empty()
            || !registry
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        {
            return Err(format!("`{registry}` is not a registry host[:port]"));
        }
        let (path, digest) = match path.split_once('@') {
            Some((p, d)) => {
                let digest: Digest = d
                    .parse()
                    .map_err(|_| format!("`@{d}` is not a sha256:<64 hex> digest"))?;
                (p, Some(digest))
            }
            None => (path, None),
        };
        let (repository, tag) = match path.rsplit_once(':') {
            Some((r, t)) if !t.contains('/') => (r, Some(t)),
            _ => (path, None),
        };
        if let Some(t) = tag
            && !valid_tag(t)
        {
            return Err(format!(
                "`{t}` is not a tag (1-128 of A-Z, a-z, 0-9, `_`, `.`, `-`, not starting with `.` or `-`)"
            ));
        }
        let repository = repository.trim_end_matches('/');
        if repository.is_empty() || !repository.split('/').all(valid_component) {
            return Err(format!(
                "`{repository}` is not a repository path (lowercase parts of a-z, 0-9 and single `.`, `_`, `-` between them, joined by `/`)"
            ));
        }
        Ok(OciRef {
            registry: registry.to_ascii_lowercase(),
            repository: repository.to_owned(),
            tag: tag.map(str::to_owned),
            digest,
        })
    }

    /// Whether plain HTTP is allowed: only for registries on this machine.
    pub fn is_loopback(&self) -> bool {
        let host = match self.registry.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
            _ => self.registry.as_str(),
        };
        matches!(host, "localhost" | "127.0.0.1" | "[::1]") || host.starts_with("127.")
    }

    /// `https://HOST` (`http://` for a loopback registry).
    pub fn base_url(&self) -> Result<Url, String> {
        let scheme = if self.is_loopback() { "http" } else { "https" };
        Url::parse(&format!("{scheme}://{}/", self.registry))
            .map_err(|e| format!("`{}` is not a registry host: {e}", self.registry))
    }

    /// The repository of skill `name` inside this namespace.
    pub fn child(&self, name: &str) -> OciRef {
        OciRef {
            registry: self.registry.clone(),
            repository: format!("{}/{name}", self.repository),
            tag: None,
            digest: None,
        }
    }

    /// The same repository, no tag or digest.
    pub fn repo(&self) -> OciRef {
        OciRef {
            tag: None,
            digest: None,
            ..self.clone()
        }
    }

    /// The same repository at `digest`.
    pub fn at_digest(&self, digest: Digest) -> OciRef {
        OciRef {
            tag: None,
            digest: Some(digest),
            ..self.clone()
        }
    }

    /// The last part of the repository path.
    pub fn last_part(&self) -> &str {
        self.repository
            .rsplit('/')
            .next()
            .unwrap_or(&self.repository)
    }

    /// What to ask the registry for: the digest, else the tag, else `latest`.
    pub fn reference(&self) -> String {
        match (&self.digest, &self.tag) {
            (Some(d), _) => d.to_string(),
            (None, Some(t)) => t.clone(),
            (None, None) => "latest".to_owned(),
        }
    }

    /// Whether `other` is this repository or lies inside this namespace.
    pub fn contains(&self, other: &OciRef) -> bool {
        self.registry == other.registry
            && (other.repository == self.repository
                || other
                    .repository
                    .strip_prefix(&self.repository)
                    .is_some_and(|rest| rest.starts_with('/')))
    }
}

impl fmt::Display for OciRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}/{}", super::SCHEME, self.registry, self.repository)?;
        if let Some(t) = &self.tag {
            write!(f, ":{t}")?;
        }
        if let Some(d) = &self.digest {
            write!(f, "@{d}")?;
        }
        Ok(())
    }
}

pub fn valid_tag(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 128
        && !t.starts_with(['.', '-'])
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

fn valid_component(part: &str) -> bool {
    let bytes = part.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !bytes.is_empty()
        && alnum(bytes[0])
        && alnum(bytes[bytes.len() - 1])
        && bytes.windows(2).all(|w| alnum(w[0]) || alnum(w[1]))
        && bytes
            .iter()
            .all(|&b| alnum(b) || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_parse_strictly() {
        let r = OciRef::parse("oci://127.0.0.1:5000/team/skills/pdf:1.2.0").unwrap();
        assert_eq!(r.registry, "127.0.0.1:5000");
        assert_eq!(r.repository, "team/skills/pdf");
        assert_eq!(r.tag.as_deref(), Some("1.2.0"));
        assert!(r.is_loopback());
        assert_eq!(r.base_url().unwrap().as_str(), "http://127.0.0.1:5000/");
        let g = OciRef::parse("oci://ghcr.io/acme/skills").unwrap();
        assert!(!g.is_loopback());
        assert_eq!(g.base_url().unwrap().scheme(), "https");
        assert!(g.contains(&g.child("pdf")));
        assert!(!g.contains(&OciRef::parse("oci://ghcr.io/acme/skillsx").unwrap()));
        let d = format!("oci://h.io/a/b@sha256:{}", "ab".repeat(32));
        assert_eq!(OciRef::parse(&d).unwrap().to_string(), d);
        for bad in [
            "oci://h.io",
            "oci://h.io/",
            "oci://h.io/A/b",
            "oci://h.io/a//b",
            "oci://h.io/a/b:-x",
            "oci://h.io/a/b@sha256:12",
            "oci://h.io/a_/b",
        ] {
            assert!(OciRef::parse(bad).is_err(), "{bad}");
        }
    }
}
