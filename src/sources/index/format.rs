//! The registry index formats skillpm reads (docs/design.md#formats) and what each entry
//! resolves to.
//!
//! * **v0.2.0** (the Agent Skills Discovery RFC, recognised by its `$schema`):
//!   each entry names one artifact, a lone SKILL.md (`skill-md`) or an
//!   archive, with the sha256 digest of its raw bytes.
//! * **v0.1.0** (no `$schema`): each entry lists `files` served under
//!   `<index dir>/<name>/`. Paths may be plain strings or `{path, digest}`
//!   objects (the RFC's per-file digests); a `package {url, digest}` object,
//!   when present, is used as the entry's archive instead.
//! * **skillpm extensions**, ignored by other readers: `version` (display
//!   text) and `files` on v0.2.0 entries.
//!
//! Parsing is lenient per entry and strict per index: an unknown `$schema` or
//! a body that is not an index refuses the whole index, while one bad entry is
//! reported in [`ParsedIndex::problems`] without hiding the good ones. Names are
//! checked with [`crate::skill::is_valid_name`] and paths with
//! [`paths::check_relative_path`] before any URL is built from them.

use crate::sources::index::paths;

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{Map, Value};
use url::Url;

use crate::digest::Digest;
use crate::skill::is_valid_name;

/// The `$schema` of a v0.2.0 index.
pub const SCHEMA_V0_2_0: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// Most files a v0.1.0 entry may list (the default entry limit of docs/design.md#unpacking).
pub const MAX_FILES: usize = 10_000;

/// Which of the known formats an index is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum IndexFormat {
    #[serde(rename = "0.2.0")]
    V0_2_0,
    #[serde(rename = "0.1.0")]
    V0_1_0,
}

impl IndexFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            IndexFormat::V0_2_0 => "0.2.0",
            IndexFormat::V0_1_0 => "0.1.0",
        }
    }
}

/// A parsed index: the usable entries and what was wrong with the others.
#[derive(Debug, Clone, Serialize)]
pub struct ParsedIndex {
    /// The URL the index was read from; entry URLs are resolved against it.
    pub url: Url,
    pub format: IndexFormat,
    pub entries: Vec<Entry>,
    /// Entries skipped (unknown `type`) or refused (invalid), in index order.
    pub problems: Vec<EntryProblem>,
}

impl ParsedIndex {
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// One skill an index offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub name: String,
    pub description: String,
    /// Free text for display and `outdated`; identity is always the digest.
    pub version: Option<String>,
    pub content: EntryContent,
    /// The skillpm `files` extension on a v0.2.0 entry (informational).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// The skillpm `sigstore` extension on a v0.2.0 entry: where the
    /// Sigstore bundle over the artifact is served (docs/provenance.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Boxed: most entries have none, and a `Url` inline made every entry
    /// of a 50,000-skill index 80 bytes larger (docs/performance.md).
    pub sigstore: Option<Box<Url>>,
}

/// Where an entry's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EntryContent {
    /// One download whose raw bytes must hash to `digest` before anything
    /// parses them.
    Artifact {
        url: Url,
        digest: Digest,
        artifact: ArtifactType,
    },
    /// A v0.1.0 file list; each file lives at `<index dir>/<name>/<path>`.
    Files { files: Vec<IndexFile> },
}

/// What an artifact holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactType {
    /// The artifact is the skill's lone SKILL.md.
    SkillMd,
    /// A `.zip` or `.tar.gz` with SKILL.md at its root.
    Archive,
}

/// One file of a v0.1.0 entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IndexFile {
    /// Relative path with `/` separators, already checked.
    pub path: String,
    pub url: Url,
    /// Present when the index gave a per-file digest (RFC `{path, digest}` form).
    pub digest: Option<Digest>,
}

impl Entry {
    /// The entry as what it says names it: its URL, else its name.
    pub fn label(&self) -> String {
        self.url()
            .map_or_else(|| self.name.clone(), |u| u.to_string())
    }

