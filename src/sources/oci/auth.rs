//! Registry credentials as users already have them: a `token-env` variable,
//! or Docker's `config.json` (`auths`, `credHelpers`, `credsStore` calling
//! `docker-credential-*`). Held in memory only; never written anywhere.

use std::path::{Path, PathBuf};

use base64::Engine as _;

use super::OciError;

/// A user name and secret for one registry.
#[derive(Clone)]
pub struct RegistryLogin {
    pub user: String,
    pub secret: String,
    /// Where it came from, for messages (`$VAR`, `~/.docker/config.json`).
    pub from: String,
}

impl std::fmt::Debug for RegistryLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RegistryLogin({} from {})", self.user, self.from)
    }
}

impl RegistryLogin {
    /// `Basic base64(user:secret)`.
    pub fn basic(&self) -> String {
        let raw = format!("{}:{}", self.user, self.secret);
        format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(raw)
        )
    }

    /// From a `token-env` value: `USER:SECRET`, or a lone token (user `skillpm`).
    pub fn from_token(var: &str, value: &str) -> RegistryLogin {
        let value = value.trim();
        let (user, secret) = match value.split_once(':') {
            Some((u, s)) if !u.is_empty() => (u, s),
            _ => ("skillpm", value),
        };
        RegistryLogin {
            user: user.to_owned(),
            secret: secret.to_owned(),
            from: format!("${var}"),
        }
    }
}

/// `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`.
pub fn docker_config_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("DOCKER_CONFIG").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("config.json"));
    }
    directories::BaseDirs::new().map(|b| b.home_dir().join(".docker").join("config.json"))
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct DockerConfig {
    #[serde(default)]
    auths: std::collections::BTreeMap<String, AuthEntry>,
    #[serde(default)]
    cred_helpers: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    creds_store: Option<String>,
}

#[derive(serde::Deserialize, Default)]
struct AuthEntry {
    #[serde(default)]
    auth: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    password: Option<String>,
}

/// `https://host/v1/` and `host` name the same registry.
fn same_registry(key: &str, registry: &str) -> bool {
    let host = key
        .trim_start_matches("https://")
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default();
    host.eq_ignore_ascii_case(registry) || (registry == "docker.io" && host == "index.docker.io")
}

/// The credential the Docker config at `path` holds for `registry`; `None`
/// when there is no config or no entry for it.
pub fn from_docker_config(path: &Path, registry: &str) -> Result<Option<RegistryLogin>, OciError> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(OciError::Credentials {
                registry: registry.to_owned(),
                reason: format!("cannot read {}: {e}", path.display()),
            });
        }
    };
    let config: DockerConfig =
        serde_json::from_slice(&text).map_err(|e| OciError::Credentials {
            registry: registry.to_owned(),
            reason: format!("{} is not valid JSON: {e}", path.display()),
        })?;
    let from = path.display().to_string();
    if let Some((_, helper)) = config
        .cred_helpers
        .iter()
        .find(|(k, _)| same_registry(k, registry))
    {
        return from_helper(helper, registry);
    }
    if let Some((_, entry)) = config
        .auths
        .iter()
        .find(|(k, _)| same_registry(k, registry))
    {
        if let (Some(user), Some(secret)) = (&entry.username, &entry.password) {
            return Ok(Some(RegistryLogin {
                user: user.clone(),
                secret: secret.clone(),
                from,
            }));
        }
        if let Some(auth) = &entry.auth {
            let bad = |reason: &str| OciError::Credentials {
                registry: registry.to_owned(),
                reason: format!("the `auth` of {registry} in {from} {reason}"),
            };
            let raw = base64::engine::general_purpose::STANDARD
                .decode(auth.trim())
                .map_err(|_| bad("is not base64"))?;
            let text = String::from_utf8(raw).map_err(|_| bad("is not UTF-8"))?;
            let (user, secret) = text
                .split_once(':')
                .ok_or_else(|| bad("is not user:secret"))?;
            return Ok(Some(RegistryLogin {
                user: user.to_owned(),
                secret: secret.to_owned(),
                from,
            }));
        }
    }
    match &config.creds_store {
        Some(store) if !store.is_empty() => from_helper(store, registry),
        _ => Ok(None),
    }
}

/// Asks `docker-credential-<helper> get` (the Docker credential-helper
/// protocol: the server on stdin, `{"Username","Secret"}` on stdout).
fn from_helper(helper: &str, registry: &str) -> Result<Option<RegistryLogin>, OciError> {
    use std::io::Write as _;
    let program = format!("docker-credential-{helper}");
    let failed = |reason: String| OciError::Credentials {
        registry: registry.to_owned(),
        reason: format!("{program}: {reason}"),
    };
    if helper.is_empty()
        || !helper
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(failed("not a credential helper name".into()));
    }
    let mut child = std::process::Command::new(&program)
        .arg("get")
        // The CI's record key is skillpm's secret, not the helper's.
        .env_remove(crate::trust::record_key::ENV_VAR)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| failed(format!("cannot run it: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(registry.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| failed(format!("cannot read its answer: {e}")))?;
    if !out.status.success() {
        // "credentials not found in native keychain": no entry, not an error.
        return Ok(None);
    }
    #[derive(serde::Deserialize)]
    struct Answer {
        #[serde(rename = "Username")]
        username: String,
        #[serde(rename = "Secret")]
        secret: String,
    }
    let answer: Answer = serde_json::from_slice(&out.stdout)
        .map_err(|e| failed(format!("its answer is not the helper protocol's JSON: {e}")))?;
    Ok(Some(RegistryLogin {
        user: answer.username,
        secret: answer.secret,
        from: program,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_config_entries_are_matched_by_host() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        let auth = base64::engine::general_purpose::STANDARD.encode("u:p:with:colons");
        std::fs::write(
            &path,
            format!(
                r#"{{"auths": {{"https://ghcr.io/v1/": {{"auth": "{auth}"}}, "h.example": {{"username": "a", "password": "b"}}}}}}"#
            ),
        )
        .unwrap();
        let c = from_docker_config(&path, "ghcr.io").unwrap().unwrap();
        assert_eq!((c.user.as_str(), c.secret.as_str()), ("u", "p:with:colons"));
        let c = from_docker_config(&path, "h.example").unwrap().unwrap();
        assert_eq!((c.user.as_str(), c.secret.as_str()), ("a", "b"));
        assert!(
            from_docker_config(&path, "other.example")
                .unwrap()
                .is_none()
        );
        let shown = format!(
            "{:?}",
            from_docker_config(&path, "ghcr.io").unwrap().unwrap()
        );
        assert!(!shown.contains("with:colons"), "{shown}");
        assert!(
            from_docker_config(&dir.path().join("none.json"), "x")
                .unwrap()
                .is_none()
        );
        std::fs::write(&path, "{not json").unwrap();
        assert!(from_docker_config(&path, "ghcr.io").is_err());
        let t = RegistryLogin::from_token("T", "alice:tok");
        assert_eq!((t.user.as_str(), t.secret.as_str()), ("alice", "tok"));
        assert_eq!(RegistryLogin::from_token("T", "tok").user, "skillpm");
    }
}
