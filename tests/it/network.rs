//! The network as a run sees it (docs/network.md), against real servers on
//! 127.0.0.1: one fetch budget per source per run (counted at the server,
//! never timed), a dripping server ended by the minimum rate, the words of
//! each failure kind, tokens sent only where the user bound them, and plain
//! http only to this machine.

use crate::support;

use std::time::Duration;

use serde_json::Value;

use support::cli::{Sandbox, run};
use support::registry::{Registry, SkillFiles};
use support::server::{Fault, TestServer};

const INDEX: &str = "/.well-known/agent-skills/index.json";

/// A v0.2.0 registry of `skills` on disk, served over HTTP.
fn served(skills: &[SkillFiles]) -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    Registry::new(dir.path()).write_v2(skills);
    let server = TestServer::serve(dir.path());
    (dir, server)
}

fn small_registry() -> (tempfile::TempDir, TestServer) {
    served(&[
        SkillFiles::new("pdf-tools").description("Extract text from PDF files"),
        SkillFiles::new("code-review").description("Review code for bugs"),
    ])
}

/// A project whose source `reg` is `url` (not probed).
fn project_with(url: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.init();
    sandbox
        .cmd()
        .args(["--offline", "source", "add", "reg", url])
        .assert()
        .success();
    sandbox
}

/// A loopback port nothing listens on (bound, then released).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn three_hundred_locked_skills_against_a_dead_registry_spend_one_budget_and_stop() {
    let skills: Vec<SkillFiles> = (0..300)
        .map(|i| SkillFiles::new(&format!("s{i:03}")))
        .collect();
    let (_dir, server) = served(&skills);
    let sandbox = project_with(&server.base());
    // Honest path: all 300 added and locked from the live registry.
    let (code, stdout, stderr) = run(sandbox
        .cmd()
        .args(["add", "--all", "--yes", "--source", "reg"]));
    assert_eq!(code, 0, "{stderr}");
    // One line per skill and a closing count; no approval summaries (a
    // `--yes` run asked nobody).
    assert!(stdout.lines().count() <= 303, "{stdout}");
    assert!(
        stdout.ends_with("300 skills added, 0 skipped, 0 warnings\n"),
        "{stdout}"
    );
    assert!(stderr.lines().count() < 20, "{stderr}");
    // A typo gets the nearest names, not all 300.
    let (code, _, stderr) = run(sandbox
        .cmd()
        .args(["add", "s1000", "--source", "reg", "--yes"]));
    assert_eq!(code, 8, "{stderr}");
    assert!(
        stderr.contains("did you mean") && stderr.contains("`s100`"),
        "{stderr}"
    );
    assert!(stderr.len() < 400, "{stderr}");
    let lock_before = std::fs::read(sandbox.project.join("skills.lock")).unwrap();
    // A fresh clone: the lock and skills.toml, no placed skills.
    for placed in [".agents", ".claude"] {
        let _ = std::fs::remove_dir_all(sandbox.project.join(placed));
    }

    // The registry fails every request (503); a fresh machine (empty cache)
    // installs the lock.
    server.clear_log();
    server.fault_always(INDEX, Fault::Status(503));
    let fresh = sandbox.path("fresh-cache");
    let (code, stdout, stderr) = run(sandbox
        .cmd()
        .env("SKILLPM_CACHE_DIR", &fresh)
        .args(["install", "--locked"]));
    assert_eq!(code, 4, "{stdout}\n{stderr}");
    // One budget for the source, not one per skill: the sandbox allows 2
    // retries, so 3 requests in all, and no artifact was asked for.
    let requests = server.requests();
    assert_eq!(server.hits(INDEX), 3, "{requests:#?}");
    assert_eq!(requests.len(), 3, "{requests:#?}");
    // Said once, readable: one error, no library internals.
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    assert_eq!(
        stderr.matches("the server answered 503").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("attempt 2 of 3"), "{stderr}");
    assert!(!stderr.contains("reqwest"), "{stderr}");
    assert!(!sandbox.project.join(".agents/skills/s000").exists());
    assert_eq!(
        std::fs::read(sandbox.project.join("skills.lock")).unwrap(),
        lock_before
    );

    // The registry is gone altogether: refused, once per run.
    let base = server.base();
    drop(server);
    let (code, _, stderr) = run(sandbox
        .cmd()
        .env("SKILLPM_CACHE_DIR", sandbox.path("fresh-cache-2"))
        .args(["install", "--locked"]));
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("the connection was refused"), "{stderr}");
    assert!(stderr.contains(&base), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    // The CI log says the reason once (issue 37.1): short attempt lines,
    // then one error.
    assert_eq!(stderr.matches("refused").count(), 1, "{stderr}");
    let port = base.rsplit(':').next().unwrap().trim_end_matches('/');
    let log = stderr
        .replace(&sandbox.root.display().to_string(), "[ROOT]")
        .replace(port, "[PORT]");
    insta::with_settings!({filters => vec![(r"in \d+\.\ds", "in [DELAY]")]}, {
        insta::assert_snapshot!("dead_registry_ci_log", log);
    });
    assert_eq!(
        std::fs::read(sandbox.project.join("skills.lock")).unwrap(),
        lock_before
    );
}

