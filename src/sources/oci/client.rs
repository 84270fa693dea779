//! The OCI distribution API over the crate's one HTTP client
//! (`crate::net::fetch`): the Bearer token flow, manifests, blobs verified while
//! they stream, tag lists and the catalog, and pushes (HEAD before upload,
//! cross-repository mount).
//!
//! Credentials go only to the registry's own origin and, as docker sends
//! them, to the token realm that registry's own challenge names when the
//! realm is that origin or is reached over https (Docker Hub's
//! `auth.docker.io`); a realm elsewhere over plain http is asked
//! anonymously. A redirect to blob storage elsewhere is followed without the
//! `Authorization` header (`fetch::Auth::applies_to`). See docs/network.md.

use std::cell::RefCell;
use std::collections::HashMap;

use url::Url;

use super::auth::RegistryLogin;
use super::manifest::{self, Descriptor, ImageManifest, ManifestBody};
use super::{OciError, OciRef};
use crate::digest::Digest;
use crate::net::fetch::{Auth, DownloadSpec, Downloaded, Exchange, Fetcher, Reply, Verb};

/// Manifests, token answers, tag lists: small documents.
const MAX_DOCUMENT_BYTES: u64 = 4 * 1024 * 1024;

/// A manifest fetched and checked against its digest.
#[derive(Debug, Clone)]
pub struct Pulled {
    /// The digest of the image manifest (after an index was followed).
    pub digest: Digest,
    pub manifest: ImageManifest,
}

/// One registry, with the credential to offer it.
pub struct Registry<'f> {
    fetcher: &'f Fetcher,
    base: Url,
    registry: String,
    credential: Option<RegistryLogin>,
    /// `Authorization` per scope (`repo:pull`), learnt from challenges.
    auths: RefCell<HashMap<String, Auth>>,
    /// Why the credential was kept from a token realm (said if the
    /// registry then refuses).
    withheld: RefCell<Option<String>>,
}

impl<'f> Registry<'f> {
    pub fn new(
        fetcher: &'f Fetcher,
        reference: &OciRef,
        credential: Option<RegistryLogin>,
    ) -> Result<Self, OciError> {
        let base = reference.base_url().map_err(|reason| OciError::Reference {
            text: reference.to_string(),
            reason,
        })?;
        Ok(Registry {
            fetcher,
            base,
            registry: reference.registry.clone(),
            credential,
            auths: RefCell::new(HashMap::new()),
            withheld: RefCell::new(None),
        })
    }

    /// `oci://HOST/REPO@DIGEST`: where a manifest of this registry is.
    pub fn located(&self, repo: &str, digest: &Digest) -> String {
        format!("{}{}/{repo}@{digest}", super::SCHEME, self.registry)
    }

    fn url(&self, path: &str) -> Result<Url, OciError> {
        self.base.join(path).map_err(|e| OciError::Reference {
            text: format!("{}{path}", self.base),
            reason: e.to_string(),
        })
    }

    fn scope_key(repo: &str, push: bool) -> String {
        format!("{repo}:{}", if push { "pull,push" } else { "pull" })
    }

    fn auth_for(&self, repo: &str, push: bool) -> Option<Auth> {
        self.auths
            .borrow()
            .get(&Self::scope_key(repo, push))
            .cloned()
    }

    /// Sends `ex`; on a 401 answers the challenge once (Basic with the
    /// credential, or a Bearer token from the realm) and sends it again.
    fn send(&self, repo: &str, push: bool, ex: Exchange<'_>) -> Result<Reply, OciError> {
        let cached = self.auth_for(repo, push);
        let reply = self.fetcher.exchange(&ex.authed(cached.as_ref()))?;
        if reply.status != 401 {
            return Ok(reply);
        }
        let auth = self.answer_challenge(repo, push, &reply)?;
        self.auths
            .borrow_mut()
            .insert(Self::scope_key(repo, push), auth.clone());
        let again = self.fetcher.exchange(&ex.authed(Some(&auth)))?;
        if again.status == 401 || again.status == 403 {
            return Err(self.refused(repo, again.status));
        }
        Ok(again)
    }

