//! The canary credentials of the sandbox's fake home (docs/audit.md,
//! "Running a skill: audit --run"): files where real credentials live and
//! environment tokens, each holding a value made for this run only, so
//! that value turning up anywhere else (a request, a DNS name, another
//! file) can only have come from reading the canary.

use base64::Engine as _;

/// The fake home inside the sandbox.
pub const HOME: &str = "/home/user";
/// The fake project (its `.env` is a canary); the skill is copied to
/// `PROJECT/.claude/skills/<name>`.
pub const PROJECT: &str = "/home/user/project";
/// The agent's transcript of the session, whose path every hook event
/// carries; a secret the user pasted into the chat is in it.
pub const TRANSCRIPT: &str =
    "/home/user/.claude/projects/-home-user-project/0b7e5d2c-session.jsonl";
/// The canary name of [`TRANSCRIPT`].
pub const TRANSCRIPT_CANARY: &str = "agent-transcript";
/// Canaries a script may read, whose secret leaving is the finding: the
/// transcript (a hook is handed its path; it may keep a copy too) and the
/// project's `.env` (every dotenv loader reads it from the working
/// directory, and a setup script rewrites it in place; a copy elsewhere is
/// a finding). Read by a program that packs, encodes or sends bytes
/// ([`MOVERS`]), they are read like any other canary: a compressed archive
/// of the project hides the secret from the sink.
pub const READ_FREELY: &[&str] = &[TRANSCRIPT_CANARY, "dotenv-project"];
/// Programs whose reading a file is moving it: archivers, compressors,
/// encoders, copiers to another host, network clients.
pub const MOVERS: &[&str] = &[
    "tar", "zip", "7z", "7za", "gzip", "bzip2", "xz", "zstd", "rsync", "scp", "sftp", "curl",
    "wget", "nc", "ncat", "socat", "base64", "openssl", "gpg", "xxd", "split",
];

/// One canary: a file (a path inside the sandbox) or an environment variable.
#[derive(Debug, Clone)]
pub struct Canary {
    /// How findings name it: `aws-credentials`, `env-GITHUB_TOKEN`, ….
    pub name: String,
    /// The absolute path inside the sandbox, for a file.
    pub path: Option<String>,
    /// The environment variable, for a token.
    pub var: Option<String>,
    /// The secret value, unique to this run.
    pub secret: String,
    /// The file's whole text (a file canary) or the variable's value.
    pub content: String,
}

/// What a canary file looks like: path under HOME (or absolute), the
/// secret's prefix and length, and the text around it (`{}` is the secret).
const FILES: &[(&str, &str, &str, usize, &str)] = &[
    (
        "aws-credentials",
        ".aws/credentials",
        "",
        40,
        "[default]\naws_access_key_id = AKIAZ7Q3K4XJ2MVN6PLW\naws_secret_access_key = {}\n",
    ),
    (
        "ssh-key",
        ".ssh/id_ed25519",
        "b3BlbnNzaC1rZXktdjEAAAAA",
        48,
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
    ),
    (
        "npmrc",
        ".npmrc",
        "npm_",
        36,
        "//registry.npmjs.org/:_authToken={}\n",
    ),
    (
        "gh-hosts",
        ".config/gh/hosts.yml",
        "gho_",
        36,
        "github.com:\n    oauth_token: {}\n    user: user\n    git_protocol: https\n",
    ),
    (
        "git-credentials",
        ".git-credentials",
        "ghp_",
        36,
        "https://user:{}@github.com\n",
    ),
    (
        "docker-config",
        ".docker/config.json",
        "",
        32,
        "{\"auths\":{\"https://index.docker.io/v1/\":{\"auth\":\"{}\"}}}\n",
    ),
    (
        "browser-login-data",
        ".config/google-chrome/Default/Login Data",
        "v10",
        32,
        "SQLite format 3\u{0}https://accounts.example.com user@example.com {}\n",
    ),
    (
        "kubeconfig",
        ".kube/config",
        "",
        48,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: prod\n  cluster:\n    server: https://k8s.acme.test:6443\ncontexts:\n- name: prod\n  context: {cluster: prod, user: deployer}\ncurrent-context: prod\nusers:\n- name: deployer\n  user:\n    token: {}\n",
    ),
    ("dotenv-home", ".env", "sk-proj-", 40, "OPENAI_API_KEY={}\n"),
    (
        "dotenv-project",
        "/home/user/project/.env",
        "sk_live_",
        32,
        "STRIPE_SECRET_KEY={}\nDATABASE_URL=postgres://app:hunter2@db.internal/app\n",
    ),
    (
        TRANSCRIPT_CANARY,
        TRANSCRIPT,
        "sk-ant-api03-",
        40,
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"Deploy with this key: {}\"}}\n",
    ),
];

/// Environment tokens: variable, the secret's prefix and length.
const VARS: &[(&str, &str, usize)] = &[
    ("GITHUB_TOKEN", "ghp_", 36),
    ("AWS_ACCESS_KEY_ID", "AKIA", 16),
    ("AWS_SECRET_ACCESS_KEY", "", 40),
    ("ANTHROPIC_API_KEY", "sk-ant-api03-", 40),
    ("OPENAI_API_KEY", "sk-proj-", 40),
    ("NPM_TOKEN", "npm_", 36),
];

