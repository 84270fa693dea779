//! minisign key pairs generated per test (no secret key is ever committed).

use minisign::{KeyPair, PublicKey, SecretKey};

pub struct TestKey {
    pub pk: PublicKey,
    sk: SecretKey,
}

impl TestKey {
    pub fn generate() -> Self {
        let KeyPair { pk, sk } = KeyPair::generate_unencrypted_keypair().expect("keygen");
        TestKey { pk, sk }
    }

    /// The public key as pinned in skills.toml (`RW…`).
    pub fn public(&self) -> String {
        self.pk.to_base64()
    }

    /// The key id as minisign prints it.
    pub fn key_id(&self) -> String {
        let id: [u8; 8] = self.pk.keynum().try_into().unwrap();
        format!("{:016X}", u64::from_le_bytes(id))
    }

    /// A prehashed signature (minisign's default) with this trusted comment.
    pub fn sign(&self, data: &[u8], trusted_comment: &str) -> String {
        minisign::sign(Some(&self.pk), &self.sk, data, Some(trusted_comment), None)
            .expect("sign")
            .into_string()
    }

    /// A legacy (`Ed`, not prehashed) signature that is cryptographically
    /// valid for `data`: what minisign < 0.8 produced. skillpm must refuse it
    /// even though it verifies.
    pub fn sign_legacy(&self, data: &[u8], trusted_comment: &str) -> String {
        use aws_lc_rs::signature::{Ed25519KeyPair, KeyPair as _};
        // SecretKey::to_bytes: algs (6) + salt (32) + limits (16) + keynum (8) + sk (64) + chk.
        let bytes = self.sk.to_bytes();
        let seed = &bytes[62..94];
        let pair = Ed25519KeyPair::from_seed_unchecked(seed).expect("seed");
        assert_eq!(
            pair.public_key().as_ref(),
            &bytes[94..126],
            "secret key layout changed"
        );
        let signature = pair.sign(data);
        let mut line = b"Ed".to_vec();
        line.extend_from_slice(self.pk.keynum());
        line.extend_from_slice(signature.as_ref());
        let mut global = signature.as_ref().to_vec();
        global.extend_from_slice(trusted_comment.as_bytes());
        let global_sig = pair.sign(&global);
        format!(
            "untrusted comment: legacy signature\n{}\ntrusted comment: {trusted_comment}\n{}\n",
            base64(&line),
            base64(global_sig.as_ref())
        )
    }
}

/// Standard base64 with padding (the tests need no other encoding).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
