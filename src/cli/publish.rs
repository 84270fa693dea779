//! Arguments of `skillpm publish` and `skillpm keygen`.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::ops::publish::{KeygenOptions, OciPublishOptions, PublishOptions};
use crate::publish::sign::PASSWORD_ENV;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
The site serves both discovery paths: .well-known/agent-skills/index.json (v0.2.0, with digests) \
and .well-known/skills/index.json (v0.1.0), with every skill's files under <name>/ in both. \
Upload the folder to any static host, CDN or object store. \
An encrypted secret key takes its password from SKILLPM_KEY_PASSWORD. \
With --oci, each skill is pushed instead to NAMESPACE/<name> in an OCI registry (ToolHive's \
artifact format), tagged with its metadata.version (else --tag) and `latest`; credentials \
come from --token-env or ~/.docker/config.json.")]
pub struct PublishArgs {
    /// A folder of skill folders (or one skill folder) to publish.
    #[arg(value_name = "SKILLS_DIR")]
    pub skills_dir: PathBuf,
    /// The site folder to write; an earlier site there is replaced atomically.
    #[arg(
        long,
        value_name = "SITE_DIR",
        required_unless_present = "oci",
        conflicts_with = "oci"
    )]
    pub out: Option<PathBuf>,
    /// Push to an OCI registry instead: `oci://HOST/NAMESPACE` (skill NAME
    /// goes to NAMESPACE/NAME).
    #[arg(long, value_name = "oci://HOST/NAMESPACE", conflicts_with_all = ["sign", "zip"])]
    pub oci: Option<String>,
    /// With --oci: the tag of skills without `metadata.version` (besides `latest`).
    #[arg(long, value_name = "TAG", requires = "oci")]
    pub tag: Option<String>,
    /// With --oci: environment variable holding the registry token (or USER:TOKEN).
    #[arg(long, value_name = "VAR", requires = "oci")]
    pub token_env: Option<String>,
    /// Sign the index with this minisign secret key file (see `skillpm keygen`).
    #[arg(long, value_name = "SECRET_KEY")]
    pub sign: Option<PathBuf>,
    /// The index version in the signature (clients refuse lower ones). Default:
    /// the published version if the index is unchanged, else the next one.
    #[arg(long, value_name = "N", requires = "sign")]
    pub version: Option<u64>,
    /// Let the signature expire after this long, e.g. `90days` (makes the output
    /// depend on the time of publishing).
    #[arg(long, value_name = "DURATION", requires = "sign", value_parser = humantime::parse_duration)]
    pub expires: Option<Duration>,
    /// Let the signature expire at this RFC 3339 UTC time, e.g. `2030-01-01T00:00:00Z`.
    #[arg(long, value_name = "TIME", requires = "sign", conflicts_with = "expires", value_parser = parse_time)]
    pub expires_at: Option<SystemTime>,
    /// Also write <name>.zip beside each <name>.tar.gz.
    #[arg(long)]
    pub zip: bool,
    /// List every file that would be published, with its size; write nothing.
    /// (.git, .hg, .svn, .DS_Store and Thumbs.db are always left out, and so
    /// is what the skill's .gitignore and .skillignore match.)
    #[arg(long)]
    pub dry_run: bool,
    /// Judge the skills as `check --strict` does (fields only an agent
    /// defines are refused too).
    #[arg(long)]
    pub strict: bool,
}

impl PublishArgs {
    /// `Some` for `--oci`.
    pub fn oci_options(&self) -> Option<OciPublishOptions> {
        Some(OciPublishOptions {
            skills_dir: self.skills_dir.clone(),
            target: self.oci.clone()?,
            tag: self.tag.clone(),
            token_env: self.token_env.clone(),
            strict: self.strict,
        })
    }
}

fn parse_time(s: &str) -> Result<SystemTime, String> {
    humantime::parse_rfc3339(s)
        .map_err(|e| format!("{e}; expected an RFC 3339 UTC time such as 2030-01-01T00:00:00Z"))
}

impl PublishArgs {
    pub fn options(&self) -> PublishOptions {
        let expires = self
            .expires_at
            .or_else(|| self.expires.map(|d| SystemTime::now() + d));
        PublishOptions {
            skills_dir: self.skills_dir.clone(),
            out: self.out.clone().unwrap_or_default(),
            sign: self.sign.clone(),
            password: password_from_env(),
            version: self.version,
            expires,
            zip: self.zip,
            dry_run: self.dry_run,
            strict: self.strict,
        }
    }
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Without SKILLPM_KEY_PASSWORD the secret key is written unencrypted (mode 0600); \
with it, the key is encrypted as `minisign -G` does. The public key line is printed on stdout.")]
pub struct KeygenArgs {
    /// Path prefix: writes <PREFIX>.key (secret) and <PREFIX>.pub (public).
    #[arg(long, value_name = "PREFIX")]
    pub out: PathBuf,
    /// Overwrite existing key files.
    #[arg(long)]
    pub force: bool,
    /// Comment written into both key files.
    #[arg(long, value_name = "TEXT")]
    pub comment: Option<String>,
}

impl KeygenArgs {
    pub fn options(&self) -> KeygenOptions {
        KeygenOptions {
            prefix: self.out.clone(),
            force: self.force,
            comment: self.comment.clone(),
            password: password_from_env(),
        }
    }
}

fn password_from_env() -> Option<String> {
    std::env::var(PASSWORD_ENV).ok().filter(|p| !p.is_empty())
}
