//! Publisher identity for git sources (docs/provenance.md#publisher-identity-for-git-sources):
//! a real repository served by a loopback GitHub (commits API, archives,
//! releases), its release carrying `<tag>.sigstore.json` made by the
//! test-time Sigstore of `support::sigstore`. The honest path first, then
//! each attack, with nothing written on a refusal.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::git_support::Repo;
use crate::git_support::github::FakeGitHub;
use crate::support::cli::{Sandbox, ok, run};
use crate::support::sigstore::{
    GITHUB_ISSUER, Signing, TestSigstore, add_source_with_publisher, trusting_sandbox,
};

/// acme's release workflow, run for a tag.
const WORKFLOW: &str = "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/";
/// What the consumers declare: that workflow, for any tag.
const DECLARED: &str = "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/*";
const ASSET: &str = "v1.0.0.sigstore.json";

/// The repository: `v1.0.0` at A, `v1.1.0` at B, one skill `pdf`.
struct History {
    repo: Repo,
    a: String,
    b: String,
}

fn history() -> History {
    let repo = Repo::new("skills");
    repo.skill("skills/pdf", "pdf", "Fill PDF forms.");
    let a = repo.commit("first");
    repo.git(&["tag", "v1.0.0"]);
    repo.write("skills/pdf/notes.md", "more\n");
    let b = repo.commit("second");
    repo.git(&["tag", "v1.1.0"]);
    History { repo, a, b }
}

/// What acme's release workflow signs for `tag` at `commit`.
fn signing(tag: &str, commit: &str) -> Signing {
    Signing {
        identity: format!("{WORKFLOW}{tag}"),
        commit: commit.to_owned(),
        ..Signing::github("acme/skills")
    }
}

/// The bundle `actions/attest-build-provenance` leaves for a release (its
/// subject: the release's archive; the certificate names the commit).
fn bundle(sigstore: &TestSigstore, s: &Signing) -> Vec<u8> {
    let artifact = format!("skills-{}.tar.gz", s.commit);
    sigstore
        .sign(artifact.as_bytes(), s)
        .to_string()
        .into_bytes()
}

/// A sandbox whose skillpm trusts `sigstore` and talks to `gh`.
fn sandbox(sigstore: &TestSigstore, gh: &FakeGitHub) -> Sandbox {
    let mut sb = trusting_sandbox(sigstore);
    gh.configure(&mut sb);
    sb
}

/// A fresh project declaring `source` (with acme's publisher), for an
/// `add` that must be refused; returns its folder.
fn project_with(sb: &Sandbox, name: &str, source: &str) -> PathBuf {
    let dir = sb.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    ok(run(sb.cmd_in(&dir).arg("init")));
    add_source_with_publisher(&mut sb.cmd_in(&dir), "acme", source, DECLARED);
    dir
}

/// `add pdf` in a fresh project is refused with exit 3 saying `says`, and
/// writes no lock and places nothing.
fn add_refused(sb: &Sandbox, name: &str, source: &str, says: &[&str]) {
    let dir = project_with(sb, name, source);
    let toml = std::fs::read_to_string(dir.join("skills.toml")).unwrap();
    let (code, _, err) = run(sb.cmd_in(&dir).args(["add", "pdf", "--yes"]));
    assert_eq!(code, 3, "{name}: {err}");
    for text in says {
        assert!(err.contains(text), "{name}: expected {text:?} in:\n{err}");
    }
    assert!(
        !dir.join("skills.lock").exists(),
        "{name}: a lock was written"
    );
    assert!(!dir.join(".agents").exists(), "{name}: a skill was placed");
    assert_eq!(
        std::fs::read_to_string(dir.join("skills.toml")).unwrap(),
        toml
    );
}

fn the_kept_bundle(cache: &Path) -> PathBuf {
    let dir = cache.join("sigstore");
    let mut files: Vec<PathBuf> = (std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.remove(0)
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(bytes))
}

