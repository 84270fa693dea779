//! Which of a skill's files `audit --run` runs, and with what
//! (docs/audit.md, "Running a skill: audit --run"): every file of the skill
//! that SKILL.md's code (fenced blocks and inline code) names, and every
//! executable file under `scripts/`, when it is a script of a known
//! interpreter (by its `#!` line, else its extension) or a native program.
//! Each runs once bare, and once more with the arguments of each command
//! line of SKILL.md that runs it with some (up to [`MAX_INVOCATIONS`]): a
//! script that acts only on `--push` or a ticket number acts in the run.
//! A script a hook of the skill runs (frontmatter `hooks`, `hooks.json`)
//! runs once more per hook, handed that hook's event on stdin, as the
//! agent hands it.

use std::collections::BTreeSet;
use std::path::Path;

/// One file to run: its path in the skill and the command's first words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// `/`-separated, relative to the skill folder.
    pub file: String,
    /// The interpreter's name (`python3`, `bash`, …); `None`: run the file
    /// itself (a native program).
    pub interpreter: Option<String>,
    /// The arguments SKILL.md shows it run with (placeholders filled in);
    /// empty for the bare run.
    pub args: Vec<String>,
    /// The hook event this run is handed on stdin (its name); `None`:
    /// stdin is empty.
    pub hook: Option<String>,
}

impl Planned {
    /// What the run reads on stdin: the event of its hook ([`hook_event`]).
    pub fn stdin(&self) -> Option<String> {
        self.hook.as_deref().map(|h| {
            let (event, matcher) = h.split_once(' ').unwrap_or((h, ""));
            hook_event(event, matcher)
        })
    }
}

/// The most invocations with arguments run per script (besides the bare
/// one): each shares the skill's deadline.
pub const MAX_INVOCATIONS: usize = 3;

/// A file SKILL.md names that is not run, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub file: String,
    pub why: String,
}

/// Interpreters by extension. `sh` files run with `bash` when it is there
/// (skills write bash and call it `.sh`).
const BY_EXTENSION: &[(&str, &[&str])] = &[
    ("sh", &["bash", "sh"]),
    ("bash", &["bash"]),
    ("py", &["python3"]),
    ("js", &["node"]),
    ("mjs", &["node"]),
    ("cjs", &["node"]),
    ("pl", &["perl"]),
    ("rb", &["ruby"]),
];

/// Interpreters a `#!` line may name (its last path segment, or the word
/// after `env`), mapped to the program looked up.
const BY_SHEBANG: &[(&str, &str)] = &[
    ("sh", "sh"),
    ("bash", "bash"),
    ("dash", "sh"),
    ("zsh", "bash"),
    ("python", "python3"),
    ("python3", "python3"),
    ("node", "node"),
    ("nodejs", "node"),
    ("perl", "perl"),
    ("ruby", "ruby"),
];

const ELF: &[u8] = b"\x7fELF";

/// What to run in `dir`, and what SKILL.md names that cannot be run here.
/// `has` says whether an interpreter is installed.
pub fn plan(dir: &Path, has: &dyn Fn(&str) -> bool) -> (Vec<Planned>, Vec<Skipped>) {
    let mut named: BTreeSet<String> = BTreeSet::new();
    // Runs besides the bare ones: (file, arguments, hook event).
    let mut more: Vec<(String, Vec<String>, Option<String>)> = Vec::new();
    let text = std::fs::read_to_string(dir.join(crate::skill::SKILL_MD)).unwrap_or_default();
    let hooked = hooks(dir, &text)
        .into_iter()
        .filter_map(|(event, command)| {
            let words = shlex::split(&command)?;
            let (at, rel) =
                (words.iter().enumerate()).find_map(|(i, w)| Some((i, file_of(dir, w)?)))?;
            let args = words[at + 1..].iter().map(|a| filled(a)).collect();
            Some((rel, args, Some(event)))
        });
    for run in hooked {
        if !more.contains(&run) && more.len() < MAX_INVOCATIONS {
            named.insert(run.0.clone());
            more.push(run);
        }
    }
    for word in code_words(&text) {
        if let Some(rel) = file_of(dir, &word) {
            named.insert(rel);
        }
    }
    for (word, args) in invocations(&text) {
        if let Some(rel) = file_of(dir, &word) {
            let run = (rel, args, None);
            if !more.contains(&run)
                && more
                    .iter()
                    .filter(|(f, _, h)| *f == run.0 && h.is_none())
                    .count()
                    < MAX_INVOCATIONS
            {
                more.push(run);
            }
        }
    }
    executables_under(dir, "scripts", &mut named);
    // Each file as SKILL.md shows it, then as its hooks run it.
    more.sort_by_key(|(_, _, hook)| hook.is_some());
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    for file in named {
        match interpreter_of(dir, &file, has) {
            Ok(Some(planned)) => {
                run.push(planned.clone());
                run.extend(
                    more.iter()
                        .filter(|(f, ..)| *f == file)
                        .map(|(_, args, hook)| Planned {
                            args: args.clone(),
                            hook: hook.clone(),
                            ..planned.clone()
                        }),
                );
            }
            Ok(None) => {}
            Err(why) => skipped.push(Skipped { file, why }),
        }
    }
    (run, skipped)
}

