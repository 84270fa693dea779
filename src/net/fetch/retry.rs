//! When to try again, and how long to wait first.
//!
//! Transient failures (refused or reset connections, timeouts, 5xx answers,
//! bodies cut short) are retried with exponential backoff and full jitter, so
//! many clients failing together do not retry in lockstep. A server's
//! `Retry-After` replaces the computed delay. Anything that would fail the same
//! way again (4xx, TLS, digest mismatch, size limits) is never retried.

use std::future::Future;
use std::time::{Duration, SystemTime};

use url::Url;

use super::{FetchError, RetryNotice, Shared};
use crate::net::{Detail, Why};

/// Runs `attempt` until it succeeds, fails for good, or the retries run
/// out. The budget is per origin and per run (docs/network.md), kept by the
/// one client (`crate::net::Budget`): once an
/// origin has failed `retries + 1` attempts in a row, or one request gave up
/// on it, it counts as unreachable and every later request to it in this
/// run fails at once with the same reason, without a socket.
pub(crate) async fn with_retries<T, F, Fut>(
    shared: &Shared,
    url: &Url,
    mut attempt: F,
) -> Result<T, FetchError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let config = &shared.config;
    let origin = url.origin().ascii_serialization();
    let mut tries: u32 = 0;
    loop {
        if let Some(down) = shared.http.budget().down(&origin) {
            return Err(FetchError::Unreachable {
                url: url.to_string(),
                origin,
                why: down.0,
                attempts: down.1,
            });
        }
        tries += 1;
        let (why, detail, retry_after) = match attempt().await {
            Ok(value) => {
                shared.http.budget().succeeded(&origin);
                return Ok(value);
            }
            Err(Failure::Fatal(e)) => return Err(e),
            Err(Failure::TooSlow { detail }) => {
                shared.http.budget().give_up(&origin, Why::TooSlow, tries);
                return Err(FetchError::Transport {
                    url: url.to_string(),
                    attempts: tries,
                    why: Why::TooSlow,
                    detail: Detail(detail),
                });
            }
            Err(Failure::Transient {
                why,
                detail,
                retry_after,
            }) => (why, detail, retry_after),
        };
        let in_a_row = shared.http.budget().failed(&origin);
        if tries > config.retries || in_a_row > config.retries {
            shared
                .http
                .budget()
                .give_up(&origin, why.clone(), in_a_row.max(tries));
            return Err(FetchError::Transport {
                url: url.to_string(),
                attempts: tries,
                why,
                detail: Detail(detail),
            });
        }
        let delay = match retry_after {
            Some(d) if d > config.max_retry_after => {
                return Err(FetchError::RetryTooLate {
                    url: url.to_string(),
                    seconds: d.as_secs(),
                });
            }
            Some(d) => d,
            None => backoff(config.backoff, config.max_backoff, tries - 1),
        };
        shared.notify(&RetryNotice {
            url: url.clone(),
            next_attempt: tries + 1,
            attempts: config.retries + 1,
            why: why.to_string(),
            delay,
        });
        tokio::time::sleep(delay).await;
    }
}

/// The outcome of one failed attempt.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Worth another attempt: why, the library's words, and the server's
    /// requested delay.
    Transient {
        why: Why,
        detail: String,
        retry_after: Option<Duration>,
    },
    /// Bytes came, but below the minimum rate: not retried (the next try
    /// would be as slow, and retrying multiplies the wait).
    TooSlow { detail: String },
    /// Final: retrying cannot help.
    Fatal(FetchError),
}

impl Failure {
    pub(crate) fn transient(why: Why, detail: impl Into<String>) -> Self {
        Failure::Transient {
            why,
            detail: detail.into(),
            retry_after: None,
        }
    }
}

impl From<FetchError> for Failure {
    fn from(e: FetchError) -> Self {
        Failure::Fatal(e)
    }
}

/// Delay before retry number `attempt` (0-based): `base * 2^attempt`, capped,
/// then drawn uniformly from its upper half.
pub(crate) fn backoff(base: Duration, cap: Duration, attempt: u32) -> Duration {
    let exp = base.saturating_mul(1u32 << attempt.min(16)).min(cap);
    let half = exp / 2;
    let jitter_ns = fastrand::u64(0..=half.as_nanos().min(u64::MAX as u128) as u64);
    half + Duration::from_nanos(jitter_ns)
}

/// Parses a `Retry-After` value: delay-seconds or an HTTP date.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let base = Duration::from_millis(100);
        let cap = Duration::from_secs(1);
        for _ in 0..100 {
            let d0 = backoff(base, cap, 0);
            assert!(d0 >= Duration::from_millis(50) && d0 <= base, "{d0:?}");
            let d3 = backoff(base, cap, 3);
            assert!(d3 >= Duration::from_millis(400) && d3 <= Duration::from_millis(800));
            let d30 = backoff(base, cap, 30);
            assert!(d30 <= cap && d30 >= cap / 2);
        }
    }

    #[test]
    fn retry_after_accepts_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(
            parse_retry_after(&later, now),
            Some(Duration::from_secs(30))
        );
        let past = httpdate::fmt_http_date(now - Duration::from_secs(30));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
    }
}
