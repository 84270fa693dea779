//! The sink's TLS (docs/audit.md, "Encrypted traffic"): a certificate
//! authority made for one run, trusted only inside its sandbox, and a
//! server certificate it signs for each name a client asks for, so the
//! sink reads what is sent over HTTPS as it reads plain HTTP.
//!
//! The certificates are written here with the few DER forms they need
//! (ECDSA P-256, signed with aws-lc-rs, which rustls already carries):
//! no crate of its own for a job this small.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair as _};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use x509_cert::der::Encode as _;

/// The authority's name: an ordinary-looking private CA.
const CA_NAME: &str = "Local Development CA";

/// A run's authority: its certificate (public: it joins the sandbox's CA
/// bundle) and its key (given to the sandbox's first process only, on its
/// stdin; never written to disk).
pub struct RunAuthority {
    pub cert_der: Vec<u8>,
    pub key_pkcs8: Vec<u8>,
}

/// Why a certificate could not be made.
#[derive(Debug)]
pub struct TlsError(pub String);

fn err(what: &str) -> impl Fn(aws_lc_rs::error::Unspecified) -> TlsError + '_ {
    move |_| TlsError(format!("cannot {what}"))
}

impl RunAuthority {
    /// A new authority (a fresh P-256 key, valid from now for a day).
    pub fn new() -> Result<RunAuthority, TlsError> {
        let key = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_ASN1_SIGNING)
            .map_err(err("make the authority's key"))?;
        let key_pkcs8 = key
            .to_pkcs8v1()
            .map_err(err("encode the authority's key"))?
            .as_ref()
            .to_vec();
        let spki = key.public_key().as_ref().to_vec();
        let id = key_id(&spki);
        let extensions = [
            extension(OID_BASIC_CONSTRAINTS, true, &seq(&[&[0x01, 0x01, 0xff]])),
            // keyCertSign, cRLSign.
            extension(OID_KEY_USAGE, true, &[0x03, 0x02, 0x01, 0x06]),
            extension(OID_SUBJECT_KEY_ID, false, &tlv(0x04, &id)),
        ];
        let cert_der = sign(&key, CA_NAME, CA_NAME, &spki, &extensions)?;
        Ok(RunAuthority {
            cert_der,
            key_pkcs8,
        })
    }

    /// The authority's certificate as PEM, for a CA bundle.
    pub fn pem(&self) -> String {
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::STANDARD.encode(&self.cert_der);
        let mut out = String::from("-----BEGIN CERTIFICATE-----\n");
        for line in b64.as_bytes().chunks(64) {
            out.push_str(&String::from_utf8_lossy(line));
            out.push('\n');
        }
        out.push_str("-----END CERTIFICATE-----\n");
        out
    }
}

/// The sink's TLS server: for each server name a client asks for (none:
/// `127.0.0.1`), a certificate signed by the run's authority, made on the
/// first request for it and kept for the run.
pub fn server_config(key_pkcs8: &[u8]) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let ca = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, key_pkcs8)
        .map_err(|_| TlsError("the authority's key is unreadable".to_owned()))?;
    let leaf = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_ASN1_SIGNING)
        .map_err(err("make the server key"))?;
    let leaf_pkcs8 = leaf
        .to_pkcs8v1()
        .map_err(err("encode the server key"))?
        .as_ref()
        .to_vec();
    let provider = rustls::crypto::aws_lc_rs::default_provider();
    let signing = provider
        .key_provider
        .load_private_key(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_pkcs8)))
        .map_err(|e| TlsError(format!("cannot load the server key: {e}")))?;
    let resolver = PerName {
        ca,
        leaf,
        signing,
        made: Mutex::default(),
    };
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError(format!("cannot configure TLS: {e}")))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(resolver));
    // HTTP/1.1 only: the sink reads requests as text.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Makes a server certificate per name (see [`server_config`]).
struct PerName {
    ca: EcdsaKeyPair,
    /// One key for every server certificate of the run.
    leaf: EcdsaKeyPair,
    signing: Arc<dyn rustls::sign::SigningKey>,
    made: Mutex<HashMap<String, Arc<CertifiedKey>>>,
}

impl std::fmt::Debug for PerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PerName")
    }
}

impl ResolvesServerCert for PerName {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        let name = hello.server_name().unwrap_or("127.0.0.1").to_owned();
        let mut made = self.made.lock().ok()?;
        if let Some(key) = made.get(&name) {
            return Some(Arc::clone(key));
        }
        let cert = self.leaf_for(&name).ok()?;
        let key = Arc::new(CertifiedKey::new(
            // The leaf alone: clients hold the authority.
            vec![CertificateDer::from(cert)],
            Arc::clone(&self.signing),
        ));
        made.insert(name, Arc::clone(&key));
        Some(key)
    }
}