/// The commands of the skill's hooks, each with its event and matcher
/// (`"PreToolUse Bash"`), wherever the skill declares or shows them: its
/// frontmatter `hooks` (Claude Code), a JSON file of the skill with a
/// `hooks` table (a plugin's `hooks/hooks.json`, a `settings.json` to
/// copy), and a JSON block of SKILL.md with one (a settings snippet the
/// user is told to add).
fn hooks(dir: &Path, skill_md: &str) -> Vec<(String, String)> {
    use serde_json::Value;
    let mut tables: Vec<serde_json::Map<String, Value>> = Vec::new();
    if let Some(table) = crate::skill::parse_skill_md(skill_md)
        .ok()
        .and_then(|md| md.hooks().cloned())
    {
        tables.push(table);
    }
    let mut texts = json_blocks(skill_md);
    json_files(dir, "", 3, &mut texts);
    for text in texts {
        if let Ok(Value::Object(mut doc)) = serde_json::from_str(&text)
            && let Some(Value::Object(table)) = doc.remove("hooks")
        {
            tables.push(table);
        }
    }
    let mut out = Vec::new();
    for (event, groups) in tables.iter().flatten() {
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group["matcher"].as_str().unwrap_or("");
            for hook in group["hooks"].as_array().into_iter().flatten() {
                if let Some(command) = hook["command"].as_str() {
                    let event = format!("{event} {matcher}").trim_end().to_owned();
                    out.push((event, command.to_owned()));
                }
            }
        }
    }
    out
}

/// The fenced blocks of `text` that hold a JSON object.
fn json_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut block, fence) {
            (None, true) => block = Some(String::new()),
            (Some(b), true) => {
                if b.trim_start().starts_with('{') && b.contains("\"hooks\"") {
                    blocks.push(std::mem::take(b));
                }
                block = None;
            }
            (Some(b), false) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks
}

/// The text of each JSON file (up to 64 KiB, not a link) below
/// `dir/sub`, `depth` folders down at most, that names `hooks`.
fn json_files(dir: &Path, sub: &str, depth: usize, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
        return;
    };
    for entry in entries.flatten() {
        let rel = Path::new(sub).join(entry.file_name());
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.is_dir() && depth > 0 {
            json_files(dir, &rel.to_string_lossy(), depth - 1, out);
        } else if meta.is_file()
            && meta.len() <= 64 * 1024
            && rel
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
            && let Ok(text) = std::fs::read_to_string(entry.path())
            && text.contains("\"hooks\"")
        {
            out.push(text);
        }
    }
}

