//! Argument substitution in a skill body, as Claude Code does it when a
//! skill is invoked with arguments:
//! - `$ARGUMENTS` becomes the whole argument string, exactly as given;
//! - `$ARGUMENTS[N]` and `$N` become the N-th argument (0-based) of the
//!   string split the way a shell splits words (quotes group, backslashes
//!   escape); a missing one becomes the empty string;
//! - when the body holds none of these and arguments were given, they are
//!   appended as a final `ARGUMENTS: …` paragraph so the model still sees
//!   them.
//!
//! Unlike a chain of regex replacements, this is one pass over the body:
//! text that came from an argument is never substituted again, so an
//! argument containing `$1` stays `$1`.
//!
//! `${CLAUDE_SKILL_DIR}` becomes the skill's folder, so skills written for
//! Claude Code find their bundled files under any agent. Shell
//! preprocessing (`` !`cmd` ``) is left exactly as written: skillpm never
//! runs it.

use std::path::Path;

/// Splits `arguments` into words like a POSIX shell (no expansion). An
/// unbalanced quote falls back to splitting on whitespace, as Claude Code
/// does when its parser gives up.
pub fn split(arguments: &str) -> Vec<String> {
    if arguments.trim().is_empty() {
        return Vec::new();
    }
    shlex::split(arguments)
        .unwrap_or_else(|| arguments.split_whitespace().map(str::to_owned).collect())
}

/// `body` with the placeholders above replaced. `arguments` is `None` when
/// the caller passed none: then only `${CLAUDE_SKILL_DIR}` is replaced.
pub fn substitute(body: &str, arguments: Option<&str>, skill_dir: &Path) -> String {
    let dir_placeholder = "${CLAUDE_SKILL_DIR}";
    let dir = skill_dir.display().to_string();
    let Some(raw) = arguments else {
        return body.replace(dir_placeholder, &dir);
    };
    let words = split(raw);
    let word =
        |i: Option<usize>| -> &str { i.and_then(|i| words.get(i)).map_or("", String::as_str) };
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(body.len() + raw.len());
    let mut found_placeholder = false;
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        let rest = &body[i..];
        let (replacement, len): (&str, usize) = if let Some(after) = rest.strip_prefix("$ARGUMENTS")
        {
            match indexed(after) {
                Some((index, used)) => (word(index), "$ARGUMENTS".len() + used),
                None => (raw, "$ARGUMENTS".len()),
            }
        } else if let Some((index, used)) = positional(&rest[1..]) {
            (word(index), 1 + used)
        } else if rest.starts_with(dir_placeholder) {
            out.push_str(&body[copied..i]);
            out.push_str(&dir);
            i += dir_placeholder.len();
            copied = i;
            continue;
        } else {
            i += 1;
            continue;
        };
        found_placeholder = true;
        out.push_str(&body[copied..i]);
        out.push_str(replacement);
        i += len;
        copied = i;
    }
    out.push_str(&body[copied..]);
    if !found_placeholder && !raw.is_empty() {
        out.truncate(out.trim_end().len());
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(raw);
    }
    out
}

/// `[N]` right after `$ARGUMENTS`: the index (None when too large to be
/// one) and the bytes used.
fn indexed(after: &str) -> Option<(Option<usize>, usize)> {
    let inner = after.strip_prefix('[')?;
    let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || inner.as_bytes().get(digits) != Some(&b']') {
        return None;
    }
    Some((inner[..digits].parse().ok(), digits + 2))
}

/// Digits right after `$`, not followed by a word character (`$1st` is not
/// a placeholder): the index and the bytes used.
fn positional(after: &str) -> Option<(Option<usize>, usize)> {
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let next = after.as_bytes().get(digits);
    if next.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
        return None;
    }
    Some((after[..digits].parse().ok(), digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(body: &str, args: &str) -> String {
        substitute(body, Some(args), Path::new("/skills/x"))
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(split("a b  c"), ["a", "b", "c"]);
        assert_eq!(
            split("\"my widget\" React 'Vue 3'"),
            ["my widget", "React", "Vue 3"]
        );
        assert_eq!(split("it\\'s"), ["it's"]);
        assert_eq!(split("   "), Vec::<String>::new());
        // Unbalanced quote: whitespace split, quotes kept.
        assert_eq!(split("don't stop"), ["don't", "stop"]);
    }

    #[test]
    fn all_three_forms() {
        assert_eq!(sub("Fix $ARGUMENTS now", "issue 123"), "Fix issue 123 now");
        assert_eq!(
            sub("from $ARGUMENTS[0] to $ARGUMENTS[1]", "\"my widget\" React"),
            "from my widget to React"
        );
        assert_eq!(sub("$0 then $1, $2.", "a b"), "a then b, .");
        assert_eq!(sub("raw: $ARGUMENTS", "\"a b\" c"), "raw: \"a b\" c");
    }

    #[test]
    fn appends_when_no_placeholder_and_only_then() {
        assert_eq!(sub("Do it.", "fast"), "Do it.\n\nARGUMENTS: fast");
        assert_eq!(sub("Do it.\n\n", "fast"), "Do it.\n\nARGUMENTS: fast");
        assert_eq!(sub("Do it.", ""), "Do it.");
        assert_eq!(sub("Do $0.", ""), "Do .");
        assert_eq!(substitute("Do it.", None, Path::new("/s")), "Do it.");
    }

    #[test]
    fn near_misses_are_left_alone() {
        // `$5` is a placeholder like any other: the missing argument is empty.
        assert_eq!(sub("costs $5", "x"), "costs ");
        assert_eq!(sub("the $1st item", "x"), "the $1st item\n\nARGUMENTS: x");
        assert_eq!(sub("$ARGUMENTS[x] $HOME $", "a"), "a[x] $HOME $");
        assert_eq!(sub("$ARGUMENTS[99999999999999999999999]", "a"), "");
    }

    #[test]
    fn inserted_text_is_not_substituted_again() {
        assert_eq!(sub("$0 and $1", "'$1' b"), "$1 and b");
        assert_eq!(sub("$ARGUMENTS", "$0"), "$0");
    }

    #[test]
    fn skill_dir_and_shell_lines() {
        let body = "Run ${CLAUDE_SKILL_DIR}/scripts/go.sh $0\n!`git status`\n";
        assert_eq!(
            sub(body, "now"),
            "Run /skills/x/scripts/go.sh now\n!`git status`\n"
        );
        assert_eq!(
            substitute("${CLAUDE_SKILL_DIR}/a", None, Path::new("/d")),
            "/d/a"
        );
    }

    #[test]
    fn multibyte_text_survives() {
        assert_eq!(sub("héllo $0 — ✓", "wörld"), "héllo wörld — ✓");
    }
}
