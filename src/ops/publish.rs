//! `skillpm publish` and `skillpm keygen`: glue between `skill::check`, the
//! packer, the signer and the staged site writer in `crate::publish`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context as _;
use serde::Serialize;

use super::check::{self, CheckOptions};
use super::{Context, Report};
use crate::error::Exit;
use crate::publish::sign::{self, SigningKey, TrustedComment};
use crate::publish::site::{self, PreviousSite};
use crate::publish::{self as publisher, PublishError, PublishedSkill, SkillSource};
use crate::skill;

/// Defaults of the client's strict unpacker (docs/design.md#unpacking): a skill beyond
/// them publishes, with a warning that clients must raise their limits.
const CLIENT_MAX_ENTRIES: usize = 10_000;
const CLIENT_MAX_FILE: u64 = 16 * 1024 * 1024;
const CLIENT_MAX_SKILL: u64 = 64 * 1024 * 1024;

/// Options of `skillpm publish`.
#[derive(Debug, Clone)]
pub struct PublishOptions {
    /// A skill folder, or a folder of skill folders.
    pub skills_dir: PathBuf,
    /// The site folder to (re)place.
    pub out: PathBuf,
    /// A minisign secret key file; signs the v0.2.0 index.
    pub sign: Option<PathBuf>,
    /// Password of an encrypted secret key.
    pub password: Option<String>,
    /// `version=` of the trusted comment; `None` keeps the published version
    /// when the index is unchanged and takes the next one otherwise (1 at first).
    pub version: Option<u64>,
    /// `expires=` of the trusted comment.
    pub expires: Option<SystemTime>,
    /// Also write `<name>.zip` beside each `.tar.gz`.
    pub zip: bool,
    /// `--dry-run`: list every file that would be published, write nothing.
    pub dry_run: bool,
    /// `--strict`: the verdict of `check --strict`.
    pub strict: bool,
}

/// The result of `skillpm publish`.
///
/// JSON shape (`--json`):
/// ```json
/// {"site": "/abs/site", "index": ".well-known/agent-skills/index.json",
///  "legacy_index": ".well-known/skills/index.json", "changed": true,
///  "skills": [{"name": "pdf-tools", "version": "1.2.0", "tree": "sha256:…",
///              "archive": {"path": ".well-known/agent-skills/pdf-tools.tar.gz",
///                          "digest": "sha256:…", "size": 1234},
///              "zip": null, "files": 7, "bytes": 9876}],
///  "signature": {"path": ".well-known/agent-skills/index.json.minisig",
///                "key_id": "0123456789ABCDEF", "public_key": "RW…", "version": 3,
///                "expires": "2030-01-01T00:00:00Z", "reused": false}}
/// ```
/// `changed` is false when the folder already held exactly this site (nothing
/// was written); `signature` is null without `--sign`; `reused` says the
/// previous signature still covered the unchanged index and was kept.
///
/// With `--dry-run`, `dry_run` is true, `changed` false, `signature` null,
/// and `files` lists every file that would be published:
/// `[{"skill", "path", "size"}]` (absent otherwise).
#[derive(Debug, Serialize)]
pub struct PublishReport {
    pub site: PathBuf,
    pub index: String,
    pub legacy_index: String,
    pub changed: bool,
    pub skills: Vec<PublishedSkill>,
    pub signature: Option<SignatureReport>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<ListedFile>,
}

/// One file `publish --dry-run` would publish.
#[derive(Debug, Serialize)]
pub struct ListedFile {
    pub skill: String,
    pub path: String,
    pub size: u64,
}

#[derive(Debug, Serialize)]
pub struct SignatureReport {
    pub path: String,
    pub key_id: String,
    pub public_key: String,
    pub version: u64,
    pub expires: Option<String>,
    pub reused: bool,
}

