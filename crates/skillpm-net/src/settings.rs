//! The network knobs (docs/network.md): defaults that suit a laptop on a
//! slow link, each overridable from the environment so CI (and the fault
//! tests) can tighten them without a config file. Read once here for every
//! HTTP caller: registry fetches, the GitHub API, MCP servers and git.

use std::time::Duration;

/// Environment variables read by [`Settings::from_env`]. Durations take
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

/// What every request of one [`super::Http`] obeys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub connect_timeout: Duration,
    /// The longest silence: before the answer's head, and between two
    /// reads of its body.
    pub idle_timeout: Duration,
    /// Bytes per second, averaged from the first byte asked for, checked
    /// once `idle_timeout` has passed (0: no check).
    pub min_rate: u64,
    /// One transfer (a blocking request with its body; for git, one fetch
    /// with all its requests) never takes longer than this.
    pub deadline: Duration,
    pub max_redirects: usize,
    /// Retries per origin and run (the budget, see [`super::Budget`]).
    pub retries: u32,
    pub backoff: Duration,
    pub max_backoff: Duration,
    pub max_retry_after: Duration,
    pub jobs: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            min_rate: 1024,
            deadline: Duration::from_secs(600),
            max_redirects: 10,
            retries: 3,
            backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            jobs: 8,
        }
    }
}

/// A knob set to something unusable.
#[derive(Debug, Clone)]
pub struct BadSetting {
    pub name: &'static str,
    pub value: String,
    pub reason: String,
}

impl Settings {
    /// Defaults, overridden by the variables of [`env`] that are set.
    pub fn from_env() -> Result<Self, BadSetting> {
        let defaults = Settings::default();
        Ok(Settings {
            idle_timeout: duration_var(env::TIMEOUT)?.unwrap_or(defaults.idle_timeout),
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

fn duration_var(name: &'static str) -> Result<Option<Duration>, BadSetting> {
    let Some(value) = var(name) else {
        return Ok(None);
    };
    let reason = match humantime::parse_duration(value.trim()) {
        Ok(d) if !d.is_zero() => return Ok(Some(d)),
        Ok(_) => "must be longer than zero".into(),
        Err(e) => format!("{e} (write a duration such as `30s` or `250ms`)"),
    };
    Err(BadSetting {
        name,
        value,
        reason,
    })
}

fn number_var(name: &'static str, min: u64, max: u64) -> Result<Option<u64>, BadSetting> {
    let Some(value) = var(name) else {
        return Ok(None);
    };
    match value.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(BadSetting {
            name,
            value,
            reason: format!("must be a whole number from {min} to {max}"),
        }),
    }
}
