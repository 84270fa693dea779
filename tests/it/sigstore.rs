//! Sigstore bundles (docs/provenance.md#sigstore-bundles): real public
//! bundles for real artifacts verify offline against the committed trusted
//! root; bent bundles of a test-time CA and log are refused, each after the
//! honest one of the same test passed.

use skillpm::trust::sigstore::{self, ArtifactDigest, Expected, SigstoreError, TrustedRoot};

use crate::support::cli::ok;
use crate::support::sigstore::{
    GITHUB_ISSUER, Signing, TestSigstore, add_source_with_publisher, b64, day,
};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sigstore");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{name}")).unwrap()
}

fn public_root() -> TrustedRoot {
    TrustedRoot::parse("trusted_root.json", &fixture("trusted_root.json")).unwrap()
}

fn sha256(bytes: &[u8]) -> ArtifactDigest {
    use sha2::Digest as _;
    ArtifactDigest::Sha256(sha2::Sha256::digest(bytes).into())
}

/// rfc8785 0.1.2's wheel on PyPI, signed by its GitHub release workflow
/// (a message signature, bundle v0.2, with inclusion proof and checkpoint).
#[test]
fn a_real_github_release_bundle_verifies_offline_and_names_its_workflow() {
    let wheel = fixture("rfc8785-0.1.2-py3-none-any.whl");
    let bundle = fixture("rfc8785-0.1.2-py3-none-any.whl.sigstore.json");
    let root = public_root();
    let v = sigstore::verify("the wheel's bundle", &bundle, &sha256(&wheel), &root).unwrap();
    assert_eq!(
        v.identity,
        "https://github.com/trailofbits/rfc8785.py/.github/workflows/release.yml@refs/tags/v0.1.2"
    );
    assert_eq!(v.issuer, GITHUB_ISSUER);
    assert_eq!(v.log_index, 79605083);
    assert_eq!(
        v.summary(),
        "built from github.com/trailofbits/rfc8785.py at d8b4a6445f38c48b9137a8099706d9b8073146e4 by workflow release.yml (log entry 79605083)"
    );
    let expected = Expected {
        identity:
            "https://github.com/trailofbits/rfc8785.py/.github/workflows/release.yml@refs/tags/*"
                .into(),
        issuer: GITHUB_ISSUER.into(),
    };
    expected.check("rfc8785", &v).unwrap();
    // Attack: one byte of the wheel changed.
    let mut altered = wheel.clone();
    altered[100] ^= 1;
    let err = sigstore::verify("b", &bundle, &sha256(&altered), &root).unwrap_err();
    assert!(matches!(err, SigstoreError::Subject { .. }), "{err}");
    // Attack: the same bundle held to another repository's workflow.
    let other = Expected {
        identity: "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main"
            .into(),
        issuer: GITHUB_ISSUER.into(),
    };
    let err = other.check("rfc8785", &v).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("acme/skills") && text.contains("trailofbits/rfc8785.py"),
        "{text}"
    );
    assert_eq!(
        skillpm::error::exit_code_of(&err.into()),
        skillpm::error::Exit::Integrity
    );
}

/// sigstore-js 1.3.0's npm provenance (a DSSE in-toto statement, bundle
/// v0.1, intoto 0.0.2 log entry with its signed entry timestamp); npm names
/// the package by its sha512.
#[test]
fn a_real_npm_provenance_bundle_verifies_offline() {
    let bundle = fixture("sigstore-1.3.0.tgz.sigstore.json");
    let digest = hex::decode("76176ffa33808b54602c7c35de5c6e9a4deb96066dba6533f50ac234f4f1f4c6b3527515dc17c06fbe2860030f410eee69ea20079bd3a2c6f3dcf3b329b10751").unwrap();
    let root = public_root();
    let v = sigstore::verify(
        "npm",
        &bundle,
        &ArtifactDigest::Sha512(digest.clone()),
        &root,
    )
    .unwrap();
    assert_eq!(v.issuer, GITHUB_ISSUER);
    assert!(
        v.identity
            .starts_with("https://github.com/sigstore/sigstore-js/"),
        "{}",
        v.identity
    );
    let mut other = digest;
    other[0] ^= 1;
    let err = sigstore::verify("npm", &bundle, &ArtifactDigest::Sha512(other), &root).unwrap_err();
    assert!(matches!(err, SigstoreError::Subject { .. }), "{err}");
}