impl Report for PublishReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.dry_run {
            for f in &self.files {
                writeln!(out, "{:>10}  {}/{}", f.size, f.skill, f.path)?;
            }
            let bytes: u64 = self.files.iter().map(|f| f.size).sum();
            return writeln!(
                out,
                "{} file{}, {bytes} bytes in {} skill{} would be published to {} (dry run: nothing written)",
                self.files.len(),
                super::plural(self.files.len()),
                self.skills.len(),
                super::plural(self.skills.len()),
                self.site.display()
            );
        }
        let count = self.skills.len();
        let state = if self.changed {
            ""
        } else {
            " (already up to date; nothing written)"
        };
        writeln!(
            out,
            "Published {count} skill{} to {}{state}",
            super::plural(count),
            self.site.display()
        )?;
        let width = self.skills.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in &self.skills {
            writeln!(
                out,
                "  {:width$}  {:>10}  {}  {} files, {} bytes",
                s.name,
                s.version.as_deref().unwrap_or("-"),
                s.archive.digest,
                s.files,
                s.bytes,
            )?;
        }
        match &self.signature {
            Some(sig) => {
                let expires = sig
                    .expires
                    .as_deref()
                    .map(|e| format!(", expires {e}"))
                    .unwrap_or_default();
                let reused = if sig.reused { ", signature kept" } else { "" };
                writeln!(
                    out,
                    "Signed by key {} (version {}{expires}{reused})",
                    sig.key_id, sig.version
                )?;
            }
            None => writeln!(
                out,
                "Not signed (pass --sign <secret key> so clients can pin your key)"
            )?,
        }
        let pin = self
            .signature
            .as_ref()
            .map(|sig| format!(" --key {}", sig.public_key))
            .unwrap_or_default();
        writeln!(out, "Upload the folder to any static host, then:")?;
        writeln!(out, "  skillpm source add <name> <site URL>{pin}")
    }
}

/// Options of `skillpm publish DIR --oci oci://HOST/NAMESPACE`.
#[derive(Debug, Clone)]
pub struct OciPublishOptions {
    pub skills_dir: PathBuf,
    pub target: String,
    pub tag: Option<String>,
    pub token_env: Option<String>,
    /// `--strict`: the verdict of `check --strict`, as for a static site.
    pub strict: bool,
}

/// `--json`: `{"target": "oci://HOST/NS", "skills": [{"name", "reference":
/// "oci://HOST/NS/NAME@sha256:…", "manifest": "sha256:…", "layer": "sha256:…",
/// "tags": ["1.0.0", "latest"], "uploaded": 2}]}`; `uploaded` counts the blobs
/// whose bytes were sent (0: the registry had them all).
#[derive(Debug, Serialize)]
pub struct OciPublishReport {
    pub target: String,
    pub skills: Vec<crate::sources::oci::push::Pushed>,
}

impl Report for OciPublishReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let count = self.skills.len();
        writeln!(
            out,
            "Pushed {count} skill{} to {}",
            super::plural(count),
            self.target
        )?;
        for s in &self.skills {
            writeln!(out, "  {}  tags {}", s.reference, s.tags.join(", "))?;
            if s.uploaded == 0 {
                writeln!(out, "    (the registry had every blob; nothing uploaded)")?;
            }
        }
        writeln!(out, "Install with:")?;
        writeln!(out, "  skillpm add --source {} <name>", self.target)
    }
}

/// Checks every skill as `publish` does, then pushes one artifact per skill.
/// Nothing is pushed unless every skill passes `check`.
pub fn publish_oci(ctx: &Context, opts: &OciPublishOptions) -> anyhow::Result<OciPublishReport> {
    use crate::sources::oci::{self, OciError, OciRef, Registry, push};
    let target = OciRef::parse(opts.target.trim()).map_err(|reason| OciError::Reference {
        text: opts.target.clone(),
        reason,
    })?;
    if target.tag.is_some() || target.digest.is_some() {
        return Err(OciError::Reference {
            text: opts.target.clone(),
            reason: "--oci names a namespace (oci://HOST/NAMESPACE); tags come from each skill's metadata.version or --tag".into(),
        }
        .into());
    }
    let credential = match &opts.token_env {
        Some(var) => {
            let value = std::env::var(var).ok().filter(|v| !v.trim().is_empty());
            let Some(value) = value else {
                return super::fail(Exit::Usage, format!("--token-env ${var} is not set"));
            };
            Some(oci::Credential::from_token(var, &value))
        }
        None => match oci::auth::docker_config_path() {
            Some(path) => oci::auth::from_docker_config(&path, &target.registry)?,
            None => None,
        },
    };
    let sources = check_all(ctx, &opts.skills_dir, opts.strict)?;
    let mut built = Vec::with_capacity(sources.len());
    for source in &sources {
        warn_over_client_limits(ctx, source);
        let tags = push::tags_for(source, opts.tag.as_deref())?;
        let artifact =
            push::build(source).with_context(|| format!("cannot pack `{}`", source.name))?;
        built.push((source, artifact, tags));
    }
    let fetcher = crate::sources::workspace::fetcher(&ctx.ui, ctx.offline, ctx.allow_http)?;
    let registry = Registry::new(&fetcher, &target, credential)?;
    let mut pushed_blobs = std::collections::HashMap::new();
    let mut skills = Vec::new();
    for (source, artifact, tags) in &built {
        ctx.ui
            .status("Pushing", target.child(&source.name).to_string());
        skills.push(
            push::push(
                &registry,
                &target,
                source,
                artifact,
                tags,
                &mut pushed_blobs,
            )
            .with_context(|| format!("cannot push `{}`", source.name))?,
        );
    }
    Ok(OciPublishReport {
        target: target.to_string(),
        skills,
    })
}

