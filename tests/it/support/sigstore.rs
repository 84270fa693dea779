//! A Sigstore made at test time: a certificate authority (Fulcio's part)
//! and a transparency log (Rekor's part), their keys generated per test,
//! writing bundles the way `actions/attest-build-provenance` and
//! `cosign sign-blob` do, and the trusted root that vouches for them.
//! Each field a bundle carries can be bent to make an attack.

use base64::Engine as _;
use rcgen::{
    BasicConstraints, CertificateParams, CustomExtension, ExtendedKeyUsagePurpose, IsCa, Issuer,
    KeyPair, KeyUsagePurpose, PublicKeyData, SanType, SigningKey, date_time_ymd,
};
use serde_json::json;
use sha2::{Digest as _, Sha256};

pub const GITHUB_ISSUER: &str = "https://token.actions.githubusercontent.com";

pub fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn b64_decode(text: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap()
}

/// `YYYY-MM-DD` at midnight UTC, as seconds since the epoch.
pub fn day(y: i32, m: u8, d: u8) -> u64 {
    date_time_ymd(y, m, d).unix_timestamp() as u64
}

/// What one signing says; [`Signing::github`] is an honest release workflow.
#[derive(Clone)]
pub struct Signing {
    pub identity: String,
    pub issuer: String,
    /// The certificate's validity, days (y, m, d).
    pub valid_from: (i32, u8, u8),
    pub valid_to: (i32, u8, u8),
    /// When the log says it recorded the entry.
    pub integrated_time: u64,
    /// A DSSE in-toto statement (attest-build-provenance) instead of a
    /// message signature.
    pub dsse: bool,
    pub repository: String,
    pub commit: String,
}

impl Signing {
    pub fn github(repo: &str) -> Self {
        Signing {
            identity: format!(
                "https://github.com/{repo}/.github/workflows/release.yml@refs/heads/main"
            ),
            issuer: GITHUB_ISSUER.into(),
            valid_from: (2025, 6, 1),
            valid_to: (2025, 6, 2),
            integrated_time: day(2025, 6, 1) + 3600,
            dsse: true,
            repository: format!("https://github.com/{repo}"),
            commit: "0123456789abcdef0123456789abcdef01234567".into(),
        }
    }
}

pub struct TestSigstore {
    ca: KeyPair,
    ca_params: CertificateParams,
    ca_der: Vec<u8>,
    log: KeyPair,
}

impl Default for TestSigstore {
    fn default() -> Self {
        Self::new()
    }
}

