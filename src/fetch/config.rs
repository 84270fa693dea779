//! Network settings: defaults that suit a laptop on a slow link, each one
//! overridable from the environment so CI (and the fault tests) can tighten
//! them without a config file.

use std::time::Duration;

use super::FetchError;

/// Environment variables read by [`FetchConfig::from_env`]. Durations take
/// humantime forms (`30s`, `250ms`, `2m`).
pub mod env {
    /// Idle read timeout: the longest silence tolerated while a body streams.
    pub const TIMEOUT: &str = "SKILLPM_HTTP_TIMEOUT";
    pub const CONNECT_TIMEOUT: &str = "SKILLPM_HTTP_CONNECT_TIMEOUT";
    /// How many times a failed request is retried (0 disables retries).
    pub const RETRIES: &str = "SKILLPM_HTTP_RETRIES";
    /// Base delay of the jittered exponential backoff.
    pub const BACKOFF: &str = "SKILLPM_HTTP_BACKOFF";
    /// How many downloads run at once.
    pub const JOBS: &str = "SKILLPM_JOBS";
    /// The longest one transfer may take, retries included.
    pub const DEADLINE: &str = "SKILLPM_HTTP_DEADLINE";
    /// The lowest average rate (bytes per second) a body may arrive at,
    /// checked once the idle timeout has passed (0 turns the check off).
    pub const MIN_RATE: &str = "SKILLPM_HTTP_MIN_RATE";
}

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
        let defaults = FetchConfig::default();
        Ok(FetchConfig {
            read_timeout: duration_var(env::TIMEOUT)?.unwrap_or(defaults.read_timeout),
            connect_timeout: duration_var(env::CONNECT_TIMEOUT)?
                .unwrap_or(defaults.connect_timeout),
            backoff: duration_var(env::BACKOFF)?.unwrap_or(defaults.backoff),
            retries: number_var(env::RETRIES, 0, 20)?.map_or(defaults.retries, |n| n as u32),
            jobs: number_var(env::JOBS, 1, 256)?.map_or(defaults.jobs, |n| n as usize),
            deadline: duration_var(env::DEADLINE)?.unwrap_or(defaults.deadline),
            min_rate: number_var(env::MIN_RATE, 0, u64::MAX)?.unwrap_or(defaults.min_rate),
            ..defaults
        })
    }
}

fn var(name: &'static str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn duration_var(name: &'static str) -> Result<Option<Duration>, FetchError> {
    let Some(value) = var(name) else {
        return Ok(None);
    };
    let reason = match humantime::parse_duration(value.trim()) {
        Ok(d) if !d.is_zero() => return Ok(Some(d)),
        Ok(_) => "must be longer than zero".into(),
        Err(e) => format!("{e} (write a duration such as `30s` or `250ms`)"),
    };
    Err(FetchError::Setting {
        name,
        value,
        reason,
    })
}

fn number_var(name: &'static str, min: u64, max: u64) -> Result<Option<u64>, FetchError> {
    let Some(value) = var(name) else {
        return Ok(None);
    };
    match value.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(FetchError::Setting {
            name,
            value,
            reason: format!("must be a whole number from {min} to {max}"),
        }),
    }
}