/// Validates, packs, signs and writes the site. Nothing is written unless
/// every skill passes `check` and every step before the final swap succeeded.
pub fn publish(ctx: &Context, opts: &PublishOptions) -> anyhow::Result<PublishReport> {
    let skills_dir = ctx.cwd.join(&opts.skills_dir);
    let out = ctx.cwd.join(&opts.out);
    if let Some(expires) = opts.expires
        && expires <= SystemTime::now()
    {
        return Err(PublishError::ExpiryPast {
            expires: sign::format_time(expires),
        }
        .into());
    }
    let key = match &opts.sign {
        Some(path) => Some(SigningKey::load(
            &ctx.cwd.join(path),
            opts.password.as_deref(),
        )?),
        None => None,
    };

    let sources = check_all(ctx, &opts.skills_dir, opts.strict)?;
    ensure_disjoint(&skills_dir, &out)?;
    for source in &sources {
        warn_over_client_limits(ctx, source);
    }
    let mut built = publisher::build_site(&sources, opts.zip)?;
    if opts.dry_run {
        let files = sources
            .iter()
            .flat_map(|s| {
                s.files.files.iter().map(|f| ListedFile {
                    skill: s.name.clone(),
                    path: f.path.clone(),
                    size: f.bytes.len() as u64,
                })
            })
            .collect();
        return Ok(PublishReport {
            site: out,
            index: site::index_path(),
            legacy_index: site::legacy_index_path(),
            changed: false,
            skills: built.skills,
            signature: None,
            dry_run: true,
            files,
        });
    }

    site::ensure_replaceable(&out)?;
    let signature = key
        .as_ref()
        .map(|key| sign_index(ctx, &mut built, key, opts, &out))
        .transpose()?;
    let changed = !built.site.matches_dir(&out);
    if changed {
        built
            .site
            .write_to(&out)
            .with_context(|| format!("cannot write the site to {}", out.display()))?;
    }
    Ok(PublishReport {
        site: out,
        index: site::index_path(),
        legacy_index: site::legacy_index_path(),
        changed,
        skills: built.skills,
        signature,
        dry_run: false,
        files: Vec::new(),
    })
}

/// Runs `skillpm check` on the skills folder exactly as the `check` command
/// does (same folder selection, same rules, same tier: `strict` is
/// `check --strict`); any invalid skill refuses the whole publish with
/// check's own report. Warnings are shown and do not stop it.
fn check_all(ctx: &Context, skills_dir: &Path, strict: bool) -> anyhow::Result<Vec<SkillSource>> {
    let opts = CheckOptions {
        paths: vec![skills_dir.to_owned()],
        strict,
    };
    let report = check::check(ctx, &opts)?;
    if report.invalid > 0 {
        let mut text = Vec::new();
        report.human(&mut text)?;
        return Err(PublishError::InvalidSkills {
            dir: skills_dir.to_owned(),
            invalid: report.invalid,
            total: report.checked,
            report: String::from_utf8_lossy(&text).trim_end().to_owned(),
        }
        .into());
    }
    let mut sources = Vec::with_capacity(report.skills.len());
    for checked in &report.skills {
        for warning in &checked.warnings {
            ctx.ui
                .warn(format!("{}: {warning}", checked.path.display()));
        }
        let dir = ctx.cwd.join(&checked.path);
        let md = skill::check_skill_dir(&dir, None)
            .skill
            .filter(|md| skill::is_valid_name(&md.name))
            // Only a file changing between the two reads gets here.
            .ok_or_else(|| PublishError::Changed {
                path: dir.join("SKILL.md"),
            })?;
        let files = publisher::files::load_skill_files(&dir, &ctx.cwd.join(skills_dir), &md.name)?;
        audit_published(ctx, &md.name, &files)?;
        sources.push(SkillSource {
            version: publisher::frontmatter_version(&md.frontmatter),
            name: md.name,
            description: md.description,
            files,
        });
    }
    Ok(sources)
}