    /// Short label of how the skill is distributed, for listings.
    pub fn format_label(&self) -> &'static str {
        match &self.content {
            EntryContent::Artifact {
                artifact: ArtifactType::SkillMd,
                ..
            } => "skill-md",
            EntryContent::Artifact {
                artifact: ArtifactType::Archive,
                ..
            } => "archive",
            EntryContent::Files { .. } => "files",
        }
    }

    /// The artifact digest, when the index pins one.
    pub fn digest(&self) -> Option<Digest> {
        match &self.content {
            EntryContent::Artifact { digest, .. } => Some(*digest),
            EntryContent::Files { .. } => None,
        }
    }

    /// The artifact URL, or the folder a file list is served from.
    pub fn url(&self) -> Option<&Url> {
        match &self.content {
            EntryContent::Artifact { url, .. } => Some(url),
            EntryContent::Files { files } => files.first().map(|f| &f.url),
        }
    }
}

/// An entry that was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryProblem {
    /// Zero-based position in the index's `skills` array.
    pub position: usize,
    /// The entry's name when it had a string one (even an invalid one).
    pub name: Option<String>,
    pub kind: ProblemKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// A `type` this version of skillpm does not know: skipped, as the RFC asks.
    UnknownType,
    /// The entry breaks a rule: refused.
    Invalid,
}

impl std::fmt::Display for EntryProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(name) => write!(
                f,
                "entry #{} (`{name}`): {}",
                self.position + 1,
                self.message
            ),
            None => write!(f, "entry #{}: {}", self.position + 1, self.message),
        }
    }
}

/// The whole index is unusable.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{url} is not a JSON index: {reason}")]
    NotJson { url: Url, reason: String },
    #[error("{url}: {reason}")]
    Malformed { url: Url, reason: String },
    #[error(
        "{url} declares `$schema` {schema:?}, which skillpm does not know (expected {SCHEMA_V0_2_0:?} or none for v0.1.0); upgrade skillpm or ask the registry which format it serves"
    )]
    UnknownSchema { url: Url, schema: String },
}

crate::classified!(IndexError => Network);

/// Parses index bytes read from `url`, as a stream: the `skills` array is
/// read one entry at a time (each becomes an [`Entry`] or a problem before
/// the next is read), so the memory a large index needs is its bytes and
/// its entries, never a JSON tree of the whole document
/// (docs/performance.md, the 50,000-skill index). The bytes are the ones
/// already verified (digest, signature) by the caller.
pub fn parse_index(bytes: &[u8], url: &Url) -> Result<ParsedIndex, IndexError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    parse_index_kept(bytes, url, None)
}

/// Which entries a parse keeps (`None`: all): given each accepted entry
/// and its position in `skills`, as it streams by, it keeps it whole or
/// takes what it needs and leaves its name. An entry left out still counts
/// for the index's rules (a name offered twice refuses every copy), so the
/// entries kept and the problems are those of a whole parse, less the
/// entries left out (`search`, `add --list`: docs/performance.md, the
/// 50,000-skill index).
pub type Keep<'k> = Option<&'k mut (dyn FnMut(usize, Entry) -> Kept + 'k)>;

/// What a [`Keep`] did with an entry (returned at once, never stored: the
/// larger variant costs nothing to hold).
#[allow(clippy::large_enum_variant)]
pub enum Kept {
    Whole(Entry),
    /// Left out: its name, for the rule on names offered twice.
    Name(Box<str>),
}

/// [`parse_index`] keeping only the entries `keep` accepts.
pub fn parse_index_kept(
    bytes: &[u8],
    url: &Url,
    keep: Keep<'_>,
) -> Result<ParsedIndex, IndexError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    must_be_object(bytes, url)?;
    read(
        &mut serde_json::Deserializer::from_slice(bytes),
        url,
        Mode::Entries,
        keep,
    )
}

/// Whether `bytes` are an index skillpm can read (a JSON object with a
/// known `$schema` and a `skills` array), without building its entries:
/// what is cached is checked first, then parsed from the cache
/// ([`parse_index_from`]) once the bytes are let go.
pub fn check_index(bytes: &[u8], url: &Url) -> Result<(), IndexError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    must_be_object(bytes, url)?;
    read(
        &mut serde_json::Deserializer::from_slice(bytes),
        url,
        Mode::Shape,
        None,
    )
    .map(drop)
}

/// [`parse_index_kept`] over a reader (a verified snapshot on disk, read
/// once): neither the bytes nor a JSON tree are ever held whole.
pub fn parse_index_from(
    mut reader: impl std::io::BufRead,
    url: &Url,
    keep: Keep<'_>,
) -> Result<ParsedIndex, IndexError> {
    let not_json = |e: std::io::Error| IndexError::NotJson {
        url: url.clone(),
        reason: e.to_string(),
    };
    if reader.fill_buf().map_err(not_json)?.starts_with(BOM) {
        reader.consume(BOM.len());
    }
    read(
        &mut serde_json::Deserializer::from_reader(reader),
        url,
        Mode::Entries,
        keep,
    )
}

