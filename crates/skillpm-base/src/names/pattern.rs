//! Skill-name patterns for `[agent.<name>] allow/deny`: `*` matches any run
//! of characters (including none), `?` exactly one; everything else matches
//! itself. Names are short, so a simple backtracking matcher is enough.

/// Whether `name` matches `pattern` as a whole.
pub fn matches(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0usize, 0usize);
    // Where the last `*` was, and the name position it was tried against.
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || c == n[ni] => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                // Let the last `*` swallow one more character and retry.
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A pattern may only hold what a skill name holds (`a-z`, `0-9`, `-`)
/// plus the wildcards, so a typo such as `Deploy-*` is caught instead of
/// silently matching nothing.
pub fn validate(pattern: &str) -> Result<(), &'static str> {
    if pattern.is_empty() {
        return Err("is empty");
    }
    if pattern
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '*' | '?'))
    {
        Ok(())
    } else {
        Err("is not a skill-name pattern: use a-z, 0-9, `-`, and the wildcards `*` and `?`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(matches("code-*", "code-review"));
        assert!(matches("code-*", "code-"));
        assert!(!matches("code-*", "code"));
        assert!(matches("*", ""));
        assert!(matches("*-prod", "deploy-prod"));
        assert!(!matches("*-prod", "deploy-production"));
        assert!(matches("a*b*c", "aXXbYYbc"));
        assert!(matches("pdf?", "pdf2"));
        assert!(!matches("pdf?", "pdf"));
        assert!(!matches("pdf?", "pdf22"));
        assert!(matches("exact", "exact"));
        assert!(!matches("exact", "exactly"));
    }

    #[test]
    fn validation() {
        assert!(validate("deploy-*").is_ok());
        assert!(validate("pdf?").is_ok());
        assert!(validate("").is_err());
        assert!(validate("Deploy-*").is_err());
        assert!(validate("../x").is_err());
    }
}
