//! The lock as skillpm writes it, read without the general TOML parser
//! (docs/performance.md#the-no-op-install): a 500-skill lock took a fifth
//! of a no-op install through `toml` (a table of spanned values built,
//! then deserialised).
//!
//! [`parse`] accepts only the canonical form [`super::Lockfile::to_toml`]
//! writes, where every line is one of: empty, a comment (before the first
//! table), `version = N`, `[[skill]]`, `[skill.publisher]`, or
//! `key = value` with a known key, one space either side of `=`, and a
//! value that is a decimal integer, a basic string with no escape, quote
//! or control character, or a one-line array of such strings. In that
//! form each value means exactly its characters, so the result is what
//! `toml` would give. Anything else (another spelling, an escape, an
//! unknown or repeated key, a missing field) is `None`, and the caller
//! reads the text with `toml`, which also words the error.

use super::{Encoded, Format, LockedSkill, Publisher};
use crate::digest::Digest;

/// What the line of a `key = value` holds.
enum Value<'t> {
    Text(&'t str),
    Integer(u64),
    List(Vec<&'t str>),
}

/// The text in canonical form, or `None`.
pub(super) fn parse(text: &str) -> Option<Encoded> {
    let mut version = None;
    let mut skills: Vec<LockedSkill> = Vec::new();
    // The entry being read, and its publisher table once one has begun.
    let mut entry: Option<Fields<'_>> = None;
    let mut publisher: Option<PublisherFields<'_>> = None;
    let mut lines = text.split('\n');
    // The last line of a text ending in `\n` is empty.
    if !text.ends_with('\n') {
        return None;
    }
    let _ = lines.next_back();
    for line in lines {
        if line.is_empty() {
            continue;
        }
        if line == "[[skill]]" {
            if let Some(fields) = entry.take() {
                skills.push(fields.finish(publisher.take())?);
            }
            entry = Some(Fields::default());
            continue;
        }
        if line == "[skill.publisher]" {
            if entry.is_none() || publisher.is_some() {
                return None;
            }
            publisher = Some(PublisherFields::default());
            continue;
        }
        if line.starts_with('#') {
            if entry.is_some() || !comment(line) {
                return None;
            }
            continue;
        }
        let (key, value) = key_value(line)?;
        match (&mut entry, &mut publisher) {
            (None, _) => match (key, value) {
                ("version", Value::Integer(n)) if version.is_none() => {
                    version = Some(u32::try_from(n).ok()?);
                }
                _ => return None,
            },
            (Some(_), Some(p)) => p.set(key, value)?,
            (Some(fields), None) => fields.set(key, value)?,
        }
    }
    if let Some(fields) = entry.take() {
        skills.push(fields.finish(publisher.take())?);
    }
    Some(Encoded {
        version: version?,
        skills,
    })
}

/// Whether `text` holds a control character TOML refuses in a comment or
/// a basic string (all but tab; C1 controls, encoded from 0xC2 on, are
/// allowed, as are all other characters). Read as bytes: every byte of a
/// multi-byte character is 0x80 or more.
fn has_control(text: &str) -> bool {
    text.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f)
}

/// A comment TOML accepts: no control character but tab.
fn comment(line: &str) -> bool {
    !has_control(line)
}

/// `key = value` in canonical spelling.
fn key_value(line: &str) -> Option<(&str, Value<'_>)> {
    // A key has no `=` or space, so the first `=` is the separator.
    let eq = line.find('=')?;
    let key = line[..eq].strip_suffix(' ')?;
    let value = line[eq + 1..].strip_prefix(' ')?;
    if key.is_empty()
        || !(key.bytes()).all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return None;
    }
    let value = if value.starts_with('"') {
        let (text, rest) = string(value)?;
        if !rest.is_empty() {
            return None;
        }
        Value::Text(text)
    } else if let Some(inner) = value.strip_prefix('[') {
        let mut items = Vec::new();
        let mut rest = inner;
        if let Some(after) = rest.strip_prefix(']') {
            rest = after;
        } else {
            loop {
                let (item, after) = string(rest)?;
                items.push(item);
                if let Some(after) = after.strip_prefix(", ") {
                    rest = after;
                } else {
                    rest = after.strip_prefix(']')?;
                    break;
                }
            }
        }
        if !rest.is_empty() {
            return None;
        }
        Value::List(items)
    } else {
        // A decimal integer as TOML writes one: no sign, no leading zero,
        // no separator, within i64.
        let canonical = !value.is_empty()
            && value.bytes().all(|b| b.is_ascii_digit())
            && (value == "0" || !value.starts_with('0'));
        let n: i64 = value.parse().ok().filter(|_| canonical)?;
        Value::Integer(u64::try_from(n).ok()?)
    };
    Some((key, value))
}

/// A basic string at the start of `text` with nothing to unescape: its
/// characters and the text after its closing quote.
fn string(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix('"')?;
    let end = inner.find('"')?;
    let chars = &inner[..end];
    let plain = !chars.contains('\\') && !has_control(chars);
    plain.then(|| (chars, &inner[end + 1..]))
}

/// Sets `slot` once; a second value for the same key is `None`.
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value);
    Some(())
}

