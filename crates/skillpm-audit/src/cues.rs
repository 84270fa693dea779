//! The engine of the capability tables (docs/audit.md#capabilities): a
//! *cue* is one way to spell a capability (a settings key that drops the
//! approvals, a tool that prints a credential, a phrase that hands the
//! agent's orders to a web page), and what it means for the skill: a
//! credential source or a sink of [`super::capability`], a file run, an
//! instruction family, or a finding of its own. Each capability module
//! (`standing`, `steering`, `tools`, `blind`) is a table of cues; this file
//! runs a table over a file's text.
//!
//! Every cue names literals one of which each of its matches contains: a
//! file holding none of a table's literals costs one pass of one automaton
//! (docs/performance.md#the-audits-rules).

use std::sync::OnceLock;

use regex::Regex;

use super::Passed;
use super::capability::{CueNote, Skill};
use super::rules::{Lines, is_teaching, negated, quoted};

/// What a cue's match says about the skill.
#[derive(Debug, Clone, Copy)]
pub(super) enum Means {
    /// A credential or private data read (a *source*).
    Source,
    /// Data sent away (a *sink*).
    Sink,
    /// The file named by the first group is run.
    Run,
    /// An instruction to the agent of this family (two families escalate).
    Family(&'static str),
    /// A finding of this rule, at the rule's severity.
    Rule(&'static str),
    /// An instruction to hide from the user a step the agent runs: the
    /// family "hide actions from the user", and `hidden-action` in a skill
    /// that reaches the network.
    Hides,
}

/// Where a cue is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CuePlace {
    Any,
    /// Prose files (`.md`, `.txt`): instructions to the agent.
    Prose,
    /// Everything but prose: scripts, settings, data.
    Code,
    /// Programs only (by extension): not data files that name things.
    Script,
}

/// Whether `rel` is a program by its extension.
fn is_script(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "py" | "js"
            | "mjs"
            | "cjs"
            | "ts"
            | "mts"
            | "cts"
            | "rb"
            | "go"
            | "ps1"
            | "psm1"
            | "sh"
            | "bash"
            | "zsh"
            | "pl"
            | "php"
            | "lua"
            | "java"
            | "kt"
            | "rs"
            | "swift"
            | "cs"
    ) || !lower.rsplit('/').next().unwrap_or("").contains('.')
}

/// How a match in prose can be explained away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Explain {
    /// Never: the match is what it does wherever it is.
    Never,
    /// Teaching (a lesson about the danger, a placeholder).
    Teaching,
    /// Teaching, or said in the negative ("do not …") or quoted.
    Negated,
}

/// One cue of a table.
#[derive(Debug)]
pub(super) struct Cue {
    pub means: Means,
    /// What the finding's excerpt says it does.
    pub what: &'static str,
    /// Literals separated by `|` (lowercase, matched without regard to
    /// ASCII case), one of which every match of `pattern` contains.
    pub needs: &'static str,
    /// The expression (word boundaries are ASCII ones).
    pub pattern: &'static str,
    /// An expression that must also match somewhere in the same file
    /// (`""`: none).
    pub also: &'static str,
    /// An expression that must also match near the match: in its
    /// paragraph for a prose cue, within three lines otherwise (`""`:
    /// none).
    pub near: &'static str,
    /// An expression that, matching the match's line, drops it (`""`:
    /// none): the honest form next to the attack (a pinned revision).
    pub unless: &'static str,
    pub place: CuePlace,
    pub explain: Explain,
}

impl Cue {
    /// What a cue leaves out: nothing else to match (`also`, `near`), no
    /// honest form beside it (`unless`), read in every file, never
    /// explained away. Each row names its `means`, `what`, `needs` and
    /// `pattern` and takes the rest from here (`..Cue::PLAIN`).
    pub(super) const PLAIN: Cue = Cue {
        means: Means::Source,
        what: "",
        needs: "",
        pattern: "",
        also: "",
        near: "",
        unless: "",
        place: CuePlace::Any,
        explain: Explain::Never,
    };
}

/// A table of cues, with its expressions compiled on first use; its
/// literals are looked for with every other literal of the audit in one
/// pass (`audit::LITERALS`).
pub(super) struct Table {
    cues: Vec<&'static Cue>,
    regexes: Vec<[OnceLock<Option<Regex>>; 4]>,
}

