//! Shell preprocessing in a SKILL.md body: Claude Code runs `` !`command` ``
//! (when `!` starts a line or follows whitespace) and fenced blocks opened
//! with ```` ```! ```` on the user's machine *before* the model sees the
//! skill, so the approval summary must show every one of them.
//!
//! The preprocessor does not understand markdown (inline code and fences do
//! not protect a command), so neither does this scan: it reports whatever
//! the agent would run, erring towards reporting too much.

use serde::Serialize;

/// One command an agent would run when loading the skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShellCommand {
    /// 1-based line in SKILL.md where the command starts.
    pub line: usize,
    /// The command text as written (a whole script for a block).
    pub command: String,
    /// `true` for a ```` ```! ```` fenced block, `false` for inline `` !`…` ``.
    pub block: bool,
}

/// Finds the shell commands in `body`, whose first line is line
/// `first_line` of SKILL.md.
pub fn find(body: &str, first_line: usize) -> Vec<ShellCommand> {
    let mut out = Vec::new();
    let lines: Vec<&str> = body.split('\n').collect();
    // Byte offset of each line start, to map inline matches back to lines.
    let mut starts = Vec::with_capacity(lines.len());
    let mut offset = 0;
    for line in &lines {
        starts.push(offset);
        offset += line.len() + 1;
    }
    let line_of = |byte: usize| starts.partition_point(|&s| s <= byte) - 1 + first_line;

    // Fenced blocks first; their text is then skipped by the inline scan.
    let mut in_block: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(rest) = trimmed.strip_prefix("```!")
            && !rest.starts_with('`')
        {
            let open = i;
            let mut close = open + 1;
            while close < lines.len() && lines[close].trim() != "```" {
                close += 1;
            }
            let script = lines[open + 1..close.min(lines.len())].join("\n");
            out.push(ShellCommand {
                line: open + first_line,
                command: script,
                block: true,
            });
            let end = starts
                .get(close)
                .map_or(body.len(), |s| s + lines[close].len());
            in_block.push((starts[open], end));
            i = close + 1;
            continue;
        }
        i += 1;
    }

    let bytes = body.as_bytes();
    let mut pos = 0;
    while let Some(found) = body[pos..].find("!`") {
        let at = pos + found;
        pos = at + 2;
        if in_block.iter().any(|&(s, e)| at >= s && at < e) {
            continue;
        }
        let starts_token = at == 0 || bytes[at - 1].is_ascii_whitespace();
        if !starts_token {
            continue;
        }
        let Some(len) = body[at + 2..].find('`') else {
            break;
        };
        if len == 0 {
            continue;
        }
        out.push(ShellCommand {
            line: line_of(at),
            command: body[at + 2..at + 2 + len].to_owned(),
            block: false,
        });
        pos = at + 2 + len + 1;
    }
    out.sort_by_key(|c| c.line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(body: &str) -> Vec<(usize, String, bool)> {
        find(body, 10)
            .into_iter()
            .map(|c| (c.line, c.command, c.block))
            .collect()
    }

    #[test]
    fn inline_commands_at_line_start_or_after_whitespace() {
        let body = "Branch: !`git branch --show-current`\n!`date`\nKEY=!`not run`\n";
        assert_eq!(
            cmds(body),
            [
                (10, "git branch --show-current".into(), false),
                (11, "date".into(), false),
            ]
        );
    }

    #[test]
    fn inline_code_does_not_protect_a_command() {
        assert_eq!(
            cmds("Write `x` then ` !`rm -rf tmp`\n"),
            [(10, "rm -rf tmp".into(), false)]
        );
    }

    #[test]
    fn fenced_blocks_are_scripts() {
        let body = "Intro\n```!\necho one\necho !`two`\n```\nafter !`three`\n";
        assert_eq!(
            cmds(body),
            [
                (11, "echo one\necho !`two`".into(), true),
                (15, "three".into(), false),
            ]
        );
    }

    #[test]
    fn plain_fences_and_text_are_not_commands() {
        assert!(cmds("```sh\necho hi\n```\nWow! `code` here\n").is_empty());
        assert!(cmds("an unclosed !`command\n").is_empty());
    }
}