/// What a read builds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing: the shape is checked, entries are skipped ([`check_index`]).
    Shape,
    /// The entries a [`Keep`] keeps, and every problem.
    Entries,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An index is a JSON object: anything else is refused, saying whether it
/// is JSON at all.
fn must_be_object(bytes: &[u8], url: &Url) -> Result<(), IndexError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return Ok(());
    }
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).map_err(|e| IndexError::NotJson {
        url: url.clone(),
        reason: e.to_string(),
    })?;
    Err(IndexError::Malformed {
        url: url.clone(),
        reason: "the index must be a JSON object".to_owned(),
    })
}

/// The streaming read of one index document.
fn read<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    url: &Url,
    mode: Mode,
    keep: Keep<'_>,
) -> Result<ParsedIndex, IndexError> {
    let mut reader = stream::Reader::new(url, mode, keep);
    let outcome =
        serde::de::DeserializeSeed::deserialize(&mut reader, &mut *de).and_then(|()| de.end());
    if let Some(stopped) = reader.stopped.take() {
        return Err(stopped);
    }
    match outcome {
        Ok(()) => {}
        Err(e) if e.classify() == serde_json::error::Category::Data => {
            return Err(IndexError::Malformed {
                url: url.clone(),
                reason: e.to_string(),
            });
        }
        Err(e) => {
            return Err(IndexError::NotJson {
                url: url.clone(),
                reason: e.to_string(),
            });
        }
    }
    let (format, accepted, left_out, mut problems) = reader.finish()?;

    let entries = refuse_duplicates(accepted, &left_out, &mut problems);
    problems.sort_by_key(|p| p.position);

    Ok(ParsedIndex {
        url: url.clone(),
        format,
        entries,
        problems,
    })
}

/// The entries of a `skills` array judged so far.
#[derive(Default)]
struct Judged<'k> {
    keep: Keep<'k>,
    /// Accepted and kept, with their positions.
    accepted: Vec<(usize, Entry)>,
    /// Accepted but not kept ([`Keep`]): only the name, for the rule on
    /// names offered twice.
    left_out: Vec<(usize, Box<str>)>,
    problems: Vec<EntryProblem>,
}

impl Judged<'_> {
    /// One entry of the `skills` array, judged: accepted (kept or left
    /// out), or the problem recorded.
    fn judge(
        &mut self,
        position: usize,
        raw: &Value,
        format: IndexFormat,
        (url, dir): (&Url, &Url),
    ) {
        let parsed = match raw {
            Value::Object(obj) => match format {
                IndexFormat::V0_2_0 => parse_v2_entry(obj, url),
                IndexFormat::V0_1_0 => parse_v1_entry(obj, url, dir),
            },
            _ => Err(Refusal::Invalid("an entry must be a JSON object".into())),
        };
        let (kind, message) = match parsed {
            Ok(entry) => {
                let kept = match self.keep.as_mut() {
                    Some(keep) => keep(position, entry),
                    None => Kept::Whole(entry),
                };
                match kept {
                    Kept::Whole(entry) => self.accepted.push((position, entry)),
                    Kept::Name(name) => self.left_out.push((position, name)),
                }
                return;
            }
            Err(Refusal::UnknownType(t)) => (
                ProblemKind::UnknownType,
                format!(
                    "type {t:?} is not known to this skillpm (known: \"skill-md\", \"archive\"); skipped"
                ),
            ),
            Err(Refusal::Invalid(message)) => (ProblemKind::Invalid, message),
        };
        self.problems.push(EntryProblem {
            position,
            name: raw.get("name").and_then(Value::as_str).map(str::to_owned),
            kind,
            message,
        });
    }
}

/// The streaming reader of [`parse_index`]: serde's visitor over the top
/// object, and over `skills` one entry at a time.
mod stream {
    use std::fmt;

    use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;
    use url::Url;

    use crate::sources::index::format::{
        Entry, EntryProblem, IndexError, IndexFormat, Judged, Keep, Mode, schema_format,
    };
    use crate::sources::index::paths;