/// A value of `len` letters and digits after `prefix`.
fn secret(prefix: &str, len: usize, upper: bool) -> String {
    let set: &[u8] = if upper {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    } else {
        b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    };
    let mut out = prefix.to_owned();
    for _ in 0..len {
        out.push(set[fastrand::usize(..set.len())] as char);
    }
    out
}

/// A fresh set of canaries: every value new.
pub fn fresh() -> Vec<Canary> {
    let files = FILES.iter().map(|(name, path, prefix, len, text)| {
        let value = secret(prefix, *len, false);
        let path = if path.starts_with('/') {
            (*path).to_owned()
        } else {
            format!("{HOME}/{path}")
        };
        Canary {
            name: (*name).to_owned(),
            path: Some(path),
            var: None,
            content: text.replace("{}", &value),
            secret: value,
        }
    });
    let vars = VARS.iter().map(|(var, prefix, len)| {
        let value = secret(prefix, *len, *var == "AWS_ACCESS_KEY_ID");
        Canary {
            name: format!("env-{var}"),
            path: None,
            var: Some((*var).to_owned()),
            content: value.clone(),
            secret: value,
        }
    });
    files.chain(vars).collect()
}

/// The forms a secret is searched in: itself, hex (both cases), and
/// base64 at each of the three alignments it can have inside a longer
/// encoded text (the characters that depend on neighbours dropped),
/// standard and URL-safe.
pub fn forms(secret: &str) -> Vec<(String, &'static str)> {
    let mut out = vec![
        (secret.to_owned(), "plain"),
        (hex::encode(secret), "hex"),
        (hex::encode_upper(secret), "hex"),
    ];
    for engine in [
        &base64::engine::general_purpose::STANDARD_NO_PAD,
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
    ] {
        for shift in 0..3usize {
            let mut bytes = vec![0u8; shift];
            bytes.extend_from_slice(secret.as_bytes());
            let encoded = engine.encode(&bytes);
            // Skip the characters that hold the padding bytes, and the last
            // two, which depend on what follows.
            let start = (shift * 8).div_ceil(6);
            let end = encoded.len().saturating_sub(2);
            if end > start + 12 {
                out.push((encoded[start..end].to_owned(), "base64"));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The secret and its 16-character windows every 8 characters: a part of
/// a secret that left (a DNS label is at most 63 characters) is found too.
fn pieces(secret: &str) -> Vec<String> {
    let chars: Vec<char> = secret.chars().collect();
    let mut out = vec![secret.to_owned()];
    let mut at = 0;
    while at + PIECE <= chars.len() {
        out.push(chars[at..at + PIECE].iter().collect());
        at += PIECE / 2;
    }
    out
}

/// The shortest part of a secret that is searched for.
const PIECE: usize = 16;

/// Every form of every canary's secret (and of its pieces), searched in
/// one pass.
pub struct Needles {
    /// `None` only if building failed, which plain ASCII patterns cannot make it.
    automaton: Option<aho_corasick::AhoCorasick>,
    /// Per pattern: the canary's index and the form's name.
    owners: Vec<(usize, &'static str)>,
}

impl Needles {
    pub fn new(canaries: &[Canary]) -> Needles {
        let mut patterns = Vec::new();
        let mut owners = Vec::new();
        for (i, c) in canaries.iter().enumerate() {
            for (form, how) in pieces(&c.secret).iter().flat_map(|p| forms(p)) {
                patterns.push(form);
                owners.push((i, how));
            }
        }
        let automaton = aho_corasick::AhoCorasick::new(&patterns).ok();
        Needles { automaton, owners }
    }

    /// The index of the canary whose secret `data` holds, and the form.
    pub fn find(&self, data: &[u8]) -> Option<(usize, &'static str)> {
        self.automaton
            .as_ref()?
            .find(data)
            .map(|m| self.owners[m.pattern().as_usize()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_found_plain_hex_and_base64_at_any_offset() {
        let canaries = fresh();
        let c = &canaries[0];
        let needles = Needles::new(&canaries);
        for pad in ["", "a", "ab", "abc"] {
            let text = format!("{pad}{}{pad}", c.secret);
            let b64 = base64::engine::general_purpose::STANDARD.encode(&text);
            let url = base64::engine::general_purpose::URL_SAFE.encode(&text);
            for data in [text.clone(), b64, url, hex::encode(&text)] {
                let (found, _) = needles.find(data.as_bytes()).expect(&data);
                assert_eq!(canaries[found].name, c.name);
            }
        }
        assert!(needles.find(b"nothing to see here").is_none());
        // Half a secret, hex-encoded (as in a DNS label), is found too.
        let half = &c.secret[..c.secret.len() / 2 + 4];
        assert!(needles.find(hex::encode(half).as_bytes()).is_some());
    }

    #[test]
    fn every_canary_is_new() {
        let (a, b) = (fresh(), fresh());
        assert!(a.iter().zip(&b).all(|(x, y)| x.secret != y.secret));
    }
}
