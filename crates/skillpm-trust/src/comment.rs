//! The trusted comment of an index signature, the one home of its format:
//! whitespace-separated tokens, `version=<unsigned integer>` (required) and
//! `expires=<RFC 3339 time>` (optional), others ignored, e.g.
//! `version=12 expires=2027-01-31T00:00:00Z`. `publish` writes it with
//! [`TrustedComment::render`]; verification reads it with
//! [`TrustedComment::parse`].

use std::time::SystemTime;

use super::{TrustError, time};

/// What a signer promised about an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedComment {
    pub version: u64,
    pub expires: Option<SystemTime>,
}

/// A parsed comment, with `expires=` (a valid time) kept exactly as signed.
pub(super) struct Parsed {
    pub version: u64,
    pub expires: Option<String>,
}

impl TrustedComment {
    /// `version=<N>`, plus ` expires=<RFC 3339>` when an expiry is set.
    pub fn render(&self) -> String {
        match self.expires {
            Some(t) => format!("version={} expires={}", self.version, format_time(t)),
            None => format!("version={}", self.version),
        }
    }

    /// Reads `comment` strictly (one whole-number `version=`, at most one
    /// valid `expires=`); `what` names the document in messages.
    pub(super) fn parse(what: &str, comment: &str) -> Result<Parsed, TrustError> {
        let problem = |problem: String| TrustError::Comment {
            what: what.to_owned(),
            comment: comment.to_owned(),
            problem,
        };
        let mut version = None;
        let mut expires = None;
        for token in comment.split_whitespace() {
            if let Some(v) = token.strip_prefix("version=") {
                let n: u64 = v.parse().map_err(|_| {
                    problem(format!("has `version={v}`, which is not a whole number"))
                })?;
                if version.replace(n).is_some() {
                    return Err(problem("has `version=` twice".into()));
                }
            } else if let Some(v) = token.strip_prefix("expires=") {
                time::parse_rfc3339(v).ok_or_else(|| {
                    problem(format!(
                        "has `expires={v}`, which is not an RFC 3339 time such as 2027-01-31T00:00:00Z"
                    ))
                })?;
                if expires.replace(v.to_owned()).is_some() {
                    return Err(problem("has `expires=` twice".into()));
                }
            }
        }
        let version = version.ok_or_else(|| {
            problem("has no `version=<integer>`, which skillpm needs to refuse rollbacks".into())
        })?;
        Ok(Parsed { version, expires })
    }
}

/// RFC 3339 in UTC to the second (`2030-01-01T00:00:00Z`).
pub fn format_time(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// The `version=` of a `.minisig` file's trusted comment, if it has one
/// (read leniently: a publisher looking at its previous signature).
pub fn signed_version(signature: &str) -> Option<u64> {
    let sig = minisign::SignatureBox::from_string(signature).ok()?;
    sig.trusted_comment()
        .ok()?
        .split_whitespace()
        .find_map(|token| token.strip_prefix("version="))
        .and_then(|v| v.parse().ok())
}
