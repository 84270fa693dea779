//! Git over HTTP obeys the one network policy (docs/network.md#git-over-https): the
//! smart-HTTP transport is skillpm's own client, so the plain-http rule and
//! the redirect rule hold on every hop of a git fetch, and a server that
//! stalls ends the fetch in bounded time (exit 4). Real parts only: `git
//! http-backend` and loopback servers.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use crate::git_support::{self, Repo, options, serve};
use crate::support;
use crate::support::cli::{Sandbox, run};
use skillpm::error::{Classify, Exit};
use skillpm::git::{self, GitError, parse_git_spec};

fn repo() -> Repo {
    let repo = Repo::new("skills");
    repo.skill("skills/pdf", "pdf", "Fill PDF forms");
    repo.commit("v1");
    repo.push();
    repo
}

/// A server answering every request with a redirect to `to` + the same
/// path and query.
fn redirecting_to(to: String) -> git_support::Server {
    redirecting(to, true)
}

/// The same, to `to` itself when `keep_path` is false.
fn redirecting(to: String, keep_path: bool) -> git_support::Server {
    let router = axum::Router::new().fallback(move |request: axum::extract::Request| {
        let to = to.clone();
        async move {
            let path = request
                .uri()
                .path_and_query()
                .filter(|_| keep_path)
                .map(|p| p.as_str().to_owned())
                .unwrap_or_default();
            axum::response::Response::builder()
                .status(302)
                .header("location", format!("{to}{path}"))
                .body(axum::body::Body::empty())
                .unwrap()
        }
    });
    serve(router)
}

#[test]
fn a_git_redirect_to_plain_http_elsewhere_is_refused_before_any_connection() {
    // The remote is on loopback (plain http allowed); its redirect leads to
    // a host that is not this machine, over plain http. The rule fires on
    // the hop, before any connection: the error is the policy's (exit 2),
    // not a DNS failure of the unresolvable name.
    let server = redirecting_to("http://skills.invalid".into());
    let cache = tempfile::tempdir().unwrap();
    let spec = parse_git_spec(&format!("{}/skills.git", server.base), None, Path::new("/"))
        .unwrap()
        .expect("a git source");
    let err = git::resolve(&spec, &options(cache.path())).unwrap_err();
    assert!(matches!(err, GitError::PlainHttp(_)), "{err}");
    assert_eq!(err.exit(), Exit::Usage);
    assert!(err.to_string().contains("plain http is refused"), "{err}");
    assert!(err.to_string().contains("skills.invalid"), "{err}");

    // The same from the command line.
    let sb = Sandbox::new();
    sb.init();
    let url = format!("{}/skills.git", server.base);
    let before = support::snapshot(&sb.project);
    let (code, _, stderr) = run(sb.cmd().args(["add", &url, "pdf", "--yes"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("plain http is refused"), "{stderr}");
    assert_eq!(
        support::snapshot(&sb.project),
        before,
        "a refused add wrote"
    );
}

#[test]
fn a_git_redirect_to_another_origin_is_followed_only_under_the_rules() {
    let repo = repo();
    let backend = serve(git_support::http_backend::router(
        repo.bare.parent().unwrap().to_owned(),
    ));
    // Loopback to loopback, same path: git's own rule and ours allow it,
    // and every later request goes to the new base.
    let front = redirecting_to(backend.base.clone());
    let cache = tempfile::tempdir().unwrap();
    let spec = parse_git_spec(&format!("{}/skills.git", front.base), None, Path::new("/"))
        .unwrap()
        .expect("a git source");
    let resolved = git::resolve(&spec, &options(cache.path())).unwrap();
    assert_eq!(resolved.commit.len(), 40);

    // A redirect that drops the request's tail (`info/refs?service=…`) is
    // refused (git's rule, now checked on the one client's hop).
    let elsewhere = redirecting(format!("{}/skills.git", backend.base), false);
    let cache = tempfile::tempdir().unwrap();
    let spec = parse_git_spec(
        &format!("{}/skills.git", elsewhere.base),
        None,
        Path::new("/"),
    )
    .unwrap()
    .expect("a git source");
    let err = git::resolve(&spec, &options(cache.path())).unwrap_err();
    assert_eq!(err.exit(), Exit::Network, "{err}");
    assert!(format!("{err:?}").contains("redirect"), "{err:?}");
}

/// A server that accepts connections, reads the request and never answers.
fn silent_server() -> (String, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let thread = std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().take(4) {
            let Ok(mut stream) = stream else { break };
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            held.push(stream);
        }
        std::thread::sleep(Duration::from_secs(30));
    });
    (base, thread)
}

/// A server that answers a git advertisement's head, then drips one byte
/// every 200 ms for ever: never silent for the idle timeout.
fn dripping_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().take(4) {
            let Ok(mut stream) = stream else { break };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf);
                let head = "HTTP/1.1 200 OK\r\ncontent-type: application/x-git-upload-pack-advertisement\r\n\r\n";
                if stream.write_all(head.as_bytes()).is_err() {
                    return;
                }
                for _ in 0..600 {
                    std::thread::sleep(Duration::from_millis(200));
                    if stream
                        .write_all(b"0")
                        .and_then(|()| stream.flush())
                        .is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    base
}

#[test]
fn a_stalled_git_server_ends_the_fetch_with_exit_4() {
    let (base, _thread) = silent_server();
    let sb = Sandbox::new();
    sb.init();
    let url = format!("{base}/skills.git");
    let before = support::snapshot(&sb.project);
    let (code, _, stderr) = run(sb
        .cmd()
        .env("SKILLPM_HTTP_TIMEOUT", "1s")
        .args(["add", &url, "pdf", "--yes"])
        .timeout(Duration::from_secs(60)));
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("did not answer in time"), "{stderr}");
    assert_eq!(support::snapshot(&sb.project), before, "a failed add wrote");
}

#[test]
fn a_dripping_git_server_ends_at_the_minimum_rate_or_the_deadline() {
    let sb = Sandbox::new();
    sb.init();
    let before = support::snapshot(&sb.project);
    // The minimum rate ends it once the idle timeout has passed.
    let url = format!("{}/skills.git", dripping_server());
    let (code, _, stderr) = run(sb
        .cmd()
        .env("SKILLPM_HTTP_TIMEOUT", "1s")
        .args(["add", &url, "pdf", "--yes"])
        .timeout(Duration::from_secs(60)));
    assert_eq!(code, 4, "{stderr}");
    // With the rate check off, the deadline ends it.
    let url = format!("{}/skills.git", dripping_server());
    let (code, _, stderr) = run(sb
        .cmd()
        .env("SKILLPM_HTTP_TIMEOUT", "1s")
        .env("SKILLPM_HTTP_MIN_RATE", "0")
        .env("SKILLPM_HTTP_DEADLINE", "2s")
        .args(["add", &url, "pdf", "--yes"])
        .timeout(Duration::from_secs(60)));
    assert_eq!(code, 4, "{stderr}");
    assert_eq!(support::snapshot(&sb.project), before, "a failed add wrote");
}
