//! `git http-backend` (git's own smart-HTTP server, a CGI program) behind an
//! axum handler: every request becomes one CGI run with the request's method,
//! path, query, content headers and body; the CGI answer's `Status:` and
//! headers become the response.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response;

/// A router serving every repository under `project_root` (bare
/// repositories, exported without `git-daemon-export-ok`).
pub fn router(project_root: PathBuf) -> axum::Router {
    axum::Router::new()
        .fallback(handle)
        .with_state(Arc::new(project_root))
}

async fn handle(State(root): State<Arc<PathBuf>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 64 << 20)
        .await
        .unwrap_or_default();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let mut command = Command::new("git");
    command
        .arg("http-backend")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PROJECT_ROOT", root.as_os_str())
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("REQUEST_METHOD", parts.method.as_str())
        .env("PATH_INFO", parts.uri.path())
        .env("QUERY_STRING", parts.uri.query().unwrap_or(""))
        .env("REMOTE_ADDR", "127.0.0.1")
        .env("CONTENT_LENGTH", body.len().to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (cgi, http) in [
        ("CONTENT_TYPE", "content-type"),
        ("HTTP_CONTENT_ENCODING", "content-encoding"),
        ("HTTP_GIT_PROTOCOL", "git-protocol"),
    ] {
        if let Some(value) = header(http) {
            command.env(cgi, value);
        }
    }
    let output = tokio::task::spawn_blocking(move || {
        let mut child = command.spawn()?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let writer = std::thread::spawn(move || stdin.write_all(&body));
        let output = child.wait_with_output()?;
        let _ = writer.join();
        Ok::<_, std::io::Error>(output)
    })
    .await
    .expect("the CGI task ran");
    match output {
        Ok(output) => cgi_response(&output.stdout),
        Err(e) => Response::builder()
            .status(StatusCode::INTERNAL_SERVER_ERROR)
            .body(Body::from(format!("cannot run git http-backend: {e}")))
            .unwrap(),
    }
}

/// Splits CGI output into headers (with `Status:`) and body.
fn cgi_response(out: &[u8]) -> Response {
    let (head, body) = match find(out, b"\r\n\r\n") {
        Some(i) => (&out[..i], &out[i + 4..]),
        None => match find(out, b"\n\n") {
            Some(i) => (&out[..i], &out[i + 2..]),
            None => (&out[..0], out),
        },
    };
    let mut response = Response::new(Body::from(body.to_vec()));
    for line in String::from_utf8_lossy(head).lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("status") {
            let code = value.split(' ').next().unwrap_or("500");
            *response.status_mut() = code
                .parse::<u16>()
                .ok()
                .and_then(|c| StatusCode::from_u16(c).ok())
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        } else if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.trim().as_bytes()),
            HeaderValue::from_str(value),
        ) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
