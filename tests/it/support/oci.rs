//! A real OCI registry for the tests: CNCF distribution (Debian package
//! `docker-registry`) on 127.0.0.1 with a free port and its storage in a temp
//! folder, plus raw distribution-API pushes (what another tool such as
//! ToolHive would send) and cosign-format signatures made with `openssl`
//! (real ECDSA P-256 keys generated per test; cosign itself is not
//! installable here, its payload and layout are reproduced exactly).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use base64::Engine as _;
use serde_json::{Value, json};
use skillpm::digest::Digest;

/// `ci` / `skillpm-test-pass`, bcrypt cost 4 (htpasswd auth needs bcrypt).
pub const HTPASSWD: &str = "ci:$2b$04$.q2Ewl4KtSZ.6xQlNsco2u5yokNVKAJF7eaHrFnBld58LeXfea/Pe";
pub const USER: &str = "ci";
pub const PASSWORD: &str = "skillpm-test-pass";

pub struct OciRegistry {
    child: Child,
    pub port: u16,
    /// The registry's storage root (`docker/registry/v2/…` below it).
    pub storage: PathBuf,
    pub auth: bool,
    _dir: tempfile::TempDir,
}

impl Drop for OciRegistry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether the registry binary is installed; prints why a test is skipped.
pub fn available() -> bool {
    let found = Command::new("docker-registry")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!(
            "SKIPPED: `docker-registry` is not installed (apt-get install -y docker-registry skopeo; .ci/run does)"
        );
    }
    found
}

impl OciRegistry {
    /// Starts a registry; `auth` turns on htpasswd (Basic) authentication.
    pub fn start(auth: bool) -> OciRegistry {
        Self::start_with(auth, None)
    }

    /// A registry that wants Bearer tokens from `tokens` (the token flow).
    pub fn start_with_tokens(tokens: &TokenServer) -> OciRegistry {
        Self::start_with(false, Some(tokens))
    }

