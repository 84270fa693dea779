//! `skillpm publish` and `skillpm keygen`, run as the real binary.
//!
//! Covered: byte-for-byte determinism, refusal of invalid or unsafe skills
//! with `check`'s messages and nothing written, signatures that
//! `minisign-verify` accepts with the right trusted comment, version rules,
//! the committed `registry-fixtures/` being fresh, the site's shape as the
//! vercel-labs and OpenCode readers check it, and keygen's overwrite guard.
//!
//! Installing a published site through skillpm from a loopback server belongs
//! here too once `install` exists: publish with `publish_to` (signed and
//! unsigned), serve `site` with the axum test server, then `source add` +
//! `install` against it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

use crate::support::write;

const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const FIXTURE_EXPIRES: &str = "2099-01-01T00:00:00Z";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture_skills() -> PathBuf {
    repo().join("registry-fixtures/skills")
}

/// The binary with every location it might touch moved into `home`.
fn skillpm(home: &Path) -> Command {
    Command::from(crate::support::cli::process(
        home,
        &home.join("cache"),
        &home.join("admin"),
        home,
    ))
}

/// Every regular file under `dir`: relative path → (bytes, executable).
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, (Vec<u8>, bool)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                walk(root, &path, out);
            } else {
                assert!(kind.is_file(), "{} is not a regular file", path.display());
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let meta = entry.metadata().unwrap();
                out.insert(rel, (std::fs::read(&path).unwrap(), is_executable(&meta)));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn is_executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o100 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Lists the paths where two snapshots differ (for readable failures).
fn differences(
    a: &BTreeMap<String, (Vec<u8>, bool)>,
    b: &BTreeMap<String, (Vec<u8>, bool)>,
) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| match (a.get(k), b.get(k)) {
            (Some(_), None) => format!("{k}: only in the first"),
            (None, Some(_)) => format!("{k}: only in the second"),
            (Some(x), Some(y)) if x.1 != y.1 => format!("{k}: executable bit differs"),
            _ => format!("{k}: content differs"),
        })
        .collect()
}

/// Copies a tree, preserving the executable bit (and giving new mtimes).
fn copy_tree(from: &Path, to: &Path) {
    for (rel, (bytes, exec)) in snapshot(from) {
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::write(&dest, bytes).unwrap();
        set_executable(&dest, exec);
    }
}

fn set_executable(path: &Path, exec: bool) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = if exec { 0o755 } else { 0o644 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = (path, exec);
}

fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nDo the thing.\n")
}

/// Publishes `skills` into `out` with extra arguments, asserting success.
fn publish_to(home: &Path, skills: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let output = skillpm(home)
        .arg("--json")
        .arg("publish")
        .arg(skills)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "publish failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Runs keygen into `<dir>/<name>.{key,pub}`; returns (secret path, `RW…` line).
fn keygen(home: &Path, prefix: &Path) -> (PathBuf, String) {
    let output = skillpm(home)
        .arg("keygen")
        .arg("--out")
        .arg(prefix)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    (prefix.with_extension("key"), line)
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn verify(public_key: &str, data: &[u8], signature: &str) -> Result<String, String> {
    let pk = minisign_verify::PublicKey::from_base64(public_key).map_err(|e| e.to_string())?;
    let sig = minisign_verify::Signature::decode(signature).map_err(|e| e.to_string())?;
    pk.verify(data, &sig, false).map_err(|e| e.to_string())?;
    Ok(sig.trusted_comment().to_owned())
}

const INDEX: &str = ".well-known/agent-skills/index.json";
const SIGNATURE: &str = ".well-known/agent-skills/index.json.minisig";
const LEGACY_INDEX: &str = ".well-known/skills/index.json";

/// The site's index bytes and their signature.
fn signed_index(site: &Path) -> (Vec<u8>, String) {
    let index = std::fs::read(site.join(INDEX)).unwrap();
    let signature = std::fs::read_to_string(site.join(SIGNATURE)).unwrap();
    (index, signature)
}

/// The names in `dir` of publish's staging and replaced-site folders.
fn staging_leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("skillpm-staging") || n.contains("skillpm-old"))
        .collect()
}

