//! RFC 3339 timestamps for `expires=`: `Z` or a numeric offset, optional
//! fractional seconds. (humantime parses only the UTC forms.)

use std::time::{Duration, SystemTime};

/// Parses `2027-01-31T00:00:00Z`, `2027-01-31T02:00:00+02:00`, `…T00:00:00.5Z`.
pub(crate) fn parse_rfc3339(text: &str) -> Option<SystemTime> {
    let (local, offset_secs) = split_offset(text)?;
    let utc_as_if = humantime::parse_rfc3339_weak(local).ok()?;
    if offset_secs >= 0 {
        utc_as_if.checked_sub(Duration::from_secs(offset_secs as u64))
    } else {
        utc_as_if.checked_add(Duration::from_secs(offset_secs.unsigned_abs()))
    }
}

/// Splits off the zone designator; returns the local part and the offset
/// east of UTC in seconds. A zone is required (RFC 3339 has no local times).
fn split_offset(text: &str) -> Option<(&str, i64)> {
    if let Some(local) = text.strip_suffix(['Z', 'z']) {
        return Some((local, 0));
    }
    if text.len() < 6 || !text.is_char_boundary(text.len() - 6) {
        return None;
    }
    let (local, zone) = text.split_at(text.len() - 6);
    let bytes = zone.as_bytes();
    let sign = match bytes[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    if bytes[3] != b':' {
        return None;
    }
    let hours: i64 = zone[1..3].parse().ok()?;
    let minutes: i64 = zone[4..6].parse().ok()?;
    if hours > 23 || minutes > 59 || !zone[1..3].bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((local, sign * (hours * 3600 + minutes * 60)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_shift_to_utc() {
        let z = parse_rfc3339("2027-01-31T00:00:00Z").unwrap();
        assert_eq!(parse_rfc3339("2027-01-31T02:00:00+02:00"), Some(z));
        assert_eq!(parse_rfc3339("2027-01-30T19:30:00-04:30"), Some(z));
        assert_eq!(
            parse_rfc3339("2027-01-31T00:00:00.500Z"),
            Some(z + Duration::from_millis(500))
        );
        for bad in [
            "2027-01-31",
            "2027-01-31T00:00:00",
            "tomorrow",
            "2027-01-31T00:00:00+2:00",
            "2027-13-01T00:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