#[test]
fn a_dripping_server_is_ended_by_the_minimum_rate_not_retried() {
    let (_dir, server) = small_registry();
    let sandbox = project_with(&server.base());
    // Honest path first.
    let (code, _, stderr) = run(sandbox.cmd().args(["search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");

    // One byte every 150 ms: never silent for the 1 s timeout, never done.
    server.clear_log();
    server.fault_always(
        INDEX,
        Fault::Drip {
            every: Duration::from_millis(150),
        },
    );
    let fresh = sandbox.path("fresh-cache");
    let (code, _, stderr) = run(sandbox
        .cmd()
        .env("SKILLPM_CACHE_DIR", &fresh)
        .env("SKILLPM_HTTP_TIMEOUT", "1s")
        .args(["search", "--source", "reg", "pdf"])
        .timeout(Duration::from_secs(60)));
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("slower than the minimum rate"), "{stderr}");
    assert_eq!(server.hits(INDEX), 1, "a too-slow body was retried");
}

/// `skillpm source add` against `url`, with the port (and only the port)
/// of the message replaced, so each failure kind's words can be compared
/// whole.
fn add_error(sandbox: &Sandbox, url: &str, port: Option<u16>) -> (i32, String) {
    let (code, _, stderr) = run(sandbox
        .cmd()
        .env("SKILLPM_HTTP_RETRIES", "0")
        .args(["source", "add", "x", url]));
    let text = match port {
        Some(p) => stderr.replace(&p.to_string(), "PORT"),
        None => stderr,
    };
    (code, text)
}

#[test]
fn each_network_failure_kind_is_said_plainly_once() {
    let sandbox = Sandbox::new();
    sandbox.init();
    let manifest = sandbox.manifest();

    let port = closed_port();
    let (code, text) = add_error(&sandbox, &format!("http://127.0.0.1:{port}"), Some(port));
    assert_eq!(code, 4, "{text}");
    assert_eq!(
        text,
        "     Probing http://127.0.0.1:PORT/\n\
         error: source `x` was not added\n  \
         caused by: cannot fetch http://127.0.0.1:PORT/.well-known/agent-skills/index.json: the connection was refused: nothing is listening there, or a firewall said no (1 attempt)\n  \
         check the URL and that the server is up; try again later, or use --offline if the cache holds what you need\n"
    );

    let (code, text) = add_error(&sandbox, "https://skills.invalid", None);
    assert_eq!(code, 4, "{text}");
    assert!(
        text.contains("cannot fetch https://skills.invalid/.well-known/agent-skills/index.json: the host name was not found (DNS) (1 attempt)\n  check the host name in the URL"),
        "{text}"
    );

    let (_dir, server) = small_registry();
    let port = server.addr.port();
    server.fault_always(INDEX, Fault::Status(500));
    let (code, text) = add_error(&sandbox, &server.base(), Some(port));
    assert_eq!(code, 4, "{text}");
    assert!(
        text.contains("cannot fetch http://127.0.0.1:PORT/.well-known/agent-skills/index.json: the server answered 500 Internal Server Error (1 attempt)\n  try again later; if it persists, tell the server's owner\n"),
        "{text}"
    );

    server.fault_always(INDEX, Fault::Delay(Duration::from_secs(5)));
    let (code, text) = add_error(&sandbox, &server.base(), Some(port));
    assert_eq!(code, 4, "{text}");
    assert!(
        text.contains("cannot fetch http://127.0.0.1:PORT/.well-known/agent-skills/index.json: the server did not answer in time (1 attempt)\n"),
        "{text}"
    );

    // TLS spoken to a plain HTTP server.
    server.clear_faults();
    let https = format!("https://127.0.0.1:{port}");
    let (code, text) = add_error(&sandbox, &https, Some(port));
    assert_eq!(code, 4, "{text}");
    assert!(
        text.contains("cannot fetch https://127.0.0.1:PORT/.well-known/agent-skills/index.json: the secure connection (TLS) failed"),
        "{text}"
    );

    // No library type's Debug form, no library's name.
    for needle in ["reqwest::", "Error {", "hyper", "Kind("] {
        assert!(!text.contains(needle), "{text}");
    }
    // The libraries' own words are there with --verbose.
    let (_, _, verbose) = run(sandbox
        .cmd()
        .env("SKILLPM_HTTP_RETRIES", "0")
        .args(["-v", "source", "add", "x", &https]));
    assert!(verbose.matches("caused by:").count() >= 2, "{verbose}");
    // Nothing was written by any failed add.
    assert_eq!(sandbox.manifest(), manifest);
}

#[test]
fn git_and_mcp_sources_say_a_refused_connection_the_same_way() {
    let sandbox = Sandbox::new();
    sandbox.init();
    let manifest = sandbox.manifest();
    let port = closed_port();

    let git = format!("http://127.0.0.1:{port}/skills.git");
    let (code, _, stderr) = run(sandbox.cmd().args(["source", "add", "g", &git]));
    assert_eq!(code, 4, "{stderr}");
    assert!(
        stderr.contains("the connection was refused: nothing is listening there"),
        "{stderr}"
    );
    assert!(!stderr.contains("Message {"), "{stderr}");
    assert!(!stderr.contains("reqwest::Error"), "{stderr}");
    assert!(!stderr.contains("Caused by"), "{stderr}");

    let mcp = format!("mcp+http://127.0.0.1:{port}/mcp");
    let (code, _, stderr) = run(sandbox.cmd().args(["add", "--source", &mcp, "x", "--yes"]));
    assert_eq!(code, 4, "{stderr}");
    assert!(
        stderr.contains("the connection was refused: nothing is listening there"),
        "{stderr}"
    );
    assert!(
        stderr.contains("check the URL and that the server is up"),
        "{stderr}"
    );
    assert!(!stderr.contains("reqwest"), "{stderr}");
    assert_eq!(sandbox.manifest(), manifest);
}

#[test]
fn with_json_an_error_is_also_a_json_object_on_stdout() {
    let port = closed_port();
    let sandbox = project_with(&format!("http://127.0.0.1:{port}"));
    let (code, stdout, stderr) = run(sandbox.cmd().args(["--json", "search", "--source", "reg"]));
    assert_eq!(code, 4, "{stderr}");
    let error: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(error["error"]["code"], 4);
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("connection was refused"),
        "{error}"
    );
    assert!(stderr.contains("error:"), "{stderr}");
}

