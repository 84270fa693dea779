//! Resource limits for unpacking (docs/design.md#unpacking), counted on the bytes actually
//! read, never on what an archive's headers claim.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

/// How much one skill may contain. The defaults suit any real skill; a team
/// that ships large assets raises them in `skills.toml`, e.g.
///
/// ```toml
/// [limits]
/// max-entries = 20000
/// max-file-size = "64 MiB"     # or a plain number of bytes
/// max-skill-size = "256 MiB"
/// max-ratio = 200
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Limits {
    /// Entries of any kind (files, folders, metadata records) in one artifact.
    pub max_entries: u64,
    /// Bytes of one file, after decompression.
    #[serde(deserialize_with = "de_size")]
    pub max_file_size: u64,
    /// Bytes of all files of one skill together, after decompression.
    #[serde(deserialize_with = "de_size")]
    pub max_skill_size: u64,
    /// Largest accepted ratio of decompressed to compressed bytes.
    pub max_ratio: u64,
}

/// Below this many decompressed bytes the ratio is not judged: a small file
/// of repeated text can legitimately compress beyond 100:1, and cannot hurt.
pub const RATIO_GRACE_BYTES: u64 = 1024 * 1024;

const MIB: u64 = 1024 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 10_000,
            max_file_size: 16 * MIB,
            max_skill_size: 64 * MIB,
            max_ratio: 100,
        }
    }
}

impl Limits {
    /// Whether `out` decompressed bytes from `input` compressed bytes exceed
    /// the ratio (never judged under [`RATIO_GRACE_BYTES`]).
    pub(crate) fn ratio_exceeded(&self, out: u64, input: u64) -> bool {
        out > RATIO_GRACE_BYTES && out > self.max_ratio.saturating_mul(input.max(1))
    }
}

/// A byte count for messages: `16 MiB`, `1.5 KiB`, `12 bytes`.
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        if self.0 < 1024 {
            return write!(f, "{} bytes", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if value.fract() == 0.0 {
            write!(f, "{} {}", value as u64, UNITS[unit])
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}

/// Parses `1048576`, `"512 KiB"`, `"16MiB"`, `"2 GB"` (SI units are powers of 1000).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().map_err(|_| {
        format!("`{text}` is not a size: expected e.g. `16 MiB` or a number of bytes")
    })?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" | "bytes" => 1,
        "k" | "kb" => 1000,
        "kib" => 1024,
        "m" | "mb" => 1000 * 1000,
        "mib" => MIB,
        "g" | "gb" => 1000 * 1000 * 1000,
        "gib" => 1024 * MIB,
        other => {
            return Err(format!(
                "`{other}` is not a size unit: use bytes, KiB, MiB, GiB (or kB, MB, GB)"
            ));
        }
    };
    number
        .checked_mul(factor)
        .ok_or_else(|| format!("`{text}` is too large"))
}

fn de_size<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Bytes(u64),
        Text(String),
    }
    match Raw::deserialize(deserializer)? {
        Raw::Bytes(n) => Ok(n),
        Raw::Text(s) => parse_size(&s).map_err(serde::de::Error::custom),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_design() {
        let l = Limits::default();
        assert_eq!(l.max_entries, 10_000);
        assert_eq!(l.max_file_size, 16 * MIB);
        assert_eq!(l.max_skill_size, 64 * MIB);
        assert_eq!(l.max_ratio, 100);
    }

    #[test]
    fn limits_deserialise_from_toml_with_sizes_as_text_or_numbers() {
        let l: Limits =
            toml::from_str("max-file-size = \"32 MiB\"\nmax-skill-size = 1000\n").unwrap();
        assert_eq!(l.max_file_size, 32 * MIB);
        assert_eq!(l.max_skill_size, 1000);
        assert_eq!(l.max_entries, 10_000, "unset fields keep their default");
        assert!(toml::from_str::<Limits>("max-file-size = \"32 parsecs\"").is_err());
        assert!(
            toml::from_str::<Limits>("max-files = 3").is_err(),
            "unknown keys are refused"
        );
    }

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("16MiB").unwrap(), 16 * MIB);
        assert_eq!(parse_size("2 GB").unwrap(), 2_000_000_000);
        assert_eq!(parse_size("12").unwrap(), 12);
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("99999999999999999999 GiB").is_err());
        assert_eq!(Size(16 * MIB).to_string(), "16 MiB");
        assert_eq!(Size(1536).to_string(), "1.5 KiB");
        assert_eq!(Size(12).to_string(), "12 bytes");
    }

    #[test]
    fn ratio_is_judged_only_past_the_grace() {
        let l = Limits::default();
        assert!(!l.ratio_exceeded(RATIO_GRACE_BYTES, 1));
        assert!(l.ratio_exceeded(RATIO_GRACE_BYTES + 1, 1));
        assert!(!l.ratio_exceeded(100 * MIB, MIB));
        assert!(l.ratio_exceeded(100 * MIB + 1, MIB));
    }
}