fn text<'t>(value: Value<'t>) -> Option<&'t str> {
    match value {
        Value::Text(t) => Some(t),
        _ => None,
    }
}

fn digest(value: Value<'_>) -> Option<Digest> {
    text(value)?.parse().ok()
}

fn integer(value: Value<'_>) -> Option<u64> {
    match value {
        Value::Integer(n) => Some(n),
        _ => None,
    }
}

fn list(value: Value<'_>) -> Option<Vec<String>> {
    match value {
        Value::List(items) => Some(items.into_iter().map(str::to_owned).collect()),
        _ => None,
    }
}

/// The fields of one `[[skill]]` table as read so far.
#[derive(Default)]
struct Fields<'t> {
    name: Option<&'t str>,
    source: Option<&'t str>,
    version: Option<&'t str>,
    format: Option<Format>,
    index: Option<&'t str>,
    index_digest: Option<Digest>,
    index_version: Option<u64>,
    url: Option<&'t str>,
    commit: Option<&'t str>,
    subpath: Option<&'t str>,
    uri: Option<&'t str>,
    artifact: Option<Digest>,
    tree: Option<Digest>,
    executables: Option<Vec<String>>,
    signer: Option<&'t str>,
    approved: Option<Digest>,
    warnings: Option<Vec<String>>,
    accepted_findings: Option<Vec<String>>,
}

impl<'t> Fields<'t> {
    fn set(&mut self, key: &str, value: Value<'t>) -> Option<()> {
        match key {
            "name" => once(&mut self.name, text(value)?),
            "source" => once(&mut self.source, text(value)?),
            "version" => once(&mut self.version, text(value)?),
            "format" => once(&mut self.format, format(text(value)?)?),
            "index" => once(&mut self.index, text(value)?),
            "index-digest" => once(&mut self.index_digest, digest(value)?),
            "index-version" => once(&mut self.index_version, integer(value)?),
            "url" => once(&mut self.url, text(value)?),
            "commit" => once(&mut self.commit, text(value)?),
            // `subpath` is the name older versions wrote (a serde alias).
            "path" | "subpath" => once(&mut self.subpath, text(value)?),
            "uri" => once(&mut self.uri, text(value)?),
            "artifact" => once(&mut self.artifact, digest(value)?),
            "tree" => once(&mut self.tree, digest(value)?),
            "executables" => once(&mut self.executables, list(value)?),
            "signer" => once(&mut self.signer, text(value)?),
            "approved" => once(&mut self.approved, digest(value)?),
            "warnings" => once(&mut self.warnings, list(value)?),
            "accepted-findings" => once(&mut self.accepted_findings, list(value)?),
            _ => None,
        }
    }

    fn finish(self, publisher: Option<PublisherFields<'_>>) -> Option<LockedSkill> {
        let owned = |t: Option<&str>| t.map(str::to_owned);
        Some(LockedSkill {
            name: self.name?.to_owned(),
            source: self.source?.to_owned(),
            version: owned(self.version),
            format: self.format?,
            index: owned(self.index),
            index_digest: self.index_digest,
            index_version: self.index_version,
            url: owned(self.url),
            commit: owned(self.commit),
            subpath: owned(self.subpath),
            uri: owned(self.uri),
            artifact: self.artifact,
            tree: self.tree?,
            executables: self.executables.unwrap_or_default(),
            signer: owned(self.signer),
            approved: self.approved,
            warnings: self.warnings.unwrap_or_default(),
            accepted_findings: self.accepted_findings.unwrap_or_default(),
            publisher: match publisher {
                Some(p) => Some(p.finish()?),
                None => None,
            },
        })
    }
}

/// `Format`'s serde names.
fn format(text: &str) -> Option<Format> {
    Some(match text {
        "archive" => Format::Archive,
        "skill-md" => Format::SkillMd,
        "files" => Format::Files,
        "git" => Format::Git,
        "path" => Format::Path,
        "mcp" => Format::Mcp,
        "oci" => Format::Oci,
        _ => return None,
    })
}

/// The fields of a `[skill.publisher]` table as read so far.
#[derive(Default)]
struct PublisherFields<'t> {
    identity: Option<&'t str>,
    issuer: Option<&'t str>,
    log_index: Option<u64>,
    bundle: Option<Digest>,
    url: Option<&'t str>,
}

impl<'t> PublisherFields<'t> {
    fn set(&mut self, key: &str, value: Value<'t>) -> Option<()> {
        match key {
            "identity" => once(&mut self.identity, text(value)?),
            "issuer" => once(&mut self.issuer, text(value)?),
            "log-index" => once(&mut self.log_index, integer(value)?),
            "bundle" => once(&mut self.bundle, digest(value)?),
            "url" => once(&mut self.url, text(value)?),
            _ => None,
        }
    }