#[test]
fn publishing_the_same_skills_twice_gives_identical_bytes() {
    let home = TempDir::new().unwrap();
    let first = home.path().join("first");
    let second = home.path().join("second");
    let report = publish_to(home.path(), &fixture_skills(), &first, &["--zip"]);
    assert_eq!(report["changed"], true);
    assert_eq!(report["signature"], serde_json::Value::Null);

    // The same files with new mtimes, from another folder: still the same site.
    let copy = home.path().join("copy");
    copy_tree(&fixture_skills(), &copy);
    publish_to(home.path(), &copy, &second, &["--zip"]);
    let (a, b) = (snapshot(&first), snapshot(&second));
    assert!(
        a.len() > 60,
        "a fixture site has every file twice plus archives"
    );
    assert_eq!(differences(&a, &b), Vec::<String>::new());

    // Publishing over an identical site writes nothing and says so.
    let again = publish_to(home.path(), &copy, &first, &["--zip"]);
    assert_eq!(again["changed"], false);
    assert_eq!(differences(&a, &snapshot(&first)), Vec::<String>::new());

    // A one-byte change in one skill changes that skill's artifact only.
    let sample = copy.join("csv-report/assets/sample.csv");
    let mut bytes = std::fs::read(&sample).unwrap();
    bytes.push(b'\n');
    std::fs::write(&sample, bytes).unwrap();
    let changed = publish_to(home.path(), &copy, &second, &["--zip"]);
    assert_eq!(changed["changed"], true);
    let diff = differences(&a, &snapshot(&second));
    assert_eq!(
        diff,
        [
            ".well-known/agent-skills/csv-report.tar.gz: content differs",
            ".well-known/agent-skills/csv-report.zip: content differs",
            ".well-known/agent-skills/csv-report/assets/sample.csv: content differs",
            ".well-known/agent-skills/index.json: content differs",
            ".well-known/skills/csv-report/assets/sample.csv: content differs",
        ]
    );
}

/// `good`, two skills that fail check (a name differing from its folder,
/// broken YAML), and a folder with no SKILL.md, which check skips.
fn one_good_and_two_invalid_skills(skills: &Path) {
    write(
        &skills.join("good/SKILL.md"),
        &skill_md("good", "A fine skill."),
    );
    write(
        &skills.join("renamed/SKILL.md"),
        &skill_md("other-name", "Name differs from folder."),
    );
    write(
        &skills.join("broken/SKILL.md"),
        "---\nname: broken\ndescription: [unclosed\n---\n",
    );
    write(
        &skills.join("notes/README.md"),
        "not a skill: check and publish both skip it\n",
    );
}

#[test]
fn invalid_skills_are_refused_with_checks_messages_and_nothing_is_written() {
    let home = TempDir::new().unwrap();
    let skills = home.path().join("skills");
    one_good_and_two_invalid_skills(&skills);

    // An earlier good site must survive the refused publish untouched.
    let out = home.path().join("site");
    let only_good = home.path().join("only-good");
    write(
        &only_good.join("good/SKILL.md"),
        &skill_md("good", "A fine skill."),
    );
    publish_to(home.path(), &only_good, &out, &[]);
    let before = snapshot(&out);

    let check = skillpm(home.path())
        .args(["check", "skills"])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(5));
    let check_report = String::from_utf8(check.stdout).unwrap();
    assert!(
        check_report.contains("invalid  other-name"),
        "{check_report}"
    );

    let output = skillpm(home.path())
        .args(["publish", "skills", "--out", "site"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(5));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("refusing to publish skills: 2 of 3 skills failed `skillpm check`"),
        "{stderr}"
    );
    // Word for word what `skillpm check` prints for the same folder.
    assert!(
        stderr.contains(check_report.trim_end()),
        "check said:\n{check_report}\npublish said:\n{stderr}"
    );
    for bad in ["renamed", "broken"] {
        let check = skillpm::skill::check_skill_dir(&skills.join(bad), None);
        assert!(!check.errors.is_empty(), "{bad} should be invalid");
        for error in &check.errors {
            assert!(
                stderr.contains(&error.message),
                "missing `{}` in:\n{stderr}",
                error.message
            );
        }
    }
    assert_eq!(differences(&before, &snapshot(&out)), Vec::<String>::new());

    // Into a new folder: it is not even created.
    skillpm(home.path())
        .args(["publish", "skills", "--out", "fresh"])
        .assert()
        .code(5);
    assert!(!home.path().join("fresh").exists());
    assert_eq!(staging_leftovers(home.path()), Vec::<String>::new());
}