    pub(super) struct Reader<'u, 'k> {
        url: &'u Url,
        dir: Url,
        /// `$schema` as read (`None`: not seen, so far).
        schema: Option<Value>,
        /// Whether `skills` was judged as it streamed by (the `$schema`
        /// came first).
        streamed: bool,
        /// Raw entries kept until the end: `skills` came before `$schema`,
        /// so the format was not known yet (no real index is written so).
        buffered: Option<Vec<Value>>,
        judged: Judged<'k>,
        /// A refusal met inside the stream, returned as it is.
        pub(super) stopped: Option<IndexError>,
        mode: Mode,
    }

    /// What [`Reader::finish`] gives: the format, the entries accepted and
    /// kept, the names of those left out, the problems.
    pub(super) type Finished = (
        IndexFormat,
        Vec<(usize, Entry)>,
        Vec<(usize, Box<str>)>,
        Vec<EntryProblem>,
    );

    impl<'u, 'k> Reader<'u, 'k> {
        pub(super) fn new(url: &'u Url, mode: Mode, keep: Keep<'k>) -> Self {
            Reader {
                url,
                dir: paths::index_dir(url),
                schema: None,
                streamed: false,
                buffered: None,
                judged: Judged {
                    keep,
                    ..Judged::default()
                },
                stopped: None,
                mode,
            }
        }

        fn malformed(&self, reason: &str) -> IndexError {
            IndexError::Malformed {
                url: self.url.clone(),
                reason: reason.to_owned(),
            }
        }

        /// The format, the entries and the problems, once the whole
        /// object was read.
        pub(super) fn finish(mut self) -> Result<Finished, IndexError> {
            let format = schema_format(self.schema.as_ref(), self.url)?;
            if !self.streamed {
                let Some(raw) = self.buffered.take() else {
                    return Err(self.malformed("the index has no `skills` array"));
                };
                for (position, entry) in raw.iter().enumerate() {
                    (self.judged).judge(position, entry, format, (self.url, &self.dir));
                }
            }
            let Judged {
                accepted,
                left_out,
                problems,
                ..
            } = self.judged;
            Ok((format, accepted, left_out, problems))
        }

        fn stop<E: de::Error>(&mut self, e: IndexError) -> E {
            let message = e.to_string();
            self.stopped = Some(e);
            E::custom(message)
        }
    }

    impl<'de> DeserializeSeed<'de> for &mut Reader<'_, '_> {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for &mut Reader<'_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("the index object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "$schema" => {
                        if self.schema.is_some() {
                            let e = self.malformed("`$schema` appears twice");
                            return Err(self.stop(e));
                        }
                        let schema: Value = map.next_value()?;
                        if let Err(e) = schema_format(Some(&schema), self.url) {
                            return Err(self.stop(e));
                        }
                        self.schema = Some(schema);
                    }
                    "skills" => {
                        if self.streamed || self.buffered.is_some() {
                            let e = self.malformed("`skills` appears twice");
                            return Err(self.stop(e));
                        }
                        match self.schema.as_ref() {
                            // A known format: judge each entry as it comes.
                            Some(_) => map.next_value_seed(Skills(&mut *self))?,
                            // No `$schema` yet: it may still follow.
                            None => match map.next_value::<Value>()? {
                                Value::Array(items) => self.buffered = Some(items),
                                _ => {
                                    let e = self.malformed("the index has no `skills` array");
                                    return Err(self.stop(e));
                                }
                            },
                        }
                    }
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(())
        }
    }

    /// The `skills` array, judged entry by entry.
    struct Skills<'r, 'u, 'k>(&'r mut Reader<'u, 'k>);

    impl<'de> DeserializeSeed<'de> for Skills<'_, '_, '_> {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Skills<'_, '_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("the `skills` array")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let reader = self.0;
            let format = match schema_format(reader.schema.as_ref(), reader.url) {
                Ok(format) => format,
                Err(e) => return Err(reader.stop(e)),
            };
            reader.streamed = true;
            if reader.mode == Mode::Shape {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                return Ok(());
            }
            let mut position = 0;
            while let Some(raw) = seq.next_element::<Value>()? {
                (reader.judged).judge(position, &raw, format, (reader.url, &reader.dir));
                position += 1;
            }
            Ok(())
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            let e = self.0.malformed("the index has no `skills` array");
            Err(self.0.stop(e))
        }

        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            let e = self.0.malformed("the index has no `skills` array");
            Err(self.0.stop(e))
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            self.visit_unit()
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            self.visit_unit()
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            self.visit_unit()
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            self.visit_unit()
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            self.visit_unit()
        }
    }
}

