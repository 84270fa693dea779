//! What every match of a pattern must contain, read from the pattern's
//! syntax. `rules::tests::every_rules_needs_are_necessary` checks each
//! rule's hand-written `needs` against it, so skipping a rule for a file
//! that holds none of its needs can never miss a match; the capability
//! expressions are gated by these needs directly ([`super::Gate`],
//! docs/performance.md#the-audits-literal-gates).
//!
//! Sound by construction, case by case: a concatenation needs what any one
//! of its parts needs; an alternation needs one of what each branch needs;
//! a repetition of at least one needs what its body needs; a part that can
//! match only a few exact strings needs one of them. An ASCII word
//! boundary (`(?-u:\b)`) is kept in those strings as [`BOUNDARY`]: a need
//! written `\bnc` holds only where `nc` starts a word. Anything else (a
//! class of many characters, an optional part, another assertion) needs
//! nothing.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// An ASCII word boundary inside a needed string.
pub const BOUNDARY: char = '\0';

/// The most strings an exact set may hold before it counts as unknown.
const LIMIT: usize = 64;

/// Strings (lowercase), one of which every match of `pattern` contains;
/// `None` when the syntax promises none.
pub fn needs_of(pattern: &str) -> Option<Vec<String>> {
    let hir = regex_syntax::parse(pattern).ok()?;
    let mut found = needs(&hir)?;
    found.sort();
    found.dedup();
    Some(found)
}

/// Folds a character as the needles compare: ASCII case, the two
/// characters outside ASCII that fold to ASCII letters, and outside ASCII
/// a letter's lowercase when it is one character (a text outside ASCII is
/// folded the same way before its needs are looked for, [`super::Gate`]).
pub fn fold(c: char) -> char {
    match c {
        '\u{17F}' => 's',
        '\u{212A}' => 'k',
        c if c.is_ascii() => c.to_ascii_lowercase(),
        c => {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(one), None) => one,
                _ => c,
            }
        }
    }
}

/// The one letter a class stands for when it is only that letter's case
/// variants (what `(?i)` makes of a letter).
fn one_char(class: &Class) -> Option<char> {
    let mut chars = Vec::new();
    let mut push = |c: char| {
        chars.push(c);
        chars.len() <= 4
    };
    match class {
        Class::Unicode(u) => {
            for r in u.iter() {
                for c in r.start()..=r.end() {
                    if !push(c) {
                        return None;
                    }
                }
            }
        }
        Class::Bytes(b) => {
            for r in b.iter() {
                for c in r.start()..=r.end() {
                    if !push(char::from(c)) {
                        return None;
                    }
                }
            }
        }
    }
    let first = fold(*chars.first()?);
    chars.iter().all(|&c| fold(c) == first).then_some(first)
}

/// Every string `h` can match (lowercase), when there are few.
fn exact(h: &Hir) -> Option<Vec<String>> {
    match h.kind() {
        HirKind::Look(Look::WordAscii) => Some(vec![BOUNDARY.to_string()]),
        HirKind::Empty | HirKind::Look(_) => Some(vec![String::new()]),
        HirKind::Literal(l) => Some(vec![
            String::from_utf8_lossy(&l.0).chars().map(fold).collect(),
        ]),
        HirKind::Class(c) => one_char(c).map(|c| vec![c.to_string()]),
        HirKind::Capture(c) => exact(&c.sub),
        HirKind::Repetition(r) => match (r.min, r.max) {
            (1, Some(1)) => exact(&r.sub),
            (0, Some(1)) => {
                let mut strings = exact(&r.sub)?;
                strings.push(String::new());
                Some(strings)
            }
            _ => None,
        },
        HirKind::Concat(parts) => {
            let mut strings = vec![String::new()];
            for part in parts {
                strings = cross(&strings, &exact(part)?)?;
            }
            Some(strings)
        }
        HirKind::Alternation(branches) => {
            let mut strings = Vec::new();
            for branch in branches {
                strings.extend(exact(branch)?);
                if strings.len() > LIMIT {
                    return None;
                }
            }
            Some(strings)
        }
    }
}

fn cross(a: &[String], b: &[String]) -> Option<Vec<String>> {
    if a.len() * b.len() > LIMIT {
        return None;
    }
    Some(
        a.iter()
            .flat_map(|x| b.iter().map(move |y| format!("{x}{y}")))
            .collect(),
    )
}

fn needs(h: &Hir) -> Option<Vec<String>> {
    if let Some(strings) = exact(h) {
        return (!strings.iter().any(|s| s.trim_matches(BOUNDARY).is_empty())).then_some(strings);
    }
    match h.kind() {
        HirKind::Capture(c) => needs(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => needs(&r.sub),
        HirKind::Alternation(branches) => {
            let mut strings = Vec::new();
            for branch in branches {
                strings.extend(needs(branch)?);
            }
            Some(strings)
        }
        HirKind::Concat(parts) => best_of_parts(parts),
        _ => None,
    }
}

/// The most selective need of a concatenation: runs of exact parts are
/// joined into longer strings, and any single part's need is also the
/// whole's.
fn best_of_parts(parts: &[Hir]) -> Option<Vec<String>> {
    let mut best: Option<Vec<String>> = None;
    let mut consider = |candidate: Vec<String>| {
        if candidate.is_empty()
            || candidate
                .iter()
                .any(|s| s.trim_matches(BOUNDARY).is_empty())
        {
            return;
        }
        let score = |v: &[String]| {
            let length = |s: &String| s.chars().filter(|&c| c != BOUNDARY).count();
            let shortest = v.iter().map(length).min().unwrap_or(0).min(8);
            (shortest, usize::MAX - v.len())
        };
        if best.as_deref().is_none_or(|b| score(&candidate) > score(b)) {
            best = Some(candidate);
        }
    };
    let mut run: Option<Vec<String>> = None;
    for part in parts {
        match exact(part) {
            Some(strings) => {
                run = match run.take() {
                    None => Some(strings),
                    Some(prefix) => match cross(&prefix, &strings) {
                        Some(joined) => Some(joined),
                        None => {
                            consider(prefix);
                            Some(strings)
                        }
                    },
                };
            }
            None => {
                if let Some(prefix) = run.take() {
                    consider(prefix);
                }
                if let Some(strings) = needs(part) {
                    consider(strings);
                }
            }
        }
    }
    if let Some(prefix) = run {
        consider(prefix);
    }
    best
}
