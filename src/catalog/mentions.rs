//! Which skills a user message names explicitly, by Codex's rules, for
//! hosts that inject a skill when the user writes `$name`:
//! - `[$name](path)` is a link: it resolves by path (a skill folder, its
//!   SKILL.md, or either behind `skill://`) to that exact skill, whatever
//!   its precedence; a link whose path is no skill selects nothing, and is
//!   never re-read as a plain name;
//! - a plain `$name` selects a skill only when exactly one skill folder has
//!   that name (copies linked from one store entry count once);
//! - a token that looks like an environment variable (`$PATH`, `$HOME`:
//!   capitals, digits and `_` only) is ignored unless a skill has exactly
//!   that name;
//! - disabled and withheld skills (see [`crate::catalog`]) are never
//!   selected, nor skills with `user-invocable: false`;
//! - each skill once, in the order of its first mention.
//!
//! Names are made of `a-z A-Z 0-9 _ -`, so punctuation ends one:
//! `($pdf)`, `$pdf.`, `"$pdf"`, `$pdf's` all name `pdf`; trailing `-`/`_`
//! (`$pdf--`) are dropped when the longer token names nothing. A `$` right
//! after a letter or digit (`US$5`, `a$b`) starts no mention.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Catalog, CatalogSkill};
use crate::agents::roots::Scope;

/// One skill the text mentions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mention {
    pub name: String,
    pub path: PathBuf,
    pub scope: Scope,
    /// `link` for `[$name](path)`, `name` for a plain `$name`.
    pub how: MentionKind,
    /// Byte offset of the first mention in the text.
    pub offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MentionKind {
    Link,
    Name,
}

/// A `$token` that looked meant for a skill but selected none, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IgnoredMention {
    /// The token as written (`$pdf`, `[$pdf](./x)`).
    pub token: String,
    pub offset: usize,
    pub reason: String,
}

/// Everything [`scan`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MentionScan {
    pub mentions: Vec<Mention>,
    /// Mentions of real skill names or links that selected nothing.
    pub skipped: Vec<IgnoredMention>,
}

/// The skills `text` mentions, in order of first mention, and which
/// mentions selected nothing and why.
pub fn scan(text: &str, catalog: &Catalog) -> MentionScan {
    let candidates: Vec<&CatalogSkill> = catalog.served().filter(|s| s.user_invocable()).collect();
    let mut scanner = Scanner {
        candidates: &candidates,
        catalog,
        out: MentionScan::default(),
        seen_paths: HashSet::new(),
    };
    for token in tokens(text) {
        match token {
            Token::Link {
                name,
                path,
                offset,
                raw,
            } => scanner.link(name, path, offset, raw),
            Token::Plain { name, offset } => scanner.plain(name, offset),
        }
    }
    scanner.out
}

/// What a scan has found so far: a skill reached twice (by link or name)
/// is mentioned once, at its first mention.
struct Scanner<'c> {
    candidates: &'c [&'c CatalogSkill],
    catalog: &'c Catalog,
    out: MentionScan,
    seen_paths: HashSet<PathBuf>,
}

impl Scanner<'_> {
    /// `[$name](path)`: the skill installed at `path`, whatever its name.
    fn link(&mut self, name: &str, path: &str, offset: usize, raw: &str) {
        if looks_like_env_var(name) && !has_name(self.candidates, name) {
            return;
        }
        let reason = match self.catalog.find_by_path(Path::new(path)) {
            Some(s) if s.is_served() && s.user_invocable() => {
                if self.seen_paths.insert(s.real_path.clone()) {
                    self.out
                        .mentions
                        .push(mention(s, MentionKind::Link, offset));
                }
                return;
            }
            Some(s) => match &s.withheld {
                Some(w) => w.explain(&s.name, &s.path),
                None => not_invocable(&s.name),
            },
            None => format!("no skill is installed at {path}"),
        };
        self.out.skipped.push(IgnoredMention {
            token: raw.to_owned(),
            offset,
            reason,
        });
    }

    /// `$name`: the one invocable skill of that name; several distinct
    /// ones are ambiguous (a link says which).
    fn plain(&mut self, name: &str, offset: usize) {
        let Some(name) = resolve_plain(self.candidates, self.catalog, name) else {
            return;
        };
        if looks_like_env_var(name) && !has_name(self.candidates, name) {
            return;
        }
        let copies = distinct_copies(self.candidates, name);
        let reason = match copies.as_slice() {
            [only] => {
                let already = self.out.mentions.iter().any(|m| m.name == only.name);
                if !already && self.seen_paths.insert(only.real_path.clone()) {
                    self.out
                        .mentions
                        .push(mention(only, MentionKind::Name, offset));
                }
                return;
            }
            [] => match self.catalog.resolve(name) {
                crate::catalog::NameLookup::Withheld(s, why) => why.explain(name, &s.path),
                crate::catalog::NameLookup::Served(_) => not_invocable(name),
                crate::catalog::NameLookup::Unknown => return,
            },
            many => format!(
                "{} different skills are named `{name}` ({}); link the one you mean: [${name}](<path>)",
                many.len(),
                many.iter()
                    .map(|s| s.path.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        self.out.skipped.push(IgnoredMention {
            token: format!("${name}"),
            offset,
            reason,
        });
    }
}

/// Why a skill whose frontmatter says `user-invocable: false` is not mentioned.
fn not_invocable(name: &str) -> String {
    format!("skill `{name}` cannot be invoked by a person (user-invocable: false)")
}

fn mention(s: &CatalogSkill, how: MentionKind, offset: usize) -> Mention {
    Mention {
        name: s.name.clone(),
        path: s.path.clone(),
        scope: s.scope,
        how,
        offset,
    }
}

fn has_name(candidates: &[&CatalogSkill], name: &str) -> bool {
    candidates.iter().any(|s| s.name == name)
}

/// The name a plain token means: itself, or itself without trailing `-`
/// and `_` when only the shorter one is a skill (or at least a name the
/// catalog knows, so a withheld skill is still reported).
fn resolve_plain<'t>(
    candidates: &[&CatalogSkill],
    catalog: &Catalog,
    token: &'t str,
) -> Option<&'t str> {
    let known = |n: &str| {
        has_name(candidates, n)
            || !matches!(catalog.resolve(n), crate::catalog::NameLookup::Unknown)
    };
    if known(token) {
        return Some(token);
    }
    let trimmed = token.trim_end_matches(['-', '_']);
    (!trimmed.is_empty() && trimmed != token && known(trimmed)).then_some(trimmed)
}