impl PerName {
    fn leaf_for(&self, name: &str) -> Result<Vec<u8>, TlsError> {
        let spki = self.leaf.public_key().as_ref().to_vec();
        let ca_id = key_id(self.ca.public_key().as_ref());
        // An address is an iPAddress name ([7]), anything else a dNSName ([2]).
        let alt = match name.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => tlv(0x87, &ip.octets()),
            Ok(std::net::IpAddr::V6(ip)) => tlv(0x87, &ip.octets()),
            Err(_) => tlv(0x82, name.as_bytes()),
        };
        let extensions = [
            extension(OID_BASIC_CONSTRAINTS, true, &seq(&[])),
            // digitalSignature.
            extension(OID_KEY_USAGE, true, &[0x03, 0x02, 0x07, 0x80]),
            extension(OID_EXT_KEY_USAGE, false, &seq(&[&oid(OID_SERVER_AUTH)])),
            extension(OID_SUBJECT_ALT_NAME, false, &seq(&[&alt])),
            extension(OID_SUBJECT_KEY_ID, false, &tlv(0x04, &key_id(&spki))),
            extension(OID_AUTHORITY_KEY_ID, false, &seq(&[&tlv(0x80, &ca_id)])),
        ];
        sign(&self.ca, CA_NAME, name, &spki, &extensions)
    }
}

const OID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const OID_P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const OID_ECDSA_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
const OID_COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];
const OID_BASIC_CONSTRAINTS: &[u8] = &[0x55, 0x1d, 0x13];
const OID_KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x0f];
const OID_EXT_KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x25];
const OID_SUBJECT_ALT_NAME: &[u8] = &[0x55, 0x1d, 0x11];
const OID_SUBJECT_KEY_ID: &[u8] = &[0x55, 0x1d, 0x0e];
const OID_AUTHORITY_KEY_ID: &[u8] = &[0x55, 0x1d, 0x23];
const OID_SERVER_AUTH: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01];

/// One DER element: tag, length, content.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend_from_slice(&bytes);
    }
    out.extend_from_slice(content);
    out
}

fn seq(parts: &[&[u8]]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

fn oid(id: &[u8]) -> Vec<u8> {
    tlv(0x06, id)
}

/// `Name` with one common name.
fn name(cn: &str) -> Vec<u8> {
    let atv = seq(&[&oid(OID_COMMON_NAME), &tlv(0x0c, cn.as_bytes())]);
    seq(&[&tlv(0x31, &atv)])
}

fn extension(id: &[u8], critical: bool, value: &[u8]) -> Vec<u8> {
    let critical: &[u8] = if critical { &[0x01, 0x01, 0xff] } else { &[] };
    seq(&[&oid(id), critical, &tlv(0x04, value)])
}

/// A key identifier: the first 20 bytes of the SHA-256 of the public key.
fn key_id(public_key: &[u8]) -> Vec<u8> {
    use sha2::Digest as _;
    sha2::Sha256::digest(public_key)[..20].to_vec()
}

/// A certificate for `subject`'s P-256 public key (the uncompressed
/// point), signed by `issuer_key`.
fn sign(
    issuer_key: &EcdsaKeyPair,
    issuer: &str,
    subject: &str,
    public_key: &[u8],
    extensions: &[Vec<u8>],
) -> Result<Vec<u8>, TlsError> {
    let rng = SystemRandom::new();
    let mut serial = [0u8; 16];
    aws_lc_rs::rand::SecureRandom::fill(&rng, &mut serial).map_err(err("make a serial"))?;
    serial[0] = (serial[0] & 0x7f) | 0x40;
    let validity = x509_cert::time::Validity::<x509_cert::certificate::Rfc5280>::from_now(
        std::time::Duration::from_secs(24 * 3600),
    )
    .and_then(|v| v.to_der())
    .map_err(|e| TlsError(format!("cannot write the validity: {e}")))?;
    let algorithm = seq(&[&oid(OID_ECDSA_SHA256)]);
    let spki = seq(&[
        &seq(&[&oid(OID_EC_PUBLIC_KEY), &oid(OID_P256)]),
        &tlv(0x03, &[&[0u8][..], public_key].concat()),
    ]);
    let tbs = seq(&[
        &[0xa0, 0x03, 0x02, 0x01, 0x02],
        &tlv(0x02, &serial),
        &algorithm,
        &name(issuer),
        &validity,
        &name(subject),
        &spki,
        &tlv(
            0xa3,
            &seq(&extensions.iter().map(Vec::as_slice).collect::<Vec<_>>()),
        ),
    ]);
    let signature = issuer_key
        .sign(&rng, &tbs)
        .map_err(err("sign a certificate"))?;
    Ok(seq(&[
        &tbs,
        &algorithm,
        &tlv(0x03, &[&[0u8][..], signature.as_ref()].concat()),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The authority and a server certificate it signs verify with
    /// rustls's own verifier (webpki), as a client that trusts the
    /// authority would check them.
    #[test]
    fn a_server_certificate_verifies_under_the_runs_authority() {
        let ca = RunAuthority::new().unwrap();
        let config = server_config(&ca.key_pkcs8).unwrap();
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from(ca.cert_der.clone()))
            .unwrap();
        let client = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::aws_lc_rs::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
        for host in ["collect.example", "127.0.0.1"] {
            let name = rustls::pki_types::ServerName::try_from(host.to_owned()).unwrap();
            let mut c = rustls::ClientConnection::new(Arc::new(client.clone()), name).unwrap();
            let mut s = rustls::ServerConnection::new(Arc::clone(&config)).unwrap();
            for _ in 0..4 {
                let mut buf = Vec::new();
                c.write_tls(&mut buf).unwrap();
                s.read_tls(&mut &buf[..]).unwrap();
                s.process_new_packets().unwrap();
                let mut buf = Vec::new();
                s.write_tls(&mut buf).unwrap();
                c.read_tls(&mut &buf[..]).unwrap();
                c.process_new_packets().unwrap();
            }
            assert!(!c.is_handshaking(), "{host}");
        }
    }
}