#[test]
fn unsafe_trees_and_wrong_targets_are_refused_without_touching_the_old_site() {
    let home = TempDir::new().unwrap();
    let out = home.path().join("site");
    let good = home.path().join("good");
    write(&good.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
    publish_to(home.path(), &good, &out, &[]);
    let before = snapshot(&out);

    let refused = |skills: &Path, code: i32, needle: &str| {
        let output = skillpm(home.path())
            .arg("publish")
            .arg(skills)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(code), "{stderr}");
        assert!(stderr.contains(needle), "expected `{needle}` in: {stderr}");
        assert_eq!(differences(&before, &snapshot(&out)), Vec::<String>::new());
    };

    // A path some reader would mangle (`#` starts a URL fragment).
    let hashed = home.path().join("hashed");
    write(&hashed.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
    write(&hashed.join("tool/notes#1.md"), "x\n");
    refused(&hashed, 5, "file `notes#1.md`: `#` changes a URL");

    // Two paths that collide on case-insensitive file systems.
    let cased = home.path().join("cased");
    write(&cased.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
    write(&cased.join("tool/Docs/a.md"), "a\n");
    write(&cased.join("tool/docs/b.md"), "b\n");
    refused(&cased, 5, "on case-insensitive file systems");

    // A symlink inside a skill is refused, never followed.
    #[cfg(unix)]
    {
        let linked = home.path().join("linked");
        write(&linked.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
        std::os::unix::fs::symlink("/etc/hostname", linked.join("tool/leak")).unwrap();
        refused(&linked, 5, "a symlink");
    }

    // An --out full of unrelated files is never replaced.
    let precious = home.path().join("precious");
    write(&precious.join("thesis.tex"), "years of work\n");
    skillpm(home.path())
        .arg("publish")
        .arg(&good)
        .arg("--out")
        .arg(&precious)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "holds no site published by skillpm",
        ));
    assert_eq!(
        std::fs::read_to_string(precious.join("thesis.tex")).unwrap(),
        "years of work\n"
    );

    // Nor may the site swallow the skills, or the skills the site.
    skillpm(home.path())
        .arg("publish")
        .arg(&good)
        .arg("--out")
        .arg(good.join("site"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("overlap"));
    assert!(!good.join("site").exists());

    // A folder with no skills fails check (no SKILL.md); a missing one is a usage error.
    let nothing = home.path().join("nothing");
    std::fs::create_dir(&nothing).unwrap();
    refused(&nothing, 5, "every skill folder must hold a SKILL.md");
    refused(&home.path().join("missing"), 2, "cannot check");
}

/// Publish flags: signed with `key_arg` as version 7, expiring in 2031.
fn version_7_signed_with(key_arg: &str) -> [&str; 6] {
    [
        "--sign",
        key_arg,
        "--version",
        "7",
        "--expires-at",
        "2031-02-03T04:05:06Z",
    ]
}

/// The index verifies with `public` only, with its version and expiry as
/// the trusted comment; one flipped byte fails.
fn assert_only_the_key_verifies(home: &Path, public: &str, out: &Path) {
    let (index, signature) = signed_index(out);
    let comment = verify(public, &index, &signature).unwrap();
    assert_eq!(comment, "version=7 expires=2031-02-03T04:05:06Z");
    let mut tampered = index.clone();
    tampered[20] ^= 1;
    assert!(verify(public, &tampered, &signature).is_err());
    let (_, stranger) = keygen(home, &home.join("keys/stranger"));
    assert!(verify(&stranger, &index, &signature).is_err());
}

/// Re-publishing the same inputs keeps every byte, signature included,
/// with or without `--version`.
fn assert_unchanged_index_keeps_version(home: &Path, skills: &Path, out: &Path, key_arg: &str) {
    let before = snapshot(out);
    let same = publish_to(home, skills, out, &version_7_signed_with(key_arg));
    assert_eq!(same["changed"], false);
    assert_eq!(same["signature"]["reused"], true);
    assert_eq!(differences(&before, &snapshot(out)), Vec::<String>::new());

    // Without --version an unchanged index keeps its version...
    let kept = publish_to(
        home,
        skills,
        out,
        &["--sign", key_arg, "--expires-at", "2031-02-03T04:05:06Z"],
    );
    assert_eq!(kept["signature"]["version"], 7);
    assert_eq!(differences(&before, &snapshot(out)), Vec::<String>::new());
}

/// ...and a changed one takes the next version, without expiry if none is
/// asked for.
fn assert_changed_index_takes_the_next_version(
    home: &Path,
    skills: &Path,
    out: &Path,
    (key_arg, public): (&str, &str),
) {
    write(&skills.join("pdf-tools/references/NEW.md"), "new\n");
    let next = publish_to(home, skills, out, &["--sign", key_arg]);
    assert_eq!(next["signature"]["version"], 8);
    let (index, signature) = signed_index(out);
    assert_eq!(verify(public, &index, &signature).unwrap(), "version=8");
    let listed = &read_json(&out.join(INDEX))["skills"][4]["files"];
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "references/NEW.md"),
        "{listed}"
    );
}

/// Going back, reusing a version for different content, or an expiry in
/// the past (it would freeze every client at once) is refused, and the
/// site stays as published.
fn assert_versions_never_go_back(home: &Path, skills: &Path, out: &Path, key_arg: &str) {
    let published = snapshot(out);
    for (version, needle) in [("3", "lower than version 8"), ("8", "already published")] {
        write(
            &skills.join("pdf-tools/references/NEW.md"),
            &format!("v{version}\n"),
        );
        skillpm(home)
            .args([
                "publish",
                "skills",
                "--out",
                "site",
                "--sign",
                key_arg,
                "--version",
                version,
            ])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(needle));
        assert_eq!(
            differences(&published, &snapshot(out)),
            Vec::<String>::new()
        );
    }

    // An expiry in the past would freeze every client at once.
    skillpm(home)
        .args(["publish", "skills", "--out", "site", "--sign", key_arg])
        .args(["--version", "9", "--expires-at", "2001-01-01T00:00:00Z"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("already past"));
}