struct World {
    sigstore: TestSigstore,
    root: TrustedRoot,
    artifact: Vec<u8>,
}

impl World {
    fn new() -> Self {
        let sigstore = TestSigstore::new();
        let root = TrustedRoot::parse("test root", sigstore.trusted_root().as_bytes()).unwrap();
        World {
            sigstore,
            root,
            artifact: b"a skill's archive".to_vec(),
        }
    }

    fn verify(&self, bundle: &serde_json::Value) -> Result<sigstore::Verified, SigstoreError> {
        sigstore::verify(
            "bundle",
            bundle.to_string().as_bytes(),
            &sha256(&self.artifact),
            &self.root,
        )
    }
}

/// acme's release workflow on main: the publisher the journeys declare.
const ACME: &str = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";

/// `skillpm source add NAME LOCATION` declaring acme's workflow as the publisher.
fn add_acme_source(sb: &crate::support::cli::Sandbox, name: &str, location: &str) {
    add_source_with_publisher(&mut sb.cmd(), name, location, ACME);
}

fn acme() -> Expected {
    Expected {
        identity: ACME.into(),
        issuer: GITHUB_ISSUER.into(),
    }
}

#[test]
fn another_identity_or_issuer_is_refused_naming_both() {
    let w = World::new();
    for dsse in [true, false] {
        let honest = Signing {
            dsse,
            ..Signing::github("acme/skills")
        };
        let v = w.verify(&w.sigstore.sign(&w.artifact, &honest)).unwrap();
        acme().check("acme", &v).unwrap();
        assert_eq!(
            v.summary(),
            "built from github.com/acme/skills at 0123456789abcdef0123456789abcdef01234567 by workflow release.yml (log entry 1005)"
        );
        let evil = Signing {
            dsse,
            ..Signing::github("evil/skills")
        };
        let v = w.verify(&w.sigstore.sign(&w.artifact, &evil)).unwrap();
        let err = acme().check("acme", &v).unwrap_err().to_string();
        assert!(
            err.contains("acme/skills") && err.contains("evil/skills"),
            "{err}"
        );
        let other_issuer = Signing {
            issuer: "https://accounts.example.com".into(),
            dsse,
            ..Signing::github("acme/skills")
        };
        let v = w
            .verify(&w.sigstore.sign(&w.artifact, &other_issuer))
            .unwrap();
        let err = acme().check("acme", &v).unwrap_err().to_string();
        assert!(err.contains("accounts.example.com"), "{err}");
    }
}

#[test]
fn an_altered_artifact_is_refused() {
    let w = World::new();
    for dsse in [true, false] {
        let s = Signing {
            dsse,
            ..Signing::github("acme/skills")
        };
        let bundle = w.sigstore.sign(&w.artifact, &s);
        w.verify(&bundle).unwrap();
        let err = sigstore::verify(
            "bundle",
            bundle.to_string().as_bytes(),
            &sha256(b"a skill's archive, changed"),
            &w.root,
        )
        .unwrap_err();
        assert!(matches!(err, SigstoreError::Subject { .. }), "{err}");
    }
    // A message signature whose digest was swapped for the altered
    // artifact's: the signature no longer holds.
    let bundle = w.sigstore.sign(
        &w.artifact,
        &Signing {
            dsse: false,
            ..Signing::github("acme/skills")
        },
    );
    let mut swapped = bundle.clone();
    use sha2::Digest as _;
    swapped["messageSignature"]["messageDigest"]["digest"] =
        b64(&sha2::Sha256::digest(b"other")).into();
    let err = sigstore::verify(
        "b",
        swapped.to_string().as_bytes(),
        &sha256(b"other"),
        &w.root,
    )
    .unwrap_err();
    assert!(matches!(err, SigstoreError::Signature { .. }), "{err}");
}