/// Runs the scanner on exactly the files about to be published: a
/// live-looking secret refuses the publish (exit 5, naming file and line);
/// other findings at `high` or above are shown as warnings.
fn audit_published(
    ctx: &Context,
    skill: &str,
    files: &publisher::files::SkillFiles,
) -> anyhow::Result<()> {
    for file in &files.files {
        for f in crate::audit::audit_file(&file.path, &file.bytes) {
            if f.rule == "live-secret" {
                return Err(PublishError::Secret {
                    skill: skill.to_owned(),
                    file: f.file,
                    line: f.line,
                    excerpt: f.excerpt,
                }
                .into());
            }
            if f.severity >= crate::audit::Severity::High {
                ctx.ui.warn(format!(
                    "skill `{skill}`: audit finding {} ({}) at {}: {}",
                    f.rule,
                    f.severity,
                    f.place(),
                    f.excerpt
                ));
            }
        }
    }
    Ok(())
}

fn display_path(ctx: &Context, path: &Path) -> PathBuf {
    path.strip_prefix(&ctx.cwd).unwrap_or(path).to_owned()
}

fn warn_over_client_limits(ctx: &Context, source: &SkillSource) {
    let files = &source.files;
    let largest = files
        .files
        .iter()
        .map(|f| f.bytes.len() as u64)
        .max()
        .unwrap_or(0);
    if files.files.len() > CLIENT_MAX_ENTRIES
        || largest > CLIENT_MAX_FILE
        || files.total_bytes() > CLIENT_MAX_SKILL
    {
        ctx.ui.warn(format!(
            "skill `{}` ({} files, {} bytes, largest file {largest} bytes) exceeds skillpm's default unpack limits \
             ({CLIENT_MAX_ENTRIES} files, {CLIENT_MAX_FILE} bytes a file, {CLIENT_MAX_SKILL} bytes a skill); \
             clients must raise theirs to install it",
            source.name,
            files.files.len(),
            files.total_bytes()
        ));
    }
}

/// Refuses a site inside the skills (the next publish would take it for a
/// skill) and skills inside the site (the swap would delete them).
fn ensure_disjoint(skills_dir: &Path, out: &Path) -> Result<(), PublishError> {
    let skills = comparable(skills_dir);
    let site = comparable(out);
    if site.starts_with(&skills) || skills.starts_with(&site) {
        return Err(PublishError::Overlap {
            out: out.to_owned(),
            skills: skills_dir.to_owned(),
        });
    }
    Ok(())
}

/// The canonical form of the longest existing ancestor, plus the rest.
fn comparable(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => comparable(parent).join(name),
        _ => path.to_owned(),
    }
}

/// Signs the v0.2.0 index into the site, choosing the version and keeping
/// the previous signature when it already covers these exact bytes.
fn sign_index(
    ctx: &Context,
    built: &mut publisher::BuiltSite,
    key: &SigningKey,
    opts: &PublishOptions,
    out: &Path,
) -> Result<SignatureReport, PublishError> {
    let previous = PreviousSite::read(out);
    let index = built.index_bytes().to_vec();
    let same_index = previous.index.as_deref() == Some(index.as_slice());
    let published = previous.signature.as_deref().and_then(sign::signed_version);
    let version = match (opts.version, published) {
        (Some(v), Some(p)) if v < p => {
            return Err(PublishError::VersionRollback {
                requested: v,
                published: p,
                next: p + 1,
                out: out.to_owned(),
            });
        }
        (Some(v), Some(p)) if v == p && !same_index => {
            return Err(PublishError::VersionReused {
                version: v,
                next: p + 1,
                out: out.to_owned(),
            });
        }
        (Some(v), _) => v,
        (None, Some(p)) if same_index => p,
        (None, Some(p)) => p + 1,
        (None, None) => {
            ctx.ui.warn(format!(
                "{} holds no signed index, so this is version 1; if this registry was published \
                 before, pass --version above the served one, or clients refuse it as a rollback",
                display_path(ctx, out).display()
            ));
            1
        }
    };
    let comment = TrustedComment {
        version,
        expires: opts.expires,
    }
    .render();
    let kept = previous
        .signature
        .clone()
        .filter(|old| same_index && key.signed(&index, old, &comment));
    let reused = kept.is_some();
    let signature = match kept {
        Some(old) => old,
        None => key.sign(&index, &comment)?,
    };
    // Earlier versions' snapshots stay; this version's joins them.
    for (path, bytes) in previous.versioned {
        built.site.insert(path, bytes, false);
    }
    let versioned = site::versioned_index_path(version);
    built.site.insert(
        format!("{versioned}.minisig"),
        signature.clone().into_bytes(),
        false,
    );
    built.site.insert(versioned, index, false);
    built
        .site
        .insert(site::signature_path(), signature.into_bytes(), false);
    Ok(SignatureReport {
        path: site::signature_path(),
        key_id: key.key_id(),
        public_key: key.public_key(),
        version,
        expires: opts.expires.map(sign::format_time),
        reused,
    })
}