#[test]
fn signed_sites_verify_and_carry_version_and_expiry() {
    let home = TempDir::new().unwrap();
    let (key, public) = keygen(home.path(), &home.path().join("keys/team"));
    assert!(public.starts_with("RW"), "{public}");
    let pub_file = std::fs::read_to_string(home.path().join("keys/team.pub")).unwrap();
    assert_eq!(pub_file.lines().nth(1), Some(public.as_str()));

    let skills = home.path().join("skills");
    copy_tree(&fixture_skills(), &skills);
    let out = home.path().join("site");
    let key_arg = key.to_str().unwrap();
    let report = publish_to(home.path(), &skills, &out, &version_7_signed_with(key_arg));
    assert_eq!(report["signature"]["version"], 7);
    assert_eq!(report["signature"]["public_key"], public.as_str());
    assert_eq!(report["signature"]["reused"], false);

    assert_only_the_key_verifies(home.path(), &public, &out);
    assert_unchanged_index_keeps_version(home.path(), &skills, &out, key_arg);
    assert_changed_index_takes_the_next_version(home.path(), &skills, &out, (key_arg, &public));
    assert_versions_never_go_back(home.path(), &skills, &out, key_arg);
}

#[test]
fn encrypted_keys_sign_only_with_their_password() {
    let home = TempDir::new().unwrap();
    let output = skillpm(home.path())
        .args(["keygen", "--out", "locked"])
        .env("SKILLPM_KEY_PASSWORD", "open sesame")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stderr).contains("NOT encrypted"));
    let public = String::from_utf8(output.stdout).unwrap().trim().to_owned();

    let skills = home.path().join("skills");
    write(&skills.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
    skillpm(home.path())
        .args(["publish", "skills", "--out", "site", "--sign", "locked.key"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("SKILLPM_KEY_PASSWORD"));
    assert!(!home.path().join("site").exists());

    skillpm(home.path())
        .args(["publish", "skills", "--out", "site", "--sign", "locked.key"])
        .env("SKILLPM_KEY_PASSWORD", "open sesame")
        .assert()
        .success();
    let (index, signature) = signed_index(&home.path().join("site"));
    assert_eq!(verify(&public, &index, &signature).unwrap(), "version=1");
}

/// The committed `registry-fixtures/site` must be exactly what publishing the
/// committed skills with the committed key gives.
#[test]
fn committed_registry_fixtures_are_fresh() {
    let home = TempDir::new().unwrap();
    let committed = repo().join("registry-fixtures/site");
    let key = repo().join("registry-fixtures/keys/fixture.key");
    // Start from the committed site so an unchanged index keeps its signature.
    let out = home.path().join("site");
    copy_tree(&committed, &out);
    let regenerate = format!(
        "regenerate it from the repository root with:\n  rm -rf registry-fixtures/site && \
         skillpm publish registry-fixtures/skills --out registry-fixtures/site \
         --sign registry-fixtures/keys/fixture.key --version 1 --expires-at {FIXTURE_EXPIRES}"
    );
    let output = skillpm(home.path())
        .args(["--json", "publish"])
        .arg(fixture_skills())
        .arg("--out")
        .arg(&out)
        .arg("--sign")
        .arg(&key)
        .args(["--version", "1", "--expires-at", FIXTURE_EXPIRES])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "registry-fixtures/site is stale ({}); {regenerate}",
        String::from_utf8_lossy(&output.stderr).trim()
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let diff = differences(&snapshot(&committed), &snapshot(&out));
    assert!(
        diff.is_empty() && report["changed"] == false,
        "registry-fixtures/site is stale:\n  {}\n{regenerate}",
        diff.join("\n  ")
    );

    let public =
        std::fs::read_to_string(repo().join("registry-fixtures/keys/fixture.pub")).unwrap();
    assert!(public.contains("PUBLIC TEST KEY"), "{public}");
    let public = public.lines().nth(1).unwrap();
    let (index, signature) = signed_index(&committed);
    assert_eq!(
        verify(public, &index, &signature).unwrap(),
        format!("version=1 expires={FIXTURE_EXPIRES}")
    );
    let secret = std::fs::read_to_string(&key).unwrap();
    assert!(
        secret.starts_with("untrusted comment: PUBLIC TEST KEY"),
        "{secret}"
    );
}

/// A v0.2.0 entry and its legacy twin agree, and suit skillpm (an
/// archive named after the skill), vercel-labs `skills` (string `files`
/// starting with SKILL.md, no `..` or absolute path) and OpenCode (a
/// string `version`).
fn assert_entry_suits_every_reader(entry: &serde_json::Value, legacy: &serde_json::Value) {
    let name = entry["name"].as_str().unwrap();
    assert_eq!(legacy["name"], name);
    assert_eq!(legacy["description"], entry["description"]);
    assert_eq!(legacy["files"], entry["files"]);
    assert_eq!(legacy.get("version"), entry.get("version"));
    assert_eq!(entry["type"], "archive");
    assert_eq!(entry["url"], format!("{name}.tar.gz"));
    assert!(!entry["description"].as_str().unwrap().is_empty());
    if let Some(version) = entry.get("version") {
        assert!(
            version.is_string(),
            "OpenCode needs a string version: {version}"
        );
    }
    let files = listed_files(entry);
    assert_eq!(files[0], "SKILL.md");
    assert!(
        files
            .iter()
            .all(|f| !f.starts_with('/') && !f.contains(".."))
    );
}

/// An entry's `files`, which must be strings for vercel-labs and OpenCode.
fn listed_files(entry: &serde_json::Value) -> Vec<&str> {
    entry["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            f.as_str()
                .expect("files must be strings for vercel-labs and OpenCode")
        })
        .collect()
}

