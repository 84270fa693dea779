//! `skillpm trust update` through TUF (docs/provenance.md#refreshing-the-trusted-root):
//! Sigstore's real, committed TUF metadata walks from root 1 to the
//! shipped root 15 and its trusted root offline; a loopback TUF repository
//! with keys made by the test is followed honestly, then each attack on it
//! is refused with nothing changed on disk.

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{self, EcdsaKeyPair, Ed25519KeyPair, KeyPair as _};
use serde_json::{Value, json};
use sha2::Digest as _;
use skillpm::trust::sigstore::tuf::{self, Mirror, Trusted, TufError};

use crate::support::cli::{Sandbox, run};
use crate::support::server::TestServer;
use crate::support::sigstore::TestSigstore;

const REAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sigstore/tuf");

/// A TUF repository in a folder, laid out as Sigstore's CDN serves it.
struct Folder(PathBuf);

impl Mirror for Folder {
    fn fetch(&mut self, path: &str, max: u64) -> anyhow::Result<Option<Vec<u8>>> {
        match std::fs::read(self.0.join(path)) {
            Ok(bytes) if bytes.len() as u64 > max => anyhow::bail!("{path}: more than {max} bytes"),
            Ok(bytes) => Ok(Some(bytes)),
            Err(_) => Ok(None),
        }
    }
}

