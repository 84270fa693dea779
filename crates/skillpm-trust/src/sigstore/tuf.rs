//! A minimal TUF client for Sigstore's repository
//! (docs/provenance.md#refreshing-the-trusted-root): what `skillpm trust
//! update` without FILE uses to fetch Sigstore's `trusted_root.json`.
//!
//! It covers what Sigstore's repository uses (TUF specification 1.0, §5
//! "detailed client workflow"): root N → N+1, each new root signed by a
//! threshold of the old root's keys and of its own; then timestamp →
//! snapshot → targets, each signed by a threshold of its role's keys, with
//! the versions, lengths and hashes the role above lists (consistent
//! snapshots: `N.snapshot.json`, `N.targets.json`,
//! `targets/<sha256>.trusted_root.json`), no metadata past its expiry, and
//! no version older than the one this machine kept last time (rollback).
//! Delegated targets roles are not read: `trusted_root.json` is a target of
//! the top-level `targets` role. Keys: ECDSA P-256 (PEM or hex, as
//! Sigstore's roots have them) and Ed25519, verified with aws-lc-rs.
//!
//! Nothing here opens a socket: the caller hands in a [`Mirror`] (the one
//! HTTP client, in `ops::trust`), and nothing is written until every check
//! passed ([`Refreshed::keep`]).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use sha2::{Digest as _, Sha256, Sha512};

use super::cert::{Curve, VerifyingKey, pem_block};
use super::show_time;
use crate::error::{Classify, Exit};

/// Sigstore's public TUF repository.
pub const DEFAULT_MIRROR: &str = "https://tuf-repo-cdn.sigstore.dev";
/// The TUF root shipped with skillpm: version 15 of Sigstore's root
/// (`metadata/root_history/15.root.json` of the sigstore/root-signing
/// repository), the trust anchor of the first update.
pub const SHIPPED_TUF_ROOT: &[u8] = include_bytes!("tuf_root.json");
/// The folder in the user's state folder that keeps the TUF metadata last
/// trusted (`root.json`, `timestamp.json`, `snapshot.json`, `targets.json`).
pub const STATE_DIR: &str = "sigstore-tuf";
/// The one target skillpm reads.
pub const TARGET: &str = "trusted_root.json";

/// The most bytes each file may have (python-tuf's defaults; a target's
/// own length comes from `targets.json`).
const MAX_ROOT: u64 = 512 * 1024;
const MAX_TIMESTAMP: u64 = 16 * 1024;
const MAX_SNAPSHOT: u64 = 2 * 1024 * 1024;
const MAX_TARGETS: u64 = 5 * 1024 * 1024;
const MAX_TARGET: u64 = 4 * 1024 * 1024;
/// The most root versions one update walks.
const MAX_ROOT_STEPS: u64 = 256;

const ROLES: [&str; 4] = ["root", "timestamp", "snapshot", "targets"];

#[derive(Debug, thiserror::Error)]
pub enum TufError {
    #[error("{file} of Sigstore's TUF repository is not metadata skillpm reads: {reason}")]
    Malformed { file: String, reason: String },
    #[error(
        "{file}: {valid} valid signature(s) by keys of the `{role}` role of TUF root version {root}, {threshold} required: it was not signed by Sigstore's keys; nothing was changed"
    )]
    Threshold {
        file: String,
        role: String,
        root: u64,
        valid: usize,
        threshold: u64,
    },
    #[error(
        "{file}: version {found}, but {said} names version {expected}: files of different states of the repository (a mix-and-match attack, or a mirror caught mid-update); nothing was changed, try again later"
    )]
    Version {
        file: String,
        found: u64,
        expected: u64,
        said: String,
    },
    #[error(
        "{file}: {what} {found} is older than {trusted}, which this machine trusted before: a rollback to old metadata; nothing was changed\n  if you restored an older state on purpose, remove {state} to start again from the root shipped with skillpm"
    )]
    Rollback {
        file: String,
        what: String,
        found: u64,
        trusted: u64,
        state: String,
    },
    #[error(
        "{file} (version {version}) expired at {expires}: the mirror serves stale metadata (a freeze attack, or a mirror that stopped updating); nothing was changed, try again later or another --mirror"
    )]
    Expired {
        file: String,
        version: u64,
        expires: String,
    },
    #[error(
        "{file}: {reason}, not what {said} lists: a changed or substituted file; nothing was changed"
    )]
    Mismatch {
        file: String,
        reason: String,
        said: String,
    },
    #[error("the TUF mirror has no {file}{why}")]
    Missing { file: String, why: String },
    #[error(
        "the TUF metadata kept in {path} cannot be used: {reason}\n  remove that folder to start again from the root shipped with skillpm"
    )]
    State { path: String, reason: String },
}