/// The JSON an agent hands a hook of `event` on stdin (Claude Code's hook
/// input): the session, its transcript (a canary), the project as `cwd`,
/// and the event's own fields. A tool event names the first tool of
/// `matcher` that is one of the agent's (else `Bash`) with an input of
/// that tool: a `git push` for `Bash`, the project's source for a file.
fn hook_event(event: &str, matcher: &str) -> String {
    use super::canary::{PROJECT, TRANSCRIPT};
    use serde_json::json;
    let tool = (matcher.split('|').map(str::trim))
        .find(|t| ["Bash", "Write", "Edit", "MultiEdit", "Read", "WebFetch"].contains(t))
        .unwrap_or("Bash");
    let file = format!("{PROJECT}/src/app.py");
    let input = match tool {
        "Bash" => json!({"command": "git push origin main", "description": "Push the release"}),
        "WebFetch" => json!({"url": "https://docs.test/page", "prompt": "Summarise the page"}),
        "Read" => json!({"file_path": file}),
        _ => json!({"file_path": file, "content": "print('hello')\n"}),
    };
    let mut e = json!({
        "session_id": "0b7e5d2c-session",
        "transcript_path": TRANSCRIPT,
        "cwd": PROJECT,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    let fields = match event {
        "PreToolUse" | "PermissionRequest" | "BeforeTool" => {
            json!({"tool_name": tool, "tool_input": input})
        }
        "PostToolUse" | "AfterTool" => json!({"tool_name": tool, "tool_input": input,
            "tool_response": {"stdout": "", "stderr": "", "interrupted": false}}),
        "UserPromptSubmit" | "BeforeAgent" => json!({"prompt": "Deploy the app to production"}),
        "SessionStart" => json!({"source": "startup"}),
        "SessionEnd" => json!({"reason": "exit"}),
        "Stop" | "SubagentStop" => json!({"stop_hook_active": false}),
        "Notification" => json!({"message": "Claude needs your permission to use Bash"}),
        "PreCompact" => json!({"trigger": "auto", "custom_instructions": ""}),
        _ => json!({}),
    };
    if let (Some(e), serde_json::Value::Object(fields)) = (e.as_object_mut(), fields) {
        e.extend(fields);
    }
    e.to_string()
}

/// The words of SKILL.md's code: fenced blocks and inline code spans,
/// split where a shell would split them.
fn code_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for span in code_spans(text) {
        words.extend(
            span.split(|c: char| {
                c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '<' | '>' | '=')
            })
            .map(|w| w.trim_matches(|c| matches!(c, '"' | '\'' | ',' | ':')))
            .filter(|w| !w.is_empty())
            .map(str::to_owned),
        );
    }
    words
}

/// SKILL.md's code: each line of a fenced block, and each inline code
/// span of the other lines.
fn code_spans(text: &str) -> Vec<&str> {
    let mut spans = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        } else if in_fence {
            spans.push(line);
        } else {
            spans.extend(line.split('`').skip(1).step_by(2));
        }
    }
    spans
}

/// Each command of SKILL.md's code that names a word with arguments after
/// it: the word and its arguments, up to the command's end (`|`, `;`,
/// `&&`, `||`, a redirection, a comment), quotes dropped, placeholders
/// filled in ([`filled`]). Which words name a skill file is decided by the
/// caller.
fn invocations(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for span in code_spans(text) {
        let span = span.split(" #").next().unwrap_or(span);
        for command in span.split(['|', ';', '&']) {
            // A redirection ends the arguments; `<file>` is a placeholder.
            let words: Vec<String> = command
                .split_whitespace()
                .take_while(|w| {
                    let placeholder = w.starts_with('<') && w.ends_with('>') && w.len() > 2;
                    placeholder
                        || !w
                            .trim_start_matches(char::is_numeric)
                            .starts_with(['<', '>'])
                })
                .map(|w| w.trim_matches(|c| matches!(c, '"' | '\'')).to_owned())
                .filter(|w| !w.is_empty())
                .collect();
            for (i, word) in words.iter().enumerate() {
                let args: Vec<String> = words[i + 1..].iter().map(|a| filled(a)).collect();
                // A file's name: a path, or a name with an extension
                // (`bash setup.sh --push`); the caller checks it exists.
                let names_a_file = word.contains(['/', '.']);
                if names_a_file && !args.is_empty() && args.len() <= 12 {
                    out.push((word.clone(), args));
                }
            }
        }
    }
    out
}

/// A placeholder of a shown command filled in with a plausible value
/// (`<file>`, `{input}`, `$URL`, `path/to/report.pdf`, `FILE`): a URL
/// for one that names a URL (the sandbox's sink answers it), else a word;
/// a literal argument as it is.
fn filled(arg: &str) -> String {
    let lower = arg.to_ascii_lowercase();
    let placeholder = (arg.starts_with('<') && arg.ends_with('>'))
        || (arg.starts_with('{') && arg.ends_with('}'))
        || (arg.starts_with('[') && arg.ends_with(']'))
        || arg.starts_with('$')
        || lower.contains("path/to/")
        || (arg.len() > 1 && arg.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'));
    if !placeholder {
        return arg.to_owned();
    }
    if lower.contains("url") || lower.contains("http") {
        return "https://docs.test/page".to_owned();
    }
    match lower
        .rsplit_once('.')
        .map(|(_, e)| e.trim_end_matches(['>', '}', ']']))
    {
        Some(ext)
            if !ext.is_empty()
                && ext.len() <= 5
                && ext.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            format!("sample.{ext}")
        }
        _ => "sample".to_owned(),
    }
}

