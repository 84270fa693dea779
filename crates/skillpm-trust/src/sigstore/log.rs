//! The transparency log's word (Rekor v1): the signed entry timestamp
//! over the entry, the RFC 6962 inclusion proof, the checkpoint (a signed
//! note) over the proof's root, and the entry's body naming the same
//! signature, certificate and digest as the bundle
//! (docs/provenance.md#what-is-checked).

use sha2::{Digest as _, Sha256};

use super::bundle::{TlogEntry, b64};
use super::cert::VerifyingKey;

/// What the log vouches for, once checked.
pub struct LogProof {
    pub log_index: u64,
    pub integrated_time: u64,
}

/// A log key of the trusted root.
pub struct LogKey {
    /// sha256 of the key's DER SubjectPublicKeyInfo (the log id).
    pub id: Vec<u8>,
    pub key: VerifyingKey,
    /// Seconds since the epoch the key is valid from and to.
    pub valid: (u64, Option<u64>),
}

/// Checks `entry` against the log keys: its signed entry timestamp (which
/// authenticates the integrated time), and its inclusion proof and
/// checkpoint when present.
pub fn check_entry(entry: &TlogEntry, keys: &[LogKey]) -> Result<LogProof, String> {
    let id = b64(&entry.log_id.key_id)?;
    let key = (keys.iter().find(|k| k.id == id)).ok_or_else(|| {
        format!(
            "it was logged by a log the trusted root does not know (log id {})",
            hex::encode(&id)
        )
    })?;
    let body = b64(&entry.canonicalized_body)?;
    // The integrated time is the log's signed word only through the
    // promise: a bundle without one (Rekor v2, a timestamp authority's
    // time instead) is not read (docs/provenance.md#what-is-left-out).
    let promise = (entry.inclusion_promise.as_ref()).ok_or(
        "it carries no signed entry timestamp (inclusion promise); skillpm reads the time a certificate was used only from one",
    )?;
    let time = entry
        .integrated_time
        .ok_or("its log entry has no integrated time")?;
    let signed = format!(
        r#"{{"body":"{}","integratedTime":{},"logID":"{}","logIndex":{}}}"#,
        entry.canonicalized_body.trim(),
        time,
        hex::encode(&id),
        entry.log_index
    );
    if !key
        .key
        .verifies(signed.as_bytes(), &b64(&promise.signed_entry_timestamp)?)
    {
        return Err(format!(
            "its signed entry timestamp is not the log's signature over entry {} at {}",
            entry.log_index,
            super::cert::show_time(time)
        ));
    }
    if time < key.valid.0 || key.valid.1.is_some_and(|end| time > end) {
        return Err("the log's key was not valid at the entry's time".into());
    }
    if let Some(proof) = &entry.inclusion_proof {
        let leaf = leaf_hash(&body);
        let hashes: Vec<Vec<u8>> = (proof.hashes.iter())
            .map(|h| b64(h))
            .collect::<Result<_, _>>()?;
        let root = b64(&proof.root_hash)?;
        let computed = root_from_proof(proof.log_index, proof.tree_size, leaf, &hashes)?;
        if computed.as_slice() != root.as_slice() {
            return Err(format!(
                "its inclusion proof does not lead to the tree root it names (entry {} in a tree of {})",
                proof.log_index, proof.tree_size
            ));
        }
        let checkpoint = (proof.checkpoint.as_ref())
            .ok_or("its inclusion proof carries no signed checkpoint")?;
        check_checkpoint(&checkpoint.envelope, key, proof.tree_size, &root)?;
    }
    Ok(LogProof {
        log_index: entry.log_index,
        integrated_time: time,
    })
}

/// RFC 6962 §2.1: a leaf's hash.
pub fn leaf_hash(body: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([0u8]);
    h.update(body);
    h.finalize().into()
}

fn node_hash(left: &[u8], right: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([1u8]);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// The root an audit path leads to (RFC 9162 §2.1.3.2).
pub fn root_from_proof(
    index: u64,
    size: u64,
    leaf: [u8; 32],
    path: &[Vec<u8>],
) -> Result<[u8; 32], String> {
    if index >= size {
        return Err(format!(
            "its inclusion proof puts entry {index} outside a tree of {size}"
        ));
    }
    let (mut fn_, mut sn) = (index, size - 1);
    let mut r = leaf;
    for p in path {
        if p.len() != 32 {
            return Err("its inclusion proof holds a hash that is not 32 bytes".into());
        }
        if sn == 0 {
            return Err("its inclusion proof is longer than the tree is deep".into());
        }
        if fn_ & 1 == 1 || fn_ == sn {
            r = node_hash(p, &r);
            if fn_ & 1 == 0 {
                while fn_ & 1 == 0 && fn_ != 0 {
                    fn_ >>= 1;
                    sn >>= 1;
                }
            }
        } else {
            r = node_hash(&r, p);
        }
        fn_ >>= 1;
        sn >>= 1;
    }
    if sn != 0 {
        return Err(format!(
            "its inclusion proof is cut short ({} hashes for entry {index} in a tree of {size})",
            path.len()
        ));
    }
    Ok(r)
}

/// A checkpoint is a signed note (`origin\nsize\nroot\n[…]\n\n— name
/// base64(keyhint ‖ signature)\n`): its size and root must be the proof's,
/// and one of its signatures the log key's over the text above the blank line.
fn check_checkpoint(note: &str, key: &LogKey, size: u64, root: &[u8]) -> Result<(), String> {
    let bad = |why: &str| format!("its checkpoint {why}");
    let (text, signatures) = note
        .split_once("\n\n")
        .ok_or_else(|| bad("is not a signed note"))?;
    let mut lines = text.lines();
    let _origin = lines.next();
    let noted_size: u64 =
        (lines.next().and_then(|s| s.parse().ok())).ok_or_else(|| bad("names no tree size"))?;
    let noted_root = b64(lines.next().unwrap_or_default()).map_err(|_| bad("names no root"))?;
    if noted_size != size || noted_root != root {
        return Err(bad("is for another tree than the inclusion proof"));
    }
    let message = format!("{text}\n");
    let signed = signatures.lines().any(|line| {
        let Some(rest) = line.strip_prefix("\u{2014} ") else {
            return false;
        };
        let Some((_, sig)) = rest.rsplit_once(' ') else {
            return false;
        };
        b64(sig).is_ok_and(|raw| {
            raw.len() > 4
                && raw[..4] == key.id[..4]
                && key.key.verifies(message.as_bytes(), &raw[4..])
        })
    });
    if !signed {
        return Err(bad("is not signed by the log's key"));
    }
    Ok(())
}