#[test]
fn a_tagged_release_installs_with_its_publisher_locked_and_every_other_bundle_is_refused() {
    let h = history();
    let gh = FakeGitHub::new(
        HashMap::from([
            ("v1.0.0".to_owned(), h.a.clone()),
            ("v1.1.0".to_owned(), h.b.clone()),
            ("refs/heads/main".to_owned(), h.b.clone()),
        ]),
        HashMap::from([
            (h.a.clone(), h.repo.archive("skills", &h.a)),
            (h.b.clone(), h.repo.archive("skills", &h.b)),
        ]),
    );
    gh.answer_compare_from(&h.repo.work);
    let sigstore = TestSigstore::new();
    let honest = bundle(&sigstore, &signing("v1.0.0", &h.a));
    gh.release("v1.0.0", "skills-v1.0.0.tar.gz", b"the archive".to_vec());
    gh.release("v1.0.0", ASSET, honest.clone());
    let sb = sandbox(&sigstore, &gh);
    sb.init();
    let source = "github:acme/skills@v1.0.0";
    add_source_with_publisher(&mut sb.cmd(), "acme", source, DECLARED);
    gh.take_log();

    // Honest: added, its publisher shown and locked.
    let (_, _, err) = ok(run(sb.cmd().args(["add", "pdf", "--yes", "--verbose"])));
    assert!(
        err.contains(&format!("publisher:   {WORKFLOW}v1.0.0")),
        "{err}"
    );
    let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
    assert!(lock.contains(&format!("commit = \"{}\"", h.a)), "{lock}");
    assert!(lock.contains("[skill.publisher]"), "{lock}");
    assert!(
        lock.contains(&format!("identity = \"{WORKFLOW}v1.0.0\"")),
        "{lock}"
    );
    assert!(lock.contains("log-index = 1005"), "{lock}");
    assert!(
        lock.contains(&format!("bundle = \"sha256:{}\"", sha256_hex(&honest))),
        "{lock}"
    );
    assert!(
        lock.contains(&format!(
            "url = \"https://github.com/acme/skills/releases/download/v1.0.0/{ASSET}\""
        )),
        "{lock}"
    );
    // The asset came through the API and its storage redirect; the token
    // went to the API only.
    let log = gh.take_log();
    let seen = |path: &str| log.iter().find(|hit| hit.path == path);
    let listed = seen("/repos/acme/skills/releases/tags/v1.0.0").expect("release read");
    assert_eq!(listed.auth.as_deref(), Some("Bearer s3cret"));
    let stored = (log.iter())
        .find(|hit| hit.path.starts_with("/release-assets/"))
        .expect("asset read from storage");
    assert_eq!((stored.origin, stored.auth.as_deref()), ("elsewhere", None));

    let (_, out, _) = ok(run(sb.cmd().args(["verify", "--provenance"])));
    assert!(
        out.contains(&format!(
            "built from github.com/acme/skills at {} by workflow release.yml (log entry 1005)",
            h.a
        )),
        "{out}"
    );
    let (_, json, _) = ok(run(sb.cmd().args(["--json", "verify", "--provenance"])));
    assert!(
        (serde_json::from_str::<serde_json::Value>(&json)
            .unwrap()
            .to_string())
        .contains(&format!("\"source_commit\":\"{}\"", h.a)),
        "{json}"
    );
    ok(run(sb.cmd().args(["install", "--locked"])));

    // --frozen proves the kept bundle offline: no release is read, and
    // the releases may be gone.
    gh.delete_releases();
    gh.take_log();
    ok(run(sb.cmd().args(["install", "--frozen"])));
    let log = gh.take_log();
    assert!(
        !log.iter().any(|hit| hit.path.contains("release")),
        "{log:?}"
    );

    // A policy that requires acme's workflows of GitHub sources holds;
    // one that requires another publisher refuses the same lock.
    crate::support::sigstore::policy_holds_for_acme_and_refuses_another(&sb, "github:acme/*");

    // Attacks on `add`, each in a fresh project: the release's bundle is
    // replaced by one that verifies but is about something else.
    let refused = |name: &str, s: Signing, says: &[&str]| {
        gh.release("v1.0.0", ASSET, bundle(&sigstore, &s));
        add_refused(&sb, name, source, says);
    };
    refused(
        "another-commit",
        signing("v1.0.0", &h.b),
        &["another commit", &h.a, &h.b],
    );
    refused(
        "another-repository",
        Signing {
            repository: "https://github.com/evil/skills".into(),
            ..signing("v1.0.0", &h.a)
        },
        &["another commit or another repository", "evil/skills"],
    );
    refused(
        "another-identity",
        Signing {
            identity: "https://github.com/acme/skills/.github/workflows/evil.yml@refs/tags/v1.0.0"
                .into(),
            ..signing("v1.0.0", &h.a)
        },
        &["evil.yml", DECLARED],
    );
    refused(
        "another-issuer",
        Signing {
            issuer: "https://accounts.google.com".into(),
            ..signing("v1.0.0", &h.a)
        },
        &["https://accounts.google.com", GITHUB_ISSUER],
    );
    // The honest bundle with its statement altered (the signature no
    // longer holds).
    let mut altered: serde_json::Value = serde_json::from_slice(&honest).unwrap();
    let payload = altered["dsseEnvelope"]["payload"].as_str().unwrap();
    let mut bytes = crate::support::sigstore::b64_decode(payload);
    let last = bytes.len() - 2;
    bytes[last] ^= 1;
    altered["dsseEnvelope"]["payload"] = crate::support::sigstore::b64(&bytes).into();
    gh.release("v1.0.0", ASSET, altered.to_string().into_bytes());
    add_refused(&sb, "altered", source, &["signature does not hold"]);
    // No asset, then no release at all.
    gh.delete_releases();
    gh.release("v1.0.0", "notes.txt", b"release notes".to_vec());
    add_refused(
        &sb,
        "no-asset",
        source,
        &[
            &format!("has no asset `{ASSET}` (it has notes.txt)"),
            DECLARED,
        ],
    );
    gh.delete_releases();
    add_refused(
        &sb,
        "no-release",
        source,
        &["has no release for tag `v1.0.0`", DECLARED],
    );
    // A source that follows a branch has no release to read.
    add_refused(
        &sb,
        "branch",
        "github:acme/skills@refs/heads/main",
        &["not a release tag", DECLARED],
    );
    gh.release("v1.0.0", ASSET, honest.clone());

    // Attacks on the lock and the cache: install --frozen refuses, and
    // nothing is placed anew.
    let lock_path = sb.project.join("skills.lock");
    let frozen_refuses = |edited: &str, says: &str| {
        std::fs::write(&lock_path, edited).unwrap();
        let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains(says), "expected {says:?} in:\n{err}");
        std::fs::write(&lock_path, &lock).unwrap();
        ok(run(sb.cmd().args(["install", "--frozen"])));
    };
    // The recorded publisher edited to another identity the declaration
    // also matches, and to another log entry.
    let edited = lock.replace(
        &format!("identity = \"{WORKFLOW}v1.0.0\""),
        &format!("identity = \"{WORKFLOW}v9.9.9\""),
    );
    assert_ne!(edited, lock);
    frozen_refuses(&edited, "but its bundle says");
    frozen_refuses(
        &lock.replace("log-index = 1005", "log-index = 7"),
        "but its bundle says",
    );
    // The record points at another bundle this cache keeps: one the same
    // workflow made at the other commit.
    let other = bundle(&sigstore, &signing("v1.1.0", &h.b));
    let kept = the_kept_bundle(&sb.cache);
    let other_path = kept.with_file_name(format!("sha256-{}", sha256_hex(&other)));
    std::fs::write(&other_path, &other).unwrap();
    frozen_refuses(
        &lock.replace(&sha256_hex(&honest), &sha256_hex(&other)),
        "another commit",
    );
    std::fs::remove_file(&other_path).unwrap();
    // The kept bundle swapped for that other one under the honest name.
    std::fs::write(&kept, &other).unwrap();
    let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("is not kept in this machine's cache"), "{err}");
    // Online, the lock's record is read again from the release (its
    // digest checked) and kept.
    ok(run(sb.cmd().args(["install", "--locked"])));
    assert_eq!(std::fs::read(&kept).unwrap(), honest);
    ok(run(sb.cmd().args(["install", "--frozen"])));

    // `update` to v1.1.0: its release's bundle must be about B. One about
    // A is refused and changes nothing; B's is locked.
    let toml_path = sb.project.join("skills.toml");
    let toml = std::fs::read_to_string(&toml_path).unwrap();
    std::fs::write(&toml_path, toml.replace("@v1.0.0", "@v1.1.0")).unwrap();
    let stale = bundle(&sigstore, &signing("v1.1.0", &h.a));
    gh.release("v1.1.0", "v1.1.0.sigstore.json", stale);
    let (code, _, err) = run(sb.cmd().args(["update", "pdf", "--yes"]));
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("another commit"), "{err}");
    assert_eq!(std::fs::read_to_string(&lock_path).unwrap(), lock);
    gh.release("v1.1.0", "v1.1.0.sigstore.json", other.clone());
    ok(run(sb.cmd().args(["update", "pdf", "--yes"])));
    let updated = std::fs::read_to_string(&lock_path).unwrap();
    assert!(
        updated.contains(&format!("commit = \"{}\"", h.b)),
        "{updated}"
    );
    assert!(
        updated.contains(&format!("bundle = \"sha256:{}\"", sha256_hex(&other))),
        "{updated}"
    );
    ok(run(sb.cmd().args(["install", "--frozen"])));
}