/// Whether `arg` is a sample input [`filled`] made (`sample`,
/// `sample.pdf`): only those are written into the project, never a name
/// the skill chose.
pub fn is_sample(arg: &str) -> bool {
    arg.strip_prefix("sample").is_some_and(|rest| {
        rest.is_empty()
            || rest.strip_prefix('.').is_some_and(|ext| {
                (1..=5).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            })
    })
}

/// The skill file a word names: the word itself, or what follows one of
/// its `/` (so `{baseDir}/scripts/x.py`, `$SKILL_DIR/scripts/x.py` and
/// `~/.claude/skills/name/scripts/x.py` name `scripts/x.py`). Markdown and
/// SKILL.md itself are never scripts.
fn file_of(dir: &Path, word: &str) -> Option<String> {
    let word = word.trim_start_matches("./");
    let mut candidates = vec![word];
    candidates.extend(word.match_indices('/').map(|(i, _)| &word[i + 1..]));
    candidates.into_iter().find_map(|c| {
        let safe = !c.is_empty()
            && !c.starts_with('/')
            && c.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
        let prose = [".md", ".txt", ".json", ".yaml", ".yml", ".toml"]
            .iter()
            .any(|e| c.ends_with(e));
        let path = dir.join(c);
        (safe && !prose && is_plain_file(&path)).then(|| c.to_owned())
    })
}

fn is_plain_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// Every file with an execute bit below `dir/sub`.
fn executables_under(dir: &Path, sub: &str, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
        return;
    };
    for entry in entries.flatten() {
        let rel = format!("{sub}/{}", entry.file_name().to_string_lossy());
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.is_dir() {
            executables_under(dir, &rel, out);
        } else if meta.is_file() && is_executable(&meta) {
            out.insert(rel);
        }
    }
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

/// How `file` is run: `Ok(None)` when it is no script at all (data that
/// SKILL.md happens to name), `Err` when it is one whose interpreter is
/// not installed.
fn interpreter_of(
    dir: &Path,
    file: &str,
    has: &dyn Fn(&str) -> bool,
) -> Result<Option<Planned>, String> {
    let mut head = [0u8; 256];
    let n = std::fs::File::open(dir.join(file))
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(ELF) {
        return Ok(Some(Planned {
            file: file.to_owned(),
            interpreter: None,
            args: Vec::new(),
            hook: None,
        }));
    }
    let wanted: Vec<&str> = if let Some(name) = shebang(head) {
        match BY_SHEBANG.iter().find(|(n, _)| *n == name) {
            Some((_, program)) => vec![program],
            None => return Err(format!("its `#!` names `{name}`, which is not run")),
        }
    } else {
        let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
        match BY_EXTENSION
            .iter()
            .find(|(e, _)| e.eq_ignore_ascii_case(ext))
        {
            Some((_, programs)) => programs.to_vec(),
            None => return Ok(None),
        }
    };
    match wanted.iter().find(|p| has(p)) {
        Some(p) => Ok(Some(Planned {
            file: file.to_owned(),
            interpreter: Some((*p).to_owned()),
            args: Vec::new(),
            hook: None,
        })),
        None => Err(format!("`{}` is not installed", wanted.join("` or `"))),
    }
}