    fn start_with(auth: bool, tokens: Option<&TokenServer>) -> OciRegistry {
        let dir = tempfile::tempdir().unwrap();
        let storage = dir.path().join("storage");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut config = format!(
            "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:{port}\n",
            storage.display()
        );
        if auth {
            let htpasswd = dir.path().join("htpasswd");
            std::fs::write(&htpasswd, format!("{HTPASSWD}\n")).unwrap();
            config.push_str(&format!(
                "auth:\n  htpasswd:\n    realm: skillpm-tests\n    path: {}\n",
                htpasswd.display()
            ));
        }
        if let Some(t) = tokens {
            config.push_str(&format!(
                "auth:\n  token:\n    realm: {}\n    service: {SERVICE}\n    issuer: {ISSUER}\n    rootcertbundle: {}\n",
                t.realm(),
                t.cert.display()
            ));
        }
        let config_path = dir.path().join("config.yml");
        std::fs::write(&config_path, config).unwrap();
        let child = Command::new("docker-registry")
            .arg("serve")
            .arg(&config_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let registry = OciRegistry {
            child,
            port,
            storage,
            auth,
            _dir: dir,
        };
        // Ready when /v2/ answers (401 counts: auth is on).
        for _ in 0..200 {
            if let Ok(r) = registry.client().get(registry.url("/v2/")).send()
                && (r.status().is_success() || r.status().as_u16() == 401)
            {
                return registry;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("docker-registry did not come up on port {port}");
    }

    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// `oci://127.0.0.1:PORT/PATH`
    pub fn oci(&self, path: &str) -> String {
        format!("oci://{}/{path}", self.host())
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.host())
    }

    fn client(&self) -> reqwest::blocking::Client {
        reqwest::blocking::Client::new()
    }

    fn request(&self, method: reqwest::Method, url: &str) -> reqwest::blocking::RequestBuilder {
        let r = self.client().request(method, url);
        if self.auth {
            r.basic_auth(USER, Some(PASSWORD))
        } else {
            r
        }
    }

    /// Uploads a blob (monolithic: POST, then PUT with the digest).
    pub fn push_blob(&self, repo: &str, bytes: &[u8]) -> String {
        let digest = Digest::of_bytes(bytes).to_string();
        let started = self
            .request(
                reqwest::Method::POST,
                &self.url(&format!("/v2/{repo}/blobs/uploads/")),
            )
            .send()
            .unwrap();
        assert_eq!(started.status().as_u16(), 202, "upload start");
        let location = started.headers()["location"].to_str().unwrap().to_owned();
        let mut url = reqwest::Url::parse(&self.url("/"))
            .unwrap()
            .join(&location)
            .unwrap();
        url.query_pairs_mut().append_pair("digest", &digest);
        let put = self
            .request(reqwest::Method::PUT, url.as_str())
            .header("content-type", "application/octet-stream")
            .body(bytes.to_vec())
            .send()
            .unwrap();
        assert_eq!(put.status().as_u16(), 201, "blob upload");
        digest
    }

    /// Puts a manifest under a tag (or digest); returns its digest.
    pub fn push_manifest(&self, repo: &str, reference: &str, manifest: &Value) -> String {
        let bytes = serde_json::to_vec(manifest).unwrap();
        let media_type = manifest["mediaType"].as_str().unwrap().to_owned();
        let r = self
            .request(
                reqwest::Method::PUT,
                &self.url(&format!("/v2/{repo}/manifests/{reference}")),
            )
            .header("content-type", media_type)
            .body(bytes.clone())
            .send()
            .unwrap();
        assert_eq!(
            r.status().as_u16(),
            201,
            "manifest put: {}",
            r.text().unwrap_or_default()
        );
        Digest::of_bytes(&bytes).to_string()
    }

    /// The digest a tag points at now.
    pub fn tag_digest(&self, repo: &str, tag: &str) -> String {
        let r = self
            .request(reqwest::Method::GET, &self.url(&format!("/v2/{repo}/manifests/{tag}")))
            .header("accept", "application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json")
            .send()
            .unwrap();
        assert!(r.status().is_success(), "{repo}:{tag}: {}", r.status());
        Digest::of_bytes(&r.bytes().unwrap()).to_string()
    }

    /// The bytes of the manifest at `reference` (a tag or digest).
    pub fn manifest_bytes(&self, repo: &str, reference: &str) -> Vec<u8> {
        let r = self
            .request(reqwest::Method::GET, &self.url(&format!("/v2/{repo}/manifests/{reference}")))
            .header("accept", "application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json")
            .send()
            .unwrap();
        assert!(
            r.status().is_success(),
            "{repo}:{reference}: {}",
            r.status()
        );
        r.bytes().unwrap().to_vec()
    }

    /// Attaches a Sigstore bundle to manifest `subject` of `repo` as
    /// `cosign sign --new-bundle-format` and `attest-build-provenance`
    /// (`push-to-registry`) do: a manifest of the bundle's artifact type
    /// with the bundle as its one layer and `subject` as its subject,
    /// listed in the referrers tag schema's index at `sha256-HEX` (this
    /// registry has no referrers API). Returns the referrer's digest.
    pub fn push_sigstore_referrer(&self, repo: &str, subject: &str, bundle: &[u8]) -> String {
        const BUNDLE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
        let subject_size = self.manifest_bytes(repo, subject).len();
        let empty = b"{}".to_vec();
        let empty_digest = self.push_blob(repo, &empty);
        let bundle_digest = self.push_blob(repo, bundle);
        let manifest = json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "artifactType": BUNDLE,
            "config": {"mediaType": "application/vnd.oci.empty.v1+json", "digest": empty_digest, "size": empty.len()},
            "layers": [{"mediaType": BUNDLE, "digest": bundle_digest, "size": bundle.len()}],
            "subject": {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": subject, "size": subject_size},
            "annotations": {"dev.sigstore.bundle.content": "dsse-envelope"},
        });
        let bytes = serde_json::to_vec(&manifest).unwrap();
        let digest = self.push_manifest(repo, &Digest::of_bytes(&bytes).to_string(), &manifest);
        let tag = format!("sha256-{}", subject.strip_prefix("sha256:").unwrap());
        let mut listed: Vec<Value> = match self
            .request(
                reqwest::Method::GET,
                &self.url(&format!("/v2/{repo}/manifests/{tag}")),
            )
            .header("accept", "application/vnd.oci.image.index.v1+json")
            .send()
            .unwrap()
        {
            r if r.status().is_success() => {
                let index: Value = r.json().unwrap();
                index["manifests"].as_array().unwrap().clone()
            }
            _ => Vec::new(),
        };
        listed.push(json!({
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "digest": digest, "size": bytes.len(), "artifactType": BUNDLE,
        }));
        let index = json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.index.v1+json",
            "manifests": listed,
        });
        self.push_manifest(repo, &tag, &index);
        digest
    }

    /// Where the registry keeps the bytes of blob `digest` on disk.
    pub fn blob_file(&self, digest: &str) -> PathBuf {
        let hex = digest.strip_prefix("sha256:").unwrap();
        self.storage
            .join("docker/registry/v2/blobs/sha256")
            .join(&hex[..2])
            .join(hex)
            .join("data")
    }

    /// Pushes a skill artifact in ToolHive's format, as another tool would:
    /// one tar+gzip layer with the files at its root, the skill artifact
    /// type, the skillet annotations, inside an image index with one
    /// manifest per platform. Returns the index digest.
    pub fn push_toolhive_skill(&self, repo: &str, tag: &str, files: &[(&str, &str)]) -> String {
        let layer = tar_gz(files);
        let name = repo.rsplit('/').next().unwrap();
        let annotations = json!({
            "org.stacklok.skillet.skill.name": name,
            "org.stacklok.skillet.skill.description": "Pushed in ToolHive's format.",
            "org.stacklok.skillet.skill.version": tag,
        });
        let mut manifests = Vec::new();
        for arch in ["amd64", "arm64"] {
            let config = serde_json::to_vec(&json!({
                "architecture": arch, "os": "linux",
                "config": {"Labels": annotations},
                "rootfs": {"type": "layers", "diff_ids": []},
            }))
            .unwrap();
            let config_digest = self.push_blob(repo, &config);
            let layer_digest = self.push_blob(repo, &layer);
            let manifest = json!({
                "schemaVersion": 2,
                "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "artifactType": "application/vnd.stacklok.skillet.skill.v1",
                "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config_digest, "size": config.len()},
                "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer_digest, "size": layer.len()}],
                "annotations": annotations,
            });
            let bytes = serde_json::to_vec(&manifest).unwrap();
            let digest = self.push_manifest(repo, &Digest::of_bytes(&bytes).to_string(), &manifest);
            manifests.push(json!({
                "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "digest": digest, "size": bytes.len(),
                "platform": {"architecture": arch, "os": "linux"},
            }));
        }
        let index = json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.index.v1+json",
            "artifactType": "application/vnd.stacklok.skillet.skill.v1",
            "manifests": manifests,
            "annotations": annotations,
        });
        self.push_manifest(repo, tag, &index)
    }

    /// Pushes a cosign signature of `digest` (in `repo`) made with `key`
    /// over a payload naming `signed_digest` (normally the same digest).
    pub fn push_cosign_signature(
        &self,
        repo: &str,
        digest: &str,
        signed_digest: &str,
        key: &CosignTestKey,
    ) {
        let payload = serde_json::to_vec(&json!({
            "critical": {
                "identity": {"docker-reference": format!("{}/{repo}", self.host())},
                "image": {"docker-manifest-digest": signed_digest},
                "type": "cosign container image signature",
            },
            "optional": null,
        }))
        .unwrap();
        let signature = key.sign(&payload);
        let config = b"{}".to_vec();
        let config_digest = self.push_blob(repo, &config);
        let payload_digest = self.push_blob(repo, &payload);
        let manifest = json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config_digest, "size": config.len()},
            "layers": [{
                "mediaType": "application/vnd.dev.cosign.simplesigning.v1+json",
                "digest": payload_digest, "size": payload.len(),
                "annotations": {"dev.cosignproject.cosign/signature": base64::engine::general_purpose::STANDARD.encode(signature)},
            }],
        });
        let tag = format!("sha256-{}.sig", digest.strip_prefix("sha256:").unwrap());
        self.push_manifest(repo, &tag, &manifest);
    }
}

