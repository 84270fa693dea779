//! `skillpm publish` and `skillpm keygen`: glue between `skill::check`, the
//! packer, the signer and the staged site writer in `crate::publish`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context as _;

use super::check::{self, CheckOptions};
use super::{Context, Report};
use crate::error::Exit;
use crate::publish::keyfiles;
use crate::publish::sign::{self, SigningKey};
use crate::publish::{self as publisher, PublishError, SkillSource, guard, site};
use crate::skill;
use crate::view::publish::{
    KeygenReport, ListedFile, ListedLeftOut, OciPublishReport, PublishReport,
};

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
            Some(oci::RegistryLogin::from_token(var, &value))
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
    guard::ensure_disjoint(&skills_dir, &out)?;
    for source in &sources {
        warn_over_client_limits(ctx, source);
    }
    let mut built = publisher::build_site(&sources, opts.zip)?;
    let mut report = PublishReport {
        site: out,
        index: site::index_path(),
        legacy_index: site::legacy_index_path(),
        changed: false,
        skills: Vec::new(),
        signature: None,
        dry_run: opts.dry_run,
        files: Vec::new(),
        left_out: Vec::new(),
    };
    if opts.dry_run {
        report.files = ListedFile::all(&sources);
        report.left_out = ListedLeftOut::all(&sources);
    } else {
        attach_bundles(ctx, &mut built, &report.site)?;
        report.signature = write_site(ctx, opts, &mut built, key.as_ref(), &report.site)?;
        report.changed = !built.site.matches_dir(&report.site);
        if report.changed {
            (built.site.write_to(&report.site))
                .with_context(|| format!("cannot write the site to {}", report.site.display()))?;
        }
    }
    report.skills = built.skills;
    Ok(report)
}

/// Keeps the Sigstore bundles a workflow put beside the archives in `out`
/// that still cover the new archives, and names them in the index.
fn attach_bundles(
    ctx: &Context,
    built: &mut publisher::BuiltSite,
    out: &Path,
) -> anyhow::Result<()> {
    let root = crate::sources::publisher::trusted_root()?;
    let attached = publisher::attest::attach_bundles(built, out, &root);
    for (skill, why) in attached.stale {
        ctx.ui.warn(format!(
            "`{skill}`: its Sigstore bundle is left out (attest the new archive again): {why}"
        ));
    }
    Ok(())
}

/// Checks `out` may be replaced and signs the index with `key`, if any.
fn write_site(
    ctx: &Context,
    opts: &PublishOptions,
    built: &mut publisher::BuiltSite,
    key: Option<&SigningKey>,
    out: &Path,
) -> anyhow::Result<Option<publisher::sign::SignatureReport>> {
    site::ensure_replaceable(out)?;
    let warn = |message: String| ctx.ui.warn(message);
    let shown = display_path(ctx, out);
    let signature = key.map(|key| {
        publisher::sign::sign_index(
            built,
            key,
            (opts.version, opts.expires),
            out,
            (&shown, &warn),
        )
    });
    Ok(signature.transpose()?)
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
        for warning in guard::audit_files(&md.name, &files)? {
            ctx.ui.warn(warning);
        }
        for left in files.left_out.iter().filter(|l| l.secret) {
            (ctx.ui).info(format!("{}: left out {}: {}", md.name, left.path, left.why));
        }
        sources.push(SkillSource {
            version: publisher::frontmatter_version(&md.frontmatter),
            name: md.name,
            description: md.description,
            files,
        });
    }
    Ok(sources)
}

/// The warning for a skill beyond the client's default unpack limits.
fn warn_over_client_limits(ctx: &Context, source: &SkillSource) {
    if let Some(warning) = guard::over_client_limits(source) {
        ctx.ui.warn(warning);
    }
}

fn display_path(ctx: &Context, path: &Path) -> PathBuf {
    path.strip_prefix(&ctx.cwd).unwrap_or(path).to_owned()
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

pub fn keygen(ctx: &Context, opts: &KeygenOptions) -> anyhow::Result<KeygenReport> {
    let comment = opts.comment.as_deref().unwrap_or("skillpm signing key");
    let (key, secret_path, public_path) = keyfiles::create(
        &ctx.cwd.join(&opts.prefix),
        opts.force,
        comment,
        opts.password.as_deref(),
    )?;
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