/// `search` of a git source that declares a publisher shows the verified
/// publisher of the tag's release, or why it does not hold.
#[test]
fn search_shows_the_publisher_of_a_git_sources_release() {
    let h = history();
    let gh = FakeGitHub::new(
        HashMap::from([("v1.0.0".to_owned(), h.a.clone())]),
        HashMap::from([(h.a.clone(), h.repo.archive("skills", &h.a))]),
    );
    let sigstore = TestSigstore::new();
    gh.release("v1.0.0", ASSET, bundle(&sigstore, &signing("v1.0.0", &h.a)));
    let sb = sandbox(&sigstore, &gh);
    sb.init();
    let dir = project_with(&sb, "searching", "github:acme/skills@v1.0.0");
    let (_, out, _) = ok(run(sb.cmd_in(&dir).args(["search", "pdf"])));
    assert!(
        out.contains(&format!(
            "publisher: built from github.com/acme/skills at {} by workflow release.yml (log entry 1005) (Sigstore, verified)",
            h.a
        )),
        "{out}"
    );
    gh.release(
        "v1.0.0",
        ASSET,
        bundle(&sigstore, &signing("v1.0.0", &"0".repeat(40))),
    );
    let (_, out, _) = ok(run(sb.cmd_in(&dir).args(["search", "pdf"])));
    assert!(
        out.contains("publisher: NOT verified") && out.contains("another commit"),
        "{out}"
    );
}

