//! Network settings: defaults that suit a laptop on a slow link, each one
//! overridable from the environment so CI (and the fault tests) can tighten
//! them without a config file.

use std::time::Duration;

use super::FetchError;

/// Environment variables read by [`FetchConfig::from_env`] (the network
/// policy's own knobs, `crate::net::env`).
pub use crate::net::env;

#[derive(Debug, Clone)]
pub struct FetchConfig {
    pub connect_timeout: Duration,
    /// Resets after every successful read, so a large download on a slow but
    /// live link never times out while a stalled one does.
    pub read_timeout: Duration,
    pub retries: u32,
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// A `Retry-After` longer than this is not waited for: the request fails
    /// with the server's delay in the message.
    pub max_retry_after: Duration,
    pub jobs: usize,
    pub max_redirects: usize,
    /// One transfer, retries included, never takes longer than this.
    pub deadline: Duration,
    /// Bytes per second, averaged from the first byte asked for, checked
    /// once `read_timeout` has passed.
    pub min_rate: u64,
    /// Plain `http://` to hosts other than this machine (`--allow-http`).
    pub allow_http: bool,
    /// Caps on bytes actually received (not on what headers claim).
    pub max_index_bytes: u64,
    pub max_artifact_bytes: u64,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(30),
            retries: 3,
            backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            jobs: 8,
            max_redirects: 10,
            deadline: Duration::from_secs(600),
            min_rate: 1024,
            allow_http: false,
            max_index_bytes: 16 * 1024 * 1024,
            max_artifact_bytes: 64 * 1024 * 1024,
        }
    }
}

impl FetchConfig {
    /// Defaults, overridden by the variables of [`env`] that are set.
    pub fn from_env() -> Result<Self, FetchError> {
        let net = crate::net::Settings::from_env().map_err(|b| FetchError::Setting {
            name: b.name,
            value: b.value,
            reason: b.reason,
        })?;
        Ok(FetchConfig {
            read_timeout: net.idle_timeout,
            connect_timeout: net.connect_timeout,
            backoff: net.backoff,
            retries: net.retries,
            jobs: net.jobs,
            deadline: net.deadline,
            min_rate: net.min_rate,
            ..FetchConfig::default()
        })
    }

    /// The network policy's settings for these values.
    pub fn net_settings(&self) -> crate::net::Settings {
        crate::net::Settings {
            connect_timeout: self.connect_timeout,
            idle_timeout: self.read_timeout,
            min_rate: self.min_rate,
            deadline: self.deadline,
            max_redirects: self.max_redirects,
            retries: self.retries,
            backoff: self.backoff,
            max_backoff: self.max_backoff,
            max_retry_after: self.max_retry_after,
            jobs: self.jobs,
        }
    }
}