/// Every listed file is served with the source bytes under both paths, and
/// the archive (whose digest the entry gives) holds exactly the source.
fn assert_entry_serves_the_source(site: &Path, entry: &serde_json::Value) {
    let name = entry["name"].as_str().unwrap();
    let source = snapshot(&fixture_skills().join(name));
    let mut sorted = listed_files(entry);
    sorted.sort();
    assert_eq!(
        sorted,
        source.keys().map(String::as_str).collect::<Vec<_>>()
    );
    for root in [".well-known/agent-skills", ".well-known/skills"] {
        let served = snapshot(&site.join(root).join(name));
        assert_eq!(
            differences(&source, &served),
            Vec::<String>::new(),
            "{root}/{name}"
        );
    }

    let archive = std::fs::read(
        site.join(".well-known/agent-skills")
            .join(format!("{name}.tar.gz")),
    )
    .unwrap();
    assert_eq!(
        entry["digest"],
        skillpm::digest::Digest::of_bytes(&archive).to_string()
    );
    assert_eq!(
        differences(&source, &unpacked_tar_gz(&archive)),
        Vec::<String>::new(),
        "{name}.tar.gz"
    );
}

/// The files of a tar.gz: bytes and executable bit by path.
fn unpacked_tar_gz(archive: &[u8]) -> BTreeMap<String, (Vec<u8>, bool)> {
    use std::io::Read;
    let mut unpacked = BTreeMap::new();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    for member in tar.entries().unwrap() {
        let mut member = member.unwrap();
        if member.header().entry_type().is_dir() {
            continue;
        }
        let path = member.path().unwrap().to_string_lossy().into_owned();
        let exec = member.header().mode().unwrap() & 0o100 != 0;
        let mut bytes = Vec::new();
        member.read_to_end(&mut bytes).unwrap();
        unpacked.insert(path, (bytes, exec));
    }
    unpacked
}

/// The fixture site as each reader sees it: skillpm's v0.2.0 entries (digest
/// over the served archive, archive = tree), the vercel-labs `skills` entry
/// check (name rule, non-empty string `files` with SKILL.md, no `..`), and
/// OpenCode's schema (string `files`, string `version`), on both indexes,
/// with every listed file served with the source bytes under both paths.
#[test]
fn fixture_site_matches_what_every_reader_expects() {
    let site = repo().join("registry-fixtures/site");
    let v2 = read_json(&site.join(INDEX));
    let v1 = read_json(&site.join(LEGACY_INDEX));
    assert_eq!(v2["$schema"], SCHEMA);
    assert!(v1.get("$schema").is_none());
    assert!(site.join(".nojekyll").is_file());

    let v2_skills = v2["skills"].as_array().unwrap();
    let v1_skills = v1["skills"].as_array().unwrap();
    let names: Vec<&str> = v2_skills
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "api-client",
            "brand-guidelines",
            "csv-report",
            "git-changelog",
            "pdf-tools"
        ]
    );
    assert_eq!(v1_skills.len(), v2_skills.len());

    for (entry, legacy) in v2_skills.iter().zip(v1_skills) {
        assert_entry_suits_every_reader(entry, legacy);
        assert_entry_serves_the_source(&site, entry);
    }

    // The skill with agent metadata declares an env var and an MCP server.
    let openai =
        std::fs::read_to_string(fixture_skills().join("api-client/agents/openai.yaml")).unwrap();
    assert!(
        openai.contains("type: \"env_var\"") && openai.contains("type: \"mcp\""),
        "{openai}"
    );
}