fn at(text: &str) -> u64 {
    humantime::parse_rfc3339(text)
        .unwrap()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn tuf_error(err: anyhow::Error) -> TufError {
    match err.downcast::<TufError>() {
        Ok(e) => e,
        Err(other) => panic!("not a TUF error: {other:#}"),
    }
}

/// Sigstore's own repository (sigstore/root-signing, August 2026): root 1
/// (hex keys) through root 15 (PEM keys), each signed by a threshold of the
/// one before and of its own, then timestamp 762 → snapshot 165 → targets
/// 14 → `trusted_root.json`, the very file skillpm ships.
#[test]
fn sigstores_real_tuf_metadata_verifies_from_root_1_to_the_shipped_root_offline() {
    let root_1 = std::fs::read(format!("{REAL}/1.root.json")).unwrap();
    let trusted = Trusted::from_root(&root_1).unwrap();
    let signed_at = at("2026-08-21T20:00:00Z");
    let done = trusted
        .refresh(&mut Folder(REAL.into()), signed_at)
        .unwrap();
    assert_eq!(
        (
            done.versions.root,
            done.versions.timestamp,
            done.versions.snapshot,
            done.versions.targets
        ),
        (15, 762, 165, 14)
    );
    assert_eq!(
        done.target,
        skillpm::trust::sigstore::SHIPPED_ROOT.as_bytes(),
        "the target is the trusted root skillpm ships"
    );
    assert_eq!(
        tuf::SHIPPED_TUF_ROOT,
        std::fs::read(format!("{REAL}/15.root.json")).unwrap(),
        "skillpm ships root 15"
    );
    // From the shipped root the same metadata verifies too.
    Trusted::from_root(tuf::SHIPPED_TUF_ROOT)
        .unwrap()
        .refresh(&mut Folder(REAL.into()), signed_at)
        .unwrap();

    // Attack: the same files a week after the timestamp's expiry (a
    // mirror that froze in August): refused.
    let err = tuf_error(
        trusted
            .refresh(&mut Folder(REAL.into()), at("2026-09-01T00:00:00Z"))
            .err()
            .unwrap(),
    );
    assert!(
        matches!(&err, TufError::Expired { file, .. } if file == "timestamp.json"),
        "{err}"
    );
    // …and after root 15's own expiry, with no root 16 on the mirror.
    let err = tuf_error(
        trusted
            .refresh(&mut Folder(REAL.into()), at("2026-11-21T00:00:00Z"))
            .err()
            .unwrap(),
    );
    assert!(
        matches!(&err, TufError::Expired { version: 15, .. }),
        "{err}"
    );

    // Attack: one character of root 9 changed (its expiry, a day later):
    // the signatures of root 8's keys no longer hold.
    let copy = tempfile::tempdir().unwrap();
    copy_tree(Path::new(REAL), copy.path());
    let nine = copy.path().join("9.root.json");
    let text = std::fs::read_to_string(&nine).unwrap();
    let bent = text.replacen("2024-09-12T06:53:10Z", "2024-09-13T06:53:10Z", 1);
    assert_ne!(bent, text);
    std::fs::write(&nine, bent).unwrap();
    let err = tuf_error(
        trusted
            .refresh(&mut Folder(copy.path().into()), signed_at)
            .err()
            .unwrap(),
    );
    assert!(
        matches!(&err, TufError::Threshold { file, root: 8, .. } if file == "9.root.json"),
        "{err}"
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// A key made by the test, in one of the forms Sigstore's roots use.
struct TufKey {
    id: String,
    public: Value,
    signer: Signer,
}

enum Signer {
    Ecdsa(EcdsaKeyPair),
    Ed25519(Ed25519KeyPair),
}

impl TufKey {
    /// ECDSA P-256; `pem`: the public key as PEM (roots 5 and later), else
    /// as the hex of its point (roots 1 to 4).
    fn ecdsa(pem: bool) -> Self {
        let rng = SystemRandom::new();
        let pkcs8 =
            EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_ASN1_SIGNING, &rng).unwrap();
        let pair =
            EcdsaKeyPair::from_pkcs8(&signature::ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8.as_ref())
                .unwrap();
        let point = pair.public_key().as_ref().to_vec();
        let public = if pem {
            let mut der =
                hex::decode("3059301306072a8648ce3d020106082a8648ce3d030107034200").unwrap();
            der.extend_from_slice(&point);
            let b64 = crate::support::sigstore::b64(&der);
            let lines: Vec<&str> = (0..b64.len())
                .step_by(64)
                .map(|i| &b64[i..(i + 64).min(b64.len())])
                .collect();
            json!({"keytype": "ecdsa", "scheme": "ecdsa-sha2-nistp256",
                   "keyval": {"public": format!("-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n", lines.join("\n"))}})
        } else {
            json!({"keytype": "ecdsa-sha2-nistp256", "scheme": "ecdsa-sha2-nistp256",
                   "keyval": {"public": hex::encode(&point)}})
        };
        TufKey::new(public, Signer::Ecdsa(pair))
    }

    fn ed25519() -> Self {
        let pair = Ed25519KeyPair::generate().unwrap();
        let public = json!({"keytype": "ed25519", "scheme": "ed25519",
                            "keyval": {"public": hex::encode(pair.public_key().as_ref())}});
        TufKey::new(public, Signer::Ed25519(pair))
    }

    fn new(public: Value, signer: Signer) -> Self {
        let id = hex::encode(sha2::Sha256::digest(tuf::canonical(&public).unwrap()));
        TufKey { id, public, signer }
    }

    fn sign(&self, message: &[u8]) -> String {
        match &self.signer {
            Signer::Ecdsa(pair) => {
                hex::encode(pair.sign(&SystemRandom::new(), message).unwrap().as_ref())
            }
            Signer::Ed25519(pair) => hex::encode(pair.sign(message).as_ref()),
        }
    }
}

/// `signed` with the signatures of `keys` over its canonical form.
fn sign(signed: Value, keys: &[&TufKey]) -> Vec<u8> {
    let message = tuf::canonical(&signed).unwrap();
    let signatures: Vec<Value> = (keys.iter())
        .map(|k| json!({"keyid": k.id, "sig": k.sign(&message)}))
        .collect();
    serde_json::to_vec_pretty(&json!({"signatures": signatures, "signed": signed})).unwrap()
}

/// RFC 3339, `days` from now (negative: in the past).
fn expires(days: i64) -> String {
    let now = SystemTime::now();
    let shift = Duration::from_secs(days.unsigned_abs() * 86_400);
    let t = if days >= 0 { now + shift } else { now - shift };
    humantime::format_rfc3339_seconds(t).to_string()
}

/// The test's TUF repository, served from a folder on loopback.
struct Repo {
    dir: PathBuf,
    /// Root keys: A, B, C sign root 1 (threshold 2); B, C, D root 2.
    a: TufKey,
    b: TufKey,
    c: TufKey,
    d: TufKey,
    timestamp: TufKey,
    snapshot: TufKey,
    /// The targets role: two keys, threshold 2.
    t1: TufKey,
    t2: TufKey,
    /// `trusted_root.json`, the target.
    target: Vec<u8>,
}

impl Repo {
    fn new(dir: PathBuf, target: Vec<u8>) -> Self {
        std::fs::create_dir_all(dir.join("targets")).unwrap();
        Repo {
            dir,
            a: TufKey::ecdsa(false),
            b: TufKey::ecdsa(true),
            c: TufKey::ed25519(),
            d: TufKey::ecdsa(true),
            timestamp: TufKey::ecdsa(true),
            snapshot: TufKey::ed25519(),
            t1: TufKey::ecdsa(true),
            t2: TufKey::ecdsa(false),
            target,
        }
    }

    fn root(&self, version: u64, root_keys: &[&TufKey], signers: &[&TufKey]) -> Vec<u8> {
        let all: Vec<&TufKey> = (root_keys.iter().copied())
            .chain([&self.timestamp, &self.snapshot, &self.t1, &self.t2])
            .collect();
        let keys: serde_json::Map<String, Value> = (all.iter())
            .map(|k| (k.id.clone(), k.public.clone()))
            .collect();
        let ids = |ks: &[&TufKey]| ks.iter().map(|k| k.id.clone()).collect::<Vec<_>>();
        sign(
            json!({
                "_type": "root", "spec_version": "1.0", "version": version,
                "expires": expires(365), "consistent_snapshot": true, "keys": keys,
                "roles": {
                    "root": {"keyids": ids(root_keys), "threshold": 2},
                    "timestamp": {"keyids": ids(&[&self.timestamp]), "threshold": 1},
                    "snapshot": {"keyids": ids(&[&self.snapshot]), "threshold": 1},
                    "targets": {"keyids": ids(&[&self.t1, &self.t2]), "threshold": 2},
                }
            }),
            signers,
        )
    }

    fn targets(&self, version: u64, days: i64, target: &[u8], signers: &[&TufKey]) -> Vec<u8> {
        sign(
            json!({
                "_type": "targets", "spec_version": "1.0", "version": version,
                "expires": expires(days),
                "targets": {"trusted_root.json": {
                    "length": target.len(),
                    "hashes": {
                        "sha256": hex::encode(sha2::Sha256::digest(target)),
                        "sha512": hex::encode(sha2::Sha512::digest(target)),
                    },
                }},
            }),
            signers,
        )
    }

    fn snapshot(&self, version: u64, targets: u64, days: i64) -> Vec<u8> {
        sign(
            json!({
                "_type": "snapshot", "spec_version": "1.0", "version": version,
                "expires": expires(days),
                "meta": {"targets.json": {"version": targets}},
            }),
            &[&self.snapshot],
        )
    }

    fn timestamp(&self, version: u64, snapshot: u64, days: i64, signer: &TufKey) -> Vec<u8> {
        let file = self.dir.join(format!("{snapshot}.snapshot.json"));
        let bytes = std::fs::read(file).unwrap_or_default();
        sign(
            json!({
                "_type": "timestamp", "spec_version": "1.0", "version": version,
                "expires": expires(days),
                "meta": {"snapshot.json": {
                    "version": snapshot,
                    "length": bytes.len(),
                    "hashes": {"sha256": hex::encode(sha2::Sha256::digest(&bytes))},
                }},
            }),
            &[signer],
        )
    }

    fn put(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.dir.join(name), bytes).unwrap();
    }

    /// An honest release `v`: targets, snapshot and timestamp of version `v`.
    fn release(&self, v: u64) {
        self.put(
            &format!("{v}.targets.json"),
            &self.targets(v, 30, &self.target, &[&self.t1, &self.t2]),
        );
        self.put(&format!("{v}.snapshot.json"), &self.snapshot(v, v, 30));
        self.put("timestamp.json", &self.timestamp(v, v, 1, &self.timestamp));
        let hash = hex::encode(sha2::Sha256::digest(&self.target));
        self.put(&format!("targets/{hash}.trusted_root.json"), &self.target);
    }
}

/// Every file below `dir` and its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.insert(path.clone(), std::fs::read(&path).unwrap());
        }
    }
    out
}