/// A name offered twice is ambiguous: every copy of it goes to `problems`
/// rather than a guess at which is meant, the copies a [`Keep`] left out
/// included. Returns the rest of `accepted`.
fn refuse_duplicates(
    mut accepted: Vec<(usize, Entry)>,
    left_out: &[(usize, Box<str>)],
    problems: &mut Vec<EntryProblem>,
) -> Vec<Entry> {
    let names = (accepted.iter().map(|(p, e)| (*p, e.name.as_str())))
        .chain(left_out.iter().map(|(p, name)| (*p, &**name)));
    let mut counts =
        std::collections::HashMap::<&str, usize>::with_capacity(accepted.len() + left_out.len());
    for (_, name) in names.clone() {
        *counts.entry(name).or_default() += 1;
    }
    let duplicated: BTreeSet<String> = counts
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(name, _)| name.to_owned())
        .collect();
    if !duplicated.is_empty() {
        for (position, name) in names.filter(|(_, name)| duplicated.contains(*name)) {
            problems.push(EntryProblem {
                position,
                name: Some(name.to_owned()),
                kind: ProblemKind::Invalid,
                message: "the name appears more than once in this index; every copy is refused"
                    .into(),
            });
        }
        accepted.retain(|(_, entry)| !duplicated.contains(&entry.name));
    }
    // Collected in place (the same allocation): a large index is not held twice.
    accepted.into_iter().map(|(_, entry)| entry).collect()
}

/// Which index format `$schema` declares: none is v0.1.0; a schema this
/// skillpm does not know is refused rather than misread.
fn schema_format(schema: Option<&Value>, url: &Url) -> Result<IndexFormat, IndexError> {
    match schema {
        None => Ok(IndexFormat::V0_1_0),
        Some(Value::String(s)) if s == SCHEMA_V0_2_0 => Ok(IndexFormat::V0_2_0),
        Some(Value::String(s)) => Err(IndexError::UnknownSchema {
            url: url.clone(),
            schema: s.clone(),
        }),
        Some(_) => Err(IndexError::Malformed {
            url: url.clone(),
            reason: "`$schema` must be a string".to_owned(),
        }),
    }
}

enum Refusal {
    UnknownType(String),
    Invalid(String),
}

fn invalid<T>(message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::Invalid(message.into()))
}

/// A field that must be a string.
fn string_field<'v>(value: Option<&'v Value>, field: &str) -> Result<&'v str, Refusal> {
    match value {
        Some(Value::String(s)) => Ok(s),
        Some(_) => invalid(format!("`{field}` must be a string")),
        None => invalid(format!("`{field}` is missing")),
    }
}

/// Name, description and version, shared by both formats. The name is
/// checked first, so nothing is built from an invalid one.
fn common_fields(obj: &Map<String, Value>) -> Result<(String, String, Option<String>), Refusal> {
    let name = string_field(obj.get("name"), "name")?.to_owned();
    if !is_valid_name(&name) {
        return invalid(format!(
            "name {name:?} breaks the skill name rule (1-64 characters of a-z, 0-9 and single inner hyphens); refused before any URL was built from it"
        ));
    }
    let description = string_field(obj.get("description"), "description")?.to_owned();
    if description.trim().is_empty() {
        return invalid("`description` is empty");
    }
    let version = match obj.get("version") {
        None | Some(Value::Null) => None,
        Some(Value::String(v)) => Some(v.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => return invalid("`version` must be a string"),
    };
    Ok((name, description, version))
}

fn parse_v2_entry(obj: &Map<String, Value>, index_url: &Url) -> Result<Entry, Refusal> {
    let (name, description, version) = common_fields(obj)?;
    let artifact = match string_field(obj.get("type"), "type")? {
        "skill-md" => ArtifactType::SkillMd,
        "archive" => ArtifactType::Archive,
        other => return Err(Refusal::UnknownType(other.to_owned())),
    };
    let url = artifact_url(obj.get("url"), index_url, "url")?;
    let digest = digest_field(obj.get("digest"), "digest")?;
    let files = match obj.get("files") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => {
            let mut files = Vec::with_capacity(items.len());
            for item in items {
                let Some(path) = item.as_str() else {
                    return invalid("`files` must be a list of path strings");
                };
                paths::check_relative_path(path)
                    .or_else(|why| invalid(format!("`files` entry {path:?}: {why}")))?;
                files.push(path.to_owned());
            }
            Some(files)
        }
        Some(_) => return invalid("`files` must be a list of path strings"),
    };
    let sigstore = match obj.get("sigstore") {
        None | Some(Value::Null) => None,
        bundle => Some(Box::new(artifact_url(bundle, index_url, "sigstore")?)),
    };
    Ok(Entry {
        name,
        description,
        version,
        content: EntryContent::Artifact {
            url,
            digest,
            artifact,
        },
        files,
        sigstore,
    })
}