pub const SERVICE: &str = "skillpm-test-registry";
pub const ISSUER: &str = "skillpm-test-issuer";

/// A token server for the registry's token auth (the OCI/Docker token flow):
/// answers `GET /token?service=…&scope=…` with a JWT (RS256, the signing
/// certificate in `x5c`) granting what was asked, signed by an RSA key and a
/// self-signed certificate `openssl` made now. It records whether each
/// request carried an `Authorization` header. [`TokenServer::private`]
/// makes it grant nothing to a request without the registry's credential
/// (as Docker Hub answers for a private repository); [`TokenServer::https`]
/// serves it over TLS with a certificate of a test CA ([`TokenServer::ca`]).
pub struct TokenServer {
    pub port: u16,
    cert: PathBuf,
    /// `Authorization` header of each token request (None: anonymous).
    pub seen: std::sync::Arc<std::sync::Mutex<Vec<Option<String>>>>,
    /// The `Authorization` a request must carry to be granted anything.
    required: std::sync::Arc<std::sync::Mutex<Option<String>>>,
    /// The test CA's certificate (PEM) when served over https.
    tls_ca: Option<PathBuf>,
    _dir: tempfile::TempDir,
    _runtime: tokio::runtime::Runtime,
}

impl TokenServer {
    pub fn start() -> TokenServer {
        Self::start_with(false)
    }