#[test]
fn keygen_refuses_to_overwrite_without_force() {
    let home = TempDir::new().unwrap();
    let prefix = home.path().join("release");
    let (secret, first) = keygen(home.path(), &prefix);
    let secret_before = std::fs::read(&secret).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&secret).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    skillpm(home.path())
        .args(["keygen", "--out", "release"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("already exists; pass --force"));
    assert_eq!(std::fs::read(&secret).unwrap(), secret_before);

    // Only the public half left over still blocks a new key.
    std::fs::remove_file(&secret).unwrap();
    skillpm(home.path())
        .args(["keygen", "--out", "release"])
        .assert()
        .code(2);
    assert!(!secret.exists());

    let output = skillpm(home.path())
        .args(["keygen", "--out", "release", "--force"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("NOT encrypted"));
    let second = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    assert_ne!(first, second);
    let pub_file = std::fs::read_to_string(prefix.with_extension("pub")).unwrap();
    assert_eq!(pub_file.lines().nth(1), Some(second.as_str()));
    let leftovers: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert_eq!(leftovers, Vec::<String>::new());
}

/// Publishes `skills` signed with the secret key file `key` and checks the
/// signature (and the versioned snapshot beside it) with `public`.
fn publish_signed_with(home: &Path, key: &Path, public: &str, password: Option<&str>) {
    let skills = home.join("skills");
    write(&skills.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
    let _ = std::fs::remove_dir_all(home.join("site"));
    let mut cmd = skillpm(home);
    cmd.args(["publish", "skills", "--out", "site", "--sign"])
        .arg(key);
    if let Some(pw) = password {
        cmd.env("SKILLPM_KEY_PASSWORD", pw);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let site = home.join("site");
    let (index, signature) = signed_index(&site);
    assert_eq!(verify(public, &index, &signature).unwrap(), "version=1");
    let kept = site.join(".well-known/agent-skills/index.1.json");
    assert_eq!(std::fs::read(&kept).unwrap(), index);
    let kept_sig = std::fs::read_to_string(kept.with_extension("json.minisig")).unwrap();
    assert_eq!(verify(public, &index, &kept_sig).unwrap(), "version=1");
}

/// The exact file `minisign -G -W` (0.11) writes: no KDF, zero salt and
/// limits, and an ALL-ZERO checksum (the `minisign` crate calls that key
/// "corrupted"). Made here from a fresh key so no secret is committed.
fn minisign_w_key(dir: &Path) -> (PathBuf, String) {
    let pair = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
    let mut raw = pair.sk.to_bytes();
    assert_eq!(raw.len(), 158);
    assert_eq!(&raw[2..4], &[0, 0], "no KDF");
    let at = raw.len() - 32;
    raw[at..].fill(0);
    let path = dir.join("w.key");
    std::fs::write(
        &path,
        format!(
            "untrusted comment: minisign encrypted secret key\n{}\n",
            crate::support::keys::base64(&raw)
        ),
    )
    .unwrap();
    (path, pair.pk.to_base64())
}

#[test]
fn keys_without_a_password_as_minisign_w_writes_them_sign() {
    let home = TempDir::new().unwrap();
    let (key, public) = minisign_w_key(home.path());
    publish_signed_with(home.path(), &key, &public, None);
}

/// The real `minisign` tool, when installed (Debian's `minisign` package):
/// both a `-W` key and a password-protected key sign through skillpm.
#[test]
fn keys_made_by_the_minisign_tool_sign() {
    let Ok(status) = std::process::Command::new("minisign").arg("-v").output() else {
        eprintln!("minisign is not installed; covered by the format-exact keys above");
        return;
    };
    assert!(status.status.success() || !status.stdout.is_empty());
    let home = TempDir::new().unwrap();
    let gen_key = |name: &str, password: Option<&str>| -> (PathBuf, String) {
        let (pk, sk) = (
            home.path().join(format!("{name}.pub")),
            home.path().join(format!("{name}.key")),
        );
        let mut cmd = std::process::Command::new("minisign");
        cmd.arg("-G").arg("-p").arg(&pk).arg("-s").arg(&sk);
        if password.is_none() {
            cmd.arg("-W");
        }
        cmd.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = cmd.spawn().unwrap();
        if let Some(pw) = password {
            use std::io::Write as _;
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "{pw}\n{pw}").unwrap();
        }
        assert!(child.wait().unwrap().success());
        let public = std::fs::read_to_string(&pk)
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .to_owned();
        (sk, public)
    };
    let (w_key, w_public) = gen_key("plain", None);
    publish_signed_with(home.path(), &w_key, &w_public, None);

    let (locked, public) = gen_key("locked", Some("open sesame"));
    skillpm(home.path())
        .args(["publish", "skills", "--out", "site2", "--sign"])
        .arg(&locked)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("SKILLPM_KEY_PASSWORD"));
    skillpm(home.path())
        .args(["publish", "skills", "--out", "site2", "--sign"])
        .arg(&locked)
        .env("SKILLPM_KEY_PASSWORD", "wrong")
        .assert()
        .failure()
        .stderr(predicates::str::contains("Wrong password"));
    publish_signed_with(home.path(), &locked, &public, Some("open sesame"));
}

/// A private key block as `openssl genpkey` writes it (random base64, not
/// a real key: only the shape matters here).
const PRIVATE_KEY_PEM: &str = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n-----END PRIVATE KEY-----\n";

/// Issue 37.2: files that hold secrets are left out by default, and
/// `--dry-run` says which and why. Honest first: a skill with a README,
/// a certificate and an `.env.example` publishes all of them; then the
/// same skill with `.env`, `.env.local`, an SSH key, a private-key `.pem`
/// and a token-bearing `.npmrc` publishes none of those (neither in the
/// archive nor in the served files nor in the index's listing), and
/// naming one in `.skillignore` (`!.npmrc`) is the one way back in.
#[test]
fn publish_leaves_out_secret_bearing_files_and_says_why() {
    let home = TempDir::new().unwrap();
    let skills = home.path().join("skills");
    let out = home.path().join("site");
    let skill = skills.join("deploy");
    write(
        &skill.join("SKILL.md"),
        &skill_md("deploy", "Deploy things."),
    );
    write(&skill.join("README.md"), "Set AWS_REGION in .env.\n");
    write(&skill.join(".env.example"), "AWS_REGION=eu-west-1\n");
    write(
        &skill.join("certs/ca.pem"),
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    );
    let honest = ["SKILL.md", "README.md", ".env.example", "certs/ca.pem"];
    let published = |report: &serde_json::Value| -> Vec<String> {
        let archive = std::fs::read(out.join(".well-known/agent-skills/deploy.tar.gz")).unwrap();
        let mut files: Vec<String> = unpacked_tar_gz(&archive).into_keys().collect();
        files.sort();
        let index = read_json(&out.join(INDEX));
        let mut listed: Vec<String> = listed_files(&index["skills"][0])
            .into_iter()
            .map(str::to_owned)
            .collect();
        listed.sort();
        assert_eq!(files, listed, "{report}");
        files
    };
    let report = publish_to(home.path(), &skills, &out, &[]);
    let mut want: Vec<String> = honest.iter().map(|s| (*s).to_owned()).collect();
    want.sort();
    assert_eq!(published(&report), want);

    // The attack: secrets beside the honest files.
    let secrets = [
        (
            ".env",
            "DATABASE_URL=postgres://app:hunter2@db/app\n".to_owned(),
        ),
        (".env.local", "STRIPE_KEY=sk_test_abc\n".to_owned()),
        (
            "keys/id_ed25519",
            PRIVATE_KEY_PEM.replace("PRIVATE", "OPENSSH PRIVATE"),
        ),
        ("certs/server.pem", PRIVATE_KEY_PEM.to_owned()),
        ("signing.p12", "\u{30}\u{82}binary".to_owned()),
        (
            ".npmrc",
            "//registry.npmjs.org/:_authToken=npm_abc123\n".to_owned(),
        ),
        (
            ".netrc",
            "machine example.com login me password pw\n".to_owned(),
        ),
    ];
    for (path, text) in &secrets {
        write(&skill.join(path), text);
    }
    let output = skillpm(home.path())
        .args(["--json", "publish"])
        .arg(&skills)
        .arg("--out")
        .arg(&out)
        .arg("--dry-run")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let dry: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let left: BTreeMap<&str, &str> = dry["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["path"].as_str().unwrap(), l["why"].as_str().unwrap()))
        .collect();
    for (path, _) in &secrets {
        assert!(
            left.contains_key(path),
            "{path} not listed as left out: {dry}"
        );
    }
    assert!(left[".env"].contains("environment file"), "{dry}");
    assert!(left["certs/server.pem"].contains("private key"), "{dry}");
    assert!(left[".npmrc"].contains("`!.npmrc`"), "{dry}");
    let files: Vec<&str> = (dry["files"].as_array().unwrap().iter())
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), honest.len(), "{dry}");
    let human = skillpm(home.path())
        .arg("publish")
        .arg(&skills)
        .arg("--out")
        .arg(&out)
        .arg("--dry-run")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("left out  deploy/.env: an environment file"),
        "{text}"
    );

    let report = publish_to(home.path(), &skills, &out, &[]);
    assert_eq!(published(&report), want);
    for (path, _) in &secrets {
        for root in [".well-known/agent-skills", ".well-known/skills"] {
            assert!(!out.join(root).join("deploy").join(path).exists(), "{path}");
        }
    }

    // Named in .skillignore, a file is published; a wildcard is not a name.
    write(&skill.join(".skillignore"), "!.env*\n!.npmrc\n");
    std::fs::write(
        skill.join(".npmrc"),
        "registry=https://registry.npmjs.org/\n_auth=x\n",
    )
    .unwrap();
    let report = publish_to(home.path(), &skills, &out, &[]);
    let files = published(&report);
    assert!(files.contains(&".npmrc".to_owned()), "{files:?}");
    assert!(!files.contains(&".env".to_owned()), "{files:?}");
    assert!(!files.contains(&".env.local".to_owned()), "{files:?}");
}

