//! Reading an answer's body under the network policy (docs/network.md): a
//! silence longer than the idle timeout fails, and so does a body whose
//! average rate stays below the minimum once the idle timeout has passed (a
//! server dripping a byte every few seconds never trips the idle timeout),
//! and nothing outlives the transfer's deadline.

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::Why;

/// Why a body stopped.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("no byte for {idle:?} after {size} bytes of the body")]
    Idle { idle: Duration, size: u64 },
    #[error("{size} bytes in {secs:.1}s, below the minimum of {min_rate} bytes/s")]
    TooSlow { size: u64, secs: f64, min_rate: u64 },
    #[error("the transfer took longer than SKILLPM_HTTP_DEADLINE ({0:?})")]
    Deadline(Duration),
    #[error("{0}")]
    Transport(#[source] reqwest::Error),
}

impl BodyError {
    pub fn why(&self) -> Why {
        match self {
            BodyError::Idle { .. } | BodyError::Deadline(_) => Why::Timeout,
            BodyError::TooSlow { .. } => Why::TooSlow,
            BodyError::Transport(e) => match Why::of(e) {
                Why::Other(_) if e.is_body() || e.is_decode() => Why::Broken,
                why => why,
            },
        }
    }
}

/// A response's body, read chunk by chunk under the idle timeout, the
/// minimum rate and (when set) a deadline.
#[derive(Debug)]
pub struct BodyStream<R = reqwest::Response> {
    response: R,
    idle: Duration,
    min_rate: u64,
    deadline: Option<(Instant, Duration)>,
    started: Option<Instant>,
    checked: bool,
    last_byte: Instant,
    chunks: u32,
    size: u64,
}

impl<R: std::borrow::BorrowMut<reqwest::Response>> BodyStream<R> {
    /// `response`'s body, read with `idle` as the longest silence, at no
    /// less than `min_rate` bytes/s once `idle` has passed, and (when set)
    /// ending at the deadline's instant (its length is for the message).
    pub fn new(
        response: R,
        idle: Duration,
        min_rate: u64,
        deadline: Option<(Instant, Duration)>,
    ) -> Self {
        BodyStream {
            response,
            idle,
            min_rate,
            deadline,
            started: None,
            checked: false,
            last_byte: Instant::now(),
            chunks: 0,
            size: 0,
        }
    }

    /// Bytes received so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn too_slow(&self, started: Instant) -> Option<BodyError> {
        let elapsed = started.elapsed();
        (elapsed >= self.idle && (self.size as f64) < self.min_rate as f64 * elapsed.as_secs_f64())
            .then(|| BodyError::TooSlow {
                size: self.size,
                secs: elapsed.as_secs_f64(),
                min_rate: self.min_rate,
            })
    }

    /// The next chunk; `None` at the end.
    pub async fn next(&mut self) -> Result<Option<Bytes>, BodyError> {
        let started = *self.started.get_or_insert_with(|| {
            let now = Instant::now();
            self.last_byte = now;
            now
        });
        // The rate is checked when the idle timeout has passed since the
        // body began (so a drip is ended then, not at its next byte), and
        // again at every byte after that.
        let check_at = started + self.idle;
        loop {
            let idle_deadline = self.last_byte + self.idle;
            let rate_check = !self.checked && check_at < idle_deadline;
            let mut wake = if rate_check { check_at } else { idle_deadline };
            let mut at_deadline = false;
            if let Some((end, _)) = self.deadline
                && end < wake
            {
                wake = end;
                at_deadline = true;
            }
            let next = match tokio::time::timeout_at(
                wake.into(),
                self.response.borrow_mut().chunk(),
            )
            .await
            {
                Ok(next) => next,
                Err(_) if at_deadline => {
                    let total = self.deadline.map(|d| d.1).unwrap_or_default();
                    return Err(BodyError::Deadline(total));
                }
                Err(_) if rate_check => {
                    self.checked = true;
                    // Bytes still flowing, too slowly: a drip. One chunk
                    // and then silence is a stall, which the idle timeout
                    // ends (and which is retried).
                    if self.chunks >= 2
                        && let Some(slow) = self.too_slow(started)
                    {
                        return Err(slow);
                    }
                    continue;
                }
                Err(_) => {
                    return Err(BodyError::Idle {
                        idle: self.idle,
                        size: self.size,
                    });
                }
            };
            return match next {
                Ok(Some(chunk)) => {
                    self.last_byte = Instant::now();
                    self.chunks += 1;
                    self.size += chunk.len() as u64;
                    match self.too_slow(started) {
                        Some(slow) => Err(slow),
                        None => Ok(Some(chunk)),
                    }
                }
                Ok(None) => Ok(None),
                Err(e) => Err(BodyError::Transport(e)),
            };
        }
    }
}

crate::classified!(BodyError);
impl crate::error::Classify for BodyError {
    fn exit(&self) -> crate::error::Exit {
        match self {
            BodyError::Idle { .. }
            | BodyError::TooSlow { .. }
            | BodyError::Deadline(_)
            | BodyError::Transport(_) => crate::error::Exit::Network,
        }
    }
}