/// Options of `skillpm keygen`.
#[derive(Debug, Clone)]
pub struct KeygenOptions {
    /// Writes `<prefix>.key` and `<prefix>.pub`.
    pub prefix: PathBuf,
    pub force: bool,
    /// Untrusted comment written into both files.
    pub comment: Option<String>,
    /// Encrypts the secret key (scrypt, as `minisign -G` does).
    pub password: Option<String>,
}

/// The result of `skillpm keygen`.
///
/// JSON shape: `{"secret_key": "/abs/k.key", "public_key_file": "/abs/k.pub",
/// "key_id": "0123456789ABCDEF", "public_key": "RW…", "encrypted": false}`.
/// Human output is the public key line alone, so `$(skillpm keygen …)` captures it.
#[derive(Debug, Serialize)]
pub struct KeygenReport {
    pub secret_key: PathBuf,
    pub public_key_file: PathBuf,
    pub key_id: String,
    pub public_key: String,
    pub encrypted: bool,
}

impl Report for KeygenReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.public_key)
    }
}

pub fn keygen(ctx: &Context, opts: &KeygenOptions) -> anyhow::Result<KeygenReport> {
    let prefix = ctx.cwd.join(&opts.prefix);
    let with_ext = |ext: &str| {
        let mut s = prefix.clone().into_os_string();
        s.push(ext);
        PathBuf::from(s)
    };
    let (secret_path, public_path) = (with_ext(".key"), with_ext(".pub"));
    if !opts.force {
        for path in [&secret_path, &public_path] {
            if std::fs::symlink_metadata(path).is_ok() {
                return Err(PublishError::KeyExists { path: path.clone() }.into());
            }
        }
    }
    let comment = opts.comment.as_deref().unwrap_or("skillpm signing key");
    let key = sign::generate(comment, opts.password.as_deref())?;
    if let Some(parent) = secret_path.parent() {
        std::fs::create_dir_all(parent).map_err(PublishError::io("cannot create", parent))?;
    }
    write_key_files(&[
        (&secret_path, &key.secret_file, true),
        (&public_path, &key.public_file, false),
    ])?;
    let secret_shown = display_path(ctx, &secret_path);
    if !key.encrypted {
        ctx.ui.warn(format!(
            "{} is NOT encrypted: anyone who can read it can sign indexes your users trust. \
             Keep it out of version control and in a secret store, or set {} before `skillpm keygen` to encrypt it.",
            secret_shown.display(),
            sign::PASSWORD_ENV
        ));
    }
    ctx.ui.info(format!(
        "wrote {} and {} (key id {}); sign with `skillpm publish <skills> --out <site> --sign {}` \
         and pin the public key with `skillpm source add <name> <url> --key {}`",
        secret_shown.display(),
        display_path(ctx, &public_path).display(),
        key.key_id,
        secret_shown.display(),
        key.public_key
    ));
    Ok(KeygenReport {
        secret_key: secret_path,
        public_key_file: public_path,
        key_id: key.key_id,
        public_key: key.public_key,
        encrypted: key.encrypted,
    })
}

/// Writes each file to a temp sibling, then renames them all into place, so
/// a failure never leaves a half-written key. Secret files get mode 0600.
fn write_key_files(files: &[(&PathBuf, &String, bool)]) -> Result<(), PublishError> {
    let mut temps = Vec::new();
    let written = (|| {
        for (path, text, secret) in files {
            let temp = path.with_file_name(format!(
                ".{}.tmp-{:016x}",
                path.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default(),
                fastrand::u64(..)
            ));
            temps.push(temp.clone());
            write_new(&temp, text.as_bytes(), *secret)?;
        }
        for (temp, (path, _, _)) in temps.iter().zip(files) {
            std::fs::rename(temp, path).map_err(PublishError::io("cannot write", *path))?;
        }
        Ok(())
    })();
    if written.is_err() {
        for t in &temps {
            let _ = std::fs::remove_file(t);
        }
    }
    written
}

fn write_new(path: &Path, bytes: &[u8], secret: bool) -> Result<(), PublishError> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if secret { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut file = options
        .open(path)
        .map_err(PublishError::io("cannot create", path))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(PublishError::io("cannot write", path))
}