/// Issue 37.2: the secret check judges each value on its own: an example
/// access key id beside a real-looking secret key does not vouch for it.
#[test]
fn an_example_key_id_does_not_disarm_the_secret_check() {
    let home = TempDir::new().unwrap();
    let skills = home.path().join("skills");
    let out = home.path().join("site");
    let skill = skills.join("deploy");
    write(
        &skill.join("SKILL.md"),
        &skill_md("deploy", "Deploy things."),
    );
    // Honest: the documented example pair publishes.
    let config = skill.join("config/aws.ini");
    write(
        &config,
        "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    );
    publish_to(home.path(), &skills, &out, &[]);
    let json = skill.join("config/aws.json");
    write(
        &json,
        "{\"aws_access_key_id\": \"AKIAIOSFODNN7EXAMPLE\",\n \"aws_secret_access_key\": \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"}\n",
    );
    publish_to(home.path(), &skills, &out, &[]);
    let index = std::fs::read(out.join(INDEX)).unwrap();
    // The attack: the example id beside a real-looking secret, as an INI
    // file and as JSON (a quoted key).
    let refused = |file: &Path, text: &str, at: &str| {
        write(file, text);
        let output = skillpm(home.path())
            .arg("publish")
            .arg(&skills)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(5), "{stderr}");
        assert!(stderr.contains(at), "{stderr}");
        assert_eq!(std::fs::read(out.join(INDEX)).unwrap(), index);
    };
    let example = std::fs::read_to_string(&config).unwrap();
    refused(
        &config,
        "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = q8Kf3mQ2tLpwJalrXUtnFEMI/K7MDENGbPxRfiCY\n",
        "config/aws.ini:3",
    );
    write(&config, &example);
    refused(
        &json,
        "{\"aws_access_key_id\": \"AKIAIOSFODNN7EXAMPLE\",\n \"aws_secret_access_key\": \"q8Kf3mQ2tLpwJalrXUtnFEMI/K7MDENGbPxRfiCY\"}\n",
        "config/aws.json:2",
    );
}