    fn refused(&self, repo: &str, status: u16) -> OciError {
        OciError::Unauthorized {
            registry: self.registry.clone(),
            repository: repo.to_owned(),
            status,
            hint: match (&self.credential, &*self.withheld.borrow()) {
                (Some(c), Some(why)) => format!("the credential from {} was not sent: {why}", c.from),
                (Some(c), None) => format!(
                    "the credential from {} was sent and refused; check it and its permissions",
                    c.from
                ),
                (None, _) => "no credential for it was found: `docker login` to it (~/.docker/config.json), or bind a token with `skillpm source add NAME oci://… --token-env VAR`".to_owned(),
            },
        }
    }

    fn answer_challenge(&self, repo: &str, push: bool, reply: &Reply) -> Result<Auth, OciError> {
        let challenges = reply.headers_named("www-authenticate");
        let bearer = challenges.iter().find_map(|c| {
            c.strip_prefix("Bearer ")
                .or_else(|| c.strip_prefix("bearer "))
        });
        if let Some(params) = bearer {
            return self.bearer_token(repo, push, &parse_params(params));
        }
        if challenges
            .iter()
            .any(|c| c.to_ascii_lowercase().starts_with("basic"))
        {
            let Some(credential) = &self.credential else {
                return Err(self.refused(repo, 401));
            };
            return Auth::with_header(&self.base, &credential.from, &credential.basic())
                .ok_or_else(|| self.bad_credential(credential));
        }
        Err(self.refused(repo, 401))
    }

    /// The registry answered against the protocol: `reason` says how.
    fn protocol(&self, reason: impl Into<String>) -> OciError {
        OciError::Protocol {
            registry: self.registry.clone(),
            reason: reason.into(),
        }
    }

    fn bad_credential(&self, c: &RegistryLogin) -> OciError {
        OciError::Credentials {
            registry: self.registry.clone(),
            reason: format!("the credential from {} cannot be sent as a header", c.from),
        }
    }