#[test]
fn a_cut_or_bent_inclusion_proof_is_refused() {
    let w = World::new();
    let bundle = w
        .sigstore
        .sign(&w.artifact, &Signing::github("acme/skills"));
    w.verify(&bundle).unwrap();
    let proof = "/verificationMaterial/tlogEntries/0/inclusionProof";
    let mut cut = bundle.clone();
    cut.pointer_mut(&format!("{proof}/hashes"))
        .unwrap()
        .as_array_mut()
        .unwrap()
        .pop();
    let err = w.verify(&cut).unwrap_err().to_string();
    assert!(err.contains("inclusion proof"), "{err}");
    let mut moved = bundle.clone();
    *moved.pointer_mut(&format!("{proof}/logIndex")).unwrap() = "4".into();
    let err = w.verify(&moved).unwrap_err().to_string();
    assert!(err.contains("inclusion proof"), "{err}");
    // A checkpoint the log never signed.
    let mut unsigned = bundle.clone();
    let note = unsigned
        .pointer_mut(&format!("{proof}/checkpoint/envelope"))
        .unwrap();
    *note = note
        .as_str()
        .unwrap()
        .replace("log.test - 42", "log.test - 43")
        .into();
    let err = w.verify(&unsigned).unwrap_err().to_string();
    assert!(err.contains("checkpoint"), "{err}");
    // The signed entry timestamp over another time.
    let mut later = bundle.clone();
    *later
        .pointer_mut("/verificationMaterial/tlogEntries/0/integratedTime")
        .unwrap() = (day(2025, 6, 1) + 7200).to_string().into();
    let err = w.verify(&later).unwrap_err().to_string();
    assert!(err.contains("signed entry timestamp"), "{err}");
}

#[test]
fn a_certificate_outside_the_logs_time_is_refused() {
    let w = World::new();
    let honest = Signing::github("acme/skills");
    w.verify(&w.sigstore.sign(&w.artifact, &honest)).unwrap();
    // Logged two days after the certificate expired.
    let late = Signing {
        integrated_time: day(2025, 6, 4),
        ..honest.clone()
    };
    let err = w.verify(&w.sigstore.sign(&w.artifact, &late)).unwrap_err();
    assert!(matches!(err, SigstoreError::Chain { .. }), "{err}");
    assert!(
        err.to_string().contains("not valid when it signed"),
        "{err}"
    );
    // Logged before it was issued.
    let early = Signing {
        integrated_time: day(2025, 5, 30),
        ..honest
    };
    let err = w.verify(&w.sigstore.sign(&w.artifact, &early)).unwrap_err();
    assert!(matches!(err, SigstoreError::Chain { .. }), "{err}");
}

#[test]
fn a_certificate_of_another_authority_or_a_log_entry_of_another_log_is_refused() {
    let w = World::new();
    let stranger = TestSigstore::new();
    let bundle = stranger.sign(&w.artifact, &Signing::github("acme/skills"));
    let err = w.verify(&bundle).unwrap_err().to_string();
    assert!(err.contains("log the trusted root does not know"), "{err}");
    // The stranger's certificate inside an entry of our log: the chain fails.
    let ours = w
        .sigstore
        .sign(&w.artifact, &Signing::github("acme/skills"));
    w.verify(&ours).unwrap();
    let mut mixed = ours.clone();
    mixed["verificationMaterial"]["certificate"] =
        bundle["verificationMaterial"]["certificate"].clone();
    let err = w.verify(&mixed).unwrap_err();
    assert!(matches!(err, SigstoreError::Chain { .. }), "{err}");
}

mod journey {
    use std::path::Path;

    use super::{ACME, ok};
    use crate::support::cli::{Sandbox, run};
    use crate::support::registry::{Registry, SkillFiles, V2_DIR};
    use crate::support::server::TestServer;
    use crate::support::sigstore::{GITHUB_ISSUER, Signing, TestSigstore, trusting_sandbox};