impl TestSigstore {
    pub fn new() -> Self {
        let ca = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384).unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "test-fulcio");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.not_before = date_time_ymd(2020, 1, 1);
        params.not_after = date_time_ymd(2040, 1, 1);
        let ca_der = params.self_signed(&ca).unwrap().der().to_vec();
        let log = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
        TestSigstore {
            ca,
            ca_params: params,
            ca_der,
            log,
        }
    }

    fn log_id(&self) -> Vec<u8> {
        Sha256::digest(self.log.subject_public_key_info()).to_vec()
    }

    /// The trusted root naming this CA and log.
    pub fn trusted_root(&self) -> String {
        json!({
            "mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
            "tlogs": [{
                "baseUrl": "https://log.test",
                "hashAlgorithm": "SHA2_256",
                "publicKey": {
                    "rawBytes": b64(&self.log.subject_public_key_info()),
                    "keyDetails": "PKIX_ECDSA_P256_SHA_256",
                    "validFor": {"start": "2020-01-01T00:00:00Z"}
                },
                "logId": {"keyId": b64(&self.log_id())}
            }],
            "certificateAuthorities": [{
                "subject": {"organization": "test", "commonName": "test-fulcio"},
                "uri": "https://fulcio.test",
                "certChain": {"certificates": [{"rawBytes": b64(&self.ca_der)}]},
                "validFor": {"start": "2020-01-01T00:00:00Z"}
            }],
            "ctlogs": [],
            "timestampAuthorities": []
        })
        .to_string()
    }

    fn leaf(&self, s: &Signing) -> (KeyPair, Vec<u8>) {
        let key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.subject_alt_names = vec![SanType::URI(s.identity.clone().try_into().unwrap())];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::CodeSigning];
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.not_before = date_time_ymd(s.valid_from.0, s.valid_from.1, s.valid_from.2);
        params.not_after = date_time_ymd(s.valid_to.0, s.valid_to.1, s.valid_to.2);
        let fulcio = |n: u64, text: &str| {
            // A DER UTF8String, as Fulcio writes .1.8 onwards.
            let mut der = vec![0x0c, text.len() as u8];
            der.extend_from_slice(text.as_bytes());
            CustomExtension::from_oid_content(&[1, 3, 6, 1, 4, 1, 57264, 1, n], der)
        };
        params.custom_extensions = vec![
            fulcio(8, &s.issuer),
            fulcio(12, &s.repository),
            fulcio(13, &s.commit),
        ];
        let issuer = Issuer::from_params(&self.ca_params, &self.ca);
        let der = params.signed_by(&key, &issuer).unwrap().der().to_vec();
        (key, der)
    }

    /// A bundle (v0.3) for `artifact` signed as `s` says; `edit` may bend
    /// the JSON before it is written.
    pub fn sign(&self, artifact: &[u8], s: &Signing) -> serde_json::Value {
        let (key, cert) = self.leaf(s);
        let digest = Sha256::digest(artifact);
        let cert_pem = b64(format!(
            "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
            b64(&cert)
        )
        .as_bytes());
        let (content, body) = if s.dsse {
            let statement = json!({
                "_type": "https://in-toto.io/Statement/v1",
                "subject": [{"name": "skill.tar.gz", "digest": {"sha256": hex::encode(digest)}}],
                "predicateType": "https://slsa.dev/provenance/v1",
                "predicate": {}
            })
            .to_string();
            let ptype = "application/vnd.in-toto+json";
            let pae = format!(
                "DSSEv1 {} {} {} {}",
                ptype.len(),
                ptype,
                statement.len(),
                statement
            );
            let sig = key.sign(pae.as_bytes()).unwrap();
            let body = json!({
                "apiVersion": "0.0.1", "kind": "dsse",
                "spec": {
                    "envelopeHash": {"algorithm": "sha256", "value": "00"},
                    "payloadHash": {"algorithm": "sha256", "value": hex::encode(Sha256::digest(statement.as_bytes()))},
                    "signatures": [{"signature": b64(&sig), "verifier": cert_pem}]
                }
            });
            let content = json!({"dsseEnvelope": {
                "payload": b64(statement.as_bytes()),
                "payloadType": ptype,
                "signatures": [{"sig": b64(&sig), "keyid": ""}]
            }});
            (content, body)
        } else {
            let sig = key.sign(artifact).unwrap();
            let body = json!({
                "apiVersion": "0.0.1", "kind": "hashedrekord",
                "spec": {
                    "data": {"hash": {"algorithm": "sha256", "value": hex::encode(digest)}},
                    "signature": {"content": b64(&sig), "publicKey": {"content": cert_pem}}
                }
            });
            let content = json!({"messageSignature": {
                "messageDigest": {"algorithm": "SHA2_256", "digest": b64(&digest)},
                "signature": b64(&sig)
            }});
            (content, body)
        };
        let body = body.to_string();
        let entry = self.log_entry(body.as_bytes(), s.integrated_time, s.dsse);
        let mut bundle = json!({
            "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
            "verificationMaterial": {
                "certificate": {"rawBytes": b64(&cert)},
                "tlogEntries": [entry]
            }
        });
        for (k, v) in content.as_object().unwrap() {
            bundle[k] = v.clone();
        }
        bundle
    }

    /// The log's entry for `body`, entered as leaf 5 of a tree of 7 (other
    /// leaves made up), with its promise, proof and checkpoint.
    fn log_entry(&self, body: &[u8], time: u64, dsse: bool) -> serde_json::Value {
        let (index, size) = (5u64, 7u64);
        let mut leaves: Vec<[u8; 32]> = (0..size)
            .map(|i| leaf_hash(format!("other entry {i}").as_bytes()))
            .collect();
        leaves[index as usize] = leaf_hash(body);
        let root = mth(&leaves);
        let path = audit_path(index as usize, &leaves);
        let log_id = self.log_id();
        let body_b64 = b64(body);
        let set = format!(
            r#"{{"body":"{}","integratedTime":{},"logID":"{}","logIndex":{}}}"#,
            body_b64,
            time,
            hex::encode(&log_id),
            1000 + index
        );
        let set_sig = self.log.sign(set.as_bytes()).unwrap();
        let note = format!("log.test - 42\n{size}\n{}\n", b64(&root));
        let mut hint_sig = log_id[..4].to_vec();
        hint_sig.extend(self.log.sign(note.as_bytes()).unwrap());
        let checkpoint = format!("{note}\n\u{2014} log.test {}\n", b64(&hint_sig));
        json!({
            "logIndex": (1000 + index).to_string(),
            "logId": {"keyId": b64(&log_id)},
            "kindVersion": {"kind": if dsse { "dsse" } else { "hashedrekord" }, "version": "0.0.1"},
            "integratedTime": time.to_string(),
            "inclusionPromise": {"signedEntryTimestamp": b64(&set_sig)},
            "inclusionProof": {
                "logIndex": index.to_string(),
                "rootHash": b64(&root),
                "treeSize": size.to_string(),
                "hashes": path.iter().map(|h| b64(h)).collect::<Vec<_>>(),
                "checkpoint": {"envelope": checkpoint}
            },
            "canonicalizedBody": body_b64
        })
    }
}