// ---------------------------------------------------------------------------
// One set of path rules (`skillpm::names`): what `publish` writes, `add`
// accepts, and what `add` refuses, `publish` refuses.

/// Names the unpacker refuses (Windows device names with and without an
/// extension, including `CONIN$`, `CONOUT$` and the superscript-digit
/// ports, characters Windows refuses, a trailing dot or space).
const REFUSED_NAMES: &[&str] = &[
    "CON",
    "con.txt",
    "CONIN$",
    "conout$.log",
    "COM1.md",
    "LPT9",
    "COM¹",
    "com².txt",
    "LPT³.md",
    "Aux .md",
    "trailing.",
    "trailing ",
    "a:b",
    "a*b",
    "a<b",
    "a>b",
    "a\"b",
    "a|b",
    "a?b",
    "a\\b",
];

#[test]
fn publish_refuses_every_name_add_refuses() {
    let home = TempDir::new().unwrap();
    let publish = |skills: &Path| {
        let out = home.path().join("out");
        let output = skillpm(home.path())
            .arg("publish")
            .arg(skills)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stderr, out)
    };
    // Honest: a plain extra file publishes.
    let honest = home.path().join("honest");
    write(&honest.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
    write(&honest.join("tool/notes.md"), "x\n");
    let (code, stderr, out) = publish(&honest);
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::remove_dir_all(out).unwrap();
    for (i, name) in REFUSED_NAMES.iter().enumerate() {
        // `add` refuses it (the unpacker's rule) ...
        assert!(
            skillpm::names::check_name(name).is_err(),
            "{name:?} is accepted by add"
        );
        // ... and so does `publish`, naming the file, writing nothing.
        let skills = home.path().join(format!("bad{i}"));
        write(&skills.join("tool/SKILL.md"), &skill_md("tool", "Tool."));
        write(&skills.join("tool").join(name), "x\n");
        let (code, stderr, out) = publish(&skills);
        assert_eq!(code, Some(5), "{name:?}: {stderr}");
        assert!(stderr.contains("cannot publish skill `tool`"), "{stderr}");
        assert!(!out.exists(), "{name:?}: publish wrote {}", out.display());
    }
}

/// Names that are awkward but legal everywhere.
const AWKWARD_NAMES: &[&str] = &[
    "a b.md",
    "UPPER.MD",
    ".hidden",
    "console.md",
    "com0.txt",
    "lpt10.txt",
    "CONIN",
    "nul-not.txt",
    "x (1).md",
    "semi;colon,comma.md",
    "amp&plus+eq=at@.md",
    "quote'excl!dollar$.md",
    "brace{}caret^tick`tilde~.md",
    "deep/nested/folder/file.md",
];

#[test]
fn what_publish_writes_add_accepts_whole() {
    let home = TempDir::new().unwrap();
    let skills = home.path().join("skills");
    let tool = skills.join("tool");
    write(&tool.join("SKILL.md"), &skill_md("tool", "Tool."));
    for (i, name) in AWKWARD_NAMES.iter().enumerate() {
        write(&tool.join(name), &format!("file {i}\n"));
    }
    // The longest path a ustar header holds: 155 bytes of folders, a
    // 100-byte name.
    let long = format!("{}/{}", "d".repeat(155), "f".repeat(100));
    write(&tool.join(&long), "long\n");
    let out = home.path().join("site");
    publish_to(home.path(), &skills, &out, &[]);
    let source = snapshot(&tool);

    // The archive (v0.2) and, with the archives gone, the file lists (v0.1).
    let v1_only = home.path().join("v1-only");
    copy_tree(&out, &v1_only);
    std::fs::remove_dir_all(v1_only.join(".well-known/agent-skills")).unwrap();
    for (site, via) in [(&out, "archive"), (&v1_only, "v0.1 file list")] {
        let server = crate::support::server::TestServer::serve(site);
        let sb = crate::support::cli::Sandbox::new();
        sb.init();
        let (code, _, stderr) = crate::support::cli::run(sb.cmd().args([
            "add",
            "--source",
            &server.base(),
            "--all",
            "--yes",
        ]));
        assert_eq!(code, 0, "{via}: {stderr}");
        let placed = std::fs::canonicalize(sb.project.join(".agents/skills/tool")).unwrap();
        assert_eq!(
            differences(&source, &snapshot(&placed)),
            Vec::<String>::new(),
            "{via}"
        );
    }
}