#[cfg(test)]
thread_local! {
    /// The cue expressions (the cue's `needs`, which of its four; not an
    /// empty one) asked for on this thread (what the warm-up builds ahead, held to its sample by
    /// a unit test).
    pub(super) static COMPILED: std::cell::RefCell<std::collections::BTreeSet<(&'static str, usize)>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
}

/// An expression of a cue table: constants of the capability modules (the
/// unit test `every_cue_compiles` compiles every one).
fn compile(source: &str) -> Option<Regex> {
    if source.is_empty() {
        return None;
    }
    Some(
        super::engine(&source.replace(r"\b", r"(?-u:\b)"))
            .unwrap_or_else(|e| panic!("audit cue: {e}")),
    )
}

impl Table {
    /// The cues of `tables`, in order, as one table.
    pub(super) fn new(tables: &[&'static [Cue]]) -> Table {
        let cues: Vec<&'static Cue> = tables.iter().flat_map(|t| t.iter()).collect();
        Table {
            regexes: cues.iter().map(|_| Default::default()).collect(),
            cues,
        }
    }

    /// What each cue needs, in order: one of these strings is in every
    /// match of its pattern.
    pub(super) fn needs(&self) -> impl Iterator<Item = Vec<String>> + '_ {
        self.cues
            .iter()
            .map(|cue| cue.needs.split('|').map(str::to_owned).collect())
    }

    /// Compiles the expression of each cue whose `needs` is one of
    /// `needs`, as its first use would (`audit::warm_up`).
    pub(super) fn warm(&self, needs: &[&str]) {
        for (i, cue) in self.cues.iter().enumerate() {
            if needs.contains(&cue.needs) {
                self.regex(i, 0);
            }
        }
    }

    fn regex(&self, cue: usize, which: usize) -> Option<&Regex> {
        let source = match which {
            0 => self.cues[cue].pattern,
            1 => self.cues[cue].also,
            2 => self.cues[cue].near,
            _ => self.cues[cue].unless,
        };
        #[cfg(test)]
        if !source.is_empty() {
            COMPILED.with(|c| c.borrow_mut().insert((self.cues[cue].needs, which)));
        }
        self.regexes[cue][which]
            .get_or_init(|| compile(source))
            .as_ref()
    }

    /// Runs the table over one file's text (`lines`), adding what it
    /// finds to `skill`; `line_of` maps a 0-based line index to the file's
    /// line number. Prose cues read `joined`, the text with each paragraph
    /// on one line ([`observe_all`]). `hit` says whether a cue's literals
    /// are in the text.
    #[allow(clippy::too_many_arguments)]
    fn observe(
        &self,
        rel: &str,
        lines: &Lines<'_>,
        joined: &str,
        prose: bool,
        line_of: &dyn Fn(usize) -> usize,
        hit: &dyn Fn(usize) -> bool,
        skill: &mut Skill,
    ) {
        let text = lines.text;
        let fences = std::cell::OnceCell::new();
        let taught = |index: usize| {
            super::context::introduced(
                lines,
                fences.get_or_init(|| super::context::fence_openings(lines)),
                index,
            )
        };
        for (i, cue) in self.cues.iter().enumerate() {
            let placed = match cue.place {
                CuePlace::Any => true,
                CuePlace::Prose => prose,
                CuePlace::Code => !prose,
                CuePlace::Script => !prose && is_script(rel),
            };
            if !hit(i) || !placed {
                continue;
            }
            let Some(pattern) = self.regex(i, 0) else {
                continue;
            };
            if self.regex(i, 1).is_some_and(|also| !also.is_match(text)) {
                continue;
            }
            let haystack = if prose && cue.place == CuePlace::Prose {
                joined
            } else {
                text
            };
            for c in pattern.captures_iter(haystack) {
                let Some(m) = c.get(0) else { continue };
                let index = lines.index(m.start());
                if let Some(near) = self.regex(i, 2) {
                    let found = if prose && cue.place == CuePlace::Prose {
                        // Prose: the paragraph of the match.
                        let from = haystack[..m.start()].rfind('\n').map_or(0, |at| at + 1);
                        let to = haystack[m.end()..]
                            .find('\n')
                            .map_or(haystack.len(), |at| m.end() + at);
                        near.is_match(&haystack[from..to])
                    } else {
                        let last = (index + 4).min(lines.starts.len());
                        (index.saturating_sub(3)..last).any(|l| near.is_match(lines.line(l)))
                    };
                    if !found {
                        continue;
                    }
                }
                if self
                    .regex(i, 3)
                    .is_some_and(|unless| unless.is_match(lines.line(index)))
                {
                    continue;
                }
                let explained = prose
                    && match cue.explain {
                        Explain::Never => false,
                        Explain::Teaching => {
                            is_teaching(lines, index, m.start(), m.end()) || taught(index)
                        }
                        Explain::Negated => {
                            is_teaching(lines, index, m.start(), m.end())
                                || taught(index)
                                || negated(lines, m.start())
                                || quoted(lines, m.start(), m.end())
                        }
                    };
                if explained {
                    continue;
                }
                let note = match cue.means {
                    Means::Source => CueNote::Source,
                    Means::Sink => CueNote::Sink,
                    Means::Run => match c.get(1) {
                        Some(file) => CueNote::Run(file.as_str().to_owned()),
                        None => continue,
                    },
                    Means::Family(name) => CueNote::Family(name),
                    Means::Rule(id) => CueNote::Rule(id, cue.what),
                    Means::Hides => CueNote::Hides,
                };
                skill.note(note, rel, line_of(index), lines.line(index));
                break;
            }
        }
    }
}

/// Runs every capability table (`audit::CUE_TABLES`) over one file's
/// text, whose pass of `audit::LITERALS` is `passed`: prose is
/// read by paragraph (`joined`: a sentence wrapped onto the next line is
/// one sentence; same length, so offsets stay the file's; empty for
/// other files).
pub(super) fn observe_all(
    rel: &str,
    lines: &Lines<'_>,
    joined: &str,
    prose: bool,
    line_of: &dyn Fn(usize) -> usize,
    passed: &Passed<'_>,
    skill: &mut Skill,
) {
    // A file whose *name* is a command runs when a listing or a glob
    // reaches a shell (`sh -c "$(ls assets)"`).
    if (rel.contains("$(") || rel.contains('`'))
        && ["curl", "wget", "sh ", ";sh", "bash", "eval"]
            .iter()
            .any(|w| rel.contains(w))
    {
        skill.note(
            CueNote::Rule(
                "download-then-run",
                "a file name that is a shell command (it runs when a listing or a glob reaches a shell)",
            ),
            rel,
            0,
            rel,
        );
    }
    let at = super::LITERALS.cues;
    let hit = |i: usize| passed.hit(at + i);
    super::CUE_TABLES.observe(rel, lines, joined, prose, line_of, &hit, skill);
}

/// The rules of the high or critical findings of a skill made of `files`:
/// what the tables' unit tests assert on.
#[cfg(test)]
pub(super) fn high(files: &[(&str, &str)]) -> Vec<String> {
    use crate::{Severity, audit_files};
    audit_files(files.iter().map(|(p, t)| (*p, t.as_bytes())))
        .into_iter()
        .filter(|f| f.severity >= Severity::High)
        .map(|f| f.rule)
        .collect()
}

/// Each of `attacks` (a file name and its text, one skill each) has a
/// high or critical finding of one of `rules`: what the tables' unit
/// tests assert after their honest forms.
#[cfg(test)]
pub(super) fn caught(rules: &[&str], attacks: &[(&str, &str)]) {
    for (file, text) in attacks {
        let found = high(&[(file, text)]);
        assert!(
            found.iter().any(|r| rules.contains(&r.as_str())),
            "{file}: {text}: {found:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::audit_file;
    use crate::rules::CUE_RULES;

    #[test]
    fn every_cue_compiles() {
        use crate::{blind, standing, steering, tools};
        for cue in [standing::CUES, steering::CUES, tools::CUES, blind::CUES]
            .into_iter()
            .flatten()
        {
            assert!(!cue.pattern.is_empty(), "{}", cue.what);
            for source in [cue.pattern, cue.also, cue.near, cue.unless] {
                super::compile(source);
            }
            for need in cue.needs.split('|') {
                assert!(!need.is_empty(), "{}: an empty literal", cue.what);
                assert_eq!(need, need.to_lowercase(), "{}", cue.what);
            }
        }
    }

    #[test]
    fn every_cue_rule_catches_its_example() {
        for rule in CUE_RULES {
            let text = format!("Step one.\n{}\n", rule.example);
            let found = audit_file("SKILL.md", text.as_bytes());
            assert!(
                found
                    .iter()
                    .any(|f| f.rule == rule.id && f.severity == rule.severity),
                "{} does not catch its example: {found:?}",
                rule.id
            );
        }
    }
}