    /// The token flow: GET realm?service=…&scope=repository:REPO:pull[,push].
    fn bearer_token(
        &self,
        repo: &str,
        push: bool,
        params: &HashMap<String, String>,
    ) -> Result<Auth, OciError> {
        let realm = params
            .get("realm")
            .ok_or_else(|| self.protocol("its Bearer challenge names no realm"))?;
        let mut url = Url::parse(realm)
            .map_err(|e| self.protocol(format!("its token realm {realm:?} is not a URL: {e}")))?;
        if url.scheme() != "https" && !(url.scheme() == "http" && self.base.scheme() == "http") {
            return Err(self.protocol(format!("its token realm {realm} is not https")));
        }
        let scope = format!(
            "repository:{repo}:{}",
            if push { "pull,push" } else { "pull" }
        );
        {
            let mut q = url.query_pairs_mut();
            if let Some(service) = params.get("service") {
                q.append_pair("service", service);
            }
            q.append_pair("scope", &scope);
        }
        // Docker's rule: the credential bound to this registry goes to the
        // realm its own challenge names (Docker Hub's is `auth.docker.io`),
        // bound to that realm's origin, only when the realm is the
        // registry's own origin or is reached over https; never over plain
        // http to another origin, where anyone on the way could read it.
        let sendable = url.origin() == self.base.origin() || url.scheme() == "https";
        if self.credential.is_some() && !sendable {
            *self.withheld.borrow_mut() = Some(format!(
                "the registry's token realm {} is another origin over plain http, and credentials go to another origin only over https; ask the registry's owner for an https realm",
                url.origin().ascii_serialization()
            ));
        }
        let basic = self
            .credential
            .as_ref()
            .filter(|_| sendable)
            .map(|c| {
                Auth::with_header(&url, &c.from, &c.basic()).ok_or_else(|| self.bad_credential(c))
            })
            .transpose()?;
        let mut ex = Exchange::new(Verb::Get, url.clone(), MAX_DOCUMENT_BYTES);
        ex.auth = basic.as_ref();
        let reply = self.fetcher.exchange(&ex)?;
        if !reply.is_success() {
            return Err(self.refused(repo, reply.status));
        }
        #[derive(serde::Deserialize)]
        struct TokenAnswer {
            token: Option<String>,
            access_token: Option<String>,
        }
        let answer: TokenAnswer = serde_json::from_slice(&reply.body)
            .map_err(|e| self.protocol(format!("its token answer is not JSON: {e}")))?;
        let token = answer
            .token
            .or(answer.access_token)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| self.protocol("its token answer holds no token"))?;
        Auth::with_header(
            &self.base,
            &format!("a token from {}", url.origin().ascii_serialization()),
            &format!("Bearer {token}"),
        )
        .ok_or_else(|| self.protocol("its token cannot be sent as a header"))
    }

    fn status_error(&self, what: &str, reply: &Reply) -> OciError {
        if reply.status == 404 {
            return OciError::NotFound {
                what: what.to_owned(),
            };
        }
        self.protocol(format!(
            "{what}: answered {} {}",
            reply.status,
            String::from_utf8_lossy(&reply.body[..reply.body.len().min(300)]).trim()
        ))
    }

    /// The raw manifest at `reference` (a tag or digest) and its digest;
    /// asked by digest, the bytes must hash to it.
    pub fn manifest_bytes(
        &self,
        repo: &str,
        reference: &str,
    ) -> Result<(Digest, Vec<u8>, Option<String>), OciError> {
        let url = self.url(&format!("v2/{repo}/manifests/{reference}"))?;
        let mut ex = Exchange::new(Verb::Get, url, MAX_DOCUMENT_BYTES);
        ex.headers.push(("accept", manifest::ACCEPT.to_owned()));
        let reply = self.send(repo, false, ex)?;
        let what = format!("{}{}/{repo}:{reference}", super::SCHEME, self.registry);
        if !reply.is_success() {
            return Err(self.status_error(&what, &reply));
        }
        let digest = Digest::of_bytes(&reply.body);
        if reference.starts_with("sha256:") && reference != digest.to_string() {
            return Err(OciError::DigestMismatch {
                what,
                expected: reference.to_owned(),
                actual: digest,
            });
        }
        Ok((
            digest,
            reply.body.clone(),
            reply.header("content-type").map(str::to_owned),
        ))
    }

    /// The image manifest at `reference`: an index is followed to its first
    /// manifest (ToolHive publishes one per platform, all alike).
    pub fn pull_manifest(&self, repo: &str, reference: &str) -> Result<Pulled, OciError> {
        let (digest, bytes, content_type) = self.manifest_bytes(repo, reference)?;
        let what = format!("{}{}/{repo}@{digest}", super::SCHEME, self.registry);
        let bad = |reason: String| OciError::NotASkill {
            what: what.clone(),
            reason,
        };
        match manifest::parse(&bytes, content_type.as_deref()).map_err(bad)? {
            ManifestBody::Image(m) => Ok(Pulled {
                digest,
                manifest: m,
            }),
            ManifestBody::Index(index) => {
                let first = index
                    .manifests
                    .first()
                    .ok_or_else(|| bad("its image index lists no manifest".into()))?;
                let (digest, bytes, content_type) = self.manifest_bytes(repo, &first.digest)?;
                match manifest::parse(&bytes, content_type.as_deref()).map_err(bad)? {
                    ManifestBody::Image(m) => Ok(Pulled {
                        digest,
                        manifest: m,
                    }),
                    ManifestBody::Index(_) => Err(bad("its index points at another index".into())),
                }
            }
        }
    }

    /// The manifests whose `subject` is `digest` (OCI distribution 1.1):
    /// the referrers API (`/v2/REPO/referrers/DIGEST`, its first page), or,
    /// where the registry answers 404 to it, the image index a client keeps
    /// at the tag schema's tag `sha256-HEX`. No referrers: empty.
    pub fn referrers(&self, repo: &str, digest: &Digest) -> Result<Vec<Descriptor>, OciError> {
        let url = self.url(&format!("v2/{repo}/referrers/{digest}"))?;
        let mut ex = Exchange::new(Verb::Get, url, MAX_DOCUMENT_BYTES);
        ex.headers.push(("accept", manifest::OCI_INDEX.to_owned()));
        let reply = self.send(repo, false, ex)?;
        let what = format!(
            "the referrers of {}{}/{repo}@{digest}",
            super::SCHEME,
            self.registry
        );
        let body = if reply.is_success() {
            reply.body
        } else if reply.status == 404 {
            match self.manifest_bytes(repo, &referrers_tag(digest)) {
                Ok((_, bytes, _)) => bytes,
                Err(OciError::NotFound { .. }) => return Ok(Vec::new()),
                Err(e) => return Err(e),
            }
        } else {
            return Err(self.status_error(&what, &reply));
        };
        match manifest::parse(&body, Some(manifest::OCI_INDEX)) {
            Ok(ManifestBody::Index(index)) => Ok(index.manifests),
            Ok(ManifestBody::Image(_)) => Err(self.protocol(format!(
                "{what}: an image manifest, not an index of referrers"
            ))),
            Err(reason) => Err(self.protocol(format!("{what}: {reason}"))),
        }
    }

    /// Downloads a blob into `<cache>/downloads/`, verified against its
    /// digest and declared size while it streams (`fetch::Fetcher::download`).
    pub fn blob(&self, repo: &str, desc: &Descriptor, max: u64) -> Result<Downloaded, OciError> {
        let digest = parse_digest(&desc.digest)?;
        if desc.size > max {
            return Err(OciError::TooLarge {
                what: desc.digest.clone(),
                size: desc.size,
                limit: max,
            });
        }
        let url = self.url(&format!("v2/{repo}/blobs/{digest}"))?;
        if self.auth_for(repo, false).is_none()
            && !self.fetcher.cache().download_path(&digest).exists()
        {
            // Learn the token (if any) before the streaming download.
            let probe = Exchange::new(Verb::Head, url.clone(), 0);
            let _ = self.send(repo, false, probe)?;
        }
        let mut spec = DownloadSpec::new(url, Some(digest)).with_auth(self.auth_for(repo, false));
        spec.max_bytes = Some(desc.size);
        Ok(self.fetcher.download(spec)?)
    }

    /// A small blob (config, signature payload) in memory, checked.
    pub fn small_blob(&self, repo: &str, desc: &Descriptor) -> Result<Vec<u8>, OciError> {
        let digest = parse_digest(&desc.digest)?;
        let url = self.url(&format!("v2/{repo}/blobs/{digest}"))?;
        let ex = Exchange::new(Verb::Get, url, MAX_DOCUMENT_BYTES.min(desc.size.max(1)));
        let reply = self.send(repo, false, ex)?;
        if !reply.is_success() {
            return Err(self.status_error(&format!("blob {digest} of {repo}"), &reply));
        }
        let actual = Digest::of_bytes(&reply.body);
        if actual != digest {
            return Err(OciError::DigestMismatch {
                what: format!("blob of {repo}"),
                expected: digest.to_string(),
                actual,
            });
        }
        Ok(reply.body)
    }

    /// The repository's tags (`/v2/REPO/tags/list`).
    pub fn tags(&self, repo: &str) -> Result<Vec<String>, OciError> {
        #[derive(serde::Deserialize)]
        struct Tags {
            tags: Option<Vec<String>>,
        }
        let url = self.url(&format!("v2/{repo}/tags/list"))?;
        let reply = self.send(
            repo,
            false,
            Exchange::new(Verb::Get, url, MAX_DOCUMENT_BYTES),
        )?;
        if !reply.is_success() {
            return Err(self.status_error(&format!("the tags of {repo}"), &reply));
        }
        let tags: Tags = serde_json::from_slice(&reply.body)
            .map_err(|e| self.protocol(format!("its tag list is not JSON: {e}")))?;
        Ok(tags.tags.unwrap_or_default())
    }

    /// The registry's repositories (`/v2/_catalog`), where it allows listing.
    pub fn catalog(&self) -> Result<Vec<String>, OciError> {
        #[derive(serde::Deserialize)]
        struct Catalog {
            repositories: Option<Vec<String>>,
        }
        let url = self.url("v2/_catalog?n=1000")?;
        let reply = self
            .fetcher
            .exchange(&Exchange::new(Verb::Get, url, MAX_DOCUMENT_BYTES))?;
        if !reply.is_success() {
            return Err(OciError::NoCatalog {
                registry: self.registry.clone(),
                status: reply.status,
            });
        }
        let catalog: Catalog = serde_json::from_slice(&reply.body)
            .map_err(|e| self.protocol(format!("its catalog is not JSON: {e}")))?;
        Ok(catalog.repositories.unwrap_or_default())
    }

    /// Whether the repository already has the blob (HEAD).
    pub fn has_blob(&self, repo: &str, digest: &Digest) -> Result<bool, OciError> {
        let url = self.url(&format!("v2/{repo}/blobs/{digest}"))?;
        let reply = self.send(repo, true, Exchange::new(Verb::Head, url, 0))?;
        Ok(reply.is_success())
    }

    /// Uploads a blob unless the repository has it; mounts it from
    /// `mount_from` where the registry supports that. Returns whether bytes
    /// were sent.
    pub fn push_blob(
        &self,
        repo: &str,
        digest: &Digest,
        bytes: &[u8],
        mount_from: Option<&str>,
    ) -> Result<bool, OciError> {
        if self.has_blob(repo, digest)? {
            return Ok(false);
        }
        let start = match mount_from {
            Some(from) => format!("v2/{repo}/blobs/uploads/?mount={digest}&from={from}"),
            None => format!("v2/{repo}/blobs/uploads/"),
        };
        let mut ex = Exchange::new(Verb::Post, self.url(&start)?, MAX_DOCUMENT_BYTES);
        ex.headers.push(("content-length", "0".into()));
        ex.body = Some(Vec::new());
        let reply = self.send(repo, true, ex)?;
        if reply.status == 201 {
            return Ok(false); // mounted
        }
        if reply.status != 202 {
            return Err(self.status_error(&format!("starting an upload to {repo}"), &reply));
        }
        let location = reply
            .header("location")
            .ok_or_else(|| self.protocol("an upload answer without a Location"))?;
        let mut url = reply
            .url
            .join(location)
            .map_err(|e| self.protocol(format!("the upload Location is not a URL: {e}")))?;
        if url.origin() != self.base.origin() {
            return Err(self.protocol(format!(
                "the upload Location {url} is on another host; refused"
            )));
        }
        url.query_pairs_mut()
            .append_pair("digest", &digest.to_string());
        let mut put = Exchange::new(Verb::Put, url, MAX_DOCUMENT_BYTES);
        put.headers
            .push(("content-type", "application/octet-stream".into()));
        put.body = Some(bytes.to_vec());
        let reply = self.send(repo, true, put)?;
        if reply.status != 201 {
            return Err(self.status_error(&format!("uploading blob {digest} to {repo}"), &reply));
        }
        Ok(true)
    }

    /// Puts a manifest under `reference` (a tag, or its digest).
    pub fn push_manifest(
        &self,
        repo: &str,
        reference: &str,
        bytes: &[u8],
        media_type: &str,
    ) -> Result<(), OciError> {
        let url = self.url(&format!("v2/{repo}/manifests/{reference}"))?;
        let mut put = Exchange::new(Verb::Put, url, MAX_DOCUMENT_BYTES);
        put.headers.push(("content-type", media_type.to_owned()));
        put.body = Some(bytes.to_vec());
        let reply = self.send(repo, true, put)?;
        if reply.status != 201 {
            return Err(
                self.status_error(&format!("putting the manifest {repo}:{reference}"), &reply)
            );
        }
        Ok(())
    }
}

/// The referrers tag schema's tag for the referrers of `digest`.
pub fn referrers_tag(digest: &Digest) -> String {
    format!("sha256-{}", digest.hex())
}

/// A descriptor's digest; only sha256 is accepted.
pub fn parse_digest(text: &str) -> Result<Digest, OciError> {
    text.parse().map_err(|_| OciError::Unsupported {
        what: format!("digest `{text}` (only sha256 digests are accepted)"),
    })
}

/// `realm="…",service="…",scope="…"` into a map.
fn parse_params(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut rest = text.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = after.trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(',') {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.insert(key, value.to_owned());
        rest = next.trim_start_matches(',').trim();
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn challenge_parameters_are_read() {
        let p = super::parse_params(
            r#"realm="https://ghcr.io/token",service="ghcr.io",scope="repository:a/b:pull""#,
        );
        assert_eq!(p["realm"], "https://ghcr.io/token");
        assert_eq!(p["service"], "ghcr.io");
        assert_eq!(p["scope"], "repository:a/b:pull");
    }
}