fn leaf_hash(data: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([0u8]);
    h.update(data);
    h.finalize().into()
}

fn node(l: &[u8], r: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([1u8]);
    h.update(l);
    h.update(r);
    h.finalize().into()
}

fn split(n: usize) -> usize {
    let mut k = 1;
    while k * 2 < n {
        k *= 2;
    }
    k
}

/// RFC 6962 §2.1: the Merkle tree hash of hashed leaves.
fn mth(leaves: &[[u8; 32]]) -> [u8; 32] {
    match leaves.len() {
        1 => leaves[0],
        n => {
            let k = split(n);
            node(&mth(&leaves[..k]), &mth(&leaves[k..]))
        }
    }
}

/// RFC 6962 §2.1.1: the audit path of leaf `m`.
fn audit_path(m: usize, leaves: &[[u8; 32]]) -> Vec<[u8; 32]> {
    let n = leaves.len();
    if n <= 1 {
        return Vec::new();
    }
    let k = split(n);
    if m < k {
        let mut p = audit_path(m, &leaves[..k]);
        p.push(mth(&leaves[k..]));
        p
    } else {
        let mut p = audit_path(m - k, &leaves[k..]);
        p.push(mth(&leaves[..k]));
        p
    }
}

/// A sandbox whose skillpm trusts `sigstore`: its trusted root in the
/// sandbox's state folder, `state` (`SKILLPM_STATE_DIR`).
pub fn trusting_sandbox(sigstore: &TestSigstore) -> super::cli::Sandbox {
    let mut sb = super::cli::Sandbox::new();
    let state = sb.path("state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(
        state.join("sigstore-trusted-root.json"),
        sigstore.trusted_root(),
    )
    .unwrap();
    sb.env("SKILLPM_STATE_DIR", state.to_str().unwrap());
    sb
}

/// `skillpm source add NAME LOCATION --identity IDENTITY --issuer <GitHub>`
/// run by `cmd` (a sandbox's command, in the project it declares the source
/// in); panics when it fails.
pub fn add_source_with_publisher(
    cmd: &mut assert_cmd::Command,
    name: &str,
    location: &str,
    identity: &str,
) {
    let args = [
        "source",
        "add",
        name,
        location,
        "--identity",
        identity,
        "--issuer",
        GITHUB_ISSUER,
    ];
    let (code, out, err) = super::cli::run(cmd.args(args));
    assert_eq!(code, 0, "{out}{err}");
}

/// An install policy requiring `sources` to come from acme's GitHub workflows
/// holds for the project's lock; one requiring another publisher refuses the
/// same lock with exit 3, naming what it required (docs/policy.md). The policy
/// file is removed again.
pub fn policy_holds_for_acme_and_refuses_another(sb: &super::cli::Sandbox, sources: &str) {
    let policy = sb.home.join(".config/skillpm/policy.toml");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    let require = |identity: &str| {
        format!(
            "[[require]]\nsources = {sources:?}\nsigstore = {{ identity = {identity:?}, issuer = {GITHUB_ISSUER:?} }}\n"
        )
    };
    std::fs::write(&policy, require("https://github.com/acme/*")).unwrap();
    let (code, _, err) = super::cli::run(sb.cmd().args(["install", "--frozen"]));
    assert_eq!(code, 0, "{err}");
    std::fs::write(&policy, require("https://github.com/other/*")).unwrap();
    let (code, _, err) = super::cli::run(sb.cmd().args(["install", "--frozen"]));
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("https://github.com/other/*"), "{err}");
    std::fs::remove_file(&policy).unwrap();
}