    /// The same over https, with a certificate for 127.0.0.1 signed by a
    /// test CA made now (trust it with `SSL_CERT_FILE=`[`TokenServer::ca`]).
    pub fn https() -> TokenServer {
        Self::start_with(true)
    }

    /// `https://127.0.0.1:PORT/token` or `http://…`.
    pub fn realm(&self) -> String {
        let scheme = if self.tls_ca.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://127.0.0.1:{}/token", self.port)
    }

    /// The test CA's certificate file (https servers only).
    pub fn ca(&self) -> &Path {
        self.tls_ca.as_deref().expect("an https token server")
    }

    /// From now on, only a request carrying `USER:PASSWORD` as Basic is
    /// granted what it asks; any other gets a token that grants nothing.
    pub fn private(&self) {
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
        *self.required.lock().unwrap() = Some(format!("Basic {basic}"));
    }

    fn start_with(tls: bool) -> TokenServer {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("token.key");
        let cert = dir.path().join("token.pem");
        let status = Command::new("openssl")
            .args([
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=skillpm-test-token",
                "-keyout",
            ])
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "openssl req");
        let tls_ca = tls.then(|| test_ca_and_server_cert(dir.path()));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let required = std::sync::Arc::new(std::sync::Mutex::new(None));
        let minter = Minter {
            key: key.clone(),
            cert: cert.clone(),
        };
        let state = (seen.clone(), std::sync::Arc::new(minter), required.clone());
        let app = axum::Router::new()
            .route("/token", axum::routing::get(token_handler))
            .with_state(state);
        let acceptor = tls.then(|| tls_acceptor(dir.path()));
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            match acceptor {
                Some(acceptor) => {
                    let _ = axum::serve(TlsListener { listener, acceptor }, app).await;
                }
                None => {
                    let _ = axum::serve(listener, app).await;
                }
            }
        });
        TokenServer {
            port,
            cert,
            seen,
            required,
            tls_ca,
            _dir: dir,
            _runtime: runtime,
        }
    }
}

/// Makes `ca.pem` (a test CA) and `server.pem`/`server.key` (127.0.0.1,
/// signed by it) in `dir` with `openssl`; returns the CA's path.
fn test_ca_and_server_cert(dir: &Path) -> PathBuf {
    let p = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let ec = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes";
    for step in [
        format!(
            "req -x509 {ec} -days 2 -subj /CN=skillpm-test-CA -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign -keyout {} -out {}",
            p("ca.key"),
            p("ca.pem")
        ),
        format!(
            "req {ec} -subj /CN=127.0.0.1 -keyout {} -out {}",
            p("server.key"),
            p("server.csr")
        ),
        format!(
            "x509 -req -days 2 -set_serial 2 -in {} -CA {} -CAkey {} -extfile {} -out {}",
            p("server.csr"),
            p("ca.pem"),
            p("ca.key"),
            p("server.ext"),
            p("server.pem")
        ),
    ] {
        // The temp dir's path holds no spaces.
        let args: Vec<&str> = step.split(' ').collect();
        let out = Command::new("openssl").args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "openssl {step}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    dir.join("ca.pem")
}

/// A TLS acceptor for `server.pem`/`server.key` in `dir`.
fn tls_acceptor(dir: &Path) -> tokio_rustls::TlsAcceptor {
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::pem::PemObject as _;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(dir.join("server.pem"))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config))
}