/// `sigstore::verify` about a commit: the signature over the bundle's own
/// digest or envelope holds whatever its subject, and the certificate must
/// name that commit of that repository (GitHub's names without case).
#[test]
fn a_bundle_is_about_the_commit_and_repository_its_certificate_names() {
    use skillpm::trust::sigstore::{self, About, SigstoreError, TrustedRoot};
    let test = TestSigstore::new();
    let root = TrustedRoot::parse("test root", test.trusted_root().as_bytes()).unwrap();
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let about = |repository: &str, commit: &str| About::Commit {
        repository: repository.into(),
        commit: commit.into(),
    };
    for dsse in [true, false] {
        let s = Signing {
            dsse,
            ..Signing::github("acme/skills")
        };
        let bundle = test.sign(b"any release file", &s).to_string();
        let verify = |about: About| sigstore::verify("b", bundle.as_bytes(), about, &root);
        let v = verify(about("https://github.com/Acme/Skills", commit)).unwrap();
        assert_eq!(v.source_commit.as_deref(), Some(commit));
        for (repository, other) in [
            ("https://github.com/acme/skills", &"1".repeat(40)),
            ("https://github.com/evil/skills", &commit.to_owned()),
            ("https://github.com/acme/skills-fork", &commit.to_owned()),
        ] {
            match verify(about(repository, other)) {
                Err(SigstoreError::Commit {
                    expected, found, ..
                }) => {
                    assert!(expected.contains(other.as_str()) && expected.contains(repository));
                    assert!(found.contains(commit) && found.contains("github.com/acme/skills"));
                }
                unexpected => panic!("{repository} at {other}: {unexpected:?}"),
            }
        }
    }
}