#[test]
fn plain_http_is_for_this_machine_unless_allowed() {
    let sandbox = Sandbox::new();
    sandbox.init();
    let manifest = sandbox.manifest();
    let (code, _, stderr) =
        run(sandbox
            .cmd()
            .args(["source", "add", "far", "http://skills.invalid"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("plain http is refused"), "{stderr}");
    assert!(stderr.contains("--allow-http"), "{stderr}");
    assert_eq!(sandbox.manifest(), manifest);
    // Allowed: the request is made (and fails on the name, exit 4).
    let (code, _, stderr) = run(sandbox.cmd().env("SKILLPM_HTTP_RETRIES", "0").args([
        "--allow-http",
        "source",
        "add",
        "far",
        "http://skills.invalid",
    ]));
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("host name was not found"), "{stderr}");
    assert_eq!(sandbox.manifest(), manifest);
    // A git repository over plain http: the same rule.
    let (code, _, stderr) =
        run(sandbox
            .cmd()
            .args(["source", "add", "g", "http://skills.invalid/repo.git"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("plain http is refused"), "{stderr}");
    assert_eq!(sandbox.manifest(), manifest);
}

/// Requests to `server` that carried an Authorization header.
fn authorized(server: &TestServer) -> Vec<String> {
    server
        .requests()
        .into_iter()
        .filter_map(|r| r.header("authorization").map(str::to_owned))
        .collect()
}

/// The registry a token is meant for (`home`, which requires `$REG_TOKEN`),
/// another one (`other`), and a project whose environment holds that token
/// and a secret of another kind (`$AWS_SECRET_ACCESS_KEY`).
fn token_world() -> ([tempfile::TempDir; 2], TestServer, TestServer, Sandbox) {
    let (dir, home) = small_registry();
    let (dir2, other) = small_registry();
    let mut sandbox = Sandbox::new();
    sandbox.init();
    sandbox.env("REG_TOKEN", "s3cret");
    sandbox.env("AWS_SECRET_ACCESS_KEY", "aws-secret");
    home.require_token(Some("s3cret"));
    ([dir, dir2], home, other, sandbox)
}

#[test]
fn a_token_goes_only_where_the_user_bound_it() {
    let (_dirs, home, other, sandbox) = token_world();

    // Honest: the user binds $REG_TOKEN to the registry's origin.
    let (code, _, stderr) = run(sandbox.cmd().args([
        "source",
        "add",
        "private",
        &home.base(),
        "--token-env",
        "REG_TOKEN",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !sandbox.manifest().contains("REG_TOKEN"),
        "{}",
        sandbox.manifest()
    );
    let tokens = std::fs::read_to_string(sandbox.home.join(".config/skillpm/tokens.toml")).unwrap();
    assert!(
        tokens.contains("REG_TOKEN") && tokens.contains(&home.base()),
        "{tokens}"
    );
    let (code, _, stderr) = run(sandbox.cmd().args(["add", "pdf-tools", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(authorized(&home).iter().all(|h| h == "Bearer s3cret"));
    assert!(!authorized(&home).is_empty());
    let lock = std::fs::read(sandbox.project.join("skills.lock")).unwrap();
    let home_before = support::snapshot(&sandbox.home);

    // Attack: a pull request declares a second source whose token-env names
    // another secret, and one naming the variable bound to another origin.
    let text = sandbox.manifest()
        + &format!(
            "\n[[source]]\nname = \"evil\"\nurl = \"{}\"\ntoken-env = \"AWS_SECRET_ACCESS_KEY\"\n\n[[source]]\nname = \"evil2\"\nurl = \"{}\"\ntoken-env = \"REG_TOKEN\"\n",
            other.base(),
            other.url(INDEX)
        );
    std::fs::write(sandbox.project.join("skills.toml"), text).unwrap();
    let (code, _, stderr) = run(sandbox.cmd().args(["search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("token-env $AWS_SECRET_ACCESS_KEY") && stderr.contains("no token sent"),
        "{stderr}"
    );
    assert!(stderr.contains("token-env $REG_TOKEN"), "{stderr}");
    assert!(other.hits(INDEX) >= 1, "the attacker's source was not read");
    assert_eq!(authorized(&other), Vec::<String>::new());
    let (code, _, stderr) = run(sandbox.cmd().arg("install"));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(authorized(&other), Vec::<String>::new());
    assert_eq!(
        std::fs::read(sandbox.project.join("skills.lock")).unwrap(),
        lock
    );
    assert!(!sandbox.project.join(".agents/skills/code-review").exists());
    assert_eq!(support::snapshot(&sandbox.home), home_before);
}

#[test]
fn the_host_variable_binds_a_token_to_its_host_only() {
    let (_dir, server) = small_registry();
    let (_dir2, other) = small_registry();
    server.require_token(Some("ci-token"));
    let var = format!("SKILLPM_TOKEN_127_0_0_1_{}", server.addr.port());
    let mut sandbox = project_with(&server.base());
    sandbox
        .cmd()
        .args(["--offline", "source", "add", "other", &other.base()])
        .assert()
        .success();
    // Unset: the registry refuses (401), exit 4.
    let (code, _, stderr) = run(sandbox.cmd().args(["search", "--source", "reg"]));
    assert_eq!(code, 4, "{stderr}");
    sandbox.env(&var, "ci-token");
    let (code, _, stderr) = run(sandbox.cmd().args(["search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(authorized(&server).iter().any(|h| h == "Bearer ci-token"));
    assert_eq!(authorized(&other), Vec::<String>::new());
}

/// `Authorization` headers the proxy saw for requests to `host`.
fn authorized_for(proxy: &TestServer, host: &str) -> (usize, Vec<String>) {
    let to_host: Vec<_> = (proxy.requests().into_iter())
        .filter(|r| r.header("host") == Some(host))
        .collect();
    let headers = (to_host.iter())
        .filter_map(|r| r.header("authorization").map(str::to_owned))
        .collect();
    (to_host.len(), headers)
}

/// Issue 34: `_` passed through while `.` became `_` and `-` became `__`,
/// so `SKILLPM_TOKEN_a__b_example` was sent to `a._b.example` as well as
/// `a-b.example`. Both hosts are reached through a logging proxy on
/// loopback (`HTTP_PROXY`), which serves the same registry for each.
#[test]
fn a_host_variable_reaches_one_host_only() {
    let (_dir, proxy) = small_registry();
    let mut sandbox = Sandbox::new();
    sandbox.init();
    sandbox.env("HTTP_PROXY", &proxy.base());
    sandbox.env("SKILLPM_TOKEN_a__b_example", "ci-token");
    let (code, _, stderr) = run(sandbox.cmd().args([
        "--allow-http",
        "--offline",
        "source",
        "add",
        "honest",
        "http://a-b.example",
    ]));
    assert_eq!(code, 0, "{stderr}");

    // Honest: the variable named after `a-b.example` goes there.
    let (code, stdout, stderr) = run(sandbox.cmd().args(["--allow-http", "search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("pdf-tools"), "{stdout}");
    let (hits, headers) = authorized_for(&proxy, "a-b.example");
    assert!(hits >= 1);
    assert!(
        !headers.is_empty() && headers.iter().all(|h| h == "Bearer ci-token"),
        "{headers:?}"
    );

    // Attack: a pull request declares `a._b.example`, whose name the old
    // rule also wrote `a__b_example`.
    proxy.clear_log();
    let text =
        sandbox.manifest() + "\n[[source]]\nname = \"evil\"\nurl = \"http://a._b.example\"\n";
    std::fs::write(sandbox.project.join("skills.toml"), text).unwrap();
    let (code, _, stderr) = run(sandbox.cmd().args(["--allow-http", "search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");
    let (hits, headers) = authorized_for(&proxy, "a._b.example");
    assert!(hits >= 1, "the attacker's host was not asked");
    assert_eq!(
        headers,
        Vec::<String>::new(),
        "the token reached a._b.example"
    );
    assert!(
        stderr.contains("$SKILLPM_TOKEN_a__b_example is not sent to http://a._b.example")
            && stderr.contains("--token-env"),
        "{stderr}"
    );
    // The honest host still gets its token in the same run.
    let (_, headers) = authorized_for(&proxy, "a-b.example");
    assert!(
        headers.iter().any(|h| h == "Bearer ci-token"),
        "{headers:?}"
    );
}

/// Files under the sandbox (project, cache, home, config, state) holding
/// `secret`, but `allowed` (a file the test itself planted it in).
fn files_holding(sandbox: &Sandbox, secret: &str, allowed: &[&std::path::Path]) -> Vec<String> {
    (support::files_under(&sandbox.root).into_iter())
        .map(|f| sandbox.root.join(f))
        .filter(|f| !allowed.contains(&f.as_path()))
        .filter(|f| {
            let bytes = std::fs::read(f).unwrap_or_default();
            bytes.windows(secret.len()).any(|w| w == secret.as_bytes())
        })
        .map(|f| f.display().to_string())
        .collect()
}

/// Issue 34: `source add ui http://alice:S3CRET@host/` put the password in
/// skills.toml, twice in skills.lock, in the cache and on the terminal. A
/// URL with user information is refused wherever it enters (the command
/// line, skills.toml, skills.lock, an index), naming `--token-env`, and the
/// secret reaches no file and no output.
#[test]
fn credentials_in_a_source_url_are_refused_and_written_nowhere() {
    let (_dir, server) = small_registry();
    let sandbox = Sandbox::new();
    sandbox.init();
    let secret = "S3CRET-4b1d";
    let port = server.addr.port();

    // Honest: the registry without credentials.
    let (code, _, stderr) = run(sandbox.cmd().args(["source", "add", "reg", &server.base()]));
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(sandbox.cmd().args(["add", "pdf-tools", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    let manifest = sandbox.manifest();
    let lock_path = sandbox.project.join("skills.lock");
    let lock = std::fs::read_to_string(&lock_path).unwrap();
    let requests = server.requests().len();

    let with_secret = format!("http://alice:{secret}@127.0.0.1:{port}");
    let refused = |args: &[&str], code_wanted: i32, allowed: &[&std::path::Path]| {
        let (code, stdout, stderr) = run(sandbox.cmd().args(args));
        assert_eq!(code, code_wanted, "{args:?}: {stderr}");
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{args:?}: {stdout}{stderr}"
        );
        assert!(!stderr.contains("alice"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("may not carry credentials"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            files_holding(&sandbox, secret, allowed),
            Vec::<String>::new(),
            "{args:?}"
        );
        stderr
    };
    // Attack 1: on the command line, in every form a source URL takes.
    let git = format!("{with_secret}/skills.git");
    let oci = format!("oci://alice:{secret}@127.0.0.1:{port}/team/skills");
    let mcp = format!("mcp+http://alice:{secret}@127.0.0.1:{port}/mcp");
    let token_only = format!("http://{secret}@127.0.0.1:{port}/");
    for args in [
        &["source", "add", "ui", &with_secret][..],
        &[
            "--offline",
            "source",
            "add",
            "ui",
            &format!("{with_secret}/"),
        ][..],
        &[
            "source",
            "add",
            "ui",
            &token_only,
            "--token-env",
            "UI_TOKEN",
        ][..],
        &["add", "--source", &with_secret, "code-review", "--yes"][..],
        &["add", &with_secret, "code-review", "--yes"][..],
        &["add", "--source", &git, "code-review", "--yes"][..],
        &["source", "add", "o", &oci][..],
        &["source", "add", "m", &mcp][..],
        &["search", "pdf", "--source", &with_secret][..],
    ] {
        let stderr = refused(args, 2, &[]);
        assert!(stderr.contains("--token-env"), "{args:?}: {stderr}");
        assert_eq!(sandbox.manifest(), manifest, "{args:?}");
        assert_eq!(
            std::fs::read_to_string(&lock_path).unwrap(),
            lock,
            "{args:?}"
        );
    }
    assert_eq!(
        server.requests().len(),
        requests,
        "a refused URL was fetched"
    );

    // Attack 2: in skills.toml (a hand edit, a pull request).
    let toml_path = sandbox.project.join("skills.toml");
    std::fs::write(
        &toml_path,
        format!("{manifest}\n[[source]]\nname = \"ui\"\nurl = \"{with_secret}/\"\n"),
    )
    .unwrap();
    for args in [&["install"][..], &["search", "pdf"][..], &["list"][..]] {
        refused(args, 2, &[&toml_path]);
    }
    std::fs::write(&toml_path, &manifest).unwrap();

    // Attack 3: in skills.lock (`index` and `url` of an entry).
    let base = server.base();
    std::fs::write(&lock_path, lock.replace(&base, &with_secret)).unwrap();
    for args in [
        &["install", "--frozen"][..],
        &["install"][..],
        &["list"][..],
    ] {
        refused(args, 3, &[&lock_path]);
    }
    std::fs::write(&lock_path, &lock).unwrap();
    assert_eq!(
        server.requests().len(),
        requests,
        "a refused URL was fetched"
    );

    // Attack 4: an index listing an artifact URL with credentials: that
    // entry is refused (a warning without the secret), nothing is locked.
    let index_path = server.root().join(&INDEX[1..]);
    let mut index: Value = serde_json::from_slice(&std::fs::read(&index_path).unwrap()).unwrap();
    let entry = (index["skills"].as_array().unwrap().iter())
        .position(|e| e["name"] == "code-review")
        .unwrap();
    let at = index["skills"][entry]["url"].as_str().unwrap().to_owned();
    let absolute = url::Url::parse(&server.url(INDEX))
        .unwrap()
        .join(&at)
        .unwrap();
    index["skills"][entry]["url"] = Value::from(absolute.as_str().replacen(
        "http://",
        &format!("http://alice:{secret}@"),
        1,
    ));
    std::fs::write(&index_path, serde_json::to_vec(&index).unwrap()).unwrap();
    let (code, stdout, stderr) = run(sandbox.cmd().args(["add", "code-review", "--yes"]));
    assert_ne!(code, 0, "{stderr}");
    assert!(
        !stdout.contains(secret) && !stderr.contains(secret),
        "{stdout}{stderr}"
    );
    assert!(stderr.contains("may not carry credentials"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&lock_path).unwrap(), lock);
    // The cache keeps the index document as the server served it (its
    // `index/` copy and the snapshot that proves entries offline); no
    // other file holds the secret.
    let cached_index = |f: &String| f.contains("/cache/index/") || f.contains("/cache/snapshots/");
    let leaked: Vec<String> = (files_holding(&sandbox, secret, &[]).into_iter())
        .filter(|f| !cached_index(f))
        .collect();
    assert_eq!(leaked, Vec::<String>::new());
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.header("authorization").is_none()),
        "the credentials were sent"
    );
}

#[test]
fn a_retry_names_the_url_and_the_attempt() {
    let (_dir, server) = small_registry();
    let sandbox = project_with(&server.base());
    server.fault(INDEX, Fault::Status(503));
    let (code, stdout, stderr) = run(sandbox.cmd().args(["search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");
    // The stream rule (docs/output.md): the result on stdout, the run on stderr.
    assert!(stdout.contains("pdf-tools"), "{stdout}");
    assert!(!stdout.contains("Retrying"), "{stdout}");
    // Off a terminal: a short line per retry; the reason is the error's
    // to say, and here there is none.
    let said = format!("Retrying {}{INDEX} (attempt 2 of 3 in ", server.base());
    assert!(stderr.contains(&said), "{stderr}");
    assert!(!stderr.contains("503"), "{stderr}");
}

#[test]
fn messages_name_the_flag_the_user_passed() {
    let sandbox = Sandbox::new();
    sandbox.init();
    for flag in ["--locked", "--frozen"] {
        let (code, _, stderr) = run(sandbox.cmd().args(["install", flag]));
        assert_eq!(code, 6, "{stderr}");
        assert!(
            stderr.contains(&format!("run `skillpm install` without {flag} to update")),
            "{stderr}"
        );
        assert!(!stderr.contains("--locked/--frozen"), "{stderr}");
    }
}

/// A `.env` (or a CI job's `env:`) that a pull request controls can point
/// skillpm's config folder into the project, where the pull request
/// commits a `tokens.toml`: that file would then be "your own binding",
/// and `$AWS_SECRET_ACCESS_KEY` would go to the attacker's registry. A
/// config folder inside the project (or the repository holding it) is
/// refused before anything is read or sent (exit 2), whichever variable
/// puts it there (`SKILLPM_CONFIG_DIR`, relative or not, `XDG_CONFIG_HOME`,
/// `HOME`).
#[test]
fn a_config_folder_inside_the_project_binds_no_token() {
    let (_dirs, home, other, mut sandbox) = token_world();

    // Honest: the user's own binding, in a config folder of their own,
    // named by SKILLPM_CONFIG_DIR outside the project.
    let own = sandbox.path("own-config");
    sandbox.env("SKILLPM_CONFIG_DIR", own.to_str().unwrap());
    let (code, _, stderr) = run(sandbox.cmd().args([
        "source",
        "add",
        "private",
        &home.base(),
        "--token-env",
        "REG_TOKEN",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert!(own.join("tokens.toml").is_file());
    let (code, _, stderr) = run(sandbox.cmd().args(["add", "pdf-tools", "--yes"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(!authorized(&home).is_empty());

    // Attack: the pull request adds a source on the attacker's origin and,
    // in the project, a tokens.toml binding another secret to it.
    let text = sandbox.manifest()
        + &format!(
            "\n[[source]]\nname = \"evil\"\nurl = \"{}\"\n",
            other.base()
        );
    std::fs::write(sandbox.project.join("skills.toml"), text).unwrap();
    let binding = format!(
        "[[token]]\norigin = \"{}\"\nenv = \"AWS_SECRET_ACCESS_KEY\"\n",
        other.base()
    );
    for dir in [".skillpm", ".config/skillpm", "h/.config/skillpm"] {
        let dir = sandbox.project.join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tokens.toml"), &binding).unwrap();
    }
    let project = sandbox.project.to_str().unwrap().to_owned();
    let in_project = |name: &str| format!("{project}/{name}");
    let attacks: [(&[(&str, String)], &str); 4] = [
        (
            &[("SKILLPM_CONFIG_DIR", in_project(".skillpm"))],
            "SKILLPM_CONFIG_DIR",
        ),
        // As a `.env` writes it: relative to the folder the command runs in.
        (
            &[("SKILLPM_CONFIG_DIR", ".skillpm".into())],
            "SKILLPM_CONFIG_DIR",
        ),
        (
            &[("XDG_CONFIG_HOME", in_project(".config"))],
            "XDG_CONFIG_HOME",
        ),
        (&[("HOME", in_project("h"))], "HOME"),
    ];
    let lock = std::fs::read(sandbox.project.join("skills.lock")).unwrap();
    let home_before = support::snapshot(&sandbox.home);
    let own_before = support::snapshot(&own);
    for (vars, named) in attacks {
        other.clear_log();
        let mut cmd = sandbox.cmd();
        cmd.env_remove("SKILLPM_CONFIG_DIR");
        if named == "HOME" {
            cmd.env_remove("XDG_CONFIG_HOME");
        }
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let (code, stdout, stderr) = run(cmd.args(["search", "pdf"]));
        assert_eq!(
            authorized(&other),
            Vec::<String>::new(),
            "{vars:?}: the secret reached the attacker's origin"
        );
        assert_eq!(code, 2, "{vars:?}: {stdout}{stderr}");
        assert!(
            stderr.contains(named)
                && stderr.contains("inside the project")
                && stderr.contains("tokens.toml"),
            "{vars:?}: {stderr}"
        );
        assert!(!stderr.contains("aws-secret"), "{stderr}");
        assert!(
            other.requests().is_empty(),
            "{vars:?}: the attacker's origin was asked"
        );
    }
    // With the bindings elsewhere, XDG_CONFIG_HOME still names the folder
    // of the user's policy and user-scope manifest.
    let (code, _, stderr) = run(sandbox
        .cmd()
        .env("XDG_CONFIG_HOME", in_project(".config"))
        .args(["search", "pdf"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("XDG_CONFIG_HOME") && stderr.contains("policy.toml"),
        "{stderr}"
    );
    assert!(other.requests().is_empty());
    assert_eq!(
        std::fs::read(sandbox.project.join("skills.lock")).unwrap(),
        lock
    );
    assert_eq!(support::snapshot(&sandbox.home), home_before);
    assert_eq!(support::snapshot(&own), own_before);
}

/// Plain http is allowed to this machine because such a request never
/// leaves it. `HTTP_PROXY` or `ALL_PROXY` (which a project's `.env` or a CI
/// job can set) sent it to the proxy instead, in the clear: the proxy read
/// the registry's token and could change every answer. A request to this
/// machine never goes through a proxy; one to any other host still does.
#[test]
fn a_request_to_this_machine_never_goes_through_a_proxy() {
    let (_dir, server) = small_registry();
    let (_dir2, proxy) = small_registry();
    server.require_token(Some("ci-token"));
    let var = format!("SKILLPM_TOKEN_127_0_0_1_{}", server.addr.port());
    let mut sandbox = project_with(&server.base());
    sandbox.env(&var, "ci-token");
    // Honest: no proxy; the registry gets its token.
    let (code, stdout, stderr) = run(sandbox.cmd().args(["search", "pdf"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("pdf-tools"), "{stdout}");
    assert!(authorized(&server).iter().any(|h| h == "Bearer ci-token"));
    // Attack: a proxy set in the environment, every way reqwest reads one.
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY"] {
        server.clear_log();
        proxy.clear_log();
        let (code, stdout, stderr) =
            run(sandbox.cmd().env(var, proxy.base()).args(["search", "pdf"]));
        assert_eq!(
            authorized(&proxy),
            Vec::<String>::new(),
            "{var}: the token went to the proxy"
        );
        assert!(proxy.requests().is_empty(), "{var}: the proxy was asked");
        assert_eq!(code, 0, "{var}: {stderr}");
        assert!(stdout.contains("pdf-tools"), "{stdout}");
        assert!(
            authorized(&server).iter().any(|h| h == "Bearer ci-token"),
            "{var}: the registry was not asked directly"
        );
    }
}