    fn finish(self) -> Option<Publisher> {
        Some(Publisher {
            identity: self.identity?.to_owned(),
            issuer: self.issuer?.to_owned(),
            log_index: self.log_index?,
            bundle: self.bundle?,
            url: self.url?.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{LockedSkill, Lockfile};
    use super::*;

    fn rich(name: &str) -> LockedSkill {
        let tree = Digest::of_bytes(name.as_bytes());
        LockedSkill {
            name: name.into(),
            source: "acme".into(),
            version: Some("1.0.0".into()),
            format: Format::Git,
            index: Some("../site/index.json".into()),
            index_digest: Some(Digest::of_bytes(b"index")),
            index_version: Some(0),
            url: Some("https://git.acme.dev/skills.git".into()),
            commit: Some("a".repeat(40)),
            subpath: Some("skills/é and ü".into()),
            uri: Some("skill://x/SKILL.md".into()),
            artifact: Some(Digest::of_bytes(b"artifact")),
            tree,
            executables: vec!["scripts/a.sh".into(), "scripts/b c.sh".into()],
            signer: Some("RWQ1234".into()),
            approved: Some(tree),
            warnings: vec!["SKILL.md: `description` is long".into()],
            accepted_findings: vec!["net-fetch@scripts/a.sh:3".into()],
            publisher: Some(Publisher {
                identity: "https://github.com/acme/skills/.github/workflows/r.yml@refs/heads/main"
                    .into(),
                issuer: "https://token.actions.githubusercontent.com".into(),
                log_index: 9_223_372_036_854_775_807,
                bundle: Digest::of_bytes(b"bundle"),
                url: "https://acme.dev/b.json".into(),
            }),
        }
    }

    /// Whatever the fast reader accepts, it reads as `toml` does; what it
    /// does not, `toml` reads (or refuses) instead.
    fn same_as_toml(text: &str) -> bool {
        let slow: Result<Encoded, _> = toml::from_str(text);
        match (parse(text), slow) {
            (Some(fast), Ok(slow)) => {
                assert_eq!(fast.version, slow.version, "{text}");
                assert_eq!(fast.skills, slow.skills, "{text}");
                true
            }
            (Some(_), Err(e)) => panic!("read what toml refuses ({e}):\n{text}"),
            (None, _) => false,
        }
    }

    #[test]
    fn the_written_form_reads_as_toml_reads_it() {
        let mut lock = Lockfile::default();
        lock.upsert(rich("alpha"));
        let mut plain = rich("beta");
        plain.publisher = None;
        plain.executables.clear();
        plain.index_version = Some(42);
        lock.upsert(plain);
        let mut bare = rich("gamma");
        (bare.version, bare.index, bare.commit, bare.subpath) = (None, None, None, None);
        bare.warnings.clear();
        lock.upsert(bare);
        let text = lock.to_toml();
        assert!(
            same_as_toml(&text),
            "the canonical form takes the fast path"
        );
        // An empty lock (`skill = []`) is left to `toml`.
        assert!(!same_as_toml(&Lockfile::default().to_toml()));
        // The old `subpath` key reads as `path`.
        assert!(same_as_toml(&text.replacen("path = ", "subpath = ", 1)));

        // Everything else goes to `toml`: escapes and quotes (written by
        // `toml` in other forms), other spellings, repeated or unknown
        // keys, missing fields, values of the wrong type or range.
        let mut quoted = rich("delta");
        quoted.warnings = vec!["a \"quoted\" word and a \\ backslash".into()];
        let mut odd = Lockfile::default();
        odd.upsert(quoted);
        assert!(!same_as_toml(&odd.to_toml()));
        for (from, to) in [
            ("name = \"alpha\"", "name = \"al\\u0070ha\""),
            ("name = \"alpha\"", "name = 'alpha'"),
            ("name = \"alpha\"", "name=\"alpha\""),
            ("name = \"alpha\"", "name = \"alpha\" # c"),
            ("name = \"alpha\"", "\"name\" = \"alpha\""),
            ("name = \"alpha\"", "name = \"alpha\"\nname = \"alpha\""),
            ("name = \"alpha\"", "name = \"alpha\"\ncolour = \"red\""),
            ("name = \"alpha\"", "name = \"alpha\"\r"),
            ("name = \"alpha\"\n", ""),
            ("format = \"git\"", "format = \"svn\""),
            ("index-version = 0", "index-version = 00"),
            ("index-version = 0", "index-version = +0"),
            ("index-version = 0", "index-version = -1"),
            ("index-version = 0", "index-version = 1_0"),
            ("index-version = 0", "index-version = \"0\""),
            (
                "log-index = 9223372036854775807",
                "log-index = 9223372036854775808",
            ),
            ("executables = [\"", "executables = [ \""),
            ("executables = [\"", "executables = \"x\"\nwarnings = [\""),
            ("[skill.publisher]", "[skill.publisher]\n[skill.publisher]"),
            ("version = 1", "version = 1\nversion = 1"),
            ("version = 1", "version = 4294967296"),
            ("version = 1\n", ""),
            ("# skills.lock", "#\u{1} skills.lock"),
            ("tree = \"sha256:", "tree = \"sha512:"),
        ] {
            let changed = text.replacen(from, to, 1);
            assert_ne!(changed, text, "{from}");
            assert!(!same_as_toml(&changed), "{from} -> {to}");
        }
        assert!(!same_as_toml(text.trim_end()), "no final line break");
    }
}