    /// A v0.2 registry of `pdf-tools` (bundle by acme's workflow) and
    /// `look-alike` (bundle by another repository's), served on loopback.
    fn site(sigstore: &TestSigstore, root: &Path) -> TestServer {
        let reg = Registry::new(root);
        let skills = [SkillFiles::new("pdf-tools"), SkillFiles::new("look-alike")];
        let mut index = reg.write_v2(&skills);
        let dir = root.join(V2_DIR);
        for (i, (name, repo)) in [("pdf-tools", "acme/skills"), ("look-alike", "evil/skills")]
            .into_iter()
            .enumerate()
        {
            let archive = std::fs::read(dir.join(format!("{name}.tar.gz"))).unwrap();
            let bundle = sigstore.sign(&archive, &Signing::github(repo));
            let file = format!("{name}.tar.gz.sigstore.json");
            std::fs::write(dir.join(&file), bundle.to_string()).unwrap();
            index["skills"][i]["sigstore"] = file.into();
        }
        reg.write_index(&reg.v2_index(), &index);
        TestServer::serve(root)
    }

    fn declare(sb: &Sandbox, identity: &str) {
        let path = sb.project.join("skills.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let text = match text.find("identity = ") {
            Some(at) => {
                let end = at + text[at..].find('\n').unwrap();
                format!("{}identity = \"{identity}\"{}", &text[..at], &text[end..])
            }
            None => text.replacen(
                "name = \"acme\"\n",
                &format!(
                    "name = \"acme\"\nidentity = \"{identity}\"\nissuer = \"{GITHUB_ISSUER}\"\n"
                ),
                1,
            ),
        };
        std::fs::write(&path, text).unwrap();
    }

    #[test]
    fn an_attested_skill_installs_with_its_publisher_locked_and_another_identity_is_refused() {
        let sigstore = TestSigstore::new();
        let sb = trusting_sandbox(&sigstore);
        let server = site(&sigstore, &sb.path("site"));
        sb.init();
        let base = server.base();
        super::add_acme_source(&sb, "acme", &base);

        // Honest: added with its publisher shown and locked.
        let (_, _, err) = ok(run(sb.cmd().args([
            "add",
            "pdf-tools",
            "--yes",
            "--verbose",
        ])));
        assert!(err.contains(&format!("publisher:   {ACME}")), "{err}");
        let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
        assert!(lock.contains("[skill.publisher]"), "{lock}");
        assert!(lock.contains(&format!("identity = \"{ACME}\"")), "{lock}");
        assert!(lock.contains("log-index = 1005"), "{lock}");
        let (_, out, _) = ok(run(sb.cmd().args(["verify", "--provenance"])));
        assert!(
            out.contains("built from github.com/acme/skills at 0123456789abcdef0123456789abcdef01234567 by workflow release.yml (log entry 1005)"),
            "{out}"
        );
        // install --frozen proves the kept bundle again, with the server gone.
        drop(server);
        ok(run(sb.cmd().args(["install", "--frozen"])));

        // An install policy that requires acme's workflows holds; one that
        // requires another publisher refuses the same lock (docs/policy.md).
        crate::support::sigstore::policy_holds_for_acme_and_refuses_another(&sb, &base);

        // Attack: skills.toml now expects another publisher; the lock's
        // bundle names acme's workflow: exit 3, naming both.
        let evil = "https://github.com/evil/skills/.github/workflows/release.yml@refs/heads/main";
        declare(&sb, evil);
        let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains(evil) && err.contains(ACME), "{err}");
        declare(&sb, ACME);
        ok(run(sb.cmd().args(["install", "--frozen"])));

