//! When to try again, and how long to wait first (docs/network.md#retries):
//! the one retry loop, run by [`super::Http::send`] for every caller and by
//! the registry fetcher around a whole transfer (`super::fetch`).
//!
//! Transient failures (refused or reset connections, timeouts, 429/5xx
//! answers, bodies cut short) are retried with exponential backoff and full
//! jitter, so many clients failing together do not retry in lockstep. A
//! server's `Retry-After` replaces the computed delay. Anything that would
//! fail the same way again (other 4xx, TLS, digest mismatch, size limits) is
//! never retried. The budget is per origin and per run, kept by the client
//! ([`super::Budget`]): once an origin has failed `retries + 1` attempts in
//! a row, or one request gave up on it, it counts as unreachable and every
//! later request to it in this run fails at once with the same reason,
//! without a socket.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use url::Url;

use super::{Http, Why};

/// What a request that is about to be retried tells the person waiting.
#[derive(Debug, Clone)]
pub struct RetryNotice {
    pub url: Url,
    /// The attempt about to start (2 for the first retry).
    pub next_attempt: u32,
    /// How many attempts the origin's budget allows.
    pub attempts: u32,
    /// Why the last one failed, in words.
    pub why: String,
    pub delay: Duration,
}

/// Called before each retry (a spinner in `ops`).
pub type OnRetry = Arc<dyn Fn(&RetryNotice) + Send + Sync>;

/// The outcome of one failed attempt.
#[derive(Debug)]
pub enum Failure<E> {
    /// Worth another attempt: why, the library's words, the server's
    /// requested delay, and what to give back when no retry is left (the
    /// attempt's own error or answer; `None`: [`Stop::GaveUp`]).
    Transient {
        why: Why,
        detail: String,
        retry_after: Option<Duration>,
        last: Option<Box<E>>,
    },
    /// Bytes came, but below the minimum rate: not retried (the next try
    /// would be as slow, and retrying multiplies the wait).
    TooSlow { detail: String },
    /// Final: retrying cannot help.
    Fatal(E),
}

impl<E> Failure<E> {
    pub fn transient(why: Why, detail: impl Into<String>) -> Self {
        Failure::Transient {
            why,
            detail: detail.into(),
            retry_after: None,
            last: None,
        }
    }
}

/// Why the retry loop stopped without a value.
#[derive(Debug)]
pub enum Stop<E> {
    /// The attempt's own final error (or, for a transient failure with
    /// nothing left to try, what it said to give back).
    Fatal(E),
    /// The retries ran out (or the body came below the minimum rate).
    GaveUp {
        attempts: u32,
        why: Why,
        detail: String,
    },
    /// The origin was given up on earlier in this run: no socket opened.
    Unreachable(Unreachable),
    /// The server asked for a delay longer than `max_retry_after`.
    TooLate { seconds: u64 },
}

/// A request to an origin given up on earlier in this run (every caller's
/// error for it, [`super::Http::send`]'s and the fetcher's alike).
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot fetch {url}: {origin} is unreachable in this run ({why}, {attempts} attempts already); not tried again\n  {advice}",
    advice = why.advice()
)]
pub struct Unreachable {
    pub url: String,
    pub origin: String,
    pub why: Why,
    pub attempts: u32,
}

crate::classified!(Unreachable => Network);

impl Http {
    /// Runs `attempt` until it succeeds, fails for good, or the origin's
    /// retries run out (module docs).
    pub async fn retrying<T, E, F, Fut>(&self, url: &Url, mut attempt: F) -> Result<T, Stop<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Failure<E>>>,
    {
        let settings = self.settings();
        let budget = self.budget();
        let origin = url.origin().ascii_serialization();
        let mut tries: u32 = 0;
        loop {
            if let Some((why, attempts)) = budget.down(&origin) {
                return Err(Stop::Unreachable(Unreachable {
                    url: url.to_string(),
                    origin,
                    why,
                    attempts,
                }));
            }
            tries += 1;
            let (why, detail, retry_after, last) = match attempt().await {
                Ok(value) => {
                    budget.succeeded(&origin);
                    return Ok(value);
                }
                Err(Failure::Fatal(e)) => return Err(Stop::Fatal(e)),
                Err(Failure::TooSlow { detail }) => {
                    budget.give_up(&origin, Why::TooSlow, tries);
                    return Err(Stop::GaveUp {
                        attempts: tries,
                        why: Why::TooSlow,
                        detail,
                    });
                }
                Err(Failure::Transient {
                    why,
                    detail,
                    retry_after,
                    last,
                }) => (why, detail, retry_after, last),
            };
            let in_a_row = budget.failed(&origin);
            if tries > settings.retries || in_a_row > settings.retries {
                budget.give_up(&origin, why.clone(), in_a_row.max(tries));
                return Err(match last {
                    Some(e) => Stop::Fatal(*e),
                    None => Stop::GaveUp {
                        attempts: tries,
                        why,
                        detail,
                    },
                });
            }
            let delay = match retry_after {
                Some(d) if d > settings.max_retry_after => {
                    return Err(match last {
                        Some(e) => Stop::Fatal(*e),
                        None => Stop::TooLate {
                            seconds: d.as_secs(),
                        },
                    });
                }
                Some(d) => d,
                None => backoff(settings.backoff, settings.max_backoff, tries - 1),
            };
            self.notify(&RetryNotice {
                url: url.clone(),
                next_attempt: tries + 1,
                attempts: settings.retries + 1,
                why: why.to_string(),
                delay,
            });
            tokio::time::sleep(delay).await;
        }
    }
}

/// A 429 or 5xx answer: worth another attempt, after the server's
/// `Retry-After` when it gives one (`None` for any other status).
pub fn retry_status<E>(response: &reqwest::Response) -> Option<Failure<E>> {
    let status = response.status();
    if status != reqwest::StatusCode::TOO_MANY_REQUESTS && !status.is_server_error() {
        return None;
    }
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| parse_retry_after(v, SystemTime::now()));
    Some(Failure::Transient {
        why: Why::Status(status.as_u16()),
        detail: format!("server answered {status}"),
        retry_after,
        last: None,
    })
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
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
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