fn parse_v1_entry(obj: &Map<String, Value>, index_url: &Url, dir: &Url) -> Result<Entry, Refusal> {
    let (name, description, version) = common_fields(obj)?;
    if let Some(package) = obj.get("package").filter(|p| !p.is_null()) {
        let Value::Object(package) = package else {
            return invalid("`package` must be an object with `url` and `digest`");
        };
        let url = artifact_url(package.get("url"), index_url, "package.url")?;
        let digest = digest_field(package.get("digest"), "package.digest")?;
        return Ok(Entry {
            name,
            description,
            version,
            content: EntryContent::Artifact {
                url,
                digest,
                artifact: ArtifactType::Archive,
            },
            files: None,
            sigstore: None,
        });
    }
    let Some(Value::Array(items)) = obj.get("files") else {
        return invalid("`files` is missing or not a list");
    };
    if items.is_empty() {
        return invalid("`files` is empty");
    }
    if items.len() > MAX_FILES {
        return invalid(format!(
            "`files` lists {} files; the limit is {MAX_FILES}",
            items.len()
        ));
    }
    let mut files = Vec::with_capacity(items.len());
    let mut seen = BTreeSet::new();
    for item in items {
        let (path, digest) = match item {
            Value::String(path) => (path.as_str(), None),
            Value::Object(file) => {
                let Some(path) = file.get("path").and_then(Value::as_str) else {
                    return invalid("a `files` object has no string `path`");
                };
                let digest = match file.get("digest") {
                    None | Some(Value::Null) => None,
                    d => Some(digest_field(d, "files[].digest")?),
                };
                (path, digest)
            }
            _ => return invalid("`files` entries must be path strings or {path, digest} objects"),
        };
        paths::check_relative_path(path)
            .or_else(|why| invalid(format!("`files` entry {path:?}: {why}")))?;
        if !seen.insert(path.to_owned()) {
            return invalid(format!("`files` lists {path:?} twice"));
        }
        files.push(IndexFile {
            path: path.to_owned(),
            url: paths::file_url(dir, &name, path),
            digest,
        });
    }
    if !seen.contains("SKILL.md") {
        return invalid("`files` does not list SKILL.md");
    }
    Ok(Entry {
        name,
        description,
        version,
        content: EntryContent::Files { files },
        files: None,
        sigstore: None,
    })
}

/// Resolves an entry's `url` against the index URL (RFC 3986) and refuses a
/// scheme the index may not point at.
fn artifact_url(value: Option<&Value>, index_url: &Url, field: &str) -> Result<Url, Refusal> {
    let text = string_field(value, field)?;
    if text.is_empty() {
        return invalid(format!("`{field}` is empty"));
    }
    // A URL with credentials would be written to skills.lock and the cache
    // (docs/network.md): refused, and shown without them.
    let no_credentials = |text: &str| {
        crate::net::refuse_credentials(text).or_else(|e| invalid(format!("`{field}`: {e}")))
    };
    no_credentials(text)?;
    let url = index_url.join(text).or_else(|e| {
        invalid(format!(
            "`{field}` {text:?} is not a valid URL reference: {e}"
        ))
    })?;
    no_credentials(url.as_str())?;
    if !paths::scheme_allowed(index_url.scheme(), url.scheme()) {
        return invalid(format!(
            "`{field}` {url} uses {}: an index served over {} may not point there",
            url.scheme(),
            index_url.scheme()
        ));
    }
    Ok(url)
}