        // Attack: the lock's publisher record removed: the declared
        // publisher is missing, exit 3.
        let lock_path = sb.project.join("skills.lock");
        let at = lock.find("\n[skill.publisher]").unwrap();
        let stripped = format!("{}\n", &lock[..at]);
        std::fs::write(&lock_path, &stripped).unwrap();
        let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("records no publisher"), "{err}");
        std::fs::write(&lock_path, &lock).unwrap();
        ok(run(sb.cmd().args(["install", "--frozen"])));
    }

    #[test]
    fn a_skill_attested_by_another_identity_is_not_added() {
        let sigstore = TestSigstore::new();
        let sb = trusting_sandbox(&sigstore);
        let server = site(&sigstore, &sb.path("site"));
        sb.init();
        ok(run(sb.cmd().args([
            "source",
            "add",
            "acme",
            &server.base(),
        ])));
        declare(&sb, ACME);
        // `search` shows each entry's publisher as its bundle proves it for
        // the listed digest: acme's verified, the look-alike's refused.
        let (_, out, _) = ok(run(sb.cmd().args(["search"])));
        // A hit's lines: its own, and the indented ones under it.
        let block = |name: &str| {
            let mut lines = out
                .lines()
                .skip_while(|l| !l.starts_with(&format!("{name} ")));
            let head = lines.next().unwrap_or_default().to_owned();
            let rest: Vec<&str> = lines.take_while(|l| l.starts_with(' ')).collect();
            format!("{head}\n{}", rest.join("\n"))
        };
        assert!(
            block("pdf-tools").contains("publisher: built from github.com/acme/skills at 0123456789abcdef0123456789abcdef01234567 by workflow release.yml (log entry 1005) (Sigstore, verified)"),
            "{out}"
        );
        let look_alike = block("look-alike");
        assert!(
            look_alike.contains("publisher: NOT verified") && look_alike.contains("evil/skills"),
            "{out}"
        );
        let (_, json, _) = ok(run(sb.cmd().args(["--json", "search"])));
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let rows = report["results"].as_array().unwrap();
        let row = rows.iter().find(|r| r["name"] == "pdf-tools").unwrap();
        assert_eq!(row["publisher"]["identity"], ACME, "{json}");
        ok(run(sb.cmd().args(["add", "pdf-tools", "--yes"])));
        let lock = std::fs::read_to_string(sb.project.join("skills.lock")).unwrap();
        let (code, _, err) = run(sb.cmd().args(["add", "look-alike", "--yes"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("evil/skills") && err.contains(ACME), "{err}");
        assert_eq!(
            std::fs::read_to_string(sb.project.join("skills.lock")).unwrap(),
            lock,
            "nothing changed"
        );
        // A no-op install remembers its proof (no bundle is verified again
        // while nothing changes); with the shipped (public) trusted root in
        // place of the refreshed one, that memo does not hold, and the
        // test CA is a stranger.
        ok(run(sb.cmd().args(["install", "--frozen"])));
        ok(run(sb.cmd().args(["install", "--frozen"])));
        std::fs::remove_file(sb.path("state/sigstore-trusted-root.json")).unwrap();
        let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("trusted root"), "{err}");
    }
}

mod refresh_and_publish {
    use super::ok;
    use crate::support::cli::{Sandbox, run};
    use crate::support::registry::SkillFiles;
    use crate::support::sigstore::{Signing, TestSigstore, trusting_sandbox};

    /// The shipped root with the test CA and log added: a newer root.
    fn shipped_plus(sigstore: &TestSigstore) -> String {
        let mut shipped: serde_json::Value =
            serde_json::from_str(skillpm::trust::sigstore::SHIPPED_ROOT).unwrap();
        let test: serde_json::Value = serde_json::from_str(&sigstore.trusted_root()).unwrap();
        for field in ["tlogs", "certificateAuthorities"] {
            let extra = test[field].as_array().unwrap().clone();
            shipped[field].as_array_mut().unwrap().extend(extra);
        }
        shipped.to_string()
    }