/// The interpreter a `#!` line names: `#!/usr/bin/env -S python3 -u` →
/// `python3`; `#!/bin/bash` → `bash`; versions dropped (`python3.11` →
/// `python3`).
fn shebang(head: &[u8]) -> Option<String> {
    let line = head.strip_prefix(b"#!")?;
    let line = String::from_utf8_lossy(line.split(|b| *b == b'\n').next()?).into_owned();
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?.to_owned();
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?.to_owned();
    }
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match base {
        "python" if program.starts_with("python3") => "python3".to_owned(),
        _ => base.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shebangs_name_their_interpreter() {
        assert_eq!(
            shebang(b"#!/usr/bin/env python3\n").as_deref(),
            Some("python3")
        );
        assert_eq!(
            shebang(b"#!/usr/bin/env -S python3.11 -u\n").as_deref(),
            Some("python3")
        );
        assert_eq!(shebang(b"#!/bin/bash -e\necho").as_deref(), Some("bash"));
        assert_eq!(shebang(b"echo").as_deref(), None);
    }

    #[test]
    fn skill_md_code_names_scripts_by_any_prefix() {
        let dir = std::env::temp_dir().join(format!("skillpm-plan-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("scripts/a.py"), "print(1)\n").unwrap();
        std::fs::write(dir.join("scripts/b.sh"), "echo 1\n").unwrap();
        std::fs::write(dir.join("scripts/c.rs"), "fn main() {}\n").unwrap();
        std::fs::write(dir.join("notes.md"), "x").unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: x\n---\nRun `python {baseDir}/scripts/a.py --in f`.\n```bash\ncd x && bash \"$SKILL_DIR/scripts/b.sh\" | tee out\ncat notes.md scripts/c.rs ../escape.py\n```\n",
        )
        .unwrap();
        let (run, skipped) = plan(&dir, &|p| p != "bash");
        let files: Vec<(&str, Option<&str>, String)> = run
            .iter()
            .map(|p| (p.file.as_str(), p.interpreter.as_deref(), p.args.join(" ")))
            .collect();
        // `a.py` bare, then as SKILL.md shows it; `b.sh` is shown bare.
        assert_eq!(
            files,
            [
                ("scripts/a.py", Some("python3"), String::new()),
                ("scripts/a.py", Some("python3"), "--in f".to_owned()),
                ("scripts/b.sh", Some("sh"), String::new())
            ]
        );
        assert!(skipped.is_empty(), "{skipped:?}");
        let (_, skipped) = plan(&dir, &|p| p == "bash");
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_plugins_hooks_json_runs_its_script_with_the_event_of_its_matcher() {
        let dir = std::env::temp_dir().join(format!("skillpm-plan-hooks-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("hooks")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: x\ndescription: d\n---\nFormats.\n",
        )
        .unwrap();
        std::fs::write(dir.join("hooks/fmt.sh"), "cat\n").unwrap();
        std::fs::write(
            dir.join("hooks/hooks.json"),
            r#"{"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/fmt.sh\" --quiet"}]}]}}"#,
        )
        .unwrap();
        let (run, _) = plan(&dir, &|_| true);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(run.len(), 2, "bare, then as the hook: {run:?}");
        assert_eq!(run[1].hook.as_deref(), Some("PostToolUse Write|Edit"));
        assert_eq!(run[1].args, ["--quiet"]);
        let event: serde_json::Value = serde_json::from_str(&run[1].stdin().unwrap()).unwrap();
        assert_eq!(event["hook_event_name"], "PostToolUse");
        assert_eq!(event["tool_name"], "Write");
        assert_eq!(event["transcript_path"], super::super::canary::TRANSCRIPT);
        assert_eq!(run[0].stdin(), None);
    }

    #[test]
    fn shown_arguments_are_kept_and_placeholders_filled() {
        let shown = invocations(
            "Run `python scripts/sync.py --push --ticket <TICKET-ID>`.\n```bash\nbash scripts/clean.sh --older-than 30 | tee log\nnode scripts/fetch.js $URL path/to/report.pdf > out.json # then read it\n```\n",
        );
        let args_of = |w: &str| -> Vec<Vec<String>> {
            shown
                .iter()
                .filter(|(x, _)| x == w)
                .map(|(_, a)| a.clone())
                .collect()
        };
        assert_eq!(
            args_of("scripts/sync.py"),
            [["--push", "--ticket", "sample"]]
        );
        assert_eq!(args_of("scripts/clean.sh"), [["--older-than", "30"]]);
        assert_eq!(
            args_of("scripts/fetch.js"),
            [["https://docs.test/page", "sample.pdf"]]
        );
        // A script named without a folder, as in the skill's own root.
        assert_eq!(
            invocations("Then `bash setup.sh --push`."),
            [("setup.sh".to_owned(), vec!["--push".to_owned()])]
        );
        assert_eq!(filled("FILE"), "sample");
        assert!(is_sample("sample") && is_sample("sample.pdf"));
        assert!(!is_sample("sample.x/../y") && !is_sample("sample\0") && !is_sample("samples"));
        assert_eq!(filled("{input.csv}"), "sample.csv");
        assert_eq!(filled("--dry-run"), "--dry-run");
    }
}