/// An https listener for `axum::serve`: each connection's TLS handshake is
/// made before it is handed on (one that fails is dropped).
struct TlsListener {
    listener: tokio::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.listener.accept().await else {
                continue;
            };
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

type TokenState = (
    std::sync::Arc<std::sync::Mutex<Vec<Option<String>>>>,
    std::sync::Arc<Minter>,
    std::sync::Arc<std::sync::Mutex<Option<String>>>,
);

async fn token_handler(
    axum::extract::State((seen, minter, required)): axum::extract::State<TokenState>,
    headers: axum::http::HeaderMap,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> ([(&'static str, &'static str); 1], String) {
    let authorization = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    seen.lock().unwrap().push(authorization.clone());
    let granted = match &*required.lock().unwrap() {
        Some(required) => authorization.as_ref() == Some(required),
        None => true,
    };
    let query = query.unwrap_or_default();
    let url = reqwest::Url::parse(&format!("http://x/?{query}")).unwrap();
    let mut access = Vec::new();
    for (k, v) in url.query_pairs() {
        if k == "scope" && granted {
            // repository:NAME:ACTIONS
            let rest = v.strip_prefix("repository:").unwrap_or(&v);
            if let Some((name, actions)) = rest.rsplit_once(':') {
                access.push((
                    name.to_owned(),
                    actions.split(',').map(str::to_owned).collect(),
                ));
            }
        }
    }
    let token = tokio::task::spawn_blocking(move || minter.mint(&access))
        .await
        .unwrap();
    (
        [("content-type", "application/json")],
        json!({"token": token, "access_token": token}).to_string(),
    )
}

struct Minter {
    key: PathBuf,
    cert: PathBuf,
}

impl Minter {
    fn mint(&self, access: &[(String, Vec<String>)]) -> String {
        let b64url = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        let pem = std::fs::read_to_string(&self.cert).unwrap();
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        let header = json!({"typ": "JWT", "alg": "RS256", "x5c": [body]});
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let claims = json!({
            "iss": ISSUER, "sub": "", "aud": SERVICE,
            "exp": now + 600, "nbf": now - 60, "iat": now - 60,
            "jti": format!("{now}-{}", access.len()),
            "access": access.iter().map(|(name, actions)| json!({
                "type": "repository", "name": name, "actions": actions,
            })).collect::<Vec<_>>(),
        });
        let signing_input = format!(
            "{}.{}",
            b64url(&serde_json::to_vec(&header).unwrap()),
            b64url(&serde_json::to_vec(&claims).unwrap())
        );
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("input");
        std::fs::write(&input, &signing_input).unwrap();
        let out = Command::new("openssl")
            .args(["dgst", "-sha256", "-sign"])
            .arg(&self.key)
            .arg(&input)
            .output()
            .unwrap();
        assert!(out.status.success());
        format!("{signing_input}.{}", b64url(&out.stdout))
    }
}

/// A `.tar.gz` of `(path, text)` files.
pub fn tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut builder = tar::Builder::new(gz);
    for (path, text) in files {
        let mut header = tar::Header::new_ustar();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, path, text.as_bytes())
            .unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// An ECDSA P-256 key pair made by `openssl` now, as `cosign generate-key-pair` would.
pub struct CosignTestKey {
    dir: tempfile::TempDir,
}

impl CosignTestKey {
    pub fn generate() -> CosignTestKey {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("cosign.key");
        openssl(
            &[
                "ecparam",
                "-name",
                "prime256v1",
                "-genkey",
                "-noout",
                "-out",
            ],
            &key,
        );
        let status = Command::new("openssl")
            .args(["ec", "-in"])
            .arg(&key)
            .args(["-pubout", "-out"])
            .arg(dir.path().join("cosign.pub"))
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        CosignTestKey { dir }
    }

    /// cosign.pub (PEM SubjectPublicKeyInfo).
    pub fn public_pem(&self) -> PathBuf {
        self.dir.path().join("cosign.pub")
    }

    /// ASN.1 DER ECDSA-SHA256 signature over `payload`.
    pub fn sign(&self, payload: &[u8]) -> Vec<u8> {
        let file = self.dir.path().join("payload");
        std::fs::write(&file, payload).unwrap();
        let out = Command::new("openssl")
            .args(["dgst", "-sha256", "-sign"])
            .arg(self.dir.path().join("cosign.key"))
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }
}

fn openssl(args: &[&str], out: &Path) {
    let status = Command::new("openssl")
        .args(args)
        .arg(out)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "openssl {args:?}");
}