    #[test]
    fn trust_update_takes_a_root_that_keeps_every_key_and_refuses_one_that_drops_any() {
        let sigstore = TestSigstore::new();
        let mut sb = Sandbox::new();
        let state = sb.path("state");
        sb.env("SKILLPM_STATE_DIR", state.to_str().unwrap());
        let newer = sb.path("newer.json");
        std::fs::write(&newer, shipped_plus(&sigstore)).unwrap();
        let (_, out, _) = ok(run(sb.cmd().args([
            "trust",
            "update",
            newer.to_str().unwrap(),
        ])));
        assert!(out.contains("now uses"), "{out}");
        let kept = state.join("sigstore-trusted-root.json");
        assert_eq!(
            std::fs::read(&kept).unwrap(),
            std::fs::read(&newer).unwrap()
        );
        // Attack: a root of the test CA alone drops Sigstore's keys.
        let only = sb.path("only.json");
        std::fs::write(&only, sigstore.trusted_root()).unwrap();
        let (code, _, err) = run(sb.cmd().args(["trust", "update", only.to_str().unwrap()]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("drops"), "{err}");
        assert_eq!(
            std::fs::read(&kept).unwrap(),
            std::fs::read(&newer).unwrap()
        );
    }

    #[test]
    fn publish_serves_the_bundles_a_workflow_left_beside_the_archives() {
        let sigstore = TestSigstore::new();
        let sb = trusting_sandbox(&sigstore);
        let skills = sb.path("skills");
        SkillFiles::new("pdf-tools").write_tree(&skills);
        let site = sb.path("site");
        let publish = || {
            run(sb.cmd().args([
                "publish",
                skills.to_str().unwrap(),
                "--out",
                site.to_str().unwrap(),
            ]))
        };
        ok(publish());
        let dir = site.join(".well-known/agent-skills");
        let archive = std::fs::read(dir.join("pdf-tools.tar.gz")).unwrap();
        // The workflow's step: attest the archive, put the bundle beside it.
        let bundle = sigstore
            .sign(&archive, &Signing::github("acme/skills"))
            .to_string();
        std::fs::write(dir.join("pdf-tools.tar.gz.sigstore.json"), &bundle).unwrap();
        ok(publish());
        let index = std::fs::read_to_string(dir.join("index.json")).unwrap();
        assert!(
            index.contains(r#""sigstore": "pdf-tools.tar.gz.sigstore.json""#),
            "{index}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("pdf-tools.tar.gz.sigstore.json")).unwrap(),
            bundle
        );
        // The skill changed: the old bundle covers other bytes and is left out.
        std::fs::write(skills.join("pdf-tools/extra.md"), "more").unwrap();
        let (_, _, err) = ok(publish());
        assert!(err.contains("Sigstore bundle is left out"), "{err}");
        let index = std::fs::read_to_string(dir.join("index.json")).unwrap();
        assert!(!index.contains("sigstore"), "{index}");
        assert!(!dir.join("pdf-tools.tar.gz.sigstore.json").exists());
    }
}

/// Sigstore bundles attached to OCI artifacts as referrers
/// (docs/provenance.md#bundles-on-oci-artifacts), against a real registry
/// (CNCF distribution, which has no referrers API: the tag schema's index).
mod oci_bundles {
    use super::{ACME, ok};
    use crate::support::cli::{Sandbox, run};
    use crate::support::oci::{self, OciRegistry};
    use crate::support::registry::SkillFiles;
    use crate::support::sigstore::{GITHUB_ISSUER, Signing, TestSigstore, trusting_sandbox};

    #[test]
    fn an_oci_artifact_installs_with_the_bundle_that_refers_to_it_and_no_other() {
        if !oci::available() {
            return;
        }
        let registry = OciRegistry::start(false);
        let sigstore = TestSigstore::new();
        let sb = trusting_sandbox(&sigstore);
        sb.init();
        let skills = sb.path("skills");
        let names = ["pdf-tools", "look-alike", "copycat", "bare"];
        for name in names {
            SkillFiles::new(name).write_tree(&skills);
        }
        let target = registry.oci("team/skills");
        let (_, out, _) = ok(run(sb.cmd().args([
            "--json",
            "publish",
            skills.to_str().unwrap(),
            "--oci",
            &target,
        ])));
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let manifest = |name: &str| {
            crate::support::skill_row(&report, name)["manifest"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let repo = |name: &str| format!("team/skills/{name}");
        let attach = |name: &str, signed_for: &str, signer: &str| {
            let bytes = registry.manifest_bytes(&repo(signed_for), &manifest(signed_for));
            let bundle = sigstore.sign(&bytes, &Signing::github(signer)).to_string();
            registry.push_sigstore_referrer(&repo(name), &manifest(name), bundle.as_bytes())
        };
        let referrer = attach("pdf-tools", "pdf-tools", "acme/skills");
        attach("look-alike", "look-alike", "evil/skills");
        // Signed by acme, for pdf-tools' manifest, attached to copycat's.
        attach("copycat", "pdf-tools", "acme/skills");

        super::add_acme_source(&sb, "team", &target);
        // Honest: added with its publisher shown and locked.
        let (_, _, err) = ok(run(sb.cmd().args([
            "add",
            "--yes",
            "--verbose",
            "--source",
            "team",
            "pdf-tools",
        ])));
        assert!(err.contains(&format!("publisher:   {ACME}")), "{err}");
        let lock_path = sb.project.join("skills.lock");
        let lock = std::fs::read_to_string(&lock_path).unwrap();
        assert!(lock.contains("[skill.publisher]"), "{lock}");
        let at = format!("{}@{referrer}", registry.oci(&repo("pdf-tools")));
        assert!(lock.contains(&format!("url = \"{at}\"")), "{lock}");
        let (_, out, _) = ok(run(sb.cmd().args(["verify", "--provenance"])));
        assert!(
            out.contains("built from github.com/acme/skills at 0123456789abcdef0123456789abcdef01234567 by workflow release.yml (log entry 1005)"),
            "{out}"
        );
        // A fresh cache: the artifact and its bundle are read again, by digest.
        std::fs::remove_dir_all(&sb.cache).unwrap();
        ok(run(sb.cmd().args(["install", "--locked"])));
        assert_eq!(std::fs::read_to_string(&lock_path).unwrap(), lock);

        // Attacks: another identity, a bundle for another manifest, no
        // bundle at all: exit 3 each, nothing placed, the lock unchanged.
        for (name, says) in [
            ("look-alike", "evil/skills"),
            ("copycat", "not for the artifact"),
            ("bare", "no Sigstore bundle refers to manifest"),
        ] {
            let (code, _, err) = run(sb.cmd().args(["add", "--yes", "--source", "team", name]));
            assert_eq!(code, 3, "{name}: {err}");
            assert!(err.contains(says), "{name}: {err}");
            assert!(!sb.project.join(".agents/skills").join(name).exists());
            assert_eq!(std::fs::read_to_string(&lock_path).unwrap(), lock);
        }

        // Attack: skills.toml now expects another publisher of the same
        // artifact: the kept bundle names acme's workflow, exit 3.
        let toml_path = sb.project.join("skills.toml");
        let toml = std::fs::read_to_string(&toml_path).unwrap();
        std::fs::write(&toml_path, toml.replace("acme/skills", "evil/skills")).unwrap();
        let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("evil/skills"), "{err}");
        std::fs::write(&toml_path, toml).unwrap();
        ok(run(sb.cmd().args(["install", "--frozen"])));
    }

    /// A folder source cannot carry a bundle skillpm reads: a declared
    /// publisher is refused, never silently ignored.
    #[test]
    fn a_publisher_declared_for_a_source_without_bundles_is_refused() {
        let sb = Sandbox::new();
        sb.init();
        let skills = sb.path("skills");
        SkillFiles::new("notes").write_tree(&skills);
        let url = skills.to_str().unwrap();
        ok(run(sb.cmd().args(["add", url, "notes", "--yes"])));
        ok(run(sb.cmd().args(["install", "--frozen"])));
        let manifest = std::fs::read_to_string(sb.project.join("skills.toml")).unwrap();
        let declared = manifest.replacen(
            "[[source]]\n",
            &format!("[[source]]\nidentity = \"{ACME}\"\nissuer = \"{GITHUB_ISSUER}\"\n"),
            1,
        );
        assert_ne!(declared, manifest);
        std::fs::write(sb.project.join("skills.toml"), declared).unwrap();
        let (code, _, err) = run(sb.cmd().args(["install", "--frozen"]));
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("carries no Sigstore bundle"), "{err}");
    }
}

/// Not a test: the setup of docs/provenance.md's no-op install figure.
/// `BENCH_SIGSTORE_DIR=/abs/dir cargo test --test it sigstore::bench -- --ignored`
/// leaves there a registry of 500 attested skills, two projects that
/// installed all of them (`attested`, whose source declares the publisher,
/// and `plain`, whose source does not) and `env`, the variables to run
/// skillpm against them:
/// `env -i $(cat DIR/env) farm-bench -- skillpm --project DIR/attested install --frozen`.
mod bench {
    use super::{ACME, ok};
    use crate::support::registry::{Registry, SkillFiles, V2_DIR};
    use crate::support::server::TestServer;
    use crate::support::sigstore::{GITHUB_ISSUER, Signing, TestSigstore};

    #[test]
    #[ignore = "benchmark setup; needs BENCH_SIGSTORE_DIR"]
    fn five_hundred_attested_skills_for_the_no_op_install_figure() {
        let Some(dir) = std::env::var_os("BENCH_SIGSTORE_DIR") else {
            return;
        };
        let dir = std::path::PathBuf::from(dir);
        let sigstore = TestSigstore::new();
        let reg = Registry::new(dir.join("site"));
        let skills: Vec<SkillFiles> = (0..500)
            .map(|i| SkillFiles::new(&format!("skill-{i:03}")))
            .collect();
        let mut index = reg.write_v2(&skills);
        let site = dir.join("site").join(V2_DIR);
        for (i, skill) in skills.iter().enumerate() {
            let archive = std::fs::read(site.join(format!("{}.tar.gz", skill.name))).unwrap();
            let bundle = sigstore.sign(&archive, &Signing::github("acme/skills"));
            let file = format!("{}.tar.gz.sigstore.json", skill.name);
            std::fs::write(site.join(&file), bundle.to_string()).unwrap();
            index["skills"][i]["sigstore"] = file.into();
        }
        reg.write_index(&reg.v2_index(), &index);
        let server = TestServer::serve(dir.join("site"));
        let (home, cache, admin, state) = (
            dir.join("home"),
            dir.join("cache"),
            dir.join("admin"),
            dir.join("state"),
        );
        for d in [&home, &home.join(".claude"), &state] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(
            state.join("sigstore-trusted-root.json"),
            sigstore.trusted_root(),
        )
        .unwrap();
        let skillpm = |project: &std::path::Path, args: &[&str]| {
            let mut cmd = crate::support::cli::process(&home, &cache, &admin, project);
            cmd.env("SKILLPM_STATE_DIR", &state).args(args);
            let out = cmd.output().unwrap();
            ok((
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ))
        };
        let base = server.base();
        for (name, publisher) in [("attested", true), ("plain", false)] {
            let project = dir.join(name);
            std::fs::create_dir_all(&project).unwrap();
            skillpm(&project, &["init"]);
            let mut add = vec!["source", "add", "acme", &base];
            if publisher {
                add.extend(["--identity", ACME, "--issuer", GITHUB_ISSUER]);
            }
            skillpm(&project, &add);
            skillpm(
                &project,
                &["add", "--source", "acme", "--all", "--yes", "--quiet"],
            );
            skillpm(&project, &["install", "--frozen"]);
        }
        let lock = std::fs::read_to_string(dir.join("attested/skills.lock")).unwrap();
        assert_eq!(lock.matches("[skill.publisher]").count(), 500);
        let cmd = crate::support::cli::process(&home, &cache, &admin, &dir);
        let env: Vec<String> = (cmd.get_envs())
            .filter_map(|(k, v)| Some(format!("{}={}", k.to_str()?, v?.to_str()?)))
            .chain([format!("SKILLPM_STATE_DIR={}", state.display())])
            .collect();
        std::fs::write(dir.join("env"), env.join("\n") + "\n").unwrap();
    }
}