crate::classified!(TufError);
impl Classify for TufError {
    fn exit(&self) -> Exit {
        match self {
            TufError::Missing { .. } => Exit::Network,
            TufError::State { .. } => Exit::Other,
            TufError::Malformed { .. }
            | TufError::Threshold { .. }
            | TufError::Version { .. }
            | TufError::Rollback { .. }
            | TufError::Expired { .. }
            | TufError::Mismatch { .. } => Exit::Integrity,
        }
    }
}

/// Where TUF files come from.
pub trait Mirror {
    /// The file at `path` below the mirror (`16.root.json`,
    /// `targets/<sha256>.trusted_root.json`), at most `max` bytes (more is
    /// an error of the mirror's); `Ok(None)` when the mirror has no such
    /// file.
    fn fetch(&mut self, path: &str, max: u64) -> anyhow::Result<Option<Vec<u8>>>;
}

/// OLPC canonical JSON, the form TUF signs: object keys sorted, no
/// whitespace, strings with only `\` and `"` escaped, integers only.
pub fn canonical(value: &Value) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    write_canonical(value, &mut out)?;
    Ok(out)
}

fn write_canonical(value: &Value, out: &mut Vec<u8>) -> Result<(), String> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => out.extend_from_slice(i.to_string().as_bytes()),
            (_, Some(u)) => out.extend_from_slice(u.to_string().as_bytes()),
            _ => return Err(format!("the number {n} (canonical JSON has integers only)")),
        },
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out)?;
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push(b'{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                write_canonical(&map[key], out)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for b in s.bytes() {
        if b == b'"' || b == b'\\' {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[derive(Deserialize)]
struct Envelope {
    signatures: Vec<Signature>,
    signed: Value,
}

#[derive(Deserialize)]
struct Signature {
    keyid: String,
    sig: String,
}

#[derive(Deserialize)]
struct Common {
    #[serde(rename = "_type")]
    kind: String,
    version: u64,
    expires: String,
}

#[derive(Deserialize)]
struct RootBody {
    #[serde(default)]
    consistent_snapshot: bool,
    keys: BTreeMap<String, Key>,
    roles: BTreeMap<String, Role>,
}

#[derive(Deserialize)]
struct Key {
    keytype: String,
    scheme: String,
    keyval: KeyVal,
}

#[derive(Deserialize)]
struct KeyVal {
    public: String,
}

#[derive(Deserialize, PartialEq, Eq)]
struct Role {
    keyids: Vec<String>,
    threshold: u64,
}

#[derive(Deserialize)]
struct MetaBody {
    meta: BTreeMap<String, MetaFile>,
}

#[derive(Deserialize, Clone)]
struct MetaFile {
    version: u64,
    length: Option<u64>,
    #[serde(default)]
    hashes: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct TargetsBody {
    targets: BTreeMap<String, TargetFile>,
}

#[derive(Deserialize)]
struct TargetFile {
    length: u64,
    hashes: BTreeMap<String, String>,
}

/// One metadata file, parsed (its signatures not yet checked).
struct Doc<T> {
    file: String,
    bytes: Vec<u8>,
    canonical: Vec<u8>,
    signatures: Vec<Signature>,
    version: u64,
    expires: String,
    body: T,
}

impl<T: DeserializeOwned> Doc<T> {
    fn parse(file: &str, role: &str, bytes: Vec<u8>) -> Result<Self, TufError> {
        let bad = |reason: String| TufError::Malformed {
            file: file.to_owned(),
            reason,
        };
        let env: Envelope = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
        let common: Common =
            serde_json::from_value(env.signed.clone()).map_err(|e| bad(e.to_string()))?;
        if common.kind != role {
            return Err(bad(format!("its type is {:?}, not {role:?}", common.kind)));
        }
        let body: T = serde_json::from_value(env.signed.clone()).map_err(|e| bad(e.to_string()))?;
        Ok(Doc {
            file: file.to_owned(),
            canonical: canonical(&env.signed).map_err(bad)?,
            signatures: env.signatures,
            version: common.version,
            expires: common.expires,
            body,
            bytes,
        })
    }

    fn check_expiry(&self, now: u64) -> Result<(), TufError> {
        let at = super::super::time::parse_rfc3339(&self.expires)
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs());
        match at {
            Some(at) if at > now => Ok(()),
            Some(at) => Err(TufError::Expired {
                file: self.file.clone(),
                version: self.version,
                expires: show_time(at),
            }),
            None => Err(TufError::Malformed {
                file: self.file.clone(),
                reason: format!("its expiry {:?} is not an RFC 3339 time", self.expires),
            }),
        }
    }
}

/// A key TUF names, as aws-lc-rs verifies it; `None` for a key type
/// skillpm does not read (it never counts towards a threshold).
fn key_of(key: &Key) -> Option<VerifyingKey> {
    let public = key.keyval.public.as_str();
    match (key.keytype.as_str(), key.scheme.as_str()) {
        ("ecdsa" | "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256") => {
            let key = match pem_block(public.as_bytes(), "PUBLIC KEY") {
                Some(der) => VerifyingKey::from_spki(&der).ok()?,
                None => VerifyingKey::from_raw(Curve::P256, hex::decode(public).ok()?),
            };
            (key.curve() == Curve::P256).then_some(key)
        }
        ("ed25519", "ed25519") => {
            let raw = hex::decode(public).ok()?;
            (raw.len() == 32).then(|| VerifyingKey::from_raw(Curve::Ed25519, raw))
        }
        _ => None,
    }
}

impl Doc<RootBody> {
    /// Checks that `doc` carries a threshold of valid signatures by the
    /// keys this root gives `role`.
    fn check_signed<T>(&self, role: &str, doc: &Doc<T>) -> Result<(), TufError> {
        let bad = |reason: String| TufError::Malformed {
            file: self.file.clone(),
            reason,
        };
        let r =
            (self.body.roles.get(role)).ok_or_else(|| bad(format!("it names no {role} role")))?;
        let mut valid: HashSet<&[u8]> = HashSet::new();
        let mut counted: HashSet<&str> = HashSet::new();
        let keys: Vec<Option<VerifyingKey>> = (doc.signatures.iter())
            .map(|s| {
                let listed = r.keyids.contains(&s.keyid);
                listed.then(|| self.body.keys.get(&s.keyid).and_then(key_of))?
            })
            .collect();
        for (s, key) in doc.signatures.iter().zip(&keys) {
            let Some(key) = key else { continue };
            if counted.contains(s.keyid.as_str()) || valid.contains(key.bytes()) {
                continue;
            }
            let Ok(sig) = hex::decode(&s.sig) else {
                continue;
            };
            if key.verifies(&doc.canonical, &sig) {
                counted.insert(&s.keyid);
                valid.insert(key.bytes());
            }
        }
        if r.threshold == 0 || (valid.len() as u64) < r.threshold {
            return Err(TufError::Threshold {
                file: doc.file.clone(),
                role: role.to_owned(),
                root: self.version,
                valid: valid.len(),
                threshold: r.threshold,
            });
        }
        Ok(())
    }

    /// A root, checked to be signed by a threshold of its own root keys.
    fn self_signed(file: &str, bytes: Vec<u8>) -> Result<Self, TufError> {
        let root: Doc<RootBody> = Doc::parse(file, "root", bytes)?;
        root.check_signed("root", &root)?;
        Ok(root)
    }

    /// Where `role`'s metadata of `version` is on the mirror.
    fn path(&self, role: &str, version: u64) -> String {
        if self.body.consistent_snapshot {
            format!("{version}.{role}.json")
        } else {
            format!("{role}.json")
        }
    }
}

/// The versions of a trusted set of metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Versions {
    pub root: u64,
    pub timestamp: u64,
    pub snapshot: u64,
    pub targets: u64,
}

/// The TUF metadata this machine trusts: a root (the one kept in the state
/// folder, else the shipped one) and, for rollback checks, the timestamp,
/// snapshot and targets kept last time.
pub struct Trusted {
    root: Doc<RootBody>,
    kept: BTreeMap<&'static str, Vec<u8>>,
    state: PathBuf,
}

impl Trusted {
    /// The metadata kept in `<state>/sigstore-tuf/`, or the shipped root.
    pub fn load(state: &Path) -> Result<Self, TufError> {
        let dir = state.join(STATE_DIR);
        let bad = |path: &Path, reason: String| TufError::State {
            path: path.display().to_string(),
            reason,
        };
        let mut kept = BTreeMap::new();
        for role in ROLES {
            let path = dir.join(format!("{role}.json"));
            match std::fs::read(&path) {
                Ok(bytes) => {
                    kept.insert(role, bytes);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(bad(&path, e.to_string())),
            }
        }
        let root = match kept.remove("root") {
            Some(bytes) => {
                let path = dir.join("root.json");
                let shown = path.display().to_string();
                Doc::self_signed(&shown, bytes).map_err(|e| bad(&path, e.to_string()))?
            }
            None => Doc::self_signed("the shipped TUF root", SHIPPED_TUF_ROOT.to_vec())?,
        };
        Ok(Trusted {
            root,
            kept,
            state: dir,
        })
    }

    /// Only `root` (self-signed), nothing kept: a first update from it.
    pub fn from_root(root: &[u8]) -> Result<Self, TufError> {
        Ok(Trusted {
            root: Doc::self_signed("the TUF root", root.to_vec())?,
            kept: BTreeMap::new(),
            state: PathBuf::from(STATE_DIR),
        })
    }

    /// Kept metadata of `role`, when it still verifies under `root` (after
    /// a rotation of that role's keys it does not, and is not held against
    /// the new metadata: TUF 1.0 §5.3.11).
    fn kept<T: DeserializeOwned>(&self, role: &str, root: &Doc<RootBody>) -> Option<Doc<T>> {
        let bytes = self.kept.get(role)?.clone();
        let doc = Doc::parse(&format!("{role}.json"), role, bytes).ok()?;
        root.check_signed(role, &doc).ok()?;
        Some(doc)
    }

    fn rollback(&self, file: &str, what: &str, found: u64, trusted: u64) -> Result<(), TufError> {
        if found < trusted {
            return Err(TufError::Rollback {
                file: file.to_owned(),
                what: what.to_owned(),
                found,
                trusted,
                state: self.state.display().to_string(),
            });
        }
        Ok(())
    }

    /// Walks the mirror from the trusted root to the newest
    /// `trusted_root.json` at time `now` (seconds since the epoch). Every
    /// file is checked before anything is kept.
    pub fn refresh(&self, mirror: &mut dyn Mirror, now: u64) -> anyhow::Result<Refreshed> {
        // 1. Root N → N+1 while the mirror has one.
        let mut root = Doc::<RootBody>::parse(&self.root.file, "root", self.root.bytes.clone())?;
        let start = root.version;
        while root.version < start + MAX_ROOT_STEPS {
            let n = root.version + 1;
            let file = format!("{n}.root.json");
            let Some(bytes) = mirror.fetch(&file, MAX_ROOT)? else {
                break;
            };
            let new: Doc<RootBody> = Doc::parse(&file, "root", bytes)?;
            root.check_signed("root", &new)?;
            new.check_signed("root", &new)?;
            if new.version != n {
                return Err(TufError::Version {
                    file,
                    found: new.version,
                    expected: n,
                    said: "its file name".into(),
                }
                .into());
            }
            root = new;
        }
        root.check_expiry(now)?;

        // 2. The timestamp.
        let file = "timestamp.json";
        let bytes = (mirror.fetch(file, MAX_TIMESTAMP)?).ok_or_else(|| missing(file))?;
        let timestamp: Doc<MetaBody> = Doc::parse(file, "timestamp", bytes)?;
        root.check_signed("timestamp", &timestamp)?;
        let snapshot_meta = meta_of(&timestamp, "snapshot.json")?;
        if let Some(old) = self.kept::<MetaBody>("timestamp", &root) {
            self.rollback(file, "version", timestamp.version, old.version)?;
            if let Some(m) = old.body.meta.get("snapshot.json") {
                self.rollback(
                    file,
                    "the snapshot version",
                    snapshot_meta.version,
                    m.version,
                )?;
            }
        }
        timestamp.check_expiry(now)?;

        // 3. The snapshot the timestamp names.
        let file = root.path("snapshot", snapshot_meta.version);
        let bytes = fetch_listed(
            mirror,
            &file,
            &snapshot_meta,
            MAX_SNAPSHOT,
            "timestamp.json",
        )?;
        let snapshot: Doc<MetaBody> = Doc::parse(&file, "snapshot", bytes)?;
        root.check_signed("snapshot", &snapshot)?;
        same_version(&snapshot, snapshot_meta.version, "timestamp.json")?;
        if let Some(old) = self.kept::<MetaBody>("snapshot", &root) {
            for (name, was) in &old.body.meta {
                let now_at = snapshot.body.meta.get(name).map_or(0, |m| m.version);
                self.rollback(&file, &format!("{name}'s version"), now_at, was.version)?;
            }
        }
        snapshot.check_expiry(now)?;

        // 4. The targets the snapshot names.
        let targets_meta = meta_of(&snapshot, "targets.json")?;
        let file = root.path("targets", targets_meta.version);
        let said = snapshot.file.clone();
        let bytes = fetch_listed(mirror, &file, &targets_meta, MAX_TARGETS, &said)?;
        let targets: Doc<TargetsBody> = Doc::parse(&file, "targets", bytes)?;
        root.check_signed("targets", &targets)?;
        same_version(&targets, targets_meta.version, &said)?;
        if let Some(old) = self.kept::<TargetsBody>("targets", &root) {
            self.rollback(&file, "version", targets.version, old.version)?;
        }
        targets.check_expiry(now)?;

        // 5. The one target.
        let target = (targets.body.targets.get(TARGET)).ok_or_else(|| TufError::Malformed {
            file: targets.file.clone(),
            reason: format!("it lists no {TARGET}"),
        })?;
        let sha256 = (target.hashes.get("sha256")).ok_or_else(|| TufError::Malformed {
            file: targets.file.clone(),
            reason: format!("it lists no sha256 for {TARGET}"),
        })?;
        let file = if root.body.consistent_snapshot {
            format!("targets/{sha256}.{TARGET}")
        } else {
            format!("targets/{TARGET}")
        };
        let listed = MetaFile {
            version: 0,
            length: Some(target.length),
            hashes: target.hashes.clone(),
        };
        let content = fetch_listed(mirror, &file, &listed, MAX_TARGET, &targets.file)?;

        let versions = Versions {
            root: root.version,
            timestamp: timestamp.version,
            snapshot: snapshot.version,
            targets: targets.version,
        };
        Ok(Refreshed {
            versions,
            target: content,
            files: vec![
                ("root.json", root.bytes),
                ("timestamp.json", timestamp.bytes),
                ("snapshot.json", snapshot.bytes),
                ("targets.json", targets.bytes),
            ],
        })
    }
}

fn missing(file: &str) -> TufError {
    TufError::Missing {
        file: file.to_owned(),
        why: String::new(),
    }
}

fn meta_of(doc: &Doc<MetaBody>, name: &str) -> Result<MetaFile, TufError> {
    (doc.body.meta.get(name).cloned()).ok_or_else(|| TufError::Malformed {
        file: doc.file.clone(),
        reason: format!("it lists no {name}"),
    })
}

fn same_version<T>(doc: &Doc<T>, expected: u64, said: &str) -> Result<(), TufError> {
    if doc.version != expected {
        return Err(TufError::Version {
            file: doc.file.clone(),
            found: doc.version,
            expected,
            said: said.to_owned(),
        });
    }
    Ok(())
}

/// Fetches `file`, which `said` lists with `listed`'s length and hashes
/// (when it gives them), reading at most that length (else `cap`).
fn fetch_listed(
    mirror: &mut dyn Mirror,
    file: &str,
    listed: &MetaFile,
    cap: u64,
    said: &str,
) -> anyhow::Result<Vec<u8>> {
    let max = listed.length.map_or(cap, |l| l.min(cap));
    let bytes = mirror.fetch(file, max)?.ok_or_else(|| TufError::Missing {
        file: file.to_owned(),
        why: format!(", which {said} lists"),
    })?;
    let mismatch = |reason: String| TufError::Mismatch {
        file: file.to_owned(),
        reason,
        said: said.to_owned(),
    };
    if let Some(length) = listed.length
        && bytes.len() as u64 != length
    {
        return Err(mismatch(format!("it has {} bytes, not {length}", bytes.len())).into());
    }
    for (algorithm, expected) in &listed.hashes {
        let actual = match algorithm.as_str() {
            "sha256" => hex::encode(Sha256::digest(&bytes)),
            "sha512" => hex::encode(Sha512::digest(&bytes)),
            _ => continue,
        };
        if !actual.eq_ignore_ascii_case(expected) {
            return Err(mismatch(format!("its {algorithm} is {actual}")).into());
        }
    }
    Ok(bytes)
}

/// A verified update: the target's bytes and the metadata to keep.
pub struct Refreshed {
    pub versions: Versions,
    /// `trusted_root.json`, as the targets role listed it.
    pub target: Vec<u8>,
    files: Vec<(&'static str, Vec<u8>)>,
}

impl Refreshed {
    /// Keeps the metadata in `<state>/sigstore-tuf/` (each file replaced
    /// atomically), the reference of the next update's rollback checks.
    pub fn keep(&self, state: &Path) -> std::io::Result<()> {
        let dir = state.join(STATE_DIR);
        std::fs::create_dir_all(&dir)?;
        for (name, bytes) in &self.files {
            let path = dir.join(name);
            if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
                crate::fs::write_atomic(&path, bytes)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_json_sorts_keys_and_escapes_only_quotes_and_backslashes() {
        let v: Value =
            serde_json::from_str(r#"{"b": [1, -2, true, null], "a": "x\n\"\\é", "c": {}}"#)
                .unwrap();
        assert_eq!(
            canonical(&v).unwrap(),
            "{\"a\":\"x\n\\\"\\\\é\",\"b\":[1,-2,true,null],\"c\":{}}".as_bytes()
        );
        let float: Value = serde_json::from_str("[1.5]").unwrap();
        assert!(canonical(&float).is_err());
    }

    #[test]
    fn the_shipped_tuf_root_is_sigstores_signed_by_its_own_threshold() {
        let trusted = Trusted::from_root(SHIPPED_TUF_ROOT).unwrap();
        assert_eq!(trusted.root.version, 15);
    }
}