#[test]
fn trust_update_follows_a_tuf_repository_and_refuses_each_attack_changing_nothing() {
    let sigstore = TestSigstore::new();
    let mut sb = Sandbox::new();
    let state = sb.path("state");
    sb.env("SKILLPM_STATE_DIR", state.to_str().unwrap());
    let repo = Repo::new(sb.path("tuf"), sigstore.trusted_root().into_bytes());
    // This machine trusts root 1 of the test's repository (as a private
    // Sigstore's users would); the mirror has root 2, rotated to B, C, D.
    std::fs::create_dir_all(state.join("sigstore-tuf")).unwrap();
    let root_1 = repo.root(
        1,
        &[&repo.a, &repo.b, &repo.c],
        &[&repo.a, &repo.b, &repo.c],
    );
    std::fs::write(state.join("sigstore-tuf/root.json"), &root_1).unwrap();
    let root_2 = repo.root(
        2,
        &[&repo.b, &repo.c, &repo.d],
        &[&repo.a, &repo.b, &repo.d],
    );
    repo.put("2.root.json", &root_2);
    repo.release(1);
    let server = TestServer::serve(&repo.dir);
    let mirror = server.url("/");
    let update = |extra: &[&str]| {
        let mut args = vec!["trust", "update", "--mirror", &mirror];
        args.extend_from_slice(extra);
        run(sb.cmd().args(&args))
    };

    // Honest: root 1 → 2, then timestamp → snapshot → targets → target.
    let (code, out, err) = update(&[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("root version 2, timestamp 1, snapshot 1, targets 1")
            && out.contains("(chosen by --mirror)"),
        "{out}"
    );
    let kept = state.join("sigstore-trusted-root.json");
    assert_eq!(std::fs::read(&kept).unwrap(), repo.target);
    assert_eq!(
        std::fs::read(state.join("sigstore-tuf/root.json")).unwrap(),
        root_2
    );
    // The next release, read with the environment's mirror: said so.
    repo.release(2);
    let (code, out, err) = run(sb
        .cmd()
        .env("SKILLPM_SIGSTORE_TUF_URL", &mirror)
        .args(["--json", "trust", "update"]));
    assert_eq!(code, 0, "{out}\n{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["tuf"]["mirror_set_by"], "$SKILLPM_SIGSTORE_TUF_URL");
    assert_eq!(report["tuf"]["versions"]["timestamp"], 2);
    let trusted = files(&state);

    // Each attack: exit code, words, and the state folder unchanged.
    let refused = |code: i32, says: &str| {
        let (got, out, err) = update(&[]);
        assert_eq!(got, code, "{says}: {out}\n{err}");
        assert!(err.contains(says), "expected {says:?} in:\n{err}");
        assert_eq!(files(&state), trusted, "{says}: the state folder changed");
    };

    // A timestamp signed by a key that is not the timestamp role's.
    repo.release(3);
    repo.put("timestamp.json", &repo.timestamp(3, 3, 1, &repo.snapshot));
    refused(3, "0 valid signature(s) by keys of the `timestamp` role");
    // Targets signed by one of the two keys its threshold needs.
    repo.put(
        "3.targets.json",
        &repo.targets(3, 30, &repo.target, &[&repo.t1]),
    );
    repo.put("timestamp.json", &repo.timestamp(3, 3, 1, &repo.timestamp));
    refused(
        3,
        "1 valid signature(s) by keys of the `targets` role of TUF root version 2, 2 required",
    );
    // The same signature twice does not make two.
    repo.put(
        "3.targets.json",
        &repo.targets(3, 30, &repo.target, &[&repo.t1, &repo.t1]),
    );
    refused(3, "1 valid signature(s) by keys of the `targets` role");
    repo.release(3);
    let (code, _, err) = update(&[]);
    assert_eq!(code, 0, "{err}");
    let trusted = files(&state);
    let refused = |code: i32, says: &str| {
        let (got, out, err) = update(&[]);
        assert_eq!(got, code, "{says}: {out}\n{err}");
        assert!(err.contains(says), "expected {says:?} in:\n{err}");
        assert_eq!(files(&state), trusted, "{says}: the state folder changed");
    };

    // Rollback: an older timestamp, validly signed and not expired.
    repo.put("timestamp.json", &repo.timestamp(2, 2, 1, &repo.timestamp));
    refused(
        3,
        "version 2 is older than 3, which this machine trusted before",
    );
    // Rollback: a new timestamp naming an older snapshot.
    repo.put("timestamp.json", &repo.timestamp(4, 2, 1, &repo.timestamp));
    refused(3, "the snapshot version 2 is older than 3");
    // Rollback: a new snapshot naming older targets.
    repo.put("4.snapshot.json", &repo.snapshot(4, 2, 30));
    repo.put("timestamp.json", &repo.timestamp(4, 4, 1, &repo.timestamp));
    refused(3, "targets.json's version 2 is older than 3");

    // Expired timestamp, snapshot, targets (each validly signed).
    repo.release(4);
    repo.put("timestamp.json", &repo.timestamp(4, 4, -1, &repo.timestamp));
    refused(3, "timestamp.json (version 4) expired at");
    repo.put("4.snapshot.json", &repo.snapshot(4, 4, -1));
    repo.put("timestamp.json", &repo.timestamp(4, 4, 1, &repo.timestamp));
    refused(3, "4.snapshot.json (version 4) expired at");
    repo.release(4);
    repo.put(
        "4.targets.json",
        &repo.targets(4, -1, &repo.target, &[&repo.t1, &repo.t2]),
    );
    refused(3, "4.targets.json (version 4) expired at");

    // Mix and match: the timestamp names snapshot 5, the mirror serves
    // snapshot 4's (validly signed) document under that name.
    repo.release(4);
    std::fs::copy(
        repo.dir.join("4.snapshot.json"),
        repo.dir.join("5.snapshot.json"),
    )
    .unwrap();
    repo.put("timestamp.json", &repo.timestamp(5, 5, 1, &repo.timestamp));
    refused(
        3,
        "5.snapshot.json: version 4, but timestamp.json names version 5",
    );

    // The target changed (same length), or cut short.
    repo.release(4);
    let hash = hex::encode(sha2::Sha256::digest(&repo.target));
    let target_file = format!("targets/{hash}.trusted_root.json");
    let mut bent = repo.target.clone();
    let last = bent.len() - 2;
    bent[last] = b' ';
    repo.put(&target_file, &bent);
    refused(3, "its sha256 is");
    repo.put(&target_file, &repo.target[..repo.target.len() - 1]);
    refused(
        3,
        &format!(
            "it has {} bytes, not {}",
            repo.target.len() - 1,
            repo.target.len()
        ),
    );
    // Longer than listed: the download stops at the listed length.
    let mut long = repo.target.clone();
    long.extend_from_slice(b"\n\n");
    repo.put(&target_file, &long);
    refused(5, &format!("more than {} bytes", repo.target.len()));
    repo.release(4);

    // A root 3 signed by its own keys but by one of root 2's only.
    let e = TufKey::ecdsa(true);
    let root_3 = repo.root(3, &[&repo.d, &e, &repo.a], &[&repo.d, &e, &repo.a]);
    repo.put("3.root.json", &root_3);
    refused(
        3,
        "3.root.json: 1 valid signature(s) by keys of the `root` role of TUF root version 2",
    );
    std::fs::remove_file(repo.dir.join("3.root.json")).unwrap();

    // An honest update still goes through after all that.
    let (code, out, err) = update(&[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("timestamp 4"), "{out}");
    drop(server);
}

/// A mirror that never stops sending: each file's length cap ends it.
#[test]
fn an_endless_tuf_response_is_cut_at_its_cap_and_changes_nothing() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut head = [0u8; 1024];
                let _ = stream.read(&mut head);
                let _ =
                    stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n");
                let chunk = [b' '; 64 * 1024];
                while stream.write_all(&chunk).is_ok() {}
            });
        }
    });
    let mut sb = Sandbox::new();
    let state = sb.path("state");
    sb.env("SKILLPM_STATE_DIR", state.to_str().unwrap());
    let mirror = format!("http://{addr}/");
    let (code, out, err) = run(sb.cmd().args(["trust", "update", "--mirror", &mirror]));
    assert_eq!(code, 5, "{out}\n{err}");
    assert!(
        err.contains("16.root.json") && err.contains("more than 524288 bytes"),
        "{err}"
    );
    assert!(!state.exists(), "nothing written");

    // An environment variable cannot quietly send the update over plain
    // http to another host: refused, naming the variable.
    let (code, _, err) = run(sb
        .cmd()
        .env("SKILLPM_SIGSTORE_TUF_URL", "http://tuf.example/")
        .args(["trust", "update"]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("$SKILLPM_SIGSTORE_TUF_URL") && err.contains("plain http"),
        "{err}"
    );
}