/// The served copies named `name`, one per real folder.
fn distinct_copies<'a>(candidates: &[&'a CatalogSkill], name: &str) -> Vec<&'a CatalogSkill> {
    let mut seen = HashSet::new();
    candidates
        .iter()
        .filter(|s| s.name == name && seen.insert(s.real_path.clone()))
        .copied()
        .collect()
}

/// `$PATH`, `$XDG_CONFIG_HOME`: capitals, digits and `_`, at least one capital.
fn looks_like_env_var(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    Link {
        name: &'a str,
        path: &'a str,
        offset: usize,
        raw: &'a str,
    },
    Plain {
        name: &'a str,
        offset: usize,
    },
}

/// Every `[$name](path)` and `$name` in `text`, in order.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'['
            && let Some((name, path, end)) = link_at(text, i)
        {
            out.push(Token::Link {
                name,
                path,
                offset: i,
                raw: &text[i..end],
            });
            i = end;
            continue;
        }
        if bytes[i] == b'$' {
            let glued = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && is_name_byte(bytes[end]) {
                end += 1;
            }
            if end > start && !glued {
                out.push(Token::Plain {
                    name: &text[start..end],
                    offset: i,
                });
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

/// `[$name](path)` starting at `start` (spaces allowed between `]` and
/// `(`, and around the path): the name, the trimmed path, and the end.
fn link_at(text: &str, start: usize) -> Option<(&str, &str, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(start + 1) != Some(&b'$') {
        return None;
    }
    let name_start = start + 2;
    let mut name_end = name_start;
    while name_end < bytes.len() && is_name_byte(bytes[name_end]) {
        name_end += 1;
    }
    if name_end == name_start || bytes.get(name_end) != Some(&b']') {
        return None;
    }
    let mut open = name_end + 1;
    while open < bytes.len() && bytes[open].is_ascii_whitespace() {
        open += 1;
    }
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    let close = open + 1 + text[open + 1..].find(')')?;
    let path = text[open + 1..close].trim();
    if path.is_empty() {
        return None;
    }
    Some((&text[name_start..name_end], path, close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        tokens(text)
            .into_iter()
            .map(|t| match t {
                Token::Link { name, path, .. } => format!("[{name}]({path})"),
                Token::Plain { name, .. } => name.to_owned(),
            })
            .collect()
    }

    #[test]
    fn tokens_stop_at_punctuation() {
        assert_eq!(
            names("use $alpha, ($beta). \"$gamma\" $delta's **$eps** `$zeta`:"),
            ["alpha", "beta", "gamma", "delta", "eps", "zeta"]
        );
        assert_eq!(names("$a.skill and $b_extra"), ["a", "b_extra"]);
    }

    #[test]
    fn links_and_near_links() {
        assert_eq!(names("use [$beta](/tmp/beta)"), ["[beta](/tmp/beta)"]);
        assert_eq!(names("use [$beta]   ( /tmp/beta )"), ["[beta](/tmp/beta)"]);
        assert_eq!(names("[beta](/tmp/beta)"), Vec::<String>::new());
        assert_eq!(names("[$beta] /tmp/beta"), ["beta"]);
        assert_eq!(names("[$beta]()"), ["beta"]);
    }

    #[test]
    fn glued_dollars_and_runs_of_dollars() {
        assert_eq!(names("costs US$5 or a$b"), Vec::<String>::new());
        assert_eq!(names("$$pdf"), ["pdf"]);
        let many = format!("{} tail", "$".repeat(300));
        assert!(names(&many).is_empty());
    }

    #[test]
    fn env_var_shapes() {
        assert!(looks_like_env_var("PATH"));
        assert!(looks_like_env_var("XDG_CONFIG_HOME"));
        assert!(looks_like_env_var("HOME2"));
        assert!(!looks_like_env_var("Path"));
        assert!(!looks_like_env_var("pdf"));
        assert!(!looks_like_env_var("123"));
    }
}