fn digest_field(value: Option<&Value>, field: &str) -> Result<Digest, Refusal> {
    let text = string_field(value, field)?;
    text.parse().or_else(|_| {
        invalid(format!(
            "`{field}` {text:?} is not `sha256:` followed by 64 lowercase hex characters"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Classify, Exit};

    const D: &str = "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e";

    fn url() -> Url {
        Url::parse("https://reg.example/.well-known/agent-skills/index.json").unwrap()
    }

    fn parse(json: &str) -> Result<ParsedIndex, IndexError> {
        parse_index(json.as_bytes(), &url())
    }

    #[test]
    fn v2_entries_resolve_against_the_index_url() {
        let index = parse(&format!(
            r#"{{"$schema": "{SCHEMA_V0_2_0}", "future": 1, "skills": [
              {{"name": "pdf", "type": "archive", "description": "PDFs", "url": "pdf.tar.gz", "digest": "{D}", "version": "1.2", "extra": true}},
              {{"name": "one", "type": "skill-md", "description": "One", "url": "../one/SKILL.md", "digest": "{D}"}},
              {{"name": "abs", "type": "skill-md", "description": "Abs", "url": "https://cdn.example/x/SKILL.md", "digest": "{D}"}}
            ]}}"#
        ))
        .unwrap();
        assert_eq!(index.format, IndexFormat::V0_2_0);
        assert!(index.problems.is_empty(), "{:?}", index.problems);
        let urls: Vec<String> = index
            .entries
            .iter()
            .map(|e| e.url().unwrap().to_string())
            .collect();
        assert_eq!(
            urls,
            [
                "https://reg.example/.well-known/agent-skills/pdf.tar.gz",
                "https://reg.example/.well-known/one/SKILL.md",
                "https://cdn.example/x/SKILL.md"
            ]
        );
        assert_eq!(index.entries[0].version.as_deref(), Some("1.2"));
        assert_eq!(index.entries[0].format_label(), "archive");
    }

    #[test]
    fn unknown_schema_refuses_the_whole_index() {
        let err = parse(r#"{"$schema": "https://schemas.agentskills.io/discovery/9.0.0/schema.json", "skills": []}"#)
            .unwrap_err();
        assert!(matches!(err, IndexError::UnknownSchema { .. }), "{err}");
        assert_eq!(err.exit(), Exit::Network);
    }

    #[test]
    fn bad_entries_are_reported_and_good_ones_kept() {
        let index = parse(&format!(
            r#"{{"$schema": "{SCHEMA_V0_2_0}", "skills": [
              {{"name": "good", "type": "archive", "description": "ok", "url": "good.zip", "digest": "{D}"}},
              {{"name": "future", "type": "plugin", "description": "?", "url": "f", "digest": "{D}"}},
              {{"name": "../../etc", "type": "archive", "description": "x", "url": "x", "digest": "{D}"}},
              {{"name": "nodigest", "type": "archive", "description": "x", "url": "x.zip", "digest": "sha256:XYZ"}},
              {{"name": "down", "type": "archive", "description": "x", "url": "http://reg.example/x.zip", "digest": "{D}"}},
              {{"name": "local", "type": "archive", "description": "x", "url": "file:///etc/passwd", "digest": "{D}"}},
              "not an object"
            ]}}"#
        ))
        .unwrap();
        assert_eq!(index.entries.len(), 1);
        assert_eq!(index.entries[0].name, "good");
        let kinds: Vec<_> = index
            .problems
            .iter()
            .map(|p| (p.position, p.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                (1, ProblemKind::UnknownType),
                (2, ProblemKind::Invalid),
                (3, ProblemKind::Invalid),
                (4, ProblemKind::Invalid),
                (5, ProblemKind::Invalid),
                (6, ProblemKind::Invalid)
            ]
        );
        assert!(
            index.problems[1].message.contains("name rule"),
            "{}",
            index.problems[1]
        );
    }

    /// `search` keeps only the entries its query matches as the index
    /// streams; what it keeps and the problems are those of a whole parse
    /// filtered afterwards, the rule on names offered twice included when
    /// only one copy matches (docs/performance.md, the 50,000-skill index).
    #[test]
    fn a_kept_parse_is_the_whole_parse_filtered() {
        let json = format!(
            r#"{{"$schema": "{SCHEMA_V0_2_0}", "skills": [
              {{"name": "pdf-tools", "type": "archive", "description": "PDFs", "url": "p.zip", "digest": "{D}"}},
              {{"name": "twin", "type": "archive", "description": "reads PDF forms", "url": "t1.zip", "digest": "{D}"}},
              {{"name": "csv", "type": "archive", "description": "tables", "url": "c.zip", "digest": "{D}"}},
              {{"name": "../bad", "type": "archive", "description": "pdf", "url": "b.zip", "digest": "{D}"}},
              {{"name": "twin", "type": "archive", "description": "tables too", "url": "t2.zip", "digest": "{D}"}},
              {{"name": "later", "type": "skill-md", "description": "Pdf at the end", "url": "l.md", "digest": "{D}"}}
            ]}}"#
        );
        let whole = parse(&json).unwrap();
        let wanted = |e: &Entry| e.description.to_lowercase().contains("pdf");
        let mut keep = |_, e: Entry| match wanted(&e) {
            true => Kept::Whole(e),
            false => Kept::Name(e.name.into()),
        };
        let kept = parse_index_kept(json.as_bytes(), &url(), Some(&mut keep)).unwrap();
        let filtered: Vec<&Entry> = whole.entries.iter().filter(|e| wanted(e)).collect();
        assert_eq!(kept.entries.iter().collect::<Vec<_>>(), filtered);
        assert_eq!(
            (kept.entries.iter().map(|e| e.name.as_str())).collect::<Vec<_>>(),
            ["pdf-tools", "later"]
        );
        assert_eq!(kept.problems, whole.problems);
        let twins: Vec<_> = (kept.problems.iter())
            .filter(|p| p.name.as_deref() == Some("twin"))
            .map(|p| p.position)
            .collect();
        assert_eq!(twins, [1, 4], "{:?}", kept.problems);
        // From a reader (the snapshot), the same.
        let read = parse_index_from(json.as_bytes(), &url(), Some(&mut keep)).unwrap();
        assert_eq!(read.entries, kept.entries);
        assert_eq!(read.problems, kept.problems);
    }

    #[test]
    fn duplicate_names_are_all_refused() {
        let index = parse(&format!(
            r#"{{"$schema": "{SCHEMA_V0_2_0}", "skills": [
              {{"name": "a", "type": "archive", "description": "1", "url": "a1.zip", "digest": "{D}"}},
              {{"name": "a", "type": "archive", "description": "2", "url": "a2.zip", "digest": "{D}"}}
            ]}}"#
        ))
        .unwrap();
        assert!(index.entries.is_empty());
        assert_eq!(index.problems.len(), 2);
    }

    #[test]
    fn v1_files_are_served_under_the_skill_folder() {
        let index = parse(
            r#"{"skills": [
              {"name": "pdf", "description": "PDFs", "files": ["SKILL.md", "scripts/run.sh"]},
              {"name": "evil", "description": "x", "files": ["SKILL.md", "../../secret"]},
              {"name": "nomd", "description": "x", "files": ["README.md"]},
              {"name": "digests", "description": "x", "files": [{"path": "SKILL.md", "digest": "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"}]}
            ]}"#,
        )
        .unwrap();
        assert_eq!(index.format, IndexFormat::V0_1_0);
        let names: Vec<_> = index.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["pdf", "digests"]);
        let EntryContent::Files { files } = &index.entries[0].content else {
            panic!("not files")
        };
        assert_eq!(
            files[1].url.as_str(),
            "https://reg.example/.well-known/agent-skills/pdf/scripts/run.sh"
        );
        let EntryContent::Files { files } = &index.entries[1].content else {
            panic!("not files")
        };
        assert!(files[0].digest.is_some());
        assert_eq!(index.problems.len(), 2);
    }

    #[test]
    fn v1_package_is_an_archive() {
        let index = parse(&format!(
            r#"{{"version": "0.2.0", "skills": [{{"name": "w", "description": "x", "files": [{{"path": "SKILL.md", "digest": "{D}"}}], "package": {{"url": "w.tar.gz", "digest": "{D}"}}}}]}}"#
        ))
        .unwrap();
        assert_eq!(index.entries[0].format_label(), "archive");
    }

    #[test]
    fn non_indexes_are_refused() {
        assert!(matches!(parse("<html>"), Err(IndexError::NotJson { .. })));
        assert!(matches!(parse("[]"), Err(IndexError::Malformed { .. })));
        assert!(matches!(parse("{}"), Err(IndexError::Malformed { .. })));
    }
}
